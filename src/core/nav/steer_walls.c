/* SPDX-License-Identifier: Zlib */
/* Wall avoidance: three feelers swept against the walls, found through the tile bits of a
 * map or the block lists of custom walls. */
#include <patrol/steer.h>

#include "base/bits.h"
#include "nav/steer_env_index.h"
#include "nav/steer_shared.h"
#include "nav/steer_env_ref.h"

#if defined(__GNUC__)
#define PT_ALWAYS_INLINE __attribute__((always_inline))
#else
#define PT_ALWAYS_INLINE
#endif

/* ---- wall avoidance ------------------------------------------------------------------ */

/* cos and sin of -feeler_angle and +feeler_angle: the values pt_v2_rotate would compute. */
static _Thread_local pt__trig_memo feeler_trig[2];

static inline PT_ALWAYS_INLINE void feelers_calc(const pt_vehicle *v, const pt_steer_params *p, pt_vec2 out[3]) {
    pt_vec2 h = v->heading;
    out[0] = pt_v2_add(v->pos, pt_v2_scale(h, p->feeler_length));
    for (int k = 0; k < 2; k++) {
        double c, s;
        pt__trig(&feeler_trig[k], k ? p->feeler_angle : -p->feeler_angle, &c, &s);
        pt_vec2 d = pt_v2(h.x * c - h.y * s, h.x * s + h.y * c); /* pt_v2_rotate */
        out[1 + k] = pt_v2_add(v->pos, pt_v2_scale(d, p->side_feeler_length));
    }
}

int pt_steer_feelers(const pt_vehicle *v, const pt_steer_params *p, pt_vec2 out[3]) {
    if (!p) p = pt_steer_params_builtin();
    feelers_calc(v, p, out);
    return 3;
}

/* Parameter t in [0,1] along p->q where it crosses segment a->b; -1 when it does not. */
static double seg_cross(pt_vec2 p, pt_vec2 q, pt_vec2 a, pt_vec2 b) {
    pt_vec2 r = pt_v2_sub(q, p), s = pt_v2_sub(b, a);
    double den = pt_v2_cross(r, s);
    if (fabs(den) < 1e-12) return -1.0; /* parallel: a wall along the feeler is not hit by it */
    pt_vec2 ap = pt_v2_sub(a, p);
    double t = pt_v2_cross(ap, s) / den, u = pt_v2_cross(ap, r) / den;
    if (t < 0.0 || t > 1.0 || u < 0.0 || u > 1.0) return -1.0;
    return t;
}

/* First t in [0,1] where p + t*(q-p) enters the circle (c, r); -1 if it does not. */
static inline PT_ALWAYS_INLINE double circle_cross(pt_vec2 p, pt_vec2 q, pt_vec2 c, double r) {
    pt_vec2 d = pt_v2_sub(q, p), f = pt_v2_sub(p, c);
    double a = pt_v2_dot(d, d), b = 2.0 * pt_v2_dot(f, d), cc = pt_v2_dot(f, f) - r * r;
    if (a < 1e-18) return -1.0;
    double disc = b * b - 4.0 * a * cc;
    if (disc < 0) return -1.0;
    double t = (-b - sqrt(disc)) / (2.0 * a);
    return t >= 0.0 && t <= 1.0 ? t : -1.0;
}

static inline pt_vec2 seg_closest(pt_vec2 p, pt_vec2 a, pt_vec2 b) {
    pt_vec2 ab = pt_v2_sub(b, a);
    double l2 = pt_v2_len2(ab);
    double t = l2 > 0 ? pt_clamp(pt_v2_dot(pt_v2_sub(p, a), ab) / l2, 0.0, 1.0) : 0.0;
    return pt_v2_add(a, pt_v2_scale(ab, t));
}

/* Where the vehicle's body (a circle of radius r) swept along the feeler p->q first touches
 * wall w from its open side: t in [0,1] and the contact normal; -1 if it does not. A body
 * already touching the wall hits at t = 0. */
