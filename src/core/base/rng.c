/* SPDX-License-Identifier: Zlib */
/* The public RNG (patrol/rng.h): PCG32, seeded by a seed and a stream; its step is pcg.h's,
 * written once for the troop too. */
#include <patrol/rng.h>

#include "base/pcg.h"

/* PCG32 (XSH RR), O'Neill 2014: small state, good statistics, trivially reproducible. */

void pt_rng_seed(pt_rng *r, uint64_t seed, uint64_t stream) {
    r->state = 0u;
    r->inc = (stream << 1u) | 1u;
    pt_rng_u32(r);
    r->state += seed;
    pt_rng_u32(r);
}

uint32_t pt_rng_u32(pt_rng *r) { return pt__pcg32(&r->state, r->inc); }

uint32_t pt_rng_below(pt_rng *r, uint32_t n) { return n ? pt__pcg32_below(&r->state, r->inc, n) : 0; }

double pt_rng_unit(pt_rng *r) { return pt__rng_unit(r); }

double pt_rng_signed(pt_rng *r) { return pt__rng_signed(r); }
