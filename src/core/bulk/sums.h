/* SPDX-License-Identifier: Zlib */
/* sums.h - an agent's neighbour sums (separation, mean heading, centre): the part of
 * separation, alignment and cohesion that reads the neighbours. Both modes' steps
 * (inplace.c, packed.c) and the pair lists (pairs.h) build on these. */
#ifndef PATROL_BULK_SUMS_H
#define PATROL_BULK_SUMS_H

#include "bulk/crowd_priv.h"
#include "bulk/simd.h"

#include "nav/steer_shared.h"

#define PT_ALWAYS_INLINE __attribute__((always_inline))

/* The neighbour sums of the agent at cell-order slot k (agent i) in one pass over its
 * neighbours: the same sums, in the same order, with the same operations as
 * pt_steer_separation, pt_steer_alignment and pt_steer_cohesion over the neighbour list
 * pt_crowd_step_brute builds. Only the compact copies are read; group_forces finishes the
 * forces with the agent's vehicle. */
typedef struct sums_src {
    const double *x, *y, *hx, *hy; /* cell order */
    const int *id;                 /* agent index of each slot */
    const unsigned char *hok;      /* NULL, or 1 where the heading counts (the headings are
                                      then +0 where it does not: adding +0 to a sum that
                                      started at +0 changes no bit) */
} sums_src;

/* The same positions and headings interleaved, x and y of slot q at [2q] and [2q + 1] (one
 * load per take instead of two and a shuffle), read where `on` (a constant at each call:
 * else from the split arrays). With them, src->hok is there. */
typedef struct sums_il {
    const double *xy, *hxy;
    int on;
} sums_il;

/* Slot q's position and heading as one v2 each. */
static inline PT_ALWAYS_INLINE v2 src_pos(const sums_src *src, sums_il il, int q) {
    return il.on ? v2_load(il.xy + 2 * q) : v2_set(src->x[q], src->y[q]);
}
static inline PT_ALWAYS_INLINE v2 src_head(const sums_src *src, sums_il il, int q) {
    return il.on ? v2_load(il.hxy + 2 * q) : v2_set(src->hx[q], src->hy[q]);
}

#define SUMS_SPLIT ((sums_il){NULL, NULL, 0})

static inline void sums_zero(pt__crowd_sums *out) {
    out->sep = out->mean_heading = out->centre = pt_v2(0.0, 0.0);
    out->headings = out->count = 0;
    out->pad[0] = out->pad[1] = 0;
}

/* The separation terms of two pairs, p - q = d0 and d1 (x, y in each): (p - q) scaled by
 * 1 / (d * max(d, min)) (unit away / distance), stored to tw as x, y, x, y. Returns the
 * pairs where d < 1e-9 (coincident; bit 0 for d0). */
static inline int sep_term_xy(v2 d0, v2 d1, double *tw) {
    v2 lo = v2_sp(PT__SEP_MIN_DIST), tiny = v2_sp(1e-9), one = v2_sp(1.0);
    v2 s0 = v2_mul(d0, d0), s1 = v2_mul(d1, d1);
    v2 d = v2_sqrt(v2_add(v2_lo(s0, s1), v2_hi(s0, s1))); /* dx * dx + dy * dy */
    v2 w = v2_div(one, v2_mul(d, v2_maxgt(d, lo)));
    v2_store(tw, v2_mul(d0, v2_lo(w, w)));
    v2_store(tw + 2, v2_mul(d1, v2_hi(w, w)));
    return v2_mbits(v2_lt(d, tiny));
}

/* sep_term_xy for the pairs with p - q = (tx, ty) in each lane. */
static inline int sep_term2(v2 tx, v2 ty, double *tw) { return sep_term_xy(v2_lo(tx, ty), v2_hi(tx, ty), tw); }

/* The separation terms of the agent at p over the slots nb[0..m-1], two at a time, into tw
 * as x, y pairs; the terms do not depend on each other, so the square roots and divisions
 * overlap. Returns whether one of them is coincident (d < 1e-9). nb has room for one
 * more. */
