/* SPDX-License-Identifier: Zlib */
/* Searching together (docs/ai.md, "Searching"): one search of the world at a time, around
 * the last known position. The area is the cells within SEARCH_RADIUS tiles of walking from
 * there (a flood of path.c); its unsearched cells are split among the searching guards by a
 * multi-source flood from where they stand (each cell to the nearest guard; guards on one
 * cell split theirs, fan_out), redone every SEARCH_SPLIT_S, when one joins or leaves, and
 * when a share is done. Each guard walks to the nearest unsearched cell of its share, then of
 * anyone's, and every cell it notices (the sight rule of perceive) is searched.
 *
 * Alone: each guard keeps its own searched cells and covers the whole area as if by itself
 * (the comparison of `patrol bench search`); the area's searched cells are then the union.
 * Members are kept in the order they joined (guard id order within a step), so a split and
 * every choice are deterministic. */
#include "guards/search.h"

#include <patrol/search.h>
#include <math.h>
#include <string.h>

#include "base/io.h"
#include "guards/phases.h"
#include "guards/state_change.h"
#include "guards/tuning.h"
#include "senses/perceive.h"

typedef struct member {
    int id;
    int goal;            /* area cell index it walks to, or -1 */
    int left;            /* alone: cells it has not seen */
    int walked;          /* it has had a cell to walk to */
    unsigned char *seen; /* alone: per area cell */
} member;

struct pt__search {
    int active, alone, ended_covered;
    uint64_t start_tick, end_tick;
    pt_cell origin;
    int ncells, cap;
    pt_cell *cells;
    unsigned char *searched;
    int *owner;          /* per area cell: guard id of its share, -1 for anyone's */
    int nsearched;
    int win_x, win_y, win_w, win_h; /* the window around the origin that holds the area */
    int *index;          /* per window cell: area cell index, or -1 */
    member *m;
    int nm, mcap;
    int split_due;
    pt_path_reach *reach;
    pt_cell *goals;
};

void pt__search_destroy(pt__search *s) {
    if (!s) return;
    for (int i = 0; i < s->mcap; i++) PT_FREE(s->m[i].seen);
    PT_FREE(s->m);
    PT_FREE(s->cells);
    PT_FREE(s->searched);
    PT_FREE(s->owner);
    PT_FREE(s->index);
    PT_FREE(s->reach);
    PT_FREE(s->goals);
    PT_FREE(s);
}

static int radius_cost(void) { return (int)lround(SEARCH_RADIUS * 10.0); }

static int area_index(const pt__search *s, int x, int y) {
    int wx = x - s->win_x, wy = y - s->win_y;
    if (wx < 0 || wy < 0 || wx >= s->win_w || wy >= s->win_h) return -1;
    return s->index[wy * s->win_w + wx];
}

/* The area's buffers for cap cells (and each member's seen marks), grown when smaller. */
static int start_at_buffers(pt__search *s, int cap) {
    if (cap <= s->cap) return PT_OK;
    pt_cell *c = PT_REALLOC(s->cells, (size_t)cap * sizeof *c);
    if (c) s->cells = c;
    unsigned char *sr = PT_REALLOC(s->searched, (size_t)cap);
    if (sr) s->searched = sr;
    int *o = PT_REALLOC(s->owner, (size_t)cap * sizeof *o);
    if (o) s->owner = o;
    int *ix = PT_REALLOC(s->index, (size_t)cap * sizeof *ix);
    if (ix) s->index = ix;
    pt_path_reach *re = PT_REALLOC(s->reach, (size_t)cap * sizeof *re);
    if (re) s->reach = re;
    pt_cell *g = PT_REALLOC(s->goals, (size_t)cap * sizeof *g);
    if (g) s->goals = g;
    if (!c || !sr || !o || !ix || !re || !g) return PT_ERR_NOMEM;
    for (int i = 0; i < s->mcap; i++) {
        unsigned char *seen = PT_REALLOC(s->m[i].seen, (size_t)cap);
        if (!seen) return PT_ERR_NOMEM;
        s->m[i].seen = seen;
    }
    s->cap = cap;
    return PT_OK;
}

/* Room for nm members, each with seen marks for the area's cap cells. */
static int reserve_members(pt__search *s, int nm) {
    if (nm <= s->mcap) return PT_OK;
    member *m = PT_REALLOC(s->m, (size_t)nm * sizeof *m);
    if (!m) return PT_ERR_NOMEM;
    s->m = m;
    for (int i = s->mcap; i < nm; i++) {
        m[i].seen = PT_CALLOC(s->cap ? (size_t)s->cap : 1, 1);
        if (!m[i].seen) return PT_ERR_NOMEM;
        s->mcap = i + 1;
    }
    return PT_OK;
}

