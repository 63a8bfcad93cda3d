/* SPDX-License-Identifier: Zlib */
/* Guards plan through closed doors (docs/ai.md, "Doors"): A* runs on the map's flags, so a
 * search that may open doors runs with the closed doors' flags walkable for its length. */
#include "guards/door_path.h"

#include <math.h>
#include <string.h>

int pt__door_find(const pt_world *w, int x, int y) {
    int lo = 0, hi = w->ndoors - 1;
    while (lo <= hi) { /* doors are by row, then column */
        int mid = (lo + hi) / 2;
        const pt__door *d = &w->doors[mid];
        if (d->y == y && d->x == x) return mid;
        if (d->y < y || (d->y == y && d->x < x)) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

int pt__door_key(const pt_world *w, int k) { return w->doors[k].y * w->map.w + w->doors[k].x + 1; }

int pt__door_of_key(const pt_world *w, int key) {
    if (key < 1 || (size_t)key > (size_t)w->map.w * (size_t)w->map.h) return -1;
    return pt__door_find(w, (key - 1) % w->map.w, (key - 1) / w->map.w);
}

void pt__doors_passable(pt_world *w, int on) {
    for (int i = 0; i < w->ndoors; i++) {
        const pt__door *d = &w->doors[i];
        if (d->state != PT_DOOR_CLOSED) continue;
        uint8_t *f = &w->map.flags[(size_t)d->y * (size_t)w->map.w + (size_t)d->x];
        *f = on ? (uint8_t)(*f | PT_TILE_WALKABLE) : w->map.legend[w->map.tiles[(size_t)d->y * (size_t)w->map.w + (size_t)d->x]].flags;
    }
}

/* A path's A* cost (10 a straight step, 14 a diagonal one) and its closed doors. */
static long path_cost(const pt_world *w, const pt_cell *p, int n, int *doors) {
    long c = 0;
    *doors = 0;
    for (int i = 1; i < n; i++) {
        c += (p[i].x != p[i - 1].x && p[i].y != p[i - 1].y) ? 14 : 10;
        int k = pt__door_find(w, p[i].x, p[i].y);
        if (k >= 0 && w->doors[k].state == PT_DOOR_CLOSED) (*doors)++;
    }
    return c;
}

int pt__doors_path_find(pt_world *w, const pt_entity *e, pt_cell from, pt_cell to) {
    if (w->doors_shut <= 0) return pt_path_find(w->pf, from, to, w->scratch, w->scratch_cap);
    pt__doors_passable(w, 1);
    int n = pt_path_find(w->pf, from, to, w->scratch, w->scratch_cap);
    pt__doors_passable(w, 0);
    if (n < 1 || n > w->scratch_cap) return n;
    int ndoors;
    long via = path_cost(w, w->scratch, n, &ndoors);
    if (ndoors == 0) return n; /* the shortest path of all crosses no closed door */
    /* The pause at each door, as path cost: the steps the guard would walk meanwhile. */
    via += (long)ndoors * lround(PT__DOOR_PAUSE_S * e->speed * 10.0);
    pt_cell *keep = PT_MALLOC(sizeof *keep * (size_t)n);
    if (!keep) return n;
    memcpy(keep, w->scratch, sizeof *keep * (size_t)n);
    int m = pt_path_find(w->pf, from, to, w->scratch, w->scratch_cap);
    int none;
    if (m < 1 || m > w->scratch_cap || path_cost(w, w->scratch, m, &none) > via) {
        memcpy(w->scratch, keep, sizeof *keep * (size_t)n);
        m = n;
    }
    PT_FREE(keep);
    return m;
}
