/* SPDX-License-Identifier: Zlib */
/* Guard brains: sight -> awareness -> patrol / suspicious / chase / search / return.
 *
 * The order inside one guard's tick is fixed (perceive, decide, act) and guards run in id
 * order after the player, so a tick is deterministic. Distances are in tiles, times in ticks
 * derived from seconds at the world's tick rate. */
#include "guards/brain.h"

#include <patrol/bresenham.h>
#include <patrol/los.h>
#include <math.h>
#include <stdlib.h>

#include "guards/doors.h"
#include "guards/motion.h"
#include "guards/orders.h"
#include "guards/patrol.h"
#include "guards/search.h"
#include "guards/state_change.h"
#include "guards/tuning.h"
#include "guards/walk.h"
#include "senses/memory.h"
#include "senses/perceive.h"
#include "state/events.h"
#include "state/move.h"
#include "state/player.h"

static int secs(const pt_world *w, double s) { return (int)lround(s * w->tick_hz); }

static double turn_toward(double from, double to, double max_step) {
    double d = pt_wrap_angle(to - from);
    if (d > max_step) d = max_step;
    if (d < -max_step) d = -max_step;
    return pt_wrap_angle(from + d);
}

/* A new chaser calls out once every guard has moved (calls.c), so that all hear the same
 * world whatever their ids. */
static void start_chase(pt_world *w, pt_entity *e) {
    pt__world_event(w, PT_EVENT_SPOTTED, e->id, 0, e->x, e->y);
    pt__memory_all_acted(w, e); /* the player is found: what it meant to look at is moot */
    pt__set_state(w, e, PT_STATE_CHASE);
    if (w->callers && w->ncallers < w->n) w->callers[w->ncallers++] = (int)e->id;
}

/* Awareness fills while the player is seen (or sensed close by, more slowly; more slowly in
 * the dark: the step's visibility), faster when closer, and drains otherwise. */
static void perceive(pt_world *w, pt_entity *e) {
    const pt_entity *p = &w->ents[0];
    double sure = 1.0; /* the fraction of the fill rate: also how sure it is of what it saw */
    if (w->sight_fn) w->sight_fn(w->sight_user, w, e);
    e->sees_player = !w->player_hidden && pt__guard_sees(w, e, p->px, p->py, w->vis, &sure);
    const double rate = w->phase == PT_PHASE_CAUTION ? sure * w->phases.caution_aware : sure;
    if (e->sees_player) {
        double dist = hypot(p->px - e->px, p->py - e->py);
        double closeness = 1.0 - 0.75 * pt_clamp(dist / e->view_dist, 0.0, 1.0);
        e->awareness += e->aware_rate * rate * closeness * w->dt;
        double cap = e->chase_at * 1.5;
        if (e->awareness > cap) e->awareness = cap;
        pt__memory_note(w, e, PT_MEMORY_SEEN, p->px, p->py, sure);
    } else if (e->awareness > 0.0) {
        e->awareness -= e->aware_decay * w->dt;
        if (e->awareness < 0.0) e->awareness = 0.0;
    }
}

/* Line-of-sight chase on tiles: step along the Bresenham line to the target when it is
 * walkable, else along an A* path (re-planned when the target cell changes). */
static void chase_tile_step(pt_world *w, pt_entity *e, pt_cell target) {
    pt__brain *b = &w->brains[e->id];
    if (e->x == target.x && e->y == target.y) return;
    if (pt_line_walkable(&w->map, e->x, e->y, target.x, target.y)) {
        pt_line_iter it;
        pt_line_iter_init(&it, e->x, e->y, target.x, target.y);
        pt_line_iter_next(&it);
        pt__entity_move_to(e, it.x, it.y);
        b->planned = 0;
        return;
    }
    if (!b->planned || b->target_cell.x != target.x || b->target_cell.y != target.y || e->path_idx >= e->path_len)
        if (!pt__plan_to(w, e, target)) return;
    pt__path_step(e, &w->map);
}

/* Judged on the drawn positions, so the caught frame shows the guard at the player. The
 * catcher stays in chase on the caught tick (it looks like the guard that got you); the
 * world settles the catch at the start of the next tick. */
