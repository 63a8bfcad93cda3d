/* SPDX-License-Identifier: Zlib */
/* check_render - the renderer, headless: pixels compared with the sprite sheets read
 * independently with IMG_Load, sizes, missing assets, overlays, many frames. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkstemp */
#include <check.h>

#include <SDL.h>
#include <SDL_image.h>

#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/rng.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ASSETS PATROL_SOURCE_DIR "/assets"

/* ---- helpers ------------------------------------------------------------------------------- */

static SDL_Surface *load_rgba(const char *path) {
    SDL_Surface *s = IMG_Load(path);
    ck_assert_msg(s != NULL, "cannot load %s: %s", path, IMG_GetError());
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s);
    ck_assert(c != NULL);
    return c;
}

static SDL_Surface *sheet(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ASSETS, name);
    return load_rgba(path);
}

typedef struct rgba { Uint8 r, g, b, a; } rgba;

static rgba px(SDL_Surface *s, int x, int y) {
    rgba c = {0, 0, 0, 0};
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

static int same_rgb(rgba a, rgba b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static void blank(pt_map *m, int w, int h) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
}

static SDL_Surface *draw(const pt_map *m, const pt_actor *a, int n, const pt_view *v) {
    pt_scene s = {.map = m, .actors = a, .nactors = n};
    long w, h;
    pt_view_map_size(m, v->scale, &w, &h);
    pt_error err;
    SDL_Surface *out = pt_render_surface(&s, v, (int)w, (int)h, ASSETS, &err);
    ck_assert_msg(out != NULL, "render failed: %s", err.message);
    ck_assert_int_eq(out->format->format, SDL_PIXELFORMAT_RGBA32);
    return out;
}

/* Compares the 16x16 sprite `frame` of sheet (frames per_row a row) with the image at tile
 * (tx,ty), scale s. Opaque sprite pixels must match exactly; transparent ones must show
 * `under` (the same region of another image, or skipped when NULL). Returns mismatches;
 * *compared counts checked pixels. */
static int cmp_sprite(SDL_Surface *img, int tx, int ty, int s, SDL_Surface *sh, int frame, int per_row,
                      SDL_Surface *under, int *compared) {
    int bad = 0;
    int sx0 = (frame % per_row) * 16, sy0 = (frame / per_row) * 16;
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            rgba want = px(sh, sx0 + x, sy0 + y);
            for (int k = 0; k < s * s; k++) {
                int ix = (tx * 16 + x) * s + k % s, iy = (ty * 16 + y) * s + k / s;
                rgba got = px(img, ix, iy);
                if (want.a == 255) {
                    bad += !same_rgb(got, want);
                    (*compared)++;
                } else if (want.a == 0 && under) {
                    bad += !same_rgb(got, px(under, ix, iy));
                    (*compared)++;
                }
            }
        }
    }
    return bad;
}

static void out_path(char *buf, size_t cap, const char *name) {
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    snprintf(buf, cap, "%s/test-out/%d-%s", PATROL_BUILD_DIR, (int)getpid(), name);
}

/* ---- core ---------------------------------------------------------------------------------- */

START_TEST(test_tile_pixels) {
    pt_map m;
    blank(&m, 6, 4);
    struct { int x, y; char ch; int sprite; } cells[] = {
        {1, 1, '#', 1}, {2, 1, '~', 2}, {3, 2, '=', 4}, {4, 2, ',', 6}, {0, 3, '.', 0}, {5, 3, 'E', 8},
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        ck_assert(pt_map_set(&m, cells[i].x, cells[i].y, cells[i].ch));
    SDL_Surface *tiles = sheet("tiles.png");
    for (int s = 1; s <= 3; s++) {
        pt_view v = {.scale = s};
        SDL_Surface *img = draw(&m, NULL, 0, &v);
        int compared = 0, bad = 0;
        for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
            bad += cmp_sprite(img, cells[i].x, cells[i].y, s, tiles, cells[i].sprite, 10, NULL, &compared);
        ck_assert_int_gt(compared, 6 * 16 * 16 / 2);
        ck_assert_int_eq(bad, 0);
        SDL_FreeSurface(img);
    }
    pt_map_fini(&m);
    SDL_FreeSurface(tiles);
}
END_TEST

START_TEST(test_water_animates) {
    pt_map m;
    blank(&m, 2, 1);
    pt_map_set(&m, 0, 0, '~');
    SDL_Surface *tiles = sheet("tiles.png");
    /* The test means something only if the two water frames differ. */
    int differ = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) differ += !same_rgb(px(tiles, 32 + x, y), px(tiles, 48 + x, y));
    ck_assert_int_gt(differ, 0);
    double times[] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.6};
    int frames[] = {2, 2, 3, 3, 2, 3};
    for (int i = 0; i < 6; i++) {
        pt_view v = {.scale = 1, .time = times[i]};
        SDL_Surface *img = draw(&m, NULL, 0, &v);
        int compared = 0;
        ck_assert_int_eq(cmp_sprite(img, 0, 0, 1, tiles, frames[i], 10, NULL, &compared), 0);
        SDL_FreeSurface(img);
    }
    /* Over 10 s it alternates about twice a second. */
    int toggles = 0, prev = pt_render_tile_sprite(&m.legend[pt_map_legend_find(&m, '~')], 0.0);
    for (int i = 1; i <= 1000; i++) {
        int s = pt_render_tile_sprite(&m.legend[pt_map_legend_find(&m, '~')], i * 0.01);
        toggles += s != prev;
        prev = s;
        ck_assert(s == 2 || s == 3);
    }
    ck_assert_int_ge(toggles, 18);
    ck_assert_int_le(toggles, 22);
    pt_map_fini(&m);
    SDL_FreeSurface(tiles);
}
END_TEST

