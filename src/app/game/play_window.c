/* SPDX-License-Identifier: Zlib */
/* play_window.c - the display under the window: SDL's video driver (never an invisible one
 * by accident), the renderer (SDL's software one where OpenGL runs on the CPU), and the
 * window's first size from the map and the display. */
#include "game/play_ui.h"
#include "common/quiet.h"

#include <SDL.h>

#include <patrol/render.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void no_display(const char *why) {
    fprintf(stderr,
            "patrol play: error: no display: %s\n"
            "  play needs a display: set DISPLAY (X11) or WAYLAND_DISPLAY, or choose a driver with\n"
            "  SDL_VIDEODRIVER (e.g. x11, wayland; 'dummy' runs without a window). Under no display,\n"
            "  try 'xvfb-run patrol play', or 'patrol render MAP --out map.png' for a picture.\n",
            why);
}

/* Starts SDL's video on a display. Left to itself, SDL falls back to its offscreen driver
 * when no display answers, and a game nobody can see would run until killed (loading a GL
 * stack for nothing). So unless SDL_VIDEODRIVER names a driver, the drivers that show nothing
 * (offscreen, dummy and its evdev variant) are not tried; a run that ends by itself (--ticks) then uses dummy,
 * anything else says there is no display. Returns 0, or -1 after printing why. */
/* SDL_Init(SDL_INIT_VIDEO) with stderr silenced: a driver's library may print its own line
 * first (libwayland: "error: XDG_RUNTIME_DIR is invalid or not set"); patrol says what
 * failed itself. 0 or SDL's -1. */
static int init_video(void) {
    int quiet = app_quiet_begin();
    int rc = SDL_Init(SDL_INIT_VIDEO);
    app_quiet_end(quiet);
    return rc;
}

int play_start_video(int ends_by_itself) {
    const char *asked = getenv("SDL_VIDEODRIVER");
    if (asked && *asked) {
        if (init_video() == 0) return 0;
        no_display(SDL_GetError());
        return -1;
    }
    char tried[256] = "";
    for (int i = 0; i < SDL_GetNumVideoDrivers(); i++) {
        const char *d = SDL_GetVideoDriver(i);
        if (!d || strcmp(d, "offscreen") == 0 || strcmp(d, "dummy") == 0 || strcmp(d, "evdev") == 0) continue;
        /* OVERRIDE: an empty SDL_VIDEODRIVER in the environment would otherwise win. */
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, d, SDL_HINT_OVERRIDE);
        if (init_video() == 0) return 0;
        size_t n = strlen(tried);
        snprintf(tried + n, sizeof tried - n, "%s%s", n ? ", " : "", d);
    }
    if (ends_by_itself) {
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "dummy", SDL_HINT_OVERRIDE);
        if (init_video() == 0) return 0;
        no_display(SDL_GetError());
        return -1;
    }
    char why[400];
    snprintf(why, sizeof why, "DISPLAY and WAYLAND_DISPLAY reach none (tried %s)", tried[0] ? tried : "no driver");
    no_display(why);
    return -1;
}

/* 1 when sdl draws with OpenGL done on the CPU (Mesa's llvmpipe, softpipe, swrast: what a
 * virtual display such as Xvfb offers). */
static int software_gl(SDL_Renderer *sdl) {
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(sdl, &info) != 0 || !info.name || strncmp(info.name, "opengl", 6) != 0) return 0;
    typedef const unsigned char *(*get_string_fn)(unsigned);
    get_string_fn get = (get_string_fn)(uintptr_t)SDL_GL_GetProcAddress("glGetString");
    const char *name = get ? (const char *)get(0x1F01u /* GL_RENDERER */) : NULL;
    return name && (strstr(name, "llvmpipe") || strstr(name, "softpipe") || strstr(name, "swrast"));
}

SDL_Renderer *play_make_renderer(SDL_Window *win) {
    const char *asked = SDL_GetHint(SDL_HINT_RENDER_DRIVER);
    if (asked && strcmp(asked, "software") == 0 && !SDL_GetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION))
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    SDL_Renderer *sdl = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (sdl && !(asked && *asked) && software_gl(sdl)) {
        /* On a CPU OpenGL every pixel of every pass runs a shader on the CPU: SDL's own
         * software renderer, presenting through the window system's shared memory (no GL
         * framebuffer), draws the same frame for about a third of the CPU (docs/performance.md). */
        SDL_DestroyRenderer(sdl);
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
        sdl = NULL;
    } else if (!sdl && !SDL_GetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION)) {
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    }
    if (!sdl) sdl = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    return sdl;
}

void play_initial_window_size(const pt_map *map, int *w, int *h) {
    SDL_Rect bounds = {0, 0, 1280, 800};
    if (SDL_GetDisplayUsableBounds(0, &bounds) != 0 || bounds.w < 320 || bounds.h < 240)
        bounds = (SDL_Rect){0, 0, 1280, 800};
    long tpx = 0;
    pt_view_map_size(map, 1, &tpx, NULL);
    play_window_size_for(map->w, map->h, map->w > 0 ? (int)(tpx / map->w) : 1, bounds.w, bounds.h, w, h);
}
