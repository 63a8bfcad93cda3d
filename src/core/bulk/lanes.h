/* SPDX-License-Identifier: Zlib */
/* The packed mode's steps for LANES agents at once, one per SIMD lane, built on the steering
 * kernel (steer_kernel.h) of the same width: the end of the group behaviours, the combiner
 * and the integrator, so the bits are the same as pt__steer_calculate_inline +
 * pt__vehicle_update, which are the kernel one agent wide.
 *
 * The in-place mode (inplace.c) runs the same combiner and integrator on runs of
 * consecutive agent structs (LN(inplace)).
 *
 * No include guard: packed.c and inplace.c include it once per width, with LANES, the
 * vector and mask types V and M, P(x) naming the width's primitives (P(add), P(mand),
 * P(strided), ...) and LN(x) naming what this file defines. V holds one double per agent
 * (x and y of a vector are two V values). */

#define FULL ((1 << LANES) - 1)
/* Each includer uses only its mode's steps. */
#if defined(__GNUC__)
#define LANES_MAYBE_UNUSED __attribute__((unused))
#else
#define LANES_MAYBE_UNUSED
#endif
/* A sums field of LANES consecutive agents: doubles (ints) this far apart. */
#define SUMS_DSTRIDE ((int)(sizeof(pt__crowd_sums) / sizeof(double)))
#define SUMS_ISTRIDE ((int)(sizeof(pt__crowd_sums) / sizeof(int)))

#include "nav/steer_kernel.h"

/* A vector field of the sums of LANES consecutive agents. */
static inline LN(vv) LN(vvsums)(const pt_vec2 *first) {
    return (LN(vv)){P(strided)(&first->x, SUMS_DSTRIDE), P(strided)(&first->y, SUMS_DSTRIDE)};
}

/* What the step needs of the shared constants, computed once per share. */
typedef struct LN(consts) {
    LN(icon) ic;               /* the integrator's */
    V max_speed, mf, w[3];
    M weighted;
    /* arrive's (decel * decel_tweak); pursuit's -cos(facing_angle) and turn_around_time */
    V decel_div, ncos_facing, turn_around;
    V wradius, wdistance;      /* wander's circle */
    double max_speed_1, wradius_1, wjitter; /* wjitter: wander_jitter * dt */
} LN(consts);

static LANES_MAYBE_UNUSED void LN(consts_init)(LN(consts) *pc, const pt_steer_agent *tmpl, double dt) {
    const pt_vehicle *v = &tmpl->veh;
    const pt_steer_params *p = pt__params_or_default(tmpl->params);
    double mass = v->mass > 0 && isfinite(v->mass) ? v->mass : 1.0;
    pc->max_speed = P(sp)(v->max_speed);
    pc->max_speed_1 = v->max_speed;
    pc->mf = P(sp)(v->max_force);
    for (int b = 0; b < 3; b++) pc->w[b] = P(sp)(p->weight[PT_BEH_SEPARATION + b]);
    double lim = v->max_turn_rate * dt, c = 1.0, s = 0.0;
    if (lim < PT_PI) pt__turn_limit_cs(lim, &c, &s);
    /* as pt__icon_of */
    pc->ic.max_speed = pc->max_speed;
    pc->ic.mf = pc->mf;
    pc->ic.inv_mass = P(div)(P(sp)(1.0), P(sp)(mass));
    pc->ic.dt = P(sp)(dt);
    pc->ic.tcos = P(sp)(c);
    pc->ic.tsin = P(sp)(s);
    pc->ic.limited = P(mall)(lim < PT_PI);
    pc->weighted = P(mall)(p->combiner == PT_COMBINE_WEIGHTED);
    pt_decel decel = p->deceleration; /* as pt_steer_force and pt_steer_arrive resolve it */
    if (decel < PT_DECEL_FAST || decel > PT_DECEL_SLOW) decel = PT_DECEL_NORMAL;
    pc->decel_div = P(sp)((double)decel * p->decel_tweak);
    pc->ncos_facing = P(sp)(-cos(p->facing_angle));
    pc->turn_around = P(sp)(p->turn_around_time);
    pc->wradius_1 = p->wander_radius;
    pc->wradius = P(sp)(p->wander_radius);
    pc->wdistance = P(sp)(p->wander_distance);
    pc->wjitter = p->wander_jitter * dt;
}

