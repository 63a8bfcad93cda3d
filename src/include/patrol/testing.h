/* SPDX-License-Identifier: Zlib */
/* patrol/testing.h - testing levels: helpers for C tests, and the designer's `.test` files.
 *
 * Helpers for any C test framework (no Check in here), each built on the public world API:
 *
 *     pt_world *w = pt_world_create(&map, &lib, &desc, &err);
 *     int g = pt_test_find_guard(w, "corridor");              // its world id, or -1
 *     pt_cell cells[256];
 *     int n = pt_test_pattern_cells(w, g, cells, 256);        // its round, as placed
 *     pt_test_entity_cell at = {g, cells[5]};                 // the guard on its 6th cell
 *     long t = pt_test_step_until(w, pt_test_entity_at_cell, &at, 600); // <0: never there
 *     long p = pt_test_step_until(w, pt_test_at_cell, &goal, 600);      // the player on a cell
 *     pt_test_sighting s;
 *     if (pt_test_saw_player(w, -1, 1, 3600, &s)) ...         // first sighting by any guard
 *     long row = pt_test_trace_diff(a, alen, b, blen, buf, sizeof buf); // 0: same traces
 *
 * A `.test` file (docs/formats.md, "Tests") lists expectations about deterministic runs of
 * one map; `patrol test` runs it with the functions at the bottom, which are built on the
 * helpers above:
 *
 *     pt_testfile tf;
 *     if (pt_testfile_load(&tf, "maps/demo.test", &err) < 0) ...  // located error
 *     // load tf.map_path and its patterns, then:
 *     if (pt_testfile_bind(&tf, &map, &lib, &err) < 0) ...       // names, cells, routes
 *     for (int i = 0; i < tf.count; i++) {
 *         pt_world_desc d; pt_expect_desc(&tf, &tf.items[i], &d);
 *         pt_world *w = pt_world_create(&map, &lib, &d, &err);
 *         pt_test_result r; pt_expect_run(w, &tf.items[i], &r, NULL);
 *         pt_world_destroy(w);
 *     }
 *     pt_testfile_fini(&tf);
 *
 * Determinism: every expectation is its own run of a fresh world, as `patrol sim` runs one
 * (same seed and player route give the same trace), so a failure can be replayed.
 * Memory: a pt_testfile owns its expectations (pt_testfile_fini frees them); the helpers
 * allocate nothing. Cost: one world tick per stepped tick, plus one sight check per guard.
 */
#ifndef PATROL_TESTING_H
#define PATROL_TESTING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "config.h"
#include "error.h"
#include "map.h"
#include "pattern.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* ---- helpers ------------------------------------------------------------------------- */

/* A condition on the world after a step: nonzero when met. */
typedef int (*pt_test_pred)(const pt_world *w, void *user);

/* Steps w until pred(w, user) is nonzero after a step, at most max_ticks steps. Returns how
 * many steps it took (1..max_ticks), or -1 when pred never held (w is then max_ticks steps
 * further). pred is not asked before the first step. */
long pt_test_step_until(pt_world *w, pt_test_pred pred, void *user, long max_ticks);

/* Ready predicates for pt_test_step_until: user points to a pt_cell, the player must stand
 * on it; or to a pt_event_kind, an event of that kind happened in the last step. */
int pt_test_at_cell(const pt_world *w, void *user);
int pt_test_event_happened(const pt_world *w, void *user);

/* Any entity on a cell: pt_test_entity_at_cell's user points to one of these (id: a world
 * id, the player 0; an unknown id is never there). */
typedef struct pt_test_entity_cell {
    int id;
    pt_cell cell;
} pt_test_entity_cell;
int pt_test_entity_at_cell(const pt_world *w, void *user);

/* The first event of a kind in the last step, copied to *out (may be NULL); 1 if any. */
int pt_test_event(const pt_world *w, pt_event_kind kind, pt_event *out);

/* The world id of the guard called name, or -1 (guards only: the player, prey and flock
 * members are not guards). */
int pt_test_find_guard(const pt_world *w, const char *name);

/* The cells entity id's patrol pattern visits, as the world placed it (pt_patrun_cells of
 * its runner, in walking order; cells that are not walkable left out). Writes up to max,
 * returns the total (0 for an entity without a pattern or an unknown id). */
