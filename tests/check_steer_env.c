/* SPDX-License-Identifier: Zlib */
/* Steering geometry: walls built from maps, obstacle and wall avoidance (hand-computed, and
 * the defects of Buckland's listings), hide, containment, hard collision against tiles and
 * obstacles, and the long simulations: 200 wanderers among pillars inside walls for 10,000
 * ticks, and a flock settling into one aligned group. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/cellspace.h>
#include <patrol/steer.h>

#include "../src/core/nav/steer_env_index.h" /* the index: solid_bits, wall_box_exact */
#include "../src/core/nav/steer_env_ref.h"
#include "test_util.h"

#define DT (1.0 / 60.0)
#define TOL 1e-9

#define ck_vec_eq(v, ex, ey, tol)                                                                              \
    do {                                                                                                       \
        pt_vec2 v__ = (v);                                                                                     \
        ck_assert_msg(fabs(v__.x - (ex)) <= (tol) && fabs(v__.y - (ey)) <= (tol), "got (%.9f, %.9f), want (%.9f, %.9f)", \
                      v__.x, v__.y, (double)(ex), (double)(ey));                                               \
    } while (0)

static int cell_of_test(double v) { return (int)floor(v); }

static pt_vehicle veh_at(double x, double y, double heading) {
    pt_vehicle v;
    pt_vehicle_init(&v, pt_v2(x, y), heading);
    return v;
}

/* A body at a random eighth of a tile of a w x h map, up to `margin` tiles outside it,
 * heading along an axis (dir 0-3), a diagonal (dir 4 to diagonals - 1) or anywhere (the
 * rest of dir 0-9): positions and headings where feelers meet tile edges exactly. */
static pt_vehicle body_on_eighths(pt_rng *r, int w, int h, int margin, int diagonals) {
    double x = -margin + (double)pt_rng_below(r, (uint32_t)(8 * (w + 2 * margin))) / 8;
    double y = -margin + (double)pt_rng_below(r, (uint32_t)(8 * (h + 2 * margin))) / 8;
    pt_vehicle v = veh_at(x, y, 0);
    int dir = (int)pt_rng_below(r, 10);
    if (dir < 4) v.heading = pt_v2(dir == 0 ? 1 : dir == 1 ? -1 : 0, dir == 2 ? 1 : dir == 3 ? -1 : 0);
    else if (dir < diagonals) v.heading = pt_v2(dir & 1 ? 0.5 : -0.5, dir & 2 ? 0.5 : -0.5);
    else v.heading = pt_v2_from_angle(pt_rng_unit(r) * PT_TAU);
    return v;
}

/* A map from rows of characters (default legend). */
static void map_from(pt_map *m, const char *const *rows, int h) {
    int w = (int)strlen(rows[0]);
    ck_assert_int_eq(pt_map_init_blank(m, w, h, NULL), PT_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) ck_assert(pt_map_set(m, x, y, rows[y][x]));
}

/* Border walls around a w*h room. */
static void room(pt_map *m, int w, int h) {
    ck_assert_int_eq(pt_map_init_blank(m, w, h, NULL), PT_OK);
    for (int x = 0; x < w; x++) {
        pt_map_set(m, x, 0, '#');
        pt_map_set(m, x, h - 1, '#');
    }
    for (int y = 0; y < h; y++) {
        pt_map_set(m, 0, y, '#');
        pt_map_set(m, w - 1, y, '#');
    }
}

static int has_wall(const pt_steer_env *e, double ax, double ay, double bx, double by, double nx, double ny) {
    for (int i = 0; i < e->nwalls; i++) {
        const pt_wall *w = &e->walls[i];
        if (w->a.x == ax && w->a.y == ay && w->b.x == bx && w->b.y == by && w->normal.x == nx && w->normal.y == ny)
            return 1;
    }
    return 0;
}

/* ---- walls from maps ----------------------------------------------------------------- */

START_TEST(test_walls_hand) {
    pt_map m;
    static const char *const open[] = {"....", "....", "...."};
    map_from(&m, open, 3);
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    /* the map edge: four merged walls, normals pointing in */
    ck_assert_int_eq(e.nwalls, 4);
    ck_assert(has_wall(&e, 0, 0, 4, 0, 0, 1));   /* top, normal down (south) */
    ck_assert(has_wall(&e, 4, 3, 0, 3, 0, -1));  /* bottom */
    ck_assert(has_wall(&e, 0, 3, 0, 0, 1, 0));   /* left, normal east */
    ck_assert(has_wall(&e, 4, 0, 4, 3, -1, 0));  /* right */
    pt_steer_env_fini(&e);
    pt_map_fini(&m);

    static const char *const rows[] = {
        "#####",
        "#...#",
        "#.#.#",
        "#...#",
        "#####",
    };
    map_from(&m, rows, 5);
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    /* inner room boundary 4 + pillar cell 4; the map edge is all solid: no walls there */
    ck_assert_int_eq(e.nwalls, 8);
    ck_assert(has_wall(&e, 1, 1, 4, 1, 0, 1));   /* room top: solid above */
    ck_assert(has_wall(&e, 4, 1, 4, 4, -1, 0));  /* room right */
    ck_assert(has_wall(&e, 3, 2, 2, 2, 0, -1));  /* pillar top: walkable above */
    ck_assert(has_wall(&e, 2, 3, 3, 3, 0, 1));   /* pillar bottom */
    ck_assert(has_wall(&e, 2, 2, 2, 3, -1, 0));  /* pillar left */
    ck_assert(has_wall(&e, 3, 3, 3, 2, 1, 0));   /* pillar right */
    pt_steer_env_fini(&e);
    pt_map_fini(&m);
}
END_TEST

/* Random maps: every wall separates walkable (normal side) from solid, every boundary edge is
 * covered exactly once, runs are merged maximally, winding is normal == perp(b - a). */
START_TEST(test_walls_random_maps) {
    pt_rng r;
    pt_rng_seed(&r, 11, 2);
    long bad = 0;
    for (int it = 0; it < 60; it++) {
        int w = 1 + (int)pt_rng_below(&r, 24), h = 1 + (int)pt_rng_below(&r, 18);
        pt_map m;
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, NULL), PT_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (pt_rng_below(&r, 100) < 35) pt_map_set(&m, x, y, "#~T"[pt_rng_below(&r, 3)]); /* T: a tree */
        pt_steer_env e;
        ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
        /* unit edges: horizontal edge (x, j) at index j*(w+1)+x; vertical (i, y) separately */
        int nh = (h + 1) * (w + 1), nv = (w + 1) * (h + 1);
        unsigned char *hc = calloc((size_t)nh, 1), *vc = calloc((size_t)nv, 1);
        double total = 0;
        for (int i = 0; i < e.nwalls; i++) {
            const pt_wall *wl = &e.walls[i];
            pt_vec2 d = pt_v2_sub(wl->b, wl->a);
            double len = pt_v2_len(d);
            total += len;
            pt_vec2 pn = pt_v2_scale(pt_v2_perp(d), 1.0 / len);
            if (len < 1 || fabs(pn.x - wl->normal.x) > 1e-12 || fabs(pn.y - wl->normal.y) > 1e-12) bad++;
            if (d.x != 0 && d.y != 0) bad++;
            for (int k = 0; k < (int)len; k++) {
                pt_vec2 mid = pt_v2_add(wl->a, pt_v2_scale(d, (k + 0.5) / len));
                pt_vec2 in = pt_v2_add(mid, pt_v2_scale(wl->normal, 0.5));
                pt_vec2 out = pt_v2_sub(mid, pt_v2_scale(wl->normal, 0.5));
                if (!pt_map_walkable(&m, (int)floor(in.x), (int)floor(in.y))) bad++;
                if (pt_map_walkable(&m, (int)floor(out.x), (int)floor(out.y))) bad++;
                if (d.y == 0) hc[(int)mid.y * (w + 1) + (int)floor(mid.x)]++;
                else vc[(int)mid.x * (h + 1) + (int)floor(mid.y)]++;
            }
            for (int j = 0; j < e.nwalls; j++) /* merged: no same-facing wall continues this one */
                if (j != i && e.walls[j].a.x == wl->b.x && e.walls[j].a.y == wl->b.y &&
                    e.walls[j].normal.x == wl->normal.x && e.walls[j].normal.y == wl->normal.y)
                    bad++;
        }
        double expect = 0;
        for (int j = 0; j <= h; j++)
            for (int x = 0; x < w; x++) {
                int b = pt_map_walkable(&m, x, j - 1) != pt_map_walkable(&m, x, j);
                expect += b;
                if (hc[j * (w + 1) + x] != b) bad++;
            }
        for (int i = 0; i <= w; i++)
            for (int y = 0; y < h; y++) {
                int b = pt_map_walkable(&m, i - 1, y) != pt_map_walkable(&m, i, y);
                expect += b;
                if (vc[i * (h + 1) + y] != b) bad++;
            }
        if (fabs(total - expect) > 1e-9) bad++;
        free(hc);
        free(vc);
        pt_steer_env_fini(&e);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_env_obstacles_copied_and_fini) {
    pt_map m;
    room(&m, 10, 8);
    m.obstacles = calloc(2, sizeof *m.obstacles);
    m.obstacles[0] = (pt_obstacle){3.5, 3.5, 0.4, 1, 7, 0};
    m.obstacles[1] = (pt_obstacle){6.5, 4.5, 0.6, 2, 8, 0};
    m.nobstacles = 2;
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    ck_assert_int_eq(e.nobstacles, 2);
    ck_assert(e.obstacles != m.obstacles);
    ck_assert_double_eq(e.obstacles[1].r, 0.6);
    ck_assert_ptr_eq(e.map, &m);
    pt_steer_env_fini(&e);
    ck_assert_ptr_null(e.walls);
    pt_steer_env_fini(&e); /* twice is fine */
    pt_steer_env_fini(NULL);
    pt_map_fini(&m);
    /* custom geometry without a map */
    pt_wall w = {{0, 0}, {5, 0}, {0, 1}};
    ck_assert_int_eq(pt_steer_env_set(&e, &w, 1, NULL, 0, NULL), PT_OK);
    ck_assert_int_eq(e.nwalls, 1);
    ck_assert_ptr_null(e.map);
    pt_steer_env_fini(&e);
}
END_TEST

