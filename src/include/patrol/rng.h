/* SPDX-License-Identifier: Zlib */
/* patrol/rng.h - a small deterministic random number generator (PCG32).
 *
 * Same seed and stream, same sequence, on every platform and build type. The world keeps
 * one stream for the simulation and a second one for cosmetics, and each entity gets its
 * own stream derived from the world seed and its id, so adding a cosmetic effect or an
 * entity never changes what another entity does.
 *
 *     pt_rng r; pt_rng_seed(&r, seed, entity_id);
 *     int k = pt_rng_below(&r, 8);     // uniform in [0, 8)
 */
#ifndef PATROL_RNG_H
#define PATROL_RNG_H

#include <stdint.h>

#include "api.h"
PT_API_BEGIN

typedef struct pt_rng { uint64_t state, inc; } pt_rng;

/* Seeds a generator; different streams give independent sequences for the same seed. */
void pt_rng_seed(pt_rng *r, uint64_t seed, uint64_t stream);
uint32_t pt_rng_u32(pt_rng *r);
/* Uniform integer in [0, n) without modulo bias; n == 0 returns 0. */
uint32_t pt_rng_below(pt_rng *r, uint32_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double pt_rng_unit(pt_rng *r);
/* Uniform double in [-1, 1). */
double pt_rng_signed(pt_rng *r);

PT_API_END

#endif
