/* SPDX-License-Identifier: Zlib */
/* Walking by tiles along A* paths: the plan (into the entity's path, the brain's planned and
 * target_cell) and a tick of walking toward a goal with it. */
#include "guards/walk.h"

#include "guards/door_path.h"

int pt__plan_to(pt_world *w, pt_entity *e, pt_cell to) {
    pt__brain *b = &w->brains[e->id];
    pt_cell from = {e->x, e->y};
    int n = w->doors_shut > 0 ? pt__doors_path_find(w, e, from, to) /* through closed doors */
                              : pt_path_find(w->pf, from, to, w->scratch, w->scratch_cap);
    if (n < 1 || n > w->scratch_cap || !pt__path_reserve(e, n)) {
        b->planned = 0;
        e->path_len = e->path_idx = 0;
        return 0;
    }
    for (int i = 0; i < n; i++) e->path[i] = w->scratch[i];
    e->path_len = n;
    e->path_idx = 1;
    pt__plan_set(w, b, e->id);
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

/* Whether the part of e's path still to walk, from the cell it stepped from, crosses (x, y). */
static int plan_crosses(const pt_entity *e, int x, int y) {
    int i = e->path_idx > 0 ? e->path_idx - 1 : 0;
    for (; i < e->path_len; i++) {
        pt_cell c = e->path[i];
        if (c.x == x && c.y == y) return 1;
        if (i + 1 < e->path_len) {
            pt_cell d = e->path[i + 1]; /* a diagonal step needs both side cells */
            if ((c.x == x && d.y == y) || (d.x == x && c.y == y)) return 1;
        }
    }
    return 0;
}

/* Only the listed brains can hold a plan: the others' cache lines stay untouched, which is
 * most of a change's cost on a big world right after a step. A listed brain that no longer
 * plans leaves the list here (its place taken by the last). */
int pt__plans_cell_changed(pt_world *w, int x, int y) {
    int n = 0;
    for (int k = 0; k < w->nplanners;) {
        int id = w->planners[k];
        pt__brain *b = &w->brains[id];
        if (!b->planned) {
            b->listed = 0;
            w->planners[k] = w->planners[--w->nplanners];
            continue;
        }
        if (plan_crosses(&w->ents[id], x, y)) {
            b->planned = 0;
            n++;
        }
        k++;
    }
    return n;
}

void pt__plans_relist(pt_world *w) {
    for (int id = 0; id < w->n; id++) {
        pt__brain *b = &w->brains[id];
        b->listed = 0;
    }
    w->nplanners = 0;
    for (int id = 0; id < w->n; id++)
        if (w->brains[id].planned) pt__plan_set(w, &w->brains[id], id);
}
