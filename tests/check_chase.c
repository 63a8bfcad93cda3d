/* SPDX-License-Identifier: Zlib */
/* check_chase: chases on maps the guards were not tuned on.
 *
 * Generated maps (mazes of 1-wide corridors, rooms joined by 1-wide doors, pillar fields,
 * diagonal wall corners), many seeds, every chase mode, guards started on every cell around
 * a gap. Properties over every tick of every run:
 *   - a guard that sees a standing, reachable player catches them within a bound derived
 *     from the A* path length and the chase speed;
 *   - no continuous mover in chase, search or return stays within 0.25 tiles of one place
 *     for more than 2 s unless it has arrived;
 *   - nobody ever stands on a non-walkable tile.
 * Regression: steered and intercepting chasers next to a one-tile door turned on the spot
 * for ever (their wall feelers pushed back from the door frame as hard as the pursuit
 * pulled, and nothing noticed that they made no progress). */
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

#define MAXW 40
#define MAXH 30

typedef struct genmap {
    int w, h;
    char g[MAXH][MAXW + 1];
    const char *kind;
    uint64_t seed;
} genmap;

static int open_cell(const genmap *m, int x, int y) { return x >= 0 && y >= 0 && x < m->w && y < m->h && m->g[y][x] == '.'; }

static void fill(genmap *m, int w, int h, char c) {
    m->w = w;
    m->h = h;
    for (int y = 0; y < h; y++) {
        memset(m->g[y], c, (size_t)w);
        m->g[y][w] = 0;
    }
}

static void border(genmap *m) {
    for (int x = 0; x < m->w; x++) m->g[0][x] = m->g[m->h - 1][x] = '#';
    for (int y = 0; y < m->h; y++) m->g[y][0] = m->g[y][m->w - 1] = '#';
}

/* Recursive backtracker on odd cells, then a few walls knocked out for loops. */
static void gen_maze(genmap *m, pt_rng *r) {
    int cw = 9 + (int)pt_rng_below(r, 4), ch = 7 + (int)pt_rng_below(r, 3);
    fill(m, cw * 2 + 1, ch * 2 + 1, '#');
    static int stack[MAXW * MAXH];
    static unsigned char seen[MAXH][MAXW];
    memset(seen, 0, sizeof seen);
    int sp = 0;
    stack[sp++] = 0;
    seen[0][0] = 1;
    m->g[1][1] = '.';
    static const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    while (sp > 0) {
        int c = stack[sp - 1], cx = c % cw, cy = c / cw;
        int opts[4], n = 0;
        for (int d = 0; d < 4; d++) {
            int nx = cx + dx[d], ny = cy + dy[d];
            if (nx >= 0 && ny >= 0 && nx < cw && ny < ch && !seen[ny][nx]) opts[n++] = d;
        }
        if (n == 0) {
            sp--;
            continue;
        }
        int d = opts[pt_rng_below(r, (uint32_t)n)];
        int nx = cx + dx[d], ny = cy + dy[d];
        seen[ny][nx] = 1;
        m->g[cy * 2 + 1 + dy[d]][cx * 2 + 1 + dx[d]] = '.';
        m->g[ny * 2 + 1][nx * 2 + 1] = '.';
        stack[sp++] = ny * cw + nx;
    }
    for (int k = 0; k < cw * ch / 8; k++) {
        int x = 1 + (int)pt_rng_below(r, (uint32_t)(m->w - 2)), y = 1 + (int)pt_rng_below(r, (uint32_t)(m->h - 2));
        if ((x + y) % 2 == 1) m->g[y][x] = '.'; /* a wall between two cells */
    }
    m->kind = "maze";
}

/* A grid of rooms, each wall between two rooms pierced by one 1-wide door. */
static void gen_rooms(genmap *m, pt_rng *r) {
    int rw = 4 + (int)pt_rng_below(r, 4), rh = 3 + (int)pt_rng_below(r, 4), nx = 3, ny = 3;
    fill(m, nx * (rw + 1) + 1, ny * (rh + 1) + 1, '#');
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            for (int y = 0; y < rh; y++)
                for (int x = 0; x < rw; x++) m->g[1 + j * (rh + 1) + y][1 + i * (rw + 1) + x] = '.';
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            if (i + 1 < nx) m->g[1 + j * (rh + 1) + (int)pt_rng_below(r, (uint32_t)rh)][(i + 1) * (rw + 1)] = '.';
            if (j + 1 < ny) m->g[(j + 1) * (rh + 1)][1 + i * (rw + 1) + (int)pt_rng_below(r, (uint32_t)rw)] = '.';
        }
    m->kind = "rooms";
}

