/* SPDX-License-Identifier: Zlib */
/* The search over the player's states, its start window and the route traced back. */
#include <patrol/world.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "levels/solve_priv.h"

static int seen_bit(const solver *s, size_t cell, int t) {
    return (int)(s->unsafe->bits[(size_t)(t - 1) * s->unsafe->stride + (cell >> 6)] >> (cell & 63) & 1u);
}

/* A door the route may open (closed at the start). */
static int is_door(const solver *s, size_t cell) { return s->door && s->door[cell]; }

/* Unseen on tick t. On a door the route opened, the sight table (where the door may be closed)
 * does not tell: the door's cell counts as seen when it or any of its 8 neighbours is seen. */
static int safe_at(const solver *s, size_t cell, int t) {
    if (t < 1) return 1;
    if (t > s->T) return 0;
    if (!is_door(s, cell)) return !seen_bit(s, cell, t);
    int x = (int)(cell % (size_t)s->W), y = (int)(cell / (size_t)s->W);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (pt_map_in(s->map, x + dx, y + dy) && seen_bit(s, (size_t)(y + dy) * (size_t)s->W + (size_t)(x + dx), t))
                return 0;
    return 1;
}

/* Safe on every tick t0..t1 (inclusive). */
static int safe_span(const solver *s, size_t cell, int t0, int t1) {
    for (int t = t0; t <= t1; t++)
        if (!safe_at(s, cell, t)) return 0;
    return 1;
}

/* A step onto cell on tick t that a guard would hear. */
static int heard_at(const solver *s, size_t cell, int t) {
    if (!s->loud || t < 1 || t > s->loud->ticks) return 0;
    return (int)(s->loud->bits[(size_t)(t - 1) * s->loud->stride + (cell >> 6)] >> (cell & 63) & 1u);
}

/* A step from (x, y) into a closed door (nx, ny), the next action after the one of tick t (h
 * 0: not a wait's hold): the pattern-driven player opens the door on tick t + 1, when that
 * step becomes its next (a noise at the door, which no guard may hear), and steps in when its
 * clock comes. Straight, or diagonal past two cells walkable at the start (the world's rule). */
static int door_step(const solver *s, int t, int h, int x, int y, int nx, int ny) {
    if (!s->door || h || !pt_map_in(s->map, nx, ny) || nx < x - 1 || nx > x + 1 || ny < y - 1 || ny > y + 1) return 0;
    size_t nc = (size_t)ny * (size_t)s->W + (size_t)nx;
    if (!s->door[nc]) return 0;
    if (nx != x && ny != y && !(pt_map_walkable(s->map, nx, y) && pt_map_walkable(s->map, x, ny))) return 0;
    return t + 1 > s->dloud->ticks || !(s->dloud->bits[(size_t)t * s->dloud->stride + (nc >> 6)] >> (nc & 63) & 1u);
}

static size_t node_bit(const solver *s, int t, int k, int h, int a, size_t cell) {
    return (size_t)t * s->slab + ((((size_t)k * 2u + (size_t)h) * 4u + (size_t)a) * s->C) + cell;
}

static int vget(const solver *s, size_t bit) { return (int)(s->V[bit >> 6] >> (bit & 63) & 1u); }

static int is_goal_state(const solver *s, int t, int h, size_t cell);

static void add(solver *s, int t, int k, int h, int a, size_t cell) {
    size_t bit = node_bit(s, t, k, h, a, cell);
    if (vget(s, bit)) return;
    s->V[bit >> 6] |= 1ull << (bit & 63);
    s->nodes++;
    if (is_goal_state(s, t, h, cell) && t < s->best_t) {
        s->best_t = t;
        s->best_bit = bit;
    }
}

/* The moves of the player from a state: every successor the world allows and no guard sees,
 * given to fn (the search adds them; the window pass asks whether they reach the goal). fn
 * returns 1 to stop. */
typedef int (*succ_fn)(solver *s, int t, int k, int h, int a, size_t cell);

