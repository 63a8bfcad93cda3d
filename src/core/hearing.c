/* SPDX-License-Identifier: Zlib */
/* The hearing flood (patrol/hearing.h).
 *
 * Dijkstra over the grid with integer costs in tenths of a tile. Every step costs at least
 * PT_HEARING_STRAIGHT, so a noise whose budget is B tenths cannot reach a cell more than
 * R = (B-1)/10 steps away (Chebyshev): all the work stays in a (2R+3)^2 window around the
 * origin (the reachable square and a ring that blocks), and costs are below B, so Dial's buckets (one list per cost 0..B-1) replace the
 * heap. A generation stamp per window cell marks what this flood has written, so nothing is
 * cleared between floods: a flood costs the cells it reaches plus B empty buckets. */
#include <patrol/hearing.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* A window cell. Waiting cells sit in the doubly linked list of the bucket of their cost, so
 * a cheaper way moves a cell to another bucket instead of adding a second entry: the memory
 * is one slot per window cell whatever the map. */
enum { BLOCK = -1, DONE = -2 }; /* window damping values that are no damping */

typedef struct slot {
    uint32_t gen;       /* == h->gen: cost holds this flood's best cost */
    int32_t cost;
    int32_t prev, next; /* in its bucket's list, -1 = none */
} slot;

struct pt_hearing {
    const pt_map *map;
    uint32_t gen;
    int ox, oy, r, side, budget; /* the last flood: origin, window radius and side, budget */
    slot *slots;
    size_t slots_cap;
    int32_t *heads;              /* budget bucket heads */
    int heads_cap;
    int16_t *damp;               /* the window's damping, -1 = blocks (the ring, off the map) */
    size_t damp_cap;
    pt_hearing_cell *cells;
    size_t cells_cap;
    int ncells;
};

pt_hearing *pt_hearing_create(const pt_map *map) {
    if (!map) return NULL;
    pt_hearing *h = PT_CALLOC(1, sizeof *h);
    if (!h) return NULL;
    h->map = map;
    h->r = -1;
    return h;
}

void pt_hearing_destroy(pt_hearing *h) {
    if (!h) return;
    PT_FREE(h->slots);
    PT_FREE(h->heads);
    PT_FREE(h->damp);
    PT_FREE(h->cells);
    PT_FREE(h);
}

/* Grows *arr to at least n items of elem bytes (never shrinks). */
static int reserve(void **arr, size_t *cap, size_t n, size_t elem) {
    if (n <= *cap) return 1;
    size_t ncap = *cap ? *cap : 256;
    while (ncap < n) ncap *= 2;
    void *na = PT_REALLOC(*arr, ncap * elem);
    if (!na) return 0;
    *arr = na;
    *cap = ncap;
    return 1;
}

static void forget(pt_hearing *h) {
    h->r = -1;
    h->budget = 0;
    h->ncells = 0;
}

