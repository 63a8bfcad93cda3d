/* SPDX-License-Identifier: Zlib */
#include <patrol/rng.h>

/* PCG32 (XSH RR), O'Neill 2014: small state, good statistics, trivially reproducible. */

void pt_rng_seed(pt_rng *r, uint64_t seed, uint64_t stream) {
    r->state = 0u;
    r->inc = (stream << 1u) | 1u;
    pt_rng_u32(r);
    r->state += seed;
    pt_rng_u32(r);
}

uint32_t pt_rng_u32(pt_rng *r) {
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

uint32_t pt_rng_below(pt_rng *r, uint32_t n) {
    if (n == 0) return 0;
    /* Lemire's multiply-and-reject: unbiased, usually one multiplication. */
    uint64_t m = (uint64_t)pt_rng_u32(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)pt_rng_u32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double pt_rng_unit(pt_rng *r) {
    uint64_t hi = pt_rng_u32(r) >> 5, lo = pt_rng_u32(r) >> 6; /* 27 + 26 = 53 bits */
    return (double)(hi * 67108864ULL + lo) * (1.0 / 9007199254740992.0);
}

double pt_rng_signed(pt_rng *r) { return pt_rng_unit(r) * 2.0 - 1.0; }
