/* SPDX-License-Identifier: Zlib */
/* Tiled maps (.tmx) -> pt_map + path patterns. The rules are in docs/tiled.md.
 *
 * Order of work: the map element and its properties, the tilesets (an external .tsx is
 * parsed and closed at once), every tile layer in document order (group layers depth first,
 * object layers set aside), then every object, then the route patterns. The routes become
 * .pat text parsed by pt_patlib_parse as the very last step, so a failure anywhere leaves
 * the caller's library untouched.
 *
 * libxml2 gives each element the line on which its start tag ENDS, and no column. Places
 * are refined from the source text (node_place) only when an error is reported: the start
 * tag is searched back from that line, then the attribute's value inside it. libxml2 keeps
 * an element's line in 16 bits (65535 for any line past it, then xmlGetLineNo borrows a
 * neighbour's), so doc_parse records the full line in the element's _private (node_line). */
#include <patrol/hearing.h>
#include <patrol/tmx.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlversion.h>
#include <zlib.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "text.h"

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

/* ---- places ---------------------------------------------------------------------------------- */

/* The line on which n's start tag ends (an attribute: its element's). Elements carry the
 * line doc_parse recorded; text nodes past line 65535 carry theirs in psvi, which
 * xmlGetLineNo reads. */
static long node_line(xmlNodePtr n) {
    if (n && n->type == XML_ATTRIBUTE_NODE) n = n->parent;
    if (!n) return -1;
    if (n->type == XML_ELEMENT_NODE && n->_private) return (long)(intptr_t)n->_private;
    return xmlGetLineNo(n);
}

static int build_lines(doc *d) {
    if (d->lines) return 1;
    size_t n = 1;
    for (size_t i = 0; i < d->text.len; i++) n += d->text.data[i] == '\n';
    d->lines = PT_MALLOC(sizeof *d->lines * n);
    if (!d->lines) return 0;
    d->nlines = 0;
    d->lines[d->nlines++] = 0;
    for (size_t i = 0; i < d->text.len; i++)
        if (d->text.data[i] == '\n') d->lines[d->nlines++] = i + 1;
    return 1;
}

static place place_of_offset(const doc *d, size_t off) {
    int lo = 0, hi = d->nlines - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (d->lines[mid] <= off) lo = mid;
        else hi = mid - 1;
    }
    return (place){lo + 1, (int)(off - d->lines[lo]) + 1};
}

static size_t line_end(const doc *d, int line) { /* offset just past a 1-based line's text */
    return line < d->nlines ? d->lines[line] - 1 : d->text.len;
}

static int is_name_end(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '/' || c == '>'; }

/* Offset of "<name" in [from, to), or (size_t)-1. */
static size_t find_tag(const doc *d, const char *name, size_t from, size_t to) {
    size_t n = strlen(name);
    for (size_t i = from; i < to; i++) {
        if (d->text.data[i] != '<' || i + 1 + n > d->text.len) continue;
        if (memcmp(d->text.data + i + 1, name, n) != 0) continue;
        if (i + 1 + n == d->text.len || is_name_end(d->text.data[i + 1 + n])) return i;
    }
    return (size_t)-1;
}

/* How many elements named like n, whose start tags end on n's line, come before n in
 * document order: which of several tags on one line is n's. */
static int same_line_rank(xmlNodePtr n) {
    long line = node_line(n);
    int rank = 0;
    xmlNodePtr cur = xmlDocGetRootElement(n->doc);
    while (cur && cur != n) {
        if (cur->type == XML_ELEMENT_NODE && xmlStrEqual(cur->name, n->name) && node_line(cur) == line) rank++;
        if (cur->type == XML_ELEMENT_NODE && cur->children) cur = cur->children;
        else {
            while (cur && !cur->next) cur = cur->parent;
            if (cur) cur = cur->next;
        }
    }
    return rank;
}

/* Offset of n's start tag, or (size_t)-1. Several same-named tags on its line are told
 * apart by walking the document (exact), or give up (cheap: for places kept on success). */
static size_t tag_offset_ex(doc *d, xmlNodePtr n, int exact) {
    long ln = node_line(n);
    if (n->type != XML_ELEMENT_NODE || ln <= 0 || !build_lines(d) || ln > d->nlines) return (size_t)-1;
    const char *name = (const char *)n->name;
    size_t ls = d->lines[ln - 1], le = line_end(d, (int)ln);
    if (le - ls > SCAN_LINE_MAX) return (size_t)-1;
    int count = 0;
    for (size_t at = find_tag(d, name, ls, le); at != (size_t)-1; at = find_tag(d, name, at + 1, le)) count++;
    size_t tag = (size_t)-1;
    if (count > 1 && !exact) return (size_t)-1;
    if (count >= 1) {
        int rank = count == 1 ? 0 : same_line_rank(n);
        tag = find_tag(d, name, ls, le);
        for (int i = 0; i < rank && tag != (size_t)-1; i++) tag = find_tag(d, name, tag + 1, le);
    } else { /* a start tag spread over several lines: the nearest one above */
        for (long l = ln - 1; l >= 1 && l >= ln - 64 && tag == (size_t)-1; l--) {
            size_t s = d->lines[l - 1], e = line_end(d, (int)l);
            if (e - s > SCAN_LINE_MAX) break;
            for (size_t at = find_tag(d, name, s, e); at != (size_t)-1; at = find_tag(d, name, at + 1, e)) tag = at;
        }
    }
    return tag;
}

static size_t tag_offset(doc *d, xmlNodePtr n) { return tag_offset_ex(d, n, 1); }

/* Where node n is in the source: its start tag (attr NULL) or the value of attribute attr.
 * The line is always known; the column is 0 when the tag cannot be found unambiguously. */
static place node_place_ex(doc *d, xmlNodePtr n, const char *attr, int exact) {
    place p = {0, 0};
    if (!n) return p;
    long ln = node_line(n);
    if (ln <= 0 || ln > 0x7fffffff) return p;
    p.line = (int)ln;
    size_t tag = tag_offset_ex(d, n, exact);
    if (tag == (size_t)-1) return p;
    if (!attr) return place_of_offset(d, tag);
    size_t an = strlen(attr);
    const char *t = d->text.data;
    char q = 0;
    for (size_t i = tag + 1 + strlen((const char *)n->name); i < d->text.len; i++) {
        char c = t[i];
        if (q) {
            if (c == q) q = 0;
            continue;
        }
        if (c == '"' || c == '\'') { q = c; continue; }
        if (c == '>') break;
        if ((c == ' ' || c == '\t' || c == '\n' || c == '\r') && i + 1 + an < d->text.len &&
            memcmp(t + i + 1, attr, an) == 0) {
            size_t j = i + 1 + an;
            while (j < d->text.len && (t[j] == ' ' || t[j] == '\t')) j++;
            if (j >= d->text.len || t[j] != '=') continue;
            j++;
            while (j < d->text.len && (t[j] == ' ' || t[j] == '\t')) j++;
            if (j < d->text.len && (t[j] == '"' || t[j] == '\'')) j++;
            return place_of_offset(d, j);
        }
    }
    return place_of_offset(d, tag);
}

static place node_place(doc *d, xmlNodePtr n, const char *attr) { return node_place_ex(d, n, attr, 1); }

/* Offset just after the '>' of n's start tag (its content's first byte), or (size_t)-1. */
static size_t content_offset(doc *d, xmlNodePtr n) {
    size_t tag = tag_offset(d, n);
    if (tag == (size_t)-1) return tag;
    char q = 0;
    for (size_t i = tag; i < d->text.len; i++) {
        char c = d->text.data[i];
        if (q) {
            if (c == q) q = 0;
            continue;
        }
        if (c == '"' || c == '\'') q = c;
        else if (c == '>') return i + 1;
    }
    return (size_t)-1;
}

/* ---- errors -------------------------------------------------------------------------------- */

static int vfail(loader *L, doc *d, place at, int code, const char *fmt, va_list ap) {
    char msg[PT_ERROR_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    L->err_doc = d;
    return pt_error_set(L->err, code, at.line, at.col, "%s", msg);
}

#if defined(__GNUC__)
#define PT__FMT(a, b) __attribute__((format(printf, a, b)))
#else
#define PT__FMT(a, b)
#endif

static int fail(loader *L, doc *d, place at, int code, const char *fmt, ...) PT__FMT(5, 6);
static int fail(loader *L, doc *d, place at, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

/* An error at node n (attr NULL: its start tag; else attr's value, colofs bytes into it). */
static int fail_at(loader *L, doc *d, xmlNodePtr n, const char *attr, int colofs, int code, const char *fmt, ...)
    PT__FMT(7, 8);
static int fail_at(loader *L, doc *d, xmlNodePtr n, const char *attr, int colofs, int code, const char *fmt, ...) {
    place at = node_place(d, n, attr);
    if (at.col > 0 && colofs > 0) at.col += colofs;
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

static int nomem(loader *L) {
    L->err_doc = NULL;
    return pt_error_set(L->err, PT_ERR_NOMEM, 0, 0, "out of memory");
}

/* ---- XML helpers --------------------------------------------------------------------------- */

static int keep(loader *L, xmlChar *s) {
    if (L->nstrs == L->strs_cap) {
        int ncap = L->strs_cap ? L->strs_cap * 2 : 64;
        xmlChar **ns = PT_REALLOC(L->strs, sizeof *ns * (size_t)ncap);
        if (!ns) {
            xmlFree(s);
            return 0;
        }
        L->strs = ns;
        L->strs_cap = ncap;
    }
    L->strs[L->nstrs++] = s;
    return 1;
}

/* The value of attribute name, NULL when absent. Valid until the end of the load. */
static const char *attr(loader *L, xmlNodePtr n, const char *name) {
    xmlAttrPtr a = xmlHasProp(n, BAD_CAST name);
    if (!a || a->type != XML_ATTRIBUTE_NODE) return NULL;
    if (!a->children) return "";
    if (a->children->type == XML_TEXT_NODE && !a->children->next && a->children->content)
        return (const char *)a->children->content;
    xmlChar *s = xmlNodeListGetString(n->doc, a->children, 1);
    if (!s || !keep(L, s)) return "";
    return (const char *)s;
}

static int is_elem(xmlNodePtr n, const char *name) {
    return n && n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST name);
}

static xmlNodePtr child(xmlNodePtr n, const char *name) {
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (is_elem(c, name)) return c;
    return NULL;
}

static int ieq(const char *a, const char *b) { /* ASCII case-insensitive equality */
    if (!a || !b) return 0;
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

static int len_max(const char *s, int max) { /* strlen, at most max (strnlen is POSIX) */
    int n = 0;
    while (n < max && s[n]) n++;
    return n;
}

static pt__tok tok_of(const char *s) {
    pt__tok t = {s, len_max(s, 4096), 1, 0};
    return t;
}

/* Numbers in attributes, with the shared strict number rules (text.h): an int into *iout
 * when iout is set (lo and hi are whole), else a number into *dout; def when absent. */
static int attr_number(loader *L, doc *d, xmlNodePtr n, const char *name, double lo, double hi, double def,
                       double *dout, int *iout) {
    const char *s = attr(L, n, name);
    if (!s) {
        if (iout) *iout = (int)def;
        else *dout = def;
        return PT_OK;
    }
    pt__tok t = tok_of(s);
    pt_error e;
    pt_error_clear(&e);
    int rc = iout ? pt__tok_int(&t, 0, (long)lo, (long)hi, iout, &e) : pt__tok_num(&t, 0, lo, hi, dout, &e);
    if (rc < 0) return fail_at(L, d, n, name, 0, rc, "%s: %s", name, e.message);
    return PT_OK;
}

static int attr_num(loader *L, doc *d, xmlNodePtr n, const char *name, double lo, double hi, double def, double *out) {
    return attr_number(L, d, n, name, lo, hi, def, out, NULL);
}

static int attr_int(loader *L, doc *d, xmlNodePtr n, const char *name, int lo, int hi, int def, int *out) {
    return attr_number(L, d, n, name, lo, hi, def, NULL, out);
}

/* Strict unsigned 32-bit decimal (gids, firstgid): 1 on success. */
static int parse_u32(const char *s, size_t len, uint32_t *out) {
    if (len == 0 || len > 10) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > 0xFFFFFFFFu) return 0;
    *out = (uint32_t)v;
    return 1;
}

/* ---- properties ---------------------------------------------------------------------------- */

typedef struct prop {
    xmlNodePtr node;
    const char *name, *type, *value;
    int has_value_attr;
} prop;

/* The next <property> of n's <properties> after *it (start with *it = NULL). */
static int next_prop(loader *L, xmlNodePtr n, xmlNodePtr *it, prop *p) {
    xmlNodePtr c;
    if (!*it) {
        xmlNodePtr props = child(n, "properties");
        c = props ? props->children : NULL;
    } else c = (*it)->next;
    for (; c; c = c->next) {
        if (!is_elem(c, "property")) continue;
        *it = c;
        p->node = c;
        p->name = attr(L, c, "name");
        if (!p->name) p->name = "";
        p->type = attr(L, c, "type");
        if (!p->type) p->type = "string";
        p->value = attr(L, c, "value");
        p->has_value_attr = p->value != NULL;
        if (!p->value) { /* multi-line strings are the element's text */
            xmlChar *s = xmlNodeGetContent(c);
            p->value = s && keep(L, s) ? (const char *)s : "";
        }
        return 1;
    }
    return 0;
}

/* An error about a property's value, colofs bytes into it. */
/* Where a property's value (or colofs bytes into it) is. */
static place value_place(doc *d, const prop *p, int colofs) {
    place at = node_place(d, p->node, p->has_value_attr ? "value" : NULL);
    if (at.col > 0 && colofs > 0 && p->has_value_attr) at.col += colofs;
    return at;
}

static int fail_value(loader *L, doc *d, const prop *p, int colofs, int code, const char *fmt, ...) PT__FMT(6, 7);
static int fail_value(loader *L, doc *d, const prop *p, int colofs, int code, const char *fmt, ...) {
    place at = value_place(d, p, colofs);
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, d, at, code, fmt, ap);
    va_end(ap);
    return rc;
}

/* Re-places an error a pt__tok helper reported on a property value. */
static int tok_fail(loader *L, doc *d, const prop *p, const pt_error *e) {
    return fail_value(L, d, p, e->col - 1, e->code, "property '%.40s': %s", p->name, e->message);
}

enum { WANT_BOOL, WANT_NUM, WANT_INT, WANT_STR, WANT_FILE, WANT_OBJ, WANT_INT_OR_STR, WANT_NUM_OR_STR };

static int prop_type(loader *L, doc *d, const prop *p, int want) {
    static const char *const names[] = {"bool", "int or float", "int", "string", "string or file", "object",
                                        "int or string", "int, float or string"};
    const char *t = p->type;
    int ok = 0;
    switch (want) {
    case WANT_BOOL: ok = !strcmp(t, "bool"); break;
    case WANT_NUM: ok = !strcmp(t, "int") || !strcmp(t, "float"); break;
    case WANT_INT: ok = !strcmp(t, "int"); break;
    case WANT_STR: ok = !strcmp(t, "string"); break;
    case WANT_FILE: ok = !strcmp(t, "string") || !strcmp(t, "file"); break;
    case WANT_OBJ: ok = !strcmp(t, "object"); break;
    case WANT_INT_OR_STR: ok = !strcmp(t, "int") || !strcmp(t, "string"); break;
    case WANT_NUM_OR_STR: ok = !strcmp(t, "int") || !strcmp(t, "float") || !strcmp(t, "string"); break;
    }
    if (ok) return PT_OK;
    return fail_at(L, d, p->node, xmlHasProp(p->node, BAD_CAST "type") ? "type" : "name", 0, PT_ERR_BAD_VALUE,
                   "property '%.40s' must be of type %s, not %.40s", p->name, names[want], t);
}

static int prop_bool(loader *L, doc *d, const prop *p, int *out) {
    int rc = prop_type(L, d, p, WANT_BOOL);
    if (rc < 0) return rc;
    if (!strcmp(p->value, "true")) *out = 1;
    else if (!strcmp(p->value, "false")) *out = 0;
    else
        return fail_value(L, d, p, 0, PT_ERR_BAD_VALUE, "property '%.40s': expected true or false, found '%.40s'",
                          p->name, p->value);
    return PT_OK;
}

static int prop_num(loader *L, doc *d, const prop *p, double lo, double hi, double *out) {
    int rc = prop_type(L, d, p, WANT_NUM);
    if (rc < 0) return rc;
    pt__tok t = tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_num(&t, 0, lo, hi, out, &e)) < 0) return tok_fail(L, d, p, &e);
    return PT_OK;
}

