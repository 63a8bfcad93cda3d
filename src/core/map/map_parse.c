/* SPDX-License-Identifier: Zlib */
/* The map text format (docs/formats.md, "Maps").
 *
 * One pass over the lines collects the header, the legend, entities, obstacles and the raw
 * grid rows. Only then are the grid's characters resolved against the final legend and the
 * positions checked against the grid, so directives may come in any order (a `tile` line
 * after the grid still defines its characters). Everything is built in a local pt_map that
 * is handed over only on success. */
#include <patrol/hearing.h>
#include <patrol/map.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "map/doors.h"
#include "map/keys.h"
#include "map/lights.h"
#include "map/sight.h"
#include "base/text.h"

#define COORD_MAX 1000000 /* positions beyond this are a typo, not a map: PT_ERR_RANGE */

enum { WHAT_ENTITY, WHAT_ORIGIN, WHAT_OBSTACLE, WHAT_SOURCE };

/* A position to check once the grid and the legend are complete. */
typedef struct pos_check {
    double x, y;
    int line, col;
    int what;  /* WHAT_* */
    int ent;   /* WHAT_ENTITY/ORIGIN: index in ents, -1 = the player; WHAT_OBSTACLE: index */
} pos_check;

typedef struct parser {
    pt_map m;              /* built here, moved to *out on success */
    pt_error *err;
    char dir[PT_MAX_PATH]; /* folder of the map ("" or ending in '/') */
    int line_format, line_title, line_tile_size, line_seed, line_steering; /* 0 = not seen */
    int line_phase[PT__PHASE_NKEYS];
    int player_line;
    long members;          /* entities so far, flock members counted one by one */
    int ents_cap, obs_cap, src_cap;
    int grid_line, grid_col, in_grid;
    char *grid;            /* raw rows, gw*gh bytes */
    size_t grid_cap;
    int gw, gh;
    pos_check *checks;
    int nchecks, checks_cap;
    int *names;            /* open-addressing set of entity indices by name (-1 = empty) */
    int names_cap;         /* a power of two, at least twice the entities */
    int last_line;
} parser;

/* ---- small helpers ---------------------------------------------------------------------- */

static int tok_end_col(const pt__tok *t) { return t->col + t->len + (t->quoted ? 2 : 0); }

static int syntax_at(parser *p, int line, int col, const char *what) {
    return pt_error_set(p->err, PT_ERR_SYNTAX, line, col, "%s", what);
}

/* Exactly n arguments after the directive word. */
/* The index of key k in keys (NULL-terminated), or an unknown-key error "<what> 'k'" with
 * the nearest key as hint, else `known`. */
static int key_index(parser *p, int line, const pt__tok *k, const char *const *keys, const char *what,
                     const char *known) {
    for (int j = 0; keys[j]; j++)
        if (pt__tok_eq(k, keys[j])) return j;
    pt__suggest sg;
    char hint[96];
    pt__suggest_init(&sg, k->s, (size_t)k->len);
    pt__suggest_words(&sg, keys);
    return pt_error_set(p->err, PT_ERR_UNKNOWN_KEY, line, k->col, "%s '%.*s'%s", what, k->len > 40 ? 40 : k->len, k->s,
                        pt__suggest_hint(&sg, known, hint, sizeof hint));
}

static int need_args(parser *p, const pt__line *ln, int n, const char *what) {
    if (ln->ntok - 1 < n) /* a directive's line has its name: ntok >= 1 */
        return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, tok_end_col(&ln->tok[ln->ntok > 1 ? ln->ntok - 1 : 0]),
                            "'%.*s' needs %s", ln->tok[0].len, ln->tok[0].s, what);
    if (ln->ntok - 1 > n) {
        const pt__tok *t = &ln->tok[n + 1];
        return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, t->col, "unexpected '%.*s': '%.*s' takes %s",
                            t->len > 40 ? 40 : t->len, t->s, ln->tok[0].len, ln->tok[0].s, what);
    }
    return PT_OK;
}

/* A directive that may appear once: *seen holds the line it was first seen on. */
static int once(parser *p, const pt__line *ln, int *seen) {
    if (*seen)
        return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, ln->tok[0].col, "'%.*s' given twice (first on line %d)",
                            ln->tok[0].len, ln->tok[0].s, *seen);
    *seen = ln->no;
    return PT_OK;
}

/* Item i of ln as one of keys (NULL-terminated): its index, with *k and *v set and
 * seen[index] set to the value's column; else a located error: no key=value, an unknown key
 * ("<what> 'k'" with the nearest key as hint, else `known`), a key given twice. */
static int keyed_item(parser *p, const pt__line *ln, int i, const char *const *keys, const char *what,
                      const char *known, int *seen, pt__tok *k, pt__tok *v) {
    const pt__tok *t = &ln->tok[i];
    if (!pt__tok_kv(t, k, v))
        return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, t->col, "expected key=value, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    int key = key_index(p, ln->no, k, keys, what, known);
    if (key < 0) return key;
    if (seen[key])
        return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, k->col, "key '%.*s' given twice", k->len, k->s);
    seen[key] = v->col;
    return key;
}

/* Appends the elem-sized *item to *arr of *n items (capacity *cap, never beyond limit items;
 * errors at the directive word) and returns its index. */
