/* Drawing a scene: tiles, view cones, obstacles and actors sorted by depth, overlays. One
 * path for the window and for headless PNGs. */
#include "render_internal.h"

#include <patrol/los.h>
#include <patrol/math.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- overlays by name ---------------------------------------------------------------------- */

static const struct { const char *name; unsigned bit; } overlay_names[] = {
    {"grid", PT_OVERLAY_GRID},           {"cones", PT_OVERLAY_CONES},
    {"labels", PT_OVERLAY_LABELS},       {"awareness", PT_OVERLAY_AWARENESS},
    {"paths", PT_OVERLAY_PATHS},         {"patterns", PT_OVERLAY_PATTERNS},
    {"steer", PT_OVERLAY_STEER},         {"sight", PT_OVERLAY_SIGHT},
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
        {"grass", 6}, {"bush", 7},  {"exit", 8},  {"dirt", 9},
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

static int tile_px(const pt_map *m) {
    return m && m->tile_px >= PT_MIN_TILE_PX && m->tile_px <= PT_MAX_TILE_PX ? m->tile_px : PT_SPRITE_PX;
}

void pt_view_resolve(pt_view *v, int out_w, int out_h) {
    if (v->w <= 0) v->w = out_w - v->x;
    if (v->h <= 0) v->h = out_h - v->y;
    if (v->scale <= 0) v->scale = 1;
    if (v->scale > PT_RENDER_MAX_SCALE) v->scale = PT_RENDER_MAX_SCALE;
    if (!isfinite(v->cam_x)) v->cam_x = 0;
    if (!isfinite(v->cam_y)) v->cam_y = 0;
}

void pt_view_map_size(const pt_map *map, int scale, long *w, long *h) {
    long t = (long)tile_px(map) * (scale < 1 ? 1 : scale);
    if (w) *w = map ? map->w * t : 0;
    if (h) *h = map ? map->h * t : 0;
}

void pt_view_fit(pt_view *v, const pt_map *map, int out_w, int out_h, int min_tiles_w, int min_tiles_h) {
    v->w = out_w;
    v->h = out_h;
    if (min_tiles_w <= 0) min_tiles_w = 24;
    if (min_tiles_h <= 0) min_tiles_h = 14;
    int t = tile_px(map);
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
    double unit = (double)tile_px(map) * (v->scale < 1 ? 1 : v->scale);
    v->cam_x = follow_axis(isfinite(fx) ? fx : 0.0, map->w, v->w / unit);
    v->cam_y = follow_axis(isfinite(fy) ? fy : 0.0, map->h, v->h / unit);
}

/* ---- drawing ------------------------------------------------------------------------------- */

/* Map tiles -> output pixels, snapped to whole sprite pixels so the art stays crisp. */
typedef struct xform {
    int ox, oy;      /* output pixel of map position (0,0) */
    int t, scale;    /* tile size in sprite pixels, output pixels per sprite pixel */
} xform;

static int to_px(double tiles, int t, int scale) {
    double p = tiles * t;
    /* NaN and huge values stay harmless: 4e6 sprite pixels is beyond any map (4096 tiles of
     * 256), and times the largest scale, summed a few times, still fits an int. */
    if (!(p > -4e6 && p < 4e6)) p = p > 0 ? 4e6 : -4e6;
    return (int)lround(p) * scale;
}
static int sx_of(const xform *f, double x) { return f->ox + to_px(x, f->t, f->scale); }
static int sy_of(const xform *f, double y) { return f->oy + to_px(y, f->t, f->scale); }

static void set_color(SDL_Renderer *sdl, uint32_t rgba) {
    SDL_SetRenderDrawColor(sdl, (Uint8)(rgba >> 24), (Uint8)(rgba >> 16), (Uint8)(rgba >> 8), (Uint8)rgba);
}

static void draw_tiles(pt_render *r, const pt_map *m, const pt_view *v, const xform *f, int x0, int y0, int x1,
                       int y1) {
    int d = f->t * f->scale;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            int s = pt_render_tile_sprite(pt_map_tile(m, x, y), v->time);
            if (s < 0 || s >= r->ntiles) s = 0;
            pt__blit(r, r->tiles, s, r->ntiles, PT_SPRITE_PX, PT_SPRITE_PX, sx_of(f, x), sy_of(f, y), d, d);
        }
    }
}

