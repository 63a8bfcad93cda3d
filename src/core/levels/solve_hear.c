/* SPDX-License-Identifier: Zlib */
/* The steps the guards hear: the solver's hearing tables and the hearing heatmap, each step
 * judged with the doors as the guards have opened and closed them by its tick. */
#include <patrol/hearing.h>
#include <patrol/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guards/door_path.h"
#include "senses/hear_check.h"
#include "levels/solve_priv.h"
#include "map/doors.h"

/* The door configurations of a run: the doors the guards change (but those with keep[c]),
 * each distinct set of their states an epoch, and the epoch of every tick (the doors as
 * they are at the end of its step, when the world floods the step's noises). */
typedef struct epochs {
    int n;               /* epochs; 1 when no door changes */
    int nd;              /* the doors that change */
    int32_t *cell;       /* [nd]: their cells, rising */
    uint8_t *state;      /* [e * nd + i]: door i's state in epoch e */
    int32_t *of;         /* [ticks]: the epoch of tick t at of[t - 1]; NULL when n is 1 */
} epochs;

static void epochs_fini(epochs *ep) {
    PT_FREE(ep->cell);
    PT_FREE(ep->state);
    PT_FREE(ep->of);
    memset(ep, 0, sizeof *ep);
}

static int cmp_cell(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The index of cell among the changing doors, or -1. */
static int epochs_door(const epochs *ep, int32_t cell) {
    const int32_t *f = ep->nd ? bsearch(&cell, ep->cell, (size_t)ep->nd, sizeof cell, cmp_cell) : NULL;
    return f ? (int)(f - ep->cell) : -1;
}

static uint64_t states_hash(const uint8_t *st, const int *idx, int n) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++) h = (h ^ st[idx ? idx[i] : i]) * 1099511628211ull;
    return h;
}

/* The run's epochs; 0: no memory. */
static int epochs_build(epochs *ep, const listeners *ls, const pt_map *map, const uint8_t *keep) {
    memset(ep, 0, sizeof *ep);
    ep->n = 1;
    if (ls->nchg == 0) return 1;
    int32_t *cells = PT_MALLOC((size_t)ls->nchg * sizeof *cells);
    if (!cells) return 0;
    int nd = 0;
    for (int k = 0; k < ls->nchg; k++)
        if (!keep || !keep[ls->chg[k].cell]) cells[nd++] = ls->chg[k].cell;
    qsort(cells, (size_t)nd, sizeof *cells, cmp_cell);
    int u = 0;
    for (int i = 0; i < nd; i++)
        if (u == 0 || cells[i] != cells[u - 1]) cells[u++] = cells[i];
    ep->cell = cells;
    ep->nd = u;
    if (u == 0) return 1;
    size_t cap = 1;
    while (cap < 2 * ((size_t)ls->nchg + 1)) cap *= 2;
    int32_t *slot = PT_MALLOC(cap * sizeof *slot);
    ep->state = PT_MALLOC(((size_t)ls->nchg + 1) * (size_t)u);
    ep->of = PT_MALLOC(((size_t)ls->ticks + 1) * sizeof *ep->of);
    uint8_t *cur = PT_MALLOC((size_t)u);
    if (!slot || !ep->state || !ep->of || !cur) {
        PT_FREE(slot);
        PT_FREE(cur);
        epochs_fini(ep);
        return 0;
    }
    for (size_t i = 0; i < cap; i++) slot[i] = -1;
    for (int i = 0; i < u; i++) {
        int st = pt__door_kind_state(pt_map_tile(map, cells[i] % map->w, cells[i] / map->w));
        cur[i] = (uint8_t)(st < 0 ? PT_DOOR_OPEN : st);
    }
    ep->n = 0;
    int e = -1;
    for (int t = 1, k = 0; t <= ls->ticks; t++) {
        int changed = t == 1;
        for (; k < ls->nchg && ls->chg[k].tick <= t; k++) {
            int i = epochs_door(ep, ls->chg[k].cell);
            if (i >= 0 && cur[i] != (uint8_t)ls->chg[k].state) {
                cur[i] = (uint8_t)ls->chg[k].state;
                changed = 1;
            }
        }
        if (changed) { /* the epoch of these states: one seen before, or a new one */
            size_t h = (size_t)states_hash(cur, NULL, u) & (cap - 1);
            while (slot[h] >= 0 && memcmp(ep->state + (size_t)slot[h] * (size_t)u, cur, (size_t)u) != 0)
                h = (h + 1) & (cap - 1);
            if (slot[h] < 0) {
                memcpy(ep->state + (size_t)ep->n * (size_t)u, cur, (size_t)u);
                slot[h] = ep->n++;
            }
            e = slot[h];
        }
        ep->of[t - 1] = e;
    }
    PT_FREE(slot);
    PT_FREE(cur);
    return 1;
}

