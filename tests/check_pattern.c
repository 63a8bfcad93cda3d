/* SPDX-License-Identifier: Zlib */
/* Pattern files: the parser (every error kind with its code, line and column), repeat
 * expansion, the library (find, all-or-nothing, stable addresses), and a seeded
 * mutation test: no malformed input crashes the parser or the runners. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/pattern.h>
#include <patrol/rng.h>

#define BASIC "tests/data/patterns/basic.pat"

static int parse_one(const char *text, pt_error *err) {
    pt_patlib lib;
    pt_patlib_init(&lib);
    int rc = pt_patlib_parse(&lib, text, strlen(text), "t.pat", err);
    pt_patlib_fini(&lib);
    return rc;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* ---- core ---------------------------------------------------------------------------------- */

START_TEST(test_basic_file) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, BASIC, &err), PT_OK);
    ck_assert_int_eq(pt_patlib_count(&lib), 7);

    const pt_pattern *r = pt_patlib_find(&lib, "rectangle");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->kind, PT_PAT_PATH);
    ck_assert_int_eq(r->nverts, 5);
    ck_assert_int_eq(r->closed, 1);
    ck_assert_int_eq(r->end, PT_END_LOOP);
    ck_assert_int_eq(r->ncells, 34);
    ck_assert_int_eq(r->has_origin, 1);
    ck_assert_int_eq(r->origin_x, 10);
    ck_assert_int_eq(r->line, 4);
    ck_assert_int_eq(r->vert_line[3], 7);    /* second `points` line appends */
    ck_assert_int_eq(r->vert_col[3], 10);

    const pt_pattern *g = pt_patlib_find(&lib, "gate");
    ck_assert_int_eq(g->kind, PT_PAT_PATH); /* kind given last */
    ck_assert_int_eq(g->end, PT_END_REVERSE);
    ck_assert_int_eq(g->closed, 0);
    ck_assert_int_eq(g->ncells, 7);
    ck_assert_int_eq(g->anchor_x, 2);
    ck_assert_int_eq(g->anchor_y, 2);

    const pt_pattern *w = pt_patlib_find(&lib, "walker");
    ck_assert_int_eq(w->kind, PT_PAT_MATRIX);
    ck_assert_int_eq(w->mw, 10);
    ck_assert_int_eq(w->mh, 8);
    ck_assert_int_eq(w->start_x, 0);
    ck_assert_int_eq(w->start_y, 0);
    ck_assert_int_eq(w->mat[1 * 10 + 4], 1);
    ck_assert_int_eq(w->mat[1 * 10 + 5], 0);
    ck_assert_int_eq(w->row_line[2], 23);
    ck_assert_int_eq(w->row_col[2], 5);

    const pt_pattern *s = pt_patlib_find(&lib, "web");
    ck_assert_int_eq(s->mat_x0, 3);
    ck_assert_int_eq(s->mat_y0, 2);
    ck_assert_int_eq(s->mw, 14);
    ck_assert_int_eq(s->mh, 10);
    ck_assert_int_eq(s->start_x, 13);
    ck_assert_int_eq(s->start_y, 0);
    ck_assert_int_eq(s->anchor_x, 16);
    /* Bourg's six segments: the corner cells and a cell of the diagonal are on. */
    ck_assert_int_eq(s->mat[(11 - 2) * 14 + (16 - 3)], 1);
    ck_assert_int_eq(s->mat[(6 - 2) * 14 + (3 - 3)], 1);
    ck_assert_int_eq(s->mat[(5 - 2) * 14 + (10 - 3)], 0);

    const pt_pattern *c = pt_patlib_find(&lib, "snake");
    ck_assert_int_eq(c->kind, PT_PAT_CONTROL);
    ck_assert_int_eq(c->nins, 9);     /* forward, right, 3 x (forward, left), wait */
    ck_assert_int_eq(c->actions, 10); /* forward 2 is two actions */
    ck_assert_int_eq(c->has_heading, 1);
    ck_assert_int_eq(c->ins[8].op, PT_OP_WAIT);
    ck_assert_int_eq(c->ins[8].amount, 30);

    const pt_pattern *q = pt_patlib_find(&lib, "square");
    ck_assert_int_eq(q->kind, PT_PAT_THRUST);
    ck_assert_int_eq(q->nthr, 8);
    ck_assert_int_eq(q->thr[1].thruster, PT_THRUST_PORT);
    ck_assert_int_eq(q->thr[1].limit_heading, 1);
    ck_assert_double_eq(q->thr[1].heading_limit, 90.0);
    ck_assert_int_eq(q->thr[6].limit_position, 1);
    ck_assert_double_eq(q->body.thrust, 2.0);
    ck_assert_double_eq(q->body.inertia, 0.0); /* zero = default */

    const pt_pattern *wp = pt_patlib_find(&lib, "route");
    ck_assert_int_eq(wp->kind, PT_PAT_WAYPOINTS);
    ck_assert_int_eq(wp->nverts, 3);
    ck_assert_int_eq(wp->closed, 1);
    ck_assert_double_eq(wp->path_radius, 0.75);
    ck_assert_double_eq(wp->verts[1].x, 10.5);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_find_references) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, BASIC, &err), PT_OK);
    const pt_pattern *r = pt_patlib_find(&lib, "rectangle");
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_eq(pt_patlib_find(&lib, "basic.pat:rectangle"), r);
    ck_assert_ptr_eq(pt_patlib_find(&lib, "patterns/basic.pat:rectangle"), r);
    ck_assert_ptr_null(pt_patlib_find(&lib, "other.pat:rectangle"));
    ck_assert_ptr_null(pt_patlib_find(&lib, "rect"));
    ck_assert_ptr_null(pt_patlib_find(&lib, "basic.pat:"));
    /* Stable addresses: loading more patterns never moves the ones runners point to. */
    char text[64 * 40] = "";
    for (int i = 0; i < 40; i++) {
        char one[64];
        snprintf(one, sizeof one, "pattern p%d\nkind path\npoints 0,0 %d,0\nend\n", i, i + 1);
        strcat(text, one);
    }
    ck_assert_int_eq(pt_patlib_parse(&lib, text, strlen(text), "more.pat", &err), PT_OK);
    ck_assert_int_eq(pt_patlib_count(&lib), 47);
    ck_assert_ptr_eq(pt_patlib_find(&lib, "rectangle"), r);
    ck_assert_ptr_eq(pt_patlib_find(&lib, "more.pat:p39"), pt_patlib_get(&lib, 46));
    pt_patlib_fini(&lib);
}
END_TEST

