/* SPDX-License-Identifier: Zlib */
/* patrol/steer.h - continuous steering: vehicles, the behaviour library, combiners, the
 * steering geometry of a map (walls, obstacles), hard collision, and .steer files.
 *
 * Units are tiles and seconds. Every behaviour is a function returning a force (most are
 * pure; wander and the waypoint path follower update a small state the caller owns).
 * Parameters live in pt_steer_params (zero = default, resolved by pt_steer_params_resolve).
 * One world tick, for N agents (see docs/steering.md, "Using it in a tick"):
 *
 *     pt_cellspace_rebuild(&cs, &agents[0].veh.pos, sizeof agents[0], N);  // 1. neighbours
 *     for (i...) { k = pt_cellspace_query(&cs, pos, view, ids, cap); ctx.nb.count = min(k, cap);
 *                  force[i] = pt_steer_calculate(&agents[i], &ctx); }   // 2. all forces
 *     for (i...) { pt_steer_agent_update(&agents[i], &ctx, force[i], dt);  // 3. integrate all
 *                  pt_steer_collide(&env, &agents[i].veh.pos, &agents[i].veh.vel, r); }
 *
 * Memory: pt_steer_env owns its walls, obstacles and spatial index (pt_steer_env_fini);
 * agents and params are plain values (no allocation); pt_steer_file owns its sets.
 * Cost: behaviours are O(1) except the group ones (O(neighbours)), hide (O(obstacles)) and
 * the other geometric ones, which only look at walls/obstacles in the index blocks their
 * probe touches. Wall/obstacle avoidance and collision first ask the env's tile bits and
 * per-block obstacle distances, so a vehicle on open floor costs a few dozen instructions
 * (docs/performance.md has the measured costs and the command that gives them).
 * Nothing here returns NaN or Inf from finite input (zero distances and speeds are guarded).
 */
#ifndef PATROL_STEER_H
#define PATROL_STEER_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "math.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* ---- vehicle ------------------------------------------------------------------------- */

/* A point-mass vehicle in tile units and seconds. Zero fields = defaults (pt_vehicle_resolve). */
typedef struct pt_vehicle {
    pt_vec2 pos, vel;
    pt_vec2 heading;         /* unit vector; kept when speed is ~0 */
    pt_vec2 side;            /* perp(heading): points to the vehicle's right on screen */
    double mass;             /* default 1 */
    double max_speed;        /* tiles/s; default 3 */
    double max_force;        /* default 10 (tiles/s^2 at mass 1) */
    double max_turn_rate;    /* rad/s; default 2*pi */
    double radius;           /* bounding radius, tiles; default 0.35 */
    double smooth_time;      /* heading smoothing time constant, s; 0 = off */
    pt_vec2 smooth_heading;  /* heading low-pass filtered over smooth_time (= heading when off):
                                for drawing only, never read by the behaviours */
    int turn_dir;            /* integrator state: +1/-1 while turning on the spot, else 0 */
} pt_vehicle;

/* Zeroes v, places it at pos facing heading (radians) and applies the defaults. */
void pt_vehicle_init(pt_vehicle *v, pt_vec2 pos, double heading);
/* Applies the defaults to every zero (or negative) field; repairs a zero heading to +x and
 * recomputes side. Idempotent. */
void pt_vehicle_resolve(pt_vehicle *v);
static inline double pt_vehicle_speed(const pt_vehicle *v) { return pt_v2_len(v->vel); }

/* Integrates one tick: acceleration = force (truncated to max_force) / mass, velocity
 * truncated to max_speed, then the turn rate is enforced: the heading turns toward the new
 * velocity by at most max_turn_rate*dt and the velocity keeps only its component along the
 * new heading (never negative: a vehicle asked to reverse stops and turns on the spot, in
 * the direction it chose first, recorded in turn_dir).
 * Position += velocity*dt. Heading and side change only while the new velocity is not ~0. */
void pt_vehicle_update(pt_vehicle *v, pt_vec2 force, double dt);
/* Same, but the heading turns toward `face` (at most max_turn_rate*dt) independently of the
 * velocity, which is not turn-limited (strafing while looking at something). */
void pt_vehicle_update_facing(pt_vehicle *v, pt_vec2 force, pt_vec2 face, double dt);
/* Turns the heading (and the velocity with it) toward point by at most max_turn_rate*dt
 * without moving (Buckland's RotateHeadingToFacePosition). Returns 1 once facing it (within
 * 1e-3 rad, or the point is the position), else 0. */
