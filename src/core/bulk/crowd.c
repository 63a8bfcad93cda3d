/* SPDX-License-Identifier: Zlib */
/* pt_crowd: the object, one tick as a list of phases (pt_crowd_step), and other work run
 * on the crowd's threads (crowd_run.h). The phases are the in-place mode's (inplace.c) and
 * the packed mode's (packed.c); this file hands each to the pool (pool.c) as a job. The
 * reference step is reference.c. */
#include "bulk/crowd_priv.h"
#include "bulk/pairs.h"
#include "bulk/pool.h"

#include <patrol/config.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "base/cellspace_sort.h"
#include "bulk/crowd_run.h"

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
    c->shok = PT_CALLOC(cap + 2, sizeof *c->shok);
    int ok = c->forces && c->nb && c->pos && c->heading && c->cell && c->gsum_mem && c->sx && c->sg && c->shok;
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
        pt__crowd_gather_range(c, 0, n);
        ok = pt_cellspace_rebuild_cells(&c->cs, c->pos, c->cell, n) == PT_OK;
    }
    if (ok) ok = pt__crowd_packed_alloc(c);
    if (ok && c->threads > 1) c->pool = pt__pool_start(c->threads - 1);
    if (!ok) {
        crowd_fini(c);
        return PT_ERR_NOMEM;
    }
    pt_crowd_reload(c);
    return PT_OK;
}

