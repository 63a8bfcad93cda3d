/* SPDX-License-Identifier: Zlib */
/* The one hearing check of a guard, shared by the guards' listening (listen.c, pt__listen)
 * and the solver's hearing table (levels/solve_hear.c), so both decide alike. Inline: it
 * runs for every (noise, listener) pair. */
#ifndef PATROL_SENSES_HEAR_CHECK_H
#define PATROL_SENSES_HEAR_CHECK_H

#include <patrol/hearing.h>
#include <math.h>
#include <stdlib.h>

/* How far (Chebyshev) a noise of `loudness` can reach: no farther cell gets any level. */
static inline int pt__hearing_reach(double loudness) {
    return (int)ceil(loudness);
}

/* 1 when a listener at (lx, ly) of hearing threshold `threshold` (resolved, > 0) hears the
 * last flood of h, made from (nx, ny) with reach `reach`; its level there goes to *level.
 * Listeners beyond the reach are skipped without reading the flood. */
static inline int pt__hearing_heard(const pt_hearing *h, int nx, int ny, int reach, int lx, int ly,
                                    double threshold, double *level) {
    if (abs(lx - nx) > reach || abs(ly - ny) > reach) return 0;
    *level = pt_hearing_level(h, lx, ly);
    return *level > threshold;
}

#endif
