/* SPDX-License-Identifier: Zlib */
/* troop_priv.h - the layout of a pt_troop (troop.c) and its test hooks (check_troop.c). */
#ifndef PATROL_TROOP_PRIV_H
#define PATROL_TROOP_PRIV_H

#include <patrol/troop.h>

#include <stdint.h>

typedef struct pt__troop_pat pt__troop_pat;     /* a pattern's tables */
typedef struct pt__troop_band pt__troop_band;   /* one pattern and speed: d phase groups */
typedef struct pt__troop_group pt__troop_group; /* the records of one phase */
typedef struct pt__troop_loc { int32_t group, slot; } pt__troop_loc;

struct pt_troop {
    const pt_map *map;         /* NULL: no walkability checks */
    long long tick;            /* ticks stepped so far */
    long long actions;         /* clock firings so far (finished followers included) */
    int count, cap;            /* followers; ids are 0..count-1 in the order added */
    pt__troop_loc *loc;        /* id -> where its record is */
    double *heading0;          /* id -> heading before its first move */
    pt__troop_pat *pats; int npats, cap_pats;
    pt__troop_band *bands; int nbands, cap_bands;
    pt__troop_group *groups; int ngroups, cap_groups;
    double *htab;              /* heading of each move code (0-7: the 8 directions) */
    int32_t *hdelta;           /* the (dx, dy) of each move code */
    int nhtab;
};

/* Test hook: how many bookkeeping invariants fail (each id's loc names a slot that holds
 * that id; the groups hold count records; each group is in its band's range). 0 when sound. */
int pt__troop_check(const pt_troop *t);

#endif
