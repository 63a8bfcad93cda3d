/* SPDX-License-Identifier: Zlib */
/* The solver and the sight table: routes replayed tick by tick in the world (never in any
 * guard's view, on the solver's cells, at the goal on the solver's tick), maps built to have
 * one safe way, none or many, generated maps over many seeds, and the sight table of a
 * fixed guard against its cone. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/los.h>
#include <patrol/solve.h>
#include <patrol/world.h>

#include "guards/tuning.h"
#include "test_route.h"
#include "test_util.h"

/* The solver plans by sight only (docs/solve.md): the replays run on maps whose floor and
 * exit make no footsteps, so that no guard hears the player either. */
static const char silent_legend[] = "tile . floor walkable footstep=0\ntile E exit walkable goal footstep=0\n";

static void load_map(pt_map *m, const char *map_text) {
    static char text[70000];
    ck_assert_uint_lt(strlen(silent_legend) + strlen(map_text), sizeof text);
    strcpy(text, silent_legend);
    strcat(text, map_text);
    pt_error err;
    int rc = pt_map_parse(m, text, strlen(text), "inline.map", &err);
    ck_assert_msg(rc == PT_OK, "map: %d:%d %s\n%s", err.line, err.col, err.message, text);
}

static void load_pats(pt_patlib *lib, const char *text) {
    pt_error err;
    pt_patlib_init(lib);
    int rc = pt_patlib_parse(lib, text, strlen(text), "inline.pat", &err);
    ck_assert_msg(rc == PT_OK, "patterns: %d:%d %s\n%s", err.line, err.col, err.message, text);
}

static int solve(const pt_map *m, const pt_patlib *lib, uint64_t seed, int max_ticks, pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.seed = seed;
    o.max_ticks = max_ticks;
    pt_error err;
    int rc = pt_solve(m, lib, &o, r, &err);
    ck_assert_msg(rc == PT_OK, "solve: %s", err.message);
    return r->found;
}

/* Plays the route's pattern (as pt_solve_write_pattern writes it, parsed back) in the world
 * with `seed`: on every tick no guard has the player in view and none is aware of them, the
 * player is on the route's cell, and the goal event comes on the route's last tick. */
static void replay(const pt_map *m, const pt_patlib *lib, uint64_t seed, const pt_solve_result *r) {
    pt_patlib plib;
    char *text = tu_route_pattern(r, &plib);
    pt_world *w = tu_route_world(m, lib, &plib, seed);
    for (int t = 1; t <= r->ticks; t++) {
        pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        ck_assert_msg(p->x == r->cells[t].x && p->y == r->cells[t].y, "seed %llu tick %d: player at %d,%d, route %d,%d\n%s",
                      (unsigned long long)seed, t, p->x, p->y, r->cells[t].x, r->cells[t].y, text);
        for (int i = 1; i < pt_world_count(w); i++) {
            const pt_entity *g = pt_world_entity(w, i);
            if (g->kind != PT_KIND_GUARD) continue;
            ck_assert_msg(!g->sees_player && g->awareness == 0.0, "seed %llu tick %d: guard %d sees the player at %d,%d",
                          (unsigned long long)seed, t, i, p->x, p->y);
        }
        int n = 0, goal = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) {
            ck_assert(ev[k].kind != PT_EVENT_SPOTTED && ev[k].kind != PT_EVENT_CAUGHT);
            /* no noise on these maps but the player's (footsteps, startled animals) */
            ck_assert_msg(ev[k].kind != PT_EVENT_HEARD, "seed %llu tick %d: a guard heard %d,%d\n%s",
                          (unsigned long long)seed, t, ev[k].x, ev[k].y, text);
            goal |= ev[k].kind == PT_EVENT_GOAL;
        }
        ck_assert_msg(goal == (t == r->ticks), "seed %llu tick %d of %d: goal event %d", (unsigned long long)seed, t,
                      r->ticks, goal);
    }
    pt_world_destroy(w);
    pt_patlib_fini(&plib);
    free(text);
}

static void assert_route_on_map(const pt_map *m, const pt_solve_result *r);

/* ---- built maps: one safe way, none, many ------------------------------------------------ */

/* Two corridors from the start room to the exit: north (row 2) and south (row 6). A guard
 * that sees all around stands in each corridor the map string enables. */
static const char *two_ways =
    "player at=1,4 speed=4\n"
    "%s"
    "%s"
    "grid\n"
    "####################\n"
    "#..................#\n"
    "#.################.#\n"
    "#.################.#\n"
    "#.################.E\n"
    "#.################.#\n"
    "#.################.#\n"
    "#..................#\n"
    "####################\n"
    "end\n";

static void two_ways_map(pt_map *m, int north, int south) {
    char text[2048];
    snprintf(text, sizeof text, two_ways, north ? "guard n at=10,1 view=12 fov=360\n" : "",
             south ? "guard s at=10,7 view=12 fov=360\n" : "");
    load_map(m, text);
}

