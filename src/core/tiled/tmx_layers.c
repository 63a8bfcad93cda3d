/* SPDX-License-Identifier: Zlib */
/* Tiled maps: the tile layers. Tile kinds (the legend), gids and their flip bits, the CSV,
 * base64 (plain, zlib, gzip) and XML encodings, group layers and their offsets. */
#include <zlib.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tiled/tmx_priv.h"

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
        if (!ts->legend) return pt__tmx_nomem(L);
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
            return pt__tmx_fail(L, &L->tmx, (place){0, 0}, PT_ERR_LIMIT,
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
        return pt__tmx_fail(L, &L->tmx, (place){0, 0}, PT_ERR_UNKNOWN_TILE, "tile %d,%d: gid %lu belongs to no tileset", x, y,
                    (unsigned long)gid);
    tileset *ts = &L->ts[k];
    uint32_t id = gid - ts->firstgid;
    if (id >= (uint32_t)ts->ntiles || (ts->collection && info_of(ts, (int)id) < 0))
        return pt__tmx_fail(L, &L->tmx, (place){0, 0}, PT_ERR_UNKNOWN_TILE,
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
    return pt__tmx_fail(L, &L->tmx, at, PT_ERR_RAGGED_ROW, "the layer has %zu %s; the %dx%d map needs %zu", got, unit, L->m.w,
                L->m.h, need);
}

static int layer_csv(loader *L, xmlNodePtr data, const char *s) {
    doc *d = &L->tmx;
    size_t need = (size_t)L->m.w * (size_t)L->m.h, n = 0;
    /* Exact places: walk the content from just after the '>' of <data ...>. */
    int line = (int)pt__tmx_node_line(data), col = 0;
    size_t off = pt__tmx_content_offset(d, data);
    if (off != (size_t)-1) {
        place c = pt__tmx_place_of_offset(d, off);
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
        while (i < len && pt__tmx_is_blank(s[i])) ADVANCE(s[i++]);
        if (i >= len) break;
        size_t b = i;
        while (i < len && s[i] != ',' && !pt__tmx_is_blank(s[i])) i++;
        place at = {line, col};
        uint32_t gid;
        if (!pt__tmx_parse_u32(s + b, i - b, &gid)) {
            if (i == b) return pt__tmx_fail(L, d, at, PT_ERR_SYNTAX, "expected a tile id before ','");
            return pt__tmx_fail(L, d, at, PT_ERR_BAD_NUMBER, "expected a tile id (0 to 4294967295), found '%.*s'",
                        (int)(i - b > 40 ? 40 : i - b), s + b);
        }
        if (n >= need)
            return pt__tmx_fail(L, d, at, PT_ERR_RAGGED_ROW, "the layer has more than %zu tiles (the map is %dx%d)", need, L->m.w,
                        L->m.h);
        int rc = put_gid(L, n++, gid);
        if (rc < 0) return relocate(L, rc, at);
        if (col) col += (int)(i - b);
        end = (place){line, col};
        while (i < len && pt__tmx_is_blank(s[i])) ADVANCE(s[i++]);
        if (i < len && s[i] == ',') {
            ADVANCE(s[i++]);
            continue;
        }
        if (i < len) return pt__tmx_fail(L, d, (place){line, col}, PT_ERR_SYNTAX, "expected ',' between tile ids");
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
        if (pt__tmx_is_blank(c)) continue;
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
    if (!raw) return pt__tmx_nomem(L);
    long n = b64_decode(s, len, raw);
    if (n < 0) {
        PT_FREE(raw);
        return pt__tmx_fail_at(L, d, data, NULL, 0, PT_ERR_BAD_ENCODING, "the layer data is not valid base64");
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
            return pt__tmx_nomem(L);
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
                return pt__tmx_fail_at(L, d, data, NULL, 0, PT_ERR_RAGGED_ROW,
                               "the layer has more than %zu bytes of tile ids (the map is %dx%d)", need, L->m.w, L->m.h);
            return pt__tmx_fail_at(L, d, data, NULL, 0, PT_ERR_BAD_ENCODING, "the layer data is not valid %s data (%s)", comp,
                           zr == Z_BUF_ERROR ? "it is cut short" : "corrupt stream");
        }
        bytes = out;
        nbytes = done;
    }
    int rc = PT_OK;
    if (nbytes != need) rc = wrong_length(L, pt__tmx_node_place(d, data, NULL), nbytes, "bytes");
    for (size_t i = 0; rc == PT_OK && i < need / 4; i++) {
        const uint8_t *b = bytes + i * 4;
        rc = put_gid(L, i, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        if (rc < 0) relocate(L, rc, pt__tmx_node_place(d, data, NULL));
    }
    PT_FREE(bytes);
    return rc;
}

static int layer_xml(loader *L, xmlNodePtr data) {
    doc *d = &L->tmx;
    size_t need = (size_t)L->m.w * (size_t)L->m.h, n = 0;
    for (xmlNodePtr c = data->children; c; c = c->next) {
        if (!pt__tmx_is_elem(c, "tile")) continue;
        uint32_t gid = 0;
        const char *g = pt__tmx_attr(L, c, "gid");
        if (g && !pt__tmx_parse_u32(g, strlen(g), &gid))
            return pt__tmx_fail_at(L, d, c, "gid", 0, PT_ERR_BAD_NUMBER, "gid: expected a tile id (0 to 4294967295), found '%.40s'",
                           g);
        if (n >= need)
            return pt__tmx_fail_at(L, d, c, NULL, 0, PT_ERR_RAGGED_ROW, "the layer has more than %zu tiles (the map is %dx%d)",
                           need, L->m.w, L->m.h);
        int rc = put_gid(L, n++, gid);
        if (rc < 0) return relocate(L, rc, pt__tmx_node_place(d, c, "gid"));
    }
    if (n != need) return wrong_length(L, pt__tmx_node_place(d, data, NULL), n, "tiles");
    return PT_OK;
}

static int tile_layer(loader *L, xmlNodePtr layer, double gx, double gy) {
    doc *d = &L->tmx;
    int rc, w, h;
    double ox, oy;
    if ((rc = pt__tmx_attr_int(L, d, layer, "width", 0, 0x7fffffff, L->m.w, &w)) < 0 ||
        (rc = pt__tmx_attr_int(L, d, layer, "height", 0, 0x7fffffff, L->m.h, &h)) < 0)
        return rc;
    if (w != L->m.w || h != L->m.h)
        return pt__tmx_fail_at(L, d, layer, w != L->m.w ? "width" : "height", 0, PT_ERR_BAD_VALUE,
                       "the layer is %dx%d; the map is %dx%d", w, h, L->m.w, L->m.h);
    if ((rc = pt__tmx_attr_num(L, d, layer, "offsetx", -COORD_MAX_PX, COORD_MAX_PX, 0, &ox)) < 0 ||
        (rc = pt__tmx_attr_num(L, d, layer, "offsety", -COORD_MAX_PX, COORD_MAX_PX, 0, &oy)) < 0)
        return rc;
    if (ox != 0 || oy != 0)
        return pt__tmx_fail_at(L, d, layer, ox != 0 ? "offsetx" : "offsety", 0, PT_ERR_BAD_VALUE,
                       "tile layer offsets are not supported: the grid is the map (reset the layer's offset)");
    if (gx != 0 || gy != 0)
        return pt__tmx_fail_at(L, d, layer, NULL, 0, PT_ERR_BAD_VALUE,
                       "this tile layer is inside a group layer with an offset: the grid is the map (reset the "
                       "group's offset)");
    xmlNodePtr data = pt__tmx_child(layer, "data");
    if (!data) return pt__tmx_fail_at(L, d, layer, NULL, 0, PT_ERR_MISSING, "the tile layer has no <data>");
    xmlNodePtr chunk = pt__tmx_child(data, "chunk");
    if (chunk)
        return pt__tmx_fail_at(L, d, chunk, NULL, 0, PT_ERR_BAD_VALUE,
                       "infinite maps (layer chunks) are not supported: in Tiled, uncheck Map > Map Properties > Infinite");
    if (L->ntile_layers++ == 0) L->first_data = data;
    const char *enc = pt__tmx_attr(L, data, "encoding");
    const char *comp = pt__tmx_attr(L, data, "compression");
    if (comp && !*comp) comp = NULL;
    if (enc && strcmp(enc, "csv") != 0 && strcmp(enc, "base64") != 0)
        return pt__tmx_fail_at(L, d, data, "encoding", 0, PT_ERR_BAD_ENCODING,
                       "unknown tile layer encoding '%.40s' (supported: csv, base64)", enc);
    if (comp && strcmp(comp, "zlib") != 0 && strcmp(comp, "gzip") != 0) {
        if (!strcmp(comp, "zstd"))
            return pt__tmx_fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING,
                           "zstd compression is not supported: set the map's tile layer format to CSV, Base64 (zlib) "
                           "or Base64 (gzip)");
        return pt__tmx_fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING,
                       "unknown compression '%.40s' (supported: zlib, gzip)", comp);
    }
    if (comp && (!enc || strcmp(enc, "base64") != 0))
        return pt__tmx_fail_at(L, d, data, "compression", 0, PT_ERR_BAD_ENCODING, "compression needs base64 encoding");
    if (!enc) return layer_xml(L, data);
    xmlChar *content = xmlNodeGetContent(data);
    if (!content) return pt__tmx_nomem(L);
    rc = !strcmp(enc, "csv") ? layer_csv(L, data, (const char *)content)
                             : layer_base64(L, data, (const char *)content, comp);
    xmlFree(content);
    return rc;
}

