/* SPDX-License-Identifier: Zlib */
/* The light scenario of `patrol bench`: what switching a light costs (pt_world_set_light) on
 * the world scenario's 1024x1024 map with 1,000 lights, and the world tick with those lights
 * against the same world without them. */
#include <patrol/light.h>
#include <patrol/world.h>

#include <stdio.h>
#include <stdlib.h>

#include "tools/bench.h"

enum { LIGHTS = 1000 };

static void free_all(pt_world *a, pt_world *b, double *us, pt_patlib *lib, pt_map *m) {
    pt_world_destroy(a);
    pt_world_destroy(b);
    free(us);
    pt_patlib_fini(lib);
    pt_map_fini(m);
}

/* Two worlds of the world scenario's level (N guards, default 10000): one without lights, one
 * with 1,000 lights on walkable cells (radius 4..12, level 0.5..1, on; ambient 0.1). Each
 * run: T ticks (default 100) of both, tick by tick (which goes first alternates), each timed;
 * then every light switched off and on again in a random order, each call timed. Reports the
 * median, 99th percentile and largest microseconds per switch over all runs, and the median
 * run's milliseconds per tick with and without the lights. */
int bench_light(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 10000;
    int ticks = o->ticks > 0 ? o->ticks : 100;
    pt_map m;
    pt_patlib lib;
    if (!bench_world_level(o, 1024, n, 0, 0, &m, &lib)) return 0;
    pt_error err;
    pt_world_desc desc = {.seed = o->seed};
    pt_world *dark = pt_world_create(&m, &lib, &desc, &err), *lit = NULL;
    double *us = malloc(sizeof *us * 2 * LIGHTS * (size_t)o->runs);
    m.lights = calloc(LIGHTS, sizeof *m.lights);
    if (!dark || !us || !m.lights) {
        fprintf(stderr, "bench light: %s\n", dark ? "out of memory" : err.message);
        free_all(dark, NULL, us, &lib, &m);
        return 0;
    }
    pt_rng rng;
    pt_rng_seed(&rng, o->seed, 39);
    for (int i = 0; i < LIGHTS; i++) {
        pt_light_def *l = &m.lights[i];
        snprintf(l->name, sizeof l->name, "light%d", i);
        do {
            l->x = (int)pt_rng_below(&rng, 1024);
            l->y = (int)pt_rng_below(&rng, 1024);
        } while (!pt_map_walkable(&m, l->x, l->y));
        l->radius = 4.0 + pt_rng_below(&rng, 801) / 100.0;
        l->level = 0.5 + pt_rng_below(&rng, 51) / 100.0;
        l->on = 1;
    }
    m.nlights = LIGHTS;
    m.ambient = 0.1;
    m.ambient_set = 1;
    lit = pt_world_create(&m, &lib, &desc, &err);
    if (!lit) {
        fprintf(stderr, "bench light: %s\n", err.message);
        free_all(dark, NULL, us, &lib, &m);
        return 0;
    }
    int order[LIGHTS];
    for (int i = 0; i < LIGHTS; i++) order[i] = i;
    double ns_lit[BENCH_MAX_RUNS], ns_dark[BENCH_MAX_RUNS];
    int nus = 0, failed = 0;
    for (int run = 0; run < o->runs; run++) {
        ns_lit[run] = ns_dark[run] = 0;
        for (int t = 0; t < ticks; t++)
            for (int side = 0; side < 2; side++) {
                int with = side ^ (t & 1);
                double t0 = bench_clock_ns();
                pt_world_step(with ? lit : dark);
                double dt = bench_clock_ns() - t0;
                if (with) ns_lit[run] += dt;
                else ns_dark[run] += dt;
            }
        for (int i = LIGHTS - 1; i > 0; i--) { /* a new order each run */
            int j = (int)pt_rng_below(&rng, (uint32_t)(i + 1)), s = order[i];
            order[i] = order[j];
            order[j] = s;
        }
        for (int on = 0; on < 2; on++)
            for (int i = 0; i < LIGHTS; i++) {
                double t0 = bench_clock_ns();
                failed |= pt_world_set_light(lit, order[i], on, NULL) != PT_OK;
                us[nus++] = (bench_clock_ns() - t0) / 1000.0;
            }
    }
    r->agents = n;
    r->ticks = ticks;
    r->threads = 1;
    bench_stats(r, ns_lit, o->runs);
    double med = bench_median(us, nus); /* sorts us */
    bench_extra(r, "us_per_switch_median", med);
    bench_extra(r, "us_per_switch_p99", us[(nus - 1) * 99 / 100]);
    bench_extra(r, "us_per_switch_max", us[nus - 1]);
    double lit_ms = bench_median(ns_lit, o->runs) / ticks / 1e6, dark_ms = bench_median(ns_dark, o->runs) / ticks / 1e6;
    bench_extra(r, "ms_per_tick_lights", lit_ms);
    bench_extra(r, "ms_per_tick_none", dark_ms);
    bench_extra(r, "tick_ms_ratio", dark_ms > 0 ? lit_ms / dark_ms : 0);
    bench_extra(r, "lights", LIGHTS);
    free_all(dark, lit, us, &lib, &m);
    return !failed;
}
