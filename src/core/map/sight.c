/* SPDX-License-Identifier: Zlib */
/* sight.c - the map's sight bitmaps (layout in sight.h): built from the flags, kept in step
 * with pt_map_set, freed with the map. The rays that read them are in senses/los.c. */
#include <patrol/config.h>
#include <patrol/map.h>
#include <stddef.h>
#include <stdint.h>

#include "map/sight.h"

static size_t sight_stride(int len) { return (size_t)(len + 2 * PT_SIGHT_PAD + 63) / 64 * 8 + 8; }

static void sight_put(uint8_t *line, int i, int on) {
    unsigned b = (unsigned)(i + PT_SIGHT_PAD);
    uint8_t bit = (uint8_t)(1u << (b & 7));
    if (on) line[b >> 3] |= bit;
    else line[b >> 3] &= (uint8_t)~bit;
}

int pt__sight_build(pt_map *map) {
    pt__sight_free(map);
    if (map->w < 1 || map->h < 1 || !map->flags) return PT_OK;
    size_t rb = sight_stride(map->w), cb = sight_stride(map->h);
    size_t bytes = sizeof(struct pt_map_sight) + rb * (size_t)map->h + cb * (size_t)map->w;
    struct pt_map_sight *s = PT_CALLOC(bytes, 1);
    if (!s) return PT_ERR_NOMEM;
    s->row_bytes = rb;
    s->col_bytes = cb;
    s->rows = (uint8_t *)(s + 1);
    s->cols = s->rows + rb * (size_t)map->h;
    for (int y = 0; y < map->h; y++) {
        const uint8_t *f = map->flags + (size_t)y * (size_t)map->w;
        for (int x = 0; x < map->w; x++)
            if (f[x] & PT_TILE_OPAQUE) {
                sight_put(s->rows + (size_t)y * rb, x, 1);
                sight_put(s->cols + (size_t)x * cb, y, 1);
            }
    }
    map->sight = s;
    return PT_OK;
}

void pt__sight_cell(pt_map *map, int x, int y) {
    struct pt_map_sight *s = map->sight;
    if (!s) return;
    int on = (map->flags[(size_t)y * (size_t)map->w + (size_t)x] & PT_TILE_OPAQUE) != 0;
    sight_put(s->rows + (size_t)y * s->row_bytes, x, on);
    sight_put(s->cols + (size_t)x * s->col_bytes, y, on);
}

void pt__sight_free(pt_map *map) {
    PT_FREE(map->sight);
    map->sight = NULL;
}
