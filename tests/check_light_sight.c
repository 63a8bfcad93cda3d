/* SPDX-License-Identifier: Zlib */
/* Sight in the dark and lanterns (docs/ai.md, "Light": "Sight in the dark", "Lanterns").
 * Over generated maps with a low ambient level, lights going on and off, lantern bearers (one
 * spawned on the way) and a wandering player changing gait, every guard's sees_player and
 * awareness change of every step are checked against a computation written here from the
 * docs: the light of a cell, the visibility V, the cone within view * V, the peripheral
 * sense, the fill rate. Only pt_los_clear, pt_map_opaque and the world's public readers are
 * used. By hand: a dark room where a sneaking player passes unseen at a distance a lit one
 * is seen, prey alike, and the peripheral sense in the dark. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/light.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "test_util.h"

#define PI 3.14159265358979323846
#define ONE 4096 /* light units: a tile's light is kept in 1/4096ths */

static const char PATTERNS[] = "pattern sweep\n  kind control\n  forward 2\n  right 90\n  look 1s angles=-60,60\n"
                               "  forward 1\n  left 45\n  wait 20\n  right 135\n  forward 3\n  at_end loop\nend\n";

/* A lantern bearer as the test keeps it: its id and radius. */
typedef struct bearer {
    int id;
    double r;
} bearer;

static long units(double v) { return (long)floor(v * ONE + 0.5); }

/* The cone of docs/ai.md "Sight": the angle between the heading and the direction from
 * (vx, vy) to (tx, ty) at most half the cone; a cone of 360 or more, or no distance, holds. */
static int in_cone(double vx, double vy, double heading, double cone, double tx, double ty) {
    double dx = tx - vx, dy = ty - vy, d = sqrt(dx * dx + dy * dy);
    if (cone >= 2.0 * PI || d < 1e-6) return 1;
    double a = fabs(atan2(dy, dx) - heading);
    a = fmod(a, 2.0 * PI);
    if (a > PI) a = 2.0 * PI - a;
    return a <= cone / 2.0 + 1e-9;
}

/* The light of cell (x, y) in units: ambient, the lights that are on, the lanterns, capped. */
static long light_units(const pt_world *w, const pt_map *m, double ambient, const bearer *b, int nb, int x, int y) {
    long u = units(ambient);
    for (int i = 0; i < pt_world_light_count(w); i++) {
        pt_light l;
        ck_assert_int_eq(pt_world_light_get(w, i, &l), PT_OK);
        double d = hypot(x - l.x, y - l.y);
        if (l.on && d < l.radius && pt_los_clear(m, l.x, l.y, x, y)) u += units(l.level * (1.0 - d / l.radius));
    }
    for (int k = 0; k < nb; k++) {
        const pt_entity *e = pt_world_entity(w, b[k].id);
        if (!e) continue;
        double d = hypot(x - e->x, y - e->y);
        if (d < b[k].r && in_cone(e->x, e->y, e->heading, e->view_angle, x, y) && pt_los_clear(m, e->x, e->y, x, y))
            u += units(1.0 - d / b[k].r);
    }
    return u < ONE ? u : ONE;
}

static double gait_k(pt_gait g) { return g == PT_GAIT_SNEAK ? 0.0 : g == PT_GAIT_RUN ? 0.3 : 0.15; }

/* What a guard is before a step. */
typedef struct before {
    int live;
    double px, py, heading, view, fov, awareness;
    int x, y;
} before;

/* The expected rate of the fill (0: not noticed) of guard g seeing the player at (px, py)
 * with visibility v. */
static double expected_rate(const pt_map *m, const before *g, double cone, double v, double px, double py) {
    int x = (int)floor(px), y = (int)floor(py);
    double d = hypot(px - g->px, py - g->py);
    int close = fabs(px - g->px) <= 1.5 && fabs(py - g->py) <= 1.5 && d <= 1.5 && !pt_map_opaque(m, x, y) &&
                pt_los_clear(m, g->x, g->y, x, y);
    int sight = v > 0.0 && d <= g->view * v + 1e-12 && in_cone(g->px, g->py, g->heading, cone, px, py) &&
                pt_los_clear(m, g->x, g->y, x, y);
    if (sight) return close && v < 0.5 ? 0.5 : v;
    return close ? 0.5 : 0.0;
}

/* Tallies over a run: what the checks met. */
typedef struct tally {
    long checked, seen_dim, saved_by_dark, close_dark, lantern_lit, vis_dark;
} tally;

