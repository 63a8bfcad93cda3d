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
 * fetched at random (in cell order, about a fifth of the step's time at 100,000 agents was
 * spent waiting for them). The sums go out with streaming stores: random whole-line writes
 * that are not read first.
 * Each agent is read and written in its own slot. */
#include <patrol/crowd.h>

#include <patrol/config.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "steer_priv.h"

/* ---- worker threads ---------------------------------------------------------------------- */

enum { PHASE_GATHER, PHASE_SOA, PHASE_FORCES, PHASE_STEP };

typedef struct worker {
    struct pt__crowd_pool *pool;
    int index;                 /* share index: 1 .. workers */
} worker;

/* Phases are short (a tick of 100,000 agents is a few ms, in four phases) and come back to
 * back, so a worker spins a while before sleeping on the condition variable: waking a
 * sleeping thread costs tens to hundreds of microseconds on a virtual machine, which at
 * 10,000 agents was more than the second core saved. */
#define POOL_SPINS 4096

struct pt__crowd_pool {
    pthread_mutex_t mu;
    pthread_cond_t go;
    atomic_uint gen;           /* bumped for every phase (release: publishes c, phase, dt) */
    atomic_int pending;        /* workers still running the current phase */
    atomic_int quit;
    int workers;               /* started threads */
    int phase;
    double dt;
    pt_crowd *c;
    pthread_t tid[PT_CROWD_MAX_THREADS];
    worker w[PT_CROWD_MAX_THREADS];
};

static inline void cpu_relax(void) {
#ifdef __SSE2__
    _mm_pause();
#endif
}

static void run_share(pt_crowd *c, int phase, int share, int shares, double dt);

static void *worker_main(void *arg) {
    worker *w = arg;
    struct pt__crowd_pool *p = w->pool;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen &&
               !atomic_load_explicit(&p->quit, memory_order_acquire)) {
            if (++spins < POOL_SPINS) {
                cpu_relax();
                continue;
            }
            /* gen only changes under mu, so checking it under mu cannot miss a wake-up */
            pthread_mutex_lock(&p->mu);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
                   !atomic_load_explicit(&p->quit, memory_order_acquire))
                pthread_cond_wait(&p->go, &p->mu);
            pthread_mutex_unlock(&p->mu);
            spins = 0;
        }
        if (atomic_load_explicit(&p->quit, memory_order_acquire)) break;
        seen = g;
        run_share(p->c, p->phase, w->index, p->workers + 1, p->dt);
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
    }
    return NULL;
}

static void pool_stop(struct pt__crowd_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->quit, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->workers; t++) pthread_join(p->tid[t], NULL);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    PT_FREE(p);
}

