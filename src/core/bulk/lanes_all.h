/* SPDX-License-Identifier: Zlib */
/* lanes.h instantiated for two lanes (SSE2, LN(x) = x##_2) and, with CROWD_AVX, four
 * (AVX, x##_4). Included once by each mode that steps agents in lanes. */
#ifndef PATROL_BULK_LANES_ALL_H
#define PATROL_BULK_LANES_ALL_H

#define LANES 2
#define V v2
#define M m2
#define P(x) v2_##x
#define LN(x) x##_2
#include "bulk/lanes.h"
#undef LANES
#undef V
#undef M
#undef P
#undef LN

/* Four lanes with AVX, where the processor has it (crowd_init asks): half as many chains of
 * square roots and divisions per agent. */
#ifdef CROWD_AVX
#pragma GCC push_options
#pragma GCC target("avx")
#define LANES 4
#define V v4
#define M m4
#define P(x) v4_##x
#define LN(x) x##_4
#include "bulk/lanes.h"
#undef LANES
#undef V
#undef M
#undef P
#undef LN
#pragma GCC pop_options
#endif

#endif
