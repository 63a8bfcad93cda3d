/* SPDX-License-Identifier: Zlib */
/* Troops: many tile pattern followers with exact rational speeds, scheduled in phase groups.
 *
 * Schedule. A follower's clock does acc = (acc + num) mod den on every tick it is not held
 * and acts when it wraps, i.e. when acc < num after the addition. With g = gcd(num, den),
 * n = num/g, d = den/g and q = acc/g, only q matters: it acts at tick T iff
 * (q + (T - T0) n) mod d < n. So k = (q - T0 n) mod d is constant while it is not held:
 * followers of one pattern and speed (a band) are kept in d groups by k, and tick T runs
 * exactly the n groups k = (j - T n) mod d, j < n. A `wait N` after an action at T holds the
 * clock N ticks, i.e. shifts the schedule by N: the record moves to group (k - N n) mod d and
 * carries hold = T + N, because that group may still fire during the hold.
 *
 * Records hold only what their kind's step reads; path and matrix headings are codes into
 * htab (pt__move_heading of the move's delta computed once, so bit-identical), code HEAD0
 * meaning "the heading it was added with" (t->heading0[id]).
 *
 * One action is the body of pattern_step.h that pt_patrun instantiates too: a step loads
 * the record's fields into the body's state and stores them back. */
#include <patrol/troop.h>

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/pattern_shared.h"
#include "pattern/pattern_step.h"
#include "base/pcg.h"
#include "bulk/troop_priv.h"

#define HEAD_SAME 254 /* a path step that stays on its cell: the heading does not change */
#define HEAD0 255     /* not moved since added */
#define PREV_NONE 8
typedef struct path_rec {
    int32_t ox, oy;   /* origin: the cell is pt__path_cell(origin, index) */
    int32_t index;
    uint32_t id;
    int8_t dir;
    uint8_t done, h, pad;
} path_rec;

typedef struct mat_rec {
    uint64_t state;   /* PCG32 state; inc = stream * 2 + 1 */
    uint32_t stream, id;
    int32_t x, y;
    uint32_t mi;      /* matrix cell index (row-major) */
    uint8_t prev, h;  /* prev: direction of the cell it came from, PREV_NONE */
} mat_rec;

typedef struct ctl_rec {
    pt__ctl s;        /* what pt__ctl_step reads and writes, in place */
    int64_t hold;     /* held on ticks <= hold */
    uint32_t id;
    uint8_t moved;
    int16_t look;     /* the look being held (index into the pattern's looks), -1 none */
} ctl_rec;

/* A path follower of a pattern with stops (wait=/look at points): held like a control one. */
typedef struct path_hrec {
    path_rec r;
    int64_t hold;
    int16_t look;
} path_hrec;

struct pt__troop_pat {
    const pt_pattern *p;
    pt_pattern_kind kind;
    /* path: the walk, and the move codes of the step forward/back from each index */
    pt__path_walk walk;
    uint8_t *hf, *hb;
    int stops;        /* path records are path_hrec (the pattern has stops) */
    /* matrix: per cell, bit k = neighbour k is a 1-cell inside the matrix */
    uint8_t *nb;
    int32_t doff[8];
};

struct pt__troop_band { int pat, n, d, c, g0; };
struct pt__troop_group { unsigned char *rec; int n, cap, band; };

static size_t rec_size(const pt__troop_pat *P) {
    if (P->kind == PT_PAT_PATH) return P->stops ? sizeof(path_hrec) : sizeof(path_rec);
    return P->kind == PT_PAT_MATRIX ? sizeof(mat_rec) : sizeof(ctl_rec);
}

/* ---- setup ----------------------------------------------------------------------------- */

static int grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    int c = *cap ? *cap : 8;
    while (c < need) c = c > INT32_MAX / 2 ? need : c * 2;
    void *q = PT_REALLOC(*p, (size_t)c * elem);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* Room for need followers in the per-id arrays (loc and heading0 share t->cap). */
static int reserve(pt_troop *t, int need) {
    if (need <= t->cap) return 1;
    int c = t->cap ? t->cap : 8;
    while (c < need) c = c > INT32_MAX / 2 ? need : c * 2;
    pt__troop_loc *loc = PT_REALLOC(t->loc, (size_t)c * sizeof *loc);
    if (!loc) return 0;
    t->loc = loc;
    double *h = PT_REALLOC(t->heading0, (size_t)c * sizeof *h);
    if (!h) return 0;
    t->heading0 = h;
    t->cap = c;
    return 1;
}

