/* SPDX-License-Identifier: Zlib */
/* Steering geometry: walls from tile boundaries, the block index over walls and obstacles,
 * the behaviours that read them (obstacle and wall avoidance, hide, containment), and the
 * hard collision of circles against tiles and obstacles. */
#include <patrol/steer.h>

#include "internal.h"
#include "steer_env_priv.h"
#include "steer_priv.h"
#include "steer_env_ref.h"

#include <float.h>
#include <string.h>

#if defined(__GNUC__)
#define PT_ALWAYS_INLINE __attribute__((always_inline))
#else
#define PT_ALWAYS_INLINE
#endif

#define BLOCK_TILES 4.0          /* index block size (tiles) */
#define MAX_BLOCKS (1 << 20)

static inline pt_vec2 zero2(void) { return pt_v2(0.0, 0.0); }

/* ---- building ------------------------------------------------------------------------ */

typedef struct wall_buf { pt_wall *w; int n, cap; } wall_buf;

static int wall_push(wall_buf *b, double ax, double ay, double bx, double by, double nx, double ny) {
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 64;
        pt_wall *w = PT_REALLOC(b->w, sizeof *w * (size_t)cap);
        if (!w) return PT_ERR_NOMEM;
        b->w = w;
        b->cap = cap;
    }
    pt_wall *w = &b->w[b->n++];
    w->a = pt_v2(ax, ay);
    w->b = pt_v2(bx, by);
    w->normal = pt_v2(nx, ny);
    return PT_OK;
}

/* Walls along the tile boundaries. For the boundary at row j (between rows j-1 and j) the
 * edge of column x is a wall when exactly one side is walkable; consecutive edges with the
 * same facing merge. Winding: normal == perp(b - a). */
static int build_map_walls(const pt_map *m, wall_buf *out) {
    for (int j = 0; j <= m->h; j++) {
        int run = 0, start = 0; /* run: 0 none, +1 normal +y (solid above), -1 normal -y */
        for (int x = 0; x <= m->w; x++) {
            int f = 0;
            if (x < m->w) {
                int up = pt_map_walkable(m, x, j - 1), down = pt_map_walkable(m, x, j);
                f = up == down ? 0 : (down ? 1 : -1);
            }
            if (f != run) {
                if (run == 1 && wall_push(out, start, j, x, j, 0, 1) < 0) return PT_ERR_NOMEM;
                if (run == -1 && wall_push(out, x, j, start, j, 0, -1) < 0) return PT_ERR_NOMEM;
                run = f;
                start = x;
            }
        }
    }
    for (int i = 0; i <= m->w; i++) {
        int run = 0, start = 0; /* +1: normal +x (solid left), -1: normal -x */
        for (int y = 0; y <= m->h; y++) {
            int f = 0;
            if (y < m->h) {
                int left = pt_map_walkable(m, i - 1, y), right = pt_map_walkable(m, i, y);
                f = left == right ? 0 : (right ? 1 : -1);
            }
            if (f != run) {
                if (run == 1 && wall_push(out, i, y, i, start, 1, 0) < 0) return PT_ERR_NOMEM;
                if (run == -1 && wall_push(out, i, start, i, y, -1, 0) < 0) return PT_ERR_NOMEM;
                run = f;
                start = y;
            }
        }
    }
    return PT_OK;
}

static void block_range(const pt_steer_env *e, double x0, double y0, double x1, double y1, int *bx0, int *by0,
                        int *bx1, int *by1) {
    double inv = e->ix->inv_block;
    double fx0 = (x0 - e->ix->ox) * inv, fx1 = (x1 - e->ix->ox) * inv, fy0 = (y0 - e->ix->oy) * inv, fy1 = (y1 - e->ix->oy) * inv;
    /* Clamped and monotone: a range never misses a block an item in range was filed under. */
    *bx0 = !(fx0 >= 0) ? 0 : (fx0 >= e->ix->bcols ? e->ix->bcols - 1 : (int)fx0);
    *bx1 = !(fx1 >= 0) ? 0 : (fx1 >= e->ix->bcols ? e->ix->bcols - 1 : (int)fx1);
    *by0 = !(fy0 >= 0) ? 0 : (fy0 >= e->ix->brows ? e->ix->brows - 1 : (int)fy0);
    *by1 = !(fy1 >= 0) ? 0 : (fy1 >= e->ix->brows ? e->ix->brows - 1 : (int)fy1);
}

/* CSR lists: for each item, the blocks its box [lo, hi] overlaps. */
static int build_lists(const pt_steer_env *e, int n, const double *box, int **start_out, int **ids_out) {
    int nb = e->ix->bcols * e->ix->brows;
    int *start = PT_CALLOC((size_t)nb + 1, sizeof *start);
    if (!start) return PT_ERR_NOMEM;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        int bx0, by0, bx1, by1;
        block_range(e, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3], &bx0, &by0, &bx1, &by1);
        for (int by = by0; by <= by1; by++)
            for (int bx = bx0; bx <= bx1; bx++) start[by * e->ix->bcols + bx + 1]++;
        total += (size_t)(bx1 - bx0 + 1) * (size_t)(by1 - by0 + 1);
    }
    if (total > (size_t)INT32_MAX / 2) {
        PT_FREE(start);
        return PT_ERR_NOMEM;
    }
    for (int b = 0; b < nb; b++) start[b + 1] += start[b];
    int *ids = PT_MALLOC(sizeof *ids * (total ? total : 1));
    int *cur = PT_MALLOC(sizeof *cur * (size_t)nb);
    if (!ids || !cur) {
        PT_FREE(start);
        PT_FREE(ids);
        PT_FREE(cur);
        return PT_ERR_NOMEM;
    }
    memcpy(cur, start, sizeof *cur * (size_t)nb);
    for (int i = 0; i < n; i++) {
        int bx0, by0, bx1, by1;
        block_range(e, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3], &bx0, &by0, &bx1, &by1);
        for (int by = by0; by <= by1; by++)
            for (int bx = bx0; bx <= bx1; bx++) ids[cur[by * e->ix->bcols + bx]++] = i;
    }
    PT_FREE(cur);
    *start_out = start;
    *ids_out = ids;
    return PT_OK;
}

/* A two-pass Chebyshev distance transform over a W x H grid in place: each cell ends up the
 * distance to the nearest cell that was 0, capped at 255; cells outside the grid count as
 * `outside` (0: the grid's outside is as near as a 0 cell; 255: it is not there). */