int pt_vehicle_turn_toward(pt_vehicle *v, pt_vec2 point, double dt);

/* ---- geometry ------------------------------------------------------------------------ */

/* A wall segment from a to b; normal points out of the solid side (unit). Walls built from
 * a map are wound so that normal == pt_v2_norm(pt_v2_perp(b - a)). */
typedef struct pt_wall { pt_vec2 a, b, normal; } pt_wall;

/* Static steering geometry of a world: walls (from tile boundaries) and circular obstacles,
 * with a uniform block index over both (behind ix: built by pt_steer_env_build/_set). Read
 * walls, obstacles and map; change them only through pt_steer_env_set. */
typedef struct pt_steer_env {
    pt_wall *walls; int nwalls;
    pt_obstacle *obstacles; int nobstacles;
    const pt_map *map;       /* may be NULL (custom geometry); used by hide, containment, collision */
    struct pt__steer_index *ix; /* private: the block index and fast paths (built by
                                   pt_steer_env_build/_set, freed by pt_steer_env_fini) */
} pt_steer_env;

/* Builds the walls of a map: every boundary between a walkable and a non-walkable tile (the
 * outside of the map counts as non-walkable), merged along straight runs, normals out of the
 * solid side; copies map->obstacles; builds the index. Keeps a pointer to map (must outlive
 * env). Returns PT_OK or PT_ERR_NOMEM (env then empty). Call pt_steer_env_fini after. */
int pt_steer_env_build(pt_steer_env *env, const pt_map *map);
/* Custom geometry: copies the given walls and obstacles (either may be NULL/0) and builds
 * the index. map may be NULL. */
int pt_steer_env_set(pt_steer_env *env, const pt_wall *walls, int nwalls, const pt_obstacle *obs,
                     int nobs, const pt_map *map);
void pt_steer_env_fini(pt_steer_env *env);
/* After pt_map_set changed cell (x, y) of the map env was built from (pt_steer_env_build),
 * brings env in step: it then holds the walls pt_steer_env_build would make from the map as
 * it is now (walls[] in another order: the walls that changed leave it and join it at its
 * end), each index block lists the same walls in the same order, and the tile bits are
 * equal, so every query answers as on a fresh env. env stays at its address (a crowd that
 * borrows it keeps it). Cost: the walls of the four boundary lines through the cell that
 * start, end or pass beside it, in the index blocks they touch, and the clearances around
 * the cell; nothing when the cell's walkability did not change. Returns PT_OK,
 * PT_ERR_OUT_OF_MAP (env not built from a map, or (x, y) outside it) or PT_ERR_NOMEM; env is
 * then unchanged. */
int pt_steer_env_update_tile(pt_steer_env *env, int x, int y);

/* ---- parameters ---------------------------------------------------------------------- */

/* Behaviours. The order is the priority order of the prioritised combiners. */
typedef enum pt_behaviour {
    PT_BEH_CONTAINMENT = 0,   /* stay inside walkable tiles / a region */
    PT_BEH_WALL_AVOIDANCE,
    PT_BEH_OBSTACLE_AVOIDANCE,
    PT_BEH_EVADE,
    PT_BEH_FLEE,
    PT_BEH_SEPARATION,
    PT_BEH_ALIGNMENT,
    PT_BEH_COHESION,
    PT_BEH_SEEK,
    PT_BEH_ARRIVE,
    PT_BEH_WANDER,
    PT_BEH_PURSUIT,
    PT_BEH_INTERCEPT,         /* Bourg's closing-speed intercept of ctx->agent1 */
    PT_BEH_OFFSET_PURSUIT,
    PT_BEH_INTERPOSE,
    PT_BEH_HIDE,
    PT_BEH_FOLLOW_PATH,       /* waypoints, open or closed */
    PT_BEH_FOLLOW_CORRIDOR,   /* predicted position / normal point / path radius (seed 004) */
    PT_BEH_FACE,              /* not a force: the heading turns toward ctx->target */
    PT_BEH_COUNT
} pt_behaviour;

#define PT_BEH_BIT(b) (1u << (b))
/* Reynolds' flocking: the three group behaviours. */
#define PT_BEH_FLOCKING (PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_ALIGNMENT) | PT_BEH_BIT(PT_BEH_COHESION))

