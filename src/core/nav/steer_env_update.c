/* SPDX-License-Identifier: Zlib */
/* A tile that changed (pt_steer_env_update_tile): of the four boundary lines through the
 * cell, the walls that start, end or pass next to it are made again from the tile bits; the
 * ones that differ leave the wall array and the block lists, the new ones join them, each in
 * the blocks it touches and nowhere else. The tile bits flip one bit and the clearances
 * change only around the cell. */
#include <patrol/steer.h>

#include "base/bits.h"
#include "nav/steer_env_index.h"

#include <string.h>

/* A spread's slots moved by one update past which the lists are laid out again. */
#define MOVE_LIMIT 4096

/* ---- the block lists ----------------------------------------------------------------- */

static const float SPARE_BOX[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};

int pt__steer_walls_spread(pt_steer_env *e, int spare) {
    struct pt__steer_index *ix = e->ix;
    int nbk = ix->bcols * ix->brows;
    size_t live = 0;
    for (int b = 0; b < nbk; b++) live += (size_t)ix->wall_n[b];
    size_t slots = live + (size_t)spare * (size_t)nbk;
    if (slots > (size_t)INT32_MAX / 4) return PT_ERR_NOMEM;
    int *start = PT_MALLOC(sizeof *start * ((size_t)nbk + 1));
    int *ids = PT_MALLOC(sizeof *ids * (slots ? slots : 1));
    float *box = PT_MALLOC(sizeof *box * 4 * (slots ? slots : 1));
    if (!start || !ids || !box) {
        PT_FREE(start);
        PT_FREE(ids);
        PT_FREE(box);
        return PT_ERR_NOMEM;
    }
    size_t k = 0;
    for (int b = 0; b < nbk; b++) {
        start[b] = (int)k;
        size_t j0 = (size_t)ix->wall_start[b], n = (size_t)ix->wall_n[b];
        if (n) {
            memcpy(ids + k, ix->wall_ids + j0, sizeof *ids * n);
            memcpy(box + 4 * k, ix->wall_box + 4 * j0, sizeof *box * 4 * n);
        }
        k += n;
        for (int s = 0; s < spare; s++, k++) {
            ids[k] = -1;
            memcpy(&box[4 * k], SPARE_BOX, sizeof SPARE_BOX);
        }
    }
    start[nbk] = (int)k;
    PT_FREE(ix->wall_start);
    PT_FREE(ix->wall_ids);
    PT_FREE(ix->wall_box);
    ix->wall_start = start;
    ix->wall_ids = ids;
    ix->wall_box = box;
    ix->wall_spare = spare * nbk;
    return PT_OK;
}

static pt__wall_key key_at(const pt_steer_env *e, int k) { return pt__wall_key_of(&e->walls[e->ix->wall_ids[k]]); }

/* The slot of the wall with key `key` in block b's list, or -1. */
static int blk_find(const pt_steer_env *e, int b, pt__wall_key key) {
    const struct pt__steer_index *ix = e->ix;
    for (int k = ix->wall_start[b], end = k + ix->wall_n[b]; k < end; k++) {
        int c = pt__wall_key_cmp(key_at(e, k), key);
        if (c == 0) return k;
        if (c > 0) break;
    }
    return -1;
}

/* n slots (ids and boxes) from slot `from` to slot `to`. */
static void slots_move(struct pt__steer_index *ix, int to, int from, int n) {
    if (n <= 0) return;
    memmove(ix->wall_ids + to, ix->wall_ids + from, sizeof *ix->wall_ids * (size_t)n);
    memmove(ix->wall_box + 4 * (size_t)to, ix->wall_box + 4 * (size_t)from, sizeof *ix->wall_box * 4 * (size_t)n);
}

/* Takes slot k out of block b's list: the walls after it move up, the last slot turns spare. */
static void blk_remove(struct pt__steer_index *ix, int b, int k) {
    int end = ix->wall_start[b] + ix->wall_n[b];
    slots_move(ix, k, k + 1, end - k - 1);
    ix->wall_ids[end - 1] = -1;
    memcpy(&ix->wall_box[4 * (size_t)(end - 1)], SPARE_BOX, sizeof SPARE_BOX);
    ix->wall_n[b]--;
    ix->wall_spare++;
}

