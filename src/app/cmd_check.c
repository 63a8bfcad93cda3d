/* SPDX-License-Identifier: Zlib */
/* patrol check FILE... - validates every kind of file the project reads, each as what it is;
 * prints every problem as a located error and keeps going so one run shows the problems of
 * every file. */
#include "app.h"
#include "filekind.h"
#include "load.h"
#include "rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/steer.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#define CHECK_USAGE "usage: patrol check [-q] [--route F.pat:NAME]... FILE...\n"

static void check_usage(FILE *out) {
    fprintf(out, CHECK_USAGE "\n"
                 "Validates each file as what it is: maps (.map, Tiled .tmx; a map's pattern files\n"
                 "and steering file too, and its patterns linted as the world places them), Tiled\n"
                 "tilesets (.tsx), pattern files (.pat), steering files (.steer), test files (.test:\n"
                 "the map they name, and their guards, cells and routes against it) and recordings\n"
                 "(.rec: checksum, and the map they name still the level recorded). A file with\n"
                 "another name is recognised by its first line. Each problem is reported as\n"
                 "FILE:LINE:COL: error: MESSAGE with the source line and a caret; each valid file\n"
                 "gets one line, e.g. 'maps/demo.map: ok (64x40, 20 entities, 10 patterns)'.\n\n"
                 "A pattern file alone is checked for its syntax: --route lints a player route\n"
                 "against every map checked, as sim --player-pattern and render --route walk it.\n\n"
                 "options:\n"
                 "  -q, --quiet    no line for valid files (errors only)\n"
                 "  --route F.pat:NAME  lint this player route on every map checked (repeatable)\n"
                 "  -h, --help     show this help\n\n"
                 "exit status: 0 all files valid, 1 a file has problems, 2 usage error\n");
}

/* A recording: its own syntax and checksum, then whether the map it names (with its files)
 * is still the level it was recorded on. Returns the number of problems printed. */
