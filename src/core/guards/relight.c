/* SPDX-License-Identifier: Zlib */
/* Guards relight the lights of their round they find out (docs/ai.md, "Relighting"). A guard
 * knows a light once it has seen it lit on its round (bit i of brain.light_known); seeing it
 * out later, on its round or on its way back, with no other guard going, it walks (A*) to
 * the light, stands beside it, and lights it again (pt__light_set), then returns. While it
 * goes its state reads patrol, as on a goto; chases, noises, searches and orders take it off
 * (pt__relight_decide gives the relight up). */
#include "guards/relight.h"

#include <patrol/los.h>
#include <math.h>

#include "guards/door_path.h"
#include "guards/motion.h"
#include "guards/state_change.h"
#include "guards/walk.h"
#include "senses/light.h"

static int stand_ticks(const pt_world *w) {
    int n = (int)lround(PT__RELIGHT_STAND_S * w->tick_hz);
    return n > 0 ? n : 1;
}

static void to_round(pt_world *w, pt_entity *e) { pt__set_state(w, e, e->run.pat ? PT_STATE_RETURN : PT_STATE_IDLE); }

/* Whether a guard other than `self` is going to relight light i now. */
static int claimed(const pt_world *w, int i, int self) {
    for (int j = 1; j < w->n; j++) {
        const pt__brain *b = &w->brains[j];
        if (j != self && b->relight == i + 1 && w->ents[j].kind == PT_KIND_GUARD && w->ents[j].state == PT_STATE_PATROL &&
            !b->order_on)
            return 1;
    }
    return 0;
}

/* The cell e walks to for light l: the light's cell when walkable, else the walkable cell of
 * the 8 around it nearest to e by path (A* over walkable cells; through closed doors only
 * when that finds no way, as the way back to a round). 0 when no way leads to any. */
static int goal_of(pt_world *w, const pt_entity *e, const pt_light_def *l, pt_cell *goal) {
    const pt_map *m = &w->map;
    pt_cell goals[8];
    int n = 0;
    if (pt_map_walkable(m, l->x, l->y)) {
        goals[n++] = (pt_cell){l->x, l->y};
    } else {
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dx || dy) && pt_map_walkable(m, l->x + dx, l->y + dy)) goals[n++] = (pt_cell){l->x + dx, l->y + dy};
    }
    if (n == 0) return 0;
    const pt_cell from = {e->x, e->y};
    int which = -1;
    int len = pt_path_find_nearest(w->pf, from, goals, n, w->scratch, w->scratch_cap, &which);
    if (len < 1 && w->doors_shut > 0) {
        pt__doors_passable(w, 1);
        len = pt_path_find_nearest(w->pf, from, goals, n, w->scratch, w->scratch_cap, &which);
        pt__doors_passable(w, 0);
    }
    if (len < 1 || which < 0 || which >= n) return 0;
    *goal = goals[which];
    return 1;
}

/* No way leads to the light (any more): it forgets it, and goes back to its round. */
static void give_up(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    b->light_known &= ~((uint64_t)1 << (b->relight - 1));
    pt__relight_drop(b);
    to_round(w, e);
}

void pt__relight_decide(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (b->relight) {
        if (e->state != PT_STATE_PATROL || b->order_on) {
            pt__relight_drop(b); /* a chase, a noise, a search or an order came first */
        } else if (w->light_on[b->relight - 1]) {
            pt__relight_drop(b); /* lit meanwhile (the game): nothing left to do */
            to_round(w, e);
        }
        return;
    }
    const int on_round = e->state == PT_STATE_PATROL && !b->order_on;
    if (!on_round && e->state != PT_STATE_RETURN) return;
    /* only the lights whose cell may be within its view distance: the rest it cannot see */
    const double r = e->view_dist + 1.0;
    uint64_t near = pt__lights_near(w, e->px - r, e->py - r, e->px + r, e->py + r);
    for (; near; near &= near - 1) {
        const int i = __builtin_ctzll(near);
        const uint64_t bit = (uint64_t)1 << i;
        const int lit = w->light_on[i];
        if (lit ? !on_round || (b->light_known & bit) : !(b->light_known & bit)) continue; /* nothing to learn or do */
        const pt_light_def *l = &w->map.lights[i];
        if (!pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist, e->view_angle, l->x + 0.5, l->y + 0.5)) continue;
        if (lit) {
            b->light_known |= bit;
            continue;
        }
        if (claimed(w, i, (int)e->id)) continue;
        pt_cell goal;
        if (!goal_of(w, e, l, &goal)) {
            b->light_known &= ~bit; /* out of reach: forgotten until it sees it lit again */
            continue;
        }
        pt__set_state(w, e, PT_STATE_PATROL); /* from return; on its round, nothing changes */
        b->planned = 0;
        e->path_len = e->path_idx = 0;
        b->relight = i + 1;
        b->relight_wait = 0;
        b->relight_at = goal;
        return;
    }
}

/* A tile mover's tick on its way: 1 when it began the tick on the goal (the stand begins),
 * else 0 (or it gave up). Its plan is made before it steps, so that a first step into a closed
 * door is met by the door's pause next tick (doors.c) and not taken as the path's end. */
static int walk_tiles(pt_world *w, pt_entity *e, pt_cell goal) {
    pt__brain *b = &w->brains[e->id];
    if (e->x == goal.x && e->y == goal.y) return 1;
    if (!b->planned || b->target_cell.x != goal.x || b->target_cell.y != goal.y || e->path_idx >= e->path_len) {
        if (!pt__plan_to(w, e, goal)) {
            give_up(w, e);
            return 0;
        }
        const pt_cell c = e->path[e->path_idx];
        if (w->doors_shut > 0 && !pt_map_walkable(&w->map, c.x, c.y) && pt__door_find(w, c.x, c.y) >= 0) {
            pt__stand(w, e);
            return 0;
        }
    }
    if (pt__walk_tiles(w, e, goal) < 0) give_up(w, e);
    return 0;
}

void pt__relight_tick(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    const int i = b->relight - 1;
    const pt_light_def *l = &w->map.lights[i];
    const pt_cell goal = b->relight_at;
    if (b->relight_wait == 0) {
        if (e->motion == PT_MOTION_CONTINUOUS) {
            int r = pt__goto_continuous(w, e, goal, 1.0);
            if (r < 0) { /* stuck: on by tiles, along a fresh plan */
                pt__go_tile(w, e);
                b->planned = 0;
            } else if (r == 0 && !b->planned) {
                give_up(w, e); /* no way there */
            } else if (r > 0) {
                b->relight_wait = stand_ticks(w); /* arrived: the stand begins next tick */
            }
            return;
        }
        if (!walk_tiles(w, e, goal)) return;
        b->relight_wait = stand_ticks(w); /* this tick is the stand's first */
    }
    /* The stand: facing the light (from its own cell, facing as it is). */
    const int on_it = e->x == l->x && e->y == l->y;
    if (e->motion == PT_MOTION_CONTINUOUS) {
        pt__brake_continuous(w, e, on_it ? e->heading : atan2(l->y + 0.5 - e->py, l->x + 0.5 - e->px));
    } else {
        if (!on_it) e->heading = atan2((double)(l->y - e->y), (double)(l->x - e->x));
        pt__stand(w, e);
    }
    if (--b->relight_wait > 0) return;
    pt__light_set(w, i, 1, e->id);
    pt__relight_drop(b);
    to_round(w, e);
}
