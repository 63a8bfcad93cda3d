/* SPDX-License-Identifier: Zlib */
/* los.c - line of sight: the rays (by rows of the map's sight bitmaps, by runs for long rays,
 * the cell walk when there are no bitmaps or an end is outside), the view cone, and walkable
 * lines. The bitmaps themselves belong to the map (map/sight.c). */
#include <patrol/los.h>

#include <patrol/bresenham.h>
#include <patrol/config.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/bits.h"
#include "map/sight.h"

#if defined(__GNUC__)
#define LOS_COLD __attribute__((noinline, cold))
#else
#define LOS_COLD
#endif

/* The general walk, for rays with an end outside the map (cells outside are opaque). Kept
 * out of line so the common path below needs fewer saved registers. */
LOS_COLD static int los_clear_checked(const pt_map *map, int x0, int y0, int x1, int y1) {
    pt_line_iter it;
    pt_line_iter_init(&it, x0, y0, x1, y1);
    int near = abs(x1 - x0) <= 1 && abs(y1 - y0) <= 1;
    int px = it.x, py = it.y;
    while (pt_line_iter_next(&it)) {
        if (it.x != px && it.y != py && pt_map_opaque(map, it.x, py) && pt_map_opaque(map, px, it.y))
            return 0; /* sealed corner */
        if (pt_map_opaque(map, it.x, it.y)) {
            int last = it.remaining == 0;
            /* The target's own cell: a walkable opaque tile (bush) hides only from afar. */
            if (!(last && near && pt_map_walkable(map, it.x, it.y))) return 0;
        }
        px = it.x;
        py = it.y;
    }
    return 1;
}

/* The rays read the map's sight bitmaps (map/sight.h: the opaque bits by rows and by
 * columns, PT_SIGHT_PAD bits of padding each side) with one unaligned 64-bit load per row.
 *
 * The shape of every ray of LOS_ROWS_MAX steps or fewer, as runs: for a ray of D major steps
 * and m minor steps (2 <= D, m <= D), with both steps positive, entry k of its m + 1 rows has
 * the cells of the ray in row k as a mask of major offsets (the viewer's offset 0 left out),
 * and the offsets of the two cells of the diagonal step into and out of row k: leaving row k,
 * the step passes corner A = (end of the run + 1, row k) and corner B = (end of the run,
 * row k + 1). A ray going the other way along its major axis is the mirror image: its
 * table, los_rows[1], has offset j as bit LOS_ROWS_MAX - j of a window that starts
 * LOS_ROWS_MAX cells back. Built once, from the same integer stepping as the walk, by the
 * first ray that needs it (los_rows_ready). */
enum { LOS_ROWS_MAX = 24 };
typedef struct los_row {
    uint32_t run;       /* the ray's cells in this row */
    uint8_t out_a, in_b; /* corner A leaving the row, corner B entering it */
} los_row;
enum { LOS_NROWS = (LOS_ROWS_MAX + 1) * (LOS_ROWS_MAX + 2) * (LOS_ROWS_MAX + 3) / 6 };
static los_row los_rows[2][LOS_NROWS]; /* [going back along the axis] */
static int los_shape[LOS_ROWS_MAX + 1][LOS_ROWS_MAX + 1]; /* [D][m]: first row */
static pthread_once_t los_rows_once = PTHREAD_ONCE_INIT;
static atomic_int los_rows_ready; /* 1 (stored with release) once the table is built */

static void los_rows_build(void) {
    int n = 0;
    for (int D = 2; D <= LOS_ROWS_MAX; D++)
        for (int m = 0; m <= D; m++) {
            los_shape[D][m] = n;
            los_row *R = &los_rows[0][n], *B = &los_rows[1][n];
            long dm2 = 2 * m, dd2 = 2 * D, r = D;
            int k = 0;
            for (int i = 1; i <= D; i++) {
                r += dm2;
                if (r >= dd2) {
                    r -= dd2;
                    R[k].out_a = (uint8_t)i;
                    B[k].out_a = (uint8_t)(LOS_ROWS_MAX - i);
                    R[k + 1].in_b = (uint8_t)(i - 1);
                    B[k + 1].in_b = (uint8_t)(LOS_ROWS_MAX - (i - 1));
                    k++;
                }
                R[k].run |= 1u << i;
                B[k].run |= 1u << (LOS_ROWS_MAX - i);
            }
            n += m + 1;
        }
    atomic_store_explicit(&los_rows_ready, 1, memory_order_release);
}

LOS_COLD static int los_rows_init(void) { return pthread_once(&los_rows_once, los_rows_build) == 0; }

