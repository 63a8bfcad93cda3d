/* SPDX-License-Identifier: Zlib */
/* The step's events (pt_world_events): one queue that every part of the tick appends to, in
 * the order things happen. Cleared at the start of each step. */
#ifndef PATROL_STATE_EVENTS_H
#define PATROL_STATE_EVENTS_H

#include "state/world_state.h"

/* Appends an event of this step (dropped and counted when the queue is full). */
void pt__world_event(pt_world *w, pt_event_kind kind, uint32_t a, uint32_t b, int x, int y);

/* An event the game caused between steps (a spawn, a remove): it waits for the next step. */
void pt__world_event_queue(pt_world *w, pt_event_kind kind, uint32_t a, uint32_t b, int x, int y);
/* At the start of a step: the waiting events become the step's first, with its tick. */
void pt__events_begin(pt_world *w);

#endif
