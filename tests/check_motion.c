/* SPDX-License-Identifier: Zlib */
/* check_motion: no mover ever jumps (docs/ai.md, "Movement": "No jumps").
 *
 * Generated maps (rooms joined by 1-wide doors, pillar yards), many seeds, thousands of
 * ticks: on each map one guard of every pattern kind (control, path, matrix, thrust,
 * waypoints) with every chase mode (tile, steer, intercept), a hen and a flock, and a player
 * that wanders at random (walk, run, sneak), so guards start chases, lose the player, search,
 * investigate, return, get stuck and catch. Every tick, every entity's drawn position
 * (pt_world_drawn_pos at alpha 0) moves at most what its top speed allows in one tick:
 * sqrt 2 x speed x dt for a tile mover (a diagonal step is drawn at sqrt 2 its speed) and
 * speed x dt for a continuous one, where speed is the entity's speed times its state's factor
 * (1.3 in chase, the gait's for the player) and, for a thrust patrol, its thruster's top
 * speed. The one exception: the player sent back to its start after a catch.
 * Regression: a waypoint guard with chase=tile snapped to a cell centre when its chase
 * started and jumped back to where its chase began when the chase ended (2.6 tiles in one
 * tick); every fallback to walking by tiles snapped to the cell centre; a thrust patrol
 * taking its round up again jumped to the lap's point in that cell. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include "test_util.h"

#define MAXW 40
#define MAXH 30

typedef struct genmap {
    int w, h;
    char g[MAXH][MAXW + 1];
    const char *kind;
} genmap;

static void fill(genmap *m, int w, int h, char c) {
    m->w = w;
    m->h = h;
    for (int y = 0; y < h; y++) {
        memset(m->g[y], c, (size_t)w);
        m->g[y][w] = 0;
    }
}

/* A 3 x 3 grid of rooms, each wall between two rooms pierced by one 1-wide door. */
static void gen_rooms(genmap *m, pt_rng *r) {
    int rw = 5 + (int)pt_rng_below(r, 4), rh = 4 + (int)pt_rng_below(r, 4);
    fill(m, 3 * (rw + 1) + 1, 3 * (rh + 1) + 1, '#');
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            for (int y = 0; y < rh; y++)
                for (int x = 0; x < rw; x++) m->g[1 + j * (rh + 1) + y][1 + i * (rw + 1) + x] = '.';
            if (i < 2) m->g[1 + j * (rh + 1) + (int)pt_rng_below(r, (uint32_t)rh)][(i + 1) * (rw + 1)] = '.';
            if (j < 2) m->g[(j + 1) * (rh + 1)][1 + i * (rw + 1) + (int)pt_rng_below(r, (uint32_t)rw)] = '.';
        }
    m->kind = "rooms";
}

/* An open yard with single-tile pillars and a few diagonal pairs. */
static void gen_pillars(genmap *m, pt_rng *r) {
    fill(m, 26 + (int)pt_rng_below(r, 8), 18 + (int)pt_rng_below(r, 6), '.');
    for (int x = 0; x < m->w; x++) m->g[0][x] = m->g[m->h - 1][x] = '#';
    for (int y = 0; y < m->h; y++) m->g[y][0] = m->g[y][m->w - 1] = '#';
    for (int y = 2; y < m->h - 2; y++)
        for (int x = 2; x < m->w - 2; x++) {
            unsigned k = pt_rng_below(r, 100);
            if (k < 10) m->g[y][x] = '#';
            else if (k < 12 && x + 1 < m->w - 2 && y + 1 < m->h - 2) m->g[y][x + 1] = m->g[y + 1][x] = '#';
        }
    m->kind = "pillars";
}

static const char PATTERNS[] = "pattern p_control\n  kind control\n  repeat 4\n    forward 4\n    wait 20\n    right 90\n"
                               "  end\n  at_end loop\nend\n"
                               "pattern p_path\n  kind path\n  points 0,0 4,0 4,3 0,3\n  at_end loop\nend\n"
                               "pattern p_matrix\n  kind matrix\n  rows\n    11111\n    1...1\n    11111\n  end\nend\n"
                               "pattern p_thrust\n  kind thrust\n  repeat 4\n    fire none distance=3\n"
                               "    fire port turn=90\n  end\nend\n"
                               "pattern p_waypoints\n  kind waypoints\n  points 0.5,0.5 4.5,0.5 4.5,3.5 0.5,3.5\nend\n";
static const char *const KINDS[5] = {"p_control", "p_path", "p_matrix", "p_thrust", "p_waypoints"};
static const char *const MODES[3] = {"tile", "steer", "intercept"};