int pt_hearing_flood(pt_hearing *h, int x, int y, double loudness) {
    forget(h);
    const pt_map *m = h->map;
    if (!(loudness > 0) || !pt_map_in(m, x, y)) return 0; /* NaN fails the first test too */
    if (loudness > PT_HEARING_MAX_LOUDNESS) loudness = PT_HEARING_MAX_LOUDNESS;
    int budget = (int)floor(loudness * 10.0 + 0.5);
    /* Damping per legend index; -1 = blocks. */
    int damp[PT_MAX_TILE_KINDS];
    for (int i = 0; i < PT_MAX_TILE_KINDS; i++) {
        int s = i < m->nlegend ? m->legend[i].sound : PT_SOUND_BLOCK;
        damp[i] = s < 0 ? -1 : (s > PT_SOUND_MAX ? PT_SOUND_MAX : s);
    }
    const size_t W = (size_t)m->w;
    if (budget <= 0 || damp[m->tiles[(size_t)y * W + (size_t)x]] < 0) return 0;

    /* The window has a ring of blocked cells around the reachable square: no bounds tests. */
    int r = (budget - 1) / PT_HEARING_STRAIGHT, side = 2 * r + 3;
    size_t nslots = (size_t)side * (size_t)side;
    if (nslots > h->slots_cap) {
        /* New slots must not hold a stamp that a flood to come could take for its own. */
        size_t old = h->slots_cap;
        if (!reserve((void **)&h->slots, &h->slots_cap, nslots, sizeof *h->slots)) return PT_ERR_NOMEM;
        memset(h->slots + old, 0, (h->slots_cap - old) * sizeof *h->slots);
    }
    if (budget > h->heads_cap) {
        int32_t *nh = PT_REALLOC(h->heads, sizeof *nh * (size_t)budget);
        if (!nh) return PT_ERR_NOMEM;
        h->heads = nh;
        h->heads_cap = budget;
    }
    if (!reserve((void **)&h->cells, &h->cells_cap, nslots, sizeof *h->cells) ||
        !reserve((void **)&h->damp, &h->damp_cap, nslots, sizeof *h->damp))
        return PT_ERR_NOMEM;
    if (++h->gen == 0) { /* wrapped: old stamps could match again */
        memset(h->slots, 0, h->slots_cap * sizeof *h->slots);
        h->gen = 1;
    }
    const uint32_t gen = h->gen;
    const int x0 = x - r - 1, y0 = y - r - 1; /* map cell of window cell 0 */

    /* The window's damping, read row by row before the flood: the map's rows are far apart in
     * memory, and reading them in order lets the loads overlap instead of stalling the flood
     * on each one. */
    int16_t *wd = h->damp;
    for (int wy = 0; wy < side; wy++) {
        int16_t *row = wd + (size_t)wy * (size_t)side;
        int my = y0 + wy;
        int a = x0 < 0 ? -x0 : 0, b = x0 + side > m->w ? m->w - x0 : side;
        if (wy == 0 || wy == side - 1 || my < 0 || my >= m->h || a >= b) {
            for (int wx = 0; wx < side; wx++) row[wx] = -1;
            continue;
        }
        const uint8_t *t = m->tiles + (size_t)my * W;
        for (int wx = 0; wx < a; wx++) row[wx] = -1;
        for (int wx = a; wx < b; wx++) row[wx] = (int16_t)damp[t[x0 + wx]];
        for (int wx = b; wx < side; wx++) row[wx] = -1;
        row[0] = row[side - 1] = -1;
    }

    slot *slots = h->slots;
    int32_t *heads = h->heads;
    for (int b = 0; b < budget; b++) heads[b] = -1;
    int c0 = (r + 1) * side + r + 1;
    slots[c0] = (slot){gen, 0, -1, -1};
    heads[0] = c0;

    /* The eight steps; a diagonal k >= 4 passes beside c + sa[k] and c + sb[k]. */
    const int off[8] = {1, -1, side, -side, side + 1, side - 1, -side + 1, -side - 1};
    const int sa[8] = {0, 0, 0, 0, 1, -1, 1, -1}, sb[8] = {0, 0, 0, 0, side, side, -side, -side};
    int ncells = 0;
    pt_hearing_cell *cells = h->cells;
    for (int b = 0; b < budget; b++) {
        const double level = (double)(budget - b) / 10.0;
        while (heads[b] >= 0) {
            int c = heads[b];
            heads[b] = slots[c].next;
            if (heads[b] >= 0) slots[heads[b]].prev = -1;
            cells[ncells++] = (pt_hearing_cell){c, 0, level}; /* x, y below, off the critical path */
            wd[c] = DONE; /* its neighbours need not look at it again */
            for (int k = 0; k < 8; k++) {
                int ni = c + off[k];
                int d = wd[ni];
                if (d < 0) continue; /* blocks, or done */
                int step = PT_HEARING_STRAIGHT;
                if (k >= 4) { /* the corner rule of pt_map_step_ok, for sound */
                    if (wd[c + sa[k]] == BLOCK || wd[c + sb[k]] == BLOCK) continue;
                    step = PT_HEARING_DIAGONAL;
                }
                int nc = b + step + d;
                if (nc >= budget) continue; /* the ring is never entered: it blocks */
                slot *n = &slots[ni];
                if (n->gen == gen) {
                    if (n->cost <= nc) continue; /* done, or waiting at no more than nc */
                    if (n->prev >= 0) slots[n->prev].next = n->next;
                    else heads[n->cost] = n->next;
                    if (n->next >= 0) slots[n->next].prev = n->prev;
                }
                *n = (slot){gen, nc, -1, heads[nc]};
                if (heads[nc] >= 0) slots[heads[nc]].prev = ni;
                heads[nc] = ni;
            }
        }
    }
    for (int i = 0; i < ncells; i++) {
        int c = cells[i].x;
        cells[i].x = x0 + c % side;
        cells[i].y = y0 + c / side;
    }
    h->ox = x;
    h->oy = y;
    h->r = r;
    h->side = side;
    h->budget = budget;
    h->ncells = ncells;
    return ncells;
}

double pt_hearing_level(const pt_hearing *h, int x, int y) {
    if (!h || h->r < 0) return 0.0;
    int wx = x - h->ox + h->r + 1, wy = y - h->oy + h->r + 1;
    if (wx < 0 || wy < 0 || wx >= h->side || wy >= h->side) return 0.0;
    const slot *s = &h->slots[(size_t)wy * (size_t)h->side + (size_t)wx];
    return s->gen == h->gen ? (double)(h->budget - s->cost) / 10.0 : 0.0;
}

int pt_hearing_hears(const pt_hearing *h, int x, int y, double threshold) {
    if (!(threshold > 0) || !isfinite(threshold)) {
        pt_entity_def d;
        memset(&d, 0, sizeof d);
        d.kind = PT_KIND_GUARD;
        pt_entity_def_resolve(&d); /* the one place of the default */
        threshold = d.hearing;
    }
    return pt_hearing_level(h, x, y) > threshold;
}

int pt_hearing_cells(const pt_hearing *h, const pt_hearing_cell **cells) {
    if (cells) *cells = h && h->ncells ? h->cells : NULL;
    return h ? h->ncells : 0;
}