/* The area around `at`: the members stay, their searched cells start afresh. */
static int start_at(pt_world *w, pt__search *s, pt_cell at) {
    /* Walking costs 10 a tile at least, so the area lies within SEARCH_RADIUS tiles
     * (Chebyshev) of the origin. */
    int r = (int)SEARCH_RADIUS, side = 2 * r + 1, cap = side * side;
    if (start_at_buffers(s, cap) < 0) return PT_ERR_NOMEM;
    int n = pt_path_flood(w->pf, &at, 1, radius_cost(), NULL, 0, s->reach, cap);
    if (n < 0) return n;
    if (n > cap) n = cap; /* cannot happen (see above); kept safe */
    s->origin = at;
    s->win_x = at.x - r;
    s->win_y = at.y - r;
    s->win_w = s->win_h = side;
    for (int i = 0; i < cap; i++) s->index[i] = -1;
    for (int i = 0; i < n; i++) {
        s->cells[i] = (pt_cell){s->reach[i].x, s->reach[i].y};
        s->index[(s->reach[i].y - s->win_y) * side + (s->reach[i].x - s->win_x)] = i;
    }
    s->ncells = n;
    memset(s->searched, 0, (size_t)cap);
    s->nsearched = 0;
    for (int i = 0; i < s->nm; i++) {
        memset(s->m[i].seen, 0, (size_t)cap);
        s->m[i].left = n;
        s->m[i].goal = -1;
        s->m[i].walked = 0;
    }
    s->active = 1;
    s->ended_covered = 0;
    s->start_tick = w->tick;
    s->end_tick = 0;
    s->split_due = 1;
    return PT_OK;
}

static pt__search *get(pt_world *w) {
    if (!w->search) w->search = PT_CALLOC(1, sizeof *w->search);
    return w->search;
}

static int find_member(const pt__search *s, int id) {
    for (int i = 0; i < s->nm; i++)
        if (s->m[i].id == id) return i;
    return -1;
}

int pt__search_begin(pt_world *w, pt_cell at, int alone) {
    pt__search *s = get(w);
    if (!s) return PT_ERR_NOMEM;
    s->nm = 0;
    s->alone = alone;
    return start_at(w, s, at);
}

static int add_member(pt__search *s, const pt_entity *e) {
    if (find_member(s, (int)e->id) >= 0) return PT_OK;
    if (s->nm == s->mcap) {
        int ncap = s->mcap ? 2 * s->mcap : 4;
        member *nm = PT_REALLOC(s->m, (size_t)ncap * sizeof *nm);
        if (!nm) return PT_ERR_NOMEM;
        for (int i = s->mcap; i < ncap; i++) nm[i].seen = NULL;
        s->m = nm;
        for (int i = s->mcap; i < ncap; i++) {
            nm[i].seen = PT_MALLOC(s->cap ? (size_t)s->cap : 1);
            if (!nm[i].seen) return PT_ERR_NOMEM; /* the rest stay NULL: destroy frees them */
            s->mcap = i + 1;
        }
    }
    member *m = &s->m[s->nm++];
    m->id = (int)e->id;
    m->goal = -1;
    m->walked = 0;
    m->left = s->ncells;
    memset(m->seen, 0, (size_t)s->cap);
    s->split_due = 1;
    return PT_OK;
}

int pt__search_join(pt_world *w, const pt_entity *e, pt_cell at) {
    pt__search *s = get(w);
    if (!s) return PT_ERR_NOMEM;
    if (!s->active) {
        s->nm = 0;
        s->alone = 0;
    }
    if (!s->active || area_index(s, at.x, at.y) < 0) {
        int rc = start_at(w, s, at);
        if (rc < 0) return rc;
        /* The guards on their way to look at a place in the area (told of the player there by
         * a call, or after a noise) search it too. */
        for (int i = 1; i < w->n; i++) {
            pt_entity *g = &w->ents[i];
            if (g == e || g->kind != PT_KIND_GUARD || g->state != PT_STATE_INVESTIGATE) continue;
            pt_cell to = w->brains[i].investigate_at;
            if (area_index(s, to.x, to.y) < 0) continue;
            pt__search_send(w, g, to);
            if ((rc = add_member(s, g)) < 0) return rc;
        }
    }
    return add_member(s, e);
}

