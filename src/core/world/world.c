/* SPDX-License-Identifier: Zlib */
/* The world: entity setup, the fixed tick, events and the trace. Guard brains are in
 * brain.c. */
#include "bulk/crowd_run.h"
#include "pattern/unknown.h"
#include "guards/brain.h"
#include "guards/calls.h"
#include "guards/motion.h"
#include "guards/patrol.h"
#include "guards/phases.h"
#include "guards/search.h"
#include "state/events.h"
#include "state/move.h"
#include "state/noise.h"
#include "state/player.h"
#include "state/world_state.h"
#include "guards/tuning.h"
#include "senses/listen.h"
#include "senses/memory.h"
#include "nav/steer_shared.h"

#include <patrol/hearing.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *pt_state_name(pt_state s) {
    static const char *names[PT_STATE_COUNT] = {"patrol", "suspicious", "chase", "search", "return",
                                                "caught", "flee",       "flock", "idle", "investigate"};
    return (unsigned)s < PT_STATE_COUNT ? names[s] : "unknown";
}

const char *pt_motion_name(pt_motion m) {
    static const char *names[PT_MOTION_COUNT] = {"tile", "continuous"};
    return (unsigned)m < PT_MOTION_COUNT ? names[m] : "unknown";
}

/* Cells for the members of a flock: breadth-first over walkable cells from its `at` cell
 * (fixed neighbour order), one cell each, so members start apart; when the reachable area has
 * fewer cells than members, they share cells in turn. One pass per flock: O(members). seen
 * (a byte per tile, all zero) is shared by the flocks and left all zero. */
static void flock_cells(const pt_map *m, int x, int y, int members, pt_cell *out, uint8_t *seen) {
    if (!pt_map_walkable(m, x, y)) {
        for (int k = 0; k < members; k++) out[k] = (pt_cell){x, y};
        return;
    }
    static const int dx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    int found = 0, head = 0;
    out[found++] = (pt_cell){x, y};
    seen[(size_t)y * (size_t)m->w + (size_t)x] = 1;
    while (head < found && found < members) {
        pt_cell c = out[head++];
        for (int d = 0; d < 8 && found < members; d++) {
            int nx = c.x + dx[d], ny = c.y + dy[d];
            if (!pt_map_walkable(m, nx, ny) || seen[(size_t)ny * (size_t)m->w + (size_t)nx]) continue;
            seen[(size_t)ny * (size_t)m->w + (size_t)nx] = 1;
            out[found++] = (pt_cell){nx, ny};
        }
    }
    for (int k = 0; k < found; k++) seen[(size_t)out[k].y * (size_t)m->w + (size_t)out[k].x] = 0;
    for (int k = found; k < members; k++) out[k] = out[k % found];
}


static int setup_pattern(pt_world *w, pt_entity *e, const pt_pattern *pat) {
    const pt_entity_def *d = e->def;
    pt_cell origin = pt_pattern_origin(pat, d);
    pt_cell start = {e->x, e->y};
    pt_patrun_init(&e->run, pat, origin, start, e->heading, w->seed, e->id);
    if (pat->kind != PT_PAT_THRUST && pat->kind != PT_PAT_WAYPOINTS && (e->run.x != e->x || e->run.y != e->y)) {
        /* Declared off its pattern (origin= elsewhere): a guard walks there (A*) instead of
         * teleporting; the player (moved by the sim) simply starts on it. */
        if (e->kind == PT_KIND_PLAYER) {
            pt__entity_place(e, e->run.x, e->run.y);
        } else {
            e->state = PT_STATE_RETURN;
            return PT_OK;
        }
    }
    if (pat->kind == PT_PAT_THRUST) {
        e->motion = PT_MOTION_CONTINUOUS;
        e->px = e->run.thrust.pos.x;
        e->py = e->run.thrust.pos.y;
        e->heading = e->run.thrust.angle;
    }
    return PT_OK;
}