START_TEST(test_one_way) {
    for (int north = 0; north <= 1; north++) {
        pt_map m;
        two_ways_map(&m, north, !north);
        pt_patlib lib;
        pt_patlib_init(&lib);
        pt_solve_result r;
        ck_assert(solve(&m, &lib, 0, 0, &r));
        /* The only safe way is the unwatched corridor. */
        int bad_row = north ? 1 : 7;
        for (int t = 0; t <= r.ticks; t++) ck_assert_int_ne(r.cells[t].y, bad_row);
        replay(&m, &lib, 1, &r);
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

START_TEST(test_no_way) {
    pt_map m;
    two_ways_map(&m, 1, 1);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_result r;
    ck_assert(!solve(&m, &lib, 0, 0, &r));
    ck_assert_int_eq(r.nactions, 0);
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_many_ways) {
    pt_map m;
    two_ways_map(&m, 0, 0);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_result r;
    ck_assert(solve(&m, &lib, 0, 0, &r));
    replay(&m, &lib, 1, &r);
    /* Earliest: a horizon one tick shorter has no route. */
    int ticks = r.ticks;
    pt_solve_result_fini(&r);
    ck_assert(!solve(&m, &lib, 0, ticks - 1, &r));
    pt_solve_result_fini(&r);
    ck_assert(solve(&m, &lib, 0, ticks, &r));
    ck_assert_int_eq(r.ticks, ticks);
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* The earliest arrival with no guards at all. */
static int unguarded_ticks(pt_map *m, const pt_patlib *lib) {
    int n = m->nents;
    m->nents = 0;
    pt_solve_result r;
    ck_assert(solve(m, lib, 1, 0, &r));
    m->nents = n;
    int t = r.ticks;
    pt_solve_result_fini(&r);
    return t;
}

/* A guard walks back and forth across the only corridor: the route must wait for it. */
START_TEST(test_waits_for_the_guard) {
    const char *text =
        "player at=1,5 speed=4.5\n"
        "guard g at=8,1 pattern=door view=2.5 fov=360 speed=3\n"
        "grid\n"
        "################\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "#..............E\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "#......#.......#\n"
        "################\n"
        "end\n";
    pt_map m;
    load_map(&m, text);
    pt_patlib lib;
    load_pats(&lib, "pattern door\n  kind path\n  points 8,1 8,9\nend\n");
    int delayed = 0, found = 0;
    for (int x = 1; x <= 6; x++) {
        m.player.x = x;
        int free_ticks = unguarded_ticks(&m, &lib);
        pt_solve_result r;
        if (solve(&m, &lib, 1, 0, &r)) {
            found++;
            delayed += r.ticks > free_ticks;
            replay(&m, &lib, 1, &r);
        }
        pt_solve_result_fini(&r);
    }
    /* Each start finds its way past the guard, and most must lose time for it. */
    ck_assert_int_eq(found, 6);
    ck_assert_int_ge(delayed, 3);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static void gen_level(pt_map *m, pt_patlib *lib, uint64_t seed);

/* ---- hearing ------------------------------------------------------------------------------ */

/* A corridor past the mouth of a side passage where a guard faces away: it never sees the
 * corridor, but hears it. Floor footsteps at factor 1 (walk 6, sneak 2.5, run 12 tiles); the
 * guard's threshold `hearing` decides which gaits get by. */
static void passage_map_at(pt_map *m, const char *hearing, int gy) {
    char text[2048];
    snprintf(text, sizeof text,
             "tile . floor walkable footstep=1\ntile E exit walkable goal footstep=1\n"
             "player at=1,1 speed=4\n"
             "guard g at=7,%d heading=90 view=2 fov=40 hearing=%s\n"
             "grid\n"
             "###############\n"
             "#.............E\n"
             "#######.#######\n"
             "#######.#######\n"
             "#######.#######\n"
             "#######.#######\n"
             "###############\n"
             "end\n",
             gy, hearing);
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, strlen(text), "passage.map", &err) == PT_OK, "%s", err.message);
}

static void passage_map(pt_map *m, const char *hearing) { passage_map_at(m, hearing, 4); }

static int solve_gait(const pt_map *m, const pt_patlib *lib, int gait, pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.gait = gait;
    o.max_ticks = 1200;
    pt_error err;
    ck_assert_int_eq(pt_solve(m, lib, &o, r, &err), PT_OK);
    return r->found;
}

/* Walking past the passage is heard, sneaking is not: the only route sneaks (and says so in
 * its pattern), and the world agrees: no guard hears it. Walk alone finds none. */
START_TEST(test_only_sneaking_gets_by) {
    pt_map m;
    passage_map(&m, "1");
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_result r;
    ck_assert(solve_gait(&m, &lib, 0, &r));
    ck_assert_int_eq(r.gait, PT_GAIT_SNEAK);
    replay(&m, &lib, 1, &r);
    pt_solve_result_fini(&r);
    ck_assert(!solve_gait(&m, &lib, 1 + PT_GAIT_WALK, &r));
    pt_solve_result_fini(&r);
    ck_assert(!solve_gait(&m, &lib, 1 + PT_GAIT_RUN, &r));
    pt_solve_result_fini(&r);
    /* The world hears a walker: the walk route of a deaf guard's map is heard on this one. */
    pt_map deaf;
    passage_map(&deaf, "256");
    ck_assert(solve_gait(&deaf, &lib, 1 + PT_GAIT_WALK, &r));
    pt_patlib plib;
    free(tu_route_pattern(&r, &plib));
    pt_world *w = tu_route_world(&m, &lib, &plib, 1);
    int heard = 0;
    for (int t = 1; t <= r.ticks; t++) {
        pt_world_step(w);
        int n = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) heard += ev[k].kind == PT_EVENT_HEARD;
    }
    ck_assert_int_gt(heard, 0);
    pt_world_destroy(w);
    pt_patlib_fini(&plib);
    pt_solve_result_fini(&r);
    pt_map_fini(&deaf);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A guard nearer the mouth that hears even a sneak there: no route. A deaf one: every gait gets by, and
 * the earliest, running, is taken. */
START_TEST(test_heard_whatever_the_gait) {
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_map m;
    passage_map_at(&m, "0.1", 3);
    pt_solve_result r;
    ck_assert(!solve_gait(&m, &lib, 0, &r));
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    passage_map(&m, "256");
    int ticks[PT_GAIT_COUNT];
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        ck_assert(solve_gait(&m, &lib, 1 + g, &r));
        ck_assert_int_eq(r.gait, g);
        ticks[g] = r.ticks;
        replay(&m, &lib, 1, &r);
        pt_solve_result_fini(&r);
    }
    ck_assert(ticks[PT_GAIT_RUN] < ticks[PT_GAIT_WALK] && ticks[PT_GAIT_WALK] < ticks[PT_GAIT_SNEAK]);
    ck_assert(solve_gait(&m, &lib, 0, &r));
    ck_assert_int_eq(r.gait, PT_GAIT_RUN);
    ck_assert_int_eq(r.ticks, ticks[PT_GAIT_RUN]);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* Generated levels on floors that are heard: over many seeds, every route the solver finds
 * is replayed unseen and unheard, and some levels need a gait other than walking. */
START_TEST(test_generated_heard_routes_replay) {
    int found = 0, other = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        /* make the floor loud: footstep 1, and the guards sharp of hearing */
        for (int i = 0; i < m.nlegend; i++) m.legend[i].footstep = 1.0;
        for (int i = 0; i < m.nents; i++)
            if (m.ents[i].kind == PT_KIND_GUARD) m.ents[i].hearing = 1.0 + (double)(seed % 3);
        pt_solve_result r;
        if (solve(&m, &lib, seed, 1200, &r)) {
            found++;
            other += r.gait != PT_GAIT_WALK;
            replay(&m, &lib, seed, &r);
        }
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_msg(found >= 8 && other >= 1, "found %d, not walking %d", found, other);
}
END_TEST

/* ---- generated maps ------------------------------------------------------------------------ */

/* A walled W x H room with scattered walls, the player top-left, the exit bottom-right, and
 * 1-4 guards: idle ones, random walkers (a matrix of 1s: the walk depends on the seed) and
 * path walkers (a rectangle). The player's speed varies, so do the step rhythms. */
static void gen_level_exit(pt_map *m, pt_patlib *lib, uint64_t seed, int exit_edge);
static void gen_level(pt_map *m, pt_patlib *lib, uint64_t seed) { gen_level_exit(m, lib, seed, 0); }

/* exit_edge: 0 the exit inside the room's bottom-right corner, 1..4 in the outer wall beside
 * it (north, east, south, west), so that the last step is from the edge row or column; 5 no
 * outer wall at all (the map's edges bound the room) and the exit in the corner. */
static void gen_level_exit(pt_map *m, pt_patlib *lib, uint64_t seed, int exit_edge) {
    pt_rng r;
    pt_rng_seed(&r, seed, 991);
    int W = 14 + (int)pt_rng_below(&r, 14), H = 10 + (int)pt_rng_below(&r, 8);
    static const char *speeds[] = {"3", "4", "4.5", "6", "3.5", "5"};
    char *text = malloc(65536), pats[4096] = "";
    size_t n = 0, pn = 0;
    n += (size_t)snprintf(text + n, 65536 - n, "player at=1,1 speed=%s\n", speeds[pt_rng_below(&r, 6)]);
    char grid[32][32];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            grid[y][x] = exit_edge < 5 && (x == 0 || y == 0 || x == W - 1 || y == H - 1) ? '#' : '.';
    for (int i = 0; i < W * H / 10; i++) {
        int x = 1 + (int)pt_rng_below(&r, (uint32_t)(W - 2)), y = 1 + (int)pt_rng_below(&r, (uint32_t)(H - 2));
        if ((x <= 2 && y <= 2) || (x >= W - 3 && y >= H - 3)) continue;
        grid[y][x] = '#';
    }
    static const int EX[6][2] = {{-2, -2}, {-2, 0}, {-1, -2}, {-2, -1}, {0, -2}, {-1, -1}}; /* < 0: from W, H */
    int ex = EX[exit_edge][0], ey = EX[exit_edge][1];
    grid[ey == 0 ? 0 : H + ey][ex == 0 ? 0 : W + ex] = 'E';
    int guards = 1 + (int)pt_rng_below(&r, 4);
    for (int g = 0; g < guards; g++) {
        int x, y;
        do {
            x = 2 + (int)pt_rng_below(&r, (uint32_t)(W - 4));
            y = 2 + (int)pt_rng_below(&r, (uint32_t)(H - 4));
        } while (grid[y][x] != '.' || (x <= 3 && y <= 3));
        int view = 3 + (int)pt_rng_below(&r, 5), fov = 60 + 30 * (int)pt_rng_below(&r, 10);
        int heading = 45 * (int)pt_rng_below(&r, 8), kind = (int)pt_rng_below(&r, 3);
        if (kind == 0) {
            n += (size_t)snprintf(text + n, 65536 - n, "guard g%d at=%d,%d heading=%d view=%d fov=%d\n", g, x, y, heading,
                                  view, fov);
        } else if (kind == 1) { /* a random walk over a box around it */
            n += (size_t)snprintf(text + n, 65536 - n, "guard g%d at=%d,%d pattern=walk%d view=%d fov=%d speed=2.5\n", g, x,
                                  y, g, view, fov);
            pn += (size_t)snprintf(pats + pn, sizeof pats - pn, "pattern walk%d\n  kind matrix\n  rows\n", g);
            for (int k = 0; k < 4; k++) pn += (size_t)snprintf(pats + pn, sizeof pats - pn, "    11111\n");
            pn += (size_t)snprintf(pats + pn, sizeof pats - pn, "  end\n  start 0,0\n  origin %d,%d\nend\n", x - 2 > 1 ? x - 2 : 1,
                                   y - 1 > 1 ? y - 1 : 1);
        } else { /* a rectangle loop */
            int x2 = x + 3 < W - 2 ? x + 3 : W - 2, y2 = y + 2 < H - 2 ? y + 2 : H - 2;
            n += (size_t)snprintf(text + n, 65536 - n, "guard g%d at=%d,%d pattern=loop%d view=%d fov=%d speed=3\n", g, x, y,
                                  g, view, fov);
            pn += (size_t)snprintf(pats + pn, sizeof pats - pn,
                                   "pattern loop%d\n  kind path\n  points %d,%d %d,%d %d,%d %d,%d %d,%d\nend\n", g, x, y, x2,
                                   y, x2, y2, x, y2, x, y);
        }
    }
    n += (size_t)snprintf(text + n, 65536 - n, "grid\n");
    for (int y = 0; y < H; y++) {
        memcpy(text + n, grid[y], (size_t)W);
        n += (size_t)W;
        text[n++] = '\n';
    }
    snprintf(text + n, 65536 - n, "end\n");
    load_map(m, text);
    if (pn) load_pats(lib, pats);
    else pt_patlib_init(lib);
    free(text);
}

START_TEST(test_generated_routes_replay) {
    int found = 0, none = 0, delayed = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        int free_ticks = unguarded_ticks(&m, &lib);
        for (uint64_t ws = 1; ws <= 2; ws++) {
            pt_solve_result r;
            if (solve(&m, &lib, ws * 1000 + seed, 1800, &r)) {
                found++;
                delayed += r.ticks > free_ticks;
                replay(&m, &lib, ws * 1000 + seed, &r);
                /* Earliest: one tick less of horizon finds nothing. */
                int ticks = r.ticks;
                pt_solve_result_fini(&r);
                if (ws == 1 && ticks > 1) ck_assert(!solve(&m, &lib, ws * 1000 + seed, ticks - 1, &r));
            } else {
                none++;
            }
            pt_solve_result_fini(&r);
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    /* The generator makes both kinds of level, and routes that lose time to the guards. */
    ck_assert_msg(found >= 25 && none >= 1 && delayed >= 4, "found %d, none %d, delayed %d", found, none, delayed);
}
END_TEST

/* Seeds: a route for seeds 1..N holds for each of them alone. */
START_TEST(test_seeds_together) {
    int together = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        pt_solve_opts o = {0};
        o.seed = 100 * seed;
        o.nseeds = 4;
        o.max_ticks = 1800;
        pt_solve_result r;
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
        if (r.found) {
            ck_assert_int_le(r.seeds_ok, 4);
            if (r.all_seeds) ck_assert_int_eq(r.seeds_ok, 4);
            together += r.all_seeds;
            for (int k = 0; k < 4; k++) {
                pt_sightmap sm;
                ck_assert_int_eq(pt_sightmap_build(&sm, &m, &lib, o.seed + (uint64_t)k, r.ticks, &err), PT_OK);
                if (r.all_seeds) {
                    ck_assert(pt_solve_route_unseen(&r, &sm));
                    replay(&m, &lib, o.seed + (uint64_t)k, &r);
                }
                pt_sightmap_fini(&sm);
            }
        }
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(together, 10);
}
END_TEST

/* Seeds S..S+N-1 with no route for all of them: the route given is exactly the route of a
 * solve of seed S alone (its own sight, hearing and animals, not the other seeds'), and
 * seeds_ok counts the seeds under which it walks unseen and unheard in the world. Generated
 * levels on heard floors, then the demo (seed 7 alone: 821 ticks). */
START_TEST(test_seeds_fallback_is_seed_alone) {
    int fallbacks = 0, routes = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        for (int i = 0; i < m.nlegend; i++) m.legend[i].footstep = 1.0;
        for (int i = 0; i < m.nents; i++)
            if (m.ents[i].kind == PT_KIND_GUARD) m.ents[i].hearing = 1.0 + (double)(seed % 3);
        pt_solve_opts o = {0};
        o.seed = 100 * seed;
        o.nseeds = 4;
        o.max_ticks = 1200;
        pt_solve_result r, one;
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
        if (!r.all_seeds) {
            fallbacks++;
            o.nseeds = 1;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &one, &err), PT_OK);
            ck_assert_msg(r.found == one.found, "level %llu: fallback found %d, seed alone %d", (unsigned long long)seed,
                          r.found, one.found);
            if (r.found) {
                routes++;
                ck_assert_int_eq(r.ticks, one.ticks);
                ck_assert_int_eq(r.gait, one.gait);
                ck_assert_int_eq(r.first_move_tick, one.first_move_tick);
                replay(&m, &lib, o.seed, &r);
                int holds = 0;
                for (int k = 0; k < 4; k++) holds += tu_route_holds(&m, &lib, o.seed + (uint64_t)k, &r);
                ck_assert_int_eq(r.seeds_ok, holds);
                ck_assert_int_ge(r.seeds_ok, 1);
                ck_assert_int_lt(r.seeds_ok, 4);
            }
            pt_solve_result_fini(&one);
        } else if (r.found) {
            ck_assert_int_eq(r.seeds_ok, 4);
        }
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_msg(fallbacks >= 4 && routes >= 2, "fallbacks %d, routes %d", fallbacks, routes);
    /* The demo: seeds 7..16 have no route together; seed 7 alone has its 821-tick route. */
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, PATROL_SOURCE_DIR "/maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++)
        ck_assert_msg(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK, "%s", err.message);
    pt_solve_opts o = {0};
    o.seed = 7;
    o.nseeds = 10;
    o.max_ticks = 1200;
    o.gait = 1 + PT_GAIT_WALK;
    pt_solve_result r, one;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    o.nseeds = 1;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &one, &err), PT_OK);
    ck_assert(one.found && one.ticks == 821);
    ck_assert(r.found && !r.all_seeds);
    ck_assert_int_eq(r.ticks, one.ticks);
    ck_assert_int_ge(r.seeds_ok, 1);
    ck_assert_int_lt(r.seeds_ok, 10);
    pt_solve_result_fini(&r);
    pt_solve_result_fini(&one);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Speeds whose step rhythm in some gait drifts (the floating-point step clock) so that it
 * repeats only after many steps, more of them the longer the horizon. */
