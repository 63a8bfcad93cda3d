/* SPDX-License-Identifier: Zlib */
/* The game's orders as the brain carries them out (orders.c; docs/ai.md, "Orders"). The
 * order a guard holds is in its brain (order, order_at, order_on); world/orders.c gives it. */
#ifndef PATROL_GUARDS_ORDERS_H
#define PATROL_GUARDS_ORDERS_H

#include <patrol/spawn.h>

#include "state/world_state.h"

/* A held guard's tick after it perceived: it stands (a continuous mover brakes), deciding
 * nothing. */
void pt__order_hold_tick(pt_world *w, pt_entity *e);
/* A waiting goto or investigate is taken once the guard is free: on its round (patrol), idle
 * or on its way back (return). 1 when it took one. */
int pt__order_take(pt_world *w, pt_entity *e);
/* One tick of a goto being carried out (state patrol): the walk there; on arrival (or when no
 * way leads there) the order-done event and back to its round. */
void pt__order_goto_tick(pt_world *w, pt_entity *e);
/* After the guard's tick: an order being carried out that the guard left (a chase, a noise to
 * look into) waits again; an investigate whose looking around is over is done. */
void pt__order_after(pt_world *w, pt_entity *e);

#endif
