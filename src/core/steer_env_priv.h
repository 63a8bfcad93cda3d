/* SPDX-License-Identifier: Zlib */
/* steer_env_priv.h - the layout of a pt_steer_env's index (steer_env.c) and what the tests
 * read of it (check_steer_env.c). */
#ifndef PATROL_STEER_ENV_PRIV_H
#define PATROL_STEER_ENV_PRIV_H

#include <patrol/steer.h>

#include <stdint.h>

struct pt__steer_index {
    /* block index: block (bx,by) covers [ox+bx*block, ...) in tiles; CSR lists of ids */
    double ox, oy, block;
    int bcols, brows;
    int *wall_start, *wall_ids;   /* bcols*brows+1 offsets, ids of walls touching each block */
    int *obs_start, *obs_ids;     /* same for obstacles (centre +- radius) */
    double max_obstacle_r;
    /* fast paths (pt_steer_env_build only): bit x%8 of byte y*bits_stride + x/8 is set when
     * tile (x,y) was not walkable when the walls were built (rows padded with 8 zero bytes);
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
};

#endif
