/* SPDX-License-Identifier: Zlib */
/* The steps the guards hear: the solver's loud table and the hearing heatmap. */
#include <patrol/hearing.h>
#include <patrol/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "senses/hear_check.h"
#include "levels/solve_priv.h"
#include "map/doors.h"

/* The footsteps the guards hear: each distinct (guard, cell) the guards listen from on some
 * tick is a place, and a place's set holds the cells whose footstep in the gait it hears. */
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

/* The world's noise of a step (the gait's loudness times the tile's footstep, or the tile's
 * own noise when louder), one hearing flood from the cell, heard where its level at the
 * guard's cell is above its threshold (pt__hearing_heard, as in pt__listen). Floods
 * from each cell rather than from each guard: the footstep made at a cell is the same on
 * every tick, so a cell is one flood whatever the ticks, and a flood from the cell is exactly
 * what the world does (a step's loss counts the entered tile's damping, so a flood from the guard would
 * give another level wherever the two ends damp differently). Each flood is read at every
 * place. With `only`, the cells c with only[c] alone, and with loudness > 0 a noise of that
 * loudness instead of the footstep. Returns 0 when out of memory. */
static int heard_build(heard *hd, const listeners *ls, const pt_map *map, pt_gait g, const uint8_t *only,
                       double loudness) {
    size_t C = (size_t)map->w * (size_t)map->h;
    memset(hd, 0, sizeof *hd);
    hd->n = ls->n;
    hd->ticks = ls->ticks;
    hd->stride = (C + 63) / 64;
    int32_t *pair = PT_MALLOC((size_t)ls->n * C * sizeof *pair + 1); /* (guard, cell) -> place, or -1 */
    int32_t *pc = PT_MALLOC(((size_t)ls->n * (size_t)ls->ticks + 1) * sizeof *pc); /* place -> j * C + cell */
    hd->place = PT_MALLOC(((size_t)ls->n * (size_t)ls->ticks + 1) * sizeof *hd->place);
    pt_hearing *hr = NULL;
    int ok = 0;
    if (!pair || !pc || !hd->place) goto out;
    for (size_t i = 0; i < (size_t)ls->n * C; i++) pair[i] = -1;
    for (size_t i = 0; i < (size_t)ls->n * (size_t)ls->ticks; i++) {
        int32_t c = ls->cell[i];
        size_t j = i % (size_t)ls->n;
        if (c >= 0 && pair[j * C + (size_t)c] < 0) {
            pc[hd->np] = (int32_t)j * (int32_t)C + c; /* guard j at cell c */
            pair[j * C + (size_t)c] = hd->np++;
        }
        hd->place[i] = c < 0 ? -1 : pair[j * C + (size_t)c];
    }
    hd->sets = PT_CALLOC((size_t)hd->np * hd->stride + 1, sizeof *hd->sets);
    if (!hd->sets || !(hr = pt_hearing_create(map))) goto out;
    for (int y = 0; y < map->h && hd->np > 0; y++)
        for (int x = 0; x < map->w; x++) {
            size_t b = (size_t)y * (size_t)map->w + (size_t)x;
            if (!pt_map_walkable(map, x, y) || (only && !only[b])) continue;
            double level = loudness > 0.0 ? loudness : pt_footstep_loudness(map, x, y, g);
            if (!(level > 0.0)) continue;
            int reached = pt_hearing_flood(hr, x, y, level);
            if (reached == PT_ERR_NOMEM) goto out;
            if (reached <= 0) continue;
            const int r = pt__hearing_reach(level);
            for (int k = 0; k < hd->np; k++) {
                int j = (int)(pc[k] / (int32_t)C), c = (int)(pc[k] % (int32_t)C), lx = c % map->w, ly = c / map->w;
                double heard;
                if (pt__hearing_heard(hr, x, y, r, lx, ly, ls->threshold[j], &heard)) hd->sets[(size_t)k * hd->stride + (b >> 6)] |= 1ull << (b & 63);
            }
        }
    ok = 1;
out:
    pt_hearing_destroy(hr);
    PT_FREE(pair);
    PT_FREE(pc);
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

/* Steps that are heard: ORs into bit (t, c) of `loud` (as large as the sight table) when the
 * player's footstep on entering cell c on tick t in gait g would be heard by a guard
 * listening then. */
int pt__solve_loud_build(pt_sightmap *loud, const listeners *ls, const pt_map *map, pt_gait g) {
    heard hd;
    if (!heard_build(&hd, ls, map, g, NULL, 0.0)) return 0;
    int ticks = ls->ticks < loud->ticks ? ls->ticks : loud->ticks;
    for (int t = 1; t <= ticks; t++) heard_or(&hd, t, loud->bits + (size_t)(t - 1) * loud->stride);
    heard_fini(&hd);
    return 1;
}

int pt__solve_door_loud_build(pt_sightmap *loud, const listeners *ls, const pt_map *open, const uint8_t *door,
                              pt_gait g, double loudness) {
    heard hd;
    if (!heard_build(&hd, ls, open, g, door, loudness)) return 0;
    int ticks = ls->ticks < loud->ticks ? ls->ticks : loud->ticks;
    for (int t = 1; t <= ticks; t++) heard_or(&hd, t, loud->bits + (size_t)(t - 1) * loud->stride);
    heard_fini(&hd);
    return 1;
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

/* Whether the route holds under `seed`: on its ticks 1..r->ticks no guard sees the player's
 * cell, no guard listening hears one of its steps, and it enters no cell where an animal
 * would be startled (the same tables the search avoids, for this seed alone). */
int pt__solve_route_holds(const pt_solve_result *r, const pt_map *map, const pt_patlib *lib, uint64_t seed,
                          int *holds, pt_error *err) {
    *holds = 0;
    size_t C = (size_t)map->w * (size_t)map->h, bytes = pt__solve_table_bytes(map->w, map->h, r->ticks);
    pt_sightmap sm[PT_GAIT_COUNT], shy = {map->w, map->h, r->ticks, (C + 63) / 64, PT_CALLOC(bytes ? bytes : 1, 1)};
    if (!shy.bits) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    listeners ls = {0};
    ls.shy = &shy;
    int rc = pt__solve_sight_build(sm, 1, &ls, map, lib, seed, r->ticks, err);
    if (rc != PT_OK) {
        pt_sightmap_fini(&shy);
        return rc;
    }
    pt__solve_gait_start(sm, pt__solve_gait_tick(r->speed));
    pt_hearing *hr = pt_hearing_create(map);
    int ok = pt_solve_route_unseen(r, pt__solve_gait_table(sm, r->gait)), nomem = !hr;
    if (nomem) ok = 0;
    for (int t = 1; ok && t <= r->ticks; t++) ok = !pt_sightmap_seen(&shy, t, r->cells[t].x, r->cells[t].y);
    for (int i = 0; ok && i < r->nactions; i++) {
        const pt_solve_action *a = &r->actions[i];
        if (a->kind != PT_SOLVE_STEP || a->tick < 1 || a->tick > r->ticks) continue;
        int x = r->cells[a->tick].x, y = r->cells[a->tick].y;
        double level = pt_footstep_loudness(map, x, y, (pt_gait)r->gait), heard;
        if (!(level > 0.0)) continue;
        int reached = pt_hearing_flood(hr, x, y, level);
        if (reached == PT_ERR_NOMEM) {
            nomem = 1;
            break;
        }
        if (reached <= 0) continue;
        const int reach = pt__hearing_reach(level);
        for (int j = 0; ok && j < ls.n; j++) {
            int32_t c = ls.cell[(size_t)(a->tick - 1) * (size_t)ls.n + (size_t)j];
            if (c >= 0 && pt__hearing_heard(hr, x, y, reach, c % map->w, c / map->w, ls.threshold[j], &heard)) ok = 0;
        }
    }
    if (nomem) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the guards' hearing");
    else *holds = ok;
    pt_hearing_destroy(hr);
    pt__solve_listeners_fini(&ls);
    for (int g = 0; g < PT_GAIT_COUNT; g++) pt_sightmap_fini(&sm[g]);
    pt_sightmap_fini(&shy);
    return rc;
}
