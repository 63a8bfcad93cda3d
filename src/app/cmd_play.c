/* SPDX-License-Identifier: Zlib */
/* patrol play [MAP]: the stealth game in a window. The player walks with the arrow keys or
 * WASD to the exit; guards patrol, notice, chase, search and return; a catch or the exit
 * ends the round (R starts again, F5 reloads the files).
 *
 * Loop (fixed timestep): each frame reads events, runs as many 1/60 s world ticks as real
 * time times the speed asks for (play_tick), then draws once (play_draw_frame) with the
 * fraction of a tick left over (alpha) so motion is smooth at any refresh rate. Update and
 * draw never mix: play_tick is the only place the game changes; drawing only reads it.
 * play_draw_frame is also what `patrol render` draws, so a PNG at tick N is this window.
 */
#include "app.h"
#include "audio.h"
#include "fstats.h"
#include "levels.h"
#include "progress.h"
#include "play.h"

#include <SDL.h>

#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/render.h>
#include <patrol/search.h>
#include <patrol/world.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double speeds[] = {0.25, 0.5, 1.0, 2.0, 4.0};
enum { SPEED_NORMAL = 2, NSPEEDS = (int)(sizeof speeds / sizeof speeds[0]) };
#define ERROR_SECONDS 8.0 /* a reload error box stays this long (or until a key) */

static const char *keys_hint = "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw   P pause   R restart   M mute   F1 help   Esc quit";
/* The same from the level select: Esc goes back to it. */
static const char *keys_hint_levels = "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw   P pause   R restart   M mute   F1 help   Esc levels";

/* The F1 panel: "KEY|what" lines in two columns; other lines are headings. */
static const char *help_text = "patrol - keys\n"
                               "arrows / WASD|walk (hold to keep walking)\n"
                               "Shift (held)|run: faster, louder footsteps\n"
                               "Ctrl / C (held)|sneak: slower, quieter footsteps\n"
                               "Space|throw a stone the way you face (a catch: skip to retry)\n"
                               "left click|throw a stone at a tile (8 tiles)\n"
                               "P|pause / resume\n"
                               "N|one tick while paused\n"
                               "+ / -|simulation speed (0.25x .. 4x)\n"
                               "R|restart the round\n"
                               "F5|reload the map and its patterns\n"
                               "F1 / H|this help\n"
                               "F11|fullscreen\n"
                               "M|sound on / off\n"
                               "[ / ]|sound volume down / up\n"
                               "Esc|quit (back to the level select when started there)\n"
                               "\n"
                               "debug overlays\n"
                               "Tab|all debug overlays on / off\n"
                               "V|view cones\n"
                               "O|cells each guard sees (sight)\n"
                               "X|line-of-sight rays to you\n"
                               "I|patrol patterns (paths, matrices)\n"
                               "T|planned paths (A* chase, return)\n"
                               "F|steering: velocity, radius, feelers, forces\n"
                               "K|what each guard remembers (memory)\n"
                               "E|the area searched together (search)\n"
                               "U|cells each noise reached (hearing)\n"
                               "B|awareness bars\n"
                               "L|names\n"
                               "G|tile grid";

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
        app_usage_error(cmd, "--overlay: unknown overlay at '%s' (grid, cones, sight, rays, patterns, paths, steer, "
                        "memory, hearing, labels, awareness, search, debug, all, none)", list + (bad > 0 ? bad - 1 : 0));
        return 0;
    }
    return 1;
}

/* ---- drawing (reads only) ------------------------------------------------------------------ */

static void fmt_clock(char *buf, size_t cap, double s) {
    if (!(s >= 0)) s = 0;
    long tenths = (long)floor(s * 10.0);
    snprintf(buf, cap, "%ld:%02ld.%ld", tenths / 600, (tenths / 10) % 60, tenths % 10);
}

/* A deterministic little shake after a catch (no RNG: the same tick draws the same). */
static void shake(double since, int ticks, double *dx, double *dy) {
    *dx = *dy = 0;
    if (since >= 0.45) return;
    double amp = 0.28 * (1.0 - since / 0.45);
    *dx = amp * sin(ticks * 2.1);
    *dy = amp * cos(ticks * 1.7 + 0.5);
}