/* Starts up to want workers; NULL when none could be started (the caller runs alone). */
static struct pt__crowd_pool *pool_start(int want) {
    struct pt__crowd_pool *p = PT_CALLOC(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    for (int t = 0; t < want; t++) {
        p->w[t] = (worker){p, t + 1};
        if (pthread_create(&p->tid[t], NULL, worker_main, &p->w[t]) != 0) break;
        p->workers++; /* workers read it only once a phase starts (after gen's release) */
    }
    if (!p->workers) {
        pool_stop(p);
        return NULL;
    }
    return p;
}

/* Runs one phase split into equal contiguous shares. */
static void dispatch(pt_crowd *c, int phase, double dt) {
    struct pt__crowd_pool *p = c->pool;
    if (!p || c->n < 64) {
        run_share(c, phase, 0, 1, dt);
        return;
    }
    p->c = c;
    p->phase = phase;
    p->dt = dt;
    atomic_store_explicit(&p->pending, p->workers, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_share(c, phase, 0, p->workers + 1, dt);
    /* The workers' shares end about when ours does: spin, then give the core away. */
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spins++) {
        if (spins < POOL_SPINS) cpu_relax();
        else sched_yield();
    }
}

static void gather_range(pt_crowd *c, int lo, int hi);

/* ---- init -------------------------------------------------------------------------------- */

int pt_crowd_init(pt_crowd *c, const pt_steer_env *env, pt_steer_agent *agents, int n, unsigned behaviours,
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
    size_t cap = (size_t)(n > 0 ? n : 1);
    c->forces = PT_CALLOC(cap, sizeof *c->forces);
    c->nb = PT_MALLOC(sizeof *c->nb * PT_CROWD_NB_MAX);
    c->pos = PT_CALLOC(cap, sizeof *c->pos);
    c->heading = PT_CALLOC(cap, sizeof *c->heading);
    c->cell = PT_CALLOC(cap, sizeof *c->cell);
    c->gsum_mem = PT_MALLOC(sizeof *c->gsum * (cap + 1)); /* aligned to a line below */
    if (c->gsum_mem) c->gsum = (pt__crowd_sums *)(void *)(((uintptr_t)c->gsum_mem + 63) & ~(uintptr_t)63);
    c->sx = PT_MALLOC(sizeof *c->sx * 4 * (cap + 2));
    int ok = c->forces && c->nb && c->pos && c->heading && c->cell && c->gsum_mem && c->sx;
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
    if (ok) ok = pt_cellspace_init(&c->cs, x0, y0, w, h, c->view_radius) == PT_OK;
    if (ok) { /* size the cell space now: no allocation in the steps */
        gather_range(c, 0, n);
        ok = pt_cellspace_rebuild_cells(&c->cs, c->pos, c->cell, n) == PT_OK;
    }
    if (ok && c->threads > 1) c->pool = pool_start(c->threads - 1);
    if (!ok) {
        pt_crowd_fini(c);
        return PT_ERR_NOMEM;
    }
    return PT_OK;
}

void pt_crowd_fini(pt_crowd *c) {
    pool_stop(c->pool);
    PT_FREE(c->forces);
    PT_FREE(c->nb);
    PT_FREE(c->pos);
    PT_FREE(c->heading);
    PT_FREE(c->cell);
    PT_FREE(c->gsum_mem);
    PT_FREE(c->sx);
    if (c->cs.start) pt_cellspace_fini(&c->cs);
    memset(c, 0, sizeof *c);
}

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

/* The compact arrays in cell order, split into x and y for the 2-wide distance tests. */
static void soa_range(pt_crowd *c, int lo, int hi, int headings) {
    const int *ids = c->cs.ids;
    const pt_vec2 *pos = c->cs.pos;
    for (int k = lo; k < hi; k++) {
        c->sx[k] = pos[k].x;
        c->sy[k] = pos[k].y;
    }
    if (headings)
        for (int k = lo; k < hi; k++) {
            if (k + 16 < hi) __builtin_prefetch(&c->heading[ids[k + 16]]); /* a random read */
            pt_vec2 h = c->heading[ids[k]];
            c->shx[k] = h.x;
            c->shy[k] = h.y;
        }
}

#ifndef __SSE2__
/* Separation's weight of a neighbour at distance d: 1 / (d * max(d, PT__SEP_MIN_DIST)). */
static inline double sep_weight(double d) {
    double mm = d > PT__SEP_MIN_DIST ? d : PT__SEP_MIN_DIST;
    return 1.0 / (d * mm);
}
#endif

/* The neighbour sums of the agent at cell-order slot k (agent i) in one pass over its
 * neighbours: the same sums, in the same order, with the same operations as
 * pt_steer_separation, pt_steer_alignment and pt_steer_cohesion over the neighbour list
 * pt_crowd_step_brute builds. Only the compact copies are read; group_forces finishes the
 * forces with the agent's vehicle. */
static void group_sums(const pt_crowd *c, int k, int i, int align, pt__crowd_sums *out) {
    const pt_cellspace *cs = &c->cs;
    const double *sx = c->sx, *sy = c->sy;
    pt_vec2 p = pt_v2(sx[k], sy[k]);
    out->sep = out->mean_heading = out->centre = pt_v2(0.0, 0.0);
    out->headings = out->count = 0;
    out->pad[0] = out->pad[1] = 0;
    /* A neighbour is within the radius, so its position and distance are finite (what
     * pt_steer_separation and the means check); a non-finite p has no neighbours. */
    if (!pt_v2_is_finite(p)) return;
    double r2 = c->view_radius * c->view_radius;
    int cx0, cx1, cy0, cy1;
    pt_cellspace_block(cs, p, c->view_radius, &cx0, &cx1, &cy0, &cy1);
    /* Pass 1: the slots of the first PT_CROWD_NB_MAX neighbours (other than k), in cell
     * order, with no branch on the (unpredictable) distance test. */
    int nb[PT_CROWD_NB_MAX + 1], m = 0;
    for (int cy = cy0; cy <= cy1; cy++) {
        int row = cy * cs->cols;
        int q1 = cs->start[row + cx1 + 1];
        for (int q = cs->start[row + cx0]; q < q1; q++) {
            double dx = sx[q] - p.x, dy = sy[q] - p.y;
            nb[m] = q;
            m += (dx * dx + dy * dy <= r2) & (q != k);
            if (m == PT_CROWD_NB_MAX) goto full;
        }
    }
full:
    if (m) nb[m] = nb[m - 1]; /* pairs below may read one past the end */
    /* Pass 2: the three sums, in neighbour order; distances and weights two at a time. */
    pt_vec2 sep = pt_v2(0.0, 0.0), hsum = pt_v2(0.0, 0.0), psum = pt_v2(0.0, 0.0);
    int hcount = 0;
    for (int t = 0; t < m; t += 2) {
        int qq[2] = {nb[t], nb[t + 1]};
        double tx[2], ty[2], d[2], w[2];
        for (int l = 0; l < 2; l++) {
            tx[l] = p.x - sx[qq[l]];
            ty[l] = p.y - sy[qq[l]];
        }
#ifdef __SSE2__
        __m128d vx = _mm_loadu_pd(tx), vy = _mm_loadu_pd(ty);
        __m128d vd = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(vx, vx), _mm_mul_pd(vy, vy)));
        __m128d min_d = _mm_set1_pd(PT__SEP_MIN_DIST);
        __m128d vm = _mm_max_pd(vd, min_d); /* d > min ? d : min, d never NaN here */
        _mm_storeu_pd(d, vd);
        _mm_storeu_pd(w, _mm_div_pd(_mm_set1_pd(1.0), _mm_mul_pd(vd, vm)));
#else
        for (int l = 0; l < 2; l++) {
            d[l] = sqrt(tx[l] * tx[l] + ty[l] * ty[l]);
            w[l] = sep_weight(d[l]);
        }
#endif
        int lanes = t + 1 < m ? 2 : 1;
        for (int l = 0; l < lanes; l++) {
            int q = qq[l];
            /* separation: unit away / distance, coincident agents along a fixed direction */
            if (d[l] < 1e-9) {
                sep = pt_v2_add(sep, pt_v2_scale(pt__steer_coincident_dir(i, cs->ids[q]), 1.0 / PT__SEP_MIN_DIST));
            } else {
                sep.x = sep.x + tx[l] * w[l];
                sep.y = sep.y + ty[l] * w[l];
            }
            /* alignment and cohesion: means of the finite headings / positions */
            if (align) {
                pt_vec2 h = pt_v2(c->shx[q], c->shy[q]);
                if (pt_v2_is_finite(h)) {
                    hsum = pt_v2_add(hsum, h);
                    hcount++;
                }
            }
            psum.x = psum.x + sx[q];
            psum.y = psum.y + sy[q];
        }
    }
    out->sep = sep;
    out->headings = hcount;
    out->count = m;
    if (hcount) out->mean_heading = pt_v2_scale(hsum, 1.0 / hcount);
    if (m) out->centre = pt_v2_scale(psum, 1.0 / m);
}

