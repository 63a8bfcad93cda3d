/* SPDX-License-Identifier: Zlib */
/* The map's light declarations (docs/formats.md, "Lights"): `ambient L`, `relight on|off`
 * and `light NAME at=X,Y radius=R [level=L] [on|off]`, and their checks once the grid is
 * read. The light itself is computed by senses/light.c. */
#include "map/lights.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "base/text.h"

#define COORD_MAX 1000000 /* as the other positions of a map */

static int clip(int len) { return len > 40 ? 40 : len; }

/* The column just past a line's last item. */
static int past_end(const pt__line *ln) {
    const pt__tok *t = &ln->tok[ln->ntok - 1];
    return t->col + t->len + (t->quoted ? 2 : 0);
}

/* `ambient L`: 0 <= L <= 1, once. */
static int ambient_line(pt_map *map, const pt__line *ln, pt_error *err) {
    const pt__tok *w = &ln->tok[0];
    if (ln->ntok != 2)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->ntok < 2 ? past_end(ln) : ln->tok[2].col,
                            "'ambient' takes one argument: the light every tile has, 0 to 1");
    if (map->ambient_set)
        return pt_error_set(err, PT_ERR_DUPLICATE, ln->no, w->col, "'ambient' given twice (first on line %d)",
                            map->ambient_line);
    double v = 0;
    int rc = pt__tok_num(&ln->tok[1], ln->no, 0.0, 1.0, &v, err);
    if (rc < 0) return rc;
    map->ambient = v;
    map->ambient_set = 1;
    map->ambient_line = ln->no;
    return PT_OK;
}

/* `relight on|off`: once. */
static int relight_line(pt_map *map, const pt__line *ln, pt_error *err) {
    const pt__tok *w = &ln->tok[0];
    if (ln->ntok != 2)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->ntok < 2 ? past_end(ln) : ln->tok[2].col,
                            "'relight' takes one argument: on or off");
    if (map->relight) return pt_error_set(err, PT_ERR_DUPLICATE, ln->no, w->col, "'relight' given twice");
    static const char *const onoff[] = {"on", "off", NULL};
    int v = 0, rc = pt__tok_choice(&ln->tok[1], ln->no, onoff, &v, err);
    if (rc < 0) return rc;
    map->relight = v == 0 ? 1 : -1;
    return PT_OK;
}

/* An unknown key of a light line, with the nearest key as the hint. */
static int unknown_key(const pt__tok *k, int line, pt_error *err) {
    static const char *const keys[] = {"at", "radius", "level", NULL};
    pt__suggest sg;
    char hint[96];
    pt__suggest_init(&sg, k->s, (size_t)k->len);
    pt__suggest_words(&sg, keys);
    return pt_error_set(err, PT_ERR_UNKNOWN_KEY, line, k->col, "light has no key '%.*s'%s", clip(k->len), k->s,
                        pt__suggest_hint(&sg, " (keys: at, radius, level; and on or off)", hint, sizeof hint));
}

/* `light NAME at=X,Y radius=R [level=L] [on|off]` */
static int light_decl(pt_map *map, const pt__line *ln, pt_error *err) {
    pt__tok k, v;
    if (ln->ntok < 2 || pt__tok_kv(&ln->tok[1], &k, &v))
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->ntok < 2 ? past_end(ln) : ln->tok[1].col,
                            "expected a name: light NAME at=X,Y radius=R [level=L] [on|off]");
    pt_light_def l;
    memset(&l, 0, sizeof l);
    l.level = 1.0;
    l.on = 1;
    l.line = ln->no;
    int rc = pt__tok_name(&ln->tok[1], ln->no, l.name, sizeof l.name, err);
    if (rc < 0) return rc;
    int at_col = 0, radius_col = 0, level_col = 0, onoff_col = 0;
    for (int i = 2; i < ln->ntok; i++) {
        const pt__tok *t = &ln->tok[i];
        if (!pt__tok_kv(t, &k, &v)) {
            static const char *const onoff[] = {"on", "off", NULL};
            int which = 0;
            if ((rc = pt__tok_choice(t, ln->no, onoff, &which, err)) < 0) return rc;
            if (onoff_col)
                return pt_error_set(err, PT_ERR_DUPLICATE, ln->no, t->col, "%s",
                                    (which == 0) != l.on ? "'on' and 'off' both given" : "'on' or 'off' given twice");
            onoff_col = t->col;
            l.on = which == 0;
            continue;
        }
        int *seen = pt__tok_eq(&k, "at") ? &at_col : pt__tok_eq(&k, "radius") ? &radius_col
                                                 : pt__tok_eq(&k, "level")    ? &level_col
                                                                              : NULL;
        if (!seen) return unknown_key(&k, ln->no, err);
        if (*seen) return pt_error_set(err, PT_ERR_DUPLICATE, ln->no, k.col, "key '%.*s' given twice", k.len, k.s);
        *seen = v.col;
        if (seen == &at_col) rc = pt__tok_cell(&v, ln->no, -COORD_MAX, COORD_MAX, &l.x, &l.y, err);
        else if (seen == &radius_col) rc = pt__tok_num_key(&v, ln->no, "radius", 0, PT__LIGHT_MAX_RADIUS, 1, &l.radius, err);
        else rc = pt__tok_num_key(&v, ln->no, "level", 0, 1, 1, &l.level, err);
        if (rc < 0) return rc;
    }
    if (!at_col)
        return pt_error_set(err, PT_ERR_MISSING, ln->no, ln->tok[0].col, "light '%s' needs a position: at=X,Y", l.name);
    if (!radius_col)
        return pt_error_set(err, PT_ERR_MISSING, ln->no, ln->tok[0].col, "light '%s' needs a radius: radius=R (tiles)",
                            l.name);
    l.col = at_col;
    return pt__map_light_add(map, &l, err);
}

