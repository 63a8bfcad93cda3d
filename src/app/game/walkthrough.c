/* SPDX-License-Identifier: Zlib */
/* A level's walkthrough (docs/playing.md), parsed and played through the session's keys. No
 * SDL here: the tests and `patrol sim --walkthrough` drive it headless. */
#include "game/walkthrough.h"

#include "base/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of the text: [p, p + n), 1-based number. */
typedef struct walk_line {
    const char *p;
    size_t n;
    int no;
} walk_line;

static int wt_next_line(const char *text, size_t len, size_t *at, int *no, walk_line *ln) {
    if (*at >= len) return 0;
    const char *s = text + *at, *e = memchr(s, '\n', len - *at);
    size_t n = e ? (size_t)(e - s) : len - *at;
    *at += n + (e ? 1 : 0);
    if (n > 0 && s[n - 1] == '\r') n--;
    ln->p = s;
    ln->n = n;
    ln->no = ++*no;
    return 1;
}

static int wt_starts(const walk_line *ln, const char *prefix) {
    size_t k = strlen(prefix);
    return ln->n >= k && memcmp(ln->p, prefix, k) == 0;
}

/* "### 3. The border fort" (or "### The border fort") names title. */
static int wt_heading_is(const walk_line *ln, const char *title) {
    if (!wt_starts(ln, "### ")) return 0;
    const char *p = ln->p + 4, *e = ln->p + ln->n;
    const char *q = p;
    while (q < e && isdigit((unsigned char)*q)) q++;
    if (q > p && q + 1 < e && q[0] == '.' && q[1] == ' ') p = q + 2;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t')) e--;
    size_t k = strlen(title);
    return (size_t)(e - p) == k && memcmp(p, title, k) == 0;
}

static int wt_word_eq(const char *w, size_t n, const char *s) { return strlen(s) == n && memcmp(w, s, n) == 0; }

static int wt_parse_dir(const char *w, size_t n, int *dx, int *dy) {
    static const struct { const char *name; int dx, dy; } dirs[] = {
        {"Up", 0, -1}, {"Down", 0, 1}, {"Left", -1, 0}, {"Right", 1, 0},
        {"Up+Left", -1, -1}, {"Up+Right", 1, -1}, {"Down+Left", -1, 1}, {"Down+Right", 1, 1},
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (wt_word_eq(w, n, dirs[i].name)) {
            *dx = dirs[i].dx;
            *dy = dirs[i].dy;
            return 1;
        }
    return 0;
}

/* "M:SS.T" -> tenths; -1 when it does not read so. */
static long wt_parse_clock(const char *w, size_t n) {
    char buf[32];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, w, n);
    buf[n] = 0;
    unsigned m, s, t;
    int used = 0;
    if (sscanf(buf, "%u:%2u.%1u%n", &m, &s, &t, &used) != 3 || (size_t)used != n || s > 59 || m > 99) return -1;
    if (!isdigit((unsigned char)buf[n - 1]) || strchr(buf, ' ') || strchr(buf, '+') || strchr(buf, '-')) return -1;
    const char *colon = strchr(buf, ':');
    if (colon[1] == 0 || colon[2] == 0 || colon[3] != '.') return -1; /* two digits of seconds */
    return (long)m * 600 + (long)s * 10 + (long)t;
}

/* The words of a command: split on spaces, at most 8. */
typedef struct walk_words {
    const char *w[8];
    size_t n[8];
    int nw;
} walk_words;

static void wt_split(const char *p, size_t n, walk_words *ws) {
    ws->nw = 0;
    size_t i = 0;
    while (i < n && ws->nw < 8) {
        while (i < n && p[i] == ' ') i++;
        if (i >= n) break;
        size_t j = i;
        while (j < n && p[j] != ' ') j++;
        ws->w[ws->nw] = p + i;
        ws->n[ws->nw++] = j - i;
        i = j;
    }
}

