/* SPDX-License-Identifier: Zlib */
/* Map utilities shared by the loader, tests and generated maps. The text parser is in
 * map_parse.c. */
#include <patrol/map.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "map/phases.h"
#include "base/suggest.h"
#include "map/doors.h"
#include "map/keys.h"
#include "map/sight.h"
#include "base/text.h"

/* The default legend: present in every map; a map's `tile` lines add characters. */
static const struct { char ch; const char *name; uint8_t flags; int sprite; int16_t sound; } default_legend[] = {
    {'.', "floor", PT_TILE_WALKABLE, 0, 0},
    {'#', "wall", PT_TILE_OPAQUE, 1, PT_SOUND_BLOCK},
    {'~', "water", 0, 2, 0},
    {'=', "bridge", PT_TILE_WALKABLE, 4, 0},
    {'+', "door", PT_TILE_WALKABLE, 5, 20},
    {',', "grass", PT_TILE_WALKABLE, 6, 0},
    {'*', "bush", PT_TILE_WALKABLE | PT_TILE_OPAQUE, 7, 10},
    {'E', "exit", PT_TILE_WALKABLE | PT_TILE_GOAL, 8, 0},
    {':', "dirt", PT_TILE_WALKABLE, 9, 0},
    /* A tree blocks walking and sight like a wall, but sound goes round its trunk and through
     * its leaves: a loss like a bush's, not the wall's block. */
    {'T', "tree", PT_TILE_OPAQUE, 10, 10},
};

/* Surfaces by name; gravel is no default kind, but a map's `gravel` should crunch. */
double pt_tile_footstep_default(const char *name) {
    static const struct { const char *name; double factor; } loud[] = {
        {"grass", 0.5}, {"bridge", 1.5}, {"gravel", 1.5},
    };
    for (size_t i = 0; name && i < sizeof loud / sizeof loud[0]; i++)
        if (strcmp(name, loud[i].name) == 0) return loud[i].factor;
    return 1.0;
}

int pt_tile_sound_default(const char *name, uint8_t flags) {
    for (size_t i = 0; name && i < sizeof default_legend / sizeof default_legend[0]; i++)
        if (strcmp(name, default_legend[i].name) == 0) return default_legend[i].sound;
    if (name && (strcmp(name, "door_closed") == 0 || strcmp(name, "door_locked") == 0)) return PT__DOOR_SHUT_SOUND;
    return !(flags & PT_TILE_WALKABLE) && (flags & PT_TILE_OPAQUE) ? PT_SOUND_BLOCK : 0;
}

/* A map has few tile kinds and a typo in a sound value should point at itself, so the value is
 * read strictly: a number with at most one decimal (it is kept in exact tenths, which keeps the
 * hearing flood in integers), or the word block. */
int pt__tok_sound(const pt__tok *t, int line, int16_t *out, pt_error *err) {
    char c = t->len > 0 ? t->s[0] : '\0';
    if (t->len > 0 && !((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')) {
        if (pt__tok_eq(t, "block")) {
            *out = PT_SOUND_BLOCK;
            return PT_OK;
        }
        pt__suggest sg;
        char hint[96];
        pt__suggest_init(&sg, t->s, (size_t)t->len);
        pt__suggest_add(&sg, "block");
        return pt_error_set(err, PT_ERR_BAD_VALUE, line, t->col, "'%.*s' is not a sound value%s",
                            t->len > 40 ? 40 : t->len, t->s,
                            pt__suggest_hint(&sg, " (a loss in tiles 0..100, or block)", hint, sizeof hint));
    }
    double v;
    int rc = pt__tok_num_key(t, line, "sound", 0, PT_SOUND_MAX / 10, 0, &v, err);
    if (rc < 0) return rc;
    double tenths = v * 10.0;
    if (fabs(tenths - nearbyint(tenths)) > 1e-6)
        return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col, "sound %.*s has more than one decimal (tenths of a tile)",
                            t->len > 40 ? 40 : t->len, t->s);
    *out = (int16_t)nearbyint(tenths);
    return PT_OK;
}

int pt__map_default_legend(pt_map *map) {
    int n = (int)(sizeof default_legend / sizeof default_legend[0]);
    for (int i = 0; i < n; i++) {
        pt_tile_def *t = &map->legend[i];
        memset(t, 0, sizeof *t);
        t->ch = default_legend[i].ch;
        snprintf(t->name, sizeof t->name, "%s", default_legend[i].name);
        t->flags = default_legend[i].flags;
        t->sprite = default_legend[i].sprite;
        t->sound = default_legend[i].sound;
        t->footstep = pt_tile_footstep_default(t->name);
    }
    map->nlegend = n;
    return n;
}

int pt_map_legend_find(const pt_map *map, char ch) {
    for (int i = 0; i < map->nlegend; i++)
        if (map->legend[i].ch == ch) return i;
    return -1;
}

int pt_map_init_blank(pt_map *map, int w, int h, pt_error *err) {
    memset(map, 0, sizeof *map);
    pt_error_clear(err);
    if (w < 1 || h < 1 || w > PT_MAP_MAX_W || h > PT_MAP_MAX_H)
        return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "map size %dx%d outside 1x1..%dx%d", w, h, PT_MAP_MAX_W,
                            PT_MAP_MAX_H);
    size_t n = (size_t)w * (size_t)h;
    map->tiles = PT_CALLOC(n, 1);
    map->flags = PT_CALLOC(n, 1);
    if (!map->tiles || !map->flags) {
        pt_map_fini(map);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for a %dx%d map", w, h);
    }
    map->w = w;
    map->h = h;
    map->tile_px = 16;
    pt__map_default_legend(map);
    memset(map->flags, map->legend[0].flags, n);
    map->player.kind = PT_KIND_PLAYER;
    snprintf(map->player.name, sizeof map->player.name, "player");
    pt__sight_build(map); /* a cache: without it (no memory) sight walks the flags */
    return PT_OK;
}

