/* SPDX-License-Identifier: Zlib */
/* The cell space (patrol/cellspace.h): agents sorted by cell (a counting sort), and the agents
 * within a radius of a point; the sort can also be cut into shares for threads
 * (cellspace_sort.h: the crowd's). */
#include <patrol/cellspace.h>
#include <patrol/config.h>
#include <patrol/error.h>

#include <limits.h>
#include <string.h>

#include "base/cellspace_sort.h"

#define CS_MAX_CELLS (1 << 22)
#define PT_ALWAYS_INLINE __attribute__((always_inline))

int pt_cellspace_init(pt_cellspace *cs, double x0, double y0, double w, double h, double cell) {
    memset(cs, 0, sizeof *cs);
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(w) || !isfinite(h) || !isfinite(cell) || w <= 0 || h <= 0 ||
        cell <= 0)
        return PT_ERR_RANGE;
    /* Grow the cells until the grid fits the cap (a tiny cell over a huge map). */
    while (ceil(w / cell) * ceil(h / cell) > CS_MAX_CELLS) cell *= 2.0;
    cs->x0 = x0;
    cs->y0 = y0;
    cs->cell = cell;
    cs->inv_cell = 1.0 / cell;
    cs->cols = (int)ceil(w / cell);
    cs->rows = (int)ceil(h / cell);
    if (cs->cols < 1) cs->cols = 1;
    if (cs->rows < 1) cs->rows = 1;
    cs->c0 = INT_MAX; /* no agents */
    cs->c1 = -1;
    cs->start = PT_CALLOC((size_t)cs->cols * (size_t)cs->rows + 1, sizeof *cs->start);
    if (!cs->start) {
        memset(cs, 0, sizeof *cs);
        return PT_ERR_NOMEM;
    }
    return PT_OK;
}

void pt_cellspace_fini(pt_cellspace *cs) {
    if (!cs) return;
    PT_FREE(cs->start);
    PT_FREE(cs->ids);
    PT_FREE(cs->pos);
    PT_FREE(cs->cell_of);
    memset(cs, 0, sizeof *cs);
}

/* Grows the arrays to hold n agents. */
static int reserve(pt_cellspace *cs, int n) {
    if (n <= cs->cap) return PT_OK;
    int cap = cs->cap ? cs->cap : 64;
    while (cap < n) cap = cap > (1 << 29) ? n : cap * 2;
    int *ids = PT_REALLOC(cs->ids, sizeof *ids * (size_t)cap);
    if (ids) cs->ids = ids;
    pt_vec2 *pos = PT_REALLOC(cs->pos, sizeof *pos * (size_t)cap);
    if (pos) cs->pos = pos;
    int *cell_of = PT_REALLOC(cs->cell_of, sizeof *cell_of * (size_t)cap);
    if (cell_of) cs->cell_of = cell_of;
    if (!ids || !pos || !cell_of) {
        cs->n = 0;
        cs->lo = 0; /* start[] is stale: the next rebuild rewrites all of it */
        cs->hi = cs->cols * cs->rows;
        cs->c0 = 0;
        cs->c1 = cs->cols - 1;
        return PT_ERR_NOMEM;
    }
    cs->cap = cap;
    return PT_OK;
}

/* The cells the last sort left between 0 and n, and the new span: outside both, start[]
 * already holds 0 below and n above (unless n changed: then all above). */
static void span_of(pt_cellspace *cs, int lo, int hi, int n, int *a, int *b) {
    int ncells = cs->cols * cs->rows;
    if (lo >= hi) lo = hi = 0; /* no agents: every cell holds 0 = n */
    *a = lo < cs->lo ? lo : cs->lo;
    *b = n != cs->n ? ncells : hi > cs->hi ? hi : cs->hi;
    cs->lo = lo;
    cs->hi = hi;
}

/* The span [*lo, *hi) of the agents' cells (lo >= hi: none) and their columns [*c0, *c1]
 * (c0 > c1: none). */
static void bounds(const pt_cellspace *cs, const int *cells, int n, int *lo, int *hi, int *c0, int *c1) {
    int cols = cs->cols, l = INT_MAX, h = 0, x0 = INT_MAX, x1 = -1;
    for (int i = 0; i < n; i++) {
        int q = cells[i], x = q % cols;
        l = q < l ? q : l;
        h = q >= h ? q + 1 : h;
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
    }
    *lo = l;
    *hi = h;
    *c0 = x0;
    *c1 = x1;
}

/* The part of row r's columns [c0, c1] inside [a, b), as [*s, *e) (empty: *s == *e, at or
 * after every cell of [a, b) in row r before it). */
static inline void row_part(const pt_cellspace *cs, int r, int a, int b, int c0, int c1, int *s, int *e) {
    long long base = (long long)r * cs->cols, s0 = base + c0, e0 = base + c1 + 1;
    s0 = s0 < a ? a : s0 > b ? b : s0;
    e0 = e0 > b ? b : e0 < s0 ? s0 : e0;
    *s = (int)s0;
    *e = (int)e0;
}