/* One bold command (without its stars, a trailing '.' or ':' taken off) at line ln, column col. */
static int wt_parse_command(const char *p, size_t n, int line, int col, walk_step *st, pt_error *err) {
    while (n > 0 && (p[n - 1] == '.' || p[n - 1] == ':')) n--;
    walk_words ws;
    wt_split(p, n, &ws);
    memset(st, 0, sizeof *st);
    st->line = line;
    st->col = col;
    st->gait = PT_GAIT_WALK;
    int wcol = col + (ws.nw > 0 ? (int)(ws.w[0] - p) : 0);
#define COL_OF(k) (col + (int)(ws.w[k] - p))
    if (ws.nw == 0) return pt_error_set(err, PT_ERR_SYNTAX, line, col, "an empty command");
    if (wt_word_eq(ws.w[0], ws.n[0], "Press")) {
        if (ws.nw != 2) return pt_error_set(err, PT_ERR_SYNTAX, line, wcol, "expected 'Press DIRECTION'");
        st->kind = WALK_PRESS;
        if (!wt_parse_dir(ws.w[1], ws.n[1], &st->dx, &st->dy))
            return pt_error_set(err, PT_ERR_BAD_VALUE, line, COL_OF(1),
                                "unknown direction '%.*s' (Up, Down, Left, Right, Up+Left, Up+Right, Down+Left, Down+Right)",
                                (int)ws.n[1], ws.w[1]);
        return PT_OK;
    }
    if (wt_word_eq(ws.w[0], ws.n[0], "Walk") || wt_word_eq(ws.w[0], ws.n[0], "Sneak") || wt_word_eq(ws.w[0], ws.n[0], "Run")) {
        if (ws.nw != 4 || !(wt_word_eq(ws.w[3], ws.n[3], "tiles") || wt_word_eq(ws.w[3], ws.n[3], "tile")))
            return pt_error_set(err, PT_ERR_SYNTAX, line, wcol, "expected '%.*s DIRECTION N tiles'", (int)ws.n[0], ws.w[0]);
        st->kind = WALK_HOLD;
        st->gait = ws.w[0][0] == 'S' ? PT_GAIT_SNEAK : ws.w[0][0] == 'R' ? PT_GAIT_RUN : PT_GAIT_WALK;
        if (!wt_parse_dir(ws.w[1], ws.n[1], &st->dx, &st->dy))
            return pt_error_set(err, PT_ERR_BAD_VALUE, line, COL_OF(1),
                                "unknown direction '%.*s' (Up, Down, Left, Right, Up+Left, Up+Right, Down+Left, Down+Right)",
                                (int)ws.n[1], ws.w[1]);
        int k = 0;
        for (size_t i = 0; i < ws.n[2]; i++) {
            if (!isdigit((unsigned char)ws.w[2][i]) || k > 99) {
                k = -1;
                break;
            }
            k = k * 10 + (ws.w[2][i] - '0');
        }
        if (k < 1 || k > 999)
            return pt_error_set(err, PT_ERR_BAD_NUMBER, line, COL_OF(2), "expected a count of tiles, 1..999, found '%.*s'",
                                (int)ws.n[2], ws.w[2]);
        st->tiles = k;
        return PT_OK;
    }
    if (wt_word_eq(ws.w[0], ws.n[0], "Wait")) {
        if (ws.nw != 6 || !wt_word_eq(ws.w[1], ws.n[1], "until") || !wt_word_eq(ws.w[2], ws.n[2], "the") ||
            !wt_word_eq(ws.w[3], ws.n[3], "clock") || !wt_word_eq(ws.w[4], ws.n[4], "reads"))
            return pt_error_set(err, PT_ERR_SYNTAX, line, wcol, "expected 'Wait until the clock reads M:SS.T'");
        st->kind = WALK_UNTIL;
        if ((st->tenths = wt_parse_clock(ws.w[5], ws.n[5])) < 0)
            return pt_error_set(err, PT_ERR_BAD_NUMBER, line, COL_OF(5), "expected a clock reading M:SS.T, found '%.*s'",
                                (int)ws.n[5], ws.w[5]);
        return PT_OK;
    }
#undef COL_OF
    return pt_error_set(err, PT_ERR_BAD_VALUE, line, wcol,
                        "unknown command '%.*s' (Press, Walk, Sneak, Run, Wait until the clock reads)", (int)ws.n[0],
                        ws.w[0]);
}

