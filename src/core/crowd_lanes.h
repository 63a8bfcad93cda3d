/* SPDX-License-Identifier: Zlib */
/* The owned lane's plain-flocking step for LANES agents at once, one per SIMD lane: the end
 * of the group behaviours, the combiner and the integrator. Every lane does exactly the
 * scalar operations in the scalar order (IEEE add, mul, div and sqrt are exact per lane, so
 * the bits are the same as pt__steer_calculate_inline + pt__vehicle_update), with branches
 * turned into selects that compute both sides.
 *
 * No include guard: crowd.c includes it once per width, with LANES, the vector and mask
 * types V and M, P(x) naming the width's primitives (P(add), P(mand), P(strided), ...) and
 * LN(x) naming what this file defines. V holds one double per agent (x and y of a vector
 * are two V values). */

#define FULL ((1 << LANES) - 1)
/* A sums field of LANES consecutive agents: doubles (ints) this far apart. */
#define SUMS_DSTRIDE ((int)(sizeof(pt__crowd_sums) / sizeof(double)))
#define SUMS_ISTRIDE ((int)(sizeof(pt__crowd_sums) / sizeof(int)))

/* A 2-D vector per lane. */
typedef struct LN(vv) { V x, y; } LN(vv);

/* A vector field of the sums of LANES consecutive agents. */
static inline LN(vv) LN(vvsums)(const pt_vec2 *first) {
    return (LN(vv)){P(strided)(&first->x, SUMS_DSTRIDE), P(strided)(&first->y, SUMS_DSTRIDE)};
}
static inline V LN(vvdot)(LN(vv) a, LN(vv) b) { return P(add)(P(mul)(a.x, b.x), P(mul)(a.y, b.y)); }
static inline LN(vv) LN(vvscale)(LN(vv) a, V s) { return (LN(vv)){P(mul)(a.x, s), P(mul)(a.y, s)}; }
static inline LN(vv) LN(vvsel)(M m, LN(vv) a, LN(vv) b) { return (LN(vv)){P(sel)(m, a.x, b.x), P(sel)(m, a.y, b.y)}; }
static inline LN(vv) LN(vvkeep)(M m, LN(vv) a) { return (LN(vv)){P(keep)(m, a.x), P(keep)(m, a.y)}; }
/* finite_or_zero */
static inline LN(vv) LN(vvfinite0)(LN(vv) a) { return LN(vvkeep)(P(mand)(P(finite)(a.x), P(finite)(a.y)), a); }
/* pt_v2_norm */
static inline LN(vv) LN(vvnorm)(LN(vv) a) {
    V l = P(sqrt)(LN(vvdot)(a, a));
    return LN(vvkeep)(P(gt)(l, P(sp)(PT_EPS)), (LN(vv)){P(div)(a.x, l), P(div)(a.y, l)});
}
/* pt_v2_truncate; the square root and division only when a lane needs them. */
static inline LN(vv) LN(vvtrunc)(LN(vv) a, V max) {
    V l2 = LN(vvdot)(a, a);
    M over = P(mand)(P(gt)(l2, P(mul)(max, max)), P(gt)(l2, P(sp)(0.0)));
    if (!P(mbits)(over)) return a;
    return LN(vvsel)(over, LN(vvscale)(a, P(div)(max, P(sqrt)(l2))), a);
}

/* What the step needs of the shared constants, computed once per share. */
typedef struct LN(consts) {
    V max_speed, mf, inv_mass, w[3], tcos, tsin, dt;
    M weighted, limited;
    /* arrive's (decel * decel_tweak); pursuit's -cos(facing_angle) and turn_around_time */
    V decel_div, ncos_facing, turn_around;
    double max_speed_1;
} LN(consts);

static void LN(consts_init)(LN(consts) *pc, const pt_steer_agent *tmpl, double dt) {
    const pt_vehicle *v = &tmpl->veh;
    const pt_steer_params *p = pt__params_or_default(tmpl->params);
    double mass = v->mass > 0 && isfinite(v->mass) ? v->mass : 1.0;
    pc->max_speed = P(sp)(v->max_speed);
    pc->max_speed_1 = v->max_speed;
    pc->mf = P(sp)(v->max_force);
    pc->inv_mass = P(div)(P(sp)(1.0), P(sp)(mass));
    for (int b = 0; b < 3; b++) pc->w[b] = P(sp)(p->weight[PT_BEH_SEPARATION + b]);
    double lim = v->max_turn_rate * dt, c = 1.0, s = 0.0;
    if (lim < PT_PI) pt__turn_limit_cs(lim, &c, &s);
    pc->tcos = P(sp)(c);
    pc->tsin = P(sp)(s);
    pc->dt = P(sp)(dt);
    pc->weighted = P(mall)(p->combiner == PT_COMBINE_WEIGHTED);
    pc->limited = P(mall)(lim < PT_PI);
    pt_decel decel = p->deceleration; /* as pt_steer_force and pt_steer_arrive resolve it */
    if (decel < PT_DECEL_FAST || decel > PT_DECEL_SLOW) decel = PT_DECEL_NORMAL;
    pc->decel_div = P(sp)((double)decel * p->decel_tweak);
    pc->ncos_facing = P(sp)(-cos(p->facing_angle));
    pc->turn_around = P(sp)(p->turn_around_time);
}

