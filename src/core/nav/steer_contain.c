/* SPDX-License-Identifier: Zlib */
/* Containment: the push that keeps a vehicle (and where it is about to be) clear of solid
 * tiles, obstacles and a region. */
#include <patrol/steer.h>

#include "nav/steer_env_index.h"

/* The displacement that takes point pred to `clear` away from every boundary. */
static pt_vec2 contain_point(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_region *region,
                             pt_vec2 pred, double clear) {
    pt_vec2 f = pt__zero2();
    if (region) {
        double x0 = region->x0 + clear, x1 = region->x1 - clear, y0 = region->y0 + clear, y1 = region->y1 - clear;
        if (x0 > x1) x0 = x1 = 0.5 * (region->x0 + region->x1);
        if (y0 > y1) y0 = y1 = 0.5 * (region->y0 + region->y1);
        f = pt_v2_add(f, pt_v2_sub(pt_v2(pt_clamp(pred.x, x0, x1), pt_clamp(pred.y, y0, y1)), pred));
    }
    if (env && env->map && pt_v2_is_finite(pred)) {
        /* Per axis, the largest push any nearby solid tile asks for: a flat wall made of
         * several tiles pushes once, an inside corner pushes on both axes. */
        double px = 0, nx = 0, py = 0, ny = 0;
        int x0 = pt__cell_of(pred.x - clear), x1 = pt__cell_of(pred.x + clear);
        int y0 = pt__cell_of(pred.y - clear), y1 = pt__cell_of(pred.y + clear);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (!pt__solid(env->map, x, y)) continue;
                pt_vec2 q = pt__tile_closest(x, y, pred);
                pt_vec2 d = pt_v2_sub(pred, q);
                double len = pt_v2_len(d);
                pt_vec2 push;
                if (len > 1e-9) {
                    if (len >= clear) continue;
                    push = pt_v2_scale(d, (clear - len) / len);
                } else {
                    /* The prediction is inside the tile: back toward the vehicle, or out of
                     * the tile's centre when the vehicle itself is there. */
                    pt_vec2 back = pt_v2_norm(pt_v2_sub(v->pos, pred));
                    if (pt_v2_len2(back) < 0.5) back = pt_v2_norm(pt_v2_sub(pred, pt_v2(x + 0.5, y + 0.5)));
                    if (pt_v2_len2(back) < 0.5) back = pt_v2_neg(v->heading);
                    push = pt_v2_scale(back, clear);
                }
                if (push.x > px) px = push.x;
                if (-push.x > nx) nx = -push.x;
                if (push.y > py) py = push.y;
                if (-push.y > ny) ny = -push.y;
            }
        f = pt_v2_add(f, pt_v2(px - nx, py - ny));
    }
    if (env && env->nobstacles > 0 && env->ix && env->ix->obs_start && pt_v2_is_finite(pred)) {
        /* Obstacles: the deepest one the predicted body would enter, pushed out radially. */
        double reach = clear + env->ix->max_obstacle_r;
        int bx0, by0, bx1, by1;
        pt__block_range(env, pred.x - reach, pred.y - reach, pred.x + reach, pred.y + reach, &bx0, &by0, &bx1, &by1);
        pt_vec2 push = pt__zero2();
        double deepest = 0;
        for (int by = by0; by <= by1; by++)
            for (int bx = bx0; bx <= bx1; bx++) {
                int blk = by * env->ix->bcols + bx;
                for (int k = env->ix->obs_start[blk]; k < env->ix->obs_start[blk + 1]; k++) {
                    const pt_obstacle *ob = &env->obstacles[env->ix->obs_ids[k]];
                    pt_vec2 d = pt_v2_sub(pred, pt_v2(ob->x, ob->y));
                    double len = pt_v2_len(d);
                    double pen = clear + ob->r - len;
                    if (pen <= deepest) continue;
                    deepest = pen;
                    pt_vec2 n = len > 1e-9 ? pt_v2_scale(d, 1.0 / len) : pt_v2_neg(v->heading);
                    push = pt_v2_scale(n, pen);
                }
            }
        f = pt_v2_add(f, push);
    }
    return pt_v2_is_finite(f) ? f : pt__zero2();
}

pt_vec2 pt_steer_containment(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_region *region,
                             const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    double clear = v->radius + p->containment_margin;
    pt_vec2 pred = pt_v2_add(v->pos, pt_v2_scale(v->vel, p->containment_lookahead));
    /* Where it will be, plus where it is: a body already too close pushes even when its
     * prediction has moved past the obstacle. */
    pt_vec2 f = pt_v2_add(contain_point(v, env, region, pred, clear), contain_point(v, env, region, v->pos, clear));
    return pt_v2_is_finite(f) ? f : pt__zero2();
}