/* ---- obstacle avoidance -------------------------------------------------------------- */

static void env_obstacles(pt_steer_env *e, const pt_obstacle *obs, int n) {
    ck_assert_int_eq(pt_steer_env_set(e, NULL, 0, obs, n, NULL), PT_OK);
}

/* Regression (Buckland's lateral force r - y pushed toward an obstacle on one side, and used
 * the obstacle radius alone while the overlap test used obstacle + vehicle radius). Vehicle
 * at rest: box 1.5; an obstacle at local (1, +-0.3), r 0.3: closeness 1/3, lateral (0.65 -
 * 0.3) * 4/3 away from it, braking -0.2 * 1.5 / 3. */
START_TEST(test_obstacle_avoidance_sides_and_radius_sum) {
    pt_steer_env e;
    pt_vehicle v = veh_at(0, 0, 0);
    pt_obstacle right = {1.0, 0.3, 0.3, 0, 0, 0};
    env_obstacles(&e, &right, 1);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), -0.1, -0.35 * 4 / 3, TOL); /* away: north */
    pt_steer_env_fini(&e);
    pt_obstacle left = {1.0, -0.3, 0.3, 0, 0, 0};
    env_obstacles(&e, &left, 1);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), -0.1, 0.35 * 4 / 3, TOL); /* away: south */
    pt_steer_env_fini(&e);
    /* |y| = 0.5 between r (0.3) and r + vehicle radius (0.65): still avoided, and away */
    pt_obstacle graze = {1.0, 0.5, 0.3, 0, 0, 0};
    env_obstacles(&e, &graze, 1);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), -0.1, -0.15 * 4 / 3, TOL);
    pt_steer_env_fini(&e);
    /* rotated: facing south, an obstacle to the east is on the left: pushed west */
    pt_vehicle s = veh_at(5, 5, 3.14159265358979 / 2);
    pt_obstacle east = {5.3, 6.0, 0.3, 0, 0, 0};
    env_obstacles(&e, &east, 1);
    ck_vec_eq(pt_steer_obstacle_avoidance(&s, &e, NULL), -0.35 * 4 / 3, -0.1, 1e-9);
    pt_steer_env_fini(&e);
    /* behind, beside beyond the box width, beyond the box: nothing */
    pt_obstacle none[] = {{-1, 0, 0.3, 0, 0, 0}, {1, 0.7, 0.3, 0, 0, 0}, {3, 0, 0.3, 0, 0, 0}};
    env_obstacles(&e, none, 3);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), 0, 0, 0);
    /* at full speed the box doubles (3) and reaches the one at x = 3: closeness 0 */
    pt_vehicle fast = v;
    fast.vel = pt_v2(3, 0);
    ck_assert_double_eq_tol(pt_steer_box_length(&fast, NULL), 3.0, 1e-12);
    ck_vec_eq(pt_steer_obstacle_avoidance(&fast, &e, NULL), 0, 0.65, 1e-9);
    pt_steer_env_fini(&e);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, NULL, NULL), 0, 0, 0);
}
END_TEST

START_TEST(test_obstacle_avoidance_nearest) {
    pt_steer_env e;
    pt_vehicle v = veh_at(0, 0, 0);
    /* A: ip = 1.2 - 0.65 = 0.55; B: ip = 0.8 - sqrt(0.55^2 - 0.5^2) = 0.571: A wins */
    pt_obstacle ab[] = {{1.2, 0, 0.3, 0, 0, 0}, {0.8, 0.5, 0.2, 0, 0, 0}};
    env_obstacles(&e, ab, 2);
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), -0.06, 0.78, 1e-9);
    pt_steer_env_fini(&e);
    /* B moved to x = 0.7: ip 0.471 < 0.55: B wins, pushed north */
    ab[1].x = 0.7;
    env_obstacles(&e, ab, 2);
    double c = (1.5 - 0.7) / 1.5;
    ck_vec_eq(pt_steer_obstacle_avoidance(&v, &e, NULL), -0.2 * 1.5 * c, -(0.55 - 0.5) * (1 + c), 1e-9);
    pt_steer_env_fini(&e);
}
END_TEST

/* ---- wall avoidance ------------------------------------------------------------------ */

static const pt_wall wall_ahead = {{1, -5}, {1, 5}, {-1, 0}};   /* x = 1, open side west */
static const pt_wall wall_ahead2 = {{1.2, -5}, {1.2, 5}, {-1, 0}};
static const pt_wall wall_left = {{-5, -0.6}, {5, -0.6}, {0, 1}}; /* y = -0.6, open side south */

/* Regression (Buckland's wall avoidance: a feeler that hits nothing reused the previous
 * feeler's closest wall, and each feeler overwrote the force). Feelers sweep the body
 * (radius 0.35): the front one (1.5) touches x = 1 at 0.65: depth 0.85; the side ones
 * (0.7 at 45 degrees) reach x = 0.495 and hit nothing, adding nothing. */
START_TEST(test_wall_avoidance_no_hit_adds_nothing) {
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_set(&e, &wall_ahead, 1, NULL, 0, NULL), PT_OK);
    pt_vehicle v = veh_at(0, 0, 0);
    ck_vec_eq(pt_steer_wall_avoidance(&v, &e, NULL), -0.85, 0, TOL);
    /* facing away: nothing */
    pt_vehicle back = veh_at(0, 0, 3.14159265358979);
    ck_vec_eq(pt_steer_wall_avoidance(&back, &e, NULL), 0, 0, 0);
    /* body touching the wall, heading into it: every feeler pushes with its full length */
    pt_vehicle touch = veh_at(0.8, 0, 0);
    ck_vec_eq(pt_steer_wall_avoidance(&touch, &e, NULL), -(1.5 + 0.7 + 0.7), 0, TOL);
    pt_vehicle touch_away = veh_at(0.8, 0, 3.14159265358979);
    ck_vec_eq(pt_steer_wall_avoidance(&touch_away, &e, NULL), 0, 0, 0);
    pt_steer_env_fini(&e);
    ck_vec_eq(pt_steer_wall_avoidance(&v, NULL, NULL), 0, 0, 0);
}
END_TEST

/* Regression: the closest hit per feeler, and the feelers' forces add up. */
START_TEST(test_wall_avoidance_closest_per_feeler) {
    pt_steer_env e;
    pt_wall two[] = {wall_ahead2, wall_ahead};
    ck_assert_int_eq(pt_steer_env_set(&e, two, 2, NULL, 0, NULL), PT_OK);
    pt_vehicle v = veh_at(0, 0, 0);
    ck_vec_eq(pt_steer_wall_avoidance(&v, &e, NULL), -0.85, 0, TOL); /* x = 1, not 1.2 */
    pt_steer_env_fini(&e);
    /* a corner: the front feeler hits x = 1 (0.85), the left one y = -0.6: its body reaches
     * y = -0.25 at t = 0.25 / (0.7 sin 45), depth 0.7 (1 - t) */
    pt_wall corner[] = {wall_ahead, wall_left};
    ck_assert_int_eq(pt_steer_env_set(&e, corner, 2, NULL, 0, NULL), PT_OK);
    double t = 0.25 / (0.7 * sqrt(0.5));
    ck_vec_eq(pt_steer_wall_avoidance(&v, &e, NULL), -0.85, 0.7 * (1 - t), 1e-9);
    /* the feeler tips for drawing */
    pt_vec2 tips[3];
    ck_assert_int_eq(pt_steer_feelers(&v, NULL, tips), 3);
    ck_vec_eq(tips[0], 1.5, 0, TOL);
    ck_vec_eq(tips[1], 0.7 * sqrt(0.5), -0.7 * sqrt(0.5), TOL);
    ck_vec_eq(tips[2], 0.7 * sqrt(0.5), 0.7 * sqrt(0.5), TOL);
    pt_steer_env_fini(&e);
}
END_TEST

