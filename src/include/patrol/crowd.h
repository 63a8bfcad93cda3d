/* SPDX-License-Identifier: Zlib */
/* patrol/crowd.h - stepping many steered agents at once (flocks, crowds, benchmarks).
 *
 *     pt_crowd_desc d = {.agents = agents, .n = n, .env = &env,  // zero fields = defaults
 *                        .behaviours = PT_BEH_FLOCKING, .view_radius = 2.5, .threads = 2};
 *     pt_crowd *c = pt_crowd_create(&d);   // NULL: out of memory
 *     for (;;) {
 *         pt_crowd_set_target_point(c, goal);  // what changes between steps: setters
 *         pt_crowd_step(c, 1.0 / 60.0);
 *         pt_crowd_sync(c);                // before reading agents[] (drawing, game logic)
 *         ...                              // after changing agents[]: pt_crowd_reload(c)
 *     }
 *     pt_crowd_destroy(c);                 // also writes the agents back
 *
 * Two modes, chosen by create, reload and whenever the behaviours change:
 * - Packed: when every agent shares one params pointer and the same vehicle constants (mass,
 *   max_speed, max_force, max_turn_rate, radius, smooth_time), each side is perp(heading),
 *   and the behaviours keep no state in the agent (not wander, follow path/corridor, offset
 *   pursuit; not the dithered combiner). The crowd then keeps the motion state (position,
 *   velocity, heading, smooth heading, turn_dir) itself, in flat arrays sorted by cell, and
 *   never touches agents[] during a step: pt_crowd_sync writes it into agents[], and
 *   pt_crowd_reload reads agents[] again after you changed them. Each pair of neighbours is
 *   weighed once (while no cell holds more than 32 agents), and agents go two at a time
 *   (one per SIMD lane), four where the processor has AVX, unless they smooth their heading
 *   or face the target (then one at a time).
 * - In place: otherwise. Each step reads the agents afresh and writes them in place (sync and
 *   reload cost nothing but are still right to call).
 * Either way, each step: the agents' positions and headings are sorted by cell into compact
 * arrays (the cell space, cells view_radius * (1 + 1e-6) wide); every agent's neighbours are the first PT_CROWD_NB_MAX other
 * agents within view_radius in cell order (ascending pt_cellspace_cell, then ascending
 * index); separation, alignment and cohesion are summed in one pass over them, with the
 * same operations in the same order as pt_steer_separation/alignment/cohesion; then the
 * agent is combined, integrated and collided with the same code as pt_steer_calculate and
 * pt_steer_agent_update. Forces only read the tick's starting state (and a copy of the
 * target) and each agent writes only its own slot, so the result is the same, bit for bit,
 * with any number of threads, in either mode, and equal to pt_crowd_step_brute. Agents with
 * PT_BEH_PURSUIT / PT_BEH_ARRIVE / PT_BEH_SEEK (or fleeing: EVADE, FLEE) chase the target
 * (pt_crowd_set_target: an agent index, -1 for the target point, or PT_CROWD_TARGET_VEHICLE
 * for the target vehicle, a vehicle outside the crowd such as a player).
 *
 * Flocks of a game (the world steps its flocks so): set the desc's group to give each agent a group,
 * and an agent's neighbours are then the first PT_CROWD_NB_MAX others *of its group* within
 * view_radius (the filter comes before the cap). When the group values lie within a span
 * of about 4 n (small ids, as the world's), the step also sorts the agents by group, and an
 * agent reads only its own group's agents, not the other flocks passing through; in a
 * group no cell of which holds more than 32 of its agents, each pair is weighed once (72
 * more bytes per agent, 4 per group value in the span). Set alarm_behaviours (e.g.
 * PT_BEH_EVADE) and alarm_radius, and an agent whose position is within alarm_radius of the target's
 * (hypot(target - pos) <= alarm_radius at the start of the tick) also runs those behaviours
 * that tick; a->behaviours then says what each agent ran. Either one keeps the crowd in the
 * in-place mode.
 *
 * Memory: the crowd borrows the agents array and the environment; it owns the cell space,
 * the compact copies and the packed state (about 330 bytes per agent in all, plus an offset
 * per cell of the cell space) and its worker threads (started by create; after a step they
 * spin ~0.1 ms, then sleep until the next one; between the phases of a step they also yield
 * a while first). Cost per step: O(n * neighbours), no allocation after create;
 * pt_crowd_step_brute is the O(n^2) single-threaded reference.
 */
#ifndef PATROL_CROWD_H
#define PATROL_CROWD_H

