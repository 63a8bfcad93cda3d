/* SPDX-License-Identifier: Zlib */
/* pt_crowd: one tick of many agents. The fast step works in four parts:
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
 * fetched at random (in cell order, the step waits on them). The sums go out with streaming stores: random whole-line writes
 * that are not read first.
 * Each agent is read and written in its own slot.
 *
 * That is the in-place mode. The packed mode (crowd.h says when) keeps the motion state in
 * flat arrays in cell order, double-buffered, and never touches the 232-byte agent structs
 * during a step: per tick the slots' cells (the step before leaves them), a counting sort of
 * the slots (parallel by ranges of cells), the permutation of the arrays into the other
 * buffer (parallel; agents that changed cell are put back in ascending index within their
 * cell), then one pass in slot order (parallel) that sums each agent's neighbours,
 * combines, integrates and collides it, and writes it into the other buffer. Streaming the 232-byte agent structs, as the in-place mode
 * must, is what this avoids; in slot order, an agent's own state and its neighbours' rows
 * are next to each other. */
#include "crowd_priv.h"
#include "pool.h"
#include "simd.h"

#include <patrol/config.h>
#include <float.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "steer_priv.h"

/* The half neighbour lists (below) run while no cell holds more agents than this, and the
 * cells are this much wider than the view radius (crowd_init makes them so): a neighbour
 * is then never more than one cell away, with room for rounding. */
#define HALF_CELL_MAX 32
#define HALF_CELL_SLACK (1.0 + 1e-6)
/* An agent's later neighbours lie in at most five cells (the rest of its own, the next one,
 * three below), its earlier ones outside a chunk in four. */
#define HALF_NB_MAX (5 * HALF_CELL_MAX)
/* The half step runs agents in batches of up to this many (see half_pairs), with room for
 * their later neighbours. */
#define HALF_BATCH 4
#define HALF_PAIRS (HALF_BATCH * HALF_NB_MAX + 8)
#define PT_ALWAYS_INLINE __attribute__((always_inline))

static void gather_range(pt_crowd *c, int lo, int hi);
static int packed_alloc(pt_crowd *c);
static void groups_free(pt_crowd *c);

/* ---- init -------------------------------------------------------------------------------- */

static void crowd_fini(pt_crowd *c);

static int crowd_init(pt_crowd *c, const pt_steer_env *env, pt_steer_agent *agents, int n, unsigned behaviours,
                      double view_radius, int threads) {
    memset(c, 0, sizeof *c);
    if (n < 0) n = 0;
    c->agents = agents;
    c->n = n;
    c->env = env;
    c->behaviours = behaviours;
    c->view_radius = view_radius > 0 ? view_radius : 2.5;
    c->threads = threads < 1 ? 1 : (threads > PT_CROWD_MAX_THREADS ? PT_CROWD_MAX_THREADS : threads);
    c->target = -1;
    c->min_share = PT_CROWD_MIN_SHARE;
#ifdef CROWD_AVX
    c->wide = __builtin_cpu_supports("avx");
#endif
    size_t cap = (size_t)(n > 0 ? n : 1);
    c->forces = PT_CALLOC(cap, sizeof *c->forces);
    c->nb = PT_MALLOC(sizeof *c->nb * PT_CROWD_NB_MAX);
    c->pos = PT_CALLOC(cap, sizeof *c->pos);
    c->heading = PT_CALLOC(cap, sizeof *c->heading);
    c->cell = PT_CALLOC(cap, sizeof *c->cell);
    c->gsum_mem = PT_MALLOC(sizeof *c->gsum * (cap + 1)); /* aligned to a line below */
    if (c->gsum_mem) c->gsum = (pt__crowd_sums *)(void *)(((uintptr_t)c->gsum_mem + 63) & ~(uintptr_t)63);
    c->sx = PT_MALLOC(sizeof *c->sx * 4 * (cap + 2));
    c->sg = PT_CALLOC(cap + 2, sizeof *c->sg);
    int ok = c->forces && c->nb && c->pos && c->heading && c->cell && c->gsum_mem && c->sx && c->sg;
    if (ok) {
        c->sy = c->sx + (cap + 2);
        c->shx = c->sy + (cap + 2);
        c->shy = c->shx + (cap + 2);
        for (size_t k = 0; k < 4 * (cap + 2); k++) c->sx[k] = NAN; /* padding never matches */
    }
    /* The cell space covers the map when there is one, else the agents' bounding box. */
    double x0 = 0, y0 = 0, w = 1, h = 1;
    if (env && env->map) {
        w = env->map->w;
        h = env->map->h;
    } else if (n > 0) {
        double x1 = 0, y1 = 0;
        int any = 0;
        for (int i = 0; i < n; i++) {
            pt_vec2 p = agents[i].veh.pos;
            if (!pt_v2_is_finite(p)) continue;
            if (!any) { x0 = x1 = p.x; y0 = y1 = p.y; any = 1; }
            x0 = p.x < x0 ? p.x : x0; y0 = p.y < y0 ? p.y : y0;
            x1 = p.x > x1 ? p.x : x1; y1 = p.y > y1 ? p.y : y1;
        }
        x0 -= 8; y0 -= 8;
        w = x1 - x0 + 16;
        h = y1 - y0 + 16;
    }
    if (ok) ok = pt_cellspace_init(&c->cs, x0, y0, w, h, c->view_radius * HALF_CELL_SLACK) == PT_OK;
    if (ok) { /* size the cell space now: no allocation in the steps */
        gather_range(c, 0, n);
        ok = pt_cellspace_rebuild_cells(&c->cs, c->pos, c->cell, n) == PT_OK;
    }
    if (ok) ok = packed_alloc(c);
    if (ok && c->threads > 1) c->pool = pt__crowd_pool_start(c->threads - 1);
    if (!ok) {
        crowd_fini(c);
        return PT_ERR_NOMEM;
    }
    pt_crowd_reload(c);
    return PT_OK;
}

static void crowd_fini(pt_crowd *c) {
    pt_crowd_sync(c); /* the agents go back up to date */
    pt__crowd_pool_stop(c->pool);
    PT_FREE(c->forces);
    PT_FREE(c->nb);
    PT_FREE(c->pos);
    PT_FREE(c->heading);
    PT_FREE(c->cell);
    PT_FREE(c->gsum_mem);
    PT_FREE(c->sx);
    PT_FREE(c->sg);
    groups_free(c);
    PT_FREE(c->packed_mem);
    PT_FREE(c->ring_mem);
    if (c->cs.start) pt_cellspace_fini(&c->cs);
    memset(c, 0, sizeof *c);
}

pt_crowd *pt_crowd_create(const pt_crowd_desc *d) {
    if (!d) return NULL;
    pt_crowd *c = PT_MALLOC(sizeof *c);
    if (!c) return NULL;
    if (crowd_init(c, d->env, d->agents, d->n, d->behaviours, d->view_radius, d->threads) != PT_OK) {
        PT_FREE(c);
        return NULL;
    }
    if (d->min_share > 0) c->min_share = d->min_share;
    c->group = d->group;
    c->alarm_behaviours = d->alarm_behaviours;
    c->alarm_radius = d->alarm_radius;
    if (c->group || c->alarm_behaviours) pt_crowd_reload(c); /* they choose the mode too */
    return c;
}

