/* SPDX-License-Identifier: Zlib */
/* The solver and the sight tables in the dark (docs/solve.md, "Light"): a table per gait on a
 * map whose ambient level is below 1, each cell of it checked against an independent
 * computation of the light, the visibility and the guard's sight from the docs; one table on
 * a lit map; a route that sneaks past a guard a walker would meet, and one that keeps to the
 * dark side of a corridor lit at one end. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/light.h>
#include <patrol/los.h>
#include <patrol/solve.h>
#include <patrol/world.h>

#include "test_route.h"
#include "test_util.h"

/* No tile makes a footstep: what matters is sight. */
static const char legend[] = "tile . floor walkable footstep=0\ntile E exit walkable goal footstep=0\n";

static void load_map(pt_map *m, const char *body) {
    static char text[8192];
    snprintf(text, sizeof text, "%s%s", legend, body);
    pt_error err;
    int rc = pt_map_parse(m, text, strlen(text), "light.map", &err);
    ck_assert_msg(rc == PT_OK, "map: %d:%d %s\n%s", err.line, err.col, err.message, text);
}

/* Sets the map's ambient level and adds a light (as a `light` line would). */
static void set_ambient(pt_map *m, double ambient) {
    m->ambient = ambient;
    m->ambient_set = 1;
}

static void add_light(pt_map *m, const char *name, int x, int y, double radius, double level) {
    pt_light_def *l = realloc(m->lights, sizeof *l * (size_t)(m->nlights + 1));
    ck_assert_ptr_nonnull(l);
    m->lights = l;
    l = &m->lights[m->nlights++];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", name);
    l->x = x;
    l->y = y;
    l->radius = radius;
    l->level = level;
    l->on = 1;
}

/* docs/ai.md, "Light", written again: the light of a cell in 1/4096 units, capped. */
static double light_of(const pt_map *m, int x, int y) {
    long u = lround(floor(m->ambient * 4096 + 0.5));
    for (int i = 0; i < m->nlights; i++) {
        const pt_light_def *l = &m->lights[i];
        double d = hypot(x - l->x, y - l->y);
        if (l->on && d < l->radius && pt_los_clear(m, l->x, l->y, x, y))
            u += (long)floor(l->level * (1.0 - d / l->radius) * 4096 + 0.5);
    }
    return (double)(u < 4096 ? u : 4096) / 4096;
}

/* The light a player stepping onto (x, y) may be seen by: the brightest of the cell and its
 * walkable neighbours (the world judges a step by the cell it left; docs/solve.md). */
static double light_near(const pt_map *m, int x, int y) {
    double l = 0.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (pt_map_walkable(m, x + dx, y + dy) && light_of(m, x + dx, y + dy) > l) l = light_of(m, x + dx, y + dy);
    return l;
}

static double gait_k(int g) { return g == PT_GAIT_SNEAK ? 0.0 : g == PT_GAIT_RUN ? 0.3 : 0.15; }

/* Whether guard e notices a player of gait g on cell (x, y): in its cone within view_dist x V,
 * or within 1.5 tiles (not behind a wall). */
static int noticed(const pt_map *m, const pt_entity *e, int x, int y, int g) {
    double l = light_near(m, x, y), v = l + (1.0 - l) * gait_k(g);
    double px = x + 0.5, py = y + 0.5;
    if (pt_can_see(m, e->px, e->py, e->heading, e->view_dist * v, e->view_angle, px, py)) return 1;
    return hypot(px - e->px, py - e->py) <= 1.5 && pt_los_clear(m, e->x, e->y, x, y);
}

/* A hall with a pillar, a guard looking east down it, a torch at its far end. */
static const char *HALL = "player at=1,1\n"
                          "guard watch at=2,3 heading=0 view=14 fov=100\n"
                          "grid\n"
                          "####################\n"
                          "#..................#\n"
                          "#..................#\n"
                          "#.........#........#\n"
                          "#..................#\n"
                          "#..................#\n"
                          "###################E\n"
                          "end\n";

/* On a dark map each gait's table says, cell for cell, what the docs' model says a guard
 * notices of a player in that gait; the tables differ (a sneaker is seen less than a walker,
 * a walker less than a runner) and every difference is one of visibility. */
