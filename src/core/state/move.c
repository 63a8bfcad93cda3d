/* SPDX-License-Identifier: Zlib */
/* Tile moves and drawn positions. A tile mover's step is drawn over its step clock (move_t),
 * from the previous cell to the current one; a continuous mover is drawn where its vehicle
 * is, moved on by its velocity between ticks. */
#include "state/move.h"

#include <math.h>

void pt__entity_move_to(pt_entity *e, int x, int y) {
    e->prev_x = e->x;
    e->prev_y = e->y;
    if (x != e->x || y != e->y) e->heading = atan2((double)(y - e->y), (double)(x - e->x));
    e->x = x;
    e->y = y;
    e->px = x + 0.5;
    e->py = y + 0.5;
}

pt_vec2 pt__tile_drawn(const pt_world *w, const pt_entity *e, double t) {
    const pt__brain *b = w->brains ? &w->brains[e->id] : NULL;
    if (b && b->glide && e->prev_x == e->x && e->prev_y == e->y) {
        double u = b->glide_t0 < 1.0 ? pt_clamp((t - b->glide_t0) / (1.0 - b->glide_t0), 0.0, 1.0) : 1.0;
        return pt_v2(b->glide_x + (e->x + 0.5 - b->glide_x) * u, b->glide_y + (e->y + 0.5 - b->glide_y) * u);
    }
    /* The world steps a tile mover when move_t reaches 1: between steps it is drawn sliding
     * from its previous tile to its current one. */
    return pt_v2(e->prev_x + (e->x - e->prev_x) * t + 0.5, e->prev_y + (e->y - e->prev_y) * t + 0.5);
}

pt_vec2 pt_world_drawn_pos(const pt_world *w, int id, double alpha) {
    if (id < 0 || id >= w->n || w->ents[id].kind == PT_KIND_COUNT) return pt_v2(0.0, 0.0); /* removed: spawn.h */
    const pt_entity *e = &w->ents[id];
    double a = isfinite(alpha) && w->round == 0 ? pt_clamp(alpha, 0.0, 1.0) : 0.0;
    if (e->motion == PT_MOTION_TILE) return pt__tile_drawn(w, e, pt_clamp(e->move_t + a * e->speed * w->dt, 0.0, 1.0));
    return pt_v2(e->px + e->veh.vel.x * a * w->dt, e->py + e->veh.vel.y * a * w->dt);
}
