/* patrol/render.h - draws maps and what stands on them with SDL2 (pixel art, 16x16 sprites).
 *
 *     pt_render *r = pt_render_create(sdl_renderer, NULL, &err); // NULL = find the assets
 *     pt_view v = {0};                                           // zero = defaults
 *     pt_view_fit(&v, &map, win_w, win_h, 0, 0);                 // integer scale that fills
 *     pt_view_follow(&v, &map, player_x, player_y);              // camera on the player
 *     pt_scene s = {.map = &map, .actors = actors, .nactors = n};
 *     pt_render_draw(r, &s, &v);                                 // tiles, sprites, overlays
 *     pt_render_destroy(r);
 *
 * Headless: pt_render_png draws the same way into a software renderer on a plain surface
 * and saves a PNG; it needs no display and no SDL_Init. The window (patrol play) and the
 * PNG (patrol render) share one drawing path.
 * The renderer only reads what it draws (maps, actors, worlds are const) and keeps no
 * random state, so drawing can never change a simulation.
 * Assets: tiles.png, characters.png, props.png, font.png, looked up in PATROL_ASSETS (env),
 * ./assets, the source tree, then the installed data folder.
 * Memory: a pt_render owns its four textures and a scratch buffer that grows to the
 * largest scene drawn. Cost: O(visible tiles + actors) a frame, plus one short ray cast per
 * cone ray when view cones are shown.
 *
 * This is the only public header that mentions SDL; it forward-declares what it needs.
 */
#ifndef PATROL_RENDER_H
#define PATROL_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

struct SDL_Renderer;
struct SDL_Surface;
struct pt_world;

#define PT_SPRITE_PX 16            /* sprite frames in the sheets are 16x16 */
#define PT_GLYPH_PX 8              /* font glyphs are 8x8 */
#define PT_RENDER_MAX_SIDE 16384   /* largest PNG side pt_render_png writes */
#define PT_RENDER_MAX_PIXELS (64L * 1024 * 1024) /* and largest area (256 MiB of RGBA) */
#define PT_RENDER_MAX_SCALE 64

/* Overlays drawn over the scene (pt_view.overlays). Bits not listed are reserved. */
enum {
    PT_OVERLAY_GRID      = 1u << 0, /* tile grid lines */
    PT_OVERLAY_CONES     = 1u << 1, /* guards' view cones, clipped by opaque tiles */
    PT_OVERLAY_LABELS    = 1u << 2, /* actor names */
    PT_OVERLAY_AWARENESS = 1u << 3, /* awareness bars over guards */
    PT_OVERLAY_PATHS     = 1u << 4, /* planned paths (pt_actor.path: A* chase / return) */
    PT_OVERLAY_PATTERNS  = 1u << 5, /* patrol pattern cells: reserved */
    PT_OVERLAY_STEER     = 1u << 6, /* velocities, feelers, detection boxes: reserved */
    PT_OVERLAY_SIGHT     = 1u << 7, /* cells each guard sees now, by the simulation's own test
                                       (pt_can_see, patrol/los.h): exact where cones are a picture */
    PT_OVERLAY_ALL       = 0xffffu
};

/* Parses a comma-separated overlay list ("grid,cones", "all", "none"); returns 0 and the
 * 1-based byte offset of the bad name in *bad_at when a name is unknown. */
int pt_overlay_parse(const char *list, unsigned *out, int *bad_at);
/* The name of one overlay bit ("grid"), or NULL. */
const char *pt_overlay_name(unsigned bit);

/* Something drawn on the map: the player, a guard, prey or a flock member. Positions are
 * continuous tile units (the centre of tile x,y is x+0.5,y+0.5). */
typedef struct pt_actor {
    pt_kind kind;
    int row;                /* characters.png row: 0 player, 1 guard, 2 prey, 3 hound, 4 crow */
    int state;              /* a pt_state value (world.h); 0 = patrol. Suspicious shows "?",
                               chase "!", caught a burst */
    double x, y;            /* centre, tiles */
    double heading;         /* radians, 0 = east, clockwise on screen; drawn 4-way */
    int moving;             /* 1: walking frames, 0: standing frame */
    double walk;            /* walk phase in tiles: frames stand, A, stand, B, half a tile each */
    double view_dist;       /* tiles; 0 = no cone */
    double view_angle;      /* full cone angle, radians */
    double awareness;       /* 0..1 (bar overlay) */
    const char *name;       /* label overlay; may be NULL; must outlive the draw call */
    int has_eye;            /* 1: sight is tested from eye_x,eye_y (the simulation's position,
                               which may differ from the drawn, interpolated x,y); 0: from x,y */
    double eye_x, eye_y;
    const pt_cell *path;    /* planned cells (paths overlay); may be NULL; must outlive the draw */
    int path_len, path_idx; /* cells path[path_idx .. path_len-1] are still ahead */
} pt_actor;

/* What to draw: a map and the actors on it. */
typedef struct pt_scene {
    const pt_map *map;      /* required */
    const pt_actor *actors; /* any order: drawn sorted by y so lower ones overlap */
    int nactors;
} pt_scene;

