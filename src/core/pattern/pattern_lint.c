/* SPDX-License-Identifier: Zlib */
/* Lint: a placed pattern against a map. Every cell the pattern makes an entity stand on
 * must be inside the map and walkable, and no step it asks for may cut a non-walkable
 * corner (pt_map_step_ok); each offending cell or corner is reported once, at the place in
 * the pattern file that causes it. */
#include <patrol/bresenham.h>
#include <patrol/pattern.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pattern/unknown.h"
#include "pattern/pattern_shared.h"

/* A set of cells (open addressing) so each offending cell is reported once. */
typedef struct cellset {
    uint64_t *keys; /* 0 = empty */
    size_t cap, n;
} cellset;

static uint64_t cell_key(int x, int y) { return (((uint64_t)(uint32_t)x << 32) | (uint32_t)y) + 1; }

static size_t slot_of(uint64_t k, size_t cap) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

/* 1 when the cell was not in the set (it is added). On allocation failure every cell is
 * "new": at worst a cell is reported twice. */
static int cellset_add(cellset *s, int x, int y) {
    if ((s->n + 1) * 2 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        uint64_t *nk = PT_CALLOC(nc, sizeof *nk);
        if (!nk) return 1;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->keys[i]) continue;
            size_t j = slot_of(s->keys[i], nc);
            while (nk[j]) j = (j + 1) & (nc - 1);
            nk[j] = s->keys[i];
        }
        PT_FREE(s->keys);
        s->keys = nk;
        s->cap = nc;
    }
    uint64_t k = cell_key(x, y);
    size_t j = slot_of(k, s->cap);
    while (s->keys[j]) {
        if (s->keys[j] == k) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->keys[j] = k;
    s->n++;
    return 1;
}

typedef struct linter {
    const pt_pattern *p;
    const pt_map *map;
    pt_cell origin;
    pt_error *errs;
    int max, n;
    cellset seen;
    cellset corners; /* keyed by the doubled centre of the 2x2 block a diagonal crosses */
} linter;

static void report(linter *l, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static void report(linter *l, int code, int line, int col, const char *fmt, ...) {
    if (l->n < l->max && l->errs) {
        pt_error *e = &l->errs[l->n];
        pt_error_clear(e);
        e->code = code;
        e->line = line;
        e->col = col;
        snprintf(e->file, sizeof e->file, "%s", l->p->file);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->message, sizeof e->message, fmt, ap);
        va_end(ap);
    }
    l->n++;
}

/* Checks one cell; returns 1 when it is bad (reported now or before). */
static int check(linter *l, pt_cell c, int line, int col) {
    int in = pt_map_in(l->map, c.x, c.y);
    if (in && pt_map_walkable(l->map, c.x, c.y)) return 0;
    if (!cellset_add(&l->seen, c.x, c.y)) return 1;
    if (!in)
        report(l, PT_ERR_PATTERN_LEAVES, line, col, "cell %d,%d is outside the map (%dx%d): pattern '%s' placed at %d,%d",
               c.x, c.y, l->map->w, l->map->h, l->p->name, l->origin.x, l->origin.y);
    else
        report(l, PT_ERR_PATTERN_BLOCKED, line, col, "cell %d,%d is %s: pattern '%s' placed at %d,%d", c.x, c.y,
               pt_map_tile(l->map, c.x, c.y)->name, l->p->name, l->origin.x, l->origin.y);
    return 1;
}

/* A diagonal step a -> b between two walkable cells that passes beside a non-walkable cell
 * (or the outside): reported once per corner. Returns 1 when the step cuts a corner. */
static int check_step(linter *l, pt_cell a, pt_cell b, int line, int col) {
    if (!pt_map_walkable(l->map, a.x, a.y) || !pt_map_walkable(l->map, b.x, b.y)) return 0; /* reported as cells */
    if (pt_map_step_ok(l->map, a.x, a.y, b.x, b.y)) return 0;
    if (!cellset_add(&l->corners, a.x + b.x, a.y + b.y)) return 1;
    pt_cell side = pt_map_walkable(l->map, b.x, a.y) ? (pt_cell){a.x, b.y} : (pt_cell){b.x, a.y};
    const pt_tile_def *t = pt_map_tile(l->map, side.x, side.y);
    report(l, PT_ERR_PATTERN_CORNER, line, col,
           "step %d,%d -> %d,%d cuts the corner of %s at %d,%d: pattern '%s' placed at %d,%d", a.x, a.y, b.x, b.y,
           t ? t->name : "the map's edge", side.x, side.y, l->p->name, l->origin.x, l->origin.y);
    return 1;
}

