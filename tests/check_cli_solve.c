/* SPDX-License-Identifier: Zlib */
/* `patrol solve`, and `patrol render --heatmap / --heatmap-csv / --route`: the solved route of
 * the demo replayed by `patrol sim` (never spotted, at the goal), exit codes, the CSV. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cli.h"

#define DEMO PATROL_SOURCE_DIR "/maps/demo.map"

static int has_line_starting(const char *text, const char *prefix) {
    size_t n = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (strncmp(s, prefix, n) == 0) return 1;
    return 0;
}

static void tmp_path(char *buf, size_t cap, const char *name) {
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/patrol_cli_solve_%ld_%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

START_TEST(test_usage_errors_exit_2) {
    static run_result r;
    const char *cases[][6] = {
        {DEMO, "--max-time", "0", NULL},        {DEMO, "--max-time", "x", NULL}, {DEMO, "--seeds", "0", NULL},
        {DEMO, "--margin", "-1", NULL},         {DEMO, "--name", "a:b", NULL},   {DEMO, "--bogus", NULL},
        {DEMO, "--seed", NULL},                 {NULL},                          {DEMO, DEMO, NULL},
        {DEMO, "--leave-after", "-1", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_run_patrol(&r, "solve", cases[i]);
        ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
        ck_assert_msg(has_line_starting(r.err, "patrol solve: error: "), "case %zu: %s", i, r.err);
    }
}
END_TEST

/* The demo with every walkable tile silent underfoot (its other properties kept) and without
 * its animals (a startled hen or crow makes a noise): the solver plans by sight only
 * (docs/solve.md), so its route is replayed where no guard can hear the player or what the
 * player startles. File names are made absolute so that the copy may live elsewhere. */
static void write_silent_demo(const char *path) {
    FILE *in = fopen(DEMO, "r"), *out = fopen(path, "w");
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        if (!strncmp(line, "prey ", 5) || !strncmp(line, "flock ", 6)) continue;
        if (!strncmp(line, "patterns ../", 12) || !strncmp(line, "steering ../", 12))
            fprintf(out, "%.9s%s/maps/%s", line, PATROL_SOURCE_DIR, line + 9);
        else if (!strcmp(line, "grid\n"))
            fputs("tile . floor walkable footstep=0\ntile : dirt walkable footstep=0\n"
                  "tile , grass walkable footstep=0\ntile = bridge walkable footstep=0\n"
                  "tile + door walkable sound=2 footstep=0\ntile * bush walkable opaque sound=1 footstep=0\n"
                  "tile E exit walkable goal footstep=0\ngrid\n",
                  out);
        else fputs(line, out);
    }
    fclose(in);
    fclose(out);
}

/* The route `solve` writes, replayed by `sim` for its duration: never spotted, at the goal. */
static void solve_and_replay(const char *seed, const char *seeds, int window) {
    static run_result r;
    char pat[512], ref[600], map[512];
    tmp_path(pat, sizeof pat, "route.pat");
    tmp_path(map, sizeof map, "silent_demo.map");
    write_silent_demo(map);
    /* The start window in walk only: the window of every gait is check_solve's (slow) test. */
    const char *args[] = {map, "--out", pat, "--seed", seed, "--seeds", seeds, window ? "--gait" : "--no-window",
                          window ? "walk" : NULL, NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    const char *d = strstr(r.out, "# duration: ");
    ck_assert_ptr_nonnull(d);
    int ticks = atoi(d + strlen("# duration: "));
    ck_assert(!strstr(r.out, "# start window: ") == !window);
    ck_assert_int_gt(ticks, 0);
    char tk[32];
    snprintf(tk, sizeof tk, "%d", ticks);
    snprintf(ref, sizeof ref, "%s:solved", pat);
    for (int k = 0; k < atoi(seeds); k++) {
        char sd[32];
        snprintf(sd, sizeof sd, "%d", atoi(seed) + k);
        const char *sim[] = {map, "--ticks", tk, "--seed", sd, "--player-pattern", ref, NULL};
        tu_run_patrol(&r, "sim", sim);
        ck_assert_msg(r.status == 0, "sim exit %d: %s", r.status, r.err);
        ck_assert_msg(strstr(r.out, "caught 0, spotted 0, lost 0,") && strstr(r.out, "goal 1, heard 0, called 0, alarms 0;"), "seed %s: %s", sd, r.out);
    }
    unlink(pat);
    unlink(map);
}

START_TEST(test_demo_route_replays) {
    solve_and_replay("7", "1", 1);
    solve_and_replay("3", "1", 0);
    solve_and_replay("11", "3", 0);
}
END_TEST

/* The output without --out is itself a pattern file: figures are comments. */
START_TEST(test_stdout_is_a_pattern_file) {
    static run_result r;
    const char *args[] = {DEMO, "--name", "my_route", "--no-window", NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_int_eq(r.status, 0);
    ck_assert(has_line_starting(r.out, "pattern my_route"));
    ck_assert(has_line_starting(r.out, "  kind control"));
    ck_assert(has_line_starting(r.out, "  at_end stop"));
    for (const char *s = r.out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        ck_assert_msg(*s == '#' || *s == ' ' || strncmp(s, "pattern ", 8) == 0 || strncmp(s, "end", 3) == 0, "%.40s", s);
}
END_TEST

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_no_route_and_bad_maps_exit_1) {
    static run_result r;
    char map[512];
    tmp_path(map, sizeof map, "watched.map");
    /* A one-tile corridor a guard watches from the exit. */
    write_file(map, "player at=1,1\nguard g at=7,1 heading=180 view=12 fov=90\ngrid\n#########\n#.......E\n#########\nend\n");
    const char *args[] = {map, NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "# patrol solve "));
    ck_assert_ptr_nonnull(strstr(r.out, ": no route within 3600 ticks (60.0 s), seed 1\n"));
    /* No goal at all. */
    write_file(map, "player at=1,1\ngrid\n#####\n#...#\n#####\nend\n");
    tu_run_patrol(&r, "solve", args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "error: the map has no goal tile"));
    unlink(map);
}
END_TEST

