/* SPDX-License-Identifier: Zlib */
/* world_internal.h - the world's private state, shared by world.c and brain.c. */
#ifndef PATROL_WORLD_INTERNAL_H
#define PATROL_WORLD_INTERNAL_H

#include <patrol/crowd.h>
#include <patrol/path.h>
#include <patrol/world.h>

#define PT__MAX_EVENTS 256
#define PT__MAX_NOISES 256

/* A guard that listens this step: where it stands after its update, its threshold. */
typedef struct pt__listener {
    int x, y;
    double hearing;
    int id;
} pt__listener;

typedef struct pt__search pt__search; /* search.c */

/* One remembered stimulus (memory.c). Its certainty now is `sure` less the ticks since `tick`
 * over the guard's span: it is worked out when read, so memories cost nothing as they age. */
typedef struct pt__memory {
    uint64_t tick;           /* the step it was noted; 0 = none */
    double sure;             /* its certainty when noted, in (0, 1] */
    double px, py;           /* the place, tiles */
    int x, y;                /* the cell */
    int acted;               /* the brain went (or is going) to look at it, or gave chase since */
} pt__memory;

/* Per-guard brain state that is not worth exposing in pt_entity. */
typedef struct pt__brain {
    int lost_ticks;          /* chase: ticks since the player was last seen */
    int search_phase;        /* 0 walking to the last known position, 1 looking around,
                                2 search: in the world's search (search.c) */
    int search_ticks;        /* ticks in the looking-around phase */
    int planned;             /* a path toward target_cell is in entity->path */
    pt_cell target_cell;     /* cell the current path leads to */
    double look_base;        /* heading when looking around started */
    double progress_x, progress_y; /* continuous movers: where they last moved from */
    int progress_ticks;      /* ticks within STUCK_DIST of it */
    int chase_by_tile;       /* a continuous chaser that got stuck chases on by tiles */
    /* A waypoint patrol's progress (motion.c): the waypoint it is watched for (index + 1,
     * 0 = none yet), the closest it came to it, the ticks since it last came STUCK_DIST
     * closer; a stuck one walks to that waypoint's cell by tiles (wp_by_tile). */
    int wp_for;
    double wp_best;
    int wp_ticks;
    int wp_by_tile;
    double wall_reach;       /* the feelers' reach of its last steering step (0: full) */
    /* A continuous mover that went on by tiles (pt__go_tile) glides from where it stood,
     * (glide_x, glide_y), to its cell's centre as its step clock runs from glide_t0 to 1: it
     * is drawn there while `glide` is set and it has not stepped since (prev cell = cell). */
    int glide;
    double glide_x, glide_y, glide_t0;
    pt_cell investigate_at;  /* investigate: the place it walks to and looks around */
    /* A noise heard in the last step: the world's hearing pass keeps the loudest in
     * mem[PT_MEMORY_HEARD] and sets `heard`; the brain's next update reads and clears it. */
    int heard;
    double heard_level;
    pt__memory mem[PT_MEMORY_COUNT]; /* what it remembers, one per kind (memory.c) */
} pt__brain;

