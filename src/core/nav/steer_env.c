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
        env->ix->walls_cap = b.cap;
    }
    return rc;
}

/* ---- a tile that changed ------------------------------------------------------------- *
 * A cell's walkability touches four boundary lines: the rows' boundaries y and y + 1 and the
 * columns' x and x + 1. Their walls are made again (a line at a time, as build_map_walls
 * makes them) and spliced into the wall array where a fresh build puts them, so the array
 * stays the build's; the block lists are copied once with the ids moved and the new walls'
 * entries merged in, in id order as build_lists leaves them. The tile bits flip one bit and
 * the clearances change only around the cell. */

/* The walls of boundary line l (rows when rows, else columns), as build_map_walls makes them. */
static int line_walls(const pt_map *m, int rows, int l, wall_buf *out) {
    int len = rows ? m->w : m->h, run = 0, start = 0;
    for (int c = 0; c <= len; c++) {
        int f = 0;
        if (c < len) {
            int lo = rows ? pt_map_walkable(m, c, l - 1) : pt_map_walkable(m, l - 1, c);
            int hi = rows ? pt_map_walkable(m, c, l) : pt_map_walkable(m, l, c);
            f = lo == hi ? 0 : (hi ? 1 : -1);
        }
        if (f != run) {
            int rc = PT_OK;
            if (rows && run == 1) rc = wall_push(out, start, l, c, l, 0, 1);
            if (rows && run == -1) rc = wall_push(out, c, l, start, l, 0, -1);
            if (!rows && run == 1) rc = wall_push(out, l, c, l, start, 1, 0);
            if (!rows && run == -1) rc = wall_push(out, l, start, l, c, -1, 0);
            if (rc < 0) return PT_ERR_NOMEM;
            run = f;
            start = c;
        }
    }
    return PT_OK;
}

/* The first wall of the array at or after line l of its kind: the row walls (a.y == b.y)
 * come first, by line; then the column walls, by line. */
