/* SPDX-License-Identifier: Zlib */
/* Steering: the vehicle integrator, every behaviour against hand-computed cases, the
 * combiners, the known defects of the source listings (regressions), and behaviour over
 * many ticks (arrive, pursuit, paths) with no NaN/Inf ever. Geometry (walls, obstacles,
 * collision, long simulations) is in check_steer_env.c. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/steer.h>

#define DT (1.0 / 60.0)
#define TOL 1e-9

static pt_vehicle veh_at(double x, double y, double heading) {
    pt_vehicle v;
    pt_vehicle_init(&v, pt_v2(x, y), heading);
    return v;
}

#define ck_vec_eq(v, ex, ey, tol)                                                                              \
    do {                                                                                                       \
        pt_vec2 v__ = (v);                                                                                     \
        ck_assert_msg(fabs(v__.x - (ex)) <= (tol) && fabs(v__.y - (ey)) <= (tol), "got (%.9f, %.9f), want (%.9f, %.9f)", \
                      v__.x, v__.y, (double)(ex), (double)(ey));                                               \
    } while (0)

static int finite2(pt_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/* ---- vehicle ------------------------------------------------------------------------- */

START_TEST(test_vehicle_defaults) {
    pt_vehicle v;
    memset(&v, 0, sizeof v);
    pt_vehicle_resolve(&v);
    ck_assert_double_eq(v.mass, 1.0);
    ck_assert_double_eq(v.max_speed, 3.0);
    ck_assert_double_eq(v.max_force, 10.0);
    ck_assert_double_eq_tol(v.max_turn_rate, 2.0 * 3.14159265358979, 1e-9);
    ck_assert_double_eq(v.radius, 0.35);
    ck_assert_double_eq(v.smooth_time, 0.0);
    ck_vec_eq(v.heading, 1, 0, 0);
    ck_vec_eq(v.side, 0, 1, 0); /* right of east is south on screen (y down) */
    pt_vehicle w = veh_at(2, 3, 3.14159265358979 / 2);
    ck_vec_eq(w.pos, 2, 3, 0);
    ck_vec_eq(w.heading, 0, 1, 1e-12);
    ck_vec_eq(w.side, -1, 0, 1e-12);
    /* a non-unit heading is normalised, a NaN one repaired */
    memset(&v, 0, sizeof v);
    v.heading = pt_v2(0, 5);
    pt_vehicle_resolve(&v);
    ck_vec_eq(v.heading, 0, 1, 0);
    v.heading = pt_v2(NAN, 1);
    pt_vehicle_resolve(&v);
    ck_vec_eq(v.heading, 1, 0, 0);
}
END_TEST

/* Random forces for many ticks: speed <= max_speed, heading unit and turning at most
 * max_turn_rate*dt per tick, side = perp(heading), velocity along the heading. */
