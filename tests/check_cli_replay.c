/* SPDX-License-Identifier: Zlib */
/* check_cli_replay - `patrol sim --replay F.rec` ends with the line play printed for the
 * recorded round: `escaped "TITLE" in S s`, `caught "TITLE" by NAME after S s`, or
 * `unfinished "TITLE" after S s` when the recording (or --ticks) ends first, on the clock
 * that starts at the first move or stone. Recordings of scripted players (idle starts, held
 * keys, taps, stones) on generated corridors with a guard, many seeds; the time and the
 * catcher come from the played session (play_clock), the finished lines are also compared
 * with the window's replay (patrol replay, dummy video). No hard-coded times. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_app.h"
#include "test_cli.h"

static char dir[1024];

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/replay-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

/* Two corridors w long (rows 1 and 3) joined by a gap in the wall between them at x = w / 2:
 * the exit at the east end of row 1, a guard pacing the west end of row 3. A title on odd k
 * (else play shows the map's path). */
static void write_corridor(char *path, size_t cap, int k, int w, int view) {
    char pat[1200];
    snprintf(path, cap, "%s/c%d.map", dir, k);
    snprintf(pat, sizeof pat, "%s/c%d.pat", dir, k);
    FILE *f = fopen(pat, "w");
    ck_assert_ptr_nonnull(f);
    fputs("pattern pace\n  kind path\n  points 2,3 4,3\n  at_end reverse\nend\n", f);
    fclose(f);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\nseed %d\n", 3 + 11 * k);
    if (k % 2) fprintf(f, "title \"corridor %d\"\n", k);
    fprintf(f, "patterns c%d.pat\nplayer at=1,1\nguard g%d at=2,3 pattern=pace view=%d fov=120\ngrid\n", k, k, view);
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < w; x++) {
            char c = '#';
            if ((y == 1 || y == 3) && x >= 1 && x <= w - 2) c = '.';
            if (y == 2 && x == w / 2) c = '.';
            if (y == 1 && x == w - 2) c = 'E';
            fputc(c, f);
        }
        fputc('\n', f);
    }
    fputs("end\n", f);
    fclose(f);
}

/* The last line of text that starts with one of the outcome words ("" when none). */
static void outcome_line(const char *text, char *line, size_t cap) {
    line[0] = '\0';
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!strncmp(p, "escaped \"", 9) || !strncmp(p, "caught \"", 8) || !strncmp(p, "unfinished \"", 12))
            snprintf(line, cap, "%.*s", (int)n, p);
        p += n + (e != NULL);
    }
}

/* What play prints at the end of session s's round (cmd_play.c, no progress kept), or for
 * a round that goes on (round 0) the same with `unfinished`, at clock seconds. */
static void want_line(const play_session *s, int round, double clock, char *line, size_t cap) {
    const char *title = s->level->map.name[0] ? s->level->map.name : s->path;
    if (round > 0) snprintf(line, cap, "escaped \"%s\" in %.2f s", title, clock);
    else if (round < 0)
        snprintf(line, cap, "caught \"%s\" by %s after %.2f s", title, s->caught_by[0] ? s->caught_by : "a guard", clock);
    else snprintf(line, cap, "unfinished \"%s\" after %.2f s", title, clock);
}

/* The file's hashes as docs/formats.md ("Recordings") defines them: map-hash the FNV-1a of
 * the map's bytes; files-hash FNV-1a over each pattern file's (then the steering file's) own
 * hash as 8 bytes, least significant first. */
static uint64_t doc_fnv(uint64_t h, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
static uint64_t doc_file_hash(const char *path) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s", path);
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = doc_fnv(h, buf, n);
    fclose(f);
    return h;
}

