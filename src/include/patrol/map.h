/* SPDX-License-Identifier: Zlib */
/* patrol/map.h - tile maps: the grid, the legend of tile kinds, the player start,
 * entity declarations and circular obstacles, loaded from the text format of
 * docs/formats.md.
 *
 *     pt_map map;
 *     pt_error err;
 *     if (pt_map_load(&map, "maps/demo.map", &err) < 0) { pt_error_print(stderr, &err); ... }
 *     if (pt_map_walkable(&map, x, y)) ...
 *     pt_map_fini(&map);
 *
 * Coordinates: x = column, y = row, 0-based, origin top-left. Cells outside the map are
 * neither walkable nor transparent. Memory: the map owns its arrays (one byte of tile index
 * and one byte of flags per cell, and two bits per cell of sight bitmaps); pt_map_fini frees
 * them. A failed load leaves *out zeroed (nothing to free) and never touches anything else.
 *
 * Change cells with pt_map_set: it keeps the sight bitmaps (a copy of the opaque flags that
 * pt_los_clear reads) in step. Code that writes `flags` directly must call
 * pt_map_refresh_sight afterwards, or line of sight will still see the old cells.
 */
#ifndef PATROL_MAP_H
#define PATROL_MAP_H

#include <stdint.h>
#include <stddef.h>

#include "api.h"
#include "config.h"
#include "error.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* Per-cell flags (pt_map.flags). */
enum {
    PT_TILE_WALKABLE = 1 << 0, /* entities may stand on it */
    PT_TILE_OPAQUE   = 1 << 1, /* blocks line of sight (a walkable opaque tile hides: a bush) */
    PT_TILE_GOAL     = 1 << 2, /* reaching it wins the round (the exit) */
};

/* pt_tile_def.sound of a tile that stops sound (a wall). */
#define PT_SOUND_BLOCK (-1)
/* The largest sound damping, in tenths of a tile (sound=100). */
#define PT_SOUND_MAX 1000
/* The largest footstep factor of a tile (footstep=10). */
#define PT_FOOTSTEP_MAX 10.0
/* The longest evasion or caution countdown, in seconds (an hour), and the largest caution
 * factor (pt_phase_timing). */
#define PT_PHASE_SECONDS_MAX 3600.0
#define PT_PHASE_FACTOR_MAX 10.0

typedef struct pt_tile_def {
    char ch;                   /* the character drawn in the grid */
    char name[PT_MAX_NAME];    /* floor, wall, water, bridge, door, grass, bush, exit, dirt, tree,
                                  ... */
    uint8_t flags;             /* PT_TILE_* */
    int16_t sound;             /* extra loss of a noise entering it, tenths of a tile (0..1000), or
                                  PT_SOUND_BLOCK: sound does not pass (docs/formats.md, the legend). The
                                  loaders always set it (pt_tile_sound_default without sound=) */
    double footstep;           /* loudness factor of a footstep on it, 0..10: the player's gait
                                  loudness times this (docs/ai.md, "Noises"). The loaders always
                                  set it (pt_tile_footstep_default without footstep=) */
    double noise;              /* loudness of the noise it makes when the player steps on it (a
                                  squeaky floorboard), 0..256; 0 = none, the default */
    int sprite;                /* sprite index in assets/tiles.png; -1 = by name */
    int line;                  /* where it was declared */
} pt_tile_def;

typedef enum pt_kind {
    PT_KIND_PLAYER = 0,
    PT_KIND_GUARD,
    PT_KIND_PREY,              /* flees the player (chickens) */
    PT_KIND_BOID,              /* member of a flock (hounds, crows) */
    PT_KIND_COUNT
} pt_kind;

/* What a flock looks like (which sprite its members use). */
typedef enum pt_flock_kind {
    PT_FLOCK_HOUND = 0,
    PT_FLOCK_CROW,
    PT_FLOCK_KIND_COUNT
} pt_flock_kind;

typedef enum pt_chase {
    PT_CHASE_TILE = 0,         /* line-of-sight chase on tiles (Bresenham, A* when blocked) */
    PT_CHASE_STEER,            /* continuous pursuit + arrive */
    PT_CHASE_INTERCEPT,        /* aims at the predicted meeting point */
    PT_CHASE_COUNT
} pt_chase;

