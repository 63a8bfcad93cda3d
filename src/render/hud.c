/* SPDX-License-Identifier: Zlib */
/* The heads-up display: top bar (title, objective, alert, clock), messages, key hint,
 * pause notice, end-of-round banner, help panel and error box. Draws plain data (pt_hud);
 * knows nothing of the world. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A framed panel: dark fill, a 1-glyph-pixel border. */
static void panel(pt_render *r, int x, int y, int w, int h, int ts, uint32_t fill_rgba, uint32_t border) {
    pt__fill_rect(r, x, y, w, h, fill_rgba);
    pt__set_color(r->sdl, border);
    for (int i = 0; i < ts; i++) {
        SDL_Rect rc = {x + i, y + i, w - 2 * i, h - 2 * i};
        SDL_RenderDrawRect(r->sdl, &rc);
    }
}

static void text_size(const char *s, int ts, int *w, int *h) { pt__text_size_adv(s, ts, PT__HUD_ADV, w, h); }

/* The largest scale <= want at which s fits in width w (at least 1). */
static int fit_scale(const char *s, int want, int w) {
    while (want > 1 && pt__hud_text_w(s, want) > w) want--;
    return want < 1 ? 1 : want;
}

/* Copies at most max_cols characters of one line of s (up to '\n') into buf. */
static const char *one_line(const char *s, char *buf, size_t cap, int max_cols) {
    size_t n = strcspn(s, "\n");
    if (max_cols >= 0 && n > (size_t)max_cols) n = (size_t)max_cols;
    if (n >= cap) n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

const char *pt__next_line(const char *s, int cols, int *len) {
    int n = (int)strcspn(s, "\n");
    if (cols > 0 && n > cols) {
        int cut = cols;
        while (cut > 0 && s[cut] != ' ') cut--;
        int end = cut;
        while (end > 0 && s[end - 1] == ' ') end--;
        if (end == 0) end = cut = cols;
        while (s[cut] == ' ') cut++;
        *len = end;
        return s + cut;
    }
    *len = n;
    return s[n] == '\n' ? s + n + 1 : NULL;
}

int pt_hud_scale(int w, int h) {
    int s = w / 900, sh = h / 500;
    if (sh < s) s = sh;
    return pt_clampi(s + 1, 1, 8);
}

void pt_hud_bars(int scale, int *top, int *bottom) {
    int ts = pt_clampi(scale, 1, 16);
    if (top) *top = (PT_GLYPH_PX + 6) * ts + ts; /* and its shadow line */
    if (bottom) *bottom = (PT_GLYPH_PX + 6) * ts;
}

static void draw_top_bar(pt_render *r, const pt_hud *hud, int x, int y, int w, int ts) {
    int g = PT_GLYPH_PX * ts, bar = g + 6 * ts;
    pt__fill_rect(r, x, y, w, bar, 0x0c0a16d8u);
    pt__fill_rect(r, x, y + bar, w, ts, 0x00000060u);
    int ty = y + 3 * ts;
    /* Right: alert and status; left: title; centre: objective. A bar too narrow for all of
     * it drops the objective first (the opening hint says it too), then the title. */
    const char *alert_txt = hud->alert >= 2 ? "SPOTTED" : hud->alert == 1 ? "noticed" : "unseen";
    uint32_t alert_rgba = hud->alert >= 2 ? 0xff4a3cffu : hud->alert == 1 ? 0xffd84affu : 0x8ccf9cffu;
    int right = x + w - 4 * ts;
    if (hud->status) {
        right -= pt__hud_text_w(hud->status, ts);
        pt__hud_text(r, right, ty, ts, 0xe8e8f0ffu, hud->status);
        right -= 3 * g;
    }
    if (hud->phase && hud->phase[0]) {
        static const uint32_t colours[] = {0x8ccf9cffu, 0xff4a3cffu, 0xffa040ffu, 0xffd84affu}; /* by pt_phase */
        unsigned k = (unsigned)hud->phase_kind < sizeof colours / sizeof colours[0] ? (unsigned)hud->phase_kind : 0;
        right -= pt__hud_text_w(hud->phase, ts);
        pt__hud_text(r, right, ty, ts, colours[k], hud->phase);
        right -= 2 * g;
    }
    int aw = pt__hud_text_w(alert_txt, ts);
    right -= aw;
    pt__hud_text(r, right, ty, ts, alert_rgba, alert_txt);
    if (hud->alert > 0 && r->nprops > 4) {
        /* The same bubble the guard wears, beside the word. */
        int b = hud->alert >= 2 ? 4 : 3, d = PT_SPRITE_PX * ts;
        pt__blit(r, r->props, b, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, right - d - ts, y + bar / 2 - d / 2 - ts,
                 d, d);
        right -= d + ts;
    }
    if (hud->hidden) { /* in cover, and no guard sees in: a leaf-green word on a dark green chip */
        int hw = pt__hud_text_w("HIDDEN", ts);
        right -= 2 * g + hw;
        pt__fill_rect(r, right - 2 * ts, y + ts, hw + 4 * ts, bar - 2 * ts, 0x1e5a32ffu);
        pt__hud_text(r, right, ty, ts, 0x9cf08cffu, "HIDDEN");
    }
    right -= 2 * g;
    int left = x + 4 * ts;
    int tw = hud->title ? pt__hud_text_w(hud->title, ts) : 0;
    int ow = hud->objective ? pt__hud_text_w(hud->objective, ts) : 0;
    int title_on = hud->title && left + tw <= right;
    if (title_on) {
        pt__hud_text(r, left, ty, ts, 0xf2be3cffu, hud->title);
        left += tw + 2 * g;
    }
    if (hud->objective && ow <= right - left) {
        int ox = x + (w - ow) / 2; /* centred when there is room, else just after the title */
        if (ox < left) ox = left;
        if (ox + ow > right) ox = right - ow;
        pt__hud_text(r, ox, ty, ts, 0xffffffffu, hud->objective);
    }
}

/* The messages, newest last, each centred on a dark box: under the top bar, or stacked up
 * from just above the bottom bar (msgs_low). Drawn when r is not NULL (one layout for the
 * drawing and the queries below); *top and *bottom get the first box's top row and the last
 * box's bottom row (y, y when none shows), *hit whether a box meets the rectangle probe. */
static void lay_out_messages(const pt_hud *hud, int x, int y, int w, int h, int ts, pt_render *r, const SDL_Rect *probe,
                             int *top_row, int *bottom_row, int *hit) {
    int first = -1, bottom = y, at = 0;
    if (hit) *hit = 0;
    if (top_row) *top_row = y;
    if (bottom_row) *bottom_row = y;
    if (!hud->msgs || hud->banner) return;
    /* The rows the boxes take, from 0 at the first text's top. */
    for (int pass = 0; pass < 2; pass++) {
        int base = y + PT_GLYPH_PX * ts + 6 * ts + 6 * ts;
        if (pass == 1 && hud->msgs_low) {
            int bar = 0;
            pt_hud_bars(ts, NULL, &bar);
            base = y + h - bar - 2 * ts - at;
        }
        int row = base;
        for (int i = 0; i < hud->nmsgs; i++) {
            const pt_hud_msg *m = &hud->msgs[i];
            if (!m->text || !m->text[0] || (m->rgba & 0xffu) == 0) continue;
            int ms = fit_scale(m->text, ts + 1, w - 8 * ts);
            int mw = pt__hud_text_w(m->text, ms), mh = PT_GLYPH_PX * ms;
            int mx = x + (w - mw) / 2;
            SDL_Rect box = {mx - 3 * ms, row - 2 * ms, mw + 6 * ms, mh + 4 * ms};
            if (pass == 1) {
                if (first < 0) first = box.y;
                if (r) {
                    uint32_t a = m->rgba & 0xffu;
                    pt__fill_rect(r, box.x, box.y, box.w, box.h, (a * 150 / 255) & 0xffu);
                    pt__hud_text(r, mx, row, ms, m->rgba, m->text);
                }
                if (hit && probe && SDL_HasIntersection(&box, probe)) *hit = 1;
            }
            bottom = row + mh + 2 * ms;
            row += mh + 6 * ms;
        }
        at = bottom - base; /* the last box's bottom, from the first text's top */
    }
    if (first < 0) return;
    if (top_row) *top_row = first;
    if (bottom_row) *bottom_row = bottom;
}

static int hud_scale_of(const pt_hud *hud, int w, int h) {
    return hud->scale > 0 ? pt_clampi(hud->scale, 1, 16) : pt_hud_scale(w, h);
}

int pt_hud_msgs_bottom(const pt_hud *hud, int x, int y, int w, int h) {
    if (!hud || w <= 0 || h <= 0 || hud->msgs_low) return y;
    int bottom = y;
    lay_out_messages(hud, x, y, w, h, hud_scale_of(hud, w, h), NULL, NULL, NULL, &bottom, NULL);
    return bottom;
}

int pt_hud_msgs_top(const pt_hud *hud, int x, int y, int w, int h) {
    if (!hud || w <= 0 || h <= 0 || !hud->msgs_low) return y + (h > 0 ? h : 0);
    int top = y, bottom = y;
    lay_out_messages(hud, x, y, w, h, hud_scale_of(hud, w, h), NULL, NULL, &top, &bottom, NULL);
    return bottom > top ? top : y + h;
}

int pt_hud_msgs_cover(const pt_hud *hud, int x, int y, int w, int h, int rx, int ry, int rw, int rh) {
    if (!hud || w <= 0 || h <= 0) return 0;
    SDL_Rect probe = {rx, ry, rw, rh};
    int hit = 0;
    lay_out_messages(hud, x, y, w, h, hud_scale_of(hud, w, h), NULL, &probe, NULL, NULL, &hit);
    return hit;
}

int pt__fit_hint(const char *keys, int ts, int w, char *buf, size_t cap) {
    /* Scale 1 is hard to read: below min(ts, 2) items go first, from the end but the last
     * two (the way to every key, and out); the scale drops only when those alone do not fit. */
    int readable = ts < 2 ? ts : 2, s = fit_scale(keys, ts, w);
    snprintf(buf, cap, "%s", keys);
    if (s >= readable && pt__hud_text_w(buf, s) <= w) return s;
    enum { MAX_ITEMS = 32 };
    const char *item[MAX_ITEMS];
    int len[MAX_ITEMS], n = 0;
    for (const char *p = keys; *p && n < MAX_ITEMS;) {
        const char *sep = strstr(p, "   ");
        item[n] = p;
        len[n] = sep ? (int)(sep - p) : (int)strlen(p);
        n++;
        if (!sep) break;
        p = sep + strspn(sep, " ");
    }
    if (n < 3) return s; /* nothing to leave out */
    for (s = readable < 1 ? 1 : readable;; s--) {
        for (int keep = n - 3; keep >= 0; keep--) {
            size_t at = 0;
            buf[0] = '\0';
            for (int i = 0; i < n; i++) {
                if (i >= keep && i < n - 2) continue;
                at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%.*s", at ? "   " : "", len[i], item[i]);
                if (at >= cap) break;
            }
            if (pt__hud_text_w(buf, s) <= w || (keep == 0 && s == 1)) return s;
        }
    }
}

static void draw_bottom_bar(pt_render *r, const char *keys, int x, int y, int w, int h, int ts) {
    char line[512];
    int ks = pt__fit_hint(keys, ts, w - 8 * ts, line, sizeof line), bar = 0;
    pt_hud_bars(ts, NULL, &bar);
    pt__fill_rect(r, x, y + h - bar, w, bar, 0x0c0a16d8u);
    int kw = pt__hud_text_w(line, ks);
    pt__hud_text(r, x + (w - kw) / 2, y + h - bar + (bar - PT_GLYPH_PX * ks) / 2 + ks / 2, ks, 0xc8c8d4ffu, line);
}

/* Just over the bottom bar's left end, on a thin translucent strip: it reads, and the map
 * (a guard's name) shows through it. */
static void draw_perf(pt_render *r, const char *s, int x, int y, int w, int h, int ts) {
    int bar = 0, tw = 0, th = 0;
    pt_hud_bars(ts, NULL, &bar);
    int ps = fit_scale(s, ts, w - 8 * ts);
    text_size(s, ps, &tw, &th);
    int px = x + 4 * ts, py = y + h - bar - th - 2 * ps;
    pt__fill_rect(r, px - ps, py - ps, tw + 2 * ps, th + 2 * ps, 0x00000060u);
    pt__draw_text_adv(r, px, py, ps, PT__HUD_ADV, 0x9cf0a0e0u, s);
}

static void draw_notice(pt_render *r, const char *s, int x, int y, int w, int h, int ts) {
    int ns = fit_scale(s, ts + 1, w - 16 * ts);
    int tw = 0, th = 0;
    text_size(s, ns, &tw, &th);
    int px = x + (w - tw) / 2, py = y + h / 3 - th / 2;
    panel(r, px - 6 * ns, py - 4 * ns, tw + 12 * ns, th + 8 * ns, ns, 0x0c0a16d8u, 0xe8e8f0ffu);
    pt__hud_text(r, px, py, ns, 0xffffffffu, s);
}

static double ease_out(double t) {
    t = pt_clamp(t, 0.0, 1.0);
    return 1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t);
}