int pt_test_pattern_cells(const pt_world *w, int id, pt_cell *out, int max);

/* 1 when guard id's view cone, as the brain tests it now (pt_can_see from its position and
 * heading with its view distance and angle), reaches the centre of cell x,y. */
int pt_test_cone_covers(const pt_world *w, int id, int x, int y);

/* Who saw the player, where. */
typedef struct pt_test_sighting {
    uint64_t tick;
    int guard;           /* world id */
    pt_cell guard_at, player_at;
} pt_test_sighting;

/* Whether guard (a world id; -1 = any guard, the lowest id first) saw the player in the
 * last step (its sight check: pt_entity.sees_player). Fills *out (may be NULL); 1 if so. */
int pt_test_sees_player(const pt_world *w, int guard, pt_test_sighting *out);

/* Steps w until tick `to` and returns 1 at the first tick in [from, to] on which guard (-1 =
 * any) saw the player, with *out filled (may be NULL) and w left on that tick; 0 when none
 * did (w is then on tick `to`, or on the tick its round ended: end_round_on_catch). Ticks
 * before `from` are stepped without looking. */
int pt_test_saw_player(pt_world *w, int guard, uint64_t from, uint64_t to, pt_test_sighting *out);

/* Compares two traces as pt_world_trace_rows writes them (text, `len` bytes each) row by
 * row. Returns 0 when they are the same, else the 1-based row of the first difference,
 * writing to buf (cap bytes; may be NULL) a compact description: "row R (tick T, id I):
 * FIELD A -> B, ...; D rows differ" (a missing row: "only in the first/second trace"). */
long pt_test_trace_diff(const char *a, size_t alen, const char *b, size_t blen, char *buf, size_t cap);

/* ---- .test files ---------------------------------------------------------------------- */

/* Defaults of the optional keys (seconds), and the limits. */
#define PT_TEST_DEFAULT_WITHIN 60.0  /* visits, caught, goal: within= */
#define PT_TEST_DEFAULT_FOR 60.0     /* stays, covers, unseen: for= */
#define PT_TEST_DEFAULT_EVERY 10.0   /* covers: every= */
#define PT_TEST_DEFAULT_MARGIN 0.0   /* solvable: margin= */
#define PT_TEST_MAX_MARGIN 10.0      /* solvable: margin= at most (the solver's PT_SOLVE_MARGIN_CAP) */
#define PT_TEST_MAX_SECONDS 3600.0   /* any time key */
#define PT_TEST_MAX_CELLS 32         /* cells of one visits line */
#define PT_TEST_MAX_EXPECTS 1024     /* expectations in a file */
#define PT_TEST_MAX_PATTERN_FILES 16 /* patterns lines */

typedef enum pt_expect_kind {
    PT_EXPECT_VISITS = 0, /* a guard stands on cells in this order within a time */
    PT_EXPECT_STAYS,      /* a guard never leaves an area */
    PT_EXPECT_COVERS,     /* a guard's cone covers a cell at least once every N seconds */
    PT_EXPECT_UNSEEN,     /* no guard sees the player (until the goal) */
    PT_EXPECT_CAUGHT,     /* the player is caught within a time (first by a given guard) */
    PT_EXPECT_GOAL,       /* the player reaches the goal within a time, never caught */
    PT_EXPECT_SOLVABLE,   /* the level can be won unseen with a safety margin (pt_solve) */
    PT_EXPECT_KIND_COUNT
} pt_expect_kind;

/* A route of the player: "" = the file's `player` line, else the map's player pattern. */
#define PT_TEST_ROUTE_NONE "none" /* route=none: the player stands at its start */

typedef struct pt_expect {
    pt_expect_kind kind;
    int line, col;                 /* the expectation's first word */
    char guard[PT_MAX_NAME];       /* visits, stays, covers; caught: by= ("" = any guard) */
    int guard_col;
    pt_cell cells[PT_TEST_MAX_CELLS]; /* visits: in order; covers: cells[0] */
    int cell_col[PT_TEST_MAX_CELLS];
    int ncells;
    pt_cell area_lo, area_hi;      /* stays: the area, inclusive */
    int area_col;
    double within, duration, every, margin; /* seconds (resolved: defaults filled) */
    char route[PT_MAX_NAME];       /* route= ("" = default) */
    int route_col;
    const pt_pattern *route_pat;   /* set by pt_testfile_bind (NULL: the default or none) */
    char text[256];                /* the line as written, comments and extra blanks dropped */
} pt_expect;

