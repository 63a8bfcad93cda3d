/* SPDX-License-Identifier: Zlib */
/* patrol show FILE.pat - a preview of patterns for their authors: the cells a pattern walks,
 * a matrix's rows, or the pattern drawn over a map as text with its lint errors. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "common/app.h"
#include "common/cli.h"
#include <patrol/level.h>
#include "common/load.h"
#include "common/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <patrol/bresenham.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/tmx.h>
#include <patrol/world.h>

static void show_usage(FILE *out) {
    fprintf(out,
            "usage: patrol show FILE.pat [--pattern NAME] [--map MAP] [--origin X,Y] [--heading DEG] [--png FILE] [--watch]\n\n"
            "Previews patterns for their authors. Without --map:\n"
            "  path       its cells in walking order, one 'x,y' per line\n"
            "  matrix     its rows (1 = on, . = off)\n"
            "  control    the cells of one pass, one 'x,y' per line\n"
            "  thrust     the cells under the vehicle in one lap, one 'x,y' per line\n"
            "  waypoints  its points, one 'x,y' per line\n"
            "then a '# stop at X,Y: ...' line for each wait and look (and path gait change).\n"
            "With --map the map is printed as text with the pattern drawn over it (S the start,\n"
            "o a pattern cell, X a pattern cell that is not walkable, L a stop that looks, W a stop\n"
            "that waits), with column numbers above\n"
            "and row numbers on the left every 5 cells (10 on maps over 200 cells), and every lint\n"
            "error follows on stderr.\n\n"
            "options:\n"
            "  --pattern NAME  the pattern to show (default: every pattern of the file, each after\n"
            "                  a '# pattern NAME (kind)' line when there are several)\n"
            "  --map MAP       draw over this map; the pattern is placed where the first entity\n"
            "                  that uses it puts it\n"
            "  --origin X,Y    place the pattern's anchor (a path's first point, a matrix's start\n"
            "                  cell, a control/thrust pattern's start) here; default: the file's\n"
            "                  origin, else the coordinates as written (0,0 for control/thrust)\n"
            "  --heading DEG   initial heading of control/thrust patterns that give none (0 = east)\n"
            "  --png FILE      also draw the pattern(s) over MAP with the game's sprites into FILE\n"
            "                  (needs --map; the patterns overlay of patrol play, a guard at the start)\n"
            "  --watch         keep running: show it again (after a '# reloaded' line) whenever\n"
            "                  FILE, MAP or a file MAP names changes on disk (looked at every\n"
            "                  250 ms); stop it with Ctrl-C\n"
            "  -h, --help      show this help\n\n"
            "exit status: 0 shown, 1 the input has problems (errors printed), 2 usage error\n");
}

static char *read_text(const char *path, size_t *len) {
    FILE *f = pt_file_open(path, NULL);
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
        if (n == cap) {
            char *nb = cap < (size_t)64 << 20 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Every cell the pattern puts an entity on (placed), in order; *n = count. */
static pt_cell *pattern_cells(const pt_patrun *run, int *n) {
    int total = pt_patrun_cells(run, NULL, NULL, 0);
    pt_cell *cells = malloc(sizeof *cells * (size_t)(total > 0 ? total : 1));
    if (!cells) {
        *n = 0;
        return NULL;
    }
    *n = pt_patrun_cells(run, NULL, cells, total);
    return cells;
}

/* One '# ...' line per stop of the pattern (waits, looks, gait changes), after its cells. */
static void print_stops(const pt_patrun *run, const pt_map *map) {
    int n = pt_patrun_stops(run, map, NULL, 0);
    if (n <= 0) return;
    pt_pattern_stop *st = malloc(sizeof *st * (size_t)n);
    if (!st) return;
    n = pt_patrun_stops(run, map, st, n);
    for (int i = 0; i < n; i++) {
        const pt_look *lk = st[i].look;
        printf("# stop at %d,%d:", st[i].cell.x, st[i].cell.y);
        if (lk && lk->wait > 0) printf(" wait %g s (%d ticks)", (double)lk->wait / PT_PATTERN_TICK_HZ, lk->wait);
        if (lk && lk->look > 0) {
            printf("%s look %g s (%d ticks) from %g deg to", lk->wait > 0 ? "," : "", (double)lk->look / PT_PATTERN_TICK_HZ,
                   lk->look, pt_deg(st[i].heading));
            for (int k = 0; k < lk->nangles && k < PT_MAX_LOOK_ANGLES; k++) printf("%s %+g", k ? "," : "", lk->angles[k]);
            printf(" and back");
        }
        if (st[i].gait >= 0) printf("%s gait %s", lk ? "," : "", pt_gait_name((pt_gait)st[i].gait));
        putchar('\n');
    }
    free(st);
}

