/* SPDX-License-Identifier: Zlib */
/* check_play_catch - a catch as `patrol play` shows it, without a window: the catcher's drawn
 * pose starts where the world drew it, ends within a tile of the player facing them, never
 * crosses a cell a guard cannot walk (nor squeezes between two diagonal walls), never goes
 * back; over generated maps (diagonal wall corners, water) and generated positions, and in
 * worlds where a guard really catches the player. The stages (reach, grab, banner), the
 * caught cue at the grab, the skip key, and a world that stands still throughout. The
 * session code is SDL-free; it is compiled in here with the shared loader. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_app.h"

#include "test_util.h"

#define SAMPLES 400 /* poses looked at over the reach */

/* ---- an independent look at a drawn path ---------------------------------------------------- */

/* Problems of the straight segment a-b: points in a cell a guard cannot walk, or a move
 * between two diagonal cells beside a wall (sampled every 1/512 tile: not the session's
 * grid walk). */
static int path_faults(const pt_map *m, double ax, double ay, double bx, double by) {
    double len = hypot(bx - ax, by - ay);
    int n = (int)ceil(len * 512.0) + 1, faults = 0;
    int px = (int)floor(ax), py = (int)floor(ay);
    faults += !pt_map_walkable(m, px, py);
    for (int i = 1; i <= n; i++) {
        double u = (double)i / n;
        int cx = (int)floor(ax + (bx - ax) * u), cy = (int)floor(ay + (by - ay) * u);
        if (cx == px && cy == py) continue;
        faults += !pt_map_walkable(m, cx, cy) || tu_cuts_corner(m, px, py, cx, cy);
        px = cx, py = cy;
    }
    return faults;
}

/* A session holding only a catch: what play_catch_pose reads (catch_plan fills the same from a
 * world). */
static void fake_catch(play_session *s, double gx, double gy, double gh, double ex, double ey, double eh) {
    memset(s, 0, sizeof *s);
    s->round = -1;
    s->catcher = 1;
    s->catch_skip = -1.0;
    s->catch_x0 = gx, s->catch_y0 = gy, s->catch_h0 = gh;
    s->catch_x1 = ex, s->catch_y1 = ey, s->catch_h1 = eh;
}

static double angle_diff(double a, double b) { return fabs(atan2(sin(a - b), cos(a - b))); }

/* A random point in a random walkable cell of m (its centre half the time, as tile movers
 * stand), or 0 after many tries. */
static int random_spot(const pt_map *m, pt_rng *r, double *x, double *y) {
    for (int k = 0; k < 1000; k++) {
        int cx = (int)pt_rng_below(r, (uint32_t)m->w), cy = (int)pt_rng_below(r, (uint32_t)m->h);
        if (!pt_map_walkable(m, cx, cy)) continue;
        int centre = pt_rng_below(r, 2) == 0;
        *x = cx + (centre ? 0.5 : 0.05 + 0.9 * pt_rng_unit(r));
        *y = cy + (centre ? 0.5 : 0.05 + 0.9 * pt_rng_unit(r));
        return 1;
    }
    return 0;
}

/* ---- generated situations --------------------------------------------------------------------- */