static int open_cell(const genmap *m, int x, int y) { return x > 0 && y > 0 && x < m->w - 1 && y < m->h - 1 && m->g[y][x] == '.'; }

static pt_cell random_open(const genmap *m, pt_rng *r) {
    for (;;) {
        int x = 1 + (int)pt_rng_below(r, (uint32_t)(m->w - 2)), y = 1 + (int)pt_rng_below(r, (uint32_t)(m->h - 2));
        if (open_cell(m, x, y)) return (pt_cell){x, y};
    }
}

typedef struct stats {
    long ticks, moves, chases, losses, returns, catches, fallbacks;
    double worst; /* the largest step over its allowance */
} stats;

/* What entity e may move in one tick in its state `st` (docs/ai.md, "No jumps"). */
static double allowance(const pt_world *w, const pt_entity *e, pt_state st, double player_gait) {
    double v = e->speed;
    if (e->kind == PT_KIND_GUARD && st == PT_STATE_CHASE) v *= 1.3;
    if (e->kind == PT_KIND_PLAYER) v *= player_gait;
    if (e->run.pat && e->run.pat->kind == PT_PAT_THRUST) { /* momentum it keeps off its round too */
        pt_thrust_body_params b = pt_thrust_body_resolve(e->run.pat->body);
        v = fmax(v, b.thrust / b.drag);
    }
    return v * sqrt(2.0) * pt_world_dt(w);
}

static void run_map(const genmap *m, pt_rng *r, uint64_t seed, int ticks, stats *st) {
    static char text[MAXW * MAXH * 2 + 4096];
    pt_cell pl = random_open(m, r);
    int len = snprintf(text, sizeof text, "title \"%s\"\npatterns gen.pat\nplayer at=%d,%d speed=9\n", m->kind, pl.x, pl.y);
    /* one guard of each pattern kind, the chase modes in turn over the seeds */
    for (int k = 0; k < 5; k++) {
        pt_cell at = random_open(m, r);
        int c = (int)((uint64_t)k + seed) % 3;
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "guard g%d%d at=%d,%d pattern=%s chase=%s view=8 fov=120 aware_rate=2 speed=%.1f\n", k, c, at.x,
                        at.y, KINDS[k], MODES[c], 1.5 + pt_rng_below(r, 4));
    }
    pt_cell hen = random_open(m, r), fl = random_open(m, r);
    len += snprintf(text + len, sizeof text - (size_t)len, "prey hen at=%d,%d\nflock crows at=%d,%d count=4 kind=crow\ngrid\n",
                    hen.x, hen.y, fl.x, fl.y);
    for (int y = 0; y < m->h; y++) len += snprintf(text + len, sizeof text - (size_t)len, "%s\n", m->g[y]);
    len += snprintf(text + len, sizeof text - (size_t)len, "end\n");
    pt_map map;
    pt_error err;
    ck_assert_msg(pt_map_parse(&map, text, (size_t)len, "gen.map", &err) == PT_OK, "%d:%d: %s", err.line, err.col, err.message);
    pt_patlib lib;
    pt_patlib_init(&lib);
    ck_assert_msg(pt_patlib_parse(&lib, PATTERNS, strlen(PATTERNS), "gen.pat", &err) == PT_OK, "%d: %s", err.line, err.message);
    pt_world_desc desc = {.seed = seed, .player_controlled = 1};
    pt_world *w = pt_world_create(&map, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const int n = pt_world_count(w);
    pt_vec2 *was = malloc(sizeof *was * (size_t)n);
    pt_state *was_state = malloc(sizeof *was_state * (size_t)n);
    int *was_tile = malloc(sizeof *was_tile * (size_t)n);
    ck_assert(was && was_state && was_tile);
    for (int i = 0; i < n; i++) {
        was[i] = pt_world_drawn_pos(w, i, 0.0);
        was_state[i] = pt_world_entity(w, i)->state;
        was_tile[i] = pt_world_entity(w, i)->motion == PT_MOTION_TILE;
    }
    int dx = 0, dy = 0, hold = 0;
    pt_gait gait = PT_GAIT_WALK;
    for (int t = 1; t <= ticks; t++) {
        if (--hold <= 0) { /* a new leg: a direction (or none) and a gait, for 0.3 to 2 s */
            dx = (int)pt_rng_below(r, 3) - 1;
            dy = (int)pt_rng_below(r, 3) - 1;
            unsigned g = pt_rng_below(r, 4); /* run half the time: chases are lost as well as won */
            gait = g == 0 ? PT_GAIT_WALK : g == 1 ? PT_GAIT_SNEAK : PT_GAIT_RUN;
            hold = 18 + (int)pt_rng_below(r, 103);
        }
        pt_world_set_input(w, dx, dy);
        pt_world_set_gait(w, gait);
        int caught_before = pt_world_entity(w, 0)->state == PT_STATE_CAUGHT;
        pt_world_step(w);
        st->ticks++;
        for (int i = 0; i < n; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            pt_vec2 now = pt_world_drawn_pos(w, i, 0.0);
            double moved = hypot(now.x - was[i].x, now.y - was[i].y);
            int tile = e->motion == PT_MOTION_TILE;
            if (i == 0 && caught_before) moved = 0.0; /* sent back to the start */
            /* the larger of the two states' speeds: a chase may start or end this tick */
            double a = fmax(allowance(w, e, was_state[i], pt_gait_speed(gait)), allowance(w, e, e->state, pt_gait_speed(gait)));
            if (moved > 1e-9) st->moves++;
            if (moved / a > st->worst) st->worst = moved / a;
            ck_assert_msg(moved <= a + 1e-9,
                          "%s seed %llu tick %d: %s %s (chase=%s, speed %.1f) moved %.3f tiles (allowed %.3f), "
                          "%s -> %s, %s -> %s motion, %.3f,%.3f -> %.3f,%.3f",
                          m->kind, (unsigned long long)seed, t, pt_kind_name(e->kind), e->name,
                          e->kind == PT_KIND_GUARD ? MODES[e->chase] : "-", e->speed, moved, a,
                          pt_state_name(was_state[i]), pt_state_name(e->state), was_tile[i] ? "tile" : "continuous",
                          tile ? "tile" : "continuous", was[i].x, was[i].y, now.x, now.y);
            if (e->kind == PT_KIND_GUARD && was_state[i] != e->state) {
                st->chases += e->state == PT_STATE_CHASE;
                st->losses += was_state[i] == PT_STATE_CHASE && e->state == PT_STATE_SEARCH;
                st->returns += e->state == PT_STATE_RETURN;
            }
            if (e->kind == PT_KIND_GUARD && tile && !was_tile[i]) st->fallbacks++;
            was[i] = now;
            was_state[i] = e->state;
            was_tile[i] = tile;
        }
        st->catches += pt_world_entity(w, 0)->state == PT_STATE_CAUGHT;
    }
    free(was);
    free(was_state);
    free(was_tile);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}