static void draw_banner(pt_render *r, const pt_hud *hud, int x, int y, int w, int h, int ts) {
    double t = isfinite(hud->banner_t) ? hud->banner_t : 1.0;
    int won = hud->banner > 0;
    uint32_t tint = won ? 0x10183000u : 0x20000800u;
    pt__fill_rect(r, x, y, w, h, (uint32_t)lround(150 * pt_clamp(t / 0.4, 0.0, 1.0)) | tint);
    const char *title = hud->banner_title ? hud->banner_title : (won ? "YOU ESCAPED!" : "CAUGHT!");
    int bs = fit_scale(title, 4 * ts, w - 24 * ts);
    int ls = hud->banner_text ? fit_scale(hud->banner_text, ts + 1, w - 24 * ts) : ts + 1;
    int tw, th, lw = 0, lh = 0;
    text_size(title, bs, &tw, &th);
    if (hud->banner_text) {
        text_size(hud->banner_text, ls, &lw, &lh);
        lh += (lh / (PT_GLYPH_PX * ls) - 1) * 2 * ls; /* the lines are set 2 pixels apart */
    }
    int gap = hud->banner_text ? 6 * ls : 0;
    int bw = (tw > lw ? tw : lw) + 24 * ts, bh = th + gap + lh + 16 * ts;
    /* Drops in from above into the upper part, leaving the middle (where the camera keeps
     * the player, and the catch) in view. */
    int rest = y + h / 4 - bh / 2;
    if (rest < y + 18 * ts) rest = y + 18 * ts;       /* below the top bar and a message */
    if (rest + bh > y + h) rest = y + (h - bh) / 2;  /* a short window: centred */
    int by = rest - (int)lround((1.0 - ease_out(t / 0.45)) * (rest - y + bh));
    int bx = x + (w - bw) / 2;
    uint32_t accent = won ? 0xf2be3cffu : 0xff4a3cffu;
    panel(r, bx, by, bw, bh, 2 * ts, 0x0c0a16e8u, accent);
    pt__hud_text(r, x + (w - tw) / 2, by + 8 * ts, bs, accent, title);
    if (hud->banner_text) {
        /* Centre each line. */
        int ly = by + 8 * ts + th + gap;
        const char *p = hud->banner_text;
        char line[256];
        for (;;) {
            one_line(p, line, sizeof line, -1);
            int w1 = pt__hud_text_w(line, ls);
            pt__hud_text(r, x + (w - w1) / 2, ly, ls, 0xf0f0f4ffu, line);
            ly += PT_GLYPH_PX * ls + 2 * ls;
            p = strchr(p, '\n');
            if (!p) break;
            p++;
        }
    }
}

