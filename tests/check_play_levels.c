/* SPDX-License-Identifier: Zlib */
/* check_play_levels - the level list file (levels.c: good lists in every spelling, bad lines
 * located, a level that does not load), the screens around the levels driven by random keys
 * and clicks (invariants over many seeds), and `patrol play --levels` with bad lists. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_app.h"

static char dir[1024];

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/levels-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", dir, name); }

static void write_bytes(const char *name, const char *text, size_t len) {
    char p[1200];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", p);
    fwrite(text, 1, len, f);
    fclose(f);
}
static void write_file(const char *name, const char *text) { write_bytes(name, text, strlen(text)); }

static void write_map(const char *name, const char *title) {
    char text[512];
    snprintf(text, sizeof text, "format 1\n%s%s%splayer at=1,1\ngrid\n#####\n#..E#\n#####\nend\n", title ? "title \"" : "",
             title ? title : "", title ? "\"\n" : "");
    write_file(name, text);
}

/* ---- the list file ---------------------------------------------------------------------------- */

START_TEST(test_parse_good) {
    static const char *spellings[] = {
        "a.map\nb.map\n",
        "# levels\n\na.map   # the first\n   b.map\n\n",
        ("\xEF\xBB\xBF" "a.map\r\nb.map\r\n"), /* split: a hex escape would swallow the 'a' */
        "\"a.map\"\n'b.map'",
        "\t a.map \t\n#b.map is below\nb.map",
    };
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        app_levels l;
        pt_error err;
        int rc = app_levels_parse(&l, "lists/levels.txt", spellings[i], strlen(spellings[i]), &err);
        ck_assert_msg(rc == PT_OK, "spelling %zu: %d:%d: %s", i, err.line, err.col, err.message);
        ck_assert_int_eq(l.n, 2);
        ck_assert_str_eq(l.items[0].path, "lists/a.map"); /* relative to the list's folder */
        ck_assert_str_eq(l.items[1].path, "lists/b.map");
        ck_assert_int_lt(l.items[0].line, l.items[1].line);
        app_levels_fini(&l);
    }
    /* An absolute path is kept; a list in the working folder has no folder to add. */
    app_levels l;
    pt_error err;
    ck_assert_int_eq(app_levels_parse(&l, "levels.txt", "/x/a.map\nb.map\n", 15, &err), PT_OK);
    ck_assert_str_eq(l.items[0].path, "/x/a.map");
    ck_assert_str_eq(l.items[1].path, "b.map");
    app_levels_fini(&l);
    char buf[PT_MAX_PATH];
    ck_assert_str_eq(app_default_levels(buf, sizeof buf), "some/where/levels.txt");
    /* A difficulty after the path: kept for the label; a level without one has none. */
    const char *with = "a.map difficulty=easy\n\"b c.map\"\tdifficulty=Very-Hard2 # the last\nd.map\n";
    ck_assert_int_eq(app_levels_parse(&l, "w.txt", with, strlen(with), &err), PT_OK);
    ck_assert_int_eq(l.n, 3);
    ck_assert_str_eq(l.items[0].difficulty, "easy");
    ck_assert_str_eq(l.items[1].path, "b c.map");
    ck_assert_str_eq(l.items[1].difficulty, "Very-Hard2");
    ck_assert_str_eq(l.items[2].difficulty, "");
    snprintf(l.items[0].title, sizeof l.items[0].title, "First");
    snprintf(l.items[2].title, sizeof l.items[2].title, "Third");
    char label[96];
    app_level_label(&l, 0, label, sizeof label);
    ck_assert_str_eq(label, " 1  First  - easy");
    app_level_label(&l, 2, label, sizeof label);
    ck_assert_str_eq(label, " 3  Third");
    app_levels_fini(&l);
}
END_TEST

