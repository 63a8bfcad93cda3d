/* SPDX-License-Identifier: Zlib */
/* Guard memory (docs/ai.md, "Memory"): what a guard remembers ages out as documented, the
 * brain acts on a remembered noise after it stopped (and not once it is forgotten), told
 * places are remembered, and memories are deterministic and sane on the demo. Expected
 * certainties are worked out here from the documented rule, independently of memory.c. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/world.h>

#include "test_util.h"

static void parse(pt_map *m, const char *text) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, text, strlen(text), "memory.map", &err) == PT_OK, "%s", err.message);
}

static pt_world *make_world(const pt_map *m, uint64_t seed) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* The memory of kind k of guard id, 1 when it has a live one. */
static int memory_of(const pt_world *w, int id, pt_memory_kind k, pt_memory *out) {
    pt_memory mem[PT_MEMORY_COUNT];
    int n = pt_world_guard_memory(w, id, mem, PT_MEMORY_COUNT);
    ck_assert(n >= 0 && n <= PT_MEMORY_COUNT);
    for (int i = 0; i < n; i++) {
        ck_assert(isfinite(mem[i].certainty) && mem[i].certainty > 0.0 && mem[i].certainty <= 1.0);
        if (i > 0) ck_assert_int_lt(mem[i - 1].kind, mem[i].kind);
        if (mem[i].kind == k) {
            *out = mem[i];
            return 1;
        }
    }
    return 0;
}

/* The HEARD event of guard id in the last step: its level in tiles, or -1. */
static double heard_level(const pt_world *w, int id, int *x, int *y) {
    int ne;
    const pt_event *ev = pt_world_events(w, &ne);
    for (int k = 0; k < ne; k++)
        if (ev[k].kind == PT_EVENT_HEARD && (int)ev[k].a == id) {
            *x = ev[k].x;
            *y = ev[k].y;
            return ev[k].b / 10.0;
        }
    return -1.0;
}

/* A guard alone in a room hears a stone: the memory is at the stone's cell, starts at the
 * documented certainty, falls by 1 over the span, and is gone on the tick it reaches 0. */
START_TEST(test_memory_ages_out) {
    static const double spans[] = {0.25, 0.5, 1, 2.5, 4}, hearings[] = {0.5, 1, 2, 3};
    int checked = 0, vague = 0, sure = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 5);
        double span = spans[pt_rng_below(&r, 5)], hearing = hearings[pt_rng_below(&r, 4)];
        int gx = 2 + (int)pt_rng_below(&r, 12), gy = 2 + (int)pt_rng_below(&r, 8);
        int nx, ny;
        do {
            nx = 1 + (int)pt_rng_below(&r, 14);
            ny = 1 + (int)pt_rng_below(&r, 10);
        } while (nx == gx && ny == gy);
        double loudness = 2.0 + (double)pt_rng_below(&r, 110) / 10.0;
        char text[2048];
        /* The player shut in a room of its own, so the guard never sees it. */
        snprintf(text, sizeof text,
                 "player at=17,5\nguard g at=%d,%d heading=%u hearing=%g memory=%g\ngrid\n"
                 "###################\n#..............#..#\n#..............#..#\n#..............#..#\n"
                 "#..............#..#\n#..............#..#\n#..............#..#\n#..............#..#\n"
                 "#..............#..#\n#..............#..#\n#..............#..#\n###################\nend\n",
                 gx, gy, (unsigned)pt_rng_below(&r, 360), hearing, span);
        pt_map m;
        parse(&m, text);
        pt_world *w = make_world(&m, seed);
        pt_memory mem;
        ck_assert(!memory_of(w, 1, PT_MEMORY_HEARD, &mem)); /* nothing before anything happens */
        pt_world_noise(w, nx, ny, loudness);
        double level = -1;
        int hx = 0, hy = 0;
        for (int t = 0; t < 3 && level < 0; t++) {
            pt_world_step(w);
            level = heard_level(w, 1, &hx, &hy);
        }
        if (level < 0) { /* too far or too faint for this guard */
            ck_assert(!memory_of(w, 1, PT_MEMORY_HEARD, &mem));
            pt_world_destroy(w);
            pt_map_fini(&m);
            continue;
        }
        ck_assert_int_eq(hx, nx);
        ck_assert_int_eq(hy, ny);
        const uint64_t t0 = pt_world_tick(w);
        const double c0 = fmin(1.0, level / (2.0 * hearing)), ticks = span * 60.0;
        c0 < 1.0 ? vague++ : sure++;
        double last = 2.0;
        for (int t = 0; t < 700; t++) {
            uint64_t now = pt_world_tick(w);
            double want = c0 - (double)(now - t0) / ticks;
            int live = memory_of(w, 1, PT_MEMORY_HEARD, &mem);
            ck_assert_msg(live == (want > 1e-9) || fabs(want) < 1e-9, "seed %llu tick %llu: live %d, expected %g",
                          (unsigned long long)seed, (unsigned long long)now, live, want);
            if (live) {
                memory_of(w, 1, PT_MEMORY_HEARD, &mem);
                ck_assert_int_eq(mem.x, nx);
                ck_assert_int_eq(mem.y, ny);
                ck_assert(mem.tick == t0);
                ck_assert_msg(fabs(mem.certainty - want) < 1e-9, "certainty %g, expected %g", mem.certainty, want);
                ck_assert(mem.certainty <= last);
                last = mem.certainty;
            } else if (want < -1e-9) {
                break;
            }
            pt_world_step(w);
        }
        ck_assert(!memory_of(w, 1, PT_MEMORY_HEARD, &mem)); /* a noise of a step is forgotten */
        checked++;
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(checked, 30);
    ck_assert_int_gt(vague, 0);
    ck_assert_int_gt(sure, 0);
}
END_TEST

