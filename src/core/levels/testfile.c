/* SPDX-License-Identifier: Zlib */
/* The .test file parser and its binding to a loaded map (docs/formats.md, "Tests"). */
#include <patrol/testing.h>

#include <patrol/script.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error_at.h"
#include "base/suggest.h"
#include "base/text.h"

static const char *const directives[] = {"map",    "seed",   "player", "patterns", "script",   "visits",
                                         "stays",  "covers", "unseen", "caught",   "goal",     "solvable", NULL};
enum { D_MAP, D_SEED, D_PLAYER, D_PATTERNS, D_SCRIPT, D_FIRST_EXPECT };

/* Keys each expectation takes, and whether it names a guard first. */
enum { K_WITHIN = 1, K_FOR = 2, K_EVERY = 4, K_ROUTE = 8, K_BY = 16, K_AREA = 32, K_MARGIN = 64 };
static const char *const key_names[] = {"within", "for", "every", "route", "by", "area", "margin", NULL};
static const struct {
    unsigned keys;
    int guard;     /* 1: the first item is a guard's name */
    int min_cells, max_cells;
} kinds[PT_EXPECT_KIND_COUNT] = {
    [PT_EXPECT_VISITS] = {K_WITHIN | K_ROUTE, 1, 1, PT_TEST_MAX_CELLS},
    [PT_EXPECT_STAYS] = {K_FOR | K_ROUTE | K_AREA, 1, 0, 0},
    [PT_EXPECT_COVERS] = {K_EVERY | K_FOR | K_ROUTE, 1, 1, 1},
    [PT_EXPECT_UNSEEN] = {K_FOR | K_ROUTE, 0, 0, 0},
    [PT_EXPECT_CAUGHT] = {K_WITHIN | K_ROUTE | K_BY, 0, 0, 0},
    [PT_EXPECT_GOAL] = {K_WITHIN | K_ROUTE, 0, 0, 0},
    [PT_EXPECT_SOLVABLE] = {K_MARGIN | K_WITHIN, 0, 0, 0},
};

typedef struct parser {
    pt_testfile *tf;
    pt_error *err;
    char dir[PT_MAX_PATH];
    int cap;
    int seen_seed, seen_player;
} parser;

static int tok_hint_choice(const pt__tok *t, const char *const *words, char *buf, size_t cap) {
    pt__suggest sg;
    pt__suggest_init(&sg, t->s, (size_t)t->len);
    pt__suggest_words(&sg, words);
    pt__suggest_hint(&sg, NULL, buf, cap);
    return 0;
}

/* A file path relative to the folder of the file being read. */
static int resolve_path(parser *p, int line, const pt__tok *t, char *dst, size_t cap) {
    return pt__tok_path(t, line, p->dir, dst, cap, p->err);
}

static int one_arg(parser *p, const pt__line *ln, const char *what) {
    if (ln->ntok < 2)
        return pt_error_set(p->err, PT_ERR_MISSING, ln->no, ln->tok[0].col + ln->tok[0].len + 1, "%.*s needs %s",
                            ln->tok[0].len, ln->tok[0].s, what);
    if (ln->ntok > 2) return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, ln->tok[2].col, "one %s only", what);
    return PT_OK;
}

static int tok_seed(parser *p, int line, const pt__tok *t, uint64_t *out) {
    uint64_t v = 0;
    if (t->len > 1 && t->s[0] == '-') return pt_error_set(p->err, PT_ERR_RANGE, line, t->col, "a seed cannot be negative");
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c < '0' || c > '9') return pt_error_set(p->err, PT_ERR_BAD_NUMBER, line, t->col, "expected a whole number");
        unsigned d = (unsigned)(c - '0');
        if (v > (UINT64_MAX - d) / 10) return pt_error_set(p->err, PT_ERR_RANGE, line, t->col, "seed is larger than 2^64-1");
        v = v * 10 + d;
    }
    *out = v;
    return PT_OK;
}

