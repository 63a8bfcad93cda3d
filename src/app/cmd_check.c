/* patrol check FILE... - validates maps (and, later, pattern files); prints every problem
 * as a located error and keeps going so one run shows the problems of every file. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include <patrol/map.h>

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

/* ==== LEAD: the one spot for pattern files and pattern linting ============================
 * When the pattern parser lands (pt_patlib_load in patrol/pattern.h):
 *  - map == NULL: `path` is a .pat file: load it, print its error (pt_error_print), return 1
 *    on failure;
 *  - map != NULL: load map->pattern_files[] and lint every entity's pattern (player and
 *    map->ents[]) against the map; print each problem and return how many there were.
 * Until then a .pat file is reported as not supported and maps get no pattern lint.
 * Returns the number of problems printed. */
static int check_patterns(const char *path, const pt_map *map) {
    if (map) return 0;
    fprintf(stderr, "%s: error: pattern files are not supported by 'patrol check' yet\n", path);
    return 1;
}
/* ==== end of the pattern spot =========================================================== */

static int check_map(const char *path, int verbose) {
    pt_map map;
    pt_error err;
    if (pt_map_load(&map, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    int problems = check_patterns(path, &map);
    if (!problems && verbose)
        printf("%s: ok (map %dx%d, %d entities, %d obstacles)\n", path, map.w, map.h, map.nents, map.nobstacles);
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
            problems = check_patterns(a, NULL);
            if (!problems && verbose) printf("%s: ok\n", a);
        } else {
            problems = check_map(a, verbose);
        }
        bad += problems > 0;
    }
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}