/* Clears the counts of the cells [a, b) in columns [c0, c1]. A small crowd on a big map
 * fills a few columns of its rows: only those cells are counted and summed, the rest of
 * each row is one run of equal offsets. */
static void zero(pt_cellspace *cs, int a, int b, int c0, int c1) {
    if (a >= b || c0 > c1) return;
    for (int r = a / cs->cols, q = a; q < b; r++) {
        int s, e;
        row_part(cs, r, a, b, c0, c1, &s, &e);
        memset(cs->start + s, 0, sizeof *cs->start * (size_t)(e - s));
        q = (int)((long long)(r + 1) * cs->cols < b ? (long long)(r + 1) * cs->cols : b);
    }
}

/* start[q] = v for q in [q, e): eight cells a store pair (a run can be most of a row). */
static inline int fill(int *start, int q, int e, int v) {
    int blk[8] = {v, v, v, v, v, v, v, v};
    for (; q + 8 <= e; q += 8) memcpy(start + q, blk, sizeof blk);
    for (; q < e; q++) start[q] = v;
    return q;
}

/* Turns the counts of the cells [a, b) in the agents' columns into each cell's end offset,
 * counting from at (the agents in cells before a), and gives every other cell of [a, b) the
 * offset it lies at. Returns the most agents in one cell. Outside the columns of this
 * sort's agents and the last one's, no cell holds an agent before or after: between two
 * rows' such columns, a run of cells holds one offset before and one after, and is
 * rewritten only if that changed (an agent moved across the rows): a small crowd's sort
 * costs its own columns, not the map's width. */
static int ends(pt_cellspace *cs, int a, int b, const pt__cellspace_plan *plan, int at) {
    int *start = cs->start, most = 0, q = a, c0 = plan->c0, c1 = plan->c1, d0 = plan->d0, d1 = plan->d1;
    if (c0 > c1) c0 = d0, c1 = d0 - 1; /* no agents now: only the last sort's columns */
    int same = c0 == d0 && c1 == d1;
    if (d0 <= d1)
        for (int r = a / cs->cols; (long long)r * cs->cols < b; r++) {
            int sd, ed, sc, ec;
            row_part(cs, r, a, b, d0, d1, &sd, &ed);
            if (same) sc = sd, ec = ed;
            else row_part(cs, r, a, b, c0, c1, &sc, &ec);
            if (q < sd && start[q] != at) fill(start, q, sd, at); /* the run between the rows' columns */
            q = fill(start, sd, sc, at); /* the last sort's columns before this one's */
            for (; q < ec; q++) {
                most = start[q] > most ? start[q] : most;
                at += start[q];
                start[q] = at;
            }
            q = fill(start, q, ed, at); /* and after */
        }
    if (q < b && start[q] != at) fill(start, q, b, at);
    return most;
}

int pt__cellspace_sort_plan(pt_cellspace *cs, const int *cells, int n, pt__cellspace_plan *plan) {
    if (reserve(cs, n) != PT_OK) return PT_ERR_NOMEM;
    int lo, hi, c0, c1;
    bounds(cs, cells, n, &lo, &hi, &c0, &c1);
    span_of(cs, lo, hi, n, &plan->a, &plan->b);
    plan->c0 = c0;
    plan->c1 = c1;
    /* the columns that held agents last time, with this time's (none: INT_MAX, -1) */
    plan->d0 = c0 < cs->c0 ? c0 : cs->c0;
    plan->d1 = c1 > cs->c1 ? c1 : cs->c1;
    cs->c0 = c0;
    cs->c1 = c1;
    return PT_OK;
}

/* Slot k of the sorted order gets agent i: to[k] = i, and pos[k] its position when the
 * caller keeps positions (pos is a constant where this is inlined: no test per agent). */
static inline PT_ALWAYS_INLINE void put(int *to, pt_vec2 *pos, const char *base, size_t stride, int k, int i) {
    to[k] = i;
    if (pos) pos[k] = *(const pt_vec2 *)(const void *)(base + (size_t)i * stride);
}

/* The share of the counting sort, with its scatter target. Each share reads every agent's
 * cell, so it knows how many agents come before its cells without waiting for the others,
 * and clears, counts and sums only its own cells (each pass over the grid is a stream
 * through memory). */