static int resolve_pattern(pt_world *w, pt_entity *e, const pt_pattern *override, pt_error *err) {
    const pt_entity_def *d = e->def;
    const pt_pattern *pat = override;
    if (!pat && d->pattern[0]) {
        pat = w->lib ? pt_patlib_find(w->lib, d->pattern) : NULL;
        if (!pat) return pt__unknown_pattern(w->lib, &w->map, d, err);
    }
    if (pat) return setup_pattern(w, e, pat);
    e->run.pat = NULL;
    return PT_OK;
}

static void entity_init(pt_world *w, pt_entity *e, uint32_t id, const pt_entity_def *d, pt_cell at) {
    memset(e, 0, sizeof *e);
    e->id = id;
    e->def = d;
    e->kind = d->kind;
    snprintf(e->name, sizeof e->name, "%s", d->name);
    pt__entity_place(e, at.x, at.y);
    e->heading = pt_rad(d->heading_deg);
    e->speed = d->speed;
    e->view_dist = d->view_dist;
    e->view_angle = pt_rad(d->view_angle_deg);
    e->chase = d->chase;
    e->aware_rate = d->aware_rate;
    e->aware_decay = d->aware_decay;
    e->suspicious_at = d->suspicious_at;
    e->chase_at = d->chase_at;
    e->hearing = d->hearing;
    e->state = PT_STATE_IDLE;
    e->motion = PT_MOTION_TILE;
    pt_rng_seed(&e->rng, w->seed, id);
    /* The vehicle mirrors the entity for continuous movers (chase, flocks, thrust). */
    e->veh.pos = pt_v2(e->px, e->py);
    e->veh.heading = pt_v2_from_angle(e->heading);
    e->veh.side = pt_v2_perp(e->veh.heading);
    e->veh.mass = 1.0;
    e->veh.max_speed = e->speed;
    e->veh.max_force = 10.0;
    e->veh.max_turn_rate = PT_TAU;
    e->veh.radius = 0.35;
}

