/* SPDX-License-Identifier: Zlib */
/* Continuous (steered) movement in the world: chases by pursuit or interception, A* paths
 * walked with string pulling, waypoint patrols, thrust patrols kept out of walls, prey and
 * flocks. Every continuous mover ends its tick with pt_steer_collide, so its centre is never
 * on a non-walkable tile, whatever the forces did. */
#include "guards/motion.h"

#include <patrol/los.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "bulk/crowd_run.h"
#include "guards/tuning.h"
#include "guards/walk.h"
#include "nav/steer_shared.h"
#include "senses/perceive.h"
#include "state/move.h"
#include "state/noise.h"

/* The in-place step writes its members back in batches of at least this many slots. */
enum { FLOCK_SYNC_AHEAD = 64 };

static const unsigned AVOID = PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE);

/* An entity's steering= names no set: at its value in the map. */
static int steering_error(const pt_world *w, const pt_entity_def *d, pt_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int steering_error(const pt_world *w, const pt_entity_def *d, pt_error *err, const char *fmt, ...) {
    if (!err) return PT_ERR_BAD_VALUE;
    pt_error_clear(err);
    err->code = PT_ERR_BAD_VALUE;
    err->line = d->steering_line ? d->steering_line : d->line;
    err->col = d->steering_line ? d->steering_col : d->col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    snprintf(err->file, sizeof err->file, "%s", w->map.path);
    return PT_ERR_BAD_VALUE;
}

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* A crowd's members in the world: its hook (flock_synced) writes their entities. */
struct pt__flock_part {
    pt_world *w;
    int first; /* the crowd's first slot in w->boids */
};
static void flock_synced(void *arg, int lo, int hi);

/* The flocks' crowds: members grouped by view radius (in order of first appearance), by id
 * within each; each crowd borrows its run of w->boids. 0 when out of memory. */
static int flocks_init(pt_world *w) {
    int nb = w->nboids, ncl = 0;
    w->boids = PT_CALLOC((size_t)nb, sizeof *w->boids);
    w->boid_id = PT_MALLOC(sizeof *w->boid_id * (size_t)nb);
    w->boid_scared = PT_CALLOC((size_t)nb, 1);
    w->boid_group = PT_MALLOC(sizeof *w->boid_group * (size_t)nb);
    w->boid_slot = PT_MALLOC(sizeof *w->boid_slot * (size_t)w->n);
    w->crowds = PT_CALLOC((size_t)nb, sizeof *w->crowds);
    w->crowd_first = PT_CALLOC((size_t)nb + 1, sizeof *w->crowd_first);
    w->crowd_part = PT_CALLOC((size_t)nb, sizeof *w->crowd_part);
    double *radius = PT_MALLOC(sizeof *radius * (size_t)nb);
    int ok = w->boids && w->boid_id && w->boid_scared && w->boid_group && w->boid_slot && w->crowds && w->crowd_first &&
             w->crowd_part && radius;
    if (ok) {
        /* boid_slot holds each member's crowd first, then its slot */
        for (int i = 0; i < w->n; i++) {
            w->boid_slot[i] = -1;
            if (w->ents[i].kind != PT_KIND_BOID) continue;
            double r = w->params[i].view_radius;
            int k = 0;
            while (k < ncl && !same_double(radius[k], r)) k++;
            if (k == ncl) radius[ncl++] = r;
            w->boid_slot[i] = k;
            w->crowd_first[k + 1]++;
        }
        for (int k = 0; k < ncl; k++) w->crowd_first[k + 1] += w->crowd_first[k];
        int *fill = PT_MALLOC(sizeof *fill * (size_t)ncl);
        ok = fill != NULL;
        for (int k = 0; ok && k < ncl; k++) fill[k] = w->crowd_first[k];
        for (int i = 0; ok && i < w->n; i++) {
            if (w->boid_slot[i] < 0) continue;
            int s = fill[w->boid_slot[i]]++;
            w->boids[s] = w->agents[i];
            w->boid_id[s] = i;
            w->boid_group[s] = w->ents[i].group;
            w->boid_slot[i] = s;
        }
        PT_FREE(fill);
    }
    unsigned beh = PT_BEH_FLOCKING | PT_BEH_BIT(PT_BEH_WANDER) | AVOID;
    for (int k = 0; ok && k < ncl; k++) {
        int first = w->crowd_first[k];
        /* members within BOID_SCATTER_DIST of the player scatter from it */
        pt_crowd_desc d = {.agents = w->boids + first, .n = w->crowd_first[k + 1] - first, .env = &w->env,
                           .behaviours = beh, .view_radius = radius[k], .threads = w->desc.threads,
                           .group = w->boid_group + first, .alarm_behaviours = PT_BEH_BIT(PT_BEH_EVADE),
                           .alarm_radius = BOID_SCATTER_DIST};
        pt_crowd *c = pt_crowd_create(&d);
        ok = c != NULL;
        if (!ok) break;
        w->crowds[w->ncrowds++] = c;
        pt_crowd_set_target(c, PT_CROWD_TARGET_VEHICLE);
        w->crowd_part[k] = (struct pt__flock_part){w, first};
        if (!w->desc.flock_reference) pt__crowd_set_after_step(c, flock_synced, &w->crowd_part[k]);
    }
    PT_FREE(radius);
    return ok;
}

/* Entity i's steering: its params (the map's steering file, or the defaults), shared with an
 * equal recent set (recent[], *nrecent: ids, at most 8), its vehicle and agent, a waypoint
 * patrol's path, and its motion kind. */
static int entity_steering(pt_world *w, int i, int *recent, int *nrecent, pt_error *err) {
    pt_entity *e = &w->ents[i];
    const pt_entity_def *d = e->def;
    if (w->has_steerfile) {
        if (pt_steer_file_params(&w->steerfile, d->name, d->steering[0] ? d->steering : NULL, &w->params[i]) < 0) {
            pt__suggest sg;
            pt__suggest_init(&sg, d->steering, strlen(d->steering));
            pt__suggest_add(&sg, "default");
            for (int k = 0; k < w->steerfile.count; k++)
                if (!w->steerfile.sets[k].is_entity) pt__suggest_add(&sg, w->steerfile.sets[k].name);
            char hint[PT_MAX_NAME + 32];
            pt__suggest_hint(&sg, NULL, hint, sizeof hint);
            return steering_error(w, d, err, "%s '%s' uses steering set '%s', which %s does not define%s",
                                  pt_kind_name(d->kind), d->name, d->steering, w->map.steering_file, hint);
        }
    } else {
        if (d->steering[0])
            return steering_error(w, d, err, "%s '%s' uses steering set '%s' but the map names no steering file",
                                  pt_kind_name(d->kind), d->name, d->steering);
        pt_steer_params_default(&w->params[i]);
    }
    pt_steer_params_resolve(&w->params[i]);
    const pt_steer_params *shared = NULL;
    for (int k = 0; k < *nrecent && !shared; k++)
        if (!memcmp(&w->params[recent[k]], &w->params[i], sizeof w->params[i])) shared = &w->params[recent[k]];
    if (!shared) {
        shared = &w->params[i];
        recent[*nrecent < 8 ? (*nrecent)++ : i % 8] = i;
    }
    pt_vehicle_init(&e->veh, pt_v2(e->px, e->py), e->heading);
    e->veh.max_speed = e->speed;
    pt_steer_params_apply(shared, &e->veh);
    pt_vehicle_resolve(&e->veh);
    e->speed = e->veh.max_speed;
    /* A stream of its own, apart from the entity's (patterns) and the world's. */
    pt_steer_agent_init(&w->agents[i], &e->veh, shared, w->seed, (uint64_t)i + (1ull << 32));
    if (e->run.pat && e->run.pat->kind == PT_PAT_WAYPOINTS) {
        int rc = pt__motion_waypoints(w, e);
        if (rc < 0) return pt_error_set(err, rc, 0, 0, "out of memory");
    }
    if (e->kind == PT_KIND_BOID || e->kind == PT_KIND_PREY) e->motion = PT_MOTION_CONTINUOUS;
    return PT_OK;
}

int pt__motion_waypoints(pt_world *w, pt_entity *e) {
    const int i = (int)e->id;
    int nw = pt_patrun_waypoint_count(&e->run);
    PT_FREE(w->waypoints[i]);
    w->waypoints[i] = PT_MALLOC(sizeof(pt_vec2) * (size_t)(nw > 0 ? nw : 1));
    if (!w->waypoints[i]) return PT_ERR_NOMEM;
    for (int k = 0; k < nw; k++) w->waypoints[i][k] = pt_patrun_waypoint(&e->run, k);
    pt_path *path = &w->agents[i].path;
    path->pts = w->waypoints[i];
    path->n = nw;
    path->closed = e->run.pat->end == PT_END_LOOP && e->run.pat->closed;
    path->radius = e->run.pat->path_radius;
    path->current = 0;
    /* Waypoint walkers start on their first waypoint's cell and move continuously. */
    e->motion = PT_MOTION_CONTINUOUS;
    return PT_OK;
}

int pt__motion_add(pt_world *w, int first, int count, pt_error *err) {
    int recent[8], nrecent = 0;
    for (int i = first; i < first + count; i++) {
        int rc = entity_steering(w, i, recent, &nrecent, err);
        if (rc < 0) return rc;
    }
    return PT_OK;
}

void pt__flocks_down(pt_world *w) {
    for (int k = 0; k < w->ncrowds; k++) pt_crowd_destroy(w->crowds[k]); /* writes w->boids back */
    for (int s = 0; s < w->nboids; s++) w->agents[w->boid_id[s]] = w->boids[s];
    PT_FREE(w->crowds);
    PT_FREE(w->crowd_first);
    PT_FREE(w->crowd_part);
    PT_FREE(w->boids);
    PT_FREE(w->boid_id);
    PT_FREE(w->boid_scared);
    PT_FREE(w->boid_group);
    PT_FREE(w->boid_slot);
    w->crowds = NULL;
    w->crowd_first = NULL;
    w->crowd_part = NULL;
    w->boids = NULL;
    w->boid_id = NULL;
    w->boid_scared = NULL;
    w->boid_group = NULL;
    w->boid_slot = NULL;
    w->ncrowds = 0;
    w->nboids = 0;
}

int pt__flocks_up(pt_world *w) {
    w->nboids = 0;
    for (int i = 0; i < w->n; i++) w->nboids += w->ents[i].kind == PT_KIND_BOID;
    return w->nboids ? flocks_init(w) : 1;
}

int pt__motion_init(pt_world *w, pt_error *err) {
    if (pt_steer_env_build(&w->env, &w->map) < 0)
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory building steering walls");
    w->agents = PT_CALLOC((size_t)w->n, sizeof *w->agents);
    w->params = PT_CALLOC((size_t)w->n, sizeof *w->params);
    w->waypoints = PT_CALLOC((size_t)w->n, sizeof *w->waypoints);
    w->forces = PT_CALLOC((size_t)w->n, sizeof *w->forces);
    if (!w->agents || !w->params || !w->waypoints || !w->forces)
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for steering");
    if (w->map.steering_file[0]) {
        if (pt_steer_file_load_map(&w->steerfile, &w->map, err) < 0) return err ? err->code : PT_ERR_IO;
        w->has_steerfile = 1;
    }
    /* Entities whose resolved params are the same bytes share one copy (the first's): a
     * tick reads every agent's params, and 60,000 copies of one set do not stay in cache.
     * The recent distinct sets are enough (entities of one declaration are consecutive). */
    int recent[8], nrecent = 0;
    for (int i = 0; i < w->n; i++) {
        int rc = entity_steering(w, i, recent, &nrecent, err);
        if (rc < 0) return rc;
        if (w->ents[i].kind == PT_KIND_BOID) w->nboids++;
    }
    if (w->nboids && !flocks_init(w)) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for the flocks");
    w->movers = PT_MALLOC(sizeof *w->movers * (size_t)(w->n - w->nboids > 0 ? w->n - w->nboids : 1));
    if (!w->movers) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    for (int i = 1; i < w->n; i++)
        if (w->ents[i].kind != PT_KIND_BOID) w->movers[w->nmovers++] = i;
    return PT_OK;
}

void pt__motion_fini(pt_world *w) {
    if (w->waypoints)
        for (int i = 0; i < w->n; i++) PT_FREE(w->waypoints[i]);
    PT_FREE(w->waypoints);
    PT_FREE(w->agents);
    PT_FREE(w->params);
    PT_FREE(w->forces);
    for (int k = 0; k < w->ncrowds; k++) pt_crowd_destroy(w->crowds[k]);
    PT_FREE(w->crowds);
    PT_FREE(w->crowd_first);
    PT_FREE(w->crowd_part);
    PT_FREE(w->boids);
    PT_FREE(w->boid_id);
    PT_FREE(w->boid_scared);
    PT_FREE(w->boid_group);
    PT_FREE(w->boid_slot);
    PT_FREE(w->movers);
    if (w->has_steerfile) pt_steer_file_fini(&w->steerfile);
    pt_steer_env_fini(&w->env);
}

/* (int)floor(x): the same int, without the rounding sequence floor takes without SSE4.1
 * (every flock member's tile, every tick); out of range and NaN as before. */
static inline int floor_int(double x) {
    if (x > -2147483648.0 && x < 2147483647.0) {
        int i = (int)x; /* toward zero: one above the floor for a negative non-integer */
        return i - (x < i);
    }
    return (int)floor(x);
}

/* The entity's tile and continuous fields from its vehicle; inline for the flocks' loop. */
static inline void sync_from_vehicle(pt_entity *e) {
    e->px = e->veh.pos.x;
    e->py = e->veh.pos.y;
    e->prev_x = e->x;
    e->prev_y = e->y;
    e->x = floor_int(e->px);
    e->y = floor_int(e->py);
    if (pt_v2_len2(e->veh.heading) > 0.0) e->heading = atan2(e->veh.heading.y, e->veh.heading.x);
    e->move_t = 1.0;
}

/* One steering tick: forces from the given behaviours, integration, hard collision. */
static void steer_step(pt_world *w, pt_entity *e, unsigned behaviours, pt_steer_ctx *ctx, double max_speed) {
    pt_steer_agent *a = &w->agents[e->id];
    a->veh = e->veh;
    a->veh.max_speed = max_speed;
    a->behaviours = behaviours;
    ctx->env = &w->env;
    ctx->dt = w->dt;
    pt_vec2 f = pt_steer_calculate(a, ctx);
    w->forces[e->id] = f; /* kept for debug drawing, as is the feelers' reach */
    w->brains[e->id].wall_reach = ctx->wall_reach;
    pt_steer_agent_update(a, ctx, f, w->dt);
    pt_steer_collide(&w->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
    e->veh = a->veh;
    e->veh.max_speed = e->speed;
    sync_from_vehicle(e);
}

void pt__go_continuous(pt_world *w, pt_entity *e) {
    if (e->motion == PT_MOTION_CONTINUOUS) return;
    e->motion = PT_MOTION_CONTINUOUS;
    /* Start from where the sprite is drawn (between the two cells, or on its glide to the
     * cell's centre), moving as it moved. */
    double t = e->move_t < 1.0 ? e->move_t : 1.0;
    pt_vec2 to = pt_v2(e->x + 0.5, e->y + 0.5);
    pt_vec2 pos = pt__tile_drawn(w, e, t);
    if (!pt_map_walkable(&w->map, (int)floor(pos.x), (int)floor(pos.y))) pos = to;
    pt_vec2 dir = pt_v2_norm(pt_v2_sub(to, pos));
    e->veh.pos = pos;
    e->veh.vel = t < 1.0 && pt_v2_len(pt_v2_sub(to, pos)) > 1e-9 ? pt_v2_scale(dir, e->speed) : pt_v2(0.0, 0.0);
    w->brains[e->id].glide = 0;
    e->veh.heading = pt_v2_from_angle(e->heading);
    e->veh.side = pt_v2_perp(e->veh.heading);
    e->px = pos.x;
    e->py = pos.y;
}

void pt__go_tile(pt_world *w, pt_entity *e) {
    if (e->motion == PT_MOTION_TILE) return;
    e->motion = PT_MOTION_TILE;
    int x = (int)floor(e->px), y = (int)floor(e->py);
    /* The sprite glides from where it is to the cell's centre at its speed (its step clock
     * runs the last `d` of a step, d the distance to the centre), then steps on by tiles. */
    double d = fmin(hypot(x + 0.5 - e->px, y + 0.5 - e->py), 1.0);
    pt__brain *b = &w->brains[e->id];
    b->glide = d > 1e-9;
    b->glide_x = e->px;
    b->glide_y = e->py;
    b->glide_t0 = 1.0 - d;
    e->prev_x = x;
    e->prev_y = y;
    e->x = x;
    e->y = y;
    e->px = x + 0.5;
    e->py = y + 0.5;
    e->move_t = 1.0 - d;
    e->veh.vel = pt_v2(0.0, 0.0);
}

/* The player as a vehicle for pursuit and interception: its velocity is its last step's
 * direction at its speed while that step is being walked, else zero. */
static pt_vehicle player_vehicle(const pt_world *w) {
    const pt_entity *p = &w->ents[0];
    pt_vehicle v;
    pt_vehicle_init(&v, pt_v2(p->px, p->py), p->heading);
    v.max_speed = p->speed;
    pt_vehicle_resolve(&v);
    if (p->motion == PT_MOTION_CONTINUOUS) v.vel = p->veh.vel;
    else if ((p->x != p->prev_x || p->y != p->prev_y) && p->move_t < 1.0)
        v.vel = pt_v2_scale(pt_v2_norm(pt_v2(p->x - p->prev_x, p->y - p->prev_y)), p->speed);
    return v;
}

/* Walks e->path (from an A* plan to `goal`) continuously: seek the farthest cell ahead that
 * is in straight walkable line (string pulling), arrive at the last. 1 when arrived. */
static int walk_path(pt_world *w, pt_entity *e, pt_cell goal, double speed_scale) {
    pt__brain *b = &w->brains[e->id];
    if (!b->planned || b->target_cell.x != goal.x || b->target_cell.y != goal.y || e->path_len < 1) {
        if (!pt__plan_to(w, e, goal)) {
            pt__brake_continuous(w, e, e->heading);
            return 0;
        }
    }
    /* Skip cells already reached; the path starts at the cell the plan was made from. */
    while (e->path_idx < e->path_len - 1) {
        pt_cell c = e->path[e->path_idx];
        if (hypot(c.x + 0.5 - e->px, c.y + 0.5 - e->py) < 0.6) e->path_idx++;
        else break;
    }
    int k = e->path_idx < e->path_len ? e->path_idx : e->path_len - 1;
    for (int j = e->path_len - 1; j > k && j > e->path_idx; j--) {
        if (j - e->path_idx > LOOKAHEAD_CELLS) continue;
        if (pt_line_walkable(&w->map, e->x, e->y, e->path[j].x, e->path[j].y)) {
            k = j;
            break;
        }
    }
    pt_cell c = e->path[k];
    pt_steer_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.target = pt_v2(c.x + 0.5, c.y + 0.5);
    int last = k == e->path_len - 1;
    /* No wall avoidance here: the path is already clear of walls, and feelers pushing back
     * from a door frame against the seek make a local minimum where a guard would stall.
     * Hard collision handles grazing a corner. */
    steer_step(w, e, (last ? PT_BEH_BIT(PT_BEH_ARRIVE) : PT_BEH_BIT(PT_BEH_SEEK)) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE),
               &ctx, e->speed * speed_scale);
    return last && hypot(ctx.target.x - e->px, ctx.target.y - e->py) < 0.1 && pt_v2_len(e->veh.vel) < 0.5;
}

/* The stuck wait in ticks of every continuous walker: STUCK_S, or as long as a vehicle
 * slow to turn, to speed up or to walk needs to turn full circle, reach its top speed and
 * walk 2 * STUCK_DIST, if that is longer (before it, a slow walker that is merely turning
 * or starting off would count as stuck). */
static int stuck_ticks(const pt_world *w, const pt_vehicle *v) {
    double s = PT_TAU / v->max_turn_rate + v->mass * v->max_speed / v->max_force + 2.0 * STUCK_DIST / v->max_speed;
    return (int)lround(fmax(STUCK_S, s) / w->dt);
}

/* Whether a continuous walker has stayed within STUCK_DIST of one place for its stuck wait:
 * a local minimum of the forces (a door frame, a pillar square in the way). */
static int stalled(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    if (hypot(e->px - b->progress_x, e->py - b->progress_y) > STUCK_DIST) {
        b->progress_x = e->px;
        b->progress_y = e->py;
        b->progress_ticks = 0;
        return 0;
    }
    return ++b->progress_ticks >= stuck_ticks(w, &e->veh);
}

int pt__chase_continuous(pt_world *w, pt_entity *e, int intercept, double speed_scale) {
    pt__go_continuous(w, e);
    if (stalled(w, e)) return -1;
    const pt_entity *p = &w->ents[0];
    pt_cell pc = {(int)floor(e->sees_player ? p->px : e->last_seen_x), (int)floor(e->sees_player ? p->py : e->last_seen_y)};
    if (e->sees_player && pt_line_walkable(&w->map, e->x, e->y, pc.x, pc.y)) {
        pt_vehicle pv = player_vehicle(w);
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.agent1 = &pv;
        ctx.target = pv.pos;
        unsigned beh = pt_v2_dist(e->veh.pos, pv.pos) < 1.5 ? PT_BEH_BIT(PT_BEH_ARRIVE)
                                                            : PT_BEH_BIT(intercept ? PT_BEH_INTERCEPT : PT_BEH_PURSUIT);
        w->brains[e->id].planned = 0;
        /* No wall feelers: the straight line to the player is walkable, so a wall they touch
         * is one the guard passes beside, and next to a door their push back from the frame
         * cancels the pursuit: the guard turned on the spot there for ever. Hard collision
         * handles grazing the frame. */
        steer_step(w, e, beh | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE), &ctx, e->speed * speed_scale);
        return 0;
    }
    walk_path(w, e, pc, speed_scale);
    return 0;
}

