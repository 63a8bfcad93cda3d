/* SPDX-License-Identifier: Zlib */
/* Doors with a state (patrol/door.h, docs/ai.md "Doors", docs/formats.md "Doors"): the map's
 * declarations and their located errors; a closed or locked door blocks sight, walking and
 * (more) sound; guards open closed doors on their rounds and paths (the pause, the noise, the
 * event) and close them behind where the map says; A* plans through closed doors and round
 * locked ones; the player opens by walking; locked doors are never crossed over thousands of
 * ticks on generated maps; a guard that finds open a door of its round it knew closed goes to
 * look, unless the map's door_look is off. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/hearing.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/path.h>
#include <patrol/solve.h>
#include <patrol/spawn.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include "guards/walk.h"
#include "state/world_state.h"
#include "test_util.h"

/* ---- helpers ------------------------------------------------------------------------ */

static int load_map(pt_map *m, const char *text, pt_error *err) {
    return pt_map_parse(m, text, strlen(text), "doors.map", err);
}

static void must_load(pt_map *m, const char *text) {
    pt_error err;
    int rc = load_map(m, text, &err);
    ck_assert_msg(rc == PT_OK, "map: %d:%d %s", err.line, err.col, err.message);
}

static void load_pats(pt_patlib *lib, const char *text) {
    pt_error err;
    pt_patlib_init(lib);
    int rc = pt_patlib_parse(lib, text, strlen(text), "doors.pat", &err);
    ck_assert_msg(rc == PT_OK, "patterns: %d:%d %s", err.line, err.col, err.message);
}

static pt_world *make_world(const pt_map *m, const pt_patlib *lib, int controlled) {
    pt_world_desc d = {0};
    d.seed = 7;
    d.player_controlled = controlled;
    pt_error err;
    pt_world *w = pt_world_create(m, lib, &d, &err);
    ck_assert_msg(w != NULL, "world: %d:%d %s", err.line, err.col, err.message);
    return w;
}

/* The step's door events: how many, and the last one in *last. */
static int door_events(const pt_world *w, pt_event *last) {
    int n = 0, c = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PT_EVENT_DOOR) {
            if (last) *last = ev[i];
            c++;
        }
    return c;
}

/* A corridor with a door in its middle; the player shut away below. */
static const char *CORRIDOR =
    "player at=1,3\n"
    "guard g at=1,1 pattern=walk\n"
    "%s\n"
    "grid\n"
    "############\n"
    "#....+.....#\n"
    "############\n"
    "#..........#\n"
    "############\n"
    "end\n";
static const char *WALK = "pattern walk\n  kind path\n  points 0,0 9,0\n  at_end reverse\nend\n";

static void corridor(pt_map *m, const char *extra) {
    char text[1024];
    snprintf(text, sizeof text, CORRIDOR, extra);
    must_load(m, text);
}

/* ---- declarations ------------------------------------------------------------------- */