static int line_first(const pt_steer_env *e, int rows, int l) {
    int lo = 0, hi = e->nwalls;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const pt_wall *w = &e->walls[mid];
        int wr = w->a.y == w->b.y, before = rows ? (wr && w->a.y < l) : (wr || w->a.x < l);
        if (before) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* A wall's box rounded outward to floats, as build_index files it (exact for map walls). */
static void wall_box_f(const pt_wall *w, float *out) {
    double b[4] = {fmin(w->a.x, w->b.x), fmin(w->a.y, w->b.y), fmax(w->a.x, w->b.x), fmax(w->a.y, w->b.y)};
    for (int c = 0; c < 4; c++) {
        float f = (float)b[c];
        if (c < 2 && (double)f > b[c]) f = nextafterf(f, -INFINITY);
        if (c >= 2 && (double)f < b[c]) f = nextafterf(f, INFINITY);
        out[c] = f;
    }
}

typedef struct blk_entry { int blk, id; } blk_entry;

static int blk_entry_less(const void *a, const void *b) {
    const blk_entry *x = a, *y = b;
    if (x->blk != y->blk) return x->blk < y->blk ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Replaces the walls [s0, s1) and [t0, t1) (s1 <= t0) by nw0 and nw1 new ones, and the block
 * lists with them. */
/* Appends an entry (block, id) for each block wall w's box touches to *add (growing it);
 * 0, or PT_ERR_NOMEM with *add freed. */
static int add_block_entries(const pt_steer_env *e, const pt_wall *w, int id, blk_entry **add, size_t *ne,
                             size_t *cap) {
    int bx0, by0, bx1, by1;
    pt__block_range(e, fmin(w->a.x, w->b.x), fmin(w->a.y, w->b.y), fmax(w->a.x, w->b.x), fmax(w->a.y, w->b.y),
                    &bx0, &by0, &bx1, &by1);
    size_t k = (size_t)(bx1 - bx0 + 1) * (size_t)(by1 - by0 + 1);
    if (*ne + k > *cap) {
        size_t nc = *cap ? *cap : 256;
        while (nc < *ne + k) nc *= 2;
        blk_entry *na = PT_REALLOC(*add, sizeof *na * nc);
        if (!na) {
            PT_FREE(*add);
            *add = NULL;
            return PT_ERR_NOMEM;
        }
        *add = na;
        *cap = nc;
    }
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) (*add)[(*ne)++] = (blk_entry){by * e->ix->bcols + bx, id};
    return 0;
}

static int splice_walls(pt_steer_env *e, int s0, int s1, const wall_buf *nw0, int t0, int t1, const wall_buf *nw1) {
    struct pt__steer_index *ix = e->ix;
    int d0 = nw0->n - (s1 - s0), d1 = nw1->n - (t1 - t0), n = e->nwalls, nn = n + d0 + d1;
    /* The new walls' block entries, by block then id. */
    size_t ne = 0, cap = 0;
    blk_entry *add = NULL;
    for (int part = 0; part < 2; part++) {
        const wall_buf *nb = part ? nw1 : nw0;
        int first = part ? t0 + d0 : s0;
        for (int i = 0; i < nb->n; i++)
            if (add_block_entries(e, &nb->w[i], first + i, &add, &ne, &cap) < 0) return PT_ERR_NOMEM;
    }
    /* The blocks of the replaced walls too (id -1: they add nothing): the lists of every
     * other block are copied as they are, their ids moved. */
    for (int part = 0; part < 2; part++)
        for (int id = part ? t0 : s0; id < (part ? t1 : s1); id++)
            if (add_block_entries(e, &e->walls[id], -1, &add, &ne, &cap) < 0) return PT_ERR_NOMEM;
    if (ne > 1) qsort(add, ne, sizeof *add, blk_entry_less);
    int nbk = ix->bcols * ix->brows, old_total = ix->wall_start[nbk];
    size_t most = (size_t)old_total + ne;
    int *start = PT_MALLOC(sizeof *start * ((size_t)nbk + 1));
    int *ids = PT_MALLOC(sizeof *ids * (most ? most : 1));
    float *box = PT_MALLOC(sizeof *box * 4 * (most ? most : 1));
    int grow = nn > ix->walls_cap ? nn + nn / 8 : ix->walls_cap; /* room for the next changes */
    pt_wall *walls = grow > ix->walls_cap ? PT_REALLOC(e->walls, sizeof *walls * (size_t)grow) : e->walls;
    if (!start || !ids || !box || !walls) {
        PT_FREE(start);
        PT_FREE(ids);
        PT_FREE(box);
        PT_FREE(add);
        if (walls && walls != e->walls) { e->walls = walls; ix->walls_cap = grow; }
        return PT_ERR_NOMEM;
    }
    ix->walls_cap = grow;
    e->walls = walls;
    /* The lists: old entries with their ids moved (the replaced ones dropped), merged with
     * the new walls' entries in id order; blocks no wall of the lines touches in bulk. */
    const int *os = ix->wall_start, *oi = ix->wall_ids;
    const int m0 = d0, m1 = d0 + d1;
    size_t k = 0, a = 0;
    int b = 0;
    while (b < nbk) {
        int next = a < ne ? add[a].blk : nbk; /* the next block to merge */
        if (next > b) {
            int j0 = os[b], j1 = os[next];
            int shift = (int)k - j0;
            for (int q = b; q < next; q++) start[q] = os[q] + shift;
            for (int j = j0; j < j1; j++) {
                int id = oi[j];
                ids[k + (size_t)(j - j0)] = id < s0 ? id : (id < t0 ? id + m0 : id + m1);
            }
            memcpy(&box[4 * k], &ix->wall_box[4 * (size_t)j0], sizeof *box * 4 * (size_t)(j1 - j0));
            k += (size_t)(j1 - j0);
            b = next;
            continue;
        }
        start[b] = (int)k;
        for (int j = os[b]; j < os[b + 1]; j++) {
            int id = oi[j];
            if ((id >= s0 && id < s1) || (id >= t0 && id < t1)) continue;
            id = id < s0 ? id : (id < t0 ? id + m0 : id + m1);
            while (a < ne && add[a].blk == b && add[a].id < id) {
                if (add[a].id >= 0) {
                    ids[k] = add[a].id;
                    wall_box_f(add[a].id < t0 + d0 ? &nw0->w[add[a].id - s0] : &nw1->w[add[a].id - t0 - d0], &box[4 * k]);
                    k++;
                }
                a++;
            }
            ids[k] = id;
            memcpy(&box[4 * k], &ix->wall_box[4 * (size_t)j], sizeof *box * 4);
            k++;
        }
        while (a < ne && add[a].blk == b) {
            if (add[a].id >= 0) {
                ids[k] = add[a].id;
                wall_box_f(add[a].id < t0 + d0 ? &nw0->w[add[a].id - s0] : &nw1->w[add[a].id - t0 - d0], &box[4 * k]);
                k++;
            }
            a++;
        }
        b++;
    }
    start[nbk] = (int)k;
    PT_FREE(add);
    PT_FREE(ix->wall_start);
    PT_FREE(ix->wall_ids);
    PT_FREE(ix->wall_box);
    ix->wall_start = start;
    ix->wall_ids = ids;
    ix->wall_box = box;
    /* The array: the walls between the two parts and after them move by the new counts. */
    if (d0 > t1 - t0) {
        memmove(walls + t1 + d0 + d1, walls + t1, sizeof *walls * (size_t)(n - t1));
        memmove(walls + s1 + d0, walls + s1, sizeof *walls * (size_t)(t0 - s1));
    } else {
        memmove(walls + s1 + d0, walls + s1, sizeof *walls * (size_t)(t0 - s1));
        memmove(walls + t1 + d0 + d1, walls + t1, sizeof *walls * (size_t)(n - t1));
    }
    if (nw0->n) memcpy(walls + s0, nw0->w, sizeof *walls * (size_t)nw0->n);
    if (nw1->n) memcpy(walls + t0 + d0, nw1->w, sizeof *walls * (size_t)nw1->n);
    e->nwalls = nn;
    return PT_OK;
}

/* The clearances after cell (cx, cy) turned solid (solid) or open: tile_clear as the build's
 * distance transform leaves it, changed only where it changes. */
static void clear_update(struct pt__steer_index *ix, int cx, int cy, int solid) {
    const int W = ix->bits_w, H = ix->bits_h;
    uint8_t *d = ix->tile_clear;
#define AT(x, y) d[(size_t)(y) * (size_t)W + (size_t)(x)]
    if (solid) {
        /* Distances only fall: ring by ring, cells farther from everything else than from
         * the cell; a ring where none is ends it (a cell of the next ring so placed has a
         * neighbour toward the cell so placed too). */
        AT(cx, cy) = 0;
        for (int r = 1; r < 255; r++) {
            int any = 0;
            for (int y = cy - r; y <= cy + r; y++) {
                if (y < 0 || y >= H) continue;
                int step = (y == cy - r || y == cy + r) ? 1 : 2 * r;
                for (int x = cx - r; x <= cx + r; x += step) {
                    if (x < 0 || x >= W) continue;
                    if (AT(x, y) > r) AT(x, y) = (uint8_t)r, any = 1;
                }
            }
            if (!any) break;
        }
        return;
    }
    /* Distances only grow, for the cells whose nearest solid was the cell: those with a
     * clearance equal to their distance to it, ring by ring as above. They are cleared, and
     * the transform runs again over the square around them, whose rim holds right values. */
    int K = 0;
    for (int r = 0; r < 255; r++) {
        int any = 0;
        for (int y = cy - r; y <= cy + r; y++) {
            if (y < 0 || y >= H) continue;
            int step = (y == cy - r || y == cy + r) ? 1 : 2 * r;
            if (step == 0) step = 1;
            for (int x = cx - r; x <= cx + r; x += step) {
                if (x < 0 || x >= W) continue;
                if (AT(x, y) == r) AT(x, y) = 255, any = 1;
            }
        }
        if (!any) break;
        K = r;
    }
    int x0 = cx - K - 1 < 0 ? 0 : cx - K - 1, x1 = cx + K + 1 >= W ? W - 1 : cx + K + 1;
    int y0 = cy - K - 1 < 0 ? 0 : cy - K - 1, y1 = cy + K + 1 >= H ? H - 1 : cy + K + 1;
#define NEAR(x, y) ((x) >= 0 && (x) < W && (y) >= 0 && (y) < H ? AT(x, y) : 0)
    for (int pass = 0; pass < 2; pass++) {
        int st = pass ? -1 : 1;
        for (int y = pass ? y1 : y0; y >= y0 && y <= y1; y += st)
            for (int x = pass ? x1 : x0; x >= x0 && x <= x1; x += st) {
                int v = AT(x, y);
                if (NEAR(x - st, y) + 1 < v) v = NEAR(x - st, y) + 1;
                for (int dx = -1; dx <= 1; dx++)
                    if (NEAR(x + dx, y - st) + 1 < v) v = NEAR(x + dx, y - st) + 1;
                AT(x, y) = (uint8_t)v;
            }
    }
#undef NEAR
#undef AT
}

int pt_steer_env_update_tile(pt_steer_env *env, int x, int y) {
    if (!env || !env->map || !env->ix || !env->ix->solid_bits || !pt_map_in(env->map, x, y)) return PT_ERR_OUT_OF_MAP;
    struct pt__steer_index *ix = env->ix;
    const pt_map *m = env->map;
    int solid = !pt_map_walkable(m, x, y);
    uint8_t *bit = &ix->solid_bits[(size_t)y * (size_t)ix->bits_stride + (size_t)(x >> 3)];
    if (((*bit >> (x & 7)) & 1) == solid) return PT_OK; /* walkability as it was: nothing to do */
    wall_buf rw = {0}, cw = {0};
    int rc = line_walls(m, 1, y, &rw);
    if (rc == PT_OK) rc = line_walls(m, 1, y + 1, &rw);
    if (rc == PT_OK) rc = line_walls(m, 0, x, &cw);
    if (rc == PT_OK) rc = line_walls(m, 0, x + 1, &cw);
    if (rc == PT_OK)
        rc = splice_walls(env, line_first(env, 1, y), line_first(env, 1, y + 2), &rw, line_first(env, 0, x),
                          line_first(env, 0, x + 2), &cw);
    PT_FREE(rw.w);
    PT_FREE(cw.w);
    if (rc < 0) return rc;
    *bit ^= (uint8_t)(1u << (x & 7));
    ix->solid_cols[(size_t)x * (size_t)ix->cols_stride + (size_t)(y >> 3)] ^= (uint8_t)(1u << (y & 7));
    clear_update(ix, x, y, solid);
    return PT_OK;
}