/* The footsteps the guards hear: each distinct (guard, cell, epoch) the guards listen from on
 * some tick is a place, and a place's set holds the cells whose footstep in the gait it
 * hears with the doors of its epoch. */
typedef struct heard {
    int n, ticks;        /* as the listeners */
    int np;              /* places */
    size_t stride;       /* 64-bit words per set */
    int32_t *place;      /* [(t - 1) * n + j]: guard j's place on tick t, or -1 (not listening) */
    uint64_t *sets;      /* [k * stride ...]: bit y * w + x when place k hears a step there */
} heard;

static void heard_fini(heard *hd) {
    PT_FREE(hd->place);
    PT_FREE(hd->sets);
    memset(hd, 0, sizeof *hd);
}

/* The flooding of heard_build: the map whose changing doors are set epoch by epoch, and the
 * places read after each flood. */
typedef struct flooder {
    const epochs *ep;
    pt_map mm;           /* with ep->nd: a copy of the map, its changing doors set as needed */
    int kind[3];         /* mm's legend index of each door state's kind (-1: none) */
    uint8_t *now;        /* [nd]: the state each changing door has in mm */
    const pt_map *map;   /* what the hearing floods: &mm, or the map itself */
    pt_hearing *hr;
    const int64_t *pc;   /* place -> j * C + cell */
    const int32_t *eat;  /* [n + 1]: the places of epoch e are eplace[eat[e] .. eat[e + 1]) */
    const int32_t *eplace;
    const double *threshold;
    heard *hd;
    size_t C;
} flooder;

/* Door i of mm set to state s. */
static void door_to(flooder *f, int i, int s) {
    if (f->now[i] == s || f->kind[s] < 0) return;
    int32_t c = f->ep->cell[i];
    pt_map_set(&f->mm, c % f->mm.w, c / f->mm.w, f->mm.legend[f->kind[s]].ch);
    f->now[i] = (uint8_t)s;
}

/* The last flood, from cell b (x, y) with the given level, read at the places of epoch e. */
static void read_places(flooder *f, int e, int x, int y, double level, size_t b) {
    const int r = pt__hearing_reach(level);
    const int w = f->map->w;
    for (int32_t q = f->eat[e]; q < f->eat[e + 1]; q++) {
        int32_t k = f->eplace[q];
        int j = (int)(f->pc[k] / (int64_t)f->C), c = (int)(f->pc[k] % (int64_t)f->C);
        double lv;
        if (pt__hearing_heard(f->hr, x, y, r, c % w, c / w, f->threshold[j], &lv))
            f->hd->sets[(size_t)k * f->hd->stride + (b >> 6)] |= 1ull << (b & 63);
    }
}

/* The world's noise of a step (the gait's loudness times the tile's footstep, or the tile's
 * own noise when louder), one hearing flood from the cell, heard where its level at the
 * guard's cell is above its threshold (pt__hearing_heard, as in pt__listen). Floods
 * from each cell rather than from each guard: the footstep made at a cell is the same on
 * every tick with the same doors, so a cell is one flood per door configuration within its
 * reach, and a flood from the cell is exactly what the world does (a step's loss counts the
 * entered tile's damping, so a flood from the guard would give another level wherever the
 * two ends damp differently). Each flood is read at the places of the epochs it stands for.
 * With `only`, the cells c with only[c] alone (their doors stay as `map` has them), and with
 * loudness > 0 a noise of that loudness instead of the footstep. Returns 0 when out of
 * memory. */
