/* SPDX-License-Identifier: Zlib */
/* check_render_layout - the game's screen (issue 36, item 10): where the HUD's bars and the
 * map go (play_layout_for) and the window's first size (play_window_size_for), over maps of
 * 8 x 8 to 200 x 120 tiles and windows / displays of 640 x 480 to 1920 x 1080: the bars lie
 * inside the window, the map between them (no row or column under a bar), whole at the
 * largest scale that fits, and only a map that does not fit at scale 1 scrolls (every row and
 * column reachable by the camera). Then frames drawn at the first window's size on generated
 * maps with exits in the corners: the top and the bottom rows and the side columns are drawn
 * between the bars. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_app.h"

#include "../src/app/game/play_frame.c"

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

static void bars(int w, int h, int *top, int *bottom) { pt_hud_bars(pt_hud_scale(w, h), top, bottom); }

/* The sizes tried: the ends of the ranges, the 24 x 14 fit, and generated ones. */
static const int map_ws[] = {8, 9, 12, 16, 23, 24, 25, 30, 31, 40, 48, 56, 64, 80, 100, 127, 160, 199, 200};
static const int map_hs[] = {8, 9, 11, 14, 15, 16, 20, 24, 32, 36, 40, 50, 64, 80, 99, 120};
static const int wins[][2] = {{640, 480}, {800, 600}, {960, 600}, {1024, 768}, {1152, 720},
                              {1280, 720}, {1280, 800}, {1366, 768}, {1600, 900}, {1920, 1080}};

static void check_layout(int mw, int mh, int t, int w, int h) {
    int top = 0, bottom = 0;
    bars(w, h, &top, &bottom);
    play_layout L = play_layout_for(mw, mh, t, w, h, top, bottom);
    char at[96];
    snprintf(at, sizeof at, "map %dx%d (%d px) in %dx%d", mw, mh, t, w, h);
    /* The bars inside the window, apart. */
    ck_assert_msg(L.top_h == top && L.bottom_h == bottom && L.bottom_y == h - bottom, "%s: bars", at);
    ck_assert_msg(L.top_h <= L.bottom_y, "%s: the bars overlap", at);
    /* The view between the bars. */
    ck_assert_msg(L.view_x >= 0 && L.view_x + L.view_w <= w && L.view_y >= L.top_h &&
                      L.view_y + L.view_h <= L.bottom_y && L.view_w > 0 && L.view_h > 0,
                  "%s: the view (%d,%d %dx%d) is not between the bars (%d, %d)", at, L.view_x, L.view_y, L.view_w,
                  L.view_h, L.top_h, L.bottom_y);
    ck_assert_int_ge(L.scale, 1);
    long uw = (long)mw * t, uh = (long)mh * t;
    int fits1 = uw <= L.view_w && uh <= L.view_h;
    ck_assert_msg(L.follow == !fits1, "%s: follow %d, the map %s at scale 1", at, L.follow, fits1 ? "fits" : "does not fit");
    pt_map map = {.w = mw, .h = mh, .tile_px = t};
    pt_view v = {.x = L.view_x, .y = L.view_y, .w = L.view_w, .h = L.view_h, .scale = L.scale};
    double x0, y0, x1, y1;
    if (!L.follow) {
        /* Whole, inside the view, at the largest scale that fits. */
        ck_assert_msg(uw * L.scale <= L.view_w && uh * L.scale <= L.view_h, "%s: scale %d does not fit", at, L.scale);
        ck_assert_msg(L.scale == PT_RENDER_MAX_SCALE || uw * (L.scale + 1) > L.view_w || uh * (L.scale + 1) > L.view_h,
                      "%s: scale %d, and %d fits", at, L.scale, L.scale + 1);
        v.cam_x = L.cam_x;
        v.cam_y = L.cam_y;
        pt_view_to_px(&map, &v, 0.0, 0.0, &x0, &y0);
        pt_view_to_px(&map, &v, mw, mh, &x1, &y1);
        ck_assert_msg(x0 == L.map_x && y0 == L.map_y, "%s: the map is drawn at %g,%g, not %d,%d", at, x0, y0, L.map_x,
                      L.map_y);
        ck_assert_msg(x0 >= L.view_x && y0 >= L.view_y && x1 <= L.view_x + L.view_w && y1 <= L.view_y + L.view_h,
                      "%s: the map (%g,%g)-(%g,%g) is not inside the view", at, x0, y0, x1, y1);
        /* Centred, to within a sprite pixel. */
        ck_assert_msg(fabs((x0 - L.view_x) - (L.view_x + L.view_w - x1)) <= 2 * L.scale + 1 &&
                          fabs((y0 - L.view_y) - (L.view_y + L.view_h - y1)) <= 2 * L.scale + 1,
                      "%s: the map is not centred", at);
    } else {
        /* The camera reaches every row and column: following the player into each corner,
         * the corner's tile is inside the view. */
        for (int c = 0; c < 4; c++) {
            int tx = c & 1 ? mw - 1 : 0, ty = c & 2 ? mh - 1 : 0;
            pt_view_follow(&v, &map, tx + 0.5, ty + 0.5);
            pt_view_to_px(&map, &v, tx, ty, &x0, &y0);
            pt_view_to_px(&map, &v, tx + 1, ty + 1, &x1, &y1);
            ck_assert_msg(x0 >= L.view_x && y0 >= L.view_y && x1 <= L.view_x + L.view_w && y1 <= L.view_y + L.view_h,
                          "%s: the corner tile %d,%d (%g,%g)-(%g,%g) is not in the view", at, tx, ty, x0, y0, x1, y1);
        }
    }
}

