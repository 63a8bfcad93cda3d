/* SPDX-License-Identifier: Zlib */
/* Making the world (world_create.c: pt_world_create, pt_world_destroy). */
#ifndef PATROL_WORLD_CREATE_H
#define PATROL_WORLD_CREATE_H

#include "state/world_state.h"

/* Starts entity e's run of pattern `pat` from where it stands: a guard declared off its
 * pattern goes there first (return state), the player is put on it; a thrust pattern makes
 * it a continuous mover at its runner. Also how the player starts again after a catch. */
int pt__entity_pattern_start(pt_world *w, pt_entity *e, const pt_pattern *pat);

/* What spawn.c shares with pt_world_create: an entity set up from its resolved declaration
 * d at cell `at`; its pattern looked up in the world's library and started (err: an unknown
 * pattern); the cells of a flock's members (flock_cells: seen is a zeroed byte per tile, left
 * zeroed). */
void pt__entity_init(pt_world *w, pt_entity *e, uint32_t id, const pt_entity_def *d, pt_cell at);
int pt__entity_resolve_pattern(pt_world *w, pt_entity *e, pt_error *err);
void pt__flock_cells(const pt_map *m, int x, int y, int members, pt_cell *out, uint8_t *seen);

#endif
