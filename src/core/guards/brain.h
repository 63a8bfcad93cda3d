/* SPDX-License-Identifier: Zlib */
/* Guard brains (brain.c): perceive, decide, act, once a tick per guard; and the entries by
 * which a guard is sent to look at a place or told where the player was. Above walking,
 * motion, patterns and the search; below calls. */
#ifndef PATROL_GUARDS_BRAIN_H
#define PATROL_GUARDS_BRAIN_H

#include "state/world_state.h"

/* Guard update for one tick (sight, awareness, state machine, motion). */
void pt__brain_update(pt_world *w, pt_entity *e);
/* Sends guard e to investigate cell `at` (walk there, look around, go back to its round): the
 * one entry for every reason to go and look at a place (a noise heard now or remembered, a
 * call). A guard in chase ignores it. */
void pt__brain_investigate(pt_world *w, pt_entity *e, pt_cell at);
/* Guard e is told by a call that the player was last known at (x, y), as sure as `sure`: it
 * remembers it, chases when it sees the player, else goes there alert (a searching guard
 * searches there). */
void pt__brain_told(pt_world *w, pt_entity *e, double x, double y, double sure);

#endif