int pt__map_light_line(pt_map *map, const pt__line *ln, pt_error *err) {
    const pt__tok *w = &ln->tok[0];
    if (pt__tok_eq(w, "ambient")) return ambient_line(map, ln, err);
    if (pt__tok_eq(w, "relight")) return relight_line(map, ln, err);
    return light_decl(map, ln, err);
}

int pt__map_light_add(pt_map *map, const pt_light_def *l, pt_error *err) {
    if (map->nlights >= PT__LIGHTS_MAX)
        return pt_error_set(err, PT_ERR_LIMIT, l->line, l->col, "more than %d lights in one map", PT__LIGHTS_MAX);
    if ((map->nlights & (map->nlights - 1)) == 0) { /* 0, 1, 2, 4, ...: grow to the next power of two */
        int cap = map->nlights ? map->nlights * 2 : 1;
        pt_light_def *nl = PT_REALLOC(map->lights, sizeof *nl * (size_t)cap);
        if (!nl) return pt_error_set(err, PT_ERR_NOMEM, l->line, l->col, "out of memory");
        map->lights = nl;
    }
    map->lights[map->nlights++] = *l;
    return PT_OK;
}

int pt__map_light_cell_check(const pt_map *map, const pt_light_def *l, int line, int col, pt_error *err) {
    if (!pt_map_in(map, l->x, l->y))
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, line, col, "light '%s' at %d,%d is outside the %dx%d map", l->name, l->x,
                            l->y, map->w, map->h);
    if (pt_map_opaque(map, l->x, l->y)) {
        const pt_tile_def *t = pt_map_tile(map, l->x, l->y);
        return pt_error_set(err, PT_ERR_BAD_VALUE, line, col,
                            "light '%s' at %d,%d is inside %s ('%c'), which is opaque: put it on a cell that sees", l->name,
                            l->x, l->y, t->name, t->ch);
    }
    return PT_OK;
}

static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int pt__map_light_dup(const pt_map *map, int *first) {
    if (map->nlights < 2) return -1;
    size_t cap = 4;
    while (cap < 2 * (size_t)map->nlights) cap *= 2;
    int *set = PT_MALLOC(sizeof *set * cap); /* open addressing: light indices by name, -1 empty */
    if (!set) return -2;
    for (size_t i = 0; i < cap; i++) set[i] = -1;
    int dup = -1;
    for (int i = 0; i < map->nlights && dup < 0; i++) {
        size_t h = name_hash(map->lights[i].name) & (cap - 1);
        for (; set[h] >= 0; h = (h + 1) & (cap - 1))
            if (!strcmp(map->lights[set[h]].name, map->lights[i].name)) {
                dup = i;
                *first = set[h];
                break;
            }
        if (dup < 0) set[h] = i;
    }
    PT_FREE(set);
    return dup;
}

/* The column of the name on line `line` of t (its second item), or 1. */
static int name_col(const pt__text *t, int line) {
    pt__reader r;
    pt__line ln;
    pt_error quiet;
    pt__reader_init(&r, t);
    while (pt__reader_next(&r, &ln, &quiet) > 0)
        if (ln.no == line) return pt__line_tokenize(&ln, &quiet) >= 0 && ln.ntok >= 2 ? ln.tok[1].col : 1;
    return 1;
}

int pt__map_lights_check(const pt_map *map, const pt__text *t, pt_error *err) {
    int first = -1, dup = pt__map_light_dup(map, &first);
    if (dup == -2) return pt_error_set(err, PT_ERR_NOMEM, map->lights[0].line, map->lights[0].col, "out of memory");
    for (int i = 0; i < map->nlights; i++) {
        const pt_light_def *l = &map->lights[i];
        if (i == dup)
            return pt_error_set(err, PT_ERR_DUPLICATE, l->line, name_col(t, l->line),
                                "the light name '%s' is already used (line %d)", l->name, map->lights[first].line);
        int rc = pt__map_light_cell_check(map, l, l->line, l->col, err);
        if (rc < 0) return rc;
    }
    return PT_OK;
}