START_TEST(test_layout_range) {
    int ts[] = {16, 8, 32};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++)
        for (size_t i = 0; i < sizeof map_ws / sizeof map_ws[0]; i++)
            for (size_t j = 0; j < sizeof map_hs / sizeof map_hs[0]; j++)
                for (size_t n = 0; n < sizeof wins / sizeof wins[0]; n++)
                    check_layout(map_ws[i], map_hs[j], ts[k], wins[n][0], wins[n][1]);
    unsigned st = 1036;
    for (int k = 0; k < 20000; k++)
        check_layout(8 + (int)(rnd(&st) % 193), 8 + (int)(rnd(&st) % 113), 16, 640 + (int)(rnd(&st) % 1281),
                     480 + (int)(rnd(&st) % 601));
    /* Smaller than a window is made, and empty: still bars inside, a view of a pixel. */
    check_layout(30, 16, 16, 320, 240);
    play_layout L = play_layout_for(30, 16, 16, 100, 20, 15, 14);
    ck_assert_int_eq(L.view_h, 1);
    ck_assert_int_le(L.bottom_y + L.bottom_h, 20);
}
END_TEST

/* The first window: inside 9/10 of the display (at least 480 x 320), the map and both bars
 * at the largest scale (up to 4) that fits there; a map too large at scale 1 follows. */
static void check_window(int mw, int mh, int t, int dw, int dh) {
    int w = 0, h = 0;
    play_window_size_for(mw, mh, t, dw, dh, &w, &h);
    int maxw = dw * 9 / 10, maxh = dh * 9 / 10;
    char at[96];
    snprintf(at, sizeof at, "map %dx%d (%d px) on %dx%d: window %dx%d", mw, mh, t, dw, dh, w, h);
    ck_assert_msg(w >= 480 && h >= 320 && w <= maxw && h <= maxh, "%s: not within 480x320 .. 9/10 of the display", at);
    int top = 0, bottom = 0, mtop = 0, mbottom = 0;
    bars(w, h, &top, &bottom);
    bars(maxw, maxh, &mtop, &mbottom); /* the largest bars a window there has */
    play_layout L = play_layout_for(mw, mh, t, w, h, top, bottom);
    for (int s = 1; s <= 4; s++) {
        int fits = (long)mw * t * s <= maxw && (long)mh * t * s + mtop + mbottom <= maxh;
        if (!fits) continue;
        ck_assert_msg(!L.follow && L.scale >= s, "%s: scale %d (follow %d), and the map fits at %d", at, L.scale,
                      L.follow, s);
    }
    if (!L.follow) /* no bigger than it needs */
        ck_assert_msg(w <= (mw * t * L.scale > 480 ? mw * t * L.scale : 480) + 0 &&
                          h <= (mh * t * L.scale + top + bottom > 320 ? mh * t * L.scale + top + bottom : 320),
                      "%s: larger than the map and the bars at scale %d", at, L.scale);
}

START_TEST(test_window_range) {
    static const int disps[][2] = {{640, 480}, {800, 600}, {1024, 768}, {1280, 720}, {1280, 800},
                                   {1366, 768}, {1440, 900}, {1600, 900}, {1920, 1080}, {1920, 1050}};
    for (size_t i = 0; i < sizeof map_ws / sizeof map_ws[0]; i++)
        for (size_t j = 0; j < sizeof map_hs / sizeof map_hs[0]; j++)
            for (size_t n = 0; n < sizeof disps / sizeof disps[0]; n++) {
                check_window(map_ws[i], map_hs[j], 16, disps[n][0], disps[n][1]);
                check_window(map_ws[i], map_hs[j], 8, disps[n][0], disps[n][1]);
            }
    unsigned st = 4242;
    for (int k = 0; k < 5000; k++)
        check_window(8 + (int)(rnd(&st) % 193), 8 + (int)(rnd(&st) % 113), 16, 640 + (int)(rnd(&st) % 1281),
                     480 + (int)(rnd(&st) % 601));
    /* The map: 30 x 16 on a 1280 x 800 display opens whole, at scale 2. */
    int w = 0, h = 0;
    play_window_size_for(30, 16, 16, 1280, 800, &w, &h);
    int top = 0, bottom = 0;
    bars(w, h, &top, &bottom);
    play_layout L = play_layout_for(30, 16, 16, w, h, top, bottom);
    ck_assert_msg(!L.follow && L.scale == 2, "30x16 on 1280x800: %dx%d, scale %d, follow %d", w, h, L.scale, L.follow);
}
END_TEST

