/* SPDX-License-Identifier: Zlib */
/* The public debug drawing: lines, arrows, circles, boxes and cells given in map tiles, each
 * call drawn alone with the transform and clip pt_render_draw would use (render_internal.h),
 * and the overlays play draws with them (labels, search, hearing, noise and shout rings). */
#include "render_internal.h"

#include <math.h>

void pt_render_labels(pt_render *r, const pt_scene *scene, const pt_view *view) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!scene || !scene->actors || scene->nactors <= 0) return;
    if (!pt__begin_debug(r, scene->map, view, &f, &old, &had, 0xffffffffu)) return;
    pt__draw_labels(r, &f, scene->actors, scene->nactors);
    pt__end_debug(r, &old, had);
}

void pt_view_to_px(const pt_map *map, const pt_view *view, double x, double y, double *px, double *py) {
    int t = pt__tile_px(map), s = view && view->scale > 0 ? pt_clampi(view->scale, 1, PT_RENDER_MAX_SCALE) : 1;
    double cx = view && isfinite(view->cam_x) ? view->cam_x : 0, cy = view && isfinite(view->cam_y) ? view->cam_y : 0;
    pt__xform f = {(view ? view->x : 0) - pt__to_px(cx, t, s), (view ? view->y : 0) - pt__to_px(cy, t, s), t, s};
    if (px) *px = pt__fx_of(&f, x);
    if (py) *py = pt__fy_of(&f, y);
}

void pt_debug_line(pt_render *r, const pt_map *map, const pt_view *view, double x0, double y0, double x1,
                   double y1, uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return;
    pt__line_tiles(r, &f, x0, y0, x1, y1);
    pt__end_debug(r, &old, had);
}

void pt_debug_arrow(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double dx,
                    double dy, uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return;
    pt__arrow_tiles(r, &f, x, y, dx, dy);
    pt__end_debug(r, &old, had);
}

void pt_debug_circle(pt_render *r, const pt_map *map, const pt_view *view, double cx, double cy, double radius,
                     uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return;
    pt__circle_tiles(r, &f, cx, cy, radius);
    pt__end_debug(r, &old, had);
}

static void rings(pt_render *r, const pt_map *map, const pt_view *view, const pt_noise_mark *marks, int n,
                  int shout) {
    for (int i = 0; i < n; i++) {
        const pt_noise_mark *k = &marks[i];
        if (!(k->age >= 0 && k->age < PT_NOISE_RING_S) || !(k->loudness > 0)) continue;
        double t = k->age / PT_NOISE_RING_S, reach = fmin(k->loudness * 0.5, 4.0);
        uint32_t alpha = (uint32_t)lround(220.0 * (1.0 - t));
        double radius = 0.2 + (reach - 0.2 > 0 ? reach - 0.2 : 0) * t;
        const uint32_t rgb = shout ? 0xff3c3200u : 0xfff0b400u;
        /* two outlines a pixel apart read as one ring at any scale */
        pt_debug_circle(r, map, view, k->x + 0.5, k->y + 0.5, radius, rgb | alpha);
        pt_debug_circle(r, map, view, k->x + 0.5, k->y + 0.5, radius + 0.06, rgb | (alpha / 2));
        if (shout) /* a call, not a noise: a second ring inside the first */
            pt_debug_circle(r, map, view, k->x + 0.5, k->y + 0.5, radius * 0.7, rgb | (alpha / 2));
    }
}

void pt_render_search(pt_render *r, const pt_map *map, const pt_view *view, const pt_cell *cells,
                      const unsigned char *searched, int n, pt_cell origin) {
    if (!cells || !searched || n <= 0) return;
    for (int i = 0; i < n; i++)
        pt_debug_cell(r, map, view, cells[i].x, cells[i].y, searched[i] ? 0x3cc85a50u : 0xf0b43c24u);
    pt_debug_line(r, map, view, origin.x + 0.1, origin.y + 0.1, origin.x + 0.9, origin.y + 0.1, 0x3cc85ae0u);
    pt_debug_line(r, map, view, origin.x + 0.9, origin.y + 0.1, origin.x + 0.9, origin.y + 0.9, 0x3cc85ae0u);
    pt_debug_line(r, map, view, origin.x + 0.9, origin.y + 0.9, origin.x + 0.1, origin.y + 0.9, 0x3cc85ae0u);
    pt_debug_line(r, map, view, origin.x + 0.1, origin.y + 0.9, origin.x + 0.1, origin.y + 0.1, 0x3cc85ae0u);
}

void pt_render_hearing(pt_render *r, const pt_map *map, const pt_view *view, const pt_hearing_cell *cells, int n,
                       double loudness, double age) {
    if (!cells || n <= 0 || !(loudness > 0) || !(age >= 0 && age < PT_NOISE_RING_S)) return;
    double fade = 1.0 - age / PT_NOISE_RING_S;
    for (int i = 0; i < n; i++) {
        double share = cells[i].level / loudness;
        if (!(share > 0)) continue;
        if (share > 1.0) share = 1.0;
        /* Never fully clear while shown: a barely reached cell still reads as reached. */
        uint32_t alpha = (uint32_t)lround((40.0 + 120.0 * share) * fade);
        if (alpha < 1) alpha = 1;
        pt_debug_cell(r, map, view, cells[i].x, cells[i].y, 0xb45aff00u | alpha);
    }
}

void pt_render_noise_rings(pt_render *r, const pt_map *map, const pt_view *view, const pt_noise_mark *marks, int n) {
    rings(r, map, view, marks, n, 0);
}

void pt_render_shout_rings(pt_render *r, const pt_map *map, const pt_view *view, const pt_noise_mark *marks, int n) {
    rings(r, map, view, marks, n, 1);
}

void pt_debug_box(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double heading,
                  double length, double half_width, uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return;
    pt__box_tiles(r, &f, x, y, heading, length, half_width);
    pt__end_debug(r, &old, had);
}

void pt_debug_cell(pt_render *r, const pt_map *map, const pt_view *view, int cx, int cy, uint32_t rgba) {
    pt__xform f;
    SDL_Rect old;
    SDL_bool had;
    if (!pt__begin_debug(r, map, view, &f, &old, &had, rgba)) return;
    int d = f.t * f.scale;
    if (cx > -1000000 && cx < 1000000 && cy > -1000000 && cy < 1000000) {
        SDL_Rect rc = {pt__sx_of(&f, cx), pt__sy_of(&f, cy), d, d};
        SDL_RenderFillRect(r->sdl, &rc);
    }
    pt__end_debug(r, &old, had);
}
