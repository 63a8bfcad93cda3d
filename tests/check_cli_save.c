/* SPDX-License-Identifier: Zlib */
/* `patrol sim --save-at T --save F` and `sim --load F`: the trace of one run of N ticks is
 * the first run's rows up to tick T followed by the loaded run's rows, on the demo (a player
 * on its pattern, flocks, catches), on another level with --player-pattern, and on a map
 * with doors with a --script given to both runs; bad saves and bad option combinations are
 * refused. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cli.h"
#include "test_util.h"

#define DEMO PATROL_SOURCE_DIR "/maps/demo.map"
#define FORT PATROL_SOURCE_DIR "/maps/fort.map"
#define ROUTES PATROL_SOURCE_DIR "/patterns/demo_routes.pat"
#define DOORS PATROL_SOURCE_DIR "/tests/data/tmx/doors.map"

static char dir[256];

static void setup(void) {
    snprintf(dir, sizeof dir, "/tmp/check_cli_save_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void run(run_result *r, const char *const *args) { tu_run_patrol(r, "sim", args); }

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* The rows of a trace up to tick `last` (the header included). */
static size_t upto(const char *csv, unsigned long last) {
    const char *l = strchr(csv, '\n') + 1;
    while (*l && strtoul(l, NULL, 10) <= last) l = strchr(l, '\n') + 1;
    return (size_t)(l - csv);
}

static void split_run_script(const char *map, const char *ref, const char *script, long ticks, long at) {
    static run_result r;
    char full[300], first[300], second[300], sav[300], n[32], t[32], m[32];
    snprintf(full, sizeof full, "%s/full.csv", dir);
    snprintf(first, sizeof first, "%s/first.csv", dir);
    snprintf(second, sizeof second, "%s/second.csv", dir);
    snprintf(sav, sizeof sav, "%s/world.sav", dir);
    snprintf(n, sizeof n, "%ld", ticks);
    snprintf(t, sizeof t, "%ld", at);
    snprintf(m, sizeof m, "%ld", ticks - at);
    /* the script (given to each run: --load does not remember it) goes first, so that a NULL
     * ref ends the list */
    const char *sc = script ? "--script" : "-q";
    const char *a1[] = {map, "--ticks", n, "--trace", full, "-q", sc, script ? script : "-q", ref ? "--player-pattern" : NULL, ref, NULL};
    run(&r, a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *a2[] = {map, "--ticks", n, "--save-at", t, "--save", sav, "--trace", first, "-q", sc, script ? script : "-q",
                        ref ? "--player-pattern" : NULL, ref, NULL};
    run(&r, a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *a3[] = {"--load", sav, "--ticks", m, "--trace", second, "--threads", "2", script ? "--script" : NULL, script, NULL};
    run(&r, a3);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, " ticks (") && strstr(r.out, "at tick "), "%s", r.out);
    size_t lf, l1, l2;
    char *cf = slurp(full, &lf), *c1 = slurp(first, &l1), *c2 = slurp(second, &l2);
    /* --save-at does not change the run */
    ck_assert_int_eq(lf, l1);
    ck_assert_int_eq(memcmp(cf, c1, lf), 0);
    size_t head = upto(c1, (unsigned long)at), h2 = (size_t)(strchr(c2, '\n') + 1 - c2);
    ck_assert_int_eq(head + (l2 - h2), lf);
    ck_assert_int_eq(memcmp(cf, c1, head), 0);
    ck_assert_msg(memcmp(cf + head, c2 + h2, l2 - h2) == 0, "%s at %ld: the loaded run's rows differ", map, at);
    /* the rows go on with tick T+1 */
    ck_assert_uint_eq(strtoul(c2 + h2, NULL, 10), (unsigned long)at + 1);
    free(cf);
    free(c1);
    free(c2);
}

static void split_run(const char *map, const char *ref, long ticks, long at) { split_run_script(map, ref, NULL, ticks, at); }

START_TEST(test_split_runs_equal_one_run) {
    setup();
    split_run(DEMO, NULL, 2000, 700);
    split_run(DEMO, NULL, 600, 0);
    split_run(FORT, NULL, 1500, 1111);
    split_run(DEMO, ROUTES ":sneak", 1200, 450);
}
END_TEST

/* A run with a script split by --save-at T and --load with the same script: the loaded run
 * applies only the commands due from tick T on (those before were applied by the first run,
 * and are in the save), so its rows are the whole run's. Commands at T itself, just before
 * it and after it; doors, tiles, noises and the player. */
START_TEST(test_split_runs_with_a_script) {
    setup();
    char script[300];
    snprintf(script, sizeof script, "%s/doors.script", dir);
    FILE *f = fopen(script, "w");
    ck_assert_ptr_nonnull(f);
    fputs("at 0 door 5,1 locked\n"
          "at 100 noise 5,3 12\n"
          "at 299 tile 6,5 '#'\n"
          "at 300 door 5,1 open\n"
          "at 300 door 7,3 locked\n"
          "at 500 door 3,3 open\n"
          "at 10s player 10,5\n"
          "at 800 door 7,3 open\n"
          "at 900 tile 6,5 .\n",
          f);
    fclose(f);
    static const long at[] = {0, 100, 299, 300, 301, 650};
    for (int i = 0; i < 6; i++) split_run_script(DOORS, NULL, script, 1000, at[i]);
}
END_TEST

START_TEST(test_bad_saves_and_options) {
    setup();
    static run_result r;
    char sav[300], cut[300];
    snprintf(sav, sizeof sav, "%s/w.sav", dir);
    snprintf(cut, sizeof cut, "%s/cut.sav", dir);
    run(&r, (const char *[]){DEMO, "--ticks", "100", "--save-at", "50", "--save", sav, "-q", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    size_t len;
    char *data = slurp(sav, &len);
    FILE *f = fopen(cut, "wb");
    fwrite(data, 1, len / 2, f);
    fclose(f);
    free(data);
    run(&r, (const char *[]){"--load", cut, "--ticks", "10", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, ": error: truncated save: ") && strstr(r.err, "(at byte "), "%s", r.err);
    run(&r, (const char *[]){FORT, "--load", sav, "--ticks", "10", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "w.sav: error: the save is of another map"), "%s", r.err);
    run(&r, (const char *[]){"--load", DEMO, "--ticks", "10", NULL});
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "error: not a patrol save: wrong magic"), "%s", r.err);
    /* usage: exit 2 */
    const char *cases[][10] = {
        {DEMO, "--ticks", "10", "--save-at", "5", NULL},
        {DEMO, "--ticks", "10", "--save", sav, NULL},
        {DEMO, "--ticks", "10", "--save-at", "11", "--save", sav, NULL},
        {"--load", sav, "--ticks", "10", "--seed", "3", NULL},
        {"--load", sav, "--ticks", "10", "--save-at", "5", "--save", cut, NULL},
        {"--load", sav, "--ticks", "10", "--replay", "x.rec", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run(&r, cases[i]);
        ck_assert_msg(r.status == 2, "case %zu: exit %d: %s", i, r.status, r.err);
    }
    /* a save of a loaded run, at a tick of the loaded world */
    run(&r, (const char *[]){"--load", sav, "--ticks", "10", "--save-at", "55", "--save", cut, "-q", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    run(&r, (const char *[]){"--load", cut, "--ticks", "10", NULL});
    ck_assert_msg(r.status == 0 && strstr(r.out, "at tick 55,"), "%s%s", r.out, r.err);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cli_save");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_split_runs_equal_one_run);
    tcase_add_test(tc, test_split_runs_with_a_script);
    tcase_add_test(tc, test_bad_saves_and_options);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
