/* SPDX-License-Identifier: Zlib */
/* text.c - reading line-based text formats (text.h): whole files with their limits, lines,
 * tokens, strict numbers and names, and whether two paths name the same file. Files are
 * opened by file.c. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* stat */
#include <sys/stat.h>
#define PT__HAVE_STAT 1
#endif
#include "base/text.h"
#include "base/suggest.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int text_check(pt__text *t, pt_error *err) {
    /* A NUL byte means this is not a text file: stop before any parser sees a short string. */
    int line = 1, col = 1;
    for (size_t i = 0; i < t->len; i++) {
        if (t->data[i] == '\0') {
            pt_error_set(err, PT_ERR_BINARY, line, col, "file contains a NUL byte: not a text file");
            if (err) snprintf(err->file, sizeof err->file, "%s", t->path);
            return PT_ERR_BINARY;
        }
        if (t->data[i] == '\n') { line++; col = 1; } else col++;
    }
    return PT_OK;
}

static int text_adopt(pt__text *t, const char *data, size_t len, const char *name, pt_error *err) {
    snprintf(t->path, sizeof t->path, "%s", name ? name : "");
    if (len >= 3 && (unsigned char)data[0] == 0xEF && (unsigned char)data[1] == 0xBB && (unsigned char)data[2] == 0xBF) {
        /* A UTF-8 byte-order mark is not part of the text: columns count from after it, as
         * editors show them. */
        data += 3;
        len -= 3;
    }
    t->data = PT_MALLOC(len + 1);
    if (!t->data) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory reading %zu bytes", len);
        return PT_ERR_NOMEM;
    }
    memcpy(t->data, data, len);
    t->data[len] = '\0';
    t->len = len;
    int rc = text_check(t, err);
    if (rc < 0) pt__text_free(t);
    return rc;
}

/* Every loaded thing records its file name (pattern files, error places): a longer one
 * would be cut silently and then name another file. */
static int name_check(const char *name, pt_error *err) {
    if (!name || strlen(name) < PT_MAX_PATH) return PT_OK;
    pt_error_set(err, PT_ERR_LIMIT, 0, 0, "file path is longer than %d bytes", PT_MAX_PATH - 1);
    if (err) snprintf(err->file, sizeof err->file, "%.*s", (int)sizeof err->file - 4, name);
    return PT_ERR_LIMIT;
}

int pt__text_from_mem(pt__text *t, const char *data, size_t len, const char *name, pt_error *err) {
    memset(t, 0, sizeof *t);
    pt_error_clear(err);
    if (name_check(name, err) < 0) return PT_ERR_LIMIT;
    if (len > PT_MAX_FILE_BYTES) {
        pt_error_set(err, PT_ERR_LIMIT, 0, 0, "input is %zu bytes; the limit is %d", len, PT_MAX_FILE_BYTES);
        if (err) snprintf(err->file, sizeof err->file, "%s", name ? name : "");
        return PT_ERR_LIMIT;
    }
    int rc = text_adopt(t, data ? data : "", data ? len : 0, name, err);
    if (rc < 0 && err) snprintf(err->file, sizeof err->file, "%s", name ? name : "");
    return rc;
}

