/* SPDX-License-Identifier: Zlib */
/* Scripts (patrol/script.h, docs/formats.md "Scripts"): every error kind located (parse,
 * bind, apply); a script's commands give the trace the same calls made by hand give, on
 * generated maps; `at T` in seconds is the tick it rounds to; a .test file's `script` line
 * is applied in its runs; the `door` command: its errors located, a script locking and
 * opening doors gives the trace of the same pt_world_set_door calls. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <patrol/door.h>
#include <patrol/pattern.h>
#include <patrol/player.h>
#include <patrol/script.h>
#include <patrol/spawn.h>
#include <patrol/testing.h>
#include <patrol/world.h>

#include "test_util.h"

static int parse(pt_script *s, const char *text, pt_error *err) {
    return pt_script_parse(s, text, strlen(text), "t.script", err);
}

/* A parse error: its code, line and column. */
static void bad(const char *text, int code, int line, int col) {
    pt_script s;
    pt_error err;
    int rc = parse(&s, text, &err);
    ck_assert_msg(rc == code && err.line == line && err.col == col, "'%s': got %d at %d:%d (%s), want %d at %d:%d", text, rc,
                  err.line, err.col, err.message, code, line, col);
    ck_assert_str_eq(err.file, "t.script");
    ck_assert_int_eq(s.count, 0);
}

