/* SPDX-License-Identifier: Zlib */
/* pt_world_set_tile on door cells (docs/ai.md, "Doors"): a door cell set to another kind is a
 * door no more, a cell set to a door kind becomes one (its state its kind's). Random changes
 * of the door cells and the cells near them, mixed with steps and the game's door calls:
 * the door list always that of the tiles and of a world made fresh from the changed map,
 * every guard's door key on a door (its pause at one beside it), every door a guard opens or
 * closes beside it, a save that continues exactly, and guards that still open their doors. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/rng.h>
#include <patrol/save.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "guards/door_path.h"
#include "state/world_state.h"
#include "test_util.h"

/* Three rooms in a row, doors between them; guard a walks through both doors and closes the
 * first behind it, guard b walks up and down the middle room. The player sits in a pocket of
 * its own (nobody sees it). */
static const char MAP[] = "tile . floor walkable\n"
                          "tile D door_closed opaque\n"
                          "tile L door_locked opaque\n"
                          "player at=15,2\n"
                          "door 5,3 closed closes\n"
                          "door 10,3 closed\n"
                          "guard a at=2,3 pattern=across speed=4\n"
                          "guard b at=7,1 pattern=updown speed=3\n"
                          "grid\n"
                          "#################\n"
                          "#....#....#...###\n"
                          "#....#....#...#.#\n"
                          "#....+....+...###\n"
                          "#....#....#...###\n"
                          "#....#....#...###\n"
                          "#################\n"
                          "end\n";
static const char PATS[] = "pattern across\n  kind path\n  points 2,3 12,3\nend\n"
                           "pattern updown\n  kind path\n  points 7,1 7,5\nend\n";

/* The cells the test changes: the two door columns and two floor cells on the rounds. */
static const pt_cell CELLS[] = {{5, 1}, {5, 2}, {5, 3}, {5, 4}, {5, 5}, {10, 1}, {10, 2},
                                {10, 3}, {10, 4}, {10, 5}, {7, 3}, {3, 3}};
#define NCELLS ((int)(sizeof CELLS / sizeof CELLS[0]))
static const char KINDS[] = ".#+DL";

static void setup(pt_map *m, pt_patlib *lib) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, MAP, strlen(MAP), "tiles.map", &err) == PT_OK, "%d:%d %s", err.line, err.col,
                  err.message);
    pt_patlib_init(lib);
    ck_assert_msg(pt_patlib_parse(lib, PATS, strlen(PATS), "tiles.pat", &err) == PT_OK, "%s", err.message);
}

static int kind_state(const pt_tile_def *t) {
    static const char *const names[] = {"door", "door_closed", "door_locked"};
    for (int s = 0; s < 3; s++)
        if (strcmp(t->name, names[s]) == 0) return s;
    return -1;
}

/* Whether the map declares `closes` for cell (x, y). */
static int declared_closes(const pt_map *m, int x, int y) {
    for (int i = 0; i < m->ndoors; i++)
        if (m->doors[i].x == x && m->doors[i].y == y) return m->doors[i].closes;
    return 0;
}

/* The world's door list is exactly the cells of a door kind, by row then column, each in its
 * kind's state. */
static void check_list(const pt_world *w, const char *when) {
    const pt_map *m = pt_world_map(w);
    pt_door got[64];
    int n = pt_world_doors(w, got, 64), k = 0;
    ck_assert_int_le(n, 64);
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            int s = kind_state(pt_map_tile(m, x, y));
            if (s < 0) {
                ck_assert_msg(pt_world_door(w, x, y) == -1, "%s: %d,%d is no door, pt_world_door says %d", when, x, y,
                              pt_world_door(w, x, y));
                continue;
            }
            ck_assert_msg(k < n, "%s: door %d,%d missing from the list", when, x, y);
            ck_assert_msg(got[k].x == x && got[k].y == y && (int)got[k].state == s &&
                              got[k].closes == declared_closes(m, x, y),
                          "%s: door %d is %d,%d state %d closes %d, the tiles say %d,%d state %d", when, k, got[k].x,
                          got[k].y, got[k].state, got[k].closes, x, y, s);
            ck_assert_int_eq(pt_world_door(w, x, y), s);
            k++;
        }
    ck_assert_msg(k == n, "%s: %d doors listed, %d on the tiles", when, n, k);
}

