/* pt_crowd: the optimised step (cell space, threads) gives exactly the straightforward
 * result (brute-force neighbours, one thread), over many ticks. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/crowd.h>
#include <patrol/rng.h>

#include "test_util.h"

#define N 300

static pt_steer_params params;

static void make_agents(pt_steer_agent *a, int n, uint64_t seed, double area, double x0) {
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    pt_steer_params_default(&params);
    pt_steer_params_resolve(&params);
    for (int i = 0; i < n; i++) {
        pt_vehicle v;
        pt_vehicle_init(&v, pt_v2(x0 + pt_rng_unit(&r) * area, x0 + pt_rng_unit(&r) * area), pt_rng_unit(&r) * PT_TAU);
        v.vel = pt_v2_scale(v.heading, 1.0);
        pt_vehicle_resolve(&v);
        pt_steer_agent_init(&a[i], &v, &params, seed, (uint64_t)i);
    }
}

static void run(pt_steer_agent *a, int n, const pt_steer_env *env, int threads, int brute, int ticks) {
    pt_crowd c;
    unsigned beh = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) |
                   (env ? PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) : 0);
    ck_assert_int_eq(pt_crowd_init(&c, env, a, n, beh, 2.5, threads), PT_OK);
    for (int t = 0; t < ticks; t++) {
        if (brute) pt_crowd_step_brute(&c, 1.0 / 60.0);
        else pt_crowd_step(&c, 1.0 / 60.0);
    }
    pt_crowd_fini(&c);
}

static int same_state(const pt_steer_agent *a, const pt_steer_agent *b, int n) {
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i].veh.pos, &b[i].veh.pos, sizeof a[i].veh.pos) || memcmp(&a[i].veh.vel, &b[i].veh.vel, sizeof a[i].veh.vel))
            return 0;
    return 1;
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
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 40, 40, &err), PT_OK);
    for (int i = 0; i < 40; i++) {
        pt_map_set(&m, i, 0, '#'); pt_map_set(&m, i, 39, '#');
        pt_map_set(&m, 0, i, '#'); pt_map_set(&m, 39, i, '#');
    }
    for (int y = 8; y < 32; y += 8) for (int x = 8; x < 32; x += 8) pt_map_set(&m, x, y, '#');
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    static pt_steer_agent a[N], b[N];
    make_agents(a, N, 3, 30.0, 4.5);
    for (int i = 0; i < N; i++) /* start off the walls */
        if (!pt_map_walkable(&m, (int)floor(a[i].veh.pos.x), (int)floor(a[i].veh.pos.y))) a[i].veh.pos = pt_v2(20.5, 20.5);
    memcpy(b, a, sizeof a);
    long bad = 0;
    pt_crowd c;
    ck_assert_int_eq(pt_crowd_init(&c, &env, a, N, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE), 2.5, 2), PT_OK);
    for (int t = 0; t < 1000; t++) {
        pt_crowd_step(&c, 1.0 / 60.0);
        for (int i = 0; i < N; i++) {
            pt_vec2 p = a[i].veh.pos;
            if (!pt_v2_is_finite(p) || !pt_map_walkable(&m, (int)floor(p.x), (int)floor(p.y))) bad++;
        }
    }
    pt_crowd_fini(&c);
    ck_assert_int_eq(bad, 0);
    run(b, N, &env, 1, 0, 1000);
    ck_assert(same_state(a, b, N));
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

int main(void) {
    Suite *s = suite_create("crowd");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_cellspace_equals_brute_force);
    tcase_add_test(tc, test_threads_are_deterministic);
    tcase_add_test(tc, test_walled_room_invariants);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
