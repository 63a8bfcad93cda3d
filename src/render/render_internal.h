/* SPDX-License-Identifier: Zlib */
/* render_internal.h - what the renderer's files share. From the bottom up: view.c (overlay
 * names, sprite choice, views: no drawing), render.c (resources, text, blits, headless
 * output), map_layer.c (the tiles), cones.c (cones and sight), overlays.c (the debug
 * overlays and names), draw.c (a scene: pt_render_draw), and over them debug_draw.c (the
 * public debug drawing), markers.c, stone.c, caught.c, hud.c, menu.c, world_actors.c, light_draw.c. */
#ifndef PATROL_RENDER_INTERNAL_H
#define PATROL_RENDER_INTERNAL_H

#include <SDL.h>

#include <math.h>

#include <patrol/math.h>
#include <patrol/render.h>

struct pt__xform;

/* One entry of the y-sorted sprite list: an obstacle or an actor. */
typedef struct pt__draw_item {
    double key;  /* bottom edge in tiles: lower on screen draws later */
    int what;    /* 0 obstacle, 1 actor */
    int index;
} pt__draw_item;

/* A line of text drawn once into a texture (render.c: the HUD draws the same strings every
 * frame, and each glyph was a scaled, tinted, blended blit). */
#define PT__TEXT_CACHE 64
#define PT__TEXT_MAX 160 /* longer strings are drawn glyph by glyph */
typedef struct pt__text_entry {
    SDL_Texture *tex;
    uint64_t hash;
    int scale, adv, width; /* width: what pt__draw_text_adv returns for it */
    uint32_t rgb;          /* 0xRRGGBB00; the alpha is applied when it is copied */
    unsigned used;         /* the frame counter when last used (least recently used goes) */
    char text[PT__TEXT_MAX];
} pt__text_entry;

struct pt_render {
    SDL_Renderer *sdl;
    SDL_Texture *tiles, *chars, *props, *font;
    int ntiles, nprops;           /* frames in tiles.png / props.png */
    char asset_dir[PT_MAX_PATH];
    pt__draw_item *items;         /* scratch for pt_render_draw, grows */
    int items_cap;
    /* The map layer: the map's tiles drawn once at one scale into a target texture, copied
     * each frame (map_layer.c). Rebuilt when the key (map, size, scale, tiles) changes;
     * the animated tiles are redrawn when their frame changes. */
    SDL_Texture *layer;
    const pt_map *layer_map;
    uint64_t layer_hash;
    int layer_w, layer_h, layer_t, layer_scale, layer_phase;
    int layer_off;                /* 1: could not make one at this key (drawn tile by tile) */
    /* The cone layer: view cones filled into a CPU buffer the size of the output, span by
     * span, and blended onto the frame with one copy of the part they cover (cones.c). */
    uint32_t *cone_px;            /* ARGB8888, cone_w x cone_h, zero outside the last cones */
    SDL_Texture *cone_tex;
    int cone_w, cone_h;
    int *cone_band;               /* per band of PT__CONE_BAND rows: x0, x1 the cones cover */
    pt__text_entry text[PT__TEXT_CACHE];
    unsigned text_clock;
    /* A world's light (pt_render_set_light, light_draw.c): drawn by pt_render_draw over the
     * tiles of the world's own map, through light_fn so that a program drawing only maps does
     * not link the world. NULL: none. */
    const struct pt_world *light_world;
    void (*light_fn)(pt_render *r, const pt_map *m, const struct pt__xform *f, const pt_view *v, int x0, int y0,
                     int x1, int y1);
};

#define PT__CONE_BAND 8

/* Draws frame `index` of a one-row (or gridded, `per_row` frames a row) sheet of
 * fw x fh frames to the destination rectangle. */
void pt__blit(pt_render *r, SDL_Texture *tex, int index, int per_row, int fw, int fh, int dx, int dy,
              int dw, int dh);

/* Text with an advance of adv font pixels a character (8 = the font's cell; 6 = tight, the
 * HUD's). pt_draw_text / pt_text_size are these with adv 8. */
int pt__draw_text_adv(pt_render *r, int x, int y, int scale, int adv, uint32_t rgba, const char *text);
void pt__text_size_adv(const char *text, int scale, int adv, int *w, int *h);

/* The HUD and the menus set text tight: 6 font pixels a character. */
#define PT__HUD_ADV 6

