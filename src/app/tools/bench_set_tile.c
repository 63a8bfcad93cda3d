/* SPDX-License-Identifier: Zlib */
/* The set-tile scenario of `patrol bench`: what a tile change costs (pt_world_set_tile) on the
 * world scenario's 1024x1024 map with its guards. */
#include <patrol/world.h>

#include <stdio.h>
#include <stdlib.h>

#include "tools/bench.h"

/* Each run: T toggles (default 200) of a random floor cell, to wall and back (two changes,
 * each timed alone), then 10 ticks untimed so the guards' plans move on. Reports the median,
 * the 99th percentile and the largest microseconds per change over all runs (the goal is 50
 * for the median), and the median and largest of each run's first change, which comes right
 * after steps, as a game's would (the world's data no longer in the caches). */
int bench_set_tile(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 10000;
    int toggles = o->ticks > 0 ? o->ticks : 200;
    pt_map m;
    pt_patlib lib;
    if (!bench_world_level(o, 1024, n, 0, 0, &m, &lib)) return 0;
    pt_error err;
    pt_world_desc desc = {.seed = o->seed};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    double *us = malloc(sizeof *us * 2 * (size_t)toggles * (size_t)o->runs);
    double first[BENCH_MAX_RUNS];
    if (!w || !us) {
        if (!w) fprintf(stderr, "bench set-tile: %s\n", err.message);
        free(us);
        pt_world_destroy(w);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
        return 0;
    }
    for (int t = 0; t < 20; t++) pt_world_step(w); /* guards under way */
    pt_rng rng;
    pt_rng_seed(&rng, o->seed, 38);
    const pt_map *wm = pt_world_map(w);
    double ns[BENCH_MAX_RUNS];
    int nus = 0, failed = 0;
    for (int run = 0; run < o->runs; run++) {
        double total = 0;
        for (int k = 0; k < toggles; k++) {
            int x, y;
            do {
                x = (int)pt_rng_below(&rng, 1024);
                y = (int)pt_rng_below(&rng, 1024);
            } while (pt_map_tile(wm, x, y)->ch != '.');
            for (int back = 0; back < 2; back++) {
                double t0 = bench_clock_ns();
                failed |= pt_world_set_tile(w, x, y, back ? '.' : '#', NULL) != PT_OK;
                double dt = bench_clock_ns() - t0;
                total += dt;
                if (k == 0 && back == 0) first[run] = dt / 1000.0;
                us[nus++] = dt / 1000.0;
            }
        }
        ns[run] = total;
        for (int t = 0; t < 10; t++) pt_world_step(w);
    }
    r->agents = n;
    r->ticks = toggles;
    r->threads = 1;
    bench_stats(r, ns, o->runs);
    double med = bench_median(us, nus); /* sorts us */
    bench_extra(r, "us_per_change_median", med);
    bench_extra(r, "us_per_change_p99", us[(nus - 1) * 99 / 100]);
    bench_extra(r, "us_per_change_max", us[nus - 1]);
    double first_med = bench_median(first, o->runs); /* sorts first */
    bench_extra(r, "us_first_change_median", first_med);
    bench_extra(r, "us_first_change_max", first[o->runs - 1]);
    bench_extra(r, "goal_us", 50);
    bench_extra(r, "meets_goal", med <= 50);
    free(us);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return !failed;
}