/* "X0,Y0,X1,Y1": two corners, each number located. */
static int tok_area(parser *p, int line, const pt__tok *t, pt_expect *x) {
    int v[4], n = 0, b = 0;
    for (int i = 0; i <= t->len; i++) {
        if (i < t->len && t->s[i] != ',') continue;
        pt__tok part = {t->s + b, i - b, t->col + b, 0};
        if (n == 4) return pt_error_set(p->err, PT_ERR_SYNTAX, line, t->col + b - 1, "an area is X0,Y0,X1,Y1: four numbers");
        int rc = pt__tok_int(&part, line, -1000000, 1000000, &v[n], p->err);
        if (rc < 0) return rc;
        n++;
        b = i + 1;
    }
    if (n != 4) return pt_error_set(p->err, PT_ERR_SYNTAX, line, t->col, "an area is X0,Y0,X1,Y1: four numbers");
    if (v[2] < v[0] || v[3] < v[1])
        return pt_error_set(p->err, PT_ERR_RANGE, line, t->col, "the second corner %d,%d is left of or above the first %d,%d",
                            v[2], v[3], v[0], v[1]);
    x->area_lo = (pt_cell){v[0], v[1]};
    x->area_hi = (pt_cell){v[2], v[3]};
    x->area_col = t->col;
    return PT_OK;
}

static int parse_expect(parser *p, const pt__line *ln, pt_expect_kind kind) {
    pt_testfile *tf = p->tf;
    if (tf->count >= PT_TEST_MAX_EXPECTS)
        return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, ln->tok[0].col, "more than %d expectations", PT_TEST_MAX_EXPECTS);
    if (tf->count == p->cap) {
        int ncap = p->cap ? p->cap * 2 : 16;
        pt_expect *n = PT_REALLOC(tf->items, sizeof *n * (size_t)ncap);
        if (!n) return pt_error_set(p->err, PT_ERR_NOMEM, ln->no, ln->tok[0].col, "out of memory");
        tf->items = n;
        p->cap = ncap;
    }
    pt_expect *x = &tf->items[tf->count];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->line = ln->no;
    x->col = ln->tok[0].col;
    x->within = PT_TEST_DEFAULT_WITHIN;
    x->duration = PT_TEST_DEFAULT_FOR;
    x->every = PT_TEST_DEFAULT_EVERY;
    x->margin = PT_TEST_DEFAULT_MARGIN;
    size_t used = 0;
    for (int i = 0; i < ln->ntok; i++) {
        int n = snprintf(x->text + used, sizeof x->text - used, "%s%.*s", i ? " " : "", ln->tok[i].len, ln->tok[i].s);
        if (n > 0) used = used + (size_t)n < sizeof x->text ? used + (size_t)n : sizeof x->text - 1;
    }
    unsigned given = 0;
    int positional = 0, rc;
    for (int i = 1; i < ln->ntok; i++) {
        const pt__tok *t = &ln->tok[i];
        pt__tok key, val;
        if (!pt__tok_kv(t, &key, &val)) {
            if (kinds[kind].guard && positional == 0) {
                if ((rc = pt__tok_name(t, ln->no, x->guard, sizeof x->guard, p->err)) < 0) return rc;
                x->guard_col = t->col;
            } else if (x->ncells < kinds[kind].max_cells) {
                if ((rc = pt__tok_cell(t, ln->no, -1000000, 1000000, &x->cells[x->ncells].x, &x->cells[x->ncells].y,
                                       p->err)) < 0)
                    return rc;
                x->cell_col[x->ncells++] = t->col;
            } else if (kinds[kind].max_cells >= PT_TEST_MAX_CELLS) {
                return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, t->col, "more than %d cells", PT_TEST_MAX_CELLS);
            } else {
                return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, t->col, "expected key=value here (%s takes %s)",
                                    pt_expect_kind_name(kind),
                                    kinds[kind].max_cells ? "one cell" : kinds[kind].guard ? "a guard's name" : "keys only");
            }
            positional++;
            continue;
        }
        int k = -1;
        for (int j = 0; key_names[j]; j++)
            if (pt__tok_eq(&key, key_names[j]) && (kinds[kind].keys & (1u << j))) k = j;
        if (k < 0) {
            pt__suggest sg;
            char hint[80], list[120] = "";
            size_t lu = 0;
            pt__suggest_init(&sg, key.s, (size_t)key.len);
            for (int j = 0; key_names[j]; j++)
                if (kinds[kind].keys & (1u << j)) {
                    pt__suggest_add(&sg, key_names[j]);
                    int n = snprintf(list + lu, sizeof list - lu, "%s%s", lu ? ", " : "", key_names[j]);
                    if (n > 0 && lu + (size_t)n < sizeof list) lu += (size_t)n;
                }
            return pt_error_set(p->err, PT_ERR_UNKNOWN_KEY, ln->no, key.col, "%s has no key '%.*s' (keys: %s)%s",
                                pt_expect_kind_name(kind), key.len > 40 ? 40 : key.len, key.s, list,
                                pt__suggest_hint(&sg, "", hint, sizeof hint));
        }
        if (given & (1u << k))
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, key.col, "%s= given twice", key_names[k]);
        given |= 1u << k;
        unsigned bit = 1u << k;
        if (bit == K_WITHIN || bit == K_FOR || bit == K_EVERY) {
            double *dst = bit == K_WITHIN ? &x->within : bit == K_FOR ? &x->duration : &x->every;
            if ((rc = pt__tok_num_key(&val, ln->no, key_names[k], 1e-3, PT_TEST_MAX_SECONDS, 0, dst, p->err)) < 0) return rc;
        } else if (bit == K_MARGIN) {
            if ((rc = pt__tok_num_key(&val, ln->no, "margin", 0, PT_TEST_MAX_MARGIN, 0, &x->margin, p->err)) < 0) return rc;
        } else if (bit == K_ROUTE) {
            if ((rc = pt__tok_name(&val, ln->no, x->route, sizeof x->route, p->err)) < 0) return rc;
            x->route_col = val.col;
        } else if (bit == K_BY) {
            if ((rc = pt__tok_name(&val, ln->no, x->guard, sizeof x->guard, p->err)) < 0) return rc;
            x->guard_col = val.col;
        } else if ((rc = tok_area(p, ln->no, &val, x)) < 0) {
            return rc;
        }
    }
    const pt__tok *last = &ln->tok[ln->ntok - 1];
    int past = last->col + last->len + (last->quoted ? 2 : 0) + 1;
    if (kinds[kind].guard && !x->guard[0])
        return pt_error_set(p->err, PT_ERR_MISSING, ln->no, past, "%s needs a guard's name", pt_expect_kind_name(kind));
    if (x->ncells < kinds[kind].min_cells)
        return pt_error_set(p->err, PT_ERR_MISSING, ln->no, past, "%s needs %s", pt_expect_kind_name(kind),
                            kinds[kind].max_cells > 1 ? "one or more cells X,Y" : "a cell X,Y");
    if ((kinds[kind].keys & K_AREA) && !(given & K_AREA))
        return pt_error_set(p->err, PT_ERR_MISSING, ln->no, past, "%s needs area=X0,Y0,X1,Y1", pt_expect_kind_name(kind));
    tf->count++;
    return PT_OK;
}

