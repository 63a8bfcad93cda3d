/* SPDX-License-Identifier: Zlib */
/* replay.c - `patrol sim --replay F.rec` (a recording played again headless) and the lines
 * the headless runs and the game share: the events as `sim -v` lists them, the round's end,
 * and the trace file (replay.h). In game/ because play prints its rounds' ends with them;
 * the tools' sim calls down to it. */
#include "game/replay.h"

#include <patrol/door.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/app.h"
#include "common/load.h"
#include "common/rec.h"

int app_sim_replay(const char *rec_path, const char *map_path, long max_ticks, const char *trace_path, int quiet,
                   int verbose) {
    app_rec r;
    pt_error err;
    if (app_rec_load(&r, rec_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    pt_map map;
    pt_patlib lib;
    int status = APP_EXIT_OK;
    if (pt_level_load(map_path ? map_path : r.map, &map, &lib, &err) < 0) {
        pt_error_print(stderr, &err);
        if (!map_path) fprintf(stderr, "patrol sim: the recording %s names that map (line %d)\n", rec_path, r.map_line);
        app_rec_fini(&r);
        return APP_EXIT_INPUT;
    }
    FILE *trace = NULL;
    pt_world *w = NULL;
    if (app_rec_check_level(&r, &map, &err) >= 0) w = app_rec_world(&r, &map, &lib, &err);
    if (!app_sim_start(w, &err, trace_path, &trace)) {
        status = APP_EXIT_INPUT;
        goto done;
    }
    app_rec_cursor c = {0};
    long done_ticks = 0;
    /* The round as play shows it: its clock runs from the first move or stone (play_clock)
     * and stops when the round ends; the catcher is the last one of the catching step. */
    int started = 0, round = 0;
    uint64_t start_tick = 0, end_tick = 0;
    char caught_by[PT_MAX_NAME] = "";
    while (max_ticks < 0 || done_ticks < max_ticks) {
        int thrown = c.thrown;
        if (!app_rec_next(&r, &c, w)) break;
        const app_rec_run *in = &r.runs[c.run]; /* the input app_rec_next just handed over */
        if (!started && (c.thrown > thrown || in->dx || in->dy)) {
            started = 1;
            start_tick = pt_world_tick(w);
        }
        pt_world_step(w);
        done_ticks++;
        if (trace) pt_world_trace_rows(w, trace);
        int nev = 0;
        const pt_event *ev = pt_world_events(w, &nev);
        if (verbose)
            for (int k = 0; k < nev; k++)
                if ((unsigned)ev[k].kind < PT_EVENT_COUNT) app_sim_print_event(trace == stdout ? stderr : stdout, w, &ev[k]);
        if (round != 0) continue;
        for (int k = 0; k < nev; k++) {
            if (ev[k].kind != PT_EVENT_CAUGHT) continue;
            const pt_entity *e = pt_world_entity(w, (int)ev[k].a);
            snprintf(caught_by, sizeof caught_by, "%s", e && e->name[0] ? e->name : "");
        }
        if ((round = pt_world_round(w)) != 0) end_tick = pt_world_tick(w);
    }
    if (!quiet) {
        FILE *out = trace == stdout ? stderr : stdout;
        const pt_entity *pl = pt_world_entity(w, 0);
        fprintf(out, "%s: replayed %ld of %llu ticks on %s, seed %llu; player %d,%d; %s\n", rec_path, done_ticks,
                (unsigned long long)r.ticks, map.path, (unsigned long long)r.seed, pl->x, pl->y,
                round > 0 ? "escaped" : round < 0 ? "caught" : "the round goes on");
        uint64_t now = round != 0 ? end_tick : pt_world_tick(w);
        double clock = started && now > start_tick ? (double)(now - start_tick) * pt_world_dt(w) : 0.0;
        const char *title = map.name[0] ? map.name : map_path ? map_path : r.map;
        app_round_line(out, title, round, caught_by, clock);
        fputc('\n', out);
    }
done:
    if (app_trace_close(trace, trace_path) < 0) status = APP_EXIT_INPUT;
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    app_rec_fini(&r);
    return status;
}

const char *app_sim_entity_name(const pt_world *w, uint32_t id) {
    const pt_entity *e = pt_world_entity(w, (int)id);
    return e && e->name[0] ? e->name : id == 0 ? "player" : "?";
}

/* -v: "tick T KIND NAME..." - who did it, and for a catch whom. */
void app_sim_print_event(FILE *out, const pt_world *w, const pt_event *e) {
    if (e->kind == PT_EVENT_PHASE) {
        double left = 0.0;
        pt_world_phase(w, &left);
        fprintf(out, "tick %llu phase %s (was %s)", (unsigned long long)e->tick, pt_phase_name((pt_phase)e->a),
                pt_phase_name((pt_phase)e->b));
        /* to a tenth of a second; a countdown of a tick or two to a thousandth */
        if (left > 0.0) fprintf(out, left < 0.05 ? " for %.3f s" : " for %.1f s", left);
        fputc('\n', out);
        return;
    }
    fprintf(out, "tick %llu %s %s", (unsigned long long)e->tick, pt_event_kind_name(e->kind),
            e->kind == PT_EVENT_DOOR && e->a == PT_DOOR_BY_GAME ? "game" : app_sim_entity_name(w, e->a));
    if (e->kind == PT_EVENT_DOOR) fprintf(out, " %s", e->b == PT_DOOR_OPEN ? "open" : e->b == PT_DOOR_CLOSED ? "closed" : "locked");
    if (e->kind == PT_EVENT_CAUGHT || e->kind == PT_EVENT_CALLED) fprintf(out, " %s", app_sim_entity_name(w, e->b));
    fprintf(out, " at %d,%d", e->x, e->y);
    if (e->kind == PT_EVENT_HEARD) fprintf(out, " level %u.%u", e->b / 10, e->b % 10);
    fputc('\n', out);
}

void app_round_line(FILE *out, const char *title, int round, const char *caught_by, double seconds) {
    if (round > 0) fprintf(out, "escaped \"%s\" in %.2f s", title, seconds);
    else if (round < 0) fprintf(out, "caught \"%s\" by %s after %.2f s", title, caught_by[0] ? caught_by : "a guard", seconds);
    else fprintf(out, "unfinished \"%s\" after %.2f s", title, seconds);
}

FILE *app_trace_open(const char *path, const pt_world *w) {
    FILE *trace = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!trace) {
        fprintf(stderr, "patrol sim: error: cannot write %s: %s\n", path, strerror(errno));
        return NULL;
    }
    pt_world_trace_header(trace);
    pt_world_trace_rows(w, trace);
    return trace;
}

int app_sim_start(const pt_world *w, const pt_error *err, const char *trace_path, FILE **trace) {
    if (!w) {
        pt_error_print(stderr, err);
        return 0;
    }
    return !trace_path || (*trace = app_trace_open(trace_path, w)) != NULL;
}

int app_trace_close(FILE *trace, const char *path) {
    if (trace && (ferror(trace) | (trace == stdout ? fflush(trace) : fclose(trace))) != 0) {
        fprintf(stderr, "patrol sim: error: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
