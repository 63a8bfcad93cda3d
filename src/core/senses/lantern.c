/* SPDX-License-Identifier: Zlib */
/* Lanterns (docs/ai.md, "Lanterns"): a guard whose declaration has lantern = R > 0 lights the
 * cells of its view cone within R of its cell that its cell sees. The light of a tile sums
 * them with the ambient level and the lights (light.c). A world whose guards carry none pays
 * a compare for them. */
#include "senses/lantern.h"

#include <patrol/los.h>
#include <math.h>

#include "senses/light.h"

/* 1 when cell (x, y) is in bearer e's cone: the angle between its heading and the direction
 * from its cell's centre to that cell's centre is at most half its view angle, the test of
 * pt_can_see's cone (los.c; the caution phase does not widen a lantern). Its own cell and a
 * view angle of 360 degrees or more hold every cell. */
static int in_cone(const pt_entity *e, int x, int y) {
    if (!(e->view_angle < PT_TAU)) return 1;
    double dx = x - e->x, dy = y - e->y;
    double d2 = dx * dx + dy * dy;
    if (d2 <= 1e-12) return 1;
    double c = (dx * cos(e->heading) + dy * sin(e->heading)) / sqrt(d2);
    return c >= cos(e->view_angle * 0.5) - 1e-12;
}

/* Bearer e's light at cell (x, y) in units: a light of level 1 and radius R, for d < R
 * (centre to centre); 0 outside its cone or where its cell does not see the cell
 * (pt_los_clear). */
static int bearer_units(const pt_world *w, const pt_entity *e, double r, int x, int y) {
    double dx = x - e->x, dy = y - e->y;
    double d = sqrt(dx * dx + dy * dy);
    if (!(d < r) || !in_cone(e, x, y) || !pt_los_clear(&w->map, e->x, e->y, x, y)) return 0;
    return pt__falloff_units(1.0, d, r);
}

/* Adds the lanterns of ids lo..hi-1 to *sum, stopping once it reaches a whole unit of light. */
static void add_range(const pt_world *w, int lo, int hi, int x, int y, long *sum) {
    for (int i = lo; i < hi && *sum < PT__LIGHT_ONE; i++) {
        const pt_entity *e = &w->ents[i];
        double r = w->defs[i].lantern;
        if (e->kind == PT_KIND_GUARD && r > 0.0) *sum += bearer_units(w, e, r, x, y);
    }
}

int pt__lantern_units(const pt_world *w, int x, int y) {
    /* the listed ids (below lantern_seen) carry one only below lantern_hi; the rest are
     * looked at one by one (spawned since the last step, or a world not stepped yet) */
    int seen = w->lantern_seen >= 1 && w->lantern_seen <= w->n ? w->lantern_seen : 1;
    int hi = seen > 1 ? w->lantern_hi : 1;
    long sum = 0;
    add_range(w, 1, hi, x, y, &sum);
    add_range(w, seen, w->n, x, y, &sum);
    return sum < PT__LIGHT_ONE ? (int)sum : PT__LIGHT_ONE;
}

void pt__lantern_refresh(pt_world *w) {
    if (w->lantern_seen < 1 || w->lantern_seen > w->n) w->lantern_seen = w->lantern_hi = 1;
    for (int i = w->lantern_seen; i < w->n; i++)
        if (w->defs[i].lantern > 0.0) w->lantern_hi = i + 1;
    w->lantern_seen = w->n;
}
