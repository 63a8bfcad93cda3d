/* SPDX-License-Identifier: Zlib */
/* pt_troop against the straightforward loop (a pt_patrun per follower and an integer clock
 * per follower, held by `wait`), tick by tick: same cell, same heading bit for bit, same
 * done flag, same number of actions - on small walled maps, every tile kind and end mode,
 * many rational speeds and random phases, followers added mid-run, sorting mid-run. Plus
 * the limits: growth, bad inputs, empty troops. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/troop.h>

#include "test_util.h"
#include "bulk/troop_priv.h" /* pt__troop_check */

static const char *pats_text =
    "pattern box\n kind path\n points 0,0 7,0 7,5 0,5 0,0\nend\n"
    "pattern slant\n kind path\n points 0,0 9,3 4,8\n at_end loop\nend\n"      /* open: restart */
    "pattern pace\n kind path\n points 0,0 9,3\n at_end reverse\nend\n"
    "pattern ring_rev\n kind path\n points 0,0 5,0 5,4 0,0\n at_end reverse\nend\n"
    "pattern halt\n kind path\n points 0,0 6,0 6,6\n at_end stop\nend\n"
    "pattern ring_halt\n kind path\n points 0,0 4,0 4,4 0,4 0,0\n at_end stop\nend\n"
    "pattern back\n kind path\n points 0,0 3,7 8,1\n at_end restart\nend\n"
    "pattern dot\n kind path\n points 0,0 0,0\n at_end reverse\nend\n"
    "pattern web\n kind matrix\n rows\n  11111\n  10101\n  11111\n  10001\n  11111\n end\nend\n"
    "pattern dead\n kind matrix\n rows\n  1000001\n  0100010\n  0011100\n  0001000\n  0001001\n end\nend\n"
    "pattern lone\n kind matrix\n rows\n  010\n  000\n  001\n end\nend\n"
    "pattern seg\n kind matrix\n segments 3,2 16,2 16,11 9,11 9,2\n segments 9,2 3,6 3,2\n start 16,2\nend\n"
    "pattern square\n kind control\n heading 0\n repeat 4\n  forward 4\n  right 90\n end\nend\n"
    "pattern snake\n kind control\n heading 0\n forward 2\n right 45\n repeat 3\n  forward 1\n  left 45\n end\n"
    "  wait 30\n at_end loop\nend\n"
    "pattern drift\n kind control\n forward 3\n right 33.5\n wait 1\n backward 2\n left 101\n wait 7\nend\n"
    "pattern once\n kind control\n heading 90\n forward 5\n wait 4\n right 22.5\n forward 3\n wait 2\n at_end stop\nend\n"
    "pattern tie\n kind control\n heading 22.5\n forward 2\n left 45\n forward 2\n wait 97\n right 67.5\nend\n"
    /* stops: waits and looks at path points (the closing point, a reverse end, a stop end),
     * control looks and gaits */
    "pattern peek\n kind path\n points 0,0 6,0 look=0.5s 6,4 wait=7 look angles=-90,45,10 0,4 wait=3 0,0 look=11\nend\n"
    "pattern peek_rev\n kind path\n points 0,0 look=9 angles=170 8,2 wait=13 gait=run\n at_end reverse\nend\n"
    "pattern peek_stop\n kind path\n gait sneak\n points 0,0 3,3 look=5 5,3 wait=1 look=1 angles=-180\n at_end stop\nend\n"
    "pattern peek_back\n kind path\n points 0,0 2,6 wait=4 7,1 look=0.2s angles=30,-30,0\n at_end restart\nend\n"
    "pattern glance\n kind control\n heading 45\n forward 3\n look 17 angles=-120,120\n gait run\n right 90\n"
    "  repeat 2\n  forward 1\n  look 1\n end\n wait 5\n look 0.25s\nend\n"
    "pattern glance_stop\n kind control\n forward 2\n look 9 angles=80\n left 30\n look 3\n at_end stop\nend\n"
    "pattern jet\n kind thrust\n fire none distance=6\nend\n"
    "pattern route\n kind waypoints\n points 3.5,4.5 10.5,4.5 10.5,9.5\n closed yes\nend\n";