static void chebyshev(uint8_t *d, int W, int H, int outside) {
#define NEAR(x, y) ((x) >= 0 && (x) < W && (y) >= 0 && (y) < H ? d[(size_t)(y) * (size_t)W + (size_t)(x)] : outside)
    for (int pass = 0; pass < 2; pass++) {
        int st = pass ? -1 : 1; /* forward from the top left, then back from the bottom right */
        for (int y = pass ? H - 1 : 0; y >= 0 && y < H; y += st)
            for (int x = pass ? W - 1 : 0; x >= 0 && x < W; x += st) {
                int v = d[(size_t)y * (size_t)W + (size_t)x];
                if (NEAR(x - st, y) + 1 < v) v = NEAR(x - st, y) + 1;
                for (int dx = -1; dx <= 1; dx++)
                    if (NEAR(x + dx, y - st) + 1 < v) v = NEAR(x + dx, y - st) + 1;
                d[(size_t)y * (size_t)W + (size_t)x] = (uint8_t)v;
            }
    }
#undef NEAR
}

/* obs_near: per block, 0 where one lists an obstacle, then the distance transform. */
static int build_obs_near(pt_steer_env *e) {
    int W = e->ix->bcols, H = e->ix->brows;
    uint8_t *d = PT_MALLOC((size_t)W * (size_t)H);
    if (!d) return PT_ERR_NOMEM;
    for (int b = 0; b < W * H; b++) d[b] = e->ix->obs_start[b + 1] > e->ix->obs_start[b] ? 0 : 255;
    chebyshev(d, W, H, 255);
    e->ix->obs_near = d;
    return PT_OK;
}

/* 1 when no obstacle can be listed in the blocks block_range gives for p +- reach: the
 * block of p is farther than that range reaches from every block listing one. */
static inline int obs_far(const pt_steer_env *e, pt_vec2 p, double reach) {
    double fx = (p.x - e->ix->ox) * e->ix->inv_block, fy = (p.y - e->ix->oy) * e->ix->inv_block, k = reach * e->ix->inv_block + 1.001;
    if (!(fx >= 0 && fy >= 0 && fx < e->ix->bcols && fy < e->ix->brows && k < 255)) return 0;
    return e->ix->obs_near[(size_t)(int)fy * (size_t)e->ix->bcols + (size_t)(int)fx] > k;
}

static int build_index(pt_steer_env *e) {
    e->ix = PT_CALLOC(1, sizeof *e->ix);
    if (!e->ix) return PT_ERR_NOMEM;
    double minx = 0, miny = 0, maxx = 1, maxy = 1;
    if (e->map) {
        maxx = e->map->w;
        maxy = e->map->h;
    }
    e->ix->max_obstacle_r = 0;
    for (int i = 0; i < e->nwalls; i++) {
        const pt_wall *w = &e->walls[i];
        minx = fmin(minx, fmin(w->a.x, w->b.x));
        maxx = fmax(maxx, fmax(w->a.x, w->b.x));
        miny = fmin(miny, fmin(w->a.y, w->b.y));
        maxy = fmax(maxy, fmax(w->a.y, w->b.y));
    }
    for (int i = 0; i < e->nobstacles; i++) {
        const pt_obstacle *o = &e->obstacles[i];
        minx = fmin(minx, o->x - o->r);
        maxx = fmax(maxx, o->x + o->r);
        miny = fmin(miny, o->y - o->r);
        maxy = fmax(maxy, o->y + o->r);
        e->ix->max_obstacle_r = fmax(e->ix->max_obstacle_r, o->r);
    }
    e->ix->ox = floor(minx) - 1.0;
    e->ix->oy = floor(miny) - 1.0;
    e->ix->block = BLOCK_TILES;
    for (;;) {
        double cols = floor((maxx - e->ix->ox) / e->ix->block) + 1.0, rows = floor((maxy - e->ix->oy) / e->ix->block) + 1.0;
        if (cols * rows <= MAX_BLOCKS) {
            e->ix->bcols = (int)cols;
            e->ix->brows = (int)rows;
            break;
        }
        e->ix->block *= 2.0;
    }
    e->ix->inv_block = 1.0 / e->ix->block;
    int n = e->nwalls > e->nobstacles ? e->nwalls : e->nobstacles;
    double *box = PT_MALLOC(sizeof *box * 4 * (size_t)(n ? n : 1));
    if (!box) return PT_ERR_NOMEM;
    for (int i = 0; i < e->nwalls; i++) {
        const pt_wall *w = &e->walls[i];
        box[4 * i] = fmin(w->a.x, w->b.x);
        box[4 * i + 1] = fmin(w->a.y, w->b.y);
        box[4 * i + 2] = fmax(w->a.x, w->b.x);
        box[4 * i + 3] = fmax(w->a.y, w->b.y);
    }
    int rc = build_lists(e, e->nwalls, box, &e->ix->wall_start, &e->ix->wall_ids);
    if (rc == PT_OK) {
        /* Each block's wall boxes side by side, so a feeler scans a block without visiting
         * the walls its box misses. Rounded outward: a conservative filter in float. */
        int total = e->ix->wall_start[e->ix->bcols * e->ix->brows];
        e->ix->wall_box = PT_MALLOC(sizeof *e->ix->wall_box * 4 * (size_t)(total ? total : 1));
        if (!e->ix->wall_box) rc = PT_ERR_NOMEM;
        e->ix->wall_box_exact = 1;
        for (int k = 0; rc == PT_OK && k < total; k++) {
            const double *b = &box[4 * e->ix->wall_ids[k]];
            for (int c = 0; c < 4; c++) {
                float f = (float)b[c];
                if (!((double)f == b[c])) e->ix->wall_box_exact = 0;
                if (c < 2 && (double)f > b[c]) f = nextafterf(f, -INFINITY);
                if (c >= 2 && (double)f < b[c]) f = nextafterf(f, INFINITY);
                e->ix->wall_box[4 * k + c] = f;
            }
        }
    }
    if (rc == PT_OK) {
        for (int i = 0; i < e->nobstacles; i++) {
            const pt_obstacle *o = &e->obstacles[i];
            box[4 * i] = o->x - o->r;
            box[4 * i + 1] = o->y - o->r;
            box[4 * i + 2] = o->x + o->r;
            box[4 * i + 3] = o->y + o->r;
        }
        rc = build_lists(e, e->nobstacles, box, &e->ix->obs_start, &e->ix->obs_ids);
    }
    if (rc == PT_OK) rc = build_obs_near(e);
    PT_FREE(box);
    return rc;
}

void pt_steer_env_fini(pt_steer_env *env) {
    if (!env) return;
    PT_FREE(env->walls);
    PT_FREE(env->obstacles);
    if (env->ix) {
        PT_FREE(env->ix->wall_start);
        PT_FREE(env->ix->wall_ids);
        PT_FREE(env->ix->obs_start);
        PT_FREE(env->ix->obs_ids);
        PT_FREE(env->ix->solid_bits);
        PT_FREE(env->ix->solid_cols);
        PT_FREE(env->ix->wall_box);
        PT_FREE(env->ix->obs_near);
        PT_FREE(env->ix->tile_clear);
        PT_FREE(env->ix);
    }
    memset(env, 0, sizeof *env);
}

