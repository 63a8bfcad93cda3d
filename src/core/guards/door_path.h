/* SPDX-License-Identifier: Zlib */
/* Doors for the guards' A* plans (door_path.c): finding a door by its cell, and a plan that
 * may go through closed doors at the cost of opening them. The lowest of the door files:
 * walk.c plans with it, doors.c (above walk.c) changes the doors. */
#ifndef PATROL_GUARDS_DOOR_PATH_H
#define PATROL_GUARDS_DOOR_PATH_H

#include "state/world_state.h"

/* The documented door values (docs/ai.md, "Doors"). */
#define PT__DOOR_PAUSE_S 0.5   /* a guard stands this long at a closed door before it opens */
#define PT__DOOR_NOISE 4.0     /* loudness of a door opened or closed by a guard or the player */

/* Index of the door at (x, y) in w->doors, or -1. */
int pt__door_find(const pt_world *w, int x, int y);
/* A brain's reference to door k (door_opening, door_close, door_known): its cell y * w + x,
 * plus 1 (0 is none). A cell, not an index, so a door added or removed by pt_world_set_tile
 * (which shifts the list) leaves every other reference on its own door. */
int pt__door_key(const pt_world *w, int k);
/* The door a reference names (its index), or -1 when its cell is no door. */
int pt__door_of_key(const pt_world *w, int key);
/* Makes the closed (not locked) doors walkable in w->map's flags (on = 1) or gives them back
 * their flags (on = 0), around a search that may go through them. Sight bits are untouched. */
void pt__doors_passable(pt_world *w, int on);
/* pt_path_find from `from` to `to` for guard e into w->scratch (up to w->scratch_cap), with
 * the closed doors: the shortest path through them as if open is taken when its cost plus
 * the pause per closed door on it (as path cost at e's speed) is below the shortest path
 * without them. Same return as pt_path_find. */
int pt__doors_path_find(pt_world *w, const pt_entity *e, pt_cell from, pt_cell to);

#endif
