/* SPDX-License-Identifier: Zlib */
/* pt_crowd: the optimised step (cell order, compact arrays, one-pass group behaviours,
 * worker threads) gives exactly the straightforward result (brute-force neighbours,
 * pt_steer_calculate per agent, one thread), over many ticks: sparse and dense crowds (more
 * than PT_CROWD_NB_MAX neighbours), agents outside the cell-space rectangle or at NaN,
 * walls, pursuit of a target, every combiner, and 1, 2, 3 threads. Every crowd here sets
 * min_share = 1, so that these small crowds really are split between the threads. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/crowd.h>
#include <patrol/rng.h>

#include "bulk/crowd_priv.h" /* the test hooks: wide, no_ring, half, ring_mask */
#include "bulk/pairs.h"      /* HALF_CELL_MAX */
#include "test_util.h"

#define N 300

static pt_steer_params params;

/* A 40x40 room: walls all round. */
static void walled_room(pt_map *m) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, 40, 40, &err), PT_OK);
    for (int i = 0; i < 40; i++) {
        pt_map_set(m, i, 0, '#'); pt_map_set(m, i, 39, '#');
        pt_map_set(m, 0, i, '#'); pt_map_set(m, 39, i, '#');
    }
}

/* Default params with another combiner (PT_COMBINE_DEFAULT: keep it), or with an alignment
 * weight (> 0) that spends the whole force budget. */
static void params_with(pt_steer_params *p, pt_combiner combiner, double align_weight) {
    pt_steer_params_default(p);
    if (combiner != PT_COMBINE_DEFAULT) p->combiner = combiner;
    if (align_weight > 0) p->weight[PT_BEH_ALIGNMENT] = align_weight;
    pt_steer_params_resolve(p);
}

static void make_agents(pt_steer_agent *a, int n, uint64_t seed, double area, double x0) {
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    params_with(&params, PT_COMBINE_DEFAULT, 0.0);
    for (int i = 0; i < n; i++) {
        pt_vehicle v;
        pt_vehicle_init(&v, pt_v2(x0 + pt_rng_unit(&r) * area, x0 + pt_rng_unit(&r) * area), pt_rng_unit(&r) * PT_TAU);
        v.vel = pt_v2_scale(v.heading, 1.0);
        pt_vehicle_resolve(&v);
        pt_steer_agent_init(&a[i], &v, &params, seed, (uint64_t)i);
    }
}

/* A crowd as pt_crowd_create makes it from these fields (min_share 1: every phase split
 * between the threads, or 0: the default). */
static pt_crowd *mk(const pt_steer_env *env, pt_steer_agent *a, int n, unsigned beh, double view_radius, int threads,
                    int min_share) {
    pt_crowd_desc d = {.agents = a, .n = n, .env = env, .behaviours = beh, .view_radius = view_radius,
                       .threads = threads, .min_share = min_share};
    pt_crowd *c = pt_crowd_create(&d);
    ck_assert_ptr_nonnull(c);
    return c;
}

static void run_beh(pt_steer_agent *a, int n, const pt_steer_env *env, unsigned beh, int target, int threads, int brute,
                    int ticks) {
    pt_crowd *c = mk(env, a, n, beh, 2.5, threads, 1);
    pt_crowd_set_target(c, target);
    pt_crowd_set_target_point(c, pt_v2(10.0, 12.0));
    for (int t = 0; t < ticks; t++) {
        if (brute) pt_crowd_step_brute(c, 1.0 / 60.0);
        else pt_crowd_step(c, 1.0 / 60.0);
    }
    pt_crowd_destroy(c);
}

static void run(pt_steer_agent *a, int n, const pt_steer_env *env, int threads, int brute, int ticks) {
    unsigned beh = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) |
                   (env ? PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) : 0);
    run_beh(a, n, env, beh, -1, threads, brute, ticks);
}

/* Bit for bit: position, velocity, heading, turn state, wander state. */
static int same_state(const pt_steer_agent *a, const pt_steer_agent *b, int n) {
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i].veh.pos, &b[i].veh.pos, sizeof a[i].veh.pos) || memcmp(&a[i].veh.vel, &b[i].veh.vel, sizeof a[i].veh.vel) ||
            memcmp(&a[i].veh.heading, &b[i].veh.heading, sizeof a[i].veh.heading) || a[i].veh.turn_dir != b[i].veh.turn_dir ||
            memcmp(&a[i].wander, &b[i].wander, sizeof a[i].wander))
            return 0;
    return 1;
}

/* Agents with finite state, counted. */
static int count_finite(const pt_steer_agent *a, int n) {
    int k = 0;
    for (int i = 0; i < n; i++)
        k += pt_v2_is_finite(a[i].veh.pos) && pt_v2_is_finite(a[i].veh.vel) && pt_v2_is_finite(a[i].veh.heading);
    return k;
}

/* Fast (threads 1, 2, 3) against brute force, from the same start, for `ticks` ticks. */
static void check_equal(const pt_steer_agent *start, int n, const pt_steer_env *env, unsigned beh, int target,
                        int ticks) {
    pt_steer_agent *ref = malloc(sizeof *ref * (size_t)n), *got = malloc(sizeof *got * (size_t)n);
    memcpy(ref, start, sizeof *ref * (size_t)n);
    run_beh(ref, n, env, beh, target, 1, 1, ticks);
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(got, start, sizeof *got * (size_t)n);
        run_beh(got, n, env, beh, target, threads, 0, ticks);
        ck_assert_msg(same_state(got, ref, n), "fast step with %d threads differs from brute force", threads);
    }
    ck_assert(!same_state(ref, start, n)); /* they moved */
    free(ref);
    free(got);
}

START_TEST(test_cellspace_equals_brute_force) {
    static pt_steer_agent a[N], b[N];
    make_agents(a, N, 11, 60.0, 0.0);
    memcpy(b, a, sizeof a);
    run(a, N, NULL, 1, 0, 300);
    run(b, N, NULL, 1, 1, 300);
    ck_assert_msg(same_state(a, b, N), "cell-space step differs from brute force");
    /* and the flock really moved */
    pt_steer_agent c[N];
    make_agents(c, N, 11, 60.0, 0.0);
    ck_assert(!same_state(a, c, N));
}
END_TEST

START_TEST(test_threads_are_deterministic) {
    static pt_steer_agent one[N], two[N], three[N];
    make_agents(one, N, 5, 40.0, 0.0);
    memcpy(two, one, sizeof one);
    memcpy(three, one, sizeof one);
    run(one, N, NULL, 1, 0, 300);
    run(two, N, NULL, 2, 0, 300);
    run(three, N, NULL, 3, 0, 300);
    ck_assert(same_state(one, two, N));
    ck_assert(same_state(one, three, N));
}
END_TEST

