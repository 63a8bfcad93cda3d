/* SPDX-License-Identifier: Zlib */
/* The player douses a light (pt_world_douse, patrol/light.h; docs/ai.md "Light"): on generated
 * maps over many seeds, the light put out is the one an independent pick names (lit, on the
 * player's cell or one of the 8 around it, the nearest centre to centre, then the lowest
 * index), only it changes, the event names the player, and the next step carries one noise of
 * loudness 3 (kind tile) at the light's cell, which a guard in earshot hears; with none in
 * reach nothing changes and no noise is made. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include "test_util.h"

#define SIZE 24

/* A generated map (tu_corner_map) with the player on a walkable cell and n lights scattered
 * within 2 cells of it (some in reach, some not, some out), a dark ambient level. */
static void light_map(pt_map *m, uint64_t seed, int n) {
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 39);
    do {
        m->player.x = 2 + (int)pt_rng_below(&r, SIZE - 4);
        m->player.y = 2 + (int)pt_rng_below(&r, SIZE - 4);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
    m->lights = calloc((size_t)(n > 0 ? n : 1), sizeof *m->lights);
    ck_assert_ptr_nonnull(m->lights);
    for (int i = 0; i < n; i++) {
        pt_light_def *l = &m->lights[i];
        snprintf(l->name, sizeof l->name, "l%d", i);
        l->x = m->player.x - 2 + (int)pt_rng_below(&r, 5);
        l->y = m->player.y - 2 + (int)pt_rng_below(&r, 5);
        l->radius = 1.5 + pt_rng_below(&r, 6);
        l->level = 0.25 + 0.25 * pt_rng_below(&r, 4);
        l->on = pt_rng_below(&r, 4) != 0;
        l->line = i + 1;
    }
    m->nlights = n;
    m->ambient = 0.1;
    m->ambient_set = 1;
}

/* The independent pick: the light pt_world_douse must put out, or -1. */
static int want_douse(const pt_world *w) {
    const pt_entity *p = pt_world_entity(w, 0);
    int best = -1;
    double best_d = 1e9;
    for (int i = 0; i < pt_world_light_count(w); i++) {
        pt_light l;
        ck_assert_int_eq(pt_world_light_get(w, i, &l), PT_OK);
        if (!l.on || abs(l.x - p->x) > 1 || abs(l.y - p->y) > 1) continue;
        double d = sqrt((double)(l.x - p->x) * (l.x - p->x) + (double)(l.y - p->y) * (l.y - p->y));
        if (d < best_d) best = i, best_d = d;
    }
    return best;
}

static int events_of(const pt_world *w, pt_event_kind kind, pt_event *last) {
    int n, c = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == kind) {
            c++;
            if (last) *last = ev[i];
        }
    return c;
}

static int tile_noises(const pt_world *w, pt_noise *last) {
    int n, c = 0;
    const pt_noise *nz = pt_world_noises(w, &n);
    for (int i = 0; i < n; i++)
        if (nz[i].kind == PT_NOISE_TILE) {
            c++;
            if (last) *last = nz[i];
        }
    return c;
}

/* Over 400 seeds: dousing until nothing is in reach puts the lights out one by one in the
 * independent pick's order, each with its event and, in the next step, its noise. */