/* The help panel: its lines, split into one or two columns (at the blank line nearest the
 * middle: a section each), the key column's width and the widest line of each. */
#define HELP_LINES 128
typedef struct help_col {
    int first, n;   /* lines [first, first + n) */
    int keyw, cols; /* characters: the key column, the whole column */
} help_col;

static void help_measure(const char *const *line, int first, int n, help_col *c) {
    c->first = first;
    c->n = n;
    c->keyw = c->cols = 0;
    for (int i = first; i < first + n; i++) {
        int len = (int)strcspn(line[i], "\n"), k = (int)strcspn(line[i], "|\n");
        if (k < len && k > c->keyw) c->keyw = k;
    }
    for (int i = first; i < first + n; i++) {
        int len = (int)strcspn(line[i], "\n"), k = (int)strcspn(line[i], "|\n");
        int w = k < len ? c->keyw + 2 + (len - k - 1) : len;
        if (w > c->cols) c->cols = w;
    }
}

/* Splits the help into ncols columns; returns how many it made. */
static int help_columns(const char *const *line, int n, int ncols, help_col *col) {
    if (ncols < 2 || n < 2) {
        help_measure(line, 0, n, &col[0]);
        return 1;
    }
    int split = (n + 1) / 2, best = -1;
    for (int i = 1; i < n - 1; i++)
        if (line[i][0] == '\n' || line[i][0] == '\0')
            if (best < 0 || abs(i - n / 2) < abs(best - n / 2)) best = i;
    if (best >= 0) split = best;
    help_measure(line, 0, split, &col[0]);
    int second = split + (best >= 0); /* the blank line between the sections is dropped */
    help_measure(line, second, n - second, &col[1]);
    return 2;
}

