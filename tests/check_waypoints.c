/* SPDX-License-Identifier: Zlib */
/* check_waypoints: waypoint patrols whose waypoints are tile centres next to walls and in
 * corners, on generated maps (rooms with notches and pillars), many seeds, three speeds,
 * every chase mode. Properties over every tick of every run:
 *   - the guard reaches (comes within waypoint_distance, 0.5, of) each of its waypoints in
 *     turn, each within a bound derived from the A* length of the way there, its speed and
 *     the stuck fallback's wait;
 *   - nobody ever stands on a non-walkable tile;
 *   - at most 2% of the waypoints are reached through the stuck fallback (by tiles), the
 *     rest by steering;
 *   - on its way to one waypoint the guard never turns more than 270 degrees standing still.
 * Regression: a waypoint at the centre of a corner tile (or of a tile with a wall on one
 * side) was never reached: wall avoidance's push balanced the seek 0.67-0.75 tiles from it,
 * and the guard stood there with its heading spinning for ever (tests/data/waypoints); with
 * the feelers reaching past the waypoint to the wall beside it, it spun on the spot until
 * the stuck fallback walked it there. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/path.h>
#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include "test_util.h"

#define MAXW 24
#define MAXH 16
#define MAXPTS 6

typedef struct genmap {
    int w, h;
    char g[MAXH][MAXW + 1];
    uint64_t seed;
} genmap;

static int open_cell(const genmap *m, int x, int y) { return x >= 0 && y >= 0 && x < m->w && y < m->h && m->g[y][x] == '.'; }

/* A walled room with wall notches on its sides and a few pillars; the player shut in a
 * one-cell closet at 1,1 where no guard can see or reach them. */
static void gen_room(genmap *m, pt_rng *r) {
    m->w = 12 + (int)pt_rng_below(r, MAXW - 11);
    m->h = 9 + (int)pt_rng_below(r, MAXH - 8);
    for (int y = 0; y < m->h; y++) {
        for (int x = 0; x < m->w; x++) m->g[y][x] = x == 0 || y == 0 || x == m->w - 1 || y == m->h - 1 ? '#' : '.';
        m->g[y][m->w] = 0;
    }
    m->g[1][2] = m->g[2][1] = m->g[2][2] = '#';
    int notches = 2 + (int)pt_rng_below(r, 5);
    for (int k = 0; k < notches; k++) { /* 1-2 deep, 1-2 wide, from a side wall */
        int side = (int)pt_rng_below(r, 4), depth = 1 + (int)pt_rng_below(r, 2), width = 1 + (int)pt_rng_below(r, 2);
        int along = 3 + (int)pt_rng_below(r, (uint32_t)((side < 2 ? m->w : m->h) - 7));
        for (int d = 0; d < depth; d++)
            for (int i = 0; i < width; i++) {
                int x = side == 0 ? along + i : side == 1 ? along + i : side == 2 ? 1 + d : m->w - 2 - d;
                int y = side == 0 ? 1 + d : side == 1 ? m->h - 2 - d : along + i;
                if (x > 0 && y > 0 && x < m->w - 1 && y < m->h - 1) m->g[y][x] = '#';
            }
    }
    int pillars = (int)pt_rng_below(r, 4);
    for (int k = 0; k < pillars; k++) {
        int x = 4 + (int)pt_rng_below(r, (uint32_t)(m->w - 8)), y = 4 + (int)pt_rng_below(r, (uint32_t)(m->h - 8));
        m->g[y][x] = '#';
    }
}

