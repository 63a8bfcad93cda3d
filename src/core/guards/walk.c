/* SPDX-License-Identifier: Zlib */
/* Walking by tiles along A* paths: the plan (into the entity's path, the brain's planned and
 * target_cell) and a tick of walking toward a goal with it. */
#include "guards/walk.h"

int pt__plan_to(pt_world *w, pt_entity *e, pt_cell to) {
    pt__brain *b = &w->brains[e->id];
    pt_cell from = {e->x, e->y};
    int n = pt_path_find(w->pf, from, to, w->scratch, w->scratch_cap);
    if (n < 1 || n > w->scratch_cap || !pt__path_reserve(e, n)) {
        b->planned = 0;
        e->path_len = e->path_idx = 0;
        return 0;
    }
    for (int i = 0; i < n; i++) e->path[i] = w->scratch[i];
    e->path_len = n;
    e->path_idx = 1;
    b->planned = 1;
    b->target_cell = to;
    return 1;
}

int pt__walk_tiles(pt_world *w, pt_entity *e, pt_cell goal) {
    pt__brain *b = &w->brains[e->id];
    if (b->planned && (b->target_cell.x != goal.x || b->target_cell.y != goal.y)) b->planned = 0;
    if (e->x == goal.x && e->y == goal.y) {
        pt__stand(w, e);
        return 1;
    }
    int n = pt__due_actions(w, e, 1.0);
    for (int i = 0; i < n; i++) {
        if (!b->planned && !pt__plan_to(w, e, goal)) return -1;
        if (pt__path_step(e, &w->map)) {
            b->planned = 0;
            return 0;
        }
    }
    return 0;
}
