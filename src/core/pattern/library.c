/* SPDX-License-Identifier: Zlib */
/* library.c - the pattern library: init and fini, parsing a text or loading a file into it
 * (each file once however it is spelt; parse.c parses), a map's pattern files, lookup by
 * name or file:name, and the error for an entity naming no pattern. */
#include <patrol/pattern.h>

#include <stdio.h>
#include <string.h>

#include "base/error_at.h"
#include "base/suggest.h"
#include "base/text.h"
#include "pattern/parse.h"
#include "pattern/pattern_shared.h"
#include "pattern/unknown.h"

void pt_patlib_init(pt_patlib *lib) { memset(lib, 0, sizeof *lib); }

void pt_patlib_fini(pt_patlib *lib) {
    if (!lib) return;
    for (int i = 0; i < lib->count; i++) pt__pattern_free(lib->items[i]);
    PT_FREE(lib->items);
    memset(lib, 0, sizeof *lib);
}

int pt_patlib_parse(pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err) {
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) {
        if (err && err->line > 0) pt_error_locate(err, name, text, len);
        return rc;
    }
    rc = pt__patlib_parse_text(lib, &t, err);
    pt__text_free(&t);
    return rc;
}

/* The first pattern of lib loaded from the file at path (however it is spelt), or -1. */
static int file_index(const pt_patlib *lib, const char *path) {
    for (int i = 0; i < lib->count; i++) {
        if (i > 0 && strcmp(lib->items[i]->file, lib->items[i - 1]->file) == 0) continue; /* one stat a file */
        if (pt__same_file(lib->items[i]->file, path)) return i;
    }
    return -1;
}

int pt_patlib_load(pt_patlib *lib, const char *path, pt_error *err) {
    pt_error_clear(err);
    /* A file named twice (a map's `patterns` line and a --player-pattern reference, spelt
     * differently) is loaded once: its names would clash with themselves. */
    if (lib && path && file_index(lib, path) >= 0) return PT_OK;
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = pt__patlib_parse_text(lib, &t, err);
    pt__text_free(&t);
    return rc;
}

int pt_patlib_load_map_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err) {
    if (!map || i < 0 || i >= map->npattern_files)
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "no pattern file %d in the map", i);
    int rc = pt_patlib_load(lib, map->pattern_files[i], err);
    if (rc < 0)
        pt__error_named_at(err, map->path, map->pattern_file_lines[i], map->pattern_file_cols[i], "pattern file",
                           map->pattern_files[i]);
    return rc;
}

const pt_pattern *pt_patlib_find_in_file(const pt_patlib *lib, const char *path, const char *name) {
    if (!lib || !path || !name) return NULL;
    for (int i = 0; i < lib->count; i++)
        if (strcmp(lib->items[i]->name, name) == 0 && pt__same_file(lib->items[i]->file, path)) return lib->items[i];
    return NULL;
}

static const char *base_name(const char *s, size_t len, size_t *out_len) {
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/' || s[i] == '\\') start = i + 1;
    *out_len = len - start;
    return s + start;
}

const pt_pattern *pt_patlib_find(const pt_patlib *lib, const char *ref) {
    if (!lib || !ref) return NULL;
    const char *colon = strrchr(ref, ':');
    const char *name = colon ? colon + 1 : ref;
    size_t flen = 0;
    const char *fbase = colon ? base_name(ref, (size_t)(colon - ref), &flen) : NULL;
    for (int i = 0; i < lib->count; i++) {
        const pt_pattern *p = lib->items[i];
        if (strcmp(p->name, name) != 0) continue;
        if (fbase) {
            size_t blen = 0;
            const char *b = base_name(p->file, strlen(p->file), &blen);
            if (blen != flen || memcmp(b, fbase, flen) != 0) continue;
        }
        return p;
    }
    return NULL;
}

int pt__unknown_pattern(const pt_patlib *lib, const pt_map *map, const pt_entity_def *d, pt_error *err) {
    if (!err) return PT_ERR_UNKNOWN_PATTERN;
    /* "file.pat:name" is suggested a name of its own file's spelling: compare the name part. */
    const char *colon = strrchr(d->pattern, ':');
    const char *name = colon ? colon + 1 : d->pattern;
    pt__suggest sg;
    pt__suggest_init(&sg, name, strlen(name));
    for (int i = 0; lib && i < lib->count; i++) pt__suggest_add(&sg, lib->items[i]->name);
    char hint[PT_MAX_NAME + 32];
    pt__suggest_hint(&sg, NULL, hint, sizeof hint);
    pt_error_clear(err);
    pt_error_set(err, PT_ERR_UNKNOWN_PATTERN, d->pattern_line ? d->pattern_line : d->line,
                 d->pattern_line ? d->pattern_col : d->col, "%s '%s' uses pattern '%s', which no pattern file defines%s",
                 pt_kind_name(d->kind), d->name, d->pattern, hint);
    snprintf(err->file, sizeof err->file, "%s", map->path);
    return PT_ERR_UNKNOWN_PATTERN;
}