void pt_crowd_destroy(pt_crowd *c) {
    if (!c) return;
    crowd_fini(c);
    PT_FREE(c);
}

void pt_crowd_set_behaviours(pt_crowd *c, unsigned behaviours) { c->behaviours = behaviours; }
unsigned pt_crowd_behaviours(const pt_crowd *c) { return c->behaviours; }
void pt_crowd_set_target(pt_crowd *c, int target) { c->target = target; }
int pt_crowd_target(const pt_crowd *c) { return c->target; }
void pt_crowd_set_target_point(pt_crowd *c, pt_vec2 point) { c->target_point = point; }
void pt_crowd_set_target_vehicle(pt_crowd *c, const pt_vehicle *v) {
    if (v) c->target_vehicle = *v;
}
void pt_crowd_set_group(pt_crowd *c, const uint32_t *group) { c->group = group; }
void pt_crowd_set_alarm(pt_crowd *c, unsigned behaviours, double radius) {
    c->alarm_behaviours = behaviours;
    c->alarm_radius = radius;
}
void pt_crowd_set_min_share(pt_crowd *c, int min_share) { c->min_share = min_share > 0 ? min_share : PT_CROWD_MIN_SHARE; }
const pt_vec2 *pt_crowd_forces(const pt_crowd *c) { return c->forces; }
int pt_crowd_packed(const pt_crowd *c) { return c->packed; }

/* ---- the fast step ----------------------------------------------------------------------- */