START_TEST(test_declarations) {
    pt_map m;
    pt_patlib lib;
    load_pats(&lib, WALK);
    corridor(&m, "door 5,1 closed closes\ndoor_look off");
    ck_assert_int_eq(m.ndoors, 1);
    ck_assert_int_eq(m.doors[0].x, 5);
    ck_assert_int_eq(m.doors[0].y, 1);
    ck_assert_int_eq(m.doors[0].state, PT_DOOR_CLOSED);
    ck_assert_int_eq(m.doors[0].closes, 1);
    ck_assert_int_eq(m.door_look, -1);
    pt_map copy;
    ck_assert_int_eq(pt_map_clone(&copy, &m), PT_OK);
    ck_assert_int_eq(copy.ndoors, 1);
    ck_assert_int_eq(copy.doors[0].closes, 1);
    pt_map_fini(&copy);
    pt_world *w = make_world(&m, &lib, 1);
    ck_assert_int_eq(pt_world_door(w, 5, 1), PT_DOOR_CLOSED);
    ck_assert_int_eq(pt_world_door(w, 4, 1), -1);
    pt_door all[4];
    ck_assert_int_eq(pt_world_doors(w, all, 4), 1);
    ck_assert_int_eq(all[0].state, PT_DOOR_CLOSED);
    ck_assert_int_eq(all[0].closes, 1);
    ck_assert(!pt_map_walkable(pt_world_map(w), 5, 1));
    pt_world_destroy(w);
    pt_map_fini(&m);
    /* No door line: today's '+' is an open door, and the world lists it. */
    corridor(&m, "");
    ck_assert_int_eq(m.ndoors, 0);
    ck_assert_int_eq(m.door_look, 0);
    w = make_world(&m, &lib, 1);
    ck_assert_int_eq(pt_world_door(w, 5, 1), PT_DOOR_OPEN);
    ck_assert(pt_map_walkable(pt_world_map(w), 5, 1));
    pt_world_destroy(w);
    pt_map_fini(&m);
    /* A grid may draw a closed door with a kind of its own. */
    corridor(&m, "tile D door_closed opaque");
    ck_assert_int_eq(m.legend[pt_map_legend_find(&m, 'D')].sound, 50);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_declaration_errors) {
    static const struct {
        const char *extra;
        int code, line, col;
        const char *part;
    } cases[] = {
        {"door 4,1 closed", PT_ERR_BAD_VALUE, 3, 6, "not a door"},
        {"door 40,1 closed", PT_ERR_OUT_OF_MAP, 3, 6, "outside"},
        {"door 5,1 closed\ndoor 5,1 open", PT_ERR_DUPLICATE, 4, 6, "declared twice"},
        {"door 5,1 shut", PT_ERR_BAD_VALUE, 3, 10, ""},
        {"door 5,1 closed sometimes", PT_ERR_BAD_VALUE, 3, 17, "closes"},
        {"door 5,1", PT_ERR_SYNTAX, 3, 9, "needs"},
        {"door 5;1 open", PT_ERR_SYNTAX, 3, 6, ""},
        {"door 5,1 open closes x", PT_ERR_SYNTAX, 3, 22, "unexpected"},
        {"door_look on\ndoor_look off", PT_ERR_DUPLICATE, 4, 1, "twice"},
        {"guard h at=5,1\ndoor 5,1 locked", PT_ERR_NOT_WALKABLE, 4, 6, "starts locked with guard 'h'"},
        {"door_look maybe", PT_ERR_BAD_VALUE, 3, 11, ""},
        {"door_look", PT_ERR_SYNTAX, 3, 10, "one argument"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, CORRIDOR, cases[i].extra);
        pt_map m;
        pt_error err;
        int rc = load_map(&m, text, &err);
        ck_assert_msg(rc == cases[i].code, "'%s': code %d, want %d (%s)", cases[i].extra, rc, cases[i].code, err.message);
        ck_assert_msg(err.line == cases[i].line && err.col == cases[i].col, "'%s': at %d:%d, want %d:%d (%s)",
                      cases[i].extra, err.line, err.col, cases[i].line, cases[i].col, err.message);
        ck_assert_msg(strstr(err.message, cases[i].part), "'%s': %s", cases[i].extra, err.message);
    }
}
END_TEST

/* ---- what a closed door blocks ----------------------------------------------------- */

