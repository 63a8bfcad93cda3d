/* SPDX-License-Identifier: Zlib */
/* pairs.h - the half neighbour lists: every pair of neighbours weighed once. The packed
 * step (packed.c) and the in-place mode's flocks by group (inplace.c) run them. */
#ifndef PATROL_BULK_PAIRS_H
#define PATROL_BULK_PAIRS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bulk/sums.h"

/* ---- the half neighbour lists ----------------------------------------------------------------- *
 * Every pair of neighbours is weighed once, by the earlier of its two slots: its separation
 * term goes to one agent and, negated, to the other (p - q = -(q - p) exactly, and the
 * distance is the same both ways, so the negated term is the other's own term bit for bit),
 * and each gets the other's heading and position. Slots run in cell order, so an agent
 * receives the terms of its earlier neighbours in ascending slot order, then its own scan
 * adds the later ones in ascending order: the (cell, index) order of the reference, and the
 * first PT_CROWD_NB_MAX of them, since each side is capped by its own count. The running sums
 * live in a ring per thread (ring_size), or in c->gsum by slot.
 *
 * The cells are a little wider than the view radius (crowd_init), so an agent's neighbours
 * lie in its cell and the eight around it, and the later ones in two runs of slots: the rest
 * of its own row from itself to the end of the next cell, and the three cells below. A cell's
 * agents share those runs.
 *
 * A chunk of the step owns whole rows of cells and writes only their slots: a pair whose later agent
 * lies past the chunk gives its term to the earlier agent only, and the chunk that holds the
 * later one collects such terms itself first (half_prepass). Used while no cell holds more
 * than HALF_CELL_MAX agents: a dense clump goes back to the per-agent scan, whose cost stays
 * O(n * PT_CROWD_NB_MAX). */

/* The half neighbour lists run while no cell holds more agents than this, and the cells
 * are this much wider than the view radius (crowd_init in crowd.c makes them so): a
 * neighbour is then never more than one cell away, with room for rounding. */
#define HALF_CELL_MAX 32
#define HALF_CELL_SLACK (1.0 + 1e-6)
/* An agent's later neighbours lie in at most five cells (the rest of its own, the next one,
 * three below), its earlier ones outside a chunk in four. */
#define HALF_NB_MAX (5 * HALF_CELL_MAX)
/* The half step runs agents in batches of up to this many (see half_pairs), with room for
 * their later neighbours. */
#define HALF_BATCH 4
#define HALF_PAIRS (HALF_BATCH * HALF_NB_MAX + 8)

/* Where a chunk's running sums are: slot q's at base[(q - s0) & mask], in the thread's
 * ring (ring_size) or, with mask ~0, in gsum (base = gsum + s0). A batch never straddles
 * the ring's end: batches start at multiples of their size from s0 and the ring's size is a
 * multiple of four. */
typedef struct half_acc {
    pt__crowd_sums *base;
    unsigned mask;
    int s0;
} half_acc;

static inline pt__crowd_sums *hacc(const half_acc *A, int q) { return &A->base[(unsigned)(q - A->s0) & A->mask]; }

/* Zeroes the running sums of slots [*z, to). */
static inline void half_zero(const half_acc *A, int *z, int to) {
    for (; *z < to; (*z)++) sums_zero(hacc(A, *z));
}

/* Appends to nb the slots of [q, q1) within r2 of p, two at a time (the slot after q1 is
 * always there to read: the next one, or the NaN padding). */
static inline int half_scan(const sums_src *src, v2 px, v2 py, v2 r2, int q, int q1, int *nb, int m) {
    for (; q < q1; q += 2) {
        v2 dx = v2_sub(v2_load(src->x + q), px), dy = v2_sub(v2_load(src->y + q), py);
        int in = v2_mbits(v2_le(v2_add(v2_mul(dx, dx), v2_mul(dy, dy)), r2)) & (q + 1 < q1 ? 3 : 1);
        nb[m] = q;
        m += in & 1;
        nb[m] = q + 1;
        m += in >> 1;
    }
    return m;
}

/* The runs of slots of cell (cx, cy): *up0..*up1 the three cells above, *left0..*left1 the
 * one to the left, *fw1 the end of the one to the right, *dn0..*dn1 the three below. */
