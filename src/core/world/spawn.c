/* SPDX-License-Identifier: Zlib */
/* Entities a game spawns and removes between steps (patrol/spawn.h; docs/ai.md, "Spawn and
 * remove"). A spawn appends ids after the highest ever given: every per-entity array grows
 * (doubling, so a run of spawns costs amortised O(1) array work each), the new entities are
 * made as pt_world_create makes the map's (world_create.c, motion.c), then join the movers,
 * the prey or (a flock) the crowds, rebuilt around it. A remove marks the id gone and takes
 * it out of every list a step reads, the world's search and the step's callers. */
#include <patrol/spawn.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "guards/motion.h"
#include "guards/search.h"
#include "map/keys.h"
#include "pattern/unknown.h"
#include "state/events.h"
#include "state/world_state.h"
#include "world/world_create.h"

/* Grows *p (elem bytes each) from `had` to `cap` entries, the new ones zeroed. */
static int grow(void **p, size_t elem, int had, int cap) {
    void *q = PT_REALLOC(*p, elem * (size_t)(cap > 0 ? cap : 1));
    if (!q) return 0;
    memset((char *)q + elem * (size_t)had, 0, elem * (size_t)(cap - had));
    *p = q;
    return 1;
}

/* Room for `need` ids in every per-entity array. The params move: the agents' pointers into
 * them follow, and the crowds (which read them) are built again. */
static int reserve(pt_world *w, int need) {
    if (!w->cap) {
        w->cap = w->n;
        w->ngroups = (uint32_t)w->map.nents;
    }
    if (need <= w->cap) return PT_OK;
    int cap = w->cap * 2 > need ? w->cap * 2 : need;
    const int had = w->cap;
    pt__flocks_down(w);
    pt_steer_params *old_params = w->params;
    ptrdiff_t *param_of = PT_MALLOC(sizeof *param_of * (size_t)(w->n > 0 ? w->n : 1));
    if (!param_of) return PT_ERR_NOMEM;
    for (int i = 0; i < w->n; i++) param_of[i] = w->agents[i].params ? w->agents[i].params - old_params : -1;
    pt_entity_def *old_defs = w->defs;
    ptrdiff_t *def_of = PT_MALLOC(sizeof *def_of * (size_t)(w->n > 0 ? w->n : 1));
    if (!def_of) {
        PT_FREE(param_of);
        return PT_ERR_NOMEM;
    }
    for (int i = 0; i < w->n; i++) def_of[i] = w->ents[i].def - old_defs;
    /* The lists sized by the movers and the prey: every id may be one. */
    int ok = grow((void **)&w->ents, sizeof *w->ents, had, cap) && grow((void **)&w->defs, sizeof *w->defs, had, cap) &&
             grow((void **)&w->brains, sizeof *w->brains, had, cap) &&
             grow((void **)&w->listeners, sizeof *w->listeners, had, cap) &&
             grow((void **)&w->callers, sizeof *w->callers, had, cap) &&
             grow((void **)&w->planners, sizeof *w->planners, had, cap) &&
             grow((void **)&w->agents, sizeof *w->agents, had, cap) &&
             grow((void **)&w->params, sizeof *w->params, had, cap) &&
             grow((void **)&w->waypoints, sizeof *w->waypoints, had, cap) &&
             grow((void **)&w->forces, sizeof *w->forces, had, cap) &&
             grow((void **)&w->movers, sizeof *w->movers, had, cap) && grow((void **)&w->prey, sizeof *w->prey, had, cap) &&
             grow((void **)&w->prey_startled, 1, had, cap) && (!w->gone || grow((void **)&w->gone, 1, had, cap));
    /* what moved, pointed at again (whatever grew: a failed grow left its array as it was) */
    for (int i = 0; i < w->n; i++) {
        w->ents[i].def = &w->defs[def_of[i]];
        w->agents[i].params = param_of[i] >= 0 ? &w->params[param_of[i]] : NULL;
        if (w->waypoints[i]) w->agents[i].path.pts = w->waypoints[i];
    }
    PT_FREE(param_of);
    PT_FREE(def_of);
    if (ok) w->cap = cap;
    if (!pt__flocks_up(w) || !ok) return PT_ERR_NOMEM;
    return PT_OK;
}

static int live(const pt_world *w, int id) { return id > 0 && id < w->n && w->ents[id].kind != PT_KIND_COUNT; }

/* A name no live entity has, nor a live flock as its group. */
static int name_used(const pt_world *w, const char *name) {
    if (strcmp(name, "player") == 0) return 1;
    for (int i = 1; i < w->n; i++) {
        if (!live(w, i)) continue;
        if (strcmp(w->ents[i].name, name) == 0) return 1;
        if (w->ents[i].kind == PT_KIND_BOID && strcmp(w->defs[i].group, name) == 0) return 1;
    }
    return 0;
}

