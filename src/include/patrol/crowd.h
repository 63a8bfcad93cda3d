/* SPDX-License-Identifier: Zlib */
/* patrol/crowd.h - stepping many steered agents at once (flocks, crowds, benchmarks).
 *
 *     pt_crowd c;
 *     pt_crowd_init(&c, &env, agents, n, behaviours, view_radius, 2);  // 2 threads
 *     for (;;) {
 *         pt_crowd_step(&c, 1.0 / 60.0);
 *         pt_crowd_sync(&c);           // before reading agents[] (drawing, game logic)
 *         ...                          // after changing agents[]: pt_crowd_reload(&c)
 *     }
 *     pt_crowd_fini(&c);               // also writes the agents back
 *
 * Two lanes, chosen by init, reload and whenever c->behaviours changes:
 * - Owned: when every agent shares one params pointer and the same vehicle constants (mass,
 *   max_speed, max_force, max_turn_rate, radius, smooth_time), each side is perp(heading),
 *   and the behaviours keep no state in the agent (not wander, follow path/corridor, offset
 *   pursuit; not the dithered combiner). The crowd then keeps the motion state (position,
 *   velocity, heading, smooth heading, turn_dir) itself, in flat arrays sorted by cell, and
 *   never touches agents[] during a step: pt_crowd_sync writes it into agents[], and
 *   pt_crowd_reload reads agents[] again after you changed them. Each pair of neighbours is
 *   weighed once (while no cell holds more than 32 agents), and agents go two at a time
 *   (one per SIMD lane), four where the processor has AVX, unless they smooth their heading
 *   or face the target (then one at a time).
 * - Shared: otherwise. Each step reads the agents afresh and writes them in place (sync and
 *   reload cost nothing but are still right to call).
 * Either way, each step: the agents' positions and headings are sorted by cell into compact
 * arrays (the cell space, cells view_radius * (1 + 1e-6) wide); every agent's neighbours are the first PT_CROWD_NB_MAX other
 * agents within view_radius in cell order (ascending pt_cellspace_cell, then ascending
 * index); separation, alignment and cohesion are summed in one pass over them, with the
 * same operations in the same order as pt_steer_separation/alignment/cohesion; then the
 * agent is combined, integrated and collided with the same code as pt_steer_calculate and
 * pt_steer_agent_update. Forces only read the tick's starting state (and a copy of the
 * target) and each agent writes only its own slot, so the result is the same, bit for bit,
 * with any number of threads, in either lane, and equal to pt_crowd_step_brute. Agents with
 * PT_BEH_PURSUIT / PT_BEH_ARRIVE / PT_BEH_SEEK (or fleeing: EVADE, FLEE) chase c->target (an
 * agent index, -1 for c->target_point, or PT_CROWD_TARGET_VEHICLE for c->target_vehicle, a
 * vehicle outside the crowd such as a player).
 *
 * Flocks of a game (the world steps its flocks so): set c->group to give each agent a group,
 * and an agent's neighbours are then the first PT_CROWD_NB_MAX others *of its group* within
 * view_radius (the filter comes before the cap). When the group values lie within a span
 * of about 4 n (small ids, as the world's), the step also sorts the agents by group, and an
 * agent reads only its own group's agents, not the other flocks passing through; in a
 * group no cell of which holds more than 32 of its agents, each pair is weighed once (72
 * more bytes per agent, 4 per group value in the span). Set c->alarm_behaviours (e.g.
 * PT_BEH_EVADE) and c->alarm_radius, and an agent whose position is within alarm_radius of the target's
 * (hypot(target - pos) <= alarm_radius at the start of the tick) also runs those behaviours
 * that tick; a->behaviours then says what each agent ran. Either one keeps the crowd in the
 * shared lane.
 *
 * Memory: the crowd borrows the agents array and the environment; it owns the cell space,
 * the compact copies and the owned state (about 330 bytes per agent in all, plus an offset
 * per cell of the cell space) and its worker threads (started by init; after a step they
 * spin ~0.1 ms, then sleep until the next one; between the phases of a step they also yield
 * a while first). Cost per step: O(n * neighbours), no allocation after init;
 * pt_crowd_step_brute is the O(n^2) single-threaded reference.
 */
#ifndef PATROL_CROWD_H
#define PATROL_CROWD_H

#include <stdint.h>

#include "cellspace.h"
#include "steer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PT_CROWD_MAX_THREADS 16
#define PT_CROWD_NB_MAX 64  /* neighbours considered per agent (nearest in cell order) */
#define PT_CROWD_MIN_SHARE 4096 /* default c->min_share */
#define PT_CROWD_TARGET_VEHICLE (-2) /* c->target: chase c->target_vehicle */

struct pt__crowd_pool;
struct pt__crowd_groups;

/* private: one agent's neighbour sums (64 bytes, one cache line) */
typedef struct pt__crowd_sums {
    pt_vec2 sep;               /* separation force */
    pt_vec2 mean_heading;      /* of the finite neighbour headings (headings of them) */
    pt_vec2 centre;            /* of the neighbours' positions (count of them) */
    int headings, count;
    int pad[2];
} pt__crowd_sums;

