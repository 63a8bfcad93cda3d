/* SPDX-License-Identifier: Zlib */
/* The noise lists: this step's, and the game's queue for the next one. A noise is capped
 * where the hearing flood caps it and dropped (counted) past PT__MAX_NOISES. */
#include "state/noise.h"

#include <patrol/hearing.h>
#include <math.h>

const char *pt_noise_kind_name(pt_noise_kind k) {
    static const char *names[PT_NOISE_COUNT] = {"footstep", "game", "source", "tile", "animal", "shout"};
    return (unsigned)k < PT_NOISE_COUNT ? names[k] : "unknown";
}

/* Appends a noise to a list of PT__MAX_NOISES (this step's, or the queue for the next one):
 * nothing when it is silent (or NaN) or off the map, the loudness capped as the flood caps it. */
static void noise_add(const pt_world *w, pt_noise *list, int *n, int *dropped, pt_noise nz) {
    if (!(nz.loudness > 0) || !pt_map_in(&w->map, nz.x, nz.y)) return;
    if (nz.loudness > PT_HEARING_MAX_LOUDNESS) nz.loudness = PT_HEARING_MAX_LOUDNESS;
    if (*n >= PT__MAX_NOISES) {
        (*dropped)++;
        return;
    }
    list[(*n)++] = nz;
}

void pt__world_noise(pt_world *w, int x, int y, double loudness, pt_noise_kind kind) {
    noise_add(w, w->noises, &w->nnoises, &w->noises_dropped, (pt_noise){w->tick, x, y, loudness, kind});
}

void pt__noises_begin(pt_world *w) {
    for (int i = 0; i < w->nqueued; i++) {
        w->queued[i].tick = w->tick;
        noise_add(w, w->noises, &w->nnoises, &w->noises_dropped, w->queued[i]);
    }
    w->nqueued = 0;
    /* Timed sources sound on whole ticks: the first at `first` (at least tick 1), then every
     * `every` seconds (at least a tick apart). */
    for (int i = 0; i < w->map.nsources; i++) {
        const pt_noise_source *s = &w->map.sources[i];
        uint64_t first = (uint64_t)fmax(1.0, (double)llround(s->first * w->tick_hz));
        uint64_t period = (uint64_t)fmax(1.0, (double)llround(s->every * w->tick_hz));
        if (w->tick >= first && (w->tick - first) % period == 0)
            pt__world_noise(w, s->x, s->y, s->loudness, PT_NOISE_SOURCE);
    }
}

void pt_world_noise(pt_world *w, int x, int y, double loudness) {
    pt__world_noise_queue(w, x, y, loudness, PT_NOISE_GAME);
}

void pt__world_noise_queue(pt_world *w, int x, int y, double loudness, pt_noise_kind kind) {
    noise_add(w, w->queued, &w->nqueued, &w->noises_dropped, (pt_noise){0, x, y, loudness, kind});
}

const pt_noise *pt_world_noises(const pt_world *w, int *count) {
    if (count) *count = w->nnoises;
    return w->noises;
}

const pt_noise *pt_world_shouts(const pt_world *w, int *count) {
    if (count) *count = w->nshouts;
    return w->shouts;
}
