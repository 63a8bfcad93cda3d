/* SPDX-License-Identifier: Zlib */
/* replay.h - `patrol sim --replay F.rec`: a recorded run played again headless; and what the
 * headless runs (sim, sim --replay, sim --walkthrough) and play print alike: the events of
 * `sim -v`, the round's end line, the trace. */
#ifndef PATROL_APP_REPLAY_H
#define PATROL_APP_REPLAY_H

#include <stdio.h>

#include <patrol/world.h>

/* Loads the recording, its level (map_path, or the map the recording names when NULL),
 * checks they belong together and runs every recorded tick (at most max_ticks when >= 0),
 * writing the trace as `sim --trace` does (trace_path "-" = stdout, NULL = none), with
 * verbose every event as `sim -v` lists it and, unless quiet, a summary line. Returns an
 * APP_EXIT_* status; errors are printed located. */
int app_sim_replay(const char *rec_path, const char *map_path, long max_ticks, const char *trace_path, int quiet,
                   int verbose);

/* An entity's name in sim's lines: its own, else "player" for id 0, else "?". */
const char *app_sim_entity_name(const pt_world *w, uint32_t id);
/* sim -v, sim --replay -v: one line for event e of the step w just made ('tick T KIND NAME...'). */
void app_sim_print_event(FILE *out, const pt_world *w, const pt_event *e);

/* The line a round's end is told by (play, and sim --replay after its summary), without
 * the newline (play adds its best time): round > 0 `escaped "TITLE" in S s`, < 0 `caught
 * "TITLE" by NAME after S s` (caught_by "" = "a guard"), 0 `unfinished "TITLE" after S s`.
 * S is the round's clock (play_clock) with two decimals. */
void app_round_line(FILE *out, const char *title, int round, const char *caught_by, double seconds);

/* The trace of `sim --trace` and `sim --replay --trace`: opens path ("-" = stdout) and writes
 * the header and w's rows at its current tick; NULL (error printed) when it cannot. */
FILE *app_trace_open(const char *path, const pt_world *w);
/* The start of `sim` and `sim --replay`: 1 when w was made and, for a trace_path, its trace
 * opened into *trace; 0 when not (w NULL: err printed; the trace: as app_trace_open). */
int app_sim_start(const pt_world *w, const pt_error *err, const char *trace_path, FILE **trace);
/* Flushes or closes a trace from app_trace_open (NULL is fine); -1 (error printed) when the
 * file could not be written. */
int app_trace_close(FILE *trace, const char *path);

#endif