typedef struct half_cell {
    int up0, up1, left0, left1, fw1, dn0, dn1;
} half_cell;

static inline half_cell half_runs(const pt_cellspace *cs, int cx, int cy) {
    const int *start = cs->start;
    int cols = cs->cols, l = cx > 0 ? cx - 1 : 0, r = cx + 1 < cols ? cx + 1 : cols - 1, row = cy * cols;
    half_cell h;
    h.up0 = h.up1 = h.dn0 = h.dn1 = 0;
    if (cy > 0) {
        h.up0 = start[row - cols + l];
        h.up1 = start[row - cols + r + 1];
    }
    h.left0 = start[row + l];
    h.left1 = cx > 0 ? start[row + cx] : h.left0;
    h.fw1 = start[row + r + 1];
    if (cy + 1 < cs->rows) {
        h.dn0 = start[row + cols + l];
        h.dn1 = start[row + cols + r + 1];
    }
    return h;
}

/* The half step runs agents in batches of up to four (the lanes' groups): their later
 * neighbours as one list of pairs (owner slot, neighbour slot), weighed in one pass. Each
 * agent's runs are read in windows of fixed size, and the list's loops run once per batch:
 * the loops per agent had lengths the processor could not guess (about two mispredicted
 * exits per agent). */

/* The offsets of a 4-bit mask's set bits, ascending (the rest of each row unused), and
 * how many there are (4 bits per mask). */
static const int half_offsets[16][4] __attribute__((aligned(16))) = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
#define HALF_POP4(bits) ((int)(0x4332322132212110ull >> ((bits) * 4) & 15))

/* Appends slots q + the offsets of the set bits of `bits` to nb at m and owner k to own at
 * the same places; returns the new m. Always writes four entries of each. */
static inline int half_append4(int *nb, int *own, int m, int q, int k, int bits) {
#ifdef __SSE2__
    __m128i off = _mm_load_si128((const __m128i *)(const void *)half_offsets[bits]);
    _mm_storeu_si128((__m128i *)(void *)(nb + m), _mm_add_epi32(_mm_set1_epi32(q), off));
    if (own) _mm_storeu_si128((__m128i *)(void *)(own + m), _mm_set1_epi32(k));
#else
    for (int j = 0; j < 4; j++) {
        nb[m + j] = q + half_offsets[bits][j];
        if (own) own[m + j] = k;
    }
#endif
    return m + HALF_POP4(bits);
}

/* The 4-bit mask of the slots q .. q + 3 within r2 of p (they may lie past the run, or in
 * the arrays' padding). */
static inline int half_near4(const sums_src *src, v2 px, v2 py, v2 r2, int q) {
    v2 dx0 = v2_sub(v2_load(src->x + q), px), dy0 = v2_sub(v2_load(src->y + q), py);
    v2 dx1 = v2_sub(v2_load(src->x + q + 2), px), dy1 = v2_sub(v2_load(src->y + q + 2), py);
    int b0 = v2_mbits(v2_le(v2_add(v2_mul(dx0, dx0), v2_mul(dy0, dy0)), r2));
    int b1 = v2_mbits(v2_le(v2_add(v2_mul(dx1, dx1), v2_mul(dy1, dy1)), r2));
    return b0 | b1 << 2;
}

/* half_scan four slots at a time, with no branch on the distances: writes up to four
 * entries past the returned count. */
static inline int half_scan4(const sums_src *src, v2 px, v2 py, v2 r2, int q, int q1, int *nb, int m) {
    for (; q + 4 <= q1; q += 4) m = half_append4(nb, NULL, m, q, 0, half_near4(src, px, py, r2, q));
    return q < q1 ? half_scan(src, px, py, r2, q, q1, nb, m) : m;
}

#ifdef CROWD_AVX
/* The lanes of a run's last one to three slots: from half_tail_lanes + 4 - left. */
static const long long half_tail_lanes[8] __attribute__((aligned(32))) = {-1, -1, -1, -1, 0, 0, 0, 0};

/* half_scan4 testing four slots in one AVX vector: the same operations per lane, so the
 * same slots; a run's last one to three slots in one more test, whose loads leave the
 * slots past the run alone (masked). For AVX code only (where the processor has it). */
