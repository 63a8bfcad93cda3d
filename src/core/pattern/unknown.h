/* SPDX-License-Identifier: Zlib */
/* unknown.h - the error for an entity naming no pattern of the library (not installed). */
#ifndef PATROL_PATTERN_UNKNOWN_H
#define PATROL_PATTERN_UNKNOWN_H

#include <patrol/map.h>

/* The located error for an entity whose pattern= names no pattern of lib (library.c): at the
 * value, with a suggestion. Returns PT_ERR_UNKNOWN_PATTERN. */
struct pt_patlib;
struct pt_error;
int pt__unknown_pattern(const struct pt_patlib *lib, const pt_map *map, const pt_entity_def *d, struct pt_error *err);

#endif
