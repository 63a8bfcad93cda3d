/* SPDX-License-Identifier: Zlib */
/* The in-place mode of pt_crowd. Its step works in four parts (crowd.c runs them):
 *   gather   (parallel, by agent index): positions, headings and cells into compact arrays;
 *   sort     (calling thread): counting sort by cell (pt_cellspace_rebuild_cells), then
 *            (parallel, by cell order) the positions and headings into x/y arrays;
 *   sums     (parallel, by cell order): each agent's neighbour sums (separation, mean
 *            heading, centre) in one pass over the compact arrays, stored by agent index;
 *   step     (parallel, by agent index): the group forces from the sums, the other
 *            behaviours, integration and collision, agent by agent.
 * The sums visit agents in cell order so that the neighbour rows a query reads stay in
 * cache from one agent to the next; the step visits them in index order so that the agent
 * structs (232 bytes each, the bulk of the memory) stream through in order instead of being
 * fetched at random (in cell order, the step waits on them). The sums go out with streaming
 * stores: random whole-line writes that are not read first. Each agent is read and written
 * in its own slot. */
#include "bulk/crowd_priv.h"
#include "bulk/pairs.h"
#include "bulk/simd.h"
#include "bulk/sums.h"

#include <stdint.h>
#include <string.h>

#include "nav/steer_env_index.h"
#include "nav/steer_shared.h"

void pt__crowd_gather_range(pt_crowd *c, int lo, int hi) {
    const pt_cellspace *cs = &c->cs;
    for (int i = lo; i < hi; i++) {
        /* a large crowd's agents come from memory, one line of each wanted */
        if (i + 16 < hi) __builtin_prefetch(&c->agents[i + 16].veh);
        const pt_vehicle *v = &c->agents[i].veh;
        c->pos[i] = v->pos;
        c->heading[i] = v->heading;
        c->cell[i] = pt_cellspace_cell(cs, v->pos);
    }
}

/* ---- flocks by group ----------------------------------------------------------------------- *
 * With c->group set, an agent's neighbours are the agents of its own group only; where
 * flocks overlap (they pass through each other), most of the agents in its block of cells
 * belong to other groups. So the in-place mode sorts the slots by group, then cell, then
 * index (a stable counting sort by group of the cell-sorted ids): an agent's candidates are
 * then the runs of its own group's slots in the cells of its block, found by binary search
 * in the group's run, in the same (cell, index) order as before. */

void pt__crowd_groups_free(pt_crowd *c) {
    if (!c->gm) return;
    PT_FREE(c->gm->ids);
    PT_FREE(c->gm->cell);
    PT_FREE(c->gm->first);
    PT_FREE(c->gm->acc_mem);
    PT_FREE(c->gm->xy);
    PT_FREE(c->gm);
    c->gm = NULL;
}

/* The slots by group after the cell sort (pt_cellspace_rebuild_cells), on the calling
 * thread. Returns 0 (plain cell order) when the groups' values span too wide a range for a
 * counting sort, when memory is short, or when the cells are narrower than the block a
 * query reads (the runs are looked up in an agent's cell and its eight neighbours). */
