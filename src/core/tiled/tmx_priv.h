/* SPDX-License-Identifier: Zlib */
/* tmx_priv.h - what the parts of the Tiled map loader share: the loader's state, its data and
 * the calls between tmx.c (the entry points, the map element, the order of work),
 * tmx_xml.c, tmx_tilesets.c, tmx_layers.c, tmx_objects.c and tmx_routes.c. Each function
 * is described where it is defined. */
#ifndef PATROL_TMX_PRIV_H
#define PATROL_TMX_PRIV_H

#include <patrol/tmx.h>

#include <libxml/tree.h>

#include <stddef.h>
#include <stdint.h>

#include "base/suggest.h"
#include "base/text.h"
#include "map/keys.h"
#include "map/sight.h"

#define COORD_MAX_PX 1.0e9    /* object coordinates beyond this are a typo, not a map */
#define EMPTY_CELL 0xFF       /* tiles[] of a cell no layer has set yet */
#define GID_FLAGS 0xF0000000u /* flip horizontal, vertical, diagonal; hexagonal 120 rotation */
#define DEFAULT_OBSTACLE_R 0.45
#define SCAN_LINE_MAX (1 << 20) /* longest source line searched for a column */

/* ---- data ---------------------------------------------------------------------------------- */

typedef struct doc {
    char path[PT_MAX_PATH];
    pt__text text;
    xmlDocPtr xml;
    size_t *lines; /* byte offset of each line's start, built on first use */
    int nlines;
} doc;

typedef struct place { int line, col; } place;

typedef struct tile_info {
    int has_walkable, walkable, has_opaque, opaque, has_goal, goal, has_sprite, sprite, has_name, has_sound;
    int has_footstep, has_noise;
    int16_t sound;
    double footstep, noise;
    char name[PT_MAX_NAME];
} tile_info;

typedef struct tileset {
    uint32_t firstgid;
    int ntiles;      /* local ids 0..ntiles-1 */
    int collection;  /* image collection: only ids with a <tile> element exist */
    int tiles_png;   /* the tileset image is tiles.png: sprite = local id */
    int *info;       /* ninfo_ids: index in infos, -1 = no <tile> element (ids beyond: none) */
    int ninfo_ids;   /* 1 + the largest id of a <tile> element: a tilecount of 65536 with a
                        few <tile> elements must not cost 65536 entries */
    tile_info *infos;
    int ninfos;
    int16_t *legend; /* ntiles: legend index, -1 = not resolved yet; allocated when a layer
                        first uses the tileset (256 unused tilesets of 65536 tiles cost 100 MB) */
} tileset;

enum { SHAPE_RECT, SHAPE_POINT, SHAPE_ELLIPSE, SHAPE_POLYLINE, SHAPE_POLYGON, SHAPE_TILE, SHAPE_TEXT };

typedef struct obj {
    xmlNodePtr node;
    long id;
    int shape;
    const char *name, *cls;
    double x, y, w, h, rot; /* pixels, layer offsets included */
    int route;              /* index in routes, -1 = not a route */
} obj;

typedef struct route {
    int obj;
    char name[PT_MAX_NAME];
    int *xy;   /* n cells: x0,y0,x1,y1,... consecutive duplicates dropped */
    int *vofs; /* n: byte offset of each vertex in the points attribute */
    int n;
    const char *at_end;     /* NULL = the pattern default */
    xmlNodePtr at_end_prop; /* for places in errors */
    const char *gait;       /* NULL = walk */
    xmlNodePtr gait_prop;
    xmlNodePtr shape;
} route;

/* An object of class stop: a wait and/or look at the route points on its tile. */
typedef struct stop {
    int obj;
    int cx, cy;
    int route;              /* index in routes; -1 = every route with a point there */
    double wait, look;      /* seconds; 0 = not given */
    const char *angles;     /* as given (validated), NULL = none */
    const char *gait;       /* NULL = none */
    int used;
} stop;

typedef struct group_ref { xmlNodePtr node; double ox, oy; } group_ref;

typedef struct loader {
    pt_map m;
    pt_error *err;
    doc tmx;
    doc tsx;               /* the external tileset being read (closed after) */
    doc *err_doc;          /* the file the error is in */
    char dir[PT_MAX_PATH]; /* folder of the map ("" or ending in '/') */
    int tw, th;
    tileset *ts;
    int nts;
    group_ref *groups; /* object layers, in document order */
    int ngroups, groups_cap;
    int ntile_layers;
    xmlNodePtr first_data;
    obj *objs;
    int nobjs, objs_cap;
    long *ids; /* sorted pairs (object id, index in objs) */
    int nids;
    route *routes;
    int nroutes;
    stop *stops;
    int nstops, stops_cap;
    xmlChar **strs; /* strings libxml2 allocated for us, freed at the end */
    int nstrs, strs_cap;
    int ents_cap, obs_cap, src_cap;
    long members;
    xmlNodePtr player;
} loader;

