/* SPDX-License-Identifier: Zlib */
/* Malformed inputs (issue 7): every file in tests/data/bad/ is loaded with the loader of its
 * extension and must fail with exactly the code, line and column that tests/data/bad/EXPECT
 * lists for it; a file in the folder that EXPECT does not list fails the test (no untested
 * files). The same files then show that a failed load never loses data: a pattern library,
 * a steering file or a map loaded before is exactly as it was (hot reload, `patrol check`). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkdtemp, mkfifo */
#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/steer.h>
#include <patrol/testing.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#include "test_util.h"

#define BAD_DIR PATROL_SOURCE_DIR "/tests/data/bad"
#define MAX_ENTRIES 512

typedef struct entry {
    char file[128];
    char code[40];
    int line, col;
} entry;

static entry g_entries[MAX_ENTRIES];
static int g_nentries;

/* path = BAD_DIR/file */
static void bad_path(char *path, size_t cap, const entry *e) { snprintf(path, cap, "%s/%.127s", BAD_DIR, e->file); }

static const char *ext_of(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot ? dot : "";
}

/* Reads EXPECT: `FILE CODE LINE COL  # comment`, '#' lines are comments. */
static void read_expect(void) {
    g_nentries = 0;
    FILE *f = fopen(BAD_DIR "/EXPECT", "r");
    ck_assert_msg(f != NULL, "cannot open %s/EXPECT", BAD_DIR);
    char buf[1024];
    int lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        entry e;
        memset(&e, 0, sizeof e);
        int n = sscanf(buf, "%127s %39s %d %d", e.file, e.code, &e.line, &e.col);
        if (n <= 0) continue;
        ck_assert_msg(n == 4, "EXPECT:%d: expected FILE CODE LINE COL", lineno);
        ck_assert_msg(g_nentries < MAX_ENTRIES, "EXPECT: too many entries");
        for (int i = 0; i < g_nentries; i++)
            ck_assert_msg(strcmp(g_entries[i].file, e.file) != 0, "EXPECT:%d: %s listed twice", lineno, e.file);
        g_entries[g_nentries++] = e;
    }
    fclose(f);
}

/* Loads one file with the loader of its extension into scratch outputs; returns the code. */
static int load_any(const char *path, pt_error *err) {
    const char *ext = ext_of(path);
    int rc;
    if (strcmp(ext, ".pat") == 0) {
        pt_patlib lib;
        pt_patlib_init(&lib);
        rc = pt_patlib_load(&lib, path, err);
        pt_patlib_fini(&lib);
    } else if (strcmp(ext, ".steer") == 0) {
        pt_steer_file sf;
        pt_steer_file_init(&sf);
        rc = pt_steer_file_load(&sf, path, err);
        pt_steer_file_fini(&sf);
    } else if (strcmp(ext, ".tmx") == 0) {
        pt_map m;
        pt_patlib lib;
        pt_patlib_init(&lib);
        rc = pt_tmx_load(&m, &lib, path, err);
        if (rc == PT_OK) pt_map_fini(&m);
        pt_patlib_fini(&lib);
    } else if (strcmp(ext, ".test") == 0) {
        pt_testfile tf;
        rc = pt_testfile_load(&tf, path, err);
        if (rc == PT_OK) pt_testfile_fini(&tf);
    } else { /* .map */
        pt_map m;
        rc = pt_map_load(&m, path, err);
        if (rc == PT_OK) pt_map_fini(&m);
    }
    return rc;
}