int pt__crowd_groups_sort(pt_crowd *c) {
    double r = c->view_radius;
    if (!(c->cs.cell >= r + 1e-9 * (1.0 + r))) return 0;
    const uint32_t *group = c->group;
    int n = c->n;
    uint32_t gmin = UINT32_MAX, gmax = 0;
    for (int i = 0; i < n; i++) {
        gmin = group[i] < gmin ? group[i] : gmin;
        gmax = group[i] > gmax ? group[i] : gmax;
    }
    uint64_t range = (uint64_t)gmax - gmin + 1;
    if (range > (uint64_t)n * 4 + 1024) return 0;
    if (!c->gm) {
        c->gm = PT_CALLOC(1, sizeof *c->gm);
        if (!c->gm) return 0;
        c->gm->ids = PT_MALLOC(sizeof *c->gm->ids * (size_t)n);
        c->gm->cell = PT_MALLOC(sizeof *c->gm->cell * (size_t)n);
        if (!c->gm->ids || !c->gm->cell) {
            pt__crowd_groups_free(c);
            return 0;
        }
        /* without it, agent by agent */
        c->gm->acc_mem = PT_MALLOC(sizeof *c->gm->acc * ((size_t)n + 1));
        c->gm->xy = PT_MALLOC(sizeof *c->gm->xy * 4 * (size_t)n);
        if (c->gm->acc_mem && c->gm->xy) {
            c->gm->acc = (pt__crowd_sums *)(void *)(((uintptr_t)c->gm->acc_mem + 63) & ~(uintptr_t)63);
            c->gm->hxy = c->gm->xy + 2 * (size_t)n;
        }
    }
    struct pt__crowd_groups *gm = c->gm;
    if ((int)range + 1 > gm->nfirst) {
        PT_FREE(gm->first);
        gm->nfirst = 0;
        gm->first = PT_MALLOC(sizeof *gm->first * ((size_t)range + 1));
        if (!gm->first) return 0;
        gm->nfirst = (int)range + 1;
    }
    int *first = gm->first;
    memset(first, 0, sizeof *first * ((size_t)range + 1));
    for (int i = 0; i < n; i++) first[group[i] - gmin]++;
    for (uint64_t g = 0, at = 0; g < range; g++) {
        at += (uint64_t)first[g];
        first[g] = (int)at; /* the group's end; the scatter counts back down to its start */
    }
    first[range] = n;
    const int *ids = c->cs.ids;
    for (int k = n - 1; k >= 0; k--) {
        int id = ids[k], s = --first[group[id] - gmin];
        gm->ids[s] = id;
        gm->cell[s] = c->cell[id];
    }
    gm->gmin = gmin;
    return 1;
}

/* The first slot in [lo, hi) whose cell is at least `cell` (hi if none); cells ascend. */
static inline int groups_lower_bound(const int *cells, int lo, int hi, int cell) {
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cells[mid] < cell) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* groups_lower_bound for an answer expected near lo. */
static inline int groups_gallop(const int *cells, int lo, int hi, int cell) {
    int from = lo;
    for (int step = 1; lo < hi && cells[lo] < cell; step <<= 1) {
        from = lo + 1;
        lo += step;
    }
    return groups_lower_bound(cells, from, lo < hi ? lo : hi, cell);
}

/* The compact arrays in cell order (by group first when c->gm->on), split into x and y for
 * the 2-wide distance tests. */
void pt__crowd_soa_range(pt_crowd *c, int lo, int hi, int headings) {
    const int *ids = c->cs.ids;
    const pt_vec2 *pos = c->cs.pos;
    double *xy = NULL, *hxy = NULL;
    if (c->gm && c->gm->on) {
        ids = c->gm->ids;
        xy = c->gm->acc ? c->gm->xy : NULL; /* read by groups_sums_half only */
        hxy = c->gm->acc ? c->gm->hxy : NULL;
        for (int k = lo; k < hi; k++) {
            if (k + 16 < hi) __builtin_prefetch(&c->pos[ids[k + 16]]); /* a random read */
            pt_vec2 p = c->pos[ids[k]];
            c->sx[k] = p.x;
            c->sy[k] = p.y;
            if (xy) {
                xy[2 * k] = p.x;
                xy[2 * k + 1] = p.y;
            }
        }
    } else {
        for (int k = lo; k < hi; k++) {
            c->sx[k] = pos[k].x;
            c->sy[k] = pos[k].y;
        }
    }
    if (c->group)
        for (int k = lo; k < hi; k++) c->sg[k] = c->group[ids[k]];
    if (headings)
        for (int k = lo; k < hi; k++) {
            if (k + 16 < hi) __builtin_prefetch(&c->heading[ids[k + 16]]); /* a random read */
            pt_vec2 h = c->heading[ids[k]];
            int ok = pt_v2_is_finite(h);
            c->shx[k] = ok ? h.x : 0.0;
            c->shy[k] = ok ? h.y : 0.0;
            c->shok[k] = (unsigned char)ok;
            if (hxy) {
                hxy[2 * k] = c->shx[k];
                hxy[2 * k + 1] = c->shy[k];
            }
        }
}

/* The slots of a group's cells around one cell: b[row][j] is the first slot of the group's
 * run [g0, g1) at or after cell (cx - 1 + j) of row cy - 1 + row (clamped to the grid). */
typedef struct groups_runs {
    int g0, cell, cx, cy;
    int b[3][4];
} groups_runs;

/* R for the group [g0, g1) around `cell`, looked up again only when one of them changed
 * (the agents of a group in one cell share it). */
