/* SPDX-License-Identifier: Zlib */
/* check_render_world - drawing a running world: many frames with every overlay, actors
 * placed where the world says, and drawing never changes the simulation. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>

#include <SDL.h>

#include <patrol/hearing.h>
#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/search.h>
#include <patrol/spawn.h>
#include <patrol/rng.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASSETS PATROL_SOURCE_DIR "/assets"

static const char *map_text = "format 1\n"
                              "player at=2,9 heading=0\n"
                              "guard loop at=3,2 pattern=box\n"
                              "guard walker at=12,6 pattern=web\n"
                              "guard turner at=8,8 pattern=turns\n"
                              "prey hen at=15,9\n"
                              "flock crows at=14,2 kind=crow count=3\n"
                              "grid\n"
                              "####################\n"
                              "#..................#\n"
                              "#..................#\n"
                              "#...####.....~~....#\n"
                              "#............~~....#\n"
                              "#.......*..........#\n"
                              "#..................#\n"
                              "#....#.............#\n"
                              "#....#.............#\n"
                              "#..................#\n"
                              "#..................#\n"
                              "####################\n"
                              "end\n";

static const char *pat_text = "pattern box\n"
                              "  kind path\n"
                              "  points 3,2 10,2 10,8 3,8 3,2\n"
                              "end\n"
                              "pattern web\n"
                              "  kind matrix\n"
                              "  segments 12,6 17,6 17,10 12,10 12,6\n"
                              "end\n"
                              "pattern turns\n"
                              "  kind control\n"
                              "  heading 0\n"
                              "  repeat 4\n"
                              "    forward 2\n"
                              "    right 90\n"
                              "  end\n"
                              "end\n";

typedef struct fixture {
    pt_map map;
    pt_patlib lib;
    pt_world *world;
} fixture;

static void setup(fixture *f) {
    pt_error err;
    ck_assert_msg(pt_map_parse(&f->map, map_text, strlen(map_text), "world.map", &err) == PT_OK, "map: %d:%d %s",
                  err.line, err.col, err.message);
    pt_patlib_init(&f->lib);
    ck_assert_msg(pt_patlib_parse(&f->lib, pat_text, strlen(pat_text), "world.pat", &err) == PT_OK,
                  "patterns: %d:%d %s", err.line, err.col, err.message);
    pt_world_desc desc = {.player_controlled = 1, .end_round_on_catch = 0};
    f->world = pt_world_create(&f->map, &f->lib, &desc, &err);
    ck_assert_msg(f->world != NULL, "world: %d:%d %s", err.line, err.col, err.message);
}

static void teardown(fixture *f) {
    pt_world_destroy(f->world);
    pt_patlib_fini(&f->lib);
    pt_map_fini(&f->map);
}

/* Player input for tick t: a fixed walk, so guards have someone to see and chase. */
static void input_for(pt_world *w, int t) {
    static const int dirs[4][2] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
    int k = (t / 90) % 4;
    pt_world_set_input(w, dirs[k][0], dirs[k][1]);
}