/* wall_reach clips the feelers: the wall x = 1 that the full front feeler (1.5, body 0.35)
 * meets 0.85 deep is out of a 0.6 reach, 0.35 deep in a 1.0 reach; 0 (or less) and a reach
 * beyond both lengths are the full feelers. pt_steer_calculate reads it from the context. */
START_TEST(test_wall_reach_clips_the_feelers) {
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_set(&e, &wall_ahead, 1, NULL, 0, NULL), PT_OK);
    pt_vehicle v = veh_at(0, 0, 0);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &e, NULL, 0.6), 0, 0, 0);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &e, NULL, 1.0), -0.35, 0, TOL);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &e, NULL, 0), -0.85, 0, TOL);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &e, NULL, -1), -0.85, 0, TOL);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &e, NULL, 2.0), -0.85, 0, TOL);
    /* the side feelers too: a wall at y = -0.6 that the left one (0.7) meets is out of 0.3 */
    pt_wall corner[] = {wall_ahead, wall_left};
    pt_steer_env c;
    ck_assert_int_eq(pt_steer_env_set(&c, corner, 2, NULL, 0, NULL), PT_OK);
    ck_assert(pt_steer_wall_avoidance(&v, &c, NULL).y > 0.1);
    ck_vec_eq(pt_steer_wall_avoidance_reach(&v, &c, NULL, 0.3), 0, 0, 0);
    pt_steer_env_fini(&c);

    pt_steer_agent a;
    pt_steer_agent_init(&a, &v, NULL, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE);
    pt_steer_ctx ctx = {0};
    ctx.env = &e;
    ck_assert(pt_steer_calculate(&a, &ctx).x < -1.0);
    ck_vec_eq(pt_steer_force(&a, &ctx, PT_BEH_WALL_AVOIDANCE), -0.85, 0, TOL);
    ctx.wall_reach = 0.6;
    ck_vec_eq(pt_steer_calculate(&a, &ctx), 0, 0, 0);
    ck_vec_eq(pt_steer_force(&a, &ctx, PT_BEH_WALL_AVOIDANCE), 0, 0, 0);
    ctx.wall_reach = 1.0;
    ck_vec_eq(pt_steer_force(&a, &ctx, PT_BEH_WALL_AVOIDANCE), -0.35, 0, TOL);
    pt_steer_env_fini(&e);
}
END_TEST

/* ---- hide ---------------------------------------------------------------------------- */

/* Regression (Buckland's Hide compared against the wrong sentinel, so evade never ran):
 * without a usable hiding spot the result is exactly evade. */
START_TEST(test_hide_falls_back_to_evade) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    pt_vehicle v = veh_at(2, 0, 0), hunter = veh_at(0, 0, 0);
    hunter.vel = pt_v2(1, 0);
    pt_vec2 ev = pt_steer_evade(&v, &hunter, &p);
    ck_assert(pt_v2_len(ev) > 1);
    ck_vec_eq(pt_steer_hide(&v, &hunter, NULL, &p), ev.x, ev.y, 0);
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_set(&e, NULL, 0, NULL, 0, NULL), PT_OK);
    ck_vec_eq(pt_steer_hide(&v, &hunter, &e, &p), ev.x, ev.y, 0); /* no obstacles */
    pt_steer_env_fini(&e);
    /* the hunter at the obstacle's centre: no spot */
    pt_obstacle at = {0, 0, 0.5, 0, 0, 0};
    env_obstacles(&e, &at, 1);
    pt_vec2 spot;
    ck_assert_int_eq(pt_steer_hiding_spot(&at, hunter.pos, &p, &spot), 0);
    ck_vec_eq(pt_steer_hide(&v, &hunter, &e, &p), ev.x, ev.y, 0);
    pt_steer_env_fini(&e);
    /* the only spot is on a wall tile: no spot */
    pt_map m;
    static const char *const rows[] = {"......", "......", "....##", "......"};
    map_from(&m, rows, 4);
    m.obstacles = calloc(1, sizeof *m.obstacles);
    m.obstacles[0] = (pt_obstacle){3.5, 2.5, 0.4, 1, 0, 0};
    m.nobstacles = 1;
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    pt_vehicle hv = veh_at(0.5, 2.5, 0), hh = veh_at(1.5, 2.5, 0); /* spot (4.5, 2.5): wall */
    ck_assert_int_eq(pt_steer_hiding_spot(&e.obstacles[0], hh.pos, &p, &spot), 1);
    ck_vec_eq(spot, 3.5 + 1.0, 2.5, TOL);
    pt_vec2 ev2 = pt_steer_evade(&hv, &hh, &p);
    ck_vec_eq(pt_steer_hide(&hv, &hh, &e, &p), ev2.x, ev2.y, 0);
    pt_steer_env_fini(&e);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_hide_hand_and_over_ticks) {
    pt_steer_env e;
    pt_obstacle obs[] = {{5, 5, 1, 0, 0, 0}, {20, 20, 1, 0, 0, 0}};
    env_obstacles(&e, obs, 2);
    pt_vehicle v = veh_at(5, 8, 0), hunter = veh_at(5, 0, 0);
    /* spot (5, 5 + 1 + 0.6), 1.4 away: arrive fast at full speed */
    ck_vec_eq(pt_steer_hide(&v, &hunter, &e, NULL), 0, -3, TOL);

    /* over ticks: the hider settles behind the obstacle, out of the hunter's line */
    pt_steer_agent a;
    pt_vehicle start = veh_at(9, 1, 2.0);
    pt_steer_agent_init(&a, &start, NULL, 1, 1);
    a.behaviours = PT_BEH_BIT(PT_BEH_HIDE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE);
    pt_vehicle hunter2 = veh_at(1, 5, 0);
    pt_steer_ctx ctx = {0};
    ctx.env = &e;
    ctx.agent1 = &hunter2;
    for (int t = 0; t < 600; t++) {
        pt_vec2 f = pt_steer_calculate(&a, &ctx);
        pt_steer_agent_update(&a, &ctx, f, DT);
    }
    ck_assert(pt_v2_dist(a.veh.pos, pt_v2(6.6, 5)) < 0.1);
    /* the segment hunter -> hider passes through the obstacle */
    pt_vec2 d = pt_v2_sub(a.veh.pos, hunter2.pos);
    double u = pt_clamp(pt_v2_dot(pt_v2_sub(pt_v2(5, 5), hunter2.pos), d) / pt_v2_len2(d), 0, 1);
    ck_assert(pt_v2_dist(pt_v2_add(hunter2.pos, pt_v2_scale(d, u)), pt_v2(5, 5)) < 1.0);
    pt_steer_env_fini(&e);
}
END_TEST

/* ---- containment --------------------------------------------------------------------- */

START_TEST(test_containment_hand) {
    pt_steer_region reg = {0, 0, 10, 10};
    pt_vehicle v = veh_at(5, 5, 0);
    v.vel = pt_v2(3, 0);
    ck_vec_eq(pt_steer_containment(&v, NULL, &reg, NULL), 0, 0, 0);
    /* at 9.5 moving east: prediction 10.4 -> back to 10 - 0.55 (-0.95), current 9.5 (-0.05) */
    v.pos = pt_v2(9.5, 5);
    ck_vec_eq(pt_steer_containment(&v, NULL, &reg, NULL), -1.0, 0, TOL);
    /* tiles: prediction inside the west wall tile pushes back out by the clearance, the
     * current position is 0.5 from the wall: 0.05 more */
    pt_map m;
    room(&m, 10, 10);
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    pt_vehicle w = veh_at(1.5, 5, 3.14159265358979);
    w.vel = pt_v2(-3, 0);
    ck_vec_eq(pt_steer_containment(&w, &e, NULL, NULL), 0.6, 0, TOL);
    /* in the open: nothing */
    w.pos = pt_v2(5, 5);
    ck_vec_eq(pt_steer_containment(&w, &e, NULL, NULL), 0, 0, 0);
    pt_steer_env_fini(&e);
    pt_map_fini(&m);
}
END_TEST

/* Wanderers held in a region by containment alone (no walls): the body stays inside. */
START_TEST(test_containment_region_over_ticks) {
    pt_steer_region reg = {2, 3, 14, 11};
    enum { N = 30 };
    pt_steer_agent a[N];
    pt_rng r;
    pt_rng_seed(&r, 4, 4);
    for (int i = 0; i < N; i++) {
        pt_vehicle v = veh_at(4 + pt_rng_unit(&r) * 8, 5 + pt_rng_unit(&r) * 4, pt_rng_unit(&r) * 6.28);
        pt_steer_agent_init(&a[i], &v, NULL, 3, (uint64_t)i);
        a[i].behaviours = PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_CONTAINMENT);
    }
    pt_steer_ctx ctx = {0};
    ctx.region = &reg;
    double worst = 0;
    for (int t = 0; t < 6000; t++)
        for (int i = 0; i < N; i++) {
            pt_vec2 f = pt_steer_calculate(&a[i], &ctx);
            pt_steer_agent_update(&a[i], &ctx, f, DT);
            pt_vec2 p = a[i].veh.pos;
            double rr = a[i].veh.radius;
            double out = fmax(fmax(reg.x0 + rr - p.x, p.x + rr - reg.x1), fmax(reg.y0 + rr - p.y, p.y + rr - reg.y1));
            if (out > worst) worst = out;
        }
    ck_assert_msg(worst <= 0.05, "body left the region by %.4f", worst);
}
END_TEST

