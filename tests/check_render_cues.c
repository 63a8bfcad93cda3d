/* SPDX-License-Identifier: Zlib */
/* The readability cues of the renderer (issue 26): the edge-marker geometry over many random
 * views and points (clamped inside the view's edge, pointing at the point); a guard off screen
 * gives a marker of its state's colour at the edge it lies beyond, and none when in view; a
 * player hidden in a bush is drawn dimmed behind the bush's leaves; the HUD's HIDDEN chip; the
 * tree tile drawn from tiles.png. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <SDL.h>

#include <patrol/math.h>
#include <patrol/render.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include "test_util.h"

#define ASSETS PATROL_SOURCE_DIR "/assets"

typedef struct rgba { Uint8 r, g, b, a; } rgba;

static rgba px(SDL_Surface *s, int x, int y) {
    rgba c = {0, 0, 0, 0};
    Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
    SDL_GetRGBA(v, s->format, &c.r, &c.g, &c.b, &c.a);
    return c;
}

START_TEST(test_edge_marker_geometry) {
    pt_rng r;
    pt_rng_seed(&r, 26, 3);
    long outside = 0, inside = 0, bad = 0;
    char first[160] = "";
#define BAD(...) do { if (!bad++) snprintf(first, sizeof first, __VA_ARGS__); } while (0)
    for (int it = 0; it < 100000; it++) {
        pt_view v = {.x = (int)pt_rng_below(&r, 300), .y = (int)pt_rng_below(&r, 300),
                     .w = 1 + (int)pt_rng_below(&r, 1200), .h = 1 + (int)pt_rng_below(&r, 900)};
        double margin = pt_rng_unit(&r) * 40.0;
        /* points from well inside to far outside, some exactly on an edge's line */
        double spread = it % 3 == 0 ? 1.2 : it % 3 == 1 ? 3.0 : 40.0;
        double p_x = v.x + v.w / 2.0 + pt_rng_signed(&r) * v.w * spread;
        double p_y = v.y + v.h / 2.0 + pt_rng_signed(&r) * v.h * spread;
        if (it % 17 == 0) p_x = v.x + v.w; /* just past the right edge */
        if (it % 19 == 0) p_y = v.y + v.h / 2.0; /* level with the centre */
        double mx = NAN, my = NAN, ux = NAN, uy = NAN;
        int got = pt_view_edge_marker(&v, p_x, p_y, margin, &mx, &my, &ux, &uy);
        int in_view = p_x >= v.x && p_y >= v.y && p_x < v.x + v.w && p_y < v.y + v.h;
        int room = v.w / 2.0 - margin > 0 && v.h / 2.0 - margin > 0;
        if (got != (!in_view && room)) BAD("it %d: got %d, in view %d, room %d", it, got, in_view, room);
        if (!got) {
            if (!isnan(mx) || !isnan(ux)) BAD("it %d: outputs touched", it);
            inside += in_view;
            continue;
        }
        outside++;
        /* inside the view shrunk by the margin, on its border */
        double l = v.x + margin, t = v.y + margin, rr = v.x + v.w - margin, b = v.y + v.h - margin, eps = 1e-6;
        if (!(mx >= l - eps && mx <= rr + eps && my >= t - eps && my <= b + eps)) BAD("it %d: %g,%g outside", it, mx, my);
        double border = fmin(fmin(fabs(mx - l), fabs(mx - rr)), fmin(fabs(my - t), fabs(my - b)));
        if (!(border < eps)) BAD("it %d: %g from the border", it, border);
        /* a unit direction toward the point, along the line from the marker to it */
        if (!(fabs(hypot(ux, uy) - 1.0) < 1e-9)) BAD("it %d: not a unit direction", it);
        double dx = p_x - mx, dy = p_y - my, len = hypot(dx, dy);
        if (!(len > 0 && (dx * ux + dy * uy) > 0.999999 * len)) BAD("it %d: points away", it);
        if (!(fabs(dx * uy - dy * ux) <= 1e-7 * (1.0 + len))) BAD("it %d: off the line", it);
    }