static int try_catch(pt_world *w, pt_entity *e) {
    const pt_entity *p = &w->ents[0];
    if (p->state == PT_STATE_CAUGHT) return 0; /* already caught this tick */
    pt_vec2 dg = pt_world_drawn_pos(w, (int)e->id, 0.0), dp = pt_world_drawn_pos(w, 0, 0.0);
    if (hypot(dp.x - dg.x, dp.y - dg.y) <= CATCH_DIST && pt_los_clear(&w->map, e->x, e->y, p->x, p->y)) {
        pt__player_caught(w, e);
        return 1;
    }
    return 0;
}

static void do_chase(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    const pt_entity *p = &w->ents[0];
    if (e->sees_player) b->lost_ticks = 0;
    else b->lost_ticks++;
    if (b->lost_ticks > secs(w, LOST_GRACE_S)) {
        pt__world_event(w, PT_EVENT_LOST, e->id, 0, e->x, e->y);
        pt__set_state(w, e, PT_STATE_SEARCH);
        return;
    }
    if (try_catch(w, e)) return;
    if (e->chase == PT_CHASE_TILE) pt__go_tile(w, e); /* a waypoint or thrust patrol chases by tiles too */
    if (e->chase != PT_CHASE_TILE && !b->chase_by_tile) {
        if (pt__chase_continuous(w, e, e->chase == PT_CHASE_INTERCEPT, CHASE_SPEED_SCALE) < 0) {
            /* Stuck (a local minimum of the forces): the rest of this chase goes by tiles. */
            pt__go_tile(w, e);
            b->chase_by_tile = 1;
            return;
        }
        try_catch(w, e);
        return;
    }
    pt_cell target = e->sees_player ? (pt_cell){p->x, p->y}
                                    : (pt_cell){(int)floor(e->last_seen_x), (int)floor(e->last_seen_y)};
    int n = pt__due_actions(w, e, CHASE_SPEED_SCALE);
    for (int i = 0; i < n; i++) {
        chase_tile_step(w, e, target);
        if (try_catch(w, e)) return;
    }
    if (e->sees_player && n == 0) e->heading = turn_toward(e->heading, atan2(p->py - e->py, p->px - e->px), TURN_RATE * w->dt);
}

/* Search and investigate: walk (A*) to `last`, then look around for look_s seconds and
 * return to the round. */
static void go_and_look(pt_world *w, pt_entity *e, pt_cell last, double look_s) {
    pt__brain *b = &w->brains[e->id];
    if (b->search_phase == 0 && e->motion == PT_MOTION_CONTINUOUS) {
        int r = pt__goto_continuous(w, e, last, 1.0);
        if (r < 0) { /* stuck: on by tiles, along a fresh plan */
            pt__go_tile(w, e);
            b->planned = 0;
            return;
        }
        if (r > 0 || !b->planned) {
            b->search_phase = 1;
            b->look_base = e->heading;
        }
        return;
    }
    if (b->search_phase == 0) {
        if (e->x == last.x && e->y == last.y) {
            b->search_phase = 1;
            b->look_base = e->heading;
            return;
        }
        /* Unreachable: it looks around from here, from the tick it finds no path (not when its
         * first step would be due, which depends on its speed). */
        if (!b->planned && !pt__plan_to(w, e, last)) {
            b->search_phase = 1;
            b->look_base = e->heading;
            pt__stand(w, e);
            return;
        }
        int n = pt__due_actions(w, e, 1.0);
        for (int i = 0; i < n; i++) {
            if (pt__path_step(e, &w->map)) {
                b->search_phase = 1;
                b->look_base = e->heading;
                return;
            }
        }
        return;
    }
    /* Looking around: quarter turns left and right of where it arrived facing. */
    b->search_ticks++;
    static const double offsets[4] = {PT_PI / 2, 0.0, -PT_PI / 2, PT_PI};
    int k = (b->search_ticks / (secs(w, LOOK_STEP_S) > 0 ? secs(w, LOOK_STEP_S) : 1)) % 4;
    if (e->motion == PT_MOTION_CONTINUOUS) pt__brake_continuous(w, e, b->look_base + offsets[k]);
    else {
        e->heading = turn_toward(e->heading, b->look_base + offsets[k], TURN_RATE * w->dt);
        pt__stand(w, e);
    }
    if (b->search_ticks >= secs(w, look_s)) pt__set_state(w, e, PT_STATE_RETURN);
}

