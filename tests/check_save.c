/* SPDX-License-Identifier: Zlib */
/* Save and load (patrol/save.h, docs/formats.md "Save files"): a world saved at tick T and
 * loaded continues exactly as the original, trace rows, events, noises and shouts byte for
 * byte, on the shipped levels and generated maps, many seeds and save ticks, mid-chase,
 * mid-search and mid-investigate, with flocks and prey, on 1 and 2 threads, after tiles
 * changed and with game noises waiting for the next step, with doors (a guard pausing at
 * one, doors the game locked, doors that close) and a hosted player with a position waiting;
 * a save of a loaded world is the save it came from. Bad saves (every truncation, every
 * single-byte corruption, wrong magic, another version, another map or library, a door value
 * out of range) fail with their error and no crash. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkstemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <patrol/door.h>
#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/player.h>
#include <patrol/save.h>
#include <patrol/search.h>
#include <patrol/spawn.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include "state/world_state.h"
#include "test_util.h"

static void load_level(const char *path, pt_map *m, pt_patlib *lib) {
    pt_error err;
    pt_patlib_init(lib);
    int rc = pt_tmx_is_tmx(path) ? pt_tmx_load(m, lib, path, &err) : pt_map_load(m, path, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d: %s", err.file, err.line, err.message);
    for (int i = 0; i < m->npattern_files; i++)
        ck_assert_msg(pt_patlib_load(lib, m->pattern_files[i], &err) == PT_OK, "%s:%d: %s", err.file, err.line,
                      err.message);
}

/* What one step shows: the trace rows, the events, the noises and the shouts. */
static char *step_text(pt_world *w) {
    pt_world_step(w);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    pt_world_trace_rows(w, f);
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        fprintf(f, "event %llu %d %u %u %d %d\n", (unsigned long long)ev[i].tick, ev[i].kind, ev[i].a, ev[i].b, ev[i].x,
                ev[i].y);
    const pt_noise *no = pt_world_noises(w, &n);
    for (int i = 0; i < n; i++)
        fprintf(f, "noise %llu %d %d %a %d\n", (unsigned long long)no[i].tick, no[i].x, no[i].y, no[i].loudness, no[i].kind);
    no = pt_world_shouts(w, &n);
    for (int i = 0; i < n; i++) fprintf(f, "shout %d %d %a\n", no[i].x, no[i].y, no[i].loudness);
    fprintf(f, "phase %d round %d caught %d\n", pt_world_phase(w, NULL), pt_world_round(w), pt_world_caught_total(w));
    /* what each guard remembers: the brain's memories, read back */
    for (int i = 1; i < pt_world_count(w); i++) {
        pt_memory mem[PT_MEMORY_COUNT];
        int k = pt_world_guard_memory(w, i, mem, PT_MEMORY_COUNT);
        for (int j = 0; j < k; j++)
            fprintf(f, "memory %d %d %d %d %llu %a\n", i, mem[j].kind, mem[j].x, mem[j].y, (unsigned long long)mem[j].tick,
                    mem[j].certainty);
    }
    pt_door doors[256];
    int nd = pt_world_doors(w, doors, 256);
    for (int i = 0; i < nd && i < 256; i++) fputc('0' + doors[i].state, f);
    fputc('\n', f);
    for (int i = 0; i < pt_world_light_count(w); i++) { /* the lights on */
        pt_light li;
        pt_world_light_get(w, i, &li);
        fputc(i + 1 < pt_world_light_count(w) ? '0' + li.on : '\n', f);
    }
    pt_search_info si;
    pt_world_search(w, &si);
    fprintf(f, "search %d %d %d %d %d\n", si.active, si.ncells, si.nsearched, si.nguards, si.origin.x + 1000 * si.origin.y);
    for (int i = 0; i < si.ncells; i++) fprintf(f, "%d", si.searched[i] + 2 * (si.owner[i] + 1));
    fputc('\n', f);
    fclose(f);
    return buf;
}

static void save_mem(const pt_world *w, void **data, size_t *size) {
    pt_error err;
    ck_assert_msg(pt_world_save(w, "test", data, size, &err) == PT_OK, "%s", err.message);
}

/* The world's control for a tick, the same for a world and its copy: the player's input
 * (controlled worlds), now and then a tile changed and a game noise. */
typedef struct drive {
    pt_rng r;
    int controlled, tiles;
    const char *kinds;
    int doors; /* now and then the game sets a door's state */
    int host;  /* the game moves or teleports its player (pt_player_host) */
    int lights; /* now and then the game puts a light out, more rarely lights one */
} drive;

/* A walkable place of w's map (x, y in tiles) from r. */
static void walkable_place(pt_rng *r, const pt_map *m, double *x, double *y) {
    int cx, cy;
    do {
        cx = (int)pt_rng_below(r, (uint32_t)m->w);
        cy = (int)pt_rng_below(r, (uint32_t)m->h);
    } while (!pt_map_walkable(m, cx, cy));
    *x = cx + pt_rng_below(r, 1000) / 1000.0;
    *y = cy + pt_rng_below(r, 1000) / 1000.0;
}

