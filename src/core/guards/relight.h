/* SPDX-License-Identifier: Zlib */
/* Guards relight the lights of their round they find out (relight.c; docs/ai.md,
 * "Relighting"). The brain calls it only in a world that has lights. */
#ifndef PATROL_GUARDS_RELIGHT_H
#define PATROL_GUARDS_RELIGHT_H

#include "state/world_state.h"

/* The documented value (docs/ai.md, "Relighting"). */
#define PT__RELIGHT_STAND_S 1.0 /* a guard stands this long at a light before it is lit again */

/* 1 when the world's guards relight: it has lights and the map's `relight` is not off. */
static inline int pt__relight_on(const pt_world *w) { return w->light_on && w->map.relight >= 0; }

/* A guard's brain, once its state for the tick is decided, before it acts (worlds where
 * pt__relight_on): a relight the guard was taken off (its state is no longer patrol, or an
 * order is under way) or whose light is lit again is given up; a guard free on its round
 * learns the lights it sees lit, and one on its round or returning to it that sees a light
 * it knows out, which no other guard is going to, sets off to relight it (state patrol). */
void pt__relight_decide(pt_world *w, pt_entity *e);
/* One tick of a relight (state patrol, brain.relight set): the walk (A*) to the light, the
 * stand beside it, the light lit on the stand's last tick, then back to its round. */
void pt__relight_tick(pt_world *w, pt_entity *e);
/* Gives up the relight it was going to do, if any (it still knows the light). */
static inline void pt__relight_drop(pt__brain *b) {
    b->relight = 0;
    b->relight_wait = 0;
}

#endif
