/* SPDX-License-Identifier: Zlib */
/* Noises in the world (docs/ai.md, "Noises"): the player's gaits and footsteps, the legend's
 * footstep and noise keys, pt_world_noise. Each rule is checked over many ticks on generated
 * maps and several seeds. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/solve.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include "test_util.h"

/* A walled map of floor with patches of grass, bridge and a squeaky board 'q' (noise=7). */
static void surface_map(pt_map *m, int w, int h, uint64_t seed) {
    static const char *const legend = "player at=1,1\ntile q board walkable noise=7\ngrid\n";
    char *text = malloc((size_t)(w + 1) * (size_t)h + 64);
    ck_assert(text != NULL);
    size_t n = (size_t)sprintf(text, "%s", legend);
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    static const char kinds[] = "....,,=q#";
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            char c = x == 0 || y == 0 || x == w - 1 || y == h - 1 ? '#' : kinds[pt_rng_below(&r, 9)];
            if (x == 1 && y == 1) c = '.';
            text[n++] = c;
        }
        text[n++] = '\n';
    }
    n += (size_t)sprintf(text + n, "end\n");
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, n, "surface.map", &err) == PT_OK, "%s", err.message);
    free(text);
}

/* Every footstep: one per tile entered, at that tile, gait loudness x the tile's footstep (or
 * the tile's own noise when louder), and none while the player stays on its tile. */
START_TEST(test_footsteps) {
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        surface_map(&m, 24, 18, seed);
        pt_world_desc d = {.seed = seed, .player_controlled = 1};
        pt_error err;
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_rng r;
        pt_rng_seed(&r, seed, 9);
        int steps = 0, squeaks = 0, by_gait[PT_GAIT_COUNT] = {0};
        for (int t = 0; t < 3000; t++) {
            if (t % 23 == 0) pt_world_set_input(w, (int)pt_rng_below(&r, 3) - 1, (int)pt_rng_below(&r, 3) - 1);
            if (t % 71 == 0) pt_world_set_gait(w, (pt_gait)pt_rng_below(&r, PT_GAIT_COUNT));
            const pt_entity *p = pt_world_entity(w, 0);
            int x0 = p->x, y0 = p->y;
            pt_gait g = pt_world_gait(w);
            pt_world_step(w);
            int n;
            const pt_noise *nz = pt_world_noises(w, &n);
            int moved = p->x != x0 || p->y != y0;
            ck_assert(pt_map_walkable(&m, p->x, p->y));
            ck_assert_int_eq(n, moved);
            if (!moved) continue;
            const pt_tile_def *tile = pt_map_tile(&m, p->x, p->y);
            double step = pt_gait_loudness(g) * tile->footstep;
            ck_assert_int_eq(nz[0].x, p->x);
            ck_assert_int_eq(nz[0].y, p->y);
            ck_assert_uint_eq(nz[0].tick, pt_world_tick(w));
            if (tile->noise > step) {
                ck_assert_int_eq(nz[0].kind, PT_NOISE_TILE);
                ck_assert(nz[0].loudness == tile->noise);
                squeaks++;
            } else {
                ck_assert_int_eq(nz[0].kind, PT_NOISE_FOOTSTEP);
                ck_assert(nz[0].loudness == step);
            }
            steps++;
            by_gait[g]++;
        }
        ck_assert_int_gt(steps, 100);
        ck_assert_int_gt(squeaks, 0);
        for (int g = 0; g < PT_GAIT_COUNT; g++) ck_assert_int_gt(by_gait[g], 0);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    /* Louder the faster. */
    ck_assert(pt_gait_loudness(PT_GAIT_SNEAK) < pt_gait_loudness(PT_GAIT_WALK));
    ck_assert(pt_gait_loudness(PT_GAIT_WALK) < pt_gait_loudness(PT_GAIT_RUN));
    ck_assert(pt_gait_speed(PT_GAIT_SNEAK) < pt_gait_speed(PT_GAIT_WALK));
    ck_assert(pt_gait_speed(PT_GAIT_WALK) < pt_gait_speed(PT_GAIT_RUN));
    ck_assert(pt_gait_loudness(PT_GAIT_COUNT) == 0.0 && pt_gait_speed((pt_gait)-1) == 0.0);
}
END_TEST

