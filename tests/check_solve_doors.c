/* SPDX-License-Identifier: Zlib */
/* The solver and the heatmaps with doors (docs/solve.md, "Doors"): a route through a door
 * closed at the start (opened on the way, its noise priced), none through a locked one, the
 * door's noise near a listening guard, and the sight table as guards open doors. Every route
 * is replayed in the world tick by tick. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/hearing.h>
#include <patrol/solve.h>
#include <patrol/world.h>

#include "test_route.h"
#include "test_util.h"

/* Floor, exit and open door make no footsteps: what a guard may hear is the door's noise. */
static const char legend[] =
    "tile . floor walkable footstep=0\ntile E exit walkable goal footstep=0\ntile + door walkable footstep=0\n";

static void load_map(pt_map *m, const char *body) {
    static char text[8192];
    snprintf(text, sizeof text, "%s%s", legend, body);
    pt_error err;
    int rc = pt_map_parse(m, text, strlen(text), "doors.map", &err);
    ck_assert_msg(rc == PT_OK, "map: %d:%d %s\n%s", err.line, err.col, err.message, text);
}

static void load_pats(pt_patlib *lib, const char *text) {
    pt_error err;
    pt_patlib_init(lib);
    int rc = pt_patlib_parse(lib, text, strlen(text), "doors.pat", &err);
    ck_assert_msg(rc == PT_OK, "patterns: %d:%d %s", err.line, err.col, err.message);
}

static int solve(const pt_map *m, const pt_patlib *lib, pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.max_ticks = 1200;
    o.window = 1;
    pt_error err;
    int rc = pt_solve(m, lib, &o, r, &err);
    ck_assert_msg(rc == PT_OK, "solve: %s", err.message);
    return r->found;
}

static int through(const pt_solve_result *r, int x, int y) {
    for (int t = 0; t <= r->ticks; t++)
        if (r->cells[t].x == x && r->cells[t].y == y) return 1;
    return 0;
}

/* Plays the route's pattern in the world: on every tick the player is on the route's cell, no
 * guard sees it, is aware of it or hears anything, and the goal comes on the last tick. The
 * doors the player opened on the way: *opened. */
static void replay(const pt_map *m, const pt_patlib *lib, const pt_solve_result *r, int *opened) {
    pt_patlib plib;
    char *text = tu_route_pattern(r, &plib);
    pt_world *w = tu_route_world(m, lib, &plib, m->seed ? m->seed : 1);
    *opened = 0;
    for (int t = 1; t <= r->ticks; t++) {
        pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        ck_assert_msg(p->x == r->cells[t].x && p->y == r->cells[t].y, "tick %d: player at %d,%d, route %d,%d\n%s", t, p->x,
                      p->y, r->cells[t].x, r->cells[t].y, text);
        for (int i = 1; i < pt_world_count(w); i++) {
            const pt_entity *g = pt_world_entity(w, i);
            ck_assert_msg(!g->sees_player && g->awareness == 0.0, "tick %d: guard %d aware of the player at %d,%d\n%s", t,
                          i, p->x, p->y, text);
        }
        int n = 0, goal = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) {
            ck_assert_msg(ev[k].kind != PT_EVENT_HEARD, "tick %d: a guard heard %d,%d\n%s", t, ev[k].x, ev[k].y, text);
            *opened += ev[k].kind == PT_EVENT_DOOR && ev[k].a == 0 && ev[k].b == PT_DOOR_OPEN;
            goal |= ev[k].kind == PT_EVENT_GOAL;
        }
        ck_assert_int_eq(goal, t == r->ticks);
    }
    pt_world_destroy(w);
    pt_patlib_fini(&plib);
    free(text);
}

/* Two rooms and one door between them; a guard walks up and down the far room. */
static const char *ROOMS =
    "player at=1,4 speed=4\n"
    "door 6,4 %s\n"
    "guard g at=10,1 pattern=beat view=2.5 fov=360 speed=3\n"
    "grid\n"
    "###############\n"
    "#.....#.......#\n"
    "#.....#.......#\n"
    "#.....#.......#\n"
    "#.....+.......E\n"
    "#.....#.......#\n"
    "#.....#.......#\n"
    "#.....#.......#\n"
    "###############\n"
    "end\n";
