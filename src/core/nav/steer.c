/* SPDX-License-Identifier: Zlib */
/* Steering: the vehicle integrator, the behaviours that need no geometry index (hide only
 * walks the obstacle list, and falls back on evade and arrive), the combiners and the agent
 * bundle. Geometry behaviours and collision are in steer_walls.c, steer_obstacles.c,
 * steer_contain.c and steer_collide.c over the index of steer_env.c; parameters and .steer
 * files in steer_params.c. */
#include <patrol/steer.h>

#include "base/pcg.h"
#include "nav/steer_shared.h"

#include <math.h>
#include <stddef.h>

#include <string.h>

/* ---- vehicle ------------------------------------------------------------------------- */

void pt_vehicle_resolve(pt_vehicle *v) {
    if (!(v->mass > 0)) v->mass = 1.0;
    if (!(v->max_speed > 0)) v->max_speed = 3.0;
    if (!(v->max_force > 0)) v->max_force = 10.0;
    if (!(v->max_turn_rate > 0)) v->max_turn_rate = PT_TAU;
    if (!(v->radius > 0)) v->radius = 0.35;
    if (!(v->smooth_time > 0)) v->smooth_time = 0.0;
    if (!pt_v2_is_finite(v->pos)) v->pos = pt_v2(0.0, 0.0);
    if (!pt_v2_is_finite(v->vel)) v->vel = pt_v2(0.0, 0.0);
    pt_vec2 h = pt_v2_is_finite(v->heading) ? pt_v2_norm(v->heading) : pt_v2(0.0, 0.0);
    v->heading = pt_v2_len2(h) > 0.5 ? h : pt_v2(1.0, 0.0);
    v->side = pt_v2_perp(v->heading);
    pt_vec2 s = pt_v2_is_finite(v->smooth_heading) ? pt_v2_norm(v->smooth_heading) : pt_v2(0.0, 0.0);
    v->smooth_heading = pt_v2_len2(s) > 0.5 ? s : v->heading;
}

void pt_vehicle_init(pt_vehicle *v, pt_vec2 pos, double heading) {
    memset(v, 0, sizeof *v);
    v->pos = pos;
    v->heading = pt_v2_from_angle(heading);
    pt_vehicle_resolve(v);
}

/* Signed angle from unit vector a to unit vector b (clockwise on screen is positive). */
static inline double angle_between(pt_vec2 a, pt_vec2 b) { return atan2(pt_v2_cross(a, b), pt_v2_dot(a, b)); }

void pt_vehicle_update(pt_vehicle *v, pt_vec2 force, double dt) { pt__vehicle_update(v, force, dt); }

/* Rotates the heading toward dir (unit) by at most lim radians; returns the angle left. */
static double turn_heading(pt_vehicle *v, pt_vec2 dir, double lim) {
    double ang = angle_between(v->heading, dir);
    if (fabs(ang) <= lim) {
        v->heading = dir;
        return 0.0;
    }
    v->heading = pt_v2_norm(pt_v2_rotate(v->heading, ang > 0 ? lim : -lim));
    return fabs(ang) - lim;
}

void pt_vehicle_update_facing(pt_vehicle *v, pt_vec2 force, pt_vec2 face, double dt) {
    if (!(dt > 0) || !isfinite(dt)) return;
    pt_vec2 nv = pt__integrate_velocity(v, force, dt);
    if (pt_v2_len(nv) <= PT__STOP_SPEED) nv = pt_v2(0.0, 0.0);
    v->vel = nv;
    v->pos = pt_v2_add(v->pos, pt_v2_scale(nv, dt));
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(pt__finite_or_zero(face), v->pos));
    if (pt_v2_len2(dir) > 0.5) turn_heading(v, dir, v->max_turn_rate * dt);
    v->side = pt_v2_perp(v->heading);
    pt__smooth(v, dt);
}

int pt_vehicle_turn_toward(pt_vehicle *v, pt_vec2 point, double dt) {
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(pt__finite_or_zero(point), v->pos));
    if (pt_v2_len2(dir) < 0.5) return 1;
    double lim = (dt > 0 && isfinite(dt)) ? v->max_turn_rate * dt : 0.0;
    pt_vec2 old = v->heading;
    double left = turn_heading(v, dir, lim);
    /* The velocity turns with the heading (same rotation). */
    double rot = angle_between(old, v->heading);
    v->vel = pt_v2_rotate(v->vel, rot);
    v->side = pt_v2_perp(v->heading);
    pt__smooth(v, dt > 0 ? dt : 0.0);
    return left < 1e-3;
}

