/* SPDX-License-Identifier: Zlib */
/* The parts of a saved world (docs/formats.md, "Save files"), one function each that writes
 * the part and reads it back (pt__io): the tiles, the world's own fields, the entities with
 * their pattern runs and paths, the brains, the search, steering, the flocks, the prey, the
 * doors (with each guard's doings at them) and the game's own player.
 * Reading overwrites a world just created from the same map and settings, so what create
 * builds from the map (ids, declarations, steering parameters, the flocks' crowds, the
 * caches) is not in the save; every count and index read is checked against that world. */
#include <patrol/world.h>
#include <math.h>
#include <string.h>

#include "guards/door_path.h"
#include "guards/search.h"
#include "senses/light.h"
#include "world/save_priv.h"

static void io_rng(pt__io *io, pt_rng *r) {
    pt__io_u64(io, &r->state);
    pt__io_u64(io, &r->inc);
}

static void io_vec(pt__io *io, pt_vec2 *v) {
    pt__io_f64(io, &v->x);
    pt__io_f64(io, &v->y);
}

static void io_cell(pt__io *io, pt_cell *c) {
    pt__io_int(io, &c->x);
    pt__io_int(io, &c->y);
}

/* A cell that must be on the map when read. */
static void io_map_cell(pt__io *io, const pt_map *m, int *x, int *y, const char *what) {
    pt__io_range(io, x, 0, m->w - 1, what);
    pt__io_range(io, y, 0, m->h - 1, what);
}

/* A place that must lie on the map (its closed rectangle) when read. */
static void io_place(pt__io *io, const pt_map *m, double *x, double *y) {
    size_t at = io->pos;
    pt__io_f64(io, x);
    pt__io_f64(io, y);
    if (io->reading && !io->bad && !(*x >= 0.0 && *x <= m->w && *y >= 0.0 && *y <= m->h)) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "place %g,%g off the %dx%d map", *x, *y, m->w, m->h);
    }
}

/* A vehicle; its place on the map. */
static void io_vehicle(pt__io *io, const pt_map *m, pt_vehicle *v) {
    io_place(io, m, &v->pos.x, &v->pos.y);
    io_vec(io, &v->vel);
    io_vec(io, &v->heading);
    io_vec(io, &v->side);
    pt__io_f64(io, &v->mass);
    pt__io_f64(io, &v->max_speed);
    pt__io_f64(io, &v->max_force);
    pt__io_f64(io, &v->max_turn_rate);
    pt__io_f64(io, &v->radius);
    pt__io_f64(io, &v->smooth_time);
    io_vec(io, &v->smooth_heading);
    pt__io_range(io, &v->turn_dir, -1, 1, "turn direction");
}

static void io_noise(pt__io *io, pt_noise *n) {
    pt__io_u64(io, &n->tick);
    pt__io_int(io, &n->x);
    pt__io_int(io, &n->y);
    pt__io_f64(io, &n->loudness);
    IO_ENUM(io, n->kind, PT_NOISE_COUNT, "noise kind");
}

static void io_noises(pt__io *io, pt_noise *list, int *count) {
    pt__io_range(io, count, 0, PT__MAX_NOISES, "noise count");
    for (int i = 0; i < *count; i++) io_noise(io, &list[i]);
}

/* ---- the tiles: the map's legend indices, run-length coded ---- */

static void put_varint(pt__io *io, uint32_t v) {
    do {
        uint8_t b = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) b |= 0x80;
        pt__io_u8(io, &b);
    } while (v);
}

static uint32_t get_varint(pt__io *io) {
    uint32_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        uint8_t b = 0;
        pt__io_u8(io, &b);
        v |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    pt__io_fail(io, PT_ERR_BAD_VALUE, "a run length is too long");
    return 0;
}

/* Each run: the legend index (a byte), then its length (a LEB128 varint). Read, the cells
 * that differ from the world's are set by pt_world_set_tile, which keeps every cache exact. */
