/* SPDX-License-Identifier: Zlib */
/* The .pat parser and the pattern library. The syntax and every error are documented in
 * docs/formats.md ("Pattern files"). */
#include <patrol/bresenham.h>
#include <patrol/pattern.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error_at.h"
#include "base/suggest.h"
#include "pattern/unknown.h"
#include "pattern/pattern_shared.h"
#include "base/text.h"

static const char *const kind_words[] = {"control", "path", "matrix", "thrust", "waypoints", NULL};
static const char *const path_end_words[] = {"loop", "stop", "reverse", "restart", NULL};
static const char *const seq_end_words[] = {"loop", "stop", NULL};
static const char *const thruster_words[] = {"none", "port", "starboard", NULL};
static const char *const gait_words[] = {"walk", "sneak", "run", NULL}; /* pt_gait order */
static const char *const point_keys[] = {"wait", "look", "angles", "gait", NULL};
static const char *const body_keys[] = {"mass", "inertia", "thrust", "turn_thrust", "arm",
                                        "drag", "angular_drag", "lateral_drag", NULL};

/* Keys per kind, for "unknown key" messages that say where a key does belong. */
static const char *const keys_of[PT_PAT_KIND_COUNT] = {
    "heading, forward, backward, left, right, wait, look, gait, repeat, at_end",
    "points, at_end, gait",
    "rows, segments, start",
    "heading, body, fire, repeat, at_end",
    "points, closed, radius",
};

/* 1 when word is one of the list's comma-separated words. */
static int list_has(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *c = list; *c;) {
        size_t len = strcspn(c, ",");
        if (len == n && memcmp(c, word, n) == 0) return 1;
        c += len;
        while (*c == ',' || *c == ' ') c++;
    }
    return 0;
}

const char *pt_pattern_kind_name(pt_pattern_kind k) {
    return (unsigned)k < PT_PAT_KIND_COUNT ? kind_words[k] : "unknown";
}

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

void pt__pattern_free(pt_pattern *p) {
    if (!p) return;
    PT_FREE(p->cells);
    PT_FREE(p->src_of_cell);
    PT_FREE(p->verts);
    PT_FREE(p->vert_line);
    PT_FREE(p->vert_col);
    PT_FREE(p->vert_new_poly);
    PT_FREE(p->mat);
    PT_FREE(p->row_line);
    PT_FREE(p->row_col);
    PT_FREE(p->ins);
    PT_FREE(p->thr);
    PT_FREE(p->looks);
    PT_FREE(p->look_of_cell);
    PT_FREE(p->gait_of_cell);
    PT_FREE(p);
}

/* What a pattern holds after expansion: path cells, control/thrust instructions, matrix
 * cells. Each is at most PT_MAX_PATTERN_STEPS (a matrix PT_MAX_MATRIX_DIM^2), and the
 * library as a whole at most PT_MAX_LIBRARY_STEPS: without it, 1024 patterns of a few bytes
 * each (`repeat 65536` around one instruction) would expand to gigabytes. */
static long pattern_size(const pt_pattern *p) {
    return (long)p->ncells + p->nins + p->nthr + (p->mat ? (long)p->mw * p->mh : 0);
}

/* PT_ERR_LIMIT at line:col when the library would hold more than its limit with the current
 * pattern at `size`. */
static int library_budget(parser *ps, long size, int line, int col) {
    if (ps->used + size <= PT_MAX_LIBRARY_STEPS) return PT_OK;
    return pt_error_set(ps->err, PT_ERR_LIMIT, line, col,
                        "the pattern library passes the limit of %d cells and instructions in all here",
                        PT_MAX_LIBRARY_STEPS);
}

static int nomem(parser *ps, int line) {
    return pt_error_set(ps->err, PT_ERR_NOMEM, line, 0, "out of memory");
}

/* Grows *arr (elements of size elem) to hold need elements; the capacity doubles. Every
 * caller has checked need against a limit from config.h first. */
static int grow(void **arr, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    int nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    void *n = PT_REALLOC(*arr, (size_t)nc * elem);
    if (!n) return 0;
    *arr = n;
    *cap = nc;
    return 1;
}

static const pt__tok *tok(parser *ps, int i) { return &ps->ln.tok[i]; }
static int end_col(parser *ps) {
    const pt__tok *t = tok(ps, ps->ln.ntok - 1);
    return t->col + t->len + (t->quoted ? 2 : 0);
}

/* The line must have exactly n values after its key. */
static int want_args(parser *ps, int n, const char *what) {
    if (ps->ln.ntok < 1 + n)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, end_col(ps), "'%.*s' needs %s", tok(ps, 0)->len,
                            tok(ps, 0)->s, what);
    if (ps->ln.ntok > 1 + n)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, 1 + n)->col, "unexpected '%.*s' after %s",
                            tok(ps, 1 + n)->len > 40 ? 40 : tok(ps, 1 + n)->len, tok(ps, 1 + n)->s, what);
    return PT_OK;
}

static int duplicate(parser *ps, int *seen, const pt__tok *t) {
    if (*seen)
        return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, t->col, "'%.*s' is given twice (first on line %d)",
                            t->len, t->s, *seen);
    *seen = ps->ln.no;
    return PT_OK;
}

/* Next line with at least one token: 1, 0 at the end of the text, < 0 on error. */
static int next_line(parser *ps) {
    for (;;) {
        int rc = pt__reader_next(&ps->r, &ps->ln, ps->err);
        if (rc <= 0) return rc;
        rc = pt__line_tokenize(&ps->ln, ps->err);
        if (rc < 0) return rc;
        if (ps->ln.ntok > 0) return 1;
    }
}

/* ---- vertices ------------------------------------------------------------------------ */

static int add_vertex(parser *ps, builder *b, const pt__tok *t, double x, double y, int new_poly) {
    pt_pattern *p = b->p;
    if (p->nverts >= PT_MAX_PATTERN_VERTS)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, t->col, "more than %d points in one pattern",
                            PT_MAX_PATTERN_VERTS);
    int need = p->nverts + 1, c1 = b->vcap, c2 = b->vcap, c3 = b->vcap, c4 = b->vcap;
    if (!grow((void **)&p->verts, &c1, need, sizeof *p->verts) ||
        !grow((void **)&p->vert_line, &c2, need, sizeof *p->vert_line) ||
        !grow((void **)&p->vert_col, &c3, need, sizeof *p->vert_col) ||
        !grow((void **)&p->vert_new_poly, &c4, need, sizeof *p->vert_new_poly))
        return nomem(ps, ps->ln.no);
    b->vcap = c1;
    p->verts[p->nverts] = pt_v2(x, y);
    p->vert_line[p->nverts] = ps->ln.no;
    p->vert_col[p->nverts] = t->col;
    p->vert_new_poly[p->nverts] = (uint8_t)new_poly;
    p->nverts++;
    return PT_OK;
}

/* ---- durations, looks and gaits --------------------------------------------------------- */

/* `N` ticks or `Xs` seconds (PT_PATTERN_TICK_HZ ticks a second), 1..PT_MAX_REPEAT ticks. */
static int parse_duration(parser *ps, const pt__tok *t, int *ticks) {
    if (t->len > 1 && !t->quoted && t->s[t->len - 1] == 's') {
        pt__tok n = *t;
        n.len--;
        double sec = 0.0;
        int rc = pt__tok_num(&n, ps->ln.no, 0.0, 1e9, &sec, ps->err);
        if (rc < 0) return rc;
        double tk = floor(sec * PT_PATTERN_TICK_HZ + 0.5);
        if (tk < 1.0 || tk > PT_MAX_REPEAT)
            return pt_error_set(ps->err, PT_ERR_RANGE, ps->ln.no, t->col,
                                "a duration takes 1 tick (1/%d s) to %d ticks (%.2f s)", PT_PATTERN_TICK_HZ,
                                PT_MAX_REPEAT, (double)PT_MAX_REPEAT / PT_PATTERN_TICK_HZ);
        *ticks = (int)tk;
        return PT_OK;
    }
    int rc = pt__tok_int(t, ps->ln.no, 1, PT_MAX_REPEAT, ticks, ps->err);
    double x;
    pt_error quiet;
    if (rc == PT_ERR_BAD_NUMBER && pt__tok_num(t, ps->ln.no, 0.0, 1e9, &x, &quiet) == PT_OK)
        return pt_error_set(ps->err, PT_ERR_BAD_NUMBER, ps->ln.no, t->col,
                            "a duration without 's' is whole ticks: did you mean '%.*ss' (seconds)?",
                            t->len > 40 ? 40 : t->len, t->s);
    return rc;
}