static inline void groups_runs_at(groups_runs *R, const pt_crowd *c, int g0, int g1, int cell) {
    if (g0 == R->g0 && cell == R->cell) return;
    const int *cells = c->gm->cell;
    int cols = c->cs.cols, rows = c->cs.rows;
    int cx = cell % cols, cy = cell / cols;
    if (g0 == R->g0 && cy == R->cy && cx == R->cx + 1) {
        /* the next cell of the row (the common step from one agent to the next): its block's
         * first three columns are the last three of the one before */
        int col = cx + 2 < cols ? cx + 2 : cols;
        R->cell = cell;
        R->cx = cx;
        for (int dr = 0; dr < 3; dr++) {
            int row = cy - 1 + dr, *b = R->b[dr];
            b[0] = b[1];
            b[1] = b[2];
            b[2] = b[3];
            b[3] = row < 0 ? g0 : row >= rows ? g1 : groups_gallop(cells, b[2], g1, row * cols + col);
        }
        return;
    }
    R->g0 = g0;
    R->cell = cell;
    R->cx = cx;
    R->cy = cy;
    /* The twelve bounds ascend, and the three after each row's first lie a few cells on
     * (sought from the one before, in steps that double). */
    int lo = g0;
    for (int dr = 0; dr < 3; dr++) {
        int row = R->cy - 1 + dr;
        for (int j = 0; j < 4; j++) {
            int col = R->cx - 1 + j;
            col = col < 0 ? 0 : col > cols ? cols : col;
            lo = row < 0 ? g0 : row >= rows ? g1 : j ? groups_gallop(cells, lo, g1, row * cols + col)
                                                  : groups_lower_bound(cells, lo, g1, row * cols + col);
            R->b[dr][j] = lo;
        }
    }
}

/* group_sums for the slots [k0, k1) of the group [g0, g1) in group order: the candidates
 * are the runs of the group in the agent's block of cells. */
static void groups_sums_full(pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1, int k0, int k1,
                             int align) {
    const pt_cellspace *cs = &c->cs;
    const double *sx = src->x, *sy = src->y;
    double r2 = c->view_radius * c->view_radius;
    for (int k = k0; k < k1; k++) {
        pt__crowd_sums g;
        pt_vec2 p = pt_v2(sx[k], sy[k]);
        sums_zero(&g);
        if (pt_v2_is_finite(p)) {
            groups_runs_at(R, c, g0, g1, c->gm->cell[k]);
            int cx0, cx1, cy0, cy1;
            pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
            int nb[PT_CROWD_NB_MAX + 1], m = 0;
            for (int yy = cy0; yy <= cy1; yy++) {
                const int *row = R->b[yy - R->cy + 1];
                int q1 = row[cx1 - R->cx + 2];
                for (int q = row[cx0 - R->cx + 1]; q < q1; q++) {
                    double dx = sx[q] - p.x, dy = sy[q] - p.y;
                    nb[m] = q;
                    m += (dx * dx + dy * dy <= r2) & (q != k);
                    if (m == PT_CROWD_NB_MAX) goto full;
                }
            }
        full:
            sums_pass2(src, p, src->id[k], align, nb, m, &g);
        }
        store_sums(&c->gsum[src->id[k]], &g);
    }
}

/* Whether no cell holds more than HALF_CELL_MAX of the agents of the group [g0, g1) (its
 * slots are in cell order): the pairs are then weighed once, and each agent's later
 * neighbours are at most five cells' worth. */
static int groups_sparse(const pt_crowd *c, int g0, int g1) {
    const int *cells = c->gm->cell;
    for (int k = g0; k + HALF_CELL_MAX < g1; k++)
        if (cells[k] == cells[k + HALF_CELL_MAX]) return 0;
    return 1;
}

/* half_owner_of for the crowd's align and cohere, with the separation terms of its pairs,
 * out of line: on its own, its loop over the pairs keeps its pointers in registers
 * (inlined into the loop over the agents, it read four of them back from the stack at
 * every pair). nb has room for three more. */
