/* SPDX-License-Identifier: Zlib */
/* The game's calls on doors (patrol/door.h): set a door's state, read it, list the doors. */
#include <patrol/door.h>

#include "guards/doors.h"

int pt_world_set_door(pt_world *w, int x, int y, pt_door_state state, pt_error *err) {
    pt_error_clear(err);
    if (!pt_map_in(&w->map, x, y))
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, 0, 0, "cell %d,%d outside the %dx%d map", x, y, w->map.w, w->map.h);
    if ((unsigned)state >= PT_DOOR_STATE_COUNT)
        return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "%d is not a door state", (int)state);
    int k = pt__door_find(w, x, y);
    if (k < 0) return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "no door at %d,%d", x, y);
    return pt__door_set(w, k, (int)state, PT_DOOR_BY_GAME, err);
}

int pt_world_door(const pt_world *w, int x, int y) {
    int k = pt__door_find(w, x, y);
    return k < 0 ? -1 : w->doors[k].state;
}

int pt_world_doors(const pt_world *w, pt_door *out, int max) {
    for (int i = 0; out && i < w->ndoors && i < max; i++)
        out[i] = (pt_door){w->doors[i].x, w->doors[i].y, (pt_door_state)w->doors[i].state, w->doors[i].closes};
    return w->ndoors;
}