/* Whether the table may be read: after the first build, one plain load (an acquire on x86
 * and arm64 costs no fence) and a branch that is always taken. */
static inline int los_rows_ok(void) {
    return atomic_load_explicit(&los_rows_ready, memory_order_acquire) || los_rows_init();
}

/* The ray by rows of bits (both ends inside the map, 2 <= D <= LOS_ROWS_MAX). line: the
 * viewer's row (x major) or column; along: the viewer's offset along it; back: the ray goes
 * towards lower offsets; next: bytes from one line to the next the ray enters. */
static int los_by_rows(const uint8_t *line, int along, int back, ptrdiff_t next, int D, int m) {
    int start = along + PT_SIGHT_PAD - (back ? LOS_ROWS_MAX : 0);
    const uint8_t *p = line + (start >> 3);
    unsigned sh = (unsigned)start & 7;
    const los_row *R = &los_rows[back][los_shape[D][m]];
    uint64_t a = 0; /* bit 0: corner A of the previous row is opaque */
    for (int k = 0; k <= m; k++, p += next) {
        uint64_t w = pt__bits64(p) >> sh;
        if ((w & R[k].run) | (a & (w >> R[k].in_b) & 1)) return 0;
        a = w >> R[k].out_a;
    }
    return 1;
}

static inline uint64_t bits_at(const uint8_t *line, int pos) {
    unsigned b = (unsigned)(pos + PT_SIGHT_PAD);
    return pt__bits64(line + (b >> 3)) >> (b & 7);
}

/* Longer rays by rows too, with each run worked out as the ray goes: the k-th diagonal step
 * (k = 0 .. m-1) is step ceil((2k + 1) D / 2m) of the walk. That quotient is kept in fixed
 * point with 32 fraction bits, every rounding upward: after k rows it is at most (k + 1) *
 * 2^-32 over the exact value, less than the 1 / 2m that separates a fraction from the next
 * whole number for any map (sides up to 4096), so its whole part is exact, and a row costs
 * one addition. One load per row covers the run and the two corner cells beside it (offsets
 * s - 1 .. e + 1) while the run is at most 55 cells; longer runs (shallow rays) go by 56
 * cells at a time. */
static int los_by_runs(const uint8_t *line, int along, int back, ptrdiff_t next, int D, int m) {
    uint64_t den = 2u * (uint64_t)m, q = 0, step = 0; /* q: ceil((2k + 1) D / 2m), 32.32 */
    if (m) {
        q = ((((uint64_t)D + den - 1) << 32) + den - 1) / den; /* (D + 2m - 1) / 2m, rounded up */
        step = (((uint64_t)(2 * D) << 32) + den - 1) / den;
    }
    int s = 1;      /* the row's first offset (row 0: the viewer's cell is left out) */
    uint64_t a = 0; /* bit 0: corner A, one past the previous row's run, is opaque */
    for (int k = 0; k <= m; k++, line += next) {
        int e = k < m ? (int)(q >> 32) - 1 : D, len = e - s + 1; /* run s..e; row 0 may be empty */
        if (len <= 55) {
            uint64_t w = bits_at(line, back ? along - e - 1 : along + s - 1);
            uint64_t run = ((UINT64_C(1) << len) - 1) << 1, near = back ? w >> (len + 1) : w;
            if ((w & run) | (a & near & 1)) return 0;
            a = back ? w : w >> (len + 1);
        } else {
            if (a & bits_at(line, back ? along - s + 1 : along + s - 1) & 1) return 0;
            for (int c = s; c <= e; c += 56) {
                int n = e - c + 1 < 56 ? e - c + 1 : 56;
                if (bits_at(line, back ? along - c - n + 1 : along + c) & ((UINT64_C(1) << n) - 1)) return 0;
            }
            a = bits_at(line, back ? along - e - 1 : along + e + 1);
        }
        s = e + 1;
        q += step;
    }
    return 1;
}

/* With both ends inside the map every cell of the ray is too, so the walk needs no bounds
 * checks: it steps a flat index through the flags (the same rounding as pt_line_iter). */
