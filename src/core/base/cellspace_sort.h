/* SPDX-License-Identifier: Zlib */
/* cellspace_sort.h - the cell space's counting sort cut into shares, for the crowd's
 * threads (not installed). */
#ifndef PATROL_BASE_CELLSPACE_SORT_H
#define PATROL_BASE_CELLSPACE_SORT_H

#include <patrol/math.h>
#include <stddef.h>

struct pt_cellspace;
/* The counting sort of pt_cellspace_rebuild_cells cut into shares by ranges of cells, for
 * cells known to be in range: pt__cellspace_sort_plan (one thread; PT_ERR_NOMEM when the
 * arrays cannot grow to n) picks the cells to rewrite, then pt__cellspace_sort_share for
 * each share of `shares` (any threads, at once: each writes only its cells' offsets and
 * slots), then pt__cellspace_sort_done. The result does not depend on the cut. */
typedef struct pt__cellspace_plan {
    int a, b;   /* the cells of start[] to rewrite */
    int c0, c1; /* the columns the agents are in (none: INT_MAX, -1) */
    int d0, d1; /* those and the last sort's */
} pt__cellspace_plan;
int pt__cellspace_sort_plan(struct pt_cellspace *cs, const int *cells, int n, pt__cellspace_plan *plan);
/* One share: start[] gets its cells' offsets, and the agents of its cells their slots, in
 * ascending agent order within a cell: perm[slot] = agent when perm is not NULL (the cell
 * space's ids and pos are left alone), else the cell space's ids and pos (positions[i] read
 * at byte offset i*stride). Returns the most agents in one of its cells. */
int pt__cellspace_sort_share(struct pt_cellspace *cs, const int *cells, int n, const pt__cellspace_plan *plan, int share,
                             int shares, int *perm, const pt_vec2 *positions, size_t stride);
void pt__cellspace_sort_done(struct pt_cellspace *cs, int n);

#endif
