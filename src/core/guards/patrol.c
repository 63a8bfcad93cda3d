/* SPDX-License-Identifier: Zlib */
/* Pattern motion: a pattern walker's tick. A tile mover acts each time its step clock passes
 * a whole step (a control pattern's `wait` holds it); a waypoint or thrust pattern steers
 * (motion.c). */
#include "guards/patrol.h"

#include "guards/motion.h"
#include "state/move.h"

void pt__pattern_tick(pt_world *w, pt_entity *e, double speed_scale) {
    if (!e->run.pat) {
        e->move_t = e->move_t + e->speed * w->dt >= 1.0 ? 1.0 : e->move_t + e->speed * w->dt;
        return;
    }
    if (e->run.pat->kind == PT_PAT_THRUST || e->run.pat->kind == PT_PAT_WAYPOINTS) {
        pt__patrol_continuous(w, e);
        return;
    }
    if (pt_patrun_hold_tick(&e->run)) { /* a control pattern's `wait N`: N ticks, no actions */
        if (pt_patrun_looking(&e->run)) e->heading = e->run.heading; /* a look turns the facing */
        e->prev_x = e->x;
        e->prev_y = e->y;
        return;
    }
    e->move_t += e->speed * speed_scale * w->dt;
    int actions = 0;
    while (e->move_t >= 1.0 && actions < 4 && e->run.wait_ticks <= 0) { /* a stop holds at once */
        e->move_t -= 1.0;
        actions++;
        w->brains[e->id].glide = 0; /* at its cell's centre */
        int x = e->x, y = e->y;
        double h = e->heading;
        pt_step_result r = pt_patrun_step(&e->run, &w->map, &x, &y, &h);
        if (r == PT_STEP_MOVED && pt_map_walkable(&w->map, x, y)) {
            pt__entity_move_to(e, x, y);
            e->heading = h;
        } else {
            e->prev_x = e->x;
            e->prev_y = e->y;
            e->heading = h;
        }
    }
    if (e->move_t > 1.0) e->move_t = 1.0;
}
