/* SPDX-License-Identifier: Zlib */
/* Noticing that a level's files changed on disk (watch.h): each file's modification time,
 * size and inode, polled. */
#define _POSIX_C_SOURCE 200809L
#include "common/watch.h"

#include <stdio.h>
#include <sys/stat.h>

static app_watch_stamp stamp_of(const char *path) {
    app_watch_stamp s = {0};
    struct stat st;
    if (stat(path, &st) != 0) return s;
    s.exists = 1;
    s.sec = (int64_t)st.st_mtim.tv_sec;
    s.nsec = (int64_t)st.st_mtim.tv_nsec;
    /* Size and inode too: a save within the same clock tick of a coarse file system, or an
     * editor that writes a new file and renames it over the old one, still shows. */
    s.size = (int64_t)st.st_size;
    s.ino = (uint64_t)st.st_ino;
    return s;
}

void app_watch_add(app_watch *w, const char *path) {
    if (!path || !*path || w->n >= APP_WATCH_FILES) return;
    snprintf(w->path[w->n], sizeof w->path[w->n], "%s", path);
    w->stamp[w->n] = stamp_of(path);
    w->n++;
}

void app_watch_map(app_watch *w, const pt_map *map) {
    w->n = 0;
    app_watch_add(w, map->path);
    for (int i = 0; i < map->npattern_files; i++) app_watch_add(w, map->pattern_files[i]);
    app_watch_add(w, map->steering_file);
}

int app_watch_changed(app_watch *w) {
    int changed = 0;
    for (int i = 0; i < w->n; i++) {
        app_watch_stamp s = stamp_of(w->path[i]);
        const app_watch_stamp *o = &w->stamp[i];
        if (s.exists != o->exists || s.sec != o->sec || s.nsec != o->nsec || s.size != o->size || s.ino != o->ino)
            changed = 1;
        w->stamp[i] = s;
    }
    return changed;
}

int app_file_hash(const char *path, uint64_t *hash, pt_error *err) {
    FILE *f = pt_file_open(path, err);
    if (!f) return err && err->code < 0 ? err->code : PT_ERR_IO;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[8192];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot read the file");
        if (err) {
            snprintf(err->file, sizeof err->file, "%s", path);
            err->source[0] = '\0';
        }
        return PT_ERR_IO;
    }
    *hash = h;
    return PT_OK;
}
