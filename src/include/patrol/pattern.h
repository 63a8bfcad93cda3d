/* SPDX-License-Identifier: Zlib */
/* patrol/pattern.h - patrol patterns: parsing .pat files, linting them against a map,
 * and running them.
 *
 * Five kinds (docs/formats.md, "Pattern files", has the syntax and every error):
 *   control   - instructions: forward/backward N tiles, left/right DEG, wait, look (stand
 *               and sweep the facing), gait, repeat blocks; loops or stops.
 *   path      - vertices joined by Bresenham segments (junctions not repeated), stored
 *               relative to the first cell, placed at an origin; loop/stop/reverse/restart;
 *               stops (wait=, look) and gaits at vertices.
 *   matrix    - a 0/1 grid; a random walk that never steps back unless at a dead end.
 *   thrust    - port/starboard thruster instructions for a rigid-body vehicle, each ending
 *               at a heading-change, distance or time limit.
 *   waypoints - continuous points for steering path following.
 *
 * Placement: every pattern has an anchor - a path's first vertex, a matrix's start cell,
 * the first waypoint's cell, the starting cell of a control or thrust pattern - and is
 * placed so that its anchor lands on the origin (pt_pattern_origin).
 *
 *     pt_patlib lib; pt_patlib_init(&lib);
 *     if (pt_patlib_load(&lib, "patterns/castle.pat", &err) < 0) ...  // lib unchanged on error
 *     const pt_pattern *p = pt_patlib_find(&lib, "rectangle");
 *     pt_patrun run; pt_patrun_init(&run, p, origin, start, heading, seed, id);
 *     // each tick:  if (!pt_patrun_hold_tick(&run) && <the entity's action is due>)
 *     pt_patrun_step(&run, &map, &x, &y, &heading);  // tile kinds: one action
 *     // while held at a stop, pt_patrun_looking(&run): face run.heading (a look sweeps it)
 *     pt_patlib_fini(&lib);
 *
 * Memory: the library owns its patterns, each at a stable address for the library's
 * life (loading more files never moves them); runners point into it (keep it alive).
 * A runner is a plain struct with no allocation. Cost: a tile step is O(1) (matrix: 8
 * neighbours); pt_patrun_cells / pt_patrun_resume_at of control and thrust patterns
 * simulate one pass (at most PT_MAX_PATTERN_STEPS actions / PT_THRUST_LAP_SECONDS).
 */
#ifndef PATROL_PATTERN_H
#define PATROL_PATTERN_H

#include <stdint.h>
#include <stddef.h>

#include "api.h"
#include "config.h"
#include "error.h"
#include "map.h"
#include "math.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* Lint, pt_patrun_cells and pt_patrun_resume_at simulate at most this much of a thrust lap. */
#define PT_THRUST_LAP_SECONDS 600.0
/* The tick thrust simulations use until the world has called pt_patrun_thrust_tick. */
#define PT_THRUST_DEFAULT_DT (1.0 / 60.0)
/* A thrust body value is 0 (default) or in [MIN, MAX]: no ratio of two of them overflows. */
#define PT_THRUST_BODY_MIN 1e-6
#define PT_THRUST_BODY_MAX 1e6

typedef enum pt_pattern_kind {
    PT_PAT_CONTROL = 0, PT_PAT_PATH, PT_PAT_MATRIX, PT_PAT_THRUST, PT_PAT_WAYPOINTS, PT_PAT_KIND_COUNT
} pt_pattern_kind;

typedef enum pt_end_mode {
    PT_END_LOOP = 0,   /* closed paths and looping control/thrust patterns */
    PT_END_STOP,       /* stay at the last cell (thrust: engine off, coast to rest) */
    PT_END_REVERSE,    /* ping-pong back along the path */
    PT_END_RESTART     /* open path: walk straight back to the first cell (an implicit
                          Bresenham segment, never a teleport), then start again */
} pt_end_mode;

typedef enum pt_op {
    PT_OP_FORWARD = 0, PT_OP_BACKWARD, PT_OP_LEFT, PT_OP_RIGHT, PT_OP_WAIT, PT_OP_LOOK, PT_OP_GAIT
} pt_op;

/* How a walker moves (`gait` in pattern files); the world decides what each one means
 * (world.h: a speed and a footstep loudness each; pt_gait_name). */
typedef enum pt_gait { PT_GAIT_WALK = 0, PT_GAIT_SNEAK, PT_GAIT_RUN, PT_GAIT_COUNT } pt_gait;

