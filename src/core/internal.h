/* SPDX-License-Identifier: Zlib */
/* internal.h - private helpers shared between core modules (not installed). */
#ifndef PATROL_INTERNAL_H
#define PATROL_INTERNAL_H

#include <patrol/map.h>

#include <stdint.h>
#include <string.h>

/* 64 bits of a bitmap kept as bytes (bit i of byte j is bit 8j + i), read at p (any
 * alignment): bit 0 of the result is bit 0 of p[0] on either byte order. The sight bitmaps
 * (los.c) and wall avoidance's tile bits (steer_walls.c) are read this way. */
static inline uint64_t pt__bits64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* ---- cell space (cellspace.c) ---- */
struct pt_cellspace;
/* The counting sort of pt_cellspace_rebuild_cells cut into shares by ranges of cells, for
 * cells known to be in range: pt__cellspace_sort_plan (one thread; PT_ERR_NOMEM when the
 * arrays cannot grow to n) picks the cells to rewrite, then pt__cellspace_sort_share for
 * each share of `shares` (any threads, at once: each writes only its cells' offsets and
 * slots), then pt__cellspace_sort_done. The result does not depend on the cut. */
typedef struct pt__cellspace_plan {
    int a, b;   /* the cells of start[] to rewrite */
    int c0, c1; /* the columns the agents are in (none: INT_MAX, -1) */
    int d0, d1; /* those and the last sort's */
} pt__cellspace_plan;
int pt__cellspace_sort_plan(struct pt_cellspace *cs, const int *cells, int n, pt__cellspace_plan *plan);
/* One share: start[] gets its cells' offsets, and the agents of its cells their slots, in
 * ascending agent order within a cell: perm[slot] = agent when perm is not NULL (the cell
 * space's ids and pos are left alone), else the cell space's ids and pos (positions[i] read
 * at byte offset i*stride). Returns the most agents in one of its cells. */
int pt__cellspace_sort_share(struct pt_cellspace *cs, const int *cells, int n, const pt__cellspace_plan *plan, int share,
                             int shares, int *perm, const pt_vec2 *positions, size_t stride);
void pt__cellspace_sort_done(struct pt_cellspace *cs, int n);

/* ---- crowd worker threads (bulk/pool.c) ---- */
struct pt_crowd;
typedef void (*pt__crowd_range_fn)(void *arg, int lo, int hi);
/* Runs fn(arg, lo, hi) over [0, n) cut into contiguous shares, on the crowd's threads (the
 * calling one too, fewer for small n as for the crowd's own phases); returns when every
 * share is done. fn must give the same result whatever the cut. */
void pt__crowd_run(struct pt_crowd *c, int n, pt__crowd_range_fn fn, void *arg);
/* pt__crowd_run with at least min_share items per share instead of the crowd's own
 * minimum: for work dearer per item than an agent's phase. */
void pt__crowd_run_min(struct pt_crowd *c, int n, int min_share, pt__crowd_range_fn fn, void *arg);
/* pt_crowd_step (pt_crowd_step_brute when brute), keeping the crowd's helpers awake for a
 * pt__crowd_run right after, instead of letting them sleep at the end of the step. */
void pt__crowd_step_then(struct pt_crowd *c, double dt, int brute);
/* fn(arg, lo, hi) on each run of agents [lo, hi) right after the in-place step (neither the
 * packed one nor pt_crowd_step_brute) moved them, on the thread that moved them, while
 * they are still in cache; fn must read and write only what belongs to those agents. NULL
 * fn: none. */
void pt__crowd_set_after_step(struct pt_crowd *c, pt__crowd_range_fn fn, void *arg);

/* Fills map->legend with the default tile kinds; returns how many. */
int pt__map_default_legend(pt_map *map);

/* Reads a tile's sound value (map.c): a loss in tiles, 0..100 with at most one decimal, to
 * tenths, or `block` (PT_SOUND_BLOCK). Errors at the token, with a suggestion for a word. */
struct pt__tok;
struct pt_error;
int pt__tok_sound(const struct pt__tok *t, int line, int16_t *out, struct pt_error *err);

/* ---- the alert phases' timing keys (map.c): one table for .map directives and .tmx map
 * properties ---- */