/* The declaration's values against the ranges of the map's keys (docs/formats.md); zero is
 * the default. */
static int check_def(const pt_world *w, const pt_entity_def *d, const char *file, pt_error *err) {
    const int line = d->line > 0 ? d->line : 0, col = d->col > 0 ? d->col : 0;
    if (d->kind != PT_KIND_GUARD && d->kind != PT_KIND_PREY && d->kind != PT_KIND_BOID)
        return pt_error_set(err, PT_ERR_BAD_VALUE, line, col, "only a guard, a prey or a flock can be spawned");
    if (!d->name[0] || !memchr(d->name, 0, sizeof d->name))
        return pt_error_set(err, PT_ERR_MISSING, line, col, "a spawned %s needs a name", pt_kind_name(d->kind));
    if (name_used(w, d->name))
        return pt_error_set(err, PT_ERR_DUPLICATE, line, col, "the name '%s' is %s", d->name,
                            strcmp(d->name, "player") == 0 ? "reserved" : "already used in the world");
    for (int k = 0; k < pt__entity_nkeys; k++) {
        const pt__entity_key *ek = &pt__entity_keys[k];
        if (!(ek->kinds & (1u << d->kind))) continue;
        if (ek->type == PT__KT_NUM || ek->type == PT__KT_POS) {
            double v = *(const double *)(const void *)((const char *)d + ek->off);
            double lo = ek->type == PT__KT_POS ? 0.0 : ek->lo;
            if (!(v >= lo && v <= ek->hi))
                return pt_error_set(err, PT_ERR_RANGE, line, col, "%s %g is outside [%g, %g]", ek->name, v, lo, ek->hi);
        } else if (ek->type == PT__KT_INT) {
            int v = *(const int *)(const void *)((const char *)d + ek->off);
            if (v != 0 && (v < (int)ek->lo || v > (int)ek->hi))
                return pt_error_set(err, PT_ERR_RANGE, line, col, "%s %d is outside [%d, %d]", ek->name, v, (int)ek->lo,
                                    (int)ek->hi);
        }
    }
    if ((unsigned)d->chase >= PT_CHASE_COUNT || (unsigned)d->flock_kind >= PT_FLOCK_KIND_COUNT)
        return pt_error_set(err, PT_ERR_BAD_VALUE, line, col, "chase or kind out of range");
    if (!memchr(d->pattern, 0, sizeof d->pattern) || !memchr(d->radio, 0, sizeof d->radio) ||
        !memchr(d->steering, 0, sizeof d->steering) || !memchr(d->group, 0, sizeof d->group))
        return pt_error_set(err, PT_ERR_BAD_VALUE, line, col, "a name is not terminated");
    pt_entity_def r = *d;
    pt_entity_def_resolve(&r);
    if (r.suspicious_at >= r.chase_at)
        return pt_error_set(err, PT_ERR_RANGE, line, col, "suspicious_at (%g) must be below chase_at (%g)",
                            r.suspicious_at, r.chase_at);
    const pt_map *m = &w->map;
    if (d->x < 0 || d->y < 0 || d->x >= m->w || d->y >= m->h)
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, line, col, "%s '%s' at %d,%d is outside the %dx%d map",
                            pt_kind_name(d->kind), d->name, d->x, d->y, m->w, m->h);
    if (!pt_map_walkable(m, d->x, d->y)) {
        const pt_tile_def *t = pt_map_tile(m, d->x, d->y);
        return pt_error_set(err, PT_ERR_NOT_WALKABLE, line, col, "%s '%s' at %d,%d stands on %s ('%c'), which is not walkable",
                            pt_kind_name(d->kind), d->name, d->x, d->y, t->name, t->ch);
    }
    if (d->has_origin && (d->origin_x < 0 || d->origin_y < 0 || d->origin_x >= m->w || d->origin_y >= m->h))
        return pt_error_set(err, PT_ERR_OUT_OF_MAP, line, col, "origin of %s '%s' at %d,%d is outside the %dx%d map",
                            pt_kind_name(d->kind), d->name, d->origin_x, d->origin_y, m->w, m->h);
    if (d->pattern[0] && (!w->lib || !pt_patlib_find(w->lib, d->pattern))) {
        int rc = pt__unknown_pattern(w->lib, m, d, err);
        if (err) snprintf(err->file, sizeof err->file, "%s", file);
        return rc ? rc : PT_ERR_UNKNOWN_PATTERN;
    }
    (void)file;
    return PT_OK;
}

