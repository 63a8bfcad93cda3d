/* SPDX-License-Identifier: Zlib */
/* Searching together (docs/ai.md, "Searching"): on generated maps of rooms and corridors,
 * three guards that search together cover the documented share of the area within the
 * evasion countdown, faster than three guards each searching alone (both figures printed);
 * the searched cells lie in the area, only grow, and the shares name searching guards; no
 * guard ever stands on a non-walkable tile; the same seed gives the same search; a lone slow
 * guard is stopped by the countdown; bad starts change nothing; guards told of the place by
 * a call join the search. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/path.h>
#include <patrol/search.h>
#include <patrol/world.h>

#include "guards/tuning.h"
#include "test_util.h"

enum { SIZE = 40, ROOM = 8, GUARDS = 3, SEEDS = 40 };

/* Rooms of 7x7 with a door in each wall, some pillars, and every third row of rooms walled
 * in but for a corridor two tiles wide and the doorways north and south. */
static void rooms_map(pt_map *m, uint64_t seed) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, SIZE, SIZE, &err), PT_OK);
    pt_rng r;
    pt_rng_seed(&r, seed, 91);
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            int wall = x % ROOM == 0 || y % ROOM == 0 || x == SIZE - 1 || y == SIZE - 1;
            if (!wall && (y / ROOM) % 3 == 2) wall = !(y % ROOM == 3 || y % ROOM == 4 || x % ROOM == ROOM / 2);
            if (!wall && pt_rng_unit(&r) < 0.04) wall = 1;
            pt_map_set(m, x, y, wall ? '#' : '.');
        }
    for (int y = 0; y + ROOM < SIZE; y += ROOM)
        for (int x = 0; x + ROOM < SIZE; x += ROOM) {
            if (y > 0) pt_map_set(m, x + ROOM / 2, y, '+');
            if (x > 0) pt_map_set(m, x, y + ROOM / 2, '+');
        }
}

typedef struct scene {
    pt_map map;
    int ox, oy;
} scene;

/* The map, the last known position near the middle, three guards within 2 tiles of it (they
 * chased together) or, converged, all on it, facing anywhere, and the player far away in a
 * corner. */
static void make_scene_at(scene *s, uint64_t seed, double speed, int converge) {
    rooms_map(&s->map, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 92);
    do {
        s->ox = SIZE / 2 - 5 + (int)pt_rng_below(&r, 10);
        s->oy = SIZE / 2 - 5 + (int)pt_rng_below(&r, 10);
    } while (!pt_map_walkable(&s->map, s->ox, s->oy));
    s->map.ents = calloc(GUARDS, sizeof *s->map.ents);
    ck_assert_ptr_nonnull(s->map.ents);
    for (int i = 0; i < GUARDS; i++) {
        pt_entity_def *d = &s->map.ents[i];
        int x, y;
        do {
            x = s->ox - 2 + (int)pt_rng_below(&r, 5);
            y = s->oy - 2 + (int)pt_rng_below(&r, 5);
        } while (!pt_map_walkable(&s->map, x, y) || !pt_los_clear(&s->map, s->ox, s->oy, x, y));
        if (converge) x = s->ox, y = s->oy;
        snprintf(d->name, sizeof d->name, "g%d", i + 1);
        d->kind = PT_KIND_GUARD;
        d->x = x;
        d->y = y;
        d->heading_deg = 90.0 * (double)pt_rng_below(&r, 4);
        d->speed = speed;
        d->line = 1;
    }
    s->map.nents = GUARDS;
    s->map.player.x = 1;
    s->map.player.y = s->oy < SIZE / 2 ? SIZE - 2 : 1;
    ck_assert(pt_map_walkable(&s->map, s->map.player.x, s->map.player.y));
}

static void make_scene(scene *s, uint64_t seed, double speed) { make_scene_at(s, seed, speed, 0); }

typedef struct outcome {
    int cells, seen, covered;
    double seconds;  /* until covered or the search ended */
    uint64_t hash;   /* of the guards' cells and the searched cells, tick by tick */
} outcome;

/* Runs one search of the scene (together, or each alone) to its end, checking the
 * invariants on every tick. */
