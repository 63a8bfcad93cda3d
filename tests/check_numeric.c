/* SPDX-License-Identifier: Zlib */
/* Numeric safety (issue 7): no NaN or Inf ever enters the state, whatever the geometry
 * (agents on top of each other, zero-length segments, empty matrices, equal velocities), the
 * tick length (0, 1e6, NaN) or the parameters (zero mass). Each case says which division or
 * square root it is about. The last TCase runs whole worlds of coincident entities for
 * thousands of ticks. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/cellspace.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/steer.h>
#include <patrol/world.h>

#include "test_util.h"

static int v2_ok(pt_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static int vehicle_ok(const pt_vehicle *v) {
    return v2_ok(v->pos) && v2_ok(v->vel) && v2_ok(v->heading) && v2_ok(v->side) && v2_ok(v->smooth_heading) &&
           fabs(pt_v2_len(v->heading) - 1.0) < 1e-6 && pt_v2_len(v->vel) <= v->max_speed * (1 + 1e-9);
}

static void open_map(pt_map *m, int w, int h) {
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(m, w, h, &err), PT_OK);
    for (int x = 0; x < w; x++) {
        pt_map_set(m, x, 0, '#');
        pt_map_set(m, x, h - 1, '#');
    }
    for (int y = 0; y < h; y++) {
        pt_map_set(m, 0, y, '#');
        pt_map_set(m, w - 1, y, '#');
    }
}

static const pt_pattern *parse_one(pt_patlib *lib, const char *text) {
    pt_error err;
    pt_patlib_init(lib);
    int rc = pt_patlib_parse(lib, text, strlen(text), "numeric.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), err.line, err.col, err.message);
    ck_assert_int_eq(lib->count, 1);
    return lib->items[0];
}

/* ---- coincident agents -------------------------------------------------------------------- */

START_TEST(separation_of_coincident_agents) {
    /* separation divides by the distance to each neighbour: 0 here */
    enum { N = 6 };
    pt_vehicle v[N];
    int ids[N];
    for (int i = 0; i < N; i++) {
        pt_vehicle_init(&v[i], pt_v2(5.5, 5.5), 0.0);
        ids[i] = i;
    }
    pt_vec2 sum = pt_v2(0, 0);
    for (int i = 0; i < N; i++) {
        pt_neighbors nb = {v, 0, ids, N, i};
        pt_vec2 f = pt_steer_separation(&v[i], &nb);
        ck_assert(v2_ok(f));
        ck_assert(pt_v2_len(f) > 0.0); /* they do push apart */
        sum = pt_v2_add(sum, f);
        ck_assert(v2_ok(pt_steer_alignment(&v[i], &nb)));
        ck_assert(v2_ok(pt_steer_cohesion(&v[i], &nb)));
    }
    /* a pair pushes in opposite directions */
    pt_neighbors n0 = {v, 0, ids, 2, 0}, n1 = {v, 0, ids, 2, 1};
    pt_vec2 a = pt_steer_separation(&v[0], &n0), b = pt_steer_separation(&v[1], &n1);
    ck_assert(fabs(a.x + b.x) < 1e-12 && fabs(a.y + b.y) < 1e-12);
    ck_assert(v2_ok(sum));
}
END_TEST