START_TEST(parse_errors_are_located) {
    bad("tile 1,1 .\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 1);                /* no time */
    bad("# c\nwhen 3 tile 1,1 .\n", PT_ERR_UNKNOWN_DIRECTIVE, 2, 1);    /* not at */
    bad("at\n", PT_ERR_MISSING, 1, 4);                                  /* nothing after at */
    bad("at soon tile 1,1 .\n", PT_ERR_BAD_NUMBER, 1, 4);               /* a time that is no number */
    bad("at 1.5 gait run\n", PT_ERR_BAD_NUMBER, 1, 4);                  /* a decimal without s */
    bad("at -1 gait run\n", PT_ERR_RANGE, 1, 4);                        /* before the start */
    bad("at -0.5s gait run\n", PT_ERR_RANGE, 1, 4);
    bad("at -0.001s gait run\n", PT_ERR_RANGE, 1, 4);                  /* negative, though it rounds to 0 */
    bad("at 1000000001 gait run\n", PT_ERR_RANGE, 1, 4);                /* past the last tick */
    bad("at 20000000s gait run\n", PT_ERR_RANGE, 1, 4);
    bad("at 1e999s gait run\n", PT_ERR_RANGE, 1, 4);
    bad("at 60 gait run\nat 59 gait walk\n", PT_ERR_RANGE, 2, 4);      /* out of order */
    bad("at 1s gait run\nat 59 gait walk\n", PT_ERR_RANGE, 2, 4);       /* 1s is tick 60 */
    bad("at 5\n", PT_ERR_MISSING, 1, 6);                                /* no command */
    bad("at 5 tiel 1,1 .\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 6);           /* a misspelt command */
    bad("at 5 tile 1,1\n", PT_ERR_MISSING, 1, 15);                      /* an argument missing */
    bad("at 5 tile 1,1 # a bare # is a comment\n", PT_ERR_MISSING, 1, 15);
    bad("at 5 tile 1,1 . .\n", PT_ERR_SYNTAX, 1, 17);                   /* one too many */
    bad("at 5 player 2,3 4\n", PT_ERR_SYNTAX, 1, 17);
    bad("at 5 tile 1;1 .\n", PT_ERR_SYNTAX, 1, 11);                     /* not X,Y */
    bad("at 5 tile x,1 .\n", PT_ERR_BAD_NUMBER, 1, 11);
    bad("at 5 tile 1,1 ab\n", PT_ERR_SYNTAX, 1, 15);                    /* a tile of two characters */
    bad("at 5 noise 1,1 0\n", PT_ERR_RANGE, 1, 16);                     /* silent */
    bad("at 5 noise 1,1 300\n", PT_ERR_RANGE, 1, 16);                   /* over the cap */
    bad("at 5 noise 1,1 loud\n", PT_ERR_BAD_NUMBER, 1, 16);
    bad("at 5 gait rnu\n", PT_ERR_BAD_VALUE, 1, 11);                    /* not a gait */
    bad("at 5 tile 1,1 '#\n", PT_ERR_SYNTAX, 1, 15);                    /* an unterminated quote */
    pt_script s;
    pt_error err;
    ck_assert_int_eq(pt_script_parse(&s, "at 1 gait\0run\n", 14, "t.script", &err), PT_ERR_BINARY);
    /* the misspelt command and gait get the nearest name */
    ck_assert_int_lt(parse(&s, "at 5 tiel 1,1 .\n", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "'tile'"));
    ck_assert_int_lt(parse(&s, "at 5 gait rnu\n", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "'run'"));
    ck_assert_int_lt(parse(&s, "at 1.5 gait run\n", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "'1.5s'"));
    /* a file that cannot be read */
    ck_assert_int_eq(pt_script_load(&s, "/nonexistent/x.script", &err), PT_ERR_IO);
}
END_TEST

START_TEST(parse_reads_every_command) {
    pt_script s;
    pt_error err;
    const char *text = "# a script\n\nat 0 gait sneak   # before the first step\n"
                       "at 90 tile 3,4 '#'\nat 1.5s noise 5,6 12.5\nat 2s player 7,8\nat 2s gait run\n";
    ck_assert_int_eq(parse(&s, text, &err), PT_OK);
    ck_assert_int_eq(s.count, 5);
    ck_assert_int_eq(s.cmds[0].verb, PT_SCRIPT_GAIT);
    ck_assert_int_eq(s.cmds[0].choice, PT_GAIT_SNEAK);
    ck_assert_int_eq(s.cmds[0].tick, 0);
    ck_assert_int_eq(s.cmds[0].line, 3);
    ck_assert_int_eq(s.cmds[1].verb, PT_SCRIPT_TILE);
    ck_assert_int_eq(s.cmds[1].choice, '#');
    ck_assert_int_eq(s.cmds[1].x, 3);
    ck_assert_int_eq(s.cmds[1].y, 4);
    ck_assert_int_eq(s.cmds[2].verb, PT_SCRIPT_NOISE);
    ck_assert_int_eq(s.cmds[2].tick, 90); /* 1.5 s at 60 ticks a second */
    ck_assert_double_eq(s.cmds[2].value, 12.5);
    ck_assert_int_eq(s.cmds[3].verb, PT_SCRIPT_PLAYER);
    ck_assert_int_eq(s.cmds[3].tick, 120);
    ck_assert_int_eq(s.cmds[3].arg_col[0], 14);
    ck_assert_str_eq(pt_script_verb_name(PT_SCRIPT_NOISE), "noise");
    ck_assert_str_eq(pt_script_verb_name(PT_SCRIPT_VERB_COUNT), "unknown");
    pt_script_fini(&s);
    /* seconds round to the nearest tick: 0.01 s is 0.6 ticks (1), 0.008 s 0.48 ticks (0) */
    ck_assert_int_eq(parse(&s, "at 0s gait run\nat 0.008s gait run\nat 0.01s gait run\n", &err), PT_OK);
    ck_assert_int_eq(s.cmds[0].tick, 0);
    ck_assert_int_eq(s.cmds[1].tick, 0);
    ck_assert_int_eq(s.cmds[2].tick, 1);
    pt_script_fini(&s);
    /* comments only: a valid, empty script */
    ck_assert_int_eq(parse(&s, "# nothing\n\n", &err), PT_OK);
    ck_assert_int_eq(s.count, 0);
    pt_script_fini(&s);
}
END_TEST

/* A generated map with a few guards and the player, as check_set_tile makes them. */
enum { SIZE = 28, GUARDS = 6 };
static void gen_map(pt_map *m, uint64_t seed) {
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 11);
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
        d->heading_deg = 90.0 * (i % 4);
        d->line = 1;
    }
    m->nents = GUARDS;
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

typedef struct hand {
    uint64_t tick;
    int kind; /* 0 tile, 1 noise, 2 player, 3 gait */
    int x, y;
    char c;
    double loud;
} hand;

/* The trace of TICKS steps of a world: with the script applied before each step, or with
 * the same commands made by hand (the calls the docs name) when pt_world_tick reaches them;
 * the player walks by input toward the map's centre. */
enum { TICKS = 900 };
static char *run(const pt_map *m, uint64_t seed, const pt_script *s, const hand *h, int nh, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    pt_world *w = make_world(m, seed);
    int cursor = 0, k = 0;
    pt_error err;
    for (int t = 0; t < TICKS; t++) {
        if (s) ck_assert_int_ge(pt_script_apply(s, &cursor, w, &err), 0);
        for (; h && k < nh && h[k].tick <= pt_world_tick(w); k++) {
            if (h[k].kind == 0) ck_assert_int_eq(pt_world_set_tile(w, h[k].x, h[k].y, h[k].c, &err), PT_OK);
            if (h[k].kind == 1) pt_world_noise(w, h[k].x, h[k].y, h[k].loud);
            if (h[k].kind == 2) {
                pt_player_host(w);
                ck_assert_int_eq(pt_player_teleport(w, h[k].x + 0.5, h[k].y + 0.5, &err), PT_OK);
            }
            if (h[k].kind == 3) pt_world_set_gait(w, (pt_gait)h[k].x);
        }
        const pt_entity *p = pt_world_entity(w, 0);
        pt_world_set_input(w, p->x < SIZE / 2 ? 1 : -1, (t / 97) % 2 ? 1 : -1);
        pt_world_step(w);
        pt_world_trace_rows(w, f);
        int n;
        const pt_noise *nz = pt_world_noises(w, &n);
        for (int i = 0; i < n; i++) fprintf(f, "noise %d,%d %.6f\n", nz[i].x, nz[i].y, nz[i].loudness);
    }
    pt_world_destroy(w);
    fclose(f);
    return buf;
}

/* On generated maps: a script that opens and closes walls, makes noises, changes the gait and
 * puts the player somewhere gives the trace of the same calls made by hand; a run without
 * the script differs (the script did something); `at 2s` is `at 120`. */
START_TEST(script_equals_calls_by_hand) {
    int differed = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 12);
        hand h[40];
        int nh = 0;
        char text[4096];
        size_t used = 0;
        uint64_t t = 0;
        (void)used;
        while (nh < 40) {
            t += pt_rng_below(&r, 40);
            hand *c = &h[nh];
            c->tick = t;
            c->kind = (int)pt_rng_below(&r, 4);
            c->x = 1 + (int)pt_rng_below(&r, SIZE - 2);
            c->y = 1 + (int)pt_rng_below(&r, SIZE - 2);
            if (c->kind == 2 && !pt_map_walkable(&m, c->x, c->y)) continue; /* the map's walls stay walls... */
            /* ...and a wall the script may close there: keep player cells apart from tile cells */
            c->c = pt_rng_below(&r, 2) ? '.' : '#';
            c->loud = 1 + (int)pt_rng_below(&r, 200) / 10.0;
            if (c->kind == 3) c->x = (int)pt_rng_below(&r, 3);
            nh++;
        }
        /* player cells are never walled by the script: tile commands on them set floor */
        for (int i = 0; i < nh; i++)
            if (h[i].kind == 2)
                for (int j = 0; j < nh; j++)
                    if (h[j].kind == 0 && h[j].x == h[i].x && h[j].y == h[i].y) h[j].c = '.';
        used = 0;
        /* every other command whose tick is a whole number of hundredths of a second is
         * written in seconds (at 2s, at 0.1s) */
        for (int i = 0; i < nh; i++) {
            static const char *const gaits[] = {"walk", "sneak", "run"};
            const hand *c = &h[i];
            char when[32];
            if (c->tick % 6 == 0 && i % 2) snprintf(when, sizeof when, "%gs", c->tick / 60.0);
            else snprintf(when, sizeof when, "%llu", (unsigned long long)c->tick);
            int n = 0;
            switch (c->kind) {
            case 0: n = snprintf(text + used, sizeof text - used, "at %s tile %d,%d '%c'\n", when, c->x, c->y, c->c); break;
            case 1: n = snprintf(text + used, sizeof text - used, "at %s noise %d,%d %g\n", when, c->x, c->y, c->loud); break;
            case 2: n = snprintf(text + used, sizeof text - used, "at %s player %d,%d\n", when, c->x, c->y); break;
            default: n = snprintf(text + used, sizeof text - used, "at %s gait %s\n", when, gaits[c->x]); break;
            }
            used += (size_t)n;
        }
        pt_script s;
        pt_error err;
        ck_assert_msg(pt_script_parse(&s, text, used, "gen.script", &err) == PT_OK, "%s", err.message);
        ck_assert_int_eq(s.count, nh);
        ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
        size_t la, lb, lc;
        char *a = run(&m, seed, &s, NULL, 0, &la), *b = run(&m, seed, NULL, h, nh, &lb), *c = run(&m, seed, NULL, NULL, 0, &lc);
        char diff[256];
        ck_assert_msg(pt_test_trace_diff(a, la, b, lb, diff, sizeof diff) == 0, "seed %llu: %s", (unsigned long long)seed, diff);
        differed += pt_test_trace_diff(a, la, c, lc, NULL, 0) != 0;
        free(a);
        free(b);
        free(c);
        pt_script_fini(&s);
        pt_map_fini(&m);
    }
    ck_assert_int_eq(differed, 10);
}
END_TEST

