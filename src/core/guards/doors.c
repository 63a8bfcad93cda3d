/* SPDX-License-Identifier: Zlib */
/* Doors with a state (docs/ai.md, "Doors"). A door's state is its cell's tile kind (`door`,
 * `door_closed`, `door_locked`), so a change goes through the steps pt_world_set_tile takes
 * (map/, nav/, the plans, the hearing) and every cache follows. */
#include "guards/doors.h"

#include <patrol/door.h>
#include <patrol/hearing.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guards/walk.h"
#include "map/doors.h"
#include "senses/light.h"
#include "senses/memory.h"
#include "state/events.h"
#include "state/noise.h"

int pt__doors_init(pt_world *w, const pt_map *map, pt_error *err) {
    pt_map *m = &w->map;
    w->door_look = map->door_look >= 0;
    for (int s = 0; s < 3; s++) w->door_kind[s] = -1;
    pt__map_doors_start(m); /* the declared states on the grid */
    int state_of[PT_MAX_TILE_KINDS], any = 0;
    for (int i = 0; i < m->nlegend; i++) state_of[i] = pt__door_kind_state(&m->legend[i]);
    size_t n = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < n; i++) any += state_of[m->tiles[i]] >= 0;
    if (!any) return PT_OK;
    w->doors = PT_MALLOC(sizeof *w->doors * (size_t)any);
    if (!w->doors) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d doors", any);
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int s = state_of[m->tiles[(size_t)y * (size_t)m->w + (size_t)x]];
            if (s < 0) continue;
            w->doors[w->ndoors++] = (pt__door){x, y, s, 0};
            w->doors_shut += s == PT_DOOR_CLOSED;
            if (s != PT_DOOR_OPEN) w->door_live = 1;
        }
    /* Every state's kind, before the hearing reads the legend's damping (a full legend keeps
     * the kinds it has: a change to a missing one is PT_ERR_LIMIT). */
    for (int s = 0; s < 3; s++) w->door_kind[s] = pt__map_door_kind(m, s);
    for (int i = 0; i < map->ndoors; i++) {
        int k = pt__door_find(w, map->doors[i].x, map->doors[i].y);
        if (k >= 0) w->doors[k].closes = map->doors[i].closes;
    }
    return PT_OK;
}

void pt__doors_fini(pt_world *w) {
    PT_FREE(w->doors);
    w->doors = NULL;
    w->ndoors = 0;
}

int pt__door_set(pt_world *w, int k, int state, uint32_t who, pt_error *err) {
    pt__door *d = &w->doors[k];
    if (d->state == state) return PT_OK;
    int kind = w->door_kind[state];
    if (kind < 0)
        return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "no room in the legend for the %s tile kind",
                            pt__door_kind_name((pt_door_state)state));
    pt_map *m = &w->map;
    size_t i = (size_t)d->y * (size_t)m->w + (size_t)d->x;
    uint8_t old_flags = m->flags[i];
    char old = m->legend[m->tiles[i]].ch;
    int relight = pt__light_cell_before(w, d->x, d->y, m->legend[kind].flags);
    pt_map_set(m, d->x, d->y, m->legend[kind].ch);
    /* The steps of pt_world_set_tile (world/set_tile.c): the light field, the walls where
     * walkability changed, the plans that cross the cell, the hearing's last flood. */
    if (((old_flags ^ m->flags[i]) & PT_TILE_WALKABLE) && w->env.map && pt_steer_env_update_tile(&w->env, d->x, d->y) < 0) {
        pt_map_set(m, d->x, d->y, old);
        if (relight) pt__light_cell_after(w, d->x, d->y);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the steering walls");
    }
    if (relight) pt__light_cell_after(w, d->x, d->y);
    pt__plans_cell_changed(w, d->x, d->y);
    if (w->hearing) pt_hearing_flood(w->hearing, -1, -1, 0.0);
    w->doors_shut += (state == PT_DOOR_CLOSED) - (d->state == PT_DOOR_CLOSED);
    if (state != PT_DOOR_OPEN) w->door_live = 1;
    d->state = state;
    if (who != PT__DOOR_BY_NOBODY) pt__world_event(w, PT_EVENT_DOOR, who, (uint32_t)state, d->x, d->y);
    return PT_OK;
}