/* Tiles entered in a long corridor in a fixed time go with the gait's speed factor. */
START_TEST(test_gait_speed) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 400, 1, &err), PT_OK);
    for (int gi = 0; gi < PT_GAIT_COUNT; gi++) {
        pt_world_desc d = {.seed = 3, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        pt_world_set_gait(w, (pt_gait)gi);
        pt_world_set_gait(w, PT_GAIT_COUNT); /* ignored */
        ck_assert_int_eq(pt_world_gait(w), gi);
        pt_world_set_input(w, 1, 0);
        int ticks = 600;
        for (int t = 0; t < ticks; t++) pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        double want = p->speed * pt_gait_speed((pt_gait)gi) * ticks * pt_world_dt(w);
        ck_assert_msg(fabs(p->x - want) <= 1.0, "gait %s: %d tiles, want %g", pt_gait_name((pt_gait)gi), p->x, want);
        pt_world_destroy(w);
    }
    pt_map_fini(&m);
}
END_TEST

/* A pattern-driven player walks in its pattern's gait: pt_world_set_gait, called before every
 * step, changes nothing (the world's gait is the pattern's again each tick). */
START_TEST(test_pattern_player_keeps_its_gait) {
    static const char pat[] = "pattern stroll\n  kind path\n  gait sneak\n  points 1,1 30,1\n  at_end reverse\nend\n";
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, pat, strlen(pat), "stroll.pat", &err), PT_OK);
    pt_map m;
    ck_assert_int_eq(pt_map_init_blank(&m, 40, 3, &err), PT_OK);
    pt_world_desc d = {.seed = 3, .player_pattern = pt_patlib_find(&lib, "stroll")};
    ck_assert_ptr_nonnull(d.player_pattern);
    pt_world *a = pt_world_create(&m, &lib, &d, &err), *b = pt_world_create(&m, &lib, &d, &err);
    ck_assert(a && b);
    for (int t = 0; t < 900; t++) {
        pt_world_set_gait(b, (pt_gait)(t % PT_GAIT_COUNT));
        pt_world_step(a);
        pt_world_step(b);
        const pt_entity *pa = pt_world_entity(a, 0), *pb = pt_world_entity(b, 0);
        ck_assert(pa->px == pb->px && pa->py == pb->py);
        ck_assert_int_eq(pt_world_gait(b), PT_GAIT_SNEAK);
    }
    pt_world_destroy(a);
    pt_world_destroy(b);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* pt_world_noise: made in the next step, listed there once, bad ones ignored. */
START_TEST(test_game_noise) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 20, 10, &err), PT_OK);
    pt_world *w = pt_world_create(&m, NULL, NULL, &err);
    ck_assert(w != NULL);
    pt_world_noise(w, 3, 4, 5.0);
    pt_world_noise(w, 30, 4, 5.0);  /* outside */
    pt_world_noise(w, 3, 4, 0.0);   /* not above 0 */
    pt_world_noise(w, 3, 4, NAN);
    pt_world_noise(w, 5, 5, 1e9);   /* capped */
    int n;
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0); /* nothing before the step */
    pt_world_step(w);
    const pt_noise *nz = pt_world_noises(w, &n);
    ck_assert_int_eq(n, 2);
    ck_assert(nz[0].kind == PT_NOISE_GAME && nz[0].x == 3 && nz[0].y == 4 && nz[0].loudness == 5.0);
    ck_assert(nz[0].tick == pt_world_tick(w));
    ck_assert(nz[1].loudness == PT_HEARING_MAX_LOUDNESS);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    for (int i = 0; i < 300; i++) pt_world_noise(w, 1, 1, 2.0);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 256);
    ck_assert_str_eq(pt_noise_kind_name(PT_NOISE_GAME), "game");
    ck_assert_str_eq(pt_noise_kind_name(PT_NOISE_COUNT), "unknown");
    ck_assert_str_eq(pt_gait_name(PT_GAIT_SNEAK), "sneak");
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* The legend's footstep and noise: defaults by name, given values, kept by a clone. */
START_TEST(test_legend_keys) {
    static const char text[] = "player at=1,1\n"
                               "tile q board walkable noise=7.5\n"
                               "tile g gravel walkable\n"
                               "tile c carpet walkable footstep=0.2\n"
                               "tile ',' grass walkable footstep=0\n"
                               "grid\n#####\n#.q.#\n#gc,#\n#####\nend\n";
    pt_map m, c;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "legend.map", &err), PT_OK);
    static const struct { char ch; double footstep, noise; } want[] = {
        {'.', 1.0, 0}, {'=', 1.5, 0}, {'+', 1.0, 0}, {'q', 1.0, 7.5}, {'g', 1.5, 0}, {'c', 0.2, 0}, {',', 0.0, 0},
    };
    ck_assert_int_eq(pt_map_clone(&c, &m), PT_OK);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const pt_tile_def *t = &c.legend[pt_map_legend_find(&c, want[i].ch)];
        ck_assert_msg(t->footstep == want[i].footstep && t->noise == want[i].noise, "'%c'", want[i].ch);
    }
    ck_assert(pt_tile_footstep_default("grass") == 0.5);
    ck_assert(pt_tile_footstep_default(NULL) == 1.0);
    pt_map_fini(&c);
    pt_map_fini(&m);
    pt_map blank;
    ck_assert_int_eq(pt_map_init_blank(&blank, 3, 3, &err), PT_OK);
    ck_assert(blank.legend[pt_map_legend_find(&blank, ',')].footstep == 0.5);
    pt_map_fini(&blank);
}
END_TEST