static void io_tiles(pt__io *io, pt_world *w) {
    pt_map *m = &w->map;
    int mw = m->w, mh = m->h;
    pt__io_int(io, &mw);
    pt__io_int(io, &mh);
    if (io->reading && !io->bad && (mw != m->w || mh != m->h)) {
        pt__io_fail(io, PT_ERR_BAD_VALUE, "the tiles are %dx%d, the map %dx%d", mw, mh, m->w, m->h);
        return;
    }
    size_t cells = (size_t)m->w * (size_t)m->h;
    if (!io->reading) {
        for (size_t i = 0; i < cells;) {
            size_t j = i + 1;
            while (j < cells && m->tiles[j] == m->tiles[i] && j - i < 0xffffffffu) j++;
            uint8_t t = m->tiles[i];
            pt__io_u8(io, &t);
            put_varint(io, (uint32_t)(j - i));
            i = j;
        }
        return;
    }
    for (size_t i = 0; i < cells && !io->bad;) {
        uint8_t t = 0;
        size_t at = io->pos;
        pt__io_u8(io, &t);
        uint32_t run = get_varint(io);
        if (io->bad) return;
        if (t >= m->nlegend || run == 0 || run > cells - i) {
            io->pos = at;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "a run of tiles is out of range");
            return;
        }
        for (size_t k = i; k < i + run; k++) {
            if (m->tiles[k] == t) continue;
            int x = (int)(k % (size_t)m->w), y = (int)(k / (size_t)m->w);
            if (pt_world_set_tile(w, x, y, m->legend[t].ch, NULL) < 0 || m->tiles[k] != t) {
                io->pos = at;
                pt__io_fail(io, PT_ERR_BAD_VALUE, "tile %d,%d cannot be set", x, y);
                return;
            }
        }
        i += run;
    }
}

/* ---- the world's own fields ---- */

static void io_world(pt__io *io, pt_world *w) {
    pt__io_u64(io, &w->tick);
    io_rng(io, &w->sim_rng);
    io_rng(io, &w->cosmetic_rng);
    pt__io_range(io, &w->nevents, 0, PT__MAX_EVENTS, "event count");
    for (int i = 0; i < w->nevents; i++) pt__save_io_event(io, &w->events[i]);
    pt__io_int(io, &w->events_dropped);
    pt__io_range(io, &w->input_dx, -1, 1, "input");
    pt__io_range(io, &w->input_dy, -1, 1, "input");
    IO_ENUM(io, w->gait, PT_GAIT_COUNT, "gait");
    io_noises(io, w->noises, &w->nnoises);
    pt__io_int(io, &w->noises_dropped);
    io_noises(io, w->shouts, &w->nshouts);
    io_noises(io, w->queued, &w->nqueued);
    pt__io_range(io, &w->round, -1, 1, "round");
    pt__io_int(io, &w->caught_total);
    pt__io_range(io, &w->heard_pending, 0, w->n, "guards with a heard noise");
    pt__io_range(io, &w->ncallers, 0, w->n, "caller count");
    for (int i = 0; i < w->ncallers; i++) pt__io_range(io, &w->callers[i], 0, w->n - 1, "caller");
    IO_ENUM(io, w->phase, PT_PHASE_COUNT, "phase");
    pt__io_int(io, &w->phase_ticks_left);
    pt__io_range(io, &w->player_hidden, 0, 1, "player hidden");
}

/* ---- the entities ---- */

/* A pattern by its index in the library; -1 none, -2 the desc's player pattern. */
static void io_pattern(pt__io *io, pt_world *w, const pt_pattern **pat) {
    int n = w->lib ? w->lib->count : 0, k = -1;
    if (!io->reading && *pat) {
        k = -3;
        for (int i = 0; i < n && k == -3; i++)
            if (w->lib->items[i] == *pat) k = i;
        if (k == -3 && *pat == w->desc.player_pattern) k = -2;
        if (k == -3) pt__io_fail(io, PT_ERR_INTERNAL, "a pattern run's pattern is not in the library");
    }
    pt__io_range(io, &k, w->desc.player_pattern ? -2 : -1, n - 1, "pattern index");
    if (io->reading) *pat = k >= 0 ? w->lib->items[k] : k == -2 ? w->desc.player_pattern : NULL;
}

