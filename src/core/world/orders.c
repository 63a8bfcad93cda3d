/* SPDX-License-Identifier: Zlib */
/* The game's orders to a guard and its tuning (patrol/spawn.h; docs/ai.md, "Orders"): what
 * each call does at once, by the guard's state. What a guard does with an order it holds is
 * the brain's (guards/orders.c). */
#include <patrol/spawn.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guards/brain.h"
#include "guards/motion.h"
#include "guards/state_change.h"
#include "pattern/unknown.h"
#include "world/world_create.h"

const char *pt_order_kind_name(pt_order_kind k) {
    static const char *names[PT_ORDER_COUNT] = {"none", "goto", "investigate", "hold"};
    return (unsigned)k < PT_ORDER_COUNT ? names[k] : "unknown";
}

static pt_entity *guard(pt_world *w, int id) {
    if (!w || id <= 0 || id >= w->n || w->ents[id].kind != PT_KIND_GUARD) return NULL;
    return &w->ents[id];
}

static int cell_ok(const pt_world *w, int x, int y) {
    if (x < 0 || y < 0 || x >= w->map.w || y >= w->map.h) return PT_ERR_OUT_OF_MAP;
    return pt_map_walkable(&w->map, x, y) ? PT_OK : PT_ERR_NOT_WALKABLE;
}

/* A held guard let go, or a guard taken off what it was doing for the game: back to its round
 * (return), or idle without one. */
static void to_round(pt_world *w, pt_entity *e) { pt__set_state(w, e, e->run.pat ? PT_STATE_RETURN : PT_STATE_IDLE); }

static int give(pt_world *w, int id, pt_order_kind k, int x, int y) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    int rc = cell_ok(w, x, y);
    if (rc < 0) return rc;
    pt__brain *b = &w->brains[id];
    w->orders_given = 1;
    const int was_held = b->order == PT_ORDER_HOLD;
    const int was_goto = b->order == PT_ORDER_GOTO && b->order_on;
    b->order = k;
    b->order_at = (pt_cell){x, y};
    b->order_on = 0;
    if (was_held) to_round(w, e);
    if (k == PT_ORDER_INVESTIGATE && e->state != PT_STATE_CHASE) { /* at once, but in a chase */
        pt__brain_investigate(w, e, b->order_at);
        b->order_on = 1;
    } else if (k == PT_ORDER_GOTO && (e->state == PT_STATE_PATROL || e->state == PT_STATE_IDLE ||
                                      e->state == PT_STATE_RETURN)) {
        pt__set_state(w, e, PT_STATE_PATROL);
        if (was_goto) { /* a new place: walk there afresh */
            b->planned = 0;
            e->path_len = e->path_idx = 0;
        }
        b->order_on = 1;
    }
    return PT_OK;
}

int pt_world_order_goto(pt_world *w, int id, int x, int y) { return give(w, id, PT_ORDER_GOTO, x, y); }
int pt_world_order_investigate(pt_world *w, int id, int x, int y) { return give(w, id, PT_ORDER_INVESTIGATE, x, y); }

int pt_world_order_hold(pt_world *w, int id) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    pt__brain *b = &w->brains[id];
    w->orders_given = 1;
    b->order = PT_ORDER_HOLD;
    b->order_at = (pt_cell){e->x, e->y};
    b->order_on = 1;
    pt__set_state(w, e, PT_STATE_IDLE); /* a chase dropped, the search left */
    return PT_OK;
}

int pt_world_order_resume(pt_world *w, int id) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    pt__brain *b = &w->brains[id];
    const int busy_for_game = b->order == PT_ORDER_HOLD || b->order_on;
    b->order = PT_ORDER_NONE;
    b->order_on = 0;
    if (busy_for_game) to_round(w, e);
    return PT_OK;
}