static outcome run_search(const scene *s, uint64_t seed, int alone, int nguards) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(&s->map, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    static const int ids[GUARDS] = {1, 2, 3};
    ck_assert_int_eq(pt_world_search_start(w, s->ox, s->oy, ids, nguards, alone), PT_OK);
    outcome o = {0};
    o.hash = 1469598103934665603ull;
    int last_seen = 0;
    static unsigned char was[2 * 441];
    memset(was, 0, sizeof was);
    pt_search_info si;
    for (int t = 0; t < 60 * 60; t++) {
        pt_world_step(w);
        for (int i = 1; i <= GUARDS; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            ck_assert_msg(pt_map_walkable(&s->map, e->x, e->y), "seed %llu: g%d on %d,%d", (unsigned long long)seed, i, e->x, e->y);
            ck_assert_msg(e->state != PT_STATE_CHASE, "seed %llu: the player was seen", (unsigned long long)seed);
            o.hash = (o.hash ^ (uint64_t)(e->x * 131 + e->y)) * 1099511628211ull;
        }
        int on = pt_world_search(w, &si);
        ck_assert_int_le(si.ncells, 441);
        /* Every cell of the area is in reach here: a guard in the search state is one of its
         * searchers, alone or together (one whose own sweep is done goes back at once). */
        if (on) {
            int in_search = 0;
            for (int i = 1; i <= nguards; i++) in_search += pt_world_entity(w, i)->state == PT_STATE_SEARCH;
            ck_assert_msg(in_search == si.nguards, "seed %llu tick %d (%s): %d guards in search, %d searching",
                          (unsigned long long)seed, t + 1, alone ? "alone" : "together", in_search, si.nguards);
        }
        ck_assert_int_ge(si.nsearched, last_seen); /* searched cells only grow */
        last_seen = si.nsearched;
        int count = 0;
        for (int k = 0; k < si.ncells; k++) {
            count += si.searched[k];
            ck_assert(!was[k] || si.searched[k]);
            was[k] = si.searched[k];
            if (si.searched[k]) o.hash = (o.hash ^ (uint64_t)k) * 1099511628211ull;
            if (si.owner[k] >= 0) { /* a share names a searching guard */
                ck_assert(!alone && si.owner[k] >= 1 && si.owner[k] <= nguards);
            }
        }
        ck_assert_int_eq(count, si.nsearched);
        o.cells = si.ncells;
        o.seen = si.nsearched;
        o.seconds = (t + 1) * pt_world_dt(w);
        if (!on || si.nsearched >= si.ncells) {
            o.covered = si.nsearched >= si.ncells;
            break;
        }
    }
    /* the area: within SEARCH_RADIUS tiles of walking of the origin, all of it */
    pt_pathfinder *pf = pt_pathfinder_create(&s->map);
    static pt_path_reach reach[SIZE * SIZE];
    pt_cell at = {s->ox, s->oy};
    int n = pt_path_flood(pf, &at, 1, (int)lround(SEARCH_RADIUS * 10), NULL, 0, reach, SIZE * SIZE);
    ck_assert_int_eq(n, si.ncells);
    for (int k = 0; k < si.ncells; k++) ck_assert(si.cells[k].x == reach[k].x && si.cells[k].y == reach[k].y);
    pt_pathfinder_destroy(pf);
    pt_world_destroy(w);
    return o;
}

/* The documented share (docs/ai.md): three guards together search at least 95% of the area
 * before the evasion countdown runs out, on every seed; and they see more cells per
 * guard-second than three guards each alone (the figures are printed; `patrol bench search`
 * measures the goal on more maps). */