#undef BAD
    ck_assert_msg(bad == 0, "%ld bad, the first: %s", bad, first);
    ck_assert_msg(outside > 50000 && inside > 5000, "outside %ld, inside %ld", outside, inside);
    /* the degenerate cases */
    pt_view v = {.x = 0, .y = 0, .w = 100, .h = 60};
    double a, b, c, d;
    ck_assert_int_eq(pt_view_edge_marker(&v, 500, 30, 30, &a, &b, &c, &d), 0); /* no room: 60/2 - 30 */
    ck_assert_int_eq(pt_view_edge_marker(&v, NAN, 30, 0, &a, &b, &c, &d), 0);
    ck_assert_int_eq(pt_view_edge_marker(&v, INFINITY, 30, 0, &a, &b, &c, &d), 0);
    ck_assert_int_eq(pt_view_edge_marker(NULL, 500, 30, 0, &a, &b, &c, &d), 0);
    ck_assert_int_eq(pt_view_edge_marker(&v, 500, 30, 5, &a, &b, &c, &d), 1);
    ck_assert(fabs(a - 95) < 1e-9 && fabs(b - 30) < 1e-9 && c == 1.0 && d == 0.0); /* due east */
}
END_TEST

typedef struct job {
    const pt_map *map;
    const pt_actor *actors;
    int n;
    pt_view view;
    int markers;   /* pt_render_offscreen_guards' answer */
    const pt_hud *hud;
} job;

static int draw_job(pt_render *r, int w, int h, void *user) {
    job *j = user;
    pt_scene s = {.map = j->map, .actors = j->actors, .nactors = j->n};
    pt_view v = j->view;
    pt_view_resolve(&v, w, h);
    int rc = pt_render_draw(r, &s, &v);
    j->markers = pt_render_offscreen_guards(r, j->map, &v, j->actors, j->n, 0);
    if (j->hud) pt_render_hud(r, j->hud, 0, 0, w, h);
    return rc;
}

static SDL_Surface *render(job *j, int w, int h) {
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(w, h, ASSETS, draw_job, j, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    return s;
}

/* Pixels of colour c (within 8 per channel) in the band `band` pixels wide along the edge:
 * 0 left, 1 right, 2 top, 3 bottom. */
static int count_near(SDL_Surface *s, uint32_t c, int edge, int band) {
    int n = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            int in = edge == 0 ? x < band : edge == 1 ? x >= s->w - band : edge == 2 ? y < band : y >= s->h - band;
            if (!in) continue;
            rgba p = px(s, x, y);
            if (abs(p.r - (int)(c >> 24)) <= 8 && abs(p.g - (int)((c >> 16) & 0xff)) <= 8 &&
                abs(p.b - (int)((c >> 8) & 0xff)) <= 8)
                n++;
        }
    return n;
}

/* A guard off each side of a 20x12-tile view of a 64x40 map: a marker of its state's colour
 * inside that edge; the same guard in view: no marker. */
START_TEST(test_offscreen_guard_marker) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 64, 40, NULL), PT_OK);
    const struct { double x, y; int edge; } spots[] = {{50.5, 6.5, 1}, {30.5, 30.5, 3}, {10.5, 35.5, 3}, {25.5, 2.5, 1}};
    const struct { int state; uint32_t rgb; } states[] = {
        {PT_STATE_CHASE, 0xff382c00u}, {PT_STATE_SUSPICIOUS, 0xffc83c00u}, {PT_STATE_PATROL, 0xe6e6f000u}};
    for (size_t k = 0; k < sizeof states / sizeof states[0]; k++)
        for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
            pt_actor a[2] = {{.kind = PT_KIND_PLAYER, .row = 0, .x = 5.5, .y = 5.5},
                             {.kind = PT_KIND_GUARD, .row = 1, .x = spots[i].x, .y = spots[i].y, .state = states[k].state}};
            job j = {.map = &m, .actors = a, .n = 2, .view = {.scale = 1, .cam_x = 2, .cam_y = 1}};
            SDL_Surface *s = render(&j, 320, 192);
            ck_assert_int_eq(j.markers, 1);
            int near = count_near(s, states[k].rgb, spots[i].edge, 24);
            ck_assert_msg(near >= 6, "state %d guard %zu: %d marker pixels at edge %d", states[k].state, i, near, spots[i].edge);
            SDL_FreeSurface(s);
            /* in view: nothing at any edge */
            a[1].x = 10.5;
            a[1].y = 6.5;
            s = render(&j, 320, 192);
            ck_assert_int_eq(j.markers, 0);
            for (int e = 0; e < 4; e++) ck_assert_int_eq(count_near(s, states[k].rgb, e, 12), 0);
            SDL_FreeSurface(s);
        }
    /* prey and the player off screen get none */
    pt_actor b[2] = {{.kind = PT_KIND_PLAYER, .row = 0, .x = 60.5, .y = 30.5}, {.kind = PT_KIND_PREY, .row = 2, .x = 50.5, .y = 6.5}};
    job j = {.map = &m, .actors = b, .n = 2, .view = {.scale = 1}};
    SDL_Surface *s = render(&j, 320, 192);
    ck_assert_int_eq(j.markers, 0);
    SDL_FreeSurface(s);
    pt_map_fini(&m);
}
END_TEST

