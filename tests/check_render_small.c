/* SPDX-License-Identifier: Zlib */
/* check_render_small - the HUD's help panel, its key hint and the menus in small windows
 * (down to 320 x 240, the smallest a window is made; the help on one page from 480 x 320,
 * the smallest first window), drawn headless and read back: the panel's frame is whole
 * (nothing of it cut off by the window), each line of text lies inside it, and no two
 * lines' pixels share a rectangle; a help too long for the window is on pages that hold
 * each line once, turn round, and each say so; the key hint stays inside the window and keeps
 * its last two items (help, and the way out). The game's own help text and hints, and
 * generated ones, at fixed and generated sizes.
 *
 * A line's pixels are found by drawing the same thing again with that line's characters
 * replaced by spaces (the layout measures characters, so nothing moves): the pixels that
 * differ are the line's, its shadow included. The help's lines, which break at spaces on
 * pages, keep their spaces: their other characters become a ' ', then a '_' (two glyphs
 * with no pixel in common, so each pixel of the line differs from one of them). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <SDL.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_app.h"

#include "../src/app/game/play_frame.c" /* play_help_text, keys_hint, keys_hint_levels */
#include "../src/render/render_internal.h" /* pt__fit_hint */

#define GOLD 0xf2be3cu  /* the panels' frames (and the menus' marks) */
#define HINT 0xc8c8d4u  /* the key hint's letters */
#define PAGE 0x9090a8u  /* the help's page mark */

static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

/* ---- reading a surface ------------------------------------------------------------------ */

typedef struct box { int x0, y0, x1, y1; } box; /* inclusive; x0 > x1: empty */

static const box EMPTY = {1 << 30, 1 << 30, -1, -1};

static int box_empty(box b) { return b.x0 > b.x1; }
static void box_add(box *b, int x, int y) {
    if (x < b->x0) b->x0 = x;
    if (x > b->x1) b->x1 = x;
    if (y < b->y0) b->y0 = y;
    if (y > b->y1) b->y1 = y;
}
static int box_meet(box a, box b) { return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1; }
/* a strictly inside b (not on its edge rows and columns) */
static int box_inside(box a, box b) { return a.x0 > b.x0 && a.x1 < b.x1 && a.y0 > b.y0 && a.y1 < b.y1; }

