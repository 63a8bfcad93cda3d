/* SPDX-License-Identifier: Zlib */
/* patrol/level.h - a level as the patrol command takes it: file kinds, loading, checking, tests.
 *
 * Every command that runs or draws a map loads it with pt_level_load (`patrol check` checks
 * it with pt_level_check_map, `patrol test` runs a .test file with pt_level_load_test and
 * pt_level_run_expect); a game or a script that calls the same functions gets the same
 * checks and the same located errors, byte for byte:
 *
 *     pt_map map; pt_patlib lib; pt_error err;
 *     if (pt_level_load("maps/demo.map", &map, &lib, &err) < 0) {
 *         pt_error_print(stderr, &err);          // nothing to free
 *     } else {
 *         pt_world *w = pt_world_create(&map, &lib, NULL, &err);
 *         ...
 *         pt_patlib_fini(&lib); pt_map_fini(&map);
 *     }
 *
 * File kinds: a file is taken as what its first significant line shows (a test file named
 * .map is a test file), else as its extension says; a file given where another kind is due
 * gets a located error at its first word ("this is a pattern file (it begins with
 * 'pattern'); a map starts with 'format 1' ...").
 * Memory: the loaders fill caller-owned structs (pt_map_fini, pt_patlib_fini,
 * pt_testfile_fini free them); on failure they hold nothing to free. Cost: a kind check reads
 * at most the first 200 lines of a file.
 */
#ifndef PATROL_LEVEL_H
#define PATROL_LEVEL_H

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"
#include "testing.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

typedef enum pt_file_kind {
    PT_FILE_MAP = 0, /* a text map (.map); also anything not recognised as another kind */
    PT_FILE_TMX,     /* a Tiled map (.tmx) */
    PT_FILE_TSX,     /* a Tiled tileset (.tsx) */
    PT_FILE_PAT,     /* a pattern file (.pat) */
    PT_FILE_STEER,   /* a steering parameters file (.steer) */
    PT_FILE_TEST,    /* a designer's test file (.test) */
    PT_FILE_REC,     /* a recording of patrol play (.rec) */
    PT_FILE_LEVELS,  /* a level list (maps/levels.txt): its first word is a .map or .tmx path */
    PT_FILE_SCRIPT,  /* timed world commands (.script): its first word is `at` */
    PT_FILE_KIND_COUNT
} pt_file_kind;

/* The kind of path: by its first line that is not blank or a comment when that line's first
 * word belongs to one kind only (`pattern`, `format`, `set`, `map`, <map / <tileset in XML, ...:
 * a test file named .map is a test file; a first word that is a path ending in .map or .tmx,
 * quoted or not, is a level list's); otherwise by its extension (.map .tmx .tsx .pat .steer
 * .test .rec .script, any case); otherwise a map. A file that cannot be read goes by its
 * extension, or counts as a map (the map loader then reports why). */
pt_file_kind pt_file_kind_of(const char *path);

/* "map", "Tiled map", "Tiled tileset", "pattern file", "steering file", "test file",
 * "recording", "level list", "script"; "map" out of range. */
const char *pt_file_kind_name(pt_file_kind k);

/* 1 if path is a map or a Tiled map (pt_file_kind_of). */
int pt_file_is_map(const char *path);

/* Where a map is expected: PT_OK if path is a map or a Tiled map by pt_file_kind_of, or may
 * be one; otherwise PT_ERR_BAD_VALUE with err located at the file's first word ("this is a
 * pattern file (it begins with 'pattern'); a map starts with 'format 1' and has a 'grid'
 * block, or is a Tiled .tmx"; no place when the file has no first word). */
int pt_level_expect_map(const char *path, pt_error *err);

/* Where a pattern file is expected: PT_OK if path is one (it begins with `pattern`, or it is a
 * .pat or has no known extension and does not begin like another kind: the pattern loader
 * then says the rest); otherwise PT_ERR_BAD_VALUE located as pt_level_expect_map's ("this is
 * a map (it begins with 'format'); a pattern file starts with 'pattern NAME'", then "; " and
 * `instead` when it is not NULL). */