static pt_patlib lib;
static pt_map map;

/* Patterns gen0..gen7: random paths (2-6 points, any end mode) and control patterns with
 * random waits, looks (durations, 0-3 angles) and gaits. */
static char *generated_text(void) {
    size_t cap = 1 << 14, n = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    pt_rng r;
    pt_rng_seed(&r, 4242, 3);
    static const char *ends[] = {"loop", "stop", "reverse", "restart"}, *gaits[] = {"walk", "sneak", "run"};
    for (int g = 0; g < 8; g++) {
        n += (size_t)snprintf(t + n, cap - n, "pattern gen%d\n kind %s\n", g, g % 2 ? "control" : "path");
        if (g % 2 == 0) {
            int pts = 2 + (int)pt_rng_below(&r, 5);
            n += (size_t)snprintf(t + n, cap - n, " at_end %s\n points", ends[pt_rng_below(&r, 4)]);
            for (int i = 0; i < pts; i++) {
                n += (size_t)snprintf(t + n, cap - n, " %d,%d", (int)pt_rng_below(&r, 9), (int)pt_rng_below(&r, 7));
                if (pt_rng_below(&r, 2)) n += (size_t)snprintf(t + n, cap - n, " wait=%d", 1 + (int)pt_rng_below(&r, 20));
                if (pt_rng_below(&r, 2)) {
                    n += (size_t)snprintf(t + n, cap - n, " look=%d", 1 + (int)pt_rng_below(&r, 40));
                    int na = (int)pt_rng_below(&r, 4);
                    for (int a = 0; a < na; a++)
                        n += (size_t)snprintf(t + n, cap - n, "%s%d", a ? "," : " angles=", (int)pt_rng_below(&r, 361) - 180);
                }
                if (pt_rng_below(&r, 4) == 0) n += (size_t)snprintf(t + n, cap - n, " gait=%s", gaits[pt_rng_below(&r, 3)]);
            }
            n += (size_t)snprintf(t + n, cap - n, "\n");
        } else {
            int ins = 3 + (int)pt_rng_below(&r, 6);
            for (int i = 0; i < ins; i++) {
                switch (pt_rng_below(&r, 5)) {
                case 0: n += (size_t)snprintf(t + n, cap - n, " forward %d\n", 1 + (int)pt_rng_below(&r, 4)); break;
                case 1: n += (size_t)snprintf(t + n, cap - n, " right %d\n", (int)pt_rng_below(&r, 200)); break;
                case 2: n += (size_t)snprintf(t + n, cap - n, " wait %d\n", 1 + (int)pt_rng_below(&r, 30)); break;
                case 3:
                    n += (size_t)snprintf(t + n, cap - n, " look %d angles=%d,%d\n", 1 + (int)pt_rng_below(&r, 50),
                                          (int)pt_rng_below(&r, 181) - 90, (int)pt_rng_below(&r, 361) - 180);
                    break;
                default: n += (size_t)snprintf(t + n, cap - n, " gait %s\n", gaits[pt_rng_below(&r, 3)]); break;
                }
            }
            n += (size_t)snprintf(t + n, cap - n, " forward 1\n");
        }
        n += (size_t)snprintf(t + n, cap - n, "end\n");
        ck_assert_uint_lt(n, cap - 512);
    }
    return t;
}