/* In a walled room with pillars: finite, never on a wall, for threads 1 and 2 alike. */
START_TEST(test_walled_room_invariants) {
    pt_map m;
    walled_room(&m);
    for (int y = 8; y < 32; y += 8) for (int x = 8; x < 32; x += 8) pt_map_set(&m, x, y, '#');
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    static pt_steer_agent a[N], b[N];
    make_agents(a, N, 3, 30.0, 4.5);
    for (int i = 0; i < N; i++) /* start off the walls */
        if (!pt_map_walkable(&m, (int)floor(a[i].veh.pos.x), (int)floor(a[i].veh.pos.y))) a[i].veh.pos = pt_v2(20.5, 20.5);
    memcpy(b, a, sizeof a);
    long bad = 0;
    pt_crowd *c = mk(&env, a, N, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE), 2.5, 2, 1);
    for (int t = 0; t < 1000; t++) {
        pt_crowd_step(c, 1.0 / 60.0);
        pt_crowd_sync(c);
        for (int i = 0; i < N; i++) {
            pt_vec2 p = a[i].veh.pos;
            if (!pt_v2_is_finite(p) || !pt_map_walkable(&m, (int)floor(p.x), (int)floor(p.y))) bad++;
        }
    }
    pt_crowd_destroy(c);
    ck_assert_int_eq(bad, 0);
    run(b, N, &env, 1, 0, 1000);
    ck_assert(same_state(a, b, N));
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* A dense clump: every agent has far more than PT_CROWD_NB_MAX neighbours in range, and
 * several sit exactly on top of each other (separation's coincident case). */
START_TEST(test_dense_clump_equals_brute_force) {
    static pt_steer_agent a[N];
    make_agents(a, N, 21, 1.5, 30.0);
    for (int i = 0; i < 12; i++) a[i].veh.pos = a[20].veh.pos;
    check_equal(a, N, NULL, PT_BEH_FLOCKING, -1, 120);
    /* and the clump spreads out without NaN */
    static pt_steer_agent b[N];
    memcpy(b, a, sizeof a);
    run_beh(b, N, NULL, PT_BEH_FLOCKING, -1, 2, 0, 300);
    ck_assert_int_eq(count_finite(b, N), N);
}
END_TEST

/* Agents leave the rectangle the cell space was sized for (bounding box at init), some are
 * teleported far outside between steps, one sits at NaN: results still equal brute force,
 * the NaN agent is nobody's neighbour and everything else stays finite. */
START_TEST(test_outside_and_nan_equal_brute_force) {
    static pt_steer_agent a[N], b[N];
    make_agents(a, N, 8, 20.0, 0.0);
    for (int i = 0; i < N; i++) a[i].veh.vel = pt_v2_scale(pt_v2_norm(pt_v2_sub(a[i].veh.pos, pt_v2(10, 10))), 3.0);
    memcpy(b, a, sizeof a);
    pt_crowd *ca = mk(NULL, a, N, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER), 2.5, 2, 1);
    pt_crowd *cb = mk(NULL, b, N, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER), 2.5, 1, 1);
    long diffs = 0;
    for (int t = 0; t < 400; t++) {
        if (t == 50)
            for (int i = 0; i < 40; i++) {
                pt_vec2 far = pt_v2(-500.0 - i * 0.5, 900.0 + (i % 5) * 0.7);
                a[i].veh.pos = b[i].veh.pos = far;
            }
        if (t == 60) a[N - 1].veh.pos = b[N - 1].veh.pos = pt_v2(NAN, 3.0);
        if (t == 50 || t == 60) pt_crowd_reload(ca);
        pt_crowd_step(ca, 1.0 / 60.0);
        pt_crowd_step_brute(cb, 1.0 / 60.0);
        pt_crowd_sync(ca);
        diffs += !same_state(a, b, N);
    }
    pt_crowd_destroy(ca);
    pt_crowd_destroy(cb);
    ck_assert_int_eq(diffs, 0);
    ck_assert_int_eq(count_finite(a, N - 1), N - 1);
}
END_TEST

/* The steer benchmark's stack: walls, obstacles, separation, pursuit of agent 0 (which
 * wanders), arrive; and the weighted and dithered combiners. */
START_TEST(test_pursuit_and_combiners_equal_brute_force) {
    pt_map m;
    walled_room(&m);
    pt_map_set(&m, 20, 20, '#');
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    static pt_steer_agent a[N];
    make_agents(a, N, 4, 30.0, 4.5);
    for (int i = 0; i < N; i++)
        if (!pt_map_walkable(&m, (int)floor(a[i].veh.pos.x), (int)floor(a[i].veh.pos.y))) a[i].veh.pos = pt_v2(10.5, 10.5);
    unsigned beh = PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) |
                   PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_PURSUIT) | PT_BEH_BIT(PT_BEH_ARRIVE);
    check_equal(a, N, &env, beh, 0, 200);
    check_equal(a, N, &env, beh | PT_BEH_BIT(PT_BEH_ALIGNMENT) | PT_BEH_BIT(PT_BEH_FACE), -1, 100);
    pt_combiner combiners[2] = {PT_COMBINE_WEIGHTED, PT_COMBINE_DITHERED};
    for (int k = 0; k < 2; k++) {
        params.combiner = combiners[k];
        for (int b = 0; b < PT_BEH_COUNT; b++) params.probability[b] = 0.7;
        check_equal(a, N, &env, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER), -1, 100);
    }
    params_with(&params, PT_COMBINE_DEFAULT, 0.0);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* Plain flocking (exactly separation + alignment + cohesion): over many ticks
 * pt_crowd_step must equal brute force bit for bit for agents whose vehicles and params
 * differ: tight and unlimited turn rates, heading smoothing (left to pt_vehicle_update),
 * zero mass, reversing agents (turning on the spot), the weighted and dithered combiners,
 * an agent with a NaN heading for a tick, coincident agents, and odd tick lengths. */
START_TEST(test_varied_flocking_equals_brute_force) {
    enum { M = 300 };
    static pt_steer_agent start[M], ref[M], got[M];
    static pt_steer_params pw, pd, pslow;
    make_agents(start, M, 31, 45.0, 2.0);
    params_with(&pw, PT_COMBINE_WEIGHTED, 0.0);
    params_with(&pd, PT_COMBINE_DITHERED, 0.0);
    params_with(&pslow, PT_COMBINE_DEFAULT, 200.0); /* the budget runs out at alignment */
    for (int i = 0; i < M; i++) {
        pt_vehicle *v = &start[i].veh;
        switch (i % 9) {
        case 1: v->max_turn_rate = 0.7; break;
        case 2: v->max_turn_rate = 400.0; break;       /* lim >= pi: never limited */
        case 3: v->smooth_time = 0.2; break;
        case 4: v->mass = 0.0; v->max_force = 3.0; break;
        case 5: v->vel = pt_v2_scale(v->heading, -2.0); v->max_turn_rate = 1.0; break; /* reversing */
        case 6: start[i].params = &pw; break;
        case 7: start[i].params = &pd; break;
        case 8: start[i].params = &pslow; v->max_speed = 5.0; break;
        default: break;
        }
    }
    for (int i = 0; i < 6; i++) start[100 + i].veh.pos = start[99].veh.pos; /* coincident */
    static const double dts[] = {1.0 / 60.0, 1.0 / 30.0, 0.0, 0.25, -1.0, 1.0 / 60.0};
    memcpy(ref, start, sizeof ref);
    pt_crowd *cr = mk(NULL, ref, M, PT_BEH_FLOCKING, 2.5, 1, 1);
    for (int t = 0; t < 240; t++) {
        if (t == 40) ref[7].veh.heading = pt_v2(NAN, 0.0);
        pt_crowd_step_brute(cr, dts[(t / 7) % 6]);
    }
    pt_crowd_destroy(cr);
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(got, start, sizeof got);
        pt_crowd *c = mk(NULL, got, M, PT_BEH_FLOCKING, 2.5, threads, 1);
        for (int t = 0; t < 240; t++) {
            if (t == 40) {
                got[7].veh.heading = pt_v2(NAN, 0.0);
                pt_crowd_reload(c);
            }
            pt_crowd_step(c, dts[(t / 7) % 6]);
        }
        pt_crowd_destroy(c);
        ck_assert_msg(same_state(got, ref, M), "flocking with %d threads differs from brute force", threads);
    }
    ck_assert(!same_state(ref, start, M));
    ck_assert_int_eq(count_finite(ref, M), M);
    /* the turn limit and the reversal really happened: some agents face away from where
     * they started, and reversing ones turned on the spot at some point */
    int turned = 0;
    for (int i = 5; i < M; i += 9) turned += pt_v2_dot(ref[i].veh.heading, start[i].veh.heading) < 0.0;
    ck_assert_int_gt(turned, 0);
}
END_TEST