int pt__goto_continuous(pt_world *w, pt_entity *e, pt_cell goal, double speed_scale) {
    pt__go_continuous(w, e);
    if (stalled(w, e)) return -1; /* stuck: the caller walks on by tiles */
    return walk_path(w, e, goal, speed_scale);
}

void pt__brake_continuous(pt_world *w, pt_entity *e, double heading_goal) {
    pt__go_continuous(w, e);
    /* Slow down (drag) and turn toward heading_goal at the vehicle's turn rate. */
    e->veh.vel = pt_v2_scale(e->veh.vel, 0.85);
    if (pt_v2_len(e->veh.vel) < 0.01) e->veh.vel = pt_v2(0.0, 0.0);
    e->veh.pos = pt_v2_add(e->veh.pos, pt_v2_scale(e->veh.vel, w->dt));
    pt_steer_collide(&w->env, &e->veh.pos, &e->veh.vel, e->veh.radius);
    double h = atan2(e->veh.heading.y, e->veh.heading.x);
    double d = pt_wrap_angle(heading_goal - h), step = e->veh.max_turn_rate * w->dt;
    if (d > step) d = step;
    if (d < -step) d = -step;
    e->veh.heading = pt_v2_from_angle(h + d);
    e->veh.side = pt_v2_perp(e->veh.heading);
    sync_from_vehicle(e);
}

