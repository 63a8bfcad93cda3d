/* SPDX-License-Identifier: Zlib */
/* Doors with a state (doors.c, docs/ai.md "Doors"): the world's doors made at its creation,
 * a door's state changed (through the steps of pt_world_set_tile), the list following
 * pt_world_set_tile, and guards and the player meeting doors on their way. Above walk.c (a change drops the plans that cross the door). */
#ifndef PATROL_GUARDS_DOORS_H
#define PATROL_GUARDS_DOORS_H

#include "guards/door_path.h"

/* pt_event.a of a door changed when the world was made (no event is made). */
#define PT__DOOR_BY_NOBODY 0xFFFFFFFEu

/* At world creation, on the world's copy of the map before the hearing, the pathfinder and
 * the steering walls are made: the door list (every cell of a door kind), the door kinds the
 * legend lacks, the map's `door` states and `door_look`. PT_OK or PT_ERR_NOMEM. */
int pt__doors_init(pt_world *w, const pt_map *map, pt_error *err);
void pt__doors_fini(pt_world *w);
/* Sets door k to state (a pt_door_state) for `who` (an entity id, PT_DOOR_BY_GAME, or
 * PT__DOOR_BY_NOBODY: no event). PT_OK, or PT_ERR_LIMIT (no room in the legend for the
 * state's kind) / PT_ERR_NOMEM with nothing changed. */
int pt__door_set(pt_world *w, int k, int state, uint32_t who, pt_error *err);
/* The door kinds the legend lacks, added as a world that has a door at its creation adds
 * them (the first door a world gets from pt_world_set_tile, and a load that sets it). */
void pt__doors_kinds(pt_world *w);
/* Room in the door list for one more door (before pt_world_set_tile makes a cell a door):
 * PT_OK or PT_ERR_NOMEM, the list unchanged. */
int pt__doors_reserve(pt_world *w);
/* After pt_world_set_tile changed cell (x, y): a cell of a door kind is a door, its state its
 * kind's (a new one takes `closes` from the map's `door` line for the cell, if any); a door
 * cell set to another kind is a door no more, and every brain's key to it is dropped (its
 * pause there ends, it no longer closes it behind, it forgets it). No event, no noise. */
void pt__doors_tile_changed(pt_world *w, int x, int y);
/* A guard's brain, before it reads what it heard: the noise of a door it opened or closed
 * itself last step is not looked into. */
void pt__doors_own_noise(pt_world *w, pt_entity *e);
/* A guard's brain, before it acts: the pause at a closed door, the door closed behind it, the
 * next step into a closed door. Returns 1 when the tick goes to a door (it does not act), 2
 * when it should go and look at the door *look (a door of its round it knew closed is open),
 * else 0. */
int pt__doors_act(pt_world *w, pt_entity *e, pt_cell *look);
/* The player walks from its cell toward (nx, ny): a closed door there opens at once (its
 * action is spent, it does not move). 1 when it opened one. */
int pt__doors_player_bump(pt_world *w, pt_entity *p, int nx, int ny);
/* A pattern-driven player whose next pattern step is into a closed door opens it. */
void pt__doors_player_pattern(pt_world *w, pt_entity *p);

#endif
