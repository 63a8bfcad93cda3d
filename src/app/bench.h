/* bench.h - the benchmark scenarios of `patrol bench`. */
#ifndef PATROL_APP_BENCH_H
#define PATROL_APP_BENCH_H

#include <patrol/map.h>
#include <stdint.h>

#define BENCH_MAX_RUNS 101
#define BENCH_MAX_EXTRA 12

typedef struct bench_opts {
    int agents, ticks, threads, runs, json;  /* 0 agents/ticks = the scenario's default */
    uint64_t seed;
} bench_opts;

typedef struct bench_result {
    int agents, ticks, threads;
    double median, min, max;     /* ns per agent-tick */
    double updates_per_s;
    char extra_key[BENCH_MAX_EXTRA][32];
    double extra_val[BENCH_MAX_EXTRA];
    int extra_count;
} bench_result;

typedef struct bench_scenario {
    const char *name, *summary;
    int (*run)(const bench_opts *, bench_result *);
} bench_scenario;

/* Fills median/min/max/updates_per_s from the total ns of each run. */
void bench_stats(bench_result *r, const double *ns_per_run, int runs);
void bench_extra(bench_result *r, const char *key, double value);
/* Sorts v[0..n) (n > 0) and returns its median. */
double bench_median(double *v, int n);
double bench_clock_ns(void);
int bench_walled_map(pt_map *m, int size, int room, double pillars, uint64_t seed);

int bench_patterns(const bench_opts *o, bench_result *r);
int bench_flock(const bench_opts *o, bench_result *r);
int bench_steer(const bench_opts *o, bench_result *r);
int bench_world(const bench_opts *o, bench_result *r);

#endif
