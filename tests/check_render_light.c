/* SPDX-License-Identifier: Zlib */
/* check_render_light - a world's light drawn (pt_render_set_light, render.h): every cell of
 * a dark world is its unlit colour blended with the darkness at alpha round(200 x (1 - L))
 * (checked against the same frame without light, cell by cell, over many seeds and levels),
 * a world without lights and ambient 1 draws byte for byte as without light and with the
 * light overlay, the overlay changes a dark world's frame, lights that are on draw a flame a
 * doused one does not, and the gem's colour follows the visibility. */
#include <check.h>

#include <SDL.h>

#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/render.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define ASSETS PATROL_SOURCE_DIR "/assets"
#define W 20
#define H 12
#define S 2 /* scale: a tile is 32 output pixels */

typedef struct job {
    const pt_world *w;
    int light;          /* 1: pt_render_set_light(w) */
    unsigned overlays;
    double gem;         /* >= 0: draw the gem of this visibility instead */
} job;

static int draw_job(pt_render *r, int w, int h, void *user) {
    const job *j = user;
    if (j->gem >= 0) {
        pt_render_light_gem(r, w / 2, h / 2, 40, j->gem);
        return PT_OK;
    }
    pt_actor actors[8];
    int n = pt_render_actors_from_world(j->w, 0.0, actors, 8);
    pt_scene sc = {.map = pt_world_map(j->w), .actors = actors, .nactors = n};
    pt_view v = {.scale = S, .overlays = j->overlays};
    pt_view_resolve(&v, w, h);
    pt_render_set_light(r, j->light ? j->w : NULL);
    int rc = pt_render_draw(r, &sc, &v);
    pt_render_set_light(r, NULL);
    return rc;
}

static SDL_Surface *frame(const pt_world *w, int light, unsigned overlays) {
    job j = {w, light, overlays, -1};
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(W * 16 * S, H * 16 * S, ASSETS, draw_job, &j, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    return s;
}

static uint32_t px(const SDL_Surface *s, int x, int y) {
    return ((const uint32_t *)s->pixels)[(size_t)y * (size_t)(s->pitch / 4) + (size_t)x];
}

static int same(const SDL_Surface *a, const SDL_Surface *b) {
    return a->h == b->h && a->pitch == b->pitch && memcmp(a->pixels, b->pixels, (size_t)a->h * (size_t)a->pitch) == 0;
}

/* A walled room with scattered walls, the player in a corner, n lights, ambient amb. */
static void room(pt_map *m, uint64_t seed, int n, double amb) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, W, H, &err), PT_OK);
    pt_rng r;
    pt_rng_seed(&r, seed, 3);
    for (int x = 0; x < W; x++) pt_map_set(m, x, 0, '#'), pt_map_set(m, x, H - 1, '#');
    for (int y = 0; y < H; y++) pt_map_set(m, 0, y, '#'), pt_map_set(m, W - 1, y, '#');
    for (int i = 0; i < 12; i++)
        pt_map_set(m, 2 + (int)pt_rng_below(&r, W - 4), 2 + (int)pt_rng_below(&r, H - 4), '#');
    m->player.x = 1;
    m->player.y = 1;
    pt_map_set(m, 1, 1, '.');
    if (n > 0) m->lights = calloc((size_t)n, sizeof *m->lights);
    for (int i = 0; i < n; i++) {
        pt_light_def *l = &m->lights[i];
        snprintf(l->name, sizeof l->name, "t%d", i);
        do {
            l->x = 2 + (int)pt_rng_below(&r, W - 4);
            l->y = 2 + (int)pt_rng_below(&r, H - 4);
        } while (pt_map_opaque(m, l->x, l->y));
        l->radius = 2 + pt_rng_below(&r, 5);
        l->level = 0.5 + 0.25 * pt_rng_below(&r, 3);
        l->on = 1;
    }
    m->nlights = n;
    if (amb < 1.0) {
        m->ambient = amb;
        m->ambient_set = 1;
    }
}