static int grow(void **p, int *cap, int need, size_t size) {
    if (need <= *cap) return 1;
    int c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = PT_REALLOC(*p, size * (size_t)c);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

void play_frame_fini(play_frame *f) {
    PT_FREE(f->actors);
    PT_FREE(f->cells);
    pt_hearing_destroy(f->hearing);
    f->hearing = NULL;
    f->hearing_map = NULL;
    f->actors = NULL;
    f->cells = NULL;
    f->actors_cap = f->cells_cap = 0;
}

int play_frame_pick(const play_frame *f, int px, int py, int *cx, int *cy) {
    if (!(f->pick_unit > 0.0)) return 0;
    *cx = (int)floor(f->pick_cam_x + (px - f->pick_x) / f->pick_unit);
    *cy = (int)floor(f->pick_cam_y + (py - f->pick_y) / f->pick_unit);
    return 1;
}

/* The hearing overlay: each noise (and shout: a call travels as any noise) flooded again with
 * the guards' own flood, as it spread when it was made (a reload brings a new map: a new
 * flood object). */
static void draw_hearing(play_frame *f, pt_render *r, const pt_map *map, const pt_view *v, const pt_noise_mark *marks,
                         int n) {
    if (f->hearing_map != map) {
        pt_hearing_destroy(f->hearing);
        f->hearing = pt_hearing_create(map);
        f->hearing_map = f->hearing ? map : NULL;
    }
    if (!f->hearing) return;
    for (int i = 0; i < n; i++) {
        if (!(marks[i].age < PT_NOISE_RING_S)) continue;
        if (pt_hearing_flood(f->hearing, marks[i].x, marks[i].y, marks[i].loudness) <= 0) continue;
        const pt_hearing_cell *cells;
        int nc = pt_hearing_cells(f->hearing, &cells);
        pt_render_hearing(r, map, v, cells, nc, marks[i].loudness, marks[i].age);
    }
}

int play_draw_frame(const play_session *s, pt_render *r, play_frame *f, int out_w, int out_h) {
    const pt_world *w = s->world;
    const pt_map *map = pt_world_map(w);
    int n = pt_world_count(w);
    if (!grow((void **)&f->actors, &f->actors_cap, n > 0 ? n : 1, sizeof *f->actors)) return PT_ERR_NOMEM;
    int round = s->round;
    pt_render_actors_from_world(w, round ? 0.0 : f->alpha, f->actors, n);
    if (f->overlays & PT_OVERLAY_PATTERNS) {
        int need = pt_render_patterns_from_world(w, f->actors, n, f->cells, f->cells_cap);
        if (need > f->cells_cap && grow((void **)&f->cells, &f->cells_cap, need, sizeof *f->cells))
            pt_render_patterns_from_world(w, f->actors, n, f->cells, f->cells_cap);
    }
    play_catch_actors(s, f->actors, n); /* a catch: the catcher walks up, then the grab */
    double since = play_since_end(s), catch_t;
    play_catch_stage catch_at = play_catch_at(s, &catch_t);

    pt_view v = {.overlays = f->overlays, .time = (double)s->ticks * pt_world_dt(w)};
    int ts = f->hud_scale > 0 ? f->hud_scale : pt_hud_scale(out_w, out_h), top = 0, bottom = 0;
    if (f->hud) pt_hud_bars(ts, &top, &bottom);
    if (f->follow) {
        /* The map between the HUD's bars, so nothing walks under them. */
        if (out_h - top - bottom < out_h / 2) top = bottom = 0;
        pt_view_fit(&v, map, out_w, out_h - top - bottom, 0, 0);
        v.y = top;
        if (f->scale > 0) v.scale = f->scale;
        pt_view_follow(&v, map, f->actors[0].x, f->actors[0].y);
        if (catch_at == PLAY_CATCH_GRAB) {
            double dx, dy;
            shake(catch_t, (int)s->ticks, &dx, &dy);
            v.cam_x += dx;
            v.cam_y += dy;
        }
    } else {
        v.scale = f->scale > 0 ? f->scale : 1;
        v.y = top;
        v.w = out_w;
        v.h = out_h - top - bottom;
        if (v.h < 1) v.h = 1;
    }
    pt_scene scene = {.map = map, .actors = f->actors, .nactors = n};
    int rc = pt_render_draw(r, &scene, &v);
    long map_pw = 0, map_ph = 0;
    pt_view_map_size(map, v.scale > 0 ? v.scale : 1, &map_pw, &map_ph);
    f->pick_x = v.x;
    f->pick_y = v.y;
    f->pick_cam_x = v.cam_x;
    f->pick_cam_y = v.cam_y;
    f->pick_unit = map->w > 0 ? (double)map_pw / map->w : 0.0;
    pt_noise_mark marks[PLAY_NOISES], shouts[PLAY_NOISES];
    int nmarks = 0, nshouts = 0;
    for (int i = 0; i < s->nnoises; i++) {
        const pt_noise *nz = &s->noises[i];
        double age = ((double)(pt_world_tick(w) - nz->tick) + (round ? 0.0 : f->alpha)) * pt_world_dt(w);
        pt_noise_mark mk = {nz->x, nz->y, nz->loudness, age};
        if (nz->kind == PT_NOISE_SHOUT) shouts[nshouts++] = mk;
        else marks[nmarks++] = mk;
    }
    pt_search_info si;
    if ((f->overlays & PT_OVERLAY_SEARCH) && pt_world_search(w, &si))
        pt_render_search(r, map, &v, si.cells, si.searched, si.ncells, si.origin);
    if (f->overlays & PT_OVERLAY_HEARING) {
        draw_hearing(f, r, map, &v, marks, nmarks);
        draw_hearing(f, r, map, &v, shouts, nshouts);
    }
    pt_render_noise_rings(r, map, &v, marks, nmarks);
    if (catch_at == PLAY_CATCH_GRAB) pt_render_caught(r, map, &v, &f->actors[0], catch_t);
    pt_render_shout_rings(r, map, &v, shouts, nshouts);

    /* The exit, when it is off screen: a gold pointer at the edge. */
    int gx, gy;
    if (f->hud && round == 0 && play_nearest_goal(s, &gx, &gy)) {
        int pulse = 170 + (int)lround(80 * sin((double)s->ticks * 0.12));
        pt_draw_pointer(r, map, &v, gx + 0.5, gy + 0.5, 2 * ts, 0xf2be3c00u | (uint32_t)pulse);
    }
    if (f->hud && round == 0) pt_render_offscreen_guards(r, map, &v, f->actors, n, ts); /* guards off screen */
    if (!f->hud) return rc;

    char status[192], clock[64], text[320], title[96];
    fmt_clock(clock, sizeof clock, play_clock(s));
    pt_gait gait = pt_world_gait(s->world);
    const char *gname = gait == PT_GAIT_WALK ? "" : (gait == PT_GAIT_RUN ? "RUN  " : "SNEAK  ");
    char what[48] = "";
    if (s->replay && f->tick_entry && f->tick_entry[0])
        snprintf(what, sizeof what, "GO TO TICK %s_  ", f->tick_entry);
    else if (s->replay)
        snprintf(what, sizeof what, "REPLAY %llu/%llu  ", (unsigned long long)pt_world_tick(s->world),
                 (unsigned long long)s->replay->ticks);
    char stones[32];
    snprintf(stones, sizeof stones, "STONES %d  ", s->stones);
    if (fabs(f->speed - 1.0) > 1e-9) snprintf(status, sizeof status, "%s%s%s%s  x%g", what, stones, gname, clock, f->speed);
    else snprintf(status, sizeof status, "%s%s%s%s", what, stones, gname, clock);
    double phase_left = 0.0;
    pt_phase phase = pt_world_phase(s->world, &phase_left);
    char phase_txt[32] = "";
    if (phase != PT_PHASE_NORMAL) { /* normal says nothing */
        static const char *const words[PT_PHASE_COUNT] = {"", "ALERT", "EVASION", "CAUTION"};
        if (phase_left > 0.0) snprintf(phase_txt, sizeof phase_txt, "%s %.0f", words[phase], ceil(phase_left));
        else snprintf(phase_txt, sizeof phase_txt, "%s", words[phase]);
    }
    pt_hud_msg msgs[PLAY_MSGS];
    for (int i = 0; i < s->nmsgs; i++) {
        const play_msg *m = &s->msgs[i];
        double fade = m->ticks < 40 ? m->ticks / 40.0 : 1.0;
        msgs[i].text = m->text;
        msgs[i].rgba = (m->rgba & 0xffffff00u) | (uint32_t)lround((m->rgba & 0xffu) * fade);
    }
    pt_hud hud = {
        .scale = ts,
        .title = s->level->map.name[0] ? s->level->map.name : NULL,
        .objective = play_objective(s),
        .status = status,
        .alert = round < 0 ? 2 : round > 0 ? 0 : play_alert(s),
        .msgs = msgs,
        .nmsgs = s->nmsgs,
        .keys = f->from_levels ? keys_hint_levels : keys_hint,
        .notice = f->paused && !round ? "PAUSED   P: resume   N: one tick" : NULL,
        .help = f->help ? help_text : NULL,
        .error = f->error,
        .phase = phase_txt,
        .phase_kind = (int)phase,
        .perf = f->perf,
        .hidden = round == 0 && pt_world_player_hidden(s->world),
    };
    if (round > 0 || catch_at == PLAY_CATCH_DONE) {
        hud.banner = round;
        hud.banner_t = round > 0 ? since : catch_t;
        if (round > 0) {
            hud.banner_title = "YOU ESCAPED!";
            if (s->spotted == 0) snprintf(title, sizeof title, "never spotted - a ghost!");
            else snprintf(title, sizeof title, "spotted %d time%s", s->spotted, s->spotted == 1 ? "" : "s");
            char timeline[160];
            if (f->best && f->best[0]) snprintf(timeline, sizeof timeline, "%s", f->best);
            else snprintf(timeline, sizeof timeline, "time %s", clock);
            snprintf(text, sizeof text, "%s\n%s\n\n%s", timeline, title,
                     f->from_levels ? "Enter: go on   R: play again   Esc: levels" : "R: play again   Esc: quit");
        } else {
            hud.banner_title = "CAUGHT!";
            snprintf(title, sizeof title, "by %s", s->caught_by[0] ? s->caught_by : "a guard");
            snprintf(text, sizeof text, "%s after %s\n\nR: try again   Esc: %s", title, clock,
                     f->from_levels ? "levels" : "quit");
        }
        hud.banner_text = text;
    }
    if (catch_at == PLAY_CATCH_GRAB) hud.flash = catch_t < 0.35 ? 0.7 * (1.0 - catch_t / 0.35) : 0.0;
    pt_render_hud(r, &hud, 0, 0, out_w, out_h);
    return rc;
}

/* ---- the window ---------------------------------------------------------------------------- */

typedef struct play_ui {
    play_frame frame;
    int speed;            /* index into speeds */
    int paused;
    int help;
    int fullscreen;
    pt_error error;       /* the last reload error, shown until error_until */
    double error_until;   /* real seconds; 0 = no box */
    FILE *log;            /* --log: UI events too */
    char tick_entry[PLAY_TICK_DIGITS + 1]; /* a replay's tick box: the digits typed */
    char perf[96];        /* the debug overlay's frame readout (the last second) */
    app_audio *audio;     /* the sounds (silent without a device) */
    SDL_Rect saved;       /* the window before F11 (X11: fullscreen by hand) */
    char progress_path[4096]; /* "" = no progress kept (no pref path, or a replay) */
    char best[160];       /* the win banner's line about the best time */
    long last_ms, last_old_ms; /* the last escape: its time, the best before it (-1 = none) */
    int last_new_best;
} play_ui;

static void ui_log(const play_ui *ui, const char *fmt, const char *arg) {
    if (!ui->log) return;
    fprintf(ui->log, fmt, arg);
    fputc('\n', ui->log);
    fflush(ui->log);
}

/* Sneaking wins when both are held: the quiet choice is the safe one. */
static pt_gait held_gait(void) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    SDL_Keymod mod = SDL_GetModState();
    if ((mod & KMOD_CTRL) || k[SDL_SCANCODE_C]) return PT_GAIT_SNEAK;
    if (mod & KMOD_SHIFT) return PT_GAIT_RUN;
    return PT_GAIT_WALK;
}

