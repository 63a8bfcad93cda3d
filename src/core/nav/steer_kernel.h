/* SPDX-License-Identifier: Zlib */
/* The steering kernel, written once over a vector type: seek, arrive and pursuit, the ends
 * of alignment and cohesion, the step of the weighted and prioritised combiners, and the
 * integrator. steer_shared.h instantiates it one agent wide (V double) for pt_steer_seek,
 * pt_steer_calculate, pt_vehicle_update and the rest of the one-agent API; bulk/packed.c two
 * and four agents wide, one agent per SIMD lane, for the crowd's packed mode (bulk/lanes.h).
 * Every lane does exactly the scalar operations in the scalar order (IEEE add, mul, div and
 * sqrt are exact per lane), so every width gives the same bits.
 *
 * No include guard: the includer defines LANES, the vector and mask types V and M, P(x)
 * naming the width's primitives (P(add), P(mand), P(sel), ...) and LN(x) naming what this
 * file defines. V holds one double per agent (x and y of a vector are two V values), M one
 * truth value per agent; P(mbits) gives a mask's lanes as bits.
 *
 * Branches: one lane wide, a select skips the side its mask does not take, as plain code
 * would (KBRANCHY); wider, both sides are computed and the lanes select, since a branch on
 * mixed lanes would only add mispredictions. Either way the lanes' results are the same. */

#define KFULL ((1 << LANES) - 1)
#define KBRANCHY (LANES == 1)

/* A 2-D vector per lane. */
typedef struct LN(vv) { V x, y; } LN(vv);

static inline LN(vv) LN(vvsp)(pt_vec2 a) { return (LN(vv)){P(sp)(a.x), P(sp)(a.y)}; }
static inline LN(vv) LN(vvadd)(LN(vv) a, LN(vv) b) { return (LN(vv)){P(add)(a.x, b.x), P(add)(a.y, b.y)}; }
static inline LN(vv) LN(vvsub)(LN(vv) a, LN(vv) b) { return (LN(vv)){P(sub)(a.x, b.x), P(sub)(a.y, b.y)}; }
static inline V LN(vvdot)(LN(vv) a, LN(vv) b) { return P(add)(P(mul)(a.x, b.x), P(mul)(a.y, b.y)); }
static inline LN(vv) LN(vvscale)(LN(vv) a, V s) { return (LN(vv)){P(mul)(a.x, s), P(mul)(a.y, s)}; }
static inline LN(vv) LN(vvsel)(M m, LN(vv) a, LN(vv) b) { return (LN(vv)){P(sel)(m, a.x, b.x), P(sel)(m, a.y, b.y)}; }
static inline LN(vv) LN(vvkeep)(M m, LN(vv) a) { return (LN(vv)){P(keep)(m, a.x), P(keep)(m, a.y)}; }
/* a when both parts are finite, else 0 */
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

/* ---- forces --------------------------------------------------------------------------- */

/* pt_steer_seek */
static inline LN(vv) LN(seek)(LN(vv) pos, LN(vv) vel, LN(vv) target, V max_speed) {
    LN(vv) desired = LN(vvscale)(LN(vvnorm)(LN(vvsub)(target, pos)), max_speed);
    return LN(vvfinite0)(LN(vvsub)(desired, vel));
}

/* pt_steer_arrive; decel_div is the deceleration times decel_tweak. */
static inline LN(vv) LN(arrive)(LN(vv) pos, LN(vv) vel, LN(vv) target, V max_speed, V decel_div) {
    V zero = P(sp)(0.0);
    LN(vv) off = LN(vvsub)(target, pos), go = {zero, zero}, brake = {zero, zero};
    V dist = P(sqrt)(LN(vvdot)(off, off));
    M far = P(gt)(dist, P(sp)(PT_EPS));
    if (!KBRANCHY || P(mbits)(far)) {
        V speed = P(div)(dist, decel_div);
        speed = P(sel)(P(gt)(speed, max_speed), max_speed, speed);
        LN(vv) desired = LN(vvscale)(off, P(div)(speed, dist));
        go = LN(vvfinite0)(LN(vvsub)(desired, vel));
    }
    if (!KBRANCHY || !P(mbits)(far)) /* at the target: brake to a stop */
        brake = LN(vvfinite0)((LN(vv)){P(neg)(vel.x), P(neg)(vel.y)});
    return LN(vvsel)(far, go, brake);
}

