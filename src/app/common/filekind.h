/* SPDX-License-Identifier: Zlib */
/* filekind.h - which of the project's file kinds a file is, so each is read as what it is. */
#ifndef PATROL_APP_FILEKIND_H
#define PATROL_APP_FILEKIND_H

#include <patrol/error.h>

typedef enum app_file_kind {
    APP_FILE_MAP = 0, /* a text map (.map); also anything not recognised as another kind */
    APP_FILE_TMX,     /* a Tiled map (.tmx) */
    APP_FILE_TSX,     /* a Tiled tileset (.tsx) */
    APP_FILE_PAT,     /* a pattern file (.pat) */
    APP_FILE_STEER,   /* a steering parameters file (.steer) */
    APP_FILE_TEST,    /* a designer's test file (.test) */
    APP_FILE_REC,     /* a recording of patrol play (.rec) */
    APP_FILE_LEVELS,  /* a level list (maps/levels.txt): its first word is a .map or .tmx path */
    APP_FILE_SCRIPT   /* timed world commands (.script): its first word is `at` */
} app_file_kind;

/* The kind of path: by its first line that is not blank or a comment when that line's first
 * word belongs to one kind only (`pattern`, `format`, `set`, `map`, <map / <tileset in XML, ...:
 * a test file named .map is a test file; a first word that is a path ending in .map or .tmx, quoted
 * or not, is a level list's); otherwise by its extension (.map .tmx .tsx .pat .steer .test .rec,
 * any case); otherwise a map. A file that cannot be read goes by its extension, or
 * counts as a map (the map loader then reports why). */
app_file_kind app_file_kind_of(const char *path);

/* "map", "Tiled map", "Tiled tileset", "pattern file", "steering file", "test file",
 * "recording", "level list". */
const char *app_file_kind_name(app_file_kind k);

/* Where a map is expected: PT_OK if path is a map or a Tiled map by app_file_kind_of, or may be
 * one; otherwise a located error in err ("this is a pattern file; a map starts with ...") and
 * its code. A .map whose text is plainly another kind (it begins with `pattern`) is refused;
 * a .test whose text is a map's is taken. */
int app_expect_map(const char *path, pt_error *err);

/* Where a pattern file is expected: PT_OK if path is one (it begins with `pattern`, or it is a
 * .pat or has no known extension and does not begin like another kind: the pattern loader then
 * says the rest); otherwise a located error in err
 * ("this is a map (it begins with 'format'); a pattern file starts with 'pattern NAME'; "
 * then instead, what to run instead, when not NULL) and its code. */
int app_expect_pattern(const char *path, const char *instead, pt_error *err);

/* 1 if path is a map or a Tiled map (app_file_kind_of). */
int app_file_is_map(const char *path);

#endif
