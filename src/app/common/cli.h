/* SPDX-License-Identifier: Zlib */
/* cli.h - what the subcommands' command lines share: the usage error and its hint, -h /
 * --help, strict option values (whole numbers, numbers, seeds, PNG names) and the default
 * demo map. Here below the game and the tools so both may call it; main.c only dispatches. */
#ifndef PATROL_APP_CLI_H
#define PATROL_APP_CLI_H

#include <stdint.h>

/* Prints "patrol CMD: error: ..." and the hint to use --help; returns APP_EXIT_USAGE. */
int app_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* 1 if arg is -h or --help. */
int app_is_help(const char *arg);
/* Strict option values: print a usage error and return 0 when s is not a number in range. */
int app_parse_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);
int app_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi, double *out);
/* A seed: a whole number 0..2^64-1, as a map's `seed` takes. */
int app_parse_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
/* 1 if path names a PNG file (ends in .png, any case); else prints a usage error, returns 0.
 * Only PNG is written, so another name would be a file whose bytes belie its name. */
int app_png_path_ok(const char *cmd, const char *opt, const char *path);
/* The default demo map: demo.map in the first of the data places (src/render/datadir.h):
 * share/patrol/examples beside the program, ./maps, the source tree's maps/ (a program in the
 * build tree), the configured install's examples; "maps/demo.map" when none has it. */
const char *app_default_map(void);

#endif