/* ---- what guards do with noises ------------------------------------------------------- */

static pt_map parse_map(const char *text) {
    pt_map m;
    pt_error err;
    ck_assert_msg(pt_map_parse(&m, text, strlen(text), "t.map", &err) == PT_OK, "%s: %s", err.message, text);
    return m;
}

static int count_heard(const pt_world *w, uint32_t guard, pt_event *last) {
    int n, k = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PT_EVENT_HEARD && ev[i].a == guard) {
            k++;
            if (last) *last = ev[i];
        }
    return k;
}

/* Every entity on a walkable tile, no NaN anywhere. */
static void check_sane(const pt_world *w) {
    const pt_map *m = pt_world_map(w);
    for (int i = 0; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        ck_assert_msg(pt_map_walkable(m, e->x, e->y), "%s on %d,%d", e->name, e->x, e->y);
        ck_assert(isfinite(e->px) && isfinite(e->py) && isfinite(e->heading) && isfinite(e->awareness));
    }
}

/* A corridor with a door (or a wall) between the noise at x=1 and the guard at x=10: the
 * noise goes through the door losing 9 for the tiles and 2 for the door, and a guard of
 * hearing h hears it when what is left is above h. Through a wall nothing, however loud. */
START_TEST(test_wall_and_door) {
    for (int door = 0; door < 2; door++)
        for (int hearing = 1; hearing <= 4; hearing++)
            for (int tenths = 50; tenths <= 200; tenths += 3) {
                double loud = tenths / 10.0;
                char text[512];
                snprintf(text, sizeof text,
                         "player at=1,3\nguard g at=10,1 heading=0 hearing=%d\ngrid\n"
                         "############\n#....%c.....#\n############\n#..........#\n############\nend\n",
                         hearing, door ? '+' : '#');
                pt_map m = parse_map(text);
                pt_error err;
                pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
                ck_assert(w != NULL);
                pt_world_noise(w, 1, 1, loud);
                pt_world_step(w);
                pt_event ev;
                int heard = count_heard(w, 1, &ev);
                double left = loud - 9.0 - 2.0;
                if (!door) ck_assert_int_eq(heard, 0);
                else if (fabs(left - hearing) > 0.05) ck_assert_msg(heard == (left > hearing), "loud %g hearing %d", loud, hearing);
                if (heard) {
                    ck_assert(ev.x == 1 && ev.y == 1); /* the place, not who made it */
                    ck_assert_int_eq((int)ev.b, (int)lround(left * 10.0));
                    pt_world_step(w);
                    ck_assert_int_eq(pt_world_entity(w, 1)->state, PT_STATE_INVESTIGATE);
                }
                pt_world_destroy(w);
                pt_map_fini(&m);
            }
}
END_TEST

/* Two rooms, a wall between them with a door at its end: the player runs or sneaks along the
 * wall in one room, a guard stands in the other at the same distance. It hears the run (from
 * the last tile, 15,1, the way round through the door costs 21 - x, below the run's 12 - 1
 * for x >= 11), never the sneak. */
START_TEST(test_run_heard_sneak_not) {
    for (int gx = 3; gx <= 14; gx++) {
        int heard[PT_GAIT_COUNT] = {0};
        for (int g = 0; g < PT_GAIT_COUNT; g++) {
            char text[1024];
            snprintf(text, sizeof text,
                     "player at=1,1\nguard g at=%d,3 heading=90 fov=10 view=1\ngrid\n"
                     "##################\n"
                     "#................#\n"
                     "################+#\n"
                     "#................#\n"
                     "##################\nend\n", gx);
            pt_map m = parse_map(text);
            pt_error err;
            pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
            ck_assert(w != NULL);
            pt_world_set_gait(w, (pt_gait)g);
            pt_world_set_input(w, 1, 0);
            for (int t = 0; t < 600 && pt_world_entity(w, 0)->x < 15; t++) {
                pt_world_step(w);
                heard[g] += count_heard(w, 1, NULL);
                check_sane(w);
            }
            pt_world_destroy(w);
            pt_map_fini(&m);
        }
        ck_assert_msg(heard[PT_GAIT_SNEAK] == 0, "guard at %d heard a sneak", gx);
        if (gx >= 11) ck_assert_msg(heard[PT_GAIT_RUN] > 0, "guard at %d did not hear a run", gx);
        ck_assert_int_ge(heard[PT_GAIT_RUN], heard[PT_GAIT_WALK]);
    }
}
END_TEST

