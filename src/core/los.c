#include <patrol/los.h>

#include <patrol/bresenham.h>
#include <math.h>
#include <stdlib.h>

int pt_los_clear(const pt_map *map, int x0, int y0, int x1, int y1) {
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

/* The cell of a coordinate for any double (a plain (int) cast of a huge or NaN value is
 * undefined): positions that far are outside every map anyway. */
static int cell_of(double v) {
    if (!(v > -1e9)) return -1000000000; /* also NaN */
    if (v > 1e9) return 1000000000;
    return (int)floor(v);
}

int pt_can_see(const pt_map *map, double vx, double vy, double heading, double view_dist,
               double view_angle, double tx, double ty) {
    double dx = tx - vx, dy = ty - vy;
    double d2 = dx * dx + dy * dy;
    if (!(d2 <= view_dist * view_dist)) return 0;
    if (view_angle < PT_TAU && d2 > 1e-12) {
        /* Compare cosines instead of angles: no acos, no NaN. */
        double d = sqrt(d2);
        double c = (dx * cos(heading) + dy * sin(heading)) / d;
        if (c < cos(view_angle * 0.5) - 1e-12) return 0;
    }
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