int pt__file_read(const char *path, size_t max, char **data, size_t *len, pt_error *err) {
    *data = NULL;
    *len = 0;
    FILE *f = pt_file_open(path, err);
    if (!f) return PT_ERR_IO;
    if (err) snprintf(err->file, sizeof err->file, "%s", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > max + 1) ncap = max + 1;
            if (ncap == cap) {
                fclose(f);
                PT_FREE(buf);
                return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "file is larger than the limit of %zu bytes", max);
            }
            char *nb = PT_REALLOC(buf, ncap + 1); /* + 1: the NUL after the bytes */
            if (!nb) {
                fclose(f);
                PT_FREE(buf);
                return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (bad) {
        PT_FREE(buf);
        return pt_error_set(err, PT_ERR_IO, 0, 0, "read error: %s", strerror(e));
    }
    if (n > max) {
        PT_FREE(buf);
        return pt_error_set(err, PT_ERR_LIMIT, 0, 0, "file is larger than the limit of %zu bytes", max);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return PT_OK;
}

int pt__text_read(pt__text *t, const char *path, pt_error *err) {
    memset(t, 0, sizeof *t);
    pt_error_clear(err);
    if (name_check(path, err) < 0) return PT_ERR_LIMIT;
    char *buf;
    size_t len;
    int rc = pt__file_read(path, (size_t)PT_MAX_FILE_BYTES, &buf, &len, err);
    if (rc < 0) return rc;
    rc = text_adopt(t, buf, len, path, err);
    PT_FREE(buf);
    return rc;
}

/* The next segment of a path at *s, skipping empty and "." segments: its length, 0 at the end. */
static size_t next_segment(const char **s, const char **seg) {
    for (;;) {
        while (**s == '/') (*s)++;
        size_t n = strcspn(*s, "/");
        *seg = *s;
        *s += n;
        if (!(n == 1 && (*seg)[0] == '.')) return n;
    }
}

/* "mine.pat", "./mine.pat" and ".//mine.pat" are one spelling: the same segments, "." and
 * empty ones left out (".." is kept: through a symbolic link it is not the folder above). */
static int same_spelling(const char *a, const char *b) {
    if ((a[0] == '/') != (b[0] == '/')) return 0;
    for (;;) {
        const char *sa, *sb;
        size_t na = next_segment(&a, &sa), nb = next_segment(&b, &sb);
        if (na != nb || memcmp(sa, sb, na) != 0) return 0;
        if (na == 0) return 1;
    }
}

int pt__same_file(const char *a, const char *b) {
    if (!a || !b) return 0;
    if (same_spelling(a, b)) return 1;
#ifdef PT__HAVE_STAT
    /* "patterns/castle.pat" and "maps/../patterns/castle.pat" are one file: compare the
     * files, not the spellings. */
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
#else
    return 0;
#endif
}

void pt__text_free(pt__text *t) {
    if (!t) return;
    PT_FREE(t->data);
    t->data = NULL;
    t->len = 0;
}

void pt__reader_init(pt__reader *r, const pt__text *t) {
    r->t = t;
    r->pos = 0;
    r->lineno = 0;
}

int pt__reader_next(pt__reader *r, pt__line *out, pt_error *err) {
    const pt__text *t = r->t;
    if (r->pos >= t->len) return 0;
    size_t start = r->pos, end = start;
    while (end < t->len && t->data[end] != '\n') end++;
    r->pos = end < t->len ? end + 1 : end;
    r->lineno++;
    size_t len = end - start;
    if (len > 0 && t->data[start + len - 1] == '\r') len--;
    out->no = r->lineno;
    out->s = t->data + start;
    out->len = (int)(len > PT_MAX_LINE_BYTES ? PT_MAX_LINE_BYTES : len);
    out->ntok = 0;
    if (len > PT_MAX_LINE_BYTES)
        return pt_error_set(err, PT_ERR_LIMIT, r->lineno, PT_MAX_LINE_BYTES + 1,
                            "line is longer than the limit of %d bytes", PT_MAX_LINE_BYTES);
    return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

int pt__line_tokenize(pt__line *ln, pt_error *err) {
    ln->ntok = 0;
    int i = 0;
    while (i < ln->len) {
        while (i < ln->len && is_blank(ln->s[i])) i++;
        if (i >= ln->len || ln->s[i] == '#') break;
        if (ln->ntok >= PT_MAX_TOKENS)
            return pt_error_set(err, PT_ERR_LIMIT, ln->no, i + 1, "more than %d items on one line", PT_MAX_TOKENS);
        pt__tok *t = &ln->tok[ln->ntok];
        t->col = i + 1;
        t->quoted = 0;
        char q = ln->s[i];
        if (q == '\'' || q == '"') {
            int j = i + 1;
            while (j < ln->len && ln->s[j] != q) j++;
            if (j >= ln->len) return pt_error_set(err, PT_ERR_SYNTAX, ln->no, i + 1, "unterminated quote");
            t->s = ln->s + i + 1;
            t->len = j - i - 1;
            t->quoted = 1;
            i = j + 1;
            if (i < ln->len && !is_blank(ln->s[i]) && ln->s[i] != '#')
                return pt_error_set(err, PT_ERR_SYNTAX, ln->no, i + 1, "expected a blank after the closing quote");
        } else {
            int j = i;
            while (j < ln->len && !is_blank(ln->s[j])) j++;
            t->s = ln->s + i;
            t->len = j - i;
            i = j;
        }
        ln->ntok++;
    }
    return PT_OK;
}

int pt__tok_eq(const pt__tok *t, const char *s) {
    size_t n = strlen(s);
    return (size_t)t->len == n && memcmp(t->s, s, n) == 0;
}

int pt__tok_kv(const pt__tok *t, pt__tok *key, pt__tok *val) {
    if (t->quoted) return 0;
    const char *eq = memchr(t->s, '=', (size_t)t->len);
    if (!eq) return 0;
    int k = (int)(eq - t->s);
    key->s = t->s; key->len = k; key->col = t->col; key->quoted = 0;
    val->s = eq + 1; val->len = t->len - k - 1; val->col = t->col + k + 1; val->quoted = 0;
    /* key="quoted value": strip the quotes the tokenizer could not see. */
    if (val->len >= 2 && (val->s[0] == '"' || val->s[0] == '\'') && val->s[val->len - 1] == val->s[0]) {
        val->s++; val->len -= 2; val->quoted = 1;
    }
    return 1;
}

static int number_chars_ok(const pt__tok *t, int allow_frac) {
    if (t->len <= 0) return 0;
    int digits = 0;
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c >= '0' && c <= '9') digits++;
        else if ((c == '+' || c == '-') && (i == 0 || t->s[i - 1] == 'e' || t->s[i - 1] == 'E')) continue;
        else if (allow_frac && (c == '.' || c == 'e' || c == 'E')) continue;
        else return 0;
    }
    return digits > 0;
}