/* Where and how to draw. Zero fields mean defaults (see pt_view_resolve). */
typedef struct pt_view {
    int x, y, w, h;         /* destination rectangle in output pixels; w or h 0 = whole output */
    int scale;              /* output pixels per sprite pixel (integer); 0 = 1 */
    double cam_x, cam_y;    /* map position (tiles) shown at the rectangle's top-left corner */
    double time;            /* seconds: water animation */
    unsigned overlays;      /* PT_OVERLAY_* */
} pt_view;

typedef struct pt_render pt_render;

/* Loads the sprite sheets as textures of sdl. asset_dir NULL = search (see the top). Returns
 * NULL with err set (PT_ERR_IO naming the path, or PT_ERR_BAD_VALUE for a sheet of the wrong
 * size) when an asset is missing or unreadable. */
pt_render *pt_render_create(struct SDL_Renderer *sdl, const char *asset_dir, pt_error *err);
void pt_render_destroy(pt_render *r);
/* The folder the sheets were loaded from. */
const char *pt_render_asset_dir(const pt_render *r);

/* Finds the assets folder (PATROL_ASSETS if set - and then only it -, ./assets, the source
 * tree, the installed folder): the first holding tiles.png. PT_OK or PT_ERR_IO. */
int pt_render_find_assets(char *out, size_t cap, pt_error *err);

/* Fills defaults of a view for an output of out_w x out_h pixels: w/h (whole output),
 * scale (1). */
void pt_view_resolve(pt_view *v, int out_w, int out_h);
/* Picks the largest integer scale at which the view (out_w x out_h pixels) still shows at
 * least min(map, min_tiles_w x min_tiles_h) tiles (0 = 24 x 14), and sets w/h to the output. */
void pt_view_fit(pt_view *v, const pt_map *map, int out_w, int out_h, int min_tiles_w, int min_tiles_h);
/* Centres the camera on (fx, fy) tiles, clamped so no space beyond the map shows; an axis
 * where the whole map fits is centred instead. Needs v->w, v->h and v->scale set. */
void pt_view_follow(pt_view *v, const pt_map *map, double fx, double fy);
/* Size in output pixels of the whole map at a scale (tile_px * scale per tile). */
void pt_view_map_size(const pt_map *map, int scale, long *w, long *h);

/* Draws one frame of the scene into the view rectangle: background, tiles (water
 * animated), grid, cones, obstacles and actors (sorted by y), bubbles, bars, labels.
 * Does not present. Returns PT_OK, or PT_ERR_NOMEM when the scratch buffer cannot grow. */
int pt_render_draw(pt_render *r, const pt_scene *scene, const pt_view *view);

/* Draws text with the 8x8 bitmap font at (x, y) output pixels, each font pixel scale x scale
 * (0 = 1), tinted rgba (0xRRGGBBAA). '\n' starts a new line; bytes outside 32..126 draw '?'.
 * Returns the width in pixels of the longest line. */
int pt_draw_text(pt_render *r, int x, int y, int scale, uint32_t rgba, const char *text);
/* Width and height in pixels pt_draw_text would cover. */
void pt_text_size(const char *text, int scale, int *w, int *h);

/* The actors a map declares (the player, then each entity at its start tile, facing its
 * declared heading, with its resolved view cone). Writes at most cap; returns how many the
 * map declares (1 + nents). Names point into map. */
int pt_render_actors_from_map(const pt_map *map, pt_actor *out, int cap);
/* The world's entities (pt_world_entity order: the player first), as play shows them alpha
 * (0..1) of a tick after the last step: tile movers between their previous and current tile
 * by move_t, continuous movers at px,py plus velocity. Reads the world only. Writes at most
 * cap; returns pt_world_count. Names and paths point into the world. */
int pt_render_actors_from_world(const struct pt_world *w, double alpha, pt_actor *out, int cap);
/* characters.png row for a kind (flock members: by their flock kind, hound or crow). */
int pt_render_row_for(pt_kind kind, pt_flock_kind flock);
/* Sheet column of a heading (4-way) and walk phase: down 0-2, left 3-5, right 6-8, up 9-11;
 * diagonals face sideways. Moving loops frames 0,1,0,2, half a tile each. */
int pt_render_frame_col(double heading, int moving, double walk);
/* Sprite index in tiles.png of a legend entry at a time in seconds (water alternates 2/3
 * twice a second; sprite -1 resolves by name; unknown names draw floor). */
int pt_render_tile_sprite(const pt_tile_def *def, double time);

/* Draws the scene headless at w x h pixels and saves it as a PNG at path. asset_dir NULL =
 * search. No display or SDL_Init needed. Sizes beyond PT_RENDER_MAX_SIDE/PIXELS give
 * PT_ERR_LIMIT; a missing asset or an unwritable path PT_ERR_IO. */
int pt_render_png(const pt_scene *scene, const pt_view *view, int w, int h, const char *asset_dir,
                  const char *path, pt_error *err);
/* Same, but returns the RGBA32 surface instead of saving it (free with SDL_FreeSurface);
 * NULL with err set on failure. */
struct SDL_Surface *pt_render_surface(const pt_scene *scene, const pt_view *view, int w, int h,
                                      const char *asset_dir, pt_error *err);

#ifdef __cplusplus
}
#endif
#endif