static __attribute__((noinline)) void half_owner_sse(const sums_src *src, sums_il il, int align, int cohere,
                                                     pt__crowd_sums *acc, int k, int *nb, int m, int s1) {
    double tw[2 * HALF_NB_MAX + 8];
    unsigned char co[HALF_NB_MAX / 2 + 4];
    int coincident = pair_terms_of(src, il, k, nb, m, tw, co);
    if (align && cohere) half_owner_of(src, il, 1, 1, acc, k, nb, m, s1, tw, co, coincident);
    else half_owner_of(src, il, align, cohere, acc, k, nb, m, s1, tw, co, coincident);
}

#ifdef CROWD_AVX
/* The same with the terms four to a vector. */
__attribute__((target("avx"), noinline)) static void half_owner_avx(const sums_src *src, sums_il il, int align,
                                                                    int cohere, pt__crowd_sums *acc, int k, int *nb,
                                                                    int m, int s1) {
    double tw[2 * HALF_NB_MAX + 8];
    unsigned char co[HALF_NB_MAX / 2 + 4];
    int coincident = pair_terms_of_wide(src, il, k, nb, m, tw, co);
    if (align && cohere) half_owner_of(src, il, 1, 1, acc, k, nb, m, s1, tw, co, coincident);
    else half_owner_of(src, il, align, cohere, acc, k, nb, m, s1, tw, co, coincident);
}
#endif

static inline PT_ALWAYS_INLINE void half_owner(const sums_src *src, sums_il il, int align, int cohere,
                                               pt__crowd_sums *acc, int k, int *nb, int m, int s1, int wide) {
#ifdef CROWD_AVX
    if (wide) {
        half_owner_avx(src, il, align, cohere, acc, k, nb, m, s1);
        return;
    }
#endif
    (void)wide;
    half_owner_sse(src, il, align, cohere, acc, k, nb, m, s1);
}

/* Slot k's later neighbours, the slots within r2 of p in the runs [runs[r][0], runs[r][1]),
 * r < nr, weighed with k as their owner (half_owner_of); wide: the distance tests four
 * slots to a vector (AVX). In pieces, so that nb has room for any run (the runs of a
 * sparse group hold at most HALF_NB_MAX slots). */
static inline PT_ALWAYS_INLINE void half_later_of(const sums_src *src, sums_il il, int align, int cohere,
                                                  pt__crowd_sums *acc, int k, const int (*runs)[2], int nr, pt_vec2 p,
                                                  double r2, int s1, int wide) {
    int nb[HALF_NB_MAX + 8], m = 0;
    v2 px = v2_sp(p.x), py = v2_sp(p.y), r2v = v2_sp(r2);
    for (int r = 0; r < nr; r++)
        for (int q = runs[r][0]; q < runs[r][1];) {
            int e = runs[r][1] - q < HALF_NB_MAX - m ? runs[r][1] : q + (HALF_NB_MAX - m);
#ifdef CROWD_AVX
            if (wide) m = half_scan4_wide(src, p.x, p.y, r2, q, e, nb, m);
            else
#endif
                m = half_scan4(src, px, py, r2v, q, e, nb, m);
            q = e;
            if (m == HALF_NB_MAX) {
                half_owner(src, il, align, cohere, acc, k, nb, m, s1, wide);
                m = 0;
            }
        }
    if (m) half_owner(src, il, align, cohere, acc, k, nb, m, s1, wide);
}

/* The later neighbours of the slots [k0, k1) of the group [g0, g1) (their running sums in
 * acc by slot, s1 = k1), each slot's sums then complete: as means to gsum. */
static inline PT_ALWAYS_INLINE void half_later_range_of(pt_crowd *c, const sums_src *src, groups_runs *R, sums_il il,
                                                        int align, int cohere, pt__crowd_sums *acc, int g0, int g1,
                                                        int k0, int k1, int wide) {
    const pt_cellspace *cs = &c->cs;
    const double *sx = src->x, *sy = src->y;
    const int *cells = c->gm->cell;
    half_acc A = {acc, ~0u, 0};
    double r = c->view_radius, r2 = r * r;
    for (int k = k0; k < k1; k++) {
        pt_vec2 p = pt_v2(sx[k], sy[k]);
        if (pt_v2_is_finite(p)) {
            groups_runs_at(R, c, g0, g1, cells[k]);
            int cx0, cx1, cy0, cy1;
            pt_cellspace_block(cs, p, r, &cx0, &cx1, &cy0, &cy1);
            /* the later neighbours: the rest of its own row of the block, the row below */
            int runs[2][2] = {{k + 1, R->b[1][cx1 - R->cx + 2]}, {R->b[2][cx0 - R->cx + 1], R->b[2][cx1 - R->cx + 2]}};
            half_later_of(src, il, align, cohere, acc, k, (const int(*)[2])runs, cy1 > R->cy ? 2 : 1, p, r2, k1, wide);
        }
        if (align | cohere) half_means(&A, k, 1);
        store_sums(&c->gsum[src->id[k]], hacc(&A, k));
    }
}

