/* SPDX-License-Identifier: Zlib */
/* Hard collision of circles against tiles and obstacles, and the clearance of a point from
 * solid tiles. */
#include <patrol/steer.h>

#include "nav/steer_env_index.h"
#include "nav/steer_env_ref.h"

/* ---- tiles --------------------------------------------------------------------------- */

double pt_steer_tile_clearance(const pt_map *map, pt_vec2 p, double reach) {
    if (!map || !pt_v2_is_finite(p)) return 0.0;
    if (!(reach > 0)) reach = 0.0;
    if (reach > 64) reach = 64;
    int cx = pt__cell_of(p.x), cy = pt__cell_of(p.y);
    if (pt__solid(map, cx, cy)) return 0.0;
    double best2 = reach * reach;
    int x0 = pt__cell_of(p.x - reach), x1 = pt__cell_of(p.x + reach), y0 = pt__cell_of(p.y - reach), y1 = pt__cell_of(p.y + reach);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (!pt__solid(map, x, y)) continue;
            double d2 = pt_v2_dist2(p, pt__tile_closest(x, y, p));
            if (d2 < best2) best2 = d2;
        }
    return sqrt(best2);
}

/* ---- hard collision ------------------------------------------------------------------ */

static void remove_into(pt_vec2 *vel, pt_vec2 n) {
    if (!vel) return;
    double vn = pt_v2_dot(*vel, n);
    if (vn < 0) *vel = pt_v2_sub(*vel, pt_v2_scale(n, vn));
}

/* Moves a centre that is on a non-walkable cell to the nearest point of a walkable cell
 * (searching rings up to 8 cells out). Returns 1 if moved. */
static int escape_solid(const pt_map *m, pt_vec2 *pos) {
    int cx = pt__cell_of(pos->x), cy = pt__cell_of(pos->y);
    if (!pt__solid(m, cx, cy)) return 0;
    int found = 0, found_ring = 0;
    double best2 = 0;
    int bx = 0, by = 0;
    for (int k = 1; k <= 8; k++) {
        if (found && k > found_ring + 1) break; /* a farther ring can still be closer by one */
        for (int y = cy - k; y <= cy + k; y++)
            for (int x = cx - k; x <= cx + k; x++) {
                if (x != cx - k && x != cx + k && y != cy - k && y != cy + k) continue; /* ring only */
                if (pt__solid(m, x, y)) continue;
                double d2 = pt_v2_dist2(*pos, pt__tile_closest(x, y, *pos));
                if (!found || d2 < best2) {
                    found = 1;
                    if (!found_ring) found_ring = k;
                    best2 = d2;
                    bx = x;
                    by = y;
                }
            }
    }
    if (!found) return 0;
    /* Just inside the walkable cell; the push-out step then clears the radius. */
    const double in = 1e-7;
    *pos = pt_v2(pt_clamp(pos->x, bx + in, bx + 1.0 - in), pt_clamp(pos->y, by + in, by + 1.0 - in));
    return 1;
}

int pt_steer_collide_tiles(const pt_map *map, pt_vec2 *pos, pt_vec2 *vel, double radius) {
    if (!map || !map->flags || !pos || !pt_v2_is_finite(*pos)) return 0;
    if (!(radius >= 0)) radius = 0;
    if (radius > 16) radius = 16; /* bounds the cell scan */
    int moved = 0;
    /* Far outside: bring it back next to the map first. */
    pt_vec2 c = pt_v2(pt_clamp(pos->x, -1.0, map->w + 1.0), pt_clamp(pos->y, -1.0, map->h + 1.0));
    if (c.x != pos->x || c.y != pos->y) {
        *pos = c;
        moved = 1;
    }
    if (escape_solid(map, pos)) {
        moved = 1;
        if (vel) *vel = pt_v2(0.0, 0.0);
    }
    for (int iter = 0; iter < 8 && radius > 0; iter++) {
        double deepest = 0;
        pt_vec2 n = pt__zero2();
        int x0 = pt__cell_of(pos->x - radius), x1 = pt__cell_of(pos->x + radius);
        int y0 = pt__cell_of(pos->y - radius), y1 = pt__cell_of(pos->y + radius);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (!pt__solid(map, x, y)) continue;
                pt_vec2 q = pt__tile_closest(x, y, *pos);
                pt_vec2 d = pt_v2_sub(*pos, q);
                double len = pt_v2_len(d);
                double pen = radius - len;
                if (pen <= deepest) continue;
                deepest = pen;
                n = len > 1e-12 ? pt_v2_scale(d, 1.0 / len) : pt_v2_norm(pt_v2_sub(*pos, pt_v2(x + 0.5, y + 0.5)));
            }
        if (deepest <= 0 || pt_v2_len2(n) < 0.5) break;
        *pos = pt_v2_add(*pos, pt_v2_scale(n, deepest));
        remove_into(vel, n);
        moved = 1;
    }
    /* In a gap narrower than the circle the pushes can cross into a solid cell: never end there. */
    if (escape_solid(map, pos)) {
        moved = 1;
        if (vel) *vel = pt_v2(0.0, 0.0);
    }
    return moved;
}

