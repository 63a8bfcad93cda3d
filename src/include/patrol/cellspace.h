/* SPDX-License-Identifier: Zlib */
/* patrol/cellspace.h - uniform cell-space partition for neighbour queries.
 *
 * A grid of square cells over a rectangle (the map). Each tick, rebuild it from the
 * agents' positions (a counting sort: two passes, no per-agent allocation), then ask for the
 * agents within a radius of a point. The answer is exactly the brute-force one (distance
 * <= radius), only faster; positions outside the rectangle are clamped to its border cells,
 * so nothing is ever lost.
 *
 *     pt_cellspace cs;
 *     pt_cellspace_init(&cs, 0, 0, map.w, map.h, 2.5);             // cell = view radius
 *     pt_cellspace_rebuild(&cs, &agents[0].veh.pos, sizeof agents[0], n);  // every tick
 *     int k = pt_cellspace_query(&cs, p, 2.5, ids, cap);           // ids of agents in range
 *
 * Memory: flat arrays owned by the cell space (cells+1 offsets; per agent one id, one
 * position and one cell index), grown only when n exceeds the capacity; pt_cellspace_fini.
 * Cost: rebuild O(n + cells from the first occupied one to the last, in this rebuild and
 * the one before, in the agents' columns now and before, + those rows; the rest of a row is
 * rewritten only when an agent moved across it: a small crowd on a big map pays little
 * more than its own cells); query
 * O(cells touched + agents in them); query_first stops at its max. A cell size near the
 * query radius is best. Ids are indices into the positions given to the last rebuild;
 * results come out in cell order (ascending pt_cellspace_cell), ascending id within a cell.
 * Callers that keep their own per-agent data in the same order as ids/pos (pt_crowd does)
 * can rebuild from cells they computed themselves, in parallel: pt_cellspace_rebuild_cells.
 */
#ifndef PATROL_CELLSPACE_H
#define PATROL_CELLSPACE_H

#include <stddef.h>

#include "api.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

typedef struct pt_cellspace {
    double x0, y0, cell;       /* origin and cell size (tiles) */
    double inv_cell;
    int cols, rows;
    int *start;                /* cols*rows + 1 offsets into ids/pos */
    int *ids;                  /* agent ids sorted by cell (stable: ascending within a cell) */
    pt_vec2 *pos;              /* their positions, same order (queries read only these) */
    int *cell_of;              /* scratch: cell of each agent, by id */
    int n, cap;
    int lo, hi;                /* start[] holds 0 below cell lo and n from cell hi on: a
                                  rebuild rewrites only the cells between (and its own) */
    int c0, c1;                /* the columns the agents are in (none: INT_MAX, -1): between
                                  two rows' such columns start[] holds one value */
} pt_cellspace;

/* Column (or row) of a coordinate, clamped to [0, count-1]; NaN goes to 0. */
static inline int pt_cellspace_index(double v, double origin, double inv, int count) {
    double f = (v - origin) * inv;
    if (!(f >= 0.0)) return 0; /* also NaN */
    if (f >= (double)count) return count - 1;
    return (int)f;
}

/* The cell of a point: row * cols + column, clamped to the grid (outside points go to the
 * border cells, non-finite ones to cell 0). Rebuilds sort by it. */
static inline int pt_cellspace_cell(const pt_cellspace *cs, pt_vec2 p) {
    return pt_cellspace_index(p.y, cs->y0, cs->inv_cell, cs->rows) * cs->cols +
           pt_cellspace_index(p.x, cs->x0, cs->inv_cell, cs->cols);
}

/* The block of cells [*cx0, *cx1] x [*cy0, *cy1] a query of radius around p visits: every
 * point within radius of p is in it (widened by 1e-9 tiles so that rounding in p +- radius
 * never loses a point exactly at the radius). */
static inline void pt_cellspace_block(const pt_cellspace *cs, pt_vec2 p, double radius, int *cx0, int *cx1, int *cy0,
                                      int *cy1) {
    double r = radius + 1e-9 * (1.0 + radius);
    *cx0 = pt_cellspace_index(p.x - r, cs->x0, cs->inv_cell, cs->cols);
    *cx1 = pt_cellspace_index(p.x + r, cs->x0, cs->inv_cell, cs->cols);
    *cy0 = pt_cellspace_index(p.y - r, cs->y0, cs->inv_cell, cs->rows);
    *cy1 = pt_cellspace_index(p.y + r, cs->y0, cs->inv_cell, cs->rows);
}

/* A cs over [x0, x0+w) x [y0, y0+h) with square cells of `cell` tiles (the grid has at most
 * 1<<22 cells; the cell size grows if needed). Returns PT_OK, PT_ERR_RANGE for a non-positive
 * or non-finite size, PT_ERR_NOMEM. */
int pt_cellspace_init(pt_cellspace *cs, double x0, double y0, double w, double h, double cell);
void pt_cellspace_fini(pt_cellspace *cs);
/* Re-sorts n positions into the cells. positions[i] is read at byte offset i*stride (0 =
 * packed pt_vec2 array), so agents embedded in structs can be passed directly. Non-finite
 * positions are kept (in cell 0) but never match a query. PT_OK or PT_ERR_NOMEM. */
int pt_cellspace_rebuild(pt_cellspace *cs, const pt_vec2 *positions, size_t stride, int n);
/* The same from packed positions whose cells the caller computed: cells[i] must be
 * pt_cellspace_cell(cs, positions[i]) (an out-of-range cell gives PT_ERR_RANGE and an empty
 * cs). Lets the caller compute the cells in parallel. PT_OK, PT_ERR_RANGE or PT_ERR_NOMEM. */
int pt_cellspace_rebuild_cells(pt_cellspace *cs, const pt_vec2 *positions, const int *cells, int n);
/* Writes the ids of the agents with |pos - p| <= radius into out (at most max of them) and
 * returns how many there are in total (may exceed max: call again with a bigger buffer). */
int pt_cellspace_query(const pt_cellspace *cs, pt_vec2 p, double radius, int *out, int max);
/* The same first max ids in the same order, but stops looking once it has max of them and
 * returns how many it wrote (<= max). Callers that keep at most max neighbours get the same
 * answer without scanning a dense crowd: 65536 agents on one spot cost O(n^2) per tick with
 * pt_cellspace_query, O(n * max) with this. */
int pt_cellspace_query_first(const pt_cellspace *cs, pt_vec2 p, double radius, int *out, int max);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
