/* SPDX-License-Identifier: Zlib */
/* check_render_ending - the ending: the result screen after the last level of the shipped
 * level list (maps/levels.txt) is "THE END" with the count of levels escaped, drawn headless
 * with the menu renderer (gold title pixels, a picture that differs from a middle level's
 * result screen), and written to test-out/ending.png for a look. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_app.h"

static int draw(pt_render *r, int w, int h, void *user) {
    pt_render_menu(r, (const pt_menu *)user, 0, 0, w, h);
    return PT_OK;
}

static const pt_menu_row rows[] = {{"play again", NULL, NULL, 0}, {"level list", NULL, NULL, 0}};

/* The result menu of level i of l as play_menu.c builds it (the rows after the last level). */
static void result_menu(const app_levels *l, int i, int escaped, char *buf, size_t cap, pt_menu *m) {
    const char *title = app_result_text(l, i, l->items[i].title, "time 0:49.8   first escape!\nbadges: GHOST CALM NO-STONES",
                                        escaped, buf, cap);
    *m = (pt_menu){.title = title, .subtitle = buf, .rows = rows, .nrows = 2, .selected = 0,
                   .footer = "Up/Down choose   Enter ok   Esc level list"};
}

static int gold_pixels(SDL_Surface *s) {
    int n = 0;
    SDL_LockSurface(s);
    for (int y = 0; y < s->h; y++) {
        const Uint8 *p = (const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch;
        for (int x = 0; x < s->w; x++) n += p[4 * x] == 0xf2 && p[4 * x + 1] == 0xbe && p[4 * x + 2] == 0x3c;
    }
    SDL_UnlockSurface(s);
    return n;
}

START_TEST(test_ending_drawn) {
    app_levels l;
    pt_error err, why;
    ck_assert_int_eq(app_levels_load(&l, PATROL_SOURCE_DIR "/maps/levels.txt", &err, &why), PT_OK);
    ck_assert_int_ge(l.n, 2);
    char end_text[512], mid_text[512];
    pt_menu end, mid;
    result_menu(&l, l.n - 1, l.n, end_text, sizeof end_text, &end);
    result_menu(&l, 0, 1, mid_text, sizeof mid_text, &mid);
    ck_assert_str_eq(end.title, "THE END");
    ck_assert_ptr_nonnull(strstr(end_text, l.items[l.n - 1].title));
    ck_assert_ptr_nonnull(strstr(end_text, "levels escaped"));
    ck_assert_str_eq(mid.title, "ESCAPED!");
    static const int sizes[][2] = {{960, 600}, {640, 400}, {1600, 900}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        SDL_Surface *a = pt_render_surface_with(w, h, NULL, draw, &end, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        SDL_Surface *b = pt_render_surface_with(w, h, NULL, draw, &mid, &err);
        ck_assert_msg(b != NULL, "%s", err.message);
        ck_assert_msg(gold_pixels(a) > 0, "%dx%d: no title drawn", w, h);
        ck_assert_int_eq(a->h, b->h);
        int differ = 0;
        for (int y = 0; y < a->h && !differ; y++)
            differ = memcmp((const Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch,
                            (const Uint8 *)b->pixels + (size_t)y * (size_t)b->pitch, (size_t)a->w * 4) != 0;
        ck_assert_msg(differ, "%dx%d: the ending looks like any result screen", w, h);
        SDL_FreeSurface(a);
        SDL_FreeSurface(b);
    }
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    ck_assert_int_eq(pt_render_png_with(960, 600, NULL, draw, &end, PATROL_BUILD_DIR "/test-out/ending.png", &err), PT_OK);
    app_levels_fini(&l);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_ending");
    TCase *tc = tcase_create("ending");
    tcase_add_test(tc, test_ending_drawn);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