START_TEST(test_pose_over_generated_maps) {
    int situations = 0, moved = 0, held = 0, fallback = 0, line_clear = 0, line_taken = 0;
    int start_bad = 0, end_far = 0, facing_bad = 0, wall_faults = 0, backwards = 0, beyond = 0, held_moves = 0;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        pt_map m;
        tu_corner_map(&m, 12 + (int)(seed % 9), 9 + (int)(seed % 5), seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 26);
        for (int k = 0; k < 12; k++) { /* water too: guards walk around it, not over it */
            int x = 1 + (int)pt_rng_below(&r, (uint32_t)(m.w - 2)), y = 1 + (int)pt_rng_below(&r, (uint32_t)(m.h - 2));
            pt_map_set(&m, x, y, '~');
        }
        for (int k = 0; k < 60; k++) {
            double px, py, gx, gy;
            if (!random_spot(&m, &r, &px, &py)) continue;
            /* The guard within the catch distance (and a little beyond) of the player; a
             * quarter of them both on cell centres, as tile movers stand (lines through cell
             * corners: the diagonals). */
            double a = pt_rng_unit(&r) * 2 * PT_PI, d = 0.2 + 1.8 * pt_rng_unit(&r);
            gx = px + cos(a) * d, gy = py + sin(a) * d;
            if (k % 4 == 0) {
                px = floor(px) + 0.5, py = floor(py) + 0.5;
                gx = px + (int)pt_rng_below(&r, 5) - 2, gy = py + (int)pt_rng_below(&r, 5) - 2;
                d = hypot(gx - px, gy - py);
                if (d == 0.0) continue;
            }
            if (!pt_map_walkable(&m, (int)floor(gx), (int)floor(gy))) continue;
            double gh = pt_rng_signed(&r) * PT_PI, ex, ey, eh;
            int mv = play_catch_target(&m, gx, gy, gh, px, py, &ex, &ey, &eh);
            situations++;
            play_session s;
            fake_catch(&s, gx, gy, gh, ex, ey, eh);
            double x, y, h;
            ck_assert(play_catch_pose(&s, 0.0, &x, &y, &h));
            start_bad += x != gx || y != gy || h != gh;
            /* The path, pose by pose: on walkable cells, never back toward the start. */
            double lx = x, ly = y, from = 0.0;
            for (int i = 1; i <= SAMPLES; i++) {
                double t = PLAY_CATCH_REACH_S * 1.25 * i / SAMPLES;
                ck_assert(play_catch_pose(&s, t, &x, &y, &h));
                wall_faults += path_faults(&m, lx, ly, x, y);
                double f = hypot(x - gx, y - gy);
                backwards += f < from - 1e-12;
                from = f;
                lx = x, ly = y;
                if (!mv) held_moves += x != gx || y != gy;
            }
            play_catch_pose(&s, PLAY_CATCH_REACH_S, &x, &y, &h);
            double dp = hypot(px - x, py - y);
            if (dp > 1e-6) facing_bad += angle_diff(h, atan2(py - y, px - x)) > 1e-6;
            beyond += hypot(x - gx, y - gy) > d + 1e-9;
            /* The straight line to the point beside the player, as this test sees it. */
            double bx = px + (gx - px) / d * PLAY_CATCH_BESIDE, by = py + (gy - py) / d * PLAY_CATCH_BESIDE;
            int clear = d > PLAY_CATCH_BESIDE && path_faults(&m, gx, gy, bx, by) == 0;
            line_clear += clear;
            if (mv) {
                moved++;
                end_far += dp > 1.0;
                int on_line = fabs(x - bx) < 1e-9 && fabs(y - by) < 1e-9;
                line_taken += clear && on_line;
                fallback += !on_line;
            } else {
                held++;
            }
        }
        pt_map_fini(&m);
    }
    fprintf(stderr, "situations %d moved %d held %d fallback %d line_clear %d line_taken %d\n", situations, moved, held, fallback, line_clear, line_taken);
    ck_assert_int_gt(situations, 3000);
    ck_assert_int_eq(start_bad, 0);
    ck_assert_int_eq(wall_faults, 0);
    ck_assert_int_eq(backwards, 0);
    ck_assert_int_eq(end_far, 0);
    ck_assert_int_eq(facing_bad, 0);
    ck_assert_int_eq(beyond, 0);
    ck_assert_int_eq(held_moves, 0);
    /* The straight line is taken whenever it is clear (a line grazing a wall corner within
     * CATCH_CORNER may be refused); the fallback and holding both happen. */
    ck_assert_int_ge(line_taken * 100, line_clear * 98);
    ck_assert_int_gt(fallback, 0);
    ck_assert_int_gt(held, 0);
    ck_assert_int_gt(moved, situations / 2);
}
END_TEST

/* Hand-made cases: a wall between (the line crosses it: around by a clear point, or hold),
 * water between, already beside, a diagonal squeeze. */
