/* SPDX-License-Identifier: Zlib */
/* render_internal.h - what render.c (resources, text, PNG) and draw.c (scenes) share. */
#ifndef PATROL_RENDER_INTERNAL_H
#define PATROL_RENDER_INTERNAL_H

#include <SDL.h>

#include <patrol/render.h>

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
     * each frame (draw.c, map_layer). Rebuilt when the key (map, size, scale, tiles) changes;
     * the animated tiles are redrawn when their frame changes. */
    SDL_Texture *layer;
    const pt_map *layer_map;
    uint64_t layer_hash;
    int layer_w, layer_h, layer_t, layer_scale, layer_phase;
    int layer_off;                /* 1: could not make one at this key (drawn tile by tile) */
    /* The cone layer: view cones filled into a CPU buffer the size of the output, span by
     * span, and blended onto the frame with one copy of the part they cover (draw.c). */
    uint32_t *cone_px;            /* ARGB8888, cone_w x cone_h, zero outside the last cones */
    SDL_Texture *cone_tex;
    int cone_w, cone_h;
    int *cone_band;               /* per band of PT__CONE_BAND rows: x0, x1 the cones cover */
    pt__text_entry text[PT__TEXT_CACHE];
    unsigned text_clock;
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

#endif