START_TEST(test_together_covers_the_share) {
    double seen[2] = {0}, guard_s[2] = {0}, cells[2] = {0}, worst = 1.0;
    int covered[2] = {0};
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        scene s;
        make_scene(&s, seed, 0.0);
        for (int alone = 0; alone < 2; alone++) {
            outcome o = run_search(&s, seed, alone, GUARDS);
            ck_assert_int_gt(o.cells, 30);
            seen[alone] += o.seen;
            cells[alone] += o.cells;
            guard_s[alone] += GUARDS * o.seconds;
            covered[alone] += o.covered;
            if (!alone) {
                double share = (double)o.seen / o.cells;
                if (share < worst) worst = share;
                ck_assert_msg(share >= 0.95, "seed %llu: %.2f of the area searched in %.1f s", (unsigned long long)seed, share,
                              o.seconds);
                ck_assert(o.seconds <= EVASION_S + 0.1);
            }
        }
        pt_map_fini(&s.map);
    }
    double joint = seen[0] / guard_s[0], solo = seen[1] / guard_s[1];
    printf("search: together %.2f cells per guard-second (%d/%d covered, %.2f of the cells, worst %.2f), "
           "alone %.2f (%d/%d covered, %.2f of the cells): %.2fx\n",
           joint, covered[0], SEEDS, seen[0] / cells[0], worst, solo, covered[1], SEEDS, seen[1] / cells[1], joint / solo);
    ck_assert_msg(joint > 1.5 * solo, "together %.2f, alone %.2f", joint, solo);
}
END_TEST

/* Guards that converged on the last known position (all three on its cell, as chasers that
 * reach it together) still fan out: from the first tick each has a share of its own, and
 * together they see more cells per guard-second than each alone, as guards that start apart
 * do (the documented share and the figure of `patrol bench search`). */
START_TEST(test_converged_fan_out) {
    double seen[2] = {0}, guard_s[2] = {0}, worst = 1.0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        scene s;
        make_scene_at(&s, seed, 0.0, 1);
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_error err;
        pt_world *w = pt_world_create(&s.map, NULL, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        static const int ids[GUARDS] = {1, 2, 3};
        ck_assert_int_eq(pt_world_search_start(w, s.ox, s.oy, ids, GUARDS, 0), PT_OK);
        pt_world_step(w);
        pt_search_info si;
        ck_assert_int_eq(pt_world_search(w, &si), 1);
        int share[GUARDS + 1] = {0};
        for (int k = 0; k < si.ncells; k++)
            if (si.owner[k] >= 1 && si.owner[k] <= GUARDS) share[si.owner[k]]++;
        for (int g = 1; g <= GUARDS; g++)
            ck_assert_msg(share[g] > 0, "seed %llu: g%d has %d of %d cells", (unsigned long long)seed, g, share[g],
                          si.ncells);
        pt_world_destroy(w);
        for (int alone = 0; alone < 2; alone++) {
            outcome o = run_search(&s, seed, alone, GUARDS);
            seen[alone] += o.seen;
            guard_s[alone] += GUARDS * o.seconds;
            if (!alone) {
                double got = (double)o.seen / o.cells;
                if (got < worst) worst = got;
                ck_assert_msg(got >= 0.95, "seed %llu: %.2f of the area searched in %.1f s", (unsigned long long)seed, got,
                              o.seconds);
            }
        }
        pt_map_fini(&s.map);
    }
    double joint = seen[0] / guard_s[0], solo = seen[1] / guard_s[1];
    printf("search, converged: together %.2f cells per guard-second (worst %.2f of the area), alone %.2f: %.2fx\n", joint,
           worst, solo, joint / solo);
    ck_assert_msg(joint > 1.5 * solo, "together %.2f, alone %.2f", joint, solo);
}
END_TEST

START_TEST(test_same_seed_same_search) {
    for (uint64_t seed = 1; seed <= 10; seed++) {
        scene s;
        make_scene(&s, seed, 0.0);
        outcome a = run_search(&s, seed, 0, GUARDS), b = run_search(&s, seed, 0, GUARDS);
        ck_assert(a.hash == b.hash);
        ck_assert_int_eq(a.seen, b.seen);
        pt_map_fini(&s.map);
        make_scene_at(&s, seed, 0.0, 1); /* converged */
        a = run_search(&s, seed, 0, GUARDS);
        b = run_search(&s, seed, 0, GUARDS);
        ck_assert(a.hash == b.hash);
        pt_map_fini(&s.map);
    }
}
END_TEST

/* One slow guard cannot cover the area: the search ends with the evasion countdown, and the
 * guard goes back (no pattern: it stands). */
