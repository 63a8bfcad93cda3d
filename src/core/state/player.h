/* SPDX-License-Identifier: Zlib */
/* The player's state that the rest of the tick writes: its gait, the footsteps it makes, a
 * catch. Its tick itself (input or pattern, the catch settled) is world/player_tick.c's. */
#ifndef PATROL_STATE_PLAYER_H
#define PATROL_STATE_PLAYER_H

#include "state/world_state.h"

/* The player's gaits, a speed factor (of the player's speed) and the loudness of a footstep
 * on a tile of footstep factor 1, in tiles (docs/ai.md; guards/tuning.h gathers them with the
 * rest of the fixed tuning). */
#define GAIT_WALK_SPEED 1.0
#define GAIT_WALK_LOUDNESS 6.0
#define GAIT_SNEAK_SPEED 0.5
#define GAIT_SNEAK_LOUDNESS 2.5
#define GAIT_RUN_SPEED 1.6
#define GAIT_RUN_LOUDNESS 12.0

/* Sets the player's gait (pt_world_set_gait; a pattern's `gait` instruction). */
void pt__player_gait(pt_world *w, pt_gait gait);
/* The player p entered its cell: one footstep at its gait, or the tile's own noise when that
 * is louder (a squeaky board squeaks however softly it is trodden). None while hidden. */
void pt__player_stepped(pt_world *w, const pt_entity *p);
/* The hosted player p (patrol/player.h) entered its cell by a move at speed v: one footstep
 * of pt_player_step_loudness at the world's gait (the tile's own noise when louder, kind
 * tile), none at speed 0 or while hidden (player_host.c). */
void pt__player_host_stepped(pt_world *w, const pt_entity *p, double v);
/* Player caught by guard g: records it (the event, the counts, the player's state) and ends
 * the round (play); in sim the next tick sends the player back to the start. */
void pt__player_caught(pt_world *w, pt_entity *g);

#endif
