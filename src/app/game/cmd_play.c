/* SPDX-License-Identifier: Zlib */
/* patrol play [MAP]: the stealth game in a window. The player walks with the arrow keys or
 * WASD to the exit; guards patrol, notice, chase, search and return; a catch or the exit
 * ends the round (R starts again, F5 reloads the files).
 *
 * Loop (fixed timestep): each frame reads events, runs as many 1/60 s world ticks as real
 * time times the speed asks for (play_tick), then draws once (play_draw_frame) with the
 * fraction of a tick left over (alpha) so motion is smooth at any refresh rate. Update and
 * draw never mix: play_tick is the only place the game changes; drawing only reads it.
 * play_draw_frame (play_frame.c) is also what `patrol render` draws, so a PNG at tick N is
 * this window. The other files of the window: play_ui.h.
 */
#include "common/app.h"
#include "common/cli.h"
#include "game/audio.h"
#include "common/fstats.h"
#include "game/levels.h"
#include "game/progress.h"
#include "game/play.h"
#include "game/play_ui.h"
#include "game/replay.h"

#include <SDL.h>

#include <patrol/map.h>
#include <patrol/render.h>
#include <patrol/world.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void help(FILE *out) {
    char levels_buf[PT_MAX_PATH];
    fprintf(out,
            "usage: patrol play [MAP | --levels FILE] [--overlay[=LIST]] [--ticks N] [--stats] [--watch]\n"
            "                   [--record F.rec] [--log | --log-moves]\n"
            "\n"
            "Plays MAP in a window titled 'patrol': reach the exit without being caught.\n"
            "Without a MAP it opens the title screen, then the level select: the levels of a level\n"
            "list (default: %s), each with its best time and badges.\n"
            "The round's clock starts at your first move (a step or a stone); pause, the help\n"
            "panel and the menus stop it. Each round that ends prints one line to stdout:\n"
            "  escaped \"TITLE\" in 41.25 s (new best)\n"
            "  escaped \"TITLE\" in 44.10 s (best 41.25 s)     (no best part when no progress is kept)\n"
            "  caught \"TITLE\" by NAME after 12.30 s\n"
            "\n"
            "menus (title, level select, result):\n"
            "  Up / Down, W / S  choose        Enter / Space  ok        Esc  back (quit on the title)\n"
            "  mouse             point at a row to choose it, click to take it\n"
            "\n"
            "keys:\n"
            "  arrows / WASD   walk (hold to keep walking)\n"
            "  Shift (held)    run: faster, and footsteps guards hear from farther\n"
            "  Ctrl / C (held) sneak: slower, and footsteps only a guard close by hears\n"
            "  P / N           pause / one tick while paused\n"
            "  + / -           simulation speed, 0.25x .. 4x\n"
            "  R               restart the round\n"
            "  F5              reload the map and its patterns (a file with errors keeps the\n"
            "                  running game and shows the error)\n"
            "  F6 / F9         quick save / quick load (one slot: quicksave.sav in the folder\n"
            "                  of progress.txt; a save of another level is refused)\n"
            "  F1 / H          help (every key)\n"
            "  F11             fullscreen\n"
            "  M               sound on / off\n"
            "  [ / ]           sound volume down / up\n"
            "  Esc             quit (back to the level select when started from it)\n"
            "  Tab             all debug overlays on / off; one by one: V cones, O sight,\n"
            "                  X line-of-sight rays, I patterns, T planned paths, F steering,\n"
            "                  K memory, U hearing, B awareness bars, L names, G grid,\n"
            "                  E searched cells\n"
            "\n"
            "options:\n"
            "  --levels FILE   the level list of the level select: one map path a line, relative\n"
            "                  to FILE, '#' comments (docs/playing.md)\n"
            "  --overlay LIST  overlays shown at start (default: cones): grid, cones, sight, rays,\n"
            "                  patterns, paths, steer, memory, hearing, labels, awareness, search,\n"
            "                  debug,\n"
            "                  all, none;\n"
            "                  a bare --overlay means debug (everything but the grid)\n"
            "  --ticks N       quit by itself after N simulation ticks (1/60 s each)\n"
            "  --stats         on exit, print frame statistics to stderr: the median and worst\n"
            "                  frame time and CPU time per frame, and the CPU used (a share of one\n"
            "                  core); the debug overlay (Tab) shows the last second's figures\n"
            "  --watch         reload by itself when the map, a pattern file or the steering file\n"
            "                  changes on disk (looked at every 250 ms; like F5, and a change of\n"
            "                  patterns or steering only keeps the player and the clock)\n"
            "  --record F.rec  save the run when the game ends: the level's identity, the seed and\n"
            "                  the player's input on every tick (the last round: a restart or a\n"
            "                  reload starts the recording over); 'patrol sim --replay F.rec'\n"
            "                  plays it again\n"
            "  --log-moves     print 'move X,Y' each time the player enters a tile\n"
            "  --log           the moves and one line per game event (spotted NAME, lost NAME,\n"
            "                  caught NAME, escaped TICK, paused, speed X, reload ok, ...)\n"
            "  -h, --help      this help\n"
            "\n"
            "On exit it prints the player's final tile ('player X,Y').\n"
            "Needs a display: DISPLAY (X11) or WAYLAND_DISPLAY; SDL_VIDEODRIVER picks the driver.\n"
            "Without one it exits with status 1, unless --ticks N is given (it then runs unseen).\n",
            app_default_levels(levels_buf, sizeof levels_buf));
}

