/* SPDX-License-Identifier: Zlib */
/* play.h - the game behind `patrol play`, and the frame `patrol render` draws of it.
 *
 * A play_session owns a level (a map and its patterns, loaded together), the world made
 * from it and the round's bookkeeping: the player's key taps, times spotted, transient
 * messages, when the round ended. play_session.c has no SDL (its tests link the core
 * only); play_frame (play_frame.c) draws a session with the renderer for the window and for
 * the PNGs of `patrol render`, so both show the same picture.
 *
 *     play_session s;
 *     if (play_open(&s, "maps/demo.map", &err) < 0) ...   // nothing to close on failure
 *     play_tap(&s, 1, 0);                                   // a key press: one tile east
 *     for (...) play_tick(&s, held_dx, held_dy);            // one fixed world tick
 *     if (play_reload(&s, &err) < 0) ... // F5: s untouched on failure, err located
 *     if (play_watch(&s, &err) < 0) ...  // --watch: the same, when a file changed on disk
 *     play_close(&s);
 *
 * Memory: the level and the world are heap objects swapped whole on reload, so the world's
 * pointer to its pattern library never dangles.
 */
#ifndef PATROL_APP_PLAY_H
#define PATROL_APP_PLAY_H

#include <stdint.h>
#include <stdio.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/render.h> /* pt_actor, PT_CAUGHT_S: no SDL */
#include <patrol/world.h>

#include "common/rec.h"
#include "common/watch.h"

#define PLAY_TAPS 16          /* key presses queued, not yet acted on */
#define PLAY_MSGS 4           /* messages shown at once */
#define PLAY_MSG_TICKS 150    /* how long a message stays (2.5 s at 60 Hz), fading at the end */
#define PLAY_INTRO_TICKS 300  /* the opening hint */
#define PLAY_MAX_GOALS 4096   /* goal tiles remembered for the exit pointer */
#define PLAY_NOISES 64        /* recent noises kept for the rings the frame draws ... */
#define PLAY_NOISE_TICKS 60   /* ... for this many ticks (1 s at 60 Hz) */

#define PLAY_STONES 3         /* stones the player has at the start of a round */
#define PLAY_THROW_RANGE 8    /* the farthest a stone flies, in tiles along its line (Chebyshev) */
#define PLAY_STONE_LOUDNESS 10 /* the noise where a stone lands, in tiles (pt_world_noise; whole: recorded) */

#define PLAY_FLIGHTS 8        /* thrown stones kept for the frame (in the air, then the landing mark) ... */
#define PLAY_FLIGHT_KEEP_S 2.0 /* ... for this many seconds after the throw */

#define PLAY_CUES 32          /* sound cues kept until the window takes them */
#define PLAY_TRACK 256        /* entities whose state changes are followed for cues */

/* A catch as the window shows it (play_catch_at): the catcher is seen to reach the player,
 * then the grab, then the retry banner. Presentation only: the world stands still from the
 * catch tick on. */
#define PLAY_CATCH_REACH_S 0.4 /* the catcher walks from where it stood to beside the player */
#define PLAY_CATCH_GRAB_S PT_CAUGHT_S /* the grab: the caught sound, a flash and a starburst */
#define PLAY_CATCH_BESIDE 0.8  /* tiles between the player's centre and the catcher's at the end */

/* What the game should sound like after a tick: read from the world's events, noises and
 * states (play_tick), taken by the window (play_take_cues), never written back. */
typedef enum play_cue_kind {
    PLAY_CUE_STEP = 0,        /* the player entered a tile: gait and surface */
    PLAY_CUE_SUSPICIOUS,      /* a guard began to wonder ("?") */
    PLAY_CUE_CHASE,           /* a guard gave chase ("!", PT_EVENT_SPOTTED) */
    PLAY_CUE_CALL,            /* a guard called another for help (PT_EVENT_CALLED) */
    PLAY_CUE_THUD,            /* a noise made by pt_world_noise (a stone landing) */
    PLAY_CUE_DOUSE,           /* the player doused a light (play_douse) */
    PLAY_CUE_CAUGHT,
    PLAY_CUE_ESCAPED,
    PLAY_CUE_COUNT
} play_cue_kind;

