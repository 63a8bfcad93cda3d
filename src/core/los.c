#include <patrol/los.h>

#include <patrol/bresenham.h>
#include <patrol/config.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

/* With both ends inside the map every cell of the ray is too, so the walk needs no bounds
 * checks: it steps a flat index through the flags (the same rounding as pt_line_iter). This
 * is the inner loop of every sight check. */
int pt_los_clear(const pt_map *map, int x0, int y0, int x1, int y1) {
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
        /* Branch-free minor step in the source; a mask version (forcing no jump) was no
         * faster in A/B runs (docs/performance.md): the hardware predicts the jump. */
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
        if (!pt_map_walkable(map, it.x, it.y)) return 0;
        if (it.x != px && it.y != py && (!pt_map_walkable(map, it.x, py) || !pt_map_walkable(map, px, it.y)))
            return 0;
        px = it.x;
        py = it.y;
    }
    return 1;
}