__attribute__((target("avx"))) static inline int half_scan4_wide(const sums_src *src, double px, double py,
                                                                 double r2, int q, int q1, int *nb, int m) {
    v4 px4 = v4_sp(px), py4 = v4_sp(py), r24 = v4_sp(r2);
    for (; q + 4 <= q1; q += 4) {
        v4 dx = v4_sub(v4_load(src->x + q), px4), dy = v4_sub(v4_load(src->y + q), py4);
        m = half_append4(nb, NULL, m, q, 0, v4_mbits(v4_le(v4_add(v4_mul(dx, dx), v4_mul(dy, dy)), r24)));
    }
    if (q < q1) {
        int left = q1 - q;
        __m256i lanes = _mm256_loadu_si256((const __m256i *)(const void *)(half_tail_lanes + 4 - left));
        v4 dx = v4_sub(_mm256_maskload_pd(src->x + q, lanes), px4);
        v4 dy = v4_sub(_mm256_maskload_pd(src->y + q, lanes), py4);
        int bits = v4_mbits(v4_le(v4_add(v4_mul(dx, dx), v4_mul(dy, dy)), r24)) & ((1 << left) - 1);
        m = half_append4(nb, NULL, m, q, 0, bits);
    }
    return m;
}
#endif

/* Appends to nb (and k to own) the slots of [q0, q1) within r2 of p, in order: the first
 * `win` (a multiple of 4) with no branch on the distances or on the run's length, the rest
 * (a run longer than usual) by half_scan. Reads up to q0 + win - 1 (the arrays have
 * PACKED_PAD slots of padding). */
static inline PT_ALWAYS_INLINE int half_run(const sums_src *src, v2 px, v2 py, v2 r2, int q0, int q1, int win, int k,
                                            int *nb, int *own, int m) {
    int len = q1 - q0;
    for (int w = 0; w < win; w += 4) {
        int left = len - w;
        left = left < 0 ? 0 : left > 4 ? 4 : left;
        m = half_append4(nb, own, m, q0 + w, k, half_near4(src, px, py, r2, q0 + w) & ((1 << left) - 1));
    }
    if (len > win) {
        int m0 = m;
        m = half_scan(src, px, py, r2, q0 + win, q1, nb, m);
        for (int t = m0; t < m; t++) own[t] = k;
    }
    return m;
}

/* What an owner gives each of its later neighbours: its heading h, +0 where it does not
 * count (adding +0 to a sum that started at +0 changes no bit: such a sum is never -0),
 * whether it counts (ok), its position p (with cohesion), and hc, what it adds to the
 * headings and count as the one 64-bit word they make on a little-endian machine (one add
 * instead of two: headings never carry into count). Read once per owner. */
typedef struct half_side {
    v2 h, p;
    int ok;
    uint64_t hc;
} half_side;

static inline PT_ALWAYS_INLINE half_side half_side_of(const sums_src *src, sums_il il, int a, int align, int cohere) {
    half_side o = {v2_sp(0.0), cohere ? src_pos(src, il, a) : v2_sp(0.0), 0, 0};
    if (align) {
        v2 h = src_head(src, il, a);
        int hok = il.on || src->hok;
        o.ok = hok ? src->hok[a] : heading_counts(h);
        o.h = hok ? h : v2_keep(v2_mall(o.ok), h);
    }
    o.hc = (uint64_t)(unsigned)o.ok | (uint64_t)1 << 32;
    return o;
}

/* The owner's part of a later agent's running sums (totals) at s: term t, heading (when
 * it counts), position; run_take on sums in memory. Without cohesion the positions' sum
 * is never read and is left out (the count still caps the terms). */
static inline PT_ALWAYS_INLINE void half_give(pt__crowd_sums *s, v2 t, const half_side *o, int align, int cohere) {
    v2_store(&s->sep.x, v2_add(v2_load(&s->sep.x), t));
    if (align) v2_store(&s->mean_heading.x, v2_add(v2_load(&s->mean_heading.x), o->h));
    if (cohere) v2_store(&s->centre.x, v2_add(v2_load(&s->centre.x), o->p));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(pt__crowd_sums, count) == offsetof(pt__crowd_sums, headings) + 4, "headings, count");
    uint64_t hc;
    memcpy(&hc, &s->headings, sizeof hc);
    hc += o->hc;
    memcpy(&s->headings, &hc, sizeof hc);
