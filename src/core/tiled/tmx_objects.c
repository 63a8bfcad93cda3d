/* SPDX-License-Identifier: Zlib */
/* Tiled maps: the objects. Their shapes and places, routes, the player, guards, prey and
 * flocks, obstacles, stops on routes, noise sources, doors and lights (tmx_lights.c). */
#include <patrol/hearing.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "map/doors.h"
#include "tiled/tmx_priv.h"

/* ---- objects --------------------------------------------------------------------------------- */

static int collect_objects(loader *L) {
    doc *d = &L->tmx;
    int rc;
    for (int g = 0; g < L->ngroups; g++) {
        for (xmlNodePtr c = L->groups[g].node->children; c; c = c->next) {
            if (!pt__tmx_is_elem(c, "object")) continue;
            if (L->nobjs >= PT_TMX_MAX_OBJECTS)
                return pt__tmx_fail_at(L, d, c, NULL, 0, PT_ERR_LIMIT, "more than %d objects", PT_TMX_MAX_OBJECTS);
            if (L->nobjs == L->objs_cap) {
                int ncap = L->objs_cap ? L->objs_cap * 2 : 32;
                obj *no = PT_REALLOC(L->objs, sizeof *no * (size_t)ncap);
                if (!no) return pt__tmx_nomem(L);
                L->objs = no;
                L->objs_cap = ncap;
            }
            obj *o = &L->objs[L->nobjs];
            memset(o, 0, sizeof *o);
            o->node = c;
            o->route = -1;
            if (pt__tmx_attr(L, c, "template"))
                return pt__tmx_fail_at(L, d, c, "template", 0, PT_ERR_BAD_VALUE,
                               "object templates are not supported: detach the template in Tiled");
            int id = 0;
            if ((rc = pt__tmx_attr_int(L, d, c, "id", 0, 0x7fffffff, 0, &id)) < 0) return rc;
            o->id = id;
            if ((rc = pt__tmx_attr_num(L, d, c, "x", -COORD_MAX_PX, COORD_MAX_PX, 0, &o->x)) < 0 ||
                (rc = pt__tmx_attr_num(L, d, c, "y", -COORD_MAX_PX, COORD_MAX_PX, 0, &o->y)) < 0 ||
                (rc = pt__tmx_attr_num(L, d, c, "width", 0, COORD_MAX_PX, 0, &o->w)) < 0 ||
                (rc = pt__tmx_attr_num(L, d, c, "height", 0, COORD_MAX_PX, 0, &o->h)) < 0 ||
                (rc = pt__tmx_attr_num(L, d, c, "rotation", -360000, 360000, 0, &o->rot)) < 0)
                return rc;
            o->x += L->groups[g].ox;
            o->y += L->groups[g].oy;
            o->name = pt__tmx_attr(L, c, "name");
            if (!o->name) o->name = "";
            o->cls = pt__tmx_attr(L, c, "class"); /* Tiled 1.9-1.10 */
            if (!o->cls || !*o->cls) o->cls = pt__tmx_attr(L, c, "type");
            if (!o->cls) o->cls = "";
            o->shape = pt__tmx_attr(L, c, "gid")         ? SHAPE_TILE
                       : pt__tmx_child(c, "point")    ? SHAPE_POINT
                       : pt__tmx_child(c, "ellipse")  ? SHAPE_ELLIPSE
                       : pt__tmx_child(c, "polyline") ? SHAPE_POLYLINE
                       : pt__tmx_child(c, "polygon")  ? SHAPE_POLYGON
                       : pt__tmx_child(c, "text")     ? SHAPE_TEXT
                                              : SHAPE_RECT;
            L->nobjs++;
        }
    }
    /* (id, index) pairs sorted by id, for the route links; an id used twice is an error */
    L->ids = PT_MALLOC(sizeof *L->ids * 2 * (size_t)(L->nobjs ? L->nobjs : 1));
    if (!L->ids) return pt__tmx_nomem(L);
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
            return pt__tmx_fail_at(L, d, L->objs[i].node, "id", 0, PT_ERR_DUPLICATE, "object id %ld is used twice", id);
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

static int is_route_class(const char *cls) { return !*cls || pt__tmx_ieq(cls, "route") || pt__tmx_ieq(cls, "path"); }

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
    r->shape = pt__tmx_child(o->node, o->shape == SHAPE_POLYGON ? "polygon" : "polyline");
    int rc;
    if (*o->name) {
        pt__tok t = pt__tmx_tok_of(o->name);
        pt_error e;
        pt_error_clear(&e);
        if ((rc = pt__tok_name(&t, 0, r->name, sizeof r->name, &e)) < 0)
            return pt__tmx_fail_at(L, d, o->node, "name", e.col - 1, rc, "route name: %s", e.message);
        const char *colon = strchr(r->name, ':');
        if (colon)
            return pt__tmx_fail_at(L, d, o->node, "name", (int)(colon - r->name), PT_ERR_SYNTAX,
                           "':' is not allowed in a route name (it separates file and name in references)");
    } else snprintf(r->name, sizeof r->name, "route_%ld", o->id);
    xmlNodePtr it = NULL;
    prop p;
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        static const char *const ends[] = {"loop", "stop", "reverse", "restart", NULL};
        static const char *const gaits[] = {"walk", "sneak", "run", NULL};
        int is_gait = strcmp(p.name, "gait") == 0;
        if (strcmp(p.name, "at_end") != 0 && !is_gait)
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "a route has no property '%.40s' (properties: at_end, gait)", p.name);
        if (is_gait ? r->gait != NULL : r->at_end != NULL)
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        int k = 0;
        if ((rc = pt__tmx_prop_choice(L, d, &p, is_gait ? gaits : ends, &k)) < 0) return rc;
        if (is_gait) {
            r->gait = gaits[k];
            r->gait_prop = p.node;
        } else {
            r->at_end = ends[k];
            r->at_end_prop = p.node;
        }
    }
    const char *pts = pt__tmx_attr(L, r->shape, "points");
    if (!pts) pts = "";
    int cap = 0;
    const char *s = pts;
    for (;;) { /* "x,y x,y ...": each vertex is an X,Y token of the shared lexer */
        while (pt__tmx_is_blank(*s)) s++;
        if (!*s) break;
        const char *e = s;
        while (*e && !pt__tmx_is_blank(*e)) e++;
        int ofs = (int)(s - pts);
        if (r->n >= PT_MAX_PATTERN_VERTS)
            return pt__tmx_fail_at(L, d, r->shape, "points", ofs, PT_ERR_LIMIT, "the route has more than %d points",
                           PT_MAX_PATTERN_VERTS);
        pt__tok t = {s, (int)(e - s > 1000 ? 1000 : e - s), 1, 0};
        pt_error err;
        pt_error_clear(&err);
        double rx, ry, px, py;
        if ((rc = pt__tok_point(&t, 0, -COORD_MAX_PX, COORD_MAX_PX, &rx, &ry, &err)) < 0)
            return pt__tmx_fail_at(L, d, r->shape, "points", ofs + err.col - 1, rc, "route point: %s", err.message);
        obj_point(o, rx, ry, &px, &py);
        int cx = cell_of(px, L->tw), cy = cell_of(py, L->th);
        s = e;
        if (r->n > 0 && r->xy[2 * r->n - 2] == cx && r->xy[2 * r->n - 1] == cy) continue;
        if (r->n + 2 > cap) { /* room for this vertex and a polygon's closing one */
            int ncap = cap ? cap * 2 : 16;
            int *nx = PT_REALLOC(r->xy, sizeof *nx * 2 * (size_t)ncap);
            if (nx) r->xy = nx;
            int *no = nx ? PT_REALLOC(r->vofs, sizeof *no * (size_t)ncap) : NULL;
            if (!no) return pt__tmx_nomem(L);
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
    char list[320], only[64];
    if (pt__entity_key_elsewhere(p->name, strlen(p->name), PT__EK_TMX, only, sizeof only))
        return pt__tmx_fail_at(L, &L->tmx, p->node, "name", 0, PT_ERR_UNKNOWN_KEY, "a %s has no property '%s'%s",
                               kind_word(kind), p->name, only);
    pt__entity_key_list(kind, PT__EK_TMX, list, sizeof list);
    pt__suggest sg;
    pt__suggest_init(&sg, p->name, strlen(p->name));
    pt__suggest_list(&sg, list);
    char keys[340], hint[340];
    snprintf(keys, sizeof keys, " (properties: %s)", list);
    return pt__tmx_fail_at(L, &L->tmx, p->node, "name", 0, PT_ERR_UNKNOWN_KEY, "a %s has no property '%.40s'%s",
                   kind_word(kind), p->name, pt__suggest_hint(&sg, keys, hint, sizeof hint));
}

static int name_taken(const loader *L, const char *name) {
    if (!strcmp(name, "player")) return 1;
    for (int i = 0; i < L->m.nents; i++)
        if (!strcmp(L->m.ents[i].name, name)) return 1;
    return 0;
}

static int grow(loader *L, void **arr, int *cap, int n, size_t elem, int limit, xmlNodePtr at, const char *what) {
    if (n >= limit) return pt__tmx_fail_at(L, &L->tmx, at, NULL, 0, PT_ERR_LIMIT, "more than %d %s in one map", limit, what);
    if (n < *cap) return PT_OK;
    int ncap = *cap ? *cap * 2 : 16;
    if (ncap > limit) ncap = limit;
    void *na = PT_REALLOC(*arr, elem * (size_t)ncap);
    if (!na) return pt__tmx_nomem(L);
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
    return pt__tmx_fail_at(L, &L->tmx, o->node, NULL, 0, PT_ERR_BAD_VALUE, "%s is a point, ellipse, rectangle or tile object",
                   what);
}

static int entity_object(loader *L, int oi, pt_kind kind) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    const char *kname = kind_word(kind);
    int rc;
    if (!is_spot(o))
        return pt__tmx_fail_at(L, d, o->node, NULL, 0, PT_ERR_BAD_VALUE, "a %s is a point, rectangle, ellipse or tile object, not a %s",
                       kname, o->shape == SHAPE_TEXT ? "text" : "polyline or polygon");
    pt_entity_def def;
    memset(&def, 0, sizeof def);
    def.kind = kind;
    place pos = pt__tmx_node_place_ex(d, o->node, "x", 0);
    def.line = pos.line;
    def.col = pos.col;
    if (kind == PT_KIND_PLAYER) {
        if (L->player)
            return pt__tmx_fail_at(L, d, o->node, NULL, 0, PT_ERR_DUP_PLAYER, "a second player (the first is on line %ld)",
                           pt__tmx_node_line(L->player));
        snprintf(def.name, sizeof def.name, "player");
    } else {
        if (*o->name) {
            pt__tok t = pt__tmx_tok_of(o->name);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_name(&t, 0, def.name, sizeof def.name, &e)) < 0)
                return pt__tmx_fail_at(L, d, o->node, "name", e.col - 1, rc, "%s name: %s", kname, e.message);
        } else snprintf(def.name, sizeof def.name, "%s_%ld", kname, o->id);
        if (name_taken(L, def.name))
            return pt__tmx_fail_at(L, d, o->node, *o->name ? "name" : NULL, 0, PT_ERR_DUPLICATE, "the name '%s' is already used",
                           def.name);
    }
    double px, py;
    obj_centre(o, &px, &py);
    def.x = cell_of(px, L->tw);
    def.y = cell_of(py, L->th);
    if (!pt_map_in(&L->m, def.x, def.y))
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "%s '%s' at tile %d,%d is outside the %dx%d map", kname,
                       def.name, def.x, def.y, L->m.w, L->m.h);
    if (!pt_map_walkable(&L->m, def.x, def.y))
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_NOT_WALKABLE,
                       "%s '%s' at tile %d,%d stands on %s, which is not walkable", kname, def.name, def.x, def.y,
                       pt_map_tile(&L->m, def.x, def.y)->name);

    unsigned seen = 0;
    prop susp_p, chase_p, count_p, pattern_p;
    const prop *susp = NULL, *chase_at = NULL, *count = NULL, *pattern = NULL;
    int route_obj = -1;
    xmlNodePtr it = NULL;
    prop p;
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        int ki = pt__entity_key_find(p.name, strlen(p.name), kind, PT__EK_TMX);
        if (ki < 0) return unknown_key(L, &p, kind);
        if (seen & (1u << ki)) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        seen |= 1u << ki;
        const pt__entity_key *k = &pt__entity_keys[ki];
        void *field = (char *)&def + k->off;
        switch (k->type) {
        case PT__KT_NUM: rc = pt__tmx_prop_num(L, d, &p, k->lo, k->hi, (double *)field); break;
        case PT__KT_POS: /* zero would read as "default": ask for a positive value */
            rc = pt__tmx_prop_pos(L, d, &p, k->hi, (double *)field);
            if (field == (void *)&def.suspicious_at) susp_p = p, susp = &susp_p;
            if (field == (void *)&def.chase_at) chase_p = p, chase_at = &chase_p;
            break;
        case PT__KT_INT:
            rc = pt__tmx_prop_int(L, d, &p, WANT_INT, (long)k->lo, (long)k->hi, (int *)field);
            count_p = p, count = &count_p;
            break;
        case PT__KT_NAME:
            rc = pt__tmx_prop_name(L, d, &p, (char *)field, k->cap);
            if (field == (void *)def.pattern) pattern_p = p, pattern = &pattern_p;
            if (rc == PT_OK) {
                place at = pt__tmx_value_place(d, &p, 0);
                if (field == (void *)def.pattern) def.pattern_line = at.line, def.pattern_col = at.col;
                if (field == (void *)def.steering) def.steering_line = at.line, def.steering_col = at.col;
            }
            break;
        case PT__KT_CHASE: {
            int c = 0;
            rc = pt__tmx_prop_choice(L, d, &p, pt__chase_words, &c);
            def.chase = (pt_chase)c;
            break;
        }
        case PT__KT_FLOCK: {
            int c = 0;
            rc = pt__tmx_prop_choice(L, d, &p, pt__flock_words, &c);
            def.flock_kind = (pt_flock_kind)c;
            break;
        }
        case PT__KT_ORIGIN: {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_STR)) < 0) break;
            pt__tok t = pt__tmx_tok_of(p.value);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_cell(&t, 0, -1000000, 1000000, &def.origin_x, &def.origin_y, &e)) < 0) {
                rc = pt__tmx_tok_fail(L, d, &p, &e);
                break;
            }
            def.has_origin = 1;
            pattern_p = p, pattern = &pattern_p;
            if (!pt_map_in(&L->m, def.origin_x, def.origin_y))
                rc = pt__tmx_fail_value(L, d, &p, 0, PT_ERR_OUT_OF_MAP, "origin %d,%d is outside the %dx%d map", def.origin_x,
                                def.origin_y, L->m.w, L->m.h);
            break;
        }
        case PT__KT_ROUTE: {
            int id = 0;
            if ((rc = pt__tmx_prop_int(L, d, &p, WANT_OBJ, 0, 0x7fffffff, &id)) < 0) break;
            if (id == 0) {
                rc = pt__tmx_fail_value(L, d, &p, 0, PT_ERR_MISSING, "property 'route' refers to no object: pick the route in Tiled");
                break;
            }
            route_obj = find_object(L, id);
            if (route_obj < 0) rc = pt__tmx_fail_value(L, d, &p, 0, PT_ERR_MISSING, "route: there is no object with id %d", id);
            else if (L->objs[route_obj].route < 0)
                rc = pt__tmx_fail_value(L, d, &p, 0, PT_ERR_BAD_VALUE, "route: object %d is not a route (a polyline or polygon%s)",
                                id, is_route_class(L->objs[route_obj].cls) ? "" : " of class route or none");
            break;
        }
        default: rc = pt__tmx_fail_value(L, d, &p, 0, PT_ERR_INTERNAL, "unhandled property type");
        }
        if (rc < 0) return rc;
    }
    if (route_obj >= 0) {
        if (pattern)
            return pt__tmx_fail_at(L, d, pattern->node, "name", 0, PT_ERR_DUPLICATE,
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
            return pt__tmx_fail_value(L, d, susp ? susp : chase_at, 0, PT_ERR_RANGE, "suspicious_at (%g) must be below chase_at (%g)",
                              rd.suspicious_at, rd.chase_at);
    }
    long members = kind == PT_KIND_BOID && def.count > 0 ? def.count : 1;
    if (L->members + members > PT_MAX_ENTITIES) {
        if (count)
            return pt__tmx_fail_value(L, d, count, 0, PT_ERR_LIMIT,
                              "more than %d entities in one map (flock members count one by one)", PT_MAX_ENTITIES);
        return pt__tmx_fail_at(L, d, o->node, NULL, 0, PT_ERR_LIMIT, "more than %d entities in one map", PT_MAX_ENTITIES);
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
    place pos = pt__tmx_node_place_ex(d, o->node, "x", 0);
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
            return pt__tmx_fail_at(L, d, o->node, "width", 0, PT_ERR_RANGE, "an obstacle's radius is at most 4 tiles, not %g", ob.r);
    }
    int seen_r = 0, seen_sprite = 0;
    xmlNodePtr it = NULL;
    prop p;
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        int *seen = !strcmp(p.name, "r") ? &seen_r : !strcmp(p.name, "sprite") ? &seen_sprite : NULL;
        if (!seen)
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "an obstacle has no property '%.40s' (properties: r, sprite)", p.name);
        if ((*seen)++) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        if (seen == &seen_r) {
            if ((rc = pt__tmx_prop_pos(L, d, &p, 4, &ob.r)) < 0) return rc;
        } else {
            static const char *const sprites[] = {"pillar", "tree", NULL};
            int s = 0;
            if ((rc = pt__tmx_prop_choice(L, d, &p, sprites, &s)) < 0) return rc;
            ob.sprite = s == 0 ? PT_OBSTACLE_PILLAR : PT_OBSTACLE_TREE;
        }
    }
    if (ob.x < 0 || ob.y < 0 || ob.x >= L->m.w || ob.y >= L->m.h)
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "obstacle at %g,%g is outside the %dx%d map", ob.x, ob.y,
                       L->m.w, L->m.h);
    return append(L, (void **)&L->m.obstacles, &L->obs_cap, &L->m.nobstacles, &ob, sizeof ob, PT_MAX_OBSTACLES, o->node,
                  "obstacles");
}

