/* SPDX-License-Identifier: Zlib */
/* The fixed tuning of guard brains (brain.c), searching (search.c) and continuous movers
 * (motion.c), and through its includes that of the layers below them: perceive and listen
 * (senses/), the player's gaits (state/), each defined beside the code that reads it.
 * docs/ai.md states each of these; tests/check_defaults.c reads them all from here and
 * compares them with the numbers in the docs. Times in seconds, distances in tiles. */
#ifndef PATROL_GUARDS_TUNING_H
#define PATROL_GUARDS_TUNING_H

#include <patrol/math.h>

#include "map/phases.h"      /* the alert phases' defaults */
#include "senses/listen.h"   /* HEARD_SURE_AT */
#include "senses/perceive.h" /* PERIPHERAL_DIST, PERIPHERAL_RATE, PREY_NOTICE_DIST */
#include "state/player.h"    /* the player's gaits (GAIT_*) */

/* brain.c */
#define CHASE_SPEED_SCALE 1.3   /* chasers run faster than they patrol */
#define LOST_GRACE_S 0.75       /* out of sight this long in chase -> search */
#define SEARCH_LOOK_S 3.0       /* looking around at the last known position (no memory for
                                   the world's search) */
#define SEARCH_RADIUS 10.0      /* search.c: the area, in tiles of walking from that position */
#define SEARCH_SPLIT_S 1.0      /* search.c: the shares are drawn again this often */
#define LOOK_STEP_S 0.75        /* one quarter turn while looking around */
#define TURN_RATE (PT_PI)       /* rad/s while suspicious */
#define CATCH_DIST 1.75        /* centre distance that counts as reaching the player */
#define INVESTIGATE_LOOK_S 2.0  /* looking around where a noise was heard */
#define HEAR_AWARENESS 0.1      /* awareness a heard noise adds, at most up to suspicious_at */

/* motion.c (PREY_NOISE: world/movers.c) */
#define PREY_CALM_S 2.0        /* prey stop fleeing after this long without noticing */
#define BOID_SCATTER_DIST 3.0  /* flock members evade a player this close */
#define PREY_NOISE 8.0         /* loudness of prey starting to flee (a hen's cackle) */
#define FLOCK_NOISE 8.0        /* loudness of a flock member starting to scatter ... */
#define FLOCK_NOISE_GAP_S 1.0  /* ... at most once this often per flock */
#define LOOKAHEAD_CELLS 8      /* string pulling: how far along an A* path to look */
#define STUCK_S 1.5            /* a chaser or path walker that stays within STUCK_DIST of one */
#define STUCK_DIST 0.25        /* place this long (longer for a slow vehicle) goes on by tiles */

#endif
