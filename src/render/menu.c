/* SPDX-License-Identifier: Zlib */
/* Full-screen menus (the title screen, the level select, the result of a level): plain data
 * (pt_menu) drawn with the HUD's font. The layout is one function, so the drawing and the
 * pointer's row (pt_menu_row_at) never disagree. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>
#include <string.h>

typedef struct layout {
    int ts;              /* the key bar's and the subtitle's scale */
    int title_s, row_s;  /* the title's and the rows' scale */
    int px, py, pw, ph;  /* the panel */
    int title_y, sub_y, rows_y, prompt_y;
    int row_h, first, shown; /* rows: height, the first shown, how many */
    int sub_cols;        /* the subtitle's lines are broken to this many characters */
    int mark_h;          /* a scrolled list: the strip above and below it for ^ and v */
    int bar;             /* the key bar's height (0 = none) */
} layout;

static int lines_of(const char *s, int cols) {
    int n = 0, len;
    for (const char *p = s && *s ? s : NULL; p; p = pt__next_line(p, cols, &len)) n++;
    return n;
}

static int row_w(const pt_menu_row *row, int s) {
    int w = pt__hud_text_w(row->label, s), gap = 4 * PT__HUD_ADV * s;
    if (row->detail) w += gap + pt__hud_text_w(row->detail, s);
    if (row->marks) w += gap + pt__hud_text_w(row->marks, s);
    return w;
}

static void lay_out(const pt_menu *m, int x, int y, int w, int h, layout *L) {
    memset(L, 0, sizeof *L);
    int ts = m->scale > 0 ? pt_clampi(m->scale, 1, 16) : pt_hud_scale(w, h);
    L->ts = ts;
    if (m->footer) pt_hud_bars(ts, NULL, &L->bar);
    int room_w = w - 16 * ts;
    /* The title: large on a title screen (no rows), smaller over a list. */
    int want = m->nrows > 0 ? 4 * ts : 7 * ts;
    L->title_s = want;
    while (L->title_s > 1 && pt__hud_text_w(m->title, L->title_s) > room_w) L->title_s--;
    L->row_s = ts + 1;
    int content = pt__hud_text_w(m->subtitle, ts);
    if (pt__hud_text_w(m->title, L->title_s) > content) content = pt__hud_text_w(m->title, L->title_s);
    if (pt__hud_text_w(m->prompt, ts + 1) > content) content = pt__hud_text_w(m->prompt, ts + 1);
    int rows_w = 0;
    for (int i = 0; i < m->nrows; i++)
        if (row_w(&m->rows[i], L->row_s) > rows_w) rows_w = row_w(&m->rows[i], L->row_s);
    while (L->row_s > 1 && rows_w + 8 * L->row_s > room_w) {
        L->row_s--;
        rows_w = 0;
        for (int i = 0; i < m->nrows; i++)
            if (row_w(&m->rows[i], L->row_s) > rows_w) rows_w = row_w(&m->rows[i], L->row_s);
    }
    rows_w += 8 * L->row_s; /* the selection bar's margins */
    if (rows_w > content) content = rows_w;
    int pad = 8 * ts;
    L->pw = content + 2 * pad;
    if (L->pw > w - 4 * ts) L->pw = w - 4 * ts;
    L->row_h = (PT_GLYPH_PX + 6) * L->row_s;
    int g = PT_GLYPH_PX * ts;
    int title_h = m->title ? PT_GLYPH_PX * L->title_s + 4 * ts : 0;
    L->sub_cols = (L->pw - 2 * pad) / (PT__HUD_ADV * ts); /* a narrow window: the lines wrap */
    int sub_h = lines_of(m->subtitle, L->sub_cols) * (g + 3 * ts) + (m->subtitle ? 4 * ts : 0);
    int prompt_h = m->prompt ? PT_GLYPH_PX * (ts + 1) + 6 * ts : 0;
    int fixed = 2 * pad + title_h + sub_h + prompt_h;
    int avail = h - L->bar - 8 * ts - fixed; /* a margin above and below the panel */
    L->shown = m->nrows;
    if (L->shown * L->row_h > avail) {
        /* Scrolled: ^ and v get strips of their own, clear of the subtitle and the prompt. */
        L->mark_h = g + 2 * ts;
        avail -= 2 * L->mark_h;
        L->shown = avail > L->row_h ? avail / L->row_h : 1;
    }
    if (L->shown > m->nrows) L->shown = m->nrows;
    /* Scrolled so the selection shows, a row of context below it when there is one. */
    int sel = m->selected >= 0 && m->selected < m->nrows ? m->selected : 0;
    L->first = 0;
    if (L->shown < m->nrows) {
        L->first = sel + 2 - L->shown;
        if (L->first < 0) L->first = 0;
        if (L->first > m->nrows - L->shown) L->first = m->nrows - L->shown;
    }
    L->ph = fixed + 2 * L->mark_h + L->shown * L->row_h + (L->shown > 0 ? 4 * ts : 0);
    L->px = x + (w - L->pw) / 2;
    L->py = y + (h - L->bar - L->ph) / 2;
    if (L->py < y) L->py = y;
    L->title_y = L->py + pad;
    L->sub_y = L->title_y + title_h;
    L->rows_y = L->sub_y + sub_h + L->mark_h;
    L->prompt_y = L->rows_y + L->shown * L->row_h + L->mark_h + (L->shown > 0 ? 4 * ts : 0);
}