int pt_los_clear_walk(const pt_map *map, int x0, int y0, int x1, int y1) {
    if (!pt_map_in(map, x0, y0) || !pt_map_in(map, x1, y1)) return los_clear_checked(map, x0, y0, x1, y1);
    const uint8_t *f = map->flags;
    const ptrdiff_t W = map->w;
    long dx = x1 - x0, dy = y1 - y0;
    long adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    ptrdiff_t sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? W : (dy < 0 ? -W : 0);
    int major_x = adx >= ady;
    long D = major_x ? adx : ady, dm2 = 2 * (major_x ? ady : adx), dd2 = 2 * D, r = D;
    ptrdiff_t step_major = major_x ? sx : sy, step_minor = major_x ? sy : sx;
    ptrdiff_t idx = (ptrdiff_t)y0 * W + x0;
    if (D <= 1) {
        /* Adjacent (or the same) cell: the only case the bush exception applies to. */
        if (D == 0) return 1;
        ptrdiff_t t = idx + step_major + (dm2 ? step_minor : 0);
        if (dm2 && (f[idx + step_major] & f[idx + step_minor] & PT_TILE_OPAQUE)) return 0; /* sealed corner */
        return !(f[t] & PT_TILE_OPAQUE) || (f[t] & PT_TILE_WALKABLE);
    }
    for (long i = 1; i <= D; i++) {
        /* Branch-free minor step in the source; the compiler may still emit a jump, which
         * the hardware predicts well, so a mask that forces no jump gains nothing. */
        r += dm2;
        long minor = r >= dd2;
        r -= minor ? dd2 : 0;
        ptrdiff_t a = idx + step_major;           /* always a cell of the ray's row/column */
        ptrdiff_t b = minor ? idx + step_minor : a;
        idx = a + (minor ? step_minor : 0);
        /* One branch per cell: the sealed corner (a and b both opaque; on a straight step
         * a == b == idx) or the cell itself. */
        if (((f[a] & f[b]) | f[idx]) & PT_TILE_OPAQUE) return 0;
    }
    return 1;
}

int pt_los_clear(const pt_map *map, int x0, int y0, int x1, int y1) {
    const struct pt_map_sight *s = map->sight;
    if (s && pt_map_in(map, x0, y0) && pt_map_in(map, x1, y1)) {
        int dx = x1 - x0, dy = y1 - y0;
        int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
        const uint8_t *line;
        ptrdiff_t next;
        int along, back, D, m;
        if (adx >= ady) { /* x major: the rows */
            line = s->rows + (size_t)y0 * s->row_bytes;
            next = dy < 0 ? -(ptrdiff_t)s->row_bytes : (ptrdiff_t)s->row_bytes;
            along = x0, back = dx < 0, D = adx, m = ady;
        } else {
            line = s->cols + (size_t)x0 * s->col_bytes;
            next = dx < 0 ? -(ptrdiff_t)s->col_bytes : (ptrdiff_t)s->col_bytes;
            along = y0, back = dy < 0, D = ady, m = adx;
        }
        if (D >= 2) {
            if (D > LOS_ROWS_MAX) return los_by_runs(line, along, back, next, D, m);
            if (los_rows_ok()) return los_by_rows(line, along, back, next, D, m);
        }
    }
    return pt_los_clear_walk(map, x0, y0, x1, y1);
}

/* Distance and cone: the part of sight that needs no map. */
static int in_view(double vx, double vy, double heading, double view_dist, double view_angle, double tx, double ty) {
    double dx = tx - vx, dy = ty - vy;
    double d2 = dx * dx + dy * dy;
    if (!(d2 <= view_dist * view_dist)) return 0;
    if (view_angle < PT_TAU && d2 > 1e-12) {
        /* Compare cosines instead of angles: no acos, no NaN. */
        double d = sqrt(d2);
        double c = (dx * cos(heading) + dy * sin(heading)) / d;
        if (c < cos(view_angle * 0.5) - 1e-12) return 0;
    }
    return 1;
}

/* The cell of a coordinate for any double (a plain (int) cast of a huge or NaN value is
 * undefined): positions that far are outside every map anyway. */
static int cell_of(double v) {
    if (!(v > -1e9)) return -1000000000; /* also NaN */
    if (v > 1e9) return 1000000000;
    return (int)floor(v);
}

int pt_can_see(const pt_map *map, double vx, double vy, double heading, double view_dist,
               double view_angle, double tx, double ty) {
    if (!in_view(vx, vy, heading, view_dist, view_angle, tx, ty)) return 0;
    return pt_los_clear(map, cell_of(vx), cell_of(vy), cell_of(tx), cell_of(ty));
}

int pt_line_walkable(const pt_map *map, int x0, int y0, int x1, int y1) {
    pt_line_iter it;
    pt_line_iter_init(&it, x0, y0, x1, y1);
    int px = it.x, py = it.y;
    while (pt_line_iter_next(&it)) {
        if (!pt_map_step_ok(map, px, py, it.x, it.y)) return 0;
        px = it.x;
        py = it.y;
    }
    return 1;
}

