/* SPDX-License-Identifier: Zlib */
/* patrol/testing.h: the helpers against independent loops over the world, the .test parser's
 * binding errors (the syntax errors are in tests/data/bad/test_*.test), and the
 * expectations' verdicts over many seeds against what the world's events and positions say. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/solve.h>
#include <patrol/testing.h>

#include "test_util.h"

/* A hall: the player walks east toward a guard that faces west; a prey in the corner. Both
 * guards are deaf (hearing=256: no noise is louder), so the helpers are checked against sight. */
static const char hall_map[] = "player at=1,1 pattern=walk\n"
                               "guard g at=8,1 heading=180 view=5 fov=90 hearing=256\n"
                               "guard pacer at=1,3 pattern=pace view=2 fov=60 hearing=256\n"
                               "prey hen at=8,3\n"
                               "grid\n"
                               "##########\n"
                               "#........#\n"
                               "#........#\n"
                               "#........#\n"
                               "##########\n"
                               "end\n";
static const char hall_pat[] = "pattern walk\n  kind path\n  points 1,1 8,1\n  at_end stop\nend\n"
                               "pattern pace\n  kind path\n  points 1,3 6,3\n  at_end reverse\nend\n"
                               "pattern stand\n  kind path\n  points 1,1 1,2\n  at_end stop\nend\n";

typedef struct fixture {
    pt_map map;
    pt_patlib lib;
} fixture;

static void fx_open(fixture *f) {
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&f->map, hall_map, strlen(hall_map), "hall.map", &err), PT_OK);
    pt_patlib_init(&f->lib);
    ck_assert_int_eq(pt_patlib_parse(&f->lib, hall_pat, strlen(hall_pat), "hall.pat", &err), PT_OK);
}

static void fx_close(fixture *f) {
    pt_patlib_fini(&f->lib);
    pt_map_fini(&f->map);
}

static pt_world *fx_world(fixture *f, uint64_t seed) {
    pt_world_desc d = {.seed = seed};
    pt_error err;
    pt_world *w = pt_world_create(&f->map, &f->lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

START_TEST(test_find_guard_and_pattern_cells) {
    fixture f;
    fx_open(&f);
    pt_world *w = fx_world(&f, 1);
    int g = pt_test_find_guard(w, "pacer");
    ck_assert_int_ge(g, 1);
    ck_assert_str_eq(pt_world_entity(w, g)->name, "pacer");
    ck_assert_int_eq(pt_test_find_guard(w, "hen"), -1);    /* a prey is no guard */
    ck_assert_int_eq(pt_test_find_guard(w, "player"), -1);
    ck_assert_int_eq(pt_test_find_guard(w, "nobody"), -1);
    pt_cell cells[16];
    int n = pt_test_pattern_cells(w, g, cells, 16);
    ck_assert_int_eq(n, 6); /* 1,3 .. 6,3 */
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(cells[i].x, 1 + i);
        ck_assert_int_eq(cells[i].y, 3);
    }
    ck_assert_int_eq(pt_test_pattern_cells(w, pt_test_find_guard(w, "g"), cells, 16), 0); /* no pattern */
    ck_assert_int_eq(pt_test_pattern_cells(w, 999, cells, 16), 0);
    /* The walker stands on exactly the cells it lists, for many ticks. */
    for (int t = 0; t < 600; t++) {
        pt_world_step(w);
        const pt_entity *e = pt_world_entity(w, g);
        int on = 0;
        for (int i = 0; i < n; i++) on |= cells[i].x == e->x && cells[i].y == e->y;
        ck_assert_msg(on, "tick %d: pacer at %d,%d, off its cells", t, e->x, e->y);
    }
    pt_world_destroy(w);
    fx_close(&f);
}
END_TEST

START_TEST(test_step_until) {
    fixture f;
    fx_open(&f);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pt_world *w = fx_world(&f, seed), *ref = fx_world(&f, seed);
        pt_cell c = {4, 1};
        long t = pt_test_step_until(w, pt_test_at_cell, &c, 600);
        /* The reference: step by hand until the player stands there. */
        long k = 0;
        while (k < 600 && !(pt_world_entity(ref, 0)->x == 4 && pt_world_entity(ref, 0)->y == 1)) {
            pt_world_step(ref);
            k++;
        }
        ck_assert_int_gt(t, 0);
        ck_assert_int_eq(t, k);
        ck_assert_int_eq((long)pt_world_tick(w), t);
        pt_cell never = {5, 2};
        ck_assert_int_eq(pt_test_step_until(w, pt_test_at_cell, &never, 100), -1);
        ck_assert_int_eq((long)pt_world_tick(w), t + 100);
        pt_world_destroy(w);
        pt_world_destroy(ref);
    }
    fx_close(&f);
}
END_TEST