/* Regression for the map layer (the map drawn once into a texture): one renderer kept over
 * frames must show a tile changed after the first frame, and water's two frames in turn. */
START_TEST(test_layer_follows_map) {
    pt_map m;
    blank(&m, 4, 3);
    pt_map_set(&m, 0, 0, '~');
    SDL_Surface *tiles = sheet("tiles.png");
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 4 * 16 * 2, 3 * 16 * 2, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    ck_assert(sdl != NULL);
    pt_error err;
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    pt_scene sc = {.map = &m};
    double times[] = {0.0, 0.5, 0.7, 1.0, 1.5};
    int water[] = {2, 3, 3, 2, 3};
    for (int i = 0; i < 5; i++) {
        if (i == 2) pt_map_set(&m, 2, 1, '#'); /* a wall appears between frames */
        pt_view v = {.scale = 2, .time = times[i]};
        ck_assert_int_eq(pt_render_draw(r, &sc, &v), PT_OK);
        SDL_RenderFlush(sdl);
        int compared = 0;
        ck_assert_msg(cmp_sprite(surf, 0, 0, 2, tiles, water[i], 10, NULL, &compared) == 0, "water frame %d", i);
        ck_assert_int_eq(cmp_sprite(surf, 2, 1, 2, tiles, i >= 2 ? 1 : 0, 10, NULL, &compared), 0);
        ck_assert_int_eq(cmp_sprite(surf, 3, 2, 2, tiles, 0, 10, NULL, &compared), 0);
    }
    /* pt_render_forget drops it; the next frame is drawn the same. */
    pt_render_forget(r);
    pt_view v = {.scale = 2, .time = 0.0};
    ck_assert_int_eq(pt_render_draw(r, &sc, &v), PT_OK);
    SDL_RenderFlush(sdl);
    int compared = 0;
    ck_assert_int_eq(cmp_sprite(surf, 2, 1, 2, tiles, 1, 10, NULL, &compared), 0);
    ck_assert_int_eq(cmp_sprite(surf, 0, 0, 2, tiles, 2, 10, NULL, &compared), 0);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    SDL_FreeSurface(tiles);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_png_size) {
    pt_map m;
    blank(&m, 5, 3);
    char path[1024];
    out_path(path, sizeof path, "size.png");
    for (int s = 1; s <= 4; s++) {
        pt_scene sc = {.map = &m};
        pt_view v = {.scale = s};
        long w, h;
        pt_view_map_size(&m, s, &w, &h);
        ck_assert_int_eq(w, 5 * 16 * s);
        ck_assert_int_eq(h, 3 * 16 * s);
        pt_error err;
        ck_assert_int_eq(pt_render_png(&sc, &v, (int)w, (int)h, ASSETS, path, &err), PT_OK);
        SDL_Surface *img = IMG_Load(path);
        ck_assert(img != NULL);
        ck_assert_int_eq(img->w, 5 * 16 * s);
        ck_assert_int_eq(img->h, 3 * 16 * s);
        SDL_FreeSurface(img);
    }
    unlink(path);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_actor_sprites) {
    pt_map m;
    blank(&m, 8, 2);
    SDL_Surface *chars = sheet("characters.png");
    pt_view v = {.scale = 2};
    SDL_Surface *floor_img = draw(&m, NULL, 0, &v);
    /* kind, heading, expected row and column (rows: 0 player 1 guard 2 prey 3 hound 4 crow;
     * columns: down 0, left 3, right 6, up 9). */
    struct { pt_kind kind; pt_flock_kind flock; double heading; int row, col; } cases[] = {
        {PT_KIND_GUARD, 0, 0.0, 1, 6},       {PT_KIND_PLAYER, 0, PT_PI / 2, 0, 0},
        {PT_KIND_PREY, 0, PT_PI, 2, 3},   {PT_KIND_BOID, PT_FLOCK_HOUND, -PT_PI / 2, 3, 9},
        {PT_KIND_BOID, PT_FLOCK_CROW, 3 * PT_PI / 2, 4, 9}, {PT_KIND_GUARD, 0, 0.2 + 8 * PT_PI, 1, 6},
    };
    int n = (int)(sizeof cases / sizeof cases[0]);
    pt_actor a[8];
    memset(a, 0, sizeof a);
    for (int i = 0; i < n; i++) {
        a[i].kind = cases[i].kind;
        a[i].row = pt_render_row_for(cases[i].kind, cases[i].flock);
        a[i].x = i + 0.5;
        a[i].y = (i % 2) + 0.5;
        a[i].heading = cases[i].heading;
    }
    SDL_Surface *img = draw(&m, a, n, &v);
    int compared = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(a[i].row, cases[i].row);
        bad += cmp_sprite(img, i, i % 2, 2, chars, cases[i].row * 12 + cases[i].col, 12, floor_img, &compared);
    }
    ck_assert_int_gt(compared, n * 16 * 16);
    ck_assert_int_eq(bad, 0);
    SDL_FreeSurface(img);
    SDL_FreeSurface(floor_img);
    SDL_FreeSurface(chars);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_frame_col) {
    /* The four directions, exactly and after wrapping. */
    ck_assert_int_eq(pt_render_frame_col(0.0, 0, 0), 6);
    ck_assert_int_eq(pt_render_frame_col(PT_PI / 2, 0, 0), 0);
    ck_assert_int_eq(pt_render_frame_col(PT_PI, 0, 0), 3);
    ck_assert_int_eq(pt_render_frame_col(-PT_PI, 0, 0), 3);
    ck_assert_int_eq(pt_render_frame_col(-PT_PI / 2, 0, 0), 9);
    ck_assert_int_eq(pt_render_frame_col(100 * PT_TAU + PT_PI / 2, 0, 0), 0);
    /* Walking loops stand, A, stand, B (assets/README.md), half a tile each; standing is 0. */
    static const int loop[4] = {0, 1, 0, 2};
    for (int i = 0; i < 40; i++) {
        double walk = i * 0.25 + 0.01;
        ck_assert_int_eq(pt_render_frame_col(0.0, 1, walk), 6 + loop[(i / 2) % 4]);
    }
    ck_assert_int_eq(pt_render_frame_col(0.0, 0, 0.7), 6);
    /* Invariant: the facing drawn is within 45 degrees of the heading. */
    int bad = 0;
    static const double dir_angle[4] = {PT_PI / 2, PT_PI, 0.0, -PT_PI / 2}; /* down left right up */
    for (int i = -3600; i <= 3600; i++) {
        double h = pt_rad(i * 0.37);
        int c = pt_render_frame_col(h, 1, i * 0.1);
        int dir = c / 3, frame = c % 3;
        double diff = fabs(pt_wrap_angle(h - dir_angle[dir]));
        bad += c < 0 || c > 11 || frame > 2 || diff > PT_PI / 4 + 1e-6;
    }
    ck_assert_int_eq(bad, 0);
    /* Non-finite input still gives a valid column. */
    int c = pt_render_frame_col(NAN, 1, INFINITY);
    ck_assert(c >= 0 && c <= 11);
}
END_TEST

