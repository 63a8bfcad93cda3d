/* SPDX-License-Identifier: Zlib */
/* Lanterns (lantern.c; docs/ai.md, "Lanterns"): the light guards carry. pt__lantern_units,
 * the lanterns' light at a cell, is declared in light.h, where the light of a tile is summed. */
#ifndef PATROL_SENSES_LANTERN_H
#define PATROL_SENSES_LANTERN_H

#include "state/world_state.h"

/* Brings the world's list of lantern bearers (lantern_seen, lantern_hi) up to its entities:
 * the step's start calls it, so that pt__lantern_units looks only at the ids that may carry
 * one. pt__lantern_units is exact without it (it looks at the ids not yet listed itself). */
void pt__lantern_refresh(pt_world *w);

#endif
