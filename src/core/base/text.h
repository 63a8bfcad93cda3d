/* SPDX-License-Identifier: Zlib */
/* text.h - private: reading line-based text formats with exact line/column positions.
 * Shared by every text parser (maps, patterns, steering parameters) so that all of them
 * agree on comments, quoting, numbers, limits and error places. */
#ifndef PATROL_TEXT_H
#define PATROL_TEXT_H

#include <patrol/config.h>
#include <patrol/error.h>
#include <stddef.h>

typedef struct pt__text {
    char *data;                 /* NUL-terminated copy of the file */
    size_t len;
    char path[PT_MAX_PATH];     /* for error messages */
} pt__text;

/* Reads a whole file (limit PT_MAX_FILE_BYTES). Rejects NUL bytes (PT_ERR_BINARY with the
 * place) and skips a UTF-8 byte-order mark. On error err->file is set; returns a code. */
int pt__text_read(pt__text *t, const char *path, pt_error *err);
/* The whole of file `path` (opened by pt_file_open: a regular file), text or not: a new
 * buffer in *data (PT_FREE it) of *len bytes and a NUL after them. PT_ERR_LIMIT over max
 * bytes, PT_ERR_NOMEM, PT_ERR_IO, with err->file = path; *data NULL then. */
int pt__file_read(const char *path, size_t max, char **data, size_t *len, pt_error *err);
/* Same checks on a buffer in memory (copied); name is used in messages. */
int pt__text_from_mem(pt__text *t, const char *data, size_t len, const char *name, pt_error *err);
void pt__text_free(pt__text *t);
/* 1 when paths a and b name the same file, however they are spelt: the same path once "." and
 * empty segments are left out (a file that does not exist yet), or the same device and inode. */
int pt__same_file(const char *a, const char *b);

typedef struct pt__tok {
    const char *s;   /* not NUL-terminated */
    int len;
    int col;         /* 1-based column of the token's first byte (the quote, if quoted) */
    int quoted;
} pt__tok;

typedef struct pt__line {
    int no;                         /* 1-based line number */
    const char *s;                  /* raw line without its newline */
    int len;
    pt__tok tok[PT_MAX_TOKENS];
    int ntok;
} pt__line;

typedef struct pt__reader {
    const pt__text *t;
    size_t pos;
    int lineno;
} pt__reader;

void pt__reader_init(pt__reader *r, const pt__text *t);
/* Next raw line (no tokens yet). 1 = a line, 0 = end of file, < 0 = error (line too long). */
int pt__reader_next(pt__reader *r, pt__line *out, pt_error *err);

/* Splits a line into tokens at blanks. A token starting with '#' starts a comment that runs
 * to the end of the line. 'x' or "text" is one token with the quotes removed (no escapes).
 * Errors: too many tokens, unterminated quote. */
int pt__line_tokenize(pt__line *ln, pt_error *err);

int pt__tok_eq(const pt__tok *t, const char *s);
/* Splits key=value; returns 1 (and both parts, value col adjusted) if the token has '='. */
int pt__tok_kv(const pt__tok *t, pt__tok *key, pt__tok *val);
/* Strict numbers: the whole token must be a decimal number in [lo, hi]; PT_ERR_BAD_NUMBER or
 * PT_ERR_RANGE at the token's column otherwise. nan/inf/hex are rejected. */
int pt__tok_int(const pt__tok *t, int line, long lo, long hi, int *out, pt_error *err);
int pt__tok_num(const pt__tok *t, int line, double lo, double hi, double *out, pt_error *err);
/* The same for the value of a named key (`fov=400`): a range error names the key, the value
 * and the range the key accepts, "fov=400 is out of range: fov takes more than 0, up to 360"
 * (above_lo: lo itself is refused, "more than LO"; else "LO to HI"). */
int pt__tok_num_key(const pt__tok *t, int line, const char *key, double lo, double hi, int above_lo, double *out,
                    pt_error *err);
int pt__tok_int_key(const pt__tok *t, int line, const char *key, long lo, long hi, int *out, pt_error *err);
/* The range error of a key's value, as pt__tok_num_key writes it. */
int pt__key_range_error(pt_error *err, int line, int col, const char *key, const char *value, int value_len, double lo,
                        double hi, int above_lo);
/* "X,Y" integer pair. */
int pt__tok_cell(const pt__tok *t, int line, long lo, long hi, int *x, int *y, pt_error *err);
/* "X,Y" number pair. */
int pt__tok_point(const pt__tok *t, int line, double lo, double hi, double *x, double *y, pt_error *err);
/* yes/no, true/false, on/off, 1/0. */
int pt__tok_bool(const pt__tok *t, int line, int *out, pt_error *err);
/* Copies a name (letters, digits, _ - . / : allowed) of at most cap-1 bytes. */
int pt__tok_name(const pt__tok *t, int line, char *dst, size_t cap, pt_error *err);
/* A file name token as a path relative to dir (a folder ending in '/', or ""); absolute
 * paths are kept. Errors: empty, a control character, longer than cap - 1. */
int pt__tok_path(const pt__tok *t, int line, const char *dir, char *dst, size_t cap, pt_error *err);
/* Index of t in a NULL-terminated word list, or PT_ERR_BAD_VALUE listing the choices. */
int pt__tok_choice(const pt__tok *t, int line, const char *const *words, int *out, pt_error *err);

#endif