static void draw_grid(pt_render *r, const pt_map *m, const xform *f, int x0, int y0, int x1, int y1) {
    (void)m;
    set_color(r->sdl, 0x00000050u);
    int top = sy_of(f, y0), bottom = sy_of(f, y1), left = sx_of(f, x0), right = sx_of(f, x1);
    for (int x = x0; x <= x1; x++) SDL_RenderDrawLine(r->sdl, sx_of(f, x), top, sx_of(f, x), bottom - 1);
    for (int y = y0; y <= y1; y++) SDL_RenderDrawLine(r->sdl, left, sy_of(f, y), right - 1, sy_of(f, y));
}

/* Distance (tiles) from (ox,oy) along unit (dx,dy) to the first opaque cell other than the
 * start cell, at most max: a grid walk (Amanatides-Woo), so thin diagonal gaps are not
 * skipped. The simulation decides sight with Bresenham; the cone is a picture of it. */
static double ray_length(const pt_map *m, double ox, double oy, double dx, double dy, double max) {
    int cx = (int)floor(ox), cy = (int)floor(oy);
    int stepx = dx > 0 ? 1 : -1, stepy = dy > 0 ? 1 : -1;
    double tdx = fabs(dx) > 1e-12 ? fabs(1.0 / dx) : 1e30;
    double tdy = fabs(dy) > 1e-12 ? fabs(1.0 / dy) : 1e30;
    double tx = fabs(dx) > 1e-12 ? (dx > 0 ? (cx + 1 - ox) : (ox - cx)) * tdx : 1e30;
    double ty = fabs(dy) > 1e-12 ? (dy > 0 ? (cy + 1 - oy) : (oy - cy)) * tdy : 1e30;
    for (int guard = 0; guard < 4 * (m->w + m->h) + 8; guard++) {
        double t;
        if (tx < ty) {
            t = tx;
            tx += tdx;
            cx += stepx;
        } else {
            t = ty;
            ty += tdy;
            cy += stepy;
        }
        if (t >= max) return max;
        if (pt_map_opaque(m, cx, cy)) return t;
    }
    return max;
}

static uint32_t cone_color(int state) {
    switch (state) {
    case 1: return 0xffa02800u;  /* suspicious */
    case 2: return 0xff302800u;  /* chase */
    case 3: return 0xff702800u;  /* search */
    default: return 0xfff07800u; /* patrol, return, idle */
    }
}