pt_troop *pt_troop_create(const pt_troop_desc *desc, pt_error *err) {
    pt_error_clear(err);
    pt_troop_desc d = {NULL, 0};
    if (desc) d = *desc;
    if (d.capacity < 0) {
        pt_error_set(err, PT_ERR_RANGE, 0, 0, "troop capacity %d is negative", d.capacity);
        return NULL;
    }
    pt_troop *t = PT_MALLOC(sizeof *t);
    if (!t) goto nomem;
    memset(t, 0, sizeof *t);
    t->map = d.map;
    t->htab = PT_MALLOC(256 * sizeof *t->htab);
    t->hdelta = PT_MALLOC(2 * 256 * sizeof *t->hdelta);
    if (!t->htab || !t->hdelta) goto nomem;
    for (int k = 0; k < 8; k++) {
        t->htab[k] = pt__move_heading(pt__dir_dx[k], pt__dir_dy[k]);
        t->hdelta[2 * k] = pt__dir_dx[k];
        t->hdelta[2 * k + 1] = pt__dir_dy[k];
    }
    t->nhtab = 8;
    if (d.capacity > 0 && !reserve(t, d.capacity)) goto nomem;
    return t;
nomem:
    pt_troop_destroy(t);
    pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory making a troop");
    return NULL;
}

void pt_troop_destroy(pt_troop *t) {
    if (!t) return;
    for (int i = 0; i < t->npats; i++) {
        PT_FREE(t->pats[i].hf);
        PT_FREE(t->pats[i].hb);
        PT_FREE(t->pats[i].nb);
    }
    for (int i = 0; i < t->ngroups; i++) PT_FREE(t->groups[i].rec);
    PT_FREE(t->pats);
    PT_FREE(t->bands);
    PT_FREE(t->groups);
    PT_FREE(t->loc);
    PT_FREE(t->heading0);
    PT_FREE(t->htab);
    PT_FREE(t->hdelta);
    PT_FREE(t);
}

/* Code of a move by (dx, dy): one of the 8 directions, HEAD_SAME, or a new table entry (a
 * longer jump; Bresenham paths have none, but the troop must not assume it). -1: table full. */
static int move_code(pt_troop *t, int dx, int dy) {
    if (dx == 0 && dy == 0) return HEAD_SAME;
    for (int k = 0; k < t->nhtab; k++)
        if (t->hdelta[2 * k] == dx && t->hdelta[2 * k + 1] == dy) return k;
    if (t->nhtab >= HEAD_SAME) return -1;
    t->htab[t->nhtab] = pt__move_heading(dx, dy);
    t->hdelta[2 * t->nhtab] = dx;
    t->hdelta[2 * t->nhtab + 1] = dy;
    return t->nhtab++;
}

static int pat_build(pt_troop *t, pt__troop_pat *P, const pt_pattern *p) {
    memset(P, 0, sizeof *P);
    P->p = p;
    if (p->kind == PT_PAT_PATH) {
        P->kind = PT_PAT_PATH;
        if (p->ncells < 1) return PT_ERR_BAD_VALUE;
        P->walk = pt__path_walk_of(p);
        P->stops = p->look_of_cell != NULL;
        int len = P->walk.len;
        P->hf = PT_MALLOC((size_t)len);
        P->hb = PT_MALLOC((size_t)len);
        if (!P->hf || !P->hb) return PT_ERR_NOMEM;
        pt_cell zero = {0, 0};
        /* Only the moves the end mode makes (a stop path's last cell never goes to its first). */
        int cyclic = p->end == PT_END_LOOP || p->end == PT_END_RESTART, reverse = p->end == PT_END_REVERSE;
        for (int i = 0; i < len; i++) {
            pt_cell a = pt__path_cell(&P->walk, zero, i), f = pt__path_cell(&P->walk, zero, (i + 1) % len),
                    b = pt__path_cell(&P->walk, zero, (i + len - 1) % len);
            int cf = cyclic || i < len - 1 ? move_code(t, f.x - a.x, f.y - a.y) : HEAD_SAME;
            int cb = reverse && i > 0 ? move_code(t, b.x - a.x, b.y - a.y) : HEAD_SAME;
            if (cf < 0 || cb < 0) return PT_ERR_LIMIT;
            P->hf[i] = (uint8_t)cf;
            P->hb[i] = (uint8_t)cb;
        }
    } else if (p->kind == PT_PAT_MATRIX) {
        P->kind = PT_PAT_MATRIX;
        if (p->mw < 1 || p->mh < 1) return PT_ERR_BAD_VALUE;
        size_t n = (size_t)p->mw * (size_t)p->mh;
        P->nb = PT_MALLOC(n);
        if (!P->nb) return PT_ERR_NOMEM;
        for (int my = 0; my < p->mh; my++)
            for (int mx = 0; mx < p->mw; mx++)
                P->nb[(size_t)my * (size_t)p->mw + (size_t)mx] = (uint8_t)pt__mat_neighbours(p, mx, my);
        for (int k = 0; k < 8; k++) P->doff[k] = pt__dir_dy[k] * p->mw + pt__dir_dx[k];
    } else if (p->kind == PT_PAT_CONTROL) {
        P->kind = PT_PAT_CONTROL;
        if (p->nins < 1) return PT_ERR_BAD_VALUE;
    } else {
        return PT_ERR_BAD_VALUE;
    }
    return PT_OK;
}