static double feeler_hit(pt_vec2 p, pt_vec2 q, const pt_wall *w, double r, pt_vec2 *normal) {
    pt_vec2 dir = pt_v2_sub(q, p);
    pt_vec2 c = seg_closest(p, w->a, w->b);
    pt_vec2 off = pt_v2_sub(p, c);
    double d2 = pt_v2_len2(off);
    if (d2 < r * r) {
        if (pt_v2_dot(off, w->normal) < 0) return -1.0; /* behind the wall: not our side */
        pt_vec2 n = d2 > 1e-18 ? pt_v2_scale(off, 1.0 / sqrt(d2)) : w->normal;
        if (pt_v2_dot(dir, n) >= 0) return -1.0;         /* already moving away */
        *normal = n;
        return 0.0;
    }
    if (pt_v2_dot(dir, w->normal) >= 0) return -1.0; /* only walls it runs into */
    double best = -1.0;
    pt_vec2 sh = pt_v2_scale(w->normal, r);
    double t = seg_cross(p, q, pt_v2_add(w->a, sh), pt_v2_add(w->b, sh));
    if (t >= 0) {
        best = t;
        *normal = w->normal;
    }
    for (int e = 0; e < 2; e++) {
        pt_vec2 end = e ? w->b : w->a;
        t = circle_cross(p, q, end, r);
        if (t >= 0 && (best < 0 || t < best)) {
            pt_vec2 hit = pt_v2_add(p, pt_v2_scale(dir, t));
            pt_vec2 n = pt_v2_norm(pt_v2_sub(hit, end));
            if (pt_v2_dot(n, w->normal) < -1e-9) continue; /* the cap's solid half */
            best = t;
            *normal = n;
        }
    }
    return best;
}

/* The closest hit of the feeler p->tip (body radius r, swept box [qx0,qx1] x [qy0,qy1])
 * over the walls listed in the blocks the box overlaps: t in [0,1] and its normal, or 2. */
static double feeler_scan(const pt_steer_env *env, pt_vec2 p, pt_vec2 tip, double r, double qx0, double qy0,
                          double qx1, double qy1, pt_vec2 *best_n) {
    int bx0, by0, bx1, by1;
    double best_t = 2.0;
    pt__block_range(env, qx0, qy0, qx1, qy1, &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int blk = by * env->ix->bcols + bx;
            for (int k = env->ix->wall_start[blk], end = k + env->ix->wall_n[blk]; k < end; k++) {
                const pt_wall *w = &env->walls[env->ix->wall_ids[k]];
                /* boxes apart: the swept feeler cannot touch this wall */
                if (fmax(w->a.x, w->b.x) < qx0 || fmin(w->a.x, w->b.x) > qx1 || fmax(w->a.y, w->b.y) < qy0 ||
                    fmin(w->a.y, w->b.y) > qy1)
                    continue;
                pt_vec2 n = pt__zero2();
                double t = feeler_hit(p, tip, w, r, &n);
                if (t >= 0 && t < best_t) {
                    best_t = t;
                    *best_n = n;
                }
            }
        }
    return best_t;
}

/* feeler_scan over the packed boxes: the same walls in the same order, same result. */
static double feeler_scan_fast(const pt_steer_env *env, pt_vec2 p, pt_vec2 tip, double r, double qx0, double qy0,
                               double qx1, double qy1, pt_vec2 *best_n) {
    int bx0, by0, bx1, by1;
    double best_t = 2.0, r2 = r * r;
    pt_vec2 dir = pt_v2_sub(tip, p);
    pt__block_range(env, qx0, qy0, qx1, qy1, &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++) {
        const int *row = env->ix->wall_start + (size_t)by * (size_t)env->ix->bcols;
        /* the blocks of one row are consecutive in the lists; their spare slots' boxes
         * (+inf .. -inf) meet no box */
        for (int k = row[bx0], end = row[bx1 + 1]; k < end; k++) {
            const float *b = &env->ix->wall_box[4 * (size_t)k];
            if (b[2] < qx0 || b[0] > qx1 || b[3] < qy0 || b[1] > qy1) continue;
            const pt_wall *w = &env->walls[env->ix->wall_ids[k]];
            if (!env->ix->wall_box_exact &&
                (fmax(w->a.x, w->b.x) < qx0 || fmin(w->a.x, w->b.x) > qx1 || fmax(w->a.y, w->b.y) < qy0 ||
                 fmin(w->a.y, w->b.y) > qy1))
                continue;
            /* A feeler moving away from a wall hits it only where the body already touches
             * it. Across an axis-aligned wall, feeler_hit's squared distance is at least
             * the square of this exact difference, so the test below only skips misses. */
            if (pt_v2_dot(dir, w->normal) >= 0) {
                double across = w->a.y == w->b.y ? p.y - w->a.y : (w->a.x == w->b.x ? p.x - w->a.x : 0.0);
                if (across * across >= r2) continue;
            }
            pt_vec2 n = pt__zero2();
            double t = feeler_hit(p, tip, w, r, &n);
            if (t >= 0 && t < best_t) {
                best_t = t;
                *best_n = n;
            }
        }
    }
    return best_t;
}

