/* patrol/crowd.h - stepping many steered agents at once (flocks, crowds, benchmarks).
 *
 *     pt_crowd c;
 *     pt_crowd_init(&c, &env, agents, n, &params, behaviours, 2);  // 2 worker threads
 *     for (;;) pt_crowd_step(&c, 1.0 / 60.0);
 *     pt_crowd_fini(&c);
 *
 * Each step: the cell space is rebuilt from the agents' positions; every agent's force is
 * computed from that same state (neighbours within params->view_radius), then every agent
 * is integrated and collided with the environment. Phase one only reads the previous state
 * and each agent writes only its own slot, so the result is the same, bit for bit, with any
 * number of threads. Agents with PT_BEH_PURSUIT / PT_BEH_ARRIVE / PT_BEH_SEEK chase
 * c->target (an agent index, or -1 for c->target_point).
 *
 * Memory: the crowd borrows the agents array and the environment; it owns the cell space,
 * the forces and per-thread neighbour buffers. Cost per step: O(n * neighbours), no
 * allocation after init; pt_crowd_step_brute is the O(n^2) reference.
 */
#ifndef PATROL_CROWD_H
#define PATROL_CROWD_H

#include "cellspace.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PT_CROWD_MAX_THREADS 16
#define PT_CROWD_NB_MAX 64  /* neighbours considered per agent (nearest in cell order) */

typedef struct pt_crowd {
    pt_steer_agent *agents;
    int n;
    const pt_steer_env *env;
    unsigned behaviours;       /* PT_BEH_BIT set every agent runs */
    int threads;               /* 1 = run on the calling thread */
    int target;                /* agent chased by pursuit/seek/arrive; -1 = target_point */
    pt_vec2 target_point;
    pt_vec2 *forces;
    pt_vec2 *pos;              /* positions gathered for the cell space */
    pt_cellspace cs;
    int *nb[PT_CROWD_MAX_THREADS];
    double view_radius;
} pt_crowd;

/* agents[i].params must be set (pt_steer_agent_init). threads is clamped to
 * [1, PT_CROWD_MAX_THREADS]. Returns PT_OK or PT_ERR_NOMEM. */
int pt_crowd_init(pt_crowd *c, const pt_steer_env *env, pt_steer_agent *agents, int n, unsigned behaviours,
                  double view_radius, int threads);
void pt_crowd_fini(pt_crowd *c);
/* One tick of dt seconds. */
void pt_crowd_step(pt_crowd *c, double dt);
/* The same tick with neighbours found by brute force (O(n^2)): the reference. */
void pt_crowd_step_brute(pt_crowd *c, double dt);

#ifdef __cplusplus
}
#endif
#endif