/* The same over a larger, sparser flock (several cells per agent, empty cells, agents on
 * cell borders) with 2 threads, and a dense one. */
START_TEST(test_flocking_sparse_and_dense) {
    enum { M = 700 };
    static pt_steer_agent a[M];
    make_agents(a, M, 41, 100.0, 0.0);
    for (int i = 0; i < 50; i++) a[i].veh.pos = pt_v2(2.5 * (i % 10), 2.5 * (i / 10)); /* on cell borders */
    check_equal(a, M, NULL, PT_BEH_FLOCKING, -1, 80);
    make_agents(a, M, 43, 4.0, 10.0);
    check_equal(a, M, NULL, PT_BEH_FLOCKING, -1, 15);
}
END_TEST

/* The integrator's rare branches in a dense flock: agents that stop (speed capped below the
 * stop speed), that turn on the spot (reversing with a tight turn rate), weighted and
 * prioritised combiners side by side, budgets that run out (small max_force), smoothing, an
 * odd agent count. Equal to brute force bit for bit, 1-3 threads: the cases any path that
 * steps several agents per SIMD register must get right. */
START_TEST(test_pairs_with_fallback_lanes_equal_brute_force) {
    enum { M = 201 };
    static pt_steer_agent start[M], ref[M], got[M];
    static pt_steer_params pw;
    make_agents(start, M, 57, 14.0, 3.0);
    params_with(&pw, PT_COMBINE_WEIGHTED, 0.0);
    for (int i = 0; i < M; i++) {
        pt_vehicle *v = &start[i].veh;
        switch (i % 6) {
        case 1: v->max_speed = 1e-9; break;                                              /* stops */
        case 2: v->vel = pt_v2_scale(v->heading, -2.0); v->max_turn_rate = 0.5; break;   /* on the spot */
        case 3: start[i].params = &pw; v->max_force = 0.5; break;
        case 4: v->max_force = 0.4; break;
        case 5: if (i % 12 == 5) v->smooth_time = 0.1; break;
        default: break;
        }
    }
    memcpy(ref, start, sizeof ref);
    pt_crowd *cr = mk(NULL, ref, M, PT_BEH_FLOCKING, 2.5, 1, 1);
    int spun = 0, still = 0;
    for (int t = 0; t < 60; t++) {
        pt_crowd_step_brute(cr, 1.0 / 60.0);
        for (int i = 2; i < M; i += 6) spun += ref[i].veh.turn_dir != 0;
    }
    pt_crowd_destroy(cr);
    for (int i = 1; i < M; i += 6) still += memcmp(&ref[i].veh.pos, &start[i].veh.pos, sizeof(pt_vec2)) == 0;
    ck_assert_int_gt(spun, 0);                 /* the on-the-spot fallback ran */
    ck_assert_int_eq(still, (M + 4) / 6);      /* the stopping lanes never moved */
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(got, start, sizeof got);
        pt_crowd *c = mk(NULL, got, M, PT_BEH_FLOCKING, 2.5, threads, 1);
        for (int t = 0; t < 60; t++) pt_crowd_step(c, 1.0 / 60.0);
        pt_crowd_destroy(c);
        ck_assert_msg(same_state(got, ref, M), "paired flocking with %d threads differs from brute force", threads);
    }
    ck_assert(!same_state(ref, start, M));
}
END_TEST

/* pt_vehicle_update's turn limit (no atan2 since the crowd work): over random headings,
 * velocities and forces the heading never turns by more than max_turn_rate * dt, and a
 * velocity within the limit is followed exactly. */
START_TEST(test_vehicle_turn_limit) {
    pt_rng r;
    pt_rng_seed(&r, 77, 1);
    long over = 0, not_followed = 0, nonfinite = 0, limited = 0;
    for (int k = 0; k < 20000; k++) {
        pt_vehicle v;
        pt_vehicle_init(&v, pt_v2(0, 0), pt_rng_unit(&r) * PT_TAU);
        v.max_turn_rate = 0.5 + pt_rng_unit(&r) * 8.0;
        v.vel = pt_v2_scale(pt_v2_from_angle(pt_rng_unit(&r) * PT_TAU), pt_rng_unit(&r) * 3.0);
        pt_vec2 f = pt_v2_scale(pt_v2_from_angle(pt_rng_unit(&r) * PT_TAU), pt_rng_unit(&r) * 20.0);
        double dt = 1.0 / 60.0 + pt_rng_unit(&r) * 0.1;
        pt_vec2 h0 = v.heading;
        pt_vehicle probe = v;
        probe.max_turn_rate = 1e9; /* the unlimited result: where the velocity wants to go */
        pt_vehicle_update(&probe, f, dt);
        pt_vehicle_update(&v, f, dt);
        double lim = v.max_turn_rate * dt;
        double turned = pt_acos(pt_v2_dot(h0, v.heading));
        double wanted = pt_acos(pt_v2_dot(h0, probe.heading));
        if (turned > lim + 1e-9) over++;
        if (wanted < lim - 1e-9 && memcmp(&v.heading, &probe.heading, sizeof v.heading)) not_followed++;
        limited += wanted > lim + 1e-9;
        if (!pt_v2_is_finite(v.pos) || !pt_v2_is_finite(v.vel) || !pt_v2_is_finite(v.heading)) nonfinite++;
    }
    ck_assert_int_eq(over, 0);
    ck_assert_int_eq(not_followed, 0);
    ck_assert_int_eq(nonfinite, 0);
    ck_assert_int_gt(limited, 1000); /* the limit was exercised */
}
END_TEST

/* The step visits agents in cell order for the neighbour sums and in index order for the
 * integration, with the threads' shares cut differently in the two orders. Agents edited
 * between steps (teleported across the map, alignment and cohesion switched on and off)
 * must give the brute-force result every tick: nothing of the previous step is reused. */