/* `angles=A,B,...`: degrees relative to the facing, each in [-180, 180]. */
static int parse_angles(parser *ps, const pt__tok *val, pt_look *lk) {
    lk->nangles = 0;
    int start = 0;
    for (int i = 0; i <= val->len; i++) {
        if (i < val->len && val->s[i] != ',') continue;
        pt__tok a = {val->s + start, i - start, val->col + start, 0};
        if (a.len == 0)
            return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, a.col, "expected an angle in degrees here");
        if (lk->nangles >= PT_MAX_LOOK_ANGLES)
            return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, a.col, "more than %d angles in one look",
                                PT_MAX_LOOK_ANGLES);
        int rc = pt__tok_num(&a, ps->ln.no, -180.0, 180.0, &lk->angles[lk->nangles], ps->err);
        if (rc < 0) return rc;
        lk->nangles++;
        start = i + 1;
    }
    return PT_OK;
}

static void look_defaults(pt_look *lk, int looks, int has_angles) {
    if (!looks) return;
    if (lk->look == 0) lk->look = PT_LOOK_DEFAULT_TICKS;
    if (!has_angles) {
        lk->nangles = 2;
        lk->angles[0] = -PT_LOOK_DEFAULT_DEG;
        lk->angles[1] = PT_LOOK_DEFAULT_DEG;
    }
}

static int add_look(parser *ps, builder *b, const pt_look *lk, const pt__tok *at) {
    pt_pattern *p = b->p;
    if (p->nlooks >= PT_MAX_PATTERN_VERTS)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, at->col, "more than %d looks and waits in one pattern",
                            PT_MAX_PATTERN_VERTS);
    if (!grow((void **)&p->looks, &b->lcap, p->nlooks + 1, sizeof *p->looks)) return nomem(ps, ps->ln.no);
    p->looks[p->nlooks] = *lk;
    return p->nlooks++;
}

static int unknown_word(parser *ps, const pt__tok *k, const char *const *words, const char *what, const char *list) {
    pt__suggest sg;
    char hint[128], other[96];
    pt__suggest_init(&sg, k->s, (size_t)k->len);
    pt__suggest_words(&sg, words);
    snprintf(other, sizeof other, " (%s)", list);
    return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, k->col, "'%.*s' is not %s%s", k->len > 40 ? 40 : k->len,
                        k->s, what, pt__suggest_hint(&sg, other, hint, sizeof hint));
}

/* A path point's item (`wait=`, `look[=]`, `angles=`, `gait=`): it applies to the point
 * written before it. */
static int point_item(parser *ps, builder *b, const pt__tok *t) {
    pt_pattern *p = b->p;
    pt__tok key = *t, val = {0};
    int has_val = pt__tok_kv(t, &key, &val), which = -1;
    for (int j = 0; point_keys[j]; j++)
        if (pt__tok_eq(&key, point_keys[j])) which = j;
    if (which < 0) return unknown_word(ps, &key, point_keys, "something a point can have", "wait, look, angles, gait");
    if (p->nverts == 0)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, t->col,
                            "'%s' needs a point before it (it applies to the point it follows)", point_keys[which]);
    if (!has_val && which != 1)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, t->col + t->len, "'%s' needs =%s", point_keys[which],
                            which == 0 ? "DURATION" : which == 2 ? "A,B,..." : "sneak|walk|run");
    if (b->vpcap < p->nverts) {
        int c1 = b->vpcap, c2 = b->vpcap, c3 = b->vpcap;
        if (!grow((void **)&b->vlook, &c1, p->nverts, sizeof *b->vlook) ||
            !grow((void **)&b->vgait, &c2, p->nverts, sizeof *b->vgait) ||
            !grow((void **)&b->vseen, &c3, p->nverts, sizeof *b->vseen))
            return nomem(ps, ps->ln.no);
        b->vpcap = c1;
    }
    for (; b->vn < p->nverts; b->vn++) {
        b->vlook[b->vn] = -1;
        b->vgait[b->vn] = -1;
        b->vseen[b->vn] = 0;
    }
    int v = p->nverts - 1, rc;
    if (b->vseen[v] & (1u << which))
        return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, key.col, "'%s' is given twice for this point",
                            point_keys[which]);
    b->vseen[v] |= (uint8_t)(1u << which);
    if (which == 3) {
        int g = 0;
        if ((rc = pt__tok_choice(&val, ps->ln.no, gait_words, &g, ps->err)) < 0) return rc;
        b->vgait[v] = (int8_t)g;
        return PT_OK;
    }
    if (b->vlook[v] < 0) {
        pt_look lk;
        memset(&lk, 0, sizeof lk);
        lk.line = ps->ln.no;
        lk.col = t->col;
        if ((rc = add_look(ps, b, &lk, t)) < 0) return rc;
        b->vlook[v] = rc;
    }
    pt_look *lk = &p->looks[b->vlook[v]];
    if (which == 0) return parse_duration(ps, &val, &lk->wait);
    if (which == 1) return has_val ? parse_duration(ps, &val, &lk->look) : PT_OK;
    return parse_angles(ps, &val, lk);
}

/* `points` / `segments`: one or more X,Y values (whole numbers unless continuous). */
static int parse_points(parser *ps, builder *b, int continuous, int new_poly) {
    if (ps->ln.ntok < 2) return want_args(ps, 1, "at least one X,Y point");
    for (int i = 1; i < ps->ln.ntok; i++) {
        double x, y;
        int rc;
        pt__tok key, val;
        int bare = 0;
        for (int j = 0; point_keys[j]; j++) bare |= pt__tok_eq(tok(ps, i), point_keys[j]);
        if (bare || pt__tok_kv(tok(ps, i), &key, &val)) {
            if (b->p->kind != PT_PAT_PATH)
                return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, tok(ps, i)->col,
                                    "only the points of a path pattern take wait=, look, angles= and gait=");
            if ((rc = point_item(ps, b, tok(ps, i))) < 0) return rc;
            continue;
        }
        if (continuous) {
            rc = pt__tok_point(tok(ps, i), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &x, &y, ps->err);
        } else {
            int ix = 0, iy = 0;
            rc = pt__tok_cell(tok(ps, i), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &ix, &iy, ps->err);
            x = ix;
            y = iy;
        }
        if (rc < 0) return rc;
        rc = add_vertex(ps, b, tok(ps, i), x, y, new_poly && i == 1);
        if (rc < 0) return rc;
    }
    return PT_OK;
}

/* ---- control and thrust items with repeat blocks --------------------------------------- */

static int item_size(const pt_pattern *p) { return p->kind == PT_PAT_CONTROL ? (int)sizeof(pt_instr) : (int)sizeof(pt_thrust_instr); }
static void **items_of(pt_pattern *p) { return p->kind == PT_PAT_CONTROL ? (void **)&p->ins : (void **)&p->thr; }
static int *nitems_of(pt_pattern *p) { return p->kind == PT_PAT_CONTROL ? &p->nins : &p->nthr; }

