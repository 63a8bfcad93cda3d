/* patrol play [MAP]: the map in a window; the player walks with the arrow keys or WASD.
 *
 * Loop (fixed timestep): each frame reads events, runs as many 1/60 s simulation ticks as
 * real time asks for (play_tick), then draws once with the fraction of a tick left over
 * (alpha) so motion is smooth at any refresh rate. Update and draw never mix: play_tick is
 * the only place state changes; play_draw only reads.
 */
#include "app.h"

#include <SDL.h>

#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/render.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAY_HZ 60
#define PLAY_TAPS 16

/* The player, moved tile by tile. Until the world (world.h) drives play, this is the
 * simulation; its fields mirror pt_entity's (x,y, prev_x,prev_y, move_t, heading). */
typedef struct play_mover {
    int x, y;            /* logical tile: where the current step ends */
    int prev_x, prev_y;  /* where it started */
    double move_t;       /* progress of the current step in [0,1]; drawn at prev + (cur-prev)*t */
    int moving;
    double heading, speed, walk;
} play_mover;

typedef struct play {
    pt_map map;
    play_mover player;
    uint64_t tick;
    /* Key presses not yet acted on: a tap shorter than a tick still moves one tile. */
    signed char tap_dx[PLAY_TAPS], tap_dy[PLAY_TAPS];
    int ntaps;
    unsigned overlays;
    int show_help;
} play;

static void help(FILE *out) {
    fprintf(out,
            "usage: patrol play [MAP] [--overlay LIST] [--ticks N]\n"
            "\n"
            "Plays MAP (default: the demo map, %s) in a window titled 'patrol'.\n"
            "\n"
            "keys:\n"
            "  arrows / WASD   walk (hold to keep walking)\n"
            "  G / V / L / B   toggle grid, view cones, labels, awareness bars\n"
            "  H               toggle the key help\n"
            "  Esc             quit\n"
            "\n"
            "options:\n"
            "  --overlay LIST  overlays shown at start: grid, cones, labels, awareness, all, none\n"
            "  --ticks N       quit by itself after N simulation ticks (1/%d s each)\n"
            "  -h, --help      this help\n"
            "\n"
            "On exit it prints the player's final tile ('player X,Y').\n"
            "Needs a display: DISPLAY (X11) or WAYLAND_DISPLAY; SDL_VIDEODRIVER picks the driver.\n",
            app_default_map(), PLAY_HZ);
}

/* ---- simulation (the only code that changes state) ------------------------------------- */

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

/* Starts a step toward (dx,dy) (4-way: horizontal first) if that tile is walkable; turns
 * to face the direction either way. */
static void try_step(play *p, int dx, int dy) {
    play_mover *m = &p->player;
    int dirs[2][2] = {{dx, 0}, {0, dy}};
    for (int i = 0; i < 2; i++) {
        int sx = dirs[i][0], sy = dirs[i][1];
        if (!sx && !sy) continue;
        m->heading = atan2((double)sy, (double)sx);
        if (pt_map_walkable(&p->map, m->x + sx, m->y + sy)) {
            m->prev_x = m->x;
            m->prev_y = m->y;
            m->x += sx;
            m->y += sy;
            m->moving = 1;
            return;
        }
    }
}

static void play_tick(play *p) {
    play_mover *m = &p->player;
    double dt = 1.0 / PLAY_HZ;
    if (m->moving) {
        m->move_t += m->speed * dt;
        m->walk += m->speed * dt;
        if (m->move_t < 1.0) {
            p->tick++;
            return;
        }
        /* Arrived; the overshoot carries into the next step so walking speed is exact. */
        m->move_t -= 1.0;
        m->moving = 0;
        m->prev_x = m->x;
        m->prev_y = m->y;
    }
    int dx = 0, dy = 0;
    if (!pop_tap(p, &dx, &dy)) held_direction(&dx, &dy);
    if (dx || dy) try_step(p, dx, dy);
    if (!m->moving) m->move_t = 0;
    p->tick++;
}

/* ---- drawing (reads only) ------------------------------------------------------------------ */

static void player_position(const play *p, double alpha, double *x, double *y) {
    const play_mover *m = &p->player;
    double t = m->moving ? pt_clamp(m->move_t + alpha * m->speed / PLAY_HZ, 0.0, 1.0) : 1.0;
    *x = m->prev_x + (m->x - m->prev_x) * t + 0.5;
    *y = m->prev_y + (m->y - m->prev_y) * t + 0.5;
}

