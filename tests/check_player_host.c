/* SPDX-License-Identifier: Zlib */
/* The game's own player (patrol/player.h, docs/ai.md "The game's own player"): on generated
 * maps over many ticks, a player the host moves along the path an input-walking player
 * takes is seen, heard and remembered the same; a hosted player's footsteps are counted and
 * their loudness follows the documented formula; a teleport makes no noise and does not
 * slide; bad positions are refused and change nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/player.h>
#include <patrol/world.h>

#include "test_util.h"

enum { SIZE = 32, GUARDS = 8 };

static const char KINDS[] = ".=,:*E"; /* walkable kinds of the default legend: footsteps 1, 1.5, 0.5 */

/* The corner map of test_util.h, walkable kinds scattered over it, GUARDS guards standing
 * (no pattern) facing every way, all chase modes, and the player on a walkable cell. */
static void gen_map(pt_map *m, uint64_t seed) {
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    for (int i = 0; i < SIZE * SIZE / 5; i++) {
        int x = 1 + (int)pt_rng_below(&r, SIZE - 2), y = 1 + (int)pt_rng_below(&r, SIZE - 2);
        if (pt_map_walkable(m, x, y)) pt_map_set(m, x, y, KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))]);
    }
    m->ents = calloc(GUARDS, sizeof *m->ents);
    ck_assert_ptr_nonnull(m->ents);
    for (int i = 0; i < GUARDS; i++) {
        pt_entity_def *d = &m->ents[i];
        do {
            d->x = (int)pt_rng_below(&r, SIZE);
            d->y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(m, d->x, d->y));
        snprintf(d->name, sizeof d->name, "g%d", i + 1);
        d->kind = PT_KIND_GUARD;
        d->chase = (pt_chase)(i % 3);
        d->heading_deg = 45.0 * (i % 8);
        d->line = 1;
    }
    m->nents = GUARDS;
    do {
        m->player.x = (int)pt_rng_below(&r, SIZE);
        m->player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
}

static pt_world *make_world(const pt_map *m, uint64_t seed, int host) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    if (host) ck_assert_int_eq(pt_player_host(w), PT_OK);
    return w;
}

/* 1 when the input player at (x, y) going (dx, dy) would move (a step, or a slide). */
static int would_move(const pt_map *m, int x, int y, int dx, int dy) {
    if (pt_map_step_ok(m, x, y, x + dx, y + dy)) return 1;
    return (dx && pt_map_walkable(m, x + dx, y)) || (dy && pt_map_walkable(m, x, y + dy));
}

/* A player the host moves to where an input-walking player is after each step (its cell's
 * centre), at the velocity of the step it walks, is seen, heard, remembered and chased the
 * same: every guard, every event and every noise equal, tick for tick, until the first catch
 * (judged on drawn positions, where the two players differ: the input one slides); then
 * both are caught by the same guard within a few ticks. */
