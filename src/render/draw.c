/* SPDX-License-Identifier: Zlib */
/* Drawing a scene: tiles, view cones, obstacles and actors sorted by depth, overlays. One
 * path for the window and for headless PNGs. */
#include "render_internal.h"

#include <patrol/bresenham.h>
#include <patrol/los.h>
#include <patrol/math.h>
#include <patrol/pattern.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- overlays by name ---------------------------------------------------------------------- */

static const struct { const char *name; unsigned bit; } overlay_names[] = {
    {"grid", PT_OVERLAY_GRID},           {"cones", PT_OVERLAY_CONES},
    {"labels", PT_OVERLAY_LABELS},       {"awareness", PT_OVERLAY_AWARENESS},
    {"paths", PT_OVERLAY_PATHS},         {"patterns", PT_OVERLAY_PATTERNS},
    {"steer", PT_OVERLAY_STEER},         {"sight", PT_OVERLAY_SIGHT},
    {"rays", PT_OVERLAY_RAYS},           {"search", PT_OVERLAY_SEARCH},
    {"memory", PT_OVERLAY_MEMORY},       {"hearing", PT_OVERLAY_HEARING},
};

const char *pt_overlay_name(unsigned bit) {
    for (size_t i = 0; i < sizeof overlay_names / sizeof overlay_names[0]; i++)
        if (overlay_names[i].bit == bit) return overlay_names[i].name;
    return NULL;
}

int pt_overlay_parse(const char *list, unsigned *out, int *bad_at) {
    unsigned bits = 0;
    const char *p = list ? list : "";
    if (bad_at) *bad_at = 0;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        unsigned bit = 0;
        int ok = 0;
        if (n == 3 && strncmp(p, "all", 3) == 0) bit = PT_OVERLAY_ALL, ok = 1;
        else if (n == 5 && strncmp(p, "debug", 5) == 0) bit = PT_OVERLAY_DEBUG, ok = 1;
        else if (n == 4 && strncmp(p, "none", 4) == 0) bit = 0, ok = 1;
        for (size_t i = 0; !ok && i < sizeof overlay_names / sizeof overlay_names[0]; i++)
            if (strlen(overlay_names[i].name) == n && strncmp(p, overlay_names[i].name, n) == 0)
                bit = overlay_names[i].bit, ok = 1;
        if (!ok) {
            if (bad_at) *bad_at = (int)(p - (list ? list : "")) + 1;
            return 0;
        }
        bits |= bit;
        if (!end) break;
        p = end + 1;
    }
    if (out) *out = bits;
    return 1;
}

/* ---- pure helpers -------------------------------------------------------------------------- */

int pt_render_row_for(pt_kind kind, pt_flock_kind flock) {
    switch (kind) {
    case PT_KIND_PLAYER: return 0;
    case PT_KIND_GUARD: return 1;
    case PT_KIND_PREY: return 2;
    case PT_KIND_BOID: return flock == PT_FLOCK_CROW ? 4 : 3;
    default: return 1;
    }
}

int pt_render_frame_col(double heading, int moving, double walk) {
    double a = pt_wrap_angle(heading);
    int dir; /* sheet blocks: 0 down, 1 left, 2 right, 3 up */
    if (fabs(a) <= PT_PI / 4 + 1e-9) dir = 2;
    else if (fabs(a) >= 3 * PT_PI / 4 - 1e-9) dir = 1;
    else dir = a > 0 ? 0 : 3; /* clockwise on screen: positive angles point down */
    /* Walking loops stand, step A, stand, step B (assets/README.md), half a tile each. */
    static const int cycle[4] = {0, 1, 0, 2};
    int frame = 0;
    if (moving && isfinite(walk) && fabs(walk) < 1e15) frame = cycle[(long long)floor(walk * 2.0) & 3];
    return dir * 3 + frame;
}

int pt_render_tile_sprite(const pt_tile_def *def, double time) {
    static const struct { const char *name; int sprite; } by_name[] = {
        {"floor", 0}, {"wall", 1},  {"water", 2}, {"bridge", 4}, {"door", 5},
        {"grass", 6}, {"bush", 7},  {"exit", 8},  {"dirt", 9}, {"tree", 10},
    };
    int s = 0;
    if (def && def->sprite >= 0) {
        s = def->sprite;
    } else if (def) {
        for (size_t i = 0; i < sizeof by_name / sizeof by_name[0]; i++)
            if (strcmp(def->name, by_name[i].name) == 0) s = by_name[i].sprite;
    }
    if (s == 2 || s == 3) {
        double t = isfinite(time) ? time : 0.0;
        s = 2 + (int)((long long)floor(t * 2.0) & 1);
    }
    return s;
}

int pt_render_actors_from_map(const pt_map *map, pt_actor *out, int cap) {
    if (!map) return 0;
    int n = 1 + map->nents;
    for (int i = 0; i < n && i < cap; i++) {
        const pt_entity_def *src = i == 0 ? &map->player : &map->ents[i - 1];
        pt_entity_def d = *src;
        pt_entity_def_resolve(&d);
        pt_actor *a = &out[i];
        memset(a, 0, sizeof *a);
        a->kind = i == 0 ? PT_KIND_PLAYER : d.kind;
        a->row = pt_render_row_for(a->kind, src->flock_kind);
        a->x = d.x + 0.5;
        a->y = d.y + 0.5;
        a->heading = pt_rad(d.heading_deg);
        a->view_dist = d.view_dist;
        a->view_angle = pt_rad(d.view_angle_deg);
        a->name = src->name;
    }
    return n;
}

