/* SPDX-License-Identifier: Zlib */
/* Private to the steering core (steer.c, crowd.c): what the crowd's one-pass group
 * behaviours share with pt_steer_separation/alignment/cohesion and pt_steer_calculate, so
 * that both give the same bits. */
#ifndef PATROL_STEER_PRIV_H
#define PATROL_STEER_PRIV_H

#include <patrol/steer.h>

/* Separation never lets one neighbour count for more than 1/PT__SEP_MIN_DIST. */
#define PT__SEP_MIN_DIST 0.01

/* Direction for two coincident agents (a fixed angle per unordered pair, opposite signs for
 * the two members). */
pt_vec2 pt__steer_coincident_dir(int self, int other);

/* Alignment from the neighbours' mean heading: only the sideways part of (mean - heading).
 * It turns the vehicle toward the mean heading. The part along the heading is never
 * positive, so it could only brake, and a disordered group would brake itself to a
 * standstill. */
static inline pt_vec2 pt__steer_align_to(const pt_vehicle *v, pt_vec2 mean_heading) {
    pt_vec2 d = pt_v2_sub(mean_heading, v->heading);
    return pt_v2_scale(v->side, pt_v2_dot(d, v->side));
}

/* Cohesion from the neighbours' centre: a seek, normalised as in Buckland's code (the raw
 * seek would dwarf the other two). */
static inline pt_vec2 pt__steer_cohere_to(const pt_vehicle *v, pt_vec2 centre) {
    return pt_v2_norm(pt_steer_seek(v, centre));
}

/* pt_steer_calculate, but the raw separation, alignment and cohesion forces (in that order)
 * are taken from group[0..2] instead of being computed from ctx->nb; group NULL = compute. */
pt_vec2 pt__steer_calculate_group(pt_steer_agent *a, const pt_steer_ctx *ctx, const pt_vec2 *group);

/* ---- shared inline bodies: steer.c's functions and the crowd's fast lane use the same
 * code, so both give the same bits ---------------------------------------------------- */

/* Below this speed (tiles/s) a velocity is treated as zero: the heading is kept. */
#define PT__STOP_SPEED 1e-8

static inline pt_vec2 pt__finite_or_zero(pt_vec2 f) { return pt_v2_is_finite(f) ? f : pt_v2(0.0, 0.0); }

static inline const pt_steer_params *pt__params_or_default(const pt_steer_params *p) {
    return p ? p : pt_steer_params_builtin();
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

static inline pt_vec2 pt__integrate_velocity(const pt_vehicle *v, pt_vec2 force, double dt) {
    force = pt_v2_truncate(pt__finite_or_zero(force), v->max_force);
    /* Zero means default, also for a vehicle whose mass was zeroed after pt_vehicle_init
     * (force / 0 would be Inf, and the NaN velocity silently dropped to zero). */
    double mass = v->mass > 0 && isfinite(v->mass) ? v->mass : 1.0;
    pt_vec2 acc = pt_v2_scale(force, 1.0 / mass);
    return pt_v2_truncate(pt_v2_add(v->vel, pt_v2_scale(acc, dt)), v->max_speed);
}

/* cos and sin of the last angle asked for at one place, remembered per thread: agents
 * share their params and tick length, so the same bits as calling cos and sin, without the
 * libm calls per vehicle. Each place keeps its own static _Thread_local memo. */
typedef struct pt__trig_memo { double angle, c, s; int valid; } pt__trig_memo;

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
    static _Thread_local pt__trig_memo memo;
    pt__trig(&memo, lim, c, s);
}

/* The heading rotated by the angle whose cos and sin are c and s, renormalised. */
static inline pt_vec2 pt__rotate_cs(pt_vec2 h, double c, double s) {
    return pt_v2_norm(pt_v2(h.x * c - h.y * s, h.x * s + h.y * c));
}