typedef enum pt_combiner {
    PT_COMBINE_DEFAULT = 0,   /* resolves to PRIORITISED */
    PT_COMBINE_WEIGHTED,      /* weighted sum of all, truncated to max_force */
    PT_COMBINE_PRIORITISED,   /* running sum in priority order until max_force is used up */
    PT_COMBINE_DITHERED,      /* first behaviour (in priority order) that passes its
                                 probability test and gives a non-zero force wins */
    PT_COMBINE_COUNT
} pt_combiner;

/* Arrive deceleration (Buckland's enum: the value scales the time to arrive). */
typedef enum pt_decel { PT_DECEL_DEFAULT = 0, PT_DECEL_FAST = 1, PT_DECEL_NORMAL = 2, PT_DECEL_SLOW = 3 } pt_decel;

/* Every tunable of the library. Zero (or negative) = the default listed here, applied by
 * pt_steer_params_resolve. Distances in tiles, times in seconds, angles in radians (degrees
 * in .steer files). docs/steering.md explains each one. */
typedef struct pt_steer_params {
    double weight[PT_BEH_COUNT];      /* multiplies each behaviour's raw output; see docs */
    double probability[PT_BEH_COUNT]; /* dithered combiner: chance a behaviour is evaluated */
    pt_combiner combiner;             /* PRIORITISED */
    unsigned behaviours;              /* PT_BEH_BIT set a file asks for; 0 = caller decides */
    pt_decel deceleration;            /* arrive: NORMAL */
    double decel_tweak;               /* arrive: s per deceleration step; 0.3 */
    double panic_distance;            /* flee: only within this distance; 4 */
    double threat_range;              /* evade: only when the pursuer is this close; 5 */
    double facing_angle;              /* pursuit: seek directly when facing within this; 18 deg */
    double turn_around_time;          /* pursuit: s added per unit of (1 - cos angle); 0.5 */
    double wander_radius;             /* 0.6 */
    double wander_distance;           /* circle centre ahead of the vehicle; 1.2 */
    double wander_jitter;             /* max target displacement per second; 4 */
    double box_length;                /* obstacle avoidance: min detection box length; 1.5 */
    double braking_weight;            /* obstacle avoidance braking; 0.2 */
    double feeler_length;             /* wall avoidance: front feeler; 1.5 */
    double side_feeler_length;        /* the two side feelers; 0.7 */
    double feeler_angle;              /* side feelers' angle from the heading; 45 deg */
    double hide_distance;             /* hiding spot: gap from the obstacle's edge; 0.6 */
    double waypoint_distance;         /* follow path: next waypoint when this close; 0.5 */
    double path_predict;              /* corridor: look-ahead time of the predicted pos; 0.4 */
    double path_ahead;                /* corridor: target distance along the path; 0.8 */
    double path_radius;               /* corridor radius when the path gives none; 0.5 */
    double view_radius;               /* group behaviours: neighbour radius; 4 */
    double containment_lookahead;     /* containment: prediction time; 0.3 */
    double containment_margin;        /* containment: clearance beyond the radius; 0.2 */
    /* Vehicle overrides: 0 = keep the vehicle's own value (see pt_steer_params_apply). */
    double mass, max_speed, max_force, max_turn_rate, radius, smooth_time;
} pt_steer_params;

/* Fills every zero (or negative) field with its default. Idempotent. */
void pt_steer_params_resolve(pt_steer_params *p);
/* Zero + resolve: the built-in defaults. */
void pt_steer_params_default(pt_steer_params *p);
/* The built-in defaults as a shared constant (what NULL params mean everywhere). */
const pt_steer_params *pt_steer_params_builtin(void);
/* Copies the non-zero vehicle overrides (mass, max_speed, ...) into v. */
void pt_steer_params_apply(const pt_steer_params *p, pt_vehicle *v);

const char *pt_behaviour_name(pt_behaviour b);   /* "seek", "wall_avoidance", ... */
int pt_behaviour_from_name(const char *name);    /* -1 if unknown */
const char *pt_combiner_name(pt_combiner c);     /* "weighted", "prioritised", "dithered" */

/* ---- behaviours ---------------------------------------------------------------------- */

/* Paths for the two path followers. Points are not owned (share them between agents);
 * `current` is the follower's state. radius 0 = params.path_radius. */
typedef struct pt_path {
    const pt_vec2 *pts;
    int n;
    int closed;              /* loop back to pts[0] after the last point */
    double radius;           /* corridor half-width (follow corridor) */
    int current;             /* follow path: index of the waypoint being sought */
} pt_path;

/* Wander state: the target on the wander circle, local to the vehicle ((0,0) = not started). */
typedef struct pt_wander { pt_vec2 target; } pt_wander;

