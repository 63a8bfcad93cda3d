/* SPDX-License-Identifier: Zlib */
/* check_play_clock - the round's clock (play_clock) starts at the player's first move: the
 * guards walk before it and it stays at 0; from the first step or stone it counts every world
 * tick, never runs backwards, freezes when the round ends, and a replay of the recording
 * shows the same time on every tick. Random players over many seeds and maps (the demo and
 * generated corridors), no hard-coded times. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_app.h"

static char dir[1024];

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/clock-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

/* A corridor map of width w with a guard pacing below the player's row; the exit at the east. */
static void write_corridor(const char *name, int w, unsigned seed) {
    char p[1200], pat[1200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    snprintf(pat, sizeof pat, "%s/%s.pat", dir, name);
    FILE *f = fopen(pat, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "pattern pace\n  kind path\n  points 2,3 %d,3\n  at_end reverse\nend\n", w - 3);
    fclose(f);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\nseed %u\npatterns %s.pat\nplayer at=1,1\nguard g at=2,3 pattern=pace view=4 fov=90\ngrid\n",
            seed, name);
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < w; x++) {
            char c = '#';
            if (y >= 1 && y <= 3 && x >= 1 && x <= w - 2) c = '.';
            if (y == 2 && x > 1 && x < w - 2 && x % 3 == 0) c = '#'; /* pillars between the rows */
            if (y == 1 && x == w - 2) c = 'E';
            fputc(c, f);
        }
        fputc('\n', f);
    }
    fputs("end\n", f);
    fclose(f);
}