/* The point that starts the segment a path's step into cell k (k >= 1) is on. */
static void path_step_place(const pt_pattern *p, int k, int *line, int *col) {
    int s = k < p->ncells ? p->src_of_cell[k] : (p->closed ? p->nverts - 1 : -1);
    if (s > 0 && k < p->ncells && p->cells[k].x == (int)p->verts[s].x - (int)p->verts[0].x &&
        p->cells[k].y == (int)p->verts[s].y - (int)p->verts[0].y)
        s--; /* cell k is point s itself: the segment starts at the point before */
    else if (k == p->ncells && s > 0)
        s--; /* a closed path's last step, onto cell 0 = its last point */
    if (s < 0) {
        *line = p->end_line ? p->end_line : p->line;
        *col = p->end_line ? p->end_col : p->col;
    } else {
        *line = p->vert_line[s];
        *col = p->vert_col[s];
    }
}

static void lint_path(linter *l) {
    const pt_pattern *p = l->p;
    for (int i = 0; i < p->ncells; i++) {
        pt_cell c = {l->origin.x + p->cells[i].x, l->origin.y + p->cells[i].y};
        int s = p->src_of_cell[i];
        if (s < 0) check(l, c, p->end_line ? p->end_line : p->line, p->end_line ? p->end_col : p->col);
        else check(l, c, p->vert_line[s], p->vert_col[s]);
    }
    /* The steps: consecutive cells, and back to cell 0 when the walk wraps (a closed path,
     * loop or restart). */
    int wraps = p->closed || p->end == PT_END_LOOP || p->end == PT_END_RESTART;
    for (int k = 1; k <= p->ncells; k++) {
        if (k == p->ncells && (!wraps || p->ncells < 2)) break;
        pt_cell a = {l->origin.x + p->cells[k - 1].x, l->origin.y + p->cells[k - 1].y};
        pt_cell b = {l->origin.x + p->cells[k % p->ncells].x, l->origin.y + p->cells[k % p->ncells].y};
        int line, col;
        path_step_place(p, k, &line, &col);
        check_step(l, a, b, line, col);
    }
}

/* Records where matrix cell (mx,my) comes from, the first time only. */
static void mat_locate(int *loc, const pt_pattern *p, int mx, int my, int line, int col) {
    size_t i = 2 * ((size_t)my * (size_t)p->mw + (size_t)mx);
    if (!loc || loc[i]) return;
    loc[i] = line;
    loc[i + 1] = col;
}

