/* SPDX-License-Identifier: Zlib */
/* bits.h - reading bitmaps kept as bytes, on either byte order (not installed). */
#ifndef PATROL_BASE_BITS_H
#define PATROL_BASE_BITS_H

#include <stdint.h>
#include <string.h>

/* 64 bits of a bitmap kept as bytes (bit i of byte j is bit 8j + i), read at p (any
 * alignment): bit 0 of the result is bit 0 of p[0] on either byte order. The sight bitmaps
 * (los.c) and wall avoidance's tile bits (steer_walls.c) are read this way. */
static inline uint64_t pt__bits64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

#endif
