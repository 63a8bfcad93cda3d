/* SPDX-License-Identifier: Zlib */
/* The player's tick, first in every step: the catch of the last tick settled (sim), then a
 * walk by the game's input or by the player's pattern, its footstep, and the goal; or, for
 * the game's own player (patrol/player.h), the place the game gave. */
#include "world/player_tick.h"

#include <math.h>

#include "guards/doors.h"
#include "guards/patrol.h"
#include "guards/search.h"
#include "senses/memory.h"
#include "state/events.h"
#include "state/move.h"
#include "state/player.h"
#include "world/world_create.h"

/* sim: the tick after a catch, the player starts again from the start and every guard that
 * was after them gives up and goes back to its rounds. (The caught tick itself is left as it
 * was drawn: the player where they were caught, the catcher still chasing.) */
static void catch_settle(pt_world *w, pt_entity *p) {
    pt__entity_place(p, w->defs[0].x, w->defs[0].y);
    p->move_t = 0.0;
    if (w->host) { /* the game's player: it stands at the start until the game moves it */
        p->veh.pos = pt_v2(p->px, p->py);
        p->veh.vel = pt_v2(0.0, 0.0);
    }
    if (p->run.pat && !w->host) pt__entity_pattern_start(w, p, p->run.pat);
    if (p->run.pat && !w->host && p->run.pat->kind == PT_PAT_WAYPOINTS) {
        /* A waypoint route starts again too: its vehicle at the start, the first waypoint next
         * (a thrust lap starts again with its runner, pt__entity_pattern_start). */
        p->veh.pos = pt_v2(p->px, p->py);
        p->veh.vel = pt_v2(0.0, 0.0);
        w->agents[0].path.current = 0;
        w->brains[0].wp_for = 0;
        w->brains[0].wp_by_tile = 0;
    }
    pt__search_end(w);
    for (int i = 1; i < w->n; i++) {
        pt_entity *e = &w->ents[i];
        if (e->kind != PT_KIND_GUARD) continue;
        e->awareness = 0.0;
        pt__memory_forget(w, e);
        if (e->state == PT_STATE_CHASE || e->state == PT_STATE_SEARCH || e->state == PT_STATE_SUSPICIOUS ||
            e->state == PT_STATE_INVESTIGATE) {
            e->state = e->run.pat ? PT_STATE_RETURN : PT_STATE_IDLE;
            e->state_ticks = 0;
            w->brains[i].planned = 0;
        }
    }
}

/* The player on a goal tile: a GOAL event while the round goes on; it ends the round (play). */
static void goal_check(pt_world *w, const pt_entity *p) {
    if (w->map.flags[(size_t)p->y * (size_t)w->map.w + (size_t)p->x] & PT_TILE_GOAL) {
        if (w->round == 0) pt__world_event(w, PT_EVENT_GOAL, p->id, 0, p->x, p->y);
        if (w->desc.end_round_on_catch) w->round = 1;
    }
}

/* The game's own player (patrol/player.h): where the game put it since the last step, else
 * standing where it is. settled: the catch was settled this tick (the player was placed at
 * the start), so a position given now is reached by a jump. */
static void host_move(pt_world *w, pt_entity *p, int settled) {
    if (!w->host_set || !pt_map_walkable(&w->map, (int)floor(w->host_x), (int)floor(w->host_y))) {
        w->host_set = w->host_jump = 0;
        p->veh.vel = pt_v2(0.0, 0.0);
        return;
    }
    const int x0 = p->x, y0 = p->y, jump = w->host_jump || settled;
    w->host_set = w->host_jump = 0;
    p->px = w->host_x;
    p->py = w->host_y;
    p->x = (int)floor(p->px);
    p->y = (int)floor(p->py);
    p->veh.pos = pt_v2(p->px, p->py);
    p->veh.vel = pt_v2(w->host_vx, w->host_vy);
    const double v = hypot(w->host_vx, w->host_vy);
    if (v > 0.0) {
        p->heading = atan2(w->host_vy, w->host_vx);
        p->veh.heading = pt_v2_from_angle(p->heading);
        p->veh.side = pt_v2_perp(p->veh.heading);
    }
    if (jump) {
        p->prev_x = p->x;
        p->prev_y = p->y;
    } else if (p->x != x0 || p->y != y0) {
        p->prev_x = x0;
        p->prev_y = y0;
        pt__player_host_stepped(w, p, v);
    }
}

void pt__player_update(pt_world *w) {
    pt_entity *p = &w->ents[0];
    int settled = 0;
    if (p->state == PT_STATE_CAUGHT) {
        catch_settle(w, p);
        p->state = PT_STATE_PATROL;
        settled = 1;
    }
    if (w->host) {
        host_move(w, p, settled);
        goal_check(w, p);
        return;
    }
    const int x0 = p->x, y0 = p->y;
    /* A pattern-driven player walks in its pattern's gait (the `gait` instruction in force at
     * the start of the tick): the same speed and footsteps as a player who chose it. */
    if (!w->desc.player_controlled && p->run.pat) pt__player_gait(w, pt_patrun_gait(&p->run));
    const double speed = p->speed * pt_gait_speed(w->gait);
    if (!w->desc.player_controlled) {
        if (w->doors_shut > 0) pt__doors_player_pattern(w, p); /* opens a closed door ahead */
        pt__pattern_tick(w, p, pt_gait_speed(w->gait));
    } else {
        int dx = w->input_dx, dy = w->input_dy;
        if (dx == 0 && dy == 0) {
            p->move_t = p->move_t + speed * w->dt >= 1.0 ? 1.0 : p->move_t + speed * w->dt;
        } else {
            p->move_t += speed * w->dt;
            if (p->move_t >= 1.0) {
                p->move_t -= 1.0;
                if (p->move_t > 1.0) p->move_t = 0.0;
                int nx = p->x + dx, ny = p->y + dy;
                if (pt_map_step_ok(&w->map, p->x, p->y, nx, ny)) pt__entity_move_to(p, nx, ny);
                else if (w->doors_shut > 0 && pt__doors_player_bump(w, p, nx, ny)) { /* opened: stays */
                    p->prev_x = p->x;
                    p->prev_y = p->y;
                    p->heading = atan2((double)dy, (double)dx);
                } else if (dx && pt_map_walkable(&w->map, nx, p->y)) pt__entity_move_to(p, nx, p->y);   /* slide */
                else if (dy && pt_map_walkable(&w->map, p->x, ny)) pt__entity_move_to(p, p->x, ny);
                else {
                    p->prev_x = p->x;
                    p->prev_y = p->y;
                    p->heading = atan2((double)dy, (double)dx);
                    p->move_t = 1.0;
                }
            }
        }
    }
    if (p->x != x0 || p->y != y0) pt__player_stepped(w, p);
    goal_check(w, p);
}
