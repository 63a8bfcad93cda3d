/* SPDX-License-Identifier: Zlib */
/* `patrol show`: path cells, matrix rows, control/thrust/waypoint output, the text overlay on
 * a map with located lint errors, exit codes and usage; --watch shows a saved file again. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_cli.h"

#define PAT "tests/data/patterns/basic.pat"
#define YARD "tests/data/patterns/yard.map"

/* Runs PATROL_BIN show with args (NULL-terminated), capturing both streams. */
static void show(run_result *r, const char *const *args) { tu_run_patrol(r, "show", args); }

/* Splits text into lines in place; returns the count. */
static int lines(char *text, char **out, int max) {
    int n = 0;
    for (char *s = text; *s && n < max;) {
        out[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl) break;
        *nl = '\0';
        s = nl + 1;
    }
    return n;
}

static int count_lines_starting(const char *text, const char *prefix) {
    int n = 0;
    size_t k = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        n += strncmp(s, prefix, k) == 0;
    return n;
}

/* Stops: a '# stop at X,Y: ...' line per wait and look after the cells; over a map an L on a
 * stop that looks and a W on one that only waits. */
START_TEST(test_stops) {
    run_result r;
    show(&r, (const char *[]){"tests/data/patterns/stops.pat", "--pattern", "window", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(count_lines_starting(r.out, "# stop at "), 3);
    ck_assert_ptr_nonnull(strstr(r.out, "# stop at 8,2: look 2 s (120 ticks) from 0 deg to -90, +90 and back\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "# stop at 8,5: wait 0.5 s (30 ticks)\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "# stop at 2,5: look 2 s (120 ticks) from 180 deg to -60, +60 and back\n"));
    show(&r, (const char *[]){"tests/data/patterns/stops.pat", "--pattern", "sentry", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(count_lines_starting(r.out, "# stop at "), 1);
    ck_assert_ptr_nonnull(strstr(r.out, "# stop at 3,0: look 1.5 s (90 ticks) from 0 deg to +45 and back\n"));
    const char *room = "/tmp/patrol_show_stops.map";
    FILE *f = fopen(room, "w");
    ck_assert_ptr_nonnull(f);
    fputs("player at=1,1\ngrid\n############\n#..........#\n#..........#\n#..........#\n#..........#\n"
          "#..........#\n############\nend\n", f);
    fclose(f);
    show(&r, (const char *[]){"tests/data/patterns/stops.pat", "--pattern", "window", "--map", room, NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "L a stop that looks, W a stop that waits"));
    /* rows 2 and 5 of the map: S at 2,2 and L at 8,2; L at 2,5 and W at 8,5 */
    ck_assert_ptr_nonnull(strstr(r.out, "#.SoooooL..#"));
    ck_assert_ptr_nonnull(strstr(r.out, "#.LoooooW..#"));
    unlink(room);
}
END_TEST

START_TEST(test_path_cells) {
    run_result r;
    show(&r, (const char *[]){PAT, "--pattern", "rectangle", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    char *ln[64];
    int n = lines(r.out, ln, 64);
    ck_assert_int_eq(n, 34);
    int px = 0, py = 0, bad = 0, corners = 0;
    for (int i = 0; i < n; i++) {
        int x, y;
        char tail;
        if (sscanf(ln[i], "%d,%d%c", &x, &y, &tail) != 2) bad++;
        if (i > 0 && (abs(x - px) > 1 || abs(y - py) > 1 || (x == px && y == py))) bad++;
        corners += (x == 10 || x == 18) && (y == 3 || y == 12);
        px = x;
        py = y;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(corners, 4);
    ck_assert_str_eq(ln[0], "10,3");
    ck_assert_str_eq(ln[8], "18,3");
    /* --origin moves the first vertex */
    show(&r, (const char *[]){PAT, "--pattern", "rectangle", "--origin", "0,0", NULL});
    ck_assert_int_eq(r.status, 0);
    n = lines(r.out, ln, 64);
    ck_assert_int_eq(n, 34);
    ck_assert_str_eq(ln[0], "0,0");
    ck_assert_str_eq(ln[17], "8,9");
}
END_TEST

START_TEST(test_matrix_rows_and_others) {
    run_result r;
    show(&r, (const char *[]){PAT, "--pattern", "walker", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "1111111111\n1...1....1\n1...1....1\n1111111111\n"
                            "....1.....\n....1.....\n....1.....\n11.......1\n");
    show(&r, (const char *[]){PAT, "--pattern", "snake", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "0,0\n1,0\n2,0\n3,1\n4,1\n5,0\n");
    show(&r, (const char *[]){PAT, "--pattern", "route", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "3.5,4.5\n10.5,4.5\n10.5,9.5\n");
    show(&r, (const char *[]){PAT, "--pattern", "square", NULL});
    ck_assert_int_eq(r.status, 0);
    char *ln[2048];
    int n = lines(r.out, ln, 2048);
    ck_assert_int_gt(n, 20);
    ck_assert_str_eq(ln[0], "0,0");
    /* every pattern of the file, each after its header line */
    show(&r, (const char *[]){PAT, NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(count_lines_starting(r.out, "# pattern "), 7);
    ck_assert_int_eq(count_lines_starting(r.out, "# pattern web (matrix)"), 1);
}
END_TEST

START_TEST(test_over_map) {
    run_result r;
    show(&r, (const char *[]){PAT, "--pattern", "gate", "--map", YARD, NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    char *ln[64];
    int n = lines(r.out, ln, 64);
    ck_assert_int_eq(n, 1 + 2 + 15);
    ck_assert_int_eq(strncmp(ln[0], "# pattern gate (path) placed at 2,2", 35), 0);
    /* Rulers: column numbers (each at its column, after the 3-wide margin) and ticks, row
     * numbers every 5 rows; the rows themselves unchanged after the margin. */
    ck_assert_str_eq(ln[1], "   0    5    10   15   20");
    ck_assert_str_eq(ln[2], "   |    |    |    |    |");
    ck_assert_str_eq(ln[3], " 0 ########################");
    ck_assert_str_eq(ln[5], "   #.Soooo................#");
    ck_assert_str_eq(ln[6], "   #.....o.......#........#");
    ck_assert_str_eq(ln[7], "   #.....o................#");
    ck_assert_str_eq(ln[8], " 5 #......................#");
    ck_assert_str_eq(ln[13], "10 #......................#");
    /* The wall at 14,3 stands under the tick of column 15 minus one, in row 3. */
    ck_assert_int_eq(ln[6][3 + 14], '#');

    /* The rectangle crosses the wall at 14,3: drawn X, reported at the vertex that starts
     * the segment (basic.pat line 6, column 10), exit 1. */
    show(&r, (const char *[]){PAT, "--pattern", "rectangle", "--map", YARD, NULL});
    ck_assert_int_eq(r.status, 1);
    n = lines(r.out, ln, 64);
    ck_assert_str_eq(ln[6], "   #.........SoooXoooo....#");
    ck_assert_int_eq(count_lines_starting(r.err, PAT ":6:10: error: "), 1);
    ck_assert_ptr_nonnull(strstr(r.err, "points 10,3 18,3 18,12"));
}
END_TEST

/* A map whose guard walks its pattern into a wall is refused by every command that loads
 * it, with the error `check` prints (basic.pat line 6, column 10: the wall at 14,3). */
START_TEST(test_every_command_lints_the_map) {
    const char *walled = "tests/data/patterns/yard_walled.map";
    const char *want = PAT ":6:10: error: ";
    run_result r;
    tu_run_patrol(&r, "check", (const char *[]){walled, NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(count_lines_starting(r.err, want), 1);
    tu_run_patrol(&r, "sim", (const char *[]){walled, "--ticks", "1", "-q", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(count_lines_starting(r.err, want), 1);
    tu_run_patrol(&r, "render", (const char *[]){walled, "--out", "/tmp/patrol_walled_never.png", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(count_lines_starting(r.err, want), 1);
    ck_assert_int_ne(access("/tmp/patrol_walled_never.png", F_OK), 0);
    show(&r, (const char *[]){PAT, "--pattern", "gate", "--map", walled, NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(count_lines_starting(r.err, want), 1);
    ck_assert_str_eq(r.out, "");
}
END_TEST

START_TEST(test_errors_and_usage) {
    run_result r;
    show(&r, (const char *[]){"tests/data/patterns/bad.pat", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(count_lines_starting(r.err, "tests/data/patterns/bad.pat:4:3: error: "), 1);
    show(&r, (const char *[]){PAT, "--pattern", "nope", NULL});
    ck_assert_int_eq(r.status, 1);
    show(&r, (const char *[]){"tests/data/patterns/missing.pat", NULL});
    ck_assert_int_eq(r.status, 1);
    show(&r, (const char *[]){PAT, "--map", "tests/data/patterns/missing.map", NULL});
    ck_assert_int_eq(r.status, 1);
    show(&r, (const char *[]){PAT, "--png", "out.png", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--png"));
    ck_assert_int_eq(access("out.png", F_OK), -1);
    show(&r, (const char *[]){PAT, "--map", "tests/data/patterns/yard.map", "--png", "out.jpg", NULL});
    ck_assert_int_eq(r.status, 2); /* only PNG is written */
    ck_assert_ptr_nonnull(strstr(r.err, "patrol show: error: --png 'out.jpg'"));
    ck_assert_int_eq(access("out.jpg", F_OK), -1);
    show(&r, (const char *[]){NULL});
    ck_assert_int_eq(r.status, 2);
    show(&r, (const char *[]){PAT, "--bogus", NULL});
    ck_assert_int_eq(r.status, 2);
    show(&r, (const char *[]){PAT, "--origin", "3", NULL});
    ck_assert_int_eq(r.status, 2);
    show(&r, (const char *[]){PAT, "--pattern", NULL});
    ck_assert_int_eq(r.status, 2);
    show(&r, (const char *[]){"--help", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(strncmp(r.out, "usage: patrol show", 18), 0);
}
END_TEST

/* Width and height from a PNG's IHDR; 0 if the file is not a PNG. */
static int png_size(const char *path, unsigned *w, unsigned *h) {
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n < 24 || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0) return 0;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return 1;
}

/* --png draws over the map: a PNG of the map's size (16 px a tile); it needs --map. */
START_TEST(test_png_over_map) {
    char out[256];
    snprintf(out, sizeof out, "%s/show-%d.png", PATROL_BUILD_DIR, (int)getpid());
    remove(out);
    run_result r;
    const char *args[] = {"patterns/castle.pat", "--map", "maps/demo.map", "--png", out, NULL};
    show(&r, args);
    ck_assert_int_eq(r.status, 0);
    unsigned w = 0, h = 0;
    ck_assert(png_size(out, &w, &h));
    ck_assert_uint_eq(w, 64 * 16);
    ck_assert_uint_eq(h, 40 * 16);
    remove(out);
    const char *nomap[] = {"patterns/castle.pat", "--png", out, NULL};
    show(&r, nomap);
    ck_assert_int_eq(r.status, 2);
}
END_TEST

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Reads fd into buf (NUL-terminated at *len) until want is in it or `ms` pass. */
static int read_for(int fd, char *buf, size_t cap, size_t *len, const char *want, int ms) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        buf[*len] = '\0';
        if (strstr(buf, want)) return 1;
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = ms - ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L);
        if (left <= 0) return 0;
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, (int)left) <= 0) continue;
        ssize_t n = read(fd, buf + *len, cap - 1 - *len);
        if (n <= 0) return 0;
        *len += (size_t)n;
    }
}

/* show --watch: the file saved with a longer path is shown again after "# reloaded"; a broken
 * save prints its located error and it keeps watching; the fixed save shows again. */
START_TEST(test_watch) {
    char dir[1024], pat[1100];
    snprintf(dir, sizeof dir, "%s/test-out", PATROL_BUILD_DIR);
    mkdir(dir, 0777);
    snprintf(pat, sizeof pat, "%s/show-watch-%d.pat", dir, (int)getpid());
    put(pat, "pattern pace\n  kind path\n  points 2,3 4,3\n  at_end reverse\nend\n");
    int out[2], err[2];
    ck_assert_int_eq(pipe(out), 0);
    ck_assert_int_eq(pipe(err), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        execl(PATROL_BIN, PATROL_BIN, "show", pat, "--watch", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    static char ob[8192], eb[8192];
    size_t on = 0, en = 0;
    int first = read_for(out[0], ob, sizeof ob, &on, "4,3\n", 10000);
    put(pat, "pattern pace\n  kind path\n  points 2,3 6,3\n  at_end reverse\nend\n");
    int again = read_for(out[0], ob, sizeof ob, &on, "# reloaded\n2,3\n3,3\n4,3\n5,3\n6,3\n", 10000);
    put(pat, "pattern pace\n  kind path\n  points 2,3 xx,3\n  at_end reverse\nend\n");
    int located = read_for(err[0], eb, sizeof eb, &en, ":3:14: error:", 10000);
    put(pat, "pattern pace\n  kind path\n  points 2,3 3,3\n  at_end reverse\nend\n");
    int fixed = read_for(out[0], ob, sizeof ob, &on, "# reloaded\n# reloaded\n2,3\n3,3\n", 10000);
    kill(pid, SIGTERM);
    int st = 0;
    waitpid(pid, &st, 0);
    close(out[0]);
    close(err[0]);
    unlink(pat);
    ck_assert_msg(first, "no first preview: %s", ob);
    ck_assert_msg(again, "the saved file was not shown again: %s", ob);
    ck_assert_msg(located, "no located error for the broken save: %s", eb);
    ck_assert_msg(fixed, "the fixed save was not shown: %s", ob);
    ck_assert(WIFSIGNALED(st)); /* it was still running */
}
END_TEST

/* A file of another kind where the pattern file goes is named as what it is, at its first
 * word, with what to run instead (a map: show a pattern file over it). */
START_TEST(test_other_kinds_named) {
    static run_result r;
    const char *maps[] = {"maps/demo.map", "maps/abbey.map", "maps/fort.map", "maps/demo.tmx", YARD};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        show(&r, (const char *[]){maps[i], NULL});
        ck_assert_int_eq(r.status, 1);
        char want[256];
        snprintf(want, sizeof want, "%s:", maps[i]);
        ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
        ck_assert_msg(strstr(r.err, ": error: this is a ") && strstr(r.err, "map (it begins with "), "%s", r.err);
        snprintf(want, sizeof want, "; to draw a pattern over this map: patrol show ");
        ck_assert_msg(strstr(r.err, want), "%s", r.err);
        snprintf(want, sizeof want, " --map %s\n", maps[i]);
        ck_assert_msg(strstr(r.err, want), "%s", r.err);
    }
    const char *others[] = {"patterns/demo.steer", "maps/demo.test"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        show(&r, (const char *[]){others[i], NULL});
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.err, ": error: this is a ") && !strstr(r.err, "--map"), "%s", r.err);
    }
}
END_TEST

/* Every command's usage line (the help up to its first blank line) names every option its
 * help describes (a line starting "  --NAME"). */
START_TEST(test_usage_names_every_option) {
    static const char *const cmds[] = {"show", "sim", "check", "render", "test", "solve", "bench", "replay", "play"};
    static run_result r;
    int options = 0;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        tu_run_patrol(&r, cmds[c], (const char *[]){"--help", NULL});
        ck_assert_int_eq(r.status, 0);
        char *end = strstr(r.out, "\n\n");
        ck_assert_ptr_nonnull(end);
        size_t usage_len = (size_t)(end - r.out);
        for (const char *s = end; (s = strstr(s, "\n  --")) != NULL; s++) {
            char opt[64];
            size_t n = strcspn(s + 3, " =\n[");
            snprintf(opt, sizeof opt, "%.*s", (int)n, s + 3);
            int found = 0;
            for (const char *u = r.out; (u = strstr(u, opt)) && (size_t)(u - r.out) < usage_len; u++)
                if (!(u[n] >= 'a' && u[n] <= 'z') && u[n] != '-') found = 1;
            ck_assert_msg(found, "patrol %s --help describes %s but its usage line leaves it out", cmds[c], opt);
            options++;
        }
    }
    ck_assert_int_gt(options, 20);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cli_show");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_path_cells);
    tcase_add_test(tc, test_stops);
    tcase_add_test(tc, test_matrix_rows_and_others);
    tcase_add_test(tc, test_over_map);
    tcase_add_test(tc, test_errors_and_usage);
    tcase_add_test(tc, test_other_kinds_named);
    tcase_add_test(tc, test_usage_names_every_option);
    tcase_add_test(tc, test_every_command_lints_the_map);
    tcase_add_test(tc, test_png_over_map);
    tcase_add_test(tc, test_watch);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
