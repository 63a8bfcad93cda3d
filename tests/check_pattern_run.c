/* SPDX-License-Identifier: Zlib */
/* Pattern runners over many ticks: path loops and end modes, the matrix random walk,
 * control instructions (directions, turns, waits), the thrust vehicle (square and
 * zig-zag), return to the pattern after a chase (resume), and lint against a map. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/bresenham.h>
#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/world.h> /* pt_gait_name */

#include "pattern/pattern_step.h" /* the walkers' bodies and tables, shared by pt_patrun and pt_troop */
#include "test_util.h"

#define BASIC "tests/data/patterns/basic.pat"
#define DT (1.0 / 60.0)

static pt_patlib lib;
static pt_map map;

static void setup(void) {
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, BASIC, &err), PT_OK);
    ck_assert_int_eq(pt_map_init_blank(&map, 40, 30, &err), PT_OK);
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

/* Parses text into the shared library and returns its pattern `name`. */
static const pt_pattern *add(const char *text, const char *name) {
    pt_error err;
    int rc = pt_patlib_parse(&lib, text, strlen(text), "extra.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), err.line, err.col, err.message);
    return get(name);
}

static int adjacent8(pt_cell a, pt_cell b) {
    int dx = abs(a.x - b.x), dy = abs(a.y - b.y);
    return dx <= 1 && dy <= 1 && dx + dy > 0;
}

static int same(pt_cell a, pt_cell b) { return a.x == b.x && a.y == b.y; }

/* ---- stops: waits and looks ------------------------------------------------------------- */

/* Offset of heading h from base in degrees, in (-180, 180]. */
static double off_deg(double h, double base) {
    double d = fmod((h - base) * 180.0 / PT_PI, 360.0);
    if (d <= -180.0) d += 360.0;
    if (d > 180.0) d -= 360.0;
    return d;
}

/* Over many generated patterns (paths with stops at random points, control patterns with
 * look and wait instructions), speeds and seeds: at every stop the walker holds exactly
 * wait + look ticks on its cell, faces as it arrived during the wait, sweeps within
 * [min(0, angles), max(0, angles)] during the look, reaches both ends of that range (within
 * one tick's turn), is back at its arrival facing on the last held tick and acts again on the
 * tick after (when its clock is due). */
START_TEST(test_look_stands_and_sweeps) {
    int stops_seen = 0, looks_seen = 0;
    for (int seed = 1; seed <= 40; seed++) {
        pt_rng r;
        pt_rng_seed(&r, (uint64_t)seed, 77);
        char text[4096], name[32];
        size_t n = 0;
        snprintf(name, sizeof name, "stops%d", seed);
        int control = seed % 2;
        n += (size_t)snprintf(text + n, sizeof text - n, "pattern %s\n kind %s\n", name, control ? "control" : "path");
        int parts = 3 + (int)pt_rng_below(&r, 4);
        if (!control) n += (size_t)snprintf(text + n, sizeof text - n, " at_end %s\n points", seed % 4 ? "loop" : "reverse");
        for (int i = 0; i < parts; i++) {
            int wait = pt_rng_below(&r, 2) ? 1 + (int)pt_rng_below(&r, 40) : 0, look = 1 + (int)pt_rng_below(&r, 150);
            int na = (int)pt_rng_below(&r, 4);
            char angles[96] = "";
            size_t an = 0;
            for (int a = 0; a < na; a++)
                an += (size_t)snprintf(angles + an, sizeof angles - an, "%s%d", a ? "," : " angles=", (int)pt_rng_below(&r, 341) - 170);
            if (control) {
                n += (size_t)snprintf(text + n, sizeof text - n, " forward %d\n right %d\n", 1 + (int)pt_rng_below(&r, 3),
                                      (int)pt_rng_below(&r, 180));
                if (wait) n += (size_t)snprintf(text + n, sizeof text - n, " wait %d\n", wait);
                n += (size_t)snprintf(text + n, sizeof text - n, " look %d%s\n", look, angles);
            } else {
                n += (size_t)snprintf(text + n, sizeof text - n, " %d,%d", 2 + 3 * i + (int)pt_rng_below(&r, 3),
                                      2 + (int)pt_rng_below(&r, 12));
                if (wait) n += (size_t)snprintf(text + n, sizeof text - n, " wait=%d", wait);
                n += (size_t)snprintf(text + n, sizeof text - n, " look=%d%s", look, angles);
            }
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "%send\n", control ? "" : "\n");
        const pt_pattern *p = add(text, name);
        pt_patrun run;
        pt_cell o = {10, 10};
        pt_patrun_init(&run, p, o, o, 0.3 * seed, (uint64_t)seed, 1);
        int num = 1 + (int)pt_rng_below(&r, 30), den = 30, acc = 0;
        /* the stop being held: its look, arrival facing and cell, ticks held, range seen */
        const pt_look *lk = NULL;
        double base = 0.0, lo = 0.0, hi = 0.0;
        int held = 0, total = 0, plain = 0;
        pt_cell at = {0, 0};
        for (int tick = 0; tick < 6000; tick++) {
            int hold = pt_patrun_hold_tick(&run);
            if (lk || plain) {
                if (held < total) {
                    ck_assert_msg(hold, "seed %d: released after %d of %d ticks", seed, held, total);
                    held++;
                    ck_assert(run.x == at.x && run.y == at.y);
                    if (plain) continue;
                    ck_assert(pt_patrun_looking(&run));
                    double d = off_deg(run.heading, base);
                    if (held <= lk->wait) ck_assert_msg(d == 0.0, "seed %d: turned %g during the wait", seed, d);
                    double amin = 0.0, amax = 0.0;
                    for (int a = 0; a < lk->nangles; a++) {
                        amin = fmin(amin, lk->angles[a]);
                        amax = fmax(amax, lk->angles[a]);
                    }
                    ck_assert_msg(d >= amin - 1e-9 && d <= amax + 1e-9, "seed %d: %g outside [%g, %g]", seed, d, amin, amax);
                    lo = fmin(lo, d);
                    hi = fmax(hi, d);
                    if (held == total) {
                        ck_assert_msg(run.heading == base, "seed %d: not back at its facing", seed);
                        double path = 0.0, prev = 0.0;
                        for (int a = 0; a <= lk->nangles; a++) {
                            double next = a < lk->nangles ? lk->angles[a] : 0.0;
                            path += fabs(next - prev);
                            prev = next;
                        }
                        double step = path / lk->look + 1e-9;
                        ck_assert_msg(lo <= amin + step && hi >= amax - step, "seed %d: swept [%g, %g] of [%g, %g]", seed,
                                      lo, hi, amin, amax);
                        looks_seen++;
                    }
                    continue;
                }
                ck_assert_msg(!hold, "seed %d: held more than %d ticks", seed, total);
                ck_assert(!pt_patrun_looking(&run));
                lk = NULL;
                plain = 0;
                stops_seen++;
            }
            if (hold) continue;
            acc += num;
            if (acc < den) continue;
            acc -= den;
            pt_patrun_step(&run, NULL, NULL, NULL, NULL);
            if (run.wait_ticks > 0) {
                total = run.wait_ticks;
                held = 0;
                at = (pt_cell){run.x, run.y};
                if (run.look >= 0) {
                    lk = &p->looks[run.look];
                    ck_assert_int_eq(total, lk->wait + lk->look);
                    base = run.heading;
                    lo = hi = 0.0;
                } else {
                    plain = 1; /* a control `wait` */
                }
            }
        }
    }
    ck_assert_int_gt(looks_seen, 200);
    ck_assert_int_gt(stops_seen, 300);
}
END_TEST

/* The default look (`look` alone): 120 ticks, 60 degrees left, then right, then back. */
START_TEST(test_look_default_sweep) {
    const pt_pattern *p = add("pattern lookdef\n kind control\n heading 90\n look\nend\n", "lookdef");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    pt_patrun_step(&run, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(run.wait_ticks, PT_LOOK_DEFAULT_TICKS);
    double h[PT_LOOK_DEFAULT_TICKS + 1];
    for (int j = 1; j <= PT_LOOK_DEFAULT_TICKS; j++) {
        ck_assert(pt_patrun_hold_tick(&run));
        h[j] = off_deg(run.heading, PT_PI / 2);
    }
    /* 240 degrees of turning over 120 ticks: 2 degrees a tick */
    ck_assert(fabs(h[30] + 60.0) < 1e-9);
    ck_assert(fabs(h[60]) < 1e-9);
    ck_assert(fabs(h[90] - 60.0) < 1e-9);
    ck_assert(fabs(h[10] + 20.0) < 1e-9);
    ck_assert(h[120] == 0.0);
    ck_assert(!pt_patrun_hold_tick(&run));
    ck_assert_int_eq(pt_patrun_gait(&run), PT_GAIT_WALK);
}
END_TEST

/* Gaits: a control pattern's `gait` instruction, a path's `gait` key and its points' gait=. */
START_TEST(test_gaits) {
    const pt_pattern *c = add("pattern gc\n kind control\n forward 1\n gait run\n forward 1\n gait sneak\nend\n", "gc");
    pt_patrun run;
    pt_patrun_init(&run, c, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    int want[] = {PT_GAIT_WALK, PT_GAIT_RUN, PT_GAIT_RUN, PT_GAIT_SNEAK, PT_GAIT_SNEAK, PT_GAIT_RUN};
    for (int i = 0; i < 6; i++) {
        pt_patrun_step(&run, NULL, NULL, NULL, NULL);
        ck_assert_int_eq(pt_patrun_gait(&run), want[i]);
    }
    const pt_pattern *p = add("pattern gp\n kind path\n gait sneak\n points 0,0 2,0 gait=run 4,0 gait=walk\n at_end reverse\nend\n", "gp");
    pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    ck_assert_int_eq(pt_patrun_gait(&run), PT_GAIT_SNEAK);
    int wantp[] = {PT_GAIT_SNEAK, PT_GAIT_RUN, PT_GAIT_RUN, PT_GAIT_WALK, PT_GAIT_WALK, PT_GAIT_RUN};
    for (int i = 0; i < 6; i++) {
        pt_patrun_step(&run, NULL, NULL, NULL, NULL);
        ck_assert_int_eq(pt_patrun_gait(&run), wantp[i]);
    }
    ck_assert_str_eq(pt_gait_name(PT_GAIT_SNEAK), "sneak");
}
END_TEST

/* ---- path ------------------------------------------------------------------------------------- */

/* Bourg's rectangle: a closed loop of 34 distinct cells, each step 8-adjacent (also from the
 * last cell back to the first), and over 1000 ticks the walker repeats it exactly. */
START_TEST(test_path_rectangle_loop) {
    const pt_pattern *p = get("rectangle");
    pt_patrun run;
    pt_patrun_init(&run, p, pt_pattern_origin(p, NULL), (pt_cell){10, 3}, 0.0, 1, 1);
    pt_cell cells[64];
    int n = pt_patrun_cells(&run, NULL, cells, 64);
    ck_assert_int_eq(n, 34);
    ck_assert_int_eq(cells[0].x, 10);
    ck_assert_int_eq(cells[0].y, 3);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        pt_cell c = cells[i];
        int on_edge = ((c.x == 10 || c.x == 18) && c.y >= 3 && c.y <= 12) || ((c.y == 3 || c.y == 12) && c.x >= 10 && c.x <= 18);
        if (!on_edge || !adjacent8(c, cells[(i + 1) % n])) bad++;
        for (int j = 0; j < i; j++) bad += same(cells[j], c);
    }
    ck_assert_int_eq(bad, 0);
    /* The four corners appear once each, in walking order. */
    ck_assert(same(cells[8], (pt_cell){18, 3}));
    ck_assert(same(cells[17], (pt_cell){18, 12}));
    ck_assert(same(cells[25], (pt_cell){10, 12}));

    ck_assert_int_eq(run.x, 10);
    ck_assert_int_eq(run.y, 3);
    int wrong = 0;
    for (int t = 1; t <= 1000; t++) {
        int x, y, px = run.x, py = run.y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        pt_cell want = cells[t % 34];
        if (r != PT_STEP_MOVED || x != want.x || y != want.y) wrong++;
        if (fabs(h - atan2(y - py, x - px)) > 1e-12) wrong++; /* heading = direction of the move */
    }
    ck_assert_int_eq(wrong, 0);
}
END_TEST

/* The index sequence of a ping-pong over n cells: 0..n-1, n-2..0, 1, ... (ends once). */
static int pingpong(int t, int n) {
    int period = 2 * (n - 1), k = t % period;
    return k < n ? k : period - k;
}

START_TEST(test_path_reverse_pingpong) {
    const pt_pattern *p = get("gate"); /* (2,2)-(6,2)-(6,4): 7 cells, open, reverse */
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){2, 2}, (pt_cell){2, 2}, 0.0, 1, 1);
    pt_cell cells[16];
    ck_assert_int_eq(pt_patrun_cells(&run, NULL, cells, 16), 7);
    ck_assert(same(cells[6], (pt_cell){6, 4}));
    int wrong = 0, ends = 0;
    pt_cell prev = cells[0];
    for (int t = 1; t <= 1000; t++) {
        int x, y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        pt_cell c = {x, y};
        if (r != PT_STEP_MOVED || !same(c, cells[pingpong(t, 7)]) || !adjacent8(prev, c)) wrong++;
        ends += same(c, cells[0]) || same(c, cells[6]);
        prev = c;
    }
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_eq(ends, 1000 / 6); /* each end once per half period: never twice in a row */
}
END_TEST

