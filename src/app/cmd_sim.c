/* SPDX-License-Identifier: Zlib */
#include <patrol/world.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "load.h"

static void sim_help(FILE *out) {
    fprintf(out,
            "usage: patrol sim MAP --ticks N [--seed S] [--trace FILE.csv] [--player-pattern FILE.pat:NAME]\n\n"
            "Runs MAP headless for N fixed ticks (60 per second) and prints a one-line summary.\n"
            "  --ticks N                 ticks to run (required, 0..1e9)\n"
            "  --seed S                  world seed (default: the map's seed, or 1)\n"
            "  --trace FILE.csv          write every entity on every tick as CSV ('-' = stdout):\n"
            "                            tick,id,kind,state,x,y,px,py,heading\n"
            "  --player-pattern F:NAME   move the player along pattern NAME of file F\n"
            "                            (default: the map's player pattern, else it stands still)\n"
            "  --quiet                   no summary\n"
            "A catch is recorded and the player starts again from the start; the run goes on.\n");
}

int cmd_sim(int argc, char **argv) {
    const char *map_path = NULL, *trace_path = NULL, *player_ref = NULL;
    long ticks = -1, seed = 0;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) { sim_help(stdout); return APP_EXIT_OK; }
        else if (strcmp(a, "--ticks") == 0) { if (!app_parse_long("sim", a, i + 1 < argc ? argv[++i] : NULL, 0, 1000000000L, &ticks)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--seed") == 0) { if (!app_parse_long("sim", a, i + 1 < argc ? argv[++i] : NULL, 0, 2147483647L, &seed)) return APP_EXIT_USAGE; }
        else if (strcmp(a, "--trace") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--trace needs a file"); trace_path = argv[++i]; }
        else if (strcmp(a, "--player-pattern") == 0) { if (i + 1 >= argc) return app_usage_error("sim", "--player-pattern needs FILE.pat:NAME"); player_ref = argv[++i]; }
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) quiet = 1;
        else if (a[0] == '-' && a[1]) return app_usage_error("sim", "unknown option '%s'", a);
        else if (!map_path) map_path = a;
        else return app_usage_error("sim", "more than one map given ('%s')", a);
    }
    if (!map_path) return app_usage_error("sim", "no map given");
    if (ticks < 0) return app_usage_error("sim", "--ticks N is required");

    pt_map map;
    pt_patlib lib;
    if (!app_load_map_and_patterns(map_path, &map, &lib)) return APP_EXIT_INPUT;
    pt_world_desc desc = {0};
    desc.seed = (uint64_t)seed;
    int status = APP_EXIT_OK;
    FILE *trace = NULL;
    pt_world *w = NULL;
    if (player_ref && !(desc.player_pattern = app_load_pattern_ref("sim", player_ref, &lib))) {
        status = APP_EXIT_INPUT;
        goto done;
    }
    pt_error err;
    w = pt_world_create(&map, &lib, &desc, &err);
    if (!w) {
        pt_error_print(stderr, &err);
        status = APP_EXIT_INPUT;
        goto done;
    }
    if (trace_path) {
        trace = strcmp(trace_path, "-") == 0 ? stdout : fopen(trace_path, "w");
        if (!trace) {
            perror(trace_path);
            status = APP_EXIT_INPUT;
            goto done;
        }
        pt_world_trace_header(trace);
        pt_world_trace_rows(w, trace);
    }
    long counts[6] = {0};
    int progress = !quiet && ticks >= 200000 && isatty(2);
    for (long t = 0; t < ticks; t++) {
        pt_world_step(w);
        int nev = 0;
        const pt_event *ev = pt_world_events(w, &nev);
        for (int k = 0; k < nev; k++)
            if ((unsigned)ev[k].kind < 6) counts[ev[k].kind]++;
        if (trace) pt_world_trace_rows(w, trace);
        if (progress && (t + 1) % (ticks / 100 > 0 ? ticks / 100 : 1) == 0)
            fprintf(stderr, "\rsim: %3ld%%", (t + 1) * 100 / ticks);
    }
    if (progress) fputc('\n', stderr);
    if (!quiet) {
        int by_state[PT_STATE_COUNT] = {0};
        for (int i = 1; i < pt_world_count(w); i++) by_state[pt_world_entity(w, i)->state]++;
        FILE *out = trace == stdout ? stderr : stdout;
        fprintf(out, "%s: %ld ticks (%.1f s), seed %llu, %d entities; caught %ld, spotted %ld, lost %ld, returned %ld, goal %ld; now:",
                map_path, ticks, ticks * pt_world_dt(w), (unsigned long long)(seed ? (uint64_t)seed : (map.seed ? map.seed : 1)),
                pt_world_count(w), counts[PT_EVENT_CAUGHT], counts[PT_EVENT_SPOTTED], counts[PT_EVENT_LOST],
                counts[PT_EVENT_RETURNED], counts[PT_EVENT_GOAL]);
        for (int s = 0; s < PT_STATE_COUNT; s++)
            if (by_state[s]) fprintf(out, " %s %d", pt_state_name((pt_state)s), by_state[s]);
        fputc('\n', out);
    }
done:
    if (trace && trace != stdout && fclose(trace) != 0) {
        perror(trace_path);
        status = APP_EXIT_INPUT;
    }
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return status;
}