START_TEST(every_bad_file_fails_where_expected) {
    read_expect();
    ck_assert_int_ge(g_nentries, 40);
    char report[4096] = "";
    size_t used = 0;
    int failures = 0, kinds[5] = {0};
    for (int i = 0; i < g_nentries; i++) {
        const entry *e = &g_entries[i];
        const char *ext = ext_of(e->file);
        int k = strcmp(ext, ".map") == 0 ? 0 : strcmp(ext, ".pat") == 0 ? 1 : strcmp(ext, ".steer") == 0 ? 2
              : strcmp(ext, ".tmx") == 0 ? 3 : strcmp(ext, ".test") == 0 ? 4 : -1;
        if (strcmp(ext, ".rec") == 0) continue; /* the command's recordings: tests/check_cli_check.c */
        if (strcmp(ext, ".txt") == 0) continue; /* the command's level lists: tests/check_play_levels.c */
        char path[PT_MAX_PATH];
        bad_path(path, sizeof path, e);
        pt_error err;
        int rc = k < 0 ? PT_OK : load_any(path, &err);
        if (k >= 0) kinds[k]++;
        int ok = k >= 0 && rc < 0 && rc == err.code && strcmp(pt_code_name(rc), e->code) == 0 && err.line == e->line &&
                 err.col == e->col;
        /* The error names its file (the input itself: none of these is in a .tsx). */
        if (ok) ok = strcmp(err.file, path) == 0;
        if (!ok) {
            failures++;
            int n = snprintf(report + used, sizeof report - used, "\n  %s: expected %s %d:%d, got %s %d:%d (%s)", e->file,
                             e->code, e->line, e->col, k < 0 ? "no loader for the extension" : pt_code_name(rc),
                             k < 0 ? 0 : err.line, k < 0 ? 0 : err.col, k < 0 ? "" : err.message);
            if (n > 0 && used + (size_t)n < sizeof report) used += (size_t)n;
        }
    }
    ck_assert_msg(failures == 0, "%d of %d bad files failed differently:%s", failures, g_nentries, report);
    /* every kind of input is covered */
    ck_assert_int_ge(kinds[0], 10);
    ck_assert_int_ge(kinds[1], 10);
    ck_assert_int_ge(kinds[2], 10);
    ck_assert_int_ge(kinds[3], 5);
    ck_assert_int_ge(kinds[4], 10);
}
END_TEST

START_TEST(every_file_in_the_folder_is_listed) {
    read_expect();
    DIR *d = opendir(BAD_DIR);
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    int files = 0;
    char unlisted[1024] = "";
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, "EXPECT") == 0) continue;
        files++;
        int found = 0;
        for (int i = 0; i < g_nentries && !found; i++) found = strcmp(g_entries[i].file, de->d_name) == 0;
        if (!found && strlen(unlisted) + strlen(de->d_name) + 2 < sizeof unlisted) {
            strcat(unlisted, " ");
            strcat(unlisted, de->d_name);
        }
    }
    closedir(d);
    ck_assert_msg(unlisted[0] == '\0', "files in tests/data/bad/ not listed in EXPECT (add them with their error):%s",
                  unlisted);
    ck_assert_int_eq(files, g_nentries); /* and every listed file exists */
}
END_TEST

/* ---- a failed load never loses data ---------------------------------------------------- */

static int patterns_equal(const pt_pattern *a, const pt_pattern *b) {
    if (memcmp(a, b, sizeof *a) != 0) return 0; /* same pointers, counts, fields */
    return 1;
}

/* Deep copy of what a library holds, to compare after a failed load. */
typedef struct lib_snapshot {
    int count;
    const pt_pattern *items[64];
    pt_pattern copy[64];
    pt_cell *cells[64];
} lib_snapshot;

static void snap_lib(lib_snapshot *s, const pt_patlib *lib) {
    ck_assert_int_le(lib->count, 64);
    s->count = lib->count;
    for (int i = 0; i < lib->count; i++) {
        s->items[i] = lib->items[i];
        s->copy[i] = *lib->items[i];
        size_t n = (size_t)lib->items[i]->ncells;
        s->cells[i] = n ? malloc(n * sizeof(pt_cell)) : NULL;
        if (n) memcpy(s->cells[i], lib->items[i]->cells, n * sizeof(pt_cell));
    }
}

static int lib_unchanged(lib_snapshot *s, const pt_patlib *lib) {
    int same = lib->count == s->count;
    for (int i = 0; same && i < s->count; i++) {
        same = lib->items[i] == s->items[i] && patterns_equal(lib->items[i], &s->copy[i]);
        size_t n = (size_t)s->copy[i].ncells;
        if (same && n) same = memcmp(lib->items[i]->cells, s->cells[i], n * sizeof(pt_cell)) == 0;
    }
    for (int i = 0; i < s->count; i++) free(s->cells[i]);
    return same;
}

