/* SPDX-License-Identifier: Zlib */
/* play_ui.h - private to the `patrol play` / `patrol replay` window (not the session, which
 * is play.h): what the files of the window share.
 *
 *   cmd_play.c     the command, its options, the loop (events, ticks, one frame drawn)
 *   cmd_replay.c   `patrol replay F.rec`: the same loop on a recording
 *   play_keys.c    the keys and the mouse during a round, F11, reloads
 *   play_menu.c    the title screen, the level select, the result (--levels, or no MAP)
 *   play_window.c  starting SDL's video, the renderer, the first window size
 *   play_frame.c   drawing a frame (also `patrol render`), the help panel's text
 */
#ifndef PATROL_APP_PLAY_UI_H
#define PATROL_APP_PLAY_UI_H

#include <stdint.h>
#include <stdio.h>

#include <SDL.h>

#include <patrol/render.h>

#include "game/audio.h"
#include "game/levels.h"
#include "game/play.h"
#include "game/progress.h"
#include "common/rec.h"

/* The simulation speeds + and - step through; the window starts at PLAY_SPEED_NORMAL (1x). */
enum { PLAY_SPEED_NORMAL = 2, PLAY_NSPEEDS = 5 };
extern const double play_speeds[PLAY_NSPEEDS];

/* The F1 panel: "KEY|what" lines in two columns; other lines are headings. */
extern const char *const play_help_text;

/* The level behind a menu (the title, the level select): play_draw_frame without the HUD
 * and without the debug overlays (the view cones stay), f as it was after. */
int play_draw_behind_menu(const play_session *s, pt_render *r, play_frame *f, int out_w, int out_h);

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

typedef struct play_ui {
    play_frame frame;
    int speed;            /* index into play_speeds */
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
    char quicksave_path[4096]; /* F6 / F9: the quick save slot file ("" = no pref path) */
    char best[160];       /* the win banner's line about the best time */
    long last_ms, last_old_ms; /* the last escape: its time, the best before it (-1 = none) */
    int last_new_best;
    char note[64];        /* a menu's note (M: the sound's state), shown in its footer ... */
    double note_until;    /* ... until this real time (seconds) */
} play_ui;

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
    char label[APP_LEVELS_MAX][96], detail[APP_LEVELS_MAX][64], marks[APP_LEVELS_MAX][32];
    char subtitle[1024];
} play_menus;

/* The session's log lines (--log, --log-moves) as the options ask: set by the loop
 * (cmd_play.c) and by the level select for each level it opens (play_menu.c). */
static inline void play_set_logs(play_session *s, const play_opts *o) {
    s->log = stdout;
    s->log_moves = o->log_moves || o->log_all;
    s->log_events = o->log_all;
}

/* cmd_play.c */
/* The window's loop over the session: play (o->replay NULL) or replay. An APP_EXIT_* code. */
int play_run(const play_opts *o);

/* play_keys.c */
/* The sound's state, for the note M, [ and ] show: "sound on - volume 8/10", "sound off -
 * volume 8/10", and " (no sound device)" after it when there is none to hear it. */
void play_sound_note(const play_ui *ui, char *buf, size_t cap);
/* --log: one UI event line (fmt with one %s). */
void play_ui_log(const play_ui *ui, const char *fmt, const char *arg);
pt_gait play_held_gait(void);
void play_held_direction(int *dx, int *dy);
/* Replay: to world tick `to` (at most the recording's end). */
void play_replay_jump(play_session *s, const play_ui *ui, uint64_t to);
/* After F5 or a --watch reload (rc < 0: failed, the game goes on as it was). */
void play_reloaded(const play_session *s, play_ui *ui, int rc, const pt_error *err, double now);
/* Window points -> output pixels (a high-DPI window has more pixels than points). */
void play_to_output(SDL_Window *win, SDL_Renderer *sdl, int *x, int *y);
/* A left click at window point (mx, my): a stone toward the cell under it. */
void play_click_throw(play_session *s, const play_ui *ui, SDL_Window *win, SDL_Renderer *sdl, int mx, int my);
void play_toggle_fullscreen(play_ui *ui, SDL_Window *win);
enum { PLAY_KEY_GO_ON, PLAY_KEY_QUIT, PLAY_KEY_STEP };
/* A key press during a round: PLAY_KEY_*. */
/* While the help shows: Up / PgUp and Down / PgDn turn its pages (1: the key was that). */
int play_help_key(play_ui *ui, int sym);
int play_handle_key(play_session *s, play_ui *ui, SDL_Window *win, const SDL_KeyboardEvent *k, double now);

/* play_menu.c */
/* The menu of the screen shown, from the state (the same for drawing and for the mouse). */
void play_menu_build(play_menus *pm, const play_session *s, const play_ui *ui, double now, pt_menu *m);
/* Acts on what the menu says: start a level, show another one behind the list, quit. */
void play_menu_did(play_menus *pm, app_menu_do d, play_session *s, play_ui *ui, const play_opts *o, app_rec *rec,
                   int *running);
/* An event while a menu shows. */
void play_menu_event(play_menus *pm, const SDL_Event *e, play_session *s, play_ui *ui, const play_opts *o,
                     app_rec *rec, SDL_Window *win, SDL_Renderer *sdl, double now, int *running);

/* play_window.c */
/* Starts SDL's video on a display (a dummy one only when the run ends by itself); 0, or -1
 * after printing why. */
int play_start_video(int ends_by_itself);
/* An accelerated renderer, or SDL's software one where OpenGL runs on the CPU. */
SDL_Renderer *play_make_renderer(SDL_Window *win);
/* The window's size at start for map: play_window_size_for on the display's usable size. */
void play_initial_window_size(const pt_map *map, int *w, int *h);

/* play_frame.c */
/* "M:SS.T" of s seconds (negative: 0). */
void play_fmt_clock(char *buf, size_t cap, double s);

#endif
