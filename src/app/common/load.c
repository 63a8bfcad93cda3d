/* SPDX-License-Identifier: Zlib */
/* Loading what a command needs (load.h): a map or a .test file with the patterns they name,
 * linted as `check` lints them; pattern references (FILE.pat:NAME) of the command line. */
#include "common/load.h"

#include <patrol/tmx.h>

#include <stdio.h>
#include <string.h>

#include "common/app.h"
#include "common/cli.h"
#include "common/filekind.h"

int app_load_inputs(const char *path, pt_map *map, pt_patlib *lib, pt_error *err) {
    pt_patlib_init(lib);
    /* A Tiled map brings its routes (polylines) as path patterns of its own. */
    int rc = app_expect_map(path, err);
    if (rc == PT_OK) rc = pt_tmx_is_tmx(path) ? pt_tmx_load(map, lib, path, err) : pt_map_load(map, path, err);
    if (rc < 0) {
        pt_patlib_fini(lib);
        return rc;
    }
    for (int i = 0; i < map->npattern_files; i++) {
        if ((rc = app_load_map_pattern_file(lib, map, i, err)) < 0) {
            pt_patlib_fini(lib);
            pt_map_fini(map);
            return rc;
        }
    }
    /* The lint `check` runs: a pattern that walks into a wall would otherwise load and leave
     * its guard waiting at the wall forever. The first problem is enough to refuse. */
    pt_error first;
    if (pt_patlib_lint_map(lib, map, &first, 1) > 0) {
        if (err) *err = first;
        pt_patlib_fini(lib);
        pt_map_fini(map);
        return first.code;
    }
    return PT_OK;
}

int app_load_map_pattern_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err) {
    char hint[200];
    snprintf(hint, sizeof hint, "%.80s names it on line %d, where a 'patterns' line wants a .pat file", map->path,
             map->pattern_file_lines[i]);
    int rc = app_expect_pattern(map->pattern_files[i], hint, err);
    return rc < 0 ? rc : pt_patlib_load_map_file(lib, map, i, err);
}

int app_load_map_and_patterns(const char *path, pt_map *map, pt_patlib *lib) {
    pt_error err;
    if (app_load_inputs(path, map, lib, &err) < 0) {
        pt_error_print(stderr, &err);
        return 0;
    }
    return 1;
}

int app_pattern_ref_ok(const char *cmd, const char *ref) {
    const char *colon = strrchr(ref, ':');
    if (colon && colon != ref && colon[1]) return 1;
    app_usage_error(cmd, "expected FILE.pat:NAME, got '%s'", ref);
    return 0;
}

const pt_pattern *app_load_pattern_ref(const char *cmd, const char *ref, pt_patlib *lib) {
    if (!app_pattern_ref_ok(cmd, ref)) return NULL;
    const char *colon = strrchr(ref, ':');
    char file[PT_MAX_PATH];
    snprintf(file, sizeof file, "%.*s", (int)(colon - ref), ref);
    const char *name = colon + 1;
    /* A file the map loaded already (however it is spelt) is not loaded again. */
    pt_error err;
    char hint[160];
    snprintf(hint, sizeof hint, "a player route is a pattern file such as 'patrol solve %.60s --out route.pat' writes", file);
    if (app_expect_pattern(file, app_file_is_map(file) ? hint : NULL, &err) < 0 || pt_patlib_load(lib, file, &err) < 0) { /* all or nothing: a name clash leaves lib as it was */
        pt_error_print(stderr, &err);
        return NULL;
    }
    const pt_pattern *p = pt_patlib_find_in_file(lib, file, name);
    if (!p) app_no_pattern_error(cmd, file, name, lib);
    return p;
}

int app_lint_route(const pt_pattern *route, const pt_map *map) {
    enum { MAX_SHOWN = 50 };
    pt_error errs[MAX_SHOWN];
    int total = pt_pattern_lint_route(route, map, errs, MAX_SHOWN);
    for (int i = 0; i < total && i < MAX_SHOWN; i++) pt_error_print(stderr, &errs[i]);
    if (total > MAX_SHOWN) fprintf(stderr, "%s: %d more problems not shown\n", route->file, total - MAX_SHOWN);
    return total;
}

void app_no_pattern_error(const char *cmd, const char *file, const char *name, const pt_patlib *lib) {
    char names[2048] = "", sug[64];
    size_t n = 0;
    for (int i = 0; i < pt_patlib_count(lib) && n < sizeof names; i++) {
        const pt_pattern *q = pt_patlib_get(lib, i);
        if (pt_patlib_find_in_file(lib, file, q->name) == q)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", q->name);
    }
    if (pt_suggest(name, strlen(name), names, sug, sizeof sug))
        fprintf(stderr, "patrol %s: error: %s has no pattern '%s'; did you mean '%s'? (it has: %s)\n", cmd, file, name, sug, names);
    else
        fprintf(stderr, "patrol %s: error: %s has no pattern '%s'; it has: %s\n", cmd, file, name, names);
}

int app_load_test(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib) {
    return app_load_test_ex(path, tf, map, lib, NULL, NULL);
}

int app_load_test_ex(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib,
                     int (*map_checked)(const char *map, void *user), void *user) {
    pt_error err;
    if (pt_testfile_load(tf, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 0;
    }
    if (app_load_inputs(tf->map_path, map, lib, &err) < 0) {
        if (map_checked && map_checked(tf->map_path, user)) { /* its errors are printed where it is checked */
            pt_error_set(&err, err.code, tf->map_line, tf->map_col,
                         "map '%.200s' has errors (reported where it is checked)", tf->map_path);
            snprintf(err.file, sizeof err.file, "%s", path);
            err.source[0] = '\0';
        } else if (err.line <= 0) { /* the map itself could not be read: say where the test names it */
            char msg[PT_ERROR_MSG_MAX];
            snprintf(msg, sizeof msg, "%s", err.message);
            pt_error_set(&err, err.code, tf->map_line, tf->map_col, "map '%.200s': %.200s", tf->map_path, msg);
            snprintf(err.file, sizeof err.file, "%s", path);
            err.source[0] = '\0';
        }
        pt_error_print(stderr, &err);
        pt_testfile_fini(tf);
        return 0;
    }
    int rc = PT_OK;
    for (int i = 0; i < tf->npattern_files && rc >= 0; i++) { /* a map on a `patterns` line is named as one */
        char hint[200];
        snprintf(hint, sizeof hint, "%.80s names it on line %d, where a 'patterns' line wants a .pat file", path,
                 tf->pattern_line[i]);
        rc = app_expect_pattern(tf->pattern_files[i], hint, &err);
    }
    if (rc < 0 || pt_testfile_bind(tf, map, lib, &err) < 0) {
        pt_error_print(stderr, &err);
        pt_testfile_fini(tf);
        pt_patlib_fini(lib);
        pt_map_fini(map);
        return 0;
    }
    return 1;
}
