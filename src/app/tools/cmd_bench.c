/* SPDX-License-Identifier: Zlib */
/* patrol bench: speed measured by benchmarks, never by timed unit tests.
 * Each scenario builds its world once (untimed), then times `runs` runs of `ticks` ticks and
 * reports the median, min and max nanoseconds per agent-tick. Ratios (threads, brute force)
 * are measured in the same process so machine noise affects both sides alike.
 * This file: the command (its options, the list of scenarios, the result lines) and the los
 * scenario; the other scenarios are bench_scenarios.c's, the tools they share bench_util.c's. */
#include <patrol/bresenham.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/rng.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "common/app.h"
#include "common/cli.h"
#include "tools/bench.h"

/* The median of v[0..n) through a sorted copy (v keeps its order). */
static double median_of(const double *v, int n) {
    double s[BENCH_MAX_RUNS];
    memcpy(s, v, sizeof(double) * (size_t)n);
    return bench_median(s, n);
}

/* ---- los ------------------------------------------------------------------------------ */

/* Random viewer/target pairs within `range` (Euclidean) of each other, both inside the map. */
static int *los_pairs(int n, int range, int size, uint64_t seed, uint64_t stream) {
    int *pairs = malloc(sizeof(int) * 4 * (size_t)n);
    if (!pairs) return NULL;
    pt_rng rng;
    pt_rng_seed(&rng, seed, stream);
    for (int i = 0; i < n; i++) {
        int x0 = range + (int)pt_rng_below(&rng, (uint32_t)(size - 2 * range));
        int y0 = range + (int)pt_rng_below(&rng, (uint32_t)(size - 2 * range));
        int x1, y1;
        do {
            x1 = x0 + (int)pt_rng_below(&rng, (uint32_t)(2 * range + 1)) - range;
            y1 = y0 + (int)pt_rng_below(&rng, (uint32_t)(2 * range + 1)) - range;
        } while ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0) > range * range);
        pairs[4 * i] = x0; pairs[4 * i + 1] = y0; pairs[4 * i + 2] = x1; pairs[4 * i + 3] = y1;
    }
    return pairs;
}

/* Raw traversal: the rays walked to the end the way pt_los_clear walks them (a flat index,
 * integer rounding), reading every cell's flags; returns the cells read. */
static long long los_raw_walk(const pt_map *m, const int *pairs, int n, long long *acc_out) {
    const ptrdiff_t W = m->w;
    long long cells = 0, acc = 0;
    for (int i = 0; i < n; i++) {
        long dx = pairs[4 * i + 2] - pairs[4 * i], dy = pairs[4 * i + 3] - pairs[4 * i + 1];
        long adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
        ptrdiff_t sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? W : (dy < 0 ? -W : 0);
        int major_x = adx >= ady;
        long D = major_x ? adx : ady, dm2 = 2 * (major_x ? ady : adx), dd2 = 2 * D, r = D;
        ptrdiff_t smaj = major_x ? sx : sy, smin = major_x ? sy : sx;
        ptrdiff_t idx = (ptrdiff_t)pairs[4 * i + 1] * W + pairs[4 * i];
        acc += m->flags[idx];
        for (long k = 1; k <= D; k++) {
            r += dm2;
            long minor = r >= dd2;
            r -= minor ? dd2 : 0;
            idx += smaj + (minor ? smin : 0);
            acc += m->flags[idx];
        }
        cells += D + 1;
    }
    *acc_out += acc;
    return cells;
}