/* Every key a guard holds names a door; the door it pauses at is beside it. */
static void check_keys(const pt_world *w, const char *when) {
    for (int i = 1; i < w->n; i++) {
        const pt__brain *b = &w->brains[i];
        const pt_entity *e = &w->ents[i];
        if (b->door_opening) {
            int k = pt__door_of_key(w, b->door_opening);
            ck_assert_msg(k >= 0, "%s: guard %d pauses at no door", when, i);
            ck_assert_msg(abs(w->doors[k].x - e->x) <= 1 && abs(w->doors[k].y - e->y) <= 1,
                          "%s: guard %d at %d,%d pauses at the door %d,%d", when, i, e->x, e->y, w->doors[k].x,
                          w->doors[k].y);
        }
        if (b->door_close) ck_assert_msg(pt__door_of_key(w, abs(b->door_close)) >= 0, "%s: guard %d closes no door", when, i);
        for (int j = 0; j < PT__DOOR_KNOWN; j++)
            if (b->door_known[j]) ck_assert_msg(pt__door_of_key(w, b->door_known[j]) >= 0, "%s: guard %d knows no door", when, i);
    }
}

/* One step: every door a guard opens or closes is a door beside it (and one it opens was
 * closed). Returns the doors guard `who` opened. */
static int step_checked(pt_world *w, int who) {
    int before[7][17];
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 17; x++) before[y][x] = pt_world_door(w, x, y);
    pt_world_step(w);
    int n = 0, opened = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = 0; k < n; k++) {
        if (ev[k].kind != PT_EVENT_DOOR || ev[k].a == 0 || ev[k].a == PT_DOOR_BY_GAME) continue;
        const pt_entity *g = pt_world_entity(w, (int)ev[k].a);
        ck_assert_ptr_nonnull(g);
        ck_assert_msg(abs(g->x - ev[k].x) <= 1 && abs(g->y - ev[k].y) <= 1, "tick %llu: guard %u at %d,%d changed door %d,%d",
                      (unsigned long long)pt_world_tick(w), ev[k].a, g->x, g->y, ev[k].x, ev[k].y);
        ck_assert_int_ge(before[ev[k].y][ev[k].x], 0);
        if (ev[k].b == PT_DOOR_OPEN) ck_assert_int_eq(before[ev[k].y][ev[k].x], PT_DOOR_CLOSED);
        opened += ev[k].b == PT_DOOR_OPEN && (int)ev[k].a == who;
    }
    check_keys(w, "after a step");
    return opened;
}

/* A world made fresh from w's map as it is now (its `door` lines with the states the door
 * cells have, the lines of cells no longer doors dropped) lists the same doors. */
static void check_fresh(const pt_world *w, const pt_patlib *lib) {
    pt_map m;
    ck_assert_int_eq(pt_map_clone(&m, pt_world_map(w)), PT_OK);
    int n = 0;
    for (int i = 0; i < m.ndoors; i++) {
        int s = kind_state(pt_map_tile(&m, m.doors[i].x, m.doors[i].y));
        if (s < 0) continue;
        m.doors[n] = m.doors[i];
        m.doors[n++].state = (pt_door_state)s;
    }
    m.ndoors = n;
    pt_world_desc d = {.seed = 3};
    pt_error err;
    pt_world *f = pt_world_create(&m, lib, &d, &err);
    ck_assert_msg(f != NULL, "fresh world: %s", err.message);
    pt_door a[64], b[64];
    int na = pt_world_doors(w, a, 64), nb = pt_world_doors(f, b, 64);
    ck_assert_int_eq(na, nb);
    for (int i = 0; i < na; i++)
        ck_assert_msg(a[i].x == b[i].x && a[i].y == b[i].y && a[i].state == b[i].state && a[i].closes == b[i].closes,
                      "door %d: %d,%d state %d closes %d, fresh %d,%d state %d closes %d", i, a[i].x, a[i].y, a[i].state,
                      a[i].closes, b[i].x, b[i].y, b[i].state, b[i].closes);
    pt_world_destroy(f);
    pt_map_fini(&m);
}

