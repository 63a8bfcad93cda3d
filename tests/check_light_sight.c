/* SPDX-License-Identifier: Zlib */
/* Lanterns (docs/ai.md, "Light": "Lanterns"), by hand: the cells a bearer's cone lights,
 * 1 - d / R, none behind it, beside it or on a wall. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/light.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "test_util.h"

#define PI 3.14159265358979323846
#define ONE 4096 /* light units: a tile's light is kept in 1/4096ths */

/* Lanterns: the bearer's own cell and what its cone holds within R, never behind it or
 * through a wall; 1 - d / R. */
START_TEST(test_lantern_by_hand) {
    static const char text[] = "player at=1,1\nguard g at=4,3 heading=0 view=8 fov=90 hearing=256\ngrid\n"
                               "############\n#..........#\n#..........#\n#..........#\n#......#...#\n#..........#\n"
                               "############\nend\n";
    pt_map m;
    pt_error err;
    ck_assert(pt_map_parse(&m, text, strlen(text), "lantern.map", &err) == PT_OK);
    m.ambient = 0.0;
    m.ambient_set = 1;
    m.ents[0].lantern = 4.0;
    pt_world_desc d = {.seed = 1, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, NULL, &d, &err);
    ck_assert(w != NULL);
    const struct { int x, y; double l; } cells[] = {
        {4, 3, 1.0},  {5, 3, 0.75}, {6, 3, 0.5}, {7, 3, 0.25}, {8, 3, 0.0},  /* along the heading, d < R */
        {3, 3, 0.0},  {4, 2, 0.0},                                          /* behind, beside: out of the cone */
        {5, 4, 1.0 - sqrt(2.0) / 4.0}, {6, 5, 1.0 - sqrt(8.0) / 4.0},       /* the cone's edge (45 degrees) */
        {6, 4, 1.0 - sqrt(5.0) / 4.0}, {7, 4, 0.0},                         /* in the cone; the wall itself */
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        double want = floor(cells[i].l * ONE + 0.5) / ONE;
        ck_assert_msg(fabs(pt_world_light_at(w, cells[i].x, cells[i].y) - want) < 1e-12, "cell %d,%d: %g, expected %g",
                      cells[i].x, cells[i].y, pt_world_light_at(w, cells[i].x, cells[i].y), want);
        ck_assert(pt_world_light_static(w, cells[i].x, cells[i].y) == 0.0);
    }
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

int main(void) {
    Suite *s = suite_create("light_sight");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_lantern_by_hand);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
