/* patrol/pattern.h - patrol patterns: parsing .pat files, linting them against a map,
 * and running them.
 *
 * Five kinds (docs/formats.md has the file syntax):
 *   control   - instructions: forward/backward N tiles, left/right DEG, wait N ticks,
 *               repeat blocks; loops or stops.
 *   path      - vertices joined by Bresenham segments (junctions not repeated), stored
 *               relative to the first cell, placed at an origin; loop/stop/reverse/restart.
 *   matrix    - a 0/1 grid; a random walk that never steps back unless at a dead end.
 *   thrust    - port/starboard thruster instructions for a rigid-body vehicle, each ending
 *               at a heading-change or distance limit.
 *   waypoints - continuous points for steering path following.
 *
 *     pt_patlib lib; pt_patlib_init(&lib);
 *     if (pt_patlib_load(&lib, "patterns/castle.pat", &err) < 0) ...  // lib unchanged on error
 *     const pt_pattern *p = pt_patlib_find(&lib, "rectangle");
 *     pt_patrun run; pt_patrun_init(&run, p, origin, start, heading, seed, id);
 *     pt_patrun_step(&run, &map, &x, &y, &heading);  // tile kinds: one action
 *     pt_patlib_fini(&lib);
 *
 * Memory: the library owns its patterns; runners point into it (keep it alive).
 */
#ifndef PATROL_PATTERN_H
#define PATROL_PATTERN_H

#include <stdint.h>
#include <stddef.h>

#include "config.h"
#include "error.h"
#include "map.h"
#include "math.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pt_pattern_kind {
    PT_PAT_CONTROL = 0, PT_PAT_PATH, PT_PAT_MATRIX, PT_PAT_THRUST, PT_PAT_WAYPOINTS, PT_PAT_KIND_COUNT
} pt_pattern_kind;

typedef enum pt_end_mode {
    PT_END_LOOP = 0,   /* closed paths and looping control/thrust patterns */
    PT_END_STOP,       /* stay at the last cell */
    PT_END_REVERSE,    /* ping-pong back along the path */
    PT_END_RESTART     /* open path: walk straight back to the first cell (an implicit
                          Bresenham segment, never a teleport), then start again */
} pt_end_mode;

typedef enum pt_op { PT_OP_FORWARD = 0, PT_OP_BACKWARD, PT_OP_LEFT, PT_OP_RIGHT, PT_OP_WAIT } pt_op;

/* One control instruction after repeat blocks are expanded. */
typedef struct pt_instr {
    uint8_t op;          /* pt_op */
    double amount;       /* tiles, degrees, or ticks */
    int line, col;       /* source place (for lint errors and the debug overlay) */
} pt_instr;

typedef enum pt_thruster { PT_THRUST_NONE = 0, PT_THRUST_PORT, PT_THRUST_STARBOARD } pt_thruster;

typedef struct pt_thrust_instr {
    uint8_t thruster;        /* pt_thruster: PORT turns clockwise (right), STARBOARD counter-clockwise */
    uint8_t limit_heading;   /* ends when the heading changed by heading_limit degrees */
    uint8_t limit_position;  /* ends when the vehicle moved position_limit tiles */
    double heading_limit;    /* degrees */
    double position_limit;   /* tiles */
    int line, col;
} pt_thrust_instr;

/* Rigid-body vehicle of thrust patterns (tile units, seconds). Zero = default. */
typedef struct pt_thrust_body_params {
    double mass;             /* default 1 */
    double inertia;          /* moment of inertia; default 0.5 */
    double thrust;           /* forward thrust force; default 4 */
    double turn_thrust;      /* each steering thruster's force; default 2 */
    double arm;              /* thruster lever arm (tiles); default 0.5 */
    double drag;             /* linear drag coefficient; default 1 */
    double angular_drag;     /* default 2 */
    double lateral_drag;     /* sideways drag (keel); default 8 */
} pt_thrust_body_params;

typedef struct pt_pattern {
    char name[PT_MAX_NAME];
    pt_pattern_kind kind;
    char file[PT_MAX_PATH];
    int line, col;                 /* the `pattern NAME` line */
    int has_origin;                /* origin given in the file */
    int origin_x, origin_y;
    pt_end_mode end;

    /* path: cells relative to cell 0 (cell 0 is (0,0)); for closed loops the last cell is
     * the one before cell 0 (no repetition). seg_of_cell[i] = index of the vertex starting
     * the segment that produced cell i (for located lint errors). */
    pt_cell *cells; int ncells; int closed;
    int *seg_of_cell;
    /* path/waypoints/matrix-from-segments: the source vertices as written (absolute). */
    pt_vec2 *verts; int nverts;
    int *vert_line, *vert_col;

    /* matrix: mw*mh bytes of 0/1, row-major; start cell inside it (relative). */
    int mw, mh; uint8_t *mat; int start_x, start_y;
    int mat_line;                  /* first line of the matrix in the file */

    /* control: expanded instruction list; heading_deg < -999 = the entity's heading. */
    pt_instr *ins; int nins;
    double heading_deg;

    /* thrust */
    pt_thrust_instr *thr; int nthr;
    pt_thrust_body_params body;

    /* waypoints: verts are the points (tile units); radius of the path (following). */
    double path_radius;
} pt_pattern;