/* Copies a token into a NUL-terminated buffer for strtod/strtol. strtod reads the decimal
 * point of the C library's current locale: a game that called setlocale() with a locale
 * whose point is ',' would read "0.25" as 0. Files always use '.', so put the locale's point
 * in its place (the characters were checked: '.' can only be the decimal point). */
static void number_text(const pt__tok *t, char *buf) {
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    const struct lconv *lc = localeconv();
    char point = lc && lc->decimal_point && lc->decimal_point[0] && !lc->decimal_point[1] ? lc->decimal_point[0] : '.';
    if (point != '.')
        for (char *c = buf; *c; c++)
            if (*c == '.') *c = point;
}

int pt__tok_num(const pt__tok *t, int line, double lo, double hi, double *out, pt_error *err) {
    char buf[PT_MAX_LINE_BYTES + 1];
    if (!number_chars_ok(t, 1) || t->len >= (int)sizeof buf)
        return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col, "expected a number, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    number_text(t, buf);
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + t->len)
        return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col, "expected a number, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    /* Only digits, signs, '.' and 'e' got here, so a non-finite result is an overflow (1e999)
     * and ERANGE an overflow or an underflow (1e-400): numbers, but out of any range. */
    if (errno == ERANGE || !isfinite(v) || v < lo || v > hi)
        return pt_error_set(err, PT_ERR_RANGE, line, t->col, "%.*s is out of range [%g, %g]",
                            t->len > 40 ? 40 : t->len, t->s, lo, hi);
    *out = v;
    return PT_OK;
}

int pt__tok_int(const pt__tok *t, int line, long lo, long hi, int *out, pt_error *err) {
    char buf[PT_MAX_LINE_BYTES + 1];
    if (!number_chars_ok(t, 0) || t->len >= (int)sizeof buf)
        return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col, "expected a whole number, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = '\0';
    char *end = NULL;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end != buf + t->len)
        return pt_error_set(err, PT_ERR_BAD_NUMBER, line, t->col, "expected a whole number, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    if (errno == ERANGE || v < lo || v > hi)
        return pt_error_set(err, PT_ERR_RANGE, line, t->col, "%.*s is out of range [%ld, %ld]",
                            t->len > 40 ? 40 : t->len, t->s, lo, hi);
    *out = (int)v;
    return PT_OK;
}

int pt__key_range_error(pt_error *err, int line, int col, const char *key, const char *value, int value_len, double lo,
                        double hi, int above_lo) {
    if (value_len > 40) value_len = 40;
    if (above_lo)
        return pt_error_set(err, PT_ERR_RANGE, line, col, "%s=%.*s is out of range: %s takes more than %g, up to %g", key,
                            value_len, value, key, lo, hi);
    return pt_error_set(err, PT_ERR_RANGE, line, col, "%s=%.*s is out of range: %s takes %g to %g", key, value_len, value,
                        key, lo, hi);
}

int pt__tok_num_key(const pt__tok *t, int line, const char *key, double lo, double hi, int above_lo, double *out,
                    pt_error *err) {
    double v = 0;
    int rc = pt__tok_num(t, line, lo, hi, &v, err);
    if (rc == PT_ERR_RANGE || (rc == PT_OK && above_lo && v <= lo))
        return pt__key_range_error(err, line, t->col, key, t->s, t->len, lo, hi, above_lo);
    if (rc == PT_OK) *out = v;
    return rc;
}

int pt__tok_int_key(const pt__tok *t, int line, const char *key, long lo, long hi, int *out, pt_error *err) {
    int rc = pt__tok_int(t, line, lo, hi, out, err);
    if (rc == PT_ERR_RANGE) return pt__key_range_error(err, line, t->col, key, t->s, t->len, (double)lo, (double)hi, 0);
    return rc;
}

