/* SPDX-License-Identifier: Zlib */
/* The crowd's worker threads: they wait for a phase, run their share of it, and report back
 * (pool.h). */
#include "bulk/pool.h"

#include <sched.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Phases are short and come back to back, so a worker spins a while before sleeping on the
 * condition variable: waking a sleeping thread can cost more than a phase of a mid-sized
 * crowd gains from the second core. */
#define POOL_SPINS 4096
/* Between the phases of one step the caller does a little serial work (the sort's
 * offsets): a worker that slept through it would cost the next phase
 * its wake-up, so within a step it then keeps yielding, up to this many times, before it
 * sleeps (yielding, not spinning: with more threads than cores the caller needs the core). */
#define POOL_YIELDS_WITHIN (1 << 14)
/* The packed step hands out chunks that shrink as the slots run out (each a share of what
 * is left), down to this many per share: the last chunk, which one thread may run while
 * the others wait, is then small. */
#define CHUNKS 16

static inline void cpu_relax(void) {
#ifdef __SSE2__
    _mm_pause();
#endif
}

/* PHASE_RUN splits the caller's range function; the crowd's own phases are crowd.c's. */
static void share_run(pt_crowd *c, int phase, int share, int shares, double dt) {
    if (phase == PHASE_RUN) {
        struct pt__crowd_pool *p = c->pool;
        int n = p->run_n;
        p->run_fn(p->run_arg, (int)((long long)n * share / shares), (int)((long long)n * (share + 1) / shares));
        return;
    }
    pt__crowd_run_share(c, phase, share, shares, dt);
}

static void *worker_main(void *arg) {
    pt__crowd_worker *w = arg;
    struct pt__crowd_pool *p = w->pool;
    unsigned seen = 0;
    int within = 0; /* the last phase has another one after it in the same step */
    for (;;) {
        unsigned g;
        int spins = 0, limit = POOL_SPINS + (within ? POOL_YIELDS_WITHIN : 0);
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen &&
               !atomic_load_explicit(&p->quit, memory_order_acquire)) {
            if (++spins < limit) {
                if (spins < POOL_SPINS) cpu_relax();
                else sched_yield();
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
        within = p->follow || (p->phase != PHASE_PACKED_STEP && p->phase != PHASE_STEP && p->phase != PHASE_RUN);
        if (w->index < p->shares) share_run(p->c, p->phase, w->index, p->shares, p->dt);
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
    }
    return NULL;
}

void pt__crowd_pool_stop(struct pt__crowd_pool *p) {
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

struct pt__crowd_pool *pt__crowd_pool_start(int want) {
    struct pt__crowd_pool *p = PT_CALLOC(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    for (int t = 0; t < want; t++) {
        p->w[t] = (pt__crowd_worker){p, t + 1};
        if (pthread_create(&p->tid[t], NULL, worker_main, &p->w[t]) != 0) break;
        p->workers++; /* workers read it only once a phase starts (after gen's release) */
    }
    if (!p->workers) {
        pt__crowd_pool_stop(p);
        return NULL;
    }
    return p;
}

int pt__crowd_dispatch_shares_n(const pt_crowd *c, int n) {
    int shares = c->pool ? c->pool->workers + 1 : 1, min_share = c->min_share > 0 ? c->min_share : 1;
    if (shares > n / min_share) shares = n / min_share;
    return shares > 1 ? shares : 1;
}

/* Runs one phase split into equal contiguous shares. A phase's fixed cost with helpers
 * (waking or signalling them, waiting for the last) can be more than a small crowd's phase
 * takes: hence min_share agents at least per share. */
void pt__crowd_dispatch(pt_crowd *c, int phase, double dt) {
    struct pt__crowd_pool *p = c->pool;
    int shares = phase == PHASE_RUN ? pt__crowd_dispatch_shares_n(c, p->run_n) : pt__crowd_dispatch_shares_n(c, c->n);
    if (shares <= 1) {
        share_run(c, phase, 0, 1, dt);
        return;
    }
    p->shares = shares;
    /* The packed step hands out chunks of whole groups of four agents. */
    p->chunk = (c->n / (shares * CHUNKS) + 3) & ~3;
    if (p->chunk < 4) p->chunk = 4;
    p->c = c;
    p->phase = phase;
    p->dt = dt;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    atomic_store_explicit(&p->pending, p->workers, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    share_run(c, phase, 0, shares, dt);
    /* The workers' shares end about when ours does: spin, then give the core away. */
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spins++) {
        if (spins < POOL_SPINS) cpu_relax();
        else sched_yield();
    }
}

void pt__crowd_run(pt_crowd *c, int n, pt__crowd_range_fn fn, void *arg) {
    if (n <= 0) return;
    if (!c->pool || pt__crowd_dispatch_shares_n(c, n) <= 1) {
        fn(arg, 0, n);
        return;
    }
    c->pool->run_fn = fn;
    c->pool->run_arg = arg;
    c->pool->run_n = n;
    pt__crowd_dispatch(c, PHASE_RUN, 0.0);
}

void pt__crowd_run_min(pt_crowd *c, int n, int min_share, pt__crowd_range_fn fn, void *arg) {
    int keep = c->min_share; /* read by the calling thread only, in pt__crowd_dispatch_shares_n */
    c->min_share = min_share > 0 ? min_share : 1;
    pt__crowd_run(c, n, fn, arg);
    c->min_share = keep;
}

void pt__crowd_set_after_step(pt_crowd *c, pt__crowd_range_fn fn, void *arg) {
    c->after_step = fn;
    c->after_arg = arg;
}

void pt__crowd_step_then(pt_crowd *c, double dt, int brute) {
    if (c->pool) c->pool->follow = 1;
    if (brute) pt_crowd_step_brute(c, dt);
    else pt_crowd_step(c, dt);
    if (c->pool) c->pool->follow = 0;
}
