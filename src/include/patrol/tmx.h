/* SPDX-License-Identifier: Zlib */
/* patrol/tmx.h - maps drawn in the Tiled editor (mapeditor.org), read from .tmx files.
 *
 * pt_tmx_load fills the same pt_map as the text loader (pt_map_load) and appends the routes
 * drawn as polylines and polygons to a pattern library as path patterns, so a .tmx works
 * wherever a .map does. docs/tiled.md has the rules: tile properties (walkable, opaque, goal,
 * name, sprite), object classes (player, guard, prey, flock, obstacle, route), their
 * properties, the layer and tileset rules, and every error.
 *
 *     pt_map map; pt_patlib lib; pt_error err;
 *     pt_patlib_init(&lib);
 *     int rc = pt_tmx_is_tmx(path) ? pt_tmx_load(&map, &lib, path, &err)
 *                                  : pt_map_load(&map, path, &err);
 *     // then, as for a .map: load map.pattern_files[i] into lib (pt_patlib_load)
 *
 * Supported: orthogonal fixed-size maps with square tiles; tile layers in CSV, base64
 * (uncompressed, zlib, gzip) and XML encodings; embedded and external (.tsx) tilesets;
 * tile and object layers inside group layers. Not supported (clear errors): infinite maps,
 * zstd, isometric/hexagonal maps, object templates, DTDs in the file.
 * Errors are located like every patrol error: file (the .tmx, or the .tsx the problem is
 * in), line, and the column of the offending attribute value when it can be found (0 when
 * it cannot: several same-named tags on one line).
 * Memory: the map owns its arrays (pt_map_fini). libxml2 allocates with its own allocator
 * during a load and everything is freed before returning; the library never calls
 * xmlCleanupParser (a program may at exit). Cost: linear in the file size; a base64 layer
 * is decoded into a temporary buffer of 4 bytes per cell.
 */
#ifndef PATROL_TMX_H
#define PATROL_TMX_H

#include <stddef.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

#define PT_TMX_MAX_TILESETS      256      /* tilesets in one map */
#define PT_TMX_MAX_TILESET_TILES 65536    /* tiles in one tileset (local ids 0..limit-1) */
#define PT_TMX_MAX_OBJECTS       262144   /* objects in one map, all object layers together */
#define PT_TMX_MAX_DEPTH         32       /* nested group layers */

/* 1 when path names a Tiled map (ends in ".tmx", any case), else 0. */
int pt_tmx_is_tmx(const char *path);

/* Loads a .tmx map. Fills *map (as pt_map_load: zero entity fields mean default; the map's
 * `patterns` and `steering` properties fill pattern_files / steering_file, resolved against
 * the map's folder) and appends one path pattern per route polyline/polygon to lib, all or
 * nothing: on error *map is zeroed and lib is unchanged. lib may be NULL (routes are then
 * checked and linked by name but no pattern is built). Returns PT_OK or a negative code with
 * err filled (file, line, col, message, source line). err may be NULL. */
int pt_tmx_load(pt_map *map, pt_patlib *lib, const char *path, pt_error *err);

/* Same from memory. name (may be NULL) is used in errors, as map->path, as the file of the
 * route patterns, and to resolve external tilesets and files relative to its folder. */
int pt_tmx_parse(pt_map *map, pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