static void draw_cone(pt_render *r, const pt_map *m, const xform *f, const pt_actor *a) {
    enum { MAX_RAYS = 72 };
    if (!(a->view_dist > 0) || !(a->view_angle > 0) || !isfinite(a->x) || !isfinite(a->y)) return;
    double angle = a->view_angle > PT_TAU ? PT_TAU : a->view_angle;
    double dist = a->view_dist > 1e4 ? 1e4 : a->view_dist;
    int rays = (int)ceil(angle / pt_rad(3.0)) + 1;
    if (rays < 2) rays = 2;
    if (rays > MAX_RAYS) rays = MAX_RAYS;
    SDL_Vertex vert[MAX_RAYS + 1];
    int idx[3 * MAX_RAYS];
    uint32_t c = cone_color(a->state);
    SDL_Color inner = {(Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), 110};
    SDL_Color outer = {(Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), 40};
    vert[0].position.x = (float)sx_of(f, a->x);
    vert[0].position.y = (float)sy_of(f, a->y);
    vert[0].color = inner;
    vert[0].tex_coord.x = vert[0].tex_coord.y = 0;
    for (int i = 0; i < rays; i++) {
        double th = a->heading - angle / 2 + angle * i / (rays - 1);
        double dx = cos(th), dy = sin(th);
        double len = ray_length(m, a->x, a->y, dx, dy, dist);
        SDL_Vertex *p = &vert[1 + i];
        /* Sub-pixel positions are fine here: the fan is a translucent overlay, not pixel art. */
        p->position.x = (float)(f->ox + (a->x + dx * len) * f->t * f->scale);
        p->position.y = (float)(f->oy + (a->y + dy * len) * f->t * f->scale);
        /* Fade with distance so the cone reads as "how far it sees". */
        double k = len / dist;
        p->color = inner;
        p->color.a = (Uint8)(inner.a + (outer.a - inner.a) * k);
        p->tex_coord.x = p->tex_coord.y = 0;
    }
    int n = 0;
    for (int i = 0; i + 1 < rays; i++) {
        idx[n++] = 0;
        idx[n++] = 1 + i;
        idx[n++] = 2 + i;
    }
    SDL_RenderGeometry(r->sdl, NULL, vert, rays + 1, idx, n);
}

/* The cells still ahead on an actor's planned path, as dots joined by a line. */
static void draw_path(pt_render *r, const pt_map *m, const xform *f, const pt_actor *a) {
    if (!a->path || a->path_len <= 0) return;
    int from = pt_clampi(a->path_idx, 0, a->path_len);
    int half = f->t * f->scale / 2, dot = f->scale * 2;
    set_color(r->sdl, a->state == 2 ? 0xff5040c0u : 0x60c0ffc0u);
    int lx = sx_of(f, a->x), ly = sy_of(f, a->y);
    for (int i = from; i < a->path_len; i++) {
        const pt_cell *c = &a->path[i];
        if (!pt_map_in(m, c->x, c->y)) continue;
        int cx = sx_of(f, c->x) + half, cy = sy_of(f, c->y) + half;
        SDL_RenderDrawLine(r->sdl, lx, ly, cx, cy);
        SDL_Rect d = {cx - dot / 2, cy - dot / 2, dot, dot};
        SDL_RenderFillRect(r->sdl, &d);
        lx = cx;
        ly = cy;
    }
}

/* Every cell whose centre the guard sees, by the simulation's own rule. */
static void draw_sight(pt_render *r, const pt_map *m, const xform *f, const pt_actor *a) {
    double ex = a->has_eye ? a->eye_x : a->x, ey = a->has_eye ? a->eye_y : a->y;
    if (!(a->view_dist > 0) || !isfinite(ex) || !isfinite(ey) || !isfinite(a->heading)) return;
    int reach = (int)ceil(a->view_dist > 64 ? 64 : a->view_dist);
    int cx = (int)floor(ex), cy = (int)floor(ey), d = f->t * f->scale;
    int x0 = pt_clampi(cx - reach, 0, m->w), x1 = pt_clampi(cx + reach + 1, 0, m->w);
    int y0 = pt_clampi(cy - reach, 0, m->h), y1 = pt_clampi(cy + reach + 1, 0, m->h);
    uint32_t c = cone_color(a->state);
    set_color(r->sdl, (c & 0xffffff00u) | 0x58u);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            if (pt_can_see(m, ex, ey, a->heading, a->view_dist, a->view_angle, x + 0.5, y + 0.5)) {
                SDL_Rect rc = {sx_of(f, x), sy_of(f, y), d, d};
                SDL_RenderFillRect(r->sdl, &rc);
            }
}

static void draw_obstacle(pt_render *r, const xform *f, const pt_obstacle *o) {
    if (!isfinite(o->x) || !isfinite(o->y)) return;
    int k = isfinite(o->r) && o->r > 0.75 ? (int)lround(pt_clamp(2 * o->r, 1, 64)) : 1;
    int s = o->sprite > 0 && o->sprite < r->nprops ? o->sprite : 1;
    int d = f->t * f->scale * k;
    pt__blit(r, r->props, s, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, sx_of(f, o->x - k / 2.0),
             sy_of(f, o->y - k / 2.0), d, d);
}

