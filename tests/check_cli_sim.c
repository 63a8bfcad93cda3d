/* SPDX-License-Identifier: Zlib */
/* `patrol sim`: exit codes of bad arguments and unwritable traces, the seed's range. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_cli.h"

#define DEMO PATROL_SOURCE_DIR "/maps/demo.map"
#define ROUTES PATROL_SOURCE_DIR "/patterns/demo_routes.pat"

static void run(run_result *r, const char *const *args) { tu_run_patrol(r, "sim", args); }

static int has_line_starting(const char *text, const char *prefix) {
    size_t n = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (strncmp(s, prefix, n) == 0) return 1;
    return 0;
}

START_TEST(test_usage_errors_exit_2) {
    static run_result r;
    const char *cases[][8] = {
        {DEMO, "--ticks", "10", "--player-pattern", "foo", NULL},
        {DEMO, "--ticks", "10", "--player-pattern", ":walk", NULL},
        {DEMO, "--ticks", "10", "--player-pattern", "x.pat:", NULL},
        {DEMO, "--ticks", "10", "--seed", "-1", NULL},
        {DEMO, "--ticks", "10", "--seed", "18446744073709551616", NULL},
        {DEMO, "--ticks", "10", "--seed", "7x", NULL},
        {DEMO, "--ticks", "10", "--seed", NULL},
        {DEMO, "--ticks", "10", "--bogus", NULL},
        {DEMO, NULL},
        {"--ticks", "10", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run(&r, cases[i]);
        ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
        ck_assert_msg(has_line_starting(r.err, "patrol sim: error: "), "case %zu: %s", i, r.err);
    }
}
END_TEST

/* A map given as the player's pattern file is named as a map, with what makes a route. */
START_TEST(test_map_as_player_pattern) {
    static run_result r;
    const char *args[] = {DEMO, "--ticks", "10", "--player-pattern", DEMO ":solved", NULL};
    run(&r, args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, DEMO ":"), "%s", r.err);
    ck_assert_msg(strstr(r.err, ": error: this is a map (it begins with 'format'); ") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "patrol solve " DEMO " --out ") != NULL, "%s", r.err);
}
END_TEST

/* A pattern the file does not have: its names, and "did you mean" for a near one. */
START_TEST(test_unknown_player_pattern) {
    static run_result r;
    const char *nope[] = {DEMO, "--ticks", "10", "--player-pattern", ROUTES ":nope", NULL};
    run(&r, nope);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "patrol sim: error: " ROUTES " has no pattern 'nope'; it has: sneak, dash\n"),
                  "%s", r.err);
    const char *typo[] = {DEMO, "--ticks", "10", "--player-pattern", ROUTES ":snaek", NULL};
    run(&r, typo);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "has no pattern 'snaek'; did you mean 'sneak'? (it has: sneak, dash)\n"), "%s", r.err);
}
END_TEST

START_TEST(test_seed_takes_64_bits) {
    /* The same range as a map's `seed`: up to 2^64-1, echoed back whole. */
    static run_result r;
    const char *args[] = {DEMO, "--ticks", "10", "--seed", "18446744073709551615", NULL};
    run(&r, args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, ", seed 18446744073709551615, ") != NULL, "%s", r.out);
    const char *big[] = {DEMO, "--ticks", "10", "--seed", "4294967296", NULL};
    run(&r, big);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, ", seed 4294967296, ") != NULL, "%s", r.out);
}
END_TEST

START_TEST(test_trace_write_errors) {
    static run_result r;
    const char *missing_dir[] = {DEMO, "--ticks", "10", "--trace", "/nonexistent/dir/t.csv", NULL};
    run(&r, missing_dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "patrol sim: error: cannot write /nonexistent/dir/t.csv: "), "%s", r.err);
    struct stat st;
    if (stat("/dev/full", &st) == 0) {
        const char *full[] = {DEMO, "--ticks", "10", "--trace", "/dev/full", "--quiet", NULL};
        run(&r, full);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(has_line_starting(r.err, "patrol sim: error: cannot write /dev/full: "), "%s", r.err);
    }
}
END_TEST

/* The summary names who caught the player and when; -v lists every event, the same catch
 * among them. */
