/* SPDX-License-Identifier: Zlib */
/* The sight table, the guards' listening places and the animals' cells: one world run. */
#include <patrol/light.h>
#include <patrol/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guards/tuning.h"
#include "levels/solve_priv.h"
#include "senses/light.h"
#include "senses/perceive.h"
#include "state/world_state.h"

typedef struct guard_cache {
    int valid;
    double px, py, heading, view_dist, view_angle;
    pt_cell *cells;
    unsigned char *gaits; /* [cap], dark maps: bit g set when a player in gait g is noticed there */
    int n, cap;
} guard_cache;

typedef struct sight_rec {
    pt_sightmap *sm[PT_GAIT_COUNT]; /* the walk table, and on a dark map the sneak and run ones */
    int tick;
    guard_cache *g;
    int nomem;
    int ng;   /* entries of g (the world's entities) */
    int nev;  /* events of the step already looked at for a door's or a light's change */
    int dark; /* the map's ambient level is below 1: what a guard notices depends on the gait */
    int lanterns; /* dark, and a guard carries a lantern: the light moves, nothing is kept */
    int relit;    /* dark: a light or a door changed in the last step, the light is taken again */
    double *light; /* [cells], dark: the light a player on the cell is seen by (take_light) */
    double *raw;   /* [cells], dark: each walkable cell's own light as the step started */
} sight_rec;

/* Cells where a player would startle an animal on tick t (its cry is a noise a guard may
 * hear): prey that would notice it there (pt__prey_notices) and flock members within their
 * scatter distance, each from where the animal stands at the end of ticks t - 1 and t (the
 * animals move within the tick), and a tile more for the player's own move. */
static void shy_record(pt_sightmap *shy, const pt_world *w, int t) {
    const pt_map *m = &w->map;
    uint64_t *row = shy->bits + (size_t)(t - 1) * shy->stride;
    for (int i = 1; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (!e || (e->kind != PT_KIND_PREY && e->kind != PT_KIND_BOID)) continue;
        double reach = e->kind == PT_KIND_BOID ? BOID_SCATTER_DIST + 1.5
                                               : (e->view_dist > PREY_NOTICE_DIST ? e->view_dist : PREY_NOTICE_DIST) + 1.5;
        int x0 = (int)floor(e->px - reach), x1 = (int)floor(e->px + reach);
        int y0 = (int)floor(e->py - reach), y1 = (int)floor(e->py + reach);
        for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < m->h; y++)
            for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < m->w; x++) {
                if (!pt_map_walkable(m, x, y)) continue;
                double d = hypot(x + 0.5 - e->px, y + 0.5 - e->py);
                int near = e->kind == PT_KIND_BOID ? d <= BOID_SCATTER_DIST + 1.5
                                                   : d <= PREY_NOTICE_DIST + 1.5 || pt__prey_notices(w, e, x + 0.5, y + 0.5);
                if (!near) continue;
                size_t b = (size_t)y * (size_t)m->w + (size_t)x;
                row[b >> 6] |= 1ull << (b & 63);
                if (t < shy->ticks) row[shy->stride + (b >> 6)] |= 1ull << (b & 63); /* and the next tick */
            }
    }
}

void pt__solve_listeners_fini(listeners *l) {
    PT_FREE(l->threshold);
    PT_FREE(l->cell);
    PT_FREE(l->chg);
    memset(l, 0, sizeof *l);
}

size_t pt__solve_table_bytes(int w, int h, int ticks) {
    size_t stride = ((size_t)w * (size_t)h + 63) / 64;
    return stride * 8u * (size_t)ticks;
}

/* The step's door changes (its PT_EVENT_DOOR events) appended to ls->chg; 0: no memory. */
static int doors_record(listeners *ls, const pt_world *w, int t, int *cap) {
    int n = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = 0; k < n; k++) {
        if (ev[k].kind != PT_EVENT_DOOR) continue;
        if (ls->nchg == *cap) {
            int nc = *cap ? 2 * *cap : 16;
            door_change *c = PT_REALLOC(ls->chg, (size_t)nc * sizeof *c);
            if (!c) return 0;
            ls->chg = c;
            *cap = nc;
        }
        ls->chg[ls->nchg++] = (door_change){t, (int32_t)(ev[k].y * w->map.w + ev[k].x), (int)ev[k].b};
    }
    return 1;
}