/* ---- views --------------------------------------------------------------------------------- */

void pt_view_resolve(pt_view *v, int out_w, int out_h) {
    if (v->w <= 0) v->w = out_w - v->x;
    if (v->h <= 0) v->h = out_h - v->y;
    if (v->scale <= 0) v->scale = 1;
    if (v->scale > PT_RENDER_MAX_SCALE) v->scale = PT_RENDER_MAX_SCALE;
    if (!isfinite(v->cam_x)) v->cam_x = 0;
    if (!isfinite(v->cam_y)) v->cam_y = 0;
}

void pt_view_map_size(const pt_map *map, int scale, long *w, long *h) {
    long t = (long)pt__tile_px(map) * (scale < 1 ? 1 : scale);
    if (w) *w = map ? map->w * t : 0;
    if (h) *h = map ? map->h * t : 0;
}

void pt_view_fit(pt_view *v, const pt_map *map, int out_w, int out_h, int min_tiles_w, int min_tiles_h) {
    v->w = out_w;
    v->h = out_h;
    if (min_tiles_w <= 0) min_tiles_w = 24;
    if (min_tiles_h <= 0) min_tiles_h = 14;
    int t = pt__tile_px(map);
    int tw = map && map->w < min_tiles_w ? map->w : min_tiles_w;
    int th = map && map->h < min_tiles_h ? map->h : min_tiles_h;
    if (tw < 1) tw = 1;
    if (th < 1) th = 1;
    int sx = out_w / (tw * t), sy = out_h / (th * t);
    int s = sx < sy ? sx : sy;
    v->scale = pt_clampi(s, 1, PT_RENDER_MAX_SCALE);
}

static double follow_axis(double f, int map_tiles, double view_tiles) {
    if (view_tiles >= map_tiles) return (map_tiles - view_tiles) / 2.0;
    double c = f - view_tiles / 2.0;
    return pt_clamp(c, 0.0, map_tiles - view_tiles);
}

void pt_view_follow(pt_view *v, const pt_map *map, double fx, double fy) {
    double unit = (double)pt__tile_px(map) * (v->scale < 1 ? 1 : v->scale);
    v->cam_x = follow_axis(isfinite(fx) ? fx : 0.0, map->w, v->w / unit);
    v->cam_y = follow_axis(isfinite(fy) ? fy : 0.0, map->h, v->h / unit);
}

/* ---- drawing ------------------------------------------------------------------------------- */

static void draw_tiles(pt_render *r, const pt_map *m, const pt_view *v, const pt__xform *f, int x0, int y0, int x1,
                       int y1) {
    int d = f->t * f->scale;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            int s = pt_render_tile_sprite(pt_map_tile(m, x, y), v->time);
            if (s < 0 || s >= r->ntiles) s = 0;
            pt__blit(r, r->tiles, s, r->ntiles, PT_SPRITE_PX, PT_SPRITE_PX, pt__sx_of(f, x), pt__sy_of(f, y), d, d);
        }
    }
}

/* ---- the map layer -------------------------------------------------------------------------
 * Drawing every visible tile as a scaled, blended sprite was a third of a software-rendered
 * frame. The map is drawn once into a texture at the view's scale and copied unscaled (so
 * the pixels are those of the tile-by-tile drawing); only the animated tiles (water) are
 * drawn again when their frame changes, twice a second. */

/* FNV-1a over the tiles and each legend entry's sprites at both animation frames: a reload
 * that changes any drawn tile changes it, and it costs a pass over the tile bytes. */
static uint64_t layer_hash(const pt_map *m) {
    uint64_t h = 1469598103934665603ull;
    size_t n = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < n; i++) h = (h ^ m->tiles[i]) * 1099511628211ull;
    for (int i = 0; i < m->nlegend && i < PT_MAX_TILE_KINDS; i++) {
        h = (h ^ (uint64_t)(pt_render_tile_sprite(&m->legend[i], 0.0) & 0xff)) * 1099511628211ull;
        h = (h ^ (uint64_t)(pt_render_tile_sprite(&m->legend[i], 0.5) & 0xff)) * 1099511628211ull;
    }
    return h ^ (uint64_t)m->w << 32 ^ (uint64_t)m->h;
}

static int anim_phase(double time) {
    double t = isfinite(time) ? time : 0.0;
    return (int)((long long)floor(t * 2.0) & 1);
}

/* Draws tiles [x0,x1) x [y0,y1) of the layer (only the animated ones when `animated`). */
static void layer_tiles(pt_render *r, const pt_map *m, double time, int x0, int y0, int x1, int y1, int animated) {
    int d = r->layer_t * r->layer_scale;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r->sdl, 18, 18, 26, 255);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const pt_tile_def *def = pt_map_tile(m, x, y);
            if (animated && pt_render_tile_sprite(def, 0.0) == pt_render_tile_sprite(def, 0.5)) continue;
            int s = pt_render_tile_sprite(def, time);
            if (s < 0 || s >= r->ntiles) s = 0;
            SDL_Rect rc = {x * d, y * d, d, d};
            SDL_RenderFillRect(r->sdl, &rc); /* the background a sprite's clear pixels show */
            pt__blit(r, r->tiles, s, r->ntiles, PT_SPRITE_PX, PT_SPRITE_PX, rc.x, rc.y, d, d);
        }
}

