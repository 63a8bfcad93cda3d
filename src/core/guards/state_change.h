/* SPDX-License-Identifier: Zlib */
/* A guard changes state: the one place that resets the brain's per-state fields and takes a
 * guard that leaves the search state out of the world's search. The brain changes state on
 * its transitions, the search puts guards in search (pt__search_send); inline, as it was in
 * the brain's file. */
#ifndef PATROL_GUARDS_STATE_CHANGE_H
#define PATROL_GUARDS_STATE_CHANGE_H

#include "guards/search.h"
#include "state/world_state.h"

static inline void pt__set_state(pt_world *w, pt_entity *e, pt_state s) {
    if (e->state == s) return;
    if (e->state == PT_STATE_SEARCH) pt__search_leave(w, e);
    e->state = s;
    e->state_ticks = 0;
    pt__brain *b = &w->brains[e->id];
    b->planned = 0;
    b->lost_ticks = 0;
    b->search_phase = 0;
    b->search_ticks = 0;
    b->progress_ticks = 0;
    b->chase_by_tile = 0;
    b->wp_for = 0;
    b->wp_by_tile = 0;
    b->progress_x = e->px;
    b->progress_y = e->py;
    e->path_len = e->path_idx = 0;
}

#endif