START_TEST(test_path_stop) {
    const pt_pattern *p = add("pattern s\nkind path\npoints 0,0 4,0 4,2\nat_end stop\nend\n", "s");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    int moved = 0, done = 0, other = 0;
    for (int t = 0; t < 500; t++) {
        int x, y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        if (r == PT_STEP_MOVED) moved += done == 0;
        else if (r == PT_STEP_DONE) done++;
        else other++;
    }
    ck_assert_int_eq(moved, 6);
    ck_assert_int_eq(done, 494);
    ck_assert_int_eq(other, 0);
    ck_assert_int_eq(run.x, 9);
    ck_assert_int_eq(run.y, 7);
}
END_TEST

/* restart: after the last cell the walker walks the Bresenham segment back to the first
 * cell (never a teleport), then starts again. */
START_TEST(test_path_restart) {
    const pt_pattern *p = add("pattern r\nkind path\npoints 0,0 6,0 6,3\nat_end restart\nend\n", "r");
    pt_patrun run;
    pt_cell o = {4, 4};
    pt_patrun_init(&run, p, o, o, 0.0, 1, 1);
    pt_cell back[16];
    int nb = pt_line_cells(6, 3, 0, 0, back, 16); /* the way back, both ends excluded */
    ck_assert_int_eq(nb, 7);
    pt_cell expect[32];
    int n = 0;
    for (int x = 0; x <= 6; x++) expect[n++] = (pt_cell){o.x + x, o.y};
    for (int y = 1; y <= 3; y++) expect[n++] = (pt_cell){o.x + 6, o.y + y};
    for (int i = 1; i < nb - 1; i++) expect[n++] = (pt_cell){o.x + back[i].x, o.y + back[i].y};
    ck_assert_int_eq(n, 15);
    ck_assert_int_eq(p->ncells, n);
    int wrong = 0;
    pt_cell prev = o;
    for (int t = 1; t <= 1000; t++) {
        int x, y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        pt_cell c = {x, y};
        if (r != PT_STEP_MOVED || !same(c, expect[t % n]) || !adjacent8(prev, c)) wrong++;
        prev = c;
    }
    ck_assert_int_eq(wrong, 0);
}
END_TEST

/* A closed path walked with reverse goes round and back; with stop it ends at cell 0. */
START_TEST(test_path_closed_reverse_and_stop) {
    const pt_pattern *rv = add("pattern cr\nkind path\npoints 0,0 3,0 3,3 0,0\nat_end reverse\nend\n", "cr");
    const pt_pattern *st = add("pattern cs\nkind path\npoints 0,0 3,0 3,3 0,0\nat_end stop\nend\n", "cs");
    ck_assert_int_eq(rv->ncells, 9);
    pt_patrun run;
    pt_cell o = {10, 10};
    pt_patrun_init(&run, rv, o, o, 0.0, 1, 1);
    pt_cell cells[16];
    pt_patrun_cells(&run, NULL, cells, 16);
    int wrong = 0;
    pt_cell prev = o;
    for (int t = 1; t <= 900; t++) { /* the sequence 0..8,0,8..1,0,1.. over 10 positions */
        int x, y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        pt_cell c = {x, y};
        if (r != PT_STEP_MOVED || !same(c, cells[pingpong(t, 10) % 9]) || !adjacent8(prev, c)) wrong++;
        prev = c;
    }
    ck_assert_int_eq(wrong, 0);
    pt_patrun_init(&run, st, o, o, 0.0, 1, 1);
    int moved = 0;
    for (int t = 0; t < 50; t++) moved += pt_patrun_step(&run, &map, NULL, NULL, NULL) == PT_STEP_MOVED;
    ck_assert_int_eq(moved, 9);
    ck_assert_int_eq(run.x, o.x);
    ck_assert_int_eq(run.y, o.y);
    ck_assert_int_eq(pt_patrun_step(&run, &map, NULL, NULL, NULL), PT_STEP_DONE);
}
END_TEST

/* The runner never steps onto a wall: it waits in front of it. */
START_TEST(test_path_blocked_waits) {
    const pt_pattern *p = get("rectangle");
    pt_map_set(&map, 14, 3, '#');
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){10, 3}, (pt_cell){10, 3}, 0.0, 1, 1);
    int waits = 0, on_wall = 0;
    for (int t = 0; t < 200; t++) {
        int x, y;
        double h;
        waits += pt_patrun_step(&run, &map, &x, &y, &h) == PT_STEP_WAITING;
        on_wall += !pt_map_walkable(&map, x, y);
    }
    ck_assert_int_eq(on_wall, 0);
    ck_assert_int_eq(waits, 200 - 3);
    ck_assert_int_eq(run.x, 13);
}
END_TEST