/* ---- guards and the player at doors ----------------------------------------------------- */

static void known_add(pt__brain *b, int k) {
    for (int j = 0; j < PT__DOOR_KNOWN; j++)
        if (b->door_known[j] == k + 1) return;
    for (int j = PT__DOOR_KNOWN - 1; j > 0; j--) b->door_known[j] = b->door_known[j - 1]; /* the oldest goes */
    b->door_known[0] = k + 1;
}

static int known_take(pt__brain *b, int k) {
    for (int j = 0; j < PT__DOOR_KNOWN; j++)
        if (b->door_known[j] == k + 1) {
            for (; j + 1 < PT__DOOR_KNOWN; j++) b->door_known[j] = b->door_known[j + 1];
            b->door_known[PT__DOOR_KNOWN - 1] = 0;
            return 1;
        }
    return 0;
}

/* Door k opened or closed by entity e: the event (pt__door_set), the noise. */
static void door_by(pt_world *w, pt_entity *e, int k, int state) {
    if (pt__door_set(w, k, state, e->id, NULL) < 0) return;
    pt__world_noise(w, w->doors[k].x, w->doors[k].y, PT__DOOR_NOISE, PT_NOISE_TILE);
    w->brains[e->id].door_noise_tick = w->tick;
}

/* Whether a step from e's cell to (x, y) is one a tile mover may take once (x, y) is open:
 * a neighbour, and a diagonal only past two walkable cells. */
static int step_through(const pt_world *w, const pt_entity *e, int x, int y) {
    int dx = x - e->x, dy = y - e->y;
    if ((dx == 0 && dy == 0) || dx < -1 || dx > 1 || dy < -1 || dy > 1) return 0;
    return dx == 0 || dy == 0 || (pt_map_walkable(&w->map, x, e->y) && pt_map_walkable(&w->map, e->x, y));
}

/* A door among e's eight neighbours: one not open (shut), or any (with `any`). */
static int door_near(const pt_world *w, const pt_entity *e, int any) {
    const pt_map *m = &w->map;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int x = e->x + dx, y = e->y + dy;
            if ((dx || dy) && pt_map_in(m, x, y)) {
                int t = m->tiles[(size_t)y * (size_t)m->w + (size_t)x];
                if (t == w->door_kind[PT_DOOR_CLOSED] || t == w->door_kind[PT_DOOR_LOCKED] ||
                    (any && t == w->door_kind[PT_DOOR_OPEN]))
                    return 1;
            }
        }
    return 0;
}

/* The cell a tile pattern walker would step to next, walls aside (a copy of its runner
 * steps without the map). 0 when it would not move. */
static int pattern_next(const pt_entity *e, pt_cell *c) {
    if (!e->run.pat || e->run.pat->kind == PT_PAT_THRUST || e->run.pat->kind == PT_PAT_WAYPOINTS) return 0;
    pt_patrun run = e->run;
    int x = e->x, y = e->y;
    double h = e->heading;
    if (pt_patrun_step(&run, NULL, &x, &y, &h) != PT_STEP_MOVED) return 0;
    *c = (pt_cell){x, y};
    return 1;
}

void pt__doors_own_noise(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (!b->heard || !b->door_noise_tick || b->door_noise_tick + 1 != w->tick) return;
    const pt__memory *m = &b->mem[PT_MEMORY_HEARD];
    if (m->tick != b->door_noise_tick || pt__door_find(w, m->x, m->y) < 0) return;
    if (abs(m->x - e->x) > 2 || abs(m->y - e->y) > 2) return;
    b->heard = 0;
    w->heard_pending--;
    pt__memory_acted(w, e, PT_MEMORY_HEARD);
}