START_TEST(test_heatmap_csv_and_route) {
    static run_result r;
    char map[512], csv[512], png[512], pat[512], ref[600];
    tmp_path(map, sizeof map, "heat.map");
    tmp_path(csv, sizeof csv, "heat.csv");
    tmp_path(png, sizeof png, "heat.png");
    tmp_path(pat, sizeof pat, "heat.pat");
    /* One guard looking east along the corridor: it sees the cells ahead, every tick. */
    write_file(map, "player at=1,1\nguard g at=3,1 heading=0 view=3 fov=40\ngrid\n##########\n#........E\n##########\nend\n");
    const char *a1[] = {map, "--heatmap-csv", csv, "--ticks", "10", NULL};
    tu_run_patrol(&r, "render", a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char line[128];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "x,y,walkable,ticks_seen,share\n");
    int rows = 0, seen = 0;
    while (fgets(line, sizeof line, f)) {
        int x, y, wk, n;
        double share;
        ck_assert_int_eq(sscanf(line, "%d,%d,%d,%d,%lf", &x, &y, &wk, &n, &share), 5);
        rows++;
        int ahead = y == 1 && x >= 2 && x <= 6; /* 3 ahead, its own cell, and 1 behind (close sense) */
        ck_assert_msg(n == (ahead ? 10 : 0), "%s", line);
        seen += n > 0;
    }
    fclose(f);
    ck_assert_int_eq(rows, 30);
    ck_assert_int_eq(seen, 5);
    /* The demo (silent, as above): heatmap and a solved route drawn; it reaches the goal unseen. */
    write_silent_demo(map);
    const char *a2[] = {map, "--out", pat, "-q", NULL}; /* -q: no start window */
    tu_run_patrol(&r, "solve", a2);
    ck_assert_int_eq(r.status, 0);
    snprintf(ref, sizeof ref, "%s:solved", pat);
    const char *a3[] = {map, "--out", png, "--heatmap", "--ticks", "600", "--route", ref, NULL};
    tu_run_patrol(&r, "render", a3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "heatmap: ticks 1..600"));
    ck_assert_ptr_nonnull(strstr(r.out, "never seen"));
    ck_assert_ptr_nonnull(strstr(r.out, "goal on tick"));
    ck_assert_int_eq(access(png, F_OK), 0);
    const char *a4[] = {DEMO, "--out", png, "--heatmap", "--view", "100x100", NULL};
    tu_run_patrol(&r, "render", a4);
    ck_assert_int_eq(r.status, 2);
    unlink(map);
    unlink(csv);
    unlink(png);
    unlink(pat);
}
END_TEST

/* --heatmap-gait: the hearing heatmap's CSV, a guard standing beyond a wall with a door: the
 * cells by the door are heard, the ones across the wall too far round are not, run on more
 * cells than sneak; a bad gait is a usage error. */
