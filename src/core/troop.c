/* SPDX-License-Identifier: Zlib */
/* Troops: many tile pattern followers with exact rational speeds, scheduled in phase groups.
 *
 * Schedule. A follower's clock does acc = (acc + num) mod den on every tick it is not held
 * and acts when it wraps, i.e. when acc < num after the addition. With g = gcd(num, den),
 * n = num/g, d = den/g and q = acc/g, only q matters: it acts at tick T iff
 * (q + (T - T0) n) mod d < n. So k = (q - T0 n) mod d is constant while it is not held:
 * followers of one pattern and speed (a lane) are kept in d groups by k, and tick T runs
 * exactly the n groups k = (j - T n) mod d, j < n. A `wait N` after an action at T holds the
 * clock N ticks, i.e. shifts the schedule by N: the record moves to group (k - N n) mod d and
 * carries hold = T + N, because that group may still fire during the hold.
 *
 * Records hold only what their kind's step reads; path and matrix headings are codes into
 * htab (atan2 of the move's delta computed once, so bit-identical), code HEAD0 meaning "the
 * heading it was added with" (t->heading0[id]). */
#include <patrol/troop.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_priv.h"
#include "rng_priv.h"

#define HEAD_SAME 254 /* a path step that stays on its cell: the heading does not change */
#define HEAD0 255     /* not moved since added */
#define PREV_NONE 8
/* t->bits: [0,256) set-bit count of a mask, [SELECT, +2048) index of its i-th set bit,
 * [BLOCK, +512) legal move directions (pt_map_step_ok) out of a 3x3 walkability block (row3). */
#define BITS_SELECT 256
#define BITS_BLOCK (256 + 2048)
#define BITS_SIZE (256 + 2048 + 512)

enum { KIND_PATH, KIND_MATRIX, KIND_CONTROL };

static const int dir_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dir_dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};

typedef struct path_rec {
    int32_t ox, oy;   /* origin: the cell is origin + rel[index] */
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
    double deg;       /* exact heading in degrees, [0, 360) */
    int64_t hold;     /* held on ticks <= hold */
    uint32_t id;
    int32_t x, y, index, sub;
    uint8_t d8, done, moved;
} ctl_rec;

struct pt__troop_pat {
    const pt_pattern *p;
    int kind;
    /* path: len cells of the walk (index i is cell i % ncells), move codes forward/back */
    pt_cell *rel;
    uint8_t *hf, *hb;
    int len, end;
    /* matrix: per cell, bit k = neighbour k is a 1-cell inside the matrix */
    uint8_t *nb;
    int32_t doff[8];
};

struct pt__troop_lane { int pat, n, d, c, g0; };
struct pt__troop_group { unsigned char *rec; int n, cap, lane; };

static size_t rec_size(int kind) {
    return kind == KIND_PATH ? sizeof(path_rec) : kind == KIND_MATRIX ? sizeof(mat_rec) : sizeof(ctl_rec);
}

/* ---- map ------------------------------------------------------------------------------- */

typedef struct mapview { const uint8_t *f; unsigned w, h; int none; } mapview;

static mapview view(const pt_map *m) {
    mapview v = {NULL, 0, 0, 1};
    if (m) v = (mapview){m->flags, (unsigned)m->w, (unsigned)m->h, 0};
    return v;
}

static inline int walk(const mapview *v, int x, int y) {
    return v->none || ((unsigned)x < v->w && (unsigned)y < v->h && (v->f[(size_t)y * v->w + (unsigned)x] & PT_TILE_WALKABLE));
}

/* pt_map_step_ok on the view (no corner cutting). */
static inline int step_ok(const mapview *v, int x, int y, int nx, int ny) {
    return walk(v, nx, ny) && (x == nx || y == ny || (walk(v, nx, y) && walk(v, x, ny)));
}

/* Walkable bits of three consecutive cells; which bit is which cell is found at init
 * (rowbit), so the block table is right whatever this returns. One unaligned load where the
 * byte order is known (the multiply gathers bytes 0-2's low bits, no carries). */
_Static_assert(PT_TILE_WALKABLE == 1, "row3 reads bit 0 of each flags byte");