#else
    s->headings += o->ok;
    s->count++;
#endif
}

/* Slot `from`'s part of the running sums (totals) at s: term t, heading (when finite),
 * position; run_take on sums in memory. Without cohesion the positions' sum is never read
 * and is left out (the count still caps the terms). */
static inline PT_ALWAYS_INLINE void half_take(pt__crowd_sums *s, const sums_src *src, int from, v2 t, int align,
                                              int cohere) {
    v2_store(&s->sep.x, v2_add(v2_load(&s->sep.x), t));
    if (align && src->hok) {
        v2_store(&s->mean_heading.x, v2_add(v2_load(&s->mean_heading.x), v2_set(src->hx[from], src->hy[from])));
        s->headings += src->hok[from];
    } else if (align) {
        v2 h = v2_set(src->hx[from], src->hy[from]);
        if (heading_counts(h)) {
            v2_store(&s->mean_heading.x, v2_add(v2_load(&s->mean_heading.x), h));
            s->headings++;
        }
    }
    if (cohere) v2_store(&s->centre.x, v2_add(v2_load(&s->centre.x), v2_set(src->x[from], src->y[from])));
    s->count++;
}

/* Pair t of an owner at slot a with slot q: its term ta and the other side's tb (b + (-t)
 * is b - t, exactly), or the pushes of a coincident pair. */
static inline PT_ALWAYS_INLINE void half_terms(const sums_src *src, const double *tw, const unsigned char *co,
                                               int coincident, int t, int a, int q, v2 *ta, v2 *tb) {
    *ta = v2_load(tw + 2 * t);
    *tb = v2_neg(*ta);
    if (coincident && (co[t >> 1] >> (t & 1) & 1)) {
        *ta = coincident_push(src->id[a], src->id[q]);
        *tb = coincident_push(src->id[q], src->id[a]);
    }
}

/* half_pairs for constant align and cohere. */
static inline PT_ALWAYS_INLINE void half_pairs_of(const sums_src *src0, int align, int cohere, const half_acc *A0,
                                                  int *own, int *nb, int m, int s1) {
    /* Copies: the vector stores may alias anything (__m128d_u), so fields read through
     * the pointers would be read again after each store. */
    const sums_src src1 = *src0, *src = &src1;
    const half_acc A1 = *A0, *A = &A1;
    double tw[2 * HALF_PAIRS + 4];
    unsigned char co[HALF_PAIRS / 2 + 2];
    int coincident = pair_terms(src, own, nb, m, tw, co);
    for (int t = 0; t < m;) {
        int a = own[t];
        pt__crowd_sums *sa = hacc(A, a);
        sums_run r = run_load(sa);
        for (; t < m && own[t] == a; t++) {
            int q = nb[t];
            v2 ta, tb;
            half_terms(src, tw, co, coincident, t, a, q, &ta, &tb);
            if (r.count < PT_CROWD_NB_MAX) run_take(&r, src, q, ta, align, cohere);
            if (q >= s1) continue; /* the chunk that holds q takes this pair itself */
            pt__crowd_sums *sq = hacc(A, q);
            if (sq->count < PT_CROWD_NB_MAX) half_take(sq, src, a, tb, align, cohere);
        }
        run_store(sa, r);
    }
}

/* The pairs of owner a (sums in registers, r) with nb[t0..t1-1]; give: the later agent
 * takes its side too (it lies before the chunk's end); capped: the owner may reach
 * PT_CROWD_NB_MAX, coincident: a pair may be coincident (co is read only then). */
static inline PT_ALWAYS_INLINE void half_owner_run(const sums_src *src, sums_il il, int align, int cohere,
                                                   pt__crowd_sums *acc, sums_run *r, const half_side *o, int a,
                                                   const int *nb, int t0, int t1, const double *tw,
                                                   const unsigned char *co, int coincident, int capped,
                                                   int give) {
    for (int t = t0; t < t1; t++) {
        int q = nb[t];
        v2 ta, tb;
        half_terms(src, tw, co, coincident, t, a, q, &ta, &tb);
        if (!capped || r->count < PT_CROWD_NB_MAX) run_take_il(r, src, il, q, ta, align, cohere);
        if (!give) continue;
        pt__crowd_sums *sq = &acc[q];
        if (sq->count < PT_CROWD_NB_MAX) half_give(sq, tb, o, align, cohere);
    }
}

