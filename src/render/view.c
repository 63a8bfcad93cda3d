/* SPDX-License-Identifier: Zlib */
/* view.c - what drawing decides before it draws, with no SDL call: the overlays by name
 * (--overlay lists), which sprite a tile or an actor shows, a map's actors before any world,
 * and the view (its defaults, the fit to an output, the camera following a point). The lowest
 * file of the renderer: everything that draws calls it. */
#include "render_internal.h"

#include <patrol/math.h>

#include <math.h>
#include <string.h>

/* ---- overlays by name ---------------------------------------------------------------------- */

static const struct { const char *name; unsigned bit; } overlay_names[] = {
    {"grid", PT_OVERLAY_GRID},           {"cones", PT_OVERLAY_CONES},
    {"labels", PT_OVERLAY_LABELS},       {"awareness", PT_OVERLAY_AWARENESS},
    {"paths", PT_OVERLAY_PATHS},         {"patterns", PT_OVERLAY_PATTERNS},
    {"steer", PT_OVERLAY_STEER},         {"sight", PT_OVERLAY_SIGHT},
    {"rays", PT_OVERLAY_RAYS},           {"search", PT_OVERLAY_SEARCH},
    {"memory", PT_OVERLAY_MEMORY},       {"hearing", PT_OVERLAY_HEARING},
    {"light", PT_OVERLAY_LIGHT},
};

const char *pt_overlay_name(unsigned bit) {
    for (size_t i = 0; i < sizeof overlay_names / sizeof overlay_names[0]; i++)
        if (overlay_names[i].bit == bit) return overlay_names[i].name;
    return NULL;
}

int pt_overlay_parse(const char *list, unsigned *out, int *bad_at) {
    unsigned bits = 0;
    const char *p = list ? list : "";
    if (bad_at) *bad_at = 0;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        unsigned bit = 0;
        int ok = 0;
        if (n == 3 && strncmp(p, "all", 3) == 0) bit = PT_OVERLAY_ALL, ok = 1;
        else if (n == 5 && strncmp(p, "debug", 5) == 0) bit = PT_OVERLAY_DEBUG, ok = 1;
        else if (n == 4 && strncmp(p, "none", 4) == 0) bit = 0, ok = 1;
        for (size_t i = 0; !ok && i < sizeof overlay_names / sizeof overlay_names[0]; i++)
            if (strlen(overlay_names[i].name) == n && strncmp(p, overlay_names[i].name, n) == 0)
                bit = overlay_names[i].bit, ok = 1;
        if (!ok) {
            if (bad_at) *bad_at = (int)(p - (list ? list : "")) + 1;
            return 0;
        }
        bits |= bit;
        if (!end) break;
        p = end + 1;
    }
    if (out) *out = bits;
    return 1;
}

/* ---- pure helpers -------------------------------------------------------------------------- */

int pt_render_row_for(pt_kind kind, pt_flock_kind flock) {
    switch (kind) {
    case PT_KIND_PLAYER: return 0;
    case PT_KIND_GUARD: return 1;
    case PT_KIND_PREY: return 2;
    case PT_KIND_BOID: return flock == PT_FLOCK_CROW ? 4 : 3;
    default: return 1;
    }
}

int pt_render_frame_col(double heading, int moving, double walk) {
    double a = pt_wrap_angle(heading);
    int dir; /* sheet blocks: 0 down, 1 left, 2 right, 3 up */
    if (fabs(a) <= PT_PI / 4 + 1e-9) dir = 2;
    else if (fabs(a) >= 3 * PT_PI / 4 - 1e-9) dir = 1;
    else dir = a > 0 ? 0 : 3; /* clockwise on screen: positive angles point down */
    /* Walking loops stand, step A, stand, step B (assets/README.md), half a tile each. */
    static const int cycle[4] = {0, 1, 0, 2};
    int frame = 0;
    if (moving && isfinite(walk) && fabs(walk) < 1e15) frame = cycle[(long long)floor(walk * 2.0) & 3];
    return dir * 3 + frame;
}