/* Makes the layer current for the map, scale and time. Returns 1 when it can be copied,
 * 0 when the tiles must be drawn one by one (too big, or no target textures). */
static int map_layer(pt_render *r, const pt_map *m, int t, int scale, double time) {
    if (SDL_GetRenderTarget(r->sdl)) return 0; /* drawing into a texture already: no nesting */
    long w = (long)m->w * t * scale, h = (long)m->h * t * scale;
    uint64_t hash = layer_hash(m);
    int same = r->layer_map == m && r->layer_hash == hash && r->layer_w == w && r->layer_h == h &&
               r->layer_t == t && r->layer_scale == scale;
    if (same && r->layer_off) return 0;
    int phase = anim_phase(time);
    if (same && r->layer && r->layer_phase == phase) return 1;
    SDL_Texture *old_target = SDL_GetRenderTarget(r->sdl);
    if (!same) {
        if (r->layer) SDL_DestroyTexture(r->layer);
        r->layer = NULL;
        r->layer_map = m;
        r->layer_hash = hash;
        r->layer_w = (int)w;
        r->layer_h = (int)h;
        r->layer_t = t;
        r->layer_scale = scale;
        r->layer_off = 1;
        SDL_RendererInfo info;
        if (w < 1 || h < 1 || w * h > PT_RENDER_LAYER_MAX_PIXELS || SDL_GetRendererInfo(r->sdl, &info) != 0 ||
            !(info.flags & SDL_RENDERER_TARGETTEXTURE) || (info.max_texture_width && w > info.max_texture_width) ||
            (info.max_texture_height && h > info.max_texture_height))
            return 0;
        /* The window's own format copies fastest in the software renderer. */
        SDL_Window *win = SDL_RenderGetWindow(r->sdl);
        Uint32 fmt = win ? SDL_GetWindowPixelFormat(win) : SDL_PIXELFORMAT_UNKNOWN;
        if (fmt != SDL_PIXELFORMAT_UNKNOWN && !SDL_ISPIXELFORMAT_ALPHA(fmt) && SDL_BYTESPERPIXEL(fmt) == 4)
            r->layer = SDL_CreateTexture(r->sdl, fmt, SDL_TEXTUREACCESS_TARGET, (int)w, (int)h);
        if (!r->layer) r->layer = SDL_CreateTexture(r->sdl, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, (int)w, (int)h);
        if (!r->layer || SDL_SetRenderTarget(r->sdl, r->layer) != 0) {
            if (r->layer) SDL_DestroyTexture(r->layer);
            r->layer = NULL;
            SDL_SetRenderTarget(r->sdl, old_target);
            return 0;
        }
        SDL_SetTextureBlendMode(r->layer, SDL_BLENDMODE_NONE);
        r->layer_off = 0;
        layer_tiles(r, m, time, 0, 0, m->w, m->h, 0);
    } else {
        if (SDL_SetRenderTarget(r->sdl, r->layer) != 0) {
            SDL_SetRenderTarget(r->sdl, old_target);
            return 0;
        }
        layer_tiles(r, m, time, 0, 0, m->w, m->h, 1);
    }
    r->layer_phase = phase;
    SDL_SetRenderTarget(r->sdl, old_target);
    return 1;
}

/* Copies the visible part of the layer, pixel for pixel, inside the view rectangle. */
static void copy_layer(pt_render *r, const pt_view *v, const pt__xform *f) {
    int sx0 = v->x - f->ox, sy0 = v->y - f->oy;
    SDL_Rect src = {sx0 < 0 ? 0 : sx0, sy0 < 0 ? 0 : sy0, 0, 0};
    int sx1 = sx0 + v->w, sy1 = sy0 + v->h;
    if (sx1 > r->layer_w) sx1 = r->layer_w;
    if (sy1 > r->layer_h) sy1 = r->layer_h;
    src.w = sx1 - src.x;
    src.h = sy1 - src.y;
    if (src.w <= 0 || src.h <= 0) return;
    SDL_Rect dst = {f->ox + src.x, f->oy + src.y, src.w, src.h};
    SDL_RenderCopy(r->sdl, r->layer, &src, &dst);
}

