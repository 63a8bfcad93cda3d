/* SPDX-License-Identifier: Zlib */
/* patrol/spawn.h - entities a game adds and takes away while the world runs (docs/ai.md,
 * "Spawn and remove").
 *
 *     int n, id = pt_world_spawn_line(w, "guard bob at=4,2 pattern=square speed=2", &n, &err);
 *     for (int i = 0; i < 600; i++) pt_world_step(w);
 *     pt_world_remove(w, id);
 *
 * Every call here is made between steps (never from a callback inside pt_world_step). The
 * events a spawn or a remove causes (PT_EVENT_SPAWNED, PT_EVENT_REMOVED) are reported among
 * the next step's events, with that step's tick, as pt_world_noise's noises are.
 *
 * Ids are never reused within a world: a spawned entity gets the id after the highest ever
 * given (a flock's members consecutive ones). A removed entity's id stays given:
 * pt_world_count counts every id ever given, pt_world_entity returns NULL for a removed one.
 */
#ifndef PATROL_SPAWN_H
#define PATROL_SPAWN_H

#include "error.h"
#include "map.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds the entity `def` declares: a guard, a prey or a flock (kind PT_KIND_GUARD, _PREY,
 * _BOID), everything its line in a .map file can say (zero fields are the defaults, as the
 * loader leaves them). It starts as a declared one does on the world's first step: a guard on
 * its pattern (or walking to it), a flock's `count` members placed apart around `at`, forming
 * a flock group of their own. The name must be given and used by no live entity (nor be
 * "player"); the position must be a walkable cell, the origin inside the map, numbers in the
 * ranges of docs/formats.md, the pattern in the world's library, the steering set in the map's
 * steering file. Returns the first new id (members follow it) and the number of ids in *count
 * (may be NULL), or a negative pt_error code with err set (located at def->line and the
 * column of the value, as the loader locates it) and the world unchanged. */
int pt_world_spawn(pt_world *w, const pt_entity_def *def, int *count, pt_error *err);

/* The same from the text of one entity line of a .map file ("guard NAME key=value ...",
 * "prey ...", "flock ..."), read by the map loader's own code: errors are located in that
 * text, line 1 and the column, with the file name `name` (may be NULL: "spawn"). */
int pt_world_spawn_line(pt_world *w, const char *text, const char *name, int *count, pt_error *err);

/* Takes entity id away (not the player, id 0): it no longer steps nor is drawn, leaves the
 * trace (pt_world_trace_rows has no row for it), the world's search (its share goes to the
 * others), the step's callers and listeners; a flock member leaves its flock. What other
 * guards remember of it is a place, not who: their memories stay. Returns PT_OK, or
 * PT_ERR_RANGE for the player, an unknown or an already removed id. */
int pt_world_remove(pt_world *w, int id);

#ifdef __cplusplus
}
#endif
#endif
