/* SPDX-License-Identifier: Zlib */
/* patrol bench: every scenario runs and prints the keys the issue asks for; bad arguments
 * are usage errors. Tiny sizes: this checks the command, it does not time anything. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli.h"
#include "test_util.h"

static const char *scenario_names[] = {"patterns", "los", "flock", "steer", "world", "world-flocks", "world-mixed",
                                       "hearing", "world-noise", "search", "set-tile", "save", "light"};
#define NSCEN (int)(sizeof scenario_names / sizeof scenario_names[0])
static const char *required_keys[] = {"scenario", "agents", "ticks", "threads", "ns_per_agent_tick_median",
                                      "ns_per_agent_tick_min", "ns_per_agent_tick_max", "agent_updates_per_s"};

/* The number after "key": in one JSON line, or -1 when the key is missing. */
static double json_number(const char *line, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p) return -1;
    return strtod(p + strlen(pat), NULL);
}

START_TEST(test_every_scenario_prints_the_keys) {
    run_result r;
    const char *args[] = {"all", "--agents", "400", "--ticks", "2", "--runs", "1", "--json", NULL};
    tu_run_patrol(&r, "bench", args);
    ck_assert_int_eq(r.status, 0);
    int lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        ck_assert_int_lt(lines, NSCEN);
        ck_assert_msg(line[0] == '{' && line[strlen(line) - 1] == '}', "not one JSON object: %s", line);
        char want[64];
        snprintf(want, sizeof want, "\"scenario\":\"%s\"", scenario_names[lines]);
        ck_assert_msg(strstr(line, want) != NULL, "line %d is not %s: %s", lines, scenario_names[lines], line);
        for (size_t k = 0; k < sizeof required_keys / sizeof required_keys[0]; k++)
            ck_assert_msg(strstr(line, required_keys[k]) != NULL, "%s lacks %s", scenario_names[lines], required_keys[k]);
        ck_assert(json_number(line, "agents") == 400);
        ck_assert(json_number(line, "ticks") == 2);
        ck_assert(json_number(line, "threads") == 1);
        double med = json_number(line, "ns_per_agent_tick_median"), mn = json_number(line, "ns_per_agent_tick_min"),
               mx = json_number(line, "ns_per_agent_tick_max");
        ck_assert(mn > 0 && mn <= med && med <= mx);
        ck_assert(json_number(line, "agent_updates_per_s") > 0);
        if (lines == 1) ck_assert(json_number(line, "cells_per_s") > 0); /* los */
        if (lines == 5 || lines == 6) { /* the world on 1 and 2 threads: the same state every tick */
            ck_assert(json_number(line, "ticks_per_s_1thread") > 0);
            ck_assert(json_number(line, "ticks_per_s_threads") > 0);
            ck_assert(json_number(line, "match") == 1);
        }
        if (lines == 8) { /* world-noise: the noises made (100 a second), the goal */
            ck_assert(json_number(line, "noises_per_s") == 100);
            ck_assert(json_number(line, "noises_made") >= 3 && json_number(line, "noises_made") <= 4);
            ck_assert(json_number(line, "goal_ticks_per_s") == 1000);
            ck_assert(json_number(line, "meets_goal") == (json_number(line, "ticks_per_s") >= 1000));
        }
        if (lines == 9) { /* search: both figures of the issue, their ratio and its goal */
            double joint = json_number(line, "joint_cells_per_guard_s"), solo = json_number(line, "solo_cells_per_guard_s");
            ck_assert(joint > 0 && solo > 0);
            ck_assert(fabs(json_number(line, "ratio") - joint / solo) <= 1e-3 * joint / solo);
            ck_assert(json_number(line, "goal_ratio") == 1.8);
            double cj = json_number(line, "converge_joint_per_guard_s"), cs = json_number(line, "converge_solo_per_guard_s");
            ck_assert(cj > 0 && cs > 0); /* and for guards that converged on one cell */
            ck_assert(fabs(json_number(line, "converge_ratio") - cj / cs) <= 1e-3 * cj / cs);
            ck_assert(json_number(line, "meets_goal") ==
                      (json_number(line, "ratio") >= 1.8 && json_number(line, "converge_ratio") >= 1.8));
            ck_assert(json_number(line, "joint_share") > 0 && json_number(line, "joint_share") <= 1);
            ck_assert(json_number(line, "spotted_or_off") == 0);
        }
        if (lines == 11) { /* save: the times and sizes of the world's save and the demo's */
            ck_assert(json_number(line, "world_save_ms") > 0 && json_number(line, "world_load_ms") > 0);
            ck_assert(json_number(line, "world_create_ms") > 0 && json_number(line, "world_bytes") > 400 * 1000);
            ck_assert(json_number(line, "demo_save_us") > 0 && json_number(line, "demo_load_us") > 0);
            ck_assert(json_number(line, "demo_bytes") > 20 * 1000);
        }
        if (lines == 12) { /* light: microseconds a switch, the tick with and without the lights */
            double med_us = json_number(line, "us_per_switch_median");
            ck_assert(med_us > 0 && med_us <= json_number(line, "us_per_switch_p99"));
            ck_assert(json_number(line, "us_per_switch_p99") <= json_number(line, "us_per_switch_max"));
            ck_assert(json_number(line, "ms_per_tick_lights") > 0 && json_number(line, "ms_per_tick_none") > 0);
            ck_assert(json_number(line, "tick_ms_ratio") > 0);
            ck_assert(json_number(line, "lights") == 1000);
        }
        if (lines == 10) { /* set-tile: microseconds a change, the goal */
            double med_us = json_number(line, "us_per_change_median");
            ck_assert(med_us > 0 && med_us <= json_number(line, "us_per_change_max"));
            ck_assert(json_number(line, "goal_us") == 50);
            ck_assert(json_number(line, "meets_goal") == (med_us <= 50));
        }
        if (lines == 7) { /* hearing: the figure and goal */
            ck_assert(json_number(line, "loudness") == 16);
            ck_assert(json_number(line, "us_per_noise") > 0);
            ck_assert(fabs(json_number(line, "us_per_noise") * 1000 - med) <= 1e-3 * med);
            ck_assert(json_number(line, "goal_us") == 20);
            ck_assert(json_number(line, "cells_per_noise") > 1);
            double meets = json_number(line, "meets_goal");
            ck_assert(meets == (json_number(line, "us_per_noise") <= 20));
        }
    }
    ck_assert_int_eq(lines, NSCEN);
}
END_TEST