/* A guard watches the player in a doorway (suspicious, slowly filling) when a stone falls
 * behind it: it does not go, it is watching. The player slips away behind the wall; once the
 * meter has drained the guard goes to where the stone fell if it still remembers it (its
 * certainty, worked out here, above 0), else it stays at its post. Random stones, loudness
 * and memory spans give both outcomes. */
START_TEST(test_memory_recalled_after_the_stimulus_stopped) {
    static const double spans[] = {0.5, 1, 1.5, 2, 2.5, 3, 5, 10};
    int went = 0, forgot = 0;
    for (uint64_t seed = 1; seed <= 48; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 9);
        double span = spans[pt_rng_below(&r, 8)];
        char text[2048];
        snprintf(text, sizeof text,
                 "player at=10,6\nguard g at=3,6 heading=0 aware_rate=0.5 suspicious_at=0.1 memory=%g\ngrid\n"
                 "######################\n#.........#..........#\n#.........#..........#\n#.........#..........#\n"
                 "#.........#..........#\n#.........#..........#\n#....................#\n#.........#..........#\n"
                 "#.........#..........#\n#.........#..........#\n#.........#..........#\n######################\nend\n",
                 span);
        /* row 6 is open through the wall at x=10: the doorway the player stands in */
        pt_map m;
        parse(&m, text);
        int qx, qy;
        do { /* behind or beside the guard, away from the doorway */
            qx = 1 + (int)pt_rng_below(&r, 5);
            qy = 1 + (int)pt_rng_below(&r, 10);
        } while (abs(qx - 3) + abs(qy - 6) < 2);
        double loudness = 5.0 + (double)pt_rng_below(&r, 60) / 10.0;
        pt_world *w = make_world(&m, seed);
        pt_world_set_gait(w, PT_GAIT_SNEAK); /* the player's own steps are not heard */
        const pt_entity *g = pt_world_entity(w, 1), *p = pt_world_entity(w, 0);
        int t = 0, thrown = -1, heard_tick = -1, hid = 0;
        double heard_c0 = 0;
        for (; t < 1200 && g->state != PT_STATE_SUSPICIOUS; t++) pt_world_step(w);
        ck_assert_int_eq(g->state, PT_STATE_SUSPICIOUS);
        pt_world_noise(w, qx, qy, loudness);
        thrown = t;
        /* Wait until it has heard, then the player walks east, north, north: out of sight. */
        int moves[3][2] = {{1, 0}, {0, -1}, {0, -1}}, mv = 0;
        int decided = -1;
        for (; t < thrown + 900; t++) {
            if (heard_tick >= 0 && mv < 3) {
                pt_world_set_input(w, moves[mv][0], moves[mv][1]);
            } else {
                pt_world_set_input(w, 0, 0);
            }
            int ox = p->x, oy = p->y;
            pt_world_step(w);
            if (p->x != ox || p->y != oy) mv++;
            if (mv == 3) hid = 1;
            int hx, hy;
            double level = heard_level(w, 1, &hx, &hy);
            if (level >= 0 && heard_tick < 0) {
                ck_assert_int_eq(hx, qx);
                ck_assert_int_eq(hy, qy);
                heard_tick = (int)pt_world_tick(w);
                heard_c0 = fmin(1.0, level / 2.0);
            }
            if (g->state == PT_STATE_CHASE) break; /* it saw too much: no verdict */
            if (g->state != PT_STATE_SUSPICIOUS) {
                decided = (int)pt_world_tick(w);
                break;
            }
        }
        if (heard_tick < 0 || decided < 0) { /* not heard (too faint) or gave chase */
            pt_world_destroy(w);
            pt_map_fini(&m);
            continue;
        }
        ck_assert(hid);
        ck_assert(!g->sees_player);
        double certainty = heard_c0 - (double)(decided - heard_tick) / (span * 60.0);
        if (fabs(certainty) < 1e-9) { /* a tie at the edge: either is right */
            pt_world_destroy(w);
            pt_map_fini(&m);
            continue;
        }
        if (certainty > 0) {
            ck_assert_msg(g->state == PT_STATE_INVESTIGATE, "seed %llu: %s, certainty %g", (unsigned long long)seed,
                          pt_state_name(g->state), certainty);
            int arrived = 0;
            for (int k = 0; k < 900 && !arrived; k++) {
                pt_world_step(w);
                arrived = g->x == qx && g->y == qy;
            }
            ck_assert_msg(arrived, "seed %llu: never reached %d,%d", (unsigned long long)seed, qx, qy);
            went++;
        } else {
            ck_assert_msg(g->state == PT_STATE_IDLE, "seed %llu: %s, certainty %g", (unsigned long long)seed,
                          pt_state_name(g->state), certainty);
            pt_memory mem;
            ck_assert(!memory_of(w, 1, PT_MEMORY_HEARD, &mem));
            for (int k = 0; k < 300; k++) {
                pt_world_step(w);
                ck_assert_int_eq(g->state, PT_STATE_IDLE);
                ck_assert(g->x == 3 && g->y == 6);
            }
            forgot++;
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_ge(went, 5);
    ck_assert_int_ge(forgot, 5);
}
END_TEST

/* A caller that sees the player across water (it cannot reach it) radios a blind guard: the
 * guard remembers the told place, as sure as the caller, and walks to it though the player
 * has long slipped away. */
START_TEST(test_memory_told_place) {
    int checked = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 13);
        int px = 3 + (int)pt_rng_below(&r, 8);
        int bx = 3 + (int)pt_rng_below(&r, 14), by = 8 + (int)pt_rng_below(&r, 3);
        char text[2048];
        snprintf(text, sizeof text,
                 "player at=%d,5\nguard caller at=%d,2 heading=90 radio=blue\n"
                 "guard blind at=%d,%d heading=90 fov=1 view=0.5 radio=blue memory=20\ngrid\n"
                 "####################\n#..................#\n#..................#\n#~~~~~~~~~~~~~~~~~~#\n"
                 "#..................#\n#..................#\n#..................#\n#..................#\n"
                 "#..................#\n#..................#\n#..................#\n####################\nend\n",
                 px, px, bx, by);
        pt_map m;
        parse(&m, text);
        pt_world *w = make_world(&m, seed);
        pt_world_set_gait(w, PT_GAIT_SNEAK);
        const pt_entity *c = pt_world_entity(w, 1), *b = pt_world_entity(w, 2);
        int told = -1;
        for (int t = 0; t < 600 && told < 0; t++) {
            pt_world_step(w);
            int ne;
            const pt_event *ev = pt_world_events(w, &ne);
            for (int k = 0; k < ne; k++)
                if (ev[k].kind == PT_EVENT_CALLED && ev[k].b == 2) told = (int)pt_world_tick(w);
        }
        ck_assert_int_ge(told, 0);
        ck_assert_int_eq(c->state, PT_STATE_CHASE);
        pt_memory mem;
        ck_assert(memory_of(w, 2, PT_MEMORY_TOLD, &mem));
        ck_assert_int_eq(mem.x, px);
        ck_assert_int_eq(mem.y, 5);
        ck_assert(mem.tick == (uint64_t)told);
        pt_memory seen;
        ck_assert(memory_of(w, 1, PT_MEMORY_SEEN, &seen));
        ck_assert(fabs(mem.certainty - seen.certainty) < 1e-9); /* as sure as the caller */
        /* The player sneaks off along the water, 6 tiles east or west, and stands. */
        int dir = px < 10 ? 1 : -1, arrived = 0;
        for (int t = 0; t < 1200 && !arrived; t++) {
            pt_world_set_input(w, abs(pt_world_entity(w, 0)->x - px) < 6 ? dir : 0, 0);
            pt_world_step(w);
            ck_assert(b->state != PT_STATE_CHASE);
            arrived = b->x == px && b->y == 5;
        }
        ck_assert_msg(arrived, "seed %llu: the told guard never reached %d,5", (unsigned long long)seed, px);
        checked++;
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(checked, 16);
}
END_TEST

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

