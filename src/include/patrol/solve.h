/* SPDX-License-Identifier: Zlib */
/* patrol/solve.h - the level solver and the guards' sight table.
 *
 * A sight table records, for ticks 1..T of a world whose player nobody notices, every cell a
 * guard sees on that tick: the guard's own sight test of perceive (pt_can_see from its
 * position and heading of that tick, to the cell's centre), called at the moment the world
 * calls it. It is what `patrol render --heatmap` draws and what the solver avoids.
 *
 *     pt_sightmap sm;
 *     if (pt_sightmap_build(&sm, &map, &lib, 0, 3600, &err) == PT_OK) {
 *         int n = pt_sightmap_seen(&sm, 120, 5, 7);   // 1: a guard sees cell 5,7 on tick 120
 *         pt_sightmap_fini(&sm);
 *     }
 *
 * The solver finds a route from the player's start to a goal tile on which no guard ever sees
 * the player, as a control pattern the player can walk (`patrol sim --player-pattern`):
 *
 *     pt_solve_opts o = {0};                 // zero = defaults (below)
 *     pt_solve_result r;
 *     if (pt_solve(&map, &lib, &o, &r, &err) == PT_OK && r.found) {
 *         pt_solve_write_pattern(&r, stdout, "solved");
 *         printf("%d ticks, margin %d ticks\n", r.ticks, r.margin_ticks);
 *     }
 *     pt_solve_result_fini(&r);
 *
 * Why it is exact: while no guard sees the player, the guards do not depend on the player
 * (awareness stays 0, nothing else a guard reads comes from the player; prey and flocks do
 * flee from the player, but guards never read them), so one run of the world per seed gives
 * the guards' sight on every tick. The search is then over the player's own timing, which
 * it follows tick for tick as the world does: one action each time the player's step clock
 * (speed x dt per tick, the same floating-point sums) passes 1; an action is a step along
 * the heading (`forward` / `backward`), a turn (`right`), or the start of a `wait N`, which
 * holds the clock for N ticks. Steps obey pt_map_step_ok. "Seen" is stricter than spotted:
 * the player's cell is in some guard's view on some tick (any tick that would raise a
 * guard's awareness), so a solved route keeps every guard calm and is never caught.
 * Nor does any guard hear it: a step is refused when the world's footstep noise for it (the
 * gait's loudness x the tile's footstep, or the tile's noise) flooded with pt_hearing_flood
 * is above the threshold of a guard listening then (the guards' cells per tick come from the
 * same run), and cells where the player would startle an animal are avoided. The route has
 * one gait: the earliest of walk, run, sneak (opts.gait: one of them); a route not in walk
 * begins with its `gait` action.
 *
 * Cost: the sight table is T x cells bits (T = max_ticks, plus margin_ticks) and one world run of T ticks per
 * seed, each guard's cells recomputed only on ticks it moved or turned (about cells in its
 * view x pt_can_see). The search visits at most (T + 1) x cells x 4 headings x K x 2 states,
 * one bit each, where K counts the classes of the player's step clock in the gait: its
 * first actions before the step rhythm repeats, and the rhythm's period R (1 for speeds that
 * divide 60 ticks evenly, e.g. 2, 3, 4, 5, 6 tiles/s; 7 at 3.5 tiles/s; at other speeds
 * the floating-point clock drifts and K grows with the horizon). A gait whose search would
 * take the memory over PT_SOLVE_MAX_BYTES is left out (result.gaits_left_out). The memory
 * in all: docs/solve.md.
 */
#ifndef PATROL_SOLVE_H
#define PATROL_SOLVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

#define PT_SOLVE_DEFAULT_MAX_TICKS 3600 /* 60 s at 60 Hz */
#define PT_SOLVE_MAX_TICKS 100000       /* a wait is at most 100000 ticks */
#define PT_SOLVE_MAX_BYTES (1024L * 1024 * 1024) /* sight tables + search bits */
#define PT_SOLVE_MARGIN_CAP 600         /* margin_ticks is at most this (no sight near) */
/* Kept for games that built against it: a step rhythm is no longer limited (only the memory
 * cap leaves a gait out, named in gaits_left_out). */
#define PT_SOLVE_MAX_RHYTHM 64
#define PT_SIGHTMAP_DEFAULT_TICKS 3600  /* `patrol render --heatmap`: ticks 1..3600 (60 s) */

/* ---- the sight table ---- */
typedef struct pt_sightmap {
    int w, h;         /* the map's size */
    int ticks;        /* T: ticks 1..T are recorded */
    size_t stride;    /* 64-bit words per tick */
    uint64_t *bits;   /* tick t (1..T), cell (x, y): bit y * w + x of row t - 1 */
} pt_sightmap;

/* Runs the map's world for ticks 1..ticks with a player nobody notices (seed 0 = the map's
 * seed, or 1) and records the cells the guards see. PT_OK, or err set: PT_ERR_UNKNOWN_PATTERN
 * (as pt_world_create), PT_ERR_LIMIT (more than PT_SOLVE_MAX_BYTES), PT_ERR_NOMEM. */