/* Seconds of a stop's wait or look: > 0, at least one tick, at most PT_MAX_REPEAT ticks. */
static int stop_seconds(loader *L, doc *d, const prop *p, double *out) {
    int rc = pt__tmx_prop_num(L, d, p, 0, (double)PT_MAX_REPEAT / PT_PATTERN_TICK_HZ, out);
    if (rc < 0) return rc;
    if (floor(*out * PT_PATTERN_TICK_HZ + 0.5) < 1.0)
        return pt__tmx_fail_value(L, d, p, 0, PT_ERR_RANGE, "property '%s' must be at least one tick (1/%d s)", p->name,
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
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        int k = 0;
        while (keys[k] && strcmp(keys[k], p.name) != 0) k++;
        if (!keys[k]) {
            pt__suggest sg;
            char hint[128];
            pt__suggest_init(&sg, p.name, strlen(p.name));
            pt__suggest_words(&sg, keys);
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY, "a stop has no property '%.40s'%s", p.name,
                           pt__suggest_hint(&sg, " (properties: wait, look, angles, gait, route)", hint, sizeof hint));
        }
        if (seen & (1u << k)) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        seen |= 1u << k;
        switch (k) {
        case 0: rc = stop_seconds(L, d, &p, &st.wait); break;
        case 1: rc = stop_seconds(L, d, &p, &st.look); break;
        case 2: {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_STR)) < 0) return rc;
            /* A,B,...: the syntax of a .pat file's angles= (no blanks), each in [-180, 180] */
            const char *v = p.value;
            int n = 0, start = 0, len = (int)strlen(v);
            for (int i = 0; i <= len && rc >= 0; i++) {
                if (i < len && v[i] != ',') continue;
                pt__tok t = {v + start, i - start, 1, 0};
                pt_error e;
                pt_error_clear(&e);
                if (++n > PT_MAX_LOOK_ANGLES)
                    return pt__tmx_fail_value(L, d, &p, start, PT_ERR_LIMIT, "more than %d angles in one look", PT_MAX_LOOK_ANGLES);
                double a = 0;
                if (t.len == 0)
                    return pt__tmx_fail_value(L, d, &p, start, PT_ERR_SYNTAX, "property 'angles': expected an angle in degrees here");
                if ((rc = pt__tok_num(&t, 0, -180.0, 180.0, &a, &e)) < 0) return pt__tmx_fail_value(L, d, &p, start, e.code, "property 'angles': %s", e.message);
                start = i + 1;
            }
            st.angles = v;
            break;
        }
        case 3: {
            static const char *const gaits[] = {"walk", "sneak", "run", NULL};
            int g = 0;
            rc = pt__tmx_prop_choice(L, d, &p, gaits, &g);
            st.gait = gaits[g];
            break;
        }
        default: {
            int id = 0;
            if ((rc = pt__tmx_prop_int(L, d, &p, WANT_OBJ, 0, 0x7fffffff, &id)) < 0) break;
            int ro = id ? find_object(L, id) : -1;
            if (ro < 0 || L->objs[ro].route < 0)
                rc = pt__tmx_fail_value(L, d, &p, 0, ro < 0 ? PT_ERR_MISSING : PT_ERR_BAD_VALUE,
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
            return pt__tmx_fail_at(L, &L->tmx, L->objs[st->obj].node, "x", 0, PT_ERR_BAD_VALUE,
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
    place pos = pt__tmx_node_place_ex(d, o->node, "x", 0);
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
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        int k = -1;
        for (int j = 0; keys[j] && k < 0; j++)
            if (!strcmp(p.name, keys[j])) k = j;
        if (k < 0)
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                           "a noise has no property '%.40s' (properties: loudness, every, first)", p.name);
        if (seen[k]++) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        double hi = k == 0 ? PT_HEARING_MAX_LOUDNESS : 86400;
        if ((rc = k < 2 ? pt__tmx_prop_pos(L, d, &p, hi, fields[k]) : pt__tmx_prop_num(L, d, &p, 0, hi, fields[k])) < 0)
            return rc;
    }
    for (int j = 0; j < 2; j++)
        if (!seen[j])
            return pt__tmx_fail_at(L, d, o->node, NULL, 0, PT_ERR_MISSING, "a noise needs the property %s", keys[j]);
    if (!seen[2]) s.first = s.every;
    if (tx < 0 || ty < 0 || tx >= L->m.w || ty >= L->m.h)
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "noise at %g,%g is outside the %dx%d map", tx, ty,
                       L->m.w, L->m.h);
    s.x = (int)tx;
    s.y = (int)ty;
    return append(L, (void **)&L->m.sources, &L->src_cap, &L->m.nsources, &s, sizeof s, PT_MAX_NOISE_SOURCES, o->node,
                  "noise sources");
}