/* What a step shows: the trace rows, the events and the doors. */
static char *step_text(pt_world *w) {
    pt_world_step(w);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    pt_world_trace_rows(w, f);
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++) fprintf(f, "event %d %u %u %d %d\n", ev[i].kind, ev[i].a, ev[i].b, ev[i].x, ev[i].y);
    pt_door doors[64];
    int nd = pt_world_doors(w, doors, 64);
    for (int i = 0; i < nd && i < 64; i++) fprintf(f, "%d,%d:%d ", doors[i].x, doors[i].y, doors[i].state);
    fclose(f);
    return buf;
}

/* A save of w loads into a world that lists the same doors and keys and continues exactly. */
static void check_save(const pt_world *w, const pt_map *m, const pt_patlib *lib) {
    void *data;
    size_t size;
    pt_error err;
    ck_assert_msg(pt_world_save(w, "test", &data, &size, &err) == PT_OK, "%s", err.message);
    pt_world *a = pt_world_load(data, size, m, lib, NULL, &err);
    ck_assert_msg(a != NULL, "load: %s", err.message);
    pt_world *b = pt_world_load(data, size, m, lib, NULL, &err);
    ck_assert_ptr_nonnull(b);
    pt_world_save_free(data);
    check_list(a, "loaded");
    for (int i = 1; i < w->n; i++) {
        ck_assert_int_eq(a->brains[i].door_opening, w->brains[i].door_opening);
        ck_assert_int_eq(a->brains[i].door_close, w->brains[i].door_close);
        for (int j = 0; j < PT__DOOR_KNOWN; j++) ck_assert_int_eq(a->brains[i].door_known[j], w->brains[i].door_known[j]);
    }
    /* b goes on from the save too: a and b step alike (a third copy would be w itself, which
     * the caller goes on with) */
    for (int t = 0; t < 60; t++) {
        char *sa = step_text(a), *sb = step_text(b);
        ck_assert_msg(strcmp(sa, sb) == 0, "loaded copies differ %d ticks on:\n%s\n%s", t + 1, sa, sb);
        free(sa);
        free(sb);
    }
    pt_world_destroy(a);
    pt_world_destroy(b);
}

