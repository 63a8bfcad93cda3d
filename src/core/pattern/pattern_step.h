/* SPDX-License-Identifier: Zlib */
/* pattern_step.h - one action of the tile pattern walkers (path, matrix, control), written
 * once as inline bodies over small states. The one-agent runner (pattern_run.c, pt_patrun)
 * and the bulk follower (bulk/troop.c, pt_troop) instantiate them: each keeps its own layout
 * (a pt_patrun; the troop's compact records) and loads/stores the fields a body reads, so
 * both walk the same cells with the same random choices by construction.
 *
 * The map check of every body is pt_map_step_ok, on a pt__walkmap (a view of the map's
 * walkability that a loop keeps in registers). */
#ifndef PATROL_PATTERN_STEP_H
#define PATROL_PATTERN_STEP_H

#include <patrol/map.h>
#include <patrol/pattern.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pattern/pattern_shared.h"
#include "base/pcg.h"

/* The bodies are instantiated in loops whose speed depends on them being inlined, also
 * when a loop is instantiated several times (the troop's per-kind, per-mode loops). */
#if defined(__GNUC__)
#define PT__BODY static inline __attribute__((always_inline))
#else
#define PT__BODY static inline
#endif

/* Direction k: k * 45 degrees clockwise on screen from east. Matrix candidates are taken
 * in this order, and pt__dir8_index numbers headings this way. */
static const int pt__dir_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int pt__dir_dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};

/* The heading (radians) of a move by (dx, dy) != (0, 0). */
static inline double pt__move_heading(int dx, int dy) { return atan2((double)dy, (double)dx); }

/* ---- tables (pattern_step.c) ----------------------------------------------------------- */

/* Set bits of an 8-bit mask: pt__bit_count[m]; the index of its i-th set bit (from bit 0):
 * pt__bit_select[m * 8 + i]. */
extern const uint8_t pt__bit_count[256];
extern const uint8_t pt__bit_select[2048];
/* Directions allowed by pt_map_step_ok out of a 3x3 walkability block b, bit 3 * (dy + 1) +
 * (1 - dx) = cell (x + dx, y + dy) walkable (the layout pt__row3 gives). */
extern const uint8_t pt__step_block[512];

/* Walkable bits of cells p[0..2] (reads p[0..3]): bit 2 = p[0], bit 1 = p[1], bit 0 = p[2].
 * One unaligned load where the byte order is known (the multiply gathers the bytes' low
 * bits, no carries). */
_Static_assert(PT_TILE_WALKABLE == 1, "pt__row3 reads bit 0 of each flags byte");
static inline unsigned pt__row3(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return (v & 0x00010101u) * 0x040201u >> 16 & 7u;
#else
    return (p[0] & PT_TILE_WALKABLE ? 4u : 0u) | (p[1] & PT_TILE_WALKABLE ? 2u : 0u) | (p[2] & PT_TILE_WALKABLE ? 1u : 0u);
#endif
}

/* ---- the map ----------------------------------------------------------------------------- */

typedef struct pt__walkmap {
    const uint8_t *flags;
    unsigned w, h;
    unsigned xin, yin;  /* x - 1 < xin and y - 1 < yin: the cell's 3x4 block is inside */
    int none;           /* no map: every step is allowed */
} pt__walkmap;

static inline pt__walkmap pt__walkmap_of(const pt_map *m) {
    pt__walkmap v = {NULL, 0, 0, 0, 0, 1};
    if (m) {
        unsigned w = (unsigned)m->w, h = (unsigned)m->h;
        v = (pt__walkmap){m->flags, w, h, w > 3 ? w - 3 : 0, h > 2 ? h - 2 : 0, 0};
    }
    return v;
}

/* pt_map_step_ok. */
PT__BODY int pt__walk_ok(const pt__walkmap *v, int x, int y, int nx, int ny) {
    return v->none || pt__flags_step_ok(v->flags, v->w, v->h, x, y, nx, ny);
}

/* pt__step_mask of a cell whose 3x4 block is not inside the map (pattern_step.c: out of
 * line, so that the loops that inline pt__step_mask keep their registers). */