typedef enum play_surface { PLAY_SURF_SOFT = 0, PLAY_SURF_HARD, PLAY_SURF_WOOD, PLAY_SURF_WATER } play_surface;

typedef struct play_cue {
    play_cue_kind kind;
    pt_gait gait;             /* STEP: the gait */
    play_surface surface;     /* STEP: what the tile sounds like */
} play_cue;

typedef struct play_level {
    pt_map map;
    pt_patlib lib;
    pt_cell *goals;           /* the map's goal tiles (at most PLAY_MAX_GOALS) */
    int ngoals;
} play_level;

typedef struct play_msg {
    char text[96];
    uint32_t rgba;            /* 0xRRGGBBAA at full strength */
    int ticks;                /* ticks left */
    int note;                 /* 1: a note (play_note): the next note replaces it */
} play_msg;

/* A stone thrown, as the frame draws it (presentation only: the world hears the stone where
 * it lands on the next tick): from the thrower's cell centre (x0, y0) to the landing cell
 * (x1, y1), thrown when the session's `ticks` was `tick`. */
typedef struct play_flight {
    double x0, y0;
    int x1, y1;
    uint64_t tick;
} play_flight;

/* How long the frame draws a flight of `tiles` tiles in the air, in seconds. */
#define PLAY_FLIGHT_S(tiles) (0.08 + 0.03 * (tiles))

typedef struct play_session {
    char path[PT_MAX_PATH];   /* the map file (reloaded from here) */
    play_level *level;
    pt_world *world;
    pt_world_desc desc;
    /* The round. */
    uint64_t ticks;           /* ticks played this round; counts on after it ends (animations) */
    uint64_t end_tick;        /* `ticks` when the round ended; 0 while it runs */
    int round;                /* pt_world_round after the last tick: 0, 1 won, -1 caught */
    int spotted;              /* times a guard gave chase (PT_EVENT_SPOTTED) */
    int alarmed;              /* 1 once the world's phase was ALERT this round */
    int stones;               /* stones left this round (PLAY_STONES at its start) */
    int thrown;               /* stones thrown this round */
    char caught_by[PT_MAX_NAME];
    /* The catch (round -1), for play_catch_*: the catcher's entity id (-1 = none known), its
     * drawn pose at the catch (x0, y0, h0) and beside the player (x1, y1, h1), the seconds
     * after the catch a key asked for the banner (-1 = not asked), the caught cue given. */
    int catcher;
    double catch_x0, catch_y0, catch_h0, catch_x1, catch_y1, catch_h1;
    double catch_skip;
    int catch_cued;
    play_msg msgs[PLAY_MSGS]; /* oldest first */
    int nmsgs;
    int intro;                /* msgs[0] is the opening hint (it fades at the first event) */
    signed char tap_dx[PLAY_TAPS], tap_dy[PLAY_TAPS];
    int ntaps;
    int reloads;              /* successful reloads so far */
    uint64_t map_hash;        /* the loaded map file's bytes (app_file_hash) */
    uint64_t clock_base;      /* clock ticks of this round before the last pattern-only reload */
    int started;              /* 1 once the player moved or threw this round: the clock runs */
    uint64_t start_tick;      /* the world tick the clock started at (the world's tick before the
                                 step that took the first move) */
    app_watch watch;          /* the level's files as last loaded or looked at (play_watch) */
    app_rec *rec;             /* the round's inputs are recorded here (NULL = not recording) */
    int rec_error;            /* a tick could not be recorded (out of memory): the file would lie */
    const app_rec *replay;    /* the player's input comes from here (NULL = the keys) */
    app_rec_cursor replay_at; /* the next recorded tick */
    pt_gait gait;             /* the player's gait from the next tick (held Shift / Ctrl) */
    pt_noise noises[PLAY_NOISES]; /* the world's noises and shouts (kind PT_NOISE_SHOUT) of the last
                                     PLAY_NOISE_TICKS, oldest first */
    int nnoises;
    play_flight flights[PLAY_FLIGHTS]; /* stones thrown in the last PLAY_FLIGHT_KEEP_S, oldest first */
    int nflights;
    play_cue cues[PLAY_CUES]; /* sound cues since the last play_take_cues (the newest dropped when full) */
    int ncues;
    unsigned char states[PLAY_TRACK]; /* each entity's pt_state after the last tick */
    /* Logging (for scripts and tests): "move X,Y" when the player enters a tile, and one
     * line per game event ("spotted NAME", "caught NAME", "escaped TICKS", ...). */
    FILE *log;
    int log_moves, log_events;
} play_session;

