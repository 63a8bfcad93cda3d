/* SPDX-License-Identifier: Zlib */
/* The hearing flood (patrol/hearing.h).
 *
 * Dijkstra over the grid with integer costs in tenths of a tile. Every step costs at least
 * PT_HEARING_STRAIGHT, so a noise whose budget is B tenths cannot reach a cell more than
 * R = (B-1)/10 steps away (Chebyshev): all the work stays in a (2R+3)^2 window around the
 * origin (the reachable square and a ring that blocks). A cell keeps what is left of the
 * budget there (0: not reached), so the window starts as zeros and is read back as the level.
 * Costs are below B and a step adds at most MAX_STEP, so Dial's buckets need only RING >
 * MAX_STEP of them in a circle, whatever the budget: a flood costs its window's fill, the
 * cells it reaches and one bucket per tenth. */
#include <patrol/hearing.h>

#include <math.h>
#include <stdint.h>
#include <string.h>


/* The window's damping of a cell that blocks (the ring, off the map, sound=block): above any
 * budget, so a step into it leaves nothing, and one bit, so the corner rule of a diagonal is
 * one OR of its two side cells. */
enum { BLOCKS = 4096, MAX_BUDGET = 2560 /* PT_HEARING_MAX_LOUDNESS in tenths */ };
/* The dearest step, and the circle of buckets it needs (a power of two above it). */
enum { MAX_STEP = PT_HEARING_DIAGONAL + PT_SOUND_MAX, RING = 1024 };
_Static_assert(RING > MAX_STEP && (RING & (RING - 1)) == 0, "a step stays inside the circle");
/* The header's cap is a double, which is no integer constant expression for clang: the
 * budget is also clamped to MAX_BUDGET in pt_hearing_flood, so this bound always holds. */
_Static_assert(BLOCKS > MAX_BUDGET && (BLOCKS & PT_SOUND_MAX) == 0 &&
                   BLOCKS > PT_SOUND_MAX && BLOCKS <= INT16_MAX,
               "a blocking cell is out of every budget and tells by one bit");

/* A waiting cell: an entry of its bucket's singly linked list in the pool. A cheaper way
 * pushes the cell again instead of moving it out of its list; the entry left behind is stale
 * (the cell's level is no longer its bucket's) and is skipped when popped. */
typedef struct entry {
    int32_t cell, next;
} entry;

struct pt_hearing {
    const pt_map *map;
    int ox, oy, r, side, budget; /* the last flood: origin, window radius and side, budget */
    int16_t *left;               /* per window cell: budget less best cost, 0 = not reached */
    size_t left_cap;
    int16_t *damp;               /* per window cell: damping, BLOCKS = blocks */
    size_t damp_cap;
    entry *pool;
    size_t pool_cap;
    int32_t heads[RING];         /* the bucket of what is left, % RING; all -1 between floods */
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
    for (int i = 0; i < RING; i++) h->heads[i] = -1;
    return h;
}