START_TEST(test_table_per_gait) {
    pt_map m;
    load_map(&m, HALL);
    set_ambient(&m, 0.2);
    add_light(&m, "torch", 15, 3, 5.0, 1.0);
    pt_error err;
    pt_sightmap sm[PT_GAIT_COUNT];
    for (int g = 0; g < PT_GAIT_COUNT; g++)
        ck_assert_msg(pt_sightmap_build_gait(&sm[g], &m, NULL, 1, 30, (pt_gait)g, &err) == PT_OK, "%s", err.message);
    pt_sightmap walk;
    ck_assert_int_eq(pt_sightmap_build(&walk, &m, NULL, 1, 30, &err), PT_OK);
    pt_world_desc d = {0};
    d.seed = 1;
    d.player_controlled = 1;
    pt_world *w = pt_world_create(&m, NULL, &d, &err);
    ck_assert_ptr_nonnull(w);
    pt_world_step(w);
    const pt_entity *e = pt_world_entity(w, 1);
    int differ[PT_GAIT_COUNT] = {0}, lit_far = 0;
    for (int t = 1; t <= 30; t += 29)
        for (int y = 0; y < m.h; y++)
            for (int x = 0; x < m.w; x++) {
                if (!pt_map_walkable(&m, x, y)) continue;
                for (int g = 0; g < PT_GAIT_COUNT; g++) {
                    int want = noticed(&m, e, x, y, g);
                    ck_assert_msg(pt_sightmap_seen(&sm[g], t, x, y) == want, "tick %d, %d,%d, %s: table %d, model %d", t, x,
                                  y, pt_gait_name((pt_gait)g), pt_sightmap_seen(&sm[g], t, x, y), want);
                    differ[g] += want != noticed(&m, e, x, y, PT_GAIT_WALK);
                }
                ck_assert_int_eq(pt_sightmap_seen(&walk, t, x, y), pt_sightmap_seen(&sm[PT_GAIT_WALK], t, x, y));
                /* sneak within walk within run */
                ck_assert(!pt_sightmap_seen(&sm[PT_GAIT_SNEAK], t, x, y) || pt_sightmap_seen(&sm[PT_GAIT_WALK], t, x, y));
                ck_assert(!pt_sightmap_seen(&sm[PT_GAIT_WALK], t, x, y) || pt_sightmap_seen(&sm[PT_GAIT_RUN], t, x, y));
                lit_far += x >= 12 && pt_sightmap_seen(&sm[PT_GAIT_SNEAK], t, x, y);
            }
    ck_assert_int_gt(differ[PT_GAIT_SNEAK], 0);
    ck_assert_int_gt(differ[PT_GAIT_RUN], 0);
    ck_assert_int_gt(lit_far, 0); /* the torch's pool is seen from afar even sneaking */
    pt_world_destroy(w);
    for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(&sm[g]);
    pt_sightmap_fini(&walk);

    /* lit (ambient 1, the torch too): one table, every gait's the same, the plain cone */
    set_ambient(&m, 1.0);
    ck_assert_int_eq(pt_sightmap_build(&walk, &m, NULL, 1, 30, &err), PT_OK);
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        ck_assert_int_eq(pt_sightmap_build_gait(&sm[g], &m, NULL, 1, 30, (pt_gait)g, &err), PT_OK);
        ck_assert(memcmp(sm[g].bits, walk.bits, walk.stride * 8u * 30u) == 0);
        pt_sightmap_fini(&sm[g]);
    }
    ck_assert(pt_sightmap_seen(&walk, 1, 8, 2) && pt_sightmap_seen(&walk, 1, 14, 1));
    pt_sightmap_fini(&walk);
    ck_assert_int_eq(pt_sightmap_build_gait(&walk, &m, NULL, 1, 30, PT_GAIT_COUNT, &err), PT_ERR_RANGE);
    pt_map_fini(&m);
}
END_TEST

static int solve(const pt_map *m, int gait, pt_solve_result *r) {
    pt_solve_opts o = {0};
    o.max_ticks = 900;
    o.gait = gait;
    pt_error err;
    int rc = pt_solve(m, NULL, &o, r, &err);
    ck_assert_msg(rc == PT_OK, "solve: %s", err.message);
    return r->found;
}

/* Checks the route cell by cell against the docs' model (noticed): the guard, standing
 * where it stands (it has no round), notices no player of the route's gait on any of them,
 * nor a walker on the start before the gait action. */
static void check_route(const pt_map *m, const pt_solve_result *r) {
    pt_world_desc d = {0};
    d.seed = 1;
    d.player_controlled = 1;
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    pt_world_step(w);
    const pt_entity *g = pt_world_entity(w, 1);
    for (int t = 1; t <= r->ticks; t++) {
        int x = r->cells[t].x, y = r->cells[t].y;
        ck_assert_msg(!noticed(m, g, x, y, r->gait), "tick %d: the guard notices a %s player at %d,%d", t,
                      pt_gait_name((pt_gait)r->gait), x, y);
        ck_assert(!(x == r->start_x && y == r->start_y) || !noticed(m, g, x, y, PT_GAIT_WALK));
    }
    pt_world_destroy(w);
}

/* Plays the route's pattern in the world (its guards see by the light: docs/ai.md, "Sight
 * in the dark"): on every tick the player is on the route's cell and no guard is aware of
 * it; the goal comes on the last tick. */
