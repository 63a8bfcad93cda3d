/* SPDX-License-Identifier: Zlib */
/* The level list file and the screens around the levels. No SDL here. The list is read with
 * the core's line reader and tokenizer, so comments, quotes, a byte-order mark, CRLF and the
 * error places are those of every other patrol file. */
#include "game/levels.h"

#include "common/app.h"
#include "common/cli.h"
#include "common/load.h"
#include "common/watch.h"

#include "base/text.h"

#include <patrol/map.h>
#include <patrol/pattern.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int list_fail(app_levels *l, pt_error *err, const char *name, const char *text, size_t len, int rc) {
    pt_error_locate(err, name, text, len);
    app_levels_fini(l);
    return rc;
}

int app_levels_parse(app_levels *l, const char *name, const char *text, size_t len, pt_error *err) {
    memset(l, 0, sizeof *l);
    snprintf(l->file, sizeof l->file, "%s", name);
    pt_error_clear(err);
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) return rc;
    /* Paths are relative to the list's folder. */
    char dir[PT_MAX_PATH] = "";
    const char *slash = strrchr(name, '/');
    if (slash && (size_t)(slash - name + 1) < sizeof dir) {
        memcpy(dir, name, (size_t)(slash - name + 1));
        dir[slash - name + 1] = '\0';
    }
    pt__reader r;
    pt__reader_init(&r, &t);
    static pt__line ln; /* 64 tokens: not on the stack */
    while ((rc = pt__reader_next(&r, &ln, err)) > 0) {
        if ((rc = pt__line_tokenize(&ln, err)) < 0) break;
        if (ln.ntok == 0) continue;
        static const char key[] = "difficulty=";
        const size_t klen = sizeof key - 1;
        if (ln.ntok > 1 && ((size_t)ln.tok[1].len < klen || memcmp(ln.tok[1].s, key, klen) != 0)) {
            rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, ln.tok[1].col,
                              "one map path a line, then optionally difficulty=WORD (quote a path with spaces: "
                              "\"my level.map\")");
            break;
        }
        if (ln.ntok > 2) {
            rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, ln.tok[2].col, "nothing comes after difficulty=WORD");
            break;
        }
        if (ln.ntok > 1) {
            const char *w = ln.tok[1].s + klen;
            size_t n = (size_t)ln.tok[1].len - klen, bad = 0;
            while (bad < n && (isalnum((unsigned char)w[bad]) || w[bad] == '-')) bad++;
            if (n == 0 || n > APP_DIFFICULTY_MAX || bad < n) {
                rc = pt_error_set(err, PT_ERR_BAD_VALUE, ln.no, ln.tok[1].col + (int)klen + (n > APP_DIFFICULTY_MAX ? 0 : (int)bad),
                                  "a difficulty is a word of 1 to %d letters, digits or '-'", APP_DIFFICULTY_MAX);
                break;
            }
        }
        if (l->n >= APP_LEVELS_MAX) {
            rc = pt_error_set(err, PT_ERR_LIMIT, ln.no, ln.tok[0].col, "more than %d levels in one list", APP_LEVELS_MAX);
            break;
        }
        if (!l->items && !(l->items = PT_CALLOC(APP_LEVELS_MAX, sizeof *l->items))) {
            rc = pt_error_set(err, PT_ERR_NOMEM, ln.no, 0, "out of memory");
            break;
        }
        app_level_item *it = &l->items[l->n];
        memset(it, 0, sizeof *it);
        if ((rc = pt__tok_path(&ln.tok[0], ln.no, dir, it->path, sizeof it->path, err)) < 0) break;
        it->line = ln.no;
        if (ln.ntok > 1)
            snprintf(it->difficulty, sizeof it->difficulty, "%.*s", (int)((size_t)ln.tok[1].len - klen), ln.tok[1].s + klen);
        for (int i = 0; i < l->n && rc == PT_OK; i++)
            if (strcmp(l->items[i].path, it->path) == 0)
                rc = pt_error_set(err, PT_ERR_DUPLICATE, ln.no, ln.tok[0].col, "this map is listed already (line %d)",
                                  l->items[i].line);
        if (rc < 0) break;
        l->n++;
    }
    if (rc >= 0 && l->n == 0) rc = pt_error_set(err, PT_ERR_EMPTY, 0, 0, "no levels: the list names no map");
    if (rc < 0) {
        rc = list_fail(l, err, name, t.data, t.len, rc);
        pt__text_free(&t);
        return rc;
    }
    pt__text_free(&t);
    return PT_OK;
}