/* Neighbours for the group behaviours: indices into an array of vehicles that may be
 * embedded in larger structs (stride = byte distance between consecutive vehicles; 0 means
 * sizeof(pt_vehicle)). `self` (its index, or -1) is skipped if present in ids. count is the
 * number of valid ids (clamp pt_cellspace_query's total to your buffer size). */
typedef struct pt_neighbors {
    const pt_vehicle *agents;
    size_t stride;
    const int *ids;
    int count;
    int self;
} pt_neighbors;

static inline const pt_vehicle *pt_neighbors_get(const pt_neighbors *nb, int id) {
    size_t s = nb->stride ? nb->stride : sizeof(pt_vehicle);
    return (const pt_vehicle *)(const void *)((const char *)nb->agents + (size_t)id * s);
}

/* Buckland's behaviours, corrected. Raw outputs (before weights) are documented in
 * docs/steering.md: "velocity error" = desired velocity - velocity (tiles/s). */
pt_vec2 pt_steer_seek(const pt_vehicle *v, pt_vec2 target);
/* Flees target while it is within panic_distance (zero beyond). A target exactly at the
 * position flees along the heading. */
pt_vec2 pt_steer_flee(const pt_vehicle *v, pt_vec2 target, const pt_steer_params *p);
/* Desired speed = min(max_speed, dist / (decel * decel_tweak)); at the target: brakes. */
pt_vec2 pt_steer_arrive(const pt_vehicle *v, pt_vec2 target, pt_decel decel, const pt_steer_params *p);
/* Seeks the evader's predicted position (look-ahead = dist / (max_speed + evader speed) +
 * turn-around time); seeks it directly when the two face each other. */
pt_vec2 pt_steer_pursuit(const pt_vehicle *v, const pt_vehicle *evader, const pt_steer_params *p);
/* Flees the pursuer's predicted position; zero when it is beyond threat_range. */
pt_vec2 pt_steer_evade(const pt_vehicle *v, const pt_vehicle *pursuer, const pt_steer_params *p);
/* Intercept (Bourg): seeks target_pos + target_vel * t, t = distance / closing speed, where
 * the closing speed is the rate at which the distance shrinks; when it is not positive, t
 * falls back to the pursuit estimate; t is capped at 3 s (PT_STEER_INTERCEPT_MAX_T). */
#define PT_STEER_INTERCEPT_MAX_T 3.0
pt_vec2 pt_steer_intercept(const pt_vehicle *v, const pt_vehicle *target);
/* Jitters w->target (uses rng: deterministic), projects it on the circle and returns the
 * vector from the position to the circle point ahead (tiles). */
pt_vec2 pt_steer_wander(const pt_vehicle *v, pt_wander *w, pt_rng *rng, double dt, const pt_steer_params *p);
/* Detection box ahead (length box_length * (1 + speed/max_speed), half-width = radius);
 * nearest intersecting obstacle in local space; lateral force away from it on either side,
 * (r_obstacle + r_vehicle - |local y|) * (1 + closeness), plus braking. */
pt_vec2 pt_steer_obstacle_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p);
/* Three feelers (front, and two at +-feeler_angle) that sweep the vehicle's body (a circle
 * of its radius); for each feeler the closest wall it runs into from the open side adds
 * normal * (feeler length past the contact); a feeler that hits nothing adds nothing. */
pt_vec2 pt_steer_wall_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p);
/* The same with every feeler at most `reach` tiles long (reach <= 0: full lengths);
 * pt_steer_calculate uses it when ctx->wall_reach is set. */
pt_vec2 pt_steer_wall_avoidance_reach(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p,
                                      double reach);
/* The three feeler tips (front, left, right) for drawing; returns 3. */
int pt_steer_feelers(const pt_vehicle *v, const pt_steer_params *p, pt_vec2 out[3]);
/* Detection box length at the vehicle's current speed (for drawing). */
double pt_steer_box_length(const pt_vehicle *v, const pt_steer_params *p);
/* Arrives (fast) at the midpoint of a and b predicted at the time needed to reach it. */
pt_vec2 pt_steer_interpose(const pt_vehicle *v, const pt_vehicle *a, const pt_vehicle *b, const pt_steer_params *p);
/* Arrives (fast) at the nearest hiding spot (behind an obstacle from the hunter, on a
 * walkable tile when env->map is set); evades when there is no spot. */
