/* SPDX-License-Identifier: Zlib */
/* check_render_menu - the menus' layout (pt_menu_row_at, the mouse's row) over many window
 * sizes, row counts and selections: a line down the middle of the window meets the shown
 * rows in order, consecutive, each a row of the menu, the selected one among them; outside
 * the panel no row. And drawing them headless at those sizes (no crash, pixels drawn). */
#include <check.h>

#include <SDL.h>

#include <patrol/render.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

static char labels[64][48];
static pt_menu_row rows[64];

static void make_menu(pt_menu *m, unsigned *st, int n) {
    for (int i = 0; i < n; i++) {
        int len = 3 + (int)(rnd(st) % 40);
        for (int c = 0; c < len; c++) labels[i][c] = (char)('a' + rnd(st) % 26);
        labels[i][len] = '\0';
        rows[i] = (pt_menu_row){labels[i], rnd(st) % 2 ? "0:41.2" : "new", rnd(st) % 2 ? "GHOST CALM" : NULL, 0};
    }
    *m = (pt_menu){.title = "CHOOSE A LEVEL", .subtitle = "one\ntwo", .rows = rows, .nrows = n,
                   .selected = n > 0 ? (int)(rnd(st) % (unsigned)n) : -1, .prompt = rnd(st) % 2 ? "press Enter" : NULL,
                   .footer = "Up/Down choose   Enter play   Esc back"};
}

START_TEST(test_rows_under_the_pointer) {
    unsigned st = 12345;
    for (int k = 0; k < 400; k++) {
        int w = 320 + (int)(rnd(&st) % 1700), h = 240 + (int)(rnd(&st) % 1000), n = (int)(rnd(&st) % 64);
        pt_menu m;
        make_menu(&m, &st, n);
        int last = -1, seen_selected = 0, runs = 0;
        for (int y = 0; y < h; y++) {
            int row = pt_menu_row_at(&m, 0, 0, w, h, w / 2, y);
            ck_assert_msg(row >= -1 && row < n, "%dx%d n %d: row %d", w, h, n, row);
            if (row >= 0 && row != last) {
                ck_assert_msg(last < 0 || row == last + 1, "%dx%d n %d: row %d after %d", w, h, n, row, last);
                runs++;
                last = row;
            }
            seen_selected |= row == m.selected;
            ck_assert_int_eq(pt_menu_row_at(&m, 0, 0, w, h, 0, y), -1); /* the window's edge: outside the panel */
        }
        if (n > 0) {
            ck_assert_msg(seen_selected, "%dx%d n %d: the selected row %d is not shown", w, h, n, m.selected);
            ck_assert_int_ge(runs, 1);
        } else {
            ck_assert_int_eq(runs, 0);
        }
    }
}
END_TEST

static int draw(pt_render *r, int w, int h, void *user) {
    pt_render_menu(r, (const pt_menu *)user, 0, 0, w, h);
    return PT_OK;
}

START_TEST(test_draw_sizes) {
    unsigned st = 777;
    for (int k = 0; k < 12; k++) {
        int w = 320 + (int)(rnd(&st) % 1200), h = 240 + (int)(rnd(&st) % 600), n = (int)(rnd(&st) % 40);
        pt_menu m;
        make_menu(&m, &st, n);
        m.time = k * 0.37;
        pt_error err;
        SDL_Surface *s = pt_render_surface_with(w, h, NULL, draw, &m, &err);
        ck_assert_msg(s != NULL, "%s", err.message);
        /* The title's gold is somewhere on the surface. */
        int gold = 0;
        SDL_LockSurface(s);
        for (int y = 0; y < s->h && !gold; y++) {
            const Uint8 *p = (const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch;
            for (int x = 0; x < s->w; x++)
                if (p[4 * x] == 0xf2 && p[4 * x + 1] == 0xbe && p[4 * x + 2] == 0x3c) gold = 1;
        }
        SDL_UnlockSurface(s);
        SDL_FreeSurface(s);
        ck_assert_msg(gold, "%dx%d: no title drawn", w, h);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_menu");
    TCase *tc = tcase_create("menu");
    tcase_add_test(tc, test_rows_under_the_pointer);
    tcase_add_test(tc, test_draw_sizes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