static void run_seed(uint64_t seed, tally *t) {
    enum { W = 24, H = 16, NG = 4, TICKS = 700 };
    pt_rng r;
    pt_rng_seed(&r, seed, 39);
    char grid[H][W + 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int edge = x == 0 || y == 0 || x == W - 1 || y == H - 1;
            unsigned k = pt_rng_below(&r, 100);
            grid[y][x] = edge ? '#' : k < 10 ? '#' : k < 14 ? '*' : '.';
        }
        grid[y][W] = '\0';
    }
    grid[1][1] = '.';
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "player at=1,1\n");
    int gx[NG], gy[NG];
    for (int g = 0; g < NG; g++) {
        do {
            gx[g] = 1 + (int)pt_rng_below(&r, W - 2);
            gy[g] = 1 + (int)pt_rng_below(&r, H - 2);
        } while (grid[gy[g]][gx[g]] != '.' || (gx[g] < 5 && gy[g] < 5));
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "guard g%d at=%d,%d heading=%d view=%d fov=%d hearing=256 aware_rate=%s%s\n", g, gx[g],
                              gy[g], (int)pt_rng_below(&r, 360), 5 + (int)pt_rng_below(&r, 7),
                              60 + (int)pt_rng_below(&r, 200), g % 2 ? "0.6" : "1.5", g < 3 ? " pattern=sweep" : "");
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "grid\n");
    for (int y = 0; y < H; y++) n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", grid[y]);
    n += (size_t)snprintf(text + n, sizeof text - n, "end\n");
    ck_assert(n < sizeof text);
    pt_error err;
    pt_patlib lib;
    pt_patlib_init(&lib);
    ck_assert_msg(pt_patlib_parse(&lib, PATTERNS, strlen(PATTERNS), "sweep.pat", &err) == PT_OK, "%s", err.message);
    pt_map m;
    ck_assert_msg(pt_map_parse(&m, text, n, "light.map", &err) == PT_OK, "%s", err.message);
    /* the light: a dim ambient level, 4 lights (one out), lanterns on guards 0 and 2 */
    const double ambients[] = {0.0, 0.05, 0.2, 0.4};
    double ambient = ambients[seed % 4];
    m.ambient = ambient;
    m.ambient_set = 1;
    m.nlights = 4;
    m.lights = calloc(4, sizeof *m.lights);
    ck_assert(m.lights != NULL);
    for (int i = 0; i < 4; i++) {
        pt_light_def *l = &m.lights[i];
        snprintf(l->name, sizeof l->name, "l%d", i);
        l->x = 1 + (int)pt_rng_below(&r, W - 2);
        l->y = 1 + (int)pt_rng_below(&r, H - 2);
        l->radius = 2.0 + pt_rng_below(&r, 60) / 10.0;
        l->level = 0.4 + pt_rng_below(&r, 61) / 100.0;
        l->on = i != 3;
    }
    bearer b[NG + 1];
    int nb = 0;
    for (int g = 0; g < NG; g++)
        if (g % 2 == 0) {
            m.ents[g].lantern = 3.0 + g;
            b[nb++] = (bearer){1 + g, 3.0 + g};
        }
    pt_world_desc desc = {.seed = seed, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    const pt_map *wm = pt_world_map(w);
    const pt_phase_timing *pt = pt_world_phase_timing(w);
    for (int tick = 0; tick < TICKS; tick++) {
        if (tick % 15 == 0) pt_world_set_input(w, (int)pt_rng_below(&r, 3) - 1, (int)pt_rng_below(&r, 3) - 1);
        if (tick % 40 == 0) pt_world_set_gait(w, (pt_gait)pt_rng_below(&r, 3));
        if (tick % 55 == 0) ck_assert_int_eq(pt_world_set_light(w, (int)pt_rng_below(&r, 4), (int)pt_rng_below(&r, 2), &err), PT_OK);
        if (tick == 300) { /* a lantern bearer spawned on the way, where guard 1 started */
            pt_entity_def d;
            memset(&d, 0, sizeof d);
            snprintf(d.name, sizeof d.name, "late");
            d.kind = PT_KIND_GUARD;
            d.x = gx[1];
            d.y = gy[1];
            d.heading_deg = 90;
            d.hearing = 256;
            d.lantern = 4.5;
            int id = pt_world_spawn(w, &d, NULL, &err);
            ck_assert_msg(id > 0, "%s", err.message);
            b[nb++] = (bearer){id, 4.5};
        }
        /* the state the step starts in */
        const pt_entity *p = pt_world_entity(w, 0);
        int settle = p->state == PT_STATE_CAUGHT; /* this step settles a catch: meters reset */
        long lu = light_units(w, wm, ambient, b, nb, p->x, p->y);
        double l = (double)lu / ONE, v = l + (1.0 - l) * gait_k(pt_world_gait(w));
        ck_assert_msg(fabs(pt_world_visibility(w) - v) < 1e-12, "seed %llu tick %d: visibility %.17g, expected %.17g",
                      (unsigned long long)seed, tick, pt_world_visibility(w), v);
        ck_assert_msg(fabs(pt_world_light_at(w, p->x, p->y) - l) < 1e-12, "seed %llu tick %d: light", (unsigned long long)seed, tick);
        t->vis_dark += v < 1.0;
        int count = pt_world_count(w);
        before g[16];
        ck_assert_int_le(count, 16);
        double sec;
        int caution = pt_world_phase(w, &sec) == PT_PHASE_CAUTION;
        for (int i = 1; i < count; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            g[i].live = e && e->kind == PT_KIND_GUARD;
            if (!g[i].live) continue;
            g[i] = (before){1, e->px, e->py, e->heading, e->view_dist, e->view_angle, e->awareness, e->x, e->y};
        }
        pt_world_step(w);
        if (settle) continue;
        p = pt_world_entity(w, 0);
        for (int i = 1; i < count; i++) {
            if (!g[i].live) continue;
            const pt_entity *e = pt_world_entity(w, i);
            double cone = caution ? fmin(g[i].fov * pt->caution_fov, 2.0 * PI) : g[i].fov;
            double rate = expected_rate(wm, &g[i], cone, v, p->px, p->py);
            ck_assert_msg(e->sees_player == (rate > 0.0), "seed %llu tick %d guard %d: sees %d, expected rate %g (V %g)",
                          (unsigned long long)seed, tick, i, e->sees_player, rate, v);
            double a = g[i].awareness;
            if (rate > 0.0) {
                double d = hypot(p->px - g[i].px, p->py - g[i].py);
                double closeness = 1.0 - 0.75 * fmin(d / g[i].view, 1.0);
                a += e->aware_rate * rate * (caution ? pt->caution_aware : 1.0) * closeness * pt_world_dt(w);
                if (a > 1.5 * e->chase_at) a = 1.5 * e->chase_at;
            } else {
                a = fmax(0.0, a - e->aware_decay * pt_world_dt(w));
            }
            ck_assert_msg(fabs(e->awareness - a) < 1e-9, "seed %llu tick %d guard %d: awareness %.12g, expected %.12g",
                          (unsigned long long)seed, tick, i, e->awareness, a);
            t->checked++;
            double d = hypot(p->px - g[i].px, p->py - g[i].py);
            int cone_full = d <= g[i].view && in_cone(g[i].px, g[i].py, g[i].heading, cone, p->px, p->py) &&
                            pt_los_clear(wm, g[i].x, g[i].y, p->x, p->y);
            t->seen_dim += rate > 0.0 && v < 1.0 && d > 1.5;
            t->saved_by_dark += cone_full && rate == 0.0;
            t->close_dark += rate == 0.5 && v < 0.5;
        }
        for (int k = 0; k < nb; k++) { /* a cell its lantern lights beyond the ambient level */
            const pt_entity *e = pt_world_entity(w, b[k].id);
            int fx = e->x + (int)lround(cos(e->heading)), fy = e->y + (int)lround(sin(e->heading));
            if (pt_map_in(wm, fx, fy) && pt_world_light_at(w, fx, fy) > pt_world_light_static(w, fx, fy)) t->lantern_lit++;
        }
    }
    pt_world_destroy(w);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}