/* Called from the guard's perceive: the cells it sees are those it would see the player on.
 * A guard that has not moved or turned since its last call sees the same cells. */
/* A door that opened, closed or locked since the last look changes what every guard sees,
 * and on a dark map so does a light going on or off: their cells are recomputed. */
static void doors_look(sight_rec *r, const pt_world *w) {
    int n = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = r->nev; k < n; k++)
        if (ev[k].kind == PT_EVENT_DOOR || (r->dark && ev[k].kind == PT_EVENT_LIGHT)) {
            for (int i = 0; i < r->ng; i++) r->g[i].valid = 0;
            r->relit = 1;
        }
    r->nev = n;
}

/* The light a player on each walkable cell is seen by, as the step starts: the world takes
 * the player's visibility then, from the cell it stands on before its move (docs/ai.md,
 * "Sight in the dark"), so a player stepping onto a cell is judged by the light of the cell
 * it came from. The table does not know where from: it takes the brightest of the cell and
 * its walkable neighbours. */
static void take_light(sight_rec *r, const pt_world *w) {
    const pt_map *m = &w->map;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            if (pt_map_walkable(m, x, y)) r->raw[(size_t)y * (size_t)m->w + (size_t)x] = pt_world_light_at(w, x, y);
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            if (!pt_map_walkable(m, x, y)) continue;
            double l = 0.0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if (!pt_map_in(m, nx, ny) || !pt_map_walkable(m, nx, ny)) continue;
                    double n = r->raw[(size_t)ny * (size_t)m->w + (size_t)nx];
                    if (n > l) l = n;
                }
            r->light[(size_t)y * (size_t)m->w + (size_t)x] = l;
        }
    r->relit = 0;
}

/* The gaits (bit per pt_gait) in which guard e notices a player on cell (x, y) of a dark map:
 * visibility V = L + (1 - L) * k(gait), L as take_light has it (docs/ai.md, "Light"). A lower V sees less (the cone's range is view_dist * V), so sneak's cells are
 * walk's, and walk's are run's. */
static unsigned gaits_noticed(const sight_rec *r, const pt_world *w, const pt_entity *e, int x, int y) {
    double px = x + 0.5, py = y + 0.5;
    if (!pt__guard_sees(w, e, px, py, 1.0, NULL)) return 0;
    double l = r->light[(size_t)y * (size_t)w->map.w + (size_t)x];
    unsigned walk = 1u << PT_GAIT_WALK, run = 1u << PT_GAIT_RUN, sneak = 1u << PT_GAIT_SNEAK;
    if (pt__guard_sees(w, e, px, py, l + (1.0 - l) * LIGHT_GAIT_SNEAK, NULL)) return walk | run | sneak;
    if (pt__guard_sees(w, e, px, py, l + (1.0 - l) * LIGHT_GAIT_WALK, NULL)) return walk | run;
    if (pt__guard_sees(w, e, px, py, l + (1.0 - l) * LIGHT_GAIT_RUN, NULL)) return run;
    return 0;
}