START_TEST(test_countdown_ends_the_search) {
    for (uint64_t seed = 1; seed <= 8; seed++) {
        scene s;
        make_scene(&s, seed, 0.5);
        outcome o = run_search(&s, seed, 0, 1);
        ck_assert_int_eq(o.covered, 0);
        ck_assert_msg(fabs(o.seconds - EVASION_S) < 0.1, "seed %llu: ended after %.2f s", (unsigned long long)seed, o.seconds);
        pt_map_fini(&s.map);
    }
}
END_TEST

/* Bad starts: nothing changes. */
START_TEST(test_bad_start) {
    scene s;
    make_scene(&s, 3, 0.0);
    pt_world_desc d = {.seed = 3, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(&s.map, NULL, &d, &err);
    ck_assert_ptr_nonnull(w);
    pt_search_info si;
    ck_assert_int_eq(pt_world_search(w, &si), 0);
    ck_assert_int_eq(si.ncells, 0);
    int ids[2] = {1, 0}; /* 0 is the player */
    ck_assert_int_eq(pt_world_search_start(w, 0, 0, ids, 1, 0), PT_ERR_NOT_WALKABLE);
    ck_assert_int_eq(pt_world_search_start(w, -5, 99, ids, 1, 0), PT_ERR_NOT_WALKABLE);
    ck_assert_int_eq(pt_world_search_start(w, s.ox, s.oy, ids, 2, 0), PT_ERR_RANGE);
    ids[1] = 99;
    ck_assert_int_eq(pt_world_search_start(w, s.ox, s.oy, ids, 2, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_world_search(w, &si), 0);
    ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_IDLE);
    ck_assert_int_eq(pt_world_phase(w, NULL), PT_PHASE_NORMAL);
    /* a good start: the guard searches, the phase is evasion */
    ck_assert_int_eq(pt_world_search_start(w, s.ox, s.oy, ids, 1, 0), PT_OK);
    ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_SEARCH);
    ck_assert_int_eq(pt_world_phase(w, NULL), PT_PHASE_EVASION);
    ck_assert_int_eq(pt_world_search(w, &si), 1);
    ck_assert_int_eq(si.nguards, 1);
    ck_assert(si.origin.x == s.ox && si.origin.y == s.oy);
    pt_world_destroy(w);
    pt_map_fini(&s.map);
}
END_TEST

/* A caller sees the player, its call tells the others (one radio), and the player slips away
 * through a strip of bushes: when the caller loses the player, the told guards still on their
 * way to the place search the area with it. Over seeds: where the told guards stand. */
START_TEST(test_told_guards_join) {
    int joined = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 93);
        char text[4096];
        size_t n = (size_t)snprintf(text, sizeof text,
                                    "player at=12,7\n"
                                    "guard caller at=5,7 heading=0 fov=90 view=10 aware_rate=4 radio=blue hearing=256\n");
        for (int g = 0; g < 3; g++) {
            int x = 2 + (int)pt_rng_below(&r, 26), y = g == 1 ? 13 : 1 + (int)pt_rng_below(&r, 3);
            n += (size_t)snprintf(text + n, sizeof text - n, "guard t%d at=%d,%d heading=-90 fov=1 radio=blue hearing=256\n",
                                  g, x, y);
        }
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "grid\n"
                              "##############################\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............*************...#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "#............................#\n"
                              "##############################\n"
                              "end\n");
        pt_map m;
        pt_error err;
        ck_assert_msg(pt_map_parse(&m, text, n, "told.map", &err) == PT_OK, "%s", err.message);
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        int spotted = 0, lost = 0;
        for (int t = 0; t < 60 * 20 && !lost; t++) {
            pt_world_set_input(w, spotted ? 1 : 0, 0); /* once seen: east through the bushes */
            pt_world_step(w);
            int ne;
            const pt_event *ev = pt_world_events(w, &ne);
            for (int k = 0; k < ne; k++) {
                spotted |= ev[k].kind == PT_EVENT_SPOTTED;
                lost |= ev[k].kind == PT_EVENT_LOST;
                ck_assert(ev[k].kind != PT_EVENT_CAUGHT);
            }
        }
        ck_assert_msg(spotted && lost, "seed %llu: spotted %d lost %d", (unsigned long long)seed, spotted, lost);
        pt_world_step(w); /* the caller steps the search: it starts */
        pt_search_info si;
        ck_assert_int_eq(pt_world_search(w, &si), 1);
        int searching = 0;
        for (int i = 1; i <= 4; i++) searching += pt_world_entity(w, i)->state == PT_STATE_SEARCH;
        ck_assert_int_eq(si.nguards, searching);
        ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_SEARCH);
        for (int i = 2; i <= 4; i++) /* none left investigating the place */
            ck_assert_int_ne(pt_world_entity(w, i)->state, PT_STATE_INVESTIGATE);
        joined += searching - 1;
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(joined, 12 * 3 / 2); /* most told guards are still on their way */
}
END_TEST