static int has_spare(const struct pt__steer_index *ix, int b) {
    return ix->wall_n[b] < ix->wall_start[b + 1] - ix->wall_start[b];
}

/* Files wall id (in the array already) in block b's list at its canonical place, with its
 * box: in a spare slot of b, else of the nearest block that has one, the slots between
 * moving by one (the blocks stay in order, each row of blocks consecutive). Needs a spare
 * slot somewhere (ix->wall_spare > 0). Returns the slots moved. */
static long blk_insert(pt_steer_env *e, int b, int id, const float *wbox) {
    struct pt__steer_index *ix = e->ix;
    pt__wall_key key = pt__wall_key_of(&e->walls[id]);
    int pos = ix->wall_start[b], end = pos + ix->wall_n[b], nbk = ix->bcols * ix->brows;
    while (pos < end && pt__wall_key_cmp(key_at(e, pos), key) < 0) pos++;
    long moved;
    if (has_spare(ix, b)) {
        slots_move(ix, pos + 1, pos, end - pos);
        moved = end - pos;
    } else {
        int r = -1, l = -1;
        for (int d = 1; r < 0 && l < 0 && (b + d < nbk || b - d >= 0); d++) {
            if (b + d < nbk && has_spare(ix, b + d)) r = b + d;
            else if (b - d >= 0 && has_spare(ix, b - d)) l = b - d;
        }
        if (r >= 0) { /* the slots from pos to r's last wall move down one */
            int rend = ix->wall_start[r] + ix->wall_n[r];
            slots_move(ix, pos + 1, pos, rend - pos);
            moved = rend - pos;
            for (int q = b + 1; q <= r; q++) ix->wall_start[q]++;
        } else { /* the slots after l's first spare one, up to pos, move up one */
            int g = ix->wall_start[l] + ix->wall_n[l];
            slots_move(ix, g, g + 1, pos - g - 1);
            moved = pos - g - 1;
            for (int q = l + 1; q <= b; q++) ix->wall_start[q]--;
            pos--;
        }
    }
    ix->wall_ids[pos] = id;
    memcpy(&ix->wall_box[4 * (size_t)pos], wbox, sizeof *wbox * 4);
    ix->wall_n[b]++;
    ix->wall_spare--;
    return moved;
}

/* A wall's box rounded outward to floats, as build_index files it (exact for map walls). */
static void wall_box_f(const pt_wall *w, float *out) {
    double b[4] = {fmin(w->a.x, w->b.x), fmin(w->a.y, w->b.y), fmax(w->a.x, w->b.x), fmax(w->a.y, w->b.y)};
    for (int c = 0; c < 4; c++) {
        float f = (float)b[c];
        if (c < 2 && (double)f > b[c]) f = nextafterf(f, -INFINITY);
        if (c >= 2 && (double)f < b[c]) f = nextafterf(f, INFINITY);
        out[c] = f;
    }
}

/* The blocks a wall's box touches, as build_lists files it. */
static void wall_blocks(const pt_steer_env *e, const pt_wall *w, int *bx0, int *by0, int *bx1, int *by1) {
    pt__block_range(e, fmin(w->a.x, w->b.x), fmin(w->a.y, w->b.y), fmax(w->a.x, w->b.x), fmax(w->a.y, w->b.y), bx0,
                    by0, bx1, by1);
}

/* Takes wall id out of the lists and the array; the array's last wall takes its place. */
static void wall_remove(pt_steer_env *e, int id) {
    struct pt__steer_index *ix = e->ix;
    pt__wall_key key = pt__wall_key_of(&e->walls[id]);
    int bx0, by0, bx1, by1;
    wall_blocks(e, &e->walls[id], &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int b = by * ix->bcols + bx, k = blk_find(e, b, key);
            if (k >= 0) blk_remove(ix, b, k);
        }
    int last = --e->nwalls;
    if (id == last) return;
    e->walls[id] = e->walls[last];
    key = pt__wall_key_of(&e->walls[id]);
    wall_blocks(e, &e->walls[id], &bx0, &by0, &bx1, &by1);
    for (int by = by0; by <= by1; by++)
        for (int bx = bx0; bx <= bx1; bx++) {
            int k = blk_find(e, by * ix->bcols + bx, key);
            if (k >= 0) ix->wall_ids[k] = id;
        }
}