static int prop_int(loader *L, doc *d, const prop *p, int want, long lo, long hi, int *out) {
    int rc = prop_type(L, d, p, want);
    if (rc < 0) return rc;
    pt__tok t = tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_int(&t, 0, lo, hi, out, &e)) < 0) return tok_fail(L, d, p, &e);
    return PT_OK;
}

static int prop_name(loader *L, doc *d, const prop *p, char *dst, size_t cap) {
    int rc = prop_type(L, d, p, WANT_STR);
    if (rc < 0) return rc;
    pt__tok t = tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_name(&t, 0, dst, cap, &e)) < 0) return tok_fail(L, d, p, &e);
    return PT_OK;
}

static int prop_choice(loader *L, doc *d, const prop *p, const char *const *words, int *out) {
    int rc = prop_type(L, d, p, WANT_STR);
    if (rc < 0) return rc;
    pt__tok t = tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_choice(&t, 0, words, out, &e)) < 0) return tok_fail(L, d, p, &e);
    return PT_OK;
}

/* A number (int or float) or a string holding a number or `block`, as the legend's sound=. */
static int prop_sound(loader *L, doc *d, const prop *p, int16_t *out) {
    int rc = prop_type(L, d, p, WANT_NUM_OR_STR);
    if (rc < 0) return rc;
    pt__tok t = tok_of(p->value);
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__tok_sound(&t, 0, out, &e)) < 0) return tok_fail(L, d, p, &e);
    return PT_OK;
}

/* ---- the map element and its properties ---------------------------------------------------- */

/* A file path relative to the map's folder (absolute paths are kept). Returns 0 when it
 * does not fit or holds a control character; *why says which. */
static int resolve(const loader *L, const char *s, size_t len, char *dst, size_t cap, const char **why) {
    *why = len == 0 ? "expected a file name" : NULL;
    for (size_t i = 0; i < len && !*why; i++)
        if ((unsigned char)s[i] < 32) *why = "control character in a file name";
    const char *dir = len && s[0] == '/' ? "" : L->dir;
    size_t dl = strlen(dir);
    if (!*why && dl + len >= cap) *why = "the file path is too long";
    if (*why) return 0;
    memcpy(dst, dir, dl);
    memcpy(dst + dl, s, len);
    dst[dl + len] = '\0';
    return 1;
}

static int map_props(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    xmlNodePtr it = NULL;
    prop p;
    int rc, seen_title = 0, seen_seed = 0, seen_patterns = 0, seen_steering = 0, seen_phase[PT__PHASE_NKEYS] = {0};
    while (next_prop(L, root, &it, &p)) {
        int phase_key = pt__phase_key_find(p.name, strlen(p.name));
        if (phase_key >= 0) { /* evasion, caution, caution_aware, caution_fov: as the .map directives */
            if (seen_phase[phase_key]++)
                return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p.name);
            if ((rc = prop_type(L, d, &p, WANT_NUM)) < 0) return rc;
            pt__tok t = tok_of(p.value);
            pt_error e;
            pt_error_clear(&e);
            if (pt__phase_key_read(phase_key, &t, 0, &L->m.phases, &e) < 0) return tok_fail(L, d, &p, &e);
            continue;
        }
        int *seen = !strcmp(p.name, "title")      ? &seen_title
                    : !strcmp(p.name, "seed")     ? &seen_seed
                    : !strcmp(p.name, "patterns") ? &seen_patterns
                    : !strcmp(p.name, "steering") ? &seen_steering
                                                  : NULL;
        if (!seen) continue; /* other tools' properties */
        if ((*seen)++) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p.name);
        const char *why;
        if (seen == &seen_title) {
            if ((rc = prop_type(L, d, &p, WANT_STR)) < 0) return rc;
            if (strlen(p.value) >= sizeof L->m.name)
                return fail_value(L, d, &p, 0, PT_ERR_LIMIT, "title is longer than %zu bytes", sizeof L->m.name - 1);
            snprintf(L->m.name, sizeof L->m.name, "%s", p.value);
        } else if (seen == &seen_seed) {
            if ((rc = prop_type(L, d, &p, WANT_INT_OR_STR)) < 0) return rc;
            uint64_t v = 0;
            size_t n = strlen(p.value);
            int ok = n > 0 && n <= 20;
            for (size_t i = 0; ok && i < n; i++) {
                unsigned dg = (unsigned)(p.value[i] - '0');
                if (dg > 9 || v > (UINT64_MAX - dg) / 10) ok = 0;
                else v = v * 10 + dg;
            }
            if (!ok)
                return fail_value(L, d, &p, 0, PT_ERR_BAD_NUMBER,
                                  "seed: expected a whole number from 0 to 2^64-1, found '%.40s'", p.value);
            L->m.seed = v;
        } else if (seen == &seen_patterns) {
            if ((rc = prop_type(L, d, &p, WANT_FILE)) < 0) return rc;
            const char *s = p.value;
            for (;;) { /* a comma-separated list of files */
                while (*s == ' ' || *s == ',') s++;
                if (!*s) break;
                const char *e = s;
                while (*e && *e != ',') e++;
                size_t len = (size_t)(e - s);
                while (len > 0 && s[len - 1] == ' ') len--;
                int ofs = (int)(s - p.value);
                if (L->m.npattern_files >= PT_MAX_PATTERN_FILES)
                    return fail_value(L, d, &p, ofs, PT_ERR_LIMIT, "more than %d pattern files in one map",
                                      PT_MAX_PATTERN_FILES);
                char path[PT_MAX_PATH];
                if (!resolve(L, s, len, path, sizeof path, &why))
                    return fail_value(L, d, &p, ofs, PT_ERR_LIMIT, "patterns: %s", why);
                for (int i = 0; i < L->m.npattern_files; i++)
                    if (!strcmp(L->m.pattern_files[i], path))
                        return fail_value(L, d, &p, ofs, PT_ERR_DUPLICATE, "pattern file listed twice");
                memcpy(L->m.pattern_files[L->m.npattern_files], path, sizeof path);
                place at = value_place(d, &p, ofs);
                L->m.pattern_file_cols[L->m.npattern_files] = at.col;
                L->m.pattern_file_lines[L->m.npattern_files++] = at.line;
                s = e;
            }
        } else {
            if ((rc = prop_type(L, d, &p, WANT_FILE)) < 0) return rc;
            if (!resolve(L, p.value, strlen(p.value), L->m.steering_file, sizeof L->m.steering_file, &why))
                return fail_value(L, d, &p, 0, PT_ERR_LIMIT, "steering: %s", why);
            place at = value_place(d, &p, 0);
            L->m.steering_line = at.line;
            L->m.steering_col = at.col;
        }
    }
    return PT_OK;
}

static int map_element(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    int rc, w, h, tw, th;
    const char *o = attr(L, root, "orientation");
    if (o && strcmp(o, "orthogonal") != 0)
        return fail_at(L, d, root, "orientation", 0, PT_ERR_BAD_VALUE,
                       "%.40s maps are not supported: patrol reads orthogonal maps", o);
    const char *inf = attr(L, root, "infinite");
    if (inf && strcmp(inf, "0") != 0)
        return fail_at(L, d, root, "infinite", 0, PT_ERR_BAD_VALUE,
                       "infinite maps are not supported: in Tiled, uncheck Map > Map Properties > Infinite");
    if ((rc = attr_int(L, d, root, "width", 1, 0x7fffffff, -1, &w)) < 0 ||
        (rc = attr_int(L, d, root, "height", 1, 0x7fffffff, -1, &h)) < 0)
        return rc;
    if (w < 0 || h < 0)
        return fail_at(L, d, root, NULL, 0, PT_ERR_MISSING, "the map has no %s", w < 0 ? "width" : "height");
    if (w > PT_MAP_MAX_W || h > PT_MAP_MAX_H)
        return fail_at(L, d, root, w > PT_MAP_MAX_W ? "width" : "height", 0, PT_ERR_LIMIT,
                       "the map is %dx%d tiles; the limit is %dx%d", w, h, PT_MAP_MAX_W, PT_MAP_MAX_H);
    if ((rc = attr_int(L, d, root, "tilewidth", PT_MIN_TILE_PX, PT_MAX_TILE_PX, -1, &tw)) < 0 ||
        (rc = attr_int(L, d, root, "tileheight", PT_MIN_TILE_PX, PT_MAX_TILE_PX, -1, &th)) < 0)
        return rc;
    if (tw < 0 || th < 0)
        return fail_at(L, d, root, NULL, 0, PT_ERR_MISSING, "the map has no %s", tw < 0 ? "tilewidth" : "tileheight");
    if (tw != th)
        return fail_at(L, d, root, "tileheight", 0, PT_ERR_BAD_VALUE,
                       "tiles must be square: tilewidth is %d, tileheight %d", tw, th);
    L->tw = tw;
    L->th = th;
    size_t n = (size_t)w * (size_t)h;
    L->m.tiles = PT_MALLOC(n);
    L->m.flags = PT_MALLOC(n);
    if (!L->m.tiles || !L->m.flags) return nomem(L);
    memset(L->m.tiles, EMPTY_CELL, n);
    L->m.w = w;
    L->m.h = h;
    L->m.tile_px = tw;
    return map_props(L, root);
}