START_TEST(test_edits_between_steps_equal_brute_force) {
    enum { M = 600, TICKS = 40 };
    static pt_steer_agent start[M], ref[M], got[M];
    make_agents(start, M, 47, 50.0, 0.0);
    unsigned behs[3] = {PT_BEH_FLOCKING, PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_COHESION),
                        PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER)};
    int differ = 0;
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(ref, start, sizeof start);
        memcpy(got, start, sizeof start);
        pt_crowd *cr = mk(NULL, ref, M, behs[0], 2.5, 1, 1);
        pt_crowd *cg = mk(NULL, got, M, behs[0], 2.5, threads, 1);
        pt_rng r;
        pt_rng_seed(&r, 3, 5);
        for (int t = 0; t < TICKS; t++) {
            pt_crowd_set_behaviours(cr, behs[t % 3]);
            pt_crowd_set_behaviours(cg, behs[t % 3]);
            for (int e = 0; e < 20; e++) { /* the same edits on both */
                int i = (int)(pt_rng_unit(&r) * M);
                pt_vec2 p = pt_v2(pt_rng_unit(&r) * 50.0, pt_rng_unit(&r) * 50.0);
                ref[i].veh.pos = got[i].veh.pos = p;
            }
            pt_crowd_reload(cg);
            pt_crowd_reload(cr);
            pt_crowd_step_brute(cr, 1.0 / 60.0);
            pt_crowd_step(cg, 1.0 / 60.0);
            pt_crowd_sync(cg);
            differ += !same_state(got, ref, M);
        }
        pt_crowd_destroy(cr);
        pt_crowd_destroy(cg);
    }
    ck_assert_int_eq(differ, 0);
    ck_assert(!same_state(ref, start, M)); /* they moved */
}
END_TEST

/* The packed mode (the crowd keeps the motion state; agents share params and vehicle
 * constants): for each shared set of constants, over many ticks of odd lengths, with
 * reversing and coincident agents, the result equals brute force bit for bit for 1-3
 * threads (four lanes where the processor has AVX, two with 3 threads), and the mode really
 * was taken. */
static void packed_case(const pt_steer_agent *start, int n, const pt_steer_env *env, unsigned beh, int target) {
    static const double dts[] = {1.0 / 60.0, 1.0 / 30.0, 0.0, 0.25, -1.0, 1.0 / 60.0};
    pt_steer_agent *ref = malloc(sizeof *ref * (size_t)n), *got = malloc(sizeof *got * (size_t)n);
    memcpy(ref, start, sizeof *ref * (size_t)n);
    pt_crowd *cr = mk(env, ref, n, beh, 2.5, 1, 1);
    pt_crowd_set_target(cr, target);
    pt_crowd_set_target_point(cr, pt_v2(10.0, 12.0));
    for (int t = 0; t < 120; t++) pt_crowd_step_brute(cr, dts[(t / 7) % 6]);
    pt_crowd_destroy(cr);
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(got, start, sizeof *got * (size_t)n);
        pt_crowd *c = mk(env, got, n, beh, 2.5, threads, 1);
        if (threads == 3) c->wide = 0; /* two lanes (SSE2) even where there is AVX */
        ck_assert_int_eq(pt_crowd_packed(c), 1);
        pt_crowd_set_target(c, target);
        pt_crowd_set_target_point(c, pt_v2(10.0, 12.0));
        for (int t = 0; t < 120; t++) pt_crowd_step(c, dts[(t / 7) % 6]);
        ck_assert_int_eq(pt_crowd_packed(c), 1);
        pt_crowd_destroy(c); /* writes the agents back */
        ck_assert_msg(same_state(got, ref, n), "packed mode with %d threads differs from brute force", threads);
    }
    ck_assert(!same_state(ref, start, n));
    free(ref);
    free(got);
}

/* Pursuit in the packed mode, with the target changed between steps (another agent, or the
 * target point) and agents teleported and reloaded now and then: the crowd finds the target
 * where the last step left it, so every tick must still give the brute-force result. */
START_TEST(test_target_changes_equal_brute_force) {
    enum { M = 600, TICKS = 60 };
    static pt_steer_agent start[M], ref[M], got[M];
    make_agents(start, M, 53, 40.0, 0.0);
    unsigned beh = PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_PURSUIT) | PT_BEH_BIT(PT_BEH_ARRIVE);
    int differ = 0, packed = 0;
    for (int threads = 1; threads <= 3; threads++) {
        memcpy(ref, start, sizeof start);
        memcpy(got, start, sizeof start);
        pt_crowd *cr = mk(NULL, ref, M, beh, 2.5, 1, 1);
        pt_crowd *cg = mk(NULL, got, M, beh, 2.5, threads, 1);
        pt_crowd_set_target_point(cr, pt_v2(5.0, 30.0));
        pt_crowd_set_target_point(cg, pt_v2(5.0, 30.0));
        pt_rng r;
        pt_rng_seed(&r, 4, 6);
        for (int t = 0; t < TICKS; t++) {
            if (t % 7 == 0) {
                pt_crowd_set_target(cr, t % 21 == 14 ? -1 : (int)(pt_rng_unit(&r) * M));
                pt_crowd_set_target(cg, pt_crowd_target(cr));
            }
            if (t % 11 == 5) { /* the same edits on both: the slots start over */
                for (int e = 0; e < 10; e++) {
                    int i = (int)(pt_rng_unit(&r) * M);
                    ref[i].veh.pos = got[i].veh.pos = pt_v2(pt_rng_unit(&r) * 40.0, pt_rng_unit(&r) * 40.0);
                }
                int tg = pt_crowd_target(cr) >= 0 ? pt_crowd_target(cr) : 0; /* the target too, far from where it was */
                ref[tg].veh.pos = got[tg].veh.pos = pt_v2(1.0, 1.0);
                pt_crowd_reload(cg);
                pt_crowd_reload(cr);
            }
            pt_crowd_step_brute(cr, 1.0 / 60.0);
            pt_crowd_step(cg, 1.0 / 60.0);
            packed += pt_crowd_packed(cg);
            pt_crowd_sync(cg);
            differ += !same_state(got, ref, M);
        }
        pt_crowd_destroy(cr);
        pt_crowd_destroy(cg);
    }
    ck_assert_int_eq(differ, 0);
    ck_assert_int_eq(packed, 3 * TICKS);
    ck_assert(!same_state(ref, start, M)); /* they moved */
}
END_TEST

