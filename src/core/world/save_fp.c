/* SPDX-License-Identifier: Zlib */
/* The fingerprints a save carries (docs/formats.md, "Save files"): CRC32s of what a load must
 * be given again, so a save of another map or pattern library is refused. */
#include <string.h>
#include <zlib.h>

#include "world/save_priv.h"

static uint32_t crc_int(uint32_t crc, int64_t v) {
    unsigned char b[8];
    pt__put_le64(b, (uint64_t)v);
    return (uint32_t)crc32(crc, b, 8);
}

static uint32_t crc_str(uint32_t crc, const char *s) {
    size_t n = strlen(s);
    crc = crc_int(crc, (int64_t)n);
    return (uint32_t)crc32(crc, (const unsigned char *)s, (uInt)n);
}

/* A number as the bits of its double: 0.5 and 0.50 are one value. */
static uint32_t crc_num(uint32_t crc, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return crc_int(crc, (int64_t)bits);
}

static uint32_t crc_def(uint32_t crc, const pt_entity_def *d) {
    crc = crc_str(crc, d->name);
    crc = crc_int(crc, d->kind);
    crc = crc_int(crc, d->x);
    crc = crc_int(crc, d->y);
    crc = crc_int(crc, d->count);
    crc = crc_str(crc, d->pattern);
    return d->lantern > 0 ? crc_num(crc, d->lantern) : crc; /* a map without lanterns: as before them */
}

/* The map's light: ambient, relight and every light as declared. Nothing for a map that
 * declares none of them, so its fingerprint is the one it had before lights. */
static uint32_t crc_light(uint32_t crc, const pt_map *m) {
    if (!m->ambient_set && !m->relight && m->nlights == 0) return crc;
    crc = crc_str(crc, "light");
    crc = crc_int(crc, m->ambient_set);
    crc = crc_num(crc, m->ambient_set ? m->ambient : 1.0);
    crc = crc_int(crc, m->relight);
    crc = crc_int(crc, m->nlights);
    for (int i = 0; i < m->nlights; i++) {
        const pt_light_def *l = &m->lights[i];
        crc = crc_str(crc, l->name);
        crc = crc_int(crc, l->x);
        crc = crc_int(crc, l->y);
        crc = crc_num(crc, l->radius);
        crc = crc_num(crc, l->level);
        crc = crc_int(crc, l->on);
    }
    return crc;
}

uint32_t pt__save_map_fp(const pt_map *m) {
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    crc = crc_int(crc, m->w);
    crc = crc_int(crc, m->h);
    crc = crc_int(crc, m->nlegend);
    for (int i = 0; i < m->nlegend && i < PT_MAX_TILE_KINDS; i++) {
        crc = crc_int(crc, (unsigned char)m->legend[i].ch);
        crc = crc_int(crc, m->legend[i].flags);
    }
    size_t cells = (size_t)m->w * (size_t)m->h;
    for (size_t at = 0; m->tiles && at < cells;) {
        size_t part = cells - at < (1u << 30) ? cells - at : (1u << 30);
        crc = (uint32_t)crc32(crc, m->tiles + at, (uInt)part);
        at += part;
    }
    crc = crc_def(crc, &m->player);
    crc = crc_int(crc, m->nents);
    for (int i = 0; i < m->nents; i++) crc = crc_def(crc, &m->ents[i]);
    return crc_light(crc, m);
}

uint32_t pt__save_lib_fp(const pt_patlib *lib) {
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    int n = lib ? lib->count : 0;
    crc = crc_int(crc, n);
    for (int i = 0; i < n; i++) {
        const pt_pattern *p = lib->items[i];
        crc = crc_str(crc, p->name);
        crc = crc_int(crc, p->kind);
        crc = crc_int(crc, p->ncells);
        for (int k = 0; k < p->ncells; k++) {
            crc = crc_int(crc, p->cells[k].x);
            crc = crc_int(crc, p->cells[k].y);
        }
    }
    return crc;
}
