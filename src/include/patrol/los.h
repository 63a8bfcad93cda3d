/* SPDX-License-Identifier: Zlib */
/* patrol/los.h - line of sight on the tile grid.
 *
 * The rule (one rule, always traced from the viewer to the target, because Bresenham lines
 * are not symmetric):
 *   - the ray is the Bresenham line (patrol/bresenham.h) from the viewer's cell to the
 *     target's cell; the viewer's cell is excluded, the target's cell is included;
 *   - any opaque cell on the ray blocks it, with one exception: the target's own cell when
 *     it is walkable (a bush) and the target is at most one tile away (Chebyshev distance);
 *     so a player standing in a bush is hidden from farther viewers;
 *   - a diagonal step of the ray between two opaque cells that touch at a corner is blocked:
 *     walls meeting at a corner are sealed. One opaque cell beside a diagonal step does not
 *     block sight (movement has a stricter rule: pt_map_step_ok in patrol/map.h).
 * pt_can_see() adds the view distance (between cell centres, in tiles) and the view cone
 * (the angle between the viewer's heading and the direction to the target is at most half
 * the view angle; a view angle >= 360 degrees sees all around).
 *
 *     if (pt_can_see(&map, gx, gy, heading, 8.0, pt_rad(90), px, py)) ...
 *
 * Cost: no allocation. With the map's sight bitmaps (pt_map keeps them; see
 * pt_map_refresh_sight), a ray of at most 24 tiles along its major axis costs one 64-bit load
 * per row (or column) it crosses; longer rays, and rays with an end outside the map, walk the
 * flags cell by cell: O(distance).
 */
#ifndef PATROL_LOS_H
#define PATROL_LOS_H

#include "api.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* 1 when nothing on the ray from cell (x0,y0) to cell (x1,y1) blocks sight (rule above). */
int pt_los_clear(const pt_map *map, int x0, int y0, int x1, int y1);

/* The same answer as pt_los_clear, always walking the flags cell by cell (no bitmaps): the
 * straightforward version the bitmaps are tested against. */
int pt_los_clear_walk(const pt_map *map, int x0, int y0, int x1, int y1);

/* Distance, cone and ray together. Positions are continuous (tile units); cells are the
 * floors of the positions. heading and view_angle in radians (view_angle = full cone). */
int pt_can_see(const pt_map *map, double vx, double vy, double heading, double view_dist,
               double view_angle, double tx, double ty);

/* 1 when every step of the Bresenham line (x0,y0)->(x1,y1) is a legal tile move
 * (pt_map_step_ok: walkable cells, no diagonal step past a non-walkable corner): the
 * straight tile path a chaser may walk. */
int pt_line_walkable(const pt_map *map, int x0, int y0, int x1, int y1);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