/* ---- hard collision ------------------------------------------------------------------ */

START_TEST(test_collide_tiles_hand) {
    pt_map m;
    static const char *const rows[] = {".....", ".....", "..#..", ".....", "....."};
    map_from(&m, rows, 5);
    pt_vec2 p = pt_v2(1.8, 2.5), vel = pt_v2(1, 0.5);
    ck_assert_int_eq(pt_steer_collide_tiles(&m, &p, &vel, 0.35), 1);
    ck_vec_eq(p, 1.65, 2.5, TOL);
    ck_vec_eq(vel, 0, 0.5, TOL);
    /* the corner: pushed out radially */
    p = pt_v2(1.9, 1.9);
    pt_steer_collide_tiles(&m, &p, NULL, 0.35);
    ck_vec_eq(p, 2 - 0.35 * sqrt(0.5), 2 - 0.35 * sqrt(0.5), 1e-9);
    /* centre inside the solid cell: to the nearest walkable cell (east, 0.4 away), then out */
    p = pt_v2(2.6, 2.5);
    vel = pt_v2(-1, 0);
    pt_steer_collide_tiles(&m, &p, &vel, 0.35);
    ck_vec_eq(p, 3.35, 2.5, 1e-6);
    /* free: untouched */
    p = pt_v2(0.5, 0.5); /* 0.5 from the map's edges (solid outside): no overlap */
    ck_assert_int_eq(pt_steer_collide_tiles(&m, &p, NULL, 0.35), 0);
    ck_vec_eq(p, 0.5, 0.5, 0);
    p = pt_v2(0.2, 4.9); /* the map's corner: pushed in on both axes */
    ck_assert_int_eq(pt_steer_collide_tiles(&m, &p, NULL, 0.35), 1);
    ck_vec_eq(p, 0.35, 4.65, TOL);
    /* far outside: brought back onto the map */
    p = pt_v2(-1e9, 3e9);
    pt_steer_collide_tiles(&m, &p, NULL, 0.35);
    ck_assert(pt_map_walkable(&m, (int)floor(p.x), (int)floor(p.y)));
    pt_map_fini(&m);
}
END_TEST

/* Clearance of p from solid tiles, by brute force over every cell (and the outside). */
static double clearance_brute(const pt_map *m, pt_vec2 p) {
    double best = 1e9;
    for (int y = -1; y <= m->h; y++)
        for (int x = -1; x <= m->w; x++) {
            if (pt_map_walkable(m, x, y)) continue;
            pt_vec2 q = pt_v2(pt_clamp(p.x, x, x + 1.0), pt_clamp(p.y, y, y + 1.0));
            best = fmin(best, pt_v2_dist(p, q));
        }
    return best;
}

/* Random motions pushed into walls for many ticks (plus occasional jumps of up to 1.5
 * tiles): the centre never ends on a non-walkable cell and the overlap never exceeds 1e-9. */
START_TEST(test_collide_tiles_random_motion) {
    pt_rng r;
    pt_rng_seed(&r, 99, 3);
    static const double radii[] = {0.2, 0.35, 0.45};
    long bad_cell = 0, bad_overlap = 0, checks = 0;
    double worst = 0;
    for (int world = 0; world < 6; world++) {
        pt_map m;
        room(&m, 16, 12);
        for (int y = 1; y < 11; y++)
            for (int x = 1; x < 15; x++)
                if (pt_rng_below(&r, 100) < 22) pt_map_set(&m, x, y, "#T~"[pt_rng_below(&r, 3)]); /* T: a tree */
        enum { N = 40 };
        pt_vec2 pos[N], vel[N];
        for (int i = 0; i < N; i++) {
            do pos[i] = pt_v2(1 + pt_rng_unit(&r) * 14, 1 + pt_rng_unit(&r) * 10);
            while (!pt_map_walkable(&m, (int)floor(pos[i].x), (int)floor(pos[i].y)));
            vel[i] = pt_v2(0, 0);
        }
        double rad = radii[world % 3];
        for (int t = 0; t < 1500; t++)
            for (int i = 0; i < N; i++) {
                /* push toward the nearest wall direction most of the time */
                vel[i] = pt_v2_add(vel[i], pt_v2(pt_rng_signed(&r) * 2, pt_rng_signed(&r) * 2));
                vel[i] = pt_v2_truncate(vel[i], 6);
                pos[i] = pt_v2_add(pos[i], pt_v2_scale(vel[i], DT));
                if (pt_rng_below(&r, 200) == 0)
                    pos[i] = pt_v2_add(pos[i], pt_v2(pt_rng_signed(&r) * 1.5, pt_rng_signed(&r) * 1.5));
                pt_steer_collide_tiles(&m, &pos[i], &vel[i], rad);
                if (!pt_map_walkable(&m, (int)floor(pos[i].x), (int)floor(pos[i].y))) bad_cell++;
                double c = (t % 10 == 0) ? clearance_brute(&m, pos[i]) : pt_steer_tile_clearance(&m, pos[i], 1.0);
                double ov = rad - c;
                if (ov > worst) worst = ov;
                if (ov > 1e-9) bad_overlap++;
                checks++;
            }
        pt_map_fini(&m);
    }
    ck_assert_int_eq(bad_cell, 0);
    ck_assert_msg(bad_overlap == 0, "%ld overlaps of %ld, worst %.3g", bad_overlap, checks, worst);
}
END_TEST

/* Obstacles and tiles together: separated pillars, random motion: no overlap with either. */
START_TEST(test_collide_obstacles_random_motion) {
    pt_rng r;
    pt_rng_seed(&r, 5, 8);
    pt_map m;
    room(&m, 20, 14);
    m.obstacles = calloc(16, sizeof *m.obstacles);
    int no = 0;
    for (int tries = 0; tries < 1000 && no < 12; tries++) {
        double rad = 0.3 + pt_rng_unit(&r) * 0.6, x = 1 + pt_rng_unit(&r) * 18, y = 1 + pt_rng_unit(&r) * 12;
        if (pt_steer_tile_clearance(&m, pt_v2(x, y), 4) < rad + 1.0) continue;
        int ok = 1;
        for (int k = 0; k < no; k++)
            if (pt_v2_dist(pt_v2(x, y), pt_v2(m.obstacles[k].x, m.obstacles[k].y)) < rad + m.obstacles[k].r + 1.0) ok = 0;
        if (ok) m.obstacles[no++] = (pt_obstacle){x, y, rad, 1, 0, 0};
    }
    m.nobstacles = no;
    ck_assert_int_ge(no, 6);
    pt_steer_env e;
    ck_assert_int_eq(pt_steer_env_build(&e, &m), PT_OK);
    long bad = 0;
    double worst = 0;
    enum { N = 30 };
    pt_vec2 pos[N], vel[N];
    for (int i = 0; i < N; i++) {
        pos[i] = pt_v2(2 + pt_rng_unit(&r) * 16, 2 + pt_rng_unit(&r) * 10);
        vel[i] = pt_v2(0, 0);
        pt_steer_collide(&e, &pos[i], &vel[i], 0.35);
    }
    for (int t = 0; t < 3000; t++)
        for (int i = 0; i < N; i++) {
            vel[i] = pt_v2_truncate(pt_v2_add(vel[i], pt_v2(pt_rng_signed(&r) * 2, pt_rng_signed(&r) * 2)), 6);
            pos[i] = pt_v2_add(pos[i], pt_v2_scale(vel[i], DT));
            pt_steer_collide(&e, &pos[i], &vel[i], 0.35);
            if (!pt_map_walkable(&m, (int)floor(pos[i].x), (int)floor(pos[i].y))) bad++;
            double ov = 0.35 - pt_steer_tile_clearance(&m, pos[i], 1.0);
            for (int k = 0; k < no; k++)
                ov = fmax(ov, 0.35 + m.obstacles[k].r - pt_v2_dist(pos[i], pt_v2(m.obstacles[k].x, m.obstacles[k].y)));
            if (ov > worst) worst = ov;
            if (ov > 1e-9) bad++;
        }
    ck_assert_msg(bad == 0, "%ld bad, worst overlap %.3g", bad, worst);
    pt_steer_env_fini(&e);
    pt_map_fini(&m);
}
END_TEST

/* ---- long simulations ---------------------------------------------------------------- */

/* The avoidance world: a 48x36 room with 14 wall blocks and up to 30 pillars (each at least
 * 1 tile from walls and other pillars). */