/* A failed load leaves the library exactly as it was (all or nothing). */
START_TEST(test_all_or_nothing) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    const char *good = "pattern a\nkind path\npoints 0,0 3,0\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, good, strlen(good), "a.pat", &err), PT_OK);
    const pt_pattern *a = pt_patlib_find(&lib, "a");
    const char *bad = "pattern b\nkind path\npoints 0,0 3,0\nend\npattern c\nkind path\npoints 0,0 4,0\nend\n"
                      "pattern d\nkind path\npoints 0,0 1,x\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, bad, strlen(bad), "b.pat", &err), PT_ERR_BAD_NUMBER);
    ck_assert_int_eq(err.line, 11);
    ck_assert_int_eq(err.col, 14);
    ck_assert_str_eq(err.file, "b.pat");
    ck_assert_str_eq(err.source, "points 0,0 1,x");
    ck_assert_int_eq(pt_patlib_count(&lib), 1);
    ck_assert_ptr_eq(pt_patlib_find(&lib, "a"), a);
    ck_assert_ptr_null(pt_patlib_find(&lib, "b"));
    /* A name already in the library is a duplicate, located at the name. */
    const char *dup = "\n  pattern   a\nkind path\npoints 0,0 1,1\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, dup, strlen(dup), "c.pat", &err), PT_ERR_DUPLICATE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 13);
    ck_assert_int_eq(pt_patlib_count(&lib), 1);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_repeat_expansion) {
    const char *text = "pattern r\n"
                       "kind control\n"
                       "repeat 2\n"
                       "  forward 1\n"
                       "  repeat 3\n"
                       "    left 10\n"
                       "  end\n"
                       "  wait 5\n"
                       "end\n"
                       "right 90\n"
                       "end\n";
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, text, strlen(text), "r.pat", &err), PT_OK);
    const pt_pattern *p = pt_patlib_find(&lib, "r");
    static const int ops[] = {PT_OP_FORWARD, PT_OP_LEFT, PT_OP_LEFT, PT_OP_LEFT, PT_OP_WAIT,
                              PT_OP_FORWARD, PT_OP_LEFT, PT_OP_LEFT, PT_OP_LEFT, PT_OP_WAIT, PT_OP_RIGHT};
    static const int lines[] = {4, 6, 6, 6, 8, 4, 6, 6, 6, 8, 10};
    ck_assert_int_eq(p->nins, 11);
    ck_assert_int_eq(p->actions, 11);
    for (int i = 0; i < 11; i++) {
        ck_assert_int_eq(p->ins[i].op, ops[i]);
        ck_assert_int_eq(p->ins[i].line, lines[i]); /* copies keep their source place */
    }
    ck_assert_double_eq(p->ins[2].degrees, 10.0);
    pt_patlib_fini(&lib);
}
END_TEST

/* An open path's `loop` walks back (restart) and a closed path's `restart` just loops:
 * the resolved mode never teleports. Waypoints close themselves when last == first. */
START_TEST(test_end_mode_resolution) {
    const char *text = "pattern o\nkind path\npoints 0,0 5,0\nat_end loop\nend\n"
                       "pattern c\nkind path\npoints 0,0 5,0 5,5 0,0\nat_end restart\nend\n"
                       "pattern d\nkind path\npoints 0,0 5,0\nend\n"
                       "pattern w\nkind waypoints\npoints 1,1 5,1 5,5 1,1\nend\n"
                       "pattern x\nkind waypoints\npoints 1,1 5,1 5,5\nclosed no\nend\n";
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, text, strlen(text), "e.pat", &err), PT_OK);
    const pt_pattern *o = pt_patlib_find(&lib, "o");
    ck_assert_int_eq(o->end, PT_END_RESTART);
    ck_assert_int_eq(o->ncells, 6 + 4); /* 6 cells and 4 on the way back */
    ck_assert_int_eq(o->ret_from, 6);
    ck_assert_int_eq(o->src_of_cell[7], -1);
    ck_assert_int_eq(pt_patlib_find(&lib, "c")->end, PT_END_LOOP);
    ck_assert_int_eq(pt_patlib_find(&lib, "d")->end, PT_END_REVERSE);
    ck_assert_int_eq(pt_patlib_find(&lib, "w")->closed, 1);
    ck_assert_int_eq(pt_patlib_find(&lib, "w")->nverts, 3);
    ck_assert_int_eq(pt_patlib_find(&lib, "x")->closed, 0);
    ck_assert_double_eq(pt_patlib_find(&lib, "x")->path_radius, 0.5);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_body_defaults) {
    pt_thrust_body_params z;
    memset(&z, 0, sizeof z);
    pt_thrust_body_params b = pt_thrust_body_resolve(z);
    ck_assert_double_eq(b.mass, 1.0);
    ck_assert_double_eq(b.inertia, 0.25);
    ck_assert_double_eq(b.thrust, 2.0);
    ck_assert_double_eq(b.turn_thrust, 8.0);
    ck_assert_double_eq(b.arm, 0.5);
    ck_assert_double_eq(b.drag, 1.0);
    ck_assert_double_eq(b.angular_drag, 2.0);
    ck_assert_double_eq(b.lateral_drag, 8.0);
    z.thrust = 3.5;
    ck_assert_double_eq(pt_thrust_body_resolve(z).thrust, 3.5);
}
END_TEST

