/* patrol check FILE... - validates maps (and, later, pattern files); prints every problem
 * as a located error and keeps going so one run shows the problems of every file. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

static void check_usage(FILE *out) {
    fprintf(out, "usage: patrol check [-v] FILE...\n\n"
                 "Validates map files (.map; files of unknown type are read as maps) and reports\n"
                 "each problem as FILE:LINE:COL: error: MESSAGE with the source line and a caret.\n\n"
                 "options:\n"
                 "  -v, --verbose  print one 'ok' line per valid file\n"
                 "  -h, --help     show this help\n\n"
                 "exit status: 0 all files valid, 1 a file has problems, 2 usage error\n");
}

static int has_ext(const char *path, const char *ext) {
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcmp(path + n - e, ext) == 0;
}

/* A pattern file alone: syntax only. Returns the number of problems printed. */
static int check_pattern_file(const char *path) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    int problems = pt_patlib_load(&lib, path, &err) < 0;
    if (problems) pt_error_print(stderr, &err);
    pt_patlib_fini(&lib);
    return problems;
}

/* A map (.map or Tiled .tmx): the map itself, every pattern file it names, then every
 * entity's pattern linted against the map as the world places it. Every problem is printed;
 * returns how many. */
static int check_map(const char *path, int verbose) {
    pt_map map;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib); /* a .tmx adds its routes here */
    int rc = pt_tmx_is_tmx(path) ? pt_tmx_load(&map, &lib, path, &err) : pt_map_load(&map, path, &err);
    if (rc < 0) {
        pt_error_print(stderr, &err);
        pt_patlib_fini(&lib);
        return 1;
    }
    int problems = 0;
    for (int i = 0; i < map.npattern_files; i++) {
        if (pt_patlib_load_map_file(&lib, &map, i, &err) < 0) {
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
    if (!problems) {
        /* Whatever else the world refuses (steering sets the file lacks, ...), located. */
        pt_world *w = pt_world_create(&map, &lib, NULL, &err);
        if (!w) {
            pt_error_print(stderr, &err);
            problems++;
        }
        pt_world_destroy(w);
    }
    if (!problems && verbose)
        printf("%s: ok (map %dx%d, %d entities, %d obstacles, %d patterns)\n", path, map.w, map.h, map.nents,
               map.nobstacles, pt_patlib_count(&lib));
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return problems;
}

int cmd_check(int argc, char **argv) {
    /* Options first (anywhere before `--`), then every file in order. */
    int verbose = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            nfiles += argc - i - 1;
            break;
        }
        if (a[0] == '-' && a[1]) {
            if (app_is_help(a)) {
                check_usage(stdout);
                return APP_EXIT_OK;
            }
            if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
                verbose = 1;
                continue;
            }
            fprintf(stderr, "usage: patrol check [-v] FILE...\n");
            return app_usage_error("check", "unknown option '%s'", a);
        }
        nfiles++;
    }
    if (!nfiles) {
        fprintf(stderr, "usage: patrol check [-v] FILE...\n");
        return app_usage_error("check", "no files given");
    }

    int bad = 0, options_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (!options_done && a[0] == '-' && a[1]) continue;
        int problems;
        if (has_ext(a, ".pat")) {
            problems = check_pattern_file(a);
            if (!problems && verbose) printf("%s: ok\n", a);
        } else {
            problems = check_map(a, verbose);
        }
        bad += problems > 0;
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}