/* private: the owned lane's motion state, in cell order (two buffers: read one, write the
 * other) */
typedef struct pt__crowd_state {
    double *x, *y, *vx, *vy, *hx, *hy;
    double *shx, *shy;         /* smooth heading (carried only while smoothing is on) */
    int *id;                   /* agent index of each slot */
    signed char *turn;         /* turn_dir */
} pt__crowd_state;

typedef struct pt_crowd {
    pt_steer_agent *agents;
    int n;
    const pt_steer_env *env;
    unsigned behaviours;       /* PT_BEH_BIT set every agent runs */
    int threads;               /* 1 = run on the calling thread */
    int target;                /* agent chased by pursuit/seek/arrive; -1 = target_point,
                                  PT_CROWD_TARGET_VEHICLE = target_vehicle */
    pt_vec2 target_point;
    pt_vehicle target_vehicle; /* read at the start of each step (a copy is taken) */
    double view_radius;
    int min_share;             /* fewest agents per thread in a phase (default PT_CROWD_MIN_SHARE):
                                  smaller crowds run on fewer threads, down to the calling one */
    const uint32_t *group;     /* NULL, or each agent's group (borrowed): neighbours only within it */
    double alarm_radius;       /* agents this close to the target ... */
    unsigned alarm_behaviours; /* ... also run these (not separation, alignment, cohesion); 0 = none */
    pt_vec2 *forces;           /* read-only: each agent's steering force in the last step of the
                                  shared lane or of pt_crowd_step_brute (not kept by the owned lane) */
    /* private */
    int *nb;                   /* pt_crowd_step_brute: neighbour ids */
    pt_vec2 *pos;              /* positions by agent index (gathered each step) */
    pt_vec2 *heading;          /* headings by agent index */
    int *cell;                 /* cell of each agent */
    pt__crowd_sums *gsum;      /* neighbour sums by agent index (64-byte aligned in gsum_mem) */
    void *gsum_mem;
    double *sx, *sy;           /* positions in cell order (cs.ids order), n + 2 (NaN padding) */
    double *shx, *shy;         /* headings in cell order */
    uint32_t *sg;              /* groups in cell order (when group is set) */
    struct pt__crowd_groups *gm; /* the slots by group, then cell (crowd.c), or NULL */
    pt_cellspace cs;
    pt_vehicle target_veh;     /* the target as it was at the start of the step */
    struct pt__crowd_pool *pool;
    int owned;                 /* read-only: 1 = the owned lane (the crowd holds the motion state) */
    /* private: the owned lane */
    int uniform;               /* the agents share params and vehicle constants (at reload) */
    int stepped;               /* owned steps since the last load */
    unsigned lane_beh;         /* the behaviours the lane was chosen for */
    pt__crowd_state st[2];
    int cur, vcur;             /* st[cur] holds the current positions, headings, ids; st[vcur]
                                  the rest (see lane_now in crowd.c) */
    int half;                  /* this step weighs each pair of neighbours once (crowd.c) */
    int wide;                  /* the owned lane four agents at a time (AVX, when the processor has it) */
    int *perm;                 /* the sort: old slot of each new slot */
    int *lcell;                /* cell of each slot */
    int cells_ok;              /* lcell is up to date (the last step wrote it) */
    int sort_a, sort_b;        /* the cells of cs.start this step's sort rewrites */
    int target_slot;           /* the target's slot after the last permutation */
    void *lane_mem;
    void *ring_mem;            /* the half step's running sums: a ring per thread (crowd.c) */
    int ring_cap;              /* sums per ring (a power of two; 0 = none, use gsum) */
    unsigned ring_mask;        /* this step's ring size - 1, or 0 for gsum */
    int no_ring;               /* tests: the half step uses gsum, as when no ring can be had */
    pt_steer_agent tmpl;       /* agent 0 at the last reload: the shared constants */
} pt_crowd;

/* agents[i].params must be set (pt_steer_agent_init). threads is clamped to
 * [1, PT_CROWD_MAX_THREADS]; threads - 1 workers are started (if the system refuses, the
 * calling thread does their share). Returns PT_OK or PT_ERR_NOMEM. */
int pt_crowd_init(pt_crowd *c, const pt_steer_env *env, pt_steer_agent *agents, int n, unsigned behaviours,
                  double view_radius, int threads);
void pt_crowd_fini(pt_crowd *c);
/* One tick of dt seconds. */
void pt_crowd_step(pt_crowd *c, double dt);
/* The same tick, straightforwardly: neighbours by brute force (O(n^2)) sorted into the same
 * order, pt_steer_calculate for every agent, then pt_steer_agent_update for every agent; one
 * thread, on agents[] (in the owned lane it syncs first and reloads after). The reference
 * the tests compare pt_crowd_step with. */
void pt_crowd_step_brute(pt_crowd *c, double dt);
/* The owned lane (c->owned): agents[] are written only here, so call it before reading
 * them. Nothing to do in the shared lane. */
void pt_crowd_sync(pt_crowd *c);
/* Call after changing agents[] (their motion, params or vehicle constants): the next step
 * starts from them and the lane is chosen again. */
void pt_crowd_reload(pt_crowd *c);

#ifdef __cplusplus
}
#endif
#endif