/* ---- the overlay option (play and render) -------------------------------------------------- */

static int looks_like_list(const char *s) {
    if (!s || !*s) return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || *s == ',')) return 0;
    return 1;
}

int play_overlay_option(const char *cmd, int argc, char **argv, int *i, unsigned *overlays) {
    const char *a = argv[*i], *list = NULL;
    if (strncmp(a, "--overlay=", 10) == 0) list = a + 10;
    else if (*i + 1 < argc && looks_like_list(argv[*i + 1])) list = argv[++*i];
    if (!list) {
        *overlays = PT_OVERLAY_DEBUG;
        return 1;
    }
    int bad = 0;
    if (!pt_overlay_parse(list, overlays, &bad)) {
        static const char names[] = "grid, cones, sight, rays, patterns, paths, steer, memory, hearing, labels, "
                                    "awareness, search, debug, all, none";
        const char *at = list + (bad > 0 ? bad - 1 : 0);
        char sug[64];
        int n = (int)strcspn(at, ",");
        if (pt_suggest(at, (size_t)n, names, sug, sizeof sug))
            app_usage_error(cmd, "--overlay: unknown overlay '%.*s'; did you mean '%s'?", n, at, sug);
        else
            app_usage_error(cmd, "--overlay: unknown overlay at '%s' (%s)", at, names);
        return 0;
    }
    return 1;
}

/* ---- the round's end ----------------------------------------------------------------------- */

/* The round was won: the level's best time and badges, saved at once (a crash later loses
 * nothing), the banner's line, and the line on stdout that scripts follow. A bad progress
 * file is reported and replaced. */
static void record_escape(const play_session *s, play_ui *ui) {
    char clock[64];
    play_fmt_clock(clock, sizeof clock, play_clock(s));
    snprintf(ui->best, sizeof ui->best, "time %s", clock);
    long ms = lround(play_clock(s) * 1000.0), old_ms = -1;
    int new_best = 0;
    if (ui->progress_path[0]) {
        static app_progress p; /* 24 KiB */
        app_progress_load(&p, ui->progress_path, stderr);
        const app_level_best *old = app_progress_find(&p, s->map_hash);
        old_ms = old ? old->best_ms : -1;
        int ghost, calm, no_stones;
        play_badges(s, &ghost, &calm, &no_stones);
        app_progress_record(&p, s->map_hash, ms, ghost, calm, no_stones, &new_best);
        if (app_progress_save(&p, ui->progress_path) != 0)
            fprintf(stderr, "patrol play: cannot save the progress in %s: %s\n", ui->progress_path, strerror(errno));
        if (old_ms >= 0 && !new_best) {
            char b[64];
            play_fmt_clock(b, sizeof b, old_ms / 1000.0);
            snprintf(ui->best, sizeof ui->best, "time %s   best %s", clock, b);
        } else if (old_ms >= 0) {
            snprintf(ui->best, sizeof ui->best, "time %s   NEW BEST!", clock);
        }
        if (ui->log) fprintf(ui->log, "best %s%s\n", ui->best, new_best ? " (new)" : ""), fflush(ui->log);
    }
    ui->last_ms = ms;
    ui->last_old_ms = old_ms;
    ui->last_new_best = new_best;
    app_round_line(stdout, play_level_title(s), 1, "", play_clock(s));
    if (new_best) printf(" (new best)");
    else if (old_ms >= 0) printf(" (best %.2f s)", old_ms / 1000.0);
    printf("\n");
    fflush(stdout);
}

