/* SPDX-License-Identifier: Zlib */
/* cones.c - what the guards see, drawn: the view cones (fans of rays stopped by walls,
 * filled span by span into the cone layer and blended on in one copy) and the sight overlay
 * (every cell the guard sees, by the simulation's rule), both in the guards' state colours. */
#include "render_internal.h"

#include <patrol/los.h>
#include <patrol/math.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Distance (tiles) from (ox,oy) along unit (dx,dy) to the first opaque cell other than the
 * start cell, at most max: a grid walk (Amanatides-Woo), so thin diagonal gaps are not
 * skipped. The simulation decides sight with Bresenham; the cone is a picture of it. */
static double ray_length(const pt_map *m, double ox, double oy, double dx, double dy, double max) {
    int cx = (int)floor(ox), cy = (int)floor(oy);
    int stepx = dx > 0 ? 1 : -1, stepy = dy > 0 ? 1 : -1;
    double tdx = fabs(dx) > 1e-12 ? fabs(1.0 / dx) : 1e30;
    double tdy = fabs(dy) > 1e-12 ? fabs(1.0 / dy) : 1e30;
    double tx = fabs(dx) > 1e-12 ? (dx > 0 ? (cx + 1 - ox) : (ox - cx)) * tdx : 1e30;
    double ty = fabs(dy) > 1e-12 ? (dy > 0 ? (cy + 1 - oy) : (oy - cy)) * tdy : 1e30;
    for (int guard = 0; guard < 4 * (m->w + m->h) + 8; guard++) {
        double t;
        if (tx < ty) {
            t = tx;
            tx += tdx;
            cx += stepx;
        } else {
            t = ty;
            ty += tdy;
            cy += stepy;
        }
        if (t >= max) return max;
        if (pt_map_opaque(m, cx, cy)) return t;
    }
    return max;
}

static uint32_t mix_rgb(uint32_t a, uint32_t b, double k) {
    k = pt_clamp(isfinite(k) ? k : 0.0, 0.0, 1.0);
    uint32_t out = 0;
    for (int sh = 24; sh >= 8; sh -= 8) {
        double ca = (a >> sh) & 0xff, cb = (b >> sh) & 0xff;
        out |= (uint32_t)lround(ca + (cb - ca) * k) << sh;
    }
    return out;
}

/* Cone colour (0xRRGGBB00): calm guards grey-white, warming to yellow as awareness rises;
 * suspicious yellow to orange; chasing red; searching orange. */
static uint32_t cone_color(int state, double awareness) {
    double aw = isfinite(awareness) ? pt_clamp(awareness, 0.0, 1.0) : 0.0;
    switch (state) {
    case 1: return mix_rgb(0xffdc3c00u, 0xff963000u, aw);  /* suspicious */
    case 2: return 0xff382c00u;                            /* chase */
    case 3: return 0xffa03400u;                            /* search */
    default: return mix_rgb(0xe6e6f000u, 0xffdc3c00u, aw * 2.5); /* patrol, return, idle */
    }
}

/* ---- the cone layer ------------------------------------------------------------------------
 * A cone is a fan of rays stopped by walls. SDL's software renderer fills a blended triangle
 * through a temporary surface of its bounding box, so a fan of thin triangles cost millions
 * of pixel visits a frame. Instead each cone is filled here span by span into a buffer the
 * size of the output (alpha fading with distance from the eye), and the part the cones cover
 * is blended onto the frame with one copy. Overlapping cones: the later one shows. */

static int cone_buffer(pt_render *r, int w, int h) {
    if (r->cone_px && r->cone_tex && r->cone_w == w && r->cone_h == h) return 1;
    if (r->cone_tex) SDL_DestroyTexture(r->cone_tex);
    PT_FREE(r->cone_px);
    PT_FREE(r->cone_band);
    r->cone_tex = NULL;
    r->cone_band = NULL;
    r->cone_w = r->cone_h = 0;
    if (w < 1 || h < 1 || (long)w * h > PT_RENDER_MAX_PIXELS) return 0;
    int bands = h / PT__CONE_BAND + 1;
    r->cone_px = PT_CALLOC((size_t)w * (size_t)h, sizeof *r->cone_px);
    r->cone_band = PT_MALLOC(sizeof *r->cone_band * 2 * (size_t)bands);
    for (int b = 0; r->cone_band && b < bands; b++) r->cone_band[2 * b] = w, r->cone_band[2 * b + 1] = 0;
    r->cone_tex = r->cone_px && r->cone_band ? SDL_CreateTexture(r->sdl, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h) : NULL;
    if (!r->cone_tex) {
        PT_FREE(r->cone_px);
        PT_FREE(r->cone_band);
        r->cone_px = NULL;
        r->cone_band = NULL;
        return 0;
    }
    SDL_SetTextureBlendMode(r->cone_tex, SDL_BLENDMODE_BLEND);
    r->cone_w = w;
    r->cone_h = h;
    return 1;
}

