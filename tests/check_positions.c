/* SPDX-License-Identifier: Zlib */
/* pt_world_positions (world.h): every live entity's id, cell and position in one call agree
 * with pt_world_entity, tick after tick, on the shipped maps and with entities spawned and
 * removed; max, NULL arrays and the count returned behave as documented. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "test_util.h"

enum { CAP = 256 };

static void load(pt_map *m, pt_patlib *lib, const char *path) {
    pt_error err;
    ck_assert_int_eq(pt_map_load(m, path, &err), PT_OK);
    pt_patlib_init(lib);
    for (int i = 0; i < m->npattern_files; i++) ck_assert_int_eq(pt_patlib_load_map_file(lib, m, i, &err), PT_OK);
}

/* The arrays against the getters: the live ids in order, each one's cell and position. */
static void agree(const pt_world *w) {
    uint32_t ids[CAP];
    int cells[2 * CAP];
    double pos[2 * CAP];
    memset(ids, 0xAB, sizeof ids);
    int n = pt_world_positions(w, ids, cells, pos, CAP);
    ck_assert_int_le(n, CAP);
    int k = 0;
    for (int id = 0; id < pt_world_count(w); id++) {
        const pt_entity *e = pt_world_entity(w, id);
        if (!e) continue;
        ck_assert_int_lt(k, n);
        ck_assert_uint_eq(ids[k], (uint32_t)id);
        ck_assert_int_eq(cells[2 * k], e->x);
        ck_assert_int_eq(cells[2 * k + 1], e->y);
        ck_assert(pos[2 * k] == e->px && pos[2 * k + 1] == e->py);
        k++;
    }
    ck_assert_int_eq(k, n);
    ck_assert_uint_eq(ids[n], 0xABABABABu); /* nothing written past the live ones */
}

/* Every shipped .map, two seeds, 300 ticks: the arrays agree with the entities every tick. */
START_TEST(agrees_with_the_entities) {
    static const char *maps[] = {"demo", "abbey", "fort", "cellars"};
    for (unsigned m = 0; m < sizeof maps / sizeof *maps; m++) {
        char path[512];
        snprintf(path, sizeof path, "%s/maps/%s.map", PATROL_SOURCE_DIR, maps[m]);
        pt_map map;
        pt_patlib lib;
        load(&map, &lib, path);
        for (uint64_t seed = 1; seed <= 2; seed++) {
            pt_world_desc d = {.seed = seed};
            pt_error err;
            pt_world *w = pt_world_create(&map, &lib, &d, &err);
            ck_assert_ptr_nonnull(w);
            ck_assert_int_eq(pt_world_positions(w, NULL, NULL, NULL, 0), pt_world_count(w));
            for (int t = 0; t < 300; t++) {
                pt_world_step(w);
                agree(w);
            }
            pt_world_destroy(w);
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&map);
    }
}
END_TEST

/* Removed entities leave the arrays, spawned ones join at their ids; max cuts the writing,
 * not the count; NULL arrays are skipped. */
START_TEST(spawn_remove_and_max) {
    pt_map map;
    pt_patlib lib;
    load(&map, &lib, PATROL_SOURCE_DIR "/maps/demo.map");
    pt_error err;
    pt_world *w = pt_world_create(&map, &lib, NULL, &err);
    ck_assert_ptr_nonnull(w);
    int all = pt_world_count(w);
    ck_assert_int_ge(all, 4);
    ck_assert_int_eq(pt_world_remove(w, 2), PT_OK);
    ck_assert_int_eq(pt_world_positions(w, NULL, NULL, NULL, 0), all - 1);
    agree(w);
    int n = 0;
    ck_assert_int_eq(pt_world_spawn_line(w, "guard extra at=10,37 pattern=yard_snake", NULL, &n, &err), all);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(pt_world_positions(w, NULL, NULL, NULL, 0), all);
    agree(w);
    for (int t = 0; t < 60; t++) {
        pt_world_step(w);
        agree(w);
    }
    uint32_t ids[3] = {7, 7, 7};
    double pos[6];
    pos[4] = -1.0;
    ck_assert_int_eq(pt_world_positions(w, ids, NULL, pos, 2), all);
    ck_assert_uint_eq(ids[0], 0);
    ck_assert_uint_eq(ids[1], 1);
    ck_assert_uint_eq(ids[2], 7);
    ck_assert(pos[4] == -1.0);
    ck_assert(pos[0] == pt_world_entity(w, 0)->px && pos[3] == pt_world_entity(w, 1)->py);
    ck_assert_int_eq(pt_world_positions(w, ids, NULL, NULL, -5), all);
    ck_assert_uint_eq(ids[0], 0);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

int main(void) {
    Suite *s = suite_create("positions");
    TCase *tc = tcase_create("positions");
    tcase_add_test(tc, agrees_with_the_entities);
    tcase_add_test(tc, spawn_remove_and_max);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