static int append(parser *p, void **arr, int *cap, int *n, const void *item, size_t elem, int limit,
                  const pt__line *ln, const char *what) {
    int line = ln->no, col = ln->tok[0].col;
    if (*n >= limit)
        return pt_error_set(p->err, PT_ERR_LIMIT, line, col, "more than %d %s in one map", limit, what);
    if (*n >= *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        if (ncap > limit) ncap = limit;
        void *na = PT_REALLOC(*arr, elem * (size_t)ncap);
        if (!na) return pt_error_set(p->err, PT_ERR_NOMEM, line, col, "out of memory");
        *arr = na;
        *cap = ncap;
    }
    memcpy((char *)*arr + elem * (size_t)*n, item, elem);
    return (*n)++;
}

static int add_check(parser *p, double x, double y, int line, int col, int what, int ent) {
    /* Bounded by the entity and obstacle limits, which are checked before this. */
    if (p->nchecks >= p->checks_cap) {
        int ncap = p->checks_cap ? p->checks_cap * 2 : 16;
        pos_check *nc = PT_REALLOC(p->checks, sizeof *nc * (size_t)ncap);
        if (!nc) return pt_error_set(p->err, PT_ERR_NOMEM, line, col, "out of memory");
        p->checks = nc;
        p->checks_cap = ncap;
    }
    p->checks[p->nchecks++] = (pos_check){x, y, line, col, what, ent};
    return PT_OK;
}

/* A file path relative to the folder of the file being read. */
static int resolve_path(parser *p, int line, const pt__tok *t, char *dst, size_t cap) {
    return pt__tok_path(t, line, p->dir, dst, cap, p->err);
}

/* Whole non-negative number up to 2^64-1 (seeds). */
static int tok_u64(parser *p, int line, const pt__tok *t, uint64_t *out) {
    if (t->len > 0 && t->s[0] == '-' && t->len > 1 && t->s[1] >= '0' && t->s[1] <= '9')
        return pt_error_set(p->err, PT_ERR_RANGE, line, t->col, "a seed cannot be negative");
    uint64_t v = 0;
    if (t->len <= 0) return pt_error_set(p->err, PT_ERR_BAD_NUMBER, line, t->col, "expected a whole number");
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c < '0' || c > '9')
            return pt_error_set(p->err, PT_ERR_BAD_NUMBER, line, t->col, "expected a whole number, found '%.*s'",
                                t->len > 40 ? 40 : t->len, t->s);
        unsigned d = (unsigned)(c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return pt_error_set(p->err, PT_ERR_RANGE, line, t->col, "seed is larger than 2^64-1");
        v = v * 10 + d;
    }
    *out = v;
    return PT_OK;
}

/* ---- header directives ------------------------------------------------------------------ */

static int d_format(parser *p, pt__line *ln) {
    int rc;
    if ((rc = once(p, ln, &p->line_format)) < 0 || (rc = need_args(p, ln, 1, "a version number")) < 0) return rc;
    double v;
    if ((rc = pt__tok_num(&ln->tok[1], ln->no, -1e300, 1e300, &v, p->err)) < 0) return rc;
    if (v != 1.0)
        return pt_error_set(p->err, PT_ERR_BAD_VALUE, ln->no, ln->tok[1].col,
                            "map format %.*s is not supported (this version reads format 1)", ln->tok[1].len,
                            ln->tok[1].s);
    return PT_OK;
}

static int d_title(parser *p, pt__line *ln) {
    int rc;
    if ((rc = once(p, ln, &p->line_title)) < 0 || (rc = need_args(p, ln, 1, "one quoted title")) < 0) return rc;
    const pt__tok *t = &ln->tok[1];
    if ((size_t)t->len >= sizeof p->m.name)
        return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, t->col, "title is longer than %zu bytes",
                            sizeof p->m.name - 1);
    memcpy(p->m.name, t->s, (size_t)t->len);
    p->m.name[t->len] = '\0';
    return PT_OK;
}

static int d_tile_size(parser *p, pt__line *ln) {
    int rc;
    if ((rc = once(p, ln, &p->line_tile_size)) < 0 || (rc = need_args(p, ln, 1, "a size in pixels")) < 0) return rc;
    return pt__tok_int(&ln->tok[1], ln->no, PT_MIN_TILE_PX, PT_MAX_TILE_PX, &p->m.tile_px, p->err);
}

static int d_seed(parser *p, pt__line *ln) {
    int rc;
    if ((rc = once(p, ln, &p->line_seed)) < 0 || (rc = need_args(p, ln, 1, "a whole number")) < 0) return rc;
    return tok_u64(p, ln->no, &ln->tok[1], &p->m.seed);
}

/* evasion SECONDS, caution SECONDS, caution_aware FACTOR, caution_fov FACTOR */
static int d_phase(parser *p, pt__line *ln) {
    int key = pt__phase_key_find(ln->tok[0].s, (size_t)ln->tok[0].len), rc;
    if ((rc = once(p, ln, &p->line_phase[key])) < 0 || (rc = need_args(p, ln, 1, pt__phase_key_arg(key))) < 0) return rc;
    return pt__phase_key_read(key, &ln->tok[1], ln->no, &p->m.phases, p->err);
}

