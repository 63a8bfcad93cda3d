/* SPDX-License-Identifier: Zlib */
/* patrol sim MAP --ticks N: the world run headless (no window, no SDL), its summary, trace
 * and events; with --replay a recording played again, with --walkthrough a level's
 * walkthrough played through the game's keys (game/replay.c, game/walkthrough.c). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#include <patrol/script.h>
#include <patrol/save.h>
#include <patrol/world.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/text.h" /* pt__file_read */
#include "common/app.h"
#include "common/cli.h"
#include "common/load.h"
#include "game/play.h"
#include "game/replay.h"
#include "game/walkthrough.h"

static void sim_help(FILE *out) {
    fprintf(out,
            "usage: patrol sim MAP --ticks N [--seed S] [--threads K] [--trace FILE.csv] [--player-pattern FILE.pat:NAME]\n"
            "                  [--script FILE.script]\n"
            "                  [--save-at T --save FILE.sav]\n"
            "       patrol sim [MAP] --load FILE.sav --ticks N [--threads K] [--trace FILE.csv] [--save-at T --save F]\n"
            "                  [--script FILE.script]\n"
            "       patrol sim [MAP] --replay F.rec [--ticks N] [--trace FILE.csv] [-v]\n"
            "       patrol sim MAP --walkthrough FILE.md [--first S] [--shift S] [--late S] [--hesitate S] [-v]\n\n"
            "Runs MAP headless for N fixed ticks (60 per second) and prints a one-line summary.\n"
            "  --ticks N                 ticks to run (required, 0..1e9)\n"
            "  --seed S                  world seed, 0..2^64-1 (default: the map's seed, or 1)\n"
            "  --threads K               threads stepping the flocks, 1..16 (default 1); the same trace\n"
            "  --trace FILE.csv          write every entity on every tick as CSV ('-' = stdout):\n"
            "                            tick,id,kind,state,x,y,px,py,heading\n"
            "  --player-pattern F:NAME   move the player along pattern NAME of file F\n"
            "                            (default: the map's player pattern, else it stands still)\n"
"  --script FILE.script      timed world commands, one a line: 'at T tile X,Y C', 'at T player X,Y',\n"
            "                            'at T noise X,Y L', 'at T gait walk|sneak|run', 'at T door X,Y\n"
            "                            open|closed|locked', 'at T spawn guard|prey|flock NAME KEY=VALUE...',\n"
            "                            'at T remove NAME', 'at T order NAME goto X,Y|investigate X,Y|hold|resume'\n"
            "                            (T in ticks, or seconds as 1.5s); 'at T' applies after T ticks, before\n"
            "                            the step of tick T+1\n"
            "                            (docs/formats.md, \"Scripts\"); a command the world refuses stops the\n"
            "                            run with its located error (exit 1)\n"
            "  --save-at T --save F.sav  write the world to F.sav after tick T (0 = before the first;\n"
            "                            the run goes on to N); a save holds the map's and the player\n"
            "                            pattern's paths as given, to be found again by --load\n"
            "  --load F.sav              go on from a save: the world as it was after its tick T, for N\n"
            "                            more ticks (the trace's rows continue with tick T+1). The map\n"
            "                            and player pattern are those the save names (MAP: another path\n"
            "                            to the same map), the seed the saved one; with --save-at, T is\n"
            "                            a tick of the loaded world (T+1 .. T+N). A save does not hold the\n"
            "                            first run's --script: give it again (its commands before T skipped)\n"
            "  -v, --verbose             list every event as it happens: 'tick T KIND NAME... at X,Y'\n"
            "                            (caught GUARD PLAYER, spotted/lost/returned GUARD, goal PLAYER,\n"
            "                            heard GUARD at X,Y level L: the noise's place and its loudness\n"
            "                            left at the guard; called GUARD OTHER at X,Y: a guard's call\n"
            "                            reached OTHER, passing on the player's last known position;\n"
            "                            phase P (was Q) [for S s]: the world's alert phase changed;\n"
            "                            S to 0.1 s, under 0.05 s to 0.001 s); with --replay too\n"
            "  -q, --quiet               no summary\n"
            "  --replay F.rec            replay a recording of 'patrol play --record' (MAP and --ticks\n"
            "                            optional: default the recorded map and every recorded tick)\n"
            "The summary is one line of counts, then 'caught by GUARD at tick T (S s)' for each of\n"
            "the first 10 catches. A catch is recorded and the player starts again from the start;\n"
            "the run goes on. On a terminal, a run longer than a second shows its progress.\n"
            "With --replay the summary is 'F.rec: replayed N of M ticks on MAP, ...', then the\n"
            "round's end as play printed it, on the clock that starts at the first move or stone:\n"
            "  escaped \"TITLE\" in 41.25 s\n"
            "  caught \"TITLE\" by NAME after 12.30 s\n"
            "  unfinished \"TITLE\" after 8.00 s     (the recording, or --ticks, ends first)\n"
            "  --walkthrough FILE.md     play the level's walkthrough (its \"### N. TITLE\" section under\n"
            "                            \"## Walkthroughs\", TITLE the map's title) through the game's keys,\n"
            "                            then print the round's end as --replay does. Its timing, in\n"
            "                            seconds (rounded to ticks): --first S the first key S after the\n"
            "                            start (default 0); --shift S the first clock wait left S late\n"
            "                            (negative: early); --late S every later clock wait S late (or early);\n"
            "                            --hesitate S no key for S before every step after the first\n");
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_tick_events(void *out, const pt_world *w) {
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = 0; k < n; k++)
        if ((unsigned)ev[k].kind < PT_EVENT_COUNT) app_sim_print_event(out, w, &ev[k]);
}