/* The entity's own cell on the path is where it starts (first occurrence). */
START_TEST(test_path_starts_where_entity_stands) {
    const pt_pattern *p = get("rectangle");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){10, 3}, (pt_cell){18, 5}, 0.0, 1, 1);
    ck_assert_int_eq(run.index, 10);
    ck_assert_int_eq(run.x, 18);
    pt_patrun_step(&run, &map, NULL, NULL, NULL);
    ck_assert_int_eq(run.y, 6);
    pt_patrun_init(&run, p, (pt_cell){10, 3}, (pt_cell){0, 0}, 0.0, 1, 1); /* off the path */
    ck_assert_int_eq(run.index, 0);
    ck_assert_int_eq(run.x, 10);
}
END_TEST

/* ---- matrix ----------------------------------------------------------------------------------- */

static int mat_at(const pt_pattern *p, pt_cell o, int x, int y) {
    int mx = x - o.x + p->start_x, my = y - o.y + p->start_y;
    return mx >= 0 && my >= 0 && mx < p->mw && my < p->mh && p->mat[my * p->mw + mx];
}

static int degree(const pt_pattern *p, pt_cell o, pt_cell c) {
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && mat_at(p, o, c.x + dx, c.y + dy) && pt_map_walkable(&map, c.x + dx, c.y + dy)) n++;
    return n;
}

/* 10,000 ticks: always on a 1-cell, an 8-neighbour move each tick, back to the previous
 * cell only at a dead end, and every 1-cell reachable from the start visited. */
static void check_matrix_walk(const pt_pattern *p, pt_cell o, uint64_t seed, int has_dead_ends) {
    pt_patrun run;
    pt_patrun_init(&run, p, o, (pt_cell){-5, -5}, 0.0, seed, 3);
    pt_cell start = {run.x, run.y};
    ck_assert(mat_at(p, o, start.x, start.y));
    /* Reachable 1-cells (flood fill over 8-neighbours), the junctions and dead ends. */
    int w = p->mw, h = p->mh, total = w * h;
    char *reach = calloc((size_t)total, 1), *seen = calloc((size_t)total, 1);
    int *queue = malloc(sizeof(int) * (size_t)total), qh = 0, qt = 0, nreach = 0, junctions = 0, dead_ends = 0;
    int s0 = (start.y - o.y + p->start_y) * w + (start.x - o.x + p->start_x);
    reach[s0] = 1;
    queue[qt++] = s0;
    while (qh < qt) {
        int i = queue[qh++], mx = i % w, my = i / w;
        nreach++;
        pt_cell c = {o.x + mx - p->start_x, o.y + my - p->start_y};
        int d = degree(p, o, c);
        junctions += d >= 3;
        dead_ends += d == 1;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nx = mx + dx, ny = my + dy;
                if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                int j = ny * w + nx;
                if (p->mat[j] && !reach[j] && pt_map_walkable(&map, o.x + nx - p->start_x, o.y + ny - p->start_y)) {
                    reach[j] = 1;
                    queue[qt++] = j;
                }
            }
    }
    ck_assert_int_gt(junctions, 0);
    ck_assert_int_eq(dead_ends > 0, has_dead_ends);
    int off = 0, not_move = 0, bad_reverse = 0, reversals = 0, unreachable = 0, nseen = 0;
    pt_cell cur = start, prev = {-100, -100};
    for (int t = 0; t < 10000; t++) {
        int x, y;
        double hd;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &hd);
        pt_cell c = {x, y};
        if (!mat_at(p, o, x, y) || !pt_map_walkable(&map, x, y)) off++;
        if (r != PT_STEP_MOVED || !adjacent8(cur, c)) not_move++;
        if (same(c, prev)) {
            reversals++;
            if (degree(p, o, cur) != 1) bad_reverse++;
        }
        int mi = (y - o.y + p->start_y) * w + (x - o.x + p->start_x);
        if (mi >= 0 && mi < total) {
            if (!reach[mi]) unreachable++;
            if (!seen[mi]) nseen++;
            seen[mi] = 1;
        }
        prev = cur;
        cur = c;
    }
    ck_assert_int_eq(off, 0);
    ck_assert_int_eq(not_move, 0);
    ck_assert_int_eq(bad_reverse, 0);
    ck_assert_int_eq(reversals > 0, has_dead_ends); /* dead ends were reached and left */
    ck_assert_int_eq(unreachable, 0);
    ck_assert_int_eq(nseen + (seen[s0] ? 0 : 1), nreach);
    free(reach);
    free(seen);
    free(queue);
}

START_TEST(test_matrix_walk_rows) {
    const pt_pattern *p = get("walker");
    check_matrix_walk(p, pt_pattern_origin(p, NULL), 42, 1);
    check_matrix_walk(p, pt_pattern_origin(p, NULL), 7, 1);
}
END_TEST

START_TEST(test_matrix_walk_segments) {
    const pt_pattern *p = get("web"); /* Bourg's figure 3-3, with a spur added below */
    const pt_pattern *q = add("pattern spur\nkind matrix\nsegments 3,2 16,2 16,11 9,11 9,2\n"
                              "segments 9,2 3,6 3,2\nsegments 12,11 12,15\nend\n", "spur");
    check_matrix_walk(p, (pt_cell){16, 2}, 1, 0); /* closed figures: no dead end */
    check_matrix_walk(q, (pt_cell){3, 2}, 99, 1);
}
END_TEST

/* Walls on the map are never entered, even where the matrix has a 1. */
START_TEST(test_matrix_respects_map) {
    const pt_pattern *p = get("walker");
    pt_cell o = {5, 5};
    pt_map_set(&map, 5 + 4, 5 + 1, '#'); /* the middle bar of the walker */
    pt_map_set(&map, 5 + 9, 5 + 2, '~');
    check_matrix_walk(p, o, 5, 1);
}
END_TEST

START_TEST(test_matrix_isolated_and_determinism) {
    const pt_pattern *one = add("pattern one\nkind matrix\nrows\n 000\n 010\n 000\nend\nend\n", "one");
    pt_patrun run;
    pt_patrun_init(&run, one, (pt_cell){3, 3}, (pt_cell){3, 3}, 0.0, 1, 1);
    int waits = 0;
    for (int t = 0; t < 100; t++) waits += pt_patrun_step(&run, &map, NULL, NULL, NULL) == PT_STEP_WAITING;
    ck_assert_int_eq(waits, 100);
    ck_assert_int_eq(run.x, 3);
    /* Same seed and id: the same walk; another id: another walk. */
    const pt_pattern *p = get("walker");
    pt_patrun a, b, c;
    pt_patrun_init(&a, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 77, 4);
    pt_patrun_init(&b, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 77, 4);
    pt_patrun_init(&c, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 77, 5);
    int diff_ab = 0, diff_ac = 0;
    for (int t = 0; t < 500; t++) {
        pt_patrun_step(&a, &map, NULL, NULL, NULL);
        pt_patrun_step(&b, &map, NULL, NULL, NULL);
        pt_patrun_step(&c, &map, NULL, NULL, NULL);
        diff_ab += a.x != b.x || a.y != b.y;
        diff_ac += a.x != c.x || a.y != c.y;
    }
    ck_assert_int_eq(diff_ab, 0);
    ck_assert_int_gt(diff_ac, 0);
}
END_TEST

/* ---- control ---------------------------------------------------------------------------------- */

/* The expected unit step for a heading: the nearest multiple of 45 degrees, ties clockwise. */
static pt_cell expected_dir(double deg) {
    static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1}, dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    int best = 0;
    double bestd = 1e9;
    for (int k = 0; k < 8; k++) {
        double d = fmod(fabs(deg - 45.0 * k), 360.0);
        if (d > 180.0) d = 360.0 - d;
        /* clockwise side of a tie: 45k is ahead of deg */
        double ahead = fmod(45.0 * k - deg + 720.0, 360.0);
        if (d < bestd - 1e-9 || (fabs(d - bestd) <= 1e-9 && ahead < 180.0)) {
            best = k;
            bestd = d;
        }
    }
    return (pt_cell){dx[best], dy[best]};
}