unsigned pt__step_mask_edge(const pt__walkmap *v, int x, int y);

/* Bit k set when pt_map_step_ok allows the step from (x, y) to its neighbour k. Cells whose
 * 3x4 block lies inside the map (almost all) read three rows and one table entry. */
PT__BODY unsigned pt__step_mask(const pt__walkmap *v, int x, int y) {
    if (v->none) return 0xFFu;
    if ((unsigned)x - 1u < v->xin && (unsigned)y - 1u < v->yin) {
        const size_t w = v->w;
        const uint8_t *c = v->flags + (size_t)y * w + (size_t)x - 1;
        return pt__step_block[pt__row3(c - w) | pt__row3(c) << 3 | pt__row3(c + w) << 6];
    }
    return pt__step_mask_edge(v, x, y);
}

/* ---- path ------------------------------------------------------------------------------ */

/* What a path walk reads of its pattern. */
typedef struct pt__path_walk {
    const pt_cell *cells; /* index i in [0, len) is cells[i] (pattern_shared.h: cells[ncells]) */
    int len;              /* length of the index sequence */
    pt_end_mode end;
} pt__path_walk;

static inline pt__path_walk pt__path_walk_of(const pt_pattern *p) {
    /* A closed path walked with stop or reverse ends where it began, so its index sequence
     * has cell 0 at both ends. */
    int cyclic = p->end == PT_END_LOOP || p->end == PT_END_RESTART;
    pt__path_walk w = {p->cells, cyclic ? p->ncells : p->ncells + (p->closed ? 1 : 0), p->end};
    return w;
}

/* Cell of index i in [0, len) placed at origin. */
PT__BODY pt_cell pt__path_cell(const pt__path_walk *w, pt_cell origin, int i) {
    pt_cell c = w->cells[i];
    return (pt_cell){origin.x + c.x, origin.y + c.y};
}

/* One action of a path walker at cell cur (the cell of *index) in end mode `end` (w->end;
 * a separate argument so that a caller can pass a constant). PT_STEP_DONE: a stop walk is at
 * its last index (*done = 1). PT_STEP_WAITING: blocked (nothing changes), a one-cell reverse
 * walk, or a step onto the same cell (*index moves on). PT_STEP_MOVED: *to = the new cell.
 * *dir (+1/-1) only matters to reverse walks. */
PT__BODY pt_step_result pt__path_step(const pt__path_walk *w, pt_end_mode end, pt_cell origin, pt_cell cur,
                                     int *index, int *dir, int *done, const pt__walkmap *m, pt_cell *to) {
    int next = *index, d = *dir;
    switch (end) {
    case PT_END_LOOP:
    case PT_END_RESTART: next = *index + 1 == w->len ? 0 : *index + 1; break;
    case PT_END_STOP:
        if (*index >= w->len - 1) {
            *done = 1;
            return PT_STEP_DONE;
        }
        next = *index + 1;
        break;
    case PT_END_REVERSE: /* ping-pong, the end cells are not repeated */
        if (w->len == 1) return PT_STEP_WAITING;
        next = *index + d;
        if (next < 0 || next >= w->len) {
            d = -d;
            next = *index + d;
        }
        break;
    }
    pt_cell c = pt__path_cell(w, origin, next);
    if (!pt__walk_ok(m, cur.x, cur.y, c.x, c.y)) return PT_STEP_WAITING;
    *index = next;
    *dir = d;
    if (c.x == cur.x && c.y == cur.y) return PT_STEP_WAITING;
    *to = c;
    return PT_STEP_MOVED;
}

/* The stop (index into p->looks) a path walker makes on arriving at walk index i, or -1. */
static inline int pt__path_stop(const pt_pattern *p, int i) {
    return p->look_of_cell ? p->look_of_cell[i % p->ncells] : -1;
}

/* ---- matrix ---------------------------------------------------------------------------- */

/* The 1-cells among the 8 neighbours of matrix cell (mx, my) (any cell, inside the matrix
 * or not): bit k = neighbour k. */