static void fill_cone(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, const SDL_Rect *clip) {
    enum { MAX_RAYS = 72 };
    if (!(a->view_dist > 0) || !(a->view_angle > 0) || !isfinite(a->x) || !isfinite(a->y) || !isfinite(a->heading))
        return;
    double angle = a->view_angle > PT_TAU ? PT_TAU : a->view_angle;
    double dist = a->view_dist > 1e4 ? 1e4 : a->view_dist;
    int rays = (int)ceil(angle / pt_rad(3.0)) + 1;
    if (rays < 2) rays = 2;
    if (rays > MAX_RAYS) rays = MAX_RAYS;
    double unit = (double)f->t * f->scale;
    double px[MAX_RAYS + 1], py[MAX_RAYS + 1];
    /* Sub-pixel positions are fine here: the fan is a translucent overlay, not pixel art. */
    px[0] = pt__sx_of(f, a->x);
    py[0] = pt__sy_of(f, a->y);
    double bx0 = px[0], bx1 = px[0], by0 = py[0], by1 = py[0];
    for (int i = 0; i < rays; i++) {
        double th = a->heading - angle / 2 + angle * i / (rays - 1);
        double dx = cos(th), dy = sin(th);
        double len = ray_length(m, a->x, a->y, dx, dy, dist);
        px[1 + i] = pt_clamp(f->ox + (a->x + dx * len) * unit, -1e6, 1e6);
        py[1 + i] = pt_clamp(f->oy + (a->y + dy * len) * unit, -1e6, 1e6);
        bx0 = fmin(bx0, px[1 + i]), bx1 = fmax(bx1, px[1 + i]);
        by0 = fmin(by0, py[1 + i]), by1 = fmax(by1, py[1 + i]);
    }
    int n = rays + 1; /* the polygon: the eye, then the ray ends; closed back to the eye */
    int cx0 = clip->x > 0 ? clip->x : 0, cy0 = clip->y > 0 ? clip->y : 0;
    int cx1 = clip->x + clip->w < r->cone_w ? clip->x + clip->w : r->cone_w;
    int cy1 = clip->y + clip->h < r->cone_h ? clip->y + clip->h : r->cone_h;
    int y0 = (int)pt_clamp(floor(by0), cy0, cy1), y1 = (int)pt_clamp(ceil(by1) + 1, cy0, cy1);
    int xl = (int)pt_clamp(floor(bx0), cx0, cx1), xr = (int)pt_clamp(ceil(bx1) + 1, cx0, cx1);
    if (y0 >= y1 || xl >= xr) return;
    uint32_t c = cone_color(a->state, a->awareness);
    int calm = a->state != 1 && a->state != 2 && a->state != 3;
    double inner = calm ? 110 : 150, outer = calm ? 40 : 60, reach = dist * unit;
    uint32_t rgb = c >> 8;
    for (int y = y0; y < y1; y++) {
        double yc = y + 0.5, xs[MAX_RAYS + 2];
        int k = 0;
        for (int i = 0; i < n; i++) {
            int j = i + 1 < n ? i + 1 : 0;
            double ya = py[i], yb = py[j];
            if ((ya <= yc && yc < yb) || (yb <= yc && yc < ya)) {
                double x = px[i] + (yc - ya) * (px[j] - px[i]) / (yb - ya);
                int q = k++;
                while (q > 0 && xs[q - 1] > x) xs[q] = xs[q - 1], q--; /* insertion: few crossings */
                xs[q] = x;
            }
        }
        uint32_t *row = r->cone_px + (size_t)y * (size_t)r->cone_w;
        double dy2 = (yc - py[0]) * (yc - py[0]);
        for (int q = 0; q + 1 < k; q += 2) {
            /* pixels whose centres lie in [xs[q], xs[q+1]) */
            int a0 = (int)pt_clamp(ceil(xs[q] - 0.5), xl, xr), a1 = (int)pt_clamp(ceil(xs[q + 1] - 0.5), xl, xr);
            for (int x = a0; x < a1; x++) {
                double dx = x + 0.5 - px[0], t = sqrt(dx * dx + dy2) / reach;
                uint32_t al = (uint32_t)(inner + (outer - inner) * (t < 1.0 ? t : 1.0));
                row[x] = al << 24 | rgb;
            }
            if (a1 > a0) {
                int *band = &r->cone_band[2 * (y / PT__CONE_BAND)];
                if (a0 < band[0]) band[0] = a0;
                if (a1 > band[1]) band[1] = a1;
            }
        }
    }
}