/* `at T` is applied once T steps have run: a tile set at 3 is not there after 2 steps and
 * is after 3, before the fourth; seconds and ticks name the same step. */
START_TEST(timing_of_at) {
    pt_map m;
    gen_map(&m, 3);
    int wx = -1, wy = -1;
    for (int y = 1; y < SIZE - 1 && wx < 0; y++)
        for (int x = 1; x < SIZE - 1 && wx < 0; x++)
            if (!pt_map_walkable(&m, x, y)) wx = x, wy = y;
    char text[128];
    pt_script s;
    pt_error err;
    snprintf(text, sizeof text, "at 3 tile %d,%d .\nat 0.05s tile %d,%d :\n", wx, wy, wx, wy); /* 0.05 s = tick 3 */
    ck_assert_int_eq(parse(&s, text, &err), PT_OK);
    ck_assert_int_eq(s.cmds[1].tick, 3);
    pt_world *w = make_world(&m, 3);
    int cursor = 0;
    for (int t = 0; t < 3; t++) {
        ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), 0);
        pt_world_step(w);
    }
    ck_assert_int_eq(pt_map_tile(pt_world_map(w), wx, wy)->ch, m.tiles ? pt_map_tile(&m, wx, wy)->ch : 0);
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), 2);
    ck_assert_int_eq(pt_map_tile(pt_world_map(w), wx, wy)->ch, ':');
    ck_assert_int_eq(cursor, 2);
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), 0); /* nothing twice */
    pt_world_destroy(w);
    pt_script_fini(&s);
    pt_map_fini(&m);
}
END_TEST

