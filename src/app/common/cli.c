/* SPDX-License-Identifier: Zlib */
/* cli.c - the helpers of the subcommands' command lines (cli.h): usage errors, -h/--help,
 * strict option values, PNG output names and the default demo map. In common/ so the game's
 * and the tools' commands (and the loader's pattern references) call down, not up to main.c. */
#include "common/app.h"
#include "common/cli.h"
#include "../../render/datadir.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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