static void pat_free(pt__troop_pat *P) {
    PT_FREE(P->hf);
    PT_FREE(P->hb);
    PT_FREE(P->nb);
}

static int find_pat(pt_troop *t, const pt_pattern *p) {
    for (int i = 0; i < t->npats; i++)
        if (t->pats[i].p == p) return i;
    if (p->kind != PT_PAT_PATH && p->kind != PT_PAT_MATRIX && p->kind != PT_PAT_CONTROL) return PT_ERR_BAD_VALUE;
    if (!grow((void **)&t->pats, &t->cap_pats, t->npats + 1, sizeof *t->pats)) return PT_ERR_NOMEM;
    int rc = pat_build(t, &t->pats[t->npats], p);
    if (rc < 0) {
        pat_free(&t->pats[t->npats]);
        return rc;
    }
    return t->npats++;
}

static int find_band(pt_troop *t, int pat, int n, int d) {
    for (int i = 0; i < t->nbands; i++)
        if (t->bands[i].pat == pat && t->bands[i].n == n && t->bands[i].d == d) return i;
    if (t->ngroups > INT32_MAX - d) return PT_ERR_LIMIT;
    if (!grow((void **)&t->bands, &t->cap_bands, t->nbands + 1, sizeof *t->bands) ||
        !grow((void **)&t->groups, &t->cap_groups, t->ngroups + d, sizeof *t->groups))
        return PT_ERR_NOMEM;
    pt__troop_band *L = &t->bands[t->nbands];
    L->pat = pat;
    L->n = n;
    L->d = d;
    L->c = (int)((uint64_t)(t->tick % d) * (uint64_t)n % (uint64_t)d);
    L->g0 = t->ngroups;
    for (int k = 0; k < d; k++) t->groups[t->ngroups + k] = (pt__troop_group){NULL, 0, 0, t->nbands};
    t->ngroups += d;
    return t->nbands++;
}