START_TEST(test_recording_hashes_as_documented) {
    static const char *const maps[] = {"maps/demo.map", "maps/abbey.map", "maps/fort.map"};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        play_session s;
        pt_error err;
        ck_assert_msg(play_open(&s, maps[m], &err) == PT_OK, "%s", err.message);
        app_rec rec;
        app_rec_init(&rec);
        ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
        for (int t = 0; t < 30; t++) play_tick(&s, 1, 0);
        char dir[1024], file[1200];
        snprintf(dir, sizeof dir, "%s/test-out", PATROL_BUILD_DIR);
        mkdir(dir, 0777);
        snprintf(file, sizeof file, "%s/hash%zu.rec", dir, m);
        ck_assert_int_eq(app_rec_save(&rec, file, &err), PT_OK);
        const pt_map *map = &s.level->map;
        uint64_t fh = 0xcbf29ce484222325ull;
        int nfiles = 0;
        for (int i = 0; i <= map->npattern_files; i++) {
            const char *f = i < map->npattern_files ? map->pattern_files[i] : map->steering_file;
            if (!f[0]) continue;
            uint64_t one = doc_file_hash(f);
            unsigned char le[8];
            for (int k = 0; k < 8; k++) le[k] = (unsigned char)(one >> (8 * k));
            fh = doc_fnv(fh, le, 8);
            nfiles++;
        }
        ck_assert_int_gt(nfiles, 0);
        char want_map[64], want_files[64];
        snprintf(want_map, sizeof want_map, "map-hash %016" PRIx64 "\n", doc_file_hash(maps[m]));
        snprintf(want_files, sizeof want_files, "files-hash %016" PRIx64 "\n", fh);
        static char text[1 << 16];
        FILE *f = fopen(file, "rb");
        ck_assert_ptr_nonnull(f);
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        ck_assert_msg(strstr(text, want_map) != NULL, "%s: want %s in\n%s", maps[m], want_map, text);
        ck_assert_msg(strstr(text, want_files) != NULL, "%s: want %s in\n%s", maps[m], want_files, text);
        app_rec_fini(&rec);
        play_close(&s);
    }
}
END_TEST

START_TEST(test_sim_replay_prints_the_round) {
    int seen[3] = {0, 0, 0}; /* escaped, caught, unfinished */
    for (int k = 0; k < 18; k++) {
        char path[1200], rec_file[1200], line[1024], want[1024], ticks[32];
        unsigned st = 17u + 7919u * (unsigned)k;
        /* k % 3: 0 runs east along row 1 (to the exit), 1 goes through the gap and west to
         * the guard, 2 wanders; each after an idle start, with taps and stones now and then. */
        enum { T = 1500 };
        static double clocks[T + 1];
        int w = 12 + (int)(rnd(&st) % 10);
        write_corridor(path, sizeof path, k, w, 3 + (int)(rnd(&st) % 4));
        play_session s;
        pt_error err;
        ck_assert_msg(play_open(&s, path, &err) == PT_OK, "%s", err.message);
        app_rec rec;
        app_rec_init(&rec);
        ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
        int idle = (int)(rnd(&st) % 200), dx = 0, dy = 0, played = 0;
        int limit = k % 3 == 2 ? 200 + (int)(rnd(&st) % 600) : T;
        clocks[0] = 0.0;
        for (int t = 0; t < limit && s.round == 0; t++) {
            const pt_entity *pl = pt_world_entity(s.world, 0);
            if (t >= idle) {
                if (k % 3 == 0) dx = 1, dy = 0;
                else if (k % 3 == 1) dx = pl->y == 1 ? (pl->x < w / 2) - (pl->x > w / 2) : pl->y == 3 ? -1 : 0, dy = 1;
                else if (rnd(&st) % 20 == 0) dx = (int)(rnd(&st) % 3) - 1, dy = (int)(rnd(&st) % 3) - 1;
            }
            if (t >= idle / 2 && rnd(&st) % 150 == 0) play_tap(&s, 1, 0);
            if (rnd(&st) % 300 == 0) {
                play_throw(&s, pl->x + (int)(rnd(&st) % 7) - 3, pl->y + (int)(rnd(&st) % 5) - 2, NULL, NULL);
            }
            play_tick(&s, t >= idle ? dx : 0, t >= idle ? dy : 0);
            clocks[++played] = play_clock(&s);
        }
        ck_assert_uint_eq(rec.ticks, (uint64_t)played);
        snprintf(rec_file, sizeof rec_file, "%s/r%d.rec", dir, k);
        ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);

        /* The whole recording: the round as it ended (or went on). */
        run_result *r = malloc(sizeof *r);
        ck_assert_ptr_nonnull(r);
        const char *all[] = {"--replay", rec_file, NULL};
        tu_run_patrol(r, "sim", all);
        ck_assert_msg(r->status == 0, "k %d: %s", k, r->err);
        outcome_line(r->out, line, sizeof line);
        want_line(&s, s.round, play_clock(&s), want, sizeof want);
        ck_assert_msg(strcmp(line, want) == 0, "k %d: sim --replay printed '%s', play '%s'", k, line, want);
        seen[s.round > 0 ? 0 : s.round < 0 ? 1 : 2]++;

        /* The window's replay prints the same line for a finished round. */
        if (s.round != 0) {
            snprintf(ticks, sizeof ticks, "%d", played);
            const char *win[] = {rec_file, "--jump", ticks, "--ticks", "1", NULL};
            tu_run_patrol(r, "replay", win);
            ck_assert_msg(r->status == 0, "k %d: %s", k, r->err);
            char wline[1024];
            outcome_line(r->out, wline, sizeof wline);
            ck_assert_msg(strcmp(line, wline) == 0, "k %d: sim --replay '%s', the window '%s'", k, line, wline);
        }

        /* Cut short by --ticks: unfinished, at the session's clock on that tick. */
        int cut = played > 1 ? 1 + (int)(rnd(&st) % (unsigned)(played - 1)) : 0;
        if (cut > 0) {
            snprintf(ticks, sizeof ticks, "%d", cut);
            const char *part[] = {"--replay", rec_file, "--ticks", ticks, NULL};
            tu_run_patrol(r, "sim", part);
            ck_assert_msg(r->status == 0, "k %d: %s", k, r->err);
            outcome_line(r->out, line, sizeof line);
            want_line(&s, 0, clocks[cut], want, sizeof want);
            ck_assert_msg(strcmp(line, want) == 0, "k %d --ticks %d: sim --replay printed '%s', play '%s'", k, cut,
                          line, want);
        }
        free(r);
        play_close(&s);
        app_rec_fini(&rec);
    }
    ck_assert_msg(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "escaped %d, caught %d, unfinished %d", seen[0], seen[1],
                  seen[2]);
}
END_TEST