/* An open yard with single-tile pillars. */
static void gen_pillars(genmap *m, pt_rng *r) {
    fill(m, 24 + (int)pt_rng_below(r, 8), 16 + (int)pt_rng_below(r, 6), '.');
    border(m);
    for (int y = 2; y < m->h - 2; y++)
        for (int x = 2; x < m->w - 2; x++)
            if (pt_rng_below(r, 100) < 14) m->g[y][x] = '#';
    m->kind = "pillars";
}

/* An open yard with pairs of walls that touch at a corner, and short diagonal walls. */
static void gen_diagonals(genmap *m, pt_rng *r) {
    fill(m, 24 + (int)pt_rng_below(r, 8), 16 + (int)pt_rng_below(r, 6), '.');
    border(m);
    int n = m->w * m->h / 14;
    for (int k = 0; k < n; k++) {
        int x = 2 + (int)pt_rng_below(r, (uint32_t)(m->w - 5)), y = 2 + (int)pt_rng_below(r, (uint32_t)(m->h - 5));
        int len = 1 + (int)pt_rng_below(r, 3), down = (int)pt_rng_below(r, 2);
        for (int i = 0; i <= len && x + i < m->w - 2 && y + i < m->h - 2; i++) {
            if (down) m->g[y + i][x + i] = '#';
            else m->g[y + i][x + len - i < m->w - 2 ? x + len - i : x] = '#';
        }
    }
    m->kind = "diagonals";
}

/* The cells a guard starts from: every walkable cell around a 1-wide gap (a walkable cell
 * with walls on two opposite sides); on open maps, every cell touching a wall corner. */
static int start_cells(const genmap *m, pt_cell *out, int max) {
    static unsigned char mark[MAXH][MAXW];
    memset(mark, 0, sizeof mark);
    int n = 0;
    for (int y = 1; y < m->h - 1; y++)
        for (int x = 1; x < m->w - 1; x++) {
            if (!open_cell(m, x, y)) continue;
            int gap = (!open_cell(m, x - 1, y) && !open_cell(m, x + 1, y)) || (!open_cell(m, x, y - 1) && !open_cell(m, x, y + 1));
            int corner = 0;
            for (int d = 0; d < 4 && !gap; d++) {
                int sx = d & 1 ? 1 : -1, sy = d & 2 ? 1 : -1;
                corner |= !open_cell(m, x + sx, y + sy) && open_cell(m, x + sx, y) && open_cell(m, x, y + sy);
            }
            if (!gap && !corner) continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int sx = x + dx, sy = y + dy;
                    if (!(dx || dy) && !corner) continue;
                    if (open_cell(m, sx, sy) && !mark[sy][sx] && n < max) {
                        mark[sy][sx] = 1;
                        out[n++] = (pt_cell){sx, sy};
                    }
                }
        }
    return n;
}

static int build_map(const genmap *m, pt_map *map, pt_cell player, pt_cell guard, const char *chase, int heading) {
    static char text[MAXW * MAXH * 2 + 1024];
    int len = snprintf(text, sizeof text,
                       "title \"%s\"\nplayer at=%d,%d\nguard g at=%d,%d pattern=home origin=%d,%d view=10 fov=360 "
                       "chase=%s heading=%d\ngrid\n",
                       m->kind, player.x, player.y, guard.x, guard.y, guard.x, guard.y, chase, heading);
    for (int y = 0; y < m->h; y++) len += snprintf(text + len, sizeof text - (size_t)len, "%s\n", m->g[y]);
    len += snprintf(text + len, sizeof text - (size_t)len, "end\n");
    pt_error err;
    int rc = pt_map_parse(map, text, (size_t)len, "gen.map", &err);
    if (rc != PT_OK) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
    return rc;
}

typedef struct stats { int runs, catches, fallbacks; double worst_ratio; } stats;