struct pt_world {
    pt_map map;                  /* the world's own copy */
    const pt_patlib *lib;
    pt_world_desc desc;
    uint64_t seed;
    int tick_hz;
    double dt;
    uint64_t tick;
    pt_entity *ents;
    pt_entity_def *defs;         /* resolved declarations, one per entity */
    pt__brain *brains;
    int n;
    pt_rng sim_rng, cosmetic_rng;
    pt_event events[PT__MAX_EVENTS];
    int nevents, events_dropped;
    int input_dx, input_dy;
    pt_gait gait;
    /* Noises of this step, and those pt_world_noise made since the last one (they join the
     * next step's). */
    pt_noise noises[PT__MAX_NOISES];
    int nnoises, noises_dropped;
    pt_noise shouts[PT__MAX_NOISES]; /* the step's calls (calls.c), for pt_world_shouts */
    int nshouts;
    pt_noise queued[PT__MAX_NOISES];
    int nqueued;
    int round;
    int caught_total;
    pt_pathfinder *pf;
    pt_cell *scratch;            /* pattern cells / path buffer */
    int scratch_cap;
    struct pt_hearing *hearing;  /* floods each noise of a step once, for every guard */
    pt__listener *listeners;     /* the guards that listen this step, in id order, gathered in the
                                    update loop while each is in cache; one per entity at most */
    int nlisteners;
    int heard_pending;           /* guards whose brain has a heard noise to read */
    int *callers;                /* guards that started a chase this step, in the order they did:
                                    they call out once every guard has moved (calls.c) */
    int ncallers;
    pt_phase phase;              /* the alert phase (calls.c) */
    int phase_ticks_left;        /* evasion, caution: ticks before it ends */
    pt_phase_timing phases;      /* their timing: the map's, the desc's over it, resolved */
    pt_steer_env env;
    /* Steering: one agent and one resolved parameter set per entity (used by continuous
     * movers), the optional .steer file. */
    pt_steer_agent *agents;
    pt_steer_params *params;
    pt_steer_file steerfile;
    int has_steerfile;
    pt_vec2 **waypoints;         /* per entity: placed waypoints of a waypoints pattern */
    pt_vec2 *forces;
    /* Flock members step through pt_crowd, one crowd per view radius among the flocks (a
     * flock has one steering set, so a group never spans two crowds). Their agents live
     * here, compact, by crowd then id; the entities' vehicles are copies made after each
     * step. */
    int nboids;
    pt_steer_agent *boids;
    int *boid_id;                /* entity id of each */
    unsigned char *boid_scared;  /* per member: 1 when it started to scatter this tick */
    uint32_t *boid_group;        /* its flock (pt_crowd group) */
    int *boid_slot;              /* per entity: its index in boids, or -1 */
    pt_crowd **crowds;
    int *crowd_first;            /* crowd k runs boids[crowd_first[k] .. crowd_first[k + 1]) */
    struct pt__flock_part *crowd_part; /* per crowd: what its after-step hook reads (motion.c) */
    uint64_t *flock_noise_tick;  /* per flock group: the tick of its last scatter noise (0 = none) */
    int ncrowds;
    int *movers;                 /* ids of the entities besides the player that are not flock
                                    members, ascending: what pt_world_step runs one by one */
    int nmovers;
    /* The prey among the movers, ascending; they step after the other movers, on the first
     * crowd's threads (they read only the player and their own state), their noises then
     * made in this order: per prey whether it was startled, and the player they flee. */
    int *prey;
    int nprey;
    unsigned char *prey_startled;
    pt_vehicle prey_player;
    /* The solver's sight table (solve.c): a hidden player is never noticed and makes no
     * footsteps, so the guards walk as they would beside a player they never notice or hear;
     * sight_fn is called at each guard's perceive, with the guard as it looks that tick. */
    pt__search *search;          /* the world's search around the last known position (search.c) */
    int player_hidden;
    void (*sight_fn)(void *user, const pt_world *w, const pt_entity *guard);
    void *sight_user;
};

/* ---- motion.c: continuous (steered) movement ---- */
/* Sets up steering for every entity (agents, params, waypoints, cell space). */
int pt__motion_init(pt_world *w, pt_error *err);
void pt__motion_fini(pt_world *w);
/* Switches a tile mover to continuous motion, keeping its position and heading. */
void pt__go_continuous(pt_world *w, pt_entity *e);
/* Continuous chase of the player (steer: pursuit, intercept: interception), going round
 * walls along an A* path when the straight line is blocked. Returns -1 when it made no
 * progress for a while (the caller should chase on by tiles), else 0. */
int pt__chase_continuous(pt_world *w, pt_entity *e, int intercept, double speed_scale);
/* Continuous move toward a cell along an A* path; returns 1 when arrived (centre reached),
 * -1 when it made no progress for a while (the caller should walk on by tiles). */