START_TEST(test_heatmap_gait) {
    static run_result r;
    char map[512], csv[512], png[512];
    tmp_path(map, sizeof map, "hear.map");
    tmp_path(csv, sizeof csv, "hear.csv");
    tmp_path(png, sizeof png, "hear.png");
    write_file(map, "player at=1,1\nguard g at=12,3 heading=90 hearing=1\ngrid\n##################\n"
                    "#................#\n################+#\n#................#\n##################\nend\n");
    int heard[2] = {0};
    static const char *const gaits[2] = {"sneak", "run"};
    for (int g = 0; g < 2; g++) {
        const char *a1[] = {map, "--heatmap-csv", csv, "--heatmap-gait", gaits[g], "--ticks", "10", NULL};
        tu_run_patrol(&r, "render", a1);
        ck_assert_msg(r.status == 0, "%s", r.err);
        FILE *f = fopen(csv, "r");
        ck_assert_ptr_nonnull(f);
        char line[128];
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        ck_assert_str_eq(line, "x,y,walkable,ticks_heard,share\n");
        while (fgets(line, sizeof line, f)) {
            int x, y, wk, n;
            double share;
            ck_assert_int_eq(sscanf(line, "%d,%d,%d,%d,%lf", &x, &y, &wk, &n, &share), 5);
            ck_assert_msg(n == 0 || n == 10, "%s", line);
            if (x == 10 && y == 1) ck_assert_msg(n == 0, "%s", line); /* across the wall */
            if (g == 1 && x == 15 && y == 1) ck_assert_msg(n == 10, "%s", line); /* by the door */
            heard[g] += n > 0;
        }
        fclose(f);
    }
    ck_assert_int_lt(heard[0], heard[1]);
    const char *a2[] = {map, "--out", png, "--heatmap-gait", "walk", "--ticks", "10", NULL};
    tu_run_patrol(&r, "render", a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "heatmap: hearing, gait walk, ticks 1..10"));
    const char *a3[] = {map, "--out", png, "--heatmap-gait", "crawl", NULL};
    tu_run_patrol(&r, "render", a3);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--heatmap-gait"));
    const char *a4[] = {map, "--out", png, "--heatmap-gait", NULL};
    tu_run_patrol(&r, "render", a4);
    ck_assert_int_eq(r.status, 2);
    unlink(map);
    unlink(csv);
    unlink(png);
}
END_TEST

/* A start on the goal prints no "tick -1": the start delay is none, the window too; the
 * margin takes fractions (and says so), and the MB figure is the formula's (docs/solve.md). */
START_TEST(test_goal_start_and_fractional_margin) {
    static run_result r;
    char map[512];
    tmp_path(map, sizeof map, "goal_start.map");
    write_file(map, "player at=1,1\nguard g at=6,1 heading=0 view=3 fov=90\ngrid\n########\n#E.....#\n########\nend\n");
    const char *args[] = {map, "--margin", "1.5", NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    ck_assert(!strstr(r.out, "-1"));
    ck_assert_msg(has_line_starting(r.out, "# duration: 1 tick (0.02 s) from 1,1 to the goal at 1,1"), "%s", r.out);
    ck_assert(has_line_starting(r.out, "# start delay: none: the start is a goal tile"));
    ck_assert(has_line_starting(r.out, "# start window: none to find"));
    ck_assert(has_line_starting(r.out, "# keeping more than 1.5 tiles away from every cell a guard sees"));
    /* 8 x 3 cells: one word a tick; 3600 ticks; K 2 walking (5 tiles/s), 3 sneaking, 4 running:
     * (3 + 3 gaits + 1 margin) x 28800 + 2 x ceil(3601 x 24 x 8 x 4 / 64) x 8 + 3602 x 33 */
    char want[64];
    snprintf(want, sizeof want, "%.1f MB", (7.0 * 28800 + 2.0 * 345696 + 3602.0 * 33) / (1024.0 * 1024.0));
    ck_assert_msg(strstr(r.out, want) != NULL, "want %s: %s", want, r.out);
    const char *bad[] = {map, "--margin", "64.5", NULL};
    tu_run_patrol(&r, "solve", bad);
    ck_assert_int_eq(r.status, 2);
    unlink(map);
}
END_TEST

/* A map: walls around a w x h room of floor, the player at 1,1, the goal in the far corner. */
static void write_room(const char *path, int w, int h) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("player at=1,1\ngrid\n", f);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            fputc(x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : (x == w - 2 && y == h - 2 ? 'E' : '.'), f);
        fputc('\n', f);
    }
    fputs("end\n", f);
    fclose(f);
}

