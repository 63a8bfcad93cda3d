/* SPDX-License-Identifier: Zlib */
/* lights.h - the map's light declarations (lights.c): the `ambient`, `relight` and `light`
 * lines of a .map, the checks of the lights once the grid is read, shared with the Tiled
 * loader (not installed). docs/formats.md, "Lights". */
#ifndef PATROL_MAP_LIGHTS_H
#define PATROL_MAP_LIGHTS_H

#include <patrol/map.h>

struct pt__line;
struct pt__text;

#define PT__LIGHTS_MAX 65536      /* light lines in one map */
#define PT__LIGHT_MAX_RADIUS 32.0 /* tiles: a light's radius and a guard's lantern= */

/* An `ambient L`, `relight on|off` or `light NAME at=X,Y radius=R [level=L] [on|off]` line
 * into map (located errors; the cells are checked by pt__map_lights_check). */
int pt__map_light_line(pt_map *map, const struct pt__line *ln, pt_error *err);
/* Adds one light declaration (the .map and .tmx readers); PT_ERR_NOMEM/PT_ERR_LIMIT located at
 * its line:col. */
int pt__map_light_add(pt_map *map, const pt_light_def *l, pt_error *err);
/* Light l's cell: inside the map (PT_ERR_OUT_OF_MAP) and not opaque in its grid
 * (PT_ERR_BAD_VALUE), errors at line:col. */
int pt__map_light_cell_check(const pt_map *map, const pt_light_def *l, int line, int col, pt_error *err);
/* The first light (in declaration order) whose name an earlier one has, with that earlier
 * one in *first; -1 when every name is unique. O(n log n); -2 out of memory. */
int pt__map_light_dup(const pt_map *map, int *first);
/* Once a .map's grid is built: the first problem in declaration order of a light, its cell
 * (as pt__map_light_cell_check, at its at= value) or a name an earlier light has
 * (PT_ERR_DUPLICATE at the name, found again in the text t). */
int pt__map_lights_check(const pt_map *map, const struct pt__text *t, pt_error *err);

#endif