static void io_thrust_state(pt__io *io, pt_thrust_state *t, int nthr) {
    io_vec(io, &t->pos);
    io_vec(io, &t->vel);
    pt__io_f64(io, &t->angle);
    pt__io_f64(io, &t->omega);
    pt__io_range(io, &t->index, 0, nthr, "thrust instruction");
    pt__io_range(io, &t->done, 0, 1, "thrust done");
    io_vec(io, &t->start_pos);
    pt__io_f64(io, &t->ref_angle);
    pt__io_f64(io, &t->elapsed);
    pt__io_f64(io, &t->dheading_deg);
    pt__io_f64(io, &t->dposition);
    pt__io_f64(io, &t->f);
}

static void io_run(pt__io *io, pt_world *w, pt_patrun *r) {
    /* Read, the pattern must be the one create gave the entity (its declaration's): the
     * world's steering (a waypoint patrol's points) was made for that one. */
    const pt_pattern *made = r->pat;
    size_t at = io->pos;
    io_pattern(io, w, &r->pat);
    if (io->reading && !io->bad && r->pat != made) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "an entity's pattern is not the one its declaration names");
        r->pat = made;
    }
    const pt_pattern *p = r->pat;
    int most = p ? p->ncells : 0; /* the largest index any kind keeps */
    if (p && p->nins > most) most = p->nins;
    if (p && p->nverts > most) most = p->nverts;
    if (p && p->nthr > most) most = p->nthr;
    io_cell(io, &r->origin);
    pt__io_int(io, &r->x);
    pt__io_int(io, &r->y);
    pt__io_f64(io, &r->heading);
    pt__io_range(io, &r->index, -1, most, "pattern index");
    pt__io_range(io, &r->dir, -1, 1, "pattern direction");
    pt__io_int(io, &r->sub);
    pt__io_range(io, &r->done, 0, 1, "pattern done");
    pt__io_int(io, &r->prev_x);
    pt__io_int(io, &r->prev_y);
    pt__io_f64(io, &r->heading_deg);
    pt__io_int(io, &r->wait_ticks);
    pt__io_int(io, &r->pass_x);
    pt__io_int(io, &r->pass_y);
    pt__io_f64(io, &r->pass_heading_deg);
    io_rng(io, &r->rng);
    pt_thrust_body_params *b = &r->body;
    pt__io_f64(io, &b->mass);
    pt__io_f64(io, &b->inertia);
    pt__io_f64(io, &b->thrust);
    pt__io_f64(io, &b->turn_thrust);
    pt__io_f64(io, &b->arm);
    pt__io_f64(io, &b->drag);
    pt__io_f64(io, &b->angular_drag);
    pt__io_f64(io, &b->lateral_drag);
    io_thrust_state(io, &r->thrust, p ? p->nthr : 0);
    io_thrust_state(io, &r->lap, p ? p->nthr : 0);
    pt__io_f64(io, &r->dt);
    pt__io_range(io, &r->wp_index, 0, p ? p->nverts : 0, "waypoint index");
    pt__io_range(io, &r->look, -1, p && p->nlooks > 0 ? p->nlooks - 1 : 0, "look index");
    pt__io_int(io, &r->hold_total);
    pt__io_f64(io, &r->look_base);
    pt__io_u8(io, &r->gait);
    if (io->reading && r->gait >= PT_GAIT_COUNT) pt__io_fail(io, PT_ERR_BAD_VALUE, "pattern gait out of range");
}

static void io_path(pt__io *io, pt_world *w, pt_entity *e) {
    const pt_map *m = &w->map;
    int most = m->w * m->h + PT_MAX_PATTERN_STEPS;
    pt__io_range(io, &e->path_len, 0, most, "path length");
    if (io->reading && !io->bad && e->path_len > e->path_cap) {
        pt_cell *np = PT_REALLOC(e->path, (size_t)e->path_len * sizeof *np);
        if (!np) {
            pt__io_fail(io, PT_ERR_NOMEM, "out of memory for a path");
            e->path_len = 0;
            return;
        }
        e->path = np;
        e->path_cap = e->path_len;
    }
    if (io->bad) e->path_len = 0;
    pt__io_range(io, &e->path_idx, 0, e->path_len, "path index");
    for (int i = 0; i < e->path_len; i++) io_map_cell(io, m, &e->path[i].x, &e->path[i].y, "path cell");
}