static void sight_record(void *user, const pt_world *w, const pt_entity *e) {
    sight_rec *r = user;
    doors_look(r, w);
    guard_cache *c = &r->g[e->id];
    const pt_map *m = &w->map;
    if (r->lanterns) c->valid = 0;
    if (!c->valid || c->px != e->px || c->py != e->py || c->heading != e->heading || c->view_dist != e->view_dist ||
        c->view_angle != e->view_angle) {
        c->valid = 1;
        c->px = e->px;
        c->py = e->py;
        c->heading = e->heading;
        c->view_dist = e->view_dist;
        c->view_angle = e->view_angle;
        c->n = 0;
        /* sight reaches view_dist, the close sense PERIPHERAL_DIST: scan the larger */
        double reach = e->view_dist > PERIPHERAL_DIST ? e->view_dist : PERIPHERAL_DIST;
        double lo_x = e->px - reach - 1.0, hi_x = e->px + reach + 1.0;
        double lo_y = e->py - reach - 1.0, hi_y = e->py + reach + 1.0;
        int x0 = isfinite(lo_x) && lo_x > 0 ? (int)lo_x : 0, y0 = isfinite(lo_y) && lo_y > 0 ? (int)lo_y : 0;
        int x1 = isfinite(hi_x) && hi_x < m->w - 1 ? (int)hi_x : m->w - 1;
        int y1 = isfinite(hi_y) && hi_y < m->h - 1 ? (int)hi_y : m->h - 1;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (!pt_map_walkable(m, x, y)) continue;
                unsigned gaits = 0;
                if (r->dark) {
                    if (!(gaits = gaits_noticed(r, w, e, x, y))) continue;
                } else if (!pt__guard_notices(w, e, x + 0.5, y + 0.5, NULL))
                    continue;
                if (c->n == c->cap) {
                    int cap = c->cap ? 2 * c->cap : 64;
                    pt_cell *nc = PT_REALLOC(c->cells, (size_t)cap * sizeof *nc);
                    unsigned char *ng = r->dark ? PT_REALLOC(c->gaits, (size_t)cap) : NULL;
                    if (nc) c->cells = nc;
                    if (ng) c->gaits = ng;
                    if (!nc || (r->dark && !ng)) {
                        r->nomem = 1;
                        c->valid = 0;
                        return;
                    }
                    c->cap = cap;
                }
                if (r->dark) c->gaits[c->n] = (unsigned char)gaits;
                c->cells[c->n++] = (pt_cell){x, y};
            }
    }
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        pt_sightmap *sm = r->sm[g];
        if (!sm) continue;
        uint64_t *row = sm->bits + (size_t)(r->tick - 1) * sm->stride;
        for (int i = 0; i < c->n; i++) {
            if (r->dark && !(c->gaits[i] >> g & 1u)) continue;
            size_t b = (size_t)c->cells[i].y * (size_t)m->w + (size_t)c->cells[i].x;
            row[b >> 6] |= 1ull << (b & 63);
        }
    }
}

int pt_sightmap_build(pt_sightmap *sm, const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks,
                      pt_error *err) {
    return pt__solve_sight_build(sm, 0, NULL, map, lib, seed, ticks, err);
}

int pt_sightmap_build_gait(pt_sightmap *sm, const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks,
                           pt_gait gait, pt_error *err) {
    pt_error_clear(err);
    if (sm) memset(sm, 0, sizeof *sm);
    if ((int)gait < 0 || gait >= PT_GAIT_COUNT)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "sight table: gait %d is not one of sneak, walk, run", (int)gait);
    if (!pt__solve_dark(map)) return pt__solve_sight_build(sm, 0, NULL, map, lib, seed, ticks, err);
    pt_sightmap all[PT_GAIT_COUNT];
    int rc = pt__solve_sight_build(all, 1, NULL, map, lib, seed, ticks, err);
    if (rc != PT_OK) return rc;
    *sm = all[gait];
    for (int g = 0; g < PT_GAIT_COUNT; g++)
        if (g != (int)gait) pt_sightmap_fini(&all[g]);
    return PT_OK;
}

int pt__solve_dark(const pt_map *map) { return map->ambient_set && map->ambient < 1.0; }

const pt_sightmap *pt__solve_gait_table(const pt_sightmap *sm, int g) {
    return sm[g].bits ? &sm[g] : &sm[PT_GAIT_WALK];
}

void pt__solve_gait_start(pt_sightmap *sm, int t0) {
    const pt_sightmap *walk = &sm[PT_GAIT_WALK];
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        if (g == PT_GAIT_WALK || !sm[g].bits) continue;
        for (int t = 1; t <= t0 + 1 && t <= sm[g].ticks; t++)
            for (size_t k = 0; k < sm[g].stride; k++)
                sm[g].bits[(size_t)(t - 1) * sm[g].stride + k] |= walk->bits[(size_t)(t - 1) * walk->stride + k];
    }
}