static int add_item(parser *ps, builder *b, const void *item, long actions, const pt__tok *at) {
    pt_pattern *p = b->p;
    int *n = nitems_of(p);
    if (*n >= PT_MAX_PATTERN_STEPS || b->actions + actions > PT_MAX_PATTERN_STEPS)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, at->col,
                            "the pattern passes the limit of %d steps in one pass", PT_MAX_PATTERN_STEPS);
    int rc = library_budget(ps, *n + 1, ps->ln.no, at->col);
    if (rc < 0) return rc;
    if (!grow(items_of(p), &b->icap, *n + 1, (size_t)item_size(p))) return nomem(ps, ps->ln.no);
    memcpy((char *)*items_of(p) + (size_t)*n * (size_t)item_size(p), item, (size_t)item_size(p));
    (*n)++;
    b->actions += actions;
    return PT_OK;
}

static int open_repeat(parser *ps, builder *b) {
    int rc = want_args(ps, 1, "a count");
    if (rc < 0) return rc;
    if (b->depth >= PT_MAX_NESTING)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, tok(ps, 0)->col,
                            "repeat blocks nest deeper than the limit of %d", PT_MAX_NESTING);
    int count = 0;
    rc = pt__tok_int(tok(ps, 1), ps->ln.no, 1, 1000000000L, &count, ps->err);
    if (rc < 0) return rc;
    if (count > PT_MAX_REPEAT)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, tok(ps, 1)->col, "repeat count %d is above the limit of %d",
                            count, PT_MAX_REPEAT);
    rep_frame *f = &b->stack[b->depth++];
    f->start = *nitems_of(b->p);
    f->start_actions = b->actions;
    f->count = count;
    f->line = ps->ln.no;
    f->col = tok(ps, 0)->col;
    f->count_col = tok(ps, 1)->col;
    return PT_OK;
}

/* `end` of a repeat block: the block's items are copied count-1 more times. */
static int close_repeat(parser *ps, builder *b) {
    rep_frame *f = &b->stack[--b->depth];
    pt_pattern *p = b->p;
    int *n = nitems_of(p);
    long len = *n - f->start, acts = b->actions - f->start_actions;
    if (len == 0) return pt_error_set(ps->err, PT_ERR_EMPTY, f->line, f->col, "empty repeat block");
    long long total = (long long)f->start + len * (long long)f->count;
    long long total_actions = (long long)f->start_actions + acts * (long long)f->count;
    if (total > PT_MAX_PATTERN_STEPS || total_actions > PT_MAX_PATTERN_STEPS)
        return pt_error_set(ps->err, PT_ERR_LIMIT, f->line, f->count_col,
                            "repeating this block %d times passes the limit of %d steps in one pass", f->count,
                            PT_MAX_PATTERN_STEPS);
    int rc = library_budget(ps, (long)total, f->line, f->count_col);
    if (rc < 0) return rc;
    if (!grow(items_of(p), &b->icap, (int)total, (size_t)item_size(p))) return nomem(ps, ps->ln.no);
    char *base = (char *)*items_of(p);
    size_t sz = (size_t)item_size(p), block = (size_t)len * sz;
    for (int k = 1; k < f->count; k++) memcpy(base + (size_t)(f->start + k * len) * sz, base + (size_t)f->start * sz, block);
    *n = (int)total;
    b->actions = (long)total_actions;
    return PT_OK;
}

static int parse_heading(parser *ps, builder *b) {
    int rc = duplicate(ps, &b->seen_heading, tok(ps, 0));
    if (rc < 0 || (rc = want_args(ps, 1, "an angle in degrees")) < 0) return rc;
    rc = pt__tok_num(tok(ps, 1), ps->ln.no, -360.0, 360.0, &b->p->heading_deg, ps->err);
    b->p->has_heading = 1;
    return rc;
}

static int parse_at_end(parser *ps, builder *b, const char *const *words) {
    int rc = duplicate(ps, &b->seen_end, tok(ps, 0));
    if (rc < 0 || (rc = want_args(ps, 1, "what to do at the end")) < 0) return rc;
    int v = 0;
    rc = pt__tok_choice(tok(ps, 1), ps->ln.no, words, &v, ps->err);
    b->p->end = (pt_end_mode)v;
    b->p->end_line = ps->ln.no;
    b->p->end_col = tok(ps, 1)->col;
    return rc;
}

static int control_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    pt_instr in;
    memset(&in, 0, sizeof in);
    in.line = ps->ln.no;
    in.col = k->col;
    int rc;
    if (pt__tok_eq(k, "forward") || pt__tok_eq(k, "backward")) {
        in.op = pt__tok_eq(k, "forward") ? PT_OP_FORWARD : PT_OP_BACKWARD;
        if ((rc = want_args(ps, 1, "a number of tiles")) < 0) return rc;
        if ((rc = pt__tok_int(tok(ps, 1), ps->ln.no, 1, 1000000000L, &in.amount, ps->err)) < 0) return rc;
        return add_item(ps, b, &in, in.amount, tok(ps, 1)); /* the steps limit bounds it */
    }
    if (pt__tok_eq(k, "left") || pt__tok_eq(k, "right")) {
        in.op = pt__tok_eq(k, "left") ? PT_OP_LEFT : PT_OP_RIGHT;
        if ((rc = want_args(ps, 1, "an angle in degrees")) < 0) return rc;
        if ((rc = pt__tok_num(tok(ps, 1), ps->ln.no, 0.0, 360.0, &in.degrees, ps->err)) < 0) return rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "wait")) {
        in.op = PT_OP_WAIT;
        if ((rc = want_args(ps, 1, "a duration (ticks, or seconds as 1.5s)")) < 0) return rc;
        if ((rc = parse_duration(ps, tok(ps, 1), &in.amount)) < 0) return rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "look")) {
        pt_look lk;
        memset(&lk, 0, sizeof lk);
        lk.line = ps->ln.no;
        lk.col = k->col;
        int seen_dur = 0, seen_angles = 0;
        for (int i = 1; i < ps->ln.ntok; i++) {
            pt__tok key, val;
            if (pt__tok_kv(tok(ps, i), &key, &val)) {
                static const char *const look_keys[] = {"angles", NULL};
                if (!pt__tok_eq(&key, "angles")) return unknown_word(ps, &key, look_keys, "a setting of look", "angles");
                if (seen_angles++)
                    return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, key.col, "'angles' is given twice");
                if ((rc = parse_angles(ps, &val, &lk)) < 0) return rc;
            } else {
                if (seen_dur++)
                    return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, i)->col,
                                        "unexpected '%.*s' after the duration", tok(ps, i)->len > 40 ? 40 : tok(ps, i)->len,
                                        tok(ps, i)->s);
                if ((rc = parse_duration(ps, tok(ps, i), &lk.look)) < 0) return rc;
            }
        }
        look_defaults(&lk, 1, seen_angles);
        if ((rc = add_look(ps, b, &lk, k)) < 0) return rc;
        in.op = PT_OP_LOOK;
        in.amount = lk.look;
        in.look = rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "gait")) {
        in.op = PT_OP_GAIT;
        if ((rc = want_args(ps, 1, "a gait (sneak, walk, run)")) < 0) return rc;
        if ((rc = pt__tok_choice(tok(ps, 1), ps->ln.no, gait_words, &in.amount, ps->err)) < 0) return rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "repeat")) return open_repeat(ps, b);
    if (pt__tok_eq(k, "heading")) return parse_heading(ps, b);
    if (pt__tok_eq(k, "at_end")) return parse_at_end(ps, b, seq_end_words);
    return 1; /* not a control key */
}