START_TEST(test_origin_rules) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, BASIC, &err), PT_OK);
    pt_entity_def d;
    memset(&d, 0, sizeof d);
    d.x = 7;
    d.y = 8;
    const pt_pattern *gate = pt_patlib_find(&lib, "gate"), *rect = pt_patlib_find(&lib, "rectangle");
    pt_cell c = pt_pattern_origin(gate, &d); /* no origin anywhere: the entity's cell */
    ck_assert_int_eq(c.x, 7);
    ck_assert_int_eq(c.y, 8);
    d.has_origin = 1;
    d.origin_x = 1;
    d.origin_y = 2;
    c = pt_pattern_origin(gate, &d); /* the entity's origin= */
    ck_assert_int_eq(c.x, 1);
    ck_assert_int_eq(c.y, 2);
    c = pt_pattern_origin(rect, &d); /* the file's origin wins */
    ck_assert_int_eq(c.x, 10);
    ck_assert_int_eq(c.y, 3);
    c = pt_pattern_origin(gate, NULL); /* no entity: the anchor as written */
    ck_assert_int_eq(c.x, 2);
    ck_assert_int_eq(c.y, 2);
    pt_patlib_fini(&lib);
}
END_TEST

/* ---- errors: one case per error kind and place ------------------------------------------ */

typedef struct err_case {
    const char *text;
    int code, line, col;
} err_case;

