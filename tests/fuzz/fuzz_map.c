/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the text map parser must return PT_OK or a located error, never crash,
 * never leak. An accepted map must satisfy what the loader promises (size within the limits,
 * every entity on a walkable tile inside the map) and survive a clone. */
#include <patrol/map.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_map m;
    pt_error err;
    if (pt_map_parse(&m, (const char *)data, size, "fuzz.map", &err) == PT_OK) {
        if (m.w < 1 || m.h < 1 || m.w > PT_MAP_MAX_W || m.h > PT_MAP_MAX_H) __builtin_trap();
        if (!pt_map_walkable(&m, m.player.x, m.player.y)) __builtin_trap();
        for (int i = 0; i < m.nents; i++)
            if (!pt_map_walkable(&m, m.ents[i].x, m.ents[i].y)) __builtin_trap();
        pt_map c;
        if (pt_map_clone(&c, &m) == PT_OK) {
            if (c.w != m.w || c.h != m.h || memcmp(c.tiles, m.tiles, (size_t)m.w * (size_t)m.h) != 0) __builtin_trap();
            pt_map_fini(&c);
        }
        pt_map_fini(&m);
    } else if (err.code >= 0 || err.line < 0 || err.col < 0) {
        __builtin_trap(); /* an error must be an error */
    } else if (m.tiles || m.ents || m.nents) {
        __builtin_trap(); /* a failed load leaves the map zeroed */
    }
    return 0;
}