/* One chase from `start` toward a standing player at `target`. */
static void run_chase(const genmap *m, pt_pathfinder *pf, const pt_patlib *lib, pt_cell start, pt_cell target,
                      const char *mode, int heading, stats *st) {
    pt_map map;
    ck_assert_int_eq(build_map(m, &map, target, start, mode, heading), PT_OK);
    pt_world_desc desc = {.seed = m->seed};
    pt_error err;
    pt_world *w = pt_world_create(&map, lib, &desc, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const pt_entity *g = pt_world_entity(w, 1);
    double dist = hypot(target.x - start.x, target.y - start.y);
    double len = tu_path_length(pf, start, target);
    ck_assert(len > 0);
    /* Noticing: the meter fills at aware_rate * (1 - 0.75 d / view) per second up to chase_at.
     * Then the chase at 1.3 x speed; twice the A* length covers going round the frames,
     * losing sight at a corner (a search at walking speed) and picking the chase up again. */
    double notice = g->chase_at / (g->aware_rate * (1.0 - 0.75 * fmin(dist / g->view_dist, 1.0)));
    double bound_s = notice + 2.0 * len / (g->speed * 1.3) + 2.0;
    int bound = (int)ceil(bound_s * 60.0);
    double ax = g->px, ay = g->py;
    int anchor_tick = 0, caught_at = -1, went_tile = 0;
    for (int t = 1; t <= bound && caught_at < 0; t++) {
        pt_world_step(w);
        for (int id = 0; id < 2; id++) {
            const pt_entity *e = pt_world_entity(w, id);
            ck_assert_msg(pt_map_walkable(pt_world_map(w), e->x, e->y), "%s seed %llu: entity %d on %d,%d at tick %d",
                          m->kind, (unsigned long long)m->seed, id, e->x, e->y, t);
        }
        if (pt_world_caught_total(w) > 0) caught_at = t;
        int moving_state = g->state == PT_STATE_CHASE || g->state == PT_STATE_SEARCH || g->state == PT_STATE_RETURN;
        int arrived = g->state == PT_STATE_SEARCH && hypot(g->px - g->last_seen_x, g->py - g->last_seen_y) < 1.0;
        if (!moving_state || g->motion != PT_MOTION_CONTINUOUS || arrived || hypot(g->px - ax, g->py - ay) > 0.25) {
            ax = g->px;
            ay = g->py;
            anchor_tick = t;
        }
        if (g->motion == PT_MOTION_TILE && g->state == PT_STATE_CHASE && strcmp(mode, "tile") != 0) went_tile = 1;
        ck_assert_msg(t - anchor_tick <= 120,
                      "%s seed %llu, chase=%s from %d,%d to %d,%d: %s for 2 s within 0.25 tiles of %.2f,%.2f (tick %d)",
                      m->kind, (unsigned long long)m->seed, mode, start.x, start.y, target.x, target.y,
                      pt_state_name(g->state), ax, ay, t);
    }
    ck_assert_msg(caught_at > 0,
                  "%s seed %llu, chase=%s heading=%d from %d,%d: player at %d,%d (path %.1f tiles) not caught in %.1f s; "
                  "guard %s at %.2f,%.2f",
                  m->kind, (unsigned long long)m->seed, mode, heading, start.x, start.y, target.x, target.y, len, bound_s,
                  pt_state_name(g->state), g->px, g->py);
    double ratio = caught_at / 60.0 / bound_s;
    if (ratio > st->worst_ratio) st->worst_ratio = ratio;
    st->runs++;
    st->catches++;
    st->fallbacks += went_tile;
    pt_world_destroy(w);
    pt_map_fini(&map);
}

static const char *const MODES[3] = {"tile", "steer", "intercept"};

static void chase_on(void (*gen)(genmap *, pt_rng *), int seeds, int max_starts, stats *st) {
    static pt_cell starts[MAXW * MAXH];
    static pt_cell cand[MAXW * MAXH], pref[MAXW * MAXH], buf[MAXW * MAXH];
    pt_patlib lib;
    pt_patlib_init(&lib);
    for (int s = 1; s <= seeds; s++) {
        genmap m;
        pt_rng r;
        pt_rng_seed(&r, (uint64_t)s * 7919u, 3);
        gen(&m, &r);
        m.seed = (uint64_t)s;
        pt_map blank;
        pt_pathfinder *pf = tu_grid_pathfinder(&blank, m.g[0], sizeof m.g[0], m.h);
        int ns = start_cells(&m, starts, MAXW * MAXH);
        ck_assert_msg(ns > 0, "%s seed %d: no start cells", m.kind, s);
        /* Every start when there are few (doors), an even sample otherwise (corridors). */
        int stride = ns > max_starts ? ns / max_starts : 1;
        for (int i = 0; i < ns; i += stride) {
            pt_cell S = starts[i];
            /* The pace cell of the guard's two-cell round: any walkable 4-neighbour. */
            pt_cell pace = S;
            static const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
            for (int d = 0; d < 4; d++)
                if (open_cell(&m, S.x + dx[d], S.y + dy[d])) {
                    pace = (pt_cell){S.x + dx[d], S.y + dy[d]};
                    break;
                }
            if (pace.x == S.x && pace.y == S.y) continue;
            /* Players the guard sees from its start; preferably ones it must pass a gap or a
             * corner to reach (the A* path turns within its first three steps). */
            int nc = 0, np = 0;
            for (int y = 1; y < m.h - 1; y++)
                for (int x = 1; x < m.w - 1; x++) {
                    if (!open_cell(&m, x, y) || (abs(x - S.x) < 2 && abs(y - S.y) < 2)) continue;
                    if (!pt_can_see(&blank, S.x + 0.5, S.y + 0.5, 0.0, 10.0, PT_TAU, x + 0.5, y + 0.5)) continue;
                    int n = pt_path_find(pf, S, (pt_cell){x, y}, buf, MAXW * MAXH);
                    if (n < 2) continue;
                    cand[nc++] = (pt_cell){x, y};
                    int bends = 0;
                    for (int k = 2; k < n && k < 4; k++)
                        bends |= (buf[k].x - buf[k - 1].x != buf[1].x - buf[0].x) || (buf[k].y - buf[k - 1].y != buf[1].y - buf[0].y);
                    if (bends) pref[np++] = (pt_cell){x, y};
                }
            if (nc == 0) continue;
            for (int k = 0; k < 3; k++) {
                pt_cell P = np ? pref[pt_rng_below(&r, (uint32_t)np)] : cand[pt_rng_below(&r, (uint32_t)nc)];
                int heading = (int)pt_rng_below(&r, 8) * 45;
                char pat[160];
                snprintf(pat, sizeof pat, "pattern home\n  kind path\n  points 0,0 %d,%d\n  at_end reverse\nend\n", pace.x - S.x,
                         pace.y - S.y);
                pt_patlib_fini(&lib);
                pt_patlib_init(&lib);
                pt_error err;
                ck_assert_int_eq(pt_patlib_parse(&lib, pat, strlen(pat), "home.pat", &err), PT_OK);
                run_chase(&m, pf, &lib, S, P, MODES[k], heading, st);
            }
        }
        pt_pathfinder_destroy(pf);
        pt_map_fini(&blank);
    }
    pt_patlib_fini(&lib);
}

static void report(const char *what, const stats *st) {
    fprintf(stderr, "check_chase %s: %d runs, %d caught, %d steered chasers went on by tiles, slowest catch at %.0f%% of its bound\n",
            what, st->runs, st->catches, st->fallbacks, st->worst_ratio * 100.0);
    ck_assert_int_gt(st->runs, 50);
}

START_TEST(test_chase_mazes) {
    stats st = {0};
    chase_on(gen_maze, 4, 40, &st);
    report("mazes", &st);
}
END_TEST

START_TEST(test_chase_rooms) {
    stats st = {0};
    chase_on(gen_rooms, 6, 1000, &st);
    report("rooms", &st);
}
END_TEST

START_TEST(test_chase_pillars) {
    stats st = {0};
    chase_on(gen_pillars, 3, 40, &st);
    report("pillars", &st);
}
END_TEST

START_TEST(test_chase_diagonals) {
    stats st = {0};
    chase_on(gen_diagonals, 3, 40, &st);
    report("diagonals", &st);
}
END_TEST

/* The reported case: a steered guard beside a door, the player in sight through it. */
START_TEST(test_steer_beside_door) {
    static const char *const rows[] = {
        "###########",
        "#...#.....#",
        "#...#.....#",
        "#.........#",
        "#...#.....#",
        "#...#.....#",
        "###########",
    };
    genmap m;
    fill(&m, 11, 7, '#');
    for (int y = 0; y < 7; y++) memcpy(m.g[y], rows[y], 11);
    m.kind = "door";
    m.seed = 1;
    pt_map blank;
    pt_pathfinder *pf = tu_grid_pathfinder(&blank, m.g[0], sizeof m.g[0], m.h);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    stats st = {0};
    for (int gy = 2; gy <= 4; gy++)
        for (int gx = 3; gx <= 5; gx++) {
            if (!open_cell(&m, gx, gy)) continue;
            pt_cell pace = {gx == 5 ? 6 : gx - 1, gy};
            char pat[160];
            snprintf(pat, sizeof pat, "pattern home\n  kind path\n  points 0,0 %d,0\n  at_end reverse\nend\n", pace.x - gx);
            pt_patlib_fini(&lib);
            pt_patlib_init(&lib);
            ck_assert_int_eq(pt_patlib_parse(&lib, pat, strlen(pat), "home.pat", &err), PT_OK);
            /* Every player cell on the other side of the door that the guard sees. */
            for (int py = 1; py <= 5; py++)
                for (int px = gx < 4 ? 5 : 1; px <= (gx < 4 ? 9 : 3); px++) {
                    if (abs(px - gx) < 2 && abs(py - gy) < 2) continue;
                    if (!pt_can_see(&blank, gx + 0.5, gy + 0.5, 0.0, 10.0, PT_TAU, px + 0.5, py + 0.5)) continue;
                    for (int k = 0; k < 3; k++)
                        run_chase(&m, pf, &lib, (pt_cell){gx, gy}, (pt_cell){px, py}, MODES[k], 90 * k, &st);
                }
        }
    ck_assert_int_gt(st.catches, 30);
    pt_patlib_fini(&lib);
    pt_pathfinder_destroy(pf);
    pt_map_fini(&blank);
}
END_TEST

/* A stuck steered chaser waits as long as a waypoint patrol would before it goes on by tiles:
 * 1.5 s, or what its vehicle needs to turn full circle, reach its top speed and walk half a
 * tile. The player is in sight across water, with no way round: the guard, unable to plan,
 * stands still; at speed 0.3 the wait is 1 + 0.03 + 0.5 / 0.3 s, not 1.5 s. */
START_TEST(test_stuck_wait_scales_with_speed) {
    static const char text[] = "player at=4,1\n"
                               "guard g at=4,5 view=8 fov=120 speed=0.3 chase=steer heading=-90\n"
                               "grid\n"
                               "#########\n"
                               "#.......#\n"
                               "#~~~~~~~#\n"
                               "#.......#\n"
                               "#.......#\n"
                               "#.......#\n"
                               "#########\n"
                               "end\n";
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_parse(&map, text, strlen(text), "moat.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    pt_world *w = pt_world_create(&map, &lib, NULL, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    const pt_entity *g = pt_world_entity(w, 1);
    int chase_at = -1, steered = 0, tile_at = -1;
    for (int t = 1; t <= 60 * 20 && tile_at < 0; t++) {
        pt_world_step(w);
        if (g->state != PT_STATE_CHASE) continue;
        if (chase_at < 0) chase_at = t;
        if (g->motion == PT_MOTION_CONTINUOUS) steered = 1;
        else if (steered) tile_at = t;
    }
    ck_assert_msg(chase_at > 0, "the guard never chased");
    ck_assert_msg(tile_at > 0, "the stuck chaser never went on by tiles");
    double wait = 1.0 + 0.3 / 10.0 + 0.5 / 0.3;
    ck_assert_msg(fabs((tile_at - chase_at) / 60.0 - wait) < 0.1, "went by tiles %.2f s into the chase, not %.2f s",
                  (tile_at - chase_at) / 60.0, wait);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

static Suite *chase_suite(void) {
    Suite *s = suite_create("chase");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_steer_beside_door);
    tcase_add_test(tc, test_chase_rooms);
    tcase_add_test(tc, test_chase_mazes);
    tcase_add_test(tc, test_chase_pillars);
    tcase_add_test(tc, test_chase_diagonals);
    tcase_add_test(tc, test_stuck_wait_scales_with_speed);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(chase_suite()); }