int app_levels_load(app_levels *l, const char *path, pt_error *err, pt_error *why) {
    memset(l, 0, sizeof *l);
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = app_levels_parse(l, path, t.data, t.len, err);
    if (rc < 0) {
        pt__text_free(&t);
        return rc;
    }
    static pt_map map; /* the legend is large */
    pt_patlib lib;
    pt_error inner;
    for (int i = 0; i < l->n; i++) {
        app_level_item *it = &l->items[i];
        rc = pt_level_load(it->path, &map, &lib, &inner);
        if (rc == PT_OK) {
            const char *base = strrchr(it->path, '/');
            snprintf(it->title, sizeof it->title, "%.*s", (int)sizeof it->title - 1,
                     map.name[0] ? map.name : base ? base + 1 : it->path);
            rc = app_file_hash(map.path, &it->hash, &inner);
            pt_patlib_fini(&lib);
            pt_map_fini(&map);
        }
        if (rc < 0) {
            if (why) *why = inner;
            pt_error_set(err, rc, it->line, 1, "level %d (%s) does not load: %s", i + 1, it->path, inner.message);
            /* The column of the path on its line: the first non-blank byte. */
            const char *p = t.data;
            for (int line = 1; line < it->line && p < t.data + t.len; p++)
                if (*p == '\n') line++;
            while (p < t.data + t.len && (*p == ' ' || *p == '\t')) p++, err->col++;
            rc = list_fail(l, err, path, t.data, t.len, rc);
            pt__text_free(&t);
            return rc;
        }
    }
    pt__text_free(&t);
    return PT_OK;
}

void app_levels_fini(app_levels *l) {
    if (!l) return;
    PT_FREE(l->items);
    l->items = NULL;
    l->n = 0;
}

const char *app_default_levels(char *buf, size_t cap) {
    const char *demo = app_default_map(), *slash = strrchr(demo, '/');
    if (!slash) snprintf(buf, cap, "levels.txt");
    else snprintf(buf, cap, "%.*s/levels.txt", (int)(slash - demo), demo);
    return buf;
}

/* ---- the screens ------------------------------------------------------------------------------ */

void app_menu_init(app_menu *m, int nlevels) {
    memset(m, 0, sizeof *m);
    m->nlevels = nlevels;
}

int app_menu_rows(const app_menu *m) {
    if (m->screen == APP_SCREEN_LEVELS) return m->nlevels;
    if (m->screen == APP_SCREEN_RESULT) return m->level + 1 < m->nlevels ? 3 : 2;
    return 0;
}

app_result_choice app_menu_choice_at(const app_menu *m, int i) {
    return (app_result_choice)(app_menu_rows(m) == 3 ? i : i + 1);
}

int app_menu_selected(const app_menu *m) {
    if (m->screen == APP_SCREEN_LEVELS) return m->level;
    if (m->screen == APP_SCREEN_RESULT) return m->choice;
    return -1;
}

static app_menu_do select_row(app_menu *m, int row) {
    int *sel = m->screen == APP_SCREEN_LEVELS ? &m->level : &m->choice;
    if (*sel == row) return APP_MENU_NOTHING;
    *sel = row;
    return APP_MENU_MOVED;
}

static app_menu_do show(app_menu *m, app_screen screen) {
    m->screen = screen;
    return APP_MENU_SHOW;
}