/* Loads the map at path and its patterns, and makes the world (a player moved by the keys,
 * the round ends when caught). On failure returns the code with err located and s holds
 * nothing to close. */
int play_open(play_session *s, const char *path, pt_error *err);
void play_close(play_session *s);

/* Starts the round again from the loaded level. On failure (out of memory) s is unchanged. */
int play_restart(play_session *s, pt_error *err);

/* Hot reload: loads the map file and its patterns again into fresh storage and makes a
 * new world. Only if both succeed are they swapped in (the old ones destroyed). When the
 * map file's bytes changed (or the round is over) a new round starts; when only pattern or
 * steering files changed, the player stays on its tile facing the same way, the round's
 * clock, counts and messages go on, and the guards start their (new) patterns afresh. On
 * failure returns the code, err located (file, line, column, source line), and the running
 * world, level and round are untouched. */
int play_reload(play_session *s, pt_error *err);

/* --watch: when a file of the level (the map, its pattern files, its steering file) changed
 * on disk since the last look, play_reload. Returns 0 when nothing changed, 1 after a
 * reload, or the reload's error code (s untouched, err located; the same change is not
 * tried again, the next save is). Call it every APP_WATCH_POLL_MS or so. */
int play_watch(play_session *s, pt_error *err);

/* --record: from now on every world tick's input goes into r (owned by the caller, which
 * saves it). The recording starts over at every new world (restart, reload), so it holds
 * the last round from its start. PT_OK or the error of hashing the level's files. */
int play_record(play_session *s, app_rec *r, pt_error *err);

/* Replay: checks that the loaded level is the one r was recorded on (else err is located
 * at r's `map` line and s is untouched), starts a round with r's seed, and from then on
 * every play_tick takes the player's input from r (taps and held keys are ignored) until
 * it runs out; then the world stands still. R (play_restart) replays from tick 0. r must
 * outlive the session's use of it. */
int play_replay(play_session *s, const app_rec *r, pt_error *err);
/* Quick save (play_save.c): the world and the round's counts (ticks, clock, stones, spotted,
 * alarm, the catch) to the slot file at path, with the level's path. PT_OK with a note on
 * screen, or the error (a note says it; a replay is not saved: PT_ERR_USAGE). */
int play_quick_save(play_session *s, const char *path, pt_error *err);
/* Quick load: the world and counts of the slot file at path, on the running level. A save of
 * another level (or of this one before its map file changed), a bad or missing file: the
 * error, a note on screen, and the running game goes on untouched. On success the round
 * goes on from the saved tick (messages, taps and the stones in the air cleared; a
 * recording starts over from there). In a replay: PT_ERR_USAGE. */
int play_quick_load(play_session *s, const char *path, pt_error *err);
/* Puts world w in the session (the old one destroyed) with a fresh round's bookkeeping and
 * no message: for play_quick_load. */
void play_adopt_world(play_session *s, pt_world *w);
/* 1 when a replay has played every recorded tick. */
int play_replay_done(const play_session *s);