/* ---- frames ------------------------------------------------------------------------------ */

typedef struct frame_job { play_session *s; play_frame *f; } frame_job;

static int draw_frame(pt_render *r, int w, int h, void *user) {
    const frame_job *j = user;
    return play_draw_frame(j->s, r, j->f, w, h);
}

/* Generated walled yards of mw x mh with an exit in each corner's row or column, the player
 * in a corner, drawn with the HUD at the first window's size on a display: the map's four
 * corner tiles lie between the bars (the view shows them) - or, when the map does not fit,
 * the player's corner does. */
START_TEST(test_frames_corners) {
    static play_session s;
    unsigned st = 3616;
    char path[] = "/tmp/check_render_layout_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    static const int disps[][2] = {{1280, 800}, {1920, 1080}, {1024, 768}, {640, 480}};
    for (int k = 0; k < 14; k++) {
        int mw = k == 0 ? 30 : 9 + (int)(rnd(&st) % 60), mh = k == 0 ? 16 : 8 + (int)(rnd(&st) % 40);
        int px = k & 1 ? mw - 2 : 1, py = k & 2 ? mh - 2 : 1;
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "format 1\ntitle \"yard\"\ntile_size 16\nseed 3\nplayer at=%d,%d heading=0\ngrid\n", px, py);
        for (int y = 0; y < mh; y++) {
            for (int x = 0; x < mw; x++) {
                int edge = x == 0 || y == 0 || x == mw - 1 || y == mh - 1;
                int exit = (y == 0 && x == mw - 3) || (y == mh - 1 && x == 3) || (x == 0 && y == mh / 2);
                fputc(exit ? 'E' : edge ? '#' : '.', f);
            }
            fputc('\n', f);
        }
        fprintf(f, "end\n");
        fclose(f);
        pt_error err;
        ck_assert_msg(play_open(&s, path, &err) == 0, "%s:%d: %s", err.file, err.line, err.message);
        const int *d = disps[k % 4];
        int w = 0, h = 0, top = 0, bottom = 0;
        play_window_size_for(mw, mh, 16, d[0], d[1], &w, &h);
        bars(w, h, &top, &bottom);
        play_frame fr = {.hud = 1, .follow = 1, .speed = 1.0};
        frame_job j = {&s, &fr};
        SDL_Surface *out = pt_render_surface_with(w, h, NULL, draw_frame, &j, &err);
        ck_assert_msg(out != NULL, "%s", err.message);
        SDL_FreeSurface(out);
        int mtop = 0, mbottom = 0;
        bars(d[0] * 9 / 10, d[1] * 9 / 10, &mtop, &mbottom);
        int fits = (long)mw * 16 <= d[0] * 9 / 10 && (long)mh * 16 + mtop + mbottom <= d[1] * 9 / 10;
        for (int c = 0; c < 4; c++) {
            int tx = c & 1 ? mw - 1 : 0, ty = c & 2 ? mh - 1 : 0;
            if (!fits && (tx != (px > 1 ? mw - 1 : 0) || ty != (py > 1 ? mh - 1 : 0))) continue;
            double x0 = fr.pick_x + (tx - fr.pick_cam_x) * fr.pick_unit, y0 = fr.pick_y + (ty - fr.pick_cam_y) * fr.pick_unit;
            double x1 = x0 + fr.pick_unit, y1 = y0 + fr.pick_unit;
            ck_assert_msg(x0 >= 0 && x1 <= w && y0 >= top && y1 <= h - bottom,
                          "%d: map %dx%d in %dx%d: tile %d,%d at (%g,%g)-(%g,%g) is under a bar (top %d, bottom from %d)",
                          k, mw, mh, w, h, tx, ty, x0, y0, x1, y1, top, h - bottom);
        }
        play_frame_fini(&fr);
        play_close(&s);
    }
    unlink(path);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, test_layout_range);
    tcase_add_test(tc, test_window_range);
    tcase_add_test(tc, test_frames_corners);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