static int gcd(int a, int b) {
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Appends a record to group gi; returns its slot or -1 (no memory). */
static int group_push(pt_troop *t, int gi, const void *rec, size_t size) {
    pt__troop_group *g = &t->groups[gi];
    if (g->n == g->cap) {
        int c = g->cap ? g->cap * 2 : 16;
        unsigned char *q = PT_REALLOC(g->rec, (size_t)c * size);
        if (!q) return -1;
        g->rec = q;
        g->cap = c;
    }
    memcpy(g->rec + (size_t)g->n * size, rec, size);
    return g->n++;
}

static int band_group(const pt__troop_band *L, long long shift_ticks, int k) {
    long long s = (long long)((uint64_t)shift_ticks % (uint64_t)L->d) * L->n % L->d;
    long long kk = ((long long)k - s) % L->d;
    if (kk < 0) kk += L->d;
    return L->g0 + (int)kk;
}

int pt_troop_add_run(pt_troop *t, const pt_patrun *run, int steps_num, int steps_den, int phase) {
    if (!run || !run->pat) return PT_ERR_BAD_VALUE;
    if (steps_den < 1 || steps_den > PT_TROOP_MAX_DEN || steps_num < 0 || steps_num > steps_den || phase < 0 ||
        phase >= steps_den)
        return PT_ERR_RANGE;
    if (t->count >= INT32_MAX - 1) return PT_ERR_LIMIT;
    const pt_pattern *p = run->pat;
    if (p->kind != PT_PAT_PATH && p->kind != PT_PAT_MATRIX && p->kind != PT_PAT_CONTROL) return PT_ERR_BAD_VALUE;
    if (run->wait_ticks > 0 && p->kind != PT_PAT_CONTROL && !(p->kind == PT_PAT_PATH && p->look_of_cell))
        return PT_ERR_BAD_VALUE;
    if (run->wait_ticks > 0 && run->look >= 0 &&
        (run->look >= p->nlooks || run->hold_total != p->looks[run->look].wait + p->looks[run->look].look ||
         run->wait_ticks > run->hold_total))
        return PT_ERR_BAD_VALUE;
    int16_t look = (int16_t)(run->wait_ticks > 0 ? run->look : -1);

    /* Validate the runner against the pattern before allocating anything for it. */
    union { path_hrec path; mat_rec mat; ctl_rec ctl; } rec;
    memset(&rec, 0, sizeof rec);
    uint32_t id = (uint32_t)t->count;
    if (p->kind == PT_PAT_PATH) {
        pt__path_walk w = pt__path_walk_of(p);
        if (p->ncells < 1 || run->index < 0 || run->index >= w.len || (run->dir != 1 && run->dir != -1)) return PT_ERR_BAD_VALUE;
        pt_cell c = pt__path_cell(&w, run->origin, run->index);
        if (run->x != c.x || run->y != c.y) return PT_ERR_BAD_VALUE;
        rec.path.r = (path_rec){run->origin.x, run->origin.y, run->index, id, (int8_t)run->dir, (uint8_t)(run->done != 0), HEAD0, 0};
        rec.path.hold = 0;
        rec.path.look = look;
    } else if (p->kind == PT_PAT_MATRIX) {
        int mx = run->x - run->origin.x + p->start_x, my = run->y - run->origin.y + p->start_y;
        if (mx < 0 || my < 0 || mx >= p->mw || my >= p->mh) return PT_ERR_BAD_VALUE;
        if ((run->rng.inc & 1u) == 0 || (run->rng.inc >> 1) > UINT32_MAX || run->done) return PT_ERR_BAD_VALUE;
        uint8_t prev = PREV_NONE;
        for (int k = 0; k < 8; k++)
            if (run->x + pt__dir_dx[k] == run->prev_x && run->y + pt__dir_dy[k] == run->prev_y) prev = (uint8_t)k;
        rec.mat = (mat_rec){run->rng.state, (uint32_t)(run->rng.inc >> 1), id, run->x, run->y,
                            (uint32_t)my * (uint32_t)p->mw + (uint32_t)mx, prev, HEAD0};
    } else {
        if (run->index < 0 || run->index >= p->nins || run->sub < 0) return PT_ERR_BAD_VALUE;
        rec.ctl = (ctl_rec){{run->heading_deg, run->x, run->y, run->index, run->sub, (uint8_t)(run->done != 0),
                             (uint8_t)pt__dir8_index(run->heading_deg), run->gait},
                            0, id, 0, look};
    }

    int pat = find_pat(t, p);
    if (pat < 0) return pat;
    int g = gcd(steps_num, steps_den), n = steps_num / g, d = steps_den / g;
    int band = find_band(t, pat, n, d);
    if (band < 0) return band;
    if (!reserve(t, t->count + 1)) return PT_ERR_NOMEM;

    pt__troop_band *L = &t->bands[band];
    int k = (int)(((long long)(phase / g) - L->c) % d);
    if (k < 0) k += d;
    int gi = L->g0 + k;
    if (run->wait_ticks > 0) { /* holding now: the schedule starts wait_ticks later */
        if (p->kind == PT_PAT_PATH) rec.path.hold = t->tick + run->wait_ticks;
        else rec.ctl.hold = t->tick + run->wait_ticks;
        gi = band_group(L, run->wait_ticks, k);
    }
    int slot = group_push(t, gi, &rec, rec_size(&t->pats[pat]));
    if (slot < 0) return PT_ERR_NOMEM;
    /* mid-look: its facing is the sweep's; the facing it sweeps around is the base */
    t->heading0[t->count] = look >= 0 ? run->look_base : run->heading;
    t->loc[t->count] = (pt__troop_loc){gi, slot};
    return t->count++;
}

int pt_troop_add(pt_troop *t, const pt_pattern *pattern, pt_cell origin, pt_cell start, double heading,
                 uint64_t seed, uint32_t entity_id, int steps_num, int steps_den, int phase) {
    if (!pattern) return PT_ERR_BAD_VALUE;
    pt_patrun run;
    pt_patrun_init(&run, pattern, origin, start, heading, seed, entity_id);
    return pt_troop_add_run(t, &run, steps_num, steps_den, phase);
}

/* ---- stepping -------------------------------------------------------------------------- */

/* Each kind's loop is a function of its own: inlined together into pt_troop_step they
 * compete for registers and keep their pointers on the stack. Each loop is instantiated
 * with and without a map (the view's `none` a constant), so the map test folds away. */
#if defined(__GNUC__)
#define LOOP_FN __attribute__((noinline)) static
#define INSTANCE __attribute__((always_inline)) static inline
#else
#define LOOP_FN static
#define INSTANCE static inline
#endif

/* The step loops copy the map view and the pattern's tables into locals: records are
 * written through byte-sized fields, which the compiler must assume could alias anything
 * reached through a pointer. */

/* Instantiated once per end mode and map presence, so that the body's switch and map test
 * fold away (and with them the stores of dir, which only reverse walks change, and of done,
 * which only stop walks set). */
INSTANCE void path_walk(const pt__troop_pat *P, pt__troop_group *g, const pt__walkmap *m, pt_end_mode end, int none) {
    path_rec *r = (path_rec *)(void *)g->rec, *e = r + g->n;
    const pt__walkmap v = {m->flags, m->w, m->h, m->xin, m->yin, none};
    const pt__path_walk w = P->walk;
    const uint8_t *hf = P->hf, *hb = P->hb;
    for (; r < e; r++) {
        pt_cell origin = {r->ox, r->oy}, to;
        int index = r->index, dir = r->dir, done = r->done;
        pt_step_result res = pt__path_step(&w, end, origin, pt__path_cell(&w, origin, index), &index, &dir, &done, &v, &to);
        if (res == PT_STEP_MOVED) r->h = end == PT_END_REVERSE && dir < 0 ? hb[r->index] : hf[r->index];
        r->index = index;
        if (end == PT_END_REVERSE) r->dir = (int8_t)dir;
        if (end == PT_END_STOP) r->done = (uint8_t)done;
    }
}

INSTANCE void path_walk_map(const pt__troop_pat *P, pt__troop_group *g, const pt__walkmap *m, pt_end_mode end) {
    if (m->none) path_walk(P, g, m, end, 1);
    else path_walk(P, g, m, end, 0);
}

LOOP_FN long long step_path(const pt__troop_pat *P, pt__troop_group *g, const pt__walkmap *m) {
    switch (P->walk.end) {
    case PT_END_LOOP: path_walk_map(P, g, m, PT_END_LOOP); break;
    case PT_END_RESTART: path_walk_map(P, g, m, PT_END_RESTART); break;
    case PT_END_STOP: path_walk_map(P, g, m, PT_END_STOP); break;
    case PT_END_REVERSE: path_walk_map(P, g, m, PT_END_REVERSE); break;
    }
    return g->n;
}

INSTANCE void matrix_walk(const pt__troop_pat *P, pt__troop_group *g, const pt__walkmap *m, int none) {
    mat_rec *r = (mat_rec *)(void *)g->rec, *e = r + g->n;
    const pt__walkmap v = {m->flags, m->w, m->h, m->xin, m->yin, none};
    const uint8_t *nb = P->nb;
    const int32_t *doff = P->doff;
    for (; r < e; r++) {
        int k = pt__mat_step(nb[r->mi], &v, r->x, r->y, r->prev, &r->state, ((uint64_t)r->stream << 1) | 1u);
        if (k < 0) continue;
        r->x += pt__dir_dx[k];
        r->y += pt__dir_dy[k];
        r->mi += (uint32_t)doff[k];
        r->prev = (uint8_t)((k + 4) & 7);
        r->h = (uint8_t)k;
    }
}

LOOP_FN long long step_matrix(const pt__troop_pat *P, pt__troop_group *g, const pt__walkmap *m) {
    if (m->none) matrix_walk(P, g, m, 1);
    else matrix_walk(P, g, m, 0);
    return g->n;
}

/* A control record that acted at tick T with a `wait` of `wait` ticks: held until T + wait,
 * and moved to the group of its shifted schedule (swap-remove from slot i of group gi).
 * Returns 1 when it moved (slot i now holds another record, not yet seen this tick). Out of
 * line: rare, and it keeps the loop's registers free. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int hold_record(pt_troop *t, const pt__troop_band *L, int gi, int i, int wait, size_t size, size_t hold_at,
                       size_t id_at) {
    pt__troop_group *g = &t->groups[gi];
    unsigned char *r = g->rec + (size_t)i * size;
    int64_t hold = t->tick + wait;
    memcpy(r + hold_at, &hold, sizeof hold);
    int to = band_group(L, wait, gi - L->g0);
    if (to == gi) return 0;
    unsigned char moved[sizeof(ctl_rec) > sizeof(path_hrec) ? sizeof(ctl_rec) : sizeof(path_hrec)];
    memcpy(moved, r, size);
    int slot = group_push(t, to, moved, size);
    g = &t->groups[gi];
    if (slot < 0) {
        /* No memory to move it: it stays here, held for good (never wrong timing, it only
         * stops); unreachable in practice. */
        hold = INT64_MAX;
        memcpy(g->rec + (size_t)i * size + hold_at, &hold, sizeof hold);
        return 0;
    }
    uint32_t id;
    memcpy(&id, moved + id_at, sizeof id);
    t->loc[id] = (pt__troop_loc){to, slot};
    if (i < --g->n) {
        memcpy(g->rec + (size_t)i * size, g->rec + (size_t)g->n * size, size);
        memcpy(&id, g->rec + (size_t)i * size + id_at, sizeof id);
        t->loc[id].slot = i;
    }
    return 1;
}