static int parse_body(parser *ps, builder *b) {
    int rc = duplicate(ps, &b->seen_body, tok(ps, 0));
    if (rc < 0) return rc;
    if (ps->ln.ntok < 2) return want_args(ps, 1, "key=value settings");
    int seen[8] = {0};
    for (int i = 1; i < ps->ln.ntok; i++) {
        pt__tok key, val;
        if (!pt__tok_kv(tok(ps, i), &key, &val))
            return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, i)->col, "expected key=value, found '%.*s'",
                                tok(ps, i)->len > 40 ? 40 : tok(ps, i)->len, tok(ps, i)->s);
        int which = -1;
        for (int j = 0; body_keys[j]; j++)
            if (pt__tok_eq(&key, body_keys[j])) which = j;
        if (which < 0) {
            pt__suggest sg;
            char hint[128];
            pt__suggest_init(&sg, key.s, (size_t)key.len);
            pt__suggest_words(&sg, body_keys);
            return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, key.col, "'%.*s' is not a body setting%s",
                                key.len > 40 ? 40 : key.len, key.s,
                                pt__suggest_hint(&sg,
                                                 " (mass, inertia, thrust, turn_thrust, arm, drag, angular_drag, "
                                                 "lateral_drag)",
                                                 hint, sizeof hint));
        }
        if (seen[which]++)
            return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, key.col, "'%s' is given twice", body_keys[which]);
        double v = 0;
        if ((rc = pt__tok_num_key(&val, ps->ln.no, body_keys[which], 0.0, PT_THRUST_BODY_MAX, 0, &v, ps->err)) < 0) return rc;
        /* 0 means default; a tiny positive value would make thrust/mass overflow to Inf
         * (mass=1e-307 thrust=1e6): the vehicle would leave with a NaN position. */
        if (v > 0.0 && v < PT_THRUST_BODY_MIN)
            return pt_error_set(ps->err, PT_ERR_RANGE, ps->ln.no, val.col,
                                "%s must be 0 (default) or at least %g", body_keys[which], PT_THRUST_BODY_MIN);
        double *dst[8] = {&b->p->body.mass, &b->p->body.inertia, &b->p->body.thrust, &b->p->body.turn_thrust,
                          &b->p->body.arm, &b->p->body.drag, &b->p->body.angular_drag, &b->p->body.lateral_drag};
        *dst[which] = v;
    }
    return PT_OK;
}

static int parse_fire(parser *ps, builder *b) {
    pt_thrust_instr in;
    memset(&in, 0, sizeof in);
    in.line = ps->ln.no;
    in.col = tok(ps, 0)->col;
    if (ps->ln.ntok < 2) return want_args(ps, 1, "a thruster (none, port, starboard) and a limit");
    int v = 0, rc = pt__tok_choice(tok(ps, 1), ps->ln.no, thruster_words, &v, ps->err);
    if (rc < 0) return rc;
    in.thruster = (uint8_t)v;
    if (ps->ln.ntok < 3)
        return pt_error_set(ps->err, PT_ERR_MISSING, ps->ln.no, end_col(ps),
                            "'fire' needs a limit: turn=DEGREES, distance=TILES or time=SECONDS");
    for (int i = 2; i < ps->ln.ntok; i++) {
        pt__tok key, val;
        if (!pt__tok_kv(tok(ps, i), &key, &val))
            return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, i)->col, "expected key=value, found '%.*s'",
                                tok(ps, i)->len > 40 ? 40 : tok(ps, i)->len, tok(ps, i)->s);
        uint8_t *flag;
        double *dst, hi;
        if (pt__tok_eq(&key, "turn")) {
            if (in.thruster == PT_THRUST_NONE)
                return pt_error_set(ps->err, PT_ERR_BAD_VALUE, ps->ln.no, key.col,
                                    "a turn limit needs a firing thruster (port or starboard)");
            flag = &in.limit_heading;
            dst = &in.heading_limit;
            hi = 180.0;
        } else if (pt__tok_eq(&key, "distance")) {
            flag = &in.limit_position;
            dst = &in.position_limit;
            hi = 1e5;
        } else if (pt__tok_eq(&key, "time")) {
            flag = &in.limit_time;
            dst = &in.time_limit;
            hi = 1e5;
        } else {
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, key.s, (size_t)key.len);
            pt__suggest_list(&sg, "turn, distance, time");
            return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, key.col, "'%.*s' is not a limit%s",
                                key.len > 40 ? 40 : key.len, key.s,
                                pt__suggest_hint(&sg, " (turn, distance, time)", hint, sizeof hint));
        }
        if (*flag) return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, key.col, "'%.*s' is given twice", key.len, key.s);
        char name[16];
        snprintf(name, sizeof name, "%.*s", key.len, key.s);
        if ((rc = pt__tok_num_key(&val, ps->ln.no, name, 0.0, hi, 1, dst, ps->err)) < 0) return rc;
        *flag = 1;
    }
    return add_item(ps, b, &in, 1, tok(ps, 0));
}

static int thrust_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    if (pt__tok_eq(k, "fire")) return parse_fire(ps, b);
    if (pt__tok_eq(k, "repeat")) return open_repeat(ps, b);
    if (pt__tok_eq(k, "heading")) return parse_heading(ps, b);
    if (pt__tok_eq(k, "body")) return parse_body(ps, b);
    if (pt__tok_eq(k, "at_end")) return parse_at_end(ps, b, seq_end_words);
    return 1;
}

/* ---- matrix ---------------------------------------------------------------------------- */

static int row_line(parser *ps, builder *b) {
    pt_pattern *p = b->p;
    const pt__tok *t = tok(ps, 0);
    if (ps->ln.ntok > 1)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, 1)->col,
                            "a matrix row is one item of 1/x (on) and 0/. (off) without blanks");
    int col0 = t->col + (t->quoted ? 1 : 0);
    if (t->len > PT_MAX_MATRIX_DIM)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, col0 + PT_MAX_MATRIX_DIM,
                            "matrix row is wider than the limit of %d", PT_MAX_MATRIX_DIM);
    if (p->mh >= PT_MAX_MATRIX_DIM)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, col0, "matrix has more rows than the limit of %d",
                            PT_MAX_MATRIX_DIM);
    int rc = library_budget(ps, (long)(p->mh + 1) * (p->mh ? p->mw : t->len), ps->ln.no, col0);
    if (rc < 0) return rc;
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        if (c != '1' && c != 'x' && c != 'X' && c != '0' && c != '.')
            return pt_error_set(ps->err, PT_ERR_BAD_VALUE, ps->ln.no, col0 + i,
                                "'%c' is not a matrix cell: use 1 or x (on), 0 or . (off)",
                                (unsigned char)c >= 32 && (unsigned char)c < 127 ? c : '?');
    }
    if (p->mh == 0) p->mw = t->len;
    if (t->len != p->mw)
        return pt_error_set(ps->err, PT_ERR_RAGGED_ROW, ps->ln.no, col0 + (t->len < p->mw ? t->len : p->mw),
                            "row has %d cells; the first row has %d", t->len, p->mw);
    int c1 = b->rlcap, c2 = b->rlcap;
    if (!grow((void **)&p->mat, &b->rcap, (p->mh + 1) * p->mw, 1) ||
        !grow((void **)&p->row_line, &c1, p->mh + 1, sizeof(int)) || !grow((void **)&p->row_col, &c2, p->mh + 1, sizeof(int)))
        return nomem(ps, ps->ln.no);
    b->rlcap = c1;
    for (int i = 0; i < t->len; i++) {
        char c = t->s[i];
        p->mat[p->mh * p->mw + i] = (uint8_t)(c == '1' || c == 'x' || c == 'X');
    }
    p->row_line[p->mh] = ps->ln.no;
    p->row_col[p->mh] = col0;
    p->mh++;
    return PT_OK;
}