static const char *BEAT = "pattern beat\n  kind path\n  points 10,1 10,7\nend\n";

static void rooms(pt_map *m, pt_patlib *lib, const char *state) {
    char text[1024];
    snprintf(text, sizeof text, ROOMS, state);
    load_map(m, text);
    load_pats(lib, BEAT);
}

/* The only way is a closed door: the route opens it on its way (a step, no pause) and
 * plays in the world unseen and unheard, the player opening the door once; the same map
 * with the door open takes no longer. A locked door: no route, known at once. */
START_TEST(test_through_closed_door) {
    pt_map m;
    pt_patlib lib;
    rooms(&m, &lib, "closed");
    pt_solve_result r;
    ck_assert(solve(&m, &lib, &r));
    ck_assert(through(&r, 6, 4));
    int opened;
    replay(&m, &lib, &r, &opened);
    ck_assert_int_eq(opened, 1);
    int closed_ticks = r.ticks;
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);

    rooms(&m, &lib, "open");
    ck_assert(solve(&m, &lib, &r));
    replay(&m, &lib, &r, &opened);
    ck_assert_int_eq(opened, 0);
    ck_assert_int_le(r.ticks, closed_ticks);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);

    rooms(&m, &lib, "locked");
    ck_assert(!solve(&m, &lib, &r));
    ck_assert_int_eq(r.why, PT_SOLVE_WHY_UNREACHABLE);
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* A short way through a closed door, 3 tiles below a guard that faces away in a dead end, and a
 * long way round. The guard hears the door open (a noise of 4) unless deaf: the route goes
 * round while it listens, through the door when it is deaf; with the long way walled up,
 * a listening guard leaves no route at all. */
static const char *SHORT_LONG =
    "player at=1,4 speed=4\n"
    "door 5,4 closed\n"
    "guard g at=5,1 heading=-90 view=2 fov=60 hearing=%s\n"
    "grid\n"
    "###########\n"
    "#####.#####\n"
    "#####.#####\n"
    "#####.#####\n"
    "#....+...E#\n"
    "#.#######.#\n"
    "#%c........#\n"
    "###########\n"
    "end\n";

static int short_long(const char *hearing, char gap, pt_solve_result *r) {
    char text[1024];
    snprintf(text, sizeof text, SHORT_LONG, hearing, gap);
    pt_map m;
    load_map(&m, text);
    pt_patlib lib;
    pt_patlib_init(&lib);
    int found = solve(&m, &lib, r);
    if (found) {
        int opened;
        replay(&m, &lib, r, &opened);
        ck_assert_int_eq(opened, through(r, 5, 4));
    }
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
    return found;
}

