/* SPDX-License-Identifier: Zlib */
/* A tile that changes between steps (pt_world_set_tile): the map's cell and its sight bits
 * (map/), the steering environment (nav/), the plans that cross the cell (guards/), the
 * hearing's last flood and the light field (senses/), each brought in step by the module that owns it. */
#include <patrol/hearing.h>
#include <patrol/world.h>

#include "guards/walk.h"
#include "senses/light.h"
#include "state/world_state.h"

/* Whether any cell of the map is a goal tile (the map's `goal`, as the loaders set it). */
static int any_goal(const pt_map *m) {
    size_t n = (size_t)m->w * (size_t)m->h;
    for (size_t i = 0; i < n; i++)
        if (m->flags[i] & PT_TILE_GOAL) return 1;
    return 0;
}

int pt_world_set_tile(pt_world *w, int x, int y, char tile, pt_error *err) {
    pt_error_clear(err);
    pt_map *m = &w->map;
    if (!pt_map_in(m, x, y))
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, 0, 0, "cell %d,%d outside the %dx%d map", x, y, m->w, m->h);
    int k = pt_map_legend_find(m, tile);
    if (k < 0) {
        if ((unsigned char)tile >= 32 && (unsigned char)tile < 127)
            return pt_error_set(err, PT_ERR_UNKNOWN_TILE, 0, 0, "tile '%c' is not in the map's legend", tile);
        return pt_error_set(err, PT_ERR_UNKNOWN_TILE, 0, 0, "tile 0x%02x is not in the map's legend",
                            (unsigned)(unsigned char)tile);
    }
    size_t i = (size_t)y * (size_t)m->w + (size_t)x;
    if (m->tiles[i] == (uint8_t)k) return PT_OK;
    char old = m->legend[m->tiles[i]].ch;
    uint8_t old_flags = m->flags[i];
    int relight = pt__light_cell_before(w, x, y, m->legend[k].flags); /* the lights through the cell, off */
    pt_map_set(m, x, y, tile);
    /* The walls change only where walkability does. */
    if (((old_flags ^ m->flags[i]) & PT_TILE_WALKABLE) && w->env.map && pt_steer_env_update_tile(&w->env, x, y) < 0) {
        pt_map_set(m, x, y, old);
        if (relight) pt__light_cell_after(w, x, y);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the steering walls");
    }
    if (relight) pt__light_cell_after(w, x, y); /* and back on, through the new tile */
    if ((old_flags & PT_TILE_GOAL) && !(m->flags[i] & PT_TILE_GOAL)) m->goal = any_goal(m);
    pt__plans_cell_changed(w, x, y);
    pt_hearing_flood(w->hearing, -1, -1, 0.0); /* forgets the last flood, made on the old tiles */
    return PT_OK;
}