static inline PT_ALWAYS_INLINE int sort_share(pt_cellspace *cs, const int *cells, int n, const pt__cellspace_plan *plan,
                                              int share, int shares, int *to, pt_vec2 *pos, const char *base,
                                              size_t stride) {
    long long a = plan->a, span_all = (long long)plan->b - a;
    int q0 = (int)(a + span_all * share / shares), q1 = (int)(a + span_all * (share + 1) / shares), before = 0;
    unsigned span = (unsigned)(q1 - q0); /* q in [q0, q1): (unsigned)(q - q0) < span */
    int *start = cs->start;
    zero(cs, q0, q1, plan->c0, plan->c1);
    if (shares == 1)
        for (int i = 0; i < n; i++) start[cells[i]]++;
    else
        for (int i = 0; i < n; i++) {
            int q = cells[i];
            before += q < q0;
            if ((unsigned)(q - q0) < span) start[q]++;
        }
    /* each cell's end; the scatter counts back down from it (last agent first, so agents
     * ascend within a cell) and leaves each cell's first slot */
    int most = ends(cs, q0, q1, plan, before);
    if (shares == 1)
        for (int i = n - 1; i >= 0; i--) put(to, pos, base, stride, --start[cells[i]], i);
    else
        for (int i = n - 1; i >= 0; i--) {
            int q = cells[i];
            if ((unsigned)(q - q0) < span) put(to, pos, base, stride, --start[q], i);
        }
    return most;
}

int pt__cellspace_sort_share(pt_cellspace *cs, const int *cells, int n, const pt__cellspace_plan *plan, int share,
                             int shares, int *perm, const pt_vec2 *positions, size_t stride) {
    if (perm) return sort_share(cs, cells, n, plan, share, shares, perm, NULL, NULL, 0);
    return sort_share(cs, cells, n, plan, share, shares, cs->ids, cs->pos, (const char *)positions, stride);
}

void pt__cellspace_sort_done(pt_cellspace *cs, int n) {
    cs->start[cs->cols * cs->rows] = n;
    cs->n = n;
}

/* Counting sort of n agents whose cells are known. Only the cells from the first occupied
 * one to the last are counted and summed: on a big map a small crowd fills a few rows. */
static void sort_cells(pt_cellspace *cs, const char *base, size_t stride, const int *cells, int n) {
    pt__cellspace_plan plan;
    pt__cellspace_sort_plan(cs, cells, n, &plan); /* the caller reserved n */
    pt__cellspace_sort_share(cs, cells, n, &plan, 0, 1, NULL, (const pt_vec2 *)(const void *)base, stride);
    pt__cellspace_sort_done(cs, n);
}

int pt_cellspace_rebuild(pt_cellspace *cs, const pt_vec2 *positions, size_t stride, int n) {
    if (n < 0) n = 0;
    if (!stride) stride = sizeof(pt_vec2);
    if (reserve(cs, n) != PT_OK) return PT_ERR_NOMEM;
    const char *base = (const char *)positions;
    for (int i = 0; i < n; i++)
        cs->cell_of[i] = pt_cellspace_cell(cs, *(const pt_vec2 *)(const void *)(base + (size_t)i * stride));
    sort_cells(cs, base, stride, cs->cell_of, n);
    return PT_OK;
}

int pt_cellspace_rebuild_cells(pt_cellspace *cs, const pt_vec2 *positions, const int *cells, int n) {
    if (n < 0) n = 0;
    if (reserve(cs, n) != PT_OK) return PT_ERR_NOMEM;
    int ncells = cs->cols * cs->rows;
    for (int i = 0; i < n; i++)
        if (cells[i] < 0 || cells[i] >= ncells) {
            cs->n = 0;
            memset(cs->start, 0, sizeof *cs->start * ((size_t)ncells + 1));
            cs->lo = cs->hi = 0;
            cs->c0 = INT_MAX; /* no agents */
            cs->c1 = -1;
            return PT_ERR_RANGE;
        }
    sort_cells(cs, (const char *)positions, sizeof *positions, cells, n);
    return PT_OK;
}

/* The query; stop_at_max: return as soon as max ids are written (pt_cellspace_query_first). */
static int query(const pt_cellspace *cs, pt_vec2 p, double radius, int *out, int max, int stop_at_max) {
    if (!cs->start || cs->n == 0 || !(radius >= 0.0) || !pt_v2_is_finite(p)) return 0;
    if (stop_at_max && max <= 0) return 0;
    double r2 = radius * radius;
    int cx0, cx1, cy0, cy1;
    pt_cellspace_block(cs, p, radius, &cx0, &cx1, &cy0, &cy1);
    int found = 0;
    for (int cy = cy0; cy <= cy1; cy++) {
        int row = cy * cs->cols;
        /* A row's cells are contiguous in ids/pos: one run from cx0 to cx1. */
        int k0 = cs->start[row + cx0], k1 = cs->start[row + cx1 + 1];
        for (int k = k0; k < k1; k++) {
            double dx = cs->pos[k].x - p.x, dy = cs->pos[k].y - p.y;
            if (dx * dx + dy * dy <= r2) {
                if (found < max) out[found] = cs->ids[k];
                found++;
                if (stop_at_max && found == max) return found;
            }
        }
    }
    return found;
}

int pt_cellspace_query(const pt_cellspace *cs, pt_vec2 p, double radius, int *out, int max) {
    return query(cs, p, radius, out, max, 0);
}

int pt_cellspace_query_first(const pt_cellspace *cs, pt_vec2 p, double radius, int *out, int max) {
    return query(cs, p, radius, out, max, 1);
}