/* feeler_hit for a wall along the x axis, a = (ax, y), b = (bx, y), normal (+0, s) with
 * s = +-1, integer ends (walls of maps; a vertical wall is this with x and y swapped, which
 * swaps every result exactly: the sums commute and the crosses negate in pairs). The same
 * operations in the same order, minus the products with the zero components: each of those
 * adds or subtracts a signed zero, which changes no non-zero value, no comparison, and no
 * final result (a zero t may differ in sign only, and only 1 - t and comparisons read t).
 * r is finite. */
static inline PT_ALWAYS_INLINE double feeler_hit_x(pt_vec2 p, pt_vec2 dir, pt_vec2 q, double ax, double bx, double y, double s,
                                  double r, pt_vec2 *normal) {
    /* seg_closest: c = (ax + abx * t, y) */
    double abx = bx - ax, l2 = abx * abx;
    double tc = l2 > 0 ? pt_clamp((p.x - ax) * abx / l2, 0.0, 1.0) : 0.0;
    pt_vec2 off = pt_v2(p.x - (ax + abx * tc), p.y - y);
    double d2 = off.x * off.x + off.y * off.y;
    if (d2 < r * r) {
        if (off.y * s < 0) return -1.0;
        pt_vec2 n = d2 > 1e-18 ? pt_v2_scale(off, 1.0 / sqrt(d2)) : pt_v2(0.0, s);
        if (pt_v2_dot(dir, n) >= 0) return -1.0;
        *normal = n;
        return 0.0;
    }
    if (dir.y * s >= 0) return -1.0;
    double best = -1.0;
    /* seg_cross with the wall moved out by r: a' = (ax, ys), b' = (bx, ys) */
    double ys = y + s * r, den = -(dir.y * abx);
    if (!(fabs(den) < 1e-12)) {
        pt_vec2 ap = pt_v2(ax - p.x, ys - p.y);
        double t = -(ap.y * abx) / den, u = (ap.x * dir.y - ap.y * dir.x) / den;
        if (!(t < 0.0 || t > 1.0 || u < 0.0 || u > 1.0)) {
            best = t;
            *normal = pt_v2(0.0, s);
        }
    }
    for (int e = 0; e < 2; e++) {
        pt_vec2 end = pt_v2(e ? bx : ax, y);
        double t = circle_cross(p, q, end, r);
        if (t >= 0 && (best < 0 || t < best)) {
            pt_vec2 hit = pt_v2_add(p, pt_v2_scale(dir, t));
            pt_vec2 n = pt_v2_norm(pt_v2_sub(hit, end));
            if (n.y * s < -1e-9) continue;
            best = t;
            *normal = n;
        }
    }
    return best;
}

static inline pt_vec2 swap2(pt_vec2 v) { return pt_v2(v.y, v.x); }

/* One orientation of the tile bits: line l (a row, or a column) is bits + l * stride. */
typedef struct tile_lines { const uint8_t *bits; int stride; } tile_lines;

/* Bits of cells c .. c+56 of line l (bit 0 = cell c); c >= 0, c < the line's length. */
static inline uint64_t line_bits(tile_lines t, int l, int c) {
    return pt__bits64(t.bits + (size_t)l * (size_t)t.stride + (size_t)(c >> 3)) >> (c & 7);
}

/* Bits of tiles x .. x+56 of row y of the tile bits (bit 0 = tile x); x >= 0, x < bits_w. */
static inline uint64_t row_bits(const pt_steer_env *e, int x, int y) {
    return line_bits((tile_lines){e->ix->solid_bits, e->ix->bits_stride}, y, x);
}

/* The cells whose closed square meets the closed box [x0,x1] x [y0,y1]: from ceil(x0) - 1 to
 * floor(x1) (x0, y0 >= 0). */
static inline void box_cells(double x0, double y0, double x1, double y1, int *cx0, int *cy0, int *cx1, int *cy1) {
    int ix = (int)x0, iy = (int)y0;
    *cx0 = ix - ((double)ix == x0); /* ceil(x0) - 1 without the libm call */
    *cy0 = iy - ((double)iy == y0);
    *cx1 = (int)x1;
    *cy1 = (int)y1;
}