static Uint32 pixel(SDL_Surface *s, int x, int y) {
    return ((const Uint32 *)((const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
}
static Uint32 rgb(SDL_Surface *s, int x, int y) {
    Uint8 r, g, b;
    SDL_GetRGB(pixel(s, x, y), s->format, &r, &g, &b);
    return (Uint32)r << 16 | (Uint32)g << 8 | b;
}

static box diff_box(SDL_Surface *a, SDL_Surface *b) {
    box d = EMPTY;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++)
            if (pixel(a, x, y) != pixel(b, x, y)) box_add(&d, x, y);
    return d;
}

/* The pixels of one colour inside (x0..x1, y0..y1). */
static box colour_box(SDL_Surface *s, Uint32 c, int x0, int y0, int x1, int y1) {
    box d = EMPTY;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (rgb(s, x, y) == c) box_add(&d, x, y);
    return d;
}

/* 1 when every pixel of the rectangle's edge rows and columns is c: a whole frame. */
static int whole_frame(SDL_Surface *s, box b, Uint32 c) {
    for (int x = b.x0; x <= b.x1; x++)
        if (rgb(s, x, b.y0) != c || rgb(s, x, b.y1) != c) return 0;
    for (int y = b.y0; y <= b.y1; y++)
        if (rgb(s, b.x0, y) != c || rgb(s, b.x1, y) != c) return 0;
    return 1;
}

/* ---- drawing ----------------------------------------------------------------------------- */

static int draw_hud(pt_render *r, int w, int h, void *user) {
    pt_render_hud(r, (const pt_hud *)user, 0, 0, w, h);
    return PT_OK;
}
static int draw_menu(pt_render *r, int w, int h, void *user) {
    pt_render_menu(r, (const pt_menu *)user, 0, 0, w, h);
    return PT_OK;
}

static SDL_Surface *hud_surface(const pt_hud *hud, int w, int h) {
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(w, h, NULL, draw_hud, (void *)hud, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    return s;
}
static SDL_Surface *menu_surface(const pt_menu *m, int w, int h) {
    pt_error err;
    SDL_Surface *s = pt_render_surface_with(w, h, NULL, draw_menu, (void *)m, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    return s;
}

/* Line k of s (0-based) with its characters but '|' and spaces made `c`, into buf. */
static void blank_line(const char *s, int k, char *buf, size_t cap, char c) {
    snprintf(buf, cap, "%s", s);
    char *p = buf;
    for (int i = 0; i < k && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    for (; p && *p && *p != '\n'; p++)
        if (*p != '|' && *p != ' ') *p = c;
}
static int line_count(const char *s) {
    int n = 1;
    for (; *s; s++) n += *s == '\n';
    return n;
}
/* 1 when line k of s has something to draw. */
static int line_inked(const char *s, int k) {
    for (int i = 0; i < k; i++) s = strchr(s, '\n') + 1;
    for (; *s && *s != '\n'; s++)
        if (*s != ' ' && *s != '|') return 1;
    return 0;
}

/* ---- the help panel ---------------------------------------------------------------------- */

/* The help at page `page`: the panel whole, each line drawn on it inside it (clear of its
 * frame: not cut off there) and clear of the others and of the page mark; sets on[k] for the
 * lines drawn. */
static void check_help_page(const char *help, int page, int w, int h, char *on) {
    static box lines[256];
    pt_hud hud = {.help = help, .help_page = page};
    SDL_Surface *full = hud_surface(&hud, w, h);
    SDL_LockSurface(full);
    box panel = colour_box(full, GOLD, 0, 0, w - 1, h - 1);
    ck_assert_msg(!box_empty(panel), "%dx%d: no help panel", w, h);
    ck_assert_msg(whole_frame(full, panel, GOLD), "%dx%d: the help panel's frame (%d,%d)-(%d,%d) is cut off", w, h,
                  panel.x0, panel.y0, panel.x1, panel.y1);
    int t = 1; /* the frame's thickness */
    while (panel.y0 + t < panel.y1 && rgb(full, (panel.x0 + panel.x1) / 2, panel.y0 + t) == GOLD) t++;
    box inner = {panel.x0 + t - 1, panel.y0 + t - 1, panel.x1 - t + 1, panel.y1 - t + 1};
    box mark = colour_box(full, PAGE, panel.x0, panel.y0, panel.x1, panel.y1);
    int n = line_count(help), nb = 0;
    ck_assert_int_lt(n, 256);
    char *buf = malloc(strlen(help) + 1);
    ck_assert_ptr_nonnull(buf);
    for (int k = 0; k < n; k++) {
        on[k] = 0;
        if (!line_inked(help, k)) continue;
        box b = EMPTY;
        for (int pass = 0; pass < 2; pass++) {
            blank_line(help, k, buf, strlen(help) + 1, pass ? '_' : '\'');
            pt_hud without = {.help = buf, .help_page = page};
            SDL_Surface *s = hud_surface(&without, w, h);
            SDL_LockSurface(s);
            box d = diff_box(full, s);
            SDL_UnlockSurface(s);
            SDL_FreeSurface(s);
            if (!box_empty(d)) box_add(&b, d.x0, d.y0), box_add(&b, d.x1, d.y1);
        }
        if (box_empty(b)) continue; /* on another page */
        on[k] = 1;
        ck_assert_msg(box_inside(b, inner), "%dx%d: help line %d (%d,%d)-(%d,%d) is not inside the panel", w, h,
                      k + 1, b.x0, b.y0, b.x1, b.y1);
        ck_assert_msg(box_empty(mark) || !box_meet(b, mark), "%dx%d: help line %d meets the page mark", w, h, k + 1);
        for (int j = 0; j < nb; j++)
            ck_assert_msg(!box_meet(b, lines[j]), "%dx%d: help line %d (%d,%d)-(%d,%d) meets an earlier line", w, h,
                          k + 1, b.x0, b.y0, b.x1, b.y1);
        lines[nb++] = b;
    }
    free(buf);
    SDL_UnlockSurface(full);
    SDL_FreeSurface(full);
    ck_assert_msg(box_empty(mark) || box_inside(mark, inner), "%dx%d: the page mark is not inside the panel", w, h);
}

static int same_surface(SDL_Surface *a, SDL_Surface *b) {
    SDL_LockSurface(a);
    SDL_LockSurface(b);
    int same = box_empty(diff_box(a, b));
    SDL_UnlockSurface(a);
    SDL_UnlockSurface(b);
    return same;
}

/* Every line on exactly one page; the pages turn round (the page after the last is the
 * first, the one before the first the last); more than one: each has its mark. Returns the
 * number of pages. */
static int check_help(const char *help, int w, int h) {
    int n = line_count(help), pages = 1;
    ck_assert_int_lt(n, 256);
    pt_hud hud = {.help = help};
    SDL_Surface *first = hud_surface(&hud, w, h);
    for (; pages < 64; pages++) {
        hud.help_page = pages;
        SDL_Surface *s = hud_surface(&hud, w, h);
        int again = same_surface(first, s);
        SDL_FreeSurface(s);
        if (again) break;
    }
    hud.help_page = -1;
    SDL_Surface *before = hud_surface(&hud, w, h), *last;
    hud.help_page = pages - 1;
    last = hud_surface(&hud, w, h);
    ck_assert_msg(same_surface(before, last), "%dx%d: page -1 is not the last", w, h);
    SDL_FreeSurface(before);
    SDL_FreeSurface(last);
    SDL_FreeSurface(first);
    char seen[256] = {0}, on[256];
    for (int p = 0; p < pages; p++) {
        check_help_page(help, p, w, h, on);
        for (int k = 0; k < n; k++) {
            ck_assert_msg(!(on[k] && seen[k]), "%dx%d: help line %d is on two pages", w, h, k + 1);
            seen[k] |= on[k];
        }
        if (pages > 1) {
            hud.help_page = p;
            SDL_Surface *s = hud_surface(&hud, w, h);
            SDL_LockSurface(s);
            box mark = colour_box(s, PAGE, 0, 0, w - 1, h - 1);
            SDL_UnlockSurface(s);
            SDL_FreeSurface(s);
            ck_assert_msg(!box_empty(mark), "%dx%d: page %d of %d has no page mark", w, h, p + 1, pages);
        }
    }
    for (int k = 0; k < n; k++)
        ck_assert_msg(seen[k] || !line_inked(help, k), "%dx%d: help line %d is on no page", w, h, k + 1);
    return pages;
}

static const int sizes[][2] = {{720, 320}, {480, 320}, {640, 360}, {800, 450}, {1024, 600}, {1280, 720}, {900, 500}};
static const int small[][2] = {{320, 240}, {400, 240}, {320, 300}, {360, 270}, {479, 319}};

START_TEST(test_game_help) {
    /* From 480 x 320 on one page; smaller, on pages. */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        ck_assert_int_eq(check_help(play_help_text, sizes[i][0], sizes[i][1]), 1);
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) check_help(play_help_text, small[i][0], small[i][1]);
    unsigned st = 99;
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(check_help(play_help_text, 480 + (int)(rnd(&st) % 1200), 320 + (int)(rnd(&st) % 600)), 1);
    for (int k = 0; k < 4; k++) check_help(play_help_text, 320 + (int)(rnd(&st) % 160), 240 + (int)(rnd(&st) % 80));
}
END_TEST

/* Generated help: up to `most` lines of up to 54 characters (a column that fits 480 x 320). */
static void make_help(char *buf, size_t cap, unsigned *st, int most) {
    int n = 5 + (int)(rnd(st) % (unsigned)(most - 4)), at = 0;
    for (int i = 0; i < n && at < (int)cap - 80; i++) {
        int kind = (int)(rnd(st) % 10); /* 0: blank, 1: heading, else KEY|what */
        if (i > 0) buf[at++] = '\n';
        if (kind == 0 && i > 0 && i < n - 1) continue;
        int klen = 1 + (int)(rnd(st) % 12), dlen = 5 + (int)(rnd(st) % 36);
        for (int c = 0; c < (kind == 1 ? klen + dlen : klen); c++) buf[at++] = (char)('A' + rnd(st) % 26);
        if (kind == 1) continue;
        buf[at++] = '|';
        for (int c = 0; c < dlen; c++) buf[at++] = c % 6 == 5 ? ' ' : (char)('a' + rnd(st) % 26);
    }
    buf[at] = '\0';
}

START_TEST(test_generated_help) {
    unsigned st = 4242;
    char help[4096];
    for (int k = 0; k < 10; k++) {
        make_help(help, sizeof help, &st, 24);
        ck_assert_int_eq(check_help(help, 480 + (int)(rnd(&st) % 900), 320 + (int)(rnd(&st) % 500)), 1);
    }
    /* Down to the smallest window, and help longer than two columns hold there. */
    for (int k = 0; k < 10; k++) {
        make_help(help, sizeof help, &st, k < 5 ? 24 : 70);
        check_help(help, 320 + (int)(rnd(&st) % 300), 240 + (int)(rnd(&st) % 200));
    }
}
END_TEST

/* ---- the key hint ------------------------------------------------------------------------ */

/* Its items, "   " apart. */
static int items(const char *s, char it[][64], int max) {
    int n = 0;
    while (*s && n < max) {
        const char *sep = strstr(s, "   ");
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        snprintf(it[n++], 64, "%.*s", (int)len, s);
        if (!sep) break;
        s = sep + strspn(sep, " ");
    }
    return n;
}

static void check_hint(const char *keys, int w, int h) {
    pt_hud hud = {.keys = keys};
    SDL_Surface *s = hud_surface(&hud, w, h);
    SDL_LockSurface(s);
    int bar = 0;
    pt_hud_bars(pt_hud_scale(w, h), NULL, &bar);
    box b = colour_box(s, HINT, 0, 0, w - 1, h - 1);
    SDL_UnlockSurface(s);
    SDL_FreeSurface(s);
    ck_assert_msg(!box_empty(b), "%dx%d: no key hint drawn", w, h);
    ck_assert_msg(b.x0 > 0 && b.x1 < w - 1, "%dx%d: the key hint (x %d..%d) is cut off", w, h, b.x0, b.x1);
    ck_assert_msg(b.y0 >= h - bar && b.y1 < h, "%dx%d: the key hint is outside its bar", w, h);

    /* What it draws: the items it keeps are the first ones and the last two, in order. */
    char line[512], in[32][64], out[32][64];
    int ks = pt__fit_hint(keys, pt_hud_scale(w, h), w - 8 * pt_hud_scale(w, h), line, sizeof line);
    int n = items(keys, in, 32), m = items(line, out, 32);
    ck_assert_int_ge(ks, 1);
    ck_assert_int_le(pt__hud_text_w(line, ks), w - 8 * pt_hud_scale(w, h));
    ck_assert_int_le(m, n);
    for (int i = 0; i < m; i++) {
        int from = i < m - 2 || n < 2 ? i : n - (m - i);
        ck_assert_msg(strcmp(out[i], in[from]) == 0, "%d: item %d is '%s', not '%s'", w, i, out[i], in[from]);
    }
    if (n >= 2) ck_assert_int_ge(m, 2);
}

START_TEST(test_hint) {
    for (int w = 320; w <= 2000; w += 40) {
        check_hint(keys_hint, w, 240 + w / 3);
        check_hint(keys_hint_levels, w, 240 + w / 3);
    }
    unsigned st = 5;
    char keys[512];
    for (int k = 0; k < 30; k++) {
        int n = 1 + (int)(rnd(&st) % 12), at = 0;
        for (int i = 0; i < n; i++) {
            if (i) at += snprintf(keys + at, sizeof keys - (size_t)at, "   ");
            int len = 3 + (int)(rnd(&st) % 14);
            for (int c = 0; c < len; c++) keys[at++] = c == len / 2 ? ' ' : (char)('a' + rnd(&st) % 26);
        }
        keys[at] = '\0';
        if (pt__hud_text_w(keys, 1) > 2000) continue;
        /* The last two items alone fit: the hint is then whole at any width it is drawn at. */
        char two[32][64];
        int ni = items(keys, two, 32), need = ni >= 2 ? 6 * ((int)strlen(two[ni - 2]) + 3 + (int)strlen(two[ni - 1])) + 10
                                                    : pt__hud_text_w(keys, 1) + 10;
        int w = need + (int)(rnd(&st) % 1200);
        check_hint(keys, w, 240 + (int)(rnd(&st) % 400));
    }
}
END_TEST

/* The game's hint in a level stays readable: at a HUD scale of 2 or more it is never drawn
 * at scale 1 while its last two items alone fit at 2 (items are left out instead), and its
 * glyphs in the bar are that tall; it keeps as many items as fit. */
START_TEST(test_hint_readable) {
    const char *const hints[] = {keys_hint, keys_hint_levels};
    unsigned st = 77;
    int checked = 0;
    for (int k = 0; k < 40; k++) {
        int w = k == 0 ? 921 : 900 + (int)(rnd(&st) % 1100), h = k == 0 ? 691 : 500 + (int)(rnd(&st) % 500);
        int ts = pt_hud_scale(w, h), room = w - 8 * ts;
        if (ts < 2) continue;
        for (int i = 0; i < 2; i++) {
            char line[512], in[32][64];
            int n = items(hints[i], in, 32);
            char two[160];
            snprintf(two, sizeof two, "%s   %s", in[n - 2], in[n - 1]);
            if (pt__hud_text_w(two, 2) > room) continue;
            int ks = pt__fit_hint(hints[i], ts, room, line, sizeof line);
            ck_assert_msg(ks >= 2, "%dx%d: the hint is drawn at scale %d", w, h, ks);
            /* Not more left out than needed: the next item would not fit. */
            char out[32][64];
            int m = items(line, out, 32);
            if (m < n) {
                char more[2400] = "";
                for (int j = 0; j <= m - 2; j++) strcat(strcat(more, in[j]), "   ");
                strcat(more, two);
                ck_assert_msg(pt__hud_text_w(more, ks) > room, "%dx%d: item %d left out, and it fits", w, h, m - 2);
            }
            pt_hud hud = {.keys = hints[i], .scale = ts};
            SDL_Surface *s = hud_surface(&hud, w, h);
            SDL_LockSurface(s);
            box b = colour_box(s, HINT, 0, 0, w - 1, h - 1);
            SDL_UnlockSurface(s);
            SDL_FreeSurface(s);
            ck_assert_msg(b.y1 - b.y0 + 1 >= 6 * 2, "%dx%d: the hint's letters are %d pixels tall", w, h,
                          b.y1 - b.y0 + 1);
            checked++;
        }
    }
    ck_assert_int_gt(checked, 10);
}
END_TEST

/* ---- the menus --------------------------------------------------------------------------- */

static char labels[64][96], blank_labels[64][96];
static pt_menu_row rows[64], blank_rows[64];

/* A level select: the title, two subtitle lines (the second the widest thing in the panel,
 * as the game's is), rows enough to scroll, a row chosen anywhere. */
static void make_menu(pt_menu *m, unsigned *st, int n) {
    for (int i = 0; i < n; i++) {
        int len = 3 + (int)(rnd(st) % 20);
        for (int c = 0; c < len; c++) labels[i][c] = (char)('a' + rnd(st) % 26);
        labels[i][len] = '\0';
        rows[i] = (pt_menu_row){labels[i], rnd(st) % 2 ? "0:41.2" : "new", rnd(st) % 2 ? "GHOST CALM" : NULL, 0};
    }
    *m = (pt_menu){.title = "CHOOSE A LEVEL",
                   .subtitle = "3 of 12 escaped   best times and badges:\n"
                               "GHOST never spotted   CALM no alarm   NO-STONES none thrown",
                   .rows = rows, .nrows = n, .selected = (int)(rnd(st) % (unsigned)n),
                   .prompt = rnd(st) % 2 ? "press Enter" : NULL,
                   .footer = "Up/Down choose   Enter play   (or click a level)   F1 keys   Esc title"};
}

static char *spaces(const char *s, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", s);
    for (char *p = buf; *p; p++)
        if (*p != '\n') *p = ' ';
    return buf;
}

/* The menu with the parts in `keep` drawn and the others as spaces (1 title, 2 subtitle line
 * 1, 4 line 2, 8 rows, 16 prompt, 32 footer); row_only >= 0: of the rows only that one. */
static SDL_Surface *menu_parts(const pt_menu *m, unsigned keep, int row_only, int w, int h) {
    static char title[64], sub[256], prompt[64], footer[256], det[64][32], mk[64][32];
    pt_menu b = *m;
    if (!(keep & 1)) b.title = spaces(m->title, title, sizeof title);
    if ((keep & 6) != 6) {
        snprintf(sub, sizeof sub, "%s", m->subtitle);
        char *nl = strchr(sub, '\n');
        for (char *p = sub; !(keep & 2) && p < nl; p++) *p = ' ';
        for (char *p = nl + 1; !(keep & 4) && *p; p++) *p = ' ';
        b.subtitle = sub;
    }
    if (m->prompt && !(keep & 16)) b.prompt = spaces(m->prompt, prompt, sizeof prompt);
    if (!(keep & 32)) b.footer = spaces(m->footer, footer, sizeof footer);
    for (int i = 0; i < m->nrows; i++) {
        blank_rows[i] = m->rows[i];
        if ((keep & 8) && (row_only < 0 || row_only == i)) continue;
        blank_rows[i].label = spaces(m->rows[i].label, blank_labels[i], sizeof blank_labels[i]);
        if (m->rows[i].detail) blank_rows[i].detail = spaces(m->rows[i].detail, det[i], sizeof det[i]);
        if (m->rows[i].marks) blank_rows[i].marks = spaces(m->rows[i].marks, mk[i], sizeof mk[i]);
    }
    b.rows = blank_rows;
    return menu_surface(&b, w, h);
}

static void check_menu(const pt_menu *m, int w, int h) {
    box part[80];
    const char *name[80];
    int np = 0;
    SDL_Surface *full = menu_parts(m, ~0u, -1, w, h), *bare = menu_parts(m, 0, -1, w, h);
    SDL_LockSurface(full);
    SDL_LockSurface(bare);
    /* The panel: the outermost gold with no text drawn. */
    box panel = colour_box(bare, GOLD, 0, 0, w - 1, h - 1);
    ck_assert_msg(!box_empty(panel) && whole_frame(bare, panel, GOLD), "%dx%d: the menu's panel is cut off", w, h);
    /* The rows shown, by the pointer's arithmetic. */
    int rows_y0 = -1, rows_y1 = -1, first = -1, last = -1;
    for (int y = 0; y < h; y++) {
        int row = pt_menu_row_at(m, 0, 0, w, h, w / 2, y);
        if (row < 0) continue;
        if (rows_y0 < 0) rows_y0 = y, first = row;
        rows_y1 = y;
        last = row;
    }
    ck_assert_msg(first >= 0, "%dx%d: no row shown", w, h);
    static const struct { unsigned bit; const char *what; } texts[] = {
        {1, "the title"}, {2, "subtitle line 1"}, {4, "subtitle line 2"}, {16, "the prompt"}};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        if (texts[t].bit == 16 && !m->prompt) continue;
        SDL_Surface *s = menu_parts(m, ~0u & ~texts[t].bit, -1, w, h);
        SDL_LockSurface(s);
        part[np] = diff_box(full, s);
        name[np++] = texts[t].what;
        SDL_UnlockSurface(s);
        SDL_FreeSurface(s);
    }
    for (int i = first; i <= last; i++) {
        SDL_Surface *s = menu_parts(m, 8, i, w, h);
        SDL_LockSurface(s);
        part[np] = diff_box(bare, s);
        name[np++] = "a row";
        SDL_UnlockSurface(s);
        SDL_FreeSurface(s);
    }
    /* The scroll marks: the only gold inside the bare panel above and below the rows. */
    int t = 1; /* the panel's frame: at least a pixel */
    while (panel.y0 + t < panel.y1 && rgb(bare, (panel.x0 + panel.x1) / 2, panel.y0 + t) == GOLD) t++;
    if (first > 0) {
        part[np] = colour_box(bare, GOLD, panel.x0 + t, panel.y0 + t, panel.x1 - t, rows_y0 - 1);
        name[np] = "the ^ mark";
        ck_assert_msg(!box_empty(part[np++]), "%dx%d: rows above the list, and no ^", w, h);
    }
    if (last < m->nrows - 1) {
        part[np] = colour_box(bare, GOLD, panel.x0 + t, rows_y1 + 1, panel.x1 - t, panel.y1 - t);
        name[np] = "the v mark";
        ck_assert_msg(!box_empty(part[np++]), "%dx%d: rows below the list, and no v", w, h);
    }
    for (int i = 0; i < np; i++) {
        ck_assert_msg(!box_empty(part[i]), "%dx%d: %s is not drawn", w, h, name[i]);
        ck_assert_msg(box_inside(part[i], panel), "%dx%d: %s (%d,%d)-(%d,%d) is not inside the panel", w, h, name[i],
                      part[i].x0, part[i].y0, part[i].x1, part[i].y1);
        for (int j = 0; j < i; j++)
            ck_assert_msg(!box_meet(part[i], part[j]), "%dx%d: %s (%d,%d)-(%d,%d) meets %s (%d,%d)-(%d,%d)", w, h,
                          name[i], part[i].x0, part[i].y0, part[i].x1, part[i].y1, name[j], part[j].x0, part[j].y0,
                          part[j].x1, part[j].y1);
    }
    /* The footer: inside the window. */
    box f = colour_box(full, HINT, 0, panel.y1 + 1, w - 1, h - 1);
    ck_assert_msg(!box_empty(f) && f.x0 > 0 && f.x1 < w - 1, "%dx%d: the footer is cut off", w, h);
    SDL_UnlockSurface(full);
    SDL_UnlockSurface(bare);
    SDL_FreeSurface(full);
    SDL_FreeSurface(bare);
}

START_TEST(test_menu) {
    unsigned st = 31337;
    static const int fixed[][2] = {{720, 320}, {480, 320}, {320, 240}, {640, 360}};
    for (int k = 0; k < 16; k++) {
        int w, h;
        if (k < 4) w = fixed[k][0], h = fixed[k][1];
        else w = 320 + (int)(rnd(&st) % 900), h = 240 + (int)(rnd(&st) % 300);
        pt_menu m;
        make_menu(&m, &st, 20 + (int)(rnd(&st) % 44));
        check_menu(&m, w, h);
    }
}
END_TEST

/* ---- long level titles ------------------------------------------------------------------- */

/* The menu with one part of row i as spaces (1 label, 2 detail, 4 marks). */
static SDL_Surface *row_part_blank(const pt_menu *m, int i, unsigned what, int w, int h) {
    static char buf[96];
    pt_menu b = *m;
    for (int j = 0; j < m->nrows; j++) blank_rows[j] = m->rows[j];
    pt_menu_row *row = &blank_rows[i];
    if (what == 1) row->label = spaces(m->rows[i].label, buf, sizeof buf);
    if (what == 2) row->detail = spaces(m->rows[i].detail, buf, sizeof buf);
    if (what == 4) row->marks = spaces(m->rows[i].marks, buf, sizeof buf);
    b.rows = blank_rows;
    return menu_surface(&b, w, h);
}

/* Each row shown: its label, time and badges drawn inside the panel and inside the row, in
 * that order from the left, none meeting another: a label too long is shortened, not drawn
 * over the time. */
static void check_row_parts(const pt_menu *m, int w, int h) {
    SDL_Surface *full = menu_surface(m, w, h);
    SDL_LockSurface(full);
    box panel = colour_box(full, GOLD, 0, 0, w - 1, h - 1);
    for (int i = 0; i < m->nrows; i++) {
        int y0 = -1, y1 = -1;
        for (int y = 0; y < h; y++)
            if (pt_menu_row_at(m, 0, 0, w, h, w / 2, y) == i) y1 = y, y0 = y0 < 0 ? y : y0;
        if (y0 < 0) continue; /* scrolled away */
        box part[3];
        static const char *const what[3] = {"the title", "the time", "the badges"};
        for (int k = 0; k < 3; k++) {
            part[k] = EMPTY;
            if (k == 1 && !m->rows[i].detail) continue;
            if (k == 2 && !m->rows[i].marks) continue;
            SDL_Surface *s = row_part_blank(m, i, 1u << k, w, h);
            SDL_LockSurface(s);
            part[k] = diff_box(full, s);
            SDL_UnlockSurface(s);
            SDL_FreeSurface(s);
            if (k == 2 && box_empty(part[k])) continue; /* the badges may give way */
            ck_assert_msg(!box_empty(part[k]), "%dx%d row %d: %s is not drawn", w, h, i, what[k]);
            ck_assert_msg(box_inside(part[k], panel), "%dx%d row %d: %s (%d,%d)-(%d,%d) is not inside the panel", w,
                          h, i, what[k], part[k].x0, part[k].y0, part[k].x1, part[k].y1);
            ck_assert_msg(part[k].y0 >= y0 && part[k].y1 <= y1, "%dx%d row %d: %s is not inside its row", w, h, i,
                          what[k]);
        }
        for (int k = 1; k < 3; k++)
            for (int j = 0; j < k; j++)
                if (!box_empty(part[k]) && !box_empty(part[j]))
                    ck_assert_msg(part[j].x1 < part[k].x0, "%dx%d row %d: %s (x %d..%d) runs into %s (x %d..%d)", w,
                                  h, i, what[j], part[j].x0, part[j].x1, what[k], part[k].x0, part[k].x1);
    }
    SDL_UnlockSurface(full);
    SDL_FreeSurface(full);
}

START_TEST(test_long_titles) {
    static const char *const times[] = {"0:41.2", "new", "12:03.4", "1:00.0"};
    static const char *const badges[] = {NULL, "GHOST", "GHOST CALM", "GHOST CALM NO-STONES", "CALM NO-STONES"};
    static const int fixed[][2] = {{320, 240}, {480, 320}, {640, 360}, {800, 450}};
    unsigned st = 2718;
    for (int k = 0; k < 10; k++) {
        int n = 4 + (int)(rnd(&st) % 30);
        for (int i = 0; i < n; i++) {
            /* As the level list writes them: "%2d  TITLE", titles of words up to 76 letters. */
            int len = 4 + (int)(rnd(&st) % 72), at = snprintf(labels[i], sizeof labels[i], "%2d  ", i + 1);
            for (int c = 0; c < len && at < (int)sizeof labels[i] - 1; c++) {
                char ch = rnd(&st) % 6 == 0 && c > 0 && labels[i][at - 1] != ' ' ? ' ' : (char)('a' + rnd(&st) % 26);
                labels[i][at++] = ch;
            }
            labels[i][at] = '\0';
            rows[i] = (pt_menu_row){labels[i], times[rnd(&st) % 4], badges[rnd(&st) % 5], (int)(rnd(&st) % 2)};
        }
        pt_menu m = {.title = "CHOOSE A LEVEL", .subtitle = "3 of 12 escaped   best times and badges:\nGHOST never spotted",
                     .rows = rows, .nrows = n, .selected = (int)(rnd(&st) % (unsigned)n),
                     .footer = "Up/Down choose   Enter play   F1 keys   Esc title"};
        int w = k < 4 ? fixed[k][0] : 320 + (int)(rnd(&st) % 700), h = k < 4 ? fixed[k][1] : 240 + (int)(rnd(&st) % 300);
        check_row_parts(&m, w, h);
        check_menu(&m, w, h);
    }
}
END_TEST

/* ---- the messages and the edge markers ------------------------------------------------------ */

#define CALM 0xe6e6f0u /* a calm guard's arrow */

typedef struct frame_job { play_session *s; play_frame *f; } frame_job;

static int draw_frame(pt_render *r, int w, int h, void *user) {
    const frame_job *j = user;
    return play_draw_frame(j->s, r, j->f, w, h);
}
static SDL_Surface *frame_surface(play_session *s, int w, int h) {
    play_frame f = {.hud = 1, .follow = 1, .speed = 1.0};
    frame_job j = {s, &f};
    pt_error err;
    SDL_Surface *out = pt_render_surface_with(w, h, NULL, draw_frame, &j, &err);
    ck_assert_msg(out != NULL, "%s", err.message);
    play_frame_fini(&f);
    return out;
}

static int near_rgb(Uint32 a, Uint32 b) {
    for (int sh = 0; sh < 24; sh += 8) {
        int d = (int)((a >> sh) & 0xffu) - (int)((b >> sh) & 0xffu);
        if (d < -1 || d > 1) return 0;
    }
    return 1;
}

/* The boxes of the messages shown (their text found as the help's lines are, padded by the
 * box's margins), and the calm guards' arrows drawn with the messages all but transparent
 * (so nothing covers them, and nothing moves): no arrow pixel in a box. Returns the arrow
 * pixels in the boxes' columns (the case the check is about). */
static long check_msgs_clear(play_session *s, int w, int h) {
    SDL_Surface *full = frame_surface(s, w, h);
    SDL_LockSurface(full);
    box boxes[PLAY_MSGS];
    int nb = 0;
    for (int i = 0; i < s->nmsgs; i++) {
        char keep[sizeof s->msgs[i].text];
        memcpy(keep, s->msgs[i].text, sizeof keep);
        box t = EMPTY;
        for (int pass = 0; pass < 2; pass++) {
            for (char *p = s->msgs[i].text; *p; p++)
                if (*p != ' ') *p = pass ? '_' : '\'';
            SDL_Surface *o = frame_surface(s, w, h);
            SDL_LockSurface(o);
            box d = diff_box(full, o);
            SDL_UnlockSurface(o);
            SDL_FreeSurface(o);
            if (!box_empty(d)) box_add(&t, d.x0, d.y0), box_add(&t, d.x1, d.y1);
            memcpy(s->msgs[i].text, keep, sizeof keep);
        }
        if (box_empty(t)) continue;
        int ms = (t.y1 - t.y0 + 1 + 4) / 9; /* the glyphs' 8 rows and the shadow's */
        if (ms < 1) ms = 1;
        boxes[nb++] = (box){t.x0 - 3 * ms, t.y0 - 2 * ms, t.x1 + 3 * ms, t.y1 + 2 * ms};
    }
    SDL_UnlockSurface(full);
    SDL_FreeSurface(full);
    ck_assert_msg(nb > 0, "%dx%d: no message shown", w, h);
    uint32_t rgba[PLAY_MSGS];
    for (int i = 0; i < s->nmsgs; i++) {
        rgba[i] = s->msgs[i].rgba;
        s->msgs[i].rgba = (rgba[i] & 0xffffff00u) | 1u;
    }
    SDL_Surface *f = frame_surface(s, w, h);
    for (int i = 0; i < s->nmsgs; i++) s->msgs[i].rgba = rgba[i];
    SDL_LockSurface(f);
    long cols = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (!near_rgb(rgb(f, x, y), CALM)) continue;
            for (int b = 0; b < nb; b++) {
                ck_assert_msg(!box_meet((box){x, y, x, y}, boxes[b]),
                              "%dx%d: a guard's arrow (%d,%d) under the message (%d,%d)-(%d,%d)", w, h, x, y,
                              boxes[b].x0, boxes[b].y0, boxes[b].x1, boxes[b].y1);
                cols += x >= boxes[b].x0 && x <= boxes[b].x1;
            }
        }
    SDL_UnlockSurface(f);
    SDL_FreeSurface(f);
    return cols;
}

START_TEST(test_msgs_and_arrows) {
    static const char *const maps[] = {"maps/demo.map", "maps/abbey.map", "maps/fort.map"};
    static const int fixed[][2] = {{480, 320}, {480, 400}, {480, 270}, {320, 240}, {640, 360}, {800, 450}, {1024, 600}};
    static play_session s;
    long in_cols = 0;
    unsigned st = 1414;
    for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
        char path[4096];
        pt_error err;
        snprintf(path, sizeof path, "%s/%s", PATROL_SOURCE_DIR, maps[mi]);
        ck_assert_msg(play_open(&s, path, &err) == 0, "%s", err.message);
        for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] + 3; k++) {
            int w = k < sizeof fixed / sizeof fixed[0] ? fixed[k][0] : 320 + (int)(rnd(&st) % 800);
            int h = k < sizeof fixed / sizeof fixed[0] ? fixed[k][1] : 240 + (int)(rnd(&st) % 500);
            in_cols += check_msgs_clear(&s, w, h);
        }
        play_close(&s);
    }
    ck_assert_msg(in_cols > 0, "no guard's arrow in a message's columns: the check checked nothing");
}
END_TEST