/* ---- tilesets ------------------------------------------------------------------------------ */

static int tile_props(loader *L, doc *d, xmlNodePtr tile, tile_info *ti) {
    xmlNodePtr it = NULL;
    prop p;
    int rc;
    while (next_prop(L, tile, &it, &p)) {
        int *has;
        if (!strcmp(p.name, "walkable")) {
            has = &ti->has_walkable;
            rc = prop_bool(L, d, &p, &ti->walkable);
        } else if (!strcmp(p.name, "opaque")) {
            has = &ti->has_opaque;
            rc = prop_bool(L, d, &p, &ti->opaque);
        } else if (!strcmp(p.name, "goal")) {
            has = &ti->has_goal;
            rc = prop_bool(L, d, &p, &ti->goal);
        } else if (!strcmp(p.name, "sprite")) {
            has = &ti->has_sprite;
            rc = prop_int(L, d, &p, WANT_INT, -1, 1023, &ti->sprite);
        } else if (!strcmp(p.name, "name")) {
            has = &ti->has_name;
            rc = prop_name(L, d, &p, ti->name, sizeof ti->name);
        } else if (!strcmp(p.name, "sound")) {
            has = &ti->has_sound;
            rc = prop_sound(L, d, &p, &ti->sound);
        } else if (!strcmp(p.name, "footstep")) {
            has = &ti->has_footstep;
            rc = prop_num(L, d, &p, 0, PT_FOOTSTEP_MAX, &ti->footstep);
        } else if (!strcmp(p.name, "noise")) {
            has = &ti->has_noise;
            rc = prop_num(L, d, &p, 0, PT_HEARING_MAX_LOUDNESS, &ti->noise);
        } else continue; /* tilesets are shared with other tools: other properties are theirs */
        if (rc < 0) return rc;
        if ((*has)++) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "tile property '%s' given twice", p.name);
    }
    return PT_OK;
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    const char *b = strrchr(path, '\\');
    if (b && (!s || b > s)) s = b;
    return s ? s + 1 : path;
}

/* Reads a <tileset> element (of the map, or the root of a .tsx) into ts. */
static int tileset_element(loader *L, doc *d, xmlNodePtr n, tileset *ts) {
    int rc, count = -1;
    if (attr(L, n, "tilecount") && (rc = attr_int(L, d, n, "tilecount", 0, 0x7fffffff, 0, &count)) < 0) return rc;
    if (count > PT_TMX_MAX_TILESET_TILES)
        return fail_at(L, d, n, "tilecount", 0, PT_ERR_LIMIT, "a tileset of %d tiles; the limit is %d", count,
                       PT_TMX_MAX_TILESET_TILES);
    xmlNodePtr img = child(n, "image");
    ts->collection = img == NULL;
    if (img) {
        const char *src = attr(L, img, "source");
        ts->tiles_png = src && !strcmp(base_name(src), "tiles.png");
    }
    if (!ts->collection && count < 0) return fail_at(L, d, n, NULL, 0, PT_ERR_MISSING, "the tileset has no tilecount");
    int maxid = -1, ntile = 0;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is_elem(c, "tile")) continue;
        int id = 0;
        if (!attr(L, c, "id")) return fail_at(L, d, c, NULL, 0, PT_ERR_MISSING, "the tile has no id");
        if ((rc = attr_int(L, d, c, "id", 0, ts->collection ? 0x7fffffff : count - 1, 0, &id)) < 0) return rc;
        if (id >= PT_TMX_MAX_TILESET_TILES)
            return fail_at(L, d, c, "id", 0, PT_ERR_LIMIT, "tile id %d; a tileset holds at most %d tiles", id,
                           PT_TMX_MAX_TILESET_TILES);
        if (id > maxid) maxid = id;
        ntile++;
    }
    ts->ntiles = ts->collection ? (maxid + 1 > count ? maxid + 1 : count) : count;
    if (ts->ntiles < 0) ts->ntiles = 0;
    ts->ninfo_ids = maxid + 1;
    size_t ni = ts->ninfo_ids > 0 ? (size_t)ts->ninfo_ids : 1;
    ts->info = PT_MALLOC(sizeof *ts->info * ni);
    ts->infos = PT_CALLOC(ntile ? (size_t)ntile : 1, sizeof *ts->infos);
    if (!ts->info || !ts->infos) return nomem(L);
    for (size_t i = 0; i < ni; i++) ts->info[i] = -1;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is_elem(c, "tile")) continue;
        int id = 0;
        if ((rc = attr_int(L, d, c, "id", 0, ts->ntiles - 1, 0, &id)) < 0) return rc;
        if (ts->info[id] >= 0)
            return fail_at(L, d, c, "id", 0, PT_ERR_DUPLICATE, "tile %d is defined twice in this tileset", id);
        tile_info *ti = &ts->infos[ts->ninfos];
        ts->info[id] = ts->ninfos++;
        if ((rc = tile_props(L, d, c, ti)) < 0) return rc;
        if (ti->has_name) continue;
        /* no name property: the tile's class (Tiled 1.9) or type names it */
        const char *which = "class", *cls = attr(L, c, "class");
        if (!cls || !*cls) {
            which = "type";
            cls = attr(L, c, "type");
        }
        if (cls && *cls) {
            pt__tok t = tok_of(cls);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_name(&t, 0, ti->name, sizeof ti->name, &e)) < 0)
                return fail_at(L, d, c, which, e.col - 1, rc, "tile %s: %s", which, e.message);
        }
    }
    return PT_OK;
}

static void doc_close(doc *d) {
    if (d->xml) xmlFreeDoc(d->xml);
    pt__text_free(&d->text);
    PT_FREE(d->lines);
    memset(d, 0, sizeof *d);
}

/* libxml2 keeps going after the first well-formedness error and its "last error" is often a
 * consequence ("premature end of data"): keep the first one. */
typedef struct first_error { int seen, line, col; char msg[200]; } first_error;

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_arg; /* the handler's argument became const in 2.12 */
#else
typedef xmlError *xml_error_arg;
#endif

static void keep_first_error(void *ctx, xml_error_arg e) {
    xmlParserCtxtPtr c = ctx;
    first_error *f = c ? c->_private : NULL;
    if (!f || !e || f->seen || e->level < XML_ERR_ERROR) return;
    f->seen = 1;
    f->line = e->line > 0 ? e->line : 0;
    f->col = e->int2 > 0 ? e->int2 : 0;
    snprintf(f->msg, sizeof f->msg, "XML: %s", e->message ? e->message : "not well-formed");
    size_t k = strlen(f->msg);
    while (k > 0 && (f->msg[k - 1] == '\n' || f->msg[k - 1] == ' ')) f->msg[--k] = '\0';
}

/* libxml2's own start-of-element handler, then the parser's full line (the end of the start
 * tag, as libxml2 counts it) into the new element's _private: node->line stops at 65535. */
static void start_element(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int nns,
                          const xmlChar **ns, int nattrs, int ndefaulted, const xmlChar **attrs) {
    xmlParserCtxtPtr c = ctx;
    xmlNodePtr parent = c->node;
    xmlSAX2StartElementNs(ctx, name, prefix, uri, nns, ns, nattrs, ndefaulted, attrs);
    if (c->node && c->node != parent && c->input && c->input->line > 0)
        c->node->_private = (void *)(intptr_t)c->input->line;
}

/* Parses d->text as XML whose root element must be <root>. */
static int doc_parse(loader *L, doc *d, const char *root) {
    /* No DTD: nothing to expand and nothing to fetch (entity bombs, external entities). */
    static const char dtd[] = "<!DOCTYPE";
    for (size_t i = 0; i + sizeof dtd - 1 <= d->text.len; i++)
        if (d->text.data[i] == '<' && memcmp(d->text.data + i, dtd, sizeof dtd - 1) == 0) {
            if (!build_lines(d)) return nomem(L);
            return fail(L, d, place_of_offset(d, i), PT_ERR_SYNTAX,
                        "document type declarations (<!DOCTYPE) are not allowed in a Tiled file");
        }
    if (d->text.len > (size_t)INT32_MAX) return fail(L, d, (place){0, 0}, PT_ERR_LIMIT, "the file is too large");
    xmlParserCtxtPtr ctx = xmlNewParserCtxt();
    if (!ctx) return nomem(L);
    first_error first;
    memset(&first, 0, sizeof first);
    ctx->_private = &first;
    if (ctx->sax) {
        ctx->sax->serror = keep_first_error;
        ctx->sax->startElementNs = start_element;
    }
    d->xml = xmlCtxtReadMemory(ctx, d->text.data, (int)d->text.len, NULL, NULL,
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
    if (!d->xml || !ctx->wellFormed) {
        if (!first.seen) {
            const xmlError *e = xmlCtxtGetLastError(ctx);
            snprintf(first.msg, sizeof first.msg, "XML: %s", e && e->message ? e->message : "not well-formed");
            first.line = e && e->line > 0 ? e->line : 0;
            first.col = e && e->int2 > 0 ? e->int2 : 0;
        }
        xmlFreeParserCtxt(ctx);
        return fail(L, d, (place){first.line, first.col}, PT_ERR_SYNTAX, "%s", first.msg);
    }
    xmlFreeParserCtxt(ctx);
    xmlNodePtr r = xmlDocGetRootElement(d->xml);
    if (!is_elem(r, root)) {
        const char *what = !strcmp(root, "map") ? "map" : "tileset";
        if (!r) return fail(L, d, (place){1, 0}, PT_ERR_SYNTAX, "not a Tiled %s: no root element", what);
        return fail_at(L, d, r, NULL, 0, PT_ERR_SYNTAX, "not a Tiled %s: the root element is <%.40s>, expected <%s>",
                       what, (const char *)r->name, root);
    }
    return PT_OK;
}

static int tilesets(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    int rc, n = 0;
    for (xmlNodePtr c = root->children; c; c = c->next)
        if (is_elem(c, "tileset") && ++n > PT_TMX_MAX_TILESETS) /* at the one that goes over */
            return fail_at(L, d, c, NULL, 0, PT_ERR_LIMIT, "more than %d tilesets", PT_TMX_MAX_TILESETS);
    L->ts = PT_CALLOC(n ? (size_t)n : 1, sizeof *L->ts);
    if (!L->ts) return nomem(L);
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (!is_elem(c, "tileset")) continue;
        tileset *ts = &L->ts[L->nts++];
        const char *fg = attr(L, c, "firstgid");
        if (!fg) return fail_at(L, d, c, NULL, 0, PT_ERR_MISSING, "the tileset has no firstgid");
        if (!parse_u32(fg, strlen(fg), &ts->firstgid) || ts->firstgid == 0 || ts->firstgid > ~GID_FLAGS)
            return fail_at(L, d, c, "firstgid", 0, PT_ERR_BAD_NUMBER,
                           "firstgid: expected a whole number from 1 to %u, found '%.40s'", ~GID_FLAGS, fg);
        if (L->nts > 1 && ts->firstgid <= L->ts[L->nts - 2].firstgid)
            return fail_at(L, d, c, "firstgid", 0, PT_ERR_BAD_VALUE,
                           "tilesets must come in increasing firstgid order (%u follows %u)", ts->firstgid,
                           L->ts[L->nts - 2].firstgid);
        const char *src = attr(L, c, "source");
        if (!src) {
            if ((rc = tileset_element(L, d, c, ts)) < 0) return rc;
            continue;
        }
        char path[PT_MAX_PATH];
        const char *why;
        if (!resolve(L, src, strlen(src), path, sizeof path, &why))
            return fail_at(L, d, c, "source", 0, PT_ERR_LIMIT, "source: %s", why);
        size_t pl = strlen(path);
        if (pl > 4 && ieq(path + pl - 4, ".tsj"))
            return fail_at(L, d, c, "source", 0, PT_ERR_BAD_VALUE,
                           "JSON tilesets (.tsj) are not supported: save the tileset as .tsx");
        doc *t = &L->tsx;
        snprintf(t->path, sizeof t->path, "%s", path);
        pt_error e;
        if ((rc = pt__text_read(&t->text, path, &e)) < 0) {
            if (rc == PT_ERR_IO)
                return fail_at(L, d, c, "source", 0, PT_ERR_IO, "cannot read the tileset '%.80s': %s", src, e.message);
            L->err_doc = NULL; /* a problem inside the .tsx (binary, too large): its own place */
            *L->err = e;
            return rc;
        }
        if ((rc = doc_parse(L, t, "tileset")) < 0) return rc;
        if ((rc = tileset_element(L, t, xmlDocGetRootElement(t->xml), ts)) < 0) return rc;
        doc_close(t);
    }
    return PT_OK;
}