/* The hearing heatmap (pt_hearmap_build): two rooms, a wall between them with a door at its
 * end, a guard standing in the lower room. A footstep in the upper room is heard only by the
 * way round through the door: each cell counts every tick or none, exactly as a flood made
 * here of gait loudness x footstep reaches the guard above its hearing; the cell across the
 * wall, two tiles from the guard, is never heard; a sneak is heard on fewer cells than a run. */
START_TEST(test_hearmap) {
    static const char text[] = "player at=1,1\nguard g at=12,3 heading=90 hearing=1\ngrid\n"
                               "##################\n"
                               "#................#\n"
                               "################+#\n"
                               "#................#\n"
                               "##################\nend\n";
    pt_map m = parse_map(text);
    const int ticks = 90, gx = 12, gy = 3;
    int nheard[PT_GAIT_COUNT] = {0};
    int *counts = malloc(sizeof *counts * (size_t)m.w * (size_t)m.h);
    ck_assert_ptr_nonnull(counts);
    pt_hearing *h = pt_hearing_create(&m);
    ck_assert_ptr_nonnull(h);
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        pt_error err;
        ck_assert_int_eq(pt_hearmap_build(&m, NULL, 0, ticks, (pt_gait)g, counts, &err), PT_OK);
        for (int y = 0; y < m.h; y++)
            for (int x = 0; x < m.w; x++) {
                int want = 0;
                if (pt_map_walkable(&m, x, y)) {
                    pt_hearing_flood(h, x, y, pt_gait_loudness((pt_gait)g) * pt_map_tile(&m, x, y)->footstep);
                    want = pt_hearing_level(h, gx, gy) > 1.0 ? ticks : 0;
                }
                ck_assert_msg(counts[y * m.w + x] == want, "gait %d cell %d,%d: %d ticks, want %d", g, x, y,
                              counts[y * m.w + x], want);
                nheard[g] += want > 0;
            }
        ck_assert_int_eq(counts[1 * m.w + 10], 0); /* across the wall: the door is too far round */
    }
    ck_assert_int_gt(counts[1 * m.w + 15], 0); /* the run, by the door, in the upper room */
    ck_assert_int_lt(nheard[PT_GAIT_SNEAK], nheard[PT_GAIT_WALK]);
    ck_assert_int_lt(nheard[PT_GAIT_WALK], nheard[PT_GAIT_RUN]);
    pt_error err;
    ck_assert_int_eq(pt_hearmap_build(&m, NULL, 0, 0, PT_GAIT_WALK, counts, &err), PT_ERR_RANGE);
    ck_assert_int_eq(pt_hearmap_build(&m, NULL, 0, 10, PT_GAIT_COUNT, counts, &err), PT_ERR_RANGE);
    pt_hearing_destroy(h);
    free(counts);
    pt_map_fini(&m);
}
END_TEST

static const char box_pat[] = "pattern box\n kind path\n points 0,0 4,0 4,4 0,4 0,0\nend\n";

/* A noise near a patrolling guard: it leaves its round (investigate), walks to the place,
 * looks around there for the documented time, goes back (return) and patrols again, in that
 * order; generated open maps with walls, many seeds and places. */