START_TEST(test_parse_bad) {
    static const struct {
        const char *text;
        int code, line, col;
    } cases[] = {
        {"a.map b.map\n", PT_ERR_SYNTAX, 1, 7},                 /* two paths on a line */
        {"a.map\n\n  c.map extra\n", PT_ERR_SYNTAX, 3, 9},      /* a second word */
        {"a.map\nb.map\na.map\n", PT_ERR_DUPLICATE, 3, 1},      /* listed twice */
        {"a.map\n  \"a.map\"\n", PT_ERR_DUPLICATE, 2, 3},       /* the same, quoted */
        {"", PT_ERR_EMPTY, 0, 0},                               /* nothing */
        {"# only a comment\n\n", PT_ERR_EMPTY, 0, 0},           /* nothing but comments */
        {"a.map\n\"b\x01.map\"\n", PT_ERR_SYNTAX, 2, 3},        /* a control character */
        {"a.map\n\"b.map\n", PT_ERR_SYNTAX, 2, 1},              /* an unterminated quote */
        {"a.map difficulty=\n", PT_ERR_BAD_VALUE, 1, 18},      /* an empty difficulty */
        {"a.map difficulty=ea/sy\n", PT_ERR_BAD_VALUE, 1, 20}, /* a character a word has not */
        {"a.map difficulty=abcdefghijklmnopq\n", PT_ERR_BAD_VALUE, 1, 18}, /* 17 bytes */
        {"a.map difficulty=easy hard\n", PT_ERR_SYNTAX, 1, 23}, /* a third word */
        {"a.map hard\n", PT_ERR_SYNTAX, 1, 7},                 /* not difficulty= */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        app_levels l;
        pt_error err;
        int rc = app_levels_parse(&l, "bad.txt", cases[i].text, strlen(cases[i].text), &err);
        ck_assert_msg(rc == cases[i].code, "case %zu: code %d (%s), want %d", i, rc, err.message, cases[i].code);
        ck_assert_msg(err.line == cases[i].line && err.col == cases[i].col, "case %zu: at %d:%d, want %d:%d", i,
                      err.line, err.col, cases[i].line, cases[i].col);
        ck_assert_str_eq(err.file, "bad.txt");
        ck_assert_ptr_null(l.items);
        ck_assert_int_eq(l.n, 0);
    }
    /* A NUL byte: not a text file. */
    app_levels l;
    pt_error err;
    ck_assert_int_eq(app_levels_parse(&l, "bin.txt", "a.map\n\0b.map\n", 13, &err), PT_ERR_BINARY);
    /* More levels than a list holds: refused at the first one too many. */
    size_t cap = (APP_LEVELS_MAX + 2) * 16, n = 0, full = 0;
    char *big = malloc(cap);
    for (int i = 0; i < APP_LEVELS_MAX + 2; i++) {
        n += (size_t)snprintf(big + n, cap - n, "l%d.map\n", i);
        if (i == APP_LEVELS_MAX - 1) full = n;
    }
    ck_assert_int_eq(app_levels_parse(&l, "big.txt", big, n, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, APP_LEVELS_MAX + 1);
    ck_assert_int_eq(app_levels_parse(&l, "big.txt", big, full, &err), PT_OK);
    ck_assert_int_eq(l.n, APP_LEVELS_MAX);
    app_levels_fini(&l);
    free(big);
}
END_TEST

START_TEST(test_load) {
    write_map("one.map", "The first");
    write_map("two.map", NULL);
    write_file("good.txt", "one.map\ntwo.map\n");
    char list[1200], p[1200];
    path_in(list, sizeof list, "good.txt");
    app_levels l;
    pt_error err, why;
    int rc = app_levels_load(&l, list, &err, &why);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
    ck_assert_int_eq(l.n, 2);
    ck_assert_str_eq(l.items[0].title, "The first");
    ck_assert_str_eq(l.items[1].title, "two.map"); /* no title: the file's name */
    uint64_t h;
    path_in(p, sizeof p, "one.map");
    ck_assert_int_eq(app_file_hash(p, &h, &err), PT_OK);
    ck_assert(h == l.items[0].hash); /* the progress file's key, as play_session has it */
    ck_assert(l.items[0].hash != l.items[1].hash);
    app_levels_fini(&l);

    /* A level that does not load: at its line in the list, and the map's own error. */
    write_file("broken.map", "format 1\nplayer at=1,1\ngrid\n###\n#?#\n###\nend\n");
    write_file("bad.txt", "one.map\n\n  broken.map\ntwo.map\n");
    path_in(list, sizeof list, "bad.txt");
    ck_assert_int_eq(app_levels_load(&l, list, &err, &why), PT_ERR_UNKNOWN_TILE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 3);
    ck_assert_str_eq(err.file, list);
    ck_assert_ptr_nonnull(strstr(err.message, "broken.map"));
    ck_assert_int_eq(why.line, 5);
    ck_assert_int_eq(why.col, 2);
    ck_assert_ptr_null(l.items);
    /* A map that is not there. */
    write_file("missing.txt", "one.map\nnot-there.map\n");
    path_in(list, sizeof list, "missing.txt");
    ck_assert_int_eq(app_levels_load(&l, list, &err, &why), PT_ERR_IO);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 1);
    /* No list file. */
    path_in(list, sizeof list, "nope.txt");
    ck_assert_int_eq(app_levels_load(&l, list, &err, NULL), PT_ERR_IO);
}
END_TEST