/* ---- behaviours without geometry ----------------------------------------------------- */

pt_vec2 pt_steer_seek(const pt_vehicle *v, pt_vec2 target) {
    return pt__v2(pt__seek_1(pt__vv(v->pos), pt__vv(v->vel), pt__vv(target), v->max_speed));
}

/* Flee without the panic test (evade uses it; Buckland's evade did the same). */
static pt_vec2 flee_raw(const pt_vehicle *v, pt_vec2 target) {
    pt_vec2 away = pt_v2_norm(pt_v2_sub(v->pos, target));
    if (pt_v2_len2(away) < 0.5) away = v->heading; /* on top of it: run straight ahead */
    return pt__finite_or_zero(pt_v2_sub(pt_v2_scale(away, v->max_speed), v->vel));
}

pt_vec2 pt_steer_flee(const pt_vehicle *v, pt_vec2 target, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    if (pt_v2_dist2(v->pos, target) > p->panic_distance * p->panic_distance) return pt_v2(0.0, 0.0);
    return flee_raw(v, target);
}

pt_vec2 pt_steer_arrive(const pt_vehicle *v, pt_vec2 target, pt_decel decel, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    if (decel < PT_DECEL_FAST || decel > PT_DECEL_SLOW) decel = p->deceleration;
    if (decel < PT_DECEL_FAST || decel > PT_DECEL_SLOW) decel = PT_DECEL_NORMAL;
    return pt__v2(pt__arrive_1(pt__vv(v->pos), pt__vv(v->vel), pt__vv(target), v->max_speed,
                               (double)decel * p->decel_tweak));
}

/* Distance / (sum of speeds), 0 when both are still (no division by zero). */
static double look_ahead(double dist, double speed_sum) { return speed_sum > PT_EPS ? dist / speed_sum : 0.0; }

pt_vec2 pt_steer_pursuit(const pt_vehicle *v, const pt_vehicle *evader, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    /* Ahead and facing us: within facing_angle of head-on. */
    PT__MEMO pt__trig_memo facing;
    double fc, fs;
    pt__trig(&facing, p->facing_angle, &fc, &fs);
    return pt__v2(pt__pursuit_1(pt__vv(v->pos), pt__vv(v->vel), pt__vv(v->heading), evader, v->max_speed,
                                v->max_speed, -fc, p->turn_around_time));
}

pt_vec2 pt_steer_evade(const pt_vehicle *v, const pt_vehicle *pursuer, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    pt_vec2 to = pt_v2_sub(pursuer->pos, v->pos);
    if (pt_v2_len2(to) > p->threat_range * p->threat_range) return pt_v2(0.0, 0.0);
    double t = look_ahead(pt_v2_len(to), v->max_speed + pt_vehicle_speed(pursuer));
    return flee_raw(v, pt_v2_add(pursuer->pos, pt_v2_scale(pursuer->vel, t)));
}

pt_vec2 pt_steer_intercept(const pt_vehicle *v, const pt_vehicle *target) {
    pt_vec2 sr = pt_v2_sub(target->pos, v->pos);
    double dist = pt_v2_len(sr);
    /* Closing speed: how fast the distance shrinks (Bourg divides by it unguarded). */
    double closing = pt_v2_dot(pt_v2_sub(v->vel, target->vel), pt_v2_norm(sr));
    double t = closing > 1e-6 ? dist / closing : look_ahead(dist, v->max_speed + pt_vehicle_speed(target));
    if (t > PT_STEER_INTERCEPT_MAX_T) t = PT_STEER_INTERCEPT_MAX_T;
    return pt_steer_seek(v, pt_v2_add(target->pos, pt_v2_scale(target->vel, t)));
}

pt_vec2 pt_steer_wander(const pt_vehicle *v, pt_wander *w, pt_rng *rng, double dt, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    if (!(dt > 0) || !isfinite(dt)) dt = 0.0;
    pt_vec2 t = pt__wander_jitter(w, rng, p->wander_jitter * dt, p->wander_radius);
    pt__vv_1 target;
    pt_vec2 f = pt__v2(pt__wander_to_1(pt__vv(t), pt__vv(v->heading), p->wander_radius, p->wander_distance, &target));
    w->target = pt__v2(target);
    return f;
}