START_TEST(test_generated_maps) {
    tally t = {0};
    for (uint64_t seed = 1; seed <= 40; seed++) run_seed(seed, &t);
    /* every case met: seen in dim light, unseen only for the dark, close in the dark, lanterns */
    ck_assert_msg(t.checked > 100000 && t.seen_dim > 500 && t.saved_by_dark > 500 && t.close_dark > 20 &&
                      t.lantern_lit > 1000 && t.vis_dark > 10000,
                  "checked %ld, seen dim %ld, saved by the dark %ld, close in the dark %ld, lantern lit %ld, dark ticks %ld",
                  t.checked, t.seen_dim, t.saved_by_dark, t.close_dark, t.lantern_lit, t.vis_dark);
}
END_TEST

/* A dark hall: the player walks east along row 3 past a guard at 2,3 looking east (view 10),
 * starting 7 tiles off. */
static pt_world *hall(pt_map *m, double ambient, const char *extra) {
    char text[1024];
    snprintf(text, sizeof text,
             "player at=9,3\nguard g at=2,3 heading=0 view=10 fov=90 hearing=256\n%sgrid\n"
             "##################\n#................#\n#................#\n#................#\n"
             "#................#\n#................#\n##################\nend\n",
             extra);
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, strlen(text), "hall.map", &err) == PT_OK, "%s", err.message);
    m->ambient = ambient;
    m->ambient_set = 1;
    pt_world_desc d = {.seed = 1, .player_controlled = 1};
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The ticks some guard saw the player as it walked east (or stood) for `ticks`. */
static int seen_ticks(pt_world *w, pt_gait gait, int dx, int ticks, double *vis) {
    pt_world_set_gait(w, gait);
    pt_world_set_input(w, dx, 0);
    int seen = 0;
    *vis = pt_world_visibility(w);
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        seen += pt_world_entity(w, 1)->sees_player;
    }
    return seen;
}