START_TEST(test_vehicle_limits_over_ticks) {
    pt_rng r;
    pt_rng_seed(&r, 5, 1);
    pt_vehicle v = veh_at(0, 0, 0);
    v.max_turn_rate = 3.0;
    long bad = 0;
    for (int t = 0; t < 20000; t++) {
        pt_vec2 f = pt_v2(pt_rng_signed(&r) * 40, pt_rng_signed(&r) * 40);
        pt_vec2 h0 = v.heading;
        pt_vehicle_update(&v, f, DT);
        double turn = fabs(atan2(pt_v2_cross(h0, v.heading), pt_v2_dot(h0, v.heading)));
        double sp = pt_vehicle_speed(&v);
        if (sp > v.max_speed + 1e-12) bad++;
        if (turn > v.max_turn_rate * DT + 1e-9) bad++;
        if (fabs(pt_v2_len(v.heading) - 1.0) > 1e-9) bad++;
        if (fabs(v.side.x + v.heading.y) > 1e-12 || fabs(v.side.y - v.heading.x) > 1e-12) bad++;
        if (sp > 0 && fabs(pt_v2_cross(v.heading, v.vel)) > 1e-9 * (1 + sp)) bad++;
        if (pt_v2_dot(v.heading, v.vel) < -1e-12) bad++;
        if (!finite2(v.pos)) bad++;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_vehicle_hand_cases) {
    /* straight acceleration: force 6 along the heading, mass 2: dv = 3 * dt */
    pt_vehicle v = veh_at(0, 0, 0);
    v.mass = 2;
    pt_vehicle_update(&v, pt_v2(6, 0), 0.1);
    ck_vec_eq(v.vel, 0.3, 0, 1e-12);
    ck_vec_eq(v.pos, 0.03, 0, 1e-12);
    /* force truncated to max_force (10): 100 along x gives dv = 10/2 * 0.1 */
    pt_vehicle_update(&v, pt_v2(100, 0), 0.1);
    ck_vec_eq(v.vel, 0.8, 0, 1e-12);
    /* zero force, at rest: nothing moves, heading kept */
    pt_vehicle w = veh_at(1, 1, 1.0);
    pt_vec2 h = w.heading;
    for (int i = 0; i < 100; i++) pt_vehicle_update(&w, pt_v2(0, 0), DT);
    ck_vec_eq(w.pos, 1, 1, 0);
    ck_vec_eq(w.heading, h.x, h.y, 0);
    /* non-finite force and dt are ignored */
    pt_vehicle_update(&w, pt_v2(NAN, INFINITY), DT);
    pt_vehicle_update(&w, pt_v2(1, 0), NAN);
    ck_vec_eq(w.pos, 1, 1, 0);
}
END_TEST

/* Asked to reverse at full speed: it brakes, stops, turns on the spot (one direction, no
 * dithering) and leaves the other way; it never slides backwards. */
START_TEST(test_vehicle_reverse_stops_and_turns) {
    pt_vehicle v = veh_at(0, 0, 0);
    v.vel = pt_v2(3, 0);
    int stopped_at = -1, turned_at = -1;
    double prev_angle = 0;
    int dir_changes = 0, last_sign = 0;
    for (int t = 0; t < 300; t++) {
        pt_vec2 f = pt_v2_scale(pt_v2_sub(pt_v2(-3, 0), v.vel), 10); /* seek west */
        pt_vehicle_update(&v, f, DT);
        ck_assert(pt_v2_dot(v.vel, v.heading) >= 0);
        if (stopped_at < 0 && pt_vehicle_speed(&v) == 0) stopped_at = t;
        double a = atan2(v.heading.y, v.heading.x);
        double d = pt_wrap_angle(a - prev_angle);
        int s = d > 1e-12 ? 1 : (d < -1e-12 ? -1 : 0);
        if (s && last_sign && s != last_sign) dir_changes++;
        if (s) last_sign = s;
        prev_angle = a;
        if (turned_at < 0 && v.heading.x < -0.999) turned_at = t;
    }
    ck_assert_int_ge(stopped_at, 0);
    ck_assert_int_gt(turned_at, stopped_at);
    /* 180 degrees at 2*pi rad/s takes 0.5 s = 30 ticks */
    ck_assert_int_le(turned_at - stopped_at, 40);
    ck_assert_int_eq(dir_changes, 0);
    ck_assert(v.vel.x < -2.9);
}
END_TEST

START_TEST(test_vehicle_turn_toward_and_facing) {
    pt_vehicle v = veh_at(0, 0, 0);
    int ticks = 0;
    while (!pt_vehicle_turn_toward(&v, pt_v2(-5, 0), DT) && ticks < 1000) ticks++;
    /* 180 degrees at 2*pi rad/s: 30 ticks (+1 for the last partial one) */
    ck_assert_int_ge(ticks, 29);
    ck_assert_int_le(ticks, 31);
    ck_vec_eq(v.heading, -1, 0, 1e-9);
    ck_vec_eq(v.pos, 0, 0, 0);
    ck_assert_int_eq(pt_vehicle_turn_toward(&v, v.pos, DT), 1); /* the point itself: facing */

    /* strafing: moves east while looking north */
    pt_vehicle w = veh_at(0, 0, 0);
    for (int t = 0; t < 120; t++) {
        pt_vec2 h0 = w.heading;
        pt_vehicle_update_facing(&w, pt_v2(10, 0), pt_v2(w.pos.x, -100), DT);
        double turn = fabs(atan2(pt_v2_cross(h0, w.heading), pt_v2_dot(h0, w.heading)));
        ck_assert(turn <= w.max_turn_rate * DT + 1e-9);
    }
    ck_vec_eq(w.heading, 0, -1, 1e-3); /* the face point trails the motion by a tick */
    ck_assert(w.vel.x > 2.9 && fabs(w.vel.y) < 1e-12);
}
END_TEST

START_TEST(test_vehicle_heading_smoothing) {
    pt_vehicle v = veh_at(0, 0, 0);
    v.smooth_time = 0.25;
    pt_vehicle_resolve(&v);
    pt_vehicle ref = v;
    ref.smooth_time = 0;
    pt_rng r;
    pt_rng_seed(&r, 9, 9);
    double max_lag = 0;
    for (int t = 0; t < 600; t++) {
        pt_vec2 f = pt_v2(pt_rng_signed(&r) * 10, pt_rng_signed(&r) * 10);
        pt_vehicle_update(&v, f, DT);
        pt_vehicle_update(&ref, f, DT);
        /* smoothing never changes the motion */
        ck_assert(v.pos.x == ref.pos.x && v.pos.y == ref.pos.y);
        ck_assert(fabs(pt_v2_len(v.smooth_heading) - 1) < 1e-9);
        ck_assert(ref.smooth_heading.x == ref.heading.x && ref.smooth_heading.y == ref.heading.y);
        double lag = pt_acos(pt_v2_dot(v.smooth_heading, v.heading));
        if (lag > max_lag) max_lag = lag;
    }
    ck_assert(max_lag > 0.01); /* it does lag */
    /* and converges once the heading holds still */
    for (int t = 0; t < 300; t++) pt_vehicle_update(&v, pt_v2(0, 0), DT);
    ck_assert(pt_v2_dot(v.smooth_heading, v.heading) > 1 - 1e-9);
}
END_TEST

/* ---- behaviours: hand-computed ------------------------------------------------------- */

START_TEST(test_seek_flee_arrive_hand) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle v = veh_at(0, 0, 0);
    ck_vec_eq(pt_steer_seek(&v, pt_v2(3, 4)), 1.8, 2.4, TOL);
    v.vel = pt_v2(1, 0);
    ck_vec_eq(pt_steer_seek(&v, pt_v2(3, 4)), 0.8, 2.4, TOL);
    v.vel = pt_v2(1, 2);
    ck_vec_eq(pt_steer_seek(&v, v.pos), -1, -2, TOL); /* zero distance: brake */

    v.vel = pt_v2(0, 0);
    ck_vec_eq(pt_steer_flee(&v, pt_v2(3, 0), &p), -3, 0, TOL);   /* inside panic distance 4 */
    ck_vec_eq(pt_steer_flee(&v, pt_v2(5, 0), &p), 0, 0, 0);      /* outside */
    v.heading = pt_v2(0, 1);
    ck_vec_eq(pt_steer_flee(&v, v.pos, &p), 0, 3, TOL);          /* on top: along the heading */

    v = veh_at(0, 0, 0);
    /* speed = dist / (decel * 0.3): normal 1.2/0.6 = 2, slow 1.2/0.9, fast 4 -> max 3 */
    ck_vec_eq(pt_steer_arrive(&v, pt_v2(1.2, 0), PT_DECEL_NORMAL, &p), 2, 0, TOL);
    ck_vec_eq(pt_steer_arrive(&v, pt_v2(1.2, 0), PT_DECEL_SLOW, &p), 1.2 / 0.9, 0, TOL);
    ck_vec_eq(pt_steer_arrive(&v, pt_v2(1.2, 0), PT_DECEL_FAST, &p), 3, 0, TOL);
    ck_vec_eq(pt_steer_arrive(&v, pt_v2(0, -0.3), PT_DECEL_DEFAULT, &p), 0, -0.5, TOL); /* default normal */
    v.vel = pt_v2(1, 1);
    ck_vec_eq(pt_steer_arrive(&v, v.pos, PT_DECEL_NORMAL, &p), -1, -1, TOL);
    /* NULL params = defaults */
    ck_vec_eq(pt_steer_arrive(&v, pt_v2(1.2, 0), PT_DECEL_NORMAL, NULL), 1, -1, TOL);
}
END_TEST