static void draw_grid(pt_render *r, const pt_map *m, const pt__xform *f, int x0, int y0, int x1, int y1) {
    (void)m;
    pt__set_color(r->sdl, 0x00000050u);
    int top = pt__sy_of(f, y0), bottom = pt__sy_of(f, y1), left = pt__sx_of(f, x0), right = pt__sx_of(f, x1);
    for (int x = x0; x <= x1; x++) SDL_RenderDrawLine(r->sdl, pt__sx_of(f, x), top, pt__sx_of(f, x), bottom - 1);
    for (int y = y0; y <= y1; y++) SDL_RenderDrawLine(r->sdl, left, pt__sy_of(f, y), right - 1, pt__sy_of(f, y));
}

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
static int draw_cones(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene, const SDL_Rect *clip,
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

/* The cells still ahead on an actor's planned path, as dots joined by a line. */
static void draw_path(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a) {
    if (!a->path || a->path_len <= 0) return;
    int from = pt_clampi(a->path_idx, 0, a->path_len);
    int half = f->t * f->scale / 2, dot = f->scale * 2;
    pt__set_color(r->sdl, a->state == 2 ? 0xff5040c0u : 0x60c0ffc0u);
    int lx = pt__sx_of(f, a->x), ly = pt__sy_of(f, a->y);
    for (int i = from; i < a->path_len; i++) {
        const pt_cell *c = &a->path[i];
        if (!pt_map_in(m, c->x, c->y)) continue;
        int cx = pt__sx_of(f, c->x) + half, cy = pt__sy_of(f, c->y) + half;
        SDL_RenderDrawLine(r->sdl, lx, ly, cx, cy);
        SDL_Rect d = {cx - dot / 2, cy - dot / 2, dot, dot};
        SDL_RenderFillRect(r->sdl, &d);
        lx = cx;
        ly = cy;
    }
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

/* ---- debug overlays ------------------------------------------------------------------------ */

/* What the guard remembers: a line from it to each place and a mark there, faded by certainty. */
static void draw_memory(pt_render *r, const pt__xform *f, const pt_actor *a) {
    static const uint32_t colours[3] = {0x50e6ff00u, 0xfff0b400u, 0xff5a4a00u}; /* seen, heard, told */
    int n = pt_clampi(a->nmemory, 0, PT_ACTOR_MEMORY);
    for (int i = 0; i < n; i++) {
        const pt_memory_mark *k = &a->memory[i];
        if (k->kind < 0 || k->kind > 2 || !isfinite(k->x) || !isfinite(k->y) || !(k->certainty > 0)) continue;
        uint32_t alpha = (uint32_t)lround(40.0 + 200.0 * pt_clamp(k->certainty, 0.0, 1.0));
        pt__set_color(r->sdl, colours[k->kind] | (alpha / 3));
        pt__line_tiles(r, f, a->x, a->y, k->x, k->y);
        pt__set_color(r->sdl, colours[k->kind] | alpha);
        double s = 0.3;
        if (k->kind == 0) { /* a diamond */
            pt__line_tiles(r, f, k->x - s, k->y, k->x, k->y - s);
            pt__line_tiles(r, f, k->x, k->y - s, k->x + s, k->y);
            pt__line_tiles(r, f, k->x + s, k->y, k->x, k->y + s);
            pt__line_tiles(r, f, k->x, k->y + s, k->x - s, k->y);
        } else if (k->kind == 1) {
            pt__circle_tiles(r, f, k->x, k->y, s);
            pt__circle_tiles(r, f, k->x, k->y, s * 0.5);
        } else {
            SDL_FRect rc = {pt__fx_of(f, k->x - s), pt__fy_of(f, k->y - s), (float)(2 * s * f->t * f->scale),
                            (float)(2 * s * f->t * f->scale)};
            SDL_RenderDrawRectF(r->sdl, &rc);
            pt__line_tiles(r, f, k->x - s, k->y - s, k->x + s, k->y + s);
        }
    }
}

/* Distinct colours for per-guard overlays (patterns), by actor index. */
static uint32_t guard_hue(int i) {
    static const uint32_t hues[6] = {0x48d0ff00u, 0xff6ad500u, 0x7dff6a00u, 0xffb04000u, 0xb08cff00u, 0x40ffd000u};
    return hues[(unsigned)i % 6];
}

/* The guard's placed pattern: a walk as a line through its cells (its first cell boxed),
 * a matrix as its 1-cells. */
static void draw_pattern(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, int index) {
    if (!a->pattern || a->pattern_len <= 0) return;
    uint32_t c = guard_hue(index);
    int d = f->t * f->scale;
    if (a->pattern_matrix) {
        for (int i = 0; i < a->pattern_len; i++) {
            const pt_cell *p = &a->pattern[i];
            if (!pt_map_in(m, p->x, p->y)) continue;
            SDL_Rect rc = {pt__sx_of(f, p->x) + f->scale, pt__sy_of(f, p->y) + f->scale, d - 2 * f->scale,
                           d - 2 * f->scale};
            pt__set_color(r->sdl, c | 0x38u);
            SDL_RenderFillRect(r->sdl, &rc);
            pt__set_color(r->sdl, c | 0xa0u);
            SDL_RenderDrawRect(r->sdl, &rc);
        }
        return;
    }
    pt__set_color(r->sdl, c | 0xc0u);
    for (int i = 0; i + 1 < a->pattern_len; i++) {
        const pt_cell *p = &a->pattern[i], *q = &a->pattern[i + 1];
        pt__line_tiles(r, f, p->x + 0.5, p->y + 0.5, q->x + 0.5, q->y + 0.5);
    }
    const pt_cell *first = &a->pattern[0], *last = &a->pattern[a->pattern_len - 1];
    if (a->pattern_len > 2 && abs(first->x - last->x) <= 1 && abs(first->y - last->y) <= 1)
        pt__line_tiles(r, f, last->x + 0.5, last->y + 0.5, first->x + 0.5, first->y + 0.5); /* a loop */
    int dot = f->scale * 2;
    for (int i = 0; i < a->pattern_len; i++) {
        const pt_cell *p = &a->pattern[i];
        SDL_Rect rc = {pt__sx_of(f, p->x) + d / 2 - dot / 2, pt__sy_of(f, p->y) + d / 2 - dot / 2, dot, dot};
        SDL_RenderFillRect(r->sdl, &rc);
    }
    SDL_Rect start = {pt__sx_of(f, first->x) + f->scale * 2, pt__sy_of(f, first->y) + f->scale * 2, d - 4 * f->scale,
                      d - 4 * f->scale};
    SDL_RenderDrawRect(r->sdl, &start);
}

/* The pattern's stops: a diamond on the cell, for a look an arc over the angles it sweeps
 * (around its facing on arrival) with a spoke at that facing, and the stop's length in
 * seconds beside it. */
static void draw_stops(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, int index) {
    if (!a->pattern_run) return;
    enum { MAX_STOPS = 256 };
    pt_pattern_stop st[MAX_STOPS];
    int n = pt_patrun_stops(a->pattern_run, m, st, MAX_STOPS);
    uint32_t c = guard_hue(index);
    for (int i = 0; i < n && i < MAX_STOPS; i++) {
        const pt_look *lk = st[i].look;
        if (!lk || !pt_map_in(m, st[i].cell.x, st[i].cell.y)) continue;
        double cx = st[i].cell.x + 0.5, cy = st[i].cell.y + 0.5, h = st[i].heading, q = 0.3;
        pt__set_color(r->sdl, c | 0xffu);
        pt__line_tiles(r, f, cx - q, cy, cx, cy - q);
        pt__line_tiles(r, f, cx, cy - q, cx + q, cy);
        pt__line_tiles(r, f, cx + q, cy, cx, cy + q);
        pt__line_tiles(r, f, cx, cy + q, cx - q, cy);
        if (lk->look > 0 && lk->nangles > 0 && isfinite(h)) {
            double lo = 0.0, hi = 0.0, rad = 0.85;
            for (int k = 0; k < lk->nangles && k < PT_MAX_LOOK_ANGLES; k++) {
                lo = fmin(lo, lk->angles[k]);
                hi = fmax(hi, lk->angles[k]);
            }
            int segs = (int)ceil((hi - lo) / 10.0);
            double px = cx + cos(h + pt_rad(lo)) * rad, py = cy + sin(h + pt_rad(lo)) * rad;
            pt__line_tiles(r, f, cx, cy, px, py);
            for (int k = 1; k <= segs; k++) {
                double ang = h + pt_rad(lo + (hi - lo) * k / segs), nx = cx + cos(ang) * rad, ny = cy + sin(ang) * rad;
                pt__line_tiles(r, f, px, py, nx, ny);
                px = nx;
                py = ny;
            }
            pt__line_tiles(r, f, cx, cy, px, py);
            pt__set_color(r->sdl, 0xffffffc0u);
            pt__line_tiles(r, f, cx, cy, cx + cos(h) * rad, cy + sin(h) * rad);
        }
        char txt[24];
        snprintf(txt, sizeof txt, "%gs", (double)(lk->wait + lk->look) / PT_PATTERN_TICK_HZ);
        int fs = f->scale > 1 ? f->scale / 2 : 1, d = f->t * f->scale;
        int tx = pt__sx_of(f, st[i].cell.x) + d * 3 / 4, ty = pt__sy_of(f, st[i].cell.y) - d / 4;
        pt_draw_text(r, tx + fs, ty + fs, fs, 0x000000c0u, txt);
        pt_draw_text(r, tx, ty, fs, 0xffffffffu, txt);
    }
}

/* Line of sight from a guard to the player, decided by pt_can_see from the simulation's
 * positions: green when seen; red when in range and cone but a tile blocks the ray (that
 * cell boxed); faint grey when out of range or cone. */
static void draw_ray(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *g, const pt_actor *p) {
    double ex = g->has_eye ? g->eye_x : g->x, ey = g->has_eye ? g->eye_y : g->y;
    double tx = p->has_eye ? p->eye_x : p->x, ty = p->has_eye ? p->eye_y : p->y;
    if (!isfinite(ex) || !isfinite(ey) || !isfinite(tx) || !isfinite(ty)) return;
    if (pt_can_see(m, ex, ey, g->heading, g->view_dist, g->view_angle, tx, ty)) {
        pt__set_color(r->sdl, 0x40ff60e0u);
        pt__line_tiles(r, f, g->x, g->y, p->x, p->y);
        return;
    }
    int gx = (int)floor(ex), gy = (int)floor(ey), px = (int)floor(tx), py = (int)floor(ty);
    double dist = hypot((double)(px - gx), (double)(py - gy)); /* cell centres, as pt_can_see */
    double off = fabs(pt_wrap_angle(atan2(ty - ey, tx - ex) - g->heading));
    int in_cone = g->view_angle >= PT_TAU - 1e-9 || off <= g->view_angle / 2 + 1e-9;
    if (dist <= g->view_dist && in_cone) {
        /* In range and cone, yet unseen: a tile blocks the ray. Box the first cell past
         * which the guard's ray is no longer clear. */
        pt_line_iter it;
        pt_line_iter_init(&it, gx, gy, px, py);
        int bx = px, by = py, steps = 0;
        while (pt_line_iter_next(&it) && steps++ < 4 * (m->w + m->h) + 8) {
            if (!pt_los_clear(m, gx, gy, it.x, it.y)) {
                bx = it.x;
                by = it.y;
                break;
            }
        }
        pt__set_color(r->sdl, 0xff3c30e0u);
        pt__line_tiles(r, f, g->x, g->y, bx + 0.5, by + 0.5);
        pt__set_color(r->sdl, 0xff3c3050u);
        pt__line_tiles(r, f, bx + 0.5, by + 0.5, p->x, p->y);
        int d = f->t * f->scale;
        SDL_Rect rc = {pt__sx_of(f, bx), pt__sy_of(f, by), d, d};
        pt__set_color(r->sdl, 0xff3c30ffu);
        SDL_RenderDrawRect(r->sdl, &rc);
        return;
    }
    pt__set_color(r->sdl, 0xc8c8c870u); /* out of range or cone */
    pt__line_tiles(r, f, g->x, g->y, p->x, p->y);
}

/* Continuous movers: the bounding circle, the velocity as an arrow one second long, and
 * what the steering behaviours use when the actor carries it. */
static void draw_steer(pt_render *r, const pt__xform *f, const pt_actor *a) {
    if (!a->continuous || !isfinite(a->x) || !isfinite(a->y)) return;
    double rad = a->radius > 0 ? a->radius : 0.35;
    if (a->neighbour_radius > 0) {
        pt__set_color(r->sdl, 0xffffff40u);
        pt__circle_tiles(r, f, a->x, a->y, a->neighbour_radius);
    }
    if (a->box_length > 0) {
        pt__set_color(r->sdl, 0xff9040b0u);
        pt__box_tiles(r, f, a->x, a->y, a->heading, a->box_length, rad);
    }
    pt__set_color(r->sdl, 0x40e0ffd0u);
    for (int i = 0; i < a->nfeelers && i < 3; i++) pt__line_tiles(r, f, a->x, a->y, a->feeler_x[i], a->feeler_y[i]);
    pt__set_color(r->sdl, 0x60e0ffc0u);
    pt__circle_tiles(r, f, a->x, a->y, rad);
    pt__set_color(r->sdl, 0xffff40e0u);
    pt__arrow_tiles(r, f, a->x, a->y, a->vel_x, a->vel_y);
    pt__set_color(r->sdl, 0xff40ffe0u);
    pt__arrow_tiles(r, f, a->x, a->y, a->force_x * 0.1, a->force_y * 0.1);
}

static void draw_obstacle(pt_render *r, const pt__xform *f, const pt_obstacle *o) {
    if (!isfinite(o->x) || !isfinite(o->y)) return;
    int k = isfinite(o->r) && o->r > 0.75 ? (int)lround(pt_clamp(2 * o->r, 1, 64)) : 1;
    int s = o->sprite > 0 && o->sprite < r->nprops ? o->sprite : 1;
    int d = f->t * f->scale * k;
    pt__blit(r, r->props, s, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, pt__sx_of(f, o->x - k / 2.0),
             pt__sy_of(f, o->y - k / 2.0), d, d);
}

/* The leaves of the cover a hidden actor stands in, drawn again over its lower half: the
 * tile's own pixels from a ragged line down (leaf tips up to 2 pixels above row 9). */
static void draw_cover(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, double time) {
    static const int tip[PT_SPRITE_PX] = {0, 1, 2, 1, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 1, 0};
    int cx = (int)floor(a->x), cy = (int)floor(a->y);
    if (!pt_map_in(m, cx, cy) || !pt_map_opaque(m, cx, cy)) return;
    int s = pt_render_tile_sprite(pt_map_tile(m, cx, cy), time);
    if (s < 0 || s >= r->ntiles) return;
    const double k = 1.0 / PT_SPRITE_PX; /* a sprite pixel, in tiles (the map layer scales so) */
    for (int x = 0; x < PT_SPRITE_PX; x++) {
        int top = 9 - tip[x];
        SDL_Rect src = {s * PT_SPRITE_PX + x, top, 1, PT_SPRITE_PX - top};
        int x0 = pt__sx_of(f, cx + x * k), x1 = pt__sx_of(f, cx + (x + 1) * k);
        int y0 = pt__sy_of(f, cy + top * k), y1 = pt__sy_of(f, cy + 1);
        SDL_Rect dst = {x0, y0, x1 - x0, y1 - y0};
        if (dst.w > 0 && dst.h > 0) SDL_RenderCopy(r->sdl, r->tiles, &src, &dst);
    }
}

static void draw_actor(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, double time) {
    if (!isfinite(a->x) || !isfinite(a->y)) return;
    int d = f->t * f->scale;
    int row = a->row >= 0 && a->row < 5 ? a->row : 1;
    int col = pt_render_frame_col(a->heading, a->moving, a->walk);
    if (a->hidden) { /* in the leaves' shade */
        SDL_SetTextureColorMod(r->chars, 175, 225, 185);
        SDL_SetTextureAlphaMod(r->chars, 215);
    }
    pt__blit(r, r->chars, row * 12 + col, 12, PT_SPRITE_PX, PT_SPRITE_PX, pt__sx_of(f, a->x - 0.5),
             pt__sy_of(f, a->y - 0.5), d, d);
    if (a->hidden) {
        SDL_SetTextureColorMod(r->chars, 255, 255, 255);
        SDL_SetTextureAlphaMod(r->chars, 255);
        draw_cover(r, m, f, a, time);
    }
}

/* Bubbles, bars and labels: above every sprite so they are never hidden. */
static void draw_marks(pt_render *r, const pt__xform *f, const pt_actor *a, unsigned overlays) {
    if (!isfinite(a->x) || !isfinite(a->y)) return;
    int d = f->t * f->scale;
    int left = pt__sx_of(f, a->x - 0.5), top = pt__sy_of(f, a->y - 0.5);
    /* PT_STATE_SUSPICIOUS and _SEARCH wonder ("?"), PT_STATE_CHASE has seen you ("!"). */
    int bubble = a->state == 1 || a->state == 3 ? 3 : a->state == 2 ? 4 : -1;
    if (bubble >= 0 && bubble < r->nprops)
        pt__blit(r, r->props, bubble, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, left, top - d, d, d);
    if (a->state == 5 && 5 < r->nprops) /* PT_STATE_CAUGHT */
        pt__blit(r, r->props, 5, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, left, top, d, d);
    if ((overlays & PT_OVERLAY_AWARENESS) && a->kind == PT_KIND_GUARD) {
        double k = pt_clamp(isfinite(a->awareness) ? a->awareness : 0.0, 0.0, 1.0);
        SDL_Rect bg = {left + f->scale, top + d, d - 2 * f->scale, 2 * f->scale}; /* under the feet */
        SDL_Rect fg = bg;
        fg.w = (int)lround(bg.w * k);
        pt__set_color(r->sdl, 0x000000b0u);
        SDL_RenderFillRect(r->sdl, &bg);
        pt__set_color(r->sdl, k >= 1.0 ? 0xff3028ffu : 0xffd040ffu);
        if (fg.w > 0) SDL_RenderFillRect(r->sdl, &fg);
    }
}

/* The names (PT_OVERLAY_LABELS), under the actors' feet, white on a dark backing so they read
 * over any tile or overlay. A label that would meet one already placed (a catch puts two
 * actors on one spot) moves down below it. */
void pt__draw_labels(pt_render *r, const pt__xform *f, const pt_actor *actors, int n) {
    enum { PLACED = 256 };
    SDL_Rect placed[PLACED];
    int np = 0, d = f->t * f->scale, fs = f->scale > 1 ? f->scale / 2 : 1;
    for (int i = 0; i < n; i++) {
        const pt_actor *a = &actors[i];
        if (!a->name || !a->name[0] || !isfinite(a->x) || !isfinite(a->y)) continue;
        /* A flock is labelled once, on its first member ("crows.1"; "crows" on a map). */
        const char *dot = a->kind == PT_KIND_BOID ? strrchr(a->name, '.') : NULL;
        if (dot && strcmp(dot, ".1") != 0) continue;
        int tw, th;
        pt_text_size(a->name, fs, &tw, &th);
        SDL_Rect box = {pt__sx_of(f, a->x - 0.5) + d / 2 - tw / 2 - fs,
                        pt__sy_of(f, a->y - 0.5) + d + 3 * f->scale - fs, tw + 2 * fs, th + 2 * fs};
        for (int tries = 0, moved = 1; moved && tries < 8; tries++) {
            moved = 0;
            for (int k = 0; k < np; k++)
                if (SDL_HasIntersection(&box, &placed[k])) {
                    box.y = placed[k].y + placed[k].h + fs;
                    moved = 1;
                }
        }
        if (np < PLACED) placed[np++] = box;
        pt__fill_rect(r, box.x, box.y, box.w, box.h, 0x140f1eb8u);
        pt_draw_text(r, box.x + fs, box.y + fs, fs, 0xffffffffu, a->name);
    }
}

static int cmp_items(const void *pa, const void *pb) {
    const pt__draw_item *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->what != b->what) return a->what - b->what;
    return a->index - b->index;
}

static int grow_items(pt_render *r, int n) {
    if (n <= r->items_cap) return 1;
    int cap = r->items_cap ? r->items_cap : 64;
    while (cap < n) cap *= 2;
    pt__draw_item *p = PT_REALLOC(r->items, sizeof *p * (size_t)cap);
    if (!p) return 0;
    r->items = p;
    r->items_cap = cap;
    return 1;
}

int pt_render_draw(pt_render *r, const pt_scene *scene, const pt_view *view) {
    if (!r || !scene || !scene->map || !view) return PT_ERR_USAGE;
    const pt_map *m = scene->map;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    if (v.w <= 0 || v.h <= 0) return PT_OK;

    pt__xform f = {0, 0, pt__tile_px(m), v.scale};
    f.ox = v.x - pt__to_px(v.cam_x, f.t, f.scale);
    f.oy = v.y - pt__to_px(v.cam_y, f.t, f.scale);
    int unit = f.t * f.scale;
    /* Visible cells, from the pixel rectangle (so snapping can never leave a gap). */
    int x0 = pt_clampi((int)floor((double)(v.x - f.ox) / unit), 0, m->w);
    int y0 = pt_clampi((int)floor((double)(v.y - f.oy) / unit), 0, m->h);
    int x1 = pt_clampi((int)floor((double)(v.x + v.w - f.ox) / unit) + 1, 0, m->w);
    int y1 = pt_clampi((int)floor((double)(v.y + v.h - f.oy) / unit) + 1, 0, m->h);

    SDL_Rect clip = {v.x, v.y, v.w, v.h}, old_clip;
    SDL_bool had_clip = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old_clip);
    SDL_RenderSetClipRect(r->sdl, &clip);
    int layered = map_layer(r, m, f.t, f.scale, v.time);
    /* The background, where the map does not cover the view: opaque, so not blended (a
     * blended fill is a pass over every pixel in the software renderer). */
    long mw = 0, mh = 0;
    pt_view_map_size(m, f.scale, &mw, &mh);
    if (!layered || f.ox > v.x || f.oy > v.y || f.ox + mw < v.x + v.w || f.oy + mh < v.y + v.h) {
        SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_NONE);
        SDL_SetRenderDrawColor(r->sdl, 18, 18, 26, 255);
        SDL_RenderFillRect(r->sdl, &clip);
    }
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    if (layered) copy_layer(r, &v, &f);
    else draw_tiles(r, m, &v, &f, x0, y0, x1, y1);
    int rc = PT_OK;
    if ((v.overlays & PT_OVERLAY_CONES) && scene->actors) rc = draw_cones(r, m, &f, scene, &clip, out_w, out_h);
    if (v.overlays & PT_OVERLAY_SIGHT)
        for (int i = 0; i < scene->nactors; i++)
            if (scene->actors[i].kind == PT_KIND_GUARD) draw_sight(r, m, &f, &scene->actors[i]);
    if (v.overlays & PT_OVERLAY_GRID) draw_grid(r, m, &f, x0, y0, x1, y1);
    if ((v.overlays & PT_OVERLAY_PATTERNS) && scene->actors)
        for (int i = 0; i < scene->nactors; i++) {
            draw_pattern(r, m, &f, &scene->actors[i], i);
            draw_stops(r, m, &f, &scene->actors[i], i);
        }
    if ((v.overlays & PT_OVERLAY_PATHS) && scene->actors)
        for (int i = 0; i < scene->nactors; i++) draw_path(r, m, &f, &scene->actors[i]);
    if ((v.overlays & PT_OVERLAY_RAYS) && scene->actors) {
        const pt_actor *player = NULL;
        for (int i = 0; i < scene->nactors && !player; i++)
            if (scene->actors[i].kind == PT_KIND_PLAYER) player = &scene->actors[i];
        for (int i = 0; player && i < scene->nactors; i++)
            if (scene->actors[i].kind == PT_KIND_GUARD) draw_ray(r, m, &f, &scene->actors[i], player);
    }

    int nobs = m->obstacles ? m->nobstacles : 0, nact = scene->actors ? scene->nactors : 0;
    if (nobs < 0) nobs = 0;
    if (nact < 0) nact = 0;
    if (!grow_items(r, nobs + nact)) {
        rc = PT_ERR_NOMEM;
    } else {
        int n = 0;
        for (int i = 0; i < nobs; i++) {
            const pt_obstacle *o = &m->obstacles[i];
            r->items[n++] = (pt__draw_item){isfinite(o->y + o->r) ? o->y + o->r : 0.0, 0, i};
        }
        for (int i = 0; i < nact; i++) {
            const pt_actor *a = &scene->actors[i];
            r->items[n++] = (pt__draw_item){isfinite(a->y) ? a->y + 0.5 : 0.0, 1, i};
        }
        if (n > 1) qsort(r->items, (size_t)n, sizeof *r->items, cmp_items);
        for (int i = 0; i < n; i++) {
            if (r->items[i].what == 0) draw_obstacle(r, &f, &m->obstacles[r->items[i].index]);
            else draw_actor(r, m, &f, &scene->actors[r->items[i].index], v.time);
        }
        if (v.overlays & PT_OVERLAY_STEER)
            for (int i = 0; i < nact; i++) draw_steer(r, &f, &scene->actors[i]);
        if (v.overlays & PT_OVERLAY_MEMORY)
            for (int i = 0; i < nact; i++)
                if (scene->actors[i].kind == PT_KIND_GUARD) draw_memory(r, &f, &scene->actors[i]);
        for (int i = 0; i < nact; i++) draw_marks(r, &f, &scene->actors[i], v.overlays);
        if (v.overlays & PT_OVERLAY_LABELS) pt__draw_labels(r, &f, scene->actors, nact);
    }

    if (had_clip) SDL_RenderSetClipRect(r->sdl, &old_clip);
    else SDL_RenderSetClipRect(r->sdl, NULL);
    return rc;
}