static int table_alloc(pt_sightmap *sm, const pt_map *map, int ticks, pt_error *err) {
    size_t bytes = pt__solve_table_bytes(map->w, map->h, ticks);
    sm->w = map->w;
    sm->h = map->h;
    sm->ticks = ticks;
    sm->stride = ((size_t)map->w * (size_t)map->h + 63) / 64;
    sm->bits = PT_CALLOC(bytes ? bytes : 1, 1);
    if (!sm->bits) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the sight table (%zu MB)", bytes >> 20);
    return PT_OK;
}

/* The sight tables (sm not NULL: one, or with gaits the PT_GAIT_COUNT of them), and (ls not
 * NULL) where the guards listen on each tick. */
int pt__solve_sight_build(pt_sightmap *sm, int gaits, listeners *ls, const pt_map *map, const pt_patlib *lib,
                          uint64_t seed, int ticks, pt_error *err) {
    pt_error_clear(err);
    if (ls) {
        listeners keep = *ls;
        memset(ls, 0, sizeof *ls);
        ls->shy = keep.shy;
        ls->opts = keep.opts;
        ls->done0 = keep.done0;
        ls->span = keep.span;
    }
    if (sm) memset(sm, 0, (gaits ? PT_GAIT_COUNT : 1) * sizeof *sm);
    if (ticks < 1 || ticks > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "sight table: %d ticks is not in 1..%d", ticks, PT_SOLVE_MAX_TICKS);
    const int dark = pt__solve_dark(map);
    sight_rec rec;
    memset(&rec, 0, sizeof rec);
    rec.dark = dark;
    if (sm) {
        int ntab = gaits && dark ? PT_GAIT_COUNT : 1;
        size_t bytes = pt__solve_table_bytes(map->w, map->h, ticks);
        if (bytes > (size_t)PT_SOLVE_MAX_BYTES / (size_t)ntab)
            return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "sight table of %dx%d cells x %d ticks needs %zu MB, more than %ld",
                                map->w, map->h, ticks, (bytes >> 20) * (size_t)ntab, PT_SOLVE_MAX_BYTES >> 20);
        int rc = table_alloc(&sm[PT_GAIT_WALK * (gaits != 0)], map, ticks, err);
        rec.sm[PT_GAIT_WALK] = &sm[PT_GAIT_WALK * (gaits != 0)];
        for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK && ntab > 1; g++)
            if (g != PT_GAIT_WALK && (rc = table_alloc(&sm[g], map, ticks, err)) == PT_OK) rec.sm[g] = &sm[g];
        if (rc != PT_OK) {
            for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(rec.sm[g]);
            return rc;
        }
    }
    pt_world_desc d = {0};
    d.seed = seed;
    d.player_controlled = 1; /* stands at the start; nobody sees it anyway */
    pt_error local;
    pt_world *w = pt_world_create(map, lib, &d, &local);
    if (!w) {
        for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(rec.sm[g]);
        if (err) *err = local;
        return local.code;
    }
    rec.g = PT_CALLOC((size_t)pt_world_count(w), sizeof(guard_cache));
    rec.ng = pt_world_count(w);
    if (!rec.g) rec.nomem = 1;
    if (dark && sm && (!(rec.light = PT_MALLOC((size_t)map->w * (size_t)map->h * sizeof *rec.light + 1)) ||
                       !(rec.raw = PT_MALLOC((size_t)map->w * (size_t)map->h * sizeof *rec.raw + 1))))
        rec.nomem = 1;
    rec.relit = 1;
    int *gid = NULL;
    if (ls) {
        gid = PT_MALLOC(((size_t)pt_world_count(w) + 1) * sizeof *gid);
        if (!gid) rec.nomem = 1;
        for (int i = 0; gid && i < pt_world_count(w); i++)
            if (pt_world_entity(w, i) && pt_world_entity(w, i)->kind == PT_KIND_GUARD) gid[ls->n++] = i;
        ls->ticks = ticks;
        ls->threshold = PT_MALLOC(((size_t)ls->n + 1) * sizeof *ls->threshold);
        ls->cell = PT_MALLOC(((size_t)ls->n * (size_t)ticks + 1) * sizeof *ls->cell);
        if (!ls->threshold || !ls->cell) rec.nomem = 1;
        for (int j = 0; !rec.nomem && j < ls->n; j++) ls->threshold[j] = pt_world_entity(w, gid[j])->hearing;
    }
    w->player_hidden = 1;
    if (sm) {
        w->sight_fn = sight_record;
        w->sight_user = &rec;
    }
    int chg_cap = 0;
    for (int t = 1; t <= ticks && !rec.nomem; t++) {
        rec.tick = t;
        rec.nev = 0;
        rec.lanterns = 0;
        for (int i = 0; dark && i < pt_world_count(w); i++)
            rec.lanterns |= pt_world_entity(w, i) && pt_world_entity(w, i)->kind == PT_KIND_GUARD && w->defs[i].lantern > 0.0;
        if (ls && ls->opts && (t & 255) == 0) pt__solve_report(ls->opts, "sight", ls->done0 + ls->span * t / ticks);
        if (rec.light && (rec.relit || rec.lanterns)) {
            take_light(&rec, w);
            for (int i = 0; i < rec.ng; i++) rec.g[i].valid = 0;
        }
        pt_world_step(w);
        if (rec.g) doors_look(&rec, w); /* the step's changes after the last guard looked */
        if (ls && ls->shy) shy_record(ls->shy, w, t);
        if (ls && !doors_record(ls, w, t, &chg_cap)) rec.nomem = 1;
        for (int j = 0; ls && j < ls->n; j++) {
            const pt_entity *e = pt_world_entity(w, gid[j]);
            ls->cell[(size_t)(t - 1) * (size_t)ls->n + (size_t)j] =
                e->state == PT_STATE_CHASE ? -1 : (int32_t)(e->y * map->w + e->x);
        }
    }
    PT_FREE(gid);
    if (rec.nomem && ls) pt__solve_listeners_fini(ls);
    if (rec.g)
        for (int i = 0; i < pt_world_count(w); i++) {
            PT_FREE(rec.g[i].cells);
            PT_FREE(rec.g[i].gaits);
        }
    PT_FREE(rec.g);
    PT_FREE(rec.light);
    PT_FREE(rec.raw);
    pt_world_destroy(w);
    if (rec.nomem) {
        for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(rec.sm[g]);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory recording the guards' sight");
    }
    return PT_OK;
}