START_TEST(test_text_output_and_threads) {
    run_result r;
    const char *args[] = {"flock", "--agents", "300", "--ticks", "1", "--runs", "3", "--threads", "2", NULL};
    tu_run_patrol(&r, "bench", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "flock"));
    ck_assert_ptr_nonnull(strstr(r.out, "threads 2"));
    ck_assert_ptr_nonnull(strstr(r.out, "median"));
    /* the same flock on one thread, tick by tick in the same run */
    const char *jargs[] = {"flock", "--agents", "300", "--ticks", "2", "--runs", "3", "--threads", "2", "--json", NULL};
    tu_run_patrol(&r, "bench", jargs);
    ck_assert_int_eq(r.status, 0);
    ck_assert(json_number(r.out, "threads") == 2);
    ck_assert(json_number(r.out, "ns_1thread") > 0);
    ck_assert(json_number(r.out, "speedup_threads") > 0);
}
END_TEST

/* --lockstep IN,OUT: one byte read per tick, each tick's ns written, then the state's hash.
 * `ticks` is the number of ticks in all (runs x ticks per run). */
static int lockstep_run(const char *scenario, const char *agents, const char *threads, int runs, int bytes, double *ns,
                        int ticks, uint64_t *hash, run_result *r) {
    FILE *in = tmpfile(), *out = tmpfile();
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    for (int i = 0; i < bytes; i++) fputc('x', in);
    fflush(in);
    rewind(in);
    char fds[32], nticks[16], nruns[16];
    snprintf(fds, sizeof fds, "%d,%d", fileno(in), fileno(out));
    snprintf(nticks, sizeof nticks, "%d", ticks / runs);
    snprintf(nruns, sizeof nruns, "%d", runs);
    const char *args[] = {scenario, "--agents", agents, "--ticks", nticks, "--runs", nruns, "--threads", threads,
                          "--json", "--lockstep", fds, NULL};
    tu_run_patrol(r, "bench", args);
    rewind(out);
    size_t got = fread(ns, sizeof(double), (size_t)ticks, out);
    int ok = got == (size_t)ticks && fread(hash, sizeof *hash, 1, out) == 1 && fgetc(out) == EOF;
    fclose(in);
    fclose(out);
    return ok;
}

