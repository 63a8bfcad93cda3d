/* SPDX-License-Identifier: Zlib */
/* Guards relight the lights of their round they find out (patrol/light.h; docs/ai.md,
 * "Relighting"). On generated maps and many seeds: a light the game put out is lit again by a
 * guard that saw it lit on its round (an independent record of what each guard saw, kept
 * here from the guards' places and facings), with its event, after a 1 s stand beside it,
 * and the guard goes back to its round; never a light no guard saw lit; nothing with the
 * map's `relight off`; one guard per light; thousands of ticks of random switching leave
 * no guard stuck. On a small map: a noise, an order and the game's own relight come first. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/door.h>
#include <patrol/light.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/rng.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "state/world_state.h"
#include "test_util.h"

enum { SIZE = 34, MAXG = 6, MAXL = 12, STAND = 60 };

/* A generated level: a walled room with scattered walls and ponds, guards walking
 * rectangular rounds (cleared of walls), lights beside the rounds, some on ponds (not
 * walkable: the guard stands next to them), the player shut in a corner no guard sees. */
typedef struct level {
    pt_map map;
    pt_patlib lib;
    int ng, nl;
    int gx[MAXG], gy[MAXG], gw[MAXG], gh[MAXG]; /* each round: its corner and size */
} level;

static int on_round(const level *lv, int g, int x, int y) {
    int x0 = lv->gx[g], y0 = lv->gy[g], x1 = x0 + lv->gw[g], y1 = y0 + lv->gh[g];
    if (x < x0 || x > x1 || y < y0 || y > y1) return 0;
    return x == x0 || x == x1 || y == y0 || y == y1;
}