/* Control records can leave their group (a `wait` shifts their schedule): swap-remove, and
 * the record swapped in (not yet seen this tick) is processed in the same slot. */
INSTANCE long long control_walk(pt_troop *t, const pt__troop_pat *P, const pt__troop_band *L, int gi,
                                     const pt__walkmap *m, int none) {
    const pt_pattern *p = P->p;
    const pt__walkmap v = {m->flags, m->w, m->h, m->xin, m->yin, none};
    long long T = t->tick, acted = 0;
    const pt__troop_group *g = &t->groups[gi];
    int i = 0;
    while (i < g->n) {
        ctl_rec *r = (ctl_rec *)(void *)g->rec + i;
        if (r->hold >= T) {
            i++;
            continue;
        }
        acted++;
        int wait, look, lap, blocked;
        pt_cell target;
        if (pt__ctl_step(p, &r->s, &v, &wait, &look, &lap, &target, &blocked) == PT_STEP_DONE) {
            i++;
            continue;
        }
        r->moved = 1;
        r->look = (int16_t)look;
        if (wait > 0 && hold_record(t, L, gi, i, wait, sizeof *r, offsetof(ctl_rec, hold), offsetof(ctl_rec, id))) {
            g = &t->groups[gi]; /* group_push may have moved the groups array */
            continue;
        }
        i++;
    }
    return acted;
}

