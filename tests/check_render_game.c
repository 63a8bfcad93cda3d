/* SPDX-License-Identifier: Zlib */
/* check_render_game - what the game draws, headless: the demo map for 300 frames with every
 * overlay and the HUD; sprite and glyph pixels compared with the sheets read independently;
 * the new overlays (patterns, line-of-sight rays, steering), the debug primitives, the exit
 * pointer and every HUD part, including in tiny outputs. */
#include <check.h>

#include <SDL.h>
#include <SDL_image.h>

#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASSETS PATROL_SOURCE_DIR "/assets"

typedef struct rgba { Uint8 r, g, b, a; } rgba;

static rgba px(SDL_Surface *s, int x, int y) {
    rgba c = {0, 0, 0, 0};
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}
static int same_rgb(rgba a, rgba b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static SDL_Surface *sheet(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ASSETS, name);
    SDL_Surface *s = IMG_Load(path);
    ck_assert_msg(s != NULL, "cannot load %s", path);
    SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_RGBA32, 0);
    SDL_FreeSurface(s);
    return c;
}

/* A software canvas with the renderer on it. */
typedef struct canvas {
    SDL_Surface *surf;
    SDL_Renderer *sdl;
    pt_render *r;
} canvas;

static void canvas_open(canvas *c, int w, int h) {
    c->surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    ck_assert(c->surf != NULL);
    c->sdl = SDL_CreateSoftwareRenderer(c->surf);
    ck_assert(c->sdl != NULL);
    pt_error err;
    c->r = pt_render_create(c->sdl, ASSETS, &err);
    ck_assert_msg(c->r != NULL, "%s", err.message);
}

static void canvas_clear(canvas *c) {
    SDL_SetRenderDrawColor(c->sdl, 0, 0, 0, 255);
    SDL_RenderClear(c->sdl);
}

static SDL_Surface *canvas_copy(canvas *c) {
    SDL_RenderFlush(c->sdl);
    return SDL_ConvertSurfaceFormat(c->surf, SDL_PIXELFORMAT_RGBA32, 0);
}

static void canvas_close(canvas *c) {
    pt_render_destroy(c->r);
    SDL_DestroyRenderer(c->sdl);
    SDL_FreeSurface(c->surf);
}

/* Mismatching opaque pixels of sprite `frame` (per_row frames a row, 16x16) drawn at output
 * pixel (ox, oy), scale s; only the frame's pixels inset..15-inset are compared. */
static int cmp_sprite(SDL_Surface *img, int ox, int oy, int s, SDL_Surface *sh, int frame, int per_row, int inset,
                      int *compared) {
    int bad = 0, sx0 = (frame % per_row) * 16, sy0 = (frame / per_row) * 16;
    for (int y = inset; y < 16 - inset; y++)
        for (int x = inset; x < 16 - inset; x++) {
            rgba want = px(sh, sx0 + x, sy0 + y);
            if (want.a != 255) continue;
            for (int k = 0; k < s * s; k++) {
                bad += !same_rgb(px(img, ox + x * s + k % s, oy + y * s + k / s), want);
                (*compared)++;
            }
        }
    return bad;
}

