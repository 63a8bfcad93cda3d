/* SPDX-License-Identifier: Zlib */
/* Spawn and remove (patrol/spawn.h; docs/ai.md, "Spawn and remove"): a spawned guard, prey or
 * flock steps as if the map declared it (the same trace, byte for byte); removed entities leave
 * the trace, the search and the step's lists; thousands of random spawns and removes on
 * generated maps, stepping between, keep every invariant; bad declarations are refused with
 * located errors and change nothing. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "guards/search.h"
#include "state/world_state.h"
#include "test_util.h"

#define DEMO PATROL_SOURCE_DIR "/maps/demo.map"

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    ck_assert_int_eq((long)fread(s, 1, (size_t)n, f), n);
    fclose(f);
    return s;
}

/* The demo map with the lines that start with each of `drop` commented out. */
static void demo_without(pt_map *m, pt_patlib *lib, const char *const *drop, int ndrop) {
    char *s = read_all(DEMO);
    for (int i = 0; i < ndrop; i++) {
        char *p = strstr(s, drop[i]);
        ck_assert_ptr_nonnull(p);
        p[0] = '#';
    }
    pt_error err;
    ck_assert_int_eq(pt_map_parse(m, s, strlen(s), DEMO, &err), PT_OK);
    free(s);
    pt_patlib_init(lib);
    for (int i = 0; i < m->npattern_files; i++) ck_assert_int_eq(pt_patlib_load_map_file(lib, m, i, &err), PT_OK);
}

static char *trace(pt_world *w, int ticks, void (*between)(pt_world *, int)) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int t = 0; t < ticks; t++) {
        if (between) between(w, t);
        pt_world_step(w);
        pt_world_trace_rows(w, f);
    }
    fclose(f);
    return buf;
}

static const char GATE[] = "guard gate      at=52,8  pattern=gate_pace       view=6  fov=100 speed=2   chase=tile";
static const char CROWS[] = "flock crows at=46,10 count=7 kind=crow steering=crow";

/* The gate guard and the crows flock, declared last by the map or spawned before the first
 * step: the same ids, the same trace, byte for byte (the crows step in their crowd). */
START_TEST(spawned_like_declared) {
    pt_map full, part;
    pt_patlib lib_full, lib_part;
    demo_without(&full, &lib_full, NULL, 0);
    const char *drop[] = {"flock crows", "guard gate "};
    demo_without(&part, &lib_part, drop, 2);
    pt_world_desc d = {.seed = 7};
    pt_error err;
    pt_world *a = pt_world_create(&full, &lib_full, &d, &err);
    pt_world *b = pt_world_create(&part, &lib_part, &d, &err);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    int n = 0;
    int first = pt_world_spawn_line(b, CROWS, NULL, &n, &err);
    ck_assert_msg(first > 0, "%s", err.message);
    ck_assert_int_eq(n, 7);
    int gate = pt_world_spawn_line(b, GATE, NULL, &n, &err);
    ck_assert_msg(gate > 0, "%s", err.message);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(gate, first + 7);
    ck_assert_int_eq(pt_world_count(a), pt_world_count(b));
    char *ta = trace(a, 1500, NULL), *tb = trace(b, 1500, NULL);
    ck_assert_msg(strcmp(ta, tb) == 0, "the spawned world's trace differs");
    free(ta);
    free(tb);
    pt_world_destroy(a);
    pt_world_destroy(b);
    pt_patlib_fini(&lib_full);
    pt_patlib_fini(&lib_part);
    pt_map_fini(&full);
    pt_map_fini(&part);
}
END_TEST

static int find_event(const pt_world *w, pt_event_kind k, uint32_t a) {
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == k && ev[i].a == a) return 1;
    return 0;
}

static int trace_has_id(pt_world *w, int id) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pt_world_trace_rows(w, f);
    fclose(f);
    char key[32];
    snprintf(key, sizeof key, ",%d,", id);
    int found = 0;
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(strchr(line, ','), key, strlen(key)) == 0) found = 1;
    free(buf);
    return found;
}

/* Events come in the next step; a removed guard leaves the trace, pt_world_entity, the
 * search it was in (its share goes to the others) and never comes back; its id stays given. */