/* Whether a non-walkable tile (or the map's outside) touches the closed box [x0,x1] x
 * [y0,y1]. Every wall built from the map lies on the edge of such a tile, so when none does,
 * no wall can pass feeler_scan's box test. Boxes near the map's edge, or not finite, say 1. */
static int box_has_solid(const pt_steer_env *e, double x0, double y0, double x1, double y1) {
    if (!(x0 >= 1.0 && y0 >= 1.0 && x1 < e->ix->bits_w && y1 < e->ix->bits_h)) return 1;
    int cx0, cy0, cx1, cy1;
    box_cells(x0, y0, x1, y1, &cx0, &cy0, &cx1, &cy1);
    for (int x = cx0; x <= cx1; x += 56) {
        int n = cx1 - x + 1 < 56 ? cx1 - x + 1 : 56;
        uint64_t m = (1ull << n) - 1;
        for (int y = cy0; y <= cy1; y++)
            if (row_bits(e, x, y) & m) return 1;
    }
    return 0;
}

#define UNION_ROWS 8

/* The union box of the three feelers, read once: rows[i] holds the bits of cells cx0 ..
 * cx1 of row cy0 + i; any is their union (0: open floor for all three feelers). */
typedef struct feeler_union { int cx0, cy0, cx1, cy1; uint64_t rows[UNION_ROWS], any; } feeler_union;

/* Fills u for the closed box [x0,x1] x [y0,y1]; 0 when the box is too big or too close to
 * the map's edge for it (then each feeler asks box_has_solid). */
static inline int union_load(const pt_steer_env *e, double x0, double y0, double x1, double y1, feeler_union *u) {
    if (!(x0 >= 1.0 && y0 >= 1.0 && x1 < e->ix->bits_w && y1 < e->ix->bits_h)) return 0;
    box_cells(x0, y0, x1, y1, &u->cx0, &u->cy0, &u->cx1, &u->cy1);
    int nx = u->cx1 - u->cx0 + 1, ny = u->cy1 - u->cy0 + 1;
    if (nx > 56 || ny > UNION_ROWS) return 0;
    uint64_t m = (1ull << nx) - 1, any = 0;
    for (int i = 0; i < ny; i++) any |= u->rows[i] = row_bits(e, u->cx0, u->cy0 + i) & m;
    u->any = any;
    return 1;
}

/* box_has_solid for a box inside the union box, from its cells (box_cells). */
static inline int union_has_solid(const feeler_union *u, int cx0, int cy0, int cx1, int cy1) {
    uint64_t m = ((2ull << (cx1 - cx0)) - 1) << (cx0 - u->cx0), any = 0;
    for (int y = cy0; y <= cy1; y++) any |= u->rows[y - u->cy0];
    return (any & m) != 0;
}

/* ---- the walls of a map from its tile bits ----------------------------------------------- *
 * A map's walls lie on tile boundaries (build_map_walls): a horizontal wall on boundary j,
 * between rows j-1 and j, is a maximal run of edge cells x where exactly one of the tiles
 * (x, j-1) and (x, j) is solid, the same one all along; a vertical wall is the same between
 * columns. So the walls whose boxes meet a feeler's closed box are the runs with an edge
 * cell among the cells that box touches: two loads of tile bits per boundary in the box
 * find them, each once, where the block lists hand over every wall near the box to be
 * tested. Columns are rows with x and y swapped (solid_cols), and so are the feeler tests
 * (feeler_hit_x). */

/* The edge cells between line bits a (line l-1) and b (line l) whose solid tile is on line
 * l-1 (s = +1: the wall's normal points to +y, or +x) or on line l (s = -1). */
static inline uint64_t edges(uint64_t a, uint64_t b, int s) { return s > 0 ? a & ~b : ~a & b; }

/* The edge cells of the boundary between lines l-1 and l on side s, from cell c on (bit 0 =
 * cell c, 57 valid bits; none past the map's end). */
static inline uint64_t edge_bits(tile_lines t, int l, int c, int s) {
    return edges(line_bits(t, l - 1, c), line_bits(t, l, c), s);
}

