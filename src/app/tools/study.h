/* SPDX-License-Identifier: Zlib */
/* study.h - `patrol render --heatmap`, `--heatmap-csv` and `--route`: the share of time each
 * cell is seen by a guard (pt_sightmap, patrol/solve.h), and a player pattern walked in the
 * world and drawn over the map.
 *
 *     int *counts;                                   // per cell y * w + x: ticks seen
 *     if (study_heatmap(&map, &lib, 3600, &counts, &err) == PT_OK) ... free(counts);
 *     study_walk walk;                               // the player's cells, goal and seen ticks
 *     if (study_route(&map, &lib, pattern, &walk, &err) == PT_OK) ... study_walk_fini(&walk);
 *     study_draw(r, &map, &view, counts, 3600, &walk); // over a frame drawn with the same view
 *
 * study_hearmap is the same for hearing: the share of time a guard would hear a footstep there.
 * Cost: the heatmap is one run of the world for `ticks` ticks and a bit per cell per tick
 * (patrol/solve.h); the route one run until the goal, at most STUDY_ROUTE_MAX_TICKS. */
#ifndef PATROL_APP_STUDY_H
#define PATROL_APP_STUDY_H

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/solve.h>

#define STUDY_ROUTE_MAX_TICKS 360000 /* 100 minutes at 60 Hz */
#define STUDY_HEATMAP_TICKS PT_SIGHTMAP_DEFAULT_TICKS /* the heatmap's default window */

struct pt_render;
struct pt_view;

typedef struct study_walk {
    pt_cell *cells;   /* the cells the player stood on, in order, each once per visit */
    int n;
    int goal_tick;    /* the tick it reached the goal; -1 never */
    int seen_tick;    /* the first tick a guard had it in view; -1 never */
    pt_cell seen_at;
} study_walk;

/* Per cell, on how many of ticks 1..ticks a guard sees it (seed: the map's). counts is
 * malloc'd (free it). PT_OK or err set. */
int study_heatmap(const pt_map *map, const pt_patlib *lib, int ticks, int **counts, pt_error *err);
/* Per cell, on how many of ticks 1..ticks a guard would hear the player's footstep made
 * there at gait (pt_hearmap_build, the same window as study_heatmap). */
int study_hearmap(const pt_map *map, const pt_patlib *lib, int ticks, pt_gait gait, int **counts, pt_error *err);
/* Writes "x,y,walkable,ticks_<what>,share" rows to path ('-' = stdout), what "seen" or
 * "heard"; 1, or 0 after printing an error. */
int study_heatmap_csv(const char *path, const pt_map *map, const int *counts, int ticks, const char *what);
/* Walks the player pattern in the map's world until the goal (or the pattern ends). */
int study_route(const pt_map *map, const pt_patlib *lib, const pt_pattern *pat, study_walk *out, pt_error *err);
void study_walk_fini(study_walk *w);
/* Draws the heatmap (counts may be NULL) and the walk (may be NULL) over a frame. */
void study_draw(struct pt_render *r, const pt_map *map, const struct pt_view *v, const int *counts, int ticks,
                const study_walk *walk);

#endif