int pt_level_expect_pattern(const char *path, const char *instead, pt_error *err);

/* Loads a map (.map, or Tiled .tmx by its name) as every patrol command loads one: refused
 * when it is another kind of file (pt_level_expect_map); then every pattern file it names
 * (each refused when it is not a pattern file, the hint naming the map's `patterns` line) into
 * lib, which this initialises (a .tmx adds its routes to it first); then every entity's
 * pattern linted against the map as the world places it (pt_patlib_lint_map): the first
 * problem refuses the map. Returns PT_OK, or the negative code of the first problem with err
 * located (err may be NULL); on failure map and lib hold nothing to free. */
int pt_level_load(const char *path, pt_map *map, pt_patlib *lib, pt_error *err);

/* Loads the map's i-th pattern file into lib (pt_patlib_load_map_file), first refusing a file
 * of another kind as pt_level_expect_pattern does (its hint: "MAP names it on line N, where a
 * 'patterns' line wants a .pat file"). */
int pt_level_load_map_pattern_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err);

/* Loads a .test file (pt_testfile_load), its map as pt_level_load loads it (a map that
 * cannot be read is reported at the test file's `map` line: "map 'PATH': why"), refuses a
 * `patterns` line naming a file of another kind, then binds the file to the map
 * (pt_testfile_bind). Returns PT_OK, or a negative code with err located and nothing to
 * free; on success the caller owns tf, map and lib. */
int pt_level_load_test(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib, pt_error *err);

/* Runs expectation i (0..tf->count - 1) of a loaded test file on a fresh world made as
 * pt_expect_desc says, as `patrol test` runs it (pt_expect_run_script with the file's script),
 * then frees the world. Returns the pt_test_status (>= 0) with *res filled, or a negative
 * code with err set when the world refuses the map (or i is out of range: PT_ERR_RANGE). */
int pt_level_run_expect(const pt_testfile *tf, int i, const pt_map *map, const pt_patlib *lib, pt_test_result *res,
                        pt_error *err);

/* What pt_level_check_map reports, in the order `patrol check` prints them. */
typedef enum pt_level_problem {
    PT_LEVEL_ERROR = 0, /* the map or a file it names is refused */
    PT_LEVEL_LINT,      /* an entity's pattern does not fit the map (" on MAP" ends the message) */
    PT_LEVEL_WARNING    /* loads, but does not play as meant (the map is still valid) */
} pt_level_problem;
typedef void (*pt_level_report)(void *user, const pt_error *problem, pt_level_problem kind);

/* Checks a map as `patrol check` does before it lints routes and makes the world: the map
 * (refused when it is another kind of file), every pattern file it names (each error
 * reported, the rest still loaded), then when those loaded every entity's pattern linted
 * (each problem reported, the message ending " on PATH") and the warnings of
 * pt_level_warnings, then the steering file it names. Returns the number of errors and
 * lint problems reported (0: valid). *loaded is 1 when map and lib hold the map (the caller
 * frees them, even when there were problems), 0 when the map itself did not load (nothing
 * to free). report may be NULL. */
int pt_level_check_map(const char *path, pt_map *map, pt_patlib *lib, pt_level_report report, void *user, int *loaded);

/* What loads but does not play as meant, each as a located warning (err.code PT_OK, at the
 * player's or the entity's line in the map file): no goal tile; a goal tile kind that cannot
 * be walked on; walkable goal tiles none of which the player can walk to from its start; an
 * entity that starts off its tile pattern as placed (naming the nearest cell of it, where
 * the world walks it first, or saying it cannot walk to any); lights or lanterns on a map
 * whose ambient level is 1. Writes up to max (out may be NULL when max is 0) and returns how
 * many there are. */
int pt_level_warnings(const pt_map *map, const pt_patlib *lib, pt_error *out, int max);

/* Checks a Tiled tileset (.tsx) alone as `patrol check` does: read by the Tiled loader as the
 * tileset of a one-tile map in its folder. PT_OK, or the code of a problem located in the
 * tileset (or a file it names) with err set. */
int pt_level_check_tileset(const char *path, pt_error *err);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