/* The end of a lane step from the combined (not yet truncated) force: pt__vehicle_update
 * and collision, one agent per lane, every lane into o. */
static inline PT_ALWAYS_INLINE void LN(finish)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k,
                                              const int *vmap, LN(vv) pos, LN(vv) vel, LN(vv) head, LN(turns) tr,
                                              LN(vv) total, const LN(consts) *pc) {
    int tn[LANES];
    LN(integrate)(&pos, &vel, &head, total, &tr, s->turn, vmap + k, tn, &pc->ic);
    LN(vv) np = pos, nv = vel, h = head;
    if (!c->env) {
        P(store)(o->x + k, np.x);
        P(store)(o->y + k, np.y);
        P(store)(o->vx + k, nv.x);
        P(store)(o->vy + k, nv.y);
        P(store)(o->hx + k, h.x);
        P(store)(o->hy + k, h.y);
        for (int l = 0; l < LANES; l++) {
            o->turn[k + l] = (signed char)tn[l];
            o->id[k + l] = s->id[k + l];
        }
        return;
    }
    for (int l = 0; l < LANES; l++) {
        pt_vec2 lp = pt_v2(P(lane)(np.x, l), P(lane)(np.y, l)), lv = pt_v2(P(lane)(nv.x, l), P(lane)(nv.y, l));
        pt_steer_collide(c->env, &lp, &lv, c->tmpl.veh.radius);
        o->x[k + l] = lp.x;
        o->y[k + l] = lp.y;
        o->vx[k + l] = lv.x;
        o->vy[k + l] = lv.y;
        o->hx[k + l] = P(lane)(h.x, l);
        o->hy[k + l] = P(lane)(h.y, l);
        o->turn[k + l] = (signed char)tn[l];
        o->id[k + l] = s->id[k + l];
    }
}

/* Slots k .. k + LANES - 1's position, velocity (at vmap[k ..]) and heading; 0 when one
 * of them is not finite in some lane (the scalar path takes such agents). */
static inline int LN(load_motion)(const pt__crowd_state *s, int k, const int *vmap, LN(vv) *pos, LN(vv) *vel,
                                  LN(vv) *head) {
    *pos = (LN(vv)){P(load)(s->x + k), P(load)(s->y + k)};
    *vel = (LN(vv)){P(gather)(s->vx, vmap + k), P(gather)(s->vy, vmap + k)};
    *head = (LN(vv)){P(load)(s->hx + k), P(load)(s->hy + k)};
    M finite = P(mand)(P(mand)(P(mand)(P(finite)(pos->x), P(finite)(pos->y)), P(mand)(P(finite)(vel->x), P(finite)(vel->y))),
                       P(mand)(P(finite)(head->x), P(finite)(head->y)));
    return P(mbits)(finite) == FULL;
}

/* Slots k .. k + LANES - 1, plain flocking, from their neighbour sums sm[0 .. LANES - 1]
 * (their velocities at vmap[k ..] in s):
 * group_forces + pt__steer_calculate_inline + pt__vehicle_update, one agent per lane, the
 * same operations in the same order. Writes the lanes to o and returns 1, or 0 when some
 * lane's state is not finite (the scalar path takes the group). */
