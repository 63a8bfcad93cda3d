/* patrol play [MAP]: the map's world in a window; the player walks with the arrow keys or
 * WASD, guards patrol, see, chase; a catch or the exit ends the round (R starts again).
 *
 * Loop (fixed timestep): each frame reads events, runs as many 1/60 s world ticks as real
 * time asks for (play_tick: input, pt_world_step), then draws once (play_draw) with the
 * fraction of a tick left over (alpha) so motion is smooth at any refresh rate. Update and
 * draw never mix: play_tick is the only place the world changes; play_draw only reads it.
 */
#include "app.h"
#include "load.h"

#include <SDL.h>

#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/world.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAY_HZ 60
#define PLAY_TAPS 16

typedef struct play {
    pt_map map;
    pt_patlib lib;
    pt_world *world;
    pt_world_desc desc;
    pt_actor *actors;    /* one per world entity, rebuilt each frame */
    int nactors;
    /* Key presses not yet acted on: a tap shorter than a tick still moves one tile. */
    signed char tap_dx[PLAY_TAPS], tap_dy[PLAY_TAPS];
    int ntaps;
    int log_moves;
    unsigned overlays;
    int show_help;
} play;

static void help(FILE *out) {
    fprintf(out,
            "usage: patrol play [MAP] [--overlay LIST] [--ticks N] [--log-moves]\n"
            "\n"
            "Plays MAP (default: the demo map, %s) in a window titled 'patrol'.\n"
            "\n"
            "keys:\n"
            "  arrows / WASD   walk (hold to keep walking)\n"
            "  G / V / L / B   toggle grid, view cones, labels, awareness bars\n"
            "  O / P           toggle seen cells (sight), planned paths\n"
            "  R               start the round again\n"
            "  H               toggle the key help\n"
            "  Esc             quit\n"
            "\n"
            "options:\n"
            "  --overlay LIST  overlays shown at start: grid, cones, sight, labels, awareness, paths,\n"
            "                  all, none\n"
            "  --ticks N       quit by itself after N simulation ticks (1/%d s each)\n"
            "  --log-moves     print 'move X,Y' each time the player enters a tile\n"
            "  -h, --help      this help\n"
            "\n"
            "On exit it prints the player's final tile ('player X,Y').\n"
            "Needs a display: DISPLAY (X11) or WAYLAND_DISPLAY; SDL_VIDEODRIVER picks the driver.\n",
            app_default_map(), PLAY_HZ);
}

/* ---- simulation (the only code that changes state) ------------------------------------- */

/* (Re)creates the world from the map: the start of a round. */
static int play_new_world(play *p, pt_error *err) {
    pt_world *w = pt_world_create(&p->map, &p->lib, &p->desc, err);
    if (!w) return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    int n = pt_world_count(w);
    pt_actor *a = PT_REALLOC(p->actors, sizeof *a * (size_t)(n > 0 ? n : 1));
    if (!a) {
        pt_world_destroy(w);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    pt_world_destroy(p->world);
    p->world = w;
    p->actors = a;
    p->nactors = n;
    p->ntaps = 0;
    return PT_OK;
}

static void push_tap(play *p, int dx, int dy) {
    if (p->ntaps >= PLAY_TAPS) return;
    p->tap_dx[p->ntaps] = (signed char)dx;
    p->tap_dy[p->ntaps] = (signed char)dy;
    p->ntaps++;
}

static int pop_tap(play *p, int *dx, int *dy) {
    if (p->ntaps == 0) return 0;
    *dx = p->tap_dx[0];
    *dy = p->tap_dy[0];
    memmove(p->tap_dx, p->tap_dx + 1, (size_t)(p->ntaps - 1));
    memmove(p->tap_dy, p->tap_dy + 1, (size_t)(p->ntaps - 1));
    p->ntaps--;
    return 1;
}

static void held_direction(int *dx, int *dy) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    *dx = (k[SDL_SCANCODE_RIGHT] || k[SDL_SCANCODE_D]) - (k[SDL_SCANCODE_LEFT] || k[SDL_SCANCODE_A]);
    *dy = (k[SDL_SCANCODE_DOWN] || k[SDL_SCANCODE_S]) - (k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_W]);
}