START_TEST(host_walks_like_input) {
    long spotted = 0, heard = 0, footsteps = 0, ticks_compared = 0, alike = 0;
    for (uint64_t seed = 1; seed <= 48; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_world *a = make_world(&m, seed, 0), *b = make_world(&m, seed, 1);
        pt_rng r;
        pt_rng_seed(&r, seed, 3);
        int dx = 0, dy = 0, hold = 0, catch_a = -1, catch_b = -1, by_a = -1, by_b = -1;
        for (int t = 0; t < 3000; t++) {
            const pt_entity *pa = pt_world_entity(a, 0);
            if (--hold <= 0 || ((dx | dy) != 0 && !would_move(&m, pa->x, pa->y, dx, dy))) {
                do {
                    dx = (int)pt_rng_below(&r, 3) - 1;
                    dy = (int)pt_rng_below(&r, 3) - 1;
                } while ((dx | dy) != 0 && !would_move(&m, pa->x, pa->y, dx, dy));
                hold = 10 + (int)pt_rng_below(&r, 60);
            }
            pt_world_set_input(a, dx, dy);
            pt_world_step(a);
            double vx = 0.0, vy = 0.0;
            if ((pa->x != pa->prev_x || pa->y != pa->prev_y) && pa->move_t < 1.0) {
                double len = hypot(pa->x - pa->prev_x, pa->y - pa->prev_y);
                vx = (pa->x - pa->prev_x) / len * pa->speed;
                vy = (pa->y - pa->prev_y) / len * pa->speed;
            }
            pt_error err;
            ck_assert_int_eq(pt_player_move(b, pa->px, pa->py, vx, vy, &err), PT_OK);
            pt_world_step(b);
            int nea, neb, nna, nnb;
            const pt_event *ea = pt_world_events(a, &nea), *eb = pt_world_events(b, &neb);
            for (int k = 0; k < nea; k++)
                if (ea[k].kind == PT_EVENT_CAUGHT && catch_a < 0) catch_a = t, by_a = (int)ea[k].a;
            for (int k = 0; k < neb; k++)
                if (eb[k].kind == PT_EVENT_CAUGHT && catch_b < 0) catch_b = t, by_b = (int)eb[k].a;
            if (catch_a >= 0 && catch_b >= 0) break;
            if (catch_a >= 0 || catch_b >= 0) { /* the catches differ by a few ticks: no more comparing */
                if (t - (catch_a >= 0 ? catch_a : catch_b) > 120) break;
                continue;
            }
            ticks_compared++;
            const pt_entity *pb = pt_world_entity(b, 0);
            ck_assert_int_eq(pb->x, pa->x);
            ck_assert_int_eq(pb->y, pa->y);
            ck_assert_int_eq(nea, neb);
            for (int k = 0; k < nea; k++) {
                ck_assert_msg(ea[k].kind == eb[k].kind && ea[k].a == eb[k].a && ea[k].b == eb[k].b && ea[k].x == eb[k].x &&
                                  ea[k].y == eb[k].y,
                              "seed %llu tick %d: event %d differs", (unsigned long long)seed, t + 1, k);
                spotted += ea[k].kind == PT_EVENT_SPOTTED;
                heard += ea[k].kind == PT_EVENT_HEARD;
            }
            const pt_noise *na = pt_world_noises(a, &nna), *nb = pt_world_noises(b, &nnb);
            ck_assert_int_eq(nna, nnb);
            for (int k = 0; k < nna; k++) {
                ck_assert(na[k].x == nb[k].x && na[k].y == nb[k].y && na[k].kind == nb[k].kind);
                ck_assert_double_eq_tol(na[k].loudness, nb[k].loudness, 1e-9);
                footsteps += na[k].kind == PT_NOISE_FOOTSTEP;
            }
            for (int i = 1; i < pt_world_count(a); i++) {
                const pt_entity *ga = pt_world_entity(a, i), *gb = pt_world_entity(b, i);
                ck_assert_msg(ga->state == gb->state && ga->x == gb->x && ga->y == gb->y &&
                                  fabs(ga->px - gb->px) < 1e-9 && fabs(ga->py - gb->py) < 1e-9 &&
                                  fabs(ga->awareness - gb->awareness) < 1e-9 && ga->sees_player == gb->sees_player,
                              "seed %llu tick %d: guard %d differs (%s %d,%d vs %s %d,%d)", (unsigned long long)seed, t + 1,
                              i, pt_state_name(ga->state), ga->x, ga->y, pt_state_name(gb->state), gb->x, gb->y);
                pt_memory ma[PT_MEMORY_COUNT], mb[PT_MEMORY_COUNT];
                int ka = pt_world_guard_memory(a, i, ma, PT_MEMORY_COUNT), kb = pt_world_guard_memory(b, i, mb, PT_MEMORY_COUNT);
                ck_assert_int_eq(ka, kb);
                for (int k = 0; k < ka; k++)
                    ck_assert(ma[k].kind == mb[k].kind && ma[k].x == mb[k].x && ma[k].y == mb[k].y &&
                              ma[k].px == mb[k].px && ma[k].py == mb[k].py && ma[k].tick == mb[k].tick);
            }
        }
        /* Both caught by the same guard within a tenth of a second: the host's player is drawn
         * at its cell's centre, the input one slides toward it, so the host's may be caught a
         * few ticks first. */
        alike += catch_a >= 0 && catch_b >= 0 && by_a == by_b && abs(catch_a - catch_b) <= 6;
        pt_world_destroy(a);
        pt_world_destroy(b);
        pt_map_fini(&m);
    }
    /* The comparison means something: guards saw and heard the players, footsteps were made. */
    ck_assert_int_gt(spotted, 60);
    ck_assert_int_gt(heard, 60);
    ck_assert_int_gt(footsteps, 1000);
    ck_assert_int_gt(ticks_compared, 15000);
    ck_assert_int_ge(alike, 40); /* of 48 (42 when written) */
}
END_TEST

/* The documented gait table (docs/ai.md, "Noises"), written out here. */
static const double GAIT_SPEED[3] = {1.0, 0.5, 1.6}, GAIT_LOUD[3] = {6.0, 2.5, 12.0};