static int heard_build(heard *hd, const listeners *ls, const pt_map *map, pt_gait g, const uint8_t *only,
                       double loudness) {
    size_t C = (size_t)map->w * (size_t)map->h, maxp = (size_t)ls->n * (size_t)ls->ticks + 1;
    memset(hd, 0, sizeof *hd);
    hd->n = ls->n;
    hd->ticks = ls->ticks;
    hd->stride = (C + 63) / 64;
    epochs ep;
    if (!epochs_build(&ep, ls, map, only)) return 0;
    flooder f;
    memset(&f, 0, sizeof f);
    f.ep = &ep;
    f.hd = hd;
    f.C = C;
    f.threshold = ls->threshold;
    int32_t *pair = PT_MALLOC((size_t)ls->n * C * sizeof *pair + 1); /* (guard, cell) -> its latest place, or -1 */
    int32_t *pnext = PT_MALLOC(maxp * sizeof *pnext), *pep = PT_MALLOC(maxp * sizeof *pep);
    int64_t *pc = PT_MALLOC(maxp * sizeof *pc);
    int32_t *eat = PT_CALLOC((size_t)ep.n + 2, sizeof *eat), *eplace = PT_MALLOC(maxp * sizeof *eplace);
    int32_t *rep = PT_MALLOC(((size_t)ep.n + 1) * sizeof *rep), *gnext = PT_MALLOC(((size_t)ep.n + 1) * sizeof *gnext);
    int32_t *slot = NULL;
    int *near = NULL;
    size_t cap = 1;
    while (cap < 2 * (size_t)ep.n) cap *= 2;
    hd->place = PT_MALLOC(maxp * sizeof *hd->place);
    int ok = 0, cloned = 0;
    if (!pair || !pnext || !pep || !pc || !eat || !eplace || !rep || !gnext || !hd->place) goto out;
    for (size_t i = 0; i < (size_t)ls->n * C; i++) pair[i] = -1;
    for (size_t i = 0; i < (size_t)ls->n * (size_t)ls->ticks; i++) {
        int32_t c = ls->cell[i];
        size_t j = i % (size_t)ls->n;
        int32_t e = ep.of ? ep.of[i / (size_t)ls->n] : 0;
        hd->place[i] = -1;
        if (c < 0) continue;
        int32_t k = pair[j * C + (size_t)c];
        while (k >= 0 && pep[k] != e) k = pnext[k];
        if (k < 0) { /* guard j at cell c in epoch e */
            k = hd->np++;
            pc[k] = (int64_t)j * (int64_t)C + c;
            pep[k] = e;
            pnext[k] = pair[j * C + (size_t)c];
            pair[j * C + (size_t)c] = k;
        }
        hd->place[i] = k;
    }
    for (int k = 0; k < hd->np; k++) eat[pep[k] + 1]++; /* the places by epoch */
    for (int e = 0; e < ep.n; e++) eat[e + 1] += eat[e];
    for (int k = 0; k < hd->np; k++) eplace[eat[pep[k]]++] = k;
    for (int e = ep.n; e > 0; e--) eat[e] = eat[e - 1];
    eat[0] = 0;
    f.pc = pc;
    f.eat = eat;
    f.eplace = eplace;
    hd->sets = PT_CALLOC((size_t)hd->np * hd->stride + 1, sizeof *hd->sets);
    if (!hd->sets) goto out;
    f.map = map;
    if (ep.nd > 0) {
        if (pt_map_clone(&f.mm, map) != PT_OK) goto out;
        cloned = 1;
        for (int s = 0; s < 3; s++) f.kind[s] = pt__map_door_kind(&f.mm, s);
        f.now = PT_MALLOC((size_t)ep.nd);
        near = PT_MALLOC((size_t)ep.nd * sizeof *near);
        slot = PT_MALLOC(cap * sizeof *slot);
        if (!f.now || !near || !slot) goto out;
        for (int i = 0; i < ep.nd; i++) { /* the states the map's own door tiles have */
            int st = pt__door_kind_state(pt_map_tile(map, ep.cell[i] % map->w, ep.cell[i] / map->w));
            f.now[i] = (uint8_t)(st < 0 ? PT_DOOR_OPEN : st);
        }
        f.map = &f.mm;
    }
    if (!(f.hr = pt_hearing_create(f.map))) goto out;
    for (int y = 0; y < map->h && hd->np > 0; y++)
        for (int x = 0; x < map->w; x++) {
            size_t b = (size_t)y * (size_t)map->w + (size_t)x;
            if (!pt_map_walkable(map, x, y) || (only && !only[b])) continue;
            double level = loudness > 0.0 ? loudness : pt_footstep_loudness(map, x, y, g);
            int self = epochs_door(&ep, (int32_t)b), nn = 0;
            if (self < 0 && !(level > 0.0)) continue;
            if (self < 0 && ep.nd > 0) { /* the changing doors within the flood's reach */
                const int r = pt__hearing_reach(level);
                int32_t lo = (int32_t)((y - r < 0 ? 0 : y - r) * map->w);
                int i = 0, hi = ep.nd;
                while (i < hi) { /* the first door at or after row y - r */
                    int mid = (i + hi) / 2;
                    if (ep.cell[mid] < lo) i = mid + 1;
                    else hi = mid;
                }
                for (; i < ep.nd && ep.cell[i] / map->w <= y + r; i++)
                    if (abs(ep.cell[i] % map->w - x) <= r) near[nn++] = i;
            }
            if (self < 0 && nn == 0) { /* one flood for every epoch */
                int reached = pt_hearing_flood(f.hr, x, y, level);
                if (reached == PT_ERR_NOMEM) goto out;
                for (int e = 0; reached > 0 && e < ep.n; e++) read_places(&f, e, x, y, level, b);
                continue;
            }
            /* Epochs alike within reach share a flood: rep[e] is the first of e's kind. A
             * changing door's own cell: each epoch its own, all its doors set. */
            for (size_t i = 0; self < 0 && i < cap; i++) slot[i] = -1;
            for (int e = 0; e < ep.n; e++) {
                rep[e] = e;
                gnext[e] = -1;
                if (eat[e] == eat[e + 1] || self >= 0) continue;
                const uint8_t *st = ep.state + (size_t)e * (size_t)ep.nd;
                size_t h = (size_t)states_hash(st, near, nn) & (cap - 1);
                for (;; h = (h + 1) & (cap - 1)) {
                    if (slot[h] < 0) {
                        slot[h] = e;
                        break;
                    }
                    const uint8_t *o = ep.state + (size_t)slot[h] * (size_t)ep.nd;
                    int same = 1;
                    for (int q = 0; q < nn && same; q++) same = o[near[q]] == st[near[q]];
                    if (same) {
                        rep[e] = slot[h];
                        gnext[e] = gnext[slot[h]];
                        gnext[slot[h]] = e;
                        break;
                    }
                }
            }
            for (int e = 0; e < ep.n; e++) {
                if (rep[e] != e || eat[e] == eat[e + 1]) continue;
                const uint8_t *st = ep.state + (size_t)e * (size_t)ep.nd;
                double lv = level;
                if (self >= 0) {
                    for (int i = 0; i < ep.nd; i++) door_to(&f, i, st[i]);
                    lv = loudness > 0.0 ? loudness : pt_footstep_loudness(&f.mm, x, y, g);
                    if (!(lv > 0.0)) continue;
                } else {
                    for (int q = 0; q < nn; q++) door_to(&f, near[q], st[near[q]]);
                }
                int reached = pt_hearing_flood(f.hr, x, y, lv);
                if (reached == PT_ERR_NOMEM) goto out;
                for (int m = e; reached > 0 && m >= 0; m = gnext[m]) read_places(&f, m, x, y, lv, b);
            }
        }
    ok = 1;
out:
    pt_hearing_destroy(f.hr);
    if (cloned) pt_map_fini(&f.mm);
    PT_FREE(f.now);
    PT_FREE(near);
    PT_FREE(slot);
    PT_FREE(pair);
    PT_FREE(pnext);
    PT_FREE(pep);
    PT_FREE(pc);
    PT_FREE(eat);
    PT_FREE(eplace);
    PT_FREE(rep);
    PT_FREE(gnext);
    epochs_fini(&ep);
    if (!ok) heard_fini(hd);
    return ok;
}