/* Whether a waypoint patrol has come no STUCK_DIST closer to its waypoint for its stuck
 * wait: a local minimum of the forces (a leg through a wall, an obstacle in the way) or a
 * circling round it. Within waypoint_distance of it, where an open route ends, it is never
 * stuck. */
static int waypoint_stalled(pt_world *w, pt_entity *e) {
    pt__brain *b = &w->brains[e->id];
    const pt_steer_agent *a = &w->agents[e->id];
    const pt_vec2 wp = a->path.pts[a->path.current];
    const double d = hypot(wp.x - e->px, wp.y - e->py);
    if (b->wp_for != a->path.current + 1 || d < a->params->waypoint_distance || d < b->wp_best - STUCK_DIST) {
        b->wp_for = a->path.current + 1;
        b->wp_best = d;
        b->wp_ticks = 0;
        return 0;
    }
    return ++b->wp_ticks >= stuck_ticks(w, &e->veh);
}

/* How far a waypoint patrol's wall feelers reach (pt_steer_ctx.wall_reach). Not past the
 * point it seeks: feelers that do, feel the wall that point lies beside, and their push
 * balances the seek short of it. And no further than its speed carries it (the front
 * feeler's length at top speed): a guard that stands facing a wall while it turns toward
 * its next waypoint is pushed back off that wall by full-length feelers, and stays held
 * there, turning to and fro. Never 0, which would mean full length. */