static void gen_level(level *lv, uint64_t seed, int relight, int start_off) {
    memset(lv, 0, sizeof *lv);
    pt_rng r;
    pt_rng_seed(&r, seed, 39);
    char grid[SIZE][SIZE + 1];
    for (int y = 0; y < SIZE; y++) {
        for (int x = 0; x < SIZE; x++) {
            int edge = x == 0 || y == 0 || x == SIZE - 1 || y == SIZE - 1;
            uint32_t k = pt_rng_below(&r, 100);
            grid[y][x] = edge ? '#' : k < 6 ? '#' : k < 9 ? '~' : '.';
        }
        grid[y][SIZE] = '\0';
    }
    /* the player's corner, sealed */
    grid[1][1] = '.';
    grid[1][2] = grid[2][1] = grid[2][2] = '#';
    lv->ng = 3 + (int)pt_rng_below(&r, MAXG - 2);
    char ents[2048];
    int len = snprintf(ents, sizeof ents, "player at=1,1\n");
    for (int g = 0; g < lv->ng; g++) {
        lv->gw[g] = 3 + (int)pt_rng_below(&r, 5);
        lv->gh[g] = 3 + (int)pt_rng_below(&r, 4);
        lv->gx[g] = 5 + (int)pt_rng_below(&r, (uint32_t)(SIZE - 8 - lv->gw[g]));
        lv->gy[g] = 5 + (int)pt_rng_below(&r, (uint32_t)(SIZE - 8 - lv->gh[g]));
        for (int y = lv->gy[g]; y <= lv->gy[g] + lv->gh[g]; y++)
            for (int x = lv->gx[g]; x <= lv->gx[g] + lv->gw[g]; x++)
                if (on_round(lv, g, x, y)) grid[y][x] = '.';
        len += snprintf(ents + len, sizeof ents - (size_t)len, "guard g%d at=%d,%d pattern=box%d%d view=7 fov=100 speed=%d\n",
                        g + 1, lv->gx[g], lv->gy[g], lv->gw[g], lv->gh[g], 2 + (int)pt_rng_below(&r, 3));
    }
    /* lights: each 1 or 2 cells off a round cell, a cleared way to it */
    lv->nl = 4 + (int)pt_rng_below(&r, MAXL - 3);
    pt_light_def *lights = calloc((size_t)lv->nl, sizeof *lights);
    ck_assert_ptr_nonnull(lights);
    for (int i = 0; i < lv->nl; i++) {
        int g = (int)pt_rng_below(&r, (uint32_t)lv->ng), x, y, dx, dy, d;
        do {
            x = lv->gx[g] + (int)pt_rng_below(&r, (uint32_t)lv->gw[g] + 1);
            y = lv->gy[g] + (int)pt_rng_below(&r, (uint32_t)lv->gh[g] + 1);
        } while (!on_round(lv, g, x, y));
        do {
            dx = (int)pt_rng_below(&r, 3) - 1;
            dy = (int)pt_rng_below(&r, 3) - 1;
            d = 1 + (int)pt_rng_below(&r, 2);
            int dup = 0; /* one light a cell */
            for (int j = 0; j < i; j++) dup |= lights[j].x == x + d * dx && lights[j].y == y + d * dy;
            if (dup) dx = dy = 0;
        } while ((!dx && !dy) || x + d * dx < 3 || y + d * dy < 3 || x + d * dx > SIZE - 2 || y + d * dy > SIZE - 2);
        for (int k = 1; k < d; k++) grid[y + k * dy][x + k * dx] = '.';
        if (dx && dy) grid[y + d * dy][x + (d - 1) * dx] = grid[y + (d - 1) * dy][x + d * dx] = '.'; /* no sealed corner */
        x += d * dx;
        y += d * dy;
        int taken = 0; /* a pond never on a round */
        for (int h = 0; h < lv->ng; h++) taken |= on_round(lv, h, x, y);
        grid[y][x] = pt_rng_below(&r, 3) == 0 && !taken ? '~' : '.';
        pt_light_def *l = &lights[i];
        snprintf(l->name, sizeof l->name, "l%d", i);
        l->x = x;
        l->y = y;
        l->radius = 4;
        l->level = 1;
        l->on = !(start_off && i % 3 == 0);
        l->line = 1;
        l->col = 1;
    }
    char text[8192];
    int n = snprintf(text, sizeof text, "%sgrid\n", ents);
    for (int y = 0; y < SIZE; y++) n += snprintf(text + n, sizeof text - (size_t)n, "%s\n", grid[y]);
    snprintf(text + n, sizeof text - (size_t)n, "end\n");
    pt_error err;
    ck_assert_msg(pt_map_parse(&lv->map, text, strlen(text), "gen.map", &err) == PT_OK, "seed %llu: %d:%d %s",
                  (unsigned long long)seed, err.line, err.col, err.message);
    lv->map.lights = lights;
    lv->map.nlights = lv->nl;
    lv->map.relight = relight;
    char pats[8192];
    n = 0;
    for (int wd = 3; wd <= 7; wd++)
        for (int ht = 3; ht <= 6; ht++)
            n += snprintf(pats + n, sizeof pats - (size_t)n, "pattern box%d%d\n  kind path\n  points 0,0 %d,0 %d,%d 0,%d 0,0\nend\n", wd,
                          ht, wd, wd, ht, ht);
    pt_patlib_init(&lv->lib);
    ck_assert_msg(pt_patlib_parse(&lv->lib, pats, strlen(pats), "gen.pat", &err) == PT_OK, "%s", err.message);
}

static void free_level(level *lv) {
    pt_patlib_fini(&lv->lib);
    pt_map_fini(&lv->map);
}