static double expected_step(const pt_map *m, int x, int y, int g, double player_speed, double v) {
    if (!(v > 0.0)) return 0.0;
    double k = fmin(v / (player_speed * GAIT_SPEED[g]), 2.0);
    const pt_tile_def *t = pt_map_tile(m, x, y);
    return fmax(GAIT_LOUD[g] * t->footstep * k, t->noise);
}

/* A hosted player moved by a random physics (speeds from standing to three times its own,
 * every gait, now and then a teleport): one footstep per move into another cell at a speed
 * above 0, on the new cell, of the documented loudness; none for a teleport or standing. */
START_TEST(footsteps_follow_the_formula) {
    long steps = 0, teleports = 0, silent_moves = 0, doubled = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pt_map m;
        gen_map(&m, seed);
        m.nents = 0; /* no guards: nothing but the player makes noises */
        pt_world *w = make_world(&m, seed, 1);
        const pt_entity *p = pt_world_entity(w, 0);
        pt_rng r;
        pt_rng_seed(&r, seed, 4);
        double x = p->px, y = p->py;
        for (int t = 0; t < 4000; t++) {
            int g = (int)pt_rng_below(&r, 3);
            pt_world_set_gait(w, (pt_gait)g);
            const int cx = p->x, cy = p->y;
            int jump = pt_rng_below(&r, 50) == 0;
            double vx = 0.0, vy = 0.0, nx = x, ny = y;
            pt_error err;
            if (jump) {
                do {
                    nx = 1 + pt_rng_below(&r, SIZE - 2) + pt_rng_unit(&r);
                    ny = 1 + pt_rng_below(&r, SIZE - 2) + pt_rng_unit(&r);
                } while (!pt_map_walkable(&m, (int)nx, (int)ny));
                ck_assert_int_eq(pt_player_teleport(w, nx, ny, &err), PT_OK);
            } else {
                double ang = pt_rng_unit(&r) * 6.283185307179586;
                double sp = pt_rng_below(&r, 8) == 0 ? 0.0 : pt_rng_unit(&r) * 3.0 * p->speed;
                vx = cos(ang) * sp;
                vy = sin(ang) * sp;
                nx = x + vx * pt_world_dt(w);
                ny = y + vy * pt_world_dt(w);
                if (!pt_map_walkable(&m, (int)floor(nx), (int)floor(ny))) { /* the game's physics stops at walls */
                    nx = x;
                    ny = y;
                    vx = vy = 0.0;
                }
                ck_assert_int_eq(pt_player_move(w, nx, ny, vx, vy, &err), PT_OK);
            }
            pt_world_step(w);
            x = nx;
            y = ny;
            ck_assert_double_eq(p->px, nx);
            ck_assert_double_eq(p->py, ny);
            ck_assert_int_eq(p->x, (int)floor(nx));
            ck_assert_int_eq(p->y, (int)floor(ny));
            int n;
            const pt_noise *nz = pt_world_noises(w, &n);
            int moved = p->x != cx || p->y != cy;
            double v = hypot(vx, vy);
            double want = moved && !jump ? expected_step(&m, p->x, p->y, g, p->speed, v) : 0.0;
            if (want > 0.0) {
                ck_assert_int_eq(n, 1);
                ck_assert_int_eq(nz[0].x, p->x);
                ck_assert_int_eq(nz[0].y, p->y);
                ck_assert_double_eq_tol(nz[0].loudness, want, 1e-12);
                ck_assert_double_eq_tol(pt_player_step_loudness(&m, p->x, p->y, (pt_gait)g, p->speed, v), want, 1e-12);
                const pt_tile_def *td = pt_map_tile(&m, p->x, p->y);
                ck_assert_int_eq(nz[0].kind, td->noise > GAIT_LOUD[g] * td->footstep * fmin(v / (p->speed * GAIT_SPEED[g]), 2.0)
                                                 ? PT_NOISE_TILE : PT_NOISE_FOOTSTEP);
                ck_assert_int_eq(p->prev_x, cx);
                ck_assert_int_eq(p->prev_y, cy);
                steps++;
                doubled += v > 2.0 * p->speed * GAIT_SPEED[g];
            } else {
                ck_assert_int_eq(n, 0);
                if (moved && jump) teleports++;
                if (moved && !jump) silent_moves++;
            }
            if (jump) {
                ck_assert_int_eq(p->prev_x, p->x);
                ck_assert_int_eq(p->prev_y, p->y);
            }
        }
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(steps, 2000);
    ck_assert_int_gt(teleports, 300);
    ck_assert_int_gt(doubled, 100);
    (void)silent_moves;
}
END_TEST

