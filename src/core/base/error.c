/* SPDX-License-Identifier: Zlib */
/* error.c - errors as values with a place (error.h): set, clear, locate in the text, move to
 * the line that named a file, and the codes' names and texts. Printing is error_print.c. */
#include <patrol/error.h>

#include "base/error_at.h"

#include <stdarg.h>
#include <stdio.h>
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
