/* SPDX-License-Identifier: Zlib */
/* Walking by tiles (walk.c): A* plans kept in the entity's path, and the step clock that
 * gives a tile mover its actions. The lowest of the guards' files: the continuous movers
 * (motion.c) plan with it, the brain walks with it.
 *
 * The small helpers are inline here: the brain calls them on every tile action of a chase, a
 * search or a return, as walk.c does. */
#ifndef PATROL_GUARDS_WALK_H
#define PATROL_GUARDS_WALK_H

#include "map/doors.h"
#include "state/move.h"
#include "state/world_state.h"

/* Room in e->path for len cells; 0 when out of memory (the path is kept as it was). */
static inline int pt__path_reserve(pt_entity *e, int len) {
    if (len <= e->path_cap) return 1;
    int cap = e->path_cap ? e->path_cap : 64;
    while (cap < len) cap *= 2;
    pt_cell *np = PT_REALLOC(e->path, (size_t)cap * sizeof *np);
    if (!np) return 0;
    e->path = np;
    e->path_cap = cap;
    return 1;
}

/* The brain of entity id has a plan (planned = 1) and its id is in the world's planners, so a
 * tile change finds it (pt__plans_cell_changed). */
static inline void pt__plan_set(pt_world *w, pt__brain *b, int id) {
    b->planned = 1;
    if (!b->listed) {
        b->listed = 1;
        w->planners[w->nplanners++] = id;
    }
}

/* Lists every brain that has a plan and is not listed yet (a world whose brains were written
 * whole, as a load does). */
void pt__plans_relist(pt_world *w);

/* One tile step along e->path; returns 1 when the path's end is reached, or when the step is
 * barred (the path is spent: its walker plans again). A closed door next on the path is not
 * the end: the walker stands, keeping its plan, and the doors' act opens it (doors.c). */
static inline int pt__path_step(pt_entity *e, const pt_map *m) {
    if (e->path_idx >= e->path_len) return 1;
    pt_cell c = e->path[e->path_idx];
    if (!pt_map_step_ok(m, e->x, e->y, c.x, c.y))
        return !pt_map_in(m, c.x, c.y) || pt__door_kind_state(pt_map_tile(m, c.x, c.y)) != PT_DOOR_CLOSED;
    pt__entity_move_to(e, c.x, c.y);
    e->path_idx++;
    return e->path_idx >= e->path_len;
}

/* Tile movers act when their step clock passes 1; returns how many actions are due. */
static inline int pt__due_actions(pt_world *w, pt_entity *e, double scale) {
    e->move_t += e->speed * scale * w->dt;
    int n = 0;
    while (e->move_t >= 1.0 && n < 4) {
        e->move_t -= 1.0;
        n++;
    }
    if (e->move_t > 1.0) e->move_t = 1.0;
    if (n == 0) return 0;
    /* The step drawn so far is over: the guard stands at its cell's centre (a glide there,
     * pt__go_tile, is over too), so an action that does not move leaves it drawn there. */
    w->brains[e->id].glide = 0;
    e->prev_x = e->x;
    e->prev_y = e->y;
    return n;
}

/* Standing still: a tile mover that stopped halfway through drawing a step finishes it (the
 * renderer draws prev -> cell by move_t), so stopping never makes the sprite jump. */
static inline void pt__stand(pt_world *w, pt_entity *e) {
    e->move_t += e->speed * w->dt;
    if (e->move_t > 1.0) e->move_t = 1.0;
}

/* Plans a path from the guard's cell to `to` (A*), kept in e->path. 0 if unreachable. */
int pt__plan_to(pt_world *w, pt_entity *e, pt_cell to);
/* One tick of walking by tiles toward `goal` along an A* path (re-planned when the goal
 * changes): 1 when it started the tick on the goal (it stands), -1 when there is no way
 * there, else 0. */
int pt__walk_tiles(pt_world *w, pt_entity *e, pt_cell goal);
/* Cell (x, y) of the map changed (pt_world_set_tile): every entity whose plan still to walk
 * crosses it (the cell it stands on, the cells ahead, and the corners of its diagonal steps
 * ahead) drops the plan and plans again when it next walks; the others keep theirs. Returns
 * how many dropped a plan. */
int pt__plans_cell_changed(pt_world *w, int x, int y);

#endif