static int parse_line(parser *p, pt__line *ln) {
    pt_testfile *tf = p->tf;
    const pt__tok *w = &ln->tok[0];
    int d = -1, rc;
    for (int i = 0; directives[i]; i++)
        if (pt__tok_eq(w, directives[i])) d = i;
    if (d < 0) {
        char hint[80];
        tok_hint_choice(w, directives, hint, sizeof hint);
        return pt_error_set(p->err, PT_ERR_UNKNOWN_DIRECTIVE, ln->no, w->col, "unknown directive '%.*s'%s",
                            w->len > 40 ? 40 : w->len, w->s, hint);
    }
    if (d >= D_FIRST_EXPECT) return parse_expect(p, ln, (pt_expect_kind)(d - D_FIRST_EXPECT));
    const pt__tok *a = &ln->tok[1];
    switch (d) {
    case D_MAP:
        if ((rc = one_arg(p, ln, "a map file")) < 0) return rc;
        if (tf->map_line) return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, w->col, "a second map line (one map per test file)");
        if ((rc = resolve_path(p, ln->no, a, tf->map_path, sizeof tf->map_path)) < 0) return rc;
        tf->map_line = ln->no;
        tf->map_col = a->col;
        return PT_OK;
    case D_SEED:
        if ((rc = one_arg(p, ln, "a whole number")) < 0) return rc;
        if (p->seen_seed++) return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, w->col, "a second seed line");
        return tok_seed(p, ln->no, a, &tf->seed);
    case D_PLAYER:
        if ((rc = one_arg(p, ln, "a pattern name (or none)")) < 0) return rc;
        if (p->seen_player++) return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, w->col, "a second player line");
        if ((rc = pt__tok_name(a, ln->no, tf->route, sizeof tf->route, p->err)) < 0) return rc;
        tf->route_line = ln->no;
        tf->route_col = a->col;
        return PT_OK;
    case D_PATTERNS:
        if ((rc = one_arg(p, ln, "a pattern file")) < 0) return rc;
        if (tf->npattern_files >= PT_TEST_MAX_PATTERN_FILES)
            return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, a->col, "more than %d pattern files", PT_TEST_MAX_PATTERN_FILES);
        if ((rc = resolve_path(p, ln->no, a, tf->pattern_files[tf->npattern_files], PT_MAX_PATH)) < 0) return rc;
        tf->pattern_line[tf->npattern_files] = ln->no;
        tf->pattern_col[tf->npattern_files++] = a->col;
        return PT_OK;
    case D_SCRIPT:
        if ((rc = one_arg(p, ln, "a script file")) < 0) return rc;
        if (tf->script_line) return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, w->col, "a second script line");
        if ((rc = resolve_path(p, ln->no, a, tf->script_path, sizeof tf->script_path)) < 0) return rc;
        tf->script_line = ln->no;
        tf->script_col = a->col;
        return PT_OK;
    default: return PT_OK;
    }
}

