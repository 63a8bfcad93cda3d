/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the pattern parser, then a few hundred runner steps of every parsed
 * pattern on a small open map (runners must stay finite and on walkable cells), thrust ticks
 * of odd lengths (0, 1e6, a normal one), the cells and resume helpers, and lint. The input is
 * parsed into a library that already holds a pattern: a failed parse must leave it exactly as
 * it was (all or nothing). */
#include <patrol/pattern.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static pt_map *open_map(void) {
    static pt_map m;
    static int ready;
    if (!ready) {
        pt_error err;
        pt_map_init_blank(&m, 64, 64, &err);
        for (int i = 0; i < 64; i++) {
            pt_map_set(&m, i, 0, '#');
            pt_map_set(&m, 0, i, '#');
        }
        ready = 1;
    }
    return &m;
}

static const double k_dts[] = {1.0 / 60.0, 1.0 / 60.0, 1.0 / 60.0, 0.0, 1e6, 1.0 / 60.0, -1.0, 0.25};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char prev[] = "pattern keep\n  kind path\n  points 1,1 5,1\nend\n";
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (pt_patlib_parse(&lib, prev, sizeof prev - 1, "prev.pat", &err) != PT_OK) __builtin_trap();
    const pt_pattern *keep = lib.items[0];
    pt_pattern keep_copy = *keep;
    int rc = pt_patlib_parse(&lib, (const char *)data, size, "fuzz.pat", &err);
    if (rc == PT_OK) {
        pt_map *m = open_map();
        for (int i = 1; i < lib.count; i++) {
            const pt_pattern *p = pt_patlib_get(&lib, i);
            pt_patrun run;
            pt_cell origin = {32, 32};
            pt_patrun_init(&run, p, origin, origin, 0.0, 1, 1);
            int x = 32, y = 32;
            double h = 0.0;
            for (int t = 0; t < 200; t++) {
                if (p->kind == PT_PAT_THRUST) {
                    pt_patrun_thrust_tick(&run, k_dts[t % 8]);
                    if (!isfinite(run.thrust.pos.x) || !isfinite(run.thrust.pos.y) || !isfinite(run.thrust.angle))
                        __builtin_trap();
                } else {
                    pt_patrun_step(&run, m, &x, &y, &h);
                    if (!pt_map_walkable(m, x, y) || !isfinite(h)) __builtin_trap();
                }
                if (p->kind == PT_PAT_WAYPOINTS && t < pt_patrun_waypoint_count(&run)) {
                    pt_vec2 wp = pt_patrun_waypoint(&run, t);
                    if (!isfinite(wp.x) || !isfinite(wp.y)) __builtin_trap();
                }
            }
            pt_cell cells[16];
            int n = pt_patrun_cells(&run, m, cells, 16);
            if (n < 0) __builtin_trap();
            if (n > 0) pt_patrun_resume_at(&run, m, cells[n > 16 ? 15 : n - 1].x, cells[n > 16 ? 15 : n - 1].y);
            pt_error errs[4];
            pt_pattern_lint(p, m, origin, 0.0, errs, 4);
        }
    } else if (err.code >= 0 || err.line < 0 || err.col < 0) {
        __builtin_trap();
    } else if (lib.count != 1 || lib.items[0] != keep || memcmp(keep, &keep_copy, sizeof keep_copy) != 0) {
        __builtin_trap(); /* all or nothing */
    }
    pt_patlib_fini(&lib);
    return 0;
}