START_TEST(test_door_noise) {
    pt_solve_result r;
    ck_assert(short_long("50", '.', &r)); /* deaf: the short way */
    ck_assert(through(&r, 5, 4));
    int short_ticks = r.ticks;
    pt_solve_result_fini(&r);
    ck_assert(short_long("0.5", '.', &r)); /* listening: round */
    ck_assert(!through(&r, 5, 4));
    ck_assert_int_gt(r.ticks, short_ticks);
    pt_solve_result_fini(&r);
    ck_assert(!short_long("0.5", '#', &r)); /* the door or nothing */
    ck_assert_int_eq(r.why, PT_SOLVE_WHY_HORIZON);
    pt_solve_result_fini(&r);
    /* and the world agrees: a player walking the short way is heard at the door */
    char text[1024];
    snprintf(text, sizeof text, SHORT_LONG, "0.5", '#');
    pt_map m;
    load_map(&m, text);
    pt_patlib lib;
    load_pats(&lib, "pattern go\n  kind control\n  origin 1,4\n  heading 0\n  forward 8\n  at_end stop\nend\n");
    pt_world_desc d = {0};
    d.seed = 1;
    d.player_pattern = pt_patlib_find(&lib, "go");
    pt_error err;
    pt_world *w = pt_world_create(&m, NULL, &d, &err);
    ck_assert_ptr_nonnull(w);
    int heard = 0;
    for (int t = 1; t <= 200; t++) {
        pt_world_step(w);
        int n = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) heard += ev[k].kind == PT_EVENT_HEARD;
    }
    ck_assert_int_gt(heard, 0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* The sight table follows the doors: a guard stands looking down a corridor at a closed door
 * that another guard opens on its round (and closes behind it). The cell beyond the door is
 * seen on a tick of the run and not on tick 1, and on every tick the table says what the
 * world's guard sees: the far cell exactly while the door is open. */
START_TEST(test_sight_follows_doors) {
    pt_map m;
    load_map(&m,
             "player at=1,1\n"
             "door 6,3 closed closes\n"
             "guard watch at=2,3 heading=0 view=12 fov=40\n"
             "guard walker at=6,1 pattern=through speed=3\n"
             "grid\n"
             "############\n"
             "#..........#\n"
             "######.#####\n"
             "#.....+....#\n"
             "######.#####\n"
             "#..........#\n"
             "############\n"
             "end\n");
    pt_patlib lib;
    load_pats(&lib, "pattern through\n  kind path\n  points 6,1 6,5\nend\n");
    pt_sightmap sm;
    pt_error err;
    ck_assert_int_eq(pt_sightmap_build(&sm, &m, &lib, 1, 900, &err), PT_OK);
    ck_assert(!pt_sightmap_seen(&sm, 1, 9, 3));
    pt_world_desc d = {0};
    d.seed = 1;
    d.player_controlled = 1;
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    int seen = 0, open_ticks = 0;
    for (int t = 1; t <= 900; t++) {
        int before = pt_world_door(w, 6, 3) == PT_DOOR_OPEN;
        pt_world_step(w);
        int after = pt_world_door(w, 6, 3) == PT_DOOR_OPEN;
        seen += pt_sightmap_seen(&sm, t, 9, 3);
        open_ticks += after;
        if (before == after) /* the door did not change within the step: the far cell as the door */
            ck_assert_msg(pt_sightmap_seen(&sm, t, 9, 3) == after, "tick %d: door %s, far cell seen %d", t,
                          after ? "open" : "closed", pt_sightmap_seen(&sm, t, 9, 3));
    }
    ck_assert_int_gt(seen, 0);
    ck_assert_int_gt(open_ticks, 0);
    ck_assert_int_lt(open_ticks, 900);
    pt_world_destroy(w);
    pt_sightmap_fini(&sm);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A guard (ear) listens in the west room; a door lies between it and the floor east of it,
 * which a slow guard (walker, deaf) opens on its round and leaves open. A running footstep
 * behind the door (9,3 and 10,3) is heard through the open door, not through the closed
 * one; one before the door (4,3) always; one round the corner (10,4) never. */
static const char *BEHIND = "tile . floor walkable footstep=1\ntile E exit walkable goal footstep=1\n"
                            "player at=8,3 speed=4\n"
                            "door 6,3 closed\n"
                            "guard ear at=2,3 heading=180 view=1 fov=10 hearing=1.5\n"
                            "guard walker at=6,1 pattern=through speed=1 view=0.5 fov=10 hearing=50\n"
                            "grid\n"
                            "#############\n"
                            "######.######\n"
                            "######.######\n"
                            "#.....+.....#\n"
                            "######.###.##\n"
                            "######.###.E#\n"
                            "#############\n"
                            "end\n";

static void behind(pt_map *m, pt_patlib *lib) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, BEHIND, strlen(BEHIND), "behind.map", &err) == PT_OK, "%d:%d %s", err.line, err.col,
                  err.message);
    load_pats(lib, "pattern through\n  kind path\n  points 6,1 6,5\nend\n");
}

/* The hearing heatmap follows the door: on every tick of the run the footstep behind the
 * door counts exactly while the world has the door open (the guards standing where they
 * stand in the world). */
