/* SPDX-License-Identifier: Zlib */
/* Tiled maps: routes -> path patterns. The routes and their stops become .pat text parsed by
 * pt_patlib_parse, and the places in it are moved back into the .tmx. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tiled/tmx_priv.h"

/* ---- routes -> path patterns ---------------------------------------------------------------- */

/* Generated .pat text; each line remembers the TMX node (and attribute) it stands for. */
typedef struct gen_line { xmlNodePtr node; const char *attr; } gen_line;
typedef struct sbuf {
    char *s;
    size_t len, cap;
    gen_line *at;
    int nlines, lcap;
    int fail;
} sbuf;

static void sb_line(sbuf *b, xmlNodePtr node, const char *attr, const char *fmt, ...) PT__FMT(4, 5);
static void sb_line(sbuf *b, xmlNodePtr node, const char *attr, const char *fmt, ...) {
    if (b->fail) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line) {
        b->fail = 1;
        return;
    }
    if (b->len + (size_t)n + 2 > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 4096;
        while (ncap < b->len + (size_t)n + 2) ncap *= 2;
        char *ns = PT_REALLOC(b->s, ncap);
        if (!ns) {
            b->fail = 1;
            return;
        }
        b->s = ns;
        b->cap = ncap;
    }
    if (b->nlines == b->lcap) {
        int ncap = b->lcap ? b->lcap * 2 : 64;
        gen_line *na = PT_REALLOC(b->at, sizeof *na * (size_t)ncap);
        if (!na) {
            b->fail = 1;
            return;
        }
        b->at = na;
        b->lcap = ncap;
    }
    memcpy(b->s + b->len, line, (size_t)n);
    b->len += (size_t)n;
    b->s[b->len++] = '\n';
    b->s[b->len] = '\0';
    b->at[b->nlines++] = (gen_line){node, attr};
}

/* The stop at point j of route i, or -1. The closing point of a closed route is its first:
 * its stop is made there (last_same: the route ends where it starts). */
static int stop_of(const loader *L, int i, int j, int last_same) {
    const route *r = &L->routes[i];
    if (last_same && j == r->n - 1) return -1;
    for (int s = 0; s < L->nstops; s++)
        if ((L->stops[s].route < 0 || L->stops[s].route == i) && L->stops[s].cx == r->xy[2 * j] &&
            L->stops[s].cy == r->xy[2 * j + 1])
            return s;
    return -1;
}

/* The parsed patterns know places in the generated text; lint errors must point into the
 * .tmx (their file is the .tmx): the pattern at the route's name, each vertex at its point
 * in the points attribute, at_end at its property. */
static void relocate_pattern(loader *L, const route *r, pt_pattern *p) {
    doc *d = &L->tmx;
    const obj *o = &L->objs[r->obj];
    place at = pt__tmx_node_place(d, o->node, *o->name ? "name" : NULL);
    p->line = at.line;
    p->col = at.col;
    if (r->at_end) {
        at = pt__tmx_node_place(d, r->at_end_prop, "value");
        p->end_line = at.line;
        p->end_col = at.col;
    }
    place pts = pt__tmx_node_place(d, r->shape, "points");
    for (int k = 0; k < p->nverts && k < r->n; k++) {
        if (p->vert_line) p->vert_line[k] = pts.line;
        if (p->vert_col) p->vert_col[k] = pts.col > 0 ? pts.col + r->vofs[k] : 0;
    }
    /* its looks, in the order they were written: at their stop objects */
    int ri = (int)(r - L->routes), li = 0;
    int last_same = r->n > 1 && r->xy[0] == r->xy[2 * r->n - 2] && r->xy[1] == r->xy[2 * r->n - 1];
    for (int j = 0; j < r->n && li < p->nlooks; j++) {
        int s = stop_of(L, ri, j, last_same);
        if (s < 0 || (L->stops[s].gait && !(L->stops[s].wait > 0) && !(L->stops[s].look > 0) && !L->stops[s].angles)) continue;
        at = pt__tmx_node_place(d, L->objs[L->stops[s].obj].node, NULL);
        p->looks[li].line = at.line;
        p->looks[li].col = at.col;
        li++;
    }
}

int pt__tmx_build_patterns(loader *L, pt_patlib *lib, const char *name) {
    if (!lib || L->nroutes == 0) return PT_OK;
    sbuf b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < L->nroutes; i++) {
        const route *r = &L->routes[i];
        xmlNodePtr on = L->objs[r->obj].node;
        sb_line(&b, on, *L->objs[r->obj].name ? "name" : NULL, "pattern %s", r->name);
        sb_line(&b, on, NULL, "  kind path");
        /* drawn routes are placed where they are drawn, whoever walks them */
        if (r->n > 0) sb_line(&b, r->shape, "points", "  origin %d,%d", r->xy[0], r->xy[1]);
        int last_same = r->n > 1 && r->xy[0] == r->xy[2 * r->n - 2] && r->xy[1] == r->xy[2 * r->n - 1];
        for (int k = 0; k < r->n;) {
            char pts[16 * 24 + 8];
            size_t used = 0;
            int j = k, stop_at = -1;
            for (; j < r->n && j < k + 16 && stop_at < 0; j++) {
                used += (size_t)snprintf(pts + used, sizeof pts - used, " %d,%d", r->xy[2 * j], r->xy[2 * j + 1]);
                stop_at = stop_of(L, i, j, last_same);
            }
            sb_line(&b, r->shape, "points", "  points%s", pts);
            k = j;
            if (stop_at < 0) continue;
            /* the items of the stop, on a line of their own that errors trace to the object */
            const stop *st = &L->stops[stop_at];
            char items[256];
            size_t n = 0;
            if (st->wait > 0) n += (size_t)snprintf(items + n, sizeof items - n, " wait=%.17gs", st->wait);
            if (st->look > 0) n += (size_t)snprintf(items + n, sizeof items - n, " look=%.17gs", st->look);
            if (st->angles) n += (size_t)snprintf(items + n, sizeof items - n, " angles=%s", st->angles);
            if (!(st->wait > 0) && !(st->look > 0) && !st->angles && !st->gait)
                n += (size_t)snprintf(items + n, sizeof items - n, " look");
            if (st->gait) n += (size_t)snprintf(items + n, sizeof items - n, " gait=%s", st->gait);
            sb_line(&b, L->objs[st->obj].node, NULL, "  points%s", items);
        }
        if (r->gait) sb_line(&b, r->gait_prop, "value", "  gait %s", r->gait);
        if (r->at_end) sb_line(&b, r->at_end_prop, "value", "  at_end %s", r->at_end);
        sb_line(&b, on, NULL, "end");
    }
    int rc = PT_OK, before = lib->count;
    if (b.fail) rc = pt__tmx_nomem(L);
    else {
        pt_error e;
        pt_error_clear(&e);
        rc = pt_patlib_parse(lib, b.s, b.len, name, &e);
        if (rc == PT_OK && lib->count == before + L->nroutes)
            for (int i = 0; i < L->nroutes; i++) relocate_pattern(L, &L->routes[i], lib->items[before + i]);
        if (rc < 0) { /* back from the generated line to the object it came from */
            if (e.line >= 1 && e.line <= b.nlines) {
                gen_line g = b.at[e.line - 1];
                pt__tmx_fail_at(L, &L->tmx, g.node, g.attr, 0, rc, "%s", e.message);
            } else pt__tmx_fail(L, &L->tmx, (place){0, 0}, rc, "%s", e.message);
        }
    }
    PT_FREE(b.s);
    PT_FREE(b.at);
    return rc;
}
