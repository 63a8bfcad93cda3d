/* SPDX-License-Identifier: Zlib */
/* check_render_screens - two screens of issue 36 (item 19): the replay window shows the
 * replay's own keys (its key bar, its F1 panel and its end banner differ from the game's and
 * name its keys), and the level select's background plays after a round as before it (a
 * caught or an escaped round is not left standing behind the list, nor a paused one). And
 * (item 13) M in a menu says what it did, in the menu's footer. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_app.h"

#include "../src/app/game/audio.c"
#include "../src/app/game/play_frame.c"
#include "../src/app/game/play_keys.c"
#include "../src/app/game/play_save.c" /* F6 / F9 */
#include "../src/app/game/play_menu.c"
#include "../src/app/game/progress.c"
#include "../src/app/common/quiet.c"

#define W 960
#define H 600

typedef struct frame_job { play_session *s; play_frame *f; } frame_job;

static int draw_frame(pt_render *r, int w, int h, void *user) {
    const frame_job *j = user;
    return play_draw_frame(j->s, r, j->f, w, h);
}

static SDL_Surface *frame(play_session *s, int help) {
    play_frame f = {.hud = 1, .follow = 1, .speed = 1.0, .help = help};
    frame_job j = {s, &f};
    pt_error err;
    SDL_Surface *out = pt_render_surface_with(W, H, NULL, draw_frame, &j, &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    play_frame_fini(&f);
    SDL_LockSurface(out);
    return out;
}

static long diff_rows(SDL_Surface *a, SDL_Surface *b, int y0, int y1) {
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < W; x++)
            n += ((const Uint32 *)((const Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch))[x] !=
                 ((const Uint32 *)((const Uint8 *)b->pixels + (size_t)y * (size_t)b->pitch))[x];
    return n;
}

static void open_demo(play_session *s) {
    char demo[4096];
    pt_error err;
    snprintf(demo, sizeof demo, "%s/maps/demo.map", PATROL_SOURCE_DIR);
    ck_assert_msg(play_open(s, demo, &err) == 0, "%s", err.message);
}

START_TEST(test_replay_keys) {
    static play_session s;
    static app_rec rec; /* a recording of no ticks: nothing to play, the keys are the point */
    open_demo(&s);
    int top = 0, bottom = 0;
    pt_hud_bars(pt_hud_scale(W, H), &top, &bottom);
    SDL_Surface *game = frame(&s, 0), *game_help = frame(&s, 1);
    s.replay = &rec;
    SDL_Surface *replay = frame(&s, 0), *replay_help = frame(&s, 1);
    /* The key bar: another text. */
    ck_assert_msg(diff_rows(game, replay, H - bottom, H) > 200, "the replay's key bar is the game's");
    play_frame f = {.hud = 1};
    ck_assert_str_eq(keys_hint_for(&s, &f), keys_hint_replay);
    ck_assert_ptr_eq(help_text_for(&s), play_help_text_replay);
    /* Its keys, as cmd_replay.c handles them; none of the game's that a replay ignores. */
    static const char *const named[] = {"P pause", "N one tick", "+/- speed", "Left/Right", "Home/End", "Enter",
                                        "F1 help", "Esc quit"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        ck_assert_msg(strstr(keys_hint_replay, named[i]) != NULL, "the replay's hint lacks %s", named[i]);
    static const char *const not_named[] = {"move", "throw", "restart", "run", "sneak"};
    for (size_t i = 0; i < sizeof not_named / sizeof not_named[0]; i++) {
        ck_assert_msg(strstr(keys_hint_replay, not_named[i]) == NULL, "the replay's hint names %s", not_named[i]);
        ck_assert_msg(strstr(play_help_text_replay, not_named[i]) == NULL, "the replay's help names %s",
                      not_named[i]);
    }
    /* The F1 panel: another panel. */
    ck_assert_msg(diff_rows(game_help, replay_help, top, H - bottom) > 500, "the replay's help is the game's");
    SDL_FreeSurface(game);
    SDL_FreeSurface(game_help);
    SDL_FreeSurface(replay);
    SDL_FreeSurface(replay_help);
    s.replay = NULL;
    play_close(&s);
}
END_TEST

/* A level list of one generated yard with a guard beside the player's start (caught within a
 * second) and one with the exit next to it (escaped on the first step). Played from the level
 * select and ended; back at the level select, the level behind it is a round that runs: its
 * world's tick goes on with play_tick. */
START_TEST(test_level_select_moves_after_round) {
    static play_session s;
    static play_ui ui;
    static play_menus pm;
    static app_rec rec;
    char dir[] = "/tmp/check_render_screens_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char caught[1200], escaped[1200], list[1200];
    snprintf(caught, sizeof caught, "%s/caught.map", dir);
    snprintf(escaped, sizeof escaped, "%s/escaped.map", dir);
    snprintf(list, sizeof list, "%s/levels.txt", dir);
    FILE *f = fopen(caught, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\ntitle \"caught\"\nseed 1\nplayer at=2,2\n"
               "guard g at=4,2 heading=180 view=6 fov=120 speed=2 chase=tile\n"
               "grid\n##########\n#........#\n#........#\n#........#\n#.......E#\n##########\nend\n");
    fclose(f);
    f = fopen(escaped, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\ntitle \"escaped\"\nseed 1\nplayer at=2,2\n"
               "guard g at=7,4 heading=0 view=3 fov=60 speed=2 chase=tile\n"
               "grid\n##########\n#........#\n#..E.....#\n#........#\n#........#\n##########\nend\n");
    fclose(f);
    f = fopen(list, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "caught.map\nescaped.map\n");
    fclose(f);
    pt_error err, why;
    ck_assert_msg(app_levels_load(&pm.levels, list, &err, &why) == 0, "%s", err.message);
    for (int lv = 0; lv < 2; lv++) {
        for (int paused = 0; paused < 2; paused++) {
            memset(&ui, 0, sizeof ui);
            ui.speed = PLAY_SPEED_NORMAL;
            play_opts o = {0};
            int running = 1;
            app_menu_init(&pm.menu, pm.levels.n);
            pm.on = 1;
            pm.shown = -1;
            play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_ENTER), &s, &ui, &o, &rec, &running); /* title -> levels */
            for (int k = 0; k < lv; k++) play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_DOWN), &s, &ui, &o, &rec, &running);
            ck_assert_int_eq(pm.menu.screen, APP_SCREEN_LEVELS);
            ck_assert_int_eq(pm.shown, lv);
            play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_ENTER), &s, &ui, &o, &rec, &running); /* play it */
            ck_assert_int_eq(pm.menu.screen, APP_SCREEN_PLAY);
            if (lv == 1) play_tap(&s, 1, 0); /* onto the exit */
            for (int t = 0; t < 600 && s.round == 0; t++) play_tick(&s, 0, 0);
            ck_assert_int_eq(s.round, lv == 0 ? -1 : 1);
            ui.paused = paused;
            /* Back to the level select: Esc (caught), the result screen's "level list" (escaped). */
            if (lv == 0) {
                play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_BACK), &s, &ui, &o, &rec, &running);
            } else {
                app_menu_escaped(&pm.menu);
                play_menu_did(&pm, APP_MENU_SHOW, &s, &ui, &o, &rec, &running);
                ck_assert_int_eq(pm.menu.screen, APP_SCREEN_RESULT);
                play_menu_did(&pm, app_menu_key(&pm.menu, APP_MENU_BACK), &s, &ui, &o, &rec, &running);
            }
            ck_assert_int_eq(pm.menu.screen, APP_SCREEN_LEVELS);
            uint64_t t0 = pt_world_tick(s.world);
            for (int t = 0; t < 30; t++) play_tick(&s, 0, 0);
            ck_assert_msg(pt_world_tick(s.world) == t0 + 30 && s.round == 0,
                          "level %d (paused %d): behind the level select the world stands still (tick %llu, round %d)",
                          lv, paused, (unsigned long long)pt_world_tick(s.world), s.round);
            ck_assert_msg(!ui.paused, "level %d: the level select's background is paused", lv);
            play_close(&s);
            memset(&s, 0, sizeof s);
        }
    }
    app_levels_fini(&pm.levels);
    unlink(caught);
    unlink(escaped);
    unlink(list);
    rmdir(dir);
}
END_TEST