START_TEST(test_set_tile_on_door_cells) {
    pt_map m;
    pt_patlib lib;
    setup(&m, &lib);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_world_desc d = {.seed = seed};
        d.player_controlled = 1;
        pt_error err;
        pt_world *w = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        pt_rng r;
        pt_rng_seed(&r, seed, 38);
        check_list(w, "created");
        int changes = 0;
        for (int it = 0; it < 1500; it++) {
            if (pt_rng_below(&r, 3) == 0) {
                pt_cell c = CELLS[pt_rng_below(&r, NCELLS)];
                char tile = KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))];
                int was = pt_world_door(w, c.x, c.y);
                ck_assert_int_eq(pt_world_set_tile(w, c.x, c.y, tile, &err), PT_OK);
                changes += was != pt_world_door(w, c.x, c.y);
                check_list(w, "set_tile");
                check_keys(w, "set_tile");
            } else if (pt_rng_below(&r, 4) == 0) {
                pt_door all[64];
                int n = pt_world_doors(w, all, 64);
                if (n > 0) {
                    const pt_door *dd = &all[pt_rng_below(&r, (uint32_t)n)];
                    ck_assert_int_eq(pt_world_set_door(w, dd->x, dd->y, (pt_door_state)pt_rng_below(&r, 3), &err), PT_OK);
                    check_list(w, "set_door");
                }
            }
            for (int k = 1 + (int)pt_rng_below(&r, 4); k > 0; k--) step_checked(w, -1);
            check_list(w, "a step");
            if (it % 250 == 249) {
                check_fresh(w, &lib);
                check_save(w, &m, &lib);
            }
        }
        ck_assert_int_gt(changes, 100);
        /* The rounds as drawn again, and guard a back on its round (a guard walled in away
         * from it stands idle: sent to its start, the doors open); then both doors closed:
         * guard a opens each on its way and walks the whole round. */
        const pt_map *wm = pt_world_map(w);
        for (int i = 0; i < NCELLS; i++) {
            char ch = pt_map_tile(&m, CELLS[i].x, CELLS[i].y)->ch;
            ck_assert_int_eq(pt_world_set_tile(w, CELLS[i].x, CELLS[i].y, ch, &err), PT_OK);
            ck_assert_int_eq(pt_map_tile(wm, CELLS[i].x, CELLS[i].y)->ch, ch);
        }
        check_list(w, "restored");
        ck_assert_int_eq(pt_world_order_goto(w, 1, 2, 3), PT_OK);
        for (int t = 0; t < 3000 && (w->brains[1].order || pt_world_entity(w, 1)->state != PT_STATE_PATROL); t++)
            step_checked(w, -1);
        ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_PATROL);
        ck_assert_int_eq(pt_world_set_door(w, 5, 3, PT_DOOR_CLOSED, &err), PT_OK);
        ck_assert_int_eq(pt_world_set_door(w, 10, 3, PT_DOOR_CLOSED, &err), PT_OK);
        int opened = 0, west = 0, east = 0;
        for (int t = 0; t < 1800; t++) {
            opened += step_checked(w, 1);
            const pt_entity *a = pt_world_entity(w, 1);
            west |= a->x <= 2;
            east |= a->x >= 12;
        }
        ck_assert_msg(opened >= 2 && west && east, "seed %llu: guard a opened %d doors, west %d east %d",
                      (unsigned long long)seed, opened, west, east);
        pt_world_destroy(w);
    }
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A map with no door cell (its legend has the door kind): the first door set by
 * pt_world_set_tile adds the closed and locked kinds a created world would, and a save of the
 * world with that door closed loads. */
START_TEST(test_first_door_at_runtime) {
    static const char text[] = "tile . floor walkable\nplayer at=1,1\nguard g at=1,3 pattern=line\ngrid\n"
                               "#######\n#.....#\n###.###\n#.....#\n#######\nend\n";
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert(pt_map_parse(&m, text, strlen(text), "first.map", &err) == PT_OK);
    pt_patlib_init(&lib);
    const char *pats = "pattern line\n  kind path\n  points 1,3 5,3\nend\n";
    ck_assert(pt_patlib_parse(&lib, pats, strlen(pats), "first.pat", &err) == PT_OK);
    pt_world_desc d = {.seed = 2};
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(pt_world_doors(w, NULL, 0), 0);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 2, '+', &err), PT_OK);
    ck_assert_int_eq(pt_world_doors(w, NULL, 0), 1);
    ck_assert_int_eq(pt_world_door(w, 3, 2), PT_DOOR_OPEN);
    ck_assert_int_eq(pt_world_set_door(w, 3, 2, PT_DOOR_LOCKED, &err), PT_OK);
    check_list(w, "locked");
    for (int t = 0; t < 20; t++) pt_world_step(w);
    check_save(w, &m, &lib);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 2, '.', &err), PT_OK);
    ck_assert_int_eq(pt_world_doors(w, NULL, 0), 0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *door_tiles_suite(void) {
    Suite *s = suite_create("door_tiles");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_set_tile_on_door_cells);
    tcase_add_test(tc, test_first_door_at_runtime);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(door_tiles_suite()); }