pt_vec2 pt_steer_hide(const pt_vehicle *v, const pt_vehicle *hunter, const pt_steer_env *env, const pt_steer_params *p);
/* Hiding spot of one obstacle; returns 0 if none (the hunter is at the obstacle's centre). */
int pt_steer_hiding_spot(const pt_obstacle *ob, pt_vec2 hunter, const pt_steer_params *p, pt_vec2 *out);
/* Waypoints: seeks path->pts[current], advancing when within waypoint_distance; closed
 * paths loop; open paths arrive (normal) at the last point and stay there. */
pt_vec2 pt_steer_follow_path(const pt_vehicle *v, pt_path *path, const pt_steer_params *p);
/* Corridor following (seed 004): predicted position -> nearest normal point on the polyline
 * -> target path_ahead further along it; seeks the target when the prediction is outside
 * the corridor or the vehicle is not moving forward along it; open paths arrive at the end. */
pt_vec2 pt_steer_follow_corridor(const pt_vehicle *v, const pt_path *path, const pt_steer_params *p);
/* Arrives (fast) at the leader's local offset (x ahead, y to its right) predicted ahead. */
pt_vec2 pt_steer_offset_pursuit(const pt_vehicle *v, const pt_vehicle *leader, pt_vec2 offset, const pt_steer_params *p);
/* Sum of away / distance over neighbours, each capped at 1/0.01 (coincident ones push along
 * a direction derived from the two indices, opposite for the pair: never NaN). */
pt_vec2 pt_steer_separation(const pt_vehicle *v, const pt_neighbors *nb);
/* The sideways part of (mean neighbour heading - own heading): turns without braking; zero
 * without neighbours. */
pt_vec2 pt_steer_alignment(const pt_vehicle *v, const pt_neighbors *nb);
/* Seek toward the neighbours' centre of mass, normalised (length <= 1); zero without
 * neighbours. */
pt_vec2 pt_steer_cohesion(const pt_vehicle *v, const pt_neighbors *nb);

/* An axis-aligned region in tiles (containment). */
typedef struct pt_steer_region { double x0, y0, x1, y1; } pt_steer_region;
/* For the predicted point pos + vel * containment_lookahead and for the current position,
 * the displacement (tiles) that brings each back to radius + containment_margin inside the
 * region (if given), away from non-walkable tiles (if env->map) and out of env's obstacles;
 * returns their sum. Zero when the body is safely inside. */
pt_vec2 pt_steer_containment(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_region *region,
                             const pt_steer_params *p);

/* ---- agents and combination ---------------------------------------------------------- */

/* A steered entity: its vehicle and everything the combination needs that is per agent. */
typedef struct pt_steer_agent {
    pt_vehicle veh;
    unsigned behaviours;             /* PT_BEH_BIT(...) set */
    const pt_steer_params *params;   /* resolved; shared between agents; NULL = defaults */
    pt_wander wander;
    pt_path path;                    /* follow path / corridor */
    pt_vec2 offset;                  /* offset pursuit: slot in the leader's frame */
    pt_rng rng;                      /* wander and dithering */
} pt_steer_agent;

/* What an agent sees this tick. Any pointer may be NULL: behaviours needing it add nothing. */
typedef struct pt_steer_ctx {
    const pt_steer_env *env;
    pt_neighbors nb;                 /* from the cell space (count 0 = none) */
    pt_vec2 target;                  /* seek, flee, arrive, face; interpose when agent2 is NULL */
    const pt_vehicle *agent1;        /* pursuit, intercept, evade, offset-pursuit leader, hide hunter,
                                        interpose A */
    const pt_vehicle *agent2;        /* interpose B */
    const pt_steer_region *region;   /* containment region */
    double dt;                       /* tick length (wander jitter); 0 = 1/60 */
    double wall_reach;               /* wall avoidance: no feeler reaches further than this
                                        (tiles), e.g. the distance to the point being sought,
                                        so walls beyond it do not push; 0 (or less) = the
                                        feelers' full lengths */
} pt_steer_ctx;

/* Zeroes the agent, sets its vehicle (copied and resolved), params and RNG stream
 * (seed, stream): same seed, same agent, same choices. */
void pt_steer_agent_init(pt_steer_agent *a, const pt_vehicle *veh, const pt_steer_params *params,
                         uint64_t seed, uint64_t stream);
/* The raw force of one behaviour for this agent in ctx (before weighting). */
pt_vec2 pt_steer_force(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_behaviour b);
/* The combined force of the agent's behaviours with its params' combiner; |result| <=
 * max_force. Advances the wander and path states and the agent's RNG. */