static void run_on(void (*gen)(genmap *, pt_rng *), int seeds, int ticks, const char *what) {
    stats st = {0};
    for (int s = 1; s <= seeds; s++) {
        genmap m;
        pt_rng r;
        pt_rng_seed(&r, (uint64_t)s * 104729u, 11);
        gen(&m, &r);
        run_map(&m, &r, (uint64_t)s, ticks, &st);
    }
    fprintf(stderr,
            "check_motion %s: %d maps, %ld ticks, %ld entity moves; %ld chases, %ld lost, %ld returns, %ld catches, "
            "%ld switches to tiles; largest step %.0f%% of its allowance\n",
            what, seeds, st.ticks, st.moves, st.chases, st.losses, st.returns, st.catches, st.fallbacks, st.worst * 100.0);
    /* the runs must reach the state changes they are about */
    ck_assert_int_gt(st.chases, 20 * seeds);
    ck_assert_int_gt(st.losses, 3 * seeds);
    ck_assert_int_gt(st.returns, 5 * seeds);
    ck_assert_int_gt(st.fallbacks, 5 * seeds);
}

START_TEST(test_no_jumps_rooms) { run_on(gen_rooms, 12, 6000, "rooms"); }
END_TEST

START_TEST(test_no_jumps_pillars) { run_on(gen_pillars, 12, 6000, "pillars"); }
END_TEST

/* A world on the 14 x 7 room of the reported case: `ents` is the map's entity lines, `pat`
 * the text of its gen.pat. */
