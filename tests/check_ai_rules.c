/* SPDX-License-Identifier: Zlib */
/* check_ai_rules: rules docs/ai.md states in passing, each checked against the program.
 *
 *   - "Hearing": loudness is rounded to the nearest tenth, a half up (3.75 -> 3.8), a value
 *     less than a billionth of a tenth below a half counting as the half: every decimal
 *     X.Y5 up to 255.95, and every gait loudness x footstep factor of two decimals;
 *   - "Noises": sneaking over grass (1.25, so 1.3) is heard by a guard of the default
 *     hearing only on that very tile; on the next one (level 0.3) only below hearing 0.3;
 *   - "Searching": the area is the cells within 10 tiles of walking, 10 included;
 *   - "Calls": a radio name is 1 to 47 of letters, digits, `_ - . / :`, case matters. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/search.h>
#include <patrol/world.h>

#include "test_util.h"

static void parse(pt_map *m, const char *text) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, strlen(text), "rules.map", &err) == PT_OK, "%d:%d: %s", err.line, err.col,
                  err.message);
}

/* The level a noise of `loudness` leaves on its own cell: its loudness as rounded. */
static double level_at_origin(pt_hearing *h, double loudness) {
    ck_assert(pt_hearing_flood(h, 1, 1, loudness) > 0);
    return pt_hearing_level(h, 1, 1);
}

START_TEST(test_loudness_halves_round_up) {
    static const char *const rows[] = {"...", "...", "..."};
    pt_map m;
    tu_map_from_rows(&m, rows, 3);
    pt_hearing *h = pt_hearing_create(&m);
    ck_assert_ptr_nonnull(h);
    ck_assert_double_eq_tol(level_at_origin(h, 3.75), 3.8, 1e-9);
    ck_assert_double_eq_tol(level_at_origin(h, 1.25), 1.3, 1e-9);
    /* every half as written in a file: X.Y5 -> X.Y + 0.1 */
    for (int k = 0; k < 2560; k++) {
        char text[32];
        snprintf(text, sizeof text, "%d.%d5", k / 10, k % 10);
        double got = level_at_origin(h, strtod(text, NULL));
        ck_assert_msg(fabs(got - (k + 1) / 10.0) < 1e-9, "loudness %s: level %.10g, want %.1f", text, got, (k + 1) / 10.0);
    }
    /* every footstep: a gait's loudness x a footstep factor of two decimals, as the world
     * multiplies them (2.5 x 0.94 is 2.3499999999999996: it rounds as 2.35, to 2.4) */
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        double gl = pt_gait_loudness((pt_gait)g);
        long g10 = lround(gl * 10.0);
        for (int k = 1; k <= 1000; k++) {
            char text[32];
            snprintf(text, sizeof text, "%d.%02d", k / 100, k % 100);
            double loud = gl * strtod(text, NULL);
            if (loud > 256.0) continue;
            long want = (g10 * k + 50) / 100; /* tenths, half up, in whole numbers */
            if (want <= 0) continue;
            double got = level_at_origin(h, loud);
            ck_assert_msg(fabs(got - want / 10.0) < 1e-9, "%.1f x %s = %.17g: level %.10g, want %.1f", gl, text, loud, got,
                          want / 10.0);
        }
    }
    pt_hearing_destroy(h);
    pt_map_fini(&m);
}
END_TEST