/* ---- seek, arrive and pursuit, one agent per lane: the operations of pt_steer_seek,
 * pt_steer_arrive and pt_steer_pursuit in their order ---------------------------------- */

static inline LN(vv) LN(vvsub)(LN(vv) a, LN(vv) b) { return (LN(vv)){P(sub)(a.x, b.x), P(sub)(a.y, b.y)}; }
static inline LN(vv) LN(vvsp)(pt_vec2 a) { return (LN(vv)){P(sp)(a.x), P(sp)(a.y)}; }

static inline LN(vv) LN(seek)(LN(vv) pos, LN(vv) vel, LN(vv) target, const LN(consts) *pc) {
    LN(vv) desired = LN(vvscale)(LN(vvnorm)(LN(vvsub)(target, pos)), pc->max_speed);
    return LN(vvfinite0)(LN(vvsub)(desired, vel));
}

static inline LN(vv) LN(arrive)(LN(vv) pos, LN(vv) vel, LN(vv) target, const LN(consts) *pc) {
    LN(vv) off = LN(vvsub)(target, pos);
    V dist = P(sqrt)(LN(vvdot)(off, off));
    V speed = P(div)(dist, pc->decel_div);
    speed = P(sel)(P(gt)(speed, pc->max_speed), pc->max_speed, speed);
    LN(vv) desired = LN(vvscale)(off, P(div)(speed, dist));
    LN(vv) brake = LN(vvfinite0)((LN(vv)){P(neg)(vel.x), P(neg)(vel.y)}); /* at the target */
    return LN(vvsel)(P(gt)(dist, P(sp)(PT_EPS)), LN(vvfinite0)(LN(vvsub)(desired, vel)), brake);
}

/* ev: the evader (the same for every lane). */
static inline LN(vv) LN(pursuit)(LN(vv) pos, LN(vv) vel, LN(vv) head, const pt_vehicle *ev, const LN(consts) *pc) {
    LN(vv) epos = LN(vvsp)(ev->pos), to = LN(vvsub)(epos, pos);
    V rel = LN(vvdot)(head, LN(vvsp)(ev->heading));
    /* ahead and facing us: seek it directly */
    M direct = P(mand)(P(gt)(LN(vvdot)(to, head), P(sp)(0.0)), P(lt)(rel, pc->ncos_facing));
    /* else where it will be: look_ahead, plus the turn-around time */
    double speed_sum = pc->max_speed_1 + pt_vehicle_speed(ev);
    V t = speed_sum > PT_EPS ? P(div)(P(sqrt)(LN(vvdot)(to, to)), P(sp)(speed_sum)) : P(sp)(0.0);
    t = P(add)(t, P(mul)(P(sub)(P(sp)(1.0), LN(vvdot)(head, LN(vvnorm)(to))), pc->turn_around));
    LN(vv) ahead = {P(add)(epos.x, P(mul)(P(sp)(ev->vel.x), t)), P(add)(epos.y, P(mul)(P(sp)(ev->vel.y), t))};
    return LN(seek)(pos, vel, LN(vvsel)(direct, epos, ahead), pc);
}

/* The heading rotated by +lim and by -lim (pt__rotate_cs), renormalised: the turns the
 * integrator may need. They do not depend on the forces, so the steps work them out first,
 * while the forces' chains of square roots run. */
typedef struct LN(turns) { LN(vv) rp, rm; } LN(turns);
static inline LN(turns) LN(turns_of)(LN(vv) head, const LN(consts) *pc) {
    V tcos = pc->tcos, tsin = pc->tsin, msin = P(neg)(tsin);
    LN(turns) r;
    r.rp = LN(vvnorm)((LN(vv)){P(sub)(P(mul)(head.x, tcos), P(mul)(head.y, tsin)),
                               P(add)(P(mul)(head.x, tsin), P(mul)(head.y, tcos))});
    r.rm = LN(vvnorm)((LN(vv)){P(sub)(P(mul)(head.x, tcos), P(mul)(head.y, msin)),
                               P(add)(P(mul)(head.x, msin), P(mul)(head.y, tcos))});
    return r;
}