START_TEST(test_investigate_order) {
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    ck_assert_int_eq(pt_patlib_parse(&lib, box_pat, strlen(box_pat), "box.pat", &err), PT_OK);
    int done = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_map m;
        tu_corner_map(&m, 28, 22, seed);
        /* the player shut in a cell of its own at 1,1 (never seen, never heard) */
        for (int y = 1; y <= 2; y++)
            for (int x = 1; x <= 2; x++) pt_map_set(&m, x, y, x == 1 && y == 1 ? '.' : '#');
        m.player.x = m.player.y = 1;
        /* the guard's box */
        for (int y = 8; y <= 12; y++)
            for (int x = 10; x <= 14; x++) pt_map_set(&m, x, y, '.');
        pt_entity_def g;
        memset(&g, 0, sizeof g);
        snprintf(g.name, sizeof g.name, "g");
        g.kind = PT_KIND_GUARD;
        g.x = 10;
        g.y = 8;
        snprintf(g.pattern, sizeof g.pattern, "box");
        m.ents = calloc(1, sizeof *m.ents);
        m.ents[0] = g;
        m.nents = 1;
        pt_world *w = pt_world_create(&m, &lib, &(pt_world_desc){.seed = seed, .player_controlled = 1}, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        pt_rng r;
        pt_rng_seed(&r, seed, 3);
        for (int t = 0; t < 30; t++) pt_world_step(w);
        const pt_entity *e = pt_world_entity(w, 1);
        ck_assert_int_eq(e->state, PT_STATE_PATROL);
        int nx, ny;
        do {
            nx = 4 + (int)pt_rng_below(&r, 20);
            ny = 4 + (int)pt_rng_below(&r, 14);
        } while (!pt_map_walkable(&m, nx, ny));
        pt_world_noise(w, nx, ny, 30.0);
        pt_world_step(w); /* the noise is made and heard; the guard acts on it next tick */
        int phase = 0, at_place = 0, reached = 0;
        pt_hearing *h = pt_hearing_create(&m);
        ck_assert(pt_hearing_flood(h, nx, ny, 30.0) > 0);
        int hears = pt_hearing_hears(h, e->x, e->y, e->def->hearing);
        ck_assert_int_eq(count_heard(w, 1, NULL), hears);
        pt_hearing_destroy(h);
        for (int t = 0; t < 60 * 40 && phase < 3; t++) {
            pt_world_step(w);
            check_sane(w);
            ck_assert(e->state != PT_STATE_CHASE && e->state != PT_STATE_SUSPICIOUS);
            if (!hears) {
                ck_assert_int_eq(e->state, PT_STATE_PATROL);
                continue;
            }
            if (phase == 0) { /* the tick after the noise */
                ck_assert_int_eq(e->state, PT_STATE_INVESTIGATE);
                phase = 1;
            }
            if (phase == 1) {
                if (e->state == PT_STATE_INVESTIGATE) {
                    if (e->x == nx && e->y == ny) reached = 1;
                    at_place += reached;
                    if (reached) ck_assert(e->x == nx && e->y == ny); /* looks from there */
                } else {
                    ck_assert_int_eq(e->state, PT_STATE_RETURN);
                    phase = 2;
                }
            } else if (phase == 2) {
                ck_assert(e->state == PT_STATE_RETURN || e->state == PT_STATE_PATROL);
                int n;
                const pt_event *ev = pt_world_events(w, &n);
                for (int i = 0; i < n; i++)
                    if (ev[i].kind == PT_EVENT_RETURNED) phase = 3;
                if (phase == 3) ck_assert_int_eq(e->state, PT_STATE_PATROL);
            }
        }
        if (hears) {
            ck_assert_msg(phase == 3, "seed %llu: stuck in phase %d", (unsigned long long)seed, phase);
            if (reached) {
                ck_assert_msg(abs(at_place - 120) <= 2, "looked %d ticks", at_place);
                done++;
            }
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(done, 10);
    pt_patlib_fini(&lib);
}
END_TEST

/* Noises everywhere, all the time, but the player is never seen: no guard ever chases, and
 * no guard's awareness from hearing passes suspicious_at. */
START_TEST(test_hearing_never_chases) {
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    ck_assert_int_eq(pt_patlib_parse(&lib, box_pat, strlen(box_pat), "box.pat", &err), PT_OK);
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        tu_corner_map(&m, 40, 30, seed);
        for (int y = 1; y <= 2; y++)
            for (int x = 1; x <= 2; x++) pt_map_set(&m, x, y, x == 1 && y == 1 ? '.' : '#');
        m.player.x = m.player.y = 1;
        pt_rng r;
        pt_rng_seed(&r, seed, 8);
        m.ents = calloc(12, sizeof *m.ents);
        for (int i = 0; i < 12; i++) {
            pt_entity_def *d = &m.ents[i];
            d->kind = PT_KIND_GUARD;
            snprintf(d->name, sizeof d->name, "g%d", i);
            do {
                d->x = 4 + (int)pt_rng_below(&r, 34);
                d->y = 4 + (int)pt_rng_below(&r, 24);
            } while (!pt_map_walkable(&m, d->x, d->y));
            if (i % 2) snprintf(d->pattern, sizeof d->pattern, "box");
            d->chase = (pt_chase)(i % 3);
        }
        m.nents = 12;
        pt_world *w = pt_world_create(&m, &lib, &(pt_world_desc){.seed = seed, .player_controlled = 1}, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        int investigated = 0;
        for (int t = 0; t < 60 * 60; t++) {
            if (t % 7 == 0) {
                int x = (int)pt_rng_below(&r, 40), y = (int)pt_rng_below(&r, 30);
                pt_world_noise(w, x, y, 2.0 + pt_rng_below(&r, 30));
                pt_world_noise(w, 1, 1, 40.0); /* the player's own cell, loud */
            }
            pt_world_step(w);
            check_sane(w);
            for (int i = 1; i < pt_world_count(w); i++) {
                const pt_entity *e = pt_world_entity(w, i);
                ck_assert(e->state != PT_STATE_CHASE && e->state != PT_STATE_SUSPICIOUS);
                ck_assert(e->awareness <= e->suspicious_at + 1e-12);
                investigated += e->state == PT_STATE_INVESTIGATE;
            }
        }
        ck_assert_int_gt(investigated, 0);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    pt_patlib_fini(&lib);
}
END_TEST

/* The demo map with noises thrown at random places: the same trace twice, and with two
 * threads, byte for byte. */
static char *demo_trace(int threads, size_t *len) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_load(&m, PATROL_SOURCE_DIR "/maps/demo.map", &err), PT_OK);
    pt_patlib lib;
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++) ck_assert_int_eq(pt_patlib_load(&lib, m.pattern_files[i], &err), PT_OK);
    pt_world *w = pt_world_create(&m, &lib, &(pt_world_desc){.seed = 5, .threads = threads}, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    FILE *f = tmpfile();
    ck_assert(f != NULL);
    pt_rng r;
    pt_rng_seed(&r, 11, 1);
    int investigating = 0;
    for (int t = 0; t < 3000; t++) {
        if (t % 40 == 0) pt_world_noise(w, (int)pt_rng_below(&r, (uint32_t)m.w), (int)pt_rng_below(&r, (uint32_t)m.h), 12.0);
        if (t % 300 == 0) pt_world_set_gait(w, (pt_gait)((t / 300) % PT_GAIT_COUNT));
        pt_world_step(w);
        check_sane(w);
        pt_world_trace_rows(w, f);
        for (int i = 1; i < pt_world_count(w); i++) investigating += pt_world_entity(w, i)->state == PT_STATE_INVESTIGATE;
    }
    ck_assert_int_gt(investigating, 0);
    *len = (size_t)ftell(f);
    char *buf = malloc(*len + 1);
    rewind(f);
    ck_assert(fread(buf, 1, *len, f) == *len);
    fclose(f);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return buf;
}

START_TEST(test_deterministic) {
    size_t a, b, c;
    char *t1 = demo_trace(1, &a), *t2 = demo_trace(1, &b), *t3 = demo_trace(2, &c);
    ck_assert(a == b && a == c && a > 0);
    ck_assert(memcmp(t1, t2, a) == 0 && memcmp(t1, t3, a) == 0);
    ck_assert(strstr(t1, ",investigate,") != NULL);
    free(t1);
    free(t2);
    free(t3);
}
END_TEST

/* Peripheral sense: a player right behind a guard (at 3,2 on a 5x3 floor) is noticed at half
 * the rate of sight, not from two tiles, not in a bush, not past a wall. */
static double gain_after(int px, int py, int heading, char under, char between) {
    char text[512];
    snprintf(text, sizeof text,
             "player at=%d,%d\nguard g at=3,2 heading=%d view=8 fov=90 hearing=256\ngrid\n"
             "#######\n#.....#\n#.%c...#\n#.%c%c..#\n#######\nend\n",
             px, py, heading, between, under, between);
    pt_map m = parse_map(text);
    pt_error err;
    pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1}, &err);
    ck_assert(w != NULL);
    for (int t = 0; t < 6; t++) pt_world_step(w);
    double a = pt_world_entity(w, 1)->awareness;
    check_sane(w);
    pt_world_destroy(w);
    pt_map_fini(&m);
    return a;
}

