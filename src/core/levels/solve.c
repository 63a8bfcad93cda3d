/* SPDX-License-Identifier: Zlib */
/* The level solver (patrol/solve.h): the tables over the seeds, then the gaits' searches. */
#include <patrol/path.h>
#include <patrol/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "levels/solve_priv.h"
#include "guards/door_path.h"
#include "map/doors.h"

/* Cells within `margin` tiles (centres) of a seen cell, on the same tick. */
static int dilate(pt_sightmap *out, const pt_sightmap *in, double margin) {
    const int reach = (int)floor(margin);
    size_t bytes = in->stride * 8u * (size_t)in->ticks;
    *out = *in;
    out->bits = PT_CALLOC(bytes ? bytes : 1, 1);
    if (!out->bits) return 0;
    for (int t = 1; t <= in->ticks; t++)
        for (int y = 0; y < in->h; y++)
            for (int x = 0; x < in->w; x++) {
                if (!pt_sightmap_seen(in, t, x, y)) continue;
                for (int dy = -reach; dy <= reach; dy++)
                    for (int dx = -reach; dx <= reach; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if ((double)(dx * dx + dy * dy) > margin * margin || nx < 0 || ny < 0 || nx >= in->w || ny >= in->h) continue;
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
static const pt_sightmap *unsafe_table(const pt_sightmap *plain, int near_ticks, double tiles, pt_sightmap *timed,
                                       pt_sightmap *wide) {
    const pt_sightmap *u = plain;
    if (near_ticks > 0) {
        if (!widen_time(timed, u, near_ticks)) return NULL;
        u = timed;
    }
    if (tiles > 0.0) {
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

static int or_into(pt_sightmap *dst, const pt_sightmap *src) {
    size_t words = dst->stride * (size_t)dst->ticks;
    for (size_t i = 0; i < words; i++) dst->bits[i] |= src->bits[i];
    return 1;
}

/* 1 when a goal tile can be walked to from the player's start (the steps the search takes:
 * the 8 neighbours, no diagonal past a wall corner), 0 when none can, -1 out of memory. */
static int goal_reachable(const pt_map *map) {
    int n = 0;
    for (int y = 0; y < map->h; y++)
        for (int x = 0; x < map->w; x++) n += (map->flags[(size_t)y * (size_t)map->w + (size_t)x] & PT_TILE_GOAL) != 0;
    pt_cell *goals = PT_MALLOC(((size_t)n + 1) * sizeof *goals);
    pt_pathfinder *pf = pt_pathfinder_create(map);
    int ok = -1;
    if (goals && pf) {
        n = 0;
        for (int y = 0; y < map->h; y++)
            for (int x = 0; x < map->w; x++)
                if (map->flags[(size_t)y * (size_t)map->w + (size_t)x] & PT_TILE_GOAL) goals[n++] = (pt_cell){x, y};
        pt_cell start = {map->player.x, map->player.y};
        ok = pt_path_find_nearest(pf, start, goals, n, NULL, 0, NULL) >= 0;
    }
    pt_pathfinder_destroy(pf);
    PT_FREE(goals);
    return ok;
}

/* One seed's run and the tables the search judges by: its sight into sight[PT_GAIT_COUNT] (a
 * table per gait on a dark map, else the walk one: pt__solve_sight_build), its animals'
 * cells ORed into shy, the steps heard in each gait of mask ORed into loud[g] and, with door,
 * the doors' opening noises into dloud. The search (the seeds' tables ORed) and the check of
 * a route under each seed alone build them alike. */
static int seed_tables(const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks, const pt_solve_opts *o,
                       double done0, double span, pt_sightmap *sight, pt_sightmap *shy, pt_sightmap *loud, unsigned mask,
                       pt_sightmap *dloud, const pt_map *open, const uint8_t *door, pt_error *err) {
    listeners ls = {0};
    ls.shy = shy;
    ls.opts = o;
    ls.done0 = done0;
    ls.span = span;
    int rc = pt__solve_sight_build(sight, 1, &ls, map, lib, seed, ticks, err);
    if (rc == PT_OK && !pt__solve_hear_tables(loud, mask, dloud, &ls, map, open, door))
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the guards' hearing");
    pt__solve_listeners_fini(&ls);
    return rc;
}

static int table_alloc(pt_sightmap *t, const pt_map *map, int ticks) {
    size_t bytes = pt__solve_table_bytes(map->w, map->h, ticks);
    *t = (pt_sightmap){map->w, map->h, ticks, ((size_t)map->w * (size_t)map->h + 63) / 64, PT_CALLOC(bytes ? bytes : 1, 1)};
    return t->bits != NULL;
}

/* Under how many of the seeds seed0 .. seed0 + nseeds - 1 the found route out holds (into
 * out->seeds_ok): each seed's own tables over the route's ticks (seed_tables, without the
 * margins), and the route's states judged by the search's own rule (pt__solve_route_judged,
 * with the clock of its gait). */
static int seeds_check(solver *s, const gait_clock *clk, const pt_map *map, const pt_patlib *lib, const pt_solve_opts *o,
                       uint64_t seed0, int nseeds, const pt_map *open, const uint8_t *door, pt_solve_result *out,
                       pt_error *err) {
    pt__solve_search_free(s);
    const int g = out->gait, ticks = out->ticks;
    pt_sightmap sight[PT_GAIT_COUNT], shy = {0}, loud[PT_GAIT_COUNT], dloud = {0};
    memset(loud, 0, sizeof loud);
    memset(sight, 0, sizeof sight);
    int rc = PT_OK;
    if (!table_alloc(&shy, map, ticks) || !table_alloc(&loud[g], map, ticks) || (door && !table_alloc(&dloud, map, ticks)))
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    pt__solve_use_clock(s, &clk[g]);
    s->T = ticks;
    s->loud = &loud[g];
    s->dloud = door ? &dloud : NULL;
    size_t bytes = pt__solve_table_bytes(map->w, map->h, ticks), words = bytes / 8;
    out->seeds_ok = 0;
    for (int i = 0; i < nseeds && rc == PT_OK; i++) {
        pt__solve_report(o, "seeds", (double)i / nseeds);
        memset(shy.bits, 0, bytes);
        memset(loud[g].bits, 0, bytes);
        if (door) memset(dloud.bits, 0, bytes);
        rc = seed_tables(map, lib, seed0 + (uint64_t)i, ticks, NULL, 0.0, 0.0, sight, &shy, loud, 1u << g,
                         door ? &dloud : NULL, open, door, err);
        if (rc != PT_OK) break;
        pt__solve_gait_start(sight, pt__solve_gait_tick(out->speed));
        pt_sightmap *mine = &sight[sight[g].bits ? g : PT_GAIT_WALK]; /* pt__solve_gait_table's */
        for (size_t k = 0; k < words; k++) mine->bits[k] |= shy.bits[k]; /* what the search avoids */
        s->unsafe = mine;
        out->seeds_ok += pt__solve_route_judged(s, out);
        for (int k = 0; k < PT_GAIT_COUNT; k++) pt_sightmap_fini(&sight[k]);
    }
    s->unsafe = NULL;
    for (int k = 0; k < PT_GAIT_COUNT; k++) pt_sightmap_fini(&sight[k]);
    pt_sightmap_fini(&shy);
    pt_sightmap_fini(&loud[g]);
    pt_sightmap_fini(&dloud);
    return rc;
}

/* One solve against the seeds of opts together (no fallback); with check > 0, the route
 * found is then checked under each of the seeds seed .. seed + check - 1 alone (seeds_ok). */
static int solve_core(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, int check,
                      pt_solve_result *out, pt_error *err) {
    pt_error_clear(err);
    memset(out, 0, sizeof *out);
    pt_solve_opts o = {0};
    if (opts) o = *opts;
    int T = o.max_ticks ? o.max_ticks : PT_SOLVE_DEFAULT_MAX_TICKS;
    int nseeds = o.nseeds ? o.nseeds : 1;
    if (T < 1 || T > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "solver: max_ticks %d is not in 1..%d", T, PT_SOLVE_MAX_TICKS);
    if (nseeds < 1 || nseeds > 100000 || !(o.margin >= 0.0 && o.margin <= 64.0) || o.gait < 0 || o.gait > PT_GAIT_COUNT ||
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
    /* The doors closed at the start, which the route may open: door[c], and `open`, the map
     * with them open (for the way to the goal and the noises made on them). */
    pt_map open;
    memset(&open, 0, sizeof open);
    uint8_t *door = NULL;
    int ndoor = 0;
    for (int i = 0; i < map->ndoors; i++) {
        const pt_door_def *d = &map->doors[i];
        if (d->state == PT_DOOR_CLOSED && pt_map_in(map, d->x, d->y) &&
            pt__door_kind_state(pt_map_tile(map, d->x, d->y)) == PT_DOOR_CLOSED)
            ndoor++;
    }
    if (ndoor > 0) {
        door = PT_CALLOC((size_t)map->w * (size_t)map->h, 1);
        if (!door || pt_map_clone(&open, map) != PT_OK) {
            PT_FREE(door);
            return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        }
        int k = pt__map_door_kind(&open, PT_DOOR_OPEN);
        for (int i = 0; i < map->ndoors && k >= 0; i++) {
            const pt_door_def *d = &map->doors[i];
            if (d->state != PT_DOOR_CLOSED || !pt_map_in(map, d->x, d->y) ||
                pt__door_kind_state(pt_map_tile(map, d->x, d->y)) != PT_DOOR_CLOSED)
                continue;
            door[(size_t)d->y * (size_t)map->w + (size_t)d->x] = 1;
            pt_map_set(&open, d->x, d->y, open.legend[k].ch);
        }
        if (k < 0) { /* the legend has no room for an open door: the doors stay shut */
            PT_FREE(door);
            pt_map_fini(&open);
            ndoor = 0;
        }
    }
    int reach = goal_reachable(ndoor ? &open : map);
    if (reach <= 0) {
        PT_FREE(door);
        if (ndoor) pt_map_fini(&open);
        if (reach < 0) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        out->why = PT_SOLVE_WHY_UNREACHABLE;
        return PT_OK;
    }
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
    int rc = PT_OK;
    pt_sightmap all[PT_GAIT_COUNT], one[PT_GAIT_COUNT], wide[PT_GAIT_COUNT], timed[PT_GAIT_COUNT], mixed[PT_GAIT_COUNT];
    pt_sightmap shy = {0}, dloud = {0}, loud[PT_GAIT_COUNT];
    const pt_sightmap *unsafe[PT_GAIT_COUNT] = {NULL};
    memset(loud, 0, sizeof loud);
    memset(all, 0, sizeof all);
    memset(one, 0, sizeof one);
    memset(wide, 0, sizeof wide);
    memset(timed, 0, sizeof timed);
    memset(mixed, 0, sizeof mixed);
    /* on a dark map the guards' sight depends on the gait: a table per gait (docs/solve.md) */
    const int dark = pt__solve_dark(map);
    /* Memory: the tables (the sight table, one more per extra seed being merged, the margins'
     * tables, one hearing table per gait searched, the animals' and the search's mix of
     * them) and the search's bits of the largest gait (twice with the window). A gait whose
     * step rhythm needs more classes than the rest of the limit holds is left out. */
    size_t table = pt__solve_table_bytes(map->w, map->h, TT);
    int ngaits = 0;
    for (int g = 0; g < PT_GAIT_COUNT; g++) ngaits += (int)(mask >> g & 1u);
    size_t nsight = (nseeds > 1 ? 2u : 1u) + (o.margin > 0.0 ? 1u : 0u) + (near_ticks ? 1u : 0u) + 1u;
    size_t ntables = nsight * (dark ? (size_t)PT_GAIT_COUNT : 1u) + 1u + (ndoor ? 1u : 0u);
    size_t per_class = pt__solve_search_bytes(T, s.C, 1, o.window);
    size_t fixed = table * (ntables + (size_t)ngaits);
    long maxcls = fixed < (size_t)PT_SOLVE_MAX_BYTES ? (long)(((size_t)PT_SOLVE_MAX_BYTES - fixed) / per_class) : 0;
    int *gaps = PT_MALLOC(((size_t)T + 2) * sizeof *gaps);
    if (!gaps) {
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        goto done;
    }
    long maxcls_nowin = fixed < (size_t)PT_SOLVE_MAX_BYTES
                            ? (long)(((size_t)PT_SOLVE_MAX_BYTES - fixed) / pt__solve_search_bytes(T, s.C, 1, 0)) : 0;
    int nowin_fits = 0; /* a gait left out would fit without the start window */
    int nok = 0, why = 0, ncls_max = 0; /* why: of the first gait left out: -1 two steps a tick, -2 memory */
    for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++) {
        if (!(mask >> g & 1u)) continue;
        double walk = pt_gait_speed(PT_GAIT_WALK), sc = pt_gait_speed((pt_gait)g);
        int ng = pt__solve_step_gaps(pdef.speed, walk, sc, 1.0 / 60, T, gaps, T + 2);
        if (ng < 0) clk[g].why = -1;
        else if ((clk[g].rhythm = pt__solve_rhythm_classes(&clk[g], gaps, ng, T, maxcls)) < 0)
            rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        else if (clk[g].rhythm == 0) clk[g].why = -2;
        if (rc != PT_OK) break;
        if (clk[g].why == -2 && o.window && !nowin_fits && maxcls_nowin > maxcls) { /* would it fit without? */
            gait_clock tc;
            memset(&tc, 0, sizeof tc);
            nowin_fits = pt__solve_rhythm_classes(&tc, gaps, ng, T, maxcls_nowin) > 0;
            PT_FREE(tc.gap);
            PT_FREE(tc.nxt);
        }
        if (clk[g].why) {
            if (!why) why = clk[g].why;
            if (clk[g].why == -2) out->gaits_left_out |= 1u << g;
            continue;
        }
        clk[g].ok = 1;
        clk[g].t0 = g == PT_GAIT_WALK ? 0 : clk[g].gap[0];
        clk[g].k0 = g == PT_GAIT_WALK ? 0 : clk[g].nxt[0];
        if (clk[g].ncls > ncls_max) ncls_max = clk[g].ncls;
        nok++;
    }
    PT_FREE(gaps);
    size_t need = table * (ntables + (size_t)nok) + pt__solve_search_bytes(T, s.C, ncls_max ? ncls_max : maxcls + 1, o.window);
    out->bytes = need;
    out->classes = ncls_max;
    if (rc == PT_OK && !nok && why == -1)
        rc = pt_error_set(err, PT_ERR_RANGE, 0, 0, "the player's speed %g tiles/s takes two steps in a tick: the solver "
                          "follows one a tick", pdef.speed);
    else if (rc == PT_OK && !nok && nowin_fits)
        rc = pt_error_set(err, PT_ERR_LIMIT, 0, 0, "solving %dx%d cells over %d ticks with the start window needs more "
                          "than %ld MB: without it (--no-window) it fits, or use a shorter horizon", map->w, map->h, T,
                          PT_SOLVE_MAX_BYTES >> 20);
    else if (rc == PT_OK && !nok)
        rc = pt_error_set(err, PT_ERR_LIMIT, 0, 0, "solving %dx%d cells over %d ticks needs more than %ld MB: use a "
                          "shorter horizon", map->w, map->h, T, PT_SOLVE_MAX_BYTES >> 20);
    if (rc != PT_OK) goto done;
    for (int g = 0; g < PT_GAIT_COUNT; g++)
        if (clk[g].ok) {
            pt__solve_use_clock(&s, &clk[g]);
            out->rhythm = clk[g].rhythm;
            break;
        }

    /* The guards' sight and the steps they hear in each gait, all seeds together. */
    for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++) {
        if (!clk[g].ok) continue;
        loud[g].w = map->w;
        loud[g].h = map->h;
        loud[g].ticks = TT;
        loud[g].stride = ((size_t)map->w * (size_t)map->h + 63) / 64;
        if (!(loud[g].bits = PT_CALLOC(table ? table : 1, 1))) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    if (rc == PT_OK && ndoor) {
        dloud = (pt_sightmap){map->w, map->h, TT, ((size_t)map->w * (size_t)map->h + 63) / 64, PT_CALLOC(table ? table : 1, 1)};
        if (!dloud.bits) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        s.door = door;
        s.dloud = &dloud;
    }
    unsigned okmask = 0;
    for (int g = 0; g < PT_GAIT_COUNT; g++) okmask |= clk[g].ok ? 1u << g : 0u;
    for (int i = 0; i < nseeds && rc == PT_OK; i++) {
        pt__solve_report(&o, "sight", (double)i / nseeds);
        pt_sightmap *dst = i == 0 ? all : one;
        if (i == 0 && !table_alloc(&shy, map, TT)) {
            rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
            break;
        }
        rc = seed_tables(map, lib, seed0 + (uint64_t)i, TT, &o, (double)i / nseeds, 1.0 / nseeds, dst, &shy, loud, okmask,
                         ndoor ? &dloud : NULL, &open, ndoor ? door : NULL, err);
        for (int g = 0; rc == PT_OK && i > 0 && g < PT_GAIT_COUNT; g++)
            if (one[g].bits) {
                or_into(&all[g], &one[g]);
                pt_sightmap_fini(&one[g]);
            }
    }
    if (rc == PT_OK) pt__solve_gait_start(all, pt__solve_gait_tick(pdef.speed));
    const pt_sightmap *plain = &all[PT_GAIT_WALK];
    for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++) {
        if (g != PT_GAIT_WALK && !all[g].bits) {
            unsafe[g] = unsafe[PT_GAIT_WALK]; /* a lit map: the walk table is every gait's */
            continue;
        }
        if (!(unsafe[g] = unsafe_table(&all[g], near_ticks, o.margin, &timed[g], &wide[g])) ||
            !(unsafe[g] = with_animals(unsafe[g], &shy, &mixed[g])))
            rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    s.unsafe = unsafe[PT_GAIT_WALK];
    if (rc == PT_OK) rc = pt__solve_search_gaits(&s, &o, clk, loud, unsafe, mask, out, err);
    out->all_seeds = 1;
    if (rc == PT_OK && out->found && !pt__solve_route_figures(out, pt__solve_gait_table(all, out->gait)))
        rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    if (rc == PT_OK && !out->found) { /* why: the start on tick 1 (no route in any gait), else the horizon */
        out->why = PT_SOLVE_WHY_HORIZON;
        if (pt_sightmap_seen(plain, 1, out->start_x, out->start_y)) out->why = PT_SOLVE_WHY_SEEN_AT_START;
        else if (pt_sightmap_seen(&shy, 1, out->start_x, out->start_y)) out->why = PT_SOLVE_WHY_ANIMAL_AT_START;
        else if (pt_sightmap_seen(unsafe[PT_GAIT_WALK], 1, out->start_x, out->start_y)) out->why = PT_SOLVE_WHY_MARGIN_AT_START;
    }
    if (rc == PT_OK && out->found) out->seeds_ok = nseeds;
    if (rc == PT_OK && out->found && check > 0)
        rc = seeds_check(&s, clk, map, lib, &o, seed0, check, &open, ndoor ? door : NULL, out, err);
done:
    pt__solve_search_free(&s);
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        PT_FREE(clk[g].gap);
        PT_FREE(clk[g].nxt);
    }
    for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(&loud[g]);
    pt_sightmap_fini(&shy);
    pt_sightmap_fini(&dloud);
    if (ndoor) pt_map_fini(&open);
    PT_FREE(door);
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        pt_sightmap_fini(&mixed[g]);
        pt_sightmap_fini(&all[g]);
        pt_sightmap_fini(&wide[g]);
        pt_sightmap_fini(&timed[g]);
        pt_sightmap_fini(&one[g]);
    }
    if (rc != PT_OK) {
        pt_solve_result_fini(out);
        out->found = 0;
    }
    return rc;
}

static int solve_all(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, pt_solve_result *out,
                     pt_error *err) {
    pt_solve_opts o = {0};
    if (opts) o = *opts;
    int rc = solve_core(map, lib, &o, 0, out, err);
    int nseeds = o.nseeds ? o.nseeds : 1;
    if (rc != PT_OK || out->found || nseeds == 1) return rc;
    /* None for all of them: the route of the first seed alone (exactly its own solve: its
     * sight, hearing and animals only), and under how many of the seeds it holds. */
    long long nodes = out->nodes;
    size_t bytes = out->bytes;
    pt_solve_opts one = o;
    one.nseeds = 1;
    one.seed = o.seed ? o.seed : (map->seed ? map->seed : 1);
    pt_solve_result_fini(out);
    rc = solve_core(map, lib, &one, nseeds, out, err); /* and under how many of the seeds it holds */
    out->nodes += nodes;
    if (bytes > out->bytes) out->bytes = bytes;
    out->nseeds = nseeds;
    out->all_seeds = 0;
    if (!out->found) out->seeds_ok = 0;
    if (rc != PT_OK) {
        pt_solve_result_fini(out);
        out->found = 0;
    }
    return rc;
}

/* A map with `door` lines is searched as the world starts it: its declared closed and locked
 * doors are walls to the route and damp the footsteps as such (docs/solve.md, "Doors"). */
int pt_solve(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, pt_solve_result *out,
             pt_error *err) {
    if (map->ndoors == 0) return solve_all(map, lib, opts, out, err);
    pt_map start;
    if (pt__map_clone_started(&start, map) < 0) {
        memset(out, 0, sizeof *out);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory copying the map");
    }
    int rc = solve_all(&start, lib, opts, out, err);
    pt_map_fini(&start);
    return rc;
}