static int matrix_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    int rc;
    if (pt__tok_eq(k, "rows") || pt__tok_eq(k, "segments")) {
        int rows = pt__tok_eq(k, "rows");
        int other = rows ? b->seen_segments : b->seen_rows;
        if (other)
            return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, k->col,
                                "the matrix is already given by %s on line %d: use rows or segments, not both",
                                rows ? "segments" : "rows", other);
        if (rows) {
            if ((rc = duplicate(ps, &b->seen_rows, k)) < 0 || (rc = want_args(ps, 0, "nothing (the rows follow)")) < 0)
                return rc;
            b->in_rows = 1;
            b->rows_line = ps->ln.no;
            b->rows_col = k->col;
            b->p->mat_line = ps->ln.no;
            return PT_OK;
        }
        if (!b->seen_segments) b->seen_segments = b->p->mat_line = ps->ln.no;
        return parse_points(ps, b, 0, 1);
    }
    if (pt__tok_eq(k, "start")) {
        if ((rc = duplicate(ps, &b->seen_start, k)) < 0 || (rc = want_args(ps, 1, "a cell X,Y")) < 0) return rc;
        b->start_line = ps->ln.no;
        b->start_col = tok(ps, 1)->col;
        return pt__tok_cell(tok(ps, 1), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &b->start_wx, &b->start_wy,
                            ps->err);
    }
    return 1;
}

static int waypoints_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    int rc;
    if (pt__tok_eq(k, "points")) return parse_points(ps, b, 1, b->p->nverts == 0);
    if (pt__tok_eq(k, "closed")) {
        if ((rc = duplicate(ps, &b->seen_closed, k)) < 0 || (rc = want_args(ps, 1, "yes or no")) < 0) return rc;
        b->has_closed = 1;
        return pt__tok_bool(tok(ps, 1), ps->ln.no, &b->closed_val, ps->err);
    }
    if (pt__tok_eq(k, "radius")) {
        if ((rc = duplicate(ps, &b->seen_radius, k)) < 0 || (rc = want_args(ps, 1, "a radius in tiles")) < 0) return rc;
        return pt__tok_num(tok(ps, 1), ps->ln.no, 0.0, 1000.0, &b->p->path_radius, ps->err);
    }
    return 1;
}

static int path_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    if (pt__tok_eq(k, "points")) return parse_points(ps, b, 0, b->p->nverts == 0);
    if (pt__tok_eq(k, "at_end")) return parse_at_end(ps, b, path_end_words);
    if (pt__tok_eq(k, "gait")) {
        int rc = duplicate(ps, &b->seen_gait, k), g = 0;
        if (rc < 0 || (rc = want_args(ps, 1, "a gait (sneak, walk, run)")) < 0) return rc;
        if ((rc = pt__tok_choice(tok(ps, 1), ps->ln.no, gait_words, &g, ps->err)) < 0) return rc;
        b->p->gait = (uint8_t)g;
        return PT_OK;
    }
    /* A stop's keys on a line of their own, `look 3s` or `look=3s`: they go after a point. */
    int klen = k->len;
    for (int i = 0; i < k->len && !k->quoted; i++)
        if (k->s[i] == '=') klen = i;
    pt__tok word = *k;
    word.len = klen;
    if (pt__tok_eq(&word, "wait") || pt__tok_eq(&word, "look"))
        return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, k->col,
                            "a path stops at a point: write %.*s after it (points 6,2 %s)", klen, k->s,
                            pt__tok_eq(&word, "wait") ? "wait=1s" : "look=2s");
    return 1;
}

/* ---- finishing a pattern ---------------------------------------------------------------- */

static int missing(parser *ps, const pt_pattern *p, const char *what) {
    return pt_error_set(ps->err, PT_ERR_MISSING, p->line, p->col, "pattern '%s' (%s) has no %s", p->name,
                        pt_pattern_kind_name(p->kind), what);
}

static int finish_path(parser *ps, builder *b) {
    pt_pattern *p = b->p;
    if (p->nverts == 0) return missing(ps, p, "points");
    if (p->nverts < 2)
        return pt_error_set(ps->err, PT_ERR_MISSING, p->vert_line[0], p->vert_col[0], "a path needs at least two points");
    int n = p->nverts;
    long total = 1;
    for (int i = 0; i + 1 < n; i++) {
        total += pt_line_length((int)p->verts[i].x, (int)p->verts[i].y, (int)p->verts[i + 1].x, (int)p->verts[i + 1].y) - 1;
        if (total > PT_MAX_PATTERN_STEPS)
            return pt_error_set(ps->err, PT_ERR_LIMIT, p->vert_line[i + 1], p->vert_col[i + 1],
                                "the path passes the limit of %d cells here", PT_MAX_PATTERN_STEPS);
        int rc = library_budget(ps, total, p->vert_line[i + 1], p->vert_col[i + 1]);
        if (rc < 0) return rc;
    }
    pt_cell v0 = {(int)p->verts[0].x, (int)p->verts[0].y}, vl = {(int)p->verts[n - 1].x, (int)p->verts[n - 1].y};
    p->closed = v0.x == vl.x && v0.y == vl.y;
    if (!b->seen_end) p->end = p->closed ? PT_END_LOOP : PT_END_REVERSE;
    /* Never a teleport: an open path that loops walks back; a closed one just continues. */
    if (!p->closed && p->end == PT_END_LOOP) p->end = PT_END_RESTART;
    if (p->closed && p->end == PT_END_RESTART) p->end = PT_END_LOOP;
    /* The way back of restart: from the last vertex's cell to cell 0, both excluded. */
    long back = 0;
    if (p->end == PT_END_RESTART) {
        back = pt_line_length(vl.x, vl.y, v0.x, v0.y) - 2;
        if (back < 0) back = 0;
        if (total + back > PT_MAX_PATTERN_STEPS)
            return pt_error_set(ps->err, PT_ERR_LIMIT, p->end_line ? p->end_line : p->line,
                                p->end_line ? p->end_col : p->col,
                                "the way back passes the limit of %d cells", PT_MAX_PATTERN_STEPS);
    }
    int rc = library_budget(ps, total + back, p->end_line ? p->end_line : p->line, p->end_line ? p->end_col : p->col);
    if (rc < 0) return rc;
    size_t cap = (size_t)(total + back);
    p->cells = PT_MALLOC((cap + 1) * sizeof *p->cells); /* + cells[ncells] (pattern_priv.h) */
    if (b->vn > 0 && !(b->vcell_scratch = PT_MALLOC((size_t)b->vn * sizeof *b->vcell_scratch))) return nomem(ps, p->line);
    p->src_of_cell = PT_MALLOC(cap * sizeof *p->src_of_cell);
    if (!p->cells || !p->src_of_cell) return nomem(ps, p->line);
    int k = 0;
    p->cells[k] = (pt_cell){0, 0};
    p->src_of_cell[k++] = 0;
    /* Point i's stop and gait go to the cell it is: vlook[i] moves to vcell. */
    int stops = b->vn;
    for (int i = 0; i + 1 < n; i++) {
        pt_line_iter it;
        int ex = (int)p->verts[i + 1].x, ey = (int)p->verts[i + 1].y;
        pt_line_iter_init(&it, (int)p->verts[i].x, (int)p->verts[i].y, ex, ey);
        while (pt_line_iter_next(&it)) { /* the first cell is the previous segment's last */
            p->cells[k] = (pt_cell){it.x - v0.x, it.y - v0.y};
            p->src_of_cell[k++] = (it.x == ex && it.y == ey) ? i + 1 : i;
        }
        if (i + 1 < stops) b->vcell_scratch[i + 1] = k - 1;
    }
    if (stops > 0) b->vcell_scratch[0] = 0;
    if (p->closed && k > 1) k--; /* the last cell is cell 0 again */
    if (stops > 0) {
        /* every cell of the walk, restart's way back included (no stops there) */
        p->look_of_cell = PT_MALLOC(cap * sizeof *p->look_of_cell);
        p->gait_of_cell = PT_MALLOC(cap);
        if (!p->look_of_cell || !p->gait_of_cell) return nomem(ps, p->line);
        for (size_t c = 0; c < cap; c++) {
            p->look_of_cell[c] = -1;
            p->gait_of_cell[c] = -1;
        }
        for (int i = 0; i < stops; i++) {
            int c = b->vcell_scratch[i] >= k ? 0 : b->vcell_scratch[i], lk = b->vlook[i];
            if (lk >= 0) {
                look_defaults(&p->looks[lk], b->vseen[i] & 6u, b->vseen[i] & 4u);
                if (p->look_of_cell[c] >= 0)
                    return pt_error_set(ps->err, PT_ERR_DUPLICATE, p->looks[lk].line, p->looks[lk].col,
                                        "point %d,%d is the cell of the walk where the stop of line %d already is: "
                                        "give one stop there",
                                        (int)p->verts[i].x, (int)p->verts[i].y, p->looks[p->look_of_cell[c]].line);
                p->look_of_cell[c] = lk;
            }
            if (b->vgait[i] >= 0) p->gait_of_cell[c] = b->vgait[i];
        }
    }
    p->ret_from = k;
    if (back > 0) {
        pt_line_iter it;
        pt_line_iter_init(&it, vl.x, vl.y, v0.x, v0.y);
        while (pt_line_iter_next(&it) && !(it.x == v0.x && it.y == v0.y)) {
            p->cells[k] = (pt_cell){it.x - v0.x, it.y - v0.y};
            p->src_of_cell[k++] = -1;
        }
    }
    p->ncells = k;
    p->cells[k] = p->cells[0];
    p->anchor_x = v0.x;
    p->anchor_y = v0.y;
    return PT_OK;
}

