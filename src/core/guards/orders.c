/* SPDX-License-Identifier: Zlib */
/* The game's orders in the brain (docs/ai.md, "Orders"): a goto walks where it is sent and
 * back to the round, an investigate is the brain's own investigate at the order's place, a
 * hold stands and senses. An order waits while the guard is busy (the table in docs/ai.md)
 * and is taken when it is free again. */
#include "guards/orders.h"

#include <patrol/spawn.h>

#include "guards/motion.h"
#include "guards/state_change.h"
#include "guards/walk.h"
#include "state/events.h"

void pt__order_hold_tick(pt_world *w, pt_entity *e) {
    if (e->motion == PT_MOTION_CONTINUOUS) pt__brake_continuous(w, e, e->heading);
    else pt__stand(w, e);
}

int pt__order_take(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (b->order_on || (e->state != PT_STATE_PATROL && e->state != PT_STATE_IDLE && e->state != PT_STATE_RETURN))
        return 0;
    if (b->order == PT_ORDER_GOTO) {
        pt__set_state(w, e, PT_STATE_PATROL);
        b->order_on = 1;
        return 1;
    }
    if (b->order == PT_ORDER_INVESTIGATE) {
        pt__set_state(w, e, PT_STATE_INVESTIGATE); /* as pt__brain_investigate from these states */
        b->investigate_at = b->order_at;
        b->order_on = 1;
        return 1;
    }
    return 0;
}

static void order_done(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    pt__world_event(w, PT_EVENT_ORDER_DONE, e->id, (uint32_t)b->order, b->order_at.x, b->order_at.y);
    b->order = PT_ORDER_NONE;
    b->order_on = 0;
}

void pt__order_goto_tick(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    const pt_cell goal = b->order_at;
    int done;
    if (e->motion == PT_MOTION_CONTINUOUS) {
        int r = pt__goto_continuous(w, e, goal, 1.0);
        done = r > 0 || (r == 0 && !b->planned);
        if (r < 0) { /* stuck: on by tiles, along a fresh plan */
            pt__go_tile(w, e);
            b->planned = 0;
        }
    } else {
        done = pt__walk_tiles(w, e, goal) != 0 || (e->x == goal.x && e->y == goal.y);
    }
    if (!done) return;
    order_done(w, e);
    pt__set_state(w, e, e->run.pat ? PT_STATE_RETURN : PT_STATE_IDLE);
}

void pt__order_after(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (!b->order_on) return;
    if (b->order == PT_ORDER_GOTO && e->state != PT_STATE_PATROL) {
        b->order_on = 0;
    } else if (b->order == PT_ORDER_INVESTIGATE) {
        /* Looked around: the only way it returns within its own tick (a catch settled by the
         * player's tick sends it back before its tick, state_ticks then 1). */
        if (e->state == PT_STATE_RETURN && e->state_ticks == 0) order_done(w, e);
        else if (e->state != PT_STATE_INVESTIGATE || b->investigate_at.x != b->order_at.x ||
                 b->investigate_at.y != b->order_at.y)
            b->order_on = 0;
    }
}
