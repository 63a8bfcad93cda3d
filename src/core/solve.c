/* SPDX-License-Identifier: Zlib */
/* The sight table and the level solver (patrol/solve.h). */
#include <patrol/solve.h>

#include <patrol/hearing.h>
#include <patrol/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "brain_tuning.h"
#include "world_internal.h"

/* ---- the sight table ------------------------------------------------------------------ */

typedef struct guard_cache {
    int valid;
    double px, py, heading, view_dist, view_angle;
    pt_cell *cells;
    int n, cap;
} guard_cache;

typedef struct sight_rec {
    pt_sightmap *sm;
    int tick;
    guard_cache *g;
    int nomem;
} sight_rec;

/* Where the guards listen on each tick of the sight run: their cells after their update
 * (where the world's listen() takes them) and their hearing thresholds. */
typedef struct listeners {
    int n;               /* guards */
    int ticks;
    double *threshold;   /* [n] */
    int32_t *cell;       /* [(t - 1) * n + j]: y * w + x, or -1 when not listening (a chase) */
    pt_sightmap *shy;    /* when set: ORs in the cells where the player would startle an animal */
} listeners;

/* Cells where a player would startle an animal on tick t (its cry is a noise a guard may
 * hear): prey that would notice it there (pt__prey_notices) and flock members within their
 * scatter distance, each from where the animal stands at the end of ticks t - 1 and t (the
 * animals move within the tick), and a tile more for the player's own move. */
static void shy_record(pt_sightmap *shy, const pt_world *w, int t) {
    const pt_map *m = &w->map;
    uint64_t *row = shy->bits + (size_t)(t - 1) * shy->stride;
    for (int i = 1; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (e->kind != PT_KIND_PREY && e->kind != PT_KIND_BOID) continue;
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

static void listeners_fini(listeners *l) {
    PT_FREE(l->threshold);
    PT_FREE(l->cell);
    memset(l, 0, sizeof *l);
}

static size_t sm_bytes(int w, int h, int ticks) {
    size_t stride = ((size_t)w * (size_t)h + 63) / 64;
    return stride * 8u * (size_t)ticks;
}

/* Called from the guard's perceive: the cells it sees are those it would see the player on.
 * A guard that has not moved or turned since its last call sees the same cells. */
static void sight_record(void *user, const pt_world *w, const pt_entity *e) {
    sight_rec *r = user;
    guard_cache *c = &r->g[e->id];
    const pt_map *m = &w->map;
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
                if (!pt_map_walkable(m, x, y) || !pt__guard_notices(w, e, x + 0.5, y + 0.5, NULL)) continue;
                if (c->n == c->cap) {
                    int cap = c->cap ? 2 * c->cap : 64;
                    pt_cell *nc = PT_REALLOC(c->cells, (size_t)cap * sizeof *nc);
                    if (!nc) {
                        r->nomem = 1;
                        c->valid = 0;
                        return;
                    }
                    c->cells = nc;
                    c->cap = cap;
                }
                c->cells[c->n++] = (pt_cell){x, y};
            }
    }
    uint64_t *row = r->sm->bits + (size_t)(r->tick - 1) * r->sm->stride;
    for (int i = 0; i < c->n; i++) {
        size_t b = (size_t)c->cells[i].y * (size_t)m->w + (size_t)c->cells[i].x;
        row[b >> 6] |= 1ull << (b & 63);
    }
}

static int sight_build(pt_sightmap *sm, listeners *ls, const pt_map *map, const pt_patlib *lib, uint64_t seed,
                       int ticks, pt_error *err);

int pt_sightmap_build(pt_sightmap *sm, const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks,
                      pt_error *err) {
    return sight_build(sm, NULL, map, lib, seed, ticks, err);
}