static const double drifting_speeds[] = {3.53, 3.71, 3.04, 2.98, 3.29, 3.67, 3.97, 4.01};

static int solve_within(const pt_map *m, const pt_patlib *lib, uint64_t seed, int max_ticks, pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.seed = seed;
    o.max_ticks = max_ticks;
    pt_error err;
    ck_assert_int_eq(pt_solve(m, lib, &o, r, &err), PT_OK);
    ck_assert_uint_eq(r->gaits_left_out, 0); /* these small maps have room for every gait */
    return r->found;
}

/* A longer horizon never gives a slower route: every gait is searched whatever its step
 * rhythm over the horizon. Corridors of every length at drifting speeds (the route runs),
 * found within 10 s is found, as early, within 20 s and 30 s; then generated levels at
 * those speeds, 10 s against 20 s. */
START_TEST(test_longer_horizon_never_slower) {
    int runs = 0, found = 0;
    for (int i = 0; i < 16; i++) {
        char text[1024];
        int len = 10 + 2 * i;
        double speed = drifting_speeds[i % 8];
        int n = snprintf(text, sizeof text, "player at=1,1 speed=%.2f\ngrid\n", speed);
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < len + 2; x++) text[n++] = y != 1 ? '#' : x == 0 ? '#' : x == len + 1 ? 'E' : '.';
            text[n++] = '\n';
        }
        snprintf(text + n, sizeof text - (size_t)n, "end\n");
        pt_map m;
        load_map(&m, text);
        pt_patlib lib;
        pt_patlib_init(&lib);
        pt_solve_result r1, r2;
        ck_assert(solve_within(&m, &lib, 1, 600, &r1));
        for (int k = 2; k <= 3; k++) {
            ck_assert(solve_within(&m, &lib, 1, 600 * k, &r2));
            ck_assert_msg(r2.ticks == r1.ticks && r2.gait == r1.gait, "corridor %d at %.2f: %d ticks (%s) within 600, %d (%s) within %d",
                          len, speed, r1.ticks, pt_gait_name((pt_gait)r1.gait), r2.ticks, pt_gait_name((pt_gait)r2.gait), 600 * k);
            pt_solve_result_fini(&r2);
        }
        runs += r1.gait == PT_GAIT_RUN;
        replay(&m, &lib, 1, &r1);
        pt_solve_result_fini(&r1);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(runs, 12);
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        m.player.speed = drifting_speeds[seed % 8];
        pt_solve_result r1, r2;
        if (solve_within(&m, &lib, seed, 600, &r1)) {
            found++;
            ck_assert(solve_within(&m, &lib, seed, 1200, &r2));
            ck_assert_msg(r2.ticks == r1.ticks, "level %llu at %.2f: %d ticks (%s) within 600, %d (%s) within 1200",
                          (unsigned long long)seed, m.player.speed, r1.ticks, pt_gait_name((pt_gait)r1.gait), r2.ticks,
                          pt_gait_name((pt_gait)r2.gait));
            replay(&m, &lib, seed, &r2);
            pt_solve_result_fini(&r2);
        }
        pt_solve_result_fini(&r1);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(found, 3);
}
END_TEST

