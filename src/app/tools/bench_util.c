/* SPDX-License-Identifier: Zlib */
/* bench_util.c - what the scenarios of `patrol bench` share (bench.h): the clock, the run
 * statistics and extra figures, the --lockstep gate, the state hash and the walled test map.
 * Below both cmd_bench.c (the command, and the los scenario) and bench_scenarios.c, which
 * called each other while these lived in cmd_bench.c. */
#define _POSIX_C_SOURCE 200809L
#include <patrol/map.h>
#include <patrol/rng.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/app.h"
#include "tools/bench.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) and returns its median. */
static double sort_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_stats(bench_result *r, const double *ns_per_run, int runs) {
    double v[BENCH_MAX_RUNS];
    for (int i = 0; i < runs; i++) v[i] = ns_per_run[i] / ((double)r->agents * (double)r->ticks);
    r->median = sort_median(v, runs);
    r->min = v[0];
    r->max = v[runs - 1];
    r->updates_per_s = r->median > 0 ? 1e9 / r->median : 0;
}

double bench_clock_ns(void) { return now_ns(); }

double bench_median(double *v, int n) { return sort_median(v, n); }

/* The lockstep gate fails hard: a coordinator that went away leaves nothing to report to. */
static void gate_io(int fd, void *buf, size_t n, int writing) {
    char *p = buf;
    while (n > 0) {
        ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            fprintf(stderr, "patrol bench: error: --lockstep: %s fd %d failed\n", writing ? "writing" : "reading", fd);
            exit(APP_EXIT_INPUT);
        }
        p += k;
        n -= (size_t)k;
    }
}

void bench_gate_wait(const bench_opts *o) {
    char byte;
    if (o->gate_in >= 0) gate_io(o->gate_in, &byte, 1, 0);
}

void bench_gate_tick(const bench_opts *o, double ns) {
    if (o->gate_out >= 0) gate_io(o->gate_out, &ns, sizeof ns, 1);
}

void bench_gate_state(const bench_opts *o, uint64_t hash) {
    if (o->gate_out >= 0) gate_io(o->gate_out, &hash, sizeof hash, 1);
}

uint64_t bench_hash(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* A 1024x1024-style walled map: a grid of walls every `room` tiles with a door in each wall
 * segment, and a fraction of pillars. Deterministic for a seed. */
int bench_walled_map(pt_map *m, int size, int room, double pillars, uint64_t seed) {
    pt_error err;
    if (pt_map_init_blank(m, size, size, &err) < 0) return 0;
    pt_rng r;
    pt_rng_seed(&r, seed, 77);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int wall = (x % room == 0) || (y % room == 0) || x == size - 1 || y == size - 1;
            if (wall) pt_map_set(m, x, y, '#');
            else if (pt_rng_unit(&r) < pillars) pt_map_set(m, x, y, '#');
        }
    /* doors: one in the middle of each wall segment between two rooms */
    for (int y = 0; y + room < size; y += room)
        for (int x = 0; x + room < size; x += room) {
            pt_map_set(m, x + room / 2, y, '+');
            pt_map_set(m, x, y + room / 2, '+');
        }
    return 1;
}

void bench_extra(bench_result *r, const char *key, double value) {
    if (r->extra_count >= BENCH_MAX_EXTRA) return;
    snprintf(r->extra_key[r->extra_count], sizeof r->extra_key[0], "%s", key);
    r->extra_val[r->extra_count++] = value;
}