/* A squeaky board (noise=): a hosted player moving onto it makes the board's noise, kind
 * tile, whatever its gait and speed; standing on it (speed 0) makes none. */
START_TEST(squeaky_board) {
    pt_map m;
    pt_error err;
    const char *text = "format 1\nplayer at=1,1\ntile s board walkable noise=9\ngrid\n#####\n#.s.#\n#####\nend\n";
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "sq.map", &err), PT_OK);
    pt_world *w = make_world(&m, 1, 1);
    pt_world_set_gait(w, PT_GAIT_SNEAK);
    ck_assert_int_eq(pt_player_move(w, 2.1, 1.5, 0.5, 0.0, &err), PT_OK);
    pt_world_step(w);
    int n;
    const pt_noise *nz = pt_world_noises(w, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(nz[0].kind, PT_NOISE_TILE);
    ck_assert_double_eq(nz[0].loudness, 9.0);
    ck_assert_int_eq(pt_player_move(w, 2.2, 1.5, 0.0, 0.0, &err), PT_OK);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    /* leaving and coming back at speed 0 (a game that gives no velocity): silent */
    ck_assert_int_eq(pt_player_move(w, 1.9, 1.5, 0.0, 0.0, &err), PT_OK);
    pt_world_step(w);
    ck_assert_int_eq(pt_player_move(w, 2.1, 1.5, 0.0, 0.0, &err), PT_OK);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* A teleport: no noise, the player drawn at its new place whatever alpha (no slide from the
 * old one), prev cell = cell, heading kept; the next move slides along its velocity only. */
START_TEST(teleport_makes_no_noise_and_no_slide) {
    pt_map m;
    gen_map(&m, 5);
    m.nents = 0;
    pt_world *w = make_world(&m, 5, 1);
    const pt_entity *p = pt_world_entity(w, 0);
    pt_error err;
    double x0 = p->px, y0 = p->py;
    int moved = 0;
    for (double dx = -1; dx <= 1 && !moved; dx++)
        for (double dy = -1; dy <= 1 && !moved; dy++)
            if ((dx != 0 || dy != 0) && pt_map_walkable(&m, (int)floor(x0 + dx * 0.6), (int)floor(y0 + dy * 0.6))) {
                ck_assert_int_eq(pt_player_move(w, x0 + dx * 0.6, y0 + dy * 0.6, dx * 5, dy * 5, &err), PT_OK);
                moved = 1;
            }
    ck_assert(moved);
    pt_world_step(w);
    double heading = p->heading;
    /* the farthest walkable cell */
    int tx = -1, ty = -1;
    double best = -1;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++)
            if (pt_map_walkable(&m, x, y) && hypot(x - x0, y - y0) > best) {
                best = hypot(x - x0, y - y0);
                tx = x;
                ty = y;
            }
    ck_assert_int_eq(pt_player_teleport(w, tx + 0.25, ty + 0.75, &err), PT_OK);
    pt_world_step(w);
    int n;
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(p->x, tx);
    ck_assert_int_eq(p->y, ty);
    ck_assert_int_eq(p->prev_x, tx);
    ck_assert_int_eq(p->prev_y, ty);
    ck_assert_double_eq(p->heading, heading);
    for (double a = 0.0; a <= 1.0; a += 0.25) {
        pt_vec2 d = pt_world_drawn_pos(w, 0, a);
        ck_assert_double_eq(d.x, tx + 0.25);
        ck_assert_double_eq(d.y, ty + 0.75);
    }
    /* a teleport then a move before the same step: the move's place, still a jump */
    ck_assert_int_eq(pt_player_teleport(w, x0, y0, &err), PT_OK);
    ck_assert_int_eq(pt_player_move(w, x0, y0, 1.0, 0.0, &err), PT_OK);
    pt_world_step(w);
    pt_world_noises(w, &n);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(p->prev_x, p->x);
    ck_assert_double_eq(p->heading, 0.0);
    pt_vec2 d = pt_world_drawn_pos(w, 0, 0.5);
    ck_assert_double_eq_tol(d.x, x0 + 0.5 * pt_world_dt(w), 1e-12);
    /* no call before a step: it stands, velocity 0, drawn where it is */
    pt_world_step(w);
    d = pt_world_drawn_pos(w, 0, 1.0);
    ck_assert_double_eq(d.x, x0);
    ck_assert_double_eq(p->veh.vel.x, 0.0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* Bad positions are refused with their code and change nothing; a world that is not hosted
 * refuses them; a position whose tile became a wall before the step is dropped. */
START_TEST(bad_positions_change_nothing) {
    pt_map m;
    gen_map(&m, 7);
    m.nents = 0;
    pt_world *w = make_world(&m, 7, 0);
    pt_error err;
    const pt_entity *p = pt_world_entity(w, 0);
    ck_assert_int_eq(pt_player_hosted(w), 0);
    ck_assert_int_eq(pt_player_move(w, p->px, p->py, 0, 0, &err), PT_ERR_USAGE);
    ck_assert_int_eq(pt_player_teleport(w, p->px, p->py, &err), PT_ERR_USAGE);
    ck_assert_int_eq(pt_player_host(w), PT_OK);
    ck_assert_int_eq(pt_player_host(w), PT_OK);
    ck_assert_int_eq(pt_player_hosted(w), 1);
    ck_assert_int_eq(p->motion, PT_MOTION_CONTINUOUS);
    double x0 = p->px, y0 = p->py;
    ck_assert_int_eq(pt_player_move(w, NAN, 1.5, 0, 0, &err), PT_ERR_RANGE);
    ck_assert_int_eq(pt_player_move(w, 1.5, 1.5, INFINITY, 0, &err), PT_ERR_RANGE);
    ck_assert_int_eq(pt_player_move(w, -0.01, 1.5, 0, 0, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_player_teleport(w, 1.5, SIZE, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_player_teleport(w, 0.5, 0.5, &err), PT_ERR_NOT_WALKABLE); /* the frame */
    pt_world_step(w);
    ck_assert_double_eq(p->px, x0);
    ck_assert_double_eq(p->py, y0);
    /* a walkable cell, then it turns to wall before the step: the player stands */
    int tx = -1, ty = -1;
    for (int y = 1; y < SIZE - 1 && tx < 0; y++)
        for (int x = 1; x < SIZE - 1 && tx < 0; x++)
            if (pt_map_walkable(&m, x, y) && (x != p->x || y != p->y)) {
                tx = x;
                ty = y;
            }
    ck_assert_int_eq(pt_player_teleport(w, tx + 0.5, ty + 0.5, &err), PT_OK);
    ck_assert_int_eq(pt_world_set_tile(w, tx, ty, '#', &err), PT_OK);
    pt_world_step(w);
    ck_assert_double_eq(p->px, x0);
    ck_assert_double_eq(p->py, y0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* Sight, memory and the catch from the sub-tile position: a guard facing the player remembers
 * it exactly where the host put it, chases and catches it. */
START_TEST(seen_remembered_caught_where_put) {
    pt_map m;
    pt_error err;
    const char *text = "format 1\nplayer at=9,2\nguard g at=2,2 heading=0\ngrid\n############\n#..........#\n"
                       "#..........#\n#..........#\n############\nend\n";
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "see.map", &err), PT_OK);
    pt_world *w = make_world(&m, 1, 1);
    int caught_at = -1;
    for (int t = 0; t < 600 && caught_at < 0; t++) {
        ck_assert_int_eq(pt_player_move(w, 9.3, 2.7, 0.0, 0.0, &err), PT_OK);
        pt_world_step(w);
        pt_event ev;
        int n;
        const pt_event *evs = pt_world_events(w, &n);
        for (int k = 0; k < n; k++)
            if (evs[k].kind == PT_EVENT_CAUGHT) caught_at = t;
        (void)ev;
        if (t == 0) {
            pt_memory mem[PT_MEMORY_COUNT];
            int k = pt_world_guard_memory(w, 1, mem, PT_MEMORY_COUNT);
            ck_assert_int_ge(k, 1);
            ck_assert_int_eq(mem[0].kind, PT_MEMORY_SEEN);
            ck_assert_double_eq(mem[0].px, 9.3);
            ck_assert_double_eq(mem[0].py, 2.7);
            ck_assert_int_eq(mem[0].x, 9);
            ck_assert_int_eq(mem[0].y, 2);
        }
    }
    ck_assert_int_ge(caught_at, 0);
    /* sim: the next tick puts the player back at its start, standing, hosted still */
    pt_world_step(w);
    const pt_entity *p = pt_world_entity(w, 0);
    ck_assert_int_eq(p->x, 9);
    ck_assert_int_eq(p->y, 2);
    ck_assert_double_eq(p->px, 9.5);
    ck_assert_int_eq(pt_player_hosted(w), 1);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("player_host");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, host_walks_like_input);
    tcase_add_test(tc, footsteps_follow_the_formula);
    tcase_add_test(tc, squeaky_board);
    tcase_add_test(tc, teleport_makes_no_noise_and_no_slide);
    tcase_add_test(tc, bad_positions_change_nothing);
    tcase_add_test(tc, seen_remembered_caught_where_put);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
