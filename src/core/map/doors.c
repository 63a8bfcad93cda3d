/* SPDX-License-Identifier: Zlib */
/* The map's door declarations (docs/formats.md, "Doors"): `door X,Y open|closed|locked
 * [closes]` and `door_look on|off`, and the door tile kinds, known by their names. */
#include "map/doors.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"

#define PT__DOORS_MAX 65536 /* door lines in one map */

static const char *const kind_names[PT_DOOR_STATE_COUNT] = {"door", "door_closed", "door_locked"};

const char *pt__door_kind_name(pt_door_state s) {
    return (unsigned)s < PT_DOOR_STATE_COUNT ? kind_names[s] : "door";
}

int pt__door_kind_state(const pt_tile_def *t) {
    for (int s = 0; s < PT_DOOR_STATE_COUNT; s++)
        if (strcmp(t->name, kind_names[s]) == 0) return s;
    return -1;
}

/* The legend index of the kind for door state s, added to the legend when missing (a
 * character of its own: the first from '!' up that the legend lacks); -1 when it is full. */
int pt__map_door_kind(pt_map *m, int s) {
    for (int i = 0; i < m->nlegend; i++)
        if (pt__door_kind_state(&m->legend[i]) == s) return i;
    if (m->nlegend >= PT_MAX_TILE_KINDS) return -1;
    char ch = 0;
    for (int c = '!'; c <= '~' && !ch; c++)
        if (c != '#' && pt_map_legend_find(m, (char)c) < 0) ch = (char)c;
    if (!ch) return -1;
    pt_tile_def *t = &m->legend[m->nlegend];
    memset(t, 0, sizeof *t);
    t->ch = ch;
    snprintf(t->name, sizeof t->name, "%s", pt__door_kind_name((pt_door_state)s));
    t->flags = s == PT_DOOR_OPEN ? PT_TILE_WALKABLE : PT_TILE_OPAQUE;
    t->sound = (int16_t)pt_tile_sound_default(t->name, t->flags);
    t->footstep = pt_tile_footstep_default(t->name);
    t->sprite = -1;
    return m->nlegend++;
}

void pt__map_doors_start(pt_map *m) {
    for (int i = 0; i < m->ndoors; i++) {
        const pt_door_def *d = &m->doors[i];
        if (!pt_map_in(m, d->x, d->y) || pt__door_kind_state(pt_map_tile(m, d->x, d->y)) < 0) continue;
        int k = pt__map_door_kind(m, d->state);
        if (k >= 0) pt_map_set(m, d->x, d->y, m->legend[k].ch);
    }
}

int pt__map_clone_started(pt_map *dst, const pt_map *src) {
    int rc = pt_map_clone(dst, src);
    if (rc == PT_OK) pt__map_doors_start(dst);
    return rc;
}

int pt__map_door_add(pt_map *map, const pt_door_def *d, pt_error *err) {
    if (map->ndoors >= PT__DOORS_MAX)
        return pt_error_set(err, PT_ERR_LIMIT, d->line, d->col, "more than %d doors in one map", PT__DOORS_MAX);
    if ((map->ndoors & (map->ndoors - 1)) == 0) { /* 0, 1, 2, 4, ...: grow to the next power of two */
        int cap = map->ndoors ? map->ndoors * 2 : 1;
        pt_door_def *nd = PT_REALLOC(map->doors, sizeof *nd * (size_t)cap);
        if (!nd) return pt_error_set(err, PT_ERR_NOMEM, d->line, d->col, "out of memory");
        map->doors = nd;
    }
    map->doors[map->ndoors++] = *d;
    return PT_OK;
}

