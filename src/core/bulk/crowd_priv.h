/* SPDX-License-Identifier: Zlib */
/* crowd_priv.h - the layout of a pt_crowd (the bulk .c files and lanes.h), its test hooks
 * (check_crowd.c reads the mode and the step's choices, and may set no_ring), and running
 * one phase of a step on the crowd's pool (pt__crowd_phase). */
#ifndef PATROL_CROWD_PRIV_H
#define PATROL_CROWD_PRIV_H

#include <patrol/crowd.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/cellspace_sort.h"
#include "bulk/crowd_run.h"
#include "bulk/pool.h"

struct pt__crowd_groups;

/* One agent's neighbour sums (64 bytes, one cache line) */
typedef struct pt__crowd_sums {
    pt_vec2 sep;               /* separation force */
    pt_vec2 mean_heading;      /* of the finite neighbour headings (headings of them) */
    pt_vec2 centre;            /* of the neighbours' positions (count of them) */
    int headings, count;
    int pad[2];
} pt__crowd_sums;

/* The packed mode's motion state, in cell order (two buffers: read one, write the
 * other) */
typedef struct pt__crowd_state {
    double *x, *y, *vx, *vy, *hx, *hy;
    double *shx, *shy;         /* smooth heading (carried only while smoothing is on) */
    int *id;                   /* agent index of each slot */
    signed char *turn;         /* turn_dir */
} pt__crowd_state;

struct pt_crowd {
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
    pt_vec2 *forces;           /* each agent's steering force in the last step of the in-place mode
                                  or of pt_crowd_step_brute (not kept by the packed mode) */
    int *nb;                   /* pt_crowd_step_brute: neighbour ids */
    pt_vec2 *pos;              /* positions by agent index (gathered each step) */
    pt_vec2 *heading;          /* headings by agent index */
    int *cell;                 /* cell of each agent */
    pt__crowd_sums *gsum;      /* neighbour sums by agent index (64-byte aligned in gsum_mem) */
    void *gsum_mem;
    double *sx, *sy;           /* positions in cell order (cs.ids order), n + 2 (NaN padding) */
    double *shx, *shy;         /* headings in cell order, 0 where not finite */
    unsigned char *shok;       /* 1 where the heading is finite (counts toward the mean) */
    uint32_t *sg;              /* groups in cell order (when group is set) */
    struct pt__crowd_groups *gm; /* the slots by group, then cell (inplace.c), or NULL */
    pt_cellspace cs;
    pt_vehicle target_veh;     /* the target as it was at the start of the step */
    struct pt__pool *pool;     /* the helper threads (threads - 1 of them), or NULL */
    int follow;                /* a pt__crowd_run comes right after this step (pt__crowd_step_then) */
    int packed;                /* 1 = the packed mode (the crowd holds the motion state) */
    /* the packed mode */
    int uniform;               /* the agents share params and vehicle constants (at reload) */
    int stepped;               /* packed steps since the last load */
    unsigned mode_beh;         /* the behaviours the mode was chosen for */
    pt__crowd_state st[2];
    int cur, vcur;             /* st[cur] holds the current positions, headings, ids; st[vcur]
                                  the rest (see packed_now in packed.c) */
    int half;                  /* this step weighs each pair of neighbours once (pairs.h) */
    int wide;                  /* the packed mode four agents at a time (AVX, when the processor has it) */
    int *perm;                 /* the sort: old slot of each new slot */
    int *lcell;                /* cell of each slot */
    int cells_ok;              /* lcell is up to date (the last step wrote it) */
    pt__cellspace_plan sort;   /* this step's sort: the cells of cs.start it rewrites */
    int target_slot;           /* the target's slot after the last permutation */
    void *packed_mem;
    void *ring_mem;            /* the half step's running sums: a ring per thread (packed.c) */
    int ring_cap;              /* sums per ring (a power of two; 0 = none, use gsum) */
    unsigned ring_mask;        /* this step's ring size - 1, or 0 for gsum */
    int no_ring;               /* test hook: the half step uses gsum, as when no ring can be had */
    pt_steer_agent tmpl;       /* agent 0 at the last reload: the shared constants */
    void (*after_step)(void *arg, int lo, int hi); /* pt__crowd_set_after_step */
    void *after_arg;
};

/* What the agent at pos runs this tick: the crowd's behaviours, and the alarm's when it is
 * within alarm_radius of the target's position tp. */