pt_world *pt_world_create(const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc, pt_error *err) {
    pt_error_clear(err);
    pt_world *w = PT_CALLOC(1, sizeof *w);
    if (!w) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    if (desc) w->desc = *desc;
    w->lib = lib;
    if (pt_map_clone(&w->map, map) < 0) {
        PT_FREE(w);
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory copying the map");
        return NULL;
    }
    w->seed = w->desc.seed ? w->desc.seed : (map->seed ? map->seed : 1);
    w->tick_hz = w->desc.tick_hz > 0 ? w->desc.tick_hz : 60;
    w->dt = 1.0 / w->tick_hz;
    const pt_phase_timing *mp = &map->phases, *dp = &w->desc.phases;
    w->phases.evasion = dp->evasion > 0 ? dp->evasion : mp->evasion;
    w->phases.caution = dp->caution > 0 ? dp->caution : mp->caution;
    w->phases.caution_aware = dp->caution_aware > 0 ? dp->caution_aware : mp->caution_aware;
    w->phases.caution_fov = dp->caution_fov > 0 ? dp->caution_fov : mp->caution_fov;
    pt_phase_timing_resolve(&w->phases);
    pt_rng_seed(&w->sim_rng, w->seed, 0x5151u);
    pt_rng_seed(&w->cosmetic_rng, w->seed, 0xC05Eu);

    int n = 1;
    for (int i = 0; i < map->nents; i++) n += map->ents[i].kind == PT_KIND_BOID && map->ents[i].count > 1 ? map->ents[i].count : 1;
    w->n = n;
    w->ents = PT_CALLOC((size_t)n, sizeof *w->ents);
    w->defs = PT_CALLOC((size_t)n, sizeof *w->defs);
    w->brains = PT_CALLOC((size_t)n, sizeof *w->brains);
    w->pf = pt_pathfinder_create(&w->map);
    w->hearing = pt_hearing_create(&w->map);
    w->flock_noise_tick = PT_CALLOC((size_t)map->nents + 1, sizeof *w->flock_noise_tick);
    w->listeners = PT_MALLOC((size_t)n * sizeof *w->listeners);
    w->callers = PT_MALLOC((size_t)n * sizeof *w->callers);
    w->scratch_cap = PT_MAX_PATTERN_STEPS;
    w->scratch = PT_MALLOC((size_t)w->scratch_cap * sizeof *w->scratch);
    if (!w->ents || !w->defs || !w->brains || !w->pf || !w->scratch || !w->hearing || !w->flock_noise_tick ||
        !w->listeners || !w->callers) {
        pt_world_destroy(w);
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d entities", n);
        return NULL;
    }

    /* id 0: the player */
    w->defs[0] = map->player;
    w->defs[0].kind = PT_KIND_PLAYER;
    if (!w->defs[0].name[0]) snprintf(w->defs[0].name, sizeof w->defs[0].name, "player");
    pt_entity_def_resolve(&w->defs[0]);
    entity_init(w, &w->ents[0], 0, &w->defs[0], (pt_cell){map->player.x, map->player.y});
    if (!w->desc.player_controlled &&
        resolve_pattern(w, &w->ents[0], w->desc.player_pattern, err) < 0) {
        pt_world_destroy(w);
        return NULL;
    }
    w->ents[0].state = w->ents[0].run.pat || w->desc.player_controlled ? PT_STATE_PATROL : PT_STATE_IDLE;

    uint32_t id = 1, group = 0;
    uint8_t *seen = NULL; /* flock_cells' */
    for (int i = 0; i < map->nents; i++) {
        const pt_entity_def *src = &map->ents[i];
        int members = src->kind == PT_KIND_BOID && src->count > 1 ? src->count : 1;
        group++;
        pt_cell *cells = NULL;
        if (members > 1) {
            cells = PT_MALLOC(sizeof *cells * (size_t)members);
            if (cells && !seen) seen = PT_CALLOC((size_t)w->map.w * (size_t)w->map.h, 1);
            if (!cells || !seen) {
                PT_FREE(cells);
                PT_FREE(seen);
                pt_world_destroy(w);
                pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory placing flock '%s'", src->name);
                return NULL;
            }
            flock_cells(&w->map, src->x, src->y, members, cells, seen);
        }
        for (int k = 0; k < members; k++, id++) {
            w->defs[id] = *src;
            if (members > 1) snprintf(w->defs[id].name, sizeof w->defs[id].name, "%.38s.%d", src->name, (k + 1) % 100000);
            pt_entity_def_resolve(&w->defs[id]);
            pt_cell at = members > 1 ? cells[k] : (pt_cell){src->x, src->y};
            pt_entity *e = &w->ents[id];
            entity_init(w, e, id, &w->defs[id], at);
            if (src->kind == PT_KIND_BOID) e->group = group;
            if (resolve_pattern(w, e, NULL, err) < 0) {
                PT_FREE(cells);
                PT_FREE(seen);
                pt_world_destroy(w);
                return NULL;
            }
            if (e->state != PT_STATE_RETURN) e->state = e->run.pat ? PT_STATE_PATROL : PT_STATE_IDLE;
            if (src->kind == PT_KIND_BOID) e->state = PT_STATE_FLOCK;
        }
        PT_FREE(cells);
    }
    PT_FREE(seen);
    if (pt__motion_init(w, err) < 0) {
        pt_world_destroy(w);
        return NULL;
    }
    for (int j = 0; j < w->nmovers; j++) w->nprey += w->ents[w->movers[j]].kind == PT_KIND_PREY;
    w->prey = PT_MALLOC(sizeof *w->prey * (size_t)(w->nprey > 0 ? w->nprey : 1));
    w->prey_startled = PT_MALLOC((size_t)(w->nprey > 0 ? w->nprey : 1));
    if (!w->prey || !w->prey_startled) {
        pt_world_destroy(w);
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d prey", w->nprey);
        return NULL;
    }
    w->nprey = 0;
    for (int j = 0; j < w->nmovers; j++)
        if (w->ents[w->movers[j]].kind == PT_KIND_PREY) w->prey[w->nprey++] = w->movers[j];
    return w;
}