/* The sight table (sm not NULL), and (ls not NULL) where the guards listen on each tick. */
static int sight_build(pt_sightmap *sm, listeners *ls, const pt_map *map, const pt_patlib *lib, uint64_t seed,
                       int ticks, pt_error *err) {
    pt_error_clear(err);
    if (ls) {
        pt_sightmap *shy = ls->shy;
        memset(ls, 0, sizeof *ls);
        ls->shy = shy;
    }
    if (ticks < 1 || ticks > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "sight table: %d ticks is not in 1..%d", ticks, PT_SOLVE_MAX_TICKS);
    pt_sightmap none;
    if (!sm) sm = &none; /* stays empty: no sight is recorded */
    memset(sm, 0, sizeof *sm);
    if (sm != &none) {
        size_t bytes = sm_bytes(map->w, map->h, ticks);
        if (bytes > (size_t)PT_SOLVE_MAX_BYTES)
            return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "sight table of %dx%d cells x %d ticks needs %zu MB, more than %ld",
                                map->w, map->h, ticks, bytes >> 20, PT_SOLVE_MAX_BYTES >> 20);
        sm->w = map->w;
        sm->h = map->h;
        sm->ticks = ticks;
        sm->stride = ((size_t)map->w * (size_t)map->h + 63) / 64;
        sm->bits = PT_CALLOC(bytes ? bytes : 1, 1);
        if (!sm->bits) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the sight table (%zu MB)", bytes >> 20);
    }
    pt_world_desc d = {0};
    d.seed = seed;
    d.player_controlled = 1; /* stands at the start; nobody sees it anyway */
    pt_error local;
    pt_world *w = pt_world_create(map, lib, &d, &local);
    if (!w) {
        pt_sightmap_fini(sm);
        if (err) *err = local;
        return local.code;
    }
    sight_rec rec = {sm, 0, PT_CALLOC((size_t)pt_world_count(w), sizeof(guard_cache)), 0};
    if (!rec.g) rec.nomem = 1;
    int *gid = NULL;
    if (ls) {
        gid = PT_MALLOC(((size_t)pt_world_count(w) + 1) * sizeof *gid);
        if (!gid) rec.nomem = 1;
        for (int i = 0; gid && i < pt_world_count(w); i++)
            if (pt_world_entity(w, i)->kind == PT_KIND_GUARD) gid[ls->n++] = i;
        ls->ticks = ticks;
        ls->threshold = PT_MALLOC(((size_t)ls->n + 1) * sizeof *ls->threshold);
        ls->cell = PT_MALLOC(((size_t)ls->n * (size_t)ticks + 1) * sizeof *ls->cell);
        if (!ls->threshold || !ls->cell) rec.nomem = 1;
        for (int j = 0; !rec.nomem && j < ls->n; j++) ls->threshold[j] = pt_world_entity(w, gid[j])->hearing;
    }
    w->player_hidden = 1;
    if (sm != &none) {
        w->sight_fn = sight_record;
        w->sight_user = &rec;
    }
    for (int t = 1; t <= ticks && !rec.nomem; t++) {
        rec.tick = t;
        pt_world_step(w);
        if (ls && ls->shy) shy_record(ls->shy, w, t);
        for (int j = 0; ls && j < ls->n; j++) {
            const pt_entity *e = pt_world_entity(w, gid[j]);
            ls->cell[(size_t)(t - 1) * (size_t)ls->n + (size_t)j] =
                e->state == PT_STATE_CHASE ? -1 : (int32_t)(e->y * map->w + e->x);
        }
    }
    PT_FREE(gid);
    if (rec.nomem && ls) listeners_fini(ls);
    if (rec.g)
        for (int i = 0; i < pt_world_count(w); i++) PT_FREE(rec.g[i].cells);
    PT_FREE(rec.g);
    pt_world_destroy(w);
    if (rec.nomem) {
        pt_sightmap_fini(sm);
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
static void count_row(const uint64_t *row, size_t stride, int *counts) {
    for (size_t k = 0; k < stride; k++)
        for (uint64_t v = row[k]; v; v &= v - 1) counts[k * 64 + (size_t)__builtin_ctzll(v)]++;
}

void pt_sightmap_counts(const pt_sightmap *sm, int *counts) {
    size_t cells = (size_t)sm->w * (size_t)sm->h;
    memset(counts, 0, cells * sizeof *counts);
    for (int t = 0; t < sm->ticks && sm->bits; t++) count_row(sm->bits + (size_t)t * sm->stride, sm->stride, counts);
}

void pt_sightmap_fini(pt_sightmap *sm) {
    if (!sm) return;
    PT_FREE(sm->bits);
    memset(sm, 0, sizeof *sm);
}

/* ---- the hearing table ---------------------------------------------------------------- */

/* The footsteps the guards hear: each distinct (guard, cell) the guards listen from on some
 * tick is a place, and a place's set holds the cells whose footstep in the gait it hears. */
typedef struct heard {
    int n, ticks;        /* as the listeners */
    int np;              /* places */
    size_t stride;       /* 64-bit words per set */
    int32_t *place;      /* [(t - 1) * n + j]: guard j's place on tick t, or -1 (not listening) */
    uint64_t *sets;      /* [k * stride ...]: bit y * w + x when place k hears a step there */
} heard;

static void heard_fini(heard *hd) {
    PT_FREE(hd->place);
    PT_FREE(hd->sets);
    memset(hd, 0, sizeof *hd);
}

/* The world's noise of a step (the gait's loudness times the tile's footstep, or the tile's
 * own noise when louder), one hearing flood from the cell, heard where its level at the
 * guard's cell is above its threshold, as the world's listen() decides. Floods from each cell
 * rather than from each guard: the footstep made at a cell is the same on every tick, so a
 * cell is one flood whatever the ticks, and a flood from the cell is exactly what the world
 * does (a step's loss counts the entered tile's damping, so a flood from the guard would
 * give another level wherever the two ends damp differently). Each flood is read at every
 * place. Returns 0 when out of memory. */
static int heard_build(heard *hd, const listeners *ls, const pt_map *map, pt_gait g) {
    size_t C = (size_t)map->w * (size_t)map->h;
    memset(hd, 0, sizeof *hd);
    hd->n = ls->n;
    hd->ticks = ls->ticks;
    hd->stride = (C + 63) / 64;
    int32_t *pair = PT_MALLOC((size_t)ls->n * C * sizeof *pair + 1); /* (guard, cell) -> place, or -1 */
    int32_t *pc = PT_MALLOC(((size_t)ls->n * (size_t)ls->ticks + 1) * sizeof *pc); /* place -> j * C + cell */
    hd->place = PT_MALLOC(((size_t)ls->n * (size_t)ls->ticks + 1) * sizeof *hd->place);
    pt_hearing *hr = NULL;
    int ok = 0;
    if (!pair || !pc || !hd->place) goto out;
    for (size_t i = 0; i < (size_t)ls->n * C; i++) pair[i] = -1;
    for (size_t i = 0; i < (size_t)ls->n * (size_t)ls->ticks; i++) {
        int32_t c = ls->cell[i];
        size_t j = i % (size_t)ls->n;
        if (c >= 0 && pair[j * C + (size_t)c] < 0) {
            pc[hd->np] = (int32_t)j * (int32_t)C + c; /* guard j at cell c */
            pair[j * C + (size_t)c] = hd->np++;
        }
        hd->place[i] = c < 0 ? -1 : pair[j * C + (size_t)c];
    }
    hd->sets = PT_CALLOC((size_t)hd->np * hd->stride + 1, sizeof *hd->sets);
    if (!hd->sets || !(hr = pt_hearing_create(map))) goto out;
    for (int y = 0; y < map->h && hd->np > 0; y++)
        for (int x = 0; x < map->w; x++) {
            if (!pt_map_walkable(map, x, y)) continue;
            double level = pt_footstep_loudness(map, x, y, g);
            if (!(level > 0.0)) continue;
            int reached = pt_hearing_flood(hr, x, y, level);
            if (reached == PT_ERR_NOMEM) goto out;
            if (reached <= 0) continue;
            const int r = (int)ceil(level); /* no farther cell is reached (Chebyshev) */
            size_t b = (size_t)y * (size_t)map->w + (size_t)x;
            for (int k = 0; k < hd->np; k++) {
                int j = (int)(pc[k] / (int32_t)C), c = (int)(pc[k] % (int32_t)C), lx = c % map->w, ly = c / map->w;
                if (abs(lx - x) > r || abs(ly - y) > r) continue;
                if (pt_hearing_level(hr, lx, ly) > ls->threshold[j]) hd->sets[(size_t)k * hd->stride + (b >> 6)] |= 1ull << (b & 63);
            }
        }
    ok = 1;
out:
    pt_hearing_destroy(hr);
    PT_FREE(pair);
    PT_FREE(pc);
    if (!ok) heard_fini(hd);
    return ok;
}

/* ORs into row the cells whose footstep a guard listening on tick t (1..ticks) hears. */
static void heard_or(const heard *hd, int t, uint64_t *row) {
    const int32_t *place = hd->place + (size_t)(t - 1) * (size_t)hd->n;
    for (int j = 0; j < hd->n; j++) {
        if (place[j] < 0) continue;
        const uint64_t *set = hd->sets + (size_t)place[j] * hd->stride;
        for (size_t w = 0; w < hd->stride; w++) row[w] |= set[w];
    }
}

/* Steps that are heard: ORs into bit (t, c) of `loud` (as large as the sight table) when the
 * player's footstep on entering cell c on tick t in gait g would be heard by a guard
 * listening then. */
static int loud_build(pt_sightmap *loud, const listeners *ls, const pt_map *map, pt_gait g) {
    heard hd;
    if (!heard_build(&hd, ls, map, g)) return 0;
    int ticks = ls->ticks < loud->ticks ? ls->ticks : loud->ticks;
    for (int t = 1; t <= ticks; t++) heard_or(&hd, t, loud->bits + (size_t)(t - 1) * loud->stride);
    heard_fini(&hd);
    return 1;
}

int pt_hearmap_build(const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks, pt_gait gait, int *counts,
                     pt_error *err) {
    pt_error_clear(err);
    if (ticks < 1 || ticks > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "hearing table: %d ticks is not in 1..%d", ticks, PT_SOLVE_MAX_TICKS);
    if ((unsigned)gait >= PT_GAIT_COUNT)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "hearing table: gait %d is not a gait", (int)gait);
    memset(counts, 0, (size_t)map->w * (size_t)map->h * sizeof *counts);
    listeners ls;
    ls.shy = NULL;
    int rc = sight_build(NULL, &ls, map, lib, seed, ticks, err);
    if (rc != PT_OK) return rc;
    heard hd;
    uint64_t *row = NULL;
    if (heard_build(&hd, &ls, map, gait)) {
        row = PT_MALLOC((hd.stride + 1) * sizeof *row);
        for (int t = 1; row && t <= ticks; t++) {
            memset(row, 0, hd.stride * sizeof *row);
            heard_or(&hd, t, row);
            count_row(row, hd.stride, counts);
        }
        heard_fini(&hd);
    }
    listeners_fini(&ls);
    if (!row) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the hearing table");
    PT_FREE(row);
    return PT_OK;
}