static int finish_matrix(parser *ps, builder *b) {
    pt_pattern *p = b->p;
    if (!b->seen_rows && !b->seen_segments) return missing(ps, p, "rows or segments");
    if (b->seen_segments) {
        int minx = 0, miny = 0, maxx = 0, maxy = 0;
        for (int i = 0; i < p->nverts; i++) {
            int x = (int)p->verts[i].x, y = (int)p->verts[i].y;
            if (i == 0 || x < minx) minx = x;
            if (i == 0 || y < miny) miny = y;
            if (i == 0 || x > maxx) maxx = x;
            if (i == 0 || y > maxy) maxy = y;
            if (maxx - minx + 1 > PT_MAX_MATRIX_DIM || maxy - miny + 1 > PT_MAX_MATRIX_DIM)
                return pt_error_set(ps->err, PT_ERR_LIMIT, p->vert_line[i], p->vert_col[i],
                                    "the segments span more than the limit of %d cells", PT_MAX_MATRIX_DIM);
        }
        p->mw = maxx - minx + 1;
        p->mh = maxy - miny + 1;
        p->mat_x0 = minx;
        p->mat_y0 = miny;
        int rc = library_budget(ps, (long)p->mw * p->mh, p->vert_line[0], p->vert_col[0]);
        if (rc < 0) return rc;
        p->mat = PT_CALLOC((size_t)p->mw * (size_t)p->mh, 1);
        if (!p->mat) return nomem(ps, p->line);
        for (int i = 0; i < p->nverts; i++) {
            int x = (int)p->verts[i].x, y = (int)p->verts[i].y;
            if (p->vert_new_poly[i] || i == 0) {
                p->mat[(size_t)(y - miny) * (size_t)p->mw + (size_t)(x - minx)] = 1;
                continue;
            }
            pt_line_iter it;
            pt_line_iter_init(&it, (int)p->verts[i - 1].x, (int)p->verts[i - 1].y, x, y);
            do p->mat[(size_t)(it.y - miny) * (size_t)p->mw + (size_t)(it.x - minx)] = 1;
            while (pt_line_iter_next(&it));
        }
    } else if (p->mh == 0) {
        return pt_error_set(ps->err, PT_ERR_EMPTY, b->rows_line, b->rows_col, "the rows block has no rows");
    }
    int ones = 0;
    for (long i = 0; i < (long)p->mw * p->mh; i++) ones += p->mat[i];
    if (ones == 0)
        return pt_error_set(ps->err, PT_ERR_EMPTY, p->mat_line, b->seen_rows ? b->rows_col : p->vert_col[0],
                            "the matrix has no 1-cell to walk on");
    if (b->seen_start) {
        int mx = b->start_wx - p->mat_x0, my = b->start_wy - p->mat_y0;
        if (mx < 0 || my < 0 || mx >= p->mw || my >= p->mh || !p->mat[(size_t)my * (size_t)p->mw + (size_t)mx])
            return pt_error_set(ps->err, PT_ERR_BAD_VALUE, b->start_line, b->start_col,
                                "start %d,%d is not a 1-cell of the matrix", b->start_wx, b->start_wy);
        p->start_x = mx;
        p->start_y = my;
    } else if (b->seen_segments) {
        p->start_x = (int)p->verts[0].x - p->mat_x0;
        p->start_y = (int)p->verts[0].y - p->mat_y0;
    } else {
        long i = 0;
        while (!p->mat[i]) i++;
        p->start_x = (int)(i % p->mw);
        p->start_y = (int)(i / p->mw);
    }
    p->anchor_x = p->start_x + p->mat_x0;
    p->anchor_y = p->start_y + p->mat_y0;
    return PT_OK;
}

static int finish(parser *ps, builder *b) {
    pt_pattern *p = b->p;
    switch (p->kind) {
    case PT_PAT_PATH: return finish_path(ps, b);
    case PT_PAT_MATRIX: return finish_matrix(ps, b);
    case PT_PAT_CONTROL:
        if (p->nins == 0) return missing(ps, p, "instructions");
        p->actions = (int)b->actions;
        return PT_OK;
    case PT_PAT_THRUST:
        if (p->nthr == 0) return missing(ps, p, "fire instructions");
        return PT_OK;
    case PT_PAT_WAYPOINTS:
        if (p->nverts == 0) return missing(ps, p, "points");
        if (p->nverts < 2)
            return pt_error_set(ps->err, PT_ERR_MISSING, p->vert_line[0], p->vert_col[0],
                                "a waypoint route needs at least two points");
        {
            pt_vec2 a = p->verts[0], z = p->verts[p->nverts - 1];
            int same = a.x == z.x && a.y == z.y;
            p->closed = b->has_closed ? b->closed_val : same;
            if (p->closed && same && p->nverts > 2) p->nverts--; /* the loop closes itself */
            /* The cells under the segments are walked by lint, pt_patrun_cells and the
             * world's return to the route: bound them like a path's cells (placement moves
             * the points by whole tiles, so the count does not depend on it). */
            long total = 0;
            int nseg = p->closed ? p->nverts : p->nverts - 1;
            for (int i = 0; i < nseg; i++) {
                int j = (i + 1) % p->nverts;
                total += pt_line_length((int)floor(p->verts[i].x), (int)floor(p->verts[i].y),
                                        (int)floor(p->verts[j].x), (int)floor(p->verts[j].y));
                if (total > PT_MAX_PATTERN_STEPS) {
                    int at = j > 0 ? j : i; /* the closing segment: its first point */
                    return pt_error_set(ps->err, PT_ERR_LIMIT, p->vert_line[at], p->vert_col[at],
                                        "the route passes the limit of %d cells here", PT_MAX_PATTERN_STEPS);
                }
            }
            if (p->path_radius <= 0.0) p->path_radius = 0.5;
            p->anchor_x = (int)floor(a.x);
            p->anchor_y = (int)floor(a.y);
        }
        return PT_OK;
    case PT_PAT_KIND_COUNT: break;
    }
    return pt_error_set(ps->err, PT_ERR_INTERNAL, p->line, p->col, "unknown kind");
}

/* ---- one pattern block --------------------------------------------------------------- */

/* Finds the block's `kind` before parsing it, so keys may come in any order. Openers
 * (`repeat`, `rows`) are counted so that an inner `end` does not end the search. */
