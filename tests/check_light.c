/* SPDX-License-Identifier: Zlib */
/* The light field (patrol/light.h, docs/ai.md "Light"): on generated maps with many lights,
 * thousands of random light toggles, tile changes (pt_world_set_tile) and door changes mixed
 * with ticks; after every few, every cell's pt_world_light_static equals that of a world
 * created fresh from the changed map with the same lights on, and a computation written here
 * from the docs' formula. A map without lights has no field. Save and load carry each light's
 * state. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/light.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/save.h>
#include <patrol/world.h>

#include "state/world_state.h"
#include "test_util.h"

enum { SIZE = 40, GUARDS = 4, LIGHTS = 60, SEEDS = 6, OPS = 2000, EVERY = 10 };

static const char KINDS[] = ".#~=+,*E:T+#"; /* every kind of the default legend; more doors and walls */

/* A generated map: test_util.h's corner map with every legend kind scattered over it, some
 * guards, a player, a dark ambient level and LIGHTS lights anywhere on it (walls too), of
 * radius 0.5..10.5, level 0.1..1, about two in three on. */
static void gen_map(pt_map *m, uint64_t seed) {
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    for (int i = 0; i < SIZE * SIZE / 6; i++) {
        int x = 1 + (int)pt_rng_below(&r, SIZE - 2), y = 1 + (int)pt_rng_below(&r, SIZE - 2);
        pt_map_set(m, x, y, KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))]);
    }
    m->ents = calloc(GUARDS, sizeof *m->ents);
    ck_assert_ptr_nonnull(m->ents);
    for (int i = 0; i < GUARDS; i++) {
        pt_entity_def *d = &m->ents[i];
        do {
            d->x = (int)pt_rng_below(&r, SIZE);
            d->y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(m, d->x, d->y));
        snprintf(d->name, sizeof d->name, "g%d", i + 1);
        d->kind = PT_KIND_GUARD;
        d->chase = i % 2 ? PT_CHASE_STEER : PT_CHASE_TILE;
        d->line = 1;
    }
    m->nents = GUARDS;
    do {
        m->player.x = (int)pt_rng_below(&r, SIZE);
        m->player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
    m->ambient = pt_rng_below(&r, 4) * 0.1;
    m->ambient_set = 1;
    m->lights = calloc(LIGHTS, sizeof *m->lights);
    ck_assert_ptr_nonnull(m->lights);
    for (int i = 0; i < LIGHTS; i++) {
        pt_light_def *l = &m->lights[i];
        snprintf(l->name, sizeof l->name, "l%d", i);
        l->x = (int)pt_rng_below(&r, SIZE);
        l->y = (int)pt_rng_below(&r, SIZE);
        l->radius = 0.5 + pt_rng_below(&r, 1001) / 100.0;
        l->level = 0.1 + pt_rng_below(&r, 91) / 100.0;
        l->on = pt_rng_below(&r, 3) != 0;
    }
    m->nlights = LIGHTS;
}

static pt_world *make_world(const pt_map *m, uint64_t seed) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The docs' formula, written out: the ambient level and each light that is on, its level *
 * (1 - d / radius) for d (centre to centre) < radius where its cell sees the cell by the
 * sight rule, each in whole 1/4096ths (rounded to nearest), summed, capped at 1. */
static double formula(const pt_map *m, const int *on, double ambient, int x, int y) {
    long sum = (long)floor(ambient * 4096.0 + 0.5); /* each to the nearest unit, halves up */
    for (int i = 0; i < m->nlights; i++) {
        const pt_light_def *l = &m->lights[i];
        if (!on[i]) continue;
        double dx = x - l->x, dy = y - l->y, d = sqrt(dx * dx + dy * dy);
        if (d >= l->radius || !pt_los_clear(m, l->x, l->y, x, y)) continue;
        sum += (long)floor(l->level * (1.0 - d / l->radius) * 4096.0 + 0.5);
    }
    return (sum < 4096 ? sum : 4096) / 4096.0;
}

/* Every cell of w against a world made fresh from w's map with the same lights on, and
 * (with `by_formula`) against formula(). */
