/* SPDX-License-Identifier: Zlib */
/* Calls (calls.c; docs/ai.md, "Calls"): the step's new chasers shout and radio, and tell the
 * guards that hear them. The top of the guards' files: it tells brains. */
#ifndef PATROL_GUARDS_CALLS_H
#define PATROL_GUARDS_CALLS_H

#include "state/world_state.h"

/* The calls of this step's new chasers (w->callers, in the order the chases started): run
 * after every guard has moved. 1 when a guard it told now chases. */
int pt__calls_run(pt_world *w);

#endif