static int env_finish(pt_steer_env *env, pt_wall *walls, int nwalls, const pt_obstacle *obs, int nobs,
                      const pt_map *map) {
    env->walls = walls;
    env->nwalls = nwalls;
    env->map = map;
    if (nobs > 0 && obs) {
        env->obstacles = PT_MALLOC(sizeof *env->obstacles * (size_t)nobs);
        if (!env->obstacles) goto fail;
        memcpy(env->obstacles, obs, sizeof *env->obstacles * (size_t)nobs);
        env->nobstacles = nobs;
    }
    if (build_index(env) < 0) goto fail;
    return PT_OK;
fail:
    pt_steer_env_fini(env);
    return PT_ERR_NOMEM;
}

int pt_steer_env_set(pt_steer_env *env, const pt_wall *walls, int nwalls, const pt_obstacle *obs, int nobs,
                     const pt_map *map) {
    memset(env, 0, sizeof *env);
    pt_wall *w = NULL;
    if (nwalls > 0 && walls) {
        w = PT_MALLOC(sizeof *w * (size_t)nwalls);
        if (!w) return PT_ERR_NOMEM;
        memcpy(w, walls, sizeof *w * (size_t)nwalls);
    } else {
        nwalls = 0;
    }
    return env_finish(env, w, nwalls, obs, nobs, map);
}

int pt_steer_env_build(pt_steer_env *env, const pt_map *map) {
    memset(env, 0, sizeof *env);
    wall_buf b = {0};
    if (map && map->flags && build_map_walls(map, &b) < 0) {
        PT_FREE(b.w);
        return PT_ERR_NOMEM;
    }
    int rc = env_finish(env, b.w, b.n, map ? map->obstacles : NULL, map ? map->nobstacles : 0, map);
    if (rc == PT_OK && map && map->flags && map->w > 0 && map->h > 0) {
        /* The tiles the walls came from, one bit each: wall avoidance looks here first.
         * Rows of bytes, each padded with 8 zero bytes so any 8 bytes from a row's start
         * can be read as one word (row_bits). */
        int stride = (map->w + 7) / 8 + 8, cstride = (map->h + 7) / 8 + 8;
        env->ix->solid_bits = PT_CALLOC((size_t)stride * (size_t)map->h, 1);
        env->ix->solid_cols = PT_CALLOC((size_t)cstride * (size_t)map->w, 1);
        env->ix->tile_clear = PT_MALLOC((size_t)map->w * (size_t)map->h);
        if (!env->ix->solid_bits || !env->ix->solid_cols || !env->ix->tile_clear) {
            pt_steer_env_fini(env);
            return PT_ERR_NOMEM;
        }
        env->ix->bits_w = map->w;
        env->ix->bits_h = map->h;
        env->ix->bits_stride = stride;
        env->ix->cols_stride = cstride;
        for (int y = 0; y < map->h; y++)
            for (int x = 0; x < map->w; x++)
                if (!(env->ix->tile_clear[(size_t)y * (size_t)map->w + (size_t)x] = pt_map_walkable(map, x, y) ? 255 : 0)) {
                    env->ix->solid_bits[(size_t)y * (size_t)stride + (size_t)(x >> 3)] |= (uint8_t)(1u << (x & 7));
                    env->ix->solid_cols[(size_t)x * (size_t)cstride + (size_t)(y >> 3)] |= (uint8_t)(1u << (y & 7));
                }
        chebyshev(env->ix->tile_clear, map->w, map->h, 0);
        /* build_map_walls makes axis-aligned walls with integer ends and normals (0,+-1) or
         * (+-1,0): the feeler test can drop the products with their zero components. */
        env->ix->walls_axis = 1;
    }
    return rc;
}

/* ---- obstacle avoidance -------------------------------------------------------------- */

double pt_steer_box_length(const pt_vehicle *v, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    double ratio = v->max_speed > PT_EPS ? pt_vehicle_speed(v) / v->max_speed : 0.0;
    return p->box_length * (1.0 + pt_clamp(ratio, 0.0, 1.0));
}

pt_vec2 pt__steer_obstacle_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nobstacles <= 0 || !env->ix || !env->ix->obs_start) return zero2();
    double box = pt_steer_box_length(v, p);
    double reach = box + env->ix->max_obstacle_r;
    int bx0, by0, bx1, by1;
    block_range(env, v->pos.x - reach, v->pos.y - reach, v->pos.x + reach, v->pos.y + reach, &bx0, &by0, &bx1, &by1);
    double best_ip = DBL_MAX;
    pt_vec2 best_local = zero2();
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
    if (!found) return zero2();
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

/* Whether any item is listed in blocks [bx0,bx1] x [by0,by1]: the CSR offsets count items
 * in row-major block order, so one row of blocks is two loads. */
static int blocks_nonempty(const pt_steer_env *e, const int *start, int bx0, int by0, int bx1, int by1) {
    for (int by = by0; by <= by1; by++) {
        const int *row = start + (size_t)by * (size_t)e->ix->bcols;
        if (row[bx1 + 1] != row[bx0]) return 1;
    }
    return 0;
}

pt_vec2 pt_steer_obstacle_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nobstacles <= 0 || !env->ix || !env->ix->obs_start) return zero2();
    /* the detection box is at most twice box_length long */
    if (obs_far(env, v->pos, 2.0 * p->box_length + env->ix->max_obstacle_r)) return zero2();
    double reach = pt_steer_box_length(v, p) + env->ix->max_obstacle_r;
    int bx0, by0, bx1, by1;
    block_range(env, v->pos.x - reach, v->pos.y - reach, v->pos.x + reach, v->pos.y + reach, &bx0, &by0, &bx1, &by1);
    /* Most vehicles have no obstacle in the blocks the reference would scan. */
    if (!blocks_nonempty(env, env->ix->obs_start, bx0, by0, bx1, by1)) return zero2();
    return pt__steer_obstacle_avoidance_ref(v, env, p);
}

/* ---- wall avoidance ------------------------------------------------------------------ */

/* cos and sin of -feeler_angle and +feeler_angle: the values pt_v2_rotate would compute. */
static _Thread_local pt__trig_memo feeler_trig[2];

static inline PT_ALWAYS_INLINE void feelers_calc(const pt_vehicle *v, const pt_steer_params *p, pt_vec2 out[3]) {
    pt_vec2 h = v->heading;
    out[0] = pt_v2_add(v->pos, pt_v2_scale(h, p->feeler_length));
    for (int k = 0; k < 2; k++) {
        double c, s;
        pt__trig(&feeler_trig[k], k ? p->feeler_angle : -p->feeler_angle, &c, &s);
        pt_vec2 d = pt_v2(h.x * c - h.y * s, h.x * s + h.y * c); /* pt_v2_rotate */
        out[1 + k] = pt_v2_add(v->pos, pt_v2_scale(d, p->side_feeler_length));
    }
}

