/* SPDX-License-Identifier: Zlib */
/* check_render_doors - doors drawn by state (patrol/door.h): a world's open, closed and
 * locked doors drawn headless and read back. The open door is the `+` sprite as before (the
 * same pixels as a map without door declarations); closed and locked doors are the door
 * sprite tinted, each apart from the other two; a door the game closes is drawn closed at
 * once (the map layer follows the change). */
#include <check.h>

#include <SDL.h>

#include <stdio.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/render.h>
#include <patrol/world.h>

#include "test_util.h"

#define ASSETS PATROL_SOURCE_DIR "/assets"

static const char *MAP_TEXT = "player at=1,1\n"
                              "%s"
                              "grid\n"
                              "#########\n"
                              "#.+.+.+.#\n"
                              "#########\n"
                              "end\n";

static pt_world *world_of(pt_map *m, const char *doors) {
    char text[512];
    snprintf(text, sizeof text, MAP_TEXT, doors);
    pt_error err;
    ck_assert_int_eq(pt_map_parse(m, text, strlen(text), "doors.map", &err), PT_OK);
    pt_world_desc d = {0};
    d.player_controlled = 1;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

static SDL_Surface *draw(const pt_map *m) {
    pt_scene s = {.map = m};
    pt_view v = {0};
    v.scale = 1;
    long w, h;
    pt_view_map_size(m, 1, &w, &h);
    pt_error err;
    SDL_Surface *out = pt_render_surface(&s, &v, (int)w, (int)h, ASSETS, &err);
    ck_assert_msg(out != NULL, "render failed: %s", err.message);
    return out;
}

/* 1 when the 16x16 tiles (ax, 1) of a and (bx, 1) of b have the same pixels. */
static int same_tile(SDL_Surface *a, int ax, SDL_Surface *b, int bx) {
    for (int y = 16; y < 32; y++)
        for (int x = 0; x < 16; x++) {
            const Uint32 *pa = (const Uint32 *)((const Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch);
            const Uint32 *pb = (const Uint32 *)((const Uint8 *)b->pixels + (size_t)y * (size_t)b->pitch);
            if (pa[ax * 16 + x] != pb[bx * 16 + x]) return 0;
        }
    return 1;
}

START_TEST(test_doors_drawn_by_state) {
    pt_map plain, m;
    pt_world *pw = world_of(&plain, "");
    pt_world *w = world_of(&m, "door 4,1 closed\ndoor 6,1 locked\n");
    SDL_Surface *before = draw(pt_world_map(pw)), *img = draw(pt_world_map(w));
    ck_assert(same_tile(img, 2, before, 2));  /* open: the `+` as it always was */
    ck_assert(!same_tile(img, 4, before, 4)); /* closed: tinted */
    ck_assert(!same_tile(img, 6, before, 6)); /* locked: tinted */
    ck_assert(!same_tile(img, 4, img, 6));    /* closed and locked apart */
    ck_assert(same_tile(img, 1, before, 1) && same_tile(img, 7, before, 7)); /* the rest unchanged */
    /* The game closes the first door: drawn as the other closed one at once. */
    pt_error err;
    ck_assert_int_eq(pt_world_set_door(w, 2, 1, PT_DOOR_CLOSED, &err), PT_OK);
    SDL_Surface *after = draw(pt_world_map(w));
    ck_assert(same_tile(after, 2, img, 4));
    ck_assert_int_eq(pt_world_set_door(w, 6, 1, PT_DOOR_OPEN, &err), PT_OK);
    SDL_Surface *opened = draw(pt_world_map(w));
    ck_assert(same_tile(opened, 6, before, 6));
    SDL_FreeSurface(before);
    SDL_FreeSurface(img);
    SDL_FreeSurface(after);
    SDL_FreeSurface(opened);
    pt_world_destroy(pw);
    pt_world_destroy(w);
    pt_map_fini(&plain);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("render_doors");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_doors_drawn_by_state);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