static int bench_los(const bench_opts *o, bench_result *r) {
    pt_map m;
    if (!bench_walled_map(&m, 1024, 32, 0.03, o->seed)) return 0;
    int n = o->agents > 0 ? o->agents : 1000000;
    int ticks = o->ticks > 0 ? o->ticks : 5;
    /* The scenario's pairs (range 16), and long rays (range 256, as many cells in all) that
     * show the per-cell cost of the walk without the per-ray setup and loop exit. */
    int nlong = n / 16 > 0 ? n / 16 : 1;
    int *pairs = los_pairs(n, 16, 1024, o->seed, 5), *lpairs = los_pairs(nlong, 256, 1024, o->seed, 6);
    pt_map open;
    pt_error err;
    if (!pairs || !lpairs || pt_map_init_blank(&open, 1024, 1024, &err) < 0) {
        free(pairs); free(lpairs); pt_map_fini(&m); return 0;
    }
    double ns[BENCH_MAX_RUNS], walk_ns[BENCH_MAX_RUNS], raw_ns[BENCH_MAX_RUNS], long_ns[BENCH_MAX_RUNS],
        open_ns[BENCH_MAX_RUNS];
    long long visible = 0, raw_cells = 0, long_cells = 0;
    int match = 1;
    volatile long long sink = 0;
    for (int run = 0; run < o->runs; run++) {
        double t0 = bench_clock_ns();
        long long vis = 0;
        for (int t = 0; t < ticks; t++)
            for (int i = 0; i < n; i++)
                vis += pt_los_clear(&m, pairs[4 * i], pairs[4 * i + 1], pairs[4 * i + 2], pairs[4 * i + 3]);
        ns[run] = bench_clock_ns() - t0;
        visible = vis;
        /* the same checks walking the flags cell by cell, for the ratio and the match */
        t0 = bench_clock_ns();
        long long wvis = 0;
        for (int t = 0; t < ticks; t++)
            for (int i = 0; i < n; i++)
                wvis += pt_los_clear_walk(&m, pairs[4 * i], pairs[4 * i + 1], pairs[4 * i + 2], pairs[4 * i + 3]);
        walk_ns[run] = bench_clock_ns() - t0;
        match &= wvis == vis;
        long long acc = 0;
        t0 = bench_clock_ns();
        raw_cells = 0;
        for (int t = 0; t < ticks; t++) raw_cells += los_raw_walk(&m, pairs, n, &acc);
        raw_ns[run] = bench_clock_ns() - t0;
        t0 = bench_clock_ns();
        long_cells = 0;
        for (int t = 0; t < ticks; t++) long_cells += los_raw_walk(&m, lpairs, nlong, &acc);
        long_ns[run] = bench_clock_ns() - t0;
        /* the long rays checked through the sight bitmaps on an open map, where every ray
         * runs to its end: traversal by rows instead of by cells */
        t0 = bench_clock_ns();
        long long open_vis = 0;
        for (int t = 0; t < ticks; t++)
            for (int i = 0; i < nlong; i++)
                open_vis += pt_los_clear(&open, lpairs[4 * i], lpairs[4 * i + 1], lpairs[4 * i + 2], lpairs[4 * i + 3]);
        open_ns[run] = bench_clock_ns() - t0;
        match &= open_vis == (long long)nlong * ticks;
        sink += acc;
    }
    (void)sink;
    r->agents = n;
    r->ticks = ticks;
    r->threads = 1;
    bench_stats(r, ns, o->runs);
    double raw_median = median_of(raw_ns, o->runs), long_median = median_of(long_ns, o->runs);
    r->extra_count = 0;
    bench_extra(r, "cells_per_s", raw_median > 0 ? (double)raw_cells / (raw_median * 1e-9) : 0);
    bench_extra(r, "cells_per_s_long_rays", long_median > 0 ? (double)long_cells / (long_median * 1e-9) : 0);
    double open_median = median_of(open_ns, o->runs);
    bench_extra(r, "cells_per_s_long_rays_bitmaps", open_median > 0 ? (double)long_cells / (open_median * 1e-9) : 0);
    bench_extra(r, "visible_fraction", (double)visible / ((double)n * ticks));
    double walk_median = median_of(walk_ns, o->runs) / ((double)n * ticks);
    bench_extra(r, "walk_ns_per_check", walk_median);
    bench_extra(r, "speedup_bitmaps", r->median > 0 ? walk_median / r->median : 0);
    bench_extra(r, "match", match);

    free(pairs);
    free(lpairs);
    pt_map_fini(&m);
    pt_map_fini(&open);
    return 1;
}

static const bench_scenario scenarios[] = {
    {"patterns", "tile pattern followers (path, matrix, control) on a 1024x1024 map", bench_patterns},
    {"los", "guard->player line-of-sight checks on a 1024x1024 walled map, range 16", bench_los},
    {"flock", "boids (separation + alignment + cohesion) with the cell-space partition", bench_flock},
    {"steer", "wall + obstacle avoidance + separation + pursuit/arrive in a walled map", bench_steer},
    {"world", "the whole sim tick on a generated 1024x1024 map with guards", bench_world},
    {"world-flocks", "the world tick, flocks of 100 on a generated 256x256 walled map; 1 vs 2+ threads", bench_world_flocks},
    {"world-mixed", "the world tick on 1024x1024: a tenth guards, a twentieth prey, the rest flocks", bench_world_mixed},
    {"hearing", "noise floods of loudness 16 on a 1024x1024 walled map (an agent = a noise)", bench_hearing},
    {"world-noise", "the world scenario with 100 noises a second (loudness 16) that the guards hear", bench_world_noise},
    {"search", "3 guards searching rooms and corridors together vs each alone, from apart and from one cell (an agent = a search)", bench_search},
    {"set-tile", "pt_world_set_tile on the world scenario's map: a cell toggled wall <-> floor (an agent = a guard)", bench_set_tile},
    {"save", "pt_world_save + pt_world_load of the world scenario's world and of the demo's, and their sizes", bench_save},
    {"light", "pt_world_set_light on the world scenario's map with 1,000 lights, and its tick with and without them", bench_light},
};

