/* SPDX-License-Identifier: Zlib */
/* owner_sums.h - the neighbour sums of the flocks by group (inplace.c) four owners at a
 * time, one per AVX lane: each owner's own neighbour list (its first PT_CROWD_NB_MAX in
 * cell order, the candidates and distance test of groups_sums_full), then one pass over the
 * four lists, each lane taking its owner's neighbours one by one in its owner's order. Every
 * pair is weighed twice, once by each side (the half lists weigh it once), but no sums are
 * updated in memory and the square roots and divisions of four owners go in one
 * instruction. Each lane does the operations of sep_term2 and run_take in the order
 * sums_pass2 does them (no fused or reordered operation), so every owner's sums are
 * sums_pass2's bit for bit; an owner with a coincident neighbour (d < 1e-9, rare) is
 * taken again by sums_pass2 itself.
 *
 * Only where the processor has AVX (c->wide): two owners per SSE2 register give fewer
 * instructions than the half lists but, with twice the square roots and divisions, take
 * longer. Included by inplace.c after its groups_runs and groups_runs_at. */
#ifndef PATROL_BULK_OWNER_SUMS_H
#define PATROL_BULK_OWNER_SUMS_H

#include "simd.h"
#include "sums.h"

#ifdef CROWD_AVX

/* Owners per batch, and the room of a list: the cap and a mask of 64 more (own_list). */
#define OWN_BATCH 4
#define OWN_NB (PT_CROWD_NB_MAX + 64)

/* A batch of owners: slot k[l], its neighbours' slots nb[l][0 .. m[l] - 1] (then its own
 * slot up to the longest list: a valid slot whose part the pass drops), how many of them
 * have a finite heading. */
typedef struct own_batch {
    int nb[OWN_BATCH][OWN_NB];
    int m[OWN_BATCH], k[OWN_BATCH], headings[OWN_BATCH];
} own_batch;

/* AVX code (the target pragma): call groups_sums_owners only where c->wide. */
#pragma GCC push_options
#pragma GCC target("avx")

/* The slots of the first PT_CROWD_NB_MAX neighbours of slot k (finite position) of the group
 * [g0, g1) in cell order, into nb; returns how many, and in *headings how many of them
 * have a finite heading (when align). The candidates of groups_sums_full with the same
 * distance test in the same order: four slots at a time into a mask of up to 64,
 * then the set bits in order. Reads up to three slots past a run (the next group's, or the
 * arrays' padding: sx and sy have two, then the next array; masked off). */
static inline PT_ALWAYS_INLINE int own_list(const pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1,
                                            int k, int *nb, int align, int *headings) {
    const pt_cellspace *cs = &c->cs;
    pt_vec2 p = pt_v2(src->x[k], src->y[k]);
    groups_runs_at(R, c, g0, g1, c->gm->cell[k]);
    int cx0, cx1, cy0, cy1;
    pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
    v4 px = v4_sp(p.x), py = v4_sp(p.y), r2 = v4_sp(c->view_radius * c->view_radius);
    int m = 0, h = 0;
    for (int yy = cy0; yy <= cy1; yy++) {
        const int *row = R->b[yy - R->cy + 1];
        int q1 = row[cx1 - R->cx + 2];
        for (int a = row[cx0 - R->cx + 1]; a < q1; a += 64) {
            int len = q1 - a < 64 ? q1 - a : 64;
            uint64_t bits = 0;
            for (int j = 0; j < len; j += 4) {
                v4 dx = v4_sub(v4_load(src->x + a + j), px), dy = v4_sub(v4_load(src->y + a + j), py);
                bits |= (uint64_t)v4_mbits(v4_le(v4_add(v4_mul(dx, dx), v4_mul(dy, dy)), r2)) << j;
            }
            bits &= len < 64 ? (1ull << len) - 1 : ~0ull;
            if ((unsigned)(k - a) < 64u) bits &= ~(1ull << (k - a));
            /* the set bits in order; past the cap they are dropped (nb has room for a whole
             * mask more) */
            const unsigned char *hok = src->hok;
            for (; bits; bits &= bits - 1) {
                int q = a + __builtin_ctzll(bits);
                nb[m++] = q;
                if (align) h += hok[q];
            }
            if (m >= PT_CROWD_NB_MAX) {
                m = PT_CROWD_NB_MAX;
                h = 0;
                if (align)
                    for (int t = 0; t < m; t++) h += hok[nb[t]];
                goto full;
            }
        }
    }
full:
    *headings = h;
    return m;
}

/* An owner's running sums in each lane: separation, headings, positions; the list lengths
 * (as doubles) and the lanes that met a coincident neighbour. */
typedef struct own_run {
    v4 sx, sy, hx, hy, cx, cy, m;
    m4 co;
} own_run;

/* Neighbour t of each lane's owner into the running sums; `tail` masks the lanes whose list
 * is shorter than t + 1 (their entry t is a valid slot, its part dropped: adding +0 to a
 * sum that started at +0 changes no bit). */
