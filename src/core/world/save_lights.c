/* SPDX-License-Identifier: Zlib */
/* The save's "lights" part (docs/formats.md, "Save files"): which lights are on, and each
 * guard's relighting (guards/relight.c): the lights it knows, the light it is going to
 * relight, the cell it walks to and its stand's ticks left. Only a world with lights has
 * it: the saves of the others are as they were before lights. */
#include <math.h>

#include "guards/relight.h"
#include "world/save_priv.h"

static void io_lights(pt__io *io, pt_world *w);
const pt__save_part pt__save_lights_part = {13, "lights", io_lights};

int pt__save_has_lights(const pt_world *w) { return w->map.nlights > 0; }

static void io_lights(pt__io *io, pt_world *w) {
    const int n = w->map.nlights;
    int count = n;
    pt__io_range(io, &count, n, n, "light count");
    if (io->bad) return;
    for (int i = 0; i < n; i++) {
        int on = w->light_on[i];
        pt__io_range(io, &on, 0, 1, "light on");
        w->light_on[i] = (unsigned char)on;
    }
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
