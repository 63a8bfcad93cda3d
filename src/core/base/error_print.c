/* SPDX-License-Identifier: Zlib */
/* error_print.c - printing errors and warnings GCC-style (pt_error_print, pt_warning_print):
 * `file:line:col: error: message`, the source line (read from the file when the error did not
 * keep it) and a caret under the column; bytes from files are escaped for the terminal. */
#include <patrol/error.h>

#include <stdio.h>
#include <string.h>

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