static int spawn(pt_world *w, const pt_entity_def *def, const char *file, int *count, pt_error *err) {
    if (count) *count = 0;
    int rc = check_def(w, def, file, err);
    if (rc < 0) {
        if (err && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", file);
        return rc;
    }
    const int members = def->kind == PT_KIND_BOID && def->count > 1 ? def->count : 1;
    if (w->n > INT_MAX / 2 - members) return pt_error_set(err, PT_ERR_LIMIT, def->line, def->col, "too many ids");
    pt_cell *cells = PT_MALLOC(sizeof *cells * (size_t)members);
    uint8_t *seen = members > 1 ? PT_CALLOC((size_t)w->map.w * (size_t)w->map.h, 1) : NULL;
    if (!cells || (members > 1 && !seen) || (rc = reserve(w, w->n + members)) < 0 ||
        !grow((void **)&w->flock_noise_tick, sizeof *w->flock_noise_tick, (int)w->ngroups + 1, (int)w->ngroups + 2)) {
        PT_FREE(cells);
        PT_FREE(seen);
        return pt_error_set(err, PT_ERR_NOMEM, def->line, def->col, "out of memory spawning '%s'", def->name);
    }
    if (members > 1) pt__flock_cells(&w->map, def->x, def->y, members, cells, seen);
    else cells[0] = (pt_cell){def->x, def->y};
    PT_FREE(seen);
    const int first = w->n;
    const uint32_t group = w->ngroups + 1;
    for (int k = 0; k < members; k++) {
        const int id = first + k;
        w->defs[id] = *def;
        if (def->kind == PT_KIND_BOID) snprintf(w->defs[id].group, sizeof w->defs[id].group, "%s", def->name);
        if (members > 1) snprintf(w->defs[id].name, sizeof w->defs[id].name, "%.38s.%d", def->name, (k + 1) % 100000);
        pt_entity_def_resolve(&w->defs[id]);
        pt_entity *e = &w->ents[id];
        memset(&w->brains[id], 0, sizeof w->brains[id]);
        pt__entity_init(w, e, (uint32_t)id, &w->defs[id], cells[k]);
        if (def->kind == PT_KIND_BOID) e->group = group;
        rc = pt__entity_resolve_pattern(w, e, err); /* found above: only a guard's run to start */
        if (e->state != PT_STATE_RETURN) e->state = e->run.pat ? PT_STATE_PATROL : PT_STATE_IDLE;
        if (def->kind == PT_KIND_BOID) e->state = PT_STATE_FLOCK;
        if (rc < 0) break;
    }
    PT_FREE(cells);
    if (rc >= 0) rc = pt__motion_add(w, first, members, err);
    if (rc < 0) { /* nothing joined: the ids stay free */
        for (int k = 0; k < members; k++) {
            PT_FREE(w->waypoints[first + k]);
            w->waypoints[first + k] = NULL;
            PT_FREE(w->ents[first + k].path);
            memset(&w->ents[first + k], 0, sizeof w->ents[first + k]);
        }
        if (err) snprintf(err->file, sizeof err->file, "%s", file);
        return rc;
    }
    w->n += members;
    if (def->kind == PT_KIND_BOID) {
        w->ngroups = group;
        pt__flocks_down(w);
        if (!pt__flocks_up(w)) return pt_error_set(err, PT_ERR_NOMEM, def->line, def->col, "out of memory for the flocks");
    } else {
        if (w->boid_slot) { /* sized by the ids when the crowds were built */
            int *bs = PT_REALLOC(w->boid_slot, sizeof *bs * (size_t)w->n);
            if (!bs) return pt_error_set(err, PT_ERR_NOMEM, def->line, def->col, "out of memory");
            w->boid_slot = bs;
            bs[first] = -1;
        }
        w->movers[w->nmovers++] = first; /* the highest id: the list stays ascending */
        if (def->kind == PT_KIND_PREY) w->prey[w->nprey++] = first;
    }
    for (int k = 0; k < members; k++) pt__world_event_queue(w, PT_EVENT_SPAWNED, (uint32_t)(first + k), 0, w->ents[first + k].x, w->ents[first + k].y);
    if (count) *count = members;
    return first;
}

int pt_world_spawn(pt_world *w, const pt_entity_def *def, int *count, pt_error *err) {
    pt_error_clear(err);
    if (count) *count = 0;
    if (!w || !def) return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "no world or no declaration");
    return spawn(w, def, "spawn", count, err);
}

