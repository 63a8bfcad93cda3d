/* SPDX-License-Identifier: Zlib */
/* sight.h - the map's sight bitmaps: a cache of the opaque flags that pt_los_clear reads
 * (not installed). */
#ifndef PATROL_MAP_SIGHT_H
#define PATROL_MAP_SIGHT_H

#include <patrol/map.h>

/* (Re)builds map->sight from map->flags; PT_ERR_NOMEM leaves it NULL (rays walk the flags). */
int pt__sight_build(pt_map *map);
/* Copies the flags' opaque bit of cell (x, y) (inside the map) into map->sight, if any. */
void pt__sight_cell(pt_map *map, int x, int y);
void pt__sight_free(pt_map *map);

#endif