static void report_caught(const play_session *s) {
    app_round_line(stdout, play_level_title(s), -1, s->caught_by, play_clock(s));
    printf("\n");
    fflush(stdout);
}

/* The ticks' sound cues, played (or dropped when silent). Footsteps: the surface picks the
 * sound, the gait its loudness, as the world's footstep noise goes. */
static void play_sounds(play_session *s, app_audio *audio) {
    int n = 0;
    const play_cue *c = play_take_cues(s, &n);
    static const app_sound steps[] = {APP_SND_STEP_SOFT, APP_SND_STEP_HARD, APP_SND_STEP_WOOD, APP_SND_STEP_WATER};
    static const app_sound sounds[PLAY_CUE_COUNT] = {APP_SND_STEP_SOFT, APP_SND_SUSPICIOUS, APP_SND_CHASE,
                                                     APP_SND_CALL,      APP_SND_THUD,       APP_SND_STEP_WATER,
                                                     APP_SND_CAUGHT,    APP_SND_ESCAPED};
    static const float gains[PLAY_CUE_COUNT] = {0.0f, 0.7f, 0.8f, 0.6f, 0.8f, 0.5f, 0.9f, 0.9f};
    for (int i = 0; i < n; i++) {
        if (c[i].kind == PLAY_CUE_STEP) {
            float g = c[i].gait == PT_GAIT_RUN ? 0.8f : c[i].gait == PT_GAIT_SNEAK ? 0.18f : 0.45f;
            app_audio_play(audio, steps[(unsigned)c[i].surface < 4 ? c[i].surface : 1], g);
        } else if ((unsigned)c[i].kind < PLAY_CUE_COUNT) {
            app_audio_play(audio, sounds[c[i].kind], gains[c[i].kind]);
        }
    }
}

static int parse_args(int argc, char **argv, const char **map_path, unsigned *overlays, long *max_ticks,
                      int *log_moves, int *log_all, int *watch, const char **record, int *stats,
                      const char **levels) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            help(stdout);
            return -1;
        } else if (strcmp(a, "--overlay") == 0 || strncmp(a, "--overlay=", 10) == 0) {
            if (!play_overlay_option("play", argc, argv, &i, overlays)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--log-moves") == 0) {
            *log_moves = 1;
        } else if (strcmp(a, "--log") == 0) {
            *log_all = 1;
        } else if (strcmp(a, "--watch") == 0) {
            *watch = 1;
        } else if (strcmp(a, "--stats") == 0) {
            *stats = 1;
        } else if (strcmp(a, "--levels") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) return app_usage_error("play", "--levels needs a level list file");
            *levels = argv[++i];
        } else if (strcmp(a, "--record") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) return app_usage_error("play", "--record needs a file name");
            *record = argv[++i];
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
    if (*map_path && *levels)
        return app_usage_error("play", "a map or --levels, not both (a map is played at once, --levels opens the "
                               "level select)");
    return 0;
}

int cmd_play(int argc, char **argv) {
    const char *map_path = NULL;
    unsigned overlays = PT_OVERLAY_CONES;
    long max_ticks = 0;
    int log_moves = 0, log_all = 0, watch = 0;
    const char *record = NULL;
    int stats = 0;
    const char *levels = NULL;
    int prc = parse_args(argc, argv, &map_path, &overlays, &max_ticks, &log_moves, &log_all, &watch, &record, &stats,
                         &levels);
    if (prc < 0) return APP_EXIT_OK;
    if (prc > 0) return prc;
    char levels_buf[PT_MAX_PATH];
    if (!map_path && !levels) {
        levels = app_default_levels(levels_buf, sizeof levels_buf);
        if (access(levels, R_OK) != 0) { /* a data folder without a level list: the demo alone */
            levels = NULL;
            map_path = app_default_map();
        }
    }
    play_opts o = {map_path, overlays, max_ticks, log_moves, log_all, watch, record, NULL, -1, stats, levels};
    return play_run(&o);
}

/* ---- the loop ------------------------------------------------------------------------------ */

#define RESULT_AFTER_S 2.0 /* the escape banner shows this long before the result screen (or Enter) */