static void draw_actor(pt_render *r, const xform *f, const pt_actor *a) {
    if (!isfinite(a->x) || !isfinite(a->y)) return;
    int d = f->t * f->scale;
    int row = a->row >= 0 && a->row < 5 ? a->row : 1;
    int col = pt_render_frame_col(a->heading, a->moving, a->walk);
    pt__blit(r, r->chars, row * 12 + col, 12, PT_SPRITE_PX, PT_SPRITE_PX, sx_of(f, a->x - 0.5),
             sy_of(f, a->y - 0.5), d, d);
}

/* Bubbles, bars and labels: above every sprite so they are never hidden. */
static void draw_marks(pt_render *r, const xform *f, const pt_actor *a, unsigned overlays) {
    if (!isfinite(a->x) || !isfinite(a->y)) return;
    int d = f->t * f->scale;
    int left = sx_of(f, a->x - 0.5), top = sy_of(f, a->y - 0.5);
    int bubble = a->state == 1 ? 3 : a->state == 2 ? 4 : -1; /* PT_STATE_SUSPICIOUS, _CHASE */
    if (bubble >= 0 && bubble < r->nprops)
        pt__blit(r, r->props, bubble, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, left, top - d, d, d);
    if (a->state == 5 && 5 < r->nprops) /* PT_STATE_CAUGHT */
        pt__blit(r, r->props, 5, r->nprops, PT_SPRITE_PX, PT_SPRITE_PX, left, top, d, d);
    if ((overlays & PT_OVERLAY_AWARENESS) && a->kind == PT_KIND_GUARD) {
        double k = pt_clamp(isfinite(a->awareness) ? a->awareness : 0.0, 0.0, 1.0);
        SDL_Rect bg = {left + f->scale, top + d, d - 2 * f->scale, 2 * f->scale}; /* under the feet */
        SDL_Rect fg = bg;
        fg.w = (int)lround(bg.w * k);
        set_color(r->sdl, 0x000000b0u);
        SDL_RenderFillRect(r->sdl, &bg);
        set_color(r->sdl, k >= 1.0 ? 0xff3028ffu : 0xffd040ffu);
        if (fg.w > 0) SDL_RenderFillRect(r->sdl, &fg);
    }
    /* A flock is labelled once, on its first member ("crows.1"; "crows" on a map). */
    int label = a->name && a->name[0];
    if (label && a->kind == PT_KIND_BOID) {
        const char *dot = strrchr(a->name, '.');
        label = !dot || strcmp(dot, ".1") == 0;
    }
    if ((overlays & PT_OVERLAY_LABELS) && label) {
        int fs = f->scale > 1 ? f->scale / 2 : 1, tw, th;
        pt_text_size(a->name, fs, &tw, &th);
        int tx = left + d / 2 - tw / 2, ty = top + d + 3 * f->scale;
        pt_draw_text(r, tx + fs, ty + fs, fs, 0x000000c0u, a->name);
        pt_draw_text(r, tx, ty, fs, 0xffffffffu, a->name);
    }
}

static int cmp_items(const void *pa, const void *pb) {
    const pt__draw_item *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    if (a->what != b->what) return a->what - b->what;
    return a->index - b->index;
}

static int grow_items(pt_render *r, int n) {
    if (n <= r->items_cap) return 1;
    int cap = r->items_cap ? r->items_cap : 64;
    while (cap < n) cap *= 2;
    pt__draw_item *p = PT_REALLOC(r->items, sizeof *p * (size_t)cap);
    if (!p) return 0;
    r->items = p;
    r->items_cap = cap;
    return 1;
}

