/* SPDX-License-Identifier: Zlib */
/* Steering parameters: the documented defaults, zero-means-default resolution, and .steer
 * files (sets, `from` chains, entity overrides, located errors, all-or-nothing loads). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/steer.h>

#define DEG (3.14159265358979323846 / 180.0)

static const char *data_path(const char *name) {
    static char buf[1024];
    const char *root = getenv("PATROL_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/tests/data/steer/%s", root ? root : PATROL_SOURCE_DIR, name);
    return buf;
}

/* ---- defaults ------------------------------------------------------------------------ */

/* The defaults as documented in docs/steering.md (typed here, not computed). */
START_TEST(test_defaults_documented) {
    pt_steer_params p;
    pt_steer_params_default(&p);
    static const struct { pt_behaviour b; double w, pr; } tab[] = {
        {PT_BEH_CONTAINMENT, 40, 0.5},    {PT_BEH_WALL_AVOIDANCE, 20, 0.5}, {PT_BEH_OBSTACLE_AVOIDANCE, 20, 0.5},
        {PT_BEH_EVADE, 10, 1.0},          {PT_BEH_FLEE, 10, 0.6},           {PT_BEH_SEPARATION, 1.5, 0.2},
        {PT_BEH_ALIGNMENT, 12, 0.3},      {PT_BEH_COHESION, 8, 0.6},        {PT_BEH_SEEK, 10, 0.8},
        {PT_BEH_ARRIVE, 10, 0.5},         {PT_BEH_WANDER, 2, 0.8},          {PT_BEH_PURSUIT, 10, 0.8},
        {PT_BEH_INTERCEPT, 10, 0.8},
        {PT_BEH_OFFSET_PURSUIT, 10, 0.8}, {PT_BEH_INTERPOSE, 10, 0.8},      {PT_BEH_HIDE, 10, 0.8},
        {PT_BEH_FOLLOW_PATH, 10, 0.8},    {PT_BEH_FOLLOW_CORRIDOR, 10, 0.8},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        ck_assert_msg(p.weight[tab[i].b] == tab[i].w, "%s weight", pt_behaviour_name(tab[i].b));
        ck_assert_msg(p.probability[tab[i].b] == tab[i].pr, "%s probability", pt_behaviour_name(tab[i].b));
    }
    ck_assert_int_eq(p.combiner, PT_COMBINE_PRIORITISED);
    ck_assert_uint_eq(p.behaviours, 0);
    ck_assert_int_eq(p.deceleration, PT_DECEL_NORMAL);
    ck_assert_double_eq(p.decel_tweak, 0.3);
    ck_assert_double_eq(p.panic_distance, 4.0);
    ck_assert_double_eq(p.threat_range, 5.0);
    ck_assert_double_eq_tol(p.facing_angle, 18 * DEG, 1e-15);
    ck_assert_double_eq(p.turn_around_time, 0.5);
    ck_assert_double_eq(p.wander_radius, 0.6);
    ck_assert_double_eq(p.wander_distance, 1.2);
    ck_assert_double_eq(p.wander_jitter, 4.0);
    ck_assert_double_eq(p.box_length, 1.5);
    ck_assert_double_eq(p.braking_weight, 0.2);
    ck_assert_double_eq(p.feeler_length, 1.5);
    ck_assert_double_eq(p.side_feeler_length, 0.7);
    ck_assert_double_eq_tol(p.feeler_angle, 45 * DEG, 1e-15);
    ck_assert_double_eq(p.hide_distance, 0.6);
    ck_assert_double_eq(p.waypoint_distance, 0.5);
    ck_assert_double_eq(p.path_predict, 0.4);
    ck_assert_double_eq(p.path_ahead, 0.8);
    ck_assert_double_eq(p.path_radius, 0.5);
    ck_assert_double_eq(p.view_radius, 4.0);
    ck_assert_double_eq(p.containment_lookahead, 0.3);
    ck_assert_double_eq(p.containment_margin, 0.2);
    /* vehicle overrides default to "keep the vehicle's value" */
    ck_assert(p.mass == 0 && p.max_speed == 0 && p.max_force == 0 && p.max_turn_rate == 0 && p.radius == 0 &&
              p.smooth_time == 0);
    ck_assert_int_eq(memcmp(&p, pt_steer_params_builtin(), sizeof p), 0);
}
END_TEST