pt_order_kind pt_world_order(const pt_world *w, int id, int *x, int *y) {
    if (x) *x = 0;
    if (y) *y = 0;
    if (!w || id <= 0 || id >= w->n || w->ents[id].kind != PT_KIND_GUARD) return PT_ORDER_NONE;
    const pt__brain *b = &w->brains[id];
    if (b->order && x) *x = b->order_at.x;
    if (b->order && y) *y = b->order_at.y;
    return (pt_order_kind)b->order;
}

int pt_world_order_pattern(pt_world *w, int id, const char *name, pt_error *err) {
    pt_error_clear(err);
    pt_entity *e = guard(w, id);
    if (!e || !name) return pt_error_set(err, PT_ERR_RANGE, 0, 0, "id %d is not a guard", id);
    pt_entity_def *d = &w->defs[id];
    pt_entity_def probe = *d;
    snprintf(probe.pattern, sizeof probe.pattern, "%s", name);
    probe.pattern_line = 0;
    const pt_pattern *pat = w->lib ? pt_patlib_find(w->lib, probe.pattern) : NULL;
    if (!pat) return pt__unknown_pattern(w->lib, &w->map, &probe, err);
    /* Its declaration says the new round, placed where it stands. */
    snprintf(d->pattern, sizeof d->pattern, "%s", name);
    d->has_origin = 1;
    d->origin_x = e->x;
    d->origin_y = e->y;
    const pt_state was = e->state;
    const int relighting = w->light_on && w->brains[id].relight; /* guards/relight.c */
    const int free_now = (was == PT_STATE_PATROL && w->brains[id].order != PT_ORDER_GOTO && !relighting) ||
                         was == PT_STATE_IDLE;
    if (!free_now) { /* busy: the new round is started, and walked once it returns to it */
        const pt_motion motion = e->motion;
        pt_patrun_init(&e->run, pat, pt_pattern_origin(pat, d), (pt_cell){e->x, e->y}, e->heading, w->seed, e->id);
        if (pat->kind == PT_PAT_WAYPOINTS && pt__motion_waypoints(w, e) < 0)
            return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        e->motion = motion;
        if (was == PT_STATE_RETURN) w->brains[id].planned = 0; /* to the nearest cell of the new round */
        return PT_OK;
    }
    if (pat->kind != PT_PAT_THRUST && pat->kind != PT_PAT_WAYPOINTS) pt__go_tile(w, e);
    pt__entity_pattern_start(w, e, pat); /* may set return: off the pattern */
    const int off = e->state == PT_STATE_RETURN;
    e->state = was;
    if (pat->kind == PT_PAT_WAYPOINTS && pt__motion_waypoints(w, e) < 0)
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    pt__set_state(w, e, off ? PT_STATE_RETURN : PT_STATE_PATROL);
    w->brains[id].planned = 0;
    return PT_OK;
}

int pt_world_set_view(pt_world *w, int id, double view, double cone_deg) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    if ((view >= 0 && !(view > 0 && view <= 256)) || (cone_deg >= 0 && !(cone_deg > 0 && cone_deg <= 360)) ||
        isnan(view) || isnan(cone_deg))
        return PT_ERR_RANGE;
    if (view > 0) e->view_dist = w->defs[id].view_dist = view;
    if (cone_deg > 0) {
        w->defs[id].view_angle_deg = cone_deg;
        e->view_angle = pt_rad(cone_deg);
    }
    return PT_OK;
}

int pt_world_set_hearing(pt_world *w, int id, double hearing) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    if (isnan(hearing) || (hearing >= 0 && !(hearing > 0 && hearing <= 256))) return PT_ERR_RANGE;
    if (hearing > 0) e->hearing = w->defs[id].hearing = hearing;
    return PT_OK;
}

int pt_world_set_speed(pt_world *w, int id, double speed) {
    pt_entity *e = guard(w, id);
    if (!e) return PT_ERR_RANGE;
    if (isnan(speed) || (speed >= 0 && !(speed > 0 && speed <= 50))) return PT_ERR_RANGE;
    if (speed > 0) {
        e->speed = w->defs[id].speed = speed;
        e->veh.max_speed = speed;
        w->agents[id].veh.max_speed = speed;
    }
    return PT_OK;
}
