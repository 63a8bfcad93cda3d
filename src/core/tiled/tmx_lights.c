/* SPDX-License-Identifier: Zlib */
/* Tiled maps: the light objects and the map's light properties (docs/tiled.md, "Lights"),
 * read into the same declarations as the .map lines (map/lights.c). */
#include <stdio.h>
#include <string.h>

#include "map/lights.h"
#include "tiled/tmx_priv.h"

int pt__tmx_light_prop(loader *L, const prop *p) {
    doc *d = &L->tmx;
    int rc;
    if (!strcmp(p->name, "ambient")) { /* as the .map directive: 0..1, once */
        if (L->m.ambient_set)
            return pt__tmx_fail_at(L, d, p->node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p->name);
        if ((rc = pt__tmx_prop_num(L, d, p, 0.0, 1.0, &L->m.ambient)) < 0) return rc;
        L->m.ambient_set = 1;
        return 1;
    }
    if (!strcmp(p->name, "relight")) { /* as the .map directive, a bool */
        if (L->m.relight)
            return pt__tmx_fail_at(L, d, p->node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p->name);
        int on = 0;
        if ((rc = pt__tmx_prop_bool(L, d, p, &on)) < 0) return rc;
        L->m.relight = on ? 1 : -1;
        return 1;
    }
    return 0;
}

int pt__tmx_light_object(loader *L, xmlNodePtr node, const char *name, long id, int tx, int ty) {
    doc *d = &L->tmx;
    pt_light_def l;
    memset(&l, 0, sizeof l);
    place pos = pt__tmx_node_place_ex(d, node, "x", 0);
    l.line = pos.line;
    l.col = pos.col;
    l.level = 1.0;
    l.on = 1;
    int rc;
    if (*name) {
        pt__tok t = pt__tmx_tok_of(name);
        pt_error e;
        pt_error_clear(&e);
        if ((rc = pt__tok_name(&t, 0, l.name, sizeof l.name, &e)) < 0)
            return pt__tmx_fail_at(L, d, node, "name", e.col - 1, rc, "light name: %s", e.message);
    } else snprintf(l.name, sizeof l.name, "light_%ld", id);
    static const char *const keys[] = {"radius", "level", "on", NULL};
    int seen[3] = {0, 0, 0};
    xmlNodePtr it = NULL;
    prop p;
    while (pt__tmx_next_prop(L, node, &it, &p)) {
        int k = -1;
        for (int j = 0; keys[j] && k < 0; j++)
            if (!strcmp(p.name, keys[j])) k = j;
        if (k < 0) {
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, p.name, strlen(p.name));
            pt__suggest_words(&sg, keys);
            return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_UNKNOWN_KEY, "a light has no property '%.40s'%s", p.name,
                                   pt__suggest_hint(&sg, " (properties: radius, level, on)", hint, sizeof hint));
        }
        if (seen[k]++) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "property '%s' given twice", p.name);
        rc = k == 0 ? pt__tmx_prop_pos(L, d, &p, PT__LIGHT_MAX_RADIUS, &l.radius)
             : k == 1 ? pt__tmx_prop_pos(L, d, &p, 1.0, &l.level)
                      : pt__tmx_prop_bool(L, d, &p, &l.on);
        if (rc < 0) return rc;
    }
    if (!seen[0])
        return pt__tmx_fail_at(L, d, node, NULL, 0, PT_ERR_MISSING, "light '%s' needs the property radius (tiles)", l.name);
    l.x = tx;
    l.y = ty;
    pt_error e;
    pt_error_clear(&e);
    if ((rc = pt__map_light_cell_check(&L->m, &l, pos.line, pos.col, &e)) < 0)
        return pt__tmx_fail_at(L, d, node, "x", 0, rc, "%s", e.message);
    if ((rc = pt__map_light_add(&L->m, &l, &e)) < 0)
        return rc == PT_ERR_NOMEM ? pt__tmx_nomem(L) : pt__tmx_fail_at(L, d, node, NULL, 0, rc, "%s", e.message);
    return PT_OK;
}

int pt__tmx_lights_check(loader *L) {
    int first = -1, dup = pt__map_light_dup(&L->m, &first);
    if (dup == -2) return pt__tmx_nomem(L);
    if (dup < 0) return PT_OK;
    const obj *o = NULL;
    for (int i = 0, k = 0; i < L->nobjs && !o; i++) /* lights in file order, as added */
        if (L->objs[i].route < 0 && pt__tmx_ieq(L->objs[i].cls, "light") && k++ == dup) o = &L->objs[i];
    const pt_light_def *l = &L->m.lights[dup];
    if (!o) return pt__tmx_fail(L, &L->tmx, (place){l->line, l->col}, PT_ERR_DUPLICATE, "the light name '%s' is already used", l->name);
    return pt__tmx_fail_at(L, &L->tmx, o->node, *o->name ? "name" : NULL, 0, PT_ERR_DUPLICATE,
                           "the light name '%s' is already used (line %d)", l->name, L->m.lights[first].line);
}