int pt_render_draw(pt_render *r, const pt_scene *scene, const pt_view *view) {
    if (!r || !scene || !scene->map || !view) return PT_ERR_USAGE;
    const pt_map *m = scene->map;
    int out_w = 0, out_h = 0;
    SDL_GetRendererOutputSize(r->sdl, &out_w, &out_h);
    pt_view v = *view;
    pt_view_resolve(&v, out_w, out_h);
    if (v.w <= 0 || v.h <= 0) return PT_OK;

    xform f = {0, 0, tile_px(m), v.scale};
    f.ox = v.x - to_px(v.cam_x, f.t, f.scale);
    f.oy = v.y - to_px(v.cam_y, f.t, f.scale);
    int unit = f.t * f.scale;
    /* Visible cells, from the pixel rectangle (so snapping can never leave a gap). */
    int x0 = pt_clampi((int)floor((double)(v.x - f.ox) / unit), 0, m->w);
    int y0 = pt_clampi((int)floor((double)(v.y - f.oy) / unit), 0, m->h);
    int x1 = pt_clampi((int)floor((double)(v.x + v.w - f.ox) / unit) + 1, 0, m->w);
    int y1 = pt_clampi((int)floor((double)(v.y + v.h - f.oy) / unit) + 1, 0, m->h);

    SDL_Rect clip = {v.x, v.y, v.w, v.h}, old_clip;
    SDL_bool had_clip = SDL_RenderIsClipEnabled(r->sdl);
    SDL_RenderGetClipRect(r->sdl, &old_clip);
    SDL_RenderSetClipRect(r->sdl, &clip);
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r->sdl, 18, 18, 26, 255);
    SDL_RenderFillRect(r->sdl, &clip);

    draw_tiles(r, m, &v, &f, x0, y0, x1, y1);
    if (v.overlays & PT_OVERLAY_CONES)
        for (int i = 0; i < scene->nactors; i++)
            if (scene->actors[i].kind == PT_KIND_GUARD) draw_cone(r, m, &f, &scene->actors[i]);
    if (v.overlays & PT_OVERLAY_SIGHT)
        for (int i = 0; i < scene->nactors; i++)
            if (scene->actors[i].kind == PT_KIND_GUARD) draw_sight(r, m, &f, &scene->actors[i]);
    if (v.overlays & PT_OVERLAY_GRID) draw_grid(r, m, &f, x0, y0, x1, y1);
    if ((v.overlays & PT_OVERLAY_PATHS) && scene->actors)
        for (int i = 0; i < scene->nactors; i++) draw_path(r, m, &f, &scene->actors[i]);

    int rc = PT_OK;
    int nobs = m->obstacles ? m->nobstacles : 0, nact = scene->actors ? scene->nactors : 0;
    if (nobs < 0) nobs = 0;
    if (nact < 0) nact = 0;
    if (!grow_items(r, nobs + nact)) {
        rc = PT_ERR_NOMEM;
    } else {
        int n = 0;
        for (int i = 0; i < nobs; i++) {
            const pt_obstacle *o = &m->obstacles[i];
            r->items[n++] = (pt__draw_item){isfinite(o->y + o->r) ? o->y + o->r : 0.0, 0, i};
        }
        for (int i = 0; i < nact; i++) {
            const pt_actor *a = &scene->actors[i];
            r->items[n++] = (pt__draw_item){isfinite(a->y) ? a->y + 0.5 : 0.0, 1, i};
        }
        if (n > 1) qsort(r->items, (size_t)n, sizeof *r->items, cmp_items);
        for (int i = 0; i < n; i++) {
            if (r->items[i].what == 0) draw_obstacle(r, &f, &m->obstacles[r->items[i].index]);
            else draw_actor(r, &f, &scene->actors[r->items[i].index]);
        }
        for (int i = 0; i < nact; i++) draw_marks(r, &f, &scene->actors[i], v.overlays);
    }

    if (had_clip) SDL_RenderSetClipRect(r->sdl, &old_clip);
    else SDL_RenderSetClipRect(r->sdl, NULL);
    return rc;
}