static int all_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static int maps_equal(const pt_map *a, const pt_map *b) {
    if (a->w != b->w || a->h != b->h || a->nents != b->nents || a->nobstacles != b->nobstacles || a->nlegend != b->nlegend)
        return 0;
    size_t n = (size_t)a->w * (size_t)a->h;
    return memcmp(a->tiles, b->tiles, n) == 0 && memcmp(a->flags, b->flags, n) == 0 &&
           memcmp(a->legend, b->legend, sizeof a->legend) == 0 && memcmp(&a->player, &b->player, sizeof a->player) == 0 &&
           (a->nents == 0 || memcmp(a->ents, b->ents, sizeof *a->ents * (size_t)a->nents) == 0) &&
           (a->nobstacles == 0 || memcmp(a->obstacles, b->obstacles, sizeof *a->obstacles * (size_t)a->nobstacles) == 0) &&
           memcmp(a->pattern_files, b->pattern_files, sizeof a->pattern_files) == 0 &&
           strcmp(a->steering_file, b->steering_file) == 0 && strcmp(a->name, b->name) == 0 &&
           strcmp(a->path, b->path) == 0 && a->seed == b->seed && a->tile_px == b->tile_px && a->goal == b->goal;
}

START_TEST(failed_pattern_loads_leave_the_library_unchanged) {
    read_expect();
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, PATROL_SOURCE_DIR "/tests/data/patterns/basic.pat", &err), PT_OK);
    ck_assert_int_ge(lib.count, 3);
    int tried = 0, changed = 0;
    for (int i = 0; i < g_nentries; i++) {
        if (strcmp(ext_of(g_entries[i].file), ".pat") != 0) continue;
        char path[PT_MAX_PATH];
        bad_path(path, sizeof path, &g_entries[i]);
        lib_snapshot s;
        snap_lib(&s, &lib);
        int rc = pt_patlib_load(&lib, path, &err);
        if (rc >= 0 || !lib_unchanged(&s, &lib)) changed++;
        tried++;
    }
    /* a file whose first patterns are fine and a later one is not adds nothing either */
    static const char half[] = "pattern fine\n  kind path\n  points 1,1 4,1\nend\npattern broken\n  kind path\n";
    lib_snapshot s;
    snap_lib(&s, &lib);
    ck_assert_int_eq(pt_patlib_parse(&lib, half, sizeof half - 1, "half.pat", &err), PT_ERR_UNTERMINATED);
    ck_assert(lib_unchanged(&s, &lib));
    ck_assert_ptr_null(pt_patlib_find(&lib, "fine"));
    /* the library still works: a good file loads after all the failures */
    ck_assert_int_eq(pt_patlib_parse(&lib, half, 46, "half.pat", &err), PT_OK);
    ck_assert_ptr_nonnull(pt_patlib_find(&lib, "fine"));
    pt_patlib_fini(&lib);
    ck_assert_int_ge(tried, 10);
    ck_assert_int_eq(changed, 0);
}
END_TEST

START_TEST(failed_steer_loads_leave_the_file_unchanged) {
    read_expect();
    pt_steer_file f;
    pt_error err;
    pt_steer_file_init(&f);
    ck_assert_int_eq(pt_steer_file_load(&f, PATROL_SOURCE_DIR "/tests/data/steer/good.steer", &err), PT_OK);
    ck_assert_int_ge(f.count, 3);
    pt_steer_file before = f;
    pt_steer_set *sets = malloc(sizeof *sets * (size_t)f.count);
    memcpy(sets, f.sets, sizeof *sets * (size_t)f.count);
    pt_steer_params p_before, p_after;
    ck_assert_int_eq(pt_steer_file_params(&f, "hound_7", "hound", &p_before), PT_OK);
    int tried = 0, changed = 0;
    for (int i = 0; i < g_nentries; i++) {
        if (strcmp(ext_of(g_entries[i].file), ".steer") != 0) continue;
        char path[PT_MAX_PATH];
        bad_path(path, sizeof path, &g_entries[i]);
        int rc = pt_steer_file_load(&f, path, &err);
        if (rc >= 0 || memcmp(&f, &before, sizeof f) != 0 || memcmp(f.sets, sets, sizeof *sets * (size_t)f.count) != 0)
            changed++;
        tried++;
    }
    ck_assert_int_eq(pt_steer_file_params(&f, "hound_7", "hound", &p_after), PT_OK);
    ck_assert(memcmp(&p_before, &p_after, sizeof p_before) == 0);
    free(sets);
    pt_steer_file_fini(&f);
    ck_assert_int_ge(tried, 10);
    ck_assert_int_eq(changed, 0);
}
END_TEST