/* Every guard's cone, blended onto the frame band by band (a band: PT__CONE_BAND rows, as
 * wide as the cones in it), so the copy covers little more than the cones. PT_OK, or
 * PT_ERR_NOMEM without a cone buffer. */
int pt__draw_cones(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene, const SDL_Rect *clip,
                   int out_w, int out_h) {
    if (!cone_buffer(r, out_w, out_h)) return PT_ERR_NOMEM;
    for (int i = 0; i < scene->nactors; i++)
        if (scene->actors[i].kind == PT_KIND_GUARD) fill_cone(r, m, f, &scene->actors[i], clip);
    /* One upload of the bands' union: a GL renderer waits for pending draws at each upload. */
    int ux0 = r->cone_w, ux1 = 0, uy0 = -1, uy1 = 0, nb = (r->cone_h + PT__CONE_BAND - 1) / PT__CONE_BAND;
    for (int b = 0; b < nb; b++) {
        const int *band = &r->cone_band[2 * b];
        if (band[0] >= band[1]) continue;
        if (uy0 < 0) uy0 = b * PT__CONE_BAND;
        uy1 = b * PT__CONE_BAND + PT__CONE_BAND;
        if (band[0] < ux0) ux0 = band[0];
        if (band[1] > ux1) ux1 = band[1];
    }
    if (uy0 < 0) return PT_OK;
    if (uy1 > r->cone_h) uy1 = r->cone_h;
    SDL_Rect u = {ux0, uy0, ux1 - ux0, uy1 - uy0};
    uint32_t *first = r->cone_px + (size_t)uy0 * (size_t)r->cone_w + (size_t)ux0;
    SDL_UpdateTexture(r->cone_tex, &u, first, r->cone_w * (int)sizeof *first);
    for (int b = uy0 / PT__CONE_BAND; b < nb; b++) {
        int *band = &r->cone_band[2 * b];
        if (band[0] >= band[1]) continue;
        int y0 = b * PT__CONE_BAND, h = r->cone_h - y0 < PT__CONE_BAND ? r->cone_h - y0 : PT__CONE_BAND;
        SDL_Rect rc = {band[0], y0, band[1] - band[0], h};
        SDL_RenderCopy(r->sdl, r->cone_tex, &rc, &rc);
        band[0] = r->cone_w;
        band[1] = 0;
    }
    for (int y = 0; y < u.h; y++) memset(first + (size_t)y * (size_t)r->cone_w, 0, (size_t)u.w * sizeof *first);
    return PT_OK;
}

/* Every cell whose centre the guard sees, by the simulation's own rule. */
static void draw_sight(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a) {
    double ex = a->has_eye ? a->eye_x : a->x, ey = a->has_eye ? a->eye_y : a->y;
    if (!(a->view_dist > 0) || !isfinite(ex) || !isfinite(ey) || !isfinite(a->heading)) return;
    int reach = (int)ceil(a->view_dist > 64 ? 64 : a->view_dist);
    int cx = (int)floor(ex), cy = (int)floor(ey), d = f->t * f->scale;
    int x0 = pt_clampi(cx - reach, 0, m->w), x1 = pt_clampi(cx + reach + 1, 0, m->w);
    int y0 = pt_clampi(cy - reach, 0, m->h), y1 = pt_clampi(cy + reach + 1, 0, m->h);
    uint32_t c = cone_color(a->state, a->awareness);
    pt__set_color(r->sdl, (c & 0xffffff00u) | 0x58u);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            if (pt_can_see(m, ex, ey, a->heading, a->view_dist, a->view_angle, x + 0.5, y + 0.5)) {
                SDL_Rect rc = {pt__sx_of(f, x), pt__sy_of(f, y), d, d};
                SDL_RenderFillRect(r->sdl, &rc);
            }
}

void pt__draw_sight(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene) {
    for (int i = 0; i < scene->nactors; i++)
        if (scene->actors[i].kind == PT_KIND_GUARD) draw_sight(r, m, f, &scene->actors[i]);
}