/* The pixels of colour c (within 8 a channel) seen from (cx, cy) toward unit (ux, uy): the
 * extent along it (front = toward the point), across it, and the widest across-extent in the
 * back third. */
typedef struct shape { double along, across, back_across; int n; } shape;

static shape shape_of(SDL_Surface *s, uint32_t c, double ux, double uy) {
    shape sh = {0, 0, 0, 0};
    double sx = 0, sy = 0;
    for (int pass = 0; pass < 2; pass++) {
        double cx = sh.n ? sx / sh.n : 0, cy = sh.n ? sy / sh.n : 0;
        double a0 = 1e9, a1 = -1e9, b0 = 1e9, b1 = -1e9;
        for (int k = 0; k < 2; k++) /* k 1: the back third's width, once its rows are known */
            for (int y = 0; y < s->h; y++)
                for (int x = 0; x < s->w; x++) {
                    rgba p = px(s, x, y);
                    if (abs(p.r - (int)(c >> 24)) > 8 || abs(p.g - (int)((c >> 16) & 0xff)) > 8 ||
                        abs(p.b - (int)((c >> 8) & 0xff)) > 8)
                        continue;
                    if (pass == 0) {
                        if (k == 0) sx += x, sy += y, sh.n++;
                        continue;
                    }
                    double a = (x - cx) * ux + (y - cy) * uy, b = -(x - cx) * uy + (y - cy) * ux;
                    if (k == 0) {
                        if (a < a0) a0 = a;
                        if (a > a1) a1 = a;
                        if (b < b0) b0 = b;
                        if (b > b1) b1 = b;
                    } else if (a < a0 + (a1 - a0) / 3) {
                        if (b < -sh.back_across) sh.back_across = -b;
                        if (b > sh.back_across) sh.back_across = b;
                    }
                }
        if (pass == 1 && sh.n) sh.along = a1 - a0 + 1, sh.across = b1 - b0 + 1, sh.back_across = 2 * sh.back_across + 1;
    }
    return sh;
}

typedef struct pointer_job {
    const pt_map *map;
    pt_view view;
    double tx, ty;
    int guard;  /* 1: a guard's marker there, 0: the exit pointer */
} pointer_job;

static int draw_pointer_job(pt_render *r, int w, int h, void *user) { /* on a clear canvas */
    pointer_job *j = user;
    pt_view v = j->view;
    pt_view_resolve(&v, w, h);
    if (j->guard) {
        pt_actor a = {.kind = PT_KIND_GUARD, .row = 1, .x = j->tx, .y = j->ty, .state = PT_STATE_PATROL};
        pt_render_offscreen_guards(r, j->map, &v, &a, 1, 0);
    } else {
        pt_draw_pointer(r, j->map, &v, j->tx, j->ty, 0, 0xf2be3cffu);
    }
    return PT_OK;
}

/* The edge markers read as arrows: longer than wide, and narrow at the back (a shaft), so
 * which way they point shows at a glance; at view scales 1..3, toward random points all
 * round the view. */
