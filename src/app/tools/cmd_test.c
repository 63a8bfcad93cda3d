/* SPDX-License-Identifier: Zlib */
/* patrol test FILE.test... - runs a designer's expectations about a map (patrol/testing.h
 * holds the format and the runs; this prints them, and on a failure writes the trace and a
 * picture of the moment when asked). */
#include "common/app.h"
#include "common/cli.h"
#include "common/load.h"

#include <patrol/render.h>
#include <patrol/testing.h>
#include <patrol/world.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_help(FILE *out) {
    fprintf(out,
            "usage: patrol test [-q] [--trace DIR] [--png DIR] FILE.test...\n\n"
            "Runs the expectations of each test file (docs/formats.md, \"Tests\") on its map, each in\n"
            "its own deterministic run, and prints one line per expectation:\n"
            "  PASS FILE:LINE: EXPECTATION: what happened\n"
            "  FAIL FILE:LINE: EXPECTATION: what happened instead (tick, cell, which guard saw whom)\n"
            "  SKIP FILE:LINE: EXPECTATION: why it was not run\n"
            "then 'N passed, N failed' (and ', N skipped' when some were).\n\n"
            "options:\n"
            "  --trace DIR   for each failure write DIR/NAME-LINE.csv: the run's trace up to the failing\n"
            "                tick (tick,id,kind,state,x,y,px,py,heading, as 'patrol sim --trace')\n"
            "  --png DIR     for each failure write DIR/NAME-LINE.png: the map at that tick, with the\n"
            "                guards' cones and names (NAME: the test file's name without .test)\n"
            "  -q, --quiet   print only failures and the closing line\n"
            "  -h, --help    this help\n\n"
            "exit status: 0 every expectation passed (or was skipped), 1 one failed or a file has a\n"
            "problem (a located error), 2 usage error\n");
}

/* DIR/NAME-LINE.EXT, NAME the test file's base name without its extension. */
static void artefact(char *dst, size_t cap, const char *dir, const char *test, int line, const char *ext) {
    const char *base = strrchr(test, '/');
    base = base ? base + 1 : test;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    snprintf(dst, cap, "%s/%.*s-%d.%s", dir, n, base, line, ext);
}

/* The failing run again, with its trace written and the last tick drawn: the run is
 * deterministic, so it fails the same way. */
static void write_artefacts(const pt_testfile *tf, const pt_expect *x, const pt_map *map, const pt_patlib *lib,
                            const char *trace_dir, const char *png_dir) {
    char path[PT_MAX_PATH + 64];
    FILE *trace = NULL;
    if (trace_dir) {
        artefact(path, sizeof path, trace_dir, tf->path, x->line, "csv");
        if (!(trace = fopen(path, "w")))
            fprintf(stderr, "patrol test: error: cannot write %s: %s\n", path, strerror(errno));
    }
    pt_world_desc d;
    pt_expect_desc(tf, x, &d);
    pt_error err;
    pt_world *w = pt_world_create(map, lib, &d, &err);
    if (!w) {
        pt_error_print(stderr, &err);
        if (trace) fclose(trace);
        return;
    }
    pt_test_result r;
    pt_expect_run_script(w, x, tf->script, &r, trace);
    if (trace) {
        if ((ferror(trace) | fclose(trace)) != 0) fprintf(stderr, "patrol test: error: cannot write %s\n", path);
        else printf("  trace: %s\n", path);
    }
    if (png_dir) {
        artefact(path, sizeof path, png_dir, tf->path, x->line, "png");
        int n = pt_world_count(w);
        pt_actor *actors = calloc((size_t)n, sizeof *actors);
        long pw = 0, ph = 0;
        pt_view_map_size(map, 1, &pw, &ph);
        pt_view v = {.scale = 1, .overlays = PT_OVERLAY_CONES | PT_OVERLAY_SIGHT | PT_OVERLAY_LABELS,
                     .time = (double)pt_world_tick(w) * pt_world_dt(w)};
        if (!actors) {
            fprintf(stderr, "patrol test: error: out of memory\n");
        } else {
            pt_render_actors_from_world(w, 0.0, actors, n);
            pt_scene scene = {.map = pt_world_map(w), .actors = actors, .nactors = n};
            if (pt_render_png(&scene, &v, (int)pw, (int)ph, NULL, path, &err) < 0) {
                fprintf(stderr, "patrol test: ");
                pt_error_print(stderr, &err);
            } else {
                printf("  png: %s (tick %llu)\n", path, (unsigned long long)pt_world_tick(w));
            }
        }
        free(actors);
    }
    pt_world_destroy(w);
}

typedef struct tally { int passed, failed, skipped, broken; } tally;

static void run_file(const char *path, int quiet, const char *trace_dir, const char *png_dir, tally *t) {
    pt_testfile tf;
    pt_map map;
    pt_patlib lib;
    pt_error err;
    if (!app_load_test(path, &tf, &map, &lib)) {
        t->broken++;
        return;
    }
    for (int i = 0; i < tf.count; i++) {
        const pt_expect *x = &tf.items[i];
        pt_test_result r;
        int rc = pt_level_run_expect(&tf, i, &map, &lib, &r, &err);
        if (rc < 0) {
            pt_error_print(stderr, &err);
            t->broken++;
            break;
        }
        pt_test_status st = (pt_test_status)rc;
        static const char *const word[] = {"PASS", "FAIL", "SKIP"};
        if (st == PT_TEST_PASS) t->passed++;
        else if (st == PT_TEST_FAIL) t->failed++;
        else t->skipped++;
        if (!quiet || st == PT_TEST_FAIL) printf("%s %s:%d: %s: %s\n", word[st], path, x->line, x->text, r.text);
        /* solvable runs the solver, not a world to trace or draw */
        if (st == PT_TEST_FAIL && (trace_dir || png_dir) && x->kind != PT_EXPECT_SOLVABLE) write_artefacts(&tf, x, &map, &lib, trace_dir, png_dir);
    }
    pt_testfile_fini(&tf);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}

int cmd_test(int argc, char **argv) {
    const char *trace_dir = NULL, *png_dir = NULL;
    int quiet = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            test_help(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--trace") == 0 || strcmp(a, "--png") == 0) {
            if (i + 1 >= argc) return app_usage_error("test", "%s needs a folder", a);
            *(a[2] == 't' ? &trace_dir : &png_dir) = argv[++i];
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("test", "unknown option '%s'", a);
        } else {
            nfiles++;
        }
    }
    if (!nfiles) return app_usage_error("test", "no test file given (patrol test FILE.test...)");
    tally t = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--trace") == 0 || strcmp(a, "--png") == 0) {
            i++;
            continue;
        }
        if (a[0] == '-' && a[1]) continue;
        run_file(a, quiet, trace_dir, png_dir, &t);
    }
    printf("%d passed, %d failed", t.passed, t.failed);
    if (t.skipped) printf(", %d skipped", t.skipped);
    if (t.broken) printf(" (%d file%s with problems)", t.broken, t.broken == 1 ? "" : "s");
    putchar('\n');
    return t.failed || t.broken ? APP_EXIT_INPUT : APP_EXIT_OK;
}