int pt_menu_row_at(const pt_menu *m, int x, int y, int w, int h, int px, int py) {
    if (!m || m->nrows <= 0 || w <= 0 || h <= 0) return -1;
    layout L;
    lay_out(m, x, y, w, h, &L);
    if (px < L.px || px >= L.px + L.pw || py < L.rows_y || py >= L.rows_y + L.shown * L.row_h) return -1;
    int row = L.first + (py - L.rows_y) / L.row_h;
    return row < m->nrows ? row : -1;
}

/* s as it fits `room` pixels at scale rs: whole, or its first characters and "..." (the
 * spaces before the dots dropped; when what is cut is only spaces, no dots). */
static const char *fit_label(const char *s, int rs, int room, char *buf, size_t cap) {
    if (pt__hud_text_w(s, rs) <= room) return s;
    int n = (int)strlen(s);
    if (n >= (int)cap) n = (int)cap - 1;
    int rest_blank = 0;
    for (; n > 0; n--) {
        snprintf(buf, cap, "%.*s", n, s);
        rest_blank = (int)strspn(s + n, " ") == (int)strlen(s + n);
        if (rest_blank) {
            if (pt__hud_text_w(buf, rs) <= room) return buf;
            continue;
        }
        int k = n;
        while (k > 0 && s[k - 1] == ' ') k--;
        snprintf(buf, cap, "%.*s...", k, s);
        if (pt__hud_text_w(buf, rs) <= room) return buf;
    }
    buf[0] = '\0';
    return buf;
}

static void frame(pt_render *r, int x, int y, int w, int h, int t, uint32_t rgba) {
    pt__fill_rect(r, x, y, w, t, rgba);
    pt__fill_rect(r, x, y + h - t, w, t, rgba);
    pt__fill_rect(r, x, y, t, h, rgba);
    pt__fill_rect(r, x + w - t, y, t, h, rgba);
}

static void centred_lines(pt_render *r, const char *s, int cols, int cx, int y, int ts, uint32_t rgba) {
    char line[256];
    int len;
    for (const char *p = s && *s ? s : NULL; p;) {
        const char *next = pt__next_line(p, cols, &len);
        int n = len < (int)sizeof line ? len : (int)sizeof line - 1;
        memcpy(line, p, (size_t)n);
        line[n] = '\0';
        pt__hud_text(r, cx - pt__hud_text_w(line, ts) / 2, y, ts, rgba, line);
        y += PT_GLYPH_PX * ts + 3 * ts;
        p = next;
    }
}

