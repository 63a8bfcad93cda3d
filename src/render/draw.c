/* SPDX-License-Identifier: Zlib */
/* draw.c - drawing a scene (pt_render_draw): the map (map_layer.c), the cones and sight
 * (cones.c), the debug overlays (overlays.c), and here the obstacles and actors sorted by
 * depth with the marks above them; and a scene drawn headless into a surface or a PNG
 * (pt_render_surface, pt_render_png, on render.c's pt_render_surface_with). One path for
 * the window and for headless PNGs. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    int layered = pt__map_layer(r, m, f.t, f.scale, v.time);
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
    if (layered) pt__copy_layer(r, &v, &f);
    else pt__draw_tiles(r, m, &v, &f, x0, y0, x1, y1);
    if (r->light_world && r->light_fn) r->light_fn(r, m, &f, &v, x0, y0, x1, y1);
    int rc = PT_OK;
    if ((v.overlays & PT_OVERLAY_CONES) && scene->actors) rc = pt__draw_cones(r, m, &f, scene, &clip, out_w, out_h);
    if (v.overlays & PT_OVERLAY_SIGHT) pt__draw_sight(r, m, &f, scene);
    if (v.overlays & PT_OVERLAY_GRID) pt__draw_grid(r, m, &f, x0, y0, x1, y1);
    if ((v.overlays & PT_OVERLAY_PATTERNS) && scene->actors) pt__draw_patterns(r, m, &f, scene);
    if ((v.overlays & PT_OVERLAY_PATHS) && scene->actors) pt__draw_paths(r, m, &f, scene);
    if ((v.overlays & PT_OVERLAY_RAYS) && scene->actors) pt__draw_rays(r, m, &f, scene);

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
        if (v.overlays & PT_OVERLAY_STEER) pt__draw_steer(r, &f, scene->actors, nact);
        if (v.overlays & PT_OVERLAY_MEMORY) pt__draw_memory(r, &f, scene->actors, nact);
        for (int i = 0; i < nact; i++) draw_marks(r, &f, &scene->actors[i], v.overlays);
        if (v.overlays & PT_OVERLAY_LABELS) pt__draw_labels(r, &f, scene->actors, nact);
    }

    if (had_clip) SDL_RenderSetClipRect(r->sdl, &old_clip);
    else SDL_RenderSetClipRect(r->sdl, NULL);
    return rc;
}

/* ---- a scene headless ------------------------------------------------------------------------ */

typedef struct scene_job { const pt_scene *scene; const pt_view *view; } scene_job;

static int draw_scene_job(pt_render *r, int w, int h, void *user) {
    const scene_job *j = user;
    pt_view v = j->view ? *j->view : (pt_view){0};
    pt_view_resolve(&v, w, h);
    return pt_render_draw(r, j->scene, &v);
}

SDL_Surface *pt_render_surface(const pt_scene *scene, const pt_view *view, int w, int h, const char *asset_dir,
                               pt_error *err) {
    if (!scene || !scene->map) {
        pt_error_clear(err);
        pt_error_set(err, PT_ERR_USAGE, 0, 0, "no map to draw");
        return NULL;
    }
    scene_job j = {scene, view};
    return pt_render_surface_with(w, h, asset_dir, draw_scene_job, &j, err);
}

int pt_render_png(const pt_scene *scene, const pt_view *view, int w, int h, const char *asset_dir,
                  const char *path, pt_error *err) {
    if (!scene || !scene->map) {
        pt_error_clear(err);
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "no map to draw");
    }
    scene_job j = {scene, view};
    return pt_render_png_with(w, h, asset_dir, draw_scene_job, &j, path, err);
}