START_TEST(test_control_directions) {
    int wrong = 0, checked = 0;
    /* Headings from the file, every 7.5 degrees (ties at 22.5 + 45k included). */
    for (int k = -48; k < 48; k++) {
        double deg = k * 7.5;
        char text[160], name[32];
        snprintf(name, sizeof name, "h%d", k + 48);
        snprintf(text, sizeof text, "pattern %s\nkind control\nheading %g\nforward 1\nbackward 1\nend\n", name, deg);
        const pt_pattern *p = add(text, name);
        pt_patrun run;
        pt_patrun_init(&run, p, (pt_cell){20, 15}, (pt_cell){20, 15}, 0.0, 1, 1);
        pt_cell want = expected_dir(deg < 0 ? deg + 360.0 : deg);
        pt_patrun_step(&run, &map, NULL, NULL, NULL);
        wrong += run.x != 20 + want.x || run.y != 15 + want.y;
        pt_patrun_step(&run, &map, NULL, NULL, NULL); /* backward: straight back */
        wrong += run.x != 20 || run.y != 15;
        checked++;
    }
    /* Headings from the entity (radians), including ties that went through radians. */
    const pt_pattern *f = add("pattern f\nkind control\nforward 1\nend\n", "f");
    for (int k = 0; k < 720; k++) {
        double deg = k * 0.5;
        pt_patrun run;
        pt_patrun_init(&run, f, (pt_cell){20, 15}, (pt_cell){20, 15}, pt_rad(deg), 1, 1);
        pt_cell want = expected_dir(deg);
        pt_patrun_step(&run, &map, NULL, NULL, NULL);
        wrong += run.x != 20 + want.x || run.y != 15 + want.y;
        checked++;
    }
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_eq(checked, 96 + 720);
    ck_assert(same(expected_dir(22.5), (pt_cell){1, 1})); /* the rule itself: ties clockwise */
    ck_assert(same(expected_dir(337.5), (pt_cell){1, 0}));
}
END_TEST

/* The snake of basic.pat, action by action, then its 4-pass cycle over 400 actions. */
START_TEST(test_control_snake) {
    const pt_pattern *p = get("snake");
    pt_patrun run;
    pt_cell o = {20, 15};
    pt_patrun_init(&run, p, o, o, 1.0 /* ignored: the file says heading 0 */, 1, 1);
    static const struct { int r, dx, dy; double hdeg; } want[] = {
        {PT_STEP_MOVED, 1, 0, 0},     {PT_STEP_MOVED, 2, 0, 0},    {PT_STEP_TURNED, 2, 0, 45},
        {PT_STEP_MOVED, 3, 1, 45},    {PT_STEP_TURNED, 3, 1, 0},   {PT_STEP_MOVED, 4, 1, 0},
        {PT_STEP_TURNED, 4, 1, 315},  {PT_STEP_MOVED, 5, 0, 315},  {PT_STEP_TURNED, 5, 0, 270},
        {PT_STEP_WAITING, 5, 0, 270}, {PT_STEP_MOVED, 5, -1, 270},
    };
    for (int i = 0; i < 11; i++) {
        int x, y;
        double h;
        pt_step_result r = pt_patrun_step(&run, &map, &x, &y, &h);
        ck_assert_msg((int)r == want[i].r && x == o.x + want[i].dx && y == o.y + want[i].dy,
                      "action %d: %d at %d,%d", i, r, x - o.x, y - o.y);
        ck_assert_double_eq_tol(pt_wrap_angle(h - pt_rad(want[i].hdeg)), 0.0, 1e-12);
        if (i == 9) { /* wait 30: thirty held ticks, then free */
            int held = 0;
            for (int t = 0; t < 100; t++) held += pt_patrun_hold_tick(&run);
            ck_assert_int_eq(held, 30);
        }
    }
    /* Each pass turns the snake by -90 degrees: after 4 passes (40 actions) it is back. */
    pt_patrun_init(&run, p, o, o, 0.0, 1, 1);
    pt_cell first[40];
    int wrong = 0;
    for (int t = 0; t < 400; t++) {
        pt_patrun_step(&run, &map, NULL, NULL, NULL);
        pt_patrun_hold_tick(&run);
        pt_cell c = {run.x, run.y};
        if (t < 40) first[t] = c;
        else wrong += !same(c, first[t % 40]);
    }
    ck_assert_int_eq(wrong, 0);
    ck_assert(same(first[39], o));
}
END_TEST

/* A blocked step is skipped (the entity waits that action) and the pattern goes on. */
START_TEST(test_control_blocked_and_stop) {
    const pt_pattern *p = add("pattern b\nkind control\nheading 0\nforward 4\nright 90\nforward 1\nat_end stop\nend\n", "b");
    pt_map_set(&map, 12, 10, '#');
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){10, 10}, (pt_cell){10, 10}, 0.0, 1, 1);
    pt_step_result r[8];
    for (int i = 0; i < 8; i++) r[i] = pt_patrun_step(&run, &map, NULL, NULL, NULL);
    ck_assert_int_eq(r[0], PT_STEP_MOVED);   /* 11,10 */
    ck_assert_int_eq(r[1], PT_STEP_WAITING); /* 12,10 is a wall: skipped */
    ck_assert_int_eq(r[2], PT_STEP_WAITING);
    ck_assert_int_eq(r[3], PT_STEP_WAITING);
    ck_assert_int_eq(r[4], PT_STEP_TURNED);
    ck_assert_int_eq(r[5], PT_STEP_MOVED);
    ck_assert_int_eq(r[6], PT_STEP_DONE);
    ck_assert_int_eq(r[7], PT_STEP_DONE);
    ck_assert_int_eq(run.x, 11);
    ck_assert_int_eq(run.y, 11);
}
END_TEST

/* ---- thrust ----------------------------------------------------------------------------------- */

typedef struct leg_log {
    double leg_angle[64]; /* heading at the end of each straight leg */
    pt_vec2 leg_end[64];
    int nlegs;
    pt_vec2 lap_start[16], lap_end[16];
    int nlaps;
    int nan;
} leg_log;

/* Runs until `laps` laps are done, logging the end of each straight (thruster none) leg. */
static void run_laps(pt_patrun *run, int laps, double dt, leg_log *log) {
    memset(log, 0, sizeof *log);
    const pt_pattern *p = run->pat;
    log->lap_start[0] = run->thrust.pos;
    int idx = run->thrust.index;
    for (long t = 0; t < 200000 && log->nlaps < laps; t++) {
        pt_patrun_thrust_tick(run, dt);
        if (!pt_v2_is_finite(run->thrust.pos) || !isfinite(run->thrust.angle)) log->nan++;
        if (run->thrust.index == idx) continue;
        if (p->thr[idx].thruster == PT_THRUST_NONE && log->nlegs < 64) {
            log->leg_angle[log->nlegs] = run->thrust.angle;
            log->leg_end[log->nlegs++] = run->thrust.pos;
        }
        if (run->thrust.index == 0) {
            log->lap_end[log->nlaps++] = run->thrust.pos;
            if (log->nlaps < 16) log->lap_start[log->nlaps] = run->thrust.pos;
        }
        idx = run->thrust.index;
    }
}

/* Tolerances (stated in docs/formats.md): with the default body at 30, 60 and 120 Hz, one
 * lap of the square (6-tile legs, 90-degree port turns) ends within 0.5 tile of its start
 * (measured 0.09-0.13), later laps within 0.01 (measured < 0.0001), and each turn changes
 * the leg heading by 90 +- 2 degrees (measured within 0.84). */
START_TEST(test_thrust_square) {
    const pt_pattern *p = get("square");
    double dts[] = {DT, 1.0 / 30.0, 1.0 / 120.0};
    for (int k = 0; k < 3; k++) {
        pt_patrun run;
        pt_patrun_init(&run, p, (pt_cell){20, 20}, (pt_cell){20, 20}, 0.0, 1, 1);
        ck_assert_double_eq(run.thrust.pos.x, 20.5);
        leg_log log;
        run_laps(&run, 5, dts[k], &log);
        ck_assert_int_eq(log.nan, 0);
        ck_assert_int_eq(log.nlaps, 5);
        ck_assert_int_eq(log.nlegs, 20);
        ck_assert_msg(pt_v2_dist(log.lap_end[0], log.lap_start[0]) < 0.5, "dt %g: lap 1 ends %.3f from its start", dts[k],
                      pt_v2_dist(log.lap_end[0], log.lap_start[0]));
        for (int l = 1; l < 5; l++) ck_assert(pt_v2_dist(log.lap_end[l], log.lap_start[l]) < 0.01);
        for (int i = 1; i < log.nlegs; i++) {
            double turn = pt_deg(pt_wrap_angle(log.leg_angle[i] - log.leg_angle[i - 1]));
            ck_assert_msg(fabs(turn - 90.0) <= 2.0, "dt %g: turn %d is %.3f degrees", dts[k], i, turn);
        }
        /* A square: the four leg ends of a lap are ~equally spaced, the first leg heads east,
         * and port turns clockwise (the second leg heads south: y grows). */
        for (int i = 4; i < 8; i++) {
            double side = pt_v2_dist(log.leg_end[i], log.leg_end[i + 1]);
            double side0 = pt_v2_dist(log.leg_end[4], log.leg_end[5]);
            ck_assert(fabs(side - side0) < 0.1);
            ck_assert_msg(side0 > 9.0 && side0 < 11.5, "side %.3f", side0); /* 6 straight + the turns */
        }
        ck_assert(fabs(log.leg_angle[0]) < 1e-9);
        ck_assert(log.leg_end[1].y > log.leg_end[0].y + 4.0);
    }
}
END_TEST

