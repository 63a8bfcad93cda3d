/* SPDX-License-Identifier: Zlib */
/* Light (light.c; patrol/light.h, docs/ai.md "Light"): the world's lights and the light
 * level of each tile. Lanterns are lantern.c's. */
#ifndef PATROL_SENSES_LIGHT_H
#define PATROL_SENSES_LIGHT_H

#include <math.h>

#include "state/world_state.h"

/* Light levels are kept in whole units of 1/PT__LIGHT_ONE, so a sum of contributions is exact
 * whatever order lights go on and off in. */
#define PT__LIGHT_ONE 4096

/* Visibility in the dark by gait (docs/ai.md, "Light"): V = L + (1 - L) * this. */
#define LIGHT_GAIT_SNEAK 0.0
#define LIGHT_GAIT_WALK 0.15
#define LIGHT_GAIT_RUN 0.3

/* The two rules as values, one source for light.c, lantern.c and perceive.c: a light of
 * `level` and `radius` at distance d (d < radius) gives its level falling off linearly, in
 * whole units; a player in light l at gait g has visibility V = l + (1 - l) * k(g). */
static inline int pt__falloff_units(double level, double d, double radius) {
    return (int)floor(level * (1.0 - d / radius) * PT__LIGHT_ONE + 0.5);
}
static inline double pt__visibility_of(double l, pt_gait g) {
    double k = g == PT_GAIT_SNEAK ? LIGHT_GAIT_SNEAK : g == PT_GAIT_RUN ? LIGHT_GAIT_RUN : LIGHT_GAIT_WALK;
    return l + (1.0 - l) * k;
}

/* Sets up the world's light from its map (w->map.lights, ambient): every light as declared.
 * Returns PT_OK or PT_ERR_NOMEM (err filled). */
int pt__light_init(pt_world *w, pt_error *err);
void pt__light_fini(pt_world *w);

/* Light l's contribution to cell (x, y), in units of 1/PT__LIGHT_ONE, were it on: its level
 * falling off linearly to 0 at its radius (centre to centre), where its cell sees the cell. */
int pt__light_units(const pt_map *map, const pt_light_def *l, int x, int y);

/* The lanterns' light at cell (x, y), in units (lantern.c). */
int pt__lantern_units(const pt_world *w, int x, int y);

/* Switches light i (a valid index) on or off; `by` goes in the PT_EVENT_LIGHT. No change, no
 * event. */
void pt__light_set(pt_world *w, int i, int on, uint32_t by);
/* The same without an event (a load): the field follows. Returns 1 when the state changed. */
int pt__light_switch(pt_world *w, int i, int on);

/* A tile change (world/set_tile.c, guards/doors.c), in two calls around the map's change:
 * before cell (x, y) takes a tile of flags `flags`, pt__light_cell_before takes off the units
 * of every light that is on and whose square holds the cell, computed on the map as it is, and
 * returns 1; once the map has changed (or gone back), pt__light_cell_after adds them again
 * computed on the map as it is then. It returns 0, and the after call is not made, when the
 * change cannot change what a light sees (the same opaque and walkable bits) or the map has
 * no lights. */
int pt__light_cell_before(pt_world *w, int x, int y, uint8_t flags);
void pt__light_cell_after(pt_world *w, int x, int y);

/* The lights of index below PT__LIGHT_KNOWN whose cell may lie in the box [x0, x1] x [y0, y1]
 * (tiles; clipped to the map), as bit i for light i: every such light, and maybe others of
 * the blocks the box meets. 0 without lights. */
uint64_t pt__lights_near(const pt_world *w, double x0, double y0, double x1, double y1);

#endif