/* Separation, alignment and cohesion of vehicle v from its neighbour sums. */
static inline void group_forces(const pt__crowd_sums *s, const pt_vehicle *v, pt_vec2 g[3]) {
    g[0] = s->sep;
    g[1] = g[2] = pt_v2(0.0, 0.0);
    if (s->headings) g[1] = pt__steer_align_to(v, s->mean_heading);
    if (s->count) g[2] = pt__steer_cohere_to(v, s->centre);
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

/* The neighbour sums of every agent, in cell order (neighbour rows stay in cache from one
 * agent to the next), stored by agent index for the step. */
static void sums_range(pt_crowd *c, int lo, int hi) {
    const int *ids = c->cs.ids;
    int align = (c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0;
    for (int k = lo; k < hi; k++) {
        pt__crowd_sums g;
        group_sums(c, k, ids[k], align, &g);
        store_sums(&c->gsum[ids[k]], &g);
    }
#ifdef __SSE2__
    _mm_sfence(); /* the streaming stores are seen before the phase ends */
#endif
}

/* Forces, integration and collision in index order: the agent structs (the bulk of the
 * memory) and the sums stream through in order, which the hardware prefetches well. */
static void step_range(pt_crowd *c, int lo, int hi, double dt) {
    unsigned beh = c->behaviours;
    int group = (beh & PT_BEH_FLOCKING) != 0;
    const pt_vehicle *tv = c->target >= 0 && c->target < c->n ? &c->target_veh : NULL;
    pt_steer_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.env = c->env;
    ctx.dt = dt;
    ctx.target = tv ? tv->pos : c->target_point;
    for (int i = lo; i < hi; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_vec2 g[3];
        if (group) {
            group_forces(&c->gsum[i], &a->veh, g);
        }
        ctx.agent1 = tv && i != c->target ? tv : NULL;
        a->behaviours = beh;
        pt_vec2 f = pt__steer_calculate_group(a, &ctx, group ? g : NULL);
        pt_steer_agent_update(a, &ctx, f, dt);
        if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
    }
}

static void run_share(pt_crowd *c, int phase, int share, int shares, double dt) {
    int lo = (int)((long long)c->n * share / shares), hi = (int)((long long)c->n * (share + 1) / shares);
    switch (phase) {
    case PHASE_GATHER: gather_range(c, lo, hi); break;
    case PHASE_SOA: soa_range(c, lo, hi, (c->behaviours & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0); break;
    case PHASE_FORCES: sums_range(c, lo, hi); break;
    default: step_range(c, lo, hi, dt); break;
    }
}

void pt_crowd_step(pt_crowd *c, double dt) {
    if (c->n <= 0) return;
    if (c->target >= 0 && c->target < c->n) c->target_veh = c->agents[c->target].veh;
    dispatch(c, PHASE_GATHER, dt);
    if (pt_cellspace_rebuild_cells(&c->cs, c->pos, c->cell, c->n) != PT_OK) return; /* cannot happen: cap n */
    if (c->behaviours & PT_BEH_FLOCKING) {
        dispatch(c, PHASE_SOA, dt);
        dispatch(c, PHASE_FORCES, dt);
    }
    dispatch(c, PHASE_STEP, dt);
}

/* ---- the reference ----------------------------------------------------------------------- */

void pt_crowd_step_brute(pt_crowd *c, double dt) {
    double r2 = c->view_radius * c->view_radius;
    const pt_vehicle *tv = c->target >= 0 && c->target < c->n ? &c->agents[c->target].veh : NULL;
    int *ids = c->nb, cells[PT_CROWD_NB_MAX];
    for (int i = 0; i < c->n; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_vec2 p = a->veh.pos;
        /* The first PT_CROWD_NB_MAX others within the radius by (cell, index): insertion
         * into a bounded sorted list; j ascends, so equal cells keep ascending indices. */
        int m = 0;
        for (int j = 0; j < c->n; j++) {
            if (j == i || !(pt_v2_dist2(c->agents[j].veh.pos, p) <= r2)) continue;
            int cj = pt_cellspace_cell(&c->cs, c->agents[j].veh.pos);
            if (m == PT_CROWD_NB_MAX && cells[m - 1] <= cj) continue;
            int q = m < PT_CROWD_NB_MAX ? m++ : m - 1;
            while (q > 0 && cells[q - 1] > cj) {
                cells[q] = cells[q - 1];
                ids[q] = ids[q - 1];
                q--;
            }
            cells[q] = cj;
            ids[q] = j;
        }
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        ctx.nb.agents = &c->agents[0].veh;
        ctx.nb.stride = sizeof(pt_steer_agent);
        ctx.nb.ids = ids;
        ctx.nb.count = m;
        ctx.nb.self = i;
        ctx.agent1 = tv && i != c->target ? tv : NULL;
        ctx.target = tv ? tv->pos : c->target_point;
        a->behaviours = c->behaviours;
        c->forces[i] = pt_steer_calculate(a, &ctx);
    }
    /* The target as it was before anyone moved (PT_BEH_FACE turns toward it). */
    pt_vec2 target = tv ? tv->pos : c->target_point;
    for (int i = 0; i < c->n; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        ctx.target = target;
        pt_steer_agent_update(a, &ctx, c->forces[i], dt);
        if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
    }
}