/* Generated maps with places no guard can walk from: open floor with scattered walls, and
 * islands (one floor cell ringed by water, which blocks walking, not sight) with a guard on
 * each that sees all round. The player starts beside the first island and runs away, then
 * wanders. The island guards chase without moving, lose the player, and can reach none of the
 * search area. Whatever a guard does after that, a chase starts only on a tick its sight check
 * saw the player (docs/ai.md, "States"). */
enum { ISL_W = 34, ISL_H = 16, ISLANDS = 3 };

/* The player beside the first island, or (hidden) walled in a corner: seen by no guard. */
static int island_map(char *text, size_t cap, uint64_t seed, int continuous, int hidden, int *isl_x, int *isl_y) {
    pt_rng r;
    pt_rng_seed(&r, seed, 94);
    char g[ISL_H][ISL_W + 1];
    for (int y = 0; y < ISL_H; y++) {
        for (int x = 0; x < ISL_W; x++) {
            int edge = x == 0 || y == 0 || x == ISL_W - 1 || y == ISL_H - 1;
            g[y][x] = edge || pt_rng_unit(&r) < 0.04 ? '#' : '.';
        }
        g[y][ISL_W] = '\0';
    }
    for (int i = 0; i < ISLANDS; i++) {
        int x, y, clash;
        do { /* islands 3 tiles apart at least, the first with room east or west of it */
            x = 3 + (int)pt_rng_below(&r, ISL_W - 6);
            y = 3 + (int)pt_rng_below(&r, ISL_H - 6);
            clash = 0;
            for (int j = 0; j < i; j++) clash |= abs(x - isl_x[j]) < 4 && abs(y - isl_y[j]) < 4;
        } while (clash || (i == 0 && x > 8 && x < ISL_W - 9));
        isl_x[i] = x;
        isl_y[i] = y;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) g[y + dy][x + dx] = dx || dy ? '~' : '.';
    }
    int px = isl_x[0] + (isl_x[0] <= 8 ? 3 : -3), py = isl_y[0];
    if (hidden) {
        px = py = 1;
        g[1][2] = g[2][1] = g[2][2] = '#';
    }
    g[py][px] = '.';
    size_t n = (size_t)snprintf(text, cap, "player at=%d,%d\n", px, py);
    for (int i = 0; i < ISLANDS; i++)
        n += (size_t)snprintf(text + n, cap - n, "guard i%d at=%d,%d fov=360 view=%d aware_rate=100%s\n", i, isl_x[i],
                              isl_y[i], 4 + (int)pt_rng_below(&r, 3), continuous ? " chase=steer" : "");
    for (int i = 0; i < 2; i++) { /* and two on the mainland */
        int x, y;
        do {
            x = 1 + (int)pt_rng_below(&r, ISL_W - 2);
            y = 1 + (int)pt_rng_below(&r, ISL_H - 2);
        } while (g[y][x] != '.' || (abs(x - px) < 8 && abs(y - py) < 8));
        n += (size_t)snprintf(text + n, cap - n, "guard m%d at=%d,%d%s\n", i, x, y, continuous ? " chase=steer" : "");
    }
    n += (size_t)snprintf(text + n, cap - n, "grid\n");
    for (int y = 0; y < ISL_H; y++) n += (size_t)snprintf(text + n, cap - n, "%s\n", g[y]);
    n += (size_t)snprintf(text + n, cap - n, "end\n");
    return (int)n;
}