#include <stdint.h>

#include "api.h"
#include "cellspace.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

#define PT_CROWD_MAX_THREADS 16
#define PT_CROWD_NB_MAX 64  /* neighbours considered per agent (nearest in cell order) */
#define PT_CROWD_MIN_SHARE 4096 /* default pt_crowd_desc.min_share */
#define PT_CROWD_TARGET_VEHICLE (-2) /* pt_crowd_set_target: chase the target vehicle */

/* How to make a crowd. Every field's zero value is its default, so fields added later keep
 * old callers valid. */
typedef struct pt_crowd_desc {
    pt_steer_agent *agents;    /* the agents (borrowed), params set (pt_steer_agent_init) */
    int n;                     /* how many (negative: 0) */
    const pt_steer_env *env;   /* walls and collision (borrowed); NULL: none */
    unsigned behaviours;       /* PT_BEH_BIT set every agent runs; 0: none */
    double view_radius;        /* neighbours within it (tiles); 0: 2.5 */
    int threads;               /* clamped to [1, PT_CROWD_MAX_THREADS]; 0: 1, the calling thread */
    int min_share;             /* fewest agents per thread in a phase: smaller crowds run on
                                  fewer threads, down to the calling one; 0: PT_CROWD_MIN_SHARE */
    const uint32_t *group;     /* each agent's group (borrowed): neighbours only within it;
                                  NULL: one group */
    unsigned alarm_behaviours; /* agents within alarm_radius of the target also run these (not
                                  separation, alignment, cohesion); 0: none */
    double alarm_radius;
} pt_crowd_desc;

/* An opaque crowd: its layout is private, so a faster one never changes the ABI. */
typedef struct pt_crowd pt_crowd;

/* Makes a crowd of d's agents and starts threads - 1 workers (if the system refuses, the
 * calling thread does their share). NULL when out of memory (or d is NULL). */
pt_crowd *pt_crowd_create(const pt_crowd_desc *d);
/* Writes the agents back (pt_crowd_sync), stops the workers and frees the crowd (not the
 * agents, environment or groups). NULL is fine. */
void pt_crowd_destroy(pt_crowd *c);
/* One tick of dt seconds. */
void pt_crowd_step(pt_crowd *c, double dt);
/* The same tick, straightforwardly: neighbours by brute force (O(n^2)) sorted into the same
 * order, pt_steer_calculate for every agent, then pt_steer_agent_update for every agent; one
 * thread, on agents[] (in the packed mode it syncs first and reloads after). The reference
 * the tests compare pt_crowd_step with. */
void pt_crowd_step_brute(pt_crowd *c, double dt);
/* The packed mode (pt_crowd_packed): agents[] are written only here, so call it before
 * reading them. Nothing to do in the in-place mode. */
void pt_crowd_sync(pt_crowd *c);
/* Call after changing agents[] (their motion, params or vehicle constants): the next step
 * starts from them and the mode is chosen again. */
void pt_crowd_reload(pt_crowd *c);

/* Between steps: what the agents run and chase (read at the start of each step). */
void pt_crowd_set_behaviours(pt_crowd *c, unsigned behaviours);
unsigned pt_crowd_behaviours(const pt_crowd *c);
/* The agent chased by pursuit/seek/arrive (and fled by evade/flee): an agent index, -1 (the
 * default) for the target point, or PT_CROWD_TARGET_VEHICLE for the target vehicle. */
void pt_crowd_set_target(pt_crowd *c, int target);
int pt_crowd_target(const pt_crowd *c);
void pt_crowd_set_target_point(pt_crowd *c, pt_vec2 point);
/* A vehicle outside the crowd, such as a player (copied; NULL: unchanged). */
void pt_crowd_set_target_vehicle(pt_crowd *c, const pt_vehicle *v);
/* The groups (borrowed; NULL: one group) and the alarm, as in pt_crowd_desc. */
void pt_crowd_set_group(pt_crowd *c, const uint32_t *group);
void pt_crowd_set_alarm(pt_crowd *c, unsigned behaviours, double radius);
/* As pt_crowd_desc.min_share (0: PT_CROWD_MIN_SHARE). */
void pt_crowd_set_min_share(pt_crowd *c, int min_share);
/* Each agent's steering force in the last step of the in-place mode or of
 * pt_crowd_step_brute (n entries; not kept by the packed mode). */
const pt_vec2 *pt_crowd_forces(const pt_crowd *c);
/* 1 while the crowd is in the packed mode (it holds the motion state), else 0. */
int pt_crowd_packed(const pt_crowd *c);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