static int check_recording(const char *path, int quiet) {
    app_rec r;
    pt_error err;
    if (app_rec_load(&r, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    pt_map map;
    pt_patlib lib;
    int problems = 0;
    if (app_load_inputs(r.map, &map, &lib, &err) < 0) {
        pt_error_print(stderr, &err);
        problems = 1;
    } else {
        if (app_rec_check_level(&r, &map, &err) < 0) {
            pt_error_print(stderr, &err);
            problems = 1;
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&map);
    }
    if (!problems && !quiet)
        printf("%s: ok (%llu ticks on %s, seed %llu)\n", path, (unsigned long long)r.ticks, r.map,
               (unsigned long long)r.seed);
    app_rec_fini(&r);
    return problems;
}

/* A pattern file alone: syntax only. Returns the number of problems printed. */
static int check_pattern_file(const char *path, int quiet) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    int problems = pt_patlib_load(&lib, path, &err) < 0;
    if (problems) pt_error_print(stderr, &err);
    else if (!quiet) printf("%s: ok (%d pattern%s)\n", path, pt_patlib_count(&lib), pt_patlib_count(&lib) == 1 ? "" : "s");
    pt_patlib_fini(&lib);
    return problems;
}

static int check_steer_file(const char *path, int quiet) {
    pt_steer_file sf;
    pt_error err;
    pt_steer_file_init(&sf);
    int problems = pt_steer_file_load(&sf, path, &err) < 0;
    if (problems) pt_error_print(stderr, &err);
    else if (!quiet) printf("%s: ok (%d set%s)\n", path, sf.count, sf.count == 1 ? "" : "s");
    pt_steer_file_fini(&sf);
    return problems;
}

/* A tileset is only ever read as part of a Tiled map, so it is checked by the same loader:
 * a one-tile map in the tileset's folder that uses it. A problem located in the tileset is
 * the tileset's; the stand-in map's own complaints (it has no player) are not. */
static int check_tileset(const char *path, int quiet) {
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char name[PT_MAX_PATH], esc[PT_MAX_PATH * 6], text[PT_MAX_PATH * 6 + 512];
    snprintf(name, sizeof name, "%.*s(check of %s).tmx", slash ? (int)(slash - path + 1) : 0, path, base);
    size_t n = 0;
    for (const char *c = base; *c && n + 7 < sizeof esc; c++) {
        const char *e = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '"' ? "&quot;" : NULL;
        if (e) n += (size_t)snprintf(esc + n, sizeof esc - n, "%s", e);
        else esc[n++] = *c;
    }
    esc[n] = '\0';
    int len = snprintf(text, sizeof text,
                       "<map version=\"1.8\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"1\" "
                       "height=\"1\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\">\n"
                       " <tileset firstgid=\"1\" source=\"%s\"/>\n"
                       " <layer id=\"1\" name=\"tiles\" width=\"1\" height=\"1\"><data encoding=\"csv\">1</data></layer>\n"
                       "</map>\n", esc);
    pt_map map;
    pt_error err;
    int rc = pt_tmx_parse(&map, NULL, text, (size_t)len, name, &err);
    if (rc == PT_OK) pt_map_fini(&map);
    if (rc < 0 && strcmp(err.file, name) != 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    if (!quiet) printf("%s: ok (Tiled tileset)\n", path);
    return 0;
}

/* A test file: its syntax, then its map (as every command loads one) and every name, cell
 * and route in it against that map. */
static int check_test_file(const char *path, int quiet) {
    pt_testfile tf;
    pt_map map;
    pt_patlib lib;
    if (!app_load_test(path, &tf, &map, &lib)) return 1;
    if (!quiet) printf("%s: ok (%d expectation%s on %s)\n", path, tf.count, tf.count == 1 ? "" : "s", tf.map_path);
    pt_testfile_fini(&tf);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return 0;
}

enum { MAX_ROUTES = 16 };
typedef struct routes {
    const char *ref[MAX_ROUTES]; /* F.pat:NAME */
    int n;
} routes;

static int is_map_kind(app_file_kind k) { return k == APP_FILE_MAP || k == APP_FILE_TMX; }

/* A map (.map or Tiled .tmx): the map itself, every pattern file it names, then every
 * entity's pattern linted against the map as the world places it. Every problem is printed;
 * returns how many. */
static int check_map(const char *path, int quiet, const routes *rt) {
    pt_map map;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib); /* a .tmx adds its routes here */
    int rc = app_expect_map(path, &err);
    if (rc == PT_OK) rc = pt_tmx_is_tmx(path) ? pt_tmx_load(&map, &lib, path, &err) : pt_map_load(&map, path, &err);
    if (rc < 0) {
        pt_error_print(stderr, &err);
        pt_patlib_fini(&lib);
        return 1;
    }
    int problems = 0;
    for (int i = 0; i < map.npattern_files; i++) {
        if (app_load_map_pattern_file(&lib, &map, i, &err) < 0) {
            pt_error_print(stderr, &err);
            problems++;
        }
    }
    if (!problems) {
        enum { MAX_SHOWN = 50 };
        pt_error errs[MAX_SHOWN];
        int total = pt_patlib_lint_map(&lib, &map, errs, MAX_SHOWN);
        for (int i = 0; i < total && i < MAX_SHOWN; i++) pt_error_print(stderr, &errs[i]);
        if (total > MAX_SHOWN) fprintf(stderr, "%s: %d more problems not shown\n", path, total - MAX_SHOWN);
        problems += total;
    }
    if (map.steering_file[0]) {
        pt_steer_file sf;
        pt_steer_file_init(&sf);
        if (pt_steer_file_load_map(&sf, &map, &err) < 0) {
            pt_error_print(stderr, &err);
            problems++;
        }
        pt_steer_file_fini(&sf);
    }
    /* Player routes (--route): each linted as the world walks it on this map. */
    for (int i = 0; i < rt->n; i++) {
        pt_patlib rlib;
        pt_patlib_init(&rlib);
        const pt_pattern *p = app_load_pattern_ref("check", rt->ref[i], &rlib);
        problems += p ? app_lint_route(p, &map) : 1;
        pt_patlib_fini(&rlib);
    }
    if (!problems) {
        /* Whatever else the world refuses (steering sets the file lacks, ...), located. The
         * entities are the world's, as sim counts them: the player and every flock member. */
        pt_world *w = pt_world_create(&map, &lib, NULL, &err);
        if (!w) {
            pt_error_print(stderr, &err);
            problems++;
        } else if (!quiet) {
            printf("%s: ok (%dx%d, %d entities, %d patterns)\n", path, map.w, map.h, pt_world_count(w),
                   pt_patlib_count(&lib));
        }
        pt_world_destroy(w);
    }
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return problems;
}

int cmd_check(int argc, char **argv) {
    /* Options first (anywhere before `--`), then every file in order. */
    int quiet = 0, nfiles = 0, nmaps = 0;
    routes rt = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (int j = i + 1; j < argc; j++) nmaps += is_map_kind(app_file_kind_of(argv[j]));
            nfiles += argc - i - 1;
            break;
        }
        if (a[0] == '-' && a[1]) {
            if (app_is_help(a)) {
                check_usage(stdout);
                return APP_EXIT_OK;
            }
            if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
                quiet = 1;
                continue;
            }
            if (strcmp(a, "--route") == 0) {
                if (i + 1 >= argc) return app_usage_error("check", "--route needs F.pat:NAME");
                if (!app_pattern_ref_ok("check", argv[++i])) return APP_EXIT_USAGE;
                if (rt.n == MAX_ROUTES) return app_usage_error("check", "more than %d --route options", MAX_ROUTES);
                rt.ref[rt.n++] = argv[i];
                continue;
            }
            if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) continue; /* the ok lines: now the default */
            fprintf(stderr, CHECK_USAGE);
            return app_usage_error("check", "unknown option '%s'", a);
        }
        nfiles++;
        nmaps += is_map_kind(app_file_kind_of(a));
    }
    if (!nfiles) {
        fprintf(stderr, CHECK_USAGE);
        return app_usage_error("check", "no files given");
    }
    if (rt.n && !nmaps) return app_usage_error("check", "--route lints a route on a map: name a map (.map, .tmx) to check");

    int bad = 0, options_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (!options_done && strcmp(a, "--route") == 0) {
            i++;
            continue;
        }
        if (!options_done && a[0] == '-' && a[1]) continue;
        int problems;
        switch (app_file_kind_of(a)) {
        case APP_FILE_PAT: problems = check_pattern_file(a, quiet); break;
        case APP_FILE_STEER: problems = check_steer_file(a, quiet); break;
        case APP_FILE_TSX: problems = check_tileset(a, quiet); break;
        case APP_FILE_TEST: problems = check_test_file(a, quiet); break;
        case APP_FILE_REC: problems = check_recording(a, quiet); break;
        default: problems = check_map(a, quiet, &rt); break;
        }
        bad += problems > 0;
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}
