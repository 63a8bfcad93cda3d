/* SPDX-License-Identifier: Zlib */
/* parse_lines.c - the lines inside a .pat block, by kind: points and their stops (waits,
 * looks, angles, gaits), durations, control and thrust items with repeat blocks, a thrust
 * body and its fire lines, matrix rows and segments, path and waypoints keys. parse.c reads
 * the blocks and calls these; docs/formats.md ("Pattern files") has the syntax. */
#include <patrol/pattern.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "base/text.h"
#include "pattern/parse_priv.h"
#include "pattern/pattern_shared.h"

static const char *const path_end_words[] = {"loop", "stop", "reverse", "restart", NULL};
static const char *const seq_end_words[] = {"loop", "stop", NULL};
static const char *const thruster_words[] = {"none", "port", "starboard", NULL};
static const char *const gait_words[] = {"walk", "sneak", "run", NULL}; /* pt_gait order */
static const char *const point_keys[] = {"wait", "look", "angles", "gait", NULL};
static const char *const body_keys[] = {"mass", "inertia", "thrust", "turn_thrust", "arm",
                                        "drag", "angular_drag", "lateral_drag", NULL};

int pt__pat_end_col(parser *ps) {
    const pt__tok *t = tok(ps, ps->ln.ntok - 1);
    return t->col + t->len + (t->quoted ? 2 : 0);
}

int pt__pat_want_args(parser *ps, int n, const char *what) {
    if (ps->ln.ntok < 1 + n)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, pt__pat_end_col(ps), "'%.*s' needs %s", tok(ps, 0)->len,
                            tok(ps, 0)->s, what);
    if (ps->ln.ntok > 1 + n)
        return pt_error_set(ps->err, PT_ERR_SYNTAX, ps->ln.no, tok(ps, 1 + n)->col, "unexpected '%.*s' after %s",
                            tok(ps, 1 + n)->len > 40 ? 40 : tok(ps, 1 + n)->len, tok(ps, 1 + n)->s, what);
    return PT_OK;
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

