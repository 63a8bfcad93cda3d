/* SPDX-License-Identifier: Zlib */
/* Tiles that change at run time (pt_world_set_tile, docs/ai.md "Tiles that change"): on
 * generated maps, thousands of random changes of every legend kind, interleaved with ticks;
 * after each batch the world's sight, hearing levels, A* paths and steering environment equal
 * those of a world created fresh from the changed map; an entity whose plan crossed a changed
 * cell dropped it, the others kept theirs; bad calls change nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/path.h>
#include <patrol/search.h>
#include <patrol/steer.h>
#include <patrol/world.h>

#include "nav/steer_env_index.h"
#include "nav/steer_env_ref.h"
#include "state/world_state.h"
#include "test_util.h"

enum { SIZE = 36, GUARDS = 6, SEEDS = 10, BATCHES = 30, BATCH = 12, PAIRS = 300 };

static const char KINDS[] = ".#~=+,*E:T"; /* every kind of the default legend */

/* A generated map: the corner map of test_util.h with every legend kind scattered over it,
 * GUARDS guards (half of them continuous movers), a flock and a player on walkable cells. */
static void gen_map(pt_map *m, uint64_t seed) {
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 5);
    for (int i = 0; i < SIZE * SIZE / 6; i++) {
        int x = 1 + (int)pt_rng_below(&r, SIZE - 2), y = 1 + (int)pt_rng_below(&r, SIZE - 2);
        pt_map_set(m, x, y, KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))]);
    }
    m->ents = calloc(GUARDS + 1, sizeof *m->ents);
    ck_assert_ptr_nonnull(m->ents);
    for (int i = 0; i < GUARDS; i++) {
        pt_entity_def *d = &m->ents[i];
        do {
            d->x = (int)pt_rng_below(&r, SIZE);
            d->y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(m, d->x, d->y));
        snprintf(d->name, sizeof d->name, "g%d", i + 1);
        d->kind = PT_KIND_GUARD;
        d->chase = i % 2 ? PT_CHASE_STEER : PT_CHASE_TILE;
        d->line = 1;
    }
    /* A flock after them: its crowd borrows the world's steering environment. */
    pt_entity_def *f = &m->ents[GUARDS];
    do {
        f->x = (int)pt_rng_below(&r, SIZE);
        f->y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, f->x, f->y));
    snprintf(f->name, sizeof f->name, "hounds");
    f->kind = PT_KIND_BOID;
    f->count = 12;
    f->line = 1;
    m->nents = GUARDS + 1;
    do {
        m->player.x = (int)pt_rng_below(&r, SIZE);
        m->player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
}