void pt__search_leave(pt_world *w, const pt_entity *e) {
    pt__search *s = w->search;
    if (!s) return;
    int k = find_member(s, (int)e->id);
    if (k < 0) return;
    member gone = s->m[k];
    for (int i = k; i + 1 < s->nm; i++) s->m[i] = s->m[i + 1];
    s->m[--s->nm] = gone; /* keeps its buffer for the next member */
    s->split_due = 1;
    if (s->nm == 0 && s->active) {
        s->active = 0;
        s->end_tick = w->tick;
    }
}

void pt__search_forget(pt_world *w, const pt_entity *e) {
    pt__search_leave(w, e);
    pt__search *s = w->search;
    if (!s || !s->owner) return;
    for (int c = 0; c < s->ncells; c++)
        if (s->owner[c] == (int)e->id) s->owner[c] = -1;
}

int pt__search_knows(const pt_world *w, int id) {
    const pt__search *s = w->search;
    if (!s) return 0;
    for (int k = 0; k < s->nm; k++)
        if (s->m[k].id == id) return 1;
    for (int c = 0; s->owner && c < s->ncells; c++)
        if (s->owner[c] == id) return 1;
    return 0;
}

void pt__search_end(pt_world *w) {
    pt__search *s = w->search;
    if (!s) return;
    if (s->active) s->end_tick = w->tick;
    s->active = 0;
    s->nm = 0;
}

/* Members standing on one cell: the flood gives every cell nearest to them to the first of
 * them (all ties), and the others would follow it. Their cells are split among them from
 * points spread over those cells: the cell they stand on, then in turn the cell farthest (by
 * walking) from the points so far; each cell goes to its nearest point, and the points'
 * cells to the members in the order they joined. `from` holds where the members stand. */
static void fan_out(pt_world *w, pt__search *s, const pt_cell *from, int nfrom, int first) {
    int who[64], k = 0;
    for (int j = 0; j < nfrom; j++) {
        if (from[j].x != from[first].x || from[j].y != from[first].y) continue;
        if (j < first) return; /* split with the first on its cell */
        who[k++] = j;
    }
    if (k < 2) return;
    int id = s->m[first].id, ng = 0;
    for (int c = 0; c < s->ncells; c++)
        if (s->owner[c] == id) s->goals[ng++] = s->cells[c];
    pt_cell at[64];
    int nat = 1;
    at[0] = from[first];
    while (nat < k) {
        int n = pt_path_flood(w->pf, at, nat, 0, s->goals, ng, s->reach, s->cap);
        if (n < 1 || n > s->cap || s->reach[n - 1].cost == 0) break; /* no cell left apart from them */
        at[nat++] = (pt_cell){s->reach[n - 1].x, s->reach[n - 1].y};
    }
    if (nat < 2) return;
    int n = pt_path_flood(w->pf, at, nat, 0, s->goals, ng, s->reach, s->cap);
    if (n > s->cap) n = s->cap;
    for (int i = 0; i < n; i++) {
        int c = area_index(s, s->reach[i].x, s->reach[i].y);
        if (c >= 0) s->owner[c] = s->m[who[s->reach[i].source]].id;
    }
}

/* Each unsearched cell to the nearest member (by walking), from where they stand now; members
 * on one cell share theirs (fan_out). */
static void split(pt_world *w, pt__search *s) {
    s->split_due = 0;
    int ng = 0;
    for (int i = 0; i < s->ncells; i++) {
        s->owner[i] = -1;
        if (!s->searched[i]) s->goals[ng++] = s->cells[i];
    }
    if (s->alone || s->nm < 2 || ng == 0) return;
    pt_cell from[64];
    int nfrom = s->nm < 64 ? s->nm : 64;
    for (int i = 0; i < nfrom; i++) from[i] = (pt_cell){w->ents[s->m[i].id].x, w->ents[s->m[i].id].y};
    int n = pt_path_flood(w->pf, from, nfrom, 0, s->goals, ng, s->reach, s->cap);
    if (n > s->cap) n = s->cap;
    for (int i = 0; i < n; i++) {
        int k = area_index(s, s->reach[i].x, s->reach[i].y);
        if (k >= 0) s->owner[k] = s->m[s->reach[i].source].id;
    }
    for (int i = 0; i < nfrom; i++) fan_out(w, s, from, nfrom, i);
}

static int cell_done(const pt__search *s, const member *m, int k) { return s->alone ? m->seen[k] : s->searched[k]; }

