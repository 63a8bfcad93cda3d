/* SPDX-License-Identifier: Zlib */
/* Tiled maps (.tmx) -> pt_map + path patterns. The rules are in docs/tiled.md.
 *
 * Order of work: the map element and its properties, the tilesets (an external .tsx is
 * parsed and closed at once), every tile layer in document order (group layers depth first,
 * object layers set aside), then every object, then the route patterns. The routes become
 * .pat text parsed by pt_patlib_parse as the very last step, so a failure anywhere leaves
 * the caller's library untouched.
 *
 * This file has the entry points, the map element and that order; the parts are in
 * tmx_xml.c (the XML, places, errors, attribute and property readers, file paths),
 * tmx_tilesets.c, tmx_layers.c (tile kinds, gids, the layer encodings), tmx_objects.c and
 * tmx_routes.c (routes -> .pat text). tmx_priv.h has the loader's state they share.
 *
 * libxml2 gives each element the line on which its start tag ENDS, and no column. Places
 * are refined from the source text (pt__tmx_node_place) only when an error is reported:
 * the start tag is searched back from that line, then the attribute's value inside it.
 * libxml2 keeps an element's line in 16 bits (65535 for any line past it, then
 * xmlGetLineNo borrows a neighbour's), so pt__tmx_doc_parse records the full line in the
 * element's _private (pt__tmx_node_line). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tiled/tmx_priv.h"

/* ---- the map element and its properties ---------------------------------------------------- */

static int map_props(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    xmlNodePtr it = NULL;
    prop p;
    int rc, seen_title = 0, seen_seed = 0, seen_patterns = 0, seen_steering = 0, seen_phase[PT__PHASE_NKEYS] = {0};
    while (pt__tmx_next_prop(L, root, &it, &p)) {
        int phase_key = pt__phase_key_find(p.name, strlen(p.name));
        if (phase_key >= 0) { /* evasion, caution, caution_aware, caution_fov: as the .map directives */
            if (seen_phase[phase_key]++)
                return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p.name);
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_NUM)) < 0) return rc;
            pt__tok t = pt__tmx_tok_of(p.value);
            pt_error e;
            pt_error_clear(&e);
            if (pt__phase_key_read(phase_key, &t, 0, &L->m.phases, &e) < 0) return pt__tmx_tok_fail(L, d, &p, &e);
            continue;
        }
        if ((rc = pt__tmx_light_prop(L, &p)) != 0) { /* ambient, relight */
            if (rc < 0) return rc;
            continue;
        }
        if (!strcmp(p.name, "door_look")) { /* as the .map directive, a bool */
            if (L->m.door_look)
                return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p.name);
            int on = 0;
            if ((rc = pt__tmx_prop_bool(L, d, &p, &on)) < 0) return rc;
            L->m.door_look = on ? 1 : -1;
            continue;
        }
        int *seen = !strcmp(p.name, "title")      ? &seen_title
                    : !strcmp(p.name, "seed")     ? &seen_seed
                    : !strcmp(p.name, "patterns") ? &seen_patterns
                    : !strcmp(p.name, "steering") ? &seen_steering
                                                  : NULL;
        if (!seen) continue; /* other tools' properties */
        if ((*seen)++) return pt__tmx_fail_at(L, d, p.node, "name", 0, PT_ERR_DUPLICATE, "map property '%s' given twice", p.name);
        const char *why;
        if (seen == &seen_title) {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_STR)) < 0) return rc;
            if (strlen(p.value) >= sizeof L->m.name)
                return pt__tmx_fail_value(L, d, &p, 0, PT_ERR_LIMIT, "title is longer than %zu bytes", sizeof L->m.name - 1);
            snprintf(L->m.name, sizeof L->m.name, "%s", p.value);
        } else if (seen == &seen_seed) {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_INT_OR_STR)) < 0) return rc;
            uint64_t v = 0;
            size_t n = strlen(p.value);
            int ok = n > 0 && n <= 20;
            for (size_t i = 0; ok && i < n; i++) {
                unsigned dg = (unsigned)(p.value[i] - '0');
                if (dg > 9 || v > (UINT64_MAX - dg) / 10) ok = 0;
                else v = v * 10 + dg;
            }
            if (!ok)
                return pt__tmx_fail_value(L, d, &p, 0, PT_ERR_BAD_NUMBER,
                                  "seed: expected a whole number from 0 to 2^64-1, found '%.40s'", p.value);
            L->m.seed = v;
        } else if (seen == &seen_patterns) {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_FILE)) < 0) return rc;
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
                    return pt__tmx_fail_value(L, d, &p, ofs, PT_ERR_LIMIT, "more than %d pattern files in one map",
                                      PT_MAX_PATTERN_FILES);
                char path[PT_MAX_PATH];
                if (!pt__tmx_resolve(L, s, len, path, sizeof path, &why))
                    return pt__tmx_fail_value(L, d, &p, ofs, PT_ERR_LIMIT, "patterns: %s", why);
                for (int i = 0; i < L->m.npattern_files; i++)
                    if (pt__same_file(L->m.pattern_files[i], path))
                        return pt__tmx_fail_value(L, d, &p, ofs, PT_ERR_DUPLICATE,
                                                  "pattern file listed twice (first on line %d, column %d)",
                                                  L->m.pattern_file_lines[i], L->m.pattern_file_cols[i]);
                memcpy(L->m.pattern_files[L->m.npattern_files], path, sizeof path);
                place at = pt__tmx_value_place(d, &p, ofs);
                L->m.pattern_file_cols[L->m.npattern_files] = at.col;
                L->m.pattern_file_lines[L->m.npattern_files++] = at.line;
                s = e;
            }
        } else {
            if ((rc = pt__tmx_prop_type(L, d, &p, WANT_FILE)) < 0) return rc;
            if (!pt__tmx_resolve(L, p.value, strlen(p.value), L->m.steering_file, sizeof L->m.steering_file, &why))
                return pt__tmx_fail_value(L, d, &p, 0, PT_ERR_LIMIT, "steering: %s", why);
            place at = pt__tmx_value_place(d, &p, 0);
            L->m.steering_line = at.line;
            L->m.steering_col = at.col;
        }
    }
    return PT_OK;
}