START_TEST(test_markers_are_arrows) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 64, 40, NULL), PT_OK);
    pt_rng rng;
    pt_rng_seed(&rng, 2026, 1);
    for (int k = 0; k < 24; k++) {
        int sc = 1 + k % 3, guard = (k / 3) % 2;
        double ang = pt_rng_unit(&rng) * 2 * 3.14159265358979;
        /* a 20x12-tile view centred on (22, 16): the point 40 tiles away that way */
        pointer_job j = {.map = &m, .view = {.scale = sc, .cam_x = 12, .cam_y = 10}, .guard = guard};
        j.tx = 22 + 40 * cos(ang);
        j.ty = 16 + 40 * sin(ang);
        pt_error err;
        SDL_Surface *s = pt_render_surface_with(320 * sc, 192 * sc, ASSETS, draw_pointer_job, &j, &err);
        ck_assert_msg(s != NULL, "%s", err.message);
        SDL_LockSurface(s);
        shape sh = shape_of(s, guard ? 0xe6e6f000u : 0xf2be3c00u, cos(ang), sin(ang));
        SDL_UnlockSurface(s);
        SDL_FreeSurface(s);
        ck_assert_msg(sh.n > 10, "scale %d: no marker", sc);
        ck_assert_msg(sh.along >= 1.3 * sh.across, "scale %d angle %.2f %s: %.0f long, %.0f wide", sc, ang,
                      guard ? "guard" : "exit", sh.along, sh.across);
        ck_assert_msg(sh.back_across <= 0.6 * sh.across, "scale %d angle %.2f %s: %.0f wide at the back, %.0f in all",
                      sc, ang, guard ? "guard" : "exit", sh.back_across, sh.across);
    }
    pt_map_fini(&m);
}
END_TEST

typedef struct label_job {
    const pt_map *map;
    pt_actor *actors;
    int n;
    pt_view view;
} label_job;

/* The scene without names, a bright magenta tint over every cell (as the hearing overlay
 * tints), then the names. */
static int draw_label_job(pt_render *r, int w, int h, void *user) {
    label_job *j = user;
    pt_scene sc = {.map = j->map, .actors = j->actors, .nactors = j->n};
    pt_view v = j->view;
    pt_view_resolve(&v, w, h);
    v.overlays = 0;
    int rc = pt_render_draw(r, &sc, &v);
    for (int y = 0; y < j->map->h; y++)
        for (int x = 0; x < j->map->w; x++) pt_debug_cell(r, j->map, &v, x, y, 0xe040e0a0u);
    pt_render_labels(r, &sc, &v);
    return rc;
}

static SDL_Surface *label_render(label_job *j) {
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(320 * j->view.scale, 192 * j->view.scale, ASSETS, draw_label_job, j, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    return s;
}

/* The pixels that differ between two surfaces. */
static void diff_rect(SDL_Surface *a, SDL_Surface *b, int *x0, int *y0, int *x1, int *y1) {
    *x0 = *y0 = 1 << 30;
    *x1 = *y1 = -1;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            rgba p = px(a, x, y), q = px(b, x, y);
            if (p.r == q.r && p.g == q.g && p.b == q.b) continue;
            if (x < *x0) *x0 = x;
            if (x > *x1) *x1 = x;
            if (y < *y0) *y0 = y;
            if (y > *y1) *y1 = y;
        }
}

/* Names over a bright overlay read: each label's letters are white, every other pixel in its
 * box dark (a backing); actors on one spot (a catch: the player and its catcher) and side by
 * side get labels that do not meet. At random spots, view scales 1..3. */
