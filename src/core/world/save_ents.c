/* SPDX-License-Identifier: Zlib */
/* The save's "spawns" part (docs/formats.md, "Save files"): what spawn, remove and the orders
 * changed in a world (world/spawn.c, world/orders.c). Read, it makes the world just created
 * from the map look as the saved one did before the other parts overwrite its state: each
 * spawned entity is spawned again from its saved declaration (by pt_world_spawn, in id order,
 * a flock's members together), removed ids are removed again, a pattern an order gave a
 * guard of the map is started again (by its name in the library), then the orders, the flock
 * noise times of spawned flocks and the events queued for the next step are set. */
#include <patrol/spawn.h>
#include <string.h>

#include "guards/motion.h"
#include "world/save_priv.h"
#include "world/world_create.h"

/* A name of an entity_def: its length, then its bytes (shorter than the field). */
static void io_name(pt__io *io, char *buf, size_t size, const char *what) {
    const char *nul = io->reading ? buf : memchr(buf, 0, size - 1);
    uint32_t n = io->reading ? 0 : nul ? (uint32_t)(nul - buf) : (uint32_t)(size - 1);
    size_t at = io->pos;
    pt__io_u32(io, &n);
    if (io->reading && !io->bad && n >= size) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "%s is %u bytes long (at most %zu)", what, n, size - 1);
    }
    if (io->bad) n = 0;
    if (io->reading) memset(buf, 0, size);
    pt__io_bytes(io, buf, n);
    if (io->reading && memchr(buf, 0, n)) pt__io_fail(io, PT_ERR_BAD_VALUE, "%s holds a NUL byte", what);
}

/* Every field of a declaration; spawning it again checks the values (spawn.c). */
static void io_def(pt__io *io, pt_entity_def *d) {
    io_name(io, d->name, sizeof d->name, "a spawned entity's name");
    IO_ENUM(io, d->kind, PT_KIND_COUNT, "spawned kind");
    pt__io_int(io, &d->x);
    pt__io_int(io, &d->y);
    io_name(io, d->pattern, sizeof d->pattern, "a spawned entity's pattern");
    pt__io_range(io, &d->has_origin, 0, 1, "has origin");
    pt__io_int(io, &d->origin_x);
    pt__io_int(io, &d->origin_y);
    pt__io_f64(io, &d->heading_deg);
    pt__io_f64(io, &d->view_dist);
    pt__io_f64(io, &d->view_angle_deg);
    pt__io_f64(io, &d->speed);
    IO_ENUM(io, d->chase, PT_CHASE_COUNT, "spawned chase");
    pt__io_f64(io, &d->aware_rate);
    pt__io_f64(io, &d->aware_decay);
    pt__io_f64(io, &d->suspicious_at);
    pt__io_f64(io, &d->chase_at);
    pt__io_f64(io, &d->hearing);
    pt__io_f64(io, &d->shout);
    io_name(io, d->radio, sizeof d->radio, "a spawned entity's radio");
    pt__io_f64(io, &d->memory);
    pt__io_int(io, &d->count);
    io_name(io, d->group, sizeof d->group, "a spawned entity's group");
    IO_ENUM(io, d->flock_kind, PT_FLOCK_KIND_COUNT, "spawned flock kind");
    io_name(io, d->steering, sizeof d->steering, "a spawned entity's steering");
    pt__io_int(io, &d->line);
    pt__io_int(io, &d->col);
    pt__io_int(io, &d->pattern_line);
    pt__io_int(io, &d->pattern_col);
    pt__io_int(io, &d->steering_line);
    pt__io_int(io, &d->steering_col);
}

/* The ids create gives: the player, then the map's entities (world_create.c). */
static int made_ids(const pt_world *w) {
    int made = 1;
    for (int i = 0; i < w->map.nents; i++)
        made += w->map.ents[i].kind == PT_KIND_BOID && w->map.ents[i].count > 1 ? w->map.ents[i].count : 1;
    return made;
}

static int is_gone(const pt_world *w, int id) { return w->gone && w->gone[id]; }

/* Removes, again, the ids below `below` the save marks gone (gone[] as read). */
static void remove_below(pt__io *io, pt_world *w, const unsigned char *gone, int below) {
    for (int id = 1; id < below && !io->bad; id++)
        if (gone[id] && !is_gone(w, id) && pt_world_remove(w, id) < 0)
            pt__io_fail(io, PT_ERR_BAD_VALUE, "entity %d cannot be removed", id);
}

/* The ids spawned after create: each spawn's declaration (a flock's first member's, named
 * by its group), then which ids are gone. */