START_TEST(test_chase_from_sight_only) {
    int island_searches = 0, island_looks = 0, chases = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        for (int continuous = 0; continuous < 2; continuous++) {
            char text[8192];
            int isl_x[ISLANDS], isl_y[ISLANDS];
            int n = island_map(text, sizeof text, seed, continuous, 0, isl_x, isl_y);
            pt_map m;
            pt_error err;
            ck_assert_msg(pt_map_parse(&m, text, (size_t)n, "islands.map", &err) == PT_OK, "%s", err.message);
            pt_world_desc d = {.seed = seed, .player_controlled = 1};
            pt_world *w = pt_world_create(&m, NULL, &d, &err);
            ck_assert_msg(w != NULL, "%s", err.message);
            const int nguards = ISLANDS + 2, away = isl_x[0] <= 8 ? 1 : -1;
            pt_state was[ISLANDS + 3];
            int since[ISLANDS + 3] = {0}, from_chase[ISLANDS + 3] = {0};
            for (int i = 1; i <= nguards; i++) was[i] = pt_world_entity(w, i)->state;
            const int look = (int)lround(SEARCH_LOOK_S / pt_world_dt(w));
            pt_rng r;
            pt_rng_seed(&r, seed, 95);
            int dx = away, dy = 0;
            for (int t = 0; t < 60 * 25; t++) {
                if (t >= 120 && t % 30 == 0) { /* away for 2 s, then wander */
                    dx = (int)pt_rng_below(&r, 3) - 1;
                    dy = (int)pt_rng_below(&r, 3) - 1;
                }
                pt_world_set_input(w, dx, dy);
                pt_world_step(w);
                int ne;
                const pt_event *ev = pt_world_events(w, &ne);
                for (int k = 0; k < ne; k++) /* told while searching: it searches on from the new place */
                    if (ev[k].kind == PT_EVENT_CALLED && ev[k].b <= (uint32_t)ISLANDS) since[ev[k].b] = t;
                for (int i = 1; i <= nguards; i++) {
                    const pt_entity *e = pt_world_entity(w, i);
                    if (e->state == PT_STATE_CHASE && was[i] != PT_STATE_CHASE) {
                        chases++;
                        ck_assert_msg(e->sees_player, "seed %llu%s tick %d: %s chases, the player out of its sight",
                                      (unsigned long long)seed, continuous ? " (steer)" : "", t, e->def->name);
                    }
                    if (i <= ISLANDS && e->state == PT_STATE_SEARCH && was[i] != PT_STATE_SEARCH) island_searches++;
                    /* It can reach none of the area: it looks around from where it stands for
                     * SEARCH_LOOK_S from its first tick in search, the tick after it lost the
                     * player, and returns. */
                    if (i <= ISLANDS && e->state == PT_STATE_RETURN && was[i] == PT_STATE_SEARCH && from_chase[i]) {
                        island_looks++;
                        ck_assert_msg(t - since[i] == 1 + look, "seed %llu%s tick %d: %s returned %d ticks after it lost the player",
                                      (unsigned long long)seed, continuous ? " (steer)" : "", t, e->def->name, t - since[i]);
                        ck_assert(e->x == isl_x[i - 1] && e->y == isl_y[i - 1]);
                    }
                    if (e->state != was[i]) {
                        since[i] = t;
                        from_chase[i] = was[i] == PT_STATE_CHASE;
                    }
                    was[i] = e->state;
                }
            }
            pt_world_destroy(w);
            pt_map_fini(&m);
        }
    }
    ck_assert_int_ge(island_searches, 30); /* the case arose: island guards lost the player */
    ck_assert_int_ge(chases, island_searches);
    ck_assert_int_ge(island_looks, 25); /* and some searches ran out that way */
}
END_TEST