START_TEST(flock_at_one_point) {
    /* A flock whose members all start on one point, flocking for 30 s with a cell space:
     * positions stay finite and the members spread out (separation works at distance 0). */
    enum { N = 24, TICKS = 1800 };
    pt_map m;
    open_map(&m, 20, 20);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    pt_steer_params prm;
    pt_steer_params_default(&prm);
    pt_steer_agent ag[N];
    for (int i = 0; i < N; i++) {
        pt_vehicle v;
        pt_vehicle_init(&v, pt_v2(10.0, 10.0), 0.0);
        pt_steer_agent_init(&ag[i], &v, &prm, 7, (uint64_t)i);
        ag[i].behaviours = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) |
                           PT_BEH_BIT(PT_BEH_CONTAINMENT);
    }
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, m.w, m.h, prm.view_radius), PT_OK);
    int ids[N];
    pt_vec2 force[N];
    int bad = 0;
    for (int t = 0; t < TICKS; t++) {
        ck_assert_int_eq(pt_cellspace_rebuild(&cs, &ag[0].veh.pos, sizeof ag[0], N), PT_OK);
        for (int i = 0; i < N; i++) {
            int k = pt_cellspace_query(&cs, ag[i].veh.pos, prm.view_radius, ids, N);
            pt_steer_ctx ctx = {.env = &env, .nb = {&ag[0].veh, sizeof ag[0], ids, k < N ? k : N, i}, .dt = 1.0 / 60};
            force[i] = pt_steer_calculate(&ag[i], &ctx);
            if (!v2_ok(force[i])) bad++;
        }
        for (int i = 0; i < N; i++) {
            pt_steer_ctx ctx = {.env = &env, .dt = 1.0 / 60};
            pt_steer_agent_update(&ag[i], &ctx, force[i], 1.0 / 60);
            pt_steer_collide(&env, &ag[i].veh.pos, &ag[i].veh.vel, ag[i].veh.radius);
            if (!vehicle_ok(&ag[i].veh)) bad++;
        }
    }
    ck_assert_int_eq(bad, 0);
    double spread = 0;
    for (int i = 1; i < N; i++) spread = fmax(spread, pt_v2_dist(ag[i].veh.pos, ag[0].veh.pos));
    ck_assert(spread > 0.5);
    pt_cellspace_fini(&cs);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* ---- zero-length segments and paths ---------------------------------------------------------- */

START_TEST(path_of_one_cell) {
    /* Every point the same cell: one cell, whatever the end mode; the walker stays put. */
    static const char *const ends[] = {"loop", "stop", "reverse", "restart"};
    pt_map m;
    open_map(&m, 10, 10);
    for (int e = 0; e < 4; e++) {
        char text[160];
        snprintf(text, sizeof text, "pattern p\n  kind path\n  points 4,4 4,4 4,4\n  at_end %s\nend\n", ends[e]);
        pt_patlib lib;
        const pt_pattern *p = parse_one(&lib, text);
        ck_assert_int_eq(p->ncells, 1);
        pt_patrun run;
        pt_patrun_init(&run, p, (pt_cell){4, 4}, (pt_cell){4, 4}, 0.5, 1, 1);
        int x = 4, y = 4, bad = 0;
        double h = 0.5;
        for (int t = 0; t < 100; t++) {
            pt_patrun_step(&run, &m, &x, &y, &h);
            if (x != 4 || y != 4 || !isfinite(h)) bad++;
        }
        ck_assert_int_eq(bad, 0);
        pt_cell cells[4];
        ck_assert_int_eq(pt_patrun_cells(&run, &m, cells, 4), 1);
        ck_assert(pt_patrun_resume_at(&run, &m, 4, 4));
        ck_assert_int_eq(pt_pattern_lint(p, &m, (pt_cell){4, 4}, 0.0, NULL, 0), 0);
        pt_patlib_fini(&lib);
    }
    pt_map_fini(&m);
}
END_TEST