/* --walkthrough: the level's walkthrough played through the session's keys. */
static int sim_walkthrough(const char *map_path, const char *doc, const double timing[4], long ticks, int quiet,
                           int verbose) {
    play_session s;
    pt_error err;
    if (play_open(&s, map_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    const char *title = s.level->map.name[0] ? s.level->map.name : map_path;
    walk_route *r = malloc(sizeof *r);
    if (!r) {
        play_close(&s);
        fprintf(stderr, "patrol sim: error: out of memory\n");
        return APP_EXIT_INPUT;
    }
    if (walk_load(r, doc, title, &err) < 0) {
        pt_error_print(stderr, &err);
        free(r);
        play_close(&s);
        return APP_EXIT_INPUT;
    }
    const double tps = 1.0 / pt_world_dt(s.world);
    walk_opts o = {(int)lround(timing[0] * tps), (int)lround(timing[1] * tps), (int)lround(timing[2] * tps),
                   (int)lround(timing[3] * tps), ticks > 0 ? ticks : 0, verbose ? print_tick_events : NULL, stdout};
    walk_result res;
    walk_play(&s, r, &o, &res);
    if (!quiet) {
        const pt_entity *pl = pt_world_entity(s.world, 0);
        printf("%s: walkthrough of %s, %d of %d steps, %llu ticks; player %d,%d; spotted %d%s%s\n", map_path, doc,
               res.steps_done, r->n, (unsigned long long)res.ticks, pl->x, pl->y, s.spotted,
               res.behind ? "; a clock wait came too late" : "", res.blocked ? "; a walk ran into a wall" : "");
        app_round_line(stdout, title, res.round, s.caught_by, res.clock);
        fputc('\n', stdout);
    }
    free(r);
    play_close(&s);
    return APP_EXIT_OK;
}

/* The whole of a save file (its size in *size), or NULL with the error printed. */
static unsigned char *read_save(const char *path, size_t *size) {
    pt_error err;
    char *buf;
    if (pt__file_read(path, (size_t)1 << 33, &buf, size, &err) < 0) {
        pt_error_print(stderr, &err);
        return NULL;
    }
    return (unsigned char *)buf;
}

/* The value of line `key VALUE` of a save's source text, copied to out; 0 when none. */
static int source_line(const char *src, const char *key, char *out, size_t cap) {
    size_t k = strlen(key);
    for (const char *l = src; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, key, k) != 0 || l[k] != ' ') continue;
        const char *v = l + k + 1, *e = strchr(v, '\n');
        size_t n = e ? (size_t)(e - v) : strlen(v);
        if (n >= cap) n = cap - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        return 1;
    }
    return 0;
}

