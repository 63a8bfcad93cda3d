/* SPDX-License-Identifier: Zlib */
/* patrol/error.h - errors as values, with a place.
 *
 * Every loader and parser in patrol reports failure through a pt_error: a code from
 * the single list below, the 1-based line and column where the problem is, the file,
 * a human message and a copy of the offending source line. Codes are 0 for success
 * and negative for errors, so `if (code < 0)` is the test.
 *
 *     pt_error err;
 *     if (pt_map_load(&map, "maps/demo.map", &err) < 0) {
 *         pt_error_print(stderr, &err);   // maps/demo.map:12:7: error: ... + line + caret
 *         return 1;
 *     }
 *
 * Tests assert codes, lines and columns, never message text. Columns count bytes;
 * a tab counts as one column.
 */
#ifndef PATROL_ERROR_H
#define PATROL_ERROR_H

#include <stdio.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* X(name, value, short description) - the one list of error codes. Append only. */
#define PT_ERROR_LIST(X) \
    X(PT_OK,                    0, "ok") \
    X(PT_ERR_IO,               -1, "cannot read or write file") \
    X(PT_ERR_NOMEM,            -2, "out of memory") \
    X(PT_ERR_SYNTAX,           -3, "syntax error") \
    X(PT_ERR_UNKNOWN_DIRECTIVE,-4, "unknown directive") \
    X(PT_ERR_UNKNOWN_KEY,      -5, "unknown key") \
    X(PT_ERR_BAD_NUMBER,       -6, "bad number") \
    X(PT_ERR_RANGE,            -7, "value out of range") \
    X(PT_ERR_BAD_VALUE,        -8, "invalid value") \
    X(PT_ERR_LIMIT,            -9, "limit exceeded") \
    X(PT_ERR_DUPLICATE,       -10, "duplicate definition") \
    X(PT_ERR_MISSING,         -11, "missing required item") \
    X(PT_ERR_UNTERMINATED,    -12, "unterminated block") \
    X(PT_ERR_EMPTY,           -13, "empty definition") \
    X(PT_ERR_UNKNOWN_TILE,    -14, "unknown tile character") \
    X(PT_ERR_RAGGED_ROW,      -15, "ragged grid row") \
    X(PT_ERR_NO_PLAYER,       -16, "missing player") \
    X(PT_ERR_DUP_PLAYER,      -17, "duplicate player") \
    X(PT_ERR_OUT_OF_MAP,      -18, "position outside the map") \
    X(PT_ERR_NOT_WALKABLE,    -19, "position on a non-walkable tile") \
    X(PT_ERR_UNKNOWN_PATTERN, -20, "unknown pattern") \
    X(PT_ERR_PATTERN_BLOCKED, -21, "pattern enters a non-walkable tile") \
    X(PT_ERR_PATTERN_LEAVES,  -22, "pattern leaves the map") \
    X(PT_ERR_BAD_ENCODING,    -23, "bad or unsupported encoding") \
    X(PT_ERR_USAGE,           -24, "usage error") \
    X(PT_ERR_BINARY,          -25, "file is not text") \
    X(PT_ERR_INTERNAL,        -26, "internal error") \
    X(PT_ERR_PATTERN_CORNER,  -27, "pattern cuts a non-walkable corner")

typedef enum pt_code {
#define PT__ENUM(name, value, text) name = value,
    PT_ERROR_LIST(PT__ENUM)
#undef PT__ENUM
} pt_code;

enum { PT_ERROR_PATH_MAX = 512, PT_ERROR_MSG_MAX = 256, PT_ERROR_SRC_MAX = 256 };

typedef struct pt_error {
    int code;                        /* pt_code: PT_OK or a negative PT_ERR_* */
    int line;                        /* 1-based; 0 when the error has no line (I/O) */
    int col;                         /* 1-based byte column; 0 when none */
    char file[PT_ERROR_PATH_MAX];    /* file the error is in ("" if parsed from memory) */
    char message[PT_ERROR_MSG_MAX];  /* human text, lower case, no trailing period */
    char source[PT_ERROR_SRC_MAX];   /* the offending source line (may be truncated) */
} pt_error;

/* Clears err to PT_OK (safe with NULL). */
void pt_error_clear(pt_error *err);

/* Sets code/line/col/message (printf-style) and returns code. err may be NULL.
 * file and source are left as they are; see pt_error_locate. */
int pt_error_set(pt_error *err, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Fills err->file and err->source (the given line of text, up to its newline). */
void pt_error_locate(pt_error *err, const char *file, const char *text, size_t text_len);

/* The constant name ("PT_ERR_SYNTAX") and description of a code; "unknown" if not listed. */
const char *pt_code_name(int code);
const char *pt_code_text(int code);

/* Opens a file for reading as every loader does (docs/robustness.md): only a regular file,
 * not one of the kernel's (procfs, sysfs), and without blocking on a FIFO or a device. NULL
 * with err set otherwise (PT_ERR_IO, err->file = path, no line); err may be NULL. */
FILE *pt_file_open(const char *path, pt_error *err);

/* Prints `file:line:col: error: message`, then the source line and a caret under the
 * column (when known), GCC-style. Omits parts that are unknown. */
void pt_error_print(FILE *out, const pt_error *err);

/* The same layout for a warning: `file:line:col: warning: message`, the source line and a
 * caret. A warning is a problem that does not stop a load (patrol check prints them). */
void pt_warning_print(FILE *out, const pt_error *w);

/* "Did you mean": the name of list ("a, b, c") nearest to word (len bytes) when it is near
 * enough to be a typo of it (about one edit per three letters, case ignored), copied to buf;
 * NULL when none is. The loaders' suggestion, for a program's own names (options, overlays):
 *     char s[64];
 *     if (pt_suggest(w, strlen(w), "grid, cones, sight", s, sizeof s)) ... "did you mean 's'?" */
const char *pt_suggest(const char *word, size_t len, const char *list, char *buf, size_t cap);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