/* The end of a lane step from the combined (not yet truncated) force: pt__vehicle_update
 * and collision, one agent per lane, every lane into o. */
static inline PT_ALWAYS_INLINE void LN(finish)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k,
                                              const int *vmap, LN(vv) pos, LN(vv) vel, LN(vv) head, LN(turns) tr,
                                              LN(vv) total, const LN(consts) *pc) {
    V zero = P(sp)(0.0), one = P(sp)(1.0), mf = pc->mf, tcos = pc->tcos;
    LN(vv) rp = tr.rp, rm = tr.rm;
    LN(vv) ft = LN(vvtrunc)(LN(vvfinite0)(total), mf);
    LN(vv) acc = LN(vvscale)(ft, pc->inv_mass);
    V vdt = pc->dt;
    LN(vv) nv = LN(vvtrunc)((LN(vv)){P(add)(vel.x, P(mul)(acc.x, vdt)), P(add)(vel.y, P(mul)(acc.y, vdt))}, pc->max_speed);
    V speed = P(sqrt)(LN(vvdot)(nv, nv));
    M moving = P(gt)(speed, P(sp)(PT__STOP_SPEED));
    LN(vv) dir = LN(vvscale)(nv, P(div)(one, speed));
    M turn = P(mand)(pc->limited, P(lt)(LN(vvdot)(head, dir), tcos));
    V cross = P(sub)(P(mul)(head.x, dir.y), P(mul)(head.y, dir.x));
    M behind = P(signbit)(cross);
    LN(vv) hr = LN(vvsel)(behind, rm, rp);
    V fwd = LN(vvdot)(nv, hr);
    M spot = P(mand)(turn, P(le)(fwd, zero));
    nv = LN(vvsel)(turn, LN(vvscale)(hr, fwd), nv);
    LN(vv) h = LN(vvsel)(turn, hr, dir);
    /* the new turn_dir: 0 while moving and not turning on the spot */
    int tn[LANES] = {0}, mv = P(mbits)(moving), sp = P(mbits)(spot) & mv;
    if (sp | (~mv & FULL)) {
        /* Rare: turning on the spot toward a force behind keeps the side chosen first
         * (turn_dir), else takes the cross product's and remembers it; nv is h * 0. A lane
         * that stops keeps its heading and turn_dir; nv is 0. */
        int neg[LANES], spl[LANES], stl[LANES], cneg = P(mbits)(behind);
        for (int l = 0; l < LANES; l++) {
            int t = s->turn[vmap[k + l]];
            neg[l] = t ? t < 0 : cneg >> l & 1;
            spl[l] = sp >> l & 1;
            stl[l] = !(mv >> l & 1);
            tn[l] = spl[l] ? (neg[l] ? -1 : 1) : stl[l] ? t : 0;
        }
        LN(vv) hs = LN(vvsel)(P(mints)(neg, 1), rm, rp);
        M msp = P(mints)(spl, 1), mst = P(mints)(stl, 1);
        nv = LN(vvsel)(msp, LN(vvscale)(hs, zero), nv);
        h = LN(vvsel)(msp, hs, h);
        nv = LN(vvsel)(mst, (LN(vv)){zero, zero}, nv);
        h = LN(vvsel)(mst, head, h);
    }
    LN(vv) np = {P(add)(pos.x, P(mul)(nv.x, vdt)), P(add)(pos.y, P(mul)(nv.y, vdt))};
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
static int LN(step)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k, const int *vmap,
                    const pt__crowd_sums *sm, const LN(consts) *pc) {
    V zero = P(sp)(0.0), one = P(sp)(1.0);
    LN(vv) pos, vel, head;
    if (!LN(load_motion)(s, k, vmap, &pos, &vel, &head)) return 0;
    LN(vv) side = {P(neg)(head.y), head.x}; /* pt_v2_perp */
    LN(turns) tr = LN(turns_of)(head, pc);

    /* group_forces */
    LN(vv) g[3];
    g[0] = LN(vvsums)(&sm[0].sep);
    LN(vv) mh = LN(vvsums)(&sm[0].mean_heading), centre = LN(vvsums)(&sm[0].centre);
    LN(vv) dh = LN(vvsub)(mh, head);
    g[1] = LN(vvkeep)(P(mints)(&sm[0].headings, SUMS_ISTRIDE), LN(vvscale)(side, LN(vvdot)(dh, side)));
    g[2] = LN(vvkeep)(P(mints)(&sm[0].count, SUMS_ISTRIDE), LN(vvnorm)(LN(seek)(pos, vel, centre, pc)));

    /* the combiner: prioritised (a running sum within the budget) or weighted */
    V mf = pc->mf;
    LN(vv) f[3];
    V len[3];
    for (int b = 0; b < 3; b++) {
        f[b] = LN(vvfinite0)(LN(vvscale)(g[b], pc->w[b]));
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
        /* The running length waits on each step's square root (and division); the usual
         * cases are cut short, exactly: a force added whole is added without its scale of 1
         * (f * 1 is f), and the first one's total is 0 + f, whose length is f's own. */
        V tlen = zero;
        for (int b = 0; b < 3; b++) {
            M active = P(mor)(pc->weighted, P(nge)(tlen, mf));
            V remaining = P(sub)(mf, tlen);
            M whole = P(mor)(pc->weighted, P(lt)(len[b], remaining));
            LN(vv) add;
            if (P(mbits)(whole) == FULL) {
                add = (LN(vv)){P(add)(total.x, f[b].x), P(add)(total.y, f[b].y)};
            } else {
                V sc = P(sel)(whole, one, P(div)(remaining, len[b]));
                add = (LN(vv)){P(add)(total.x, P(mul)(f[b].x, sc)), P(add)(total.y, P(mul)(f[b].y, sc))};
            }
            total = LN(vvsel)(active, add, total);
            if (b == 2) break; /* the length is not needed after the last */
            if (b == 0 && P(mbits)(P(mand)(active, whole)) == FULL) tlen = len[0];
            else tlen = P(sel)(active, P(sqrt)(LN(vvdot)(total, total)), tlen);
        }
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
    case PT_BEH_SEEK: *out = LN(seek)(pos, vel, LN(vvsp)(ctx->target), pc); return 1;
    case PT_BEH_ARRIVE: *out = LN(arrive)(pos, vel, LN(vvsp)(ctx->target), pc); return 1;
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
        *out = ev ? LN(vvkeep)(P(mints)(hb, 1), LN(pursuit)(pos, vel, head, ev, pc)) : zero;
        return 1;
    }
    default: return 0;
    }
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