int play_run(const play_opts *o) {
    const char *map_path = o->map_path, *record = o->record;
    unsigned overlays = o->overlays;
    long max_ticks = o->max_ticks;
    int log_all = o->log_all, watch = o->watch;
    static play_session s; /* large (the level's legend); one per process */
    static play_menus pm;  /* the level list and its screens (--levels) */
    pt_error err;
    pm.escaped_at = -1;
    if (o->levels) {
        pt_error why;
        pt_error_clear(&why);
        if (app_levels_load(&pm.levels, o->levels, &err, &why) < 0) {
            pt_error_print(stderr, &err);
            if (why.code < 0) pt_error_print(stderr, &why);
            return APP_EXIT_INPUT;
        }
        pm.on = 1;
        app_menu_init(&pm.menu, pm.levels.n);
        map_path = pm.levels.items[0].path; /* the first level behind the title */
    }
    if (play_open(&s, map_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    static app_rec rec;
    app_rec_init(&rec);
    if ((record && !pm.on && play_record(&s, &rec, &err) < 0) || (o->replay && play_replay(&s, o->replay, &err) < 0)) {
        pt_error_print(stderr, &err);
        play_close(&s);
        app_levels_fini(&pm.levels);
        return APP_EXIT_INPUT;
    }
    play_set_logs(&s, o);
    play_ui ui = {.frame = {.overlays = overlays, .hud = 1, .follow = 1}, .speed = PLAY_SPEED_NORMAL,
                  .log = log_all ? stdout : NULL};
    if (o->replay && o->jump > 0) play_replay_jump(&s, &ui, (uint64_t)o->jump);

    if (play_start_video(max_ticks > 0) < 0) {
        SDL_Quit();
        play_close(&s);
        app_levels_fini(&pm.levels);
        app_rec_fini(&rec);
        return APP_EXIT_INPUT;
    }
    int rc = APP_EXIT_INPUT;
    SDL_Window *win = NULL;
    SDL_Renderer *sdl = NULL;
    pt_render *r = NULL;
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    int ww, wh;
    play_initial_window_size(&s.level->map, &ww, &wh);
    win = SDL_CreateWindow("patrol", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, ww, wh,
                           SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win) {
        fprintf(stderr, "patrol play: error: cannot open a window: %s (check DISPLAY / SDL_VIDEODRIVER)\n",
                SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 320, 240);
    sdl = play_make_renderer(win);
    if (!sdl) {
        fprintf(stderr, "patrol play: error: cannot create a renderer: %s\n", SDL_GetError());
        goto done;
    }
    if (!(r = pt_render_create(sdl, NULL, &err))) {
        fprintf(stderr, "patrol play: ");
        pt_error_print(stderr, &err);
        goto done;
    }

    ui.audio = app_audio_open(pt_render_asset_dir(r), 0);
    int last_round = 0;
    if (!s.replay) {
        char *pref = SDL_GetPrefPath("patrol", "patrol");
        if (pref) snprintf(ui.progress_path, sizeof ui.progress_path, "%sprogress.txt", pref);
        if (pref) snprintf(ui.quicksave_path, sizeof ui.quicksave_path, "%squicksave.sav", pref);
        SDL_free(pref);
    }

    SDL_RendererInfo info;
    /* SDL's software renderer claims vsync but presents at once. */
    int vsync = SDL_GetRendererInfo(sdl, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC) &&
                !(info.flags & SDL_RENDERER_SOFTWARE) && !(info.name && strcmp(info.name, "software") == 0);
    long frames = 0;
    uint64_t ticks = 0;
    static app_fstats fst; /* 32 KiB of samples */
    app_fstats_init(&fst);
    const double cpu_begin = app_fstats_cpu_s(), wall_begin = app_fstats_now_s();
    const double dt = pt_world_dt(s.world);
    const Uint64 freq = SDL_GetPerformanceFrequency(), start = SDL_GetPerformanceCounter();
    Uint64 last = start;
    double acc = 0.0, next_look = APP_WATCH_POLL_MS / 1000.0;
    int running = 1;
    rc = APP_EXIT_OK;
    while (running) {
        const double cpu0 = app_fstats_cpu_s();
        Uint64 now = SDL_GetPerformanceCounter();
        double frame = (double)(now - last) / (double)freq, real = (double)(now - start) / (double)freq;
        last = now;
        if (frame > 0.25) frame = 0.25; /* after a stall, slow down rather than spiral */
        if (!ui.paused && !ui.help) acc += frame * play_speeds[ui.speed]; /* help stops the world, so the clock */

        int steps = 0;
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            int in_menu = pm.on && pm.menu.screen != APP_SCREEN_PLAY;
            if (e.type == SDL_QUIT) {
                running = 0;
            } else if (in_menu) {
                play_menu_event(&pm, &e, &s, &ui, o, &rec, win, sdl, real, &running);
            } else if (pm.on && e.type == SDL_KEYDOWN && !e.key.repeat && ui.help && e.key.keysym.sym == SDLK_ESCAPE) {
                ui.help = 0; /* Esc closes the help first */
                play_ui_log(&ui, "help %s", "off");
            } else if (pm.on && e.type == SDL_KEYDOWN && !e.key.repeat && !ui.help &&
                       (e.key.keysym.sym == SDLK_ESCAPE ||
                        (s.round > 0 && (e.key.keysym.sym == SDLK_RETURN || e.key.keysym.sym == SDLK_KP_ENTER ||
                                         e.key.keysym.sym == SDLK_SPACE)))) {
                /* From the level select: Esc goes back to it; after an escape, Enter goes on. */
                if (e.key.keysym.sym == SDLK_ESCAPE) {
                    play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_BACK), &s, &ui, o, &rec, &running);
                } else {
                    app_menu_escaped(&pm.menu);
                    play_menu_did(&pm, APP_MENU_SHOW, &s, &ui, o, &rec, &running);
                }
            } else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT && !ui.paused) {
                play_click_throw(&s, &ui, win, sdl, e.button.x, e.button.y);
            } else if (e.type == SDL_KEYDOWN) {
                int k = play_handle_key(&s, &ui, win, &e.key, real);
                if (k == PLAY_KEY_QUIT) running = 0;
                if (k == PLAY_KEY_STEP) steps++;
            }
        }
        if (watch && real >= next_look) {
            next_look = real + APP_WATCH_POLL_MS / 1000.0;
            int wrc = play_watch(&s, &err);
            if (wrc != 0) play_reloaded(&s, &ui, wrc, &err, real);
        }
        int dx, dy;
        play_held_direction(&dx, &dy);
        s.gait = play_held_gait();
        int in_menu = pm.on && pm.menu.screen != APP_SCREEN_PLAY;
        /* Behind a menu the guards walk and the player stands; its events are not the game's. */
        s.log_events = !in_menu && o->log_all;
        s.log_moves = !in_menu && (o->log_moves || o->log_all);
        if (in_menu) {
            dx = dy = 0;
            s.gait = PT_GAIT_WALK;
            s.ntaps = 0;
        }
        for (; running && steps > 0; steps--) {
            play_tick(&s, dx, dy);
            play_ui_log(&ui, "%s", "step");
            if (max_ticks > 0 && ++ticks >= (uint64_t)max_ticks) running = 0;
        }
        while (running && acc >= dt) {
            play_tick(&s, dx, dy);
            acc -= dt;
            if (max_ticks > 0 && ++ticks >= (uint64_t)max_ticks) running = 0;
        }
        if (in_menu) {
            int ncues;
            play_take_cues(&s, &ncues); /* a menu is quiet */
            last_round = s.round;
        }
        play_sounds(&s, ui.audio);
        if (s.round != last_round) {
            if (s.round > 0) record_escape(&s, &ui);
            else ui.best[0] = '\0';
            if (s.round < 0) report_caught(&s);
            if (s.round > 0 && pm.on) pm.escaped_at = real;
            last_round = s.round;
        }
        if (pm.on && pm.escaped_at >= 0 && !ui.help && real - pm.escaped_at >= RESULT_AFTER_S &&
            pm.menu.screen == APP_SCREEN_PLAY && s.round > 0) {
            app_menu_escaped(&pm.menu);
            play_menu_did(&pm, APP_MENU_SHOW, &s, &ui, o, &rec, &running);
        }
        if (!running) break;
        if (ui.error_until > 0 && real > ui.error_until) ui.error_until = 0;
        int ow = 0, oh = 0;
        SDL_GetRendererOutputSize(sdl, &ow, &oh);
        ui.frame.alpha = acc / dt;
        ui.frame.paused = ui.paused;
        ui.frame.tick_entry = ui.tick_entry;
        ui.frame.speed = play_speeds[ui.speed];
        ui.frame.help = ui.help;
        ui.frame.error = ui.error_until > 0 ? &ui.error : NULL;
        ui.frame.best = ui.best;
        ui.frame.perf = ui.frame.overlays & (PT_OVERLAY_DEBUG & ~PT_OVERLAY_CONES) ? ui.perf : NULL;
        ui.frame.from_levels = pm.on;
        in_menu = pm.on && pm.menu.screen != APP_SCREEN_PLAY;
        SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
        SDL_RenderClear(sdl);
        /* Behind a menu: the level alone. */
        if ((in_menu ? play_draw_behind_menu(&s, r, &ui.frame, ow, oh) : play_draw_frame(&s, r, &ui.frame, ow, oh)) < 0) {
            fprintf(stderr, "patrol play: error: out of memory while drawing\n");
            rc = APP_EXIT_INPUT;
            break;
        }
        if (in_menu) {
            pt_menu m;
            play_menu_build(&pm, &s, &ui, real, &m);
            pt_render_menu(r, &m, 0, 0, ow, oh);
            if (ui.help) {
                pt_hud h = {.help = play_help_text, .help_page = ui.frame.help_page};
                pt_render_hud(r, &h, 0, 0, ow, oh);
            }
        }
        SDL_RenderPresent(sdl);
        /* Never spin. With vsync the present waits for the display; without it (software
         * renderer), or where vsync is claimed but not honoured (virtual displays: the first
         * second runs faster than 100 frames a second), wait for about 60 frames a second. */
        if (++frames == 60 && vsync && (double)(SDL_GetPerformanceCounter() - start) / (double)freq < 0.6)
            vsync = 0;
        double cap = vsync ? 1.0 / 240 : 1.0 / 60;
        double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
        /* Whole milliseconds, rounded: truncating them ran the loop at 62-64 frames a second. */
        if (spent < cap) SDL_Delay((Uint32)lround((cap - spent) * 1000.0));
        app_fstats_add(&fst, spent * 1000.0, (app_fstats_cpu_s() - cpu0) * 1000.0);
        if (fst.frames % 30 == 0) {
            app_fstats_sum sum;
            app_fstats_summary(&fst, 60, &sum);
            snprintf(ui.perf, sizeof ui.perf, "frame %.1f/%.1f  cpu %.1f/%.1f ms", sum.work_median,
                     sum.work_worst, sum.cpu_median, sum.cpu_worst);
        }
    }
    if (o->stats) {
        double wall = app_fstats_now_s() - wall_begin, cpu = app_fstats_cpu_s() - cpu_begin;
        app_fstats_sum sum;
        app_fstats_summary(&fst, 0, &sum);
        int ow = 0, oh = 0;
        SDL_GetRendererOutputSize(sdl, &ow, &oh);
        fprintf(stderr,
                "stats: %ld frames in %.2f s (%.1f fps), %dx%d pixels, renderer %s%s\n"
                "stats: frame time  median %.2f ms  worst %.2f ms  (events, ticks, draw, present)\n"
                "stats: cpu a frame median %.2f ms  worst %.2f ms  (process CPU time)\n"
                "stats: cpu %.1f%% of one core (%.2f s of CPU in %.2f s); the median frame at 60 fps: %.1f%%\n",
                sum.frames, wall, wall > 0 ? sum.frames / wall : 0.0, ow, oh, info.name ? info.name : "?",
                vsync ? ", vsync" : "", sum.work_median, sum.work_worst, sum.cpu_median, sum.cpu_worst,
                wall > 0 ? 100.0 * cpu / wall : 0.0, cpu, wall, sum.cpu_median * 60.0 / 10.0);
    }
    const pt_entity *pl = pt_world_entity(s.world, 0);
    printf("player %d,%d\n", pl->x, pl->y);
    fflush(stdout);
    if (record && !rec.map[0]) {
        fprintf(stderr, "patrol play: no level was played; %s not written\n", record);
    } else if (record && s.rec_error) {
        fprintf(stderr, "patrol play: error: out of memory while recording; %s not written\n", record);
        rc = APP_EXIT_INPUT;
    } else if (record && app_rec_save(&rec, record, &err) < 0) {
        pt_error_print(stderr, &err);
        rc = APP_EXIT_INPUT;
    } else if (record) {
        fprintf(stderr, "patrol play: recorded %llu ticks into %s\n", (unsigned long long)rec.ticks, record);
    }

done:
    app_audio_close(ui.audio);
    play_frame_fini(&ui.frame);
    pt_render_destroy(r);
    if (sdl) SDL_DestroyRenderer(sdl);
    if (win) SDL_DestroyWindow(win);
    SDL_Quit();
    play_close(&s);
    app_levels_fini(&pm.levels);
    app_rec_fini(&rec);
    return rc;
}
