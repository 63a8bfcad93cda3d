/* SPDX-License-Identifier: Zlib */
/* render.c - the renderer's resources (sprite sheets), blits, the bitmap font and its text
 * cache, and headless output: a draw function run on a software renderer into a surface or
 * a PNG (pt_render_surface_with; a scene's pt_render_png is draw.c's, on top of it). */
#include "render_internal.h"
#include "datadir.h"

#include <SDL_image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each sheet and the smallest size that holds its documented layout. */
static const struct { const char *file; int min_w, min_h; } sheets[4] = {
    {"tiles.png", 10 * PT_SPRITE_PX, PT_SPRITE_PX},
    {"characters.png", 12 * PT_SPRITE_PX, 5 * PT_SPRITE_PX},
    {"props.png", 8 * PT_SPRITE_PX, PT_SPRITE_PX},
    {"font.png", 16 * PT_GLYPH_PX, 6 * PT_GLYPH_PX},
};

/* Copies a path into err->file, truncating (a path longer than the field is still an error). */
static void set_file(pt_error *err, const char *path) {
    size_t n = strlen(path);
    if (n >= sizeof err->file) n = sizeof err->file - 1;
    memcpy(err->file, path, n);
    err->file[n] = '\0';
}

static int has_sheet(const char *dir) {
    char path[PT_MAX_PATH + 32];
    if (snprintf(path, sizeof path, "%s/%s", dir, sheets[0].file) >= (int)sizeof path) return 0;
    return access(path, R_OK) == 0;
}

int pt_render_find_assets(char *out, size_t cap, pt_error *err) {
    pt_error_clear(err);
    const char *env = getenv("PATROL_ASSETS");
    if (env && *env) {
        /* An explicit folder is used alone: silently falling back would hide a typo. */
        if (!has_sheet(env)) {
            pt_error_set(err, PT_ERR_IO, 0, 0, "no %s in PATROL_ASSETS folder '%s'", sheets[0].file, env);
            return PT_ERR_IO;
        }
        snprintf(out, cap, "%s", env);
        return PT_OK;
    }
    char dirs[PT__DATA_PLACES][PT_MAX_PATH];
    int n = pt__data_places("assets", "assets", dirs);
    for (int i = 0; i < n; i++) {
        if (has_sheet(dirs[i])) {
            snprintf(out, cap, "%s", dirs[i]);
            return PT_OK;
        }
    }
    char tried[4 * PT_MAX_PATH] = "";
    for (int i = 0, len = 0; i < n && len < (int)sizeof tried; i++)
        len += snprintf(tried + len, sizeof tried - (size_t)len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                        dirs[i]);
    return pt_error_set(err, PT_ERR_IO, 0, 0, "cannot find the sprite sheets (%s) in %s; set PATROL_ASSETS",
                        sheets[0].file, tried);
}

static SDL_Texture *load_sheet(SDL_Renderer *sdl, const char *dir, int which, int *frames, pt_error *err) {
    char path[PT_MAX_PATH + 32];
    snprintf(path, sizeof path, "%s/%s", dir, sheets[which].file);
    SDL_Surface *s = IMG_Load(path);
    if (!s) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot load sprite sheet: %s", IMG_GetError());
        set_file(err, path);
        return NULL;
    }
    if (s->w < sheets[which].min_w || s->h < sheets[which].min_h) {
        pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "sprite sheet is %dx%d, expected at least %dx%d", s->w, s->h,
                     sheets[which].min_w, sheets[which].min_h);
        set_file(err, path);
        SDL_FreeSurface(s);
        return NULL;
    }
    if (frames) *frames = s->w / PT_SPRITE_PX;
    SDL_Texture *t = SDL_CreateTextureFromSurface(sdl, s);
    SDL_FreeSurface(s);
    if (!t) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot make a texture of the sprite sheet: %s", SDL_GetError());
        set_file(err, path);
        return NULL;
    }
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest);
    return t;
}

static void forget_text(pt_render *r);

pt_render *pt_render_create(SDL_Renderer *sdl, const char *asset_dir, pt_error *err) {
    pt_error tmp;
    if (!err) err = &tmp;
    pt_error_clear(err);
    if (!sdl) {
        pt_error_set(err, PT_ERR_USAGE, 0, 0, "no SDL renderer");
        return NULL;
    }
    pt_render *r = PT_CALLOC(1, sizeof *r);
    if (!r) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the renderer");
        return NULL;
    }
    r->sdl = sdl;
    if (asset_dir && *asset_dir) {
        snprintf(r->asset_dir, sizeof r->asset_dir, "%s", asset_dir);
    } else if (pt_render_find_assets(r->asset_dir, sizeof r->asset_dir, err) < 0) {
        PT_FREE(r);
        return NULL;
    }
    if (!(r->tiles = load_sheet(sdl, r->asset_dir, 0, &r->ntiles, err)) ||
        !(r->chars = load_sheet(sdl, r->asset_dir, 1, NULL, err)) ||
        !(r->props = load_sheet(sdl, r->asset_dir, 2, &r->nprops, err)) ||
        !(r->font = load_sheet(sdl, r->asset_dir, 3, NULL, err))) {
        pt_render_destroy(r);
        return NULL;
    }
    return r;
}