/* ORs into row the cells whose footstep a guard listening on tick t (1..ticks) hears. */
static void heard_or(const heard *hd, int t, uint64_t *row) {
    const int32_t *place = hd->place + (size_t)(t - 1) * (size_t)hd->n;
    for (int j = 0; j < hd->n; j++) {
        if (place[j] < 0) continue;
        const uint64_t *set = hd->sets + (size_t)place[j] * hd->stride;
        for (size_t w = 0; w < hd->stride; w++) row[w] |= set[w];
    }
}

/* ORs the steps hd hears into loud, tick by tick. */
static void heard_into(const heard *hd, pt_sightmap *loud) {
    int ticks = hd->ticks < loud->ticks ? hd->ticks : loud->ticks;
    for (int t = 1; t <= ticks; t++) heard_or(hd, t, loud->bits + (size_t)(t - 1) * loud->stride);
}

/* heard_build, then its steps ORed into loud; 0: no memory. */
static int heard_table(pt_sightmap *loud, const listeners *ls, const pt_map *map, pt_gait g, const uint8_t *only,
                       double loudness) {
    heard hd;
    if (!heard_build(&hd, ls, map, g, only, loudness)) return 0;
    heard_into(&hd, loud);
    heard_fini(&hd);
    return 1;
}

int pt__solve_hear_tables(pt_sightmap *loud, unsigned mask, pt_sightmap *dloud, const listeners *ls,
                          const pt_map *map, const pt_map *open, const uint8_t *door) {
    for (int g = 0; g < PT_GAIT_COUNT; g++)
        if ((mask >> g & 1u) && (!heard_table(&loud[g], ls, map, (pt_gait)g, NULL, 0.0) ||
                                 (door && !heard_table(&loud[g], ls, open, (pt_gait)g, door, 0.0))))
            return 0;
    return !door || !dloud || heard_table(dloud, ls, open, PT_GAIT_WALK, door, PT__DOOR_NOISE);
}

