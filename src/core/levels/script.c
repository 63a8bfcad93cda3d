/* SPDX-License-Identifier: Zlib */
/* Scripts: timed world commands from text (patrol/script.h, docs/formats.md "Scripts").
 * A command is one entry of the verb table below: its word, its arguments (each of a kind
 * the parser and the binder know) and the call that applies it to a world. */
#include <patrol/script.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/hearing.h>
#include <patrol/light.h>
#include <patrol/player.h>
#include <patrol/spawn.h>

#include "base/suggest.h"
#include "base/text.h"
#include "map/doors.h"

/* The kinds of argument a command takes: how each is read and checked against the map. */
typedef enum arg_kind {
    A_CELL,     /* X,Y: cmd x, y; inside the map */
    A_TILE,     /* one legend character: cmd choice; in the map's legend */
    A_LOUDNESS, /* a number in (0, PT_HEARING_MAX_LOUDNESS]: cmd value */
    A_GAIT,     /* walk, sneak or run: cmd choice */
    A_DOOR,     /* open, closed or locked: cmd choice (the cell, an A_CELL before it, a door) */
    A_SPAWN,    /* guard|prey|flock NAME KEY=VALUE...: the rest of the line, cmd text */
    A_NAME,     /* an entity's name: cmd text */
    A_ORDER,    /* goto X,Y | investigate X,Y | hold | resume: the rest, cmd choice, x, y */
    A_LIGHT,    /* a light's name: cmd text; a light of the map */
    A_ONOFF,    /* on or off: cmd choice 1 or 0 */
} arg_kind;

enum { MAX_ARGS = 4 };

typedef int (*apply_fn)(const pt_script_cmd *c, pt_world *w, pt_error *err);