static int d_patterns(parser *p, pt__line *ln) {
    int rc;
    if ((rc = need_args(p, ln, 1, "one file name (one line per file)")) < 0) return rc;
    const pt__tok *t = &ln->tok[1];
    if (p->m.npattern_files >= PT_MAX_PATTERN_FILES)
        return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, t->col, "more than %d pattern files in one map",
                            PT_MAX_PATTERN_FILES);
    char path[PT_MAX_PATH];
    if ((rc = resolve_path(p, ln->no, t, path, sizeof path)) < 0) return rc;
    for (int i = 0; i < p->m.npattern_files; i++)
        if (pt__same_file(p->m.pattern_files[i], path))
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, t->col,
                                "pattern file listed twice (first on line %d, column %d)",
                                p->m.pattern_file_lines[i], p->m.pattern_file_cols[i]);
    memcpy(p->m.pattern_files[p->m.npattern_files], path, sizeof path);
    p->m.pattern_file_cols[p->m.npattern_files] = t->col;
    p->m.pattern_file_lines[p->m.npattern_files++] = ln->no;
    return PT_OK;
}

static int d_steering(parser *p, pt__line *ln) {
    int rc;
    if ((rc = once(p, ln, &p->line_steering)) < 0 || (rc = need_args(p, ln, 1, "one file name")) < 0) return rc;
    p->m.steering_line = ln->no;
    p->m.steering_col = ln->tok[1].col;
    return resolve_path(p, ln->no, &ln->tok[1], p->m.steering_file, sizeof p->m.steering_file);
}

/* tile CHAR NAME FLAGS... */
static int d_tile(parser *p, pt__line *ln) {
    if (ln->ntok < 3) {
        const pt__tok *last = &ln->tok[ln->ntok - 1];
        return syntax_at(p, ln->no, tok_end_col(last),
                         ln->ntok < 2 ? "'tile' needs a character, a name and flags (quote '#' as '#')"
                                      : "'tile' needs a name after the character");
    }
    const pt__tok *ct = &ln->tok[1];
    unsigned char ch = ct->len == 1 ? (unsigned char)ct->s[0] : 0;
    if (ct->len != 1 || ch <= ' ' || ch >= 127)
        return pt_error_set(p->err, PT_ERR_BAD_VALUE, ln->no, ct->col,
                            "a tile character is one visible ASCII character, not '%.*s'", ct->len > 40 ? 40 : ct->len,
                            ct->s);
    pt_tile_def def;
    memset(&def, 0, sizeof def);
    def.ch = (char)ch;
    def.sprite = -1;
    def.line = ln->no;
    int rc = pt__tok_name(&ln->tok[2], ln->no, def.name, sizeof def.name, p->err);
    if (rc < 0) return rc;
    /* The tile keys, and the one seen-flag of each (the order of the error hint). */
    static const char *const keys[] = {"sprite", "sound", "footstep", "noise", NULL};
    int seen[4] = {0, 0, 0, 0};
    for (int i = 3; i < ln->ntok; i++) {
        const pt__tok *t = &ln->tok[i];
        pt__tok k, v;
        uint8_t flag = 0;
        if (pt__tok_kv(t, &k, &v)) {
            int key = key_index(p, ln->no, &k, keys, "unknown tile key", " (known: sprite, sound, footstep, noise)");
            if (key < 0) return key;
            if (seen[key]++)
                return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, k.col, "%.*s given twice", k.len, k.s);
            switch (key) {
            case 0: rc = pt__tok_int_key(&v, ln->no, "sprite", 0, 1023, &def.sprite, p->err); break;
            case 1: rc = pt__tok_sound(&v, ln->no, &def.sound, p->err); break;
            case 2: rc = pt__tok_num_key(&v, ln->no, "footstep", 0, PT_FOOTSTEP_MAX, 0, &def.footstep, p->err); break;
            default: rc = pt__tok_num_key(&v, ln->no, "noise", 0, PT_HEARING_MAX_LOUDNESS, 0, &def.noise, p->err); break;
            }
            if (rc < 0) return rc;
            continue;
        }
        if (pt__tok_eq(t, "walkable")) flag = PT_TILE_WALKABLE;
        else if (pt__tok_eq(t, "opaque")) flag = PT_TILE_OPAQUE;
        else if (pt__tok_eq(t, "goal")) flag = PT_TILE_GOAL;
        else {
            static const char *const flags[] = {"walkable", "opaque", "goal", "sprite", "sound", "footstep", "noise", NULL};
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, t->s, (size_t)t->len);
            pt__suggest_words(&sg, flags);
            return pt_error_set(p->err, PT_ERR_BAD_VALUE, ln->no, t->col, "'%.*s' is not a tile flag%s",
                                t->len > 40 ? 40 : t->len, t->s,
                                pt__suggest_hint(&sg, " (walkable, opaque, goal, sprite=N, sound=N|block, footstep=F, noise=L)", hint,
                                                  sizeof hint));
        }
        if (def.flags & flag)
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, t->col, "flag '%.*s' given twice", t->len, t->s);
        def.flags |= flag;
    }
    if (!seen[1]) def.sound = (int16_t)pt_tile_sound_default(def.name, def.flags);
    if (!seen[2]) def.footstep = pt_tile_footstep_default(def.name);
    int k = pt_map_legend_find(&p->m, def.ch);
    if (k >= 0 && p->m.legend[k].line > 0)
        return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, ct->col, "tile '%c' defined twice (first on line %d)",
                            def.ch, p->m.legend[k].line);
    if (k < 0) {
        if (p->m.nlegend >= PT_MAX_TILE_KINDS)
            return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, ct->col, "more than %d tile kinds", PT_MAX_TILE_KINDS);
        k = p->m.nlegend++;
    }
    p->m.legend[k] = def; /* a default character is redefined in place: same index */
    return PT_OK;
}

