/* SPDX-License-Identifier: Zlib */
/* Tiled maps: the tilesets, embedded and external (.tsx), and their tiles' properties. */
#include <patrol/hearing.h>

#include <stdio.h>
#include <string.h>

#include "tiled/tmx_priv.h"

/* ---- tilesets ------------------------------------------------------------------------------ */

static int tile_props(loader *L, doc *d, xmlNodePtr tile, tile_info *ti) {
    xmlNodePtr it = NULL;
    prop p;
    int rc;
    while (pt__tmx_next_prop(L, tile, &it, &p)) {
        int *has;
        if (!strcmp(p.name, "walkable")) {
            has = &ti->has_walkable;
            rc = pt__tmx_prop_bool(L, d, &p, &ti->walkable);
        } else if (!strcmp(p.name, "opaque")) {
            has = &ti->has_opaque;
            rc = pt__tmx_prop_bool(L, d, &p, &ti->opaque);
        } else if (!strcmp(p.name, "goal")) {
            has = &ti->has_goal;
            rc = pt__tmx_prop_bool(L, d, &p, &ti->goal);
        } else if (!strcmp(p.name, "sprite")) {
            has = &ti->has_sprite;
            rc = pt__tmx_prop_int(L, d, &p, WANT_INT, -1, 1023, &ti->sprite);
        } else if (!strcmp(p.name, "name")) {
            has = &ti->has_name;
            rc = pt__tmx_prop_name(L, d, &p, ti->name, sizeof ti->name);
        } else if (!strcmp(p.name, "sound")) {
            has = &ti->has_sound;
            rc = pt__tmx_prop_sound(L, d, &p, &ti->sound);
        } else if (!strcmp(p.name, "footstep")) {
            has = &ti->has_footstep;
            rc = pt__tmx_prop_num(L, d, &p, 0, PT_FOOTSTEP_MAX, &ti->footstep);
        } else if (!strcmp(p.name, "noise")) {
            has = &ti->has_noise;
            rc = pt__tmx_prop_num(L, d, &p, 0, PT_HEARING_MAX_LOUDNESS, &ti->noise);
        } else continue; /* tilesets are shared with other tools: other properties are theirs */
        if (rc < 0) return rc;
        if ((*has)++) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "tile property '%s' given twice", p.name);
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
    if (pt__tmx_attr(L, n, "tilecount") && (rc = pt__tmx_attr_int(L, d, n, "tilecount", 0, 0x7fffffff, 0, &count)) < 0) return rc;
    if (count > PT_TMX_MAX_TILESET_TILES)
        return pt__tmx_fail_at(L, d, n, "tilecount", 0, PT_ERR_LIMIT, "a tileset of %d tiles; the limit is %d", count,
                       PT_TMX_MAX_TILESET_TILES);
    xmlNodePtr img = pt__tmx_child(n, "image");
    ts->collection = img == NULL;
    if (img) {
        const char *src = pt__tmx_attr(L, img, "source");
        ts->tiles_png = src && !strcmp(base_name(src), "tiles.png");
    }
    if (!ts->collection && count < 0) return pt__tmx_fail_at(L, d, n, NULL, 0, PT_ERR_MISSING, "the tileset has no tilecount");
    int maxid = -1, ntile = 0;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!pt__tmx_is_elem(c, "tile")) continue;
        int id = 0;
        if (!pt__tmx_attr(L, c, "id")) return pt__tmx_fail_at(L, d, c, NULL, 0, PT_ERR_MISSING, "the tile has no id");
        if ((rc = pt__tmx_attr_int(L, d, c, "id", 0, ts->collection ? 0x7fffffff : count - 1, 0, &id)) < 0) return rc;
        if (id >= PT_TMX_MAX_TILESET_TILES)
            return pt__tmx_fail_at(L, d, c, "id", 0, PT_ERR_LIMIT, "tile id %d; a tileset holds at most %d tiles", id,
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
    if (!ts->info || !ts->infos) return pt__tmx_nomem(L);
    for (size_t i = 0; i < ni; i++) ts->info[i] = -1;
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!pt__tmx_is_elem(c, "tile")) continue;
        int id = 0;
        if ((rc = pt__tmx_attr_int(L, d, c, "id", 0, ts->ntiles - 1, 0, &id)) < 0) return rc;
        if (ts->info[id] >= 0)
            return pt__tmx_fail_at(L, d, c, "id", 0, PT_ERR_DUPLICATE, "tile %d is defined twice in this tileset", id);
        tile_info *ti = &ts->infos[ts->ninfos];
        ts->info[id] = ts->ninfos++;
        if ((rc = tile_props(L, d, c, ti)) < 0) return rc;
        if (ti->has_name) continue;
        /* no name property: the tile's class (Tiled 1.9) or type names it */
        const char *which = "class", *cls = pt__tmx_attr(L, c, "class");
        if (!cls || !*cls) {
            which = "type";
            cls = pt__tmx_attr(L, c, "type");
        }
        if (cls && *cls) {
            pt__tok t = pt__tmx_tok_of(cls);
            pt_error e;
            pt_error_clear(&e);
            if ((rc = pt__tok_name(&t, 0, ti->name, sizeof ti->name, &e)) < 0)
                return pt__tmx_fail_at(L, d, c, which, e.col - 1, rc, "tile %s: %s", which, e.message);
        }
    }
    return PT_OK;
}