START_TEST(test_obstacle_sprite) {
    pt_map m;
    blank(&m, 4, 3);
    m.nobstacles = 2;
    m.obstacles = calloc(2, sizeof *m.obstacles);
    m.obstacles[0] = (pt_obstacle){.x = 1.5, .y = 1.5, .r = 0.5, .sprite = 2};
    m.obstacles[1] = (pt_obstacle){.x = 3.5, .y = 0.5, .r = 0.4, .sprite = 1};
    SDL_Surface *props = sheet("props.png");
    pt_view v = {.scale = 1};
    pt_map plain;
    blank(&plain, 4, 3);
    SDL_Surface *floor_img = draw(&plain, NULL, 0, &v);
    SDL_Surface *img = draw(&m, NULL, 0, &v);
    int compared = 0, bad = 0;
    bad += cmp_sprite(img, 1, 1, 1, props, 2, 8, floor_img, &compared);
    bad += cmp_sprite(img, 3, 0, 1, props, 1, 8, floor_img, &compared);
    ck_assert_int_gt(compared, 16 * 16);
    ck_assert_int_eq(bad, 0);
    SDL_FreeSurface(img);
    SDL_FreeSurface(floor_img);
    SDL_FreeSurface(props);
    pt_map_fini(&plain);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_state_bubbles) {
    /* Suspicious shows the "?" bubble, chase the "!" one, in the tile above the actor. */
    pt_map m;
    blank(&m, 3, 2);
    pt_view v = {.scale = 1};
    pt_actor a[2] = {{.kind = PT_KIND_GUARD, .row = 1, .x = 0.5, .y = 1.5, .state = 1},
                     {.kind = PT_KIND_GUARD, .row = 1, .x = 2.5, .y = 1.5, .state = 2}};
    SDL_Surface *with = draw(&m, a, 2, &v);
    a[0].state = a[1].state = 0;
    SDL_Surface *without = draw(&m, a, 2, &v);
    /* The bubble covers part of the tile above each guard: those pixels change, and every
     * changed pixel there is the bubble's colour at some offset (compare via the sheet). */
    int changed0 = 0, changed1 = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            changed0 += !same_rgb(px(with, x, y), px(without, x, y));
            changed1 += !same_rgb(px(with, 32 + x, y), px(without, 32 + x, y));
        }
    ck_assert_int_gt(changed0, 10);
    ck_assert_int_gt(changed1, 10);
    /* The two bubbles differ: '?' is not '!'. */
    int differ = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) differ += !same_rgb(px(with, x, y), px(with, 32 + x, y));
    ck_assert_int_gt(differ, 0);
    SDL_FreeSurface(with);
    SDL_FreeSurface(without);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_missing_assets) {
    pt_map m;
    blank(&m, 2, 2);
    pt_scene sc = {.map = &m};
    pt_view v = {0};
    char path[1024];
    out_path(path, sizeof path, "missing.png");
    unlink(path);
    pt_error err;
    ck_assert_int_eq(pt_render_png(&sc, &v, 32, 32, "/nonexistent/patrol-assets", path, &err), PT_ERR_IO);
    ck_assert_int_eq(err.code, PT_ERR_IO);
    ck_assert(strstr(err.file, "/nonexistent/patrol-assets") != NULL);
    ck_assert_int_ne(access(path, F_OK), 0);
    /* Through the search: PATROL_ASSETS names the only folder looked at. */
    setenv("PATROL_ASSETS", "/nonexistent/patrol-assets", 1);
    ck_assert_int_eq(pt_render_png(&sc, &v, 32, 32, NULL, path, &err), PT_ERR_IO);
    char found[512];
    ck_assert_int_eq(pt_render_find_assets(found, sizeof found, &err), PT_ERR_IO);
    setenv("PATROL_ASSETS", ASSETS, 1);
    ck_assert_int_eq(pt_render_find_assets(found, sizeof found, &err), PT_OK);
    ck_assert_str_eq(found, ASSETS);
    ck_assert_int_eq(pt_render_png(&sc, &v, 32, 32, NULL, path, &err), PT_OK);
    unsetenv("PATROL_ASSETS");
    unlink(path);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_bad_sheet) {
    /* A folder whose tiles.png is too small for the layout: a located error, no crash. */
    char dir[1024], p[1200];
    out_path(dir, sizeof dir, "badassets");
    mkdir(dir, 0777);
    SDL_Surface *small = SDL_CreateRGBSurfaceWithFormat(0, 8, 8, 32, SDL_PIXELFORMAT_RGBA32);
    snprintf(p, sizeof p, "%s/tiles.png", dir);
    ck_assert_int_eq(IMG_SavePNG(small, p), 0);
    SDL_FreeSurface(small);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 16, 16, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_error err;
    ck_assert(pt_render_create(sdl, dir, &err) == NULL);
    ck_assert_int_eq(err.code, PT_ERR_BAD_VALUE);
    ck_assert(strstr(err.file, "tiles.png") != NULL);
    unlink(p);
    /* A folder without the other sheets: the first missing one is named. */
    char dir2[1024];
    out_path(dir2, sizeof dir2, "halfassets");
    mkdir(dir2, 0777);
    snprintf(p, sizeof p, "%s/tiles.png", dir2);
    SDL_Surface *t = IMG_Load(ASSETS "/tiles.png");
    ck_assert_int_eq(IMG_SavePNG(t, p), 0);
    SDL_FreeSurface(t);
    ck_assert(pt_render_create(sdl, dir2, &err) == NULL);
    ck_assert_int_eq(err.code, PT_ERR_IO);
    ck_assert(strstr(err.file, "characters.png") != NULL);
    unlink(p);
    rmdir(dir);
    rmdir(dir2);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
}
END_TEST

