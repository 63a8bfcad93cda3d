/* SPDX-License-Identifier: Zlib */
/* rec.h - a recorded run of `patrol play` (--record F.rec): the level it was played on, the
 * seed, and the player's input on every tick, run-length encoded. docs/formats.md,
 * "Recordings", describes the file.
 *
 *     app_rec r;
 *     app_rec_init(&r);
 *     app_rec_start(&r, &map, seed, &err);            // the level's identity (hashes)
 *     app_rec_add(&r, dx, dy, gait);                   // once per world tick
 *     app_rec_add_throw(&r, x, y, 10);                 // a stone, before the next tick
 *     app_rec_save(&r, "bug.rec", &err);
 *     app_rec_fini(&r);
 *
 *     app_rec_load(&r, "bug.rec", &err);               // located errors; r empty on failure
 *     app_rec_check_level(&r, &map, &err);             // another map / other patterns?
 *     pt_world *w = app_rec_world(&r, &map, &lib, &err);
 *     app_rec_cursor c = {0};
 *     while (app_rec_next(&r, &c, w)) pt_world_step(w);
 */
#ifndef PATROL_APP_REC_H
#define PATROL_APP_REC_H

#include <stdint.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/world.h>

#define APP_REC_VERSION 1
#define APP_REC_MAX_TICKS 1000000000ull /* a longer recording is refused */

typedef struct app_rec_run {
    uint64_t n;               /* ticks with this input, >= 1 */
    signed char dx, dy;       /* -1, 0, 1 */
    unsigned char gait;       /* pt_gait */
} app_rec_run;

/* A stone thrown (play_throw): a noise made at cell (x, y) before the step of tick `tick`;
 * or, loudness 0, a light the player doused then (play_douse, pt_world_douse; x, y = the
 * light's cell, as recorded). */
typedef struct app_rec_throw {
    uint64_t tick;            /* the recorded tick whose step hears it (0-based) */
    int x, y;
    int loudness;             /* tiles, 1..256; 0 = a douse */
} app_rec_throw;

typedef struct app_rec {
    char map[PT_MAX_PATH];    /* the map file as the game was given it */
    uint64_t map_hash;        /* the map file's bytes (FNV-1a 64) */
    uint64_t files_hash;      /* its pattern files' and steering file's bytes, in order */
    uint64_t seed;            /* the world's seed (never 0) */
    uint64_t ticks;           /* the sum of the runs */
    app_rec_run *runs;
    int nruns, cap;
    app_rec_throw *throws;    /* in tick order */
    int nthrows, throws_cap;
    int map_line;             /* load: the line of `map` (for mismatch errors) */
    char path[PT_MAX_PATH];   /* load: the recording's file */
} app_rec;

void app_rec_init(app_rec *r);
void app_rec_fini(app_rec *r);
/* Forgets the inputs and takes the level's identity from a loaded map (its files are read
 * again to hash them). PT_OK or an error located at the unreadable file. */
int app_rec_start(app_rec *r, const pt_map *map, uint64_t seed, pt_error *err);
/* One tick's input. PT_OK or PT_ERR_NOMEM (the recording is then unchanged). */
int app_rec_add(app_rec *r, int dx, int dy, pt_gait gait);
/* A stone thrown now: heard in the step of the next tick added. PT_OK or PT_ERR_NOMEM. */
int app_rec_add_throw(app_rec *r, int x, int y, int loudness);
/* A light at cell (x, y) doused now (pt_world_douse), before the next tick added: a
 * `douse TICK X Y` line, among the throws in tick order. PT_OK or PT_ERR_NOMEM. */
int app_rec_add_douse(app_rec *r, int x, int y);
/* Writes the file (version, level, seed, runs, checksum). PT_OK or PT_ERR_IO with err. */
int app_rec_save(const app_rec *r, const char *path, pt_error *err);
/* Reads a file written by app_rec_save. On failure r is empty and err is located
 * (file:line:col): a bad version, a damaged line, a checksum that does not match. */
int app_rec_load(app_rec *r, const char *path, pt_error *err);
/* Whether map (and the files it names) is the level r was recorded on; else an error at
 * the recording's `map` line saying which file differs. */
int app_rec_check_level(const app_rec *r, const pt_map *map, pt_error *err);
/* The world the recording was played in (as `patrol play` makes it, with r's seed). */
pt_world *app_rec_world(const app_rec *r, const pt_map *map, const pt_patlib *lib, pt_error *err);
/* Where a replay is: zero it to start at tick 0. */
typedef struct app_rec_cursor { int run; uint64_t used; uint64_t tick; int thrown; } app_rec_cursor;
/* Makes on w the noises of the stones thrown before the next tick (pt_world_noise) and the
 * douses recorded there (pt_world_douse), in their order; returns how many of both (call it
 * before app_rec_take; app_rec_next does). */
int app_rec_throws(const app_rec *r, app_rec_cursor *c, pt_world *w);
/* Sets the next tick's input (gait and direction) on w and moves c on; 0 when the recording
 * has no more ticks (w untouched). */
int app_rec_next(const app_rec *r, app_rec_cursor *c, pt_world *w);
/* The same without a world: the next tick's input in *dx, *dy, *gait. */
int app_rec_take(const app_rec *r, app_rec_cursor *c, int *dx, int *dy, pt_gait *gait);

#endif
