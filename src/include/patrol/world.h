/* SPDX-License-Identifier: Zlib */
/* patrol/world.h - the deterministic simulation: entities, the fixed tick, events, traces.
 *
 *     pt_world *w = pt_world_create(&map, &patterns, NULL, &err); // NULL desc = defaults
 *     for (int i = 0; i < 600; i++) pt_world_step(w);
 *     const pt_entity *e = pt_world_entity(w, 1);                 // the first the map declares
 *     printf("%s at %d,%d\n", pt_state_name(e->state), e->x, e->y);
 *     pt_world_destroy(w);
 *
 * Ids: 0 is the player; then the map's guards, prey and flocks in the order the map declares
 * them, one id per flock member (so id 1 is a guard only when the map declares a guard
 * first; pt_test_find_guard in testing.h gives a guard's id by its name); then the entities a
 * game spawns (spawn.h), each after the highest id ever given: ids are never reused, and a
 * removed entity's id stays given (pt_world_entity returns NULL for it).
 *
 * Determinism: same map, patterns, seed and number of ticks give the same state and the
 * same trace, byte for byte, in every build type. Entities update in id order; the world
 * has one RNG stream for the simulation and one for cosmetics (the renderer may only use
 * the latter), and each entity has its own stream derived from (seed, id).
 *
 * Ownership: the world copies what it needs from the map and keeps a pointer to the pattern
 * library, which must outlive it. pt_world_destroy(NULL) is a no-op.
 * Threads: worlds are independent (no state is shared between two worlds but what they only
 * read), so different worlds may be created, stepped, changed and destroyed at the same time
 * on different threads. One world is used from one thread at a time: every call on it (a
 * step, pt_world_set_tile, the player's and noises' calls, the getters) from one thread, or
 * serialised by the caller; a world's own flock threads (desc->threads) are its business.
 * The map a world is created from and the pattern library may be shared read-only by any
 * number of worlds and threads (each world changes only its own copy of the map); the
 * library must not change (pt_patlib_load) while a world that uses it exists. A script
 * (patrol/script.h) may be shared the same way, each world with its own cursor. The tables
 * the core builds once for all worlds (line of sight's) are built thread-safely on first use.
 * tests/check_threads.c steps two worlds on two threads against the same worlds one after
 * the other.
 * Cost: pt_world_step is O(entities) plus sight checks and the occasional A*, and for each
 * noise of the step one hearing flood (patrol/hearing.h) and a look at the guards within its
 * loudness. Flock members
 * step together through pt_crowd (crowd.h: neighbours are the first PT_CROWD_NB_MAX members
 * of the same flock within the view radius, in cell order), on desc->threads threads.
 */
#ifndef PATROL_WORLD_H
#define PATROL_WORLD_H

#include <stdint.h>
#include <stdio.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "math.h"
#include "pattern.h"
#include "rng.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

typedef enum pt_state {
    PT_STATE_PATROL = 0,   /* following its pattern (the player: walking / standing) */
    PT_STATE_SUSPICIOUS,   /* stopped, turning toward what it noticed */
    PT_STATE_CHASE,
    PT_STATE_SEARCH,       /* at the last known position, looking around */
    PT_STATE_RETURN,       /* A* back to the nearest cell of its pattern */
    PT_STATE_CAUGHT,       /* the player, on the tick it was caught */
    PT_STATE_FLEE,         /* prey running from the player */
    PT_STATE_FLOCK,        /* a flock member */
    PT_STATE_IDLE,         /* no pattern: standing still */
    PT_STATE_INVESTIGATE,  /* walking to where it heard a noise, then looking around */
    PT_STATE_COUNT
} pt_state;

/* How the player moves (pt_gait, in pattern.h: patterns carry gaits too): each gait has a
 * speed (a factor of the player's `speed`) and the loudness of its footsteps (docs/ai.md,
 * "Noises"). Walk is the default. */

