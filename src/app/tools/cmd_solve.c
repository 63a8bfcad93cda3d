/* SPDX-License-Identifier: Zlib */
/* patrol solve MAP: a route to the goal no guard sees, as a player pattern (patrol/solve.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#include <patrol/solve.h>
#include <patrol/world.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/app.h"
#include "common/cli.h"
#include "common/load.h"

static void help(FILE *out) {
    fprintf(out,
            "usage: patrol solve MAP [--max-time S] [--seed S] [--seeds N] [--margin T] [--margin-time S] [--gait G]\n"
            "                        [--out FILE.pat] [--name NAME] [--leave-after N] [--no-window] [-q]\n\n"
            "Finds a route from the player's start to a goal tile on which no guard ever has the\n"
            "player in view, and prints it as a player pattern (kind control: heading, steps, turns,\n"
            "waits) with its figures as '#' comment lines, so the whole output is a .pat file.\n"
            "Replay it with: patrol sim MAP --ticks DURATION --player-pattern FILE.pat:NAME\n"
            "No guard hears it either: its footsteps (in the gait it takes: walk, sneak or run, the\n"
            "earliest) and the animals it would startle are checked against the guards' hearing.\n"
            "  --max-time S   the horizon in seconds: the goal must be reached by then, 0.1..%d\n"
            "                 (default %d). Memory grows with it (docs/solve.md)\n"
            "  --seed S       the guards' seed, 0..2^64-1 (default: the map's seed, or 1)\n"
            "  --seeds N      a route that holds for seeds S..S+N-1, 1..100000 (default 1); when none\n"
            "                 holds for all, the route for seed S and for how many seeds it holds\n"
            "  --margin T     also keep more than T tiles (0..64, fractions too: 1.5) away from every\n"
            "                 cell a guard sees (default 0)\n"
            "  --gait G       the route's gait: any (default: the earliest arrival), walk, sneak, run\n"
            "  --margin-time S  no cell of the route is seen within S seconds (0..%d) before or after\n"
            "                 the player stands on it (default 0: only not while it does)\n"
            "  --out FILE     write the pattern to FILE instead of stdout (figures stay on stdout)\n"
            "  --name NAME    the pattern's name (default: solved)\n"
            "  --leave-after N  no step off the start before tick N, 0..%d (default 0: whenever)\n"
            "  --no-window    skip the start window (every tick the player can leave the start on\n"
            "                 and still get through, in any gait: each gait's search runs to the\n"
            "                 horizon and back, 10x the time or more)\n"
            "  -q, --quiet    print the pattern only (no start window)\n"
            "exit status: 0 a route, 1 no route (the '# why:' line says why; with -q on stderr) or a bad\n"
            "map, 2 usage error\n",
            PT_SOLVE_MAX_TICKS / 60, PT_SOLVE_DEFAULT_MAX_TICKS / 60, PT_SOLVE_MARGIN_CAP / 60, PT_SOLVE_MAX_TICKS);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct progress { double start, last; int shown, tty; } progress;

static void on_progress(void *user, const char *stage, double done) {
    progress *p = user;
    if (!p->tty) return;
    double now = now_seconds();
    if (now - p->start < 1.0 || now - p->last < 0.1) return;
    if (strcmp(stage, "sight") == 0) stage = "sight and hearing tables";
    else if (strcmp(stage, "seeds") == 0) stage = "the route under each seed";
    fprintf(stderr, "\rsolve: %s: %3d%%%-8s", stage, (int)(done * 100.0), "");
    p->last = now;
    p->shown = 1;
}

/* Why r found no route, as the '# why:' line says it. */
static void no_route_why(const pt_solve_result *r, char *buf, size_t n) {
    switch (r->why) {
    case PT_SOLVE_WHY_UNREACHABLE:
        snprintf(buf, n, "no goal tile can be walked to from the start %d,%d", r->start_x, r->start_y);
        break;
    case PT_SOLVE_WHY_SEEN_AT_START:
        snprintf(buf, n, "a guard sees the player on the start %d,%d on tick 1", r->start_x, r->start_y);
        break;
    case PT_SOLVE_WHY_ANIMAL_AT_START:
        snprintf(buf, n, "the player on the start %d,%d startles an animal on tick 1", r->start_x, r->start_y);
        break;
    case PT_SOLVE_WHY_MARGIN_AT_START:
        snprintf(buf, n, "the start %d,%d is inside the margin asked for on tick 1", r->start_x, r->start_y);
        break;
    default:
        if (r->max_ticks < PT_SOLVE_MAX_TICKS / 60 * 60) /* below the longest --max-time (1666 s) */
            snprintf(buf, n, "none reaches a goal tile unseen and unheard within the horizon: a longer --max-time may find one");
        else
            snprintf(buf, n, "none reaches a goal tile unseen and unheard within the horizon (the longest)");
    }
}

