/* SPDX-License-Identifier: Zlib */
/* What guards remember (memory.c; docs/ai.md, "Memory"): the last stimulus of each kind, its
 * place, step and certainty, kept in the guard's pt__brain. */
#ifndef PATROL_SENSES_MEMORY_H
#define PATROL_SENSES_MEMORY_H

#include "state/world_state.h"

/* Guard e perceived a stimulus of kind k at (px, py) this step, `sure` in (0, 1]: the entry of
 * that kind is replaced (not yet acted on). Seen and told ones also set e->last_seen. */
void pt__memory_note(pt_world *w, pt_entity *e, pt_memory_kind k, double px, double py, double sure);
/* Its certainty now (0 = forgotten or never noted). */
double pt__memory_certainty(const pt_world *w, const pt_entity *e, pt_memory_kind k);
/* The certainty of the guard's last known position (its newer seen or told memory). */
double pt__memory_known(const pt_world *w, const pt_entity *e);
/* The kind of the most certain live memory of a place it has not acted on (heard or told;
 * the earlier kind on a tie), or -1. */
int pt__memory_recall(const pt_world *w, const pt_entity *e);
void pt__memory_acted(pt_world *w, const pt_entity *e, pt_memory_kind k);
void pt__memory_all_acted(pt_world *w, const pt_entity *e);
/* Forgets everything (the player started again). */
void pt__memory_forget(pt_world *w, const pt_entity *e);

#endif