START_TEST(test_cone_overlay) {
    /* A guard at (2,2) looking east; a wall column at x=6. The cone lights the floor in
     * front, not the floor behind the wall nor behind the guard. */
    pt_map m;
    blank(&m, 10, 5);
    for (int y = 0; y < 5; y++) pt_map_set(&m, 6, y, '#');
    pt_actor g = {.kind = PT_KIND_GUARD, .row = 1, .x = 2.5, .y = 2.5, .heading = 0.0,
                  .view_dist = 8, .view_angle = PT_PI / 2};
    pt_view v = {.scale = 1};
    SDL_Surface *off = draw(&m, &g, 1, &v);
    v.overlays = PT_OVERLAY_CONES;
    SDL_Surface *on = draw(&m, &g, 1, &v);
    struct { int tx, ty, lit; } probes[] = {{4, 2, 1}, {5, 2, 1}, {4, 1, 1}, {8, 2, 0}, {9, 2, 0},
                                            {0, 2, 0}, {2, 0, 0}, {2, 4, 0}};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        int x = probes[i].tx * 16 + 8, y = probes[i].ty * 16 + 8;
        ck_assert_msg((!same_rgb(px(on, x, y), px(off, x, y))) == probes[i].lit, "probe %d,%d", probes[i].tx,
                      probes[i].ty);
    }
    /* Grid: a boundary pixel changes, a tile's inside does not. */
    v.overlays = PT_OVERLAY_GRID;
    SDL_Surface *grid = draw(&m, &g, 1, &v);
    ck_assert(!same_rgb(px(grid, 16 * 1, 16 * 1 + 5), px(off, 16 * 1, 16 * 1 + 5)));
    ck_assert(!same_rgb(px(grid, 16 * 4 + 5, 16 * 3), px(off, 16 * 4 + 5, 16 * 3)));
    ck_assert(same_rgb(px(grid, 16 * 4 + 7, 16 * 3 + 7), px(off, 16 * 4 + 7, 16 * 3 + 7)));
    /* Paths: the dots of the cells still ahead appear, the ones passed do not. */
    static const pt_cell path[3] = {{3, 4}, {4, 4}, {5, 4}};
    pt_actor walker = g;
    walker.path = path;
    walker.path_len = 3;
    walker.path_idx = 1;
    v.overlays = 0;
    SDL_Surface *nopath = draw(&m, &walker, 1, &v);
    v.overlays = PT_OVERLAY_PATHS;
    SDL_Surface *withpath = draw(&m, &walker, 1, &v);
    ck_assert(!same_rgb(px(withpath, 4 * 16 + 8, 4 * 16 + 8), px(nopath, 4 * 16 + 8, 4 * 16 + 8)));
    ck_assert(!same_rgb(px(withpath, 5 * 16 + 8, 4 * 16 + 8), px(nopath, 5 * 16 + 8, 4 * 16 + 8)));
    ck_assert(same_rgb(px(withpath, 3 * 16 + 8, 4 * 16 + 8), px(nopath, 3 * 16 + 8, 4 * 16 + 8)));
    SDL_FreeSurface(withpath);
    SDL_FreeSurface(nopath);
    SDL_FreeSurface(grid);
    SDL_FreeSurface(on);
    SDL_FreeSurface(off);
    pt_map_fini(&m);
}
END_TEST

/* Stops in the patterns overlay: a look at 8,1 (arriving east, sweeping to -90) draws an arc
 * north-east of the cell and nothing south-west of it; without the runner, no arc. */
static int changed_near(SDL_Surface *a, SDL_Surface *b, int x, int y) {
    int n = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++) n += !same_rgb(px(a, x + dx, y + dy), px(b, x + dx, y + dy));
    return n;
}