START_TEST(repeated_waypoints) {
    /* Repeated points make zero-length segments: corridor following projects onto each
     * segment (divides by its length) and path following normalises the way to the point. */
    pt_vec2 pts[] = {{2.5, 2.5}, {2.5, 2.5}, {6.5, 2.5}, {6.5, 2.5}, {6.5, 2.5}, {2.5, 2.5}};
    pt_steer_params prm;
    pt_steer_params_default(&prm);
    for (int closed = 0; closed < 2; closed++) {
        for (int n = 1; n <= 6; n++) {
            pt_path path = {pts, n, closed, 0.0, 0};
            pt_vehicle v;
            pt_vehicle_init(&v, pts[0], 0.0);
            int bad = 0;
            for (int t = 0; t < 600; t++) {
                pt_vec2 f1 = pt_steer_follow_path(&v, &path, &prm);
                pt_vec2 f2 = pt_steer_follow_corridor(&v, &path, &prm);
                if (!v2_ok(f1) || !v2_ok(f2)) bad++;
                pt_vehicle_update(&v, t % 2 ? f1 : f2, 1.0 / 60);
                if (!vehicle_ok(&v) || path.current < 0 || path.current >= n) bad++;
            }
            ck_assert_msg(bad == 0, "closed=%d n=%d", closed, n);
        }
    }
    /* the same route as a pattern: parsed, placed and walked by the world's helpers */
    pt_patlib lib;
    const pt_pattern *p = parse_one(&lib, "pattern r\n  kind waypoints\n  points 2.5,2.5 2.5,2.5 6.5,2.5 6.5,2.5\nend\n");
    pt_map m;
    open_map(&m, 10, 10);
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){2, 2}, (pt_cell){2, 2}, 0.0, 1, 1);
    ck_assert_int_eq(pt_patrun_waypoint_count(&run), 4);
    for (int i = 0; i < 4; i++) ck_assert(v2_ok(pt_patrun_waypoint(&run, i)));
    pt_cell cells[32];
    ck_assert_int_gt(pt_patrun_cells(&run, &m, cells, 32), 0);
    ck_assert_int_eq(pt_pattern_lint(p, &m, (pt_cell){2, 2}, 0.0, NULL, 0), 0);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
    /* a waypoint route of one point repeated: a loop on the spot */
    p = parse_one(&lib, "pattern r\n  kind waypoints\n  points 3.5,3.5 3.5,3.5\nend\n");
    ck_assert_int_eq(p->nverts, 2);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(zero_length_segments_in_geometry) {
    /* A wall of zero length and a zero-radius query: wall avoidance intersects feelers with
     * each wall (divides by the cross product of the directions). */
    pt_wall walls[] = {{{3, 3}, {3, 3}, {0, 1}}, {{1, 5}, {8, 5}, {0, -1}}};
    pt_obstacle obs[] = {{4.0, 4.0, 0.0, 1, 0, 0}, {4.0, 4.0, 0.5, 1, 0, 0}};
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_set(&env, walls, 2, obs, 2, NULL), PT_OK);
    pt_steer_params prm;
    pt_steer_params_default(&prm);
    pt_vehicle v;
    int bad = 0;
    for (int k = 0; k < 16; k++) {
        pt_vehicle_init(&v, k < 8 ? pt_v2(3.0, 3.0) : pt_v2(4.0, 4.0), k * PT_PI / 4);
        if (!v2_ok(pt_steer_wall_avoidance(&v, &env, &prm))) bad++;
        if (!v2_ok(pt_steer_obstacle_avoidance(&v, &env, &prm))) bad++;
        pt_vehicle hunter;
        pt_vehicle_init(&hunter, pt_v2(4.0, 4.0), 0.0);
        if (!v2_ok(pt_steer_hide(&v, &hunter, &env, &prm))) bad++;
        pt_vec2 pos = v.pos, vel = pt_v2(1, 1);
        pt_steer_collide(&env, &pos, &vel, 0.35);
        if (!v2_ok(pos) || !v2_ok(vel)) bad++;
    }
    ck_assert_int_eq(bad, 0);
    pt_steer_env_fini(&env);
}
END_TEST

/* ---- empty matrices ----------------------------------------------------------------------- */

START_TEST(matrix_without_a_one_is_an_error) {
    static const char *const texts[] = {
        "pattern m\n  kind matrix\n  rows\n    000\n    0.0\n  end\nend\n",
        "pattern m\n  kind matrix\n  rows\n  end\nend\n",
    };
    for (int i = 0; i < 2; i++) {
        pt_patlib lib;
        pt_error err;
        pt_patlib_init(&lib);
        ck_assert_int_eq(pt_patlib_parse(&lib, texts[i], strlen(texts[i]), "m.pat", &err), PT_ERR_EMPTY);
        ck_assert_int_eq(err.line, 3);
        ck_assert_int_eq(lib.count, 0);
    }
}
END_TEST

START_TEST(matrix_walker_with_nowhere_to_go_stays_put) {
    /* A single 1, and a matrix whose 1s all lie on walls: no candidate, the walker waits. */
    pt_map m;
    open_map(&m, 10, 10);
    pt_patlib lib;
    const pt_pattern *p = parse_one(&lib, "pattern m\n  kind matrix\n  rows\n    010\n  end\nend\n");
    pt_patrun run;
    pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 3, 1);
    int x = 5, y = 5, bad = 0;
    double h = 0;
    for (int t = 0; t < 200; t++)
        if (pt_patrun_step(&run, &m, &x, &y, &h) != PT_STEP_WAITING || x != 5 || y != 5 || !isfinite(h)) bad++;
    ck_assert_int_eq(bad, 0);
    pt_patlib_fini(&lib);
    p = parse_one(&lib, "pattern m\n  kind matrix\n  rows\n    111\n    111\n  end\nend\n");
    pt_patrun_init(&run, p, (pt_cell){0, 0}, (pt_cell){0, 0}, 0.0, 3, 1); /* all on the corner walls */
    x = run.x;
    y = run.y;
    for (int t = 0; t < 200; t++) {
        pt_step_result r = pt_patrun_step(&run, &m, &x, &y, &h);
        if (r == PT_STEP_MOVED && !pt_map_walkable(&m, x, y)) bad++;
    }
    ck_assert_int_eq(bad, 0);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* ---- zero closing speed ------------------------------------------------------------------- */

