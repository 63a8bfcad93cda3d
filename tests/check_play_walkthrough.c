/* SPDX-License-Identifier: Zlib */
/* check_play_walkthrough - the walkthroughs of docs/playing.md ("## Walkthroughs") are ones a
 * player can follow: every level of maps/levels.txt has one, it waits on the clock only once
 * the clock runs, and played from its text through the game's keys (taps, held arrows, held
 * Ctrl / Shift: walkthrough.c on a play_session) it gets out, with the first key anywhere in
 * the first second, every clock wait left up to 0.3 s late and a pause of up to 0.2 s before
 * every step. Also: bad walkthrough text is refused at its line and column, and
 * `patrol sim --walkthrough` prints the round's end. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_app.h"

#define DOC PATROL_SOURCE_DIR "/docs/playing.md"

static void open_ok(play_session *s, const char *path) {
    pt_error err;
    int rc = play_open(s, path, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
}

static int wparse(walk_route *r, const char *text, const char *title, pt_error *err) {
    return walk_parse(r, "w.md", text, strlen(text), title, err);
}

/* ---- the text ----------------------------------------------------------------------------------- */

START_TEST(test_parse_good) {
    static walk_route r;
    pt_error err;
    const char *text = "# Playing\n"
                       "## Walkthroughs\n"
                       "Some prose.\n"
                       "### 1. Other level\n"
                       "1. **Walk Up 3 tiles** not this one\n"
                       "### 2. The level\n"
                       "Before the steps.\n"
                       "1. **Press Left**, at once: the clock starts.\n"
                       "   more words for the player\n"
                       "2. **Wait until the clock reads 0:09.5**.\n"
                       "```\n"
                       "3. **Fly Up 1 tiles** (in a code block: not a step)\n"
                       "```\n"
                       "3. **Sneak Up+Right 12 tiles** past the cook\n"
                       "4. **Run Down 1 tile**\n"
                       "5. **Wait until the clock reads 1:02.0:**\n"
                       "### 3. Next\n"
                       "1. **Press Up**\n";
    ck_assert_int_eq(wparse(&r, text, "The level", &err), PT_OK);
    ck_assert_int_eq(r.n, 5);
    ck_assert_int_eq(r.steps[0].kind, WALK_PRESS);
    ck_assert_int_eq(r.steps[0].dx, -1);
    ck_assert_int_eq(r.steps[0].line, 8);
    ck_assert_int_eq(r.steps[0].col, 6);
    ck_assert_int_eq(r.steps[1].kind, WALK_UNTIL);
    ck_assert_int_eq(r.steps[1].tenths, 95);
    ck_assert_int_eq(r.steps[2].kind, WALK_HOLD);
    ck_assert_int_eq(r.steps[2].gait, PT_GAIT_SNEAK);
    ck_assert_int_eq(r.steps[2].dx, 1);
    ck_assert_int_eq(r.steps[2].dy, -1);
    ck_assert_int_eq(r.steps[2].tiles, 12);
    ck_assert_int_eq(r.steps[3].gait, PT_GAIT_RUN);
    ck_assert_int_eq(r.steps[3].tiles, 1);
    ck_assert_int_eq(r.steps[4].tenths, 620);
    ck_assert_int_eq(wparse(&r, text, "Other level", &err), PT_OK);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.steps[0].gait, PT_GAIT_WALK);
}
END_TEST