int pt__goto_continuous(pt_world *w, pt_entity *e, pt_cell goal, double speed_scale);
/* Turning in place for continuous movers (slows to a stop). */
void pt__brake_continuous(pt_world *w, pt_entity *e, double heading_goal);
/* Patrol motion of continuous pattern kinds (waypoints: follow path; thrust: the runner). */
void pt__patrol_continuous(pt_world *w, pt_entity *e);
/* The player as a vehicle for pursuit, interception and evasion, as it stands now. */
pt_vehicle pt__player_vehicle(const pt_world *w);
/* Prey e's tick against the player as `player` (pt__player_vehicle): it touches only its own
 * entity, agent and force, so prey can step on several threads. 1 when it was startled (the
 * caller makes its noise, PREY_NOISE at its cell, in mover order). */
int pt__prey_update(pt_world *w, pt_entity *e, const pt_vehicle *player);
/* Flock members. */
void pt__flock_tick(pt_world *w);
/* Back to a tile mover at the cell under its centre: it glides from where it stands to that
 * cell's centre at its speed before its next tile step, so it never jumps. */
void pt__go_tile(pt_world *w, pt_entity *e);
/* One tick of walking by tiles toward `goal` along an A* path (brain.c; re-planned when the
 * goal changes): 1 when it started the tick on the goal (it stands), -1 when there is no way
 * there, else 0. */
int pt__walk_tiles(pt_world *w, pt_entity *e, pt_cell goal);

/* Guard update for one tick (sight, awareness, state machine, motion). */
void pt__brain_update(pt_world *w, pt_entity *e);
/* Sends guard e to investigate cell `at` (walk there, look around, go back to its round): the
 * one entry for every reason to go and look at a place (a noise heard now or remembered, a
 * call). A guard in chase ignores it. */
void pt__brain_investigate(pt_world *w, pt_entity *e, pt_cell at);
/* ---- search.c: searching together ---- */
/* Guard e (in search) searches around `at`: joins the world's search, starting one there
 * when none is on or `at` lies outside its area (the members then search the new area). */
int pt__search_join(pt_world *w, const pt_entity *e, pt_cell at);
/* A search around `at` with no member yet (alone: each member covers the whole area). */
int pt__search_begin(pt_world *w, pt_cell at, int alone);
/* Guard e leaves the search (it left the search state). */
void pt__search_leave(pt_world *w, const pt_entity *e);
/* Marks the cells member e notices as searched and gives the cell it should walk to: 1; 0
 * when the search is over for e (covered, timed out, its own sweep done when alone, or
 * nothing left it can reach after it has walked some of the area); -1 when e has never had
 * a cell it can reach. */
int pt__search_step(pt_world *w, const pt_entity *e, pt_cell *goal);
/* Ends the world's search at once (the player starts again): its guards are no longer its
 * members; the caller moves them out of the search state. */
void pt__search_end(pt_world *w);
void pt__search_destroy(pt__search *s);
/* Puts guard e in search around `at` as its last known position, ready to step the world's
 * search (pt_world_search_start); a guard in chase is left alone. */
void pt__brain_search(pt_world *w, pt_entity *e, pt_cell at);
/* Starts the evasion countdown (as when the last chaser loses the player). */
void pt__phase_evasion(pt_world *w);
/* Guard e is told by a call that the player was last known at (x, y), as sure as `sure`: it
 * remembers it, chases when it sees the player, else goes there alert (a searching guard
 * searches there). */
void pt__brain_told(pt_world *w, pt_entity *e, double x, double y, double sure);
/* The calls of this step's new chasers (calls.c): run after every guard has moved. 1 when a
 * guard it told now chases. */
int pt__calls_run(pt_world *w);
/* The alert phase after the step's moves and calls (calls.c); `chasing`: a guard chases. */
void pt__phase_update(pt_world *w, int chasing);
/* Pattern motion for one tick (patrol state); shared by guards, prey and the player. */
void pt__pattern_tick(pt_world *w, pt_entity *e, double speed_scale);

#endif