static void drive_tick(drive *dr, pt_world **ws, int nw) {
    const pt_map *m = pt_world_map(ws[0]);
    int dx = (int)pt_rng_below(&dr->r, 3) - 1, dy = (int)pt_rng_below(&dr->r, 3) - 1;
    int change = dr->tiles && pt_rng_below(&dr->r, 8) == 0;
    int x = 1 + (int)pt_rng_below(&dr->r, (uint32_t)(m->w - 2)), y = 1 + (int)pt_rng_below(&dr->r, (uint32_t)(m->h - 2));
    char t = dr->kinds[pt_rng_below(&dr->r, (uint32_t)strlen(dr->kinds))];
    int noise = pt_rng_below(&dr->r, 16) == 0;
    int nx = (int)pt_rng_below(&dr->r, (uint32_t)m->w), ny = (int)pt_rng_below(&dr->r, (uint32_t)m->h);
    pt_door doors[256];
    int nd = dr->doors ? pt_world_doors(ws[0], doors, 256) : 0;
    int door = nd > 0 && pt_rng_below(&dr->r, 12) == 0 ? (int)pt_rng_below(&dr->r, (uint32_t)(nd < 256 ? nd : 256)) : -1;
    pt_door_state ds = (pt_door_state)pt_rng_below(&dr->r, 3);
    int hmove = dr->host && pt_rng_below(&dr->r, 3) == 0, jump = hmove && pt_rng_below(&dr->r, 4) == 0;
    int nl = dr->lights ? pt_world_light_count(ws[0]) : 0, light = -1, light_on = 0;
    if (nl > 0 && pt_rng_below(&dr->r, 20) == 0) {
        light = (int)pt_rng_below(&dr->r, (uint32_t)nl);
        light_on = pt_rng_below(&dr->r, 4) == 0;
    }
    double hx = 0, hy = 0, hvx = (double)pt_rng_below(&dr->r, 9) - 4, hvy = (double)pt_rng_below(&dr->r, 9) - 4;
    if (hmove) {
        const pt_entity *p = pt_world_entity(ws[0], 0);
        hx = p->px + ((int)pt_rng_below(&dr->r, 3) - 1) * 0.4;
        hy = p->py + ((int)pt_rng_below(&dr->r, 3) - 1) * 0.4;
        if (jump || !pt_map_walkable(m, (int)hx, (int)hy)) walkable_place(&dr->r, m, &hx, &hy);
    }
    for (int k = 0; k < nw; k++) {
        if (light >= 0) ck_assert_int_eq(pt_world_set_light(ws[k], light, light_on, NULL), PT_OK);
        if (door >= 0) ck_assert_int_eq(pt_world_set_door(ws[k], doors[door].x, doors[door].y, ds, NULL), PT_OK);
        if (hmove && jump) ck_assert_int_eq(pt_player_teleport(ws[k], hx, hy, NULL), PT_OK);
        if (hmove && !jump) ck_assert_int_eq(pt_player_move(ws[k], hx, hy, hvx, hvy, NULL), PT_OK);
        if (dr->controlled) pt_world_set_input(ws[k], dx, dy);
        if (change && pt_map_legend_find(pt_world_map(ws[k]), t) >= 0) pt_world_set_tile(ws[k], x, y, t, NULL);
        if (noise) pt_world_noise(ws[k], nx, ny, 9.0);
    }
}

/* Saves a, loads the save (on `threads` threads), checks the load saves to the same bytes,
 * then steps both `ticks` ticks and compares every step and, at the end, their saves. */
static void check_copy(pt_world *a, const pt_map *m, const pt_patlib *lib, int threads, int ticks, drive *dr,
                       const char *what) {
    void *da, *db;
    size_t na, nb;
    save_mem(a, &da, &na);
    pt_error err;
    pt_world_desc d = {.threads = threads};
    pt_world *b = pt_world_load(da, na, m, lib, &d, &err);
    ck_assert_msg(b != NULL, "%s: %s", what, err.message);
    /* the legend, with the door kinds the world added to it, is the same */
    const pt_map *ma = pt_world_map(a), *mb = pt_world_map(b);
    ck_assert_int_eq(ma->nlegend, mb->nlegend);
    for (int i = 0; i < ma->nlegend; i++)
        ck_assert_msg(ma->legend[i].ch == mb->legend[i].ch && !strcmp(ma->legend[i].name, mb->legend[i].name) &&
                          ma->legend[i].flags == mb->legend[i].flags && ma->legend[i].sound == mb->legend[i].sound,
                      "%s: legend entry %d differs", what, i);
    save_mem(b, &db, &nb);
    ck_assert_msg(na == nb && memcmp(da, db, na) == 0, "%s: save(load(save)) differs from save", what);
    pt_world_save_free(db);
    pt_world_save_free(da);
    for (int t = 0; t < ticks; t++) {
        if (dr) drive_tick(dr, (pt_world *[]){a, b}, 2);
        char *sa = step_text(a), *sb = step_text(b);
        ck_assert_msg(strcmp(sa, sb) == 0, "%s: tick %llu differs after the load:\n%s---\n%s", what,
                      (unsigned long long)pt_world_tick(a), sa, sb);
        free(sa);
        free(sb);
    }
    save_mem(a, &da, &na);
    save_mem(b, &db, &nb);
    ck_assert_msg(na == nb && memcmp(da, db, na) == 0, "%s: the saves differ %d ticks after the load", what, ticks);
    pt_world_save_free(da);
    pt_world_save_free(db);
    pt_world_destroy(b);
}

/* Which states some guard of w is in now (bit per pt_state), and MID_SEARCH when the world's
 * search is on and has searched cells. */
enum { MID_SEARCH = 1u << PT_STATE_COUNT };
static unsigned states_now(const pt_world *w) {
    unsigned s = 0;
    for (int i = 1; i < pt_world_count(w); i++)
        if (pt_world_entity(w, i)) s |= 1u << pt_world_entity(w, i)->state;
    pt_search_info si;
    if (pt_world_search(w, &si) && si.nsearched > 0) s |= MID_SEARCH;
    return s;
}

enum { WANT = 1u << PT_STATE_CHASE | 1u << PT_STATE_SEARCH | 1u << PT_STATE_INVESTIGATE | MID_SEARCH };

/* Runs a level `run` ticks, copying it at a few fixed ticks and at the first tick each of
 * chase, search and investigate is on; returns the states the copies were made in. */
static unsigned run_level(const char *path, uint64_t seed, int threads, int run, int follow) {
    pt_map m;
    pt_patlib lib;
    load_level(path, &m, &lib);
    pt_error err;
    pt_world_desc d = {.seed = seed, .threads = threads};
    pt_world *a = pt_world_create(&m, &lib, &d, &err);
    ck_assert_msg(a != NULL, "%s", err.message);
    unsigned covered = 0;
    char what[256];
    for (int t = 0; t < run; t++) {
        unsigned now = states_now(a) & WANT;
        if ((now & ~covered) || t == 0 || t == 7 || t == run / 2) {
            covered |= now;
            snprintf(what, sizeof what, "%s seed %llu tick %d threads %d", path, (unsigned long long)seed, t, threads);
            check_copy(a, &m, &lib, 3 - threads, follow, NULL, what);
        }
        free(step_text(a));
    }
    pt_world_destroy(a);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return covered;
}