/* ---- the search ----------------------------------------------------------------------- */

/* Heading axes: a step goes +d or -d (forward or backward, whichever way the heading points). */
static const int AX_DX[4] = {1, 1, 0, -1}, AX_DY[4] = {0, 1, 1, 1};

typedef struct solver {
    const pt_map *map;
    int W, H;
    size_t C;          /* cells */
    int T;             /* horizon */
    const pt_sightmap *unsafe;
    const pt_sightmap *loud;  /* steps heard in the gait searched (NULL: none) */
    int t0, k0;        /* the search starts on tick t0 in class k0 (after a gait action) */
    int ncls;          /* classes of the action count (the step rhythm) */
    int gap[PT_SOLVE_MAX_RHYTHM + 8], nxt[PT_SOLVE_MAX_RHYTHM + 8];
    size_t slab;       /* bits per tick */
    uint64_t *V;
    uint64_t *R;       /* the window pass: states from which the goal can be reached */
    int full;          /* search to the horizon, not only to the earliest arrival */
    size_t start;      /* the start cell; no step off it before tick leave_after */
    int leave_after;
    uint8_t *stay;     /* [t][k][h][a]: states on the start never left, */
    uint8_t *dep;      /* [t]: 1 when leaving on tick t can reach the goal */
    long long nodes;
    int best_t;
    size_t best_bit;
} solver;

static int safe_at(const solver *s, size_t cell, int t) {
    if (t < 1) return 1;
    if (t > s->T) return 0;
    return !(s->unsafe->bits[(size_t)(t - 1) * s->unsafe->stride + (cell >> 6)] >> (cell & 63) & 1u);
}

/* Safe on every tick t0..t1 (inclusive). */
static int safe_span(const solver *s, size_t cell, int t0, int t1) {
    for (int t = t0; t <= t1; t++)
        if (!safe_at(s, cell, t)) return 0;
    return 1;
}

/* A step onto cell on tick t that a guard would hear. */
static int heard_at(const solver *s, size_t cell, int t) {
    if (!s->loud || t < 1 || t > s->loud->ticks) return 0;
    return (int)(s->loud->bits[(size_t)(t - 1) * s->loud->stride + (cell >> 6)] >> (cell & 63) & 1u);
}

static size_t node_bit(const solver *s, int t, int k, int h, int a, size_t cell) {
    return (size_t)t * s->slab + ((((size_t)k * 2u + (size_t)h) * 4u + (size_t)a) * s->C) + cell;
}

static int vget(const solver *s, size_t bit) { return (int)(s->V[bit >> 6] >> (bit & 63) & 1u); }

static int is_goal_state(const solver *s, int t, int h, size_t cell);

static void add(solver *s, int t, int k, int h, int a, size_t cell) {
    size_t bit = node_bit(s, t, k, h, a, cell);
    if (vget(s, bit)) return;
    s->V[bit >> 6] |= 1ull << (bit & 63);
    s->nodes++;
    if (is_goal_state(s, t, h, cell) && t < s->best_t) {
        s->best_t = t;
        s->best_bit = bit;
    }
}

/* The moves of the player from a state: every successor the world allows and no guard sees,
 * given to fn (the search adds them; the window pass asks whether they reach the goal). fn
 * returns 1 to stop. */
typedef int (*succ_fn)(solver *s, int t, int k, int h, int a, size_t cell);

static int successors(solver *s, int t, int k, int h, int a, size_t cell, succ_fn fn) {
    int x = (int)(cell % (size_t)s->W), y = (int)(cell / (size_t)s->W);
    if (h && t + 1 <= s->T && safe_at(s, cell, t + 1) && fn(s, t + 1, k, 1, a, cell)) return 1;
    int t1 = t + s->gap[k];
    if (t1 > s->T || !safe_span(s, cell, t + 1, t1 - 1)) return 0;
    int k1 = s->nxt[k];
    for (int sg = -1; sg <= 1; sg += 2) {
        int nx = x + sg * AX_DX[a], ny = y + sg * AX_DY[a];
        if (!pt_map_step_ok(s->map, x, y, nx, ny)) continue;
        size_t nc = (size_t)ny * (size_t)s->W + (size_t)nx;
        if (cell == s->start && t1 < s->leave_after) continue;
        if (safe_at(s, nc, t1) && !heard_at(s, nc, t1) && fn(s, t1, k1, 0, a, nc)) return 1;
    }
    if (!safe_at(s, cell, t1)) return 0;
    for (int b = 0; b < 4; b++)
        if (b != a && fn(s, t1, k1, 0, b, cell)) return 1;
    return t1 + 1 <= s->T && safe_at(s, cell, t1 + 1) && fn(s, t1 + 1, k1, 1, a, cell);
}