START_TEST(test_stops_overlay) {
    pt_map m;
    blank(&m, 12, 6);
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    static const char text[] = "pattern w\n kind path\n points 1,1 8,1 look=2s angles=-90,0 8,4\n at_end stop\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, text, strlen(text), "w.pat", &err), PT_OK);
    pt_patrun run;
    pt_patrun_init(&run, pt_patlib_find(&lib, "w"), (pt_cell){1, 1}, (pt_cell){1, 1}, 0.0, 1, 1);
    pt_cell cells[32];
    int n = pt_patrun_cells(&run, &m, cells, 32);
    pt_actor g = {.kind = PT_KIND_GUARD, .row = 1, .x = 1.5, .y = 1.5, .pattern = cells, .pattern_len = n};
    pt_view v = {.scale = 2, .overlays = PT_OVERLAY_PATTERNS};
    SDL_Surface *plain = draw(&m, &g, 1, &v);
    g.pattern_run = &run;
    SDL_Surface *stops = draw(&m, &g, 1, &v);
    /* the arc's middle, 45 degrees left of east at 0.85 tiles (a chord: a little inside) */
    double ax = 8.5 + 0.8 * cos(-PT_PI / 4), ay = 1.5 + 0.8 * sin(-PT_PI / 4);
    ck_assert_int_gt(changed_near(stops, plain, (int)(ax * 32), (int)(ay * 32)), 0);
    double bx = 8.5 + 0.8 * cos(3 * PT_PI / 4), by = 1.5 + 0.8 * sin(3 * PT_PI / 4);
    ck_assert_int_eq(changed_near(stops, plain, (int)(bx * 32), (int)(by * 32)), 0);
    /* the diamond on the stop's cell */
    ck_assert_int_gt(changed_near(stops, plain, (int)(8.5 * 32 - 0.15 * 32), (int)(1.5 * 32 - 0.15 * 32)), 0);
    SDL_FreeSurface(stops);
    SDL_FreeSurface(plain);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Noise rings: a young noise draws a ring around its tile that widens with age, an old one
 * (PT_NOISE_RING_S or more) and a silent one draw nothing; the tile's centre stays clear. */
static int ring_pixels_of(SDL_Renderer *sdl, SDL_Surface *surf, pt_render *r, const pt_map *m, pt_noise_mark mk,
                          int *near, int *far, int shout, double *redness) {
    pt_view v = {.scale = 1};
    pt_scene sc = {.map = m};
    ck_assert_int_eq(pt_render_draw(r, &sc, &v), PT_OK);
    SDL_RenderFlush(sdl);
    SDL_Surface *before = SDL_ConvertSurfaceFormat(surf, SDL_PIXELFORMAT_RGBA32, 0);
    if (shout) pt_render_shout_rings(r, m, &v, &mk, 1);
    else pt_render_noise_rings(r, m, &v, &mk, 1);
    SDL_RenderFlush(sdl);
    int changed = 0;
    *near = *far = 0;
    *redness = 0;
    double cx = (mk.x + 0.5) * 16, cy = (mk.y + 0.5) * 16;
    for (int y = 0; y < surf->h; y++)
        for (int x = 0; x < surf->w; x++)
            if (!same_rgb(px(surf, x, y), px(before, x, y))) {
                changed++;
                *redness += (double)px(surf, x, y).r - px(surf, x, y).g;
                double d = hypot(x + 0.5 - cx, y + 0.5 - cy) / 16.0;
                *near += d < 1.0;
                *far += d >= 1.0;
            }
    SDL_FreeSurface(before);
    if (changed) *redness /= changed;
    return changed;
}

static int ring_pixels(SDL_Renderer *sdl, SDL_Surface *surf, pt_render *r, const pt_map *m, pt_noise_mark mk,
                       int *near, int *far) {
    double redness;
    return ring_pixels_of(sdl, surf, r, m, mk, near, far, 0, &redness);
}

START_TEST(test_noise_rings) {
    pt_map m;
    blank(&m, 16, 12);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 16 * 16, 12 * 16, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_error err;
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    int near, far;
    ck_assert_int_gt(ring_pixels(sdl, surf, r, &m, (pt_noise_mark){8, 6, 6.0, 0.05}, &near, &far), 0);
    ck_assert(near > 0 && far == 0); /* young: small */
    ck_assert_int_gt(ring_pixels(sdl, surf, r, &m, (pt_noise_mark){8, 6, 6.0, 0.6}, &near, &far), 0);
    ck_assert(far > 0 && near == 0); /* older: wide */
    ck_assert_int_eq(ring_pixels(sdl, surf, r, &m, (pt_noise_mark){8, 6, 6.0, PT_NOISE_RING_S}, &near, &far), 0);
    ck_assert_int_eq(ring_pixels(sdl, surf, r, &m, (pt_noise_mark){8, 6, 0.0, 0.1}, &near, &far), 0);
    ck_assert_int_eq(ring_pixels(sdl, surf, r, &m, (pt_noise_mark){8, 6, 6.0, NAN}, &near, &far), 0);
    /* A shout: redder than a noise, and a second ring inside the first; old ones draw nothing. */
    double red_noise, red_shout;
    int noise = ring_pixels_of(sdl, surf, r, &m, (pt_noise_mark){8, 6, 12.0, 0.3}, &near, &far, 0, &red_noise);
    int shout = ring_pixels_of(sdl, surf, r, &m, (pt_noise_mark){8, 6, 12.0, 0.3}, &near, &far, 1, &red_shout);
    ck_assert_int_gt(shout, noise);
    ck_assert_msg(red_shout > red_noise + 30, "red - green: shout %g, noise %g", red_shout, red_noise);
    ck_assert_int_eq(ring_pixels_of(sdl, surf, r, &m, (pt_noise_mark){8, 6, 12.0, PT_NOISE_RING_S}, &near, &far, 1,
                                    &red_shout), 0);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_sight_overlay) {
    /* The sight overlay tints exactly the cells the simulation's own test (pt_can_see) says
     * the guard sees: walls, a bush and a sealed corner in the way, guards in several spots. */
    static const char *rows[] = {
        "..............",
        "....#.........",
        "..#.....*.....",
        "...#......##..",
        "..........#...",
        "......~~......",
    };
    pt_map m;
    blank(&m, 14, 6);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 14; x++) pt_map_set(&m, x, y, rows[y][x]);
    pt_actor guards[4] = {
        {.kind = PT_KIND_GUARD, .row = 1, .x = 1.5, .y = 1.5, .heading = 0.3, .view_dist = 9, .view_angle = PT_PI / 2},
        {.kind = PT_KIND_GUARD, .row = 1, .x = 12.5, .y = 4.5, .heading = PT_PI, .view_dist = 6,
         .view_angle = pt_rad(120), .state = 2},
        {.kind = PT_KIND_GUARD, .row = 1, .x = 6.2, .y = 3.7, .heading = -PT_PI / 2, .view_dist = 4,
         .view_angle = PT_TAU},
        {.kind = PT_KIND_GUARD, .row = 1, .x = 7.5, .y = 0.5, .heading = PT_PI / 2, .view_dist = 5,
         .view_angle = pt_rad(60), .has_eye = 1, .eye_x = 8.5, .eye_y = 0.5},
    };
    pt_view v = {.scale = 1};
    int bad = 0, seen_total = 0;
    for (int g = 0; g < 4; g++) {
        v.overlays = 0;
        SDL_Surface *off = draw(&m, &guards[g], 1, &v);
        v.overlays = PT_OVERLAY_SIGHT;
        SDL_Surface *on = draw(&m, &guards[g], 1, &v);
        double ex = guards[g].has_eye ? guards[g].eye_x : guards[g].x;
        double ey = guards[g].has_eye ? guards[g].eye_y : guards[g].y;
        for (int y = 0; y < 6; y++)
            for (int x = 0; x < 14; x++) {
                int sees = pt_can_see(&m, ex, ey, guards[g].heading, guards[g].view_dist, guards[g].view_angle,
                                      x + 0.5, y + 0.5);
                /* The cell's corner farthest from the guard: its sprite (one tile around its
                 * centre, with a transparent rim) never covers it. */
                int px0 = x * 16 + (guards[g].x - x > 0.5 ? 0 : 15);
                int py0 = y * 16 + (guards[g].y - y > 0.5 ? 0 : 15);
                int tinted = !same_rgb(px(on, px0, py0), px(off, px0, py0));
                bad += sees != tinted;
                seen_total += sees;
            }
        SDL_FreeSurface(on);
        SDL_FreeSurface(off);
    }
    ck_assert_int_gt(seen_total, 20);
    ck_assert_int_eq(bad, 0);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_300_frames) {
    /* 300 frames into a sub-rectangle with every overlay, a moving camera and actors in odd
     * places: every call succeeds and nothing is drawn outside the view rectangle. */
    pt_map m;
    blank(&m, 30, 20);
    pt_rng rng;
    pt_rng_seed(&rng, 42, 7);
    for (int i = 0; i < 200; i++)
        pt_map_set(&m, (int)pt_rng_below(&rng, 30), (int)pt_rng_below(&rng, 20), "#~=+,*E:."[pt_rng_below(&rng, 9)]);
    m.nobstacles = 3;
    m.obstacles = calloc(3, sizeof *m.obstacles);
    m.obstacles[0] = (pt_obstacle){.x = 5.5, .y = 5.5, .r = 0.5, .sprite = 1};
    m.obstacles[1] = (pt_obstacle){.x = 10.0, .y = 3.0, .r = 1.5, .sprite = 2};
    m.obstacles[2] = (pt_obstacle){.x = NAN, .y = 1e300, .r = -1, .sprite = 99};
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 320, 240, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    ck_assert(sdl != NULL);
    pt_error err;
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    SDL_SetRenderDrawColor(sdl, 255, 0, 255, 255);
    SDL_RenderClear(sdl);
    enum { N = 14 };
    pt_actor a[N];
    const char *names[N] = {"player", "g1", "g2", NULL, "a long name for a guard", "hen", "crows", "hound"};
    int fails = 0;
    for (int f = 0; f < 300; f++) {
        for (int i = 0; i < N; i++) {
            a[i] = (pt_actor){.kind = (pt_kind)(i % PT_KIND_COUNT), .row = i % 6, .state = (f + i) % 10,
                              .x = pt_rng_signed(&rng) * 20 + 15, .y = pt_rng_signed(&rng) * 14 + 10,
                              .heading = pt_rng_signed(&rng) * 10, .moving = i & 1, .walk = f * 0.1,
                              .view_dist = pt_rng_unit(&rng) * 12, .view_angle = pt_rng_unit(&rng) * 7,
                              .awareness = pt_rng_signed(&rng) * 2, .name = names[i % N]};
        }
        static const pt_cell path[5] = {{1, 1}, {2, 1}, {3, 2}, {-4, 99}, {29, 19}};
        a[1].path = path;
        a[1].path_len = 5;
        a[1].path_idx = f % 7;
        a[N - 1].x = NAN;
        a[N - 2].view_dist = INFINITY;
        a[N - 3].heading = NAN;
        pt_scene sc = {.map = &m, .actors = a, .nactors = N};
        pt_view v = {.x = 16, .y = 12, .w = 256, .h = 200, .scale = 1 + f % 3, .overlays = PT_OVERLAY_ALL,
                     .cam_x = -5 + f * 0.13, .cam_y = -3 + f * 0.07, .time = f / 60.0};
        fails += pt_render_draw(r, &sc, &v) != PT_OK;
        pt_draw_text(r, 20, 20, 1 + f % 2, 0xffffffffu, "tick\n\x01\xff ok");
    }
    SDL_RenderFlush(sdl);
    ck_assert_int_eq(fails, 0);
    int outside = 0, inside_magenta = 0;
    rgba magenta = {255, 0, 255, 255};
    for (int y = 0; y < 240; y++)
        for (int x = 0; x < 320; x++) {
            int in = x >= 16 && x < 16 + 256 && y >= 12 && y < 12 + 200;
            int is_m = same_rgb(px(surf, x, y), magenta);
            if (!in && !is_m) outside++;
            if (in && is_m) inside_magenta++;
        }
    ck_assert_int_eq(outside, 0);
    ck_assert_int_lt(inside_magenta, 256 * 200 / 100);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_text) {
    SDL_Surface *font = sheet("font.png");
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 64, 32, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_error err;
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert(r != NULL);
    SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
    SDL_RenderClear(sdl);
    int w = pt_draw_text(r, 4, 4, 2, 0xffffffffu, "Ag");
    SDL_RenderFlush(sdl);
    ck_assert_int_eq(w, 2 * 8 * 2);
    int lit = 0, bad = 0;
    const char *s = "Ag";
    for (int i = 0; i < 2; i++) {
        int g = s[i] - 32, gx = (g % 16) * 8, gy = (g / 16) * 8;
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                rgba want = px(font, gx + x, gy + y);
                rgba got = px(surf, 4 + (i * 8 + x) * 2 + 1, 4 + y * 2 + 1);
                if (want.a == 255) {
                    lit++;
                    bad += !same_rgb(got, want);
                } else if (want.a == 0) {
                    bad += got.r || got.g || got.b;
                }
            }
    }
    ck_assert_int_gt(lit, 8);
    ck_assert_int_eq(bad, 0);
    int tw, th;
    pt_text_size("ab\ncde", 2, &tw, &th);
    ck_assert_int_eq(tw, 3 * 16);
    ck_assert_int_eq(th, 2 * 16);
    pt_text_size("", 1, &tw, &th);
    ck_assert_int_eq(tw, 0);
    ck_assert_int_eq(th, 0);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    SDL_FreeSurface(font);
}
END_TEST

