/* SPDX-License-Identifier: Zlib */
/* The game's own player (patrol/player.h): the switch to host control, the positions the
 * game gives (recorded here; the player's tick puts the player there), the footstep of a
 * hosted player. */
#include <patrol/player.h>

#include <math.h>

#include "state/noise.h"
#include "state/player.h"

int pt_player_host(pt_world *w) {
    if (w->host) return PT_OK;
    pt_entity *p = &w->ents[0];
    w->host = 1;
    w->host_set = w->host_jump = 0;
    p->motion = PT_MOTION_CONTINUOUS;
    p->prev_x = p->x;
    p->prev_y = p->y;
    p->move_t = 0.0;
    p->veh.pos = pt_v2(p->px, p->py);
    p->veh.vel = pt_v2(0.0, 0.0);
    if (p->state == PT_STATE_IDLE) p->state = PT_STATE_PATROL;
    return PT_OK;
}

int pt_player_hosted(const pt_world *w) { return w && w->host; }

/* Checks a position the game gives and records it for the next step. */
static int host_set(pt_world *w, double x, double y, double vx, double vy, int jump, pt_error *err) {
    if (!w->host) return pt_error_set(err, PT_ERR_USAGE, 0, 0, "the player is not under the game's control (pt_player_host first)");
    if (!isfinite(x) || !isfinite(y) || !isfinite(vx) || !isfinite(vy))
        return pt_error_set(err, PT_ERR_RANGE, 0, 0, "the player's position and velocity must be finite numbers");
    double fx = floor(x), fy = floor(y);
    if (fx < 0.0 || fy < 0.0 || fx >= w->map.w || fy >= w->map.h)
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, 0, 0, "%.3f,%.3f is outside the map (%dx%d)", x, y, w->map.w, w->map.h);
    if (!pt_map_walkable(&w->map, (int)fx, (int)fy))
        return pt_error_set(err, PT_ERR_NOT_WALKABLE, 0, 0, "%.3f,%.3f is on tile %d,%d, which cannot be walked on", x, y,
                            (int)fx, (int)fy);
    w->host_set = 1;
    w->host_jump |= jump;
    w->host_x = x;
    w->host_y = y;
    w->host_vx = vx;
    w->host_vy = vy;
    pt_error_clear(err);
    return PT_OK;
}

int pt_player_move(pt_world *w, double x, double y, double vx, double vy, pt_error *err) {
    return host_set(w, x, y, vx, vy, 0, err);
}

int pt_player_teleport(pt_world *w, double x, double y, pt_error *err) { return host_set(w, x, y, 0.0, 0.0, 1, err); }

/* k of the formula (patrol/player.h): the speed over the gait's, capped; 0 when silent. */
static double step_factor(pt_gait g, double player_speed, double v) {
    double ref = player_speed * pt_gait_speed(g);
    if (!(v > 0.0) || !(ref > 0.0)) return 0.0;
    double k = v / ref;
    return k < PT_PLAYER_STEP_MAX_FACTOR ? k : PT_PLAYER_STEP_MAX_FACTOR;
}

/* The step's loudness; *squeak = 1 when the tile's own noise is the louder. */
static double host_step(const pt_tile_def *t, pt_gait g, double k, int *squeak) {
    double step = pt_gait_loudness(g) * t->footstep;
    step *= k;
    *squeak = t->noise > step;
    return *squeak ? t->noise : step;
}

double pt_player_step_loudness(const pt_map *map, int x, int y, pt_gait g, double player_speed, double v) {
    if (!map || !pt_map_in(map, x, y) || (unsigned)g >= PT_GAIT_COUNT) return 0.0;
    double k = step_factor(g, player_speed, v);
    if (k <= 0.0) return 0.0;
    int squeak;
    return host_step(pt_map_tile(map, x, y), g, k, &squeak);
}

void pt__player_host_stepped(pt_world *w, const pt_entity *p, double v) {
    if (w->player_hidden) return;
    double k = step_factor(w->gait, p->speed, v);
    if (k <= 0.0) return;
    int squeak;
    double step = host_step(pt_map_tile(&w->map, p->x, p->y), w->gait, k, &squeak);
    pt__world_noise(w, p->x, p->y, step, squeak ? PT_NOISE_TILE : PT_NOISE_FOOTSTEP);
}