START_TEST(failed_map_loads_lose_nothing) {
    read_expect();
    pt_map cur, snap;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_map_load(&cur, PATROL_SOURCE_DIR "/tests/data/patrns_missing_is_io.map", &err), PT_ERR_IO);
    ck_assert(all_zero(&cur, sizeof cur)); /* a failed load leaves its output zeroed: nothing to free */
    ck_assert_int_eq(pt_map_load(&cur, PATROL_SOURCE_DIR "/tests/data/patterns/yard.map", &err), PT_OK);
    ck_assert_int_eq(pt_map_clone(&snap, &cur), PT_OK);
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load(&lib, PATROL_SOURCE_DIR "/tests/data/patterns/basic.pat", &err), PT_OK);
    int tried = 0, bad = 0;
    for (int i = 0; i < g_nentries; i++) {
        const char *ext = ext_of(g_entries[i].file);
        if (strcmp(ext, ".map") != 0 && strcmp(ext, ".tmx") != 0) continue;
        char path[PT_MAX_PATH];
        bad_path(path, sizeof path, &g_entries[i]);
        pt_map next;
        memset(&next, 0xA5, sizeof next); /* whatever was there */
        lib_snapshot s;
        snap_lib(&s, &lib);
        int rc = strcmp(ext, ".tmx") == 0 ? pt_tmx_load(&next, &lib, path, &err) : pt_map_load(&next, path, &err);
        /* the reload target is zeroed, the map in use and the library (TMX routes) untouched */
        if (rc >= 0 || !all_zero(&next, sizeof next) || !maps_equal(&cur, &snap) || !lib_unchanged(&s, &lib)) bad++;
        tried++;
    }
    ck_assert_int_ge(tried, 20);
    ck_assert_int_eq(bad, 0);
    pt_patlib_fini(&lib);
    pt_map_fini(&snap);
    pt_map_fini(&cur);
}
END_TEST

/* ---- limits that need no file ---------------------------------------------------------- */