/* Paths with stops: the path body, then on arriving at a stop the record is held as a
 * control record is after a `wait`. */
LOOP_FN long long step_path_stops(pt_troop *t, const pt__troop_pat *P, const pt__troop_band *L, int gi,
                                  const pt__walkmap *m) {
    const pt_pattern *p = P->p;
    long long T = t->tick, acted = 0;
    const pt__troop_group *g = &t->groups[gi];
    int i = 0;
    while (i < g->n) {
        path_hrec *h = (path_hrec *)(void *)g->rec + i;
        path_rec *r = &h->r;
        if (h->hold >= T) {
            i++;
            continue;
        }
        acted++;
        pt_cell origin = {r->ox, r->oy}, to;
        int index = r->index, dir = r->dir, done = r->done;
        pt_step_result res =
            pt__path_step(&P->walk, P->walk.end, origin, pt__path_cell(&P->walk, origin, index), &index, &dir, &done, m, &to);
        if (res == PT_STEP_MOVED) r->h = P->walk.end == PT_END_REVERSE && dir < 0 ? P->hb[r->index] : P->hf[r->index];
        int arrived = index != r->index;
        r->index = index;
        r->dir = (int8_t)dir;
        r->done = (uint8_t)done;
        h->look = -1;
        if (arrived) {
            int lk = pt__path_stop(p, index);
            if (lk >= 0) {
                h->look = (int16_t)lk;
                if (hold_record(t, L, gi, i, p->looks[lk].wait + p->looks[lk].look, sizeof *h, offsetof(path_hrec, hold),
                                offsetof(path_hrec, r.id))) {
                    g = &t->groups[gi];
                    continue;
                }
            }
        }
        i++;
    }
    return acted;
}