enum { PT__PHASE_NKEYS = 4 }; /* evasion, caution, caution_aware, caution_fov */
/* Index of the key `name` (len bytes), or -1. */
int pt__phase_key_find(const char *name, size_t len);
/* What the key takes, for messages: "a number of seconds", "a factor". */
const char *pt__phase_key_arg(int key);
/* Reads key's value from v into its field of t, with its range (a located error at v). */
int pt__phase_key_read(int key, const struct pt__tok *v, int line, pt_phase_timing *t, struct pt_error *err);

/* ---- sight bitmaps (los.c): a cache of the opaque flags that pt_los_clear reads ---- */
/* (Re)builds map->sight from map->flags; PT_ERR_NOMEM leaves it NULL (rays walk the flags). */
int pt__sight_build(pt_map *map);
/* Copies the flags' opaque bit of cell (x, y) (inside the map) into map->sight, if any. */
void pt__sight_cell(pt_map *map, int x, int y);
void pt__sight_free(pt_map *map);

/* ---- entity declaration keys (entity_keys.c): one table for .map lines and .tmx objects ---- */
enum { PT__KT_AT, PT__KT_ORIGIN, PT__KT_NUM, PT__KT_POS, PT__KT_INT, PT__KT_NAME, PT__KT_CHASE, PT__KT_FLOCK, PT__KT_ROUTE };
enum { PT__EK_MAP = 1, PT__EK_TMX = 2 }; /* which formats have the key */
typedef struct pt__entity_key {
    const char *name;
    int type;          /* PT__KT_* */
    unsigned kinds;    /* 1 << pt_kind for each kind that has it */
    unsigned formats;  /* PT__EK_* */
    size_t off;        /* field in pt_entity_def (NUM, POS, INT, NAME) */
    size_t cap;        /* NAME: buffer size */
    double lo, hi;     /* NUM: [lo, hi]; POS: (0, hi]; INT: [lo, hi] */
} pt__entity_key;
extern const pt__entity_key pt__entity_keys[];
extern const int pt__entity_nkeys;
extern const char *const pt__chase_words[];  /* indexed by pt_chase */
extern const char *const pt__flock_words[];  /* indexed by pt_flock_kind */
/* Index of the key `name` (len bytes) for kind in format, or -1. */
int pt__entity_key_find(const char *name, size_t len, pt_kind kind, unsigned format);
/* "at, speed, ..." : the keys of kind in format, for error messages. */
void pt__entity_key_list(pt_kind kind, unsigned format, char *buf, size_t cap);

/* The located error for an entity whose pattern= names no pattern of lib (pattern.c): at the
 * value, with a suggestion. Returns PT_ERR_UNKNOWN_PATTERN. */
struct pt_patlib;
struct pt_error;
int pt__unknown_pattern(const struct pt_patlib *lib, const pt_map *map, const pt_entity_def *d, struct pt_error *err);

/* A file named on a line of another file (a map's `patterns FILE`) could not be read: an
 * error without a place (err->line 0) moves to that line and column of `file`, saying which
 * named file it was (error.c). An error inside the named file keeps its own place. */
void pt__error_named_at(struct pt_error *err, const char *file, int line, int col, const char *what, const char *name);

/* ---- suggestions (suggest.c): "did you mean" for every unknown name ---- */
/* Keeps the candidate nearest to word (edit distance with transpositions, case ignored) if it
 * is near enough to be a typo of it: at most one edit per three letters of word. */
typedef struct pt__suggest {
    const char *word;
    int len;
    char best[64];
    int best_d;
} pt__suggest;
void pt__suggest_init(pt__suggest *s, const char *word, size_t len);
void pt__suggest_add(pt__suggest *s, const char *cand);
void pt__suggest_addn(pt__suggest *s, const char *cand, size_t len);
void pt__suggest_words(pt__suggest *s, const char *const *words); /* NULL-terminated */
void pt__suggest_list(pt__suggest *s, const char *list);          /* "a, b, c" */
/* The suggestion, or NULL when no candidate is near enough. */
const char *pt__suggest_text(const pt__suggest *s);
/* The end of an "unknown X" message: "; did you mean 'X'?" when there is a suggestion, else
 * otherwise (e.g. " (keys: a, b)"; NULL = nothing), written to buf. */
const char *pt__suggest_hint(const pt__suggest *s, const char *otherwise, char *buf, size_t cap);

#endif
