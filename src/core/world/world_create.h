/* SPDX-License-Identifier: Zlib */
/* Making the world (world_create.c: pt_world_create, pt_world_destroy). */
#ifndef PATROL_WORLD_CREATE_H
#define PATROL_WORLD_CREATE_H

#include "state/world_state.h"

/* Starts entity e's run of pattern `pat` from where it stands: a guard declared off its
 * pattern goes there first (return state), the player is put on it; a thrust pattern makes
 * it a continuous mover at its runner. Also how the player starts again after a catch. */
int pt__entity_pattern_start(pt_world *w, pt_entity *e, const pt_pattern *pat);

#endif