START_TEST(test_target_cases) {
    static const char *const rows[] = {
        "##########",
        "#........#",
        "#...#....#",
        "#........#",
        "#..~~~~..#",
        "#........#",
        "#.#......#",
        "#..#.....#",
        "##########",
    };
    pt_map m;
    tu_map_from_rows(&m, rows, 9);
    double ex, ey, eh;
    /* Open floor: 0.8 tiles from the player on the line, facing it. */
    ck_assert_int_eq(play_catch_target(&m, 7.5, 1.5, 0.0, 6.0, 1.5, &ex, &ey, &eh), 1);
    ck_assert(fabs(ex - 6.8) < 1e-9 && fabs(ey - 1.5) < 1e-9);
    ck_assert(angle_diff(eh, PT_PI) < 1e-9);
    /* Already beside: holds, turns to the player. */
    ck_assert_int_eq(play_catch_target(&m, 6.5, 1.5, 0.0, 6.0, 1.5, &ex, &ey, &eh), 0);
    ck_assert(ex == 6.5 && ey == 1.5 && angle_diff(eh, PT_PI) < 1e-9);
    /* The wall at 4,2 between 5.5,2.5 and the player at 3.5,2.5: not through it. */
    int mv = play_catch_target(&m, 5.5, 2.5, 0.0, 3.5, 2.5, &ex, &ey, &eh);
    ck_assert_int_eq(path_faults(&m, 5.5, 2.5, ex, ey), 0);
    if (mv) ck_assert(hypot(ex - 3.5, ey - 2.5) <= 1.0);
    ck_assert(!(ex > 3.9 && ex < 5.1 && ey > 1.9 && ey < 3.1));
    /* Water (row 4) between a guard at 5.5,5.3 and the player at 5.5,3.6: holds. */
    ck_assert_int_eq(play_catch_target(&m, 5.5, 5.3, 0.0, 5.5, 3.6, &ex, &ey, &eh), 0);
    ck_assert(ex == 5.5 && ey == 5.3);
    ck_assert(angle_diff(eh, -PT_PI / 2) < 1e-9);
    /* The diagonal gap between 2,6 and 3,7: a guard at 3.5,6.5 does not squeeze through to
     * the player at 2.4,7.6 (both cells walkable, the corner sealed). */
    mv = play_catch_target(&m, 3.5, 6.5, 0.0, 2.4, 7.6, &ex, &ey, &eh);
    ck_assert_int_eq(path_faults(&m, 3.5, 6.5, ex, ey), 0);
    /* NaN anywhere: holds where it is. */
    ck_assert_int_eq(play_catch_target(&m, 3.5, 3.5, 1.0, NAN, 3.5, &ex, &ey, &eh), 0);
    ck_assert(ex == 3.5 && ey == 3.5);
    pt_map_fini(&m);
}
END_TEST

/* ---- real catches ------------------------------------------------------------------------------- */

static char dir[1024];

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/catch-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

/* A generated room: walls and water scattered, the player standing at one spot, a guard
 * looking its way from 3 to 7 tiles off. Writes it to dir/NAME; 0 when no room fits. */
static int write_room(const char *name, uint64_t seed) {
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    enum { W = 18, H = 11 };
    char g[H][W + 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int edge = x == 0 || y == 0 || x == W - 1 || y == H - 1;
            uint32_t k = pt_rng_below(&r, 100);
            g[y][x] = edge ? '#' : k < 8 ? '#' : k < 11 ? '~' : '.';
        }
        g[y][W] = '\0';
    }
    int px = 2 + (int)pt_rng_below(&r, W - 4), py = 2 + (int)pt_rng_below(&r, H - 4), gx = 0, gy = 0, ok = 0;
    for (int k = 0; k < 200 && !ok; k++) {
        gx = 1 + (int)pt_rng_below(&r, W - 2);
        gy = 1 + (int)pt_rng_below(&r, H - 2);
        int d = abs(gx - px) > abs(gy - py) ? abs(gx - px) : abs(gy - py);
        ok = d >= 3 && d <= 7;
    }
    if (!ok) return 0;
    g[py][px] = '.';
    g[gy][gx] = '.';
    double heading = atan2(py - gy, px - gx) * 180.0 / PT_PI;
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\nplayer at=%d,%d\nguard g%llu at=%d,%d heading=%.0f view=9 fov=120\ngrid\n", px, py,
            (unsigned long long)seed, gx, gy, heading);
    for (int y = 0; y < H; y++) fprintf(f, "%s\n", g[y]);
    fprintf(f, "end\n");
    fclose(f);
    return 1;
}

