/* SPDX-License-Identifier: Zlib */
/* The world's lights and each tile's light level (patrol/light.h). */
#include "senses/light.h"

#include <patrol/light.h>
#include <patrol/los.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "state/events.h"

enum { BLOCK_SHIFT = 4 }; /* blocks of 16x16 cells for finding the lights a cell is in */

/* The cells light l can reach, clipped to the map: |dx|, |dy| <= the whole tiles below its
 * radius (d < radius needs |dx| < radius). 0 when there are none. */
static int light_box(const pt_map *m, const pt_light_def *l, int *x0, int *y0, int *x1, int *y1) {
    if (!(l->radius > 0)) return 0;
    double rr = ceil(l->radius) - 1.0;
    int r = rr < (double)m->w + m->h ? (int)rr : m->w + m->h;
    long ax = (long)l->x - r, bx = (long)l->x + r, ay = (long)l->y - r, by = (long)l->y + r;
    if (ax < 0) ax = 0;
    if (ay < 0) ay = 0;
    if (bx > m->w - 1) bx = m->w - 1;
    if (by > m->h - 1) by = m->h - 1;
    if (ax > bx || ay > by) return 0;
    *x0 = (int)ax, *y0 = (int)ay, *x1 = (int)bx, *y1 = (int)by;
    return 1;
}

/* Adds (sign 1) or takes off (-1) light i's units over its square, on the map as it is. */
static void light_add(pt_world *w, int i, int sign) {
    const pt_map *m = &w->map;
    const pt_light_def *l = &m->lights[i];
    int x0, y0, x1, y1;
    if (!light_box(m, l, &x0, &y0, &x1, &y1)) return;
    for (int y = y0; y <= y1; y++) {
        int32_t *row = w->light_field + (size_t)y * (size_t)m->w;
        for (int x = x0; x <= x1; x++) row[x] += sign * pt__light_units(m, l, x, y);
    }
}

/* The lights by blocks (w->light_block, light_in): a count, then a fill. */
static int blocks_build(pt_world *w) {
    const pt_map *m = &w->map;
    int bw = (m->w + 15) >> BLOCK_SHIFT, bh = (m->h + 15) >> BLOCK_SHIFT;
    size_t nb = (size_t)bw * (size_t)bh, total = 0;
    w->light_block = PT_CALLOC(nb + 1, sizeof *w->light_block);
    if (!w->light_block) return 0;
    w->light_bw = bw;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < m->nlights; i++) {
            int x0, y0, x1, y1;
            if (!light_box(m, &m->lights[i], &x0, &y0, &x1, &y1)) continue;
            for (int by = y0 >> BLOCK_SHIFT; by <= y1 >> BLOCK_SHIFT; by++)
                for (int bx = x0 >> BLOCK_SHIFT; bx <= x1 >> BLOCK_SHIFT; bx++) {
                    size_t b = (size_t)by * (size_t)bw + (size_t)bx;
                    if (pass == 0) w->light_block[b + 1]++, total++;
                    else w->light_in[w->light_block[b]++] = i; /* b's cursor: ends at b + 1's start */
                }
        }
        if (pass == 0) {
            if (total > (size_t)INT_MAX) return 0;
            for (size_t b = 0; b < nb; b++) w->light_block[b + 1] += w->light_block[b];
            w->light_in = PT_MALLOC(sizeof *w->light_in * (total ? total : 1));
            if (!w->light_in) return 0;
        } else {
            for (size_t b = nb; b > 0; b--) w->light_block[b] = w->light_block[b - 1]; /* back to the starts */
            w->light_block[0] = 0;
        }
    }
    return 1;
}

int pt__light_init(pt_world *w, pt_error *err) {
    w->ambient = w->map.ambient_set ? w->map.ambient : 1.0;
    w->light_on = NULL;
    w->light_field = NULL;
    w->light_block = w->light_in = NULL;
    w->light_bw = 0;
    w->light_cells = NULL;
    if (w->map.nlights <= 0) return PT_OK;
    const pt_map *m = &w->map;
    w->light_on = PT_CALLOC((size_t)m->nlights, 1);
    w->light_field = PT_CALLOC((size_t)m->w * (size_t)m->h, sizeof *w->light_field);
    if (!w->light_on || !w->light_field || !blocks_build(w))
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d lights", m->nlights);
    size_t nb = (size_t)w->light_bw * (size_t)((m->h + 15) >> BLOCK_SHIFT);
    w->light_cells = PT_CALLOC(nb ? nb : 1, sizeof *w->light_cells);
    if (!w->light_cells) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d lights", m->nlights);
    for (int i = 0; i < m->nlights && i < PT__LIGHT_KNOWN; i++) {
        const pt_light_def *l = &m->lights[i];
        int x = l->x < 0 ? 0 : l->x >= m->w ? m->w - 1 : l->x, y = l->y < 0 ? 0 : l->y >= m->h ? m->h - 1 : l->y;
        w->light_cells[(size_t)(y >> BLOCK_SHIFT) * (size_t)w->light_bw + (size_t)(x >> BLOCK_SHIFT)] |= (uint64_t)1 << i;
    }
    for (int i = 0; i < m->nlights; i++) {
        w->light_on[i] = m->lights[i].on != 0;
        if (w->light_on[i]) light_add(w, i, 1);
    }
    return PT_OK;
}

void pt__light_fini(pt_world *w) {
    PT_FREE(w->light_on);
    PT_FREE(w->light_field);
    PT_FREE(w->light_block);
    PT_FREE(w->light_in);
    PT_FREE(w->light_cells);
    w->light_cells = NULL;
    w->light_on = NULL;
    w->light_field = NULL;
    w->light_block = w->light_in = NULL;
    w->light_bw = 0;
}