static int wt_fail(pt_error *err, const char *name, const char *text, size_t len, int rc) {
    pt_error_locate(err, name, text, len);
    return rc;
}

int walk_parse(walk_route *r, const char *name, const char *text, size_t len, const char *title, pt_error *err) {
    pt_error_clear(err);
    r->n = 0;
    size_t at = 0;
    int no = 0, section = 0, found = 0, heading_line = 0, item = 0, moved = 0;
    long last_clock = -1;
    walk_line ln;
    while (wt_next_line(text, len, &at, &no, &ln)) {
        if (wt_starts(&ln, "```")) { /* a code block: nothing in it counts */
            while (wt_next_line(text, len, &at, &no, &ln) && !wt_starts(&ln, "```")) {}
            continue;
        }
        if (wt_starts(&ln, "## ")) {
            if (found) break;
            section = wt_starts(&ln, "## Walkthroughs") && ln.n == strlen("## Walkthroughs");
            if (section) heading_line = ln.no;
            continue;
        }
        if (!section) continue;
        if (wt_starts(&ln, "### ")) {
            if (found) break;
            found = wt_heading_is(&ln, title);
            continue;
        }
        if (!found) continue;
        size_t i = 0;
        while (i < ln.n && isdigit((unsigned char)ln.p[i])) i++;
        if (i == 0 || i + 1 >= ln.n || ln.p[i] != '.' || ln.p[i + 1] != ' ') continue; /* prose */
        int num = 0; /* the digits, capped: a step number past the limit is only "not next" */
        for (size_t k = 0; k < i; k++) num = num > WALK_MAX_STEPS ? num : num * 10 + (ln.p[k] - '0');
        if (num != item + 1)
            return wt_fail(err, name, text, len,
                        pt_error_set(err, PT_ERR_SYNTAX, ln.no, 1, "step %.*s where step %d comes next",
                                     (int)(i < 24 ? i : 24), ln.p, item + 1));
        item = num;
        size_t b = i + 2;
        if (b + 2 > ln.n || ln.p[b] != '*' || ln.p[b + 1] != '*')
            return wt_fail(err, name, text, len,
                        pt_error_set(err, PT_ERR_SYNTAX, ln.no, (int)b + 1,
                                     "a step starts with its command in bold: **Press ...**, **Walk ...**, **Wait ...**"));
        const char *c = ln.p + b + 2, *e = ln.p + ln.n;
        const char *close = NULL;
        for (const char *q = c; q + 1 < e; q++)
            if (q[0] == '*' && q[1] == '*') {
                close = q;
                break;
            }
        if (!close)
            return wt_fail(err, name, text, len,
                        pt_error_set(err, PT_ERR_SYNTAX, ln.no, (int)b + 1, "the bold command is not closed on its line"));
        if (r->n == WALK_MAX_STEPS)
            return wt_fail(err, name, text, len,
                        pt_error_set(err, PT_ERR_LIMIT, ln.no, 1, "more than %d steps", WALK_MAX_STEPS));
        walk_step *st = &r->steps[r->n];
        int rc = wt_parse_command(c, (size_t)(close - c), ln.no, (int)(c - ln.p) + 1, st, err);
        if (rc < 0) return wt_fail(err, name, text, len, rc);
        if (st->kind == WALK_UNTIL) {
            if (!moved)
                return wt_fail(err, name, text, len,
                            pt_error_set(err, PT_ERR_BAD_VALUE, ln.no, st->col,
                                         "a wait on the clock before the first move: the clock reads 0:00.0 until then"));
            if (st->tenths <= last_clock)
                return wt_fail(err, name, text, len,
                            pt_error_set(err, PT_ERR_BAD_VALUE, ln.no, st->col,
                                         "the clock reads %ld.%ld s already at this wait", last_clock / 10, last_clock % 10));
            last_clock = st->tenths;
        } else {
            moved = 1;
        }
        r->n++;
    }
    if (!found)
        return wt_fail(err, name, text, len,
                    pt_error_set(err, PT_ERR_MISSING, heading_line, heading_line ? 1 : 0,
                                 heading_line ? "no walkthrough \"### N. %s\" in this section"
                                              : "no \"## Walkthroughs\" section (for \"%s\")",
                                 title));
    if (r->n == 0)
        return wt_fail(err, name, text, len, pt_error_set(err, PT_ERR_EMPTY, heading_line, 1, "the walkthrough of \"%s\" has no steps", title));
    return PT_OK;
}