/* A gait whose search would not fit the memory limit is left out and named (the route is
 * the best of the others); asked for alone, it is an error that says so. */
START_TEST(test_gait_left_out_is_named) {
    /* 200 x 200 cells over 1000 ticks: a class of the search is 38 MB; at 3.53 tiles/s
     * running repeats only after 71 classes, walking and sneaking after 2 */
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 200, 200, &err), PT_OK);
    for (int x = 0; x < 200; x++) pt_map_set(&m, x, 100, '.');
    m.player.x = 0;
    m.player.y = 100;
    m.player.speed = 3.53;
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_opts o = {0};
    o.max_ticks = 1200;
    pt_solve_result r;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_MISSING); /* no goal yet */
    pt_solve_result_fini(&r);
    ck_assert(pt_map_set(&m, 30, 100, 'E'));
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    ck_assert(r.found);
    ck_assert_uint_eq(r.gaits_left_out, 1u << PT_GAIT_RUN);
    ck_assert_int_eq(r.gait, PT_GAIT_WALK);
    ck_assert_uint_le(r.bytes, (size_t)PT_SOLVE_MAX_BYTES);
    pt_solve_result_fini(&r);
    o.gait = 1 + PT_GAIT_RUN;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_LIMIT);
    pt_solve_result_fini(&r);
    o.max_ticks = 600; /* half the horizon: its rhythm repeats after 9 classes */
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    ck_assert(r.found && r.gait == PT_GAIT_RUN);
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static int in_window(const pt_solve_result *r, int t) {
    for (int i = 0; i < r->nspans; i++)
        if (t >= r->spans[i].first && t <= r->spans[i].last) return 1;
    return 0;
}