/* ---- entities --------------------------------------------------------------------------- */



static int unknown_key(parser *p, int line, const pt__tok *k, pt_kind kind) {
    char list[320], only[64];
    if (pt__entity_key_elsewhere(k->s, (size_t)k->len, PT__EK_MAP, only, sizeof only))
        return pt_error_set(p->err, PT_ERR_UNKNOWN_KEY, line, k->col, "%s has no key '%.*s'%s", pt_kind_name(kind),
                            k->len, k->s, only);
    pt__entity_key_list(kind, PT__EK_MAP, list, sizeof list);
    pt__suggest sg;
    pt__suggest_init(&sg, k->s, (size_t)k->len);
    pt__suggest_list(&sg, list);
    char keys[340], hint[340];
    snprintf(keys, sizeof keys, " (keys: %s)", list);
    return pt_error_set(p->err, PT_ERR_UNKNOWN_KEY, line, k->col, "%s has no key '%.*s'%s", pt_kind_name(kind),
                        k->len > 40 ? 40 : k->len, k->s, pt__suggest_hint(&sg, keys, hint, sizeof hint));
}

/* Names are checked with a hash set: a quadratic scan would let a big file stall the load. */
static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The line where name was first used, or 0. */
static int name_taken(const parser *p, const char *name) {
    if (!p->names_cap) return 0;
    for (uint32_t i = name_hash(name) & (uint32_t)(p->names_cap - 1);; i = (i + 1) & (uint32_t)(p->names_cap - 1)) {
        int k = p->names[i];
        if (k < 0) return 0;
        if (strcmp(p->m.ents[k].name, name) == 0) return p->m.ents[k].line;
    }
}

static void name_insert(parser *p, int idx) {
    uint32_t i = name_hash(p->m.ents[idx].name) & (uint32_t)(p->names_cap - 1);
    while (p->names[i] >= 0) i = (i + 1) & (uint32_t)(p->names_cap - 1);
    p->names[i] = idx;
}

/* Adds ents[idx] (already stored) to the set, growing it first. */
static int name_add(parser *p, int idx, int line, int col) {
    if (2 * (idx + 1) > p->names_cap) {
        int ncap = p->names_cap ? p->names_cap * 2 : 64;
        int *nn = PT_MALLOC(sizeof *nn * (size_t)ncap);
        if (!nn) return pt_error_set(p->err, PT_ERR_NOMEM, line, col, "out of memory");
        for (int i = 0; i < ncap; i++) nn[i] = -1;
        PT_FREE(p->names);
        p->names = nn;
        p->names_cap = ncap;
        for (int i = 0; i < idx; i++) name_insert(p, i);
    }
    name_insert(p, idx);
    return PT_OK;
}

