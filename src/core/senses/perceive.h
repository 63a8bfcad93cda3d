/* SPDX-License-Identifier: Zlib */
/* The one rule of perceive (perceive.c): whether a guard, or prey, notices a player at a
 * place, as it stands now. The brain's perceive, the world's search (the cells a guard looks
 * at) and the solver's sight table all ask it, so they decide alike. */
#ifndef PATROL_SENSES_PERCEIVE_H
#define PATROL_SENSES_PERCEIVE_H

#include "state/world_state.h"

/* Tuning (docs/ai.md; guards/tuning.h gathers it with the rest), distances in tiles */
#define PERIPHERAL_DIST 1.5     /* a player this close is sensed outside the cone ... */
#define PERIPHERAL_RATE 0.5     /* ... filling the meter at this fraction of sight's rate */
#define PREY_NOTICE_DIST 2.0    /* prey also notice a player this close whatever their cone */

/* 1 when guard e, as it stands now, notices a player whose centre is at (px, py): by sight in
 * its cone (widened in caution), or by the peripheral sense close by. *rate (may be NULL) gets
 * the fraction of the awareness fill rate. */
int pt__guard_notices(const pt_world *w, const pt_entity *e, double px, double py, double *rate);
/* The same rule for a player of visibility v (0..1, docs/ai.md "Light"): in the cone only
 * within view_dist * v (*rate = v), the peripheral sense as it is (*rate = PERIPHERAL_RATE).
 * v = 1 decides as pt__guard_notices on a lit map. The solver's sight tables ask it per gait. */
int pt__guard_notices_v(const pt_world *w, const pt_entity *e, double px, double py, double v, double *rate);
/* 1 when prey e notices a player at (px, py): close, or in its cone. */
int pt__prey_notices(const pt_world *w, const pt_entity *e, double px, double py);

#endif