static pt_world *make_world(const level *lv, uint64_t seed) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(&lv->map, &lv->lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

/* What the run saw, kept by the test itself. */
typedef struct watch {
    unsigned char seen[MAXG + 1][MAXL]; /* guard id, light: it saw the light lit on its round */
    int last_move[MAXG + 1];           /* the tick its cell last changed */
    int px[MAXG + 1], py[MAXG + 1];
    int relit[MAXL];                    /* relights by guards */
    int owes_return[MAXG + 1];          /* relit, and not yet back on its round */
    int returned[MAXG + 1];
    int max_still;                      /* the longest a guard stood on one cell, in ticks */
} watch;

/* After a step: the events checked against the record, then the record kept up to date. */
static void observe(pt_world *w, const level *lv, watch *wa, uint64_t seed) {
    const int t = (int)pt_world_tick(w);
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = 0; k < n; k++) {
        if (ev[k].kind == PT_EVENT_RETURNED && ev[k].a >= 1 && ev[k].a <= (uint32_t)lv->ng) {
            int g = (int)ev[k].a;
            ck_assert_msg(on_round(lv, g - 1, ev[k].x, ev[k].y), "seed %llu tick %d: guard %d returned off its round", (unsigned long long)seed,
                          t, g);
            wa->owes_return[g] = 0;
            wa->returned[g]++;
        }
        if (ev[k].kind != PT_EVENT_LIGHT || ev[k].a == PT_LIGHT_BY_GAME) continue;
        int g = (int)ev[k].a, i = -1;
        for (int j = 0; j < lv->nl; j++)
            if (lv->map.lights[j].x == ev[k].x && lv->map.lights[j].y == ev[k].y) i = j;
        ck_assert_msg(g >= 1 && g <= lv->ng && i >= 0 && ev[k].b == 1, "seed %llu tick %d: a light event %u %u", (unsigned long long)seed, t,
                      ev[k].a, ev[k].b);
        ck_assert_msg(wa->seen[g][i], "seed %llu tick %d: guard %d relit light %d it never saw lit", (unsigned long long)seed, t, g, i);
        const pt_entity *e = pt_world_entity(w, g);
        const pt_light_def *l = &lv->map.lights[i];
        int walkable = pt_map_walkable(pt_world_map(w), l->x, l->y);
        int dx = abs(e->x - l->x), dy = abs(e->y - l->y);
        ck_assert_msg(walkable ? dx == 0 && dy == 0 : dx <= 1 && dy <= 1 && (dx || dy),
                      "seed %llu tick %d: guard %d at %d,%d relit light %d at %d,%d", (unsigned long long)seed, t, g, e->x, e->y, i,
                      l->x, l->y);
        ck_assert_msg(t - wa->last_move[g] >= STAND, "seed %llu tick %d: guard %d stood %d ticks", (unsigned long long)seed, t, g,
                      t - wa->last_move[g]);
        wa->relit[i]++;
        wa->owes_return[g] = 1;
    }
    for (int g = 1; g <= lv->ng; g++) {
        const pt_entity *e = pt_world_entity(w, g);
        if (e->x != wa->px[g] || e->y != wa->py[g]) {
            wa->px[g] = e->x;
            wa->py[g] = e->y;
            wa->last_move[g] = t;
        }
        if (t - wa->last_move[g] > wa->max_still) {
            wa->max_still = t - wa->last_move[g];
            if (getenv("RELIGHT_DEBUG"))
                fprintf(stderr, "seed %llu tick %d: guard %d at %d,%d state %d relight %d wait %d\n", (unsigned long long)seed, t, g,
                        e->x, e->y, e->state, w->brains[g].relight, w->brains[g].relight_wait);
        }
        if (e->state != PT_STATE_PATROL) continue;
        for (int i = 0; i < lv->nl; i++) {
            const pt_light_def *l = &lv->map.lights[i];
            pt_light li;
            ck_assert_int_eq(pt_world_light_get(w, i, &li), PT_OK);
            if (li.on && pt_can_see(pt_world_map(w), e->px, e->py, e->heading, e->view_dist, e->view_angle, l->x + 0.5, l->y + 0.5))
                wa->seen[g][i] = 1;
        }
    }
    /* one guard per light */
    for (int i = 0; i < lv->nl; i++) {
        int going = 0;
        for (int g = 1; g <= lv->ng; g++) going += w->brains[g].relight == i + 1;
        ck_assert_msg(going <= 1, "seed %llu tick %d: %d guards go to light %d", (unsigned long long)seed, t, going, i);
    }
}

static void run(pt_world *w, const level *lv, watch *wa, uint64_t seed, int ticks) {
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        observe(w, lv, wa, seed);
    }
}

static int guard_events(const pt_world *w, pt_event_kind k) {
    int n, c = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++) c += ev[i].kind == k && ev[i].a != PT_LIGHT_BY_GAME;
    return c;
}

/* ---- generated maps ----------------------------------------------------------------- */

enum { SEEDS = 24, LEARN = 900, AFTER = 3600 };

