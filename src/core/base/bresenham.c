/* SPDX-License-Identifier: Zlib */
/* Grid lines (patrol/bresenham.h): the cells from one cell to another, walked a step at a
 * time (pt_line_iter), counted (pt_line_length) or written out (pt_line_cells). */
#include <patrol/bresenham.h>

#include <limits.h>
#include <stdlib.h>

/* The minor-axis offset at major step i is floor((2*i*dm + D) / (2*D)): the ideal line
 * rounded to the nearest cell, ties away from the start. r keeps that numerator modulo 2D,
 * so each step is one addition and at most one subtraction - no doubled error term. */

int pt_line_length(int x0, int y0, int x1, int y1) {
    /* In long long: x1 - x0 of two ints may not fit in an int. Saturates at INT_MAX. */
    long long dx = llabs((long long)x1 - x0), dy = llabs((long long)y1 - y0);
    long long n = (dx > dy ? dx : dy) + 1;
    return n < INT_MAX ? (int)n : INT_MAX;
}

void pt_line_iter_init(pt_line_iter *it, int x0, int y0, int x1, int y1) {
    long long dx = (long long)x1 - x0, dy = (long long)y1 - y0;
    long long adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    it->x = x0;
    it->y = y0;
    it->sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0);
    it->sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
    it->major_x = adx >= ady;
    long long D = it->major_x ? adx : ady, dm = it->major_x ? ady : adx;
    it->remaining = D < INT_MAX ? (int)D : INT_MAX; /* only for endpoints ~2^31 apart */
    it->dd2 = 2 * D;
    it->dm2 = 2 * dm;
    it->r = D;
}


int pt_line_cells(int x0, int y0, int x1, int y1, pt_cell *out, int max) {
    pt_line_iter it;
    pt_line_iter_init(&it, x0, y0, x1, y1);
    int n = 0;
    do {
        if (n < max) {
            out[n].x = it.x;
            out[n].y = it.y;
        }
        n++;
    } while (pt_line_iter_next(&it));
    return n;
}