/* The replay window's tick box: the digits typed so far (at most PLAY_TICK_DIGITS; "" = no
 * box). A key: '0'..'9' adds a digit, '\b' takes the last one back, 27 (Esc) closes the
 * box, '\r' (Enter) closes it and gives its tick in *to, at most max. Returns 1 for a tick
 * to jump to, 0 for a key the box used (or ignored: Enter with no digits, a digit too many),
 * -1 for a key it does not take (Esc with no box: the window's own). */
#define PLAY_TICK_DIGITS 10
int play_tick_entry_key(char *digits, int key, uint64_t max, uint64_t *to);

/* A key press: walk one tile (dx, dy) the next time the player may step, even when the
 * key was released before that tick. At most PLAY_TAPS wait; more are dropped. */
void play_tap(play_session *s, int dx, int dy);

/* A note for the player (a setting changed: sound on or off, the volume), shown as a
 * message in `rgba`; it replaces a note still showing. */
void play_note(play_session *s, uint32_t rgba, const char *text);

/* Throws a stone toward cell (x, y) (a mouse click). The stone flies along the Bresenham
 * line from the player's cell, at most PLAY_THROW_RANGE cells, and stops before the first
 * cell it cannot enter (pt_map_step_ok: a wall, water, a diagonal gap between two walls):
 * it lands on the last cell it reached, where pt_world_noise makes a noise of
 * PLAY_STONE_LOUDNESS in the next step. So a target beyond the range or behind a wall is
 * clamped to the nearer cell; *lx, *ly (either may be NULL) get the landing cell.
 * Returns 1 when thrown (one stone fewer), 0 when refused: no stones left, the round is
 * over, a replay is playing, the target is the player's own cell, or the stone could not
 * leave it (a wall right in front); refused for want of stones, it says "no stones left" (a
 * message; a repeat while it shows starts it again). A recording (play_record) holds the
 * throw; s->flights gets it for the frame. */
int play_throw(play_session *s, int x, int y, int *lx, int *ly);
/* The key throw: toward the direction the player faces (rounded to one of 8), as far as
 * PLAY_THROW_RANGE (play_throw's rules). */
int play_throw_facing(play_session *s, int *lx, int *ly);
/* The douse key: the player puts out the lit light within reach (pt_world_douse: its cell or
 * one of the 8 around it, the nearest), which makes a noise of 3 there in the next step.
 * Returns the light's index, or -1 when refused: the round is over, a replay is playing, or
 * no lit light is within reach (then it says "no light within reach"). A douse starts the
 * round's clock, plays PLAY_CUE_DOUSE, says "doused NAME" and goes in a recording. */
int play_douse(play_session *s);
/* 1 when the level has light to show (a light, or an ambient level below 1): the frame then
 * draws the visibility gem (docs/playing.md, "Light and darkness"). */
int play_lit(const play_session *s);

/* The badges the round earns when it was won (docs/playing.md, "Progress"): ghost (never
 * spotted), calm (no alarm phase), no stones (none thrown). Each 0 or 1. */
void play_badges(const play_session *s, int *ghost, int *calm, int *no_stones);

/* One fixed tick: the player's input (a waiting tap on the tick its step is due, else the
 * held direction), the world's step, its events turned into messages and counts. After the
 * round ended the world stands still and only the clocks of messages and animations run. */
void play_tick(play_session *s, int held_dx, int held_dy);

/* The sound cues since the last call (at most PLAY_CUES, oldest first); *n gets how many.
 * The array stays valid until the next play_tick. */
const play_cue *play_take_cues(play_session *s, int *n);
/* What a tile sounds like underfoot, by its legend name (water, bridge, grass, dirt, bush;
 * the rest hard). */
play_surface play_surface_of(const pt_tile_def *def);

/* The alert level the HUD shows: 2 when a guard chases the player, 1 when one is suspicious
 * or searching, else 0. */