/* Walkable cells beside a wall (4-neighbours), corners (two walls at right angles) first. */
static int candidates(const genmap *m, pt_cell *out, int *ncorner) {
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int y = 1; y < m->h - 1; y++)
            for (int x = 1; x < m->w - 1; x++) {
                if (!open_cell(m, x, y) || (x == 1 && y == 1)) continue;
                int wx = !open_cell(m, x - 1, y) || !open_cell(m, x + 1, y);
                int wy = !open_cell(m, x, y - 1) || !open_cell(m, x, y + 1);
                if ((pass == 0) != (wx && wy) || !(wx || wy)) continue;
                out[n++] = (pt_cell){x, y};
            }
    for (*ncorner = 0; *ncorner < n; (*ncorner)++) {
        pt_cell c = out[*ncorner];
        int wx = !open_cell(m, c.x - 1, c.y) || !open_cell(m, c.x + 1, c.y);
        int wy = !open_cell(m, c.x, c.y - 1) || !open_cell(m, c.x, c.y + 1);
        if (!(wx && wy)) break;
    }
    return n;
}

/* A closed route of 3..MAXPTS cells beside walls, corners more often than not, each leg a
 * straight walkable line (as a designer would draw it); 0 when none was found. */
static int gen_route(const pt_map *map, const pt_cell *cand, int n, int ncorner, pt_rng *r, pt_cell *pts) {
    for (int attempt = 0; attempt < 200; attempt++) {
        int want = 3 + (int)pt_rng_below(r, MAXPTS - 2), k = 0;
        for (int tries = 0; k < want && tries < 400; tries++) {
            int pick = ncorner > 0 && pt_rng_below(r, 3) < 2 ? (int)pt_rng_below(r, (uint32_t)ncorner)
                                                             : (int)pt_rng_below(r, (uint32_t)n);
            pt_cell c = cand[pick];
            int dup = 0;
            for (int j = 0; j < k; j++) dup |= pts[j].x == c.x && pts[j].y == c.y;
            if (dup || (k > 0 && !pt_line_walkable(map, pts[k - 1].x, pts[k - 1].y, c.x, c.y))) continue;
            if (k == want - 1 && !pt_line_walkable(map, c.x, c.y, pts[0].x, pts[0].y)) continue;
            pts[k++] = c;
        }
        if (k == want) return k;
    }
    return 0;
}

