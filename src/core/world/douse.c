/* SPDX-License-Identifier: Zlib */
/* pt_world_douse (patrol/light.h): the player puts out the nearest lit light of its cell and
 * the 8 around it, with a noise at the light's cell in the next step. */
#include "world/douse.h"

#include <patrol/light.h>

#include "senses/light.h"
#include "state/noise.h"
#include "state/world_state.h"

int pt_world_douse(pt_world *w) {
    const pt_entity *p = &w->ents[0];
    int best = -1, best_d2 = 3;
    for (int i = 0; i < w->map.nlights; i++) {
        const pt_light_def *l = &w->map.lights[i];
        int dx = l->x - p->x, dy = l->y - p->y;
        int d2 = dx * dx + dy * dy; /* reach: |dx|, |dy| <= 1, so d2 <= 2 */
        if (!w->light_on[i] || dx < -1 || dx > 1 || dy < -1 || dy > 1 || d2 >= best_d2) continue;
        best = i;
        best_d2 = d2;
    }
    if (best < 0) return -1;
    const pt_light_def *l = &w->map.lights[best];
    pt__light_set(w, best, 0, p->id);
    pt__world_noise_queue(w, l->x, l->y, PT__DOUSE_NOISE, PT_NOISE_TILE);
    return best;
}