static void avoidance_world(pt_map *m, pt_rng *r) {
    room(m, 48, 36);
    for (int i = 0; i < 14; i++) {
        int bx = 3 + (int)pt_rng_below(r, 40), by = 3 + (int)pt_rng_below(r, 28);
        int bw = 1 + (int)pt_rng_below(r, 3), bh = 1 + (int)pt_rng_below(r, 3);
        for (int y = by; y < by + bh; y++)
            for (int x = bx; x < bx + bw; x++) pt_map_set(m, x, y, '#');
    }
    m->obstacles = calloc(32, sizeof *m->obstacles);
    int no = 0;
    for (int tries = 0; tries < 2000 && no < 30; tries++) {
        double rad = 0.3 + 0.5 * pt_rng_unit(r), x = 2 + pt_rng_unit(r) * 44, y = 2 + pt_rng_unit(r) * 32;
        if (pt_steer_tile_clearance(m, pt_v2(x, y), 3) < rad + 1.0) continue;
        int ok = 1;
        for (int k = 0; k < no; k++)
            if (hypot(m->obstacles[k].x - x, m->obstacles[k].y - y) < rad + m->obstacles[k].r + 1.0) ok = 0;
        if (ok) m->obstacles[no++] = (pt_obstacle){x, y, rad, 1, 0, 0};
    }
    m->nobstacles = no;
}

/* 200 wandering vehicles among pillars inside walls for 10,000 ticks, steering only (no hard
 * collision): no vehicle overlaps a pillar or crosses a wall by more than 0.05 tiles. */
static void run_avoidance(pt_combiner comb, int ticks, double *worst_wall, double *worst_obs) {
    pt_rng r;
    pt_rng_seed(&r, 7, 1);
    pt_map m;
    avoidance_world(&m, &r);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    ck_assert_int_ge(env.nobstacles, 20);
    pt_steer_params p;
    memset(&p, 0, sizeof p);
    p.combiner = comb;
    pt_steer_params_resolve(&p);
    enum { N = 200 };
    pt_steer_agent *a = calloc(N, sizeof *a);
    pt_vec2 *f = calloc(N, sizeof *f);
    for (int i = 0; i < N; i++) {
        pt_vec2 pos;
        for (;;) {
            pos = pt_v2(1 + pt_rng_unit(&r) * 46, 1 + pt_rng_unit(&r) * 34);
            if (pt_steer_tile_clearance(&m, pos, 2) < 0.6) continue;
            int ok = 1;
            for (int k = 0; k < m.nobstacles; k++)
                if (hypot(m.obstacles[k].x - pos.x, m.obstacles[k].y - pos.y) < m.obstacles[k].r + 0.6) ok = 0;
            if (ok) break;
        }
        pt_vehicle v = veh_at(pos.x, pos.y, pt_rng_unit(&r) * 6.283);
        pt_steer_agent_init(&a[i], &v, &p, 99, (uint64_t)i);
        a[i].behaviours = PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) |
                          PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) | PT_BEH_BIT(PT_BEH_CONTAINMENT);
    }
    pt_steer_ctx ctx = {0};
    ctx.env = &env;
    ctx.dt = DT;
    *worst_wall = *worst_obs = 0;
    double moved = 0;
    for (int t = 0; t < ticks; t++) {
        for (int i = 0; i < N; i++) f[i] = pt_steer_calculate(&a[i], &ctx);
        for (int i = 0; i < N; i++) {
            pt_steer_agent_update(&a[i], &ctx, f[i], DT);
            const pt_vehicle *v = &a[i].veh;
            moved += pt_vehicle_speed(v) * DT;
            double pen = v->radius - pt_steer_tile_clearance(&m, v->pos, v->radius + 0.01);
            if (pen > *worst_wall) *worst_wall = pen;
            for (int k = 0; k < m.nobstacles; k++) {
                double dx = m.obstacles[k].x - v->pos.x, dy = m.obstacles[k].y - v->pos.y;
                double rr = m.obstacles[k].r + v->radius;
                if (dx * dx + dy * dy >= rr * rr) continue; /* no overlap: skip the sqrt */
                double o = rr - sqrt(dx * dx + dy * dy);
                if (o > *worst_obs) *worst_obs = o;
            }
        }
    }
    /* they really wander: on average more than half the maximum speed */
    ck_assert(moved / N / (ticks * DT) > 1.5);
    free(a);
    free(f);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}

START_TEST(test_avoidance_200_wanderers_10000_ticks) {
    double ww, wo;
    run_avoidance(PT_COMBINE_PRIORITISED, 10000, &ww, &wo);
    ck_assert_msg(ww <= 0.05 && wo <= 0.05, "prioritised: wall %.4f, pillar %.4f", ww, wo);
    run_avoidance(PT_COMBINE_WEIGHTED, 1500, &ww, &wo);
    ck_assert_msg(ww <= 0.05 && wo <= 0.05, "weighted: wall %.4f, pillar %.4f", ww, wo);
}
END_TEST

static int uf_find(int *p, int x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
}

/* A flock of 40, neighbours from the cell space, in free space or in a walled 60x60 room.
 * Starts on a jittered grid (1 tile apart) with random headings; samples every second from
 * t = 50 s to 85 s: the most groups (connected within the view radius), the lowest
 * |mean heading| and how many samples had it at or below 0.9. */
static void run_flock(pt_combiner comb, uint64_t seed, int walls, int *groups_out, double *align_out, int *below_out) {
    pt_map m;
    room(&m, 60, 60);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    pt_steer_params p;
    memset(&p, 0, sizeof p);
    p.combiner = comb;
    pt_steer_params_resolve(&p);
    enum { N = 40 };
    pt_steer_agent a[N];
    pt_rng r;
    pt_rng_seed(&r, seed, 3);
    for (int i = 0; i < N; i++) {
        pt_vehicle v = veh_at(26 + (i % 7) + 0.2 * pt_rng_signed(&r), 26 + (i / 7) + 0.2 * pt_rng_signed(&r),
                              pt_rng_unit(&r) * 6.283);
        pt_steer_agent_init(&a[i], &v, &p, seed, (uint64_t)i);
        a[i].behaviours = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER);
        if (walls) a[i].behaviours |= PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_CONTAINMENT);
    }
    pt_cellspace cs;
    ck_assert_int_eq(pt_cellspace_init(&cs, 0, 0, 60, 60, p.view_radius), PT_OK);
    int ids[N], par[N];
    pt_vec2 f[N];
    pt_steer_ctx ctx = {0};
    ctx.env = walls ? &env : NULL;
    ctx.dt = DT;
    ctx.nb = (pt_neighbors){&a[0].veh, sizeof a[0], ids, 0, -1};
    int worst_groups = 0, below = 0;
    double worst_align = 1;
    for (int t = 1; t <= 5100; t++) {
        ck_assert_int_eq(pt_cellspace_rebuild(&cs, &a[0].veh.pos, sizeof a[0], N), PT_OK);
        for (int i = 0; i < N; i++) {
            ctx.nb.count = pt_cellspace_query(&cs, a[i].veh.pos, p.view_radius, ids, N);
            ctx.nb.self = i;
            f[i] = pt_steer_calculate(&a[i], &ctx);
        }
        for (int i = 0; i < N; i++) {
            pt_steer_agent_update(&a[i], &ctx, f[i], DT);
            if (walls) pt_steer_collide(&env, &a[i].veh.pos, &a[i].veh.vel, a[i].veh.radius);
        }
        if (t < 3000 || t % 60) continue;
        for (int i = 0; i < N; i++) par[i] = i;
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++)
                if (pt_v2_dist(a[i].veh.pos, a[j].veh.pos) <= p.view_radius) par[uf_find(par, i)] = uf_find(par, j);
        int groups = 0;
        pt_vec2 h = pt_v2(0, 0);
        for (int i = 0; i < N; i++) {
            groups += uf_find(par, i) == i;
            h = pt_v2_add(h, a[i].veh.heading);
        }
        double align = pt_v2_len(h) / N;
        if (groups > worst_groups) worst_groups = groups;
        if (align < worst_align) worst_align = align;
        below += align <= 0.9;
    }
    *groups_out = worst_groups;
    *align_out = worst_align;
    *below_out = below;
    pt_cellspace_fini(&cs);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}

/* Flocking in free space: after settling (50 s), one group and aligned at every sample. */
START_TEST(test_flocking_one_aligned_group) {
    static const struct { pt_combiner c; uint64_t seed; } runs[] = {
        {PT_COMBINE_PRIORITISED, 1}, {PT_COMBINE_PRIORITISED, 2}, {PT_COMBINE_WEIGHTED, 1}};
    for (int i = 0; i < 3; i++) {
        int groups, below;
        double align;
        run_flock(runs[i].c, runs[i].seed, 0, &groups, &align, &below);
        ck_assert_msg(groups == 1, "combiner %d seed %d: %d groups", runs[i].c, (int)runs[i].seed, groups);
        ck_assert_msg(align > 0.9, "combiner %d seed %d: alignment %.3f", runs[i].c, (int)runs[i].seed, align);
    }
}
END_TEST

/* In a walled room the flock stays one group; it turns at the walls, so alignment may dip
 * while it turns, but it is above 0.9 in at least 90% of the samples. */
