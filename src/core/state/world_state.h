/* SPDX-License-Identifier: Zlib */
/* The world's state: struct pt_world and the per-guard brain state (pt__brain, its memories,
 * the step's listeners). Every layer from state/ up reads and writes it; the functions that
 * only write into it are in state/, each file with its own header. */
#ifndef PATROL_WORLD_STATE_H
#define PATROL_WORLD_STATE_H

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

/* A door of the world (guards/doors.c): a cell whose tile kind is a door kind. */
typedef struct pt__door {
    int x, y;
    int state;               /* pt_door_state: the kind its cell has */
    int closes;              /* a guard that opened it closes it behind (the map's `closes`) */
} pt__door;
#define PT__DOOR_KNOWN 4     /* doors a guard remembers as closed */

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
    int listed;              /* its id is in the world's planners (pt__plan_set, guards/walk.h;
                                here, in glide's padding, so the brain stays its size) */
    double glide_x, glide_y, glide_t0;
    pt_cell investigate_at;  /* investigate: the place it walks to and looks around */
    /* A noise heard in the last step: the hearing pass (listen.c) keeps the loudest in
     * mem[PT_MEMORY_HEARD] and sets `heard`; the brain's next update reads and clears it. */
    int heard;
    double heard_level;
    pt__memory mem[PT_MEMORY_COUNT]; /* what it remembers, one per kind (memory.c) */
    /* Doors (guards/doors.c), each by its key (pt__door_key: the door's cell + 1, 0 = none):
     * the door it is opening and the ticks of the pause left; the door it opened and closes
     * behind it once off the cell; the tick its opening or closing noise was made (it does
     * not go to look at its own); the doors of its round it last found closed (0 = free). */
    int door_opening, door_wait, door_close;
    uint64_t door_noise_tick;
    int door_known[PT__DOOR_KNOWN];
    /* The game's order (guards/orders.c, docs/ai.md "Orders"): a pt_order_kind (0 = none),
     * its cell, and whether it is being carried out (1) or waits for the guard to be free
     * (read only in a world where orders_given is set). */
    int order, order_on;
    pt_cell order_at;
    /* Relighting (guards/relight.c, docs/ai.md "Relighting"; read only in a world with lights
     * and `relight` on): bit i set when it saw light i (i < PT__LIGHT_KNOWN) lit on its round;
     * the light it is going to relight (index + 1, 0 = none), the cell it walks to, and the
     * ticks of its stand there left (0 while it walks). */
    uint64_t light_known;
    int relight, relight_wait;
    pt_cell relight_at;
} pt__brain;
#define PT__LIGHT_KNOWN 64   /* the lights a guard can know: the map's first 64 */

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
    /* The ids whose brain set `planned` since the list last dropped them: the only plans a tile
     * change can cross (pt__plans_cell_changed), so a change visits these and not every
     * entity's brain. An id is listed at most once (pt__brain.listed); one that no longer plans
     * leaves at the next change. Room for every entity (per-entity array). */
    int *planners;
    int nplanners;
    int *callers;                /* guards that started a chase this step, in the order they did:
                                    they call out once every guard has moved (calls.c) */
    int ncallers;
    pt_phase phase;              /* the alert phase (phases.c) */
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
    /* The solver's sight table (levels/solve_sight.c): a hidden player is never noticed and
     * makes no footsteps, so the guards walk as they would beside a player they never notice
     * or hear; sight_fn is called at each guard's perceive, with the guard as it looks that
     * tick. */
    pt__search *search;          /* the world's search around the last known position (search.c) */
    int player_hidden;
    void (*sight_fn)(void *user, const pt_world *w, const pt_entity *guard);
    void *sight_user;
    /* The game's own player (patrol/player.h; state/player_host.c, world/player_tick.c):
     * host = 1 once pt_player_host gave the player to the game (for good); host_set = 1 when
     * a position waits for the next step, host_jump = 1 when a call since the last step was a
     * teleport; host_x, host_y (tiles) and host_vx, host_vy (tiles/s) the position and
     * velocity waiting. All 0 in a world that is not hosted. */
    int host, host_set, host_jump;
    double host_x, host_y, host_vx, host_vy;
    /* Doors (guards/doors.c): every door cell, by row then column; the legend index of the
     * open, closed and locked door kinds (-1: none, added when a door needs it); how many doors
     * are closed (not locked) now; door_live is 1 once any door has been other than open
     * (until then no door rule runs: a world whose doors never close steps as without them);
     * door_look: the map's `door_look` resolved (1 on, 0 off). */
    pt__door *doors;
    int ndoors;
    int door_kind[3];
    int doors_shut;
    int door_live;
    int door_look;
    /* Save and load (world/save.c): the fingerprint of the map the world was created from,
     * taken at create, before any pt_world_set_tile (world/save_fp.c). */
    uint32_t map_fp;
    /* Spawn and remove (world/spawn.c). `cap`: entries every per-entity array has room for
     * (0 until the first spawn: then they hold w->n). `gone`: per id, 1 once removed (NULL
     * until the first remove); a removed entity's kind is PT_KIND_COUNT, so every loop over
     * the guards passes it by. `ngroups`: the highest flock group id given (0 until the first
     * spawn: then the map's declarations), flock_noise_tick holds ngroups + 1. The events of
     * spawns and removes wait in `queued_events` for the next step (pt__events_begin). */
    int cap;
    unsigned char *gone;
    int orders_given;            /* 1 once the game gave a guard an order (world/orders.c): only
                                    then does a brain read its order, so a world without orders
                                    ticks as it did */
    uint32_t ngroups;
    pt_event queued_events[PT__MAX_EVENTS];
    int nqueued_events;
    /* Light (senses/light.c, docs/ai.md "Light"): the ambient level resolved (the map's, else
     * 1) and, per light of map.lights, 1 when it is on now (NULL when the map has none). */
    double ambient;
    unsigned char *light_on;
    /* The light field (senses/light.c): per cell (row by row), the sum of the lights that are
     * on, in units of 1/4096 (ambient and lanterns aside, no cap); NULL when the map has no
     * lights. The lights by blocks of 16x16 cells, to find those a tile change reaches: the
     * lights whose square (their cell +- the whole tiles below their radius) meets block b
     * (b = by * light_bw + bx) are light_in[light_block[b] .. light_block[b + 1]), by index;
     * both NULL, light_bw 0, without lights. */
    int32_t *light_field;
    int *light_block;
    int *light_in;
    int light_bw;
    /* The lights a guard may know (relighting, guards/relight.c) by where they stand: per
     * block of light_bw (16x16 cells), bit i set when light i < PT__LIGHT_KNOWN has its cell in
     * it; NULL without lights. Made at create: lights do not move. */
    uint64_t *light_cells;
    /* Sight in the dark (senses/perceive.c, senses/lantern.c; docs/ai.md "Light"). vis: the
     * player's visibility as the step started (pt_world_visibility then), the one value the
     * step's guards and prey see it by. lantern_seen, lantern_hi: ids 1..lantern_seen-1 were
     * looked at for a lantern, and none at or above lantern_hi of them carries one (0 before
     * the first step: none looked at). All three are remade at each step's start from the
     * state: a save does not carry them. */
    double vis;
    int lantern_seen, lantern_hi;
};

#endif