/* The entity predicate: the pacer (not the player, id 2: a guard is declared before it) on
 * each cell of its round, the tick each time the one a hand-stepped world gives. */
START_TEST(test_entity_at_cell) {
    fixture f;
    fx_open(&f);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pt_world *w = fx_world(&f, seed), *ref = fx_world(&f, seed);
        int g = pt_test_find_guard(w, "pacer");
        ck_assert_int_eq(g, 2);
        pt_cell cells[16];
        int n = pt_test_pattern_cells(w, g, cells, 16);
        ck_assert_int_eq(n, 6);
        for (int round = 0; round < 2; round++)
            for (int i = round ? n - 2 : 1; round ? i >= 0 : i < n; i += round ? -1 : 1) {
                pt_test_entity_cell at = {g, cells[i]};
                long t = pt_test_step_until(w, pt_test_entity_at_cell, &at, 600);
                long k = 0;
                do {
                    pt_world_step(ref);
                    k++;
                } while (k < 600 && !(pt_world_entity(ref, g)->x == cells[i].x && pt_world_entity(ref, g)->y == cells[i].y));
                ck_assert_int_gt(t, 0);
                ck_assert_int_eq(t, k);
                ck_assert_int_eq(pt_world_entity(w, 0)->y, 1); /* the player walks row 1, never these cells */
            }
        pt_test_entity_cell nobody = {999, {1, 1}}, wall = {g, {0, 0}};
        uint64_t before = pt_world_tick(w);
        ck_assert_int_eq(pt_test_step_until(w, pt_test_entity_at_cell, &nobody, 50), -1);
        ck_assert_int_eq(pt_test_step_until(w, pt_test_entity_at_cell, &wall, 50), -1);
        ck_assert_uint_eq(pt_world_tick(w), before + 100);
        pt_world_destroy(w);
        pt_world_destroy(ref);
    }
    fx_close(&f);
}
END_TEST

START_TEST(test_cone_covers) {
    fixture f;
    fx_open(&f);
    pt_world *w = fx_world(&f, 1);
    int g = pt_test_find_guard(w, "g"); /* at 8,1 facing west, view 5, fov 90 */
    ck_assert(pt_test_cone_covers(w, g, 5, 1));
    ck_assert(pt_test_cone_covers(w, g, 3, 1));   /* 5 tiles: the edge of its view */
    ck_assert(!pt_test_cone_covers(w, g, 2, 1));  /* 6 tiles */
    ck_assert(!pt_test_cone_covers(w, g, 8, 3));  /* beside it, outside the cone */
    ck_assert(!pt_test_cone_covers(w, g, 9, 1));  /* behind it (a wall too) */
    ck_assert(!pt_test_cone_covers(w, 0, 2, 1));  /* the player is no guard */
    pt_world_destroy(w);
    fx_close(&f);
}
END_TEST

