/* SPDX-License-Identifier: Zlib */
/* overlays.c - the debug overlays drawn over the map (PT_OVERLAY_*): planned paths, the
 * guards' patterns and their stops, the rays to the player, steering, memory, and the names
 * (also pt_render_labels). Each pt__draw_* here walks the scene's actors itself. */
#include "render_internal.h"

#include <patrol/bresenham.h>
#include <patrol/los.h>
#include <patrol/math.h>
#include <patrol/pattern.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cells still ahead on an actor's planned path, as dots joined by a line. */
static void draw_path(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a) {
    if (!a->path || a->path_len <= 0) return;
    int from = pt_clampi(a->path_idx, 0, a->path_len);
    int half = f->t * f->scale / 2, dot = f->scale * 2;
    pt__set_color(r->sdl, a->state == 2 ? 0xff5040c0u : 0x60c0ffc0u);
    int lx = pt__sx_of(f, a->x), ly = pt__sy_of(f, a->y);
    for (int i = from; i < a->path_len; i++) {
        const pt_cell *c = &a->path[i];
        if (!pt_map_in(m, c->x, c->y)) continue;
        int cx = pt__sx_of(f, c->x) + half, cy = pt__sy_of(f, c->y) + half;
        SDL_RenderDrawLine(r->sdl, lx, ly, cx, cy);
        SDL_Rect d = {cx - dot / 2, cy - dot / 2, dot, dot};
        SDL_RenderFillRect(r->sdl, &d);
        lx = cx;
        ly = cy;
    }
}

/* What the guard remembers: a line from it to each place and a mark there, faded by certainty. */
static void draw_memory(pt_render *r, const pt__xform *f, const pt_actor *a) {
    static const uint32_t colours[3] = {0x50e6ff00u, 0xfff0b400u, 0xff5a4a00u}; /* seen, heard, told */
    int n = pt_clampi(a->nmemory, 0, PT_ACTOR_MEMORY);
    for (int i = 0; i < n; i++) {
        const pt_memory_mark *k = &a->memory[i];
        if (k->kind < 0 || k->kind > 2 || !isfinite(k->x) || !isfinite(k->y) || !(k->certainty > 0)) continue;
        uint32_t alpha = (uint32_t)lround(40.0 + 200.0 * pt_clamp(k->certainty, 0.0, 1.0));
        pt__set_color(r->sdl, colours[k->kind] | (alpha / 3));
        pt__line_tiles(r, f, a->x, a->y, k->x, k->y);
        pt__set_color(r->sdl, colours[k->kind] | alpha);
        double s = 0.3;
        if (k->kind == 0) { /* a diamond */
            pt__line_tiles(r, f, k->x - s, k->y, k->x, k->y - s);
            pt__line_tiles(r, f, k->x, k->y - s, k->x + s, k->y);
            pt__line_tiles(r, f, k->x + s, k->y, k->x, k->y + s);
            pt__line_tiles(r, f, k->x, k->y + s, k->x - s, k->y);
        } else if (k->kind == 1) {
            pt__circle_tiles(r, f, k->x, k->y, s);
            pt__circle_tiles(r, f, k->x, k->y, s * 0.5);
        } else {
            SDL_FRect rc = {pt__fx_of(f, k->x - s), pt__fy_of(f, k->y - s), (float)(2 * s * f->t * f->scale),
                            (float)(2 * s * f->t * f->scale)};
            SDL_RenderDrawRectF(r->sdl, &rc);
            pt__line_tiles(r, f, k->x - s, k->y - s, k->x + s, k->y + s);
        }
    }
}

/* Distinct colours for per-guard overlays (patterns), by actor index. */
static uint32_t guard_hue(int i) {
    static const uint32_t hues[6] = {0x48d0ff00u, 0xff6ad500u, 0x7dff6a00u, 0xffb04000u, 0xb08cff00u, 0x40ffd000u};
    return hues[(unsigned)i % 6];
}

/* The guard's placed pattern: a walk as a line through its cells (its first cell boxed),
 * a matrix as its 1-cells. */
