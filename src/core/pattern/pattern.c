/* SPDX-License-Identifier: Zlib */
/* pattern.c - the pattern value itself: its kind's name, freeing it, a thrust body's
 * defaults and limits, and where a placed pattern starts. The parser is parse.c and
 * parse_lines.c, the library library.c, the runners pattern_run.c. */
#include <patrol/pattern.h>

#include "pattern/pattern_shared.h"

const char *const pt__pattern_kind_words[] = {"control", "path", "matrix", "thrust", "waypoints", NULL};

const char *pt_pattern_kind_name(pt_pattern_kind k) {
    return (unsigned)k < PT_PAT_KIND_COUNT ? pt__pattern_kind_words[k] : "unknown";
}

void pt__pattern_free(pt_pattern *p) {
    if (!p) return;
    PT_FREE(p->cells);
    PT_FREE(p->src_of_cell);
    PT_FREE(p->verts);
    PT_FREE(p->vert_line);
    PT_FREE(p->vert_col);
    PT_FREE(p->vert_new_poly);
    PT_FREE(p->mat);
    PT_FREE(p->row_line);
    PT_FREE(p->row_col);
    PT_FREE(p->ins);
    PT_FREE(p->thr);
    PT_FREE(p->looks);
    PT_FREE(p->look_of_cell);
    PT_FREE(p->gait_of_cell);
    PT_FREE(p);
}

/* Zero, negative or NaN -> the default; otherwise clamped to [PT_THRUST_BODY_MIN,
 * PT_THRUST_BODY_MAX] so that no ratio of two body values can overflow. */
static double body_value(double v, double def) {
    if (!(v > 0.0)) return def;
    if (v < PT_THRUST_BODY_MIN) return PT_THRUST_BODY_MIN;
    if (v > PT_THRUST_BODY_MAX) return PT_THRUST_BODY_MAX; /* also +Inf */
    return v;
}

pt_thrust_body_params pt_thrust_body_resolve(pt_thrust_body_params b) {
    b.mass = body_value(b.mass, 1.0);
    b.inertia = body_value(b.inertia, 0.25);
    b.thrust = body_value(b.thrust, 2.0);
    b.turn_thrust = body_value(b.turn_thrust, 8.0);
    b.arm = body_value(b.arm, 0.5);
    b.drag = body_value(b.drag, 1.0);
    b.angular_drag = body_value(b.angular_drag, 2.0);
    b.lateral_drag = body_value(b.lateral_drag, 8.0);
    return b;
}

pt_cell pt_pattern_origin(const pt_pattern *p, const pt_entity_def *def) {
    if (p && p->has_origin) return (pt_cell){p->origin_x, p->origin_y};
    if (def) return def->has_origin ? (pt_cell){def->origin_x, def->origin_y} : (pt_cell){def->x, def->y};
    return p ? (pt_cell){p->anchor_x, p->anchor_y} : (pt_cell){0, 0};
}
