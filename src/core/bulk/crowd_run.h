/* SPDX-License-Identifier: Zlib */
/* crowd_run.h - work run on a crowd's threads: the world's flocks and prey (not installed). */
#ifndef PATROL_BULK_CROWD_RUN_H
#define PATROL_BULK_CROWD_RUN_H


struct pt_crowd;
typedef void (*pt__crowd_range_fn)(void *arg, int lo, int hi);
/* Runs fn(arg, lo, hi) over [0, n) cut into contiguous shares, on the crowd's threads (the
 * calling one too, fewer for small n as for the crowd's own phases); returns when every
 * share is done. fn must give the same result whatever the cut. */
void pt__crowd_run(struct pt_crowd *c, int n, pt__crowd_range_fn fn, void *arg);
/* pt__crowd_run with at least min_share items per share instead of the crowd's own
 * minimum: for work dearer per item than an agent's phase. */
void pt__crowd_run_min(struct pt_crowd *c, int n, int min_share, pt__crowd_range_fn fn, void *arg);
/* pt_crowd_step (pt_crowd_step_brute when brute), keeping the crowd's helpers awake for a
 * pt__crowd_run right after, instead of letting them sleep at the end of the step. */
void pt__crowd_step_then(struct pt_crowd *c, double dt, int brute);
/* fn(arg, lo, hi) on each run of agents [lo, hi) right after the in-place step (neither the
 * packed one nor pt_crowd_step_brute) moved them, on the thread that moved them, while
 * they are still in cache; fn must read and write only what belongs to those agents. NULL
 * fn: none. */
void pt__crowd_set_after_step(struct pt_crowd *c, pt__crowd_range_fn fn, void *arg);

#endif
