/* SPDX-License-Identifier: Zlib */
/* steer_env_ref.h - the straightforward versions of the environment queries (not installed).
 * pt_steer_wall_avoidance, pt_steer_obstacle_avoidance and pt_steer_collide skip the work
 * these do when the map around the vehicle is clear; they must return the same bits. Kept
 * for tests/check_steer_env.c, which compares the two on many random vehicles. */
#ifndef PATROL_STEER_ENV_REF_H
#define PATROL_STEER_ENV_REF_H

#include <patrol/steer.h>

pt_vec2 pt__steer_wall_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p);
pt_vec2 pt__steer_obstacle_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p);
int pt__steer_collide_ref(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius);

#endif
