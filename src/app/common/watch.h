/* SPDX-License-Identifier: Zlib */
/* watch.h - noticing that a level's files changed on disk (--watch), and a map's identity.
 *
 *     app_watch w;
 *     app_watch_map(&w, &map);            // the map file, its pattern files, its steering file
 *     ...
 *     if (app_watch_changed(&w)) reload(); // at most every APP_WATCH_POLL_MS
 *
 * It polls each file's modification time (nanoseconds where the system has them), size and
 * inode: no thread, no new dependency. A file that disappears or comes back counts as a change.
 */
#ifndef PATROL_APP_WATCH_H
#define PATROL_APP_WATCH_H

#include <stdint.h>

#include <patrol/error.h>
#include <patrol/map.h>

#define APP_WATCH_POLL_MS 250 /* how often --watch looks at the files */
#define APP_WATCH_FILES (PT_MAX_PATTERN_FILES + 2)

typedef struct app_watch_stamp {
    int64_t sec, nsec, size;
    uint64_t ino;
    int exists;
} app_watch_stamp;

typedef struct app_watch {
    char path[APP_WATCH_FILES][PT_MAX_PATH];
    app_watch_stamp stamp[APP_WATCH_FILES];
    int n;
} app_watch;

/* Watches one file more (stamped now); ignored when full or path is empty. */
void app_watch_add(app_watch *w, const char *path);
/* Forgets every file, then watches the map's file, its pattern files and its steering file. */
void app_watch_map(app_watch *w, const pt_map *map);
/* 1 when a watched file changed since the last call (or since it was added); every stamp is
 * renewed, so one change is reported once. */
int app_watch_changed(app_watch *w);

/* The identity of a file's bytes: 64-bit FNV-1a over all of them. PT_OK, or an error
 * located at the file (PT_ERR_IO) when it cannot be read. */
int app_file_hash(const char *path, uint64_t *hash, pt_error *err);

#endif