/* ---- the walls of a boundary line from the tile bits --------------------------------- */

/* A run of edge cells: boundary `line` between lines line-1 and line (rows, or columns when
 * vert), cells [first, end), the solid tile on line-1 (s = +1) or on line (s = -1). */
typedef struct run { int vert, line, s, first, end; } run;

/* Bits of cells c .. c+56 of line L (bit 0 = cell c, 1 = not walkable); a line outside the
 * map is not walkable along the map's length. */
static uint64_t line_word(const struct pt__steer_index *ix, int vert, int L, int c) {
    int len = vert ? ix->bits_h : ix->bits_w, nl = vert ? ix->bits_w : ix->bits_h;
    if (L < 0 || L >= nl) {
        if (c >= len) return 0;
        return len - c >= 64 ? ~0ull : (1ull << (len - c)) - 1;
    }
    const uint8_t *p = vert ? ix->solid_cols + (size_t)L * (size_t)ix->cols_stride
                            : ix->solid_bits + (size_t)L * (size_t)ix->bits_stride;
    return pt__bits64(p + (c >> 3)) >> (c & 7);
}

/* The edge cells of boundary l on side s from cell c on (57 valid bits). */
static uint64_t edge_word(const struct pt__steer_index *ix, int vert, int l, int c, int s) {
    uint64_t a = line_word(ix, vert, l - 1, c), b = line_word(ix, vert, l, c);
    return (s > 0 ? a & ~b : ~a & b) & ((1ull << 57) - 1);
}

/* The first cell of the run through edge cell c. */
static int run_first(const struct pt__steer_index *ix, int vert, int l, int c, int s) {
    for (;;) {
        int c0 = c > 56 ? c - 56 : 0;
        uint64_t gap = ~edge_word(ix, vert, l, c0, s) & ((1ull << (c - c0)) - 1); /* below c */
        if (gap) return c0 + 64 - __builtin_clzll(gap);
        if (c0 == 0) return 0;
        c = c0;
    }
}

/* One past the last cell of the run through edge cell c (no cell past the line's end is one). */
static int run_end(const struct pt__steer_index *ix, int vert, int l, int c, int s) {
    for (;;) {
        uint64_t gap = ~edge_word(ix, vert, l, c, s);
        if (gap) return c + __builtin_ctzll(gap);
        c += 57;
    }
}

/* Appends to out[n..] the runs of boundary l through cells cc-1 .. cc+1; the new count. */
static int line_runs(const struct pt__steer_index *ix, int vert, int l, int cc, run *out, int n) {
    int len = vert ? ix->bits_h : ix->bits_w;
    for (int c = cc - 1; c <= cc + 1; c++) {
        if (c < 0 || c >= len) continue;
        for (int s = 1; s >= -1; s -= 2) {
            if (!(edge_word(ix, vert, l, c, s) & 1)) continue;
            int first = run_first(ix, vert, l, c, s);
            const run *p = n > 0 ? &out[n - 1] : NULL; /* a run through c-1 too came just before */
            if (p && p->vert == vert && p->line == l && p->s == s && p->first == first) continue;
            out[n++] = (run){vert, l, s, first, run_end(ix, vert, l, c, s)};
        }
    }
    return n;
}

/* The runs of the four boundary lines through cell (x, y) that can hold its edges. */
static int cell_runs(const struct pt__steer_index *ix, int x, int y, run *out) {
    int n = line_runs(ix, 0, y, x, out, 0);
    n = line_runs(ix, 0, y + 1, x, out, n);
    n = line_runs(ix, 1, x, y, out, n);
    return line_runs(ix, 1, x + 1, y, out, n);
}