/* The paged help (nothing fits at scale 1): one column `cols` characters wide, a "KEY|what"
 * line's description broken at spaces to the columns after the key's (its rows under the
 * first start there too), a heading broken to the whole width. Each row of line `line` is
 * passed to `row` (k: its row, key: the key on the first row, else NULL; text, len: the
 * description's or the heading's part); returns the line's rows. */
typedef struct help_page_ctx {
    pt_render *r;
    int x, y, lh, adv, hs, keyw, cw; /* where the line's first row goes; the columns */
    int widest;                       /* characters: the widest row seen */
} help_page_ctx;

static int help_line_rows(const char *line, int keyw, int cols, help_page_ctx *c) {
    int len = (int)strcspn(line, "\n"), k = (int)strcspn(line, "|\n"), rows = 0, n;
    const char *end = line + len;
    char text[256];
    if (k < len) {
        int dw = cols - keyw - 2;
        for (const char *p = line + k + 1; p && p < end; rows++) {
            const char *next = pt__next_line(p, dw, &n);
            if (n > end - p) n = (int)(end - p);
            if (keyw + 2 + n > (c ? c->widest : 0) && c) c->widest = keyw + 2 + n;
            if (c && c->r) {
                int ly = c->y + rows * c->lh;
                if (rows == 0) {
                    snprintf(text, sizeof text, "%.*s", k < keyw ? k : keyw, line);
                    pt__hud_text(c->r, c->x, ly, c->hs, 0xf2be3cffu, text);
                }
                snprintf(text, sizeof text, "%.*s", n, p);
                pt__hud_text(c->r, c->x + (keyw + 2) * c->adv, ly, c->hs, 0xf0f0f4ffu, text);
            }
            p = next;
        }
        return rows > 0 ? rows : 1;
    }
    if (len == 0) return 1;
    for (const char *p = line; p && p < end; rows++) {
        const char *next = pt__next_line(p, cols, &n);
        if (n > end - p) n = (int)(end - p);
        if (c && n > c->widest) c->widest = n;
        if (c && c->r) {
            snprintf(text, sizeof text, "%.*s", n, p);
            pt__hud_text(c->r, c->x + (c->cw - pt__hud_text_w(text, c->hs)) / 2, c->y + rows * c->lh, c->hs,
                         0x9adcffffu, text);
        }
        p = next;
    }
    return rows;
}

