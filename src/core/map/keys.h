/* SPDX-License-Identifier: Zlib */
/* keys.h - what the .map and .tmx readers share (map.c, entity_keys.c): the default
 * legend, sound values, the alert phases' timing keys and the entity declaration keys
 * (not installed). */
#ifndef PATROL_MAP_KEYS_H
#define PATROL_MAP_KEYS_H

#include <patrol/map.h>
#include <stddef.h>
#include <stdint.h>

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
/* When `name` is a key of other kinds of entity only (`lantern` on a prey line): writes
 * " (only a guard has it)" or " (only a guard, prey or flock has it)" to buf and returns 1;
 * 0 (buf "") when no kind has it, so the caller suggests the nearest key instead. */
int pt__entity_key_elsewhere(const char *name, size_t len, unsigned format, char *buf, size_t cap);

#endif
