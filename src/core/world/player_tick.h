/* SPDX-License-Identifier: Zlib */
/* The player's phase of a step (player_tick.c). */
#ifndef PATROL_WORLD_PLAYER_TICK_H
#define PATROL_WORLD_PLAYER_TICK_H

#include "state/world_state.h"

/* The player's tick: after a catch on the last tick the player starts again from the start
 * and the guards after them give up (sim); then it walks by the game's input (at its gait)
 * or by its pattern (in the pattern's gait), makes its footstep when it entered a cell, and
 * reaches the goal (a GOAL event the first time in a round). */
void pt__player_update(pt_world *w);

#endif
