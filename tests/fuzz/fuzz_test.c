/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the .test parser (pt_testfile_parse), its binding to a map
 * (pt_testfile_bind) and the runs (pt_expect_run, each cut to two seconds). Each must
 * return a verdict or a located error, never crash or leak; a parsed file's values stay in
 * their documented ranges. */
#include <patrol/testing.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char k_map[] = "player at=1,1 pattern=walk\n"
                            "guard g at=8,1 heading=180 view=5 fov=90\n"
                            "guard pacer at=1,3 pattern=pace view=2 fov=60\n"
                            "prey hen at=8,2\n"
                            "grid\n##########\n#........#\n#........#\n#.......E#\n##########\nend\n";
static const char k_pat[] = "pattern walk\n  kind path\n  points 1,1 8,1\n  at_end stop\nend\n"
                            "pattern pace\n  kind path\n  points 1,3 6,3\n  at_end reverse\nend\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_testfile tf;
    pt_error err;
    if (pt_testfile_parse(&tf, (const char *)data, size, "fuzz.test", &err) != PT_OK) {
        if (err.code >= 0 || err.line < 0 || err.col < 0) __builtin_trap(); /* an error must be an error */
        return 0;
    }
    if (tf.count < 1 || !tf.map_path[0]) __builtin_trap();
    for (int i = 0; i < tf.count; i++) {
        const pt_expect *x = &tf.items[i];
        if (!(x->within > 0 && x->within <= PT_TEST_MAX_SECONDS) || !(x->duration > 0 && x->duration <= PT_TEST_MAX_SECONDS) ||
            !(x->every > 0 && x->every <= PT_TEST_MAX_SECONDS) || !(x->margin >= 0 && x->margin <= PT_TEST_MAX_MARGIN) || x->ncells > PT_TEST_MAX_CELLS)
            __builtin_trap();
    }
    pt_map map;
    pt_patlib lib;
    if (pt_map_parse(&map, k_map, sizeof k_map - 1, "fuzz.map", &err) != PT_OK) __builtin_trap();
    pt_patlib_init(&lib);
    if (pt_patlib_parse(&lib, k_pat, sizeof k_pat - 1, "fuzz.pat", &err) != PT_OK) __builtin_trap();
    tf.npattern_files = 0; /* no files from the fuzzer's text */
    if (pt_testfile_bind(&tf, &map, &lib, &err) == PT_OK) {
        for (int i = 0; i < tf.count && i < 8; i++) {
            pt_expect x = tf.items[i];
            x.within = fmin(x.within, 2.0);
            x.duration = fmin(x.duration, 2.0);
            pt_world_desc d;
            pt_expect_desc(&tf, &x, &d);
            pt_world *w = pt_world_create(&map, &lib, &d, &err);
            if (!w) __builtin_trap();
            pt_test_result r;
            pt_test_status st = pt_expect_run(w, &x, &r, NULL);
            if (st != PT_TEST_PASS && st != PT_TEST_FAIL && st != PT_TEST_SKIP) __builtin_trap();
            if (r.tick > 121 || !r.text[0]) __builtin_trap();
            pt_world_destroy(w);
        }
    } else if (err.code >= 0 || err.line < 1 || err.col < 1) {
        __builtin_trap();
    }
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    pt_testfile_fini(&tf);
    return 0;
}