int pt_testfile_parse(pt_testfile *tf, const char *text, size_t len, const char *name, pt_error *err) {
    memset(tf, 0, sizeof *tf);
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) return rc;
    parser p = {.tf = tf, .err = err};
    snprintf(tf->path, sizeof tf->path, "%s", name ? name : "");
    const char *slash = strrchr(tf->path, '/');
    if (slash) snprintf(p.dir, sizeof p.dir, "%.*s", (int)(slash - tf->path + 1), tf->path);
    pt__reader r;
    pt__reader_init(&r, &t);
    pt__line ln;
    int last = 1;
    while ((rc = pt__reader_next(&r, &ln, err)) > 0) {
        last = ln.no;
        if ((rc = pt__line_tokenize(&ln, err)) < 0) break;
        if (ln.ntok == 0) continue;
        if ((rc = parse_line(&p, &ln)) < 0) break;
    }
    if (rc == 0 && !tf->map_line)
        rc = pt_error_set(err, PT_ERR_MISSING, last, 1, "no map line: a test file names its map with 'map FILE'");
    if (rc == 0 && tf->count == 0)
        rc = pt_error_set(err, PT_ERR_EMPTY, tf->map_line, 1, "no expectations: nothing to test");
    if (rc < 0) {
        pt_error_locate(err, name ? name : "", t.data, t.len);
        pt__text_free(&t);
        pt_testfile_fini(tf);
        return rc;
    }
    pt__text_free(&t);
    pt_error_clear(err);
    return PT_OK;
}

int pt_testfile_load(pt_testfile *tf, const char *path, pt_error *err) {
    memset(tf, 0, sizeof *tf);
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = pt_testfile_parse(tf, t.data, t.len, path, err);
    pt__text_free(&t);
    return rc;
}

void pt_testfile_fini(pt_testfile *tf) {
    if (!tf) return;
    if (tf->script) pt_script_fini(tf->script);
    PT_FREE(tf->script);
    tf->script = NULL;
    PT_FREE(tf->items);
    tf->items = NULL;
    tf->count = 0;
}

/* ---- binding to a map ---------------------------------------------------------------- */