#if defined(__GNUC__)
#define PT__FMT(a, b) __attribute__((format(printf, a, b)))
#else
#define PT__FMT(a, b)
#endif

typedef struct prop {
    xmlNodePtr node;
    const char *name, *type, *value;
    int has_value_attr;
} prop;

/* The property types pt__tmx_prop_type accepts. */
enum { WANT_BOOL, WANT_NUM, WANT_INT, WANT_STR, WANT_FILE, WANT_OBJ, WANT_INT_OR_STR, WANT_NUM_OR_STR };

/* ---- tmx_xml.c --------------------------------------------------------------------------- */

long pt__tmx_node_line(xmlNodePtr n);
place pt__tmx_place_of_offset(const doc *d, size_t off);
place pt__tmx_node_place_ex(doc *d, xmlNodePtr n, const char *attr, int exact);
place pt__tmx_node_place(doc *d, xmlNodePtr n, const char *attr);
size_t pt__tmx_content_offset(doc *d, xmlNodePtr n);
int pt__tmx_fail(loader *L, doc *d, place at, int code, const char *fmt, ...) PT__FMT(5, 6);
int pt__tmx_fail_at(loader *L, doc *d, xmlNodePtr n, const char *attr, int colofs, int code, const char *fmt, ...)
    PT__FMT(7, 8);
int pt__tmx_nomem(loader *L);
const char *pt__tmx_attr(loader *L, xmlNodePtr n, const char *name);
int pt__tmx_is_elem(xmlNodePtr n, const char *name);
xmlNodePtr pt__tmx_child(xmlNodePtr n, const char *name);
int pt__tmx_ieq(const char *a, const char *b);
pt__tok pt__tmx_tok_of(const char *s);
int pt__tmx_attr_num(loader *L, doc *d, xmlNodePtr n, const char *name, double lo, double hi, double def, double *out);
int pt__tmx_attr_int(loader *L, doc *d, xmlNodePtr n, const char *name, int lo, int hi, int def, int *out);
int pt__tmx_parse_u32(const char *s, size_t len, uint32_t *out);
int pt__tmx_is_blank(char c);
int pt__tmx_next_prop(loader *L, xmlNodePtr n, xmlNodePtr *it, prop *p);
place pt__tmx_value_place(doc *d, const prop *p, int colofs);
int pt__tmx_fail_value(loader *L, doc *d, const prop *p, int colofs, int code, const char *fmt, ...) PT__FMT(6, 7);
int pt__tmx_tok_fail(loader *L, doc *d, const prop *p, const pt_error *e);
int pt__tmx_prop_type(loader *L, doc *d, const prop *p, int want);
int pt__tmx_prop_bool(loader *L, doc *d, const prop *p, int *out);
int pt__tmx_prop_num(loader *L, doc *d, const prop *p, double lo, double hi, double *out);
int pt__tmx_prop_int(loader *L, doc *d, const prop *p, int want, long lo, long hi, int *out);
/* A number property in (0, hi], where 0 would read as the default (pt__tok_num_key's wording:
 * "fov=0 is out of range: fov takes more than 0, up to 360"). */
int pt__tmx_prop_pos(loader *L, doc *d, const prop *p, double hi, double *out);
int pt__tmx_prop_name(loader *L, doc *d, const prop *p, char *dst, size_t cap);
int pt__tmx_prop_choice(loader *L, doc *d, const prop *p, const char *const *words, int *out);
int pt__tmx_prop_sound(loader *L, doc *d, const prop *p, int16_t *out);
void pt__tmx_doc_close(doc *d);
int pt__tmx_doc_parse(loader *L, doc *d, const char *root);
int pt__tmx_resolve(const loader *L, const char *s, size_t len, char *dst, size_t cap, const char **why);

/* ---- tmx_tilesets.c ---------------------------------------------------------------------- */

int pt__tmx_tilesets(loader *L, xmlNodePtr root);

/* ---- tmx_layers.c ------------------------------------------------------------------------ */

int pt__tmx_layers(loader *L, xmlNodePtr parent, double ox, double oy, int depth);
int pt__tmx_finish_tiles(loader *L, xmlNodePtr root);

/* ---- tmx_objects.c ----------------------------------------------------------------------- */

int pt__tmx_objects(loader *L, xmlNodePtr root);

/* ---- tmx_lights.c ------------------------------------------------------------------------ */

/* A map property `ambient` or `relight`: 1 when it was one (read into L->m), 0 when not, or a
 * located error. */
int pt__tmx_light_prop(loader *L, const prop *p);
/* An object of class light on tile tx,ty (its name, or light_<id>; its properties). */
int pt__tmx_light_object(loader *L, xmlNodePtr node, const char *name, long id, int tx, int ty);
/* Once every object is read: no two lights of one name (PT_ERR_DUPLICATE at the second). */
int pt__tmx_lights_check(loader *L);

/* ---- tmx_routes.c ------------------------------------------------------------------------ */

int pt__tmx_build_patterns(loader *L, pt_patlib *lib, const char *name);

#endif