static void draw_pattern(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, int index) {
    if (!a->pattern || a->pattern_len <= 0) return;
    uint32_t c = guard_hue(index);
    int d = f->t * f->scale;
    if (a->pattern_matrix) {
        for (int i = 0; i < a->pattern_len; i++) {
            const pt_cell *p = &a->pattern[i];
            if (!pt_map_in(m, p->x, p->y)) continue;
            SDL_Rect rc = {pt__sx_of(f, p->x) + f->scale, pt__sy_of(f, p->y) + f->scale, d - 2 * f->scale,
                           d - 2 * f->scale};
            pt__set_color(r->sdl, c | 0x38u);
            SDL_RenderFillRect(r->sdl, &rc);
            pt__set_color(r->sdl, c | 0xa0u);
            SDL_RenderDrawRect(r->sdl, &rc);
        }
        return;
    }
    pt__set_color(r->sdl, c | 0xc0u);
    for (int i = 0; i + 1 < a->pattern_len; i++) {
        const pt_cell *p = &a->pattern[i], *q = &a->pattern[i + 1];
        pt__line_tiles(r, f, p->x + 0.5, p->y + 0.5, q->x + 0.5, q->y + 0.5);
    }
    const pt_cell *first = &a->pattern[0], *last = &a->pattern[a->pattern_len - 1];
    if (a->pattern_len > 2 && abs(first->x - last->x) <= 1 && abs(first->y - last->y) <= 1)
        pt__line_tiles(r, f, last->x + 0.5, last->y + 0.5, first->x + 0.5, first->y + 0.5); /* a loop */
    int dot = f->scale * 2;
    for (int i = 0; i < a->pattern_len; i++) {
        const pt_cell *p = &a->pattern[i];
        SDL_Rect rc = {pt__sx_of(f, p->x) + d / 2 - dot / 2, pt__sy_of(f, p->y) + d / 2 - dot / 2, dot, dot};
        SDL_RenderFillRect(r->sdl, &rc);
    }
    SDL_Rect start = {pt__sx_of(f, first->x) + f->scale * 2, pt__sy_of(f, first->y) + f->scale * 2, d - 4 * f->scale,
                      d - 4 * f->scale};
    SDL_RenderDrawRect(r->sdl, &start);
}

/* The pattern's stops: a diamond on the cell, for a look an arc over the angles it sweeps
 * (around its facing on arrival) with a spoke at that facing, and the stop's length in
 * seconds beside it. */
static void draw_stops(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *a, int index) {
    if (!a->pattern_run) return;
    enum { MAX_STOPS = 256 };
    pt_pattern_stop st[MAX_STOPS];
    int n = pt_patrun_stops(a->pattern_run, m, st, MAX_STOPS);
    uint32_t c = guard_hue(index);
    for (int i = 0; i < n && i < MAX_STOPS; i++) {
        const pt_look *lk = st[i].look;
        if (!lk || !pt_map_in(m, st[i].cell.x, st[i].cell.y)) continue;
        double cx = st[i].cell.x + 0.5, cy = st[i].cell.y + 0.5, h = st[i].heading, q = 0.3;
        pt__set_color(r->sdl, c | 0xffu);
        pt__line_tiles(r, f, cx - q, cy, cx, cy - q);
        pt__line_tiles(r, f, cx, cy - q, cx + q, cy);
        pt__line_tiles(r, f, cx + q, cy, cx, cy + q);
        pt__line_tiles(r, f, cx, cy + q, cx - q, cy);
        if (lk->look > 0 && lk->nangles > 0 && isfinite(h)) {
            double lo = 0.0, hi = 0.0, rad = 0.85;
            for (int k = 0; k < lk->nangles && k < PT_MAX_LOOK_ANGLES; k++) {
                lo = fmin(lo, lk->angles[k]);
                hi = fmax(hi, lk->angles[k]);
            }
            int segs = (int)ceil((hi - lo) / 10.0);
            double px = cx + cos(h + pt_rad(lo)) * rad, py = cy + sin(h + pt_rad(lo)) * rad;
            pt__line_tiles(r, f, cx, cy, px, py);
            for (int k = 1; k <= segs; k++) {
                double ang = h + pt_rad(lo + (hi - lo) * k / segs), nx = cx + cos(ang) * rad, ny = cy + sin(ang) * rad;
                pt__line_tiles(r, f, px, py, nx, ny);
                px = nx;
                py = ny;
            }
            pt__line_tiles(r, f, cx, cy, px, py);
            pt__set_color(r->sdl, 0xffffffc0u);
            pt__line_tiles(r, f, cx, cy, cx + cos(h) * rad, cy + sin(h) * rad);
        }
        char txt[24];
        snprintf(txt, sizeof txt, "%gs", (double)(lk->wait + lk->look) / PT_PATTERN_TICK_HZ);
        int fs = f->scale > 1 ? f->scale / 2 : 1, d = f->t * f->scale;
        int tx = pt__sx_of(f, st[i].cell.x) + d * 3 / 4, ty = pt__sy_of(f, st[i].cell.y) - d / 4;
        pt_draw_text(r, tx + fs, ty + fs, fs, 0x000000c0u, txt);
        pt_draw_text(r, tx, ty, fs, 0xffffffffu, txt);
    }
}