START_TEST(test_labels_read_and_part) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 20, 12, NULL), PT_OK);
    pt_rng rng;
    pt_rng_seed(&rng, 77, 2);
    static char names[3][16];
    for (int k = 0; k < 12; k++) {
        pt_actor a[3];
        memset(a, 0, sizeof a);
        double x = 2.5 + pt_rng_below(&rng, 14), y = 2.5 + pt_rng_below(&rng, 7);
        for (int i = 0; i < 3; i++) {
            snprintf(names[i], sizeof names[i], "%s", i == 0 ? "player" : i == 1 ? "snake" : "hen3");
            a[i] = (pt_actor){.kind = i == 0 ? PT_KIND_PLAYER : PT_KIND_GUARD, .row = i ? 1 : 0, .name = names[i]};
            /* the first two on one spot (or half a tile apart), the third a tile away or on it */
            a[i].x = x + (i == 1 ? 0.5 * (k % 2) : i == 2 ? (double)(k % 3) - 1 : 0);
            a[i].y = y + (i == 2 ? (double)(k % 2) : 0);
        }
        label_job j = {.map = &m, .actors = a, .n = 3, .view = {.scale = 1 + k % 3}};
        SDL_Surface *full = label_render(&j);
        SDL_LockSurface(full);
        int box[3][4];
        for (int i = 0; i < 3; i++) {
            char keep[16];
            memcpy(keep, names[i], sizeof keep);
            memset(names[i], ' ', strlen(names[i]));
            SDL_Surface *s = label_render(&j);
            memcpy(names[i], keep, sizeof keep);
            SDL_LockSurface(s);
            diff_rect(full, s, &box[i][0], &box[i][1], &box[i][2], &box[i][3]);
            SDL_UnlockSurface(s);
            SDL_FreeSurface(s);
            ck_assert_msg(box[i][2] >= 0, "%d: label %s not drawn", k, names[i]);
            for (int yy = box[i][1]; yy <= box[i][3]; yy++)
                for (int xx = box[i][0]; xx <= box[i][2]; xx++) {
                    rgba p = px(full, xx, yy);
                    int white = p.r == 255 && p.g == 255 && p.b == 255;
                    int dark = p.r < 90 && p.g < 90 && p.b < 90;
                    ck_assert_msg(white || dark, "%d: label %s pixel (%d,%d) is %d,%d,%d: neither its letters nor dark",
                                  k, names[i], xx, yy, p.r, p.g, p.b);
                }
            for (int o = 0; o < i; o++)
                ck_assert_msg(box[i][0] > box[o][2] || box[o][0] > box[i][2] || box[i][1] > box[o][3] ||
                                  box[o][1] > box[i][3],
                              "%d: labels %s and %s meet", k, names[o], names[i]);
        }
        SDL_UnlockSurface(full);
        SDL_FreeSurface(full);
    }
    pt_map_fini(&m);
}
END_TEST

/* The player on a bush at tile 2,1: hidden, the lower part of its cell shows the bush's own
 * pixels (the leaves in front), the upper part still shows the player (dimmed). */
START_TEST(test_hidden_player_behind_leaves) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 5, 3, NULL), PT_OK);
    pt_map_set(&m, 2, 1, '*');
    enum { S = 2, T = 16 * S };
    pt_actor a = {.kind = PT_KIND_PLAYER, .row = 0, .x = 2.5, .y = 1.5, .heading = PT_PI / 2};
    job j = {.map = &m, .actors = &a, .n = 1, .view = {.scale = S}};
    SDL_Surface *bare = render(&(job){.map = &m, .actors = NULL, .n = 0, .view = {.scale = S}}, 5 * T, 3 * T);
    SDL_Surface *shown = render(&j, 5 * T, 3 * T);
    a.hidden = 1;
    SDL_Surface *hidden = render(&j, 5 * T, 3 * T);
    int low_same = 0, low_diff_shown = 0, high_diff_bare = 0, high_diff_shown = 0, low = 0;
    for (int y = 0; y < T; y++)
        for (int x = 0; x < T; x++) {
            rgba pb = px(bare, 2 * T + x, T + y), ps = px(shown, 2 * T + x, T + y), ph = px(hidden, 2 * T + x, T + y);
            int hb = ph.r != pb.r || ph.g != pb.g || ph.b != pb.b, hs = ph.r != ps.r || ph.g != ps.g || ph.b != ps.b;
            int sb = ps.r != pb.r || ps.g != pb.g || ps.b != pb.b;
            if (y >= 11 * S) { /* below every leaf tip: the bush in front */
                low++;
                low_same += !hb;
                low_diff_shown += sb; /* the player's feet were there when not hidden */
            } else if (y < 6 * S) {
                high_diff_bare += hb;  /* its head still shows */
                high_diff_shown += hs; /* dimmed */
            }
        }
    ck_assert_int_eq(low_same, low);
    ck_assert_msg(low_diff_shown > 4 * S * S, "the feet show when not hidden: %d", low_diff_shown);
    ck_assert_msg(high_diff_bare > 8 * S * S && high_diff_shown > 8 * S * S, "head %d, dimmed %d", high_diff_bare, high_diff_shown);
    SDL_FreeSurface(bare);
    SDL_FreeSurface(shown);
    SDL_FreeSurface(hidden);
    pt_map_fini(&m);
}
END_TEST