START_TEST(test_closed_blocks) {
    pt_map m;
    pt_patlib lib;
    load_pats(&lib, WALK);
    corridor(&m, "");
    pt_world *w = make_world(&m, &lib, 1);
    const pt_map *wm = pt_world_map(w);
    pt_hearing *h = pt_hearing_create(wm);
    ck_assert(pt_los_clear(wm, 2, 1, 8, 1));
    pt_hearing_flood(h, 2, 1, 20.0);
    double open_level = pt_hearing_level(h, 8, 1);
    ck_assert_double_gt(open_level, 0.0);
    pt_pathfinder *pf = pt_pathfinder_create(wm);
    pt_cell path[64];
    ck_assert_int_gt(pt_path_find(pf, (pt_cell){2, 1}, (pt_cell){8, 1}, path, 64), 0);
    for (int s = PT_DOOR_CLOSED; s <= PT_DOOR_LOCKED; s++) {
        pt_error err;
        ck_assert_int_eq(pt_world_set_door(w, 5, 1, (pt_door_state)s, &err), PT_OK);
        pt_event ev;
        ck_assert_int_eq(door_events(w, &ev), s); /* the events of the calls, until the next step */
        ck_assert_uint_eq(ev.a, PT_DOOR_BY_GAME);
        ck_assert_uint_eq(ev.b, (unsigned)s);
        ck_assert(!pt_los_clear(wm, 2, 1, 8, 1));
        ck_assert(!pt_map_walkable(wm, 5, 1));
        ck_assert_int_eq(pt_path_find(pf, (pt_cell){2, 1}, (pt_cell){8, 1}, path, 64), -1);
        pt_hearing_flood(h, 2, 1, 20.0);
        double shut = pt_hearing_level(h, 8, 1);
        /* open: loses 2 tiles at the door; closed or locked: 5 */
        ck_assert_double_eq_tol(open_level - shut, 3.0, 1e-9);
        /* the steering walls: a wall segment along the door's edges */
        ck_assert_int_gt(pt_world_env(w)->nwalls, 0);
    }
    int nwalls = pt_world_env(w)->nwalls;
    pt_error err;
    ck_assert_int_eq(pt_world_set_door(w, 5, 1, PT_DOOR_OPEN, &err), PT_OK);
    ck_assert_int_lt(pt_world_env(w)->nwalls, nwalls);
    ck_assert(pt_los_clear(wm, 2, 1, 8, 1));
    ck_assert_int_eq(pt_world_set_door(w, 4, 1, PT_DOOR_OPEN, &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_world_set_door(w, 40, 1, PT_DOOR_OPEN, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_world_set_door(w, 5, 1, (pt_door_state)7, &err), PT_ERR_BAD_VALUE);
    pt_pathfinder_destroy(pf);
    pt_hearing_destroy(h);
    pt_world_destroy(w);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- guards on their rounds -------------------------------------------------------- */

/* Runs the corridor guard: the ticks of its door events (opened, closed), where it stood. */
typedef struct door_log {
    int opened, closed;          /* events by the guard */
    long first_open_tick;
    long adjacent_since;         /* the tick it first stood next to the door before opening */
    int noise_ok;                /* a noise of PT__DOOR_NOISE at the door on each event tick */
    int reached_left, reached_right;
    int investigated;
} door_log;

static void run_corridor(pt_world *w, int ticks, door_log *log) {
    memset(log, 0, sizeof *log);
    log->noise_ok = 1;
    log->first_open_tick = -1;
    long adj = -1;
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        const pt_entity *g = pt_world_entity(w, 1);
        if (g->x == 4 && g->y == 1 && adj < 0 && log->opened == 0) adj = (long)pt_world_tick(w);
        pt_event ev;
        int n = 0, c = 0;
        const pt_event *all = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) {
            if (all[i].kind == PT_EVENT_DOOR) {
                ev = all[i];
                c++;
                ck_assert_uint_eq(ev.a, 1);
                ck_assert_int_eq(ev.x, 5);
                if (ev.b == PT_DOOR_OPEN) {
                    if (log->opened++ == 0) {
                        log->first_open_tick = (long)ev.tick;
                        log->adjacent_since = adj;
                    }
                } else log->closed++;
                int nn = 0, found = 0;
                const pt_noise *nz = pt_world_noises(w, &nn);
                for (int k = 0; k < nn; k++)
                    found |= nz[k].x == 5 && nz[k].y == 1 && nz[k].loudness == 4.0;
                if (!found) log->noise_ok = 0;
            }
        }
        (void)c;
        if (g->state == PT_STATE_INVESTIGATE) log->investigated++;
        if (g->x == 1) log->reached_left++;
        if (g->x == 10) log->reached_right++;
        ck_assert(g->x != 5 || pt_world_door(w, 5, 1) == PT_DOOR_OPEN); /* only through an open door */
    }
}

START_TEST(test_guard_opens_on_round) {
    pt_map m;
    pt_patlib lib;
    corridor(&m, "door 5,1 closed");
    load_pats(&lib, WALK);
    pt_world *w = make_world(&m, &lib, 1);
    door_log log;
    run_corridor(w, 3000, &log);
    ck_assert_int_eq(log.opened, 1); /* it stays open: no `closes` */
    ck_assert_int_eq(log.closed, 0);
    ck_assert(log.noise_ok);
    /* The pause: it stands next to the door 0.5 s (30 ticks), the door opens on the last. */
    ck_assert_int_eq(log.first_open_tick - log.adjacent_since, 30);
    ck_assert_int_gt(log.reached_right, 0);
    ck_assert_int_gt(log.reached_left, 0);
    ck_assert_int_eq(log.investigated, 0);
    ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_PATROL);
    pt_world_destroy(w);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_guard_closes_behind) {
    pt_map m;
    pt_patlib lib;
    corridor(&m, "door 5,1 closed closes");
    load_pats(&lib, WALK);
    pt_world *w = make_world(&m, &lib, 1);
    door_log log;
    run_corridor(w, 3000, &log);
    /* a lap is 18 steps at 3 tiles/s (6 s) plus two pauses: at least 6 passes in 50 s */
    ck_assert_int_ge(log.opened, 6);
    ck_assert_int_ge(log.closed, log.opened - 1);
    ck_assert_int_le(log.closed, log.opened);
    ck_assert(log.noise_ok);
    ck_assert_int_eq(log.investigated, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* The guard closes the door behind it, so it knows it closed; the game opens it: on its
 * next pass the guard goes to look, unless the map's door_look is off. */
static int look_run(const char *extra) {
    pt_map m;
    pt_patlib lib;
    corridor(&m, extra);
    load_pats(&lib, WALK);
    pt_world *w = make_world(&m, &lib, 1);
    int looked = 0, opened_by_game = 0;
    for (int t = 0; t < 4000; t++) {
        pt_world_step(w);
        const pt_entity *g = pt_world_entity(w, 1);
        if (!opened_by_game && pt_world_door(w, 5, 1) == PT_DOOR_CLOSED && g->x >= 8) {
            pt_error err;
            ck_assert_int_eq(pt_world_set_door(w, 5, 1, PT_DOOR_OPEN, &err), PT_OK);
            opened_by_game = 1;
        }
        if (g->state == PT_STATE_INVESTIGATE) looked = 1;
    }
    ck_assert(opened_by_game);
    pt_world_destroy(w);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
    return looked;
}

START_TEST(test_look_switch) {
    ck_assert_int_eq(look_run("door 5,1 closed closes"), 1);
    ck_assert_int_eq(look_run("door 5,1 closed closes\ndoor_look on"), 1);
    ck_assert_int_eq(look_run("door 5,1 closed closes\ndoor_look off"), 0);
}
END_TEST

/* ---- A* -------------------------------------------------------------------------------- */

/* Two ways from the west room to the east: a door (short) and a long way round. */
/* A guard the game sends through a closed door (a goto, an investigate) opens it on its way,
 * after the pause, as a patrolling guard does, and carries the order out; the door is the only
 * way. Orders from every cell of the west side, so the door is met at every phase of the step
 * clock. */
START_TEST(test_orders_open_doors) {
    for (int kind = 0; kind < 2; kind++)
        for (int from = 1; from <= 4; from++) {
            pt_map m;
            pt_patlib lib;
            corridor(&m, "door 5,1 closed");
            load_pats(&lib, WALK);
            pt_world *w = make_world(&m, &lib, 1);
            pt_entity *g = &w->ents[1];
            while (g->x != from) pt_world_step(w);
            ck_assert_int_eq(pt_world_door(w, 5, 1), PT_DOOR_CLOSED);
            int rc = kind == 0 ? pt_world_order_goto(w, 1, 9, 1) : pt_world_order_investigate(w, 1, 9, 1);
            ck_assert_int_eq(rc, PT_OK);
            int opened = -1, at_door = -1, done = -1;
            for (int t = 0; t < 1200 && done < 0; t++) {
                pt_world_step(w);
                pt_event ev;
                if (door_events(w, &ev) && ev.a == 1 && ev.b == PT_DOOR_OPEN && opened < 0) opened = t;
                if (at_door < 0 && g->x == 4) at_door = t;
                int n;
                const pt_event *e = pt_world_events(w, &n);
                for (int i = 0; i < n; i++)
                    if (e[i].kind == PT_EVENT_ORDER_DONE && e[i].a == 1) done = t;
            }
            ck_assert_msg(opened >= 0, "order %d from x=%d: the door was never opened", kind, from);
            ck_assert_msg(done > opened, "order %d from x=%d: not carried out (opened %d, done %d)", kind, from, opened,
                          done);
            /* the pause, as on a round, from when its plan's next step is the door: at most one
             * step (20 ticks at speed 3) after it stands beside it */
            ck_assert_msg(opened - at_door >= 30 && opened - at_door <= 50, "order %d from x=%d: stood %d ticks", kind,
                          from, opened - at_door);
            pt_world_destroy(w);
            pt_map_fini(&m);
            pt_patlib_fini(&lib);
        }
}
END_TEST

static const char *TWO_WAYS =
    "player at=1,5\n"
    "guard g at=1,1\n"
    "grid\n"
    "###########\n"
    "#....+....#\n"
    "#.#######.#\n"
    "#.#.....#.#\n"
    "#.#######.#\n"
    "#.........#\n"
    "###########\n"
    "end\n";

static int path_has(const pt_entity *e, int x, int y) {
    for (int i = 0; i < e->path_len; i++)
        if (e->path[i].x == x && e->path[i].y == y) return 1;
    return 0;
}

START_TEST(test_astar_doors) {
    pt_map m;
    must_load(&m, TWO_WAYS);
    pt_world *w = make_world(&m, NULL, 1);
    pt_entity *g = &w->ents[1];
    pt_error err;
    ck_assert(pt__plan_to(w, g, (pt_cell){9, 1}));
    ck_assert(path_has(g, 5, 1));
    ck_assert_int_eq(pt_world_set_door(w, 5, 1, PT_DOOR_CLOSED, &err), PT_OK);
    ck_assert(pt__plan_to(w, g, (pt_cell){9, 1}));
    ck_assert(path_has(g, 5, 1)); /* through the closed door: 8 steps + the pause, not 16 */
    ck_assert(pt_map_walkable(&w->map, 1, 2) && !pt_map_walkable(&w->map, 5, 1)); /* flags given back */
    ck_assert_int_eq(pt_world_set_door(w, 5, 1, PT_DOOR_LOCKED, &err), PT_OK);
    ck_assert(pt__plan_to(w, g, (pt_cell){9, 1}));
    ck_assert(!path_has(g, 5, 1)); /* round the locked one */
    ck_assert_int_eq(g->path_len, 17);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* ---- the player ------------------------------------------------------------------------ */

START_TEST(test_player_opens) {
    pt_map m;
    must_load(&m,
              "player at=1,1\n"
              "door 3,1 closed\n"
              "door 5,1 locked\n"
              "grid\n"
              "#######\n"
              "#..+.+#\n"
              "#######\n"
              "end\n");
    pt_world *w = make_world(&m, NULL, 1);
    int opened = 0;
    for (int t = 0; t < 600; t++) {
        pt_world_set_input(w, 1, 0);
        pt_world_step(w);
        pt_event ev;
        if (door_events(w, &ev)) {
            ck_assert_uint_eq(ev.a, 0);
            ck_assert_uint_eq(ev.b, PT_DOOR_OPEN);
            ck_assert_int_eq(ev.x, 3);
            opened++;
        }
        ck_assert_int_lt(pt_world_entity(w, 0)->x, 5); /* never through the locked door */
    }
    ck_assert_int_eq(opened, 1);
    ck_assert_int_eq(pt_world_entity(w, 0)->x, 4);
    ck_assert_int_eq(pt_world_door(w, 5, 1), PT_DOOR_LOCKED);
    pt_error err;
    ck_assert_int_eq(pt_world_set_door(w, 5, 1, PT_DOOR_CLOSED, &err), PT_OK); /* unlocked by the game */
    for (int t = 0; t < 120; t++) {
        pt_world_set_input(w, 1, 0);
        pt_world_step(w);
    }
    ck_assert_int_eq(pt_world_entity(w, 0)->x, 5);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* ---- generated maps: locked doors are never crossed ------------------------------------ */

START_TEST(test_locked_never_crossed) {
    enum { SIZE = 30, GUARDS = 8, SEEDS = 8, TICKS = 3000 };
    long opened_by_walkers = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        pt_map m;
        tu_corner_map(&m, SIZE, SIZE, seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 9);
        for (int i = 0; i < SIZE * SIZE / 10; i++) {
            int x = 1 + (int)pt_rng_below(&r, SIZE - 2), y = 1 + (int)pt_rng_below(&r, SIZE - 2);
            if (pt_map_walkable(&m, x, y)) pt_map_set(&m, x, y, '+');
        }
        m.ents = calloc(GUARDS, sizeof *m.ents);
        ck_assert_ptr_nonnull(m.ents);
        for (int i = 0; i < GUARDS; i++) {
            pt_entity_def *d = &m.ents[i];
            do {
                d->x = (int)pt_rng_below(&r, SIZE);
                d->y = (int)pt_rng_below(&r, SIZE);
            } while (!pt_map_walkable(&m, d->x, d->y) || pt_map_tile(&m, d->x, d->y)->ch == '+');
            snprintf(d->name, sizeof d->name, "g%d", i + 1);
            d->kind = PT_KIND_GUARD;
            d->chase = i % 3 == 0 ? PT_CHASE_STEER : PT_CHASE_TILE;
            d->line = 1;
        }
        m.nents = GUARDS;
        do {
            m.player.x = (int)pt_rng_below(&r, SIZE);
            m.player.y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(&m, m.player.x, m.player.y) || pt_map_tile(&m, m.player.x, m.player.y)->ch == '+');
        pt_world *w = make_world(&m, NULL, 1);
        pt_door doors[256];
        int nd = pt_world_doors(w, doors, 256);
        ck_assert_int_gt(nd, 0);
        ck_assert_int_le(nd, 256);
        pt_error err;
        for (int i = 0; i < nd; i++) /* a third locked, a third closed */
            ck_assert_int_eq(pt_world_set_door(w, doors[i].x, doors[i].y, (pt_door_state)(i % 3), &err), PT_OK);
        int dx = 1, dy = 0;
        for (int t = 0; t < TICKS; t++) {
            if (t % 40 == 0) {
                dx = (int)pt_rng_below(&r, 3) - 1;
                dy = (int)pt_rng_below(&r, 3) - 1;
            }
            pt_world_set_input(w, dx, dy);
            if (t % 500 == 250) { /* the guards are sent to look at random places */
                for (int g = 1; g < pt_world_count(w); g++) {
                    int x, y;
                    do {
                        x = (int)pt_rng_below(&r, SIZE);
                        y = (int)pt_rng_below(&r, SIZE);
                    } while (!pt_map_walkable(&w->map, x, y));
                    pt_world_noise(w, x, y, 30.0);
                }
            }
            pt_world_step(w);
            for (int id = 0; id < pt_world_count(w); id++) {
                const pt_entity *e = pt_world_entity(w, id);
                int s = pt_world_door(w, e->x, e->y);
                ck_assert_msg(s != PT_DOOR_LOCKED, "seed %llu tick %d: %d on a locked door at %d,%d",
                              (unsigned long long)seed, t, id, e->x, e->y);
            }
            int n = 0;
            const pt_event *ev = pt_world_events(w, &n);
            for (int i = 0; i < n; i++) /* doors opened by guards or the player on their way */
                opened_by_walkers += ev[i].kind == PT_EVENT_DOOR && ev[i].a != PT_DOOR_BY_GAME && ev[i].b == PT_DOOR_OPEN;
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(opened_by_walkers, 0);
}
END_TEST

/* ---- the solver ------------------------------------------------------------------------ */

/* The route is searched on the doors as the world starts them: round a declared locked
 * door, through an open one (the same map with `door 3,1 open`), and through a closed one,
 * which the player opens on its way with no pause (tests/check_solve_doors.c has more). */
static int solve_via(const char *decl, int *through) {
    char text[512];
    snprintf(text, sizeof text,
             "player at=1,1\n%s\ngrid\n#######\n#..+.E#\n#.###.#\n#.....#\n#######\nend\n", decl);
    pt_map m;
    must_load(&m, text);
    pt_solve_opts o = {0};
    o.max_ticks = 600;
    pt_solve_result r;
    pt_error err;
    ck_assert_int_eq(pt_solve(&m, NULL, &o, &r, &err), PT_OK);
    ck_assert(r.found);
    *through = 0;
    for (int t = 0; t <= r.ticks; t++) *through |= r.cells[t].x == 3 && r.cells[t].y == 1;
    int ticks = r.ticks;
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
    return ticks;
}

START_TEST(test_solver_doors) {
    int through;
    int open = solve_via("door 3,1 open", &through);
    ck_assert(through);
    int locked = solve_via("door 3,1 locked", &through);
    ck_assert(!through);
    ck_assert_int_gt(locked, open);
    int closed = solve_via("door 3,1 closed", &through);
    ck_assert(through);
    ck_assert_int_eq(closed, open);
}
END_TEST

/* ---- Tiled ------------------------------------------------------------------------------ */

#define TMX_DATA PATROL_SOURCE_DIR "/tests/data/tmx/"

/* tests/data/tmx/castle_csv.tmx (a door tile at 3,3) with `object` put before its last
 * </objectgroup> and `prop` among its map properties; the object's line in *line. */
static int tmx_with(const char *object, const char *prop, pt_map *m, pt_error *e, int *line) {
    FILE *f = fopen(TMX_DATA "castle_csv.tmx", "rb");
    ck_assert_ptr_nonnull(f);
    static char src[8192], buf[10000];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    char *props = strstr(src, "<properties>") + strlen("<properties>");
    char *last = NULL;
    for (char *p = strstr(src, "</objectgroup>"); p; p = strstr(p + 1, "</objectgroup>")) last = p;
    ck_assert_ptr_nonnull(last);
    int len = snprintf(buf, sizeof buf, "%.*s\n%s%.*s%s\n%s", (int)(props - src), src, prop, (int)(last - props), props,
                       object, last);
    *line = 1;
    for (const char *p = buf; p < strstr(buf, object); p++) *line += *p == '\n';
    pt_patlib lib;
    pt_patlib_init(&lib);
    int rc = pt_tmx_parse(m, &lib, buf, (size_t)len, TMX_DATA "castle_csv.tmx", e);
    pt_patlib_fini(&lib);
    return rc;
}

START_TEST(test_tiled) {
    pt_map m;
    pt_error e;
    int line;
    int rc = tmx_with("<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"><properties><property name=\"state\" value=\"locked\"/>"
                      "<property name=\"closes\" type=\"bool\" value=\"true\"/></properties></object>",
                      "<property name=\"door_look\" type=\"bool\" value=\"false\"/>", &m, &e, &line);
    ck_assert_msg(rc == PT_OK, "%d:%d %s", e.line, e.col, e.message);
    ck_assert_int_eq(m.ndoors, 1);
    ck_assert_int_eq(m.doors[0].x, 3);
    ck_assert_int_eq(m.doors[0].y, 3);
    ck_assert_int_eq(m.doors[0].state, PT_DOOR_LOCKED);
    ck_assert_int_eq(m.doors[0].closes, 1);
    ck_assert_int_eq(m.door_look, -1);
    pt_map_fini(&m);
    static const struct {
        const char *object;
        int code;
        const char *part;
    } bad[] = {
        {"<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"/>", PT_ERR_MISSING, "needs the property state"},
        {"<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"><properties><property name=\"state\" value=\"ajar\"/>"
         "</properties></object>", PT_ERR_BAD_VALUE, "ajar"},
        {"<object id=\"20\" type=\"door\" x=\"24\" y=\"24\"><properties><property name=\"state\" value=\"open\"/>"
         "</properties></object>", PT_ERR_BAD_VALUE, "not a door"},
        {"<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"><properties><property name=\"state\" value=\"open\"/>"
         "<property name=\"colour\" value=\"red\"/></properties></object>", PT_ERR_UNKNOWN_KEY, "colour"},
        {"<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"><properties><property name=\"state\" value=\"open\"/>"
         "</properties></object><object id=\"21\" type=\"door\" x=\"60\" y=\"60\"><properties>"
         "<property name=\"state\" value=\"closed\"/></properties></object>", PT_ERR_DUPLICATE, "twice"},
        {"<object id=\"20\" type=\"door\" x=\"56\" y=\"56\"><properties><property name=\"state\" value=\"closed\"/>"
         "</properties></object><object id=\"21\" name=\"gd\" type=\"guard\" x=\"60\" y=\"60\"/>", PT_ERR_NOT_WALKABLE,
         "starts closed with guard 'gd'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = tmx_with(bad[i].object, "", &m, &e, &line);
        ck_assert_msg(rc == bad[i].code, "case %zu: %d (%s)", i, rc, e.message);
        ck_assert_msg(e.line == line && e.col > 0, "case %zu: at %d:%d, want line %d (%s)", i, e.line, e.col, line, e.message);
        ck_assert_msg(strstr(e.message, bad[i].part), "case %zu: %s", i, e.message);
    }
}
END_TEST

/* tests/data/tmx/doors.map and the doors.tmx map2tmx made of it: the same doors, the same
 * door_look, and the same world tick by tick (guards opening, closing, a locked door). */
static void load_pair(const char *path, pt_map *m, pt_patlib *lib) {
    pt_error e;
    pt_patlib_init(lib);
    int rc = strstr(path, ".tmx") ? pt_tmx_load(m, lib, path, &e) : pt_map_load(m, path, &e);
    ck_assert_msg(rc == PT_OK, "%s: %d:%d %s", path, e.line, e.col, e.message);
    for (int i = 0; i < m->npattern_files; i++) {
        rc = pt_patlib_load(lib, m->pattern_files[i], &e);
        ck_assert_msg(rc == PT_OK, "%s: %s", m->pattern_files[i], e.message);
    }
}

START_TEST(test_tiled_same_world) {
    pt_map a, b;
    pt_patlib la, lb;
    load_pair(TMX_DATA "doors.map", &a, &la);
    load_pair(TMX_DATA "doors.tmx", &b, &lb);
    ck_assert_int_eq(a.ndoors, 3);
    ck_assert_int_eq(b.ndoors, 3);
    ck_assert_int_eq(b.door_look, -1);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(a.doors[i].x, b.doors[i].x);
        ck_assert_int_eq(a.doors[i].y, b.doors[i].y);
        ck_assert_int_eq(a.doors[i].state, b.doors[i].state);
        ck_assert_int_eq(a.doors[i].closes, b.doors[i].closes);
    }
    pt_world *wa = make_world(&a, &la, 0), *wb = make_world(&b, &lb, 0);
    int events = 0;
    for (int t = 0; t < 1500; t++) {
        pt_world_step(wa);
        pt_world_step(wb);
        for (int id = 0; id < pt_world_count(wa); id++) {
            const pt_entity *ea = pt_world_entity(wa, id), *eb = pt_world_entity(wb, id);
            ck_assert_msg(ea->x == eb->x && ea->y == eb->y && ea->state == eb->state, "tick %d entity %d", t, id);
        }
        pt_event ea, eb;
        int na = door_events(wa, &ea), nb = door_events(wb, &eb);
        ck_assert_int_eq(na, nb);
        events += na;
    }
    ck_assert_int_ge(events, 10);
    ck_assert_int_eq(pt_world_door(wa, 3, 3), PT_DOOR_LOCKED);
    pt_world_destroy(wa);
    pt_world_destroy(wb);
    pt_map_fini(&a);
    pt_map_fini(&b);
    pt_patlib_fini(&la);
    pt_patlib_fini(&lb);
}
END_TEST

static Suite *doors_suite(void) {
    Suite *s = suite_create("doors");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_declarations);
    tcase_add_test(tc, test_declaration_errors);
    tcase_add_test(tc, test_closed_blocks);
    tcase_add_test(tc, test_guard_opens_on_round);
    tcase_add_test(tc, test_orders_open_doors);
    tcase_add_test(tc, test_guard_closes_behind);
    tcase_add_test(tc, test_look_switch);
    tcase_add_test(tc, test_astar_doors);
    tcase_add_test(tc, test_player_opens);
    tcase_add_test(tc, test_locked_never_crossed);
    tcase_add_test(tc, test_tiled);
    tcase_add_test(tc, test_solver_doors);
    tcase_add_test(tc, test_tiled_same_world);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(doors_suite()); }