static pt_world *room_world(const char *pat, const char *ents, pt_map *map, pt_patlib *lib) {
    char text[1024];
    snprintf(text, sizeof text,
             "patterns gen.pat\n%sgrid\n##############\n#............#\n#............#\n#............#\n"
             "#............#\n#............#\n##############\nend\n",
             ents);
    pt_error err;
    ck_assert_msg(pt_map_parse(map, text, strlen(text), "room.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(lib);
    ck_assert_msg(pt_patlib_parse(lib, pat, strlen(pat), "gen.pat", &err) == PT_OK, "%s", err.message);
    pt_world_desc desc = {.seed = 1};
    pt_world *w = pt_world_create(map, lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The reported case: a waypoint guard with chase=tile in a 14 x 7 room, the player walking
 * in from 12,1 and back out, again and again; the guard chases, catches or loses them, and
 * takes its round up again, with no jump: at the chase's start it glides from where it is
 * to its cell's centre, and at its end it goes on from where it stands. */
START_TEST(test_waypoint_tile_chase_reported) {
    static const char pat[] = "pattern loop\n  kind waypoints\n  points 3.5,3.5 10.5,3.5 10.5,5.5 3.5,5.5\nend\n"
                              "pattern walk_in\n  kind path\n  points 0,0 -9,0 -9,4 0,4\n  at_end reverse\nend\n";
    pt_map map;
    pt_patlib lib;
    pt_world *w = room_world(pat, "player at=12,1 pattern=walk_in\n"
                                  "guard g at=3,3 pattern=loop chase=tile view=6 fov=120 aware_rate=10\n",
                             &map, &lib);
    const pt_entity *g = pt_world_entity(w, 1);
    pt_vec2 was = pt_world_drawn_pos(w, 1, 0.0);
    int chases = 0, ends = 0;
    pt_state st = g->state;
    for (int t = 1; t <= 3600; t++) {
        pt_world_step(w);
        pt_vec2 now = pt_world_drawn_pos(w, 1, 0.0);
        double moved = hypot(now.x - was.x, now.y - was.y), a = g->speed * 1.3 * sqrt(2.0) * pt_world_dt(w);
        ck_assert_msg(moved <= a + 1e-9, "tick %d: %s -> %s, moved %.3f tiles (%.3f,%.3f -> %.3f,%.3f), allowed %.3f", t,
                      pt_state_name(st), pt_state_name(g->state), moved, was.x, was.y, now.x, now.y, a);
        chases += st != PT_STATE_CHASE && g->state == PT_STATE_CHASE;
        ends += st == PT_STATE_CHASE && g->state != PT_STATE_CHASE;
        was = now;
        st = g->state;
    }
    ck_assert_int_gt(chases, 3);
    ck_assert_int_gt(ends, 3);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

/* The one exception to "No jumps": after a catch (sim) the player starts again from its
 * start. A player walking a waypoint route did not: its vehicle stayed where it was caught,
 * and it was caught again every few ticks. Now it leaves its start on the next tick and
 * walks on from there, without jumping back. */
START_TEST(test_waypoint_player_starts_again) {
    static const char pat[] = "pattern route\n  kind waypoints\n  points 12.5,1.5 3.5,1.5 3.5,5.5 12.5,5.5\nend\n"
                              "pattern pace\n  kind path\n  points 0,0 0,1\n  at_end reverse\nend\n";
    pt_map map;
    pt_patlib lib;
    pt_world *w = room_world(pat, "player at=12,1 pattern=route\n"
                                  "guard g at=3,3 pattern=pace view=6 fov=120 aware_rate=10\n",
                             &map, &lib);
    const pt_entity *p = pt_world_entity(w, 0);
    pt_vec2 was = pt_world_drawn_pos(w, 0, 0.0);
    int catches = 0, caught = 0;
    for (int t = 1; t <= 1800; t++) {
        pt_world_step(w);
        pt_vec2 now = pt_world_drawn_pos(w, 0, 0.0);
        double moved = hypot(now.x - was.x, now.y - was.y);
        if (caught) {
            ck_assert_msg(hypot(now.x - 12.5, now.y - 1.5) <= p->speed * sqrt(2.0) * pt_world_dt(w) + 1e-9,
                          "tick %d: after a catch at %.2f,%.2f, not at the start", t, now.x, now.y);
        } else {
            ck_assert_msg(moved <= p->speed * sqrt(2.0) * pt_world_dt(w) + 1e-9, "tick %d: moved %.3f (%.3f,%.3f -> %.3f,%.3f)",
                          t, moved, was.x, was.y, now.x, now.y);
        }
        caught = p->state == PT_STATE_CAUGHT;
        catches += caught;
        was = now;
    }
    ck_assert_int_gt(catches, 1);
    ck_assert_int_lt(catches, 20);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("motion");
    TCase *tc = tcase_create("no_jumps");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_no_jumps_rooms);
    tcase_add_test(tc, test_no_jumps_pillars);
    tcase_add_test(tc, test_waypoint_tile_chase_reported);
    tcase_add_test(tc, test_waypoint_player_starts_again);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