/* One tick of walking toward `goal` along an A* path (re-planned when the goal changes). */
static void walk_to(pt_world *w, pt_entity *e, pt_cell goal) {
    pt__brain *b = &w->brains[e->id];
    if (e->motion == PT_MOTION_CONTINUOUS) {
        if (pt__goto_continuous(w, e, goal, 1.0) < 0) { /* stuck: on by tiles, along a fresh plan */
            pt__go_tile(w, e);
            b->planned = 0;
        }
        return;
    }
    pt__walk_tiles(w, e, goal);
}

/* Search: a member of the world's search (search.c) around the last known position, walking to
 * the cells it is given until the search is over. Without memory for it, the old way: walk
 * there and look around. */
static void do_search(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    pt_cell last = {(int)floor(e->last_seen_x), (int)floor(e->last_seen_y)};
    if (b->search_phase == 0 && pt_map_walkable(&w->map, last.x, last.y) && pt__search_join(w, e, last) == PT_OK)
        b->search_phase = 2;
    if (b->search_phase != 2) {
        go_and_look(w, e, last, SEARCH_LOOK_S);
        return;
    }
    pt_cell goal;
    int r = pt__search_step(w, e, &goal);
    if (r < 0) { /* it can reach no cell of the area: it leaves it and looks around from here */
        pt__search_leave(w, e);
        b->search_phase = 1;
        b->look_base = e->heading;
        if (e->motion == PT_MOTION_CONTINUOUS) pt__brake_continuous(w, e, e->heading);
        else pt__stand(w, e);
        return;
    }
    if (r == 0) {
        pt__set_state(w, e, PT_STATE_RETURN);
        return;
    }
    walk_to(w, e, goal);
}

void pt__brain_investigate(pt_world *w, pt_entity *e, pt_cell at) {
    if (e->state == PT_STATE_CHASE) return;
    pt__brain *b = &w->brains[e->id];
    if (e->state != PT_STATE_INVESTIGATE) {
        pt__set_state(w, e, PT_STATE_INVESTIGATE);
    } else { /* a new place: walk there afresh, look around anew */
        b->planned = 0;
        b->search_phase = 0;
        b->search_ticks = 0;
        e->path_len = e->path_idx = 0;
    }
    b->investigate_at = at;
}

void pt__brain_told(pt_world *w, pt_entity *e, double x, double y, double sure) {
    if (e->state == PT_STATE_CHASE) return;
    pt__memory_note(w, e, PT_MEMORY_TOLD, x, y, sure);
    /* Told is alert: seeing the player at the suspicious level is then enough to give chase. */
    if (e->awareness < e->suspicious_at) e->awareness = e->suspicious_at;
    if (w->orders_given && w->brains[e->id].order == PT_ORDER_HOLD) return; /* held: it knows, it does not go */
    if (e->sees_player) {
        start_chase(w, e);
        return;
    }
    pt__memory_acted(w, e, PT_MEMORY_TOLD);
    pt_cell at = {(int)floor(x), (int)floor(y)};
    if (e->state == PT_STATE_SEARCH) { /* search on, from the new place */
        pt__brain *b = &w->brains[e->id];
        b->planned = 0;
        b->search_phase = 0;
        b->search_ticks = 0;
        e->path_len = e->path_idx = 0;
        return;
    }
    pt__brain_investigate(w, e, at);
}

