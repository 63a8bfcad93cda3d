/* SPDX-License-Identifier: Zlib */
/* What guards remember (docs/ai.md, "Memory"): the last stimulus of each kind, with its place,
 * step and certainty. Perception notes (brain.c: sight, told; listen.c: hearing), the brain's
 * transitions read. Certainty falls linearly from where it started, by 1 over the guard's
 * span, so a vague stimulus is forgotten sooner than a sure one. It is worked out from the
 * step when read (a subtraction and a division: the same on every build), so an idle memory
 * costs no work a tick. */
#include "senses/memory.h"

#include <math.h>

static const char *const kind_names[PT_MEMORY_COUNT] = {"seen", "heard", "told"};

const char *pt_memory_kind_name(pt_memory_kind k) {
    return (unsigned)k < PT_MEMORY_COUNT ? kind_names[k] : "unknown";
}

/* The span in ticks, at least one. */
static double span_ticks(const pt_world *w, const pt_entity *e) {
    double s = e->def ? e->def->memory * w->tick_hz : 0.0;
    return s >= 1.0 ? s : 1.0;
}

void pt__memory_note(pt_world *w, pt_entity *e, pt_memory_kind k, double px, double py, double sure) {
    pt__memory *m = &w->brains[e->id].mem[k];
    m->tick = w->tick;
    m->sure = sure > 1.0 ? 1.0 : sure;
    m->px = px;
    m->py = py;
    m->x = (int)floor(px);
    m->y = (int)floor(py);
    m->acted = 0;
    if (k != PT_MEMORY_HEARD) {
        e->last_seen_x = px;
        e->last_seen_y = py;
    }
}

static double certainty(const pt_world *w, const pt_entity *e, const pt__memory *m) {
    if (m->tick == 0 || !(m->sure > 0.0)) return 0.0;
    double c = m->sure - (double)(w->tick - m->tick) / span_ticks(w, e);
    return c > 0.0 ? c : 0.0;
}

double pt__memory_certainty(const pt_world *w, const pt_entity *e, pt_memory_kind k) {
    return certainty(w, e, &w->brains[e->id].mem[k]);
}

double pt__memory_known(const pt_world *w, const pt_entity *e) {
    const pt__memory *s = &w->brains[e->id].mem[PT_MEMORY_SEEN], *t = &w->brains[e->id].mem[PT_MEMORY_TOLD];
    return certainty(w, e, t->tick > s->tick ? t : s);
}

int pt__memory_recall(const pt_world *w, const pt_entity *e) {
    static const pt_memory_kind places[] = {PT_MEMORY_HEARD, PT_MEMORY_TOLD};
    int best = -1;
    double best_c = 0.0;
    for (int i = 0; i < 2; i++) {
        const pt__memory *m = &w->brains[e->id].mem[places[i]];
        double c = m->acted ? 0.0 : certainty(w, e, m);
        if (c > best_c) {
            best = (int)places[i];
            best_c = c;
        }
    }
    return best;
}

void pt__memory_acted(pt_world *w, const pt_entity *e, pt_memory_kind k) { w->brains[e->id].mem[k].acted = 1; }

void pt__memory_all_acted(pt_world *w, const pt_entity *e) {
    for (int k = 0; k < PT_MEMORY_COUNT; k++) w->brains[e->id].mem[k].acted = 1;
}

void pt__memory_forget(pt_world *w, const pt_entity *e) {
    for (int k = 0; k < PT_MEMORY_COUNT; k++) w->brains[e->id].mem[k] = (pt__memory){0};
}

int pt_world_guard_memory(const pt_world *w, int id, pt_memory *out, int max) {
    if (!w || id < 0 || id >= w->n || w->ents[id].kind != PT_KIND_GUARD) return 0;
    const pt_entity *e = &w->ents[id];
    int n = 0;
    for (int k = 0; k < PT_MEMORY_COUNT; k++) {
        const pt__memory *m = &w->brains[id].mem[k];
        double c = certainty(w, e, m);
        if (!(c > 0.0)) continue;
        if (out && n < max) out[n] = (pt_memory){(pt_memory_kind)k, m->x, m->y, m->px, m->py, m->tick, c};
        n++;
    }
    return n;
}