static const err_case err_cases[] = {
    /* directives outside a pattern */
    {"kind path\n", PT_ERR_UNKNOWN_DIRECTIVE, 1, 1},
    {"# comment\n\n   end\n", PT_ERR_UNKNOWN_DIRECTIVE, 3, 4},
    /* syntax */
    {"pattern\n", PT_ERR_SYNTAX, 1, 8},
    {"pattern a b\n", PT_ERR_SYNTAX, 1, 11},
    {"pattern a:b\nkind path\npoints 1,1 2,2\nend\n", PT_ERR_SYNTAX, 1, 10},
    {"pattern a\nkind path\npoints 1;1 2,2\nend\n", PT_ERR_SYNTAX, 3, 8},
    {"pattern a\nkind path\npoints 1,1 2,2 'x\nend\n", PT_ERR_SYNTAX, 3, 16},
    {"pattern a\nkind path\npoints\nend\n", PT_ERR_SYNTAX, 3, 7},
    {"pattern a\nkind path\npoints 1,1 2,2\nend now\n", PT_ERR_SYNTAX, 4, 5},
    {"pattern t\n kind thrust\n fire port turn=90 x\nend\n", PT_ERR_SYNTAX, 3, 20},
    {"pattern m\nkind matrix\nrows\n1 1\nend\nend\n", PT_ERR_SYNTAX, 4, 3},
    {"pattern c\nkind control\nforward\nend\n", PT_ERR_SYNTAX, 3, 8},
    {"pattern c\nkind control\nforward 1 2\nend\n", PT_ERR_SYNTAX, 3, 11},
    /* keys that do not belong to the kind */
    {"pattern a\nkind path\npoints 1,1 2,2\nforward 3\nend\n", PT_ERR_UNKNOWN_KEY, 4, 1},
    {"pattern a\nkind matrix\n  colour red\nend\n", PT_ERR_UNKNOWN_KEY, 3, 3},
    {"pattern t\nkind thrust\nbody mass=1 weight=2\nfire none distance=1\nend\n", PT_ERR_UNKNOWN_KEY, 3, 13},
    {"pattern t\nkind thrust\nfire none speed=2\nend\n", PT_ERR_UNKNOWN_KEY, 3, 11},
    {"pattern w\nkind waypoints\npoints 1,1 2,2\nat_end stop\nend\n", PT_ERR_UNKNOWN_KEY, 4, 1},
    /* numbers */
    {"pattern c\nkind control\nforward x\nend\n", PT_ERR_BAD_NUMBER, 3, 9},
    {"pattern c\nkind control\nforward 2.5\nend\n", PT_ERR_BAD_NUMBER, 3, 9},
    {"pattern a\nkind path\npoints 1,y\nend\n", PT_ERR_BAD_NUMBER, 3, 10},
    {"pattern w\nkind waypoints\npoints 1.5,nan 2,2\nend\n", PT_ERR_BAD_NUMBER, 3, 12},
    {"pattern c\nkind control\nright 0x10\nend\n", PT_ERR_BAD_NUMBER, 3, 7},
    /* ranges */
    {"pattern c\nkind control\nwait 0\nend\n", PT_ERR_RANGE, 3, 6},
    {"pattern c\nkind control\nforward -1\nend\n", PT_ERR_RANGE, 3, 9},
    {"pattern c\nkind control\nheading 400\nforward 1\nend\n", PT_ERR_RANGE, 3, 9},
    {"pattern c\nkind control\nleft 361\nend\n", PT_ERR_RANGE, 3, 6},
    {"pattern t\nkind thrust\nfire port turn=200\nend\n", PT_ERR_RANGE, 3, 16},
    {"pattern t\nkind thrust\nfire none distance=0\nend\n", PT_ERR_RANGE, 3, 20},
    {"pattern t\nkind thrust\nbody drag=-1\nfire none time=1\nend\n", PT_ERR_RANGE, 3, 11},
    {"pattern a\nkind path\npoints 1,1 2000000,1\nend\n", PT_ERR_RANGE, 3, 12},
    /* values */
    {"pattern a\nkind spiral\nend\n", PT_ERR_BAD_VALUE, 2, 6},
    {"pattern a\nkind path\npoints 1,1 2,2\nat_end sideways\nend\n", PT_ERR_BAD_VALUE, 4, 8},
    {"pattern c\nkind control\nforward 1\nat_end reverse\nend\n", PT_ERR_BAD_VALUE, 4, 8},
    {"pattern t\nkind thrust\nfire none turn=90\nend\n", PT_ERR_BAD_VALUE, 3, 11},
    {"pattern t\nkind thrust\nfire left time=1\nend\n", PT_ERR_BAD_VALUE, 3, 6},
    {"pattern m\nkind matrix\nrows\n  10\n  01\nend\nstart 1,0\nend\n", PT_ERR_BAD_VALUE, 7, 7},
    {"pattern m\nkind matrix\nrows\n  1a1\nend\nend\n", PT_ERR_BAD_VALUE, 4, 4},
    {"pattern m\nkind matrix\nrows\n  #11\nend\nend\n", PT_ERR_EMPTY, 3, 1}, /* '#' starts a comment */
    {"pattern w\nkind waypoints\npoints 1,1 2,2\nclosed maybe\nend\n", PT_ERR_BAD_VALUE, 4, 8},
    /* duplicates */
    {"pattern a\nkind path\npoints 1,1 2,2\nend\npattern a\nkind path\npoints 1,1 2,2\nend\n", PT_ERR_DUPLICATE, 5, 9},
    {"pattern a\nkind path\nkind path\npoints 1,1 2,2\nend\n", PT_ERR_DUPLICATE, 3, 1},
    {"pattern a\nkind path\norigin 1,1\npoints 1,1 2,2\n  origin 2,2\nend\n", PT_ERR_DUPLICATE, 5, 3},
    {"pattern a\nkind path\npoints 1,1 2,2\nat_end stop\nat_end stop\nend\n", PT_ERR_DUPLICATE, 5, 1},
    {"pattern m\nkind matrix\nrows\n1\nend\nsegments 1,1 2,2\nend\n", PT_ERR_DUPLICATE, 6, 1},
    {"pattern m\nkind matrix\nrows\n1\nend\nrows\nend\n", PT_ERR_DUPLICATE, 6, 1},
    {"pattern t\nkind thrust\nbody mass=1 mass=2\nfire none time=1\nend\n", PT_ERR_DUPLICATE, 3, 13},
    {"pattern t\nkind thrust\nfire port turn=10 turn=20\nend\n", PT_ERR_DUPLICATE, 3, 19},
    /* missing */
    {"pattern a\npoints 1,1 2,2\nend\n", PT_ERR_MISSING, 1, 1},
    {"pattern a\nkind path\nend\n", PT_ERR_MISSING, 1, 1},
    {"pattern a\nkind path\npoints 4,4\nend\n", PT_ERR_MISSING, 3, 8},
    {"pattern m\n  kind matrix\n  start 1,1\nend\n", PT_ERR_MISSING, 1, 1},
    {"pattern c\nkind control\nheading 90\nend\n", PT_ERR_MISSING, 1, 1},
    {"pattern t\nkind thrust\nfire port\nend\n", PT_ERR_MISSING, 3, 10},
    {"pattern t\nkind thrust\nbody mass=2\nend\n", PT_ERR_MISSING, 1, 1},
    {"pattern w\nkind waypoints\npoints 1.5,1.5\nend\n", PT_ERR_MISSING, 3, 8},
    /* unterminated blocks */
    {"pattern a\nkind path\npoints 1,1 2,2\n", PT_ERR_UNTERMINATED, 1, 1},
    {"pattern a\nkind path\npoints 1,1 2,2\npattern b\nkind path\npoints 1,1 2,2\nend\n", PT_ERR_UNTERMINATED, 1, 1},
    {"pattern m\nkind matrix\n  rows\n11\n", PT_ERR_UNTERMINATED, 3, 3},
    {"pattern c\nkind control\n  repeat 2\nforward 1\n", PT_ERR_UNTERMINATED, 3, 3},
    {"pattern c\nkind control\nrepeat 2\nforward 1\nend\n", PT_ERR_UNTERMINATED, 1, 1},
    {"pattern a\npoints 1,1 2,2\n", PT_ERR_UNTERMINATED, 1, 1},
    /* empty */
    {"pattern m\nkind matrix\n  rows\n  end\nend\n", PT_ERR_EMPTY, 3, 3},
    {"pattern m\nkind matrix\nrows\n  000\n  0.0\nend\nend\n", PT_ERR_EMPTY, 3, 1},
    {"pattern c\nkind control\nforward 1\n repeat 3\n end\nend\n", PT_ERR_EMPTY, 4, 2},
    /* ragged rows */
    {"pattern m\nkind matrix\nrows\n  111\n  11\nend\nend\n", PT_ERR_RAGGED_ROW, 5, 5},
    {"pattern m\nkind matrix\nrows\n  111\n  1111\nend\nend\n", PT_ERR_RAGGED_ROW, 5, 6},
    /* limits reachable with short text */
    {"pattern c\nkind control\nrepeat 100001\nforward 1\nend\nend\n", PT_ERR_LIMIT, 3, 8},
    {"pattern c\nkind control\nrepeat 1000\n  forward 1\n  repeat 1000\n   left 1\n  end\nend\nend\n", PT_ERR_LIMIT, 3, 8},
    {"pattern c\nkind control\nrepeat 100\nforward 1000\nend\nend\n", PT_ERR_LIMIT, 3, 8},
    {"pattern c\nkind control\nforward 70000\nend\n", PT_ERR_LIMIT, 3, 9},
    {"pattern c\nkind control\nforward 60000\nforward 6000\nend\n", PT_ERR_LIMIT, 4, 9},
    {"pattern a\nkind path\npoints 0,0 70000,0\nend\n", PT_ERR_LIMIT, 3, 12},
    {"pattern m\nkind matrix\nsegments 0,0 1023,0\nsegments 0,5 -1,5\nend\n", PT_ERR_LIMIT, 4, 14},
    {"pattern c\nkind control\nrepeat 1\nrepeat 1\nrepeat 1\nrepeat 1\nrepeat 1\nrepeat 1\nrepeat 1\nrepeat 1\n"
     "  repeat 1\nforward 1\nend\nend\nend\nend\nend\nend\nend\nend\nend\nend\n",
     PT_ERR_LIMIT, 11, 3},
    /* waits, looks and gaits */
    {"pattern c\nkind control\nlook 0\nend\n", PT_ERR_RANGE, 3, 6},
    {"pattern c\nkind control\nlook 0s\nend\n", PT_ERR_RANGE, 3, 6},          /* 0 ticks */
    {"pattern c\nkind control\nlook 0.001s\nend\n", PT_ERR_RANGE, 3, 6},      /* under a tick */
    {"pattern c\nkind control\nwait -1s\nend\n", PT_ERR_RANGE, 3, 6},
    {"pattern c\nkind control\nwait 2000s\nend\n", PT_ERR_RANGE, 3, 6},       /* over 100000 ticks */
    {"pattern c\nkind control\nlook 2x\nend\n", PT_ERR_BAD_NUMBER, 3, 6},
    {"pattern c\nkind control\nlook 2s angles=-90,200\nend\n", PT_ERR_RANGE, 3, 20},
    {"pattern c\nkind control\nlook 2s angles=-90,,9\nend\n", PT_ERR_SYNTAX, 3, 20},
    {"pattern c\nkind control\nlook angles=1,2,3,4,5,6,7,8,9\nend\n", PT_ERR_LIMIT, 3, 29},
    {"pattern c\nkind control\nlook 2s angels=10\nend\n", PT_ERR_UNKNOWN_KEY, 3, 9},
    {"pattern c\nkind control\nlook 2s angles=1 angles=2\nend\n", PT_ERR_DUPLICATE, 3, 18},
    {"pattern c\nkind control\nlook 2s 3s\nend\n", PT_ERR_SYNTAX, 3, 9},
    {"pattern c\nkind control\ngait jog\nend\n", PT_ERR_BAD_VALUE, 3, 6},
    {"pattern c\nkind control\ngait\nend\n", PT_ERR_SYNTAX, 3, 5},
    {"pattern a\nkind path\npoints 1,1 look=0 2,2\nend\n", PT_ERR_RANGE, 3, 17},
    {"pattern a\nkind path\npoints 1,1 wait=1s 2,2 wait=-2\nend\n", PT_ERR_RANGE, 3, 29},
    {"pattern a\nkind path\npoints 1,1 2,2 angles=181\nend\n", PT_ERR_RANGE, 3, 23},
    {"pattern a\nkind path\npoints look 1,1 2,2\nend\n", PT_ERR_SYNTAX, 3, 8},     /* before any point */
    {"pattern a\nkind path\npoints 1,1 wait 2,2\nend\n", PT_ERR_SYNTAX, 3, 16},   /* wait needs =DURATION */
    {"pattern a\nkind path\npoints 1,1 stay=2 2,2\nend\n", PT_ERR_UNKNOWN_KEY, 3, 12},
    {"pattern a\nkind path\npoints 1,1 look=1 look=2 2,2\nend\n", PT_ERR_DUPLICATE, 3, 19},
    {"pattern a\nkind path\npoints 1,1 gait=fly 2,2\nend\n", PT_ERR_BAD_VALUE, 3, 17},
    {"pattern a\nkind path\npoints 1,1 2,2\nlook 2s\nend\n", PT_ERR_UNKNOWN_KEY, 4, 1}, /* a path stops at points */
    {"pattern a\nkind path\ngait run\ngait walk\npoints 1,1 2,2\nend\n", PT_ERR_DUPLICATE, 4, 1},
    {"pattern a\nkind path\npoints 1,1 look 2,1 2,2 1,1 wait=3\nend\n", PT_ERR_DUPLICATE, 3, 29}, /* closing point = first */
    {"pattern m\nkind matrix\nsegments 1,1 look 2,2\nend\n", PT_ERR_UNKNOWN_KEY, 3, 14},
    {"pattern w\nkind waypoints\npoints 1,1 wait=2 2,2\nend\n", PT_ERR_UNKNOWN_KEY, 3, 12},
    {"pattern t\nkind thrust\nlook 2s\nfire none time=1\nend\n", PT_ERR_UNKNOWN_KEY, 3, 1},
    {"pattern m\nkind matrix\nrows\n1\nend\ngait run\nend\n", PT_ERR_UNKNOWN_KEY, 6, 1},
    /* not text */
    {"pattern a\nkind path\npoints 1,1\0 2,2\nend\n", PT_ERR_BINARY, 3, 11},
};