START_TEST(test_saw_player) {
    fixture f;
    fx_open(&f);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pt_world *w = fx_world(&f, seed), *ref = fx_world(&f, seed);
        int g = pt_test_find_guard(w, "g");
        pt_test_sighting s;
        ck_assert(pt_test_saw_player(w, -1, 1, 600, &s));
        /* The reference: the first tick on which a guard's sight check saw the player. */
        int seen = 0;
        while (!seen && pt_world_tick(ref) < 600) {
            pt_world_step(ref);
            for (int i = 1; i < pt_world_count(ref); i++)
                if (pt_world_entity(ref, i)->kind == PT_KIND_GUARD && pt_world_entity(ref, i)->sees_player) seen = i;
        }
        ck_assert_int_eq(s.guard, seen);
        ck_assert_int_eq(s.guard, g);
        ck_assert_uint_eq(s.tick, pt_world_tick(ref));
        ck_assert_uint_eq(pt_world_tick(w), s.tick);
        ck_assert_int_eq(s.player_at.x, pt_world_entity(ref, 0)->x);
        ck_assert_int_eq(s.guard_at.x, 8);
        /* The pacer, looking along its row with a short view, never does in this window;
         * the world is then on the window's last tick. */
        int pacer = pt_test_find_guard(w, "pacer");
        ck_assert(!pt_test_saw_player(w, pacer, s.tick, s.tick + 30, NULL));
        ck_assert_uint_eq(pt_world_tick(w), s.tick + 30);
        pt_world_destroy(w);
        pt_world_destroy(ref);
    }
    fx_close(&f);
}
END_TEST

static char *trace_of(fixture *f, uint64_t seed, int ticks, size_t *len) {
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(m);
    pt_world *w = fx_world(f, seed);
    pt_world_trace_header(m);
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        pt_world_trace_rows(w, m);
    }
    pt_world_destroy(w);
    fclose(m);
    return buf;
}