static int uf_find(int *parent, int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* The walk never takes a diagonal past a non-walkable corner. That is an error when it
 * splits the matrix: two walkable 1-cells touch diagonally past such a corner and no other
 * way through the matrix joins them, so a walker on one side never reaches the other.
 * Reported once per split, at the first of the two cells in reading order. */
static void lint_matrix_splits(linter *l, const int *loc) {
    const pt_pattern *p = l->p;
    size_t n = (size_t)p->mw * (size_t)p->mh;
    int *parent = PT_MALLOC(n * sizeof *parent);
    if (!parent) return;
    for (size_t i = 0; i < n; i++) parent[i] = (int)i;
    static const int ddx[4] = {1, 0, 1, -1}, ddy[4] = {0, 1, 1, 1}; /* each pair once */
    for (int pass = 0; pass < 2; pass++) /* legal steps first, then the cut corners */
        for (int my = 0; my < p->mh; my++)
            for (int mx = 0; mx < p->mw; mx++) {
                int a = my * p->mw + mx;
                pt_cell ca = pt__mat_place(p, l->origin, mx, my);
                if (!p->mat[a] || !pt_map_walkable(l->map, ca.x, ca.y)) continue;
                for (int k = 0; k < 4; k++) {
                    int nx = mx + ddx[k], ny = my + ddy[k], b = ny * p->mw + nx;
                    if (nx < 0 || nx >= p->mw || ny >= p->mh || !p->mat[b]) continue;
                    pt_cell cb = pt__mat_place(p, l->origin, nx, ny);
                    if (!pt_map_walkable(l->map, cb.x, cb.y)) continue;
                    int ok = pt_map_step_ok(l->map, ca.x, ca.y, cb.x, cb.y);
                    int ra = uf_find(parent, a), rb = uf_find(parent, b);
                    if (ra == rb || ok != (pass == 0)) continue;
                    parent[ra] = rb;
                    if (pass == 1) check_step(l, ca, cb, loc[2 * a], loc[2 * a + 1]);
                }
            }
    PT_FREE(parent);
}

static void lint_matrix(linter *l) {
    const pt_pattern *p = l->p;
    size_t n = (size_t)p->mw * (size_t)p->mh;
    int *loc = PT_CALLOC(2 * n, sizeof *loc); /* line, col of each 1-cell */
    if (p->row_line) {
        for (int my = 0; my < p->mh; my++)
            for (int mx = 0; mx < p->mw; mx++)
                if (p->mat[(size_t)my * (size_t)p->mw + (size_t)mx]) {
                    int line = p->row_line[my], col = p->row_col[my] + mx;
                    check(l, pt__mat_place(p, l->origin, mx, my), line, col);
                    if (loc) {
                        loc[2 * ((size_t)my * (size_t)p->mw + (size_t)mx)] = line;
                        loc[2 * ((size_t)my * (size_t)p->mw + (size_t)mx) + 1] = col;
                    }
                }
        if (loc) lint_matrix_splits(l, loc);
        PT_FREE(loc);
        return;
    }
    /* Built from segments: a vertex's own cell is located at it, the cells between two
     * vertices at the first of them. */
    for (int i = 0; i < p->nverts; i++) {
        int x = (int)p->verts[i].x - p->mat_x0, y = (int)p->verts[i].y - p->mat_y0;
        if (i > 0 && !p->vert_new_poly[i]) {
            pt_line_iter it;
            pt_line_iter_init(&it, (int)p->verts[i - 1].x - p->mat_x0, (int)p->verts[i - 1].y - p->mat_y0, x, y);
            while (pt_line_iter_next(&it))
                if (it.x != x || it.y != y) {
                    check(l, pt__mat_place(p, l->origin, it.x, it.y), p->vert_line[i - 1], p->vert_col[i - 1]);
                    mat_locate(loc, p, it.x, it.y, p->vert_line[i - 1], p->vert_col[i - 1]);
                }
        }
        check(l, pt__mat_place(p, l->origin, x, y), p->vert_line[i], p->vert_col[i]);
        mat_locate(loc, p, x, y, p->vert_line[i], p->vert_col[i]);
    }
    if (loc) lint_matrix_splits(l, loc);
    PT_FREE(loc);
}

/* Passes until the walker is back where it began (same cell and heading), at most 8: a
 * "forward 3, right 90" pattern needs 4 passes to show every cell it walks. */
static void lint_control(linter *l, double heading) {
    const pt_pattern *p = l->p;
    pt_patrun r;
    pt_patrun_init(&r, p, l->origin, l->origin, heading, 0, 0);
    check(l, l->origin, p->line, p->col);
    int x0 = r.x, y0 = r.y;
    double h0 = r.heading_deg;
    for (int pass = 0; pass < 8 && !r.done; pass++) {
        for (int a = 0; a < p->actions && !r.done; a++) {
            const pt_instr *in = &p->ins[r.index];
            pt_cell t, from = {r.x, r.y};
            int blocked = 0;
            pt__control_step(&r, l->map, &t, &blocked);
            if (blocked && !check(l, t, in->line, in->col)) check_step(l, from, t, in->line, in->col);
        }
        if (r.x == x0 && r.y == y0 && r.heading_deg == h0) break;
    }
}

static void lint_thrust(linter *l, double heading) {
    const pt_pattern *p = l->p;
    pt_thrust_body_params body = pt_thrust_body_resolve(p->body);
    pt_thrust_state s = pt__thrust_start(l->origin, p->has_heading ? pt_rad(p->heading_deg) : heading);
    double dt = PT_THRUST_DEFAULT_DT;
    long n = (long)ceil(PT_THRUST_LAP_SECONDS / dt);
    pt_cell c = l->origin;
    if (check(l, c, p->line, p->col) && !pt_map_in(l->map, c.x, c.y)) return;
    for (long i = 0; i < n; i++) {
        const pt_thrust_instr *in = &p->thr[s.index];
        int lap = 0;
        pt__thrust_tick(p, &body, &s, dt, &lap);
        pt_cell nc = {pt__cell_floor(s.pos.x), pt__cell_floor(s.pos.y)};
        if (nc.x != c.x || nc.y != c.y) {
            c = nc;
            /* Once outside, the rest of the lap says nothing more. */
            if (check(l, c, in->line, in->col) && !pt_map_in(l->map, c.x, c.y)) return;
        }
        if (lap) return;
    }
    const pt_thrust_instr *in = &p->thr[s.index];
    report(l, PT_ERR_RANGE, in->line, in->col,
           "this instruction of pattern '%s' never reaches its limit (still running after %g s of simulation)", p->name,
           PT_THRUST_LAP_SECONDS);
}

static void lint_waypoints(linter *l) {
    const pt_pattern *p = l->p;
    int nseg = p->closed ? p->nverts : p->nverts - 1;
    for (int i = 0; i < nseg; i++) {
        int j = (i + 1) % p->nverts;
        pt_vec2 a = pt__wp_place(p, l->origin, i), b = pt__wp_place(p, l->origin, j);
        pt_line_iter it;
        pt_line_iter_init(&it, pt__cell_floor(a.x), pt__cell_floor(a.y), pt__cell_floor(b.x), pt__cell_floor(b.y));
        do {
            int at_end = it.remaining == 0;
            check(l, (pt_cell){it.x, it.y}, p->vert_line[at_end ? j : i], p->vert_col[at_end ? j : i]);
        } while (pt_line_iter_next(&it));
    }
}

int pt_pattern_lint(const pt_pattern *p, const pt_map *map, pt_cell origin, double heading, pt_error *errs, int max) {
    if (!p || !map) return 0;
    linter l;
    memset(&l, 0, sizeof l);
    l.p = p;
    l.map = map;
    l.origin = origin;
    l.errs = errs;
    l.max = max < 0 ? 0 : max;
    if (!isfinite(heading)) heading = 0.0;
    switch (p->kind) {
    case PT_PAT_PATH: lint_path(&l); break;
    case PT_PAT_MATRIX: lint_matrix(&l); break;
    case PT_PAT_CONTROL: lint_control(&l, heading); break;
    case PT_PAT_THRUST: lint_thrust(&l, heading); break;
    case PT_PAT_WAYPOINTS: lint_waypoints(&l); break;
    case PT_PAT_KIND_COUNT: break;
    }
    PT_FREE(l.seen.keys);
    PT_FREE(l.corners.keys);
    return l.n;
}

static int lint_entity(const pt_patlib *lib, const pt_map *map, const pt_entity_def *d, pt_error *errs, int max) {
    if (!d->pattern[0]) return 0;
    const pt_pattern *p = pt_patlib_find(lib, d->pattern);
    if (!p) {
        if (max > 0 && errs) pt__unknown_pattern(lib, map, d, errs);
        return 1;
    }
    int n = pt_pattern_lint(p, map, pt_pattern_origin(p, d), pt_rad(d->heading_deg), errs, max);
    /* Say whose placement it is: one pattern may serve several entities. */
    for (int i = 0; errs && i < n && i < max; i++) {
        size_t len = strlen(errs[i].message);
        snprintf(errs[i].message + len, sizeof errs[i].message - len, " for %s '%s'", pt_kind_name(d->kind), d->name);
    }
    return n;
}

int pt_pattern_lint_route(const pt_pattern *p, const pt_map *map, pt_error *errs, int max) {
    if (!p || !map) return 0;
    if (max < 0) max = 0;
    int n = pt_pattern_lint(p, map, pt_pattern_origin(p, &map->player), pt_rad(map->player.heading_deg), errs, max);
    for (int i = 0; errs && i < n && i < max; i++) {
        size_t len = strlen(errs[i].message);
        snprintf(errs[i].message + len, sizeof errs[i].message - len, " for the player's route");
    }
    return n;
}

int pt_patlib_lint_map(const pt_patlib *lib, const pt_map *map, pt_error *errs, int max) {
    if (!lib || !map) return 0;
    if (max < 0) max = 0;
    int total = lint_entity(lib, map, &map->player, errs, max);
    for (int i = 0; i < map->nents; i++) {
        int used = total < max ? total : max;
        total += lint_entity(lib, map, &map->ents[i], errs ? errs + used : NULL, max - used);
    }
    return total;
}