/* Whether a tile of flags a and b may differ for a ray (pt_los_clear reads the opaque bit,
 * and the walkable one of an opaque cell next to the ray's start). */
static int sight_differs(uint8_t a, uint8_t b) { return ((a ^ b) & (PT_TILE_OPAQUE | PT_TILE_WALKABLE)) != 0; }

/* Every light that is on and whose square holds (x, y), taken off (sign -1) or put back (1). */
static void cell_lights(pt_world *w, int x, int y, int sign) {
    const pt_map *m = &w->map;
    size_t b = (size_t)(y >> BLOCK_SHIFT) * (size_t)w->light_bw + (size_t)(x >> BLOCK_SHIFT);
    for (int k = w->light_block[b]; k < w->light_block[b + 1]; k++) {
        int i = w->light_in[k], x0, y0, x1, y1;
        if (w->light_on[i] && light_box(m, &m->lights[i], &x0, &y0, &x1, &y1) && x >= x0 && x <= x1 && y >= y0 && y <= y1)
            light_add(w, i, sign);
    }
}

int pt__light_cell_before(pt_world *w, int x, int y, uint8_t flags) {
    const pt_map *m = &w->map;
    if (!w->light_field || !pt_map_in(m, x, y)) return 0;
    if (!sight_differs(m->flags[(size_t)y * (size_t)m->w + (size_t)x], flags)) return 0;
    cell_lights(w, x, y, -1);
    return 1;
}

void pt__light_cell_after(pt_world *w, int x, int y) { cell_lights(w, x, y, 1); }

int pt__light_units(const pt_map *map, const pt_light_def *l, int x, int y) {
    double dx = x - l->x, dy = y - l->y;
    double d = sqrt(dx * dx + dy * dy);
    if (!(d < l->radius)) return 0;
    if (!pt_los_clear(map, l->x, l->y, x, y)) return 0;
    return pt__falloff_units(l->level, d, l->radius);
}

int pt__light_switch(pt_world *w, int i, int on) {
    on = on != 0;
    if (w->light_on[i] == on) return 0;
    w->light_on[i] = (unsigned char)on;
    light_add(w, i, on ? 1 : -1);
    return 1;
}

void pt__light_set(pt_world *w, int i, int on, uint32_t by) {
    if (!pt__light_switch(w, i, on)) return;
    const pt_light_def *l = &w->map.lights[i];
    pt__world_event(w, PT_EVENT_LIGHT, by, (uint32_t)(on != 0), l->x, l->y);
}

int pt_world_light_count(const pt_world *w) { return w->map.nlights; }

int pt_world_light_find(const pt_world *w, const char *name) {
    for (int i = 0; name && i < w->map.nlights; i++)
        if (!strcmp(w->map.lights[i].name, name)) return i;
    return -1;
}

int pt_world_light_get(const pt_world *w, int i, pt_light *out) {
    if (i < 0 || i >= w->map.nlights) return PT_ERR_BAD_VALUE;
    const pt_light_def *l = &w->map.lights[i];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", l->name);
    out->x = l->x;
    out->y = l->y;
    out->radius = l->radius;
    out->level = l->level;
    out->on = w->light_on[i];
    return PT_OK;
}

int pt_world_set_light(pt_world *w, int i, int on, pt_error *err) {
    pt_error_clear(err);
    if (i < 0 || i >= w->map.nlights)
        return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "no light %d (the world has %d)", i, w->map.nlights);
    pt__light_set(w, i, on, PT_LIGHT_BY_GAME);
    return PT_OK;
}

/* Ambient plus the field, capped: O(1). */
static int static_units(const pt_world *w, int x, int y) {
    long sum = (long)floor(w->ambient * PT__LIGHT_ONE + 0.5);
    if (w->light_field) sum += w->light_field[(size_t)y * (size_t)w->map.w + (size_t)x];
    return sum < PT__LIGHT_ONE ? (int)sum : PT__LIGHT_ONE;
}

double pt_world_light_static(const pt_world *w, int x, int y) {
    if (!pt_map_in(&w->map, x, y)) return 0.0;
    return (double)static_units(w, x, y) / PT__LIGHT_ONE;
}

double pt_world_light_at(const pt_world *w, int x, int y) {
    if (!pt_map_in(&w->map, x, y)) return 0.0;
    long u = static_units(w, x, y);
    if (u < PT__LIGHT_ONE) u += pt__lantern_units(w, x, y);
    return (double)(u < PT__LIGHT_ONE ? u : PT__LIGHT_ONE) / PT__LIGHT_ONE;
}

double pt_world_visibility(const pt_world *w) {
    const pt_entity *p = &w->ents[0];
    double l = pt_world_light_at(w, p->x, p->y);
    return pt__visibility_of(l, pt_world_gait(w));
}

uint64_t pt__lights_near(const pt_world *w, double x0, double y0, double x1, double y1) {
    const pt_map *m = &w->map;
    if (!w->light_cells || !(x1 >= 0.0) || !(y1 >= 0.0) || !(x0 < m->w) || !(y0 < m->h)) return 0;
    int ax = x0 > 0.0 ? (int)x0 : 0, ay = y0 > 0.0 ? (int)y0 : 0;
    int bx = x1 < m->w - 1 ? (int)x1 : m->w - 1, by = y1 < m->h - 1 ? (int)y1 : m->h - 1;
    uint64_t near = 0;
    for (int y = ay >> BLOCK_SHIFT; y <= by >> BLOCK_SHIFT; y++)
        for (int x = ax >> BLOCK_SHIFT; x <= bx >> BLOCK_SHIFT; x++)
            near |= w->light_cells[(size_t)y * (size_t)w->light_bw + (size_t)x];
    return near;
}
