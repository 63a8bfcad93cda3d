/* SPDX-License-Identifier: Zlib */
/* Shouts (docs/ai.md, "Calls"): pt_world_shouts lists one shout per guard that started a chase
 * in the step, in the order they did, at the cell it stands on once the step is over, of its
 * shout loudness; never one without a chase, and never among the step's noises. On the demo
 * over several seeds (its player walks past the guards) and on generated rooms. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/world.h>

#include "test_util.h"

/* Steps w n times, checking each step's shouts against its SPOTTED events; returns the shouts. */
static int check_steps(pt_world *w, int n) {
    int total = 0;
    for (int t = 0; t < n; t++) {
        pt_world_step(w);
        int ne, ns, nn;
        const pt_event *ev = pt_world_events(w, &ne);
        const pt_noise *sh = pt_world_shouts(w, &ns);
        const pt_noise *nz = pt_world_noises(w, &nn);
        int k = 0;
        for (int i = 0; i < ne; i++) {
            if (ev[i].kind != PT_EVENT_SPOTTED) continue;
            ck_assert_int_lt(k, ns);
            const pt_entity *g = pt_world_entity(w, (int)ev[i].a);
            ck_assert_int_eq(sh[k].x, g->x);
            ck_assert_int_eq(sh[k].y, g->y);
            ck_assert(sh[k].loudness == g->def->shout);
            ck_assert(sh[k].kind == PT_NOISE_SHOUT);
            ck_assert(sh[k].tick == pt_world_tick(w));
            k++;
        }
        ck_assert_int_eq(k, ns);
        for (int i = 0; i < nn; i++) ck_assert(nz[i].kind != PT_NOISE_SHOUT);
        total += ns;
    }
    return total;
}

START_TEST(test_shouts_demo) {
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, "maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++)
        ck_assert_msg(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK, "%s", err.message);
    int total = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pt_world_desc d = {.seed = seed};
        pt_world *w = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        total += check_steps(w, 3000);
        pt_world_destroy(w);
    }
    ck_assert_int_gt(total, 0);
    ck_assert_str_eq(pt_noise_kind_name(PT_NOISE_SHOUT), "shout");
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A room of guards around a standing player, random shouts and headings. */
START_TEST(test_shouts_room) {
    int total = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 3);
        char text[4096];
        size_t n = (size_t)snprintf(text, sizeof text, "player at=10,6\n");
        for (int g = 0; g < 6; g++)
            n += (size_t)snprintf(text + n, sizeof text - n, "guard g%d at=%u,%u heading=%u shout=%u\n", g,
                                  1 + pt_rng_below(&r, 18), 1 + pt_rng_below(&r, 4) + (g % 2) * 7, pt_rng_below(&r, 360),
                                  4 + pt_rng_below(&r, 20));
        n += (size_t)snprintf(text + n, sizeof text - n, "grid\n####################\n");
        for (int y = 1; y < 12; y++) n += (size_t)snprintf(text + n, sizeof text - n, "#..................#\n");
        n += (size_t)snprintf(text + n, sizeof text - n, "####################\nend\n");
        pt_map m;
        pt_error err;
        ck_assert_msg(pt_map_parse(&m, text, n, "shouts.map", &err) == PT_OK, "%s", err.message);
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        total += check_steps(w, 600);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(total, 30);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("shouts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_shouts_demo);
    tcase_add_test(tc, test_shouts_room);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
