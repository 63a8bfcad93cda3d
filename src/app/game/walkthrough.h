/* SPDX-License-Identifier: Zlib */
/* walkthrough.h - a level's walkthrough as docs/playing.md writes it ("## Walkthroughs", one
 * "### N. TITLE" section per level), parsed into steps and played on a play_session through
 * the keys' path (taps, held arrows, held Shift / Ctrl), as a player following it would.
 *
 * Each numbered item of a section starts with one command in bold:
 *
 *     1. **Press Left** ...                       a tap of an arrow (it starts the clock)
 *     2. **Wait until the clock reads 0:13.0** ... the top bar's clock, M:SS.T
 *     3. **Walk Right 8 tiles** ...               hold the arrow(s) until 8 tiles are walked;
 *                                                 Sneak (Ctrl) and Run (Shift) the same
 *
 * Directions: Up, Down, Left, Right, or two arrows held together: Up+Left, Up+Right,
 * Down+Left, Down+Right. The rest of an item is prose for the player. A wait before the first
 * press or walk is refused (the clock reads 0:00.0 until the first move), and so is a clock
 * reading that does not come after the one before.
 *
 *     walk_route r;
 *     if (walk_parse(&r, "docs/playing.md", text, len, "Castle by the river", &err) < 0) ...
 *     walk_opts o = {0};
 *     walk_result res;
 *     walk_play(&s, &r, &o, &res);      // res.round: 1 escaped, -1 caught, 0 unfinished
 *     walk_route_fini(&r);
 */
#ifndef PATROL_APP_WALKTHROUGH_H
#define PATROL_APP_WALKTHROUGH_H

#include <stddef.h>
#include <stdint.h>

#include <patrol/error.h>
#include <patrol/world.h>

#include "game/play.h"

#define WALK_MAX_STEPS 256

typedef enum walk_kind { WALK_PRESS = 0, WALK_HOLD, WALK_UNTIL } walk_kind;

typedef struct walk_step {
    walk_kind kind;
    int dx, dy;           /* PRESS, HOLD: the arrows */
    int tiles;            /* HOLD: tiles to walk (1..999) */
    pt_gait gait;         /* HOLD: walk, sneak (Ctrl) or run (Shift) */
    long tenths;          /* UNTIL: the clock's reading in tenths of a second */
    int line, col;        /* where the item's command is */
} walk_step;

typedef struct walk_route {
    walk_step steps[WALK_MAX_STEPS];
    int n;
} walk_route;

/* Finds the section "### N. TITLE" under "## Walkthroughs" of the markdown text (name for
 * errors) and parses its numbered items. Errors, located: no such section (PT_ERR_MISSING, at
 * the "## Walkthroughs" heading, or line 0 without one), an item not numbered in order or
 * without a bold command (PT_ERR_SYNTAX), an unknown command or direction (PT_ERR_BAD_VALUE),
 * a count or a clock reading that does not read (PT_ERR_BAD_NUMBER), a wait before the first
 * move or not after the last one (PT_ERR_BAD_VALUE), no steps or too many (PT_ERR_EMPTY,
 * PT_ERR_LIMIT). */
int walk_parse(walk_route *r, const char *name, const char *text, size_t len, const char *title, pt_error *err);
/* Reads the file, then walk_parse. */
int walk_load(walk_route *r, const char *path, const char *title, pt_error *err);

/* How a player follows it, in ticks: the first key `first` ticks after the level starts; each
 * clock wait left `late` ticks after the reading shows (the first one `shift` ticks, which may
 * be negative: leaving early); `hesitate` ticks with no key before every press or walk after
 * the first. All 0: to the tick, the first key on the first tick. */
typedef struct walk_opts {
    int first, shift, late, hesitate;
    long max_ticks;       /* give up after this many ticks (0 = 36000, 10 minutes) */
    /* NULL, or called after every tick with the world (`patrol sim -v` prints its events). */
    void (*after_tick)(void *ctx, const pt_world *w);
    void *ctx;
} walk_opts;

typedef struct walk_result {
    int round;            /* the session's round at the end: 1 escaped, -1 caught, 0 neither */
    int steps_done;       /* steps finished (the one the round ended in not counted) */
    int behind;           /* clock waits reached when the clock had passed their reading */
    int blocked;          /* 1: a walk was stopped by a wall (no tile walked for 2 s) */
    uint64_t ticks;       /* world ticks played */
    double clock;         /* play_clock at the end */
} walk_result;

/* Plays r on s (a fresh round) until the round ends, the steps run out (then it waits up to
 * 2 s for the round to end) or max_ticks. Returns res->round. */
int walk_play(play_session *s, const walk_route *r, const walk_opts *o, walk_result *res);

#endif