static int apply_tile(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_player(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_noise(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_gait(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_door(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_spawn(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_remove(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_order(const pt_script_cmd *c, pt_world *w, pt_error *err);
static int apply_light(const pt_script_cmd *c, pt_world *w, pt_error *err);

/* The commands: a new one is an entry here (and a pt_script_verb). */
static const struct verb_def {
    const char *name;
    const char *usage;      /* its arguments, for messages */
    int nargs;
    arg_kind arg[MAX_ARGS];
    apply_fn apply;
} verbs[PT_SCRIPT_VERB_COUNT] = {
    [PT_SCRIPT_TILE] = {"tile", "X,Y C (C a legend character; a wall is '#', quoted)", 2, {A_CELL, A_TILE}, apply_tile},
    [PT_SCRIPT_PLAYER] = {"player", "X,Y", 1, {A_CELL}, apply_player},
    [PT_SCRIPT_NOISE] = {"noise", "X,Y L (L the loudness in tiles, above 0, up to 256)", 2, {A_CELL, A_LOUDNESS}, apply_noise},
    [PT_SCRIPT_GAIT] = {"gait", "walk|sneak|run", 1, {A_GAIT}, apply_gait},
    [PT_SCRIPT_DOOR] = {"door", "X,Y open|closed|locked (X,Y a door of the map)", 2, {A_CELL, A_DOOR}, apply_door},
    [PT_SCRIPT_SPAWN] = {"spawn", "guard|prey|flock NAME KEY=VALUE... (a map's entity line)", 1, {A_SPAWN}, apply_spawn},
    [PT_SCRIPT_REMOVE] = {"remove", "NAME", 1, {A_NAME}, apply_remove},
    [PT_SCRIPT_ORDER] = {"order", "NAME goto X,Y|investigate X,Y|hold|resume", 2, {A_NAME, A_ORDER}, apply_order},
    [PT_SCRIPT_LIGHT] = {"light", "NAME on|off (NAME a light of the map)", 2, {A_LIGHT, A_ONOFF}, apply_light},
};
static const char *const spawn_words[] = {"guard", "prey", "flock", NULL};
static const char *const order_words[] = {"goto", "investigate", "hold", "resume", NULL};

static const char *const gait_words[] = {"walk", "sneak", "run", NULL};
static const char *const door_words[] = {"open", "closed", "locked", NULL}; /* pt_door_state order */
static const char *const onoff_words[] = {"off", "on", NULL};               /* choice 0 off, 1 on */

const char *pt_script_verb_name(pt_script_verb v) {
    return (unsigned)v < PT_SCRIPT_VERB_COUNT ? verbs[v].name : "unknown";
}

static void verb_list(char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < PT_SCRIPT_VERB_COUNT; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", verbs[i].name);
        if (n > 0 && used + (size_t)n < cap) used += (size_t)n;
    }
}

static int find_verb(const pt__tok *t) {
    for (int i = 0; i < PT_SCRIPT_VERB_COUNT; i++)
        if (pt__tok_eq(t, verbs[i].name)) return i;
    return -1;
}

/* ---- parsing ------------------------------------------------------------------------- */

/* The column just past a line's last item (where a missing one goes). */
static int past_end(const pt__line *ln) {
    const pt__tok *last = &ln->tok[ln->ntok - 1];
    return last->col + last->len + (last->quoted ? 2 : 0) + 1;
}

/* `T` ticks (a whole number) or `Xs` seconds at PT_PATTERN_TICK_HZ a second, rounded to the
 * nearest tick; 0..PT_SCRIPT_MAX_TICK ticks. */
static int parse_time(const pt__tok *t, int line, uint64_t *out, pt_error *err) {
    double tk;
    if (t->len > 1 && !t->quoted && t->s[t->len - 1] == 's') {
        pt__tok n = *t;
        n.len--;
        double sec = 0.0;
        int rc = pt__tok_num(&n, line, -1e12, 1e12, &sec, err);
        if (rc == PT_ERR_RANGE) sec = -1.0; /* 1e999s: out of range below */
        else if (rc < 0) return rc;
        tk = sec < 0.0 ? -1.0 : floor(sec * PT_PATTERN_TICK_HZ + 0.5);
    } else {
        int v;
        int rc = pt__tok_int(t, line, -2000000000L, 2000000000L, &v, err);
        double x;
        pt_error quiet;
        if (rc == PT_ERR_BAD_NUMBER && pt__tok_num(t, line, -1e12, 1e12, &x, &quiet) == PT_OK)
            return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col,
                                "a time without 's' is whole ticks: did you mean '%.*ss' (seconds)?", t->len > 40 ? 40 : t->len,
                                t->s);
        if (rc == PT_ERR_RANGE) tk = -1.0;
        else if (rc < 0) return rc;
        else tk = v;
    }
    if (tk < 0.0 || tk > (double)PT_SCRIPT_MAX_TICK)
        return pt_error_set(err, PT_ERR_RANGE, line, t->col, "a time takes 0 to %ld ticks (%.2f s)", PT_SCRIPT_MAX_TICK,
                            (double)PT_SCRIPT_MAX_TICK / PT_PATTERN_TICK_HZ);
    *out = (uint64_t)tk;
    return PT_OK;
}

/* The last argument of spawn and order takes the rest of the line: its tokens. */
static int takes_rest(arg_kind k) { return k == A_SPAWN || k == A_ORDER; }

/* The text from token t to the end of the line's last token, into c->text. */
static int rest_text(const pt__line *ln, const pt__tok *t, pt_script_cmd *c, pt_error *err) {
    const pt__tok *last = &ln->tok[ln->ntok - 1];
    const char *end = last->s + last->len + (last->quoted ? 1 : 0);
    const char *from = t->quoted ? t->s - 1 : t->s;
    if (end - from >= PT_SCRIPT_MAX_TEXT)
        return pt_error_set(err, PT_ERR_LIMIT, ln->no, t->col, "a spawn line of at most %d bytes", PT_SCRIPT_MAX_TEXT - 1);
    snprintf(c->text, sizeof c->text, "%.*s", (int)(end - from), from);
    return PT_OK;
}

/* spawn's and order's arguments (their words checked, with suggestions), from token t on. */
static int parse_rest(arg_kind k, const pt__line *ln, int at, pt_script_cmd *c, pt_error *err) {
    const pt__tok *t = &ln->tok[at];
    int rc = pt__tok_choice(t, ln->no, k == A_SPAWN ? spawn_words : order_words, &c->choice, err);
    if (rc < 0) return rc;
    if (k == A_SPAWN) {
        if (ln->ntok < at + 2)
            return pt_error_set(err, PT_ERR_MISSING, ln->no, past_end(ln), "spawn %.*s needs a NAME and its keys", t->len, t->s);
        return rest_text(ln, t, c, err);
    }
    const int cells = c->choice <= 1 ? 1 : 0; /* goto, investigate: X,Y */
    if (ln->ntok < at + 1 + cells)
        return pt_error_set(err, PT_ERR_MISSING, ln->no, past_end(ln), "order ... %.*s needs X,Y", t->len, t->s);
    if (ln->ntok > at + 1 + cells) {
        const pt__tok *x = &ln->tok[at + 1 + cells];
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, x->col, "unexpected '%.*s': %s takes %s", x->len > 40 ? 40 : x->len,
                            x->s, "order", verbs[PT_SCRIPT_ORDER].usage);
    }
    if (cells) {
        c->arg_col[2] = ln->tok[at + 1].col;
        return pt__tok_cell(&ln->tok[at + 1], ln->no, -1000000, 1000000, &c->x, &c->y, err);
    }
    return PT_OK;
}

static int parse_arg(arg_kind k, const pt__tok *t, int line, pt_script_cmd *c, pt_error *err) {
    switch (k) {
    case A_SPAWN:
    case A_ORDER: return PT_ERR_INTERNAL; /* parse_rest */
    case A_NAME:
    case A_LIGHT:
        if (t->len >= PT_MAX_NAME)
            return pt_error_set(err, PT_ERR_LIMIT, line, t->col, "a name of at most %d bytes", PT_MAX_NAME - 1);
        snprintf(c->text, sizeof c->text, "%.*s", t->len, t->s);
        return PT_OK;
    case A_CELL: return pt__tok_cell(t, line, -1000000, 1000000, &c->x, &c->y, err);
    case A_TILE:
        if (t->len != 1)
            return pt_error_set(err, PT_ERR_SYNTAX, line, t->col,
                                "a tile is one legend character, not '%.*s' (a wall is '#', quoted: a bare # starts a comment)",
                                t->len > 40 ? 40 : t->len, t->s);
        c->choice = (unsigned char)t->s[0];
        return PT_OK;
    case A_LOUDNESS: {
        int rc = pt__tok_num(t, line, -1e300, 1e300, &c->value, err);
        if (rc < 0) return rc;
        if (!(c->value > 0.0) || c->value > PT_HEARING_MAX_LOUDNESS)
            return pt_error_set(err, PT_ERR_RANGE, line, t->col, "a loudness takes more than 0, up to %g tiles",
                                (double)PT_HEARING_MAX_LOUDNESS);
        return PT_OK;
    }
    case A_GAIT: return pt__tok_choice(t, line, gait_words, &c->choice, err);
    case A_DOOR: return pt__tok_choice(t, line, door_words, &c->choice, err);
    case A_ONOFF: return pt__tok_choice(t, line, onoff_words, &c->choice, err);
    }
    return PT_ERR_INTERNAL;
}

typedef struct parser {
    pt_script *s;
    int cap;
    pt_error *err;
} parser;

static int parse_line(parser *p, const pt__line *ln) {
    pt_error *err = p->err;
    const pt__tok *w = &ln->tok[0];
    if (!pt__tok_eq(w, "at")) {
        if (find_verb(w) >= 0)
            return pt_error_set(err, PT_ERR_UNKNOWN_DIRECTIVE, ln->no, w->col,
                                "'%.*s' needs its time first: 'at T %.*s ...' (T in ticks, or seconds as 1.5s)", w->len, w->s,
                                w->len, w->s);
        pt__suggest sg;
        char hint[80];
        pt__suggest_init(&sg, w->s, (size_t)w->len);
        pt__suggest_add(&sg, "at");
        return pt_error_set(err, PT_ERR_UNKNOWN_DIRECTIVE, ln->no, w->col,
                            "unknown directive '%.*s': a script line is 'at T COMMAND ...'%s", w->len > 40 ? 40 : w->len, w->s,
                            pt__suggest_hint(&sg, "", hint, sizeof hint));
    }
    if (ln->ntok < 2)
        return pt_error_set(err, PT_ERR_MISSING, ln->no, past_end(ln), "at needs a time (ticks, or seconds as 1.5s) and a command");
    pt_script_cmd c;
    memset(&c, 0, sizeof c);
    c.line = ln->no;
    int rc = parse_time(&ln->tok[1], ln->no, &c.tick, err);
    if (rc < 0) return rc;
    pt_script *s = p->s;
    if (s->count > 0 && c.tick < s->cmds[s->count - 1].tick)
        return pt_error_set(err, PT_ERR_RANGE, ln->no, ln->tok[1].col,
                            "tick %llu comes before tick %llu of line %d: a script's times go in order",
                            (unsigned long long)c.tick, (unsigned long long)s->cmds[s->count - 1].tick, s->cmds[s->count - 1].line);
    char list[80];
    verb_list(list, sizeof list);
    if (ln->ntok < 3) return pt_error_set(err, PT_ERR_MISSING, ln->no, past_end(ln), "at T needs a command (%s)", list);
    const pt__tok *v = &ln->tok[2];
    int verb = find_verb(v);
    if (verb < 0) {
        pt__suggest sg;
        char hint[80];
        pt__suggest_init(&sg, v->s, (size_t)v->len);
        for (int i = 0; i < PT_SCRIPT_VERB_COUNT; i++) pt__suggest_add(&sg, verbs[i].name);
        return pt_error_set(err, PT_ERR_UNKNOWN_DIRECTIVE, ln->no, v->col, "unknown command '%.*s' (commands: %s)%s",
                            v->len > 40 ? 40 : v->len, v->s, list, pt__suggest_hint(&sg, "", hint, sizeof hint));
    }
    const struct verb_def *d = &verbs[verb];
    c.verb = (pt_script_verb)verb;
    c.col = v->col;
    int given = ln->ntok - 3;
    if (given < d->nargs)
        return pt_error_set(err, PT_ERR_MISSING, ln->no, past_end(ln), "%s needs %s", d->name, d->usage);
    const int rest = takes_rest(d->arg[d->nargs - 1]);
    if (given > d->nargs && !rest)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->tok[3 + d->nargs].col, "unexpected '%.*s': %s takes %s",
                            ln->tok[3 + d->nargs].len > 40 ? 40 : ln->tok[3 + d->nargs].len, ln->tok[3 + d->nargs].s, d->name,
                            d->usage);
    for (int i = 0; i < d->nargs; i++) {
        c.arg_col[i] = ln->tok[3 + i].col;
        if (takes_rest(d->arg[i])) rc = parse_rest(d->arg[i], ln, 3 + i, &c, err);
        else rc = parse_arg(d->arg[i], &ln->tok[3 + i], ln->no, &c, err);
        if (rc < 0) return rc;
    }
    if (s->count >= PT_SCRIPT_MAX_COMMANDS)
        return pt_error_set(err, PT_ERR_LIMIT, ln->no, w->col, "more than %d commands", PT_SCRIPT_MAX_COMMANDS);
    if (s->count == p->cap) {
        int ncap = p->cap ? p->cap * 2 : 16;
        pt_script_cmd *n = PT_REALLOC(s->cmds, sizeof *n * (size_t)ncap);
        if (!n) return pt_error_set(err, PT_ERR_NOMEM, ln->no, w->col, "out of memory");
        s->cmds = n;
        p->cap = ncap;
    }
    s->cmds[s->count++] = c;
    return PT_OK;
}

int pt_script_parse(pt_script *s, const char *text, size_t len, const char *name, pt_error *err) {
    memset(s, 0, sizeof *s);
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) return rc;
    snprintf(s->path, sizeof s->path, "%s", name ? name : "");
    parser p = {.s = s, .err = err};
    pt__reader r;
    pt__reader_init(&r, &t);
    pt__line ln;
    while ((rc = pt__reader_next(&r, &ln, err)) > 0) {
        if ((rc = pt__line_tokenize(&ln, err)) < 0) break;
        if (ln.ntok == 0) continue;
        if ((rc = parse_line(&p, &ln)) < 0) break;
    }
    if (rc < 0) {
        pt_error_locate(err, name ? name : "", t.data, t.len);
        pt__text_free(&t);
        pt_script_fini(s);
        return rc;
    }
    pt__text_free(&t);
    pt_error_clear(err);
    return PT_OK;
}

int pt_script_load(pt_script *s, const char *path, pt_error *err) {
    memset(s, 0, sizeof *s);
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = pt_script_parse(s, t.data, t.len, path, err);
    pt__text_free(&t);
    return rc;
}

void pt_script_fini(pt_script *s) {
    if (!s) return;
    PT_FREE(s->cmds);
    s->cmds = NULL;
    s->count = 0;
}

/* ---- binding and applying ------------------------------------------------------------ */

/* An error at a command's argument, in the script's file (the source line is read back from
 * the file when printed). */
static int cmd_error(const pt_script *s, const pt_script_cmd *c, int col, pt_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static int cmd_error(const pt_script *s, const pt_script_cmd *c, int col, pt_error *err, int code, const char *fmt, ...) {
    if (!err) return code;
    char msg[PT_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pt_error_set(err, code, c->line, col, "%s", msg);
    snprintf(err->file, sizeof err->file, "%s", s->path);
    err->source[0] = '\0';
    return code;
}

/* The index of the map's light named name, or -1. */
static int light_index(const pt_map *map, const char *name) {
    for (int k = 0; k < map->nlights; k++)
        if (!strcmp(map->lights[k].name, name)) return k;
    return -1;
}

int pt_script_bind(const pt_script *s, const pt_map *map, pt_error *err) {
    for (int i = 0; i < s->count; i++) {
        const pt_script_cmd *c = &s->cmds[i];
        const struct verb_def *d = &verbs[c->verb];
        for (int a = 0; a < d->nargs; a++) {
            if (d->arg[a] == A_CELL && !pt_map_in(map, c->x, c->y))
                return cmd_error(s, c, c->arg_col[a], err, PT_ERR_OUT_OF_MAP, "cell %d,%d is outside the map (%dx%d tiles)",
                                 c->x, c->y, map->w, map->h);
            if (d->arg[a] == A_ORDER && c->choice <= 1 && !pt_map_in(map, c->x, c->y))
                return cmd_error(s, c, c->arg_col[2], err, PT_ERR_OUT_OF_MAP, "cell %d,%d is outside the map (%dx%d tiles)",
                                 c->x, c->y, map->w, map->h);
            if (d->arg[a] == A_TILE && pt_map_legend_find(map, (char)c->choice) < 0) {
                char known[PT_MAX_TILE_KINDS * 2 + 1];
                int n = 0;
                for (int k = 0; k < map->nlegend && n < (int)sizeof known - 2; k++) known[n++] = map->legend[k].ch;
                known[n] = '\0';
                return cmd_error(s, c, c->arg_col[a], err, PT_ERR_UNKNOWN_TILE,
                                 (unsigned)c->choice >= 32 && c->choice < 127 ? "tile '%c' is not in the map's legend (%s)"
                                                                             : "tile %c is not in the map's legend (%s)",
                                 (unsigned)c->choice >= 32 && c->choice < 127 ? c->choice : '?', known);
            }
            if (d->arg[a] == A_DOOR && pt__door_kind_state(pt_map_tile(map, c->x, c->y)) < 0)
                return cmd_error(s, c, c->arg_col[0], err, PT_ERR_BAD_VALUE,
                                 "cell %d,%d is not a door of the map (its tile is '%c' %s)", c->x, c->y,
                                 pt_map_tile(map, c->x, c->y)->ch, pt_map_tile(map, c->x, c->y)->name);
            if (d->arg[a] == A_LIGHT && light_index(map, c->text) < 0) {
                pt__suggest sg;
                char hint[96];
                pt__suggest_init(&sg, c->text, strlen(c->text));
                for (int k = 0; k < map->nlights; k++) pt__suggest_add(&sg, map->lights[k].name);
                return cmd_error(s, c, c->arg_col[a], err, PT_ERR_MISSING, "the map has no light named '%s'%s", c->text,
                                 pt__suggest_hint(&sg, map->nlights ? "" : " (it has no lights)", hint, sizeof hint));
            }
        }
    }
    pt_error_clear(err);
    return PT_OK;
}

static int apply_tile(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    return pt_world_set_tile(w, c->x, c->y, (char)c->choice, err);
}

static int apply_player(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    pt_player_host(w);
    return pt_player_teleport(w, c->x + 0.5, c->y + 0.5, err);
}

static int apply_noise(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    (void)err;
    pt_world_noise(w, c->x, c->y, c->value);
    return PT_OK;
}

static int apply_gait(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    (void)err;
    pt_world_set_gait(w, (pt_gait)c->choice);
    return PT_OK;
}

static int apply_door(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    return pt_world_set_door(w, c->x, c->y, (pt_door_state)c->choice, err);
}

/* The live entity named c->text, or 0. */
static int named(const pt_script_cmd *c, const pt_world *w) {
    for (int id = 1; id < pt_world_count(w); id++) {
        const pt_entity *e = pt_world_entity(w, id);
        if (e && strcmp(e->name, c->text) == 0) return id;
    }
    return 0;
}

/* The error of a NAME no live entity has (code PT_ERR_MISSING), at the name. */
static int no_such(const pt_script_cmd *c, pt_error *err) {
    return pt_error_set(err, PT_ERR_MISSING, 0, 0, "no entity is named '%s' now", c->text);
}

static int apply_spawn(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    int rc = pt_world_spawn_line(w, c->text, NULL, NULL, err);
    return rc < 0 ? rc : PT_OK;
}

static int apply_remove(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    int id = named(c, w);
    if (!id) return no_such(c, err);
    int rc = pt_world_remove(w, id);
    return rc < 0 ? pt_error_set(err, rc, 0, 0, "'%s' cannot be removed", c->text) : PT_OK;
}

static int apply_order(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    int id = named(c, w);
    if (!id) return no_such(c, err);
    int rc = c->choice == 0   ? pt_world_order_goto(w, id, c->x, c->y)
             : c->choice == 1 ? pt_world_order_investigate(w, id, c->x, c->y)
             : c->choice == 2 ? pt_world_order_hold(w, id)
                              : pt_world_order_resume(w, id);
    if (rc == PT_ERR_RANGE) return pt_error_set(err, rc, 0, 0, "'%s' is not a guard", c->text);
    if (rc < 0) return pt_error_set(err, rc, 0, 0, "a guard cannot stand on %d,%d now", c->x, c->y);
    return PT_OK;
}

static int apply_light(const pt_script_cmd *c, pt_world *w, pt_error *err) {
    int i = pt_world_light_find(w, c->text);
    if (i < 0) return pt_error_set(err, PT_ERR_MISSING, 0, 0, "the world has no light named '%s'", c->text);
    return pt_world_set_light(w, i, c->choice, err);
}

int pt_script_apply(const pt_script *s, int *cursor, pt_world *w, pt_error *err) {
    const uint64_t now = pt_world_tick(w);
    int applied = 0;
    while (*cursor >= 0 && *cursor < s->count && s->cmds[*cursor].tick <= now) {
        const pt_script_cmd *c = &s->cmds[*cursor];
        pt_error why;
        memset(&why, 0, sizeof why);
        int rc = verbs[c->verb].apply(c, w, &why);
        /* a spawn line's error is at its column in the line; a cell's at the cell */
        int col = c->arg_col[0];
        if (rc < 0 && c->verb == PT_SCRIPT_SPAWN && why.col > 0) col += why.col - 1;
        if (rc < 0 && c->verb == PT_SCRIPT_ORDER && rc != PT_ERR_MISSING && rc != PT_ERR_RANGE) col = c->arg_col[2];
        if (rc < 0)
            return cmd_error(s, c, col, err, rc, "at tick %llu: %s%s", (unsigned long long)now,
                             c->verb == PT_SCRIPT_PLAYER ? "the player cannot be put there: " : "", why.message);
        (*cursor)++;
        applied++;
    }
    pt_error_clear(err);
    return applied;
}