static double waypoint_reach(const pt_world *w, const pt_entity *e) {
    const pt_steer_agent *a = &w->agents[e->id];
    const pt_steer_params *p = a->params ? a->params : pt_steer_params_builtin();
    pt_vec2 seek = pt__path_seek_point(&a->path, e->veh.pos, p);
    double reach = hypot(seek.x - e->veh.pos.x, seek.y - e->veh.pos.y);
    if (e->veh.max_speed > 0) reach = fmin(reach, p->feeler_length * pt_v2_len(e->veh.vel) / e->veh.max_speed);
    return fmax(reach, 1e-6);
}

void pt__patrol_continuous(pt_world *w, pt_entity *e) {
    if (!e->run.pat) return;
    if (e->run.pat->kind == PT_PAT_THRUST) {
        pt_patrun_thrust_tick(&e->run, w->dt);
        /* The runner's vehicle meets walls like everyone else. */
        pt_steer_collide(&w->env, &e->run.thrust.pos, &e->run.thrust.vel, e->veh.radius);
        e->motion = PT_MOTION_CONTINUOUS;
        e->veh.pos = e->run.thrust.pos;
        e->veh.vel = e->run.thrust.vel;
        e->veh.heading = pt_v2_from_angle(e->run.thrust.angle);
        e->veh.side = pt_v2_perp(e->veh.heading);
        sync_from_vehicle(e);
        return;
    }
    if (e->run.pat->kind == PT_PAT_WAYPOINTS) {
        pt__brain *b = &w->brains[e->id];
        pt_path *path = &w->agents[e->id].path;
        if (b->wp_by_tile) {
            pt_vec2 wp = path->pts[path->current];
            pt_cell goal = {floor_int(wp.x), floor_int(wp.y)};
            int on = e->x == goal.x && e->y == goal.y;
            /* On the waypoint's cell it steers on in this same tick: it does not stand first. */
            int r = on && (path->closed || path->current < path->n - 1) ? 1 : pt__walk_tiles(w, e, goal);
            if (r == 0) return;
            if (r > 0 && !path->closed && path->current == path->n - 1) return; /* the route's end */
            /* On the waypoint's cell, or no way there: reached all the same, on by steering. */
            pt__path_next(path);
            b->wp_by_tile = 0;
            b->wp_for = 0;
        }
        pt__go_continuous(w, e);
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.wall_reach = waypoint_reach(w, e);
        steer_step(w, e, PT_BEH_BIT(PT_BEH_FOLLOW_PATH) | AVOID, &ctx, e->speed);
        if (waypoint_stalled(w, e)) {
            pt__go_tile(w, e);
            b->wp_by_tile = 1;
            b->planned = 0;
        }
        return;
    }
}

