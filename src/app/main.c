/* SPDX-License-Identifier: Zlib */
#include "common/app.h"
#include "../render/datadir.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef PATROL_VERSION
#define PATROL_VERSION "0.0.0"
#endif

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"play", cmd_play, "play the demo (or MAP) in a window"},
    {"replay", cmd_replay, "play back a recording (play --record) in a window"},
    {"sim", cmd_sim, "run a map headless for N ticks; print a summary or write a CSV trace"},
    {"check", cmd_check, "validate maps and pattern files; print located errors"},
    {"render", cmd_render, "draw a map (at tick N) to a PNG, headless"},
    {"test", cmd_test, "run a level's expectations (.test files); N passed, N failed"},
    {"show", cmd_show, "preview a pattern: its cells, its matrix, or drawn over a map"},
    {"bench", cmd_bench, "measure the module's speed (medians over runs)"},
    {"solve", cmd_solve, "find a route to the goal no guard sees; print it as a player pattern"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: patrol COMMAND [ARGS...]\n\n"
                 "Guards that walk patrol patterns, see, chase, search and return.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'patrol COMMAND --help' describes a command. 'patrol --version' prints the version.\n");
}

int app_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

int app_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "patrol %s: error: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'patrol %s --help')\n", cmd);
    return APP_EXIT_USAGE;
}

int app_parse_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out) {
    if (!s) { app_usage_error(cmd, "%s needs a value", opt); return 0; }
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno == ERANGE) { app_usage_error(cmd, "%s: '%s' is not a whole number", opt, s); return 0; }
    if (v < lo || v > hi) { app_usage_error(cmd, "%s: %ld is out of range [%ld, %ld]", opt, v, lo, hi); return 0; }
    *out = v;
    return 1;
}

int app_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi, double *out) {
    if (!s) { app_usage_error(cmd, "%s needs a value", opt); return 0; }
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v)) { app_usage_error(cmd, "%s: '%s' is not a number", opt, s); return 0; }
    if (v < lo || v > hi) { app_usage_error(cmd, "%s: %g is out of range [%g, %g]", opt, v, lo, hi); return 0; }
    *out = v;
    return 1;
}

int app_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out) {
    if (!s) { app_usage_error(cmd, "%s needs a value", opt); return 0; }
    /* Digits only: strtoull would take "-1" as 2^64-1. */
    if (!*s || s[strspn(s, "0123456789")]) { app_usage_error(cmd, "%s: '%s' is not a whole number >= 0", opt, s); return 0; }
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE || v > UINT64_MAX) { app_usage_error(cmd, "%s: %s is larger than 2^64-1", opt, s); return 0; }
    *out = (uint64_t)v;
    return 1;
}

int app_png_path_ok(const char *cmd, const char *opt, const char *path) {
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".png") == 0) return 1;
    app_usage_error(cmd, "%s '%s': only PNG images are written; name the file FILE.png", opt, path);
    return 0;
}

const char *app_default_map(void) {
    static char found[PT_MAX_PATH + 16];
    char dirs[PT__DATA_PLACES][PT_MAX_PATH];
    int n = pt__data_places("examples", "maps", dirs);
    for (int i = 0; i < n; i++) {
        if (snprintf(found, sizeof found, "%s/demo.map", dirs[i]) < (int)sizeof found && access(found, R_OK) == 0)
            return found;
    }
    return "maps/demo.map";
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return APP_EXIT_USAGE;
    }
    if (app_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return APP_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("patrol %s\n", PATROL_VERSION);
        return APP_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "patrol: error: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return APP_EXIT_USAGE;
}