/* Zig-zag: legs alternate about the mean heading (east), each turn 60 +- 3 degrees
 * (measured within 1.7), and the vehicle makes steady progress east. */
START_TEST(test_thrust_zigzag) {
    const pt_pattern *p = add("pattern zz\nkind thrust\nheading -30\nfire none distance=3\nfire port turn=60\n"
                              "fire none distance=3\nfire starboard turn=60\nend\n", "zz");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){5, 15}, (pt_cell){5, 15}, 0.0, 1, 1);
    leg_log log;
    run_laps(&run, 4, DT, &log);
    ck_assert_int_eq(log.nan, 0);
    ck_assert_int_eq(log.nlegs, 8);
    for (int i = 1; i < log.nlegs; i++) {
        double turn = pt_deg(pt_wrap_angle(log.leg_angle[i] - log.leg_angle[i - 1]));
        double want = i % 2 ? 60.0 : -60.0;
        ck_assert_msg(fabs(turn - want) <= 3.0, "turn %d is %.3f", i, turn);
    }
    for (int l = 0; l < 4; l++) {
        ck_assert(log.lap_end[l].x - log.lap_start[l].x > 8.0);
        ck_assert(fabs(log.lap_end[l].y - 15.5) < 1.5);
    }
}
END_TEST

START_TEST(test_thrust_starboard_time_and_stop) {
    const pt_pattern *p = add("pattern st\nkind thrust\nheading 0\nfire starboard turn=90\nfire none time=2\n"
                              "at_end stop\nend\n", "st");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){20, 20}, (pt_cell){20, 20}, 0.0, 1, 1);
    int t = 0;
    while (run.thrust.index == 0 && t < 10000) {
        pt_patrun_thrust_tick(&run, DT);
        t++;
    }
    /* starboard turns counter-clockwise: toward north (-90 degrees) */
    ck_assert(fabs(pt_deg(run.thrust.angle) + 90.0) < 3.0);
    int t1 = t;
    while (!run.thrust.done && t < 10000) {
        pt_patrun_thrust_tick(&run, DT);
        t++;
    }
    ck_assert_int_eq(t - t1, 120); /* time=2 at 60 Hz */
    for (int i = 0; i < 1200; i++) pt_patrun_thrust_tick(&run, DT);
    ck_assert(pt_v2_len(run.thrust.vel) < 0.01); /* engine off: coasts to rest */
    ck_assert_int_eq(run.x, (int)floor(run.thrust.pos.x));
}
END_TEST

/* Extreme bodies stay finite: heavy drag (the vehicle hardly moves), a feather, and a heading
 * limit measured at rest (no velocity: the body's facing is used, never NaN). */
START_TEST(test_thrust_extreme_bodies_finite) {
    const pt_pattern *a = add("pattern ex1\nkind thrust\nbody thrust=0.000001 drag=1000000 angular_drag=1000000\n"
                              "fire port turn=45\nfire none distance=1\nend\n", "ex1");
    const pt_pattern *b = add("pattern ex2\nkind thrust\nbody mass=0.001 inertia=0.0001 thrust=1000000 turn_thrust=1000000 "
                              "lateral_drag=1000000\nfire port turn=170\nfire starboard time=0.5\nend\n", "ex2");
    const pt_pattern *ps[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        pt_patrun run;
        pt_patrun_init(&run, ps[k], (pt_cell){20, 20}, (pt_cell){20, 20}, 0.3, 1, 1);
        int bad = 0;
        for (int t = 0; t < 5000; t++) {
            pt_patrun_thrust_tick(&run, DT);
            bad += !pt_v2_is_finite(run.thrust.pos) || !pt_v2_is_finite(run.thrust.vel) || !isfinite(run.thrust.angle) ||
                   !isfinite(run.thrust.dheading_deg) || !isfinite(run.thrust.f);
        }
        ck_assert_int_eq(bad, 0);
    }
}
END_TEST

/* ---- resume after a chase --------------------------------------------------------------------- */

/* A runner copied at tick k (the chase starts), resumed at the cell an undisturbed run is in at
 * tick j, continues exactly as the undisturbed run after j. */
START_TEST(test_resume_path) {
    const char *names[] = {"rectangle", "gate"};
    for (int n = 0; n < 2; n++) {
        const pt_pattern *p = get(names[n]);
        pt_cell o = pt_pattern_origin(p, NULL);
        static pt_patrun hist[700];
        pt_patrun_init(&hist[0], p, o, o, 0.0, 1, 1);
        for (int t = 1; t < 700; t++) {
            hist[t] = hist[t - 1];
            pt_patrun_step(&hist[t], &map, NULL, NULL, NULL);
        }
        int checked = 0;
        for (int k = 100; k < 140; k += 3)
            for (int j = 150; j < 190; j += 7) {
                if (hist[j].dir != hist[k].dir) continue; /* resume keeps the chase-time direction */
                pt_patrun b = hist[k];
                ck_assert_int_eq(pt_patrun_resume_at(&b, &map, hist[j].x, hist[j].y), 1);
                int wrong = 0;
                for (int t = j + 1; t < j + 400; t++) {
                    pt_patrun_step(&b, &map, NULL, NULL, NULL);
                    wrong += b.x != hist[t].x || b.y != hist[t].y;
                }
                ck_assert_int_eq(wrong, 0);
                checked++;
            }
        ck_assert_int_gt(checked, 10);
        /* Not a pattern cell: refused, runner untouched. */
        pt_patrun b = hist[5], keep = hist[5];
        ck_assert_int_eq(pt_patrun_resume_at(&b, &map, 0, 29), 0);
        ck_assert_int_eq(memcmp(&b, &keep, sizeof b), 0);
    }
}
END_TEST

START_TEST(test_resume_control) {
    const pt_pattern *p = get("snake");
    pt_cell o = {20, 15};
    static pt_patrun hist[200];
    pt_patrun_init(&hist[0], p, o, o, 0.0, 1, 1);
    for (int t = 1; t < 200; t++) {
        hist[t] = hist[t - 1];
        pt_patrun_step(&hist[t], &map, NULL, NULL, NULL);
        hist[t].wait_ticks = 0;
    }
    int checked = 0;
    /* hist[50] is the start of pass 6 (10 actions a pass); resume within that pass. */
    for (int j = 50; j < 60; j++) {
        int first = 1;
        for (int i = 50; i < j; i++) first &= !(hist[i].x == hist[j].x && hist[i].y == hist[j].y);
        if (!first) continue;
        pt_patrun b = hist[57];
        ck_assert_int_eq(pt_patrun_resume_at(&b, &map, hist[j].x, hist[j].y), 1);
        ck_assert_int_eq(b.index, hist[j].index);
        ck_assert_int_eq(b.sub, hist[j].sub);
        int wrong = 0;
        for (int t = j + 1; t < 200; t++) {
            pt_patrun_step(&b, &map, NULL, NULL, NULL);
            wrong += b.x != hist[t].x || b.y != hist[t].y || b.heading_deg != hist[t].heading_deg;
        }
        ck_assert_int_eq(wrong, 0);
        checked++;
    }
    ck_assert_int_ge(checked, 5);
    pt_patrun b = hist[57];
    ck_assert_int_eq(pt_patrun_resume_at(&b, &map, 0, 0), 0);
}
END_TEST

START_TEST(test_resume_thrust) {
    const pt_pattern *p = get("square");
    pt_cell o = {20, 20};
    enum { N = 4000 };
    pt_patrun *hist = malloc(sizeof *hist * N);
    pt_patrun_init(&hist[0], p, o, o, 0.0, 1, 1);
    for (int t = 1; t < N; t++) {
        hist[t] = hist[t - 1];
        pt_patrun_thrust_tick(&hist[t], DT);
    }
    /* k in lap 2; for cells entered during lap 2 (first time in the lap), resuming there
     * reproduces the undisturbed run bit for bit. */
    int lap2 = 0;
    while (lap2 < N - 1 && hist[lap2].lap.pos.x == hist[0].lap.pos.x && hist[lap2].lap.pos.y == hist[0].lap.pos.y) lap2++;
    ck_assert_int_lt(lap2 + 1000, N);
    int k = lap2 + 300, checked = 0;
    for (int j = lap2 + 1; j < lap2 + 1000; j += 37) {
        /* the first tick of this stay in the cell, and no earlier stay in this lap */
        int j0 = j;
        while (j0 > lap2 && hist[j0 - 1].x == hist[j].x && hist[j0 - 1].y == hist[j].y) j0--;
        int first = 1;
        for (int i = lap2; i < j0 && first; i++) first = !(hist[i].x == hist[j].x && hist[i].y == hist[j].y);
        if (!first) continue;
        pt_patrun b = hist[k];
        ck_assert_int_eq(pt_patrun_resume_at(&b, &map, hist[j0].x, hist[j0].y), 1);
        int wrong = 0;
        for (int t = j0 + 1; t < j0 + 800 && t < N; t++) {
            pt_patrun_thrust_tick(&b, DT);
            wrong += b.thrust.pos.x != hist[t].thrust.pos.x || b.thrust.pos.y != hist[t].thrust.pos.y;
        }
        ck_assert_int_eq(wrong, 0);
        checked++;
    }
    ck_assert_int_ge(checked, 5);
    free(hist);
}
END_TEST