START_TEST(test_packed_mode_equals_brute_force) {
    enum { M = 240 };
    static pt_steer_agent start[M];
    static pt_steer_params pw, pslow;
    params_with(&pw, PT_COMBINE_WEIGHTED, 0.0);
    params_with(&pslow, PT_COMBINE_DEFAULT, 200.0); /* the budget runs out at alignment */
    for (int cfg = 0; cfg < 9; cfg++) {
        make_agents(start, M, 60 + (uint64_t)cfg, 12.0 + cfg * 3.0, 2.0);
        for (int i = 0; i < M; i++) {
            pt_steer_agent *a = &start[i];
            pt_vehicle *v = &a->veh;
            switch (cfg) {
            case 1: v->max_turn_rate = 0.7; break;
            case 2: v->max_turn_rate = 400.0; break; /* lim >= pi: never limited */
            case 3: v->smooth_time = 0.2; break;
            case 4: v->mass = 0.0; v->max_force = 3.0; break;
            case 5: a->params = &pw; break;
            case 6: a->params = &pslow; v->max_speed = 5.0; break;
            case 7: v->max_force = 0.4; break;
            case 8: v->max_speed = 1e-9; break; /* below the stop speed: nobody moves */
            default: break;
            }
            if (i % 5 == 1) { /* reversing: turns on the spot */
                v->vel = pt_v2_scale(v->heading, -2.0);
                if (cfg != 2) v->max_turn_rate = cfg == 1 ? 0.7 : PT_TAU;
            }
        }
        for (int i = 0; i < 5; i++) start[30 + i].veh.pos = start[29].veh.pos; /* coincident */
        if (cfg == 8) {
            /* nobody moves: only the brute-force comparison is meaningful */
            pt_steer_agent *ref = malloc(sizeof start);
            memcpy(ref, start, sizeof start);
            pt_crowd *c = mk(NULL, ref, M, PT_BEH_FLOCKING, 2.5, 2, 1);
            ck_assert_int_eq(pt_crowd_packed(c), 1);
            for (int t = 0; t < 30; t++) pt_crowd_step(c, 1.0 / 60.0);
            pt_crowd_destroy(c);
            for (int i = 0; i < M; i++) ck_assert(memcmp(&ref[i].veh.pos, &start[i].veh.pos, sizeof(pt_vec2)) == 0);
            free(ref);
            continue;
        }
        packed_case(start, M, NULL, PT_BEH_FLOCKING, -1);
        packed_case(start, M, NULL, PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_COHESION), -1);
    }
    /* the steer benchmark's stack, walls and pursuit of agent 0, facing the target */
    pt_map m;
    walled_room(&m);
    pt_map_set(&m, 20, 20, '#');
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    make_agents(start, M, 71, 30.0, 4.5);
    for (int i = 0; i < M; i++)
        if (!pt_map_walkable(&m, (int)floor(start[i].veh.pos.x), (int)floor(start[i].veh.pos.y)))
            start[i].veh.pos = pt_v2(10.5, 10.5);
    unsigned beh = PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) |
                   PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_PURSUIT) | PT_BEH_BIT(PT_BEH_ARRIVE);
    packed_case(start, M, &env, beh, 0);
    packed_case(start, M, &env, beh | PT_BEH_BIT(PT_BEH_ALIGNMENT) | PT_BEH_BIT(PT_BEH_FACE), -1);
    packed_case(start, M, &env, PT_BEH_FLOCKING, -1);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* A game's flocks (the world's): groups (neighbours only within the group, the filter
 * before the cap: the crowd is dense enough for more than PT_CROWD_NB_MAX in range), wander,
 * walls, and an alarm (EVADE within a radius of a vehicle outside the crowd, which moves
 * between ticks): equal to brute force bit for bit, forces and behaviours too, for 1-3
 * threads; the groups and the alarm really change the result. */
static int run_flocks(pt_steer_agent *a, int n, const pt_steer_env *env, const uint32_t *group, unsigned alarm,
                      int threads, int brute, int ticks, pt_vec2 *forces, int *alarmed) {
    unsigned beh = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE);
    pt_crowd_desc d = {.agents = a, .n = n, .env = env, .behaviours = beh, .view_radius = 2.5, .threads = threads,
                       .min_share = 1, .group = group, .alarm_behaviours = alarm, .alarm_radius = 4.0};
    pt_crowd *c = pt_crowd_create(&d);
    ck_assert_ptr_nonnull(c);
    pt_crowd_set_target(c, PT_CROWD_TARGET_VEHICLE);
    pt_vehicle tv;
    pt_vehicle_init(&tv, pt_v2(12.0, 12.0), 0.0);
    pt_vehicle_resolve(&tv);
    *alarmed = 0;
    for (int t = 0; t < ticks; t++) {
        tv.pos = pt_v2(12.0 + 0.1 * t, 12.0 + 0.05 * t);
        tv.vel = pt_v2(6.0, 3.0);
        pt_crowd_set_target_vehicle(c, &tv);
        if (brute) pt_crowd_step_brute(c, 1.0 / 60.0);
        else pt_crowd_step(c, 1.0 / 60.0);
        for (int i = 0; i < n; i++) *alarmed += (a[i].behaviours & PT_BEH_BIT(PT_BEH_EVADE)) != 0;
    }
    memcpy(forces, pt_crowd_forces(c), sizeof *forces * (size_t)n);
    ck_assert(!pt_crowd_packed(c));
    int by_group = c->gm != NULL; /* the slots were sorted by group */
    pt_crowd_destroy(c);
    return by_group;
}