static pt_world *world_of(const pt_map *m) {
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The blend of the darkness (rgb 8,10,24 at alpha a) over colour c, channel by channel, as
 * SDL's blend computes it (within 1 for rounding). */
static int dark_ok(uint32_t lit, uint32_t got, int a) {
    static const int dark[3] = {8, 10, 24}; /* RGBA32: r is the lowest byte on little endian */
    SDL_PixelFormat *f = SDL_AllocFormat(SDL_PIXELFORMAT_RGBA32);
    Uint8 c[3], g[3], al;
    SDL_GetRGBA(lit, f, &c[0], &c[1], &c[2], &al);
    SDL_GetRGBA(got, f, &g[0], &g[1], &g[2], &al);
    SDL_FreeFormat(f);
    for (int k = 0; k < 3; k++) {
        int want = (dark[k] * a + c[k] * (255 - a)) / 255;
        if (abs(want - g[k]) > 2) return 0;
    }
    return 1;
}

/* Darkness by the exact mapping: for 30 seeds and four ambient levels, at a pixel near each
 * cell's corner (clear of flames, glows and sprites), away from the lights' pools (where the
 * warm tint is added) and actors. */
START_TEST(test_darkness_mapping) {
    static const double ambs[] = {0.0, 0.2, 0.5, 0.9};
    int checked = 0;
    for (uint64_t seed = 1; seed <= 30; seed++)
        for (int ai = 0; ai < 4; ai++) {
            pt_map m;
            room(&m, seed, (int)(seed % 4), ambs[ai]);
            pt_world *w = world_of(&m);
            SDL_Surface *plain = frame(w, 0, 0), *dark = frame(w, 1, 0);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    if (pt_world_light_static(w, x, y) > ambs[ai] + 1e-9) continue; /* a pool */
                    int near = 0;
                    for (int i = 0; i < pt_world_light_count(w); i++) {
                        pt_light l;
                        pt_world_light_get(w, i, &l);
                        near |= abs(l.x - x) <= 1 && abs(l.y - y) <= 1;
                    }
                    if (near || (x <= 2 && y <= 2)) continue; /* glows and the player */
                    int a = (int)lround(200 * (1 - pt_world_light_at(w, x, y)));
                    int sx = x * 16 * S + 1, sy = y * 16 * S + 1;
                    ck_assert_msg(dark_ok(px(plain, sx, sy), px(dark, sx, sy), a),
                                  "seed %llu amb %g cell %d,%d: %08x over %08x, alpha %d", (unsigned long long)seed,
                                  ambs[ai], x, y, px(dark, sx, sy), px(plain, sx, sy), a);
                    checked++;
                }
            SDL_FreeSurface(plain);
            SDL_FreeSurface(dark);
            pt_world_destroy(w);
            pt_map_fini(&m);
        }
    ck_assert_int_gt(checked, 10000);
}
END_TEST

/* No lights and ambient 1: the light changes nothing, overlay or not. */
START_TEST(test_plain_unchanged) {
    for (uint64_t seed = 1; seed <= 5; seed++) {
        pt_map m;
        room(&m, seed, 0, 1.0);
        pt_world *w = world_of(&m);
        SDL_Surface *a = frame(w, 0, PT_OVERLAY_CONES), *b = frame(w, 1, PT_OVERLAY_CONES | PT_OVERLAY_LIGHT);
        ck_assert(same(a, b));
        SDL_FreeSurface(a);
        SDL_FreeSurface(b);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* A dark world: the overlay changes the frame; a lit light's flame is gone once doused
 * (the cell's glow and flame pixels change), and the frame is the same again when drawn
 * twice (the renderer reads, never writes). Writes light.png to the build folder to look at. */
START_TEST(test_overlay_and_flame) {
    pt_map m;
    room(&m, 4, 3, 0.1);
    pt_world *w = world_of(&m);
    SDL_Surface *a = frame(w, 1, 0), *o = frame(w, 1, PT_OVERLAY_LIGHT), *a2 = frame(w, 1, 0);
    ck_assert(!same(a, o));
    ck_assert(same(a, a2));
    SDL_SaveBMP(o, PATROL_BUILD_DIR "/light_overlay.bmp");
    SDL_SaveBMP(a, PATROL_BUILD_DIR "/light.bmp");
    pt_light l;
    pt_world_light_get(w, 0, &l);
    uint32_t flame = px(a, l.x * 16 * S + 16 * S / 2, l.y * 16 * S + 16 * S / 2 - 4);
    pt_world_set_light(w, 0, 0, NULL);
    SDL_Surface *d = frame(w, 1, 0);
    ck_assert_uint_ne(flame, px(d, l.x * 16 * S + 16 * S / 2, l.y * 16 * S + 16 * S / 2 - 4));
    SDL_FreeSurface(a);
    SDL_FreeSurface(a2);
    SDL_FreeSurface(o);
    SDL_FreeSurface(d);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* The gem: its centre pixel is the documented colour for the visibility, brighter as v grows. */
START_TEST(test_gem) {
    SDL_PixelFormat *f = SDL_AllocFormat(SDL_PIXELFORMAT_RGBA32);
    int last = -1;
    for (int i = 0; i <= 20; i++) {
        double v = i / 20.0;
        job j = {NULL, 0, 0, v};
        pt_error err;
        SDL_Surface *s = pt_render_surface_with(64, 64, ASSETS, draw_job, &j, &err);
        ck_assert(s != NULL);
        Uint8 r, g, b, a;
        SDL_GetRGBA(px(s, 32, 34), f, &r, &g, &b, &a);
        ck_assert_int_le(abs(r - (int)lround(24 + 231 * v)), 1);
        ck_assert_int_le(abs(g - (int)lround(28 + 218 * v)), 1);
        ck_assert_int_le(abs(b - (int)lround(44 + 152 * v)), 1);
        ck_assert_int_gt(r + g + b, last);
        last = r + g + b;
        SDL_FreeSurface(s);
    }
    SDL_FreeFormat(f);
}
END_TEST

static Suite *light_suite(void) {
    Suite *s = suite_create("render_light");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_darkness_mapping);
    tcase_add_test(tc, test_plain_unchanged);
    tcase_add_test(tc, test_overlay_and_flame);
    tcase_add_test(tc, test_gem);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(light_suite()); }