START_TEST(test_resume_matrix_and_waypoints) {
    const pt_pattern *m = get("walker");
    pt_patrun run;
    pt_patrun_init(&run, m, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    for (int t = 0; t < 20; t++) pt_patrun_step(&run, &map, NULL, NULL, NULL);
    pt_patrun keep = run;
    ck_assert_int_eq(pt_patrun_resume_at(&run, &map, 5 + 5, 5 + 1), 0); /* a 0-cell */
    ck_assert_int_eq(memcmp(&run, &keep, sizeof run), 0);
    ck_assert_int_eq(pt_patrun_resume_at(&run, &map, 5 + 4, 5 + 6), 1); /* the spur */
    ck_assert_int_eq(run.prev_x, -1);
    ck_assert_int_eq(pt_patrun_step(&run, &map, NULL, NULL, NULL), PT_STEP_MOVED);
    ck_assert_int_eq(run.x, 9); /* the spur's end: only one way to go */
    ck_assert_int_eq(run.y, 10);

    const pt_pattern *w = get("route");
    pt_patrun_init(&run, w, (pt_cell){3, 4}, (pt_cell){3, 4}, 0.0, 1, 1);
    ck_assert_int_eq(pt_patrun_waypoint_count(&run), 3);
    ck_assert_double_eq(pt_patrun_waypoint(&run, 2).y, 9.5);
    ck_assert_int_eq(pt_patrun_resume_at(&run, &map, 10, 7), 1); /* on segment 1 -> 2 */
    ck_assert_int_eq(run.wp_index, 2);
    ck_assert_int_eq(pt_patrun_resume_at(&run, &map, 7, 7), 1); /* on the closing segment */
    ck_assert_int_eq(run.wp_index, 0);
    ck_assert_int_eq(pt_patrun_resume_at(&run, &map, 20, 20), 0);
    /* Placed elsewhere: shifted by whole tiles. */
    pt_patrun_init(&run, w, (pt_cell){13, 4}, (pt_cell){3, 4}, 0.0, 1, 1);
    ck_assert_double_eq(pt_patrun_waypoint(&run, 0).x, 13.5);
}
END_TEST

/* ---- cells ------------------------------------------------------------------------------------ */

START_TEST(test_cells_of_each_kind) {
    pt_patrun run;
    pt_cell buf[2048];
    /* matrix: every 1-cell, in reading order */
    const pt_pattern *m = get("walker");
    pt_patrun_init(&run, m, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    int ones = 0;
    for (int i = 0; i < m->mw * m->mh; i++) ones += m->mat[i];
    ck_assert_int_eq(pt_patrun_cells(&run, NULL, buf, 2048), ones);
    ck_assert(same(buf[0], (pt_cell){5, 5}));
    pt_map_set(&map, 6, 5, '#');
    ck_assert_int_eq(pt_patrun_cells(&run, &map, buf, 2048), ones - 1); /* walls left out */
    /* control: the cells of one pass, from where the pass began */
    const pt_pattern *c = get("snake");
    pt_patrun_init(&run, c, (pt_cell){20, 15}, (pt_cell){20, 15}, 0.0, 1, 1);
    static const int want[][2] = {{20, 15}, {21, 15}, {22, 15}, {23, 16}, {24, 16}, {25, 15}};
    ck_assert_int_eq(pt_patrun_cells(&run, &map, buf, 2048), 6);
    for (int i = 0; i < 6; i++) ck_assert(same(buf[i], (pt_cell){want[i][0], want[i][1]}));
    /* thrust: one lap of cells under the vehicle, 8-connected, back near the start */
    const pt_pattern *q = get("square");
    pt_patrun_init(&run, q, (pt_cell){20, 20}, (pt_cell){20, 20}, 0.0, 1, 1);
    int n = pt_patrun_cells(&run, NULL, buf, 2048);
    ck_assert_int_gt(n, 20);
    ck_assert_int_lt(n, 2048);
    int bad = 0;
    for (int i = 1; i < n; i++) bad += !adjacent8(buf[i - 1], buf[i]);
    ck_assert_int_eq(bad, 0);
    ck_assert(same(buf[0], (pt_cell){20, 20}));
    ck_assert(abs(buf[n - 1].x - 20) <= 1 && abs(buf[n - 1].y - 20) <= 1);
    /* waypoints: the segments' cells, closing back to the first */
    const pt_pattern *w = get("route");
    pt_patrun_init(&run, w, (pt_cell){3, 4}, (pt_cell){3, 4}, 0.0, 1, 1);
    n = pt_patrun_cells(&run, NULL, buf, 2048);
    ck_assert_int_eq(n, 8 + 5 + 7); /* 3..10 on row 4, 5..9 on column 10, 7 on the way back */
    ck_assert(same(buf[0], (pt_cell){3, 4}));
    /* truncation: the total is returned, only max written */
    ck_assert_int_eq(pt_patrun_cells(&run, NULL, buf, 3), n);
}
END_TEST

/* ---- lint ------------------------------------------------------------------------------------- */

static int lint(const char *name, pt_cell origin, pt_error *errs, int max) {
    return pt_pattern_lint(get(name), &map, origin, 0.0, errs, max);
}

START_TEST(test_lint_path) {
    pt_error e[64];
    ck_assert_int_eq(lint("rectangle", (pt_cell){10, 3}, e, 64), 0);
    pt_map_set(&map, 14, 3, '#');  /* on the first segment: located at its first vertex */
    pt_map_set(&map, 18, 3, '~');  /* a vertex: located at the vertex itself */
    pt_map_set(&map, 10, 7, '#');  /* on the closing segment, written on line 7 */
    ck_assert_int_eq(lint("rectangle", (pt_cell){10, 3}, e, 64), 3);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_int_eq(e[0].line, 6);
    ck_assert_int_eq(e[0].col, 10);
    ck_assert_str_eq(e[0].file, BASIC);
    ck_assert_ptr_nonnull(strstr(e[0].message, "14,3"));
    ck_assert_int_eq(e[1].line, 6);
    ck_assert_int_eq(e[1].col, 15);
    ck_assert_int_eq(e[2].line, 7);
    ck_assert_int_eq(e[2].col, 10);
    /* Placed too far right: every cell past x = 39 leaves the 40-wide map. */
    pt_map_fini(&map);
    pt_error err;
    pt_map_init_blank(&map, 40, 30, &err);
    pt_patrun run;
    pt_patrun_init(&run, get("rectangle"), (pt_cell){35, 3}, (pt_cell){35, 3}, 0.0, 1, 1);
    pt_cell cells[64];
    int n = pt_patrun_cells(&run, NULL, cells, 64), outside = 0;
    for (int i = 0; i < n; i++) outside += cells[i].x >= 40;
    ck_assert_int_gt(outside, 0);
    ck_assert_int_eq(lint("rectangle", (pt_cell){35, 3}, e, 64), outside);
    for (int i = 0; i < outside; i++) ck_assert_int_eq(e[i].code, PT_ERR_PATTERN_LEAVES);
    /* max bounds what is written, not what is counted */
    ck_assert_int_eq(lint("rectangle", (pt_cell){35, 3}, e, 2), outside);
    ck_assert_int_eq(lint("rectangle", (pt_cell){35, 3}, NULL, 0), outside);
}
END_TEST

START_TEST(test_lint_restart_way_back) {
    const pt_pattern *p = add("pattern rb\nkind path\npoints 0,0 6,0 6,3\n  at_end restart\nend\n", "rb");
    pt_cell back[8];
    pt_line_cells(6, 3, 0, 0, back, 8);
    pt_map_set(&map, 10 + back[3].x, 10 + back[3].y, '#');
    pt_error e[4];
    ck_assert_int_eq(pt_pattern_lint(p, &map, (pt_cell){10, 10}, 0.0, e, 4), 1);
    ck_assert_int_eq(e[0].line, 4); /* the way back is located at the at_end value */
    ck_assert_int_eq(e[0].col, 10);
}
END_TEST

START_TEST(test_lint_matrix) {
    pt_error e[8];
    ck_assert_int_eq(lint("walker", (pt_cell){5, 5}, e, 8), 0);
    pt_map_set(&map, 5 + 4, 5 + 1, '#'); /* row 1 (line 22), character 4 (column 5 + 4) */
    ck_assert_int_eq(lint("walker", (pt_cell){5, 5}, e, 8), 1);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_int_eq(e[0].line, 22);
    ck_assert_int_eq(e[0].col, 9);
    pt_map_set(&map, 5 + 4, 5 + 1, '.');
    /* segments: a cell inside the diagonal 9,2 -> 3,6 is located at 9,2 on line 35 */
    ck_assert_int_eq(lint("web", (pt_cell){16, 2}, e, 8), 0);
    pt_map_set(&map, 6, 4, '#');
    ck_assert_int_eq(lint("web", (pt_cell){16, 2}, e, 8), 1);
    ck_assert_int_eq(e[0].line, 35);
    ck_assert_int_eq(e[0].col, 12);
    pt_map_set(&map, 16, 11, '#'); /* a vertex on line 34 */
    ck_assert_int_eq(lint("web", (pt_cell){16, 2}, e, 8), 2);
    ck_assert_int_eq(e[0].line, 34);
    ck_assert_int_eq(e[0].col, 21);
}
END_TEST

START_TEST(test_lint_control_and_thrust) {
    pt_error e[8];
    ck_assert_int_eq(lint("snake", (pt_cell){20, 15}, e, 8), 0);
    pt_map_set(&map, 22, 15, '#'); /* the second step of `forward 2` (line 42) */
    ck_assert_int_eq(lint("snake", (pt_cell){20, 15}, e, 8), 3); /* and the diagonals beside it (line 45) */
    ck_assert_int_eq(e[1].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[1].line, 45);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_int_eq(e[0].line, 42);
    ck_assert_int_eq(e[0].col, 3);
    /* Later passes are linted too: the snake's second pass heads north (270). */
    pt_map_set(&map, 22, 15, '.');
    pt_map_set(&map, 25, 13, '#');
    ck_assert_int_eq(lint("snake", (pt_cell){20, 15}, e, 8), 3); /* and two diagonal steps beside it */
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_int_eq(e[1].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[0].line, 42);

    ck_assert_int_eq(lint("square", (pt_cell){20, 10}, e, 8), 0);
    pt_map_set(&map, 24, 10, '#'); /* on the first straight leg (line 56) */
    ck_assert_int_eq(lint("square", (pt_cell){20, 10}, e, 8), 1);
    ck_assert_int_eq(e[0].line, 56);
    ck_assert_int_eq(e[0].col, 5);
    /* Near the map edge the lap leaves the map. */
    ck_assert_int_ge(lint("square", (pt_cell){36, 5}, e, 8), 1);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_LEAVES);
    /* A distance the circling vehicle never reaches. */
    const pt_pattern *p = add("pattern never\nkind thrust\nfire none distance=1\n fire port distance=50\nend\n", "never");
    ck_assert_int_eq(pt_pattern_lint(p, &map, (pt_cell){20, 15}, 0.0, e, 8), 1);
    ck_assert_int_eq(e[0].code, PT_ERR_RANGE);
    ck_assert_int_eq(e[0].line, 4);
    ck_assert_int_eq(e[0].col, 2);
}
END_TEST

START_TEST(test_lint_waypoints_and_map) {
    pt_error e[8];
    ck_assert_int_eq(lint("route", (pt_cell){3, 4}, e, 8), 0);
    pt_map_set(&map, 10, 7, '#'); /* on 10.5,4.5 -> 10.5,9.5: located at the first point */
    ck_assert_int_eq(lint("route", (pt_cell){3, 4}, e, 8), 1);
    ck_assert_int_eq(e[0].line, 63);
    ck_assert_int_eq(e[0].col, 18);

    /* Every entity of a map, as the world places it. */
    pt_map_set(&map, 10, 7, '.');
    map.ents = calloc(3, sizeof *map.ents);
    map.nents = 3;
    snprintf(map.path, sizeof map.path, "castle.map");
    const char *pats[3] = {"gate", "basic.pat:rectangle", "nope"};
    for (int i = 0; i < 3; i++) {
        pt_entity_def *d = &map.ents[i];
        d->kind = PT_KIND_GUARD;
        snprintf(d->name, sizeof d->name, "g%d", i);
        snprintf(d->pattern, sizeof d->pattern, "%s", pats[i]);
        d->x = 2;
        d->y = 20;
        d->line = 30 + i;
        d->col = 7;
    }
    pt_map_set(&map, 12, 3, '#'); /* on the rectangle (file origin 10,3) */
    ck_assert_int_eq(pt_patlib_lint_map(&lib, &map, e, 8), 2);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED);
    ck_assert_ptr_nonnull(strstr(e[0].message, "'g1'"));
    ck_assert_int_eq(e[1].code, PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(e[1].line, 32);
    ck_assert_int_eq(e[1].col, 7);
    ck_assert_str_eq(e[1].file, "castle.map");
}
END_TEST

/* ---- no corner cutting ------------------------------------------------------------------- */

/* Regression: path, matrix and control walkers stepped diagonally between two walls touching
 * at a corner (2,2 -> 3,3 with walls at 3,2 and 2,3), and past a single wall beside a
 * diagonal step, while A* and the player did not. On generated maps full of diagonal corners,
 * random patterns of each tile kind run for many actions: every move is to an 8-neighbour,
 * walkable, and never past a non-walkable corner; and the walkers do make diagonal moves. */
/* The tables of the matrix walk (pattern_step.c) against their definitions: every 3x3
 * walkability block against pt_map_step_ok, inside the map and along its edges, and every
 * 8-bit mask's set bits against a bit loop. Runner and troop share them, so comparing the
 * two cannot find a wrong entry. */
START_TEST(test_step_tables) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 5, 4, &err), PT_OK);
    int bad = 0, inside = 0;
    for (unsigned b = 0; b < 512; b++) {
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                pt_map_set(&m, 2 + dx, 2 + dy, b >> (3 * (dy + 1) + 1 - dx) & 1u ? '.' : '#');
        pt__walkmap v = pt__walkmap_of(&m);
        for (int y = -1; y <= m.h; y++)
            for (int x = -1; x <= m.w; x++) {
                unsigned want = 0;
                for (int k = 0; k < 8; k++)
                    if (pt_map_step_ok(&m, x, y, x + pt__dir_dx[k], y + pt__dir_dy[k])) want |= 1u << k;
                bad += pt__step_mask(&v, x, y) != want;
                inside += (unsigned)x - 1u < v.xin && (unsigned)y - 1u < v.yin;
            }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(inside, 512 * 2 * 2); /* (1,1), (2,1), (1,2), (2,2) read the block table */
    pt_map_fini(&m);
    for (unsigned mask = 0; mask < 256; mask++) {
        unsigned n = 0;
        for (unsigned k = 0; k < 8; k++)
            if (mask >> k & 1u) bad += pt__bit_select[mask * 8 + n++] != k;
        bad += pt__bit_count[mask] != n;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_tile_walkers_never_cut_corners) {
    long moves[3] = {0}, diagonal[3] = {0}, refused = 0; /* path, matrix, control */
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_map m;
        tu_corner_map(&m, 30, 22, seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 3);
        char text[4096];
        int n = 0;
        for (int i = 0; i < 12; i++) { /* paths of random (mostly diagonal) segments */
            n += snprintf(text + n, sizeof text - (size_t)n, "pattern p%d\n kind path\n points", i);
            for (int v = 0; v < 4; v++)
                n += snprintf(text + n, sizeof text - (size_t)n, " %d,%d", 1 + (int)pt_rng_below(&r, 28),
                              1 + (int)pt_rng_below(&r, 20));
            n += snprintf(text + n, sizeof text - (size_t)n, "\n at_end %s\nend\n", i % 2 ? "reverse" : "restart");
        }
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "pattern blob\n kind matrix\n rows\n  11111111\n  11111111\n  11111111\n  11111111\n"
                      "  11111111\n  11111111\n end\nend\n"
                      "pattern zig\n kind control\n heading 45\n forward 3\n right 90\n forward 2\n left 45\n"
                      " forward 2\n backward 1\n left 135\nend\n");
        pt_patlib pl;
        pt_error err;
        pt_patlib_init(&pl);
        ck_assert_int_eq(pt_patlib_parse(&pl, text, strlen(text), "corner.pat", &err), PT_OK);
        for (int k = 0; k < 14; k++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", k);
            const pt_pattern *p = pt_patlib_find(&pl, k == 12 ? "blob" : k == 13 ? "zig" : name);
            ck_assert_ptr_nonnull(p);
            for (int rep = 0; rep < 4; rep++) {
                pt_cell o = {1 + (int)pt_rng_below(&r, 28), 1 + (int)pt_rng_below(&r, 20)};
                if (p->kind == PT_PAT_PATH) o = (pt_cell){(int)p->verts[0].x, (int)p->verts[0].y}; /* as written */
                pt_patrun run;
                pt_patrun_init(&run, p, o, o, pt_rad(45.0 * rep), seed, (uint32_t)(k * 4 + rep));
                int x = run.x, y = run.y;
                for (int a = 0; a < 400; a++) {
                    int nx, ny;
                    pt_step_result res = pt_patrun_step(&run, &m, &nx, &ny, NULL);
                    if (nx == x && ny == y) {
                        refused += res == PT_STEP_WAITING;
                        continue;
                    }
                    ck_assert_msg(abs(nx - x) <= 1 && abs(ny - y) <= 1, "%s jumped %d,%d -> %d,%d", p->name, x, y, nx, ny);
                    ck_assert_msg(pt_map_walkable(&m, nx, ny), "%s onto a wall at %d,%d", p->name, nx, ny);
                    ck_assert_msg(!tu_cuts_corner(&m, x, y, nx, ny), "%s (seed %d) cut a corner: %d,%d -> %d,%d", p->name,
                                  (int)seed, x, y, nx, ny);
                    int kind = p->kind == PT_PAT_PATH ? 0 : p->kind == PT_PAT_MATRIX ? 1 : 2;
                    moves[kind]++;
                    diagonal[kind] += nx != x && ny != y;
                    x = nx;
                    y = ny;
                }
            }
        }
        pt_patlib_fini(&pl);
        pt_map_fini(&m);
    }
    for (int kind = 0; kind < 3; kind++) {
        ck_assert_int_gt(moves[kind], 5000);
        ck_assert_int_gt(diagonal[kind], moves[kind] / 10);
    }
    ck_assert_int_gt(refused, 0);
}
END_TEST