static void io_spawned(pt__io *io, pt_world *w) {
    const int made = made_ids(w);
    int n = w->n;
    size_t at = io->pos;
    pt__io_range(io, &n, made, PT__IO_MAX / 2, "id count");
    if (io->reading && !io->bad && (size_t)n > io->len - io->pos) { /* a gone byte each at least */
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "%d ids in a save this short", n);
    }
    if (io->bad) return;
    unsigned char *gone = PT_CALLOC((size_t)n, 1);
    if (!gone) {
        pt__io_fail(io, PT_ERR_NOMEM, "out of memory");
        return;
    }
    for (int id = 1; id < n; id++) {
        uint8_t g = io->reading ? 0 : (uint8_t)is_gone(w, id);
        pt__io_u8(io, &g);
        if (g > 1) pt__io_fail(io, PT_ERR_BAD_VALUE, "gone flag out of range");
        gone[id] = g;
    }
    for (int id = made; id < n && !io->bad;) {
        pt_entity_def d;
        memset(&d, 0, sizeof d);
        if (!io->reading) {
            d = w->defs[id];
            if (d.kind == PT_KIND_BOID) memcpy(d.name, d.group, sizeof d.name);
        }
        at = io->pos;
        io_def(io, &d);
        int members = d.kind == PT_KIND_BOID && d.count > 1 ? d.count : 1;
        if (io->reading && !io->bad) {
            remove_below(io, w, gone, id); /* their names may be taken again */
            pt_error err;
            memset(&err, 0, sizeof err);
            int count = 0, first = io->bad ? -1 : pt_world_spawn(w, &d, &count, &err);
            if (!io->bad && (first != id || id + count > n)) {
                io->pos = at;
                if (first < 0) pt__io_fail(io, PT_ERR_BAD_VALUE, "entity %d cannot be spawned again: %s", id, err.message);
                else pt__io_fail(io, PT_ERR_BAD_VALUE, "entity %d is spawned as %d of %d ids", id, first, count);
            }
            members = count;
        }
        id += members > 0 ? members : 1;
    }
    if (io->reading) remove_below(io, w, gone, n);
    PT_FREE(gone);
}

/* A pattern an order gave a guard (its declaration's pattern and origin): read, started again
 * on a guard of the map whose declaration differs (spawned ones were spawned with it). */
static void io_ordered_pattern(pt__io *io, pt_world *w, int id) {
    pt_entity_def d = w->defs[id];
    size_t at = io->pos;
    io_name(io, d.pattern, sizeof d.pattern, "an ordered pattern");
    pt__io_range(io, &d.has_origin, 0, 1, "has origin");
    pt__io_int(io, &d.origin_x);
    pt__io_int(io, &d.origin_y);
    if (!io->reading || io->bad || id >= made_ids(w)) return;
    pt_entity_def *cur = &w->defs[id];
    pt_entity *e = &w->ents[id];
    if (!strcmp(cur->pattern, d.pattern) && cur->has_origin == d.has_origin && cur->origin_x == d.origin_x &&
        cur->origin_y == d.origin_y)
        return;
    const pt_pattern *pat = d.pattern[0] && w->lib ? pt_patlib_find(w->lib, d.pattern) : NULL;
    if (!pat || d.origin_x < 0 || d.origin_y < 0 || d.origin_x >= w->map.w ||
        d.origin_y >= w->map.h) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "entity %d's ordered pattern '%s' cannot be started", id, d.pattern);
        return;
    }
    memcpy(cur->pattern, d.pattern, sizeof cur->pattern);
    cur->has_origin = d.has_origin;
    cur->origin_x = d.origin_x;
    cur->origin_y = d.origin_y;
    if (e->kind == PT_KIND_COUNT) { /* removed: only its run's pattern, which the entities part reads */
        e->run.pat = pat;
        return;
    }
    if (pt__entity_pattern_start(w, e, pat) < 0 || (pat->kind == PT_PAT_WAYPOINTS && pt__motion_waypoints(w, e) < 0))
        pt__io_fail(io, PT_ERR_NOMEM, "out of memory starting a pattern");
}

void pt__save_io_ents(pt__io *io, pt_world *w) {
    io_spawned(io, w);
    if (io->bad) return;
    int ng = (int)w->ngroups;
    pt__io_range(io, &ng, (int)w->ngroups, (int)w->ngroups, "flock group count");
    for (int g = w->map.nents + 1; g <= (int)w->ngroups && !io->bad; g++) pt__io_u64(io, &w->flock_noise_tick[g]);
    pt__io_range(io, &w->orders_given, 0, 1, "orders given");
    for (int id = 1; id < w->n && !io->bad; id++)
        if (w->defs[id].kind == PT_KIND_GUARD) io_ordered_pattern(io, w, id);
    for (int id = 1; id < w->n && !io->bad; id++) {
        if (w->ents[id].kind != PT_KIND_GUARD) continue;
        pt__brain *b = &w->brains[id];
        IO_ENUM(io, b->order, PT_ORDER_COUNT, "order");
        pt__io_range(io, &b->order_on, 0, 1, "order under way");
        pt__io_range(io, &b->order_at.x, 0, w->map.w - 1, "order cell");
        pt__io_range(io, &b->order_at.y, 0, w->map.h - 1, "order cell");
    }
    pt__io_range(io, &w->nqueued_events, 0, PT__MAX_EVENTS, "queued event count");
    for (int i = 0; i < w->nqueued_events; i++) pt__save_io_event(io, &w->queued_events[i]);
    if (io->bad) w->nqueued_events = 0;
}