static inline unsigned pt__mat_neighbours(const pt_pattern *p, int mx, int my) {
    unsigned on = 0;
    for (int k = 0; k < 8; k++) {
        int x = mx + pt__dir_dx[k], y = my + pt__dir_dy[k];
        if (x >= 0 && y >= 0 && x < p->mw && y < p->mh && p->mat[(size_t)y * (size_t)p->mw + (size_t)x]) on |= 1u << k;
    }
    return on;
}

/* One action of a matrix walker at map cell (x, y), on = pt__mat_neighbours of its matrix
 * cell, prev = the direction of the cell it came from (8: none), PCG32 (state, inc). The
 * walk of ALGORITHMS.md: a random one of the 1-cells it may step to, minus the cell it came
 * from; back to that cell only at a dead end. Returns the direction taken, or -1 (no
 * candidate: it stays). */
PT__BODY int pt__mat_step(unsigned on, const pt__walkmap *m, int x, int y, int prev, uint64_t *state, uint64_t inc) {
    unsigned ok = on & pt__step_mask(m, x, y);
    unsigned prevbit = (1u << prev) & 0xFFu, cand = ok & ~prevbit;
    if (cand) return pt__bit_select[cand * 8u + pt__pcg32_below(state, inc, pt__bit_count[cand])];
    if (ok & prevbit) return prev;
    return -1;
}

/* ---- control --------------------------------------------------------------------------- */

/* What a control action reads and writes of a walker. */
typedef struct pt__ctl {
    double deg;      /* the exact heading in degrees, [0, 360) */
    int32_t x, y;
    int32_t index, sub; /* instruction, steps done inside it */
    uint8_t done;
    uint8_t d8;      /* pt__dir8_index(deg), kept with it */
    uint8_t gait;    /* pt_gait */
} pt__ctl;

/* One control action. *wait = the amount of a `wait` or `look` instruction (hold that many
 * ticks), -1 for the others; *look = the look's index into p->looks (-1 for the others);
 * *lap = 1 when the pass wrapped to instruction 0; *target = the cell a
 * forward/backward step tried to enter (unchanged for other actions), *blocked = 1 when
 * pt_map_step_ok refused it. A finished walker does nothing (PT_STEP_DONE). */
PT__BODY pt_step_result pt__ctl_step(const pt_pattern *p, pt__ctl *s, const pt__walkmap *m, int *wait, int *look,
                                    int *lap, pt_cell *target, int *blocked) {
    *wait = -1;
    *look = -1;
    *lap = 0;
    *blocked = 0;
    if (s->done) return PT_STEP_DONE;
    const pt_instr *in = &p->ins[s->index];
    pt_step_result r = PT_STEP_WAITING;
    int advance = 1;
    switch ((pt_op)in->op) {
    case PT_OP_FORWARD:
    case PT_OP_BACKWARD: {
        int sign = in->op == PT_OP_FORWARD ? 1 : -1;
        pt_cell t = {s->x + sign * pt__dir_dx[s->d8], s->y + sign * pt__dir_dy[s->d8]};
        *target = t;
        /* A blocked step is skipped, not retried: the pattern keeps its rhythm (lint
         * reports the cell). */
        if (pt__walk_ok(m, s->x, s->y, t.x, t.y)) {
            s->x = t.x;
            s->y = t.y;
            r = PT_STEP_MOVED;
        } else {
            *blocked = 1;
        }
        advance = ++s->sub >= in->amount;
        break;
    }
    case PT_OP_LEFT:
    case PT_OP_RIGHT:
        s->deg = pt__norm_deg(s->deg + (in->op == PT_OP_RIGHT ? in->degrees : -in->degrees));
        s->d8 = (uint8_t)pt__dir8_index(s->deg);
        r = PT_STEP_TURNED;
        break;
    case PT_OP_WAIT: *wait = in->amount; break;
    case PT_OP_LOOK:
        *wait = in->amount;
        *look = in->look;
        break;
    case PT_OP_GAIT: s->gait = (uint8_t)in->amount; break;
    }
    if (advance) {
        s->sub = 0;
        if (++s->index >= p->nins) {
            if (p->end == PT_END_STOP) {
                s->index = p->nins - 1;
                s->done = 1;
            } else {
                s->index = 0;
                *lap = 1;
            }
        }
    }
    return r;
}

#endif
