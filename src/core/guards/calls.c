/* SPDX-License-Identifier: Zlib */
/* Calls: a guard that starts a chase shouts (the shout travels like a noise: the hearing
 * flood) and speaks on its radio; the guards that hear it learn the last known position
 * (docs/ai.md, "Calls").
 *
 * Calls run once every guard has moved, in the order the chases started, so a guard's id
 * does not decide whether it hears the player's position this step or the next. A told guard
 * that sees the player starts a chase of its own and calls in turn: the list grows while it
 * is read, and each guard joins it at most once a step (it is in chase from then on). */
#include "guards/calls.h"

#include <patrol/hearing.h>
#include <math.h>
#include <string.h>

#include "guards/brain.h"
#include "senses/memory.h"
#include "state/events.h"

static int same_radio(const pt_entity *a, const pt_entity *b) {
    return a->def->radio[0] && strcmp(a->def->radio, b->def->radio) == 0;
}

int pt__calls_run(pt_world *w) {
    int chasing = 0;
    for (int k = 0; k < w->ncallers; k++) {
        const pt_entity *c = &w->ents[w->callers[k]];
        if (w->nshouts < PT__MAX_NOISES)
            w->shouts[w->nshouts++] = (pt_noise){w->tick, c->x, c->y, c->def->shout, PT_NOISE_SHOUT};
        /* Out of memory for the flood: only the radio carries the call. */
        int shouted = pt_hearing_flood(w->hearing, c->x, c->y, c->def->shout) > 0;
        const int lx = (int)floor(c->last_seen_x), ly = (int)floor(c->last_seen_y);
        const double sure = pt__memory_known(w, c); /* passed on as sure as the caller is */
        for (int i = 1; i < w->n; i++) {
            pt_entity *e = &w->ents[i];
            if (i == (int)c->id || e->kind != PT_KIND_GUARD || e->state == PT_STATE_CHASE) continue;
            int heard = (shouted && pt_hearing_level(w->hearing, e->x, e->y) > e->hearing) || same_radio(c, e);
            if (!heard) continue;
            pt__world_event(w, PT_EVENT_CALLED, c->id, e->id, lx, ly);
            pt__brain_told(w, e, c->last_seen_x, c->last_seen_y, sure);
            chasing |= e->state == PT_STATE_CHASE;
        }
    }
    w->ncallers = 0;
    return chasing;
}
