/* SPDX-License-Identifier: Zlib */
/* The two-way state io of io.h: a growing little-endian writer and a bounded reader. */
#include "base/io.h"

#include <patrol/config.h>
#include <patrol/error.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pt__io_writer(pt__io *io) { memset(io, 0, sizeof *io); }

void pt__io_reader(pt__io *io, const void *p, size_t len) {
    memset(io, 0, sizeof *io);
    io->reading = 1;
    io->buf = (unsigned char *)(uintptr_t)p; /* never written while reading */
    io->len = len;
}

void pt__io_fini(pt__io *io) {
    if (!io->reading) PT_FREE(io->buf);
    io->buf = NULL;
    io->len = io->cap = 0;
}

int pt__io_fail(pt__io *io, int code, const char *fmt, ...) {
    if (io->bad) return 0;
    io->bad = code;
    io->bad_at = io->reading ? io->pos : io->len;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(io->why, sizeof io->why, fmt, ap);
    va_end(ap);
    return 0;
}

/* Room for n more bytes (writer), or the next n bytes (reader); NULL once bad. */
static unsigned char *take(pt__io *io, size_t n) {
    if (io->bad) return NULL;
    if (io->reading) {
        if (n > io->len - io->pos) {
            pt__io_fail(io, PT_ERR_UNTERMINATED, "the save ends too soon");
            return NULL;
        }
        unsigned char *p = io->buf + io->pos;
        io->pos += n;
        return p;
    }
    if (n > io->cap - io->len) {
        size_t cap = io->cap ? io->cap : 4096;
        while (cap - io->len < n) {
            if (cap > SIZE_MAX / 2) return pt__io_fail(io, PT_ERR_NOMEM, "out of memory"), NULL;
            cap *= 2;
        }
        unsigned char *nb = PT_REALLOC(io->buf, cap);
        if (!nb) return pt__io_fail(io, PT_ERR_NOMEM, "out of memory"), NULL;
        io->buf = nb;
        io->cap = cap;
    }
    unsigned char *p = io->buf + io->len;
    io->len += n;
    return p;
}

void pt__io_u8(pt__io *io, uint8_t *v) {
    unsigned char *p = take(io, 1);
    if (!p) {
        if (io->reading) *v = 0;
        return;
    }
    if (io->reading) *v = p[0];
    else p[0] = *v;
}

void pt__io_u32(pt__io *io, uint32_t *v) {
    unsigned char *p = take(io, 4);
    if (!p) {
        if (io->reading) *v = 0;
        return;
    }
    if (io->reading) *v = pt__le32(p);
    else pt__put_le32(p, *v);
}

void pt__io_u64(pt__io *io, uint64_t *v) {
    unsigned char *p = take(io, 8);
    if (!p) {
        if (io->reading) *v = 0;
        return;
    }
    if (io->reading) *v = pt__le64(p);
    else pt__put_le64(p, *v);
}

void pt__io_int(pt__io *io, int *v) {
    uint32_t u = (uint32_t)*v;
    size_t at = io->pos;
    pt__io_u32(io, &u);
    if (!io->reading) return;
    *v = u <= INT32_MAX ? (int)u : (int)(u - 0x80000000u) + INT32_MIN;
    if (!io->bad && (*v > PT__IO_MAX || *v < -PT__IO_MAX)) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "a number out of range (%d)", *v);
    }
    if (io->bad) *v = 0;
}

void pt__io_f64(pt__io *io, double *v) {
    uint64_t u;
    memcpy(&u, v, sizeof u);
    size_t at = io->pos;
    pt__io_u64(io, &u);
    if (!io->reading) return;
    memcpy(v, &u, sizeof u);
    /* NaN fails both comparisons */
    if (!io->bad && !(*v >= -PT__IO_MAX && *v <= PT__IO_MAX)) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "a number out of range (%g)", *v);
    }
    if (io->bad) *v = 0.0;
}

void pt__io_bytes(pt__io *io, void *p, size_t n) {
    if (!n) return;
    unsigned char *b = take(io, n);
    if (!b) {
        if (io->reading) memset(p, 0, n);
        return;
    }
    if (io->reading) memcpy(p, b, n);
    else memcpy(b, p, n);
}

void pt__io_range(pt__io *io, int *v, int lo, int hi, const char *what) {
    size_t at = io->pos;
    pt__io_int(io, v);
    if (!io->reading) return;
    if (!io->bad && (*v < lo || *v > hi)) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "%s %d is out of range [%d, %d]", what, *v, lo, hi);
    }
    if (io->bad) *v = lo; /* a value its reader can always hold */
}
