/* SPDX-License-Identifier: Zlib */
#include <patrol/error.h>

#include "base/error_at.h"

#include <stdarg.h>
#include <string.h>

void pt_error_clear(pt_error *err) {
    if (err) memset(err, 0, sizeof *err);
}

int pt_error_set(pt_error *err, int code, int line, int col, const char *fmt, ...) {
    if (!err) return code;
    err->code = code;
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

void pt_error_locate(pt_error *err, const char *file, const char *text, size_t text_len) {
    if (!err) return;
    if (file) snprintf(err->file, sizeof err->file, "%s", file);
    err->source[0] = '\0';
    if (!text || err->line <= 0) return;
    size_t i = 0;
    for (int line = 1; line < err->line && i < text_len; i++)
        if (text[i] == '\n') line++;
    size_t n = 0;
    while (i + n < text_len && text[i + n] != '\n' && text[i + n] != '\r' && n + 1 < sizeof err->source) n++;
    memcpy(err->source, text + i, n);
    err->source[n] = '\0';
}

void pt__error_named_at(pt_error *err, const char *file, int line, int col, const char *what, const char *name) {
    if (!err || err->line > 0 || line <= 0) return;
    char message[PT_ERROR_MSG_MAX];
    snprintf(message, sizeof message, "%s", err->message[0] ? err->message : pt_code_text(err->code));
    err->line = line;
    err->col = col;
    snprintf(err->message, sizeof err->message, "%s '%.120s': %.120s", what, name, message);
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->source[0] = '\0'; /* pt_error_print reads the line from the file */
}

const char *pt_code_name(int code) {
    switch (code) {
#define PT__NAME(name, value, text) case value: return #name;
        PT_ERROR_LIST(PT__NAME)
#undef PT__NAME
    }
    return "unknown";
}

const char *pt_code_text(int code) {
    switch (code) {
#define PT__TEXT(name, value, text) case value: return text;
        PT_ERROR_LIST(PT__TEXT)
#undef PT__TEXT
    }
    return "unknown";
}

/* Reads line `line` of a file into dst (for errors made without the text at hand, e.g. lint). */
static void read_source_line(const char *path, int line, char *dst, size_t cap) {
    dst[0] = '\0';
    FILE *f = pt_file_open(path, NULL);
    if (!f) return;
    int no = 1, c;
    size_t n = 0;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n') {
            if (no == line) break;
            no++;
            continue;
        }
        if (no == line && c != '\r' && n + 1 < cap) dst[n++] = (char)c;
    }
    dst[n] = '\0';
    fclose(f);
}

/* Text from a file (an unknown word, a file name) goes to a terminal: a control byte (ESC,
 * BEL, ...) is written as \xNN so that a downloaded map cannot send escape sequences. */
static void put_escaped(FILE *out, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 32 || c == 127) fprintf(out, "\\x%02x", c);
        else fputc(c, out);
    }
}

static void print_as(FILE *out, const pt_error *err, const char *severity) {
    if (!out || !err) return;
    if (!err->source[0] && err->file[0] && err->line > 0) {
        pt_error located = *err;
        read_source_line(err->file, err->line, located.source, sizeof located.source);
        if (located.source[0]) {
            print_as(out, &located, severity);
            return;
        }
    }
    if (err->file[0]) {
        put_escaped(out, err->file);
        fputc(':', out);
    }
    if (err->line > 0) {
        fprintf(out, "%d:", err->line);
        if (err->col > 0) fprintf(out, "%d:", err->col);
    }
    fprintf(out, "%s%s: ", (err->file[0] || err->line > 0) ? " " : "", severity);
    put_escaped(out, err->message[0] ? err->message : pt_code_text(err->code));
    fputc('\n', out);
    if (err->line > 0 && err->source[0]) {
        fprintf(out, " %5d | ", err->line);
        /* Print control characters as spaces so the caret stays under the column. */
        for (const char *p = err->source; *p; p++) fputc((unsigned char)*p < 32 ? ' ' : *p, out);
        fputc('\n', out);
        if (err->col > 0) {
            fprintf(out, "       | ");
            int len = (int)strlen(err->source);
            for (int i = 1; i < err->col && i <= len; i++) fputc(' ', out);
            fputs("^\n", out);
        }
    }
}

void pt_error_print(FILE *out, const pt_error *err) { print_as(out, err, "error"); }

void pt_warning_print(FILE *out, const pt_error *w) { print_as(out, w, "warning"); }