static int successors(solver *s, int t, int k, int h, int a, size_t cell, succ_fn fn) {
    int x = (int)(cell % (size_t)s->W), y = (int)(cell / (size_t)s->W);
    if (h && t + 1 <= s->T && safe_at(s, cell, t + 1) && fn(s, t + 1, k, 1, a, cell)) return 1;
    int t1 = t + s->gap[k];
    if (t1 > s->T || !safe_span(s, cell, t + 1, t1 - 1)) return 0;
    int k1 = s->nxt[k];
    for (int sg = -1; sg <= 1; sg += 2) {
        int nx = x + sg * AX_DX[a], ny = y + sg * AX_DY[a];
        if (!pt_map_step_ok(s->map, x, y, nx, ny) && !door_step(s, t, h, x, y, nx, ny)) continue;
        size_t nc = (size_t)ny * (size_t)s->W + (size_t)nx;
        if (cell == s->start && t1 < s->leave_after) continue;
        if (safe_at(s, nc, t1) && !heard_at(s, nc, t1) && fn(s, t1, k1, 0, a, nc)) return 1;
    }
    if (!safe_at(s, cell, t1)) return 0;
    for (int b = 0; b < 4; b++)
        if (b != a && fn(s, t1, k1, 0, b, cell)) return 1;
    return t1 + 1 <= s->T && safe_at(s, cell, t1 + 1) && fn(s, t1 + 1, k1, 1, a, cell);
}

static int add_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    add(s, t, k, h, a, cell);
    return 0;
}

static int is_goal_state(const solver *s, int t, int h, size_t cell) {
    return !h && t > 0 && (s->map->flags[cell] & PT_TILE_GOAL);
}

/* A successor from which the goal can be reached (already known: later ticks come first). */
static int reaches_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    size_t bit = node_bit(s, t, k, h, a, cell);
    return is_goal_state(s, t, h, cell) || (s->R[bit >> 6] >> (bit & 63) & 1u);
}

static size_t stay_index(const solver *s, int t, int k, int h, int a) {
    return (((size_t)t * (size_t)s->ncls + (size_t)k) * 2u + (size_t)h) * 4u + (size_t)a;
}

static int window_fn(solver *s, int t, int k, int h, int a, size_t cell) {
    if (cell == s->start) s->stay[stay_index(s, t, k, h, a)] = 1;
    else if (reaches_fn(s, t, k, h, a, cell)) s->dep[t] = 1;
    return 0;
}

/* A successor that is the state the route check looks for. */
static int want_fn(solver *s, int t, int k, int h, int a, size_t cell) { return node_bit(s, t, k, h, a, cell) == s->want; }

/* From state (t, k, h, a, cell) to (t1, k1, h1, a1, c1), as the search would take it. */
static int judged_step(solver *s, int *t, int *k, int *h, int *a, size_t *cell, int t1, int k1, int h1, int a1, size_t c1) {
    if (t1 > s->T || is_goal_state(s, *t, *h, *cell)) return 0; /* the search goes on from no goal */
    s->want = node_bit(s, t1, k1, h1, a1, c1);
    if (!successors(s, *t, *k, *h, *a, *cell, want_fn)) return 0;
    *t = t1;
    *k = k1;
    *h = h1;
    *a = a1;
    *cell = c1;
    return 1;
}

int pt__solve_route_judged(solver *s, const pt_solve_result *r) {
    if (!r->found || r->start_x < 0 || r->start_y < 0 || r->start_x >= s->W || r->start_y >= s->H) return 0;
    size_t cell = (size_t)r->start_y * (size_t)s->W + (size_t)r->start_x;
    s->start = cell;
    if (s->map->flags[cell] & PT_TILE_GOAL) return r->ticks == 1 && safe_at(s, cell, 1); /* as search() */
    if (s->t0 > s->T || !safe_span(s, cell, 1, s->t0)) return 0;
    int t = s->t0, k = s->k0, h = 0, a = r->axis0;
    for (int i = 0; i < r->nactions; i++) {
        const pt_solve_action *act = &r->actions[i];
        int ok = 0;
        if (act->kind == PT_SOLVE_STEP) {
            int x = (int)(cell % (size_t)s->W) + act->dx, y = (int)(cell / (size_t)s->W) + act->dy;
            ok = pt_map_in(s->map, x, y) &&
                 judged_step(s, &t, &k, &h, &a, &cell, act->tick, s->nxt[k], 0, a, (size_t)y * (size_t)s->W + (size_t)x);
        } else if (act->kind == PT_SOLVE_TURN) {
            ok = act->axis >= 0 && act->axis < 4 && judged_step(s, &t, &k, &h, &a, &cell, act->tick, s->nxt[k], 0, act->axis, cell);
        } else if (act->kind == PT_SOLVE_WAIT) { /* the action, then `hold` ticks held */
            ok = act->hold >= 1 && judged_step(s, &t, &k, &h, &a, &cell, act->tick + 1, s->nxt[k], 1, a, cell);
            for (int j = 1; ok && j < act->hold; j++) ok = judged_step(s, &t, &k, &h, &a, &cell, t + 1, k, 1, a, cell);
        }
        if (!ok) return 0;
    }
    return t == r->ticks && is_goal_state(s, t, h, cell);
}