static int hearmap_build(const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks, pt_gait gait, int *counts,
                         pt_error *err) {
    pt_error_clear(err);
    if (ticks < 1 || ticks > PT_SOLVE_MAX_TICKS)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "hearing table: %d ticks is not in 1..%d", ticks, PT_SOLVE_MAX_TICKS);
    if ((unsigned)gait >= PT_GAIT_COUNT)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "hearing table: gait %d is not a gait", (int)gait);
    memset(counts, 0, (size_t)map->w * (size_t)map->h * sizeof *counts);
    listeners ls = {0};
    ls.shy = NULL;
    int rc = pt__solve_sight_build(NULL, 0, &ls, map, lib, seed, ticks, err);
    if (rc != PT_OK) return rc;
    heard hd;
    uint64_t *row = NULL;
    if (heard_build(&hd, &ls, map, gait, NULL, 0.0)) {
        row = PT_MALLOC((hd.stride + 1) * sizeof *row);
        for (int t = 1; row && t <= ticks; t++) {
            memset(row, 0, hd.stride * sizeof *row);
            heard_or(&hd, t, row);
            pt__solve_count_row(row, hd.stride, counts);
        }
        heard_fini(&hd);
    }
    pt__solve_listeners_fini(&ls);
    if (!row) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the hearing table");
    PT_FREE(row);
    return PT_OK;
}

/* As the solver: a map with `door` lines as the world starts it. */
int pt_hearmap_build(const pt_map *map, const pt_patlib *lib, uint64_t seed, int ticks, pt_gait gait, int *counts,
                     pt_error *err) {
    if (map->ndoors == 0) return hearmap_build(map, lib, seed, ticks, gait, counts, err);
    pt_map start;
    if (pt__map_clone_started(&start, map) < 0) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory copying the map");
    int rc = hearmap_build(&start, lib, seed, ticks, gait, counts, err);
    pt_map_fini(&start);
    return rc;
}