START_TEST(test_groups_and_alarm_equal_brute_force) {
    enum { M = 400 };
    static pt_steer_agent start[M], ref[M], got[M];
    static pt_vec2 fref[M], fgot[M];
    static uint32_t group[M];
    pt_map m;
    walled_room(&m);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    make_agents(start, M, 77, 10.0, 8.0); /* about 12 per square tile: far more than 64 in range */
    start[11].veh.heading = pt_v2(NAN, 0.0); /* not counted in its neighbours' mean heading */
    int aref, agot;
    /* Groups interleaved by index, in runs of indices (one of 300: more than 64 in range
     * within the group) with a lone member, by a random draw, and spread over the whole
     * range of uint32_t (too wide to sort the slots by group: the plain cell order with
     * the filter). */
    pt_rng rng;
    pt_rng_seed(&rng, 78, 0);
    for (int pattern = 0; pattern < 4; pattern++) {
        for (int i = 0; i < M; i++)
            group[i] = pattern == 0   ? (uint32_t)(i % 3) + 1
                       : pattern == 1 ? (i == 17 ? 5u : (uint32_t)(i / 300) + 9)
                       : pattern == 2 ? pt_rng_below(&rng, 40) + 1000
                                      : (uint32_t)(i % 4) * 0x40000000u + 7u;
        memcpy(ref, start, sizeof start);
        run_flocks(ref, M, &env, group, PT_BEH_BIT(PT_BEH_EVADE), 1, 1, 90, fref, &aref);
        ck_assert_int_gt(aref, 0);
        ck_assert_int_lt(aref, 90 * M);
        for (int threads = 1; threads <= 3; threads++) {
            memcpy(got, start, sizeof start);
            int by_group = run_flocks(got, M, &env, group, PT_BEH_BIT(PT_BEH_EVADE), threads, 0, 90, fgot, &agot);
            ck_assert_int_eq(by_group, pattern < 3);
            ck_assert_msg(same_state(got, ref, M), "groups %d: flocks with %d threads differ from brute force", pattern,
                          threads);
            ck_assert_msg(memcmp(fgot, fref, sizeof fref) == 0, "groups %d: forces with %d threads differ", pattern,
                          threads);
            ck_assert_int_eq(agot, aref);
        }
    }
    for (int i = 0; i < M; i++) group[i] = (uint32_t)(i % 3) + 1;
    memcpy(ref, start, sizeof start);
    run_flocks(ref, M, &env, group, PT_BEH_BIT(PT_BEH_EVADE), 1, 1, 90, fref, &aref);
    /* without the groups, or without the alarm, the flocks go elsewhere */
    memcpy(got, start, sizeof start);
    run_flocks(got, M, &env, NULL, PT_BEH_BIT(PT_BEH_EVADE), 2, 0, 90, fgot, &agot);
    ck_assert(!same_state(got, ref, M));
    memcpy(got, start, sizeof start);
    run_flocks(got, M, &env, group, 0, 2, 0, 90, fgot, &agot);
    ck_assert(!same_state(got, ref, M));
    ck_assert_int_eq(agot, 0);
    /* The weighted combiner adds every force, so alignment counts however strong the
     * separation: agent 11's heading, not finite at the start, stays out of the means. */
    params_with(&params, PT_COMBINE_WEIGHTED, 0.0);
    memcpy(ref, start, sizeof start);
    run_flocks(ref, M, &env, group, PT_BEH_BIT(PT_BEH_EVADE), 1, 1, 30, fref, &aref);
    for (int threads = 1; threads <= 2; threads++) {
        memcpy(got, start, sizeof start);
        run_flocks(got, M, &env, group, PT_BEH_BIT(PT_BEH_EVADE), threads, 0, 30, fgot, &agot);
        ck_assert_msg(same_state(got, ref, M), "weighted flocks with %d threads differ from brute force", threads);
    }
    params_with(&params, PT_COMBINE_DEFAULT, 0.0);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* The most agents of one group in one cell of c's cell space, for each group 0..G-1 (the
 * in-place mode weighs a group's pairs once while this is at most HALF_CELL_MAX). */
static void group_cell_most(const pt_crowd *c, const pt_steer_agent *a, int n, const uint32_t *group, int G,
                            int *most) {
    int ncells = c->cs.cols * c->cs.rows;
    int *count = calloc((size_t)ncells * (size_t)G, sizeof *count);
    ck_assert_ptr_nonnull(count);
    for (int g = 0; g < G; g++) most[g] = 0;
    for (int i = 0; i < n; i++) {
        int k = pt_cellspace_cell(&c->cs, a[i].veh.pos) * G + (int)group[i];
        if (++count[k] > most[group[i]]) most[group[i]] = count[k];
    }
    free(count);
}

/* Flocks by group with each pair weighed once (pairs.h, inplace.c), against brute force bit
 * for bit: one, two, three or eight groups overlapping in one clump, so that groups move in
 * and out of the half lists as their densest cell passes HALF_CELL_MAX; a NaN heading, an agent
 * at NaN, agents on one spot; 1, 2, 3 threads (groups split between the shares: the terms
 * from before a share's first slot), with and without AVX, and the weighted combiner. */
START_TEST(test_group_half_lists_equal_brute_force) {
    enum { M = 600, T = 60 };
    static pt_steer_agent start[M], ref[M], got[M];
    static pt_vec2 fref[M];
    static uint32_t group[M];
    static const int groups[] = {2, 3, 8, 1};
    static const double areas[] = {9.5, 12.0, 8.0, 10.0};
    unsigned beh = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER);
    int half = 0, near_cap = 0, full = 0;
    for (int gi = 0; gi < 4; gi++) {
        int G = groups[gi];
        pt_combiner comb = gi == 1 ? PT_COMBINE_WEIGHTED : PT_COMBINE_DEFAULT;
        make_agents(start, M, 90 + (uint64_t)gi, areas[gi], 3.0);
        params_with(&params, comb, 0.0); /* the agents read it through their params */
        pt_rng rng;
        pt_rng_seed(&rng, 91 + (uint64_t)gi, 0);
        for (int i = 0; i < M; i++) group[i] = pt_rng_below(&rng, (uint32_t)G);
        start[11].veh.heading = pt_v2(NAN, 0.0);
        start[12].veh.pos = pt_v2(NAN, 1.0);
        for (int i = 0; i < 4; i++) {
            start[40 + i].veh.pos = start[39].veh.pos; /* on one spot, in one group */
            group[40 + i] = group[39];
        }
        memcpy(ref, start, sizeof ref);
        pt_crowd_desc d = {.agents = ref, .n = M, .behaviours = beh, .view_radius = 2.5, .threads = 1,
                           .min_share = 1, .group = group};
        pt_crowd *cr = pt_crowd_create(&d);
        ck_assert_ptr_nonnull(cr);
        for (int t = 0; t < T; t++) pt_crowd_step_brute(cr, 1.0 / 30.0);
        memcpy(fref, pt_crowd_forces(cr), sizeof fref);
        pt_crowd_destroy(cr);
        for (int run = 0; run < 4; run++) {
            int threads = run < 3 ? run + 1 : 2;
            memcpy(got, start, sizeof got);
            d.agents = got;
            d.threads = threads;
            pt_crowd *c = pt_crowd_create(&d);
            ck_assert_ptr_nonnull(c);
            if (run == 3) c->wide = 0; /* two lanes (SSE2) even where there is AVX */
            for (int t = 0; t < T; t++) {
                if (run == 0) {
                    int most[8];
                    group_cell_most(c, got, M, group, G, most);
                    for (int g = 0; g < G; g++) {
                        half += most[g] <= HALF_CELL_MAX;
                        near_cap += most[g] <= HALF_CELL_MAX && most[g] > HALF_CELL_MAX - 8;
                        full += most[g] > HALF_CELL_MAX;
                    }
                }
                pt_crowd_step(c, 1.0 / 30.0);
                ck_assert(!pt_crowd_packed(c));
                ck_assert_ptr_nonnull(c->gm);
                ck_assert(c->gm->on && c->gm->acc);
            }
            ck_assert_msg(memcmp(pt_crowd_forces(c), fref, sizeof fref) == 0, "%d groups, run %d: forces differ", G,
                          run);
            pt_crowd_destroy(c);
            ck_assert_msg(same_state(got, ref, M), "%d groups, run %d (%d threads): differs from brute force", G, run,
                          threads);
        }
        ck_assert(!same_state(ref, start, M));
    }
    params_with(&params, PT_COMBINE_DEFAULT, 0.0);
    ck_assert_int_gt(half, 0);
    ck_assert_int_gt(near_cap, 0);
    ck_assert_int_gt(full, 0);
}
END_TEST

/* Who is alarmed is exactly hypot(target - pos) <= alarm_radius, whatever shortcut the
 * test takes: random points, points within a few ulps of the circle, radii of every
 * scale, infinities and NaN. */