/* The HUD's chip: its dark green in the top bar when hidden, nowhere when not. */
START_TEST(test_hud_hidden_chip) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 40, 20, NULL), PT_OK);
    for (int hid = 0; hid < 2; hid++) {
        pt_hud hud = {.title = "t", .status = "0:01.0", .hidden = hid};
        job j = {.map = &m, .view = {.scale = 1}, .hud = &hud};
        SDL_Surface *s = render(&j, 640, 320);
        int top = 0;
        pt_hud_bars(pt_hud_scale(640, 320), &top, NULL);
        int n = count_near(s, 0x1e5a3200u, 2, top);
        ck_assert_msg(hid ? n > 40 : n == 0, "hidden %d: %d chip pixels", hid, n);
        SDL_FreeSurface(s);
    }
    pt_map_fini(&m);
}
END_TEST

/* The world's player actor carries the core's answer. */
START_TEST(test_actor_hidden_from_world) {
    static const char *const text = "player at=4,2\nguard g at=1,2 heading=0 view=8 fov=90\ngrid\n"
                                    "#######\n#.....#\n#...*.#\n#.....#\n#######\nend\n";
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "h.map", &err), PT_OK);
    pt_world_desc d = {.player_controlled = 1};
    pt_world *w = pt_world_create(&m, NULL, &d, &err);
    ck_assert_ptr_nonnull(w);
    pt_actor a[2];
    for (int t = 0; t < 40; t++) {
        pt_world_set_input(w, t < 20 ? 0 : 1, 0); /* in the bush, then out east */
        pt_world_step(w);
        pt_render_actors_from_world(w, 0.0, a, 2);
        ck_assert_int_eq(a[0].hidden, pt_world_player_hidden(w));
        ck_assert_int_eq(a[1].hidden, 0);
        if (t == 10) ck_assert_int_eq(a[0].hidden, 1);
    }
    ck_assert_int_eq(a[0].hidden, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* The tree tile (T) is drawn with tiles.png's frame 10. */
START_TEST(test_tree_tile_sprite) {
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 1, 1, NULL), PT_OK);
    ck_assert(pt_map_set(&m, 0, 0, 'T'));
    ck_assert_int_eq(pt_render_tile_sprite(pt_map_tile(&m, 0, 0), 0.0), 10);
    pt_tile_def byname = {.name = "tree", .sprite = -1};
    ck_assert_int_eq(pt_render_tile_sprite(&byname, 0.0), 10);
    job j = {.map = &m, .view = {.scale = 1}};
    SDL_Surface *s = render(&j, 16, 16);
    /* the trunk (wood brown) at the bottom middle, the crown (green) above it */
    rgba trunk = px(s, 7, 12), crown = px(s, 8, 4);
    ck_assert_msg(trunk.r > trunk.g && trunk.r > trunk.b, "trunk %d,%d,%d", trunk.r, trunk.g, trunk.b);
    ck_assert_msg(crown.g > crown.r && crown.g > crown.b, "crown %d,%d,%d", crown.r, crown.g, crown.b);
    SDL_FreeSurface(s);
    pt_map_fini(&m);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_cues");
    TCase *tc = tcase_create("cues");
    tcase_add_test(tc, test_edge_marker_geometry);
    tcase_add_test(tc, test_offscreen_guard_marker);
    tcase_add_test(tc, test_markers_are_arrows);
    tcase_add_test(tc, test_labels_read_and_part);
    tcase_add_test(tc, test_hidden_player_behind_leaves);
    tcase_add_test(tc, test_hud_hidden_chip);
    tcase_add_test(tc, test_actor_hidden_from_world);
    tcase_add_test(tc, test_tree_tile_sprite);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