START_TEST(test_parse_bad) {
    static const struct {
        const char *steps;
        int code, line, col;
    } cases[] = {
        /* The walkthrough: a wait on the clock before the first move (it reads 0:00.0). */
        {"1. **Wait until the clock reads 0:14.0** at the start\n2. **Walk Right 8 tiles**\n", PT_ERR_BAD_VALUE, 3, 6},
        {"1. **Walk Right 8 tiles**\n3. **Walk Up 1 tile**\n", PT_ERR_SYNTAX, 4, 1},          /* 3 after 1 */
        {"1. **Walk Right 8 tiles**\n99999999999999999999. **Walk Up 1 tile**\n", PT_ERR_SYNTAX, 4, 1}, /* no overflow */
        {"1. Walk Right 8 tiles\n", PT_ERR_SYNTAX, 3, 4},                                       /* no bold */
        {"1. **Walk Right 8 tiles\n", PT_ERR_SYNTAX, 3, 4},                                     /* not closed */
        {"1. **Jump Right 8 tiles**\n", PT_ERR_BAD_VALUE, 3, 6},                                /* a command */
        {"1. **Walk North 8 tiles**\n", PT_ERR_BAD_VALUE, 3, 11},                               /* a direction */
        {"1. **Walk Right eight tiles**\n", PT_ERR_BAD_NUMBER, 3, 17},                          /* a count */
        {"1. **Walk Right 0 tiles**\n", PT_ERR_BAD_NUMBER, 3, 17},
        {"1. **Walk Right 8**\n", PT_ERR_SYNTAX, 3, 6},
        {"1. **Press Up**\n2. **Wait until the clock reads 14s**\n", PT_ERR_BAD_NUMBER, 4, 33},  /* M:SS.T */
        {"1. **Press Up**\n2. **Wait until the clock reads 0:61.0**\n", PT_ERR_BAD_NUMBER, 4, 33},
        {"1. **Press Up**\n2. **Wait until the clock reads 0:05.0**\n3. **Wait until the clock reads 0:05.0**\n",
         PT_ERR_BAD_VALUE, 5, 6},                                                               /* not later */
        {"1. **Press Up**\n2. **Wait for the guard**\n", PT_ERR_SYNTAX, 4, 6},
        {"Only prose.\n", PT_ERR_EMPTY, 1, 1},
    };
    static walk_route r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "## Walkthroughs\n### 1. L\n%s", cases[i].steps);
        pt_error err;
        int rc = wparse(&r, text, "L", &err);
        ck_assert_msg(rc == cases[i].code, "case %zu: code %d (%s), want %d", i, rc, err.message, cases[i].code);
        ck_assert_msg(err.line == cases[i].line && err.col == cases[i].col, "case %zu: at %d:%d, want %d:%d (%s)", i,
                      err.line, err.col, cases[i].line, cases[i].col, err.message);
        ck_assert_str_eq(err.file, "w.md");
        if (strstr(cases[i].steps, "99999999999999999999."))
            ck_assert_str_eq(err.message, "step 99999999999999999999 where step 2 comes next");
    }
    /* No section for the title, no section at all. */
    pt_error err;
    ck_assert_int_eq(wparse(&r, "x\n## Walkthroughs\n### 1. L\n1. **Press Up**\n", "M", &err), PT_ERR_MISSING);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(wparse(&r, "### 1. L\n1. **Press Up**\n", "L", &err), PT_ERR_MISSING);
    ck_assert_int_eq(err.line, 0);
}
END_TEST

/* ---- the shipped walkthroughs ------------------------------------------------------------------ */

/* Plays level i's walkthrough with the timing o; the round's end. */
static int play_walk_level(const app_level_item *it, const walk_route *r, const walk_opts *o, walk_result *res,
                      int *spotted) {
    play_session s;
    open_ok(&s, it->path);
    walk_play(&s, r, o, res);
    *spotted = s.spotted;
    play_close(&s);
    return res->round;
}

/* Every level of the list has a walkthrough in docs/playing.md, and followed to the tick
 * (the first key on the first tick) it gets out with no clock wait missed and no walk into
 * a wall. */
