/* SPDX-License-Identifier: Zlib */
/* patrol/search.h - guards searching together around the last known position (docs/ai.md,
 * "Searching"): what a renderer or a tool may read of the world's search, and a way for a
 * game to start one.
 *
 *     pt_search_info s;
 *     if (pt_world_search(w, &s))                 // a search is on
 *         for (int i = 0; i < s.ncells; i++)
 *             if (s.searched[i]) tint(s.cells[i]);
 *
 *     int guards[] = {1, 2, 3};
 *     pt_world_search_start(w, x, y, guards, 3, 0);  // a body found at x,y: search there
 *
 * One search at a time: the area is the cells within 10 tiles of walking of the place; the
 * searching guards split its cells (each to the nearest guard), walk to the nearest
 * unsearched cell of their share and mark every cell they notice as searched; the search
 * ends when the area is covered or the evasion countdown runs out, and they go back to their
 *  rounds. Memory: the world keeps the area (about 41 bytes per cell of a 21 x 21 window) and
 * one byte per cell and guard. Cost: each searching guard checks its sight to the area's
 * unsearched cells every tick, and walks the area (Dijkstra) when it picks a new cell.
 */
#ifndef PATROL_SEARCH_H
#define PATROL_SEARCH_H

#include "api.h"
#include "map.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* The world's search, on or last ended. The pointers belong to the world and are valid
 * until its next step. */
typedef struct pt_search_info {
    int active;                    /* 1 while guards search */
    int alone;                     /* 1: each guard covers the whole area by itself */
    int covered;                   /* ended because every cell was searched */
    pt_cell origin;                /* the last known position */
    int ncells;                    /* cells in the area (0: there never was a search) */
    const pt_cell *cells;          /* the area, nearest (walking) to the origin first */
    const unsigned char *searched; /* per cell: 1 once a searching guard has seen it */
    const int *owner;              /* per cell: the guard id whose share it is, -1 for anyone's
                                      (always -1 alone or with one guard) */
    int nsearched;                 /* cells searched */
    int nguards;                   /* guards searching now */
    double seconds;                /* since it started (until it ended, once over) */
} pt_search_info;

/* Fills *out with the world's search, on or last ended (all zero when there never was
 * one). Returns out->active. */
int pt_world_search(const pt_world *w, pt_search_info *out);

/* Starts a search around cell (x, y) with the n guards listed (world ids) as if they had
 * lost the player there: they switch to search (a guard in chase keeps chasing), the
 * guards of a search already on leave it, and the evasion countdown starts when the phase
 * is normal or caution. alone = 1: each guard covers the whole area by itself, ignoring the
 * others (for comparisons). Returns PT_OK, PT_ERR_NOT_WALKABLE for a cell that is not
 * walkable (or outside the map), PT_ERR_RANGE for an id that is not a guard (nothing
 * changes then), or PT_ERR_NOMEM. */
int pt_world_search_start(pt_world *w, int x, int y, const int *guards, int n, int alone);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
