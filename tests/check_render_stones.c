/* SPDX-License-Identifier: Zlib */
/* check_render_stones - what the screen shows of the things issue 36 (item 13) found silent:
 * a thrown stone in the air (drawn along its line, moving on as the ticks pass, before it
 * lands), its landing mark (bold: many bright pixels round the landing cell, while the old
 * thin ring of a noise had few), "no stones left" when Space finds none, and a note for the
 * sound keys (M, [ and ]) naming the new state. Drawn headless with the HUD and read back; on
 * generated yards, thrown in each of 8 directions. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>
#include <SDL_image.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_app.h"

#include "../src/app/game/audio.c"
#include "../src/app/common/quiet.c"
#include "../src/app/game/play_frame.c"
#include "../src/app/game/play_keys.c"
#include "../src/app/game/play_save.c" /* F6 / F9 */

#define W 800
#define H 600

typedef struct frame_job { play_session *s; play_frame *f; } frame_job;

static int draw_frame(pt_render *r, int w, int h, void *user) {
    const frame_job *j = user;
    return play_draw_frame(j->s, r, j->f, w, h);
}

static play_frame last; /* where the last frame drew the map */

static SDL_Surface *frame(play_session *s) {
    play_frame f = {.hud = 1, .follow = 1, .speed = 1.0, .overlays = 0};
    frame_job j = {s, &f};
    pt_error err;
    SDL_Surface *out = pt_render_surface_with(W, H, NULL, draw_frame, &j, &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    last = f;
    last.actors = NULL;
    last.cells = NULL;
    last.hearing = NULL;
    play_frame_fini(&f);
    SDL_LockSurface(out);
    return out;
}

static Uint32 pix(SDL_Surface *s, int x, int y) {
    return ((const Uint32 *)((const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
}

/* Pixels between the bars that differ between a and b, with their mean position (map tiles,
 * by `last`). */
static long diff(SDL_Surface *a, SDL_Surface *b, double *mx, double *my) {
    long n = 0;
    double sx = 0, sy = 0;
    int top = 0, bottom = 0;
    pt_hud_bars(pt_hud_scale(W, H), &top, &bottom);
    for (int y = top; y < H - bottom; y++) /* the map's part: not the clock in the top bar */
        for (int x = 0; x < W; x++)
            if (pix(a, x, y) != pix(b, x, y)) n++, sx += x, sy += y;
    if (mx && n) *mx = last.pick_cam_x + (sx / n - last.pick_x) / last.pick_unit;
    if (my && n) *my = last.pick_cam_y + (sy / n - last.pick_y) / last.pick_unit;
    return n;
}

/* Pixels within `rad` tiles of the centre of cell (cx, cy) whose brightness differs by more
 * than 80 (of 255) between a and b: what stands out. */
static long contrast_near(SDL_Surface *a, SDL_Surface *b, int cx, int cy, double rad) {
    long n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double tx = last.pick_cam_x + (x + 0.5 - last.pick_x) / last.pick_unit - (cx + 0.5);
            double ty = last.pick_cam_y + (y + 0.5 - last.pick_y) / last.pick_unit - (cy + 0.5);
            if (tx * tx + ty * ty > rad * rad) continue;
            Uint8 r0, g0, b0, r1, g1, b1;
            SDL_GetRGB(pix(a, x, y), a->format, &r0, &g0, &b0);
            SDL_GetRGB(pix(b, x, y), b->format, &r1, &g1, &b1);
            int l0 = (2 * r0 + 5 * g0 + b0) / 8, l1 = (2 * r1 + 5 * g1 + b1) / 8;
            n += abs(l1 - l0) > 80;
        }
    return n;
}

/* A walled yard of w x h floor tiles, the player in the middle facing `heading` degrees. */
static void open_yard(play_session *s, char *path, int w, int h, int heading) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "format 1\ntitle \"yard\"\ntile_size 16\nseed 5\nplayer at=%d,%d heading=%d\ngrid\n", w / 2, h / 2,
            heading);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) fputc(x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : '.', f);
        fputc('\n', f);
    }
    fprintf(f, "end\n");
    fclose(f);
    pt_error err;
    ck_assert_msg(play_open(s, path, &err) == 0, "%s:%d: %s", err.file, err.line, err.message);
    s->nmsgs = 0; /* no opening hint in the pictures */
}