void pt_hearing_destroy(pt_hearing *h) {
    if (!h) return;
    PT_FREE(h->left);
    PT_FREE(h->damp);
    PT_FREE(h->pool);
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

/* Offers cell ni the level lv (what a way there leaves of the budget): kept and pushed when it
 * is above the cell's, so never for a blocking cell or beyond the budget (lv <= 0). */
#define RELAX(ni, lv)                                                                    \
    do {                                                                                 \
        int ni_ = (ni), lv_ = (lv);                                                      \
        if (lv_ > left[ni_]) {                                                           \
            int s_ = lv_ & (RING - 1);                                                   \
            pool[np] = (entry){ni_, heads[s_]};                                          \
            left[ni_] = (int16_t)lv_;                                                    \
            heads[s_] = np++;                                                            \
        }                                                                                \
    } while (0)

int pt_hearing_flood(pt_hearing *h, int x, int y, double loudness) {
    forget(h);
    const pt_map *m = h->map;
    if (!(loudness > 0) || !pt_map_in(m, x, y)) return 0; /* NaN fails the first test too */
    if (loudness > PT_HEARING_MAX_LOUDNESS) loudness = PT_HEARING_MAX_LOUDNESS;
    /* To the nearest tenth, a half up; within 1e-9 below a half counts as the half, so a
     * loudness rounds as its decimal does (2.5 x 0.94 is 2.3499999999999996 in binary). */
    int budget = (int)floor(loudness * 10.0 + 0.5 + 1e-9);
    if (budget > MAX_BUDGET) budget = MAX_BUDGET;
    /* Damping per legend index. */
    int16_t damp[PT_MAX_TILE_KINDS];
    for (int i = 0; i < PT_MAX_TILE_KINDS; i++) {
        int s = i < m->nlegend ? m->legend[i].sound : PT_SOUND_BLOCK;
        damp[i] = (int16_t)(s < 0 ? BLOCKS : (s > PT_SOUND_MAX ? PT_SOUND_MAX : s));
    }
    const size_t W = (size_t)m->w;
    if (budget <= 0 || damp[m->tiles[(size_t)y * W + (size_t)x]] == BLOCKS) return 0;

    /* The window has a ring of blocked cells around the reachable square: no bounds tests. */
    int r = (budget - 1) / PT_HEARING_STRAIGHT, side = 2 * r + 3;
    size_t nslots = (size_t)side * (size_t)side;
    if (!reserve((void **)&h->left, &h->left_cap, nslots, sizeof *h->left) ||
        !reserve((void **)&h->damp, &h->damp_cap, nslots, sizeof *h->damp) ||
        !reserve((void **)&h->cells, &h->cells_cap, nslots, sizeof *h->cells) ||
        !reserve((void **)&h->pool, &h->pool_cap, nslots + 8, sizeof *h->pool))
        return PT_ERR_NOMEM;
    const int x0 = x - r - 1, y0 = y - r - 1; /* map cell of window cell 0 */

    /* The window's damping, read row by row before the flood: the map's rows are far apart in
     * memory, and reading them in order lets the loads overlap instead of stalling the flood
     * on each one. */
    int16_t *wd = h->damp, *left = h->left;
    memset(left, 0, nslots * sizeof *left);
    for (int wy = 0; wy < side; wy++) {
        int16_t *row = wd + (size_t)wy * (size_t)side;
        int my = y0 + wy;
        int a = x0 < 0 ? -x0 : 0, b = x0 + side > m->w ? m->w - x0 : side;
        if (wy == 0 || wy == side - 1 || my < 0 || my >= m->h || a >= b) {
            for (int wx = 0; wx < side; wx++) row[wx] = BLOCKS;
            continue;
        }
        const uint8_t *t = m->tiles + (size_t)my * W;
        for (int wx = 0; wx < a; wx++) row[wx] = BLOCKS;
        for (int wx = a; wx < b; wx++) row[wx] = damp[t[x0 + wx]];
        for (int wx = b; wx < side; wx++) row[wx] = BLOCKS;
        row[0] = row[side - 1] = BLOCKS;
    }

    int32_t *heads = h->heads;
    entry *pool = h->pool;
    size_t pool_cap = h->pool_cap;
    int c0 = (r + 1) * side + r + 1;
    left[c0] = (int16_t)budget;
    pool[0] = (entry){c0, -1};
    heads[budget & (RING - 1)] = 0;
    int32_t np = 1;

    int ncells = 0;
    pt_hearing_cell *cells = h->cells;
    for (int lb = budget; lb > 0; lb--) {
        const double level = (double)lb / 10.0;
        int32_t *head = &heads[lb & (RING - 1)];
        while (*head >= 0) {
            entry e = pool[*head];
            *head = e.next;
            int c = e.cell;
            if (left[c] != lb) continue; /* stale: reached more cheaply since */
            if ((size_t)np + 8 > pool_cap) {
                size_t cap = h->pool_cap;
                if (!reserve((void **)&h->pool, &cap, (size_t)np + 8, sizeof *h->pool)) {
                    for (int i = 0; i < RING; i++) heads[i] = -1;
                    return PT_ERR_NOMEM;
                }
                h->pool_cap = pool_cap = cap;
                pool = h->pool;
            }
            cells[ncells++] = (pt_hearing_cell){c, 0, level}; /* x, y below, off the critical path */
            /* The straight neighbours, then the diagonals, each passing beside two of them
             * (the corner rule of pt_map_step_ok, for sound). */
            int de = wd[c + 1], dw = wd[c - 1], ds = wd[c + side], dn = wd[c - side];
            int st = lb - PT_HEARING_STRAIGHT, dg = lb - PT_HEARING_DIAGONAL;
            RELAX(c + 1, st - de);
            RELAX(c - 1, st - dw);
            RELAX(c + side, st - ds);
            RELAX(c - side, st - dn);
            RELAX(c + side + 1, dg - wd[c + side + 1] - ((de | ds) & BLOCKS));
            RELAX(c + side - 1, dg - wd[c + side - 1] - ((dw | ds) & BLOCKS));
            RELAX(c - side + 1, dg - wd[c - side + 1] - ((de | dn) & BLOCKS));
            RELAX(c - side - 1, dg - wd[c - side - 1] - ((dw | dn) & BLOCKS));
        }
    }
    /* x, y from the window index with a multiply by the reciprocal of side (exact: index *
     * side stays far below 2^32). */
    const uint64_t inv = (UINT64_C(1) << 32) / (uint64_t)side + 1;
    for (int i = 0; i < ncells; i++) {
        uint32_t c = (uint32_t)cells[i].x, q = (uint32_t)(((uint64_t)c * inv) >> 32);
        cells[i].x = x0 + (int)(c - q * (uint32_t)side);
        cells[i].y = y0 + (int)q;
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
    return (double)h->left[(size_t)wy * (size_t)h->side + (size_t)wx] / 10.0;
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