/* Bind errors at the argument; an apply error at the command, the commands before applied. */
START_TEST(bind_and_apply_errors_are_located) {
    pt_map m;
    gen_map(&m, 4);
    pt_script s;
    pt_error err;
    ck_assert_int_eq(parse(&s, "at 1 gait run\n\nat 2 noise 40,1 5\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 12);
    ck_assert_str_eq(err.file, "t.script");
    pt_script_fini(&s);
    ck_assert_int_eq(parse(&s, "at 1 tile 1,1 Q\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_UNKNOWN_TILE);
    ck_assert_int_eq(err.col, 15);
    pt_script_fini(&s);
    ck_assert_int_eq(parse(&s, "at 0 player -1,2\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_OUT_OF_MAP);
    pt_script_fini(&s);
    /* the frame is wall: putting the player there is refused when applied */
    ck_assert_int_eq(parse(&s, "at 0 gait run\nat 1 player 0,0\nat 1 gait sneak\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
    pt_world *w = make_world(&m, 4);
    int cursor = 0;
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), 1);
    pt_world_step(w);
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), PT_ERR_NOT_WALKABLE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 13);
    ck_assert_str_eq(err.file, "t.script");
    ck_assert_int_eq(cursor, 1);
    ck_assert_int_eq(pt_world_gait(w), PT_GAIT_RUN);
    pt_world_destroy(w);
    pt_script_fini(&s);
    pt_map_fini(&m);
}
END_TEST

/* A .test file's `script` line: loaded and bound with the file, applied in every run. The
 * player is put on the goal by the script: `goal within=1` passes with it and fails without;
 * a script the map refuses is an error located in the script; one that is missing, at the
 * script line; a command the world refuses fails the expectation with its place. */
static char dir[64];

static void put(const char *name, const char *text) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static pt_test_status run_file(const char *name, pt_test_result *r, int *bind_rc, pt_error *err) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pt_testfile tf;
    ck_assert_int_eq(pt_testfile_load(&tf, path, err), PT_OK);
    pt_map map;
    ck_assert_int_eq(pt_map_load(&map, tf.map_path, err), PT_OK);
    pt_patlib lib;
    pt_patlib_init(&lib);
    *bind_rc = pt_testfile_bind(&tf, &map, &lib, err);
    pt_test_status st = PT_TEST_SKIP;
    if (*bind_rc == PT_OK) {
        pt_world_desc d;
        pt_expect_desc(&tf, &tf.items[0], &d);
        pt_world *w = pt_world_create(&map, &lib, &d, err);
        ck_assert_ptr_nonnull(w);
        st = pt_expect_run_script(w, &tf.items[0], tf.script, r, NULL);
        pt_world_destroy(w);
    }
    pt_testfile_fini(&tf);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return st;
}

START_TEST(test_file_names_a_script) {
    snprintf(dir, sizeof dir, "/tmp/patrol_script_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put("room.map", "format 1\nplayer at=1,1\ngrid\n#######\n#.....#\n#....E#\n#######\nend\n");
    put("to_goal.script", "# jump to the exit\nat 30 player 5,2\n");
    put("wall.script", "at 30 player 6,2\n");
    put("bad.script", "at 30 tile 2,2 Q\n");
    put("with.test", "map room.map\nscript to_goal.script\ngoal within=1\n");
    put("without.test", "map room.map\ngoal within=1\n");
    put("refused.test", "map room.map\nscript wall.script\ngoal within=1\n");
    put("badscript.test", "map room.map\nscript bad.script\ngoal within=1\n");
    put("missing.test", "map room.map\n\nscript none.script\ngoal within=1\n");
    put("twice.test", "map room.map\nscript a\nscript b\ngoal\n");
    pt_test_result r;
    pt_error err;
    int rc;
    ck_assert_int_eq(run_file("with.test", &r, &rc, &err), PT_TEST_PASS);
    ck_assert_int_eq(r.tick, 31); /* put there after 30 steps, on the goal in the 31st */
    ck_assert_int_eq(run_file("without.test", &r, &rc, &err), PT_TEST_FAIL);
    ck_assert_int_eq(run_file("refused.test", &r, &rc, &err), PT_TEST_FAIL);
    ck_assert_ptr_nonnull(strstr(r.text, "wall.script:1:14"));
    run_file("badscript.test", &r, &rc, &err);
    ck_assert_int_eq(rc, PT_ERR_UNKNOWN_TILE);
    ck_assert_ptr_nonnull(strstr(err.file, "bad.script"));
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, 16);
    run_file("missing.test", &r, &rc, &err);
    ck_assert_int_eq(rc, PT_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.file, "missing.test"));
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 8);
    pt_testfile tf;
    char path[128];
    snprintf(path, sizeof path, "%s/twice.test", dir);
    ck_assert_int_eq(pt_testfile_load(&tf, path, &err), PT_ERR_DUPLICATE);
    ck_assert_int_eq(err.line, 3);
    const char *names[] = {"room.map", "to_goal.script", "wall.script", "bad.script", "with.test", "without.test",
                           "refused.test", "badscript.test", "missing.test", "twice.test"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

/* ---- door X,Y open|closed|locked ---- */

/* tests/data/tmx/doors.map: a guard's round through a closed door that closes (5,1), a
 * closed door (7,3) and a locked one (3,3) on the other's. */
static void doors_map(pt_map *m, pt_patlib *lib) {
    pt_error err;
    ck_assert_msg(pt_map_load(m, "tests/data/tmx/doors.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(lib);
    for (int i = 0; i < m->npattern_files; i++)
        ck_assert_msg(pt_patlib_load(lib, m->pattern_files[i], &err) == PT_OK, "%s", err.message);
}

/* The trace rows and events of `ticks` steps: the script applied before each step, or the
 * calls made by hand at the same ticks (door k of hand[] to state st[k] at tick at[k]). */
static char *door_run(const pt_map *m, const pt_patlib *lib, uint64_t seed, const pt_script *s, const uint64_t *at,
                      const int *cx, const int *cy, const int *st, int nh, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    pt_world_desc d = {.seed = seed};
    pt_error err;
    pt_world *w = pt_world_create(m, lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    int cursor = 0, k = 0;
    for (int t = 0; t < 1200; t++) {
        if (s) ck_assert_msg(pt_script_apply(s, &cursor, w, &err) >= 0, "%s", err.message);
        for (; k < nh && at[k] <= pt_world_tick(w); k++)
            ck_assert_int_eq(pt_world_set_door(w, cx[k], cy[k], (pt_door_state)st[k], &err), PT_OK);
        pt_world_step(w);
        pt_world_trace_rows(w, f);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) fprintf(f, "event %d %u %u %d,%d\n", ev[i].kind, ev[i].a, ev[i].b, ev[i].x, ev[i].y);
    }
    pt_world_destroy(w);
    fclose(f);
    return buf;
}

START_TEST(door_verb) {
    /* parse: a misspelt state gets the nearest one, a missing state is at the line's end */
    bad("at 5 door 5,1 lockd\n", PT_ERR_BAD_VALUE, 1, 15);
    bad("at 5 door 5,1\n", PT_ERR_MISSING, 1, 15);
    bad("at 5 door 5,1 open now\n", PT_ERR_SYNTAX, 1, 20);
    pt_script s;
    pt_error err;
    ck_assert_int_lt(parse(&s, "at 5 door 5,1 lockd\n", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "'locked'"));
    ck_assert_int_lt(parse(&s, "at 5 door 5,1 shut\n", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.message, "open, closed, locked"));
    /* bind: the cell must be a door of the map, located at the cell */
    pt_map m;
    pt_patlib lib;
    doors_map(&m, &lib);
    ck_assert_int_eq(parse(&s, "at 1 door 5,1 open\n# wall\nat 2  door 4,1 locked\n", &err), PT_OK);
    ck_assert_int_eq(s.cmds[0].choice, PT_DOOR_OPEN);
    ck_assert_int_eq(s.cmds[1].choice, PT_DOOR_LOCKED);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_BAD_VALUE);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 12);
    ck_assert_str_eq(err.file, "t.script");
    ck_assert_ptr_nonnull(strstr(err.message, "cell 4,1 is not a door of the map"));
    pt_script_fini(&s);
    ck_assert_int_eq(parse(&s, "at 1 door 50,1 open\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.col, 11);
    pt_script_fini(&s);
    /* a script locking and opening doors: the trace of the same calls by hand, and not the
     * trace without it */
    static const char text[] = "at 0 door 5,1 locked\nat 5s door 3,3 open\nat 400 door 5,1 open\nat 700 door 7,3 locked\n";
    static const uint64_t at[] = {0, 300, 400, 700};
    static const int cx[] = {5, 3, 5, 7}, cy[] = {1, 3, 1, 3}, st[] = {PT_DOOR_LOCKED, PT_DOOR_OPEN, PT_DOOR_OPEN, PT_DOOR_LOCKED};
    ck_assert_int_eq(parse(&s, text, &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        size_t la, lb, lc;
        char *a = door_run(&m, &lib, seed, &s, NULL, NULL, NULL, NULL, 0, &la);
        char *b = door_run(&m, &lib, seed, NULL, at, cx, cy, st, 4, &lb);
        char *c = door_run(&m, &lib, seed, NULL, NULL, NULL, NULL, NULL, 0, &lc);
        char diff[256];
        ck_assert_msg(pt_test_trace_diff(a, la, b, lb, diff, sizeof diff) == 0, "seed %llu: %s", (unsigned long long)seed, diff);
        ck_assert_msg(pt_test_trace_diff(a, la, c, lc, NULL, 0) != 0, "seed %llu: the script changed nothing",
                      (unsigned long long)seed);
        free(a);
        free(b);
        free(c);
    }
    pt_script_fini(&s);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* ---- spawn, remove and order ---- */

/* Parse errors of the entity verbs are located, misspelt words get a suggestion; an unknown
 * NAME, or one removed, is an error at apply time at the name; a NAME spawned by an earlier
 * command is known; a spawn line's own error is at its column in the script. */
START_TEST(entity_verbs_errors_are_located) {
    bad("at 1 spwan guard x at=1,1\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 6);
    bad("at 1 spawn gaurd x at=1,1\n", PT_ERR_BAD_VALUE, 1, 12);
    bad("at 1 spawn guard\n", PT_ERR_MISSING, 1, 18);
    bad("at 1 remove\n", PT_ERR_MISSING, 1, 13);
    bad("at 1 order g1 hodl\n", PT_ERR_BAD_VALUE, 1, 15);
    bad("at 1 order g1 goto\n", PT_ERR_MISSING, 1, 20);
    bad("at 1 order g1 hold 3,3\n", PT_ERR_SYNTAX, 1, 20);
    bad("at 1 order g1 goto x,3\n", PT_ERR_BAD_NUMBER, 1, 20);
    pt_script s;
    pt_error err;
    ck_assert_int_eq(parse(&s, "at 1 spawn gaurd x\n", &err), PT_ERR_BAD_VALUE);
    ck_assert_ptr_nonnull(strstr(err.message, "did you mean 'guard'"));
    ck_assert_int_eq(parse(&s, "at 1 order g1 hodl\n", &err), PT_ERR_BAD_VALUE);
    ck_assert_ptr_nonnull(strstr(err.message, "did you mean 'hold'"));
    pt_map m;
    gen_map(&m, 4);
    ck_assert_int_eq(parse(&s, "at 0 order g1 goto 99,1\n", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(err.col, 20);
    pt_script_fini(&s);
    char text[256];
    pt_cell c = {0, 0};
    for (c.y = 1; !pt_map_walkable(&m, c.x, c.y); c.x = c.x + 1 < SIZE ? c.x + 1 : (c.y++, 0)) {
    }
    snprintf(text, sizeof text,
             "at 0 spawn guard bob at=%d,%d\nat 0 order bob hold\nat 2 remove bob\nat 3 order bob resume\n", c.x, c.y);
    ck_assert_int_eq(parse(&s, text, &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
    pt_world *w = make_world(&m, 4);
    int cursor = 0;
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), 2);
    ck_assert_int_eq(pt_world_order(w, pt_world_count(w) - 1, NULL, NULL), PT_ORDER_HOLD);
    for (int t = 0; t < 3; t++) {
        pt_world_step(w);
        if (t < 2) ck_assert_int_ge(pt_script_apply(&s, &cursor, w, &err), 0);
    }
    ck_assert_ptr_null(pt_world_entity(w, pt_world_count(w) - 1));
    ck_assert_int_eq(pt_script_apply(&s, &cursor, w, &err), PT_ERR_MISSING);
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 12);
    ck_assert_str_eq(err.file, "t.script");
    ck_assert_ptr_nonnull(strstr(err.message, "'bob'"));
    pt_world_destroy(w);
    pt_script_fini(&s);
    /* the spawn line's bad value, at its column: the 99 of speed=99 */
    snprintf(text, sizeof text, "at 0 spawn guard x at=%d,%d speed=99\n", c.x, c.y);
    ck_assert_int_eq(parse(&s, text, &err), PT_OK);
    w = make_world(&m, 4);
    cursor = 0;
    ck_assert_int_lt(pt_script_apply(&s, &cursor, w, &err), 0);
    ck_assert_int_eq(err.line, 1);
    ck_assert_int_eq(err.col, (int)(strstr(text, "99") - text) + 1);
    ck_assert_int_eq(cursor, 0);
    pt_world_destroy(w);
    pt_script_fini(&s);
    pt_map_fini(&m);
}
END_TEST

/* The trace of TICKS steps with a script, or with the same spawns, removes and orders made
 * by hand (the cells from `cells`) when pt_world_tick reaches them. */
static char *run_ents(const pt_map *m, uint64_t seed, const pt_script *s, const pt_cell *cells, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    pt_world *w = make_world(m, seed);
    int cursor = 0, bob = 0, crows = 0;
    pt_error err;
    char line[128];
    for (int t = 0; t < TICKS; t++) {
        if (s) ck_assert_msg(pt_script_apply(s, &cursor, w, &err) >= 0, "%s", err.message);
        if (cells) {
            switch (pt_world_tick(w)) {
            case 5:
                snprintf(line, sizeof line, "guard bob at=%d,%d view=9 chase=steer", cells[0].x, cells[0].y);
                ck_assert_int_gt(bob = pt_world_spawn_line(w, line, NULL, NULL, &err), 0);
                break;
            case 40: ck_assert_int_eq(pt_world_order_goto(w, bob, cells[1].x, cells[1].y), PT_OK); break;
            case 60: ck_assert_int_eq(pt_world_order_hold(w, 1), PT_OK); break;
            case 90:
                snprintf(line, sizeof line, "flock crows at=%d,%d count=3", cells[2].x, cells[2].y);
                ck_assert_int_gt(crows = pt_world_spawn_line(w, line, NULL, NULL, &err), 0);
                break;
            case 150: ck_assert_int_eq(pt_world_order_resume(w, 1), PT_OK); break;
            case 200: ck_assert_int_eq(pt_world_order_investigate(w, 2, cells[3].x, cells[3].y), PT_OK); break;
            case 300: ck_assert_int_eq(pt_world_remove(w, bob), PT_OK); break;
            case 301: ck_assert_int_eq(pt_world_remove(w, crows + 1), PT_OK); break;
            default: break;
            }
        }
        const pt_entity *p = pt_world_entity(w, 0);
        pt_world_set_input(w, p->x < SIZE / 2 ? 1 : -1, (t / 97) % 2 ? 1 : -1);
        pt_world_step(w);
        pt_world_trace_rows(w, f);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int i = 0; i < n; i++) fprintf(f, "event %d %u %u\n", ev[i].kind, ev[i].a, ev[i].b);
    }
    pt_world_destroy(w);
    fclose(f);
    return buf;
}

/* On generated maps: a script spawning a guard and a flock, ordering guards and removing
 * gives the trace of the same calls by hand, and differs from the run without it. */
START_TEST(entity_script_equals_calls_by_hand) {
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pt_map m;
        gen_map(&m, seed);
        pt_rng r;
        pt_rng_seed(&r, seed, 13);
        pt_cell cells[4];
        for (int i = 0; i < 4; i++) do {
                cells[i].x = (int)pt_rng_below(&r, SIZE);
                cells[i].y = (int)pt_rng_below(&r, SIZE);
            } while (!pt_map_walkable(&m, cells[i].x, cells[i].y));
        char text[1024];
        snprintf(text, sizeof text,
                 "at 5 spawn guard bob at=%d,%d view=9 chase=steer\nat 40 order bob goto %d,%d\nat 1s order g1 hold\n"
                 "at 90 spawn flock crows at=%d,%d count=3\nat 150 order g1 resume\nat 200 order g2 investigate %d,%d\n"
                 "at 5s remove bob\nat 301 remove crows.2\n",
                 cells[0].x, cells[0].y, cells[1].x, cells[1].y, cells[2].x, cells[2].y, cells[3].x, cells[3].y);
        pt_script s;
        pt_error err;
        ck_assert_msg(pt_script_parse(&s, text, strlen(text), "ents.script", &err) == PT_OK, "%s", err.message);
        ck_assert_int_eq(s.count, 8);
        ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
        size_t la, lb, lc;
        char *a = run_ents(&m, seed, &s, NULL, &la), *b = run_ents(&m, seed, NULL, cells, &lb),
             *c = run_ents(&m, seed, NULL, NULL, &lc);
        char diff[256];
        ck_assert_msg(pt_test_trace_diff(a, la, b, lb, diff, sizeof diff) == 0, "seed %llu: %s", (unsigned long long)seed, diff);
        ck_assert_int_ne(pt_test_trace_diff(a, la, c, lc, NULL, 0), 0);
        free(a);
        free(b);
        free(c);
        pt_script_fini(&s);
        pt_map_fini(&m);
    }
}
END_TEST

/* A .test file's script with the entity verbs: a guard spawned beside the player and sent to
 * it catches the player (`caught` passes, and fails without the script, or with the guard
 * removed at once); an order to an unknown name fails the expectation at the name. */
START_TEST(test_file_script_spawns) {
    snprintf(dir, sizeof dir, "/tmp/patrol_script_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put("room.map", "format 1\nplayer at=1,1\ngrid\n#######\n#.....#\n#....E#\n#######\nend\n");
    put("bob.script", "at 10 spawn guard bob at=5,1 view=6 fov=360 speed=4\nat 11 order bob goto 2,1\n");
    put("gone.script", "at 10 spawn guard bob at=5,1 view=6 fov=360 speed=4\nat 11 remove bob\n");
    put("typo.script", "at 10 spawn guard bob at=5,1 view=6 fov=360 speed=4\nat 11 order bobb goto 2,1\n");
    put("with.test", "map room.map\nscript bob.script\ncaught within=10\n");
    put("without.test", "map room.map\ncaught within=10\n");
    put("gone.test", "map room.map\nscript gone.script\ncaught within=10\n");
    put("typo.test", "map room.map\nscript typo.script\ncaught within=10\n");
    pt_test_result r;
    pt_error err;
    int rc;
    ck_assert_int_eq(run_file("with.test", &r, &rc, &err), PT_TEST_PASS);
    ck_assert_int_eq(run_file("without.test", &r, &rc, &err), PT_TEST_FAIL);
    ck_assert_int_eq(run_file("gone.test", &r, &rc, &err), PT_TEST_FAIL);
    ck_assert_int_eq(run_file("typo.test", &r, &rc, &err), PT_TEST_FAIL);
    ck_assert_msg(strstr(r.text, "typo.script:2:13") != NULL, "%s", r.text);
    const char *names[] = {"room.map", "bob.script", "gone.script", "typo.script", "with.test", "without.test", "gone.test",
                           "typo.test"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST


static Suite *suite(void) {
    Suite *s = suite_create("script");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, parse_errors_are_located);
    tcase_add_test(tc, parse_reads_every_command);
    tcase_add_test(tc, script_equals_calls_by_hand);
    tcase_add_test(tc, timing_of_at);
    tcase_add_test(tc, bind_and_apply_errors_are_located);
    tcase_add_test(tc, test_file_names_a_script);
    tcase_add_test(tc, door_verb);
    tcase_add_test(tc, entity_verbs_errors_are_located);
    tcase_add_test(tc, test_file_script_spawns);
    tcase_add_test(tc, entity_script_equals_calls_by_hand);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
