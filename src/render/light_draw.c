/* SPDX-License-Identifier: Zlib */
/* light_draw.c - a world's light over the tiles (pt_render_set_light: darkness, pools,
 * lantern cones, the lights, the light overlay) and the HUD's visibility gem. Reads the
 * world through patrol/light.h; in its own file, reached from draw.c through a pointer, so
 * that programs drawing only maps do not link the world. */
#include "render_internal.h"

#include <patrol/light.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>

#define DARK_ALPHA 200.0  /* alpha of the darkness over a cell at light 0 */
#define POOL_ALPHA 56.0   /* alpha of the warm tint where lights give a whole 1 above ambient */
#define LANTERN_ALPHA 56  /* alpha of a lantern's wedge at its bearer */
#define GLOW_RADIUS 0.6   /* tiles */

static double ambient_of(const pt_map *m) { return m->ambient_set ? m->ambient : 1.0; }

/* Whether the world has any light to draw: a light, an ambient level below 1, a lantern. */
static int world_lit(const pt_world *w) {
    const pt_map *m = pt_world_map(w);
    if (pt_world_light_count(w) > 0 || ambient_of(m) < 1.0) return 1;
    for (int i = 1; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (e && e->def && e->def->lantern > 0) return 1;
    }
    return 0;
}

static SDL_Vertex vert(float x, float y, uint32_t rgba) {
    SDL_Vertex v = {{x, y}, {(Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba}, {0, 0}};
    return v;
}

/* A fan of `n` triangles round (cx, cy) in output pixels from angle a0 to a1 (radians),
 * radius rad: the centre in rgba c, the rim in rgba e. */
static void fan(pt_render *r, float cx, float cy, float rad, double a0, double a1, int n, uint32_t c, uint32_t e) {
    SDL_Vertex v[3 * 24];
    if (n > 24) n = 24;
    for (int i = 0; i < n; i++) {
        double t0 = a0 + (a1 - a0) * i / n, t1 = a0 + (a1 - a0) * (i + 1) / n;
        v[3 * i] = vert(cx, cy, c);
        v[3 * i + 1] = vert(cx + rad * (float)cos(t0), cy + rad * (float)sin(t0), e);
        v[3 * i + 2] = vert(cx + rad * (float)cos(t1), cy + rad * (float)sin(t1), e);
    }
    SDL_RenderGeometry(r->sdl, NULL, v, 3 * n, NULL, 0);
}

static void tri(pt_render *r, float x0, float y0, float x1, float y1, float x2, float y2, uint32_t rgba) {
    SDL_Vertex v[3] = {vert(x0, y0, rgba), vert(x1, y1, rgba), vert(x2, y2, rgba)};
    SDL_RenderGeometry(r->sdl, NULL, v, 3, NULL, 0);
}

/* A light's holder, and its flame (on) or a dark ember (out), on cell (x, y). */
static void draw_source(pt_render *r, const pt__xform *f, const pt_light *l, double time) {
    float u = (float)(f->t * f->scale); /* a tile in output pixels */
    float cx = pt__fx_of(f, l->x + 0.5), cy = pt__fy_of(f, l->y + 0.5);
    if (l->on) fan(r, cx, cy, (float)GLOW_RADIUS * u, 0, PT_TAU, 16, 0xffc8606eu, 0xffc86000u);
    SDL_Rect holder = {(int)lroundf(cx - 0.12f * u), (int)lroundf(cy + 0.08f * u), (int)lroundf(0.24f * u),
                       (int)lroundf(0.16f * u)};
    if (holder.w < 2) holder.w = 2;
    if (holder.h < 1) holder.h = 1;
    pt__set_color(r->sdl, 0x2a2018ffu);
    SDL_RenderFillRect(r->sdl, &holder);
    float base = cy + 0.08f * u;
    if (!l->on) {
        SDL_Rect ember = {(int)lroundf(cx - 0.05f * u), (int)lroundf(base - 0.06f * u), (int)lroundf(0.1f * u) + 1,
                          (int)lroundf(0.06f * u) + 1};
        pt__set_color(r->sdl, 0x5a1a10ffu);
        SDL_RenderFillRect(r->sdl, &ember);
        return;
    }
    /* Flicker: the tip sways and the height breathes, each light out of step with the others. */
    double ph = time * 7.0 + l->x * 1.7 + l->y * 2.3;
    float h = u * (0.38f + 0.05f * (float)sin(ph)), sway = u * 0.05f * (float)sin(ph * 1.3);
    float hw = 0.13f * u;
    tri(r, cx - hw, base, cx + hw, base, cx + sway, base - h, 0xff7a18ffu);
    tri(r, cx - hw * 0.55f, base, cx + hw * 0.55f, base, cx + sway * 0.6f, base - h * 0.6f, 0xffe890ffu);
}

/* Lantern wedges: in front of each guard that carries one, as wide as its view cone. */
static void draw_lanterns(pt_render *r, const pt_world *w, const pt__xform *f) {
    float u = (float)(f->t * f->scale);
    for (int i = 1; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (!e || !e->def || !(e->def->lantern > 0) || e->kind != PT_KIND_GUARD) continue;
        double half = e->view_angle > 0 ? e->view_angle / 2 : PT_PI / 4;
        if (half > PT_PI) half = PT_PI;
        fan(r, pt__fx_of(f, e->px), pt__fy_of(f, e->py), (float)e->def->lantern * u, e->heading - half,
            e->heading + half, 12, 0xffe29600u | LANTERN_ALPHA, 0xffe29600u);
    }
}

/* PT_OVERLAY_LIGHT: the levels, a tint and a number a cell; the lights' radii. */
static void draw_overlay(pt_render *r, const pt_world *w, const pt__xform *f, int x0, int y0, int x1, int y1) {
    int u = f->t * f->scale;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            double l = pt_world_light_at(w, x, y);
            uint32_t rc = (uint32_t)lround(40 + (255 - 40) * l), gc = (uint32_t)lround(60 + (236 - 60) * l),
                     bc = (uint32_t)lround(170 + (140 - 170) * l);
            int sx = pt__sx_of(f, x), sy = pt__sy_of(f, y);
            pt__fill_rect(r, sx, sy, u, u, rc << 24 | gc << 16 | bc << 8 | 110u);
            if (u >= 16) {
                char num[4];
                snprintf(num, sizeof num, "%ld", lround(l * 10));
                int tw = 0, th = 0;
                pt__text_size_adv(num, u / 16, PT__HUD_ADV, &tw, &th);
                pt__draw_text_adv(r, sx + (u - tw) / 2, sy + (u - th) / 2, u / 16, PT__HUD_ADV,
                                  l < 0.5 ? 0xffffffe0u : 0x101010e0u, num);
            }
        }
    for (int i = 0; i < pt_world_light_count(w); i++) {
        pt_light l;
        if (pt_world_light_get(w, i, &l) != PT_OK) continue;
        pt__set_color(r->sdl, l.on ? 0xffe040ffu : 0x909090ffu);
        pt__circle_tiles(r, f, l.x + 0.5, l.y + 0.5, l.radius);
    }
}

