/* SPDX-License-Identifier: Zlib */
/* The movers' update, after the player's: every entity besides the player that is not a
 * flock member, one by one in id order (a guard perceives, decides and moves in its brain;
 * a pattern walker walks), then the prey, all at once on the first crowd's threads. */
#include "world/movers.h"

#include "bulk/crowd_run.h"
#include "guards/brain.h"
#include "guards/motion.h"
#include "guards/patrol.h"
#include "guards/tuning.h"
#include "state/noise.h"

int pt__movers_update(pt_world *w, int gather, int *nprey_out) {
    int chasing = 0; /* a guard chases after its move: read while it is in cache */
    int nprey = 0;   /* the prey before the mover that ended the round, if one did */
    w->nlisteners = 0;
    for (int j = 0; j < w->nmovers; j++) {
        pt_entity *e = &w->ents[w->movers[j]];
        if (e->kind == PT_KIND_PREY) {
            nprey++;
            continue;
        }
        e->state_ticks++;
        switch (e->kind) {
        case PT_KIND_GUARD:
            pt__brain_update(w, e);
            chasing |= e->state == PT_STATE_CHASE;
            if (gather && e->state != PT_STATE_CHASE)
                w->listeners[w->nlisteners++] = (pt__listener){e->x, e->y, e->hearing, (int)e->id};
            break;
        case PT_KIND_PREY:
        case PT_KIND_BOID: break; /* not here */
        case PT_KIND_PLAYER:
        case PT_KIND_COUNT: pt__pattern_tick(w, e, 1.0); break;
        }
        if (w->round != 0) break;
    }
    *nprey_out = nprey;
    return chasing;
}

/* Fewest prey per thread: a prey's tick costs a few microseconds at most, a share's
 * hand-over to a worker some tens. */
#define PREY_SHARE 256

static void prey_range(void *arg, int lo, int hi) {
    pt_world *w = arg;
    for (int k = lo; k < hi; k++) {
        pt_entity *e = &w->ents[w->prey[k]];
        e->state_ticks++;
        w->prey_startled[k] = (unsigned char)pt__prey_update(w, e, &w->prey_player);
    }
}

void pt__prey_step(pt_world *w, int n) {
    if (n <= 0) return;
    w->prey_player = pt__player_vehicle(w);
    if (w->ncrowds > 0) pt__crowd_run_min(w->crowds[0], n, PREY_SHARE, prey_range, w);
    else prey_range(w, 0, n);
    for (int k = 0; k < n; k++) {
        if (!w->prey_startled[k]) continue;
        const pt_entity *e = &w->ents[w->prey[k]];
        pt__world_noise(w, e->x, e->y, PREY_NOISE, PT_NOISE_ANIMAL); /* where it is seen going */
    }
}
