/* SPDX-License-Identifier: Zlib */
/* A level as the patrol command takes it (patrol/level.h): a map with the pattern files it
 * names, linted as `check` lints; a .test file with its map; one expectation run. */
#include <patrol/level.h>

#include <patrol/steer.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levels/level_load.h"

int pt_level_load_map_pattern_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err) {
    if (!lib || !map || i < 0 || i >= map->npattern_files)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "no pattern file %d", i);
    char hint[200];
    snprintf(hint, sizeof hint, "%.80s names it on line %d, where a 'patterns' line wants a .pat file", map->path,
             map->pattern_file_lines[i]);
    int rc = pt_level_expect_pattern(map->pattern_files[i], hint, err);
    return rc < 0 ? rc : pt_patlib_load_map_file(lib, map, i, err);
}

/* The map itself, by its kind and name: a .tmx brings its routes (polylines) as path
 * patterns of its own into lib (initialised here). On failure lib is freed. */
static int load_map_only(const char *path, pt_map *map, pt_patlib *lib, pt_error *err) {
    pt_patlib_init(lib);
    int rc = pt_level_expect_map(path, err);
    if (rc == PT_OK) rc = pt_tmx_is_tmx(path) ? pt_tmx_load(map, lib, path, err) : pt_map_load(map, path, err);
    if (rc < 0) pt_patlib_fini(lib);
    return rc;
}

int pt_level_load(const char *path, pt_map *map, pt_patlib *lib, pt_error *err) {
    if (!path || !map || !lib) return pt_error_set(err, PT_ERR_USAGE, 0, 0, "pt_level_load: NULL argument");
    int rc = load_map_only(path, map, lib, err);
    if (rc < 0) return rc;
    for (int i = 0; i < map->npattern_files; i++) {
        if ((rc = pt_level_load_map_pattern_file(lib, map, i, err)) < 0) {
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

/* The map's error said at the test file's `map` line instead (msg): how a map that is checked
 * elsewhere, or cannot be read at all, is reported. */
static void at_map_line(pt_error *err, const pt_testfile *tf, const char *path, const char *msg) {
    pt_error_set(err, err->code, tf->map_line, tf->map_col, "%s", msg);
    snprintf(err->file, sizeof err->file, "%s", path);
    err->source[0] = '\0';
}

int pt__level_load_test_ex(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib, pt_error *err,
                           int (*map_checked)(const char *map, void *user), void *user) {
    pt_error local;
    if (!err) err = &local;
    int rc = pt_testfile_load(tf, path, err);
    if (rc < 0) return rc;
    if ((rc = pt_level_load(tf->map_path, map, lib, err)) < 0) {
        char msg[PT_ERROR_MSG_MAX], why[PT_ERROR_MSG_MAX];
        if (map_checked && map_checked(tf->map_path, user)) { /* its errors are printed where it is checked */
            snprintf(msg, sizeof msg, "map '%.200s' has errors (reported where it is checked)", tf->map_path);
            at_map_line(err, tf, path, msg);
        } else if (err->line <= 0) { /* the map itself could not be read: say where the test names it */
            snprintf(why, sizeof why, "%s", err->message);
            pt_error_set(err, err->code, 0, 0, "map '%.200s': %.200s", tf->map_path, why); /* cut as it says */
            snprintf(msg, sizeof msg, "%s", err->message);
            at_map_line(err, tf, path, msg);
        }
        pt_testfile_fini(tf);
        return rc;
    }
    for (int i = 0; i < tf->npattern_files && rc >= 0; i++) { /* a map on a `patterns` line is named as one */
        char hint[200];
        snprintf(hint, sizeof hint, "%.80s names it on line %d, where a 'patterns' line wants a .pat file", path,
                 tf->pattern_line[i]);
        rc = pt_level_expect_pattern(tf->pattern_files[i], hint, err);
    }
    if (rc >= 0) rc = pt_testfile_bind(tf, map, lib, err);
    if (rc < 0) {
        pt_testfile_fini(tf);
        pt_patlib_fini(lib);
        pt_map_fini(map);
        return rc;
    }
    return PT_OK;
}

int pt_level_load_test(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib, pt_error *err) {
    if (!path || !tf || !map || !lib) return pt_error_set(err, PT_ERR_USAGE, 0, 0, "pt_level_load_test: NULL argument");
    return pt__level_load_test_ex(path, tf, map, lib, err, NULL, NULL);
}

int pt_level_run_expect(const pt_testfile *tf, int i, const pt_map *map, const pt_patlib *lib, pt_test_result *res,
                        pt_error *err) {
    if (!tf || !map || !lib || !res) return pt_error_set(err, PT_ERR_USAGE, 0, 0, "pt_level_run_expect: NULL argument");
    if (i < 0 || i >= tf->count)
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "expectation %d of %d", i, tf->count);
    const pt_expect *x = &tf->items[i];
    pt_world_desc d;
    pt_expect_desc(tf, x, &d);
    pt_world *w = pt_world_create(map, lib, &d, err);
    if (!w) return err ? err->code : PT_ERR_USAGE;
    pt_test_status st = pt_expect_run_script(w, x, tf->script, res, NULL);
    pt_world_destroy(w);
    return (int)st;
}

int pt_level_check_map(const char *path, pt_map *map, pt_patlib *lib, pt_level_report report, void *user, int *loaded) {
    pt_error err;
    if (loaded) *loaded = 0;
    if (!path || !map || !lib) return 1;
    if (load_map_only(path, map, lib, &err) < 0) {
        if (report) report(user, &err, PT_LEVEL_ERROR);
        return 1;
    }
    if (loaded) *loaded = 1;
    int problems = 0;
    for (int i = 0; i < map->npattern_files; i++) {
        if (pt_level_load_map_pattern_file(lib, map, i, &err) < 0) {
            if (report) report(user, &err, PT_LEVEL_ERROR);
            problems++;
        }
    }
    if (!problems) {
        int total = pt_patlib_lint_map(lib, map, NULL, 0);
        pt_error *errs = total > 0 ? malloc((size_t)total * sizeof *errs) : NULL;
        if (errs) total = pt_patlib_lint_map(lib, map, errs, total);
        for (int i = 0; i < total; i++) {
            pt_error e;
            if (errs) e = errs[i];
            else pt_error_set(&e, PT_ERR_NOMEM, 0, 0, "out of memory for %d lint problems", total);
            size_t len = strlen(e.message); /* a pattern file may serve several maps: name this one */
            snprintf(e.message + len, sizeof e.message - len, " on %s", path);
            if (report) report(user, &e, PT_LEVEL_LINT);
            if (!errs) break;
        }
        free(errs);
        problems += total;
        int cap = map->nlegend + map->nents + 3; /* at most one per goal tile kind, entity, and three more */
        pt_error *warns = malloc((size_t)cap * sizeof *warns);
        int nw = warns ? pt_level_warnings(map, lib, warns, cap) : 0;
        for (int i = 0; i < nw && i < cap; i++)
            if (report) report(user, &warns[i], PT_LEVEL_WARNING);
        free(warns);
    }
    if (map->steering_file[0]) {
        pt_steer_file sf;
        pt_steer_file_init(&sf);
        if (pt_steer_file_load_map(&sf, map, &err) < 0) {
            if (report) report(user, &err, PT_LEVEL_ERROR);
            problems++;
        }
        pt_steer_file_fini(&sf);
    }
    return problems;
}
