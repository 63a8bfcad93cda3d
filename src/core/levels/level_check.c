/* SPDX-License-Identifier: Zlib */
/* What loads but does not play as meant (patrol/level.h, pt_level_warnings): `patrol check`
 * prints these as located warnings and keeps the exit status 0. And a Tiled tileset checked
 * alone (pt_level_check_tileset). */
#include <patrol/level.h>

#include <patrol/math.h>
#include <patrol/path.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The warnings found so far: written up to max, all counted. */
typedef struct warnings {
    pt_error *out;
    int max, n;
} warnings;

static void warn_at(warnings *ws, const pt_map *map, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void warn_at(warnings *ws, const pt_map *map, int line, int col, const char *fmt, ...) {
    if (ws->n < ws->max) {
        pt_error *w = &ws->out[ws->n];
        pt_error_clear(w);
        w->line = line;
        w->col = col;
        snprintf(w->file, sizeof w->file, "%s", map->path);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->message, sizeof w->message, fmt, ap);
        va_end(ap);
    }
    ws->n++;
}

/* Where the world walks a guard that starts off its pattern (guards/brain.c, "return"): the
 * pattern's cells as pt_patrun_cells gives them (at most the world's scratch of
 * PT_MAX_PATTERN_STEPS), and the nearest of them by A* (pt_path_find_nearest) from where it
 * stands. Returns 0 with *to set, or -1 when the world finds none (it then stands idle). */
static int return_cell(pt_pathfinder *pf, const pt_map *map, const pt_patrun *run, pt_cell from, pt_cell *to) {
    pt_cell *cells = malloc((size_t)PT_MAX_PATTERN_STEPS * sizeof *cells);
    int rc = -1;
    if (cells) {
        int ncells = pt_patrun_cells(run, map, cells, PT_MAX_PATTERN_STEPS);
        if (ncells > PT_MAX_PATTERN_STEPS) ncells = PT_MAX_PATTERN_STEPS;
        int which = -1, n = ncells > 0 ? pt_path_find_nearest(pf, from, cells, ncells, NULL, 0, &which) : -1;
        if (n >= 1 && n <= PT_MAX_PATTERN_STEPS && which >= 0 && which < ncells) {
            *to = cells[which];
            rc = 0;
        }
    }
    free(cells);
    return rc;
}

/* Lights that light nothing: a map whose ambient level is 1 (given, or the default) with
 * lights or lanterns; every tile is fully lit already (a tile's light is capped at 1). One
 * located warning at the first light (else the first lantern). */
static void light_warnings(warnings *ws, const pt_map *map) {
    if (map->ambient_set && map->ambient < 1.0) return;
    const pt_entity_def *bearer = NULL;
    for (int i = 0; i < map->nents && !bearer; i++)
        if (map->ents[i].lantern > 0) bearer = &map->ents[i];
    if (map->nlights == 0 && !bearer) return;
    int line = map->nlights ? map->lights[0].line : bearer->line, col = map->nlights ? map->lights[0].col : bearer->col;
    warn_at(ws, map, line, col, "the map's lights and lanterns light nothing: %s, so every tile is fully lit already (add: "
                            "ambient L, below 1)",
            map->ambient_set ? "its ambient level is 1" : "it has no ambient line (the level is 1)");
}

/* What loads but does not play as meant: no goal tile; a goal tile kind that cannot be
 * walked on (the player wins by standing on one); walkable goal tiles none of which the
 * player can walk to (a diagonal step never cuts a corner, so 4-neighbour reachability is
 * the player's); an entity that starts off its tile pattern as placed (the world walks it to
 * the nearest cell of it first). Each is a located warning (patrol/level.h). */