/* The cells guard e notices from where it stands are searched. */
static void look(pt_world *w, pt__search *s, member *m, const pt_entity *e) {
    double reach = e->view_dist + 1.5;
    for (int k = 0; k < s->ncells; k++) {
        if (cell_done(s, m, k)) continue;
        pt_cell c = s->cells[k];
        double cx = c.x + 0.5, cy = c.y + 0.5;
        if (fabs(cx - e->px) > reach || fabs(cy - e->py) > reach) continue;
        if (!pt__guard_notices(w, e, cx, cy, NULL)) continue;
        if (s->alone) {
            m->seen[k] = 1;
            m->left--;
        }
        if (!s->searched[k]) {
            s->searched[k] = 1;
            s->nsearched++;
        }
    }
}

static int covered(const pt__search *s) {
    if (!s->alone) return s->nsearched >= s->ncells;
    for (int i = 0; i < s->nm; i++)
        if (s->m[i].left > 0) return 0;
    return 1;
}

/* The nearest (by walking) cell of its share not yet searched; when its share is done, the
 * cells left are split again from where the members stand, else it takes anyone's. */
static int pick(pt_world *w, pt__search *s, member *m, const pt_entity *e) {
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) {
            if (s->alone || s->nm < 2) continue;
            split(w, s);
        }
        int ng = 0;
        for (int k = 0; k < s->ncells; k++)
            if (!cell_done(s, m, k) && (pass == 2 || s->alone || s->owner[k] == m->id)) s->goals[ng++] = s->cells[k];
        if (ng == 0) continue;
        int which = -1;
        int n = pt_path_find_nearest(w->pf, (pt_cell){e->x, e->y}, s->goals, ng, w->scratch, w->scratch_cap, &which);
        if (n >= 1 && which >= 0) return area_index(s, s->goals[which].x, s->goals[which].y);
        if (s->alone) break;
    }
    return -1;
}

int pt__search_step(pt_world *w, const pt_entity *e, pt_cell *goal) {
    pt__search *s = w->search;
    if (!s || !s->active) return 0;
    int k = find_member(s, (int)e->id);
    if (k < 0) return 0;
    member *m = &s->m[k];
    /* The evasion countdown ran out: the search is over, covered or not. */
    if (w->phase == PT_PHASE_CAUTION || w->phase == PT_PHASE_NORMAL) {
        s->active = 0;
        s->end_tick = w->tick;
        return 0;
    }
    look(w, s, m, e);
    if (covered(s)) {
        s->active = 0;
        s->ended_covered = 1;
        s->end_tick = w->tick;
        return 0;
    }
    /* Shares drawn from where the members stood go stale as they spread: drawn again every
     * SEARCH_SPLIT_S, before each member's choice on that tick (so each sees the members
     * that already moved where they now are). */
    long period = lround(SEARCH_SPLIT_S * w->tick_hz);
    if (s->split_due || (w->tick - s->start_tick) % (uint64_t)(period > 0 ? period : 1) == 0) split(w, s);
    /* Alone, its own sweep is done though the others' are not: it goes back. */
    if (s->alone && m->left == 0) return 0;
    if (m->goal < 0 || cell_done(s, m, m->goal)) m->goal = pick(w, s, m, e);
    /* Nothing left it can reach: after walking part of the area it goes back; never having
     * had a cell to walk to, the area is out of its reach (-1). */
    if (m->goal < 0) return m->walked ? 0 : -1;
    m->walked = 1;
    *goal = s->cells[m->goal];
    return 1;
}

void pt__search_send(pt_world *w, pt_entity *e, pt_cell at) {
    if (e->state == PT_STATE_CHASE) return;
    if (e->state == PT_STATE_SEARCH) pt__search_leave(w, e);
    else pt__set_state(w, e, PT_STATE_SEARCH);
    pt__brain *b = &w->brains[e->id];
    b->planned = 0;
    b->search_phase = 2;
    b->search_ticks = 0;
    e->path_len = e->path_idx = 0;
    e->last_seen_x = at.x + 0.5;
    e->last_seen_y = at.y + 0.5;
}

int pt_world_search(const pt_world *w, pt_search_info *out) {
    const pt__search *s = w->search;
    memset(out, 0, sizeof *out);
    if (!s || s->ncells == 0) return 0;
    out->active = s->active;
    out->alone = s->alone;
    out->covered = s->ended_covered;
    out->origin = s->origin;
    out->ncells = s->ncells;
    out->cells = s->cells;
    out->searched = s->searched;
    out->owner = s->owner;
    out->nsearched = s->nsearched;
    out->nguards = s->nm;
    uint64_t end = s->active ? w->tick : s->end_tick;
    out->seconds = (double)(end - s->start_tick) * w->dt;
    return s->active;
}