static int add_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    add(s, t, k, h, a, cell);
    return 0;
}

static int is_goal_state(const solver *s, int t, int h, size_t cell) {
    return !h && t > 0 && (s->map->flags[cell] & PT_TILE_GOAL);
}

/* A successor from which the goal can be reached (already known: later ticks come first). */
static int reaches_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    size_t bit = node_bit(s, t, k, h, a, cell);
    return is_goal_state(s, t, h, cell) || (s->R[bit >> 6] >> (bit & 63) & 1u);
}

static size_t stay_index(const solver *s, int t, int k, int h, int a) {
    return (((size_t)t * (size_t)s->ncls + (size_t)k) * 2u + (size_t)h) * 4u + (size_t)a;
}

static int window_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    if (cell == s->start) s->stay[stay_index(s, t, k, h, a)] = 1;
    else if (reaches_fn(s, t, k, h, a, cell)) s->dep[t] = 1;
    return 0;
}

/* The ticks on which the player can leave the start and still reach the goal unseen: which
 * states reach the goal (from the horizon back to tick 0, over the states the full search
 * visited), then the first steps off the start that lead to one. */
static int start_window(solver *s, pt_solve_result *r) {
    size_t words = ((size_t)(s->T + 1) * s->slab + 63) / 64;
    s->R = PT_CALLOC(words, sizeof *s->R);
    s->stay = PT_CALLOC((size_t)(s->T + 2) * (size_t)s->ncls * 8u, 1);
    s->dep = PT_CALLOC((size_t)s->T + 2, 1);
    if (!s->R || !s->stay || !s->dep) return 0;
    for (int t = s->T; t >= 0; t--) {
        size_t b0 = (size_t)t * s->slab, b1 = b0 + s->slab;
        for (size_t wi = b0 >> 6; wi <= (b1 - 1) >> 6; wi++)
            for (uint64_t v = s->V[wi]; v; v &= v - 1) {
                size_t bit = wi * 64 + (size_t)__builtin_ctzll(v);
                if (bit < b0 || bit >= b1) continue;
                size_t rem = bit - b0, cell = rem % s->C;
                int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
                if (!is_goal_state(s, t, h, cell) && successors(s, t, k, h, a, cell, reaches_fn))
                    s->R[bit >> 6] |= 1ull << (bit & 63);
            }
    }
    for (int a = 0; a < 4; a++) s->stay[stay_index(s, s->t0, s->k0, 0, a)] = 1;
    for (int t = s->t0; t <= s->T; t++)
        for (int k = 0; k < s->ncls; k++)
            for (int h = 0; h < 2; h++)
                for (int a = 0; a < 4; a++)
                    if (s->stay[stay_index(s, t, k, h, a)]) successors(s, t, k, h, a, s->start, window_fn);
    r->window_ticks = r->nspans = 0;
    for (int t = 0; t <= s->T; t++) {
        if (!s->dep[t]) continue;
        r->window_ticks++;
        if (r->nspans > 0 && r->spans[r->nspans - 1].last == t - 1) r->spans[r->nspans - 1].last = t;
        else if (r->nspans < PT_SOLVE_MAX_SPANS) r->spans[r->nspans++] = (pt_solve_span){t, t};
        else r->spans_more = 1;
    }
    return 1;
}

/* The player's step clock exactly as the world runs it (pt__pattern_tick): the gaps in ticks
 * between its actions, while no wait holds it. gaps[i] = ticks from action i to action i + 1
 * (action 0 = creation). Returns how many gaps were written, or -1 when a tick would hold
 * two actions. */
static int step_gaps(double speed, double scale0, double scale1, double dt, int horizon, int *gaps, int cap) {
    double mt = 0.0, scale = scale0;
    int n = 0, last = 0;
    for (int k = 1; k <= 2 * horizon + 2 && n < cap; k++) {
        mt += speed * scale * dt;
        int actions = 0;
        while (mt >= 1.0 && actions < 4) {
            mt -= 1.0;
            actions++;
        }
        if (mt > 1.0) mt = 1.0;
        if (actions > 1) return -1;
        if (actions) {
            gaps[n++] = k - last;
            last = k;
            scale = scale1; /* a gait action: its speed from the next tick on */
            if (k > horizon) break;
        }
    }
    return n;
}

/* Finds the shortest description of the rhythm: actions 0..j1-1 each their own class, then
 * a period P (gaps repeat every P actions within the horizon). */
static int rhythm_classes(solver *s, const int *gaps, int ng) {
    /* G(i) = the gap before action i (1-based): gaps[i - 1]; beyond the list: never. */
#define G(i) ((i) - 1 < ng ? gaps[(i) - 1] : s->T + 1)
    for (int total = 2; total <= PT_SOLVE_MAX_RHYTHM + 1; total++)
        for (int j1 = 1; j1 < total; j1++) {
            int P = total - j1, ok = 1;
            for (int i = j1 + 1 + P; i <= ng && ok; i++) ok = G(i) == G(i - P);
            if (!ok) continue;
            s->ncls = total;
            for (int c = 0; c < total; c++) {
                s->gap[c] = G(c + 1);
                s->nxt[c] = c + 1 < total ? c + 1 : j1;
            }
            return P;
        }
#undef G
    return -1;
}

static int push_action(pt_solve_result *r, int *cap, pt_solve_action a) {
    if (r->nactions == *cap) {
        int nc = *cap ? 2 * *cap : 32;
        pt_solve_action *na = PT_REALLOC(r->actions, (size_t)nc * sizeof *na);
        if (!na) return 0;
        r->actions = na;
        *cap = nc;
    }
    r->actions[r->nactions++] = a;
    return 1;
}

