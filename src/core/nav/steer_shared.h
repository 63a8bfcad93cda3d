/* SPDX-License-Identifier: Zlib */
/* Private to the steering core (steer.c, the crowd in bulk/): what the crowd's one-pass group
 * behaviours share with pt_steer_separation/alignment/cohesion and pt_steer_calculate, so
 * that both give the same bits. */
#ifndef PATROL_STEER_PRIV_H
#define PATROL_STEER_PRIV_H

#include <patrol/steer.h>

#include <string.h>

#include "base/pcg.h"

/* Separation never lets one neighbour count for more than 1/PT__SEP_MIN_DIST. */
#define PT__SEP_MIN_DIST 0.01

/* Direction for two coincident agents (a fixed angle per unordered pair, opposite signs for
 * the two members). */
pt_vec2 pt__steer_coincident_dir(int self, int other);

/* Follow path: counts path->pts[current] as reached (the next point; a closed path loops,
 * an open one stays at its last). motion.c also calls it for a waypoint reached by tiles. */
void pt__path_next(pt_path *path);

/* The point follow path seeks from pos this tick (the current one, or the next when pos is
 * within waypoint_distance of it), without advancing; pos itself for an empty path. */
pt_vec2 pt__path_seek_point(const pt_path *path, pt_vec2 pos, const pt_steer_params *p);

/* pt_steer_calculate, but the raw separation, alignment and cohesion forces (in that order)
 * are taken from group[0..2] instead of being computed from ctx->nb; group NULL = compute. */
pt_vec2 pt__steer_calculate_group(pt_steer_agent *a, const pt_steer_ctx *ctx, const pt_vec2 *group);

/* ---- shared inline bodies: steer.c's functions and the crowd's steps use the same code
 * (the kernel one agent wide below), so both give the same bits ------------------------ */

/* Below this speed (tiles/s) a velocity is treated as zero: the heading is kept. */
#define PT__STOP_SPEED 1e-8

static inline pt_vec2 pt__finite_or_zero(pt_vec2 f) { return pt_v2_is_finite(f) ? f : pt_v2(0.0, 0.0); }

static inline const pt_steer_params *pt__params_or_default(const pt_steer_params *p) {
    return p ? p : pt_steer_params_builtin();
}

/* p (NULL: the built-in set) with no wall feeler longer than reach: p itself when none is,
 * or reach <= 0 (full lengths); else a copy in *q with the feelers shortened. */
static inline const pt_steer_params *pt__feelers_within(const pt_steer_params *p, double reach, pt_steer_params *q) {
    p = pt__params_or_default(p);
    if (!(reach > 0) || (reach >= p->feeler_length && reach >= p->side_feeler_length)) return p;
    *q = *p;
    if (q->feeler_length > reach) q->feeler_length = reach;
    if (q->side_feeler_length > reach) q->side_feeler_length = reach;
    return q;
}

/* Always inlined: the kernel's long chains want the caller's constants folded in. */
#if defined(__GNUC__)
#define PT__KINLINE __attribute__((always_inline))
#else
#define PT__KINLINE
#endif

/* ---- the steering kernel one agent wide (steer_kernel.h): pt__seek_1, pt__integrate_1, ...
 * V is a double, M an int that is 0 or 1. */
static inline double pt__s1_sp(double a) { return a; }
static inline double pt__s1_add(double a, double b) { return a + b; }
static inline double pt__s1_sub(double a, double b) { return a - b; }
static inline double pt__s1_mul(double a, double b) { return a * b; }
static inline double pt__s1_div(double a, double b) { return a / b; }
static inline double pt__s1_sqrt(double a) { return sqrt(a); }
static inline double pt__s1_neg(double a) { return -a; }
static inline int pt__s1_lt(double a, double b) { return a < b; }
static inline int pt__s1_le(double a, double b) { return a <= b; }
static inline int pt__s1_gt(double a, double b) { return a > b; }
static inline int pt__s1_nge(double a, double b) { return !(a >= b); }
static inline int pt__s1_mand(int a, int b) { return a & b; }
static inline int pt__s1_mor(int a, int b) { return a | b; }
static inline int pt__s1_mbits(int m) { return m; }
static inline int pt__s1_mall(int a) { return a != 0; }
static inline int pt__s1_mints(const int *p, int stride) { (void)stride; return p[0] != 0; }
static inline double pt__s1_sel(int m, double a, double b) { return m ? a : b; }
static inline double pt__s1_keep(int m, double a) { return m ? a : 0.0; }
static inline int pt__s1_finite(double a) { return isfinite(a) != 0; }
static inline int pt__s1_signbit(double a) { return signbit(a) != 0; }
#define LANES 1
#define V double
#define M int
#define P(x) pt__s1_##x
#define LN(x) pt__##x##_1
#include "nav/steer_kernel.h"
#undef LANES
#undef V
#undef M
#undef P
#undef LN

