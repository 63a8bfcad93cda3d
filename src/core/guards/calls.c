/* SPDX-License-Identifier: Zlib */
/* Calls: a guard that starts a chase shouts (the shout travels like a noise: the hearing
 * flood) and speaks on its radio; the guards that hear it learn the last known position
 * (docs/ai.md, "Calls").
 *
 * Calls run once every guard has moved, in the order the chases started, so a guard's id
 * does not decide whether it hears the player's position this step or the next. A told guard
 * that sees the player starts a chase of its own and calls in turn: the list grows while it
 * is read, and each guard joins it at most once a step (it is in chase from then on). */
#include "senses/memory.h"
#include "state/events.h"
#include "state/world_state.h"

#include <patrol/hearing.h>
#include <math.h>
#include <string.h>

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

const char *pt_phase_name(pt_phase p) {
    static const char *names[PT_PHASE_COUNT] = {"normal", "alert", "evasion", "caution"};
    return (unsigned)p < PT_PHASE_COUNT ? names[p] : "unknown";
}

static void set_phase(pt_world *w, pt_phase p, double seconds) {
    pt__world_event(w, PT_EVENT_PHASE, (uint32_t)p, (uint32_t)w->phase, 0, 0);
    w->phase = p;
    /* A countdown lasts one tick at least, and says so (pt_world_phase). */
    w->phase_ticks_left = seconds > 0.0 ? (int)fmax(1.0, (double)lround(seconds * w->tick_hz)) : 0;
}

void pt__phase_evasion(pt_world *w) { set_phase(w, PT_PHASE_EVASION, w->phases.evasion); }

void pt__phase_update(pt_world *w, int chasing) {
    if (chasing) {
        if (w->phase != PT_PHASE_ALERT) set_phase(w, PT_PHASE_ALERT, 0.0);
        return;
    }
    switch (w->phase) {
    case PT_PHASE_ALERT: set_phase(w, PT_PHASE_EVASION, w->phases.evasion); break;
    case PT_PHASE_EVASION:
        if (--w->phase_ticks_left <= 0) set_phase(w, PT_PHASE_CAUTION, w->phases.caution);
        break;
    case PT_PHASE_CAUTION:
        if (--w->phase_ticks_left <= 0) set_phase(w, PT_PHASE_NORMAL, 0.0);
        break;
    case PT_PHASE_NORMAL:
    case PT_PHASE_COUNT: break;
    }
}

const pt_phase_timing *pt_world_phase_timing(const pt_world *w) { return &w->phases; }

pt_phase pt_world_phase(const pt_world *w, double *seconds_left) {
    if (seconds_left) *seconds_left = w->phase_ticks_left > 0 ? w->phase_ticks_left * w->dt : 0.0;
    return w->phase;
}
