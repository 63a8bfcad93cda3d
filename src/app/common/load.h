/* SPDX-License-Identifier: Zlib */
/* load.h - loading what a command needs: a map and the patterns it references. */
#ifndef PATROL_APP_LOAD_H
#define PATROL_APP_LOAD_H

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/level.h> /* pt_level_load: how every command loads a map */
#include <patrol/testing.h>

/* A map with its pattern files, linted, as pt_level_load (patrol/level.h) loads it: every
 * command that runs or draws a map loads it so, and so does play's F5. On failure
 * prints the located error to stderr and returns 0; on success returns 1 and the caller
 * owns map and lib (pt_map_fini, pt_patlib_fini). */
int app_load_map_and_patterns(const char *path, pt_map *map, pt_patlib *lib);

/* 1 if ref has the form FILE.pat:NAME; else prints a usage error and returns 0. */
int app_pattern_ref_ok(const char *cmd, const char *ref);

/* Resolves "FILE.pat:NAME": loads FILE into lib if it is not loaded yet (same file path) and
 * returns the pattern, or prints an error and returns NULL. */
const pt_pattern *app_load_pattern_ref(const char *cmd, const char *ref, pt_patlib *lib);

/* Lints a player route on map as the world will walk it (pt_pattern_lint_route), printing
 * every problem (at most 50, then a count) to stderr. Returns how many there are (0 = clean):
 * sim --player-pattern, render --route and check --route refuse a route with any. */
int app_lint_route(const pt_pattern *route, const pt_map *map);

/* "patrol CMD: error: FILE has no pattern 'NAME'; it has: a, b" on stderr, with "did you
 * mean" for a near name; lists the patterns lib loaded from file. */
void app_no_pattern_error(const char *cmd, const char *file, const char *name, const pt_patlib *lib);

/* A test file, its map and patterns, the test file's own pattern files, its names and cells
 * checked against the map, as pt_level_load_test (patrol/level.h) loads them. On failure
 * prints the located error to stderr and returns 0 with nothing to free; on success returns
 * 1 and the caller owns tf, map and lib. */
int app_load_test(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib);
/* The same; when the map does not load and map_checked(map path, user) says it is checked on
 * its own as well (patrol check x.map x.test), one line at the test's map line says so
 * instead of the map's own error, printed there. */
int app_load_test_ex(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib,
                     int (*map_checked)(const char *map, void *user), void *user);

#endif