typedef struct menu_job { play_session *s; play_frame *f; } menu_job;
static int draw_behind(pt_render *r, int w, int h, void *user) {
    menu_job *j = user;
    return play_draw_behind_menu(j->s, r, j->f, w, h);
}
static int draw_plain(pt_render *r, int w, int h, void *user) {
    menu_job *j = user;
    return play_draw_frame(j->s, r, j->f, w, h);
}

/* The exit pointer pulses but stays readable: at every tick of a pulse's period (ticks
 * 0..59) its pixels are a strong gold (red high, blue well below it), never faded into the
 * map (a translucent gold on grass read as a faint olive). Demo map, the exit off screen. */
START_TEST(test_exit_pointer_pulse) {
    static play_session s;
    char path[4096];
    pt_error err;
    snprintf(path, sizeof path, "%s/maps/demo.map", PATROL_SOURCE_DIR);
    ck_assert_msg(play_open(&s, path, &err) == 0, "%s", err.message);
    s.nmsgs = 0; /* the intro's gold letters aside */
    int w = 480, h = 320, top = 0, bottom = 0, least = 1 << 30;
    pt_hud_bars(pt_hud_scale(w, h), &top, &bottom);
    for (int t = 0; t < 60; t++) {
        s.ticks = (uint64_t)t;
        int n[2] = {0, 0}, ngoals = s.level->ngoals;
        for (int k = 0; k < 2; k++) { /* k 1: the same frame with no exit to point at */
            s.level->ngoals = k ? 0 : ngoals;
            SDL_Surface *f = frame_surface(&s, w, h);
            s.level->ngoals = ngoals;
            SDL_LockSurface(f);
            for (int y = top + 1; y < h - bottom; y++)
                for (int x = 0; x < w; x++) {
                    Uint32 c = rgb(f, x, y);
                    int r = (int)(c >> 16), g = (int)((c >> 8) & 0xff), b = (int)(c & 0xff);
                    n[k] += r >= 0xe0 && g >= 0xa8 && b <= r - 0x50;
                }
            SDL_UnlockSurface(f);
            SDL_FreeSurface(f);
        }
        if (n[0] - n[1] < least) least = n[0] - n[1];
    }
    play_close(&s);
    ck_assert_msg(least >= 20, "at one tick only %d gold pixels of the exit pointer", least);
}
END_TEST