/* The wall of a run, as build_map_walls makes it (winding: normal == perp(b - a)). */
static pt_wall run_wall(const run *r) {
    double l = r->line, f = r->first, e = r->end;
    pt_wall w;
    if (!r->vert) {
        w.a = r->s > 0 ? pt_v2(f, l) : pt_v2(e, l);
        w.b = r->s > 0 ? pt_v2(e, l) : pt_v2(f, l);
        w.normal = pt_v2(0.0, r->s > 0 ? 1.0 : -1.0);
    } else {
        w.a = r->s > 0 ? pt_v2(l, e) : pt_v2(l, f);
        w.b = r->s > 0 ? pt_v2(l, f) : pt_v2(l, e);
        w.normal = pt_v2(r->s > 0 ? 1.0 : -1.0, 0.0);
    }
    return w;
}

static int run_eq(const run *a, const run *b) {
    return a->vert == b->vert && a->line == b->line && a->s == b->s && a->first == b->first && a->end == b->end;
}

/* ---- the clearances ------------------------------------------------------------------ */

/* The clearances after cell (cx, cy) turned solid (solid) or open: tile_clear as the build's
 * distance transform leaves it, changed only where it changes. */
static void clear_update(struct pt__steer_index *ix, int cx, int cy, int solid) {
    const int W = ix->bits_w, H = ix->bits_h;
    uint8_t *d = ix->tile_clear;
#define AT(x, y) d[(size_t)(y) * (size_t)W + (size_t)(x)]
    if (solid) {
        /* Distances only fall: ring by ring, cells farther from everything else than from
         * the cell; a ring where none is ends it (a cell of the next ring so placed has a
         * neighbour toward the cell so placed too). */
        AT(cx, cy) = 0;
        for (int r = 1; r < 255; r++) {
            int any = 0;
            for (int y = cy - r; y <= cy + r; y++) {
                if (y < 0 || y >= H) continue;
                int step = (y == cy - r || y == cy + r) ? 1 : 2 * r;
                for (int x = cx - r; x <= cx + r; x += step) {
                    if (x < 0 || x >= W) continue;
                    if (AT(x, y) > r) AT(x, y) = (uint8_t)r, any = 1;
                }
            }
            if (!any) break;
        }
        return;
    }
    /* Distances only grow, for the cells whose nearest solid was the cell: those with a
     * clearance equal to their distance to it, ring by ring as above. They are cleared, and
     * the transform runs again over the square around them, whose rim holds right values. */
    int K = 0;
    for (int r = 0; r < 255; r++) {
        int any = 0;
        for (int y = cy - r; y <= cy + r; y++) {
            if (y < 0 || y >= H) continue;
            int step = (y == cy - r || y == cy + r) ? 1 : 2 * r;
            if (step == 0) step = 1;
            for (int x = cx - r; x <= cx + r; x += step) {
                if (x < 0 || x >= W) continue;
                if (AT(x, y) == r) AT(x, y) = 255, any = 1;
            }
        }
        if (!any) break;
        K = r;
    }
    int x0 = cx - K - 1 < 0 ? 0 : cx - K - 1, x1 = cx + K + 1 >= W ? W - 1 : cx + K + 1;
    int y0 = cy - K - 1 < 0 ? 0 : cy - K - 1, y1 = cy + K + 1 >= H ? H - 1 : cy + K + 1;
#define NEAR(x, y) ((x) >= 0 && (x) < W && (y) >= 0 && (y) < H ? AT(x, y) : 0)
    for (int pass = 0; pass < 2; pass++) {
        int st = pass ? -1 : 1;
        for (int y = pass ? y1 : y0; y >= y0 && y <= y1; y += st)
            for (int x = pass ? x1 : x0; x >= x0 && x <= x1; x += st) {
                int v = AT(x, y);
                if (NEAR(x - st, y) + 1 < v) v = NEAR(x - st, y) + 1;
                for (int dx = -1; dx <= 1; dx++)
                    if (NEAR(x + dx, y - st) + 1 < v) v = NEAR(x + dx, y - st) + 1;
                AT(x, y) = (uint8_t)v;
            }
    }
#undef NEAR
#undef AT
}