int pt_steer_feelers(const pt_vehicle *v, const pt_steer_params *p, pt_vec2 out[3]) {
    if (!p) p = pt_steer_params_builtin();
    feelers_calc(v, p, out);
    return 3;
}

/* Parameter t in [0,1] along p->q where it crosses segment a->b; -1 when it does not. */
static double seg_cross(pt_vec2 p, pt_vec2 q, pt_vec2 a, pt_vec2 b) {
    pt_vec2 r = pt_v2_sub(q, p), s = pt_v2_sub(b, a);
    double den = pt_v2_cross(r, s);
    if (fabs(den) < 1e-12) return -1.0; /* parallel: a wall along the feeler is not hit by it */
    pt_vec2 ap = pt_v2_sub(a, p);
    double t = pt_v2_cross(ap, s) / den, u = pt_v2_cross(ap, r) / den;
    if (t < 0.0 || t > 1.0 || u < 0.0 || u > 1.0) return -1.0;
    return t;
}

/* First t in [0,1] where p + t*(q-p) enters the circle (c, r); -1 if it does not. */
static inline PT_ALWAYS_INLINE double circle_cross(pt_vec2 p, pt_vec2 q, pt_vec2 c, double r) {
    pt_vec2 d = pt_v2_sub(q, p), f = pt_v2_sub(p, c);
    double a = pt_v2_dot(d, d), b = 2.0 * pt_v2_dot(f, d), cc = pt_v2_dot(f, f) - r * r;
    if (a < 1e-18) return -1.0;
    double disc = b * b - 4.0 * a * cc;
    if (disc < 0) return -1.0;
    double t = (-b - sqrt(disc)) / (2.0 * a);
    return t >= 0.0 && t <= 1.0 ? t : -1.0;
}

static inline pt_vec2 seg_closest(pt_vec2 p, pt_vec2 a, pt_vec2 b) {
    pt_vec2 ab = pt_v2_sub(b, a);
    double l2 = pt_v2_len2(ab);
    double t = l2 > 0 ? pt_clamp(pt_v2_dot(pt_v2_sub(p, a), ab) / l2, 0.0, 1.0) : 0.0;
    return pt_v2_add(a, pt_v2_scale(ab, t));
}

/* Where the vehicle's body (a circle of radius r) swept along the feeler p->q first touches
 * wall w from its open side: t in [0,1] and the contact normal; -1 if it does not. A body
 * already touching the wall hits at t = 0. */
static double feeler_hit(pt_vec2 p, pt_vec2 q, const pt_wall *w, double r, pt_vec2 *normal) {
    pt_vec2 dir = pt_v2_sub(q, p);
    pt_vec2 c = seg_closest(p, w->a, w->b);
    pt_vec2 off = pt_v2_sub(p, c);
    double d2 = pt_v2_len2(off);
    if (d2 < r * r) {
        if (pt_v2_dot(off, w->normal) < 0) return -1.0; /* behind the wall: not our side */
        pt_vec2 n = d2 > 1e-18 ? pt_v2_scale(off, 1.0 / sqrt(d2)) : w->normal;
        if (pt_v2_dot(dir, n) >= 0) return -1.0;         /* already moving away */
        *normal = n;
        return 0.0;
    }
    if (pt_v2_dot(dir, w->normal) >= 0) return -1.0; /* only walls it runs into */
    double best = -1.0;
    pt_vec2 sh = pt_v2_scale(w->normal, r);
    double t = seg_cross(p, q, pt_v2_add(w->a, sh), pt_v2_add(w->b, sh));
    if (t >= 0) {
        best = t;
        *normal = w->normal;
    }
    for (int e = 0; e < 2; e++) {
        pt_vec2 end = e ? w->b : w->a;
        t = circle_cross(p, q, end, r);
        if (t >= 0 && (best < 0 || t < best)) {
            pt_vec2 hit = pt_v2_add(p, pt_v2_scale(dir, t));
            pt_vec2 n = pt_v2_norm(pt_v2_sub(hit, end));
            if (pt_v2_dot(n, w->normal) < -1e-9) continue; /* the cap's solid half */
            best = t;
            *normal = n;
        }
    }
    return best;
}

/* The closest hit of the feeler p->tip (body radius r, swept box [qx0,qx1] x [qy0,qy1])
 * over the walls listed in the blocks the box overlaps: t in [0,1] and its normal, or 2. */
static double feeler_scan(const pt_steer_env *env, pt_vec2 p, pt_vec2 tip, double r, double qx0, double qy0,
                          double qx1, double qy1, pt_vec2 *best_n) {
    int bx0, by0, bx1, by1;
    double best_t = 2.0;
    block_range(env, qx0, qy0, qx1, qy1, &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int blk = by * env->ix->bcols + bx;
            for (int k = env->ix->wall_start[blk]; k < env->ix->wall_start[blk + 1]; k++) {
                const pt_wall *w = &env->walls[env->ix->wall_ids[k]];
                /* boxes apart: the swept feeler cannot touch this wall */
                if (fmax(w->a.x, w->b.x) < qx0 || fmin(w->a.x, w->b.x) > qx1 || fmax(w->a.y, w->b.y) < qy0 ||
                    fmin(w->a.y, w->b.y) > qy1)
                    continue;
                pt_vec2 n = zero2();
                double t = feeler_hit(p, tip, w, r, &n);
                if (t >= 0 && t < best_t) {
                    best_t = t;
                    *best_n = n;
                }
            }
        }
    return best_t;
}

/* feeler_scan over the packed boxes: the same walls in the same order, same result. */
static double feeler_scan_fast(const pt_steer_env *env, pt_vec2 p, pt_vec2 tip, double r, double qx0, double qy0,
                               double qx1, double qy1, pt_vec2 *best_n) {
    int bx0, by0, bx1, by1;
    double best_t = 2.0, r2 = r * r;
    pt_vec2 dir = pt_v2_sub(tip, p);
    block_range(env, qx0, qy0, qx1, qy1, &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++) {
        const int *row = env->ix->wall_start + (size_t)by * (size_t)env->ix->bcols;
        /* the blocks of one row are consecutive in the lists */
        for (int k = row[bx0], end = row[bx1 + 1]; k < end; k++) {
            const float *b = &env->ix->wall_box[4 * (size_t)k];
            if (b[2] < qx0 || b[0] > qx1 || b[3] < qy0 || b[1] > qy1) continue;
            const pt_wall *w = &env->walls[env->ix->wall_ids[k]];
            if (!env->ix->wall_box_exact &&
                (fmax(w->a.x, w->b.x) < qx0 || fmin(w->a.x, w->b.x) > qx1 || fmax(w->a.y, w->b.y) < qy0 ||
                 fmin(w->a.y, w->b.y) > qy1))
                continue;
            /* A feeler moving away from a wall hits it only where the body already touches
             * it. Across an axis-aligned wall, feeler_hit's squared distance is at least
             * the square of this exact difference, so the test below only skips misses. */
            if (pt_v2_dot(dir, w->normal) >= 0) {
                double across = w->a.y == w->b.y ? p.y - w->a.y : (w->a.x == w->b.x ? p.x - w->a.x : 0.0);
                if (across * across >= r2) continue;
            }
            pt_vec2 n = zero2();
            double t = feeler_hit(p, tip, w, r, &n);
            if (t >= 0 && t < best_t) {
                best_t = t;
                *best_n = n;
            }
        }
    }
    return best_t;
}

