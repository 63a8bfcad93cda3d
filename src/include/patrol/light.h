/* SPDX-License-Identifier: Zlib */
/* patrol/light.h - light and darkness (docs/ai.md, "Light").
 *
 * Every tile has a light level in 0..1: the map's ambient level plus what its light sources
 * that are on give it, plus the lanterns guards carry, capped at 1. A light spreads from its
 * cell along lines of sight (a wall stops it) and falls off with distance. Guards see a player
 * on a dark tile only within a shorter range and grow aware of it more slowly; how visible
 * the player is now, 0..1, is pt_world_visibility, the value the guards use.
 *
 *     int torch = pt_world_light_find(w, "torch2");
 *     pt_world_set_light(w, torch, 0, &err);       // the game puts it out
 *     double v = pt_world_visibility(w);           // the HUD's gem
 */
#ifndef PATROL_LIGHT_H
#define PATROL_LIGHT_H

#include "api.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* pt_event.a of a PT_EVENT_LIGHT that pt_world_set_light made (the game's call). */
#define PT_LIGHT_BY_GAME 0xFFFFFFFFu

/* One light of the world (its declaration, see pt_light_def in map.h, and its state now). */
typedef struct pt_light {
    char name[PT_MAX_NAME];
    int x, y;                  /* its cell */
    double radius;             /* tiles */
    double level;              /* its level at its own cell, 0..1 */
    int on;                    /* 1 lit, 0 out */
} pt_light;

/* How many lights the world has (the map's `light` lines and Tiled light objects, in
 * declaration order); index i of the calls below is 0..count-1. */
int pt_world_light_count(const pt_world *w);
/* The index of the light named `name`, or -1. */
int pt_world_light_find(const pt_world *w, const char *name);
/* Light i now; returns PT_OK, or PT_ERR_BAD_VALUE when i is not a light (out untouched). */
int pt_world_light_get(const pt_world *w, int i, pt_light *out);
/* Switches light i on (on = 1) or off (0): the game's call. Every tile's light follows
 * exactly; a PT_EVENT_LIGHT (a = PT_LIGHT_BY_GAME, b = on, x, y = its cell) is added to the
 * last step's events. Setting the state it has is PT_OK and changes nothing (no event).
 * Errors: PT_ERR_BAD_VALUE (no light i). */
int pt_world_set_light(pt_world *w, int i, int on, pt_error *err);

/* The light level of cell (x, y) now, 0..1: ambient, the lights that are on and the
 * lanterns, capped at 1. 0 outside the map. */
double pt_world_light_at(const pt_world *w, int x, int y);
/* The same without the lanterns (what the lights and the ambient level give). */
double pt_world_light_static(const pt_world *w, int x, int y);

/* How visible the player is now, 0..1: V = L + (1 - L) * k, L the light at its cell
 * (pt_world_light_at), k 0 sneaking, 0.15 walking, 0.3 running (docs/ai.md, "Sight in the
 * dark"). A step takes it once at its start, before anything moves, and every guard's and
 * prey's sight of that step uses that value: between steps this is exactly the value the
 * next step will use. The HUD shows it. */
double pt_world_visibility(const pt_world *w);

/* The player puts out a lit light within reach (docs/ai.md, "Light": its cell or one of the
 * 8 around it; the nearest, then the lowest index): the light goes off with a noise at its
 * cell and a PT_EVENT_LIGHT (a = the player's id). Returns the light's index, or -1 when
 * none is within reach (nothing changes). */
int pt_world_douse(pt_world *w);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