static LANES_MAYBE_UNUSED int LN(step)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k, const int *vmap,
                    const pt__crowd_sums *sm, const LN(consts) *pc) {
    V zero = P(sp)(0.0);
    LN(vv) pos, vel, head;
    if (!LN(load_motion)(s, k, vmap, &pos, &vel, &head)) return 0;
    LN(vv) side = {P(neg)(head.y), head.x}; /* pt_v2_perp */
    LN(turns) tr = LN(turns_of)(head, &pc->ic);

    /* group_forces */
    LN(vv) g[3];
    g[0] = LN(vvsums)(&sm[0].sep);
    LN(vv) mh = LN(vvsums)(&sm[0].mean_heading), centre = LN(vvsums)(&sm[0].centre);
    g[1] = LN(vvkeep)(P(mints)(&sm[0].headings, SUMS_ISTRIDE), LN(align_to)(head, side, mh));
    g[2] = LN(vvkeep)(P(mints)(&sm[0].count, SUMS_ISTRIDE), LN(cohere_to)(pos, vel, centre, pc->max_speed));

    /* the combiner: prioritised (a running sum within the budget) or weighted */
    V mf = pc->mf;
    LN(vv) f[3];
    V len[3];
    for (int b = 0; b < 3; b++) {
        f[b] = LN(weigh)(g[b], pc->w[b]);
        len[b] = P(sqrt)(LN(vvdot)(f[b], f[b]));
    }
    LN(vv) total = {zero, zero};
    /* The three lengths adding up to less than max_force (with a margin far above
     * rounding): every partial total is shorter than the budget left, so the prioritised
     * combiner adds each force whole, like the weighted one, and no truncation changes
     * anything. */
    M small = P(lt)(P(add)(P(add)(len[0], len[1]), len[2]), P(mul)(mf, P(sp)(1.0 - 1e-6)));
    if (P(mbits)(small) == FULL) {
        for (int b = 0; b < 3; b++) total = (LN(vv)){P(add)(total.x, f[b].x), P(add)(total.y, f[b].y)};
    } else {
        /* The running length waits on each step's square root (and division): the last
         * one's is not worked out. */
        V tlen = zero;
        for (int b = 0; b < 3; b++)
            LN(accumulate)(&total, &tlen, f[b], &len[b], LN(active)(tlen, pc->weighted, mf), pc->weighted, mf, b == 0,
                           b == 2);
        total = LN(vvtrunc)(total, mf);
    }

    LN(finish)(c, s, o, k, vmap, pos, vel, head, tr, total, pc);
    return 1;
}

/* Behaviour b's raw force for every lane into *out when the lanes compute it (seek,
 * arrive, and pursuit of one evader shared by the lanes that have one); 0 for the scalar
 * code. */
static inline int LN(force)(int b, LN(vv) pos, LN(vv) vel, LN(vv) head, const pt_steer_ctx *ctx,
                            const pt_vehicle *const *a1, const LN(consts) *pc, LN(vv) *out) {
    switch (b) {
    case PT_BEH_SEEK: *out = LN(seek)(pos, vel, LN(vvsp)(ctx->target), pc->max_speed); return 1;
    case PT_BEH_ARRIVE: *out = LN(arrive)(pos, vel, LN(vvsp)(ctx->target), pc->max_speed, pc->decel_div); return 1;
    case PT_BEH_PURSUIT: {
        const pt_vehicle *ev = NULL;
        int has = 0;
        for (int l = 0; l < LANES; l++) {
            if (!a1[l]) continue;
            if (ev && a1[l] != ev) return 0;
            ev = a1[l];
            has |= 1 << l;
        }
        int hb[LANES];
        for (int l = 0; l < LANES; l++) hb[l] = has >> l & 1;
        LN(vv) zero = {P(sp)(0.0), P(sp)(0.0)};
        *out = ev ? LN(vvkeep)(P(mints)(hb, 1), LN(pursuit)(pos, vel, head, ev, pc->max_speed, pc->max_speed_1,
                                                                         pc->ncos_facing, pc->turn_around)) : zero;
        return 1;
    }
    default: return 0;
    }
}

/* pt_steer_wander of the lanes' agents ag[l] in act (the others' are not used): each
 * lane's draws from its agent, the rest in the lanes; the new targets back to the agents.
 * The tick is one the lanes integrate (dt > 0, finite). */
static inline LN(vv) LN(wander)(int act, pt_steer_agent *ag, LN(vv) head, const LN(consts) *pc) {
    double tx[LANES], ty[LANES];
    for (int l = 0; l < LANES; l++) {
        pt_vec2 t = pt_v2(0.0, 0.0);
        if (act >> l & 1) t = pt__wander_jitter(&ag[l].wander, &ag[l].rng, pc->wjitter, pc->wradius_1);
        tx[l] = t.x;
        ty[l] = t.y;
    }
    LN(vv) target, f = LN(wander_to)((LN(vv)){P(strided)(tx, 1), P(strided)(ty, 1)}, head, pc->wradius, pc->wdistance,
                                     &target);
    P(store)(tx, target.x);
    P(store)(ty, target.y);
    for (int l = 0; l < LANES; l++)
        if (act >> l & 1) ag[l].wander.target = pt_v2(tx[l], ty[l]);
    return f;
}