START_TEST(test_peripheral) {
    double seen = gain_after(2, 3, 180 - 45, '.', '.');  /* in the cone, diagonal */
    double behind = gain_after(2, 3, 0, '.', '.');       /* behind: sensed */
    ck_assert(seen > 0 && behind > 0);
    ck_assert(fabs(behind - 0.5 * seen) < 1e-9);
    ck_assert(gain_after(2, 3, 0, '*', '.') == 0.0);     /* in a bush */
    ck_assert(gain_after(2, 3, 0, '.', '#') == 0.0);     /* a sealed corner between */
    ck_assert(gain_after(1, 3, 0, '.', '.') == 0.0);     /* 2.2 tiles away */
    ck_assert(gain_after(3, 3, 0, '.', '.') > 0.0);      /* right beside, 1 tile */
    ck_assert(gain_after(3, 3, 0, '.', '.') > behind);   /* closer fills faster */
}
END_TEST

/* Timed sources sound exactly on their ticks (first, then every period), at their cell; a
 * guard in earshot goes to look. */
START_TEST(test_sources) {
    for (int hz = 30; hz <= 120; hz += 30) {
        static const char text[] = "player at=1,1\n"
                                   "guard g at=8,3 hearing=2\n"
                                   "noise at=3,1 loudness=9 every=0.75 first=0.1\n"
                                   "noise at=10,4 loudness=3.5 every=2\n"
                                   "grid\n############\n#..........#\n#..........#\n#..........#\n#..........#\n############\nend\n";
        pt_map m = parse_map(text);
        ck_assert_int_eq(m.nsources, 2);
        ck_assert(m.sources[1].first == 2.0 && m.sources[0].first == 0.1 && m.sources[0].line == 3);
        pt_error err;
        pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.player_controlled = 1, .tick_hz = hz}, &err);
        ck_assert(w != NULL);
        int count[2] = {0, 0}, heard = 0, investigated = 0;
        int ticks = hz * 20;
        for (int t = 1; t <= ticks; t++) {
            pt_world_step(w);
            check_sane(w);
            int n;
            const pt_noise *nz = pt_world_noises(w, &n);
            for (int i = 0; i < n; i++) {
                ck_assert_int_eq(nz[i].kind, PT_NOISE_SOURCE);
                int k = nz[i].x == 3 ? 0 : 1;
                const pt_noise_source *src = &m.sources[k];
                ck_assert(nz[i].y == src->y && nz[i].loudness == src->loudness);
                long first = lround(src->first * hz), period = lround(src->every * hz);
                if (first < 1) first = 1;
                ck_assert_msg(t >= first && (t - first) % period == 0, "hz %d: source %d at tick %d", hz, k, t);
                count[k]++;
            }
            heard += count_heard(w, 1, NULL);
            investigated |= pt_world_entity(w, 1)->state == PT_STATE_INVESTIGATE;
        }
        for (int k = 0; k < 2; k++) {
            long first = lround(m.sources[k].first * hz), period = lround(m.sources[k].every * hz);
            if (first < 1) first = 1;
            ck_assert_int_eq(count[k], (int)((ticks - first) / period + 1));
        }
        ck_assert(heard > 0 && investigated);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* 4096 noise sources load; the 4097th is PT_ERR_LIMIT at its directive. */
