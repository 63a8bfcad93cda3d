/* SPDX-License-Identifier: Zlib */
/* Guards listen to the step's noises (listen.c): each noise flooded once for all of them. */
#ifndef PATROL_SENSES_LISTEN_H
#define PATROL_SENSES_LISTEN_H

#include "state/world_state.h"

/* Tuning (docs/ai.md; guards/tuning.h gathers it with the rest) */
#define HEARD_SURE_AT 2.0       /* a noise heard at this many times the guard's hearing or louder
                                   is remembered sure (certainty 1); at the threshold, half sure */

/* The step's noises, each flooded once for all guards; a guard keeps the loudest it heard
 * (its heard memory, and b->heard for its next update), one HEARD event each in id order. A
 * chasing guard does not listen. `gathered`: the movers' update already gathered the
 * listeners (w->listeners), as the step had a noise then; else they are gathered here. */
void pt__listen(pt_world *w, int gathered);

#endif