static inline unsigned row3(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0x00010101u) * 0x040201u >> 16 & 7u;
#else
    return (p[0] & PT_TILE_WALKABLE ? 1u : 0u) | (p[1] & PT_TILE_WALKABLE ? 2u : 0u) | (p[2] & PT_TILE_WALKABLE ? 4u : 0u);
#endif
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

int pt_troop_init(pt_troop *t, const pt_map *map, int capacity) {
    memset(t, 0, sizeof *t);
    t->map = map;
    t->htab = PT_MALLOC(256 * sizeof *t->htab);
    t->hdelta = PT_MALLOC(2 * 256 * sizeof *t->hdelta);
    t->bits = PT_MALLOC(BITS_SIZE);
    if (!t->htab || !t->hdelta || !t->bits) {
        pt_troop_fini(t);
        return PT_ERR_NOMEM;
    }
    for (int k = 0; k < 8; k++) {
        t->htab[k] = atan2((double)dir_dy[k], (double)dir_dx[k]);
        t->hdelta[2 * k] = dir_dx[k];
        t->hdelta[2 * k + 1] = dir_dy[k];
    }
    t->nhtab = 8;
    for (unsigned m = 0; m < 256; m++) {
        int c = 0;
        for (int k = 0; k < 8; k++)
            if (m & (1u << k)) t->bits[BITS_SELECT + m * 8 + (unsigned)c++] = (uint8_t)k;
        t->bits[m] = (uint8_t)c;
    }
    unsigned rowbit[3];
    for (int j = 0; j < 3; j++) {
        uint8_t cells[4] = {0, 0, 0, 0};
        cells[j] = PT_TILE_WALKABLE;
        rowbit[j] = row3(cells);
    }
    for (unsigned b = 0; b < 512; b++) {
        unsigned m = 0;
        for (int k = 0; k < 8; k++) {
            int dx = dir_dx[k], dy = dir_dy[k];
            int to = (b & (rowbit[dx + 1] << (3 * (dy + 1)))) != 0;
            int side_x = (b & (rowbit[dx + 1] << 3)) != 0, side_y = (b & (rowbit[1] << (3 * (dy + 1)))) != 0;
            if (to && (!dx || !dy || (side_x && side_y))) m |= 1u << k; /* pt_map_step_ok */
        }
        t->bits[BITS_BLOCK + b] = (uint8_t)m;
    }
    if (capacity > 0 && !reserve(t, capacity)) {
        pt_troop_fini(t);
        return PT_ERR_NOMEM;
    }
    return PT_OK;
}

void pt_troop_fini(pt_troop *t) {
    for (int i = 0; i < t->npats; i++) {
        PT_FREE(t->pats[i].rel);
        PT_FREE(t->pats[i].hf);
        PT_FREE(t->pats[i].hb);
        PT_FREE(t->pats[i].nb);
    }
    for (int i = 0; i < t->ngroups; i++) PT_FREE(t->groups[i].rec);
    PT_FREE(t->pats);
    PT_FREE(t->lanes);
    PT_FREE(t->groups);
    PT_FREE(t->loc);
    PT_FREE(t->heading0);
    PT_FREE(t->htab);
    PT_FREE(t->hdelta);
    PT_FREE(t->bits);
    memset(t, 0, sizeof *t);
}

/* Code of a move by (dx, dy): one of the 8 directions, HEAD_SAME, or a new table entry (a
 * longer jump; Bresenham paths have none, but the troop must not assume it). -1: table full. */
static int move_code(pt_troop *t, int dx, int dy) {
    if (dx == 0 && dy == 0) return HEAD_SAME;
    for (int k = 0; k < t->nhtab; k++)
        if (t->hdelta[2 * k] == dx && t->hdelta[2 * k + 1] == dy) return k;
    if (t->nhtab >= HEAD_SAME) return -1;
    t->htab[t->nhtab] = atan2((double)dy, (double)dx);
    t->hdelta[2 * t->nhtab] = dx;
    t->hdelta[2 * t->nhtab + 1] = dy;
    return t->nhtab++;
}

static int path_len(const pt_pattern *p) {
    int cyclic = p->end == PT_END_LOOP || p->end == PT_END_RESTART;
    return cyclic ? p->ncells : p->ncells + (p->closed ? 1 : 0);
}