/* Walks back from the goal node through visited predecessors whose edge holds, to tick 0. */
static int reconstruct(solver *s, pt_solve_result *r) {
    size_t bit = s->best_bit;
    int t = (int)(bit / s->slab);
    size_t rem = bit % s->slab;
    size_t cell = rem % s->C;
    int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
    int cap = 0, pending_hold = 0;
    while (t > s->t0) {
        int found = 0;
        if (h && t - 1 >= s->t0 && vget(s, node_bit(s, t - 1, k, 1, a, cell))) {
            pending_hold++;
            t--;
            continue;
        }
        for (int pk = 0; pk < s->ncls && !found; pk++) {
            if (s->nxt[pk] != k) continue;
            int g = s->gap[pk];
            for (int ph = 0; ph < 2 && !found; ph++) {
                if (h) { /* a wait action at t - 1 began the hold */
                    int pt = t - 1 - g;
                    if (pt < s->t0 || !vget(s, node_bit(s, pt, pk, ph, a, cell))) continue;
                    if (!safe_span(s, cell, pt + 1, t)) continue;
                    pt_solve_action act = {PT_SOLVE_WAIT, t - 1, 0, 0, 0, pending_hold + 1};
                    if (!push_action(r, &cap, act)) return 0;
                    pending_hold = 0;
                    t = pt;
                    k = pk;
                    h = ph;
                    found = 1;
                    break;
                }
                int pt = t - g;
                if (pt < s->t0) continue;
                int x = (int)(cell % (size_t)s->W), y = (int)(cell / (size_t)s->W);
                for (int sg = -1; sg <= 1 && !found; sg += 2) { /* a step onto cell */
                    int px = x - sg * AX_DX[a], py = y - sg * AX_DY[a];
                    /* off the map, py * W + px names another cell: the step must start on one */
                    if (!pt_map_walkable(s->map, px, py) || !pt_map_step_ok(s->map, px, py, x, y)) continue;
                    size_t pc = (size_t)py * (size_t)s->W + (size_t)px;
                    if (!vget(s, node_bit(s, pt, pk, ph, a, pc)) || !safe_span(s, pc, pt + 1, t - 1) ||
                        heard_at(s, cell, t))
                        continue;
                    pt_solve_action act = {PT_SOLVE_STEP, t, sg * AX_DX[a], sg * AX_DY[a], 0, 0};
                    if (!push_action(r, &cap, act)) return 0;
                    cell = pc;
                    found = 1;
                }
                for (int pa = 0; pa < 4 && !found; pa++) { /* a turn */
                    if (pa == a || !vget(s, node_bit(s, pt, pk, ph, pa, cell)) || !safe_span(s, cell, pt + 1, t))
                        continue;
                    pt_solve_action act = {PT_SOLVE_TURN, t, 0, 0, a, 0};
                    if (!push_action(r, &cap, act)) return 0;
                    a = pa;
                    found = 1;
                }
                if (found) {
                    t = pt;
                    k = pk;
                    h = ph;
                }
            }
        }
        if (!found) return -1; /* cannot happen: every visited node came from one */
    }
    r->axis0 = a;
    for (int i = 0, j = r->nactions - 1; i < j; i++, j--) {
        pt_solve_action tmp = r->actions[i];
        r->actions[i] = r->actions[j];
        r->actions[j] = tmp;
    }
    return 1;
}

/* The figures of a found route: its cells per tick, first move, margins in ticks and tiles
 * (against the guards' plain sight, without opts->margin). */
static int route_figures(pt_solve_result *r, const pt_sightmap *sm) {
    r->cells = PT_MALLOC(((size_t)r->ticks + 1) * sizeof *r->cells);
    if (!r->cells) return 0;
    int x = r->start_x, y = r->start_y, t = 0;
    r->first_move_tick = -1;
    for (int i = 0; i <= r->nactions; i++) {
        int until = i < r->nactions ? r->actions[i].tick : r->ticks + 1;
        for (; t < until && t <= r->ticks; t++) r->cells[t] = (pt_cell){x, y};
        if (i < r->nactions && r->actions[i].kind == PT_SOLVE_STEP) {
            if (r->first_move_tick < 0) r->first_move_tick = r->actions[i].tick;
            x += r->actions[i].dx;
            y += r->actions[i].dy;
        }
    }
    r->goal_x = r->cells[r->ticks].x;
    r->goal_y = r->cells[r->ticks].y;
    r->margin_ticks = PT_SOLVE_MARGIN_CAP;
    r->margin_tiles = -1.0;
    enum { NEAR = 24 };
    for (int tt = 1; tt <= r->ticks; tt++) {
        pt_cell c = r->cells[tt];
        for (int d = 0; d < r->margin_ticks; d++)
            if (pt_sightmap_seen(sm, tt - d, c.x, c.y) || pt_sightmap_seen(sm, tt + d, c.x, c.y)) {
                r->margin_ticks = d;
                break;
            }
        for (int dy = -NEAR; dy <= NEAR; dy++)
            for (int dx = -NEAR; dx <= NEAR; dx++) {
                double dist = sqrt((double)(dx * dx + dy * dy));
                if ((r->margin_tiles >= 0.0 && dist >= r->margin_tiles) || dist > NEAR) continue;
                if (pt_sightmap_seen(sm, tt, c.x + dx, c.y + dy)) r->margin_tiles = dist;
            }
    }
    return 1;
}

int pt_solve_route_unseen(const pt_solve_result *r, const pt_sightmap *sm) {
    if (!r->found || !r->cells) return 0;
    for (int t = 1; t <= r->ticks; t++)
        if (t > sm->ticks || pt_sightmap_seen(sm, t, r->cells[t].x, r->cells[t].y)) return 0;
    return 1;
}

/* Cells within `margin` tiles (centres) of a seen cell, on the same tick. */
static int dilate(pt_sightmap *out, const pt_sightmap *in, int margin) {
    size_t bytes = in->stride * 8u * (size_t)in->ticks;
    *out = *in;
    out->bits = PT_CALLOC(bytes ? bytes : 1, 1);
    if (!out->bits) return 0;
    for (int t = 1; t <= in->ticks; t++)
        for (int y = 0; y < in->h; y++)
            for (int x = 0; x < in->w; x++) {
                if (!pt_sightmap_seen(in, t, x, y)) continue;
                for (int dy = -margin; dy <= margin; dy++)
                    for (int dx = -margin; dx <= margin; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if (dx * dx + dy * dy > margin * margin || nx < 0 || ny < 0 || nx >= in->w || ny >= in->h) continue;
                        size_t b = (size_t)ny * (size_t)in->w + (size_t)nx;
                        out->bits[(size_t)(t - 1) * out->stride + (b >> 6)] |= 1ull << (b & 63);
                    }
            }
    return 1;
}

/* Cells seen on some tick within `d` ticks before or after, on each tick. */
static int widen_time(pt_sightmap *out, const pt_sightmap *in, int d) {
    size_t bytes = in->stride * 8u * (size_t)in->ticks;
    *out = *in;
    out->bits = PT_CALLOC(bytes ? bytes : 1, 1);
    if (!out->bits) return 0;
    for (int t = 1; t <= in->ticks; t++) {
        uint64_t *row = out->bits + (size_t)(t - 1) * out->stride;
        int lo = t - d > 1 ? t - d : 1, hi = t + d < in->ticks ? t + d : in->ticks;
        for (int u = lo; u <= hi; u++) {
            const uint64_t *src = in->bits + (size_t)(u - 1) * in->stride;
            for (size_t k = 0; k < in->stride; k++) row[k] |= src[k];
        }
    }
    return 1;
}

