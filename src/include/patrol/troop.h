/* SPDX-License-Identifier: Zlib */
/* patrol/troop.h - many tile pattern followers (path, matrix, control) stepped together.
 *
 * The bulk path for games that run huge numbers of simple patrollers (the world keeps a
 * pt_patrun per guard; this is to pattern followers what pt_crowd is to steering). Each
 * follower is a runner plus an exact rational speed: steps_num actions per steps_den ticks.
 * pt_troop_step does, for every follower, exactly what this loop does (same cells, same
 * headings bit for bit, same done flags, same matrix random choices):
 *
 *     if (!pt_patrun_hold_tick(&run)) {            // a `wait`, a `look`, a path's stop hold it
 *         acc += steps_num;
 *         if (acc >= steps_den) { acc -= steps_den; pt_patrun_step(&run, map, ...); }
 *     }
 *
 *     pt_troop_desc d = {.map = &map};           // zero fields = defaults
 *     pt_troop *t = pt_troop_create(&d, &err);   // NULL (err set): out of memory
 *     int id = pt_troop_add(t, pattern, origin, start, heading, seed, entity_id, 3, 60, 0);
 *     pt_troop_sort(t);                          // optional, after adding many
 *     for (;;) { pt_troop_step(t); pt_cell c = pt_troop_cell(t, id); ... }
 *     pt_troop_destroy(t);
 *
 * Followers never interact; only the map's walkability matters (read every action, so a
 * door that opens is seen at once). Thrust and waypoints patterns are rejected.
 * Memory: compact records (20-48 bytes) in flat per-(pattern, speed, phase) arrays, plus
 * 16 bytes per follower for look-ups and per-pattern tables (a matrix: 1 byte per cell);
 * the troop borrows the map and the patterns (keep them alive and unmoved).
 * Cost per tick: O(followers that act + patterns x speeds); a follower's clock is never
 * touched on the ticks it does not act (the schedule is a phase group), and a record only
 * moves (by value) when a `wait` or a stop shifts its schedule. During a look,
 * pt_troop_heading is the runner's sweeping facing (computed when asked). Results do not depend on storage order.
 * Adding is O(patterns + pattern-speed pairs in use). About 12-20 ns per action on the
 * bench machine (`patrol bench patterns`: 1,000,000 followers, 0.3-0.5 ms a tick).
 */
#ifndef PATROL_TROOP_H
#define PATROL_TROOP_H

#include <stdint.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* Largest steps_den (the number of phase groups of one pattern and speed is at most this). */
#define PT_TROOP_MAX_DEN 65536

/* How to make a troop. Every field's zero value is its default, so a zeroed (or NULL)
 * description is a troop without a map, and fields added later keep old callers valid. */
typedef struct pt_troop_desc {
    const pt_map *map;  /* NULL: no walkability checks (like pt_patrun_step with no map) */
    int capacity;       /* followers to make room for now (0: it grows as they are added) */
} pt_troop_desc;

/* An opaque troop: its layout is private, so a faster one never changes the ABI. */
typedef struct pt_troop pt_troop;

/* Makes an empty troop (desc may be NULL). Returns NULL with err set (err may be NULL) on
 * PT_ERR_NOMEM, or PT_ERR_RANGE for a negative capacity. */
pt_troop *pt_troop_create(const pt_troop_desc *desc, pt_error *err);
/* Frees everything the troop owns (not the map or the patterns). NULL is fine. */
void pt_troop_destroy(pt_troop *t);

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

/* Followers added so far (ids are 0..count-1 in the order added). */
int pt_troop_count(const pt_troop *t);
/* Ticks stepped so far, and clock firings so far (finished followers included: the
 * reference loop's pt_patrun_step calls). */
long long pt_troop_tick(const pt_troop *t);
long long pt_troop_actions(const pt_troop *t);
/* The follower's cell, heading (radians) and finished flag (at_end stop reached). An id
 * out of range gives {0,0}, 0.0 and 0. */
pt_cell pt_troop_cell(const pt_troop *t, int id);
double pt_troop_heading(const pt_troop *t, int id);
int pt_troop_done(const pt_troop *t, int id);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