static int map_element(loader *L, xmlNodePtr root) {
    doc *d = &L->tmx;
    int rc, w, h, tw, th;
    const char *o = pt__tmx_attr(L, root, "orientation");
    if (o && strcmp(o, "orthogonal") != 0)
        return pt__tmx_fail_at(L, d, root, "orientation", 0, PT_ERR_BAD_VALUE,
                       "%.40s maps are not supported: patrol reads orthogonal maps", o);
    const char *inf = pt__tmx_attr(L, root, "infinite");
    if (inf && strcmp(inf, "0") != 0)
        return pt__tmx_fail_at(L, d, root, "infinite", 0, PT_ERR_BAD_VALUE,
                       "infinite maps are not supported: in Tiled, uncheck Map > Map Properties > Infinite");
    if ((rc = pt__tmx_attr_int(L, d, root, "width", 1, 0x7fffffff, -1, &w)) < 0 ||
        (rc = pt__tmx_attr_int(L, d, root, "height", 1, 0x7fffffff, -1, &h)) < 0)
        return rc;
    if (w < 0 || h < 0)
        return pt__tmx_fail_at(L, d, root, NULL, 0, PT_ERR_MISSING, "the map has no %s", w < 0 ? "width" : "height");
    if (w > PT_MAP_MAX_W || h > PT_MAP_MAX_H)
        return pt__tmx_fail_at(L, d, root, w > PT_MAP_MAX_W ? "width" : "height", 0, PT_ERR_LIMIT,
                       "the map is %dx%d tiles; the limit is %dx%d", w, h, PT_MAP_MAX_W, PT_MAP_MAX_H);
    if ((rc = pt__tmx_attr_int(L, d, root, "tilewidth", PT_MIN_TILE_PX, PT_MAX_TILE_PX, -1, &tw)) < 0 ||
        (rc = pt__tmx_attr_int(L, d, root, "tileheight", PT_MIN_TILE_PX, PT_MAX_TILE_PX, -1, &th)) < 0)
        return rc;
    if (tw < 0 || th < 0)
        return pt__tmx_fail_at(L, d, root, NULL, 0, PT_ERR_MISSING, "the map has no %s", tw < 0 ? "tilewidth" : "tileheight");
    if (tw != th)
        return pt__tmx_fail_at(L, d, root, "tileheight", 0, PT_ERR_BAD_VALUE,
                       "tiles must be square: tilewidth is %d, tileheight %d", tw, th);
    L->tw = tw;
    L->th = th;
    size_t n = (size_t)w * (size_t)h;
    L->m.tiles = PT_MALLOC(n);
    L->m.flags = PT_MALLOC(n);
    if (!L->m.tiles || !L->m.flags) return pt__tmx_nomem(L);
    memset(L->m.tiles, EMPTY_CELL, n);
    L->m.w = w;
    L->m.h = h;
    L->m.tile_px = tw;
    return map_props(L, root);
}

/* ---- driver -------------------------------------------------------------------------------- */

static void loader_free(loader *L) {
    pt__tmx_doc_close(&L->tmx);
    pt__tmx_doc_close(&L->tsx);
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
    if ((rc = pt__tmx_doc_parse(L, &L->tmx, "map")) < 0) return rc;
    xmlNodePtr root = xmlDocGetRootElement(L->tmx.xml);
    if ((rc = map_element(L, root)) < 0) return rc;
    if ((rc = pt__tmx_tilesets(L, root)) < 0) return rc;
    if ((rc = pt__tmx_layers(L, root, 0, 0, 0)) < 0) return rc;
    if ((rc = pt__tmx_finish_tiles(L, root)) < 0) return rc;
    if ((rc = pt__tmx_objects(L, root)) < 0) return rc;
    return pt__tmx_build_patterns(L, lib, name);
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
    return n >= 4 && pt__tmx_ieq(path + n - 4, ".tmx");
}