START_TEST(test_overlay_parse) {
    unsigned bits = 0;
    int bad = -1;
    ck_assert(pt_overlay_parse("grid,cones", &bits, &bad));
    ck_assert_uint_eq(bits, PT_OVERLAY_GRID | PT_OVERLAY_CONES);
    ck_assert(pt_overlay_parse("all", &bits, &bad));
    ck_assert_uint_eq(bits, PT_OVERLAY_ALL);
    ck_assert(pt_overlay_parse("none", &bits, &bad));
    ck_assert_uint_eq(bits, 0);
    ck_assert(!pt_overlay_parse("grid,,cones", &bits, &bad));
    ck_assert_int_eq(bad, 6);
    ck_assert(!pt_overlay_parse("grid,conesx", &bits, &bad));
    ck_assert_int_eq(bad, 6);
    ck_assert(!pt_overlay_parse("", &bits, &bad));
    ck_assert_int_eq(bad, 1);
    for (unsigned b = 1; b <= PT_OVERLAY_SIGHT; b <<= 1) {
        const char *name = pt_overlay_name(b);
        ck_assert_ptr_nonnull(name);
        ck_assert(pt_overlay_parse(name, &bits, &bad));
        ck_assert_uint_eq(bits, b);
    }
}
END_TEST

START_TEST(test_view_follow) {
    pt_map m;
    blank(&m, 50, 30);
    pt_view v = {.w = 320, .h = 240, .scale = 1}; /* 20 x 15 tiles */
    int bad = 0;
    for (int i = -20; i <= 140; i++) {
        double fx = i * 0.5, fy = i * 0.3;
        pt_view_follow(&v, &m, fx, fy);
        bad += v.cam_x < 0 || v.cam_x > 30 || v.cam_y < 0 || v.cam_y > 15;
        /* Away from the edges the focus is in the middle of the view. */
        if (fx >= 10 && fx <= 40) bad += fabs(v.cam_x + 10 - fx) > 1e-9;
        if (fy >= 7.5 && fy <= 22.5) bad += fabs(v.cam_y + 7.5 - fy) > 1e-9;
    }
    ck_assert_int_eq(bad, 0);
    /* A map smaller than the view is centred. */
    pt_map s;
    blank(&s, 10, 5);
    pt_view_follow(&v, &s, 3, 3);
    ck_assert(fabs(v.cam_x - (-5.0)) < 1e-9);
    ck_assert(fabs(v.cam_y - (-5.0)) < 1e-9);
    pt_map_fini(&s);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_view_fit) {
    pt_map small, big;
    blank(&small, 10, 8);
    blank(&big, 60, 40);
    pt_view v = {0};
    pt_view_fit(&v, &small, 1280, 800, 0, 0);
    ck_assert_int_eq(v.scale, 6); /* min(1280 / 160, 800 / 128) */
    ck_assert_int_eq(v.w, 1280);
    ck_assert_int_eq(v.h, 800);
    /* Invariant: the chosen scale shows enough tiles, one more would not (unless 1). */
    int bad = 0;
    for (int w = 100; w <= 3000; w += 37)
        for (int h = 80; h <= 2000; h += 53) {
            const pt_map *mm = (w + h) % 2 ? &small : &big;
            pt_view_fit(&v, mm, w, h, 0, 0);
            int need_w = mm->w < 24 ? mm->w : 24, need_h = mm->h < 14 ? mm->h : 14;
            int fits = w / (16 * v.scale) >= need_w && h / (16 * v.scale) >= need_h;
            int fits_more = w / (16 * (v.scale + 1)) >= need_w && h / (16 * (v.scale + 1)) >= need_h;
            bad += v.scale < 1 || (v.scale > 1 && !fits) || fits_more;
        }
    ck_assert_int_eq(bad, 0);
    pt_map_fini(&small);
    pt_map_fini(&big);
}
END_TEST