static void bench_help(FILE *out) {
    fprintf(out, "usage: patrol bench [SCENARIO|all] [--agents N] [--ticks T] [--threads K] [--runs R] [--seed S] [--json]\n"
                 "                    [--lockstep IN,OUT]\n\n"
                 "Times a scenario: R runs (default 5) of T ticks with N agents; prints the median, min and max\n"
                 "nanoseconds per agent-tick and agent-updates per second. Scenarios:\n");
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        fprintf(out, "  %-12s %s\n", scenarios[i].name, scenarios[i].summary);
    fprintf(out, "\n--lockstep IN,OUT (flock and steer only, for scripts/bench-lockstep): each timed tick waits\n"
                 "for a byte on file descriptor IN and then writes its nanoseconds on OUT (a native double);\n"
                 "after the last tick of the last run comes a hash of the agents' motion state (a native\n"
                 "uint64). Two builds can so take turns tick by tick. OUT must not be 0, 1 or 2.\n");
}

static void print_result(const bench_opts *o, const char *name, const bench_result *r) {
    if (o->json) {
        printf("{\"scenario\":\"%s\",\"agents\":%d,\"ticks\":%d,\"threads\":%d,\"runs\":%d,"
               "\"ns_per_agent_tick_median\":%.3f,\"ns_per_agent_tick_min\":%.3f,\"ns_per_agent_tick_max\":%.3f,"
               "\"agent_updates_per_s\":%.0f",
               name, r->agents, r->ticks, r->threads, o->runs, r->median, r->min, r->max, r->updates_per_s);
        for (int i = 0; i < r->extra_count; i++) printf(",\"%s\":%.6g", r->extra_key[i], r->extra_val[i]);
        printf("}\n");
    } else {
        printf("%-9s agents %-8d ticks %-5d threads %d  ns/agent-tick median %.2f (min %.2f, max %.2f)  %.3g updates/s",
               name, r->agents, r->ticks, r->threads, r->median, r->min, r->max, r->updates_per_s);
        for (int i = 0; i < r->extra_count; i++) printf("  %s %.4g", r->extra_key[i], r->extra_val[i]);
        printf("\n");
    }
    fflush(stdout);
}

int cmd_bench(int argc, char **argv) {
    bench_opts o = {0};
    o.runs = 5;
    o.threads = 1;
    o.seed = 1;
    o.gate_in = o.gate_out = -1;
    const char *which = "all";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (app_is_help(a)) { bench_help(stdout); return APP_EXIT_OK; }
        else if (strcmp(a, "--json") == 0) o.json = 1;
        else if (strcmp(a, "--agents") == 0) { if (!app_parse_long("bench", a, i + 1 < argc ? argv[++i] : NULL, 1, 100000000L, &v)) return APP_EXIT_USAGE; o.agents = (int)v; }
        else if (strcmp(a, "--ticks") == 0) { if (!app_parse_long("bench", a, i + 1 < argc ? argv[++i] : NULL, 1, 1000000L, &v)) return APP_EXIT_USAGE; o.ticks = (int)v; }
        else if (strcmp(a, "--threads") == 0) { if (!app_parse_long("bench", a, i + 1 < argc ? argv[++i] : NULL, 1, 64, &v)) return APP_EXIT_USAGE; o.threads = (int)v; }
        else if (strcmp(a, "--runs") == 0) { if (!app_parse_long("bench", a, i + 1 < argc ? argv[++i] : NULL, 1, BENCH_MAX_RUNS, &v)) return APP_EXIT_USAGE; o.runs = (int)v; }
        else if (strcmp(a, "--seed") == 0) { if (!app_parse_u64("bench", a, i + 1 < argc ? argv[++i] : NULL, &o.seed)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--lockstep") == 0) {
            const char *fds = i + 1 < argc ? argv[++i] : NULL;
            char *end = NULL;
            long in = -1, out = -1;
            errno = 0;
            if (fds && fds[0] >= '0' && fds[0] <= '9') in = strtol(fds, &end, 10);
            if (end && *end == ',' && end[1] >= '0' && end[1] <= '9') out = strtol(end + 1, &end, 10);
            if (errno || !end || *end != '\0' || in < 0 || out < 3 || in > 65535 || out > 65535 || in == out)
                return app_usage_error("bench", "--lockstep needs two different file descriptors IN,OUT (OUT not 0, 1 or 2), got '%s'",
                                       fds ? fds : "");
            o.gate_in = (int)in;
            o.gate_out = (int)out;
        }
        else if (a[0] == '-') return app_usage_error("bench", "unknown option '%s'", a);
        else which = a;
    }
    if (o.gate_in >= 0 && strcmp(which, "flock") != 0 && strcmp(which, "steer") != 0)
        return app_usage_error("bench", "--lockstep runs only the flock or the steer scenario, not '%s'", which);
    int found = 0, status = APP_EXIT_OK;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if (strcmp(which, "all") != 0 && strcmp(which, scenarios[i].name) != 0) continue;
        found = 1;
        bench_result r = {0};
        if (!scenarios[i].run(&o, &r)) {
            fprintf(stderr, "patrol bench: error: scenario %s failed (out of memory?)\n", scenarios[i].name);
            status = APP_EXIT_INPUT;
            continue;
        }
        print_result(&o, scenarios[i].name, &r);
    }
    if (!found) return app_usage_error("bench", "unknown scenario '%s'", which);
    return status;
}