/* Regression: `patrol check` accepted patterns whose steps cut a non-walkable corner (the
 * walkers then took them). A path's diagonal step past a wall is PT_ERR_PATTERN_CORNER at the
 * point that starts its segment (restart's way back: at the at_end value), once per corner;
 * a control pattern's at the instruction. */
START_TEST(test_lint_corner_path_and_control) {
    const char *text = "pattern cut\n"        /* line 1 */
                       " kind path\n"
                       " points 2,2 6,2 8,4\n" /* line 3: 6,2 -> 7,3 -> 8,4 */
                       " points 8,8\n"         /* line 4 */
                       " at_end restart\n"     /* line 5: the way back 8,8 -> 2,2 is diagonal */
                       "end\n"
                       "pattern ctl\n kind control\n heading 0\n forward 2\n right 45\n forward 2\n at_end stop\nend\n";
    const pt_pattern *p = add(text, "cut");
    pt_error e[16];
    ck_assert_int_eq(pt_pattern_lint(p, &map, (pt_cell){2, 2}, 0.0, e, 16), 0);
    pt_map_set(&map, 7, 2, '#'); /* beside 6,2 -> 7,3 */
    pt_map_set(&map, 3, 2, '~'); /* beside the way back's 3,3 -> 2,2 (and 2,3 stays floor) */
    pt_map_set(&map, 2, 3, '#'); /* both beside it: one report for the corner */
    ck_assert_int_eq(pt_pattern_lint(p, &map, (pt_cell){2, 2}, 0.0, e, 16), 3);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_BLOCKED); /* 3,2 is a cell of the path */
    ck_assert_int_eq(e[1].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[1].line, 3);
    ck_assert_int_eq(e[1].col, 13); /* the segment 6,2 -> 8,4 starts at 6,2 */
    ck_assert_ptr_nonnull(strstr(e[1].message, "7,2"));
    ck_assert_int_eq(e[2].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[2].line, 5);
    ck_assert_int_eq(e[2].col, 9);
    ck_assert_str_eq(e[1].file, "extra.pat");
    /* control: forward 2 east from 30,20, then south-east: 32,20 -> 33,21 passes beside 32,21 */
    const pt_pattern *c = get("ctl");
    ck_assert_int_eq(pt_pattern_lint(c, &map, (pt_cell){30, 20}, 0.0, e, 16), 0);
    pt_map_set(&map, 32, 21, '#');
    ck_assert_int_eq(pt_pattern_lint(c, &map, (pt_cell){30, 20}, 0.0, e, 16), 1);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[0].line, 12);
    ck_assert_int_eq(e[0].col, 2);
}
END_TEST

