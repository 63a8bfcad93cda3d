/* SPDX-License-Identifier: Zlib */
/* Noises in the world (docs/ai.md, "Noises"): the player's gaits and footsteps, the legend's
 * footstep and noise keys, pt_world_noise. Each rule is checked over many ticks on generated
 * maps and several seeds. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/map.h>
#include <patrol/world.h>

#include "test_util.h"

/* A walled map of floor with patches of grass, bridge and a squeaky board 'q' (noise=7). */
static void surface_map(pt_map *m, int w, int h, uint64_t seed) {
    static const char *const legend = "player at=1,1\ntile q board walkable noise=7\ngrid\n";
    char *text = malloc((size_t)(w + 1) * (size_t)h + 64);
    ck_assert(text != NULL);
    size_t n = (size_t)sprintf(text, "%s", legend);
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    static const char kinds[] = "....,,=q#";
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            char c = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : kinds[pt_rng_below(&r, 9)];
            if (x == 1 && y == 1) c = '.';
            text[n++] = c;
        }
        text[n++] = '\n';
    }
    n += (size_t)sprintf(text + n, "end\n");
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, n, "surface.map", &err) == PT_OK, "%s", err.message);
    free(text);
}

/* Every footstep: one per tile entered, at that tile, gait loudness x the tile's footstep (or
 * the tile's own noise when louder), and none while the player stays on its tile. */
START_TEST(test_footsteps) {
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        surface_map(&m, 24, 18, seed);
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_error err;
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_rng r;
        pt_rng_seed(&r, seed, 9);
        int steps = 0, squeaks = 0, by_gait[PT_GAIT_COUNT] = {0};
        for (int t = 0; t < 3000; t++) {
            if (t % 23 == 0) pt_world_set_input(w, (int)pt_rng_below(&r, 3) - 1, (int)pt_rng_below(&r, 3) - 1);
            if (t % 71 == 0) pt_world_set_gait(w, (pt_gait)pt_rng_below(&r, PT_GAIT_COUNT));
            const pt_entity *p = pt_world_entity(w, 0);
            int x0 = p->x, y0 = p->y;
            pt_gait g = pt_world_gait(w);
            pt_world_step(w);
            int n;
            const pt_noise *nz = pt_world_noises(w, &n);
            int moved = p->x != x0 || p->y != y0;
            ck_assert(pt_map_walkable(&m, p->x, p->y));
            ck_assert_int_eq(n, moved);
            if (!moved) continue;
            const pt_tile_def *tile = pt_map_tile(&m, p->x, p->y);
            double step = pt_gait_loudness(g) * tile->footstep;
            ck_assert_int_eq(nz[0].x, p->x);
            ck_assert_int_eq(nz[0].y, p->y);
            ck_assert_uint_eq(nz[0].tick, pt_world_tick(w));
            if (tile->noise > step) {
                ck_assert_int_eq(nz[0].kind, PT_NOISE_TILE);
                ck_assert(nz[0].loudness == tile->noise);
                squeaks++;
            } else {
                ck_assert_int_eq(nz[0].kind, PT_NOISE_FOOTSTEP);
                ck_assert(nz[0].loudness == step);
            }
            steps++;
            by_gait[g]++;
        }
        ck_assert_int_gt(steps, 100);
        ck_assert_int_gt(squeaks, 0);
        for (int g = 0; g < PT_GAIT_COUNT; g++) ck_assert_int_gt(by_gait[g], 0);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    /* Louder the faster. */
    ck_assert(pt_gait_loudness(PT_GAIT_SNEAK) < pt_gait_loudness(PT_GAIT_WALK));
    ck_assert(pt_gait_loudness(PT_GAIT_WALK) < pt_gait_loudness(PT_GAIT_RUN));
    ck_assert(pt_gait_speed(PT_GAIT_SNEAK) < pt_gait_speed(PT_GAIT_WALK));
    ck_assert(pt_gait_speed(PT_GAIT_WALK) < pt_gait_speed(PT_GAIT_RUN));
    ck_assert(pt_gait_loudness(PT_GAIT_COUNT) == 0.0 && pt_gait_speed((pt_gait)-1) == 0.0);
}
END_TEST