static void draw_help(pt_render *r, const char *help, int page, int x, int y, int w, int h, int ts) {
    const char *line[HELP_LINES];
    int n = 0;
    for (const char *p = help; p && *p && n < HELP_LINES;) {
        line[n++] = p;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    /* The largest scale at which the panel fits; at each, the line gap 3, then 2, then 1
     * (glyph pixels), one column before two. Nothing fits (the smallest windows): pages. */
    help_col col[2];
    int ncols = 1, hs = 1, gap = 1, pw = 0, ph = 0, fits = 0;
    for (int s = ts + 1; s >= 1 && !fits; s--) {
        for (int gp = 3; gp >= 1 && !fits; gp--) {
            for (int nc = 1; nc <= 2 && !fits; nc++) {
                int made = help_columns(line, n, nc, col), adv = PT__HUD_ADV * s, rows = 0, cols = 0;
                if (nc == 2 && made < 2) continue;
                for (int c = 0; c < made; c++) {
                    cols += col[c].cols + (c > 0 ? 4 : 0);
                    if (col[c].n > rows) rows = col[c].n;
                }
                int lh = (PT_GLYPH_PX + gp) * s;
                pw = cols * adv + 16 * s;
                ph = rows * lh + 13 * s;
                fits = pw <= w && ph <= h;
                if (fits) {
                    ncols = made;
                    hs = s;
                    gap = gp;
                }
            }
        }
    }
    ncols = help_columns(line, n, ncols, col);
    int g = PT_GLYPH_PX * hs, lh = g + gap * hs, adv = PT__HUD_ADV * hs, rows = 0, cols = 0;
    /* Paged: the lines in order, as many as fit a page (a line's rows never split between
     * two, blank lines at a page's top dropped), and a last row saying which page and how
     * to turn it. */
    enum { MAX_PAGES = HELP_LINES };
    int page_at[MAX_PAGES + 1], npages = 1, page_rows = 0, keyw = col[0].keyw;
    int wcols = (w - 16 * hs) / adv;
    if (!fits) {
        if (wcols < 8) wcols = 8;
        if (keyw > wcols / 2) keyw = wcols / 2;
        int room = (h - 13 * hs) / lh - 1, used = 0;
        if (room < 1) room = 1;
        help_page_ctx m = {0};
        page_at[0] = 0;
        for (int i = 0; i < n; i++) {
            int blank = line[i][0] == '\n' || line[i][0] == '\0';
            if (blank && used == 0 && i > 0) {
                if (page_at[npages - 1] == i) page_at[npages - 1] = i + 1;
                continue;
            }
            int lr = help_line_rows(line[i], keyw, wcols, &m);
            if (used > 0 && used + lr > room && npages < MAX_PAGES) {
                if (used > page_rows) page_rows = used;
                page_at[npages++] = i;
                used = 0;
                if (blank) {
                    page_at[npages - 1] = i + 1;
                    continue;
                }
            }
            used += lr;
        }
        if (used > page_rows) page_rows = used;
        page_at[npages] = n;
        if (page_rows > room) page_rows = room;
        cols = m.widest;
        char mark[64];
        snprintf(mark, sizeof mark, "Up/Down: page %d of %d", npages, npages);
        if ((int)strlen(mark) > cols) cols = (int)strlen(mark);
        if (cols > wcols) cols = wcols;
        rows = page_rows + (npages > 1);
    } else {
        for (int c = 0; c < ncols; c++) {
            cols += col[c].cols + (c > 0 ? 4 : 0);
            if (col[c].n > rows) rows = col[c].n;
        }
    }
    pw = cols * adv + 16 * hs;
    ph = rows * lh + 13 * hs;
    if (pw > w) pw = w;
    if (ph > h) ph = h;
    int px = x + (w - pw) / 2, py = y + (h - ph) / 2;
    panel(r, px, py, pw, ph, hs, 0x0c0a16ecu, 0xf2be3cffu);
    SDL_Rect clip = {px + hs, py + hs, pw - 2 * hs, ph - 2 * hs}, old;
    SDL_bool had = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old);
    if (had && !SDL_IntersectRect(&clip, &old, &clip)) return;
    SDL_RenderSetClipRect(r->sdl, &clip);
    char text[256];
    if (!fits) {
        int pg = npages > 0 ? ((page % npages) + npages) % npages : 0, used = 0;
        help_page_ctx c = {r, px + 8 * hs, py + 8 * hs, lh, adv, hs, keyw, cols * adv, 0};
        for (int i = page_at[pg]; i < page_at[pg + 1]; i++) {
            int lr = help_line_rows(line[i], keyw, wcols, NULL);
            if (used + lr > page_rows) break; /* a line taller than a page: its first rows */
            c.y = py + 8 * hs + used * lh;
            help_line_rows(line[i], keyw, wcols, &c);
            used += lr;
        }
        if (npages > 1) {
            snprintf(text, sizeof text, "Up/Down: page %d of %d", pg + 1, npages);
            pt__hud_text(r, px + (pw - pt__hud_text_w(text, hs)) / 2, py + 8 * hs + page_rows * lh, hs, 0x9090a8ffu,
                         text);
        }
        SDL_RenderSetClipRect(r->sdl, had ? &old : NULL);
        return;
    }
    for (int c = 0, cx = px + 8 * hs; c < ncols; cx += (col[c].cols + 4) * adv, c++) {
        int cw = col[c].cols * adv, ly = py + 8 * hs;
        for (int i = col[c].first; i < col[c].first + col[c].n; i++, ly += lh) {
            one_line(line[i], text, sizeof text, -1);
            char *bar = strchr(text, '|');
            if (bar) {
                *bar = '\0';
                pt__hud_text(r, cx, ly, hs, 0xf2be3cffu, text);
                pt__hud_text(r, cx + (col[c].keyw + 2) * adv, ly, hs, 0xf0f0f4ffu, bar + 1);
            } else if (text[0]) {
                pt__hud_text(r, cx + (cw - pt__hud_text_w(text, hs)) / 2, ly, hs, 0x9adcffffu, text);
            }
        }
    }
    SDL_RenderSetClipRect(r->sdl, had ? &old : NULL);
}