/* Behaviour b's raw force from the scalar code, for the lanes in act (zero in the others). */
static inline LN(vv) LN(scalar_force)(int b, int act, pt_steer_agent *ag, pt_steer_ctx *ctx, const pt_vehicle *const *a1,
                                      pt_vec2 (*g)[3]) {
    double fx[LANES], fy[LANES];
    for (int l = 0; l < LANES; l++) {
        pt_vec2 r = pt_v2(0.0, 0.0);
        if (act >> l & 1) {
            ctx->agent1 = a1[l];
            r = pt__raw_force(&ag[l], ctx, b, g ? g[l] : NULL);
        }
        fx[l] = r.x;
        fy[l] = r.y;
    }
    /* strided: the lanes built from the scalars (a vector load of the scalar stores would
     * stall their forwarding) */
    return (LN(vv)){P(strided)(fx, 1), P(strided)(fy, 1)};
}

/* The combined force (truncated to max_force) of the lanes' agents ag[0 .. LANES - 1],
 * whose motion is pos, vel and head: pt__steer_calculate_inline, one agent per lane. Each
 * behaviour's raw force comes from the lanes where they compute it (group forces in gl,
 * seek, arrive, pursuit, and with `wander` the end of wander), else from the scalar code (pt__raw_force on the lane's agent
 * ag[l], with agent1 a1[l] and group forces g[l]), and only for the lanes whose budget is
 * not used up, as in the scalar combiner; the running sums and their lengths run in the
 * lanes, the same operations in the same order. */
static inline PT_ALWAYS_INLINE LN(vv) LN(combine)(LN(vv) pos, LN(vv) vel, LN(vv) head, pt_steer_agent *ag,
                                                  pt_steer_ctx *ctx, const pt_vehicle *const *a1, pt_vec2 (*g)[3],
                                                  const LN(vv) *gl, int wander, unsigned on,
                                                  const double *weight, const LN(consts) *pc) {
    V zero = P(sp)(0.0), mf = pc->mf;
    LN(vv) total = {zero, zero};
    V tlen = zero;
    int first = 1;
    for (unsigned bits = on; bits; bits &= bits - 1u) {
        int b = __builtin_ctz(bits);
        M active = LN(active)(tlen, pc->weighted, mf);
        int act = P(mbits)(active);
        if (!act) break;
        LN(vv) raw;
        if (gl && b >= PT_BEH_SEPARATION && b <= PT_BEH_COHESION) raw = gl[b - PT_BEH_SEPARATION];
        else if (wander && b == PT_BEH_WANDER) raw = LN(wander)(act, ag, head, pc);
        else if (!LN(force)(b, pos, vel, head, ctx, a1, pc, &raw)) raw = LN(scalar_force)(b, act, ag, ctx, a1, g);
        LN(accumulate)(&total, &tlen, LN(weigh)(raw, P(sp)(weight[b])), NULL, active, pc->weighted, mf, first, 0);
        first = 0;
    }
    return LN(vvtrunc)(total, mf);
}

/* Slots k .. k + LANES - 1 with any stateless behaviours (the steer stack: avoidance,
 * separation, pursuit, arrive, ...): LN(combine) + pt__vehicle_update, one agent per lane,
 * ag[l] the lane's agent (the shared constants and its slot's motion). Returns 1 when the
 * lanes were written to o, 0 when the scalar path takes the group. */
static LANES_MAYBE_UNUSED int LN(stack)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k,
                                        const int *vmap, pt_steer_agent *ag, pt_steer_ctx *ctx,
                                        const pt_vehicle *const *a1, pt_vec2 (*g)[3], unsigned on,
                                        const double *weight, const LN(consts) *pc) {
    LN(vv) pos, vel, head;
    if (!LN(load_motion)(s, k, vmap, &pos, &vel, &head)) return 0;
    LN(turns) tr = LN(turns_of)(head, &pc->ic);
    LN(vv) total = LN(combine)(pos, vel, head, ag, ctx, a1, g, NULL, 0, on, weight, pc);
    LN(finish)(c, s, o, k, vmap, pos, vel, head, tr, total, pc);
    return 1;
}

