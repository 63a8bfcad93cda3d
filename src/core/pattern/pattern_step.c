/* SPDX-License-Identifier: Zlib */
/* The out-of-line part of pattern_step.h, and its bit tables as constant expressions of
 * their index (written out by octal enumeration: f(00000) ... f(03777)). check_pattern_run
 * compares every entry with pt_map_step_ok and a bit loop. */
#include "pattern/pattern_step.h"

#define O1(f, p) f(p##0), f(p##1), f(p##2), f(p##3), f(p##4), f(p##5), f(p##6), f(p##7)
#define O2(f, p) O1(f, p##0), O1(f, p##1), O1(f, p##2), O1(f, p##3), O1(f, p##4), O1(f, p##5), O1(f, p##6), O1(f, p##7)
#define O3(f, p) O2(f, p##0), O2(f, p##1), O2(f, p##2), O2(f, p##3), O2(f, p##4), O2(f, p##5), O2(f, p##6), O2(f, p##7)

#define BIT(m, k) (((m) >> (k)) & 1u)
#define COUNT(m) (BIT(m, 0) + BIT(m, 1) + BIT(m, 2) + BIT(m, 3) + BIT(m, 4) + BIT(m, 5) + BIT(m, 6) + BIT(m, 7))
/* Set bits among bits 0..k of m. */
#define LOW(m, k) COUNT((m) & ((2u << (k)) - 1u))
/* Index of the i-th set bit of m: how many prefixes 0..k hold at most i set bits. */
#define SELECT(m, i)                                                                                     \
    ((LOW(m, 0) <= (i)) + (LOW(m, 1) <= (i)) + (LOW(m, 2) <= (i)) + (LOW(m, 3) <= (i)) + (LOW(m, 4) <= (i)) + \
     (LOW(m, 5) <= (i)) + (LOW(m, 6) <= (i)))
#define SELECT_ENTRY(n) SELECT((n) >> 3, (n) & 7u)

/* Cell (x + dx, y + dy) of block b is walkable (pt__row3 layout). */
#define WALK(b, dx, dy) BIT(b, 3 * ((dy) + 1) + 1 - (dx))
/* pt_map_step_ok on the block: no corner cutting. */
#define STEP(b, k, dx, dy) ((WALK(b, dx, dy) & ((dx) == 0 || (dy) == 0 || (WALK(b, dx, 0) & WALK(b, 0, dy)))) << (k))
#define BLOCK(b)                                                                                   \
    (STEP(b, 0, 1, 0) | STEP(b, 1, 1, 1) | STEP(b, 2, 0, 1) | STEP(b, 3, -1, 1) | STEP(b, 4, -1, 0) | \
     STEP(b, 5, -1, -1) | STEP(b, 6, 0, -1) | STEP(b, 7, 1, -1))

const uint8_t pt__bit_count[256] = {O2(COUNT, 00), O2(COUNT, 01), O2(COUNT, 02), O2(COUNT, 03)};
const uint8_t pt__bit_select[2048] = {O3(SELECT_ENTRY, 00), O3(SELECT_ENTRY, 01), O3(SELECT_ENTRY, 02),
                                      O3(SELECT_ENTRY, 03)};
const uint8_t pt__step_block[512] = {O3(BLOCK, 0)};

unsigned pt__step_mask_edge(const pt__walkmap *v, int x, int y) {
    unsigned ok = 0;
    for (int k = 0; k < 8; k++)
        if (pt__walk_ok(v, x, y, x + pt__dir_dx[k], y + pt__dir_dy[k])) ok |= 1u << k;
    return ok;
}
