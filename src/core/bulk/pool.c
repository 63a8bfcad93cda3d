/* SPDX-License-Identifier: Zlib */
/* Worker threads: they wait for a run, run their share of its job, and report back
 * (pool.h). The crowd runs its phases on them (crowd.c, packed.c), and the world its flocks
 * (crowd_run.h). */
#include "bulk/pool.h"

#include <patrol/config.h>

#include <sched.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A crowd's phases are short and come back to back, so a worker spins a while before
 * sleeping on the condition variable: waking a sleeping thread can cost more than a phase
 * of a mid-sized crowd gains from the second core. */
#define POOL_SPINS 4096
/* Between the phases of one step the caller does a little serial work (the sort's
 * offsets): a worker that slept through it would cost the next phase
 * its wake-up, so when `more` runs follow it keeps yielding, up to this many times, before
 * it sleeps (yielding, not spinning: with more threads than cores the caller needs the core). */
#define POOL_YIELDS_WITHIN (1 << 14)

static inline void cpu_relax(void) {
#ifdef __SSE2__
    _mm_pause();
#endif
}

static void *worker_main(void *arg) {
    pt__pool_worker *w = arg;
    struct pt__pool *p = w->pool;
    unsigned seen = 0;
    int within = 0; /* the last run has another one after it soon */
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
        within = p->more;
        if (w->index < p->shares) p->fn(p->arg, w->index, p->shares);
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
    }
    return NULL;
}

void pt__pool_stop(struct pt__pool *p) {
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

struct pt__pool *pt__pool_start(int want) {
    struct pt__pool *p = PT_CALLOC(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    for (int t = 0; t < want; t++) {
        p->w[t] = (pt__pool_worker){p, t + 1};
        if (pthread_create(&p->tid[t], NULL, worker_main, &p->w[t]) != 0) break;
        p->workers++; /* workers read it only once a run starts (after gen's release) */
    }
    if (!p->workers) {
        pt__pool_stop(p);
        return NULL;
    }
    return p;
}

void pt__pool_run(struct pt__pool *p, int shares, pt__pool_fn fn, void *arg, int more) {
    p->shares = shares;
    p->more = more;
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->next, 0, memory_order_relaxed);
    atomic_store_explicit(&p->pending, p->workers, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, shares);
    /* The workers' shares end about when ours does: spin, then give the core away. */
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spins++) {
        if (spins < POOL_SPINS) cpu_relax();
        else sched_yield();
    }
}