START_TEST(test_dark_room) {
    /* lit (ambient 1): seen; dark (ambient 0.1): walking, V = 0.1 + 0.9 * 0.15 = 0.235, a
     * range of 2.35 tiles; sneaking V = 0.1 (1 tile); running 0.37; ambient 0.5 sneaking 0.5
     * (5 tiles): unseen 7 tiles off and more */
    const struct { double ambient; pt_gait gait; double v; int seen; } cases[] = {
        {1.0, PT_GAIT_SNEAK, 1.0, 1}, {1.0, PT_GAIT_WALK, 1.0, 1}, {0.1, PT_GAIT_WALK, 0.235, 0},
        {0.1, PT_GAIT_SNEAK, 0.1, 0}, {0.1, PT_GAIT_RUN, 0.37, 0}, {0.5, PT_GAIT_SNEAK, 0.5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_map m;
        pt_world *w = hall(&m, cases[i].ambient, "");
        double v;
        int seen = seen_ticks(w, cases[i].gait, 1, 40, &v); /* 9,3 -> 15,3 at most: 7 to 13 tiles off */
        ck_assert_msg(fabs(v - cases[i].v) < 1e-3, "case %zu: V %g", i, v);
        if (cases[i].seen) ck_assert_msg(seen > 0, "case %zu: never seen", i);
        else ck_assert_msg(seen == 0, "case %zu: seen %d ticks", i, seen);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    /* the sneaking player in the dark is seen only once within view * V: standing 4 tiles off
     * (ambient 0.1: V 0.1, range 1) unseen; under a light at its cell (level 1: V 1) seen */
    for (int lit = 0; lit < 2; lit++) {
        pt_map m;
        char text[1024];
        snprintf(text, sizeof text,
                 "player at=6,3\nguard g at=2,3 heading=0 view=10 fov=90 hearing=256\ngrid\n"
                 "##########\n#........#\n#........#\n#........#\n#........#\n##########\nend\n");
        pt_error err;
        ck_assert(pt_map_parse(&m, text, strlen(text), "room.map", &err) == PT_OK);
        m.ambient = 0.1;
        m.ambient_set = 1;
        m.nlights = 1;
        m.lights = calloc(1, sizeof *m.lights);
        ck_assert(m.lights != NULL);
        m.lights[0] = (pt_light_def){.name = "torch", .x = 6, .y = 3, .radius = 3.0, .level = 1.0, .on = lit};
        pt_world_desc d = {.seed = 1, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        double v;
        int seen = seen_ticks(w, PT_GAIT_SNEAK, 0, 30, &v);
        ck_assert_msg(fabs(v - (lit ? 1.0 : 0.1)) < 1e-3, "lit %d: V %g", lit, v);
        ck_assert_msg(seen == (lit ? 30 : 0), "lit %d: seen %d ticks of 30", lit, seen);
        /* the awareness grew at V times the lit rate */
        if (lit) ck_assert(pt_world_entity(w, 1)->awareness > 0.0);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* The peripheral sense in the dark: in total darkness a sneaking player (V 0) is never seen
 * in the cone, yet felt beside the guard (behind it too) at half the rate; one more tile off
 * it is not. */
START_TEST(test_peripheral_dark) {
    const struct { int px; double heading; int felt; } cases[] = {
        {3, 0, 1}, {3, 180, 1}, {4, 0, 0}, {5, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "player at=%d,2\nguard g at=2,2 heading=%g view=10 fov=90 hearing=256\ngrid\n"
                 "#########\n#.......#\n#.......#\n#.......#\n#########\nend\n",
                 cases[i].px, cases[i].heading);
        pt_map m;
        pt_error err;
        ck_assert(pt_map_parse(&m, text, strlen(text), "dark.map", &err) == PT_OK);
        m.ambient = 0.0;
        m.ambient_set = 1;
        pt_world_desc d = {.seed = 1, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_world_set_gait(w, PT_GAIT_SNEAK);
        ck_assert(pt_world_visibility(w) == 0.0);
        pt_world_step(w);
        const pt_entity *g = pt_world_entity(w, 1);
        ck_assert_msg(g->sees_player == cases[i].felt, "case %zu", i);
        /* 1 tile: closeness 1 - 0.75 / 10, half the rate */
        double want = cases[i].felt ? 2.0 * 0.5 * (1.0 - 0.75 * 0.1) / 60.0 : 0.0;
        ck_assert_msg(fabs(g->awareness - want) < 1e-12, "case %zu: awareness %g, expected %g", i, g->awareness, want);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* Prey see by the same scaled cone; their 2-tile notice ignores the light. */
START_TEST(test_prey_dark) {
    const struct { double ambient; int px; int flee; } cases[] = {
        {1.0, 7, 1}, {0.1, 7, 0}, {0.1, 4, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "player at=%d,2\nprey deer at=2,2 heading=0 view=8 fov=90\ngrid\n"
                 "###########\n#.........#\n#.........#\n#.........#\n###########\nend\n",
                 cases[i].px);
        pt_map m;
        pt_error err;
        ck_assert(pt_map_parse(&m, text, strlen(text), "deer.map", &err) == PT_OK);
        m.ambient = cases[i].ambient;
        m.ambient_set = 1;
        pt_world_desc d = {.seed = 1, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_world_set_gait(w, PT_GAIT_SNEAK);
        pt_world_step(w);
        ck_assert_msg(pt_world_entity(w, 1)->sees_player == cases[i].flee, "case %zu", i);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* Lanterns: the bearer's own cell and what its cone holds within R, never behind it or
 * through a wall; 1 - d / R. */
START_TEST(test_lantern_by_hand) {
    static const char text[] = "player at=1,1\nguard g at=4,3 heading=0 view=8 fov=90 hearing=256\ngrid\n"
                               "############\n#..........#\n#..........#\n#..........#\n#......#...#\n#..........#\n"
                               "############\nend\n";
    pt_map m;
    pt_error err;
    ck_assert(pt_map_parse(&m, text, strlen(text), "lantern.map", &err) == PT_OK);
    m.ambient = 0.0;
    m.ambient_set = 1;
    m.ents[0].lantern = 4.0;
    pt_world_desc d = {.seed = 1, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, NULL, &d, &err);
    ck_assert(w != NULL);
    const struct { int x, y; double l; } cells[] = {
        {4, 3, 1.0},  {5, 3, 0.75}, {6, 3, 0.5}, {7, 3, 0.25}, {8, 3, 0.0},  /* along the heading, d < R */
        {3, 3, 0.0},  {4, 2, 0.0},                                          /* behind, beside: out of the cone */
        {5, 4, 1.0 - sqrt(2.0) / 4.0}, {6, 5, 1.0 - sqrt(8.0) / 4.0},       /* the cone's edge (45 degrees) */
        {6, 4, 1.0 - sqrt(5.0) / 4.0}, {7, 4, 0.0},                         /* in the cone; the wall itself */
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        double want = floor(cells[i].l * ONE + 0.5) / ONE;
        ck_assert_msg(fabs(pt_world_light_at(w, cells[i].x, cells[i].y) - want) < 1e-12, "cell %d,%d: %g, expected %g",
                      cells[i].x, cells[i].y, pt_world_light_at(w, cells[i].x, cells[i].y), want);
        ck_assert(pt_world_light_static(w, cells[i].x, cells[i].y) == 0.0);
    }
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

int main(void) {
    Suite *s = suite_create("light_sight");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_lantern_by_hand);
    tcase_add_test(tc, test_dark_room);
    tcase_add_test(tc, test_peripheral_dark);
    tcase_add_test(tc, test_prey_dark);
    tcase_add_test(tc, test_generated_maps);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