static inline void pt__vehicle_update(pt_vehicle *v, pt_vec2 force, double dt) {
    if (!(dt > 0) || !isfinite(dt)) return;
    pt_vec2 nv = pt__integrate_velocity(v, force, dt);
    double speed = pt_v2_len(nv);
    if (speed > PT__STOP_SPEED) {
        pt_vec2 dir = pt_v2_scale(nv, 1.0 / speed);
        double lim = v->max_turn_rate * dt;
        /* The turn is limited when the angle to dir exceeds lim, i.e. cos(angle) < cos(lim)
         * for lim < pi (no atan2). The side is the sign of the cross product; exactly behind
         * (cross = +-0) it follows the zero's sign, as atan2 did. */
        double c = 1.0, s = 0.0;
        if (lim < PT_PI) pt__turn_limit_cs(lim, &c, &s);
        if (lim < PT_PI && pt_v2_dot(v->heading, dir) < c) {
            /* Turn as far as allowed; keep only the forward part of the new velocity. */
            int sign = signbit(pt_v2_cross(v->heading, dir)) ? -1 : 1;
            pt_vec2 h = pt__rotate_cs(v->heading, c, sign * s);
            double fwd = pt_v2_dot(nv, h);
            if (fwd <= 0) {
                /* Turning on the spot toward a force behind: keep the direction chosen
                 * first, or a force whose side flips as we turn holds us in place. */
                if (v->turn_dir) sign = v->turn_dir;
                else v->turn_dir = sign;
                h = pt__rotate_cs(v->heading, c, sign * s);
                fwd = 0;
            } else {
                v->turn_dir = 0;
            }
            nv = pt_v2_scale(h, fwd);
            v->heading = h;
        } else {
            v->heading = dir;
            v->turn_dir = 0;
        }
    } else {
        nv = pt_v2(0.0, 0.0);
    }
    v->vel = nv;
    v->pos = pt_v2_add(v->pos, pt_v2_scale(nv, dt));
    v->side = pt_v2_perp(v->heading);
    pt__smooth(v, dt);
}

/* Behaviour b's raw force; the group ones come from `group` when the caller computed them. */
static inline pt_vec2 pt__raw_force(pt_steer_agent *a, const pt_steer_ctx *ctx, int b, const pt_vec2 *group) {
    if (group && b >= PT_BEH_SEPARATION && b <= PT_BEH_COHESION) return group[b - PT_BEH_SEPARATION];
    return pt_steer_force(a, ctx, (pt_behaviour)b);
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
    /* Behaviours in priority order (ascending bits). tlen is always pt_v2_len(total): the
     * same value accumulate() and the budget test would compute, computed once. */
    double tlen = 0.0;
    for (unsigned bits = on; bits; bits &= bits - 1u) {
        int b = __builtin_ctz(bits);
        /* Budget used up: lower priorities are not even computed. */
        if (c == PT_COMBINE_PRIORITISED && tlen >= max_force) break;
        pt_vec2 f = pt__finite_or_zero(pt_v2_scale(pt__raw_force(a, ctx, b, group), p->weight[b]));
        if (c == PT_COMBINE_WEIGHTED) {
            total = pt_v2_add(total, f);
            continue;
        }
        /* accumulate(&total, f, max_force), f already finite */
        double remaining = max_force - tlen;
        if (remaining <= 0.0) continue;
        double len = pt_v2_len(f);
        if (len < remaining) total = pt_v2_add(total, f);
        else total = pt_v2_add(total, pt_v2_scale(f, remaining / len));
        tlen = pt_v2_len(total);
    }
    return pt_v2_truncate(total, max_force);
}

static inline void pt__steer_agent_update_inline(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_vec2 force, double dt) {
    if (!(dt > 0)) dt = pt__ctx_dt(ctx);
    if ((a->behaviours & PT_BEH_BIT(PT_BEH_FACE)) && ctx)
        pt_vehicle_update_facing(&a->veh, force, ctx->target, dt);
    else
        pt__vehicle_update(&a->veh, force, dt);
}

#endif