START_TEST(test_world_frames) {
    fixture f;
    setup(&f);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 400, 300, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_error err;
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    int n = pt_world_count(f.world);
    ck_assert_int_ge(n, 7);
    pt_actor *a = calloc((size_t)n, sizeof *a);
    int fails = 0, misplaced = 0, bad_count = 0, kinds_bad = 0, jumps = 0, catches = 0;
    double last_x = NAN, last_y = NAN;
    /* Every tile mover glides too: drawn at alpha 0, it moves at most its (chase) speed per
     * tick (except the tick after a catch, which resets the round). Regression: a guard that
     * stopped mid-step (suspicious, search) used to be drawn jumping to the end of its step. */
    double *gx = calloc((size_t)n, sizeof *gx), *gy = calloc((size_t)n, sizeof *gy);
    int *gtile = calloc((size_t)n, sizeof *gtile);
    int guard_jumps = 0, caught = 0;
    for (int t = 0; t < 300; t++) {
        input_for(f.world, t);
        pt_world_step(f.world);
        /* The player glides: drawn at the same point in each tick, it never moves more than
         * its speed allows in one tick (except the tick after a catch, which sends it back to
         * the start). */
        pt_render_actors_from_world(f.world, 0.0, a, n);
        int nev = 0, was_caught = caught;
        caught = 0;
        const pt_event *ev = pt_world_events(f.world, &nev);
        for (int i = 0; i < nev; i++) caught |= ev[i].kind == PT_EVENT_CAUGHT;
        catches += caught;
        double step = pt_world_entity(f.world, 0)->speed * pt_world_dt(f.world);
        if (!was_caught && t > 0) jumps += hypot(a[0].x - last_x, a[0].y - last_y) > step + 1e-9;
        last_x = a[0].x;
        last_y = a[0].y;
        for (int i = 1; i < n; i++) {
            const pt_entity *e = pt_world_entity(f.world, i);
            int tile = e->motion == PT_MOTION_TILE;
            double lim = e->speed * 1.3 * sqrt(2.0) * pt_world_dt(f.world) + 1e-9; /* diagonal steps */
            if (t > 0 && !was_caught && tile && gtile[i] && hypot(a[i].x - gx[i], a[i].y - gy[i]) > lim) guard_jumps++;
            gx[i] = a[i].x;
            gy[i] = a[i].y;
            gtile[i] = tile;
        }
        { /* one frame per tick, at varying alphas */
            double alpha = (t % 4) / 4.0;
            bad_count += pt_render_actors_from_world(f.world, alpha, a, n) != n;
            for (int i = 0; i < n; i++) {
                const pt_entity *e = pt_world_entity(f.world, i);
                kinds_bad += a[i].kind != e->kind || a[i].state != (int)e->state;
                if (e->motion == PT_MOTION_TILE) {
                    /* Drawn on the segment between the previous and the current tile centre. */
                    double lox = (e->prev_x < e->x ? e->prev_x : e->x) + 0.5;
                    double hix = (e->prev_x < e->x ? e->x : e->prev_x) + 0.5;
                    double loy = (e->prev_y < e->y ? e->prev_y : e->y) + 0.5;
                    double hiy = (e->prev_y < e->y ? e->y : e->prev_y) + 0.5;
                    misplaced += a[i].x < lox - 1e-9 || a[i].x > hix + 1e-9 || a[i].y < loy - 1e-9 ||
                                 a[i].y > hiy + 1e-9;
                } else {
                    misplaced += !(fabs(a[i].x - e->px) <= 1.0 && fabs(a[i].y - e->py) <= 1.0);
                }
            }
            pt_scene sc = {.map = &f.map, .actors = a, .nactors = n};
            pt_view v = {.scale = 1 + t % 2, .overlays = PT_OVERLAY_ALL, .time = t / 60.0};
            pt_view_fit(&v, &f.map, 400, 300, 0, 0);
            pt_view_follow(&v, &f.map, a[0].x, a[0].y);
            fails += pt_render_draw(r, &sc, &v) != PT_OK;
        }
    }
    ck_assert_int_eq(fails, 0);
    ck_assert_int_eq(bad_count, 0);
    ck_assert_int_eq(kinds_bad, 0);
    ck_assert_int_eq(misplaced, 0);
    ck_assert_int_eq(jumps, 0);
    ck_assert_int_eq(guard_jumps, 0);
    free(gx);
    free(gy);
    free(gtile);
    ck_assert_int_lt(catches, 300);
    free(a);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    teardown(&f);
}
END_TEST

/* Runs 300 ticks, drawing every tick or not at all, and returns the trace. */
static char *trace(int draw) {
    fixture f;
    setup(&f);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert(out != NULL);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 200, 150, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_error err;
    pt_render *r = draw ? pt_render_create(sdl, ASSETS, &err) : NULL;
    int n = pt_world_count(f.world);
    pt_actor *a = calloc((size_t)n, sizeof *a);
    for (int t = 0; t < 300; t++) {
        input_for(f.world, t);
        pt_world_step(f.world);
        if (draw) {
            pt_render_actors_from_world(f.world, 0.5, a, n);
            pt_scene sc = {.map = &f.map, .actors = a, .nactors = n};
            pt_view v = {.scale = 1, .overlays = PT_OVERLAY_ALL, .time = t / 60.0};
            pt_render_draw(r, &sc, &v);
        }
        pt_world_trace_rows(f.world, out);
    }
    fclose(out);
    free(a);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    teardown(&f);
    return buf;
}

/* The memory overlay: over many ticks of a walled room with stones thrown at random cells,
 * each guard actor carries exactly the marks pt_world_guard_memory lists, the overlay draws
 * something near each remembered place, and a frame without memories is the same with or
 * without it. */
static int pixels_near(SDL_Surface *a, SDL_Surface *b, double cx, double cy, double radius) {
    int n = 0;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            if (hypot(x + 0.5 - cx, y + 0.5 - cy) > radius) continue;
            Uint32 pa = ((Uint32 *)((Uint8 *)a->pixels + (size_t)y * (size_t)a->pitch))[x];
            Uint32 pb = ((Uint32 *)((Uint8 *)b->pixels + (size_t)y * (size_t)b->pitch))[x];
            n += pa != pb;
        }
    return n;
}