/* What the search avoids: the seen cells, widened in time (margin_ticks) then in space
 * (margin, tiles). Returns the table to search against, or NULL when out of memory. */
static const pt_sightmap *unsafe_table(const pt_sightmap *plain, int near_ticks, int tiles, pt_sightmap *timed,
                                       pt_sightmap *wide) {
    const pt_sightmap *u = plain;
    if (near_ticks > 0) {
        if (!widen_time(timed, u, near_ticks)) return NULL;
        u = timed;
    }
    if (tiles > 0) {
        if (!dilate(wide, u, tiles)) return NULL;
        u = wide;
    }
    return u;
}

/* The table to search against with the animals' cells added (a copy when it has any). */
static const pt_sightmap *with_animals(const pt_sightmap *u, const pt_sightmap *shy, pt_sightmap *mixed) {
    size_t words = shy->stride * (size_t)shy->ticks, any = 0;
    for (size_t i = 0; i < words && !any; i++) any = shy->bits[i] != 0;
    if (!any) return u;
    *mixed = *u;
    mixed->bits = PT_MALLOC(words * 8u);
    if (!mixed->bits) return NULL;
    for (size_t i = 0; i < words; i++) mixed->bits[i] = u->bits[i] | shy->bits[i];
    return mixed;
}

static void report(const pt_solve_opts *o, const char *stage, double done) {
    if (o->progress) o->progress(o->progress_user, stage, done);
}

/* One search against `unsafe`; fills r (found, ticks, actions) on success. */
static int search(solver *s, const pt_solve_opts *o, pt_solve_result *r, pt_error *err) {
    size_t start = (size_t)r->start_y * (size_t)s->W + (size_t)r->start_x;
    size_t words = ((size_t)(s->T + 1) * s->slab + 63) / 64;
    s->V = PT_CALLOC(words, sizeof *s->V);
    if (!s->V) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the search (%zu MB)", (words * 8) >> 20);
    s->best_t = s->T + 1;
    s->nodes = 0;
    s->full = o->window;
    s->leave_after = o->leave_after;
    s->start = start;
    if ((s->map->flags[start] & PT_TILE_GOAL) && safe_at(s, start, 1)) { /* on the goal already */
        r->found = 1;
        r->ticks = 1;
        r->axis0 = 0;
        return PT_OK;
    }
    if (s->t0 > s->T || !safe_span(s, start, 1, s->t0)) return PT_OK; /* caught before the gait action */
    for (int a = 0; a < 4; a++) add(s, s->t0, s->k0, 0, a, start);
    for (int t = s->t0; t <= s->T && (s->full || t < s->best_t); t++) {
        size_t b0 = (size_t)t * s->slab, b1 = b0 + s->slab;
        for (size_t wi = b0 >> 6; wi <= (b1 - 1) >> 6; wi++) {
            uint64_t v = s->V[wi];
            while (v) {
                size_t bit = wi * 64 + (size_t)__builtin_ctzll(v);
                v &= v - 1;
                if (bit < b0 || bit >= b1) continue;
                size_t rem = bit - b0, cell = rem % s->C;
                int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
                if (!is_goal_state(s, t, h, cell)) successors(s, t, k, h, a, cell, add_fn);
            }
        }
        if ((t & 255) == 255) report(o, "search", (double)t / s->T);
    }
    r->nodes += s->nodes;
    if (s->best_t > s->T) return PT_OK;
    r->found = 1;
    r->ticks = s->best_t;
    int ok = reconstruct(s, r);
    if (ok == 0) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the route");
    if (ok < 0) return pt_error_set(err, PT_ERR_INTERNAL, 0, 0, "solver: the route could not be traced back");
    if (o->window && !start_window(s, r)) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the start window");
    return PT_OK;
}

static int or_into(pt_sightmap *dst, const pt_sightmap *src) {
    size_t words = dst->stride * (size_t)dst->ticks;
    for (size_t i = 0; i < words; i++) dst->bits[i] |= src->bits[i];
    return 1;
}

/* The step clock of a route in one gait: its rhythm classes, and where the search starts (a
 * gait other than walk is the route's first action, taken at walking pace). */
typedef struct gait_clock {
    int ok;              /* 0: this gait's rhythm is not one the search follows */
    int ncls, t0, k0, rhythm;
    int gap[PT_SOLVE_MAX_RHYTHM + 8], nxt[PT_SOLVE_MAX_RHYTHM + 8];
} gait_clock;

static void use_clock(solver *s, const gait_clock *c) {
    s->ncls = c->ncls;
    memcpy(s->gap, c->gap, sizeof s->gap);
    memcpy(s->nxt, c->nxt, sizeof s->nxt);
    s->t0 = c->t0;
    s->k0 = c->k0;
    s->slab = (size_t)s->ncls * 8u * s->C;
}

static void search_free(solver *s) {
    PT_FREE(s->V);
    PT_FREE(s->R);
    PT_FREE(s->stay);
    PT_FREE(s->dep);
    s->V = s->R = NULL;
    s->stay = s->dep = NULL;
}

/* The earliest route over the allowed gaits (mask: bit per pt_gait; ties go to walk, then
 * run, then sneak), searched again in that gait into out, with the start window when asked. */
static int search_gaits(solver *s, const pt_solve_opts *o, const gait_clock *clk, const pt_sightmap *loud,
                        unsigned mask, pt_solve_result *out, pt_error *err) {
    int best = -1, n = 0, best_ticks = s->T + 1, rc;
    for (int g = 0; g < PT_GAIT_COUNT; g++) n += (mask >> g & 1u) && clk[g].ok;
    static const int order[PT_GAIT_COUNT] = {PT_GAIT_WALK, PT_GAIT_RUN, PT_GAIT_SNEAK};
    const int T = s->T;
    for (int oi = 0; oi < PT_GAIT_COUNT && n > 1; oi++) {
        int g = order[oi];
        if (!(mask >> g & 1u) || !clk[g].ok) continue;
        /* a later gait must arrive earlier to be taken (ties: the earlier in this order) */
        s->T = best_ticks - 1 < T ? best_ticks - 1 : T;
        pt_solve_result tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.start_x = out->start_x;
        tmp.start_y = out->start_y;
        pt_solve_opts q = *o;
        q.window = 0;
        use_clock(s, &clk[g]);
        s->loud = &loud[g];
        rc = search(s, &q, &tmp, err);
        out->nodes += tmp.nodes;
        search_free(s);
        if (rc == PT_OK && tmp.found && tmp.ticks < best_ticks) {
            best = g;
            best_ticks = tmp.ticks;
        }
        pt_solve_result_fini(&tmp);
        s->T = T;
        if (rc != PT_OK) return rc;
    }
    for (int g = 0; g < PT_GAIT_COUNT && n == 1; g++)
        if ((mask >> g & 1u) && clk[g].ok) best = g;
    if (best < 0) return PT_OK;
    use_clock(s, &clk[best]);
    s->loud = &loud[best];
    out->gait = best;
    out->rhythm = clk[best].rhythm;
    return search(s, o, out, err);
}

