/* SPDX-License-Identifier: Zlib */
/* The packed mode of pt_crowd (crowd.h says when) keeps the motion state in flat arrays in
 * cell order, double-buffered, and never touches the 232-byte agent structs during a step:
 * per tick the slots' cells (the step before leaves them), a counting sort of the slots
 * (parallel by ranges of cells), the permutation of the arrays into the other buffer
 * (parallel; agents that changed cell are put back in ascending index within their cell),
 * then one pass in slot order (parallel) that sums each agent's neighbours, combines,
 * integrates and collides it, and writes it into the other buffer. Streaming the agent
 * structs, as the in-place mode must, is what this avoids; in slot order, an agent's own
 * state and its neighbours' rows are next to each other. */
#include "bulk/crowd_priv.h"
#include "bulk/pairs.h"
#include "bulk/simd.h"
#include "bulk/sums.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/cellspace_sort.h"
#include "nav/steer_shared.h"

/* ---- two or four agents at once (the packed mode, plain flocking) ------------------------ *
 * The end of the group behaviours, the combiner and the integrator are one chain of about
 * fifteen dependent square roots and divisions per agent: one agent at a time leaves the
 * core waiting on it. Two (SSE2) or four (AVX) agents run it together, one per SIMD lane:
 * lanes.h. */

#include "bulk/lanes_all.h"

/* Whether agents can go two or four at a time: the shared constants allow it (the weighted
 * or prioritised combiner, no smoothing, no facing, a positive finite max_force, a tick that
 * integrates). Per group, the state must be finite too (the steps check). Plain flocking
 * has its own step (step_2, step_4); other behaviours the stack step (stack_2, stack_4). */
static int lanes_ok(const pt_crowd *c, double dt) {
    const pt_vehicle *v = &c->tmpl.veh;
    return dt > 0 && isfinite(dt) && !(v->smooth_time > 0) && v->max_force > 0 && v->max_force <= DBL_MAX &&
           !(c->behaviours & PT_BEH_BIT(PT_BEH_FACE));
}

/* ---- the packed mode ---------------------------------------------------------------------- */

/* Behaviours that keep state in the agent (wander, paths, the offset slot) or draw from its
 * RNG (the dithered combiner) need the agents' own structs: the in-place mode. */
#define PACKED_STATEFUL                                                                          \
    (PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_FOLLOW_PATH) | PT_BEH_BIT(PT_BEH_FOLLOW_CORRIDOR) | \
     PT_BEH_BIT(PT_BEH_OFFSET_PURSUIT))

/* Slots of NaN padding after each array of the packed state: the half step reads windows of
 * up to 8 slots from any slot up to n (half_run). */
#define PACKED_PAD 8

int pt__crowd_packed_alloc(pt_crowd *c) {
    size_t n = (size_t)(c->n > 0 ? c->n : 1) + PACKED_PAD;
    size_t dbl = sizeof(double) * n * 16, ints = sizeof(int) * n * 4, chars = n * 2;
    char *m = PT_MALLOC(dbl + ints + chars);
    if (!m) return 0;
    c->packed_mem = m;
    double *d = (double *)(void *)m;
    int *in = (int *)(void *)(m + dbl);
    signed char *ch = (signed char *)(m + dbl + ints);
    for (size_t k = 0; k < n * 16; k++) d[k] = NAN; /* padding never matches */
    for (int b = 0; b < 2; b++) {
        pt__crowd_state *st = &c->st[b];
        double **arr[8] = {&st->x, &st->y, &st->vx, &st->vy, &st->hx, &st->hy, &st->shx, &st->shy};
        for (int a = 0; a < 8; a++) *arr[a] = d + n * (size_t)(b * 8 + a);
        st->id = in + n * (size_t)b;
        st->turn = ch + n * (size_t)b;
    }
    c->perm = in + n * 2;
    c->lcell = in + n * 3;
    return 1;
}

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The agents share the params pointer and every vehicle constant, and each side is
 * perp(heading) (the packed mode keeps no side of its own). */