/* player key=value... | guard|prey|flock NAME key=value... */
static int parse_entity(parser *p, pt__line *ln, pt_kind kind) {
    const pt__tok *word = &ln->tok[0];
    pt_entity_def def;
    memset(&def, 0, sizeof def);
    def.kind = kind;
    def.line = ln->no;
    int rc, i = 1;
    if (kind == PT_KIND_PLAYER) {
        if (p->player_line)
            return pt_error_set(p->err, PT_ERR_DUP_PLAYER, ln->no, word->col, "a second player (the first is on line %d)",
                                p->player_line);
        snprintf(def.name, sizeof def.name, "player");
    } else {
        pt__tok k, v;
        if (ln->ntok < 2 || pt__tok_kv(&ln->tok[1], &k, &v))
            return syntax_at(p, ln->no, ln->ntok < 2 ? tok_end_col(word) : ln->tok[1].col,
                             "expected a name before the keys");
        if ((rc = pt__tok_name(&ln->tok[1], ln->no, def.name, sizeof def.name, p->err)) < 0) return rc;
        if (strcmp(def.name, "player") == 0)
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, ln->tok[1].col, "the name 'player' is reserved");
        int first = name_taken(p, def.name);
        if (first)
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, ln->tok[1].col,
                                "the name '%s' is already used (line %d)", def.name, first);
        i = 2;
    }
    unsigned seen = 0;
    int at_col = 0, origin_col = 0, count_col = 0, susp_col = 0, chase_at_col = 0;
    for (; i < ln->ntok; i++) {
        const pt__tok *t = &ln->tok[i];
        pt__tok k, v;
        if (!pt__tok_kv(t, &k, &v))
            return pt_error_set(p->err, PT_ERR_SYNTAX, ln->no, t->col, "expected key=value, found '%.*s'",
                                t->len > 40 ? 40 : t->len, t->s);
        int ki = pt__entity_key_find(k.s, (size_t)k.len, kind, PT__EK_MAP);
        if (ki < 0) return unknown_key(p, ln->no, &k, kind);
        if (seen & (1u << ki))
            return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, k.col, "key '%s' given twice", pt__entity_keys[ki].name);
        seen |= 1u << ki;
        const pt__entity_key *ek = &pt__entity_keys[ki];
        char *field = (char *)&def + ek->off;
        int choice = 0;
        switch (ek->type) {
        case PT__KT_AT:
            rc = pt__tok_cell(&v, ln->no, -COORD_MAX, COORD_MAX, &def.x, &def.y, p->err);
            at_col = v.col;
            break;
        case PT__KT_ORIGIN:
            rc = pt__tok_cell(&v, ln->no, -COORD_MAX, COORD_MAX, &def.origin_x, &def.origin_y, p->err);
            def.has_origin = 1;
            origin_col = v.col;
            break;
        case PT__KT_NUM:
            rc = pt__tok_num_key(&v, ln->no, ek->name, ek->lo, ek->hi, 0, (double *)(void *)field, p->err);
            break;
        case PT__KT_POS: /* zero would read as "default": ask for a positive value */
            rc = pt__tok_num_key(&v, ln->no, ek->name, 0, ek->hi, 1, (double *)(void *)field, p->err);
            break;
        case PT__KT_INT:
            rc = pt__tok_int_key(&v, ln->no, ek->name, (long)ek->lo, (long)ek->hi, (int *)(void *)field, p->err);
            if (field == (char *)&def.count) count_col = v.col;
            break;
        case PT__KT_NAME:
            rc = pt__tok_name(&v, ln->no, field, ek->cap, p->err);
            if (field == def.pattern) def.pattern_line = ln->no, def.pattern_col = v.col;
            if (field == def.steering) def.steering_line = ln->no, def.steering_col = v.col;
            break;
        case PT__KT_CHASE:
            rc = pt__tok_choice(&v, ln->no, pt__chase_words, &choice, p->err);
            def.chase = (pt_chase)choice;
            break;
        case PT__KT_FLOCK:
            rc = pt__tok_choice(&v, ln->no, pt__flock_words, &choice, p->err);
            def.flock_kind = (pt_flock_kind)choice;
            break;
        default:
            rc = pt_error_set(p->err, PT_ERR_INTERNAL, ln->no, k.col, "unhandled key type");
        }
        if (rc < 0) return rc;
        if (field == (char *)&def.suspicious_at) susp_col = v.col;
        if (field == (char *)&def.chase_at) chase_at_col = v.col;
    }
    if (!at_col)
        return pt_error_set(p->err, PT_ERR_MISSING, ln->no, word->col, "%s needs a position: at=X,Y",
                            pt_kind_name(kind));
    def.col = at_col;
    if (susp_col || chase_at_col) {
        pt_entity_def r = def;
        pt_entity_def_resolve(&r);
        if (r.suspicious_at >= r.chase_at)
            return pt_error_set(p->err, PT_ERR_RANGE, ln->no, susp_col ? susp_col : chase_at_col,
                                "suspicious_at (%g) must be below chase_at (%g)", r.suspicious_at, r.chase_at);
    }
    long members = kind == PT_KIND_BOID && def.count > 0 ? def.count : 1;
    if (p->members + members > PT_MAX_ENTITIES)
        return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, count_col ? count_col : word->col,
                            "more than %d entities in one map (flock members count one by one)", PT_MAX_ENTITIES);
    if (kind == PT_KIND_BOID) snprintf(def.group, sizeof def.group, "%s", def.name);
    int idx = -1;
    if (kind == PT_KIND_PLAYER) {
        p->m.player = def;
        p->player_line = ln->no;
    } else {
        idx = append(p, (void **)&p->m.ents, &p->ents_cap, &p->m.nents, &def, sizeof def, PT_MAX_ENTITIES, ln,
                     "entities");
        if (idx < 0) return idx;
        if ((rc = name_add(p, idx, ln->no, word->col)) < 0) return rc;
    }
    p->members += members;
    if ((rc = add_check(p, def.x, def.y, ln->no, at_col, WHAT_ENTITY, idx)) < 0) return rc;
    if (origin_col && (rc = add_check(p, def.origin_x, def.origin_y, ln->no, origin_col, WHAT_ORIGIN, idx)) < 0)
        return rc;
    return PT_OK;
}

static int d_player(parser *p, pt__line *ln) { return parse_entity(p, ln, PT_KIND_PLAYER); }
static int d_guard(parser *p, pt__line *ln) { return parse_entity(p, ln, PT_KIND_GUARD); }
static int d_prey(parser *p, pt__line *ln) { return parse_entity(p, ln, PT_KIND_PREY); }
static int d_flock(parser *p, pt__line *ln) { return parse_entity(p, ln, PT_KIND_BOID); }