/* The ticks on which the player can leave the start and still reach the goal unseen: which
 * states reach the goal (from the horizon back to tick 0, over the states the full search
 * visited), then the first steps off the start that lead to one: s->dep. */
static int start_window(solver *s) {
    size_t words = ((size_t)(s->T + 1) * s->slab + 63) / 64;
    s->R = PT_CALLOC(words, sizeof *s->R);
    s->stay = PT_CALLOC((size_t)(s->T + 2) * (size_t)s->ncls * 8u, 1);
    s->dep = PT_CALLOC((size_t)s->T + 2, 1);
    if (!s->R || !s->stay || !s->dep) return 0;
    for (int t = s->T; t >= 0; t--) {
        size_t b0 = (size_t)t * s->slab, b1 = b0 + s->slab;
        for (size_t wi = b0 >> 6; wi <= (b1 - 1) >> 6; wi++)
            for (uint64_t v = s->V[wi]; v; v &= v - 1) {
                size_t bit = wi * 64 + (size_t)__builtin_ctzll(v);
                if (bit < b0 || bit >= b1) continue;
                size_t rem = bit - b0, cell = rem % s->C;
                int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
                if (!is_goal_state(s, t, h, cell) && successors(s, t, k, h, a, cell, reaches_fn))
                    s->R[bit >> 6] |= 1ull << (bit & 63);
            }
    }
    for (int a = 0; a < 4; a++) s->stay[stay_index(s, s->t0, s->k0, 0, a)] = 1;
    for (int t = s->t0; t <= s->T; t++)
        for (int k = 0; k < s->ncls; k++)
            for (int h = 0; h < 2; h++)
                for (int a = 0; a < 4; a++)
                    if (s->stay[stay_index(s, t, k, h, a)]) successors(s, t, k, h, a, s->start, window_fn);
    return 1;
}

/* The window's ticks (dep[t] for t in 0..T) as runs into r. */
static void window_spans(pt_solve_result *r, const uint8_t *dep, int T) {
    r->window_ticks = r->nspans = r->spans_more = 0;
    for (int t = 0; t <= T; t++) {
        if (!dep[t]) continue;
        r->window_ticks++;
        if (r->nspans > 0 && r->spans[r->nspans - 1].last == t - 1) r->spans[r->nspans - 1].last = t;
        else if (r->nspans < PT_SOLVE_MAX_SPANS) r->spans[r->nspans++] = (pt_solve_span){t, t};
        else r->spans_more = 1;
    }
}

/* The player's step clock exactly as the world runs it (pt__pattern_tick): the gaps in ticks
 * between its actions, while no wait holds it. gaps[i] = ticks from action i to action i + 1
 * (action 0 = creation). Returns how many gaps were written, or -1 when a tick would hold
 * two actions. */
int pt__solve_step_gaps(double speed, double scale0, double scale1, double dt, int horizon, int *gaps, int cap) {
    double mt = 0.0, scale = scale0;
    int n = 0, last = 0;
    for (int k = 1; k <= 2 * horizon + 2 && n < cap; k++) {
        mt += speed * scale * dt;
        int actions = 0;
        while (mt >= 1.0 && actions < 4) {
            mt -= 1.0;
            actions++;
        }
        if (mt > 1.0) mt = 1.0;
        if (actions > 1) return -1;
        if (actions) {
            gaps[n++] = k - last;
            last = k;
            scale = scale1; /* a gait action: its speed from the next tick on */
            if (k > horizon) break;
        }
    }
    return n;
}

int pt__solve_gait_tick(double speed) {
    double walk = pt_gait_speed(PT_GAIT_WALK);
    int gap = 1;
    return pt__solve_step_gaps(speed, walk, walk, 1.0 / 60, 1, &gap, 1) == 1 ? gap : 1;
}

