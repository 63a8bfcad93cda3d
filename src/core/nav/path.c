/* SPDX-License-Identifier: Zlib */
/* Shortest paths on the tile grid (patrol/path.h): A* to one goal, to the nearest of many
 * goals, and a flood of walking costs from many sources (pt_path_flood), all one search over
 * a binary heap, its per-cell arrays reused through generation stamps. */
#include <patrol/path.h>

#include <patrol/config.h>
#include <patrol/error.h>
#include <stdint.h>
#include <string.h>

struct pt_pathfinder {
    const pt_map *map;
    int w, h;
    uint32_t *g;        /* cost from the start */
    int32_t *parent;    /* previous cell index */
    uint32_t *stamp;    /* generation of g/parent; stamp|1 bit means closed (see below) */
    uint32_t *goal;     /* generation when the cell is a goal; goal_idx holds which */
    int32_t *goal_idx;
    uint32_t gen;
    int max_expand;
    /* pt_path_flood: the source each cell was reached from, the cost limit (0 = none), what
     * is reported (every cell reached, or only the goal cells: then the search stops once
     * all are reached) */
    int32_t *source;
    uint32_t cost_limit;
    int flood, flood_only, flood_left, flood_n, flood_max;
    pt_path_reach *flood_out;
    /* binary heap of (f, seq, cell); seq makes ties deterministic (FIFO among equals) */
    struct node { uint32_t f, seq; int32_t cell; } *heap;
    int heap_n, heap_cap;
};

pt_pathfinder *pt_pathfinder_create(const pt_map *map) {
    pt_pathfinder *pf = PT_CALLOC(1, sizeof *pf);
    if (!pf) return NULL;
    size_t n = (size_t)map->w * (size_t)map->h;
    pf->map = map;
    pf->w = map->w;
    pf->h = map->h;
    pf->g = PT_MALLOC(n * sizeof *pf->g);
    pf->parent = PT_MALLOC(n * sizeof *pf->parent);
    pf->stamp = PT_CALLOC(n, sizeof *pf->stamp);
    pf->goal = PT_CALLOC(n, sizeof *pf->goal);
    pf->goal_idx = PT_MALLOC(n * sizeof *pf->goal_idx);
    pf->source = PT_MALLOC(n * sizeof *pf->source);
    pf->heap_cap = 1024;
    pf->heap = PT_MALLOC((size_t)pf->heap_cap * sizeof *pf->heap);
    if (!pf->g || !pf->parent || !pf->stamp || !pf->goal || !pf->goal_idx || !pf->source || !pf->heap) {
        pt_pathfinder_destroy(pf);
        return NULL;
    }
    return pf;
}

void pt_pathfinder_destroy(pt_pathfinder *pf) {
    if (!pf) return;
    PT_FREE(pf->g);
    PT_FREE(pf->parent);
    PT_FREE(pf->stamp);
    PT_FREE(pf->goal);
    PT_FREE(pf->goal_idx);
    PT_FREE(pf->source);
    PT_FREE(pf->heap);
    PT_FREE(pf);
}

void pt_pathfinder_set_limit(pt_pathfinder *pf, int max_expand) { pf->max_expand = max_expand > 0 ? max_expand : 0; }

static int node_less(const struct node *a, const struct node *b) {
    return a->f < b->f || (a->f == b->f && a->seq < b->seq);
}

static int heap_push(pt_pathfinder *pf, uint32_t f, uint32_t seq, int32_t cell) {
    if (pf->heap_n == pf->heap_cap) {
        int ncap = pf->heap_cap * 2;
        struct node *nh = PT_REALLOC(pf->heap, (size_t)ncap * sizeof *nh);
        if (!nh) return 0;
        pf->heap = nh;
        pf->heap_cap = ncap;
    }
    int i = pf->heap_n++;
    struct node nd = {f, seq, cell};
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!node_less(&nd, &pf->heap[p])) break;
        pf->heap[i] = pf->heap[p];
        i = p;
    }
    pf->heap[i] = nd;
    return 1;
}