static int agents_uniform(const pt_crowd *c) {
    if (c->n <= 0 || !c->packed_mem) return 0;
    const pt_steer_agent *a0 = &c->agents[0];
    for (int i = 0; i < c->n; i++) {
        const pt_steer_agent *a = &c->agents[i];
        const pt_vehicle *v = &a->veh, *v0 = &a0->veh;
        pt_vec2 side = pt_v2_perp(v->heading);
        if (a->params != a0->params || !same_double(v->mass, v0->mass) ||
            !same_double(v->max_speed, v0->max_speed) || !same_double(v->max_force, v0->max_force) ||
            !same_double(v->max_turn_rate, v0->max_turn_rate) || !same_double(v->radius, v0->radius) ||
            !same_double(v->smooth_time, v0->smooth_time) || !same_double(v->side.x, side.x) ||
            !same_double(v->side.y, side.y))
            return 0;
    }
    return 1;
}

int pt__crowd_packed_wanted(const pt_crowd *c) {
    if (!c->uniform || (c->behaviours & PACKED_STATEFUL) || c->group || c->alarm_behaviours) return 0;
    pt_combiner cb = pt__params_or_default(c->tmpl.params)->combiner;
    return cb != PT_COMBINE_DITHERED;
}

static int smoothing(const pt_crowd *c) { return c->tmpl.veh.smooth_time > 0; }

/* Slot k's motion into v, whose constants are the shared ones; its velocity, smooth heading
 * and turn_dir are at index vk (k, except during a step: see packed_now). */
static inline void slot_vehicle(const pt__crowd_state *s, int k, int vk, int smooth_on, pt_vehicle *v) {
    v->pos = pt_v2(s->x[k], s->y[k]);
    v->vel = pt_v2(s->vx[vk], s->vy[vk]);
    v->heading = pt_v2(s->hx[k], s->hy[k]);
    v->side = pt_v2_perp(v->heading);
    v->smooth_heading = smooth_on ? pt_v2(s->shx[vk], s->shy[vk]) : v->heading;
    v->turn_dir = s->turn[vk];
}

/* The motion state as it stands: positions, headings and ids in st[cur], the rest (what
 * only the agent itself reads) in st[vcur]. A step permutes only the first part into the
 * new cell order and reads the rest through the permutation (a third less to copy). */
static pt__crowd_state packed_now(const pt_crowd *c, int pcur, int vcur) {
    pt__crowd_state s = c->st[pcur];
    const pt__crowd_state *v = &c->st[vcur];
    s.vx = v->vx;
    s.vy = v->vy;
    s.shx = v->shx;
    s.shy = v->shy;
    s.turn = v->turn;
    return s;
}

/* agents -> packed state, slot k = agent k (already in ascending index within any cell). */
void pt__crowd_packed_load(pt_crowd *c) {
    pt__crowd_state *st = &c->st[c->cur];
    for (int i = 0; i < c->n; i++) {
        const pt_vehicle *v = &c->agents[i].veh;
        st->x[i] = v->pos.x;
        st->y[i] = v->pos.y;
        st->vx[i] = v->vel.x;
        st->vy[i] = v->vel.y;
        st->hx[i] = v->heading.x;
        st->hy[i] = v->heading.y;
        st->shx[i] = v->smooth_heading.x;
        st->shy[i] = v->smooth_heading.y;
        st->id[i] = i;
        st->turn[i] = (signed char)(v->turn_dir > 0 ? 1 : v->turn_dir < 0 ? -1 : 0);
    }
    c->vcur = c->cur;
    c->cells_ok = 0;
    c->stepped = 0;
}

void pt_crowd_sync(pt_crowd *c) {
    if (!c->packed) return;
    pt__crowd_state now = packed_now(c, c->cur, c->vcur);
    int smooth_on = smoothing(c);
    for (int k = 0; k < c->n; k++) {
        pt_steer_agent *a = &c->agents[now.id[k]];
        pt_vec2 smooth = a->veh.smooth_heading;
        slot_vehicle(&now, k, k, smooth_on, &a->veh);
        if (c->stepped) a->behaviours = c->mode_beh;
        else a->veh.smooth_heading = smooth; /* not stepped yet: the caller's own */
    }
}

/* Picks the mode for the current behaviours; moving between modes hands the state over. */
void pt__crowd_mode_choose(pt_crowd *c) {
    int want = pt__crowd_packed_wanted(c);
    if (c->packed && !want) {
        pt_crowd_sync(c);
        c->packed = 0;
    } else if (!c->packed && want) {
        pt__crowd_packed_load(c);
        c->packed = 1;
    }
    c->mode_beh = c->behaviours;
}