/* Behind a menu (the title, the level select) the level shows without the debug overlays
 * and without the HUD: the same picture as the level drawn with the view cones alone; the
 * frame's settings are as they were after. */
START_TEST(test_behind_menu) {
    static const char *const maps[] = {"maps/demo.map", "maps/abbey.map"};
    static play_session s;
    for (size_t mi = 0; mi < 2; mi++) {
        char path[4096];
        pt_error err;
        snprintf(path, sizeof path, "%s/%s", PATROL_SOURCE_DIR, maps[mi]);
        ck_assert_msg(play_open(&s, path, &err) == 0, "%s", err.message);
        for (int t = 0; t < 90; t++) play_tick(&s, 1, 0);
        play_frame menu = {.overlays = PT_OVERLAY_DEBUG | PT_OVERLAY_GRID, .hud = 1, .follow = 1, .speed = 1.0};
        play_frame plain = {.overlays = PT_OVERLAY_CONES, .hud = 0, .follow = 1, .speed = 1.0};
        menu_job mj = {&s, &menu}, pj = {&s, &plain};
        pt_error e2;
        SDL_Surface *a = pt_render_surface_with(640, 400, NULL, draw_behind, &mj, &e2);
        ck_assert_msg(a != NULL, "%s", e2.message);
        SDL_Surface *b = pt_render_surface_with(640, 400, NULL, draw_plain, &pj, &e2);
        ck_assert_msg(b != NULL, "%s", e2.message);
        ck_assert_msg(same_surface(a, b), "%s: debug overlays or the HUD drawn behind a menu", maps[mi]);
        ck_assert_uint_eq(menu.overlays, PT_OVERLAY_DEBUG | PT_OVERLAY_GRID);
        ck_assert_int_eq(menu.hud, 1);
        SDL_FreeSurface(a);
        SDL_FreeSurface(b);
        play_frame_fini(&menu);
        play_frame_fini(&plain);
        play_close(&s);
    }
}
END_TEST

