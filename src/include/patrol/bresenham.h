/* SPDX-License-Identifier: Zlib */
/* patrol/bresenham.h - integer line rasterisation on the tile grid.
 *
 * pt_line_cells() writes the cells of the segment from (x0,y0) to (x1,y1), both endpoints
 * included, in order from the start. It works in all octants with integer arithmetic only.
 * The result has max(|dx|,|dy|)+1 cells, consecutive cells are 8-adjacent, and each cell is
 * the ideal line's point on the major axis rounded to the nearest cell on the minor axis.
 *
 * Tie-breaking (documented, deterministic): when the ideal line passes exactly half-way
 * between two cells on the minor axis, the cell farther from the start is chosen. So the
 * line A->B is not always B->A reversed; callers that need one rule (line of sight) always
 * trace from the same end.
 *
 *     pt_cell buf[64];
 *     int n = pt_line_cells(0, 0, 5, 2, buf, 64);   // n == 6
 *
 * Cost: O(n), no allocation. pt_line_iter walks the same cells without a buffer.
 */
#ifndef PATROL_BRESENHAM_H
#define PATROL_BRESENHAM_H

#include "math.h"

#include "api.h"
PT_API_BEGIN

/* Number of cells the segment has: max(|x1-x0|, |y1-y0|) + 1. */
int pt_line_length(int x0, int y0, int x1, int y1);

/* Writes up to max cells to out (out may be NULL when max is 0) and returns the full length,
 * which may exceed max (then only the first max cells were written). */
int pt_line_cells(int x0, int y0, int x1, int y1, pt_cell *out, int max);

/* Incremental walk over exactly the cells pt_line_cells() gives. */
typedef struct pt_line_iter {
    int x, y;          /* current cell */
    int sx, sy;        /* step on each axis: -1, 0 or +1 */
    int major_x;       /* 1 when |dx| >= |dy| */
    int remaining;     /* steps left after the current cell */
    long long r, dm2, dd2; /* rounding state */
} pt_line_iter;

void pt_line_iter_init(pt_line_iter *it, int x0, int y0, int x1, int y1);
/* Moves to the next cell; returns 0 when the current cell was the last one. Inline: it is the
 * inner loop of every line-of-sight check. */
static inline int pt_line_iter_next(pt_line_iter *it) {
    if (it->remaining <= 0) return 0;
    it->remaining--;
    it->r += it->dm2;
    int minor = it->r >= it->dd2;
    if (minor) it->r -= it->dd2;
    if (it->major_x) {
        it->x += it->sx;
        it->y += minor ? it->sy : 0;
    } else {
        it->y += it->sy;
        it->x += minor ? it->sx : 0;
    }
    return 1;
}

PT_API_END

#endif
