/* SPDX-License-Identifier: Zlib */
/* The flocks by group's neighbour sums (bulk/inplace.c, bulk/pairs.h): the
 * in-place step equals brute force bit for bit, state and forces, over many ticks and
 * generated crowds: groups that overlap (their members mixed in one area), a clump of 100
 * members of one group in a small area (every one of them has more than PT_CROWD_NB_MAX in
 * range, and cells hold far more than the half lists take), agents on top of each other
 * (separation's coincident case), a NaN position and a NaN heading for a while; with
 * alignment and without; 1 to 3 threads, with the AVX build of the half lists (where the
 * processor has AVX) and without it (the wide test hook off), and agent by agent in a
 * dense group. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/crowd.h>
#include <patrol/rng.h>

#include "bulk/crowd_priv.h" /* the test hooks: wide, gm */
#include "test_util.h"

enum { M = 600, TICKS = 60 };

static pt_steer_params params;

/* A crowd of M agents over a 30x30 area in `groups` groups drawn at random (so they
 * overlap), then 100 agents of group 1 clumped in 1.2 x 1.2 around (12, 12), and runs of
 * agents on the same spot. */
static void make_crowd(pt_steer_agent *a, uint32_t *group, uint64_t seed, int groups) {
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    pt_steer_params_default(&params);
    pt_steer_params_resolve(&params);
    for (int i = 0; i < M; i++) {
        pt_vec2 p = pt_v2(pt_rng_unit(&r) * 30.0, pt_rng_unit(&r) * 30.0);
        if (i < 100) p = pt_v2(11.4 + pt_rng_unit(&r) * 1.2, 11.4 + pt_rng_unit(&r) * 1.2);
        pt_vehicle v;
        pt_vehicle_init(&v, p, pt_rng_unit(&r) * PT_TAU);
        v.vel = pt_v2_scale(v.heading, 1.0);
        pt_vehicle_resolve(&v);
        pt_steer_agent_init(&a[i], &v, &params, seed, (uint64_t)i);
        group[i] = i < 100 ? 1u : 1u + pt_rng_below(&r, (uint32_t)groups);
    }
    int at = 100 + (int)pt_rng_below(&r, 300);
    for (int i = 1; i < 5; i++) a[at + i].veh.pos = a[at].veh.pos; /* mostly of other groups */
    for (int i = 1; i < 4; i++) a[40 + i].veh.pos = a[40].veh.pos; /* in the clump */
}

/* Bit for bit: position, velocity, heading, turn state, wander state. */
static int same_state(const pt_steer_agent *a, const pt_steer_agent *b, int n) {
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i].veh.pos, &b[i].veh.pos, sizeof a[i].veh.pos) ||
            memcmp(&a[i].veh.vel, &b[i].veh.vel, sizeof a[i].veh.vel) ||
            memcmp(&a[i].veh.heading, &b[i].veh.heading, sizeof a[i].veh.heading) ||
            a[i].veh.turn_dir != b[i].veh.turn_dir || memcmp(&a[i].wander, &b[i].wander, sizeof a[i].wander))
            return 0;
    return 1;
}

/* TICKS ticks of the crowd a (brute force, or the step with `threads`, with the AVX lanes
 * or not); agent 7's heading is NaN from tick 10, agent 300 at NaN from tick 20 to 30.
 * The forces of the last tick go to forces; returns the ticks the slots were in group
 * order (the sums ran by group). */
static int run(pt_steer_agent *a, const uint32_t *group, unsigned beh, int threads, int brute, int wide,
               pt_vec2 *forces) {
    pt_crowd_desc d = {.agents = a, .n = M, .behaviours = beh, .view_radius = 2.5, .threads = threads,
                       .min_share = 1, .group = group};
    pt_crowd *c = pt_crowd_create(&d);
    ck_assert_ptr_nonnull(c);
    if (!wide) c->wide = 0;
    pt_vec2 keep = pt_v2(0.0, 0.0);
    int by_group = 0;
    for (int t = 0; t < TICKS; t++) {
        if (t == 10 || t == 20 || t == 30) {
            pt_crowd_sync(c);
            if (t == 10) a[7].veh.heading = pt_v2(NAN, 0.0);
            if (t == 20) {
                keep = a[300].veh.pos;
                a[300].veh.pos = pt_v2(NAN, 4.0);
            }
            if (t == 30) a[300].veh.pos = keep;
            pt_crowd_reload(c);
        }
        if (brute) pt_crowd_step_brute(c, 1.0 / 60.0);
        else pt_crowd_step(c, 1.0 / 60.0);
        by_group += c->gm && c->gm->on;
    }
    pt_crowd_sync(c);
    memcpy(forces, pt_crowd_forces(c), sizeof *forces * M);
    pt_crowd_destroy(c);
    return by_group;
}

START_TEST(test_group_sums_equal_brute_force) {
    static pt_steer_agent start[M], ref[M], got[M];
    static uint32_t group[M];
    static pt_vec2 fref[M], fgot[M];
    static const unsigned behs[2] = {PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER),
                                     PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_COHESION)};
    uint64_t seed = 100 + (uint64_t)_i;
    make_crowd(start, group, seed, 2 + _i % 4);
    unsigned beh = behs[_i % 2];
    memcpy(ref, start, sizeof ref);
    run(ref, group, beh, 1, 1, 1, fref);
    ck_assert(!same_state(ref, start, M));
    int nan_pos = 0;
    for (int i = 0; i < M; i++) nan_pos += !pt_v2_is_finite(ref[i].veh.pos);
    ck_assert_int_eq(nan_pos, 0); /* the clump and the coincident agents spread without NaN */
    for (int wide = 0; wide <= 1; wide++)
        for (int threads = 1; threads <= 3; threads++) {
            memcpy(got, start, sizeof got);
            int by_group = run(got, group, beh, threads, 0, wide, fgot);
            ck_assert_int_eq(by_group, TICKS);
            ck_assert_msg(same_state(got, ref, M), "seed %d: %d threads, wide %d differ from brute force", (int)seed,
                          threads, wide);
            ck_assert_msg(memcmp(fgot, fref, sizeof fref) == 0, "seed %d: forces with %d threads, wide %d differ",
                          (int)seed, threads, wide);
        }
}
END_TEST

/* The groups really matter here: without them the same crowd goes elsewhere. */
START_TEST(test_group_sums_groups_matter) {
    static pt_steer_agent start[M], a[M], b[M];
    static uint32_t group[M];
    static pt_vec2 f[M];
    make_crowd(start, group, 7, 3);
    memcpy(a, start, sizeof a);
    memcpy(b, start, sizeof b);
    run(a, group, PT_BEH_FLOCKING, 2, 0, 1, f);
    run(b, NULL, PT_BEH_FLOCKING, 2, 0, 1, f);
    ck_assert(!same_state(a, b, M));
}
END_TEST

int main(void) {
    Suite *s = suite_create("crowd_groups");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_group_sums_equal_brute_force, 0, 6);
    tcase_add_test(tc, test_group_sums_groups_matter);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