/* obstacle at=X,Y [r=R] [sprite=pillar|tree] */
static int d_obstacle(parser *p, pt__line *ln) {
    static const char *const sprites[] = {"pillar", "tree", NULL};
    static const char *const keys[] = {"at", "r", "sprite", NULL};
    pt_obstacle o = {0, 0, 0.45, PT_OBSTACLE_PILLAR, ln->no, 0};
    int rc, seen[3] = {0, 0, 0};
    for (int i = 1; i < ln->ntok; i++) {
        pt__tok k, v;
        int key = keyed_item(p, ln, i, keys, "obstacle has no key", " (keys: at, r, sprite)", seen, &k, &v);
        if (key < 0) return key;
        if (key == 0) rc = pt__tok_point(&v, ln->no, -COORD_MAX, COORD_MAX, &o.x, &o.y, p->err);
        else if (key == 1) {
            rc = pt__tok_num_key(&v, ln->no, "r", 0, 4, 1, &o.r, p->err);
        } else {
            int s = 0;
            rc = pt__tok_choice(&v, ln->no, sprites, &s, p->err);
            o.sprite = s == 0 ? PT_OBSTACLE_PILLAR : PT_OBSTACLE_TREE;
        }
        if (rc < 0) return rc;
    }
    if (!seen[0]) return pt_error_set(p->err, PT_ERR_MISSING, ln->no, ln->tok[0].col, "obstacle needs a position: at=X,Y");
    o.col = seen[0];
    int idx = append(p, (void **)&p->m.obstacles, &p->obs_cap, &p->m.nobstacles, &o, sizeof o, PT_MAX_OBSTACLES, ln,
                     "obstacles");
    return idx < 0 ? idx : add_check(p, o.x, o.y, ln->no, o.col, WHAT_OBSTACLE, idx);
}

/* noise at=X,Y loudness=L every=S [first=S] */
static int d_noise(parser *p, pt__line *ln) {
    static const char *const keys[] = {"at", "loudness", "every", "first", NULL};
    pt_noise_source s = {0, 0, 0, 0, -1, ln->no, 0};
    int rc, seen[4] = {0, 0, 0, 0};
    for (int i = 1; i < ln->ntok; i++) {
        pt__tok k, v;
        int key = keyed_item(p, ln, i, keys, "noise has no key", " (keys: at, loudness, every, first)", seen, &k, &v);
        if (key < 0) return key;
        double x, y;
        switch (key) {
        case 0:
            rc = pt__tok_point(&v, ln->no, -COORD_MAX, COORD_MAX, &x, &y, p->err);
            if (rc != PT_OK) break; /* x and y are unset: converting them would be undefined */
            if (x != (int)x || y != (int)y)
                rc = pt_error_set(p->err, PT_ERR_BAD_VALUE, ln->no, v.col, "a noise is at a tile: whole numbers X,Y");
            s.x = (int)x;
            s.y = (int)y;
            break;
        case 1:
            rc = pt__tok_num_key(&v, ln->no, "loudness", 0, PT_HEARING_MAX_LOUDNESS, 1, &s.loudness, p->err);
            break;
        case 2:
            rc = pt__tok_num_key(&v, ln->no, "every", 0, 86400, 1, &s.every, p->err);
            break;
        default: rc = pt__tok_num_key(&v, ln->no, "first", 0, 86400, 0, &s.first, p->err); break;
        }
        if (rc < 0) return rc;
    }
    static const char *const need[] = {"a position: at=X,Y", "a loudness: loudness=L", "a period: every=SECONDS"};
    for (int j = 0; j < 3; j++)
        if (!seen[j])
            return pt_error_set(p->err, PT_ERR_MISSING, ln->no, ln->tok[0].col, "noise needs %s", need[j]);
    if (!seen[3]) s.first = s.every;
    s.col = seen[0];
    int idx = append(p, (void **)&p->m.sources, &p->src_cap, &p->m.nsources, &s, sizeof s, PT_MAX_NOISE_SOURCES, ln,
                     "noise sources");
    return idx < 0 ? idx : add_check(p, s.x, s.y, ln->no, s.col, WHAT_SOURCE, idx);
}

/* ---- the grid --------------------------------------------------------------------------- */

