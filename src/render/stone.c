/* SPDX-License-Identifier: Zlib */
/* A thrown stone, drawn over a scene from plain data: the pebble in the air with its shadow,
 * and the mark where it landed. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>

/* A filled disc of radius rad output pixels at (x, y), as a fan of triangles. */
static void disc(pt_render *r, double x, double y, double rad, uint32_t rgba) {
    enum { SEG = 16 };
    if (!(rad > 0)) return;
    SDL_Vertex v[SEG + 1];
    int idx[SEG * 3];
    SDL_Color c = {(Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba};
    v[0] = (SDL_Vertex){{(float)x, (float)y}, c, {0, 0}};
    for (int i = 0; i < SEG; i++) {
        double a = PT_TAU * i / SEG;
        v[i + 1] = (SDL_Vertex){{(float)(x + rad * cos(a)), (float)(y + rad * sin(a))}, c, {0, 0}};
        idx[3 * i] = 0;
        idx[3 * i + 1] = 1 + i;
        idx[3 * i + 2] = 1 + (i + 1) % SEG;
    }
    SDL_RenderGeometry(r->sdl, NULL, v, SEG + 1, idx, SEG * 3);
}

/* A ring between radii r0 and r1 output pixels (a strip of quads). */
static void ring(pt_render *r, double x, double y, double r0, double r1, uint32_t rgba) {
    enum { SEG = 32 };
    if (!(r1 > r0) || !(r0 >= 0)) return;
    SDL_Vertex v[2 * SEG];
    int idx[SEG * 6];
    SDL_Color c = {(Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba};
    for (int i = 0; i < SEG; i++) {
        double a = PT_TAU * i / SEG, ca = cos(a), sa = sin(a);
        v[2 * i] = (SDL_Vertex){{(float)(x + r0 * ca), (float)(y + r0 * sa)}, c, {0, 0}};
        v[2 * i + 1] = (SDL_Vertex){{(float)(x + r1 * ca), (float)(y + r1 * sa)}, c, {0, 0}};
        int j = (i + 1) % SEG, *q = idx + 6 * i;
        q[0] = 2 * i, q[1] = 2 * i + 1, q[2] = 2 * j;
        q[3] = 2 * j, q[4] = 2 * i + 1, q[5] = 2 * j + 1;
    }
    SDL_RenderGeometry(r->sdl, NULL, v, 2 * SEG, idx, SEG * 6);
}

void pt_render_stone(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double lift) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!isfinite(x) || !isfinite(y) || !isfinite(lift)) return;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, 0xffffffffu)) return;
    double unit = (double)f.t * f.scale, gx = pt__fx_of(&f, x), gy = pt__fy_of(&f, y);
    double rad = fmax(unit * 0.16, 4.0), up = fmax(lift, 0.0) * unit;
    double shadow = rad * pt_clamp(1.0 - lift * 0.25, 0.5, 1.0);
    disc(r, gx, gy + rad * 0.3, shadow, 0x00000070u);
    disc(r, gx, gy - up, rad + fmax(1.0, f.scale), 0x1a1622ffu);
    disc(r, gx, gy - up, rad, 0xb4b0a8ffu);
    disc(r, gx - rad * 0.3, gy - up - rad * 0.3, rad * 0.45, 0xe8e4dcffu); /* the light on it */
    pt__end_debug(r, &old, had);
}

void pt_render_landing(pt_render *r, const pt_map *map, const pt_view *view, int cx, int cy, double age) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!(age >= 0.0 && age < PT_LANDING_S) || cx < -1000000 || cx > 1000000 || cy < -1000000 || cy > 1000000) return;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, 0xffffffffu)) return;
    double unit = (double)f.t * f.scale, k = age / PT_LANDING_S, grow = 1.0 - (1.0 - k) * (1.0 - k);
    double x = pt__fx_of(&f, cx + 0.5), y = pt__fy_of(&f, cy + 0.5);
    double rad = unit * (0.5 + 1.0 * grow), th = fmax(unit * 0.14, 3.0), edge = fmax(1.0, f.scale);
    uint32_t a = (uint32_t)lround(255.0 * (1.0 - k * k));
    ring(r, x, y, rad - th / 2 - edge, rad + th / 2 + edge, 0x14101c00u | (a * 3 / 4));
    ring(r, x, y, rad - th / 2, rad + th / 2, 0xfffaf000u | a);
    /* The cell itself, boxed, and a dot where the stone lies. */
    int d = (int)unit, left = pt__sx_of(&f, cx), top = pt__sy_of(&f, cy), b = (int)fmax(1.0, f.scale);
    pt__fill_rect(r, left, top, d, b, 0xfffaf000u | a);
    pt__fill_rect(r, left, top + d - b, d, b, 0xfffaf000u | a);
    pt__fill_rect(r, left, top, b, d, 0xfffaf000u | a);
    pt__fill_rect(r, left + d - b, top, b, d, 0xfffaf000u | a);
    disc(r, x, y, fmax(unit * 0.11, 2.5), 0x1a1622ffu);
    disc(r, x, y, fmax(unit * 0.11, 2.5) - edge, 0xb4b0a8ffu);
    pt__end_debug(r, &old, had);
}
