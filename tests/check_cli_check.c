/* SPDX-License-Identifier: Zlib */
/* `patrol check`: exit codes, located errors with the source line and caret, usage. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, mkfifo */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cli.h"

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/world.h>

/* Runs PATROL_BIN with args (NULL-terminated), capturing both streams. */
static void run(run_result *r, const char *const *args) { tu_run_patrol(r, NULL, args); }

/* 1 if some line of text starts with prefix. */
static int has_line_starting(const char *text, const char *prefix) {
    size_t n = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
        if (strncmp(s, prefix, n) == 0) return 1;
    return 0;
}

/* The line after the first line starting with prefix (copied into dst), or "". */
static void line_after(const char *text, const char *prefix, int skip, char *dst, size_t cap) {
    dst[0] = '\0';
    size_t n = strlen(prefix);
    for (const char *s = text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
        if (strncmp(s, prefix, n) != 0) continue;
        for (int i = 0; i <= skip; i++) {
            s = strchr(s, '\n');
            if (!s) return;
            s++;
        }
        size_t len = strcspn(s, "\n");
        if (len >= cap) len = cap - 1;
        memcpy(dst, s, len);
        dst[len] = '\0';
        return;
    }
}

START_TEST(test_broken_map) {
    run_result r;
    run(&r, (const char *[]){"check", "tests/data/maps/bad_tile.map", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "tests/data/maps/bad_tile.map:6:4: error: "), "stderr: %s", r.err);
    /* the source line, then a caret under column 4 */
    char src[256], caret[256];
    line_after(r.err, "tests/data/maps/bad_tile.map:6:4:", 0, src, sizeof src);
    line_after(r.err, "tests/data/maps/bad_tile.map:6:4:", 1, caret, sizeof caret);
    ck_assert_msg(strstr(src, "#..X.#") != NULL, "source line: '%s'", src);
    const char *x = strstr(src, "#..X.#") + 3, *hat = strchr(caret, '^');
    ck_assert_ptr_nonnull(hat);
    ck_assert_int_eq((int)(hat - caret), (int)(x - src));
    ck_assert_str_eq(r.out, "");
}
END_TEST