static inline pt__vv_1 pt__vv(pt_vec2 a) { return (pt__vv_1){a.x, a.y}; }
static inline pt_vec2 pt__v2(pt__vv_1 a) { return pt_v2(a.x, a.y); }

/* Alignment and cohesion of v from its neighbours' mean heading and centre (steer_kernel.h). */
static inline pt_vec2 pt__steer_align_to(const pt_vehicle *v, pt_vec2 mean_heading) {
    return pt__v2(pt__align_to_1(pt__vv(v->heading), pt__vv(v->side), pt__vv(mean_heading)));
}
static inline pt_vec2 pt__steer_cohere_to(const pt_vehicle *v, pt_vec2 centre) {
    return pt__v2(pt__cohere_to_1(pt__vv(v->pos), pt__vv(v->vel), pt__vv(centre), v->max_speed));
}

/* pt_steer_wander's draws: the wander target (a random point on the circle of the radius
 * when it has none) moved by up to j on each axis; wander_to finishes it. */
static inline pt_vec2 pt__wander_jitter(const pt_wander *w, pt_rng *rng, double j, double radius) {
    pt_vec2 t = w->target;
    if (!pt_v2_is_finite(t) || pt_v2_len2(t) == 0.0) {
        double a = rng ? pt__rng_unit(rng) * PT_TAU : 0.0;
        t = pt_v2_scale(pt_v2_from_angle(a), radius);
    }
    if (rng && j > 0) {
        double jx = pt__rng_signed(rng), jy = pt__rng_signed(rng);
        t = pt_v2_add(t, pt_v2(jx * j, jy * j));
    }
    return t;
}

static inline double pt__ctx_dt(const pt_steer_ctx *ctx) { return ctx && ctx->dt > 0 && isfinite(ctx->dt) ? ctx->dt : 1.0 / 60.0; }

static inline void pt__smooth(pt_vehicle *v, double dt) {
    if (v->smooth_time > 0) {
        double alpha = dt / (v->smooth_time + dt);
        pt_vec2 s = pt_v2_add(pt_v2_scale(v->smooth_heading, 1.0 - alpha), pt_v2_scale(v->heading, alpha));
        s = pt_v2_norm(s);
        v->smooth_heading = pt_v2_len2(s) > 0.5 ? s : v->heading;
    } else {
        v->smooth_heading = v->heading;
    }
}

/* cos and sin of the last angle asked for at one place, remembered per thread: agents
 * share their params and tick length, so the same bits as calling cos and sin, without the
 * libm calls per vehicle. Each place keeps its own memo (PT__MEMO). */
typedef struct pt__trig_memo { double angle, c, s; int valid; } pt__trig_memo;

/* A memo's storage class. The core is compiled as position-independent code, where a
 * _Thread_local defaults to the dynamic model: the compiler treats each access as a call
 * (__tls_get_addr) and saves and reloads the caller's registers around it, once per vehicle
 * in the integrator. The initial-exec model reads the thread pointer instead (the memo then
 * lives in the static TLS block, which glibc keeps room for in libraries loaded later). */
#if defined(__GNUC__)
#define PT__MEMO static _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define PT__MEMO static _Thread_local
#endif

static inline void pt__trig(pt__trig_memo *m, double angle, double *c, double *s) {
    if (!m->valid || !(m->angle == angle)) {
        m->angle = angle;
        m->c = cos(angle);
        m->s = sin(angle);
        m->valid = 1;
    }
    *c = m->c;
    *s = m->s;
}

/* cos and sin of the turn limit. */
static inline void pt__turn_limit_cs(double lim, double *c, double *s) {
    PT__MEMO pt__trig_memo memo;
    pt__trig(&memo, lim, c, s);
}

