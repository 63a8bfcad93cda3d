/* SPDX-License-Identifier: Zlib */
/* io.h - one function per part of a state that both writes it and reads it back (a save of
 * the world, world/save.c): pt__io is a growing buffer when writing and a bounded reader when
 * reading, so a part's writer and reader are the same lines and cannot drift apart. Integers
 * are little-endian, doubles their 64-bit patterns: the bytes are the same on every build.
 * Reading past the end, or a value a part refuses (pt__io_fail), marks the io bad with the
 * first problem and its byte offset; every later call then does nothing (reads give 0). */
#ifndef PATROL_BASE_IO_H
#define PATROL_BASE_IO_H

#include <stddef.h>
#include <stdint.h>

typedef struct pt__io {
    int reading;             /* 1: read from buf; 0: append to buf */
    unsigned char *buf;      /* writing: owned, grown; reading: borrowed */
    size_t len, cap, pos;    /* reading: pos is the next byte */
    int bad;                 /* 0 ok; else the pt_code of the first problem */
    size_t bad_at;           /* its byte offset */
    char why[160];           /* its message */
} pt__io;

/* A writer (empty buffer) or a reader of len bytes at p (not copied). */
void pt__io_writer(pt__io *io);
void pt__io_reader(pt__io *io, const void *p, size_t len);
void pt__io_fini(pt__io *io); /* frees a writer's buffer */

void pt__io_u8(pt__io *io, uint8_t *v);
void pt__io_u32(pt__io *io, uint32_t *v);
void pt__io_u64(pt__io *io, uint64_t *v);
/* The largest magnitude pt__io_int and pt__io_f64 read: no state of a world comes near it, and
 * a value within it cannot overflow as the world counts or moves on. NaN and infinities fail. */
#define PT__IO_MAX 1000000000
void pt__io_int(pt__io *io, int *v);      /* as 32 bits, two's complement; |v| <= PT__IO_MAX */
void pt__io_f64(pt__io *io, double *v);   /* its 64-bit pattern; finite, |v| <= PT__IO_MAX */
void pt__io_bytes(pt__io *io, void *p, size_t n);
/* An int that must lie in [lo, hi] when read (else the io fails naming `what`). */
void pt__io_range(pt__io *io, int *v, int lo, int hi, const char *what);
/* Marks the io bad at the current offset (the first problem is kept); returns 0. */
int pt__io_fail(pt__io *io, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Little-endian helpers on raw bytes. */
static inline uint32_t pt__le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t pt__le64(const unsigned char *p) { return pt__le32(p) | (uint64_t)pt__le32(p + 4) << 32; }
static inline void pt__put_le32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static inline void pt__put_le64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

#endif
