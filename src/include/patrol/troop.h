/* SPDX-License-Identifier: Zlib */
/* patrol/troop.h - many tile pattern followers (path, matrix, control) stepped together.
 *
 * The bulk path for games that run huge numbers of simple patrollers (the world keeps a
 * pt_patrun per guard; this is to pattern followers what pt_crowd is to steering). Each
 * follower is a runner plus an exact rational speed: steps_num actions per steps_den ticks.
 * pt_troop_step does, for every follower, exactly what this loop does (same cells, same
 * headings bit for bit, same done flags, same matrix random choices):
 *
 *     if (!pt_patrun_hold_tick(&run)) {            // a `wait N` holds the clock N ticks
 *         acc += steps_num;
 *         if (acc >= steps_den) { acc -= steps_den; pt_patrun_step(&run, map, ...); }
 *     }
 *
 *     pt_troop t; pt_troop_init(&t, &map, 1000);
 *     int id = pt_troop_add(&t, pattern, origin, start, heading, seed, entity_id, 3, 60, 0);
 *     pt_troop_sort(&t);                          // optional, after adding many
 *     for (;;) { pt_troop_step(&t); pt_cell c = pt_troop_cell(&t, id); ... }
 *     pt_troop_fini(&t);
 *
 * Followers never interact; only the map's walkability matters (read every action, so a
 * door that opens is seen at once). Thrust and waypoints patterns are rejected.
 * Memory: compact records (20-40 bytes) in flat per-(pattern, speed, phase) arrays, plus
 * 16 bytes per follower for look-ups and per-pattern tables (a matrix: 1 byte per cell);
 * the troop borrows the map and the patterns (keep them alive and unmoved).
 * Cost per tick: O(followers that act + patterns x speeds); a follower's clock is never
 * touched on the ticks it does not act (the schedule is a phase group), and a record only
 * moves (by value) when a `wait` shifts its schedule. Results do not depend on storage order.
 * Adding is O(patterns + pattern-speed pairs in use). About 12-20 ns per action on the
 * bench machine (`patrol bench patterns`: 1,000,000 followers, 0.3-0.5 ms a tick).
 */
#ifndef PATROL_TROOP_H
#define PATROL_TROOP_H

#include <stdint.h>

#include "map.h"
#include "pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest steps_den (the number of phase groups of one pattern and speed is at most this). */
#define PT_TROOP_MAX_DEN 65536

typedef struct pt__troop_pat pt__troop_pat;
typedef struct pt__troop_lane pt__troop_lane;
typedef struct pt__troop_group pt__troop_group;
typedef struct pt__troop_loc { int32_t group, slot; } pt__troop_loc;

typedef struct pt_troop {
    const pt_map *map;         /* NULL: no walkability checks (like pt_patrun_step) */
    long long tick;            /* ticks stepped so far */
    long long actions;         /* clock firings so far (finished followers included) */
    int count, cap;            /* followers; ids are 0..count-1 in the order added */
    pt__troop_loc *loc;        /* id -> where its record is */
    double *heading0;          /* id -> heading before its first move */
    pt__troop_pat *pats; int npats, cap_pats;
    pt__troop_lane *lanes; int nlanes, cap_lanes;
    pt__troop_group *groups; int ngroups, cap_groups;
    double *htab;              /* heading of each move code (0-7: the 8 directions) */
    int32_t *hdelta;           /* the (dx, dy) of each move code */
    int nhtab;
} pt_troop;

/* Prepares an empty troop on map (may be NULL) with room for capacity followers (it grows
 * as needed; 0 is fine). Returns PT_OK or PT_ERR_NOMEM (then t is empty, fini is safe). */
int pt_troop_init(pt_troop *t, const pt_map *map, int capacity);
/* Frees everything the troop owns (not the map or the patterns). Safe on a zeroed troop. */
void pt_troop_fini(pt_troop *t);

/* Adds a follower started as pt_patrun_init(pattern, origin, start, heading, seed,
 * entity_id) would start it, moving steps_num times per steps_den ticks; phase (in
 * [0, steps_den)) is its clock's value now. Returns the follower's id (>= 0), or
 * PT_ERR_BAD_VALUE (NULL pattern, thrust or waypoints kind), PT_ERR_RANGE (steps_den < 1 or
 * > PT_TROOP_MAX_DEN, steps_num outside [0, steps_den], phase outside [0, steps_den)),
 * PT_ERR_LIMIT (more than INT32_MAX - 1 followers), PT_ERR_NOMEM. */
int pt_troop_add(pt_troop *t, const pt_pattern *pattern, pt_cell origin, pt_cell start, double heading,
                 uint64_t seed, uint32_t entity_id, int steps_num, int steps_den, int phase);
/* Same from a runner in any state (e.g. one that already walked, or is holding after a
 * `wait`): the follower continues exactly as the runner would. Same return values; a runner
 * whose state pt_patrun itself cannot produce is PT_ERR_BAD_VALUE. */
int pt_troop_add_run(pt_troop *t, const pt_patrun *run, int steps_num, int steps_den, int phase);

/* One tick for every follower. */
void pt_troop_step(pt_troop *t);

/* Reorders records in memory by map position so that a tick reads the map in order
 * (faster; results unchanged). O(n log n); call after adding many followers. */
void pt_troop_sort(pt_troop *t);

static inline int pt_troop_count(const pt_troop *t) { return t->count; }
/* The follower's cell, heading (radians) and finished flag (at_end stop reached). An id
 * out of range gives {0,0}, 0.0 and 0. */
pt_cell pt_troop_cell(const pt_troop *t, int id);
double pt_troop_heading(const pt_troop *t, int id);
int pt_troop_done(const pt_troop *t, int id);

#ifdef __cplusplus
}
#endif
#endif