/* Durations in pattern files: `N` ticks or `Xs` seconds, counted in ticks of this rate. */
#define PT_PATTERN_TICK_HZ 60
/* A look without duration lasts this many ticks (2 s); without angles it sweeps to
 * -PT_LOOK_DEFAULT_DEG (left), then +PT_LOOK_DEFAULT_DEG (right), then back. */
#define PT_LOOK_DEFAULT_TICKS 120
#define PT_LOOK_DEFAULT_DEG 60.0
/* Angles of one look: at most this many, each in [-180, 180] degrees. */
#define PT_MAX_LOOK_ANGLES 8

/* A stop with a look: `wait` ticks standing still facing as it arrived, then `look` ticks
 * in which the facing turns at a constant rate from the arrival facing through each angle
 * (relative to it, + = clockwise on screen = right) and back to it. Either part may be 0. */
typedef struct pt_look {
    int wait;                      /* ticks */
    int look;                      /* ticks */
    int nangles;
    double angles[PT_MAX_LOOK_ANGLES];
    int line, col;                 /* the first item that gave it (wait=, look, angles=) */
} pt_look;

/* One control instruction after repeat blocks are expanded. */
typedef struct pt_instr {
    uint8_t op;          /* pt_op */
    int amount;          /* tiles (forward/backward), ticks (wait, look), pt_gait (gait) */
    double degrees;      /* left/right */
    int look;            /* look: index into the pattern's looks */
    int line, col;       /* source place (for lint errors and the debug overlay) */
} pt_instr;

typedef enum pt_thruster { PT_THRUST_NONE = 0, PT_THRUST_PORT, PT_THRUST_STARBOARD } pt_thruster;

typedef struct pt_thrust_instr {
    uint8_t thruster;        /* pt_thruster: PORT turns clockwise (right), STARBOARD counter-clockwise */
    uint8_t limit_heading;   /* ends when the heading changed by heading_limit degrees */
    uint8_t limit_position;  /* ends when the vehicle is position_limit tiles from where it began */
    uint8_t limit_time;      /* ends after time_limit seconds */
    double heading_limit;    /* degrees, (0, 180] */
    double position_limit;   /* tiles */
    double time_limit;       /* seconds */
    int line, col;
} pt_thrust_instr;

/* Rigid-body vehicle of thrust patterns (tile units, seconds). Zero = default; see
 * pt_thrust_body_resolve and docs/formats.md for the model. */
typedef struct pt_thrust_body_params {
    double mass;             /* default 1 */
    double inertia;          /* moment of inertia; default 0.25 */
    double thrust;           /* forward thrust force, always on; default 2 (top speed thrust/drag = 2 tiles/s) */
    double turn_thrust;      /* each steering thruster's force; default 8 */
    double arm;              /* steering thrusters' lever arm (tiles ahead of the centre); default 0.5 */
    double drag;             /* linear drag along the body axis; default 1 */
    double angular_drag;     /* default 2 */
    double lateral_drag;     /* sideways drag (keel); default 8 */
} pt_thrust_body_params;