void pt_world_destroy(pt_world *w) {
    if (!w) return;
    if (w->ents)
        for (int i = 0; i < w->n; i++) PT_FREE(w->ents[i].path);
    PT_FREE(w->ents);
    PT_FREE(w->defs);
    PT_FREE(w->brains);
    PT_FREE(w->scratch);
    pt__motion_fini(w);
    pt_pathfinder_destroy(w->pf);
    pt_hearing_destroy(w->hearing);
    pt__search_destroy(w->search);
    PT_FREE(w->flock_noise_tick);
    PT_FREE(w->listeners);
    PT_FREE(w->callers);
    PT_FREE(w->prey);
    PT_FREE(w->prey_startled);
    pt_map_fini(&w->map);
    PT_FREE(w);
}

/* sim: the tick after a catch, the player starts again from the start and every guard that
 * was after them gives up and goes back to its rounds. (The caught tick itself is left as it
 * was drawn: the player where they were caught, the catcher still chasing.) */
static void catch_settle(pt_world *w, pt_entity *p) {
    pt__entity_place(p, w->defs[0].x, w->defs[0].y);
    p->move_t = 0.0;
    if (p->run.pat) setup_pattern(w, p, p->run.pat);
    if (p->run.pat && p->run.pat->kind == PT_PAT_WAYPOINTS) {
        /* A waypoint route starts again too: its vehicle at the start, the first waypoint next
         * (a thrust lap starts again with its runner, setup_pattern). */
        p->veh.pos = pt_v2(p->px, p->py);
        p->veh.vel = pt_v2(0.0, 0.0);
        w->agents[0].path.current = 0;
        w->brains[0].wp_for = 0;
        w->brains[0].wp_by_tile = 0;
    }
    pt__search_end(w);
    for (int i = 1; i < w->n; i++) {
        pt_entity *e = &w->ents[i];
        if (e->kind != PT_KIND_GUARD) continue;
        e->awareness = 0.0;
        pt__memory_forget(w, e);
        if (e->state == PT_STATE_CHASE || e->state == PT_STATE_SEARCH || e->state == PT_STATE_SUSPICIOUS ||
            e->state == PT_STATE_INVESTIGATE) {
            e->state = e->run.pat ? PT_STATE_RETURN : PT_STATE_IDLE;
            e->state_ticks = 0;
            w->brains[i].planned = 0;
        }
    }
}