static int pat_build(pt_troop *t, pt__troop_pat *P, const pt_pattern *p) {
    memset(P, 0, sizeof *P);
    P->p = p;
    P->end = p->end;
    if (p->kind == PT_PAT_PATH) {
        P->kind = KIND_PATH;
        if (p->ncells < 1) return PT_ERR_BAD_VALUE;
        int len = P->len = path_len(p);
        P->rel = PT_MALLOC((size_t)len * sizeof *P->rel);
        P->hf = PT_MALLOC((size_t)len);
        P->hb = PT_MALLOC((size_t)len);
        if (!P->rel || !P->hf || !P->hb) return PT_ERR_NOMEM;
        for (int i = 0; i < len; i++) P->rel[i] = p->cells[i % p->ncells];
        /* Only the moves the end mode makes (a stop path's last cell never goes to its first). */
        int cyclic = p->end == PT_END_LOOP || p->end == PT_END_RESTART, reverse = p->end == PT_END_REVERSE;
        for (int i = 0; i < len; i++) {
            pt_cell a = P->rel[i], f = P->rel[(i + 1) % len], b = P->rel[(i + len - 1) % len];
            int cf = cyclic || i < len - 1 ? move_code(t, f.x - a.x, f.y - a.y) : HEAD_SAME;
            int cb = reverse && i > 0 ? move_code(t, b.x - a.x, b.y - a.y) : HEAD_SAME;
            if (cf < 0 || cb < 0) return PT_ERR_LIMIT;
            P->hf[i] = (uint8_t)cf;
            P->hb[i] = (uint8_t)cb;
        }
    } else if (p->kind == PT_PAT_MATRIX) {
        P->kind = KIND_MATRIX;
        if (p->mw < 1 || p->mh < 1) return PT_ERR_BAD_VALUE;
        size_t n = (size_t)p->mw * (size_t)p->mh;
        P->nb = PT_MALLOC(n);
        if (!P->nb) return PT_ERR_NOMEM;
        for (int my = 0; my < p->mh; my++)
            for (int mx = 0; mx < p->mw; mx++) {
                uint8_t bits = 0;
                for (int k = 0; k < 8; k++) {
                    int x = mx + dir_dx[k], y = my + dir_dy[k];
                    if (x >= 0 && y >= 0 && x < p->mw && y < p->mh && p->mat[(size_t)y * (size_t)p->mw + (size_t)x])
                        bits |= (uint8_t)(1u << k);
                }
                P->nb[(size_t)my * (size_t)p->mw + (size_t)mx] = bits;
            }
        for (int k = 0; k < 8; k++) P->doff[k] = dir_dy[k] * p->mw + dir_dx[k];
    } else if (p->kind == PT_PAT_CONTROL) {
        P->kind = KIND_CONTROL;
        if (p->nins < 1) return PT_ERR_BAD_VALUE;
    } else {
        return PT_ERR_BAD_VALUE;
    }
    return PT_OK;
}