typedef struct pt_pattern {
    char name[PT_MAX_NAME];
    pt_pattern_kind kind;
    char file[PT_MAX_PATH];        /* the path it was loaded from (or the name given to parse) */
    int line, col;                 /* the `pattern NAME` line */
    int has_origin;                /* origin given in the file */
    int origin_x, origin_y;
    int anchor_x, anchor_y;        /* the anchor cell as written (control/thrust: 0,0) */
    pt_end_mode end;               /* as resolved: an open path's `loop` is RESTART, a closed
                                      path's `restart` is LOOP */
    int end_line, end_col;         /* the `at_end` value (0 when defaulted) */

    /* path: the cells one cycle walks, relative to cell 0 (cell 0 is (0,0)). For closed
     * loops the last cell is the one before cell 0 (no repetition); with RESTART the cells
     * of the way back to cell 0 are included at the end (ret_from = index of the first).
     * src_of_cell[i] = index of the vertex that produced cell i (the vertex itself, else
     * the vertex that starts its segment; -1 = the way back, located at `at_end`). */
    pt_cell *cells; int ncells; int closed; int ret_from;
    int *src_of_cell;
    /* path/waypoints/matrix segments: the vertices as written, their places, and for
     * matrix segments which vertex starts a new polyline (one per `segments` line). */
    pt_vec2 *verts; int nverts;
    int *vert_line, *vert_col;
    uint8_t *vert_new_poly;

    /* matrix: mw*mh bytes of 0/1, row-major; start cell inside it (the anchor). Drawn
     * rows: row r came from line row_line[r], its first character at column row_col[r]
     * (both NULL for a matrix built from segments). mat_x0/mat_y0: the written coordinate
     * of matrix cell (0,0) (segments: the smallest vertex coordinates; rows: 0,0). */
    int mw, mh; uint8_t *mat; int start_x, start_y;
    int mat_x0, mat_y0;
    int mat_line;                  /* the `rows` or first `segments` line */
    int *row_line, *row_col;

    /* path: stops with a look (control: those of its `look` instructions). look_of_cell[i]
     * (path, ncells entries; NULL when none) is the index into looks of the stop made on
     * arriving at cell i, or -1; gait_of_cell[i] the pt_gait taken there, or -1. */
    pt_look *looks; int nlooks;
    int *look_of_cell;
    int8_t *gait_of_cell;
    uint8_t gait;                  /* pt_gait at the start (`gait` key of a path, default walk) */

    /* control: expanded instruction list; actions = actions of one pass. */
    pt_instr *ins; int nins; int actions;
    int has_heading;               /* control/thrust: initial heading given in the file */
    double heading_deg;

    /* thrust */
    pt_thrust_instr *thr; int nthr;
    pt_thrust_body_params body;    /* as written (zero = default) */

    /* waypoints: verts are the points (tile units); closed; path_radius: the corridor
     * half-width for corridor following (the world's waypoint guards follow path, which
     * does not read it). */
    double path_radius;            /* default 0.5 */
} pt_pattern;

typedef struct pt_patlib {
    pt_pattern **items;            /* each pattern has its own allocation (stable address) */
    int count, cap;
} pt_patlib;

void pt_patlib_init(pt_patlib *lib);
void pt_patlib_fini(pt_patlib *lib);
/* Parses a .pat file and appends its patterns. All or nothing: on any error (syntax, or a
 * name already in the library) the library is left exactly as it was and err is located
 * (file, line, col, source line). A file with no pattern is valid. A file the library
 * already holds (the same file, however its path is spelt) is not loaded again: PT_OK. */
int pt_patlib_load(pt_patlib *lib, const char *path, pt_error *err);
/* Loads map->pattern_files[i] as pt_patlib_load does. A file that cannot be opened or read
 * is reported at the map's `patterns` line (err->file is the map), not only as the file. */
int pt_patlib_load_map_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err);
/* Same from memory; name is the file name used in errors and by pt_patlib_find. */
int pt_patlib_parse(pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err);
/* The pattern NAME loaded from the file at path (the same file however the path is spelt),
 * or NULL. */
const pt_pattern *pt_patlib_find_in_file(const pt_patlib *lib, const char *path, const char *name);
/* Finds "NAME" or "file.pat:NAME" (the file part matched by base name). NULL if none. */
const pt_pattern *pt_patlib_find(const pt_patlib *lib, const char *ref);
static inline int pt_patlib_count(const pt_patlib *lib) { return lib->count; }
static inline const pt_pattern *pt_patlib_get(const pt_patlib *lib, int i) {
    return i >= 0 && i < lib->count ? lib->items[i] : NULL;
}

const char *pt_pattern_kind_name(pt_pattern_kind k);
/* Defaults for every zero (or negative, or NaN) field of a thrust body (the one place they
 * live); other values are clamped to [PT_THRUST_BODY_MIN, PT_THRUST_BODY_MAX]. */
pt_thrust_body_params pt_thrust_body_resolve(pt_thrust_body_params b);

/* Where a pattern is placed for an entity: the file's origin, else the entity's origin=,
 * else its start cell. def may be NULL (then the file's origin, else the anchor as written). */
pt_cell pt_pattern_origin(const pt_pattern *p, const pt_entity_def *def);

