/* SPDX-License-Identifier: Zlib */
/* The alert phase: alert while any guard chases; when the last chase ends, evasion (the
 * search's time), then caution (wider cones, faster awareness), then normal. Each change is
 * a PHASE event. */
#include "guards/phases.h"

#include <math.h>

#include "state/events.h"

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