/* The shipped list loads, and every level in it. */
START_TEST(test_shipped_list) {
    app_levels l;
    pt_error err, why;
    int rc = app_levels_load(&l, PATROL_SOURCE_DIR "/maps/levels.txt", &err, &why);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s (%s:%d:%d: %s)", err.file, err.line, err.col, err.message, why.file,
                  why.line, why.col, why.message);
    ck_assert_int_ge(l.n, 1);
    for (int i = 0; i < l.n; i++) {
        ck_assert(l.items[i].title[0] != '\0');
        /* Every shipped level says how hard it is, and the level select shows it. */
        ck_assert_msg(l.items[i].difficulty[0] != '\0', "level %d has no difficulty", i + 1);
        char label[96];
        app_level_label(&l, i, label, sizeof label);
        ck_assert_msg(strstr(label, l.items[i].difficulty) != NULL, "%s", label);
    }
    app_levels_fini(&l);
}
END_TEST

/* The result screen after an escape: the level's name and the lines; after the last level of
 * the list the ending, with how many levels are escaped. */
START_TEST(test_result_text) {
    app_levels l;
    pt_error err;
    ck_assert_int_eq(app_levels_parse(&l, "r.txt", "a.map\nb.map\nc.map\n", 18, &err), PT_OK);
    char buf[512];
    for (int level = 0; level < 3; level++)
        for (int escaped = 1; escaped <= 3; escaped++) {
            const char *title = app_result_text(&l, level, "Somewhere", "time 0:41.2\nbadges: GHOST", escaped, buf, sizeof buf);
            ck_assert_ptr_nonnull(strstr(buf, "Somewhere"));
            ck_assert_ptr_nonnull(strstr(buf, "time 0:41.2\nbadges: GHOST"));
            if (level < 2) {
                ck_assert_str_eq(title, "ESCAPED!");
                ck_assert_ptr_null(strstr(buf, "levels escaped"));
            } else {
                ck_assert_str_eq(title, "THE END");
                ck_assert_ptr_nonnull(strstr(buf, escaped == 3 ? "all 3 levels escaped" : "of 3 levels escaped"));
            }
        }
    app_levels_fini(&l);
}
END_TEST

/* ---- the screens -------------------------------------------------------------------------------- */

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

START_TEST(test_menu_paths) {
    app_menu m;
    app_menu_init(&m, 3);
    ck_assert_int_eq(m.screen, APP_SCREEN_TITLE);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_DOWN), APP_MENU_NOTHING);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_ENTER), APP_MENU_SHOW);
    ck_assert_int_eq(m.screen, APP_SCREEN_LEVELS);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_UP), APP_MENU_MOVED); /* wraps to the last */
    ck_assert_int_eq(m.level, 2);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_HOME), APP_MENU_MOVED);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_HOME), APP_MENU_NOTHING);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_ENTER), APP_MENU_START);
    ck_assert_int_eq(m.screen, APP_SCREEN_PLAY);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_BACK), APP_MENU_SHOW); /* Esc in a level: the list */
    ck_assert_int_eq(m.screen, APP_SCREEN_LEVELS);
    ck_assert_int_eq(m.level, 0);
    app_menu_key(&m, APP_MENU_ENTER);
    app_menu_escaped(&m);
    ck_assert_int_eq(m.screen, APP_SCREEN_RESULT);
    ck_assert_int_eq(app_menu_rows(&m), 3);
    ck_assert_int_eq(app_menu_choice_at(&m, m.choice), APP_RESULT_NEXT);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_ENTER), APP_MENU_START); /* next level */
    ck_assert_int_eq(m.level, 1);
    app_menu_escaped(&m);
    ck_assert_int_eq(app_menu_point(&m, 1, 1), APP_MENU_START); /* a click on "play again" */
    ck_assert_int_eq(m.level, 1);
    app_menu_escaped(&m);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_END), APP_MENU_MOVED);
    ck_assert_int_eq(app_menu_choice_at(&m, m.choice), APP_RESULT_LIST);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_ENTER), APP_MENU_SHOW);
    ck_assert_int_eq(m.screen, APP_SCREEN_LEVELS);
    ck_assert_int_eq(m.level, 2); /* the next level selected */
    app_menu_key(&m, APP_MENU_ENTER);
    app_menu_escaped(&m);
    ck_assert_int_eq(app_menu_rows(&m), 2); /* the last level: no "next" */
    ck_assert_int_eq(app_menu_choice_at(&m, 0), APP_RESULT_RETRY);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_BACK), APP_MENU_SHOW);
    ck_assert_int_eq(m.screen, APP_SCREEN_LEVELS);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_BACK), APP_MENU_SHOW);
    ck_assert_int_eq(m.screen, APP_SCREEN_TITLE);
    ck_assert_int_eq(app_menu_point(&m, -1, 1), APP_MENU_SHOW); /* a click on the title screen */
    ck_assert_int_eq(m.screen, APP_SCREEN_LEVELS);
    ck_assert_int_eq(app_menu_point(&m, 7, 1), APP_MENU_NOTHING); /* not a row */
    ck_assert_int_eq(app_menu_point(&m, 1, 0), APP_MENU_MOVED);
    ck_assert_int_eq(m.level, 1);
    app_menu_key(&m, APP_MENU_BACK);
    ck_assert_int_eq(app_menu_key(&m, APP_MENU_BACK), APP_MENU_SHOW);
    ck_assert_int_eq(m.screen, APP_SCREEN_QUIT);
}
END_TEST