/* sim --replay -v lists the recorded run's events as sim -v does: one 'tick T KIND ...' line
 * per event of each step, the same events the played session saw (it used to print none). */
START_TEST(test_sim_replay_verbose_lists_events) {
    for (int k = 1; k < 9; k += 3) { /* into the guard's corridor: spotted, caught, phases */
        char path[1200], rec_file[1200];
        unsigned st = 5u + 104729u * (unsigned)k;
        int w = 14 + (int)(rnd(&st) % 6);
        write_corridor(path, sizeof path, k, w, 5);
        play_session s;
        pt_error err;
        ck_assert_msg(play_open(&s, path, &err) == PT_OK, "%s", err.message);
        app_rec rec;
        app_rec_init(&rec);
        ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
        long want[PT_EVENT_COUNT] = {0}, nwant = 0;
        for (int t = 0; t < 1500 && s.round == 0; t++) {
            const pt_entity *pl = pt_world_entity(s.world, 0);
            int dx = pl->y == 1 ? (pl->x < w / 2) - (pl->x > w / 2) : pl->y == 3 ? -1 : 0;
            play_tick(&s, t >= 30 ? dx : 0, t >= 30 ? 1 : 0);
            int nev = 0;
            const pt_event *ev = pt_world_events(s.world, &nev);
            for (int j = 0; j < nev; j++) want[ev[j].kind]++, nwant++;
        }
        snprintf(rec_file, sizeof rec_file, "%s/v%d.rec", dir, k);
        ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);
        run_result *r = malloc(sizeof *r);
        ck_assert_ptr_nonnull(r);
        const char *args[] = {"--replay", rec_file, "-v", NULL};
        tu_run_patrol(r, "sim", args);
        ck_assert_msg(r->status == 0, "k %d: %s", k, r->err);
        long got[PT_EVENT_COUNT] = {0}, ngot = 0;
        for (const char *p = r->out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
            char kind[32];
            if (sscanf(p, "tick %*u %31s", kind) != 1) continue;
            for (int e = 0; e < PT_EVENT_COUNT; e++)
                if (!strcmp(kind, pt_event_kind_name((pt_event_kind)e))) got[e]++, ngot++;
        }
        ck_assert_msg(want[PT_EVENT_SPOTTED] > 0 && want[PT_EVENT_PHASE] > 0, "k %d: the run saw no chase", k);
        ck_assert_msg(ngot == nwant, "k %d: sim --replay -v listed %ld events, the session had %ld:\n%s", k, ngot, nwant,
                      r->out);
        for (int e = 0; e < PT_EVENT_COUNT; e++)
            ck_assert_msg(got[e] == want[e], "k %d: %ld '%s' events listed, %ld in the session", k, got[e],
                          pt_event_kind_name((pt_event_kind)e), want[e]);
        /* and without -v, none */
        const char *quiet[] = {"--replay", rec_file, NULL};
        tu_run_patrol(r, "sim", quiet);
        ck_assert_ptr_null(strstr(r->out, "\ntick "));
        free(r);
        play_close(&s);
        app_rec_fini(&rec);
    }
}
END_TEST

static Suite *replay_suite(void) {
    Suite *s = suite_create("cli_replay");
    TCase *tc = tcase_create("replay");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_sim_replay_prints_the_round);
    tcase_add_test(tc, test_sim_replay_verbose_lists_events);
    tcase_add_test(tc, test_recording_hashes_as_documented);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(replay_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