void pt_render_menu(pt_render *r, const pt_menu *m, int x, int y, int w, int h) {
    if (!r || !m) return;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    if (w <= 0) w = out_w - x;
    if (h <= 0) h = out_h - y;
    if (w <= 0 || h <= 0) return;
    layout L;
    lay_out(m, x, y, w, h, &L);
    int ts = L.ts, cx = L.px + L.pw / 2;
    SDL_Rect clip = {x, y, w, h}, old;
    SDL_bool had = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old);
    SDL_RenderSetClipRect(r->sdl, &clip);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);

    pt__fill_rect(r, x, y, w, h, 0x06050cb0u);
    pt__fill_rect(r, L.px, L.py, L.pw, L.ph, 0x0c0a16e8u);
    frame(r, L.px, L.py, L.pw, L.ph, ts, 0xf2be3cffu);
    if (m->title)
        pt__hud_text(r, cx - pt__hud_text_w(m->title, L.title_s) / 2, L.title_y, L.title_s, 0xf2be3cffu, m->title);
    if (m->subtitle) centred_lines(r, m->subtitle, L.sub_cols, cx, L.sub_y, ts, m->subtitle_rgba ? m->subtitle_rgba : 0xd8d8e4ffu);

    int rs = L.row_s, gap = 4 * PT__HUD_ADV * rs;
    int left = L.px + 8 * ts, right = L.px + L.pw - 8 * ts;
    for (int k = 0; k < L.shown; k++) {
        int i = L.first + k;
        const pt_menu_row *row = &m->rows[i];
        int ry = L.rows_y + k * L.row_h, ty = ry + 3 * rs;
        int sel = i == m->selected;
        if (sel) {
            double glow = 0.5 + 0.5 * sin(m->time * 5.0);
            pt__fill_rect(r, left - 4 * rs, ry, right - left + 8 * rs, L.row_h,
                          0x3a2e1000u | (uint32_t)lround(170 + 60 * glow));
            frame(r, left - 4 * rs, ry, right - left + 8 * rs, L.row_h, rs > 1 ? rs / 2 : 1, 0xf2be3cffu);
        }
        /* Right: the badges, then the time; the label gets what is left, shortened to it. A
         * row too narrow for a few letters of the label drops the badges, not the time. */
        int dw = row->detail ? pt__hud_text_w(row->detail, rs) + gap : 0;
        int mw = row->marks ? pt__hud_text_w(row->marks, rs) + gap : 0;
        int show_marks = row->marks && right - left - dw - mw >= 6 * PT__HUD_ADV * rs;
        int rx = right;
        if (show_marks) {
            rx -= pt__hud_text_w(row->marks, rs);
            pt__hud_text(r, rx, ty, rs, 0x8ccf9cffu, row->marks);
            rx -= gap;
        }
        if (row->detail) {
            rx -= pt__hud_text_w(row->detail, rs);
            pt__hud_text(r, rx, ty, rs, row->dim ? 0x9090a0ffu : 0xf2be3cffu, row->detail);
            rx -= gap;
        }
        uint32_t label_rgba = sel ? 0xffffffffu : row->dim ? 0xa8a8b8ffu : 0xe0e0eaffu;
        char label[256];
        if (row->label)
            pt__hud_text(r, left, ty, rs, label_rgba, fit_label(row->label, rs, rx - left, label, sizeof label));
    }
    if (L.first > 0)
        pt__hud_text(r, right - pt__hud_text_w("^", ts), L.rows_y - L.mark_h + ts / 2, ts, 0xf2be3cffu, "^");
    if (L.first + L.shown < m->nrows)
        pt__hud_text(r, right - pt__hud_text_w("v", ts), L.rows_y + L.shown * L.row_h + ts / 2, ts, 0xf2be3cffu, "v");
    if (m->prompt && fmod(m->time, 1.0) < 0.7)
        pt__hud_text(r, cx - pt__hud_text_w(m->prompt, ts + 1) / 2, L.prompt_y, ts + 1, 0xffffffffu, m->prompt);
    if (m->footer) {
        char footer[512];
        int ks = pt__fit_hint(m->footer, ts, w - 8 * ts, footer, sizeof footer);
        pt__fill_rect(r, x, y + h - L.bar, w, L.bar, 0x0c0a16e8u);
        int fx = x + (w - pt__hud_text_w(footer, ks)) / 2, fy = y + h - L.bar + (L.bar - PT_GLYPH_PX * ks) / 2;
        pt__hud_text(r, fx, fy, ks, 0xc8c8d4ffu, footer);
    }
    SDL_RenderSetClipRect(r->sdl, had ? &old : NULL);
}