START_TEST(test_memory_overlay) {
    static const char text[] = "player at=18,10\n"
                               "guard g1 at=3,3 memory=1\n"
                               "guard g2 at=9,8 heading=180 memory=0.5 hearing=0.5\n"
                               "grid\n"
                               "####################\n#............#.....#\n#............#.....#\n"
                               "#............#.....#\n#............#.....#\n#............#.....#\n"
                               "#............#.....#\n#............#.....#\n#............#.....#\n"
                               "#............#.....#\n#............#.....#\n####################\nend\n";
    pt_map m;
    pt_error err;
    ck_assert_msg(pt_map_parse(&m, text, strlen(text), "mem.map", &err) == PT_OK, "%s", err.message);
    pt_world_desc desc = {.player_controlled = 1, .seed = 3};
    pt_world *w = pt_world_create(&m, NULL, &desc, &err);
    ck_assert(w != NULL);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 20 * 16, 12 * 16, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    pt_actor a[3];
    pt_rng rng;
    pt_rng_seed(&rng, 5, 5);
    int marked = 0, empty_frames = 0;
    for (int t = 0; t < 600; t++) {
        if (t % 70 == 0) pt_world_noise(w, 1 + (int)pt_rng_below(&rng, 12), 1 + (int)pt_rng_below(&rng, 10), 9.0);
        pt_world_step(w);
        if (t % 5) continue;
        ck_assert_int_eq(pt_render_actors_from_world(w, 0.0, a, 3), 3);
        int total = 0;
        for (int i = 0; i < 3; i++) {
            pt_memory mem[PT_MEMORY_COUNT];
            int n = pt_world_guard_memory(w, i, mem, PT_MEMORY_COUNT);
            ck_assert_int_eq(a[i].nmemory, n);
            for (int k = 0; k < n; k++) {
                ck_assert_int_eq(a[i].memory[k].kind, (int)mem[k].kind);
                ck_assert(a[i].memory[k].x == mem[k].px && a[i].memory[k].y == mem[k].py);
                ck_assert(a[i].memory[k].certainty == mem[k].certainty);
            }
            total += n;
        }
        pt_scene sc = {.map = &m, .actors = a, .nactors = 3};
        pt_view plain = {.scale = 1, .overlays = PT_OVERLAY_CONES}, over = plain;
        over.overlays |= PT_OVERLAY_MEMORY;
        ck_assert_int_eq(pt_render_draw(r, &sc, &plain), PT_OK);
        SDL_RenderFlush(sdl);
        SDL_Surface *before = SDL_ConvertSurfaceFormat(surf, SDL_PIXELFORMAT_RGBA32, 0);
        ck_assert_int_eq(pt_render_draw(r, &sc, &over), PT_OK);
        SDL_RenderFlush(sdl);
        for (int i = 1; i < 3; i++)
            for (int k = 0; k < a[i].nmemory; k++, marked++)
                ck_assert_int_gt(pixels_near(surf, before, a[i].memory[k].x * 16, a[i].memory[k].y * 16, 8.0), 0);
        if (total == 0) {
            empty_frames++;
            ck_assert_int_eq(pixels_near(surf, before, 160, 96, 1e9), 0);
        }
        SDL_FreeSurface(before);
    }
    ck_assert_int_gt(marked, 20);
    ck_assert_int_gt(empty_frames, 0);
    unsigned bits = 0;
    ck_assert(pt_overlay_parse("memory", &bits, NULL) && bits == PT_OVERLAY_MEMORY);
    ck_assert_str_eq(pt_overlay_name(PT_OVERLAY_MEMORY), "memory");
    ck_assert(PT_OVERLAY_DEBUG & PT_OVERLAY_MEMORY);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

START_TEST(test_drawing_changes_nothing) {
    char *plain = trace(0), *drawn = trace(1);
    ck_assert(strlen(plain) > 1000);
    ck_assert(strcmp(plain, drawn) == 0);
    free(plain);
    free(drawn);
}
END_TEST

static uint32_t pixel_at(SDL_Surface *surf, const pt_map *m, const pt_view *v, int cx, int cy) {
    double px, py;
    pt_view_to_px(m, v, cx + 0.5, cy + 0.5, &px, &py);
    int x = (int)px, y = (int)py;
    ck_assert(x >= 0 && y >= 0 && x < surf->w && y < surf->h);
    return ((const uint32_t *)surf->pixels)[(size_t)y * (size_t)(surf->pitch / 4) + (size_t)x];
}

/* The search overlay, drawn as play draws it: searched cells and the rest of the area change
 * colour, cells outside the area do not, and the search itself is unchanged by drawing. */
START_TEST(test_search_overlay) {
    fixture f;
    setup(&f);
    int ids[3] = {1, 2, 3};
    ck_assert_int_eq(pt_world_search_start(f.world, 10, 5, ids, 3, 0), PT_OK);
    for (int t = 0; t < 40; t++) pt_world_step(f.world);
    pt_search_info si;
    ck_assert_int_eq(pt_world_search(f.world, &si), 1);
    ck_assert(si.nsearched > 0 && si.nsearched < si.ncells);
    int nsearched = si.nsearched;
    SDL_Surface *surf[2];
    pt_view v = {.scale = 1};
    for (int k = 0; k < 2; k++) {
        surf[k] = SDL_CreateRGBSurfaceWithFormat(0, 320, 192, 32, SDL_PIXELFORMAT_RGBA32);
        SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf[k]);
        pt_error err;
        pt_render *r = pt_render_create(sdl, ASSETS, &err);
        ck_assert_msg(r != NULL, "%s", err.message);
        pt_scene scene = {.map = &f.map};
        v.overlays = k ? PT_OVERLAY_SEARCH : 0;
        ck_assert_int_eq(pt_render_draw(r, &scene, &v), PT_OK);
        if (v.overlays & PT_OVERLAY_SEARCH) pt_render_search(r, &f.map, &v, si.cells, si.searched, si.ncells, si.origin);
        SDL_RenderPresent(sdl);
        pt_render_destroy(r);
        SDL_DestroyRenderer(sdl);
    }
    int in_area[20 * 12] = {0}, seen_diff = 0, rest_diff = 0;
    for (int i = 0; i < si.ncells; i++) {
        in_area[si.cells[i].y * 20 + si.cells[i].x] = 1;
        if (si.cells[i].x == si.origin.x && si.cells[i].y == si.origin.y) continue;
        int differs = pixel_at(surf[0], &f.map, &v, si.cells[i].x, si.cells[i].y) !=
                      pixel_at(surf[1], &f.map, &v, si.cells[i].x, si.cells[i].y);
        if (si.searched[i]) seen_diff += differs;
        else rest_diff += differs;
    }
    ck_assert_int_gt(seen_diff, 0);
    ck_assert_int_gt(rest_diff, 0);
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 20; x++)
            if (!in_area[y * 20 + x])
                ck_assert_uint_eq(pixel_at(surf[0], &f.map, &v, x, y), pixel_at(surf[1], &f.map, &v, x, y));
    ck_assert_int_eq(pt_world_search(f.world, &si), 1);
    ck_assert_int_eq(si.nsearched, nsearched);
    SDL_FreeSurface(surf[0]);
    SDL_FreeSurface(surf[1]);
    teardown(&f);
}
END_TEST