static inline int sep_terms(const sums_src *src, v2 px, v2 py, int *nb, int m, double *tw) {
    int coincident = 0;
    if (m) nb[m] = nb[m - 1];
    for (int t = 0; t < m; t += 2) {
        int q0 = nb[t], q1 = nb[t + 1];
        v2 tx = v2_sub(px, v2_set(src->x[q0], src->x[q1])), ty = v2_sub(py, v2_set(src->y[q0], src->y[q1]));
        coincident |= sep_term2(tx, ty, tw + 2 * t);
    }
    return coincident;
}

/* sep_terms for a list of pairs: the term of own[t]'s agent from slot nb[t]; co[t / 2]
 * gets the coincident lanes of pairs t and t + 1 (bit t % 2). own and nb have room for one
 * more. */
static inline int pair_terms(const sums_src *src, int *own, int *nb, int m, double *tw, unsigned char *co) {
    const double *x = src->x, *y = src->y; /* the stores to tw may alias src (__m128d_u) */
    int coincident = 0;
    if (m) {
        nb[m] = nb[m - 1];
        own[m] = own[m - 1];
    }
    for (int t = 0; t < m; t += 2) {
        int a0 = own[t], a1 = own[t + 1], q0 = nb[t], q1 = nb[t + 1];
        v2 d0 = v2_sub(v2_set(x[a0], y[a0]), v2_set(x[q0], y[q0]));
        v2 d1 = v2_sub(v2_set(x[a1], y[a1]), v2_set(x[q1], y[q1]));
        int c = sep_term_xy(d0, d1, tw + 2 * t);
        co[t >> 1] = (unsigned char)c;
        coincident |= c;
    }
    return coincident;
}

/* pair_terms for the pairs of one owner, slot a, with the slots nb[0..m-1] (nb has room for
 * one more): the same differences, read as (x, y) pairs. */
static inline PT_ALWAYS_INLINE int pair_terms_of(const sums_src *src, sums_il il, int a, int *nb, int m, double *tw,
                                                 unsigned char *co) {
    v2 pa = src_pos(src, il, a);
    int coincident = 0;
    if (m) nb[m] = nb[m - 1];
    for (int t = 0; t < m; t += 2) {
        v2 d0 = v2_sub(pa, src_pos(src, il, nb[t])), d1 = v2_sub(pa, src_pos(src, il, nb[t + 1]));
        int c = sep_term_xy(d0, d1, tw + 2 * t);
        co[t >> 1] = (unsigned char)c;
        coincident |= c;
    }
    return coincident;
}

#ifdef CROWD_AVX
/* pair_terms_of four pairs to a vector (AVX): the same operations per pair, so the same
 * bits (x * x + y * y as one horizontal add, x first); co is written by pair_terms_of
 * when a pair is coincident (rare). nb has room for three more, tw for 2 * (m + 3)
 * values. For AVX code only. */
__attribute__((target("avx"))) static inline PT_ALWAYS_INLINE int pair_terms_of_wide(const sums_src *src, sums_il il,
                                                                                     int a, int *nb, int m,
                                                                                     double *tw, unsigned char *co) {
    const double *xy = il.xy;
    __m256d pa = _mm256_broadcast_pd((const __m128d *)(const void *)(xy + 2 * a));
    __m256d lo = _mm256_set1_pd(PT__SEP_MIN_DIST), tiny = _mm256_set1_pd(1e-9), one = _mm256_set1_pd(1.0);
    int coincident = 0;
    if (m) nb[m] = nb[m + 1] = nb[m + 2] = nb[m - 1];
    for (int t = 0; t < m; t += 4) {
        __m256d q01 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(xy + 2 * nb[t])),
                                           _mm_loadu_pd(xy + 2 * nb[t + 1]), 1);
        __m256d q23 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(xy + 2 * nb[t + 2])),
                                           _mm_loadu_pd(xy + 2 * nb[t + 3]), 1);
        __m256d d01 = _mm256_sub_pd(pa, q01), d23 = _mm256_sub_pd(pa, q23); /* x, y of two pairs each */
        /* the distances of pairs t, t + 2, t + 1, t + 3 */
        __m256d d = _mm256_sqrt_pd(_mm256_hadd_pd(_mm256_mul_pd(d01, d01), _mm256_mul_pd(d23, d23)));
        __m256d w = _mm256_div_pd(one, _mm256_mul_pd(d, _mm256_max_pd(d, lo)));
        _mm256_storeu_pd(tw + 2 * t, _mm256_mul_pd(d01, _mm256_unpacklo_pd(w, w)));
        _mm256_storeu_pd(tw + 2 * t + 4, _mm256_mul_pd(d23, _mm256_unpackhi_pd(w, w)));
        coincident |= _mm256_movemask_pd(_mm256_cmp_pd(d, tiny, _CMP_LT_OS));
    }
    return coincident ? pair_terms_of(src, il, a, nb, m, tw, co) : 0;
}
#endif