START_TEST(test_relit_by_a_guard_that_saw_it) {
    long relit = 0, pond = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        level lv;
        gen_level(&lv, seed, seed % 2 ? 0 : 1, 0); /* relight not given (on), and `relight on` */
        pt_world *w = make_world(&lv, seed);
        static watch wa;
        memset(&wa, 0, sizeof wa);
        run(w, &lv, &wa, seed, LEARN);
        int expect[MAXL] = {0};
        for (int i = 0; i < lv.nl; i++) {
            for (int g = 1; g <= lv.ng; g++) expect[i] |= wa.seen[g][i];
            ck_assert_int_eq(pt_world_set_light(w, i, 0, NULL), PT_OK);
            ck_assert_int_eq(wa.relit[i], 0); /* all lit so far: nothing to relight */
        }
        run(w, &lv, &wa, seed, AFTER);
        for (int i = 0; i < lv.nl; i++) {
            pt_light li;
            pt_world_light_get(w, i, &li);
            /* a light some guard saw lit is lit again, once; one none saw stays out (a guard
             * that first sees a light out never learns it) */
            ck_assert_msg(wa.relit[i] == expect[i] && li.on == expect[i], "seed %llu: light %d at %d,%d seen %d relit %d on %d",
                          (unsigned long long)seed, i, li.x, li.y, expect[i], wa.relit[i], li.on);
            relit += wa.relit[i];
            pond += wa.relit[i] && !pt_map_walkable(&lv.map, li.x, li.y);
        }
        /* every guard that relit went back to its round, and all walk their rounds again */
        for (int g = 1; g <= lv.ng; g++) {
            ck_assert_msg(!wa.owes_return[g], "seed %llu: guard %d did not go back to its round", (unsigned long long)seed, g);
            ck_assert_int_eq(pt_world_entity(w, g)->state, PT_STATE_PATROL);
            ck_assert_int_eq(w->brains[g].relight, 0);
        }
        ck_assert_int_le(wa.max_still, 5 * STAND); /* stands, one after another at neighbouring lights */
        pt_world_destroy(w);
        free_level(&lv);
    }
    /* the generated levels do what they are for */
    ck_assert_int_gt(relit, SEEDS * 3);
    ck_assert_int_gt(pond, SEEDS / 2);
}
END_TEST

START_TEST(test_relight_off) {
    for (uint64_t seed = 1; seed <= SEEDS / 2; seed++) {
        level lv;
        gen_level(&lv, seed, -1, 0);
        pt_world *w = make_world(&lv, seed);
        static watch wa;
        memset(&wa, 0, sizeof wa);
        run(w, &lv, &wa, seed, LEARN);
        for (int i = 0; i < lv.nl; i++) pt_world_set_light(w, i, 0, NULL);
        for (int t = 0; t < AFTER; t++) {
            pt_world_step(w);
            ck_assert_int_eq(guard_events(w, PT_EVENT_LIGHT), 0);
            for (int g = 1; g <= lv.ng; g++) ck_assert_int_eq(pt_world_entity(w, g)->state, PT_STATE_PATROL);
        }
        for (int i = 0; i < lv.nl; i++) {
            pt_light li;
            pt_world_light_get(w, i, &li);
            ck_assert_int_eq(li.on, 0);
        }
        pt_world_destroy(w);
        free_level(&lv);
    }
}
END_TEST

/* Lights declared out were never seen lit: guards walk past them, and go only to the lit
 * ones they saw put out. */
START_TEST(test_never_seen_lit) {
    long seen_out = 0;
    for (uint64_t seed = 1; seed <= SEEDS / 2; seed++) {
        level lv;
        gen_level(&lv, seed, 1, 1);
        pt_world *w = make_world(&lv, seed);
        static watch wa;
        memset(&wa, 0, sizeof wa);
        for (int t = 0; t < LEARN + AFTER; t++) {
            pt_world_step(w);
            observe(w, &lv, &wa, seed);
            for (int g = 1; g <= lv.ng; g++) {
                const pt_entity *e = pt_world_entity(w, g);
                for (int i = 0; i < lv.nl; i += 3)
                    seen_out += pt_can_see(&lv.map, e->px, e->py, e->heading, e->view_dist, e->view_angle, lv.map.lights[i].x + 0.5,
                                           lv.map.lights[i].y + 0.5);
            }
        }
        for (int i = 0; i < lv.nl; i += 3) ck_assert_int_eq(wa.relit[i], 0);
        pt_world_destroy(w);
        free_level(&lv);
    }
    ck_assert_int_gt(seen_out, 1000);
}
END_TEST