/* An entity as declared in the map. Zero in a numeric field means "default" (see
 * pt_entity_def_resolve); the loader leaves unspecified fields at zero. */
typedef struct pt_entity_def {
    char name[PT_MAX_NAME];
    pt_kind kind;
    int x, y;                  /* start tile */
    char pattern[PT_MAX_PATH]; /* pattern reference: "NAME" or "file.pat:NAME"; "" = none */
    int has_origin;            /* pattern origin given explicitly (origin=X,Y) */
    int origin_x, origin_y;    /* where the pattern's first cell is placed; default: x,y */
    double heading_deg;        /* initial heading, degrees clockwise from east (0 = east) */
    double view_dist;          /* tiles; default 8 */
    double view_angle_deg;     /* full cone angle; default 90 */
    double speed;              /* tiles per second; default 3 (player 5, prey 3.5) */
    pt_chase chase;            /* default tile */
    double aware_rate;         /* awareness gained per second at distance 0; default 2.0 */
    double aware_decay;        /* awareness lost per second when unseen; default 0.35 */
    double suspicious_at;      /* awareness threshold for suspicious; default 0.3 */
    double chase_at;           /* awareness threshold for chase; default 1.0 */
    double hearing;            /* hears a noise whose level at its cell is above this; default 1.0 */
    double shout;              /* loudness of its call when it starts a chase, tiles; default 12 */
    char radio[PT_MAX_NAME];   /* radio channel: guards on the same one hear its calls; "" = none */
    double memory;             /* memory span, seconds: a sure memory is forgotten after it; default 10 */
    int count;                 /* flocks: members; default 1 */
    char group[PT_MAX_NAME];   /* flocks: group name (neighbours are within a group) */
    pt_flock_kind flock_kind;  /* flocks: hound or crow (sprite); default hound */
    char steering[PT_MAX_NAME];/* name of a steering parameter set; "" = defaults */
    int line, col;             /* where it was declared: its line, and the column of its position */
    int pattern_line, pattern_col;   /* where its pattern= value is (0 = not given) */
    int steering_line, steering_col; /* where its steering= value is (0 = not given) */
    double lantern;            /* guards: `lantern=R`, the radius in tiles of the lantern it carries
                                  (docs/ai.md, "Light"); 0 = none, the default */
} pt_entity_def;

/* Props sheet indices of obstacles. */
enum { PT_OBSTACLE_PILLAR = 1, PT_OBSTACLE_TREE = 2 };

typedef struct pt_obstacle {
    double x, y, r;            /* centre and radius in tile units */
    int sprite;                /* props sheet index (PT_OBSTACLE_PILLAR, PT_OBSTACLE_TREE) */
    int line;
    int col;                   /* column of its at= value */
} pt_obstacle;

/* A timed noise source (a bell): a noise of `loudness` at its cell every `every` seconds,
 * the first after `first` seconds (docs/formats.md, "Noise sources"). */
typedef struct pt_noise_source {
    int x, y;                  /* its cell */
    double loudness;           /* tiles, > 0 and <= 256 */
    double every;              /* seconds between two noises, > 0 */
    double first;              /* seconds before the first; the loader sets `every` when not given */
    int line, col;             /* where it was declared: its line, the column of its at= value */
} pt_noise_source;

/* The timing of the world's alert phases (docs/ai.md, "Alert phases"), from the map's header
 * (docs/formats.md) or Tiled map properties (docs/tiled.md). Zero in a field means "default"
 * (see pt_phase_timing_resolve); the loaders leave unspecified fields at zero. */
typedef struct pt_phase_timing {
    double evasion;            /* seconds of evasion once no guard chases, > 0 and <= 3600; default 15 */
    double caution;            /* seconds of caution after evasion, > 0 and <= 3600; default 30 */
    double caution_aware;      /* in caution awareness fills this many times faster, 1..10 (1 = as
                                  usual); default 1.5 */
    double caution_fov;        /* in caution view cones are this many times wider (at most 360
                                  degrees), 1..10 (1 = as usual); default 1.5 */
} pt_phase_timing;

/* A door's state (docs/ai.md, "Doors"). An open door is a tile kind named `door`, a closed
 * one `door_closed`, a locked one `door_locked`: both of the last block walking and sight. */