/* Lint: checks the pattern placed at origin against the map. Every placed cell (path and
 * matrix cells, the cells a control pattern steps onto until it is back at its start - at
 * most 8 passes, the cells under a thrust vehicle's centre in one lap, the cells of the
 * segments between waypoints) must be inside the map (else PT_ERR_PATTERN_LEAVES) and
 * walkable (else PT_ERR_PATTERN_BLOCKED); no path or control step, and no diagonal that is
 * the only link between two matrix cells, may cut a non-walkable corner (pt_map_step_ok;
 * else PT_ERR_PATTERN_CORNER, once per corner). Each offending cell is reported once, located at
 * the vertex, row character or instruction that causes it (err->file = the pattern file),
 * the message naming the cell ("cell 12,7 is wall"). A thrust instruction that never
 * reaches its limit within PT_THRUST_LAP_SECONDS is PT_ERR_RANGE at the instruction.
 * heading (radians) is used when the pattern gives none. Writes up to max errors (errs may
 * be NULL when max is 0) and returns how many it found in total (0 = clean). */
int pt_pattern_lint(const pt_pattern *p, const pt_map *map, pt_cell origin, double heading,
                    pt_error *errs, int max);

/* Lints the pattern of every entity of the map (the player's too) as the world places it.
 * An entity naming a pattern the library lacks is PT_ERR_UNKNOWN_PATTERN at the entity's
 * line in the map file. Same contract for errs/max and the return value. */
int pt_patlib_lint_map(const pt_patlib *lib, const pt_map *map, pt_error *errs, int max);

/* Lints p as the player's route on map (sim --player-pattern, render --route, a test's
 * route=): placed as the world places a player pattern (pt_pattern_origin(p, &map->player),
 * the player's heading), each message ending "for the player's route". Same contract for
 * errs/max and the return value as pt_pattern_lint. */
int pt_pattern_lint_route(const pt_pattern *p, const pt_map *map, pt_error *errs, int max);

/* ---- running ---------------------------------------------------------------------- */

typedef enum pt_step_result {
    PT_STEP_MOVED = 0,     /* moved to a new cell */
    PT_STEP_TURNED,        /* changed heading only */
    PT_STEP_WAITING,       /* stayed (a wait, a blocked step, an isolated matrix cell) */
    PT_STEP_DONE           /* pattern finished (stop): stays put */
} pt_step_result;

typedef struct pt_thrust_state {
    pt_vec2 pos, vel;          /* tile units, tiles/s */
    double angle;              /* body heading, radians (not wrapped) */
    double omega;              /* angular velocity, rad/s (> 0 clockwise on screen) */
    int index;                 /* current instruction */
    int done;                  /* at_end stop reached: engine off */
    pt_vec2 start_pos;         /* at the start of the current instruction */
    double ref_angle;          /* reference heading of the current instruction: the previous
                                  reference turned by the previous instruction's turn limit
                                  (straight legs keep it; a turn without a turn limit takes
                                  the actual heading), so coasting past a limit never
                                  accumulates from lap to lap */
    double elapsed;            /* seconds since the current instruction began */
    double dheading_deg, dposition; /* progress of the current instruction */
    double f;                  /* steering scale of the last tick */
} pt_thrust_state;

typedef struct pt_patrun {
    const pt_pattern *pat;     /* NULL = no pattern */
    pt_cell origin;            /* where the anchor is placed */
    int x, y;                  /* the runner's current cell */
    double heading;            /* radians */
    int index;                 /* path: current cell index; control: instruction */
    int dir;                   /* path: +1 forward, -1 backward (reverse mode) */
    int sub;                   /* control: steps done inside the current instruction */
    int done;
    int prev_x, prev_y;        /* matrix: the cell it came from (absolute); -1 none */
    double heading_deg;        /* control: the exact heading in degrees, [0, 360) */
    int wait_ticks;            /* control: ticks still to hold after a `wait` */
    int pass_x, pass_y;        /* control: cell and heading where the current pass began */
    double pass_heading_deg;
    pt_rng rng;                /* matrix choices: seeded from (world seed, entity id) */
    pt_thrust_body_params body;/* thrust: resolved body */
    pt_thrust_state thrust;    /* thrust: the vehicle now */
    pt_thrust_state lap;       /* thrust: the vehicle when the current lap began */
    double dt;                 /* thrust: the last tick length */
    int wp_index;              /* waypoints: next waypoint */
    int look;                  /* the stop being held (index into pat->looks), -1 none */
    int hold_total;            /* ticks of that stop (wait + look), counted down in wait_ticks */
    double look_base;          /* facing (radians) when it began */
    uint8_t gait;              /* pt_gait now */
} pt_patrun;