/* Tiles entered in a long corridor in a fixed time go with the gait's speed factor. */
START_TEST(test_gait_speed) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 400, 1, &err), PT_OK);
    for (int gi = 0; gi < PT_GAIT_COUNT; gi++) {
        pt_world_desc d = {.seed = 3, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_world_set_gait(w, (pt_gait)gi);
        pt_world_set_gait(w, PT_GAIT_COUNT); /* ignored */
        ck_assert_int_eq(pt_world_gait(w), gi);
        pt_world_set_input(w, 1, 0);
        int ticks = 600;
        for (int t = 0; t < ticks; t++) pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        double want = p->speed * pt_gait_speed((pt_gait)gi) * ticks * pt_world_dt(w);
        ck_assert_msg(fabs(p->x - want) <= 1.0, "gait %s: %d tiles, want %g", pt_gait_name((pt_gait)gi), p->x, want);
        pt_world_destroy(w);
    }
    pt_map_fini(&m);
}
END_TEST

/* pt_world_noise: made in the next step, listed there once, bad ones ignored. */
START_TEST(test_game_noise) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 20, 10, &err), PT_OK);
    pt_world *w = pt_world_create(&m, NULL, NULL, &err);
    ck_assert(w != NULL);
    pt_world_noise(w, 3, 4, 5.0);
    pt_world_noise(w, 30, 4, 5.0);  /* outside */
    pt_world_noise(w, 3, 4, 0.0);   /* not above 0 */
    pt_world_noise(w, 3, 4, NAN);
    pt_world_noise(w, 5, 5, 1e9);   /* capped */
    int n;
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0); /* nothing before the step */
    pt_world_step(w);
    const pt_noise *nz = pt_world_noises(w, &n);
    ck_assert_int_eq(n, 2);
    ck_assert(nz[0].kind == PT_NOISE_GAME && nz[0].x == 3 && nz[0].y == 4 && nz[0].loudness == 5.0);
    ck_assert(nz[0].tick == pt_world_tick(w));
    ck_assert(nz[1].loudness == PT_HEARING_MAX_LOUDNESS);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    for (int i = 0; i < 300; i++) pt_world_noise(w, 1, 1, 2.0);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 256);
    ck_assert_str_eq(pt_noise_kind_name(PT_NOISE_GAME), "game");
    ck_assert_str_eq(pt_noise_kind_name(PT_NOISE_COUNT), "unknown");
    ck_assert_str_eq(pt_gait_name(PT_GAIT_SNEAK), "sneak");
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* The legend's footstep and noise: defaults by name, given values, kept by a clone. */
START_TEST(test_legend_keys) {
    static const char text[] = "player at=1,1\n"
                               "tile q board walkable noise=7.5\n"
                               "tile g gravel walkable\n"
                               "tile c carpet walkable footstep=0.2\n"
                               "tile ',' grass walkable footstep=0\n"
                               "grid\n#####\n#.q.#\n#gc,#\n#####\nend\n";
    pt_map m, c;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "legend.map", &err), PT_OK);
    static const struct { char ch; double footstep, noise; } want[] = {
        {'.', 1.0, 0}, {'=', 1.5, 0}, {'+', 1.0, 0}, {'q', 1.0, 7.5}, {'g', 1.5, 0}, {'c', 0.2, 0}, {',', 0.0, 0},
    };
    ck_assert_int_eq(pt_map_clone(&c, &m), PT_OK);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const pt_tile_def *t = &c.legend[pt_map_legend_find(&c, want[i].ch)];
        ck_assert_msg(t->footstep == want[i].footstep && t->noise == want[i].noise, "'%c'", want[i].ch);
    }
    ck_assert(pt_tile_footstep_default("grass") == 0.5);
    ck_assert(pt_tile_footstep_default(NULL) == 1.0);
    pt_map_fini(&c);
    pt_map_fini(&m);
    pt_map blank;
    ck_assert_int_eq(pt_map_init_blank(&blank, 3, 3, &err), PT_OK);
    ck_assert(blank.legend[pt_map_legend_find(&blank, ',')].footstep == 0.5);
    pt_map_fini(&blank);
}
END_TEST

static Suite *noise_suite(void) {
    Suite *s = suite_create("noise");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_footsteps);
    tcase_add_test(tc, test_gait_speed);
    tcase_add_test(tc, test_game_noise);
    tcase_add_test(tc, test_legend_keys);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(noise_suite()); }