START_TEST(test_stone_in_flight) {
    static play_session s;
    char path[] = "/tmp/check_render_stones_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (int dir = 1; dir < 9; dir++) {
        open_yard(&s, path, 22, 20, dir * 45);
        const pt_entity *pl = pt_world_entity(s.world, 0);
        int px = pl->x, py = pl->y, lx = 0, ly = 0;
        SDL_Surface *before = frame(&s);
        ck_assert_msg(play_throw_facing(&s, &lx, &ly) == 1, "dir %d: no throw", dir);
        /* In the air at once (the world hears it only in the next step), and on its way: its
         * pixels move from the thrower toward the landing cell as the ticks pass. */
        double prev = -1.0;
        int seen = 0;
        for (int t = 0; t < 12; t += 3) {
            SDL_Surface *now = frame(&s);
            double mx = 0, my = 0;
            long n = diff(before, now, &mx, &my);
            ck_assert_msg(n > 20, "dir %d, tick %d: the stone in the air is not drawn (%ld pixels)", dir, t, n);
            /* how far along the line from the thrower to the landing cell */
            double ux = lx - px, uy = ly - py, along = ((mx - px - 0.5) * ux + (my - py - 0.5) * uy) / (ux * ux + uy * uy);
            ck_assert_msg(along > prev - 0.05, "dir %d, tick %d: the stone went back (%.2f after %.2f)", dir, t, along,
                          prev);
            ck_assert_msg(along < 1.05, "dir %d, tick %d: the stone is past its landing cell (%.2f)", dir, t, along);
            prev = along;
            seen++;
            if (dir == 1 && t == 6 && getenv("CHECK_STONES_PNG")) IMG_SavePNG(now, "/tmp/hui/flight.png");
            SDL_FreeSurface(now);
            for (int k = 0; k < 3; k++) play_tick(&s, 0, 0);
        }
        ck_assert_int_eq(seen, 4);
        /* Landed (0.3 s ago): a bold mark round the landing cell, standing out. */
        for (int k = 0; k < 26; k++) play_tick(&s, 0, 0);
        SDL_Surface *landed = frame(&s);
        long b = contrast_near(before, landed, lx, ly, 1.6);
        if (dir == 1 && getenv("CHECK_STONES_PNG")) IMG_SavePNG(landed, getenv("CHECK_STONES_PNG"));
        ck_assert_msg(b > 250, "dir %d: the landing mark at %d,%d has %ld pixels that stand out", dir, lx, ly, b);
        SDL_FreeSurface(landed);
        /* and gone within PLAY_FLIGHT_KEEP_S */
        for (int k = 0; k < 90; k++) play_tick(&s, 0, 0);
        SDL_Surface *later = frame(&s);
        ck_assert_int_le(contrast_near(before, later, lx, ly, 1.6), 10);
        SDL_FreeSurface(later);
        SDL_FreeSurface(before);
        play_close(&s);
    }
    unlink(path);
}
END_TEST

/* Space with every stone thrown: a message says so (and says it again on each press). */
START_TEST(test_no_stones_left) {
    static play_session s;
    char path[] = "/tmp/check_render_stones_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    open_yard(&s, path, 22, 20, 0);
    for (int i = 0; i < PLAY_STONES; i++) {
        ck_assert_int_eq(play_throw_facing(&s, NULL, NULL), 1);
        for (int k = 0; k < 200; k++) play_tick(&s, 0, 0); /* the flights and their messages gone */
    }
    s.nmsgs = 0;
    SDL_Surface *before = frame(&s);
    ck_assert_int_eq(play_throw_facing(&s, NULL, NULL), 0);
    SDL_Surface *after = frame(&s);
    long n = diff(before, after, NULL, NULL);
    ck_assert_msg(n > 500, "Space with no stones left changed %ld pixels", n);
    ck_assert_msg(s.nmsgs == 1 && strstr(s.msgs[0].text, "no stones"), "the message: %s", s.nmsgs ? s.msgs[0].text : "none");
    for (int k = 0; k < 100; k++) play_tick(&s, 0, 0);
    ck_assert_int_eq(play_throw(&s, 1, 1, NULL, NULL), 0); /* a click: the same, and no second line */
    ck_assert_int_eq(s.nmsgs, 1);
    ck_assert_int_eq(s.msgs[0].ticks, PLAY_MSG_TICKS);
    SDL_FreeSurface(before);
    SDL_FreeSurface(after);
    play_close(&s);
    unlink(path);
}
END_TEST