static void load_demo(pt_map *map, pt_patlib *lib) {
    pt_error err;
    ck_assert_msg(pt_map_load(map, PATROL_SOURCE_DIR "/maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(lib);
    for (int i = 0; i < map->npattern_files; i++)
        ck_assert_msg(pt_patlib_load(lib, map->pattern_files[i], &err) == PT_OK, "%s:%d: %s", err.file, err.line,
                      err.message);
}

/* ---- the demo, 300 frames ------------------------------------------------------------------ */

START_TEST(test_demo_300_frames) {
    pt_map map;
    pt_patlib lib;
    load_demo(&map, &lib);
    pt_world_desc desc = {.player_controlled = 1, .end_round_on_catch = 1};
    pt_error err;
    pt_world *w = pt_world_create(&map, &lib, &desc, &err);
    ck_assert(w != NULL);
    /* 480 x 300 (scale 1, 30 x 18 tiles): the software renderer's cost grows with pixels. */
    canvas c;
    canvas_open(&c, 480, 300);
    SDL_Surface *chars = sheet("characters.png"), *tiles = sheet("tiles.png"), *font = sheet("font.png");
    int n = pt_world_count(w);
    pt_actor *a = calloc((size_t)n, sizeof *a);
    int cap = 4096;
    pt_cell *cells = malloc(sizeof *cells * (size_t)cap);
    int fails = 0, pattern_actors = 0, need_bad = 0, continuous = 0;
    for (int t = 0; t < 300; t++) {
        /* Up the start path, then east along the south bank: past the snake and bridges. */
        pt_world_set_input(w, t < 120 ? 1 : 0, t < 120 ? 0 : -1);
        if (t > 0) pt_world_step(w);
        pt_render_actors_from_world(w, (t % 5) / 5.0, a, n);
        int need = pt_render_patterns_from_world(w, a, n, cells, cap);
        need_bad += need > cap || need <= 0;
        for (int i = 0; i < n; i++) {
            pattern_actors += a[i].pattern_len > 0;
            continuous += a[i].continuous;
        }
        pt_view v = {.overlays = PT_OVERLAY_ALL, .time = t / 60.0};
        pt_view_fit(&v, &map, 480, 300, 0, 0);
        pt_view_follow(&v, &map, a[0].x, a[0].y);
        canvas_clear(&c);
        pt_scene sc = {.map = &map, .actors = a, .nactors = n};
        fails += pt_render_draw(c.r, &sc, &v) != PT_OK;
        if (t == 0) {
            /* The first frame: the player stands at 2,37 facing east (row 0, column 6): every
             * opaque pixel of its sprite shows (overlays draw under sprites or beside them). */
            SDL_Surface *img = canvas_copy(&c);
            double ox, oy;
            pt_view_to_px(&map, &v, 2.0, 37.0, &ox, &oy);
            int compared = 0;
            ck_assert_int_eq(cmp_sprite(img, (int)ox, (int)oy, v.scale, chars, 0 * 12 + 6, 12, 0, &compared), 0);
            ck_assert_int_gt(compared, 60 * v.scale * v.scale);
            /* A wall tile of the mill (20,32), inside its grid lines: no overlay covers it. */
            pt_view_to_px(&map, &v, 20.0, 32.0, &ox, &oy);
            compared = 0;
            ck_assert_int_eq(cmp_sprite(img, (int)ox, (int)oy, v.scale, tiles, 1, 10, 1, &compared), 0);
            ck_assert_int_gt(compared, 100 * v.scale * v.scale);
            SDL_FreeSurface(img);
        }
        pt_debug_circle(c.r, &map, &v, a[0].x, a[0].y, 2.0, 0xffffff80u);
        pt_debug_box(c.r, &map, &v, a[0].x, a[0].y, 0.3, 3.0, 0.5, 0xff00ff80u);
        pt_draw_pointer(c.r, &map, &v, 56.5, 0.5, 4, 0xf2be3cffu);
        pt_hud_msg msgs[2] = {{"spotted by snake!", 0xff5a4affu}, {"snake lost you", 0xb4e67a80u}};
        pt_hud hud = {.title = "Castle by the river", .objective = "Reach the exit - stay out of sight",
                      .status = "0:01.0", .alert = t % 3, .msgs = msgs, .nmsgs = 2, .keys = "P pause   Esc quit",
                      .notice = t % 50 == 0 ? "PAUSED" : NULL, .flash = t % 7 == 0 ? 0.5 : 0.0};
        pt_render_hud(c.r, &hud, 0, 0, 0, 0);

        if (t == 0) {
            SDL_Surface *img = canvas_copy(&c);
            /* The HUD title's first glyph 'C', in the title gold, where the top bar puts it. */
            int ts = pt_hud_scale(480, 300), ink = 0, bad = 0;
            int gx0 = (('C' - 32) % 16) * 8, gy0 = (('C' - 32) / 16) * 8;
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++) {
                    if (px(font, gx0 + x, gy0 + y).a != 255) continue;
                    ink++;
                    rgba got = px(img, 4 * ts + x * ts, 3 * ts + y * ts);
                    bad += !(got.r == 0xf2 && got.g == 0xbe && got.b == 0x3c);
                }
            ck_assert_int_gt(ink, 8);
            ck_assert_int_eq(bad, 0);
            SDL_FreeSurface(img);
        }
    }
    ck_assert_int_eq(fails, 0);
    ck_assert_int_eq(need_bad, 0);
    ck_assert_int_ge(pattern_actors, 300 * 5); /* the guards all walk patterns */
    ck_assert_int_gt(continuous, 0);            /* the thrust guards fly */
    free(a);
    free(cells);
    SDL_FreeSurface(chars);
    SDL_FreeSurface(tiles);
    SDL_FreeSurface(font);
    canvas_close(&c);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

/* ---- overlays, one by one ------------------------------------------------------------------ */

static void blank(pt_map *m, int w, int h) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
}

static SDL_Surface *draw(const pt_map *m, const pt_actor *a, int n, unsigned overlays) {
    pt_scene s = {.map = m, .actors = a, .nactors = n};
    pt_view v = {.scale = 1, .overlays = overlays};
    pt_error err;
    SDL_Surface *out = pt_render_surface(&s, &v, m->w * 16, m->h * 16, ASSETS, &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    return out;
}

static int changed(SDL_Surface *a, SDL_Surface *b, int x, int y) { return !same_rgb(px(a, x, y), px(b, x, y)); }

START_TEST(test_patterns_overlay) {
    pt_map m;
    blank(&m, 10, 6);
    static const pt_cell walk[4] = {{2, 1}, {3, 1}, {4, 1}, {5, 1}};
    static const pt_cell mat[3] = {{2, 4}, {4, 4}, {6, 4}};
    pt_actor g[2] = {{.kind = PT_KIND_GUARD, .row = 1, .x = 8.5, .y = 1.5, .pattern = walk, .pattern_len = 4},
                     {.kind = PT_KIND_GUARD, .row = 1, .x = 8.5, .y = 4.5, .pattern = mat, .pattern_len = 3,
                      .pattern_matrix = 1}};
    SDL_Surface *off = draw(&m, g, 2, 0), *on = draw(&m, g, 2, PT_OVERLAY_PATTERNS);
    /* The walk: a line through the cell centres; the matrix: its 1-cells filled, not 3,4 or 5,4. */
    ck_assert(changed(on, off, 3 * 16 + 8, 1 * 16 + 8));
    ck_assert(changed(on, off, 4 * 16 + 2, 1 * 16 + 8));
    ck_assert(!changed(on, off, 3 * 16 + 8, 3 * 16 + 8));
    ck_assert(changed(on, off, 2 * 16 + 8, 4 * 16 + 8));
    ck_assert(changed(on, off, 6 * 16 + 8, 4 * 16 + 8));
    ck_assert(!changed(on, off, 3 * 16 + 8, 4 * 16 + 8));
    ck_assert(!changed(on, off, 5 * 16 + 8, 4 * 16 + 8));
    /* The two guards' patterns have different colours. */
    ck_assert(!same_rgb(px(on, 3 * 16 + 8, 1 * 16 + 8), px(on, 2 * 16 + 8, 4 * 16 + 8)));
    SDL_FreeSurface(off);
    SDL_FreeSurface(on);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_rays_overlay) {
    /* A guard at 1,2 and the player at 8,2 on one row: seen -> green; a wall at 5 -> red up to
     * the wall (the wall cell boxed), faint after; facing away -> faint grey. Colours are
     * decided by pt_can_see, checked here too. */
    pt_map m;
    blank(&m, 10, 5);
    pt_actor a[2] = {{.kind = PT_KIND_GUARD, .row = 1, .x = 1.5, .y = 2.5, .heading = 0, .view_dist = 10,
                      .view_angle = PT_PI / 2},
                     {.kind = PT_KIND_PLAYER, .row = 0, .x = 8.5, .y = 2.5}};
    int y = 2 * 16 + 8, x = 3 * 16 + 8;
    ck_assert(pt_can_see(&m, 1.5, 2.5, 0, 10, PT_PI / 2, 8.5, 2.5));
    SDL_Surface *off = draw(&m, a, 2, 0), *seen = draw(&m, a, 2, PT_OVERLAY_RAYS);
    rgba c = px(seen, x, y);
    ck_assert(changed(seen, off, x, y));
    ck_assert_int_gt(c.g, c.r + 40);
    pt_map_set(&m, 5, 2, '#');
    ck_assert(!pt_can_see(&m, 1.5, 2.5, 0, 10, PT_PI / 2, 8.5, 2.5));
    SDL_Surface *off2 = draw(&m, a, 2, 0), *blocked = draw(&m, a, 2, PT_OVERLAY_RAYS);
    c = px(blocked, x, y);
    ck_assert_int_gt(c.r, c.g + 40);
    ck_assert(changed(blocked, off2, 5 * 16, 2 * 16 + 8)); /* the box around the wall cell */
    a[0].heading = PT_PI; /* looking away: out of the cone */
    pt_map_set(&m, 5, 2, '.');
    SDL_Surface *away = draw(&m, a, 2, PT_OVERLAY_RAYS);
    c = px(away, x, y);
    rgba o = px(off, x, y);
    ck_assert(changed(away, off, x, y));
    ck_assert(abs(c.r - o.r) < 80 && abs(c.g - o.g) < 80); /* faint */
    ck_assert(!(c.g > c.r + 40) && !(c.r > c.g + 40));
    SDL_FreeSurface(off);
    SDL_FreeSurface(off2);
    SDL_FreeSurface(seen);
    SDL_FreeSurface(blocked);
    SDL_FreeSurface(away);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_steer_overlay) {
    pt_map m;
    blank(&m, 8, 4);
    pt_actor b = {.kind = PT_KIND_GUARD, .row = 1, .x = 2.5, .y = 2.0, .continuous = 1, .vel_x = 3.0, .vel_y = 0,
                  .radius = 0.5};
    SDL_Surface *off = draw(&m, &b, 1, 0), *on = draw(&m, &b, 1, PT_OVERLAY_STEER);
    ck_assert(changed(on, off, (int)(4.5 * 16), 2 * 16));     /* on the velocity arrow */
    ck_assert(changed(on, off, (int)(2.5 * 16), 2 * 16 - 8)); /* the top of the circle */
    ck_assert(!changed(on, off, (int)(2.5 * 16), 3 * 16 + 8));
    /* Feelers, detection box, neighbour radius, force: each where it is given. */
    pt_map big;
    blank(&big, 12, 8);
    pt_actor v = {.kind = PT_KIND_BOID, .row = 3, .x = 4.5, .y = 4.0, .heading = 0, .continuous = 1, .radius = 0.5,
                  .nfeelers = 1, .feeler_x = {4.5}, .feeler_y = {1.0}, .box_length = 4.0, .neighbour_radius = 3.0,
                  .force_x = 0, .force_y = 20.0};
    pt_actor plain = v;
    plain.nfeelers = 0;
    plain.box_length = plain.neighbour_radius = plain.force_x = plain.force_y = 0;
    SDL_Surface *poff = draw(&big, &plain, 1, PT_OVERLAY_STEER), *pon = draw(&big, &v, 1, PT_OVERLAY_STEER);
    ck_assert(changed(pon, poff, (int)(4.5 * 16), (int)(1.5 * 16)));  /* the feeler, up to 4.5,1 */
    ck_assert(changed(pon, poff, (int)(7.0 * 16), (int)(3.5 * 16)));  /* the box's far-left corner side */
    ck_assert(changed(pon, poff, (int)(1.5 * 16), (int)(4.0 * 16)));  /* the neighbour circle's west point */
    ck_assert(changed(pon, poff, (int)(4.5 * 16), (int)(5.6 * 16)));  /* the force, 2 tiles down */
    ck_assert(!changed(pon, poff, (int)(10.5 * 16), (int)(6.5 * 16)));
    SDL_FreeSurface(poff);
    SDL_FreeSurface(pon);
    pt_map_fini(&big);
    b.continuous = 0; /* tile movers have no steering picture */
    SDL_Surface *tile = draw(&m, &b, 1, PT_OVERLAY_STEER);
    ck_assert(!changed(tile, off, (int)(4.5 * 16), 2 * 16));
    SDL_FreeSurface(off);
    SDL_FreeSurface(on);
    SDL_FreeSurface(tile);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_cone_colours) {
    /* Calm: grey-white; suspicious: yellow; chase: red - each cone lights the floor in a
     * different hue (floor is grey, so compare red against blue). */
    pt_map m;
    blank(&m, 10, 5);
    pt_actor g = {.kind = PT_KIND_GUARD, .row = 1, .x = 1.5, .y = 2.5, .heading = 0, .view_dist = 8,
                  .view_angle = PT_PI / 2};
    int x = 4 * 16 + 8, y = 2 * 16 + 8;
    SDL_Surface *off = draw(&m, &g, 1, 0);
    rgba f = px(off, x, y);
    SDL_Surface *calm = draw(&m, &g, 1, PT_OVERLAY_CONES);
    g.state = PT_STATE_SUSPICIOUS;
    SDL_Surface *sus = draw(&m, &g, 1, PT_OVERLAY_CONES);
    g.state = PT_STATE_CHASE;
    SDL_Surface *chase = draw(&m, &g, 1, PT_OVERLAY_CONES);
    rgba c = px(calm, x, y), s = px(sus, x, y), h = px(chase, x, y);
    /* calm lightens evenly; suspicious adds red and green over blue; chase red over green */
    ck_assert_int_gt(c.r + c.g + c.b, f.r + f.g + f.b);
    ck_assert_int_lt(abs((c.r - f.r) - (c.b - f.b)), 20);
    ck_assert_int_gt((s.g - f.g) - (s.b - f.b), 30);
    ck_assert_int_gt((h.r - f.r) - (h.g - f.g), 40);
    SDL_FreeSurface(off);
    SDL_FreeSurface(calm);
    SDL_FreeSurface(sus);
    SDL_FreeSurface(chase);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_debug_primitives) {
    pt_map m;
    blank(&m, 20, 10);
    canvas c;
    canvas_open(&c, 200, 120);
    canvas_clear(&c);
    /* A view in a sub-rectangle, scale 2, camera at 3,1. */
    pt_view v = {.x = 10, .y = 20, .w = 150, .h = 80, .scale = 2, .cam_x = 3, .cam_y = 1};
    double ox, oy;
    pt_view_to_px(&m, &v, 4.0, 2.0, &ox, &oy);
    ck_assert(ox == 10 + 32 && oy == 20 + 32);
    pt_debug_line(c.r, &m, &v, 4.0, 2.0, 6.0, 2.0, 0xff0000ffu);        /* inside */
    pt_debug_line(c.r, &m, &v, 4.0, 2.0, 4.0, -5.0, 0x00ff00ffu);       /* leaves through the top */
    pt_debug_cell(c.r, &m, &v, 5, 2, 0x0000ffffu);
    pt_debug_circle(c.r, &m, &v, 6.0, 3.0, 0.5, 0xffff00ffu);
    pt_debug_arrow(c.r, &m, &v, 5.0, 4.0, 1.0, 0.0, 0xff00ffffu);
    ck_assert_int_eq(pt_draw_pointer(c.r, &m, &v, 5.0, 3.0, 0, 0xffffffffu), 0); /* in view */
    SDL_Surface *img = canvas_copy(&c);
    rgba p = px(img, 10 + 48, 20 + 32);
    ck_assert(p.r == 255 && p.g == 0 && p.b == 0);
    p = px(img, 10 + 32, 25); /* the green line inside the rect */
    ck_assert(p.g == 255 && p.r == 0);
    p = px(img, 10 + 32, 15); /* clipped above it */
    ck_assert(p.g == 0 && p.r == 0 && p.b == 0);
    p = px(img, 10 + 2 * 32 + 16, 20 + 1 * 32 + 16); /* cell 5,2 */
    ck_assert(p.b == 255 && p.r == 0);
    p = px(img, 10 + 3 * 32, 20 + 1 * 32 + 16); /* circle top at 6,2.5 */
    ck_assert(p.r == 255 && p.g == 255);
    SDL_FreeSurface(img);
    /* Off to the right: the pointer is drawn at the right edge, inside the rect. */
    canvas_clear(&c);
    ck_assert_int_eq(pt_draw_pointer(c.r, &m, &v, 40.0, 3.0, 0, 0xffffffffu), 1);
    img = canvas_copy(&c);
    int right = 0, outside = 0;
    for (int y = 0; y < 120; y++)
        for (int x = 0; x < 200; x++) {
            rgba q = px(img, x, y);
            if (q.r == 255 && q.g == 255 && q.b == 255) {
                right += x > 10 + 100;
                outside += x < 10 || x >= 160 || y < 20 || y >= 100;
            }
        }
    ck_assert_int_gt(right, 10);
    ck_assert_int_eq(outside, 0);
    SDL_FreeSurface(img);
    canvas_close(&c);
    pt_map_fini(&m);
}
END_TEST

/* The top bar keeps the level's title at the game's usual window widths: what to do goes
 * first when there is no room for both (docs/playing.md). */
START_TEST(test_hud_title_kept) {
    SDL_Surface *font = sheet("font.png");
    static const int widths[] = {800, 960, 1024, 1152, 1280, 1920};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        int w = widths[k], h = 600;
        canvas c;
        canvas_open(&c, w, h);
        canvas_clear(&c);
        pt_hud hud = {.title = "Castle by the river", .objective = "Reach the exit - stay out of sight",
                      .status = "STONES 3  0:00.0", .alert = 1};
        pt_render_hud(c.r, &hud, 0, 0, 0, 0);
        SDL_Surface *img = canvas_copy(&c);
        int ts = pt_hud_scale(w, h), ink = 0, bad = 0;
        int gx0 = (('C' - 32) % 16) * 8, gy0 = (('C' - 32) / 16) * 8;
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                if (px(font, gx0 + x, gy0 + y).a != 255) continue;
                ink++;
                rgba got = px(img, 4 * ts + x * ts, 3 * ts + y * ts);
                bad += !(got.r == 0xf2 && got.g == 0xbe && got.b == 0x3c);
            }
        ck_assert_int_gt(ink, 8);
        ck_assert_msg(bad == 0, "%dx%d: the title is not drawn (%d of %d pixels)", w, h, bad, ink);
        SDL_FreeSurface(img);
        canvas_close(&c);
    }
    SDL_FreeSurface(font);
}
END_TEST