/* Slots k .. k + LANES - 1 with any stateless behaviours (the steer stack: avoidance,
 * separation, pursuit, arrive, ...): pt__steer_calculate_inline + pt__vehicle_update, one
 * agent per lane. Each behaviour's raw force comes from the scalar code (pt__raw_force on
 * the lane's agent ag[l], with agent1 a1[l] and group forces g[l]), and only for the lanes
 * whose budget is not used up, as in the scalar combiner; the running sums, their lengths
 * and the integration run in the lanes, the same operations in the same order. Returns 1
 * when the lanes were written to o, 0 when the scalar path takes the group. */
static int LN(stack)(const pt_crowd *c, const pt__crowd_state *s, pt__crowd_state *o, int k, const int *vmap,
                     pt_steer_agent *ag, pt_steer_ctx *ctx, const pt_vehicle *const *a1, pt_vec2 (*g)[3],
                     unsigned on, const double *weight, const LN(consts) *pc) {
    V zero = P(sp)(0.0), one = P(sp)(1.0), mf = pc->mf;
    LN(vv) pos, vel, head;
    if (!LN(load_motion)(s, k, vmap, &pos, &vel, &head)) return 0;
    LN(turns) tr = LN(turns_of)(head, pc);
    LN(vv) total = {zero, zero};
    V tlen = zero;
    for (unsigned bits = on; bits; bits &= bits - 1u) {
        int b = __builtin_ctz(bits);
        /* budget used up (prioritised): lower priorities are not even computed */
        M active = P(mor)(pc->weighted, P(nge)(tlen, mf));
        int act = P(mbits)(active);
        if (!act) break;
        LN(vv) raw;
        if (!LN(force)(b, pos, vel, head, ctx, a1, pc, &raw)) raw = LN(scalar_force)(b, act, ag, ctx, a1, g);
        LN(vv) f = LN(vvfinite0)(LN(vvscale)(raw, P(sp)(weight[b])));
        /* accumulate: whole when shorter than the budget left, else scaled to it (weighted:
         * always whole; f * 1 is f) */
        V len = P(sqrt)(LN(vvdot)(f, f)), remaining = P(sub)(mf, tlen);
        M whole = P(mor)(pc->weighted, P(lt)(len, remaining));
        V sc = P(mbits)(whole) == FULL ? one : P(sel)(whole, one, P(div)(remaining, len));
        LN(vv) add = {P(add)(total.x, P(mul)(f.x, sc)), P(add)(total.y, P(mul)(f.y, sc))};
        total = LN(vvsel)(active, add, total);
        tlen = P(sel)(active, P(sqrt)(LN(vvdot)(total, total)), tlen);
    }
    LN(finish)(c, s, o, k, vmap, pos, vel, head, tr, LN(vvtrunc)(total, mf), pc);
    return 1;
}

#undef FULL
#undef SUMS_DSTRIDE
#undef SUMS_ISTRIDE