/* The hearing overlay tints exactly the cells the guards' own flood reaches: a wall between
 * two rooms keeps the sound out of the cells beside it, and a door lets it round. */
START_TEST(test_hearing_overlay) {
    static const char *text = "format 1\n"
                              "player at=1,1 heading=0\n"
                              "grid\n"
                              "##########\n"
                              "#...#....#\n"
                              "#...#....#\n"
                              "#...#....#\n"
                              "#........#\n"
                              "##########\n"
                              "end\n";
    pt_map map;
    pt_error err;
    ck_assert_msg(pt_map_parse(&map, text, strlen(text), "hear.map", &err) == PT_OK, "%s", err.message);
    const int nx = 3, ny = 1;
    const double loud = 6.0;
    pt_hearing *h = pt_hearing_create(&map);
    ck_assert_ptr_nonnull(h);
    ck_assert_int_gt(pt_hearing_flood(h, nx, ny, loud), 0);
    const pt_hearing_cell *cells;
    int n = pt_hearing_cells(h, &cells);
    /* The cell just across the wall is near enough for a straight way, but the wall blocks
     * it; the door lets the sound into the other room further down. */
    ck_assert(pt_hearing_level(h, 5, 1) == 0.0);
    ck_assert(pt_hearing_level(h, 5, 4) > 0.0);
    SDL_Surface *surf[2];
    pt_view v = {.scale = 1};
    for (int k = 0; k < 2; k++) {
        surf[k] = SDL_CreateRGBSurfaceWithFormat(0, 160, 96, 32, SDL_PIXELFORMAT_RGBA32);
        SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf[k]);
        pt_render *r = pt_render_create(sdl, ASSETS, &err);
        ck_assert_msg(r != NULL, "%s", err.message);
        pt_scene scene = {.map = &map};
        v.overlays = k ? PT_OVERLAY_HEARING : 0;
        ck_assert_int_eq(pt_render_draw(r, &scene, &v), PT_OK);
        if (v.overlays & PT_OVERLAY_HEARING) pt_render_hearing(r, &map, &v, cells, n, loud, 0.0);
        SDL_RenderPresent(sdl);
        pt_render_destroy(r);
        SDL_DestroyRenderer(sdl);
    }
    int differ = 0;
    for (int y = 0; y < map.h; y++)
        for (int x = 0; x < map.w; x++) {
            int reached = pt_hearing_level(h, x, y) > 0.0;
            int changed = pixel_at(surf[0], &map, &v, x, y) != pixel_at(surf[1], &map, &v, x, y);
            ck_assert_msg(reached == changed, "cell %d,%d: reached %d, drawn %d", x, y, reached, changed);
            differ += changed;
        }
    ck_assert_int_eq(differ, n);
    SDL_FreeSurface(surf[0]);
    SDL_FreeSurface(surf[1]);
    pt_hearing_destroy(h);
    pt_map_fini(&map);
}
END_TEST