START_TEST(test_pursuit_evade_intercept_hand) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle v = veh_at(0, 0, 0);
    /* head-on (within 18 degrees): seek the evader itself */
    pt_vehicle e = veh_at(10, 0, 3.14159265358979);
    e.vel = pt_v2(-2, 0);
    ck_vec_eq(pt_steer_pursuit(&v, &e, &p), 3, 0, TOL);
    /* crossing: look-ahead 10 / (3 + 2) = 2 s, dead ahead so no turn-around time */
    e = veh_at(10, 0, 3.14159265358979 / 2);
    e.vel = pt_v2(0, 2);
    double l = sqrt(10 * 10 + 4 * 4);
    ck_vec_eq(pt_steer_pursuit(&v, &e, &p), 3 * 10 / l, 3 * 4 / l, TOL);
    /* behind: + (1 - cos 180) * 0.5 = 1 s: aims at (-10, 6) */
    e.pos = pt_v2(-10, 0);
    l = sqrt(10 * 10 + 6 * 6);
    ck_vec_eq(pt_steer_pursuit(&v, &e, &p), -3 * 10 / l, 3 * 6 / l, TOL);

    /* evade: pursuer at 3 (< threat range 5) moving at 1: t = 3/4, flee from (2.25,0) */
    pt_vehicle pu = veh_at(3, 0, 3.14159265358979);
    pu.vel = pt_v2(-1, 0);
    ck_vec_eq(pt_steer_evade(&v, &pu, &p), -3, 0, TOL);
    pu.pos = pt_v2(6, 0);
    ck_vec_eq(pt_steer_evade(&v, &pu, &p), 0, 0, 0);

    /* intercept, not closing: t = 10 / (3 + 1) = 2.5 -> aims at (10, 2.5) */
    pt_vehicle tg = veh_at(10, 0, 0);
    tg.vel = pt_v2(0, 1);
    l = sqrt(100 + 2.5 * 2.5);
    ck_vec_eq(pt_steer_intercept(&v, &tg), 3 * 10 / l, 3 * 2.5 / l, TOL);
    /* closing at 2: t = 5, capped at 3 s -> (10, 3); minus own velocity */
    v.vel = pt_v2(2, 0);
    l = sqrt(100 + 9);
    ck_vec_eq(pt_steer_intercept(&v, &tg), 3 * 10 / l - 2, 3 * 3 / l, TOL);
    /* closing at 5 (head-on): t = 10/5 = 2 -> (10, 2) */
    tg.vel = pt_v2(-3, 0);
    ck_vec_eq(pt_steer_intercept(&v, &tg), 3 - 2, 0, TOL);
}
END_TEST

START_TEST(test_interpose_offset_hand) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle v = veh_at(0, 0, 0);
    pt_vehicle a = veh_at(4, 0, 0), b = veh_at(4, 6, 0);
    /* midpoint (4,3) at distance 5: arrive fast -> full speed toward it */
    ck_vec_eq(pt_steer_interpose(&v, &a, &b, &p), 2.4, 1.8, TOL);
    /* a moves at (0,1): t = 5/3, a' = (4, 5/3), mid' = (4, (5/3 + 6)/2) */
    a.vel = pt_v2(0, 1);
    double my = (5.0 / 3.0 + 6.0) / 2.0, l = sqrt(16 + my * my);
    ck_vec_eq(pt_steer_interpose(&v, &a, &b, &p), 3 * 4 / l, 3 * my / l, TOL);

    pt_vehicle lead = veh_at(10, 10, 0);
    pt_vehicle f = veh_at(8, 11, 0);
    /* slot (-2 behind, 1 to the right) = (8, 11): already there */
    ck_vec_eq(pt_steer_offset_pursuit(&f, &lead, pt_v2(-2, 1), &p), 0, 0, TOL);
    f.pos = pt_v2(0, 11);
    ck_vec_eq(pt_steer_offset_pursuit(&f, &lead, pt_v2(-2, 1), &p), 3, 0, TOL);
    /* leader facing south: its right is west: slot (10,10) + (0,-2) + (-1,0) */
    lead = veh_at(10, 10, 3.14159265358979 / 2);
    f.pos = pt_v2(9, 8.3); /* 0.3 from the slot: fast arrive 0.3/0.3 = 1 tile/s */
    ck_vec_eq(pt_steer_offset_pursuit(&f, &lead, pt_v2(-2, 1), &p), 0, -1, TOL);
}
END_TEST

static pt_neighbors nb_of(const pt_vehicle *all, const int *ids, int n, int self) {
    pt_neighbors nb = {all, 0, ids, n, self};
    return nb;
}

START_TEST(test_group_hand) {
    pt_vehicle all[4];
    all[0] = veh_at(0, 0, 0);
    all[1] = veh_at(1, 0, 3.14159265358979 / 2);
    all[2] = veh_at(0, 2, 3.14159265358979 / 2);
    all[3] = veh_at(50, 50, 0);
    int ids[] = {0, 1, 2};
    pt_neighbors nb = nb_of(all, ids, 3, 0); /* self in the list is skipped */
    ck_vec_eq(pt_steer_separation(&all[0], &nb), -1, -0.5, TOL);
    /* mean heading (0,1) - (1,0) = (-1,1); its sideways part along side (0,1) is (0,1) */
    ck_vec_eq(pt_steer_alignment(&all[0], &nb), 0, 1, TOL);
    /* centre (0.5, 1): normalised seek from rest */
    double l = sqrt(0.25 + 1);
    ck_vec_eq(pt_steer_cohesion(&all[0], &nb), 0.5 / l, 1 / l, TOL);
    /* no neighbours */
    pt_neighbors none = nb_of(all, ids, 0, 0);
    ck_vec_eq(pt_steer_separation(&all[0], &none), 0, 0, 0);
    ck_vec_eq(pt_steer_alignment(&all[0], &none), 0, 0, 0);
    ck_vec_eq(pt_steer_cohesion(&all[0], &none), 0, 0, 0);
    int only_self[] = {0};
    pt_neighbors selfonly = nb_of(all, only_self, 1, 0);
    ck_vec_eq(pt_steer_cohesion(&all[0], &selfonly), 0, 0, 0);

    /* stride: vehicles embedded in a bigger struct */
    struct ent { int tag; pt_vehicle veh; double pad[3]; } ents[3];
    for (int i = 0; i < 3; i++) ents[i].veh = all[i];
    pt_neighbors snb = {&ents[0].veh, sizeof ents[0], ids, 3, 0};
    ck_vec_eq(pt_steer_separation(&ents[0].veh, &snb), -1, -0.5, TOL);
}
END_TEST