START_TEST(test_hud_parts) {
    /* Every part, in outputs from tiny to large: nothing is drawn outside the rectangle and
     * each part changes pixels. */
    pt_error e = {.code = PT_ERR_BAD_NUMBER, .line = 3, .col = 14, .file = "patterns/castle.pat",
                  .message = "'x' is not a number", .source = "  points 2,3 x,3"};
    pt_hud_msg msgs[1] = {{"spotted by corridor!", 0xff5a4affu}};
    static const int sizes[][2] = {{1, 1}, {40, 20}, {320, 240}, {960, 600}, {1920, 1080}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        canvas c;
        canvas_open(&c, w + 20, h + 20);
        pt_hud parts[] = {
            {.title = "t", .objective = "Reach the exit - stay out of sight", .status = "0:00.0", .alert = 2},
            {.msgs = msgs, .nmsgs = 1},
            {.keys = "arrows/WASD move   Esc quit"},
            {.notice = "PAUSED"},
            {.banner = 1, .banner_text = "time 0:12.3\nnever spotted", .banner_t = 5.0},
            {.banner = -1, .banner_t = 0.1, .flash = 1.0},
            {.help = "keys\nP|pause\nEsc|quit"},
            {.error = &e},
            {.phase = "EVASION 12", .phase_kind = 2},
        };
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            canvas_clear(&c);
            pt_render_hud(c.r, &parts[i], 10, 10, w, h);
            SDL_Surface *img = canvas_copy(&c);
            int inside = 0, outside = 0;
            for (int y = 0; y < h + 20; y++)
                for (int x = 0; x < w + 20; x++) {
                    rgba q = px(img, x, y);
                    int lit = q.r || q.g || q.b;
                    if (x < 10 || y < 10 || x >= 10 + w || y >= 10 + h) outside += lit;
                    else inside += lit;
                }
            ck_assert_msg(outside == 0, "part %zu drew outside at %dx%d", i, w, h);
            if (w >= 320) ck_assert_msg(inside > 0, "part %zu drew nothing at %dx%d", i, w, h);
            SDL_FreeSurface(img);
        }
        if (w >= 320) { /* the phase adds its own ink to the top bar */
            long lit[2] = {0, 0};
            for (int with = 0; with < 2; with++) {
                pt_hud bar = {.status = "0:00.0", .phase = with ? "CAUTION 30" : NULL, .phase_kind = 3};
                canvas_clear(&c);
                pt_render_hud(c.r, &bar, 10, 10, w, h);
                SDL_Surface *img = canvas_copy(&c);
                for (int y = 0; y < h + 20; y++)
                    for (int x = 0; x < w + 20; x++) {
                        rgba q = px(img, x, y);
                        lit[with] += q.r > 200 && q.g > 150 && q.b < 120; /* caution's yellow */
                    }
                SDL_FreeSurface(img);
            }
            ck_assert_msg(lit[1] > lit[0], "no phase drawn at %dx%d", w, h);
        }
        canvas_close(&c);
    }
    ck_assert_int_eq(pt_hud_scale(640, 480), 1);
    ck_assert_int_eq(pt_hud_scale(960, 600), 2);
    ck_assert_int_eq(pt_hud_scale(1920, 1080), 3);
    int top = 0, bottom = 0;
    pt_hud_bars(2, &top, &bottom);
    ck_assert_int_gt(top, 16);
    ck_assert_int_gt(bottom, 16);
}
END_TEST