static void open_ok(play_session *s, const char *path) {
    pt_error err;
    int rc = play_open(s, path, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
}

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

static const char *map_for(int k, char *buf, size_t cap) {
    if (k % 3 == 0) {
        snprintf(buf, cap, "%s/maps/demo.map", PATROL_SOURCE_DIR);
    } else {
        char name[64];
        snprintf(name, sizeof name, "c%d.map", k);
        write_corridor(name, 12 + k % 9, (unsigned)k * 7u + 1u);
        snprintf(buf, cap, "%s/%s", dir, name);
    }
    return buf;
}

/* Idle for a while (the guards walk, the clock stays at 0), then a random player: the clock
 * starts on the tick of the first move, then goes up by one tick per tick until the round
 * ends, and stays. */
START_TEST(test_clock_starts_at_first_move) {
    for (int k = 0; k < 12; k++) {
        char path[1200];
        map_for(k, path, sizeof path);
        play_session s;
        open_ok(&s, path);
        unsigned st = 77u + (unsigned)k * 131u;
        const double dt = pt_world_dt(s.world);
        int idle = 30 + (int)(rnd(&st) % 400);
        const pt_entity *g = pt_world_entity(s.world, 1);
        double gx0 = g->px, gy0 = g->py;
        for (int t = 0; t < idle; t++) {
            play_tick(&s, 0, 0);
            ck_assert(play_clock(&s) == 0.0);
        }
        g = pt_world_entity(s.world, 1);
        ck_assert_msg(g->px != gx0 || g->py != gy0, "the guards walk before the first move (map %d)", k);
        ck_assert_int_eq(s.started, 0);
        double last = 0.0;
        int moved = 0, dx = 0, dy = 0, ended_at = -1;
        for (int t = 0; t < 3000; t++) {
            if (rnd(&st) % 20 == 0) { /* a new held direction, sometimes none */
                dx = (int)(rnd(&st) % 3) - 1;
                dy = (int)(rnd(&st) % 3) - 1;
            }
            int round_before = s.round;
            if (!moved && (dx || dy)) moved = 1;
            play_tick(&s, dx, dy);
            double c = play_clock(&s);
            ck_assert_msg(c >= last, "the clock ran backwards (map %d tick %d): %g < %g", k, t, c, last);
            if (!moved) ck_assert(c == 0.0);
            else if (round_before == 0) ck_assert_double_eq_tol(c - last, dt, 1e-9);
            else ck_assert(c == last); /* frozen after the round */
            if (s.round != 0 && ended_at < 0) ended_at = t;
            last = c;
        }
        if (moved) ck_assert_int_eq(s.started, 1);
        play_close(&s);
    }
}
END_TEST

/* A stone is a move: it starts the clock too; and a restart sets it back to 0. */
START_TEST(test_throw_starts_the_clock) {
    for (int k = 1; k < 6; k++) {
        char path[1200];
        map_for(k == 3 ? 4 : k, path, sizeof path);
        play_session s;
        open_ok(&s, path);
        for (int t = 0; t < 40 + 13 * k; t++) play_tick(&s, 0, 0);
        ck_assert(play_clock(&s) == 0.0);
        const pt_entity *pl = pt_world_entity(s.world, 0);
        ck_assert_int_eq(play_throw(&s, pl->x + 3, pl->y, NULL, NULL), 1);
        for (int t = 0; t < 10; t++) play_tick(&s, 0, 0);
        ck_assert_double_eq_tol(play_clock(&s), 10 * pt_world_dt(s.world), 1e-9);
        pt_error err;
        ck_assert_int_eq(play_restart(&s, &err), PT_OK);
        ck_assert(play_clock(&s) == 0.0);
        for (int t = 0; t < 30; t++) play_tick(&s, 0, 0);
        ck_assert(play_clock(&s) == 0.0);
        play_close(&s);
    }
}
END_TEST

/* A recording played back shows the same clock on every tick (and so the same time at the
 * end): idle, taps, held keys and stones at random ticks. */
START_TEST(test_replay_same_clock) {
    for (int k = 0; k < 9; k++) {
        char path[1200];
        map_for(k, path, sizeof path);
        play_session s;
        open_ok(&s, path);
        app_rec rec;
        app_rec_init(&rec);
        pt_error err;
        ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
        unsigned st = 5u + (unsigned)k * 1009u;
        enum { T = 1500 };
        static double clocks[T];
        int idle = (int)(rnd(&st) % 300), dx = 0, dy = 0;
        for (int t = 0; t < T; t++) {
            if (t >= idle && rnd(&st) % 25 == 0) {
                dx = (int)(rnd(&st) % 3) - 1;
                dy = (int)(rnd(&st) % 3) - 1;
            }
            if (rnd(&st) % 97 == 0) play_tap(&s, 1, 0);
            if (rnd(&st) % 211 == 0) {
                const pt_entity *pl = pt_world_entity(s.world, 0);
                play_throw(&s, pl->x + (int)(rnd(&st) % 9) - 4, pl->y + (int)(rnd(&st) % 9) - 4, NULL, NULL);
            }
            play_tick(&s, t >= idle ? dx : 0, t >= idle ? dy : 0);
            clocks[t] = play_clock(&s);
        }
        play_session r;
        open_ok(&r, path);
        ck_assert_int_eq(play_replay(&r, &rec, &err), PT_OK);
        for (int t = 0; t < T; t++) {
            play_tick(&r, 0, 0);
            ck_assert_msg(play_clock(&r) == clocks[t], "map %d tick %d: replay %g, played %g", k, t, play_clock(&r),
                          clocks[t]);
        }
        ck_assert_int_eq(r.round, s.round);
        play_close(&r);
        play_close(&s);
        app_rec_fini(&rec);
    }
}
END_TEST

/* A pattern-only reload keeps the clock: still 0 before the first move, going on after. */
START_TEST(test_reload_keeps_clock) {
    char path[1200], pat[1200];
    write_corridor("re.map", 16, 3);
    snprintf(path, sizeof path, "%s/re.map", dir);
    snprintf(pat, sizeof pat, "%s/re.map.pat", dir);
    play_session s;
    open_ok(&s, path);
    pt_error err;
    for (int t = 0; t < 50; t++) play_tick(&s, 0, 0);
    FILE *f = fopen(pat, "w");
    fputs("pattern pace\n  kind path\n  points 2,3 9,3\n  at_end loop\nend\n", f);
    fclose(f);
    ck_assert_int_eq(play_reload(&s, &err), PT_OK);
    ck_assert(play_clock(&s) == 0.0);
    for (int t = 0; t < 50; t++) play_tick(&s, 0, 0);
    ck_assert(play_clock(&s) == 0.0);
    for (int t = 0; t < 20; t++) play_tick(&s, 0, 1);
    double c = play_clock(&s);
    ck_assert(c > 0.0);
    f = fopen(pat, "w");
    fputs("pattern pace\n  kind path\n  points 2,3 8,3\n  at_end reverse\nend\n", f);
    fclose(f);
    ck_assert_int_eq(play_reload(&s, &err), PT_OK);
    ck_assert_double_eq_tol(play_clock(&s), c, 1e-9);
    for (int t = 0; t < 7; t++) play_tick(&s, 0, 0);
    ck_assert_double_eq_tol(play_clock(&s), c + 7 * pt_world_dt(s.world), 1e-9);
    play_close(&s);
}
END_TEST

/* The window's replay of a recording (patrol replay, dummy video) prints the escape with the
 * same time the played round had: its first move came after an idle start. */
START_TEST(test_replay_prints_same_time) {
    int compared = 0;
    for (int k = 1; k < 6; k++) {
        /* A hall of 2 rows, k + 4 tiles long, the exit at its east end; no guard. */
        char path[1200], rec_file[1200], out[1200], cmd[4096];
        snprintf(path, sizeof path, "%s/hall%d.map", dir, k);
        FILE *m = fopen(path, "w");
        ck_assert_ptr_nonnull(m);
        fprintf(m, "format 1\ntitle \"hall %d\"\nplayer at=1,1\ngrid\n", k);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < k + 6; x++)
                fputc(y == 0 || y == 3 || x == 0 || x == k + 5 ? '#' : (y == 2 && x == k + 4) ? 'E' : '.', m);
            fputc('\n', m);
        }
        fputs("end\n", m);
        fclose(m);
        play_session s;
        open_ok(&s, path);
        app_rec rec;
        app_rec_init(&rec);
        pt_error err;
        ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
        int idle = 5 + 9 * k;
        for (int t = 0; t < idle; t++) play_tick(&s, 0, 0);
        for (int t = 0; t < 600 && s.round == 0; t++) play_tick(&s, 1, t % 40 < 20 ? 1 : -1);
        ck_assert_int_eq(s.round, 1);
        char want[128];
        snprintf(want, sizeof want, "in %.2f s\n", play_clock(&s));
        snprintf(rec_file, sizeof rec_file, "%s/p%d.rec", dir, k);
        snprintf(out, sizeof out, "%s/p%d.out", dir, k);
        ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);
        snprintf(cmd, sizeof cmd, "SDL_VIDEODRIVER=dummy '%s' replay '%s' --ticks %llu >'%s' 2>/dev/null", PATROL_BIN,
                 rec_file, (unsigned long long)rec.ticks + 5, out);
        ck_assert_int_eq(system(cmd), 0);
        char text[4096] = "";
        FILE *f = fopen(out, "r");
        ck_assert_ptr_nonnull(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
        ck_assert_msg(strstr(text, "escaped \"") == text, "map %d: %s", k, text);
        ck_assert_msg(strstr(text, want) != NULL, "map %d: want '%s' in %s", k, want, text);
        compared++;
        play_close(&s);
        app_rec_fini(&rec);
    }
    ck_assert_int_eq(compared, 5);
}
END_TEST

static Suite *clock_suite(void) {
    Suite *s = suite_create("play_clock");
    TCase *tc = tcase_create("clock");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_clock_starts_at_first_move);
    tcase_add_test(tc, test_throw_starts_the_clock);
    tcase_add_test(tc, test_replay_same_clock);
    tcase_add_test(tc, test_reload_keeps_clock);
    tcase_add_test(tc, test_replay_prints_same_time);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(clock_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
