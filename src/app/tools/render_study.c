/* SPDX-License-Identifier: Zlib */
/* What `patrol render --heatmap / --heatmap-gait / --heatmap-csv / --route` add to a picture:
 * the guards' sight or hearing over time (patrol/solve.h's sight and hearing tables) and a
 * player pattern walked in the world. */
#include "tools/study.h"

#include <patrol/render.h>
#include <patrol/solve.h>
#include <patrol/world.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int study_heatmap(const pt_map *map, const pt_patlib *lib, int ticks, int **counts, pt_error *err) {
    pt_sightmap sm;
    *counts = NULL;
    int rc = pt_sightmap_build(&sm, map, lib, 0, ticks, err);
    if (rc != PT_OK) return rc;
    *counts = malloc(sizeof **counts * (size_t)map->w * (size_t)map->h);
    if (!*counts) {
        pt_sightmap_fini(&sm);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the heatmap");
    }
    pt_sightmap_counts(&sm, *counts);
    pt_sightmap_fini(&sm);
    return PT_OK;
}

int study_hearmap(const pt_map *map, const pt_patlib *lib, int ticks, pt_gait gait, int **counts, pt_error *err) {
    *counts = malloc(sizeof **counts * (size_t)map->w * (size_t)map->h);
    if (!*counts) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the heatmap");
    int rc = pt_hearmap_build(map, lib, 0, ticks, gait, *counts, err);
    if (rc != PT_OK) {
        free(*counts);
        *counts = NULL;
    }
    return rc;
}

int study_heatmap_csv(const char *path, const pt_map *map, const int *counts, int ticks, const char *what) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f) {
        fprintf(stderr, "patrol render: error: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    fprintf(f, "x,y,walkable,ticks_%s,share\n", what);
    for (int y = 0; y < map->h; y++)
        for (int x = 0; x < map->w; x++) {
            int c = counts[(size_t)y * (size_t)map->w + (size_t)x];
            fprintf(f, "%d,%d,%d,%d,%.4f\n", x, y, pt_map_walkable(map, x, y), c, (double)c / ticks);
        }
    int bad = ferror(f) | (f == stdout ? fflush(f) : fclose(f));
    if (bad) fprintf(stderr, "patrol render: error: cannot write %s: %s\n", path, strerror(errno));
    return !bad;
}

int study_route(const pt_map *map, const pt_patlib *lib, const pt_pattern *pat, study_walk *out, pt_error *err) {
    memset(out, 0, sizeof *out);
    out->seen_tick = out->goal_tick = -1;
    pt_world_desc d = {0};
    d.player_pattern = pat;
    pt_world *w = pt_world_create(map, lib, &d, err);
    if (!w) return err ? err->code : PT_ERR_INTERNAL;
    int cap = 256;
    out->cells = malloc(sizeof *out->cells * (size_t)cap);
    if (!out->cells) {
        pt_world_destroy(w);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    const pt_entity *p = pt_world_entity(w, 0);
    out->cells[out->n++] = (pt_cell){p->x, p->y};
    /* Walks until the goal, or the pattern has stood still for a while after its end. */
    int still = 0;
    for (int t = 1; t <= STUDY_ROUTE_MAX_TICKS && out->goal_tick < 0 && still < 600; t++) {
        pt_world_step(w);
        for (int i = 1; i < pt_world_count(w) && out->seen_tick < 0; i++) {
            const pt_entity *g = pt_world_entity(w, i);
            if (g->kind == PT_KIND_GUARD && g->sees_player) {
                out->seen_tick = t;
                out->seen_at = (pt_cell){p->x, p->y};
            }
        }
        int nev = 0;
        const pt_event *ev = pt_world_events(w, &nev);
        for (int k = 0; k < nev; k++)
            if (ev[k].kind == PT_EVENT_GOAL && out->goal_tick < 0) out->goal_tick = t;
        pt_cell last = out->cells[out->n - 1];
        still = (p->x == last.x && p->y == last.y && p->run.done) ? still + 1 : 0;
        if (p->x == last.x && p->y == last.y) continue;
        if (out->n == cap) {
            cap *= 2;
            pt_cell *nc = realloc(out->cells, sizeof *nc * (size_t)cap);
            if (!nc) {
                pt_world_destroy(w);
                study_walk_fini(out);
                return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
            }
            out->cells = nc;
        }
        out->cells[out->n++] = (pt_cell){p->x, p->y};
    }
    pt_world_destroy(w);
    return PT_OK;
}

void study_walk_fini(study_walk *w) {
    free(w->cells);
    memset(w, 0, sizeof *w);
}

/* Share of the time seen -> colour: yellow (now and then) to red (always). */
static uint32_t heat_rgba(double share) {
    double s = share < 0.0 ? 0.0 : share > 1.0 ? 1.0 : share;
    uint32_t r = 255, g = (uint32_t)lround(220.0 * (1.0 - s)), a = (uint32_t)lround(70.0 + 130.0 * s);
    return r << 24 | g << 16 | 0x20u << 8 | a;
}

void study_draw(pt_render *r, const pt_map *map, const pt_view *v, const int *counts, int ticks,
                const study_walk *walk) {
    if (counts) {
        for (int y = 0; y < map->h; y++)
            for (int x = 0; x < map->w; x++) {
                if (!pt_map_walkable(map, x, y)) continue;
                int c = counts[(size_t)y * (size_t)map->w + (size_t)x];
                /* Blind spots: a faint blue; seen cells: by how much of the time. */
                pt_debug_cell(r, map, v, x, y, c ? heat_rgba((double)c / ticks) : 0x3070ff40u);
            }
    }
    if (walk && walk->n > 0) {
        for (int i = 1; i < walk->n; i++)
            pt_debug_line(r, map, v, walk->cells[i - 1].x + 0.5, walk->cells[i - 1].y + 0.5, walk->cells[i].x + 0.5,
                          walk->cells[i].y + 0.5, 0x40ff60ffu);
        pt_debug_circle(r, map, v, walk->cells[0].x + 0.5, walk->cells[0].y + 0.5, 0.4, 0x40ff60ffu);
        const pt_cell *end = &walk->cells[walk->n - 1];
        pt_debug_circle(r, map, v, end->x + 0.5, end->y + 0.5, 0.4, walk->goal_tick >= 0 ? 0xffd700ffu : 0xff3030ffu);
        if (walk->seen_tick >= 0) { /* where a guard first saw the player: a red cross */
            double x = walk->seen_at.x + 0.5, y = walk->seen_at.y + 0.5;
            pt_debug_line(r, map, v, x - 0.4, y - 0.4, x + 0.4, y + 0.4, 0xff2020ffu);
            pt_debug_line(r, map, v, x - 0.4, y + 0.4, x + 0.4, y - 0.4, 0xff2020ffu);
        }
    }
}