START_TEST(test_lockstep) {
    const char *scen[] = {"flock", "steer"};
    for (int s = 0; s < 2; s++) {
        double ns[4];
        uint64_t h1 = 0, h2 = 0;
        run_result r;
        /* 10,000 agents: enough for two threads to share the step (PT_CROWD_MIN_SHARE) */
        ck_assert(lockstep_run(scen[s], "10000", "1", 1, 3, ns, 3, &h1, &r));
        ck_assert_int_eq(r.status, 0);
        for (int t = 0; t < 3; t++) ck_assert(ns[t] > 0);
        ck_assert(json_number(r.out, "ticks") == 3);
        /* the hash is of the state: two threads compute the same crowd, fewer ticks another */
        ck_assert(lockstep_run(scen[s], "10000", "2", 1, 3, ns, 3, &h2, &r));
        ck_assert_int_eq(r.status, 0);
        ck_assert(h1 == h2);
        ck_assert(lockstep_run(scen[s], "10000", "1", 1, 2, ns, 2, &h2, &r));
        ck_assert(h1 != h2);
        /* two runs of two ticks: four ticks, then one hash, of the state after all four */
        uint64_t h4 = 0, h22 = 0;
        ck_assert(lockstep_run(scen[s], "500", "1", 1, 4, ns, 4, &h4, &r));
        ck_assert(lockstep_run(scen[s], "500", "1", 2, 4, ns, 4, &h22, &r));
        ck_assert_int_eq(r.status, 0);
        ck_assert(h4 == h22);
        /* the coordinator gone after one tick: an error, not a hang or a result */
        ck_assert(!lockstep_run(scen[s], "500", "1", 1, 1, ns, 2, &h2, &r));
        ck_assert_int_ne(r.status, 0);
        ck_assert_ptr_nonnull(strstr(r.err, "--lockstep"));
    }
}
END_TEST

START_TEST(test_bad_arguments) {
    static const char *bad[][4] = {
        {"nosuch", NULL, NULL, NULL},           {"los", "--agents", "0", NULL},
        {"los", "--agents", "x", NULL},         {"los", "--runs", "102", NULL},
        {"los", "--threads", "0", NULL},        {"los", "--ticks", NULL, NULL},
        {"los", "--bogus", NULL, NULL},         {"los", "--seed", "-1", NULL},
        {"flock", "--lockstep", "3", NULL},     {"flock", "--lockstep", "3,x", NULL},
        {"flock", "--lockstep", "-1,4", NULL},  {"flock", "--lockstep", NULL, NULL},
        {"flock", "--lockstep", "3,1", NULL},   {"flock", "--lockstep", "4,4", NULL},
        {"los", "--lockstep", "3,4", NULL},     {"all", "--lockstep", "3,4", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_result r;
        tu_run_patrol(&r, "bench", bad[i]);
        ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
        ck_assert_msg(strstr(r.err, "error") != NULL, "case %zu: no error message", i);
        ck_assert_msg(r.out[0] == '\0', "case %zu printed results", i);
    }
    run_result h;
    const char *help[] = {"--help", NULL};
    tu_run_patrol(&h, "bench", help);
    ck_assert_int_eq(h.status, 0);
    for (int k = 0; k < NSCEN; k++) ck_assert_ptr_nonnull(strstr(h.out, scenario_names[k]));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cli_bench");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_scenario_prints_the_keys);
    tcase_add_test(tc, test_text_output_and_threads);
    tcase_add_test(tc, test_lockstep);
    tcase_add_test(tc, test_bad_arguments);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
