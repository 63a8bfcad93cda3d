/* SPDX-License-Identifier: Zlib */
/* check_render_catch - the catch as `patrol render` draws it (the game's frame, headless): a
 * frame during the reach shows the catcher's sprite at the animated pose, not where the world
 * left it; a frame during the grab shows the burst's rays, the banner's frame none. Generated
 * rooms where a guard catches a player standing still; the pose is computed here by the
 * session code (SDL-free, compiled in), the picture by the patrol executable. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>
#include <SDL_image.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_app.h"

#include "test_cli.h"
#include "test_util.h"

#define ASSETS PATROL_SOURCE_DIR "/assets"
#define SCALE 2

typedef struct rgba { Uint8 r, g, b, a; } rgba;

static rgba px(SDL_Surface *s, int x, int y) {
    rgba c = {0, 0, 0, 0};
    if (x < 0 || y < 0 || x >= s->w || y >= s->h) return c;
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static SDL_Surface *load_rgba(const char *path) {
    SDL_Surface *s = IMG_Load(path);
    ck_assert_msg(s != NULL, "cannot load %s", path);
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s);
    return c;
}

/* The share of the opaque pixels of characters.png frame (row, col) that the image shows when
 * the sprite is drawn centred on (x, y) tiles (as pt_render_draw places it: snapped to whole
 * sprite pixels). */
static double sprite_match(SDL_Surface *img, SDL_Surface *chars, int row, int col, double x, double y) {
    int left = (int)lround((x - 0.5) * 16) * SCALE, top = (int)lround((y - 0.5) * 16) * SCALE;
    int same = 0, all = 0;
    for (int sy = 0; sy < 16; sy++)
        for (int sx = 0; sx < 16; sx++) {
            rgba want = px(chars, col * 16 + sx, row * 16 + sy);
            if (want.a != 255) continue;
            for (int k = 0; k < SCALE * SCALE; k++) {
                rgba got = px(img, left + sx * SCALE + k % SCALE, top + sy * SCALE + k / SCALE);
                same += got.r == want.r && got.g == want.g && got.b == want.b;
                all++;
            }
        }
    return all ? (double)same / all : 0.0;
}

/* The best match over the walking frames of the direction the heading draws. */
static double guard_match(SDL_Surface *img, SDL_Surface *chars, double x, double y, double heading) {
    int base = pt_render_frame_col(heading, 0, 0.0);
    double best = 0.0;
    for (int f = 0; f < 3; f++) {
        double m = sprite_match(img, chars, 1, base + f, x, y);
        if (m > best) best = m;
    }
    return best;
}

static char dir[1024];

/* A generated room (walls scattered), the player at one spot, a guard looking its way from
 * 4 to 7 tiles off. 0 when none fits. */
static int write_room(const char *path, uint64_t seed) {
    pt_rng r;
    pt_rng_seed(&r, seed, 11);
    enum { W = 16, H = 10 };
    char g[H][W + 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            g[y][x] = x == 0 || y == 0 || x == W - 1 || y == H - 1 || pt_rng_below(&r, 100) < 7 ? '#' : '.';
        g[y][W] = '\0';
    }
    int px_ = 2 + (int)pt_rng_below(&r, W - 4), py_ = 2 + (int)pt_rng_below(&r, H - 4), gx = 0, gy = 0, ok = 0;
    for (int k = 0; k < 200 && !ok; k++) {
        gx = 1 + (int)pt_rng_below(&r, W - 2);
        gy = 1 + (int)pt_rng_below(&r, H - 2);
        int d = abs(gx - px_) > abs(gy - py_) ? abs(gx - px_) : abs(gy - py_);
        ok = d >= 4 && d <= 7;
    }
    if (!ok) return 0;
    g[py_][px_] = '.';
    g[gy][gx] = '.';
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\nplayer at=%d,%d\nguard g at=%d,%d heading=%.0f view=9 fov=120\ngrid\n", px_, py_, gx, gy,
            atan2(py_ - gy, px_ - gx) * 180.0 / PT_PI);
    for (int y = 0; y < H; y++) fprintf(f, "%s\n", g[y]);
    fprintf(f, "end\n");
    fclose(f);
    return 1;
}

/* patrol render MAP --ticks N into dir/NAME; the drawn x, y of entity id from --positions. */
static SDL_Surface *render_at(const char *map, uint64_t ticks, int id, double *x, double *y) {
    char png[1200], t[32], want[16];
    snprintf(png, sizeof png, "%s/frame.png", dir);
    snprintf(t, sizeof t, "%llu", (unsigned long long)ticks);
    snprintf(want, sizeof want, "\n%d,", id);
    const char *args[] = {map, "--ticks", t, "--overlay", "none", "--scale", "2", "--positions", "--out", png, NULL};
    static run_result rr;
    tu_run_patrol(&rr, "render", args);
    ck_assert_msg(rr.status == 0, "%s", rr.err);
    const char *row = strstr(rr.out, want);
    ck_assert_ptr_nonnull(row);
    /* id,kind,name,state,x,y */
    const char *p = row + 1;
    for (int commas = 0; commas < 4; p++) commas += *p == ',';
    ck_assert_int_eq(sscanf(p, "%lf,%lf", x, y), 2);
    return load_rgba(png);
}