typedef struct pt_patlib {
    pt_pattern *items;
    int count, cap;
} pt_patlib;

void pt_patlib_init(pt_patlib *lib);
void pt_patlib_fini(pt_patlib *lib);
/* Parses a .pat file and appends its patterns. All or nothing: on any error (syntax, or a
 * name already in the library) the library is left exactly as it was. */
int pt_patlib_load(pt_patlib *lib, const char *path, pt_error *err);
int pt_patlib_parse(pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err);
/* Finds "NAME" or "file.pat:NAME" (matching the file's base name). NULL if none. */
const pt_pattern *pt_patlib_find(const pt_patlib *lib, const char *ref);

const char *pt_pattern_kind_name(pt_pattern_kind k);

/* Where a pattern is placed for an entity: the file's origin, else the entity's origin=,
 * else its start cell. */
pt_cell pt_pattern_origin(const pt_pattern *p, const pt_entity_def *def);

/* Lint: checks the pattern placed at origin against the map. Every placed cell (path and
 * matrix cells, the cells a control pattern visits in one pass, the cells a thrust or
 * waypoint pattern crosses in one lap) must be inside the map and walkable. Appends up
 * to max errors (file:line:col of the pattern line that causes the cell, message naming the
 * cell) and returns how many it found (0 = clean). */
int pt_pattern_lint(const pt_pattern *p, const pt_map *map, pt_cell origin, double heading,
                    pt_error *errs, int max);

/* ---- running ---------------------------------------------------------------------- */

typedef enum pt_step_result {
    PT_STEP_MOVED = 0,     /* moved to a new cell */
    PT_STEP_TURNED,        /* changed heading only */
    PT_STEP_WAITING,       /* waited */
    PT_STEP_DONE           /* pattern finished (stop): stays put */
} pt_step_result;

typedef struct pt_thrust_state {
    pt_vec2 pos, vel;          /* tile units */
    double angle;              /* body heading, radians */
    double omega;              /* angular velocity, rad/s */
    pt_vec2 start_pos;         /* at the start of the current instruction */
    double start_angle;
    double dheading_deg, dposition; /* progress of the current instruction */
} pt_thrust_state;

typedef struct pt_patrun {
    const pt_pattern *pat;     /* NULL = no pattern */
    pt_cell origin;            /* where relative cell (0,0) is placed */
    int index;                 /* path: current cell index; control/thrust: instruction */
    int dir;                   /* path: +1 forward, -1 backward (reverse mode) */
    int sub;                   /* control: steps done inside the current instruction */
    int done;
    int prev_x, prev_y;        /* matrix: the cell it came from (absolute); -1 none */
    double heading;            /* radians */
    pt_rng rng;                /* matrix choices: seeded from (world seed, entity id) */
    pt_thrust_state thrust;
    int wp_index;              /* waypoints: next waypoint */
} pt_patrun;

/* Starts a runner. start = the entity's cell (matrix walkers start there if it is a 1-cell,
 * else at the pattern's start cell; path walkers at cell 0), heading in radians. */
void pt_patrun_init(pt_patrun *run, const pt_pattern *pat, pt_cell origin, pt_cell start,
                    double heading, uint64_t seed, uint32_t entity_id);

/* Tile kinds (path, matrix, control): performs one action and writes the new cell and
 * heading. Never moves onto a cell the map says is not walkable (it waits instead). */
pt_step_result pt_patrun_step(pt_patrun *run, const pt_map *map, int *x, int *y, double *heading);

/* Thrust kind: integrates the vehicle one tick of dt seconds and advances the instruction
 * list. Position and heading are in run->thrust. */
void pt_patrun_thrust_tick(pt_patrun *run, double dt);

/* Cells of the placed pattern in walking order (path: its cells; matrix: every 1-cell in
 * reading order; control: the cells of one pass; thrust/waypoints: the cells of one lap).
 * Writes up to max, returns the total. Used to find where to return to after a chase. */
int pt_patrun_cells(const pt_patrun *run, const pt_map *map, pt_cell *out, int max);

/* After a chase: continue the pattern from cell (x,y), which must be one of its cells (else
 * returns 0 and leaves the runner unchanged). Path: from that index, same direction;
 * matrix: from that cell with no previous cell; control/thrust: from the instruction that
 * visits it. */
int pt_patrun_resume_at(pt_patrun *run, const pt_map *map, int x, int y);

#ifdef __cplusplus
}
#endif
#endif