/* ---- tile kinds: the legend ---------------------------------------------------------------- */

/* Index in ts->infos of local id, or -1 (no <tile> element). */
static int info_of(const tileset *ts, int id) { return id >= 0 && id < ts->ninfo_ids ? ts->info[id] : -1; }

static int legend_char(const pt_map *m) {
    static const char pool[] = "ABCDFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!$%&()-/;<>?@[]^_{|}`";
    for (const char *c = pool; *c; c++)
        if (pt_map_legend_find(m, *c) < 0) return *c;
    return 0;
}

/* Legend index of local tile id of tileset ts. A kind is (name, flags, sprite, sound, footstep,
 * noise); equal kinds
 * share one legend entry, a default one when it matches. Negative: error (place unset). */
static int tile_kind(loader *L, tileset *ts, int id) {
    if (!ts->legend) {
        ts->legend = PT_MALLOC(sizeof *ts->legend * (size_t)(ts->ntiles > 0 ? ts->ntiles : 1));
        if (!ts->legend) return nomem(L);
        for (int i = 0; i < ts->ntiles; i++) ts->legend[i] = -1;
    }
    if (ts->legend[id] >= 0) return ts->legend[id];
    pt_tile_def def;
    memset(&def, 0, sizeof def);
    int info = info_of(ts, id);
    const tile_info *ti = info >= 0 ? &ts->infos[info] : NULL;
    int walkable = ti && ti->has_walkable ? ti->walkable : 1;
    int opaque = ti && ti->has_opaque ? ti->opaque : 0;
    int goal = ti && ti->has_goal ? ti->goal : 0;
    def.flags = (uint8_t)((walkable ? PT_TILE_WALKABLE : 0) | (opaque ? PT_TILE_OPAQUE : 0) | (goal ? PT_TILE_GOAL : 0));
    def.sprite = ti && ti->has_sprite ? ti->sprite : (ts->tiles_png ? id : -1);
    if (ti && ti->name[0]) snprintf(def.name, sizeof def.name, "%s", ti->name);
    else snprintf(def.name, sizeof def.name, "tile_%lu", (unsigned long)ts->firstgid + (unsigned long)id);
    def.sound = ti && ti->has_sound ? ti->sound : (int16_t)pt_tile_sound_default(def.name, def.flags);
    def.footstep = ti && ti->has_footstep ? ti->footstep : pt_tile_footstep_default(def.name);
    def.noise = ti && ti->has_noise ? ti->noise : 0.0;
    int k;
    for (k = 0; k < L->m.nlegend; k++) {
        const pt_tile_def *t = &L->m.legend[k];
        if (t->flags == def.flags && t->sprite == def.sprite && t->sound == def.sound && t->footstep == def.footstep &&
            t->noise == def.noise && !strcmp(t->name, def.name))
            break;
    }
    if (k == L->m.nlegend) {
        int ch = legend_char(&L->m);
        if (L->m.nlegend >= PT_MAX_TILE_KINDS || !ch)
            return fail(L, &L->tmx, (place){0, 0}, PT_ERR_LIMIT,
                        "more than %d kinds of tile (a kind is a name, flags, a sprite, a sound, a footstep and a noise)", PT_MAX_TILE_KINDS);
        def.ch = (char)ch;
        L->m.legend[L->m.nlegend++] = def;
    }
    ts->legend[id] = (int16_t)k;
    return k;
}

/* Sets cell i from gid (flip bits cleared; 0 = empty, the layers below show through).
 * On error the place is left for the caller to set (relocate). */
static int put_gid(loader *L, size_t i, uint32_t gid) {
    gid &= ~GID_FLAGS;
    if (gid == 0) return PT_OK;
    int lo = 0, hi = L->nts - 1, k = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (L->ts[mid].firstgid <= gid) {
            k = mid;
            lo = mid + 1;
        } else hi = mid - 1;
    }
    int x = (int)(i % (size_t)L->m.w), y = (int)(i / (size_t)L->m.w);
    if (k < 0)
        return fail(L, &L->tmx, (place){0, 0}, PT_ERR_UNKNOWN_TILE, "tile %d,%d: gid %lu belongs to no tileset", x, y,
                    (unsigned long)gid);
    tileset *ts = &L->ts[k];
    uint32_t id = gid - ts->firstgid;
    if (id >= (uint32_t)ts->ntiles || (ts->collection && info_of(ts, (int)id) < 0))
        return fail(L, &L->tmx, (place){0, 0}, PT_ERR_UNKNOWN_TILE,
                    "tile %d,%d: gid %lu is not a tile of its tileset (firstgid %lu)", x, y, (unsigned long)gid,
                    (unsigned long)ts->firstgid);
    int kind = tile_kind(L, ts, (int)id);
    if (kind < 0) return kind;
    L->m.tiles[i] = (uint8_t)kind;
    return PT_OK;
}

static int relocate(loader *L, int rc, place at) {
    if (L->err) {
        L->err->line = at.line;
        L->err->col = at.col;
    }
    L->err_doc = &L->tmx;
    return rc;
}

/* ---- tile layers --------------------------------------------------------------------------- */

static int wrong_length(loader *L, place at, size_t got, const char *unit) {
    size_t need = (size_t)L->m.w * (size_t)L->m.h * (strcmp(unit, "bytes") ? 1 : 4);
    return fail(L, &L->tmx, at, PT_ERR_RAGGED_ROW, "the layer has %zu %s; the %dx%d map needs %zu", got, unit, L->m.w,
                L->m.h, need);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int layer_csv(loader *L, xmlNodePtr data, const char *s) {
    doc *d = &L->tmx;
    size_t need = (size_t)L->m.w * (size_t)L->m.h, n = 0;
    /* Exact places: walk the content from just after the '>' of <data ...>. */
    int line = (int)node_line(data), col = 0;
    size_t off = content_offset(d, data);
    if (off != (size_t)-1) {
        place c = place_of_offset(d, off);
        line = c.line;
        col = c.col;
    }
#define ADVANCE(ch)                                                                                                   \
    do {                                                                                                               \
        if ((ch) == '\n') {                                                                                            \
            line++;                                                                                                    \
            col = 1;                                                                                                   \
        } else if (col) col++;                                                                                         \
    } while (0)
    size_t i = 0, len = strlen(s);
    place end = {line, col}; /* just past the last tile id */
    for (;;) {
        while (i < len && is_blank(s[i])) ADVANCE(s[i++]);
        if (i >= len) break;
        size_t b = i;
        while (i < len && s[i] != ',' && !is_blank(s[i])) i++;
        place at = {line, col};
        uint32_t gid;
        if (!parse_u32(s + b, i - b, &gid)) {
            if (i == b) return fail(L, d, at, PT_ERR_SYNTAX, "expected a tile id before ','");
            return fail(L, d, at, PT_ERR_BAD_NUMBER, "expected a tile id (0 to 4294967295), found '%.*s'",
                        (int)(i - b > 40 ? 40 : i - b), s + b);
        }
        if (n >= need)
            return fail(L, d, at, PT_ERR_RAGGED_ROW, "the layer has more than %zu tiles (the map is %dx%d)", need, L->m.w,
                        L->m.h);
        int rc = put_gid(L, n++, gid);
        if (rc < 0) return relocate(L, rc, at);
        if (col) col += (int)(i - b);
        end = (place){line, col};
        while (i < len && is_blank(s[i])) ADVANCE(s[i++]);
        if (i < len && s[i] == ',') {
            ADVANCE(s[i++]);
            continue;
        }
        if (i < len) return fail(L, d, (place){line, col}, PT_ERR_SYNTAX, "expected ',' between tile ids");
        break;
    }
#undef ADVANCE
    if (n != need) return wrong_length(L, end, n, "tiles");
    return PT_OK;
}

static int b64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes base64 (blanks anywhere, '=' only at the end). Returns the byte count, or -1. */
static long b64_decode(const char *s, size_t len, uint8_t *out) {
    uint32_t acc = 0;
    int bits = 0, pad = 0;
    long n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (is_blank(c)) continue;
        if (c == '=') {
            pad++;
            continue;
        }
        int v = b64_value(c);
        if (v < 0 || pad) return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    if (pad > 2 || bits >= 6) return -1;
    return n;
}

static int layer_base64(loader *L, xmlNodePtr data, const char *s, const char *comp) {
    doc *d = &L->tmx;
    size_t need = (size_t)L->m.w * (size_t)L->m.h * 4, len = strlen(s);
    uint8_t *raw = PT_MALLOC(len / 4 * 3 + 3);
    if (!raw) return nomem(L);
    long n = b64_decode(s, len, raw);
    if (n < 0) {
        PT_FREE(raw);
        return fail_at(L, d, data, NULL, 0, PT_ERR_BAD_ENCODING, "the layer data is not valid base64");
    }
    uint8_t *bytes = raw;
    size_t nbytes = (size_t)n;
    if (comp) { /* inflate into exactly what the map needs, plus one byte to see overflow */
        uint8_t *out = PT_MALLOC(need + 1);
        z_stream z;
        memset(&z, 0, sizeof z);
        if (!out || inflateInit2(&z, !strcmp(comp, "gzip") ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) {
            PT_FREE(raw);
            PT_FREE(out);
            return nomem(L);
        }
        /* both sizes fit in uInt: the file is at most 16 MiB, the map at most 4*2^24+1 bytes */
        z.next_in = raw;
        z.avail_in = (uInt)n;
        z.next_out = out;
        z.avail_out = (uInt)(need + 1);
        int zr = inflate(&z, Z_FINISH);
        size_t done = need + 1 - z.avail_out;
        inflateEnd(&z);
        PT_FREE(raw);
        if (zr != Z_STREAM_END) {
            PT_FREE(out);
            if (done > need)
                return fail_at(L, d, data, NULL, 0, PT_ERR_RAGGED_ROW,
                               "the layer has more than %zu bytes of tile ids (the map is %dx%d)", need, L->m.w, L->m.h);
            return fail_at(L, d, data, NULL, 0, PT_ERR_BAD_ENCODING, "the layer data is not valid %s data (%s)", comp,
                           zr == Z_BUF_ERROR ? "it is cut short" : "corrupt stream");
        }
        bytes = out;
        nbytes = done;
    }
    int rc = PT_OK;
    if (nbytes != need) rc = wrong_length(L, node_place(d, data, NULL), nbytes, "bytes");
    for (size_t i = 0; rc == PT_OK && i < need / 4; i++) {
        const uint8_t *b = bytes + i * 4;
        rc = put_gid(L, i, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        if (rc < 0) relocate(L, rc, node_place(d, data, NULL));
    }
    PT_FREE(bytes);
    return rc;
}

static int layer_xml(loader *L, xmlNodePtr data) {
    doc *d = &L->tmx;
    size_t need = (size_t)L->m.w * (size_t)L->m.h, n = 0;
    for (xmlNodePtr c = data->children; c; c = c->next) {
        if (!is_elem(c, "tile")) continue;
        uint32_t gid = 0;
        const char *g = attr(L, c, "gid");
        if (g && !parse_u32(g, strlen(g), &gid))
            return fail_at(L, d, c, "gid", 0, PT_ERR_BAD_NUMBER, "gid: expected a tile id (0 to 4294967295), found '%.40s'",
                           g);
        if (n >= need)
            return fail_at(L, d, c, NULL, 0, PT_ERR_RAGGED_ROW, "the layer has more than %zu tiles (the map is %dx%d)",
                           need, L->m.w, L->m.h);
        int rc = put_gid(L, n++, gid);
        if (rc < 0) return relocate(L, rc, node_place(d, c, "gid"));
    }
    if (n != need) return wrong_length(L, node_place(d, data, NULL), n, "tiles");
    return PT_OK;
}

static int tile_layer(loader *L, xmlNodePtr layer, double gx, double gy) {
    doc *d = &L->tmx;
    int rc, w, h;
    double ox, oy;
    if ((rc = attr_int(L, d, layer, "width", 0, 0x7fffffff, L->m.w, &w)) < 0 ||
        (rc = attr_int(L, d, layer, "height", 0, 0x7fffffff, L->m.h, &h)) < 0)
        return rc;
    if (w != L->m.w || h != L->m.h)
        return fail_at(L, d, layer, w != L->m.w ? "width" : "height", 0, PT_ERR_BAD_VALUE,
                       "the layer is %dx%d; the map is %dx%d", w, h, L->m.w, L->m.h);
    if ((rc = attr_num(L, d, layer, "offsetx", -COORD_MAX_PX, COORD_MAX_PX, 0, &ox)) < 0 ||
        (rc = attr_num(L, d, layer, "offsety", -COORD_MAX_PX, COORD_MAX_PX, 0, &oy)) < 0)
        return rc;
    if (ox != 0 || oy != 0)
        return fail_at(L, d, layer, ox != 0 ? "offsetx" : "offsety", 0, PT_ERR_BAD_VALUE,
                       "tile layer offsets are not supported: the grid is the map (reset the layer's offset)");
    if (gx != 0 || gy != 0)
        return fail_at(L, d, layer, NULL, 0, PT_ERR_BAD_VALUE,
                       "this tile layer is inside a group layer with an offset: the grid is the map (reset the "
                       "group's offset)");
    xmlNodePtr data = child(layer, "data");
    if (!data) return fail_at(L, d, layer, NULL, 0, PT_ERR_MISSING, "the tile layer has no <data>");
    xmlNodePtr chunk = child(data, "chunk");
    if (chunk)
        return fail_at(L, d, chunk, NULL, 0, PT_ERR_BAD_VALUE,
                       "infinite maps (layer chunks) are not supported: in Tiled, uncheck Map > Map Properties > Infinite");
    if (L->ntile_layers++ == 0) L->first_data = data;
    const char *enc = attr(L, data, "encoding");
    const char *comp = attr(L, data, "compression");
    if (comp && !*comp) comp = NULL;
    if (enc && strcmp(enc, "csv") != 0 && strcmp(enc, "base64") != 0)
        return fail_at(L, d, data, "encoding", 0, PT_ERR_BAD_ENCODING,
                       "unknown tile layer encoding '%.40s' (supported: csv, base64)", enc);
    if (comp && strcmp(comp, "zlib") != 0 && strcmp(comp, "gzip") != 0) {
        if (!strcmp(comp, "zstd"))
            return fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING,
                           "zstd compression is not supported: set the map's tile layer format to CSV, Base64 (zlib) "
                           "or Base64 (gzip)");
        return fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING,
                       "unknown compression '%.40s' (supported: zlib, gzip)", comp);
    }
    if (comp && (!enc || strcmp(enc, "base64") != 0))
        return fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING, "compression needs base64 encoding");
    if (!enc) return layer_xml(L, data);
    xmlChar *content = xmlNodeGetContent(data);
    if (!content) return nomem(L);
    rc = !strcmp(enc, "csv") ? layer_csv(L, data, (const char *)content)
                             : layer_base64(L, data, (const char *)content, comp);
    xmlFree(content);
    return rc;
}

