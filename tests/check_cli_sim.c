/* SPDX-License-Identifier: Zlib */
/* `patrol sim`: exit codes of bad arguments and unwritable traces, the seed's range. */
#include <check.h>
#include <math.h>
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

/* -v names a countdown's length on its phase line, whatever it is: its whole ticks (one at
 * least) in seconds, to a tenth, or to a thousandth under 0.05 s. A countdown shorter than a
 * tick lasts one and says so (it used to print no `for S s`). */
/* The summary's `goal N` counts the ticks the player stands on a goal tile (README). */
START_TEST(test_goal_counts_ticks_on_the_goal) {
    static run_result r;
    char dir[1024], map[1200];
    snprintf(dir, sizeof dir, "%s/test-out", PATROL_BUILD_DIR);
    mkdir(dir, 0777);
    snprintf(map, sizeof map, "%s/goal-%d.map", dir, (int)getpid());
    FILE *f = fopen(map, "w");
    ck_assert_ptr_nonnull(f);
    fputs("player at=3,1\ngrid\n#####\n#..E#\n#####\nend\n", f);
    fclose(f);
    static const char *const ticks[] = {"1", "10", "250"};
    for (size_t k = 0; k < 3; k++) {
        const char *args[] = {map, "--ticks", ticks[k], NULL};
        run(&r, args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        char want[32];
        snprintf(want, sizeof want, " goal %s,", ticks[k]);
        ck_assert_msg(strstr(r.out, want) != NULL, "want '%s' in %s", want, r.out);
    }
}
END_TEST

START_TEST(test_phase_countdown_lengths) {
    static run_result r;
    static const double evasion[] = {0.001, 0.01, 0.04, 0.09, 1.0, 15.0};
    static const double caution[] = {0.004, 0.03, 0.2, 0.001, 2.5, 0.001};
    char dir[1024], map[1200], pat[1200];
    snprintf(dir, sizeof dir, "%s/test-out", PATROL_BUILD_DIR);
    mkdir(dir, 0777);
    snprintf(pat, sizeof pat, "%s/phase-%d.pat", dir, (int)getpid());
    FILE *f = fopen(pat, "w");
    ck_assert_ptr_nonnull(f);
    fputs("pattern walk_in\n  kind path\n  points 0,0 -9,0 -9,4 0,4\n  at_end reverse\nend\n", f);
    fclose(f);
    for (size_t k = 0; k < sizeof evasion / sizeof evasion[0]; k++) {
        snprintf(map, sizeof map, "%s/phase-%d-%zu.map", dir, (int)getpid(), k);
        f = fopen(map, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "evasion %g\ncaution %g\npatterns %s\nplayer at=12,1 pattern=walk_in\n"
                   "guard g at=3,3 view=6 fov=120 aware_rate=10\ngrid\n", evasion[k], caution[k], strrchr(pat, '/') + 1);
        for (int y = 0; y < 7; y++) fputs(y == 0 || y == 6 ? "##############\n" : "#............#\n", f);
        fputs("end\n", f);
        fclose(f);
        const char *args[] = {map, "--ticks", "3000", "-v", NULL};
        run(&r, args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        int seen[2] = {0, 0};
        for (const char *s = r.out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
            if (strncmp(s, "tick ", 5) != 0) continue;
            const char *ph = strstr(s, " phase ");
            const char *eol = strchr(s, '\n');
            if (!ph || (eol && ph > eol)) continue;
            int which = !strncmp(ph + 7, "evasion ", 8) ? 0 : !strncmp(ph + 7, "caution ", 8) ? 1 : -1;
            if (which < 0) continue;
            double secs = which == 0 ? evasion[k] : caution[k];
            long ticks = lround(secs * 60.0);
            if (ticks < 1) ticks = 1;
            char want[64];
            snprintf(want, sizeof want, ticks / 60.0 < 0.05 ? " for %.3f s\n" : " for %.1f s\n", ticks / 60.0);
            const char *got = strstr(ph, " for ");
            ck_assert_msg(got && (!eol || got < eol) && !strncmp(got, want, strlen(want)), "%s %g s: '%.*s', want '%s'",
                          which ? "caution" : "evasion", secs, (int)(eol ? eol - s : 60), s, want);
            seen[which]++;
        }
        /* (with long countdowns the player walks back into sight before caution begins) */
        ck_assert_msg(seen[0] > 0 && (seen[1] > 0 || evasion[k] >= 1.0), "k %zu: no evasion or caution in: %.400s", k, r.out);
        remove(map);
    }
    remove(pat);
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
    tcase_add_test(tc, test_phase_countdown_lengths);
    tcase_add_test(tc, test_goal_counts_ticks_on_the_goal);
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
