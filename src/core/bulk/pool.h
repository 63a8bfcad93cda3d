/* SPDX-License-Identifier: Zlib */
/* pool.h - the crowd's worker threads (pool.c): a phase of the step runs split into
 * contiguous shares, share 0 on the calling thread, the others on the workers.
 *
 * pt__crowd_pool_start(want) starts up to want workers (NULL: none could be started, the
 * caller runs alone); pt__crowd_pool_stop joins and frees them (NULL is a no-op).
 * pt__crowd_dispatch(c, phase, dt) runs one phase to its end on as many threads as
 * pt__crowd_dispatch_shares_n(c, c->n) says, calling pt__crowd_run_share (crowd.c) once per
 * share. */
#ifndef PATROL_BULK_POOL_H
#define PATROL_BULK_POOL_H

#include <pthread.h>
#include <stdatomic.h>

#include "bulk/crowd_priv.h"
#include "bulk/crowd_run.h"

enum { PHASE_GATHER, PHASE_SOA, PHASE_FORCES, PHASE_STEP, PHASE_PACKED_CELLS, PHASE_PACKED_SORT, PHASE_PACKED_PERMUTE,
       PHASE_PACKED_STEP, PHASE_RUN };

typedef struct pt__crowd_worker {
    struct pt__crowd_pool *pool;
    int index;                 /* share index: 1 .. workers */
} pt__crowd_worker;

struct pt__crowd_pool {
    pthread_mutex_t mu;
    pthread_cond_t go;
    atomic_uint gen;           /* bumped for every phase (release: publishes c, phase, dt) */
    atomic_int pending;        /* workers still running the current phase */
    atomic_int quit;
    atomic_int next;           /* PHASE_PACKED_STEP: the next chunk's first slot */
    int workers;               /* started threads */
    int shares;                /* threads taking part in the current phase (<= workers + 1) */
    int chunk;                 /* PHASE_PACKED_STEP: the fewest slots per chunk */
    int most[PT_CROWD_MAX_THREADS]; /* PHASE_PACKED_SORT: the most slots in one cell of each
                                       share's range */
    int phase;
    int follow;                /* a pt__crowd_run phase follows this step (pt__crowd_step_then) */
    double dt;
    pt_crowd *c;
    pt__crowd_range_fn run_fn; /* PHASE_RUN: fn(arg, lo, hi) over [0, run_n) */
    void *run_arg;
    int run_n;
    pthread_t tid[PT_CROWD_MAX_THREADS];
    pt__crowd_worker w[PT_CROWD_MAX_THREADS];
};

struct pt__crowd_pool *pt__crowd_pool_start(int want);
void pt__crowd_pool_stop(struct pt__crowd_pool *p);
/* How many threads share a phase over n items: each share gets at least c->min_share. */
int pt__crowd_dispatch_shares_n(const pt_crowd *c, int n);
void pt__crowd_dispatch(pt_crowd *c, int phase, double dt);
/* One share of a crowd phase (any but PHASE_RUN): crowd.c. */
void pt__crowd_run_share(pt_crowd *c, int phase, int share, int shares, double dt);

#endif