static void player_update(pt_world *w, pt_entity *p) {
    if (p->state == PT_STATE_CAUGHT) {
        catch_settle(w, p);
        p->state = PT_STATE_PATROL;
    }
    const int x0 = p->x, y0 = p->y;
    /* A pattern-driven player walks in its pattern's gait (the `gait` instruction in force at
     * the start of the tick): the same speed and footsteps as a player who chose it. */
    if (!w->desc.player_controlled && p->run.pat) pt__player_gait(w, pt_patrun_gait(&p->run));
    const double speed = p->speed * pt_gait_speed(w->gait);
    if (!w->desc.player_controlled) {
        pt__pattern_tick(w, p, pt_gait_speed(w->gait));
    } else {
        int dx = w->input_dx, dy = w->input_dy;
        if (dx == 0 && dy == 0) {
            p->move_t = p->move_t + speed * w->dt >= 1.0 ? 1.0 : p->move_t + speed * w->dt;
        } else {
            p->move_t += speed * w->dt;
            if (p->move_t >= 1.0) {
                p->move_t -= 1.0;
                if (p->move_t > 1.0) p->move_t = 0.0;
                int nx = p->x + dx, ny = p->y + dy;
                if (pt_map_step_ok(&w->map, p->x, p->y, nx, ny)) pt__entity_move_to(p, nx, ny);
                else if (dx && pt_map_walkable(&w->map, nx, p->y)) pt__entity_move_to(p, nx, p->y);   /* slide */
                else if (dy && pt_map_walkable(&w->map, p->x, ny)) pt__entity_move_to(p, p->x, ny);
                else {
                    p->prev_x = p->x;
                    p->prev_y = p->y;
                    p->heading = atan2((double)dy, (double)dx);
                    p->move_t = 1.0;
                }
            }
        }
    }
    if (p->x != x0 || p->y != y0) pt__player_stepped(w, p);
    if (w->map.flags[(size_t)p->y * (size_t)w->map.w + (size_t)p->x] & PT_TILE_GOAL) {
        if (w->round == 0) pt__world_event(w, PT_EVENT_GOAL, p->id, 0, p->x, p->y);
        if (w->desc.end_round_on_catch) w->round = 1;
    }
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

/* The first n prey: the same as stepping each in its turn among the movers, as none reads
 * what another mover writes; their noises follow the other movers', in id order, as they
 * are the only ones the movers make. */
static void prey_step(pt_world *w, int n) {
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

void pt_world_step(pt_world *w) {
    w->nevents = 0;
    w->nnoises = 0;
    w->nshouts = 0;
    w->ncallers = 0;
    if (w->round != 0) return; /* the round is over (play): nothing moves until restart */
    w->tick++;
    pt__noises_begin(w);
    player_update(w, &w->ents[0]);
    /* Listeners are gathered here, while each guard is in cache, when the step already has
     * a noise; a step without any pays nothing for hearing. Flock members are left out
     * (their entities are not even read): they move together below, and their state_ticks
     * count there. */
    const int gather = w->nnoises > 0;
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
    prey_step(w, nprey);
    if (w->round != 0) return;
    chasing |= pt__calls_run(w);
    pt__phase_update(w, chasing);
    pt__flock_tick(w);
    pt__listen(w, gather);
}

uint64_t pt_world_tick(const pt_world *w) { return w->tick; }
double pt_world_dt(const pt_world *w) { return w->dt; }
int pt_world_count(const pt_world *w) { return w->n; }
const pt_entity *pt_world_entity(const pt_world *w, int id) { return id >= 0 && id < w->n ? &w->ents[id] : NULL; }
const pt_map *pt_world_map(const pt_world *w) { return &w->map; }
int pt_world_caught_total(const pt_world *w) { return w->caught_total; }
int pt_world_round(const pt_world *w) { return w->round; }
int pt_world_player_hidden(const pt_world *w) {
    if (!w || w->n < 1) return 0;
    const pt_entity *p = &w->ents[0];
    /* the cell each guard's sight test of the step looked at (brain.c perceive) */
    if (!pt_map_opaque(&w->map, (int)floor(p->px), (int)floor(p->py))) return 0;
    for (int i = 1; i < w->n; i++)
        if (w->ents[i].kind == PT_KIND_GUARD && w->ents[i].sees_player) return 0;
    return 1;
}
pt_rng *pt_world_cosmetic_rng(pt_world *w) { return &w->cosmetic_rng; }
const pt_steer_env *pt_world_env(const pt_world *w) { return &w->env; }
const pt_steer_agent *pt_world_agent(const pt_world *w, int id) {
    if (id < 0 || id >= w->n || !w->agents) return NULL;
    if (w->boid_slot && w->boid_slot[id] >= 0) return &w->boids[w->boid_slot[id]];
    return &w->agents[id];
}
pt_vec2 pt_world_steer_force(const pt_world *w, int id) {
    if (id < 0 || id >= w->n || !w->forces) return pt_v2(0.0, 0.0);
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
        /* Heading in tenths of a degree in [0, 3600): integer formatting, no "-0.0" or "360.0". */
        long long tenths = llround(pt_deg(e->heading) * 10.0) % 3600;
        if (tenths < 0) tenths += 3600;
        fprintf(out, "%" PRIu64 ",%u,%s,%s,%d,%d,%.3f,%.3f,%lld.%lld\n", w->tick, e->id, pt_kind_name(e->kind),
                pt_state_name(e->state), e->x, e->y, e->px, e->py, tenths / 10, tenths % 10);
    }
}