int pt_steer_collide_obstacles(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius) {
    if (!env || env->nobstacles <= 0 || !env->ix || !env->ix->obs_start || !pos || !pt_v2_is_finite(*pos)) return 0;
    if (!(radius >= 0)) radius = 0;
    int moved = 0;
    for (int iter = 0; iter < 4; iter++) {
        double reach = radius + env->ix->max_obstacle_r;
        int bx0, by0, bx1, by1;
        pt__block_range(env, pos->x - reach, pos->y - reach, pos->x + reach, pos->y + reach, &bx0, &by0, &bx1, &by1);
        double deepest = 0;
        pt_vec2 n = pt__zero2();
        for (int by = by0; by <= by1; by++)
            for (int bx = bx0; bx <= bx1; bx++) {
                int blk = by * env->ix->bcols + bx;
                for (int k = env->ix->obs_start[blk]; k < env->ix->obs_start[blk + 1]; k++) {
                    const pt_obstacle *ob = &env->obstacles[env->ix->obs_ids[k]];
                    pt_vec2 d = pt_v2_sub(*pos, pt_v2(ob->x, ob->y));
                    double len = pt_v2_len(d);
                    double pen = radius + ob->r - len;
                    if (pen <= deepest) continue;
                    deepest = pen;
                    n = len > 1e-12 ? pt_v2_scale(d, 1.0 / len) : pt_v2(1.0, 0.0);
                }
            }
        if (deepest <= 0) break;
        *pos = pt_v2_add(*pos, pt_v2_scale(n, deepest));
        remove_into(vel, n);
        moved = 1;
    }
    return moved;
}

int pt__steer_collide_ref(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius) {
    if (!env) return 0;
    int moved = 0;
    for (int pass = 0; pass < 2; pass++) {
        moved |= pt_steer_collide_obstacles(env, pos, vel, radius);
        if (env->map) moved |= pt_steer_collide_tiles(env->map, pos, vel, radius);
    }
    return moved;
}

/* ---- fast collision: pt__steer_collide_ref's steps, skipped when they would do nothing -- */

/* Whether pt_steer_collide_obstacles could move the circle: an obstacle is listed in the
 * blocks it scans. 0 means it would return 0 and change nothing. */
static inline int obstacles_in_reach(const pt_steer_env *env, pt_vec2 pos, double radius) {
    if (env->nobstacles <= 0 || !env->ix || !env->ix->obs_start) return 0;
    if (!(radius >= 0)) radius = 0;
    double reach = radius + env->ix->max_obstacle_r;
    if (pt__obs_far(env, pos, reach)) return 0;
    int bx0, by0, bx1, by1;
    pt__block_range(env, pos.x - reach, pos.y - reach, pos.x + reach, pos.y + reach, &bx0, &by0, &bx1, &by1);
    return pt__blocks_nonempty(env, env->ix->obs_start, bx0, by0, bx1, by1);
}

/* Whether pt_steer_collide_tiles would return 0 at once for a circle with radius in [0, 1):
 * the (at most 2x2) cells its box touches are walkable cells of the map. Then the centre is
 * on one of them and the first push scan finds no solid cell. */
static inline int tiles_clear_small(const pt_map *m, pt_vec2 p, double r) {
    double x0 = p.x - r, x1 = p.x + r, y0 = p.y - r, y1 = p.y + r;
    if (!(r >= 0 && r < 1 && x0 >= 0 && y0 >= 0 && x1 < m->w && y1 < m->h)) return 0;
    size_t w = (size_t)m->w;
    const uint8_t *r0 = m->flags + (size_t)(int)y0 * w, *r1 = m->flags + (size_t)(int)y1 * w;
    int cx0 = (int)x0, cx1 = (int)x1;
    return r0[cx0] & r0[cx1] & r1[cx0] & r1[cx1] & PT_TILE_WALKABLE;
}

int pt_steer_collide(const pt_steer_env *env, pt_vec2 *pos, pt_vec2 *vel, double radius) {
    if (!env) return 0;
    if (!pos || !pt_v2_is_finite(*pos)) return pt__steer_collide_ref(env, pos, vel, radius);
    const pt_map *m = env->map;
    if ((!m || !m->flags || tiles_clear_small(m, *pos, radius)) && !obstacles_in_reach(env, *pos, radius)) return 0;
    int moved = 0;
    for (int pass = 0; pass < 2; pass++) {
        int m = 0;
        if (obstacles_in_reach(env, *pos, radius)) m |= pt_steer_collide_obstacles(env, pos, vel, radius);
        if (env->map) m |= pt_steer_collide_tiles(env->map, pos, vel, radius);
        moved |= m;
        /* a pass that moved nothing changed nothing: the second would do the same */
        if (!m) break;
    }
    return moved;
}