int pt_map_set(pt_map *map, int x, int y, char ch) {
    int k = pt_map_legend_find(map, ch);
    if (k < 0 || !pt_map_in(map, x, y)) return 0;
    size_t i = (size_t)y * (size_t)map->w + (size_t)x;
    map->tiles[i] = (uint8_t)k;
    map->flags[i] = map->legend[k].flags;
    map->goal |= (map->legend[k].flags & PT_TILE_GOAL) != 0;
    pt__sight_cell(map, x, y);
    return 1;
}

int pt_map_refresh_sight(pt_map *map) { return pt__sight_build(map); }

void pt_map_fini(pt_map *map) {
    if (!map) return;
    PT_FREE(map->tiles);
    PT_FREE(map->flags);
    PT_FREE(map->ents);
    PT_FREE(map->obstacles);
    PT_FREE(map->sources);
    PT_FREE(map->doors);
    PT_FREE(map->lights);
    pt__sight_free(map);
    memset(map, 0, sizeof *map);
}

int pt_map_clone(pt_map *dst, const pt_map *src) {
    *dst = *src;
    size_t n = (size_t)src->w * (size_t)src->h;
    dst->tiles = PT_MALLOC(n ? n : 1);
    dst->flags = PT_MALLOC(n ? n : 1);
    dst->ents = PT_MALLOC(sizeof *dst->ents * (size_t)(src->nents ? src->nents : 1));
    dst->obstacles = PT_MALLOC(sizeof *dst->obstacles * (size_t)(src->nobstacles ? src->nobstacles : 1));
    dst->sources = PT_MALLOC(sizeof *dst->sources * (size_t)(src->nsources ? src->nsources : 1));
    if (!dst->tiles || !dst->flags || !dst->ents || !dst->obstacles || !dst->sources) {
        PT_FREE(dst->tiles); PT_FREE(dst->flags); PT_FREE(dst->ents); PT_FREE(dst->obstacles); PT_FREE(dst->sources);
        memset(dst, 0, sizeof *dst);
        return PT_ERR_NOMEM;
    }
    if (n) {
        memcpy(dst->tiles, src->tiles, n);
        memcpy(dst->flags, src->flags, n);
    }
    if (src->nents) memcpy(dst->ents, src->ents, sizeof *dst->ents * (size_t)src->nents);
    if (src->nobstacles) memcpy(dst->obstacles, src->obstacles, sizeof *dst->obstacles * (size_t)src->nobstacles);
    if (src->nsources) memcpy(dst->sources, src->sources, sizeof *dst->sources * (size_t)src->nsources);
    dst->sight = NULL;
    dst->doors = NULL;
    if (src->ndoors > 0) {
        dst->doors = PT_MALLOC(sizeof *dst->doors * (size_t)src->ndoors);
        if (!dst->doors) {
            PT_FREE(dst->tiles); PT_FREE(dst->flags); PT_FREE(dst->ents); PT_FREE(dst->obstacles); PT_FREE(dst->sources);
            memset(dst, 0, sizeof *dst);
            return PT_ERR_NOMEM;
        }
        memcpy(dst->doors, src->doors, sizeof *dst->doors * (size_t)src->ndoors);
    }
    dst->lights = NULL;
    if (src->nlights > 0) {
        dst->lights = PT_MALLOC(sizeof *dst->lights * (size_t)src->nlights);
        if (!dst->lights) {
            PT_FREE(dst->tiles); PT_FREE(dst->flags); PT_FREE(dst->ents); PT_FREE(dst->obstacles); PT_FREE(dst->sources);
            PT_FREE(dst->doors);
            memset(dst, 0, sizeof *dst);
            return PT_ERR_NOMEM;
        }
        memcpy(dst->lights, src->lights, sizeof *dst->lights * (size_t)src->nlights);
    }
    pt__sight_build(dst); /* from the copied flags */
    return PT_OK;
}