START_TEST(test_levels_continue_exactly) {
    static const char *const levels[] = {"maps/demo.map", "maps/abbey.map", "maps/fort.map", "maps/demo.tmx"};
    unsigned covered = 0;
    for (int i = 0; i < 4; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) covered |= run_level(levels[i], seed, 1 + (int)(seed % 2), 1500, 200);
    /* The copies were made mid-chase, mid-search (a guard searching, and the world's search
     * under way) and mid-investigate. */
    ck_assert_uint_eq(covered & WANT, WANT);
}
END_TEST

/* A generated map: walls, every kind of tile, guards of each chase, prey and a flock. */
static void gen_map(pt_map *m, uint64_t seed) {
    enum { SIZE = 30, GUARDS = 6 };
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    static const char kinds[] = ".~=+,*:T";
    for (int i = 0; i < SIZE * SIZE / 10; i++) {
        int x = 1 + (int)pt_rng_below(&r, SIZE - 2), y = 1 + (int)pt_rng_below(&r, SIZE - 2);
        pt_map_set(m, x, y, kinds[pt_rng_below(&r, (uint32_t)strlen(kinds))]);
    }
    m->ents = calloc(GUARDS + 3, sizeof *m->ents);
    ck_assert_ptr_nonnull(m->ents);
    for (int i = 0; i < GUARDS + 3; i++) {
        pt_entity_def *d = &m->ents[i];
        do {
            d->x = (int)pt_rng_below(&r, SIZE);
            d->y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(m, d->x, d->y));
        d->line = 1;
        if (i < GUARDS) {
            snprintf(d->name, sizeof d->name, "g%d", i + 1);
            d->kind = PT_KIND_GUARD;
            d->chase = (pt_chase)(i % PT_CHASE_COUNT);
            d->view_dist = 10;
        } else if (i < GUARDS + 2) {
            snprintf(d->name, sizeof d->name, "hen%d", i);
            d->kind = PT_KIND_PREY;
        } else {
            snprintf(d->name, sizeof d->name, "crows");
            d->kind = PT_KIND_BOID;
            d->count = 10;
        }
    }
    m->nents = GUARDS + 3;
    do {
        m->player.x = (int)pt_rng_below(&r, SIZE);
        m->player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
}

START_TEST(test_generated_continue_exactly) {
    unsigned covered = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_error err;
        int threads = 1 + (int)(seed % 2);
        pt_world_desc d = {.seed = seed, .player_controlled = 1, .threads = threads};
        pt_world *a = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        drive dr = {.controlled = 1, .tiles = 1, .kinds = ".#~=+,*:T"};
        pt_rng_seed(&dr.r, seed, 9);
        char what[128];
        for (int t = 0; t < 900; t++) {
            unsigned now = states_now(a) & WANT;
            if ((now & ~covered) || t % 150 == 149) {
                covered |= now;
                /* noises made for the next step, not yet heard, go into the save */
                pt_world_noise(a, m.w / 2, m.h / 2, 12.0);
                pt_world_noise(a, 3, 3, 5.0);
                snprintf(what, sizeof what, "generated seed %llu tick %d", (unsigned long long)seed, t);
                drive copy = dr;
                check_copy(a, &m, NULL, 3 - threads, 150, &copy, what);
                dr = copy; /* a stepped on with the copy's control */
                t += 150;
            }
            drive_tick(&dr, &a, 1);
            free(step_text(a));
        }
        pt_world_destroy(a);
        pt_map_fini(&m);
    }
    ck_assert_uint_eq(covered & WANT, WANT);
}
END_TEST

/* ---- doors and the game's own player ---- */

/* What a world with doors or a hosted player is doing now, bit per thing a copy should be
 * made during. */
enum {
    AT_PAUSE = 1,      /* a guard pauses at a closed door */
    AT_BEHIND = 2,     /* a guard is to close a door behind it */
    AT_LOCKED = 4,     /* a door is locked */
    AT_KNOWN = 8,      /* a guard remembers a door of its round closed */
    AT_HOST_SET = 16,  /* the hosted player's position waits for the next step */
    AT_LIGHT_KNOWN = 32, /* a guard knows a light of its round */
    AT_RELIGHT_WALK = 64, /* a guard walks to a light to relight it */
    AT_RELIGHT_STAND = 128, /* a guard stands at a light to relight it */
};
static unsigned doings_now(const pt_world *w) {
    unsigned s = 0;
    for (int i = 0; i < w->n; i++) {
        const pt__brain *b = &w->brains[i];
        s |= (b->door_opening ? AT_PAUSE : 0) | (b->door_close ? AT_BEHIND : 0) | (b->door_known[0] ? AT_KNOWN : 0);
        s |= (b->light_known ? AT_LIGHT_KNOWN : 0) | (b->relight && !b->relight_wait ? AT_RELIGHT_WALK : 0) |
             (b->relight && b->relight_wait ? AT_RELIGHT_STAND : 0);
    }
    for (int k = 0; k < w->ndoors; k++) s |= w->doors[k].state == PT_DOOR_LOCKED ? AT_LOCKED : 0;
    return s;
}

/* Steps a `ticks` ticks under dr, copying it at the first tick of each doing and every
 * `every` ticks (a hosted player moved first: the copy has the position waiting). */