pt_vec2 pt_steer_interpose(const pt_vehicle *v, const pt_vehicle *a, const pt_vehicle *b, const pt_steer_params *p) {
    pt_vec2 mid = pt_v2_scale(pt_v2_add(a->pos, b->pos), 0.5);
    double t = v->max_speed > PT_EPS ? pt_v2_dist(v->pos, mid) / v->max_speed : 0.0;
    pt_vec2 ap = pt_v2_add(a->pos, pt_v2_scale(a->vel, t));
    pt_vec2 bp = pt_v2_add(b->pos, pt_v2_scale(b->vel, t));
    return pt_steer_arrive(v, pt_v2_scale(pt_v2_add(ap, bp), 0.5), PT_DECEL_FAST, p);
}

pt_vec2 pt_steer_offset_pursuit(const pt_vehicle *v, const pt_vehicle *leader, pt_vec2 offset,
                                const pt_steer_params *p) {
    pt_vec2 slot = pt_v2_to_world(offset, leader->pos, leader->heading);
    pt_vec2 to = pt_v2_sub(slot, v->pos);
    double t = look_ahead(pt_v2_len(to), v->max_speed + pt_vehicle_speed(leader));
    return pt_steer_arrive(v, pt_v2_add(slot, pt_v2_scale(leader->vel, t)), PT_DECEL_FAST, p);
}

/* ---- hide ---------------------------------------------------------------------------- */

int pt_steer_hiding_spot(const pt_obstacle *ob, pt_vec2 hunter, const pt_steer_params *p, pt_vec2 *out) {
    if (!p) p = pt_steer_params_builtin();
    pt_vec2 c = pt_v2(ob->x, ob->y);
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(c, hunter));
    if (pt_v2_len2(dir) < 0.5) return 0;
    *out = pt_v2_add(c, pt_v2_scale(dir, ob->r + p->hide_distance));
    return 1;
}

pt_vec2 pt_steer_hide(const pt_vehicle *v, const pt_vehicle *hunter, const pt_steer_env *env,
                      const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    int found = 0;
    double best_d2 = 0;
    pt_vec2 best = pt_v2(0.0, 0.0);
    for (int i = 0; env && i < env->nobstacles; i++) {
        pt_vec2 spot;
        if (!pt_steer_hiding_spot(&env->obstacles[i], hunter->pos, p, &spot)) continue;
        if (env->map && !pt_map_walkable(env->map, (int)floor(spot.x), (int)floor(spot.y))) continue;
        double d2 = pt_v2_dist2(spot, v->pos);
        if (!found || d2 < best_d2) {
            found = 1;
            best_d2 = d2;
            best = spot;
        }
    }
    /* An explicit flag, not a sentinel distance: Buckland compared against the wrong
     * sentinel, so evade never ran. */
    if (!found) return pt_steer_evade(v, hunter, p);
    return pt_steer_arrive(v, best, PT_DECEL_FAST, p);
}

void pt__path_next(pt_path *path) {
    /* Open paths stop advancing at the last point (Buckland's iterator ran past the end). */
    if (path->current < path->n - 1) path->current++;
    else if (path->closed && path->n > 1) path->current = 0;
}

/* Follow path's step along path: a current index out of range put back on the path, then
 * on to the next waypoint when pos is within waypoint_distance of the current one. */
static void path_advance(pt_path *path, pt_vec2 pos, const pt_steer_params *p) {
    int n = path->n, looped = path->closed && n > 1;
    if (path->current < 0 || path->current >= n) path->current = looped ? 0 : (path->current < 0 ? 0 : n - 1);
    double wd = p->waypoint_distance;
    if (pt_v2_dist2(path->pts[path->current], pos) < wd * wd) pt__path_next(path);
}

pt_vec2 pt__path_seek_point(const pt_path *path, pt_vec2 pos, const pt_steer_params *p) {
    if (!path || !path->pts || path->n <= 0) return pos;
    pt_path q = *path; /* the step on a copy: the path is not advanced */
    path_advance(&q, pos, pt__params_or_default(p));
    return q.pts[q.current];
}

pt_vec2 pt_steer_follow_path(const pt_vehicle *v, pt_path *path, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    if (!path || !path->pts || path->n <= 0) return pt_v2(0.0, 0.0);
    path_advance(path, v->pos, p);
    pt_vec2 wp = path->pts[path->current];
    int looped = path->closed && path->n > 1;
    if (!looped && path->current == path->n - 1) return pt_steer_arrive(v, wp, PT_DECEL_NORMAL, p);
    return pt_steer_seek(v, wp);
}