int pt_world_search_start(pt_world *w, int x, int y, const int *guards, int n, int alone) {
    if (!pt_map_walkable(&w->map, x, y)) return PT_ERR_NOT_WALKABLE;
    for (int i = 0; i < n; i++)
        if (guards[i] <= 0 || guards[i] >= w->n || w->ents[guards[i]].kind != PT_KIND_GUARD) return PT_ERR_RANGE;
    for (int i = 0; i < n; i++) pt__search_send(w, &w->ents[guards[i]], (pt_cell){x, y});
    int rc = pt__search_begin(w, (pt_cell){x, y}, alone != 0);
    if (rc < 0) return rc;
    for (int i = 0; i < n; i++) {
        const pt_entity *e = &w->ents[guards[i]];
        if (e->state != PT_STATE_SEARCH) continue; /* a chaser keeps chasing */
        rc = pt__search_join(w, e, (pt_cell){x, y});
        if (rc < 0) return rc;
    }
    if (w->phase == PT_PHASE_NORMAL || w->phase == PT_PHASE_CAUTION) pt__phase_evasion(w);
    return PT_OK;
}

/* The search's state, each field once for writing and reading: the area's cells in flood
 * order (its window index follows from them), their searched marks and owners, and the
 * members in the order they joined, each with its own seen marks. */
void pt__search_io(pt__io *io, pt_world *w) {
    pt__search *s = w->search;
    int has = s != NULL;
    pt__io_range(io, &has, 0, 1, "search present");
    if (!has || io->bad) return;
    if (io->reading) {
        s = get(w);
        if (!s) {
            pt__io_fail(io, PT_ERR_NOMEM, "out of memory for the search");
            return;
        }
    }
    int r = (int)SEARCH_RADIUS, side = 2 * r + 1, cap = side * side;
    pt__io_range(io, &s->active, 0, 1, "search active");
    pt__io_range(io, &s->alone, 0, 1, "search alone");
    pt__io_range(io, &s->ended_covered, 0, 1, "search covered");
    pt__io_u64(io, &s->start_tick);
    pt__io_u64(io, &s->end_tick);
    pt__io_int(io, &s->origin.x);
    pt__io_int(io, &s->origin.y);
    pt__io_range(io, &s->ncells, 0, cap, "search cells");
    int nm = s->nm;
    pt__io_range(io, &nm, 0, w->n, "search members");
    if (io->bad) return;
    if (io->reading) {
        /* The buffers as start_at makes them: the area's fixed size, a seen mark per member. */
        s->nm = 0;
        if (start_at_buffers(s, cap) < 0 || reserve_members(s, nm) < 0) {
            s->ncells = 0;
            pt__io_fail(io, PT_ERR_NOMEM, "out of memory for the search");
            return;
        }
        memset(s->searched, 0, (size_t)cap);
        for (int k = 0; k < nm; k++) memset(s->m[k].seen, 0, (size_t)cap);
        s->win_x = s->origin.x - r;
        s->win_y = s->origin.y - r;
        s->win_w = s->win_h = side;
        for (int i = 0; i < cap; i++) s->index[i] = -1;
    }
    for (int i = 0; i < s->ncells && !io->bad; i++) {
        pt_cell *c = &s->cells[i];
        pt__io_int(io, &c->x);
        pt__io_int(io, &c->y);
        if (!io->reading) continue;
        int wx = c->x - s->win_x, wy = c->y - s->win_y;
        if (!pt_map_in(&w->map, c->x, c->y) || wx < 0 || wy < 0 || wx >= side || wy >= side) {
            s->ncells = i;
            pt__io_fail(io, PT_ERR_BAD_VALUE, "search cell %d,%d out of its area", c->x, c->y);
            return;
        }
        s->index[wy * side + wx] = i;
    }
    if (s->ncells) pt__io_bytes(io, s->searched, (size_t)s->ncells);
    for (int i = 0; i < s->ncells; i++) pt__io_range(io, &s->owner[i], -1, w->n - 1, "search share owner");
    pt__io_range(io, &s->nsearched, 0, s->ncells, "searched cells");
    pt__io_int(io, &s->split_due);
    for (int k = 0; k < nm && !io->bad; k++) {
        member *m = &s->m[k];
        pt__io_range(io, &m->id, 1, w->n - 1, "search member");
        pt__io_range(io, &m->goal, -1, s->ncells - 1, "search goal");
        pt__io_range(io, &m->left, 0, s->ncells, "search cells left");
        pt__io_range(io, &m->walked, 0, 1, "search walked");
        if (s->ncells) pt__io_bytes(io, m->seen, (size_t)s->ncells);
        if (io->reading && !io->bad) s->nm = k + 1;
    }
}