START_TEST(test_source_limit) {
    for (int extra = 0; extra < 2; extra++) {
        int n = PT_MAX_NOISE_SOURCES + extra;
        size_t cap = (size_t)n * 48 + 128, len = 0;
        char *text = malloc(cap);
        ck_assert(text != NULL);
        len += (size_t)snprintf(text + len, cap - len, "player at=1,1\n");
        for (int i = 0; i < n; i++) len += (size_t)snprintf(text + len, cap - len, "noise at=2,1 loudness=1 every=%d\n", i + 1);
        len += (size_t)snprintf(text + len, cap - len, "grid\n####\n#..#\n####\nend\n");
        pt_map m;
        pt_error err;
        int rc = pt_map_parse(&m, text, len, "limit.map", &err);
        if (!extra) {
            ck_assert_int_eq(rc, PT_OK);
            ck_assert_int_eq(m.nsources, n);
            pt_map_fini(&m);
        } else {
            ck_assert_int_eq(rc, PT_ERR_LIMIT);
            ck_assert_int_eq(err.line, n + 1);
            ck_assert_int_eq(err.col, 1);
        }
        free(text);
    }
}
END_TEST

/* Animals give the player away: a hen that starts to flee cackles where it stands, a flock
 * that starts to scatter is heard once per second at most; a guard out of earshot of the
 * sneaking player hears the animals and goes to look. */