START_TEST(intercept_with_zero_closing_speed) {
    /* Bourg's intercept divides the distance by the closing speed: 0 with equal velocities. */
    const pt_vec2 vels[] = {{0, 0}, {2, 0}, {-1.5, 2}, {1e-12, 0}};
    const pt_vec2 offsets[] = {{0, 0}, {3, 0}, {0, -2}, {1e-9, 0}};
    int bad = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            pt_vehicle a, b;
            pt_vehicle_init(&a, pt_v2(5, 5), 0.0);
            pt_vehicle_init(&b, pt_v2_add(pt_v2(5, 5), offsets[j]), 0.0);
            a.vel = b.vel = vels[i];
            pt_vec2 f = pt_steer_intercept(&a, &b);
            if (!v2_ok(f)) bad++;
            if (!v2_ok(pt_steer_pursuit(&a, &b, NULL))) bad++;
            if (!v2_ok(pt_steer_evade(&a, &b, NULL))) bad++;
            if (!v2_ok(pt_steer_interpose(&a, &b, &b, NULL))) bad++;
            if (!v2_ok(pt_steer_offset_pursuit(&a, &b, pt_v2(0, 0), NULL))) bad++;
            if (!v2_ok(pt_steer_flee(&a, b.pos, NULL))) bad++;
            if (!v2_ok(pt_steer_arrive(&a, b.pos, PT_DECEL_FAST, NULL))) bad++;
            /* and a chase of 10 s: the pursuer stays finite */
            for (int t = 0; t < 600; t++) {
                pt_vehicle_update(&a, pt_steer_intercept(&a, &b), 1.0 / 60);
                pt_vehicle_update(&b, pt_v2(0, 0), 1.0 / 60);
                if (!vehicle_ok(&a) || !vehicle_ok(&b)) bad++;
            }
        }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ---- frame time ------------------------------------------------------------------------------ */