int pt_level_warnings(const pt_map *map, const pt_patlib *lib, pt_error *out, int max) {
    warnings all = {out, out ? max : 0, 0}, *ws = &all;
    const pt_entity_def *pl = &map->player;
    pt_pathfinder *pf = pt_pathfinder_create(map);
    if (!map->goal) {
        warn_at(ws, map, pl->line, pl->col, "the map has no goal tile: the player cannot win (a tile kind with the goal flag is "
                                        "the exit)");
    } else {
        size_t cells = (size_t)map->w * (size_t)map->h;
        pt_cell *goals = malloc(cells * sizeof *goals);
        int ngoals = 0;
        /* A goal tile kind without the walkable flag: the player never stands on it. */
        for (int k = 0; k < map->nlegend; k++) {
            const pt_tile_def *t = &map->legend[k];
            if (!(t->flags & PT_TILE_GOAL) || (t->flags & PT_TILE_WALKABLE)) continue;
            for (size_t c = 0; c < cells; c++) {
                if (map->tiles[c] != k) continue;
                warn_at(ws, map, pl->line, pl->col,
                        "goal tile '%c' (%s) cannot be walked on (the first at %d,%d): the player never stands on it to "
                        "win (give the tile kind the walkable flag)",
                        t->ch, t->name, (int)(c % (size_t)map->w), (int)(c / (size_t)map->w));
                break;
            }
        }
        if (goals && pf && pt_map_walkable(map, pl->x, pl->y)) {
            /* The guards' A* walks as the player does (a diagonal never cuts a corner). */
            for (size_t c = 0; c < cells; c++)
                if ((map->flags[c] & PT_TILE_GOAL) && (map->flags[c] & PT_TILE_WALKABLE))
                    goals[ngoals++] = (pt_cell){(int)(c % (size_t)map->w), (int)(c / (size_t)map->w)};
            int which;
            if (ngoals && pt_path_find_nearest(pf, (pt_cell){pl->x, pl->y}, goals, ngoals, NULL, 0, &which) < 0) {
                warn_at(ws, map, pl->line, pl->col,
                        "no goal tile can be reached from the player's start %d,%d: every goal tile (the first at "
                        "%d,%d) is walled in",
                        pl->x, pl->y, goals[0].x, goals[0].y);
            }
        }
        free(goals);
    }
    for (int i = 0; pf && i < map->nents; i++) {
        const pt_entity_def *d = &map->ents[i];
        const pt_pattern *p = d->pattern[0] ? pt_patlib_find(lib, d->pattern) : NULL;
        if (!p || (p->kind != PT_PAT_PATH && p->kind != PT_PAT_MATRIX && p->kind != PT_PAT_CONTROL)) continue;
        pt_patrun r;
        pt_cell origin = pt_pattern_origin(p, d), start = {d->x, d->y}, to;
        pt_patrun_init(&r, p, origin, start, pt_rad(d->heading_deg), 1, 0);
        if (r.x == d->x && r.y == d->y) continue;
        if (return_cell(pf, map, &r, start, &to) == 0)
            warn_at(ws, map, d->line, d->col,
                    "%s '%s' starts at %d,%d, off its %s pattern '%s' (placed at %d,%d): it walks to %d,%d, the nearest "
                    "cell of it, before it patrols",
                    pt_kind_name(d->kind), d->name, d->x, d->y, pt_pattern_kind_name(p->kind), p->name, origin.x,
                    origin.y, to.x, to.y);
        else
            warn_at(ws, map, d->line, d->col,
                    "%s '%s' starts at %d,%d, off its %s pattern '%s' (placed at %d,%d): it cannot walk to any cell of "
                    "it, so it stands and keeps watch",
                    pt_kind_name(d->kind), d->name, d->x, d->y, pt_pattern_kind_name(p->kind), p->name, origin.x,
                    origin.y);
    }
    pt_pathfinder_destroy(pf);
    light_warnings(ws, map);
    return all.n;
}


/* A tileset is only ever read as part of a Tiled map, so it is checked by the same loader:
 * a one-tile map in the tileset's folder that uses it. A problem located in the tileset is
 * the tileset's; the stand-in map's own complaints (it has no player) are not. */
int pt_level_check_tileset(const char *path, pt_error *err) {
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char name[PT_MAX_PATH], esc[PT_MAX_PATH * 6], text[PT_MAX_PATH * 6 + 512];
    snprintf(name, sizeof name, "%.*s(check of %s).tmx", slash ? (int)(slash - path + 1) : 0, path, base);
    size_t n = 0;
    for (const char *c = base; *c && n + 7 < sizeof esc; c++) {
        const char *e = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '"' ? "&quot;" : NULL;
        if (e) n += (size_t)snprintf(esc + n, sizeof esc - n, "%s", e);
        else esc[n++] = *c;
    }
    esc[n] = '\0';
    int len = snprintf(text, sizeof text,
                       "<map version=\"1.8\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"1\" "
                       "height=\"1\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\">\n"
                       " <tileset firstgid=\"1\" source=\"%s\"/>\n"
                       " <layer id=\"1\" name=\"tiles\" width=\"1\" height=\"1\"><data encoding=\"csv\">1</data></layer>\n"
                       "</map>\n", esc);
    pt_map map;
    pt_error e;
    int rc = pt_tmx_parse(&map, NULL, text, (size_t)len, name, &e);
    if (rc == PT_OK) pt_map_fini(&map);
    if (rc < 0 && strcmp(e.file, name) != 0) { /* the tileset's problem, not the stand-in map's */
        if (err) *err = e;
        return rc;
    }
    return PT_OK;
}

