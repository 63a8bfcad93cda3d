/* SPDX-License-Identifier: Zlib */
/* parse_priv.h - what the two halves of the .pat parser share (parse.c: blocks, finishing,
 * the text; parse_lines.c: the lines inside a block): the pattern being built, the parser's
 * state, its small error helpers, and the line readers parse.c calls. */
#ifndef PATROL_PATTERN_PARSE_PRIV_H
#define PATROL_PATTERN_PARSE_PRIV_H

#include <patrol/pattern.h>

#include <stdint.h>

#include "base/text.h"

/* ---- the builder: one pattern being parsed --------------------------------------- */

typedef struct rep_frame {
    int start;            /* first item of the block */
    long start_actions;   /* control: actions before the block */
    int count;
    int line, col;        /* the `repeat` keyword */
    int count_col;        /* its count */
} rep_frame;

typedef struct builder {
    pt_pattern *p;
    /* `seen_x` = line of the first occurrence (0 = not seen), for duplicate keys. */
    int seen_kind, seen_origin, seen_end, seen_heading, seen_start, seen_body, seen_closed, seen_radius;
    int has_closed, closed_val;
    int start_wx, start_wy, start_line, start_col;
    int vcap;
    /* matrix rows */
    int in_rows, rows_line, rows_col, seen_rows, seen_segments, seg_line;
    int rcap, rlcap;
    /* control / thrust items */
    int icap;
    long actions;
    rep_frame stack[PT_MAX_NESTING];
    int depth;
    int lcap;
    /* path: per point, its stop (index into looks, -1), gait (-1) and the items given
     * (bits: 1 wait, 2 look, 4 angles, 8 gait); vn entries are set, vpcap allocated. */
    int *vlook; int8_t *vgait; uint8_t *vseen;
    int vn, vpcap;
    int *vcell_scratch;   /* finish_path: the cell of each point with items */
    int seen_gait;
} builder;

typedef struct parser {
    pt__reader r;
    pt__line ln;
    pt_error *err;
    const pt_patlib *lib;
    const char *file;
    pt_pattern **out;
    int nout, capout;
    long used;             /* cells and instructions of the library so far (PT_MAX_LIBRARY_STEPS) */
} parser;

/* PT_ERR_LIMIT at line:col when the library would hold more than its limit with the current
 * pattern at `size`. */
static inline int library_budget(parser *ps, long size, int line, int col) {
    if (ps->used + size <= PT_MAX_LIBRARY_STEPS) return PT_OK;
    return pt_error_set(ps->err, PT_ERR_LIMIT, line, col,
                        "the pattern library passes the limit of %d cells and instructions in all here",
                        PT_MAX_LIBRARY_STEPS);
}

static inline int nomem(parser *ps, int line) {
    return pt_error_set(ps->err, PT_ERR_NOMEM, line, 0, "out of memory");
}

static inline const pt__tok *tok(parser *ps, int i) { return &ps->ln.tok[i]; }
/* The column just past the line's last token (for "needs a value" errors). */
int pt__pat_end_col(parser *ps);
/* The line must have exactly n values after its key. */
int pt__pat_want_args(parser *ps, int n, const char *what);

static inline int duplicate(parser *ps, int *seen, const pt__tok *t) {
    if (*seen)
        return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, t->col, "'%.*s' is given twice (first on line %d)",
                            t->len, t->s, *seen);
    *seen = ps->ln.no;
    return PT_OK;
}

/* ---- parse_lines.c: one line of a block, by kind (1: not a key of the kind, < 0: error) ---- */

int pt__pat_control_line(parser *ps, builder *b);
int pt__pat_thrust_line(parser *ps, builder *b);
int pt__pat_path_line(parser *ps, builder *b);
int pt__pat_waypoints_line(parser *ps, builder *b);
int pt__pat_matrix_line(parser *ps, builder *b);
/* A line between `rows` and its `end`. */
int pt__pat_row_line(parser *ps, builder *b);
/* `end` of the innermost `repeat` block: its items are copied count - 1 times. */
int pt__pat_close_repeat(parser *ps, builder *b);
/* A stop's defaults: a look of PT_LOOK_DEFAULT_TICKS, to +-PT_LOOK_DEFAULT_DEG. */
void pt__pat_look_defaults(pt_look *lk, int looks, int has_angles);

#endif