typedef struct pt_testfile {
    char path[PT_MAX_PATH];
    char map_path[PT_MAX_PATH];    /* resolved against the test file's folder */
    int map_line, map_col;
    uint64_t seed;                 /* 0 = the map's seed (or 1) */
    char route[PT_MAX_NAME];       /* `player NAME`: the default route ("" = the map's) */
    int route_line, route_col;
    const pt_pattern *route_pat;   /* set by pt_testfile_bind */
    char pattern_files[PT_TEST_MAX_PATTERN_FILES][PT_MAX_PATH]; /* resolved */
    int pattern_line[PT_TEST_MAX_PATTERN_FILES], pattern_col[PT_TEST_MAX_PATTERN_FILES];
    int npattern_files;
    pt_expect *items;
    int count;
    /* `script FILE` (docs/formats.md, "Scripts"): resolved against the test file's folder
     * ("" = none); loaded and checked against the map by pt_testfile_bind, which sets
     * `script` (owned: pt_testfile_fini frees it). */
    char script_path[PT_MAX_PATH];
    int script_line, script_col;
    struct pt_script *script;
} pt_testfile;

/* Reads a .test file (or text in memory; name is used in errors and to resolve the file
 * names in it). On error returns the code with err located and *tf holds nothing to free. */
int pt_testfile_load(pt_testfile *tf, const char *path, pt_error *err);
int pt_testfile_parse(pt_testfile *tf, const char *text, size_t len, const char *name, pt_error *err);
void pt_testfile_fini(pt_testfile *tf);

/* Checks the file against its loaded map and library: loads the file's `patterns` files into
 * lib, then every guard name must be a guard of the map, every cell inside it, every route a
 * pattern of lib (or `none`); errors are located in the .test file, with the nearest name
 * as a suggestion. Every route is then linted as the player's walk on the map
 * (pt_pattern_lint_route): its first problem is located in the pattern file, the message
 * ending with the test line that asks for it. Sets the route_pat fields. */
int pt_testfile_bind(pt_testfile *tf, const pt_map *map, pt_patlib *lib, pt_error *err);

/* The world an expectation runs in: as `patrol sim` makes it (the file's seed, the player
 * on the expectation's route, else the file's, else the map's; a catch sends the player
 * back to the start); route=none leaves the player standing at its start. */
void pt_expect_desc(const pt_testfile *tf, const pt_expect *x, pt_world_desc *out);

typedef enum pt_test_status { PT_TEST_PASS = 0, PT_TEST_FAIL, PT_TEST_SKIP } pt_test_status;

typedef struct pt_test_result {
    pt_test_status status;
    uint64_t tick;                 /* the tick that decided it (w is left on it) */
    char text[256];                /* what happened: the evidence, or what happened instead */
} pt_test_result;

/* Runs expectation x on a fresh world w (made with pt_expect_desc) until it is decided,
 * leaving w on the deciding tick. trace (may be NULL) gets the trace header and every row
 * from tick 0 up to that tick. `solvable` runs pt_solve on w's map, patterns and seed (w is
 * not stepped; margin= becomes opts.margin_ticks, within= the horizon). Returns the status. */
pt_test_status pt_expect_run(pt_world *w, const pt_expect *x, pt_test_result *res, FILE *trace);
/* pt_expect_run with a script (patrol/script.h; NULL = none, as pt_expect_run) applied to w
 * before each step (its own cursor from the first command). When the world refuses one of
 * its commands the expectation fails there, the text giving the script's located error. */
pt_test_status pt_expect_run_script(pt_world *w, const pt_expect *x, const struct pt_script *script, pt_test_result *res,
                                    FILE *trace);

/* "visits", "stays", ...; "unknown" out of range. */
const char *pt_expect_kind_name(pt_expect_kind k);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
