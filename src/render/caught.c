/* SPDX-License-Identifier: Zlib */
/* The caught animation of `patrol play`, drawn over a scene from plain data (the actor as the
 * scene drew it): a burst of rays leaves the player, who flashes in front of the scene's
 * caught starburst. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>

#define FLASH_S 0.08   /* the player's sprite flashes this long, then as long not ... */
#define FLASHES 4      /* ... this many times */
#define RAYS 8
#define BURST_S 0.45   /* the rays fly out in this long, then stand and fade */

/* One sprite pixel square (side k of them) at output pixel (x, y), centred. */
static void dot(SDL_Renderer *sdl, double x, double y, int side) {
    SDL_Rect rc = {(int)lround(x - side / 2.0), (int)lround(y - side / 2.0), side, side};
    SDL_RenderFillRect(sdl, &rc);
}

void pt_render_caught(pt_render *r, const pt_map *map, const pt_view *view, const pt_actor *player, double t) {
    if (!r || !map || !view || !player || !(t >= 0.0) || t >= PT_CAUGHT_S) return;
    if (!isfinite(player->x) || !isfinite(player->y)) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    int s = pt_clampi(v.scale, 1, PT_RENDER_MAX_SCALE);
    /* The map's origin and tile in output pixels, as pt_render_draw places sprites: snapped
     * to whole sprite pixels. */
    double ox, oy, ux;
    pt_view_to_px(map, &v, 0.0, 0.0, &ox, &oy);
    pt_view_to_px(map, &v, 1.0, 0.0, &ux, NULL);
    int tile = (int)lround((ux - ox) / s), d = tile * s;
    if (tile < 1) return;
    int left = (int)lround(ox) + (int)lround((player->x - 0.5) * tile) * s;
    int top = (int)lround(oy) + (int)lround((player->y - 0.5) * tile) * s;
    double cx = left + d / 2.0, cy = top + d / 2.0;

    SDL_Rect clip = {v.x, v.y, v.w, v.h}, old_clip;
    SDL_bool had_clip = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old_clip);
    SDL_RenderSetClipRect(r->sdl, &clip);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);

    /* The rays: out from the sprite's edge to a tile beyond it, yellow and red in turn, fading
     * after BURST_S. Two sprite pixels thick, so they read at 1x. */
    double fly = t < BURST_S ? t / BURST_S : 1.0, e = fly * (2.0 - fly);
    double fade = t < BURST_S ? 1.0 : 1.0 - (t - BURST_S) / (PT_CAUGHT_S - BURST_S);
    Uint8 alpha = (Uint8)lround(255.0 * pt_clamp(fade, 0.0, 1.0));
    double r0 = (0.45 + 0.55 * e) * d, r1 = r0 + (0.25 + 0.2 * (1.0 - e)) * d;
    for (int k = 0; k < RAYS; k++) {
        double a = k * (2.0 * PT_PI / RAYS) + PT_PI / RAYS, ca = cos(a), sa = sin(a);
        if (k % 2) SDL_SetRenderDrawColor(r->sdl, 0xff, 0x30, 0x28, alpha);
        else SDL_SetRenderDrawColor(r->sdl, 0xff, 0xd0, 0x40, alpha);
        for (double q = r0; q <= r1; q += s) dot(r->sdl, cx + ca * q, cy + sa * q, 2 * s);
    }

    /* The player again, over the scene's starburst (it stays the burst's centre), and on
     * every other FLASH_S its frame added onto itself twice: bright, nearly white. */
    if (player->row >= 0 && player->row < 5) {
        int frame = player->row * 12 + pt_render_frame_col(player->heading, player->moving, player->walk);
        pt__blit(r, r->chars, frame, 12, PT_SPRITE_PX, PT_SPRITE_PX, left, top, d, d);
        if (t < FLASHES * 2 * FLASH_S && fmod(t, 2 * FLASH_S) < FLASH_S) {
            SDL_SetTextureBlendMode(r->chars, SDL_BLENDMODE_ADD);
            for (int i = 0; i < 2; i++) pt__blit(r, r->chars, frame, 12, PT_SPRITE_PX, PT_SPRITE_PX, left, top, d, d);
            SDL_SetTextureBlendMode(r->chars, SDL_BLENDMODE_BLEND);
        }
    }
    SDL_RenderSetClipRect(r->sdl, had_clip ? &old_clip : NULL);
}