static int solve_leaving(const pt_map *m, const pt_patlib *lib, uint64_t seed, int leave_after, int window,
                         pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.seed = seed;
    o.max_ticks = 900;
    o.leave_after = leave_after;
    o.window = window;
    pt_error err;
    ck_assert_int_eq(pt_solve(m, lib, &o, r, &err), PT_OK);
    return r->found;
}

/* The start window: the route leaves within it; the last tick of it still gets through (and
 * the route found when told to wait that long leaves exactly then); one tick later nothing
 * does; from any tick inside it, the route found leaves at a tick of the window. */
START_TEST(test_start_window) {
    int checked = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        pt_solve_result r, q;
        if (solve_leaving(&m, &lib, seed, 0, 1, &r)) {
            ck_assert_int_gt(r.window_ticks, 0);
            ck_assert(in_window(&r, r.first_move_tick));
            ck_assert(!r.spans_more); /* 16 spans are plenty here */
            int last = r.spans[r.nspans - 1].last;
            ck_assert(solve_leaving(&m, &lib, seed, last, 0, &q));
            ck_assert_int_eq(q.first_move_tick, last);
            replay(&m, &lib, seed, &q);
            pt_solve_result_fini(&q);
            ck_assert(!solve_leaving(&m, &lib, seed, last + 1, 0, &q));
            pt_solve_result_fini(&q);
            pt_rng rg;
            pt_rng_seed(&rg, seed, 3);
            for (int k = 0; k < 3; k++) {
                const pt_solve_span *sp = &r.spans[pt_rng_below(&rg, (uint32_t)r.nspans)];
                int d = sp->first + (int)pt_rng_below(&rg, (uint32_t)(sp->last - sp->first + 1));
                ck_assert(solve_leaving(&m, &lib, seed, d, 0, &q));
                ck_assert_int_ge(q.first_move_tick, d);
                ck_assert(in_window(&r, q.first_move_tick));
                pt_solve_result_fini(&q);
            }
            checked++;
        }
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(checked, 8);
}
END_TEST

/* The start window covers every gait: on generated levels whose floors are heard (guards of
 * hearing 5 to 9: walking is heard near them, running farther; so the gaits differ), the window of a solve in any gait is the union of the windows of the
 * solves in each gait alone, and a tick that only another gait than the route's leaves on
 * has a route found with --leave-after that tick, leaving within the window. */
START_TEST(test_window_every_gait) {
    int wider = 0, checked = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        for (int i = 0; i < m.nlegend; i++) m.legend[i].footstep = 1.0;
        for (int i = 0; i < m.nents; i++)
            if (m.ents[i].kind == PT_KIND_GUARD) m.ents[i].hearing = 5.0 + (double)(seed % 5);
        pt_solve_opts o = {0};
        o.seed = seed;
        o.max_ticks = 600;
        o.window = 1;
        pt_solve_result r, one[PT_GAIT_COUNT];
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
        int any_one = 0;
        for (int g = 0; g < PT_GAIT_COUNT; g++) {
            o.gait = 1 + g;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &one[g], &err), PT_OK);
            any_one |= one[g].found;
        }
        ck_assert_int_eq(r.found, any_one);
        if (r.found) {
            checked++;
            int n = 0, only_other = -1;
            for (int t = 0; t <= o.max_ticks; t++) {
                int in_some = 0;
                for (int g = 0; g < PT_GAIT_COUNT; g++) in_some |= one[g].found && in_window(&one[g], t);
                ck_assert_msg(in_window(&r, t) == in_some, "level %llu tick %d: in the window %d, in a gait's %d",
                              (unsigned long long)seed, t, in_window(&r, t), in_some);
                n += in_some;
                if (in_some && !in_window(&one[r.gait], t) && only_other < 0) only_other = t;
            }
            ck_assert_int_eq(r.window_ticks, n);
            if (only_other >= 0) {
                wider++;
                pt_solve_result q;
                ck_assert(solve_leaving(&m, &lib, seed, only_other, 0, &q));
                ck_assert_int_ge(q.first_move_tick, only_other);
                ck_assert(in_window(&r, q.first_move_tick));
                replay(&m, &lib, seed, &q);
                pt_solve_result_fini(&q);
            }
        }
        pt_solve_result_fini(&r);
        for (int g = 0; g < PT_GAIT_COUNT; g++) pt_solve_result_fini(&one[g]);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_msg(checked >= 5 && wider >= 3, "checked %d, wider than the route's gait %d", checked, wider);
}
END_TEST

