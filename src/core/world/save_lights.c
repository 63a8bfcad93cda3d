/* SPDX-License-Identifier: Zlib */
/* The guards' relighting in the save's "lights" part (save_parts.c; docs/formats.md, "Save
 * files"; guards/relight.c): the lights each knows, the light it is going to relight, the
 * cell it walks to and its stand's ticks left. */
#include <math.h>

#include "guards/relight.h"
#include "world/save_priv.h"

void pt__save_io_relight(pt__io *io, pt_world *w) {
    const int n = w->map.nlights;
    const int known = n < PT__LIGHT_KNOWN ? n : PT__LIGHT_KNOWN;
    const uint64_t mask = known == 64 ? ~(uint64_t)0 : ((uint64_t)1 << known) - 1;
    int stand = (int)lround(PT__RELIGHT_STAND_S * w->tick_hz);
    if (stand < 1) stand = 1;
    for (int id = 0; id < w->n && !io->bad; id++) {
        pt__brain *b = &w->brains[id];
        size_t at = io->pos;
        pt__io_u64(io, &b->light_known);
        if (io->reading && !io->bad && (b->light_known & ~mask)) {
            io->pos = at;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "a guard knows a light the world does not have");
            return;
        }
        pt__io_range(io, &b->relight, 0, known, "light to relight");
        pt__io_range(io, &b->relight_wait, 0, stand, "relight stand");
        pt__io_range(io, &b->relight_at.x, 0, w->map.w - 1, "relight cell");
        pt__io_range(io, &b->relight_at.y, 0, w->map.h - 1, "relight cell");
    }
}