START_TEST(test_alarm_radius_is_hypot) {
    pt_crowd c;
    memset(&c, 0, sizeof c);
    c.behaviours = PT_BEH_FLOCKING;
    c.alarm_behaviours = PT_BEH_BIT(PT_BEH_EVADE);
    unsigned alarmed = c.behaviours | c.alarm_behaviours;
    static const double radii[] = {4.0, 0.5, 1e-3, 1e-120, 1e-310, 3e5, 1e120, 0.0, INFINITY, NAN};
    pt_rng rng;
    pt_rng_seed(&rng, 91, 0);
    int near = 0, far = 0;
    for (int k = 0; k < 200000; k++) {
        double r = radii[k % 10];
        c.alarm_radius = r;
        pt_vec2 tp = pt_v2(pt_rng_signed(&rng) * 100.0, pt_rng_signed(&rng) * 100.0), pos;
        double a = pt_rng_unit(&rng) * 6.283185307179586;
        int kind = k / 10 % 4;
        if (kind == 0) { /* on the circle, give or take a few ulps */
            double d = r + (double)((int)pt_rng_below(&rng, 17) - 8) * r * 0x1p-52;
            pos = pt_v2(tp.x + d * cos(a), tp.y + d * sin(a));
        } else if (kind == 1) { /* anywhere round it */
            double d = r * 3.0 * pt_rng_unit(&rng);
            pos = pt_v2(tp.x + d * cos(a), tp.y + d * sin(a));
        } else if (kind == 2) { /* far, or huge */
            pos = pt_v2(tp.x + pt_rng_signed(&rng) * 1e200, tp.y + pt_rng_signed(&rng) * 1e-200);
        } else { /* not finite */
            static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0};
            pos = pt_v2(odd[pt_rng_below(&rng, 4)], odd[pt_rng_below(&rng, 4)]);
        }
        unsigned want = hypot(tp.x - pos.x, tp.y - pos.y) <= r ? alarmed : c.behaviours;
        unsigned got = pt__crowd_agent_behaviours(&c, tp, pos);
        ck_assert_msg(got == want, "alarm at r %g, (%.17g, %.17g) from (%.17g, %.17g)", r, pos.x, pos.y, tp.x, tp.y);
        near += want == alarmed;
        far += want != alarmed;
    }
    ck_assert_int_gt(near, 1000);
    ck_assert_int_gt(far, 1000);
}
END_TEST

/* The stack step (two or four agents at once with any stateless behaviours) under the
 * combiners, budgets and parameters it reads: equal to brute force bit for bit for 1-3
 * threads, over ticks of odd lengths, with a pursued agent (its own lane has no evader). */
START_TEST(test_stack_lanes_equal_brute_force) {
    enum { M = 200 };
    static pt_steer_agent start[M];
    static pt_steer_params pv[4];
    params_with(&pv[0], PT_COMBINE_WEIGHTED, 0.0);
    params_with(&pv[1], PT_COMBINE_DEFAULT, 0.0);
    pv[1].deceleration = PT_DECEL_SLOW;
    pv[1].facing_angle = 70.0 * (PT_PI / 180.0);
    pv[1].turn_around_time = 1.3;
    params_with(&pv[2], PT_COMBINE_DEFAULT, 0.0);
    pv[2].weight[PT_BEH_SEPARATION] = 40.0; /* separation alone can spend the budget */
    params_with(&pv[3], PT_COMBINE_DEFAULT, 0.0);
    pt_map m;
    walled_room(&m);
    pt_map_set(&m, 20, 20, '#');
    pt_map_set(&m, 21, 20, '#');
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    const unsigned sets[] = {
        PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_SEEK) |
            PT_BEH_BIT(PT_BEH_ARRIVE),
        PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_COHESION) | PT_BEH_BIT(PT_BEH_PURSUIT) |
            PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE),
        PT_BEH_BIT(PT_BEH_EVADE) | PT_BEH_BIT(PT_BEH_FLEE) | PT_BEH_BIT(PT_BEH_ARRIVE) | PT_BEH_BIT(PT_BEH_CONTAINMENT),
    };
    for (int cfg = 0; cfg < 4; cfg++)
        for (int set = 0; set < 3; set++) {
            make_agents(start, M, 90 + (uint64_t)(cfg * 3 + set), 24.0, 8.0);
            for (int i = 0; i < M; i++) {
                pt_steer_agent *a = &start[i];
                a->params = &pv[cfg];
                if (cfg == 3) a->veh.max_force = 0.4; /* every force scaled to what is left */
                if (!pt_map_walkable(&m, (int)floor(a->veh.pos.x), (int)floor(a->veh.pos.y)))
                    a->veh.pos = pt_v2(10.5, 10.5);
            }
            packed_case(start, M, &env, sets[set], 7);
        }
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* Half neighbour lists (each pair weighed once, by the earlier slot; chunks of the step
 * collect the pairs that cross into them) in crowds from sparse to so dense that agents
 * have more than PT_CROWD_NB_MAX neighbours while the half lists run, and denser still
 * (the per-agent scan takes over, then the half lists again as the crowd spreads): equal to
 * brute force bit for bit for 1-3 threads (min_share = 1: many small chunks, each with its
 * own boundary; four lanes where the processor has AVX, two with 3 threads; the running
 * sums in each thread's ring, and in gsum once), and each path really ran. */
static int most_neighbours(const pt_steer_agent *a, int n, double r) {
    int most = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int j = 0; j < n; j++) k += j != i && pt_v2_dist2(a[i].veh.pos, a[j].veh.pos) <= r * r;
        most = k > most ? k : most;
    }
    return most;
}

START_TEST(test_half_lists_equal_brute_force) {
    enum { M = 600, T = 90 };
    static pt_steer_agent start[M], ref[M], got[M];
    static const double areas[] = {60.0, 12.0, 8.0};
    int half_over_cap = 0, full_steps = 0, half_steps = 0, ring_steps = 0, gsum_steps = 0;
    for (int ai = 0; ai < 3; ai++) {
        make_agents(start, M, 80 + (uint64_t)ai, areas[ai], 3.0);
        for (int i = 0; i < 4; i++) start[40 + i].veh.pos = start[39].veh.pos; /* coincident */
        for (int b = 0; b < 2; b++) {
            unsigned beh = b ? PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_SEEK) : PT_BEH_FLOCKING;
            memcpy(ref, start, sizeof ref);
            pt_crowd *cr = mk(NULL, ref, M, beh, 2.5, 1, 0);
            pt_crowd_set_target_point(cr, pt_v2(20.0, 20.0));
            for (int t = 0; t < T; t++) pt_crowd_step_brute(cr, 1.0 / 30.0);
            pt_crowd_destroy(cr);
            for (int run = 1; run <= 4; run++) {
                int threads = run < 4 ? run : 2;
                memcpy(got, start, sizeof got);
                pt_crowd *c = mk(NULL, got, M, beh, 2.5, threads, 1);
                if (threads == 3) c->wide = 0; /* two lanes (SSE2) even where there is AVX */
                c->no_ring = run == 4;         /* the running sums in gsum, not in rings */
                pt_crowd_set_target_point(c, pt_v2(20.0, 20.0));
                for (int t = 0; t < T; t++) {
                    int most = 0;
                    if (threads == 1 && t % 10 == 0) {
                        pt_crowd_sync(c);
                        most = most_neighbours(got, M, 2.5);
                    }
                    pt_crowd_step(c, 1.0 / 30.0);
                    ck_assert_int_eq(pt_crowd_packed(c), 1);
                    half_steps += c->half;
                    full_steps += !c->half;
                    ring_steps += c->half && c->ring_mask;
                    gsum_steps += c->half && !c->ring_mask;
                    half_over_cap += c->half && most > PT_CROWD_NB_MAX;
                }
                pt_crowd_destroy(c);
                ck_assert_msg(same_state(got, ref, M), "area %g, behaviours %u, %d threads%s: differs from brute force",
                              areas[ai], beh, threads, run == 4 ? " (gsum)" : "");
            }
            ck_assert(!same_state(ref, start, M));
        }
    }
    ck_assert_int_gt(half_steps, 0);
    ck_assert_int_gt(full_steps, 0);
    ck_assert_int_gt(half_over_cap, 0);
    ck_assert_int_gt(ring_steps, 0);
    ck_assert_int_gt(gsum_steps, 0);
}
END_TEST