pt_vec2 pt_steer_follow_corridor(const pt_vehicle *v, const pt_path *path, const pt_steer_params *p) {
    p = pt__params_or_default(p);
    if (!path || !path->pts || path->n <= 0) return pt_v2(0.0, 0.0);
    int n = path->n;
    if (n == 1) return pt_steer_arrive(v, path->pts[0], PT_DECEL_NORMAL, p);
    int closed = path->closed != 0;
    int nseg = closed ? n : n - 1;
    pt_vec2 pred = pt_v2_add(v->pos, pt_v2_scale(v->vel, p->path_predict));
    /* Nearest normal point over all segments; the segment parameter is clamped to [0,1]
     * (seed 004 tested only x against the ends, which fails on vertical segments). */
    int best = -1;
    double best_d2 = 0.0;
    pt_vec2 best_q = pred;
    for (int i = 0; i < nseg; i++) {
        pt_vec2 a = path->pts[i], b = path->pts[(i + 1) % n];
        pt_vec2 ab = pt_v2_sub(b, a);
        double l2 = pt_v2_len2(ab);
        double t = l2 > 0 ? pt_clamp(pt_v2_dot(pt_v2_sub(pred, a), ab) / l2, 0.0, 1.0) : 0.0;
        pt_vec2 q = pt_v2_add(a, pt_v2_scale(ab, t));
        double d2 = pt_v2_dist2(pred, q);
        if (best < 0 || d2 < best_d2) {
            best = i;
            best_d2 = d2;
            best_q = q;
        }
    }
    /* Walk path_ahead along the path from the normal point. */
    double left = p->path_ahead;
    int seg = best, at_end = 0;
    pt_vec2 cur = best_q, target = best_q;
    for (int guard = 0; guard <= nseg; guard++) {
        pt_vec2 b = path->pts[(seg + 1) % n];
        double l = pt_v2_dist(cur, b);
        if (left <= l) {
            target = pt_v2_add(cur, pt_v2_scale(pt_v2_norm(pt_v2_sub(b, cur)), left));
            break;
        }
        left -= l;
        cur = b;
        target = b;
        if (!closed && seg + 1 >= n - 1) {
            at_end = 1;
            break;
        }
        seg = (seg + 1) % nseg;
    }
    if (at_end) return pt_steer_arrive(v, path->pts[n - 1], PT_DECEL_NORMAL, p);
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(path->pts[(best + 1) % n], path->pts[best]));
    double r = path->radius > 0 ? path->radius : p->path_radius;
    int inside = best_d2 <= r * r;
    /* Inside the corridor and already cruising along it: leave the vehicle alone (seed 004).
     * A vehicle at rest or going backwards is started toward the target. */
    if (inside && pt_v2_dot(v->vel, dir) >= 0.9 * v->max_speed) return pt_v2(0.0, 0.0);
    return pt_steer_seek(v, target);
}

/* Direction for two coincident agents: a fixed angle per unordered pair, opposite signs for
 * the two members, so they separate instead of producing 0/0. */
pt_vec2 pt__steer_coincident_dir(int self, int other) {
    unsigned lo = (unsigned)(self < other ? self : other), hi = (unsigned)(self < other ? other : self);
    uint32_t h = lo * 2654435761u ^ (hi + 0x9e3779b9u) * 2246822519u;
    h ^= h >> 15;
    double a = (double)(h & 0xffff) * (PT_TAU / 65536.0);
    pt_vec2 d = pt_v2_from_angle(a);
    return self <= other ? d : pt_v2_neg(d);
}


pt_vec2 pt_steer_separation(const pt_vehicle *v, const pt_neighbors *nb) {
    pt_vec2 f = pt_v2(0.0, 0.0);
    if (!nb || !nb->agents || !nb->ids) return f;
    for (int k = 0; k < nb->count; k++) {
        int id = nb->ids[k];
        if (id == nb->self) continue;
        const pt_vehicle *o = pt_neighbors_get(nb, id);
        if (o == v) continue;
        pt_vec2 to = pt_v2_sub(v->pos, o->pos);
        double d = pt_v2_len(to);
        if (!isfinite(d)) continue;
        if (d < 1e-9) {
            f = pt_v2_add(f, pt_v2_scale(pt__steer_coincident_dir(nb->self, id), 1.0 / PT__SEP_MIN_DIST));
            continue;
        }
        double m = d > PT__SEP_MIN_DIST ? d : PT__SEP_MIN_DIST;
        f = pt_v2_add(f, pt_v2_scale(to, 1.0 / (d * m))); /* unit away / distance */
    }
    return f;
}

/* Mean of one vector field (heading, pos) over the neighbours other than v, skipping
 * non-finite values; 0 when there are none. */