static void same_light(const pt_world *w, uint64_t seed, int op, int by_formula) {
    pt_map m;
    ck_assert_int_eq(pt_map_clone(&m, pt_world_map(w)), PT_OK);
    int on[LIGHTS];
    for (int i = 0; i < m.nlights; i++) {
        pt_light l;
        ck_assert_int_eq(pt_world_light_get(w, i, &l), PT_OK);
        m.lights[i].on = on[i] = l.on;
    }
    pt_world *f = make_world(&m, seed);
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            double a = pt_world_light_static(w, x, y), b = pt_world_light_static(f, x, y);
            ck_assert_msg(a == b, "seed %llu op %d: cell %d,%d has light %.6f, a fresh world %.6f",
                          (unsigned long long)seed, op, x, y, a, b);
            if (by_formula) {
                double c = formula(&m, on, m.ambient, x, y);
                ck_assert_msg(a == c, "seed %llu op %d: cell %d,%d has light %.6f, the formula %.6f",
                              (unsigned long long)seed, op, x, y, a, c);
            }
        }
    pt_world_destroy(f);
    pt_map_fini(&m);
}

START_TEST(test_field_follows_changes) {
    uint64_t seed = 1000 + (uint64_t)_i;
    pt_map m;
    gen_map(&m, seed);
    pt_world *w = make_world(&m, seed);
    same_light(w, seed, 0, 1);
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    int toggles = 0, tiles = 0, doors = 0, events = 0;
    for (int op = 1; op <= OPS; op++) {
        uint32_t what = pt_rng_below(&r, 10);
        if (what < 4) { /* a light toggled, or set to the state it has */
            int i = (int)pt_rng_below(&r, LIGHTS), on = (int)pt_rng_below(&r, 2);
            pt_light before;
            pt_world_light_get(w, i, &before);
            ck_assert_int_eq(pt_world_set_light(w, i, on, NULL), PT_OK);
            toggles += before.on != on;
            int nev = 0;
            const pt_event *ev = pt_world_events(w, &nev);
            int mine = 0;
            for (int k = 0; k < nev; k++) mine += ev[k].kind == PT_EVENT_LIGHT && ev[k].a == PT_LIGHT_BY_GAME;
            events += mine;
        } else if (what < 7) { /* a tile changed */
            int x = (int)pt_rng_below(&r, SIZE), y = (int)pt_rng_below(&r, SIZE);
            char t = KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))];
            tiles += pt_world_set_tile(w, x, y, t, NULL) == PT_OK;
        } else if (what < 9) { /* a door opened, closed or locked */
            pt_door all[SIZE * SIZE];
            int nd = pt_world_doors(w, all, SIZE * SIZE);
            if (nd > 0) {
                const pt_door *d = &all[pt_rng_below(&r, (uint32_t)nd)];
                doors += pt_world_set_door(w, d->x, d->y, (pt_door_state)pt_rng_below(&r, 3), NULL) == PT_OK;
            }
        } else
            pt_world_step(w);
        if (op % EVERY == 0) same_light(w, seed, op, op % (5 * EVERY) == 0);
    }
    ck_assert_int_gt(toggles, OPS / 10);
    ck_assert_int_gt(tiles, OPS / 10);
    ck_assert_int_gt(doors, OPS / 20);
    ck_assert_int_gt(events, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* Toggling: the event, and a toggle back gives every cell its light again exactly. */
START_TEST(test_toggle_and_back) {
    pt_map m;
    gen_map(&m, 77);
    pt_world *w = make_world(&m, 77);
    double before[SIZE * SIZE];
    for (int k = 0; k < SIZE * SIZE; k++) before[k] = pt_world_light_static(w, k % SIZE, k / SIZE);
    pt_light l;
    int i = 0;
    for (; i < LIGHTS; i++) {
        pt_world_light_get(w, i, &l);
        if (l.on && pt_map_walkable(&m, l.x, l.y) && l.radius >= 2) break;
    }
    ck_assert_int_lt(i, LIGHTS);
    ck_assert_int_eq(pt_world_set_light(w, i, 1, NULL), PT_OK); /* the state it has: nothing */
    int nev = 0;
    pt_world_events(w, &nev);
    ck_assert_int_eq(nev, 0);
    ck_assert_int_eq(pt_world_set_light(w, i, 0, NULL), PT_OK);
    const pt_event *ev = pt_world_events(w, &nev);
    ck_assert_int_eq(nev, 1);
    ck_assert_int_eq(ev[0].kind, PT_EVENT_LIGHT);
    ck_assert_uint_eq(ev[0].a, PT_LIGHT_BY_GAME);
    ck_assert_uint_eq(ev[0].b, 0);
    ck_assert_int_eq(ev[0].x, l.x);
    ck_assert_int_eq(ev[0].y, l.y);
    ck_assert(pt_world_light_static(w, l.x, l.y) < before[l.y * SIZE + l.x] || before[l.y * SIZE + l.x] == 1.0);
    ck_assert_int_eq(pt_world_set_light(w, LIGHTS, 0, NULL), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_world_set_light(w, -1, 0, NULL), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(pt_world_set_light(w, i, 1, NULL), PT_OK);
    for (int k = 0; k < SIZE * SIZE; k++) ck_assert(pt_world_light_static(w, k % SIZE, k / SIZE) == before[k]);
    ck_assert(pt_world_light_static(w, -1, 0) == 0.0);
    ck_assert(pt_world_light_static(w, SIZE, 0) == 0.0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* A map without lights: no field, no lists (no memory), every cell at the ambient level. */
START_TEST(test_no_lights_no_field) {
    pt_map m;
    gen_map(&m, 5);
    free(m.lights);
    m.lights = NULL;
    m.nlights = 0;
    m.ambient = 0.3;
    pt_world *w = make_world(&m, 5);
    ck_assert_ptr_null(w->light_field);
    ck_assert_ptr_null(w->light_block);
    ck_assert_ptr_null(w->light_in);
    ck_assert_ptr_null(w->light_on);
    for (int k = 0; k < SIZE * SIZE; k++) ck_assert(pt_world_light_static(w, k % SIZE, k / SIZE) == lround(0.3 * 4096) / 4096.0);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 3, '#', NULL), PT_OK);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* Save and load with lights toggled and tiles changed: the loaded world has every light's
 * state and every cell's light, saves the same bytes again, and a step after gives the same
 * events in both. */
START_TEST(test_save_load_lights) {
    uint64_t seed = 500 + (uint64_t)_i;
    pt_map m;
    gen_map(&m, seed);
    pt_world *w = make_world(&m, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 11);
    for (int k = 0; k < 200; k++) {
        if (k % 3 == 0) pt_world_set_tile(w, (int)pt_rng_below(&r, SIZE), (int)pt_rng_below(&r, SIZE), k % 2 ? '#' : '.', NULL);
        else pt_world_set_light(w, (int)pt_rng_below(&r, LIGHTS), (int)pt_rng_below(&r, 2), NULL);
        if (k % 20 == 0) pt_world_step(w);
    }
    void *data = NULL, *again = NULL;
    size_t size = 0, size2 = 0;
    pt_error err;
    ck_assert_int_eq(pt_world_save(w, "light test", &data, &size, &err), PT_OK);
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_world *v = pt_world_load(data, size, &m, NULL, &d, &err);
    ck_assert_msg(v != NULL, "%s", err.message);
    int differ = 0;
    for (int i = 0; i < LIGHTS; i++) {
        pt_light a, b;
        pt_world_light_get(w, i, &a);
        pt_world_light_get(v, i, &b);
        ck_assert_int_eq(a.on, b.on);
        differ += a.on != m.lights[i].on;
    }
    ck_assert_int_gt(differ, 0); /* the save carried states other than the map's */
    for (int k = 0; k < SIZE * SIZE; k++)
        ck_assert(pt_world_light_static(v, k % SIZE, k / SIZE) == pt_world_light_static(w, k % SIZE, k / SIZE));
    int nev = 0;
    pt_world_events(v, &nev);
    int nw = 0;
    pt_world_events(w, &nw);
    ck_assert_int_eq(nev, nw); /* the load switched its lights without events */
    ck_assert_int_eq(pt_world_save(v, "light test", &again, &size2, &err), PT_OK);
    ck_assert_uint_eq(size, size2);
    ck_assert_int_eq(memcmp(data, again, size), 0);
    same_light(v, seed, -1, 1);
    pt_world_save_free(data);
    pt_world_save_free(again);
    pt_world_destroy(v);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

static Suite *light_suite(void) {
    Suite *s = suite_create("light");
    TCase *tc = tcase_create("field");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_field_follows_changes, 0, SEEDS);
    tcase_add_test(tc, test_toggle_and_back);
    tcase_add_test(tc, test_no_lights_no_field);
    tcase_add_loop_test(tc, test_save_load_lights, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(light_suite()); }