static void crowd_fini(pt_crowd *c) {
    pt_crowd_sync(c); /* the agents go back up to date */
    pt__pool_stop(c->pool);
    PT_FREE(c->forces);
    PT_FREE(c->nb);
    PT_FREE(c->pos);
    PT_FREE(c->heading);
    PT_FREE(c->cell);
    PT_FREE(c->gsum_mem);
    PT_FREE(c->sx);
    PT_FREE(c->sg);
    PT_FREE(c->shok);
    pt__crowd_groups_free(c);
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

/* ---- the phases ------------------------------------------------------------------------- *
 * Each phase is a job for the pool (pool.h): fn(arg, share, shares) runs one share of it. */

/* What every share of a phase reads: the crowd and the tick's length. */
typedef struct crowd_phase_run {
    pt_crowd *c;
    double dt;
    int chunk; /* the packed step with helpers: the fewest slots per chunk */
} crowd_phase_run;

/* The packed step hands out chunks that shrink as the slots run out (each a share of what
 * is left), down to this many per share: the last chunk, which one thread may run while
 * the others wait, is then small. */
#define CHUNKS 16

static void phase_gather(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_gather_range(P->c, lo, hi);
}

static void phase_soa(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_soa_range(P->c, lo, hi, (P->c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0);
}

static void phase_sums(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_sums_range(P->c, lo, hi);
}

static void phase_step(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_step_range(P->c, lo, hi, P->dt);
}

static void phase_packed_cells(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_packed_cells_range(P->c, lo, hi);
}

static void phase_packed_permute(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    int lo, hi;
    pt__crowd_share_range(P->c, share, shares, &lo, &hi);
    pt__crowd_packed_permute_range(P->c, lo, hi);
}

static void phase_packed_step(void *arg, int share, int shares) {
    const crowd_phase_run *P = arg;
    pt_crowd *c = P->c;
    if (shares == 1) {
        pt__crowd_packed_step(c, 0, c->n, P->dt, share);
        return;
    }
    /* Chunks handed out as threads come for them, each 1 / shares of the slots left and at
     * least P->chunk: a flock clumps, so equal shares of slots are not equal work, and
     * small last chunks leave little for one thread to finish alone. Each chunk re-weighs
     * the pairs that cross into its first row of cells, so few chunks are cheaper. Each
     * slot's result does not depend on who computes it. The pool's cursor is the next
     * chunk's first slot. */
    atomic_int *next = &c->pool->next;
    for (int k = atomic_load_explicit(next, memory_order_relaxed); k < c->n;) {
        int size = ((c->n - k) / shares + 3) & ~3;
        if (size < P->chunk) size = P->chunk;
        if (!atomic_compare_exchange_weak_explicit(next, &k, k + size, memory_order_relaxed, memory_order_relaxed))
            continue; /* k is the next chunk's start now */
        pt__crowd_packed_step(c, k, k + size < c->n ? k + size : c->n, P->dt, share);
        k = atomic_load_explicit(next, memory_order_relaxed);
    }
}

/* The in-place sort by cell, in shares by ranges of cells on the crowd's threads. */
typedef struct {
    pt_crowd *c;
    pt__cellspace_plan plan;
    int shares;
} crowd_sort_run;

static void crowd_sort_shares(void *arg, int lo, int hi) {
    crowd_sort_run *R = arg;
    pt_crowd *c = R->c;
    for (int s = lo; s < hi; s++)
        pt__cellspace_sort_share(&c->cs, c->cell, c->n, &R->plan, s, R->shares, NULL, c->pos, sizeof *c->pos);
}

static int crowd_sort(pt_crowd *c) {
    crowd_sort_run R = {.c = c, .shares = pt__crowd_shares(c, c->n)};
    if (pt__cellspace_sort_plan(&c->cs, c->cell, c->n, &R.plan) != PT_OK) return 0;
    pt__crowd_run_min(c, R.shares, 1, crowd_sort_shares, &R);
    pt__cellspace_sort_done(&c->cs, c->n);
    return 1;
}

/* One tick, phase by phase; pt__crowd_phase runs a phase over the threads and returns when
 * it is done, so each phase sees the whole of the one before. The last phase lets the
 * helpers sleep unless a pt__crowd_run follows (c->follow). */
void pt_crowd_step(pt_crowd *c, double dt) {
    if (c->n <= 0) return;
    int shares = pt__crowd_shares(c, c->n);
    crowd_phase_run P = {.c = c, .dt = dt};
    /* Mode: packed or in place, for these behaviours and agents. */
    if (c->behaviours != c->mode_beh || (c->packed && !pt__crowd_packed_wanted(c))) pt__crowd_mode_choose(c);
    if (c->packed) {
        /* Target: its state as the tick starts. */
        pt__crowd_packed_target(c);
        /* Cells: each slot's, unless the last step wrote them. */
        if (!c->cells_ok) pt__crowd_phase(c, shares, phase_packed_cells, &P, 1);
        /* Sort: the slots counted by cell. */
        pt__crowd_packed_sort(c);
        /* Permute: the state into the other buffer, in the new order. */
        pt__crowd_phase(c, shares, phase_packed_permute, &P, 1);
        c->cur ^= 1;
        /* Step: sums, forces, motion and collision, written back into the first buffer, in
         * chunks of whole groups of four agents. */
        P.chunk = (c->n / (shares * CHUNKS) + 3) & ~3;
        if (P.chunk < 4) P.chunk = 4;
        pt__crowd_phase(c, shares, phase_packed_step, &P, c->follow);
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
    pt__crowd_phase(c, shares, phase_gather, &P, 1);
    /* Sort: counting sort by cell (cannot fail: the cell space was sized for n). */
    if (!crowd_sort(c)) return;
    if (c->behaviours & PT_BEH_FLOCKING) {
        /* Groups: the slots by group, then cell, when flocks read only their own group. */
        int on = c->group && pt__crowd_groups_sort(c);
        if (c->gm) c->gm->on = on;
        /* Arrays: positions and headings in cell order. */
        pt__crowd_phase(c, shares, phase_soa, &P, 1);
        /* Sums: each agent's neighbour sums. */
        pt__crowd_phase(c, shares, phase_sums, &P, 1);
    }
    /* Step: forces, motion and collision in agent order. */
    pt__crowd_phase(c, shares, phase_step, &P, c->follow);
}

/* ---- work run on the crowd's threads (crowd_run.h) --------------------------------------- */

typedef struct crowd_range_run {
    pt__crowd_range_fn fn;
    void *arg;
    int n;
} crowd_range_run;

static void range_share(void *arg, int share, int shares) {
    const crowd_range_run *R = arg;
    R->fn(R->arg, (int)((long long)R->n * share / shares), (int)((long long)R->n * (share + 1) / shares));
}

void pt__crowd_run(pt_crowd *c, int n, pt__crowd_range_fn fn, void *arg) {
    if (n <= 0) return;
    int shares = c->pool ? pt__crowd_shares(c, n) : 1;
    if (shares <= 1) {
        fn(arg, 0, n);
        return;
    }
    crowd_range_run R = {fn, arg, n};
    pt__pool_run(c->pool, shares, range_share, &R, c->follow);
}

void pt__crowd_run_min(pt_crowd *c, int n, int min_share, pt__crowd_range_fn fn, void *arg) {
    int keep = c->min_share; /* read by the calling thread only, in pt__crowd_shares */
    c->min_share = min_share > 0 ? min_share : 1;
    pt__crowd_run(c, n, fn, arg);
    c->min_share = keep;
}

void pt__crowd_set_after_step(pt_crowd *c, pt__crowd_range_fn fn, void *arg) {
    c->after_step = fn;
    c->after_arg = arg;
}

void pt__crowd_step_then(pt_crowd *c, double dt, int brute) {
    c->follow = 1;
    if (brute) pt_crowd_step_brute(c, dt);
    else pt_crowd_step(c, dt);
    c->follow = 0;
}