/* A matrix walk never cuts a corner; lint calls that an error only when it splits the
 * matrix (no other way between the two cells), at the first of them. */
START_TEST(test_lint_corner_matrix_split) {
    const char *text = "pattern stairs\n kind matrix\n rows\n  1100\n  0110\n  0011\n end\nend\n"
                       "pattern diag\n kind matrix\n rows\n  100\n  010\n  001\n end\nend\n";
    const pt_pattern *st = add(text, "stairs"), *dg = get("diag");
    pt_error e[16];
    ck_assert_int_eq(pt_pattern_lint(st, &map, (pt_cell){5, 5}, 0.0, e, 16), 0);
    ck_assert_int_eq(pt_pattern_lint(dg, &map, (pt_cell){20, 5}, 0.0, e, 16), 0);
    pt_map_set(&map, 6, 7, '#'); /* beside stairs' 6,6 -> 7,7, which 6,6 -> 7,6 -> 7,7 joins anyway */
    ck_assert_int_eq(pt_pattern_lint(st, &map, (pt_cell){5, 5}, 0.0, e, 16), 0);
    pt_map_set(&map, 21, 5, '#'); /* beside diag's 20,5 -> 21,6: the only way, so a split */
    ck_assert_int_eq(pt_pattern_lint(dg, &map, (pt_cell){20, 5}, 0.0, e, 16), 1);
    ck_assert_int_eq(e[0].code, PT_ERR_PATTERN_CORNER);
    ck_assert_int_eq(e[0].line, 12); /* row "100": the first cell of the pair */
    ck_assert_int_eq(e[0].col, 3);
    pt_map_set(&map, 22, 6, '#'); /* and beside 21,6 -> 22,7: a second split */
    ck_assert_int_eq(pt_pattern_lint(dg, &map, (pt_cell){20, 5}, 0.0, e, 16), 2);
    ck_assert_int_eq(e[1].line, 13);
    ck_assert_int_eq(e[1].col, 4);
}
END_TEST

static Suite *pattern_run_suite(void) {
    Suite *s = suite_create("pattern_run");
    TCase *path = tcase_create("path");
    tcase_add_checked_fixture(path, setup, teardown);
    tcase_add_test(path, test_path_rectangle_loop);
    tcase_add_test(path, test_look_stands_and_sweeps);
    tcase_add_test(path, test_look_default_sweep);
    tcase_add_test(path, test_gaits);
    tcase_add_test(path, test_path_reverse_pingpong);
    tcase_add_test(path, test_path_stop);
    tcase_add_test(path, test_path_restart);
    tcase_add_test(path, test_path_closed_reverse_and_stop);
    tcase_add_test(path, test_path_blocked_waits);
    tcase_add_test(path, test_path_starts_where_entity_stands);
    suite_add_tcase(s, path);
    TCase *matrix = tcase_create("matrix");
    tcase_add_checked_fixture(matrix, setup, teardown);
    tcase_add_test(matrix, test_matrix_walk_rows);
    tcase_add_test(matrix, test_matrix_walk_segments);
    tcase_add_test(matrix, test_matrix_respects_map);
    tcase_add_test(matrix, test_matrix_isolated_and_determinism);
    suite_add_tcase(s, matrix);
    TCase *control = tcase_create("control");
    tcase_add_checked_fixture(control, setup, teardown);
    tcase_add_test(control, test_control_directions);
    tcase_add_test(control, test_control_snake);
    tcase_add_test(control, test_control_blocked_and_stop);
    tcase_add_test(control, test_tile_walkers_never_cut_corners);
    tcase_add_test(control, test_step_tables);
    suite_add_tcase(s, control);
    TCase *thrust = tcase_create("thrust");
    tcase_add_checked_fixture(thrust, setup, teardown);
    tcase_add_test(thrust, test_thrust_square);
    tcase_add_test(thrust, test_thrust_zigzag);
    tcase_add_test(thrust, test_thrust_starboard_time_and_stop);
    tcase_add_test(thrust, test_thrust_extreme_bodies_finite);
    suite_add_tcase(s, thrust);
    TCase *resume = tcase_create("resume");
    tcase_add_checked_fixture(resume, setup, teardown);
    tcase_add_test(resume, test_resume_path);
    tcase_add_test(resume, test_resume_control);
    tcase_add_test(resume, test_resume_thrust);
    tcase_add_test(resume, test_resume_matrix_and_waypoints);
    tcase_add_test(resume, test_cells_of_each_kind);
    suite_add_tcase(s, resume);
    TCase *lintc = tcase_create("lint");
    tcase_add_checked_fixture(lintc, setup, teardown);
    tcase_add_test(lintc, test_lint_path);
    tcase_add_test(lintc, test_lint_restart_way_back);
    tcase_add_test(lintc, test_lint_matrix);
    tcase_add_test(lintc, test_lint_control_and_thrust);
    tcase_add_test(lintc, test_lint_waypoints_and_map);
    tcase_add_test(lintc, test_lint_corner_path_and_control);
    tcase_add_test(lintc, test_lint_corner_matrix_split);
    suite_add_tcase(s, lintc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(pattern_run_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