static int bind_error(const pt_testfile *tf, pt_error *err, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static int bind_error(const pt_testfile *tf, pt_error *err, int code, int line, int col, const char *fmt, ...) {
    if (!err) return code;
    char msg[PT_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pt_error_set(err, code, line, col, "%s", msg);
    snprintf(err->file, sizeof err->file, "%s", tf->path);
    err->source[0] = '\0'; /* pt_error_print reads the line from the file */
    return code;
}

static int bind_guard(const pt_testfile *tf, const pt_map *map, const pt_expect *x, pt_error *err) {
    pt__suggest sg;
    pt__suggest_init(&sg, x->guard, strlen(x->guard));
    for (int i = 0; i < map->nents; i++) {
        const pt_entity_def *d = &map->ents[i];
        if (strcmp(d->name, x->guard) == 0) {
            if (d->kind == PT_KIND_GUARD) return PT_OK;
            return bind_error(tf, err, PT_ERR_BAD_VALUE, x->line, x->guard_col, "'%s' is a %s, not a guard", x->guard,
                              pt_kind_name(d->kind));
        }
        if (d->kind == PT_KIND_GUARD) pt__suggest_add(&sg, d->name);
    }
    char hint[80];
    return bind_error(tf, err, PT_ERR_BAD_VALUE, x->line, x->guard_col, "%s has no guard '%s'%s", map->path, x->guard,
                      pt__suggest_hint(&sg, "", hint, sizeof hint));
}

static int bind_route(const pt_testfile *tf, const pt_patlib *lib, const char *route, int line, int col,
                      const pt_pattern **out, pt_error *err) {
    *out = NULL;
    if (!route[0] || strcmp(route, PT_TEST_ROUTE_NONE) == 0) return PT_OK;
    if ((*out = pt_patlib_find(lib, route)) != NULL) return PT_OK;
    pt__suggest sg;
    pt__suggest_init(&sg, route, strlen(route));
    for (int i = 0; i < pt_patlib_count(lib); i++) pt__suggest_add(&sg, pt_patlib_get(lib, i)->name);
    char hint[80];
    return bind_error(tf, err, PT_ERR_UNKNOWN_PATTERN, line, col, "no pattern '%s' in the map's or the test's pattern files%s",
                      route, pt__suggest_hint(&sg, " (route=none: the player stands still)", hint, sizeof hint));
}

static int cell_in(const pt_testfile *tf, const pt_map *map, int x, int y, int line, int col, pt_error *err) {
    if (x >= 0 && y >= 0 && x < map->w && y < map->h) return PT_OK;
    char c[48], size[48];
    snprintf(c, sizeof c, "%d,%d", x, y);
    snprintf(size, sizeof size, "%dx%d", map->w, map->h);
    return bind_error(tf, err, PT_ERR_OUT_OF_MAP, line, col, "cell %s is outside the map (%s tiles)", c, size);
}

/* A route is linted as the world will walk it (pt_pattern_lint_route): the first problem,
 * located in the pattern file, names the line of the test that asks for it. */
static int lint_route(const pt_testfile *tf, const pt_map *map, const pt_pattern *pat, const char *what, int line,
                      pt_error *err) {
    pt_error first;
    if (!pat || pt_pattern_lint_route(pat, map, &first, 1) == 0) return PT_OK;
    if (err) {
        *err = first;
        size_t len = strlen(err->message);
        snprintf(err->message + len, sizeof err->message - len, " (%s on %.120s:%d)", what, tf->path, line);
    }
    return first.code;
}

/* The `script` line's file: read (its errors in it; one it cannot read at the script line)
 * and checked against the map. */
static int bind_script(pt_testfile *tf, const pt_map *map, pt_error *err) {
    pt_script *s = PT_CALLOC(1, sizeof *s);
    if (!s) return bind_error(tf, err, PT_ERR_NOMEM, tf->script_line, tf->script_col, "out of memory");
    int rc = pt_script_load(s, tf->script_path, err);
    if (rc < 0) {
        pt__error_named_at(err, tf->path, tf->script_line, tf->script_col, "script", tf->script_path);
        PT_FREE(s);
        return rc;
    }
    if ((rc = pt_script_bind(s, map, err)) < 0) {
        pt_script_fini(s);
        PT_FREE(s);
        return rc;
    }
    tf->script = s;
    return PT_OK;
}

int pt_testfile_bind(pt_testfile *tf, const pt_map *map, pt_patlib *lib, pt_error *err) {
    int rc;
    for (int i = 0; i < tf->npattern_files; i++)
        if ((rc = pt_patlib_load(lib, tf->pattern_files[i], err)) < 0) {
            pt__error_named_at(err, tf->path, tf->pattern_line[i], tf->pattern_col[i], "pattern file", tf->pattern_files[i]);
            return rc;
        }
    if (tf->script_path[0] && !tf->script && (rc = bind_script(tf, map, err)) < 0) return rc;
    if ((rc = bind_route(tf, lib, tf->route, tf->route_line, tf->route_col, &tf->route_pat, err)) < 0) return rc;
    if ((rc = lint_route(tf, map, tf->route_pat, "the player line", tf->route_line, err)) < 0) return rc;
    for (int i = 0; i < tf->count; i++) {
        pt_expect *x = &tf->items[i];
        if (x->guard[0] && (rc = bind_guard(tf, map, x, err)) < 0) return rc;
        for (int k = 0; k < x->ncells; k++)
            if ((rc = cell_in(tf, map, x->cells[k].x, x->cells[k].y, x->line, x->cell_col[k], err)) < 0) return rc;
        if (x->kind == PT_EXPECT_STAYS &&
            ((rc = cell_in(tf, map, x->area_lo.x, x->area_lo.y, x->line, x->area_col, err)) < 0 ||
             (rc = cell_in(tf, map, x->area_hi.x, x->area_hi.y, x->line, x->area_col, err)) < 0))
            return rc;
        if ((rc = bind_route(tf, lib, x->route, x->line, x->route_col, &x->route_pat, err)) < 0) return rc;
        const pt_pattern *before = NULL; /* a route linted on an earlier line is not linted again */
        for (int j = 0; j < i && !before; j++)
            if (tf->items[j].route_pat == x->route_pat) before = x->route_pat;
        if (!before && x->route_pat != tf->route_pat && (rc = lint_route(tf, map, x->route_pat, "route=", x->line, err)) < 0)
            return rc;
    }
    pt_error_clear(err);
    return PT_OK;
}