START_TEST(test_heatmap_follows_doors) {
    pt_map m;
    pt_patlib lib;
    behind(&m, &lib);
    enum { N = 600 };
    int *counts = calloc((size_t)m.w * (size_t)m.h, sizeof *counts);
    ck_assert_ptr_nonnull(counts);
    pt_error err;
    ck_assert_int_eq(pt_hearmap_build(&m, &lib, 1, N, PT_GAIT_RUN, counts, &err), PT_OK);
    pt_world_desc d = {0};
    d.seed = 1;
    d.player_controlled = 1;
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    int open = 0;
    for (int t = 1; t <= N; t++) {
        pt_world_step(w);
        open += pt_world_door(w, 6, 3) == PT_DOOR_OPEN;
        const pt_entity *ear = pt_world_entity(w, 1);
        ck_assert(ear->x == 2 && ear->y == 3 && ear->state != PT_STATE_CHASE);
    }
    ck_assert_int_gt(open, 0);
    ck_assert_int_lt(open, N);
    ck_assert_int_eq(counts[3 * m.w + 9], open);
    ck_assert_int_eq(counts[3 * m.w + 10], open);
    ck_assert_int_eq(counts[3 * m.w + 4], N);
    ck_assert_int_eq(counts[4 * m.w + 10], 0);
    pt_world_destroy(w);
    free(counts);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* The solver hears the footsteps as the doors are on their tick: running from behind the
 * door gets by before the walker opens it, and once it is open (the player made to stay
 * until tick 200) there is no running route; any route found plays unheard. */
START_TEST(test_route_heard_behind_door) {
    pt_map m;
    pt_patlib lib;
    behind(&m, &lib);
    pt_solve_opts o = {0};
    o.max_ticks = 600;
    o.gait = 1 + PT_GAIT_RUN;
    pt_solve_result r;
    pt_error err;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    ck_assert(r.found);
    int opened;
    replay(&m, &lib, &r, &opened);
    ck_assert_int_eq(opened, 0);
    pt_solve_result_fini(&r);
    o.leave_after = 200;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    if (r.found) replay(&m, &lib, &r, &opened); /* heard: fails */
    ck_assert(!r.found);
    ck_assert_int_eq(r.why, PT_SOLVE_WHY_HORIZON);
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Seeds: the only way is a closed door; below it, behind a grate (opaque, not walkable,
 * letting sound through), a room where a guard walks at random (kind matrix: another walk
 * for each seed) and listens; footsteps make no noise, so the door's opening noise is all
 * it may hear, and it never sees the corridor. A route for one seed is checked under the
 * others (--seeds) by the search's own rule: it holds under exactly the seeds under which it
 * plays unheard in the world. */
static const char *ROOM = "tile = grate opaque sound=0\n"
                          "player at=1,1 speed=4\n"
                          "door 5,1 closed\n"
                          "guard g at=5,3 pattern=roam view=0.5 fov=10 hearing=0.5\n"
                          "grid\n"
                          "#############\n"
                          "#....+.....E#\n"
                          "#####=#######\n"
                          "###.....#####\n"
                          "###.....#####\n"
                          "#############\n"
                          "end\n";
static const char *ROAM = "pattern roam\n  kind matrix\n  segments 3,3 7,3\n  segments 3,4 7,4\n  start 5,3\nend\n";

START_TEST(test_seeds_price_the_door) {
    pt_map m;
    load_map(&m, ROOM);
    pt_patlib lib;
    load_pats(&lib, ROAM);
    int fallbacks = 0, heard = 0;
    for (uint64_t s0 = 1; s0 <= 40; s0 += 3) {
        pt_solve_opts o = {0};
        o.seed = s0;
        o.nseeds = 8;
        o.max_ticks = 300;
        o.gait = 1 + PT_GAIT_WALK;
        pt_solve_result r;
        pt_error err;
        ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
        if (r.found && !r.all_seeds) {
            fallbacks++;
            int holds = 0;
            for (int k = 0; k < o.nseeds; k++) holds += tu_route_holds(&m, &lib, s0 + (uint64_t)k, &r);
            ck_assert_msg(r.seeds_ok == holds, "seeds %llu..: the check says %d hold, the world %d",
                          (unsigned long long)s0, r.seeds_ok, holds);
            ck_assert_int_ge(holds, 1);
            heard += holds < o.nseeds;
        }
        pt_solve_result_fini(&r);
    }
    ck_assert_msg(fallbacks >= 2 && heard >= 2, "fallbacks %d, of them with a seed heard %d", fallbacks, heard);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *solve_doors_suite(void) {
    Suite *s = suite_create("solve_doors");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_through_closed_door);
    tcase_add_test(tc, test_door_noise);
    tcase_add_test(tc, test_sight_follows_doors);
    tcase_add_test(tc, test_heatmap_follows_doors);
    tcase_add_test(tc, test_route_heard_behind_door);
    tcase_add_test(tc, test_seeds_price_the_door);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(solve_doors_suite()); }