static inline unsigned pt__crowd_agent_behaviours(const pt_crowd *c, pt_vec2 tp, pt_vec2 pos) {
    unsigned alarm = c->alarm_behaviours & ~PT_BEH_FLOCKING;
    if (!alarm) return c->behaviours;
    double dx = tp.x - pos.x, dy = tp.y - pos.y, r = c->alarm_radius;
    /* Most agents are far: the squared distance, a few ulps from the true one, that far
     * beyond r^2 means hypot (within an ulp of the true distance) is beyond r too. Near
     * the edge, and for NaN, hypot decides. */
    if (r > 1e-100 && r < 1e100 && dx * dx + dy * dy > r * r * (1.0 + 1e-9)) return c->behaviours;
    if (hypot(dx, dy) <= r) return c->behaviours | alarm;
    return c->behaviours;
}

/* The in-place mode's slots by group, then cell (inplace.c). */
struct pt__crowd_groups {
    int *ids;                  /* agent of each slot, by group, cell, index */
    int *cell;                 /* its cell */
    int *first;                /* group g's slots are [first[g - gmin], first[g - gmin + 1]) */
    pt__crowd_sums *acc;       /* the running sums of each slot (groups_sums_half; 64-byte
                                  aligned in acc_mem), or NULL */
    void *acc_mem;
    double *xy, *hxy;          /* positions and headings by slot, x and y interleaved
                                  (groups_sums_half), or NULL */
    int nfirst;                /* entries allocated in first */
    uint32_t gmin;
    int on;                    /* this step's flocking phases use the order */
};

/* The context every agent of a tick shares (environment, tick length, the target's point);
 * returns the target's vehicle as the tick started, or NULL for c->target_point. Only
 * agent1 changes from agent to agent. */
static inline const pt_vehicle *pt__crowd_tick_ctx(const pt_crowd *c, double dt, pt_steer_ctx *ctx) {
    const pt_vehicle *tv =
        (c->target >= 0 && c->target < c->n) || c->target == PT_CROWD_TARGET_VEHICLE ? &c->target_veh : NULL;
    memset(ctx, 0, sizeof *ctx);
    ctx->env = c->env;
    ctx->dt = dt;
    ctx->target = tv ? tv->pos : c->target_point;
    return tv;
}

/* How many threads share a phase over n items: each share gets at least c->min_share. */
static inline int pt__crowd_shares(const pt_crowd *c, int n) {
    int shares = c->pool ? c->pool->workers + 1 : 1, min_share = c->min_share > 0 ? c->min_share : 1;
    if (shares > n / min_share) shares = n / min_share;
    return shares > 1 ? shares : 1;
}

/* Runs one phase to its end: fn(arg, share, shares) for each of `shares` contiguous shares
 * (pt__crowd_shares), on the crowd's threads when there are several. more: another phase of
 * the step follows (the helpers stay awake for it). A phase's fixed cost with helpers
 * (waking or signalling them, waiting for the last) can be more than a small crowd's phase
 * takes: hence min_share agents at least per share. */
static inline void pt__crowd_phase(pt_crowd *c, int shares, pt__pool_fn fn, void *arg, int more) {
    if (shares <= 1) fn(arg, 0, 1);
    else pt__pool_run(c->pool, shares, fn, arg, more);
}

/* The agents [*lo, *hi) of share `share` of `shares` equal contiguous shares of the crowd. */
static inline void pt__crowd_share_range(const pt_crowd *c, int share, int shares, int *lo, int *hi) {
    *lo = (int)((long long)c->n * share / shares);
    *hi = (int)((long long)c->n * (share + 1) / shares);
}

/* The in-place mode's phases and its order by group (inplace.c). */
void pt__crowd_gather_range(pt_crowd *c, int lo, int hi);
void pt__crowd_soa_range(pt_crowd *c, int lo, int hi, int headings);
void pt__crowd_sums_range(pt_crowd *c, int lo, int hi);
void pt__crowd_step_range(pt_crowd *c, int lo, int hi, double dt);
int pt__crowd_groups_sort(pt_crowd *c);
void pt__crowd_groups_free(pt_crowd *c);

/* The packed mode (packed.c): its memory, whether it suits the crowd, the choice of mode,
 * the agents loaded into its state, and its phases. */
int pt__crowd_packed_alloc(pt_crowd *c);
int pt__crowd_packed_wanted(const pt_crowd *c);
void pt__crowd_mode_choose(pt_crowd *c);
void pt__crowd_packed_load(pt_crowd *c);
void pt__crowd_packed_target(pt_crowd *c);
void pt__crowd_packed_cells_range(pt_crowd *c, int lo, int hi);
void pt__crowd_packed_sort(pt_crowd *c);
void pt__crowd_packed_permute_range(pt_crowd *c, int lo, int hi);
void pt__crowd_packed_step(pt_crowd *c, int lo, int hi, double dt, int share);

#endif