int pt_sightmap_build(pt_sightmap *sm, const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks,
                      pt_error *err);
/* The same for a player in gait `gait`: on a map whose ambient level is below 1, what a guard
 * notices depends on the player's visibility (docs/ai.md, "Light"; docs/solve.md, "Light"),
 * so each gait has its own table; pt_sightmap_build is the walk gait's. On a lit map every
 * gait's table is the same. PT_ERR_RANGE for a bad gait, else as pt_sightmap_build. */
int pt_sightmap_build_gait(pt_sightmap *sm, const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks,
                           pt_gait gait, pt_error *err);
/* 1 when a guard sees cell (x, y) on tick t (1..ticks); 0 outside the map or the ticks. */
int pt_sightmap_seen(const pt_sightmap *sm, int t, int x, int y);
/* Per cell (y * w + x), on how many of the ticks a guard sees it: counts must hold w * h. */
void pt_sightmap_counts(const pt_sightmap *sm, int *counts);
void pt_sightmap_fini(pt_sightmap *sm);

/* ---- the hearing table ---- */
/* Per cell (y * w + x, counts must hold w * h), on how many of ticks 1..ticks at least one
 * guard would hear the player's footstep made there at gait g: pt_footstep_loudness of the
 * cell flooded as the world floods it (patrol/hearing.h), with the doors as the guards have
 * them at the end of that tick's step (docs/solve.md, "Doors"), its level at a guard's cell
 * above that guard's `hearing`, guards where they stand after each step of the sight table's
 * run (pt_sightmap_build: the same seed, the player hidden; a chasing guard does not listen,
 * as in the world). Cells the player cannot stand on count 0. `patrol render --heatmap-gait`.
 * The solver refuses the same steps (one routine decides both). Cost: one world run of ticks
 * ticks, one flood per walkable cell (a footstep is the same on every tick with the same
 * doors; one more for each other set of states of the doors the guards change within its
 * reach) read at each place a guard listens from (a guard at a cell with a set of door
 * states, on any tick); memory: the map's cells in bits per place, and per guard a place per
 * tick and a place index per cell. PT_OK, or
 * PT_ERR_RANGE (ticks not in 1..PT_SOLVE_MAX_TICKS, a bad gait), PT_ERR_NOMEM, or the world's
 * error, with err set. */
int pt_hearmap_build(const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks, pt_gait gait, int *counts,
                     pt_error *err);

/* ---- the solver ---- */
typedef struct pt_solve_opts {
    int max_ticks;       /* horizon: the goal must be reached by this tick; 0 = 3600 (60 s) */
    uint64_t seed;       /* first seed; 0 = the map's seed, or 1 */
    int nseeds;          /* the route must hold for seeds seed .. seed + nseeds - 1; 0 = 1 */
    double margin;       /* tiles, 0..64, fractions too: also avoid cells within this
                            distance (centres) of a seen cell on the same tick; 0 (default)
                            = only the seen cells */
    int margin_ticks;    /* ticks, 0..PT_SOLVE_MARGIN_CAP: the route's margin_ticks (below) is
                            at least this: no cell of it is seen fewer ticks before or after the
                            player stands there; 0 or 1 (default) = only not seen then */
    int gait;            /* 0: the route may take any gait (the earliest arrival; ties: walk,
                            then sneak); 1 + a pt_gait: that gait only */
    int leave_after;     /* the player takes no step off the start before this tick (0 = any) */
    int window;          /* 1: also find every tick the player can leave the start on and
                            still get through in any gait allowed (the start window, below):
                            each gait's search runs to the horizon and back, 10x the time or
                            more and 2x the search memory */
    /* Called now and then with a stage and how far it is (0..1): "sight" (the guards' sight
     * and hearing tables, over the seeds and ticks), "<gait>, earliest" (a gait's search
     * for its earliest arrival, when more than one gait is searched), "<gait>, route" (the
     * route's search), "<gait>, start window" (a gait's search to the horizon, with
     * opts.window), "seeds" (the fallback route checked under each seed). */
    void (*progress)(void *user, const char *stage, double done);
    void *progress_user;
} pt_solve_opts;

typedef enum pt_solve_act {
    PT_SOLVE_STEP = 0,   /* one tile along (dx, dy) */
    PT_SOLVE_TURN,       /* heading axis becomes `axis` (0 E-W, 1 SE-NW, 2 S-N, 3 SW-NE) */
    PT_SOLVE_WAIT        /* a wait action, then `hold` ticks of holding */
} pt_solve_act;

typedef struct pt_solve_action {
    pt_solve_act kind;
    int tick;            /* the tick of the action */
    int dx, dy;          /* STEP */
    int axis;            /* TURN */
    int hold;            /* WAIT: N of `wait N` */
} pt_solve_action;