pt_vehicle pt__player_vehicle(const pt_world *w) { return player_vehicle(w); }

int pt__prey_update(pt_world *w, pt_entity *e, const pt_vehicle *player) {
    pt__go_continuous(w, e);
    const pt_entity *p = &w->ents[0];
    int startled = 0;
    int notice = pt__prey_sees(w, e, p->px, p->py, w->vis);
    e->sees_player = notice;
    if (notice) {
        e->last_seen_x = p->px;
        e->last_seen_y = p->py;
        if (e->state != PT_STATE_FLEE) {
            e->state = PT_STATE_FLEE;
            e->state_ticks = 0;
            startled = 1;
        }
    } else if (e->state == PT_STATE_FLEE && e->state_ticks > (int)lround(PREY_CALM_S / w->dt)) {
        e->state = PT_STATE_IDLE;
        e->state_ticks = 0;
    }
    pt_steer_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.agent1 = player;
    ctx.target = player->pos;
    if (e->state == PT_STATE_FLEE) {
        if (notice) e->state_ticks = 0;
        steer_step(w, e, PT_BEH_BIT(PT_BEH_EVADE) | PT_BEH_BIT(PT_BEH_FLEE) | AVOID, &ctx, e->speed);
    } else {
        steer_step(w, e, PT_BEH_BIT(PT_BEH_WANDER) | AVOID, &ctx, e->speed * 0.35);
    }
    return startled;
}