static void held_direction(int *dx, int *dy) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    *dx = (k[SDL_SCANCODE_RIGHT] || k[SDL_SCANCODE_D]) - (k[SDL_SCANCODE_LEFT] || k[SDL_SCANCODE_A]);
    *dy = (k[SDL_SCANCODE_DOWN] || k[SDL_SCANCODE_S]) - (k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_W]);
}

static void toggle_overlay(play_ui *ui, unsigned bit) {
    ui->frame.overlays ^= bit;
    if (ui->log) {
        fprintf(ui->log, "overlay %s %s\n", pt_overlay_name(bit), ui->frame.overlays & bit ? "on" : "off");
        fflush(ui->log);
    }
}

/* Replay: to world tick `to` (at most the recording's end). Back in time is a restart and
 * the ticks again: the world is deterministic, and a run of a few thousand ticks is quick. */
static void replay_jump(play_session *s, const play_ui *ui, uint64_t to) {
    pt_error err;
    if (to > s->replay->ticks) to = s->replay->ticks;
    if (to < pt_world_tick(s->world) && play_restart(s, &err) < 0) {
        pt_error_print(stderr, &err);
        return;
    }
    while (pt_world_tick(s->world) < to && s->round == 0 && !play_replay_done(s)) play_tick(s, 0, 0);
    if (ui->log) fprintf(ui->log, "tick %llu\n", (unsigned long long)pt_world_tick(s->world)), fflush(ui->log);
}

/* After F5 or a --watch reload (rc < 0: failed, the game goes on as it was). */
static void reloaded(const play_session *s, play_ui *ui, int rc, const pt_error *err, double now) {
    if (rc < 0) {
        fprintf(stderr, "patrol play: reload failed; the game goes on with the last good version\n");
        pt_error_print(stderr, err);
        ui->error = *err;
        ui->error_until = now + ERROR_SECONDS;
    } else {
        fprintf(stderr, "patrol play: reloaded %s\n", s->path);
        ui->error_until = 0;
    }
}

enum { KEY_GO_ON, KEY_QUIT, KEY_STEP };

/* A left click: a stone toward the cell under the pointer (window points -> output pixels). */
static void click_throw(play_session *s, const play_ui *ui, SDL_Window *win, SDL_Renderer *sdl, int mx, int my) {
    int ww = 0, wh = 0, ow = 0, oh = 0, cx, cy;
    SDL_GetWindowSize(win, &ww, &wh);
    SDL_GetRendererOutputSize(sdl, &ow, &oh);
    if (ww > 0 && wh > 0) {
        mx = (int)((long)mx * ow / ww);
        my = (int)((long)my * oh / wh);
    }
    if (play_frame_pick(&ui->frame, mx, my, &cx, &cy)) play_throw(s, cx, cy, NULL, NULL); /* logged by the session */
}

static const char *level_title(const play_session *s) {
    return s->level->map.name[0] ? s->level->map.name : s->path;
}

/* The round was won: the level's best time and badges, saved at once (a crash later loses
 * nothing), the banner's line, and the line on stdout that scripts follow. A bad progress
 * file is reported and replaced. */