/* Whether the agent at p and slot q are on the same spot (they push apart along a fixed
 * direction per pair instead). */
static inline int coincident_at(const sums_src *src, pt_vec2 p, int q) {
    double tx = p.x - src->x[q], ty = p.y - src->y[q];
    return sqrt(tx * tx + ty * ty) < 1e-9;
}

/* The push two coincident agents get: agent i's from agent j (x, y in one v2). */
static inline v2 coincident_push(int i, int j) {
    pt_vec2 d = pt_v2_scale(pt__steer_coincident_dir(i, j), 1.0 / PT__SEP_MIN_DIST);
    return v2_set(d.x, d.y);
}

/* A heading counts toward the mean when finite. */
static inline int heading_counts(v2 h) { return v2_mbits(v2_finite(h)) == 3; }

/* Running sums held in registers: x, y in one v2 each. */
typedef struct sums_run {
    v2 sep, head, centre;
    int headings, count;
} sums_run;

static inline sums_run run_load(const pt__crowd_sums *a) {
    return (sums_run){v2_load(&a->sep.x), v2_load(&a->mean_heading.x), v2_load(&a->centre.x), a->headings, a->count};
}

/* Writes the sums as group_forces reads them: the means, not the totals. */
static inline void run_means(pt__crowd_sums *a, sums_run r) {
    v2_store(&a->sep.x, r.sep);
    a->headings = r.headings;
    a->count = r.count;
    a->mean_heading = a->centre = pt_v2(0.0, 0.0);
    if (r.headings) v2_store(&a->mean_heading.x, v2_mul(r.head, v2_sp(1.0 / r.headings)));
    if (r.count) v2_store(&a->centre.x, v2_mul(r.centre, v2_sp(1.0 / r.count)));
}

/* Neighbour q's part of the running sums r: separation term t, heading (when finite),
 * position (left out without cohesion: that sum is never read; the count still caps the
 * terms). */
static inline PT_ALWAYS_INLINE void run_take_il(sums_run *r, const sums_src *src, sums_il il, int q, v2 t, int align,
                                                int cohere) {
    r->sep = v2_add(r->sep, t);
    if (align && (il.on || src->hok)) {
        r->head = v2_add(r->head, src_head(src, il, q));
        r->headings += src->hok[q];
    } else if (align) {
        v2 h = src_head(src, il, q);
        if (heading_counts(h)) {
            r->head = v2_add(r->head, h);
            r->headings++;
        }
    }
    if (cohere) r->centre = v2_add(r->centre, src_pos(src, il, q));
    r->count++;
}

static inline PT_ALWAYS_INLINE void run_take(sums_run *r, const sums_src *src, int q, v2 t, int align, int cohere) {
    run_take_il(r, src, SUMS_SPLIT, q, t, align, cohere);
}

/* The running sums as totals, for more terms to come (half_prepass). */
static inline void run_store(pt__crowd_sums *a, sums_run r) {
    v2_store(&a->sep.x, r.sep);
    v2_store(&a->mean_heading.x, r.head);
    v2_store(&a->centre.x, r.centre);
    a->headings = r.headings;
    a->count = r.count;
}

/* Neighbours nb[0..m-1] of the agent at p (agent i) into r, in order: the same sums, in the
 * same order, with the same operations as pt_steer_separation, pt_steer_alignment and
 * pt_steer_cohesion. */
