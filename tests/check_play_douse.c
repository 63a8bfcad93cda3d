/* SPDX-License-Identifier: Zlib */
/* check_play_douse - `patrol play`'s douse key (play_douse): refused with a message when no
 * lit light is within reach; a douse puts the light out, plays its cue, goes in the recording
 * as a `douse TICK X Y` line that saves, loads back and replays (the replayed world's light
 * goes out on the same tick, and its trace is the played one); a damaged douse line is a
 * located error. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_app.h"

#include <patrol/light.h>

static char dir[1024];

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", dir, name); }

static void write_file(const char *name, const char *text) {
    char p[1200];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    ck_assert_msg(f != NULL, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
}

static const char *room_map = "format 1\n"
                              "player at=2,2\n"
                              "guard g at=7,3 heading=0 view=3 fov=60 hearing=0.5\n"
                              "grid\n"
                              "##########\n"
                              "#........#\n"
                              "#........#\n"
                              "#........#\n"
                              "##########\n"
                              "end\n";

static int has_cue(play_session *s, play_cue_kind k) {
    int n = 0, found = 0;
    const play_cue *c = play_take_cues(s, &n);
    for (int i = 0; i < n; i++) found |= c[i].kind == k;
    return found;
}

/* The session's world with a torch beside the player (the map's light lines are parsed
 * elsewhere; here the level's map gets one and the round restarts on it). */
static void open_with_torch(play_session *s) {
    char p[1200];
    write_file("d.map", room_map);
    path_in(p, sizeof p, "d.map");
    pt_error err;
    ck_assert_int_eq(play_open(s, p, &err), PT_OK);
    ck_assert_int_eq(play_douse(s), -1); /* none within reach */
    ck_assert(s->nmsgs > 0 && strcmp(s->msgs[s->nmsgs - 1].text, "no light within reach") == 0);
    pt_map *m = &s->level->map;
    m->lights = calloc(1, sizeof *m->lights);
    m->lights[0] = (pt_light_def){.name = "torch", .x = 3, .y = 3, .radius = 4, .level = 1, .on = 1};
    m->nlights = 1;
    m->ambient = 0.2;
    m->ambient_set = 1;
    ck_assert_int_eq(play_restart(s, &err), PT_OK);
    ck_assert_int_eq(pt_world_light_count(s->world), 1);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

START_TEST(test_douse_recorded_and_replayed) {
    snprintf(dir, sizeof dir, "%s/test-out/douse-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
    play_session s;
    open_with_torch(&s);
    app_rec rec;
    app_rec_init(&rec);
    pt_error err;
    ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
    uint64_t at = 0;
    char mine[1200], theirs[1200], rec_file[1200];
    path_in(mine, sizeof mine, "mine.csv");
    path_in(theirs, sizeof theirs, "theirs.csv");
    path_in(rec_file, sizeof rec_file, "d.rec");
    FILE *tr = fopen(mine, "w");
    pt_world_trace_header(tr);
    for (int t = 0; t < 60; t++) {
        if (t == 20) {
            ck_assert_int_eq(play_douse(&s), 0);
            ck_assert(has_cue(&s, PLAY_CUE_DOUSE));
            at = rec.ticks;
            ck_assert_int_eq(play_douse(&s), -1); /* out already */
        }
        play_tick(&s, 0, 0);
        pt_world_trace_rows(s.world, tr);
    }
    fclose(tr);
    pt_light l;
    pt_world_light_get(s.world, 0, &l);
    ck_assert_int_eq(l.on, 0);
    ck_assert_int_eq(rec.nthrows, 1);
    ck_assert_int_eq(rec.throws[0].loudness, 0);
    ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);
    char want[64];
    snprintf(want, sizeof want, "\ndouse %llu 3 3\n", (unsigned long long)at);
    ck_assert_msg(strstr(slurp(rec_file), want) != NULL, "no '%s' in the recording", want + 1);

    app_rec back;
    ck_assert_int_eq(app_rec_load(&back, rec_file, &err), PT_OK);
    ck_assert_int_eq(back.nthrows, 1);
    ck_assert(back.throws[0].tick == at && back.throws[0].loudness == 0 && back.throws[0].x == 3);
    /* Replayed on the same map: the light goes out on the same tick, the trace is the same. */
    pt_world *w = app_rec_world(&back, &s.level->map, &s.level->lib, &err);
    ck_assert_ptr_nonnull(w);
    app_rec_cursor c = {0};
    tr = fopen(theirs, "w");
    pt_world_trace_header(tr);
    for (uint64_t t = 0; app_rec_next(&back, &c, w); t++) {
        pt_light lt;
        pt_world_light_get(w, 0, &lt);
        ck_assert_int_eq(lt.on, t < at);
        pt_world_step(w);
        pt_world_trace_rows(w, tr);
    }
    fclose(tr);
    char *a = strdup(slurp(mine));
    ck_assert_str_eq(a, slurp(theirs));
    free(a);
    pt_world_destroy(w);

    /* A damaged douse line: located at its missing Y. */
    char bad[1 << 12];
    snprintf(bad, sizeof bad, "%s", slurp(rec_file));
    char *d = strstr(bad, "\ndouse ");
    ck_assert_ptr_nonnull(d);
    char *eol = strchr(d + 1, '\n');
    char *sp = eol;
    while (*sp != ' ') sp--;
    memmove(sp, eol, strlen(eol) + 1); /* drop " 3" (Y) */
    write_file("bad.rec", bad);
    char bad_file[1200];
    path_in(bad_file, sizeof bad_file, "bad.rec");
    app_rec broken;
    ck_assert_int_lt(app_rec_load(&broken, bad_file, &err), 0);
    ck_assert_msg(strstr(err.message, "douse TICK X Y") != NULL && err.line > 0 && err.col > 0, "%d:%d %s", err.line,
                  err.col, err.message);
    app_rec_fini(&back);
    app_rec_fini(&rec);
    play_close(&s);
}
END_TEST

static Suite *douse_suite(void) {
    Suite *s = suite_create("play_douse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_douse_recorded_and_replayed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(douse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