static void setup(void) {
    pt_error err;
    pt_patlib_init(&lib);
    int rc = pt_patlib_parse(&lib, pats_text, strlen(pats_text), "troop.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), err.line, err.col, err.message);
    char *gen = generated_text();
    rc = pt_patlib_parse(&lib, gen, strlen(gen), "gen.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s\n%s", pt_code_name(rc), err.line, err.col, err.message, gen);
    free(gen);
    ck_assert_int_eq(pt_map_init_blank(&map, 48, 36, &err), PT_OK);
    /* Walls: a frame, two lines with gaps, and 10% scattered blocks. */
    pt_rng r;
    pt_rng_seed(&r, 99, 1);
    for (int x = 0; x < map.w; x++) { pt_map_set(&map, x, 0, '#'); pt_map_set(&map, x, map.h - 1, '#'); }
    for (int y = 0; y < map.h; y++) { pt_map_set(&map, 0, y, '#'); pt_map_set(&map, map.w - 1, y, '#'); }
    for (int y = 3; y < 30; y++) if (y % 7) pt_map_set(&map, 20, y, '#');
    for (int x = 5; x < 44; x++) if (x % 9) pt_map_set(&map, x, 18, '#');
    for (int i = 0; i < map.w * map.h / 10; i++)
        pt_map_set(&map, (int)pt_rng_below(&r, (uint32_t)map.w), (int)pt_rng_below(&r, (uint32_t)map.h), '#');
}

static void teardown(void) {
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}

static const pt_pattern *get(const char *name) {
    const pt_pattern *p = pt_patlib_find(&lib, name);
    ck_assert_ptr_nonnull(p);
    return p;
}

static const char *tile_names[] = {"box", "slant", "pace", "ring_rev", "halt", "ring_halt", "back", "dot",
                                   "web", "dead", "lone", "seg", "square", "snake", "drift", "once", "tie",
                                   "peek", "peek_rev", "peek_stop", "peek_back", "glance", "glance_stop",
                                   "gen0", "gen1", "gen2", "gen3", "gen4", "gen5", "gen6", "gen7"};
#define NTILE ((int)(sizeof tile_names / sizeof *tile_names))

/* The last two only for followers added mid-run: their bands start late. */
static const int speeds[][2] = {{7, 60}, {1, 1}, {60, 60}, {1, 97}, {3, 60}, {0, 5}, {2, 3}, {59, 60}, {13, 17}, {6, 8},
                                {5, 11}, {9, 31}};
#define NSPEED ((int)(sizeof speeds / sizeof *speeds))

/* The straightforward loop. */
typedef struct ref {
    pt_patrun run;
    int acc, num, den;
} ref;

static long long ref_tick(ref *rs, int n, const pt_map *m) {
    long long actions = 0;
    for (int i = 0; i < n; i++) {
        if (pt_patrun_hold_tick(&rs[i].run)) continue;
        rs[i].acc += rs[i].num;
        if (rs[i].acc >= rs[i].den) {
            rs[i].acc -= rs[i].den;
            pt_patrun_step(&rs[i].run, m, NULL, NULL, NULL);
            actions++;
        }
    }
    return actions;
}

/* Followers whose state differs between troop and reference. */
static int mismatches(const pt_troop *t, const ref *rs, int n) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        pt_cell c = pt_troop_cell(t, i);
        double h = pt_troop_heading(t, i);
        if (c.x != rs[i].run.x || c.y != rs[i].run.y || memcmp(&h, &rs[i].run.heading, sizeof h) != 0 ||
            pt_troop_done(t, i) != (rs[i].run.done != 0))
            bad++;
    }
    return bad;
}

/* A random follower: pattern, placement (often half off walls or the map edge), start, speed,
 * phase, heading. */
static void random_ref(ref *r, pt_rng *rng, const pt_map *m, int i, int late) {
    const pt_pattern *p = get(tile_names[pt_rng_below(rng, NTILE)]);
    pt_cell origin = {(int)pt_rng_below(rng, (uint32_t)m->w + 4) - 2, (int)pt_rng_below(rng, (uint32_t)m->h + 4) - 2};
    pt_cell start = origin;
    if (pt_rng_below(rng, 3) == 0) start = (pt_cell){origin.x + (int)pt_rng_below(rng, 8), origin.y + (int)pt_rng_below(rng, 6)};
    double heading = pt_rng_signed(rng) * 4.0;
    pt_patrun_init(&r->run, p, origin, start, heading, 1234, (uint32_t)(i * 7 + 1));
    int s = (int)pt_rng_below(rng, late ? NSPEED : NSPEED - 2);
    r->num = speeds[s][0];
    r->den = speeds[s][1];
    r->acc = (int)pt_rng_below(rng, (uint32_t)r->den);
}

/* A troop on map m (NULL: none) with room for capacity followers. */
static pt_troop *make(const pt_map *m, int capacity) {
    pt_error err;
    pt_troop *t = pt_troop_create(&(pt_troop_desc){.map = m, .capacity = capacity}, &err);
    ck_assert_msg(t != NULL, "%s", err.message);
    ck_assert_int_eq(err.code, PT_OK);
    return t;
}