static void print_plain(const pt_pattern *p, const pt_patrun *run) {
    if (p->kind == PT_PAT_MATRIX) {
        for (int y = 0; y < p->mh; y++) {
            for (int x = 0; x < p->mw; x++) putchar(p->mat[(size_t)y * (size_t)p->mw + (size_t)x] ? '1' : '.');
            putchar('\n');
        }
        return;
    }
    if (p->kind == PT_PAT_WAYPOINTS) {
        for (int i = 0; i < pt_patrun_waypoint_count(run); i++) {
            pt_vec2 v = pt_patrun_waypoint(run, i);
            printf("%g,%g\n", v.x, v.y);
        }
        return;
    }
    int n = 0;
    pt_cell *cells = pattern_cells(run, &n);
    for (int i = 0; i < n; i++) printf("%d,%d\n", cells[i].x, cells[i].y);
    free(cells);
    print_stops(run, NULL);
}

/* A w x h grid of characters with coordinate rulers, so a designer can read a cell's x,y
 * without counting: above, the column numbers every `step` columns and a '|' under each;
 * on the left, the row number every `step` rows. Rows keep their characters unchanged
 * after a fixed-width margin. */
static void print_rulered(const char *grid, int w, int h) {
    int step = w > 200 || h > 200 ? 10 : 5;
    int margin = snprintf(NULL, 0, "%d", h > 0 ? h - 1 : 0) + 1;
    char *line = malloc((size_t)w + 16);
    if (!line) return;
    /* Numbers row: each label starts at its column and needs one blank before the next. */
    memset(line, ' ', (size_t)w + 15);
    int end = 0;
    for (int x = 0; x < w; x += step) {
        char num[16];
        int len = snprintf(num, sizeof num, "%d", x);
        if (x < end) continue;
        memcpy(line + x, num, (size_t)len);
        end = x + len + 1;
    }
    int used = end > w ? end - 1 : w;
    while (used > 0 && line[used - 1] == ' ') used--;
    printf("%*s%.*s\n", margin, "", used, line);
    for (int x = 0; x < w; x++) line[x] = x % step == 0 ? '|' : ' ';
    used = w;
    while (used > 0 && line[used - 1] == ' ') used--;
    printf("%*s%.*s\n", margin, "", used, line);
    free(line);
    for (int y = 0; y < h; y++) {
        if (y % step == 0) printf("%*d ", margin - 1, y);
        else printf("%*s", margin, "");
        fwrite(grid + (size_t)y * (size_t)w, 1, (size_t)w, stdout);
        putchar('\n');
    }
}

/* The map as text with the pattern over it; lint errors on stderr. Returns the error count. */
static int print_over_map(const pt_pattern *p, const pt_patrun *run, const pt_map *map, double heading,
                          const char *text, size_t text_len) {
    size_t ncell = (size_t)map->w * (size_t)map->h;
    char *grid = malloc(ncell ? ncell : 1);
    if (!grid) return 1;
    for (int y = 0; y < map->h; y++)
        for (int x = 0; x < map->w; x++) grid[(size_t)y * (size_t)map->w + (size_t)x] = pt_map_tile(map, x, y)->ch;
    int n = 0;
    pt_cell *cells = pattern_cells(run, &n);
    for (int i = 0; i < n; i++) {
        pt_cell c = cells[i];
        if (!pt_map_in(map, c.x, c.y)) continue;
        grid[(size_t)c.y * (size_t)map->w + (size_t)c.x] = pt_map_walkable(map, c.x, c.y) ? 'o' : 'X';
    }
    free(cells);
    int nstops = 0;
    pt_pattern_stop st[256];
    int total_stops = pt_patrun_stops(run, map, st, 256);
    for (int i = 0; i < total_stops && i < 256; i++) {
        pt_cell c = st[i].cell;
        if (!st[i].look || !pt_map_in(map, c.x, c.y) || !pt_map_walkable(map, c.x, c.y)) continue;
        grid[(size_t)c.y * (size_t)map->w + (size_t)c.x] = st[i].look->look > 0 ? 'L' : 'W';
        nstops++;
    }
    if (pt_map_in(map, run->x, run->y) && pt_map_walkable(map, run->x, run->y))
        grid[(size_t)run->y * (size_t)map->w + (size_t)run->x] = 'S';
    printf("# pattern %s (%s) placed at %d,%d on %s: S start, o pattern cell, X not walkable%s\n", p->name,
           pt_pattern_kind_name(p->kind), run->origin.x, run->origin.y, map->path[0] ? map->path : "the map",
           nstops ? ", L a stop that looks, W a stop that waits" : "");
    print_rulered(grid, map->w, map->h);
    free(grid);
    print_stops(run, map);

    enum { MAX_SHOWN = 50 };
    pt_error errs[MAX_SHOWN];
    int total = pt_pattern_lint(p, map, run->origin, heading, errs, MAX_SHOWN);
    for (int i = 0; i < total && i < MAX_SHOWN; i++) {
        if (text) pt_error_locate(&errs[i], p->file, text, text_len);
        pt_error_print(stderr, &errs[i]);
    }
    if (total > MAX_SHOWN) fprintf(stderr, "%s: %d more errors not shown\n", p->file, total - MAX_SHOWN);
    return total;
}