/* Which mode: stateful behaviours (wander), the dithered combiner, agents with their own
 * params or constants, or a side that is not perp(heading) keep the agents' structs; the
 * rest is packed. Changing the behaviours between steps moves between modes, and the agents
 * read after pt_crowd_sync are the same either way. */
START_TEST(test_mode_choice) {
    enum { M = 200 };
    static pt_steer_agent a[M], b[M];
    static pt_steer_params pd;
    make_agents(a, M, 81, 20.0, 0.0);
    pt_crowd *c = mk(NULL, a, M, PT_BEH_FLOCKING, 2.5, 1, 1);
    ck_assert_int_eq(pt_crowd_packed(c), 1);
    pt_crowd_set_behaviours(c, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER));
    pt_crowd_step(c, 1.0 / 60.0);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    pt_crowd_set_behaviours(c, PT_BEH_FLOCKING);
    pt_crowd_step(c, 1.0 / 60.0);
    ck_assert_int_eq(pt_crowd_packed(c), 1);
    a[3].veh.max_speed = 4.0; /* one agent of its own */
    pt_crowd_reload(c);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    a[3].veh.max_speed = a[4].veh.max_speed;
    a[5].veh.side = pt_v2(0.0, 0.0);
    pt_crowd_reload(c);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    a[5].veh.side = pt_v2_perp(a[5].veh.heading);
    pt_crowd_reload(c);
    ck_assert_int_eq(pt_crowd_packed(c), 1);
    pt_crowd_destroy(c);
    params_with(&pd, PT_COMBINE_DITHERED, 0.0);
    for (int i = 0; i < M; i++) a[i].params = &pd;
    c = mk(NULL, a, M, PT_BEH_FLOCKING, 2.5, 1, 1);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    pt_crowd_destroy(c);
    /* switching modes every few ticks equals brute force */
    make_agents(a, M, 83, 20.0, 0.0);
    memcpy(b, a, sizeof a);
    pt_crowd *ca = mk(NULL, a, M, PT_BEH_FLOCKING, 2.5, 2, 1);
    pt_crowd *cb = mk(NULL, b, M, PT_BEH_FLOCKING, 2.5, 1, 1);
    int packed_ticks = 0, differ = 0;
    for (int t = 0; t < 90; t++) {
        unsigned beh = (t / 10) % 2 ? PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) : PT_BEH_FLOCKING;
        pt_crowd_set_behaviours(ca, beh);
        pt_crowd_set_behaviours(cb, beh);
        pt_crowd_step(ca, 1.0 / 60.0);
        pt_crowd_step_brute(cb, 1.0 / 60.0);
        packed_ticks += pt_crowd_packed(ca);
        pt_crowd_sync(ca);
        differ += !same_state(a, b, M);
    }
    pt_crowd_destroy(ca);
    pt_crowd_destroy(cb);
    ck_assert_int_eq(differ, 0);
    ck_assert_int_eq(packed_ticks, 50);
}
END_TEST

/* pt_crowd_create: a zeroed description's fields take their defaults (view radius 2.5, one
 * thread, PT_CROWD_MIN_SHARE, no target agent), the desc's groups and alarm keep the crowd
 * in place, NULL is refused, and pt_crowd_destroy takes NULL. */
START_TEST(test_create_defaults) {
    enum { M = 50 };
    static pt_steer_agent a[M];
    static const uint32_t group[M];
    make_agents(a, M, 85, 10.0, 0.0);
    ck_assert_ptr_null(pt_crowd_create(NULL));
    pt_crowd_destroy(NULL);
    pt_crowd_desc d = {.agents = a, .n = M};
    pt_crowd *c = pt_crowd_create(&d);
    ck_assert_ptr_nonnull(c);
    ck_assert_double_eq(c->view_radius, 2.5);
    ck_assert_int_eq(c->threads, 1);
    ck_assert_int_eq(c->min_share, PT_CROWD_MIN_SHARE);
    ck_assert_int_eq(pt_crowd_target(c), -1);
    ck_assert_uint_eq(pt_crowd_behaviours(c), 0);
    pt_crowd_set_min_share(c, 0);
    ck_assert_int_eq(c->min_share, PT_CROWD_MIN_SHARE);
    pt_crowd_set_behaviours(c, PT_BEH_FLOCKING);
    pt_crowd_step(c, 1.0 / 60.0);
    ck_assert_int_eq(pt_crowd_packed(c), 1);
    pt_crowd_set_group(c, group); /* groups take the agents' own structs */
    pt_crowd_step(c, 1.0 / 60.0);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    pt_crowd_destroy(c);
    d.behaviours = PT_BEH_FLOCKING;
    d.alarm_behaviours = PT_BEH_BIT(PT_BEH_EVADE);
    d.alarm_radius = 1.0;
    c = pt_crowd_create(&d);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(pt_crowd_packed(c), 0);
    pt_crowd_set_alarm(c, 0, 0.0);
    pt_crowd_reload(c);
    ck_assert_int_eq(pt_crowd_packed(c), 1);
    pt_crowd_destroy(c);
}
END_TEST

int main(void) {
    Suite *s = suite_create("crowd");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_cellspace_equals_brute_force);
    tcase_add_test(tc, test_threads_are_deterministic);
    tcase_add_test(tc, test_walled_room_invariants);
    tcase_add_test(tc, test_dense_clump_equals_brute_force);
    tcase_add_test(tc, test_outside_and_nan_equal_brute_force);
    tcase_add_test(tc, test_pursuit_and_combiners_equal_brute_force);
    tcase_add_test(tc, test_vehicle_turn_limit);
    tcase_add_test(tc, test_varied_flocking_equals_brute_force);
    tcase_add_test(tc, test_flocking_sparse_and_dense);
    tcase_add_test(tc, test_pairs_with_fallback_lanes_equal_brute_force);
    tcase_add_test(tc, test_edits_between_steps_equal_brute_force);
    tcase_add_test(tc, test_packed_mode_equals_brute_force);
    tcase_add_test(tc, test_target_changes_equal_brute_force);
    tcase_add_test(tc, test_stack_lanes_equal_brute_force);
    tcase_add_test(tc, test_groups_and_alarm_equal_brute_force);
    tcase_add_test(tc, test_alarm_radius_is_hypot);
    tcase_add_test(tc, test_mode_choice);
    tcase_add_test(tc, test_create_defaults);
    tcase_add_test(tc, test_half_lists_equal_brute_force);
    tcase_add_test(tc, test_group_half_lists_equal_brute_force);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