static int prescan_kind(parser *ps, int *kind, int *found_end) {
    pt__reader save = ps->r;
    pt__line keep = ps->ln;
    int depth = 0, rc;
    *kind = -1;
    *found_end = 0;
    while ((rc = next_line(ps)) > 0) {
        const pt__tok *k = tok(ps, 0);
        if (pt__tok_eq(k, "pattern")) break;
        if (pt__tok_eq(k, "end")) {
            if (depth == 0) { *found_end = 1; break; }
            depth--;
        } else if (pt__tok_eq(k, "repeat") || pt__tok_eq(k, "rows")) {
            depth++;
        } else if (pt__tok_eq(k, "kind")) {
            if ((rc = want_args(ps, 1, "a kind (control, path, matrix, thrust, waypoints)")) < 0) return rc;
            if ((rc = pt__tok_choice(tok(ps, 1), ps->ln.no, kind_words, kind, ps->err)) < 0) return rc;
            break;
        }
    }
    if (rc < 0) return rc;
    ps->r = save;
    ps->ln = keep;
    return PT_OK;
}

static int name_taken(const parser *ps, const char *name) {
    for (int i = 0; i < ps->lib->count; i++)
        if (strcmp(ps->lib->items[i]->name, name) == 0) return 1;
    for (int i = 0; i < ps->nout; i++)
        if (strcmp(ps->out[i]->name, name) == 0) return 1;
    return 0;
}

static int parse_pattern(parser *ps, builder *b) {
    pt_pattern *p = b->p;
    const pt__tok *kw = tok(ps, 0);
    p->line = ps->ln.no;
    p->col = kw->col;
    snprintf(p->file, sizeof p->file, "%s", ps->file ? ps->file : "");
    int rc = want_args(ps, 1, "a name");
    if (rc < 0) return rc;
    const pt__tok *nt = tok(ps, 1);
    if ((rc = pt__tok_name(nt, ps->ln.no, p->name, sizeof p->name, ps->err)) < 0) return rc;
    const char *colon = strchr(p->name, ':');
    if (colon)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, nt->col + (int)(colon - p->name),
                            "':' is not allowed in a pattern name (it separates file and name in references)");
    if (name_taken(ps, p->name))
        return pt_error_set(ps->err, PT_ERR_DUPLICATE, ps->ln.no, nt->col, "pattern '%s' is already defined", p->name);
    if (ps->lib->count + ps->nout >= PT_MAX_PATTERNS)
        return pt_error_set(ps->err, PT_ERR_LIMIT, ps->ln.no, kw->col, "more than %d patterns in one library",
                            PT_MAX_PATTERNS);

    int kind = -1, found_end = 0;
    if ((rc = prescan_kind(ps, &kind, &found_end)) < 0) return rc;
    if (kind < 0) {
        if (found_end) return pt_error_set(ps->err, PT_ERR_MISSING, p->line, p->col, "pattern '%s' has no kind", p->name);
        return pt_error_set(ps->err, PT_ERR_UNTERMINATED, p->line, p->col, "pattern '%s' has no 'end'", p->name);
    }
    p->kind = (pt_pattern_kind)kind;

    while ((rc = next_line(ps)) > 0) {
        const pt__tok *k = tok(ps, 0);
        if (pt__tok_eq(k, "pattern")) break; /* the block was never closed */
        if (b->in_rows) {
            if (pt__tok_eq(k, "end")) {
                if ((rc = want_args(ps, 0, "nothing")) < 0) return rc;
                b->in_rows = 0;
                continue;
            }
            if ((rc = row_line(ps, b)) < 0) return rc;
            continue;
        }
        if (pt__tok_eq(k, "end")) {
            if ((rc = want_args(ps, 0, "nothing")) < 0) return rc;
            if (b->depth > 0) {
                if ((rc = close_repeat(ps, b)) < 0) return rc;
                continue;
            }
            return finish(ps, b);
        }
        if (pt__tok_eq(k, "kind")) {
            if ((rc = duplicate(ps, &b->seen_kind, k)) < 0) return rc;
            if ((rc = want_args(ps, 1, "a kind")) < 0) return rc;
            continue; /* validated by the prescan */
        }
        if (pt__tok_eq(k, "origin")) {
            if ((rc = duplicate(ps, &b->seen_origin, k)) < 0 || (rc = want_args(ps, 1, "a cell X,Y")) < 0) return rc;
            if ((rc = pt__tok_cell(tok(ps, 1), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &p->origin_x,
                                   &p->origin_y, ps->err)) < 0)
                return rc;
            p->has_origin = 1;
            continue;
        }
        switch (p->kind) {
        case PT_PAT_CONTROL: rc = control_line(ps, b); break;
        case PT_PAT_PATH: rc = path_line(ps, b); break;
        case PT_PAT_MATRIX: rc = matrix_line(ps, b); break;
        case PT_PAT_THRUST: rc = thrust_line(ps, b); break;
        case PT_PAT_WAYPOINTS: rc = waypoints_line(ps, b); break;
        case PT_PAT_KIND_COUNT: rc = 1; break;
        }
        if (rc < 0) return rc;
        if (rc > 0) {
            /* `look=3s`: a key of this kind written as key=value, where a pattern line is the
             * key, a blank, its values. */
            const char *eq = memchr(k->s, '=', (size_t)k->len);
            if (eq && eq > k->s && !k->quoted) {
                char word[PT_MAX_NAME];
                snprintf(word, sizeof word, "%.*s", (int)(eq - k->s) < (int)sizeof word - 1 ? (int)(eq - k->s) : 0, k->s);
                if (word[0] && (list_has(keys_of[p->kind], word) || list_has("kind, origin", word)))
                    return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, k->col,
                                        "'%.*s' is not a key of a %s pattern: a line is a key, a blank, then its "
                                        "value; did you mean '%s %.*s'?",
                                        k->len > 40 ? 40 : k->len, k->s, pt_pattern_kind_name(p->kind), word,
                                        (int)(k->s + k->len - eq - 1) > 40 ? 40 : (int)(k->s + k->len - eq - 1), eq + 1);
            }
            pt__suggest sg;
            char keys[160], hint[160];
            pt__suggest_init(&sg, k->s, (size_t)k->len);
            pt__suggest_list(&sg, "kind, origin, end");
            pt__suggest_list(&sg, keys_of[p->kind]);
            snprintf(keys, sizeof keys, " (its keys: kind, origin, %s, end)", keys_of[p->kind]);
            return pt_error_set(ps->err, PT_ERR_UNKNOWN_KEY, ps->ln.no, k->col, "'%.*s' is not a key of a %s pattern%s",
                                k->len > 40 ? 40 : k->len, k->s, pt_pattern_kind_name(p->kind),
                                pt__suggest_hint(&sg, keys, hint, sizeof hint));
        }
    }
    if (rc < 0) return rc;
    /* End of text or a new `pattern` line inside the block: the innermost open block. */
    if (b->in_rows) return pt_error_set(ps->err, PT_ERR_UNTERMINATED, b->rows_line, b->rows_col, "'rows' has no 'end'");
    if (b->depth > 0) {
        rep_frame *f = &b->stack[b->depth - 1];
        return pt_error_set(ps->err, PT_ERR_UNTERMINATED, f->line, f->col, "'repeat' has no 'end'");
    }
    return pt_error_set(ps->err, PT_ERR_UNTERMINATED, p->line, p->col, "pattern '%s' has no 'end'", p->name);
}

static int parse_text(parser *ps) {
    int rc;
    while ((rc = next_line(ps)) > 0) {
        const pt__tok *k = tok(ps, 0);
        if (!pt__tok_eq(k, "pattern")) {
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, k->s, (size_t)k->len);
            pt__suggest_add(&sg, "pattern");
            if (pt__tok_eq(k, "end"))
                return pt_error_set(ps->err, PT_ERR_UNKNOWN_DIRECTIVE, ps->ln.no, k->col, "'end' without an open pattern");
            return pt_error_set(ps->err, PT_ERR_UNKNOWN_DIRECTIVE, ps->ln.no, k->col, "expected 'pattern NAME', found '%.*s'%s",
                                k->len > 40 ? 40 : k->len, k->s, pt__suggest_hint(&sg, NULL, hint, sizeof hint));
        }
        if (ps->nout >= ps->capout) {
            int nc = ps->capout ? ps->capout * 2 : 8;
            pt_pattern **n = PT_REALLOC(ps->out, (size_t)nc * sizeof *n);
            if (!n) return nomem(ps, ps->ln.no);
            ps->out = n;
            ps->capout = nc;
        }
        builder b;
        memset(&b, 0, sizeof b);
        b.p = PT_CALLOC(1, sizeof *b.p);
        if (!b.p) return nomem(ps, ps->ln.no);
        rc = parse_pattern(ps, &b);
        PT_FREE(b.vlook);
        PT_FREE(b.vgait);
        PT_FREE(b.vseen);
        PT_FREE(b.vcell_scratch);
        if (rc < 0) {
            pt__pattern_free(b.p);
            return rc;
        }
        ps->used += pattern_size(b.p);
        ps->out[ps->nout++] = b.p;
    }
    return rc;
}

