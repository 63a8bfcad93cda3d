/* SPDX-License-Identifier: Zlib */
/* steer_env_index.h - the layout of a pt_steer_env's index (built by steer_env.c), what the
 * tests read of it (check_steer_env.c), and the small helpers the files that query it share
 * (steer_walls.c, steer_obstacles.c, steer_contain.c, steer_collide.c): inline, since they
 * run per agent and per tile. */
#ifndef PATROL_STEER_ENV_PRIV_H
#define PATROL_STEER_ENV_PRIV_H

#include <patrol/map.h>
#include <patrol/steer.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>

struct pt__steer_index {
    /* block index: block (bx,by) covers [ox+bx*block, ...) in tiles; CSR lists of ids */
    double ox, oy, block;
    int bcols, brows;
    int *wall_start, *wall_ids;   /* bcols*brows+1 offsets, ids of walls touching each block */
    int *obs_start, *obs_ids;     /* same for obstacles (centre +- radius) */
    double max_obstacle_r;
    /* fast paths (pt_steer_env_build only): bit x%8 of byte y*bits_stride + x/8 is set when
     * tile (x,y) was not walkable when the walls were built or last updated (rows padded with 8 zero bytes);
     * NULL for custom walls */
    uint8_t *solid_bits;
    int bits_w, bits_h, bits_stride;
    uint8_t *solid_cols;          /* the same bits by columns: bit y%8 of byte x*cols_stride + y/8 */
    int cols_stride;
    int walls_axis;               /* 1: every wall is axis-aligned with integer ends (maps) */
    float *wall_box;              /* per wall_ids entry: its wall's box, rounded outward */
    int wall_box_exact;           /* 1 when every such box is exact (integer walls of maps) */
    double inv_block;             /* 1 / block (exact: block is a power of two) */
    uint8_t *obs_near;            /* per block: Chebyshev distance in blocks to the nearest block
                                     listing an obstacle (255 = none that close) */
    uint8_t *tile_clear;          /* with solid_bits, per tile (x,y) at y*bits_w + x: Chebyshev
                                     distance in tiles to the nearest tile that was not walkable
                                     or lies outside the map, capped at 255 (0: not walkable) */
    int walls_cap;                /* pt_steer_env_build: walls the wall array has room for (last:
                                     the fields above keep their places) */
    /* The wall lists have room to change in place (pt_steer_env_update_tile): block b owns the
     * slots [wall_start[b], wall_start[b+1]), its wall_n[b] walls first, in canonical order
     * (pt__wall_key: row walls before column walls, by line, then by first cell; the build's
     * id order), then spare slots (id -1, box +inf..-inf, which no query box meets). Envs of
     * custom walls have no spare slots. */
    int *wall_n;
    int wall_spare;               /* spare slots in all */
};

/* A map wall's place in the canonical order: 0 for a row wall (a.y == b.y), 1 for a column
 * wall, its line, and its first cell along the line. */
typedef struct pt__wall_key { int vert, line, first; } pt__wall_key;

static inline pt__wall_key pt__wall_key_of(const pt_wall *w) {
    if (w->a.y == w->b.y) return (pt__wall_key){0, (int)w->a.y, (int)(w->a.x < w->b.x ? w->a.x : w->b.x)};
    return (pt__wall_key){1, (int)w->a.x, (int)(w->a.y < w->b.y ? w->a.y : w->b.y)};
}

static inline int pt__wall_key_cmp(pt__wall_key a, pt__wall_key b) {
    if (a.vert != b.vert) return a.vert < b.vert ? -1 : 1;
    if (a.line != b.line) return a.line < b.line ? -1 : 1;
    return (a.first > b.first) - (a.first < b.first);
}

/* steer_env_update.c: lays the wall lists out again with `spare` spare slots per block (the
 * old lists stay on PT_ERR_NOMEM). */
int pt__steer_walls_spread(pt_steer_env *e, int spare);

static inline pt_vec2 pt__zero2(void) { return pt_v2(0.0, 0.0); }

/* ---- the index ----------------------------------------------------------------------- */