/* Finds the shortest description of the rhythm: actions 0..j1-1 each their own class, then
 * a period P (the gaps repeat every P actions within the horizon), with the fewest classes
 * j1 + P (ties: the longer period). Any sequence has one: each action its own class. */
int pt__solve_rhythm_classes(gait_clock *c, const int *gaps, int ng, int T, long maxcls) {
    /* G(i) = the gap before action i (1-based): gaps[i - 1]; beyond the list: never. */
#define G(i) ((i) - 1 < ng ? gaps[(i) - 1] : T + 1)
    long best = -1;
    int bestP = 0;
    for (int P = 1; P <= ng + 1 && P < maxcls && (best < 0 || P + 1 <= best); P++) { /* total >= P + 1 */
        int last = 0; /* the last action i whose gap is not the one P actions before */
        for (int i = ng; i > P && !last; i--)
            if (G(i) != G(i - P)) last = i;
        long j1 = last - P > 1 ? last - P : 1, total = j1 + P;
        if (total <= maxcls && (best < 0 || total < best || (total == best && P > bestP))) {
            best = total;
            bestP = P;
        }
    }
    if (best < 0) return 0;
    c->ncls = (int)best;
    c->gap = PT_MALLOC((size_t)best * sizeof *c->gap);
    c->nxt = PT_MALLOC((size_t)best * sizeof *c->nxt);
    if (!c->gap || !c->nxt) return -1;
    int j1 = (int)best - bestP;
    for (int k = 0; k < (int)best; k++) {
        c->gap[k] = G(k + 1);
        c->nxt[k] = k + 1 < (int)best ? k + 1 : j1;
    }
#undef G
    return bestP;
}

static int push_action(pt_solve_result *r, int *cap, pt_solve_action a) {
    if (r->nactions == *cap) {
        int nc = *cap ? 2 * *cap : 32;
        pt_solve_action *na = PT_REALLOC(r->actions, (size_t)nc * sizeof *na);
        if (!na) return 0;
        r->actions = na;
        *cap = nc;
    }
    r->actions[r->nactions++] = a;
    return 1;
}

/* Walks back from the goal node through visited predecessors whose edge holds, to tick 0. */
static int reconstruct(solver *s, pt_solve_result *r) {
    size_t bit = s->best_bit;
    int t = (int)(bit / s->slab);
    size_t rem = bit % s->slab;
    size_t cell = rem % s->C;
    int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
    int cap = 0, pending_hold = 0;
    while (t > s->t0) {
        int found = 0;
        if (h && t - 1 >= s->t0 && vget(s, node_bit(s, t - 1, k, 1, a, cell))) {
            pending_hold++;
            t--;
            continue;
        }
        for (int pk = 0; pk < s->ncls && !found; pk++) {
            if (s->nxt[pk] != k) continue;
            int g = s->gap[pk];
            for (int ph = 0; ph < 2 && !found; ph++) {
                if (h) { /* a wait action at t - 1 began the hold */
                    int pt = t - 1 - g;
                    if (pt < s->t0 || !vget(s, node_bit(s, pt, pk, ph, a, cell))) continue;
                    if (!safe_span(s, cell, pt + 1, t)) continue;
                    pt_solve_action act = {PT_SOLVE_WAIT, t - 1, 0, 0, 0, pending_hold + 1};
                    if (!push_action(r, &cap, act)) return 0;
                    pending_hold = 0;
                    t = pt;
                    k = pk;
                    h = ph;
                    found = 1;
                    break;
                }
                int pt = t - g;
                if (pt < s->t0) continue;
                int x = (int)(cell % (size_t)s->W), y = (int)(cell / (size_t)s->W);
                for (int sg = -1; sg <= 1 && !found; sg += 2) { /* a step onto cell */
                    int px = x - sg * AX_DX[a], py = y - sg * AX_DY[a];
                    /* off the map, py * W + px names another cell: the step must start on one */
                    if (!pt_map_in(s->map, px, py)) continue;
                    size_t pc = (size_t)py * (size_t)s->W + (size_t)px;
                    if (!pt_map_walkable(s->map, px, py) && !is_door(s, pc)) continue;
                    if (!pt_map_step_ok(s->map, px, py, x, y) && !door_step(s, pt, ph, px, py, x, y)) continue;
                    if (!vget(s, node_bit(s, pt, pk, ph, a, pc)) || !safe_span(s, pc, pt + 1, t - 1) ||
                        heard_at(s, cell, t))
                        continue;
                    pt_solve_action act = {PT_SOLVE_STEP, t, sg * AX_DX[a], sg * AX_DY[a], 0, 0};
                    if (!push_action(r, &cap, act)) return 0;
                    cell = pc;
                    found = 1;
                }
                for (int pa = 0; pa < 4 && !found; pa++) { /* a turn */
                    if (pa == a || !vget(s, node_bit(s, pt, pk, ph, pa, cell)) || !safe_span(s, cell, pt + 1, t))
                        continue;
                    pt_solve_action act = {PT_SOLVE_TURN, t, 0, 0, a, 0};
                    if (!push_action(r, &cap, act)) return 0;
                    a = pa;
                    found = 1;
                }
                if (found) {
                    t = pt;
                    k = pk;
                    h = ph;
                }
            }
        }
        if (!found) return -1; /* cannot happen: every visited node came from one */
    }
    r->axis0 = a;
    for (int i = 0, j = r->nactions - 1; i < j; i++, j--) {
        pt_solve_action tmp = r->actions[i];
        r->actions[i] = r->actions[j];
        r->actions[j] = tmp;
    }
    return 1;
}

