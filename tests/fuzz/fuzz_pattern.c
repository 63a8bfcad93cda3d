/* libFuzzer target: the pattern parser, then a few hundred runner steps of every parsed
 * pattern on a small open map (runners must stay finite and on walkable cells). */
#include <patrol/pattern.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (pt_patlib_parse(&lib, (const char *)data, size, "fuzz.pat", &err) == PT_OK) {
        pt_map *m = open_map();
        for (int i = 0; i < lib.count; i++) {
            const pt_pattern *p = &lib.items[i];
            pt_patrun run;
            pt_cell origin = {32, 32};
            pt_patrun_init(&run, p, origin, origin, 0.0, 1, 1);
            int x = 32, y = 32;
            double h = 0.0;
            for (int t = 0; t < 200; t++) {
                if (p->kind == PT_PAT_THRUST) {
                    pt_patrun_thrust_tick(&run, 1.0 / 60.0);
                    if (!isfinite(run.thrust.pos.x) || !isfinite(run.thrust.pos.y)) __builtin_trap();
                } else {
                    pt_patrun_step(&run, m, &x, &y, &h);
                    if (!pt_map_walkable(m, x, y) || !isfinite(h)) __builtin_trap();
                }
            }
            pt_error errs[4];
            pt_pattern_lint(p, m, origin, 0.0, errs, 4);
        }
    } else if (err.code >= 0) {
        __builtin_trap();
    }
    pt_patlib_fini(&lib);
    return 0;
}