/* Zero means default; so do negative, NaN and infinite values (a def built in code must not
 * put NaN or Inf into a world: the parsers never produce them). */
static void def_num(double *v, double def) {
    if (!(*v > 0) || !isfinite(*v)) *v = def;
}

void pt_entity_def_resolve(pt_entity_def *d) {
    def_num(&d->view_dist, 8.0);
    def_num(&d->view_angle_deg, 90.0);
    def_num(&d->speed, d->kind == PT_KIND_PLAYER ? 5.0 : (d->kind == PT_KIND_PREY ? 3.5 : 3.0));
    def_num(&d->aware_rate, 2.0);
    def_num(&d->aware_decay, 0.35);
    def_num(&d->suspicious_at, 0.3);
    def_num(&d->chase_at, 1.0);
    def_num(&d->hearing, 1.0);
    def_num(&d->shout, 12.0);
    def_num(&d->memory, 10.0);
    if (!isfinite(d->heading_deg)) d->heading_deg = 0.0;
    if (d->count <= 0) d->count = 1;
    if (!d->has_origin) {
        d->origin_x = d->x;
        d->origin_y = d->y;
    }
}

void pt_phase_timing_resolve(pt_phase_timing *t) {
    def_num(&t->evasion, EVASION_S);
    def_num(&t->caution, CAUTION_S);
    def_num(&t->caution_aware, CAUTION_AWARE);
    def_num(&t->caution_fov, CAUTION_FOV);
    /* Code may fill a desc with anything: keep the tick counts and cones sane. */
    t->evasion = fmin(t->evasion, PT_PHASE_SECONDS_MAX);
    t->caution = fmin(t->caution, PT_PHASE_SECONDS_MAX);
    t->caution_aware = pt_clamp(t->caution_aware, 1.0, PT_PHASE_FACTOR_MAX);
    t->caution_fov = pt_clamp(t->caution_fov, 1.0, PT_PHASE_FACTOR_MAX);
}

/* The alert phases' keys: the .map header directives and the Tiled map properties of the
 * same names, each with its one range. */
static const struct {
    const char *name, *arg;
    size_t off;
    double lo, hi;
} phase_keys[PT__PHASE_NKEYS] = {
    {"evasion", "a number of seconds", offsetof(pt_phase_timing, evasion), 0.0, PT_PHASE_SECONDS_MAX},
    {"caution", "a number of seconds", offsetof(pt_phase_timing, caution), 0.0, PT_PHASE_SECONDS_MAX},
    {"caution_aware", "a factor", offsetof(pt_phase_timing, caution_aware), 1.0, PT_PHASE_FACTOR_MAX},
    {"caution_fov", "a factor", offsetof(pt_phase_timing, caution_fov), 1.0, PT_PHASE_FACTOR_MAX},
};

int pt__phase_key_find(const char *name, size_t len) {
    for (int k = 0; k < PT__PHASE_NKEYS; k++)
        if (strlen(phase_keys[k].name) == len && memcmp(phase_keys[k].name, name, len) == 0) return k;
    return -1;
}

const char *pt__phase_key_arg(int key) { return phase_keys[key].arg; }

int pt__phase_key_read(int key, const pt__tok *v, int line, pt_phase_timing *t, pt_error *err) {
    double *field = (double *)(void *)((char *)t + phase_keys[key].off);
    int rc = pt__tok_num(v, line, phase_keys[key].lo, phase_keys[key].hi, field, err);
    if (rc == PT_OK && *field <= 0) /* zero would read as "default" */
        rc = pt_error_set(err, PT_ERR_RANGE, line, v->col, "%s must be greater than 0 seconds", phase_keys[key].name);
    return rc;
}

const char *pt_kind_name(pt_kind kind) {
    static const char *names[PT_KIND_COUNT] = {"player", "guard", "prey", "boid"};
    return (unsigned)kind < PT_KIND_COUNT ? names[kind] : "unknown";
}

const char *pt_chase_name(pt_chase chase) {
    static const char *names[PT_CHASE_COUNT] = {"tile", "steer", "intercept"};
    return (unsigned)chase < PT_CHASE_COUNT ? names[chase] : "unknown";
}