/* The integrator's constants for vehicle v and a tick of dt. Zero mass means default, also
 * for a vehicle whose mass was zeroed after pt_vehicle_init (force / 0 would be Inf, and the
 * NaN velocity silently dropped to zero). The turn limit's cos and sin only when `turns`. */
static inline void pt__icon_of(pt__icon_1 *ic, const pt_vehicle *v, double dt, int turns) {
    double mass = v->mass > 0 && isfinite(v->mass) ? v->mass : 1.0;
    ic->max_speed = v->max_speed;
    ic->mf = v->max_force;
    ic->inv_mass = 1.0 / mass;
    ic->dt = dt;
    ic->tcos = 1.0;
    ic->tsin = 0.0;
    ic->limited = 0;
    if (!turns) return;
    /* The turn is limited when the angle to the new velocity exceeds lim, i.e. cos(angle) <
     * cos(lim) for lim < pi (no atan2). */
    double lim = v->max_turn_rate * dt;
    ic->limited = lim < PT_PI;
    if (ic->limited) pt__turn_limit_cs(lim, &ic->tcos, &ic->tsin);
}

static inline pt_vec2 pt__integrate_velocity(const pt_vehicle *v, pt_vec2 force, double dt) {
    pt__icon_1 ic;
    pt__icon_of(&ic, v, dt, 0);
    return pt__v2(pt__new_velocity_1(pt__vv(v->vel), pt__vv(force), &ic));
}

static inline void pt__vehicle_update(pt_vehicle *v, pt_vec2 force, double dt) {
    if (!(dt > 0) || !isfinite(dt)) return;
    pt__icon_1 ic;
    pt__icon_of(&ic, v, dt, 1);
    pt__vv_1 pos = pt__vv(v->pos), vel = pt__vv(v->vel), head = pt__vv(v->heading);
    signed char turn = (signed char)(v->turn_dir > 0 ? 1 : v->turn_dir < 0 ? -1 : 0);
    int tn[1];
    pt__integrate_1(&pos, &vel, &head, pt__vv(force), NULL, &turn, NULL, tn, &ic);
    if (tn[0] != turn) v->turn_dir = tn[0]; /* unchanged: the caller's own value stays */
    v->vel = pt__v2(vel);
    v->pos = pt__v2(pos);
    v->heading = pt__v2(head);
    v->side = pt_v2_perp(v->heading);
    pt__smooth(v, dt);
}

/* pt_steer_force, inlined into the combiner's loop (no call and switch set-up per behaviour). */
static inline PT__KINLINE pt_vec2 pt__steer_force_inline(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_behaviour b) {
    static const pt_steer_ctx empty;
    const pt_steer_params *p = pt__params_or_default(a->params);
    const pt_vehicle *v = &a->veh;
    if (!ctx) ctx = &empty;
    pt_vec2 zero = pt_v2(0.0, 0.0);
    switch (b) {
    case PT_BEH_CONTAINMENT: return pt_steer_containment(v, ctx->env, ctx->region, p);
    case PT_BEH_WALL_AVOIDANCE:
        if (!ctx->env) return zero;
        return ctx->wall_reach > 0 ? pt_steer_wall_avoidance_reach(v, ctx->env, p, ctx->wall_reach)
                                   : pt_steer_wall_avoidance(v, ctx->env, p);
    case PT_BEH_OBSTACLE_AVOIDANCE: return ctx->env ? pt_steer_obstacle_avoidance(v, ctx->env, p) : zero;
    case PT_BEH_EVADE: return ctx->agent1 ? pt_steer_evade(v, ctx->agent1, p) : zero;
    case PT_BEH_FLEE: return pt_steer_flee(v, ctx->target, p);
    case PT_BEH_SEPARATION: return pt_steer_separation(v, &ctx->nb);
    case PT_BEH_ALIGNMENT: return pt_steer_alignment(v, &ctx->nb);
    case PT_BEH_COHESION: return pt_steer_cohesion(v, &ctx->nb);
    case PT_BEH_SEEK: return pt_steer_seek(v, ctx->target);
    case PT_BEH_ARRIVE: return pt_steer_arrive(v, ctx->target, p->deceleration, p);
    case PT_BEH_WANDER: return pt_steer_wander(v, &a->wander, &a->rng, pt__ctx_dt(ctx), p);
    case PT_BEH_PURSUIT: return ctx->agent1 ? pt_steer_pursuit(v, ctx->agent1, p) : zero;
    case PT_BEH_INTERCEPT: return ctx->agent1 ? pt_steer_intercept(v, ctx->agent1) : zero;
    case PT_BEH_OFFSET_PURSUIT: return ctx->agent1 ? pt_steer_offset_pursuit(v, ctx->agent1, a->offset, p) : zero;
    case PT_BEH_INTERPOSE: {
        if (!ctx->agent1) return zero;
        pt_vehicle point; /* interpose between agent1 and a fixed point */
        if (!ctx->agent2) {
            memset(&point, 0, sizeof point);
            point.pos = ctx->target;
        }
        return pt_steer_interpose(v, ctx->agent1, ctx->agent2 ? ctx->agent2 : &point, p);
    }
    case PT_BEH_HIDE: return ctx->agent1 ? pt_steer_hide(v, ctx->agent1, ctx->env, p) : zero;
    case PT_BEH_FOLLOW_PATH: return pt_steer_follow_path(v, &a->path, p);
    case PT_BEH_FOLLOW_CORRIDOR: return pt_steer_follow_corridor(v, &a->path, p);
    case PT_BEH_FACE:
    case PT_BEH_COUNT: break;
    }
    return zero;
}