/* One line per valid file by default; -q silences it. */
START_TEST(test_demo_ok) {
    run_result r;
    run(&r, (const char *[]){"check", "maps/demo.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert_str_eq(r.out, "maps/demo.map: ok (64x40, 20 entities, 10 patterns)\n");
    run(&r, (const char *[]){"check", "-q", "maps/demo.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "");
    ck_assert_str_eq(r.err, "");
}
END_TEST

/* "Entities" is the same count in check and sim: the world's, player and flocks included. */
START_TEST(test_entities_as_sim_counts) {
    static run_result r;
    tu_run_patrol(&r, "sim", (const char *[]){"maps/demo.map", "--ticks", "1", NULL});
    ck_assert_int_eq(r.status, 0);
    const char *at = strstr(r.out, " entities;");
    ck_assert_ptr_nonnull(at);
    while (at > r.out && at[-1] != ' ') at--;
    int sim_count = atoi(at);
    ck_assert_int_gt(sim_count, 0);
    char want[128];
    snprintf(want, sizeof want, "maps/demo.map: ok (64x40, %d entities, ", sim_count);
    run(&r, (const char *[]){"check", "maps/demo.map", NULL});
    ck_assert_msg(has_line_starting(r.out, want), "want '%s' in: %s", want, r.out);
}
END_TEST

/* Every kind of file the project reads is checked as what it is. */
START_TEST(test_every_kind) {
    static run_result r;
    run(&r, (const char *[]){"check", "maps/demo.map", "maps/demo.tmx", "maps/patrol-tiles.tsx", "patterns/castle.pat",
                             "patterns/demo.steer", NULL});
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    ck_assert_str_eq(r.err, "");
    ck_assert(has_line_starting(r.out, "maps/demo.map: ok (64x40, 20 entities, "));
    ck_assert(has_line_starting(r.out, "maps/demo.tmx: ok (64x40, 20 entities, "));
    ck_assert(has_line_starting(r.out, "maps/patrol-tiles.tsx: ok (Tiled tileset)\n"));
    ck_assert(has_line_starting(r.out, "patterns/castle.pat: ok (10 patterns)\n"));
    ck_assert(has_line_starting(r.out, "patterns/demo.steer: ok (4 sets)\n"));
    /* Problems inside each kind, located in that file. */
    run(&r, (const char *[]){"check", "tests/data/steer/bad_key.steer", "tests/data/tmx/bad/badprop.tsx",
                             "tests/data/patterns/bad.pat", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "tests/data/steer/bad_key.steer:4:3: error: "), "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, "tests/data/tmx/bad/badprop.tsx:6:36: error: "), "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, "tests/data/patterns/bad.pat:4:3: error: "), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    /* A file with another name is recognised by its first line. */
    char steer[1024];
    snprintf(steer, sizeof steer, "%s/check-steer-%d.txt", PATROL_BUILD_DIR, (int)getpid());
    FILE *f = fopen(steer, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# a steering file\n\nset default\n  max_speed 3\nend\n", f);
    fclose(f);
    run(&r, (const char *[]){"check", steer, NULL});
    unlink(steer);
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    ck_assert_msg(strstr(r.out, ": ok (1 set)\n") != NULL, "%s", r.out);
}
END_TEST

/* A script (.script, or a file whose first word is `at`) is checked for its syntax, errors
 * located; given where a map goes, it says it is a script. */
START_TEST(test_scripts) {
    static run_result r;
    char ok_path[1024], bad_path[1024], txt_path[1024];
    snprintf(ok_path, sizeof ok_path, "%s/check-ok-%d.script", PATROL_BUILD_DIR, (int)getpid());
    snprintf(bad_path, sizeof bad_path, "%s/check-bad-%d.script", PATROL_BUILD_DIR, (int)getpid());
    snprintf(txt_path, sizeof txt_path, "%s/check-script-%d.txt", PATROL_BUILD_DIR, (int)getpid());
    FILE *f = fopen(ok_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# two commands\nat 10 tile 3,3 .\nat 1s noise 2,2 5\n", f);
    fclose(f);
    f = fopen(bad_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("at 10 tile 3,3 .\nat 20 tyle 3,3 .\n", f);
    fclose(f);
    f = fopen(txt_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("\n# no extension\nat 5 gait sneak\n", f);
    fclose(f);
    run(&r, (const char *[]){"check", ok_path, txt_path, NULL});
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    char want[1200];
    snprintf(want, sizeof want, "%s: ok (2 commands)\n", ok_path);
    ck_assert_msg(has_line_starting(r.out, want), "%s", r.out);
    snprintf(want, sizeof want, "%s: ok (1 command)\n", txt_path);
    ck_assert_msg(has_line_starting(r.out, want), "%s", r.out);
    run(&r, (const char *[]){"check", bad_path, NULL});
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof want, "%s:2:7: error: unknown command 'tyle'", bad_path);
    ck_assert_msg(has_line_starting(r.err, want), "%s", r.err);
    run(&r, (const char *[]){"sim", ok_path, "--ticks", "1", NULL});
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "this is a script (it begins with 'at')") != NULL, "%s", r.err);
    unlink(ok_path);
    unlink(bad_path);
    unlink(txt_path);
}
END_TEST

/* Where a map is expected, a file of another kind says what it is. */
START_TEST(test_wrong_kind_for_a_map) {
    static run_result r;
    tu_run_patrol(&r, "sim", (const char *[]){"patterns/castle.pat", "--ticks", "1", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "patterns/castle.pat:6:1: error: this is a pattern file"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "a map starts with 'format 1'") != NULL, "%s", r.err);
    tu_run_patrol(&r, "sim", (const char *[]){"patterns/demo.steer", "--ticks", "1", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "patterns/demo.steer:4:1: error: this is a steering file"), "%s", r.err);
    tu_run_patrol(&r, "show", (const char *[]){"patterns/castle.pat", "--map", "maps/patrol-tiles.tsx", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "maps/patrol-tiles.tsx:2:1: error: this is a Tiled tileset"), "%s", r.err);
    /* A map's `patterns` line naming another map: check, sim and render name it as a map,
     * with the line of the map that names it. */
    char map[1024], text[1200];
    snprintf(map, sizeof map, "%s/check-names-a-map-%d.map", PATROL_BUILD_DIR, (int)getpid());
    snprintf(text, sizeof text, "format 1\npatterns %s/maps/demo.map\nplayer at=1,0\ngrid\n...\nend\n", PATROL_SOURCE_DIR);
    FILE *f = fopen(map, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    char want[1200];
    snprintf(want, sizeof want, "%s/maps/demo.map:43:1: error: this is a map (it begins with 'format'); ", PATROL_SOURCE_DIR);
    const char *cmds[][6] = {{"check", map, NULL}, {"sim", map, "--ticks", "1", NULL}, {"render", map, "--out", "x.png", NULL}};
    for (int i = 0; i < 3; i++) {
        run(&r, cmds[i]);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(has_line_starting(r.err, want), "%s: %s", cmds[i][0], r.err);
        ck_assert_msg(strstr(r.err, " names it on line 2, where a 'patterns' line wants a .pat file\n"), "%s", r.err);
    }
    unlink(map);
}
END_TEST

/* Every file is checked: problems of all bad files are printed, good ones pass. */
START_TEST(test_keeps_going) {
    run_result r;
    run(&r, (const char *[]){"check", "tests/data/maps/bad_tile.map", "maps/demo.map", "tests/data/maps/bad_number.map",
                             "tests/data/maps/missing.map", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert(has_line_starting(r.err, "tests/data/maps/bad_tile.map:6:4: error: "));
    ck_assert(has_line_starting(r.err, "tests/data/maps/bad_number.map:2:23: error: "));
    ck_assert(has_line_starting(r.err, "tests/data/maps/missing.map: error: "));
    ck_assert(!has_line_starting(r.err, "maps/demo.map"));
    /* files of unknown type are read as maps */
    run(&r, (const char *[]){"check", "tests/data/maps/binary.map", "CMakeLists.txt", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert(has_line_starting(r.err, "tests/data/maps/binary.map:4:2: error: "));
    ck_assert(has_line_starting(r.err, "CMakeLists.txt:1:1: error: "));
    /* a missing pattern file: reported, not ignored */
    run(&r, (const char *[]){"check", "patterns/none.pat", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert(has_line_starting(r.err, "patterns/none.pat: error: "));
    /* `--` ends the options */
    run(&r, (const char *[]){"check", "--", "maps/demo.map", NULL});
    ck_assert_int_eq(r.status, 0);
}
END_TEST

START_TEST(test_usage) {
    run_result r;
    run(&r, (const char *[]){"check", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert(has_line_starting(r.err, "usage: patrol check"));
    run(&r, (const char *[]){"check", "--frobnicate", "maps/demo.map", NULL});
    ck_assert_int_eq(r.status, 2);
    run(&r, (const char *[]){"check", "-q", NULL});
    ck_assert_int_eq(r.status, 2);
    run(&r, (const char *[]){"check", "--help", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert(has_line_starting(r.out, "usage: patrol check"));
    ck_assert_str_eq(r.err, "");
    run(&r, (const char *[]){"check", "-h", NULL});
    ck_assert_int_eq(r.status, 0);
}
END_TEST

/* Player routes are linted where they are used (issue 36, item 15): a route into a wall is
 * refused by check of a test file, check --route, test, sim --player-pattern and render
 * --route, each with the located lint error; a route on the floor passes everywhere. */
#define HR "tests/data/test/hall_routes.pat"
#define WALL_ERR HR ":6:3: error: cell 1,0 is wall: pattern 'into_wall' placed at 1,1 for the player's route"
START_TEST(test_routes_are_linted) {
    run_result r;
    run(&r, (const char *[]){"check", "tests/data/test/route_wall.test", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " (route= on tests/data/test/route_wall.test:5)"), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    run(&r, (const char *[]){"check", "--route", HR ":into_wall", "tests/data/test/hall.map", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " on tests/data/test/hall.map\n"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "error: cell 0,1 is wall") != NULL, "every problem: %s", r.err);
    run(&r, (const char *[]){"check", "tests/data/test/hall.map", "--route", HR ":along", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert(has_line_starting(r.out, "tests/data/test/hall.map: ok"));
    run(&r, (const char *[]){"check", "--route", HR ":nope", "tests/data/test/hall.map", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "has no pattern 'nope'") != NULL, "%s", r.err);
    run(&r, (const char *[]){"check", "--route", HR ":along", HR, NULL}); /* no map to lint on */
    ck_assert_int_eq(r.status, 2);
    run(&r, (const char *[]){"check", "--route", NULL});
    ck_assert_int_eq(r.status, 2);
    run(&r, (const char *[]){"test", "tests/data/test/route_wall.test", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " (route= on tests/data/test/route_wall.test:5)"), "%s", r.err);
    run(&r, (const char *[]){"sim", "tests/data/test/hall.map", "--ticks", "10", "--player-pattern", HR ":into_wall", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR "\n"), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    run(&r, (const char *[]){"sim", "tests/data/test/hall.map", "--ticks", "10", "--player-pattern", HR ":along", NULL});
    ck_assert_int_eq(r.status, 0);
    char dir[] = "/tmp/patrol-route-XXXXXX", png[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(png, sizeof png, "%s/r.png", dir);
    run(&r, (const char *[]){"render", "tests/data/test/hall.map", "--out", png, "--route", HR ":into_wall", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR "\n"), "%s", r.err);
    ck_assert_int_ne(access(png, F_OK), 0);
    rmdir(dir);
}
END_TEST

/* Issue 36, item 17. A level list is checked as one (the shipped maps/levels.txt was refused
 * as "not a map"): its lines, then every level, a bad level also at its line of the list. */
#define CD "tests/data/check/"
START_TEST(test_level_lists) {
    run_result r;
    run(&r, (const char *[]){"check", "maps/levels.txt", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "");
    ck_assert(has_line_starting(r.out, "maps/demo.map: ok"));
    ck_assert(has_line_starting(r.out, "maps/abbey.map: ok"));
    ck_assert(has_line_starting(r.out, "maps/fort.map: ok"));
    ck_assert(has_line_starting(r.out, "maps/cellars.map: ok"));
    ck_assert(has_line_starting(r.out, "maps/levels.txt: ok (level list, 4 levels)"));
    run(&r, (const char *[]){"check", "-q", CD "levels.txt", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "");
    run(&r, (const char *[]){"check", CD "levels_bad.txt", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, CD "broken.map:6:3: error: unknown tile character 'X'"), "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, CD "levels_bad.txt:3:3: error: level 2 (" CD "broken.map) has problems (above)"),
                  "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, CD "levels_bad.txt:4:1: error: level 3 (" CD "missing.map) cannot be read: "),
                  "%s", r.err);
    ck_assert(has_line_starting(r.out, "tests/data/check/../../../maps/demo.map: ok"));
    ck_assert(!has_line_starting(r.out, CD "levels_bad.txt: ok"));
    /* The list's own errors, as play reports them. */
    run(&r, (const char *[]){"check", "tests/data/bad/levels_listed_twice.txt", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "error: this map is listed already") != NULL, "%s", r.err);
    /* Where a map is expected, a level list is named as one. */
    run(&r, (const char *[]){"sim", "maps/levels.txt", "--ticks", "1", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "maps/levels.txt:4:1: error: this is a level list (it begins with 'demo.map')"),
                  "%s", r.err);
}
END_TEST

/* Warnings: a map with no goal, a walled-in goal, a guard off its matrix; they do not
 * change the exit status. The shipped maps have none. */
START_TEST(test_map_warnings) {
    run_result r;
    run(&r, (const char *[]){"check", CD "nogoal.map", CD "walled.map", CD "offmatrix.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(has_line_starting(r.err, CD "nogoal.map:3:11: warning: the map has no goal tile: the player cannot win"),
                  "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, CD "walled.map:4:11: warning: no goal tile can be reached from the player's "
                                          "start 1,1: every goal tile (the first at 5,1) is walled in"),
                  "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, CD "offmatrix.map:6:12: warning: guard 'g' starts at 3,2, off its matrix "
                                          "pattern 'pair' (placed at 4,1): it walks to 4,1, the nearest cell of it, "
                                          "before it patrols"),
                  "%s", r.err);
    ck_assert(has_line_starting(r.out, CD "nogoal.map: ok"));
    char src[256];
    line_after(r.err, CD "walled.map:4:11:", 0, src, sizeof src);
    ck_assert_msg(strstr(src, "player at=1,1") != NULL, "source line: '%s'", src);
    run(&r, (const char *[]){"check", "-q", CD "nogoal.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "");
    ck_assert(has_line_starting(r.err, CD "nogoal.map:3:11: warning: "));
    run(&r, (const char *[]){"check", "maps/demo.map", "maps/abbey.map", "maps/fort.map", "maps/demo.tmx", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
}
END_TEST

/* A guard off its pattern is warned of the cell the world walks it to: the nearest cell of
 * its pattern (docs/ai.md, "return"), not the pattern's origin. */
START_TEST(test_off_pattern_nearest) {
    run_result r;
    run(&r, (const char *[]){"check", CD "off2.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(has_line_starting(r.err, CD "off2.map:7:12: warning: guard 'g' starts at 9,3, off its path pattern "
                                          "'pace' (placed at 3,2): it walks to 9,2, the nearest cell of it, before it "
                                          "patrols"),
                  "%s", r.err);
}
END_TEST

/* Generated maps, each with a guard off its path or matrix pattern behind random walls: the
 * cell check warns of is where the guard first stands on its pattern in the world (its
 * "returned" event), and a guard check says cannot get there never does. */
START_TEST(test_off_pattern_as_the_world) {
    char dir[] = "/tmp/patrol-off-XXXXXX", mpath[64], ppath[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(mpath, sizeof mpath, "%s/g.map", dir);
    snprintf(ppath, sizeof ppath, "%s/g.pat", dir);
    enum { W = 18, H = 12 };
    int not_origin = 0, reached = 0;
    for (unsigned seed = 1; seed <= 40; seed++) {
        unsigned s = seed * 2654435761u;
#define RND(n) ((s = s * 1103515245u + 12345u), (int)((s >> 16) % (unsigned)(n)))
        char g[H][W + 1];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int border = x == 0 || y == 0 || x == W - 1 || y == H - 1 || x == 13;
                g[y][x] = border || (x < 13 && RND(100) < 22) ? '#' : '.';
            }
            g[y][W] = '\0';
        }
        g[1][16] = 'E'; /* the player's closet, x 14..16, walled off from the guard */
        FILE *pf = fopen(ppath, "w");
        ck_assert_ptr_nonnull(pf);
        int ox, oy, pw, ph;
        if (seed % 2) {
            pw = 2 + RND(3);
            ph = 2 + RND(2);
            ox = 1 + RND(13 - pw);
            oy = 1 + RND(11 - ph);
            fprintf(pf, "pattern p\n  kind matrix\n  origin %d,%d\n  rows\n", ox, oy);
            for (int y = 0; y < ph; y++) fprintf(pf, "    %.*s\n", pw, "1111");
            fprintf(pf, "  end\nend\n");
        } else {
            pw = 3 + RND(6);
            ph = 1;
            ox = 1 + RND(13 - pw);
            oy = 1 + RND(10);
            fprintf(pf, "pattern p\n  kind path\n  origin %d,%d\n  points %d,%d %d,%d\nend\n", ox, oy, ox, oy, ox + pw - 1,
                    oy);
        }
        fclose(pf);
        for (int y = oy; y < oy + ph; y++)
            for (int x = ox; x < ox + pw; x++) g[y][x] = '.';
        int gx, gy;
        do {
            gx = 1 + RND(12);
            gy = 1 + RND(10);
        } while (g[gy][gx] != '.' || (gx >= ox && gx < ox + pw && gy >= oy && gy < oy + ph));
#undef RND
        FILE *mf = fopen(mpath, "w");
        ck_assert_ptr_nonnull(mf);
        fprintf(mf, "format 1\ntile 'E' exit walkable goal\npatterns g.pat\nplayer at=14,1\nguard g at=%d,%d pattern=p\ngrid\n",
                gx, gy);
        for (int y = 0; y < H; y++) fprintf(mf, "%s\n", g[y]);
        fprintf(mf, "end\n");
        fclose(mf);

        run_result r;
        run(&r, (const char *[]){"check", mpath, NULL});
        ck_assert_msg(r.status == 0, "seed %u: %s", seed, r.err);
        const char *wk = strstr(r.err, "): it walks to ");
        int wx = -1, wy = -1;
        if (wk) ck_assert_int_eq(sscanf(wk, "): it walks to %d,%d", &wx, &wy), 2);
        else ck_assert_msg(strstr(r.err, "): it cannot walk to any cell of it") != NULL, "seed %u: %s", seed, r.err);

        pt_map map;
        pt_patlib lib;
        pt_error err;
        ck_assert_int_eq(pt_map_load(&map, mpath, &err), PT_OK);
        pt_patlib_init(&lib);
        ck_assert_int_eq(pt_patlib_load(&lib, ppath, &err), PT_OK);
        pt_world *w = pt_world_create(&map, &lib, NULL, &err);
        ck_assert_ptr_nonnull(w);
        int rx = -1, ry = -1;
        for (int t = 0; t < 3000 && rx < 0; t++) {
            pt_world_step(w);
            int nev;
            const pt_event *ev = pt_world_events(w, &nev);
            for (int i = 0; i < nev; i++)
                if (ev[i].kind == PT_EVENT_RETURNED && ev[i].a == 1) {
                    rx = ev[i].x;
                    ry = ev[i].y;
                }
        }
        pt_world_destroy(w);
        pt_patlib_fini(&lib);
        pt_map_fini(&map);
        ck_assert_msg(rx == wx && ry == wy, "seed %u: check says %d,%d, the world returns to %d,%d\n%s", seed, wx, wy, rx, ry,
                      r.err);
        reached += rx >= 0;
        not_origin += rx >= 0 && (rx != ox || ry != oy);
    }
    unlink(mpath);
    unlink(ppath);
    rmdir(dir);
    /* The maps test something: most guards reach their pattern, most not at its origin. */
    ck_assert_int_ge(reached, 20);
    ck_assert_int_ge(not_origin, 10);
}
END_TEST

/* A goal tile kind without the walkable flag: said so, not "walled in". */
START_TEST(test_goal_not_walkable) {
    run_result r;
    run(&r, (const char *[]){"check", CD "goalwall.map", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(has_line_starting(r.err, CD "goalwall.map:4:11: warning: goal tile 'G' (gate) cannot be walked on (the "
                                          "first at 5,1): the player never stands on it to win (give the tile kind the "
                                          "walkable flag)"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "walled in") == NULL, "%s", r.err);
}
END_TEST

/* --route on a level list: linted on each of its levels, each error naming the level's map. */
START_TEST(test_route_on_level_list) {
    run_result r;
    run(&r, (const char *[]){"check", "maps/levels.txt", "--route", "patterns/demo_routes.pat:sneak", NULL});
    ck_assert_msg(r.status != 2, "%s", r.err);
    ck_assert_msg(strstr(r.err, "name a map") == NULL, "%s", r.err);
    run(&r, (const char *[]){"check", CD "levels_hall.txt", "--route", HR ":along", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(has_line_starting(r.out, CD "levels_hall.txt: ok (level list, 1 level)"));
    run(&r, (const char *[]){"check", CD "levels_hall.txt", "--route", HR ":into_wall", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " on " CD "../test/hall.map\n"), "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, CD "levels_hall.txt:2:1: error: level 1 (" CD "../test/hall.map) has problems"),
                  "%s", r.err);
}
END_TEST

/* Lint errors of a route or a guard's pattern say which map they were placed on. */
START_TEST(test_lint_names_the_map) {
    run_result r;
    run(&r, (const char *[]){"check", "tests/data/test/hall.map", CD "guardwall.map", "--route", HR ":into_wall", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " on tests/data/test/hall.map\n"), "%s", r.err);
    ck_assert_msg(has_line_starting(r.err, WALL_ERR " on " CD "guardwall.map\n"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "for guard 'g' on " CD "guardwall.map\n") != NULL, "%s", r.err);
}
END_TEST

/* A map and its test file checked together: the map's errors once. */
START_TEST(test_map_errors_once) {
    run_result r;
    for (int order = 0; order < 2; order++) {
        const char *a = order ? CD "broken.test" : CD "broken.map", *b = order ? CD "broken.map" : CD "broken.test";
        run(&r, (const char *[]){"check", a, b, NULL});
        ck_assert_int_eq(r.status, 1);
        const char *first = strstr(r.err, "unknown tile character");
        ck_assert_msg(first && !strstr(first + 1, "unknown tile character"), "twice: %s", r.err);
        ck_assert_msg(has_line_starting(r.err, CD "broken.test:1:5: error: map '" CD
                                               "broken.map' has errors (reported where it is checked)"),
                      "%s", r.err);
    }
    run(&r, (const char *[]){"check", CD "broken.test", NULL}); /* alone: the map's error at the test */
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, CD "broken.map:6:3: error: unknown tile character"), "%s", r.err);
}
END_TEST

/* A FIFO given as the file (no extension: its first line was read to tell its kind, which
 * blocked for ever) or named by a map is refused without reading it. */
START_TEST(test_special_files) {
    static run_result r;
    char dir[1024], fifo[1100], map[1100];
    snprintf(dir, sizeof dir, "%s/check-fifo-XXXXXX", PATROL_BUILD_DIR);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(map, sizeof map, "%s/m.map", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    FILE *f = fopen(map, "w");
    ck_assert_ptr_nonnull(f);
    fputs("player at=1,1\npatterns fifo\ngrid\n###\n#.#\n###\nend\n", f);
    fclose(f);
    char want[2400];
    run(&r, (const char *[]){"check", fifo, NULL});
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof want, "%s: error: cannot read: not a regular file (a FIFO)", fifo);
    ck_assert_msg(has_line_starting(r.err, want), "%s", r.err);
    tu_run_patrol(&r, "sim", (const char *[]){fifo, "--ticks", "1", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, want), "%s", r.err);
    run(&r, (const char *[]){"check", map, NULL});
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof want, "%s:2:10: error: pattern file '%s': cannot read: not a regular file (a FIFO)", map, fifo);
    ck_assert_msg(has_line_starting(r.err, want), "%s", r.err);
    run(&r, (const char *[]){"check", "/dev/null", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(has_line_starting(r.err, "/dev/null: error: cannot read: not a regular file (a device)"), "%s", r.err);
    unlink(map);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

/* The bad recordings of tests/data/bad (listed in its EXPECT with their place: a wrong
 * version, a checksum mismatch, another map, a file cut off): `patrol check` reports each at
 * FILE:LINE:COL and exits 1. */
START_TEST(test_bad_recordings) {
    FILE *f = fopen("tests/data/bad/EXPECT", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char file[128], code[64];
        int ln, col;
        if (line[0] == '#' || sscanf(line, "%127s %63s %d %d", file, code, &ln, &col) != 4) continue;
        size_t len = strlen(file);
        if (len < 4 || strcmp(file + len - 4, ".rec") != 0) continue;
        char path[192], want[256];
        snprintf(path, sizeof path, "tests/data/bad/%s", file);
        snprintf(want, sizeof want, "%s:%d:%d: error: ", path, ln, col);
        const char *args[] = {"check", path, NULL};
        run_result r;
        run(&r, args);
        ck_assert_msg(r.status == 1, "%s: exit %d", file, r.status);
        ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s: expected '%s...', got:\n%s", file, want, r.err);
        ck_assert_str_eq(r.out, "");
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n, 4);
}
END_TEST

static Suite *cli_check_suite(void) {
    Suite *s = suite_create("cli_check");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_broken_map);
    tcase_add_test(core, test_demo_ok);
    tcase_add_test(core, test_entities_as_sim_counts);
    tcase_add_test(core, test_every_kind);
    tcase_add_test(core, test_scripts);
    tcase_add_test(core, test_wrong_kind_for_a_map);
    tcase_add_test(core, test_keeps_going);
    tcase_add_test(core, test_usage);
    tcase_add_test(core, test_bad_recordings);
    tcase_add_test(core, test_routes_are_linted);
    tcase_add_test(core, test_level_lists);
    tcase_add_test(core, test_map_warnings);
    tcase_add_test(core, test_map_errors_once);
    tcase_add_test(core, test_off_pattern_nearest);
    tcase_add_test(core, test_off_pattern_as_the_world);
    tcase_add_test(core, test_goal_not_walkable);
    tcase_add_test(core, test_route_on_level_list);
    tcase_add_test(core, test_lint_names_the_map);
    suite_add_tcase(s, core);
    TCase *special = tcase_create("special");
    tcase_set_timeout(special, 10); /* a read that blocks fails here */
    tcase_add_test(special, test_special_files);
    suite_add_tcase(s, special);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(cli_check_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