/* Pixels of the burst's yellow within two tiles of (x, y). */
static int burst_pixels(SDL_Surface *img, double x, double y) {
    int n = 0, cx = (int)lround(x * 16 * SCALE), cy = (int)lround(y * 16 * SCALE), rad = 2 * 16 * SCALE;
    for (int j = cy - rad; j <= cy + rad; j++)
        for (int i = cx - rad; i <= cx + rad; i++) {
            rgba c = px(img, i, j);
            n += c.r == 0xff && c.g == 0xd0 && c.b == 0x40;
        }
    return n;
}

START_TEST(test_frames_of_a_catch) {
    snprintf(dir, sizeof dir, "%s/test-out/render-catch-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
    char map[1200];
    snprintf(map, sizeof map, "%s/room.map", dir);
    char chars_path[1200];
    snprintf(chars_path, sizeof chars_path, "%s/characters.png", ASSETS);
    SDL_Surface *chars = load_rgba(chars_path);
    int checked = 0;
    for (uint64_t seed = 1; seed <= 200 && checked < 4; seed++) {
        if (!write_room(map, seed)) continue;
        play_session s;
        pt_error err;
        ck_assert_int_eq(play_open(&s, map, &err), PT_OK);
        for (int t = 0; t < 1500 && s.round == 0; t++) play_tick(&s, 0, 0);
        if (s.round >= 0 || s.catcher < 0) {
            play_close(&s);
            continue;
        }
        /* A tick of the reach where the catcher has gone half a tile or more and stands
         * clear of the player's sprite. */
        uint64_t end = s.ticks, at = 0;
        double dt = pt_world_dt(s.world), x = 0, y = 0, h = 0;
        pt_vec2 pl = pt_world_drawn_pos(s.world, 0, 0.0);
        for (uint64_t k = 1; (double)k * dt < PLAY_CATCH_REACH_S && !at; k++) {
            play_catch_pose(&s, (double)k * dt, &x, &y, &h);
            if (hypot(x - s.catch_x0, y - s.catch_y0) >= 0.5 && (fabs(x - pl.x) >= 1.05 || fabs(y - pl.y) >= 1.05))
                at = k;
        }
        if (!at) {
            play_close(&s);
            continue;
        }
        double rx, ry;
        SDL_Surface *img = render_at(map, end + at, s.catcher, &rx, &ry);
        /* --positions prints the pose; the sprite is drawn there, no longer where it stood. */
        ck_assert(fabs(rx - x) < 0.001 && fabs(ry - y) < 0.001);
        double here = guard_match(img, chars, x, y, h), before = guard_match(img, chars, s.catch_x0, s.catch_y0, h);
        ck_assert_msg(here >= 0.9, "seed %llu: the catcher's sprite at %.3f,%.3f matches %.2f", (unsigned long long)seed,
                      x, y, here);
        ck_assert_msg(before < 0.6, "seed %llu: still drawn where it stood (%.2f)", (unsigned long long)seed, before);
        ck_assert_int_eq(burst_pixels(img, pl.x, pl.y), 0); /* no burst before the grab */
        SDL_FreeSurface(img);
        /* The grab, 0.1 s in: the burst's rays; the banner's time: none. */
        uint64_t grab = end + (uint64_t)lround((PLAY_CATCH_REACH_S + 0.1) / dt);
        img = render_at(map, grab, s.catcher, &rx, &ry);
        ck_assert_int_gt(burst_pixels(img, pl.x, pl.y), 8 * SCALE * SCALE);
        SDL_FreeSurface(img);
        img = render_at(map, end + (uint64_t)lround((PLAY_CATCH_REACH_S + PLAY_CATCH_GRAB_S + 0.2) / dt), s.catcher, &rx,
                        &ry);
        ck_assert_int_eq(burst_pixels(img, pl.x, pl.y), 0);
        play_catch_pose(&s, PLAY_CATCH_REACH_S, &x, &y, &h);
        ck_assert(fabs(rx - x) < 0.001 && fabs(ry - y) < 0.001);
        SDL_FreeSurface(img);
        play_close(&s);
        checked++;
    }
    ck_assert_int_ge(checked, 3);
    SDL_FreeSurface(chars);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_catch");
    TCase *tc = tcase_create("frames");
    tcase_add_test(tc, test_frames_of_a_catch);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