int play_alert(const play_session *s);
/* Seconds on the round's clock. It starts at the player's first move (the first tick that
 * hands the world a step, or a stone thrown), so the guards may walk while the player looks
 * and 0 stays on the clock; it counts world ticks, so whatever does not tick the world
 * (pause, the help panel, menus) stops it. Frozen when the round ends; goes on over a
 * pattern-only reload. A replay's first move is on the same tick: the same time. */
double play_clock(const play_session *s);
/* Seconds since the round ended (0 while it runs). */
double play_since_end(const play_session *s);

/* A catch, as it is shown (nothing in the world moves; the round is over):
 *   REACH  PLAY_CATCH_REACH_S: the catcher's drawn pose goes from where it stood at the catch
 *          to beside the player, facing them (play_catch_pose); none when no catcher is known
 *   GRAB   PLAY_CATCH_GRAB_S: the caught cue at its start; the frame flashes the player
 *   DONE   the retry banner (R: try again)
 * A key (play_catch_skip) goes straight to DONE. */
typedef enum play_catch_stage { PLAY_CATCH_NONE = 0, PLAY_CATCH_REACH, PLAY_CATCH_GRAB, PLAY_CATCH_DONE } play_catch_stage;
/* The stage now, and through *t (may be NULL) the seconds spent in it; NONE (t 0) unless the
 * round was lost. */
play_catch_stage play_catch_at(const play_session *s, double *t);
/* The catcher's drawn position (tiles) and heading t seconds after the catch: at t <= 0 where
 * the world drew it at the catch, then along a straight line at a speed that eases out
 * (progress never goes back) to the end point of play_catch_target, reached at
 * PLAY_CATCH_REACH_S and kept after. Returns 0 (outputs untouched) when the round was not
 * lost or no catcher is known. */
int play_catch_pose(const play_session *s, double t, double *x, double *y, double *heading);
/* Where a catcher at (gx, gy), heading gh, ends when it reaches the player at (px, py) on map m:
 * PLAY_CATCH_BESIDE tiles from the player on the straight line to it; when that line crosses a
 * cell a guard cannot walk (or squeezes between two diagonal walls), the nearest of the 8
 * points around the player at that distance, on the guard's side, that a straight line over
 * walkable cells reaches; else (or when already that close) where it stands. *ex, *ey get
 * the point, *eh the heading from it to the player (gh when they coincide). Returns 1 when
 * the catcher moves, 0 when it holds. */
int play_catch_target(const pt_map *m, double gx, double gy, double gh, double px, double py, double *ex, double *ey,
                      double *eh);
/* A key during REACH or GRAB: the banner now (and the caught cue, if not given yet). Returns
 * 1 when it skipped, 0 when there was nothing to skip. */
int play_catch_skip(play_session *s);
/* The actors of a frame after pt_render_actors_from_world (alpha 0 once the round is over):
 * the catcher at play_catch_pose (walking while it moves, a short lunge at the grab), the
 * player without its caught starburst until the grab. Nothing outside a catch. */
void play_catch_actors(const play_session *s, pt_actor *actors, int n);

/* The level's name, else its path (the menus, the round's end line). */
const char *play_level_title(const play_session *s);
/* What the player must do, for the HUD. */
const char *play_objective(const play_session *s);
/* The nearest goal tile to the player (for the pointer); 0 when the map has none. */
int play_nearest_goal(const play_session *s, int *gx, int *gy);

/* ---- drawing a session (play_frame.c; needs the renderer) ----------------------------------- */

struct pt_render;

