/* SPDX-License-Identifier: Zlib */
/* The movers' phase of a step (movers.c): the guards and other non-flock entities one by
 * one, then the prey. */
#ifndef PATROL_WORLD_MOVERS_H
#define PATROL_WORLD_MOVERS_H

#include "state/world_state.h"

/* Every mover but the prey, in id order: a guard's brain update, a pattern walker's tick;
 * each counts a tick in its state. Stops after the mover that ends the round (play). With
 * `gather` (the step has a noise already), the guards that do not chase after their move
 * are gathered as listeners (w->listeners) while each is in cache. Returns 1 when a guard
 * chases after its move; *nprey gets the number of prey before where it stopped (all of them
 * when it did not). Flock members are left out: their entities are not even read. */
int pt__movers_update(pt_world *w, int gather, int *nprey);
/* The first n prey (w->prey): the same as stepping each in its turn among the movers, as
 * none reads what another mover writes; their startle noises follow the other movers', in
 * id order, as they are the only ones the movers make. */
void pt__prey_step(pt_world *w, int n);

#endif