/* feeler_hit for a wall along the x axis, a = (ax, y), b = (bx, y), normal (+0, s) with
 * s = +-1, integer ends (walls of maps; a vertical wall is this with x and y swapped, which
 * swaps every result exactly: the sums commute and the crosses negate in pairs). The same
 * operations in the same order, minus the products with the zero components: each of those
 * adds or subtracts a signed zero, which changes no non-zero value, no comparison, and no
 * final result (a zero t may differ in sign only, and only 1 - t and comparisons read t).
 * r is finite. */
static inline PT_ALWAYS_INLINE double feeler_hit_x(pt_vec2 p, pt_vec2 dir, pt_vec2 q, double ax, double bx, double y, double s,
                                  double r, pt_vec2 *normal) {
    /* seg_closest: c = (ax + abx * t, y) */
    double abx = bx - ax, l2 = abx * abx;
    double tc = l2 > 0 ? pt_clamp((p.x - ax) * abx / l2, 0.0, 1.0) : 0.0;
    pt_vec2 off = pt_v2(p.x - (ax + abx * tc), p.y - y);
    double d2 = off.x * off.x + off.y * off.y;
    if (d2 < r * r) {
        if (off.y * s < 0) return -1.0;
        pt_vec2 n = d2 > 1e-18 ? pt_v2_scale(off, 1.0 / sqrt(d2)) : pt_v2(0.0, s);
        if (pt_v2_dot(dir, n) >= 0) return -1.0;
        *normal = n;
        return 0.0;
    }
    if (dir.y * s >= 0) return -1.0;
    double best = -1.0;
    /* seg_cross with the wall moved out by r: a' = (ax, ys), b' = (bx, ys) */
    double ys = y + s * r, den = -(dir.y * abx);
    if (!(fabs(den) < 1e-12)) {
        pt_vec2 ap = pt_v2(ax - p.x, ys - p.y);
        double t = -(ap.y * abx) / den, u = (ap.x * dir.y - ap.y * dir.x) / den;
        if (!(t < 0.0 || t > 1.0 || u < 0.0 || u > 1.0)) {
            best = t;
            *normal = pt_v2(0.0, s);
        }
    }
    for (int e = 0; e < 2; e++) {
        pt_vec2 end = pt_v2(e ? bx : ax, y);
        double t = circle_cross(p, q, end, r);
        if (t >= 0 && (best < 0 || t < best)) {
            pt_vec2 hit = pt_v2_add(p, pt_v2_scale(dir, t));
            pt_vec2 n = pt_v2_norm(pt_v2_sub(hit, end));
            if (n.y * s < -1e-9) continue;
            best = t;
            *normal = n;
        }
    }
    return best;
}

static inline pt_vec2 swap2(pt_vec2 v) { return pt_v2(v.y, v.x); }

/* One orientation of the tile bits: line l (a row, or a column) is bits + l * stride. */
typedef struct tile_lines { const uint8_t *bits; int stride; } tile_lines;

/* Bits of cells c .. c+56 of line l (bit 0 = cell c); c >= 0, c < the line's length. */
static inline uint64_t line_bits(tile_lines t, int l, int c) {
    return pt__bits64(t.bits + (size_t)l * (size_t)t.stride + (size_t)(c >> 3)) >> (c & 7);
}

/* Bits of tiles x .. x+56 of row y of the tile bits (bit 0 = tile x); x >= 0, x < bits_w. */
static inline uint64_t row_bits(const pt_steer_env *e, int x, int y) {
    return line_bits((tile_lines){e->ix->solid_bits, e->ix->bits_stride}, y, x);
}

/* The cells whose closed square meets the closed box [x0,x1] x [y0,y1]: from ceil(x0) - 1 to
 * floor(x1) (x0, y0 >= 0). */
static inline void box_cells(double x0, double y0, double x1, double y1, int *cx0, int *cy0, int *cx1, int *cy1) {
    int ix = (int)x0, iy = (int)y0;
    *cx0 = ix - ((double)ix == x0); /* ceil(x0) - 1 without the libm call */
    *cy0 = iy - ((double)iy == y0);
    *cx1 = (int)x1;
    *cy1 = (int)y1;
}

/* Whether a non-walkable tile (or the map's outside) touches the closed box [x0,x1] x
 * [y0,y1]. Every wall built from the map lies on the edge of such a tile, so when none does,
 * no wall can pass feeler_scan's box test. Boxes near the map's edge, or not finite, say 1. */
static int box_has_solid(const pt_steer_env *e, double x0, double y0, double x1, double y1) {
    if (!(x0 >= 1.0 && y0 >= 1.0 && x1 < e->ix->bits_w && y1 < e->ix->bits_h)) return 1;
    int cx0, cy0, cx1, cy1;
    box_cells(x0, y0, x1, y1, &cx0, &cy0, &cx1, &cy1);
    for (int x = cx0; x <= cx1; x += 56) {
        int n = cx1 - x + 1 < 56 ? cx1 - x + 1 : 56;
        uint64_t m = (1ull << n) - 1;
        for (int y = cy0; y <= cy1; y++)
            if (row_bits(e, x, y) & m) return 1;
    }
    return 0;
}

#define UNION_ROWS 8

/* The union box of the three feelers, read once: rows[i] holds the bits of cells cx0 ..
 * cx1 of row cy0 + i; any is their union (0: open floor for all three feelers). */
typedef struct feeler_union { int cx0, cy0, cx1, cy1; uint64_t rows[UNION_ROWS], any; } feeler_union;

/* Fills u for the closed box [x0,x1] x [y0,y1]; 0 when the box is too big or too close to
 * the map's edge for it (then each feeler asks box_has_solid). */
static inline int union_load(const pt_steer_env *e, double x0, double y0, double x1, double y1, feeler_union *u) {
    if (!(x0 >= 1.0 && y0 >= 1.0 && x1 < e->ix->bits_w && y1 < e->ix->bits_h)) return 0;
    box_cells(x0, y0, x1, y1, &u->cx0, &u->cy0, &u->cx1, &u->cy1);
    int nx = u->cx1 - u->cx0 + 1, ny = u->cy1 - u->cy0 + 1;
    if (nx > 56 || ny > UNION_ROWS) return 0;
    uint64_t m = (1ull << nx) - 1, any = 0;
    for (int i = 0; i < ny; i++) any |= u->rows[i] = row_bits(e, u->cx0, u->cy0 + i) & m;
    u->any = any;
    return 1;
}