/* Line of sight from a guard to the player, decided by pt_can_see from the simulation's
 * positions: green when seen; red when in range and cone but a tile blocks the ray (that
 * cell boxed); faint grey when out of range or cone. */
static void draw_ray(pt_render *r, const pt_map *m, const pt__xform *f, const pt_actor *g, const pt_actor *p) {
    double ex = g->has_eye ? g->eye_x : g->x, ey = g->has_eye ? g->eye_y : g->y;
    double tx = p->has_eye ? p->eye_x : p->x, ty = p->has_eye ? p->eye_y : p->y;
    if (!isfinite(ex) || !isfinite(ey) || !isfinite(tx) || !isfinite(ty)) return;
    if (pt_can_see(m, ex, ey, g->heading, g->view_dist, g->view_angle, tx, ty)) {
        pt__set_color(r->sdl, 0x40ff60e0u);
        pt__line_tiles(r, f, g->x, g->y, p->x, p->y);
        return;
    }
    int gx = (int)floor(ex), gy = (int)floor(ey), px = (int)floor(tx), py = (int)floor(ty);
    double dist = hypot((double)(px - gx), (double)(py - gy)); /* cell centres, as pt_can_see */
    double off = fabs(pt_wrap_angle(atan2(ty - ey, tx - ex) - g->heading));
    int in_cone = g->view_angle >= PT_TAU - 1e-9 || off <= g->view_angle / 2 + 1e-9;
    if (dist <= g->view_dist && in_cone) {
        /* In range and cone, yet unseen: a tile blocks the ray. Box the first cell past
         * which the guard's ray is no longer clear. */
        pt_line_iter it;
        pt_line_iter_init(&it, gx, gy, px, py);
        int bx = px, by = py, steps = 0;
        while (pt_line_iter_next(&it) && steps++ < 4 * (m->w + m->h) + 8) {
            if (!pt_los_clear(m, gx, gy, it.x, it.y)) {
                bx = it.x;
                by = it.y;
                break;
            }
        }
        pt__set_color(r->sdl, 0xff3c30e0u);
        pt__line_tiles(r, f, g->x, g->y, bx + 0.5, by + 0.5);
        pt__set_color(r->sdl, 0xff3c3050u);
        pt__line_tiles(r, f, bx + 0.5, by + 0.5, p->x, p->y);
        int d = f->t * f->scale;
        SDL_Rect rc = {pt__sx_of(f, bx), pt__sy_of(f, by), d, d};
        pt__set_color(r->sdl, 0xff3c30ffu);
        SDL_RenderDrawRect(r->sdl, &rc);
        return;
    }
    pt__set_color(r->sdl, 0xc8c8c870u); /* out of range or cone */
    pt__line_tiles(r, f, g->x, g->y, p->x, p->y);
}

/* Continuous movers: the bounding circle, the velocity as an arrow one second long, and
 * what the steering behaviours use when the actor carries it. */