START_TEST(file_size_limit) {
    size_t n = (size_t)PT_MAX_FILE_BYTES + 1;
    char *big = malloc(n);
    ck_assert_ptr_nonnull(big);
    memset(big, '#', n);
    pt_error err;
    pt_map m;
    pt_patlib lib;
    pt_steer_file f;
    pt_patlib_init(&lib);
    pt_steer_file_init(&f);
    ck_assert_int_eq(pt_map_parse(&m, big, n, "big.map", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 0);
    ck_assert_int_eq(pt_patlib_parse(&lib, big, n, "big.pat", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_steer_file_parse(&f, big, n, "big.steer", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_tmx_parse(&m, &lib, big, n, "big.tmx", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(lib.count, 0);
    ck_assert_int_eq(f.count, 0);
    /* the same from a file on disk */
    char path[] = "/tmp/patrol_bigXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(big, 1, n, out), n);
    fclose(out);
    ck_assert_int_eq(pt_map_load(&m, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.file, path);
    remove(path);
    free(big);
}
END_TEST

START_TEST(path_length_limit) {
    /* A file name longer than PT_MAX_PATH - 1 is refused before anything is read: it would be
     * cut when stored (pattern->file, err.file) and then name another file. */
    char path[PT_MAX_PATH + 16];
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    pt_error err;
    pt_patlib lib;
    pt_steer_file f;
    pt_map m;
    pt_patlib_init(&lib);
    pt_steer_file_init(&f);
    ck_assert_int_eq(pt_patlib_load(&lib, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_patlib_parse(&lib, "", 0, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_steer_file_load(&f, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_map_load(&m, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(pt_tmx_load(&m, &lib, path, &err), PT_ERR_LIMIT);
    ck_assert_int_eq(lib.count, 0);
    /* one byte less is a valid (if absent) path */
    path[PT_MAX_PATH - 1] = '\0';
    ck_assert_int_eq(pt_patlib_load(&lib, path, &err), PT_ERR_IO);
}
END_TEST


/* Every loader refuses what is not a regular file, with PT_ERR_IO naming the file and no
 * line: a FIFO (used to block fopen() forever), a directory, a device, and a file of /proc
 * (regular by stat(), but made by the kernel as it is read: /proc/kmsg blocks). */
static void assert_refused(const char *path, const char *kind) {
    pt_error err;
    pt_patlib lib;
    pt_steer_file f;
    pt_map m;
    pt_patlib_init(&lib);
    pt_steer_file_init(&f);
    int rc[4] = {pt_patlib_load(&lib, path, &err), 0, 0, 0};
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, 0);
    ck_assert_msg(strstr(err.message, "not a regular file") && strstr(err.message, kind), "%s: %s", path, err.message);
    rc[1] = pt_steer_file_load(&f, path, &err);
    rc[2] = pt_map_load(&m, path, &err);
    rc[3] = pt_tmx_load(&m, &lib, path, &err);
    for (int i = 0; i < 4; i++) ck_assert_msg(rc[i] == PT_ERR_IO, "%s: loader %d: %s", path, i, pt_code_name(rc[i]));
    ck_assert_int_eq(lib.count, 0);
    ck_assert_int_eq(f.count, 0);
    pt_error_clear(&err);
    ck_assert_ptr_null(pt_file_open(path, &err));
    ck_assert_int_eq(err.code, PT_ERR_IO);
    ck_assert_ptr_null(pt_file_open(path, NULL));
}

START_TEST(only_regular_files_are_read) {
    char dir[] = "/tmp/patrol_fifoXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/p.pat", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    assert_refused(fifo, "FIFO");
    assert_refused(dir, "directory");
    assert_refused("/dev/null", "device");
    if (access("/proc/self/status", R_OK) == 0) assert_refused("/proc/self/status", "procfs");
    remove(fifo);
    remove(dir);
}
END_TEST

/* The same refusal when a map names the file: at the map's line, on the file name. */
START_TEST(named_special_files_are_located) {
    char dir[] = "/tmp/patrol_fifoXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char fifo[64], map_path[64];
    snprintf(fifo, sizeof fifo, "%s/p.pat", dir);
    snprintf(map_path, sizeof map_path, "%s/m.map", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    static const char text[] = "player at=1,1\n"
                               "patterns p.pat\n"
                               "steering  /proc/self/status\n"
                               "grid\n###\n#.#\n###\nend\n";
    pt_map m;
    pt_patlib lib;
    pt_steer_file f;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, sizeof text - 1, map_path, &err), PT_OK);
    pt_patlib_init(&lib);
    pt_steer_file_init(&f);
    ck_assert_int_eq(pt_patlib_load_map_file(&lib, &m, 0, &err), PT_ERR_IO);
    ck_assert_str_eq(err.file, map_path);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 10);
    ck_assert_msg(strstr(err.message, "not a regular file (a FIFO)") != NULL, "%s", err.message);
    if (access("/proc/self/status", R_OK) == 0) {
        ck_assert_int_eq(pt_steer_file_load_map(&f, &m, &err), PT_ERR_IO);
        ck_assert_str_eq(err.file, map_path);
        ck_assert_int_eq(err.line, 3);
        ck_assert_int_eq(err.col, 11);
        ck_assert_msg(strstr(err.message, "/proc/self/status") && strstr(err.message, "procfs"), "%s", err.message);
        ck_assert_int_eq(f.count, 0);
        /* a Tiled map naming it as its tileset: at the source attribute */
        static const char tmx[] = "<?xml version=\"1.0\"?>\n"
                                  "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" "
                                  "tileheight=\"16\">\n"
                                  " <tileset firstgid=\"1\" source=\"/proc/self/status\"/>\n"
                                  "</map>\n";
        pt_map t;
        ck_assert_int_eq(pt_tmx_parse(&t, &lib, tmx, sizeof tmx - 1, "t.tmx", &err), PT_ERR_IO);
        ck_assert_int_eq(err.line, 3);
        ck_assert_int_eq(err.col, 32);
        ck_assert_msg(strstr(err.message, "procfs") != NULL, "%s", err.message);
    }
    ck_assert_int_eq(lib.count, 0);
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
    remove(fifo);
    remove(dir);
}
END_TEST

/* A `patterns FILE` or `steering FILE` line whose file cannot be read is reported at that
 * line of the map (the value's column), saying which file; an error inside the file stays
 * in the file. */
START_TEST(named_files_that_cannot_be_read_are_located) {
    static const char text[] = "player at=1,1\n"
                               "patterns  gone.pat\n"
                               "steering 'gone.steer'\n"
                               "grid\n###\n#.#\n###\nend\n";
    pt_map m;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, sizeof text - 1, "/nonexistent/m.map", &err), PT_OK);
    pt_patlib_init(&lib);
    ck_assert_int_eq(pt_patlib_load_map_file(&lib, &m, 0, &err), PT_ERR_IO);
    ck_assert_str_eq(err.file, "/nonexistent/m.map");
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, 11);
    ck_assert_ptr_nonnull(strstr(err.message, "/nonexistent/gone.pat"));
    pt_steer_file f;
    pt_steer_file_init(&f);
    ck_assert_int_eq(pt_steer_file_load_map(&f, &m, &err), PT_ERR_IO);
    ck_assert_str_eq(err.file, "/nonexistent/m.map");
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 10);
    /* the world reports its steering file the same way */
    m.npattern_files = 0;
    ck_assert_ptr_null(pt_world_create(&m, &lib, NULL, &err));
    ck_assert_int_eq(err.code, PT_ERR_IO);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 10);
    pt_map_fini(&m);
    /* a bad file that opens keeps its own place */
    static const char bad[] = "player at=1,1\npatterns " PATROL_SOURCE_DIR "/tests/data/bad/pat_unknown_key.pat\n"
                              "grid\n###\n#.#\n###\nend\n";
    ck_assert_int_eq(pt_map_parse(&m, bad, sizeof bad - 1, "b.map", &err), PT_OK);
    ck_assert_int_lt(pt_patlib_load_map_file(&lib, &m, 0, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.file, "pat_unknown_key.pat"));
    pt_map_fini(&m);
    pt_patlib_fini(&lib);
}
END_TEST

/* A growing text buffer for generated inputs. */
typedef struct gbuf { char *s; size_t len, cap; } gbuf;

static void gb_printf(gbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gb_printf(gbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        ck_assert_ptr_nonnull(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

#define TMX_HEAD                                                                                                  \
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                                               \
    "<map version=\"1.10\" orientation=\"orthogonal\" width=\"3\" height=\"2\" tilewidth=\"16\" tileheight=\"16\" " \
    "infinite=\"0\">\n"
#define TMX_TILESET                                                                                               \
    "<tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"2\" columns=\"2\"><tile "     \
    "id=\"0\"><properties><property name=\"walkable\" type=\"bool\" value=\"true\"/></properties></tile></tileset>\n"
#define TMX_LAYER "<layer id=\"1\" name=\"g\" width=\"3\" height=\"2\"><data encoding=\"csv\">1,1,1,1,1,1</data></layer>\n"

/* Messages that say what to write: a key's range error names the key, the value and the
 * range the key takes (0 excluded where 0 would read as the default); a key written
 * key=value where a pattern line wants `key value` suggests the line. */
static void expect_message(int rc, int code, const pt_error *err, const char *want) {
    ck_assert_int_eq(rc, code);
    ck_assert_msg(strstr(err->message, want) != NULL, "'%s' lacks '%s'", err->message, want);
}

START_TEST(messages_name_the_key_and_its_range) {
    static const struct { const char *item, *want; } map_cases[] = {
        {"fov=400", "fov=400 is out of range: fov takes more than 0, up to 360"},
        {"fov=0", "fov=0 is out of range: fov takes more than 0, up to 360"},
        {"speed=0", "speed=0 is out of range: speed takes more than 0, up to 50"},
        {"heading=999", "heading=999 is out of range: heading takes -360 to 360"},
        {"view=-1", "view=-1 is out of range: view takes more than 0, up to 256"},
        {"memory=601", "memory=601 is out of range: memory takes more than 0, up to 600"},
    };
    pt_error err;
    for (size_t i = 0; i < sizeof map_cases / sizeof map_cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "player at=1,1\nguard g at=2,2 %s\ngrid\n#####\n#...#\n#...#\n#####\nend\n",
                 map_cases[i].item);
        pt_map m;
        expect_message(pt_map_parse(&m, text, strlen(text), "m.map", &err), PT_ERR_RANGE, &err, map_cases[i].want);
        ck_assert_int_eq(err.col, 16 + (int)(strchr(map_cases[i].item, '=') - map_cases[i].item) + 1); /* the value */
    }
    static const char flock[] = "player at=1,1\nflock f at=2,2 count=0\ngrid\n#####\n#...#\n#...#\n#####\nend\n";
    pt_map m;
    expect_message(pt_map_parse(&m, flock, strlen(flock), "m.map", &err), PT_ERR_RANGE, &err,
                   "count=0 is out of range: count takes 1 to 65536");
    static const char obstacle[] = "player at=1,1\nobstacle at=2,2 r=0\ngrid\n#####\n#...#\n#...#\n#####\nend\n";
    expect_message(pt_map_parse(&m, obstacle, strlen(obstacle), "m.map", &err), PT_ERR_RANGE, &err,
                   "r=0 is out of range: r takes more than 0, up to 4");
    pt_testfile tf;
    static const char test[] = "map m.map\ncaught within=0\n";
    expect_message(pt_testfile_parse(&tf, test, strlen(test), "t.test", &err), PT_ERR_RANGE, &err,
                   "within=0 is out of range: within takes 0.001 to 3600");
    pt_patlib lib;
    pt_patlib_init(&lib);
    static const char fire[] = "pattern t\n  kind thrust\n  fire port turn=200\nend\n";
    expect_message(pt_patlib_parse(&lib, fire, strlen(fire), "t.pat", &err), PT_ERR_RANGE, &err,
                   "turn=200 is out of range: turn takes more than 0, up to 180");
    static const char *const lines[][2] = {
        {"look=3s", "did you mean 'look 3s'?"},
        {"wait=2s", "did you mean 'wait 2s'?"},
        {"forward=3", "did you mean 'forward 3'?"},
        {"at_end=stop", "did you mean 'at_end stop'?"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "pattern c\n  kind control\n  forward 2\n  %s\nend\n", lines[i][0]);
        expect_message(pt_patlib_parse(&lib, text, strlen(text), "c.pat", &err), PT_ERR_UNKNOWN_KEY, &err, lines[i][1]);
        ck_assert_int_eq(err.line, 4);
        ck_assert_int_eq(err.col, 3);
    }
    /* In a path, a stop's keys go after a point, however the line writes them. */
    static const char *const path_lines[][2] = {
        {"look=3s", "a path stops at a point: write look after it (points 6,2 look=2s)"},
        {"look 3s", "a path stops at a point: write look after it (points 6,2 look=2s)"},
        {"wait=1s", "a path stops at a point: write wait after it (points 6,2 wait=1s)"},
    };
    for (size_t i = 0; i < sizeof path_lines / sizeof path_lines[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "pattern p\n  kind path\n  points 1,1 4,1\n  %s\nend\n", path_lines[i][0]);
        expect_message(pt_patlib_parse(&lib, text, strlen(text), "p.pat", &err), PT_ERR_UNKNOWN_KEY, &err, path_lines[i][1]);
        ck_assert_int_eq(err.line, 4);
        ck_assert_int_eq(err.col, 3);
    }
    /* A duration's range names both ends in ticks and seconds; a decimal without 's' is
     * taken for seconds written without their unit. */
    static const char *const durations[][2] = {
        {"wait 1.5", "a duration without 's' is whole ticks: did you mean '1.5s' (seconds)?"},
        {"look 2000s", "a duration takes 1 tick (1/60 s) to 100000 ticks (1666.67 s)"},
        {"wait 0.001s", "a duration takes 1 tick (1/60 s) to 100000 ticks (1666.67 s)"},
    };
    for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "pattern c\n  kind control\n  forward 2\n  %s\nend\n", durations[i][0]);
        int code = i == 0 ? PT_ERR_BAD_NUMBER : PT_ERR_RANGE;
        expect_message(pt_patlib_parse(&lib, text, strlen(text), "c.pat", &err), code, &err, durations[i][1]);
        ck_assert_int_eq(err.line, 4);
        ck_assert_int_eq(err.col, 8);
    }
    /* A Tiled map's property says the same (its value from the castle, changed). */
    FILE *f = fopen(PATROL_SOURCE_DIR "/tests/data/tmx/castle_csv.tmx", "rb");
    ck_assert_ptr_nonnull(f);
    static char tmx[1 << 16];
    size_t n = fread(tmx, 1, sizeof tmx - 1, f);
    fclose(f);
    tmx[n] = '\0';
    static const struct { const char *value, *want; } tmx_cases[] = {
        {"0", "property 'fov': fov=0 is out of range: fov takes more than 0, up to 360"},
        {"400", "property 'fov': fov=400 is out of range: fov takes more than 0, up to 360"},
    };
    for (size_t i = 0; i < sizeof tmx_cases / sizeof tmx_cases[0]; i++) {
        static char text[1 << 16];
        char *at = strstr(tmx, "name=\"fov\" type=\"float\" value=\"270\"");
        ck_assert_ptr_nonnull(at);
        int head = (int)(at - tmx) + (int)strlen("name=\"fov\" type=\"float\" value=\"");
        snprintf(text, sizeof text, "%.*s%s%s", head, tmx, tmx_cases[i].value, at + strlen("name=\"fov\" type=\"float\" value=\"270"));
        pt_patlib tlib;
        pt_patlib_init(&tlib);
        expect_message(pt_tmx_parse(&m, &tlib, text, strlen(text), PATROL_SOURCE_DIR "/tests/data/tmx/fov.tmx", &err),
                       PT_ERR_RANGE, &err, tmx_cases[i].want);
        pt_patlib_fini(&tlib);
    }
    static const char typo[] = "pattern c\n  kind control\n  loook=3s\nend\n"; /* not a key: the key list */
    expect_message(pt_patlib_parse(&lib, typo, strlen(typo), "c.pat", &err), PT_ERR_UNKNOWN_KEY, &err, "its keys:");
    pt_patlib_fini(&lib);
}
END_TEST

START_TEST(tmx_limits) {
    pt_map m;
    pt_error err;
    gbuf b = {0};
    /* 257 tilesets: at the 257th <tileset> (line 2 + 257) */
    gb_printf(&b, TMX_HEAD);
    for (int i = 0; i <= PT_TMX_MAX_TILESETS; i++)
        gb_printf(&b, "<tileset firstgid=\"%d\" name=\"t%d\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"1\" "
                      "columns=\"1\"><image source=\"x.png\" width=\"16\" height=\"16\"/></tileset>\n",
                  1 + i, i);
    gb_printf(&b, TMX_LAYER "</map>\n");
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "ts.tmx", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 2 + PT_TMX_MAX_TILESETS + 1);
    ck_assert_int_eq(err.col, 1);
    /* one less is fine (then the map has no player) */
    b.len = 0;
    gb_printf(&b, TMX_HEAD);
    for (int i = 0; i < PT_TMX_MAX_TILESETS; i++)
        gb_printf(&b, "<tileset firstgid=\"%d\" name=\"t%d\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"1\" "
                      "columns=\"1\"><image source=\"x.png\" width=\"16\" height=\"16\"/></tileset>\n",
                  1 + i, i);
    gb_printf(&b, TMX_LAYER "</map>\n");
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "ts.tmx", &err), PT_ERR_NO_PLAYER);

    /* a route of 4097 points: at the 4097th point of the points value */
    b.len = 0;
    gb_printf(&b, TMX_HEAD TMX_TILESET TMX_LAYER "<objectgroup id=\"2\">\n"
                  "<object id=\"1\" type=\"player\" x=\"8\" y=\"8\"><point/></object>\n"
                  "<object id=\"2\" name=\"r\" x=\"0\" y=\"0\"><polyline points=\"");
    size_t start = b.len, at = 0;
    for (int i = 0; i <= PT_MAX_PATTERN_VERTS; i++) {
        if (i == PT_MAX_PATTERN_VERTS) at = b.len;
        gb_printf(&b, "%s%d,0", i ? " " : "", i % 2 ? 16 : 0);
    }
    gb_printf(&b, "\"/></object>\n</objectgroup>\n</map>\n");
    size_t line_start = start;
    while (line_start > 0 && b.s[line_start - 1] != '\n') line_start--;
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "route.tmx", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 7);
    ck_assert_int_eq(err.col, (int)(at - line_start) + 2); /* just past the blank before it */

    /* 262145 objects: at the first one over (one per line, after 5 lines of header) */
    b.len = 0;
    gb_printf(&b, TMX_HEAD TMX_TILESET TMX_LAYER "<objectgroup id=\"2\">\n");
    for (int i = 0; i <= PT_TMX_MAX_OBJECTS; i++) gb_printf(&b, "<object id=\"%d\" x=\"8\" y=\"8\"/>\n", i + 1);
    gb_printf(&b, "</objectgroup>\n</map>\n");
    ck_assert_int_eq(pt_tmx_parse(&m, NULL, b.s, b.len, "objects.tmx", &err), PT_ERR_LIMIT);
    ck_assert_int_eq(err.line, 5 + PT_TMX_MAX_OBJECTS + 1);
    free(b.s);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("bad_files");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_bad_file_fails_where_expected);
    tcase_add_test(tc, every_file_in_the_folder_is_listed);
    suite_add_tcase(s, tc);
    tc = tcase_create("reload");
    tcase_add_test(tc, failed_pattern_loads_leave_the_library_unchanged);
    tcase_add_test(tc, failed_steer_loads_leave_the_file_unchanged);
    tcase_add_test(tc, failed_map_loads_lose_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, file_size_limit);
    tcase_add_test(tc, path_length_limit);
    tcase_add_test(tc, tmx_limits);
    tcase_add_test(tc, messages_name_the_key_and_its_range);
    tcase_add_test(tc, only_regular_files_are_read);
    tcase_add_test(tc, named_special_files_are_located);
    tcase_add_test(tc, named_files_that_cannot_be_read_are_located);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