static void replay(const pt_map *m, const pt_solve_result *r) {
    pt_patlib plib;
    char *text = tu_route_pattern(r, &plib);
    pt_world *w = tu_route_world(m, NULL, &plib, m->seed ? m->seed : 1);
    for (int t = 1; t <= r->ticks; t++) {
        pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        ck_assert_msg(p->x == r->cells[t].x && p->y == r->cells[t].y, "tick %d: player at %d,%d, route %d,%d\n%s", t, p->x,
                      p->y, r->cells[t].x, r->cells[t].y, text);
        for (int i = 1; i < pt_world_count(w); i++)
            ck_assert_msg(pt_world_entity(w, i)->awareness == 0.0, "tick %d: guard %d aware of the player at %d,%d\n%s", t,
                          i, p->x, p->y, text);
        int n = 0, goal = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) goal |= ev[k].kind == PT_EVENT_GOAL;
        ck_assert_int_eq(goal, t == r->ticks);
    }
    pt_world_destroy(w);
    pt_patlib_fini(&plib);
    free(text);
}

static int through(const pt_solve_result *r, int x, int y) {
    for (int t = 0; t <= r->ticks; t++)
        if (r->cells[t].x == x && r->cells[t].y == y) return 1;
    return 0;
}

/* A guard in an alcove looks down at a one-tile corridor 2 tiles below it, in the dark
 * (ambient 0.2, view 8): it sees a walker there (range 8 x 0.32 = 2.56), a runner too
 * (3.52), not a sneaker (1.6). The only route sneaks; walk or run alone: none. Lit, no
 * route at all. */
static const char *ALCOVE = "player at=1,2 speed=4\n"
                            "guard watch at=8,0 heading=90 view=8 fov=120\n"
                            "grid\n"
                            "########.########\n"
                            "########.########\n"
                            "#...............E\n"
                            "#################\n"
                            "end\n";

START_TEST(test_route_sneaks) {
    pt_map m;
    load_map(&m, ALCOVE);
    set_ambient(&m, 0.2);
    pt_solve_result r;
    ck_assert(solve(&m, 0, &r));
    ck_assert_int_eq(r.gait, PT_GAIT_SNEAK);
    ck_assert(through(&r, 8, 2));
    check_route(&m, &r);
    replay(&m, &r);
    pt_solve_result_fini(&r);
    ck_assert(!solve(&m, 1 + PT_GAIT_WALK, &r));
    pt_solve_result_fini(&r);
    ck_assert(!solve(&m, 1 + PT_GAIT_RUN, &r));
    pt_solve_result_fini(&r);
    set_ambient(&m, 1.0);
    ck_assert(!solve(&m, 0, &r));
    pt_solve_result_fini(&r);
    pt_map_fini(&m);
}
END_TEST

/* A hall four tiles deep under a guard's alcove, a torch beside the guard lighting the near
 * rows (radius 2): a walker passes on the far, dark row (seen on the lit ones, and on the
 * row beside them, which a walker from the light steps onto still lit). With the torch out
 * all is dark; the cell beside the guard is sensed all the same. */
static const char *CORRIDOR = "player at=1,2 speed=4\n"
                              "guard watch at=8,0 heading=90 view=8 fov=160\n"
                              "grid\n"
                              "########.########\n"
                              "#...............#\n"
                              "#...............#\n"
                              "#...............#\n"
                              "#...............E\n"
                              "#################\n"
                              "end\n";

START_TEST(test_route_dark_side) {
    pt_map m;
    load_map(&m, CORRIDOR);
    set_ambient(&m, 0.1);
    add_light(&m, "torch", 8, 1, 2.0, 1.0);
    pt_sightmap walk;
    pt_error err;
    ck_assert_int_eq(pt_sightmap_build_gait(&walk, &m, NULL, 1, 10, PT_GAIT_WALK, &err), PT_OK);
    ck_assert(pt_sightmap_seen(&walk, 5, 8, 2));   /* lit */
    ck_assert(pt_sightmap_seen(&walk, 5, 8, 3));   /* beside the light */
    ck_assert(!pt_sightmap_seen(&walk, 5, 8, 4));  /* dark */
    ck_assert(!pt_sightmap_seen(&walk, 5, 12, 4)); /* dark */
    pt_sightmap_fini(&walk);
    pt_solve_result r;
    ck_assert(solve(&m, 1 + PT_GAIT_WALK, &r));
    ck_assert(through(&r, 8, 4));
    ck_assert(!through(&r, 8, 3) && !through(&r, 8, 2) && !through(&r, 8, 1));
    check_route(&m, &r);
    replay(&m, &r);
    pt_solve_result_fini(&r);
    m.lights[0].on = 0; /* out: everything dark, 8 x 0.235 = 1.88 tiles */
    ck_assert_int_eq(pt_sightmap_build_gait(&walk, &m, NULL, 1, 10, PT_GAIT_WALK, &err), PT_OK);
    ck_assert(!pt_sightmap_seen(&walk, 5, 8, 3) && !pt_sightmap_seen(&walk, 5, 8, 2));
    ck_assert(pt_sightmap_seen(&walk, 5, 8, 1)); /* beside it: the peripheral sense, dark or not */
    pt_sightmap_fini(&walk);
    pt_map_fini(&m);
}
END_TEST

static Suite *solve_light_suite(void) {
    Suite *s = suite_create("solve_light");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_table_per_gait);
    tcase_add_test(tc, test_route_sneaks);
    tcase_add_test(tc, test_route_dark_side);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(solve_light_suite()); }