/* Strict "X,Y" with whole numbers. */
static int parse_cell(const char *s, pt_cell *out) {
    char *end = NULL;
    long x = strtol(s, &end, 10);
    if (end == s || *end != ',') return 0;
    const char *t = end + 1;
    long y = strtol(t, &end, 10);
    if (end == t || *end || x < -1000000 || x > 1000000 || y < -1000000 || y > 1000000) return 0;
    out->x = (int)x;
    out->y = (int)y;
    return 1;
}

typedef struct show_opts {
    const char *file, *name, *map_path, *png_path;
    pt_cell origin;
    int has_origin;
    double heading_deg;
} show_opts;

/* FILE is a map, not a pattern file: what to run instead, with the first pattern file the
 * map names when it names one (written to buf). */
static const char *map_given_hint(const char *file, char *buf, size_t cap) {
    const char *pat = "FILE.pat";
    pt_map *m = calloc(1, sizeof *m);
    int loaded = m && !pt_tmx_is_tmx(file) && pt_map_load(m, file, NULL) == PT_OK;
    char tidy[PT_MAX_PATH];
    if (loaded && m->npattern_files > 0) {
        /* "maps/../patterns/x.pat" (resolved beside the map) reads as "patterns/x.pat". */
        const char *p = m->pattern_files[0], *up = strstr(p, "/../");
        if (up && up > p && !memchr(p, '/', (size_t)(up - p)) && strncmp(p, "..", 2) != 0) p = up + 4;
        snprintf(tidy, sizeof tidy, "%s", p);
        pat = tidy;
    }
    snprintf(buf, cap, "to draw a pattern over this map: patrol show %.60s --map %.60s", pat, file);
    if (loaded) pt_map_fini(m);
    free(m);
    return buf;
}