START_TEST(test_shipped_as_written) {
    app_levels l;
    pt_error err, why;
    ck_assert_int_eq(app_levels_load(&l, PATROL_SOURCE_DIR "/maps/levels.txt", &err, &why), PT_OK);
    static walk_route r;
    for (int i = 0; i < l.n; i++) {
        int rc = walk_load(&r, DOC, l.items[i].title, &err);
        ck_assert_msg(rc == PT_OK, "%s: %s:%d:%d: %s", l.items[i].title, err.file, err.line, err.col, err.message);
        walk_opts o = {0};
        walk_result res;
        int spotted;
        play_walk_level(&l.items[i], &r, &o, &res, &spotted);
        ck_assert_msg(res.round == 1, "%s: the walkthrough as written: round %d after step %d of %d (%.2f s)",
                      l.items[i].title, res.round, res.steps_done, r.n, res.clock);
        ck_assert_msg(res.behind == 0 && res.blocked == 0, "%s: behind %d, blocked %d", l.items[i].title, res.behind,
                      res.blocked);
        ck_assert_msg(spotted == 0, "%s: spotted %d times", l.items[i].title, spotted);
    }
    app_levels_fini(&l);
}
END_TEST

/* A player is not a machine: the first key anywhere in the first second, each clock wait
 * left 0 to 0.3 s late, 0 to 0.2 s with no key before each step. Every combination gets out. */
START_TEST(test_shipped_followable) {
    app_levels l;
    pt_error err, why;
    ck_assert_int_eq(app_levels_load(&l, PATROL_SOURCE_DIR "/maps/levels.txt", &err, &why), PT_OK);
    static walk_route r;
    static const int firsts[] = {0, 12, 24, 36, 48, 60}, lates[] = {0, 9, 18}, hesitates[] = {0, 6, 12};
    for (int i = 0; i < l.n; i++) {
        ck_assert_int_eq(walk_load(&r, DOC, l.items[i].title, &err), PT_OK);
        int runs = 0, out = 0;
        char failed[256] = "";
        for (size_t a = 0; a < sizeof firsts / sizeof firsts[0]; a++)
            for (size_t b = 0; b < sizeof lates / sizeof lates[0]; b++)
                for (size_t c = 0; c < sizeof hesitates / sizeof hesitates[0]; c++) {
                    walk_opts o = {.first = firsts[a], .shift = lates[b], .late = lates[b], .hesitate = hesitates[c]};
                    walk_result res;
                    int spotted;
                    runs++;
                    if (play_walk_level(&l.items[i], &r, &o, &res, &spotted) == 1) out++;
                    else if (!failed[0])
                        snprintf(failed, sizeof failed, "first key %d, late %d, pause %d ticks: round %d at %.2f s",
                                 firsts[a], lates[b], hesitates[c], res.round, res.clock);
                }
        ck_assert_msg(out == runs, "%s: %d of %d timings get out (%s)", l.items[i].title, out, runs, failed);
    }
    app_levels_fini(&l);
}
END_TEST

/* A walkthrough keeps the keys' rules: a walk counts tiles entered, a wall stops it (blocked),
 * a wait already past is counted (behind), the clock starts at the first press. */
START_TEST(test_play_rules) {
    play_session s;
    char path[1200];
    snprintf(path, sizeof path, "%s/test-out", PATROL_BUILD_DIR);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/test-out/walk-%d.map", PATROL_BUILD_DIR, (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("format 1\nplayer at=1,1 speed=6\ngrid\n########\n#......#\n#.....E#\n########\nend\n", f);
    fclose(f);
    static walk_route r;
    pt_error err;
    const char *ok = "## Walkthroughs\n### 1. L\n1. **Press Right**\n2. **Wait until the clock reads 0:02.0**\n"
                     "3. **Walk Right 3 tiles**\n4. **Walk Down+Right 1 tile**\n";
    ck_assert_int_eq(wparse(&r, ok, "L", &err), PT_OK);
    for (int first = 0; first < 40; first += 13) {
        open_ok(&s, path);
        walk_opts o = {.first = first};
        walk_result res;
        ck_assert_int_eq(walk_play(&s, &r, &o, &res), 1);
        ck_assert_int_eq(res.behind, 0);
        /* 2.0 s after the press, then 4 steps of 10 ticks, the first one at once. */
        ck_assert_double_eq_tol(res.clock, 2.0 + 31.0 / 60.0, 1e-9);
        ck_assert_int_eq(s.started, 1);
        play_close(&s);
    }
    const char *wall = "## Walkthroughs\n### 1. L\n1. **Walk Up 2 tiles**\n";
    ck_assert_int_eq(wparse(&r, wall, "L", &err), PT_OK);
    open_ok(&s, path);
    walk_opts o = {0};
    walk_result res;
    ck_assert_int_eq(walk_play(&s, &r, &o, &res), 0);
    ck_assert_int_eq(res.blocked, 1);
    play_close(&s);
    const char *late = "## Walkthroughs\n### 1. L\n1. **Walk Right 2 tiles**\n2. **Wait until the clock reads 0:00.1**\n"
                       "3. **Walk Right 2 tiles**\n4. **Walk Down+Right 1 tile**\n";
    ck_assert_int_eq(wparse(&r, late, "L", &err), PT_OK);
    open_ok(&s, path);
    ck_assert_int_eq(walk_play(&s, &r, &o, &res), 1);
    ck_assert_int_eq(res.behind, 1);
    play_close(&s);
    remove(path);
}
END_TEST

