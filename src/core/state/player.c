/* SPDX-License-Identifier: Zlib */
/* The player's gait and footsteps, the input the game gives, and the record of a catch. */
#include "state/player.h"

#include "state/events.h"
#include "state/noise.h"

static const struct { double speed, loudness; } gaits[PT_GAIT_COUNT] = {
    [PT_GAIT_WALK] = {GAIT_WALK_SPEED, GAIT_WALK_LOUDNESS},
    [PT_GAIT_SNEAK] = {GAIT_SNEAK_SPEED, GAIT_SNEAK_LOUDNESS},
    [PT_GAIT_RUN] = {GAIT_RUN_SPEED, GAIT_RUN_LOUDNESS},
};

const char *pt_gait_name(pt_gait g) {
    static const char *names[PT_GAIT_COUNT] = {"walk", "sneak", "run"};
    return (unsigned)g < PT_GAIT_COUNT ? names[g] : "unknown";
}

/* The noise of a footstep at gait g on tile t (pt_footstep_loudness); *squeak = 1 when the
 * tile's own noise is the louder. */
static double footstep(const pt_tile_def *t, pt_gait g, int *squeak) {
    double step = gaits[g].loudness * t->footstep;
    *squeak = t->noise > step;
    return *squeak ? t->noise : step;
}

void pt__player_stepped(pt_world *w, const pt_entity *p) {
    if (w->player_hidden) return; /* the solver's stand-in: no guard may hear a ghost */
    int squeak;
    double step = footstep(pt_map_tile(&w->map, p->x, p->y), w->gait, &squeak);
    pt__world_noise(w, p->x, p->y, step, squeak ? PT_NOISE_TILE : PT_NOISE_FOOTSTEP);
}

void pt__player_caught(pt_world *w, pt_entity *g) {
    pt_entity *p = &w->ents[0];
    pt__world_event(w, PT_EVENT_CAUGHT, g->id, p->id, p->x, p->y);
    w->caught_total++;
    p->caught_count++;
    p->state = PT_STATE_CAUGHT;
    if (w->desc.end_round_on_catch) w->round = -1;
}

void pt_world_set_input(pt_world *w, int dx, int dy) {
    w->input_dx = dx < 0 ? -1 : (dx > 0 ? 1 : 0);
    w->input_dy = dy < 0 ? -1 : (dy > 0 ? 1 : 0);
}

void pt__player_gait(pt_world *w, pt_gait gait) {
    if ((unsigned)gait < PT_GAIT_COUNT) w->gait = gait;
}
void pt_world_set_gait(pt_world *w, pt_gait gait) { pt__player_gait(w, gait); }
pt_gait pt_world_gait(const pt_world *w) { return w->gait; }
double pt_gait_speed(pt_gait g) { return (unsigned)g < PT_GAIT_COUNT ? gaits[g].speed : 0.0; }
double pt_gait_loudness(pt_gait g) { return (unsigned)g < PT_GAIT_COUNT ? gaits[g].loudness : 0.0; }

double pt_footstep_loudness(const pt_map *map, int x, int y, pt_gait g) {
    if (!map || !pt_map_in(map, x, y) || (unsigned)g >= PT_GAIT_COUNT) return 0.0;
    int squeak;
    return footstep(pt_map_tile(map, x, y), g, &squeak);
}