/* Random switching for many ticks: the game puts lights out and on at random; no guard is
 * ever stuck (none stands on one cell much longer than a relight's stand), none leaves the
 * patrol and return states, and once the switching stops and every light is lit, all are on
 * their rounds with nothing to relight. */
START_TEST(test_random_switching) {
    for (uint64_t seed = 1; seed <= SEEDS / 2; seed++) {
        level lv;
        gen_level(&lv, seed + 100, 0, 0);
        pt_world *w = make_world(&lv, seed);
        static watch wa;
        memset(&wa, 0, sizeof wa);
        pt_rng r;
        pt_rng_seed(&r, seed, 3);
        long by_guards = 0;
        for (int t = 0; t < 8000; t++) {
            if (t % 25 == 0) {
                int i = (int)pt_rng_below(&r, (uint32_t)lv.nl);
                pt_world_set_light(w, i, (int)pt_rng_below(&r, 3) == 0, NULL);
            }
            pt_world_step(w);
            by_guards += guard_events(w, PT_EVENT_LIGHT);
            for (int g = 1; g <= lv.ng; g++) {
                pt_state s = pt_world_entity(w, g)->state;
                ck_assert_msg(s == PT_STATE_PATROL || s == PT_STATE_RETURN, "seed %llu tick %d: guard %d in %d", (unsigned long long)seed, t,
                              g, s);
            }
            observe(w, &lv, &wa, seed);
        }
        for (int i = 0; i < lv.nl; i++) pt_world_set_light(w, i, 1, NULL);
        run(w, &lv, &wa, seed, 1500);
        for (int g = 1; g <= lv.ng; g++) {
            ck_assert_int_eq(pt_world_entity(w, g)->state, PT_STATE_PATROL);
            ck_assert_int_eq(w->brains[g].relight, 0);
        }
        ck_assert_msg(wa.max_still <= 5 * STAND, "seed %llu: a guard stood %d ticks", (unsigned long long)seed, wa.max_still);
        ck_assert_int_gt(by_guards, 0);
        pt_world_destroy(w);
        free_level(&lv);
    }
}
END_TEST

/* ---- a small map: one guard per light, and what comes first --------------------------- */

/* A hall: two guards pace the same stretch, a torch on the wall side (on a pond cell) both
 * see; the player shut away at the east end. */
static const char HALL[] = "player at=28,1\n"
                           "guard a at=3,4 pattern=pace view=8 fov=120 speed=3\n"
                           "guard b at=3,5 pattern=pace view=8 fov=120 speed=3\n"
                           "grid\n"
                           "################################\n"
                           "#.........................##..##\n"
                           "#.........................######\n"
                           "#.............................##\n"
                           "#.............................##\n"
                           "#.............................##\n"
                           "#.............................##\n"
                           "################################\n"
                           "end\n";
static const char PACE[] = "pattern pace\n  kind path\n  points 0,0 8,0\n  at_end reverse\nend\n";