/* Steps until guard g leaves state st (at most `max` steps); returns the steps taken. */
static int steps_in(pt_world *w, int g, pt_state st, int max) {
    int n = 0;
    while (pt_world_entity(w, g)->state == st && n < max) {
        pt_world_step(w);
        n++;
    }
    return n;
}

/* A place a guard cannot walk to is looked at from where it stands, for as long as at the
 * place, counted from the tick it sets out (docs/ai.md, "What a guard does with it",
 * "Searching"): a noise across the water (an island guard hearing the mainland, a mainland guard
 * hearing an island) is looked at for INVESTIGATE_LOOK_S from the tick the guard goes to
 * investigate; a search whose area an island guard cannot reach, for SEARCH_LOOK_S after its
 * first tick in search. Then the guard returns. */
START_TEST(test_unreachable_look_time) {
    for (uint64_t seed = 1; seed <= 20; seed++) {
        char text[8192];
        int isl_x[ISLANDS], isl_y[ISLANDS];
        int n = island_map(text, sizeof text, seed, 0, 1, isl_x, isl_y);
        pt_map m;
        pt_error err;
        ck_assert_msg(pt_map_parse(&m, text, (size_t)n, "islands.map", &err) == PT_OK, "%s", err.message);
        for (int g = 1; g <= ISLANDS + 2; g++) {
            pt_world_desc d = {.seed = seed, .player_controlled = 1};
            pt_world *w = pt_world_create(&m, NULL, &d, &err);
            ck_assert_msg(w != NULL, "%s", err.message);
            const pt_entity *e = pt_world_entity(w, g);
            const double dt = pt_world_dt(w);
            /* across the water: beside an island (for its guard), or on one (for the others) */
            int k = g <= ISLANDS ? g - 1 : (int)(seed % ISLANDS), x = isl_x[k], y = isl_y[k];
            if (g <= ISLANDS) {
                static const int dx[4] = {2, -2, 0, 0}, dy[4] = {0, 0, 2, -2};
                int j = 0;
                while (j < 4 && !pt_map_walkable(&m, x + dx[j], y + dy[j])) j++;
                if (j == 4) { pt_world_destroy(w); continue; }
                x += dx[j];
                y += dy[j];
            }
            pt_world_noise(w, x, y, 30.0);
            int before = steps_in(w, g, PT_STATE_IDLE, 10);
            ck_assert_msg(e->state == PT_STATE_INVESTIGATE, "seed %llu: %s did not hear", (unsigned long long)seed, e->def->name);
            ck_assert_int_le(before, 2);
            int looked = steps_in(w, g, PT_STATE_INVESTIGATE, 600);
            ck_assert_msg(looked == (int)lround(INVESTIGATE_LOOK_S / dt), "seed %llu: %s looked %d ticks",
                          (unsigned long long)seed, e->def->name, looked);
            ck_assert_int_eq(e->state, PT_STATE_RETURN);
            if (g <= ISLANDS) { /* a search of the mainland, as after a chase */
                steps_in(w, g, PT_STATE_RETURN, 10);
                int from = (int)pt_world_tick(w);
                ck_assert_int_eq(pt_world_search_start(w, x, y, &g, 1, 0), PT_OK);
                looked = steps_in(w, g, PT_STATE_SEARCH, 600);
                ck_assert_msg(looked == 1 + (int)lround(SEARCH_LOOK_S / dt), "seed %llu: %s searched %d ticks from tick %d",
                              (unsigned long long)seed, e->def->name, looked, from);
                ck_assert_int_eq(e->state, PT_STATE_RETURN);
                ck_assert(e->x == isl_x[k] && e->y == isl_y[k]);
            }
            pt_world_destroy(w);
        }
        pt_map_fini(&m);
    }
}
END_TEST

static Suite *search_suite(void) {
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_together_covers_the_share);
    tcase_add_test(tc, test_converged_fan_out);
    tcase_add_test(tc, test_same_seed_same_search);
    tcase_add_test(tc, test_countdown_ends_the_search);
    tcase_add_test(tc, test_bad_start);
    tcase_add_test(tc, test_told_guards_join);
    tcase_add_test(tc, test_chase_from_sight_only);
    tcase_add_test(tc, test_unreachable_look_time);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(search_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