/* Tile layers in document order (groups depth first); object layers are set aside. */
static int layers(loader *L, xmlNodePtr parent, double ox, double oy, int depth) {
    doc *d = &L->tmx;
    int rc;
    if (depth > PT_TMX_MAX_DEPTH)
        return fail_at(L, d, parent, NULL, 0, PT_ERR_LIMIT, "group layers nested deeper than %d", PT_TMX_MAX_DEPTH);
    for (xmlNodePtr c = parent->children; c; c = c->next) {
        if (is_elem(c, "layer")) {
            if ((rc = tile_layer(L, c, ox, oy)) < 0) return rc;
            continue;
        }
        if (!is_elem(c, "group") && !is_elem(c, "objectgroup")) continue;
        double gx, gy;
        if ((rc = attr_num(L, d, c, "offsetx", -COORD_MAX_PX, COORD_MAX_PX, 0, &gx)) < 0 ||
            (rc = attr_num(L, d, c, "offsety", -COORD_MAX_PX, COORD_MAX_PX, 0, &gy)) < 0)
            return rc;
        if (is_elem(c, "group")) {
            if ((rc = layers(L, c, ox + gx, oy + gy, depth + 1)) < 0) return rc;
            continue;
        }
        if (L->ngroups == L->groups_cap) {
            int ncap = L->groups_cap ? L->groups_cap * 2 : 8;
            group_ref *ng = PT_REALLOC(L->groups, sizeof *ng * (size_t)ncap);
            if (!ng) return nomem(L);
            L->groups = ng;
            L->groups_cap = ncap;
        }
        L->groups[L->ngroups++] = (group_ref){c, ox + gx, oy + gy};
    }
    return PT_OK;
}

static int finish_tiles(loader *L, xmlNodePtr root) {
    if (L->ntile_layers == 0) return fail_at(L, &L->tmx, root, NULL, 0, PT_ERR_MISSING, "the map has no tile layer");
    size_t n = (size_t)L->m.w * (size_t)L->m.h;
    for (size_t i = 0; i < n; i++) {
        if (L->m.tiles[i] == EMPTY_CELL)
            return fail_at(L, &L->tmx, L->first_data, NULL, 0, PT_ERR_UNKNOWN_TILE,
                           "tile %d,%d is empty in every tile layer (every cell needs a tile)", (int)(i % (size_t)L->m.w),
                           (int)(i / (size_t)L->m.w));
        L->m.flags[i] = L->m.legend[L->m.tiles[i]].flags;
        if (L->m.flags[i] & PT_TILE_GOAL) L->m.goal = 1;
    }
    return PT_OK;
}

/* ---- objects --------------------------------------------------------------------------------- */

static int collect_objects(loader *L) {
    doc *d = &L->tmx;
    int rc;
    for (int g = 0; g < L->ngroups; g++) {
        for (xmlNodePtr c = L->groups[g].node->children; c; c = c->next) {
            if (!is_elem(c, "object")) continue;
            if (L->nobjs >= PT_TMX_MAX_OBJECTS)
                return fail_at(L, d, c, NULL, 0, PT_ERR_LIMIT, "more than %d objects", PT_TMX_MAX_OBJECTS);
            if (L->nobjs == L->objs_cap) {
                int ncap = L->objs_cap ? L->objs_cap * 2 : 32;
                obj *no = PT_REALLOC(L->objs, sizeof *no * (size_t)ncap);
                if (!no) return nomem(L);
                L->objs = no;
                L->objs_cap = ncap;
            }
            obj *o = &L->objs[L->nobjs];
            memset(o, 0, sizeof *o);
            o->node = c;
            o->route = -1;
            if (attr(L, c, "template"))
                return fail_at(L, d, c, "template", 0, PT_ERR_BAD_VALUE,
                               "object templates are not supported: detach the template in Tiled");
            int id = 0;
            if ((rc = attr_int(L, d, c, "id", 0, 0x7fffffff, 0, &id)) < 0) return rc;
            o->id = id;
            if ((rc = attr_num(L, d, c, "x", -COORD_MAX_PX, COORD_MAX_PX, 0, &o->x)) < 0 ||
                (rc = attr_num(L, d, c, "y", -COORD_MAX_PX, COORD_MAX_PX, 0, &o->y)) < 0 ||
                (rc = attr_num(L, d, c, "width", 0, COORD_MAX_PX, 0, &o->w)) < 0 ||
                (rc = attr_num(L, d, c, "height", 0, COORD_MAX_PX, 0, &o->h)) < 0 ||
                (rc = attr_num(L, d, c, "rotation", -360000, 360000, 0, &o->rot)) < 0)
                return rc;
            o->x += L->groups[g].ox;
            o->y += L->groups[g].oy;
            o->name = attr(L, c, "name");
            if (!o->name) o->name = "";
            o->cls = attr(L, c, "class"); /* Tiled 1.9-1.10 */
            if (!o->cls || !*o->cls) o->cls = attr(L, c, "type");
            if (!o->cls) o->cls = "";
            o->shape = attr(L, c, "gid")         ? SHAPE_TILE
                       : child(c, "point")    ? SHAPE_POINT
                       : child(c, "ellipse")  ? SHAPE_ELLIPSE
                       : child(c, "polyline") ? SHAPE_POLYLINE
                       : child(c, "polygon")  ? SHAPE_POLYGON
                       : child(c, "text")     ? SHAPE_TEXT
                                              : SHAPE_RECT;
            L->nobjs++;
        }
    }
    /* (id, index) pairs sorted by id, for the route links; an id used twice is an error */
    L->ids = PT_MALLOC(sizeof *L->ids * 2 * (size_t)(L->nobjs ? L->nobjs : 1));
    if (!L->ids) return nomem(L);
    for (int i = 0; i < L->nobjs; i++) {
        long id = L->objs[i].id;
        if (id <= 0) continue;
        int j = L->nids++;
        while (j > 0 && L->ids[2 * (j - 1)] > id) { /* insertion: ids come nearly sorted */
            L->ids[2 * j] = L->ids[2 * (j - 1)];
            L->ids[2 * j + 1] = L->ids[2 * (j - 1) + 1];
            j--;
        }
        L->ids[2 * j] = id;
        L->ids[2 * j + 1] = i;
        if (j > 0 && L->ids[2 * (j - 1)] == id)
            return fail_at(L, d, L->objs[i].node, "id", 0, PT_ERR_DUPLICATE, "object id %ld is used twice", id);
    }
    return PT_OK;
}

