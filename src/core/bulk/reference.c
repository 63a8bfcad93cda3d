/* SPDX-License-Identifier: Zlib */
/* pt_crowd_step_brute: the reference the fast steps are checked against. Every pair of
 * agents is tested (O(n^2)), each agent's neighbours go through the one-agent steering API
 * (pt_steer_calculate), and all forces are computed before anyone moves. */
#include "bulk/crowd_priv.h"

#include <string.h>

#include "nav/steer_shared.h"

void pt_crowd_step_brute(pt_crowd *c, double dt) {
    int packed = c->packed;
    pt_crowd_sync(c); /* the reference works on the agents themselves */
    double r2 = c->view_radius * c->view_radius;
    const pt_vehicle *tv = c->target >= 0 && c->target < c->n ? &c->agents[c->target].veh
                           : c->target == PT_CROWD_TARGET_VEHICLE ? &c->target_vehicle
                                                                  : NULL;
    int *ids = c->nb, cells[PT_CROWD_NB_MAX];
    for (int i = 0; i < c->n; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_vec2 p = a->veh.pos;
        /* The first PT_CROWD_NB_MAX others (of its group) within the radius by (cell,
         * index): insertion into a bounded sorted list; j ascends, so equal cells keep
         * ascending indices. */
        int m = 0;
        for (int j = 0; j < c->n; j++) {
            if (j == i || !(pt_v2_dist2(c->agents[j].veh.pos, p) <= r2)) continue;
            if (c->group && c->group[j] != c->group[i]) continue;
            int cj = pt_cellspace_cell(&c->cs, c->agents[j].veh.pos);
            if (m == PT_CROWD_NB_MAX && cells[m - 1] <= cj) continue;
            int q = m < PT_CROWD_NB_MAX ? m++ : m - 1;
            while (q > 0 && cells[q - 1] > cj) {
                cells[q] = cells[q - 1];
                ids[q] = ids[q - 1];
                q--;
            }
            cells[q] = cj;
            ids[q] = j;
        }
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        ctx.nb.agents = &c->agents[0].veh;
        ctx.nb.stride = sizeof(pt_steer_agent);
        ctx.nb.ids = ids;
        ctx.nb.count = m;
        ctx.nb.self = i;
        ctx.agent1 = tv && i != c->target ? tv : NULL;
        ctx.target = tv ? tv->pos : c->target_point;
        a->behaviours = pt__crowd_agent_behaviours(c, ctx.target, p);
        c->forces[i] = pt_steer_calculate(a, &ctx);
    }
    /* The target as it was before anyone moved (PT_BEH_FACE turns toward it). */
    pt_vec2 target = tv ? tv->pos : c->target_point;
    for (int i = 0; i < c->n; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        ctx.target = target;
        pt_steer_agent_update(a, &ctx, c->forces[i], dt);
        if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
    }
    if (packed) pt__crowd_packed_load(c);
}