/* Waits, looks and gaits as stored: durations in ticks (Ns = N * 60), defaults filled, a
 * path point's stop on the cell it is (the closing point of a closed path: cell 0). */
START_TEST(test_looks_and_gaits) {
    static const char text[] =
        "pattern win\n kind path\n gait sneak\n points 0,0 4,0 look=2s angles=-90,90 4,3 wait=30 gait=run\n"
        " points 0,3 look 0,0 wait=0.5s look=1s\nend\n"
        "pattern ctl\n kind control\n forward 2\n look\n repeat 2\n  look 0.5s angles=45\n end\n wait 1.5s\n"
        " gait run\n wait 7\nend\n";
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    int rc = pt_patlib_parse(&lib, text, sizeof text - 1, "l.pat", &err);
    ck_assert_msg(rc == PT_OK, "%s at %d:%d: %s", pt_code_name(rc), err.line, err.col, err.message);
    const pt_pattern *w = pt_patlib_find(&lib, "win"), *c = pt_patlib_find(&lib, "ctl");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(w->gait, PT_GAIT_SNEAK);
    ck_assert_int_eq(w->nlooks, 4);
    ck_assert_ptr_nonnull(w->look_of_cell);
    /* cells: 0..4 along y=0, 5..7 down x=4, 8..11 back along y=3, 12..13 up x=0 */
    ck_assert_int_eq(w->ncells, 14);
    int at[14];
    for (int i = 0; i < 14; i++) at[i] = w->look_of_cell[i];
    ck_assert_int_eq(at[4], 0);
    ck_assert_int_eq(w->looks[0].look, 120);
    ck_assert_int_eq(w->looks[0].wait, 0);
    ck_assert_int_eq(w->looks[0].nangles, 2);
    ck_assert(w->looks[0].angles[0] == -90.0 && w->looks[0].angles[1] == 90.0);
    ck_assert_int_eq(at[7], 1);
    ck_assert_int_eq(w->looks[1].wait, 30);
    ck_assert_int_eq(w->looks[1].look, 0); /* a wait alone does not look */
    ck_assert_int_eq(w->gait_of_cell[7], PT_GAIT_RUN);
    ck_assert_int_eq(at[11], 2); /* 0,3 look: the defaults */
    ck_assert_int_eq(w->looks[2].look, PT_LOOK_DEFAULT_TICKS);
    ck_assert_int_eq(w->looks[2].nangles, 2);
    ck_assert(w->looks[2].angles[0] == -PT_LOOK_DEFAULT_DEG && w->looks[2].angles[1] == PT_LOOK_DEFAULT_DEG);
    ck_assert_int_eq(at[0], 3); /* the closing point is cell 0 */
    ck_assert_int_eq(w->looks[3].wait, 30);
    ck_assert_int_eq(w->looks[3].look, 60);
    ck_assert_int_eq(w->looks[3].line, 5);
    ck_assert_int_eq(w->looks[3].col, 22);
    int stops = 0;
    for (int i = 0; i < 14; i++) stops += at[i] >= 0;
    ck_assert_int_eq(stops, 4);

    ck_assert_int_eq(c->nins, 7);
    ck_assert_int_eq(c->ins[1].op, PT_OP_LOOK);
    ck_assert_int_eq(c->ins[1].amount, PT_LOOK_DEFAULT_TICKS);
    ck_assert_int_eq(c->looks[c->ins[1].look].nangles, 2);
    ck_assert_int_eq(c->ins[2].op, PT_OP_LOOK);
    ck_assert_int_eq(c->ins[3].look, c->ins[2].look); /* repeat copies share the look */
    ck_assert_int_eq(c->ins[2].amount, 30);
    ck_assert_int_eq(c->looks[c->ins[2].look].nangles, 1);
    ck_assert_int_eq(c->ins[4].op, PT_OP_WAIT);
    ck_assert_int_eq(c->ins[4].amount, 90);
    ck_assert_int_eq(c->ins[5].op, PT_OP_GAIT);
    ck_assert_int_eq(c->ins[5].amount, PT_GAIT_RUN);
    ck_assert_int_eq(c->ins[6].amount, 7); /* plain numbers stay ticks */
    ck_assert_int_eq(c->actions, 8);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_parse_errors) {
    const err_case *c = &err_cases[_i];
    /* The binary case holds a NUL: its length is the text up to the final newline. */
    size_t len = strlen(c->text);
    if (c->code == PT_ERR_BINARY) len += 1 + strlen(c->text + len + 1);
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    int rc = pt_patlib_parse(&lib, c->text, len, "t.pat", &err);
    ck_assert_msg(rc == c->code && err.code == c->code && err.line == c->line && err.col == c->col,
                  "case %d: got %s at %d:%d (%s), want %s at %d:%d", _i, pt_code_name(rc), err.line, err.col,
                  err.message, pt_code_name(c->code), c->line, c->col);
    ck_assert_msg(err.message[0] != '\0', "case %d: no message", _i);
    ck_assert_str_eq(err.file, "t.pat");
    ck_assert_int_eq(pt_patlib_count(&lib), 0);
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(test_io_error) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, "tests/data/patterns/no-such-file.pat", &err), PT_ERR_IO);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.file, "tests/data/patterns/no-such-file.pat");
    ck_assert_int_eq(pt_patlib_count(&lib), 0);
    pt_patlib_fini(&lib);
}
END_TEST