static int find_object(const loader *L, long id) {
    int lo = 0, hi = L->nids - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        long v = L->ids[2 * mid];
        if (v == id) return (int)L->ids[2 * mid + 1];
        if (v < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* A point given relative to the object's position, rotated with it (degrees clockwise
 * around x,y as in Tiled), in pixels. */
static void obj_point(const obj *o, double rx, double ry, double *px, double *py) {
    if (o->rot == 0) {
        *px = o->x + rx;
        *py = o->y + ry;
        return;
    }
    double a = o->rot * (3.14159265358979323846 / 180.0), c = cos(a), s = sin(a);
    *px = o->x + rx * c - ry * s;
    *py = o->y + rx * s + ry * c;
}

/* The point an entity or obstacle stands on: a point's position, a shape's centre. */
static void obj_centre(const obj *o, double *px, double *py) {
    switch (o->shape) {
    case SHAPE_POINT: obj_point(o, 0, 0, px, py); break;
    case SHAPE_TILE: obj_point(o, o->w / 2, -o->h / 2, px, py); break; /* tile objects hang from their bottom-left */
    default: obj_point(o, o->w / 2, o->h / 2, px, py); break;
    }
}

static int cell_of(double px, int tile) { return (int)floor(px / tile); }

static int is_route_class(const char *cls) { return !*cls || ieq(cls, "route") || ieq(cls, "path"); }

static int is_route(const obj *o) {
    return (o->shape == SHAPE_POLYLINE || o->shape == SHAPE_POLYGON) && is_route_class(o->cls);
}

static int route_object(loader *L, int oi) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    route *r = &L->routes[L->nroutes++];
    memset(r, 0, sizeof *r);
    r->obj = oi;
    o->route = L->nroutes - 1;
    r->shape = child(o->node, o->shape == SHAPE_POLYGON ? "polygon" : "polyline");
    int rc;
    if (*o->name) {
        pt__tok t = tok_of(o->name);
        pt_error e;
        pt_error_clear(&e);
        if ((rc = pt__tok_name(&t, 0, r->name, sizeof r->name, &e)) < 0)
            return fail_at(L, d, o->node, "name", e.col - 1, rc, "route name: %s", e.message);
        const char *colon = strchr(r->name, ':');
        if (colon)
            return fail_at(L, d, o->node, "name", (int)(colon - r->name), PT_ERR_SYNTAX,
                           "':' is not allowed in a route name (it separates file and name in references)");
    } else snprintf(r->name, sizeof r->name, "route_%ld", o->id);
    xmlNodePtr it = NULL;
    prop p;
    while (next_prop(L, o->node, &it, &p)) {
        static const char *const ends[] = {"loop", "stop", "reverse", "restart", NULL};
        static const char *const gaits[] = {"walk", "sneak", "run", NULL};
        int is_gait = strcmp(p.name, "gait") == 0;
        if (strcmp(p.name, "at_end") != 0 && !is_gait)
            return fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "a route has no property '%.40s' (properties: at_end, gait)", p.name);
        if (is_gait ? r->gait != NULL : r->at_end != NULL)
            return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        int k = 0;
        if ((rc = prop_choice(L, d, &p, is_gait ? gaits : ends, &k)) < 0) return rc;
        if (is_gait) {
            r->gait = gaits[k];
            r->gait_prop = p.node;
        } else {
            r->at_end = ends[k];
            r->at_end_prop = p.node;
        }
    }
    const char *pts = attr(L, r->shape, "points");
    if (!pts) pts = "";
    int cap = 0;
    const char *s = pts;
    for (;;) { /* "x,y x,y ...": each vertex is an X,Y token of the shared lexer */
        while (is_blank(*s)) s++;
        if (!*s) break;
        const char *e = s;
        while (*e && !is_blank(*e)) e++;
        int ofs = (int)(s - pts);
        if (r->n >= PT_MAX_PATTERN_VERTS)
            return fail_at(L, d, r->shape, "points", ofs, PT_ERR_LIMIT, "the route has more than %d points",
                           PT_MAX_PATTERN_VERTS);
        pt__tok t = {s, (int)(e - s > 1000 ? 1000 : e - s), 1, 0};
        pt_error err;
        pt_error_clear(&err);
        double rx, ry, px, py;
        if ((rc = pt__tok_point(&t, 0, -COORD_MAX_PX, COORD_MAX_PX, &rx, &ry, &err)) < 0)
            return fail_at(L, d, r->shape, "points", ofs + err.col - 1, rc, "route point: %s", err.message);
        obj_point(o, rx, ry, &px, &py);
        int cx = cell_of(px, L->tw), cy = cell_of(py, L->th);
        s = e;
        if (r->n > 0 && r->xy[2 * r->n - 2] == cx && r->xy[2 * r->n - 1] == cy) continue;
        if (r->n + 2 > cap) { /* room for this vertex and a polygon's closing one */
            int ncap = cap ? cap * 2 : 16;
            int *nx = PT_REALLOC(r->xy, sizeof *nx * 2 * (size_t)ncap);
            if (nx) r->xy = nx;
            int *no = nx ? PT_REALLOC(r->vofs, sizeof *no * (size_t)ncap) : NULL;
            if (!no) return nomem(L);
            r->vofs = no;
            cap = ncap;
        }
        r->xy[2 * r->n] = cx;
        r->xy[2 * r->n + 1] = cy;
        r->vofs[r->n] = ofs;
        r->n++;
    }
    /* a polygon is closed: it ends where it starts */
    if (o->shape == SHAPE_POLYGON && r->n > 1 && (r->xy[0] != r->xy[2 * r->n - 2] || r->xy[1] != r->xy[2 * r->n - 1])) {
        r->xy[2 * r->n] = r->xy[0];
        r->xy[2 * r->n + 1] = r->xy[1];
        r->vofs[r->n] = r->vofs[0];
        r->n++;
    }
    return PT_OK;
}

/* ---- entities --------------------------------------------------------------------------- */


static const char *kind_word(pt_kind k) { return k == PT_KIND_BOID ? "flock" : pt_kind_name(k); }

static int unknown_key(loader *L, const prop *p, pt_kind kind) {
    char list[320];
    pt__entity_key_list(kind, PT__EK_TMX, list, sizeof list);
    pt__suggest sg;
    pt__suggest_init(&sg, p->name, strlen(p->name));
    pt__suggest_list(&sg, list);
    char keys[340], hint[340];
    snprintf(keys, sizeof keys, " (properties: %s)", list);
    return fail_at(L, &L->tmx, p->node, "name", 0, PT_ERR_UNKNOWN_KEY, "a %s has no property '%.40s'%s",
                   kind_word(kind), p->name, pt__suggest_hint(&sg, keys, hint, sizeof hint));
}

static int name_taken(const loader *L, const char *name) {
    if (!strcmp(name, "player")) return 1;
    for (int i = 0; i < L->m.nents; i++)
        if (!strcmp(L->m.ents[i].name, name)) return 1;
    return 0;
}

static int grow(loader *L, void **arr, int *cap, int n, size_t elem, int limit, xmlNodePtr at, const char *what) {
    if (n >= limit) return fail_at(L, &L->tmx, at, NULL, 0, PT_ERR_LIMIT, "more than %d %s in one map", limit, what);
    if (n < *cap) return PT_OK;
    int ncap = *cap ? *cap * 2 : 16;
    if (ncap > limit) ncap = limit;
    void *na = PT_REALLOC(*arr, elem * (size_t)ncap);
    if (!na) return nomem(L);
    *arr = na;
    *cap = ncap;
    return PT_OK;
}

/* grow, then the elem-sized *item stored after the *n items (and counted). */
static int append(loader *L, void **arr, int *cap, int *n, const void *item, size_t elem, int limit, xmlNodePtr at,
                  const char *what) {
    int rc = grow(L, arr, cap, *n, elem, limit, at, what);
    if (rc < 0) return rc;
    memcpy((char *)*arr + elem * (size_t)*n, item, elem);
    (*n)++;
    return PT_OK;
}

/* Whether the object stands for one place: a point, rectangle, ellipse or tile object. */
static int is_spot(const obj *o) {
    return o->shape == SHAPE_POINT || o->shape == SHAPE_RECT || o->shape == SHAPE_ELLIPSE || o->shape == SHAPE_TILE;
}

/* PT_OK for a spot, else the error that `what` (e.g. "a stop") must be one. */
static int need_spot(loader *L, const obj *o, const char *what) {
    if (is_spot(o)) return PT_OK;
    return fail_at(L, &L->tmx, o->node, NULL, 0, PT_ERR_BAD_VALUE, "%s is a point, ellipse, rectangle or tile object",
                   what);
}

static int entity_object(loader *L, int oi, pt_kind kind) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    const char *kname = kind_word(kind);
    int rc;
    if (!is_spot(o))
        return fail_at(L, d, o->node, NULL, 0, PT_ERR_BAD_VALUE, "a %s is a point, rectangle, ellipse or tile object, not a %s",
                       kname, o->shape == SHAPE_TEXT ? "text" : "polyline or polygon");
    pt_entity_def def;
    memset(&def, 0, sizeof def);
    def.kind = kind;
    place pos = node_place_ex(d, o->node, "x", 0);
    def.line = pos.line;
    def.col = pos.col;
    if (kind == PT_KIND_PLAYER) {
        if (L->player)
            return fail_at(L, d, o->node, NULL, 0, PT_ERR_DUP_PLAYER, "a second player (the first is on line %ld)",
                           node_line(L->player));
        snprintf(def.name, sizeof def.name, "player");
    } else {
        if (*o->name) {
            pt__tok t = tok_of(o->name);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_name(&t, 0, def.name, sizeof def.name, &e)) < 0)
                return fail_at(L, d, o->node, "name", e.col - 1, rc, "%s name: %s", kname, e.message);
        } else snprintf(def.name, sizeof def.name, "%s_%ld", kname, o->id);
        if (name_taken(L, def.name))
            return fail_at(L, d, o->node, *o->name ? "name" : NULL, 0, PT_ERR_DUPLICATE, "the name '%s' is already used",
                           def.name);
    }
    double px, py;
    obj_centre(o, &px, &py);
    def.x = cell_of(px, L->tw);
    def.y = cell_of(py, L->th);
    if (!pt_map_in(&L->m, def.x, def.y))
        return fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "%s '%s' at tile %d,%d is outside the %dx%d map", kname,
                       def.name, def.x, def.y, L->m.w, L->m.h);
    if (!pt_map_walkable(&L->m, def.x, def.y))
        return fail_at(L, d, o->node, "x", 0, PT_ERR_NOT_WALKABLE,
                       "%s '%s' at tile %d,%d stands on %s, which is not walkable", kname, def.name, def.x, def.y,
                       pt_map_tile(&L->m, def.x, def.y)->name);

    unsigned seen = 0;
    prop susp_p, chase_p, count_p, pattern_p;
    const prop *susp = NULL, *chase_at = NULL, *count = NULL, *pattern = NULL;
    int route_obj = -1;
    xmlNodePtr it = NULL;
    prop p;
    while (next_prop(L, o->node, &it, &p)) {
        int ki = pt__entity_key_find(p.name, strlen(p.name), kind, PT__EK_TMX);
        if (ki < 0) return unknown_key(L, &p, kind);
        if (seen & (1u << ki)) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        seen |= 1u << ki;
        const pt__entity_key *k = &pt__entity_keys[ki];
        void *field = (char *)&def + k->off;
        switch (k->type) {
        case PT__KT_NUM: rc = prop_num(L, d, &p, k->lo, k->hi, (double *)field); break;
        case PT__KT_POS: /* zero would read as "default": ask for a positive value */
            rc = prop_num(L, d, &p, 0, k->hi, (double *)field);
            if (rc == PT_OK && *(double *)field <= 0)
                rc = fail_value(L, d, &p, 0, PT_ERR_RANGE, "%s must be greater than 0", k->name);
            if (field == (void *)&def.suspicious_at) susp_p = p, susp = &susp_p;
            if (field == (void *)&def.chase_at) chase_p = p, chase_at = &chase_p;
            break;
        case PT__KT_INT:
            rc = prop_int(L, d, &p, WANT_INT, (long)k->lo, (long)k->hi, (int *)field);
            count_p = p, count = &count_p;
            break;
        case PT__KT_NAME:
            rc = prop_name(L, d, &p, (char *)field, k->cap);
            if (field == (void *)def.pattern) pattern_p = p, pattern = &pattern_p;
            if (rc == PT_OK) {
                place at = value_place(d, &p, 0);
                if (field == (void *)def.pattern) def.pattern_line = at.line, def.pattern_col = at.col;
                if (field == (void *)def.steering) def.steering_line = at.line, def.steering_col = at.col;
            }
            break;
        case PT__KT_CHASE: {
            int c = 0;
            rc = prop_choice(L, d, &p, pt__chase_words, &c);
            def.chase = (pt_chase)c;
            break;
        }
        case PT__KT_FLOCK: {
            int c = 0;
            rc = prop_choice(L, d, &p, pt__flock_words, &c);
            def.flock_kind = (pt_flock_kind)c;
            break;
        }
        case PT__KT_ORIGIN: {
            if ((rc = prop_type(L, d, &p, WANT_STR)) < 0) break;
            pt__tok t = tok_of(p.value);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_cell(&t, 0, -1000000, 1000000, &def.origin_x, &def.origin_y, &e)) < 0) {
                rc = tok_fail(L, d, &p, &e);
                break;
            }
            def.has_origin = 1;
            pattern_p = p, pattern = &pattern_p;
            if (!pt_map_in(&L->m, def.origin_x, def.origin_y))
                rc = fail_value(L, d, &p, 0, PT_ERR_OUT_OF_MAP, "origin %d,%d is outside the %dx%d map", def.origin_x,
                                def.origin_y, L->m.w, L->m.h);
            break;
        }
        case PT__KT_ROUTE: {
            int id = 0;
            if ((rc = prop_int(L, d, &p, WANT_OBJ, 0, 0x7fffffff, &id)) < 0) break;
            if (id == 0) {
                rc = fail_value(L, d, &p, 0, PT_ERR_MISSING, "property 'route' refers to no object: pick the route in Tiled");
                break;
            }
            route_obj = find_object(L, id);
            if (route_obj < 0) rc = fail_value(L, d, &p, 0, PT_ERR_MISSING, "route: there is no object with id %d", id);
            else if (L->objs[route_obj].route < 0)
                rc = fail_value(L, d, &p, 0, PT_ERR_BAD_VALUE, "route: object %d is not a route (a polyline or polygon%s)",
                                id, is_route_class(L->objs[route_obj].cls) ? "" : " of class route or none");
            break;
        }
        default: rc = fail_value(L, d, &p, 0, PT_ERR_INTERNAL, "unhandled property type");
        }
        if (rc < 0) return rc;
    }
    if (route_obj >= 0) {
        if (pattern)
            return fail_at(L, d, pattern->node, "name", 0, PT_ERR_DUPLICATE,
                           "a %s with a route takes its pattern and origin from the route: remove '%s'", kname,
                           pattern->name);
        const route *r = &L->routes[L->objs[route_obj].route];
        snprintf(def.pattern, sizeof def.pattern, "%s", r->name);
        if (r->n > 0) {
            def.has_origin = 1;
            def.origin_x = r->xy[0];
            def.origin_y = r->xy[1];
        }
    }
    if (susp || chase_at) {
        pt_entity_def rd = def;
        pt_entity_def_resolve(&rd);
        if (rd.suspicious_at >= rd.chase_at)
            return fail_value(L, d, susp ? susp : chase_at, 0, PT_ERR_RANGE, "suspicious_at (%g) must be below chase_at (%g)",
                              rd.suspicious_at, rd.chase_at);
    }
    long members = kind == PT_KIND_BOID && def.count > 0 ? def.count : 1;
    if (L->members + members > PT_MAX_ENTITIES) {
        if (count)
            return fail_value(L, d, count, 0, PT_ERR_LIMIT,
                              "more than %d entities in one map (flock members count one by one)", PT_MAX_ENTITIES);
        return fail_at(L, d, o->node, NULL, 0, PT_ERR_LIMIT, "more than %d entities in one map", PT_MAX_ENTITIES);
    }
    if (kind == PT_KIND_BOID) snprintf(def.group, sizeof def.group, "%s", def.name);
    if (kind == PT_KIND_PLAYER) {
        L->m.player = def;
        L->player = o->node;
    } else {
        if ((rc = append(L, (void **)&L->m.ents, &L->ents_cap, &L->m.nents, &def, sizeof def, PT_MAX_ENTITIES, o->node,
                         "entities")) < 0)
            return rc;
    }
    L->members += members;
    return PT_OK;
}