static int d_grid(parser *p, pt__line *ln) {
    if (p->grid_line)
        return pt_error_set(p->err, PT_ERR_DUPLICATE, ln->no, ln->tok[0].col,
                            "a second grid (the first starts on line %d)", p->grid_line);
    int rc = need_args(p, ln, 0, "nothing (the rows follow on the next lines)");
    if (rc < 0) return rc;
    p->grid_line = ln->no;
    p->grid_col = ln->tok[0].col;
    p->in_grid = 1;
    return PT_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static int grid_row(parser *p, const pt__line *ln) {
    int len = ln->len;
    while (len > 0 && is_blank(ln->s[len - 1])) len--;
    int b = 0;
    while (b < len && is_blank(ln->s[b])) b++;
    if (len - b == 3 && memcmp(ln->s + b, "end", 3) == 0) {
        p->in_grid = 0;
        if (p->gh == 0)
            return pt_error_set(p->err, PT_ERR_EMPTY, p->grid_line, p->grid_col, "the grid has no rows");
        return PT_OK;
    }
    if (len == 0)
        return pt_error_set(p->err, PT_ERR_RAGGED_ROW, ln->no, 1, "blank row in the grid (end it with 'end')");
    if (p->gh == 0) {
        if (len > PT_MAP_MAX_W)
            return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, PT_MAP_MAX_W + 1, "grid is wider than %d tiles",
                                PT_MAP_MAX_W);
        p->gw = len;
    } else if (len != p->gw) {
        return pt_error_set(p->err, PT_ERR_RAGGED_ROW, ln->no, len > p->gw ? p->gw + 1 : len + 1,
                            "row is %d tiles wide; the first row (line %d) is %d", len, p->grid_line + 1, p->gw);
    }
    if (p->gh >= PT_MAP_MAX_H)
        return pt_error_set(p->err, PT_ERR_LIMIT, ln->no, 1, "grid is taller than %d rows", PT_MAP_MAX_H);
    size_t need = (size_t)(p->gh + 1) * (size_t)p->gw;
    if (need > p->grid_cap) {
        size_t ncap = p->grid_cap ? p->grid_cap * 2 : (size_t)p->gw * 32;
        if (ncap < need) ncap = need;
        size_t max = (size_t)PT_MAP_MAX_H * (size_t)p->gw;
        if (ncap > max) ncap = max;
        char *ng = PT_REALLOC(p->grid, ncap);
        if (!ng) return pt_error_set(p->err, PT_ERR_NOMEM, ln->no, 1, "out of memory for the grid");
        p->grid = ng;
        p->grid_cap = ncap;
    }
    memcpy(p->grid + (size_t)p->gh * (size_t)p->gw, ln->s, (size_t)p->gw);
    p->gh++;
    return PT_OK;
}

/* ---- after the last line ---------------------------------------------------------------- */

static int build_tiles(parser *p) {
    int idx[256];
    for (int i = 0; i < 256; i++) idx[i] = -1;
    for (int i = p->m.nlegend - 1; i >= 0; i--) idx[(unsigned char)p->m.legend[i].ch] = i;
    size_t n = (size_t)p->gw * (size_t)p->gh;
    p->m.tiles = PT_MALLOC(n);
    p->m.flags = PT_MALLOC(n);
    if (!p->m.tiles || !p->m.flags) return pt_error_set(p->err, PT_ERR_NOMEM, p->grid_line, 1, "out of memory");
    p->m.w = p->gw;
    p->m.h = p->gh;
    for (int y = 0; y < p->gh; y++)
        for (int x = 0; x < p->gw; x++) {
            size_t i = (size_t)y * (size_t)p->gw + (size_t)x;
            unsigned char c = (unsigned char)p->grid[i];
            int k = idx[c];
            if (k < 0) {
                if (c == ' ' || c == '\t')
                    return pt_error_set(p->err, PT_ERR_UNKNOWN_TILE, p->grid_line + 1 + y, x + 1,
                                        "blank inside the grid (blanks are not tiles)");
                if (c < 32 || c >= 127)
                    return pt_error_set(p->err, PT_ERR_UNKNOWN_TILE, p->grid_line + 1 + y, x + 1,
                                        "unknown tile character (byte 0x%02x)", c);
                return pt_error_set(p->err, PT_ERR_UNKNOWN_TILE, p->grid_line + 1 + y, x + 1,
                                    "unknown tile character '%c' (declare it with: tile '%c' NAME FLAGS)", c, c);
            }
            p->m.tiles[i] = (uint8_t)k;
            p->m.flags[i] = p->m.legend[k].flags;
            if (p->m.legend[k].flags & PT_TILE_GOAL) p->m.goal = 1;
        }
    return PT_OK;
}

static int check_positions(parser *p) {
    const pt_map *m = &p->m;
    for (int i = 0; i < p->nchecks; i++) {
        const pos_check *c = &p->checks[i];
        char who[PT_MAX_NAME + 32];
        if (c->what == WHAT_OBSTACLE) snprintf(who, sizeof who, "obstacle");
        else if (c->what == WHAT_SOURCE) snprintf(who, sizeof who, "noise");
        else if (c->ent < 0) snprintf(who, sizeof who, "%splayer", c->what == WHAT_ORIGIN ? "origin of the " : "");
        else
            snprintf(who, sizeof who, "%s%s '%s'", c->what == WHAT_ORIGIN ? "origin of " : "",
                     pt_kind_name(m->ents[c->ent].kind), m->ents[c->ent].name);
        if (c->x < 0 || c->y < 0 || c->x >= m->w || c->y >= m->h) /* cells and points alike */
            return pt_error_set(p->err, PT_ERR_OUT_OF_MAP, c->line, c->col, "%s at %g,%g is outside the %dx%d map", who,
                                c->x, c->y, m->w, m->h);
        if (c->what == WHAT_ENTITY && !pt_map_walkable(m, (int)c->x, (int)c->y)) {
            const pt_tile_def *t = pt_map_tile(m, (int)c->x, (int)c->y);
            return pt_error_set(p->err, PT_ERR_NOT_WALKABLE, c->line, c->col, "%s at %d,%d stands on %s ('%c'), which is not walkable",
                                who, (int)c->x, (int)c->y, t->name, t->ch);
        }
    }
    return PT_OK;
}

static int d_door(parser *p, pt__line *ln) { return pt__map_door_line(&p->m, ln, p->err); }
static int d_light(parser *p, pt__line *ln) { return pt__map_light_line(&p->m, ln, p->err); }

/* ---- driver ----------------------------------------------------------------------------- */