/* The entities of flock members [lo, hi) (slots of w->boids) from their agents. */
static void flock_sync_range(void *arg, int lo, int hi) {
    pt_world *w = arg;
    for (int s = lo; s < hi; s++) {
        /* The entities are too many to stay in cache and their lines are far apart: ask
         * for those of the member written one batch (FLOCK_SYNC_AHEAD slots) later, which
         * the step reaches after moving a batch. */
        if (s + FLOCK_SYNC_AHEAD < w->nboids) {
            const char *f = (const char *)&w->ents[w->boid_id[s + FLOCK_SYNC_AHEAD]];
            __builtin_prefetch(f + offsetof(pt_entity, state), 1);
            __builtin_prefetch(f + offsetof(pt_entity, state_ticks), 1);
            __builtin_prefetch(f + offsetof(pt_entity, veh), 1);
            __builtin_prefetch(f + offsetof(pt_entity, veh) + 64, 1);
            __builtin_prefetch(f + offsetof(pt_entity, veh) + sizeof(pt_vehicle) - 1, 1);
        }
        pt_entity *e = &w->ents[w->boid_id[s]];
        const pt_steer_agent *a = &w->boids[s];
        e->state_ticks++;
        e->veh = a->veh;
        pt_state was = e->state;
        e->state = a->behaviours & PT_BEH_BIT(PT_BEH_EVADE) ? PT_STATE_FLEE : PT_STATE_FLOCK;
        w->boid_scared[s] = was != PT_STATE_FLEE && e->state == PT_STATE_FLEE;
        sync_from_vehicle(e);
    }
}

