/* SPDX-License-Identifier: Zlib */
/* Edge markers: an arrow at the view's edge pointing toward what is off it (the exit's
 * pointer, the guards off screen). */
#include "render_internal.h"

#include <patrol/world.h>

#include <math.h>
#include <string.h>

int pt_view_edge_marker(const pt_view *view, double px, double py, double margin, double *mx, double *my, double *ux,
                        double *uy) {
    if (!view || view->w <= 0 || view->h <= 0 || !isfinite(px) || !isfinite(py) || !isfinite(margin)) return 0;
    if (px >= view->x && py >= view->y && px < view->x + view->w && py < view->y + view->h) return 0;
    double hw = view->w / 2.0 - margin, hh = view->h / 2.0 - margin;
    if (!(hw > 0) || !(hh > 0)) return 0;
    /* From the rectangle's centre toward the point, stopped at the shrunk rectangle. */
    double cx = view->x + view->w / 2.0, cy = view->y + view->h / 2.0, dx = px - cx, dy = py - cy;
    double len = hypot(dx, dy);
    if (!(len > 0) || !isfinite(len)) return 0;
    double kx = fabs(dx) > 0 ? hw / fabs(dx) : HUGE_VAL, ky = fabs(dy) > 0 ? hh / fabs(dy) : HUGE_VAL;
    double k = kx < ky ? kx : ky;
    *mx = cx + dx * k;
    *my = cy + dy * k;
    *ux = dx / len;
    *uy = dy / len;
    return 1;
}

/* An arrow at (ax, ay) pointing along unit (ux, uy): a head and a shaft behind it, `size`
 * pixels from its centre to its tip (and to its tail end), 1.4 size wide at the head, over a
 * dark outline `outline` pixels wider all round. Long and narrow so its direction reads at a
 * glance (a near-equilateral triangle did not). */
static void marker(pt_render *r, double ax, double ay, double ux, double uy, double size, double outline,
                   uint32_t rgba) {
    SDL_Color c = {(Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba};
    SDL_Color dark = {20, 16, 30, (Uint8)rgba};
    for (int pass = 0; pass < 2; pass++) {
        double o = pass == 0 ? outline : 0.0;
        /* Along the arrow: tip, head's base, tail; across: head's and shaft's half widths. */
        double tip = size + 1.8 * o, base = 0.1 * size - 0.6 * o, tail = -size - o;
        double head = 0.7 * size + 1.4 * o, shaft = 0.22 * size + o;
        const double pts[7][2] = {{tip, 0},     {base, head},   {base, -head}, {base, shaft},
                                  {base, -shaft}, {tail, shaft}, {tail, -shaft}};
        SDL_Vertex vt[7];
        memset(vt, 0, sizeof vt);
        for (int i = 0; i < 7; i++) {
            double a = pts[i][0], b = pts[i][1];
            vt[i].position = (SDL_FPoint){(float)(ax + ux * a - uy * b), (float)(ay + uy * a + ux * b)};
            vt[i].color = pass == 0 ? dark : c;
        }
        static const int idx[9] = {0, 1, 2, 3, 4, 5, 4, 6, 5};
        SDL_RenderGeometry(r->sdl, NULL, vt, 7, idx, 9);
    }
}

int pt_draw_pointer(pt_render *r, const pt_map *map, const pt_view *view, double tx, double ty, int inset,
                    uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!isfinite(tx) || !isfinite(ty) || !pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return 0;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    double size = 8.0 * f.scale, ax, ay, ux, uy;
    int drawn = pt_view_edge_marker(&v, pt__fx_of(&f, tx), pt__fy_of(&f, ty), size * 1.6 + (inset > 0 ? inset : 0),
                                    &ax, &ay, &ux, &uy);
    if (drawn) marker(r, ax, ay, ux, uy, size, 2.0 * f.scale, rgba);
    pt__end_debug(r, &old, had);
    return drawn;
}

/* An off-screen guard's marker colour: calm, wondering, chasing. */
static uint32_t marker_color(int state) {
    switch (state) {
    case PT_STATE_CHASE: return 0xff382cffu;
    case PT_STATE_SUSPICIOUS:
    case PT_STATE_SEARCH:
    case PT_STATE_INVESTIGATE: return 0xffc83cffu;
    default: return 0xe6e6f0ffu;
    }
}

int pt_render_offscreen_guards(pt_render *r, const pt_map *map, const pt_view *view, const pt_actor *actors, int n,
                               int inset) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!actors || n <= 0 || !pt__begin_debug(r, map, view, &f, &old, &had, 0xffffffffu)) return 0;
    int out_w = 0, out_h = 0, drawn = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    double size = 5.0 * f.scale;
    for (int i = 0; i < n; i++) {
        const pt_actor *a = &actors[i];
        double ax, ay, ux, uy;
        if (a->kind != PT_KIND_GUARD || !isfinite(a->x) || !isfinite(a->y)) continue;
        if (!pt_view_edge_marker(&v, pt__fx_of(&f, a->x), pt__fy_of(&f, a->y), size * 1.6 + (inset > 0 ? inset : 0),
                                 &ax, &ay, &ux, &uy))
            continue;
        marker(r, ax, ay, ux, uy, size, 1.5 * f.scale, marker_color(a->state));
        drawn++;
    }
    pt__end_debug(r, &old, had);
    return drawn;
}