START_TEST(removed_vanish) {
    pt_map m;
    pt_patlib lib;
    demo_without(&m, &lib, NULL, 0);
    pt_world_desc d = {.seed = 3};
    pt_error err;
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    int n0 = pt_world_count(w);
    int id = pt_world_spawn_line(w, "guard extra at=10,37 chase=tile view=30 fov=360", NULL, NULL, &err);
    ck_assert_int_eq(id, n0);
    ck_assert_int_eq(find_event(w, PT_EVENT_SPAWNED, (uint32_t)id), 0);
    pt_world_step(w);
    ck_assert(find_event(w, PT_EVENT_SPAWNED, (uint32_t)id));
    /* four guards search together around the courtyard; remove three as they search */
    for (int i = 1; i <= 4; i++) {
        pt__search_send(w, &w->ents[i], (pt_cell){12, 12});
        ck_assert_int_eq(pt__search_join(w, &w->ents[i], (pt_cell){12, 12}), PT_OK);
    }
    w->phase = PT_PHASE_EVASION; /* a search runs while the guards evade */
    w->phase_ticks_left = 100000;
    ck_assert_int_eq(w->ents[1].state, PT_STATE_SEARCH);
    ck_assert(pt__search_knows(w, 1));
    int removed = 0;
    int searched = 0;
    for (int t = 0; t < 6000 && removed < 3; t++) {
        pt_world_step(w);
        for (int i = 1; i < pt_world_count(w); i++) searched += pt_world_entity(w, i) && pt_world_entity(w, i)->state == PT_STATE_SEARCH;
        for (int i = 1; i < pt_world_count(w) && removed < 3; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            if (!e || e->kind != PT_KIND_GUARD || e->state != PT_STATE_SEARCH || !pt__search_knows(w, i)) continue;
            ck_assert_int_eq(pt_world_remove(w, i), PT_OK);
            ck_assert_ptr_null(pt_world_entity(w, i));
            ck_assert(!pt__search_knows(w, i));
            ck_assert(!trace_has_id(w, i));
            ck_assert_int_eq(pt_world_remove(w, i), PT_ERR_RANGE);
            pt_world_step(w);
            ck_assert(find_event(w, PT_EVENT_REMOVED, (uint32_t)i));
            ck_assert(!trace_has_id(w, i));
            removed++;
        }
    }
    ck_assert_msg(removed == 3, "removed %d, %d search ticks", removed, searched);
    ck_assert_int_eq(pt_world_count(w), n0 + 1);
    ck_assert_int_eq(pt_world_remove(w, 0), PT_ERR_RANGE);
    int again = pt_world_spawn_line(w, "guard extra2 at=10,37", NULL, NULL, &err);
    ck_assert_int_eq(again, n0 + 1); /* never reused */
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Bad declarations: located errors, nothing changed. */
START_TEST(bad_spawns) {
    pt_map m;
    pt_patlib lib;
    demo_without(&m, &lib, NULL, 0);
    pt_error err;
    pt_world *w = pt_world_create(&m, &lib, NULL, &err);
    int n0 = pt_world_count(w);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard g at=2,37 speed=99", "s", NULL, &err), PT_ERR_RANGE);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, 23);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard g at=2,37 spead=2", "s", NULL, &err), PT_ERR_UNKNOWN_KEY);
    ck_assert_int_eq(err.col, 17);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard gate at=2,37", "s", NULL, &err), PT_ERR_DUPLICATE);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard g at=1,0", "s", NULL, &err), PT_ERR_NOT_WALKABLE);
    ck_assert_int_eq(err.col, 12);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard g at=99,0", "s", NULL, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_world_spawn_line(w, "guard g at=2,37 pattern=nope", "s", NULL, &err), PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(err.col, 25);
    ck_assert_str_eq(err.file, "s");
    ck_assert_int_eq(pt_world_spawn_line(w, "player at=2,37", "s", NULL, &err), PT_ERR_SYNTAX);
    ck_assert_int_eq(pt_world_spawn_line(w, "prey p at=2,37 steering=nope", "s", NULL, &err), PT_ERR_BAD_VALUE);
    pt_entity_def d = {.kind = PT_KIND_GUARD, .x = 2, .y = 37};
    ck_assert_int_eq(pt_world_spawn(w, &d, NULL, &err), PT_ERR_MISSING);
    snprintf(d.name, sizeof d.name, "ok");
    d.view_dist = -1;
    ck_assert_int_eq(pt_world_spawn(w, &d, NULL, &err), PT_ERR_RANGE);
    ck_assert_int_eq(pt_world_count(w), n0);
    d.view_dist = 0;
    ck_assert_int_eq(pt_world_spawn(w, &d, NULL, &err), n0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

enum { SIZE = 32, SEEDS = 12, OPS = 300 };

/* Every invariant after a random op: movers ascending and live, each live non-member entity
 * a mover, each live member in a crowd exactly once, no removed id in the search, callers or
 * listeners, the trace's rows the live ids. */
static void check_invariants(pt_world *w) {
    int live = 0, members = 0;
    for (int i = 0; i < w->n; i++) {
        int gone = w->gone && w->gone[i];
        ck_assert_int_eq(gone, w->ents[i].kind == PT_KIND_COUNT);
        ck_assert_int_eq(gone, pt_world_entity(w, i) == NULL);
        if (gone) {
            ck_assert(!pt__search_knows(w, i));
            continue;
        }
        live++;
        members += w->ents[i].kind == PT_KIND_BOID;
        if (w->ents[i].kind == PT_KIND_BOID) ck_assert_int_eq(w->boid_id[w->boid_slot[i]], i);
    }
    ck_assert_int_eq(members, w->nboids);
    ck_assert_int_eq(w->nmovers, live - 1 - members);
    for (int j = 0; j < w->nmovers; j++) {
        ck_assert(pt_world_entity(w, w->movers[j]) != NULL);
        if (j) ck_assert_int_lt(w->movers[j - 1], w->movers[j]);
    }
    for (int j = 0; j < w->nprey; j++) ck_assert_int_eq(w->ents[w->prey[j]].kind, PT_KIND_PREY);
    for (int j = 0; j < w->ncallers; j++) ck_assert(pt_world_entity(w, w->callers[j]) != NULL);
    for (int j = 0; j < w->nlisteners; j++) ck_assert(pt_world_entity(w, w->listeners[j].id) != NULL);
    for (int i = 0; i < w->n; i++) {
        const pt_entity *e = &w->ents[i];
        if (e->kind != PT_KIND_COUNT) ck_assert_ptr_eq(e->def, &w->defs[i]);
    }
}

static const char *PATS = "pattern sq\n  kind control\n  repeat 4\n    forward 3\n    right 90\n  end\n  at_end loop\nend\n"
                          "pattern walk\n  kind waypoints\n  points 0.5,0.5 3.5,0.5 3.5,3.5\n  closed yes\nend\n";

START_TEST(random_spawns_and_removes) {
    const uint64_t seed = (uint64_t)_i + 1;
    pt_map m;
    tu_corner_map(&m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    do {
        m.player.x = (int)pt_rng_below(&r, SIZE);
        m.player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(&m, m.player.x, m.player.y));
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    ck_assert_msg(pt_patlib_parse(&lib, PATS, strlen(PATS), "t.pat", &err) == PT_OK, "%s", err.message);
    pt_world_desc d = {.seed = seed, .player_controlled = 1, .threads = 1 + (int)(seed % 2)};
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int names = 0, stepped = 0;
    for (int op = 0; op < OPS; op++) {
        uint32_t what = pt_rng_below(&r, 10);
        if (what < 5) { /* spawn */
            pt_entity_def e = {0};
            do {
                e.x = (int)pt_rng_below(&r, SIZE);
                e.y = (int)pt_rng_below(&r, SIZE);
            } while (!pt_map_walkable(&m, e.x, e.y));
            snprintf(e.name, sizeof e.name, "e%d", names++);
            uint32_t k = pt_rng_below(&r, 6);
            e.kind = k < 3 ? PT_KIND_GUARD : k < 5 ? PT_KIND_PREY : PT_KIND_BOID;
            if (e.kind == PT_KIND_GUARD) {
                e.chase = (pt_chase)pt_rng_below(&r, PT_CHASE_COUNT);
                if (pt_rng_below(&r, 3)) snprintf(e.pattern, sizeof e.pattern, "%s", pt_rng_below(&r, 2) ? "sq" : "walk");
                e.view_dist = 12;
                e.view_angle_deg = 300;
            }
            if (e.kind == PT_KIND_BOID) e.count = 1 + (int)pt_rng_below(&r, 9);
            int n = 0, id = pt_world_spawn(w, &e, &n, &err);
            ck_assert_msg(id > 0, "%s", err.message);
            ck_assert_int_eq(id + n, pt_world_count(w));
        } else if (what < 8) { /* remove a live one */
            int tries = 0, id;
            do id = 1 + (int)pt_rng_below(&r, (uint32_t)(pt_world_count(w) - 1 > 0 ? pt_world_count(w) - 1 : 1));
            while (!pt_world_entity(w, id) && ++tries < 20 && pt_world_count(w) > 1);
            if (pt_world_entity(w, id)) ck_assert_int_eq(pt_world_remove(w, id), PT_OK);
        } else { /* steps, the player wandering */
            int ticks = 1 + (int)pt_rng_below(&r, 40);
            for (int t = 0; t < ticks; t++) {
                pt_world_set_input(w, (int)pt_rng_below(&r, 3) - 1, (int)pt_rng_below(&r, 3) - 1);
                int before[4096];
                int nb = 0;
                for (int i = 1; i < w->n && nb < 4096; i++)
                    if (pt_world_entity(w, i) && w->ents[i].kind != PT_KIND_PLAYER) before[nb++] = w->ents[i].state_ticks;
                pt_world_step(w);
                /* every live entity stepped: its tick count in its state went on or restarted */
                nb = 0;
                for (int i = 1; i < w->n && nb < 4096; i++) {
                    if (!pt_world_entity(w, i)) continue;
                    int was = before[nb++];
                    ck_assert_msg(w->ents[i].state_ticks == was + 1 || w->ents[i].state_ticks <= 1 || pt_world_round(w),
                                  "id %d did not step", i);
                }
                stepped++;
            }
        }
        check_invariants(w);
    }
    ck_assert_int_gt(stepped, 0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("spawn");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, spawned_like_declared);
    tcase_add_test(tc, removed_vanish);
    tcase_add_test(tc, bad_spawns);
    tcase_add_loop_test(tc, random_spawns_and_removes, 0, SEEDS);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