/* One fixed tick: choose the input, step the world. The world acts on the player's input
 * when its movement clock passes 1 (world.c: move_t += speed * dt); a tap is handed over
 * on exactly that tick, so none is lost between two ticks or in the middle of a step.
 * When the round is over (caught, or the exit reached) the world stands still. */
static void play_tick(play *p) {
    if (pt_world_round(p->world) != 0) return;
    const pt_entity *pl = pt_world_entity(p->world, 0);
    int due = pl->move_t + pl->speed * pt_world_dt(p->world) >= 1.0;
    int dx = 0, dy = 0;
    if (!(due && pop_tap(p, &dx, &dy))) held_direction(&dx, &dy);
    int ox = pl->x, oy = pl->y;
    pt_world_set_input(p->world, dx, dy);
    pt_world_step(p->world);
    pl = pt_world_entity(p->world, 0);
    if (p->log_moves && (pl->x != ox || pl->y != oy)) {
        printf("move %d,%d\n", pl->x, pl->y);
        fflush(stdout);
    }
}

/* ---- drawing (reads only) ------------------------------------------------------------------ */

static void shadow_text(pt_render *r, int x, int y, int ts, uint32_t rgba, const char *text) {
    pt_draw_text(r, x + ts, y + ts, ts, 0x000000c0u, text);
    pt_draw_text(r, x, y, ts, rgba, text);
}

static int play_draw(play *p, pt_render *r, SDL_Renderer *sdl, double alpha, double seconds) {
    int round = pt_world_round(p->world);
    pt_render_actors_from_world(p->world, round ? 0.0 : alpha, p->actors, p->nactors);
    int ow = 0, oh = 0;
    SDL_GetRendererOutputSize(sdl, &ow, &oh);
    pt_view v = {.time = seconds, .overlays = p->overlays};
    pt_view_fit(&v, &p->map, ow, oh, 0, 0);
    pt_view_follow(&v, &p->map, p->actors[0].x, p->actors[0].y);
    pt_scene scene = {.map = &p->map, .actors = p->actors, .nactors = p->nactors};

    SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
    SDL_RenderClear(sdl);
    int rc = pt_render_draw(r, &scene, &v);

    /* HUD: map name; the round's end; the key help along the bottom. */
    int ts = v.scale > 1 ? v.scale / 2 : 1;
    shadow_text(r, 4 * ts, 4 * ts, ts, 0xffffffffu, p->map.name[0] ? p->map.name : p->map.path);
    if (round) {
        const char *msg = round > 0 ? "You escaped!  R: again  Esc: quit" : "Caught!  R: try again  Esc: quit";
        int big = ts * 2, tw, th;
        pt_text_size(msg, big, &tw, &th);
        SDL_Rect box = {(ow - tw) / 2 - 4 * big, (oh - th) / 2 - 3 * big, tw + 8 * big, th + 6 * big};
        SDL_SetRenderDrawBlendMode(sdl, SDL_BLENDMODE_BLEND);
        SDL_SetRenderDrawColor(sdl, 0, 0, 0, 170);
        SDL_RenderFillRect(sdl, &box);
        shadow_text(r, (ow - tw) / 2, (oh - th) / 2, big, round > 0 ? 0xffe070ffu : 0xff5040ffu, msg);
    }
    if (p->show_help) {
        const char *keys = "arrows/WASD walk  G V O L B P overlays  R restart  H help  Esc quit";
        shadow_text(r, 4 * ts, oh - (PT_GLYPH_PX + 4) * ts, ts, 0xe0e0e0ffu, keys);
    }
    return rc;
}

/* ---- setup and the loop -------------------------------------------------------------------- */