int walk_load(walk_route *r, const char *path, const char *title, pt_error *err) {
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = walk_parse(r, path, t.data, t.len, title, err);
    pt__text_free(&t);
    return rc;
}

/* The clock as the top bar shows it, in tenths (play_fmt_clock floors). */
static long wt_shown_tenths(const play_session *s) { return (long)floor(play_clock(s) * 10.0); }

int walk_play(play_session *s, const walk_route *r, const walk_opts *o, walk_result *res) {
    memset(res, 0, sizeof *res);
    long max = o->max_ticks > 0 ? o->max_ticks : 36000;
    long t = 0;
    int first_until = 1;
#define TICK(dx, dy)                                                                                                   \
    do {                                                                                                               \
        play_tick(s, (dx), (dy));                                                                                      \
        if (o->after_tick) o->after_tick(o->ctx, s->world);                                                            \
        t++;                                                                                                           \
    } while (0)
#define DONE() (s->round != 0 || t >= max)
    for (int k = 0; k < o->first && !DONE(); k++) TICK(0, 0);
    for (int i = 0; i < r->n && !DONE(); i++) {
        const walk_step *st = &r->steps[i];
        if (st->kind != WALK_UNTIL && i > 0)
            for (int k = 0; k < o->hesitate && !DONE(); k++) TICK(0, 0);
        if (st->kind == WALK_PRESS) {
            play_tap(s, st->dx, st->dy);
            TICK(0, 0);
        } else if (st->kind == WALK_HOLD) {
            const pt_entity *pl = pt_world_entity(s->world, 0);
            int walked = 0, still = 0, x = pl->x, y = pl->y;
            s->gait = st->gait;
            while (walked < st->tiles && !DONE()) {
                TICK(st->dx, st->dy);
                pl = pt_world_entity(s->world, 0);
                if (pl->x != x || pl->y != y) {
                    walked++;
                    still = 0;
                    x = pl->x;
                    y = pl->y;
                } else if (++still > 120) {
                    res->blocked = 1;
                    break;
                }
            }
            s->gait = PT_GAIT_WALK;
            if (res->blocked) break;
        } else {
            long want = st->tenths;
            int extra = first_until ? o->shift : o->late;
            first_until = 0;
            if (wt_shown_tenths(s) > want) res->behind++;
            /* Leave on the first tick the clock shows the reading, plus extra ticks (minus:
             * that many ticks before it shows). The clock counts whole ticks. */
            const double dt = pt_world_dt(s->world);
            long shown_at = (long)floor((double)want / 10.0 / dt) - 2;
            if (shown_at < 0) shown_at = 0;
            while ((long)floor((double)shown_at * dt * 10.0) < want) shown_at++;
            while ((long)llround(play_clock(s) / dt) < shown_at + extra && !DONE()) TICK(0, 0);
        }
        if (s->round == 0 && t < max) res->steps_done = i + 1;
    }
    for (int k = 0; k < 120 && !DONE(); k++) TICK(0, 0);
#undef TICK
#undef DONE
    res->round = s->round;
    res->ticks = (uint64_t)t;
    res->clock = play_clock(s);
    return res->round;
}
