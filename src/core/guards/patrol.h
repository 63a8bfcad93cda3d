/* SPDX-License-Identifier: Zlib */
/* Pattern motion for one tick (patrol.c): what a guard on its round, a pattern-driven player
 * and other pattern walkers do each tick. Above motion (continuous pattern kinds steer). */
#ifndef PATROL_GUARDS_PATROL_H
#define PATROL_GUARDS_PATROL_H

#include "state/world_state.h"

/* Pattern motion for one tick (patrol state); shared by guards, prey and the player. Tile
 * movers get one action each time their clock passes a whole step (speed_scale scales it). */
void pt__pattern_tick(pt_world *w, pt_entity *e, double speed_scale);

#endif