START_TEST(test_flocking_in_a_room) {
    static const pt_combiner combs[] = {PT_COMBINE_PRIORITISED, PT_COMBINE_WEIGHTED};
    for (int c = 0; c < 2; c++) {
        int groups, below;
        double align;
        run_flock(combs[c], 1, 1, &groups, &align, &below);
        ck_assert_msg(groups == 1, "combiner %d: %d groups", combs[c], groups);
        ck_assert_msg(below <= 4, "combiner %d: alignment <= 0.9 in %d of 36 samples", combs[c], below);
    }
}
END_TEST


/* ---- fast paths against the reference ------------------------------------------------ */

/* Same bits (any NaN equals any NaN). */
static int same_d(double a, double b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }
static int same_v(pt_vec2 a, pt_vec2 b) { return same_d(a.x, b.x) && same_d(a.y, b.y); }

/* Rooms every `room` tiles with one door per wall run, pillars ('#'), water ('~'), an open
 * or walled border, and circular obstacles (some over walls, some past the map's edge). */
static void fast_world(pt_map *m, pt_rng *r, int w, int h, int room, int border) {
    ck_assert_int_eq(pt_map_init_blank(m, w, h, NULL), PT_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int wall = (x % room == 0 && x > 0) || (y % room == 0 && y > 0);
            if (border && (x == 0 || y == 0 || x == w - 1 || y == h - 1)) wall = 1;
            if (wall) pt_map_set(m, x, y, '#');
            else if (pt_rng_below(r, 100) < 6) pt_map_set(m, x, y, pt_rng_below(r, 4) ? '#' : '~');
        }
    for (int y = room; y < h; y += room)
        for (int x = room / 2; x < w; x += room) pt_map_set(m, x, y, '+');
    for (int x = room; x < w; x += room)
        for (int y = room / 2; y < h; y += room) pt_map_set(m, x, y, '+');
    int nob = 6 + (int)pt_rng_below(r, 20);
    m->obstacles = calloc((size_t)nob, sizeof *m->obstacles);
    for (int i = 0; i < nob; i++) {
        double ox = -2 + pt_rng_unit(r) * (w + 4), oy = -2 + pt_rng_unit(r) * (h + 4);
        if (i % 3 == 0) { ox = floor(ox) + 0.5; oy = floor(oy) + 0.5; }
        m->obstacles[i] = (pt_obstacle){ox, oy, 0.2 + pt_rng_unit(r) * (i % 5 == 0 ? 3.0 : 0.6), 1, 0, 0};
    }
    m->nobstacles = nob;
}

/* A vehicle somewhere interesting: anywhere (also outside the map), on a tile corner, or
 * exactly one radius from a tile edge; heading random, axis-aligned or diagonal. */
static pt_vehicle fast_vehicle(pt_rng *r, const pt_map *m) {
    static const double radii[] = {0.0, 0.2, 0.35, 0.35, 0.5, 1.3};
    double rad = radii[pt_rng_below(r, 6)];
    double x = -3 + pt_rng_unit(r) * (m->w + 6), y = -3 + pt_rng_unit(r) * (m->h + 6);
    switch (pt_rng_below(r, 4)) {
    case 0: x = floor(x); y = floor(y); break;
    case 1: x = floor(x) + (pt_rng_below(r, 2) ? rad : 1.0 - rad); break;
    case 2: y = floor(y) + (pt_rng_below(r, 2) ? rad : 1.0 - rad); break;
    default: break;
    }
    double ang = pt_rng_below(r, 3) ? pt_rng_unit(r) * PT_TAU : (double)pt_rng_below(r, 8) * (PT_TAU / 8);
    pt_vehicle v = veh_at(x, y, ang);
    v.radius = rad > 0 ? rad : 1e-300; /* resolve would make 0 the default */
    if (pt_rng_below(r, 6) == 0) v.radius = 0;
    v.vel = pt_v2_scale(v.heading, pt_rng_unit(r) * v.max_speed * 1.2);
    if (pt_rng_below(r, 5) == 0) v.vel = pt_v2(pt_rng_signed(r) * 3, pt_rng_signed(r) * 3);
    return v;
}

static void fast_params(pt_steer_params *p, int k) {
    pt_steer_params_default(p);
    if (k == 1) { p->feeler_length = 70; p->side_feeler_length = 3; p->feeler_angle = PT_TAU / 4; }
    if (k == 2) { p->box_length = 9; p->feeler_length = 0.3; }
}

/* Compares the three fast queries with the reference on one vehicle; returns mismatches. */
static int fast_compare(const pt_steer_env *env, const pt_vehicle *v, const pt_steer_params *p, int *hits) {
    int bad = 0;
    pt_vec2 fw = pt_steer_wall_avoidance(v, env, p), rw = pt__steer_wall_avoidance_ref(v, env, p);
    pt_vec2 fo = pt_steer_obstacle_avoidance(v, env, p), ro = pt__steer_obstacle_avoidance_ref(v, env, p);
    bad += !same_v(fw, rw);
    bad += !same_v(fo, ro);
    pt_vec2 fp = v->pos, fv = v->vel, rp = v->pos, rv = v->vel;
    int fm = pt_steer_collide(env, &fp, &fv, v->radius), rm = pt__steer_collide_ref(env, &rp, &rv, v->radius);
    bad += fm != rm || !same_v(fp, rp) || !same_v(fv, rv);
    pt_vec2 gp = v->pos, hp = v->pos;
    bad += pt_steer_collide(env, &gp, NULL, v->radius) != pt__steer_collide_ref(env, &hp, NULL, v->radius) ||
           !same_v(gp, hp);
    hits[0] += fw.x != 0 || fw.y != 0;
    hits[1] += fo.x != 0 || fo.y != 0;
    hits[2] += rm;
    return bad;
}

START_TEST(test_fast_paths_match_reference) {
    pt_rng r;
    pt_rng_seed(&r, 2024, 9);
    /* widths across 64-bit words of the tile bits; rooms, doors, pillars, open borders */
    static const int sizes[][4] = {{24, 18, 8, 1}, {70, 40, 16, 0}, {130, 33, 32, 1}, {9, 7, 4, 0}};
    int bad = 0, hits[3] = {0, 0, 0}, n = 0;
    for (int world = 0; world < 4; world++) {
        pt_map m;
        fast_world(&m, &r, sizes[world][0], sizes[world][1], sizes[world][2], world % 2 == 0);
        pt_steer_env env;
        ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
        ck_assert_ptr_nonnull(env.ix->solid_bits);
        for (int k = 0; k < 3; k++) {
            pt_steer_params p;
            fast_params(&p, k);
            for (int i = 0; i < 20000; i++, n++) {
                pt_vehicle v = fast_vehicle(&r, &m);
                bad += fast_compare(&env, &v, &p, hits);
            }
        }
        pt_steer_env_fini(&env);
        pt_map_fini(&m);
    }
    ck_assert_msg(bad == 0, "%d mismatches in %d vehicles", bad, n);
    /* the comparisons saw real work, not only open floor */
    ck_assert_int_gt(hits[0], n / 20);
    ck_assert_int_gt(hits[1], n / 50);
    ck_assert_int_gt(hits[2], n / 20);
}
END_TEST

/* Many walls in each feeler's box, and ties: dense maps (random tiles at up to half the
 * tiles, checkerboard patches, one-tile corridors), bodies on eighths of a tile with
 * axis-aligned or diagonal headings and dyadic feelers, so feelers meet wall ends and corners
 * at exactly the same t. Where two walls tie the reference keeps the one its block lists
 * meet first: the same walls handed over in the opposite order (pt_steer_env_set, no tile
 * bits) give a different force for some bodies, which shows the ties happen here. */
