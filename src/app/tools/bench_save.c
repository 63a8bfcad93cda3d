/* SPDX-License-Identifier: Zlib */
/* The save scenario of `patrol bench`: what saving a world to memory and loading it back
 * cost (patrol/save.h), on the world scenario's world (1024x1024, N guards) and on the demo
 * level (maps/demo.map, when found from the folder bench runs in), with the saves' sizes. */
#include <patrol/save.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/load.h"
#include "tools/bench.h"

/* One save and one load of w, timed apart (ns); 0 when either fails. */
static int save_load(const pt_world *w, const pt_map *m, const pt_patlib *lib, double *save_ns, double *load_ns,
                     size_t *bytes) {
    void *data;
    size_t size;
    pt_error err;
    double t0 = bench_clock_ns();
    if (pt_world_save(w, NULL, &data, &size, &err) < 0) return 0;
    double t1 = bench_clock_ns();
    pt_world *b = pt_world_load(data, size, m, lib, NULL, &err);
    double t2 = bench_clock_ns();
    pt_world_save_free(data);
    if (!b) {
        fprintf(stderr, "bench save: %s\n", err.message);
        return 0;
    }
    pt_world_destroy(b);
    *save_ns = t1 - t0;
    *load_ns = t2 - t1;
    *bytes = size;
    return 1;
}

/* Each run: T saves and loads (default 1) of the world scenario's world (N guards, default
 * 10,000, stepped 20 ticks) and one pt_world_create of it, then 20 saves and loads of the
 * demo's world (stepped 600 ticks). Medians over all. */
int bench_save(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 10000;
    pt_map m;
    pt_patlib lib;
    if (!bench_world_level(o, 1024, n, 0, 0, &m, &lib)) return 0;
    pt_error err;
    pt_world_desc desc = {.seed = o->seed};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    int ok = w != NULL;
    for (int t = 0; ok && t < 20; t++) pt_world_step(w);
    int each = o->ticks > 0 ? o->ticks : 1, nw = 0;
    double ns[BENCH_MAX_RUNS], wc[BENCH_MAX_RUNS];
    double *ws = malloc(sizeof *ws * (size_t)each * (size_t)o->runs), *wl = malloc(sizeof *wl * (size_t)each * (size_t)o->runs);
    size_t wbytes = 0;
    ok = ok && ws && wl;
    for (int run = 0; ok && run < o->runs; run++) {
        ns[run] = 0;
        for (int k = 0; ok && k < each; k++, nw++) {
            ok = save_load(w, &m, &lib, &ws[nw], &wl[nw], &wbytes);
            ns[run] += ws[nw] + wl[nw];
        }
        /* the part of a load that is pt_world_create */
        double t0 = bench_clock_ns();
        pt_world *c = pt_world_create(&m, &lib, &desc, &err);
        wc[run] = bench_clock_ns() - t0;
        ok = ok && c;
        pt_world_destroy(c);
    }
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    if (ok) {
        r->agents = n;
        r->ticks = each;
        r->threads = 1;
        bench_stats(r, ns, o->runs);
        bench_extra(r, "world_save_ms", bench_median(ws, nw) / 1e6);
        bench_extra(r, "world_load_ms", bench_median(wl, nw) / 1e6);
    }
    free(ws);
    free(wl);
    if (!ok) return 0;
    bench_extra(r, "world_bytes", (double)wbytes);
    bench_extra(r, "world_create_ms", bench_median(wc, o->runs) / 1e6);

    if (access("maps/demo.map", R_OK) != 0) return 1; /* not run from the source folder */
    if (!app_load_map_and_patterns("maps/demo.map", &m, &lib)) return 0;
    w = pt_world_create(&m, &lib, NULL, &err);
    ok = w != NULL;
    for (int t = 0; ok && t < 600; t++) pt_world_step(w);
    enum { EACH = 20 };
    double *ds = malloc(sizeof *ds * EACH * (size_t)o->runs), *dl = malloc(sizeof *dl * EACH * (size_t)o->runs);
    size_t dbytes = 0;
    int nd = 0;
    ok = ok && ds && dl;
    for (int k = 0; ok && k < EACH * o->runs; k++, nd++) ok = save_load(w, &m, &lib, &ds[nd], &dl[nd], &dbytes);
    if (ok) {
        bench_extra(r, "demo_save_us", bench_median(ds, nd) / 1e3);
        bench_extra(r, "demo_load_us", bench_median(dl, nd) / 1e3);
        bench_extra(r, "demo_bytes", (double)dbytes);
    }
    free(ds);
    free(dl);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return ok;
}