static int parse_args(int argc, char **argv, const char **map_path, unsigned *overlays, long *max_ticks,
                      int *log_moves) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            help(stdout);
            return -1;
        } else if (strcmp(a, "--overlay") == 0) {
            if (i + 1 >= argc) return app_usage_error("play", "%s needs a list (e.g. grid,cones)", a);
            int bad = 0;
            if (!pt_overlay_parse(argv[++i], overlays, &bad))
                return app_usage_error("play", "--overlay: unknown overlay at '%s' (grid, cones, sight, labels, paths, "
                                       "awareness, all, none)", argv[i] + bad - 1);
        } else if (strcmp(a, "--log-moves") == 0) {
            *log_moves = 1;
        } else if (strcmp(a, "--ticks") == 0) {
            if (!app_parse_long("play", a, i + 1 < argc ? argv[i + 1] : NULL, 1, 1000000000L, max_ticks))
                return APP_EXIT_USAGE;
            i++;
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("play", "unknown option '%s'", a);
        } else if (!*map_path) {
            *map_path = a;
        } else {
            return app_usage_error("play", "one map at a time ('%s' and '%s')", *map_path, a);
        }
    }
    return 0;
}

static SDL_Renderer *make_renderer(SDL_Window *win) {
    SDL_Renderer *sdl = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!sdl) sdl = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    return sdl;
}

static void initial_window_size(const pt_map *map, int *w, int *h) {
    long mw = 0, mh = 0;
    pt_view_map_size(map, 2, &mw, &mh);
    SDL_Rect bounds = {0, 0, 1280, 800};
    if (SDL_GetDisplayUsableBounds(0, &bounds) != 0 || bounds.w < 320 || bounds.h < 240)
        bounds = (SDL_Rect){0, 0, 1280, 800};
    long maxw = bounds.w * 9L / 10, maxh = bounds.h * 9L / 10;
    *w = (int)(mw < 320 ? 320 : mw > maxw ? maxw : mw);
    *h = (int)(mh < 240 ? 240 : mh > maxh ? maxh : mh);
}

/* 0: quit, 1: go on, 2: start the round again. */
static int handle_key(play *p, const SDL_KeyboardEvent *k) {
    if (k->repeat) return 1;
    switch (k->keysym.scancode) {
    case SDL_SCANCODE_ESCAPE: return 0;
    case SDL_SCANCODE_RIGHT: case SDL_SCANCODE_D: push_tap(p, 1, 0); break;
    case SDL_SCANCODE_LEFT: case SDL_SCANCODE_A: push_tap(p, -1, 0); break;
    case SDL_SCANCODE_DOWN: case SDL_SCANCODE_S: push_tap(p, 0, 1); break;
    case SDL_SCANCODE_UP: case SDL_SCANCODE_W: push_tap(p, 0, -1); break;
    case SDL_SCANCODE_G: p->overlays ^= PT_OVERLAY_GRID; break;
    case SDL_SCANCODE_V: p->overlays ^= PT_OVERLAY_CONES; break;
    case SDL_SCANCODE_L: p->overlays ^= PT_OVERLAY_LABELS; break;
    case SDL_SCANCODE_B: p->overlays ^= PT_OVERLAY_AWARENESS; break;
    case SDL_SCANCODE_P: p->overlays ^= PT_OVERLAY_PATHS; break;
    case SDL_SCANCODE_O: p->overlays ^= PT_OVERLAY_SIGHT; break;
    case SDL_SCANCODE_H: p->show_help = !p->show_help; break;
    case SDL_SCANCODE_R: return 2;
    default: break;
    }
    return 1;
}

/* Loads the pattern files the map names, then the world. Errors are located (file, line). */
static int play_load(play *p, const char *map_path, pt_error *err) {
    int rc = app_load_inputs(map_path, &p->map, &p->lib, err);
    if (rc < 0) return rc;
    p->desc = (pt_world_desc){.player_controlled = 1, .end_round_on_catch = 1};
    return play_new_world(p, err);
}

static void play_fini(play *p) {
    pt_world_destroy(p->world);
    PT_FREE(p->actors);
    pt_patlib_fini(&p->lib);
    pt_map_fini(&p->map);
}

