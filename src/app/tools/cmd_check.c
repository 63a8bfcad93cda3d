/* SPDX-License-Identifier: Zlib */
/* patrol check FILE... - validates every kind of file the project reads, each as what it is;
 * prints every problem as a located error and keeps going so one run shows the problems of
 * every file. */
#include "common/app.h"
#include "common/cli.h"
#include <patrol/level.h>
#include "game/levels.h"
#include "common/load.h"
#include "common/rec.h"

#include <patrol/path.h>
#include "base/text.h" /* the level list's text, read as levels.c reads it */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/script.h>
#include <patrol/steer.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

#define CHECK_USAGE "usage: patrol check [-q] [--route F.pat:NAME]... FILE...\n"

enum { MAX_ROUTES = 16 };
typedef struct routes {
    const char *ref[MAX_ROUTES]; /* F.pat:NAME */
    int n;
} routes;

/* What every file's check shares: the options, and the maps named on the command line (a
 * test file's map that is one of them has its errors printed once, where it is checked). */
typedef struct check_ctx {
    int quiet;
    routes rt;
    char **maps;
    int nmaps;
} check_ctx;

static int is_map_kind(pt_file_kind k) { return k == PT_FILE_MAP || k == PT_FILE_TMX; }

/* A file whose check checks maps, on which --route lints its routes: a map, a level list. */
static int has_maps(pt_file_kind k) { return is_map_kind(k) || k == PT_FILE_LEVELS; }

static int map_is_checked(const char *map, void *user) {
    const check_ctx *c = user;
    for (int i = 0; i < c->nmaps; i++)
        if (pt__same_file(map, c->maps[i])) return 1;
    return 0;
}

static void check_usage(FILE *out) {
    fprintf(out, CHECK_USAGE "\n"
                 "Validates each file as what it is: maps (.map, Tiled .tmx; a map's pattern files\n"
                 "and steering file too, and its patterns linted as the world places them), Tiled\n"
                 "tilesets (.tsx), pattern files (.pat), steering files (.steer), test files (.test:\n"
                 "the map they name, and their guards, cells and routes against it), recordings\n"
                 "(.rec: checksum, and the map they name still the level recorded) and level lists\n"
                 "(maps/levels.txt: the list, then every level). A file with another name is\n"
                 "recognised by its first line. Each problem is reported as\n"
                 "FILE:LINE:COL: error: MESSAGE with the source line and a caret; each valid file\n"
                 "gets one line, e.g. 'maps/demo.map: ok (64x40, 20 entities, 10 patterns)'. A map\n"
                 "with no goal tile the player can reach, a goal tile that cannot be walked on, an\n"
                 "entity that starts off its pattern (named: the nearest cell of it, where the world\n"
                 "walks it), or lights and lanterns on a map whose ambient level is 1 (they light\n"
                 "nothing) gets a FILE:LINE:COL: warning: (the exit status stays 0).\n\n"
                 "A pattern file alone is checked for its syntax: --route lints a player route\n"
                 "against every map checked (each level of a level list too), as sim\n"
                 "--player-pattern and render --route walk it; its errors name the map.\n\n"
                 "options:\n"
                 "  -q, --quiet    no line for valid files (errors only)\n"
                 "  --route F.pat:NAME  lint this player route on every map checked, each level of a\n"
                 "                 level list too (repeatable)\n"
                 "  -h, --help     show this help\n\n"
                 "exit status: 0 all files valid, 1 a file has problems, 2 usage error\n");
}

/* A recording: its own syntax and checksum, then whether the map it names (with its files)
 * is still the level it was recorded on. Returns the number of problems printed. */