static void draw_error(pt_render *r, const pt_error *err, int x, int y, int w, int h, int ts) {
    int g = PT__HUD_ADV * ts, lh = PT_GLYPH_PX * ts + 3 * ts;
    int max_cols = (w - 24 * ts) / g;
    if (max_cols < 8) max_cols = 8;
    char head[PT_ERROR_PATH_MAX + 64], msg[PT_ERROR_MSG_MAX], src[PT_ERROR_SRC_MAX], buf[PT_ERROR_SRC_MAX + 8];
    if (err->line > 0 && err->col > 0) snprintf(head, sizeof head, "%s:%d:%d: error:", err->file, err->line, err->col);
    else if (err->line > 0) snprintf(head, sizeof head, "%s:%d: error:", err->file, err->line);
    else snprintf(head, sizeof head, "%s%serror:", err->file, err->file[0] ? ": " : "");
    /* A long path: keep its end (the file name). */
    const char *hp = head;
    if ((int)strlen(hp) > max_cols) hp += strlen(hp) - (size_t)max_cols;
    snprintf(msg, sizeof msg, "%s", err->message);
    one_line(err->source, src, sizeof src, -1);
    for (char *c = src; *c; c++)
        if (*c == '\t') *c = ' ';
    int has_src = src[0] != '\0';
    /* Scroll the source line so the caret stays visible. */
    int shift = 0, caret = err->col > 0 ? err->col - 1 : -1;
    if (caret >= max_cols) shift = caret - max_cols / 2;
    if (shift > (int)strlen(src)) shift = (int)strlen(src);
    int nlines = 3 + (has_src ? 2 : 0);
    int bw = w - 8 * ts, bh = nlines * lh + 10 * ts;
    if (bw > (max_cols + 2) * g + 12 * ts) bw = (max_cols + 2) * g + 12 * ts;
    int bx = x + (w - bw) / 2, by = y + h - bh - (PT_GLYPH_PX * 2 + 12) * ts;
    if (by < y) by = y;
    panel(r, bx, by, bw, bh, ts, 0x401018dcu, 0xff4a3cffu);
    SDL_Rect clip = {bx + ts, by + ts, bw - 2 * ts, bh - 2 * ts}, old;
    SDL_bool had = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old);
    if (had && !SDL_IntersectRect(&clip, &old, &clip)) return; /* stay inside the HUD's rectangle */
    SDL_RenderSetClipRect(r->sdl, &clip);
    int tx = bx + 6 * ts, ly = by + 5 * ts;
    pt__hud_text(r, tx, ly, ts, 0xffffffffu, hp);
    ly += lh;
    pt__hud_text(r, tx, ly, ts, 0xffd0c8ffu, one_line(msg, buf, sizeof buf, max_cols));
    ly += lh;
    if (has_src) {
        pt__hud_text(r, tx, ly, ts, 0xc8c8d4ffu, one_line(src + shift, buf, sizeof buf, max_cols));
        ly += lh;
        if (caret >= 0) pt__hud_text(r, tx + (caret - shift) * g, ly, ts, 0xffe040ffu, "^");
        ly += lh;
    }
    pt__hud_text(r, tx, ly, ts, 0xa0a0b0ffu, "the game goes on with the last good version (any key hides this)");
    SDL_RenderSetClipRect(r->sdl, had ? &old : NULL);
}