void pt_crowd_reload(pt_crowd *c) {
    c->packed = 0; /* the agents are the truth now */
    c->uniform = agents_uniform(c);
    if (c->uniform) {
        c->tmpl = c->agents[0];
        memset(&c->tmpl.wander, 0, sizeof c->tmpl.wander);
        memset(&c->tmpl.path, 0, sizeof c->tmpl.path);
    }
    pt__crowd_mode_choose(c);
}

/* Puts the slots of perm[lo, hi) (whole cells) in ascending agent index within each cell.
 * perm is already in ascending cell order, so a slot is out of place exactly when the
 * (cell, index) key before it is larger: one comparison, rarely true (only agents that came
 * from another cell move), where testing the cell first would be a branch that depends on
 * the data. */
static inline long long cell_key(const int *cell, const int *id, int s) {
    return (long long)cell[s] << 32 | (unsigned)id[s];
}

static void packed_order_cells(pt_crowd *c, int lo, int hi) {
    int *perm = c->perm;
    const int *cell = c->lcell, *id = c->st[c->cur].id;
    for (int k = lo + 1; k < hi; k++) {
        int s = perm[k];
        long long key = cell_key(cell, id, s);
        if (cell_key(cell, id, perm[k - 1]) <= key) continue;
        int j = k;
        do {
            perm[j] = perm[j - 1];
            j--;
        } while (j > lo && cell_key(cell, id, perm[j - 1]) > key);
        perm[j] = s;
    }
}

/* The first slot of the first cell that starts at or after slot k: a binary search of the
 * cells' offsets (the parallel permutation splits at whole cells). */