/* half_pairs (half_owner, for constant align and cohere) for a list of one owner, slot a,
 * with its later neighbours nb[0..m-1] (ascending, m <= HALF_NB_MAX) and their separation
 * terms tw and coincident pairs co (pair_terms_of; coincident: one of them is): the
 * running sums in acc by slot, the positions and headings read as pairs (il). The pairs
 * whose later agent lies past the chunk (q >= s1) come last; the common case, no
 * coincident pair and room for all of them in the owner's count, runs without those
 * tests. */
static inline PT_ALWAYS_INLINE void half_owner_of(const sums_src *src0, sums_il il0, int align, int cohere,
                                                  pt__crowd_sums *acc, int a, const int *nb, int m, int s1,
                                                  const double *tw, const unsigned char *co, int coincident) {
    const sums_src src1 = *src0, *src = &src1; /* see half_pairs_of */
    sums_il il = {il0.xy, il0.hxy, 1};
    pt__crowd_sums *sa = &acc[a];
    sums_run r = run_load(sa);
    half_side o = half_side_of(src, il, a, align, cohere);
    int t1 = m;
    while (t1 > 0 && nb[t1 - 1] >= s1) t1--;
    if (coincident || r.count + m > PT_CROWD_NB_MAX) {
        half_owner_run(src, il, align, cohere, acc, &r, &o, a, nb, 0, t1, tw, co, coincident, 1, 1);
        half_owner_run(src, il, align, cohere, acc, &r, &o, a, nb, t1, m, tw, co, coincident, 1, 0);
    } else {
        half_owner_run(src, il, align, cohere, acc, &r, &o, a, nb, 0, t1, tw, co, 0, 0, 1);
        half_owner_run(src, il, align, cohere, acc, &r, &o, a, nb, t1, m, tw, co, 0, 0, 0);
    }
    run_store(sa, r);
}

/* The pairs (own[t], nb[t]), t < m, of a batch, in order: each pair's separation term goes
 * to its owner and, negated, to the later agent when that one is below s1 (the chunk's
 * end); each gets the other's heading and position; either side stops taking terms at
 * PT_CROWD_NB_MAX. own and nb have room for one more. The list is in ascending owner
 * order, and each owner's pairs in ascending slot order, so every agent receives its terms
 * in the order the per-agent pass gave them. An owner's terms from earlier agents are all
 * in by the time its own pairs come, so it runs them in registers (the later agents take
 * theirs in memory, one pair at a time). A pair is coincident (d < 1e-9) exactly when
 * pair_terms found it so: the same distance, from the same operations. */
static inline void half_pairs(const sums_src *src, int align, int cohere, const half_acc *A, int *own, int *nb, int m,
                              int s1) {
    if (align && cohere) half_pairs_of(src, 1, 1, A, own, nb, m, s1);
    else half_pairs_of(src, align, cohere, A, own, nb, m, s1);
}

/* Slots k .. k + cnt - 1's running sums (totals) become means, as run_means leaves them;
 * two agents share a division. */
static inline void half_means(const half_acc *A, int k, int cnt) {
    v2 one = v2_sp(1.0);
    for (int j = 0; j < cnt; j += 2) {
        pt__crowd_sums *s[2] = {hacc(A, k + j), hacc(A, k + j + (j + 1 < cnt))};
        v2 inv_h = v2_div(one, v2_set((double)s[0]->headings, (double)s[1]->headings));
        v2 inv_c = v2_div(one, v2_set((double)s[0]->count, (double)s[1]->count));
        v2 mh[2], ce[2];
        for (int l = 0; l < 2; l++) {
            mh[l] = v2_keep(v2_mall(s[l]->headings), v2_mul(v2_load(&s[l]->mean_heading.x), v2_sp(v2_lane(inv_h, l))));
            ce[l] = v2_keep(v2_mall(s[l]->count), v2_mul(v2_load(&s[l]->centre.x), v2_sp(v2_lane(inv_c, l))));
        }
        for (int l = 0; l < 2; l++) {
            v2_store(&s[l]->mean_heading.x, mh[l]);
            v2_store(&s[l]->centre.x, ce[l]);
        }
    }
}

#endif
