/* SPDX-License-Identifier: Zlib */
/* Obstacle avoidance: the detection box against the obstacles of the block index. */
#include <patrol/steer.h>

#include "nav/steer_env_index.h"
#include "nav/steer_env_ref.h"

#include <float.h>

/* ---- obstacle avoidance -------------------------------------------------------------- */

double pt_steer_box_length(const pt_vehicle *v, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    double ratio = v->max_speed > PT_EPS ? pt_vehicle_speed(v) / v->max_speed : 0.0;
    return p->box_length * (1.0 + pt_clamp(ratio, 0.0, 1.0));
}

pt_vec2 pt__steer_obstacle_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nobstacles <= 0 || !env->ix || !env->ix->obs_start) return pt__zero2();
    double box = pt_steer_box_length(v, p);
    double reach = box + env->ix->max_obstacle_r;
    int bx0, by0, bx1, by1;
    pt__block_range(env, v->pos.x - reach, v->pos.y - reach, v->pos.x + reach, v->pos.y + reach, &bx0, &by0, &bx1, &by1);
    double best_ip = DBL_MAX;
    pt_vec2 best_local = pt__zero2();
    double best_r = 0;
    int found = 0;
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int blk = by * env->ix->bcols + bx;
            for (int k = env->ix->obs_start[blk]; k < env->ix->obs_start[blk + 1]; k++) {
                const pt_obstacle *ob = &env->obstacles[env->ix->obs_ids[k]];
                pt_vec2 c = pt_v2(ob->x, ob->y);
                double range = box + ob->r;
                if (pt_v2_dist2(c, v->pos) >= range * range) continue; /* not tagged */
                pt_vec2 local = pt_v2_to_local(c, v->pos, v->heading);
                if (local.x < 0) continue; /* behind */
                double er = ob->r + v->radius; /* the box is as wide as the vehicle */
                if (fabs(local.y) >= er) continue;
                double sq = sqrt(er * er - local.y * local.y);
                double ip = local.x - sq;
                if (ip <= 0) ip = local.x + sq;
                if (ip < best_ip) {
                    best_ip = ip;
                    best_local = local;
                    best_r = er;
                    found = 1;
                }
            }
        }
    if (!found) return pt__zero2();
    double closeness = pt_clamp((box - best_local.x) / box, 0.0, 1.0);
    double mult = 1.0 + closeness;
    /* Away from the obstacle on either side, by the expanded radius (Buckland's listing used
     * r - y for both sides, which pushes toward an obstacle on the right). */
    double lateral = (best_r - fabs(best_local.y)) * mult;
    pt_vec2 f;
    f.y = best_local.y > 0 ? -lateral : lateral;
    f.x = -p->braking_weight * box * closeness; /* stronger the closer it is */
    return pt_v2_dir_to_world(f, v->heading);
}


pt_vec2 pt_steer_obstacle_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nobstacles <= 0 || !env->ix || !env->ix->obs_start) return pt__zero2();
    /* the detection box is at most twice box_length long */
    if (pt__obs_far(env, v->pos, 2.0 * p->box_length + env->ix->max_obstacle_r)) return pt__zero2();
    double reach = pt_steer_box_length(v, p) + env->ix->max_obstacle_r;
    int bx0, by0, bx1, by1;
    pt__block_range(env, v->pos.x - reach, v->pos.y - reach, v->pos.x + reach, v->pos.y + reach, &bx0, &by0, &bx1, &by1);
    /* Most vehicles have no obstacle in the blocks the reference would scan. */
    if (!pt__blocks_nonempty(env, env->ix->obs_start, bx0, by0, bx1, by1)) return pt__zero2();
    return pt__steer_obstacle_avoidance_ref(v, env, p);
}