/* Random keys, pointer moves, clicks and escapes on lists of 1..9 levels: every screen is
 * one of the five, the selection is a row of its screen, a level started is a level of the
 * list and is then played, and only the title screen quits. */
START_TEST(test_menu_random) {
    for (unsigned seed = 1; seed <= 200; seed++) {
        unsigned st = seed * 2654435761u;
        int n = 1 + (int)(seed % 9);
        app_menu m;
        app_menu_init(&m, n);
        int starts = 0;
        for (int step = 0; step < 400 && m.screen != APP_SCREEN_QUIT; step++) {
            app_screen before = m.screen;
            int level_before = m.level;
            app_menu_do d;
            unsigned r = rnd(&st) % 10;
            if (r < 6) d = app_menu_key(&m, (app_menu_input)(rnd(&st) % 6));
            else if (r < 9) d = app_menu_point(&m, (int)(rnd(&st) % 12) - 2, (int)(rnd(&st) % 3 == 0));
            else {
                app_menu_escaped(&m);
                d = APP_MENU_NOTHING;
                if (before == APP_SCREEN_PLAY) ck_assert_int_eq(m.screen, APP_SCREEN_RESULT);
                else ck_assert_int_eq(m.screen, before); /* only a level is escaped */
            }
            ck_assert((unsigned)m.screen <= APP_SCREEN_QUIT);
            ck_assert(m.level >= 0 && m.level < n);
            int rows = app_menu_rows(&m), sel = app_menu_selected(&m);
            if (m.screen == APP_SCREEN_LEVELS) ck_assert_int_eq(rows, n);
            if (rows > 0) ck_assert_msg(sel >= 0 && sel < rows, "seed %u: row %d of %d", seed, sel, rows);
            if (d == APP_MENU_START) {
                starts++;
                ck_assert_int_eq(m.screen, APP_SCREEN_PLAY);
                ck_assert(before == APP_SCREEN_LEVELS || before == APP_SCREEN_RESULT);
                if (before == APP_SCREEN_RESULT) ck_assert(m.level == level_before || m.level == level_before + 1);
            }
            if (m.screen == APP_SCREEN_QUIT) ck_assert_int_eq(before, APP_SCREEN_TITLE);
            if (d == APP_MENU_MOVED) ck_assert_int_eq(m.screen, before);
        }
        ck_assert_msg(starts > 0 || m.screen == APP_SCREEN_QUIT, "seed %u: never played", seed);
    }
}
END_TEST

/* ---- the command -------------------------------------------------------------------------------- */