/* half_later_range_of for the crowd's align and cohere; with AVX (the distance tests and
 * the separation terms four at a time, three-operand encodings) where the processor has it
 * (c->wide): the same operations. */
static void half_later_sse(pt_crowd *c, const sums_src *src, groups_runs *R, sums_il il, int align, int cohere,
                           pt__crowd_sums *acc, int g0, int g1, int k0, int k1) {
    if (align && cohere) half_later_range_of(c, src, R, il, 1, 1, acc, g0, g1, k0, k1, 0);
    else half_later_range_of(c, src, R, il, align, cohere, acc, g0, g1, k0, k1, 0);
}

#ifdef CROWD_AVX
__attribute__((target("avx"))) static void half_later_avx(pt_crowd *c, const sums_src *src, groups_runs *R,
                                                          sums_il il, int align, int cohere, pt__crowd_sums *acc,
                                                          int g0, int g1, int k0, int k1) {
    if (align && cohere) half_later_range_of(c, src, R, il, 1, 1, acc, g0, g1, k0, k1, 1);
    else half_later_range_of(c, src, R, il, align, cohere, acc, g0, g1, k0, k1, 1);
}
#endif

static void half_later(pt_crowd *c, const sums_src *src, groups_runs *R, sums_il il, int align, int cohere,
                       pt__crowd_sums *acc, int g0, int g1, int k0, int k1) {
#ifdef CROWD_AVX
    if (c->wide) {
        half_later_avx(c, src, R, il, align, cohere, acc, g0, g1, k0, k1);
        return;
    }
#endif
    half_later_sse(c, src, R, il, align, cohere, acc, g0, g1, k0, k1);
}

/* The half lists in group order, for the slots [k0, k1) of the group [g0, g1): the
 * running sums in gm->acc by slot; an agent's earlier neighbours have given it their terms
 * by the time its own turn comes (those before k0, in another share, by a pass of their
 * own first), so its sums are complete once it has weighed its later ones, and go to gsum
 * then. The same order of terms and cap as groups_sums_full. */
static void groups_sums_half(pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1, int k0, int k1,
                             int align) {
    const pt_cellspace *cs = &c->cs;
    const double *sx = src->x, *sy = src->y;
    const int *cells = c->gm->cell;
    int cohere = (c->behaviours & PT_BEH_BIT(PT_BEH_COHESION)) != 0;
    half_acc A = {c->gm->acc, ~0u, 0};
    sums_il il = {c->gm->xy, c->gm->hxy, 1};
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_NB_MAX + 8];
    for (int k = k0; k < k1; k++) sums_zero(hacc(&A, k));
    /* the terms from the group's agents before k0: only agents up to a row of cells after
     * the one of slot k0 - 1 have any */
    for (int k = k0; g0 < k0 && k < k1; k++) {
        pt_vec2 p = pt_v2(sx[k], sy[k]);
        if (!pt_v2_is_finite(p)) continue;
        groups_runs_at(R, c, g0, g1, cells[k]);
        if (R->cy > cells[k0 - 1] / cs->cols + 1) break;
        int cx0, cx1, cy0, cy1;
        pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
        v2 px = v2_sp(p.x), py = v2_sp(p.y);
        int m = 0;
        for (int yy = cy0; yy <= cy1 && yy <= R->cy; yy++) {
            const int *row = R->b[yy - R->cy + 1];
            int q0 = row[cx0 - R->cx + 1], q1 = row[cx1 - R->cx + 2];
            q1 = q1 < k0 ? q1 : k0;
            /* in pieces, so that nb has room for any run */
            for (int q = q0; q < q1 && m < PT_CROWD_NB_MAX;) {
                int e = q1 - q < PT_CROWD_NB_MAX ? q1 : q + PT_CROWD_NB_MAX;
                m = half_scan(src, px, py, r2, q, e, nb, m);
                q = e;
            }
        }
        if (!m) continue;
        if (m > PT_CROWD_NB_MAX) m = PT_CROWD_NB_MAX;
        sums_run r = run_load(hacc(&A, k));
        run_take_all(&r, src, p, src->id[k], nb, m, align);
        run_store(hacc(&A, k), r);
    }
    half_later(c, src, R, il, align, cohere, A.base, g0, g1, k0, k1);
}