/* Starts a runner. origin: where the anchor is placed (pt_pattern_origin). start = the
 * entity's cell: path walkers start at its first occurrence on the path, else at cell 0;
 * matrix walkers start there if it is a 1-cell of the placed matrix, else at the start
 * cell (placed at origin); control and thrust patterns start at the origin. heading (radians) is used when
 * the pattern gives none. Afterwards run->x, run->y, run->heading (and run->thrust.pos)
 * say where the entity should be. pat may be NULL (an idle runner). */
void pt_patrun_init(pt_patrun *run, const pt_pattern *pat, pt_cell origin, pt_cell start,
                    double heading, uint64_t seed, uint32_t entity_id);

/* Tile kinds (path, matrix, control): performs one action and writes the new cell and
 * heading to *x, *y, *heading (also in run->x, run->y, run->heading). Never moves onto a
 * cell the map says is not walkable (map may be NULL: no check); a blocked action returns
 * PT_STEP_WAITING. Thrust and waypoint patterns do nothing here (PT_STEP_WAITING). */
pt_step_result pt_patrun_step(pt_patrun *run, const pt_map *map, int *x, int *y, double *heading);

/* Call once per world tick before giving a tile mover its action. Returns 1 while the
 * runner holds after a `wait N` or at a stop with a wait or look (N ticks, counted down
 * here): give the entity no action and do not advance its action clock on such ticks.
 * During a look it also turns run->heading (see pt_patrun_looking). Returns 0 otherwise. */
int pt_patrun_hold_tick(pt_patrun *run);

/* 1 while the runner holds in a look: run->heading is the facing the look gives this tick
 * (the entity should face it, and see with it). 0 otherwise (a plain wait included). */
int pt_patrun_looking(const pt_patrun *run);

/* The facing (radians) a look gives: base (the facing on arrival) turned by lk's sweep at
 * hold tick j (1 = the first tick held, lk->wait + lk->look = the last). Ticks of the wait
 * part and the last tick give base itself. Shared by pt_patrun and pt_troop. */
double pt_look_heading(const pt_look *lk, double base, int j);

/* The walker's gait now (PT_GAIT_WALK unless the pattern says otherwise): a control
 * pattern's last `gait` instruction, a path's `gait` key or the last point with gait=
 * it arrived at. */
pt_gait pt_patrun_gait(const pt_patrun *run);

/* Thrust kind: integrates the vehicle one tick of dt seconds and advances the instruction
 * list. Position and heading are in run->thrust (run->x, run->y: the cell under it). */
void pt_patrun_thrust_tick(pt_patrun *run, double dt);

/* Cells of the placed pattern in walking order (path: its cells, including the way back of
 * restart; matrix: every 1-cell in reading order; control: the cells of the current pass;
 * thrust: the cells under the vehicle in the current lap; waypoints: the cells of the
 * segments). With a map, cells that are not walkable are left out. Writes up to max,
 * returns the total. Used to find where to return to after a chase. */
int pt_patrun_cells(const pt_patrun *run, const pt_map *map, pt_cell *out, int max);

/* After a chase: continue the pattern from cell (x,y), which must be one of its cells (else
 * returns 0 and leaves the runner unchanged). Path: from that cell's first index, same
 * direction; matrix: from that cell with no previous cell; control/thrust: the state of an
 * undisturbed pass/lap the first time it is in that cell; waypoints: the next waypoint
 * after the segment holding it. From then on the runner does exactly what it would have
 * done in an undisturbed run from that point. */
int pt_patrun_resume_at(pt_patrun *run, const pt_map *map, int x, int y);

/* A stop of a placed pattern (a path point with wait=/look, a control `look`), for previews
 * and overlays. */
typedef struct pt_pattern_stop {
    pt_cell cell;
    double heading;            /* radians: the facing on arrival, which a look sweeps around */
    const pt_look *look;       /* its wait and look (points into the pattern) */
    int gait;                  /* path: the pt_gait taken at this cell, or -1 */
} pt_pattern_stop;

/* The stops of the placed pattern (path: in walking order, facing as it arrives walking
 * forward, the points with gait= too; control: those of the current pass, simulated as
 * pt_patrun_cells does). Writes up to max, returns the total. O(cells) / O(actions). */
int pt_patrun_stops(const pt_patrun *run, const pt_map *map, pt_pattern_stop *out, int max);

/* Waypoints kind: how many points, and point i placed at the runner's origin. */
int pt_patrun_waypoint_count(const pt_patrun *run);
pt_vec2 pt_patrun_waypoint(const pt_patrun *run, int i);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