static int split_pair(const pt__tok *t, pt__tok *a, pt__tok *b) {
    const char *comma = memchr(t->s, ',', (size_t)t->len);
    if (!comma) return 0;
    int k = (int)(comma - t->s);
    a->s = t->s; a->len = k; a->col = t->col; a->quoted = 0;
    b->s = comma + 1; b->len = t->len - k - 1; b->col = t->col + k + 1; b->quoted = 0;
    return 1;
}

int pt__tok_cell(const pt__tok *t, int line, long lo, long hi, int *x, int *y, pt_error *err) {
    pt__tok a, b;
    if (!split_pair(t, &a, &b))
        return pt_error_set(err, PT_ERR_SYNTAX, line, t->col, "expected X,Y, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    int rc = pt__tok_int(&a, line, lo, hi, x, err);
    if (rc < 0) return rc;
    return pt__tok_int(&b, line, lo, hi, y, err);
}

int pt__tok_point(const pt__tok *t, int line, double lo, double hi, double *x, double *y, pt_error *err) {
    pt__tok a, b;
    if (!split_pair(t, &a, &b))
        return pt_error_set(err, PT_ERR_SYNTAX, line, t->col, "expected X,Y, found '%.*s'",
                            t->len > 40 ? 40 : t->len, t->s);
    int rc = pt__tok_num(&a, line, lo, hi, x, err);
    if (rc < 0) return rc;
    return pt__tok_num(&b, line, lo, hi, y, err);
}

int pt__tok_bool(const pt__tok *t, int line, int *out, pt_error *err) {
    static const char *const yes[] = {"yes", "true", "on", "1", NULL};
    static const char *const no[] = {"no", "false", "off", "0", NULL};
    for (int i = 0; yes[i]; i++) if (pt__tok_eq(t, yes[i])) { *out = 1; return PT_OK; }
    for (int i = 0; no[i]; i++) if (pt__tok_eq(t, no[i])) { *out = 0; return PT_OK; }
    return pt_error_set(err, PT_ERR_BAD_VALUE, line, t->col, "expected yes or no, found '%.*s'",
                        t->len > 40 ? 40 : t->len, t->s);
}

int pt__tok_name(const pt__tok *t, int line, char *dst, size_t cap, pt_error *err) {
    if (t->len <= 0) return pt_error_set(err, PT_ERR_SYNTAX, line, t->col, "expected a name");
    if ((size_t)t->len >= cap)
        return pt_error_set(err, PT_ERR_LIMIT, line, t->col, "name is longer than %zu characters", cap - 1);
    for (int i = 0; i < t->len; i++) {
        unsigned char c = (unsigned char)t->s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '-' || c == '.' || c == '/' || c == ':';
        if (!ok) return pt_error_set(err, PT_ERR_SYNTAX, line, t->col + i, "character '%c' is not allowed in a name",
                                     c >= 32 && c < 127 ? c : '?');
    }
    memcpy(dst, t->s, (size_t)t->len);
    dst[t->len] = '\0';
    return PT_OK;
}

int pt__tok_choice(const pt__tok *t, int line, const char *const *words, int *out, pt_error *err) {
    char list[160] = "";
    size_t used = 0;
    for (int i = 0; words[i]; i++) {
        if (pt__tok_eq(t, words[i])) { *out = i; return PT_OK; }
        int n = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", words[i]);
        if (n > 0 && used + (size_t)n < sizeof list) used += (size_t)n;
    }
    pt__suggest sg;
    char hint[96];
    pt__suggest_init(&sg, t->s, (size_t)t->len);
    pt__suggest_words(&sg, words);
    return pt_error_set(err, PT_ERR_BAD_VALUE, line, t->col, "'%.*s' is not one of: %s%s", t->len > 40 ? 40 : t->len,
                        t->s, list, pt__suggest_hint(&sg, NULL, hint, sizeof hint));
}

int pt__tok_path(const pt__tok *t, int line, const char *dir, char *dst, size_t cap, pt_error *err) {
    if (t->len <= 0) return pt_error_set(err, PT_ERR_SYNTAX, line, t->col, "expected a file name");
    for (int i = 0; i < t->len; i++)
        if ((unsigned char)t->s[i] < 32)
            return pt_error_set(err, PT_ERR_SYNTAX, line, t->col + (t->quoted ? 1 : 0) + i,
                                "control character in a file name");
    if (t->s[0] == '/') dir = "";
    size_t dl = strlen(dir);
    if (dl + (size_t)t->len >= cap)
        return pt_error_set(err, PT_ERR_LIMIT, line, t->col, "file path is longer than %zu bytes", cap - 1);
    memcpy(dst, dir, dl);
    memcpy(dst + dl, t->s, (size_t)t->len);
    dst[dl + (size_t)t->len] = '\0';
    return PT_OK;
}
