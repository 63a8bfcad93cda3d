/* SPDX-License-Identifier: Zlib */
/* patrol/hearing.h - noises that travel through the tile grid like sound around a building,
 * and the loudness they still have at each cell (docs/ai.md, "Hearing").
 *
 *     pt_hearing *h = pt_hearing_create(&map);        once per map
 *     pt_hearing_flood(h, x, y, 16.0);                a noise of loudness 16 at cell x,y
 *     if (pt_hearing_hears(h, gx, gy, guard.hearing)) ... the guard heard a noise at x,y
 *     pt_hearing_destroy(h);
 *
 * A noise loses 1 per straight tile walked (1.4 per diagonal) plus each entered tile's
 * `sound` damping (pt_tile_def.sound); a tile of PT_SOUND_BLOCK stops it, and a diagonal step
 * passes only when both cells beside it let sound through. All costs are whole tenths of a
 * tile, so every build gives the same levels. Cost: O(cells reached), at most
 * (2L+1)^2 cells for loudness L (a Dial bucket queue in a window around the noise). Memory:
 * the object keeps its buffers between floods, 28 bytes per cell of the window of the
 * loudest noise so far (1.1 MB for loudness 100) and 4 KB, and a flood no louder than an
 * earlier one allocates nothing (unless its ways get cheaper many times over: then its
 * queue grows). Not thread-safe: one object per thread. The map must outlive the object; its
 * cells may change between floods.
 */
#ifndef PATROL_HEARING_H
#define PATROL_HEARING_H

#include "api.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* Loudness is kept in tenths of a tile, rounded to the nearest, up to this. */
#define PT_HEARING_MAX_LOUDNESS 256.0
/* Loss of one step, in tenths of a tile, before the entered tile's damping. */
#define PT_HEARING_STRAIGHT 10
#define PT_HEARING_DIAGONAL 14

typedef struct pt_hearing pt_hearing;

/* A cell the last noise reached, and the loudness left there (> 0). */
typedef struct pt_hearing_cell {
    int x, y;
    double level;
} pt_hearing_cell;

/* A flood object for map (kept by pointer). NULL when map is NULL or memory runs out. */
pt_hearing *pt_hearing_create(const pt_map *map);
/* Frees h; NULL is fine. */
void pt_hearing_destroy(pt_hearing *h);

/* Spreads a noise of `loudness` tiles from cell (x, y) and keeps the level left at every cell
 * it reaches (replacing the previous noise's). Loudness is rounded to tenths and capped at
 * PT_HEARING_MAX_LOUDNESS; NaN, zero or less reaches nothing, and so does a noise outside the
 * map or on a tile that blocks sound. Returns the number of cells reached (the origin
 * included), or PT_ERR_NOMEM (then nothing is reached). */
int pt_hearing_flood(pt_hearing *h, int x, int y, double loudness);

/* The loudness the last noise has left at cell (x, y): its loudness at the origin, less the
 * losses on the quietest way there; 0 where it did not reach (walls, too far, outside). */
double pt_hearing_level(const pt_hearing *h, int x, int y);

/* 1 when the last noise is heard at (x, y) by a listener of hearing threshold `threshold`:
 * its level there is above the threshold (zero, negative or NaN threshold: the default of
 * pt_entity_def.hearing). */
int pt_hearing_hears(const pt_hearing *h, int x, int y, double threshold);

/* The cells the last noise reached, loudest first (ties in a fixed order), through *cells
 * (valid until the next flood or destroy). Returns how many. For overlays and tests. */
int pt_hearing_cells(const pt_hearing *h, const pt_hearing_cell **cells);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