static int add_ref(pt_troop *t, const ref *r) { return pt_troop_add_run(t, &r->run, r->num, r->den, r->acc); }

/* Runs n followers for ticks ticks (half of them added at tick 0, the others after add_at
 * ticks of the reference, in whatever state they reached), sorting at sort_at. */
static void compare_run(const pt_map *m, int n, int ticks, int add_at, int sort_at, uint64_t seed) {
    ref *rs = malloc(sizeof *rs * (size_t)n);
    ck_assert_ptr_nonnull(rs);
    pt_rng rng;
    pt_rng_seed(&rng, seed, 5);
    for (int i = 0; i < n; i++) random_ref(&rs[i], &rng, &map, i, i >= n / 2);
    pt_troop *t = make(m, n / 4);
    int first = n / 2, hook_bad = 0, bad_ids = 0, bad = 0, bad_ticks = 0, holding = 0, looking = 0, cuts = 0;
    long diagonal = 0;
    pt_cell *last = malloc(sizeof *last * (size_t)n);
    ck_assert_ptr_nonnull(last);
    for (int i = 0; i < first; i++) bad_ids += add_ref(t, &rs[i]) != i;
    long long ref_actions = 0, late_actions = 0;
    for (int tick = 1; tick <= ticks; tick++) {
        if (tick == add_at + 1) {
            /* the late half joins in the state the reference walked it to */
            for (int i = first; i < n; i++) {
                holding += rs[i].run.wait_ticks > 0;
                looking += rs[i].run.wait_ticks > 0 && pt_patrun_looking(&rs[i].run);
                bad_ids += add_ref(t, &rs[i]) != i;
            }
        }
        if (tick == sort_at) pt_troop_sort(t);
        pt_troop_step(t);
        int live = tick > add_at ? n : first;
        ref_actions += ref_tick(rs, live, m);
        if (tick <= add_at) late_actions += ref_tick(rs + first, n - first, m);
        int b = mismatches(t, rs, live);
        hook_bad += pt__troop_check(t);
        bad += b;
        bad_ticks += b > 0;
        /* Regression: the troop's path, matrix and control steps cut non-walkable corners
         * (as the one-agent runner did); both now follow pt_map_step_ok. */
        for (int i = 0; m && i < live; i++) {
            pt_cell c = pt_troop_cell(t, i);
            if (tick > 1 && (tick != add_at + 1 || i < first) && (c.x != last[i].x || c.y != last[i].y)) {
                cuts += tu_cuts_corner(m, last[i].x, last[i].y, c.x, c.y);
                diagonal += c.x != last[i].x && c.y != last[i].y;
            }
            last[i] = c;
        }
    }
    ck_assert_msg(cuts == 0, "%d troop steps cut a corner", cuts);
    if (m && m->w > 8) ck_assert_int_gt(diagonal, 1000);
    free(last);
    ck_assert_int_eq(bad_ids, 0);
    ck_assert_int_eq(hook_bad, 0); /* records where their ids say, after every `wait` move */
    ck_assert_msg(bad == 0, "%d follower-ticks differ, on %d ticks", bad, bad_ticks);
    ck_assert_int_eq(pt_troop_count(t), n);
    ck_assert(pt_troop_actions(t) == ref_actions);
    ck_assert(ref_actions > (long long)n * ticks / 20); /* they really walked */
    if (add_at > 0) ck_assert_int_gt(holding, 0); /* some joined in the middle of a `wait` */
    if (add_at > 0 && n >= 1000) ck_assert_int_gt(looking, 0); /* and of a look */
    (void)late_actions;
    pt_troop_destroy(t);
    free(rs);
}

START_TEST(test_matches_reference) {
    compare_run(&map, 3000, 700, 0, -1, 1);
}
END_TEST

START_TEST(test_matches_reference_late_adds_and_sort) {
    compare_run(&map, 3000, 600, 137, 251, 2);
}
END_TEST

START_TEST(test_matches_reference_no_map) {
    compare_run(NULL, 1000, 400, 50, 60, 3);
}
END_TEST