/* M on the title and the level select: the footer says what it did for a moment, then the
 * footer comes back. */
START_TEST(test_menu_sound_note) {
    static play_ui ui;
    static play_menus pm;
    memset(&ui, 0, sizeof ui);
    ui.audio = app_audio_open(NULL, 1);
    ck_assert_ptr_nonnull(ui.audio);
    app_menu_init(&pm.menu, 0);
    pm.on = 1;
    play_session *none = NULL;
    pt_menu m;
    play_menu_build(&pm, none, &ui, 1.0, &m);
    const char *footer = m.footer;
    ck_assert_ptr_nonnull(footer);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_m;
    int running = 1;
    play_menu_event(&pm, &e, none, &ui, NULL, NULL, NULL, NULL, 1.0, &running);
    play_menu_build(&pm, none, &ui, 1.5, &m);
    ck_assert_msg(strstr(m.footer, "sound off - volume 8/10") != NULL, "footer: %s", m.footer);
    play_menu_event(&pm, &e, none, &ui, NULL, NULL, NULL, NULL, 2.0, &running);
    play_menu_build(&pm, none, &ui, 2.1, &m);
    ck_assert_msg(strstr(m.footer, "sound on - volume 8/10") != NULL, "footer: %s", m.footer);
    play_menu_build(&pm, none, &ui, 5.0, &m);
    ck_assert_str_eq(m.footer, footer);
    app_audio_close(ui.audio);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_screens");
    TCase *tc = tcase_create("screens");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_replay_keys);
    tcase_add_test(tc, test_level_select_moves_after_round);
    tcase_add_test(tc, test_menu_sound_note);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