pt_vec2 pt_steer_calculate(pt_steer_agent *a, const pt_steer_ctx *ctx);
/* Integrates the agent: pt_vehicle_update_facing toward ctx->target when PT_BEH_FACE is on,
 * else pt_vehicle_update. dt <= 0 uses ctx->dt. */
void pt_steer_agent_update(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_vec2 force, double dt);

/* The three combiners on explicit (weighted) forces in priority order, for custom mixes:
 * forces[i] are already multiplied by their weights. */
pt_vec2 pt_steer_combine_weighted(const pt_vec2 *forces, int n, double max_force);
pt_vec2 pt_steer_combine_prioritised(const pt_vec2 *forces, int n, double max_force);
/* probs[i] in (0,1]: a force that passes (rng < prob) and is non-zero is returned divided by
 * its probability, truncated to max_force; zero if none passes. */
pt_vec2 pt_steer_combine_dithered(const pt_vec2 *forces, const double *probs, int n, double max_force, pt_rng *rng);

/* ---- hard constraints ---------------------------------------------------------------- */

/* Pushes a circle out of non-walkable tiles (the outside of the map is non-walkable):
 * slides along them and removes the velocity component into them (vel may be NULL). The
 * centre never ends in a non-walkable cell when a walkable one is within 8 cells. For
 * radius < 0.5 the remaining overlap is < 1e-9 except in gaps narrower than the circle.
 * Returns 1 if it moved the circle. */
int pt_steer_collide_tiles(const pt_map *map, pt_vec2 *pos, pt_vec2 *vel, double radius);
/* Pushes a circle out of env's obstacles (same rules). Returns 1 if it moved it. */
int pt_steer_collide_obstacles(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius);
/* Obstacles, then tiles, twice: tiles win (the centre never ends on a non-walkable tile). */
int pt_steer_collide(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius);
/* Distance from p to the nearest non-walkable tile (or the map's outside), searching up to
 * `reach` tiles; returns reach when none is closer. 0 when p is on a non-walkable tile. */
double pt_steer_tile_clearance(const pt_map *map, pt_vec2 p, double reach);

/* ---- .steer files (docs/formats.md, "Steering parameters") --------------------------- */

#define PT_STEER_MAX_SETS 1024      /* sets + entity blocks in one file */

/* One `set` or `entity` block: the keys it gives (bit i = key i of the file format). */
typedef struct pt_steer_set {
    char name[PT_MAX_NAME];
    char base[PT_MAX_NAME];          /* `from BASE` ("" = none) */
    int is_entity;
    int line, col;                   /* the block's header line (col of its name) */
    int base_col;                    /* column of BASE after `from` (0 = none) */
    int base_slot;                   /* 1 + index of the BASE set in the file's sets, 0 = none
                                        (filled by the parser: resolving never searches names) */
    pt_steer_params values;          /* only the given keys are meaningful */
    uint64_t given[2];
} pt_steer_set;

typedef struct pt_steer_file {
    pt_steer_set *sets;
    int count;
    char path[PT_MAX_PATH];
} pt_steer_file;

void pt_steer_file_init(pt_steer_file *f);
void pt_steer_file_fini(pt_steer_file *f);
/* Parses a .steer file into f, replacing its contents. All or nothing: on error (located:
 * unknown key, bad number, out of range, unknown set in `from`, duplicate, unterminated
 * block...) f is unchanged. */
int pt_steer_file_load(pt_steer_file *f, const char *path, pt_error *err);
/* Loads map->steering_file; a file that cannot be opened or read is reported at the map's
 * `steering` line (err->file is the map). */
int pt_steer_file_load_map(pt_steer_file *f, const pt_map *map, pt_error *err);
int pt_steer_file_parse(pt_steer_file *f, const char *text, size_t len, const char *name, pt_error *err);
/* 1 if the file defines `set NAME` (the name "default" always exists). */
int pt_steer_file_has_set(const pt_steer_file *f, const char *name);
/* Resolved parameters for an entity: built-in defaults, then the file's `default` set, then
 * the set `set_name` (NULL or "" = none) with its `from` chain, then the `entity` block of
 * entity_name (if any, with its own `from`), then pt_steer_params_resolve. f may be NULL.
 * Returns PT_OK, or PT_ERR_BAD_VALUE when set_name is not defined (out = defaults). */
int pt_steer_file_params(const pt_steer_file *f, const char *entity_name, const char *set_name,
                         pt_steer_params *out);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