START_TEST(test_wander_circle_and_determinism) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle v = veh_at(3, 3, 0.7);
    pt_wander w1 = {{0, 0}}, w2 = {{0, 0}};
    pt_rng r1, r2;
    pt_rng_seed(&r1, 42, 7);
    pt_rng_seed(&r2, 42, 7);
    long bad = 0;
    for (int t = 0; t < 5000; t++) {
        pt_vec2 f1 = pt_steer_wander(&v, &w1, &r1, DT, &p);
        pt_vec2 f2 = pt_steer_wander(&v, &w2, &r2, DT, &p);
        if (f1.x != f2.x || f1.y != f2.y) bad++;
        /* the target stays on the circle; the force is (target + (distance, 0)) in world */
        if (fabs(pt_v2_len(w1.target) - p.wander_radius) > 1e-9) bad++;
        pt_vec2 local = pt_v2(pt_v2_dot(f1, v.heading), pt_v2_dot(f1, v.side));
        if (fabs(pt_v2_dist(local, pt_v2(p.wander_distance, 0)) - p.wander_radius) > 1e-9) bad++;
        if (local.x < p.wander_distance - p.wander_radius - 1e-9) bad++;
    }
    ck_assert_int_eq(bad, 0);
    /* the jitter per tick is at most wander_jitter * dt per axis (before re-projection) */
    pt_wander w = {{p.wander_radius, 0}};
    pt_rng r;
    pt_rng_seed(&r, 1, 1);
    pt_vec2 prev = w.target;
    double maxstep = 0;
    for (int t = 0; t < 2000; t++) {
        pt_steer_wander(&v, &w, &r, DT, &p);
        double s = pt_v2_dist(prev, w.target);
        if (s > maxstep) maxstep = s;
        prev = w.target;
    }
    ck_assert(maxstep <= p.wander_jitter * DT * sqrt(2.0) + 1e-9);
    ck_assert(maxstep > 0);
}
END_TEST

/* ---- paths --------------------------------------------------------------------------- */

/* Runs an agent with one behaviour for n ticks; returns 0 on any non-finite state. */
static int run_agent(pt_steer_agent *a, const pt_steer_ctx *ctx, int n) {
    for (int t = 0; t < n; t++) {
        pt_vec2 f = pt_steer_calculate(a, ctx);
        if (!finite2(f) || pt_v2_len(f) > a->veh.max_force + 1e-9) return 0;
        pt_steer_agent_update(a, ctx, f, DT);
        if (!finite2(a->veh.pos) || !finite2(a->veh.vel)) return 0;
    }
    return 1;
}

/* Regression (Buckland's FollowPath on open paths read past the end): the follower arrives
 * at the last waypoint, stops there and its index never leaves [0, n-1]. */
START_TEST(test_follow_path_open_arrives_at_end) {
    static const pt_vec2 pts[] = {{0, 0}, {5, 0}, {5, 5}, {0, 5}};
    pt_steer_agent a;
    pt_vehicle v = veh_at(0, 0, 0);
    pt_steer_agent_init(&a, &v, NULL, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_FOLLOW_PATH);
    a.path.pts = pts;
    a.path.n = 4;
    pt_steer_ctx ctx = {0};
    ctx.dt = DT;
    int visited[4] = {0};
    for (int t = 0; t < 60 * 30; t++) {
        ck_assert(run_agent(&a, &ctx, 1));
        ck_assert(a.path.current >= 0 && a.path.current < 4);
        visited[a.path.current] = 1;
    }
    ck_assert(visited[1] && visited[2] && visited[3]);
    ck_assert_int_eq(a.path.current, 3);
    ck_assert(pt_v2_dist(a.veh.pos, pts[3]) < 0.05);
    ck_assert(pt_vehicle_speed(&a.veh) < 0.01);
    /* a one-point path: arrive at it */
    pt_path one = {pts + 1, 1, 0, 0, 0};
    pt_vehicle w = veh_at(0, 0, 0);
    ck_vec_eq(pt_steer_follow_path(&w, &one, NULL), 3, 0, TOL);
    pt_path empty = {NULL, 0, 0, 0, 0};
    ck_vec_eq(pt_steer_follow_path(&w, &empty, NULL), 0, 0, 0);
}
END_TEST

START_TEST(test_follow_path_closed_loops) {
    static const pt_vec2 pts[] = {{2, 2}, {8, 2}, {8, 8}, {2, 8}};
    pt_steer_agent a;
    pt_vehicle v = veh_at(2, 2, 0);
    pt_steer_agent_init(&a, &v, NULL, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_FOLLOW_PATH);
    a.path = (pt_path){pts, 4, 1, 0, 0};
    pt_steer_ctx ctx = {0};
    int wraps = 0, prev = a.path.current;
    double maxdev = 0;
    for (int t = 0; t < 60 * 60; t++) {
        ck_assert(run_agent(&a, &ctx, 1));
        if (a.path.current == 0 && prev == 3) wraps++;
        prev = a.path.current;
        /* never far from the square */
        double dx = fmin(fabs(a.veh.pos.x - 2), fabs(a.veh.pos.x - 8));
        double dy = fmin(fabs(a.veh.pos.y - 2), fabs(a.veh.pos.y - 8));
        if (fmin(dx, dy) > maxdev) maxdev = fmin(dx, dy);
    }
    ck_assert_int_ge(wraps, 3); /* perimeter 24 at 3 tiles/s: > 7 laps in a minute */
    ck_assert(maxdev < 1.0);
}
END_TEST

/* Seed 004's normal point tested only x against the segment ends: on a vertical segment the
 * clamp failed. The corridor follower stays within the radius on vertical and diagonal
 * legs, and arrives at the end of an open path. */