static void open_room(play_session *s, const char *name) {
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    pt_error err;
    int rc = play_open(s, p, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
}

/* The actors a frame starts from once the round is over (pt_render_actors_from_world is in
 * the renderer: what play_catch_actors reads and writes, from the world at alpha 0). */
static void frame_actors(const play_session *s, pt_actor *a, int n) {
    memset(a, 0, sizeof *a * (size_t)n);
    for (int i = 0; i < n; i++) {
        const pt_entity *e = pt_world_entity(s->world, i);
        pt_vec2 at = pt_world_drawn_pos(s->world, i, 0.0);
        a[i].kind = e->kind;
        a[i].state = (int)e->state;
        a[i].x = at.x;
        a[i].y = at.y;
        a[i].heading = e->heading;
    }
}

/* Stands the player still until the round ends (or 1500 ticks); the caught cues seen. */
static int until_end(play_session *s, int *cues) {
    for (int t = 0; t < 1500 && s->round == 0; t++) {
        play_tick(s, 0, 0);
        int n;
        const play_cue *c = play_take_cues(s, &n);
        for (int i = 0; i < n; i++) *cues += c[i].kind == PLAY_CUE_CAUGHT;
    }
    return s->round;
}

START_TEST(test_catches_in_worlds) {
    int catches = 0, moved = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        if (!write_room("room.map", seed)) continue;
        play_session s;
        open_room(&s, "room.map");
        int cues = 0;
        if (until_end(&s, &cues) >= 0) {
            play_close(&s);
            continue;
        }
        catches++;
        ck_assert_int_eq(cues, 0); /* not at the catch tick: at the grab */
        ck_assert_int_gt(s.catcher, 0);
        const pt_entity *g = pt_world_entity(s.world, s.catcher);
        ck_assert_str_eq(s.caught_by, g->name);
        /* The pose starts where the frame drew the catcher when the round ended. */
        pt_vec2 at = pt_world_drawn_pos(s.world, s.catcher, 0.0), pl = pt_world_drawn_pos(s.world, 0, 0.0);
        double x, y, h;
        ck_assert(play_catch_pose(&s, 0.0, &x, &y, &h));
        ck_assert(x == at.x && y == at.y);
        play_catch_pose(&s, PLAY_CATCH_REACH_S, &x, &y, &h);
        moved += x != at.x || y != at.y;
        if (x != at.x || y != at.y) ck_assert(hypot(x - pl.x, y - pl.y) <= 1.0);
        ck_assert_int_eq(path_faults(&s.level->map, at.x, at.y, x, y), 0);
        /* The stages in order, the cue once at the first grab tick, the world standing still,
         * the frame's actors at the pose. */
        uint64_t tick = pt_world_tick(s.world);
        pt_actor a[8];
        play_catch_stage last = PLAY_CATCH_REACH;
        int n = pt_world_count(s.world), grab_tick = -1, order_bad = 0, actor_bad = 0;
        ck_assert_int_le(n, 8);
        for (int k = 0; k < 120; k++) {
            double t;
            play_catch_stage st = play_catch_at(&s, &t);
            order_bad += st < last || st == PLAY_CATCH_NONE || t < 0.0;
            last = st;
            frame_actors(&s, a, n);
            play_catch_actors(&s, a, n);
            play_catch_pose(&s, st == PLAY_CATCH_REACH ? t : PLAY_CATCH_REACH_S, &x, &y, &h);
            if (st != PLAY_CATCH_GRAB) actor_bad += a[s.catcher].x != x || a[s.catcher].y != y;
            actor_bad += (a[0].state == PT_STATE_CAUGHT) != (st != PLAY_CATCH_REACH);
            play_tick(&s, 1, 0);
            int nc;
            const play_cue *c = play_take_cues(&s, &nc);
            for (int i = 0; i < nc; i++)
                if (c[i].kind == PLAY_CUE_CAUGHT) {
                    cues++;
                    if (grab_tick < 0) grab_tick = k + 1;
                }
        }
        ck_assert_int_eq(order_bad, 0);
        ck_assert_int_eq(actor_bad, 0);
        ck_assert_int_eq(last, PLAY_CATCH_DONE);
        ck_assert_int_eq(cues, 1);
        ck_assert_uint_eq(pt_world_tick(s.world), tick);
        ck_assert_int_eq(grab_tick, (int)lround(PLAY_CATCH_REACH_S / pt_world_dt(s.world)));
        /* Again, skipped halfway through the reach: the banner at once, the cue with it. */
        pt_error err;
        ck_assert_int_eq(play_restart(&s, &err), PT_OK);
        cues = 0;
        ck_assert_int_lt(until_end(&s, &cues), 0);
        for (int k = 0; k < 10; k++) play_tick(&s, 0, 0);
        ck_assert_int_eq(play_catch_at(&s, NULL), PLAY_CATCH_REACH);
        ck_assert_int_eq(play_catch_skip(&s), 1);
        ck_assert_int_eq(play_catch_at(&s, NULL), PLAY_CATCH_DONE);
        ck_assert_int_eq(play_catch_skip(&s), 0);
        int nc;
        const play_cue *c = play_take_cues(&s, &nc);
        for (int i = 0; i < nc; i++) cues += c[i].kind == PLAY_CUE_CAUGHT;
        for (int k = 0; k < 120; k++) {
            play_tick(&s, 0, 0);
            c = play_take_cues(&s, &nc);
            for (int i = 0; i < nc; i++) cues += c[i].kind == PLAY_CUE_CAUGHT;
        }
        ck_assert_int_eq(cues, 1);
        frame_actors(&s, a, n);
        play_catch_actors(&s, a, n);
        play_catch_pose(&s, PLAY_CATCH_REACH_S, &x, &y, &h);
        ck_assert(a[s.catcher].x == x && a[s.catcher].y == y);
        ck_assert_int_eq(play_restart(&s, &err), PT_OK);
        ck_assert_int_eq(play_catch_at(&s, NULL), PLAY_CATCH_NONE);
        ck_assert_int_eq(play_catch_pose(&s, 0.1, &x, &y, &h), 0);
        ck_assert_int_eq(play_catch_skip(&s), 0);
        play_close(&s);
    }
    fprintf(stderr, "catches %d moved %d\n", catches, moved);
    ck_assert_int_ge(catches, 15);
    ck_assert_int_ge(moved, catches / 2);
}
END_TEST