START_TEST(test_fast_paths_dense_walls_and_ties) {
    pt_rng r;
    pt_rng_seed(&r, 7171, 5);
    static const int sizes[][3] = {{23, 17, 50}, {70, 21, 35}, {130, 12, 20}, {40, 40, 45}};
    static const double lens[] = {0.5, 1, 1.5, 2, 3, 6, 12, 40};
    static const double radii[] = {0, 0.25, 0.375, 0.5, 0.125};
    int bad = 0, n = 0, hits = 0, order = 0;
    for (int world = 0; world < 4; world++) {
        int w = sizes[world][0], h = sizes[world][1], pct = sizes[world][2];
        pt_map m;
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, NULL), PT_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int wall = (int)pt_rng_below(&r, 100) < pct;
                if ((x / 8 + y / 8) % 3 == 0) wall = (x + y) % 2; /* checkerboard patches */
                if (world == 3 && x % 3 == 1) wall = y % 11 != 5; /* corridors */
                if (wall) pt_map_set(&m, x, y, '#');
            }
        pt_steer_env env, rev;
        ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
        ck_assert_int_gt(env.nwalls, w * h / 8);
        pt_wall *back = malloc(sizeof *back * (size_t)env.nwalls);
        for (int i = 0; i < env.nwalls; i++) back[i] = env.walls[env.nwalls - 1 - i];
        ck_assert_int_eq(pt_steer_env_set(&rev, back, env.nwalls, NULL, 0, NULL), PT_OK);
        for (int i = 0; i < 40000; i++, n++) {
            pt_steer_params p;
            pt_steer_params_default(&p);
            p.feeler_length = lens[pt_rng_below(&r, 8)];
            p.side_feeler_length = pt_rng_below(&r, 2) ? p.feeler_length / 2 : lens[pt_rng_below(&r, 8)];
            p.feeler_angle = pt_rng_below(&r, 3) ? PT_TAU / 8 : (double)pt_rng_below(&r, 3) * (PT_TAU / 4);
            pt_vehicle v = body_on_eighths(&r, w, h, 1, 9);
            v.radius = radii[pt_rng_below(&r, 5)];
            pt_vec2 fw = pt_steer_wall_avoidance(&v, &env, &p), rw = pt__steer_wall_avoidance_ref(&v, &env, &p);
            if (!same_v(fw, rw) && bad++ < 5)
                fprintf(stderr, "dense: pos (%.17g, %.17g) heading (%.17g, %.17g) r %.17g lens %.17g %.17g angle %.17g: "
                        "(%.17g, %.17g) != (%.17g, %.17g)\n", v.pos.x, v.pos.y, v.heading.x, v.heading.y, v.radius,
                        p.feeler_length, p.side_feeler_length, p.feeler_angle, fw.x, fw.y, rw.x, rw.y);
            hits += fw.x != 0 || fw.y != 0;
            order += !same_v(rw, pt__steer_wall_avoidance_ref(&v, &rev, &p));
        }
        free(back);
        pt_steer_env_fini(&rev);
        pt_steer_env_fini(&env);
        pt_map_fini(&m);
    }
    ck_assert_msg(bad == 0, "%d mismatches in %d vehicles", bad, n);
    ck_assert_int_gt(hits, n / 4);
    ck_assert_int_gt(order, n / 1000); /* ties decided by the order */
}
END_TEST

/* tile_clear against its definition: the Chebyshev distance from each tile to the nearest
 * tile that is not walkable or lies outside the map, capped at 255, the least over every
 * such tile. Generated maps from one tile to wide open ones. */
START_TEST(test_tile_clear_is_the_distance_to_a_wall) {
    pt_rng r;
    pt_rng_seed(&r, 4242, 3);
    static const int sizes[][3] = {{1, 1, 50}, {2, 7, 10}, {33, 12, 5}, {64, 64, 1}, {70, 41, 0}, {530, 520, 0}};
    for (int k = 0; k < 6; k++) {
        int w = sizes[k][0], h = sizes[k][1], pct = sizes[k][2];
        pt_map m;
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, NULL), PT_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if ((int)pt_rng_below(&r, 100) < pct) pt_map_set(&m, x, y, pt_rng_below(&r, 3) ? '#' : '~');
        if (k == 5) pt_map_set(&m, 20, 270, '#'); /* one pillar: distances past 255 elsewhere */
        pt_steer_env env;
        ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
        ck_assert_ptr_nonnull(env.ix->tile_clear);
        int bad = 0, capped = 0, nsolid = 0;
        int *solid = malloc(sizeof *solid * 2 * (size_t)(w * h));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (!pt_map_walkable(&m, x, y)) { solid[2 * nsolid] = x; solid[2 * nsolid + 1] = y; nsolid++; }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int d = 255; /* the outside, then each solid tile */
                int out[4] = {x + 1, y + 1, w - x, h - y};
                for (int i = 0; i < 4; i++) d = out[i] < d ? out[i] : d;
                for (int i = 0; i < nsolid; i++) {
                    int dx = abs(solid[2 * i] - x), dy = abs(solid[2 * i + 1] - y), c = dx > dy ? dx : dy;
                    d = c < d ? c : d;
                }
                capped += d == 255;
                bad += env.ix->tile_clear[(size_t)y * (size_t)w + (size_t)x] != d;
            }
        ck_assert_msg(bad == 0, "map %d: %d tiles with the wrong clearance", k, bad);
        if (k == 5) ck_assert_int_gt(capped, 0);
        free(solid);
        pt_steer_env_fini(&env);
        pt_map_fini(&m);
    }
}
END_TEST

/* Where the clearance test decides: bodies whose feeler boxes end exactly on tile edges
 * (dyadic positions, radii and lengths, axis-aligned or diagonal headings, so the boxes are
 * exact), headings of any length, feelers from a tenth of a tile to past the map, odd and
 * non-finite parameters; on open maps with few pillars, where most boxes are clear, and on
 * the same maps changed after the env was built (the env keeps what it was built from). */
START_TEST(test_fast_paths_clearance_edges) {
    pt_rng r;
    pt_rng_seed(&r, 99, 12);
    static const double lens[] = {1.5, 0.75, 0.125, 3, 40, 300};
    static const double radii[] = {0, 0.25, 0.375, 0.5, 0.35, 1.0, -0.25};
    static const double scales[] = {1, 1, 1, 0.5, 3, 1e-300, 1e300, -1};
    static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -1.0};
    int bad = 0, n = 0, hits = 0, zero = 0;
    for (int world = 0; world < 4; world++) {
        int w = 40 + 23 * world, h = 30 + 17 * world;
        pt_map m;
        ck_assert_int_eq(pt_map_init_blank(&m, w, h, NULL), PT_OK);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int wall = (world & 1) && (x == 0 || y == 0 || x == w - 1 || y == h - 1);
                if (world >= 2 && x == w / 2 && y % 9 != 4) wall = 1;
                if (wall || pt_rng_below(&r, 1000) < 8) pt_map_set(&m, x, y, '#');
            }
        pt_steer_env env;
        ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) /* the map changes under the built env */
                for (int i = 0; i < w * h / 20; i++)
                    pt_map_set(&m, (int)pt_rng_below(&r, (uint32_t)w), (int)pt_rng_below(&r, (uint32_t)h),
                               pt_rng_below(&r, 2) ? '#' : '.');
            for (int i = 0; i < 30000; i++, n++) {
                pt_steer_params p;
                pt_steer_params_default(&p);
                p.feeler_length = lens[pt_rng_below(&r, 6)];
                p.side_feeler_length = pt_rng_below(&r, 2) ? p.feeler_length / 2 : lens[pt_rng_below(&r, 6)];
                p.feeler_angle = pt_rng_below(&r, 4) ? PT_TAU / 8 : (double)pt_rng_below(&r, 4) * (PT_TAU / 4);
                if (pt_rng_below(&r, 50) == 0) {
                    double o = odd[pt_rng_below(&r, 5)];
                    switch (pt_rng_below(&r, 3)) {
                    case 0: p.feeler_length = o; break;
                    case 1: p.side_feeler_length = o; break;
                    default: p.feeler_angle = o; break;
                    }
                }
                /* eighths of a tile, a little outside the map too */
                pt_vehicle v = body_on_eighths(&r, w, h, 2, 8);
                v.heading = pt_v2_scale(v.heading, scales[pt_rng_below(&r, 8)]);
                v.radius = radii[pt_rng_below(&r, 7)];
                if (pt_rng_below(&r, 200) == 0) v.radius = odd[pt_rng_below(&r, 3)];
                if (pt_rng_below(&r, 200) == 0) v.heading.y = odd[pt_rng_below(&r, 3)];
                pt_vec2 fw = pt_steer_wall_avoidance(&v, &env, &p), rw = pt__steer_wall_avoidance_ref(&v, &env, &p);
                if (!same_v(fw, rw) && bad++ < 5)
                    fprintf(stderr, "pos (%.17g, %.17g) heading (%.17g, %.17g) r %.17g lens %.17g %.17g angle %.17g: "
                            "(%.17g, %.17g) != (%.17g, %.17g)\n", v.pos.x, v.pos.y, v.heading.x, v.heading.y, v.radius,
                            p.feeler_length, p.side_feeler_length, p.feeler_angle, fw.x, fw.y, rw.x, rw.y);
                hits += fw.x != 0 || fw.y != 0;
                zero += fw.x == 0 && fw.y == 0;
            }
        }
        pt_steer_env_fini(&env);
        pt_map_fini(&m);
    }
    ck_assert_msg(bad == 0, "%d mismatches in %d vehicles", bad, n);
    ck_assert_int_gt(hits, n / 10);
    ck_assert_int_gt(zero, n / 3);
}
END_TEST

