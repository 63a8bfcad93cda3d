/* SPDX-License-Identifier: Zlib */
/* pool.h - worker threads that run a job split into shares (pool.c), not knowing what the
 * job is: pt__pool_run(p, shares, fn, arg, more) calls fn(arg, share, shares) once for each
 * share 0 .. shares - 1, share 0 on the calling thread and the others on the workers, and
 * returns when every share is done.
 *
 * pt__pool_start(want) starts up to want workers (NULL: none could be started, the caller
 * runs alone); pt__pool_stop joins and frees them (NULL is a no-op). `more` says another
 * run follows soon (a phase of the same step): the workers then keep yielding a while
 * before they sleep, so the next run does not pay for waking them. A job that hands out
 * its work as threads come for it may use the pool's cursor (next), 0 when a run starts. */
#ifndef PATROL_BULK_POOL_H
#define PATROL_BULK_POOL_H

#include <patrol/crowd.h>
#include <pthread.h>
#include <stdatomic.h>

typedef void (*pt__pool_fn)(void *arg, int share, int shares);

typedef struct pt__pool_worker {
    struct pt__pool *pool;
    int index;                 /* share index: 1 .. workers */
} pt__pool_worker;

struct pt__pool {
    pthread_mutex_t mu;
    pthread_cond_t go;
    atomic_uint gen;           /* bumped for every run (release: publishes the job) */
    atomic_int pending;        /* workers still running the current run */
    atomic_int quit;
    atomic_int next;           /* the job's cursor: 0 when a run starts */
    int workers;               /* started threads */
    int shares;                /* threads taking part in the current run (<= workers + 1) */
    int more;                  /* another run follows soon */
    pt__pool_fn fn;            /* the job: fn(arg, share, shares) */
    void *arg;
    pthread_t tid[PT_CROWD_MAX_THREADS];
    pt__pool_worker w[PT_CROWD_MAX_THREADS];
};

struct pt__pool *pt__pool_start(int want);
void pt__pool_stop(struct pt__pool *p);
/* Runs fn over 2 .. p->workers + 1 shares (see above). */
void pt__pool_run(struct pt__pool *p, int shares, pt__pool_fn fn, void *arg, int more);

#endif