static inline void pt__set_color(SDL_Renderer *sdl, uint32_t rgba) {
    SDL_SetRenderDrawColor(sdl, (Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba);
}

static inline void pt__fill_rect(pt_render *r, int x, int y, int w, int h, uint32_t rgba) {
    SDL_Rect rc = {x, y, w, h};
    pt__set_color(r->sdl, rgba);
    SDL_RenderFillRect(r->sdl, &rc);
}

/* HUD text: tight, with a one-pixel (at its scale) drop shadow so it reads on any background.
 * Returns the width drawn. */
static inline int pt__hud_text(pt_render *r, int x, int y, int ts, uint32_t rgba, const char *s) {
    pt__draw_text_adv(r, x + ts, y + ts, ts, PT__HUD_ADV, (rgba & 0xffu) * 3 / 4, s);
    return pt__draw_text_adv(r, x, y, ts, PT__HUD_ADV, rgba, s);
}

/* A key hint ("   " between its items) for a bar w pixels wide: the largest scale <= ts at
 * which it fits, returned, with the text to draw in buf; but never below min(ts, 2) (scale 1
 * is hard to read) while leaving items out keeps it there: then the items before the last
 * two (the way to all keys, and out) are left out from the end, and only when those two
 * alone are too long does the scale drop. */
int pt__fit_hint(const char *keys, int ts, int w, char *buf, size_t cap);

/* The next line of s to show in `cols` characters (cols < 1: no limit): up to its '\n', or a
 * longer one broken at its last space that fits (spaces at the break dropped), else cut.
 * *len is the line's length; returns where the next starts (NULL after the last). */
const char *pt__next_line(const char *s, int cols, int *len);

/* The width of HUD text (its widest line); 0 for NULL. */
static inline int pt__hud_text_w(const char *s, int ts) {
    int w = 0;
    if (s) pt__text_size_adv(s, ts, PT__HUD_ADV, &w, NULL);
    return w;
}

/* ---- the tile transform -------------------------------------------------------------------- */

/* The map's tile size in sprite pixels (the sheets' when the map names none or a bad one). */
static inline int pt__tile_px(const pt_map *m) {
    return m && m->tile_px >= PT_MIN_TILE_PX && m->tile_px <= PT_MAX_TILE_PX ? m->tile_px : PT_SPRITE_PX;
}

/* Map tiles -> output pixels, snapped to whole sprite pixels so the art stays crisp. */
typedef struct pt__xform {
    int ox, oy;      /* output pixel of map position (0,0) */
    int t, scale;    /* tile size in sprite pixels, output pixels per sprite pixel */
} pt__xform;

static inline int pt__to_px(double tiles, int t, int scale) {
    double p = tiles * t;
    /* NaN and huge values stay harmless: 4e6 sprite pixels is beyond any map (4096 tiles of
     * 256), and times the largest scale, summed a few times, still fits an int. */
    if (!(p > -4e6 && p < 4e6)) p = p > 0 ? 4e6 : -4e6;
    return (int)lround(p) * scale;
}
static inline int pt__sx_of(const pt__xform *f, double x) { return f->ox + pt__to_px(x, f->t, f->scale); }
static inline int pt__sy_of(const pt__xform *f, double y) { return f->oy + pt__to_px(y, f->t, f->scale); }

/* ---- debug primitives (the overlays and the public pt_debug_*) ----------------------------- */

/* Sub-pixel map -> output position (for lines; sprites snap through pt__sx_of/pt__sy_of). */
static inline float pt__fx_of(const pt__xform *f, double x) {
    return (float)(f->ox + pt_clamp(x, -1e6, 1e6) * f->t * f->scale);
}
static inline float pt__fy_of(const pt__xform *f, double y) {
    return (float)(f->oy + pt_clamp(y, -1e6, 1e6) * f->t * f->scale);
}

static inline void pt__line_tiles(pt_render *r, const pt__xform *f, double x0, double y0, double x1, double y1) {
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return;
    float ax = pt__fx_of(f, x0), ay = pt__fy_of(f, y0), bx = pt__fx_of(f, x1), by = pt__fy_of(f, y1);
    SDL_RenderDrawLineF(r->sdl, ax, ay, bx, by);
    if (f->scale >= 2) { /* thicker lines on big pixels, so they read like the art */
        int vertical = fabsf(bx - ax) < fabsf(by - ay);
        float ox = vertical ? 1.0f : 0.0f, oy = vertical ? 0.0f : 1.0f;
        SDL_RenderDrawLineF(r->sdl, ax + ox, ay + oy, bx + ox, by + oy);
    }
}

static inline void pt__circle_tiles(pt_render *r, const pt__xform *f, double cx, double cy, double rad) {
    enum { SEG = 32 };
    if (!isfinite(cx) || !isfinite(cy) || !(rad > 0) || rad > 1e4) return;
    SDL_FPoint pts[SEG + 1];
    for (int i = 0; i <= SEG; i++) {
        double th = PT_TAU * i / SEG;
        pts[i].x = pt__fx_of(f, cx + rad * cos(th));
        pts[i].y = pt__fy_of(f, cy + rad * sin(th));
    }
    SDL_RenderDrawLinesF(r->sdl, pts, SEG + 1);
}

static inline void pt__arrow_tiles(pt_render *r, const pt__xform *f, double x, double y, double dx, double dy) {
    double len = hypot(dx, dy);
    if (!isfinite(len) || len < 1e-6) return;
    pt__line_tiles(r, f, x, y, x + dx, y + dy);
    double head = pt_clamp(len * 0.3, 0.12, 0.35), ux = dx / len, uy = dy / len;
    double bx = x + dx - ux * head, by = y + dy - uy * head;
    pt__line_tiles(r, f, x + dx, y + dy, bx - uy * head * 0.6, by + ux * head * 0.6);
    pt__line_tiles(r, f, x + dx, y + dy, bx + uy * head * 0.6, by - ux * head * 0.6);
}

static inline void pt__box_tiles(pt_render *r, const pt__xform *f, double x, double y, double heading, double len,
                                 double hw) {
    if (!isfinite(heading) || !isfinite(len) || !isfinite(hw)) return;
    double hx = cos(heading), hy = sin(heading), sx = -hy, sy = hx;
    double px[4] = {x + sx * hw, x + hx * len + sx * hw, x + hx * len - sx * hw, x - sx * hw};
    double py[4] = {y + sy * hw, y + hy * len + sy * hw, y + hy * len - sy * hw, y - sy * hw};
    for (int i = 0; i < 4; i++) pt__line_tiles(r, f, px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4]);
}

