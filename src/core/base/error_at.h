/* SPDX-License-Identifier: Zlib */
/* error_at.h - moving an error to the line that named the file it came from (not installed). */
#ifndef PATROL_BASE_ERROR_AT_H
#define PATROL_BASE_ERROR_AT_H


struct pt_error;
/* A file named on a line of another file (a map's `patterns FILE`) could not be read: an
 * error without a place (err->line 0) moves to that line and column of `file`, saying which
 * named file it was (error.c). An error inside the named file keeps its own place. */
void pt__error_named_at(struct pt_error *err, const char *file, int line, int col, const char *what, const char *name);

#endif
