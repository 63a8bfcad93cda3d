/* SPDX-License-Identifier: Zlib */
/* pcg.h - the PCG32 step, written once: pt_rng (rng.c) and the troop's matrix records
 * (bulk/troop.c, which keep the state and the stream apart) instantiate it; the doubles
 * pt_rng_unit and pt_rng_signed give are here too, for the steering's per-tick draws (wander)
 * to take them without a call. */
#ifndef PATROL_RNG_PRIV_H
#define PATROL_RNG_PRIV_H

#include <patrol/rng.h>
#include <stdint.h>

/* PCG32 (XSH RR), O'Neill 2014, on a state and its increment (stream * 2 + 1). */
static inline uint32_t pt__pcg32(uint64_t *state, uint64_t inc) {
    uint64_t old = *state;
    *state = old * 6364136223846793005ULL + inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Uniform in [0, n) for n >= 1: Lemire's multiply-and-reject (unbiased, usually one
 * multiplication). */
static inline uint32_t pt__pcg32_below(uint64_t *state, uint64_t inc, uint32_t n) {
    uint64_t m = (uint64_t)pt__pcg32(state, inc) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)pt__pcg32(state, inc) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* pt_rng_unit: 27 + 26 = 53 bits, the high part drawn first. */
static inline double pt__rng_unit(pt_rng *r) {
    uint64_t hi = pt__pcg32(&r->state, r->inc) >> 5;
    uint64_t lo = pt__pcg32(&r->state, r->inc) >> 6;
    return (double)(hi * 67108864ULL + lo) * (1.0 / 9007199254740992.0);
}

/* pt_rng_signed */
static inline double pt__rng_signed(pt_rng *r) { return pt__rng_unit(r) * 2.0 - 1.0; }

#endif