static void pat_free(pt__troop_pat *P) {
    PT_FREE(P->rel);
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

static int find_lane(pt_troop *t, int pat, int n, int d) {
    for (int i = 0; i < t->nlanes; i++)
        if (t->lanes[i].pat == pat && t->lanes[i].n == n && t->lanes[i].d == d) return i;
    if (t->ngroups > INT32_MAX - d) return PT_ERR_LIMIT;
    if (!grow((void **)&t->lanes, &t->cap_lanes, t->nlanes + 1, sizeof *t->lanes) ||
        !grow((void **)&t->groups, &t->cap_groups, t->ngroups + d, sizeof *t->groups))
        return PT_ERR_NOMEM;
    pt__troop_lane *L = &t->lanes[t->nlanes];
    L->pat = pat;
    L->n = n;
    L->d = d;
    L->c = (int)((uint64_t)(t->tick % d) * (uint64_t)n % (uint64_t)d);
    L->g0 = t->ngroups;
    for (int k = 0; k < d; k++) t->groups[t->ngroups + k] = (pt__troop_group){NULL, 0, 0, t->nlanes};
    t->ngroups += d;
    return t->nlanes++;
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

static int lane_group(const pt__troop_lane *L, long long shift_ticks, int k) {
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
    if (run->wait_ticks > 0 && p->kind != PT_PAT_CONTROL) return PT_ERR_BAD_VALUE;

    /* Validate the runner against the pattern before allocating anything for it. */
    union { path_rec path; mat_rec mat; ctl_rec ctl; } rec;
    memset(&rec, 0, sizeof rec);
    uint32_t id = (uint32_t)t->count;
    if (p->kind == PT_PAT_PATH) {
        int len = path_len(p);
        if (p->ncells < 1 || run->index < 0 || run->index >= len || (run->dir != 1 && run->dir != -1)) return PT_ERR_BAD_VALUE;
        pt_cell c = p->cells[run->index % p->ncells];
        if (run->x != run->origin.x + c.x || run->y != run->origin.y + c.y) return PT_ERR_BAD_VALUE;
        rec.path = (path_rec){run->origin.x, run->origin.y, run->index, id, (int8_t)run->dir, (uint8_t)(run->done != 0), HEAD0, 0};
    } else if (p->kind == PT_PAT_MATRIX) {
        int mx = run->x - run->origin.x + p->start_x, my = run->y - run->origin.y + p->start_y;
        if (mx < 0 || my < 0 || mx >= p->mw || my >= p->mh) return PT_ERR_BAD_VALUE;
        if ((run->rng.inc & 1u) == 0 || (run->rng.inc >> 1) > UINT32_MAX || run->done) return PT_ERR_BAD_VALUE;
        uint8_t prev = PREV_NONE;
        for (int k = 0; k < 8; k++)
            if (run->x + dir_dx[k] == run->prev_x && run->y + dir_dy[k] == run->prev_y) prev = (uint8_t)k;
        rec.mat = (mat_rec){run->rng.state, (uint32_t)(run->rng.inc >> 1), id, run->x, run->y,
                            (uint32_t)my * (uint32_t)p->mw + (uint32_t)mx, prev, HEAD0};
    } else {
        if (run->index < 0 || run->index >= p->nins || run->sub < 0) return PT_ERR_BAD_VALUE;
        rec.ctl = (ctl_rec){run->heading_deg, 0, id, run->x, run->y, run->index, run->sub,
                            (uint8_t)pt__dir8_index(run->heading_deg), (uint8_t)(run->done != 0), 0};
    }

    int pat = find_pat(t, p);
    if (pat < 0) return pat;
    int g = gcd(steps_num, steps_den), n = steps_num / g, d = steps_den / g;
    int lane = find_lane(t, pat, n, d);
    if (lane < 0) return lane;
    if (!reserve(t, t->count + 1)) return PT_ERR_NOMEM;

    pt__troop_lane *L = &t->lanes[lane];
    int k = (int)(((long long)(phase / g) - L->c) % d);
    if (k < 0) k += d;
    int gi = L->g0 + k;
    if (run->wait_ticks > 0) { /* holding now: the schedule starts wait_ticks later */
        rec.ctl.hold = t->tick + run->wait_ticks;
        gi = lane_group(L, run->wait_ticks, k);
    }
    int slot = group_push(t, gi, &rec, rec_size(t->pats[pat].kind));
    if (slot < 0) return PT_ERR_NOMEM;
    t->heading0[t->count] = run->heading;
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

static long long step_path(const pt__troop_pat *P, pt__troop_group *g, const mapview *mv) {
    path_rec *r = (path_rec *)(void *)g->rec, *e = r + g->n;
    const pt_cell *rel = P->rel;
    const uint8_t *hf = P->hf, *hb = P->hb;
    int len = P->len;
    switch (P->end) {
    case PT_END_LOOP:
    case PT_END_RESTART:
        for (; r < e; r++) {
            int next = r->index + 1 == len ? 0 : r->index + 1;
            if (!step_ok(mv, r->ox + rel[r->index].x, r->oy + rel[r->index].y, r->ox + rel[next].x, r->oy + rel[next].y))
                continue;
            uint8_t h = hf[r->index];
            r->index = next;
            if (h != HEAD_SAME) r->h = h;
        }
        break;
    case PT_END_STOP:
        for (; r < e; r++) {
            if (r->index >= len - 1) {
                r->done = 1;
                continue;
            }
            int next = r->index + 1;
            if (!step_ok(mv, r->ox + rel[r->index].x, r->oy + rel[r->index].y, r->ox + rel[next].x, r->oy + rel[next].y))
                continue;
            uint8_t h = hf[r->index];
            r->index = next;
            if (h != HEAD_SAME) r->h = h;
        }
        break;
    default: /* reverse */
        if (len == 1) break;
        for (; r < e; r++) {
            int dir = r->dir, next = r->index + dir;
            if (next < 0 || next >= len) {
                dir = -dir;
                next = r->index + dir;
            }
            if (!step_ok(mv, r->ox + rel[r->index].x, r->oy + rel[r->index].y, r->ox + rel[next].x, r->oy + rel[next].y))
                continue;
            uint8_t h = dir > 0 ? hf[r->index] : hb[r->index];
            r->index = next;
            r->dir = (int8_t)dir;
            if (h != HEAD_SAME) r->h = h;
        }
        break;
    }
    return g->n;
}

/* Matrix walk. Cells with a full 3x4 block inside the map (almost all) read their
 * neighbours' flags as three row loads and one table look-up (row3 bits of the rows above,
 * at and below -> direction bits); choosing the pick-th candidate is a table look-up too.
 * Instruction count is what limits this loop, not memory. */
static long long step_matrix(const pt_troop *t, const pt__troop_pat *P, pt__troop_group *g, const mapview *mv) {
    mat_rec *r = (mat_rec *)(void *)g->rec, *e = r + g->n;
    const uint8_t *nb = P->nb, *count = t->bits, *select = t->bits + BITS_SELECT, *block = t->bits + BITS_BLOCK;
    const uint8_t *f = mv->f;
    const size_t w = mv->w;
    const int none = mv->none;
    const unsigned xmax = mv->w > 3 ? mv->w - 3 : 0, ymax = mv->h > 2 ? mv->h - 2 : 0;
    for (; r < e; r++) {
        unsigned on = nb[r->mi], ok;
        if (none) {
            ok = on;
        } else if ((unsigned)r->x - 1u < xmax && (unsigned)r->y - 1u < ymax) {
            const uint8_t *c = f + (size_t)r->y * w + (size_t)r->x - 1;
            ok = on & block[row3(c - w) | row3(c) << 3 | row3(c + w) << 6];
        } else {
            ok = 0;
            for (int k = 0; k < 8; k++)
                if ((on >> k & 1u) && step_ok(mv, r->x, r->y, r->x + dir_dx[k], r->y + dir_dy[k])) ok |= 1u << k;
        }
        unsigned prevbit = (1u << r->prev) & 0xFFu, cand = ok & ~prevbit; /* prev 8 = none: 0 */
        int k;
        if (cand) {
            uint32_t pick = pt__pcg32_below(&r->state, ((uint64_t)r->stream << 1) | 1u, count[cand]);
            k = select[cand * 8 + pick];
        } else if (ok & prevbit) {
            k = r->prev;
        } else {
            continue;
        }
        r->x += dir_dx[k];
        r->y += dir_dy[k];
        r->mi += (uint32_t)P->doff[k];
        r->prev = (uint8_t)((k + 4) & 7);
        r->h = (uint8_t)k;
    }
    return g->n;
}

/* Control records can leave their group (a `wait` shifts their schedule): swap-remove, and
 * the record swapped in (not yet seen this tick) is processed in the same slot. */
static long long step_control(pt_troop *t, const pt__troop_pat *P, const pt__troop_lane *L, int gi, const mapview *mv) {
    const pt_pattern *p = P->p;
    const pt_instr *ins = p->ins;
    int nins = p->nins, stop = p->end == PT_END_STOP;
    long long T = t->tick, acted = 0;
    pt__troop_group *g = &t->groups[gi];
    int i = 0;
    while (i < g->n) {
        ctl_rec *r = (ctl_rec *)(void *)g->rec + i;
        if (r->hold >= T) {
            i++;
            continue;
        }
        acted++;
        if (r->done) {
            i++;
            continue;
        }
        const pt_instr *in = &ins[r->index];
        int advance = 1, wait = 0;
        switch ((pt_op)in->op) {
        case PT_OP_FORWARD:
        case PT_OP_BACKWARD: {
            int s = in->op == PT_OP_FORWARD ? 1 : -1, tx = r->x + s * dir_dx[r->d8], ty = r->y + s * dir_dy[r->d8];
            if (step_ok(mv, r->x, r->y, tx, ty)) {
                r->x = tx;
                r->y = ty;
            }
            advance = ++r->sub >= in->amount;
            break;
        }
        case PT_OP_LEFT:
        case PT_OP_RIGHT:
            r->deg = pt__norm_deg(r->deg + (in->op == PT_OP_RIGHT ? in->degrees : -in->degrees));
            r->d8 = (uint8_t)pt__dir8_index(r->deg);
            break;
        case PT_OP_WAIT:
        default: wait = in->amount; break;
        }
        r->moved = 1;
        if (advance) {
            r->sub = 0;
            if (++r->index >= nins) {
                if (stop) {
                    r->index = nins - 1;
                    r->done = 1;
                } else {
                    r->index = 0;
                }
            }
        }
        if (wait > 0) {
            r->hold = T + wait;
            int to = lane_group(L, wait, gi - L->g0);
            if (to != gi) {
                ctl_rec moved = *r;
                int slot = group_push(t, to, &moved, sizeof moved);
                g = &t->groups[gi];
                if (slot >= 0) {
                    t->loc[moved.id] = (pt__troop_loc){to, slot};
                    ctl_rec *base = (ctl_rec *)(void *)g->rec;
                    if (i < --g->n) {
                        base[i] = base[g->n];
                        t->loc[base[i].id].slot = i;
                    }
                    continue;
                }
                /* No memory to move it: it stays here, held for good (never wrong timing, it
                 * only stops); unreachable in practice. */
                r = (ctl_rec *)(void *)g->rec + i;
                r->hold = INT64_MAX;
            }
        }
        i++;
    }
    return acted;
}

void pt_troop_step(pt_troop *t) {
    mapview mv = view(t->map);
    ++t->tick;
    for (int li = 0; li < t->nlanes; li++) {
        pt__troop_lane *L = &t->lanes[li];
        if (L->n == 0) continue;
        L->c = (L->c + L->n) % L->d;
        const pt__troop_pat *P = &t->pats[L->pat];
        for (int j = 0; j < L->n; j++) {
            int k = j - L->c;
            if (k < 0) k += L->d;
            int gi = L->g0 + k;
            if (t->groups[gi].n == 0) continue;
            switch (P->kind) {
            case KIND_PATH: t->actions += step_path(P, &t->groups[gi], &mv); break;
            case KIND_MATRIX: t->actions += step_matrix(t, P, &t->groups[gi], &mv); break;
            default: t->actions += step_control(t, P, L, gi, &mv); break;
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
    if (P->kind == KIND_PATH) {
        const path_rec *r = (const path_rec *)(const void *)rec;
        *x = r->ox + P->rel[r->index].x;
        *y = r->oy + P->rel[r->index].y;
        *id = r->id;
    } else if (P->kind == KIND_MATRIX) {
        const mat_rec *r = (const mat_rec *)(const void *)rec;
        *x = r->x;
        *y = r->y;
        *id = r->id;
    } else {
        const ctl_rec *r = (const ctl_rec *)(const void *)rec;
        *x = r->x;
        *y = r->y;
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
            const pt__troop_pat *P = &t->pats[t->lanes[g->lane].pat];
            size_t size = rec_size(P->kind);
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
    *P = &t->pats[t->lanes[g->lane].pat];
    return g->rec + (size_t)l.slot * rec_size((*P)->kind);
}

pt_cell pt_troop_cell(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    pt_cell c = {0, 0};
    uint32_t rid;
    if (rec) rec_pos(P, rec, &c.x, &c.y, &rid);
    return c;
}

double pt_troop_heading(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    if (!rec) return 0.0;
    int h;
    if (P->kind == KIND_PATH) {
        h = ((const path_rec *)(const void *)rec)->h;
    } else if (P->kind == KIND_MATRIX) {
        h = ((const mat_rec *)(const void *)rec)->h;
    } else {
        const ctl_rec *r = (const ctl_rec *)(const void *)rec;
        return r->moved ? pt_wrap_angle(pt_rad(r->deg)) : t->heading0[id];
    }
    return h == HEAD0 ? t->heading0[id] : t->htab[h];
}

int pt_troop_done(const pt_troop *t, int id) {
    const pt__troop_pat *P;
    const unsigned char *rec = find(t, id, &P);
    if (!rec) return 0;
    if (P->kind == KIND_PATH) return ((const path_rec *)(const void *)rec)->done;
    if (P->kind == KIND_MATRIX) return 0;
    return ((const ctl_rec *)(const void *)rec)->done;
}