/* pt_steer_pursuit of ev (the same evader in every lane): ncos_facing is -cos(facing_angle),
 * max_speed_1 the lanes' common max_speed. */
static inline LN(vv) LN(pursuit)(LN(vv) pos, LN(vv) vel, LN(vv) head, const pt_vehicle *ev, V max_speed,
                                 double max_speed_1, V ncos_facing, V turn_around) {
    LN(vv) epos = LN(vvsp)(ev->pos), to = LN(vvsub)(epos, pos);
    V rel = LN(vvdot)(head, LN(vvsp)(ev->heading));
    /* ahead and facing us: seek it directly */
    M direct = P(mand)(P(gt)(LN(vvdot)(to, head), P(sp)(0.0)), P(lt)(rel, ncos_facing));
    if (KBRANCHY && P(mbits)(direct)) return LN(seek)(pos, vel, epos, max_speed);
    /* else where it will be: look ahead, plus the turn-around time (0 dead ahead, twice
     * the coefficient behind) */
    double speed_sum = max_speed_1 + pt_vehicle_speed(ev);
    V t = speed_sum > PT_EPS ? P(div)(P(sqrt)(LN(vvdot)(to, to)), P(sp)(speed_sum)) : P(sp)(0.0);
    t = P(add)(t, P(mul)(P(sub)(P(sp)(1.0), LN(vvdot)(head, LN(vvnorm)(to))), turn_around));
    LN(vv) ahead = {P(add)(epos.x, P(mul)(P(sp)(ev->vel.x), t)), P(add)(epos.y, P(mul)(P(sp)(ev->vel.y), t))};
    return LN(seek)(pos, vel, LN(vvsel)(direct, epos, ahead), max_speed);
}

/* Alignment from the neighbours' mean heading: only the sideways part of (mean - heading),
 * which turns the vehicle toward the mean heading. The part along the heading is never
 * positive, so it could only brake, and a disordered group would brake itself to a
 * standstill. */
static inline LN(vv) LN(align_to)(LN(vv) head, LN(vv) side, LN(vv) mean_heading) {
    LN(vv) d = LN(vvsub)(mean_heading, head);
    return LN(vvscale)(side, LN(vvdot)(d, side));
}

/* Cohesion from the neighbours' centre: a seek, normalised as in Buckland's code (the raw
 * seek would dwarf the other two). */
static inline LN(vv) LN(cohere_to)(LN(vv) pos, LN(vv) vel, LN(vv) centre, V max_speed) {
    return LN(vvnorm)(LN(seek)(pos, vel, centre, max_speed));
}

/* The end of pt_steer_wander from its jittered target t (pt__wander_jitter): t back on the
 * circle of the radius (along +x when too short to normalise) into *target, and the force
 * toward the point `distance` ahead of the vehicle on it (pt_v2_dir_to_world). */
static inline LN(vv) LN(wander_to)(LN(vv) t, LN(vv) head, V radius, V distance, LN(vv) *target) {
    t = LN(vvnorm)(t);
    M bad = P(lt)(LN(vvdot)(t, t), P(sp)(0.5));
    t = LN(vvscale)(LN(vvsel)(bad, (LN(vv)){P(sp)(1.0), P(sp)(0.0)}, t), radius);
    *target = t;
    V lx = P(add)(t.x, distance);
    return (LN(vv)){P(add)(P(mul)(head.x, lx), P(mul)(P(neg)(head.y), t.y)), P(add)(P(mul)(head.y, lx), P(mul)(head.x, t.y))};
}

/* ---- the weighted and prioritised combiners ------------------------------------------- */

/* A behaviour's raw force times its weight, 0 when not finite. */
static inline LN(vv) LN(weigh)(LN(vv) raw, V weight) { return LN(vvfinite0)(LN(vvscale)(raw, weight)); }