void pt_render_destroy(pt_render *r) {
    if (!r) return;
    if (r->tiles) SDL_DestroyTexture(r->tiles);
    if (r->chars) SDL_DestroyTexture(r->chars);
    if (r->props) SDL_DestroyTexture(r->props);
    if (r->font) SDL_DestroyTexture(r->font);
    if (r->layer) SDL_DestroyTexture(r->layer);
    if (r->cone_tex) SDL_DestroyTexture(r->cone_tex);
    forget_text(r);
    PT_FREE(r->cone_px);
    PT_FREE(r->cone_band);
    PT_FREE(r->items);
    PT_FREE(r);
}

void pt_render_forget(pt_render *r) {
    if (!r) return;
    if (r->layer) SDL_DestroyTexture(r->layer);
    r->layer = NULL;
    r->layer_map = NULL;
    r->layer_off = 0;
    forget_text(r);
}

const char *pt_render_asset_dir(const pt_render *r) { return r ? r->asset_dir : ""; }

void pt__blit(pt_render *r, SDL_Texture *tex, int index, int per_row, int fw, int fh, int dx, int dy, int dw,
              int dh) {
    SDL_Rect src = {(index % per_row) * fw, (index / per_row) * fh, fw, fh};
    SDL_Rect dst = {dx, dy, dw, dh};
    SDL_RenderCopy(r->sdl, tex, &src, &dst);
}

/* ---- text ---------------------------------------------------------------------------------- */

void pt__text_size_adv(const char *text, int scale, int adv, int *w, int *h) {
    if (scale < 1) scale = 1;
    int cols = 0, best = 0, lines = text && *text ? 1 : 0;
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == '\n') {
            lines++;
            cols = 0;
            continue;
        }
        if (++cols > best) best = cols;
    }
    /* The last glyph's ink ends at column 6 of its cell, so a tight line is not padded. */
    int width = best > 0 ? (best - 1) * adv + (adv < PT_GLYPH_PX ? 6 : PT_GLYPH_PX) : 0;
    if (w) *w = width * scale;
    if (h) *h = lines * PT_GLYPH_PX * scale;
}

void pt_text_size(const char *text, int scale, int *w, int *h) { pt__text_size_adv(text, scale, PT_GLYPH_PX, w, h); }

static int draw_glyphs(pt_render *r, int x, int y, int scale, int adv, uint32_t rgba, const char *text) {
    SDL_SetTextureColorMod(r->font, (Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8));
    SDL_SetTextureAlphaMod(r->font, (Uint8)rgba);
    int g = PT_GLYPH_PX * scale, step = adv * scale, cx = x, cy = y, best = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n') {
            cy += g;
            cx = x;
            continue;
        }
        int c = (*p >= 32 && *p <= 126) ? *p : '?';
        if (c != ' ') pt__blit(r, r->font, c - 32, 16, PT_GLYPH_PX, PT_GLYPH_PX, cx, cy, g, g);
        cx += step;
        if (cx - x > best) best = cx - x;
    }
    return best;
}

static void forget_text(pt_render *r) {
    for (int i = 0; i < PT__TEXT_CACHE; i++) {
        if (r->text[i].tex) SDL_DestroyTexture(r->text[i].tex);
        r->text[i].tex = NULL;
    }
}

/* The cached texture of a line, made on a miss; NULL when it cannot be cached (too long,
 * no target textures, drawing into a texture already). */
