/* SPDX-License-Identifier: Zlib */
/* The player puts out a light within reach (douse.c; patrol/light.h, docs/ai.md "Light"). */
#ifndef PATROL_WORLD_DOUSE_H
#define PATROL_WORLD_DOUSE_H

/* Loudness in tiles of the noise a doused light makes at its cell (kind PT_NOISE_TILE). */
#define PT__DOUSE_NOISE 3.0

#endif