static void draw_steer(pt_render *r, const pt__xform *f, const pt_actor *a) {
    if (!a->continuous || !isfinite(a->x) || !isfinite(a->y)) return;
    double rad = a->radius > 0 ? a->radius : 0.35;
    if (a->neighbour_radius > 0) {
        pt__set_color(r->sdl, 0xffffff40u);
        pt__circle_tiles(r, f, a->x, a->y, a->neighbour_radius);
    }
    if (a->box_length > 0) {
        pt__set_color(r->sdl, 0xff9040b0u);
        pt__box_tiles(r, f, a->x, a->y, a->heading, a->box_length, rad);
    }
    pt__set_color(r->sdl, 0x40e0ffd0u);
    for (int i = 0; i < a->nfeelers && i < 3; i++) pt__line_tiles(r, f, a->x, a->y, a->feeler_x[i], a->feeler_y[i]);
    pt__set_color(r->sdl, 0x60e0ffc0u);
    pt__circle_tiles(r, f, a->x, a->y, rad);
    pt__set_color(r->sdl, 0xffff40e0u);
    pt__arrow_tiles(r, f, a->x, a->y, a->vel_x, a->vel_y);
    pt__set_color(r->sdl, 0xff40ffe0u);
    pt__arrow_tiles(r, f, a->x, a->y, a->force_x * 0.1, a->force_y * 0.1);
}

/* The names (PT_OVERLAY_LABELS), under the actors' feet, white on a dark backing so they read
 * over any tile or overlay. A label that would meet one already placed (a catch puts two
 * actors on one spot) moves down below it. */
void pt__draw_labels(pt_render *r, const pt__xform *f, const pt_actor *actors, int n) {
    enum { PLACED = 256 };
    SDL_Rect placed[PLACED];
    int np = 0, d = f->t * f->scale, fs = f->scale > 1 ? f->scale / 2 : 1;
    for (int i = 0; i < n; i++) {
        const pt_actor *a = &actors[i];
        if (!a->name || !a->name[0] || !isfinite(a->x) || !isfinite(a->y)) continue;
        /* A flock is labelled once, on its first member ("crows.1"; "crows" on a map). */
        const char *dot = a->kind == PT_KIND_BOID ? strrchr(a->name, '.') : NULL;
        if (dot && strcmp(dot, ".1") != 0) continue;
        int tw, th;
        pt_text_size(a->name, fs, &tw, &th);
        SDL_Rect box = {pt__sx_of(f, a->x - 0.5) + d / 2 - tw / 2 - fs,
                        pt__sy_of(f, a->y - 0.5) + d + 3 * f->scale - fs, tw + 2 * fs, th + 2 * fs};
        for (int tries = 0, moved = 1; moved && tries < 8; tries++) {
            moved = 0;
            for (int k = 0; k < np; k++)
                if (SDL_HasIntersection(&box, &placed[k])) {
                    box.y = placed[k].y + placed[k].h + fs;
                    moved = 1;
                }
        }
        if (np < PLACED) placed[np++] = box;
        pt__fill_rect(r, box.x, box.y, box.w, box.h, 0x140f1eb8u);
        pt_draw_text(r, box.x + fs, box.y + fs, fs, 0xffffffffu, a->name);
    }
}

void pt__draw_paths(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene) {
    for (int i = 0; i < scene->nactors; i++) draw_path(r, m, f, &scene->actors[i]);
}

void pt__draw_patterns(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene) {
    for (int i = 0; i < scene->nactors; i++) {
        draw_pattern(r, m, f, &scene->actors[i], i);
        draw_stops(r, m, f, &scene->actors[i], i);
    }
}

void pt__draw_rays(pt_render *r, const pt_map *m, const pt__xform *f, const pt_scene *scene) {
    const pt_actor *player = NULL;
    for (int i = 0; i < scene->nactors && !player; i++)
        if (scene->actors[i].kind == PT_KIND_PLAYER) player = &scene->actors[i];
    for (int i = 0; player && i < scene->nactors; i++)
        if (scene->actors[i].kind == PT_KIND_GUARD) draw_ray(r, m, f, &scene->actors[i], player);
}

void pt__draw_steer(pt_render *r, const pt__xform *f, const pt_actor *actors, int n) {
    for (int i = 0; i < n; i++) draw_steer(r, f, &actors[i]);
}

void pt__draw_memory(pt_render *r, const pt__xform *f, const pt_actor *actors, int n) {
    for (int i = 0; i < n; i++)
        if (actors[i].kind == PT_KIND_GUARD) draw_memory(r, f, &actors[i]);
}