LOOP_FN long long step_control(pt_troop *t, const pt__troop_pat *P, const pt__troop_band *L, int gi, const pt__walkmap *m) {
    return m->none ? control_walk(t, P, L, gi, m, 1) : control_walk(t, P, L, gi, m, 0);
}

void pt_troop_step(pt_troop *t) {
    const pt__walkmap view = pt__walkmap_of(t->map), *m = &view;
    ++t->tick;
    for (int li = 0; li < t->nbands; li++) {
        pt__troop_band *L = &t->bands[li];
        if (L->n == 0) continue;
        L->c = (L->c + L->n) % L->d;
        const pt__troop_pat *P = &t->pats[L->pat];
        for (int j = 0; j < L->n; j++) {
            int k = j - L->c;
            if (k < 0) k += L->d;
            int gi = L->g0 + k;
            if (t->groups[gi].n == 0) continue;
            switch (P->kind) {
            case PT_PAT_PATH:
                t->actions += P->stops ? step_path_stops(t, P, L, gi, m) : step_path(P, &t->groups[gi], m);
                break;
            case PT_PAT_MATRIX: t->actions += step_matrix(P, &t->groups[gi], m); break;
            case PT_PAT_CONTROL: t->actions += step_control(t, P, L, gi, m); break;
            case PT_PAT_THRUST: /* rejected by pt_troop_add_run */
            case PT_PAT_WAYPOINTS:
            case PT_PAT_KIND_COUNT: break;
            }
        }
    }
}

/* ---- sort ------------------------------------------------------------------------------ */

typedef struct sort_key { uint64_t key; uint32_t id, slot; } sort_key;

