/* SPDX-License-Identifier: Zlib */
/* map_layer.c - the map's tiles: drawn tile by tile, or once into the map layer (a texture
 * at the view's scale, redrawn when the map, the scale or the water's frame changes) and
 * copied each frame; and the grid overlay over them. pt_render_draw (draw.c) calls these. */
#include "render_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* A tile's sprite at (dx, dy), d pixels a side. Closed and locked doors (tile kinds named
 * door_closed, door_locked: patrol/door.h) are their sprite tinted: a closed door dark, a
 * locked one red, so an open door (the sprite as it is) reads apart from both. */
static void tile_blit(pt_render *r, const pt_tile_def *def, int s, int dx, int dy, int d) {
    int closed = def && strcmp(def->name, "door_closed") == 0, locked = def && strcmp(def->name, "door_locked") == 0;
    if (closed) SDL_SetTextureColorMod(r->tiles, 120, 110, 100);
    if (locked) SDL_SetTextureColorMod(r->tiles, 230, 90, 80);
    pt__blit(r, r->tiles, s, r->ntiles, PT_SPRITE_PX, PT_SPRITE_PX, dx, dy, d, d);
    if (closed || locked) SDL_SetTextureColorMod(r->tiles, 255, 255, 255);
}

/* The tiles [x0,x1) x [y0,y1), each a scaled, blended sprite: without a map layer. */
void pt__draw_tiles(pt_render *r, const pt_map *m, const pt_view *v, const pt__xform *f, int x0, int y0, int x1,
                    int y1) {
    int d = f->t * f->scale;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            const pt_tile_def *def = pt_map_tile(m, x, y);
            int s = pt_render_tile_sprite(def, v->time);
            if (s < 0 || s >= r->ntiles) s = 0;
            tile_blit(r, def, s, pt__sx_of(f, x), pt__sy_of(f, y), d);
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
            tile_blit(r, def, s, rc.x, rc.y, d);
        }
}

/* Makes the layer current for the map, scale and time. Returns 1 when it can be copied,
 * 0 when the tiles must be drawn one by one (too big, or no target textures). */
int pt__map_layer(pt_render *r, const pt_map *m, int t, int scale, double time) {
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
void pt__copy_layer(pt_render *r, const pt_view *v, const pt__xform *f) {
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

void pt__draw_grid(pt_render *r, const pt_map *m, const pt__xform *f, int x0, int y0, int x1, int y1) {
    (void)m;
    pt__set_color(r->sdl, 0x00000050u);
    int top = pt__sy_of(f, y0), bottom = pt__sy_of(f, y1), left = pt__sx_of(f, x0), right = pt__sx_of(f, x1);
    for (int x = x0; x <= x1; x++) SDL_RenderDrawLine(r->sdl, pt__sx_of(f, x), top, pt__sx_of(f, x), bottom - 1);
    for (int y = y0; y <= y1; y++) SDL_RenderDrawLine(r->sdl, left, pt__sy_of(f, y), right - 1, pt__sy_of(f, y));
}