/* The player sneaks from floor onto grass at 2,1: a noise of 1.25, rounded to 1.3. */
START_TEST(test_sneak_over_grass) {
    static const char text[] = "player at=1,1\n"
                               "guard on at=2,1 aware_rate=0.1 heading=90\n"
                               "guard next at=3,1 aware_rate=0.1 heading=90\n"
                               "guard keen at=3,1 aware_rate=0.1 heading=90 hearing=0.25\n"
                               "guard far at=4,1 aware_rate=0.1 heading=90 hearing=0.01\n"
                               "guard sharp at=3,1 aware_rate=0.1 heading=90 hearing=0.3\n"
                               "grid\n"
                               "#######\n"
                               "#.,,,,#\n"
                               "#######\n"
                               "end\n";
    pt_map m;
    parse(&m, text);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_world_desc desc = {.seed = 1, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    pt_world_set_gait(w, PT_GAIT_SNEAK);
    pt_world_set_input(w, 1, 0);
    int heard[6] = {0}, noises = 0;
    double loudness = 0.0;
    for (int t = 0; t < 120 && pt_world_entity(w, 0)->x == 1; t++) {
        pt_world_step(w);
        int n = 0;
        const pt_noise *nz = pt_world_noises(w, &n);
        for (int k = 0; k < n; k++) noises++, loudness = nz[k].loudness;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++)
            if (ev[k].kind == PT_EVENT_HEARD) {
                heard[ev[k].a]++;
                if (ev[k].a == 1) ck_assert_uint_eq(ev[k].b, 13); /* the level on its tile, tenths */
                if (ev[k].a == 3) ck_assert_uint_eq(ev[k].b, 3);
            }
    }
    ck_assert_int_eq(pt_world_entity(w, 0)->x, 2);
    ck_assert_int_eq(noises, 1);
    ck_assert_double_eq_tol(loudness, 1.25, 1e-12);
    ck_assert_int_eq(heard[1], 1); /* on the tile: 1.3 > 1 */
    ck_assert_int_eq(heard[2], 0); /* the next tile: 0.3, not above 1 */
    ck_assert_int_eq(heard[3], 1); /* the next tile, hearing 0.25 */
    ck_assert_int_eq(heard[4], 0); /* two tiles: nothing left */
    ck_assert_int_eq(heard[5], 0); /* the next tile, hearing 0.3: not above it */
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* On open floor the area is exactly the cells whose walking cost (10 a straight step, 14 a
 * diagonal one, in tenths) is at most 100: 10 tiles included. */
START_TEST(test_search_area_includes_ten) {
    enum { W = 31, H = 31, C = 15 };
    static char text[W * (W + 1) + 256];
    int len = snprintf(text, sizeof text, "player at=1,1\nguard g at=%d,%d\ngrid\n", C, C);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) text[len++] = x == 0 || y == 0 || x == W - 1 || y == H - 1 ? '#' : '.';
        text[len++] = '\n';
    }
    len += snprintf(text + len, sizeof text - (size_t)len, "end\n");
    pt_map m;
    parse(&m, text);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_world_desc desc = {.seed = 1};
    pt_error err;
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int gid = 1;
    ck_assert_int_eq(pt_world_search_start(w, C, C, &gid, 1, 0), PT_OK);
    pt_search_info s;
    pt_world_search(w, &s);
    if (s.ncells == 0) {
        pt_world_step(w);
        pt_world_search(w, &s);
    }
    static unsigned char in[H][W];
    memset(in, 0, sizeof in);
    for (int i = 0; i < s.ncells; i++) in[s.cells[i].y][s.cells[i].x] = 1;
    int want_n = 0;
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            int dx = abs(x - C), dy = abs(y - C), mn = dx < dy ? dx : dy, mx = dx < dy ? dy : dx;
            int cost = 14 * mn + 10 * (mx - mn), want = cost <= 100;
            want_n += want;
            ck_assert_msg(in[y][x] == want, "cell %d,%d (walking %.1f tiles): %s the area", x, y, cost / 10.0,
                          in[y][x] ? "in" : "not in");
        }
    ck_assert_int_eq(s.ncells, want_n);
    ck_assert(in[C][C + 10] && !in[C][C + 11] && in[C + 7][C + 7] && !in[C + 8][C + 8]);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_radio_names) {
    static const char ok_chars[] = "aZ09_-./:";
    char text[1024], name[64];
    pt_map m;
    pt_error err;
    /* every allowed character, and 47 of them */
    snprintf(text, sizeof text, "player at=1,1\nguard g at=2,1 radio=%s\ngrid\n####\n#..#\n####\nend\n", ok_chars);
    parse(&m, text);
    pt_map_fini(&m);
    memset(name, 'r', 47);
    name[47] = 0;
    snprintf(text, sizeof text, "player at=1,1\nguard g at=2,1 radio=%s\ngrid\n####\n#..#\n####\nend\n", name);
    parse(&m, text);
    ck_assert_str_eq(m.ents[0].radio, name);
    pt_map_fini(&m);
    /* 48 is too long; any other character is refused at that character */
    static const char *const bad[] = {"rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr", "a@b", "ch,1", "x!", "\xc3\xa9t\xc3\xa9", "a;b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "player at=1,1\nguard g at=2,1 radio=%s\ngrid\n####\n#..#\n####\nend\n", bad[i]);
        int rc = pt_map_parse(&m, text, strlen(text), "rules.map", &err);
        ck_assert_msg(rc != PT_OK, "radio=%s accepted", bad[i]);
        const char *line = strstr(text, "guard"), *val = strstr(text, "radio=") + 6;
        int col = (int)(val - line) + 1;
        if (i > 0) col += (int)strcspn(bad[i], "@,!\xc3;");
        ck_assert_int_eq(err.line, 2);
        ck_assert_msg(err.col == col, "radio=%s: col %d (%s), want %d", bad[i], err.col, err.message, col);
    }
    /* case matters: a call on Alpha reaches the far guard on Alpha, not the one on alpha */
    static const char calls[] = "player at=2,1\n"
                                "guard near at=4,1 heading=180 fov=180 aware_rate=20 radio=Alpha\n"
                                "guard same at=2,4 radio=Alpha\n"
                                "guard other at=4,4 radio=alpha\n"
                                "grid\n"
                                "#######\n"
                                "#.....#\n"
                                "#######\n"
                                "#######\n"
                                "#.....#\n"
                                "#######\n"
                                "end\n";
    parse(&m, calls);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_world_desc desc = {.seed = 1, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int told[4] = {0};
    for (int t = 0; t < 120; t++) {
        pt_world_step(w);
        int n = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++)
            if (ev[k].kind == PT_EVENT_CALLED && ev[k].b < 4) told[ev[k].b]++;
    }
    ck_assert_int_gt(told[2], 0);
    ck_assert_int_eq(told[3], 0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("ai_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, test_loudness_halves_round_up);
    tcase_add_test(tc, test_sneak_over_grass);
    tcase_add_test(tc, test_search_area_includes_ten);
    tcase_add_test(tc, test_radio_names);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
