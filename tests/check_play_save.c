/* SPDX-License-Identifier: Zlib */
/* patrol play's quick save and quick load (F6 / F9, docs/playing.md "Quick save"): a round
 * loaded from the slot goes on exactly as it went on after the save (the world's trace and the
 * round's counts), and a save of another level, a damaged or a missing slot leave the running
 * round untouched. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_app.h"
#include "../src/app/game/play_save.c"
#include "test_util.h"

static char *ticks_text(play_session *s, int n, int seed) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int t = 0; t < n; t++) {
        int k = (t / 40 + seed) % 5;
        play_tick(s, k == 1 ? 1 : k == 2 ? -1 : 0, k == 3 ? 1 : k == 4 ? -1 : 0);
        pt_world_trace_rows(s->world, f);
        fprintf(f, "round %d spotted %d alarmed %d stones %d clock %.3f\n", s->round, s->spotted, s->alarmed, s->stones,
                play_clock(s));
    }
    fclose(f);
    return buf;
}

START_TEST(test_quick_load_goes_on_exactly) {
    char dir[] = "/tmp/check_play_save_XXXXXX", slot[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(slot, sizeof slot, "%s/quicksave.sav", dir);
    for (int seed = 0; seed < 4; seed++) {
        play_session s;
        pt_error err;
        ck_assert_int_eq(play_open(&s, "maps/demo.map", &err), PT_OK);
        free(ticks_text(&s, 250 + 90 * seed, seed));
        play_throw_facing(&s, NULL, NULL);
        ck_assert_msg(play_quick_save(&s, slot, &err) == PT_OK, "%s", err.message);
        uint64_t at = pt_world_tick(s.world);
        char *after = ticks_text(&s, 400, seed);
        ck_assert_msg(play_quick_load(&s, slot, &err) == PT_OK, "%s", err.message);
        ck_assert_uint_eq(pt_world_tick(s.world), at);
        char *again = ticks_text(&s, 400, seed);
        ck_assert_msg(strcmp(after, again) == 0, "seed %d: the round went on otherwise after the quick load", seed);
        free(after);
        free(again);
        play_close(&s);
    }
    unlink(slot);
    rmdir(dir);
}
END_TEST

START_TEST(test_bad_slots_keep_the_round) {
    char dir[] = "/tmp/check_play_save_XXXXXX", slot[64], bad[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(slot, sizeof slot, "%s/quicksave.sav", dir);
    snprintf(bad, sizeof bad, "%s/bad.sav", dir);
    play_session demo, abbey;
    pt_error err;
    ck_assert_int_eq(play_open(&demo, "maps/demo.map", &err), PT_OK);
    ck_assert_int_eq(play_open(&abbey, "maps/abbey.map", &err), PT_OK);
    free(ticks_text(&demo, 100, 1));
    free(ticks_text(&abbey, 130, 2));
    ck_assert_int_eq(play_quick_save(&demo, slot, &err), PT_OK);
    pt_world *was = abbey.world;
    /* another level */
    ck_assert_int_eq(play_quick_load(&abbey, slot, &err), PT_ERR_MISSING);
    ck_assert_ptr_eq(abbey.world, was);
    ck_assert_uint_eq(pt_world_tick(abbey.world), 130);
    ck_assert_str_eq(abbey.msgs[abbey.nmsgs - 1].text, "that quick save is of another level");
    /* missing */
    ck_assert_int_eq(play_quick_load(&abbey, bad, &err), PT_ERR_IO);
    ck_assert_str_eq(abbey.msgs[abbey.nmsgs - 1].text, "no quick save to load");
    /* damaged: a byte changed */
    FILE *in = fopen(slot, "rb"), *out = fopen(bad, "wb");
    int c, i = 0;
    while ((c = fgetc(in)) != EOF) fputc(i++ == 200 ? c ^ 1 : c, out);
    fclose(in);
    fclose(out);
    ck_assert_int_eq(play_quick_load(&demo, bad, &err), PT_ERR_BAD_VALUE);
    ck_assert_str_eq(demo.msgs[demo.nmsgs - 1].text, "the quick save is damaged");
    ck_assert_uint_eq(pt_world_tick(demo.world), 100);
    free(ticks_text(&abbey, 10, 0));
    ck_assert_uint_eq(pt_world_tick(abbey.world), 140);
    play_close(&demo);
    play_close(&abbey);
    unlink(slot);
    unlink(bad);
    rmdir(dir);
}
END_TEST

int main(void) {
    Suite *s = suite_create("play_save");
    TCase *tc = tcase_create("quick");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_quick_load_goes_on_exactly);
    tcase_add_test(tc, test_bad_slots_keep_the_round);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