/* ---- public debug drawing: set-up and tear-down around each call --------------------------- */

/* The transform and clip pt_render_draw would use; returns 0 when there is nothing to draw. */
static inline int pt__begin_debug(pt_render *r, const pt_map *map, const pt_view *view, pt__xform *f,
                                  SDL_Rect *old_clip, SDL_bool *had_clip, uint32_t rgba) {
    if (!r || !map || !view) return 0;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    if (v.w <= 0 || v.h <= 0) return 0;
    f->t = pt__tile_px(map);
    f->scale = v.scale;
    f->ox = v.x - pt__to_px(v.cam_x, f->t, f->scale);
    f->oy = v.y - pt__to_px(v.cam_y, f->t, f->scale);
    *had_clip = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, old_clip);
    SDL_Rect clip = {v.x, v.y, v.w, v.h};
    SDL_RenderSetClipRect(r->sdl, &clip);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    pt__set_color(r->sdl, rgba);
    return 1;
}

static inline void pt__end_debug(pt_render *r, const SDL_Rect *old_clip, SDL_bool had_clip) {
    SDL_RenderSetClipRect(r->sdl, had_clip ? old_clip : NULL);
}

/* ---- the parts of a scene, in the order pt_render_draw (draw.c) draws them ----------------- */

/* map_layer.c: makes the map layer current for the map, scale and time: 1 when it can be
 * copied (pt__copy_layer), 0 when the tiles must be drawn one by one (pt__draw_tiles). */
int pt__map_layer(pt_render *r, const pt_map *m, int t, int scale, double time);
void pt__copy_layer(pt_render *r, const pt_view *v, const pt__xform *f);
void pt__draw_tiles(pt_render *r, const pt_map *m, const pt_view *v, const pt__xform *f, int x0, int y0, int x1,
                    int y1);
void pt__draw_grid(pt_render *r, const pt_map *m, const pt__xform *f, int x0, int y0, int x1, int y1);

/* cones.c: every guard's view cone through the cone layer (PT_OK, or PT_ERR_NOMEM without a
 * cone buffer); every guard's seen cells. */
int pt__draw_cones(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene, const SDL_Rect *clip,
                   int out_w, int out_h);
void pt__draw_sight(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene);

/* overlays.c: the debug overlays, each over all of the scene's (or the n) actors. */
void pt__draw_patterns(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene);
void pt__draw_paths(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene);
void pt__draw_rays(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene);
void pt__draw_steer(pt_render *r, const pt__xform *f, const pt_actor *actors, int n);
void pt__draw_memory(pt_render *r, const pt__xform *f, const pt_actor *actors, int n);
/* Actors' names on dark boxes below their feet (also pt_render_labels). */
void pt__draw_labels(pt_render *r, const pt__xform *f, const pt_actor *actors, int n);

#endif