static int build(const genmap *m, const pt_cell *pts, int n, double speed, const char *chase, pt_map *map, pt_patlib *lib) {
    static char text[MAXW * MAXH * 2 + 1024];
    int len = snprintf(text, sizeof text,
                       "player at=1,1\nguard g at=%d,%d pattern=round view=6 fov=90 speed=%g chase=%s\ngrid\n", pts[0].x,
                       pts[0].y, speed, chase);
    for (int y = 0; y < m->h; y++) len += snprintf(text + len, sizeof text - (size_t)len, "%s\n", m->g[y]);
    len += snprintf(text + len, sizeof text - (size_t)len, "end\n");
    pt_error err;
    int rc = pt_map_parse(map, text, (size_t)len, "gen.map", &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
    char pat[512];
    int pl = snprintf(pat, sizeof pat, "pattern round\n  kind waypoints\n  points");
    for (int i = 0; i < n; i++) pl += snprintf(pat + pl, sizeof pat - (size_t)pl, " %d.5,%d.5", pts[i].x, pts[i].y);
    snprintf(pat + pl, sizeof pat - (size_t)pl, "\n  closed yes\nend\n");
    pt_patlib_init(lib);
    ck_assert_int_eq(pt_patlib_parse(lib, pat, strlen(pat), "round.pat", &err), PT_OK);
    return pt_patlib_lint_map(lib, map, NULL, 0);
}

typedef struct stats {
    int runs, reached, by_tiles;
    double worst_ratio;
    double worst_spin; /* degrees turned while standing still (below) */
    unsigned long long spin_seed;
} stats;

/* Standing still: within SPOT tiles of the place where the guard last stood (the stuck test's
 * 0.25); its turning there adds up until it leaves that spot or reaches its waypoint (a U-turn
 * for a waypoint behind it is 180 degrees on the spot, and the turn to the next one follows). */
#define SPOT 0.25
#define MAX_SPIN_DEG 270.0
#define MAX_FALLBACK_SHARE 0.02

/* The stuck fallback's wait (docs/ai.md): 1.5 s, or the time the default vehicle (turn rate
 * 360 deg/s, mass 1, max_force 10) needs to turn full circle, reach top speed and walk half
 * a tile. */
static double stuck_wait(double speed) { return fmax(1.5, 1.0 + speed / 10.0 + 0.5 / speed); }

/* Runs the guard for three laps of its route (at least 20 s) and checks it reaches every
 * waypoint in turn within its bound. */
static void run_route(const genmap *m, const pt_map *map, const pt_patlib *lib, pt_pathfinder *pf, const pt_cell *pts,
                      int n, double speed, const char *chase, stats *st) {
    pt_world_desc desc = {.seed = m->seed};
    pt_error err;
    pt_world *w = pt_world_create(map, lib, &desc, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const pt_entity *g = pt_world_entity(w, 1);
    double bound_s[MAXPTS], lap = 0.0;
    for (int i = 0; i < n; i++) {
        double len = tu_path_length(pf, pts[i], pts[(i + 1) % n]);
        ck_assert(len > 0);
        /* Straight legs at speed, detours (or the rest of the way by tiles) at most twice the
         * A* length, after one stuck wait and a second for turning. */
        bound_s[(i + 1) % n] = 2.0 * len / speed + stuck_wait(speed) + 1.0;
        lap += bound_s[(i + 1) % n];
    }
    int next = 1, since = 0, reached = 0, ticks = (int)ceil(fmax(3.0 * lap, 20.0) * 60.0);
    double spot_x = g->px, spot_y = g->py, last_h = g->heading, spin = 0.0;
    for (int t = 1; t <= ticks; t++) {
        pt_world_step(w);
        since++;
        if (hypot(g->px - spot_x, g->py - spot_y) > SPOT) {
            spot_x = g->px;
            spot_y = g->py;
            spin = 0.0;
        } else {
            spin += fabs(remainder(g->heading - last_h, 2.0 * PT_PI)) * 180.0 / PT_PI;
            if (spin > st->worst_spin) {
                st->worst_spin = spin;
                st->spin_seed = m->seed;
            }
        }
        last_h = g->heading;
        for (int id = 0; id < 2; id++) {
            const pt_entity *e = pt_world_entity(w, id);
            ck_assert_msg(pt_map_walkable(map, e->x, e->y), "seed %llu: entity %d on %d,%d at tick %d",
                          (unsigned long long)m->seed, id, e->x, e->y, t);
        }
        ck_assert_msg(g->state == PT_STATE_PATROL, "seed %llu: guard %s at tick %d", (unsigned long long)m->seed,
                      pt_state_name(g->state), t);
        if (hypot(g->px - (pts[next].x + 0.5), g->py - (pts[next].y + 0.5)) < 0.5) {
            double ratio = since / 60.0 / bound_s[next];
            if (ratio > st->worst_ratio) st->worst_ratio = ratio;
            next = (next + 1) % n;
            since = 0;
            spin = 0.0;
            reached++;
            st->by_tiles += g->motion == PT_MOTION_TILE; /* the stuck fallback brought it */
            continue;
        }
        if (since > (int)ceil(bound_s[next] * 60.0)) {
            fprintf(stderr, "seed %llu speed %g chase=%s: map\n", (unsigned long long)m->seed, speed, chase);
            for (int y = 0; y < m->h; y++) fprintf(stderr, "  %s\n", m->g[y]);
            ck_abort_msg("seed %llu speed %g chase=%s: waypoint %d (%d.5,%d.5) of %d not reached in %.1f s; guard at "
                         "%.2f,%.2f heading %.0f",
                         (unsigned long long)m->seed, speed, chase, next, pts[next].x, pts[next].y, n, bound_s[next],
                         g->px, g->py, g->heading * 180.0 / PT_PI);
        }
    }
    ck_assert_int_ge(reached, 3 * n - 1);
    st->runs++;
    st->reached += reached;
    pt_world_destroy(w);
}

static const char *const MODES[4] = {"tile", "steer", "intercept", "steer"};
static const double SPEEDS[3] = {1.5, 2.5, 4.0};

static void routes_on(int first_seed, int seeds, stats *st) {
    static pt_cell cand[MAXW * MAXH];
    for (int s = first_seed; s < first_seed + seeds; s++) {
        genmap m;
        pt_rng r;
        pt_rng_seed(&r, (uint64_t)s * 104729u, 5);
        gen_room(&m, &r);
        m.seed = (uint64_t)s;
        pt_map blank;
        pt_pathfinder *pf = tu_grid_pathfinder(&blank, m.g[0], sizeof m.g[0], m.h);
        int ncorner, nc = candidates(&m, cand, &ncorner);
        ck_assert_msg(ncorner > 0, "seed %d: no corner cells", s);
        for (int k = 0; k < 3; k++) {
            pt_cell pts[MAXPTS];
            int n = gen_route(&blank, cand, nc, ncorner, &r, pts);
            if (n == 0) continue;
            double speed = SPEEDS[k];
            const char *chase = MODES[pt_rng_below(&r, 4)];
            pt_map map;
            pt_patlib lib;
            ck_assert_int_eq(build(&m, pts, n, speed, chase, &map, &lib), 0); /* patrol check: ok */
            run_route(&m, &map, &lib, pf, pts, n, speed, chase, st);
            pt_patlib_fini(&lib);
            pt_map_fini(&map);
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&blank);
    }
}

static void report(const char *what, const stats *st) {
    double share = st->reached ? (double)st->by_tiles / st->reached : 0.0;
    fprintf(stderr,
            "check_waypoints %s: %d runs, %d waypoints reached (%d = %.1f%% by the stuck fallback), slowest at %.0f%% of "
            "its bound, at most %.0f deg turned standing still (seed %llu)\n",
            what, st->runs, st->reached, st->by_tiles, share * 100.0, st->worst_ratio * 100.0, st->worst_spin,
            st->spin_seed);
    ck_assert_int_gt(st->runs, 30);
    /* Steering brings the guards to waypoints beside walls: the fallback is for the odd
     * local minimum, and a guard does not spin on the spot waiting for it. */
    ck_assert_msg(share <= MAX_FALLBACK_SHARE, "%s: %.1f%% of the waypoints reached by the stuck fallback", what,
                  share * 100.0);
    ck_assert_msg(st->worst_spin <= MAX_SPIN_DEG, "%s: seed %llu: a guard turned %.0f deg standing still", what,
                  st->spin_seed, st->worst_spin);
}

START_TEST(test_waypoints_by_walls_a) {
    stats st = {0};
    routes_on(1, 20, &st);
    report("seeds 1-20", &st);
}
END_TEST

START_TEST(test_waypoints_by_walls_b) {
    stats st = {0};
    routes_on(21, 20, &st);
    report("seeds 21-40", &st);
}
END_TEST

/* The user's yard (tests/data/waypoints/yard.map): the east room's round has a waypoint in
 * its north-east corner and one under its north wall; every guard keeps its round. */
START_TEST(test_waypoints_user_yard) {
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, "tests/data/waypoints/yard.map", &err) == PT_OK, "%s:%d: %s", err.file, err.line,
                  err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++)
        ck_assert_msg(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK, "%s:%d: %s", err.file, err.line,
                      err.message);
    ck_assert_int_eq(pt_patlib_lint_map(&lib, &m, NULL, 0), 0);
    pt_world *w = pt_world_create(&m, &lib, NULL, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const pt_entity *g = pt_world_entity(w, 3);
    static const double wp[4][2] = {{12.5, 1.5}, {18.5, 1.5}, {18.5, 5.5}, {12.5, 5.5}};
    int next = 1, since = 0, reached = 0, clipped = 0;
    for (int t = 1; t <= 3600; t++) {
        pt_world_step(w);
        since++;
        /* The feelers drawn are the ones it steered with: never longer than the full ones,
         * shorter as it nears a waypoint or slows. */
        const pt_steer_agent *a = pt_world_agent(w, 3);
        const pt_steer_params *p = a->params ? a->params : pt_steer_params_builtin();
        pt_vec2 tips[3];
        ck_assert_int_eq(pt_world_feelers(w, 3, tips), 3);
        double full[3] = {p->feeler_length, p->side_feeler_length, p->side_feeler_length};
        for (int k = 0; k < 3; k++) {
            double len = hypot(tips[k].x - g->veh.pos.x, tips[k].y - g->veh.pos.y);
            ck_assert_msg(len <= full[k] + 1e-9, "tick %d: feeler %d is %.3f tiles, longer than %.3f", t, k, len, full[k]);
            clipped += k == 0 && len < full[k] - 1e-9;
        }
        if (hypot(g->px - wp[next][0], g->py - wp[next][1]) < 0.5) {
            next = (next + 1) % 4;
            since = 0;
            reached++;
        }
        /* 6 tiles at 2.5 tiles/s, one stuck wait, a second to turn: 5 s with room to spare */
        ck_assert_msg(since <= 8 * 60, "waypoint %d (%.1f,%.1f) not reached in 8 s at tick %d; guard at %.2f,%.2f", next,
                      wp[next][0], wp[next][1], t, g->px, g->py);
    }
    ck_assert_int_ge(reached, 12);
    ck_assert_msg(clipped > 600, "the front feeler was shorter than full on %d ticks of 3600", clipped);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* The stuck fallback still walks a route steering cannot: the leg between 2.5,5.5 and
 * 6.5,5.5 runs through the wall at x = 4, where the guard's seek holds it against the wall;
 * it walks round by tiles (A*), and it reaches both waypoints lap after lap. */
START_TEST(test_waypoints_through_a_wall_by_tiles) {
    static const char text[] = "player at=1,1\n"
                               "guard g at=2,5 pattern=across view=4 fov=90 speed=2.5 chase=steer\n"
                               "grid\n"
                               "##########\n"
                               "#.#......#\n"
                               "###......#\n"
                               "#........#\n"
                               "#...#....#\n"
                               "#...#....#\n"
                               "#...#....#\n"
                               "#........#\n"
                               "##########\n"
                               "end\n";
    static const char pat[] = "pattern across\n  kind waypoints\n  points 2.5,5.5 6.5,5.5\n  closed yes\nend\n";
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_parse(&map, text, strlen(text), "wall.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, pat, strlen(pat), "across.pat", &err), PT_OK);
    pt_world *w = pt_world_create(&map, &lib, NULL, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const pt_entity *g = pt_world_entity(w, 1);
    static const double wp[2][2] = {{2.5, 5.5}, {6.5, 5.5}};
    int next = 1, since = 0, reached = 0, by_tiles = 0;
    for (int t = 1; t <= 60 * 30; t++) {
        pt_world_step(w);
        since++;
        ck_assert(pt_map_walkable(&map, g->x, g->y));
        ck_assert_int_eq(g->state, PT_STATE_PATROL);
        if (hypot(g->px - wp[next][0], g->py - wp[next][1]) < 0.5) {
            by_tiles += g->motion == PT_MOTION_TILE;
            next = 1 - next;
            since = 0;
            reached++;
        }
        /* one stuck wait, then 6 tiles round the wall at 2.5 tiles/s: well under 6 s */
        ck_assert_msg(since <= 6 * 60, "waypoint %d not reached in 6 s at tick %d; guard at %.2f,%.2f", next, t, g->px,
                      g->py);
    }
    ck_assert_int_ge(reached, 6);
    ck_assert_int_ge(by_tiles, reached - 1);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("waypoints");
    TCase *tc = tcase_create("by_walls");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_waypoints_by_walls_a);
    tcase_add_test(tc, test_waypoints_by_walls_b);
    tcase_add_test(tc, test_waypoints_user_yard);
    tcase_add_test(tc, test_waypoints_through_a_wall_by_tiles);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