static int check_recording(const char *path, int quiet) {
    app_rec r;
    pt_error err;
    if (app_rec_load(&r, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    pt_map map;
    pt_patlib lib;
    int problems = 0;
    if (pt_level_load(r.map, &map, &lib, &err) < 0) {
        pt_error_print(stderr, &err);
        problems = 1;
    } else {
        if (app_rec_check_level(&r, &map, &err) < 0) {
            pt_error_print(stderr, &err);
            problems = 1;
        }
        pt_patlib_fini(&lib);
        pt_map_fini(&map);
    }
    if (!problems && !quiet)
        printf("%s: ok (%llu ticks on %s, seed %llu)\n", path, (unsigned long long)r.ticks, r.map,
               (unsigned long long)r.seed);
    app_rec_fini(&r);
    return problems;
}

/* A script alone: syntax only (its cells are checked against a map when sim or a .test file
 * applies it). Returns the number of problems printed. */
static int check_script_file(const char *path, int quiet) {
    pt_script s = {0};
    pt_error err;
    if (pt_script_load(&s, path, &err) < 0) {
        pt_error_print(stderr, &err);
        pt_script_fini(&s);
        return 1;
    }
    if (!quiet)
        printf("%s: ok (%d command%s%s)\n", path, s.count, s.count == 1 ? "" : "s",
               s.count ? "" : "; it changes nothing");
    pt_script_fini(&s);
    return 0;
}

/* A pattern file alone: syntax only. Returns the number of problems printed. */
static int check_pattern_file(const char *path, int quiet) {
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    int problems = pt_patlib_load(&lib, path, &err) < 0;
    if (problems) pt_error_print(stderr, &err);
    else if (!quiet) printf("%s: ok (%d pattern%s)\n", path, pt_patlib_count(&lib), pt_patlib_count(&lib) == 1 ? "" : "s");
    pt_patlib_fini(&lib);
    return problems;
}

static int check_steer_file(const char *path, int quiet) {
    pt_steer_file sf;
    pt_error err;
    pt_steer_file_init(&sf);
    int problems = pt_steer_file_load(&sf, path, &err) < 0;
    if (problems) pt_error_print(stderr, &err);
    else if (!quiet) printf("%s: ok (%d set%s)\n", path, sf.count, sf.count == 1 ? "" : "s");
    pt_steer_file_fini(&sf);
    return problems;
}

/* A tileset alone: read as a one-tile map's (pt_level_check_tileset). */
static int check_tileset(const char *path, int quiet) {
    pt_error err;
    if (pt_level_check_tileset(path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    if (!quiet) printf("%s: ok (Tiled tileset)\n", path);
    return 0;
}

/* A test file: its syntax, then its map (as every command loads one) and every name, cell
 * and route in it against that map. */
static int check_test_file(const char *path, check_ctx *c) {
    pt_testfile tf;
    pt_map map;
    pt_patlib lib;
    int quiet = c->quiet;
    if (!app_load_test_ex(path, &tf, &map, &lib, map_is_checked, c)) return 1;
    if (!quiet) printf("%s: ok (%d expectation%s on %s)\n", path, tf.count, tf.count == 1 ? "" : "s", tf.map_path);
    pt_testfile_fini(&tf);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return 0;
}


/* A lint error of a guard's pattern or a player route, which may sit in a pattern file
 * that several maps share: the message names the map it was placed on. */
static void print_on_map(pt_error *e, const char *map_path) {
    size_t len = strlen(e->message);
    snprintf(e->message + len, sizeof e->message - len, " on %s", map_path);
    pt_error_print(stderr, e);
}

/* A player route (--route) linted as the world walks it on the map (app_lint_route's lint),
 * each error naming the map. Returns how many. */
static int lint_route_on(const pt_pattern *route, const pt_map *map) {
    enum { MAX_SHOWN = 50 };
    pt_error errs[MAX_SHOWN];
    int total = pt_pattern_lint_route(route, map, errs, MAX_SHOWN);
    for (int i = 0; i < total && i < MAX_SHOWN; i++) print_on_map(&errs[i], map->path);
    if (total > MAX_SHOWN) fprintf(stderr, "%s: %d more problems not shown on %s\n", route->file, total - MAX_SHOWN, map->path);
    return total;
}

/* Prints what pt_level_check_map reports as check prints it: at most MAX_LINT_SHOWN lint
 * problems, then how many more there were (before what follows them, else at the end). */
enum { MAX_LINT_SHOWN = 50 };
typedef struct map_printer {
    const char *path;
    int lint, more_said;
} map_printer;

static void say_more(map_printer *mp) {
    if (mp->lint > MAX_LINT_SHOWN && !mp->more_said) {
        fprintf(stderr, "%s: %d more problems not shown\n", mp->path, mp->lint - MAX_LINT_SHOWN);
        mp->more_said = 1;
    }
}

static void print_problem(void *user, const pt_error *e, pt_level_problem kind) {
    map_printer *mp = user;
    if (kind == PT_LEVEL_LINT) {
        if (++mp->lint <= MAX_LINT_SHOWN) pt_error_print(stderr, e);
        return;
    }
    say_more(mp);
    if (kind == PT_LEVEL_WARNING) pt_warning_print(stderr, e);
    else pt_error_print(stderr, e);
}

/* A map (.map or Tiled .tmx): the map itself, every pattern file it names, every entity's
 * pattern linted against the map as the world places it, its warnings and its steering file
 * (pt_level_check_map); then the player routes of --route and the world. Every problem is
 * printed; returns how many. */
static int check_map(const char *path, check_ctx *c) {
    int quiet = c->quiet;
    const routes *rt = &c->rt;
    pt_map map;
    pt_patlib lib;
    pt_error err;
    map_printer mp = {path, 0, 0};
    int loaded;
    int problems = pt_level_check_map(path, &map, &lib, print_problem, &mp, &loaded);
    say_more(&mp);
    if (!loaded) return problems;
    /* Player routes (--route): each linted as the world walks it on this map. */
    for (int i = 0; i < rt->n; i++) {
        pt_patlib rlib;
        pt_patlib_init(&rlib);
        const pt_pattern *p = app_load_pattern_ref("check", rt->ref[i], &rlib);
        problems += p ? lint_route_on(p, &map) : 1;
        pt_patlib_fini(&rlib);
    }
    if (!problems) {
        /* Whatever else the world refuses (steering sets the file lacks, ...), located. The
         * entities are the world's, as sim counts them: the player and every flock member. */
        pt_world *w = pt_world_create(&map, &lib, NULL, &err);
        if (!w) {
            pt_error_print(stderr, &err);
            problems++;
        } else if (!quiet) {
            printf("%s: ok (%dx%d, %d entities, %d patterns)\n", path, map.w, map.h, pt_world_count(w),
                   pt_patlib_count(&lib));
        }
        pt_world_destroy(w);
    }
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return problems;
}

/* A level list (maps/levels.txt): its own lines as play reads them (app_levels_parse), then
 * every level checked as a map. A level that cannot be read, or has problems, is reported at
 * its line of the list too. Returns the number of problems printed. */
static int check_levels(const char *path, check_ctx *c) {
    pt__text t;
    pt_error err;
    if (pt__text_read(&t, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    app_levels l;
    if (app_levels_parse(&l, path, t.data, t.len, &err) < 0) {
        pt_error_print(stderr, &err);
        pt__text_free(&t);
        return 1;
    }
    int problems = 0;
    for (int i = 0; i < l.n; i++) {
        const app_level_item *it = &l.items[i];
        FILE *f = pt_file_open(it->path, &err);
        int readable = f != NULL, p = 1;
        if (f) {
            fclose(f);
            p = check_map(it->path, c);
        }
        if (!p) continue;
        problems += p;
        char why[PT_ERROR_MSG_MAX];
        snprintf(why, sizeof why, "%s", readable ? "has problems (above)" : err.message);
        pt_error_set(&err, readable ? PT_ERR_BAD_VALUE : PT_ERR_IO, it->line, 1, "level %d (%.200s) %s%.200s", i + 1,
                     it->path, readable ? "" : "cannot be read: ", why);
        pt_error_locate(&err, path, t.data, t.len);
        err.col = 1 + (int)strspn(err.source, " \t"); /* the path, after any blanks */
        pt_error_print(stderr, &err);
    }
    if (!problems && !c->quiet) printf("%s: ok (level list, %d level%s)\n", path, l.n, l.n == 1 ? "" : "s");
    app_levels_fini(&l);
    pt__text_free(&t);
    return problems;
}

int cmd_check(int argc, char **argv) {
    /* Options first (anywhere before `--`), then every file in order. */
    int nfiles = 0, nmaps = 0;
    check_ctx c = {0};
    routes rt = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (int j = i + 1; j < argc; j++) nmaps += has_maps(pt_file_kind_of(argv[j]));
            nfiles += argc - i - 1;
            break;
        }
        if (a[0] == '-' && a[1]) {
            if (app_is_help(a)) {
                check_usage(stdout);
                return APP_EXIT_OK;
            }
            if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
                c.quiet = 1;
                continue;
            }
            if (strcmp(a, "--route") == 0) {
                if (i + 1 >= argc) return app_usage_error("check", "--route needs F.pat:NAME");
                if (!app_pattern_ref_ok("check", argv[++i])) return APP_EXIT_USAGE;
                if (rt.n == MAX_ROUTES) return app_usage_error("check", "more than %d --route options", MAX_ROUTES);
                rt.ref[rt.n++] = argv[i];
                continue;
            }
            if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) continue; /* the ok lines: now the default */
            fprintf(stderr, CHECK_USAGE);
            return app_usage_error("check", "unknown option '%s'", a);
        }
        nfiles++;
        nmaps += has_maps(pt_file_kind_of(a));
    }
    if (!nfiles) {
        fprintf(stderr, CHECK_USAGE);
        return app_usage_error("check", "no files given");
    }
    if (rt.n && !nmaps) return app_usage_error("check", "--route lints a route on a map: name a map (.map, .tmx) or a level list to check");
    c.rt = rt;
    c.maps = calloc((size_t)argc, sizeof *c.maps);
    if (!c.maps) return app_usage_error("check", "out of memory");

    int bad = 0;
    for (int pass = 0; pass < 2; pass++) { /* the maps named, then every file in order */
        int options_done = 0;
        for (int i = 1; i < argc; i++) {
            const char *a = argv[i];
            if (!options_done && strcmp(a, "--") == 0) {
                options_done = 1;
                continue;
            }
            if (!options_done && strcmp(a, "--route") == 0) {
                i++;
                continue;
            }
            if (!options_done && a[0] == '-' && a[1]) continue;
            pt_file_kind k = pt_file_kind_of(a);
            if (pass == 0) {
                if (is_map_kind(k)) c.maps[c.nmaps++] = argv[i];
                continue;
            }
            int problems;
            switch (k) {
            case PT_FILE_PAT: problems = check_pattern_file(a, c.quiet); break;
            case PT_FILE_STEER: problems = check_steer_file(a, c.quiet); break;
            case PT_FILE_TSX: problems = check_tileset(a, c.quiet); break;
            case PT_FILE_TEST: problems = check_test_file(a, &c); break;
            case PT_FILE_REC: problems = check_recording(a, c.quiet); break;
            case PT_FILE_SCRIPT: problems = check_script_file(a, c.quiet); break;
            case PT_FILE_LEVELS: problems = check_levels(a, &c); break;
            default: problems = check_map(a, &c); break;
            }
            bad += problems > 0;
        }
    }
    free(c.maps);
    return bad ? APP_EXIT_INPUT : APP_EXIT_OK;
}