static struct node heap_pop(pt_pathfinder *pf) {
    struct node top = pf->heap[0], last = pf->heap[--pf->heap_n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        const struct node *best = &last;
        if (l < pf->heap_n && node_less(&pf->heap[l], best)) { m = l; best = &pf->heap[l]; }
        if (r < pf->heap_n && node_less(&pf->heap[r], best)) { m = r; }
        if (m == i) break;
        pf->heap[i] = pf->heap[m];
        i = m;
    }
    if (pf->heap_n > 0) pf->heap[i] = last;
    return top;
}

static uint32_t octile(int dx, int dy) {
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    int mn = dx < dy ? dx : dy, mx = dx < dy ? dy : dx;
    return (uint32_t)(14 * mn + 10 * (mx - mn));
}

static int next_gen(pt_pathfinder *pf) {
    /* Two stamps per generation: 2k = open/seen, 2k+1 = closed. Wrap: clear everything. */
    pf->gen += 2;
    if (pf->gen >= 0xFFFFFFF0u) {
        size_t n = (size_t)pf->w * (size_t)pf->h;
        memset(pf->stamp, 0, n * sizeof *pf->stamp);
        memset(pf->goal, 0, n * sizeof *pf->goal);
        pf->gen = 2;
    }
    return 1;
}

/* Core search. single_goal >= 0: A* toward it (octile heuristic); else Dijkstra to any cell
 * whose goal stamp is current, or with pf->flood set, Dijkstra from the `nstart` cells
 * (sources) reporting cells as they close (pt_path_flood). */