static pt_world *hall(pt_map *m, pt_patlib *lib, int lx, int ly, char tile) {
    pt_error err;
    ck_assert_msg(pt_map_parse(m, HALL, strlen(HALL), "hall.map", &err) == PT_OK, "%s", err.message);
    pt_map_set(m, lx, ly, tile);
    m->lights = calloc(1, sizeof *m->lights);
    ck_assert_ptr_nonnull(m->lights);
    m->lights[0] = (pt_light_def){"torch", lx, ly, 5.0, 1.0, 1, 1, 1};
    m->nlights = 1;
    pt_patlib_init(lib);
    ck_assert_msg(pt_patlib_parse(lib, PACE, strlen(PACE), "hall.pat", &err) == PT_OK, "%s", err.message);
    pt_world_desc d = {.seed = 3, .player_controlled = 1};
    pt_world *w = pt_world_create(m, lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

static int light_events(const pt_world *w, uint32_t *by) {
    int n, c = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PT_EVENT_LIGHT && ev[i].a != PT_LIGHT_BY_GAME) {
            c++;
            if (by) *by = ev[i].a;
        }
    return c;
}

/* Steps until a guard sets off for the light (its brain's relight), at most `max` ticks. */
static int until_going(pt_world *w, int max) {
    for (int t = 0; t < max; t++) {
        pt_world_step(w);
        for (int g = 1; g < pt_world_count(w); g++)
            if (w->brains[g].relight) return g;
    }
    return 0;
}

START_TEST(test_one_guard_per_light) {
    pt_map m;
    pt_patlib lib;
    pt_world *w = hall(&m, &lib, 7, 2, '~');
    for (int t = 0; t < 300; t++) pt_world_step(w);
    ck_assert(w->brains[1].light_known & 1);
    ck_assert(w->brains[2].light_known & 1);
    pt_world_set_light(w, 0, 0, NULL);
    int going = until_going(w, 600);
    ck_assert_int_gt(going, 0);
    int other = 3 - going, events = 0, returned = 0;
    uint32_t by = 0;
    for (int t = 0; t < 900; t++) {
        pt_world_step(w);
        events += light_events(w, &by);
        const pt_entity *o = pt_world_entity(w, other);
        ck_assert_int_eq(o->state, PT_STATE_PATROL); /* the other walks its round all along */
        ck_assert_int_eq(o->y, other == 1 ? 4 : 5);
        ck_assert_int_eq(w->brains[other].relight, 0);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) returned += ev[i].kind == PT_EVENT_RETURNED && ev[i].a == (uint32_t)going;
    }
    ck_assert_int_eq(events, 1);
    ck_assert_uint_eq(by, (uint32_t)going);
    ck_assert_int_eq(returned, 1);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Sets light 0 out and steps until guard 1 or 2 walks to it, off its round (y 4 or 5). */
static int going_off_round(pt_world *w) {
    pt_world_set_light(w, 0, 0, NULL);
    for (int t = 0; t < 900; t++) {
        pt_world_step(w);
        for (int g = 1; g <= 2; g++)
            if (w->brains[g].relight && pt_world_entity(w, g)->y < 4) return g;
    }
    ck_abort_msg("no guard went");
    return 0;
}

/* Steps until light 0 is lit again by a guard, at most 1800 ticks; the guard events seen
 * since `events` began are added to it. */
static void until_relit(pt_world *w, int *events) {
    pt_light li;
    for (int t = 0; t < 1800; t++) {
        pt_world_light_get(w, 0, &li);
        if (li.on) break;
        pt_world_step(w);
        *events += light_events(w, NULL);
    }
    pt_world_light_get(w, 0, &li);
    ck_assert_int_eq(li.on, 1);
    ck_assert_int_eq(*events, 1);
}

START_TEST(test_what_comes_first) {
    pt_map m;
    pt_patlib lib;
    /* a noise: the guard investigates it */
    pt_world *w = hall(&m, &lib, 12, 1, '.');
    for (int t = 0; t < 300; t++) pt_world_step(w);
    int g = going_off_round(w);
    pt_world_noise(w, pt_world_entity(w, g)->x + 2, pt_world_entity(w, g)->y, 12.0);
    for (int t = 0; t < 3 && pt_world_entity(w, g)->state != PT_STATE_INVESTIGATE; t++) pt_world_step(w);
    ck_assert_int_eq(pt_world_entity(w, g)->state, PT_STATE_INVESTIGATE);
    ck_assert_int_eq(w->brains[g].relight, 0);
    pt_light li;
    pt_world_light_get(w, 0, &li);
    ck_assert_int_eq(li.on, 0);
    int events = 0;
    until_relit(w, &events);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    /* an order: carried out first */
    w = hall(&m, &lib, 12, 1, '.');
    for (int t = 0; t < 300; t++) pt_world_step(w);
    g = going_off_round(w);
    ck_assert_int_eq(pt_world_order_goto(w, g, 25, 6), PT_OK);
    int done = 0;
    events = 0;
    for (int t = 0; t < 900 && !done; t++) {
        pt_world_step(w);
        events += light_events(w, NULL);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) done |= ev[i].kind == PT_EVENT_ORDER_DONE && ev[i].a == (uint32_t)g;
        if (!done) ck_assert_int_eq(w->brains[g].relight, 0); /* the order first */
    }
    ck_assert(done);
    until_relit(w, &events);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    /* the game lights it first: the guard goes back to its round, no event of its own */
    w = hall(&m, &lib, 12, 1, '.');
    for (int t = 0; t < 300; t++) pt_world_step(w);
    g = going_off_round(w);
    pt_world_set_light(w, 0, 1, NULL);
    pt_world_step(w);
    ck_assert_int_eq(w->brains[g].relight, 0);
    ck_assert_int_eq(pt_world_entity(w, g)->state, PT_STATE_RETURN);
    int returned = 0;
    for (int t = 0; t < 600; t++) {
        pt_world_step(w);
        ck_assert_int_eq(light_events(w, NULL), 0);
        returned |= pt_world_entity(w, g)->state == PT_STATE_PATROL;
    }
    ck_assert(returned);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A light seen through a pond's water, reached only through a closed door: the guard opens
 * the door on its way (the door's pause and event) and relights the light. */
START_TEST(test_through_a_closed_door) {
    static const char MAP[] = "player at=1,6\n"
                              "guard g at=1,3 pattern=pace view=8 fov=120 speed=3\n"
                              "door 8,2 closed\n"
                              "grid\n"
                              "###########\n"
                              "#.........#\n"
                              "#~~~~~~~+~#\n"
                              "#.........#\n"
                              "###########\n"
                              "#.#########\n"
                              "#.#########\n"
                              "###########\n"
                              "end\n";
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_parse(&m, MAP, strlen(MAP), "door.map", &err) == PT_OK, "%s", err.message);
    m.lights = calloc(1, sizeof *m.lights);
    ck_assert_ptr_nonnull(m.lights);
    m.lights[0] = (pt_light_def){"lamp", 3, 1, 3.0, 1.0, 1, 1, 1};
    m.nlights = 1;
    pt_patlib_init(&lib);
    ck_assert_msg(pt_patlib_parse(&lib, PACE, strlen(PACE), "hall.pat", &err) == PT_OK, "%s", err.message);
    pt_world_desc d = {.seed = 3, .player_controlled = 1};
    pt_world *w = pt_world_create(&m, &lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    for (int t = 0; t < 300; t++) pt_world_step(w);
    ck_assert(w->brains[1].light_known & 1);
    pt_world_set_light(w, 0, 0, NULL);
    int opened = 0, relit = 0, returned = 0;
    for (int t = 0; t < 1200; t++) {
        pt_world_step(w);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) {
            if (ev[i].kind == PT_EVENT_DOOR && ev[i].a == 1 && ev[i].b == PT_DOOR_OPEN) opened = t + 1;
            if (ev[i].kind == PT_EVENT_LIGHT && ev[i].a == 1) relit = t + 1;
            if (ev[i].kind == PT_EVENT_RETURNED && ev[i].a == 1 && relit) returned = t + 1;
        }
    }
    ck_assert_int_gt(opened, 0);
    ck_assert_int_gt(relit, opened);
    ck_assert_int_gt(returned, relit);
    ck_assert_int_eq(pt_world_entity(w, 1)->y, 3);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* A world without lights: the brains' relight state is never touched. */
START_TEST(test_no_lights_no_state) {
    level lv;
    gen_level(&lv, 5, 0, 0);
    free(lv.map.lights);
    lv.map.lights = NULL;
    lv.map.nlights = 0;
    pt_world *w = make_world(&lv, 5);
    for (int t = 0; t < 600; t++) pt_world_step(w);
    for (int g = 1; g < pt_world_count(w); g++) ck_assert(w->brains[g].light_known == 0 && w->brains[g].relight == 0);
    pt_world_destroy(w);
    free_level(&lv);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("relight");
    TCase *tc = tcase_create("relight");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_relit_by_a_guard_that_saw_it);
    tcase_add_test(tc, test_relight_off);
    tcase_add_test(tc, test_never_seen_lit);
    tcase_add_test(tc, test_random_switching);
    tcase_add_test(tc, test_one_guard_per_light);
    tcase_add_test(tc, test_what_comes_first);
    tcase_add_test(tc, test_through_a_closed_door);
    tcase_add_test(tc, test_no_lights_no_state);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