START_TEST(test_resolve_zero_negative_and_kept) {
    pt_steer_params p;
    memset(&p, 0, sizeof p);
    p.weight[PT_BEH_SEEK] = 3;
    p.weight[PT_BEH_FLEE] = -2;
    p.probability[PT_BEH_WANDER] = 7; /* clamped to 1 */
    p.panic_distance = 9;
    p.threat_range = -1;
    p.feeler_angle = NAN;
    p.combiner = (pt_combiner)99;
    p.deceleration = PT_DECEL_FAST;
    p.max_speed = 4;
    p.mass = -3;
    p.behaviours = 0xffffffffu;
    pt_steer_params_resolve(&p);
    ck_assert_double_eq(p.weight[PT_BEH_SEEK], 3);
    ck_assert_double_eq(p.weight[PT_BEH_FLEE], 10);
    ck_assert_double_eq(p.probability[PT_BEH_WANDER], 1);
    ck_assert_double_eq(p.panic_distance, 9);
    ck_assert_double_eq(p.threat_range, 5);
    ck_assert_double_eq_tol(p.feeler_angle, 45 * DEG, 1e-15);
    ck_assert_int_eq(p.combiner, PT_COMBINE_PRIORITISED);
    ck_assert_int_eq(p.deceleration, PT_DECEL_FAST);
    ck_assert_double_eq(p.max_speed, 4);
    ck_assert_double_eq(p.mass, 0);
    ck_assert_uint_eq(p.behaviours, (1u << PT_BEH_COUNT) - 1u);
    pt_steer_params q = p;
    pt_steer_params_resolve(&q); /* idempotent */
    ck_assert_int_eq(memcmp(&p, &q, sizeof p), 0);
    /* apply: only the non-zero vehicle overrides */
    pt_vehicle v;
    pt_vehicle_init(&v, pt_v2(0, 0), 0);
    v.max_force = 7;
    pt_steer_params_apply(&p, &v);
    ck_assert_double_eq(v.max_speed, 4);
    ck_assert_double_eq(v.max_force, 7);
    ck_assert_double_eq(v.mass, 1);
}
END_TEST

/* ---- files --------------------------------------------------------------------------- */

START_TEST(test_file_sets_chains_entities) {
    pt_steer_file f;
    pt_steer_file_init(&f);
    pt_error err;
    ck_assert_int_eq(pt_steer_file_load(&f, data_path("good.steer"), &err), PT_OK);
    ck_assert_int_eq(f.count, 6);
    ck_assert(pt_steer_file_has_set(&f, "default"));
    ck_assert(pt_steer_file_has_set(&f, "hound"));
    ck_assert(!pt_steer_file_has_set(&f, "guard_1")); /* an entity block, not a set */
    ck_assert(!pt_steer_file_has_set(&f, "wolf"));

    pt_steer_params p;
    ck_assert_int_eq(pt_steer_file_params(&f, "someone", "hound", &p), PT_OK);
    ck_assert_int_eq(p.combiner, PT_COMBINE_PRIORITISED);
    ck_assert_double_eq(p.max_speed, 3.5);
    ck_assert_double_eq(p.weight[PT_BEH_WALL_AVOIDANCE], 25);
    ck_assert_double_eq(p.weight[PT_BEH_SEPARATION], 2.5);
    ck_assert_double_eq(p.view_radius, 3);
    ck_assert_double_eq_tol(p.feeler_angle, 30 * DEG, 1e-15);
    ck_assert_uint_eq(p.behaviours, PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) |
                                        PT_BEH_BIT(PT_BEH_CONTAINMENT));
    ck_assert_double_eq(p.weight[PT_BEH_COHESION], 8); /* untouched: built-in default */

    ck_assert_int_eq(pt_steer_file_params(&f, NULL, "fast_hound", &p), PT_OK);
    ck_assert_double_eq(p.max_speed, 5);
    ck_assert_double_eq(p.max_force, 16);
    ck_assert_int_eq(p.combiner, PT_COMBINE_WEIGHTED);
    ck_assert_double_eq(p.weight[PT_BEH_SEPARATION], 2.5);      /* from hound */
    ck_assert_double_eq(p.weight[PT_BEH_WALL_AVOIDANCE], 25);   /* from default */

    ck_assert_int_eq(pt_steer_file_params(&f, "", "chicken", &p), PT_OK);
    ck_assert_double_eq(p.panic_distance, 6);
    ck_assert_int_eq(p.deceleration, PT_DECEL_SLOW);
    ck_assert_double_eq(p.max_speed, 3.5);
    ck_assert_uint_eq(p.behaviours, PT_BEH_BIT(PT_BEH_FLEE) | PT_BEH_BIT(PT_BEH_WANDER) | PT_BEH_BIT(PT_BEH_CONTAINMENT));

    /* entity overrides on top of the map's set, or of their own `from` */
    ck_assert_int_eq(pt_steer_file_params(&f, "guard_1", "", &p), PT_OK);
    ck_assert_double_eq(p.max_speed, 4.2);
    ck_assert_double_eq(p.weight[PT_BEH_WALL_AVOIDANCE], 25);
    ck_assert_int_eq(pt_steer_file_params(&f, "guard_1", "chicken", &p), PT_OK);
    ck_assert_double_eq(p.max_speed, 4.2);
    ck_assert_double_eq(p.panic_distance, 6);
    ck_assert_int_eq(pt_steer_file_params(&f, "hound_7", "chicken", &p), PT_OK);
    ck_assert_double_eq(p.view_radius, 5);
    ck_assert_double_eq(p.max_force, 16);
    ck_assert_double_eq(p.panic_distance, 4); /* not chicken's */

    /* unknown set: an error, and the built-in defaults */
    ck_assert_int_eq(pt_steer_file_params(&f, "x", "wolf", &p), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(memcmp(&p, pt_steer_params_builtin(), sizeof p), 0);
    ck_assert_int_eq(pt_steer_file_params(&f, "x", "default", &p), PT_OK);
    ck_assert_double_eq(p.max_speed, 3.5);
    /* no file */
    ck_assert_int_eq(pt_steer_file_params(NULL, "x", NULL, &p), PT_OK);
    ck_assert_int_eq(memcmp(&p, pt_steer_params_builtin(), sizeof p), 0);
    ck_assert_int_eq(pt_steer_file_params(NULL, "x", "hound", &p), PT_ERR_BAD_VALUE);
    pt_steer_file_fini(&f);
    pt_steer_file_fini(&f);
}
END_TEST