START_TEST(vehicle_with_huge_and_zero_dt) {
    const double dts[] = {1e6, 0.0, -1.0, NAN, INFINITY, 1e-300, 1.0 / 60};
    int bad = 0;
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
        pt_vehicle v;
        pt_vehicle_init(&v, pt_v2(3, 4), 1.0);
        v.vel = pt_v2(1, 0.5);
        v.smooth_time = 0.2;
        pt_vehicle before = v;
        for (int t = 0; t < 50; t++) {
            pt_vehicle_update(&v, pt_v2(t % 3 - 1.0, 5.0), dts[i]);
            pt_vehicle_update_facing(&v, pt_v2(-5.0, 1.0), pt_v2(0, 0), dts[i]);
            pt_vehicle_turn_toward(&v, pt_v2(9, 9), dts[i]);
            if (!vehicle_ok(&v)) bad++;
        }
        /* no time, no motion */
        if (!(dts[i] > 0) || !isfinite(dts[i]))
            if (v.pos.x != before.pos.x || v.pos.y != before.pos.y) bad++;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(thrust_with_huge_and_zero_dt) {
    pt_patlib lib;
    const pt_pattern *p = parse_one(&lib, "pattern s\n  kind thrust\n  repeat 4\n    fire none distance=6\n"
                                          "    fire port turn=90\n  end\nend\n");
    const double dts[] = {1e6, 0.0, -1.0, NAN, INFINITY, 1e-9};
    int bad = 0;
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
        pt_patrun run;
        pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
        pt_thrust_state before = run.thrust;
        /* 2000 ticks of 1e6 s take the vehicle 4e12 tiles away: the cell saturates, no
         * overflowing int conversion (UBSan) */
        for (int t = 0; t < 2000; t++) {
            pt_patrun_thrust_tick(&run, dts[i]);
            const pt_thrust_state *s = &run.thrust;
            if (!v2_ok(s->pos) || !v2_ok(s->vel) || !isfinite(s->angle) || !isfinite(s->omega) ||
                !isfinite(run.heading) || !isfinite(s->dheading_deg) || !isfinite(s->dposition))
                bad++;
        }
        if (!(dts[i] > 0) || !isfinite(dts[i]))
            if (memcmp(&before, &run.thrust, sizeof before) != 0) bad++; /* no time, no change */
        /* a lap simulation after the odd ticks stays bounded (dt = 1e-9 would be 6e11 ticks) */
        pt_cell cells[8];
        pt_patrun_cells(&run, NULL, cells, 8);
        pt_patrun_resume_at(&run, NULL, 5, 5);
    }
    ck_assert_int_eq(bad, 0);
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- zero mass ------------------------------------------------------------------------------- */

START_TEST(vehicle_zero_mass_is_default) {
    /* Zero means default: a vehicle whose mass is 0 (also set after init) moves like mass 1. */
    pt_vehicle a, b;
    pt_vehicle_init(&a, pt_v2(2, 2), 0.0);
    b = a;
    b.mass = 0.0;
    pt_vehicle c = b;
    pt_vehicle_resolve(&c);
    ck_assert(c.mass == 1.0);
    for (int t = 0; t < 120; t++) {
        pt_vec2 f = pt_v2(3.0, t % 2 ? 1.0 : -2.0);
        pt_vehicle_update(&a, f, 1.0 / 60);
        pt_vehicle_update(&b, f, 1.0 / 60);
    }
    ck_assert(vehicle_ok(&b));
    ck_assert(pt_v2_dist(a.pos, b.pos) < 1e-12);
    ck_assert(pt_v2_len(b.vel) > 0.5); /* it moved (a NaN velocity used to be dropped to 0) */
    /* negative and NaN masses too */
    const double masses[] = {-1.0, NAN};
    for (int i = 0; i < 2; i++) {
        pt_vehicle d;
        pt_vehicle_init(&d, pt_v2(2, 2), 0.0);
        d.mass = masses[i];
        pt_vehicle_update(&d, pt_v2(3, 0), 1.0 / 60);
        ck_assert(vehicle_ok(&d));
    }
}
END_TEST

START_TEST(thrust_body_zero_mass_is_default) {
    pt_patlib lib0, lib1;
    const pt_pattern *p0 = parse_one(&lib0, "pattern s\n  kind thrust\n  body mass=0 inertia=0 drag=0\n"
                                            "  fire port turn=90\n  fire none time=2\nend\n");
    const pt_pattern *p1 = parse_one(&lib1, "pattern s\n  kind thrust\n  fire port turn=90\n  fire none time=2\nend\n");
    pt_patrun r0, r1;
    pt_patrun_init(&r0, p0, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    pt_patrun_init(&r1, p1, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
    ck_assert(r0.body.mass == 1.0 && r0.body.inertia == 0.25 && r0.body.drag == 1.0);
    for (int t = 0; t < 600; t++) {
        pt_patrun_thrust_tick(&r0, 1.0 / 60);
        pt_patrun_thrust_tick(&r1, 1.0 / 60);
    }
    ck_assert(v2_ok(r0.thrust.pos));
    ck_assert(memcmp(&r0.thrust, &r1.thrust, sizeof r0.thrust) == 0);
    pt_patlib_fini(&lib0);
    pt_patlib_fini(&lib1);
    /* the resolver also guards bodies built in code: zero, negative, NaN -> default; a tiny
     * or huge positive value is clamped (thrust/mass must not overflow) */
    pt_thrust_body_params b = {0.0, -1.0, NAN, 1e-300, INFINITY, 1e300, 0.5, 0.0};
    b = pt_thrust_body_resolve(b);
    ck_assert(b.mass == 1.0 && b.inertia == 0.25 && b.thrust == 2.0);
    ck_assert(b.turn_thrust == PT_THRUST_BODY_MIN && b.arm == PT_THRUST_BODY_MAX && b.drag == PT_THRUST_BODY_MAX);
    ck_assert(b.angular_drag == 0.5 && b.lateral_drag == 8.0);
}
END_TEST

START_TEST(thrust_body_extremes_stay_finite) {
    /* Regression (found by review, then by fuzz_pattern's finite check): `body mass=1e-307
     * thrust=1e6` made thrust/mass overflow to Inf and the position NaN. The parser now
     * refuses values in (0, PT_THRUST_BODY_MIN); the extremes it accepts stay finite. */
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    static const char tiny[] = "pattern s\n  kind thrust\n  body mass=1e-307 thrust=1e6\n  fire none time=1\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, tiny, sizeof tiny - 1, "t.pat", &err), PT_ERR_RANGE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 13);
    static const char *const bodies[] = {
        "mass=1e-6 inertia=1e-6 thrust=1e6 turn_thrust=1e6 arm=1e6 drag=1e-6 angular_drag=1e-6 lateral_drag=1e-6",
        "mass=1e6 inertia=1e6 thrust=1e-6 turn_thrust=1e-6 arm=1e-6 drag=1e6 angular_drag=1e6 lateral_drag=1e6",
    };
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        char text[400];
        snprintf(text, sizeof text, "pattern s\n  kind thrust\n  body %s\n  fire port turn=90\n  fire none time=1\nend\n",
                 bodies[i]);
        const pt_pattern *p = parse_one(&lib, text);
        pt_patrun run;
        pt_patrun_init(&run, p, (pt_cell){5, 5}, (pt_cell){5, 5}, 0.0, 1, 1);
        for (int t = 0; t < 600; t++) {
            pt_patrun_thrust_tick(&run, t % 100 ? 1.0 / 60 : 10.0);
            if (!v2_ok(run.thrust.pos) || !v2_ok(run.thrust.vel) || !isfinite(run.thrust.omega)) bad++;
        }
        pt_patlib_fini(&lib);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ---- whole worlds ----------------------------------------------------------------------------- */

static const char k_pats[] =
    "pattern still\n  kind path\n  points 5,5 5,5\nend\n"
    "pattern square\n  kind thrust\n  body mass=0\n  repeat 4\n    fire none distance=3\n    fire port turn=90\n  end\nend\n"
    "pattern route\n  kind waypoints\n  points 5.5,5.5 5.5,5.5 8.5,5.5 8.5,5.5 8.5,8.5\nend\n"
    "pattern dot\n  kind matrix\n  rows\n    1\n  end\nend\n"
    "pattern spin\n  kind control\n  right 90\n  wait 1\nend\n"
    "pattern back\n  kind path\n  points 5,5 6,5 6,5 5,5\n  at_end reverse\nend\n";

/* Everyone on cell 5,5: the player, guards of each chase mode and pattern kind, prey and
 * two flocks. */
static const char k_map[] =
    "patterns numeric.pat\n"
    "player at=5,5 pattern=back\n"
    "guard g_tile at=5,5 pattern=still chase=tile\n"
    "guard g_steer at=5,5 pattern=still chase=steer\n"
    "guard g_icpt at=5,5 pattern=route chase=intercept\n"
    "guard g_thrust at=5,5 pattern=square chase=intercept\n"
    "guard g_dot at=5,5 pattern=dot chase=steer\n"
    "guard g_spin at=5,5 pattern=spin fov=360 view=20\n"
    "guard g_idle at=5,5\n"
    "prey hen1 at=5,5\n"
    "prey hen2 at=5,5 speed=0.001\n"
    "flock hounds at=5,5 count=12\n"
    "flock crows at=5,5 count=12 kind=crow\n"
    "obstacle at=5.5,5.5 r=0.3\n"
    "grid\n"
    "############\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#....#.....#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "############\n"
    "end\n";

static int entity_ok(const pt_entity *e) {
    return isfinite(e->px) && isfinite(e->py) && isfinite(e->heading) && isfinite(e->awareness) &&
           isfinite(e->move_t) && isfinite(e->last_seen_x) && isfinite(e->last_seen_y) && v2_ok(e->veh.pos) &&
           v2_ok(e->veh.vel) && v2_ok(e->veh.heading);
}

static void run_world(int tick_hz, int ticks, uint64_t seed) {
    pt_map m;
    pt_patlib lib;
    pt_error err;
    int rc = pt_map_parse(&m, k_map, sizeof k_map - 1, "numeric.map", &err);
    ck_assert_msg(rc == PT_OK, "%s %d:%d %s", pt_code_name(rc), err.line, err.col, err.message);
    pt_patlib_init(&lib);
    rc = pt_patlib_parse(&lib, k_pats, sizeof k_pats - 1, "numeric.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s %d:%d %s", pt_code_name(rc), err.line, err.col, err.message);
    pt_world_desc desc = {.seed = seed, .tick_hz = tick_hz};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s %d:%d %s", pt_code_name(err.code), err.line, err.col, err.message);
    int n = pt_world_count(w), bad = 0, first_bad_tick = -1, first_bad_id = -1;
    ck_assert_int_eq(n, 1 + 7 + 2 + 24);
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        for (int i = 0; i < n; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            int ok = entity_ok(e) && pt_map_walkable(&m, e->x, e->y);
            if (!ok && first_bad_tick < 0) {
                first_bad_tick = t;
                first_bad_id = i;
            }
            bad += !ok;
        }
    }
    ck_assert_msg(bad == 0, "%d bad entity states (tick_hz %d); first: tick %d, entity %d", bad, tick_hz, first_bad_tick,
                  first_bad_id);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}

START_TEST(world_of_coincident_entities) { run_world(60, 3600, 1); }
END_TEST

START_TEST(world_of_coincident_entities_other_seeds) {
    for (uint64_t seed = 2; seed < 6; seed++) run_world(60, 900, seed);
}
END_TEST


START_TEST(world_from_defs_with_bad_numbers) {
    /* Maps built in code (not parsed) may carry any double: zero, negative, NaN and Inf
     * fields of an entity mean "default" (pt_entity_def_resolve), so the world stays finite. */
    pt_map m;
    open_map(&m, 12, 12);
    m.player.x = m.player.y = 2;
    m.player.speed = NAN;
    m.player.heading_deg = INFINITY;
    const double bad[] = {NAN, INFINITY, -INFINITY, -3.0, 0.0};
    enum { NB = 5 };
    m.ents = calloc(2 * NB, sizeof *m.ents);
    ck_assert_ptr_nonnull(m.ents);
    for (int i = 0; i < 2 * NB; i++) {
        pt_entity_def *d = &m.ents[i];
        snprintf(d->name, sizeof d->name, "e%d", i);
        d->kind = i < NB ? PT_KIND_GUARD : (i % 2 ? PT_KIND_PREY : PT_KIND_BOID);
        d->chase = (pt_chase)(i % PT_CHASE_COUNT);
        d->x = 3 + i % 6;
        d->y = 3 + i / 6;
        d->count = i == NB ? 4 : 0;
        double v = bad[i % NB];
        d->speed = d->view_dist = d->view_angle_deg = d->aware_rate = d->aware_decay = v;
        d->suspicious_at = d->chase_at = v;
        d->heading_deg = v;
    }
    m.nents = 2 * NB;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    pt_world *w = pt_world_create(&m, &lib, NULL, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int bad_states = 0;
    for (int t = 0; t < 1200; t++) {
        pt_world_step(w);
        for (int i = 0; i < pt_world_count(w); i++) bad_states += !entity_ok(pt_world_entity(w, i));
    }
    ck_assert_int_eq(bad_states, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

START_TEST(world_with_long_and_short_ticks) {
    /* The world has a fixed tick; its length comes from tick_hz (1 Hz: one second a tick). */
    run_world(1, 300, 1);
    run_world(1000, 3000, 1);
}
END_TEST


/* ---- dense crowds ------------------------------------------------------------------------------ */

START_TEST(cellspace_query_first_is_the_head_of_query) {
    /* pt_cellspace_query_first gives exactly the first max ids of pt_cellspace_query (so a
     * caller keeping max neighbours gets the same forces, bit for bit) but stops scanning: a
     * crowd stacked on one spot no longer costs O(n^2) a tick. */
    enum { N = 3000, MAX = 64 };
    static pt_vec2 pos[N];
    pt_rng rng;
    pt_rng_seed(&rng, 11, 0);
    for (int i = 0; i < N; i++) /* a third stacked on one point, the rest spread */
        pos[i] = i % 3 == 0 ? pt_v2(10.5, 10.5) : pt_v2(pt_rng_below(&rng, 2000) / 100.0, pt_rng_below(&rng, 2000) / 100.0);
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 20, 20, 2.0), PT_OK);
    ck_assert_int_eq(pt_cellspace_rebuild(&cs, pos, 0, N), PT_OK);
    static int all[N], first[MAX];
    int bad = 0;
    for (int q = 0; q < 400; q++) {
        pt_vec2 p = q % 4 == 0 ? pt_v2(10.5, 10.5) : pt_v2(pt_rng_below(&rng, 2400) / 100.0 - 2, pt_rng_below(&rng, 2400) / 100.0 - 2);
        double r = pt_rng_below(&rng, 400) / 100.0;
        int max = q % 5 == 0 ? 1 : MAX;
        int total = pt_cellspace_query(&cs, p, r, all, N);
        int got = pt_cellspace_query_first(&cs, p, r, first, max);
        if (got != (total < max ? total : max)) bad++;
        for (int k = 0; k < got && k < total; k++)
            if (first[k] != all[k]) bad++;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(pt_cellspace_query_first(&cs, pt_v2(10.5, 10.5), 1.0, first, 0), 0);
    pt_cellspace_fini(&cs);
}
END_TEST

/* Regression: flock members stacked on one cell. The old spiral_cell() looked for a member's cell only 64 rings around the flock's `at`; every member
 * beyond the walkable cells of that square is put on `at` itself. In this 300-tile corridor
 * 37 of 100 hounds start on one cell although 298 cells are free; with `count=65535` on an
 * open 256x256 map, 48894 boids share one cell: pt_world_create takes ~30 s (each member
 * walks the spiral from the start: O(count * rings^3)) and every tick ~6 s (each stacked boid
 * scans all the others in pt_cellspace_query). Now members are placed breadth-first over
 * walkable cells, once per flock, and flocks read at most 64 neighbours with
 * pt_cellspace_query_first. */
START_TEST(flock_members_get_their_own_cells) {
    char text[2048];
    char row[304];
    memset(row, '#', 302);
    row[302] = '\0';
    char mid[304];
    mid[0] = '#';
    memset(mid + 1, '.', 300);
    mid[301] = '#';
    mid[302] = '\0';
    snprintf(text, sizeof text, "player at=300,1\nflock hounds at=1,1 count=100\ngrid\n%s\n%s\n%s\nend\n", row, mid, row);
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "corridor.map", &err), PT_OK);
    pt_patlib_init(&lib);
    pt_world *w = pt_world_create(&m, &lib, NULL, &err);
    ck_assert_ptr_nonnull(w);
    int shared = 0;
    for (int i = 1; i < pt_world_count(w); i++)
        for (int j = 1; j < i; j++) {
            const pt_entity *a = pt_world_entity(w, i), *b = pt_world_entity(w, j);
            if (a->x == b->x && a->y == b->y) {
                shared++;
                break;
            }
        }
    ck_assert_msg(shared == 0, "%d flock members start on a cell another member has", shared);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("numeric");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, separation_of_coincident_agents);
    tcase_add_test(tc, flock_at_one_point);
    tcase_add_test(tc, path_of_one_cell);
    tcase_add_test(tc, repeated_waypoints);
    tcase_add_test(tc, zero_length_segments_in_geometry);
    tcase_add_test(tc, matrix_without_a_one_is_an_error);
    tcase_add_test(tc, matrix_walker_with_nowhere_to_go_stays_put);
    tcase_add_test(tc, intercept_with_zero_closing_speed);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, vehicle_with_huge_and_zero_dt);
    tcase_add_test(tc, thrust_with_huge_and_zero_dt);
    tcase_add_test(tc, vehicle_zero_mass_is_default);
    tcase_add_test(tc, thrust_body_zero_mass_is_default);
    tcase_add_test(tc, thrust_body_extremes_stay_finite);
    suite_add_tcase(s, tc);
    tc = tcase_create("world");
    tcase_add_test(tc, world_of_coincident_entities);
    tcase_add_test(tc, world_of_coincident_entities_other_seeds);
    tcase_add_test(tc, world_with_long_and_short_ticks);
    tcase_add_test(tc, world_from_defs_with_bad_numbers);
    suite_add_tcase(s, tc);
    tc = tcase_create("crowd");
    tcase_add_test(tc, cellspace_query_first_is_the_head_of_query);
    tcase_add_test(tc, flock_members_get_their_own_cells);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