/* One search against `unsafe`; fills r (found, ticks, actions) on success. */
static int search(solver *s, const pt_solve_opts *o, pt_solve_result *r, pt_error *err) {
    size_t start = (size_t)r->start_y * (size_t)s->W + (size_t)r->start_x;
    size_t words = ((size_t)(s->T + 1) * s->slab + 63) / 64;
    s->V = PT_CALLOC(words, sizeof *s->V);
    if (!s->V) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the search (%zu MB)", (words * 8) >> 20);
    s->best_t = s->T + 1;
    s->nodes = 0;
    s->full = o->window;
    s->leave_after = o->leave_after;
    s->start = start;
    if (s->map->flags[start] & PT_TILE_GOAL) { /* the goal on tick 1, where the player stands */
        r->found = safe_at(s, start, 1);
        r->ticks = 1;
        r->axis0 = 0;
        return PT_OK;
    }
    if (s->t0 > s->T || !safe_span(s, start, 1, s->t0)) return PT_OK; /* caught before the gait action */
    for (int a = 0; a < 4; a++) add(s, s->t0, s->k0, 0, a, start);
    for (int t = s->t0; t <= s->T && (s->full || t < s->best_t); t++) {
        size_t b0 = (size_t)t * s->slab, b1 = b0 + s->slab;
        for (size_t wi = b0 >> 6; wi <= (b1 - 1) >> 6; wi++) {
            uint64_t v = s->V[wi];
            while (v) {
                size_t bit = wi * 64 + (size_t)__builtin_ctzll(v);
                v &= v - 1;
                if (bit < b0 || bit >= b1) continue;
                size_t rem = bit - b0, cell = rem % s->C;
                int a = (int)(rem / s->C % 4), h = (int)(rem / s->C / 4 % 2), k = (int)(rem / s->C / 8);
                if (!is_goal_state(s, t, h, cell)) successors(s, t, k, h, a, cell, add_fn);
            }
        }
        if ((t & 255) == 255) pt__solve_report(o, s->stage[0] ? s->stage : "search", (double)t / s->T);
    }
    r->nodes += s->nodes;
    if (s->best_t > s->T) return PT_OK;
    r->found = 1;
    r->ticks = s->best_t;
    int ok = reconstruct(s, r);
    if (ok == 0) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the route");
    if (ok < 0) return pt_error_set(err, PT_ERR_INTERNAL, 0, 0, "solver: the route could not be traced back");
    if (o->window && !start_window(s)) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the start window");
    return PT_OK;
}

size_t pt__solve_search_bytes(int T, size_t C, long ncls, int window) {
    size_t v = ((size_t)(T + 1) * (size_t)ncls * 8u * C + 63) / 64 * 8;
    return window ? 2 * v + (size_t)(T + 2) * (size_t)ncls * 8u + (size_t)T + 2 : v;
}