int cmd_sim(int argc, char **argv) {
    const char *script_path = NULL; /* --script */
    const char *map_path = NULL, *trace_path = NULL, *player_ref = NULL, *replay = NULL, *walkthrough = NULL;
    double timing[4] = {0, 0, 0, 0}; /* --first, --shift, --late, --hesitate */
    static const char *const timing_opt[4] = {"--first", "--shift", "--late", "--hesitate"};
    int timing_given = 0;
    long ticks = -1;
    uint64_t seed = 0;
    int quiet = 0, verbose = 0;
    long threads = 1, save_at = -1;
    const char *save_path = NULL, *load_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) { sim_help(stdout); return APP_EXIT_OK; }
        else if (strcmp(a, "--ticks") == 0) { if (!app_parse_long("sim", a, i + 1 < argc ? argv[++i] : NULL, 0, 1000000000L, &ticks)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--seed") == 0) { if (!app_parse_u64("sim", a, i + 1 < argc ? argv[++i] : NULL, &seed)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--threads") == 0) { if (!app_parse_long("sim", a, i + 1 < argc ? argv[++i] : NULL, 1, 16, &threads)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--trace") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--trace needs a file"); trace_path = argv[++i]; }
        else if (strcmp(a, "--player-pattern") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--player-pattern needs FILE.pat:NAME"); player_ref = argv[++i]; if (!app_pattern_ref_ok("sim", player_ref)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--script") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--script needs a file (docs/formats.md, Scripts)"); script_path = argv[++i]; }
        else if (strcmp(a, "--save-at") == 0) { if (!app_parse_long("sim", a, i + 1 < argc ? argv[++i] : NULL, 0, 2000000000L, &save_at)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--save") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--save needs a file"); save_path = argv[++i]; }
        else if (strcmp(a, "--load") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--load needs a save (F.sav)"); load_path = argv[++i]; }
        else if (strcmp(a, "--replay") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--replay needs a recording (F.rec)"); replay = argv[++i]; }
        else if (strcmp(a, "--walkthrough") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--walkthrough needs a file (docs/playing.md)"); walkthrough = argv[++i]; }
        else if (strcmp(a, "--first") == 0 || strcmp(a, "--shift") == 0 || strcmp(a, "--late") == 0 || strcmp(a, "--hesitate") == 0) {
            int k = 0;
            while (strcmp(a, timing_opt[k]) != 0) k++;
            if (!app_parse_double("sim", a, i + 1 < argc ? argv[++i] : NULL, k == 1 || k == 2 ? -60.0 : 0.0, 60.0, &timing[k])) return APP_EXIT_USAGE;
            timing_given = 1;
        }
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) quiet = 1;
        else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) verbose = 1;
        else if (a[0] == '-' && a[1]) return app_usage_error("sim", "unknown option '%s'", a);
        else if (!map_path) map_path = a;
        else return app_usage_error("sim", "more than one map given ('%s')", a);
    }
    if (replay && (seed || player_ref))
        return app_usage_error("sim", "--replay plays the recorded seed and inputs (no --seed, --player-pattern)");
    if (timing_given && !walkthrough) return app_usage_error("sim", "--first, --shift, --late and --hesitate go with --walkthrough");
    if (walkthrough && (replay || seed || player_ref || trace_path))
        return app_usage_error("sim", "--walkthrough plays the map's own seed with the keys (no --replay, --seed, --player-pattern, --trace)");
    if (script_path && (replay || walkthrough)) return app_usage_error("sim", "--script goes with a map run (no --replay, --walkthrough)");
    if ((save_at >= 0) != (save_path != NULL)) return app_usage_error("sim", "--save-at T and --save FILE go together");
    if ((save_path || load_path) && (replay || walkthrough))
        return app_usage_error("sim", "--save, --save-at and --load go with a plain run (no --replay, --walkthrough)");
    if (load_path && (seed || player_ref))
        return app_usage_error("sim", "--load goes on with the saved seed and player pattern (no --seed, --player-pattern)");
    if (replay) return app_sim_replay(replay, map_path, ticks, trace_path, quiet, verbose);
    if (walkthrough) {
        if (!map_path) return app_usage_error("sim", "no map given");
        return sim_walkthrough(map_path, walkthrough, timing, ticks, quiet, verbose);
    }
    if (!map_path && !load_path) return app_usage_error("sim", "no map given");
    if (ticks < 0) return app_usage_error("sim", "--ticks N is required");
    if (!load_path && save_at > ticks)
        return app_usage_error("sim", "--save-at %ld is after the run's last tick (%ld)", save_at, ticks);

    /* --load: the save's source names the map and the player pattern. */
    static char src[65537], saved_map[4096], saved_ref[4096];
    unsigned char *saved = NULL;
    size_t saved_size = 0;
    pt_error err;
    if (load_path) {
        if (!(saved = read_save(load_path, &saved_size))) return APP_EXIT_INPUT;
        if (pt_save_source(saved, saved_size, src, sizeof src, &err) < 0) {
            snprintf(err.file, sizeof err.file, "%s", load_path);
            pt_error_print(stderr, &err);
            free(saved);
            return APP_EXIT_INPUT;
        }
        if (!map_path) {
            if (!source_line(src, "map", saved_map, sizeof saved_map)) {
                fprintf(stderr, "%s: error: the save names no map (give MAP)\n", load_path);
                free(saved);
                return APP_EXIT_INPUT;
            }
            map_path = saved_map;
        }
        if (source_line(src, "player-pattern", saved_ref, sizeof saved_ref)) player_ref = saved_ref;
    }

    pt_map map;
    pt_patlib lib;
    if (!app_load_map_and_patterns(map_path, &map, &lib)) {
        free(saved);
        return APP_EXIT_INPUT;
    }
    pt_world_desc desc = {0};
    desc.seed = seed;
    desc.threads = (int)threads;
    int status = APP_EXIT_OK;
    FILE *trace = NULL;
    pt_world *w = NULL;
    if (player_ref && (!(desc.player_pattern = app_load_pattern_ref("sim", player_ref, &lib)) ||
                       (!load_path && app_lint_route(desc.player_pattern, &map) > 0))) {
        status = APP_EXIT_INPUT;
        goto done;
    }
    uint64_t first_tick = 0;
    if (load_path) {
        w = pt_world_load(saved, saved_size, &map, &lib, &desc, &err);
        if (!w) {
            snprintf(err.file, sizeof err.file, "%s", load_path);
            pt_error_print(stderr, &err);
            status = APP_EXIT_INPUT;
            goto done;
        }
        first_tick = pt_world_tick(w);
        if (save_path && ((uint64_t)save_at < first_tick || (uint64_t)save_at > first_tick + (uint64_t)ticks)) {
            status = app_usage_error("sim", "--save-at %ld is outside the run's ticks (%llu..%llu)", save_at,
                                     (unsigned long long)first_tick, (unsigned long long)(first_tick + (uint64_t)ticks));
            goto done;
        }
        /* The rows go on from the save's: the header, then the ticks run here. */
        if (trace_path) {
            trace = strcmp(trace_path, "-") == 0 ? stdout : fopen(trace_path, "w");
            if (!trace) {
                fprintf(stderr, "patrol sim: error: cannot write %s: %s\n", trace_path, strerror(errno));
                status = APP_EXIT_INPUT;
                goto done;
            }
            pt_world_trace_header(trace);
        }
    } else {
        w = pt_world_create(&map, &lib, &desc, &err);
        if (!app_sim_start(w, &err, trace_path, &trace)) {
            status = APP_EXIT_INPUT;
            goto done;
        }
    }
    /* What --save stores for a later --load: the paths as given here. */
    char *source = NULL;
    size_t source_len = 0;
    if (save_path) {
        FILE *sf = open_memstream(&source, &source_len);
        if (!sf) {
            status = APP_EXIT_INPUT;
            goto done;
        }
        fprintf(sf, "map %s\n", map_path);
        if (player_ref) fprintf(sf, "player-pattern %s\n", player_ref);
        fclose(sf);
    }
    FILE *out = trace == stdout ? stderr : stdout;
    /* --script: read and checked against the map; its commands due before each step. */
    pt_script script = {0};
    int script_at = 0;
    if (script_path && (pt_script_load(&script, script_path, &err) < 0 || pt_script_bind(&script, &map, &err) < 0)) {
        pt_error_print(stderr, &err);
        pt_script_fini(&script);
        status = APP_EXIT_INPUT;
        goto done;
    }
    long counts[PT_EVENT_COUNT] = {0}, alarms = 0;
    enum { MAX_CATCHES_SHOWN = 10 };
    struct { uint64_t tick; uint32_t guard; } catches[MAX_CATCHES_SHOWN];
    /* Progress only on a terminal, and only once the run has taken a second: short runs and
     * scripts see nothing but the summary. */
    int may_show = !quiet && isatty(2), shown = 0;
    double start = now_seconds(), last_shown = start;
    /* --load: the commands due before the loaded tick were applied by the run that saved. */
    while (script_path && load_path && script_at < script.count && script.cmds[script_at].tick < first_tick) script_at++;
    for (long t = 0; t <= ticks; t++) {
        if (save_path && pt_world_tick(w) == (uint64_t)save_at && pt_world_save_file(w, save_path, source, &err) < 0) {
            pt_error_print(stderr, &err);
            status = APP_EXIT_INPUT;
            break;
        }
        if (t == ticks) break;
        if (script_path && pt_script_apply(&script, &script_at, w, &err) < 0) {
            pt_error_print(stderr, &err);
            status = APP_EXIT_INPUT;
            break;
        }
        pt_world_step(w);
        int nev = 0;
        const pt_event *ev = pt_world_events(w, &nev);
        for (int k = 0; k < nev; k++) {
            if ((unsigned)ev[k].kind >= PT_EVENT_COUNT) continue;
            if (ev[k].kind == PT_EVENT_CAUGHT && counts[PT_EVENT_CAUGHT] < MAX_CATCHES_SHOWN) {
                catches[counts[PT_EVENT_CAUGHT]].tick = ev[k].tick;
                catches[counts[PT_EVENT_CAUGHT]].guard = ev[k].a;
            }
            counts[ev[k].kind]++;
            if (ev[k].kind == PT_EVENT_PHASE && ev[k].a == PT_PHASE_ALERT) alarms++;
            if (verbose) app_sim_print_event(out, w, &ev[k]);
        }
        if (trace) pt_world_trace_rows(w, trace);
        if (may_show && (t & 1023) == 1023) {
            double now = now_seconds();
            if (now - start >= 1.0 && now - last_shown >= 0.1) {
                fprintf(stderr, "\rsim: %3ld%% (tick %ld of %ld)", (t + 1) * 100 / ticks, t + 1, ticks);
                last_shown = now;
                shown = 1;
            }
        }
    }
    if (shown) fprintf(stderr, "\r%*s\r", 40, "");
    free(source);
    if (status != APP_EXIT_OK) goto done;
    if (!quiet) {
        int by_state[PT_STATE_COUNT] = {0};
        for (int i = 1; i < pt_world_count(w); i++)
            if (pt_world_entity(w, i)) by_state[pt_world_entity(w, i)->state]++; /* not a removed one */
        char from[4200];
        if (load_path) snprintf(from, sizeof from, "from %s at tick %llu", load_path, (unsigned long long)first_tick);
        else snprintf(from, sizeof from, "seed %llu", (unsigned long long)(seed ? seed : (map.seed ? map.seed : 1)));
        fprintf(out, "%s: %ld ticks (%.1f s), %s, %d entities; caught %ld, spotted %ld, lost %ld, returned %ld, goal %ld, "
                "heard %ld, called %ld, alarms %ld; now:",
                map_path, ticks, ticks * pt_world_dt(w), from,
                pt_world_count(w), counts[PT_EVENT_CAUGHT], counts[PT_EVENT_SPOTTED], counts[PT_EVENT_LOST],
                counts[PT_EVENT_RETURNED], counts[PT_EVENT_GOAL], counts[PT_EVENT_HEARD],
                counts[PT_EVENT_CALLED], alarms);
        for (int s = 0; s < PT_STATE_COUNT; s++)
            if (by_state[s]) fprintf(out, " %s %d", pt_state_name((pt_state)s), by_state[s]);
        fputc('\n', out);
        for (long i = 0; i < counts[PT_EVENT_CAUGHT] && i < MAX_CATCHES_SHOWN; i++)
            fprintf(out, "caught by %s at tick %llu (%.1f s)\n", app_sim_entity_name(w, catches[i].guard),
                    (unsigned long long)catches[i].tick, (double)catches[i].tick * pt_world_dt(w));
        if (counts[PT_EVENT_CAUGHT] > MAX_CATCHES_SHOWN)
            fprintf(out, "... and %ld more catches (-v lists every event)\n", counts[PT_EVENT_CAUGHT] - MAX_CATCHES_SHOWN);
    }
    pt_script_fini(&script);
done:
    if (app_trace_close(trace, trace_path) < 0) status = APP_EXIT_INPUT;
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    free(saved);
    return status;
}