/* box_has_solid for a box inside the union box, from its cells (box_cells). */
static inline int union_has_solid(const feeler_union *u, int cx0, int cy0, int cx1, int cy1) {
    uint64_t m = ((2ull << (cx1 - cx0)) - 1) << (cx0 - u->cx0), any = 0;
    for (int y = cy0; y <= cy1; y++) any |= u->rows[y - u->cy0];
    return (any & m) != 0;
}

/* ---- the walls of a map from its tile bits ----------------------------------------------- *
 * A map's walls lie on tile boundaries (build_map_walls): a horizontal wall on boundary j,
 * between rows j-1 and j, is a maximal run of edge cells x where exactly one of the tiles
 * (x, j-1) and (x, j) is solid, the same one all along; a vertical wall is the same between
 * columns. So the walls whose boxes meet a feeler's closed box are the runs with an edge
 * cell among the cells that box touches: two loads of tile bits per boundary in the box
 * find them, each once, where the block lists hand over every wall near the box to be
 * tested. Columns are rows with x and y swapped (solid_cols), and so are the feeler tests
 * (feeler_hit_x). */

/* The edge cells between line bits a (line l-1) and b (line l) whose solid tile is on line
 * l-1 (s = +1: the wall's normal points to +y, or +x) or on line l (s = -1). */
static inline uint64_t edges(uint64_t a, uint64_t b, int s) { return s > 0 ? a & ~b : ~a & b; }

/* The edge cells of the boundary between lines l-1 and l on side s, from cell c on (bit 0 =
 * cell c, 57 valid bits; none past the map's end). */
static inline uint64_t edge_bits(tile_lines t, int l, int c, int s) {
    return edges(line_bits(t, l - 1, c), line_bits(t, l, c), s);
}

/* The first cell of the run of edge cells (boundary l, side s) through edge cell c. */
static int run_first(tile_lines t, int l, int c, int s) {
    for (;;) {
        int c0 = c > 56 ? c - 56 : 0;
        uint64_t gap = ~edge_bits(t, l, c0, s) & ((1ull << (c - c0)) - 1); /* below c */
        if (gap) return c0 + 64 - __builtin_clzll(gap);
        if (c0 == 0) return 0;
        c = c0;
    }
}

/* One past the last cell of that run (the zero padding past the map's end ends it). */
static int run_end(tile_lines t, int l, int c, int s) {
    for (;;) {
        uint64_t gap = ~edge_bits(t, l, c, s) & ((1ull << 57) - 1);
        if (gap) return c + __builtin_ctzll(gap);
        c += 57;
    }
}

/* Where the reference (feeler_scan over the block lists) meets a wall first: the row and
 * column of the first block of the feeler's range that lists it, then the wall's place in
 * the lists, which is its index: horizontal walls before vertical ones, each by line, then
 * by first cell (build_map_walls). Of two hits at the same t it keeps the one met first. */
typedef struct wall_key { int brow, bcol, vert, line, first; } wall_key;

static inline int key_before(const wall_key *a, const wall_key *b) {
    if (a->brow != b->brow) return a->brow < b->brow;
    if (a->bcol != b->bcol) return a->bcol < b->bcol;
    if (a->vert != b->vert) return a->vert < b->vert;
    if (a->line != b->line) return a->line < b->line;
    return a->first < b->first;
}

typedef struct tile_scan {
    const pt_steer_env *env;
    double r, r2;
    double qx0, qy0;           /* the feeler box's low corner */
    double best_t;             /* 2 = no hit */
    pt_vec2 best_n;
    int best_vert, best_line, best_first; /* the best hit's wall */
} tile_scan;

/* The key of the wall (vert, line l, first cell) for the scan's feeler; only ties need it. */
static wall_key scan_key(const tile_scan *S, int vert, int l, int first) {
    const pt_steer_env *e = S->env;
    int fbx0 = (int)((S->qx0 - e->ix->ox) * e->ix->inv_block), fby0 = (int)((S->qy0 - e->ix->oy) * e->ix->inv_block);
    double wx = vert ? l : first, wy = vert ? first : l; /* the wall's box's low corner */
    int bx = (int)((wx - e->ix->ox) * e->ix->inv_block), by = (int)((wy - e->ix->oy) * e->ix->inv_block);
    return (wall_key){by > fby0 ? by : fby0, bx > fbx0 ? bx : fbx0, vert, l, first};
}

/* The walls of one orientation on boundaries l0..l1 with an edge cell in cells c0..c1
 * (c1 - c0 <= 55), the feeler p -> tip (direction dir) in that orientation's coordinates
 * (vert: x and y swapped), into the scan's best hit. */
static inline PT_ALWAYS_INLINE void tile_scan_lines(tile_scan *S, tile_lines t, const feeler_union *u, int vert, int l0,
                                                    int l1, int c0, int c1, pt_vec2 p, pt_vec2 dir, pt_vec2 tip) {
    uint64_t m = (2ull << (c1 - c0)) - 1;
    /* Each line's bits once, for the boundaries on both of its sides; rows from the union
     * (loaded already), columns from solid_cols. */
#define LINE(l) ((u ? u->rows[(l) - u->cy0] >> (c0 - u->cx0) : line_bits(t, (l), c0)) & m)
    uint64_t a = LINE(l0 - 1);
    for (int l = l0; l <= l1; l++) {
        uint64_t b = LINE(l), prev = a;
        a = b;
        if (!(prev ^ b)) continue;
        double across = p.y - l;
        for (int s = 1; s >= -1; s -= 2) {
            uint64_t ed = edges(prev, b, s);
            /* A feeler moving away from a wall hits it only where the body already touches
             * it; feeler_hit_x's squared distance is at least across^2. */
            if (!ed || (dir.y * s >= 0 && across * across >= S->r2)) continue;
            while (ed) {
                uint64_t low = ed & (~ed + 1), run = ((ed + low) ^ ed) & ed; /* the lowest run */
                ed &= ~run;
                /* A run that starts (ends) inside the window has its first (last) cell there:
                 * the window's cell before (after) it is no edge. */
                int lo = __builtin_ctzll(run), hi = 63 - __builtin_clzll(run);
                int first = lo > 0 ? c0 + lo : run_first(t, l, c0, s);
                int end = hi < c1 - c0 ? c0 + hi + 1 : run_end(t, l, c1, s);
                /* the wall's ends as its a and b (the normal's side decides which is a) */
                double ea = (s > 0) != vert ? first : end, eb = (s > 0) != vert ? end : first;
                pt_vec2 n = zero2();
                double th = feeler_hit_x(p, dir, tip, ea, eb, (double)l, (double)s, S->r, &n);
                if (!(th >= 0 && th <= S->best_t)) continue;
                if (th == S->best_t) { /* a tie: the wall the reference meets first */
                    wall_key k = scan_key(S, vert, l, first), kb = scan_key(S, S->best_vert, S->best_line, S->best_first);
                    if (!key_before(&k, &kb)) continue;
                }
                S->best_t = th;
                S->best_n = vert ? swap2(n) : n;
                S->best_vert = vert;
                S->best_line = l;
                S->best_first = first;
            }
        }
    }
#undef LINE
}