static void io_entity(pt__io *io, pt_world *w, pt_entity *e) {
    const pt_map *m = &w->map;
    int kind = (int)e->kind;
    pt__io_range(io, &kind, (int)e->kind, (int)e->kind, "entity kind");
    IO_ENUM(io, e->state, PT_STATE_COUNT, "state");
    IO_ENUM(io, e->motion, PT_MOTION_COUNT, "motion");
    io_map_cell(io, m, &e->x, &e->y, "entity cell");
    io_map_cell(io, m, &e->prev_x, &e->prev_y, "entity cell");
    pt__io_f64(io, &e->move_t);
    io_place(io, m, &e->px, &e->py);
    pt__io_f64(io, &e->heading);
    pt__io_f64(io, &e->speed);
    pt__io_f64(io, &e->view_dist);
    pt__io_f64(io, &e->view_angle);
    pt__io_f64(io, &e->awareness);
    pt__io_f64(io, &e->aware_rate);
    pt__io_f64(io, &e->aware_decay);
    pt__io_f64(io, &e->suspicious_at);
    pt__io_f64(io, &e->chase_at);
    pt__io_f64(io, &e->hearing);
    pt__io_range(io, &e->sees_player, 0, 1, "sees player");
    pt__io_int(io, &e->state_ticks);
    IO_ENUM(io, e->chase, PT_CHASE_COUNT, "chase");
    io_run(io, w, &e->run);
    pt__io_f64(io, &e->last_seen_x);
    pt__io_f64(io, &e->last_seen_y);
    io_path(io, w, e);
    pt__io_u32(io, &e->group);
    pt__io_int(io, &e->caught_count);
    io_rng(io, &e->rng);
    io_vehicle(io, m, &e->veh);
}

static void io_entities(pt__io *io, pt_world *w) {
    int n = w->n;
    pt__io_range(io, &n, w->n, w->n, "entity count");
    for (int i = 0; i < w->n && !io->bad; i++) io_entity(io, w, &w->ents[i]);
}

/* ---- the brains ---- */

static void io_brain(pt__io *io, const pt_map *m, pt__brain *b) {
    pt__io_int(io, &b->lost_ticks);
    pt__io_range(io, &b->search_phase, 0, 2, "search phase");
    pt__io_int(io, &b->search_ticks);
    pt__io_range(io, &b->planned, 0, 1, "planned");
    io_cell(io, &b->target_cell);
    pt__io_f64(io, &b->look_base);
    pt__io_f64(io, &b->progress_x);
    pt__io_f64(io, &b->progress_y);
    pt__io_int(io, &b->progress_ticks);
    pt__io_range(io, &b->chase_by_tile, 0, 1, "chase by tile");
    pt__io_int(io, &b->wp_for);
    pt__io_f64(io, &b->wp_best);
    pt__io_int(io, &b->wp_ticks);
    pt__io_range(io, &b->wp_by_tile, 0, 1, "waypoint by tile");
    pt__io_f64(io, &b->wall_reach);
    pt__io_range(io, &b->glide, 0, 1, "glide");
    pt__io_f64(io, &b->glide_x);
    pt__io_f64(io, &b->glide_y);
    pt__io_f64(io, &b->glide_t0);
    io_cell(io, &b->investigate_at);
    pt__io_range(io, &b->heard, 0, 1, "heard");
    pt__io_f64(io, &b->heard_level);
    for (int k = 0; k < PT_MEMORY_COUNT; k++) {
        pt__memory *mem = &b->mem[k];
        pt__io_u64(io, &mem->tick);
        pt__io_f64(io, &mem->sure);
        pt__io_f64(io, &mem->px);
        pt__io_f64(io, &mem->py);
        pt__io_int(io, &mem->x);
        pt__io_int(io, &mem->y);
        pt__io_range(io, &mem->acted, 0, 1, "memory acted");
    }
    (void)m;
}