/* `patrol sim MAP --walkthrough DOC` plays it and prints the round's end; a bad one is an
 * input error at its place. */
START_TEST(test_cli) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' sim maps/demo.map --walkthrough docs/playing.md 2>&1", PATROL_BIN);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char line[512], last[512] = "";
    while (fgets(line, sizeof line, p)) snprintf(last, sizeof last, "%s", line);
    int st = pclose(p);
    ck_assert_int_eq(WEXITSTATUS(st), 0);
    ck_assert_msg(strncmp(last, "escaped \"Castle by the river\" in ", 33) == 0, "%s", last);
    /* -v lists the events as `patrol sim -v` does, the goal on the round's last tick. */
    snprintf(cmd, sizeof cmd, "'%s' sim maps/demo.map --walkthrough docs/playing.md -v 2>&1", PATROL_BIN);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    int events = 0, goal = 0;
    while (fgets(line, sizeof line, p)) {
        events += strncmp(line, "tick ", 5) == 0;
        goal += strncmp(line, "tick ", 5) == 0 && strstr(line, " goal player at ") != NULL;
    }
    ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
    ck_assert_int_gt(events, 1);
    ck_assert_int_eq(goal, 1);
    snprintf(cmd, sizeof cmd, "'%s' sim maps/demo.map --walkthrough README.md 2>&1", PATROL_BIN);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, p));
    st = pclose(p);
    ck_assert_int_eq(WEXITSTATUS(st), 1);
    ck_assert_msg(strstr(line, "README.md:") == line && strstr(line, ": error: "), "%s", line);
    /* --ticks stops it: unfinished, the steps finished before it counted. */
    snprintf(cmd, sizeof cmd, "'%s' sim maps/demo.map --walkthrough docs/playing.md --ticks 100 2>&1", PATROL_BIN);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char first[512] = "";
    for (int k = 0; fgets(line, sizeof line, p); k++) {
        if (k == 0) snprintf(first, sizeof first, "%s", line);
        snprintf(last, sizeof last, "%s", line);
    }
    ck_assert_int_eq(WEXITSTATUS(pclose(p)), 0);
    ck_assert_msg(strstr(first, ", 1 of 8 steps, 100 ticks;") != NULL, "%s", first);
    ck_assert_msg(strncmp(last, "unfinished \"Castle by the river\" after 1.67 s", 45) == 0, "%s", last);
    snprintf(cmd, sizeof cmd, "'%s' sim maps/demo.map --late 1 >/dev/null 2>&1", PATROL_BIN);
    ck_assert_int_eq(WEXITSTATUS(system(cmd)), 2);
}
END_TEST

static Suite *walk_suite(void) {
    Suite *s = suite_create("play_walkthrough");
    TCase *tc = tcase_create("walkthrough");
    tcase_add_test(tc, test_parse_good);
    tcase_add_test(tc, test_parse_bad);
    tcase_add_test(tc, test_play_rules);
    tcase_add_test(tc, test_shipped_as_written);
    tcase_add_test(tc, test_shipped_followable);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(walk_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