static inline void run_take_all(sums_run *r, const sums_src *src, pt_vec2 p, int i, int *nb, int m, int align) {
    double tw[2 * PT_CROWD_NB_MAX + 4];
    int co = sep_terms(src, v2_sp(p.x), v2_sp(p.y), nb, m, tw);
    for (int t = 0; t < m; t++) {
        int q = nb[t];
        v2 ta = co && coincident_at(src, p, q) ? coincident_push(i, src->id[q]) : v2_load(tw + 2 * t);
        run_take(r, src, q, ta, align, 1);
    }
}

/* The sums of the agent at p (agent i) over its neighbours src[nb[0..m-1]] (nb has room for
 * one more), as group_forces reads them. */
static inline void sums_pass2(const sums_src *src, pt_vec2 p, int i, int align, int *nb, int m, pt__crowd_sums *out) {
    sums_run r = run_load(out); /* zero */
    run_take_all(&r, src, p, i, nb, m, align);
    run_means(out, r);
}

/* The slots of agent k's first PT_CROWD_NB_MAX neighbours (other than k; of its group when sg,
 * the groups in cell order, is given) from its own block of cells, then their sums. */
static inline void group_sums(const pt_crowd *c, const sums_src *src, const uint32_t *sg, int k, int i, int align,
                              pt__crowd_sums *out) {
    const pt_cellspace *cs = &c->cs;
    const double *sx = src->x, *sy = src->y;
    pt_vec2 p = pt_v2(sx[k], sy[k]);
    sums_zero(out);
    /* A neighbour is within the radius, so its position and distance are finite (what
     * pt_steer_separation and the means check); a non-finite p has no neighbours. */
    if (!pt_v2_is_finite(p)) return;
    double r2 = c->view_radius * c->view_radius;
    int cx0, cx1, cy0, cy1;
    pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
    /* Pass 1: the slots of the first PT_CROWD_NB_MAX neighbours (other than k), in cell
     * order, with no branch on the (unpredictable) distance test. */
    int nb[PT_CROWD_NB_MAX + 1], m = 0;
    uint32_t gk = sg ? sg[k] : 0;
    for (int cy = cy0; cy <= cy1; cy++) {
        int row = cy * cs->cols;
        int q1 = cs->start[row + cx1 + 1];
        for (int q = cs->start[row + cx0]; q < q1; q++) {
            double dx = sx[q] - p.x, dy = sy[q] - p.y;
            nb[m] = q;
            m += (dx * dx + dy * dy <= r2) & (q != k) & (!sg || sg[q] == gk);
            if (m == PT_CROWD_NB_MAX) goto full;
        }
    }
full:
    sums_pass2(src, p, i, align, nb, m, out);
}

/* Separation, alignment and cohesion of vehicle v from its neighbour sums; only those of
 * the behaviours beh (the others are never read, and cohesion costs two square roots). */
static inline PT_ALWAYS_INLINE void group_forces(const pt__crowd_sums *s, const pt_vehicle *v, unsigned beh, pt_vec2 g[3]) {
    g[0] = s->sep;
    g[1] = g[2] = pt_v2(0.0, 0.0);
    if (s->headings && (beh & PT_BEH_BIT(PT_BEH_ALIGNMENT))) g[1] = pt__steer_align_to(v, s->mean_heading);
    if (s->count && (beh & PT_BEH_BIT(PT_BEH_COHESION))) g[2] = pt__steer_cohere_to(v, s->centre);
}

/* Writes a whole line of sums at a random place: with SSE2 a streaming store (the line is
 * not read first and does not evict the neighbour rows). */
static inline void store_sums(pt__crowd_sums *dst, const pt__crowd_sums *g) {
#ifdef __SSE2__
    const __m128i *s = (const __m128i *)(const void *)g;
    __m128i *d = (__m128i *)(void *)dst;
    for (int l = 0; l < 4; l++) _mm_stream_si128(d + l, _mm_loadu_si128(s + l));
#else
    *dst = *g;
#endif
}

#endif