/* A removed entity (patrol/spawn.h) draws nothing: its actor is of kind PT_KIND_COUNT at NaN,
 * and with every overlay on, a frame of the world after the remove is the frame of the same
 * world whose map never declared that guard (it stood still: no pattern). */
static SDL_Surface *frame_of(const char *text, int remove_id) {
    pt_map m;
    pt_error err;
    ck_assert_msg(pt_map_parse(&m, text, strlen(text), "gone.map", &err) == PT_OK, "%s", err.message);
    pt_world_desc desc = {.player_controlled = 1, .seed = 3};
    pt_world *w = pt_world_create(&m, NULL, &desc, &err);
    ck_assert(w != NULL);
    if (remove_id > 0) ck_assert_int_eq(pt_world_remove(w, remove_id), PT_OK);
    pt_world_step(w);
    pt_actor a[4];
    int n = pt_render_actors_from_world(w, 0.0, a, 4);
    ck_assert_int_eq(n, pt_world_count(w));
    if (remove_id > 0) {
        ck_assert_int_eq((int)a[remove_id].kind, (int)PT_KIND_COUNT);
        ck_assert(isnan(a[remove_id].x) && isnan(a[remove_id].y));
    }
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 12 * 16, 6 * 16, 32, SDL_PIXELFORMAT_RGBA32);
    SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surf);
    pt_render *r = pt_render_create(sdl, ASSETS, &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    pt_scene sc = {.map = pt_world_map(w), .actors = a, .nactors = n};
    pt_view v = {.scale = 1, .overlays = PT_OVERLAY_DEBUG};
    ck_assert_int_eq(pt_render_draw(r, &sc, &v), PT_OK);
    SDL_RenderFlush(sdl);
    SDL_Surface *out = SDL_ConvertSurfaceFormat(surf, SDL_PIXELFORMAT_RGBA32, 0);
    pt_render_destroy(r);
    SDL_DestroyRenderer(sdl);
    SDL_FreeSurface(surf);
    pt_world_destroy(w);
    pt_map_fini(&m);
    return out;
}

START_TEST(test_removed_draws_nothing) {
    static const char grid[] = "grid\n############\n#..........#\n#..........#\n#..........#\n#..........#\n"
                               "############\nend\n";
    char with[512], without[512];
    snprintf(with, sizeof with, "player at=9,3\nguard g1 at=2,2 heading=90\nguard g2 at=5,4 heading=0\n%s", grid);
    snprintf(without, sizeof without, "player at=9,3\nguard g1 at=2,2 heading=90\n%s", grid);
    SDL_Surface *a = frame_of(with, 2), *b = frame_of(without, 0), *c = frame_of(with, 0);
    ck_assert_int_eq(pixels_near(a, b, 0, 0, 1e9), 0);
    ck_assert_int_gt(pixels_near(c, b, 0, 0, 1e9), 0); /* the guard, when there, is drawn */
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    SDL_FreeSurface(c);
}
END_TEST

static Suite *render_world_suite(void) {
    Suite *s = suite_create("render_world");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_world_frames);
    tcase_add_test(core, test_drawing_changes_nothing);
    tcase_add_test(core, test_search_overlay);
    tcase_add_test(core, test_memory_overlay);
    tcase_add_test(core, test_hearing_overlay);
    tcase_add_test(core, test_removed_draws_nothing);
    suite_add_tcase(s, core);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(render_world_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