static inline PT_ALWAYS_INLINE void own_step(const sums_src *src, const own_batch *B, int t, v4 px, v4 py, own_run *r,
                                             int align, int tail) {
    int q[4];
    for (int l = 0; l < 4; l++) q[l] = B->nb[l][t];
    v4 x = v4_gather(src->x, q), y = v4_gather(src->y, q);
    v4 tx = v4_sub(px, x), ty = v4_sub(py, y);
    v4 d = v4_sqrt(v4_add(v4_mul(tx, tx), v4_mul(ty, ty)));
    v4 w = v4_div(v4_sp(1.0), v4_mul(d, _mm256_max_pd(d, v4_sp(PT__SEP_MIN_DIST))));
    tx = v4_mul(tx, w);
    ty = v4_mul(ty, w);
    m4 co = v4_lt(d, v4_sp(1e-9));
    if (tail) {
        m4 on = v4_lt(v4_sp((double)t), r->m);
        co = v4_mand(co, on);
        tx = v4_keep(on, tx);
        ty = v4_keep(on, ty);
        x = v4_keep(on, x);
        y = v4_keep(on, y);
    }
    r->co = v4_mor(r->co, co);
    r->sx = v4_add(r->sx, tx);
    r->sy = v4_add(r->sy, ty);
    r->cx = v4_add(r->cx, x);
    r->cy = v4_add(r->cy, y);
    if (align) {
        v4 hx = v4_gather(src->hx, q), hy = v4_gather(src->hy, q);
        if (tail) {
            m4 on = v4_lt(v4_sp((double)t), r->m);
            hx = v4_keep(on, hx);
            hy = v4_keep(on, hy);
        }
        r->hx = v4_add(r->hx, hx);
        r->hy = v4_add(r->hy, hy);
    }
}

/* The sums of the owners of B into out, as run_means leaves them; returns the lanes with a
 * coincident neighbour. */
static inline PT_ALWAYS_INLINE int own_pass(const sums_src *src, const own_batch *B, int align, pt__crowd_sums *out) {
    int q[4], lo = PT_CROWD_NB_MAX, hi = 0;
    double mf[4], hf[4];
    for (int l = 0; l < 4; l++) {
        int m = B->m[l];
        q[l] = B->k[l];
        mf[l] = (double)m;
        hf[l] = (double)B->headings[l];
        lo = m < lo ? m : lo;
        hi = m > hi ? m : hi;
    }
    v4 px = v4_gather(src->x, q), py = v4_gather(src->y, q), zero = v4_sp(0.0);
    own_run r = {zero, zero, zero, zero, zero, zero, v4_load(mf), v4_lt(zero, zero)};
    int t = 0;
    for (; t < lo; t++) own_step(src, B, t, px, py, &r, align, 0);
    for (; t < hi; t++) own_step(src, B, t, px, py, &r, align, 1);
    /* the means: the totals times 1 / n, +0 where n is 0 */
    v4 one = v4_sp(1.0), hv = v4_load(hf);
    m4 hon = v4_lt(zero, hv), con = v4_lt(zero, r.m);
    v4 ih = v4_div(one, hv), ic = v4_div(one, r.m);
    double o[6][4];
    v4_store(o[0], r.sx);
    v4_store(o[1], r.sy);
    v4_store(o[2], v4_keep(hon, v4_mul(r.hx, ih)));
    v4_store(o[3], v4_keep(hon, v4_mul(r.hy, ih)));
    v4_store(o[4], v4_keep(con, v4_mul(r.cx, ic)));
    v4_store(o[5], v4_keep(con, v4_mul(r.cy, ic)));
    for (int l = 0; l < 4; l++) {
        pt__crowd_sums *s = &out[l];
        s->sep = pt_v2(o[0][l], o[1][l]);
        s->mean_heading = pt_v2(o[2][l], o[3][l]);
        s->centre = pt_v2(o[4][l], o[5][l]);
        s->headings = B->headings[l];
        s->count = B->m[l];
        s->pad[0] = s->pad[1] = 0;
    }
    return v4_mbits(r.co);
}

/* The lists of the owners k .. k + n - 1 (n <= OWN_BATCH) of the group [g0, g1) into B (an
 * owner at a non-finite position has none), padded to the longest with the owner's own
 * slot; their sums into g[0 .. n - 1]. Returns the owners (bit l for owner k + l) with a
 * coincident neighbour. */
static inline int own_batch_run(const pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1, int k, int n,
                                int align, own_batch *B, pt__crowd_sums *g) {
    int hi = 0;
    for (int l = 0; l < OWN_BATCH; l++) {
        int s = l < n ? k + l : k, m = 0, h = 0;
        if (l < n && pt_v2_is_finite(pt_v2(src->x[s], src->y[s])))
            m = align ? own_list(c, src, R, g0, g1, s, B->nb[l], 1, &h) : own_list(c, src, R, g0, g1, s, B->nb[l], 0, &h);
        B->k[l] = s;
        B->m[l] = m;
        B->headings[l] = h;
        hi = m > hi ? m : hi;
    }
    for (int l = 0; l < OWN_BATCH; l++)
        for (int t = B->m[l]; t < hi; t++) B->nb[l][t] = B->k[l];
    return align ? own_pass(src, B, 1, g) : own_pass(src, B, 0, g);
}

/* The sums of the slots [k0, k1) of the group [g0, g1), four owners at a time, stored by
 * agent index. */
static void groups_sums_owners(pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1, int k0, int k1,
                               int align) {
    own_batch B;
    pt__crowd_sums g[OWN_BATCH];
    for (int k = k0; k < k1; k += OWN_BATCH) {
        int n = k1 - k < OWN_BATCH ? k1 - k : OWN_BATCH, co = own_batch_run(c, src, R, g0, g1, k, n, align, &B, g);
        for (int l = 0; l < n; l++) {
            if (co >> l & 1) {
                int s = k + l;
                sums_zero(&g[l]);
                sums_pass2(src, pt_v2(src->x[s], src->y[s]), src->id[s], align, B.nb[l], B.m[l], &g[l]);
            }
            store_sums(&c->gsum[src->id[k + l]], &g[l]);
        }
    }
}

#pragma GCC pop_options
#endif

#endif