/* The first cell of the run of edge cells (boundary l, side s) through edge cell c. */
static int run_first(tile_lines t, int l, int c, int s) {
    for (;;) {
        int c0 = c > 56 ? c - 56 : 0;
        uint64_t gap = ~edge_bits(t, l, c0, s) & ((1ull << (c - c0)) - 1); /* below c */
        if (gap) return c0 + 64 - __builtin_clzll(gap);
        if (c0 == 0) return 0;
        c = c0;
    }
}

/* One past the last cell of that run (the zero padding past the map's end ends it). */
static int run_end(tile_lines t, int l, int c, int s) {
    for (;;) {
        uint64_t gap = ~edge_bits(t, l, c, s) & ((1ull << 57) - 1);
        if (gap) return c + __builtin_ctzll(gap);
        c += 57;
    }
}

/* Where the reference (feeler_scan over the block lists) meets a wall first: the row and
 * column of the first block of the feeler's range that lists it, then the wall's place in
 * the lists, which is its index: horizontal walls before vertical ones, each by line, then
 * by first cell (build_map_walls). Of two hits at the same t it keeps the one met first. */
typedef struct wall_key { int brow, bcol, vert, line, first; } wall_key;

static inline int key_before(const wall_key *a, const wall_key *b) {
    if (a->brow != b->brow) return a->brow < b->brow;
    if (a->bcol != b->bcol) return a->bcol < b->bcol;
    if (a->vert != b->vert) return a->vert < b->vert;
    if (a->line != b->line) return a->line < b->line;
    return a->first < b->first;
}

typedef struct tile_scan {
    const pt_steer_env *env;
    double r, r2;
    double qx0, qy0;           /* the feeler box's low corner */
    double best_t;             /* 2 = no hit */
    pt_vec2 best_n;
    int best_vert, best_line, best_first; /* the best hit's wall */
} tile_scan;

/* The key of the wall (vert, line l, first cell) for the scan's feeler; only ties need it. */
static wall_key scan_key(const tile_scan *S, int vert, int l, int first) {
    const pt_steer_env *e = S->env;
    int fbx0 = (int)((S->qx0 - e->ix->ox) * e->ix->inv_block), fby0 = (int)((S->qy0 - e->ix->oy) * e->ix->inv_block);
    double wx = vert ? l : first, wy = vert ? first : l; /* the wall's box's low corner */
    int bx = (int)((wx - e->ix->ox) * e->ix->inv_block), by = (int)((wy - e->ix->oy) * e->ix->inv_block);
    return (wall_key){by > fby0 ? by : fby0, bx > fbx0 ? bx : fbx0, vert, l, first};
}

/* The walls of one orientation on boundaries l0..l1 with an edge cell in cells c0..c1
 * (c1 - c0 <= 55), the feeler p -> tip (direction dir) in that orientation's coordinates
 * (vert: x and y swapped), into the scan's best hit. */
static inline PT_ALWAYS_INLINE void tile_scan_lines(tile_scan *S, tile_lines t, const feeler_union *u, int vert, int l0,
                                                    int l1, int c0, int c1, pt_vec2 p, pt_vec2 dir, pt_vec2 tip) {
    uint64_t m = (2ull << (c1 - c0)) - 1;
    /* Each line's bits once, for the boundaries on both of its sides; rows from the union
     * (loaded already), columns from solid_cols. */
#define LINE(l) ((u ? u->rows[(l) - u->cy0] >> (c0 - u->cx0) : line_bits(t, (l), c0)) & m)
    uint64_t a = LINE(l0 - 1);
    for (int l = l0; l <= l1; l++) {
        uint64_t b = LINE(l), prev = a;
        a = b;
        if (!(prev ^ b)) continue;
        double across = p.y - l;
        for (int s = 1; s >= -1; s -= 2) {
            uint64_t ed = edges(prev, b, s);
            /* A feeler moving away from a wall hits it only where the body already touches
             * it; feeler_hit_x's squared distance is at least across^2. */
            if (!ed || (dir.y * s >= 0 && across * across >= S->r2)) continue;
            while (ed) {
                uint64_t low = ed & (~ed + 1), run = ((ed + low) ^ ed) & ed; /* the lowest run */
                ed &= ~run;
                /* A run that starts (ends) inside the window has its first (last) cell there:
                 * the window's cell before (after) it is no edge. */
                int lo = __builtin_ctzll(run), hi = 63 - __builtin_clzll(run);
                int first = lo > 0 ? c0 + lo : run_first(t, l, c0, s);
                int end = hi < c1 - c0 ? c0 + hi + 1 : run_end(t, l, c1, s);
                /* the wall's ends as its a and b (the normal's side decides which is a) */
                double ea = (s > 0) != vert ? first : end, eb = (s > 0) != vert ? end : first;
                pt_vec2 n = pt__zero2();
                double th = feeler_hit_x(p, dir, tip, ea, eb, (double)l, (double)s, S->r, &n);
                if (!(th >= 0 && th <= S->best_t)) continue;
                if (th == S->best_t) { /* a tie: the wall the reference meets first */
                    wall_key k = scan_key(S, vert, l, first), kb = scan_key(S, S->best_vert, S->best_line, S->best_first);
                    if (!key_before(&k, &kb)) continue;
                }
                S->best_t = th;
                S->best_n = vert ? swap2(n) : n;
                S->best_vert = vert;
                S->best_line = l;
                S->best_first = first;
            }
        }
    }
#undef LINE
}