static unsigned run_copies(pt_world *a, const pt_map *m, const pt_patlib *lib, drive *dr, int ticks, int every,
                           const char *name) {
    unsigned covered = 0;
    char what[256];
    for (int t = 0; t < ticks; t++) {
        unsigned now = doings_now(a);
        if ((now & ~covered) || t % every == every - 1) {
            if (dr->host) {
                double x, y;
                walkable_place(&dr->r, pt_world_map(a), &x, &y);
                ck_assert_int_eq(pt_player_move(a, x, y, 1.5, -0.5, NULL), PT_OK);
                now |= a->host_set ? AT_HOST_SET : 0;
            }
            covered |= now;
            snprintf(what, sizeof what, "%s tick %d", name, t);
            drive copy = *dr;
            check_copy(a, m, lib, 2, 120, &copy, what);
            *dr = copy;
            t += 120;
        }
        drive_tick(dr, &a, 1);
        free(step_text(a));
    }
    return covered;
}

START_TEST(test_doors_continue_exactly) {
    unsigned covered = 0;
    /* the tests' door map: closed doors on the guards' rounds, one that `closes`, a locked one */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pt_map m;
        pt_patlib lib;
        load_level("tests/data/tmx/doors.map", &m, &lib);
        pt_error err;
        pt_world_desc d = {.seed = seed, .threads = 1};
        pt_world *a = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        drive dr = {.doors = seed > 1, .kinds = "."};
        pt_rng_seed(&dr.r, seed, 11);
        char name[64];
        snprintf(name, sizeof name, "doors.map seed %llu", (unsigned long long)seed);
        covered |= run_copies(a, &m, &lib, &dr, 1500, 200, name);
        pt_world_destroy(a);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    /* generated maps: their door tiles declared closed, locked or open, half with `closes` */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        gen_map(&m, seed);
        int doors = 0, plus = pt_map_legend_find(&m, '+');
        m.doors = calloc((size_t)m.w * (size_t)m.h, sizeof *m.doors);
        ck_assert_ptr_nonnull(m.doors);
        for (int y = 0; y < m.h; y++)
            for (int x = 0; x < m.w; x++) {
                int taken = m.player.x == x && m.player.y == y;
                for (int i = 0; i < m.nents; i++) taken |= m.ents[i].x == x && m.ents[i].y == y;
                if (m.tiles[y * m.w + x] != plus || taken) continue;
                m.doors[doors] = (pt_door_def){x, y, (pt_door_state)(doors % 3), doors % 2, 1, 1};
                doors++;
            }
        m.ndoors = doors;
        ck_assert_int_gt(doors, 3);
        pt_error err;
        pt_world_desc d = {.seed = seed, .player_controlled = 1, .threads = 1};
        pt_world *a = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        drive dr = {.controlled = 1, .doors = 1, .kinds = "."};
        pt_rng_seed(&dr.r, seed, 12);
        char name[64];
        snprintf(name, sizeof name, "generated with doors seed %llu", (unsigned long long)seed);
        covered |= run_copies(a, &m, NULL, &dr, 1200, 150, name);
        pt_world_destroy(a);
        pt_map_fini(&m);
    }
    ck_assert_uint_eq(covered, AT_PAUSE | AT_BEHIND | AT_LOCKED | AT_KNOWN);
}
END_TEST

/* Lights beside the demo level's guards: the game puts them out now and then, the guards
 * relight them; copies are made when a guard first knows a light, walks to one and stands at
 * one, and the lights' state and the relighting carry over. */
static void lit_demo(pt_map *m, pt_patlib *lib, uint64_t seed) {
    load_level("maps/demo.map", m, lib);
    pt_rng r;
    pt_rng_seed(&r, seed, 14);
    enum { NL = 16 };
    m->lights = calloc(NL, sizeof *m->lights);
    ck_assert_ptr_nonnull(m->lights);
    for (int i = 0; i < NL; i++) {
        const pt_entity_def *g = &m->ents[i % m->nents];
        int x, y;
        do {
            x = g->x + (int)pt_rng_below(&r, 7) - 3;
            y = g->y + (int)pt_rng_below(&r, 7) - 3;
        } while (!pt_map_in(m, x, y) || pt_map_opaque(m, x, y));
        m->lights[i] = (pt_light_def){"", x, y, 4.0, 1.0, 1, 1, 1};
        snprintf(m->lights[i].name, sizeof m->lights[i].name, "l%d", i);
    }
    m->nlights = NL;
}

START_TEST(test_relight_continues_exactly) {
    unsigned covered = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pt_map m;
        pt_patlib lib;
        lit_demo(&m, &lib, seed);
        pt_error err;
        pt_world_desc d = {.seed = seed, .player_controlled = 1, .threads = 1};
        pt_world *a = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        drive dr = {.lights = 1, .kinds = "."};
        pt_rng_seed(&dr.r, seed, 15);
        char name[64];
        snprintf(name, sizeof name, "demo with lights seed %llu", (unsigned long long)seed);
        covered |= run_copies(a, &m, &lib, &dr, 2400, 400, name);
        pt_world_destroy(a);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    ck_assert_uint_eq(covered & (AT_LIGHT_KNOWN | AT_RELIGHT_WALK | AT_RELIGHT_STAND),
                      AT_LIGHT_KNOWN | AT_RELIGHT_WALK | AT_RELIGHT_STAND);
}
END_TEST

START_TEST(test_hosted_player_continues_exactly) {
    unsigned covered = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_error err;
        pt_world_desc d = {.seed = seed, .threads = 1};
        pt_world *a = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        ck_assert_int_eq(pt_player_host(a), PT_OK);
        drive dr = {.host = 1, .tiles = seed % 2, .kinds = ".~=,*:T"};
        pt_rng_seed(&dr.r, seed, 13);
        char name[64];
        snprintf(name, sizeof name, "hosted player seed %llu", (unsigned long long)seed);
        covered |= run_copies(a, &m, NULL, &dr, 900, 150, name);
        pt_world_destroy(a);
        pt_map_fini(&m);
    }
    ck_assert_uint_eq(covered & AT_HOST_SET, AT_HOST_SET);
}
END_TEST