START_TEST(test_actors_from_map) {
    pt_map m;
    blank(&m, 10, 10);
    m.player.x = 3;
    m.player.y = 4;
    m.nents = 2;
    m.ents = calloc(2, sizeof *m.ents);
    m.ents[0] = (pt_entity_def){.name = "g", .kind = PT_KIND_GUARD, .x = 1, .y = 2, .heading_deg = 90};
    m.ents[1] = (pt_entity_def){.name = "birds", .kind = PT_KIND_BOID, .x = 5, .y = 6, .view_dist = 3,
                                .view_angle_deg = 180, .flock_kind = PT_FLOCK_CROW};
    ck_assert_int_eq(pt_render_actors_from_map(&m, NULL, 0), 3);
    pt_actor a[3];
    ck_assert_int_eq(pt_render_actors_from_map(&m, a, 3), 3);
    ck_assert_int_eq(a[0].kind, PT_KIND_PLAYER);
    ck_assert_int_eq(a[0].row, 0);
    ck_assert(a[0].x == 3.5 && a[0].y == 4.5);
    ck_assert_int_eq(a[1].row, 1);
    ck_assert(fabs(a[1].heading - PT_PI / 2) < 1e-12);
    ck_assert(a[1].view_dist == 8.0);                   /* documented default */
    ck_assert(fabs(a[1].view_angle - PT_PI / 2) < 1e-12); /* 90 degrees */
    ck_assert_int_eq(a[2].row, 4);                      /* a crow */
    ck_assert(a[2].view_dist == 3.0);
    ck_assert_str_eq(a[2].name, "birds");
    ck_assert_int_eq(pt_render_row_for(PT_KIND_BOID, PT_FLOCK_HOUND), 3);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_tile_sprite_names) {
    pt_tile_def d = {.ch = 'b', .name = "bridge", .sprite = -1};
    ck_assert_int_eq(pt_render_tile_sprite(&d, 0), 4);
    snprintf(d.name, sizeof d.name, "lava");
    ck_assert_int_eq(pt_render_tile_sprite(&d, 0), 0);
    d.sprite = 7;
    ck_assert_int_eq(pt_render_tile_sprite(&d, 0), 7);
    ck_assert_int_eq(pt_render_tile_sprite(NULL, 0), 0);
    d.sprite = 3;
    ck_assert_int_eq(pt_render_tile_sprite(&d, NAN), 2);
}
END_TEST

