/* SPDX-License-Identifier: Zlib */
/* Tile moves and where a mover is drawn: what a step on the grid writes into an entity, and
 * what the renderer (and the catch, judged on the drawn positions) reads back. */
#ifndef PATROL_STATE_MOVE_H
#define PATROL_STATE_MOVE_H

#include "state/world_state.h"

/* Moves a tile mover to cell (x,y) (remembering the previous cell for interpolation). */
void pt__entity_move_to(pt_entity *e, int x, int y);
/* Puts an entity on cell (x,y), at its centre, with no step to draw (no previous cell). */
static inline void pt__entity_place(pt_entity *e, int x, int y) {
    e->x = e->prev_x = x;
    e->y = e->prev_y = y;
    e->px = x + 0.5;
    e->py = y + 0.5;
}
/* Where a tile mover is drawn with its step clock at t (pt_world_drawn_pos): on the way from its
 * previous cell's centre to its cell's, or gliding there from where it went on by tiles. */
pt_vec2 pt__tile_drawn(const pt_world *w, const pt_entity *e, double t);

#endif