/* A door's state at the start (docs/tiled.md): an object of class door on a door tile, with
 * the property state (open, closed or locked; required) and closes (bool, default false). */
static int door_object(loader *L, int oi) {
    doc *d = &L->tmx;
    obj *o = &L->objs[oi];
    int rc;
    if ((rc = need_spot(L, o, "a door")) < 0) return rc;
    place pos = pt__tmx_node_place_ex(d, o->node, "x", 0);
    pt_door_def def = {0, 0, PT_DOOR_OPEN, 0, pos.line, pos.col};
    double px, py;
    obj_centre(o, &px, &py);
    double tx = floor(px / L->tw), ty = floor(py / L->th);
    int seen_state = 0, seen_closes = 0;
    xmlNodePtr it = NULL;
    prop p;
    while (pt__tmx_next_prop(L, o->node, &it, &p)) {
        int is_state = !strcmp(p.name, "state");
        if (!is_state && strcmp(p.name, "closes"))
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY,
                                   "a door has no property '%.40s' (properties: state, closes)", p.name);
        int *seen = is_state ? &seen_state : &seen_closes;
        if ((*seen)++)
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        if (!is_state) {
            if ((rc = pt__tmx_prop_bool(L, d, &p, &def.closes)) < 0) return rc;
            continue;
        }
        if ((rc = pt__tmx_prop_type(L, d, &p, WANT_STR)) < 0) return rc;
        int s = -1;
        for (int k = 0; k < PT_DOOR_STATE_COUNT; k++)
            if (!strcmp(p.value, (const char *[]){"open", "closed", "locked"}[k])) s = k;
        if (s < 0)
            return pt__tmx_fail_value(L, d, &p, 0, PT_ERR_BAD_VALUE, "state: expected open, closed or locked, found '%.40s'",
                                      p.value);
        def.state = (pt_door_state)s;
    }
    if (!seen_state) return pt__tmx_fail_at(L, d, o->node, NULL, 0, PT_ERR_MISSING, "a door needs the property state");
    if (tx < 0 || ty < 0 || tx >= L->m.w || ty >= L->m.h)
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "door at %g,%g is outside the %dx%d map", tx, ty,
                               L->m.w, L->m.h);
    def.x = (int)tx;
    def.y = (int)ty;
    const pt_tile_def *t = pt_map_tile(&L->m, def.x, def.y);
    if (pt__door_kind_state(t) < 0)
        return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_BAD_VALUE,
                               "cell %d,%d is %s, not a door (a tile named door, door_closed or door_locked)", def.x, def.y,
                               t->name);
    for (int i = 0; i < L->m.ndoors; i++)
        if (L->m.doors[i].x == def.x && L->m.doors[i].y == def.y)
            return pt__tmx_fail_at(L, d, o->node, "x", 0, PT_ERR_DUPLICATE, "door %d,%d declared twice (first on line %d)",
                                   def.x, def.y, L->m.doors[i].line);
    pt_error e;
    if (pt__map_door_add(&L->m, &def, &e) < 0) return pt__tmx_nomem(L);
    return PT_OK;
}