#define PT_SOLVE_MAX_SPANS 16 /* start-window spans kept */
typedef struct pt_solve_span { int first, last; } pt_solve_span;

typedef struct pt_solve_result {
    int found;           /* 1: a route (below); 0: none within the horizon */
    int ticks;           /* the tick on which the player stands on the goal (the GOAL event) */
    int start_x, start_y, goal_x, goal_y;
    int axis0;           /* the starting heading's axis: `heading` 45 * axis0 */
    pt_solve_action *actions;
    int nactions;
    pt_cell *cells;      /* the player's cell on ticks 0..ticks (ticks + 1 of them) */
    int first_move_tick; /* the tick the player leaves the start (the start delay's end); -1
                            when it never does: the start is a goal tile (ticks is then 1) */
    int margin_ticks;    /* the least, over the route's ticks, of how many ticks away (before
                            or after) its cell is seen; PT_SOLVE_MARGIN_CAP when never near */
    double margin_tiles; /* the least distance from the player's cell to a cell seen on the
                            same tick (cell centres); -1 when nothing was seen near (24 tiles) */
    int nseeds;          /* seeds asked for */
    int seeds_ok;        /* under how many of them the route is unseen, unheard and startles
                            no animal (nseeds when found with all of them; else the route is
                            the first seed's own, as a solve of that seed alone finds it) */
    int all_seeds;       /* 1: the route was searched against all the seeds together */
    int window_ticks;    /* opts.window: on how many ticks the player can first step off the
                            start and still reach the goal unseen within the horizon (in any
                            gait allowed) */
    pt_solve_span spans[PT_SOLVE_MAX_SPANS]; /* those ticks as runs, earliest first */
    int nspans;
    int spans_more;      /* 1: more runs than PT_SOLVE_MAX_SPANS */
    int max_ticks;       /* the horizon used */
    int rhythm;          /* the step rhythm's period R (of the route's gait) */
    int classes;         /* K: the most classes of the action count (a gait's first actions
                            before its step rhythm repeats, plus its period) over the gaits
                            searched: the search's memory is sized by it */
    unsigned gaits_left_out; /* bit per pt_gait: gaits not searched, their step rhythm needing
                            a search over PT_SOLVE_MAX_BYTES (a shorter horizon takes them) */
    double speed;        /* the player's speed, tiles/s (the map's: times the gait's factor) */
    int gait;            /* the route's pt_gait: walk, or its first action sets it */
    long long nodes;     /* search states visited */
    size_t bytes;        /* memory of the sight table and the search */
    int why;             /* found 0: why there is no route, a pt_solve_why */
} pt_solve_result;

/* Why a solve found no route (pt_solve_result.why). */
typedef enum pt_solve_why {
    PT_SOLVE_WHY_NONE = 0,       /* a route (or an error) */
    PT_SOLVE_WHY_HORIZON,        /* none within the horizon: a longer one may have one */
    PT_SOLVE_WHY_UNREACHABLE,    /* no goal tile can be walked to from the start (known before
                                    any table or search: the solve stops there) */
    PT_SOLVE_WHY_SEEN_AT_START,  /* a guard sees the player on the start on tick 1 */
    PT_SOLVE_WHY_ANIMAL_AT_START, /* the player on the start startles an animal on tick 1 */
    PT_SOLVE_WHY_MARGIN_AT_START /* the start is inside the margin asked for on tick 1 */
} pt_solve_why;

/* Solves the map's level (the player's start, the goal tiles, the guards' patterns in lib).
 * PT_OK with out filled (out->found 0: no route within the horizon), or an error: the map
 * has no goal tile (PT_ERR_MISSING), the player cannot step (speed 0) or steps more than once
 * a tick (PT_ERR_RANGE), memory over PT_SOLVE_MAX_BYTES in every gait asked for
 * (PT_ERR_LIMIT), bad options (PT_ERR_USAGE), out of memory. out must be
 * freed with pt_solve_result_fini in every case. */
int pt_solve(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, pt_solve_result *out,
             pt_error *err);
void pt_solve_result_fini(pt_solve_result *r);

/* Writes the route as a control pattern file named `name`: origin at the start, heading,
 * the actions (`forward N`, `backward N`, `right DEG`, `wait N`), `at_end stop`. Returns 0,
 * or -1 on a write error. */
int pt_solve_write_pattern(const pt_solve_result *r, FILE *out, const char *name);

/* The same text in memory (for a caller without a FILE *: a binding, a game's editor): writes
 * its first cap - 1 bytes and a NUL to buf (buf may be NULL when cap is 0) and returns its
 * whole length without the NUL, as snprintf does (call with cap 0, then with that + 1). */
size_t pt_solve_pattern_text(const pt_solve_result *r, const char *name, char *buf, size_t cap);

/* 1 when the route's cells are unseen on each of its ticks in sm (ticks 1..r->ticks). */
int pt_solve_route_unseen(const pt_solve_result *r, const pt_sightmap *sm);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