START_TEST(test_follow_corridor) {
    static const pt_vec2 pts[] = {{2, 2}, {2, 12}, {10, 20}, {20, 20}};
    pt_steer_agent a;
    pt_vehicle v = veh_at(2.3, 1.5, 1.0);
    pt_steer_agent_init(&a, &v, NULL, 3, 3);
    a.behaviours = PT_BEH_BIT(PT_BEH_FOLLOW_CORRIDOR);
    a.path = (pt_path){pts, 4, 0, 0.5, 0};
    pt_steer_ctx ctx = {0};
    double maxdev = 0;
    for (int t = 0; t < 60 * 20; t++) {
        ck_assert(run_agent(&a, &ctx, 1));
        if (t < 60) continue; /* settling onto the path */
        double best = 1e9;
        for (int i = 0; i < 3; i++) {
            pt_vec2 ab = pt_v2_sub(pts[i + 1], pts[i]);
            double u = pt_clamp(pt_v2_dot(pt_v2_sub(a.veh.pos, pts[i]), ab) / pt_v2_len2(ab), 0, 1);
            best = fmin(best, pt_v2_dist(a.veh.pos, pt_v2_add(pts[i], pt_v2_scale(ab, u))));
        }
        if (best > maxdev) maxdev = best;
    }
    ck_assert_msg(maxdev < 0.5 + 0.3, "max deviation %.3f", maxdev);
    ck_assert(pt_v2_dist(a.veh.pos, pts[3]) < 0.05);
    ck_assert(pt_vehicle_speed(&a.veh) < 0.01);

    /* closed corridor: keeps moving, stays near the loop */
    static const pt_vec2 loop[] = {{0, 0}, {0, 10}, {10, 10}, {10, 0}};
    pt_vehicle w = veh_at(0, 0, 1.57);
    pt_steer_agent_init(&a, &w, NULL, 3, 4);
    a.behaviours = PT_BEH_BIT(PT_BEH_FOLLOW_CORRIDOR);
    a.path = (pt_path){loop, 4, 1, 0.5, 0};
    double travelled = 0;
    for (int t = 0; t < 60 * 20; t++) {
        pt_vec2 p0 = a.veh.pos;
        ck_assert(run_agent(&a, &ctx, 1));
        travelled += pt_v2_dist(p0, a.veh.pos);
        double dx = fmin(fabs(a.veh.pos.x), fabs(a.veh.pos.x - 10));
        double dy = fmin(fabs(a.veh.pos.y), fabs(a.veh.pos.y - 10));
        ck_assert(fmin(dx, dy) < 1.0);
    }
    ck_assert(travelled > 40);
}
END_TEST

/* ---- over many ticks ----------------------------------------------------------------- */

/* Arrive: within 0.05 tiles of the target with speed < 0.01, and it stays so (no
 * oscillation), for every deceleration and for starts moving away from the target. */
START_TEST(test_arrive_stops_without_oscillation) {
    static const pt_decel decels[] = {PT_DECEL_FAST, PT_DECEL_NORMAL, PT_DECEL_SLOW};
    for (int d = 0; d < 3; d++)
        for (int start = 0; start < 4; start++) {
            pt_steer_params p;
            memset(&p, 0, sizeof p);
            p.deceleration = decels[d];
            pt_steer_params_resolve(&p);
            pt_steer_agent a;
            pt_vehicle v = veh_at(1 + start, 2, start * 1.7);
            v.vel = pt_v2_scale(v.heading, start * 0.9); /* some start moving the wrong way */
            pt_steer_agent_init(&a, &v, &p, 1, 1);
            a.behaviours = PT_BEH_BIT(PT_BEH_ARRIVE);
            pt_steer_ctx ctx = {0};
            ctx.target = pt_v2(9.5, 6.25);
            int settled = -1, broke = 0;
            for (int t = 0; t < 60 * 40; t++) {
                ck_assert(run_agent(&a, &ctx, 1));
                int ok = pt_v2_dist(a.veh.pos, ctx.target) < 0.05 && pt_vehicle_speed(&a.veh) < 0.01;
                if (ok && settled < 0) settled = t;
                if (!ok && settled >= 0) broke++;
            }
            ck_assert_msg(settled >= 0 && settled < 60 * 20, "decel %d start %d settled at %d", decels[d], start,
                          settled);
            ck_assert_msg(broke == 0, "decel %d start %d: left the target %d ticks after settling", decels[d], start,
                          broke);
        }
}
END_TEST

/* Pursuit catches a straight-moving evader in fewer ticks than seek. */
static int ticks_to_catch(pt_behaviour b, pt_vec2 evader_vel, pt_vec2 evader_pos) {
    pt_steer_agent a;
    pt_vehicle v = veh_at(0, 5, 0);
    pt_steer_agent_init(&a, &v, NULL, 1, 1);
    a.behaviours = PT_BEH_BIT(b);
    pt_vehicle e = veh_at(evader_pos.x, evader_pos.y, atan2(evader_vel.y, evader_vel.x));
    e.vel = evader_vel;
    pt_steer_ctx ctx = {0};
    ctx.agent1 = &e;
    for (int t = 0; t < 60 * 60; t++) {
        ctx.target = e.pos;
        if (!run_agent(&a, &ctx, 1)) return -1;
        e.pos = pt_v2_add(e.pos, pt_v2_scale(e.vel, DT));
        if (pt_v2_dist(a.veh.pos, e.pos) < a.veh.radius + e.radius) return t;
    }
    return 1 << 30;
}