static int cmp_key(const void *a, const void *b) {
    const sort_key *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void rec_pos(const pt__troop_pat *P, const unsigned char *rec, int32_t *x, int32_t *y, uint32_t *id) {
    if (P->kind == PT_PAT_PATH) {
        const path_rec *r = (const path_rec *)(const void *)rec;
        pt_cell c = pt__path_cell(&P->walk, (pt_cell){r->ox, r->oy}, r->index);
        *x = c.x;
        *y = c.y;
        *id = r->id;
    } else if (P->kind == PT_PAT_MATRIX) {
        const mat_rec *r = (const mat_rec *)(const void *)rec;
        *x = r->x;
        *y = r->y;
        *id = r->id;
    } else {
        const ctl_rec *r = (const ctl_rec *)(const void *)rec;
        *x = r->s.x;
        *y = r->s.y;
        *id = r->id;
    }
}

void pt_troop_sort(pt_troop *t) {
    int most = 0;
    for (int i = 0; i < t->ngroups; i++)
        if (t->groups[i].n > most) most = t->groups[i].n;
    if (most < 2) return;
    sort_key *keys = PT_MALLOC((size_t)most * sizeof *keys);
    unsigned char *tmp = PT_MALLOC((size_t)most * sizeof(ctl_rec));
    if (keys && tmp) {
        for (int gi = 0; gi < t->ngroups; gi++) {
            pt__troop_group *g = &t->groups[gi];
            if (g->n < 2) continue;
            const pt__troop_pat *P = &t->pats[t->bands[g->band].pat];
            size_t size = rec_size(P);
            for (int s = 0; s < g->n; s++) {
                int32_t x, y;
                uint32_t id;
                rec_pos(P, g->rec + (size_t)s * size, &x, &y, &id);
                keys[s] = (sort_key){((uint64_t)(uint32_t)(y ^ INT32_MIN) << 32) | (uint32_t)(x ^ INT32_MIN), id, (uint32_t)s};
            }
            qsort(keys, (size_t)g->n, sizeof *keys, cmp_key);
            for (int s = 0; s < g->n; s++) {
                memcpy(tmp + (size_t)s * size, g->rec + (size_t)keys[s].slot * size, size);
                t->loc[keys[s].id].slot = s;
            }
            memcpy(g->rec, tmp, (size_t)g->n * size);
        }
    }
    PT_FREE(keys);
    PT_FREE(tmp);
}

/* ---- queries --------------------------------------------------------------------------- */

static const unsigned char *find(const pt_troop *t, int id, const pt__troop_pat **P) {
    if (id < 0 || id >= t->count) return NULL;
    pt__troop_loc l = t->loc[id];
    const pt__troop_group *g = &t->groups[l.group];
    *P = &t->pats[t->bands[g->band].pat];
    return g->rec + (size_t)l.slot * rec_size(*P);
}

pt_cell pt_troop_cell(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    pt_cell c = {0, 0};
    uint32_t rid;
    if (rec) rec_pos(P, rec, &c.x, &c.y, &rid);
    return c;
}

/* A record held in look lk until tick hold: hold tick j of its stop is total - (hold - now). */
static double look_heading(const pt_troop *t, const pt_pattern *p, int lk, int64_t hold, double base) {
    const pt_look *l = &p->looks[lk];
    return pt_look_heading(l, base, (int)(l->wait + l->look - (hold - t->tick)));
}

double pt_troop_heading(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    if (!rec) return 0.0;
    int h;
    if (P->kind == PT_PAT_PATH) {
        h = ((const path_rec *)(const void *)rec)->h;
        double base = h == HEAD0 ? t->heading0[id] : t->htab[h];
        if (P->stops) {
            const path_hrec *r = (const path_hrec *)(const void *)rec;
            if (r->look >= 0 && r->hold >= t->tick) return look_heading(t, P->p, r->look, r->hold, base);
        }
        return base;
    } else if (P->kind == PT_PAT_MATRIX) {
        h = ((const mat_rec *)(const void *)rec)->h;
    } else {
        const ctl_rec *r = (const ctl_rec *)(const void *)rec;
        double base = r->moved ? pt_wrap_angle(pt_rad(r->s.deg)) : t->heading0[id];
        if (r->look >= 0 && r->hold >= t->tick) return look_heading(t, P->p, r->look, r->hold, base);
        return base;
    }
    return h == HEAD0 ? t->heading0[id] : t->htab[h];
}

int pt_troop_done(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    if (!rec) return 0;
    if (P->kind == PT_PAT_PATH) return ((const path_rec *)(const void *)rec)->done;
    if (P->kind == PT_PAT_MATRIX) return 0;
    return ((const ctl_rec *)(const void *)rec)->s.done;
}

int pt_troop_count(const pt_troop *t) { return t->count; }
long long pt_troop_tick(const pt_troop *t) { return t->tick; }
long long pt_troop_actions(const pt_troop *t) { return t->actions; }

/* ---- test hook ------------------------------------------------------------------------- */

int pt__troop_check(const pt_troop *t) {
    int bad = 0;
    long long records = 0;
    for (int gi = 0; gi < t->ngroups; gi++) {
        const pt__troop_group *g = &t->groups[gi];
        const pt__troop_band *L = &t->bands[g->band];
        bad += gi < L->g0 || gi >= L->g0 + L->d;
        records += g->n;
    }
    bad += records != t->count;
    for (int id = 0; id < t->count; id++) {
        pt__troop_loc l = t->loc[id];
        if (l.group < 0 || l.group >= t->ngroups || l.slot < 0 || l.slot >= t->groups[l.group].n) {
            bad++;
            continue;
        }
        const pt__troop_group *g = &t->groups[l.group];
        const pt__troop_pat *P = &t->pats[t->bands[g->band].pat];
        int32_t x, y;
        uint32_t rid;
        rec_pos(P, g->rec + (size_t)l.slot * rec_size(P), &x, &y, &rid);
        bad += rid != (uint32_t)id;
    }
    return bad;
}