static inline void pt__block_range(const pt_steer_env *e, double x0, double y0, double x1, double y1, int *bx0, int *by0,
                                   int *bx1, int *by1) {
    double inv = e->ix->inv_block;
    double fx0 = (x0 - e->ix->ox) * inv, fx1 = (x1 - e->ix->ox) * inv, fy0 = (y0 - e->ix->oy) * inv, fy1 = (y1 - e->ix->oy) * inv;
    /* Clamped and monotone: a range never misses a block an item in range was filed under. */
    *bx0 = !(fx0 >= 0) ? 0 : (fx0 >= e->ix->bcols ? e->ix->bcols - 1 : (int)fx0);
    *bx1 = !(fx1 >= 0) ? 0 : (fx1 >= e->ix->bcols ? e->ix->bcols - 1 : (int)fx1);
    *by0 = !(fy0 >= 0) ? 0 : (fy0 >= e->ix->brows ? e->ix->brows - 1 : (int)fy0);
    *by1 = !(fy1 >= 0) ? 0 : (fy1 >= e->ix->brows ? e->ix->brows - 1 : (int)fy1);
}

/* 1 when no obstacle can be listed in the blocks pt__block_range gives for p +- reach: the
 * block of p is farther than that range reaches from every block listing one. */
static inline int pt__obs_far(const pt_steer_env *e, pt_vec2 p, double reach) {
    double fx = (p.x - e->ix->ox) * e->ix->inv_block, fy = (p.y - e->ix->oy) * e->ix->inv_block, k = reach * e->ix->inv_block + 1.001;
    if (!(fx >= 0 && fy >= 0 && fx < e->ix->bcols && fy < e->ix->brows && k < 255)) return 0;
    return e->ix->obs_near[(size_t)(int)fy * (size_t)e->ix->bcols + (size_t)(int)fx] > k;
}

/* Whether any item is listed in blocks [bx0,bx1] x [by0,by1]: the CSR offsets count items
 * in row-major block order, so one row of blocks is two loads. */
static inline int pt__blocks_nonempty(const pt_steer_env *e, const int *start, int bx0, int by0, int bx1, int by1) {
    for (int by = by0; by <= by1; by++) {
        const int *row = start + (size_t)by * (size_t)e->ix->bcols;
        if (row[bx1 + 1] != row[bx0]) return 1;
    }
    return 0;
}

/* ---- tiles --------------------------------------------------------------------------- */

/* A prefetch of p. gcc 12 drops a __builtin_prefetch whose address comes from a double
 * converted to an integer when it sits in a loop that calls out; the asm stays. */
#if defined(__x86_64__) && defined(__GNUC__)
#define PT_PREFETCH(p) __asm__ volatile("prefetcht0 %0" ::"m"(*(const char *)(p)))
#else
#define PT_PREFETCH(p) __builtin_prefetch(p)
#endif

/* Asks for the lines an agent at p reads first on a large map, for a step that comes to it
 * a little later (it moves less than a tile meanwhile): its tile's clearance (wall
 * avoidance) and the map's flags of the rows round it (collision). */
static inline void pt__steer_env_prefetch(const pt_steer_env *e, pt_vec2 p) {
    const pt_map *m = e->map;
    if (!m || !m->flags || !(p.x >= 0 && p.y >= 1 && p.x < m->w && p.y < m->h - 1)) return;
    size_t at = (size_t)(int)(p.y - 0.5) * (size_t)m->w + (size_t)(int)p.x;
    PT_PREFETCH(m->flags + at);
    PT_PREFETCH(m->flags + at + (size_t)m->w);
    const struct pt__steer_index *ix = e->ix;
    if (ix && ix->tile_clear && ix->bits_w == m->w && ix->bits_h == m->h)
        PT_PREFETCH(ix->tile_clear + (size_t)(int)p.y * (size_t)ix->bits_w + (size_t)(int)p.x);
}

/* !pt_map_walkable, read directly (one unsigned compare per axis): collision calls it for
 * every cell under every agent. */
static inline int pt__solid(const pt_map *m, int x, int y) {
    return !((unsigned)x < (unsigned)m->w && (unsigned)y < (unsigned)m->h) ||
           !(m->flags[(size_t)y * (size_t)m->w + (size_t)x] & PT_TILE_WALKABLE);
}

/* Cell index of a coordinate, safe for any finite value; the usual coordinates need no
 * libm call ((int) truncates toward zero, which is floor for v >= 0). */
static inline int pt__cell_of(double v) {
    if (v >= 0 && v < 1e6) return (int)v;
    if (v < -1e6) return -1000000;
    if (v > 1e6) return 1000000;
    return (int)floor(v);
}

/* Closest point of tile (x,y) to p. */
static inline pt_vec2 pt__tile_closest(int x, int y, pt_vec2 p) {
    return pt_v2(pt_clamp(p.x, x, x + 1.0), pt_clamp(p.y, y, y + 1.0));
}

#endif