/* Whether a lane still takes forces: weighted, or (prioritised) budget left. Lower
 * priorities than the first lane that has none are not even computed. */
static inline M LN(active)(V tlen, M weighted, V mf) { return P(mor)(weighted, P(nge)(tlen, mf)); }

/* Adds f (weighed) to *total in the lanes of `active`: whole when weighted or shorter than
 * the budget left (mf - tlen), else scaled to that budget (Buckland's AccumulateForce).
 * *tlen stays |total| for the prioritised combiner; `last`: not updated (nobody reads it).
 * flen: |f| when the caller has it. first: *total is still 0 (then |total| is |f|). A force
 * added whole is added without its scale of 1 (f * 1 is f). */
static inline PT__KINLINE void LN(accumulate)(LN(vv) *total, V *tlen, LN(vv) f, const V *flen, M active,
                                              M weighted, V mf, int first, int last) {
    if (P(mbits)(weighted) == KFULL) { /* every lane active, every force whole */
        *total = LN(vvadd)(*total, f);
        return;
    }
    V len = flen ? *flen : P(sqrt)(LN(vvdot)(f, f));
    V remaining = P(sub)(mf, *tlen);
    M whole = P(mor)(weighted, P(lt)(len, remaining));
    LN(vv) add;
    if (P(mbits)(whole) == KFULL) {
        add = LN(vvadd)(*total, f);
    } else {
        V sc = P(sel)(whole, P(sp)(1.0), P(div)(remaining, len));
        add = LN(vvadd)(*total, LN(vvscale)(f, sc));
    }
    *total = LN(vvsel)(active, add, *total);
    if (last) return;
    if (first && P(mbits)(P(mand)(active, whole)) == KFULL) *tlen = len;
    else *tlen = P(sel)(active, P(sqrt)(LN(vvdot)(*total, *total)), *tlen);
}

/* ---- the integrator (pt__vehicle_update) ---------------------------------------------- */

/* What the integrator needs of the vehicle and the tick. */
typedef struct LN(icon) {
    V max_speed, mf, inv_mass, dt;
    V tcos, tsin;              /* cos and sin of the turn limit max_turn_rate * dt */
    M limited;                 /* the turn limit is below pi */
} LN(icon);

/* The new velocity: the force (0 when not finite) truncated to max_force, over the mass,
 * for dt, added to vel, truncated to max_speed. */
static inline LN(vv) LN(new_velocity)(LN(vv) vel, LN(vv) force, const LN(icon) *ic) {
    LN(vv) acc = LN(vvscale)(LN(vvtrunc)(LN(vvfinite0)(force), ic->mf), ic->inv_mass);
    return LN(vvtrunc)(LN(vvadd)(vel, LN(vvscale)(acc, ic->dt)), ic->max_speed);
}

/* The heading rotated by the angle whose cos and sin are c and s, renormalised. */
static inline LN(vv) LN(rotate)(LN(vv) h, V c, V s) {
    return LN(vvnorm)((LN(vv)){P(sub)(P(mul)(h.x, c), P(mul)(h.y, s)), P(add)(P(mul)(h.x, s), P(mul)(h.y, c))});
}

/* The heading turned by the turn limit, clockwise on screen, or the other way in the lanes
 * of neg. */
static inline LN(vv) LN(turned)(LN(vv) head, M neg, const LN(icon) *ic) {
    return LN(rotate)(head, ic->tcos, P(sel)(neg, P(neg)(ic->tsin), ic->tsin));
}

/* Both turns the integrator may need, worked out ahead: they do not depend on the force, so
 * the lanes compute them while the forces' chains of square roots run. */
typedef struct LN(turns) { LN(vv) rp, rm; } LN(turns);
static inline LN(turns) LN(turns_of)(LN(vv) head, const LN(icon) *ic) {
    LN(turns) r = {LN(rotate)(head, ic->tcos, ic->tsin), LN(rotate)(head, ic->tcos, P(neg)(ic->tsin))};
    return r;
}