int pt_solve(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, pt_solve_result *out,
             pt_error *err) {
    pt_error_clear(err);
    memset(out, 0, sizeof *out);
    pt_solve_opts o = {0};
    if (opts) o = *opts;
    int T = o.max_ticks ? o.max_ticks : PT_SOLVE_DEFAULT_MAX_TICKS;
    int nseeds = o.nseeds ? o.nseeds : 1;
    if (T < 1 || T > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "solver: max_ticks %d is not in 1..%d", T, PT_SOLVE_MAX_TICKS);
    if (nseeds < 1 || nseeds > 100000 || o.margin < 0 || o.margin > 64 || o.gait < 0 || o.gait > PT_GAIT_COUNT ||
        o.leave_after < 0 ||
        o.margin_ticks < 0 || o.margin_ticks > PT_SOLVE_MARGIN_CAP)
        return pt_error_set(err, PT_ERR_USAGE, 0, 0,
                            "solver: bad options (seeds 1..100000, margin 0..64, margin_ticks 0..%d, gait 0..3, "
                            "leave_after >= 0)", PT_SOLVE_MARGIN_CAP);
    /* seen within near_ticks before or after is too near; the table runs that much past the
     * horizon, so that the margin of the last ticks is known too */
    int near_ticks = o.margin_ticks > 1 ? o.margin_ticks - 1 : 0;
    int TT = T + near_ticks < PT_SOLVE_MAX_TICKS ? T + near_ticks : PT_SOLVE_MAX_TICKS;
    uint64_t seed0 = o.seed ? o.seed : (map->seed ? map->seed : 1);
    out->max_ticks = T;
    out->nseeds = nseeds;
    out->start_x = map->player.x;
    out->start_y = map->player.y;
    int has_goal = 0;
    for (size_t i = 0; i < (size_t)map->w * (size_t)map->h && !has_goal; i++) has_goal = (map->flags[i] & PT_TILE_GOAL) != 0;
    if (!has_goal) return pt_error_set(err, PT_ERR_MISSING, 0, 0, "the map has no goal tile: nothing to solve");
    if (!pt_map_walkable(map, out->start_x, out->start_y))
        return pt_error_set(err, PT_ERR_NOT_WALKABLE, 0, 0, "the player's start %d,%d is not walkable", out->start_x,
                            out->start_y);

    /* The player's speed as the world resolves it. */
    pt_entity_def pdef = map->player;
    pdef.kind = PT_KIND_PLAYER;
    pt_entity_def_resolve(&pdef);
    out->speed = pdef.speed;
    if (!(pdef.speed > 0.0) || !isfinite(pdef.speed))
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "the player's speed %g tiles/s never takes a step", pdef.speed);
    solver s;
    memset(&s, 0, sizeof s);
    s.map = map;
    s.W = map->w;
    s.H = map->h;
    s.C = (size_t)map->w * (size_t)map->h;
    s.T = T;
    unsigned mask = o.gait ? 1u << (o.gait - 1) : (1u << PT_GAIT_COUNT) - 1u;
    gait_clock clk[PT_GAIT_COUNT];
    memset(clk, 0, sizeof clk);
    int *gaps = PT_MALLOC(((size_t)T + 2) * sizeof *gaps);
    if (!gaps) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    int nok = 0, why = 0; /* why: -1 two steps a tick, -2 a long rhythm (of the first gait that has none) */
    size_t slab_max = 0;
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        if (!(mask >> g & 1u)) continue;
        double walk = pt_gait_speed(PT_GAIT_WALK), sc = pt_gait_speed((pt_gait)g);
        int ng = step_gaps(pdef.speed, walk, sc, 1.0 / 60, T, gaps, T + 2);
        if (ng < 0 || (clk[g].rhythm = rhythm_classes(&s, gaps, ng)) < 0) {
            if (!why) why = ng < 0 ? -1 : -2;
            continue;
        }
        clk[g].ok = 1;
        clk[g].ncls = s.ncls;
        memcpy(clk[g].gap, s.gap, sizeof s.gap);
        memcpy(clk[g].nxt, s.nxt, sizeof s.nxt);
        clk[g].t0 = g == PT_GAIT_WALK ? 0 : s.gap[0];
        clk[g].k0 = g == PT_GAIT_WALK ? 0 : s.nxt[0];
        size_t slab = (size_t)s.ncls * 8u * s.C;
        if (slab > slab_max) slab_max = slab;
        nok++;
    }
    PT_FREE(gaps);
    if (!nok && why == -1)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "the player's speed %g tiles/s takes two steps in a tick: the solver "
                            "follows one a tick", pdef.speed);
    if (!nok)
        return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "the player's steps at %g tiles/s repeat only every more than %d "
                            "steps within %d ticks: use a round speed or a shorter horizon", pdef.speed,
                            PT_SOLVE_MAX_RHYTHM, T);
    for (int g = 0; g < PT_GAIT_COUNT; g++)
        if (clk[g].ok) {
            use_clock(&s, &clk[g]);
            out->rhythm = clk[g].rhythm;
            break;
        }
    size_t table = sm_bytes(map->w, map->h, TT);
    size_t need = table * ((nseeds > 1 ? 2u : 1u) + (o.margin ? 1u : 0u) + (near_ticks ? 1u : 0u) + (unsigned)nok + 2u) +
                  ((size_t)(T + 1) * slab_max + 63) / 64 * 8 * (o.window ? 2u : 1u);
    out->bytes = need;
    if (need > (size_t)PT_SOLVE_MAX_BYTES)
        return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "solving %dx%d cells over %d ticks needs %zu MB, more than %ld: use a "
                            "shorter horizon", map->w, map->h, T, need >> 20, PT_SOLVE_MAX_BYTES >> 20);

    /* The guards' sight, all seeds together. */
    /* The guards' sight and the steps they hear in each gait, all seeds together. */
    pt_sightmap all = {0}, one = {0}, first = {0}, wide = {0}, timed = {0}, shy = {0}, mixed = {0}, loud[PT_GAIT_COUNT];
    memset(loud, 0, sizeof loud);
    int rc = PT_OK;
    for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++) {
        if (!clk[g].ok) continue;
        loud[g].w = map->w;
        loud[g].h = map->h;
        loud[g].ticks = TT;
        loud[g].stride = ((size_t)map->w * (size_t)map->h + 63) / 64;
        if (!(loud[g].bits = PT_CALLOC(table ? table : 1, 1))) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    for (int i = 0; i < nseeds && rc == PT_OK; i++) {
        report(&o, "sight", (double)i / nseeds);
        pt_sightmap *dst = i == 0 ? &all : &one;
        if (i == 0) {
            shy = (pt_sightmap){map->w, map->h, TT, ((size_t)map->w * (size_t)map->h + 63) / 64, PT_CALLOC(table ? table : 1, 1)};
            if (!shy.bits) {
                rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
                break;
            }
        }
        listeners ls;
        ls.shy = &shy;
        rc = sight_build(dst, &ls, map, lib, seed0 + (uint64_t)i, TT, err);
        for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++)
            if (clk[g].ok && !loud_build(&loud[g], &ls, map, (pt_gait)g))
                rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the guards' hearing");
        listeners_fini(&ls);
        if (rc == PT_OK && i > 0) {
            or_into(&all, &one);
            pt_sightmap_fini(&one);
        }
        if (rc == PT_OK && i == 0 && nseeds > 1) {
            first = all;
            first.bits = PT_MALLOC(table ? table : 1);
            if (!first.bits) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
            else memcpy(first.bits, all.bits, table);
        }
    }
    const pt_sightmap *plain = &all;
    if (rc == PT_OK && !(s.unsafe = unsafe_table(&all, near_ticks, o.margin, &timed, &wide)))
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    if (rc == PT_OK && !(s.unsafe = with_animals(s.unsafe, &shy, &mixed)))
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    if (rc == PT_OK) rc = search_gaits(&s, &o, clk, loud, mask, out, err);
    out->all_seeds = 1;
    if (rc == PT_OK && !out->found && nseeds > 1) {
        /* None for all of them: a route for the first seed (against the hearing of all), and
         * for how many it holds. */
        search_free(&s);
        pt_sightmap_fini(&wide);
        pt_sightmap_fini(&timed);
        plain = &first;
        pt_sightmap_fini(&mixed);
        if (!(s.unsafe = unsafe_table(&first, near_ticks, o.margin, &timed, &wide)) ||
            !(s.unsafe = with_animals(s.unsafe, &shy, &mixed)))
            rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        out->all_seeds = 0;
        if (rc == PT_OK) rc = search_gaits(&s, &o, clk, loud, mask, out, err);
    }
    if (rc == PT_OK && out->found && !route_figures(out, plain)) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    if (rc == PT_OK && out->found) {
        if (out->all_seeds) out->seeds_ok = nseeds;
        else {
            out->seeds_ok = 0;
            for (int i = 0; i < nseeds && rc == PT_OK; i++) {
                report(&o, "seeds", (double)i / nseeds);
                rc = pt_sightmap_build(&one, map, lib, seed0 + (uint64_t)i, TT, err);
                if (rc == PT_OK) out->seeds_ok += pt_solve_route_unseen(out, &one);
                pt_sightmap_fini(&one);
            }
        }
    }
    search_free(&s);
    for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(&loud[g]);
    pt_sightmap_fini(&shy);
    pt_sightmap_fini(&mixed);
    pt_sightmap_fini(&all);
    pt_sightmap_fini(&first);
    pt_sightmap_fini(&wide);
    pt_sightmap_fini(&timed);
    pt_sightmap_fini(&one);
    if (rc != PT_OK) {
        pt_solve_result_fini(out);
        out->found = 0;
    }
    return rc;
}