/* feeler_scan_fast from the tile bits: the same walls, the same result (for envs of maps
 * and a box inside the map that the union box holds; cx0 .. cy1 its cells, box_cells). */
static double feeler_scan_tiles(const pt_steer_env *env, const feeler_union *u, pt_vec2 p, pt_vec2 tip, double r,
                                double qx0, double qy0, int cx0, int cy0, int cx1, int cy1, pt_vec2 *best_n) {
    tile_scan S = {env, r, r * r, qx0, qy0, 2.0, zero2(), 0, 0, 0};
    pt_vec2 dir = pt_v2_sub(tip, p);
    tile_scan_lines(&S, (tile_lines){env->ix->solid_bits, env->ix->bits_stride}, u, 0, cy0 + 1, cy1, cx0, cx1, p, dir, tip);
    tile_scan_lines(&S, (tile_lines){env->ix->solid_cols, env->ix->cols_stride}, NULL, 1, cx0 + 1, cx1, cy0, cy1, swap2(p),
                    swap2(dir), swap2(tip));
    *best_n = S.best_n;
    return S.best_t;
}

/* Whether no tile that is not walkable (nor the map's outside) meets the closed box [x0,x1]
 * x [y0,y1] around pos, from the clearance of pos's tile (px,py): every tile within
 * Chebyshev distance d-1 of it is walkable, and the box's tiles (box_cells) run from
 * ceil(x0)-1 > px-d to floor(x1) < px+d when x0 > px-d+1 and x1 < px+d. 0 when unsure. */
static inline int tiles_clear(const pt_steer_env *e, pt_vec2 pos, double x0, double y0, double x1, double y1) {
    const struct pt__steer_index *ix = e->ix;
    if (!(pos.x >= 0 && pos.y >= 0 && pos.x < ix->bits_w && pos.y < ix->bits_h)) return 0;
    int px = (int)pos.x, py = (int)pos.y, d = ix->tile_clear[(size_t)py * (size_t)ix->bits_w + (size_t)px];
    return x0 > px - d + 1 && y0 > py - d + 1 && x1 < px + d && y1 < py + d;
}

pt_vec2 pt_steer_wall_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nwalls <= 0 || !env->ix || !env->ix->wall_start) return zero2();
    pt_vec2 tips[3];
    feelers_calc(v, p, tips);
    pt_vec2 force = zero2(), pos = v->pos;
    double r = v->radius;
    /* The three feeler boxes lie in the box around the position and the three tips (with
     * finite values plain comparisons give fmin/fmax's box; the sign of a zero may differ,
     * which no comparison sees). On open floor that box meets no wall: one look at the
     * clearance of pos's tile answers for all three feelers. A NaN tip would drop out of
     * the comparisons, so a NaN sum of the tips sends the vehicle the long way. */
    double x0 = pos.x < tips[0].x ? pos.x : tips[0].x, x1 = pos.x > tips[0].x ? pos.x : tips[0].x;
    double y0 = pos.y < tips[0].y ? pos.y : tips[0].y, y1 = pos.y > tips[0].y ? pos.y : tips[0].y;
    x0 = x0 < tips[1].x ? x0 : tips[1].x;
    x1 = x1 > tips[1].x ? x1 : tips[1].x;
    y0 = y0 < tips[1].y ? y0 : tips[1].y;
    y1 = y1 > tips[1].y ? y1 : tips[1].y;
    x0 = (x0 < tips[2].x ? x0 : tips[2].x) - r;
    x1 = (x1 > tips[2].x ? x1 : tips[2].x) + r;
    y0 = (y0 < tips[2].y ? y0 : tips[2].y) - r;
    y1 = (y1 > tips[2].y ? y1 : tips[2].y) + r;
    double nan_sum = tips[0].x + tips[0].y + tips[1].x + tips[1].y + tips[2].x + tips[2].y;
    if (env->ix->tile_clear && r >= 0 && nan_sum == nan_sum && tiles_clear(env, pos, x0, y0, x1, y1)) return force;
    /* x - x is 0 for a finite x and NaN for an infinite or NaN one: one sum answers for the
     * nine values (a sum of finite values that overflows only sends the vehicle the long
     * way too). */
    double all = nan_sum + pos.x + pos.y + r;
    if (!(all - all == 0.0)) return pt__steer_wall_avoidance_ref(v, env, p);
    feeler_union u;
    int have_union = env->ix->solid_bits && r >= 0 && union_load(env, x0, y0, x1, y1, &u);
    if (have_union && !u.any) return force;
    for (int f = 0; f < 3; f++) {
        pt_vec2 tip = tips[f], dir = pt_v2_sub(tip, pos);
        double qx0 = (pos.x < tip.x ? pos.x : tip.x) - r, qx1 = (pos.x > tip.x ? pos.x : tip.x) + r;
        double qy0 = (pos.y < tip.y ? pos.y : tip.y) - r, qy1 = (pos.y > tip.y ? pos.y : tip.y) + r;
        int cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;
        if (have_union) box_cells(qx0, qy0, qx1, qy1, &cx0, &cy0, &cx1, &cy1);
        /* open floor: no wall in reach */
        if (have_union ? !union_has_solid(&u, cx0, cy0, cx1, cy1)
                       : env->ix->solid_bits && r >= 0 && !box_has_solid(env, qx0, qy0, qx1, qy1))
            continue;
        pt_vec2 best_n = zero2();
        double best_t = have_union && env->ix->walls_axis && env->ix->solid_cols
                            ? feeler_scan_tiles(env, &u, pos, tip, r, qx0, qy0, cx0, cy0, cx1, cy1, &best_n)
                            : feeler_scan_fast(env, pos, tip, r, qx0, qy0, qx1, qy1, &best_n);
        if (best_t > 1.0) continue;
        double depth = (1.0 - best_t) * pt_v2_len(dir);
        force = pt_v2_add(force, pt_v2_scale(best_n, depth));
    }
    return force;
}

pt_vec2 pt__steer_wall_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nwalls <= 0 || !env->ix || !env->ix->wall_start) return zero2();
    pt_vec2 tips[3];
    pt_steer_feelers(v, p, tips);
    pt_vec2 force = zero2();
    double r = v->radius;
    for (int f = 0; f < 3; f++) {
        /* Each feeler keeps its own closest hit (Buckland's listing carried the closest wall
         * over from the previous feeler and overwrote the force instead of adding). */
        pt_vec2 tip = tips[f], dir = pt_v2_sub(tip, v->pos);
        double qx0 = fmin(v->pos.x, tip.x) - r, qx1 = fmax(v->pos.x, tip.x) + r;
        double qy0 = fmin(v->pos.y, tip.y) - r, qy1 = fmax(v->pos.y, tip.y) + r;
        pt_vec2 best_n = zero2();
        double best_t = feeler_scan(env, v->pos, tip, r, qx0, qy0, qx1, qy1, &best_n);
        if (best_t > 1.0) continue; /* no hit: adds nothing */
        double depth = (1.0 - best_t) * pt_v2_len(dir); /* how far the tip is past the contact */
        force = pt_v2_add(force, pt_v2_scale(best_n, depth));
    }
    return force;
}

