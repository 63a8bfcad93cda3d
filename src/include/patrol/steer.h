/* patrol/steer.h - continuous steering (Reynolds / Buckland behaviours).
 * (Skeleton: the vehicle and the environment types the world needs. The behaviour library
 * is specified in issue 5.) */
#ifndef PATROL_STEER_H
#define PATROL_STEER_H

#include "map.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A point-mass vehicle in tile units and seconds. Zero fields = defaults (pt_vehicle_init). */
typedef struct pt_vehicle {
    pt_vec2 pos, vel;
    pt_vec2 heading;         /* unit vector; kept when speed is ~0 */
    pt_vec2 side;            /* perp(heading): points to the vehicle's right on screen */
    double mass;             /* default 1 */
    double max_speed;        /* tiles/s; default 3 */
    double max_force;        /* default 10 */
    double max_turn_rate;    /* rad/s; default 2*pi */
    double radius;           /* bounding radius, tiles; default 0.35 */
} pt_vehicle;

/* A wall segment from a to b; normal points out of the solid side (unit). */
typedef struct pt_wall { pt_vec2 a, b, normal; } pt_wall;

/* Static steering geometry of a world: walls (from tile boundaries) and circular obstacles. */
typedef struct pt_steer_env {
    pt_wall *walls; int nwalls;
    pt_obstacle *obstacles; int nobstacles;
    const pt_map *map;
} pt_steer_env;

#ifdef __cplusplus
}
#endif
#endif