int pt_sightmap_seen(const pt_sightmap *sm, int t, int x, int y) {
    if (!sm->bits || t < 1 || t > sm->ticks || x < 0 || y < 0 || x >= sm->w || y >= sm->h) return 0;
    size_t b = (size_t)y * (size_t)sm->w + (size_t)x;
    return (int)(sm->bits[(size_t)(t - 1) * sm->stride + (b >> 6)] >> (b & 63) & 1u);
}

/* Adds 1 to counts[c] for each bit c set in row. */
void pt__solve_count_row(const uint64_t *row, size_t stride, int *counts) {
    for (size_t k = 0; k < stride; k++)
        for (uint64_t v = row[k]; v; v &= v - 1) counts[k * 64 + (size_t)__builtin_ctzll(v)]++;
}

void pt_sightmap_counts(const pt_sightmap *sm, int *counts) {
    size_t cells = (size_t)sm->w * (size_t)sm->h;
    memset(counts, 0, cells * sizeof *counts);
    for (int t = 0; t < sm->ticks && sm->bits; t++) pt__solve_count_row(sm->bits + (size_t)t * sm->stride, sm->stride, counts);
}

void pt_sightmap_fini(pt_sightmap *sm) {
    if (!sm) return;
    PT_FREE(sm->bits);
    memset(sm, 0, sizeof *sm);
}