START_TEST(test_who_caught_and_when) {
    static run_result r;
    const char *args[] = {DEMO, "--ticks", "20000", NULL};
    run(&r, args);
    ck_assert_int_eq(r.status, 0);
    const char *c = strstr(r.out, "; caught ");
    ck_assert_ptr_nonnull(c);
    long caught = atol(c + 9);
    ck_assert_msg(caught >= 1, "the demo has no catch in 20000 ticks: %s", r.out);
    char guard[64] = "";
    unsigned long long tick = 0;
    double secs = 0;
    const char *line = strstr(r.out, "\ncaught by ");
    ck_assert_msg(line != NULL, "no 'caught by' line: %s", r.out);
    ck_assert_int_eq(sscanf(line + 1, "caught by %63s at tick %llu (%lf s)", guard, &tick, &secs), 3);
    ck_assert(tick > 0 && tick <= 20000);
    ck_assert_msg(secs > tick / 60.0 - 0.1 && secs < tick / 60.0 + 0.1, "%s", line);

    const char *verbose[] = {DEMO, "--ticks", "20000", "-v", NULL};
    run(&r, verbose);
    ck_assert_int_eq(r.status, 0);
    char want[128];
    snprintf(want, sizeof want, "tick %llu caught %s player at ", tick, guard);
    ck_assert_msg(has_line_starting(r.out, want), "no '%s' in: %s", want, r.out);
    ck_assert(has_line_starting(r.out, "tick "));
    /* every event line is "tick T KIND NAME..." with a known kind */
    long events = 0, heard = 0, called = 0, alarms = 0;
    for (const char *s = r.out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
        if (strncmp(s, "tick ", 5) != 0) continue;
        char kind[32];
        ck_assert_int_eq(sscanf(s, "tick %*u %31s", kind), 1);
        ck_assert_msg(!strcmp(kind, "caught") || !strcmp(kind, "spotted") || !strcmp(kind, "lost") ||
                          !strcmp(kind, "returned") || !strcmp(kind, "goal") || !strcmp(kind, "key") ||
                          !strcmp(kind, "heard") || !strcmp(kind, "called") || !strcmp(kind, "phase"),
                      "kind '%s'", kind);
        if (!strcmp(kind, "heard")) { /* the noise's place and its level at the guard */
            char who[64];
            int x, y;
            double level;
            ck_assert_msg(sscanf(s, "tick %*u heard %63s at %d,%d level %lf", who, &x, &y, &level) == 4, "%.80s", s);
            ck_assert(level > 1.0 && level <= 256.0); /* above the default hearing */
            heard++;
        }
        if (!strcmp(kind, "called")) { /* caller, the guard told, the last known position */
            char who[64], told[64];
            int x, y;
            ck_assert_msg(sscanf(s, "tick %*u called %63s %63s at %d,%d", who, told, &x, &y) == 4, "%.80s", s);
            ck_assert_str_ne(who, told);
            called++;
        }
        if (!strcmp(kind, "phase") && !strncmp(strstr(s, "phase ") + 6, "alert ", 6)) alarms++;
        events++;
    }
    ck_assert_int_ge(events, caught);
    ck_assert_int_gt(heard, 0);
    /* the summary counts them */
    const char *h = strstr(r.out, ", heard ");
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(atol(h + 8), heard);
    const char *cl = strstr(r.out, ", called ");
    ck_assert_ptr_nonnull(cl);
    ck_assert_int_eq(atol(cl + 9), called);
    ck_assert_int_gt(alarms, 0);
    const char *al = strstr(r.out, ", alarms ");
    ck_assert_ptr_nonnull(al);
    ck_assert_int_eq(atol(al + 9), alarms);
}
END_TEST

static Suite *cli_sim_suite(void) {
    Suite *s = suite_create("cli_sim");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_usage_errors_exit_2);
    tcase_add_test(tc, test_seed_takes_64_bits);
    tcase_add_test(tc, test_map_as_player_pattern);
    tcase_add_test(tc, test_unknown_player_pattern);
    tcase_add_test(tc, test_trace_write_errors);
    tcase_add_test(tc, test_who_caught_and_when);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(cli_sim_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