START_TEST(test_pursuit_beats_seek) {
    static const struct { double vx, vy, x, y; } cases[] = {
        {0, 2, 10, 0}, {0, -2, 12, 10}, {2, 0, 6, 0}, {1.5, 1.5, 4, -4}, {-1, 2, 15, -3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_vec2 ev = pt_v2(cases[i].vx, cases[i].vy), ep = pt_v2(cases[i].x, cases[i].y);
        int tp = ticks_to_catch(PT_BEH_PURSUIT, ev, ep);
        int ti = ticks_to_catch(PT_BEH_INTERCEPT, ev, ep);
        int ts = ticks_to_catch(PT_BEH_SEEK, ev, ep);
        ck_assert_msg(tp >= 0 && tp < ts, "case %zu: pursuit %d ticks, seek %d", i, tp, ts);
        ck_assert_msg(ti >= 0 && ti < ts, "case %zu: intercept %d ticks, seek %d", i, ti, ts);
    }
}
END_TEST

/* ---- combiners ----------------------------------------------------------------------- */

START_TEST(test_combiners_hand) {
    pt_vec2 f[3] = {{3, 4}, {6, 8}, {0, 0}};
    ck_vec_eq(pt_steer_combine_weighted(f, 2, 10), 6, 8, TOL);
    ck_vec_eq(pt_steer_combine_weighted(f, 1, 10), 3, 4, TOL);
    /* running sum: (6,0) leaves 4 -> (0,4); |(6,4)| = sqrt 52 leaves 10 - sqrt 52 */
    pt_vec2 g[3] = {{6, 0}, {0, 6}, {0, 6}};
    ck_vec_eq(pt_steer_combine_prioritised(g, 3, 10), 6, 4 + 10 - sqrt(52.0), TOL);
    pt_vec2 h[2] = {{20, 0}, {0, 5}};
    ck_vec_eq(pt_steer_combine_prioritised(h, 2, 10), 10, 0, TOL); /* first uses it all */
    /* dithered: probability 1 and a non-zero force: that one, truncated */
    double pr[2] = {1, 1};
    pt_rng r;
    pt_rng_seed(&r, 3, 3);
    ck_vec_eq(pt_steer_combine_dithered(h, pr, 2, 10, &r), 10, 0, TOL);
    pt_vec2 z[2] = {{0, 0}, {0, 5}};
    ck_vec_eq(pt_steer_combine_dithered(z, pr, 2, 10, &r), 0, 5, TOL); /* zero force: next one */
    /* probability 0.5: chosen about half the time, scaled by 1/0.5 */
    double half[2] = {0.5, 1};
    pt_vec2 k[2] = {{1, 0}, {0, 1}};
    int first = 0;
    for (int i = 0; i < 10000; i++) {
        pt_vec2 c = pt_steer_combine_dithered(k, half, 2, 10, &r);
        if (c.x == 2 && c.y == 0) first++;
        else ck_assert(c.x == 0 && c.y == 1);
    }
    ck_assert_int_gt(first, 4700);
    ck_assert_int_lt(first, 5300);
}
END_TEST

/* The combiners never exceed max force, on random force sets and through agents. */
START_TEST(test_combiners_respect_max_force) {
    pt_rng r;
    pt_rng_seed(&r, 77, 1);
    long bad = 0;
    for (int i = 0; i < 20000; i++) {
        pt_vec2 f[8];
        double pr[8];
        int n = 1 + (int)pt_rng_below(&r, 8);
        double scale = pt_rng_unit(&r) * 50;
        for (int k = 0; k < n; k++) {
            f[k] = pt_v2(pt_rng_signed(&r) * scale, pt_rng_signed(&r) * scale);
            pr[k] = 0.05 + 0.95 * pt_rng_unit(&r);
        }
        double mf = 0.1 + pt_rng_unit(&r) * 20;
        if (pt_v2_len(pt_steer_combine_weighted(f, n, mf)) > mf * (1 + 1e-12)) bad++;
        if (pt_v2_len(pt_steer_combine_prioritised(f, n, mf)) > mf * (1 + 1e-12)) bad++;
        if (pt_v2_len(pt_steer_combine_dithered(f, pr, n, mf, &r)) > mf * (1 + 1e-12)) bad++;
    }
    ck_assert_int_eq(bad, 0);

    /* agents with many behaviours on, each combiner */
    pt_vehicle others[6];
    int ids[6];
    for (int i = 0; i < 6; i++) {
        others[i] = veh_at(pt_rng_signed(&r) * 3, pt_rng_signed(&r) * 3, i);
        others[i].vel = pt_v2(pt_rng_signed(&r), pt_rng_signed(&r));
        ids[i] = i;
    }
    static const pt_vec2 pts[] = {{0, 0}, {4, 0}, {4, 4}};
    for (int c = PT_COMBINE_WEIGHTED; c < PT_COMBINE_COUNT; c++) {
        pt_steer_params p;
        memset(&p, 0, sizeof p);
        p.combiner = (pt_combiner)c;
        pt_steer_params_resolve(&p);
        pt_steer_agent a;
        pt_vehicle v = veh_at(0.5, 0.5, 0.3);
        pt_steer_agent_init(&a, &v, &p, 5, 5);
        a.behaviours = (1u << PT_BEH_COUNT) - 1u;
        a.path = (pt_path){pts, 3, 1, 0.5, 0};
        pt_steer_ctx ctx = {0};
        ctx.nb = (pt_neighbors){others, 0, ids, 6, -1};
        ctx.agent1 = &others[0];
        ctx.agent2 = &others[1];
        for (int t = 0; t < 3000; t++) {
            ctx.target = pt_v2(pt_rng_signed(&r) * 5, pt_rng_signed(&r) * 5);
            pt_vec2 f = pt_steer_calculate(&a, &ctx);
            if (!finite2(f) || pt_v2_len(f) > a.veh.max_force * (1 + 1e-12)) bad++;
            pt_steer_agent_update(&a, &ctx, f, DT);
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* The prioritised combiner lets a higher priority use the whole budget: with separation
 * saturating, seek adds nothing; weighted mixes both. */
START_TEST(test_agent_combiner_selection) {
    pt_vehicle all[2];
    all[0] = veh_at(0, 0, 0);
    all[1] = veh_at(0.05, 0, 0); /* close: separation 1/0.05 = 20 * 1.5 > max force */
    int ids[] = {1};
    pt_steer_params pw, pp;
    memset(&pw, 0, sizeof pw);
    memset(&pp, 0, sizeof pp);
    pw.combiner = PT_COMBINE_WEIGHTED;
    pp.combiner = PT_COMBINE_PRIORITISED;
    pt_steer_params_resolve(&pw);
    pt_steer_params_resolve(&pp);
    pt_steer_ctx ctx = {0};
    ctx.nb = (pt_neighbors){all, 0, ids, 1, 0};
    ctx.target = pt_v2(0, 10);
    pt_steer_agent a;
    pt_steer_agent_init(&a, &all[0], &pp, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_SEEK);
    ck_vec_eq(pt_steer_calculate(&a, &ctx), -10, 0, TOL);
    pt_steer_agent_init(&a, &all[0], &pw, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_SEEK);
    /* weighted: (-30, 0) + 10 * (0, 3) = (-30, 30) truncated to 10 */
    ck_vec_eq(pt_steer_calculate(&a, &ctx), -10 / sqrt(2.0), 10 / sqrt(2.0), 1e-9);
    /* no behaviours: zero */
    a.behaviours = 0;
    ck_vec_eq(pt_steer_calculate(&a, &ctx), 0, 0, 0);
    /* params' behaviours and vehicle overrides are applied by agent_init */
    pt_steer_params q;
    memset(&q, 0, sizeof q);
    q.behaviours = PT_BEH_BIT(PT_BEH_WANDER);
    q.max_speed = 4.5;
    pt_steer_params_resolve(&q);
    pt_steer_agent_init(&a, &all[0], &q, 1, 1);
    ck_assert_uint_eq(a.behaviours, PT_BEH_BIT(PT_BEH_WANDER));
    ck_assert_double_eq(a.veh.max_speed, 4.5);
    ck_assert_double_eq(a.veh.radius, 0.35);
}
END_TEST

/* ---- regressions: the known defects of the source listings ---------------------------- */

/* Regression (separation: two agents at the same point divide by zero): coincident agents
 * get finite, opposite, non-zero pushes and drift apart over ticks. */
START_TEST(test_regression_separation_coincident) {
    pt_vehicle all[3];
    all[0] = veh_at(1, 1, 0);
    all[1] = veh_at(1, 1, 0);
    all[2] = veh_at(1, 1, 2);
    int ids[] = {0, 1, 2};
    pt_neighbors n0 = nb_of(all, ids, 3, 0), n1 = nb_of(all, ids, 3, 1), n2 = nb_of(all, ids, 3, 2);
    pt_vec2 f0 = pt_steer_separation(&all[0], &n0);
    pt_vec2 f1 = pt_steer_separation(&all[1], &n1);
    pt_vec2 f2 = pt_steer_separation(&all[2], &n2);
    ck_assert(finite2(f0) && finite2(f1) && finite2(f2));
    ck_assert(pt_v2_len(f0) > 1 && pt_v2_len(f1) > 1 && pt_v2_len(f2) > 1);
    /* pairwise antisymmetric: the three pushes sum to zero */
    ck_vec_eq(pt_v2_add(pt_v2_add(f0, f1), f2), 0, 0, 1e-9);

    pt_steer_agent ag[3];
    for (int i = 0; i < 3; i++) {
        pt_steer_agent_init(&ag[i], &all[i], NULL, 1, (uint64_t)i);
        ag[i].behaviours = PT_BEH_BIT(PT_BEH_SEPARATION);
    }
    for (int t = 0; t < 120; t++) {
        pt_vec2 f[3];
        pt_vehicle cur[3];
        for (int i = 0; i < 3; i++) cur[i] = ag[i].veh;
        for (int i = 0; i < 3; i++) {
            pt_steer_ctx ctx = {0};
            ctx.nb = nb_of(cur, ids, 3, i);
            f[i] = pt_steer_calculate(&ag[i], &ctx);
            ck_assert(finite2(f[i]));
        }
        for (int i = 0; i < 3; i++) pt_steer_agent_update(&ag[i], NULL, f[i], DT);
    }
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) ck_assert(pt_v2_dist(ag[i].veh.pos, ag[j].veh.pos) > 0.5);
}
END_TEST

/* Regression (intercept / pursuit with zero closing speed divide by zero). */
START_TEST(test_regression_zero_closing_speed) {
    pt_vehicle v;
    memset(&v, 0, sizeof v); /* unresolved: max_speed 0, speed 0 */
    v.heading = pt_v2(1, 0);
    pt_vehicle e;
    memset(&e, 0, sizeof e);
    e.pos = pt_v2(5, 0);
    e.heading = pt_v2(0, 1);
    ck_assert(finite2(pt_steer_pursuit(&v, &e, NULL)));
    ck_assert(finite2(pt_steer_evade(&v, &e, NULL)));
    ck_assert(finite2(pt_steer_intercept(&v, &e)));
    ck_assert(finite2(pt_steer_interpose(&v, &e, &e, NULL)));
    ck_assert(finite2(pt_steer_offset_pursuit(&v, &e, pt_v2(1, 1), NULL)));
    /* same velocity: not closing; intercept aims at the pursuit estimate, finite */
    pt_vehicle a = veh_at(0, 0, 0), b = veh_at(6, 0, 0);
    a.vel = b.vel = pt_v2(2, 0);
    pt_vec2 f = pt_steer_intercept(&a, &b);
    ck_assert(finite2(f));
    /* t = 6 / (3 + 2) = 1.2 -> aims at (8.4, 0): desired (3,0) - (2,0) */
    ck_vec_eq(f, 1, 0, TOL);
}
END_TEST

/* Regression (acos of a dot product slightly above 1 is NaN): headings that are a rounding
 * error off unit length never produce NaN anywhere. */
START_TEST(test_regression_acos_clamp) {
    pt_vec2 a = pt_v2_norm(pt_v2(0.1, 0.3));
    double d = pt_v2_dot(a, pt_v2_scale(a, 1 + 1e-15));
    ck_assert(!isnan(pt_acos(d)));
    ck_assert(!isnan(pt_acos(-1 - 1e-12)));
    pt_vehicle v = veh_at(0, 0, 0);
    v.heading = pt_v2(1 + 1e-15, 0);
    ck_assert_int_eq(pt_vehicle_turn_toward(&v, pt_v2(5, 0), DT), 1);
    ck_assert(finite2(v.heading));
    pt_vehicle e = veh_at(3, 0, 3.14159265358979);
    e.heading = pt_v2(-1 - 1e-15, 0);
    ck_assert(finite2(pt_steer_pursuit(&v, &e, NULL)));
}
END_TEST

/* ---- limits: no NaN or Inf, ever ----------------------------------------------------- */

/* Every behaviour at degenerate configurations: zero distance, zero velocity, no
 * neighbours, coincident neighbours, zero max speed, huge coordinates. */
START_TEST(test_no_nan_degenerate) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle cfg[5];
    cfg[0] = veh_at(0, 0, 0);
    cfg[1] = veh_at(0, 0, 0);
    cfg[1].vel = pt_v2(3, 0);
    memset(&cfg[2], 0, sizeof cfg[2]);
    cfg[2].heading = pt_v2(1, 0);
    cfg[3] = veh_at(1e12, -1e12, 2);
    cfg[4] = veh_at(0, 0, 1);
    cfg[4].max_speed = 1e-300;
    static const pt_vec2 pts[] = {{0, 0}, {0, 0}, {0, 0}};
    long bad = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            pt_vehicle v = cfg[i], o = cfg[j];
            o.pos = v.pos; /* everything at the same point */
            pt_vehicle all[2] = {v, o};
            int ids[] = {0, 1};
            pt_neighbors nb = nb_of(all, ids, 2, 0);
            pt_wander w = {{0, 0}};
            pt_rng r;
            pt_rng_seed(&r, 1, 1);
            pt_path path = {pts, 3, j & 1, 0, 0};
            pt_vec2 out[] = {
                pt_steer_seek(&v, v.pos),
                pt_steer_flee(&v, v.pos, &p),
                pt_steer_arrive(&v, v.pos, PT_DECEL_FAST, &p),
                pt_steer_pursuit(&v, &o, &p),
                pt_steer_evade(&v, &o, &p),
                pt_steer_intercept(&v, &o),
                pt_steer_wander(&v, &w, &r, DT, &p),
                pt_steer_wander(&v, &w, NULL, 0, &p),
                pt_steer_interpose(&v, &o, &o, &p),
                pt_steer_offset_pursuit(&v, &o, pt_v2(0, 0), &p),
                pt_steer_separation(&v, &nb),
                pt_steer_alignment(&v, &nb),
                pt_steer_cohesion(&v, &nb),
                pt_steer_follow_path(&v, &path, &p),
                pt_steer_follow_corridor(&v, &path, &p),
                pt_steer_hide(&v, &o, NULL, &p),
                pt_steer_obstacle_avoidance(&v, NULL, &p),
                pt_steer_wall_avoidance(&v, NULL, &p),
                pt_steer_containment(&v, NULL, NULL, &p),
            };
            for (size_t k = 0; k < sizeof out / sizeof out[0]; k++)
                if (!finite2(out[k])) {
                    bad++;
                    fprintf(stderr, "non-finite: config %d/%d output %zu\n", i, j, k);
                }
        }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* Agents with every behaviour on, random targets that sometimes coincide with them, for
 * many ticks: state and forces stay finite and within limits. */
START_TEST(test_no_nan_over_ticks) {
    pt_rng r;
    pt_rng_seed(&r, 2024, 1);
    enum { N = 12 };
    pt_steer_agent a[N];
    int ids[N];
    static const pt_vec2 pts[] = {{1, 1}, {6, 1}, {6, 6}};
    for (int i = 0; i < N; i++) {
        pt_vehicle v = veh_at(pt_rng_unit(&r) * 4, pt_rng_unit(&r) * 4, i);
        if (i < 3) v.pos = pt_v2(2, 2); /* some coincident */
        pt_steer_agent_init(&a[i], &v, NULL, 7, (uint64_t)i);
        a[i].behaviours = ((1u << PT_BEH_COUNT) - 1u) & ~PT_BEH_BIT(PT_BEH_FACE);
        if (i % 3 == 0) a[i].behaviours |= PT_BEH_BIT(PT_BEH_FACE);
        a[i].path = (pt_path){pts, 3, i & 1, 0, 0};
        a[i].offset = pt_v2(-1, i * 0.5);
        ids[i] = i;
    }
    long bad = 0;
    for (int t = 0; t < 5000; t++) {
        pt_vec2 f[N];
        pt_vehicle cur[N];
        for (int i = 0; i < N; i++) cur[i] = a[i].veh;
        for (int i = 0; i < N; i++) {
            pt_steer_ctx ctx = {0};
            ctx.nb = nb_of(cur, ids, N, i);
            ctx.target = (t % 7 == 0) ? cur[i].pos : pt_v2(pt_rng_unit(&r) * 8, pt_rng_unit(&r) * 8);
            ctx.agent1 = &cur[(i + 1) % N];
            ctx.agent2 = (t & 1) ? &cur[(i + 2) % N] : NULL;
            ctx.dt = DT;
            f[i] = pt_steer_calculate(&a[i], &ctx);
            if (!finite2(f[i]) || pt_v2_len(f[i]) > a[i].veh.max_force * (1 + 1e-12)) bad++;
        }
        for (int i = 0; i < N; i++) {
            pt_steer_ctx ctx = {0};
            ctx.target = pt_v2(4, 4);
            pt_steer_agent_update(&a[i], &ctx, f[i], DT);
            if (!finite2(a[i].veh.pos) || !finite2(a[i].veh.vel) || !finite2(a[i].veh.heading)) bad++;
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_names) {
    ck_assert_str_eq(pt_behaviour_name(PT_BEH_SEEK), "seek");
    ck_assert_str_eq(pt_behaviour_name(PT_BEH_WALL_AVOIDANCE), "wall_avoidance");
    ck_assert_str_eq(pt_behaviour_name(PT_BEH_FACE), "face");
    ck_assert_str_eq(pt_behaviour_name(PT_BEH_COUNT), "unknown");
    for (int b = 0; b < PT_BEH_COUNT; b++) ck_assert_int_eq(pt_behaviour_from_name(pt_behaviour_name(b)), b);
    ck_assert_int_eq(pt_behaviour_from_name("nope"), -1);
    ck_assert_int_eq(pt_behaviour_from_name(NULL), -1);
    ck_assert_str_eq(pt_combiner_name(PT_COMBINE_DEFAULT), "prioritised");
    ck_assert_str_eq(pt_combiner_name(PT_COMBINE_WEIGHTED), "weighted");
    ck_assert_str_eq(pt_combiner_name(PT_COMBINE_DITHERED), "dithered");
    ck_assert_str_eq(pt_combiner_name(PT_COMBINE_COUNT), "unknown");
}
END_TEST

static Suite *steer_suite(void) {
    Suite *s = suite_create("steer");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_vehicle_defaults);
    tcase_add_test(core, test_vehicle_limits_over_ticks);
    tcase_add_test(core, test_vehicle_hand_cases);
    tcase_add_test(core, test_vehicle_reverse_stops_and_turns);
    tcase_add_test(core, test_vehicle_turn_toward_and_facing);
    tcase_add_test(core, test_vehicle_heading_smoothing);
    tcase_add_test(core, test_seek_flee_arrive_hand);
    tcase_add_test(core, test_pursuit_evade_intercept_hand);
    tcase_add_test(core, test_interpose_offset_hand);
    tcase_add_test(core, test_group_hand);
    tcase_add_test(core, test_wander_circle_and_determinism);
    tcase_add_test(core, test_follow_path_open_arrives_at_end);
    tcase_add_test(core, test_follow_path_closed_loops);
    tcase_add_test(core, test_follow_corridor);
    tcase_add_test(core, test_arrive_stops_without_oscillation);
    tcase_add_test(core, test_pursuit_beats_seek);
    tcase_add_test(core, test_combiners_hand);
    tcase_add_test(core, test_combiners_respect_max_force);
    tcase_add_test(core, test_agent_combiner_selection);
    tcase_add_test(core, test_names);
    suite_add_tcase(s, core);
    TCase *reg = tcase_create("regressions");
    tcase_add_test(reg, test_regression_separation_coincident);
    tcase_add_test(reg, test_regression_zero_closing_speed);
    tcase_add_test(reg, test_regression_acos_clamp);
    suite_add_tcase(s, reg);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, test_no_nan_degenerate);
    tcase_add_test(lim, test_no_nan_over_ticks);
    suite_add_tcase(s, lim);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(steer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