static void io_brains(pt__io *io, pt_world *w) {
    for (int i = 0; i < w->n && !io->bad; i++) io_brain(io, &w->map, &w->brains[i]);
}

/* ---- the search (guards/search.c) ---- */

static void io_search(pt__io *io, pt_world *w) { pt__search_io(io, w); }

/* ---- steering: each entity's agent and last force ---- */

static void io_agent(pt__io *io, const pt_map *m, pt_steer_agent *a) {
    io_vehicle(io, m, &a->veh);
    pt__io_u32(io, &a->behaviours);
    io_vec(io, &a->wander.target);
    int n = a->path.n;
    pt__io_range(io, &a->path.current, 0, n > 0 ? n - 1 : 0, "steering path point");
    io_vec(io, &a->offset);
    io_rng(io, &a->rng);
}

static void io_steering(pt__io *io, pt_world *w) {
    for (int i = 0; i < w->n && !io->bad; i++) {
        io_agent(io, &w->map, &w->agents[i]);
        io_vec(io, &w->forces[i]);
    }
}

/* ---- the flocks: their agents (the crowds read them again), scatters, noise times ---- */

static void io_flocks(pt__io *io, pt_world *w) {
    int nb = w->nboids;
    pt__io_range(io, &nb, w->nboids, w->nboids, "flock member count");
    for (int s = 0; s < w->nboids && !io->bad; s++) {
        io_agent(io, &w->map, &w->boids[s]);
        pt__io_u8(io, &w->boid_scared[s]);
    }
    int ng = w->map.nents + 1;
    pt__io_range(io, &ng, w->map.nents + 1, w->map.nents + 1, "flock count");
    for (int g = 0; g < ng; g++) pt__io_u64(io, &w->flock_noise_tick[g]);
    if (io->reading && !io->bad)
        for (int k = 0; k < w->ncrowds; k++) pt_crowd_reload(w->crowds[k]);
}

/* ---- the prey ---- */

static void io_prey(pt__io *io, pt_world *w) {
    int n = w->nprey;
    pt__io_range(io, &n, w->nprey, w->nprey, "prey count");
    for (int i = 0; i < w->nprey; i++) pt__io_u8(io, &w->prey_startled[i]);
    io_vehicle(io, &w->map, &w->prey_player);
}

/* ---- the doors: each door's state, the world's door fields, each guard's doings at doors ---- */

/* A door index + 1 (0 none), negative too with `sign` (door_close). */
static void io_door_ref(pt__io *io, int *v, int ndoors, int sign, const char *what) {
    pt__io_range(io, v, sign ? -ndoors : 0, ndoors, what);
}