int pt__tmx_tilesets(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    int rc, n = 0;
    for (xmlNodePtr c = root->children; c; c = c->next)
        if (pt__tmx_is_elem(c, "tileset") && ++n > PT_TMX_MAX_TILESETS) /* at the one that goes over */
            return pt__tmx_fail_at(L, d, c, NULL, 0, PT_ERR_LIMIT, "more than %d tilesets", PT_TMX_MAX_TILESETS);
    L->ts = PT_CALLOC(n ? (size_t)n : 1, sizeof *L->ts);
    if (!L->ts) return pt__tmx_nomem(L);
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (!pt__tmx_is_elem(c, "tileset")) continue;
        tileset *ts = &L->ts[L->nts++];
        const char *fg = pt__tmx_attr(L, c, "firstgid");
        if (!fg) return pt__tmx_fail_at(L, d, c, NULL, 0, PT_ERR_MISSING, "the tileset has no firstgid");
        if (!pt__tmx_parse_u32(fg, strlen(fg), &ts->firstgid) || ts->firstgid == 0 || ts->firstgid > ~GID_FLAGS)
            return pt__tmx_fail_at(L, d, c, "firstgid", 0, PT_ERR_BAD_NUMBER,
                           "firstgid: expected a whole number from 1 to %u, found '%.40s'", ~GID_FLAGS, fg);
        if (L->nts > 1 && ts->firstgid <= L->ts[L->nts - 2].firstgid)
            return pt__tmx_fail_at(L, d, c, "firstgid", 0, PT_ERR_BAD_VALUE,
                           "tilesets must come in increasing firstgid order (%u follows %u)", ts->firstgid,
                           L->ts[L->nts - 2].firstgid);
        const char *src = pt__tmx_attr(L, c, "source");
        if (!src) {
            if ((rc = tileset_element(L, d, c, ts)) < 0) return rc;
            continue;
        }
        char path[PT_MAX_PATH];
        const char *why;
        if (!pt__tmx_resolve(L, src, strlen(src), path, sizeof path, &why))
            return pt__tmx_fail_at(L, d, c, "source", 0, PT_ERR_LIMIT, "source: %s", why);
        size_t pl = strlen(path);
        if (pl > 4 && pt__tmx_ieq(path + pl - 4, ".tsj"))
            return pt__tmx_fail_at(L, d, c, "source", 0, PT_ERR_BAD_VALUE,
                           "JSON tilesets (.tsj) are not supported: save the tileset as .tsx");
        doc *t = &L->tsx;
        snprintf(t->path, sizeof t->path, "%s", path);
        pt_error e;
        if ((rc = pt__text_read(&t->text, path, &e)) < 0) {
            if (rc == PT_ERR_IO)
                return pt__tmx_fail_at(L, d, c, "source", 0, PT_ERR_IO, "cannot read the tileset '%.80s': %s", src, e.message);
            L->err_doc = NULL; /* a problem inside the .tsx (binary, too large): its own place */
            *L->err = e;
            return rc;
        }
        if ((rc = pt__tmx_doc_parse(L, t, "tileset")) < 0) return rc;
        if ((rc = tileset_element(L, t, xmlDocGetRootElement(t->xml), ts)) < 0) return rc;
        pt__tmx_doc_close(t);
    }
    return PT_OK;
}