static int run_play(const char *args, char *errs, size_t cap) {
    char out[1200], cmd[4096];
    path_in(out, sizeof out, "cmd.err");
    snprintf(cmd, sizeof cmd, "'%s' play %s >/dev/null 2>'%s'", PATROL_BIN, args, out);
    int st = system(cmd);
    FILE *f = fopen(out, "r");
    size_t n = f ? fread(errs, 1, cap - 1, f) : 0;
    errs[n] = '\0';
    if (f) fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_cli_bad_lists) {
    write_map("one.map", "The first");
    write_file("two.txt", "one.map\none.map two.map\n");
    write_file("dup.txt", "one.map\n\none.map\n");
    write_file("gone.txt", "one.map\n  gone.map\n");
    write_file("empty.txt", "# nothing yet\n");
    static const struct {
        const char *file, *where;
    } cases[] = {
        {"two.txt", "two.txt:2:9: error:"},
        {"dup.txt", "dup.txt:3:1: error:"},
        {"gone.txt", "gone.txt:2:3: error:"},
        {"empty.txt", "empty.txt: error:"},
        {"none.txt", "none.txt"},
    };
    char errs[8192], args[4096], list[1200];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        path_in(list, sizeof list, cases[i].file);
        snprintf(args, sizeof args, "--levels '%s' --ticks 5", list);
        int rc = run_play(args, errs, sizeof errs);
        ck_assert_msg(rc == APP_EXIT_INPUT, "%s: exit %d: %s", cases[i].file, rc, errs);
        ck_assert_msg(strstr(errs, cases[i].where) != NULL, "%s: stderr: %s", cases[i].file, errs);
    }
    /* A missing map: the list's line, then why (the map's own error). */
    path_in(list, sizeof list, "gone.txt");
    snprintf(args, sizeof args, "--levels '%s' --ticks 5", list);
    run_play(args, errs, sizeof errs);
    ck_assert_msg(strstr(errs, "gone.map") != NULL, "%s", errs);
    /* A map and a list at once; a --levels without a file. */
    path_in(list, sizeof list, "one.map");
    snprintf(args, sizeof args, "'%s' --levels '%s'", list, list);
    ck_assert_int_eq(run_play(args, errs, sizeof errs), APP_EXIT_USAGE);
    ck_assert_int_eq(run_play("--levels", errs, sizeof errs), APP_EXIT_USAGE);
    /* A good list: the title screen runs (no display needed with --ticks) and quits by itself. */
    write_file("good.txt", "one.map\n");
    path_in(list, sizeof list, "good.txt");
    snprintf(args, sizeof args, "--levels '%s' --ticks 20", list);
    ck_assert_msg(run_play(args, errs, sizeof errs) == 0, "%s", errs);
    /* --record with no level played (the title screen only): nothing to write, said so. */
    char rec[1200];
    path_in(rec, sizeof rec, "none.rec");
    unlink(rec);
    snprintf(args, sizeof args, "--levels '%s' --ticks 20 --record '%s'", list, rec);
    ck_assert_msg(run_play(args, errs, sizeof errs) == 0, "%s", errs);
    ck_assert_msg(strstr(errs, "no level was played") != NULL, "%s", errs);
    ck_assert_int_ne(access(rec, F_OK), 0);
}
END_TEST

/* The bad level lists of tests/data/bad (.txt in its EXPECT, with their place): the list
 * loader fails with that code there, and `patrol play --levels` prints FILE:LINE:COL: error:
 * (FILE: error: for a place without a line) and exits 1. */
START_TEST(test_bad_files) {
    FILE *f = fopen(PATROL_SOURCE_DIR "/tests/data/bad/EXPECT", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char file[128], code[64];
        int ln, col;
        if (line[0] == '#' || sscanf(line, "%127s %63s %d %d", file, code, &ln, &col) != 4) continue;
        size_t len = strlen(file);
        if (len < 4 || strcmp(file + len - 4, ".txt") != 0) continue;
        char path[1200], want[1400], errs[8192], args[1400];
        snprintf(path, sizeof path, "%s/tests/data/bad/%s", PATROL_SOURCE_DIR, file);
        app_levels l;
        pt_error err;
        int rc = app_levels_load(&l, path, &err, NULL);
        ck_assert_msg(rc < 0 && strcmp(pt_code_name(rc), code) == 0 && err.line == ln && err.col == col,
                      "%s: %s at %d:%d (%s), want %s at %d:%d", file, pt_code_name(rc), err.line, err.col, err.message,
                      code, ln, col);
        if (ln > 0) snprintf(want, sizeof want, "%s:%d:%d: error: ", path, ln, col);
        else snprintf(want, sizeof want, "%s: error: ", path);
        snprintf(args, sizeof args, "--levels '%s' --ticks 5", path);
        ck_assert_int_eq(run_play(args, errs, sizeof errs), APP_EXIT_INPUT);
        ck_assert_msg(strncmp(errs, want, strlen(want)) == 0, "%s: expected '%s...', got:\n%s", file, want, errs);
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n, 5);
}
END_TEST

static Suite *levels_suite(void) {
    Suite *s = suite_create("play_levels");
    TCase *tc = tcase_create("levels");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_parse_good);
    tcase_add_test(tc, test_parse_bad);
    tcase_add_test(tc, test_load);
    tcase_add_test(tc, test_shipped_list);
    tcase_add_test(tc, test_result_text);
    tcase_add_test(tc, test_menu_paths);
    tcase_add_test(tc, test_menu_random);
    tcase_add_test(tc, test_cli_bad_lists);
    tcase_add_test(tc, test_bad_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(levels_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