void pt__solve_use_clock(solver *s, const gait_clock *c) {
    s->ncls = c->ncls;
    s->gap = c->gap;
    s->nxt = c->nxt;
    s->t0 = c->t0;
    s->k0 = c->k0;
    s->slab = (size_t)s->ncls * 8u * s->C;
}

void pt__solve_search_free(solver *s) {
    PT_FREE(s->V);
    PT_FREE(s->R);
    PT_FREE(s->stay);
    PT_FREE(s->dep);
    s->V = s->R = NULL;
    s->stay = s->dep = NULL;
}

/* The earliest route over the allowed gaits (mask: bit per pt_gait; ties go to walk, then
 * run, then sneak), searched again in that gait into out, with the start window when asked. */
int pt__solve_search_gaits(solver *s, const pt_solve_opts *o, const gait_clock *clk, const pt_sightmap *loud,
                           const pt_sightmap *const *unsafe, unsigned mask, pt_solve_result *out, pt_error *err) {
    int best = -1, n = 0, best_ticks = s->T + 1, rc;
    for (int g = 0; g < PT_GAIT_COUNT; g++) n += (mask >> g & 1u) && clk[g].ok;
    static const int order[PT_GAIT_COUNT] = {PT_GAIT_WALK, PT_GAIT_RUN, PT_GAIT_SNEAK};
    const int T = s->T;
    for (int oi = 0; oi < PT_GAIT_COUNT && n > 1; oi++) {
        int g = order[oi];
        if (!(mask >> g & 1u) || !clk[g].ok) continue;
        /* a later gait must arrive earlier to be taken (ties: the earlier in this order) */
        s->T = best_ticks - 1 < T ? best_ticks - 1 : T;
        pt_solve_result tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.start_x = out->start_x;
        tmp.start_y = out->start_y;
        pt_solve_opts q = *o;
        q.window = 0;
        pt__solve_use_clock(s, &clk[g]);
        s->loud = &loud[g];
        s->unsafe = unsafe[g];
        snprintf(s->stage, sizeof s->stage, "%s, earliest", pt_gait_name((pt_gait)g));
        rc = search(s, &q, &tmp, err);
        out->nodes += tmp.nodes;
        pt__solve_search_free(s);
        if (rc == PT_OK && tmp.found && tmp.ticks < best_ticks) {
            best = g;
            best_ticks = tmp.ticks;
        }
        pt_solve_result_fini(&tmp);
        s->T = T;
        if (rc != PT_OK) return rc;
    }
    for (int g = 0; g < PT_GAIT_COUNT && n == 1; g++)
        if ((mask >> g & 1u) && clk[g].ok) best = g;
    if (best < 0) return PT_OK;
    pt__solve_use_clock(s, &clk[best]);
    s->loud = &loud[best];
    s->unsafe = unsafe[best];
    out->gait = best;
    out->rhythm = clk[best].rhythm;
    snprintf(s->stage, sizeof s->stage, "%s, %s", pt_gait_name((pt_gait)best), o->window ? "start window" : "route");
    rc = search(s, o, out, err);
    if (rc != PT_OK || !o->window || !out->found || !s->dep) return rc;
    /* The start window: the ticks the player can leave on in any of the gaits, each gait's
     * search run to the horizon and back. */
    uint8_t *dep = PT_MALLOC((size_t)T + 2);
    if (!dep) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the start window");
    memcpy(dep, s->dep, (size_t)T + 1);
    for (int g = 0; g < PT_GAIT_COUNT && rc == PT_OK; g++) {
        if (g == best || !(mask >> g & 1u) || !clk[g].ok) continue;
        pt__solve_search_free(s);
        pt__solve_use_clock(s, &clk[g]);
        s->loud = &loud[g];
        s->unsafe = unsafe[g];
        pt_solve_result tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.start_x = out->start_x;
        tmp.start_y = out->start_y;
        snprintf(s->stage, sizeof s->stage, "%s, start window", pt_gait_name((pt_gait)g));
        rc = search(s, o, &tmp, err);
        out->nodes += tmp.nodes;
        for (int t = 0; rc == PT_OK && tmp.found && s->dep && t <= T; t++) dep[t] |= s->dep[t];
        pt_solve_result_fini(&tmp);
    }
    if (rc == PT_OK) window_spans(out, dep, T);
    PT_FREE(dep);
    return rc;
}