/* The in-place mode's step of the consecutive agents ag[0 .. LANES - 1], which share the
 * constants of pc (their params, mass, max_speed, max_force and max_turn_rate, and no
 * smoothing: the caller checks), with the behaviours `on`, agent1 a1[l] and, when sm is
 * not NULL, the group forces from their neighbour sums sm[0 .. LANES - 1]:
 * group_forces + pt__steer_calculate_inline + pt__vehicle_update, one agent per lane, the
 * same operations in the same order. The forces go to f[0 ..], the motion back to the
 * agents (collision is the caller's). 0 when some lane's motion is not finite: nothing is
 * written, the scalar path takes the agents. */
static inline LANES_MAYBE_UNUSED int LN(inplace)(pt_steer_agent *ag, const pt__crowd_sums *sm, pt_steer_ctx *ctx,
                                                 const pt_vehicle *const *a1, unsigned on, const double *weight,
                                                 const LN(consts) *pc, pt_vec2 *f) {
    enum { AS = (int)(sizeof(pt_steer_agent) / sizeof(double)) };
    const pt_vehicle *v0 = &ag[0].veh;
    LN(vv) pos = {P(strided)(&v0->pos.x, AS), P(strided)(&v0->pos.y, AS)};
    LN(vv) vel = {P(strided)(&v0->vel.x, AS), P(strided)(&v0->vel.y, AS)};
    LN(vv) head = {P(strided)(&v0->heading.x, AS), P(strided)(&v0->heading.y, AS)};
    M finite = P(mand)(P(mand)(P(mand)(P(finite)(pos.x), P(finite)(pos.y)), P(mand)(P(finite)(vel.x), P(finite)(vel.y))),
                       P(mand)(P(finite)(head.x), P(finite)(head.y)));
    if (P(mbits)(finite) != FULL) return 0;
    LN(turns) tr = LN(turns_of)(head, &pc->ic);

    /* group_forces */
    LN(vv) gl[3];
    if (sm) {
        LN(vv) side = {P(strided)(&v0->side.x, AS), P(strided)(&v0->side.y, AS)};
        gl[0] = LN(vvsums)(&sm[0].sep);
        gl[1] = gl[2] = (LN(vv)){P(sp)(0.0), P(sp)(0.0)};
        if (on & PT_BEH_BIT(PT_BEH_ALIGNMENT))
            gl[1] = LN(vvkeep)(P(mints)(&sm[0].headings, SUMS_ISTRIDE),
                               LN(align_to)(head, side, LN(vvsums)(&sm[0].mean_heading)));
        if (on & PT_BEH_BIT(PT_BEH_COHESION))
            gl[2] = LN(vvkeep)(P(mints)(&sm[0].count, SUMS_ISTRIDE),
                               LN(cohere_to)(pos, vel, LN(vvsums)(&sm[0].centre), pc->max_speed));
    }
    LN(vv) total = LN(combine)(pos, vel, head, ag, ctx, a1, NULL, sm ? gl : NULL, 1, on, weight, pc);

    /* pt__vehicle_update */
    signed char turn[LANES];
    int tn[LANES];
    for (int l = 0; l < LANES; l++) {
        int t = ag[l].veh.turn_dir;
        turn[l] = (signed char)(t > 0 ? 1 : t < 0 ? -1 : 0);
    }
    LN(integrate)(&pos, &vel, &head, total, &tr, turn, NULL, tn, &pc->ic);
    double out[8][LANES];
    P(store)(out[0], pos.x);
    P(store)(out[1], pos.y);
    P(store)(out[2], vel.x);
    P(store)(out[3], vel.y);
    P(store)(out[4], head.x);
    P(store)(out[5], head.y);
    P(store)(out[6], total.x);
    P(store)(out[7], total.y);
    for (int l = 0; l < LANES; l++) {
        pt_vehicle *v = &ag[l].veh;
        if (tn[l] != turn[l]) v->turn_dir = tn[l]; /* unchanged: the caller's own value stays */
        v->pos = pt_v2(out[0][l], out[1][l]);
        v->vel = pt_v2(out[2][l], out[3][l]);
        v->heading = pt_v2(out[4][l], out[5][l]);
        v->side = pt_v2_perp(v->heading);
        v->smooth_heading = v->heading; /* pt__smooth without smoothing */
        f[l] = pt_v2(out[6][l], out[7][l]);
    }
    return 1;
}

#undef FULL
#undef LANES_MAYBE_UNUSED
#undef SUMS_DSTRIDE
#undef SUMS_ISTRIDE