int pt_world_spawn_line(pt_world *w, const char *text, const char *name, int *count, pt_error *err) {
    pt_error_clear(err);
    if (count) *count = 0;
    if (!name) name = "spawn";
    if (!w || !text) return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "no world or no text");
    size_t len = strcspn(text, "\n");
    size_t lead = strspn(text, " \t"), word = strcspn(text + lead, " \t\n");
    if (!((word == 5 && !strncmp(text + lead, "guard", 5)) || (word == 4 && !strncmp(text + lead, "prey", 4)) ||
          (word == 5 && !strncmp(text + lead, "flock", 5)))) {
        pt_error_set(err, PT_ERR_SYNTAX, 1, (int)lead + 1, "expected guard, prey or flock: NAME key=value...");
        if (err) snprintf(err->file, sizeof err->file, "%s", name);
        pt_error_locate(err, name, text, len);
        return PT_ERR_SYNTAX;
    }
    if (text[len] == '\n' && text[len + 1 + strspn(text + len + 1, " \t\r\n")] != 0)
        return pt_error_set(err, PT_ERR_SYNTAX, 2, 1, "one entity line only");
    /* The map loader reads it as the first line of a map with a grid the world's size, all
     * floor, and a player: what it says about the line is what it says in a map. */
    const pt_map *m = &w->map;
    size_t row = (size_t)m->w + 1, cap = len + 64 + row * (size_t)m->h + 16;
    char *buf = PT_MALLOC(cap);
    if (!buf) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    memcpy(buf, text, len);
    size_t at = len;
    at += (size_t)snprintf(buf + at, cap - at, "\nplayer at=0,0\ngrid\n");
    for (int y = 0; y < m->h; y++) {
        memset(buf + at, '.', (size_t)m->w);
        buf[at + (size_t)m->w] = '\n';
        at += row;
    }
    at += (size_t)snprintf(buf + at, cap - at, "end\n");
    pt_map tmp;
    int rc = pt_map_parse(&tmp, buf, at, name, err);
    PT_FREE(buf);
    if (rc < 0) return rc;
    if (tmp.nents != 1) {
        pt_map_fini(&tmp);
        return pt_error_set(err, PT_ERR_SYNTAX, 1, 1, "expected an entity line: guard|prey|flock NAME key=value...");
    }
    pt_entity_def def = tmp.ents[0];
    pt_map_fini(&tmp);
    rc = spawn(w, &def, name, count, err);
    if (rc < 0 && err) pt_error_locate(err, name, text, len);
    return rc;
}

int pt_world_remove(pt_world *w, int id) {
    if (!w || !live(w, id)) return PT_ERR_RANGE;
    if (!w->gone) {
        int cap = w->cap > w->n ? w->cap : w->n;
        w->gone = PT_CALLOC((size_t)cap, 1);
        if (!w->gone) return PT_ERR_NOMEM;
    }
    pt_entity *e = &w->ents[id];
    pt__brain *b = &w->brains[id];
    const pt_kind kind = e->kind;
    if (kind == PT_KIND_GUARD) pt__search_forget(w, e);
    int k = 0;
    for (int j = 0; j < w->ncallers; j++)
        if (w->callers[j] != id) w->callers[k++] = w->callers[j];
    w->ncallers = k;
    k = 0;
    for (int j = 0; j < w->nlisteners; j++)
        if (w->listeners[j].id != id) w->listeners[k++] = w->listeners[j];
    w->nlisteners = k;
    if (b->heard) {
        b->heard = 0;
        if (w->heard_pending > 0) w->heard_pending--;
    }
    k = 0;
    for (int j = 0; j < w->nmovers; j++)
        if (w->movers[j] != id) w->movers[k++] = w->movers[j];
    w->nmovers = k;
    k = 0;
    for (int j = 0; j < w->nprey; j++)
        if (w->prey[j] != id) w->prey[k++] = w->prey[j];
    w->nprey = k;
    if (kind == PT_KIND_BOID) pt__flocks_down(w);
    e->kind = PT_KIND_COUNT; /* every loop over guards, prey or members passes it by */
    e->sees_player = 0;
    e->state = PT_STATE_IDLE;
    PT_FREE(e->path);
    e->path = NULL;
    e->path_len = e->path_idx = e->path_cap = 0;
    PT_FREE(w->waypoints[id]);
    w->waypoints[id] = NULL;
    w->agents[id].path.pts = NULL;
    w->agents[id].path.n = 0;
    memset(b, 0, sizeof *b);
    w->gone[id] = 1;
    pt__world_event_queue(w, PT_EVENT_REMOVED, (uint32_t)id, 0, e->x, e->y);
    if (kind == PT_KIND_BOID && !pt__flocks_up(w)) return PT_ERR_NOMEM;
    return PT_OK;
}