void pt_render_hud(pt_render *r, const pt_hud *hud, int x, int y, int w, int h) {
    if (!r || !hud) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    if (w <= 0) w = out_w - x;
    if (h <= 0) h = out_h - y;
    if (w <= 0 || h <= 0) return;
    int ts = hud_scale_of(hud, w, h);
    SDL_Rect clip = {x, y, w, h}, old;
    SDL_bool had = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old);
    SDL_RenderSetClipRect(r->sdl, &clip);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);

    if (hud->flash > 0 && isfinite(hud->flash))
        pt__fill_rect(r, x, y, w, h, 0xff201000u | (uint32_t)lround(pt_clamp(hud->flash, 0.0, 1.0) * 170));
    if (hud->title || hud->objective || hud->status || hud->phase) draw_top_bar(r, hud, x, y, w, ts);
    lay_out_messages(hud, x, y, w, h, ts, r, NULL, NULL, NULL, NULL);
    if (hud->keys) draw_bottom_bar(r, hud->keys, x, y, w, h, ts);
    if (hud->perf && hud->perf[0]) draw_perf(r, hud->perf, x, y, w, h, ts);
    if (hud->notice && !hud->help) draw_notice(r, hud->notice, x, y, w, h, ts);
    if (hud->banner && !hud->help) draw_banner(r, hud, x, y, w, h, ts);
    if (hud->help) draw_help(r, hud->help, hud->help_page, x, y, w, h, ts);
    if (hud->error) draw_error(r, hud->error, x, y, w, h, ts);

    SDL_RenderSetClipRect(r->sdl, had ? &old : NULL);
}
