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

struct pt_render {
    SDL_Renderer *sdl;
    SDL_Texture *tiles, *chars, *props, *font;
    int ntiles, nprops;           /* frames in tiles.png / props.png */
    char asset_dir[PT_MAX_PATH];
    pt__draw_item *items;         /* scratch for pt_render_draw, grows */
    int items_cap;
};

/* Draws frame `index` of a one-row (or gridded, `per_row` frames a row) sheet of
 * fw x fh frames to the destination rectangle. */
void pt__blit(pt_render *r, SDL_Texture *tex, int index, int per_row, int fw, int fh, int dx, int dy,
              int dw, int dh);

/* Text with an advance of adv font pixels a character (8 = the font's cell; 6 = tight, the
 * HUD's). pt_draw_text / pt_text_size are these with adv 8. */
int pt__draw_text_adv(pt_render *r, int x, int y, int scale, int adv, uint32_t rgba, const char *text);
void pt__text_size_adv(const char *text, int scale, int adv, int *w, int *h);

#endif