static void press(play_session *s, play_ui *ui, SDL_Keycode sym) {
    SDL_KeyboardEvent k = {.type = SDL_KEYDOWN, .state = SDL_PRESSED};
    k.keysym.sym = sym;
    k.keysym.scancode = SDL_GetScancodeFromKey(sym);
    ck_assert_int_eq(play_handle_key(s, ui, NULL, &k, 0.0), PLAY_KEY_GO_ON);
}

/* M, [ and ]: each shows a note with the sound's new state; a second note replaces the first,
 * and the opening hint stays. */
START_TEST(test_sound_notes) {
    static play_session s;
    static play_ui ui;
    char demo[4096];
    pt_error err;
    snprintf(demo, sizeof demo, "%s/maps/demo.map", PATROL_SOURCE_DIR);
    ck_assert_msg(play_open(&s, demo, &err) == 0, "%s", err.message);
    memset(&ui, 0, sizeof ui);
    ui.speed = PLAY_SPEED_NORMAL;
    ui.audio = app_audio_open(NULL, 1); /* SDL_AUDIODRIVER=dummy: a device that plays nothing */
    ck_assert_ptr_nonnull(ui.audio);
    int hint = s.nmsgs;
    ck_assert_int_eq(hint, 1);
    SDL_Surface *before = frame(&s);
    press(&s, &ui, SDLK_m);
    SDL_Surface *off = frame(&s);
    ck_assert_msg(diff(before, off, NULL, NULL) > 300, "M changed nothing on screen");
    ck_assert_int_eq(s.nmsgs, hint + 1);
    ck_assert_msg(strstr(s.msgs[s.nmsgs - 1].text, "sound off"), "%s", s.msgs[s.nmsgs - 1].text);
    press(&s, &ui, SDLK_m);
    ck_assert_int_eq(s.nmsgs, hint + 1);
    ck_assert_msg(strstr(s.msgs[s.nmsgs - 1].text, "sound on - volume 8/10"), "%s", s.msgs[s.nmsgs - 1].text);
    press(&s, &ui, SDLK_LEFTBRACKET);
    ck_assert_msg(strstr(s.msgs[s.nmsgs - 1].text, "volume 7/10"), "%s", s.msgs[s.nmsgs - 1].text);
    SDL_Surface *v7 = frame(&s);
    press(&s, &ui, SDLK_RIGHTBRACKET);
    press(&s, &ui, SDLK_RIGHTBRACKET);
    ck_assert_msg(strstr(s.msgs[s.nmsgs - 1].text, "volume 9/10"), "%s", s.msgs[s.nmsgs - 1].text);
    SDL_Surface *v9 = frame(&s);
    ck_assert_msg(diff(v7, v9, NULL, NULL) > 10, "] changed nothing on screen");
    ck_assert_int_eq(s.nmsgs, hint + 1);
    ck_assert_msg(strstr(s.msgs[0].text, "find the glowing exit") && s.intro, "the opening hint went");
    SDL_FreeSurface(before);
    SDL_FreeSurface(off);
    SDL_FreeSurface(v7);
    SDL_FreeSurface(v9);
    app_audio_close(ui.audio);
    play_close(&s);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_stones");
    TCase *tc = tcase_create("stones");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stone_in_flight);
    tcase_add_test(tc, test_no_stones_left);
    tcase_add_test(tc, test_sound_notes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