static app_menu_do choose(app_menu *m) {
    switch (m->screen) {
    case APP_SCREEN_TITLE: return m->nlevels > 0 ? show(m, APP_SCREEN_LEVELS) : APP_MENU_NOTHING;
    case APP_SCREEN_LEVELS: m->screen = APP_SCREEN_PLAY; return APP_MENU_START;
    case APP_SCREEN_RESULT:
        switch (app_menu_choice_at(m, m->choice)) {
        case APP_RESULT_NEXT: m->level++; m->screen = APP_SCREEN_PLAY; return APP_MENU_START;
        case APP_RESULT_RETRY: m->screen = APP_SCREEN_PLAY; return APP_MENU_START;
        case APP_RESULT_LIST:
            if (m->level + 1 < m->nlevels) m->level++; /* the next one is where a player goes on */
            return show(m, APP_SCREEN_LEVELS);
        }
        return APP_MENU_NOTHING;
    default: return APP_MENU_NOTHING;
    }
}

app_menu_do app_menu_key(app_menu *m, app_menu_input key) {
    int rows = app_menu_rows(m), sel = app_menu_selected(m);
    switch (m->screen) {
    case APP_SCREEN_TITLE:
        if (key == APP_MENU_BACK) return show(m, APP_SCREEN_QUIT);
        return key == APP_MENU_ENTER ? choose(m) : APP_MENU_NOTHING;
    case APP_SCREEN_PLAY:
        return key == APP_MENU_BACK ? show(m, APP_SCREEN_LEVELS) : APP_MENU_NOTHING;
    case APP_SCREEN_LEVELS:
    case APP_SCREEN_RESULT:
        if (rows <= 0) return key == APP_MENU_BACK ? show(m, APP_SCREEN_TITLE) : APP_MENU_NOTHING;
        switch (key) {
        case APP_MENU_UP: return select_row(m, (sel + rows - 1) % rows);
        case APP_MENU_DOWN: return select_row(m, (sel + 1) % rows);
        case APP_MENU_HOME: return select_row(m, 0);
        case APP_MENU_END: return select_row(m, rows - 1);
        case APP_MENU_ENTER: return choose(m);
        case APP_MENU_BACK: return show(m, m->screen == APP_SCREEN_LEVELS ? APP_SCREEN_TITLE : APP_SCREEN_LEVELS);
        }
        return APP_MENU_NOTHING;
    default: return APP_MENU_NOTHING;
    }
}

app_menu_do app_menu_point(app_menu *m, int row, int click) {
    if (m->screen == APP_SCREEN_TITLE) return click ? choose(m) : APP_MENU_NOTHING;
    if (m->screen != APP_SCREEN_LEVELS && m->screen != APP_SCREEN_RESULT) return APP_MENU_NOTHING;
    if (row < 0 || row >= app_menu_rows(m)) return APP_MENU_NOTHING;
    app_menu_do d = select_row(m, row);
    return click ? choose(m) : d;
}

void app_menu_escaped(app_menu *m) {
    if (m->screen != APP_SCREEN_PLAY) return;
    m->screen = APP_SCREEN_RESULT;
    m->choice = 0;
}

void app_level_label(const app_levels *l, int i, char *buf, size_t cap) {
    const app_level_item *it = &l->items[i];
    if (it->difficulty[0]) snprintf(buf, cap, "%2d  %s  - %s", i + 1, it->title, it->difficulty);
    else snprintf(buf, cap, "%2d  %s", i + 1, it->title);
}

const char *app_result_text(const app_levels *l, int level, const char *level_title, const char *rest, int escaped,
                            char *buf, size_t cap) {
    if (level < l->n - 1) {
        snprintf(buf, cap, "%s\n\n%s", level_title, rest);
        return "ESCAPED!";
    }
    if (escaped >= l->n)
        snprintf(buf, cap, "you got away from %s, the last level\nall %d levels escaped - thanks for playing\n\n%s",
                 level_title, l->n, rest);
    else
        snprintf(buf, cap, "you got away from %s, the last level\n%d of %d levels escaped - the level list shows the rest\n\n%s",
                 level_title, escaped, l->n, rest);
    return "THE END";
}