/* A small world's save, for the error tests. */
static void small_save(pt_map *m, void **data, size_t *size) {
    gen_map(m, 3);
    pt_error err;
    pt_world_desc d = {.seed = 3, .player_controlled = 1};
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_ptr_nonnull(w);
    for (int t = 0; t < 50; t++) pt_world_step(w);
    save_mem(w, data, size);
    pt_world_destroy(w);
}

static int load_code(const void *data, size_t size, const pt_map *m, const pt_patlib *lib, pt_error *err) {
    pt_world *w = pt_world_load(data, size, m, lib, NULL, err);
    if (w) {
        pt_world_destroy(w);
        return PT_OK;
    }
    ck_assert_int_lt(err->code, 0);
    ck_assert_int_eq(err->line, 0);
    return err->code;
}

START_TEST(test_truncated) {
    pt_map m;
    void *data;
    size_t size;
    small_save(&m, &data, &size);
    pt_error err;
    ck_assert_int_eq(load_code(data, size, &m, NULL, &err), PT_OK);
    for (size_t n = 0; n < size; n++) {
        ck_assert_msg(load_code(data, n, &m, NULL, &err) == PT_ERR_UNTERMINATED, "%zu bytes: %s", n, err.message);
        ck_assert_ptr_nonnull(strstr(err.message, "truncated"));
        ck_assert_ptr_nonnull(strstr(err.message, "at byte"));
    }
    pt_world_save_free(data);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_corrupt) {
    pt_map m;
    void *data;
    size_t size;
    small_save(&m, &data, &size);
    unsigned char *p = data;
    pt_error err;
    for (size_t i = 0; i < size; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            p[i] ^= (unsigned char)(1u << bit);
            int code = load_code(data, size, &m, NULL, &err);
            p[i] ^= (unsigned char)(1u << bit);
            if (i < 8) {
                ck_assert_int_eq(code, PT_ERR_BAD_ENCODING); /* the magic */
                ck_assert_ptr_nonnull(strstr(err.message, "magic"));
            } else if (i < 12) {
                ck_assert_int_eq(code, PT_ERR_BAD_ENCODING); /* the version: newer, or 0 */
                ck_assert_ptr_nonnull(strstr(err.message, "version"));
            } else if (i < 20 && code == PT_ERR_UNTERMINATED) {
                /* the size grown: the save looks cut short */
            } else {
                ck_assert_msg(code == PT_ERR_BAD_VALUE, "byte %zu bit %d: %s", i, bit, err.message);
                ck_assert_ptr_nonnull(strstr(err.message, "checksum"));
            }
        }
    }
    pt_world_save_free(data);
    pt_map_fini(&m);
}
END_TEST

/* A save whose checksum is made right again after a change: every value the loader reads is
 * checked, so no change crashes it (the fuzz target does the same at random). */
static void fix_crc(unsigned char *p, size_t size) {
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, p, (uInt)(size - 4));
    for (int k = 0; k < 4; k++) p[size - 4 + k] = (unsigned char)(crc >> (8 * k));
}

START_TEST(test_corrupt_with_checksum) {
    pt_map m;
    void *data;
    size_t size;
    small_save(&m, &data, &size);
    unsigned char *p = data;
    pt_error err;
    int refused = 0;
    for (size_t i = 28; i + 4 < size; i++) {
        unsigned char was = p[i];
        p[i] = (unsigned char)(was ^ 0xa5);
        fix_crc(p, size);
        refused += load_code(data, size, &m, NULL, &err) < 0;
        p[i] = was;
    }
    fix_crc(p, size);
    ck_assert_int_gt(refused, 0);
    pt_world_save_free(data);
    pt_map_fini(&m);
}
END_TEST

/* The byte offset of section `id`'s body in a save. */
static size_t section_at(const unsigned char *p, size_t size, uint32_t id) {
    size_t at = 28;
    while (at + 8 <= size) {
        uint32_t got = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;
        uint32_t len = (uint32_t)p[at + 4] | (uint32_t)p[at + 5] << 8 | (uint32_t)p[at + 6] << 16 | (uint32_t)p[at + 7] << 24;
        if (got == id) return at + 8;
        at += 8 + len;
    }
    ck_abort_msg("no section %u", id);
    return 0;
}

static void put32(unsigned char *p, int32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)((uint32_t)v >> (8 * i));
}

/* A door value out of range (a state, an index, a pause, a count, a hosted flag) is an
 * error that names it, not a crash; the save loads again once the byte is back. */
