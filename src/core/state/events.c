/* SPDX-License-Identifier: Zlib */
/* The step's event queue. It only records: what an event means is decided by whoever
 * appends it (the brain, calls, the alert phase, the player's tick, listening). */
#include "state/events.h"

const char *pt_event_kind_name(pt_event_kind k) {
    static const char *names[PT_EVENT_COUNT] = {"caught", "spotted", "lost", "returned", "goal", "heard", "called", "phase", "door"};
    return (unsigned)k < PT_EVENT_COUNT ? names[k] : "unknown";
}

void pt__world_event(pt_world *w, pt_event_kind kind, uint32_t a, uint32_t b, int x, int y) {
    if (w->nevents >= PT__MAX_EVENTS) {
        w->events_dropped++;
        return;
    }
    pt_event *ev = &w->events[w->nevents++];
    ev->tick = w->tick;
    ev->kind = kind;
    ev->a = a;
    ev->b = b;
    ev->x = x;
    ev->y = y;
}

const pt_event *pt_world_events(const pt_world *w, int *count) {
    if (count) *count = w->nevents;
    return w->events;
}
