/* SPDX-License-Identifier: Zlib */
/* patrol/path.h - shortest paths on the tile grid (A*, and Dijkstra to the nearest of many
 * goals).
 *
 * Moves are to the 8 neighbours over walkable cells; straight steps cost 10 and diagonal
 * steps 14 (integers: the same path on every machine); a diagonal step is allowed only when
 * both cells it passes beside are walkable (no corner cutting). Among equal-cost paths the
 * one found is fixed by the neighbour order (N, E, S, W, NE, SE, SW, NW), so results are
 * deterministic.
 *
 *     pt_pathfinder *pf = pt_pathfinder_create(&map);
 *     pt_cell path[256];
 *     int n = pt_path_find(pf, from, to, path, 256);     // -1: no path; else cells incl. both ends
 *     pt_pathfinder_destroy(pf);
 *
 * Memory: the pathfinder keeps per-cell arrays (about 13 bytes per cell) reused across
 * searches (a generation stamp avoids clearing them). Cost: O(expanded cells * log); a search
 * stops after max_expand cells (default: the whole map) and reports no path.
 */
#ifndef PATROL_PATH_H
#define PATROL_PATH_H

#include "api.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

typedef struct pt_pathfinder pt_pathfinder;

pt_pathfinder *pt_pathfinder_create(const pt_map *map);
void pt_pathfinder_destroy(pt_pathfinder *pf);
/* Limits the cells one search may expand (0 = no limit). */
void pt_pathfinder_set_limit(pt_pathfinder *pf, int max_expand);

/* Shortest path from `from` to `to`, both included. Writes up to max cells; returns the
 * path's full length in cells (may exceed max: then only the first max are written), or -1
 * when there is none (or either end is not walkable). */
int pt_path_find(pt_pathfinder *pf, pt_cell from, pt_cell to, pt_cell *out, int max);

/* Shortest path from `from` to the nearest (by path cost) of ngoals goal cells. *which gets
 * the index of the goal reached. Same return convention. */
int pt_path_find_nearest(pt_pathfinder *pf, pt_cell from, const pt_cell *goals, int ngoals,
                         pt_cell *out, int max, int *which);

/* A cell reached by pt_path_flood: its path cost (10 a straight step, 14 a diagonal one) from
 * the nearest source, and that source's index in `from`. */
typedef struct pt_path_reach {
    int x, y;
    int cost;
    int source;
} pt_path_reach;

/* Dijkstra from nfrom source cells at once (a multi-source flood: sources off the walkable
 * cells are left out), over the cells within max_cost of the nearest source (0 = no limit).
 * Reports the cells it reaches in order of cost (ties in a fixed order), each with its cost
 * and nearest source (ties between sources in a fixed order too); with `only` (nonly cells), it reports only those and stops once every one is
 * reached. Writes up to max; returns how many were reached (may exceed max), or
 * PT_ERR_NOMEM. Cost: O(cells expanded * log). */
int pt_path_flood(pt_pathfinder *pf, const pt_cell *from, int nfrom, int max_cost, const pt_cell *only,
                  int nonly, pt_path_reach *out, int max);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