/* ---- the library ------------------------------------------------------------------------ */

void pt_patlib_init(pt_patlib *lib) { memset(lib, 0, sizeof *lib); }

void pt_patlib_fini(pt_patlib *lib) {
    if (!lib) return;
    for (int i = 0; i < lib->count; i++) pt__pattern_free(lib->items[i]);
    PT_FREE(lib->items);
    memset(lib, 0, sizeof *lib);
}

static int parse_into(pt_patlib *lib, const pt__text *t, pt_error *err) {
    parser ps;
    memset(&ps, 0, sizeof ps);
    pt__reader_init(&ps.r, t);
    ps.err = err;
    ps.lib = lib;
    ps.file = t->path;
    for (int i = 0; i < lib->count; i++) ps.used += pattern_size(lib->items[i]);
    int rc = parse_text(&ps);
    if (rc >= 0 && lib->count + ps.nout > lib->cap) {
        int nc = lib->cap ? lib->cap : 16;
        while (nc < lib->count + ps.nout) nc *= 2;
        pt_pattern **n = PT_REALLOC(lib->items, (size_t)nc * sizeof *n);
        if (!n) rc = pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        else {
            lib->items = n;
            lib->cap = nc;
        }
    }
    if (rc < 0) {
        for (int i = 0; i < ps.nout; i++) pt__pattern_free(ps.out[i]);
        PT_FREE(ps.out);
        pt_error_locate(err, t->path, t->data, t->len);
        return rc;
    }
    for (int i = 0; i < ps.nout; i++) lib->items[lib->count++] = ps.out[i];
    PT_FREE(ps.out);
    return PT_OK;
}

int pt_patlib_parse(pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err) {
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) {
        if (err && err->line > 0) pt_error_locate(err, name, text, len);
        return rc;
    }
    rc = parse_into(lib, &t, err);
    pt__text_free(&t);
    return rc;
}

/* The first pattern of lib loaded from the file at path (however it is spelt), or -1. */
static int file_index(const pt_patlib *lib, const char *path) {
    for (int i = 0; i < lib->count; i++) {
        if (i > 0 && strcmp(lib->items[i]->file, lib->items[i - 1]->file) == 0) continue; /* one stat a file */
        if (pt__same_file(lib->items[i]->file, path)) return i;
    }
    return -1;
}

int pt_patlib_load(pt_patlib *lib, const char *path, pt_error *err) {
    pt_error_clear(err);
    /* A file named twice (a map's `patterns` line and a --player-pattern reference, spelt
     * differently) is loaded once: its names would clash with themselves. */
    if (lib && path && file_index(lib, path) >= 0) return PT_OK;
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = parse_into(lib, &t, err);
    pt__text_free(&t);
    return rc;
}

int pt_patlib_load_map_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err) {
    if (!map || i < 0 || i >= map->npattern_files)
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "no pattern file %d in the map", i);
    int rc = pt_patlib_load(lib, map->pattern_files[i], err);
    if (rc < 0)
        pt__error_named_at(err, map->path, map->pattern_file_lines[i], map->pattern_file_cols[i], "pattern file",
                           map->pattern_files[i]);
    return rc;
}

const pt_pattern *pt_patlib_find_in_file(const pt_patlib *lib, const char *path, const char *name) {
    if (!lib || !path || !name) return NULL;
    for (int i = 0; i < lib->count; i++)
        if (strcmp(lib->items[i]->name, name) == 0 && pt__same_file(lib->items[i]->file, path)) return lib->items[i];
    return NULL;
}

static const char *base_name(const char *s, size_t len, size_t *out_len) {
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/' || s[i] == '\\') start = i + 1;
    *out_len = len - start;
    return s + start;
}

const pt_pattern *pt_patlib_find(const pt_patlib *lib, const char *ref) {
    if (!lib || !ref) return NULL;
    const char *colon = strrchr(ref, ':');
    const char *name = colon ? colon + 1 : ref;
    size_t flen = 0;
    const char *fbase = colon ? base_name(ref, (size_t)(colon - ref), &flen) : NULL;
    for (int i = 0; i < lib->count; i++) {
        const pt_pattern *p = lib->items[i];
        if (strcmp(p->name, name) != 0) continue;
        if (fbase) {
            size_t blen = 0;
            const char *b = base_name(p->file, strlen(p->file), &blen);
            if (blen != flen || memcmp(b, fbase, flen) != 0) continue;
        }
        return p;
    }
    return NULL;
}

int pt__unknown_pattern(const pt_patlib *lib, const pt_map *map, const pt_entity_def *d, pt_error *err) {
    if (!err) return PT_ERR_UNKNOWN_PATTERN;
    /* "file.pat:name" is suggested a name of its own file's spelling: compare the name part. */
    const char *colon = strrchr(d->pattern, ':');
    const char *name = colon ? colon + 1 : d->pattern;
    pt__suggest sg;
    pt__suggest_init(&sg, name, strlen(name));
    for (int i = 0; lib && i < lib->count; i++) pt__suggest_add(&sg, lib->items[i]->name);
    char hint[PT_MAX_NAME + 32];
    pt__suggest_hint(&sg, NULL, hint, sizeof hint);
    pt_error_clear(err);
    pt_error_set(err, PT_ERR_UNKNOWN_PATTERN, d->pattern_line ? d->pattern_line : d->line,
                 d->pattern_line ? d->pattern_col : d->col, "%s '%s' uses pattern '%s', which no pattern file defines%s",
                 pt_kind_name(d->kind), d->name, d->pattern, hint);
    snprintf(err->file, sizeof err->file, "%s", map->path);
    return PT_ERR_UNKNOWN_PATTERN;
}

/* Zero, negative or NaN -> the default; otherwise clamped to [PT_THRUST_BODY_MIN,
 * PT_THRUST_BODY_MAX] so that no ratio of two body values can overflow. */
static double body_value(double v, double def) {
    if (!(v > 0.0)) return def;
    if (v < PT_THRUST_BODY_MIN) return PT_THRUST_BODY_MIN;
    if (v > PT_THRUST_BODY_MAX) return PT_THRUST_BODY_MAX; /* also +Inf */
    return v;
}

pt_thrust_body_params pt_thrust_body_resolve(pt_thrust_body_params b) {
    b.mass = body_value(b.mass, 1.0);
    b.inertia = body_value(b.inertia, 0.25);
    b.thrust = body_value(b.thrust, 2.0);
    b.turn_thrust = body_value(b.turn_thrust, 8.0);
    b.arm = body_value(b.arm, 0.5);
    b.drag = body_value(b.drag, 1.0);
    b.angular_drag = body_value(b.angular_drag, 2.0);
    b.lateral_drag = body_value(b.lateral_drag, 8.0);
    return b;
}

pt_cell pt_pattern_origin(const pt_pattern *p, const pt_entity_def *def) {
    if (p && p->has_origin) return (pt_cell){p->origin_x, p->origin_y};
    if (def) return def->has_origin ? (pt_cell){def->origin_x, def->origin_y} : (pt_cell){def->x, def->y};
    return p ? (pt_cell){p->anchor_x, p->anchor_y} : (pt_cell){0, 0};
}