START_TEST(test_douse_seeds) {
    int doused = 0, none = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        pt_map m;
        light_map(&m, seed, (int)(seed % 9));
        pt_error err;
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(w != NULL, "seed %llu: %s", (unsigned long long)seed, err.message);
        pt_world_step(w);
        for (int round = 0; round < 12; round++) {
            int want = want_douse(w);
            int n = pt_world_light_count(w);
            int before[16];
            for (int i = 0; i < n; i++) {
                pt_light l;
                pt_world_light_get(w, i, &l);
                before[i] = l.on;
            }
            int nev = events_of(w, PT_EVENT_LIGHT, NULL);
            double lit = want >= 0 ? pt_world_light_at(w, m.lights[want].x, m.lights[want].y) : 0;
            int got = pt_world_douse(w);
            ck_assert_msg(got == want, "seed %llu round %d: douse %d, want %d", (unsigned long long)seed, round, got,
                          want);
            for (int i = 0; i < n; i++) {
                pt_light l;
                pt_world_light_get(w, i, &l);
                ck_assert_int_eq(l.on, i == got ? 0 : before[i]);
            }
            pt_event ev = {0};
            ck_assert_int_eq(events_of(w, PT_EVENT_LIGHT, &ev), nev + (got >= 0));
            if (got >= 0) {
                ck_assert(ev.a == pt_world_entity(w, 0)->id && ev.b == 0);
                ck_assert(ev.x == m.lights[got].x && ev.y == m.lights[got].y);
                ck_assert(pt_world_light_at(w, ev.x, ev.y) <= lit);
            }
            pt_world_step(w);
            pt_noise nz = {0};
            ck_assert_int_eq(tile_noises(w, &nz), got >= 0);
            if (got >= 0) {
                ck_assert(nz.x == m.lights[got].x && nz.y == m.lights[got].y);
                ck_assert(nz.loudness == 3.0 && nz.tick == pt_world_tick(w));
                doused++;
            } else {
                none++;
                break;
            }
        }
        ck_assert_int_eq(want_douse(w), -1);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    /* Both outcomes happen often enough to mean something. */
    ck_assert_int_gt(doused, 300);
    ck_assert_int_eq(none, 400);
}
END_TEST

/* Ties: four lights at the same distance (the diagonals) and one on the player's own cell;
 * the own cell goes first, then the diagonals by index; out lights and far ones never. */
START_TEST(test_douse_order) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 9, 9, &err), PT_OK);
    m.player.x = m.player.y = 4;
    static const int at[][3] = {{2, 4, 1}, {5, 5, 1}, {3, 3, 1}, {4, 5, 0}, {5, 3, 1}, {4, 4, 1}, {6, 4, 1}};
    int n = (int)(sizeof at / sizeof at[0]);
    m.lights = calloc((size_t)n, sizeof *m.lights);
    for (int i = 0; i < n; i++)
        m.lights[i] = (pt_light_def){.x = at[i][0], .y = at[i][1], .radius = 3, .level = 1, .on = at[i][2]};
    m.nlights = n;
    pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
    ck_assert(w != NULL);
    ck_assert_int_eq(pt_world_douse(w), 5);
    ck_assert_int_eq(pt_world_douse(w), 1);
    ck_assert_int_eq(pt_world_douse(w), 2);
    ck_assert_int_eq(pt_world_douse(w), 4);
    ck_assert_int_eq(pt_world_douse(w), -1);
    ck_assert_int_eq(pt_world_douse(w), -1);
    pt_world_step(w);
    int nn;
    pt_world_noises(w, &nn);
    ck_assert_int_eq(tile_noises(w, NULL), 4);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* The noise is heard as any noise of loudness 3: a guard 2 cells away with hearing 0.5 hears
 * it at the light's cell and goes to look; one 5 cells away does not. */
START_TEST(test_douse_heard) {
    for (int far = 0; far < 2; far++) {
        char text[512];
        snprintf(text, sizeof text,
                 "player at=2,2\nguard g at=%d,3 heading=0 hearing=0.5\ngrid\n"
                 "############\n#..........#\n#..........#\n#..........#\n############\nend\n",
                 far ? 8 : 5);
        pt_map m;
        pt_error err;
        ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "douse.map", &err), PT_OK);
        m.lights = calloc(1, sizeof *m.lights);
        m.lights[0] = (pt_light_def){.name = "t", .x = 3, .y = 3, .radius = 4, .level = 1, .on = 1};
        m.nlights = 1;
        pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
        ck_assert(w != NULL);
        ck_assert_int_eq(pt_world_douse(w), 0);
        pt_world_step(w);
        pt_event ev;
        int heard = events_of(w, PT_EVENT_HEARD, &ev);
        ck_assert_int_eq(heard, !far);
        if (heard) ck_assert(ev.a == 1 && ev.x == 3 && ev.y == 3);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

static Suite *douse_suite(void) {
    Suite *s = suite_create("douse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_douse_seeds);
    tcase_add_test(tc, test_douse_order);
    tcase_add_test(tc, test_douse_heard);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(douse_suite()); }