static pt__text_entry *text_entry(pt_render *r, const char *text, int scale, int adv, uint32_t rgb) {
    size_t len = strlen(text);
    if (len == 0 || len >= PT__TEXT_MAX || SDL_GetRenderTarget(r->sdl)) return NULL;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    pt__text_entry *lru = &r->text[0];
    for (int i = 0; i < PT__TEXT_CACHE; i++) {
        pt__text_entry *e = &r->text[i];
        if (e->tex && e->hash == h && e->scale == scale && e->adv == adv && e->rgb == rgb && strcmp(e->text, text) == 0) {
            e->used = r->text_clock;
            return e;
        }
        if (!e->tex || (lru->tex && e->used < lru->used)) lru = e;
    }
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(r->sdl, &info) != 0 || !(info.flags & SDL_RENDERER_TARGETTEXTURE)) return NULL;
    int cols = 0, best = 0, lines = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') lines++, cols = 0;
        else if (++cols > best) best = cols;
    }
    int w = best > 0 ? ((best - 1) * adv + PT_GLYPH_PX) * scale : 1, hh = lines * PT_GLYPH_PX * scale;
    if (lru->tex) SDL_DestroyTexture(lru->tex);
    lru->tex = SDL_CreateTexture(r->sdl, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, hh);
    if (!lru->tex) return NULL;
    if (SDL_SetRenderTarget(r->sdl, lru->tex) != 0) {
        SDL_DestroyTexture(lru->tex);
        lru->tex = NULL;
        SDL_SetRenderTarget(r->sdl, NULL);
        return NULL;
    }
    /* Clear, then the glyphs at full alpha: the font's alpha is 0 or 255, so the texture
     * holds exactly the tinted glyphs and copying it with an alpha mod is drawing them. */
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r->sdl, 0, 0, 0, 0);
    SDL_RenderClear(r->sdl);
    lru->width = draw_glyphs(r, 0, 0, scale, adv, rgb | 0xffu, text);
    SDL_SetRenderTarget(r->sdl, NULL);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    SDL_SetTextureBlendMode(lru->tex, SDL_BLENDMODE_BLEND);
    lru->hash = h;
    lru->scale = scale;
    lru->adv = adv;
    lru->rgb = rgb;
    lru->used = r->text_clock;
    memcpy(lru->text, text, len + 1);
    return lru;
}

int pt__draw_text_adv(pt_render *r, int x, int y, int scale, int adv, uint32_t rgba, const char *text) {
    if (!r || !text) return 0;
    if (scale < 1) scale = 1;
    r->text_clock++;
    pt__text_entry *e = text_entry(r, text, scale, adv, rgba & 0xffffff00u);
    if (!e) return draw_glyphs(r, x, y, scale, adv, rgba, text);
    int w = 0, h = 0;
    SDL_QueryTexture(e->tex, NULL, NULL, &w, &h);
    SDL_SetTextureAlphaMod(e->tex, (Uint8)rgba);
    SDL_Rect dst = {x, y, w, h};
    SDL_RenderCopy(r->sdl, e->tex, NULL, &dst);
    return e->width;
}

int pt_draw_text(pt_render *r, int x, int y, int scale, uint32_t rgba, const char *text) {
    return pt__draw_text_adv(r, x, y, scale, PT_GLYPH_PX, rgba, text);
}

/* ---- headless ------------------------------------------------------------------------------ */

SDL_Surface *pt_render_surface_with(int w, int h, const char *asset_dir, pt_draw_fn draw, void *user,
                                    pt_error *err) {
    pt_error tmp;
    if (!err) err = &tmp;
    pt_error_clear(err);
    if (!draw) {
        pt_error_set(err, PT_ERR_USAGE, 0, 0, "nothing to draw");
        return NULL;
    }
    if (w < 1 || h < 1 || w > PT_RENDER_MAX_SIDE || h > PT_RENDER_MAX_SIDE ||
        (long)w * (long)h > PT_RENDER_MAX_PIXELS) {
        pt_error_set(err, PT_ERR_LIMIT, 0, 0, "image of %dx%d pixels is outside 1..%d per side and %ld pixels", w,
                     h, PT_RENDER_MAX_SIDE, (long)PT_RENDER_MAX_PIXELS);
        return NULL;
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    if (!surf) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "cannot make a %dx%d image: %s", w, h, SDL_GetError());
        return NULL;
    }
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    if (!sdl) {
        pt_error_set(err, PT_ERR_INTERNAL, 0, 0, "cannot make a software renderer: %s", SDL_GetError());
        SDL_FreeSurface(surf);
        return NULL;
    }
    pt_render *r = pt_render_create(sdl, asset_dir, err);
    int rc = r ? PT_OK : err->code;
    if (r) {
        rc = draw(r, w, h, user);
        if (rc < 0) pt_error_set(err, rc, 0, 0, "out of memory while drawing");
        SDL_RenderFlush(sdl);
        pt_render_destroy(r);
    }
    SDL_DestroyRenderer(sdl);
    if (rc < 0) {
        SDL_FreeSurface(surf);
        return NULL;
    }
    return surf;
}

int pt_render_png_with(int w, int h, const char *asset_dir, pt_draw_fn draw, void *user, const char *path,
                       pt_error *err) {
    pt_error tmp;
    if (!err) err = &tmp;
    SDL_Surface *surf = pt_render_surface_with(w, h, asset_dir, draw, user, err);
    if (!surf) return err->code;
    int rc = IMG_SavePNG(surf, path);
    SDL_FreeSurface(surf);
    if (rc != 0) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot write the PNG: %s", IMG_GetError());
        set_file(err, path);
        return PT_ERR_IO;
    }
    return PT_OK;
}