/* No route: the '# why:' line says why (stderr with -q), each reason docs/solve.md gives. */
START_TEST(test_no_route_says_why) {
    static run_result r;
    char map[512];
    tmp_path(map, sizeof map, "why.map");
    write_file(map, "player at=1,1\nguard g at=7,1 heading=180 view=12 fov=90\ngrid\n#########\n#.......E\n#########\nend\n");
    const char *args[] = {map, NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.out, "# why: a guard sees the player on the start 1,1 on tick 1\n"), "%s", r.out);
    const char *quiet[] = {map, "-q", NULL};
    tu_run_patrol(&r, "solve", quiet);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, ": no route: a guard sees the player on the start 1,1 on tick 1\n") != NULL, "%s", r.err);
    /* A walled-in goal: known before any table or search, even at the longest horizon. */
    write_file(map, "player at=1,1\ngrid\n#########\n#.....#E#\n#########\nend\n");
    const char *walled[] = {map, "--max-time", "1666", NULL};
    tu_run_patrol(&r, "solve", walled);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.out, "# why: no goal tile can be walked to from the start 1,1\n"), "%s", r.out);
    ck_assert_msg(!strstr(r.out, "# search:"), "%s", r.out);
    /* Too far for the horizon: a longer one finds it. */
    write_file(map, "player at=1,1\ngrid\n#########\n#.......E\n#########\nend\n");
    const char *brief[] = {map, "--max-time", "0.1", NULL};
    tu_run_patrol(&r, "solve", brief);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.out, "# why: none reaches a goal tile unseen and unheard within the horizon: "
                                           "a longer --max-time may find one\n"), "%s", r.out);
    const char *longer[] = {map, "--max-time", "2", NULL};
    tu_run_patrol(&r, "solve", longer);
    ck_assert_int_eq(r.status, 0);
    unlink(map);
}
END_TEST

/* Refused at a long horizon: --no-window is named when the search fits without the window. */
START_TEST(test_refusal_names_no_window) {
    static run_result r;
    char map[512];
    tmp_path(map, sizeof map, "room.map");
    write_room(map, 50, 60); /* 3000 cells: 2 walking classes x 300 MB fit only without the window */
    const char *args[] = {map, "--max-time", "1666", "--gait", "walk", NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "needs more than 1024 MB: without it (--no-window) it fits, or use a shorter horizon"),
                  "%s", r.err);
    write_room(map, 100, 100); /* 10000 cells: 1 GB a class even without the window */
    tu_run_patrol(&r, "solve", args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "needs more than 1024 MB: use a shorter horizon"), "%s", r.err);
    ck_assert(!strstr(r.err, "--no-window"));
    unlink(map);
}
END_TEST

/* --seeds N with no route for all of them: the header says the route is the first seed's alone. */
START_TEST(test_seeds_fallback_header) {
    static run_result r;
    const char *args[] = {DEMO, "--seeds", "10", "--no-window", NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(has_line_starting(r.out, "# patrol solve " DEMO ": a route no guard sees or hears within 3600 ticks "
                                           "(60.0 s), seed 7 alone (none holds for all of seeds 7 .. 16)\n"), "%s", r.out);
    ck_assert(has_line_starting(r.out, "# seeds: none holds for all; this one is for the first: the route holds for "));
}
END_TEST

/* A start on the goal in --gait run: the route is the `gait run` action, 1 tick (singular). */
START_TEST(test_goal_start_gait_run) {
    static run_result r;
    char map[512];
    tmp_path(map, sizeof map, "goal_run.map");
    write_file(map, "player at=1,1\ngrid\n########\n#E.....#\n########\nend\n");
    const char *args[] = {map, "--gait", "run", NULL};
    tu_run_patrol(&r, "solve", args);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(has_line_starting(r.out, "# 1 tick (0.02 s) from 1,1 to the goal at 1,1;"), "%s", r.out);
    ck_assert_msg(has_line_starting(r.out, "# margin: 600 ticks, no cell seen within 24 tiles\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\n  heading 0\n  gait run\n  at_end stop\n") != NULL, "%s", r.out);
    ck_assert(!strstr(r.out, "wait"));
    const char *walk[] = {map, "-q", NULL};
    tu_run_patrol(&r, "solve", walk);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\n  heading 0\n  wait 1\n  at_end stop\n") != NULL, "%s", r.out);
    ck_assert_msg(!has_line_starting(r.out, "# patrol solve"), "%s", r.out);
    unlink(map);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("cli_solve");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_usage_errors_exit_2);
    tcase_add_test(tc, test_demo_route_replays);
    tcase_add_test(tc, test_stdout_is_a_pattern_file);
    tcase_add_test(tc, test_no_route_and_bad_maps_exit_1);
    tcase_add_test(tc, test_heatmap_csv_and_route);
    tcase_add_test(tc, test_heatmap_gait);
    tcase_add_test(tc, test_goal_start_and_fractional_margin);
    tcase_add_test(tc, test_no_route_says_why);
    tcase_add_test(tc, test_refusal_names_no_window);
    tcase_add_test(tc, test_goal_start_gait_run);
    suite_add_tcase(s, tc);
    /* Whole-demo solves under several seeds: the release build runs them; the sanitizer build
     * leaves them out (CK_EXCLUDE_TAGS=slow), the cases above go through the same code. */
    TCase *slow = tcase_create("slow");
    tcase_set_tags(slow, "slow");
    tcase_set_timeout(slow, 600);
    tcase_add_test(slow, test_seeds_fallback_header);
    suite_add_tcase(s, slow);
    return s;
}

int main(void) {
    Suite *s = suite();
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