START_TEST(test_door_values_refused) {
    pt_map m;
    pt_patlib lib;
    load_level("tests/data/tmx/doors.map", &m, &lib);
    pt_error err;
    pt_world_desc d = {.seed = 1};
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    int pauser = -1;
    for (int t = 0; t < 2000 && pauser < 0; t++) {
        pt_world_step(w);
        for (int i = 1; i < w->n; i++)
            if (w->brains[i].door_opening && w->brains[i].door_wait > 1) pauser = i;
    }
    ck_assert_int_ge(pauser, 1);
    int nd = w->ndoors;
    void *data;
    size_t size;
    save_mem(w, &data, &size);
    pt_world_destroy(w);
    unsigned char *p = data;
    size_t doors = section_at(p, size, 11), host = section_at(p, size, 12);
    size_t first = doors + 4 + 3 * 5, brains = first + 16 * (size_t)nd + 12, mine = brains + 36 * (size_t)pauser;
    struct {
        size_t at;
        int32_t v;
        const char *says;
    } bad[] = {
        {doors, nd + 1, "door count"},
        {doors + 4, 77, "door kind"},
        {doors + 8, 1, "character differs"},
        {first, 0, "door cell"},
        {first + 8, 3, "door state 3 is out of range"},
        {first + 8, -1, "door state -1"},
        {first + 8, PT_DOOR_LOCKED, "state is not its tile's"},
        {first + 12, 2, "door closes"},
        {brains - 12, 99, "closed door count"},
        {brains - 8, 2, "doors live"},
        {mine, nd + 1, "door opening"},
        {mine + 4, 1000000, "door pause"},
        {mine + 4, -1, "door pause"},
        {mine + 8, -(nd + 1), "door to close"},
        {mine + 20, nd + 1, "known door"},
        {mine + 32, INT32_MIN, "out of range"},
        {host, 2, "hosted"},
        {host + 4, 1, "host position set"},
        {host + 16, 0x7ff00000, "number out of range"},
        {host + 16, 0x40900000, "off the"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        unsigned char was[4];
        memcpy(was, p + bad[k].at, 4);
        put32(p + bad[k].at, bad[k].v);
        fix_crc(p, size);
        ck_assert_msg(load_code(data, size, &m, &lib, &err) == PT_ERR_BAD_VALUE, "case %zu loaded", k);
        ck_assert_msg(strstr(err.message, bad[k].says) != NULL, "case %zu: %s", k, err.message);
        memcpy(p + bad[k].at, was, 4);
        fix_crc(p, size);
        ck_assert_int_eq(load_code(data, size, &m, &lib, &err), PT_OK);
    }
    pt_world_save_free(data);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A light value out of range (the count, a light's state, a guard's known lights, the light
 * it relights, its stand, its cell) is an error that names it; the save loads again once the
 * value is back. */
START_TEST(test_light_values_refused) {
    pt_map m;
    pt_patlib lib;
    lit_demo(&m, &lib, 2);
    pt_error err;
    pt_world_desc d = {.seed = 2, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    int nl = pt_world_light_count(w), stander = -1;
    for (int t = 0; t < 4000 && stander < 0; t++) {
        if (t % 50 == 0) pt_world_set_light(w, (t / 50) % nl, 0, NULL);
        pt_world_step(w);
        for (int i = 1; i < w->n; i++)
            if (w->brains[i].relight && w->brains[i].relight_wait > 1) stander = i;
    }
    ck_assert_int_ge(stander, 1);
    void *data;
    size_t size;
    save_mem(w, &data, &size);
    pt_world_destroy(w);
    unsigned char *p = data;
    size_t lights = section_at(p, size, 21), mine = lights + 4 + (size_t)nl + 24 * (size_t)stander;
    struct {
        size_t at;
        int32_t v;
        const char *says;
    } bad[] = {
        {lights, nl + 1, "light count"},
        {lights + 4, 2, "state is 2 (0 or 1)"},
        {mine + 4, 0x10000, "knows a light the world does not have"},
        {mine + 8, nl + 1, "light to relight"},
        {mine + 8, -1, "light to relight"},
        {mine + 12, 61, "relight stand"},
        {mine + 16, m.w, "relight cell"},
        {mine + 20, -1, "relight cell"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        unsigned char was[4];
        memcpy(was, p + bad[k].at, 4);
        put32(p + bad[k].at, bad[k].v);
        fix_crc(p, size);
        ck_assert_msg(load_code(data, size, &m, &lib, &err) == PT_ERR_BAD_VALUE, "case %zu loaded", k);
        ck_assert_msg(strstr(err.message, bad[k].says) != NULL, "case %zu: %s", k, err.message);
        memcpy(p + bad[k].at, was, 4);
        fix_crc(p, size);
        ck_assert_int_eq(load_code(data, size, &m, &lib, &err), PT_OK);
    }
    /* loaded with the map without its lights: the map's fingerprint covers its lights */
    m.nlights = 0;
    ck_assert_int_eq(load_code(data, size, &m, &lib, &err), PT_ERR_MISSING);
    ck_assert_ptr_nonnull(strstr(err.message, "of another map"));
    m.nlights = nl;
    pt_world_save_free(data);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_magic_and_version) {
    pt_map m;
    void *data;
    size_t size;
    small_save(&m, &data, &size);
    unsigned char *p = data;
    pt_error err;
    static const char text[] = "player 1,1\n";
    ck_assert_int_eq(load_code(text, sizeof text - 1, &m, NULL, &err), PT_ERR_BAD_ENCODING);
    ck_assert_ptr_nonnull(strstr(err.message, "not a patrol save"));
    p[8] = PT_SAVE_VERSION + 1;
    ck_assert_int_eq(load_code(data, size, &m, NULL, &err), PT_ERR_BAD_ENCODING);
    ck_assert_ptr_nonnull(strstr(err.message, "version 3; this patrol reads version 2 only"));
    p[8] = PT_SAVE_VERSION - 1; /* an older save lacks the doors and the hosted player */
    ck_assert_int_eq(load_code(data, size, &m, NULL, &err), PT_ERR_BAD_ENCODING);
    ck_assert_ptr_nonnull(strstr(err.message, "version 1; this patrol reads version 2 only"));
    p[8] = PT_SAVE_VERSION;
    ck_assert_int_eq(load_code(data, size, &m, NULL, &err), PT_OK);
    /* trailing bytes: the checksum is then read from the wrong place */
    unsigned char *longer = malloc(size + 3);
    memcpy(longer, data, size);
    memset(longer + size, 0, 3);
    ck_assert_int_lt(load_code(longer, size + 3, &m, NULL, &err), 0);
    free(longer);
    pt_world_save_free(data);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_other_map_and_library) {
    pt_map demo, abbey;
    pt_patlib dlib, alib;
    load_level("maps/demo.map", &demo, &dlib);
    load_level("maps/abbey.map", &abbey, &alib);
    pt_error err;
    pt_world *w = pt_world_create(&demo, &dlib, NULL, &err);
    ck_assert_ptr_nonnull(w);
    for (int t = 0; t < 30; t++) pt_world_step(w);
    void *data;
    size_t size;
    save_mem(w, &data, &size);
    ck_assert_int_eq(load_code(data, size, &abbey, &alib, &err), PT_ERR_MISSING);
    ck_assert_ptr_nonnull(strstr(err.message, "another map"));
    /* the demo's map, changed in one tile */
    demo.tiles[demo.w + 1] ^= 1;
    ck_assert_int_eq(load_code(data, size, &demo, &dlib, &err), PT_ERR_MISSING);
    ck_assert_ptr_nonnull(strstr(err.message, "another map"));
    demo.tiles[demo.w + 1] ^= 1;
    ck_assert_int_eq(load_code(data, size, &demo, &alib, &err), PT_ERR_MISSING);
    ck_assert_ptr_nonnull(strstr(err.message, "another pattern library"));
    ck_assert_int_eq(load_code(data, size, &demo, &dlib, &err), PT_OK);
    /* the source text comes back */
    char src[16];
    ck_assert_int_eq(pt_save_source(data, size, src, sizeof src, &err), PT_OK);
    ck_assert_str_eq(src, "test");
    pt_world_save_free(data);
    /* files: a round trip, and a missing file */
    char path[] = "/tmp/check_save_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(pt_world_save_file(w, path, NULL, &err), PT_OK);
    pt_world *b = pt_world_load_file(path, &demo, &dlib, NULL, &err);
    ck_assert_msg(b != NULL, "%s", err.message);
    ck_assert_int_eq((int)pt_world_tick(b), 30);
    pt_world_destroy(b);
    unlink(path);
    ck_assert_ptr_null(pt_world_load_file(path, &demo, &dlib, NULL, &err));
    ck_assert_int_eq(err.code, PT_ERR_IO);
    ck_assert_str_eq(err.file, path);
    pt_world_destroy(w);
    pt_patlib_fini(&dlib);
    pt_patlib_fini(&alib);
    pt_map_fini(&demo);
    pt_map_fini(&abbey);
}
END_TEST

/* ---- spawn, remove and orders (save_ents.c) ---- */

/* A walkable cell of w's map, drawn from r. */
static pt_cell walkable_cell(const pt_world *w, pt_rng *r) {
    const pt_map *m = pt_world_map(w);
    pt_cell c;
    do {
        c.x = (int)pt_rng_below(r, (uint32_t)m->w);
        c.y = (int)pt_rng_below(r, (uint32_t)m->h);
    } while (!pt_map_walkable(m, c.x, c.y));
    return c;
}

/* A live guard of w drawn from r, or 0. */
static int some_guard(const pt_world *w, pt_rng *r) {
    int n = pt_world_count(w);
    for (int k = 0; k < 8; k++) {
        int id = 1 + (int)pt_rng_below(r, (uint32_t)(n - 1));
        const pt_entity *e = pt_world_entity(w, id);
        if (e && e->kind == PT_KIND_GUARD) return id;
    }
    return 0;
}

/* What one churn did, for the coverage checks. */
enum { DID_SPAWN = 1, DID_FLOCK = 2, DID_REMOVE = 4, DID_ORDER = 8, DID_HOLD = 16, DID_PATTERN = 32 };

/* One random game call on w: a spawn (guard, prey or flock), a remove, an order. */
static unsigned churn(pt_world *w, const pt_patlib *lib, pt_rng *r, int *serial) {
    char line[160];
    pt_error err;
    pt_cell c = walkable_cell(w, r);
    int what = (int)pt_rng_below(r, 9), id;
    switch (what) {
    case 0:
    case 1:
        if (lib && lib->count > 0 && pt_rng_below(r, 2))
            snprintf(line, sizeof line, "guard s%d at=%d,%d pattern=%s chase=%s", ++*serial, c.x, c.y,
                     lib->items[pt_rng_below(r, (uint32_t)lib->count)]->name, pt_rng_below(r, 2) ? "steer" : "tile");
        else snprintf(line, sizeof line, "guard s%d at=%d,%d view=9", ++*serial, c.x, c.y);
        ck_assert_msg(pt_world_spawn_line(w, line, NULL, NULL, &err) > 0, "%s: %s", line, err.message);
        return DID_SPAWN;
    case 2:
        snprintf(line, sizeof line, "prey p%d at=%d,%d", ++*serial, c.x, c.y);
        ck_assert_msg(pt_world_spawn_line(w, line, NULL, NULL, &err) > 0, "%s: %s", line, err.message);
        return DID_SPAWN;
    case 3:
        snprintf(line, sizeof line, "flock f%d at=%d,%d count=4", ++*serial, c.x, c.y);
        ck_assert_msg(pt_world_spawn_line(w, line, NULL, NULL, &err) > 0, "%s: %s", line, err.message);
        return DID_FLOCK;
    case 4:
        id = 1 + (int)pt_rng_below(r, (uint32_t)(pt_world_count(w) - 1));
        return pt_world_remove(w, id) == PT_OK ? DID_REMOVE : 0;
    case 5:
        if (!(id = some_guard(w, r))) return 0;
        ck_assert_int_eq(pt_world_order_goto(w, id, c.x, c.y), PT_OK);
        return DID_ORDER;
    case 6:
        if (!(id = some_guard(w, r))) return 0;
        ck_assert_int_eq(pt_world_order_investigate(w, id, c.x, c.y), PT_OK);
        return DID_ORDER;
    case 7:
        if (!(id = some_guard(w, r))) return 0;
        ck_assert_int_eq(pt_world_order_hold(w, id), PT_OK);
        return DID_HOLD;
    default:
        if (!(id = some_guard(w, r))) return 0;
        if (lib && lib->count > 0 && pt_rng_below(r, 2)) {
            const char *name = lib->items[pt_rng_below(r, (uint32_t)lib->count)]->name;
            ck_assert_int_eq(pt_world_order_pattern(w, id, name, &err), PT_OK);
            return DID_PATTERN;
        }
        ck_assert_int_eq(pt_world_order_resume(w, id), PT_OK);
        return DID_ORDER;
    }
}

/* Whether some guard of w holds an order now, and whether one is held. */
static unsigned orders_now(const pt_world *w) {
    unsigned s = 0;
    for (int i = 1; i < pt_world_count(w); i++) {
        pt_order_kind k = pt_world_order(w, i, NULL, NULL);
        if (k == PT_ORDER_HOLD) s |= DID_HOLD;
        else if (k != PT_ORDER_NONE) s |= DID_ORDER;
    }
    return s;
}

/* Runs w `run` ticks with random spawns, removes and orders, copying it every `every` ticks
 * right after a churn (its events still queued) and checking the copy `follow` ticks. */
static unsigned churn_run(pt_world *a, const pt_map *m, const pt_patlib *lib, uint64_t seed, int run, int every,
                          int follow, drive *dr, const char *name) {
    pt_rng r;
    pt_rng_seed(&r, seed, 77);
    int serial = 0;
    unsigned did = 0, held = 0;
    char what[160];
    for (int t = 0; t < run; t++) {
        if (pt_rng_below(&r, 6) == 0) did |= churn(a, lib, &r, &serial);
        if (t % every == every - 1) {
            did |= churn(a, lib, &r, &serial);
            held |= orders_now(a);
            snprintf(what, sizeof what, "%s seed %llu tick %d", name, (unsigned long long)seed, t);
            drive copy;
            if (dr) copy = *dr;
            check_copy(a, m, lib, 1 + (int)(seed % 2), follow, dr ? &copy : NULL, what);
            if (dr) *dr = copy;
        }
        if (dr) drive_tick(dr, &a, 1);
        free(step_text(a));
    }
    return did | held << 8;
}

START_TEST(test_spawn_remove_order_continue) {
    unsigned got = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_error err;
        pt_world_desc d = {.seed = seed, .player_controlled = 1, .threads = 1 + (int)(seed % 2)};
        pt_world *a = pt_world_create(&m, NULL, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        drive dr = {.controlled = 1, .tiles = 0, .kinds = "."};
        pt_rng_seed(&dr.r, seed, 9);
        got |= churn_run(a, &m, NULL, seed, 500, 50, 60, &dr, "generated");
        pt_world_destroy(a);
        pt_map_fini(&m);
    }
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pt_map m;
        pt_patlib lib;
        load_level("maps/demo.map", &m, &lib);
        pt_error err;
        pt_world_desc d = {.seed = seed};
        pt_world *a = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(a != NULL, "%s", err.message);
        got |= churn_run(a, &m, &lib, seed, 600, 60, 80, NULL, "demo");
        pt_world_destroy(a);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
    }
    /* copies were made after spawns of each kind, removes, orders and ordered patterns, while
     * an order was under way and while a guard held */
    unsigned want = DID_SPAWN | DID_FLOCK | DID_REMOVE | DID_ORDER | DID_HOLD | DID_PATTERN | (DID_ORDER | DID_HOLD) << 8;
    ck_assert_uint_eq(got & want, want);
}
END_TEST

/* A save with spawned ids refuses a declaration that cannot be spawned again. */
START_TEST(test_spawn_bad_values) {
    pt_map m;
    gen_map(&m, 3);
    pt_error err;
    pt_world_desc d = {.seed = 3};
    pt_world *a = pt_world_create(&m, NULL, &d, &err);
    ck_assert_ptr_nonnull(a);
    pt_rng r;
    pt_rng_seed(&r, 3, 1);
    pt_cell c = walkable_cell(a, &r);
    char line[64];
    snprintf(line, sizeof line, "guard zed at=%d,%d", c.x, c.y);
    ck_assert_int_gt(pt_world_spawn_line(a, line, NULL, NULL, &err), 0);
    ck_assert_int_eq(pt_world_order_hold(a, 1), PT_OK);
    void *data;
    size_t size;
    save_mem(a, &data, &size);
    pt_world *b = pt_world_load(data, size, &m, NULL, NULL, &err);
    ck_assert_msg(b != NULL, "%s", err.message);
    ck_assert_int_eq(pt_world_order(b, 1, NULL, NULL), PT_ORDER_HOLD);
    ck_assert_str_eq(pt_world_entity(b, pt_world_count(b) - 1)->name, "zed");
    pt_world_destroy(b);
    /* the spawned name "zed" made "zzz" (a byte changed, checksum fixed): still loads; made
     * the player's name: refused */
    unsigned char *p = data;
    unsigned char *z = NULL;
    for (size_t i = 0; i + 3 <= size; i++)
        if (!memcmp(p + i, "zed", 3)) z = p + i;
    ck_assert_ptr_nonnull(z);
    z[1] = 'z';
    z[2] = 'z';
    fix_crc(p, size);
    b = pt_world_load(data, size, &m, NULL, NULL, &err);
    ck_assert_msg(b != NULL, "%s", err.message);
    ck_assert_str_eq(pt_world_entity(b, pt_world_count(b) - 1)->name, "zzz");
    pt_world_destroy(b);
    /* a name already taken by the map's guard g1 */
    memcpy(z - 1, "\x02\0\0\0g1", 6); /* length 2 then the name: a byte shorter, so the def shifts */
    fix_crc(p, size);
    ck_assert_ptr_null(pt_world_load(data, size, &m, NULL, NULL, &err));
    pt_world_save_free(data);
    pt_world_destroy(a);
    pt_map_fini(&m);
}
END_TEST

static Suite *save_suite(void) {
    Suite *s = suite_create("save");
    TCase *tc = tcase_create("continue");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_levels_continue_exactly);
    tcase_add_test(tc, test_generated_continue_exactly);
    tcase_add_test(tc, test_doors_continue_exactly);
    tcase_add_test(tc, test_hosted_player_continues_exactly);
    tcase_add_test(tc, test_relight_continues_exactly);
    tcase_add_test(tc, test_spawn_remove_order_continue);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("bad");
    tcase_set_timeout(bad, 600);
    tcase_add_test(bad, test_truncated);
    tcase_add_test(bad, test_corrupt);
    tcase_add_test(bad, test_corrupt_with_checksum);
    tcase_add_test(bad, test_magic_and_version);
    tcase_add_test(bad, test_door_values_refused);
    tcase_add_test(bad, test_light_values_refused);
    tcase_add_test(bad, test_other_map_and_library);
    tcase_add_test(bad, test_spawn_bad_values);
    suite_add_tcase(s, bad);
    return s;
}

int main(void) { return tu_run(save_suite()); }