int cmd_play(int argc, char **argv) {
    const char *map_path = NULL;
    unsigned overlays = 0;
    long max_ticks = 0;
    int log_moves = 0;
    int prc = parse_args(argc, argv, &map_path, &overlays, &max_ticks, &log_moves);
    if (prc < 0) return APP_EXIT_OK;
    if (prc > 0) return prc;
    if (!map_path) map_path = app_default_map();

    static play p; /* large (the map's legend); one per process */
    memset(&p, 0, sizeof p);
    pt_error err;
    if (play_load(&p, map_path, &err) < 0) {
        pt_error_print(stderr, &err);
        play_fini(&p);
        return APP_EXIT_INPUT;
    }
    p.overlays = overlays;
    p.log_moves = log_moves;
    p.show_help = 1;

    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr,
                "patrol play: error: cannot start the video subsystem: %s\n"
                "  play needs a display: set DISPLAY (X11) or WAYLAND_DISPLAY, or choose a driver with\n"
                "  SDL_VIDEODRIVER (e.g. x11, wayland; 'dummy' runs without a window). Under no display,\n"
                "  try 'xvfb-run patrol play', or 'patrol render MAP --out map.png' for a picture.\n",
                SDL_GetError());
        play_fini(&p);
        return APP_EXIT_INPUT;
    }
    int rc = APP_EXIT_INPUT;
    SDL_Window *win = NULL;
    SDL_Renderer *sdl = NULL;
    pt_render *r = NULL;
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    int ww, wh;
    initial_window_size(&p.map, &ww, &wh);
    win = SDL_CreateWindow("patrol", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, ww, wh,
                           SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win) {
        fprintf(stderr, "patrol play: error: cannot open a window: %s (check DISPLAY / SDL_VIDEODRIVER)\n",
                SDL_GetError());
        goto done;
    }
    sdl = make_renderer(win);
    if (!sdl) {
        fprintf(stderr, "patrol play: error: cannot create a renderer: %s\n", SDL_GetError());
        goto done;
    }
    if (!(r = pt_render_create(sdl, NULL, &err))) {
        fprintf(stderr, "patrol play: ");
        pt_error_print(stderr, &err);
        goto done;
    }

    SDL_RendererInfo info;
    int vsync = SDL_GetRendererInfo(sdl, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC);
    long frames = 0;
    uint64_t ticks = 0;
    const double dt = 1.0 / PLAY_HZ;
    const Uint64 freq = SDL_GetPerformanceFrequency(), start = SDL_GetPerformanceCounter();
    Uint64 last = start;
    double acc = 0.0;
    int running = 1;
    rc = APP_EXIT_OK;
    while (running) {
        Uint64 now = SDL_GetPerformanceCounter();
        double frame = (double)(now - last) / (double)freq;
        last = now;
        acc += frame > 0.25 ? 0.25 : frame; /* after a stall, slow down rather than spiral */

        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) {
                running = 0;
            } else if (e.type == SDL_KEYDOWN) {
                int k = handle_key(&p, &e.key);
                if (k == 0) running = 0;
                if (k == 2 && play_new_world(&p, &err) < 0) {
                    pt_error_print(stderr, &err);
                    rc = APP_EXIT_INPUT;
                    running = 0;
                }
            }
        }
        while (running && acc >= dt) {
            play_tick(&p);
            acc -= dt;
            if (max_ticks > 0 && ++ticks >= (uint64_t)max_ticks) running = 0;
        }
        if (!running) break;
        if (play_draw(&p, r, sdl, acc / dt, (double)(now - start) / (double)freq) < 0) {
            fprintf(stderr, "patrol play: error: out of memory while drawing\n");
            rc = APP_EXIT_INPUT;
            break;
        }
        SDL_RenderPresent(sdl);
        /* Never spin. With vsync the present waits for the display; without it (software
         * renderer), or where vsync is claimed but not honoured (virtual displays: the first
         * second runs faster than 100 frames a second), wait for about 60 frames a second. */
        if (++frames == 60 && vsync && (double)(SDL_GetPerformanceCounter() - start) / (double)freq < 0.6)
            vsync = 0;
        double cap = vsync ? 1.0 / 240 : 1.0 / 60;
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
        if (spent < cap) SDL_Delay((Uint32)((cap - spent) * 1000.0));
    }
    const pt_entity *pl = pt_world_entity(p.world, 0);
    printf("player %d,%d\n", pl->x, pl->y);
    fflush(stdout);

done:
    pt_render_destroy(r);
    if (sdl) SDL_DestroyRenderer(sdl);
    if (win) SDL_DestroyWindow(win);
    SDL_Quit();
    play_fini(&p);
    return rc;
}