static pt_world *make_world(const pt_map *m, uint64_t seed) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(m, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

static pt_cell rand_cell(pt_rng *r) {
    return (pt_cell){(int)pt_rng_below(r, SIZE), (int)pt_rng_below(r, SIZE)};
}

/* Orders walls by their canonical key (the fresh build's order). */
static int wall_cmp(const void *pa, const void *pb) {
    return pt__wall_key_cmp(pt__wall_key_of(pa), pt__wall_key_of(pb));
}

/* env a (changed in place) holds what fresh b holds: the same walls (the array's order is
 * free: sorted, they are equal), each block listing the same walls (by value) in the same
 * order with the same boxes, every other slot of its own spare (id -1, a box no query box
 * meets), the spare count right; the same tile bits and clearances. */
static void same_env(const pt_steer_env *a, const pt_steer_env *b, uint64_t seed) {
    ck_assert_int_eq(a->nwalls, b->nwalls);
    size_t n = (size_t)a->nwalls;
    pt_wall *sa = malloc(sizeof *sa * (n ? n : 1)), *sb = malloc(sizeof *sb * (n ? n : 1));
    ck_assert(sa && sb);
    if (n) {
        memcpy(sa, a->walls, sizeof *sa * n);
        memcpy(sb, b->walls, sizeof *sb * n);
    }
    qsort(sa, n, sizeof *sa, wall_cmp);
    qsort(sb, n, sizeof *sb, wall_cmp);
    ck_assert_msg(n == 0 || memcmp(sa, sb, sizeof *sa * n) == 0, "seed %llu: the walls differ", (unsigned long long)seed);
    free(sa);
    free(sb);
    const struct pt__steer_index *ia = a->ix, *ib = b->ix;
    ck_assert_int_eq(ia->bcols, ib->bcols);
    ck_assert_int_eq(ia->brows, ib->brows);
    int nbk = ib->bcols * ib->brows, spare = 0;
    for (int blk = 0; blk < nbk; blk++) {
        ck_assert_int_eq(ia->wall_n[blk], ib->wall_n[blk]);
        ck_assert_int_le(ia->wall_start[blk] + ia->wall_n[blk], ia->wall_start[blk + 1]);
        for (int i = 0; i < ib->wall_n[blk]; i++) {
            int ka = ia->wall_start[blk] + i, kb = ib->wall_start[blk] + i;
            ck_assert_int_ge(ia->wall_ids[ka], 0);
            ck_assert_int_lt(ia->wall_ids[ka], a->nwalls);
            ck_assert_msg(memcmp(&a->walls[ia->wall_ids[ka]], &b->walls[ib->wall_ids[kb]], sizeof(pt_wall)) == 0,
                          "seed %llu: block %d, wall %d differs", (unsigned long long)seed, blk, i);
            ck_assert_int_eq(memcmp(&ia->wall_box[4 * (size_t)ka], &ib->wall_box[4 * (size_t)kb], 4 * sizeof(float)), 0);
        }
        for (int k = ia->wall_start[blk] + ia->wall_n[blk]; k < ia->wall_start[blk + 1]; k++, spare++) {
            ck_assert_int_eq(ia->wall_ids[k], -1);
            ck_assert(ia->wall_box[4 * (size_t)k + 2] == -INFINITY && ia->wall_box[4 * (size_t)k] == INFINITY);
        }
    }
    ck_assert_int_eq(spare, ia->wall_spare);
    ck_assert_int_eq(ia->wall_start[0], 0);
    ck_assert_int_eq(ia->wall_box_exact, ib->wall_box_exact);
    int w = ib->bits_w, h = ib->bits_h;
    ck_assert_int_eq(memcmp(ia->solid_bits, ib->solid_bits, (size_t)ib->bits_stride * (size_t)h), 0);
    ck_assert_int_eq(memcmp(ia->solid_cols, ib->solid_cols, (size_t)ib->cols_stride * (size_t)w), 0);
    for (int i = 0; i < w * h; i++)
        ck_assert_msg(ia->tile_clear[i] == ib->tile_clear[i], "seed %llu: clearance of %d,%d is %d, fresh %d",
                      (unsigned long long)seed, i % w, i / w, ia->tile_clear[i], ib->tile_clear[i]);
}

/* Sight, hearing, A* and the steering environment of w equal fresh's. */
static void compare(pt_world *w, pt_world *fresh, pt_rng *r, uint64_t seed) {
    const pt_map *a = &w->map, *b = &fresh->map;
    ck_assert_int_eq(memcmp(a->tiles, b->tiles, (size_t)SIZE * SIZE), 0);
    ck_assert_int_eq(memcmp(a->flags, b->flags, (size_t)SIZE * SIZE), 0);
    ck_assert_int_eq(a->goal, b->goal);
    for (int i = 0; i < PAIRS; i++) {
        pt_cell p = rand_cell(r), q = rand_cell(r);
        ck_assert_int_eq(pt_los_clear(a, p.x, p.y, q.x, q.y), pt_los_clear(b, p.x, p.y, q.x, q.y));
        double h = pt_rng_unit(r) * 6.283, vd = 3 + 10 * pt_rng_unit(r), va = 0.5 + 2 * pt_rng_unit(r);
        ck_assert_int_eq(pt_can_see(a, p.x + 0.5, p.y + 0.5, h, vd, va, q.x, q.y),
                         pt_can_see(b, p.x + 0.5, p.y + 0.5, h, vd, va, q.x, q.y));
    }
    /* Hearing: the same level at every cell of the flood's reach. */
    for (int i = 0; i < 20; i++) {
        pt_cell s = rand_cell(r);
        double loud = 2 + 14 * pt_rng_unit(r);
        ck_assert_int_eq(pt_hearing_flood(w->hearing, s.x, s.y, loud), pt_hearing_flood(fresh->hearing, s.x, s.y, loud));
        for (int y = 0; y < SIZE; y++)
            for (int x = 0; x < SIZE; x++)
                ck_assert_msg(pt_hearing_level(w->hearing, x, y) == pt_hearing_level(fresh->hearing, x, y),
                              "seed %llu: hearing at %d,%d from %d,%d", (unsigned long long)seed, x, y, s.x, s.y);
    }
    /* A*: the same cells. */
    static pt_cell pa[SIZE * SIZE], pb[SIZE * SIZE];
    for (int i = 0; i < 40; i++) {
        pt_cell p = rand_cell(r), q = rand_cell(r);
        int na = pt_path_find(w->pf, p, q, pa, SIZE * SIZE), nb = pt_path_find(fresh->pf, p, q, pb, SIZE * SIZE);
        ck_assert_int_eq(na, nb);
        if (na > 0) ck_assert_int_eq(memcmp(pa, pb, (size_t)na * sizeof *pa), 0);
    }
    /* Steering: the same walls, the same index. */
    ck_assert_ptr_eq(w->env.map, &w->map);
    same_env(&w->env, &fresh->env, seed);
    for (int i = 0; i < 200; i++) {
        pt_vehicle v = {0};
        v.pos = pt_v2(SIZE * pt_rng_unit(r), SIZE * pt_rng_unit(r));
        double ang = 6.283 * pt_rng_unit(r), sp = 3 * pt_rng_unit(r);
        v.vel = pt_v2(cos(ang) * sp, sin(ang) * sp);
        v.radius = 0.1 + 0.4 * pt_rng_unit(r);
        pt_vehicle_resolve(&v);
        pt_vec2 fa = pt_steer_wall_avoidance(&v, &w->env, NULL), fb = pt_steer_wall_avoidance(&v, &fresh->env, NULL);
        ck_assert_msg(fa.x == fb.x && fa.y == fb.y, "seed %llu: wall avoidance at %g,%g", (unsigned long long)seed,
                      v.pos.x, v.pos.y);
        pt_vec2 pa2 = v.pos, va2 = v.vel, pb2 = v.pos, vb2 = v.vel;
        ck_assert_int_eq(pt_steer_collide(&w->env, &pa2, &va2, v.radius), pt_steer_collide(&fresh->env, &pb2, &vb2, v.radius));
        ck_assert(pa2.x == pb2.x && pa2.y == pb2.y && va2.x == vb2.x && va2.y == vb2.y);
    }
}

/* Whether the plan still to walk (from the cell stepped from) crosses c: written out here,
 * independent of the world's own test. */
static int crosses(const pt_cell *path, int from, int len, pt_cell c) {
    for (int i = from; i < len; i++) {
        if (path[i].x == c.x && path[i].y == c.y) return 1;
        if (i + 1 < len && path[i].x != path[i + 1].x && path[i].y != path[i + 1].y &&
            ((path[i].x == c.x && path[i + 1].y == c.y) || (path[i + 1].x == c.x && path[i].y == c.y)))
            return 1;
    }
    return 0;
}

START_TEST(changes_match_a_fresh_world) {
    uint64_t seed = 1000 + (uint64_t)_i;
    pt_map m;
    gen_map(&m, seed);
    pt_world *w = make_world(&m, seed);
    ck_assert_int_eq(pt_world_count(w), 1 + GUARDS + 12); /* the flock is there */
    pt_rng r;
    pt_rng_seed(&r, seed, 6);
    int dropped = 0, kept = 0;
    static pt_cell saved[GUARDS + 1][SIZE * SIZE * 2];
    int saved_len[GUARDS + 1], saved_idx[GUARDS + 1], saved_planned[GUARDS + 1];
    for (int batch = 0; batch < BATCHES; batch++) {
        /* Guards with plans: a search somewhere, now and then. */
        if (batch % 5 == 0) {
            pt_cell c;
            do c = rand_cell(&r);
            while (!pt_map_walkable(&w->map, c.x, c.y));
            static const int ids[GUARDS] = {1, 2, 3, 4, 5, 6};
            pt_world_search_start(w, c.x, c.y, ids, GUARDS, 0);
        }
        for (int k = 0; k < BATCH; k++) {
            pt_cell c = rand_cell(&r);
            /* A third of the changes fall on a cell some plan still crosses. */
            int gid = 1 + (int)pt_rng_below(&r, GUARDS);
            const pt_entity *g = pt_world_entity(w, gid);
            if (pt_rng_below(&r, 3) == 0 && w->brains[gid].planned && g->path_idx < g->path_len)
                c = g->path[g->path_idx + (int)pt_rng_below(&r, (uint32_t)(g->path_len - g->path_idx))];
            char t = KINDS[pt_rng_below(&r, (uint32_t)strlen(KINDS))];
            for (int id = 1; id <= GUARDS; id++) {
                const pt_entity *e = pt_world_entity(w, id);
                saved_planned[id] = w->brains[id].planned;
                saved_len[id] = e->path_len;
                saved_idx[id] = e->path_idx;
                ck_assert_int_le(e->path_len, SIZE * SIZE * 2);
                if (e->path_len > 0) memcpy(saved[id], e->path, (size_t)e->path_len * sizeof *e->path);
            }
            int same = pt_map_tile(&w->map, c.x, c.y)->ch == t;
            pt_error err;
            ck_assert_int_eq(pt_world_set_tile(w, c.x, c.y, t, &err), PT_OK);
            ck_assert(pt_map_set(&m, c.x, c.y, t));
            for (int id = 1; id <= GUARDS; id++) {
                const pt_entity *e = pt_world_entity(w, id);
                if (!saved_planned[id]) continue;
                int from = saved_idx[id] > 0 ? saved_idx[id] - 1 : 0;
                if (!same && crosses(saved[id], from, saved_len[id], c)) {
                    ck_assert_msg(!w->brains[id].planned, "seed %llu: g%d kept a plan across %d,%d",
                                  (unsigned long long)seed, id, c.x, c.y);
                    dropped++;
                } else {
                    ck_assert_msg(w->brains[id].planned, "seed %llu: g%d dropped a plan that misses %d,%d",
                                  (unsigned long long)seed, id, c.x, c.y);
                    ck_assert_int_eq(e->path_len, saved_len[id]);
                    ck_assert_int_eq(e->path_idx, saved_idx[id]);
                    ck_assert_int_eq(memcmp(e->path, saved[id], (size_t)e->path_len * sizeof *e->path), 0);
                    kept++;
                }
            }
            /* Ticks in between; a tile guard never steps onto a cell it cannot walk. */
            int ticks = (int)pt_rng_below(&r, 4);
            for (int t2 = 0; t2 < ticks; t2++) {
                int px[GUARDS + 1], py[GUARDS + 1];
                for (int id = 1; id <= GUARDS; id++) px[id] = pt_world_entity(w, id)->x, py[id] = pt_world_entity(w, id)->y;
                pt_world_step(w);
                for (int id = 1; id <= GUARDS; id += 2) {
                    const pt_entity *e = pt_world_entity(w, id);
                    if (e->x != px[id] || e->y != py[id])
                        ck_assert_msg(pt_map_walkable(&w->map, e->x, e->y), "seed %llu: g%d stepped onto %d,%d",
                                      (unsigned long long)seed, id, e->x, e->y);
                }
            }
        }
        pt_world *fresh = make_world(&m, seed);
        compare(w, fresh, &r, seed);
        pt_world_destroy(fresh);
    }
    /* The test saw both kinds of plan. */
    ck_assert_int_gt(dropped, 0);
    ck_assert_int_gt(kept, 0);
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

START_TEST(bad_calls_change_nothing) {
    pt_map m;
    gen_map(&m, 7);
    pt_world *w = make_world(&m, 7);
    pt_error err;
    uint8_t before[SIZE * SIZE];
    memcpy(before, w->map.tiles, sizeof before);
    ck_assert_int_eq(pt_world_set_tile(w, -1, 0, '#', &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.code, PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_world_set_tile(w, 0, SIZE, '#', &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 3, 'Q', &err), PT_ERR_UNKNOWN_TILE);
    ck_assert(strstr(err.message, "'Q'") != NULL);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 3, '\0', &err), PT_ERR_UNKNOWN_TILE);
    ck_assert_int_eq(memcmp(before, w->map.tiles, sizeof before), 0);
    ck_assert_int_eq(pt_world_set_tile(w, 3, 3, '.', NULL), PT_OK); /* err may be NULL */
    pt_world_destroy(w);
    pt_map_fini(&m);
}
END_TEST

/* A custom environment (no map) is refused: it has no tiles to follow. */
START_TEST(env_update_needs_a_map) {
    pt_steer_env env;
    pt_wall wall = {pt_v2(0, 0), pt_v2(1, 0), pt_v2(0, 1)};
    ck_assert_int_eq(pt_steer_env_set(&env, &wall, 1, NULL, 0, NULL), PT_OK);
    ck_assert_int_eq(pt_steer_env_update_tile(&env, 0, 0), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(env.nwalls, 1);
    pt_steer_env_fini(&env);
    pt_map m;
    gen_map(&m, 3);
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    ck_assert_int_eq(pt_steer_env_update_tile(&env, SIZE, 0), PT_ERR_OUT_OF_MAP);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* Wall avoidance (the fast path and the reference over the block lists) and collision answer
 * the same bits on a and on fresh b, for random vehicles over a w x h map. */
static void same_answers(const pt_steer_env *a, const pt_steer_env *b, int w, int h, pt_rng *r) {
    for (int i = 0; i < 300; i++) {
        pt_vehicle v = {0};
        v.pos = pt_v2(-1 + (w + 2) * pt_rng_unit(r), -1 + (h + 2) * pt_rng_unit(r));
        double ang = 6.283 * pt_rng_unit(r), sp = 4 * pt_rng_unit(r);
        v.vel = pt_v2(cos(ang) * sp, sin(ang) * sp);
        v.radius = 0.1 + 0.5 * pt_rng_unit(r);
        pt_vehicle_resolve(&v);
        pt_vec2 fa = pt_steer_wall_avoidance(&v, a, NULL), fb = pt_steer_wall_avoidance(&v, b, NULL);
        ck_assert_msg(fa.x == fb.x && fa.y == fb.y, "wall avoidance at %g,%g", v.pos.x, v.pos.y);
        fa = pt__steer_wall_avoidance_ref(&v, a, NULL);
        fb = pt__steer_wall_avoidance_ref(&v, b, NULL);
        ck_assert_msg(fa.x == fb.x && fa.y == fb.y, "reference wall avoidance at %g,%g", v.pos.x, v.pos.y);
        pt_vec2 pa = v.pos, va = v.vel, pb = v.pos, vb = v.vel;
        ck_assert_int_eq(pt_steer_collide(a, &pa, &va, v.radius), pt_steer_collide(b, &pb, &vb, v.radius));
        ck_assert(pa.x == pb.x && pa.y == pb.y && va.x == vb.x && va.y == vb.y);
    }
}

/* Blocks whose slots differ from a fresh build's (its walls and one spare slot): each one
 * gave a spare slot to a neighbour or took one. */
static int blocks_reshaped(const pt_steer_env *a) {
    int n = 0, nbk = a->ix->bcols * a->ix->brows;
    for (int b = 0; b < nbk; b++) n += a->ix->wall_start[b + 1] - a->ix->wall_start[b] != a->ix->wall_n[b] + 1;
    return n;
}

/* The environment alone, thousands of changes of walkability on generated maps (not square,
 * the border included; half the changes inside one small square, so its blocks fill their
 * spare slots and borrow their neighbours'), checked against a fresh build every 150. */
START_TEST(env_toggles_match_fresh) {
    const int W = 70, H = 45;
    uint64_t seed = 500 + (uint64_t)_i;
    pt_map m;
    tu_corner_map(&m, W, H, seed);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    pt_rng r;
    pt_rng_seed(&r, seed, 9);
    int sx = (int)pt_rng_below(&r, W - 6), sy = (int)pt_rng_below(&r, H - 6), reshaped = 0;
    for (int k = 1; k <= 3000; k++) {
        int x, y;
        if (k % 2) {
            x = sx + (int)pt_rng_below(&r, 6);
            y = sy + (int)pt_rng_below(&r, 6);
        } else {
            x = (int)pt_rng_below(&r, W);
            y = (int)pt_rng_below(&r, H);
        }
        ck_assert(pt_map_set(&m, x, y, pt_map_walkable(&m, x, y) ? '#' : '.'));
        ck_assert_int_eq(pt_steer_env_update_tile(&env, x, y), PT_OK);
        if (k % 150 == 0) {
            pt_steer_env fresh;
            ck_assert_int_eq(pt_steer_env_build(&fresh, &m), PT_OK);
            same_env(&env, &fresh, seed);
            same_answers(&env, &fresh, W, H, &r);
            pt_steer_env_fini(&fresh);
            int n = blocks_reshaped(&env);
            reshaped = n > reshaped ? n : reshaped;
        }
    }
    ck_assert_int_gt(reshaped, 0); /* slots did move between blocks */
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

/* A map so small that one change adds more block entries than there are spare slots: the
 * lists are laid out again with more, and still equal a fresh build's walls. */
START_TEST(env_tiny_map_runs_out_of_spare) {
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&m, 3, 2, &err), PT_OK);
    pt_steer_env env;
    ck_assert_int_eq(pt_steer_env_build(&env, &m), PT_OK);
    int spread = 0;
    pt_rng r;
    pt_rng_seed(&r, 4, 4);
    for (int k = 0; k < 400; k++) {
        int x = (int)pt_rng_below(&r, 3), y = (int)pt_rng_below(&r, 2);
        int before = env.ix->wall_start[env.ix->bcols * env.ix->brows];
        ck_assert(pt_map_set(&m, x, y, pt_map_walkable(&m, x, y) ? '#' : '.'));
        ck_assert_int_eq(pt_steer_env_update_tile(&env, x, y), PT_OK);
        spread += env.ix->wall_start[env.ix->bcols * env.ix->brows] > before;
        pt_steer_env fresh;
        ck_assert_int_eq(pt_steer_env_build(&fresh, &m), PT_OK);
        ck_assert_int_eq(pt_steer_env_update_tile(&fresh, x, y), PT_OK); /* in step: nothing to do */
        same_env(&env, &fresh, 4);
        same_answers(&env, &fresh, 3, 2, &r);
        pt_steer_env_fini(&fresh);
    }
    ck_assert_int_gt(spread, 0);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("set_tile");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, changes_match_a_fresh_world, 0, SEEDS);
    tcase_add_test(tc, bad_calls_change_nothing);
    tcase_add_test(tc, env_update_needs_a_map);
    tcase_add_loop_test(tc, env_toggles_match_fresh, 0, 6);
    tcase_add_test(tc, env_tiny_map_runs_out_of_spare);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