int pt_render_tile_sprite(const pt_tile_def *def, double time) {
    static const struct { const char *name; int sprite; } by_name[] = {
        {"floor", 0}, {"wall", 1},  {"water", 2}, {"bridge", 4}, {"door", 5},
        {"grass", 6}, {"bush", 7},  {"exit", 8},  {"dirt", 9}, {"tree", 10},
        {"door_closed", 5}, {"door_locked", 5}, /* tinted when drawn (map_layer.c) */
    };
    int s = 0;
    if (def && def->sprite >= 0) {
        s = def->sprite;
    } else if (def) {
        for (size_t i = 0; i < sizeof by_name / sizeof by_name[0]; i++)
            if (strcmp(def->name, by_name[i].name) == 0) s = by_name[i].sprite;
    }
    if (s == 2 || s == 3) {
        double t = isfinite(time) ? time : 0.0;
        s = 2 + (int)((long long)floor(t * 2.0) & 1);
    }
    return s;
}

int pt_render_actors_from_map(const pt_map *map, pt_actor *out, int cap) {
    if (!map) return 0;
    int n = 1 + map->nents;
    for (int i = 0; i < n && i < cap; i++) {
        const pt_entity_def *src = i == 0 ? &map->player : &map->ents[i - 1];
        pt_entity_def d = *src;
        pt_entity_def_resolve(&d);
        pt_actor *a = &out[i];
        memset(a, 0, sizeof *a);
        a->kind = i == 0 ? PT_KIND_PLAYER : d.kind;
        a->row = pt_render_row_for(a->kind, src->flock_kind);
        a->x = d.x + 0.5;
        a->y = d.y + 0.5;
        a->heading = pt_rad(d.heading_deg);
        a->view_dist = d.view_dist;
        a->view_angle = pt_rad(d.view_angle_deg);
        a->name = src->name;
    }
    return n;
}

/* ---- views --------------------------------------------------------------------------------- */

void pt_view_resolve(pt_view *v, int out_w, int out_h) {
    if (v->w <= 0) v->w = out_w - v->x;
    if (v->h <= 0) v->h = out_h - v->y;
    if (v->scale <= 0) v->scale = 1;
    if (v->scale > PT_RENDER_MAX_SCALE) v->scale = PT_RENDER_MAX_SCALE;
    if (!isfinite(v->cam_x)) v->cam_x = 0;
    if (!isfinite(v->cam_y)) v->cam_y = 0;
}

void pt_view_map_size(const pt_map *map, int scale, long *w, long *h) {
    long t = (long)pt__tile_px(map) * (scale < 1 ? 1 : scale);
    if (w) *w = map ? map->w * t : 0;
    if (h) *h = map ? map->h * t : 0;
}

void pt_view_fit(pt_view *v, const pt_map *map, int out_w, int out_h, int min_tiles_w, int min_tiles_h) {
    v->w = out_w;
    v->h = out_h;
    if (min_tiles_w <= 0) min_tiles_w = 24;
    if (min_tiles_h <= 0) min_tiles_h = 14;
    int t = pt__tile_px(map);
    int tw = map && map->w < min_tiles_w ? map->w : min_tiles_w;
    int th = map && map->h < min_tiles_h ? map->h : min_tiles_h;
    if (tw < 1) tw = 1;
    if (th < 1) th = 1;
    int sx = out_w / (tw * t), sy = out_h / (th * t);
    int s = sx < sy ? sx : sy;
    v->scale = pt_clampi(s, 1, PT_RENDER_MAX_SCALE);
}

static double follow_axis(double f, int map_tiles, double view_tiles) {
    if (view_tiles >= map_tiles) return (map_tiles - view_tiles) / 2.0;
    double c = f - view_tiles / 2.0;
    return pt_clamp(c, 0.0, map_tiles - view_tiles);
}

void pt_view_follow(pt_view *v, const pt_map *map, double fx, double fy) {
    double unit = (double)pt__tile_px(map) * (v->scale < 1 ? 1 : v->scale);
    v->cam_x = follow_axis(isfinite(fx) ? fx : 0.0, map->w, v->w / unit);
    v->cam_y = follow_axis(isfinite(fy) ? fy : 0.0, map->h, v->h / unit);
}