START_TEST(test_animals) {
    for (uint64_t seed = 1; seed <= 5; seed++) {
        static const char text[] = "player at=1,4\n"
                                   "guard g at=14,1 heading=0 fov=30 view=3\n"
                                   "prey hen at=9,4\n"
                                   "prey hen2 at=12,6\n"
                                   "flock crows at=6,6 count=6 kind=crow\n"
                                   "grid\n"
                                   "##################\n"
                                   "#................#\n"
                                   "#................#\n"
                                   "#................#\n"
                                   "#................#\n"
                                   "#................#\n"
                                   "#................#\n"
                                   "##################\nend\n";
        pt_map m = parse_map(text);
        pt_error err;
        pt_world *w = pt_world_create(&m, NULL, &(pt_world_desc){.seed = seed, .player_controlled = 1}, &err);
        ck_assert(w != NULL);
        pt_world_set_gait(w, PT_GAIT_SNEAK);
        int n_ent = pt_world_count(w);
        pt_state before[64];
        ck_assert(n_ent <= 64);
        uint64_t last_flock = 0;
        int cackles = 0, scatters = 0, heard_animal = 0;
        for (int t = 0; t < 60 * 30; t++) {
            if (t % 240 == 0) pt_world_set_input(w, t % 480 ? -1 : 1, 0);
            for (int i = 0; i < n_ent; i++) before[i] = pt_world_entity(w, i)->state;
            pt_world_step(w);
            check_sane(w);
            int n;
            const pt_noise *nz = pt_world_noises(w, &n);
            int prey_started = 0, flock_started = 0;
            for (int i = 2; i < n_ent; i++) {
                const pt_entity *e = pt_world_entity(w, i);
                int started = before[i] != PT_STATE_FLEE && e->state == PT_STATE_FLEE;
                if (!started) continue;
                if (e->kind == PT_KIND_PREY) {
                    prey_started++;
                    int found = 0;
                    for (int k = 0; k < n; k++)
                        found += nz[k].kind == PT_NOISE_ANIMAL && nz[k].x == e->x && nz[k].y == e->y;
                    ck_assert(found >= 1);
                } else {
                    flock_started++;
                }
            }
            int animal = 0;
            for (int k = 0; k < n; k++) animal += nz[k].kind == PT_NOISE_ANIMAL;
            int flock_noise = animal - prey_started;
            ck_assert(flock_noise == 0 || flock_noise == 1);
            if (flock_noise) {
                ck_assert_int_gt(flock_started, 0);
                ck_assert(last_flock == 0 || pt_world_tick(w) - last_flock >= 60);
                last_flock = pt_world_tick(w);
                scatters++;
            } else if (flock_started && (last_flock == 0 || pt_world_tick(w) - last_flock >= 60)) {
                ck_abort_msg("a flock scattered unheard at tick %llu", (unsigned long long)pt_world_tick(w));
            }
            cackles += prey_started;
            pt_event ev;
            if (count_heard(w, 1, &ev)) {
                int from_animal = 0;
                for (int k = 0; k < n; k++)
                    from_animal |= nz[k].kind == PT_NOISE_ANIMAL && nz[k].x == ev.x && nz[k].y == ev.y;
                heard_animal += from_animal;
                ck_assert(from_animal || hypot(ev.x - pt_world_entity(w, 0)->x, ev.y - pt_world_entity(w, 0)->y) < 2);
            }
        }
        ck_assert_int_gt(cackles, 0);
        ck_assert_int_gt(scatters, 0);
        ck_assert_int_gt(heard_animal, 0);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
}
END_TEST

/* A Tiled object of class noise: the tile under it, its properties, first = every by default. */
START_TEST(test_tmx_source) {
    static const char text[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<map version=\"1.10\" orientation=\"orthogonal\" width=\"3\" height=\"2\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\">\n"
        " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"2\" columns=\"2\"><tile id=\"0\"><properties><property name=\"walkable\" type=\"bool\" value=\"true\"/></properties></tile></tileset>\n"
        " <layer id=\"1\" name=\"g\" width=\"3\" height=\"2\">\n"
        "  <data encoding=\"csv\">1,1,1,\n"
        "1,1,1</data>\n"
        " </layer>\n"
        " <objectgroup id=\"2\"><object id=\"1\" type=\"player\" x=\"8\" y=\"8\"><point/></object>\n"
        "  <object id=\"2\" type=\"noise\" x=\"40\" y=\"8\"><properties><property name=\"loudness\" type=\"float\" value=\"6\"/><property name=\"every\" type=\"int\" value=\"2\"/></properties><point/></object></objectgroup>\n"
        "</map>\n";
    pt_map m;
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_error err;
    ck_assert_msg(pt_tmx_parse(&m, &lib, text, strlen(text), "noise.tmx", &err) == PT_OK, "%s", err.message);
    ck_assert_int_eq(m.nsources, 1);
    ck_assert(m.sources[0].x == 2 && m.sources[0].y == 0);
    ck_assert(m.sources[0].loudness == 6.0 && m.sources[0].every == 2.0 && m.sources[0].first == 2.0);
    ck_assert_int_eq(m.sources[0].line, 9);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

static Suite *noise_suite(void) {
    Suite *s = suite_create("noise");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_footsteps);
    tcase_add_test(tc, test_gait_speed);
    tcase_add_test(tc, test_pattern_player_keeps_its_gait);
    tcase_add_test(tc, test_game_noise);
    tcase_add_test(tc, test_legend_keys);
    tcase_add_test(tc, test_wall_and_door);
    tcase_add_test(tc, test_run_heard_sneak_not);
    tcase_add_test(tc, test_hearmap);
    tcase_add_test(tc, test_investigate_order);
    tcase_add_test(tc, test_hearing_never_chases);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_peripheral);
    tcase_add_test(tc, test_sources);
    tcase_add_test(tc, test_animals);
    tcase_add_test(tc, test_tmx_source);
    suite_add_tcase(s, tc);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, test_source_limit);
    suite_add_tcase(s, lim);
    return s;
}

int main(void) { return tu_run(noise_suite()); }