/* A round won or still running has no catch to show. */
START_TEST(test_no_catch_no_animation) {
    char p[1200];
    snprintf(p, sizeof p, "%s/goal.map", dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("format 1\nplayer at=1,1\ngrid\n######\n#...E#\n######\nend\n", f);
    fclose(f);
    play_session s;
    open_room(&s, "goal.map");
    pt_actor a[1], b[1];
    int stages = 0;
    for (int t = 0; t < 200; t++) {
        play_tick(&s, 1, 0);
        stages += play_catch_at(&s, NULL) != PLAY_CATCH_NONE;
        frame_actors(&s, a, 1);
        b[0] = a[0];
        play_catch_actors(&s, a, 1);
        ck_assert(memcmp(a, b, sizeof a) == 0);
    }
    ck_assert_int_eq(s.round, 1);
    ck_assert_int_eq(stages, 0);
    ck_assert_int_eq(play_catch_skip(&s), 0);
    play_close(&s);
}
END_TEST

int main(void) {
    Suite *s = suite_create("play_catch");
    TCase *pure = tcase_create("pose");
    tcase_add_test(pure, test_pose_over_generated_maps);
    tcase_add_test(pure, test_target_cases);
    suite_add_tcase(s, pure);
    TCase *worlds = tcase_create("worlds");
    tcase_add_checked_fixture(worlds, setup, NULL);
    tcase_add_test(worlds, test_catches_in_worlds);
    tcase_add_test(worlds, test_no_catch_no_animation);
    suite_add_tcase(s, worlds);
    return tu_run(s);
}