void pt_solve_result_fini(pt_solve_result *r) {
    if (!r) return;
    PT_FREE(r->actions);
    PT_FREE(r->cells);
    r->actions = NULL;
    r->cells = NULL;
    r->nactions = 0;
}

int pt_solve_write_pattern(const pt_solve_result *r, FILE *out, const char *name) {
    int deg = 45 * r->axis0; /* the heading, kept in [0, 360) */
    fprintf(out, "# %d ticks (%.2f s) from %d,%d to the goal at %d,%d; replay: patrol sim MAP --ticks %d "
                 "--player-pattern FILE:%s\n",
            r->ticks, r->ticks / 60.0, r->start_x, r->start_y, r->goal_x, r->goal_y, r->ticks, name);
    fprintf(out, "pattern %s\n  kind control\n  origin %d,%d\n  heading %d\n", name, r->start_x, r->start_y, deg);
    int run = 0, run_fwd = 0;
    int wrote = 0;
    if (r->gait != PT_GAIT_WALK) { /* the first action, at walking pace */
        fprintf(out, "  gait %s\n", pt_gait_name((pt_gait)r->gait));
        wrote = 1;
    }
    for (int i = 0; i <= r->nactions; i++) {
        const pt_solve_action *a = i < r->nactions ? &r->actions[i] : NULL;
        int fwd = 0;
        if (a && a->kind == PT_SOLVE_STEP) {
            int hdx = AX_DX[(deg / 45) % 4], hdy = AX_DY[(deg / 45) % 4];
            if (deg >= 180) hdx = -hdx, hdy = -hdy;
            fwd = a->dx == hdx && a->dy == hdy;
            if (run && fwd == run_fwd) {
                run++;
                continue;
            }
        }
        if (run) {
            fprintf(out, "  %s %d\n", run_fwd ? "forward" : "backward", run);
            wrote = 1;
            run = 0;
        }
        if (!a) break;
        switch (a->kind) {
        case PT_SOLVE_STEP:
            run = 1;
            run_fwd = fwd;
            break;
        case PT_SOLVE_TURN: {
            int by = ((a->axis - deg / 45) % 4 + 4) % 4 * 45;
            fprintf(out, "  right %d\n", by);
            deg = (deg + by) % 360;
            wrote = 1;
            break;
        }
        case PT_SOLVE_WAIT:
            fprintf(out, "  wait %d\n", a->hold);
            wrote = 1;
            break;
        }
    }
    if (!wrote) fputs("  wait 1\n", out); /* the start is the goal: a control pattern needs one instruction */
    fputs("  at_end stop\nend\n", out);
    return ferror(out) ? -1 : 0;
}