typedef enum pt_door_state {
    PT_DOOR_OPEN = 0,
    PT_DOOR_CLOSED,
    PT_DOOR_LOCKED,
    PT_DOOR_STATE_COUNT
} pt_door_state;

/* A `light NAME at=X,Y radius=R [level=L] [on|off]` line of a map (or a Tiled light
 * object): a light source (docs/ai.md, "Light"; docs/formats.md, "Lights"). */
typedef struct pt_light_def {
    char name[PT_MAX_NAME];
    int x, y;                  /* its cell */
    double radius;             /* tiles it reaches */
    double level;              /* its level at its own cell; default 1 */
    int on;                    /* lit at the start (1, the default) or out (0) */
    int line, col;             /* where it was declared: its line, the column of its at= value */
} pt_light_def;

/* A `door X,Y STATE [closes]` line of a map (or a Tiled door property): the door's state at
 * the start and whether guards close it behind them. */
typedef struct pt_door_def {
    int x, y;                  /* its cell: a door tile of the grid */
    pt_door_state state;
    int closes;                /* 1: a guard that opened it closes it once off the cell */
    int line, col;             /* where it was declared: its line, the column of X,Y */
} pt_door_def;

typedef struct pt_map {
    int w, h;                  /* size in tiles */
    int tile_px;               /* tile size in pixels (default 16) */
    uint8_t *tiles;            /* w*h legend indices, row-major: tiles[y*w + x] */
    uint8_t *flags;            /* w*h PT_TILE_* flags, same layout (denormalised for speed) */
    struct pt_map_sight *sight;/* private: the opaque flags as bitmaps for pt_los_clear (NULL =
                                  none, rays then walk the flags); see pt_map_refresh_sight */
    pt_tile_def legend[PT_MAX_TILE_KINDS];
    int nlegend;
    pt_entity_def player;      /* kind PT_KIND_PLAYER */
    pt_entity_def *ents;       /* guards, prey and flocks in declaration order */
    int nents;
    pt_obstacle *obstacles;
    int nobstacles;
    pt_noise_source *sources;  /* timed noise sources in declaration order */
    int nsources;
    char pattern_files[PT_MAX_PATTERN_FILES][PT_MAX_PATH]; /* resolved relative to the map file */
    int pattern_file_lines[PT_MAX_PATTERN_FILES];
    int pattern_file_cols[PT_MAX_PATTERN_FILES];  /* column of the file name on its line */
    int npattern_files;
    char steering_file[PT_MAX_PATH];   /* optional steering parameters file ("" = none) */
    int steering_line, steering_col;   /* where the steering file is named (0 = not in a file) */
    char name[64];             /* title shown by the game */
    char path[PT_MAX_PATH];    /* the file it was loaded from */
    uint64_t seed;             /* default world seed (0 = use 1) */
    pt_phase_timing phases;    /* the alert phases' timing (0 = default) */
    int goal;                  /* 1 when the map has at least one goal tile */
    pt_door_def *doors;        /* `door` lines in declaration order (NULL when none) */
    int ndoors;
    int door_look;             /* `door_look on|off`: 1 on, -1 off, 0 not given (on) */
    double ambient;            /* `ambient L`: the light every tile has, 0..1 (when ambient_set) */
    int ambient_set;           /* 1 when the map gave its ambient level; not given, it is 1 */
    int ambient_line;          /* where it was given in a .map (0 = not in a .map file) */
    pt_light_def *lights;      /* `light` lines in declaration order (NULL when none) */
    int nlights;
    int relight;               /* `relight on|off`: guards relight lights of their round they
                                  find out; 1 on, -1 off, 0 not given (on) */
} pt_map;

/* Loads a map file. Returns PT_OK or a negative code with err filled (file, line, col,
 * message, source line); on error *out is zeroed. Relative pattern and steering file paths
 * are resolved against the map's folder. Entity fields the file leaves out stay 0 (call
 * pt_entity_def_resolve for the effective values; the world does). err may be NULL. */
int pt_map_load(pt_map *out, const char *path, pt_error *err);
/* Same from memory; name (may be NULL) is used in errors, as map->path and to resolve
 * relative paths. */
int pt_map_parse(pt_map *out, const char *text, size_t len, const char *name, pt_error *err);
void pt_map_fini(pt_map *map);

/* A deep copy (for hot reload: build the new world aside, swap on success). Returns PT_OK,
 * or PT_ERR_NOMEM with *dst zeroed. */