/* The debug readout (frame times, over the bottom bar's left end) covers little of the map:
 * on a strip no taller than its text and a glyph pixel above and below, that lets the map
 * through (over white, no pixel of it darker than 60% grey). */
typedef struct perf_job { const pt_hud *hud; } perf_job;
static int draw_on_white(pt_render *r, int w, int h, void *user) {
    SDL_SetRenderDrawColor(r->sdl, 255, 255, 255, 255);
    SDL_RenderClear(r->sdl);
    pt_render_hud(r, ((perf_job *)user)->hud, 0, 0, w, h);
    return PT_OK;
}

START_TEST(test_perf_small) {
    const char *perf = "frame 5.2 ms (worst 6.9)  cpu 5.0 ms (worst 6.7)";
    unsigned st = 8;
    for (int k = 0; k < 8; k++) {
        int w = k == 0 ? 921 : 900 + (int)(rnd(&st) % 1200), h = k == 0 ? 691 : 500 + (int)(rnd(&st) % 600);
        int ts = pt_hud_scale(w, h), bar = 0;
        pt_hud_bars(ts, NULL, &bar);
        pt_hud with = {.keys = keys_hint, .perf = perf}, without = {.keys = keys_hint};
        perf_job pa = {&with}, pb = {&without};
        pt_error err;
        SDL_Surface *a = pt_render_surface_with(w, h, NULL, draw_on_white, &pa, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        SDL_Surface *b = pt_render_surface_with(w, h, NULL, draw_on_white, &pb, &err);
        ck_assert_msg(b != NULL, "%s", err.message);
        SDL_LockSurface(a);
        SDL_LockSurface(b);
        box d = diff_box(a, b);
        ck_assert_msg(!box_empty(d), "%dx%d: no readout", w, h);
        ck_assert_msg(d.y1 - d.y0 + 1 <= (PT_GLYPH_PX + 2) * ts, "%dx%d: the readout is %d pixels tall", w, h,
                      d.y1 - d.y0 + 1);
        ck_assert_msg(d.y1 < h - bar, "%dx%d: the readout is over the key bar", w, h);
        for (int y = d.y0; y <= d.y1; y++)
            for (int x = d.x0; x <= d.x1; x++) {
                Uint32 c = rgb(a, x, y);
                ck_assert_msg((c >> 16) >= 0x99 || ((c >> 8) & 0xff) >= 0x99, "%dx%d: the readout's strip at (%d,%d) is %06x",
                              w, h, x, y, (unsigned)c);
            }
        SDL_UnlockSurface(a);
        SDL_UnlockSurface(b);
        SDL_FreeSurface(a);
        SDL_FreeSurface(b);
    }
}
END_TEST

/* The box of message i as the frame draws it: what changes when it is all but transparent
 * (its dark box and its letters; nothing moves). Empty when it shows none. */
static box msg_box(play_session *s, int i, int w, int h) {
    SDL_Surface *full = frame_surface(s, w, h);
    uint32_t keep = s->msgs[i].rgba;
    s->msgs[i].rgba = (keep & 0xffffff00u) | 1u;
    SDL_Surface *o = frame_surface(s, w, h);
    s->msgs[i].rgba = keep;
    SDL_LockSurface(full);
    SDL_LockSurface(o);
    box d = diff_box(full, o);
    SDL_UnlockSurface(o);
    SDL_UnlockSurface(full);
    SDL_FreeSurface(o);
    SDL_FreeSurface(full);
    return d;
}

/* The output rectangle of tile (x, y) in the frame frame_surface draws (the camera as
 * play_draw_frame sets it). */
static box tile_box(play_session *s, int w, int h, double x0, double y0, double x1, double y1) {
    const pt_map *map = pt_world_map(s->world);
    int top = 0, bottom = 0;
    pt_hud_bars(pt_hud_scale(w, h), &top, &bottom);
    if (h - top - bottom < h / 2) top = bottom = 0;
    pt_view v = {0};
    pt_view_fit(&v, map, w, h - top - bottom, 0, 0);
    v.y = top;
    const pt_entity *pl = pt_world_entity(s->world, 0);
    pt_view_follow(&v, map, pl->x + 0.5, pl->y + 0.5);
    double ax, ay, bx, by;
    pt_view_to_px(map, &v, x0, y0, &ax, &ay);
    pt_view_to_px(map, &v, x1, y1, &bx, &by);
    return (box){(int)ax, (int)ay, (int)bx - 1, (int)by - 1};
}

/* The opening hint on small generated yards (the whole map on screen): it speaks of the gold
 * arrow only when there is one (the exit off screen: the demo), and its box hides neither the
 * exit (on the top row, anywhere along it) nor the player (on the bottom row, at the left or
 * the right): under the top bar when that is clear, else low, above the key bar. */
START_TEST(test_intro_hint) {
    static play_session s;
    unsigned st = 6060;
    char path[] = "/tmp/check_render_small_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    int low = 0, high = 0;
    for (int k = 0; k < 10; k++) {
        int mw = 14 + (int)(rnd(&st) % 16), mh = 8 + (int)(rnd(&st) % 6);
        int ex = 1 + (int)(rnd(&st) % (unsigned)(mw - 2)), px = k % 2 ? 1 : mw - 2;
        if (k < 2) ex = mw / 2; /* right under the middle of the hint */
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "format 1\ntitle \"yard\"\ntile_size 16\nseed 3\nplayer at=%d,%d heading=0\ngrid\n", px, mh - 2);
        for (int y = 0; y < mh; y++) {
            for (int x = 0; x < mw; x++)
                fputc(y == 0 && x == ex ? 'E' : (x == 0 || y == 0 || x == mw - 1 || y == mh - 1) ? '#' : '.', f);
            fputc('\n', f);
        }
        fprintf(f, "end\n");
        fclose(f);
        pt_error err;
        ck_assert_msg(play_open(&s, path, &err) == 0, "%s:%d: %s", err.file, err.line, err.message);
        int w = 16 * mw * 2, h = 16 * mh * 2, tb = 0, bb = 0; /* scale 2: the map fills the view */
        pt_hud_bars(pt_hud_scale(w, h + 30), &tb, &bb);
        h += tb + bb;
        box b = msg_box(&s, 0, w, h);
        ck_assert_msg(!box_empty(b), "%d: no opening hint", k);
        int ts = pt_hud_scale(w, h);
        ck_assert_msg(b.x1 - b.x0 + 1 <= pt__hud_text_w("find the glowing exit", ts + 1) + 7 * (ts + 1),
                      "%d: %dx%d: the hint (%d wide) speaks of an arrow, and the exit is in view", k, w, h,
                      b.x1 - b.x0 + 1);
        box exit = tile_box(&s, w, h, ex, 0, ex + 1, 1);
        const pt_entity *pl = pt_world_entity(s.world, 0);
        box me = tile_box(&s, w, h, pl->x, pl->y, pl->x + 1, pl->y + 1);
        ck_assert_msg(!box_meet(b, exit), "%d: %dx%d: the hint (%d,%d)-(%d,%d) hides the exit (%d,%d)-(%d,%d)", k, w, h,
                      b.x0, b.y0, b.x1, b.y1, exit.x0, exit.y0, exit.x1, exit.y1);
        ck_assert_msg(!box_meet(b, me), "%d: %dx%d: the hint hides the player", k, w, h);
        if (b.y0 > h / 2) low++;
        else high++;
        play_close(&s);
    }
    unlink(path);
    ck_assert_msg(low > 0 && high > 0, "the hint was always %s", low ? "low" : "high");
    /* The demo, the exit off screen: the arrow is named. */
    char demo[4096];
    pt_error err;
    snprintf(demo, sizeof demo, "%s/maps/demo.map", PATROL_SOURCE_DIR);
    ck_assert_msg(play_open(&s, demo, &err) == 0, "%s", err.message);
    box b = msg_box(&s, 0, 640, 400);
    ck_assert_int_gt(b.x1 - b.x0 + 1, pt__hud_text_w("find the glowing exit - follow the gold", 1));
    /* Once the player walks it soon fades (it hides a band of the map), well before its
     * PLAY_INTRO_TICKS. */
    int t = 0;
    for (; t < PLAY_INTRO_TICKS && s.nmsgs > 0 && strncmp(s.msgs[0].text, "find the glowing exit", 21) == 0; t++)
        play_tick(&s, t < 30 ? 1 : 0, t < 30 ? 0 : -1);
    ck_assert_msg(t <= 30 + 120, "the opening hint stayed %d ticks while the player walked", t);
    play_close(&s);
}
END_TEST