static int name_ok(const char *s) {
    if (!*s || strlen(s) > 47) return 0;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("_-./", *c)))
            return 0;
    return 1;
}

int cmd_solve(int argc, char **argv) {
    const char *map_path = NULL, *out_path = NULL, *name = "solved";
    double max_time = PT_SOLVE_DEFAULT_MAX_TICKS / 60.0, margin_time = 0.0, margin = 0.0;
    uint64_t seed = 0;
    long nseeds = 1, leave_after = 0;
    int quiet = 0, window = 1, gait = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) { help(stdout); return APP_EXIT_OK; }
        else if (strcmp(a, "--max-time") == 0) { if (!app_parse_double("solve", a, i + 1 < argc ? argv[++i] : NULL, 0.1, PT_SOLVE_MAX_TICKS / 60, &max_time)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--seed") == 0) { if (!app_parse_u64("solve", a, i + 1 < argc ? argv[++i] : NULL, &seed)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--seeds") == 0) { if (!app_parse_long("solve", a, i + 1 < argc ? argv[++i] : NULL, 1, 100000, &nseeds)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--margin") == 0) { if (!app_parse_double("solve", a, i + 1 < argc ? argv[++i] : NULL, 0, 64, &margin)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--gait") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            gait = -1;
            for (int g = 0; g < PT_GAIT_COUNT; g++)
                if (strcmp(v, pt_gait_name((pt_gait)g)) == 0) gait = g + 1;
            if (strcmp(v, "any") == 0) gait = 0;
            if (gait < 0) return app_usage_error("solve", "--gait '%s': any, walk, sneak or run", v);
        }
        else if (strcmp(a, "--margin-time") == 0) { if (!app_parse_double("solve", a, i + 1 < argc ? argv[++i] : NULL, 0, PT_SOLVE_MARGIN_CAP / 60, &margin_time)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) { if (i + 1 >= argc) return app_usage_error("solve", "%s needs a file name", a); out_path = argv[++i]; }
        else if (strcmp(a, "--name") == 0) {
            if (i + 1 >= argc) return app_usage_error("solve", "--name needs a pattern name");
            name = argv[++i];
            if (!name_ok(name)) return app_usage_error("solve", "--name '%s': letters, digits, _ - . / and at most 47 bytes", name);
        }
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) quiet = 1;
        else if (strcmp(a, "--no-window") == 0) window = 0;
        else if (strcmp(a, "--leave-after") == 0) { if (!app_parse_long("solve", a, i + 1 < argc ? argv[++i] : NULL, 0, PT_SOLVE_MAX_TICKS, &leave_after)) return APP_EXIT_USAGE; }
        else if (a[0] == '-' && a[1]) return app_usage_error("solve", "unknown option '%s'", a);
        else if (!map_path) map_path = a;
        else return app_usage_error("solve", "more than one map given ('%s')", a);
    }
    if (!map_path) return app_usage_error("solve", "no map given");

    pt_map map;
    pt_patlib lib;
    if (!app_load_map_and_patterns(map_path, &map, &lib)) return APP_EXIT_INPUT;
    progress pr = {now_seconds(), 0.0, 0, isatty(2)};
    pt_solve_opts o = {0};
    o.max_ticks = (int)(max_time * 60.0 + 0.5);
    if (o.max_ticks < 1) o.max_ticks = 1;
    o.seed = seed;
    o.nseeds = (int)nseeds;
    o.margin = margin;
    o.gait = gait;
    o.margin_ticks = (int)(margin_time * 60.0 + 0.5);
    o.window = window && !quiet;
    o.leave_after = (int)leave_after;
    o.progress = on_progress;
    o.progress_user = &pr;
    pt_solve_result r;
    pt_error err;
    double t0 = now_seconds();
    int rc = pt_solve(&map, &lib, &o, &r, &err);
    double secs = now_seconds() - t0;
    if (pr.shown) fprintf(stderr, "\r%*s\r", 60, "");
    int status = APP_EXIT_OK;
    if (rc != PT_OK) {
        if (err.file[0]) pt_error_print(stderr, &err);
        else fprintf(stderr, "%s: error: %s\n", map_path, err.message);
        status = APP_EXIT_INPUT;
        goto done;
    }
    uint64_t s0 = seed ? seed : (map.seed ? map.seed : 1);
    char why[200] = "";
    if (!r.found) no_route_why(&r, why, sizeof why);
    if (!r.found && quiet) fprintf(stderr, "patrol solve: %s: no route: %s\n", map_path, why);
    if (!quiet) {
        printf("# patrol solve %s: %s within %d tick%s (%.1f s), seed %llu", map_path,
               r.found ? "a route no guard sees or hears" : "no route", r.max_ticks, r.max_ticks == 1 ? "" : "s",
               r.max_ticks / 60.0, (unsigned long long)s0);
        if (nseeds > 1 && r.found && !r.all_seeds)
            printf(" alone (none holds for all of seeds %llu .. %llu)", (unsigned long long)s0,
                   (unsigned long long)(s0 + (uint64_t)nseeds - 1));
        else if (nseeds > 1) printf(" .. %llu", (unsigned long long)(s0 + (uint64_t)nseeds - 1));
        putchar('\n');
        if (!r.found) printf("# why: %s\n", why);
        if (margin > 0.0) printf("# keeping more than %g tiles away from every cell a guard sees\n", margin);
        if (o.margin_ticks > 1)
            printf("# keeping %d ticks (%.2f s) away from every tick a guard sees the cell\n", o.margin_ticks,
                   o.margin_ticks / 60.0);
        if (r.found) {
            printf("# duration: %d tick%s (%.2f s) from %d,%d to the goal at %d,%d\n", r.ticks, r.ticks == 1 ? "" : "s", r.ticks / 60.0,
                   r.start_x, r.start_y, r.goal_x, r.goal_y);
            if (r.first_move_tick < 0)
                printf("# start delay: none: the start is a goal tile (the goal on tick 1, no step taken)\n");
            else
                printf("# start delay: leaves the start on tick %d\n", r.first_move_tick);
            if (o.window && r.first_move_tick < 0) {
                printf("# start window: none to find: the player is on the goal from the start\n");
            } else if (o.window) {
                printf("# start window: %d tick%s to leave the start on and get through:", r.window_ticks,
                       r.window_ticks == 1 ? "" : "s");
                for (int i = 0; i < r.nspans; i++) {
                    if (r.spans[i].first == r.spans[i].last) printf(" %d", r.spans[i].first);
                    else printf(" %d..%d", r.spans[i].first, r.spans[i].last);
                }
                printf("%s\n", r.spans_more ? " ..." : "");
            }
            if (r.margin_tiles >= 0.0)
                printf("# margin: %d tick%s (its cells are seen no closer in time), %.2f tiles (the nearest seen cell)\n",
                       r.margin_ticks, r.margin_ticks == 1 ? "" : "s", r.margin_tiles);
            else
                printf("# margin: %d tick%s, no cell seen within 24 tiles\n", r.margin_ticks, r.margin_ticks == 1 ? "" : "s");
            if (nseeds > 1)
                printf("# seeds: %s: the route holds for %d of %ld\n",
                       r.all_seeds ? "searched against all together" : "none holds for all; this one is for the first",
                       r.seeds_ok, nseeds);
        }
        if (r.found)
            printf("# gait: %s (%.3g tiles/s)%s\n", pt_gait_name((pt_gait)r.gait), r.speed * pt_gait_speed((pt_gait)r.gait),
                   r.gait == PT_GAIT_WALK ? "" : ", set by the route's first action");
        if (r.gaits_left_out) {
            printf("# left out:");
            for (int g = 0, n = 0; g < PT_GAIT_COUNT; g++)
                if (r.gaits_left_out >> g & 1u) printf("%s %s", n++ ? "," : "", pt_gait_name((pt_gait)g));
            printf(": its step rhythm needs a search over the %ld MB limit (a shorter --max-time searches it)\n",
                   (long)(PT_SOLVE_MAX_BYTES >> 20));
        }
        if (r.why != PT_SOLVE_WHY_UNREACHABLE) /* no search was run */
            printf("# search: player %.3g tiles/s (step rhythm %d; %d classes), %lld states, %.1f MB, %.2f s\n", r.speed,
               r.rhythm, r.classes, r.nodes, (double)r.bytes / (1024.0 * 1024.0), secs);
    }
    if (!r.found) {
        status = APP_EXIT_INPUT;
        goto done;
    }
    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "patrol solve: error: cannot write %s: %s\n", out_path, strerror(errno));
        status = APP_EXIT_INPUT;
        goto done;
    }
    int failed = pt_solve_write_pattern(&r, out, name) < 0;
    if (out != stdout && fclose(out) != 0) failed = 1; /* closed even when the write failed */
    if (failed) {
        fprintf(stderr, "patrol solve: error: cannot write %s: %s\n", out_path ? out_path : "stdout", strerror(errno));
        status = APP_EXIT_INPUT;
    } else if (out_path && !quiet) {
        printf("# wrote %s: patrol sim %s --ticks %d --player-pattern %s:%s\n", out_path, map_path, r.ticks, out_path, name);
    }
done:
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return status;
}