void pt__pat_look_defaults(pt_look *lk, int looks, int has_angles) {
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
    if (ps->ln.ntok < 2) return pt__pat_want_args(ps, 1, "at least one X,Y point");
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
    int rc = pt__pat_want_args(ps, 1, "a count");
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
int pt__pat_close_repeat(parser *ps, builder *b) {
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
    if (rc < 0 || (rc = pt__pat_want_args(ps, 1, "an angle in degrees")) < 0) return rc;
    rc = pt__tok_num(tok(ps, 1), ps->ln.no, -360.0, 360.0, &b->p->heading_deg, ps->err);
    b->p->has_heading = 1;
    return rc;
}

static int parse_at_end(parser *ps, builder *b, const char *const *words) {
    int rc = duplicate(ps, &b->seen_end, tok(ps, 0));
    if (rc < 0 || (rc = pt__pat_want_args(ps, 1, "what to do at the end")) < 0) return rc;
    int v = 0;
    rc = pt__tok_choice(tok(ps, 1), ps->ln.no, words, &v, ps->err);
    b->p->end = (pt_end_mode)v;
    b->p->end_line = ps->ln.no;
    b->p->end_col = tok(ps, 1)->col;
    return rc;
}

int pt__pat_control_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    pt_instr in;
    memset(&in, 0, sizeof in);
    in.line = ps->ln.no;
    in.col = k->col;
    int rc;
    if (pt__tok_eq(k, "forward") || pt__tok_eq(k, "backward")) {
        in.op = pt__tok_eq(k, "forward") ? PT_OP_FORWARD : PT_OP_BACKWARD;
        if ((rc = pt__pat_want_args(ps, 1, "a number of tiles")) < 0) return rc;
        if ((rc = pt__tok_int(tok(ps, 1), ps->ln.no, 1, 1000000000L, &in.amount, ps->err)) < 0) return rc;
        return add_item(ps, b, &in, in.amount, tok(ps, 1)); /* the steps limit bounds it */
    }
    if (pt__tok_eq(k, "left") || pt__tok_eq(k, "right")) {
        in.op = pt__tok_eq(k, "left") ? PT_OP_LEFT : PT_OP_RIGHT;
        if ((rc = pt__pat_want_args(ps, 1, "an angle in degrees")) < 0) return rc;
        if ((rc = pt__tok_num(tok(ps, 1), ps->ln.no, 0.0, 360.0, &in.degrees, ps->err)) < 0) return rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "wait")) {
        in.op = PT_OP_WAIT;
        if ((rc = pt__pat_want_args(ps, 1, "a duration (ticks, or seconds as 1.5s)")) < 0) return rc;
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
        pt__pat_look_defaults(&lk, 1, seen_angles);
        if ((rc = add_look(ps, b, &lk, k)) < 0) return rc;
        in.op = PT_OP_LOOK;
        in.amount = lk.look;
        in.look = rc;
        return add_item(ps, b, &in, 1, k);
    }
    if (pt__tok_eq(k, "gait")) {
        in.op = PT_OP_GAIT;
        if ((rc = pt__pat_want_args(ps, 1, "a gait (sneak, walk, run)")) < 0) return rc;
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
    if (ps->ln.ntok < 2) return pt__pat_want_args(ps, 1, "key=value settings");
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
    if (ps->ln.ntok < 2) return pt__pat_want_args(ps, 1, "a thruster (none, port, starboard) and a limit");
    int v = 0, rc = pt__tok_choice(tok(ps, 1), ps->ln.no, thruster_words, &v, ps->err);
    if (rc < 0) return rc;
    in.thruster = (uint8_t)v;
    if (ps->ln.ntok < 3)
        return pt_error_set(ps->err, PT_ERR_MISSING, ps->ln.no, pt__pat_end_col(ps),
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

int pt__pat_thrust_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    if (pt__tok_eq(k, "fire")) return parse_fire(ps, b);
    if (pt__tok_eq(k, "repeat")) return open_repeat(ps, b);
    if (pt__tok_eq(k, "heading")) return parse_heading(ps, b);
    if (pt__tok_eq(k, "body")) return parse_body(ps, b);
    if (pt__tok_eq(k, "at_end")) return parse_at_end(ps, b, seq_end_words);
    return 1;
}

/* ---- matrix ---------------------------------------------------------------------------- */

int pt__pat_row_line(parser *ps, builder *b) {
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

int pt__pat_matrix_line(parser *ps, builder *b) {
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
            if ((rc = duplicate(ps, &b->seen_rows, k)) < 0 ||
                (rc = pt__pat_want_args(ps, 0, "nothing (the rows follow)")) < 0)
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
        if ((rc = duplicate(ps, &b->seen_start, k)) < 0 || (rc = pt__pat_want_args(ps, 1, "a cell X,Y")) < 0) return rc;
        b->start_line = ps->ln.no;
        b->start_col = tok(ps, 1)->col;
        return pt__tok_cell(tok(ps, 1), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &b->start_wx, &b->start_wy,
                            ps->err);
    }
    return 1;
}

int pt__pat_waypoints_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    int rc;
    if (pt__tok_eq(k, "points")) return parse_points(ps, b, 1, b->p->nverts == 0);
    if (pt__tok_eq(k, "closed")) {
        if ((rc = duplicate(ps, &b->seen_closed, k)) < 0 || (rc = pt__pat_want_args(ps, 1, "yes or no")) < 0) return rc;
        b->has_closed = 1;
        return pt__tok_bool(tok(ps, 1), ps->ln.no, &b->closed_val, ps->err);
    }
    if (pt__tok_eq(k, "radius")) {
        if ((rc = duplicate(ps, &b->seen_radius, k)) < 0 || (rc = pt__pat_want_args(ps, 1, "a radius in tiles")) < 0)
            return rc;
        return pt__tok_num(tok(ps, 1), ps->ln.no, 0.0, 1000.0, &b->p->path_radius, ps->err);
    }
    return 1;
}

int pt__pat_path_line(parser *ps, builder *b) {
    const pt__tok *k = tok(ps, 0);
    if (pt__tok_eq(k, "points")) return parse_points(ps, b, 0, b->p->nverts == 0);
    if (pt__tok_eq(k, "at_end")) return parse_at_end(ps, b, path_end_words);
    if (pt__tok_eq(k, "gait")) {
        int rc = duplicate(ps, &b->seen_gait, k), g = 0;
        if (rc < 0 || (rc = pt__pat_want_args(ps, 1, "a gait (sneak, walk, run)")) < 0) return rc;
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