static void io_doors(pt__io *io, pt_world *w) {
    pt_map *m = &w->map;
    int n = w->ndoors;
    pt__io_range(io, &n, w->ndoors, w->ndoors, "door count");
    /* The door kinds' legend indices and characters: create adds the missing ones to the
     * world's legend, the same for the same map; a load must have them the same. */
    for (int s = 0; s < 3; s++) {
        int k = w->door_kind[s];
        uint8_t ch = k >= 0 ? (uint8_t)m->legend[k].ch : 0;
        pt__io_range(io, &k, w->door_kind[s], w->door_kind[s], "door kind");
        size_t at = io->pos;
        pt__io_u8(io, &ch);
        if (io->reading && !io->bad && ch != (k >= 0 ? (uint8_t)m->legend[k].ch : 0)) {
            io->pos = at;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "door kind %d's character differs from the world's legend", s);
        }
    }
    int shut = 0;
    for (int i = 0; i < w->ndoors && !io->bad; i++) {
        pt__door *d = &w->doors[i];
        pt__io_range(io, &d->x, d->x, d->x, "door cell");
        pt__io_range(io, &d->y, d->y, d->y, "door cell");
        size_t at = io->pos;
        IO_ENUM(io, d->state, 3, "door state");
        /* the state is its cell's kind, unless the cell is no door kind now */
        int t = m->tiles[(size_t)d->y * (size_t)m->w + (size_t)d->x];
        if (io->reading && !io->bad && (w->door_kind[d->state] < 0 ||
                                        (t != w->door_kind[d->state] && (t == w->door_kind[0] || t == w->door_kind[1] ||
                                                                          t == w->door_kind[2])))) {
            io->pos = at;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "door %d,%d's state is not its tile's", d->x, d->y);
        }
        pt__io_range(io, &d->closes, 0, 1, "door closes");
        shut += d->state == PT_DOOR_CLOSED;
    }
    pt__io_range(io, &w->doors_shut, shut, shut, "closed door count");
    pt__io_range(io, &w->door_live, 0, 1, "doors live");
    pt__io_range(io, &w->door_look, 0, 1, "door look");
    int pause = (int)lround(PT__DOOR_PAUSE_S * w->tick_hz);
    for (int i = 0; i < w->n && !io->bad; i++) {
        pt__brain *b = &w->brains[i];
        io_door_ref(io, &b->door_opening, w->ndoors, 0, "door opening");
        pt__io_range(io, &b->door_wait, 0, pause > 1 ? pause : 1, "door pause");
        io_door_ref(io, &b->door_close, w->ndoors, 1, "door to close");
        pt__io_u64(io, &b->door_noise_tick);
        for (int j = 0; j < PT__DOOR_KNOWN; j++) io_door_ref(io, &b->door_known[j], w->ndoors, 0, "known door");
    }
}

/* ---- the game's own player (patrol/player.h): hosted, and the position waiting ---- */

static void io_host(pt__io *io, pt_world *w) {
    pt__io_range(io, &w->host, 0, 1, "hosted");
    pt__io_range(io, &w->host_set, 0, w->host, "host position set");
    pt__io_range(io, &w->host_jump, 0, w->host, "host jump");
    io_place(io, &w->map, &w->host_x, &w->host_y);
    pt__io_f64(io, &w->host_vx);
    pt__io_f64(io, &w->host_vy);
}

/* ---- the lights (senses/light.c): each one on or off; a part only a world with lights has ---- */

static int has_lights(const pt_world *w) { return w->map.nlights > 0; }

/* The count (it must be the map's), then a byte per light: 1 on, 0 out. Read, each is switched
 * without an event, and the light field follows. */
static void io_lights(pt__io *io, pt_world *w) {
    int n = w->map.nlights;
    pt__io_range(io, &n, w->map.nlights, w->map.nlights, "light count");
    for (int i = 0; i < w->map.nlights && !io->bad; i++) {
        size_t at = io->pos;
        uint8_t on = w->light_on[i];
        pt__io_u8(io, &on);
        if (!io->reading || io->bad) continue;
        if (on > 1) {
            io->pos = at;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "light %d's state is %u (0 or 1)", i, (unsigned)on);
        } else
            pt__light_switch(w, i, on);
    }
}

/* The parts in the order they are written and read: the tiles first (setting them touches
 * the plans, which the entities' part then overwrites; the doors' part checks the door cells'
 * kinds against them). */
const pt__save_part pt__save_parts[] = {
    {3, "tiles", io_tiles, NULL},
    {20, "spawns", pt__save_io_ents, NULL}, /* save_ents.c: the ids the parts below read must be there */
    {4, "world", io_world, NULL},       {5, "entities", io_entities, NULL},
    {6, "brains", io_brains, NULL},     {7, "search", io_search, NULL},     {8, "steering", io_steering, NULL},
    {9, "flocks", io_flocks, NULL},     {10, "prey", io_prey, NULL},        {11, "doors", io_doors, NULL},
    {12, "player", io_host, NULL},
    {21, "lights", io_lights, has_lights},
};
const int pt__save_nparts = (int)(sizeof pt__save_parts / sizeof pt__save_parts[0]);
