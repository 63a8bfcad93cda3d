/* SPDX-License-Identifier: Zlib */
/* Noticing the player: sight in the cone (los.c's pt_can_see) within a range the light at
 * the player's cell sets, and for guards the peripheral sense right beside them. What a guard
 * does with it (awareness, memory) is the brain's. */
#include "senses/perceive.h"

#include <patrol/light.h>
#include <patrol/los.h>
#include <math.h>

#include "senses/lantern.h"
#include "senses/light.h"

void pt__perceive_begin(pt_world *w) {
    pt__lantern_refresh(w);
    w->vis = pt_world_visibility(w);
}

double pt__visibility_at(const pt_world *w, int x, int y) {
    return pt__visibility_of(pt_world_light_at(w, x, y), w->gait);
}

/* The visibility of a player whose centre is at (px, py): that of its cell. */
static double visibility_of(const pt_world *w, double px, double py) {
    return pt__visibility_at(w, (int)floor(px), (int)floor(py));
}

/* Peripheral sense: a player right beside the guard is felt whatever the cone and the light,
 * unless it is in cover (on an opaque tile) or behind a wall. */
static int senses_close(const pt_world *w, const pt_entity *e, double px, double py, int x, int y) {
    double dx = px - e->px, dy = py - e->py;
    if (fabs(dx) > PERIPHERAL_DIST || fabs(dy) > PERIPHERAL_DIST || hypot(dx, dy) > PERIPHERAL_DIST) return 0;
    return !pt_map_opaque(&w->map, x, y) && pt_los_clear(&w->map, e->x, e->y, x, y);
}

static double cone_of(const pt_world *w, const pt_entity *e) {
    return w->phase == PT_PHASE_CAUTION ? fmin(e->view_angle * w->phases.caution_fov, 2.0 * PT_PI) : e->view_angle;
}

/* The rule with `full`, whether the cone (widened in caution) sees (px, py) at the full
 * view_dist, given: sight needs the cone within view_dist * v (none when v is 0). */
static int guard_rule(const pt_world *w, const pt_entity *e, double px, double py, double v, int full, double *rate) {
    if (full && v > 0.0 && (v >= 1.0 || pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist * v, cone_of(w, e), px, py))) {
        /* seen dimly right beside: the close sense's rate is the floor */
        if (rate) *rate = v < PERIPHERAL_RATE && senses_close(w, e, px, py, (int)floor(px), (int)floor(py)) ? PERIPHERAL_RATE : v;
        return 1;
    }
    if (senses_close(w, e, px, py, (int)floor(px), (int)floor(py))) {
        if (rate) *rate = PERIPHERAL_RATE;
        return 1;
    }
    return 0;
}

static int full_cone(const pt_world *w, const pt_entity *e, double px, double py) {
    return pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist, cone_of(w, e), px, py);
}

int pt__guard_sees(const pt_world *w, const pt_entity *e, double px, double py, double v, double *rate) {
    return guard_rule(w, e, px, py, v, v >= 1.0 ? full_cone(w, e, px, py) : 1, rate);
}

int pt__guard_notices(const pt_world *w, const pt_entity *e, double px, double py, double *rate) {
    /* the light is read only where the full cone sees: a cell it does not see stays cheap */
    int full = full_cone(w, e, px, py);
    return guard_rule(w, e, px, py, full ? visibility_of(w, px, py) : 0.0, full, rate);
}

int pt__prey_sees(const pt_world *w, const pt_entity *e, double px, double py, double v) {
    return hypot(px - e->px, py - e->py) <= PREY_NOTICE_DIST ||
           (v > 0.0 && pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist * v, e->view_angle, px, py));
}

int pt__prey_notices(const pt_world *w, const pt_entity *e, double px, double py) {
    if (hypot(px - e->px, py - e->py) <= PREY_NOTICE_DIST) return 1;
    if (!pt_can_see(&w->map, e->px, e->py, e->heading, e->view_dist, e->view_angle, px, py)) return 0;
    double v = visibility_of(w, px, py);
    return v >= 1.0 || pt__prey_sees(w, e, px, py, v);
}
