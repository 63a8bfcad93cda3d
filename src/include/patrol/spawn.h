/* SPDX-License-Identifier: Zlib */
/* patrol/spawn.h - entities a game adds and takes away while the world runs, and orders it
 * gives its guards (docs/ai.md, "Spawn and remove" and "Orders").
 *
 *     int n, id = pt_world_spawn_line(w, "guard bob at=4,2 pattern=square speed=2", &n, &err);
 *     pt_world_order_goto(w, id, 10, 3);   // there, then back to its round
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

#include "api.h"
#include "error.h"
#include "map.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

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

/* ---- orders to a guard (docs/ai.md, "Orders": how each meets each state) ---------------- */

typedef enum pt_order_kind {
    PT_ORDER_NONE = 0,
    PT_ORDER_GOTO,         /* walk to a cell, then back to its round */
    PT_ORDER_INVESTIGATE,  /* walk to a cell and look around there, then back to its round */
    PT_ORDER_HOLD,         /* stand where it is, still sensing, until resumed */
    PT_ORDER_COUNT
} pt_order_kind;

/* Each returns PT_OK, or PT_ERR_RANGE when id is not a live guard, PT_ERR_OUT_OF_MAP /
 * PT_ERR_NOT_WALKABLE for a cell a guard cannot stand on. A guard holds one order at a time:
 * a new goto, investigate or hold replaces the one it has. */
int pt_world_order_goto(pt_world *w, int id, int x, int y);
int pt_world_order_investigate(pt_world *w, int id, int x, int y);
int pt_world_order_hold(pt_world *w, int id);
/* Drops the guard's order (held or not) and sends it back to its round. */
int pt_world_order_resume(pt_world *w, int id);
/* The guard's round is now the pattern `name` of the world's library, started where the guard
 * stands (its origin there); PT_ERR_UNKNOWN_PATTERN (err set, with a suggestion) otherwise. */
int pt_world_order_pattern(pt_world *w, int id, const char *name, pt_error *err);
/* The order the guard holds (waiting or being carried out), PT_ORDER_NONE when none, and
 * through x, y (may be NULL) its cell. */
pt_order_kind pt_world_order(const pt_world *w, int id, int *x, int *y);

/* Its senses and speed from now on, in any state; a value below 0 keeps the current one.
 * view: tiles (0..256], cone: degrees (0..360]; hearing: the threshold (0..256]; speed:
 * tiles per second (0..50]. PT_ERR_RANGE for a value out of range (nothing changed). */
int pt_world_set_view(pt_world *w, int id, double view, double cone_deg);
int pt_world_set_hearing(pt_world *w, int id, double hearing);
int pt_world_set_speed(pt_world *w, int id, double speed);

/* "none", "goto", "investigate", "hold"; "unknown" for a value out of range. */
const char *pt_order_kind_name(pt_order_kind k);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