static const struct bad_case {
    const char *text;
    int code, line, col;
} bad_cases[] = {
    {"set a\n  bogus 1\nend\n", PT_ERR_UNKNOWN_KEY, 2, 3},
    {"set a\n  max_speed fast\nend\n", PT_ERR_BAD_NUMBER, 2, 13},
    {"set a\n  max_speed -1\nend\n", PT_ERR_RANGE, 2, 13},
    {"set a\n  seek_weight 0\nend\n", PT_ERR_RANGE, 2, 15},
    {"set a\n  feeler_angle 181\nend\n", PT_ERR_RANGE, 2, 16},
    {"set a\n  seek_probability 1.5\nend\n", PT_ERR_RANGE, 2, 20},
    {"set a\n  max_speed=abc\nend\n", PT_ERR_BAD_NUMBER, 2, 13},
    {"set a from nope\nend\n", PT_ERR_BAD_VALUE, 1, 12},
    {"set a from b\nend\nset b from a\nend\n", PT_ERR_BAD_VALUE, 1, 12},
    {"entity e from e2\nend\n", PT_ERR_BAD_VALUE, 1, 15},
    {"entity e\nend\nentity f from e\nend\n", PT_ERR_BAD_VALUE, 3, 15},
    {"set default from a\nend\nset a\nend\n", PT_ERR_BAD_VALUE, 1, 18},
    {"set a\nend\nset a\nend\n", PT_ERR_DUPLICATE, 3, 5},
    {"set a\n  max_speed 3\n  max_speed 4\nend\n", PT_ERR_DUPLICATE, 3, 3},
    {"set a\n  max_speed 3\n", PT_ERR_UNTERMINATED, 1, 1},
    {"\n\nset a\nset b\nend\n", PT_ERR_UNTERMINATED, 3, 1},
    {"end\n", PT_ERR_SYNTAX, 1, 1},
    {"  max_speed 3\n", PT_ERR_SYNTAX, 1, 3},
    {"frobnicate\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 1},
    {"set\n", PT_ERR_MISSING, 1, 5},
    {"set a\n  max_speed\nend\n", PT_ERR_MISSING, 2, 13},
    {"set a\n  max_speed 3 4\nend\n", PT_ERR_SYNTAX, 2, 15},
    {"set a\n  combiner best\nend\n", PT_ERR_BAD_VALUE, 2, 12},
    {"set a\n  deceleration quick\nend\n", PT_ERR_BAD_VALUE, 2, 16},
    {"set a\n  behaviours seek flying\nend\n", PT_ERR_BAD_VALUE, 2, 19},
    {"set a b\nend\n", PT_ERR_SYNTAX, 1, 7},
    {"set a from\nend\n", PT_ERR_MISSING, 1, 12},
    {"set a from b c\nend\nset b\nend\n", PT_ERR_SYNTAX, 1, 14},
    {"set a!\nend\n", PT_ERR_SYNTAX, 1, 6},
    {"set a\n  'max_speed 3\nend\n", PT_ERR_SYNTAX, 2, 3},
    {"set a\nend extra\n", PT_ERR_SYNTAX, 2, 5},
};

/* Every error is located (code, line, column) and leaves the file exactly as it was. */
START_TEST(test_file_errors_located_all_or_nothing) {
    pt_steer_file f;
    pt_steer_file_init(&f);
    pt_error err;
    ck_assert_int_eq(pt_steer_file_load(&f, data_path("good.steer"), &err), PT_OK);
    pt_steer_params before;
    pt_steer_file_params(&f, "hound_7", "hound", &before);
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *c = &bad_cases[i];
        int rc = pt_steer_file_parse(&f, c->text, strlen(c->text), "mem.steer", &err);
        ck_assert_msg(rc == c->code && err.code == c->code && err.line == c->line && err.col == c->col,
                      "case %zu: got %s at %d:%d, want %s at %d:%d (%s)", i, pt_code_name(rc), err.line, err.col,
                      pt_code_name(c->code), c->line, c->col, err.message);
        ck_assert_str_eq(err.file, "mem.steer");
        ck_assert(err.source[0] != '\0' || c->text[0] == '\n');
        ck_assert_int_eq(f.count, 6);
        pt_steer_params after;
        pt_steer_file_params(&f, "hound_7", "hound", &after);
        ck_assert_int_eq(memcmp(&before, &after, sizeof before), 0);
    }
    /* from a file: the file name and the source line are in the error */
    ck_assert_int_eq(pt_steer_file_load(&f, data_path("bad_key.steer"), &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 3);
    ck_assert(strstr(err.file, "bad_key.steer") != NULL);
    ck_assert_str_eq(err.source, "  max_sped 5");
    ck_assert_int_eq(pt_steer_file_load(&f, data_path("missing.steer"), &err), PT_ERR_IO);
    ck_assert_int_eq(f.count, 6);
    ck_assert(strstr(f.path, "good.steer") != NULL);
    pt_steer_file_fini(&f);
}
END_TEST

START_TEST(test_file_empty_and_comments) {
    pt_steer_file f;
    pt_steer_file_init(&f);
    pt_error err;
    const char *text = "# nothing but comments\n\n   \n# set a\n";
    ck_assert_int_eq(pt_steer_file_parse(&f, text, strlen(text), "c.steer", &err), PT_OK);
    ck_assert_int_eq(f.count, 0);
    const char *t2 = "set a   # trailing comment\r\n  max_speed 2 # more\r\nend\r\n";
    ck_assert_int_eq(pt_steer_file_parse(&f, t2, strlen(t2), "c.steer", &err), PT_OK);
    pt_steer_params p;
    ck_assert_int_eq(pt_steer_file_params(&f, NULL, "a", &p), PT_OK);
    ck_assert_double_eq(p.max_speed, 2);
    /* every key parses (one block using all of them) */
    static const char *const keys[] = {
        "combiner dithered", "deceleration fast", "decel_tweak 0.5", "panic_distance 2", "threat_range 3",
        "facing_angle 20", "turn_around_time 1", "wander_radius 1", "wander_distance 2", "wander_jitter 3",
        "box_length 2", "braking_weight 0.1", "feeler_length 2", "side_feeler_length 1", "feeler_angle 40",
        "hide_distance 1", "waypoint_distance 0.4", "path_predict 0.5", "path_ahead 1", "path_radius 0.6",
        "view_radius 5", "containment_lookahead 0.5", "containment_margin 0.3", "mass 2", "max_speed 4",
        "max_force 12", "max_turn_rate 180", "radius 0.3", "smooth_time 0.2",
        ("behaviours seek flee arrive pursuit intercept evade wander obstacle_avoidance wall_avoidance interpose hide "
         "follow_path follow_corridor offset_pursuit separation alignment cohesion containment face"),
    };
    char buf[4096] = "set all\n";
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        strcat(buf, keys[i]);
        strcat(buf, "\n");
    }
    for (int b = 0; b < PT_BEH_COUNT; b++) {
        if (b == PT_BEH_FACE) continue;
        char line[96];
        snprintf(line, sizeof line, "%s_weight %d\n%s_probability 0.%d\n", pt_behaviour_name(b), b + 1,
                 pt_behaviour_name(b), b + 1);
        strcat(buf, line);
    }
    strcat(buf, "end\n");
    ck_assert_int_eq(pt_steer_file_parse(&f, buf, strlen(buf), "all.steer", &err), PT_OK);
    ck_assert_int_eq(pt_steer_file_params(&f, NULL, "all", &p), PT_OK);
    ck_assert_int_eq(p.combiner, PT_COMBINE_DITHERED);
    ck_assert_int_eq(p.deceleration, PT_DECEL_FAST);
    ck_assert_double_eq_tol(p.max_turn_rate, 3.14159265358979, 1e-12);
    ck_assert_double_eq_tol(p.facing_angle, 20 * DEG, 1e-15);
    ck_assert_double_eq(p.smooth_time, 0.2);
    ck_assert_double_eq(p.containment_margin, 0.3);
    ck_assert_uint_eq(p.behaviours, (1u << PT_BEH_COUNT) - 1u);
    for (int b = 0; b < PT_BEH_COUNT; b++) {
        if (b == PT_BEH_FACE) continue;
        ck_assert_double_eq(p.weight[b], b + 1);
        ck_assert_double_eq_tol(p.probability[b], (b + 1) / 10.0 >= 1 ? (b + 1) / 100.0 : (b + 1) / 10.0, 1e-12);
    }
    pt_steer_file_fini(&f);
}
END_TEST