START_TEST(test_trace_diff) {
    fixture f;
    fx_open(&f);
    size_t la, lb, lc;
    char *a = trace_of(&f, 3, 300, &la), *b = trace_of(&f, 3, 300, &lb), *c = trace_of(&f, 3, 200, &lc);
    char buf[256];
    ck_assert_int_eq(pt_test_trace_diff(a, la, b, lb, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    /* A trace cut short: the first missing row. */
    long rows_c = 0;
    for (size_t i = 0; i < lc; i++) rows_c += c[i] == '\n';
    ck_assert_int_eq(pt_test_trace_diff(a, la, c, lc, buf, sizeof buf), rows_c + 1);
    ck_assert_ptr_nonnull(strstr(buf, "only in the first trace"));
    /* One field changed by hand: that row, that field, one row in all. */
    char *at = strstr(b, "\n150,");
    ck_assert_ptr_nonnull(at);
    long row = 1;
    for (char *p = b; p <= at; p++) row += *p == '\n';
    char *state = strstr(at + 1, ",patrol,");
    ck_assert_ptr_nonnull(state);
    memcpy(state + 1, "chase ", 6); /* "patrol" -> "chase " */
    ck_assert_int_eq(pt_test_trace_diff(a, la, b, lb, buf, sizeof buf), row);
    ck_assert_ptr_nonnull(strstr(buf, "tick 150"));
    ck_assert_ptr_nonnull(strstr(buf, "state patrol -> chase "));
    ck_assert_ptr_nonnull(strstr(buf, "1 row differs"));
    ck_assert_int_eq(pt_test_trace_diff(a, la, b, lb, NULL, 0), row);
    free(a);
    free(b);
    free(c);
    fx_close(&f);
}
END_TEST

/* ---- .test files ---------------------------------------------------------------------- */

static int bind_text(fixture *f, const char *text, pt_error *err) {
    pt_testfile tf;
    int rc = pt_testfile_parse(&tf, text, strlen(text), "tests/data/hall.test", err);
    ck_assert_msg(rc == PT_OK, "%s", err->message);
    rc = pt_testfile_bind(&tf, &f->map, &f->lib, err);
    pt_testfile_fini(&tf);
    return rc;
}

START_TEST(test_bind_errors) {
    fixture f;
    fx_open(&f);
    pt_error err;
    ck_assert_int_eq(bind_text(&f, "map hall.map\nvisits pacer 1,3 6,3\ncaught by=g\n", &err), PT_OK);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nvisits pacr 1,3\n", &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 8);
    ck_assert_ptr_nonnull(strstr(err.message, "did you mean 'pacer'?"));
    ck_assert_str_eq(err.file, "tests/data/hall.test");
    ck_assert_int_eq(bind_text(&f, "map hall.map\n\nstays hen area=1,1,2,2\n", &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 7);
    ck_assert_int_eq(bind_text(&f, "map hall.map\ncaught by=hen\n", &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.col, 11);
    ck_assert_int_eq(bind_text(&f, "map hall.map\ncovers g 10,1\n", &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.col, 10);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nvisits g 1,1 2,-1\n", &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.col, 14);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nstays g area=0,0,9,5\n", &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.col, 14);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nunseen route=wlak\n", &err), PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(err.col, 14);
    ck_assert_ptr_nonnull(strstr(err.message, "did you mean 'walk'?"));
    ck_assert_int_eq(bind_text(&f, "map hall.map\nplayer stnd\nunseen\n", &err), PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 8);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nplayer none\nunseen route=stand\n", &err), PT_OK);
    /* A route is linted as the player's walk: into a wall, off the map, past a corner. */
    static const char routes[] = "pattern north\n  kind control\n  heading 270\n  forward 1\nend\n"
                                 "pattern off\n  kind path\n  origin 1,-1\n  points 0,0 1,0\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&f.lib, routes, strlen(routes), "routes.pat", &err), PT_OK);
    ck_assert_int_eq(bind_text(&f, "map hall.map\nunseen route=walk\nunseen route=north\n", &err), PT_ERR_PATTERN_BLOCKED);
    ck_assert_str_eq(err.file, "routes.pat");
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 3);
    ck_assert_str_eq(err.message, "cell 1,0 is wall: pattern 'north' placed at 1,1 for the player's route (route= on "
                                  "tests/data/hall.test:3)");
    ck_assert_int_eq(bind_text(&f, "map hall.map\nplayer off\nunseen\n", &err), PT_ERR_PATTERN_LEAVES);
    ck_assert_ptr_nonnull(strstr(err.message, "for the player's route (the player line on tests/data/hall.test:2)"));
    ck_assert_int_eq(bind_text(&f, "map hall.map\nplayer walk\nunseen route=stand\n", &err), PT_OK);
    ck_assert_int_eq(bind_text(&f, "map hall.map\npatterns no_such_file.pat\nunseen\n", &err), PT_ERR_IO);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 10);
    fx_close(&f);
}
END_TEST

/* Runs one expectation of `text` on the hall with a seed; returns the result. */
static pt_test_status run_one(fixture *f, const char *text, uint64_t seed, pt_test_result *r, FILE *trace) {
    pt_testfile tf;
    pt_error err;
    ck_assert_int_eq(pt_testfile_parse(&tf, text, strlen(text), "hall.test", &err), PT_OK);
    tf.seed = seed;
    ck_assert_int_eq(pt_testfile_bind(&tf, &f->map, &f->lib, &err), PT_OK);
    ck_assert_int_eq(tf.count, 1);
    pt_world_desc d;
    pt_expect_desc(&tf, &tf.items[0], &d);
    pt_world *w = pt_world_create(&f->map, &f->lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    pt_test_status st = pt_expect_run(w, &tf.items[0], r, trace);
    ck_assert_uint_eq(pt_world_tick(w), r->tick);
    pt_world_destroy(w);
    pt_testfile_fini(&tf);
    return st;
}

START_TEST(test_expectations_against_the_world) {
    fixture f;
    fx_open(&f);
    pt_test_result r;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        /* The reference run: a world stepped by hand, recording the pacer's first arrival at
         * 6,3 and back at 1,3, whether it ever leaves x 1..4, the first catch, the first
         * sighting. */
        pt_world *w = fx_world(&f, seed);
        int pacer = pt_test_find_guard(w, "pacer");
        long at6 = -1, back = -1, left = -1, caught = -1, seen = -1;
        for (long t = 1; t <= 1200; t++) {
            pt_world_step(w);
            const pt_entity *e = pt_world_entity(w, pacer);
            if (at6 < 0 && e->x == 6 && e->y == 3) at6 = t;
            if (at6 >= 0 && back < 0 && e->x == 1 && e->y == 3) back = t;
            if (left < 0 && e->x > 4) left = t;
            int n;
            const pt_event *ev = pt_world_events(w, &n);
            for (int i = 0; i < n; i++)
                if (caught < 0 && ev[i].kind == PT_EVENT_CAUGHT) caught = t;
            for (int i = 1; seen < 0 && i < pt_world_count(w); i++)
                if (pt_world_entity(w, i)->kind == PT_KIND_GUARD && pt_world_entity(w, i)->sees_player) seen = t;
        }
        pt_world_destroy(w);
        ck_assert(at6 > 0 && back > at6 && left > 0 && caught > 0 && seen > 0);

        ck_assert_int_eq(run_one(&f, "map h.map\nvisits pacer 6,3 1,3 within=20\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_uint_eq(r.tick, (uint64_t)back);
        /* Just too short a time: fails on the last tick it had. */
        char text[128];
        snprintf(text, sizeof text, "map h.map\nvisits pacer 6,3 1,3 within=%.4f\n", (back - 1) / 60.0);
        ck_assert_int_eq(run_one(&f, text, seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_uint_eq(r.tick, (uint64_t)(back - 1));
        ck_assert_ptr_nonnull(strstr(r.text, "on 6,3 on tick"));
        /* The wrong order: 1,3 first is its start, so 6,3 then 2,2 (never on it) fails. */
        ck_assert_int_eq(run_one(&f, "map h.map\nvisits pacer 6,3 2,2 within=10\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_uint_eq(r.tick, 600);

        ck_assert_int_eq(run_one(&f, "map h.map\nstays pacer area=1,3,4,3 for=20\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_uint_eq(r.tick, (uint64_t)left);
        ck_assert_int_eq(run_one(&f, "map h.map\nstays pacer area=1,2,6,3 for=20\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_uint_eq(r.tick, 1200);

        ck_assert_int_eq(run_one(&f, "map h.map\ncaught within=20\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_uint_eq(r.tick, (uint64_t)caught);
        ck_assert_ptr_nonnull(strstr(r.text, "caught by g"));
        ck_assert_int_eq(run_one(&f, "map h.map\ncaught within=20 by=pacer\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_int_eq(run_one(&f, "map h.map\nunseen for=20\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_uint_eq(r.tick, (uint64_t)seen);
        ck_assert_ptr_nonnull(strstr(r.text, "g at 8,1 saw the player"));
        /* Standing at the start, out of every cone. */
        ck_assert_int_eq(run_one(&f, "map h.map\nunseen route=none for=20\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_int_eq(run_one(&f, "map h.map\ngoal within=20\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_ptr_nonnull(strstr(r.text, "caught by g"));
        /* solvable is the solver's answer on the same map, patterns and seed. */
        for (int margin = 0; margin <= 2; margin += 2) {
            snprintf(text, sizeof text, "map h.map\nsolvable margin=%d within=20\n", margin);
            pt_solve_opts o = {0};
            o.seed = seed;
            o.max_ticks = 1200;
            o.margin_ticks = 60 * margin;
            pt_solve_result sr;
            pt_error err;
            int rc = pt_solve(&f.map, &f.lib, &o, &sr, &err);
            ck_assert_int_eq(run_one(&f, text, seed, &r, NULL), rc == PT_OK && sr.found ? PT_TEST_PASS : PT_TEST_FAIL);
            ck_assert_uint_eq(r.tick, 0); /* the solver runs its own worlds */
            char route[300];
            if (rc != PT_OK) { /* the hall has no goal tile */
                snprintf(route, sizeof route, "the solver stopped: %s", err.message);
                ck_assert_str_eq(r.text, route);
            }
            snprintf(route, sizeof route, "a route: %d ticks", sr.ticks);
            if (sr.found) ck_assert_ptr_nonnull(strstr(r.text, route));
            else ck_assert_ptr_null(strstr(r.text, "a route"));
            pt_solve_result_fini(&sr);
        }
    }
    fx_close(&f);
}
END_TEST

/* Two guards on one corridor: `a` waits where a side corridor meets it and catches the
 * walking player first; the player starts again, `a` has walked off down the side corridor,
 * and `b` at the far end catches them later. by= means the first catch. */
static const char two_map[] = "player at=1,1 pattern=walk speed=2\n"
                              "guard a at=5,6 pattern=away view=4 fov=120 hearing=256 aware_rate=50\n"
                              "guard b at=19,1 heading=180 view=6 fov=90 hearing=256\n"
                              "grid\n"
                              "#####################\n"
                              "#...................#\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####.###############\n"
                              "#####################\n"
                              "end\n";
static const char two_pat[] = "pattern walk\n  kind path\n  points 1,1 19,1\n  at_end stop\nend\n"
                              "pattern away\n  kind path\n  points 5,6 5,2 wait=3s 5,8\n  at_end stop\nend\n";

START_TEST(test_caught_by_is_the_first_catch) {
    fixture f;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&f.map, two_map, strlen(two_map), "two.map", &err), PT_OK);
    pt_patlib_init(&f.lib);
    ck_assert_int_eq(pt_patlib_parse(&f.lib, two_pat, strlen(two_pat), "two.pat", &err), PT_OK);
    pt_test_result r;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        /* The reference: every catch in 40 s, in order. */
        pt_world *w = fx_world(&f, seed);
        int a = pt_test_find_guard(w, "a"), b = pt_test_find_guard(w, "b");
        long first = -1, by_b = -1;
        uint32_t first_by = 0;
        for (long t = 1; t <= 2400; t++) {
            pt_world_step(w);
            int n;
            const pt_event *ev = pt_world_events(w, &n);
            for (int i = 0; i < n; i++) {
                if (ev[i].kind != PT_EVENT_CAUGHT) continue;
                if (first < 0) first = t, first_by = ev[i].a;
                if (by_b < 0 && ev[i].a == (uint32_t)b) by_b = t;
            }
        }
        pt_world_destroy(w);
        ck_assert_msg(first > 0 && first_by == (uint32_t)a && by_b > first, "seed %llu: the scene is not set",
                      (unsigned long long)seed);
        ck_assert_int_eq(run_one(&f, "map t.map\ncaught within=40 by=b\n", seed, &r, NULL), PT_TEST_FAIL);
        ck_assert_uint_eq(r.tick, (uint64_t)first);
        ck_assert_msg(strstr(r.text, "caught first by a on tick") && strstr(r.text, "not by b"), "%s", r.text);
        ck_assert_int_eq(run_one(&f, "map t.map\ncaught within=40 by=a\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_uint_eq(r.tick, (uint64_t)first);
        ck_assert_int_eq(run_one(&f, "map t.map\ncaught within=40\n", seed, &r, NULL), PT_TEST_PASS);
        ck_assert_ptr_nonnull(strstr(r.text, "caught by a"));
    }
    fx_close(&f);
}
END_TEST

START_TEST(test_covers_gaps) {
    fixture f;
    fx_open(&f);
    pt_test_result r;
    /* The pacer (view 2, facing along its row) covers 3,3 on each pass; the longest gap is
     * measured by hand and the expectation must pass with it and fail just below it. */
    pt_world *w = fx_world(&f, 1);
    int pacer = pt_test_find_guard(w, "pacer");
    long last = 0, longest = 0; /* the window starts at tick 0 */
    for (long t = 1; t <= 1200; t++) {
        pt_world_step(w);
        if (pt_test_cone_covers(w, pacer, 3, 3)) last = t;
        if (t - last > longest) longest = t - last;
    }
    pt_world_destroy(w);
    ck_assert_int_gt(longest, 10);
    char text[128];
    snprintf(text, sizeof text, "map h.map\ncovers pacer 3,3 every=%.4f for=20\n", (longest + 1) / 60.0);
    ck_assert_int_eq(run_one(&f, text, 1, &r, NULL), PT_TEST_PASS);
    snprintf(text, sizeof text, "map h.map\ncovers pacer 3,3 every=%.4f for=20\n", longest / 60.0);
    ck_assert_int_eq(run_one(&f, text, 1, &r, NULL), PT_TEST_FAIL);
    ck_assert_ptr_nonnull(strstr(r.text, "3,3 not covered from tick"));
    /* A cell it never sees. */
    ck_assert_int_eq(run_one(&f, "map h.map\ncovers pacer 8,1 every=5 for=20\n", 1, &r, NULL), PT_TEST_FAIL);
    ck_assert_uint_eq(r.tick, 300);
    fx_close(&f);
}
END_TEST

START_TEST(test_run_trace_is_the_worlds) {
    fixture f;
    fx_open(&f);
    pt_test_result r;
    char *got = NULL;
    size_t glen = 0;
    FILE *m = open_memstream(&got, &glen);
    ck_assert_int_eq(run_one(&f, "map h.map\nunseen for=20\n", 5, &r, m), PT_TEST_FAIL);
    fclose(m);
    size_t wlen;
    char *want = trace_of(&f, 5, (int)r.tick, &wlen);
    /* trace_of has no tick-0 rows: add them the way pt_expect_run does. */
    char *full = NULL;
    size_t flen = 0;
    m = open_memstream(&full, &flen);
    pt_world *w = fx_world(&f, 5);
    pt_world_trace_header(m);
    pt_world_trace_rows(w, m);
    pt_world_destroy(w);
    const char *nl = memchr(want, '\n', wlen);
    fwrite(nl + 1, 1, wlen - (size_t)(nl + 1 - want), m);
    fclose(m);
    char buf[256];
    ck_assert_msg(pt_test_trace_diff(full, flen, got, glen, buf, sizeof buf) == 0, "%s", buf);
    free(got);
    free(want);
    free(full);
    fx_close(&f);
}
END_TEST

START_TEST(test_demo_file) {
    /* The shipped test file: it loads and has a line of each kind. */
    pt_testfile tf;
    pt_error err;
    ck_assert_msg(pt_testfile_load(&tf, PATROL_SOURCE_DIR "/maps/demo.test", &err) == PT_OK, "%s", err.message);
    ck_assert_int_ge(tf.count, 10);
    int kinds[PT_EXPECT_KIND_COUNT] = {0};
    for (int i = 0; i < tf.count; i++) kinds[tf.items[i].kind]++;
    for (int k = 0; k < PT_EXPECT_KIND_COUNT; k++) ck_assert_msg(kinds[k] > 0, "no %s line", pt_expect_kind_name((pt_expect_kind)k));
    pt_testfile_fini(&tf);
}
END_TEST

int main(void) {
    Suite *s = suite_create("testing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_find_guard_and_pattern_cells);
    tcase_add_test(tc, test_step_until);
    tcase_add_test(tc, test_entity_at_cell);
    tcase_add_test(tc, test_cone_covers);
    tcase_add_test(tc, test_saw_player);
    tcase_add_test(tc, test_trace_diff);
    tcase_add_test(tc, test_bind_errors);
    tcase_add_test(tc, test_expectations_against_the_world);
    tcase_add_test(tc, test_caught_by_is_the_first_catch);
    tcase_add_test(tc, test_covers_gaps);
    tcase_add_test(tc, test_run_trace_is_the_worlds);
    tcase_add_test(tc, test_demo_file);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