/* The demo, twice: the same memories every tick; every certainty finite and in (0, 1], a fresh
 * sight 1 (or 0.5 sensed close by). */
START_TEST(test_memory_deterministic_and_sane) {
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, "maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++)
        ck_assert_msg(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK, "%s", err.message);
    uint64_t hash[2] = {0, 0};
    int seen_any[PT_MEMORY_COUNT] = {0};
    for (int run = 0; run < 2; run++) {
        pt_world_desc d = {.seed = 7};
        pt_world *w = pt_world_create(&m, &lib, &d, &err);
        ck_assert_msg(w != NULL, "%s", err.message);
        ck_assert_int_eq(pt_world_guard_memory(w, 0, NULL, 0), 0); /* the player is no guard */
        ck_assert_int_eq(pt_world_guard_memory(w, -1, NULL, 0), 0);
        ck_assert_int_eq(pt_world_guard_memory(w, pt_world_count(w), NULL, 0), 0);
        uint64_t h = 1469598103934665603ull;
        for (int t = 0; t < 3000; t++) {
            pt_world_step(w);
            for (int id = 1; id < pt_world_count(w); id++) {
                pt_memory mem[PT_MEMORY_COUNT];
                int n = pt_world_guard_memory(w, id, mem, PT_MEMORY_COUNT);
                ck_assert(n >= 0 && n <= PT_MEMORY_COUNT);
                if (pt_world_entity(w, id)->kind != PT_KIND_GUARD) ck_assert_int_eq(n, 0);
                ck_assert_int_eq(pt_world_guard_memory(w, id, NULL, 0), n);
                for (int i = 0; i < n; i++) {
                    ck_assert(isfinite(mem[i].certainty) && mem[i].certainty > 0.0 && mem[i].certainty <= 1.0);
                    ck_assert(isfinite(mem[i].px) && isfinite(mem[i].py));
                    ck_assert(mem[i].tick <= pt_world_tick(w));
                    seen_any[mem[i].kind] = 1;
                    if (mem[i].kind == PT_MEMORY_SEEN && mem[i].tick == pt_world_tick(w))
                        ck_assert(mem[i].certainty == 1.0 || mem[i].certainty == 0.5);
                    uint64_t bits;
                    memcpy(&bits, &mem[i].certainty, sizeof bits);
                    h = mix(mix(mix(h, (uint64_t)id), (uint64_t)mem[i].kind), bits ^ mem[i].tick);
                }
            }
        }
        hash[run] = h;
        pt_world_destroy(w);
    }
    ck_assert(hash[0] == hash[1]);
    ck_assert(seen_any[PT_MEMORY_SEEN]);
    ck_assert_str_eq(pt_memory_kind_name(PT_MEMORY_TOLD), "told");
    ck_assert_str_eq(pt_memory_kind_name(PT_MEMORY_COUNT), "unknown");
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_memory_ages_out);
    tcase_add_test(tc, test_memory_recalled_after_the_stimulus_stopped);
    tcase_add_test(tc, test_memory_told_place);
    tcase_add_test(tc, test_memory_deterministic_and_sane);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