static void do_return(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (!e->run.pat) {
        pt__set_state(w, e, PT_STATE_IDLE);
        return;
    }
    if (!b->planned) {
        int ncells = pt_patrun_cells(&e->run, &w->map, w->scratch, w->scratch_cap);
        if (ncells > w->scratch_cap) ncells = w->scratch_cap;
        int which = -1, n = -1;
        if (ncells > 0) {
            /* pt_path_find_nearest writes into its own output; keep the goals in scratch. */
            pt_cell *goals = PT_MALLOC((size_t)ncells * sizeof *goals);
            if (goals) {
                for (int i = 0; i < ncells; i++) goals[i] = w->scratch[i];
                n = pt_path_find_nearest(w->pf, (pt_cell){e->x, e->y}, goals, ncells, w->scratch, w->scratch_cap, &which);
                if (n < 1 && w->doors_shut > 0) { /* no way back but through closed doors */
                    pt__doors_passable(w, 1);
                    n = pt_path_find_nearest(w->pf, (pt_cell){e->x, e->y}, goals, ncells, w->scratch, w->scratch_cap, &which);
                    pt__doors_passable(w, 0);
                }
                PT_FREE(goals);
            }
        }
        if (n < 1 || n > w->scratch_cap || !pt__path_reserve(e, n)) {
            /* Nowhere to go back to: stand and keep watch. */
            pt__set_state(w, e, PT_STATE_IDLE);
            return;
        }
        for (int i = 0; i < n; i++) e->path[i] = w->scratch[i];
        e->path_len = n;
        e->path_idx = 1;
        pt__plan_set(w, b, e->id);
        b->target_cell = e->path[n - 1];
    }
    int arrived;
    if (e->motion == PT_MOTION_CONTINUOUS) {
        arrived = pt__goto_continuous(w, e, b->target_cell, 1.0);
        if (arrived < 0) { /* stuck: walk the rest of the path by tiles */
            pt__go_tile(w, e);
            b->planned = 0;
            return;
        }
    } else {
        int n = pt__due_actions(w, e, 1.0);
        arrived = e->path_idx >= e->path_len;
        for (int i = 0; i < n && !arrived; i++) arrived = pt__path_step(e, &w->map);
    }
    if (arrived) {
        pt_pattern_kind kind = e->run.pat->kind;
        if (kind != PT_PAT_THRUST && kind != PT_PAT_WAYPOINTS) pt__go_tile(w, e);
        if (pt_patrun_resume_at(&e->run, &w->map, e->x, e->y)) {
            if (kind == PT_PAT_THRUST) {
                /* The lap goes on from where the guard is: the runner at the guard's place, at
                 * that point of its lap (heading, speed, instruction). */
                pt__go_continuous(w, e);
                e->run.thrust.pos = e->veh.pos;
                e->run.x = e->x;
                e->run.y = e->y;
            } else if (kind == PT_PAT_WAYPOINTS) {
                w->agents[e->id].path.current = e->run.wp_index;
            }
            pt__world_event(w, PT_EVENT_RETURNED, e->id, 0, e->x, e->y);
            pt__set_state(w, e, PT_STATE_PATROL);
        } else {
            b->planned = 0; /* the pattern changed under us: plan again */
        }
    }
}

/* Goes to look at the place it remembers as kind k (heard, told): it has acted on it then. */
static void look_into(pt_world *w, pt_entity *e, pt_memory_kind k) {
    const pt__memory *m = &w->brains[e->id].mem[k];
    pt__memory_acted(w, e, k);
    pt__brain_investigate(w, e, (pt_cell){m->x, m->y});
}

/* One guard's tick after it perceived. `extras` is 1 in a world where a door was ever other than open or the game
 * gave an order (door_live, orders_given): the door and order rules run only there. It is a
 * constant in each of the two instances pt__brain_update makes of this one body, so a world
 * without doors or orders pays for neither (one test a guard). */
