/* SPDX-License-Identifier: Zlib */
/* Steering geometry: walls from tile boundaries and the index over walls and obstacles
 * (block lists, tile bits, clearances) that the behaviours read: wall avoidance
 * (steer_walls.c), obstacle avoidance (steer_obstacles.c), containment
 * (steer_contain.c) and hard collision (steer_collide.c). */
#include <patrol/steer.h>

#include "nav/steer_env_index.h"

#include <string.h>

#define BLOCK_TILES 4.0          /* index block size (tiles) */
#define MAX_BLOCKS (1 << 20)

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

/* CSR lists: for each item, the blocks its box [lo, hi] overlaps. */
static int build_lists(const pt_steer_env *e, int n, const double *box, int **start_out, int **ids_out) {
    int nb = e->ix->bcols * e->ix->brows;
    int *start = PT_CALLOC((size_t)nb + 1, sizeof *start);
    if (!start) return PT_ERR_NOMEM;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        int bx0, by0, bx1, by1;
        pt__block_range(e, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3], &bx0, &by0, &bx1, &by1);
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
        pt__block_range(e, box[4 * i], box[4 * i + 1], box[4 * i + 2], box[4 * i + 3], &bx0, &by0, &bx1, &by1);
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
        /* Every block's slots full: no spare ones (pt_steer_env_build adds them for maps). */
        int nbk = e->ix->bcols * e->ix->brows;
        e->ix->wall_n = rc == PT_OK ? PT_MALLOC(sizeof *e->ix->wall_n * (size_t)nbk) : NULL;
        if (!e->ix->wall_n) rc = PT_ERR_NOMEM;
        for (int b = 0; rc == PT_OK && b < nbk; b++) e->ix->wall_n[b] = e->ix->wall_start[b + 1] - e->ix->wall_start[b];
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
        PT_FREE(env->ix->wall_n);
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
        env->ix->walls_cap = b.cap;
        /* A spare slot in each block's wall list: a tile that changes edits the lists in
         * place (pt_steer_env_update_tile). */
        if (pt__steer_walls_spread(env, 1) < 0) {
            pt_steer_env_fini(env);
            return PT_ERR_NOMEM;
        }
    }
    return rc;
}