/* The entities of a crowd's members [lo, hi) (of the crowd), right after they stepped. */
static void flock_synced(void *arg, int lo, int hi) {
    const struct pt__flock_part *part = arg;
    flock_sync_range(part->w, part->first + lo, part->first + hi);
}

/* A scattering flock is heard, once per gap for the whole flock, at the first member (in
 * slot order, whatever the threads' split) that started to flee this tick. */
static void flock_noises(pt_world *w) {
    const uint64_t gap = (uint64_t)fmax(1.0, (double)lround(FLOCK_NOISE_GAP_S * w->tick_hz));
    const unsigned char *scared = w->boid_scared;
    for (int s = 0; s < w->nboids; s++) {
        if (!scared[s]) continue;
        const pt_entity *e = &w->ents[w->boid_id[s]];
        uint64_t *last = &w->flock_noise_tick[e->group];
        if (*last == 0 || w->tick - *last >= gap) {
            *last = w->tick;
            pt__world_noise(w, e->x, e->y, FLOCK_NOISE, PT_NOISE_ANIMAL);
        }
    }
}

/* Every flock member from the same state of the flocks (pt_crowd: forces first, then
 * integration and collision), then the entities from their agents (each entity from its
 * own agent: the same whatever the split or the order). The in-place step writes them
 * itself, a few members behind the one it moves (flock_synced), while they are in cache; a
 * crowd stepped otherwise (the reference, the packed mode) has them written right after,
 * on its threads. */
void pt__flock_tick(pt_world *w) {
    if (!w->nboids) return;
    pt_vehicle pv = player_vehicle(w);
    int brute = w->desc.flock_reference;
    for (int k = 0; k < w->ncrowds; k++) {
        pt_crowd *c = w->crowds[k];
        pt_crowd_set_target_vehicle(c, &pv);
        if (brute || pt_crowd_packed(c)) pt__crowd_step_then(c, w->dt, brute);
        else pt_crowd_step(c, w->dt);
        pt_crowd_sync(c);
        if (brute || pt_crowd_packed(c))
            pt__crowd_run(c, w->crowd_first[k + 1] - w->crowd_first[k], flock_synced, &w->crowd_part[k]);
    }
    flock_noises(w);
}