static inline __attribute__((always_inline)) void brain_update(pt_world *w, pt_entity *e, const int extras) {
    /* A heard noise raises awareness, never to the chase level: hearing alone never starts a
     * chase, only sight does. It is the place that is kept (memory), not who made the noise. */
    pt__brain *b = &w->brains[e->id];
    if (extras && w->door_live) pt__doors_own_noise(w, e); /* its own door's noise is no news */
    int heard = 0;
    if (w->heard_pending > 0 && b->heard) { /* the world's count spares the brain a read */
        heard = e->state != PT_STATE_CHASE;
        b->heard = 0;
    }
    if (heard && e->awareness < e->suspicious_at) {
        e->awareness += HEAR_AWARENESS;
        if (e->awareness > e->suspicious_at) e->awareness = e->suspicious_at;
    }
    const int order = extras && w->orders_given ? b->order : PT_ORDER_NONE; /* the game's (orders.c) */
    if (order == PT_ORDER_HOLD) { /* held by the game: it senses, decides nothing */
        pt__order_hold_tick(w, e);
        return;
    }
    /* decide */
    switch (e->state) {
    case PT_STATE_PATROL:
    case PT_STATE_IDLE:
        /* A chase starts from sight only: a meter still high from an earlier sighting (a chase
         * that just ended) gives none while the player is out of view. */
        if (e->sees_player && e->awareness >= e->chase_at) {
            start_chase(w, e);
        } else if (heard) {
            look_into(w, e, PT_MEMORY_HEARD);
        } else if (e->awareness >= e->suspicious_at) {
            pt__set_state(w, e, PT_STATE_SUSPICIOUS);
        }
        break;
    case PT_STATE_SUSPICIOUS:
        if (e->sees_player && e->awareness >= e->chase_at) {
            start_chase(w, e);
        } else if (heard && !e->sees_player) {
            look_into(w, e, PT_MEMORY_HEARD);
        } else if (e->awareness <= 0.0) {
            /* What it heard while watching is still to be looked into, if not forgotten. */
            int k = pt__memory_recall(w, e);
            if (k >= 0) look_into(w, e, (pt_memory_kind)k);
            else pt__set_state(w, e, e->run.pat ? PT_STATE_PATROL : PT_STATE_IDLE);
        }
        break;
    case PT_STATE_SEARCH:
    case PT_STATE_RETURN:
    case PT_STATE_INVESTIGATE:
        /* Alert after a chase or a noise: noticing is enough to give chase. */
        if (e->sees_player && e->awareness >= e->suspicious_at) {
            start_chase(w, e);
        } else if (heard) {
            look_into(w, e, PT_MEMORY_HEARD);
        } else if (e->state == PT_STATE_RETURN) { /* done looking: anything left to look into? */
            int k = pt__memory_recall(w, e);
            if (k >= 0) look_into(w, e, (pt_memory_kind)k);
        }
        break;
    case PT_STATE_CHASE:
    case PT_STATE_CAUGHT:
    case PT_STATE_FLEE:
    case PT_STATE_FLOCK:
    case PT_STATE_COUNT: break;
    }
    /* act: at a door, the pause or a door of its round found open (doors.c); a waiting order
     * once it is free (orders.c); then its state's action */
    if (extras && w->door_live) { /* at a door: the pause, or a door of its round found open */
        pt_cell look;
        int d = pt__doors_act(w, e, &look);
        if (d == 1) return;
        if (d == 2) pt__brain_investigate(w, e, look);
    }
    if (order) pt__order_take(w, e);
    switch (e->state) {
    case PT_STATE_PATROL:
        if (order && b->order == PT_ORDER_GOTO) pt__order_goto_tick(w, e);
        else pt__pattern_tick(w, e, 1.0);
        break;
    case PT_STATE_IDLE:
        if (e->motion == PT_MOTION_CONTINUOUS) pt__brake_continuous(w, e, e->heading);
        else pt__stand(w, e);
        break;
    case PT_STATE_SUSPICIOUS:
        if (e->motion == PT_MOTION_CONTINUOUS) {
            pt__brake_continuous(w, e, atan2(e->last_seen_y - e->py, e->last_seen_x - e->px));
        } else {
            e->heading = turn_toward(e->heading, atan2(e->last_seen_y - e->py, e->last_seen_x - e->px), TURN_RATE * w->dt);
            pt__stand(w, e);
        }
        break;
    case PT_STATE_CHASE: do_chase(w, e); break;
    case PT_STATE_SEARCH: do_search(w, e); break;
    case PT_STATE_RETURN: do_return(w, e); break;
    case PT_STATE_INVESTIGATE: go_and_look(w, e, w->brains[e->id].investigate_at, INVESTIGATE_LOOK_S); break;
    case PT_STATE_CAUGHT:
    case PT_STATE_FLEE:
    case PT_STATE_FLOCK:
    case PT_STATE_COUNT: break;
    }
    if (order) pt__order_after(w, e);
}

void pt__brain_update(pt_world *w, pt_entity *e) {
    perceive(w, e);
    if (w->door_live | w->orders_given) brain_update(w, e, 1);
    else brain_update(w, e, 0);
}