int pt__map_door_line(pt_map *map, const pt__line *ln, pt_error *err) {
    const pt__tok *w = &ln->tok[0];
    if (pt__tok_eq(w, "door_look")) {
        if (ln->ntok != 2)
            return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->ntok < 2 ? w->col + w->len : ln->tok[2].col,
                                "'door_look' takes one argument: on or off");
        if (map->door_look)
            return pt_error_set(err, PT_ERR_DUPLICATE, ln->no, w->col, "'door_look' given twice");
        static const char *const onoff[] = {"on", "off", NULL};
        int v = 0, rc = pt__tok_choice(&ln->tok[1], ln->no, onoff, &v, err);
        if (rc < 0) return rc;
        map->door_look = v == 0 ? 1 : -1;
        return PT_OK;
    }
    if (ln->ntok < 3)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->tok[ln->ntok - 1].col + ln->tok[ln->ntok - 1].len,
                            "'door' needs a cell and a state: door X,Y open|closed|locked [closes]");
    pt_door_def d = {0, 0, PT_DOOR_OPEN, 0, ln->no, ln->tok[1].col};
    int rc = pt__tok_cell(&ln->tok[1], ln->no, -1000000, 1000000, &d.x, &d.y, err);
    if (rc < 0) return rc;
    static const char *const states[] = {"open", "closed", "locked", NULL};
    int s = 0;
    if ((rc = pt__tok_choice(&ln->tok[2], ln->no, states, &s, err)) < 0) return rc;
    d.state = (pt_door_state)s;
    if (ln->ntok >= 4) {
        if (!pt__tok_eq(&ln->tok[3], "closes"))
            return pt_error_set(err, PT_ERR_BAD_VALUE, ln->no, ln->tok[3].col, "expected 'closes', found '%.*s'",
                                ln->tok[3].len > 40 ? 40 : ln->tok[3].len, ln->tok[3].s);
        d.closes = 1;
    }
    if (ln->ntok > 4)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->tok[4].col, "unexpected '%.*s': 'door' takes X,Y STATE [closes]",
                            ln->tok[4].len > 40 ? 40 : ln->tok[4].len, ln->tok[4].s);
    return pt__map_door_add(map, &d, err);
}

int pt__map_doors_check(const pt_map *map, pt_error *err) {
    if (map->ndoors == 0) return PT_OK;
    int *first = PT_MALLOC(sizeof *first * (size_t)map->w * (size_t)map->h); /* per cell: its door + 1 */
    if (!first) return pt_error_set(err, PT_ERR_NOMEM, map->doors[0].line, map->doors[0].col, "out of memory");
    int rc = PT_OK;
    for (int i = 0; i < map->ndoors && rc == PT_OK; i++) {
        const pt_door_def *d = &map->doors[i];
        if (pt_map_in(map, d->x, d->y)) first[(size_t)d->y * (size_t)map->w + (size_t)d->x] = 0;
    }
    for (int i = 0; i < map->ndoors && rc == PT_OK; i++) {
        const pt_door_def *d = &map->doors[i];
        if (!pt_map_in(map, d->x, d->y)) {
            rc = pt_error_set(err, PT_ERR_OUT_OF_MAP, d->line, d->col, "door at %d,%d is outside the %dx%d map", d->x,
                              d->y, map->w, map->h);
            break;
        }
        const pt_tile_def *t = pt_map_tile(map, d->x, d->y);
        int *f = &first[(size_t)d->y * (size_t)map->w + (size_t)d->x];
        if (pt__door_kind_state(t) < 0)
            rc = pt_error_set(err, PT_ERR_BAD_VALUE, d->line, d->col,
                              "cell %d,%d is %s ('%c'), not a door (a tile named door, door_closed or door_locked)", d->x,
                              d->y, t->name, t->ch);
        else if (*f)
            rc = pt_error_set(err, PT_ERR_DUPLICATE, d->line, d->col, "door %d,%d declared twice (first on line %d)",
                              d->x, d->y, map->doors[*f - 1].line);
        else *f = i + 1;
    }
    PT_FREE(first);
    for (int i = 0; i < map->ndoors && rc == PT_OK; i++) {
        const pt_door_def *d = &map->doors[i];
        const pt_entity_def *e = pt__map_door_occupant(map, d);
        if (e)
            rc = pt_error_set(err, PT_ERR_NOT_WALKABLE, d->line, d->col, "door %d,%d starts %s with %s '%s' standing in it",
                              d->x, d->y, d->state == PT_DOOR_CLOSED ? "closed" : "locked", pt_kind_name(e->kind),
                              e->name[0] ? e->name : "player");
    }
    return rc;
}

const pt_entity_def *pt__map_door_occupant(const pt_map *map, const pt_door_def *d) {
    if (d->state == PT_DOOR_OPEN) return NULL;
    if (map->player.x == d->x && map->player.y == d->y) return &map->player;
    for (int i = 0; i < map->nents; i++)
        if (map->ents[i].x == d->x && map->ents[i].y == d->y) return &map->ents[i];
    return NULL;
}