/* What made a noise. Guards never learn this: they hear a place and a loudness. */
typedef enum pt_noise_kind {
    PT_NOISE_FOOTSTEP = 0, /* the player entered a tile: gait loudness x the tile's footstep */
    PT_NOISE_GAME,         /* pt_world_noise (a thrown stone, a door slam) */
    PT_NOISE_SOURCE,       /* a timed noise source of the map (a bell) */
    PT_NOISE_TILE,         /* a tile with noise= stepped on by the player (a squeaky board) */
    PT_NOISE_ANIMAL,       /* startled prey, a scattering flock */
    PT_NOISE_SHOUT,        /* a guard's call (pt_world_shouts): never among pt_world_noises */
    PT_NOISE_COUNT
} pt_noise_kind;

/* A noise made in the world: at a cell, with a loudness in tiles (patrol/hearing.h). */
typedef struct pt_noise { uint64_t tick; int x, y; double loudness; pt_noise_kind kind; } pt_noise;

/* How an entity moves. Tile movers jump cell to cell (the renderer interpolates);
 * continuous movers integrate a vehicle and their tile is the cell under their centre. */
typedef enum pt_motion { PT_MOTION_TILE = 0, PT_MOTION_CONTINUOUS, PT_MOTION_COUNT } pt_motion;

typedef enum pt_event_kind {
    PT_EVENT_CAUGHT = 0,   /* a = guard id, b = player id */
    PT_EVENT_SPOTTED,      /* a guard went to chase: a = guard */
    PT_EVENT_LOST,         /* a guard lost the player and searches: a = guard */
    PT_EVENT_RETURNED,     /* a guard is back on its pattern: a = guard */
    PT_EVENT_GOAL,         /* the player is on a goal tile: a = player; on every tick it
                              stands there while the round goes on */
    PT_EVENT_HEARD,        /* a guard heard a noise: a = guard, b = the level at the guard in
                              tenths of a tile, x, y = where the noise was made */
    PT_EVENT_CALLED,       /* a guard that started a chase called another (one event per guard
                              that heard the call): a = caller, b = the guard told, x, y = the
                              last known position passed on */
    PT_EVENT_PHASE,        /* the world's alert phase changed: a = the new pt_phase, b = the old */
    PT_EVENT_DOOR,         /* a door changed (patrol/door.h): a = who (an entity id, or
                              PT_DOOR_BY_GAME), b = the new pt_door_state, x, y = the door */
    PT_EVENT_SPAWNED,      /* the game spawned entity a (spawn.h; in the step after the call) */
    PT_EVENT_REMOVED,      /* the game removed entity a (spawn.h; in the step after the call) */
    PT_EVENT_ORDER_DONE,   /* guard a carried out the game's order: b = the pt_order_kind, x, y =
                              its cell (spawn.h) */
    PT_EVENT_LIGHT,        /* a light went on or off (patrol/light.h): a = who (an entity id, or
                              PT_LIGHT_BY_GAME), b = 1 on / 0 off, x, y = its cell */
    PT_EVENT_COUNT
} pt_event_kind;

/* The alert phase of the whole world (docs/ai.md, "Alert phases"): alert while a guard
 * chases, then evasion (a countdown) once none does, then caution (a countdown: guards see
 * wider and notice faster), then normal. A new chase makes it alert from any phase. */
typedef enum pt_phase {
    PT_PHASE_NORMAL = 0,
    PT_PHASE_ALERT,
    PT_PHASE_EVASION,
    PT_PHASE_CAUTION,
    PT_PHASE_COUNT
} pt_phase;

typedef struct pt_event { uint64_t tick; pt_event_kind kind; uint32_t a, b; int x, y; } pt_event;

/* What a guard remembers (docs/ai.md, "Memory"): the last stimulus of each kind. */
typedef enum pt_memory_kind {
    PT_MEMORY_SEEN = 0,    /* where it last saw (or sensed close by) the player */
    PT_MEMORY_HEARD,       /* where the last noise it heard was made */
    PT_MEMORY_TOLD,        /* the last known position a call passed on to it */
    PT_MEMORY_COUNT
} pt_memory_kind;

/* One memory of a guard: a place, when, and how sure it still is. */
typedef struct pt_memory {
    pt_memory_kind kind;
    int x, y;                  /* the cell */
    double px, py;             /* the place in tiles: the player's centre (seen, told), the
                                  cell's centre (heard) */
    uint64_t tick;             /* the step it was last perceived */
    double certainty;          /* now, in (0, 1]: it starts at how sure the guard was and falls
                                  by 1 over the guard's memory span (map key `memory`) */
} pt_memory;

