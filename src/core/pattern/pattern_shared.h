/* SPDX-License-Identifier: Zlib */
/* pattern_shared.h - private helpers shared by the pattern value (pattern.c), the parser
 * (parse.c, parse_lines.c), the runners (pattern_run.c) and pattern_lint.c. */
#ifndef PATROL_PATTERN_PRIV_H
#define PATROL_PATTERN_PRIV_H

#include <patrol/pattern.h>

#include <math.h>

/* Coordinates written in pattern files lie in [-PT__PAT_COORD_MAX, PT__PAT_COORD_MAX]. */
#define PT__PAT_COORD_MAX 1048576

void pt__pattern_free(pt_pattern *p);
/* The kinds' names in pt_pattern_kind order, NULL-terminated (pattern.c). */
extern const char *const pt__pattern_kind_words[];

/* A path's cells array has ncells + 1 entries: cells[ncells] is cells[0] again, the last
 * index of a closed path walked with stop or reverse (pattern_step.h). */

/* The cell of a continuous coordinate, for any double: floor, saturated to +-2^30 (a thrust
 * vehicle integrated with absurd ticks may fly that far; a plain (int) cast would be
 * undefined), NaN -> 0. */
static inline int pt__cell_floor(double v) {
    if (v != v) return 0;
    if (v < -1073741824.0) return -1073741824;
    if (v > 1073741824.0) return 1073741824;
    return (int)floor(v);
}

/* A heading in degrees wrapped to [0, 360); non-finite -> 0. */
static inline double pt__norm_deg(double d) {
    if (!isfinite(d)) return 0.0;
    d = fmod(d, 360.0);
    if (d < 0.0) d += 360.0;
    if (d >= 360.0) d -= 360.0;
    return d;
}

/* Index k (k * 45 degrees clockwise from east) of the 8-direction nearest to heading_deg;
 * ties go clockwise (22.5 -> 1). */
static inline int pt__dir8_index(double heading_deg) {
    int k = (int)floor(heading_deg / 45.0 + 0.5);
    return ((k % 8) + 8) % 8;
}

/* Unit step (dx, dy) of direction pt__dir8_index(heading_deg). */
pt_cell pt__dir8(double heading_deg);

/* Control kind: one action. *target = the cell a forward/backward step tried to enter
 * (unchanged for other actions), *blocked = 1 when that cell was not walkable. */
pt_step_result pt__control_step(pt_patrun *run, const pt_map *map, pt_cell *target, int *blocked);

/* Thrust kind: one tick of dt on a state (no runner). *lap_done = 1 on the tick the last
 * instruction finished (the state is then at the start of the next lap). */
void pt__thrust_tick(const pt_pattern *p, const pt_thrust_body_params *body, pt_thrust_state *s,
                     double dt, int *lap_done);
/* The state of a thrust vehicle at rest at the centre of cell origin with heading (radians). */
pt_thrust_state pt__thrust_start(pt_cell origin, double heading);

/* Map cell of matrix cell (mx, my) placed at origin. */
static inline pt_cell pt__mat_place(const pt_pattern *p, pt_cell origin, int mx, int my) {
    pt_cell c = {origin.x + mx - p->start_x, origin.y + my - p->start_y};
    return c;
}
/* Placed waypoint i (tile units). */
static inline pt_vec2 pt__wp_place(const pt_pattern *p, pt_cell origin, int i) {
    return pt_v2(p->verts[i].x + (double)(origin.x - p->anchor_x), p->verts[i].y + (double)(origin.y - p->anchor_y));
}

#endif
