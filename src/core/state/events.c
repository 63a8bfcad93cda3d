/* SPDX-License-Identifier: Zlib */
/* The step's event queue. It only records: what an event means is decided by whoever
 * appends it (the brain, calls, the alert phase, the player's tick, listening). */
#include "state/events.h"

const char *pt_event_kind_name(pt_event_kind k) {
    static const char *names[PT_EVENT_COUNT] = {"caught", "spotted", "lost", "returned", "goal", "heard", "called", "phase",
                                                 "door", "spawned", "removed", "order-done", "light"};
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

void pt__world_event_queue(pt_world *w, pt_event_kind kind, uint32_t a, uint32_t b, int x, int y) {
    if (w->nqueued_events >= PT__MAX_EVENTS) {
        w->events_dropped++;
        return;
    }
    w->queued_events[w->nqueued_events++] = (pt_event){0, kind, a, b, x, y};
}

void pt__events_begin(pt_world *w) {
    for (int i = 0; i < w->nqueued_events; i++) {
        const pt_event *q = &w->queued_events[i];
        pt__world_event(w, q->kind, q->a, q->b, q->x, q->y);
    }
    w->nqueued_events = 0;
}
