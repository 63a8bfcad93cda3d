/* world_internal.h - the world's private state, shared by world.c and brain.c. */
#ifndef PATROL_WORLD_INTERNAL_H
#define PATROL_WORLD_INTERNAL_H

#include <patrol/path.h>
#include <patrol/world.h>

#define PT__MAX_EVENTS 256

/* Per-guard brain memory that is not worth exposing in pt_entity. */
typedef struct pt__brain {
    int lost_ticks;          /* chase: ticks since the player was last seen */
    int search_phase;        /* 0 walking to the last known position, 1 looking around */
    int search_ticks;        /* ticks in the looking-around phase */
    int planned;             /* a path toward target_cell is in entity->path */
    pt_cell target_cell;     /* cell the current path leads to */
    double look_base;        /* heading when looking around started */
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
    int round;
    int caught_total;
    pt_pathfinder *pf;
    pt_cell *scratch;            /* pattern cells / path buffer */
    int scratch_cap;
    pt_steer_env env;
};

void pt__world_event(pt_world *w, pt_event_kind kind, uint32_t a, uint32_t b, int x, int y);
/* Moves a tile mover to cell (x,y) (remembering the previous cell for interpolation). */
void pt__entity_move_to(pt_entity *e, int x, int y);
/* Guard update for one tick (sight, awareness, state machine, motion). */
void pt__brain_update(pt_world *w, pt_entity *e);
/* Pattern motion for one tick (patrol state); shared by guards, prey and the player. */
void pt__pattern_tick(pt_world *w, pt_entity *e, double speed_scale);
/* Player caught: record, respawn or end the round. */
void pt__player_caught(pt_world *w, pt_entity *guard);

#endif