static void draw_light(pt_render *r, const pt_map *m, const pt__xform *f, const pt_view *v, int x0, int y0, int x1,
                       int y1) {
    const pt_world *w = r->light_world;
    if (m != pt_world_map(w) || !world_lit(w)) return;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    double amb = ambient_of(m);
    int u = f->t * f->scale;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            double l = pt_world_light_at(w, x, y), g = pt_world_light_static(w, x, y) - amb;
            int sx = pt__sx_of(f, x), sy = pt__sy_of(f, y);
            long a = lround(DARK_ALPHA * (1.0 - l));
            if (a > 0) pt__fill_rect(r, sx, sy, u, u, 0x080a1800u | (uint32_t)a);
            long p = lround(POOL_ALPHA * g);
            if (p > 0) pt__fill_rect(r, sx, sy, u, u, 0xffc46800u | (uint32_t)p);
        }
    draw_lanterns(r, w, f);
    for (int i = 0; i < pt_world_light_count(w); i++) {
        pt_light l;
        if (pt_world_light_get(w, i, &l) == PT_OK && l.x >= x0 - 1 && l.x <= x1 && l.y >= y0 - 1 && l.y <= y1)
            draw_source(r, f, &l, v->time);
    }
    if (v->overlays & PT_OVERLAY_LIGHT) draw_overlay(r, w, f, x0, y0, x1, y1);
}

void pt_render_set_light(pt_render *r, const pt_world *w) {
    if (!r) return;
    r->light_world = w;
    r->light_fn = w ? draw_light : NULL;
}

void pt_render_light_gem(pt_render *r, int cx, int cy, int size, double v) {
    if (!r || size < 4) return;
    double k = isfinite(v) ? pt_clamp(v, 0.0, 1.0) : 0.0;
    uint32_t c = (uint32_t)lround(24 + (255 - 24) * k) << 24 | (uint32_t)lround(28 + (246 - 28) * k) << 16 |
                 (uint32_t)lround(44 + (196 - 44) * k) << 8 | 0xffu;
    float h = size / 2.0f, x = (float)cx, y = (float)cy;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    float o = h + 2; /* the outline: a larger dark diamond under it */
    SDL_Vertex out[6] = {vert(x, y - o, 0x000000e0u), vert(x + o * 0.7f, y, 0x000000e0u), vert(x, y + o, 0x000000e0u),
                         vert(x, y - o, 0x000000e0u), vert(x, y + o, 0x000000e0u), vert(x - o * 0.7f, y, 0x000000e0u)};
    SDL_RenderGeometry(r->sdl, NULL, out, 6, NULL, 0);
    SDL_Vertex in[6] = {vert(x, y - h, c), vert(x + h * 0.7f, y, c), vert(x, y + h, c),
                        vert(x, y - h, c), vert(x, y + h, c), vert(x - h * 0.7f, y, c)};
    SDL_RenderGeometry(r->sdl, NULL, in, 6, NULL, 0);
    pt__set_color(r->sdl, 0xd8e0f0c0u); /* the rim's upper edges catch the light */
    SDL_RenderDrawLineF(r->sdl, x - h * 0.7f, y, x, y - h);
    SDL_RenderDrawLineF(r->sdl, x, y - h, x + h * 0.7f, y);
}
