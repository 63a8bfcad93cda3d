/* SPDX-License-Identifier: Zlib */
/* The world's fixed tick as a list of phases (pt_world_step), and what the world answers
 * about itself: names, the entities, the trace. Making the world is world_create.c; the
 * player's tick player_tick.c; the movers' movers.c; the rest of a step is the modules'
 * below (state/, senses/, guards/). */
#include <patrol/world.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "guards/calls.h"
#include "guards/motion.h"
#include "guards/phases.h"
#include "nav/steer_shared.h"
#include "senses/listen.h"
#include "senses/perceive.h"
#include "state/events.h"
#include "state/noise.h"
#include "state/world_state.h"
#include "world/movers.h"
#include "world/player_tick.h"

const char *pt_state_name(pt_state s) {
    static const char *names[PT_STATE_COUNT] = {"patrol", "suspicious", "chase", "search", "return",
                                                "caught", "flee",       "flock", "idle", "investigate"};
    return (unsigned)s < PT_STATE_COUNT ? names[s] : "unknown";
}

const char *pt_motion_name(pt_motion m) {
    static const char *names[PT_MOTION_COUNT] = {"tile", "continuous"};
    return (unsigned)m < PT_MOTION_COUNT ? names[m] : "unknown";
}

/* The last step's events, noises, shouts and callers are gone: each step reports its own. */
static void forget_last_step(pt_world *w) {
    w->nevents = 0;
    w->nnoises = 0;
    w->nshouts = 0;
    w->ncallers = 0;
}

/* One fixed tick, as phases in this order (the order is the behaviour: every event, noise
 * and draw of the RNGs happens in it). */
void pt_world_step(pt_world *w) {
    forget_last_step(w);
    if (w->round != 0) return; /* the round is over (play): nothing moves until restart */
    w->tick++;
    /* The player's visibility, from the state the step starts in: the one value every
     * guard's and prey's sight of the step uses (senses/perceive.c). */
    pt__perceive_begin(w);
    /* The events of the game's calls made since the last step (spawns, removes). */
    pt__events_begin(w);
    /* The game's queued noises and the timed sources sound. */
    pt__noises_begin(w);
    /* The player: the last tick's catch settled, then a walk by input or pattern. */
    pt__player_update(w);
    /* The movers one by one: each guard senses, decides and moves. With a noise in the step
     * already, they gather the listeners while each is in cache (no noise: no cost). */
    const int gather = w->nnoises > 0;
    int nprey;
    int chasing = pt__movers_update(w, gather, &nprey);
    /* The prey, on the crowd's threads, and their startle noises. */
    pt__prey_step(w, nprey);
    if (w->round != 0) return; /* a catch ended the round (play) */
    /* The step's new chasers call out; a guard they tell may chase in turn. */
    chasing |= pt__calls_run(w);
    /* The alert phase: alert while one chases, else the countdowns. */
    pt__phase_update(w, chasing);
    /* The flocks, all together, and their scatter noises. */
    pt__flock_tick(w);
    /* The guards listen to the step's noises, for their next update. */
    pt__listen(w, gather);
}

uint64_t pt_world_tick(const pt_world *w) { return w->tick; }
double pt_world_dt(const pt_world *w) { return w->dt; }
int pt_world_count(const pt_world *w) { return w->n; }
const pt_entity *pt_world_entity(const pt_world *w, int id) {
    return id >= 0 && id < w->n && !(w->gone && w->gone[id]) ? &w->ents[id] : NULL;
}
const pt_map *pt_world_map(const pt_world *w) { return &w->map; }
int pt_world_positions(const pt_world *w, uint32_t *ids, int *cells, double *pos, int max) {
    int k = 0;
    for (int i = 0; i < w->n; i++) {
        if (w->gone && w->gone[i]) continue; /* removed (spawn.h) */
        if (k < max) {
            const pt_entity *e = &w->ents[i];
            if (ids) ids[k] = e->id;
            if (cells) {
                cells[2 * k] = e->x;
                cells[2 * k + 1] = e->y;
            }
            if (pos) {
                pos[2 * k] = e->px;
                pos[2 * k + 1] = e->py;
            }
        }
        k++;
    }
    return k;
}
int pt_world_caught_total(const pt_world *w) { return w->caught_total; }
int pt_world_round(const pt_world *w) { return w->round; }
int pt_world_player_hidden(const pt_world *w) {
    if (!w || w->n < 1) return 0;
    const pt_entity *p = &w->ents[0];
    /* the cell each guard's sight test of the step looked at (senses/perceive.c, as the
     * brain's perceive asks it) */
    if (!pt_map_opaque(&w->map, (int)floor(p->px), (int)floor(p->py))) return 0;
    for (int i = 1; i < w->n; i++)
        if (w->ents[i].kind == PT_KIND_GUARD && w->ents[i].sees_player) return 0;
    return 1;
}
pt_rng *pt_world_cosmetic_rng(pt_world *w) { return &w->cosmetic_rng; }
const pt_steer_env *pt_world_env(const pt_world *w) { return &w->env; }
const pt_steer_agent *pt_world_agent(const pt_world *w, int id) {
    if (!pt_world_entity(w, id) || !w->agents) return NULL;
    if (w->boid_slot && w->boid_slot[id] >= 0) return &w->boids[w->boid_slot[id]];
    return &w->agents[id];
}
pt_vec2 pt_world_steer_force(const pt_world *w, int id) {
    if (!pt_world_entity(w, id) || !w->forces) return pt_v2(0.0, 0.0);
    if (w->boid_slot && w->boid_slot[id] >= 0) {
        int s = w->boid_slot[id], k = 0;
        while (s >= w->crowd_first[k + 1]) k++;
        return pt_crowd_forces(w->crowds[k])[s - w->crowd_first[k]];
    }
    return w->forces[id];
}

int pt_world_feelers(const pt_world *w, int id, pt_vec2 out[3]) {
    const pt_steer_agent *a = pt_world_agent(w, id);
    if (!a || !(a->behaviours & PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE))) return 0;
    double reach = w->brains ? w->brains[id].wall_reach : 0.0;
    pt_steer_params q; /* the lengths wall avoidance used (pt_steer_wall_avoidance_reach) */
    return pt_steer_feelers(&w->ents[id].veh, pt__feelers_within(a->params, reach, &q), out);
}

void pt_world_trace_header(FILE *out) { fputs("tick,id,kind,state,x,y,px,py,heading\n", out); }

void pt_world_trace_rows(const pt_world *w, FILE *out) {
    for (int i = 0; i < w->n; i++) {
        const pt_entity *e = &w->ents[i];
        if (e->kind == PT_KIND_COUNT) continue; /* removed (spawn.h) */
        /* Heading in tenths of a degree in [0, 3600): integer formatting, no "-0.0" or "360.0". */
        long long tenths = llround(pt_deg(e->heading) * 10.0) % 3600;
        if (tenths < 0) tenths += 3600;
        fprintf(out, "%" PRIu64 ",%u,%s,%s,%d,%d,%.3f,%.3f,%lld.%lld\n", w->tick, e->id, pt_kind_name(e->kind),
                pt_state_name(e->state), e->x, e->y, e->px, e->py, tenths / 10, tenths % 10);
    }
}