/* One entity. Read it freely; change it only through the world's functions. The fields a
 * tick reads come first, so a guard's update touches few cache lines. */
typedef struct pt_entity {
    /* --- read every tick --- */
    uint32_t id;               /* index in the world: 0 = player, then map declaration order */
    pt_kind kind;
    pt_state state;
    pt_motion motion;
    int x, y;                  /* current tile */
    int prev_x, prev_y;        /* tile before the last step (for interpolation) */
    double move_t;             /* tile movers: progress toward the next step in [0,1] */
    double px, py;             /* continuous position in tiles (tile centre = x+0.5) */
    double heading;            /* radians, 0 = east, clockwise on screen */
    double speed;              /* tiles per second */
    double view_dist, view_angle; /* tiles, radians (full cone) */
    double awareness;          /* 0..1.5*chase_at: fills while the player is seen */
    double aware_rate, aware_decay, suspicious_at, chase_at; /* resolved from the declaration */
    double hearing;            /* guards: hears a noise whose level at its cell is above this */
    int sees_player;           /* 1 when the last sight check saw the player (guards: or sensed
                                  it close by, docs/ai.md "Peripheral sense") */
    int state_ticks;           /* ticks spent in the current state */
    pt_chase chase;
    pt_patrun run;             /* the pattern runner (run.pat may be NULL); its head is hot */
    /* --- read when something happens --- */
    double last_seen_x, last_seen_y; /* last known player position (continuous): the place of its
                                        newest seen or told memory */
    /* Return-to-pattern and chase path (A*): cells, index of the next one. */
    pt_cell *path;
    int path_len, path_idx, path_cap;
    uint32_t group;            /* flock group id (0 = none) */
    int caught_count;          /* player: how many times caught */
    const pt_entity_def *def;  /* its declaration (resolved copy owned by the world) */
    pt_rng rng;                /* this entity's own stream */
    pt_vehicle veh;            /* continuous movers (steer chase, flocks, thrust, waypoints) */
    char name[PT_MAX_NAME];
} pt_entity;

typedef struct pt_world_desc {
    uint64_t seed;             /* 0 = the map's seed, or 1 */
    int tick_hz;               /* 0 = 60 */
    int player_controlled;     /* 1: the player moves by pt_world_set_input (play); 0: by its pattern */
    const pt_pattern *player_pattern; /* overrides the map's player pattern (sim --player-pattern) */
    int end_round_on_catch;    /* 1: stop the round when caught (play); 0: respawn player (sim) */
    int threads;               /* threads stepping the flocks (pt_crowd); 0 = 1. The trace is the
                                  same for any number. */
    int flock_reference;       /* 1: flocks step through pt_crowd_step_brute, the one-agent
                                  reference (O(members^2) a tick; for tests): the same trace */
    pt_phase_timing phases;    /* the alert phases' timing: a field above 0 overrides the map's
                                  (map->phases), the others keep it (0 there too = default) */
} pt_world_desc;

typedef struct pt_world pt_world;

/* Creates a world from a map and the patterns its entities use. Returns NULL with err set
 * when an entity names an unknown pattern (located at the entity's declaration). */
pt_world *pt_world_create(const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc, pt_error *err);
void pt_world_destroy(pt_world *w);

/* Advances one fixed tick (1/tick_hz seconds). */
void pt_world_step(pt_world *w);

/* Player input for the next ticks: dx, dy in {-1,0,1}; both 0 = stand. Only a world
 * created with desc->player_controlled = 1 reads it; otherwise (also with a NULL desc) the
 * player walks its pattern and the input is ignored. */
void pt_world_set_input(pt_world *w, int dx, int dy);

/* The player's gait from the next tick on, for a controlled player and one the game moves
 * (patrol/player.h). A pattern-driven player walks in its pattern's gait instead: the `gait`
 * instruction in force at the start of each tick (walk before any) replaces this every tick.
 * A value out of range is ignored. The gait scales the player's speed and sets the loudness
 * of its footsteps (docs/ai.md). */
void pt_world_set_gait(pt_world *w, pt_gait gait);
pt_gait pt_world_gait(const pt_world *w);
/* A gait's speed factor (times the player's speed) and the loudness of its footstep on a tile
 * of footstep factor 1, in tiles (docs/ai.md, "Noises"); 0 for a value out of range. */