static int search(pt_pathfinder *pf, const int32_t *start, int nstart, int32_t single_goal, pt_cell *out, int max,
                  int *which) {
    static const int dxs[8] = {0, 1, 0, -1, 1, 1, -1, -1};
    static const int dys[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    const pt_map *m = pf->map;
    uint32_t open = pf->gen, closed = pf->gen + 1, seq = 0;
    int gx = single_goal >= 0 ? single_goal % pf->w : 0, gy = single_goal >= 0 ? single_goal / pf->w : 0;
    pf->heap_n = 0;
    for (int i = 0; i < nstart; i++) {
        int32_t s = start[i];
        if (s < 0 || pf->stamp[s] == open) continue; /* a repeated source: the first keeps it */
        pf->g[s] = 0;
        pf->parent[s] = -1;
        pf->source[s] = i;
        pf->stamp[s] = open;
        uint32_t h0 = single_goal >= 0 ? octile(s % pf->w - gx, s / pf->w - gy) : 0;
        if (!heap_push(pf, h0, seq++, s)) return -1;
    }
    int expanded = 0, found = -1;
    while (pf->heap_n > 0) {
        struct node nd = heap_pop(pf);
        int32_t c = nd.cell;
        if (pf->stamp[c] == closed) continue;
        pf->stamp[c] = closed;
        if (pf->flood) {
            if (pf->cost_limit && pf->g[c] > pf->cost_limit) continue;
            if (!pf->flood_only || pf->goal[c] == pf->gen) {
                if (pf->flood_n < pf->flood_max)
                    pf->flood_out[pf->flood_n] = (pt_path_reach){c % pf->w, c / pf->w, (int)pf->g[c], pf->source[c]};
                pf->flood_n++;
                if (pf->flood_only && --pf->flood_left == 0) break;
            }
        } else if (single_goal >= 0 ? c == single_goal : pf->goal[c] == pf->gen) {
            found = c;
            break;
        }
        if (pf->max_expand && ++expanded > pf->max_expand) break;
        int cx = c % pf->w, cy = c / pf->w;
        for (int k = 0; k < 8; k++) {
            int nx = cx + dxs[k], ny = cy + dys[k];
            if (!pt_map_step_ok(m, cx, cy, nx, ny)) continue;
            int32_t nc = ny * pf->w + nx;
            if (pf->stamp[nc] == closed) continue;
            uint32_t ng = pf->g[c] + (k >= 4 ? 14u : 10u);
            if (pf->stamp[nc] == open && ng >= pf->g[nc]) continue;
            pf->stamp[nc] = open;
            pf->g[nc] = ng;
            pf->parent[nc] = c;
            pf->source[nc] = pf->source[c];
            uint32_t h = single_goal >= 0 ? octile(nx - gx, ny - gy) : 0;
            if (!heap_push(pf, ng + h, seq++, nc)) return -1;
        }
    }
    if (pf->flood) return pf->flood_n;
    if (found < 0) return -1;
    if (which) *which = single_goal >= 0 ? 0 : pf->goal_idx[found];
    int len = 0;
    for (int32_t c = found; c >= 0; c = pf->parent[c]) len++;
    int i = len;
    for (int32_t c = found; c >= 0; c = pf->parent[c]) {
        i--;
        if (i < max) {
            out[i].x = c % pf->w;
            out[i].y = c / pf->w;
        }
    }
    return len;
}

int pt_path_find(pt_pathfinder *pf, pt_cell from, pt_cell to, pt_cell *out, int max) {
    const pt_map *m = pf->map;
    if (!pt_map_walkable(m, from.x, from.y) || !pt_map_walkable(m, to.x, to.y)) return -1;
    next_gen(pf);
    int32_t s = from.y * pf->w + from.x;
    return search(pf, &s, 1, to.y * pf->w + to.x, out, max, NULL);
}

int pt_path_find_nearest(pt_pathfinder *pf, pt_cell from, const pt_cell *goals, int ngoals, pt_cell *out, int max,
                         int *which) {
    const pt_map *m = pf->map;
    if (!pt_map_walkable(m, from.x, from.y)) return -1;
    next_gen(pf);
    int any = 0;
    for (int i = ngoals - 1; i >= 0; i--) { /* reverse: the first listed goal wins a shared cell */
        if (!pt_map_walkable(m, goals[i].x, goals[i].y)) continue;
        int32_t c = goals[i].y * pf->w + goals[i].x;
        pf->goal[c] = pf->gen;
        pf->goal_idx[c] = i;
        any = 1;
    }
    if (!any) return -1;
    int32_t s = from.y * pf->w + from.x;
    return search(pf, &s, 1, -1, out, max, which);
}

int pt_path_flood(pt_pathfinder *pf, const pt_cell *from, int nfrom, int max_cost, const pt_cell *only, int nonly,
                  pt_path_reach *out, int max) {
    const pt_map *m = pf->map;
    if (nfrom < 1) return 0;
    int32_t *starts = PT_MALLOC((size_t)nfrom * sizeof *starts);
    if (!starts) return PT_ERR_NOMEM;
    int n = 0;
    for (int i = 0; i < nfrom; i++) /* a source off the walkable cells keeps its index unused */
        starts[i] = pt_map_walkable(m, from[i].x, from[i].y) ? from[i].y * pf->w + from[i].x : -1;
    next_gen(pf);
    pf->flood_left = 0;
    if (only) {
        for (int i = 0; i < nonly; i++) {
            if (!pt_map_walkable(m, only[i].x, only[i].y)) continue;
            int32_t c = only[i].y * pf->w + only[i].x;
            if (pf->goal[c] != pf->gen) pf->flood_left++;
            pf->goal[c] = pf->gen;
        }
    }
    pf->flood = 1;
    pf->flood_only = only != NULL;
    pf->flood_n = 0;
    pf->flood_max = max;
    pf->flood_out = out;
    pf->cost_limit = max_cost > 0 ? (uint32_t)max_cost : 0;
    if (!only || pf->flood_left > 0) n = search(pf, starts, nfrom, -1, NULL, 0, NULL);
    pf->flood = 0;
    PT_FREE(starts);
    return n;
}
