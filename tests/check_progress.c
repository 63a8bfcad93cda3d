/* SPDX-License-Identifier: Zlib */
/* check_progress - the progress file of `patrol play`: a round trip, a missing file, corrupt
 * files (reported, kept aside as .bad, never fatal), best times and badges that stay. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/app/game/progress.c"

static char dir[1024];

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/progress-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", dir, name); }

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

START_TEST(test_round_trip) {
    static app_progress p, q;
    char path[1200];
    path_in(path, sizeof path, "rt.txt");
    unlink(path);
    ck_assert_int_eq(app_progress_load(&p, path, NULL), 0); /* missing: empty, fine */
    ck_assert_int_eq(p.n, 0);
    int nb = 0;
    app_progress_record(&p, 0x9f86d081884c7d65ull, 41250, 0, 1, 1, &nb);
    ck_assert_int_eq(nb, 1);
    app_progress_record(&p, 0x9f86d081884c7d65ull, 45000, 1, 0, 1, &nb); /* slower, but a ghost */
    ck_assert_int_eq(nb, 0);
    app_progress_record(&p, 7, 1000, 0, 0, 1, &nb);
    ck_assert_int_eq(app_progress_save(&p, path), 0);
    ck_assert_int_eq(app_progress_load(&q, path, NULL), 0);
    ck_assert_int_eq(q.n, 2);
    const app_level_best *b = app_progress_find(&q, 0x9f86d081884c7d65ull);
    ck_assert(b != NULL);
    ck_assert_int_eq(b->best_ms, 41250);
    ck_assert_int_eq(b->ghost, 1); /* badges stay once earned */
    ck_assert_int_eq(b->calm, 1);
    ck_assert_int_eq(b->no_stones, 1);
    ck_assert(app_progress_find(&q, 8) == NULL);
    app_progress_record(&q, 7, 900, 0, 0, 0, &nb);
    ck_assert_int_eq(nb, 1);
    ck_assert_int_eq(app_progress_find(&q, 7)->best_ms, 900);
    FILE *f = fopen(path, "r");
    char first[64] = "";
    ck_assert(fgets(first, sizeof first, f) != NULL);
    fclose(f);
    ck_assert_str_eq(first, "patrol-progress 1\n");
    unlink(path);
}
END_TEST

START_TEST(test_corrupt_files) {
    const char *bad[] = {
        "",                                                           /* empty */
        "garbage\n",                                                  /* no header */
        "patrol-progress 2\n",                                        /* a future version */
        "patrol-progress 1\nlevel zz best_ms 1 ghost 0 calm 0 no_stones 0\n",
        "patrol-progress 1\nlevel 1f best_ms -5 ghost 0 calm 0 no_stones 0\n",
        "patrol-progress 1\nlevel 1f best_ms 5 ghost 2 calm 0 no_stones 0\n",
        "patrol-progress 1\nlevel 1f best_ms 5 ghost 0 calm 0 no_stones 0 extra\n",
        "patrol-progress 1\nlevel 1f best_ms 5 ghost 0 calm 0\n",     /* truncated */
    };
    static app_progress p;
    char path[1200], aside[1300], report_path[1200];
    path_in(path, sizeof path, "bad.txt");
    snprintf(aside, sizeof aside, "%s.bad", path);
    path_in(report_path, sizeof report_path, "report.txt");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unlink(aside);
        write_text(path, bad[i]);
        FILE *report = fopen(report_path, "w+");
        ck_assert(report != NULL);
        p.n = 5;
        ck_assert_msg(app_progress_load(&p, path, report) == -1, "case %zu loaded", i);
        ck_assert_int_eq(p.n, 0);
        ck_assert_msg(!exists(path) && exists(aside), "case %zu: not kept aside", i);
        rewind(report);
        char line[512] = "";
        ck_assert(fgets(line, sizeof line, report) != NULL);
        fclose(report);
        ck_assert_msg(strstr(line, "bad.txt:") && strstr(line, "error"), "report: %s", line);
        /* The next save replaces it; the bad one stays aside. */
        int nb;
        app_progress_record(&p, 1, 10, 1, 1, 1, &nb);
        ck_assert_int_eq(app_progress_save(&p, path), 0);
        ck_assert_int_eq(app_progress_load(&p, path, NULL), 0);
        ck_assert_int_eq(p.n, 1);
        ck_assert(exists(aside));
    }
    unlink(path);
    unlink(aside);
    unlink(report_path);
}
END_TEST

START_TEST(test_limits) {
    static app_progress p;
    int nb;
    for (int i = 0; i < APP_PROGRESS_MAX + 5; i++) app_progress_record(&p, (uint64_t)i + 1, 1000 + i, 0, 0, 1, &nb);
    ck_assert_int_eq(p.n, APP_PROGRESS_MAX);
    ck_assert(app_progress_find(&p, 1) == NULL); /* the oldest went */
    ck_assert(app_progress_find(&p, APP_PROGRESS_MAX + 5) != NULL);
    /* An unwritable place: an error, not a crash. */
    ck_assert_int_eq(app_progress_save(&p, "/nonexistent-dir/progress.txt"), -1);
    /* A directory where the file should be: reported, never fatal. */
    ck_assert_int_eq(app_progress_load(&p, "/", NULL), -1);
    ck_assert_int_eq(p.n, 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("progress");
    TCase *core = tcase_create("core"), *limits = tcase_create("limits");
    tcase_add_checked_fixture(core, setup, NULL);
    tcase_add_test(core, test_round_trip);
    tcase_add_test(core, test_corrupt_files);
    tcase_add_test(limits, test_limits);
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
