/* SPDX-License-Identifier: Zlib */
/* Thread safety (patrol/world.h, "Threads"): worlds are independent. Two worlds made from
 * one map and one pattern library (shared read-only), each applying one shared script with
 * its own cursor (tiles changed, the player handed to the script), stepped on two threads at
 * once give, byte for byte, the traces they give stepped one after the other; so do two
 * generated worlds with flocks stepping on their own crowd threads. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/pattern.h>
#include <patrol/script.h>
#include <patrol/testing.h>
#include <patrol/world.h>

#include "test_util.h"

enum { TICKS = 1500 };

typedef struct job {
    const pt_map *map;
    const pt_patlib *lib;
    const pt_script *script; /* may be NULL */
    uint64_t seed;
    int threads;
    char *trace;
    size_t len;
} job;

/* One world from the job's map, stepped TICKS ticks with the script applied, its trace (and
 * each step's noises and events) into the job's buffer. */
static void *run_job(void *arg) {
    job *j = arg;
    FILE *f = open_memstream(&j->trace, &j->len);
    if (!f) return NULL;
    pt_world_desc d = {.seed = j->seed, .threads = j->threads};
    pt_error err;
    pt_world *w = pt_world_create(j->map, j->lib, &d, &err);
    if (!w) {
        fclose(f);
        return NULL;
    }
    int cursor = 0;
    for (int t = 0; t < TICKS; t++) {
        if (j->script && pt_script_apply(j->script, &cursor, w, &err) < 0) fprintf(f, "script error %s\n", err.message);
        pt_world_step(w);
        pt_world_trace_rows(w, f);
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) fprintf(f, "event %d %u %u %d,%d\n", (int)ev[k].kind, ev[k].a, ev[k].b, ev[k].x, ev[k].y);
        const pt_noise *nz = pt_world_noises(w, &n);
        for (int k = 0; k < n; k++) fprintf(f, "noise %d,%d %.9g %d\n", nz[k].x, nz[k].y, nz[k].loudness, (int)nz[k].kind);
    }
    pt_world_destroy(w);
    fclose(f);
    return NULL;
}

/* Runs the two jobs one after the other, then copies of them on two threads at once, and
 * compares each pair of traces. */
static void same_in_parallel(const job *a0, const job *b0) {
    job a = *a0, b = *b0, pa = *a0, pb = *b0;
    run_job(&a);
    run_job(&b);
    ck_assert_ptr_nonnull(a.trace);
    ck_assert_ptr_nonnull(b.trace);
    ck_assert(a.len > 1000 && b.len > 1000);
    ck_assert_ptr_null(strstr(a.trace, "script error"));
    pthread_t ta, tb;
    ck_assert_int_eq(pthread_create(&ta, NULL, run_job, &pa), 0);
    ck_assert_int_eq(pthread_create(&tb, NULL, run_job, &pb), 0);
    ck_assert_int_eq(pthread_join(ta, NULL), 0);
    ck_assert_int_eq(pthread_join(tb, NULL), 0);
    char diff[256];
    ck_assert_msg(pt_test_trace_diff(a.trace, a.len, pa.trace, pa.len, diff, sizeof diff) == 0, "world a: %s", diff);
    ck_assert_msg(pt_test_trace_diff(b.trace, b.len, pb.trace, pb.len, diff, sizeof diff) == 0, "world b: %s", diff);
    ck_assert_int_eq(a.len, pa.len);
    ck_assert_int_eq(b.len, pb.len);
    ck_assert(memcmp(a.trace, pa.trace, a.len) == 0 && memcmp(b.trace, pb.trace, b.len) == 0);
    /* the two worlds differ: the test compares two different runs */
    ck_assert(a.len != b.len || memcmp(a.trace, b.trace, a.len) != 0);
    free(a.trace);
    free(b.trace);
    free(pa.trace);
    free(pb.trace);
}

/* The demo level, shared by both worlds (two seeds), and a script both apply: a wall of the
 * map opened and shut (each world changes its own copy of the map), a noise, the player
 * handed to the script and put in the yard. */
START_TEST(two_demo_worlds_on_two_threads) {
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_msg(pt_map_load(&m, "maps/demo.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    for (int i = 0; i < m.npattern_files; i++) ck_assert(pt_patlib_load(&lib, m.pattern_files[i], &err) == PT_OK);
    const char *text = "at 100 tile 17,2 .\nat 200 noise 20,20 15\nat 5s player 10,20\nat 400 tile 17,2 '#'\n"
                       "at 900 player 10,25\n";
    pt_script s;
    ck_assert_int_eq(pt_script_parse(&s, text, strlen(text), "threads.script", &err), PT_OK);
    ck_assert_int_eq(pt_script_bind(&s, &m, &err), PT_OK);
    job a = {.map = &m, .lib = &lib, .script = &s, .seed = 7, .threads = 1};
    job b = {.map = &m, .lib = &lib, .script = &s, .seed = 11, .threads = 2};
    same_in_parallel(&a, &b);
    /* the source map is untouched by the worlds' tile changes */
    ck_assert_int_eq(pt_map_tile(&m, 17, 2)->ch, '#');
    pt_script_fini(&s);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}
END_TEST

/* Generated maps with guards and a flock of 40 stepping on 2 crowd threads in each world. */
static void gen_map(pt_map *m, uint64_t seed) {
    enum { SIZE = 40, GUARDS = 8 };
    tu_corner_map(m, SIZE, SIZE, seed);
    pt_rng r;
    pt_rng_seed(&r, seed, 21);
    m->ents = calloc(GUARDS + 1, sizeof *m->ents);
    ck_assert_ptr_nonnull(m->ents);
    for (int i = 0; i <= GUARDS; i++) {
        pt_entity_def *d = &m->ents[i];
        do {
            d->x = (int)pt_rng_below(&r, SIZE);
            d->y = (int)pt_rng_below(&r, SIZE);
        } while (!pt_map_walkable(m, d->x, d->y));
        snprintf(d->name, sizeof d->name, i < GUARDS ? "g%d" : "flock", i + 1);
        d->kind = i < GUARDS ? PT_KIND_GUARD : PT_KIND_BOID;
        d->chase = (pt_chase)(i % 3);
        d->heading_deg = 45.0 * i;
        d->count = i < GUARDS ? 0 : 40;
        d->line = 1;
    }
    m->nents = GUARDS + 1;
    do {
        m->player.x = (int)pt_rng_below(&r, SIZE);
        m->player.y = (int)pt_rng_below(&r, SIZE);
    } while (!pt_map_walkable(m, m->player.x, m->player.y));
}

START_TEST(two_generated_worlds_on_two_threads) {
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pt_map ma, mb;
        gen_map(&ma, seed);
        gen_map(&mb, seed + 100);
        job a = {.map = &ma, .seed = seed, .threads = 2};
        job b = {.map = &mb, .seed = seed, .threads = 2};
        same_in_parallel(&a, &b);
        pt_map_fini(&ma);
        pt_map_fini(&mb);
    }
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, two_demo_worlds_on_two_threads);
    tcase_add_test(tc, two_generated_worlds_on_two_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