/* Maps too small for the matrix walk's fast interior path (and mostly off-map followers). */
START_TEST(test_matches_reference_tiny_maps) {
    static const char *grids[] = {"..\n", ".#.\n...\n.#.\n", "...\n...\n...\n...\n"};
    for (int i = 0; i < 3; i++) {
        char text[256];
        snprintf(text, sizeof text, "player at=0,0\ngrid\n%send\n", grids[i]);
        pt_map tiny;
        pt_error err;
        int rc = pt_map_parse(&tiny, text, strlen(text), "tiny.map", &err);
        ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), err.line, err.col, err.message);
        compare_run(&tiny, 400, 200, 20, 30, 10 + (uint64_t)i);
        pt_map_fini(&tiny);
    }
}
END_TEST

/* The followers really move and hold: over the run, every kind changes cell, control
 * waits stop the clock (snake: 30 ticks still after its turns), stop paths finish. */
START_TEST(test_behaviour_over_time) {
    pt_map_fini(&map);
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&map, 64, 64, &err), PT_OK);
    pt_troop *t = make(&map, 0);
    int halt = pt_troop_add(t, get("halt"), (pt_cell){10, 10}, (pt_cell){10, 10}, 0.0, 1, 1, 1, 1, 0);
    int snake = pt_troop_add(t, get("snake"), (pt_cell){30, 30}, (pt_cell){30, 30}, 0.0, 1, 2, 1, 1, 0);
    int web = pt_troop_add(t, get("web"), (pt_cell){40, 40}, (pt_cell){40, 40}, 0.0, 1, 3, 1, 2, 1);
    ck_assert_int_eq(halt, 0);
    ck_assert_int_eq(snake, 1);
    ck_assert_int_eq(web, 2);
    int web_moves = 0, snake_still = 0, max_still = 0;
    pt_cell web_prev = pt_troop_cell(t, web), snake_prev = pt_troop_cell(t, snake);
    for (int tick = 0; tick < 200; tick++) {
        pt_troop_step(t);
        pt_cell w = pt_troop_cell(t, web), s = pt_troop_cell(t, snake);
        web_moves += w.x != web_prev.x || w.y != web_prev.y;
        if (s.x == snake_prev.x && s.y == snake_prev.y) snake_still++;
        else snake_still = 0;
        if (snake_still > max_still) max_still = snake_still;
        web_prev = w;
        snake_prev = s;
    }
    /* halt: 12 moves then done at the last cell */
    ck_assert(pt_troop_done(t, halt));
    ck_assert_int_eq(pt_troop_cell(t, halt).x, 16);
    ck_assert_int_eq(pt_troop_cell(t, halt).y, 16);
    ck_assert_int_eq(web_moves, 100); /* every second tick, always a neighbour to go to */
    ck_assert_int_ge(max_still, 30); /* 3 turns + the wait action, then 30 held ticks */
    ck_assert_int_lt(max_still, 40);
    pt_troop_destroy(t);
}
END_TEST

/* ---- limits ------------------------------------------------------------------------------------ */

START_TEST(test_growth) {
    pt_troop *t = make(&map, 0);
    const pt_pattern *p = get("box");
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        pt_cell o = {2 + i % 30, 2 + (i / 30) % 20};
        bad += pt_troop_add(t, p, o, o, 0.0, 1, (uint32_t)i, 1 + i % 5, 5 + i % 3, i % 5) != i;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(pt_troop_count(t), 20000);
    for (int i = 0; i < 20000; i++) {
        pt_cell o = {2 + i % 30, 2 + (i / 30) % 20}, c = pt_troop_cell(t, i);
        bad += c.x != o.x || c.y != o.y;
    }
    ck_assert_int_eq(bad, 0);
    pt_troop_destroy(t);
}
END_TEST

