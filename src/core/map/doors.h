/* SPDX-License-Identifier: Zlib */
/* doors.h - the map's door declarations (doors.c): the `door` and `door_look` lines of a
 * .map, the check of their cells once the grid is read, and the door tile kinds by name
 * (not installed). */
#ifndef PATROL_MAP_DOORS_H
#define PATROL_MAP_DOORS_H

#include <patrol/map.h>

struct pt__line;

/* The sound damping of a closed or locked door kind declared without sound= (tenths: 5 tiles). */
#define PT__DOOR_SHUT_SOUND 50

/* The tile kind names of the three door states: "door", "door_closed", "door_locked". */
const char *pt__door_kind_name(pt_door_state s);
/* The door state a tile kind stands for (by its name), or -1 when it is no door. */
int pt__door_kind_state(const pt_tile_def *t);
/* The legend index of the kind for door state s, added to the legend when missing (named as
 * pt__door_kind_name says, with the first character from '!' up, not '#', that the legend
 * lacks; `door` walkable, the others opaque; sound and footstep by name); -1 when the legend
 * is full. */
int pt__map_door_kind(pt_map *map, int s);
/* The grid as a world starts it: each declared door's cell set to its state's kind (added to
 * the legend when missing; a door whose kind finds no room stays as drawn). */
void pt__map_doors_start(pt_map *map);
/* pt_map_clone, then pt__map_doors_start on the copy: what the solver searches on. */
int pt__map_clone_started(pt_map *dst, const pt_map *src);
/* A `door X,Y STATE [closes]` or `door_look on|off` line into map (located errors). */
int pt__map_door_line(pt_map *map, const struct pt__line *ln, pt_error *err);
/* Adds one door declaration (the .map and .tmx readers); PT_ERR_NOMEM/PT_ERR_LIMIT located at
 * line:col. */
int pt__map_door_add(pt_map *map, const pt_door_def *d, pt_error *err);
/* Once the grid is built: every declared door on a door tile inside the map, no cell declared
 * twice, no door starting closed or locked where an entity starts (errors at the X,Y of the
 * declaration). */
int pt__map_doors_check(const pt_map *map, pt_error *err);
/* The entity (the player first, then in declaration order) that starts on door d when d starts
 * closed or locked; NULL when none does or d starts open. */
const pt_entity_def *pt__map_door_occupant(const pt_map *map, const pt_door_def *d);

#endif