double pt_gait_speed(pt_gait g);
double pt_gait_loudness(pt_gait g);
/* The loudness of the noise the player makes entering cell (x, y) of map at gait g: the
 * gait's loudness x the tile's footstep factor, or the tile's own `noise` when that is louder
 * (docs/ai.md, "Noises"); 0 outside the map or for a gait out of range. */
double pt_footstep_loudness(const pt_map *map, int x, int y, pt_gait g);

/* A noise a game makes at cell (x, y), `loudness` in tiles (a thrown stone, a door slam). It
 * is made in the next step: guards hear it then and pt_world_noises lists it. Ignored when
 * loudness is not above 0 (or NaN) or the cell is outside the map; capped at
 * PT_HEARING_MAX_LOUDNESS (256). At most 256 wait for a step (more are dropped). */
void pt_world_noise(pt_world *w, int x, int y, double loudness);

/* Changes cell (x, y) of the world's map to the legend entry whose character is `tile` (a wall
 * blown open, a bridge gone, a bush burnt), between steps. Everything the world keeps from
 * the tiles follows (docs/ai.md, "Tiles that change"): sight, hearing and A* at once, the
 * steering walls and their index (shared with the flocks' crowds); an entity whose A* plan
 * still to walk crosses the cell (a cell ahead or the corner of a diagonal step ahead) plans
 * again when it next walks, the others keep their plans. Nothing else moves: an entity on the
 * cell stays there. After any sequence of changes, sight, hearing levels and paths are those
 * of a world created from the changed map. Setting a cell to the tile it has changes nothing.
 * Doors (patrol/door.h) follow the tiles: a door cell set to a kind that is no door kind is
 * a door no more (guards let go of it), a cell set to a door kind is a door in that kind's
 * state; no event is made (docs/ai.md, "Doors").
 * Returns PT_OK, or (the world unchanged) PT_ERR_OUT_OF_MAP for a cell outside the map,
 * PT_ERR_UNKNOWN_TILE for a character not in the map's legend, PT_ERR_NOMEM. */
int pt_world_set_tile(pt_world *w, int x, int y, char tile, pt_error *err);

/* The noises made during the last step, in the order they were made: the player's footsteps,
 * the noises of timed sources and of tiles stepped on, startled animals, and every
 * pt_world_noise call made since the step before. Valid until the next step. At most 256 a
 * step (more are dropped). For renderers and tools; guards hear them within the step. */
const pt_noise *pt_world_noises(const pt_world *w, int *count);

uint64_t pt_world_tick(const pt_world *w);
double pt_world_dt(const pt_world *w);
/* The ids ever given: the player, the map's entities and every spawned one, removed ones
 * included (spawn.h); ids run from 0 to count - 1. */
int pt_world_count(const pt_world *w);
/* Entity id; NULL for an id out of range or a removed entity (spawn.h). */
const pt_entity *pt_world_entity(const pt_world *w, int id);
const pt_map *pt_world_map(const pt_world *w);
/* Every live entity's id, cell and position in one call (a removed one has none): the live
 * entities in id order, the k-th written as ids[k], cells[2k], cells[2k+1] (its x, y) and
 * pos[2k], pos[2k+1] (its px, py). Each array may be NULL (that one is not written); those
 * given hold at least max entries (cells and pos: 2 * max numbers). Writes the first
 * min(max, live) entities and returns how many are live (a return above max: the rest were
 * left out; max below 0 counts as 0). Reads only: the arrays are the caller's, the world
 * keeps no pointer to them. For bindings and tools that read every position each tick (the
 * Python package's World.positions). */
int pt_world_positions(const pt_world *w, uint32_t *ids, int *cells, double *pos, int max);
/* Events of the last step only (cleared at the start of each step). */
const pt_event *pt_world_events(const pt_world *w, int *count);
/* Where entity id is drawn, alpha in [0,1] of the way from this tick to the next (NaN = 0):
 * a tile mover slides from its previous tile centre to its current one as its step clock
 * (move_t) runs, a continuous mover moves on along its velocity. Once the round is over
 * nothing moves and alpha is ignored. The renderer draws these positions, and the catch
 * rule measures them at alpha 0, so a catch is judged on what the player sees. (0,0) for
 * an unknown id. */