static void record_escape(const play_session *s, play_ui *ui) {
    char clock[64];
    fmt_clock(clock, sizeof clock, play_clock(s));
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
            fmt_clock(b, sizeof b, old_ms / 1000.0);
            snprintf(ui->best, sizeof ui->best, "time %s   best %s", clock, b);
        } else if (old_ms >= 0) {
            snprintf(ui->best, sizeof ui->best, "time %s   NEW BEST!", clock);
        }
        if (ui->log) fprintf(ui->log, "best %s%s\n", ui->best, new_best ? " (new)" : ""), fflush(ui->log);
    }
    ui->last_ms = ms;
    ui->last_old_ms = old_ms;
    ui->last_new_best = new_best;
    if (new_best) printf("escaped \"%s\" in %.2f s (new best)\n", level_title(s), play_clock(s));
    else if (old_ms >= 0) printf("escaped \"%s\" in %.2f s (best %.2f s)\n", level_title(s), play_clock(s), old_ms / 1000.0);
    else printf("escaped \"%s\" in %.2f s\n", level_title(s), play_clock(s));
    fflush(stdout);
}

static void report_caught(const play_session *s) {
    printf("caught \"%s\" by %s after %.2f s\n", level_title(s), s->caught_by[0] ? s->caught_by : "a guard",
           play_clock(s));
    fflush(stdout);
}

/* F11. Under X11 SDL's fullscreen asks the window manager (_NET_WM_STATE); without one (a
 * bare Xvfb, a kiosk) SDL then believed the window as large as the screen while X kept it
 * as it was, and the HUD was drawn for a size nobody saw. There a borderless window moved
 * and sized to the display by hand is the same to a user, with or without a manager. */