int pt_map_clone(pt_map *dst, const pt_map *src);

/* Applies the documented defaults to every zero field of def (one place for defaults). */
void pt_entity_def_resolve(pt_entity_def *def);
/* The same for the alert phases' timing: a field that is not above 0 (or NaN) gets its
 * default; one above its range is brought down to the largest value (a factor below 1 up to 1). */
void pt_phase_timing_resolve(pt_phase_timing *t);

/* Creates an empty map of w*h cells with the default legend (see docs/formats.md), every
 * cell floor ('.'). For tests and generated maps. Player at (0,0). */
int pt_map_init_blank(pt_map *map, int w, int h, pt_error *err);
/* Sets a cell to the legend entry whose character is ch; returns 0 when ch is unknown. */
int pt_map_set(pt_map *map, int x, int y, char ch);
/* Rebuilds the sight bitmaps from flags, for code that wrote flags directly. The loaders,
 * pt_map_init_blank, pt_map_set and pt_map_clone keep them up to date themselves. Returns
 * PT_OK, or PT_ERR_NOMEM with no bitmaps (line of sight stays right, only slower). */
int pt_map_refresh_sight(pt_map *map);
/* Legend index of character ch, or -1. */
int pt_map_legend_find(const pt_map *map, char ch);

/* The sound damping a tile kind gets when its declaration gives none: the default legend's
 * value for a default kind's name (wall block, door 2, bush 1, tree 1, the others 0: as the
 * sprite goes by name), else PT_SOUND_BLOCK for a tile that is neither walkable nor
 * transparent, else 0. */
int pt_tile_sound_default(const char *name, uint8_t flags);
/* The footstep factor a tile kind gets when its declaration gives none, by name: grass 0.5,
 * bridge and gravel 1.5, any other name 1. */
double pt_tile_footstep_default(const char *name);

static inline int pt_map_in(const pt_map *m, int x, int y) {
    return x >= 0 && y >= 0 && x < m->w && y < m->h;
}
/* (internal) Walkability and the movement rule on a map's raw fields (flags, w, h): what
 * pt_map_walkable and pt_map_step_ok compute, for loops that keep the fields in registers. */
static inline int pt__flags_walkable(const uint8_t *flags, unsigned w, unsigned h, int x, int y) {
    return (unsigned)x < w && (unsigned)y < h && (flags[(size_t)y * w + (unsigned)x] & PT_TILE_WALKABLE);
}
static inline int pt__flags_step_ok(const uint8_t *flags, unsigned w, unsigned h, int x, int y, int nx, int ny) {
    return pt__flags_walkable(flags, w, h, nx, ny) &&
           (x == nx || y == ny || (pt__flags_walkable(flags, w, h, nx, y) && pt__flags_walkable(flags, w, h, x, ny)));
}
static inline int pt_map_walkable(const pt_map *m, int x, int y) {
    return pt__flags_walkable(m->flags, (unsigned)m->w, (unsigned)m->h, x, y);
}
static inline int pt_map_opaque(const pt_map *m, int x, int y) {
    return !pt_map_in(m, x, y) || (m->flags[(size_t)y * (size_t)m->w + (size_t)x] & PT_TILE_OPAQUE);
}
/* The movement rule for every tile mover (pattern walkers, A*, tile chase, the player): a
 * step from cell (x,y) to a neighbour (nx,ny) is allowed when (nx,ny) is walkable and, for a
 * diagonal step, both cells it passes beside, (nx,y) and (x,ny), are walkable too: no corner
 * cutting. (Sight has its own, weaker rule: see patrol/los.h.) */
static inline int pt_map_step_ok(const pt_map *m, int x, int y, int nx, int ny) {
    return pt__flags_step_ok(m->flags, (unsigned)m->w, (unsigned)m->h, x, y, nx, ny);
}
static inline const pt_tile_def *pt_map_tile(const pt_map *m, int x, int y) {
    return pt_map_in(m, x, y) ? &m->legend[m->tiles[(size_t)y * (size_t)m->w + (size_t)x]] : NULL;
}

const char *pt_kind_name(pt_kind kind);     /* "player", "guard", "prey", "boid" */
const char *pt_chase_name(pt_chase chase);  /* "tile", "steer", "intercept" */

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