static const struct {
    const char *word;
    int (*fn)(parser *, pt__line *);
} directives[] = {
    {"format", d_format}, {"title", d_title},   {"tile_size", d_tile_size}, {"seed", d_seed},
    {"evasion", d_phase}, {"caution", d_phase}, {"caution_aware", d_phase}, {"caution_fov", d_phase},
    {"patterns", d_patterns}, {"steering", d_steering}, {"tile", d_tile}, {"player", d_player},
    {"guard", d_guard}, {"prey", d_prey}, {"flock", d_flock}, {"obstacle", d_obstacle}, {"noise", d_noise}, {"grid", d_grid},
    {"door", d_door}, {"door_look", d_door}, {"ambient", d_light}, {"relight", d_light}, {"light", d_light},
};

static int parse_lines(parser *p, const pt__text *t) {
    pt__reader r;
    pt__line ln;
    pt__reader_init(&r, t);
    int rc;
    while ((rc = pt__reader_next(&r, &ln, p->err)) > 0) {
        p->last_line = ln.no;
        if (p->in_grid) {
            if ((rc = grid_row(p, &ln)) < 0) return rc;
            continue;
        }
        if ((rc = pt__line_tokenize(&ln, p->err)) < 0) return rc;
        if (ln.ntok == 0) continue;
        int d = -1;
        for (int i = 0; i < (int)(sizeof directives / sizeof directives[0]) && d < 0; i++)
            if (pt__tok_eq(&ln.tok[0], directives[i].word)) d = i;
        if (d < 0 || ln.tok[0].quoted) {
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, ln.tok[0].s, (size_t)ln.tok[0].len);
            for (int i = 0; i < (int)(sizeof directives / sizeof directives[0]); i++) pt__suggest_add(&sg, directives[i].word);
            return pt_error_set(p->err, PT_ERR_UNKNOWN_DIRECTIVE, ln.no, ln.tok[0].col,
                                "unknown directive '%.*s'%s", ln.tok[0].len > 40 ? 40 : ln.tok[0].len, ln.tok[0].s,
                                pt__tok_eq(&ln.tok[0], "end") ? " ('end' closes a grid)"
                                                              : pt__suggest_hint(&sg, NULL, hint, sizeof hint));
        }
        if ((rc = directives[d].fn(p, &ln)) < 0) return rc;
    }
    if (rc < 0) return rc;
    int last = p->last_line > 0 ? p->last_line : 1;
    if (p->in_grid)
        return pt_error_set(p->err, PT_ERR_UNTERMINATED, p->grid_line, p->grid_col,
                            "grid is not closed: expected a line 'end' after its last row");
    if (!p->grid_line) return pt_error_set(p->err, PT_ERR_MISSING, last, 1, "the map has no grid");
    if ((rc = build_tiles(p)) < 0) return rc;
    if ((rc = check_positions(p)) < 0) return rc;
    if ((rc = pt__map_doors_check(&p->m, p->err)) < 0) return rc;
    if ((rc = pt__map_lights_check(&p->m, t, p->err)) < 0) return rc;
    if (!p->player_line)
        return pt_error_set(p->err, PT_ERR_NO_PLAYER, last, 1, "the map has no player (add: player at=X,Y)");
    return PT_OK;
}

static int parse_text(pt_map *out, const pt__text *t, const char *name, pt_error *err) {
    parser *p = PT_CALLOC(1, sizeof *p); /* a pt_map is ~14 KB: keep it off small stacks */
    if (!p) {
        memset(out, 0, sizeof *out);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    p->err = err;
    pt__map_default_legend(&p->m);
    p->m.player.kind = PT_KIND_PLAYER;
    const char *slash = strrchr(name, '/');
    if (slash) {
        size_t n = (size_t)(slash - name) + 1;
        if (n < sizeof p->dir) memcpy(p->dir, name, n);
    }
    int rc = PT_OK;
    if (strlen(name) >= sizeof p->m.path)
        rc = pt_error_set(err, PT_ERR_LIMIT, 0, 0, "file path is longer than %d bytes", PT_MAX_PATH - 1);
    if (rc == PT_OK) rc = parse_lines(p, t);
    if (rc == PT_OK) {
        snprintf(p->m.path, sizeof p->m.path, "%s", name);
        if (!p->m.tile_px) p->m.tile_px = 16;
        pt__sight_build(&p->m); /* a cache: without it (no memory) sight walks the flags */
        *out = p->m;
    } else {
        pt_error_locate(err, name, t->data, t->len);
        pt_map_fini(&p->m);
        memset(out, 0, sizeof *out);
    }
    PT_FREE(p->grid);
    PT_FREE(p->checks);
    PT_FREE(p->names);
    PT_FREE(p);
    return rc;
}

int pt_map_parse(pt_map *out, const char *text, size_t len, const char *name, pt_error *err) {
    pt__text t;
    if (!name) name = "";
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        if (err) pt_error_locate(err, name, text, text ? len : 0);
        return rc;
    }
    rc = parse_text(out, &t, name, err);
    pt__text_free(&t);
    return rc;
}

int pt_map_load(pt_map *out, const char *path, pt_error *err) {
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    rc = parse_text(out, &t, path, err);
    pt__text_free(&t);
    return rc;
}
