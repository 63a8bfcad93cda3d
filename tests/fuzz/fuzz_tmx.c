/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the Tiled TMX parser must return PT_OK or a located error, never crash,
 * never leak. Routes go into a pattern library that already holds a pattern: a failed load
 * must leave it unchanged (all or nothing). */
#include <patrol/tmx.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char prev[] = "pattern keep\n  kind path\n  points 1,1 3,1\nend\n";
    pt_map m;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (pt_patlib_parse(&lib, prev, sizeof prev - 1, "prev.pat", &err) != PT_OK) __builtin_trap();
    const pt_pattern *keep = lib.items[0];
    if (pt_tmx_parse(&m, &lib, (const char *)data, size, "fuzz.tmx", &err) == PT_OK) {
        if (m.w < 1 || m.h < 1 || m.w > PT_MAP_MAX_W || m.h > PT_MAP_MAX_H) __builtin_trap();
        if (lib.count < 1 || lib.items[0] != keep) __builtin_trap();
        pt_map_fini(&m);
    } else if (err.code >= 0 || err.line < 0 || err.col < 0) {
        __builtin_trap(); /* an error must be an error */
    } else if (lib.count != 1 || lib.items[0] != keep || m.tiles) {
        __builtin_trap(); /* all or nothing */
    }
    pt_patlib_fini(&lib);
    return 0;
}