/* An empty file or one with only comments is valid and adds nothing. */
START_TEST(test_empty_file) {
    pt_error err;
    ck_assert_int_eq(parse_one("", &err), PT_OK);
    ck_assert_int_eq(parse_one("# nothing here\n\n   # at all\n", &err), PT_OK);
}
END_TEST

/* ---- limits that need long inputs ------------------------------------------------------- */

static char *grow_text(size_t cap) {
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    t[0] = '\0';
    return t;
}

START_TEST(test_limit_vertices) {
    size_t cap = 64 + (PT_MAX_PATTERN_VERTS + 2) * 12;
    char *t = grow_text(cap);
    size_t n = (size_t)sprintf(t, "pattern v\nkind waypoints\n");
    for (int i = 0; i <= PT_MAX_PATTERN_VERTS; i++) n += (size_t)sprintf(t + n, "points %d,1\n", i % 50);
    sprintf(t + n, "end\n");
    pt_error err;
    ck_assert_int_eq(parse_one(t, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 3 + PT_MAX_PATTERN_VERTS);
    ck_assert_int_eq(err.col, 8);
    free(t);
}
END_TEST

START_TEST(test_limit_matrix_width_and_height) {
    char *t = grow_text(PT_MAX_MATRIX_DIM * 2 + 200);
    size_t n = (size_t)sprintf(t, "pattern m\nkind matrix\nrows\n  ");
    for (int i = 0; i <= PT_MAX_MATRIX_DIM; i++) t[n++] = '1';
    sprintf(t + n, "\nend\nend\n");
    pt_error err;
    ck_assert_int_eq(parse_one(t, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 4);
    ck_assert_int_eq(err.col, 3 + PT_MAX_MATRIX_DIM);
    free(t);

    t = grow_text((PT_MAX_MATRIX_DIM + 2) * 4 + 200);
    n = (size_t)sprintf(t, "pattern m\nkind matrix\nrows\n");
    for (int i = 0; i <= PT_MAX_MATRIX_DIM; i++) n += (size_t)sprintf(t + n, " 1\n");
    sprintf(t + n, "end\nend\n");
    ck_assert_int_eq(parse_one(t, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 4 + PT_MAX_MATRIX_DIM);
    ck_assert_int_eq(err.col, 2);
    free(t);
}
END_TEST

START_TEST(test_limit_patterns) {
    char *t = grow_text((PT_MAX_PATTERNS + 1) * 48 + 16);
    size_t n = 0;
    for (int i = 0; i <= PT_MAX_PATTERNS; i++)
        n += (size_t)sprintf(t + n, "pattern p%d\nkind path\npoints 0,0 1,1\nend\n", i);
    pt_error err;
    ck_assert_int_eq(parse_one(t, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 1 + 4 * PT_MAX_PATTERNS);
    ck_assert_int_eq(err.col, 1);
    free(t);
}
END_TEST

START_TEST(test_limit_line_length) {
    char *t = grow_text(PT_MAX_LINE_BYTES + 100);
    size_t n = (size_t)sprintf(t, "pattern a\nkind path\npoints 1,1 2,2 #");
    while (n < PT_MAX_LINE_BYTES + 40) t[n++] = 'x';
    sprintf(t + n, "\nend\n");
    pt_error err;
    ck_assert_int_eq(parse_one(t, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, PT_MAX_LINE_BYTES + 1);
    free(t);
}
END_TEST

/* ---- mutations ------------------------------------------------------------------------------ */

static const char *const splice[] = {
    "pattern", "end", "kind", "path", "matrix", "control", "thrust", "waypoints", "rows", "segments", "repeat",
    "points", "fire", "port", "turn=", "distance=", "time=", "body", "mass=0", "at_end", "reverse", "restart",
    "origin", "start", "-1", "0", "1", "99999", "1e308", ",", "=", "#", "'", "\"", "\n", " ", "\t", "\r\n",
    "1,1", "0,0", "-5,3", "1111", "1.1", ".", "x", "1000000,0", "heading", "wait", "left 45", "forward 3",
};

/* A few hundred seeded mutations of a valid file: each parse returns PT_OK or a located
 * error; whatever parses is run, listed and linted on a small map without a crash. */
START_TEST(test_mutations) {
    size_t base_len = 0;
    char *base = read_all(BASIC, &base_len);
    ck_assert_ptr_nonnull(base);
    pt_map map;
    pt_error err;
    ck_assert_int_eq(pt_map_init_blank(&map, 24, 16, &err), PT_OK);
    for (int y = 4; y < 12; y++) pt_map_set(&map, 12, y, '#');
    pt_rng rng;
    pt_rng_seed(&rng, 20240601, 7);
    int ok = 0, bad = 0, unlocated = 0, mismatched = 0;
    char first[200] = "";
    size_t cap = base_len * 2 + 4096;
    char *buf = malloc(cap), *tmp = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    ck_assert_ptr_nonnull(tmp);
    for (int iter = 0; iter < 400; iter++) {
        memcpy(buf, base, base_len);
        size_t len = base_len;
        int edits = 1 + (int)pt_rng_below(&rng, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = len ? pt_rng_below(&rng, (uint32_t)len) : 0;
            switch (pt_rng_below(&rng, 5)) {
            case 0: { /* delete a run */
                size_t n = 1 + pt_rng_below(&rng, 12);
                if (at + n > len) n = len - at;
                memmove(buf + at, buf + at + n, len - at - n);
                len -= n;
                break;
            }
            case 1: /* flip a byte to a random printable or control character */
                if (len) buf[at] = (char)(pt_rng_below(&rng, 10) == 0 ? pt_rng_below(&rng, 32) + 1 : 32 + pt_rng_below(&rng, 95));
                break;
            case 2:
            case 3: { /* splice a token of the format */
                const char *s = splice[pt_rng_below(&rng, (uint32_t)(sizeof splice / sizeof splice[0]))];
                size_t n = strlen(s);
                if (len + n >= cap) break;
                memmove(buf + at + n, buf + at, len - at);
                memcpy(buf + at, s, n);
                len += n;
                break;
            }
            default: { /* duplicate a chunk (lines, blocks) */
                size_t n = 1 + pt_rng_below(&rng, 80);
                if (at + n > len) n = len - at;
                if (len + n >= cap) break;
                memcpy(tmp, buf + at, n);
                memmove(buf + at + n, buf + at, len - at);
                memcpy(buf + at, tmp, n);
                len += n;
                break;
            }
            }
        }
        pt_patlib lib;
        pt_patlib_init(&lib);
        int rc = pt_patlib_parse(&lib, buf, len, "m.pat", &err);
        if (rc == PT_OK) {
            ok++;
            for (int i = 0; i < pt_patlib_count(&lib); i++) {
                const pt_pattern *p = pt_patlib_get(&lib, i);
                pt_patrun run;
                pt_patrun_init(&run, p, (pt_cell){3, 3}, (pt_cell){3, 3}, 0.0, 1, (uint32_t)i);
                for (int s = 0; s < 60; s++) {
                    int x, y;
                    double h;
                    pt_patrun_hold_tick(&run);
                    pt_patrun_step(&run, &map, &x, &y, &h);
                    pt_patrun_thrust_tick(&run, 1.0 / 60.0);
                }
                pt_cell cells[64];
                int n = pt_patrun_cells(&run, &map, cells, 64);
                if (n > 0) pt_patrun_resume_at(&run, &map, cells[0].x, cells[0].y);
                pt_error lerr[4];
                pt_pattern_lint(p, &map, (pt_cell){3, 3}, 0.0, lerr, 4);
            }
        } else {
            bad++;
            if (err.code != rc) mismatched++;
            if (rc != PT_ERR_NOMEM && (err.line < 1 || err.col < 1 || !err.message[0])) {
                if (unlocated++ == 0) snprintf(first, sizeof first, "iter %d: %s at %d:%d", iter, pt_code_name(rc), err.line, err.col);
            }
        }
        pt_patlib_fini(&lib);
    }
    ck_assert_msg(unlocated == 0, "%d errors without a place, first %s", unlocated, first);
    ck_assert_int_eq(mismatched, 0);
    ck_assert_int_gt(ok, 10);   /* the mutations exercise both outcomes */
    ck_assert_int_gt(bad, 100);
    free(buf);
    free(tmp);
    free(base);
    pt_map_fini(&map);
}
END_TEST

static Suite *pattern_suite(void) {
    Suite *s = suite_create("pattern");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_basic_file);
    tcase_add_test(core, test_find_references);
    tcase_add_test(core, test_all_or_nothing);
    tcase_add_test(core, test_repeat_expansion);
    tcase_add_test(core, test_end_mode_resolution);
    tcase_add_test(core, test_body_defaults);
    tcase_add_test(core, test_origin_rules);
    tcase_add_test(core, test_empty_file);
    suite_add_tcase(s, core);
    TCase *errors = tcase_create("errors");
    tcase_add_test(core, test_looks_and_gaits);
    tcase_add_loop_test(errors, test_parse_errors, 0, (int)(sizeof err_cases / sizeof err_cases[0]));
    tcase_add_test(errors, test_io_error);
    suite_add_tcase(s, errors);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_limit_vertices);
    tcase_add_test(limits, test_limit_matrix_width_and_height);
    tcase_add_test(limits, test_limit_patterns);
    tcase_add_test(limits, test_limit_line_length);
    suite_add_tcase(s, limits);
    TCase *fuzz = tcase_create("mutations");
    tcase_add_test(fuzz, test_mutations);
    suite_add_tcase(s, fuzz);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(pattern_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