static int neighbour_mean(const pt_vehicle *v, const pt_neighbors *nb, size_t field, pt_vec2 *mean) {
    pt_vec2 sum = pt_v2(0.0, 0.0);
    int count = 0;
    if (!nb || !nb->agents || !nb->ids) return 0;
    for (int k = 0; k < nb->count; k++) {
        int id = nb->ids[k];
        if (id == nb->self) continue;
        const pt_vehicle *o = pt_neighbors_get(nb, id);
        const pt_vec2 *val = (const pt_vec2 *)((const char *)o + field);
        if (o == v || !pt_v2_is_finite(*val)) continue;
        sum = pt_v2_add(sum, *val);
        count++;
    }
    if (count) *mean = pt_v2_scale(sum, 1.0 / count);
    return count;
}

pt_vec2 pt_steer_alignment(const pt_vehicle *v, const pt_neighbors *nb) {
    pt_vec2 mean;
    if (!neighbour_mean(v, nb, offsetof(pt_vehicle, heading), &mean)) return pt_v2(0.0, 0.0);
    return pt__steer_align_to(v, mean);
}

pt_vec2 pt_steer_cohesion(const pt_vehicle *v, const pt_neighbors *nb) {
    pt_vec2 mean;
    if (!neighbour_mean(v, nb, offsetof(pt_vehicle, pos), &mean)) return pt_v2(0.0, 0.0);
    return pt__steer_cohere_to(v, mean);
}

/* ---- combiners ----------------------------------------------------------------------- */

pt_vec2 pt_steer_combine_weighted(const pt_vec2 *forces, int n, double max_force) {
    pt__vv_1 sum = {0.0, 0.0};
    double tlen = 0.0;
    for (int i = 0; i < n; i++) pt__accumulate_1(&sum, &tlen, pt__vv(pt__finite_or_zero(forces[i])), NULL, 1, 1, max_force, 0, 1);
    return pt__v2(pt__vvtrunc_1(sum, max_force));
}

/* Buckland's AccumulateForce: each force adds as much of itself as the remaining budget
 * allows; none is added once no budget is left. A clipped add can leave |total| below
 * max_force (vectors, not magnitudes, add up): the next force may still add some. */
pt_vec2 pt_steer_combine_prioritised(const pt_vec2 *forces, int n, double max_force) {
    pt__vv_1 total = {0.0, 0.0};
    double tlen = 0.0;
    for (int i = 0; i < n; i++) {
        if (!pt__active_1(tlen, 0, max_force)) break;
        pt__accumulate_1(&total, &tlen, pt__vv(pt__finite_or_zero(forces[i])), NULL, 1, 0, max_force, i == 0, 0);
    }
    return pt__v2(pt__vvtrunc_1(total, max_force));
}

pt_vec2 pt_steer_combine_dithered(const pt_vec2 *forces, const double *probs, int n, double max_force, pt_rng *rng) {
    for (int i = 0; i < n; i++) {
        double pr = probs[i];
        if (!(pr > 0)) continue;
        if (pt_rng_unit(rng) >= pr) continue;
        pt_vec2 f = pt__finite_or_zero(pt_v2_scale(forces[i], 1.0 / pr));
        if (f.x != 0.0 || f.y != 0.0) return pt_v2_truncate(f, max_force);
    }
    return pt_v2(0.0, 0.0);
}

/* ---- agents -------------------------------------------------------------------------- */

void pt_steer_agent_init(pt_steer_agent *a, const pt_vehicle *veh, const pt_steer_params *params, uint64_t seed,
                         uint64_t stream) {
    memset(a, 0, sizeof *a);
    if (veh) a->veh = *veh;
    a->params = params;
    if (params) pt_steer_params_apply(params, &a->veh);
    pt_vehicle_resolve(&a->veh);
    if (params && params->behaviours) a->behaviours = params->behaviours;
    pt_rng_seed(&a->rng, seed, stream);
}


pt_vec2 pt_steer_force(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_behaviour b) {
    return pt__steer_force_inline(a, ctx, b);
}

pt_vec2 pt__steer_calculate_group(pt_steer_agent *a, const pt_steer_ctx *ctx, const pt_vec2 *group) {
    return pt__steer_calculate_inline(a, ctx, group);
}

pt_vec2 pt_steer_calculate(pt_steer_agent *a, const pt_steer_ctx *ctx) { return pt__steer_calculate_group(a, ctx, NULL); }

void pt_steer_agent_update(pt_steer_agent *a, const pt_steer_ctx *ctx, pt_vec2 force, double dt) {
    pt__steer_agent_update_inline(a, ctx, force, dt);
}