START_TEST(test_bad_inputs) {
    pt_troop *t = make(NULL, 4);
    pt_cell o = {5, 5};
    const pt_pattern *box = get("box");
    ck_assert_int_eq(pt_troop_add(t, NULL, o, o, 0.0, 1, 1, 1, 2, 0), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_troop_add(t, get("jet"), o, o, 0.0, 1, 1, 1, 2, 0), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_troop_add(t, get("route"), o, o, 0.0, 1, 1, 1, 2, 0), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 1, 0, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 1, -3, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, -1, 3, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 4, 3, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 1, 3, 3), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 1, 3, -1), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 1, PT_TROOP_MAX_DEN + 1, 0), PT_ERR_RANGE);
    ck_assert_int_eq(pt_troop_add_run(t, NULL, 1, 2, 0), PT_ERR_BAD_VALUE);
    pt_patrun run;
    pt_patrun_init(&run, NULL, o, o, 0.0, 1, 1);
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    pt_patrun_init(&run, box, o, o, 0.0, 1, 1);
    run.x++; /* not where its index says */
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    pt_patrun_init(&run, box, o, o, 0.0, 1, 1);
    run.index = 1000;
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    /* holding where pt_patrun cannot: a path without stops, a look that is not the
     * pattern's, a hold longer than its stop */
    pt_patrun_init(&run, box, o, o, 0.0, 1, 1);
    run.wait_ticks = 5;
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    pt_patrun_init(&run, get("peek"), o, o, 0.0, 1, 1);
    run.wait_ticks = 5;
    run.look = 99;
    run.hold_total = 5;
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    run.look = 0;
    run.hold_total = get("peek")->looks[0].wait + get("peek")->looks[0].look;
    run.wait_ticks = run.hold_total + 1;
    ck_assert_int_eq(pt_troop_add_run(t, &run, 1, 2, 0), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_troop_count(t), 0);
    /* nothing was added: stepping and queries are harmless */
    pt_troop_step(t);
    ck_assert_int_eq(pt_troop_cell(t, 0).x, 0);
    ck_assert_int_eq(pt_troop_cell(t, -1).y, 0);
    ck_assert(pt_troop_heading(t, 3) == 0.0);
    ck_assert_int_eq(pt_troop_done(t, 0), 0);
    /* a valid one still works, and the edge speeds are accepted */
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, 0, 1, 0), 0);
    ck_assert_int_eq(pt_troop_add(t, box, o, o, 0.0, 1, 1, PT_TROOP_MAX_DEN, PT_TROOP_MAX_DEN, PT_TROOP_MAX_DEN - 1), 1);
    ck_assert_int_eq(pt_troop_cell(t, 1).x, 5);
    pt_troop_step(t);
    ck_assert_int_eq(pt_troop_cell(t, 0).x, 5); /* speed 0 never moves */
    ck_assert_int_eq(pt_troop_cell(t, 1).x, 6); /* speed 1 moves every tick */
    pt_troop_destroy(t);
    pt_troop_destroy(NULL); /* fine */
}
END_TEST

START_TEST(test_empty) {
    pt_troop *t = pt_troop_create(NULL, NULL); /* all defaults */
    ck_assert_ptr_nonnull(t);
    pt_troop_step(t);
    pt_troop_sort(t);
    ck_assert_int_eq(pt_troop_count(t), 0);
    ck_assert(pt_troop_tick(t) == 1 && pt_troop_actions(t) == 0);
    ck_assert_int_eq(pt__troop_check(t), 0);
    pt_troop_destroy(t);
    /* a zeroed description is the defaults too; a negative capacity is refused */
    pt_troop_desc d;
    memset(&d, 0, sizeof d);
    pt_error err;
    t = pt_troop_create(&d, &err);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(err.code, PT_OK);
    pt_troop_destroy(t);
    d.capacity = -1;
    ck_assert_ptr_null(pt_troop_create(&d, &err));
    ck_assert_int_eq(err.code, PT_ERR_RANGE);
}
END_TEST

static Suite *troop_suite(void) {
    Suite *s = suite_create("troop");
    TCase *core = tcase_create("core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_matches_reference);
    tcase_add_test(core, test_matches_reference_late_adds_and_sort);
    tcase_add_test(core, test_matches_reference_no_map);
    tcase_add_test(core, test_matches_reference_tiny_maps);
    tcase_add_test(core, test_behaviour_over_time);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_checked_fixture(limits, setup, teardown);
    tcase_add_test(limits, test_growth);
    tcase_add_test(limits, test_bad_inputs);
    tcase_add_test(limits, test_empty);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(troop_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