pt_vec2 pt_world_drawn_pos(const pt_world *w, int id, double alpha);
/* The live memories of guard id after the last step, at most one per kind in kind order
 * (seen, heard, told): the ones whose certainty is still above 0. Writes at most max into out
 * (may be NULL) and returns how many there are (0 for an unknown id or an entity that is not
 * a guard). The brain decides from these (docs/ai.md, "Memory"). */
int pt_world_guard_memory(const pt_world *w, int id, pt_memory *out, int max);
/* The alert phase after the last step, and through *seconds_left (may be NULL) the time left
 * before evasion or caution ends (0 in normal and alert). */
pt_phase pt_world_phase(const pt_world *w, double *seconds_left);
/* The alert phases' timing the world runs with: the map's, overridden by the desc's, each
 * zero field resolved to its default (pt_phase_timing_resolve). */
const pt_phase_timing *pt_world_phase_timing(const pt_world *w);

/* 1 when the player is hidden after the last step: it stands in cover (its cell is opaque:
 * a bush, docs/ai.md) and no guard noticed it in that step (pt_entity.sees_player). This is
 * sight's own rule read back, not a second one: a bush hides from guards farther than one
 * tile, so a guard beside the bush that sees in (or a player in the open) makes it 0. For a
 * game's cue ("hidden"). 0 for a NULL world. */
int pt_world_player_hidden(const pt_world *w);

/* Totals since creation. */
int pt_world_caught_total(const pt_world *w);
/* Round status for the game: 0 running, 1 won (goal reached), -1 lost (caught, when
 * end_round_on_catch is set). */
int pt_world_round(const pt_world *w);
/* The cosmetic RNG: for effects only; never read by the simulation. */
pt_rng *pt_world_cosmetic_rng(pt_world *w);
/* Steering geometry built from the map (walls from tile boundaries, obstacles). */
const pt_steer_env *pt_world_env(const pt_world *w);

/* Steering of entity id (for debug drawing): its agent (vehicle, parameters, behaviours of
 * the last tick) and the force it applied last tick; NULL / (0,0) for an unknown id. */
const pt_steer_agent *pt_world_agent(const pt_world *w, int id);
pt_vec2 pt_world_steer_force(const pt_world *w, int id);
/* The tips of the wall feelers entity id steered with last tick (front, left, right), each no
 * longer than the reach it used (a waypoint patrol's feelers stop at the point it seeks,
 * pt_steer_ctx.wall_reach); 3, or 0 when it did not avoid walls or id is unknown. */
int pt_world_feelers(const pt_world *w, int id, pt_vec2 out[3]);

/* The shouts of the last step: one per guard that started a chase and called out (docs/ai.md,
 * "Calls"), at the cell it stood on when it called, of its `shout` loudness, kind
 * PT_NOISE_SHOUT, in the order they called. Valid until the next step; at most 256 a step.
 * For renderers and tools (the rings of `patrol play`); the guards hear them as calls. */
const pt_noise *pt_world_shouts(const pt_world *w, int *count);

/* Names for printing and logs; "unknown" for a value out of range. */
const char *pt_state_name(pt_state s);              /* "patrol", "suspicious", "chase", ..., "investigate" */
const char *pt_event_kind_name(pt_event_kind k);    /* "caught", "spotted", "lost", "returned", "goal", "heard", "called",
                                                       "phase", "door", "spawned", "removed", "order-done" */
const char *pt_phase_name(pt_phase p);              /* "normal", "alert", "evasion", "caution" */
const char *pt_motion_name(pt_motion m);            /* "tile", "continuous" */
const char *pt_gait_name(pt_gait g);                /* "walk", "sneak", "run" */
const char *pt_noise_kind_name(pt_noise_kind k);    /* "footstep", "game", "source", "tile", "animal",
                                                       "shout" */
const char *pt_memory_kind_name(pt_memory_kind k);  /* "seen", "heard", "told" */

/* Trace: "tick,id,kind,state,x,y,px,py,heading" - one row per entity per tick, in id order;
 * a removed entity (spawn.h) has none. */
void pt_world_trace_header(FILE *out);
void pt_world_trace_rows(const pt_world *w, FILE *out);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