/* One preview; w (NULL = not watching) gets the files it read. */
static int show_once(const show_opts *opt, app_watch *w) {
    const char *file = opt->file, *name = opt->name, *map_path = opt->map_path, *png_path = opt->png_path;
    pt_cell origin = opt->origin;
    int has_origin = opt->has_origin;
    double heading_deg = opt->heading_deg;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (w) {
        w->n = 0;
        app_watch_add(w, file);
        app_watch_add(w, map_path);
    }
    char hint[200];
    if (pt_level_expect_pattern(file, pt_file_is_map(file) ? map_given_hint(file, hint, sizeof hint) : NULL, &err) < 0 ||
        pt_patlib_load(&lib, file, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    const pt_pattern *only = NULL;
    if (name) {
        for (int i = 0; i < pt_patlib_count(&lib) && !only; i++)
            if (strcmp(pt_patlib_get(&lib, i)->name, name) == 0) only = pt_patlib_get(&lib, i);
        if (!only) {
            app_no_pattern_error("show", file, name, &lib);
            pt_patlib_fini(&lib);
            return APP_EXIT_INPUT;
        }
    }
    enum { MAX_PNG_ACTORS = 256 };
    static pt_actor actors[MAX_PNG_ACTORS];
    static pt_cell *cells_kept[MAX_PNG_ACTORS];
    static pt_patrun runs_kept[MAX_PNG_ACTORS];
    int nactors = 0;
    pt_map map;
    int have_map = 0;
    if (map_path) {
        /* The map with its own patterns (and a Tiled map's routes), refused as every command
         * refuses it; they go to a library of their own: not listed with FILE's. */
        pt_patlib routes;
        int rc = pt_level_load(map_path, &map, &routes, &err);
        if (rc == PT_OK) pt_patlib_fini(&routes);
        if (rc < 0) {
            pt_error_print(stderr, &err);
            pt_patlib_fini(&lib);
            return APP_EXIT_INPUT;
        }
        have_map = 1;
        if (w) {
            app_watch_map(w, &map);
            app_watch_add(w, file);
        }
    }
    size_t text_len = 0;
    char *text = have_map ? read_text(file, &text_len) : NULL;

    int problems = 0, count = pt_patlib_count(&lib);
    for (int i = 0; i < count; i++) {
        const pt_pattern *p = pt_patlib_get(&lib, i);
        if (only && p != only) continue;
        /* Placement: --origin, else the first entity of the map that uses it, else the
         * file's origin or the coordinates as written. */
        pt_cell o = pt_pattern_origin(p, NULL);
        double h = pt_rad(heading_deg);
        pt_cell start = o;
        if (has_origin) {
            o = start = origin;
        } else if (have_map) {
            const pt_entity_def *use = NULL;
            if (map.player.pattern[0] && pt_patlib_find(&lib, map.player.pattern) == p) use = &map.player;
            for (int k = 0; k < map.nents && !use; k++)
                if (map.ents[k].pattern[0] && pt_patlib_find(&lib, map.ents[k].pattern) == p) use = &map.ents[k];
            if (use) {
                o = pt_pattern_origin(p, use);
                start = (pt_cell){use->x, use->y};
                h = pt_rad(use->heading_deg);
            }
        }
        pt_patrun run;
        pt_patrun_init(&run, p, o, start, h, 1, 1);
        if (!only && count > 1 && !have_map) printf("# pattern %s (%s)\n", p->name, pt_pattern_kind_name(p->kind));
        if (have_map) problems += print_over_map(p, &run, &map, h, text, text_len);
        else print_plain(p, &run);
        if (png_path && nactors < MAX_PNG_ACTORS) {
            /* A guard at the start with the pattern as the patterns overlay draws it in play. */
            pt_actor *a = &actors[nactors++];
            int n = 0;
            a->kind = PT_KIND_GUARD;
            a->row = pt_render_row_for(PT_KIND_GUARD, PT_FLOCK_HOUND);
            a->x = run.x + 0.5;
            a->y = run.y + 0.5;
            a->heading = h;
            a->name = p->name;
            a->pattern = cells_kept[nactors - 1] = pattern_cells(&run, &n);
            a->pattern_len = n;
            a->pattern_matrix = p->kind == PT_PAT_MATRIX;
            runs_kept[nactors - 1] = run;
            a->pattern_run = &runs_kept[nactors - 1];
        }
    }
    if (png_path && have_map) {
        pt_scene scene = {.map = &map, .actors = actors, .nactors = nactors};
        pt_view view = {.scale = 1, .overlays = PT_OVERLAY_PATTERNS | PT_OVERLAY_LABELS};
        long w = 0, h = 0;
        pt_view_map_size(&map, 1, &w, &h);
        if (pt_render_png(&scene, &view, (int)w, (int)h, NULL, png_path, &err) < 0) {
            pt_error_print(stderr, &err);
            problems++;
        } else {
            fprintf(stderr, "patrol show: wrote %s (%ldx%ld pixels)\n", png_path, w, h);
        }
    }
    for (int i = 0; i < nactors; i++) free(cells_kept[i]);
    free(text);
    if (have_map) pt_map_fini(&map);
    pt_patlib_fini(&lib);
    return problems ? APP_EXIT_INPUT : APP_EXIT_OK;
}

int cmd_show(int argc, char **argv) {
    const char *file = NULL, *name = NULL, *map_path = NULL, *png_path = NULL;
    pt_cell origin = {0, 0};
    int has_origin = 0, watch = 0;
    double heading_deg = 0.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (app_is_help(a)) {
            show_usage(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--pattern") == 0) {
            if (!v) return app_usage_error("show", "--pattern needs a name");
            name = v;
            i++;
        } else if (strcmp(a, "--map") == 0) {
            if (!v) return app_usage_error("show", "--map needs a map file");
            map_path = v;
            i++;
        } else if (strcmp(a, "--origin") == 0) {
            if (!v || !parse_cell(v, &origin)) return app_usage_error("show", "--origin needs X,Y (whole numbers)");
            has_origin = 1;
            i++;
        } else if (strcmp(a, "--heading") == 0) {
            if (!app_parse_double("show", "--heading", v, -360.0, 360.0, &heading_deg)) return APP_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--png") == 0) {
            if (!v) return app_usage_error("show", "--png needs a file name");
            png_path = v;
            if (!app_png_path_ok("show", a, png_path)) return APP_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--watch") == 0) {
            watch = 1;
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("show", "unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            return app_usage_error("show", "one pattern file at a time ('%s' and '%s')", file, a);
        }
    }
    if (!file) return app_usage_error("show", "which pattern file? (patrol show FILE.pat)");
    if (png_path && !map_path) return app_usage_error("show", "--png needs --map MAP to draw on");

    show_opts o = {file, name, map_path, png_path, origin, has_origin, heading_deg};
    app_watch w = {0};
    int rc = show_once(&o, watch ? &w : NULL);
    if (!watch) return rc;
    /* Until interrupted: the preview again whenever a file it read changed. */
    for (;;) {
        fflush(stdout);
        fflush(stderr);
        struct timespec nap = {0, APP_WATCH_POLL_MS * 1000L * 1000L};
        nanosleep(&nap, NULL);
        if (!app_watch_changed(&w)) continue;
        printf("# reloaded\n");
        fprintf(stderr, "patrol show: reloaded %s\n", file);
        show_once(&o, &w);
    }
}
