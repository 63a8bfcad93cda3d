/* SPDX-License-Identifier: Zlib */
/* sight.h - the map's sight bitmaps: a cache of the opaque flags that pt_los_clear reads
 * (not installed). map/sight.c builds and keeps them; senses/los.c reads them.
 *
 * The map keeps its opaque bits twice, one bit per cell: by rows (bit x + PT_SIGHT_PAD of row
 * y) and by columns (bit y + PT_SIGHT_PAD of column x). A ray whose major axis is x crosses
 * each row it touches in one run of cells; one unaligned 64-bit load of that row covers the
 * whole run, so a ray costs a load per row instead of a dependent step per cell, and the
 * loads of different rows do not wait on each other. Rays with y major use the columns the
 * same way. Each row of a line is padded by PT_SIGHT_PAD bits on both sides and 8 bytes at
 * the end so a window never reads outside its row. */
#ifndef PATROL_MAP_SIGHT_H
#define PATROL_MAP_SIGHT_H

#include <patrol/map.h>
#include <stddef.h>
#include <stdint.h>

enum { PT_SIGHT_PAD = 32 };

struct pt_map_sight {
    size_t row_bytes, col_bytes; /* stride of one row (one column) of bits */
    uint8_t *rows, *cols;        /* h rows, w columns; both in the same allocation as this */
};

/* (Re)builds map->sight from map->flags; PT_ERR_NOMEM leaves it NULL (rays walk the flags). */
int pt__sight_build(pt_map *map);
/* Copies the flags' opaque bit of cell (x, y) (inside the map) into map->sight, if any. */
void pt__sight_cell(pt_map *map, int x, int y);
void pt__sight_free(pt_map *map);

#endif