/* The sums of the slots [lo, hi) in group order, group by group: each pair weighed once
 * (groups_sums_half) in a group no cell of which holds more than HALF_CELL_MAX of its
 * agents, else agent by agent. */
static void groups_sums_range(pt_crowd *c, const sums_src *src, int lo, int hi, int align) {
    const struct pt__crowd_groups *gm = c->gm;
    groups_runs R = {.g0 = -1, .cell = -1};
    for (int k = lo; k < hi;) {
        int gi = (int)(c->sg[k] - gm->gmin), g0 = gm->first[gi], g1 = gm->first[gi + 1], k1 = g1 < hi ? g1 : hi;
        if (gm->acc && groups_sparse(c, g0, g1)) /* gm->acc: with xy and hxy */ groups_sums_half(c, src, &R, g0, g1, k, k1, align);
        else groups_sums_full(c, src, &R, g0, g1, k, k1, align);
        k = k1;
    }
}

/* The neighbour sums of every agent, in cell order (neighbour rows stay in cache from one
 * agent to the next), stored by agent index for the step. */
void pt__crowd_sums_range(pt_crowd *c, int lo, int hi) {
    int on = c->gm && c->gm->on;
    const int *ids = on ? c->gm->ids : c->cs.ids;
    int align = (c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0;
    sums_src src = {c->sx, c->sy, c->shx, c->shy, ids, c->shok};
    if (on) {
        groups_sums_range(c, &src, lo, hi, align);
    } else {
        for (int k = lo; k < hi; k++) {
            pt__crowd_sums g;
            group_sums(c, &src, c->group ? c->sg : NULL, k, ids[k], align, &g);
            store_sums(&c->gsum[ids[k]], &g);
        }
    }
#ifdef __SSE2__
    _mm_sfence(); /* the streaming stores are seen before the phase ends */
#endif
}

/* ---- the step: two or four agents at once ------------------------------------------------ *
 * The combiner and the integrator are long chains of dependent square roots and divisions
 * per agent; runs of consecutive agents that share their constants go through them
 * together, one agent per SIMD lane (lanes.h, as in the packed mode). The behaviours the
 * lanes cannot compute (wall avoidance, wander, ...) come from the scalar code, agent by
 * agent. */
#include "bulk/lanes_all.h"

/* The lanes' shared constants: those of the agent they were made from (src), valid while
 * ok. */
typedef struct step_lanes {
    consts_2 pc;
#ifdef CROWD_AVX
    consts_4 pc4;
#endif
    const pt_steer_params *params;
    double mass, max_speed, max_force, max_turn_rate;
    double dt;
    int width, ok;
} step_lanes;

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Whether agent a has the constants the lanes were made for. */
static inline int lanes_fit(const step_lanes *L, const pt_steer_agent *a) {
    const pt_vehicle *v = &a->veh;
    return a->params == L->params && same_bits(v->mass, L->mass) && same_bits(v->max_speed, L->max_speed) &&
           same_bits(v->max_force, L->max_force) && same_bits(v->max_turn_rate, L->max_turn_rate) &&
           !(v->smooth_time > 0);
}

/* The lanes' constants from agent a: ok when its constants suit the lanes (the weighted or
 * prioritised combiner, a positive finite max_force, no smoothing). */
static void lanes_from(step_lanes *L, const pt_steer_agent *a) {
    const pt_vehicle *v = &a->veh;
    L->params = a->params;
    L->mass = v->mass;
    L->max_speed = v->max_speed;
    L->max_force = v->max_force;
    L->max_turn_rate = v->max_turn_rate;
    L->ok = v->max_force > 0 && v->max_force <= DBL_MAX && !(v->smooth_time > 0) &&
            pt__params_or_default(a->params)->combiner != PT_COMBINE_DITHERED;
    if (!L->ok) return;
    consts_init_2(&L->pc, a, L->dt);
#ifdef CROWD_AVX
    if (L->width == 4) consts_init_4(&L->pc4, a, L->dt);
#endif
}

/* Agents i .. i + n - 1 (n 2, or 4 with AVX) through the lanes; 0 when the scalar path
 * must take them (different constants or behaviours, state not finite). */
static int step_run_lanes(pt_crowd *c, step_lanes *L, pt_steer_ctx *ctx, const pt_vehicle *tv, int i, int n,
                          int group) {
    pt_steer_agent *ag = &c->agents[i];
    if (!lanes_fit(L, &ag[0])) lanes_from(L, &ag[0]);
    if (!L->ok) return 0;
    const pt_vehicle *a1[4];
    unsigned on = 0;
    for (int l = 0; l < n; l++) {
        pt_steer_agent *a = &ag[l];
        if (l && !lanes_fit(L, a)) return 0;
        a->behaviours = pt__crowd_agent_behaviours(c, ctx->target, a->veh.pos);
        if (l && a->behaviours != on) return 0;
        on = a->behaviours;
        a1[l] = tv && i + l != c->target ? tv : NULL;
    }
    on &= ~PT_BEH_BIT(PT_BEH_FACE) & (PT_BEH_BIT(PT_BEH_COUNT) - 1u);
    const double *weight = pt__params_or_default(L->params)->weight;
    const pt__crowd_sums *sm = group ? &c->gsum[i] : NULL;
    int done;
#ifdef CROWD_AVX
    if (n == 4) done = inplace_4(ag, sm, ctx, a1, on, weight, &L->pc4, &c->forces[i]);
    else
#endif
        done = inplace_2(ag, sm, ctx, a1, on, weight, &L->pc, &c->forces[i]);
    if (!done) return 0;
    if (c->env)
        for (int l = 0; l < n; l++) pt_steer_collide(c->env, &ag[l].veh.pos, &ag[l].veh.vel, ag[l].veh.radius);
    return 1;
}

/* The step reads the map round each agent, random lines of a large map: ask for agent
 * k's a few agents ahead (at its position at the start of the tick). A map of fewer tiles
 * than TILES_FAR (a byte each) stays in a core's cache, and asking costs more than it saves. */
enum { TILES_AHEAD = 8, TILES_FAR = 1 << 18 };

/* Forces, integration and collision in index order: the agent structs (the bulk of the
 * memory) and the sums stream through in order, which the hardware prefetches well. */
void pt__crowd_step_range(pt_crowd *c, int lo, int hi, double dt) {
    unsigned beh = c->behaviours;
    int group = (beh & PT_BEH_FLOCKING) != 0;
    pt_steer_ctx ctx;
    const pt_vehicle *tv = pt__crowd_tick_ctx(c, dt, &ctx);
    step_lanes L = {.dt = dt, .width = 2, .params = NULL, .mass = NAN};
#ifdef CROWD_AVX
    if (c->wide) L.width = 4;
#endif
    /* the lanes integrate only a tick that integrates, and never turn to face a point */
    int width = dt > 0 && isfinite(dt) && !(beh & PT_BEH_BIT(PT_BEH_FACE)) ? L.width : 1;
    const pt_map *map = c->env ? c->env->map : NULL;
    int far = map && (long long)map->w * map->h >= TILES_FAR;
    for (int i = lo, done = lo; i < hi;) {
        int n = width;
        while (i + n > hi) n >>= 1;
        if (far)
            for (int k = i + TILES_AHEAD; k < i + TILES_AHEAD + n && k < hi; k++) pt__steer_env_prefetch(c->env, c->pos[k]);
        if (n < 2 || !step_run_lanes(c, &L, &ctx, tv, i, n, group)) {
            for (int k = i; k < i + n; k++) {
                pt_steer_agent *a = &c->agents[k];
                pt_vec2 g[3];
                if (group) group_forces(&c->gsum[k], &a->veh, beh, g);
                ctx.agent1 = tv && k != c->target ? tv : NULL;
                a->behaviours = pt__crowd_agent_behaviours(c, ctx.target, a->veh.pos);
                pt_vec2 f = pt__steer_calculate_group(a, &ctx, group ? g : NULL);
                c->forces[k] = f;
                pt_steer_agent_update(a, &ctx, f, dt);
                if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
            }
        }
        i += n;
        if (c->after_step && (i - done >= 64 || i == hi)) { /* a few lines of agents */
            c->after_step(c->after_arg, done, i);
            done = i;
        }
    }
}
