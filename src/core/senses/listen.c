/* SPDX-License-Identifier: Zlib */
/* Listening: the step's noises reach the guards through the hearing flood (hearing.c), and
 * the one hearing check (hear_check.h) that the solver's hearing table shares. Each guard
 * keeps only the loudest noise of a step, as a memory of the place (memory.c). */
#include "senses/listen.h"

#include <patrol/hearing.h>
#include <math.h>

#include "senses/hear_check.h"
#include "senses/memory.h"
#include "state/events.h"

void pt__listen(pt_world *w, int gathered) {
    w->heard_pending = 0;
    if (w->nnoises == 0) return;
    if (!gathered) { /* the step's first noises came after the guards' updates (animals) */
        w->nlisteners = 0;
        for (int j = 0; j < w->nmovers; j++) {
            const pt_entity *e = &w->ents[w->movers[j]];
            if (e->kind == PT_KIND_GUARD && e->state != PT_STATE_CHASE)
                w->listeners[w->nlisteners++] = (pt__listener){e->x, e->y, e->hearing, (int)e->id};
        }
    }
    for (int k = 0; k < w->nnoises; k++) {
        const pt_noise *nz = &w->noises[k];
        if (pt_hearing_flood(w->hearing, nz->x, nz->y, nz->loudness) <= 0) continue;
        const int r = pt__hearing_reach(nz->loudness);
        for (int j = 0; j < w->nlisteners; j++) {
            const pt__listener *l = &w->listeners[j];
            double level;
            if (!pt__hearing_heard(w->hearing, nz->x, nz->y, r, l->x, l->y, l->hearing, &level)) continue;
            pt__brain *b = &w->brains[l->id];
            if (!b->heard) {
                b->heard = 1;
                w->heard_pending++;
            } else if (level <= b->heard_level) {
                continue;
            }
            b->heard_level = level;
            /* sure when twice its threshold or louder, half sure at the threshold */
            pt__memory_note(w, &w->ents[l->id], PT_MEMORY_HEARD, nz->x + 0.5, nz->y + 0.5,
                            level / (HEARD_SURE_AT * l->hearing));
        }
    }
    /* One event per guard, in id order (listeners are gathered in id order). */
    for (int j = 0; j < w->nlisteners && w->heard_pending > 0; j++) {
        const pt__brain *b = &w->brains[w->listeners[j].id];
        if (b->heard)
            pt__world_event(w, PT_EVENT_HEARD, (uint32_t)w->listeners[j].id, (uint32_t)lround(b->heard_level * 10.0),
                            b->mem[PT_MEMORY_HEARD].x, b->mem[PT_MEMORY_HEARD].y);
    }
}
