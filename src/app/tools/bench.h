/* SPDX-License-Identifier: Zlib */
/* bench.h - the benchmark scenarios of `patrol bench`: los in cmd_bench.c (the command), the
 * others in bench_scenarios.c, and the tools they share in bench_util.c. */
#ifndef PATROL_APP_BENCH_H
#define PATROL_APP_BENCH_H

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_RUNS 101
#define BENCH_MAX_EXTRA 24

typedef struct bench_opts {
    int agents, ticks, threads, runs, json;  /* 0 agents/ticks = the scenario's default */
    uint64_t seed;
    int gate_in, gate_out;  /* --lockstep: file descriptors, or -1 */
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

/* ---- bench_util.c ---- */

/* Fills median/min/max/updates_per_s from the total ns of each run. */
void bench_stats(bench_result *r, const double *ns_per_run, int runs);
void bench_extra(bench_result *r, const char *key, double value);
/* Sorts v[0..n) (n > 0) and returns its median. */
double bench_median(double *v, int n);
double bench_clock_ns(void);
/* --lockstep IN,OUT (scripts/bench-lockstep): before each timed tick the scenario waits for a
 * byte on IN, after it writes the tick's nanoseconds (a double) on OUT; at the end, a hash of
 * the final state (a uint64_t). Without --lockstep these do nothing. */
void bench_gate_wait(const bench_opts *o);
void bench_gate_tick(const bench_opts *o, double ns);
void bench_gate_state(const bench_opts *o, uint64_t hash);
/* FNV-1a over n bytes, continuing from h (start with 14695981039346656037). */
uint64_t bench_hash(uint64_t h, const void *p, size_t n);
int bench_walled_map(pt_map *m, int size, int room, double pillars, uint64_t seed);

/* ---- bench_scenarios.c ---- */

int bench_patterns(const bench_opts *o, bench_result *r);
int bench_flock(const bench_opts *o, bench_result *r);
int bench_steer(const bench_opts *o, bench_result *r);
int bench_world(const bench_opts *o, bench_result *r);
int bench_world_noise(const bench_opts *o, bench_result *r);
int bench_world_flocks(const bench_opts *o, bench_result *r);
int bench_world_mixed(const bench_opts *o, bench_result *r);
int bench_hearing(const bench_opts *o, bench_result *r);
int bench_search(const bench_opts *o, bench_result *r);
/* The level of the world scenarios (see there): a generated size x size walled map, the bench
 * patterns, guards, prey and flock members. 0 (nothing to free) when it cannot be made. */
int bench_world_level(const bench_opts *o, int size, int guards, int prey, int members, pt_map *m, pt_patlib *lib);

/* ---- bench_set_tile.c ---- */

int bench_set_tile(const bench_opts *o, bench_result *r);

/* ---- bench_light.c ---- */

int bench_light(const bench_opts *o, bench_result *r);

/* ---- bench_save.c ---- */

int bench_save(const bench_opts *o, bench_result *r);

#endif