/* A light (docs/tiled.md): an object of class light on the tile under it (tmx_lights.c). */
static int light_object(loader *L, int oi) {
    obj *o = &L->objs[oi];
    int rc;
    if ((rc = need_spot(L, o, "a light")) < 0) return rc;
    double px, py;
    obj_centre(o, &px, &py);
    double tx = floor(px / L->tw), ty = floor(py / L->th);
    if (tx < 0 || ty < 0 || tx >= L->m.w || ty >= L->m.h)
        return pt__tmx_fail_at(L, &L->tmx, o->node, "x", 0, PT_ERR_OUT_OF_MAP, "light at %g,%g is outside the %dx%d map", tx,
                               ty, L->m.w, L->m.h);
    return pt__tmx_light_object(L, o->node, o->name, o->id, (int)tx, (int)ty);
}

int pt__tmx_objects(loader *L, xmlNodePtr root) {
    int rc;
    if ((rc = collect_objects(L)) < 0) return rc;
    int nroutes = 0;
    for (int i = 0; i < L->nobjs; i++) nroutes += is_route(&L->objs[i]);
    L->routes = PT_CALLOC(nroutes ? (size_t)nroutes : 1, sizeof *L->routes);
    if (!L->routes) return pt__tmx_nomem(L);
    for (int i = 0; i < L->nobjs; i++)
        if (is_route(&L->objs[i]) && (rc = route_object(L, i)) < 0) return rc;
    for (int i = 0; i < L->nobjs; i++) {
        const char *c = L->objs[i].cls;
        if (L->objs[i].route >= 0) continue;
        if (pt__tmx_ieq(c, "player")) rc = entity_object(L, i, PT_KIND_PLAYER);
        else if (pt__tmx_ieq(c, "guard")) rc = entity_object(L, i, PT_KIND_GUARD);
        else if (pt__tmx_ieq(c, "prey")) rc = entity_object(L, i, PT_KIND_PREY);
        else if (pt__tmx_ieq(c, "flock")) rc = entity_object(L, i, PT_KIND_BOID);
        else if (pt__tmx_ieq(c, "obstacle")) rc = obstacle_object(L, i);
        else if (pt__tmx_ieq(c, "stop")) rc = stop_object(L, i);
        else if (pt__tmx_ieq(c, "noise")) rc = noise_object(L, i);
        else if (pt__tmx_ieq(c, "door")) rc = door_object(L, i);
        else if (pt__tmx_ieq(c, "light")) rc = light_object(L, i);
        else rc = PT_OK; /* other classes are notes for other tools */
        if (rc < 0) return rc;
    }
    if ((rc = check_stops(L)) < 0) return rc;
    if ((rc = pt__tmx_lights_check(L)) < 0) return rc;
    for (int i = 0, k = 0; i < L->nobjs && k < L->m.ndoors; i++) { /* doors in file order, as added */
        if (L->objs[i].route >= 0 || !pt__tmx_ieq(L->objs[i].cls, "door")) continue;
        const pt_door_def *dd = &L->m.doors[k++];
        const pt_entity_def *e = pt__map_door_occupant(&L->m, dd);
        if (e)
            return pt__tmx_fail_at(L, &L->tmx, L->objs[i].node, "x", 0, PT_ERR_NOT_WALKABLE,
                                   "door %d,%d starts %s with %s '%s' standing in it", dd->x, dd->y,
                                   dd->state == PT_DOOR_CLOSED ? "closed" : "locked", pt_kind_name(e->kind),
                                   e->name[0] ? e->name : "player");
    }
    if (!L->player)
        return pt__tmx_fail_at(L, &L->tmx, root, NULL, 0, PT_ERR_NO_PLAYER,
                       "the map has no player: add a point object of class player");
    return PT_OK;
}