static int obstacle_object(loader *L, int oi) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    int rc;
    if ((rc = need_spot(L, o, "an obstacle")) < 0) return rc;
    pt_obstacle ob;
    memset(&ob, 0, sizeof ob);
    ob.sprite = PT_OBSTACLE_PILLAR;
    place pos = node_place_ex(d, o->node, "x", 0);
    ob.line = pos.line;
    ob.col = pos.col;
    double px, py;
    obj_centre(o, &px, &py);
    ob.x = px / L->tw;
    ob.y = py / L->th;
    ob.r = DEFAULT_OBSTACLE_R;
    if (o->shape != SHAPE_POINT && o->w > 0 && o->h > 0) {
        ob.r = (o->w < o->h ? o->w : o->h) / 2.0 / L->tw;
        if (ob.r > 4)
            return fail_at(L, d, o->node, "width", 0, PT_ERR_RANGE, "an obstacle's radius is at most 4 tiles, not %g", ob.r);
    }
    int seen_r = 0, seen_sprite = 0;
    xmlNodePtr it = NULL;
    prop p;
    while (next_prop(L, o->node, &it, &p)) {
        int *seen = !strcmp(p.name, "r") ? &seen_r : !strcmp(p.name, "sprite") ? &seen_sprite : NULL;
        if (!seen)
            return fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "an obstacle has no property '%.40s' (properties: r, sprite)", p.name);
        if ((*seen)++) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        if (seen == &seen_r) {
            if ((rc = prop_num(L, d, &p, 0, 4, &ob.r)) < 0) return rc;
            if (ob.r <= 0) return fail_value(L, d, &p, 0, PT_ERR_RANGE, "r must be greater than 0");
        } else {
            static const char *const sprites[] = {"pillar", "tree", NULL};
            int s = 0;
            if ((rc = prop_choice(L, d, &p, sprites, &s)) < 0) return rc;
            ob.sprite = s == 0 ? PT_OBSTACLE_PILLAR : PT_OBSTACLE_TREE;
        }
    }
    if (ob.x < 0 || ob.y < 0 || ob.x >= L->m.w || ob.y >= L->m.h)
        return fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "obstacle at %g,%g is outside the %dx%d map", ob.x, ob.y,
                       L->m.w, L->m.h);
    return append(L, (void **)&L->m.obstacles, &L->obs_cap, &L->m.nobstacles, &ob, sizeof ob, PT_MAX_OBSTACLES, o->node,
                  "obstacles");
}

/* Seconds of a stop's wait or look: > 0, at least one tick, at most PT_MAX_REPEAT ticks. */
static int stop_seconds(loader *L, doc *d, const prop *p, double *out) {
    int rc = prop_num(L, d, p, 0, (double)PT_MAX_REPEAT / PT_PATTERN_TICK_HZ, out);
    if (rc < 0) return rc;
    if (floor(*out * PT_PATTERN_TICK_HZ + 0.5) < 1.0)
        return fail_value(L, d, p, 0, PT_ERR_RANGE, "property '%s' must be at least one tick (1/%d s)", p->name,
                          PT_PATTERN_TICK_HZ);
    return PT_OK;
}

static int stop_object(loader *L, int oi) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    int rc;
    if ((rc = need_spot(L, o, "a stop")) < 0) return rc;
    if ((rc = grow(L, (void **)&L->stops, &L->stops_cap, L->nstops, sizeof *L->stops, PT_TMX_MAX_OBJECTS, o->node,
                   "stops")) < 0)
        return rc;
    stop st;
    memset(&st, 0, sizeof st);
    st.obj = oi;
    st.route = -1;
    double px, py;
    obj_centre(o, &px, &py);
    st.cx = cell_of(px, L->tw);
    st.cy = cell_of(py, L->th);
    static const char *const keys[] = {"wait", "look", "angles", "gait", "route", NULL};
    unsigned seen = 0;
    xmlNodePtr it = NULL;
    prop p;
    while (next_prop(L, o->node, &it, &p)) {
        int k = 0;
        while (keys[k] && strcmp(keys[k], p.name) != 0) k++;
        if (!keys[k]) {
            pt__suggest sg;
            char hint[128];
            pt__suggest_init(&sg, p.name, strlen(p.name));
            pt__suggest_words(&sg, keys);
            return fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY, "a stop has no property '%.40s'%s", p.name,
                           pt__suggest_hint(&sg, " (properties: wait, look, angles, gait, route)", hint, sizeof hint));
        }
        if (seen & (1u << k)) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        seen |= 1u << k;
        switch (k) {
        case 0: rc = stop_seconds(L, d, &p, &st.wait); break;
        case 1: rc = stop_seconds(L, d, &p, &st.look); break;
        case 2: {
            if ((rc = prop_type(L, d, &p, WANT_STR)) < 0) return rc;
            /* A,B,...: the syntax of a .pat file's angles= (no blanks), each in [-180, 180] */
            const char *v = p.value;
            int n = 0, start = 0, len = (int)strlen(v);
            for (int i = 0; i <= len && rc >= 0; i++) {
                if (i < len && v[i] != ',') continue;
                pt__tok t = {v + start, i - start, 1, 0};
                pt_error e;
                pt_error_clear(&e);
                if (++n > PT_MAX_LOOK_ANGLES)
                    return fail_value(L, d, &p, start, PT_ERR_LIMIT, "more than %d angles in one look", PT_MAX_LOOK_ANGLES);
                double a = 0;
                if (t.len == 0)
                    return fail_value(L, d, &p, start, PT_ERR_SYNTAX, "property 'angles': expected an angle in degrees here");
                if ((rc = pt__tok_num(&t, 0, -180.0, 180.0, &a, &e)) < 0) return fail_value(L, d, &p, start, e.code, "property 'angles': %s", e.message);
                start = i + 1;
            }
            st.angles = v;
            break;
        }
        case 3: {
            static const char *const gaits[] = {"walk", "sneak", "run", NULL};
            int g = 0;
            rc = prop_choice(L, d, &p, gaits, &g);
            st.gait = gaits[g];
            break;
        }
        default: {
            int id = 0;
            if ((rc = prop_int(L, d, &p, WANT_OBJ, 0, 0x7fffffff, &id)) < 0) break;
            int ro = id ? find_object(L, id) : -1;
            if (ro < 0 || L->objs[ro].route < 0)
                rc = fail_value(L, d, &p, 0, ro < 0 ? PT_ERR_MISSING : PT_ERR_BAD_VALUE,
                                "route: %s", ro < 0 ? "there is no such object: pick the route in Tiled" : "that object is not a route");
            else st.route = L->objs[ro].route;
        }
        }
        if (rc < 0) return rc;
    }
    L->stops[L->nstops++] = st;
    return PT_OK;
}

/* Every stop must be on a point of its route (of some route, without `route`). */
static int check_stops(loader *L) {
    for (int s = 0; s < L->nstops; s++) {
        stop *st = &L->stops[s];
        for (int i = 0; i < L->nroutes && !st->used; i++) {
            const route *r = &L->routes[i];
            if (st->route >= 0 && st->route != i) continue;
            for (int j = 0; j < r->n; j++)
                if (r->xy[2 * j] == st->cx && r->xy[2 * j + 1] == st->cy) st->used = 1;
        }
        if (!st->used)
            return fail_at(L, &L->tmx, L->objs[st->obj].node, "x", 0, PT_ERR_BAD_VALUE,
                           "the stop at tile %d,%d is on no point of %s: put it on a vertex", st->cx, st->cy,
                           st->route >= 0 ? "its route" : "a route");
    }
    return PT_OK;
}

/* A timed noise source: the tile under the object, loudness and every required. */
static int noise_object(loader *L, int oi) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    int rc;
    if ((rc = need_spot(L, o, "a noise")) < 0) return rc;
    pt_noise_source s;
    memset(&s, 0, sizeof s);
    place pos = node_place_ex(d, o->node, "x", 0);
    s.line = pos.line;
    s.col = pos.col;
    double px, py;
    obj_centre(o, &px, &py);
    double tx = floor(px / L->tw), ty = floor(py / L->th);
    static const char *const keys[] = {"loudness", "every", "first", NULL};
    double *fields[3] = {&s.loudness, &s.every, &s.first};
    int seen[3] = {0, 0, 0};
    xmlNodePtr it = NULL;
    prop p;
    while (next_prop(L, o->node, &it, &p)) {
        int k = -1;
        for (int j = 0; keys[j] && k < 0; j++)
            if (!strcmp(p.name, keys[j])) k = j;
        if (k < 0)
            return fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "a noise has no property '%.40s' (properties: loudness, every, first)", p.name);
        if (seen[k]++) return fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        if ((rc = prop_num(L, d, &p, 0, k == 0 ? PT_HEARING_MAX_LOUDNESS : 86400, fields[k])) < 0) return rc;
        if (k < 2 && *fields[k] <= 0) return fail_value(L, d, &p, 0, PT_ERR_RANGE, "%s must be greater than 0", p.name);
    }
    for (int j = 0; j < 2; j++)
        if (!seen[j])
            return fail_at(L, d, o->node, NULL, 0, PT_ERR_MISSING, "a noise needs the property %s", keys[j]);
    if (!seen[2]) s.first = s.every;
    if (tx < 0 || ty < 0 || tx >= L->m.w || ty >= L->m.h)
        return fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "noise at %g,%g is outside the %dx%d map", tx, ty,
                       L->m.w, L->m.h);
    s.x = (int)tx;
    s.y = (int)ty;
    return append(L, (void **)&L->m.sources, &L->src_cap, &L->m.nsources, &s, sizeof s, PT_MAX_NOISE_SOURCES, o->node,
                  "noise sources");
}

