/* SPDX-License-Identifier: Zlib */
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
 * Over a scene: pt_render_hud draws a game's heads-up display from plain data (pt_hud), and
 * pt_debug_* draw lines, arrows, circles, boxes and cells given in map coordinates.
 * Headless: pt_render_png draws the same way into a software renderer on a plain surface
 * and saves a PNG; it needs no display and no SDL_Init. The window (patrol play) and the
 * PNG (patrol render) share one drawing path.
 * The renderer only reads what it draws (maps, actors, worlds are const) and keeps no
 * random state, so drawing can never change a simulation.
 * Assets: tiles.png, characters.png, props.png, font.png, in the folder a game passes (an
 * installed copy's is PATROL_DATA_DIR/assets in CMake, `pkg-config --variable=assetdir
 * patrol-render`), else found by pt_render_find_assets.
 * Memory: a pt_render owns its four textures, a scratch buffer that grows to the largest
 * scene drawn, the map drawn once at the view's scale (a texture of the whole map, when it
 * holds at most PT_RENDER_LAYER_MAX_PIXELS; else tiles are drawn one by one) and a cone
 * buffer the size of the output. Cost a frame: one copy of the map layer (a hash of the
 * tiles tells when to redraw it), O(actors), one short ray cast per cone ray and a span
 * fill of the cones when view cones are shown.
 *
 * This is the only public header that mentions SDL; it forward-declares what it needs.
 */
#ifndef PATROL_RENDER_H
#define PATROL_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "hearing.h"
#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

struct SDL_Renderer;
struct SDL_Surface;
struct pt_world;

#define PT_SPRITE_PX 16            /* sprite frames in the sheets are 16x16 */
#define PT_GLYPH_PX 8              /* font glyphs are 8x8 */
#define PT_RENDER_MAX_SIDE 16384   /* largest PNG side pt_render_png writes */
#define PT_RENDER_MAX_PIXELS (64L * 1024 * 1024) /* and largest area (256 MiB of RGBA) */
#define PT_RENDER_MAX_SCALE 64
#define PT_RENDER_LAYER_MAX_PIXELS (16L * 1024 * 1024) /* largest map layer (64 MiB) */

/* Overlays drawn over the scene (pt_view.overlays). Bits not listed are reserved. */
enum {
    PT_OVERLAY_GRID      = 1u << 0, /* tile grid lines */
    PT_OVERLAY_CONES     = 1u << 1, /* guards' view cones, clipped by opaque tiles, coloured by
                                       state and awareness: grey-white calm, yellow noticing,
                                       red chasing, orange searching */
    PT_OVERLAY_LABELS    = 1u << 2, /* actor names */
    PT_OVERLAY_AWARENESS = 1u << 3, /* awareness bars under guards */
    PT_OVERLAY_PATHS     = 1u << 4, /* planned paths (pt_actor.path: A* chase / return) */
    PT_OVERLAY_PATTERNS  = 1u << 5, /* patrol pattern cells (pt_actor.pattern): paths as a
                                       line through their cells, matrices as their 1-cells */
    PT_OVERLAY_STEER     = 1u << 6, /* continuous movers: velocity (an arrow one second long),
                                       bounding circle, and when given feelers, detection box,
                                       neighbour radius, steering force (pt_actor) */
    PT_OVERLAY_SIGHT     = 1u << 7, /* cells each guard sees now, by the simulation's own test
                                       (pt_can_see, patrol/los.h): exact where cones are a picture */
    PT_OVERLAY_RAYS      = 1u << 8, /* a line of sight from each guard to the player: green when
                                       pt_can_see sees, red when a tile blocks it (the blocking
                                       cell boxed), faint when out of range or cone */
    PT_OVERLAY_SEARCH    = 1u << 9, /* the area of the world's search (patrol/search.h): searched
                                       cells tinted green, the rest faint amber, the last known
                                       position boxed. pt_render_draw has no world: a program
                                       draws it with pt_render_search (play and render do) */
    PT_OVERLAY_MEMORY    = 1u << 10, /* what each guard remembers (pt_actor.memory): a mark at each
                                       remembered place, as opaque as the memory is certain, and a
                                       thin line to it from the guard: a diamond where it saw the
                                       player (cyan), a ring where it heard a noise (amber), a
                                       square where it was told to go (red) */
    PT_OVERLAY_HEARING   = 1u << 11, /* the cells each recent noise reached (patrol/hearing.h's
                                       flood, the one guards hear by), tinted by the loudness left
                                       there and fading with the noise's age. pt_render_draw has
                                       no world: a program draws it with pt_render_hearing (play
                                       and render do) */
    /* What a tester wants (patrol render --overlay, the Tab key of play): everything but
     * the grid. */
    PT_OVERLAY_DEBUG     = PT_OVERLAY_CONES | PT_OVERLAY_LABELS | PT_OVERLAY_AWARENESS | PT_OVERLAY_PATHS |
                           PT_OVERLAY_PATTERNS | PT_OVERLAY_STEER | PT_OVERLAY_SIGHT | PT_OVERLAY_RAYS |
                           PT_OVERLAY_SEARCH | PT_OVERLAY_MEMORY | PT_OVERLAY_HEARING,
    PT_OVERLAY_LIGHT     = 1u << 12, /* the light level of each cell (patrol/light.h), drawn by a
                                       world's light (pt_render_set_light): a tint from deep blue
                                       (dark) to pale yellow, the level in tenths when cells are
                                       16 output pixels or more, each light's radius as a circle;
                                       nothing where the map has no lights and ambient 1. Not
                                       part of `debug` */
    PT_OVERLAY_ALL       = 0xffffu
};

/* Parses a comma-separated overlay list ("grid,cones", "debug", "all", "none"); returns 0 and the
 * 1-based byte offset of the bad name in *bad_at when a name is unknown. */
int pt_overlay_parse(const char *list, unsigned *out, int *bad_at);
/* The name of one overlay bit ("grid"), or NULL. */
const char *pt_overlay_name(unsigned bit);

/* One thing a guard remembers, for the memory overlay (world.h's pt_memory). */
typedef struct pt_memory_mark {
    int kind;               /* a pt_memory_kind: 0 seen, 1 heard, 2 told */
    double x, y;            /* the remembered place, tiles */
    double certainty;       /* 0..1: how opaque the mark is */
} pt_memory_mark;
#define PT_ACTOR_MEMORY 3   /* marks an actor holds: one per kind */

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
    const pt_cell *pattern; /* its placed patrol pattern's cells (patterns overlay), in walking
                               order; may be NULL; must outlive the draw */
    int pattern_len;
    int pattern_matrix;     /* 1: the cells are a matrix's 1-cells (drawn as squares); 0: a walk
                               (drawn as a line through them) */
    const struct pt_patrun *pattern_run; /* its runner: the pattern's stops (waits, looks) are
                               drawn from it (pt_patrun_stops); may be NULL; must outlive the draw */
    int continuous;         /* 1: moves continuously (steer overlay: velocity and radius) */
    double vel_x, vel_y;    /* tiles per second */
    double radius;          /* bounding radius, tiles */
    /* More of the steer overlay, each part drawn only when set (zero = not drawn): */
    int nfeelers;           /* 0..3 wall-avoidance feelers, drawn from the centre to the tips */
    double feeler_x[3], feeler_y[3];
    double box_length;      /* obstacle-avoidance detection box ahead along heading (tiles),
                               as wide as the body (2 * radius) */
    double neighbour_radius;/* group behaviours' neighbourhood (tiles) */
    double force_x, force_y;/* the last steering force, drawn at 0.1 tile per unit */
    pt_memory_mark memory[PT_ACTOR_MEMORY]; /* guards: what it remembers (memory overlay) */
    int nmemory;
    int hidden;             /* the player hidden in cover (pt_world_player_hidden): drawn dimmed,
                               its lower half behind the leaves of the tile it stands on */
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
/* Drops what the renderer keeps between frames (the map drawn once into a texture). Call it
 * when SDL reports SDL_RENDER_TARGETS_RESET or SDL_RENDER_DEVICE_RESET; a changed map needs
 * no call (the renderer notices its tiles changed). */
void pt_render_forget(pt_render *r);
/* The folder the sheets were loaded from. */
const char *pt_render_asset_dir(const pt_render *r);

/* Finds the assets folder: the environment's PATROL_ASSETS when set (and then only it: a
 * folder without tiles.png is PT_ERR_IO), else the first of these holding tiles.png:
 *   1. share/patrol/assets of the install holding the running program: the program's folder,
 *      then the path from the install's bin/ to its share/ ("../share"), so a game installed
 *      in patrol's prefix, or patrol itself, finds them wherever the prefix was moved (the
 *      program is read from /proc/self/exe; the libraries are static, so the program is
 *      where they are);
 *   2. ./assets (the current folder);
 *   3. the source tree's assets/, only for a program inside the build tree the library was
 *      built in (its tests, build/patrol);
 *   4. share/patrol/assets of the prefix the build was configured for (CMAKE_INSTALL_PREFIX).
 * PT_OK with the folder in out, or PT_ERR_IO naming the places tried. */
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
 * animated), cones, sight, grid, patterns, paths, rays, obstacles and actors (sorted by y),
 * steering, memory, bubbles ("?" suspicious or searching, "!" chasing, a burst when caught), bars,
 * labels. Does not present. Returns PT_OK, or PT_ERR_NOMEM when the scratch buffer cannot
 * grow. */
int pt_render_draw(pt_render *r, const pt_scene *scene, const pt_view *view);

/* The actors' names alone, as PT_OVERLAY_LABELS draws them (white on a dark backing, a label
 * that would meet another moved below it): for names above overlays a program draws over
 * the scene (pt_render_hearing, pt_render_search), draw the scene without the bit, then the
 * overlays, then this. Does not present. */
void pt_render_labels(pt_render *r, const pt_scene *scene, const pt_view *view);

/* ---- debug drawing in map coordinates ------------------------------------------------------
 * For overlays a program computes itself (the steering library's feelers, detection boxes,
 * forces, neighbour radii): positions and lengths in tiles, mapped to pixels exactly as
 * pt_render_draw maps them for the same map and view, clipped to the view rectangle. They
 * draw over what is there and do not present. rgba = 0xRRGGBBAA (alpha blended). */

/* A noise to show: made `age` seconds ago at tile (x, y), of loudness tiles (world.h's
 * pt_noise; a game keeps the last second or so of pt_world_noises and pt_world_shouts). */
typedef struct pt_noise_mark { int x, y; double loudness, age; } pt_noise_mark;
/* How long a noise ring shows, in seconds. */
#define PT_NOISE_RING_S 0.75
/* Noise rings over a drawn scene: each mark younger than PT_NOISE_RING_S is a ring around its
 * tile's centre that widens (to half its loudness, at most 4 tiles) and fades out, in amber. */
void pt_render_noise_rings(pt_render *r, const pt_map *map, const pt_view *view, const pt_noise_mark *marks, int n);
/* Shout rings (a guard's call, pt_world_shouts): the same rings in red, doubled (a second one
 * inside the first), so a call reads apart from a noise. */
void pt_render_shout_rings(pt_render *r, const pt_map *map, const pt_view *view, const pt_noise_mark *marks, int n);

/* A thrown stone in the air over a drawn scene: a grey pebble with a dark outline (a tile's
 * third across, never under 8 output pixels) `lift` tiles above the ground point (x, y)
 * (the screen's up), and its shadow on the ground there, smaller and darker as it rises. */
void pt_render_stone(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double lift);
/* How long a stone's landing mark shows, in seconds. */
#define PT_LANDING_S 1.2
/* Where a stone landed, `age` seconds ago (shown while 0 <= age < PT_LANDING_S): the cell
 * boxed and a thick white ring on a dark outline (a seventh of a tile thick, 3 output pixels
 * at least), widening from half a tile to 1.5 tiles round the cell's centre and fading out,
 * and the stone lying at the centre. */
void pt_render_landing(pt_render *r, const pt_map *map, const pt_view *view, int cx, int cy, double age);

/* The search overlay (PT_OVERLAY_SEARCH) over a drawn scene: the n cells of a search's area
 * (pt_search_info.cells), those with searched[i] set tinted green, the others faint amber,
 * and the cell `origin` (the last known position) boxed. */
void pt_render_search(pt_render *r, const pt_map *map, const pt_view *view, const pt_cell *cells,
                      const unsigned char *searched, int n, pt_cell origin);

/* The hearing overlay (PT_OVERLAY_HEARING) over a drawn scene: the n cells one noise reached
 * (pt_hearing_cells after pt_hearing_flood of the noise), each tinted violet by its level over
 * `loudness` (the noise's loudness: louder cells more opaque), faded by age seconds and gone
 * from PT_NOISE_RING_S on, as the noise's ring. Draws nothing else. */
void pt_render_hearing(pt_render *r, const pt_map *map, const pt_view *view, const pt_hearing_cell *cells, int n,
                       double loudness, double age);

/* Output pixel of map position (x, y) tiles under a view (scale 0 = 1). */
void pt_view_to_px(const pt_map *map, const pt_view *view, double x, double y, double *px, double *py);
/* A segment from (x0,y0) to (x1,y1). */
void pt_debug_line(pt_render *r, const pt_map *map, const pt_view *view, double x0, double y0, double x1,
                   double y1, uint32_t rgba);
/* A vector drawn from (x,y) to (x+dx, y+dy) with an arrow head (a force, a velocity). */
void pt_debug_arrow(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double dx,
                    double dy, uint32_t rgba);
/* A circle outline of radius tiles around (cx,cy) (bounding radius, neighbour radius). */
void pt_debug_circle(pt_render *r, const pt_map *map, const pt_view *view, double cx, double cy, double radius,
                     uint32_t rgba);
/* An oriented rectangle outline: from (x,y) forward along heading (radians) for length
 * tiles, half_width tiles to each side (a detection box). */
void pt_debug_box(pt_render *r, const pt_map *map, const pt_view *view, double x, double y, double heading,
                  double length, double half_width, uint32_t rgba);
/* Fills tile (cx, cy). */
void pt_debug_cell(pt_render *r, const pt_map *map, const pt_view *view, int cx, int cy, uint32_t rgba);
/* When map position (tx,ty) is outside the view: a triangle near the view's edge pointing
 * toward it (where the exit is), kept inset pixels inside every edge (room for HUD bars).
 * Returns 1 if drawn, 0 when the point is in view. */
int pt_draw_pointer(pt_render *r, const pt_map *map, const pt_view *view, double tx, double ty, int inset,
                    uint32_t rgba);
/* The geometry of an edge marker (pt_draw_pointer, pt_render_offscreen_guards), pure: for a
 * point (px, py) in output pixels outside the view rectangle (view->x, y, w, h, which must be
 * resolved: w, h > 0), the place (*mx, *my) where the ray from the rectangle's centre toward
 * the point meets the rectangle shrunk by `margin` pixels on every side, and the unit
 * direction (*ux, *uy) from there toward the point. Returns 1 then; 0 (outputs untouched)
 * when the point is inside the rectangle, not finite, or the margin leaves no room. */
int pt_view_edge_marker(const pt_view *view, double px, double py, double margin, double *mx, double *my, double *ux,
                        double *uy);
/* Guards off screen: for each guard among the actors whose centre is outside the view, a
 * small arrow inside the view's edge pointing toward it (pt_view_edge_marker, `inset` pixels
 * more inside every edge), coloured by its state: calm white (patrol, return, idle), amber
 * wondering (suspicious, investigate, search), red chasing. Returns how many were drawn. */
int pt_render_offscreen_guards(pt_render *r, const pt_map *map, const pt_view *view, const pt_actor *actors, int n,
                               int inset);

/* ---- light and darkness (patrol/light.h) ---------------------------------------------------- */

/* Makes pt_render_draw draw world w's light over the tiles of the scenes whose map is w's own
 * (pt_world_map), until called again (w NULL: none, the default). What is drawn, only where
 * the world has a light or an ambient level below 1 (else nothing, the frame as without it):
 *   - darkness: every cell of light L (pt_world_light_at, lanterns included) is covered with
 *     rgb 8,10,24 at alpha round(200 x (1 - L)): a cell at L = 0 keeps about a fifth of its
 *     colour, a cell at 1 is untouched;
 *   - pools: a cell whose lights give it more than the ambient level (pt_world_light_static
 *     minus ambient, g) is warmed with rgb 255,196,104 at alpha round(56 x g);
 *   - lantern cones: in front of each guard that carries a lantern (pt_entity_def.lantern R),
 *     a pale wedge R tiles long, as wide as its view cone, rgb 255,226,150 at alpha 56 at the
 *     guard fading to 0 at its end;
 *   - the lights: each light that is on a glow (rgb 255,200,96, alpha 110 at its centre to 0
 *     at 0.6 tiles) and a flame flickering over a dark holder; one that is out the holder
 *     and a dark ember;
 *   - PT_OVERLAY_LIGHT: each cell tinted from rgb 40,60,170 (L = 0) to 255,236,140 (L = 1)
 *     at alpha 110, its level in tenths written on it (0 .. 10), each light's radius a
 *     circle (yellow when on, grey when out).
 * The world is read, never changed; it must outlive the draws. */
void pt_render_set_light(pt_render *r, const struct pt_world *w);
/* The HUD's visibility gem (pt_world_visibility): a diamond `size` pixels high centred on
 * (cx, cy), filled from rgb 24,28,44 (v = 0, unseen in the dark) to 255,246,196 (v = 1) by v
 * (clamped to 0..1), with a dark outline and a pale rim; `patrol play` draws it under the
 * top bar's right end in a level with lights or an ambient level below 1. */
void pt_render_light_gem(pt_render *r, int cx, int cy, int size, double v);

/* ---- a catch (patrol play) ------------------------------------------------------------------ */

/* How long the caught animation lasts, in seconds. */
#define PT_CAUGHT_S 0.8
/* The caught animation over a drawn scene, t seconds into it (nothing outside 0 ..
 * PT_CAUGHT_S): eight rays, yellow and red, burst out of the player (the actor as the scene
 * drew it) and fade; its sprite is drawn again over the scene (in front of the caught
 * starburst) and flashes bright four times in the first 0.64 s. */
void pt_render_caught(pt_render *r, const pt_map *map, const pt_view *view, const pt_actor *player, double t);

/* ---- heads-up display ------------------------------------------------------------------------ */

/* A transient message; fade it by lowering the alpha of rgba. */
typedef struct pt_hud_msg { const char *text; uint32_t rgba; } pt_hud_msg;

/* What the HUD shows; every pointer may be NULL (that part is not drawn). Strings must
 * outlive the call. */
typedef struct pt_hud {
    int scale;                 /* font pixels per glyph pixel; 0 = pt_hud_scale of the rect */
    const char *title;         /* top bar, left: the map's title */
    const char *objective;     /* top bar, centre: what the player must do */
    const char *status;        /* top bar, right: clock, speed */
    int alert;                 /* top bar eye: 0 unseen, 1 noticed (someone wonders), 2 chased */
    const pt_hud_msg *msgs;    /* under the top bar, newest last */
    int nmsgs;
    const char *keys;          /* bottom bar: the key hint, its items three spaces apart
                                  ("P pause   F1 help   Esc quit"). Drawn at the HUD's scale,
                                  or the largest smaller one at which it fits, but not below
                                  scale 2 (1 when the HUD's is 1) while leaving items out keeps
                                  it there: items go from the end but the last two always
                                  stay: put the way to every key (F1) and out (Esc) last */
    const char *notice;        /* a box in the middle ("PAUSED") */
    int banner;                /* end of round: 0 none, 1 won (gold), -1 lost (red) */
    const char *banner_title;  /* big letters */
    const char *banner_text;   /* lines under it ('\n' separated) */
    double banner_t;           /* seconds since the round ended: the banner drops in */
    double flash;              /* 0..1: a red flash over everything (caught) */
    const char *help;          /* the help panel ('\n' separated lines; "KEY|what" lines are
                                  drawn in two columns) */
    int help_page;             /* the help's page when it does not fit at once (one column, the
                                  lines wrapped, a page mark at the bottom): any int, taken
                                  modulo the pages (0 = the first, -1 = the last) */
    const pt_error *error;     /* an error box: file:line:col, message, the line and a caret */
    const char *phase;         /* top bar, right, before the eye: the world's alert phase and its
                                  countdown ("EVASION 12"), in the phase's colour: pt_world_phase */
    int phase_kind;            /* the pt_phase it shows (its colour) */
    const char *perf;          /* bottom left, over the key bar: a small debug readout (frame times) */
    int hidden;                /* 1: the player is hidden in cover (pt_world_player_hidden): the
                                  top bar says HIDDEN in green beside the eye */
    int msgs_low;              /* 1: the messages stack up from just above the bottom bar
                                  instead of down from under the top bar (when they would hide
                                  what matters there: pt_hud_msgs_cover) */
} pt_hud;

/* The font scale a HUD uses in a w x h rectangle: 1 below 900 x 500 pixels, 2 below
 * 1800 x 1000, and so on. */
int pt_hud_scale(int w, int h);
/* Heights in pixels of the HUD's top bar (title, objective, clock) and bottom bar (keys) at
 * a font scale: a view drawn between them has nothing hidden under the bars. */
void pt_hud_bars(int scale, int *top, int *bottom);
/* The output row just below the boxes of the HUD's messages (under the top bar) as
 * pt_render_hud draws them in the rectangle (x, y, w, h); y when it shows none (or they are
 * low: msgs_low). Edge markers
 * (pt_draw_pointer, pt_render_offscreen_guards) kept below it stay clear of them. */
int pt_hud_msgs_bottom(const pt_hud *hud, int x, int y, int w, int h);
/* With msgs_low: the output row of the top of the messages' first box (y + h when none
 * shows, or without msgs_low); edge markers kept above it stay clear of them. */
int pt_hud_msgs_top(const pt_hud *hud, int x, int y, int w, int h);
/* 1 when a box of the HUD's messages, as pt_render_hud draws them in (x, y, w, h), meets the
 * rectangle (rx, ry, rw, rh) of the output (the exit's tile, the player). */
int pt_hud_msgs_cover(const pt_hud *hud, int x, int y, int w, int h, int rx, int ry, int rw, int rh);
/* Draws the HUD into the rectangle (x, y, w, h) of the output (w or h 0 = the whole output),
 * over what is there. Does not present. */
void pt_render_hud(pt_render *r, const pt_hud *hud, int x, int y, int w, int h);

/* Draws text with the 8x8 bitmap font at (x, y) output pixels, each font pixel scale x scale
 * (0 = 1), tinted rgba (0xRRGGBBAA). '\n' starts a new line; bytes outside 32..126 draw '?'.
 * Returns the width in pixels of the longest line. */
int pt_draw_text(pt_render *r, int x, int y, int scale, uint32_t rgba, const char *text);
/* Width and height in pixels pt_draw_text would cover. */
void pt_text_size(const char *text, int scale, int *w, int *h);

/* ---- menus ------------------------------------------------------------------------------------ */

/* A row of a menu: a label on the left, then (each may be NULL) a detail (a best time) and
 * marks (badges) in their own colours, right-aligned. */
typedef struct pt_menu_row {
    const char *label;
    const char *detail;
    const char *marks;
    int dim;                   /* 1: greyed (not played yet, not available) */
} pt_menu_row;

/* A full-screen menu over whatever is drawn (the screen is darkened): a big title, lines
 * under it, a list of rows with one selected, a blinking prompt and a key bar at the bottom.
 * Every pointer may be NULL. Strings must outlive the call. */
typedef struct pt_menu {
    int scale;                 /* font pixels per glyph pixel; 0 = pt_hud_scale of the rect */
    const char *title;         /* big letters, gold */
    const char *subtitle;      /* lines under it ('\n' separated) */
    uint32_t subtitle_rgba;    /* 0 = light grey */
    const pt_menu_row *rows;
    int nrows;
    int selected;              /* the highlighted row (-1 none); the list scrolls to show it */
    const char *prompt;        /* under the rows, blinking once a second ("press Enter") */
    const char *footer;        /* the bottom bar: the keys */
    double time;               /* seconds, for the blink */
} pt_menu;

/* Draws the menu into the rectangle (x, y, w, h) of the output (w or h 0 = the whole output),
 * over what is there. Does not present. */
void pt_render_menu(pt_render *r, const pt_menu *m, int x, int y, int w, int h);
/* The row under output pixel (px, py) when m is drawn into that rectangle (w and h as
 * drawn: not 0), or -1. Pure arithmetic: the same layout the drawing uses. */
int pt_menu_row_at(const pt_menu *m, int x, int y, int w, int h, int px, int py);

/* The actors a map declares (the player, then each entity at its start tile, facing its
 * declared heading, with its resolved view cone). Writes at most cap; returns how many the
 * map declares (1 + nents). Names point into map. */
int pt_render_actors_from_map(const pt_map *map, pt_actor *out, int cap);
/* The world's entities (pt_world_entity order: the player first), as play shows them alpha
 * (0..1) of a tick after the last step: tile movers between their previous and current tile
 * by move_t, continuous movers at px,py plus velocity. Reads the world only. Writes at most
 * cap; returns pt_world_count. An id the game removed (patrol/spawn.h) gets an actor of kind
 * PT_KIND_COUNT at NaN, which draws nothing. Names and paths point into the world. */
int pt_render_actors_from_world(const struct pt_world *w, double alpha, pt_actor *out, int cap);
/* Points each actor at the cells of its entity's placed patrol pattern (pt_patrun_cells),
 * for the patterns overlay: actors[0..n) as pt_render_actors_from_world filled them, the
 * cells written to buf (cap cells). Returns how many cells all of them need: when that is
 * more than cap, the actors whose cells did not fit get none (call again with a larger
 * buf). Reads the world only. */
int pt_render_patterns_from_world(const struct pt_world *w, pt_actor *actors, int n, pt_cell *buf, int cap);
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

/* Headless drawing of anything (a scene plus a HUD, a whole game frame): draw(r, w, h,
 * user) draws into a fresh w x h software renderer with the assets loaded, returning PT_OK
 * or a negative code; the result is saved as a PNG (same limits and errors as
 * pt_render_png) or returned as an RGBA32 surface. */
typedef int (*pt_draw_fn)(pt_render *r, int w, int h, void *user);
int pt_render_png_with(int w, int h, const char *asset_dir, pt_draw_fn draw, void *user, const char *path,
                       pt_error *err);
struct SDL_Surface *pt_render_surface_with(int w, int h, const char *asset_dir, pt_draw_fn draw, void *user,
                                           pt_error *err);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
