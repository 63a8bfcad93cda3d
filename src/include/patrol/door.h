/* SPDX-License-Identifier: Zlib */
/* patrol/door.h - doors with a state: open, closed, locked (docs/ai.md, "Doors").
 *
 * Every cell of the world's map whose tile kind is named `door`, `door_closed` or
 * `door_locked` is a door; a door's state is its tile kind. A closed or locked door blocks
 * walking and sight and damps sound more than an open one. Guards open closed doors on their
 * way, the player opens one by walking into it; only pt_world_set_door unlocks a locked one.
 * A door a guard or the player opens or closes makes a noise of loudness 4 at its cell, of
 * kind PT_NOISE_TILE (a tile's noise, as a squeaky board's); the game's call makes none.
 *
 *     pt_world_set_door(w, 7, 2, PT_DOOR_LOCKED, &err);   // the game locks the gate
 *     if (pt_world_door(w, 7, 2) == PT_DOOR_OPEN) ...
 *     pt_door all[64];
 *     int n = pt_world_doors(w, all, 64);                   // every door, by row then column
 */
#ifndef PATROL_DOOR_H
#define PATROL_DOOR_H

#include "api.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* pt_event.a of a PT_EVENT_DOOR that pt_world_set_door made (the game's call). */
#define PT_DOOR_BY_GAME 0xFFFFFFFFu

/* One door of the world. */
typedef struct pt_door {
    int x, y;                  /* its cell */
    pt_door_state state;       /* now */
    int closes;                /* guards close it behind them (the map's `door ... closes`) */
} pt_door;

/* Sets the door at (x, y) to `state`: the game's call, and the only way to unlock a door.
 * The cell's tile kind changes through the same steps as pt_world_set_tile (sight, hearing,
 * paths, the steering walls, the plans that cross the cell), and a PT_EVENT_DOOR (a =
 * PT_DOOR_BY_GAME) is added to the last step's events. Closing or locking a door with an
 * entity on its cell is allowed (it walks off as off any wall). Errors: PT_ERR_OUT_OF_MAP,
 * PT_ERR_BAD_VALUE (no door there, or not a pt_door_state); setting the state it has is
 * PT_OK and changes nothing (no event). */
int pt_world_set_door(pt_world *w, int x, int y, pt_door_state state, pt_error *err);

/* The state of the door at (x, y), or -1 when there is no door there. */
int pt_world_door(const pt_world *w, int x, int y);

/* Writes up to max doors (by row, then column) to out (may be NULL with max 0); returns how
 * many the world has. */
int pt_world_doors(const pt_world *w, pt_door *out, int max);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