static int objects(loader *L, xmlNodePtr root) {
    int rc;
    if ((rc = collect_objects(L)) < 0) return rc;
    int nroutes = 0;
    for (int i = 0; i < L->nobjs; i++) nroutes += is_route(&L->objs[i]);
    L->routes = PT_CALLOC(nroutes ? (size_t)nroutes : 1, sizeof *L->routes);
    if (!L->routes) return nomem(L);
    for (int i = 0; i < L->nobjs; i++)
        if (is_route(&L->objs[i]) && (rc = route_object(L, i)) < 0) return rc;
    for (int i = 0; i < L->nobjs; i++) {
        const char *c = L->objs[i].cls;
        if (L->objs[i].route >= 0) continue;
        if (ieq(c, "player")) rc = entity_object(L, i, PT_KIND_PLAYER);
        else if (ieq(c, "guard")) rc = entity_object(L, i, PT_KIND_GUARD);
        else if (ieq(c, "prey")) rc = entity_object(L, i, PT_KIND_PREY);
        else if (ieq(c, "flock")) rc = entity_object(L, i, PT_KIND_BOID);
        else if (ieq(c, "obstacle")) rc = obstacle_object(L, i);
        else if (ieq(c, "stop")) rc = stop_object(L, i);
        else if (ieq(c, "noise")) rc = noise_object(L, i);
        else rc = PT_OK; /* other classes are notes for other tools */
        if (rc < 0) return rc;
    }
    if ((rc = check_stops(L)) < 0) return rc;
    if (!L->player)
        return fail_at(L, &L->tmx, root, NULL, 0, PT_ERR_NO_PLAYER,
                       "the map has no player: add a point object of class player");
    return PT_OK;
}

/* ---- routes -> path patterns ---------------------------------------------------------------- */

/* Generated .pat text; each line remembers the TMX node (and attribute) it stands for. */
typedef struct gen_line { xmlNodePtr node; const char *attr; } gen_line;
typedef struct sbuf {
    char *s;
    size_t len, cap;
    gen_line *at;
    int nlines, lcap;
    int fail;
} sbuf;

static void sb_line(sbuf *b, xmlNodePtr node, const char *attr, const char *fmt, ...) PT__FMT(4, 5);
static void sb_line(sbuf *b, xmlNodePtr node, const char *attr, const char *fmt, ...) {
    if (b->fail) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line) {
        b->fail = 1;
        return;
    }
    if (b->len + (size_t)n + 2 > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 4096;
        while (ncap < b->len + (size_t)n + 2) ncap *= 2;
        char *ns = PT_REALLOC(b->s, ncap);
        if (!ns) {
            b->fail = 1;
            return;
        }
        b->s = ns;
        b->cap = ncap;
    }
    if (b->nlines == b->lcap) {
        int ncap = b->lcap ? b->lcap * 2 : 64;
        gen_line *na = PT_REALLOC(b->at, sizeof *na * (size_t)ncap);
        if (!na) {
            b->fail = 1;
            return;
        }
        b->at = na;
        b->lcap = ncap;
    }
    memcpy(b->s + b->len, line, (size_t)n);
    b->len += (size_t)n;
    b->s[b->len++] = '\n';
    b->s[b->len] = '\0';
    b->at[b->nlines++] = (gen_line){node, attr};
}

/* The stop at point j of route i, or -1. The closing point of a closed route is its first:
 * its stop is made there (last_same: the route ends where it starts). */
static int stop_of(const loader *L, int i, int j, int last_same) {
    const route *r = &L->routes[i];
    if (last_same && j == r->n - 1) return -1;
    for (int s = 0; s < L->nstops; s++)
        if ((L->stops[s].route < 0 || L->stops[s].route == i) && L->stops[s].cx == r->xy[2 * j] &&
            L->stops[s].cy == r->xy[2 * j + 1])
            return s;
    return -1;
}

/* The parsed patterns know places in the generated text; lint errors must point into the
 * .tmx (their file is the .tmx): the pattern at the route's name, each vertex at its point
 * in the points attribute, at_end at its property. */
static void relocate_pattern(loader *L, const route *r, pt_pattern *p) {
    doc *d = &L->tmx;
    const obj *o = &L->objs[r->obj];
    place at = node_place(d, o->node, *o->name ? "name" : NULL);
    p->line = at.line;
    p->col = at.col;
    if (r->at_end) {
        at = node_place(d, r->at_end_prop, "value");
        p->end_line = at.line;
        p->end_col = at.col;
    }
    place pts = node_place(d, r->shape, "points");
    for (int k = 0; k < p->nverts && k < r->n; k++) {
        if (p->vert_line) p->vert_line[k] = pts.line;
        if (p->vert_col) p->vert_col[k] = pts.col > 0 ? pts.col + r->vofs[k] : 0;
    }
    /* its looks, in the order they were written: at their stop objects */
    int ri = (int)(r - L->routes), li = 0;
    int last_same = r->n > 1 && r->xy[0] == r->xy[2 * r->n - 2] && r->xy[1] == r->xy[2 * r->n - 1];
    for (int j = 0; j < r->n && li < p->nlooks; j++) {
        int s = stop_of(L, ri, j, last_same);
        if (s < 0 || (L->stops[s].gait && !(L->stops[s].wait > 0) && !(L->stops[s].look > 0) && !L->stops[s].angles)) continue;
        at = node_place(d, L->objs[L->stops[s].obj].node, NULL);
        p->looks[li].line = at.line;
        p->looks[li].col = at.col;
        li++;
    }
}

static int build_patterns(loader *L, pt_patlib *lib, const char *name) {
    if (!lib || L->nroutes == 0) return PT_OK;
    sbuf b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < L->nroutes; i++) {
        const route *r = &L->routes[i];
        xmlNodePtr on = L->objs[r->obj].node;
        sb_line(&b, on, *L->objs[r->obj].name ? "name" : NULL, "pattern %s", r->name);
        sb_line(&b, on, NULL, "  kind path");
        /* drawn routes are placed where they are drawn, whoever walks them */
        if (r->n > 0) sb_line(&b, r->shape, "points", "  origin %d,%d", r->xy[0], r->xy[1]);
        int last_same = r->n > 1 && r->xy[0] == r->xy[2 * r->n - 2] && r->xy[1] == r->xy[2 * r->n - 1];
        for (int k = 0; k < r->n;) {
            char pts[16 * 24 + 8];
            size_t used = 0;
            int j = k, stop_at = -1;
            for (; j < r->n && j < k + 16 && stop_at < 0; j++) {
                used += (size_t)snprintf(pts + used, sizeof pts - used, " %d,%d", r->xy[2 * j], r->xy[2 * j + 1]);
                stop_at = stop_of(L, i, j, last_same);
            }
            sb_line(&b, r->shape, "points", "  points%s", pts);
            k = j;
            if (stop_at < 0) continue;
            /* the items of the stop, on a line of their own that errors trace to the object */
            const stop *st = &L->stops[stop_at];
            char items[256];
            size_t n = 0;
            if (st->wait > 0) n += (size_t)snprintf(items + n, sizeof items - n, " wait=%.17gs", st->wait);
            if (st->look > 0) n += (size_t)snprintf(items + n, sizeof items - n, " look=%.17gs", st->look);
            if (st->angles) n += (size_t)snprintf(items + n, sizeof items - n, " angles=%s", st->angles);
            if (!(st->wait > 0) && !(st->look > 0) && !st->angles && !st->gait)
                n += (size_t)snprintf(items + n, sizeof items - n, " look");
            if (st->gait) n += (size_t)snprintf(items + n, sizeof items - n, " gait=%s", st->gait);
            sb_line(&b, L->objs[st->obj].node, NULL, "  points%s", items);
        }
        if (r->gait) sb_line(&b, r->gait_prop, "value", "  gait %s", r->gait);
        if (r->at_end) sb_line(&b, r->at_end_prop, "value", "  at_end %s", r->at_end);
        sb_line(&b, on, NULL, "end");
    }
    int rc = PT_OK, before = lib->count;
    if (b.fail) rc = nomem(L);
    else {
        pt_error e;
        pt_error_clear(&e);
        rc = pt_patlib_parse(lib, b.s, b.len, name, &e);
        if (rc == PT_OK && lib->count == before + L->nroutes)
            for (int i = 0; i < L->nroutes; i++) relocate_pattern(L, &L->routes[i], lib->items[before + i]);
        if (rc < 0) { /* back from the generated line to the object it came from */
            if (e.line >= 1 && e.line <= b.nlines) {
                gen_line g = b.at[e.line - 1];
                fail_at(L, &L->tmx, g.node, g.attr, 0, rc, "%s", e.message);
            } else fail(L, &L->tmx, (place){0, 0}, rc, "%s", e.message);
        }
    }
    PT_FREE(b.s);
    PT_FREE(b.at);
    return rc;
}

/* ---- driver -------------------------------------------------------------------------------- */

static void loader_free(loader *L) {
    doc_close(&L->tmx);
    doc_close(&L->tsx);
    for (int i = 0; i < L->nts; i++) {
        PT_FREE(L->ts[i].info);
        PT_FREE(L->ts[i].infos);
        PT_FREE(L->ts[i].legend);
    }
    PT_FREE(L->ts);
    PT_FREE(L->groups);
    PT_FREE(L->objs);
    PT_FREE(L->ids);
    for (int i = 0; i < L->nroutes; i++) {
        PT_FREE(L->routes[i].xy);
        PT_FREE(L->routes[i].vofs);
    }
    PT_FREE(L->stops);
    PT_FREE(L->routes);
    for (int i = 0; i < L->nstrs; i++) xmlFree(L->strs[i]);
    PT_FREE(L->strs);
}

static int load(loader *L, pt_patlib *lib, const char *name) {
    int rc;
    if ((rc = doc_parse(L, &L->tmx, "map")) < 0) return rc;
    xmlNodePtr root = xmlDocGetRootElement(L->tmx.xml);
    if ((rc = map_element(L, root)) < 0) return rc;
    if ((rc = tilesets(L, root)) < 0) return rc;
    if ((rc = layers(L, root, 0, 0, 0)) < 0) return rc;
    if ((rc = finish_tiles(L, root)) < 0) return rc;
    if ((rc = objects(L, root)) < 0) return rc;
    return build_patterns(L, lib, name);
}

static int run(pt_map *out, pt_patlib *lib, const char *path, const char *mem, size_t len, pt_error *err) {
    pt_error local;
    if (!err) err = &local;
    pt_error_clear(err);
    memset(out, 0, sizeof *out);
    loader *L = PT_CALLOC(1, sizeof *L); /* a pt_map is ~20 KB: keep it off small stacks */
    if (!L) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    L->err = err;
    pt__map_default_legend(&L->m);
    L->m.player.kind = PT_KIND_PLAYER;
    int rc = PT_OK;
    if (strlen(path) >= PT_MAX_PATH) {
        rc = pt_error_set(err, PT_ERR_LIMIT, 0, 0, "file path is longer than %d bytes", PT_MAX_PATH - 1);
    } else {
        snprintf(L->tmx.path, sizeof L->tmx.path, "%s", path);
        const char *slash = strrchr(path, '/');
        if (slash) memcpy(L->dir, path, (size_t)(slash - path) + 1);
        rc = mem ? pt__text_from_mem(&L->tmx.text, mem, len, path, err) : pt__text_read(&L->tmx.text, path, err);
        if (rc == PT_OK) rc = load(L, lib, path);
        else L->err_doc = NULL; /* the text reader placed it */
    }
    if (rc == PT_OK) {
        snprintf(L->m.path, sizeof L->m.path, "%s", path);
        pt__sight_build(&L->m); /* a cache: without it (no memory) sight walks the flags */
        *out = L->m;
    } else {
        if (L->err_doc) pt_error_locate(err, L->err_doc->path, L->err_doc->text.data, L->err_doc->text.len);
        else if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", path);
        pt_map_fini(&L->m);
    }
    loader_free(L);
    PT_FREE(L);
    return rc;
}

int pt_tmx_load(pt_map *map, pt_patlib *lib, const char *path, pt_error *err) {
    return run(map, lib, path ? path : "", NULL, 0, err);
}

int pt_tmx_parse(pt_map *map, pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err) {
    return run(map, lib, name ? name : "", text ? text : "", text ? len : 0, err);
}

int pt_tmx_is_tmx(const char *path) {
    size_t n = path ? strlen(path) : 0;
    return n >= 4 && ieq(path + n - 4, ".tmx");
}