/* feeler_scan_fast from the tile bits: the same walls, the same result (for envs of maps
 * and a box inside the map that the union box holds; cx0 .. cy1 its cells, box_cells). */
static double feeler_scan_tiles(const pt_steer_env *env, const feeler_union *u, pt_vec2 p, pt_vec2 tip, double r,
                                double qx0, double qy0, int cx0, int cy0, int cx1, int cy1, pt_vec2 *best_n) {
    tile_scan S = {env, r, r * r, qx0, qy0, 2.0, pt__zero2(), 0, 0, 0};
    pt_vec2 dir = pt_v2_sub(tip, p);
    tile_scan_lines(&S, (tile_lines){env->ix->solid_bits, env->ix->bits_stride}, u, 0, cy0 + 1, cy1, cx0, cx1, p, dir, tip);
    tile_scan_lines(&S, (tile_lines){env->ix->solid_cols, env->ix->cols_stride}, NULL, 1, cx0 + 1, cx1, cy0, cy1, swap2(p),
                    swap2(dir), swap2(tip));
    *best_n = S.best_n;
    return S.best_t;
}

/* Whether no tile that is not walkable (nor the map's outside) meets the closed box [x0,x1]
 * x [y0,y1] around pos, from the clearance of pos's tile (px,py): every tile within
 * Chebyshev distance d-1 of it is walkable, and the box's tiles (box_cells) run from
 * ceil(x0)-1 > px-d to floor(x1) < px+d when x0 > px-d+1 and x1 < px+d. 0 when unsure. */
static inline int tiles_clear(const pt_steer_env *e, pt_vec2 pos, double x0, double y0, double x1, double y1) {
    const struct pt__steer_index *ix = e->ix;
    if (!(pos.x >= 0 && pos.y >= 0 && pos.x < ix->bits_w && pos.y < ix->bits_h)) return 0;
    int px = (int)pos.x, py = (int)pos.y, d = ix->tile_clear[(size_t)py * (size_t)ix->bits_w + (size_t)px];
    return x0 > px - d + 1 && y0 > py - d + 1 && x1 < px + d && y1 < py + d;
}

