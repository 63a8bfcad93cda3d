/* SPDX-License-Identifier: Zlib */
/* Noticing the player: sight in the cone (los.c's pt_can_see), and for guards the
 * peripheral sense right beside them. What a guard does with it (awareness, memory) is the
 * brain's. */
#include "senses/perceive.h"

#include <patrol/los.h>
#include <math.h>

/* Peripheral sense: a player right beside the guard is felt whatever the cone, unless it is
 * in cover (on an opaque tile) or behind a wall. */
static int senses_close(const pt_world *w, const pt_entity *e, double px, double py, int x, int y) {
    double dx = px - e->px, dy = py - e->py;
    if (fabs(dx) > PERIPHERAL_DIST || fabs(dy) > PERIPHERAL_DIST || hypot(dx, dy) > PERIPHERAL_DIST) return 0;
    return !pt_map_opaque(&w->map, x, y) && pt_los_clear(&w->map, e->x, e->y, x, y);
}

int pt__guard_notices(const pt_world *w, const pt_entity *e, double px, double py, double *rate) {
    /* caution widens every cone */
    double cone = w->phase == PT_PHASE_CAUTION ? fmin(e->view_angle * w->phases.caution_fov, 2.0 * PT_PI) : e->view_angle;
    if (pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist, cone, px, py)) {
        if (rate) *rate = 1.0;
        return 1;
    }
    if (senses_close(w, e, px, py, (int)floor(px), (int)floor(py))) {
        if (rate) *rate = PERIPHERAL_RATE;
        return 1;
    }
    return 0;
}

int pt__prey_notices(const pt_world *w, const pt_entity *e, double px, double py) {
    return hypot(px - e->px, py - e->py) <= PREY_NOTICE_DIST ||
           pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist, e->view_angle, px, py);
}

int pt__guard_notices_v(const pt_world *w, const pt_entity *e, double px, double py, double v, double *rate) {
    double cone = w->phase == PT_PHASE_CAUTION ? fmin(e->view_angle * w->phases.caution_fov, 2.0 * PT_PI) : e->view_angle;
    if (v > 0.0 && pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist * v, cone, px, py)) {
        if (rate) *rate = v;
        return 1;
    }
    if (senses_close(w, e, px, py, (int)floor(px), (int)floor(py))) {
        if (rate) *rate = PERIPHERAL_RATE;
        return 1;
    }
    return 0;
}