static void gather_range(pt_crowd *c, int lo, int hi) {
    const pt_cellspace *cs = &c->cs;
    for (int i = lo; i < hi; i++) {
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
struct pt__crowd_groups {
    int *ids;                  /* agent of each slot, by group, cell, index */
    int *cell;                 /* its cell */
    int *first;                /* group g's slots are [first[g - gmin], first[g - gmin + 1]) */
    pt__crowd_sums *acc;       /* the running sums of each slot (groups_sums_half; 64-byte
                                  aligned in acc_mem), or NULL */
    void *acc_mem;
    int nfirst;                /* entries allocated in first */
    uint32_t gmin;
    int on;                    /* this step's flocking phases use the order */
};

static void groups_free(pt_crowd *c) {
    if (!c->gm) return;
    PT_FREE(c->gm->ids);
    PT_FREE(c->gm->cell);
    PT_FREE(c->gm->first);
    PT_FREE(c->gm->acc_mem);
    PT_FREE(c->gm);
    c->gm = NULL;
}

/* The slots by group after the cell sort (pt_cellspace_rebuild_cells), on the calling
 * thread. Returns 0 (plain cell order) when the groups' values span too wide a range for a
 * counting sort, when memory is short, or when the cells are narrower than the block a
 * query reads (the runs are looked up in an agent's cell and its eight neighbours). */
static int groups_sort(pt_crowd *c) {
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
            groups_free(c);
            return 0;
        }
        /* without it, agent by agent */
        c->gm->acc_mem = PT_MALLOC(sizeof *c->gm->acc * ((size_t)n + 1));
        if (c->gm->acc_mem)
            c->gm->acc = (pt__crowd_sums *)(void *)(((uintptr_t)c->gm->acc_mem + 63) & ~(uintptr_t)63);
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

/* The compact arrays in cell order (by group first when c->gm->on), split into x and y for
 * the 2-wide distance tests. */
static void soa_range(pt_crowd *c, int lo, int hi, int headings) {
    const int *ids = c->cs.ids;
    const pt_vec2 *pos = c->cs.pos;
    if (c->gm && c->gm->on) {
        ids = c->gm->ids;
        for (int k = lo; k < hi; k++) {
            if (k + 16 < hi) __builtin_prefetch(&c->pos[ids[k + 16]]); /* a random read */
            pt_vec2 p = c->pos[ids[k]];
            c->sx[k] = p.x;
            c->sy[k] = p.y;
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
            c->shx[k] = h.x;
            c->shy[k] = h.y;
        }
}


/* The neighbour sums of the agent at cell-order slot k (agent i) in one pass over its
 * neighbours: the same sums, in the same order, with the same operations as
 * pt_steer_separation, pt_steer_alignment and pt_steer_cohesion over the neighbour list
 * pt_crowd_step_brute builds. Only the compact copies are read; group_forces finishes the
 * forces with the agent's vehicle. */
typedef struct sums_src {
    const double *x, *y, *hx, *hy; /* cell order */
    const int *id;                 /* agent index of each slot */
} sums_src;

static inline void sums_zero(pt__crowd_sums *out) {
    out->sep = out->mean_heading = out->centre = pt_v2(0.0, 0.0);
    out->headings = out->count = 0;
    out->pad[0] = out->pad[1] = 0;
}

/* The separation terms of two pairs, p - q = (tx, ty) in each lane: (p - q) scaled by
 * 1 / (d * max(d, min)) (unit away / distance), stored to tw as x, y, x, y. Returns the
 * lanes where d < 1e-9 (coincident). */
static inline int sep_term2(v2 tx, v2 ty, double *tw) {
    v2 lo = v2_sp(PT__SEP_MIN_DIST), tiny = v2_sp(1e-9), one = v2_sp(1.0);
    v2 d = v2_sqrt(v2_add(v2_mul(tx, tx), v2_mul(ty, ty)));
    v2 w = v2_div(one, v2_mul(d, v2_sel(v2_gt(d, lo), d, lo)));
    tx = v2_mul(tx, w);
    ty = v2_mul(ty, w);
    v2_store(tw, v2_set(v2_lane(tx, 0), v2_lane(ty, 0)));
    v2_store(tw + 2, v2_set(v2_lane(tx, 1), v2_lane(ty, 1)));
    return v2_mbits(v2_lt(d, tiny));
}

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

/* sep_terms for a list of pairs: the term of own[t]'s agent from slot nb[t]. own and nb
 * have room for one more. */
static inline int pair_terms(const sums_src *src, int *own, int *nb, int m, double *tw) {
    int coincident = 0;
    if (m) {
        nb[m] = nb[m - 1];
        own[m] = own[m - 1];
    }
    for (int t = 0; t < m; t += 2) {
        int a0 = own[t], a1 = own[t + 1], q0 = nb[t], q1 = nb[t + 1];
        v2 tx = v2_sub(v2_set(src->x[a0], src->x[a1]), v2_set(src->x[q0], src->x[q1]));
        v2 ty = v2_sub(v2_set(src->y[a0], src->y[a1]), v2_set(src->y[q0], src->y[q1]));
        coincident |= sep_term2(tx, ty, tw + 2 * t);
    }
    return coincident;
}

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
 * position. */
static inline void run_take(sums_run *r, const sums_src *src, int q, v2 t, int align) {
    r->sep = v2_add(r->sep, t);
    if (align) {
        v2 h = v2_set(src->hx[q], src->hy[q]);
        if (heading_counts(h)) {
            r->head = v2_add(r->head, h);
            r->headings++;
        }
    }
    r->centre = v2_add(r->centre, v2_set(src->x[q], src->y[q]));
    r->count++;
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
        run_take(r, src, q, ta, align);
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
    R->g0 = g0;
    R->cell = cell;
    R->cx = cell % cols;
    R->cy = cell / cols;
    for (int dr = 0; dr < 3; dr++) {
        int row = R->cy - 1 + dr;
        for (int j = 0; j < 4; j++) {
            int col = R->cx - 1 + j;
            col = col < 0 ? 0 : col > cols ? cols : col;
            R->b[dr][j] = row < 0 ? g0 : row >= rows ? g1 : groups_lower_bound(cells, g0, g1, row * cols + col);
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

static void groups_sums_half(pt_crowd *c, const sums_src *src, groups_runs *R, int g0, int g1, int k0, int k1,
                             int align);
static int groups_sparse(const pt_crowd *c, int g0, int g1);

/* The sums of the slots [lo, hi) in group order, group by group: each pair weighed once
 * (groups_sums_half) in a group no cell of which holds more than HALF_CELL_MAX of its
 * agents, else agent by agent. */
static void groups_sums_range(pt_crowd *c, const sums_src *src, int lo, int hi, int align) {
    const struct pt__crowd_groups *gm = c->gm;
    groups_runs R = {.g0 = -1, .cell = -1};
    for (int k = lo; k < hi;) {
        int gi = (int)(c->sg[k] - gm->gmin), g0 = gm->first[gi], g1 = gm->first[gi + 1], k1 = g1 < hi ? g1 : hi;
        if (gm->acc && groups_sparse(c, g0, g1)) groups_sums_half(c, src, &R, g0, g1, k, k1, align);
        else groups_sums_full(c, src, &R, g0, g1, k, k1, align);
        k = k1;
    }
}

/* The neighbour sums of every agent, in cell order (neighbour rows stay in cache from one
 * agent to the next), stored by agent index for the step. */
static void sums_range(pt_crowd *c, int lo, int hi) {
    int on = c->gm && c->gm->on;
    const int *ids = on ? c->gm->ids : c->cs.ids;
    int align = (c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0;
    sums_src src = {c->sx, c->sy, c->shx, c->shy, ids};
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

/* The context every agent of a tick shares (environment, tick length, the target's point);
 * returns the target's vehicle as the tick started, or NULL for c->target_point. Only
 * agent1 changes from agent to agent. */
static const pt_vehicle *tick_ctx(const pt_crowd *c, double dt, pt_steer_ctx *ctx) {
    const pt_vehicle *tv =
        (c->target >= 0 && c->target < c->n) || c->target == PT_CROWD_TARGET_VEHICLE ? &c->target_veh : NULL;
    memset(ctx, 0, sizeof *ctx);
    ctx->env = c->env;
    ctx->dt = dt;
    ctx->target = tv ? tv->pos : c->target_point;
    return tv;
}

/* Forces, integration and collision in index order: the agent structs (the bulk of the
 * memory) and the sums stream through in order, which the hardware prefetches well. */
static void step_range(pt_crowd *c, int lo, int hi, double dt) {
    unsigned beh = c->behaviours;
    int group = (beh & PT_BEH_FLOCKING) != 0;
    pt_steer_ctx ctx;
    const pt_vehicle *tv = tick_ctx(c, dt, &ctx);
    for (int i = lo, done = lo; i < hi; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_vec2 g[3];
        if (group) {
            group_forces(&c->gsum[i], &a->veh, beh, g);
        }
        ctx.agent1 = tv && i != c->target ? tv : NULL;
        a->behaviours = pt__crowd_agent_behaviours(c, ctx.target, a->veh.pos);
        pt_vec2 f = pt__steer_calculate_group(a, &ctx, group ? g : NULL);
        c->forces[i] = f;
        pt_steer_agent_update(a, &ctx, f, dt);
        if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
        if (c->after_step && (i + 1 - done == 64 || i + 1 == hi)) { /* a few lines of agents */
            c->after_step(c->after_arg, done, i + 1);
            done = i + 1;
        }
    }
}

static void packed_cells_range(pt_crowd *c, int lo, int hi);
static int packed_sort_share(pt_crowd *c, int share, int shares);
static void packed_permute_range(pt_crowd *c, int lo, int hi);
static void packed_step(pt_crowd *c, int lo, int hi, double dt, int share);

void pt__crowd_run_share(pt_crowd *c, int phase, int share, int shares, double dt) {
    int lo = (int)((long long)c->n * share / shares), hi = (int)((long long)c->n * (share + 1) / shares);
    switch (phase) {
    case PHASE_GATHER: gather_range(c, lo, hi); break;
    case PHASE_SOA: soa_range(c, lo, hi, (c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0); break;
    case PHASE_FORCES: sums_range(c, lo, hi); break;
    case PHASE_PACKED_CELLS: packed_cells_range(c, lo, hi); break;
    case PHASE_PACKED_SORT: c->pool->most[share] = packed_sort_share(c, share, shares); break;
    case PHASE_PACKED_PERMUTE: packed_permute_range(c, lo, hi); break;
    case PHASE_PACKED_STEP:
        if (shares == 1) {
            packed_step(c, lo, hi, dt, share);
            break;
        }
        /* Chunks handed out as threads come for them, each 1 / shares of the slots left
         * and at least pool->chunk: a flock clumps, so equal shares of slots are not equal
         * work, and small last chunks leave little for one thread to finish alone. Each
         * chunk re-weighs the pairs that cross into its first row of cells, so few chunks
         * are cheaper. Each slot's result does not depend on who computes it. */
        for (int k = atomic_load_explicit(&c->pool->next, memory_order_relaxed); k < c->n;) {
            int size = ((c->n - k) / shares + 3) & ~3;
            if (size < c->pool->chunk) size = c->pool->chunk;
            if (!atomic_compare_exchange_weak_explicit(&c->pool->next, &k, k + size, memory_order_relaxed,
                                                       memory_order_relaxed))
                continue; /* k is the next chunk's start now */
            packed_step(c, k, k + size < c->n ? k + size : c->n, dt, share);
            k = atomic_load_explicit(&c->pool->next, memory_order_relaxed);
        }
        break;
    default: step_range(c, lo, hi, dt); break;
    }
}

static void mode_choose(pt_crowd *c);
static int packed_wanted(const pt_crowd *c);
static void packed_target(pt_crowd *c);
static void packed_sort(pt_crowd *c, double dt);

/* One tick, phase by phase; pt__crowd_dispatch runs a phase over the threads and returns
 * when it is done, so each phase sees the whole of the one before. */
void pt_crowd_step(pt_crowd *c, double dt) {
    if (c->n <= 0) return;
    /* Mode: packed or in place, for these behaviours and agents. */
    if (c->behaviours != c->mode_beh || (c->packed && !packed_wanted(c))) mode_choose(c);
    if (c->packed) {
        /* Target: its state as the tick starts. */
        packed_target(c);
        /* Cells: each slot's, unless the last step wrote them. */
        if (!c->cells_ok) pt__crowd_dispatch(c, PHASE_PACKED_CELLS, dt);
        /* Sort: the slots counted by cell. */
        packed_sort(c, dt);
        /* Permute: the state into the other buffer, in the new order. */
        pt__crowd_dispatch(c, PHASE_PACKED_PERMUTE, dt);
        c->cur ^= 1;
        /* Step: sums, forces, motion and collision, written back into the first buffer. */
        pt__crowd_dispatch(c, PHASE_PACKED_STEP, dt);
        c->cur ^= 1;
        c->vcur ^= 1;
        c->cells_ok = 1; /* the step wrote each slot's new cell */
        c->stepped = 1;
        return;
    }
    /* Target: its vehicle as the tick starts. */
    if (c->target >= 0 && c->target < c->n) c->target_veh = c->agents[c->target].veh;
    if (c->target == PT_CROWD_TARGET_VEHICLE) c->target_veh = c->target_vehicle;
    /* Gather: positions, headings and cells by agent index. */
    pt__crowd_dispatch(c, PHASE_GATHER, dt);
    /* Sort: counting sort by cell (cannot fail: the cell space was sized for n). */
    if (pt_cellspace_rebuild_cells(&c->cs, c->pos, c->cell, c->n) != PT_OK) return;
    if (c->behaviours & PT_BEH_FLOCKING) {
        /* Groups: the slots by group, then cell, when flocks read only their own group. */
        int on = c->group && groups_sort(c);
        if (c->gm) c->gm->on = on;
        /* Arrays: positions and headings in cell order. */
        pt__crowd_dispatch(c, PHASE_SOA, dt);
        /* Sums: each agent's neighbour sums. */
        pt__crowd_dispatch(c, PHASE_FORCES, dt);
    }
    /* Step: forces, motion and collision in agent order. */
    pt__crowd_dispatch(c, PHASE_STEP, dt);
}

/* ---- two or four agents at once (the packed mode, plain flocking) ------------------------ *
 * The end of the group behaviours, the combiner and the integrator are one chain of about
 * fifteen dependent square roots and divisions per agent: one agent at a time leaves the
 * core waiting on it. Two (SSE2) or four (AVX) agents run it together, one per SIMD lane:
 * lanes.h. */

/* The pair step: lanes.h with two lanes. */
#define LANES 2
#define V v2
#define M m2
#define P(x) v2_##x
#define LN(x) x##_2
#include "lanes.h"
#undef LANES
#undef V
#undef M
#undef P
#undef LN

/* Four lanes with AVX, where the processor has it (crowd_init asks): the same step, half
 * as many chains of square roots and divisions per agent. */
#ifdef CROWD_AVX
#pragma GCC push_options
#pragma GCC target("avx")
#define LANES 4
#define V v4
#define M m4
#define P(x) v4_##x
#define LN(x) x##_4
#include "lanes.h"
#undef LANES
#undef V
#undef M
#undef P
#undef LN
#pragma GCC pop_options
#endif

/* Whether agents can go two or four at a time: the shared constants allow it (the weighted
 * or prioritised combiner, no smoothing, no facing, a positive finite max_force, a tick that
 * integrates). Per group, the state must be finite too (the steps check). Plain flocking
 * has its own step (step_2, step_4); other behaviours the stack step (stack_2, stack_4). */
static int lanes_ok(const pt_crowd *c, double dt) {
    const pt_vehicle *v = &c->tmpl.veh;
    return dt > 0 && isfinite(dt) && !(v->smooth_time > 0) && v->max_force > 0 && v->max_force <= DBL_MAX &&
           !(c->behaviours & PT_BEH_BIT(PT_BEH_FACE));
}

/* ---- the packed mode ---------------------------------------------------------------------- */

/* Behaviours that keep state in the agent (wander, paths, the offset slot) or draw from its
 * RNG (the dithered combiner) need the agents' own structs: the in-place mode. */
#define PACKED_STATEFUL                                                                          \
    (PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_FOLLOW_PATH) | PT_BEH_BIT(PT_BEH_FOLLOW_CORRIDOR) | \
     PT_BEH_BIT(PT_BEH_OFFSET_PURSUIT))

/* Slots of NaN padding after each array of the packed state: the half step reads windows of
 * up to 8 slots from any slot up to n (half_run). */
#define PACKED_PAD 8

static int packed_alloc(pt_crowd *c) {
    size_t n = (size_t)(c->n > 0 ? c->n : 1) + PACKED_PAD;
    size_t dbl = sizeof(double) * n * 16, ints = sizeof(int) * n * 4, chars = n * 2;
    char *m = PT_MALLOC(dbl + ints + chars);
    if (!m) return 0;
    c->packed_mem = m;
    double *d = (double *)(void *)m;
    int *in = (int *)(void *)(m + dbl);
    signed char *ch = (signed char *)(m + dbl + ints);
    for (size_t k = 0; k < n * 16; k++) d[k] = NAN; /* padding never matches */
    for (int b = 0; b < 2; b++) {
        pt__crowd_state *st = &c->st[b];
        double **arr[8] = {&st->x, &st->y, &st->vx, &st->vy, &st->hx, &st->hy, &st->shx, &st->shy};
        for (int a = 0; a < 8; a++) *arr[a] = d + n * (size_t)(b * 8 + a);
        st->id = in + n * (size_t)b;
        st->turn = ch + n * (size_t)b;
    }
    c->perm = in + n * 2;
    c->lcell = in + n * 3;
    return 1;
}

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The agents share the params pointer and every vehicle constant, and each side is
 * perp(heading) (the packed mode keeps no side of its own). */
static int agents_uniform(const pt_crowd *c) {
    if (c->n <= 0 || !c->packed_mem) return 0;
    const pt_steer_agent *a0 = &c->agents[0];
    for (int i = 0; i < c->n; i++) {
        const pt_steer_agent *a = &c->agents[i];
        const pt_vehicle *v = &a->veh, *v0 = &a0->veh;
        pt_vec2 side = pt_v2_perp(v->heading);
        if (a->params != a0->params || !same_double(v->mass, v0->mass) ||
            !same_double(v->max_speed, v0->max_speed) || !same_double(v->max_force, v0->max_force) ||
            !same_double(v->max_turn_rate, v0->max_turn_rate) || !same_double(v->radius, v0->radius) ||
            !same_double(v->smooth_time, v0->smooth_time) || !same_double(v->side.x, side.x) ||
            !same_double(v->side.y, side.y))
            return 0;
    }
    return 1;
}

static int packed_wanted(const pt_crowd *c) {
    if (!c->uniform || (c->behaviours & PACKED_STATEFUL) || c->group || c->alarm_behaviours) return 0;
    pt_combiner cb = pt__params_or_default(c->tmpl.params)->combiner;
    return cb != PT_COMBINE_DITHERED;
}

static int smoothing(const pt_crowd *c) { return c->tmpl.veh.smooth_time > 0; }

/* Slot k's motion into v, whose constants are the shared ones; its velocity, smooth heading
 * and turn_dir are at index vk (k, except during a step: see packed_now). */
static inline void slot_vehicle(const pt__crowd_state *s, int k, int vk, int smooth_on, pt_vehicle *v) {
    v->pos = pt_v2(s->x[k], s->y[k]);
    v->vel = pt_v2(s->vx[vk], s->vy[vk]);
    v->heading = pt_v2(s->hx[k], s->hy[k]);
    v->side = pt_v2_perp(v->heading);
    v->smooth_heading = smooth_on ? pt_v2(s->shx[vk], s->shy[vk]) : v->heading;
    v->turn_dir = s->turn[vk];
}

/* The motion state as it stands: positions, headings and ids in st[cur], the rest (what
 * only the agent itself reads) in st[vcur]. A step permutes only the first part into the
 * new cell order and reads the rest through the permutation (a third less to copy). */
static pt__crowd_state packed_now(const pt_crowd *c, int pcur, int vcur) {
    pt__crowd_state s = c->st[pcur];
    const pt__crowd_state *v = &c->st[vcur];
    s.vx = v->vx;
    s.vy = v->vy;
    s.shx = v->shx;
    s.shy = v->shy;
    s.turn = v->turn;
    return s;
}

/* agents -> packed state, slot k = agent k (already in ascending index within any cell). */
void pt__crowd_packed_load(pt_crowd *c) {
    pt__crowd_state *st = &c->st[c->cur];
    for (int i = 0; i < c->n; i++) {
        const pt_vehicle *v = &c->agents[i].veh;
        st->x[i] = v->pos.x;
        st->y[i] = v->pos.y;
        st->vx[i] = v->vel.x;
        st->vy[i] = v->vel.y;
        st->hx[i] = v->heading.x;
        st->hy[i] = v->heading.y;
        st->shx[i] = v->smooth_heading.x;
        st->shy[i] = v->smooth_heading.y;
        st->id[i] = i;
        st->turn[i] = (signed char)(v->turn_dir > 0 ? 1 : v->turn_dir < 0 ? -1 : 0);
    }
    c->vcur = c->cur;
    c->cells_ok = 0;
    c->stepped = 0;
}

void pt_crowd_sync(pt_crowd *c) {
    if (!c->packed) return;
    pt__crowd_state now = packed_now(c, c->cur, c->vcur);
    int smooth_on = smoothing(c);
    for (int k = 0; k < c->n; k++) {
        pt_steer_agent *a = &c->agents[now.id[k]];
        pt_vec2 smooth = a->veh.smooth_heading;
        slot_vehicle(&now, k, k, smooth_on, &a->veh);
        if (c->stepped) a->behaviours = c->mode_beh;
        else a->veh.smooth_heading = smooth; /* not stepped yet: the caller's own */
    }
}

/* Picks the mode for the current behaviours; moving between modes hands the state over. */
static void mode_choose(pt_crowd *c) {
    int want = packed_wanted(c);
    if (c->packed && !want) {
        pt_crowd_sync(c);
        c->packed = 0;
    } else if (!c->packed && want) {
        pt__crowd_packed_load(c);
        c->packed = 1;
    }
    c->mode_beh = c->behaviours;
}

void pt_crowd_reload(pt_crowd *c) {
    c->packed = 0; /* the agents are the truth now */
    c->uniform = agents_uniform(c);
    if (c->uniform) {
        c->tmpl = c->agents[0];
        memset(&c->tmpl.wander, 0, sizeof c->tmpl.wander);
        memset(&c->tmpl.path, 0, sizeof c->tmpl.path);
    }
    mode_choose(c);
}

/* Puts the slots of perm[lo, hi) (whole cells) in ascending agent index within each cell.
 * perm is already in ascending cell order, so a slot is out of place exactly when the
 * (cell, index) key before it is larger: one comparison, rarely true (only agents that came
 * from another cell move), where testing the cell first would be a branch that depends on
 * the data. */
static inline long long cell_key(const int *cell, const int *id, int s) {
    return (long long)cell[s] << 32 | (unsigned)id[s];
}

static void packed_order_cells(pt_crowd *c, int lo, int hi) {
    int *perm = c->perm;
    const int *cell = c->lcell, *id = c->st[c->cur].id;
    for (int k = lo + 1; k < hi; k++) {
        int s = perm[k];
        long long key = cell_key(cell, id, s);
        if (cell_key(cell, id, perm[k - 1]) <= key) continue;
        int j = k;
        do {
            perm[j] = perm[j - 1];
            j--;
        } while (j > lo && cell_key(cell, id, perm[j - 1]) > key);
        perm[j] = s;
    }
}

/* The first slot of the first cell that starts at or after slot k: a binary search of the
 * cells' offsets (the parallel permutation splits at whole cells). */
static int packed_first_cell_slot(const pt_crowd *c, int k) {
    const int *start = c->cs.start;
    int lo = 0, hi = c->cs.cols * c->cs.rows; /* start[hi] = n >= k */
    if (k >= c->n) return c->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (start[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return start[lo];
}

/* The slots' cells, when the last step did not leave them (c->cells_ok). */
static void packed_cells_range(pt_crowd *c, int lo, int hi) {
    const pt__crowd_state *st = &c->st[c->cur];
    for (int k = lo; k < hi; k++) c->lcell[k] = pt_cellspace_cell(&c->cs, pt_v2(st->x[k], st->y[k]));
}

/* Whether no cell holds more than HALF_CELL_MAX agents and the half lists may run. */
static void half_choose(pt_crowd *c, int most) {
    c->half = most <= HALF_CELL_MAX && c->cs.cell >= c->view_radius * HALF_CELL_SLACK &&
              (c->behaviours & PT_BEH_FLOCKING);
}

/* The counting sort of the slots by cell, for share `share`'s range of cells [q0, q1) (of
 * the cells packed_sort says to rewrite, [sort_a, sort_b)): the slots of those cells go to
 * perm in ascending slot order within each cell, and cs.start gets the cells' offsets. Each
 * share reads every slot's cell, so it knows how many slots come before its range without
 * waiting for the others; a share clears, counts and sums only its own cells (the grid can
 * be several times larger than the crowd, and each pass over it is a stream through
 * memory). Returns the most slots in one of its cells. */
static int packed_sort_share(pt_crowd *c, int share, int shares) {
    long long a = c->sort_a, span_all = (long long)c->sort_b - a;
    int q0 = (int)(a + span_all * share / shares), q1 = (int)(a + span_all * (share + 1) / shares), n = c->n;
    int *start = c->cs.start, *perm = c->perm, before = 0, most = 0;
    const int *cell = c->lcell;
    unsigned span = (unsigned)(q1 - q0); /* q in [q0, q1): (unsigned)(q - q0) < span */
    memset(start + q0, 0, sizeof *start * (size_t)span);
    if (shares == 1)
        for (int k = 0; k < n; k++) start[cell[k]]++;
    else
        for (int k = 0; k < n; k++) {
            int q = cell[k];
            before += q < q0;
            if ((unsigned)(q - q0) < span) start[q]++;
        }
    /* each cell's end, then (the scatter counts back down from it, last slot first) its
     * first slot */
    for (int q = q0, at = before; q < q1; q++) {
        most = start[q] > most ? start[q] : most;
        at += start[q];
        start[q] = at;
    }
    if (shares == 1)
        for (int k = n - 1; k >= 0; k--) perm[--start[cell[k]]] = k;
    else
        for (int k = n - 1; k >= 0; k--) {
            int q = cell[k];
            if ((unsigned)(q - q0) < span) perm[--start[q]] = k;
        }
    return most;
}

/* The half step's running sums are live from the batch being run to the end of the row of
 * cells below it (the agents before are done, the ones after that receive nothing yet):
 * at most two rows' slots and a batch. Each thread keeps them in a ring that size instead
 * of in gsum (n sums of a line each): the ring stays in cache, where gsum's
 * lines had to be fetched again to be zeroed. The rings grow when a step needs more (c->half
 * only); without memory the step uses gsum (ring_mask 0). */
static void ring_size(pt_crowd *c) {
    const pt_cellspace *cs = &c->cs;
    int cols = cs->cols, rows = cs->rows, span = 0;
    /* rows that end before the crowd's first cell or start after its last hold none */
    int r0 = cs->lo / cols > 0 ? cs->lo / cols - 1 : 0, r1 = (cs->hi + cols - 1) / cols;
    for (int r = r0; r < r1 && r < rows; r++) {
        int two = cs->start[(r + 2 < rows ? r + 2 : rows) * cols] - cs->start[r * cols];
        span = two > span ? two : span;
    }
    long long need = 8;
    while (need < (long long)span + HALF_BATCH) need <<= 1;
    c->ring_mask = 0;
    if (c->no_ring) return;
    if (need > c->ring_cap) {
        PT_FREE(c->ring_mem);
        c->ring_cap = 0;
        c->ring_mem = need <= INT_MAX / 2 ? PT_MALLOC(sizeof(pt__crowd_sums) * ((size_t)need * (size_t)c->threads + 1)) : NULL;
        if (!c->ring_mem) return;
        c->ring_cap = (int)need;
    }
    c->ring_mask = (unsigned)need - 1u;
}

/* Thread `share`'s ring (64-byte aligned in ring_mem). */
static pt__crowd_sums *ring_of(const pt_crowd *c, int share) {
    pt__crowd_sums *base = (pt__crowd_sums *)(void *)(((uintptr_t)c->ring_mem + 63) & ~(uintptr_t)63);
    return base + (size_t)share * (size_t)c->ring_cap;
}

/* The sort of the slots by cell (parallel by ranges of cells when helpers take part); the
 * permutation puts each cell's slots in ascending agent index (agents that came from
 * different cells arrive out of order; a cell holds a handful, so insertion is cheap). */
static void packed_sort(pt_crowd *c, double dt) {
    pt_cellspace *cs = &c->cs;
    int shares = pt__crowd_dispatch_shares_n(c, c->n), most = 0;
    /* Only the cells from the first occupied one to the last (this step's and the last
     * one's) are rewritten: a small crowd on a big map fills a few of its rows, and
     * clearing and summing the whole grid would cost more than the crowd's own step. */
    int lo = INT_MAX, hi = 0;
    for (int k = 0; k < c->n; k++) {
        lo = c->lcell[k] < lo ? c->lcell[k] : lo;
        hi = c->lcell[k] >= hi ? c->lcell[k] + 1 : hi;
    }
    pt__cellspace_span(cs, lo, hi, c->n, &c->sort_a, &c->sort_b);
    if (shares > 1) {
        pt__crowd_dispatch(c, PHASE_PACKED_SORT, dt);
        for (int sh = 0; sh < shares; sh++) most = c->pool->most[sh] > most ? c->pool->most[sh] : most;
    } else
        most = packed_sort_share(c, 0, 1);
    cs->start[cs->cols * cs->rows] = c->n;
    cs->n = c->n;
    half_choose(c, most);
    if (c->half) ring_size(c);
}

static void packed_permute_range(pt_crowd *c, int lo, int hi) {
    /* whole cells: those whose first slot is in [lo, hi) get their order fixed here */
    lo = packed_first_cell_slot(c, lo);
    hi = packed_first_cell_slot(c, hi);
    packed_order_cells(c, lo, hi);
    const pt__crowd_state *s = &c->st[c->cur];
    pt__crowd_state *o = &c->st[c->cur ^ 1];
    const int *perm = c->perm;
    for (int k = lo; k < hi; k++) {
        int q = perm[k];
        o->x[k] = s->x[q];
        o->y[k] = s->y[q];
        o->hx[k] = s->hx[q];
        o->hy[k] = s->hy[q];
        o->id[k] = s->id[q];
        /* the target's slot for packed_target, here and after the step (it keeps the slots) */
        if (o->id[k] == c->target) c->target_slot = k;
    }
}


/* ---- the packed step ----------------------------------------------------------------------- */

/* What every slot of a step shares. */
typedef struct packed_run {
    const pt_crowd *c;
    pt__crowd_state sv, ov;    /* read, written */
    const pt__crowd_state *s;
    pt__crowd_state *o;
    const int *vmap;           /* where slot k's velocity, smooth heading and turn_dir are in s */
    sums_src src;
    pt_steer_ctx ctx;
    const pt_vehicle *tv;
    pt_steer_agent a;          /* the shared constants; the motion of the slot being run */
    /* the stack step: the lanes' agents (shared constants, each its slot's motion), their
     * agent1 and group forces; the behaviours and weights */
    pt_steer_agent la[4];
    const pt_vehicle *a1[4];
    pt_vec2 g4[4][3];
    unsigned on;
    const double *weight;
    consts_2 pc;
#ifdef CROWD_AVX
    consts_4 pc4;              /* when c->wide */
#endif
    int pairs, stack, lanes, group, align, cohere, smooth_on, wide;
    double dt;
} packed_run;

static void packed_run_init(packed_run *L, pt_crowd *c, double dt) {
    L->c = c;
    /* positions and headings in the new order; the rest read through the permutation */
    L->sv = packed_now(c, c->cur, c->vcur);
    L->ov = packed_now(c, c->cur ^ 1, c->vcur ^ 1);
    L->s = &L->sv;
    L->o = &L->ov;
    L->vmap = c->perm;
    unsigned beh = c->behaviours;
    L->group = (beh & PT_BEH_FLOCKING) != 0;
    L->align = (beh & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0;
    L->cohere = (beh & PT_BEH_BIT(PT_BEH_COHESION)) != 0;
    L->smooth_on = smoothing(c);
    L->tv = tick_ctx(c, dt, &L->ctx);
    L->a = c->tmpl;
    L->a.behaviours = beh;
    L->src = (sums_src){L->s->x, L->s->y, L->s->hx, L->s->hy, L->s->id};
    L->lanes = lanes_ok(c, dt);
    L->pairs = L->lanes && beh == PT_BEH_FLOCKING;
    L->stack = L->lanes && !L->pairs;
    consts_init_2(&L->pc, &c->tmpl, L->lanes ? dt : 1.0 / 60.0); /* used only with lanes */
    if (L->stack) {
        for (int l = 0; l < 4; l++) L->la[l] = L->a;
        L->on = beh & (PT_BEH_BIT(PT_BEH_COUNT) - 1u);
        L->weight = pt__params_or_default(c->tmpl.params)->weight;
    }
    L->wide = 0;
#ifdef CROWD_AVX
    L->wide = L->lanes && c->wide;
    if (L->wide) consts_init_4(&L->pc4, &c->tmpl, dt);
#endif
    L->dt = dt;
}

/* Slots k .. k + count - 1 (count 1, 2, or 4 with L->wide), from their neighbour sums:
 * forces, combiner, integration, collision, into the other buffer. Plain flocking goes two
 * or four at a time. */
static void packed_run_slots_step(packed_run *L, int k, int count, const pt__crowd_sums *sums);

/* packed_run_slots_step, then the slots' cells for the next step's sort (the positions are
 * in cache now; a separate pass would read them again). */
static void packed_run_slots(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    packed_run_slots_step(L, k, count, sums);
    const pt_cellspace *cs = &L->c->cs;
    for (int l = 0; l < count; l++) L->c->lcell[k + l] = pt_cellspace_cell(cs, pt_v2(L->o->x[k + l], L->o->y[k + l]));
}

/* The stack step for slots k .. k + count - 1 (count 2, or 4 with L->wide): the lanes'
 * agents and group forces, then stack_2 or stack_4. */
static int stack_lanes(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    for (int l = 0; l < count; l++) {
        int q = k + l;
        pt_vehicle *v = &L->la[l].veh;
        slot_vehicle(L->s, q, L->vmap[q], 0, v);
        L->a1[l] = L->tv && L->s->id[q] != L->c->target ? L->tv : NULL;
        if (L->group) group_forces(&sums[l], v, L->on, L->g4[l]);
    }
    pt_vec2(*g)[3] = L->group ? L->g4 : NULL;
#ifdef CROWD_AVX
    if (count == 4) return stack_4(L->c, L->s, L->o, k, L->vmap, L->la, &L->ctx, L->a1, g, L->on, L->weight, &L->pc4);
#endif
    return stack_2(L->c, L->s, L->o, k, L->vmap, L->la, &L->ctx, L->a1, g, L->on, L->weight, &L->pc);
}

static void packed_run_slots_step(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    int done = 0;
    if (L->stack && count >= 2) done = stack_lanes(L, k, count, sums);
#ifdef CROWD_AVX
    if (count == 4 && L->pairs) done = step_4(L->c, L->s, L->o, k, L->vmap, sums, &L->pc4);
#endif
    if (count == 2 && L->pairs) done = step_2(L->c, L->s, L->o, k, L->vmap, sums, &L->pc);
    if (done) return;
    /* one agent, or a group the lanes left (non-finite state, ...): the scalar path */
    const pt__crowd_state *s = L->s;
    pt__crowd_state *o = L->o;
    pt_vehicle *v = &L->a.veh;
    for (int l = 0; l < count; l++) {
        int q = k + l, i = s->id[q];
        slot_vehicle(s, q, L->vmap[q], L->smooth_on, v);
        pt_vec2 g[3];
        if (L->group) group_forces(&sums[l], v, L->a.behaviours, g);
        L->ctx.agent1 = L->tv && i != L->c->target ? L->tv : NULL;
        pt_vec2 f = pt__steer_calculate_inline(&L->a, &L->ctx, L->group ? g : NULL);
        pt__steer_agent_update_inline(&L->a, &L->ctx, f, L->dt);
        if (L->c->env) pt_steer_collide(L->c->env, &v->pos, &v->vel, v->radius);
        o->x[q] = v->pos.x;
        o->y[q] = v->pos.y;
        o->vx[q] = v->vel.x;
        o->vy[q] = v->vel.y;
        o->hx[q] = v->heading.x;
        o->hy[q] = v->heading.y;
        if (L->smooth_on) {
            o->shx[q] = v->smooth_heading.x;
            o->shy[q] = v->smooth_heading.y;
        }
        o->id[q] = i;
        o->turn[q] = (signed char)v->turn_dir;
    }
}

/* One tick of the agents in slots [lo, hi), each agent's neighbours scanned from its own
 * block: reads the current buffer only, writes the other one. Each agent is the shared
 * constants (tmpl) with its own motion state, run through the same inline code as
 * pt_steer_calculate and pt_steer_agent_update. */
static void packed_step_range(pt_crowd *c, int lo, int hi, double dt) {
    packed_run L;
    packed_run_init(&L, c, dt);
    pt__crowd_sums sums[4];
    int step = L.wide ? 4 : L.lanes ? 2 : 1;
    for (int k = lo; k < hi; k += step) {
        while (k + step > hi) step >>= 1;
        for (int l = 0; l < step; l++)
            if (L.group) group_sums(c, &L.src, NULL, k + l, L.s->id[k + l], L.align, &sums[l]);
        packed_run_slots(&L, k, step, sums);
    }
}

/* ---- half neighbour lists ----------------------------------------------------------------- *
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

/* The first cell whose agents a chunk starting at slot k runs: a row of cells belongs to
 * the chunk that holds its first agent. Whole rows: only the chunk's first row then has
 * neighbours before the chunk (half_prepass). */
static int half_first_cell(const pt_crowd *c, const pt__crowd_state *s, int k) {
    const pt_cellspace *cs = &c->cs;
    int ncells = cs->cols * cs->rows;
    if (k <= 0) return 0;
    if (k >= c->n) return ncells;
    int cell = pt_cellspace_cell(cs, pt_v2(s->x[k], s->y[k]));
    if (cs->start[cell] < k) cell++;
    if (cell % cs->cols) cell += cs->cols - cell % cs->cols;
    return cell < ncells ? cell : ncells;
}

/* The terms a chunk's agents take from neighbours before the chunk's first slot s0 (in the
 * row above): only the chunk's first row of cells has any. Its running sums are zeroed. */
static void half_prepass(const packed_run *L, const half_acc *A, int c0, int c1) {
    const pt_crowd *c = L->c;
    const pt_cellspace *cs = &c->cs;
    const sums_src *src = &L->src;
    int cols = cs->cols, s0 = cs->start[c0], last = (c0 / cols + 1) * cols;
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_NB_MAX + 1];
    for (int cell = c0; cell < c1 && cell < last; cell++) {
        int a0 = cs->start[cell], a1 = cs->start[cell + 1];
        if (a0 == a1) continue;
        half_cell h = half_runs(cs, cell % cols, cell / cols);
        int up1 = h.up1 < s0 ? h.up1 : s0, left1 = h.left1 < s0 ? h.left1 : s0;
        if (h.up0 >= up1 && h.left0 >= left1) continue;
        for (int k = a0; k < a1; k++) {
            pt_vec2 p = pt_v2(src->x[k], src->y[k]);
            v2 px = v2_sp(p.x), py = v2_sp(p.y);
            int m = half_scan(src, px, py, r2, h.up0, up1, nb, 0);
            m = half_scan(src, px, py, r2, h.left0, left1, nb, m);
            if (!m) continue;
            if (m > PT_CROWD_NB_MAX) m = PT_CROWD_NB_MAX;
            sums_run r = run_load(hacc(A, k));
            run_take_all(&r, src, p, src->id[k], nb, m, L->align);
            run_store(hacc(A, k), r);
        }
    }
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
    _mm_storeu_si128((__m128i *)(void *)(own + m), _mm_set1_epi32(k));
#else
    for (int j = 0; j < 4; j++) {
        nb[m + j] = q + half_offsets[bits][j];
        own[m + j] = k;
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

/* Slot `from`'s part of the running sums (totals) at s: term t, heading (when finite),
 * position; run_take on sums in memory. Without cohesion the positions' sum is never read
 * and is left out (the count still caps the terms). */
static inline void half_take(pt__crowd_sums *s, const sums_src *src, int from, v2 t, int align, int cohere) {
    v2_store(&s->sep.x, v2_add(v2_load(&s->sep.x), t));
    if (align) {
        v2 h = v2_set(src->hx[from], src->hy[from]);
        if (heading_counts(h)) {
            v2_store(&s->mean_heading.x, v2_add(v2_load(&s->mean_heading.x), h));
            s->headings++;
        }
    }
    if (cohere) v2_store(&s->centre.x, v2_add(v2_load(&s->centre.x), v2_set(src->x[from], src->y[from])));
    s->count++;
}

/* The pairs (own[t], nb[t]), t < m, of a batch, in order: each pair's separation term goes
 * to its owner and, negated, to the later agent when that one is below s1 (the chunk's
 * end); each gets the other's heading and position; either side stops taking terms at
 * PT_CROWD_NB_MAX. own and nb have room for one more. The list is in ascending owner
 * order, and each owner's pairs in ascending slot order, so every agent receives its terms
 * in the order the per-agent pass gave them. */
static inline void half_pairs(const sums_src *src, int align, int cohere, const half_acc *A, int *own, int *nb, int m,
                              int s1) {
    double tw[2 * HALF_PAIRS + 4];
    int coincident = pair_terms(src, own, nb, m, tw);
    for (int t = 0; t < m; t++) {
        int a = own[t], q = nb[t];
        v2 ta = v2_load(tw + 2 * t), tb = v2_neg(ta); /* b + (-t) is b - t, exactly */
        if (coincident && coincident_at(src, pt_v2(src->x[a], src->y[a]), q)) {
            ta = coincident_push(src->id[a], src->id[q]);
            tb = coincident_push(src->id[q], src->id[a]);
        }
        pt__crowd_sums *sa = hacc(A, a);
        if (sa->count < PT_CROWD_NB_MAX) half_take(sa, src, q, ta, align, cohere);
        if (q >= s1) continue; /* the chunk that holds q takes this pair itself */
        pt__crowd_sums *sq = hacc(A, q);
        if (sq->count < PT_CROWD_NB_MAX) half_take(sq, src, a, tb, align, cohere);
    }
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

/* One tick of the agents of the rows of cells that start in slots [lo, hi), with half
 * neighbour lists: one flat pass over the slots in batches of one, two or four (no loops
 * per cell whose lengths the processor would have to guess); a batch's sums are complete
 * once its own pairs are weighed, so its agents are run right behind it, as one group of
 * lanes. */
static void packed_step_half(pt_crowd *c, int lo, int hi, double dt, int share) {
    packed_run L;
    packed_run_init(&L, c, dt);
    const pt_cellspace *cs = &c->cs;
    int c0 = half_first_cell(c, L.s, lo), c1 = half_first_cell(c, L.s, hi);
    if (c0 >= c1) return;
    const int *start = cs->start;
    int cols = cs->cols, rows = cs->rows;
    int s0 = start[c0], s1 = start[c1];
    half_acc A = {c->ring_mask ? ring_of(c, share) : c->gsum + s0, c->ring_mask ? c->ring_mask : ~0u, s0};
    /* The running sums are zeroed a row of cells at a time, the row below the agent's (its
     * later neighbours' rows) before it is scanned; the chunk's first two rows first. */
#define ROW_END(r) start[((r) + 1 < rows ? (r) + 1 : rows) * cols] /* r <= rows */
    int zrow = c0 / cols + 1, z = s0;
    half_zero(&A, &z, ROW_END(zrow) < s1 ? ROW_END(zrow) : s1);
    if (c0 > 0) half_prepass(&L, &A, c0, c1);
    int step = L.wide ? 4 : L.lanes ? 2 : 1;
    const double *x = L.src.x, *y = L.src.y;
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_PAIRS], own[HALF_PAIRS];
    for (int k = s0; k < s1; k += step) {
        while (k + step > s1) step >>= 1;
        int m = 0;
        for (int j = 0; j < step; j++) {
            /* slot q's cell, as the sort computed it, and the runs of its later neighbours:
             * the rest of its row up to the end of the next cell, the three cells below */
            int q = k + j;
            int cx = pt_cellspace_index(x[q], cs->x0, cs->inv_cell, cols);
            int cy = pt_cellspace_index(y[q], cs->y0, cs->inv_cell, rows);
            int row = cy * cols, r = cx + 1 < cols ? cx + 1 : cols - 1, l = cx > 0 ? cx - 1 : 0;
            int fw1 = start[row + r + 1], below = cy + 1 < rows;
            int dn0 = below ? start[row + cols + l] : 0, dn1 = below ? start[row + cols + r + 1] : 0;
            if (cy + 1 > zrow) { /* a new row: zero the one below it */
                zrow = cy + 1;
                half_zero(&A, &z, ROW_END(zrow) < s1 ? ROW_END(zrow) : s1);
            }
            v2 px = v2_sp(x[q]), py = v2_sp(y[q]);
            m = half_run(&L.src, px, py, r2, q + 1, fw1, 4, q, nb, own, m);
            m = half_run(&L.src, px, py, r2, dn0, dn1, 8, q, nb, own, m);
        }
        if (m) half_pairs(&L.src, L.align, L.cohere, &A, own, nb, m, s1);
        if (L.align | L.cohere) half_means(&A, k, step); /* else only the separation is read */
        packed_run_slots(&L, k, step, hacc(&A, k));
    }
#undef ROW_END
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
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_PAIRS], own[HALF_PAIRS];
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
    for (int k = k0; k < k1; k++) {
        pt_vec2 p = pt_v2(sx[k], sy[k]);
        if (pt_v2_is_finite(p)) {
            groups_runs_at(R, c, g0, g1, cells[k]);
            int cx0, cx1, cy0, cy1;
            pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
            v2 px = v2_sp(p.x), py = v2_sp(p.y);
            /* the later neighbours: the rest of its own row of the block, the row below */
            int runs[2][2] = {{k + 1, R->b[1][cx1 - R->cx + 2]}, {R->b[2][cx0 - R->cx + 1], R->b[2][cx1 - R->cx + 2]}};
            int m = 0;
            for (int r = 0; r < 2; r++) {
                if (r == 1 && cy1 <= R->cy) break;
                for (int q = runs[r][0]; q < runs[r][1];) {
                    int e = runs[r][1] - q < HALF_PAIRS - 8 - m ? runs[r][1] : q + (HALF_PAIRS - 8 - m);
                    int m0 = m;
                    m = half_scan(src, px, py, r2, q, e, nb, m);
                    for (int t = m0; t < m; t++) own[t] = k;
                    q = e;
                    if (m > HALF_PAIRS - 16) {
                        half_pairs(src, align, cohere, &A, own, nb, m, k1);
                        m = 0;
                    }
                }
            }
            if (m) half_pairs(src, align, cohere, &A, own, nb, m, k1);
        }
        if (align | cohere) half_means(&A, k, 1);
        store_sums(&c->gsum[src->id[k]], hacc(&A, k));
    }
}

static void packed_step(pt_crowd *c, int lo, int hi, double dt, int share) {
    if (c->half) packed_step_half(c, lo, hi, dt, share);
    else packed_step_range(c, lo, hi, dt);
}

/* The target's vehicle at the start of the tick: the shared constants, its motion. Its
 * slot is where the last permutation put it, unless the target or the slots changed since
 * (then a search). */
static void packed_target(pt_crowd *c) {
    if (c->target == PT_CROWD_TARGET_VEHICLE) c->target_veh = c->target_vehicle;
    if (c->target < 0 || c->target >= c->n) return;
    pt__crowd_state now = packed_now(c, c->cur, c->vcur);
    int k = c->target_slot;
    if (!(k >= 0 && k < c->n && now.id[k] == c->target))
        for (k = 0; k < c->n && now.id[k] != c->target; k++) {}
    if (k == c->n) return;
    c->target_veh = c->tmpl.veh;
    slot_vehicle(&now, k, k, smoothing(c), &c->target_veh);
}