/* ---- the update ---------------------------------------------------------------------- */

int pt_steer_env_update_tile(pt_steer_env *env, int x, int y) {
    if (!env || !env->map || !env->ix || !env->ix->solid_bits || !env->ix->wall_n || !pt_map_in(env->map, x, y))
        return PT_ERR_OUT_OF_MAP;
    struct pt__steer_index *ix = env->ix;
    int solid = !pt_map_walkable(env->map, x, y);
    uint8_t *bit = &ix->solid_bits[(size_t)y * (size_t)ix->bits_stride + (size_t)(x >> 3)];
    uint8_t *cbit = &ix->solid_cols[(size_t)x * (size_t)ix->cols_stride + (size_t)(y >> 3)];
    if (((*bit >> (x & 7)) & 1) == solid) return PT_OK; /* walkability as it was: nothing to do */
    /* The walls that may change, before and after: at most three runs on each line. */
    run old[12], now[12];
    int nold = cell_runs(ix, x, y, old);
    *bit ^= (uint8_t)(1u << (x & 7));
    *cbit ^= (uint8_t)(1u << (y & 7));
    int nnow = cell_runs(ix, x, y, now);
    /* A run in both lists is the same wall: it stays. */
    int keep_old[12] = {0}, keep_now[12] = {0}, adds = 0;
    size_t entries = 0;
    for (int i = 0; i < nold; i++)
        for (int j = 0; j < nnow; j++)
            if (!keep_now[j] && run_eq(&old[i], &now[j])) keep_old[i] = keep_now[j] = 1;
    for (int j = 0; j < nnow; j++) {
        if (keep_now[j]) continue;
        pt_wall w = run_wall(&now[j]);
        int bx0, by0, bx1, by1;
        wall_blocks(env, &w, &bx0, &by0, &bx1, &by1);
        entries += (size_t)(bx1 - bx0 + 1) * (size_t)(by1 - by0 + 1);
        adds++;
    }
    /* Room first (env unchanged when there is none): the array, and spare slots. */
    if (env->nwalls + adds > ix->walls_cap) {
        int grow = env->nwalls + adds + (env->nwalls + adds) / 8 + 16;
        pt_wall *walls = PT_REALLOC(env->walls, sizeof *walls * (size_t)grow);
        if (!walls) goto nomem;
        env->walls = walls;
        ix->walls_cap = grow;
    }
    int nbk = ix->bcols * ix->brows;
    if ((size_t)ix->wall_spare < entries && pt__steer_walls_spread(env, 1 + (int)(entries / (size_t)nbk)) < 0)
        goto nomem;
    for (int i = 0; i < nold; i++) {
        if (keep_old[i]) continue;
        pt_wall w = run_wall(&old[i]);
        int bx0, by0, bx1, by1;
        wall_blocks(env, &w, &bx0, &by0, &bx1, &by1);
        int k = blk_find(env, by0 * ix->bcols + bx0, pt__wall_key_of(&w));
        if (k >= 0) wall_remove(env, ix->wall_ids[k]);
    }
    long moved = 0;
    for (int j = 0; j < nnow; j++) {
        if (keep_now[j]) continue;
        int id = env->nwalls++, bx0, by0, bx1, by1;
        env->walls[id] = run_wall(&now[j]);
        float box[4];
        wall_box_f(&env->walls[id], box);
        wall_blocks(env, &env->walls[id], &bx0, &by0, &bx1, &by1);
        for (int by = by0; by <= by1; by++)
            for (int bx = bx0; bx <= bx1; bx++) moved += blk_insert(env, by * ix->bcols + bx, id, box);
    }
    /* Many slots moved: the spare ones are far apart here; spread them again (the lists are
     * right either way, so running out of memory here changes nothing). */
    if (moved > MOVE_LIMIT) (void)pt__steer_walls_spread(env, 1);
    clear_update(ix, x, y, solid);
    return PT_OK;
nomem:
    *bit ^= (uint8_t)(1u << (x & 7));
    *cbit ^= (uint8_t)(1u << (y & 7));
    return PT_ERR_NOMEM;
}