/* ---- limits -------------------------------------------------------------------------------- */

START_TEST(test_limits) {
    pt_map m;
    blank(&m, 1, 1);
    pt_scene sc = {.map = &m};
    pt_view v = {0};
    char path[1024];
    out_path(path, sizeof path, "limits.png");
    pt_error err;
    ck_assert_int_eq(pt_render_png(&sc, &v, PT_RENDER_MAX_SIDE + 1, 16, ASSETS, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_render_png(&sc, &v, 16, 0, ASSETS, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_render_png(&sc, &v, 16384, 16384, ASSETS, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_render_png(&sc, &v, 16, 16, ASSETS, "/nonexistent/dir/x.png", &err), PT_ERR_IO);
    ck_assert_str_eq(err.file, "/nonexistent/dir/x.png");
    pt_scene none = {0};
    ck_assert_int_eq(pt_render_png(&none, &v, 16, 16, ASSETS, path, &err), PT_ERR_USAGE);
    /* 1x1 map, scale beyond the limit is clamped, a view far away draws background only. */
    pt_view far = {.scale = 1000, .cam_x = 1e9, .cam_y = -1e9};
    ck_assert_int_eq(pt_render_png(&sc, &far, 16, 16, ASSETS, path, &err), PT_OK);
    /* A map with 32-pixel tiles draws 32 pixels a tile. */
    m.tile_px = 32;
    long w, h;
    pt_view_map_size(&m, 2, &w, &h);
    ck_assert_int_eq(w, 64);
    ck_assert_int_eq(h, 64);
    unlink(path);
    pt_map_fini(&m);
}
END_TEST

static Suite *render_suite(void) {
    Suite *s = suite_create("render");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_tile_pixels);
    tcase_add_test(core, test_water_animates);
    tcase_add_test(core, test_png_size);
    tcase_add_test(core, test_actor_sprites);
    tcase_add_test(core, test_frame_col);
    tcase_add_test(core, test_obstacle_sprite);
    tcase_add_test(core, test_state_bubbles);
    tcase_add_test(core, test_missing_assets);
    tcase_add_test(core, test_bad_sheet);
    tcase_add_test(core, test_cone_overlay);
    tcase_add_test(core, test_layer_follows_map);
    tcase_add_test(core, test_stops_overlay);
    tcase_add_test(core, test_sight_overlay);
    tcase_add_test(core, test_300_frames);
    tcase_add_test(core, test_text);
    tcase_add_test(core, test_overlay_parse);
    tcase_add_test(core, test_view_follow);
    tcase_add_test(core, test_view_fit);
    tcase_add_test(core, test_actors_from_map);
    tcase_add_test(core, test_noise_rings);
    tcase_add_test(core, test_tile_sprite_names);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_limits);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(render_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