static int draw_red(pt_render *r, int w, int h, void *user) {
    (void)r;
    int *calls = user;
    ++*calls;
    ck_assert_int_eq(w, 30);
    ck_assert_int_eq(h, 20);
    pt_draw_text(r, 0, 0, 1, 0xff0000ffu, "A");
    return PT_OK;
}

static int draw_fail(pt_render *r, int w, int h, void *user) {
    (void)r, (void)w, (void)h, (void)user;
    return PT_ERR_NOMEM;
}

START_TEST(test_surface_with) {
    int calls = 0;
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(30, 20, ASSETS, draw_red, &calls, &err);
    ck_assert(s != NULL);
    ck_assert_int_eq(calls, 1);
    int red = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) red += px(s, x, y).r == 255;
    ck_assert_int_gt(red, 5);
    SDL_FreeSurface(s);
    ck_assert(pt_render_surface_with(30, 20, ASSETS, draw_fail, NULL, &err) == NULL);
    ck_assert_int_eq(err.code, PT_ERR_NOMEM);
    ck_assert(pt_render_surface_with(0, 20, ASSETS, draw_red, &calls, &err) == NULL);
    ck_assert_int_eq(err.code, PT_ERR_LIMIT);
    ck_assert(pt_render_surface_with(30, 20, ASSETS, NULL, NULL, &err) == NULL);
    ck_assert_int_eq(err.code, PT_ERR_USAGE);
    ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(test_overlay_names) {
    unsigned bits = 0;
    int bad = 0;
    ck_assert(pt_overlay_parse("rays,patterns", &bits, &bad));
    ck_assert_uint_eq(bits, PT_OVERLAY_RAYS | PT_OVERLAY_PATTERNS);
    ck_assert(pt_overlay_parse("debug", &bits, &bad));
    ck_assert_uint_eq(bits, PT_OVERLAY_DEBUG);
    ck_assert(!(bits & PT_OVERLAY_GRID));
    ck_assert_str_eq(pt_overlay_name(PT_OVERLAY_RAYS), "rays");
}
END_TEST

static Suite *render_game_suite(void) {
    Suite *s = suite_create("render_game");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_demo_300_frames);
    tcase_add_test(core, test_patterns_overlay);
    tcase_add_test(core, test_rays_overlay);
    tcase_add_test(core, test_steer_overlay);
    tcase_add_test(core, test_cone_colours);
    tcase_add_test(core, test_debug_primitives);
    tcase_add_test(core, test_surface_with);
    tcase_add_test(core, test_overlay_names);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_hud_parts);
    tcase_add_test(limits, test_hud_title_kept);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(render_game_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
