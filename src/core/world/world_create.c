/* SPDX-License-Identifier: Zlib */
/* The world's making and unmaking: the map's copy, the entities from their declarations (a
 * flock's members placed apart), their pattern runs, the motion and steering state
 * (motion.c), the buffers every step reuses. Nothing here runs during a step but
 * pt__entity_pattern_start, when the player starts again after a catch. */
#include "world/world_create.h"

#include <patrol/hearing.h>
#include <stdio.h>
#include <string.h>

#include "guards/doors.h"
#include "senses/light.h"
#include "guards/motion.h"
#include "guards/search.h"
#include "pattern/unknown.h"
#include "state/move.h"
#include "world/save_priv.h"

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


int pt__entity_pattern_start(pt_world *w, pt_entity *e, const pt_pattern *pat) {
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
    if (pat) return pt__entity_pattern_start(w, e, pat);
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
    if (pt__doors_init(w, map, err) < 0) { /* before the hearing reads the legend */
        pt_world_destroy(w);
        return NULL;
    }
    if (pt__light_init(w, err) < 0) {
        pt_world_destroy(w);
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
    w->map_fp = pt__save_map_fp(map);
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
    w->planners = PT_MALLOC((size_t)n * sizeof *w->planners);
    w->scratch_cap = PT_MAX_PATTERN_STEPS;
    w->scratch = PT_MALLOC((size_t)w->scratch_cap * sizeof *w->scratch);
    if (!w->ents || !w->defs || !w->brains || !w->pf || !w->scratch || !w->hearing || !w->flock_noise_tick ||
        !w->listeners || !w->callers || !w->planners) {
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
    PT_FREE(w->planners);
    PT_FREE(w->prey);
    PT_FREE(w->prey_startled);
    pt__doors_fini(w);
    pt__light_fini(w);
    PT_FREE(w->gone);
    pt_map_fini(&w->map);
    PT_FREE(w);
}

/* For spawn.c: an entity made as pt_world_create makes one. */
void pt__entity_init(pt_world *w, pt_entity *e, uint32_t id, const pt_entity_def *d, pt_cell at) { entity_init(w, e, id, d, at); }
int pt__entity_resolve_pattern(pt_world *w, pt_entity *e, pt_error *err) { return resolve_pattern(w, e, NULL, err); }
void pt__flock_cells(const pt_map *m, int x, int y, int members, pt_cell *out, uint8_t *seen) {
    flock_cells(m, x, y, members, out, seen);
}