static int play_draw(const play *p, pt_render *r, SDL_Renderer *sdl, pt_actor *actors, int nactors, double alpha,
                     double seconds) {
    int ow = 0, oh = 0;
    SDL_GetRendererOutputSize(sdl, &ow, &oh);
    pt_view v = {.time = seconds, .overlays = p->overlays};
    pt_view_fit(&v, &p->map, ow, oh, 0, 0);
    double px, py;
    player_position(p, alpha, &px, &py);
    pt_view_follow(&v, &p->map, px, py);

    /* actors[0] is the player; the rest stand where the map declares them until the world
     * moves them. */
    actors[0].x = px;
    actors[0].y = py;
    actors[0].heading = p->player.heading;
    actors[0].moving = p->player.moving;
    actors[0].walk = p->player.walk + (p->player.moving ? alpha * p->player.speed / PLAY_HZ : 0.0);
    pt_scene scene = {.map = &p->map, .actors = actors, .nactors = nactors};

    SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
    SDL_RenderClear(sdl);
    int rc = pt_render_draw(r, &scene, &v);

    /* HUD: map name, then the key help along the bottom. */
    int ts = v.scale > 1 ? v.scale / 2 : 1;
    const char *line = p->map.name[0] ? p->map.name : p->map.path;
    pt_draw_text(r, 4 * ts + ts, 4 * ts + ts, ts, 0x000000c0u, line);
    pt_draw_text(r, 4 * ts, 4 * ts, ts, 0xffffffffu, line);
    if (p->show_help) {
        const char *keys = "arrows/WASD walk  G grid  V cones  L labels  B bars  H help  Esc quit";
        int y = oh - (PT_GLYPH_PX + 4) * ts;
        pt_draw_text(r, 4 * ts + ts, y + ts, ts, 0x000000c0u, keys);
        pt_draw_text(r, 4 * ts, y, ts, 0xe0e0e0ffu, keys);
    }
    return rc;
}

/* ---- setup and the loop -------------------------------------------------------------------- */

static int parse_args(int argc, char **argv, const char **map_path, unsigned *overlays, long *max_ticks) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            help(stdout);
            return -1;
        } else if (strcmp(a, "--overlay") == 0) {
            if (i + 1 >= argc) return app_usage_error("play", "%s needs a list (e.g. grid,cones)", a);
            int bad = 0;
            if (!pt_overlay_parse(argv[++i], overlays, &bad))
                return app_usage_error("play", "--overlay: unknown overlay at '%s' (grid, cones, labels, "
                                       "awareness, all, none)", argv[i] + bad - 1);
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
    case SDL_SCANCODE_H: p->show_help = !p->show_help; break;
    default: break;
    }
    return 1;
}

int cmd_play(int argc, char **argv) {
    const char *map_path = NULL;
    unsigned overlays = 0;
    long max_ticks = 0;
    int prc = parse_args(argc, argv, &map_path, &overlays, &max_ticks);
    if (prc < 0) return APP_EXIT_OK;
    if (prc > 0) return prc;
    if (!map_path) map_path = app_default_map();

    static play p; /* large (the map's legend); one per process */
    memset(&p, 0, sizeof p);
    pt_error err;
    if (pt_map_load(&p.map, map_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    p.overlays = overlays;
    p.show_help = 1;
    pt_entity_def pd = p.map.player;
    pt_entity_def_resolve(&pd);
    p.player = (play_mover){.x = pd.x, .y = pd.y, .prev_x = pd.x, .prev_y = pd.y,
                            .heading = pt_rad(pd.heading_deg), .speed = pd.speed};

    int rc = APP_EXIT_INPUT;
    SDL_Window *win = NULL;
    SDL_Renderer *sdl = NULL;
    pt_render *r = NULL;
    int nactors = pt_render_actors_from_map(&p.map, NULL, 0);
    pt_actor *actors = PT_CALLOC((size_t)nactors, sizeof *actors);
    if (!actors) {
        fprintf(stderr, "patrol play: error: out of memory\n");
        pt_map_fini(&p.map);
        return APP_EXIT_INPUT;
    }
    pt_render_actors_from_map(&p.map, actors, nactors);

    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr,
                "patrol play: error: cannot start the video subsystem: %s\n"
                "  play needs a display: set DISPLAY (X11) or WAYLAND_DISPLAY, or choose a driver with\n"
                "  SDL_VIDEODRIVER (e.g. x11, wayland; 'dummy' runs without a window). Under no display,\n"
                "  try 'xvfb-run patrol play', or 'patrol render MAP --out map.png' for a picture.\n",
                SDL_GetError());
        PT_FREE(actors);
        pt_map_fini(&p.map);
        return APP_EXIT_INPUT;
    }
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
    SDL_RendererInfo info;
    int vsync = SDL_GetRendererInfo(sdl, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC);
    if (!(r = pt_render_create(sdl, NULL, &err))) {
        fprintf(stderr, "patrol play: ");
        pt_error_print(stderr, &err);
        goto done;
    }

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
            if (e.type == SDL_QUIT) running = 0;
            else if (e.type == SDL_KEYDOWN && !handle_key(&p, &e.key)) running = 0;
        }
        while (running && acc >= dt) {
            play_tick(&p);
            acc -= dt;
            if (max_ticks > 0 && p.tick >= (uint64_t)max_ticks) running = 0;
        }
        if (!running) break;
        if (play_draw(&p, r, sdl, actors, nactors, acc / dt, (double)(now - start) / (double)freq) < 0) {
            fprintf(stderr, "patrol play: error: out of memory while drawing\n");
            rc = APP_EXIT_INPUT;
            break;
        }
        SDL_RenderPresent(sdl);
        /* Never spin: without vsync (software renderer) or where vsync is claimed but not
         * honoured (virtual displays), cap the frame rate. */
        double cap = vsync ? 1.0 / 250 : 1.0 / 120;
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
        if (spent < cap) SDL_Delay((Uint32)((cap - spent) * 1000.0) + 1);
    }
    printf("player %d,%d\n", p.player.x, p.player.y);
    fflush(stdout);

done:
    pt_render_destroy(r);
    if (sdl) SDL_DestroyRenderer(sdl);
    if (win) SDL_DestroyWindow(win);
    SDL_Quit();
    PT_FREE(actors);
    pt_map_fini(&p.map);
    return rc;
}