START_TEST(test_file_limits) {
    /* more blocks than PT_STEER_MAX_SETS: a located limit error on the first one too many */
    size_t cap = (size_t)(PT_STEER_MAX_SETS + 2) * 24;
    char *text = malloc(cap), *p = text;
    for (int i = 0; i <= PT_STEER_MAX_SETS; i++) p += sprintf(p, "set s%d\nend\n", i);
    pt_steer_file f;
    pt_steer_file_init(&f);
    pt_error err;
    ck_assert_int_eq(pt_steer_file_parse(&f, text, strlen(text), "big.steer", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 2 * PT_STEER_MAX_SETS + 1);
    ck_assert_int_eq(f.count, 0);
    /* exactly at the limit is fine */
    p = text;
    for (int i = 0; i < PT_STEER_MAX_SETS; i++) p += sprintf(p, "set s%d\nend\n", i);
    ck_assert_int_eq(pt_steer_file_parse(&f, text, strlen(text), "big.steer", &err), PT_OK);
    ck_assert_int_eq(f.count, PT_STEER_MAX_SETS);
    free(text);
    /* a name at the length limit, and one over it */
    char name[PT_MAX_NAME + 1];
    memset(name, 'n', PT_MAX_NAME);
    name[PT_MAX_NAME] = '\0';
    char line[256];
    snprintf(line, sizeof line, "set %s\nend\n", name);
    ck_assert_int_eq(pt_steer_file_parse(&f, line, strlen(line), "n.steer", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.col, 5);
    name[PT_MAX_NAME - 1] = '\0';
    snprintf(line, sizeof line, "set %s\nend\n", name);
    ck_assert_int_eq(pt_steer_file_parse(&f, line, strlen(line), "n.steer", &err), PT_OK);
    /* binary input */
    const char bin[] = "set a\n\0end\n";
    ck_assert_int_eq(pt_steer_file_parse(&f, bin, sizeof bin - 1, "b.steer", &err), PT_ERR_BINARY);
    ck_assert_int_eq(f.count, 1);
    pt_steer_file_fini(&f);
}
END_TEST

static Suite *params_suite(void) {
    Suite *s = suite_create("steer_params");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_defaults_documented);
    tcase_add_test(core, test_resolve_zero_negative_and_kept);
    tcase_add_test(core, test_file_sets_chains_entities);
    tcase_add_test(core, test_file_errors_located_all_or_nothing);
    tcase_add_test(core, test_file_empty_and_comments);
    suite_add_tcase(s, core);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, test_file_limits);
    suite_add_tcase(s, lim);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(params_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