/* Tile layers in document order (groups depth first); object layers are set aside. */
int pt__tmx_layers(loader *L, xmlNodePtr parent, double ox, double oy, int depth) {
    doc *d = &L->tmx;
    int rc;
    if (depth > PT_TMX_MAX_DEPTH)
        return pt__tmx_fail_at(L, d, parent, NULL, 0, PT_ERR_LIMIT, "group layers nested deeper than %d", PT_TMX_MAX_DEPTH);
    for (xmlNodePtr c = parent->children; c; c = c->next) {
        if (pt__tmx_is_elem(c, "layer")) {
            if ((rc = tile_layer(L, c, ox, oy)) < 0) return rc;
            continue;
        }
        if (!pt__tmx_is_elem(c, "group") && !pt__tmx_is_elem(c, "objectgroup")) continue;
        double gx, gy;
        if ((rc = pt__tmx_attr_num(L, d, c, "offsetx", -COORD_MAX_PX, COORD_MAX_PX, 0, &gx)) < 0 ||
            (rc = pt__tmx_attr_num(L, d, c, "offsety", -COORD_MAX_PX, COORD_MAX_PX, 0, &gy)) < 0)
            return rc;
        if (pt__tmx_is_elem(c, "group")) {
            if ((rc = pt__tmx_layers(L, c, ox + gx, oy + gy, depth + 1)) < 0) return rc;
            continue;
        }
        if (L->ngroups == L->groups_cap) {
            int ncap = L->groups_cap ? L->groups_cap * 2 : 8;
            group_ref *ng = PT_REALLOC(L->groups, sizeof *ng * (size_t)ncap);
            if (!ng) return pt__tmx_nomem(L);
            L->groups = ng;
            L->groups_cap = ncap;
        }
        L->groups[L->ngroups++] = (group_ref){c, ox + gx, oy + gy};
    }
    return PT_OK;
}

int pt__tmx_finish_tiles(loader *L, xmlNodePtr root) {
    if (L->ntile_layers == 0) return pt__tmx_fail_at(L, &L->tmx, root, NULL, 0, PT_ERR_MISSING, "the map has no tile layer");
    size_t n = (size_t)L->m.w * (size_t)L->m.h;
    for (size_t i = 0; i < n; i++) {
        if (L->m.tiles[i] == EMPTY_CELL)
            return pt__tmx_fail_at(L, &L->tmx, L->first_data, NULL, 0, PT_ERR_UNKNOWN_TILE,
                           "tile %d,%d is empty in every tile layer (every cell needs a tile)", (int)(i % (size_t)L->m.w),
                           (int)(i / (size_t)L->m.w));
        L->m.flags[i] = L->m.legend[L->m.tiles[i]].flags;
        if (L->m.flags[i] & PT_TILE_GOAL) L->m.goal = 1;
    }
    return PT_OK;
}