/* One tick of motion from the force: *pos, *vel and *head in place. The velocity is
 * integrated, then the turn rate enforced: the heading turns toward the new velocity by at
 * most the turn limit and the velocity keeps only its part along the new heading (never
 * negative: the vehicle turns on the spot). The side of a limited turn is the sign of the
 * cross product (exactly behind, cross = +-0, its zero's sign); turning on the spot keeps
 * the side chosen first (turn_dir), or a force whose side flips as we turn would hold us in
 * place. Below PT__STOP_SPEED the vehicle stops and keeps its heading and turn_dir.
 * turn_dir: lane l's is turn[tidx ? tidx[l] : l] (-1, 0 or 1); its new one goes to tn[l].
 * tr: turns_of(*head), or NULL to work out a turn only where one is needed. */
static inline PT__KINLINE void LN(integrate)(LN(vv) *pos, LN(vv) *vel, LN(vv) *head, LN(vv) force,
                                             const LN(turns) *tr, const signed char *turn, const int *tidx,
                                             int tn[LANES], const LN(icon) *ic) {
    V zero = P(sp)(0.0);
    LN(vv) hd = *head, nv = LN(new_velocity)(*vel, force, ic);
    V speed = P(sqrt)(LN(vvdot)(nv, nv));
    M moving = P(gt)(speed, P(sp)(PT__STOP_SPEED));
    LN(vv) dir = LN(vvscale)(nv, P(div)(P(sp)(1.0), speed));
    M turning = P(mand)(ic->limited, P(lt)(LN(vvdot)(hd, dir), ic->tcos)); /* angle > limit */
    M behind = P(mall)(0), spot = P(mall)(0);
    LN(vv) h = dir;
    if (!KBRANCHY || P(mbits)(P(mand)(turning, moving))) {
        behind = P(signbit)(P(sub)(P(mul)(hd.x, dir.y), P(mul)(hd.y, dir.x)));
        LN(vv) hr = tr ? LN(vvsel)(behind, tr->rm, tr->rp) : LN(turned)(hd, behind, ic);
        V fwd = LN(vvdot)(nv, hr);
        spot = P(mand)(turning, P(le)(fwd, zero));
        nv = LN(vvsel)(turning, LN(vvscale)(hr, fwd), nv);
        h = LN(vvsel)(turning, hr, dir);
    }
    /* the new turn_dir: 0 while moving and not turning on the spot */
    int mv = P(mbits)(moving), sp = P(mbits)(spot) & mv;
    for (int l = 0; l < LANES; l++) tn[l] = 0;
    if (sp | (~mv & KFULL)) {
        /* Rare: a lane turning on the spot takes its turn_dir's side, or else the cross
         * product's and remembers it; its velocity is h * 0. A lane that stops keeps its
         * heading and turn_dir; its velocity is 0. */
        int neg[LANES], spl[LANES], stl[LANES], cneg = P(mbits)(behind);
        for (int l = 0; l < LANES; l++) {
            int t = turn[tidx ? tidx[l] : l];
            neg[l] = t ? t < 0 : cneg >> l & 1;
            spl[l] = sp >> l & 1;
            stl[l] = !(mv >> l & 1);
            tn[l] = spl[l] ? (neg[l] ? -1 : 1) : stl[l] ? t : 0;
        }
        if (!KBRANCHY || sp) {
            M mneg = P(mints)(neg, 1), msp = P(mints)(spl, 1);
            LN(vv) hs = tr ? LN(vvsel)(mneg, tr->rm, tr->rp) : LN(turned)(hd, mneg, ic);
            nv = LN(vvsel)(msp, LN(vvscale)(hs, zero), nv);
            h = LN(vvsel)(msp, hs, h);
        }
        M mst = P(mints)(stl, 1);
        nv = LN(vvsel)(mst, (LN(vv)){zero, zero}, nv);
        h = LN(vvsel)(mst, hd, h);
    }
    *pos = LN(vvadd)(*pos, LN(vvscale)(nv, ic->dt));
    *vel = nv;
    *head = h;
}

#undef KFULL
#undef KBRANCHY