/* The door it opened and closes behind (door_close: index + 1 until it stands on the cell,
 * then -(index + 1)): once it has been on the cell and is off it, and nobody stands on it. A
 * guard more than a step away, or a door no longer open, is given up. */
static void close_behind(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    int k = abs(b->door_close) - 1;
    const pt__door *d = &w->doors[k];
    if (abs(e->x - d->x) > 1 || abs(e->y - d->y) > 1 || d->state != PT_DOOR_OPEN) {
        b->door_close = 0;
        return;
    }
    if (e->x == d->x && e->y == d->y) {
        b->door_close = -(k + 1);
        return;
    }
    if (b->door_close > 0) return; /* not through yet */
    for (int i = 0; i < w->n; i++)
        if (w->ents[i].x == d->x && w->ents[i].y == d->y) return;
    b->door_close = 0;
    door_by(w, e, k, PT_DOOR_CLOSED);
    known_add(b, k);
}

/* A tick of the pause at a closed door: it stands; on the last tick the door opens. */
static int pause(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    pt__stand(w, e);
    if (--b->door_wait > 0) return 1;
    int k = b->door_opening - 1;
    b->door_opening = 0;
    if (w->doors[k].state != PT_DOOR_CLOSED) return 1; /* someone else opened or locked it */
    door_by(w, e, k, PT_DOOR_OPEN);
    known_take(b, k);
    if (w->doors[k].closes) b->door_close = k + 1;
    return 1;
}

int pt__doors_act(pt_world *w, pt_entity *e, pt_cell *look) {
    pt__brain *b = &w->brains[e->id];
    if (b->door_close) close_behind(w, e);
    if (b->door_opening) return pause(w, e);
    if (e->motion != PT_MOTION_TILE) return 0;
    const int patrol = e->state == PT_STATE_PATROL;
    if (!door_near(w, e, patrol && b->door_known[0])) return 0;
    pt_cell c;
    if (patrol) {
        if (!pattern_next(e, &c)) return 0;
    } else {
        if (!b->planned || e->path_idx >= e->path_len) return 0;
        c = e->path[e->path_idx];
    }
    int k = pt__door_find(w, c.x, c.y);
    if (k < 0 || !step_through(w, e, c.x, c.y)) return 0;
    const pt__door *d = &w->doors[k];
    if (d->state == PT_DOOR_OPEN) {
        if (patrol && known_take(b, k) && w->door_look) {
            *look = c;
            return 2;
        }
        return 0;
    }
    if (d->state == PT_DOOR_LOCKED) {
        if (patrol) known_add(b, k);
        return 0;
    }
    /* The pause starts with this tick: it stands PT__DOOR_PAUSE_S, facing the door, which
     * opens on the pause's last tick; it steps in on a later one. */
    b->door_opening = k + 1;
    b->door_wait = (int)lround(PT__DOOR_PAUSE_S * w->tick_hz);
    if (b->door_wait < 1) b->door_wait = 1;
    e->prev_x = e->x;
    e->prev_y = e->y;
    e->heading = atan2((double)(c.y - e->y), (double)(c.x - e->x));
    return pause(w, e);
}

int pt__doors_player_bump(pt_world *w, pt_entity *p, int nx, int ny) {
    int k = pt__door_find(w, nx, ny);
    if (k < 0 || w->doors[k].state != PT_DOOR_CLOSED || !step_through(w, p, nx, ny)) return 0;
    door_by(w, p, k, PT_DOOR_OPEN);
    return 1;
}

void pt__doors_player_pattern(pt_world *w, pt_entity *p) {
    pt_cell c;
    if (p->motion == PT_MOTION_TILE && door_near(w, p, 0) && pattern_next(p, &c)) pt__doors_player_bump(w, p, c.x, c.y);
}
