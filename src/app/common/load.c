/* SPDX-License-Identifier: Zlib */
/* Loading what a command needs (load.h): a map or a .test file with the patterns they name, as
 * patrol/level.h loads them, errors printed; pattern references (FILE.pat:NAME) of the command
 * line. */
#include "common/load.h"

#include <patrol/level.h>

#include <stdio.h>
#include <string.h>

#include "common/app.h"
#include "common/cli.h"
#include "levels/level_load.h"
#include <patrol/level.h>

int app_load_map_and_patterns(const char *path, pt_map *map, pt_patlib *lib) {
    pt_error err;
    if (pt_level_load(path, map, lib, &err) < 0) {
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
    if (pt_level_expect_pattern(file, pt_file_is_map(file) ? hint : NULL, &err) < 0 || pt_patlib_load(lib, file, &err) < 0) { /* all or nothing: a name clash leaves lib as it was */
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
    if (pt__level_load_test_ex(path, tf, map, lib, &err, map_checked, user) < 0) {
        pt_error_print(stderr, &err);
        return 0;
    }
    return 1;
}