/* Custom geometry (no tile bits, boxes not exact in float) and non-finite vehicles. */
START_TEST(test_fast_paths_custom_and_nonfinite) {
    pt_rng r;
    pt_rng_seed(&r, 77, 1);
    pt_map m;
    fast_world(&m, &r, 40, 30, 10, 1);
    pt_wall walls[200];
    for (int i = 0; i < 200; i++) {
        pt_vec2 a = pt_v2(pt_rng_unit(&r) * 40, pt_rng_unit(&r) * 30);
        pt_vec2 b = pt_v2_add(a, pt_v2(pt_rng_signed(&r) * 4.1, pt_rng_signed(&r) * 4.1));
        walls[i] = (pt_wall){a, b, pt_v2_norm(pt_v2_perp(pt_v2_sub(b, a)))};
    }
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_set(&env, walls, 200, m.obstacles, m.nobstacles, &m), PT_OK);
    ck_assert_ptr_null(env.ix->solid_bits);
    ck_assert_int_eq(env.ix->wall_box_exact, 0);
    int bad = 0, hits[3] = {0, 0, 0};
    pt_steer_params p;
    fast_params(&p, 0);
    for (int i = 0; i < 20000; i++) {
        pt_vehicle v = fast_vehicle(&r, &m);
        bad += fast_compare(&env, &v, &p, hits);
    }
    ck_assert_int_gt(hits[0], 1000);
    pt_steer_env_fini(&env);
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    static const double odd[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            pt_vehicle v = veh_at(10.5, 10.5, 0.3);
            v.pos = pt_v2(odd[i], 10.5);
            if (j == 1) v.pos.y = odd[j];
            if (j == 2) v.heading = pt_v2(odd[i], 0);
            if (j == 3) v.radius = odd[i];
            if (j == 4) { v.pos = pt_v2(10.5, 10.5); v.vel = pt_v2(odd[i], 1); }
            bad += fast_compare(&env, &v, &p, hits);
        }
    ck_assert_int_eq(bad, 0);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* 300 vehicles seeking a moving target through rooms, pillars and obstacles for 600 ticks,
 * twice: with the fast queries and with the reference. Every state is the same bits. */
START_TEST(test_fast_paths_lockstep_600_ticks) {
    pt_rng r;
    pt_rng_seed(&r, 31, 4);
    pt_map m;
    fast_world(&m, &r, 96, 80, 16, 1);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    enum { N = 300 };
    static pt_vehicle a[N], b[N];
    for (int i = 0; i < N; i++) {
        pt_vec2 p;
        do p = pt_v2(1 + pt_rng_unit(&r) * 94, 1 + pt_rng_unit(&r) * 78);
        while (!pt_map_walkable(&m, (int)p.x, (int)p.y));
        a[i] = veh_at(p.x, p.y, pt_rng_unit(&r) * PT_TAU);
        b[i] = a[i];
    }
    const pt_steer_params *p = pt_steer_params_builtin();
    long bad = 0, wall = 0, obst = 0, coll = 0;
    for (int t = 0; t < 600; t++) {
        pt_vec2 target = pt_v2(48 + 40 * cos(t * 0.01), 40 + 35 * sin(t * 0.013));
        for (int i = 0; i < N; i++) {
            pt_vec2 fw = pt_steer_wall_avoidance(&a[i], &env, p), rw = pt__steer_wall_avoidance_ref(&b[i], &env, p);
            pt_vec2 fo = pt_steer_obstacle_avoidance(&a[i], &env, p), ro = pt__steer_obstacle_avoidance_ref(&b[i], &env, p);
            pt_vec2 fa = pt_v2_add(pt_v2_add(pt_v2_scale(fw, 10), pt_v2_scale(fo, 10)), pt_steer_seek(&a[i], target));
            pt_vec2 fb = pt_v2_add(pt_v2_add(pt_v2_scale(rw, 10), pt_v2_scale(ro, 10)), pt_steer_seek(&b[i], target));
            pt_vehicle_update(&a[i], fa, DT);
            pt_vehicle_update(&b[i], fb, DT);
            int ma = pt_steer_collide(&env, &a[i].pos, &a[i].vel, a[i].radius);
            int mb = pt__steer_collide_ref(&env, &b[i].pos, &b[i].vel, b[i].radius);
            bad += ma != mb || memcmp(&a[i], &b[i], sizeof a[i]) != 0;
            wall += fw.x != 0 || fw.y != 0;
            obst += fo.x != 0 || fo.y != 0;
            coll += ma;
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(wall, 1000);
    ck_assert_int_gt(obst, 100);
    ck_assert_int_gt(coll, 1000);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* The movement rule holds for continuous movers too: a centre that moves less than its radius
 * a tick and ends it with pt_steer_collide never passes diagonally from a cell to a
 * neighbour past a non-walkable corner (one wall beside the step, or a sealed pair). Bodies
 * on generated maps full of diagonal corners are driven straight at cell corners, each tick
 * a step of up to 0.95 radius (the game's fastest movers go about 0.1 tile a tick). */
START_TEST(test_collide_never_passes_a_corner) {
    static const double radii[] = {0.35, 0.2, 0.45};
    long diagonal = 0, pushed = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pt_map m;
        tu_corner_map(&m, 24, 18, seed);
        pt_steer_env env;
        ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
        pt_rng r;
        pt_rng_seed(&r, seed, 21);
        double rad = radii[seed % 3];
        for (int a = 0; a < 60; a++) {
            int cx, cy;
            do {
                cx = (int)pt_rng_below(&r, 24);
                cy = (int)pt_rng_below(&r, 18);
            } while (!pt_map_walkable(&m, cx, cy));
            pt_vec2 pos = pt_v2(cx + 0.5, cy + 0.5), vel = pt_v2(0, 0);
            pt_vec2 aim = pos;
            for (int t = 0; t < 600; t++) {
                if (t % 40 == 0) { /* a corner point of a cell near here, or a random point */
                    int ax = cell_of_test(pos.x) + (int)pt_rng_below(&r, 5) - 2;
                    int ay = cell_of_test(pos.y) + (int)pt_rng_below(&r, 5) - 2;
                    aim = pt_rng_below(&r, 4) ? pt_v2(ax, ay) : pt_v2(ax + pt_rng_unit(&r), ay + pt_rng_unit(&r));
                }
                pt_vec2 d = pt_v2_sub(aim, pos);
                double len = pt_v2_len(d), step = rad * (0.3 + 0.65 * pt_rng_unit(&r));
                if (len < 1e-9) d = pt_v2_from_angle(pt_rng_unit(&r) * 6.283185307179586), len = 1.0;
                int x0 = cell_of_test(pos.x), y0 = cell_of_test(pos.y);
                pos = pt_v2_add(pos, pt_v2_scale(d, step / len));
                vel = pt_v2_scale(d, step / len / DT);
                pushed += pt_steer_collide(&env, &pos, &vel, rad);
                int x1 = cell_of_test(pos.x), y1 = cell_of_test(pos.y);
                ck_assert_msg(pt_map_walkable(&m, x1, y1), "seed %d: centre in a wall at %d,%d", (int)seed, x1, y1);
                ck_assert_msg(abs(x1 - x0) <= 1 && abs(y1 - y0) <= 1, "seed %d: jumped", (int)seed);
                ck_assert_msg(!tu_cuts_corner(&m, x0, y0, x1, y1), "seed %d r %.2f: centre %d,%d -> %d,%d past a corner",
                              (int)seed, rad, x0, y0, x1, y1);
                diagonal += x1 != x0 && y1 != y0;
            }
        }
        pt_steer_env_fini(&env);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(pushed, 10000);
    ck_assert_int_gt(diagonal, 100);
}
END_TEST

static Suite *steer_env_suite(void) {
    Suite *s = suite_create("steer_env");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_walls_hand);
    tcase_add_test(core, test_walls_random_maps);
    tcase_add_test(core, test_env_obstacles_copied_and_fini);
    tcase_add_test(core, test_obstacle_avoidance_nearest);
    tcase_add_test(core, test_hide_hand_and_over_ticks);
    tcase_add_test(core, test_containment_hand);
    tcase_add_test(core, test_containment_region_over_ticks);
    tcase_add_test(core, test_collide_tiles_hand);
    tcase_add_test(core, test_collide_tiles_random_motion);
    tcase_add_test(core, test_collide_obstacles_random_motion);
    tcase_add_test(core, test_collide_never_passes_a_corner);
    tcase_add_test(core, test_fast_paths_match_reference);
    tcase_add_test(core, test_fast_paths_custom_and_nonfinite);
    tcase_add_test(core, test_fast_paths_lockstep_600_ticks);
    tcase_add_test(core, test_tile_clear_is_the_distance_to_a_wall);
    tcase_add_test(core, test_fast_paths_clearance_edges);
    tcase_add_test(core, test_fast_paths_dense_walls_and_ties);
    suite_add_tcase(s, core);
    TCase *reg = tcase_create("regressions");
    tcase_add_test(reg, test_obstacle_avoidance_sides_and_radius_sum);
    tcase_add_test(reg, test_wall_avoidance_no_hit_adds_nothing);
    tcase_add_test(reg, test_wall_avoidance_closest_per_feeler);
    tcase_add_test(reg, test_wall_reach_clips_the_feelers);
    tcase_add_test(reg, test_hide_falls_back_to_evade);
    suite_add_tcase(s, reg);
    TCase *sim = tcase_create("simulations");
    tcase_add_test(sim, test_avoidance_200_wanderers_10000_ticks);
    tcase_add_test(sim, test_flocking_one_aligned_group);
    tcase_add_test(sim, test_flocking_in_a_room);
    suite_add_tcase(s, sim);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(steer_env_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