pt_vec2 pt_steer_wall_avoidance(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nwalls <= 0 || !env->ix || !env->ix->wall_start) return pt__zero2();
    pt_vec2 tips[3];
    feelers_calc(v, p, tips);
    pt_vec2 force = pt__zero2(), pos = v->pos;
    double r = v->radius;
    /* The three feeler boxes lie in the box around the position and the three tips (with
     * finite values plain comparisons give fmin/fmax's box; the sign of a zero may differ,
     * which no comparison sees). On open floor that box meets no wall: one look at the
     * clearance of pos's tile answers for all three feelers. A NaN tip would drop out of
     * the comparisons, so a NaN sum of the tips sends the vehicle the long way. */
    double x0 = pos.x < tips[0].x ? pos.x : tips[0].x, x1 = pos.x > tips[0].x ? pos.x : tips[0].x;
    double y0 = pos.y < tips[0].y ? pos.y : tips[0].y, y1 = pos.y > tips[0].y ? pos.y : tips[0].y;
    x0 = x0 < tips[1].x ? x0 : tips[1].x;
    x1 = x1 > tips[1].x ? x1 : tips[1].x;
    y0 = y0 < tips[1].y ? y0 : tips[1].y;
    y1 = y1 > tips[1].y ? y1 : tips[1].y;
    x0 = (x0 < tips[2].x ? x0 : tips[2].x) - r;
    x1 = (x1 > tips[2].x ? x1 : tips[2].x) + r;
    y0 = (y0 < tips[2].y ? y0 : tips[2].y) - r;
    y1 = (y1 > tips[2].y ? y1 : tips[2].y) + r;
    double nan_sum = tips[0].x + tips[0].y + tips[1].x + tips[1].y + tips[2].x + tips[2].y;
    if (env->ix->tile_clear && r >= 0 && nan_sum == nan_sum && tiles_clear(env, pos, x0, y0, x1, y1)) return force;
    /* x - x is 0 for a finite x and NaN for an infinite or NaN one: one sum answers for the
     * nine values (a sum of finite values that overflows only sends the vehicle the long
     * way too). */
    double all = nan_sum + pos.x + pos.y + r;
    if (!(all - all == 0.0)) return pt__steer_wall_avoidance_ref(v, env, p);
    feeler_union u;
    u.cx0 = u.cy0 = 0; /* read only when have_union; gcc -O3 cannot always see that */
    int have_union = env->ix->solid_bits && r >= 0 && union_load(env, x0, y0, x1, y1, &u);
    if (have_union && !u.any) return force;
    for (int f = 0; f < 3; f++) {
        pt_vec2 tip = tips[f], dir = pt_v2_sub(tip, pos);
        double qx0 = (pos.x < tip.x ? pos.x : tip.x) - r, qx1 = (pos.x > tip.x ? pos.x : tip.x) + r;
        double qy0 = (pos.y < tip.y ? pos.y : tip.y) - r, qy1 = (pos.y > tip.y ? pos.y : tip.y) + r;
        int cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0;
        if (have_union) box_cells(qx0, qy0, qx1, qy1, &cx0, &cy0, &cx1, &cy1);
        /* open floor: no wall in reach */
        if (have_union ? !union_has_solid(&u, cx0, cy0, cx1, cy1)
                       : env->ix->solid_bits && r >= 0 && !box_has_solid(env, qx0, qy0, qx1, qy1))
            continue;
        pt_vec2 best_n = pt__zero2();
        double best_t = have_union && env->ix->walls_axis && env->ix->solid_cols
                            ? feeler_scan_tiles(env, &u, pos, tip, r, qx0, qy0, cx0, cy0, cx1, cy1, &best_n)
                            : feeler_scan_fast(env, pos, tip, r, qx0, qy0, qx1, qy1, &best_n);
        if (best_t > 1.0) continue;
        double depth = (1.0 - best_t) * pt_v2_len(dir);
        force = pt_v2_add(force, pt_v2_scale(best_n, depth));
    }
    return force;
}

pt_vec2 pt_steer_wall_avoidance_reach(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p,
                                      double reach) {
    pt_steer_params q;
    return pt_steer_wall_avoidance(v, env, pt__feelers_within(p, reach, &q));
}

pt_vec2 pt__steer_wall_avoidance_ref(const pt_vehicle *v, const pt_steer_env *env, const pt_steer_params *p) {
    if (!p) p = pt_steer_params_builtin();
    if (!env || env->nwalls <= 0 || !env->ix || !env->ix->wall_start) return pt__zero2();
    pt_vec2 tips[3];
    pt_steer_feelers(v, p, tips);
    pt_vec2 force = pt__zero2();
    double r = v->radius;
    for (int f = 0; f < 3; f++) {
        /* Each feeler keeps its own closest hit (Buckland's listing carried the closest wall
         * over from the previous feeler and overwrote the force instead of adding). */
        pt_vec2 tip = tips[f], dir = pt_v2_sub(tip, v->pos);
        double qx0 = fmin(v->pos.x, tip.x) - r, qx1 = fmax(v->pos.x, tip.x) + r;
        double qy0 = fmin(v->pos.y, tip.y) - r, qy1 = fmax(v->pos.y, tip.y) + r;
        pt_vec2 best_n = pt__zero2();
        double best_t = feeler_scan(env, v->pos, tip, r, qx0, qy0, qx1, qy1, &best_n);
        if (best_t > 1.0) continue; /* no hit: adds nothing */
        double depth = (1.0 - best_t) * pt_v2_len(dir); /* how far the tip is past the contact */
        force = pt_v2_add(force, pt_v2_scale(best_n, depth));
    }
    return force;
}
