/* SPDX-License-Identifier: Zlib */
/* The world's alert phase (phases.c; docs/ai.md, "Alert phases"): normal, alert while a
 * guard chases, then the evasion and caution countdowns. Below the search (which starts an
 * evasion) and the brain. */
#ifndef PATROL_GUARDS_PHASES_H
#define PATROL_GUARDS_PHASES_H

#include "state/world_state.h"

/* Starts the evasion countdown (as when the last chaser loses the player). */
void pt__phase_evasion(pt_world *w);
/* The alert phase after the step's moves and calls; `chasing`: a guard chases. */
void pt__phase_update(pt_world *w, int chasing);

#endif