/* ---- hide ---------------------------------------------------------------------------- */

int pt_steer_hiding_spot(const pt_obstacle *ob, pt_vec2 hunter, const pt_steer_params *p, pt_vec2 *out) {
    if (!p) p = pt_steer_params_builtin();
    pt_vec2 c = pt_v2(ob->x, ob->y);
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(c, hunter));
    if (pt_v2_len2(dir) < 0.5) return 0;
    *out = pt_v2_add(c, pt_v2_scale(dir, ob->r + p->hide_distance));
    return 1;
}

pt_vec2 pt_steer_hide(const pt_vehicle *v, const pt_vehicle *hunter, const pt_steer_env *env,
                      const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    int found = 0;
    double best_d2 = 0;
    pt_vec2 best = zero2();
    for (int i = 0; env && i < env->nobstacles; i++) {
        pt_vec2 spot;
        if (!pt_steer_hiding_spot(&env->obstacles[i], hunter->pos, p, &spot)) continue;
        if (env->map && !pt_map_walkable(env->map, (int)floor(spot.x), (int)floor(spot.y))) continue;
        double d2 = pt_v2_dist2(spot, v->pos);
        if (!found || d2 < best_d2) {
            found = 1;
            best_d2 = d2;
            best = spot;
        }
    }
    /* An explicit flag, not a sentinel distance: Buckland compared against the wrong
     * sentinel, so evade never ran. */
    if (!found) return pt_steer_evade(v, hunter, p);
    return pt_steer_arrive(v, best, PT_DECEL_FAST, p);
}

/* ---- tiles --------------------------------------------------------------------------- */

/* !pt_map_walkable, read directly (one unsigned compare per axis): collision calls it for
 * every cell under every agent. */
static inline int solid(const pt_map *m, int x, int y) {
    return !((unsigned)x < (unsigned)m->w && (unsigned)y < (unsigned)m->h) ||
           !(m->flags[(size_t)y * (size_t)m->w + (size_t)x] & PT_TILE_WALKABLE);
}

/* Cell index of a coordinate, safe for any finite value; the usual coordinates need no
 * libm call ((int) truncates toward zero, which is floor for v >= 0). */
static inline int cell_of(double v) {
    if (v >= 0 && v < 1e6) return (int)v;
    if (v < -1e6) return -1000000;
    if (v > 1e6) return 1000000;
    return (int)floor(v);
}

/* Closest point of tile (x,y) to p. */
static inline pt_vec2 tile_closest(int x, int y, pt_vec2 p) {
    return pt_v2(pt_clamp(p.x, x, x + 1.0), pt_clamp(p.y, y, y + 1.0));
}

double pt_steer_tile_clearance(const pt_map *map, pt_vec2 p, double reach) {
    if (!map || !pt_v2_is_finite(p)) return 0.0;
    if (!(reach > 0)) reach = 0.0;
    if (reach > 64) reach = 64;
    int cx = cell_of(p.x), cy = cell_of(p.y);
    if (solid(map, cx, cy)) return 0.0;
    double best2 = reach * reach;
    int x0 = cell_of(p.x - reach), x1 = cell_of(p.x + reach), y0 = cell_of(p.y - reach), y1 = cell_of(p.y + reach);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (!solid(map, x, y)) continue;
            double d2 = pt_v2_dist2(p, tile_closest(x, y, p));
            if (d2 < best2) best2 = d2;
        }
    return sqrt(best2);
}

/* The displacement that takes point pred to `clear` away from every boundary. */
static pt_vec2 contain_point(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_region *region,
                             pt_vec2 pred, double clear) {
    pt_vec2 f = zero2();
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
        int x0 = cell_of(pred.x - clear), x1 = cell_of(pred.x + clear);
        int y0 = cell_of(pred.y - clear), y1 = cell_of(pred.y + clear);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (!solid(env->map, x, y)) continue;
                pt_vec2 q = tile_closest(x, y, pred);
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
        block_range(env, pred.x - reach, pred.y - reach, pred.x + reach, pred.y + reach, &bx0, &by0, &bx1, &by1);
        pt_vec2 push = zero2();
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
    return pt_v2_is_finite(f) ? f : zero2();
}

pt_vec2 pt_steer_containment(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_region *region,
                             const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    double clear = v->radius + p->containment_margin;
    pt_vec2 pred = pt_v2_add(v->pos, pt_v2_scale(v->vel, p->containment_lookahead));
    /* Where it will be, plus where it is: a body already too close pushes even when its
     * prediction has moved past the obstacle. */
    pt_vec2 f = pt_v2_add(contain_point(v, env, region, pred, clear), contain_point(v, env, region, v->pos, clear));
    return pt_v2_is_finite(f) ? f : zero2();
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
    int cx = cell_of(pos->x), cy = cell_of(pos->y);
    if (!solid(m, cx, cy)) return 0;
    int found = 0, found_ring = 0;
    double best2 = 0;
    int bx = 0, by = 0;
    for (int k = 1; k <= 8; k++) {
        if (found && k > found_ring + 1) break; /* a farther ring can still be closer by one */
        for (int y = cy - k; y <= cy + k; y++)
            for (int x = cx - k; x <= cx + k; x++) {
                if (x != cx - k && x != cx + k && y != cy - k && y != cy + k) continue; /* ring only */
                if (solid(m, x, y)) continue;
                double d2 = pt_v2_dist2(*pos, tile_closest(x, y, *pos));
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
        pt_vec2 n = zero2();
        int x0 = cell_of(pos->x - radius), x1 = cell_of(pos->x + radius);
        int y0 = cell_of(pos->y - radius), y1 = cell_of(pos->y + radius);
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (!solid(map, x, y)) continue;
                pt_vec2 q = tile_closest(x, y, *pos);
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
        block_range(env, pos->x - reach, pos->y - reach, pos->x + reach, pos->y + reach, &bx0, &by0, &bx1, &by1);
        double deepest = 0;
        pt_vec2 n = zero2();
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
    if (obs_far(env, pos, reach)) return 0;
    int bx0, by0, bx1, by1;
    block_range(env, pos.x - reach, pos.y - reach, pos.x + reach, pos.y + reach, &bx0, &by0, &bx1, &by1);
    return blocks_nonempty(env, env->ix->obs_start, bx0, by0, bx1, by1);
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
