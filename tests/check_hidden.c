/* SPDX-License-Identifier: Zlib */
/* pt_world_player_hidden: the game's "hidden" cue read back from sight (docs/ai.md, bushes).
 * By hand: a bush hides from a guard 3 tiles off and not from one beside it; the open never
 * hides. Over generated maps of bushes, walls and trees, many seeds and a wandering player,
 * checked each tick against what the guards remember: hidden exactly when the player stands
 * on an opaque cell and no guard's "seen" memory was written in that step. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/world.h>

#include "test_util.h"

static pt_world *world_of(pt_map *m, const char *text, uint64_t seed) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, strlen(text), "hidden.map", &err) == PT_OK, "%s", err.message);
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The player in a bush at 4,2; a guard facing it from 3 tiles west, or from beside it. */
START_TEST(test_bush_by_hand) {
    static const char *const far =
        "player at=4,2\nguard g at=1,2 heading=0 view=8 fov=90\ngrid\n"
        "#######\n#.....#\n#...*.#\n#.....#\n#######\nend\n";
    static const char *const near =
        "player at=4,2\nguard g at=3,2 heading=0 view=8 fov=90\ngrid\n"
        "#######\n#.....#\n#...*.#\n#.....#\n#######\nend\n";
    static const char *const open =
        "player at=4,2\nguard g at=1,2 heading=0 view=8 fov=90\ngrid\n"
        "#######\n#.....#\n#.....#\n#.....#\n#######\nend\n";
    static const char *const alone =
        "player at=4,2\nguard g at=1,2 heading=180 view=8 fov=90\ngrid\n"
        "#######\n#.....#\n#.....#\n#.....#\n#######\nend\n";
    const struct { const char *text; int hidden; } cases[] = {{far, 1}, {near, 0}, {open, 0}, {alone, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt_map m;
        pt_world *w = world_of(&m, cases[i].text, 1);
        for (int t = 0; t < 30; t++) {
            pt_world_step(w);
            ck_assert_msg(pt_world_player_hidden(w) == cases[i].hidden, "case %zu tick %d", i, t);
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(pt_world_player_hidden(NULL), 0);
}
END_TEST

/* 1 when some guard's "seen" memory was written in the last step. */
static int seen_this_step(const pt_world *w) {
    for (int i = 1; i < pt_world_count(w); i++) {
        if (pt_world_entity(w, i)->kind != PT_KIND_GUARD) continue;
        pt_memory mem[PT_MEMORY_COUNT];
        int n = pt_world_guard_memory(w, i, mem, PT_MEMORY_COUNT);
        for (int k = 0; k < n; k++)
            if (mem[k].kind == PT_MEMORY_SEEN && mem[k].tick == pt_world_tick(w)) return 1;
    }
    return 0;
}

START_TEST(test_generated_maps) {
    enum { W = 22, H = 14 };
    long hidden = 0, cover_seen = 0, open_ticks = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 77);
        char grid[H][W + 1];
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int edge = x == 0 || y == 0 || x == W - 1 || y == H - 1;
                unsigned k = pt_rng_below(&r, 100);
                grid[y][x] = edge ? '#' : k < 30 ? '*' : k < 36 ? '#' : k < 40 ? 'T' : '.';
            }
            grid[y][W] = '\0';
        }
        grid[1][1] = '.';
        char text[8192];
        size_t n = (size_t)snprintf(text, sizeof text, "player at=1,1\n");
        for (int g = 0; g < 3; g++) {
            int x, y;
            do {
                x = 1 + (int)pt_rng_below(&r, W - 2);
                y = 1 + (int)pt_rng_below(&r, H - 2);
            } while (grid[y][x] != '.' || (x < 4 && y < 4));
            n += (size_t)snprintf(text + n, sizeof text - n, "guard g%d at=%d,%d heading=%d view=%d fov=%d aware_rate=0.2\n",
                                  g, x, y, (int)pt_rng_below(&r, 360), 4 + (int)pt_rng_below(&r, 8),
                                  60 + (int)pt_rng_below(&r, 240));
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "grid\n");
        for (int y = 0; y < H; y++) n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", grid[y]);
        n += (size_t)snprintf(text + n, sizeof text - n, "end\n");
        ck_assert(n < sizeof text);
        pt_map m;
        pt_world *w = world_of(&m, text, seed);
        int dx = 0, dy = 0;
        for (int t = 0; t < 900; t++) {
            if (t % 20 == 0) {
                dx = (int)pt_rng_below(&r, 3) - 1;
                dy = (int)pt_rng_below(&r, 3) - 1;
                pt_world_set_input(w, dx, dy);
            }
            pt_world_step(w);
            const pt_entity *p = pt_world_entity(w, 0);
            int cover = pt_map_opaque(&m, (int)floor(p->px), (int)floor(p->py));
            int seen = seen_this_step(w);
            int h = pt_world_player_hidden(w);
            ck_assert_msg(h == (cover && !seen), "seed %llu tick %d: hidden %d, cover %d, seen %d",
                          (unsigned long long)seed, t, h, cover, seen);
            /* hidden only where the player can stand: a bush, never a wall or a tree */
            if (h) ck_assert(pt_map_walkable(&m, (int)floor(p->px), (int)floor(p->py)));
            hidden += h;
            cover_seen += cover && seen;
            open_ticks += !cover;
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    /* every outcome happened: the test looked at each case */
    ck_assert_msg(hidden > 1000 && cover_seen > 20 && open_ticks > 1000, "hidden %ld, seen in cover %ld, open %ld", hidden,
                  cover_seen, open_ticks);
}
END_TEST

int main(void) {
    Suite *s = suite_create("hidden");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_bush_by_hand);
    tcase_add_test(tc, test_generated_maps);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
