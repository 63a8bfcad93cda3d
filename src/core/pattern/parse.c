/* SPDX-License-Identifier: Zlib */
/* parse.c - the .pat parser's frame: the text as blocks (`pattern NAME` ... `end`), the keys
 * every kind shares (kind, origin, end), unknown keys with their suggestions, finishing each
 * kind once its block ends (path cells, matrix placement, waypoint routes), and the parse of
 * a whole text into a library. The lines inside a block are parse_lines.c's; the syntax and
 * every error are documented in docs/formats.md ("Pattern files"). */
#include <patrol/bresenham.h>
#include <patrol/pattern.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"
#include "base/text.h"
#include "pattern/parse.h"
#include "pattern/parse_priv.h"
#include "pattern/pattern_shared.h"

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

/* What a pattern holds after expansion: path cells, control/thrust instructions, matrix
 * cells. Each is at most PT_MAX_PATTERN_STEPS (a matrix PT_MAX_MATRIX_DIM^2), and the
 * library as a whole at most PT_MAX_LIBRARY_STEPS: without it, 1024 patterns of a few bytes
 * each (`repeat 65536` around one instruction) would expand to gigabytes. */
static long pattern_size(const pt_pattern *p) {
    return (long)p->ncells + p->nins + p->nthr + (p->mat ? (long)p->mw * p->mh : 0);
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
    p->cells = PT_MALLOC((cap + 1) * sizeof *p->cells); /* + cells[ncells] (pattern_shared.h) */
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
                pt__pat_look_defaults(&p->looks[lk], b->vseen[i] & 6u, b->vseen[i] & 4u);
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
            if ((rc = pt__pat_want_args(ps, 1, "a kind (control, path, matrix, thrust, waypoints)")) < 0) return rc;
            if ((rc = pt__tok_choice(tok(ps, 1), ps->ln.no, pt__pattern_kind_words, kind, ps->err)) < 0) return rc;
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
    int rc = pt__pat_want_args(ps, 1, "a name");
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
                if ((rc = pt__pat_want_args(ps, 0, "nothing")) < 0) return rc;
                b->in_rows = 0;
                continue;
            }
            if ((rc = pt__pat_row_line(ps, b)) < 0) return rc;
            continue;
        }
        if (pt__tok_eq(k, "end")) {
            if ((rc = pt__pat_want_args(ps, 0, "nothing")) < 0) return rc;
            if (b->depth > 0) {
                if ((rc = pt__pat_close_repeat(ps, b)) < 0) return rc;
                continue;
            }
            return finish(ps, b);
        }
        if (pt__tok_eq(k, "kind")) {
            if ((rc = duplicate(ps, &b->seen_kind, k)) < 0) return rc;
            if ((rc = pt__pat_want_args(ps, 1, "a kind")) < 0) return rc;
            continue; /* validated by the prescan */
        }
        if (pt__tok_eq(k, "origin")) {
            if ((rc = duplicate(ps, &b->seen_origin, k)) < 0 || (rc = pt__pat_want_args(ps, 1, "a cell X,Y")) < 0)
                return rc;
            if ((rc = pt__tok_cell(tok(ps, 1), ps->ln.no, -PT__PAT_COORD_MAX, PT__PAT_COORD_MAX, &p->origin_x,
                                   &p->origin_y, ps->err)) < 0)
                return rc;
            p->has_origin = 1;
            continue;
        }
        switch (p->kind) {
        case PT_PAT_CONTROL: rc = pt__pat_control_line(ps, b); break;
        case PT_PAT_PATH: rc = pt__pat_path_line(ps, b); break;
        case PT_PAT_MATRIX: rc = pt__pat_matrix_line(ps, b); break;
        case PT_PAT_THRUST: rc = pt__pat_thrust_line(ps, b); break;
        case PT_PAT_WAYPOINTS: rc = pt__pat_waypoints_line(ps, b); break;
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

/* ---- into a library -------------------------------------------------------------------- */

int pt__patlib_parse_text(pt_patlib *lib, const pt__text *t, pt_error *err) {
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
