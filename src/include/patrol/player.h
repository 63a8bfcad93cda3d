/* SPDX-License-Identifier: Zlib */
/* patrol/player.h - the game's own player: the host moves it (docs/ai.md, "The game's own
 * player").
 *
 *     pt_world *w = pt_world_create(&map, &lib, &desc, &err);
 *     pt_player_host(w);                                  // from now on the game moves it
 *     for (;;) {
 *         my_physics(&body, dt);                          // the game's own movement
 *         if (pt_player_move(w, body.x, body.y, body.vx, body.vy, &err) < 0) ...
 *         pt_world_step(w);                               // guards see and hear it there
 *     }
 *     pt_player_teleport(w, 3.5, 7.5, &err);              // a jump: no footstep, no slide
 *
 * Mode: pt_player_host switches a world's player to the game's control for the rest of the
 * world's life. Until then (and in every world that never calls it) the player moves by
 * pt_world_set_input or by its pattern exactly as before. Once hosted, its pattern and
 * pt_world_set_input are ignored: the player is a continuous mover (PT_MOTION_CONTINUOUS)
 * that stands where the game last put it.
 *
 * Timing: pt_player_move and pt_player_teleport record where the player is to be; the next
 * pt_world_step puts it there in its first phase (the player's), so the guards of that step
 * see and hear it there. Several calls between two steps: the last position and velocity
 * win, and the step is a teleport when any of them was one. A step with no call since the
 * last: the player stands where it is, its velocity 0. A position whose tile stopped being
 * walkable between the call and the step (pt_world_set_tile) is dropped: the player stands.
 *
 * What derives from the position (px, py in tiles; tile x,y spans [x,x+1)): its cell is
 * (floor(px), floor(py)); its velocity (veh.vel) is the one given; heading is atan2(vy, vx)
 * when the velocity is not zero, else kept; prev_x, prev_y is the cell it was on before it
 * last entered a new cell by a move, or its cell after a teleport; move_t is 0 (a
 * continuous mover has no step clock). pt_world_drawn_pos draws it at px, py moved on along
 * its velocity by alpha ticks (a teleport has velocity 0: it does not slide). Sight,
 * hearing, memory, the catch (drawn positions, at alpha 0: px, py) and the goal tile work
 * from that position as for any player.
 *
 * Footsteps: one noise each step in which a move (not a teleport) brings the player into
 * another cell than the one it was on, on the new cell, of pt_player_step_loudness for the
 * speed |(vx, vy)| given and the world's gait (pt_world_set_gait); none when that speed is 0.
 * A move across several cells in one step makes one footstep.
 *
 * Errors (the world unchanged): PT_ERR_USAGE when the world is not hosted (pt_player_host
 * first), PT_ERR_RANGE for a coordinate or velocity that is NaN or infinite,
 * PT_ERR_OUT_OF_MAP for a position outside the map, PT_ERR_NOT_WALKABLE for a position on a
 * tile that cannot be walked (a wall: the position is refused, never clamped). err may be
 * NULL.
 */
#ifndef PATROL_PLAYER_H
#define PATROL_PLAYER_H

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* A footstep's loudness cap, in units of the gait's own loudness (a host player faster than
 * twice its gait's speed is no louder than twice the gait). */
#define PT_PLAYER_STEP_MAX_FACTOR 2.0

/* Switches the player of w to the game's control (above), for the rest of the world's life:
 * it stands where it is (its px, py; a tile mover's are its cell's centre), velocity 0, no
 * step to draw. A player in the middle of its catch (state caught) keeps that state; one
 * standing idle (no pattern) becomes patrol, as a controlled player is. Calling it again
 * changes nothing. Returns PT_OK. */
int pt_player_host(pt_world *w);
/* 1 when w's player is under the game's control (pt_player_host), else 0. */
int pt_player_hosted(const pt_world *w);

/* The player at (x, y) in tiles, moving at (vx, vy) tiles per second, from the next step on
 * (above: timing, footsteps, errors). */
int pt_player_move(pt_world *w, double x, double y, double vx, double vy, pt_error *err);
/* The player put at (x, y) in tiles by a jump: standing (velocity 0), no footstep, nothing
 * to slide (prev cell = its cell), its heading kept. Same errors as pt_player_move. */
int pt_player_teleport(pt_world *w, double x, double y, pt_error *err);

/* The loudness of a hosted player's footstep on cell (x, y) of map at gait g and speed v
 * (tiles per second), the player's own `speed` being player_speed:
 *     k = min(v / (player_speed x pt_gait_speed(g)), PT_PLAYER_STEP_MAX_FACTOR)
 *     loudness = max(pt_gait_loudness(g) x tile footstep factor x k, the tile's noise)
 * so a player moving at its gait's speed makes the step an input-walking player makes
 * there (pt_footstep_loudness). 0 when v is not above 0 (standing makes none) or NaN, for a
 * cell outside the map, a gait out of range or a player_speed not above 0. */
double pt_player_step_loudness(const pt_map *map, int x, int y, pt_gait g, double player_speed, double v);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