/* Behaviour b's raw force; the group ones come from `group` when the caller computed them. */
static inline PT__KINLINE pt_vec2 pt__raw_force(pt_steer_agent *a, const pt_steer_ctx *ctx, int b, const pt_vec2 *group) {
    if (group && b >= PT_BEH_SEPARATION && b <= PT_BEH_COHESION) return group[b - PT_BEH_SEPARATION];
    return pt__steer_force_inline(a, ctx, (pt_behaviour)b);
}

static inline pt_vec2 pt__steer_calculate_inline(pt_steer_agent *a, const pt_steer_ctx *ctx, const pt_vec2 *group) {
    const pt_steer_params *p = pt__params_or_default(a->params);
    double max_force = a->veh.max_force;
    unsigned on = a->behaviours & ~PT_BEH_BIT(PT_BEH_FACE) & (PT_BEH_BIT(PT_BEH_COUNT) - 1u);
    pt_vec2 total = pt_v2(0.0, 0.0);
    if (!on) return total;
    pt_combiner c = p->combiner;
    if (c <= PT_COMBINE_DEFAULT || c >= PT_COMBINE_COUNT) c = PT_COMBINE_PRIORITISED;
    if (c == PT_COMBINE_DITHERED) {
        for (unsigned bits = on; bits; bits &= bits - 1u) {
            int b = __builtin_ctz(bits);
            /* Draw first: a behaviour that loses the draw is not even computed. */
            double pr = p->probability[b];
            if (pt_rng_unit(&a->rng) >= pr) continue;
            pt_vec2 f = pt__finite_or_zero(pt_v2_scale(pt__raw_force(a, ctx, b, group), p->weight[b] / pr));
            if (f.x != 0.0 || f.y != 0.0) return pt_v2_truncate(f, max_force);
        }
        return total;
    }
    /* Behaviours in priority order (ascending bits); tlen is |total| (prioritised). */
    int weighted = c == PT_COMBINE_WEIGHTED, first = 1;
    pt__vv_1 sum = pt__vv(total);
    double tlen = 0.0;
    for (unsigned bits = on; bits; bits &= bits - 1u) {
        int b = __builtin_ctz(bits);
        if (!pt__active_1(tlen, weighted, max_force)) break;
        pt__vv_1 f = pt__weigh_1(pt__vv(pt__raw_force(a, ctx, b, group)), p->weight[b]);
        pt__accumulate_1(&sum, &tlen, f, NULL, 1, weighted, max_force, first, 0);
        first = 0;
    }
    return pt__v2(pt__vvtrunc_1(sum, max_force));
}

static inline void pt__steer_agent_update_inline(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_vec2 force, double dt) {
    if (!(dt > 0)) dt = pt__ctx_dt(ctx);
    if ((a->behaviours & PT_BEH_BIT(PT_BEH_FACE)) && ctx)
        pt_vehicle_update_facing(&a->veh, force, ctx->target, dt);
    else
        pt__vehicle_update(&a->veh, force, dt);
}

#endif