static void toggle_fullscreen(play_ui *ui, SDL_Window *win) {
    const char *drv = SDL_GetCurrentVideoDriver();
    int by_hand = drv && strcmp(drv, "x11") == 0;
    ui->fullscreen = !ui->fullscreen;
    if (!by_hand) {
        SDL_SetWindowFullscreen(win, ui->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    } else if (ui->fullscreen) {
        SDL_GetWindowPosition(win, &ui->saved.x, &ui->saved.y);
        SDL_GetWindowSize(win, &ui->saved.w, &ui->saved.h);
        SDL_Rect b;
        int d = SDL_GetWindowDisplayIndex(win);
        if (SDL_GetDisplayBounds(d < 0 ? 0 : d, &b) != 0) b = (SDL_Rect){0, 0, ui->saved.w, ui->saved.h};
        SDL_SetWindowBordered(win, SDL_FALSE);
        SDL_SetWindowPosition(win, b.x, b.y);
        SDL_SetWindowSize(win, b.w, b.h);
    } else {
        SDL_SetWindowBordered(win, SDL_TRUE);
        SDL_SetWindowSize(win, ui->saved.w, ui->saved.h);
        SDL_SetWindowPosition(win, ui->saved.x, ui->saved.y);
    }
    ui_log(ui, "fullscreen %s", ui->fullscreen ? "on" : "off");
}

/* The ticks' sound cues, played (or dropped when silent). Footsteps: the surface picks the
 * sound, the gait its loudness, as the world's footstep noise goes. */
static void play_sounds(play_session *s, app_audio *audio) {
    int n = 0;
    const play_cue *c = play_take_cues(s, &n);
    static const app_sound steps[] = {APP_SND_STEP_SOFT, APP_SND_STEP_HARD, APP_SND_STEP_WOOD, APP_SND_STEP_WATER};
    static const app_sound sounds[PLAY_CUE_COUNT] = {APP_SND_STEP_SOFT, APP_SND_SUSPICIOUS, APP_SND_CHASE,
                                                     APP_SND_CALL, APP_SND_THUD, APP_SND_CAUGHT, APP_SND_ESCAPED};
    static const float gains[PLAY_CUE_COUNT] = {0.0f, 0.7f, 0.8f, 0.6f, 0.8f, 0.9f, 0.9f};
    for (int i = 0; i < n; i++) {
        if (c[i].kind == PLAY_CUE_STEP) {
            float g = c[i].gait == PT_GAIT_RUN ? 0.8f : c[i].gait == PT_GAIT_SNEAK ? 0.18f : 0.45f;
            app_audio_play(audio, steps[(unsigned)c[i].surface < 4 ? c[i].surface : 1], g);
        } else if ((unsigned)c[i].kind < PLAY_CUE_COUNT) {
            app_audio_play(audio, sounds[c[i].kind], gains[c[i].kind]);
        }
    }
}

/* Acts on a key press. Movement goes by physical position (scancodes: WASD wherever the
 * layout puts those letters), commands by the letter they print. */
static int handle_key(play_session *s, play_ui *ui, SDL_Window *win, const SDL_KeyboardEvent *k, double now) {
    if (k->repeat) return KEY_GO_ON;
    if (ui->error_until > 0 && k->keysym.sym != SDLK_F5) ui->error_until = 0; /* any key hides the box */
    if (s->replay) { /* a replay's keys: the arrows and Home/End move through the recording */
        uint64_t now_t = pt_world_tick(s->world), step = 60, to;
        SDL_Keycode sym = k->keysym.sym;
        int key = sym >= SDLK_0 && sym <= SDLK_9     ? '0' + (int)(sym - SDLK_0)
                  : sym >= SDLK_KP_1 && sym <= SDLK_KP_9 ? '1' + (int)(sym - SDLK_KP_1)
                  : sym == SDLK_KP_0                 ? '0'
                  : sym == SDLK_BACKSPACE            ? '\b'
                  : sym == SDLK_ESCAPE               ? 27
                  : sym == SDLK_RETURN || sym == SDLK_KP_ENTER ? '\r'
                                                     : -1;
        int typed = key < 0 ? -1 : play_tick_entry_key(ui->tick_entry, key, s->replay->ticks, &to);
        if (typed == 1) replay_jump(s, ui, to);
        if (typed >= 0) return KEY_GO_ON;
        switch (sym) {
        case SDLK_RIGHT: replay_jump(s, ui, now_t + step); return KEY_GO_ON;
        case SDLK_LEFT: replay_jump(s, ui, now_t > step ? now_t - step : 0); return KEY_GO_ON;
        case SDLK_HOME: replay_jump(s, ui, 0); return KEY_GO_ON;
        case SDLK_END: replay_jump(s, ui, s->replay->ticks); return KEY_GO_ON;
        case SDLK_r: case SDLK_F5: return KEY_GO_ON; /* Home starts again; the level is the recorded one */
        default: break;
        }
    }
    if ((k->keysym.sym == SDLK_SPACE || k->keysym.sym == SDLK_RETURN) && play_catch_skip(s)) return KEY_GO_ON;
    switch (k->keysym.scancode) {
    case SDL_SCANCODE_RIGHT: case SDL_SCANCODE_D: if (!ui->paused && !ui->help) play_tap(s, 1, 0); return KEY_GO_ON;
    case SDL_SCANCODE_LEFT: case SDL_SCANCODE_A: if (!ui->paused && !ui->help) play_tap(s, -1, 0); return KEY_GO_ON;
    case SDL_SCANCODE_DOWN: case SDL_SCANCODE_S: if (!ui->paused && !ui->help) play_tap(s, 0, 1); return KEY_GO_ON;
    case SDL_SCANCODE_UP: case SDL_SCANCODE_W: if (!ui->paused && !ui->help) play_tap(s, 0, -1); return KEY_GO_ON;
    default: break;
    }
    pt_error err;
    switch (k->keysym.sym) {
    case SDLK_ESCAPE: return KEY_QUIT;
    case SDLK_SPACE:
        if (!ui->paused) play_throw_facing(s, NULL, NULL); /* logged by the session (--log) */
        break;
    case SDLK_p:
        ui->paused = !ui->paused;
        ui_log(ui, "%s", ui->paused ? "paused" : "resumed");
        break;
    case SDLK_n:
        if (ui->paused) return KEY_STEP;
        break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        if (ui->speed + 1 < NSPEEDS) ui->speed++;
        if (ui->log) fprintf(ui->log, "speed %g\n", speeds[ui->speed]), fflush(ui->log);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS: case SDLK_UNDERSCORE:
        if (ui->speed > 0) ui->speed--;
        if (ui->log) fprintf(ui->log, "speed %g\n", speeds[ui->speed]), fflush(ui->log);
        break;
    case SDLK_r:
        if (play_restart(s, &err) < 0) pt_error_print(stderr, &err);
        break;
    case SDLK_F5: reloaded(s, ui, play_reload(s, &err), &err, now); break;
    case SDLK_F1: case SDLK_h:
        ui->help = !ui->help;
        ui_log(ui, "help %s", ui->help ? "on" : "off");
        break;
    case SDLK_F11: toggle_fullscreen(ui, win); break;
    case SDLK_TAB:
        /* All debug overlays at once: off if any is on, else all on. */
        ui->frame.overlays = (ui->frame.overlays & (PT_OVERLAY_DEBUG & ~PT_OVERLAY_CONES))
                                 ? (ui->frame.overlays & ~PT_OVERLAY_DEBUG) | PT_OVERLAY_CONES
                                 : ui->frame.overlays | PT_OVERLAY_DEBUG;
        ui_log(ui, "debug %s", ui->frame.overlays & PT_OVERLAY_SIGHT ? "on" : "off");
        break;
    case SDLK_g: toggle_overlay(ui, PT_OVERLAY_GRID); break;
    case SDLK_v: toggle_overlay(ui, PT_OVERLAY_CONES); break;
    case SDLK_l: toggle_overlay(ui, PT_OVERLAY_LABELS); break;
    case SDLK_b: toggle_overlay(ui, PT_OVERLAY_AWARENESS); break;
    case SDLK_o: toggle_overlay(ui, PT_OVERLAY_SIGHT); break;
    case SDLK_t: toggle_overlay(ui, PT_OVERLAY_PATHS); break;
    case SDLK_i: toggle_overlay(ui, PT_OVERLAY_PATTERNS); break;
    case SDLK_m:
        app_audio_mute(ui->audio, !app_audio_muted(ui->audio));
        ui_log(ui, "sound %s", app_audio_muted(ui->audio) ? "off" : "on");
        break;
    case SDLK_LEFTBRACKET: case SDLK_RIGHTBRACKET: {
        int v = app_audio_volume(ui->audio, k->keysym.sym == SDLK_LEFTBRACKET ? -1 : 1);
        if (ui->log) fprintf(ui->log, "volume %d\n", v), fflush(ui->log);
        break;
    }
    case SDLK_x: toggle_overlay(ui, PT_OVERLAY_RAYS); break;
    case SDLK_f: toggle_overlay(ui, PT_OVERLAY_STEER); break;
    case SDLK_e: toggle_overlay(ui, PT_OVERLAY_SEARCH); break;
    case SDLK_k: toggle_overlay(ui, PT_OVERLAY_MEMORY); break;
    case SDLK_u: toggle_overlay(ui, PT_OVERLAY_HEARING); break;
    default: break;
    }
    return KEY_GO_ON;
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
static int start_video(int ends_by_itself) {
    const char *asked = getenv("SDL_VIDEODRIVER");
    if (asked && *asked) {
        if (SDL_Init(SDL_INIT_VIDEO) == 0) return 0;
        no_display(SDL_GetError());
        return -1;
    }
    char tried[256] = "";
    for (int i = 0; i < SDL_GetNumVideoDrivers(); i++) {
        const char *d = SDL_GetVideoDriver(i);
        if (!d || strcmp(d, "offscreen") == 0 || strcmp(d, "dummy") == 0 || strcmp(d, "evdev") == 0) continue;
        /* OVERRIDE: an empty SDL_VIDEODRIVER in the environment would otherwise win. */
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, d, SDL_HINT_OVERRIDE);
        if (SDL_Init(SDL_INIT_VIDEO) == 0) return 0;
        size_t n = strlen(tried);
        snprintf(tried + n, sizeof tried - n, "%s%s", n ? ", " : "", d);
    }
    if (ends_by_itself) {
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "dummy", SDL_HINT_OVERRIDE);
        if (SDL_Init(SDL_INIT_VIDEO) == 0) return 0;
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

static SDL_Renderer *make_renderer(SDL_Window *win) {
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

enum { MIN_WIN_W = 480, MIN_WIN_H = 320, FIT_TILES_W = 24, FIT_TILES_H = 14 };

/* A map the follow view shows whole (at most FIT_TILES_W x FIT_TILES_H tiles, pt_view_fit's
 * minimum) gets a window of the map at the largest scale (at most 4) that fits the display,
 * plus the HUD's bars: the map fills it. A larger map gets the window of the map at scale 2,
 * at most 9/10 of the display, and the camera follows the player. */
static void initial_window_size(const pt_map *map, int *w, int *h) {
    SDL_Rect bounds = {0, 0, 1280, 800};
    if (SDL_GetDisplayUsableBounds(0, &bounds) != 0 || bounds.w < 320 || bounds.h < 240)
        bounds = (SDL_Rect){0, 0, 1280, 800};
    long maxw = bounds.w * 9L / 10, maxh = bounds.h * 9L / 10, mw = 0, mh = 0;
    if (map->w <= FIT_TILES_W && map->h <= FIT_TILES_H) {
        for (int s = 4; s >= 1; s--) {
            pt_view_map_size(map, s, &mw, &mh);
            long ww = mw < MIN_WIN_W ? MIN_WIN_W : mw, wh = mh;
            for (int pass = 0; pass < 2; pass++) { /* the bars grow with the window's HUD scale */
                int top = 0, bottom = 0;
                pt_hud_bars(pt_hud_scale((int)ww, (int)wh), &top, &bottom);
                wh = mh + top + bottom;
            }
            if (wh < MIN_WIN_H) wh = MIN_WIN_H;
            if ((ww <= maxw && wh <= maxh) || s == 1) {
                *w = (int)(ww > maxw ? maxw : ww);
                *h = (int)(wh > maxh ? maxh : wh);
                return;
            }
        }
    }
    pt_view_map_size(map, 2, &mw, &mh);
    *w = (int)(mw < MIN_WIN_W ? MIN_WIN_W : mw > maxw ? maxw : mw);
    *h = (int)(mh < MIN_WIN_H ? MIN_WIN_H : mh > maxh ? maxh : mh);
}

typedef struct play_opts {
    const char *map_path;
    unsigned overlays;
    long max_ticks;
    int log_moves, log_all, watch;
    const char *record;       /* --record F.rec */
    const app_rec *replay;    /* patrol replay: the recording played back */
    long jump;                /* patrol replay --jump T (-1 = none) */
    int stats;                /* --stats: frame statistics on exit */
    const char *levels;       /* the level list: the title screen and the level select (NULL = MAP only) */
} play_opts;

static int play_run(const play_opts *o);

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

static void replay_help(FILE *out) {
    fprintf(out,
            "usage: patrol replay F.rec [MAP] [--jump TICK] [--overlay[=LIST]] [--ticks N] [--log]\n"
            "\n"
            "Plays back a recording of 'patrol play --record' in the window: the recorded level\n"
            "(or MAP, which must be the same level), the recorded seed and the player's input on\n"
            "every tick. When the recording ends the world stands still.\n"
            "\n"
            "keys:\n"
            "  P / N           pause / one tick while paused\n"
            "  + / -           playback speed, 0.25x .. 4x\n"
            "  Right / Left    one second (60 ticks) forward / back\n"
            "  Home / End      the first / the last recorded tick\n"
            "  0-9, Enter      type a tick and jump to it (Backspace, Esc: correct, cancel)\n"
            "  F1, F11, Esc, Tab and the overlay keys as in 'patrol play'\n"
            "\n"
            "options:\n"
            "  --jump TICK     start at this world tick (0 .. the recording's ticks)\n"
            "  --overlay LIST  overlays shown at start (as play; default: cones)\n"
            "  --ticks N       quit by itself after N ticks played (1/60 s each)\n"
            "  --log           one line per event, and 'tick T' after each jump\n"
            "  -h, --help      this help\n");
}

int cmd_replay(int argc, char **argv) {
    const char *rec_path = NULL, *map_path = NULL;
    play_opts o = {.overlays = PT_OVERLAY_CONES, .jump = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            replay_help(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--overlay") == 0 || strncmp(a, "--overlay=", 10) == 0) {
            if (!play_overlay_option("replay", argc, argv, &i, &o.overlays)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--log") == 0) {
            o.log_all = 1;
        } else if (strcmp(a, "--ticks") == 0 || strcmp(a, "--jump") == 0) {
            long v;
            if (!app_parse_long("replay", a, i + 1 < argc ? argv[i + 1] : NULL, a[2] == 't' ? 1 : 0, 1000000000L, &v))
                return APP_EXIT_USAGE;
            if (a[2] == 't') o.max_ticks = v;
            else o.jump = v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("replay", "unknown option '%s'", a);
        } else if (!rec_path) {
            rec_path = a;
        } else if (!map_path) {
            map_path = a;
        } else {
            return app_usage_error("replay", "a recording and at most one map ('%s')", a);
        }
    }
    if (!rec_path) return app_usage_error("replay", "which recording? (patrol replay F.rec)");
    static app_rec rec; /* outlives the session */
    pt_error err;
    if (app_rec_load(&rec, rec_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    if (o.jump > 0 && (uint64_t)o.jump > rec.ticks) {
        fprintf(stderr, "patrol replay: error: --jump %ld: the recording has %llu ticks\n", o.jump,
                (unsigned long long)rec.ticks);
        app_rec_fini(&rec);
        return APP_EXIT_USAGE;
    }
    o.map_path = map_path ? map_path : rec.map;
    o.replay = &rec;
    int rc = play_run(&o);
    app_rec_fini(&rec);
    return rc;
}

/* ---- the title screen, the level select, the result (--levels, or no MAP) ----------------------- */

#define RESULT_AFTER_S 2.0 /* the escape banner shows this long before the result screen (or Enter) */

/* What the screens around the levels need: the list, where the player is (levels.h), the
 * progress the list shows, and the rows drawn (kept so a click finds the row drawn). */
typedef struct play_menus {
    int on;                   /* 1: started at the title screen */
    app_levels levels;
    app_menu menu;
    int shown;                /* the level loaded in the session (played, or behind a menu) */
    double escaped_at;        /* real seconds of the last escape, while its banner shows (-1 = none) */
    app_progress progress;    /* as read when the list was last shown */
    pt_menu_row rows[APP_LEVELS_MAX];
    char label[APP_LEVELS_MAX][80], detail[APP_LEVELS_MAX][64], marks[APP_LEVELS_MAX][32];
    char subtitle[1024];
} play_menus;

static void set_logs(play_session *s, const play_opts *o) {
    s->log = stdout;
    s->log_moves = o->log_moves || o->log_all;
    s->log_events = o->log_all;
}

/* Opens level i of the list into s: a fresh round, recorded when played (--record; a level
 * behind a menu is not, so the recording keeps the last round played). On failure (the file
 * changed since the list was read) s keeps what it had and the error is printed. */
static int open_level(play_session *s, play_menus *pm, int i, const play_opts *o, app_rec *rec, int played) {
    static play_session next; /* large: not on the stack */
    pt_error err;
    if (play_open(&next, pm->levels.items[i].path, &err) < 0) {
        pt_error_print(stderr, &err);
        return -1;
    }
    if (played && o->record && play_record(&next, rec, &err) < 0) {
        pt_error_print(stderr, &err);
        play_close(&next);
        return -1;
    }
    play_close(s);
    *s = next;
    set_logs(s, o);
    pm->shown = i;
    return 0;
}

static const char *screen_name(app_screen sc) {
    static const char *const names[] = {"title", "levels", "play", "result", "quit"};
    return (unsigned)sc < sizeof names / sizeof names[0] ? names[sc] : "?";
}

static void badge_words(char *buf, size_t cap, int ghost, int calm, int no_stones) {
    snprintf(buf, cap, "%s%s%s%s%s", ghost ? "GHOST" : "", ghost && (calm || no_stones) ? " " : "", calm ? "CALM" : "",
             calm && no_stones ? " " : "", no_stones ? "NO-STONES" : "");
}

/* The menu of the screen shown, from the state (the same for drawing and for the mouse). */
static void build_menu(play_menus *pm, const play_session *s, const play_ui *ui, double now, pt_menu *m) {
    const app_menu *mn = &pm->menu;
    *m = (pt_menu){.selected = app_menu_selected(mn), .time = now};
    if (mn->screen == APP_SCREEN_TITLE) {
        m->title = "PATROL";
        m->subtitle = "a stealth game\n"
                      "slip past the guards to the exit - unseen if you can\n"
                      "\n"
                      "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw a stone";
        m->prompt = "press Enter";
        m->footer = "Enter start   F1 all keys   M sound   Esc quit";
    } else if (mn->screen == APP_SCREEN_LEVELS) {
        int escaped = 0;
        for (int i = 0; i < pm->levels.n; i++) {
            const app_level_item *it = &pm->levels.items[i];
            const app_level_best *b = app_progress_find(&pm->progress, it->hash);
            snprintf(pm->label[i], sizeof pm->label[i], "%2d  %s", i + 1, it->title);
            pm->marks[i][0] = '\0';
            if (b) {
                escaped++;
                fmt_clock(pm->detail[i], sizeof pm->detail[i], b->best_ms / 1000.0);
                badge_words(pm->marks[i], sizeof pm->marks[i], b->ghost, b->calm, b->no_stones);
            } else {
                snprintf(pm->detail[i], sizeof pm->detail[i], "new");
            }
            pm->rows[i] = (pt_menu_row){pm->label[i], pm->detail[i], pm->marks[i][0] ? pm->marks[i] : NULL, !b};
        }
        snprintf(pm->subtitle, sizeof pm->subtitle,
                 "%d of %d escaped   best times and badges:\n"
                 "GHOST never spotted   CALM no alarm   NO-STONES none thrown",
                 escaped, pm->levels.n);
        m->title = "CHOOSE A LEVEL";
        m->subtitle = pm->subtitle;
        m->rows = pm->rows;
        m->nrows = pm->levels.n;
        m->footer = "Up/Down choose   Enter play   Esc title   F1 keys   (or click a level)";
    } else if (mn->screen == APP_SCREEN_RESULT) {
        char clock[64], old[64], best[80], badges[48];
        fmt_clock(clock, sizeof clock, ui->last_ms / 1000.0);
        fmt_clock(old, sizeof old, ui->last_old_ms / 1000.0);
        if (ui->last_new_best && ui->last_old_ms >= 0) snprintf(best, sizeof best, "NEW BEST!");
        else if (ui->last_old_ms >= 0) snprintf(best, sizeof best, "best %s", old);
        else if (ui->last_new_best) snprintf(best, sizeof best, "first escape!");
        else best[0] = '\0';
        int ghost, calm, no_stones;
        play_badges(s, &ghost, &calm, &no_stones);
        badge_words(badges, sizeof badges, ghost, calm, no_stones);
        snprintf(pm->subtitle, sizeof pm->subtitle, "%s\n\ntime %s   %s\nbadges: %s", level_title(s), clock, best,
                 badges[0] ? badges : "none this time");
        m->title = "ESCAPED!";
        m->subtitle = pm->subtitle;
        int n = app_menu_rows(mn);
        for (int i = 0; i < n; i++) {
            app_result_choice c = app_menu_choice_at(mn, i);
            if (c == APP_RESULT_NEXT)
                snprintf(pm->label[i], sizeof pm->label[i], "next: %s", pm->levels.items[mn->level + 1].title);
            else snprintf(pm->label[i], sizeof pm->label[i], "%s", c == APP_RESULT_RETRY ? "play again" : "level list");
            pm->rows[i] = (pt_menu_row){pm->label[i], NULL, NULL, 0};
        }
        m->rows = pm->rows;
        m->nrows = n;
        m->footer = "Up/Down choose   Enter ok   Esc level list";
    }
}

/* Acts on what the menu says: start a level, show another one behind the list, quit. */
static void menu_did(play_menus *pm, app_menu_do d, play_session *s, play_ui *ui, const play_opts *o, app_rec *rec,
                     int *running) {
    app_menu *mn = &pm->menu;
    if (d == APP_MENU_NOTHING) return;
    if (ui->log && d != APP_MENU_MOVED) fprintf(ui->log, "screen %s\n", screen_name(mn->screen)), fflush(ui->log);
    if (mn->screen == APP_SCREEN_QUIT) {
        *running = 0;
        return;
    }
    pm->escaped_at = -1;
    if (d == APP_MENU_START) {
        if (open_level(s, pm, mn->level, o, rec, 1) < 0) {
            mn->screen = APP_SCREEN_LEVELS;
            return;
        }
        ui->paused = 0;
        ui->help = 0;
        ui->best[0] = '\0';
        if (ui->log) fprintf(ui->log, "level %d %s\n", mn->level + 1, s->path), fflush(ui->log);
        return;
    }
    if (mn->screen == APP_SCREEN_LEVELS) {
        if (d == APP_MENU_SHOW && ui->progress_path[0]) app_progress_load(&pm->progress, ui->progress_path, stderr);
        /* Behind the list: the level selected, its guards walking. */
        if (pm->shown != mn->level) open_level(s, pm, mn->level, o, rec, 0);
    }
}

static int menu_input_of(SDL_Keycode sym, app_menu_input *in) {
    switch (sym) {
    case SDLK_UP: case SDLK_w: case SDLK_KP_8: *in = APP_MENU_UP; return 1;
    case SDLK_DOWN: case SDLK_s: case SDLK_KP_2: *in = APP_MENU_DOWN; return 1;
    case SDLK_HOME: case SDLK_PAGEUP: *in = APP_MENU_HOME; return 1;
    case SDLK_END: case SDLK_PAGEDOWN: *in = APP_MENU_END; return 1;
    case SDLK_RETURN: case SDLK_KP_ENTER: case SDLK_SPACE: *in = APP_MENU_ENTER; return 1;
    case SDLK_ESCAPE: case SDLK_BACKSPACE: *in = APP_MENU_BACK; return 1;
    default: return 0;
    }
}

/* Window points -> output pixels (a high-DPI window has more pixels than points). */
static void to_output(SDL_Window *win, SDL_Renderer *sdl, int *x, int *y) {
    int ww = 0, wh = 0, ow = 0, oh = 0;
    SDL_GetWindowSize(win, &ww, &wh);
    SDL_GetRendererOutputSize(sdl, &ow, &oh);
    if (ww > 0 && wh > 0) {
        *x = (int)((long)*x * ow / ww);
        *y = (int)((long)*y * oh / wh);
    }
}

/* An event while a menu shows. */
static void menu_event(play_menus *pm, const SDL_Event *e, play_session *s, play_ui *ui, const play_opts *o,
                       app_rec *rec, SDL_Window *win, SDL_Renderer *sdl, double now, int *running) {
    app_menu_input in;
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode sym = e->key.keysym.sym;
        if (sym == SDLK_F1 || sym == SDLK_h) {
            ui->help = !ui->help;
            ui_log(ui, "help %s", ui->help ? "on" : "off");
        } else if (ui->help && sym == SDLK_ESCAPE) {
            ui->help = 0;
            ui_log(ui, "help %s", "off");
        } else if (sym == SDLK_F11 && !e->key.repeat) {
            toggle_fullscreen(ui, win);
        } else if (sym == SDLK_m && !e->key.repeat) {
            app_audio_mute(ui->audio, !app_audio_muted(ui->audio));
            ui_log(ui, "sound %s", app_audio_muted(ui->audio) ? "off" : "on");
        } else if (!ui->help && menu_input_of(sym, &in)) {
            menu_did(pm, app_menu_key(&pm->menu, in), s, ui, o, rec, running);
        }
    } else if ((e->type == SDL_MOUSEMOTION || (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT)) &&
               !ui->help) {
        int click = e->type == SDL_MOUSEBUTTONDOWN;
        int mx = click ? e->button.x : e->motion.x, my = click ? e->button.y : e->motion.y, ow = 0, oh = 0;
        to_output(win, sdl, &mx, &my);
        SDL_GetRendererOutputSize(sdl, &ow, &oh);
        pt_menu m;
        build_menu(pm, s, ui, now, &m);
        int row = pt_menu_row_at(&m, 0, 0, ow, oh, mx, my);
        menu_did(pm, app_menu_point(&pm->menu, row, click), s, ui, o, rec, running);
    }
}

static int play_run(const play_opts *o) {
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
    set_logs(&s, o);
    play_ui ui = {.frame = {.overlays = overlays, .hud = 1, .follow = 1}, .speed = SPEED_NORMAL,
                  .log = log_all ? stdout : NULL};
    if (o->replay && o->jump > 0) replay_jump(&s, &ui, (uint64_t)o->jump);

    if (start_video(max_ticks > 0) < 0) {
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
    initial_window_size(&s.level->map, &ww, &wh);
    win = SDL_CreateWindow("patrol", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, ww, wh,
                           SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win) {
        fprintf(stderr, "patrol play: error: cannot open a window: %s (check DISPLAY / SDL_VIDEODRIVER)\n",
                SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 320, 240);
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

    ui.audio = app_audio_open(pt_render_asset_dir(r), 0);
    int last_round = 0;
    if (!s.replay) {
        char *pref = SDL_GetPrefPath("patrol", "patrol");
        if (pref) snprintf(ui.progress_path, sizeof ui.progress_path, "%sprogress.txt", pref);
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
        if (!ui.paused && !ui.help) acc += frame * speeds[ui.speed]; /* help stops the world, so the clock */

        int steps = 0;
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            int in_menu = pm.on && pm.menu.screen != APP_SCREEN_PLAY;
            if (e.type == SDL_QUIT) {
                running = 0;
            } else if (in_menu) {
                menu_event(&pm, &e, &s, &ui, o, &rec, win, sdl, real, &running);
            } else if (pm.on && e.type == SDL_KEYDOWN && !e.key.repeat && ui.help && e.key.keysym.sym == SDLK_ESCAPE) {
                ui.help = 0; /* Esc closes the help first */
                ui_log(&ui, "help %s", "off");
            } else if (pm.on && e.type == SDL_KEYDOWN && !e.key.repeat && !ui.help &&
                       (e.key.keysym.sym == SDLK_ESCAPE ||
                        (s.round > 0 && (e.key.keysym.sym == SDLK_RETURN || e.key.keysym.sym == SDLK_KP_ENTER ||
                                         e.key.keysym.sym == SDLK_SPACE)))) {
                /* From the level select: Esc goes back to it; after an escape, Enter goes on. */
                if (e.key.keysym.sym == SDLK_ESCAPE) {
                    menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_BACK), &s, &ui, o, &rec, &running);
                } else {
                    app_menu_escaped(&pm.menu);
                    menu_did(&pm, APP_MENU_SHOW, &s, &ui, o, &rec, &running);
                }
            } else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT && !ui.paused) {
                click_throw(&s, &ui, win, sdl, e.button.x, e.button.y);
            } else if (e.type == SDL_KEYDOWN) {
                int k = handle_key(&s, &ui, win, &e.key, real);
                if (k == KEY_QUIT) running = 0;
                if (k == KEY_STEP) steps++;
            }
        }
        if (watch && real >= next_look) {
            next_look = real + APP_WATCH_POLL_MS / 1000.0;
            int wrc = play_watch(&s, &err);
            if (wrc != 0) reloaded(&s, &ui, wrc, &err, real);
        }
        int dx, dy;
        held_direction(&dx, &dy);
        s.gait = held_gait();
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
            ui_log(&ui, "%s", "step");
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
            menu_did(&pm, APP_MENU_SHOW, &s, &ui, o, &rec, &running);
        }
        if (!running) break;
        if (ui.error_until > 0 && real > ui.error_until) ui.error_until = 0;
        int ow = 0, oh = 0;
        SDL_GetRendererOutputSize(sdl, &ow, &oh);
        ui.frame.alpha = acc / dt;
        ui.frame.paused = ui.paused;
        ui.frame.tick_entry = ui.tick_entry;
        ui.frame.speed = speeds[ui.speed];
        ui.frame.help = ui.help;
        ui.frame.error = ui.error_until > 0 ? &ui.error : NULL;
        ui.frame.best = ui.best;
        ui.frame.perf = ui.frame.overlays & (PT_OVERLAY_DEBUG & ~PT_OVERLAY_CONES) ? ui.perf : NULL;
        ui.frame.from_levels = pm.on;
        in_menu = pm.on && pm.menu.screen != APP_SCREEN_PLAY;
        ui.frame.hud = !in_menu; /* behind a menu: the level alone */
        SDL_SetRenderDrawColor(sdl, 0, 0, 0, 255);
        SDL_RenderClear(sdl);
        if (play_draw_frame(&s, r, &ui.frame, ow, oh) < 0) {
            fprintf(stderr, "patrol play: error: out of memory while drawing\n");
            rc = APP_EXIT_INPUT;
            break;
        }
        if (in_menu) {
            pt_menu m;
            build_menu(&pm, &s, &ui, real, &m);
            pt_render_menu(r, &m, 0, 0, ow, oh);
            if (ui.help) {
                pt_hud h = {.help = help_text};
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
            snprintf(ui.perf, sizeof ui.perf, "frame %.1f ms (worst %.1f)  cpu %.1f ms (worst %.1f)", sum.work_median,
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