/* How to draw a frame, and the scratch it draws with (play_frame_fini frees it). */
typedef struct play_frame {
    unsigned overlays;        /* PT_OVERLAY_* */
    int hud;                  /* 1: the HUD (top bar, messages, key hint, banners) */
    int hud_scale;            /* its font scale; 0 = from the output size (pt_hud_scale) */
    int follow;               /* 1: the window's layout (play_layout_for: the whole map when it
                                 fits, else a camera on the player); 0: the whole map at `scale`
                                 (with the HUD: between its bars, the output that much taller) */
    int scale;                /* pixels per sprite pixel; 0 = as play_layout_for picks (follow);
                                 with follow, a scale given always follows the player */
    double alpha;             /* fraction of a tick since the last step (smooth motion) */
    int paused;
    double speed;             /* simulation speed shown in the HUD (1 = normal) */
    int help;                 /* the key help panel */
    int help_page;            /* its page, when it takes more than one (pt_hud.help_page) */
    const pt_error *error;    /* a reload error to show (NULL = none) */
    const char *tick_entry;   /* a replay's tick box being typed ("" or NULL = none) */
    const char *perf;         /* the frame-time readout of the debug overlay (NULL = none) */
    const char *best;         /* the win banner's time line ("time 0:41.2   best 0:39.0"); NULL = the time */
    int from_levels;          /* 1: started from the level select (Esc goes back to it, not out) */
    /* set by play_draw_frame: where the map was drawn (for play_frame_pick) */
    int pick_x, pick_y;       /* the view rectangle's top-left pixel */
    double pick_cam_x, pick_cam_y, pick_unit; /* its map position (tiles), pixels per tile (0 = none) */
    /* scratch */
    struct pt_actor *actors;
    int actors_cap;
    pt_cell *cells;
    int cells_cap;
    struct pt_hearing *hearing; /* the hearing overlay's flood, for hearing_map */
    const pt_map *hearing_map;
} play_frame;

/* Where the game's screen puts things in an out_w x out_h output: the HUD's bars (top_h
 * pixels at the top, bottom_h at the bottom, the whole width) and the view between them. The
 * map is shown whole, centred in the view (on whole sprite pixels), at the largest whole
 * scale at which it fits there; a map that does not fit at scale 1 is shown at the largest
 * scale that still shows min(map, 24 x 14) tiles (at least 1), and the camera follows the
 * player (follow = 1): then the view is whole sprite pixels across (what is left over, under
 * one, is split on both sides). A view under one pixel high is one pixel high. */
typedef struct play_layout {
    int scale;                      /* output pixels per sprite pixel */
    int follow;                     /* 1: the map is larger than the view: the camera follows */
    int view_x, view_y, view_w, view_h; /* the view: the output between the bars */
    double cam_x, cam_y;            /* not following: the camera (tiles) that centres the map */
    int map_x, map_y;               /* not following: the map's top-left pixel */
    int top_h, bottom_y, bottom_h;  /* the bars: (0, 0, out_w, top_h), (0, bottom_y, out_w, bottom_h) */
} play_layout;
/* The layout of a map_w x map_h map of tile_px pixels a tile in out_w x out_h, bars of top and
 * bottom pixels (0 and 0: no HUD). Pure. */
play_layout play_layout_for(int map_w, int map_h, int tile_px, int out_w, int out_h, int top, int bottom);
/* The window's first size for a map on a display of disp_w x disp_h usable pixels: the whole
 * map and the HUD's bars at the largest scale (at most 4) that fits 9/10 of the display (at
 * least 480 x 320); a map that fits there at no scale gets 9/10 of the display (the camera
 * follows). Pure. */
void play_window_size_for(int map_w, int map_h, int tile_px, int disp_w, int disp_h, int *w, int *h);

/* Draws the session into the whole output of r (does not present). PT_OK or PT_ERR_NOMEM. */
int play_draw_frame(const play_session *s, struct pt_render *r, play_frame *f, int out_w, int out_h);
void play_frame_fini(play_frame *f);
/* The map cell under output pixel (px, py) of the last frame drawn; 0 when none was drawn. */
int play_frame_pick(const play_frame *f, int px, int py, int *cx, int *cy);

/* The command-line overlay option shared by play and render: "--overlay=LIST", "--overlay
 * LIST" (the next argument taken as a list when it is only letters and commas), or a bare
 * "--overlay" (PT_OVERLAY_DEBUG). *i is advanced past a consumed list. Returns 1, or 0
 * after printing a usage error. */
int play_overlay_option(const char *cmd, int argc, char **argv, int *i, unsigned *overlays);

#endif
