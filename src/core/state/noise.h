/* SPDX-License-Identifier: Zlib */
/* The step's noises (pt_world_noises) and the queue of the game's noises (pt_world_noise)
 * that join the next step. Listening to them is senses/listen.c's. */
#ifndef PATROL_STATE_NOISE_H
#define PATROL_STATE_NOISE_H

#include "state/world_state.h"

/* A noise made this step at cell (x, y) (ignored when not above 0 or outside the map). */
void pt__world_noise(pt_world *w, int x, int y, double loudness, pt_noise_kind kind);
/* A noise the player's call between steps makes (a doused light, world/douse.c): queued as
 * pt_world_noise queues the game's, for the next step, with its own kind. */
void pt__world_noise_queue(pt_world *w, int x, int y, double loudness, pt_noise_kind kind);
/* The step's first noises, on its new tick: the game's queued ones (pt_world_noise), then the
 * map's timed sources that sound on this tick. */
void pt__noises_begin(pt_world *w);

#endif
