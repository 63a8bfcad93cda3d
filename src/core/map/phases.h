/* SPDX-License-Identifier: Zlib */
/* phases.h - the alert phases' default timing (pt_phase_timing_resolve in map.c; a map may
 * set its own). docs/ai.md states each; tests/check_defaults.c compares them with the docs. */
#ifndef PATROL_MAP_PHASES_H
#define PATROL_MAP_PHASES_H

/* guards/phases.c runs the phases; caution's effects are applied where a guard perceives
 * (the wider cone: senses/perceive.c; the faster fill: guards/brain.c) */
#define EVASION_S 15.0          /* evasion: the countdown once no guard chases */
#define CAUTION_S 30.0          /* caution: the countdown after evasion */
#define CAUTION_AWARE 1.5       /* caution: awareness fills this many times faster ... */
#define CAUTION_FOV 1.5         /* ... and view cones are this many times wider (up to 360) */

#endif
