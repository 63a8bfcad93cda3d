/* SPDX-License-Identifier: Zlib */
/* Continuous (steered) movement (motion.c): chases, paths walked with string pulling,
 * waypoint and thrust patrols, prey and flocks, and the switches between tile and
 * continuous motion. Below the brain and the patterns' tick; above walking by tiles. */
#ifndef PATROL_GUARDS_MOTION_H
#define PATROL_GUARDS_MOTION_H

#include "state/world_state.h"

/* Sets up steering for every entity (agents, params, waypoints, cell space). */
int pt__motion_init(pt_world *w, pt_error *err);
void pt__motion_fini(pt_world *w);
/* Steering for entities [first, first + count) spawned into arrays with room for them (as
 * pt__motion_init sets up each); err located at their declaration. */
int pt__motion_add(pt_world *w, int first, int count, pt_error *err);
/* A waypoint patrol's path for entity e from its pattern run; PT_ERR_NOMEM. */
int pt__motion_waypoints(pt_world *w, pt_entity *e);
/* The flocks' crowds taken down (their members' agents written back into w->agents), and
 * built again from the live flock members (0 when out of memory): around a spawn or a remove
 * that changes the flocks or moves w->params. */
void pt__flocks_down(pt_world *w);
int pt__flocks_up(pt_world *w);
/* Switches a tile mover to continuous motion, keeping its position and heading. */
void pt__go_continuous(pt_world *w, pt_entity *e);
/* Back to a tile mover at the cell under its centre: it glides from where it stands to that
 * cell's centre at its speed before its next tile step, so it never jumps. */
void pt__go_tile(pt_world *w, pt_entity *e);
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
/* Every flock member one tick (pt_crowd), their entities written back, then the scatter
 * noises of the flocks that started to flee. */
void pt__flock_tick(pt_world *w);

#endif
