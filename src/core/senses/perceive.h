/* SPDX-License-Identifier: Zlib */
/* The one rule of perceive (perceive.c): whether a guard, or prey, notices a player at a
 * place, as it stands now, and in what light. The brain's perceive, the world's search (the
 * cells a guard looks at) and the solver's sight table all ask it, so they decide alike. */
#ifndef PATROL_SENSES_PERCEIVE_H
#define PATROL_SENSES_PERCEIVE_H

#include "state/world_state.h"

/* Tuning (docs/ai.md; guards/tuning.h gathers it with the rest), distances in tiles */
#define PERIPHERAL_DIST 1.5     /* a player this close is sensed outside the cone ... */
#define PERIPHERAL_RATE 0.5     /* ... filling the meter at this fraction of sight's rate */
#define PREY_NOTICE_DIST 2.0    /* prey also notice a player this close whatever their cone */

/* The step's start (world.c): the lantern bearers listed (lantern.c) and w->vis, the player's
 * visibility the step's guards and prey see it by, taken (pt_world_visibility) before
 * anything moves. */
void pt__perceive_begin(pt_world *w);

/* The visibility V of a player on cell (x, y) now, 0..1 (docs/ai.md, "Sight in the dark"):
 * L + (1 - L) * k, L the light there (pt_world_light_at), k the world's gait's (light.h). */
double pt__visibility_at(const pt_world *w, int x, int y);

/* 1 when guard e, as it stands now, notices a player whose centre is at (px, py) seen with
 * visibility v: by sight in its cone (widened in caution) within view_dist * v (never when v
 * is 0), or by the peripheral sense close by, whatever the light. *rate (may be NULL) gets
 * the fraction of the awareness fill rate: v by sight, PERIPHERAL_RATE by the close sense,
 * the larger when both hold. The brain asks it with the step's w->vis. */
int pt__guard_sees(const pt_world *w, const pt_entity *e, double px, double py, double v, double *rate);
/* The same for a player there now: v = pt__visibility_at of its cell (the search and the
 * solver ask it of cells). */
int pt__guard_notices(const pt_world *w, const pt_entity *e, double px, double py, double *rate);
/* 1 when prey e notices a player at (px, py) seen with visibility v: within
 * PREY_NOTICE_DIST whatever the light, or in its cone within view_dist * v. */
int pt__prey_sees(const pt_world *w, const pt_entity *e, double px, double py, double v);
/* The same for a player there now (v of its cell, as pt__guard_notices). */
int pt__prey_notices(const pt_world *w, const pt_entity *e, double px, double py);

#endif