static int packed_first_cell_slot(const pt_crowd *c, int k) {
    const int *start = c->cs.start;
    int lo = 0, hi = c->cs.cols * c->cs.rows; /* start[hi] = n >= k */
    if (k >= c->n) return c->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (start[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return start[lo];
}

/* The slots' cells, when the last step did not leave them (c->cells_ok). */
void pt__crowd_packed_cells_range(pt_crowd *c, int lo, int hi) {
    const pt__crowd_state *st = &c->st[c->cur];
    for (int k = lo; k < hi; k++) c->lcell[k] = pt_cellspace_cell(&c->cs, pt_v2(st->x[k], st->y[k]));
}

/* Whether no cell holds more than HALF_CELL_MAX agents and the half lists may run. */
static void half_choose(pt_crowd *c, int most) {
    c->half = most <= HALF_CELL_MAX && c->cs.cell >= c->view_radius * HALF_CELL_SLACK &&
              (c->behaviours & PT_BEH_FLOCKING);
}

/* The counting sort of the slots by cell, for share `share`'s range of the cells
 * pt__crowd_packed_sort says to rewrite: the slots of those cells go to perm, cs.start gets
 * the cells' offsets. Returns the most slots in one of its cells. */
static int packed_sort_share(pt_crowd *c, int share, int shares) {
    return pt__cellspace_sort_share(&c->cs, c->lcell, c->n, &c->sort, share, shares, c->perm, NULL, 0);
}

/* The half step's running sums are live from the batch being run to the end of the row of
 * cells below it (the agents before are done, the ones after that receive nothing yet):
 * at most two rows' slots and a batch. Each thread keeps them in a ring that size instead
 * of in gsum (n sums of a line each): the ring stays in cache, where gsum's
 * lines had to be fetched again to be zeroed. The rings grow when a step needs more (c->half
 * only); without memory the step uses gsum (ring_mask 0). */
static void ring_size(pt_crowd *c) {
    const pt_cellspace *cs = &c->cs;
    int cols = cs->cols, rows = cs->rows, span = 0;
    /* rows that end before the crowd's first cell or start after its last hold none */
    int r0 = cs->lo / cols > 0 ? cs->lo / cols - 1 : 0, r1 = (cs->hi + cols - 1) / cols;
    for (int r = r0; r < r1 && r < rows; r++) {
        int two = cs->start[(r + 2 < rows ? r + 2 : rows) * cols] - cs->start[r * cols];
        span = two > span ? two : span;
    }
    long long need = 8;
    while (need < (long long)span + HALF_BATCH) need <<= 1;
    c->ring_mask = 0;
    if (c->no_ring) return;
    if (need > c->ring_cap) {
        PT_FREE(c->ring_mem);
        c->ring_cap = 0;
        c->ring_mem = need <= INT_MAX / 2 ? PT_MALLOC(sizeof(pt__crowd_sums) * ((size_t)need * (size_t)c->threads + 1)) : NULL;
        if (!c->ring_mem) return;
        c->ring_cap = (int)need;
    }
    c->ring_mask = (unsigned)need - 1u;
}

/* Thread `share`'s ring (64-byte aligned in ring_mem). */
static pt__crowd_sums *ring_of(const pt_crowd *c, int share) {
    pt__crowd_sums *base = (pt__crowd_sums *)(void *)(((uintptr_t)c->ring_mem + 63) & ~(uintptr_t)63);
    return base + (size_t)share * (size_t)c->ring_cap;
}

/* The sort of the slots by cell (parallel by ranges of cells when helpers take part); the
 * permutation puts each cell's slots in ascending agent index (agents that came from
 * different cells arrive out of order; a cell holds a handful, so insertion is cheap). */
typedef struct packed_sort_run {
    pt_crowd *c;
    int most[PT_CROWD_MAX_THREADS]; /* the most slots in one cell of each share's range */
} packed_sort_run;

static void packed_sort_shares(void *arg, int share, int shares) {
    packed_sort_run *R = arg;
    R->most[share] = packed_sort_share(R->c, share, shares);
}

void pt__crowd_packed_sort(pt_crowd *c) {
    pt_cellspace *cs = &c->cs;
    int shares = pt__crowd_shares(c, c->n), most = 0;
    /* Only the cells from the first occupied one to the last (this step's and the last
     * one's) are rewritten: a small crowd on a big map fills a few of its rows, and
     * clearing and summing the whole grid would cost more than the crowd's own step. */
    pt__cellspace_sort_plan(cs, c->lcell, c->n, &c->sort); /* cannot fail: sized for n at init */
    if (shares > 1) {
        packed_sort_run R = {.c = c};
        pt__crowd_phase(c, shares, packed_sort_shares, &R, 1);
        for (int sh = 0; sh < shares; sh++) most = R.most[sh] > most ? R.most[sh] : most;
    } else
        most = packed_sort_share(c, 0, 1);
    pt__cellspace_sort_done(cs, c->n);
    half_choose(c, most);
    if (c->half) ring_size(c);
}

void pt__crowd_packed_permute_range(pt_crowd *c, int lo, int hi) {
    /* whole cells: those whose first slot is in [lo, hi) get their order fixed here */
    lo = packed_first_cell_slot(c, lo);
    hi = packed_first_cell_slot(c, hi);
    packed_order_cells(c, lo, hi);
    const pt__crowd_state *s = &c->st[c->cur];
    pt__crowd_state *o = &c->st[c->cur ^ 1];
    const int *perm = c->perm;
    for (int k = lo; k < hi; k++) {
        int q = perm[k];
        o->x[k] = s->x[q];
        o->y[k] = s->y[q];
        o->hx[k] = s->hx[q];
        o->hy[k] = s->hy[q];
        o->id[k] = s->id[q];
        /* the target's slot for pt__crowd_packed_target, here and after the step (it keeps the slots) */
        if (o->id[k] == c->target) c->target_slot = k;
    }
}


/* ---- the packed step ----------------------------------------------------------------------- */

/* What every slot of a step shares. */
typedef struct packed_run {
    const pt_crowd *c;
    pt__crowd_state sv, ov;    /* read, written */
    const pt__crowd_state *s;
    pt__crowd_state *o;
    const int *vmap;           /* where slot k's velocity, smooth heading and turn_dir are in s */
    sums_src src;
    pt_steer_ctx ctx;
    const pt_vehicle *tv;
    pt_steer_agent a;          /* the shared constants; the motion of the slot being run */
    /* the stack step: the lanes' agents (shared constants, each its slot's motion), their
     * agent1 and group forces; the behaviours and weights */
    pt_steer_agent la[4];
    const pt_vehicle *a1[4];
    pt_vec2 g4[4][3];
    unsigned on;
    const double *weight;
    consts_2 pc;
#ifdef CROWD_AVX
    consts_4 pc4;              /* when c->wide */
#endif
    int pairs, stack, lanes, group, align, cohere, smooth_on, wide;
    double dt;
} packed_run;

static void packed_run_init(packed_run *L, pt_crowd *c, double dt) {
    L->c = c;
    /* positions and headings in the new order; the rest read through the permutation */
    L->sv = packed_now(c, c->cur, c->vcur);
    L->ov = packed_now(c, c->cur ^ 1, c->vcur ^ 1);
    L->s = &L->sv;
    L->o = &L->ov;
    L->vmap = c->perm;
    unsigned beh = c->behaviours;
    L->group = (beh & PT_BEH_FLOCKING) != 0;
    L->align = (beh & PT_BEH_BIT(PT_BEH_ALIGNMENT)) != 0;
    L->cohere = (beh & PT_BEH_BIT(PT_BEH_COHESION)) != 0;
    L->smooth_on = smoothing(c);
    L->tv = pt__crowd_tick_ctx(c, dt, &L->ctx);
    L->a = c->tmpl;
    L->a.behaviours = beh;
    L->src = (sums_src){L->s->x, L->s->y, L->s->hx, L->s->hy, L->s->id, NULL};
    L->lanes = lanes_ok(c, dt);
    L->pairs = L->lanes && beh == PT_BEH_FLOCKING;
    L->stack = L->lanes && !L->pairs;
    consts_init_2(&L->pc, &c->tmpl, L->lanes ? dt : 1.0 / 60.0); /* used only with lanes */
    if (L->stack) {
        for (int l = 0; l < 4; l++) L->la[l] = L->a;
        L->on = beh & (PT_BEH_BIT(PT_BEH_COUNT) - 1u);
        L->weight = pt__params_or_default(c->tmpl.params)->weight;
    }
    L->wide = 0;
#ifdef CROWD_AVX
    L->wide = L->lanes && c->wide;
    if (L->wide) consts_init_4(&L->pc4, &c->tmpl, dt);
#endif
    L->dt = dt;
}

/* Slots k .. k + count - 1 (count 1, 2, or 4 with L->wide), from their neighbour sums:
 * forces, combiner, integration, collision, into the other buffer. Plain flocking goes two
 * or four at a time. */
static void packed_run_slots_step(packed_run *L, int k, int count, const pt__crowd_sums *sums);

/* packed_run_slots_step, then the slots' cells for the next step's sort (the positions are
 * in cache now; a separate pass would read them again). */
static void packed_run_slots(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    packed_run_slots_step(L, k, count, sums);
    const pt_cellspace *cs = &L->c->cs;
    for (int l = 0; l < count; l++) L->c->lcell[k + l] = pt_cellspace_cell(cs, pt_v2(L->o->x[k + l], L->o->y[k + l]));
}

/* The stack step for slots k .. k + count - 1 (count 2, or 4 with L->wide): the lanes'
 * agents and group forces, then stack_2 or stack_4. */
static int stack_lanes(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    for (int l = 0; l < count; l++) {
        int q = k + l;
        pt_vehicle *v = &L->la[l].veh;
        slot_vehicle(L->s, q, L->vmap[q], 0, v);
        L->a1[l] = L->tv && L->s->id[q] != L->c->target ? L->tv : NULL;
        if (L->group) group_forces(&sums[l], v, L->on, L->g4[l]);
    }
    pt_vec2(*g)[3] = L->group ? L->g4 : NULL;
#ifdef CROWD_AVX
    if (count == 4) return stack_4(L->c, L->s, L->o, k, L->vmap, L->la, &L->ctx, L->a1, g, L->on, L->weight, &L->pc4);
#endif
    return stack_2(L->c, L->s, L->o, k, L->vmap, L->la, &L->ctx, L->a1, g, L->on, L->weight, &L->pc);
}

static void packed_run_slots_step(packed_run *L, int k, int count, const pt__crowd_sums *sums) {
    int done = 0;
    if (L->stack && count >= 2) done = stack_lanes(L, k, count, sums);
#ifdef CROWD_AVX
    if (count == 4 && L->pairs) done = step_4(L->c, L->s, L->o, k, L->vmap, sums, &L->pc4);
#endif
    if (count == 2 && L->pairs) done = step_2(L->c, L->s, L->o, k, L->vmap, sums, &L->pc);
    if (done) return;
    /* one agent, or a group the lanes left (non-finite state, ...): the scalar path */
    const pt__crowd_state *s = L->s;
    pt__crowd_state *o = L->o;
    pt_vehicle *v = &L->a.veh;
    for (int l = 0; l < count; l++) {
        int q = k + l, i = s->id[q];
        slot_vehicle(s, q, L->vmap[q], L->smooth_on, v);
        pt_vec2 g[3];
        if (L->group) group_forces(&sums[l], v, L->a.behaviours, g);
        L->ctx.agent1 = L->tv && i != L->c->target ? L->tv : NULL;
        pt_vec2 f = pt__steer_calculate_inline(&L->a, &L->ctx, L->group ? g : NULL);
        pt__steer_agent_update_inline(&L->a, &L->ctx, f, L->dt);
        if (L->c->env) pt_steer_collide(L->c->env, &v->pos, &v->vel, v->radius);
        o->x[q] = v->pos.x;
        o->y[q] = v->pos.y;
        o->vx[q] = v->vel.x;
        o->vy[q] = v->vel.y;
        o->hx[q] = v->heading.x;
        o->hy[q] = v->heading.y;
        if (L->smooth_on) {
            o->shx[q] = v->smooth_heading.x;
            o->shy[q] = v->smooth_heading.y;
        }
        o->id[q] = i;
        o->turn[q] = (signed char)v->turn_dir;
    }
}

/* One tick of the agents in slots [lo, hi), each agent's neighbours scanned from its own
 * block: reads the current buffer only, writes the other one. Each agent is the shared
 * constants (tmpl) with its own motion state, run through the same inline code as
 * pt_steer_calculate and pt_steer_agent_update. */
static void packed_step_range(pt_crowd *c, int lo, int hi, double dt) {
    packed_run L;
    packed_run_init(&L, c, dt);
    pt__crowd_sums sums[4];
    int step = L.wide ? 4 : L.lanes ? 2 : 1;
    for (int k = lo; k < hi; k += step) {
        while (k + step > hi) step >>= 1;
        for (int l = 0; l < step; l++)
            if (L.group) group_sums(c, &L.src, NULL, k + l, L.s->id[k + l], L.align, &sums[l]);
        packed_run_slots(&L, k, step, sums);
    }
}

/* The first cell whose agents a chunk starting at slot k runs: a row of cells belongs to
 * the chunk that holds its first agent. Whole rows: only the chunk's first row then has
 * neighbours before the chunk (half_prepass). */
static int half_first_cell(const pt_crowd *c, const pt__crowd_state *s, int k) {
    const pt_cellspace *cs = &c->cs;
    int ncells = cs->cols * cs->rows;
    if (k <= 0) return 0;
    if (k >= c->n) return ncells;
    int cell = pt_cellspace_cell(cs, pt_v2(s->x[k], s->y[k]));
    if (cs->start[cell] < k) cell++;
    if (cell % cs->cols) cell += cs->cols - cell % cs->cols;
    return cell < ncells ? cell : ncells;
}

/* The terms a chunk's agents take from neighbours before the chunk's first slot s0 (in the
 * row above): only the chunk's first row of cells has any. Its running sums are zeroed. */
static void half_prepass(const packed_run *L, const half_acc *A, int c0, int c1) {
    const pt_crowd *c = L->c;
    const pt_cellspace *cs = &c->cs;
    const sums_src *src = &L->src;
    int cols = cs->cols, s0 = cs->start[c0], last = (c0 / cols + 1) * cols;
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_NB_MAX + 1];
    for (int cell = c0; cell < c1 && cell < last; cell++) {
        int a0 = cs->start[cell], a1 = cs->start[cell + 1];
        if (a0 == a1) continue;
        half_cell h = half_runs(cs, cell % cols, cell / cols);
        int up1 = h.up1 < s0 ? h.up1 : s0, left1 = h.left1 < s0 ? h.left1 : s0;
        if (h.up0 >= up1 && h.left0 >= left1) continue;
        for (int k = a0; k < a1; k++) {
            pt_vec2 p = pt_v2(src->x[k], src->y[k]);
            v2 px = v2_sp(p.x), py = v2_sp(p.y);
            int m = half_scan(src, px, py, r2, h.up0, up1, nb, 0);
            m = half_scan(src, px, py, r2, h.left0, left1, nb, m);
            if (!m) continue;
            if (m > PT_CROWD_NB_MAX) m = PT_CROWD_NB_MAX;
            sums_run r = run_load(hacc(A, k));
            run_take_all(&r, src, p, src->id[k], nb, m, L->align);
            run_store(hacc(A, k), r);
        }
    }
}

/* One tick of the agents of the rows of cells that start in slots [lo, hi), with half
 * neighbour lists: one flat pass over the slots in batches of one, two or four (no loops
 * per cell whose lengths the processor would have to guess); a batch's sums are complete
 * once its own pairs are weighed, so its agents are run right behind it, as one group of
 * lanes. */
static void packed_step_half(pt_crowd *c, int lo, int hi, double dt, int share) {
    packed_run L;
    packed_run_init(&L, c, dt);
    const pt_cellspace *cs = &c->cs;
    int c0 = half_first_cell(c, L.s, lo), c1 = half_first_cell(c, L.s, hi);
    if (c0 >= c1) return;
    const int *start = cs->start;
    int cols = cs->cols, rows = cs->rows;
    int s0 = start[c0], s1 = start[c1];
    half_acc A = {c->ring_mask ? ring_of(c, share) : c->gsum + s0, c->ring_mask ? c->ring_mask : ~0u, s0};
    /* The running sums are zeroed a row of cells at a time, the row below the agent's (its
     * later neighbours' rows) before it is scanned; the chunk's first two rows first. */
#define ROW_END(r) start[((r) + 1 < rows ? (r) + 1 : rows) * cols] /* r <= rows */
    int zrow = c0 / cols + 1, z = s0;
    half_zero(&A, &z, ROW_END(zrow) < s1 ? ROW_END(zrow) : s1);
    if (c0 > 0) half_prepass(&L, &A, c0, c1);
    int step = L.wide ? 4 : L.lanes ? 2 : 1;
    const double *x = L.src.x, *y = L.src.y;
    v2 r2 = v2_sp(c->view_radius * c->view_radius);
    int nb[HALF_PAIRS], own[HALF_PAIRS];
    for (int k = s0; k < s1; k += step) {
        while (k + step > s1) step >>= 1;
        int m = 0;
        for (int j = 0; j < step; j++) {
            /* slot q's cell, as the sort computed it, and the runs of its later neighbours:
             * the rest of its row up to the end of the next cell, the three cells below */
            int q = k + j;
            int cx = pt_cellspace_index(x[q], cs->x0, cs->inv_cell, cols);
            int cy = pt_cellspace_index(y[q], cs->y0, cs->inv_cell, rows);
            int row = cy * cols, r = cx + 1 < cols ? cx + 1 : cols - 1, l = cx > 0 ? cx - 1 : 0;
            int fw1 = start[row + r + 1], below = cy + 1 < rows;
            int dn0 = below ? start[row + cols + l] : 0, dn1 = below ? start[row + cols + r + 1] : 0;
            if (cy + 1 > zrow) { /* a new row: zero the one below it */
                zrow = cy + 1;
                half_zero(&A, &z, ROW_END(zrow) < s1 ? ROW_END(zrow) : s1);
            }
            v2 px = v2_sp(x[q]), py = v2_sp(y[q]);
            m = half_run(&L.src, px, py, r2, q + 1, fw1, 4, q, nb, own, m);
            m = half_run(&L.src, px, py, r2, dn0, dn1, 8, q, nb, own, m);
        }
        if (m) half_pairs(&L.src, L.align, L.cohere, &A, own, nb, m, s1);
        if (L.align | L.cohere) half_means(&A, k, step); /* else only the separation is read */
        packed_run_slots(&L, k, step, hacc(&A, k));
    }
#undef ROW_END
}

void pt__crowd_packed_step(pt_crowd *c, int lo, int hi, double dt, int share) {
    if (c->half) packed_step_half(c, lo, hi, dt, share);
    else packed_step_range(c, lo, hi, dt);
}

/* The target's vehicle at the start of the tick: the shared constants, its motion. Its
 * slot is where the last permutation put it, unless the target or the slots changed since
 * (then a search). */
void pt__crowd_packed_target(pt_crowd *c) {
    if (c->target == PT_CROWD_TARGET_VEHICLE) c->target_veh = c->target_vehicle;
    if (c->target < 0 || c->target >= c->n) return;
    pt__crowd_state now = packed_now(c, c->cur, c->vcur);
    int k = c->target_slot;
    if (!(k >= 0 && k < c->n && now.id[k] == c->target))
        for (k = 0; k < c->n && now.id[k] != c->target; k++) {}
    if (k == c->n) return;
    c->target_veh = c->tmpl.veh;
    slot_vehicle(&now, k, k, smoothing(c), &c->target_veh);
}