/* With a margin, the route keeps that far from every seen cell. */
START_TEST(test_margin) {
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        pt_solve_opts o = {0};
        o.seed = seed;
        o.margin = 2;
        o.max_ticks = 1800;
        pt_solve_result r;
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
        if (r.found) {
            ck_assert(r.margin_tiles < 0.0 || r.margin_tiles > 2.0);
            replay(&m, &lib, seed, &r);
        }
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

/* A margin in time: the route's cells are seen no nearer in time than margin_ticks, and a
 * route found without one also has a route with exactly its own margin asked for. */
START_TEST(test_margin_ticks) {
    int found = 0, tighter = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        pt_solve_opts o = {0};
        o.seed = seed;
        o.max_ticks = 1200;
        pt_solve_result r0, r;
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r0, &err), PT_OK);
        if (r0.found && r0.margin_ticks < PT_SOLVE_MARGIN_CAP) {
            o.margin_ticks = r0.margin_ticks;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
            ck_assert(r.found);
            ck_assert_int_ge(r.margin_ticks, o.margin_ticks);
            pt_solve_result_fini(&r);
            o.margin_ticks = r0.margin_ticks + 20;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
            if (r.found) {
                found++;
                ck_assert_int_ge(r.margin_ticks, o.margin_ticks);
                ck_assert_int_ge(r.ticks, r0.ticks);
                assert_route_on_map(&m, &r);
                replay(&m, &lib, seed, &r);
            } else {
                tighter++;
            }
            pt_solve_result_fini(&r);
        }
        pt_solve_result_fini(&r0);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_msg(found >= 3 && tighter >= 1, "found %d, none %d", found, tighter);
}
END_TEST

/* The route is a walk on the map: every cell on it, each tick's cell the last one's or one
 * step from it (pt_map_step_ok), and a goal tile at the end. */
static void assert_route_on_map(const pt_map *m, const pt_solve_result *r) {
    for (int t = 0; t <= r->ticks; t++) {
        pt_cell c = r->cells[t];
        ck_assert_msg(pt_map_walkable(m, c.x, c.y), "tick %d: cell %d,%d", t, c.x, c.y);
        if (t > 0 && (c.x != r->cells[t - 1].x || c.y != r->cells[t - 1].y))
            ck_assert_msg(pt_map_step_ok(m, r->cells[t - 1].x, r->cells[t - 1].y, c.x, c.y), "tick %d: %d,%d -> %d,%d", t,
                          r->cells[t - 1].x, r->cells[t - 1].y, c.x, c.y);
    }
    ck_assert_int_eq(r->goal_x, r->cells[r->ticks].x);
    ck_assert_int_eq(r->goal_y, r->cells[r->ticks].y);
    ck_assert(m->flags[(size_t)r->goal_y * (size_t)m->w + (size_t)r->goal_x] & PT_TILE_GOAL);
}

/* An exit in the map's outer wall (as the demo's), or no outer wall: the route is traced back
 * through cells on the map's edge, where one step further out is off the map (and x - 1 of
 * column 0 would name the row above's last cell). With and without a margin. */
START_TEST(test_exit_on_the_edge) {
    int found = 0;
    for (uint64_t seed = 1; seed <= 16; seed++)
        for (int edge = 1; edge <= 5; edge++) {
            pt_map m;
            pt_patlib lib;
            gen_level_exit(&m, &lib, seed, edge);
            for (int margin = 0; margin <= 3; margin += 3) {
                pt_solve_opts o = {0};
                o.seed = seed;
                o.margin = margin;
                o.max_ticks = 1800;
                pt_solve_result r;
                pt_error err;
                ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
                if (r.found) {
                    found++;
                    assert_route_on_map(&m, &r);
                    replay(&m, &lib, seed, &r);
                }
                pt_solve_result_fini(&r);
            }
            pt_patlib_fini(&lib);
            pt_map_fini(&m);
        }
    ck_assert_int_ge(found, 50);
}
END_TEST

/* ---- the sight table --------------------------------------------------------------------- */

/* A guard that stands still sees the same cells on every tick: its cone, by pt_can_see from
 * its declaration (not from the world). */
