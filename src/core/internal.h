/* internal.h - private helpers shared between core modules (not installed). */
#ifndef PATROL_INTERNAL_H
#define PATROL_INTERNAL_H

#include <patrol/map.h>

/* Fills map->legend with the default tile kinds; returns how many. */
int pt__map_default_legend(pt_map *map);

#endif