/* The opening hint and a guard: on generated yards where neither place of the hint hides the
 * exit (on the east wall) or the player (the bottom-left corner), a guard standing under the
 * top bar's hint moves it low, and one standing above the key bar keeps it high. */
START_TEST(test_intro_hint_guard) {
    static play_session s;
    unsigned st = 7171;
    char path[] = "/tmp/check_render_small_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (int k = 0; k < 8; k++) {
        int mw = 24 + (int)(rnd(&st) % 6), mh = 9 + (int)(rnd(&st) % 4), top = k % 2 == 0;
        int gx = mw / 2 - 2 + (int)(rnd(&st) % 5), gy = top ? 1 : mh - 2;
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "format 1\ntitle \"yard\"\ntile_size 16\nseed 3\nplayer at=1,%d heading=0\n", mh - 2);
        fprintf(f, "guard g at=%d,%d view=3 fov=90\ngrid\n", gx, gy);
        for (int y = 0; y < mh; y++) {
            for (int x = 0; x < mw; x++)
                fputc(x == mw - 1 && y == mh / 2 ? 'E' : (x == 0 || y == 0 || x == mw - 1 || y == mh - 1) ? '#' : '.', f);
            fputc('\n', f);
        }
        fprintf(f, "end\n");
        fclose(f);
        pt_error err;
        ck_assert_msg(play_open(&s, path, &err) == 0, "%s:%d: %s", err.file, err.line, err.message);
        int w = 16 * mw, h = 16 * mh, tb = 0, bb = 0; /* scale 1: the hint spans the rows next to the bars */
        pt_hud_bars(pt_hud_scale(w, h + 30), &tb, &bb);
        h += tb + bb;
        box b = msg_box(&s, 0, w, h);
        ck_assert_msg(!box_empty(b), "%d: no opening hint", k);
        const pt_entity *pl = pt_world_entity(s.world, 0), *g = pt_world_entity(s.world, 1);
        box me = tile_box(&s, w, h, pl->x, pl->y, pl->x + 1, pl->y + 1);
        box exit = tile_box(&s, w, h, mw - 1, mh / 2, mw, mh / 2 + 1);
        box guard = tile_box(&s, w, h, g->x, g->y, g->x + 1, g->y + 1);
        ck_assert_msg(!box_meet(b, me) && !box_meet(b, exit), "%d: %dx%d: the hint hides the player or the exit", k, w, h);
        ck_assert_msg(!box_meet(b, guard), "%d: %dx%d: the hint (%d,%d)-(%d,%d) hides the guard at %d,%d", k, w, h, b.x0,
                      b.y0, b.x1, b.y1, g->x, g->y);
        ck_assert_msg((b.y0 > h / 2) == top, "%d: the hint is %s with the guard %s", k, b.y0 > h / 2 ? "low" : "high",
                      top ? "at the top" : "at the bottom");
        play_close(&s);
    }
    unlink(path);
}
END_TEST

int main(void) {
    Suite *s = suite_create("render_small");
    TCase *tc = tcase_create("small");
    tcase_add_test(tc, test_game_help);
    tcase_add_test(tc, test_generated_help);
    tcase_add_test(tc, test_hint);
    tcase_add_test(tc, test_hint_readable);
    tcase_add_test(tc, test_menu);
    tcase_add_test(tc, test_long_titles);
    tcase_add_test(tc, test_msgs_and_arrows);
    tcase_add_test(tc, test_exit_pointer_pulse);
    tcase_add_test(tc, test_behind_menu);
    tcase_add_test(tc, test_perf_small);
    tcase_add_test(tc, test_intro_hint);
    tcase_add_test(tc, test_intro_hint_guard);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