START_TEST(test_fixed_guard_heatmap_is_its_cone) {
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pt_map m;
        pt_patlib lib;
        pt_rng r;
        pt_rng_seed(&r, seed, 5);
        static const char *rows[] = {"######################", "#....................#", "#...#......##........#",
                                     "#...#................#", "#.......*............#", "#..........####......#",
                                     "#....................#", "#...##.........*.....#", "#....................#",
                                     "#.........#..........#", "#....................#", "######################"};
        char text[4096];
        int gx, gy;
        do {
            gx = 1 + (int)pt_rng_below(&r, 20);
            gy = 1 + (int)pt_rng_below(&r, 10);
        } while (rows[gy][gx] != '.');
        int heading = (int)pt_rng_below(&r, 360), fov = 30 + (int)pt_rng_below(&r, 331), view = 2 + (int)pt_rng_below(&r, 9);
        int n = snprintf(text, sizeof text, "player at=1,1\nguard g at=%d,%d heading=%d view=%d fov=%d\ngrid\n", gx, gy,
                         heading, view, fov);
        for (int y = 0; y < 12; y++) n += snprintf(text + n, sizeof text - (size_t)n, "%s\n", rows[y]);
        snprintf(text + n, sizeof text - (size_t)n, "end\n");
        load_map(&m, text);
        pt_patlib_init(&lib);
        pt_entity_def d = m.ents[0];
        pt_entity_def_resolve(&d);
        pt_sightmap sm;
        pt_error err;
        int T = 50;
        ck_assert_int_eq(pt_sightmap_build(&sm, &m, &lib, seed, T, &err), PT_OK);
        int *counts = malloc(sizeof(int) * (size_t)(m.w * m.h));
        pt_sightmap_counts(&sm, counts);
        int cone = 0;
        for (int y = 0; y < m.h; y++)
            for (int x = 0; x < m.w; x++) {
                /* sight in the cone, or the close sense (docs/ai.md): within PERIPHERAL_DIST,
                 * in the open, nothing opaque between */
                double dx = x - gx, dy = y - gy;
                int close = hypot(dx, dy) <= PERIPHERAL_DIST && !pt_map_opaque(&m, x, y) &&
                            pt_los_clear(&m, gx, gy, x, y);
                int sees = pt_map_walkable(&m, x, y) &&
                           (close || pt_can_see(&m, gx + 0.5, gy + 0.5, pt_rad(d.heading_deg), d.view_dist,
                                                pt_rad(d.view_angle_deg), x + 0.5, y + 0.5));
                cone += sees;
                ck_assert_msg(counts[y * m.w + x] == (sees ? T : 0), "cell %d,%d: %d of %d ticks, cone %d", x, y,
                              counts[y * m.w + x], T, sees);
            }
        ck_assert_int_gt(cone, 0);
        free(counts);
        pt_sightmap_fini(&sm);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

/* A start on a goal tile: the goal on tick 1, no step (first_move_tick -1), no window, and
 * the route replays; a guard that sees the start on tick 1 leaves no route at all. */
START_TEST(test_start_on_the_goal) {
    static const char *text[2] = {
        "player at=1,1\nguard g at=6,1 heading=0 view=3 fov=90\ngrid\n########\n#E.....#\n########\nend\n",
        "player at=1,1\nguard g at=6,1 heading=180 view=8 fov=90\ngrid\n########\n#E.....#\n########\nend\n",
    };
    for (int k = 0; k < 2; k++) {
        pt_map m;
        load_map(&m, text[k]);
        pt_patlib lib;
        pt_patlib_init(&lib);
        for (int gait = 0; gait <= PT_GAIT_COUNT; gait++) {
            pt_solve_opts o = {0};
            o.window = 1;
            o.gait = gait;
            pt_solve_result r;
            pt_error err;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
            ck_assert_int_eq(r.found, k == 0);
            if (k == 0) {
                ck_assert_int_eq(r.ticks, 1);
                ck_assert_int_eq(r.first_move_tick, -1);
                ck_assert_int_eq(r.window_ticks, 0);
                replay(&m, &lib, 1, &r);
            }
            pt_solve_result_fini(&r);
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

/* Fractional margins: a route kept more than 1.5 tiles off the seen cells is at least 2
 * tiles off them; a wider margin never arrives earlier, and 1.5 differs from both 1 and 2
 * on some generated level. */
START_TEST(test_fractional_margin) {
    static const double margins[] = {1.0, 1.5, 2.0};
    int differs = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pt_map m;
        pt_patlib lib;
        gen_level(&m, &lib, seed);
        int ticks[3];
        for (int i = 0; i < 3; i++) {
            pt_solve_opts o = {0};
            o.seed = seed;
            o.margin = margins[i];
            o.max_ticks = 1200;
            pt_solve_result r;
            pt_error err;
            ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
            ticks[i] = r.found ? r.ticks : 1201;
            if (r.found) {
                ck_assert(r.margin_tiles < 0.0 || r.margin_tiles > margins[i]);
                if (i == 1) replay(&m, &lib, seed, &r);
            }
            pt_solve_result_fini(&r);
        }
        ck_assert(ticks[0] <= ticks[1] && ticks[1] <= ticks[2]);
        differs += ticks[0] < ticks[1] || ticks[1] < ticks[2];
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(differs, 2);
}
END_TEST

/* The memory figure is docs/solve.md's formula: tables x B + S, B = ceil(cells / 64) x 8 x
 * T' bytes, tables = 3 + gaits searched + 1 (seeds > 1) + 1 (margin) + 1 (margin in time),
 * S = ceil((T + 1) x cells x 8 x K / 64) x 8, with the window 2 S + (T + 2) x (8 K + 1). */
static size_t doc_bytes(const pt_map *m, const pt_solve_opts *o, int gaits, int K) {
    size_t cells = (size_t)m->w * (size_t)m->h, T = (size_t)(o->max_ticks ? o->max_ticks : 3600);
    size_t Tp = T + (size_t)(o->margin_ticks > 1 ? o->margin_ticks - 1 : 0);
    size_t B = (cells + 63) / 64 * 8 * Tp;
    size_t tables = 3 + (size_t)gaits + (o->nseeds > 1) + (o->margin > 0.0) + (o->margin_ticks > 1);
    size_t S = ((T + 1) * cells * 8 * (size_t)K + 63) / 64 * 8;
    return tables * B + (o->window ? 2 * S + (T + 2) * (8 * (size_t)K + 1) : S);
}

START_TEST(test_memory_is_the_formula) {
    /* The demo at 6 tiles/s: K = 2 walking, 5 running (the most of the three). */
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, PATROL_SOURCE_DIR "/maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++)
        ck_assert_msg(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK, "%s", err.message);
    pt_solve_opts o = {0};
    o.gait = 1 + PT_GAIT_WALK;
    o.max_ticks = 900;
    pt_solve_result r;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    ck_assert_int_eq(r.classes, 2);
    ck_assert_uint_eq(r.bytes, doc_bytes(&m, &o, 1, 2));
    pt_solve_result_fini(&r);
    o.gait = 0;
    o.max_ticks = 3600;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    ck_assert_int_eq(r.classes, 5);
    ck_assert_uint_eq(r.bytes, doc_bytes(&m, &o, 3, 5));
    ck_assert_uint_eq(r.bytes, 6u * 1152000u + 46092800u); /* 50.5 MB, as docs/solve.md says */
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    /* Generated levels, every option that adds to it. */
    for (uint64_t seed = 1; seed <= 8; seed++) {
        gen_level(&m, &lib, seed);
        pt_solve_opts q = {0};
        q.seed = seed;
        q.max_ticks = 300 + 100 * (int)seed;
        q.window = (int)(seed & 1);
        q.nseeds = seed % 3 == 0 ? 2 : 1;
        q.margin = seed % 4 == 1 ? 1.5 : 0.0;
        q.margin_ticks = seed % 4 == 2 ? 30 : 0;
        q.gait = (int)(seed % 4);
        ck_assert_int_eq(pt_solve(&m, &lib, &q, &r, &err), PT_OK);
        ck_assert_uint_eq(r.bytes, doc_bytes(&m, &q, q.gait ? 1 : 3, r.classes));
        pt_solve_result_fini(&r);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

START_TEST(test_bad_options) {
    pt_map m;
    two_ways_map(&m, 0, 0);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_opts o = {0};
    pt_solve_result r;
    pt_error err;
    o.max_ticks = -1;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_USAGE);
    pt_solve_result_fini(&r);
    o.max_ticks = 0;
    o.gait = PT_GAIT_COUNT + 1;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_USAGE);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    /* No goal tile. */
    load_map(&m, "player at=1,1\ngrid\n#####\n#...#\n#####\nend\n");
    o.gait = 0;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_MISSING);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    /* A guard naming a pattern that is not there. */
    load_map(&m, "player at=1,1\nguard g at=2,1 pattern=nope\ngrid\n#####\n#...E\n#####\nend\n");
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_ERR_UNKNOWN_PATTERN);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* Why no route (r.why): seen on the start, inside the margin there, a walled-in goal (known
 * before any table or search), the horizon. */
START_TEST(test_no_route_why) {
    static const struct { const char *map; double margin; int ticks, why; } cases[] = {
        {"player at=1,1\nguard g at=7,1 heading=180 view=12 fov=90\ngrid\n#########\n#.......E\n#########\nend\n", 0, 0,
         PT_SOLVE_WHY_SEEN_AT_START},
        {"player at=1,1\nguard g at=5,1 heading=180 view=3.5 fov=90\ngrid\n#########\n#.......E\n#########\nend\n", 1.5,
         0, PT_SOLVE_WHY_MARGIN_AT_START},
        {"player at=1,1\ngrid\n#########\n#.....#E#\n#########\nend\n", 0, PT_SOLVE_MAX_TICKS, PT_SOLVE_WHY_UNREACHABLE},
        {"player at=1,1\ngrid\n#####\n#.#.#\n##.##\n#E###\n#####\nend\n", 0, 0, PT_SOLVE_WHY_UNREACHABLE},
        {"player at=1,1\ngrid\n#########\n#.......E\n#########\nend\n", 0, 6, PT_SOLVE_WHY_HORIZON},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_map m;
        load_map(&m, cases[i].map);
        pt_patlib lib;
        pt_patlib_init(&lib);
        pt_solve_opts o = {0};
        o.max_ticks = cases[i].ticks;
        o.margin = cases[i].margin;
        o.window = 1;
        pt_solve_result r;
        pt_error err;
        ck_assert_msg(pt_solve(&m, &lib, &o, &r, &err) == PT_OK, "case %zu: %s", i, err.message);
        ck_assert_msg(!r.found && r.why == cases[i].why, "case %zu: found %d why %d", i, r.found, r.why);
        if (r.why == PT_SOLVE_WHY_UNREACHABLE) ck_assert(r.nodes == 0 && r.bytes == 0);
        pt_solve_result_fini(&r);
        if (cases[i].why != PT_SOLVE_WHY_UNREACHABLE) { /* a route without the obstacle: why is none */
            o.margin = 0;
            o.max_ticks = 0;
            pt_map_fini(&m);
            load_map(&m, "player at=1,1\ngrid\n#########\n#.......E\n#########\nend\n");
            ck_assert(pt_solve(&m, &lib, &o, &r, &err) == PT_OK && r.found);
            ck_assert_int_eq(r.why, PT_SOLVE_WHY_NONE);
            pt_solve_result_fini(&r);
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
}
END_TEST

typedef struct stages { char seen[16][48]; int n, order_ok, sight_after_search; double last_sight; } stages;

static void note_stage(void *user, const char *stage, double done) {
    stages *st = user;
    ck_assert(done >= 0.0 && done <= 1.0);
    if (strcmp(stage, "sight") == 0) {
        if (st->n > 0 && strcmp(st->seen[st->n - 1], "sight") != 0) st->sight_after_search = 1;
        if (done < st->last_sight) st->order_ok = 0;
        st->last_sight = done;
    }
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->seen[i], stage) == 0) return;
    ck_assert_int_lt(st->n, 16);
    snprintf(st->seen[st->n++], sizeof st->seen[0], "%s", stage);
}

static int saw(const stages *st, const char *stage) {
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->seen[i], stage) == 0) return 1;
    return 0;
}

/* The progress stages name the phase: the sight table first (its ticks), then each gait's
 * search and its pass ("walk, earliest", "<gait>, route" or "<gait>, start window"). */
START_TEST(test_progress_stages) {
    char text[2048];
    int n = snprintf(text, sizeof text, "player at=1,1\ngrid\n");
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 64; x++) text[n++] = y == 1 && x > 0 && x < 63 ? (x == 62 ? 'E' : '.') : '#';
        text[n++] = '\n';
    }
    snprintf(text + n, sizeof text - (size_t)n, "end\n");
    pt_map m;
    load_map(&m, text);
    pt_patlib lib;
    pt_patlib_init(&lib);
    for (int window = 0; window <= 1; window++) {
        stages st;
        memset(&st, 0, sizeof st);
        st.order_ok = 1;
        pt_solve_opts o = {0};
        o.window = window;
        o.progress = note_stage;
        o.progress_user = &st;
        pt_solve_result r;
        pt_error err;
        ck_assert(pt_solve(&m, &lib, &o, &r, &err) == PT_OK && r.found);
        ck_assert(st.n > 0 && strcmp(st.seen[0], "sight") == 0); /* the sight table comes first */
        ck_assert(st.order_ok && !st.sight_after_search);
        ck_assert(!saw(&st, "search"));
        ck_assert(saw(&st, "walk, earliest"));
        char want[48];
        snprintf(want, sizeof want, "%s, %s", pt_gait_name((pt_gait)r.gait), window ? "start window" : "route");
        ck_assert_msg(saw(&st, want), "%s not among %d stages, the last %s", want, st.n, st.seen[st.n - 1]);
        for (int g = 0; window && g < PT_GAIT_COUNT; g++) { /* every gait's pass to the horizon */
            snprintf(want, sizeof want, "%s, start window", pt_gait_name((pt_gait)g));
            ck_assert_msg(saw(&st, want), "%s", want);
        }
        pt_solve_result_fini(&r);
    }
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("solve");
    /* One case per test: each has its own time limit. The cases tagged "slow" (5 to 50 s in a
     * release build, ten times that at -O0 under the sanitizers) run in the release build;
     * the sanitizer build leaves them out (CK_EXCLUDE_TAGS=slow, tests/CMakeLists.txt) and
     * keeps the others, which go through the same solver code on smaller searches. */
    const struct { const char *name; const TTest *test; int slow; } tests[] = {
        {"one_way", test_one_way, 0},
        {"no_way", test_no_way, 0},
        {"many_ways", test_many_ways, 0},
        {"waits_for_the_guard", test_waits_for_the_guard, 0},
        {"generated_routes_replay", test_generated_routes_replay, 1},
        {"seeds_together", test_seeds_together, 1},
        {"seeds_fallback_is_seed_alone", test_seeds_fallback_is_seed_alone, 1},
        {"longer_horizon_never_slower", test_longer_horizon_never_slower, 1},
        {"gait_left_out_is_named", test_gait_left_out_is_named, 0},
        {"margin", test_margin, 1},
        {"exit_on_the_edge", test_exit_on_the_edge, 1},
        {"margin_ticks", test_margin_ticks, 1},
        {"only_sneaking_gets_by", test_only_sneaking_gets_by, 0},
        {"heard_whatever_the_gait", test_heard_whatever_the_gait, 0},
        {"generated_heard_routes_replay", test_generated_heard_routes_replay, 0},
        {"start_window", test_start_window, 1},
        {"window_every_gait", test_window_every_gait, 1},
        {"fixed_guard_heatmap_is_its_cone", test_fixed_guard_heatmap_is_its_cone, 0},
        {"bad_options", test_bad_options, 0},
        {"start_on_the_goal", test_start_on_the_goal, 0},
        {"fractional_margin", test_fractional_margin, 1},
        {"memory_is_the_formula", test_memory_is_the_formula, 1},
        {"no_route_why", test_no_route_why, 0},
        {"progress_stages", test_progress_stages, 0},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        TCase *tc = tcase_create(tests[i].name);
        if (tests[i].slow) tcase_set_tags(tc, "slow");
        tcase_set_timeout(tc, 900);
        tcase_add_test(tc, tests[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void) { return tu_run(suite()); }
