/* SPDX-License-Identifier: Zlib */
/* check_play_session - the game behind `patrol play` without a window: hot reload (a broken
 * file keeps the running world, located errors; a good one swaps), restart, key taps, the
 * round's end (exit, catch), counts and messages over many ticks, --watch (a changed file
 * reloads; patterns only keep the player and the clock). The session code is
 * SDL-free; it is compiled in here with the shared loader. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_app.h"

static char dir[1024];

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", dir, name); }

static void write_file(const char *name, const char *text) {
    char p[1200];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "w");
    ck_assert_msg(f != NULL, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
}

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/test-out/session-%d", PATROL_BUILD_DIR, (int)getpid());
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    mkdir(dir, 0777);
}

/* A guard pacing the bottom corridor, the exit at its east end; the player at 1,1. */
static const char *guard_map = "format 1\n"
                               "title \"session\"\n"
                               "patterns s.pat\n"
                               "player at=1,1\n"
                               "guard g at=2,3 pattern=pace view=5 fov=90\n"
                               "grid\n"
                               "##########\n"
                               "#........#\n"
                               "#.######.#\n"
                               "#.......E#\n"
                               "##########\n"
                               "end\n";
static const char *pace_pat = "pattern pace\n"
                              "  kind path\n"
                              "  points 2,3 6,3\n"
                              "  at_end reverse\n"
                              "end\n";

/* No guard; the exit 3 tiles east of the player. */
static const char *goal_map = "format 1\n"
                              "player at=1,1\n"
                              "grid\n"
                              "######\n"
                              "#...E#\n"
                              "######\n"
                              "end\n";

/* A guard looking straight at the player down an empty hall. */
static const char *watch_map = "format 1\n"
                               "player at=1,1\n"
                               "guard w at=6,1 heading=180 view=8 fov=90\n"
                               "grid\n"
                               "#########\n"
                               "#.......#\n"
                               "#########\n"
                               "end\n";

static void open_ok(play_session *s, const char *name) {
    char p[1200];
    path_in(p, sizeof p, name);
    pt_error err;
    int rc = play_open(s, p, &err);
    ck_assert_msg(rc == PT_OK, "%s:%d:%d: %s", err.file, err.line, err.col, err.message);
}

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

START_TEST(test_open_errors) {
    play_session s;
    pt_error err;
    ck_assert_int_eq(play_open(&s, "/nonexistent/x.map", &err), PT_ERR_IO);
    ck_assert_ptr_null(s.world);
    ck_assert_ptr_null(s.level);
    write_file("bad.map", "format 1\nplayer at=1,1\ngrid\n###\n#?#\n###\nend\n");
    char p[1200];
    path_in(p, sizeof p, "bad.map");
    ck_assert_int_eq(play_open(&s, p, &err), PT_ERR_UNKNOWN_TILE);
    ck_assert_int_eq(err.line, 5);
    ck_assert_int_eq(err.col, 2);
    ck_assert_ptr_null(s.world);
    play_close(&s); /* safe after a failed open */
}
END_TEST

/* maps/demo.map loads ../patterns/castle.pat; a --player-pattern reference spells the same
 * file patterns/castle.pat: it is not loaded twice (its names would clash with themselves). */
START_TEST(test_a_file_named_twice_is_loaded_once) {
    pt_map map;
    pt_patlib lib;
    pt_error err;
    ck_assert_int_eq(pt_level_load("maps/demo.map", &map, &lib, &err), PT_OK);
    int count = pt_patlib_count(&lib);
    const pt_pattern *p = app_load_pattern_ref("sim", "patterns/castle.pat:walk_past", &lib);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->name, "walk_past");
    ck_assert_int_eq(pt_patlib_count(&lib), count);
    ck_assert_int_eq(pt_patlib_load(&lib, "./patterns/../patterns/castle.pat", &err), PT_OK);
    ck_assert_int_eq(pt_patlib_count(&lib), count);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}
END_TEST

START_TEST(test_reload_keeps_world_on_error) {
    write_file("s.pat", pace_pat);
    write_file("s.map", guard_map);
    play_session s;
    open_ok(&s, "s.map");
    for (int t = 0; t < 40; t++) play_tick(&s, 0, 0);
    pt_world *w0 = s.world;
    play_level *lv0 = s.level;
    uint64_t tick0 = pt_world_tick(s.world), ticks0 = s.ticks;
    const pt_entity *g0 = pt_world_entity(s.world, 1);
    int gx = g0->x, gy = g0->y;

    /* A bad number in the pattern file: line 3, column 12 ("x"). */
    write_file("s.pat", "pattern pace\n  kind path\n  points 2,3 x,3\n  at_end reverse\nend\n");
    pt_error err;
    ck_assert_int_lt(play_reload(&s, &err), 0);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 14);
    ck_assert(ends_with(err.file, "s.pat"));
    ck_assert(err.source[0] != '\0');
    ck_assert_ptr_eq(s.world, w0);
    ck_assert_ptr_eq(s.level, lv0);
    ck_assert_uint_eq(pt_world_tick(s.world), tick0);
    ck_assert_uint_eq(s.ticks, ticks0);
    ck_assert_int_eq(pt_world_entity(s.world, 1)->x, gx);
    ck_assert_int_eq(pt_world_entity(s.world, 1)->y, gy);
    ck_assert_int_eq(s.reloads, 0);

    /* A broken map: located in the map file; the world goes on. */
    write_file("s.pat", pace_pat);
    write_file("s.map", "format 1\npatterns s.pat\nplayer at=1,1\nguard g at=2,3 pattern=pace view=five\n"
                        "grid\n#####\n#...#\n#####\nend\n");
    ck_assert_int_lt(play_reload(&s, &err), 0);
    ck_assert_int_eq(err.line, 4);
    ck_assert(ends_with(err.file, "s.map"));
    ck_assert_ptr_eq(s.world, w0);

    /* The files parse but the world cannot be made (an unknown pattern, at the guard). */
    write_file("s.map", "format 1\npatterns s.pat\nplayer at=1,1\nguard g at=2,1 pattern=nope\n"
                        "grid\n#####\n#...#\n#####\nend\n");
    ck_assert_int_eq(play_reload(&s, &err), PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(err.line, 4);
    ck_assert_ptr_eq(s.world, w0);
    ck_assert_ptr_eq(s.level, lv0);

    /* The files parse but the guard's pattern walks into the wall at 9,3: the lint `check`
     * runs refuses it, at the point in the pattern file. */
    write_file("s.map", guard_map);
    write_file("s.pat", "pattern pace\n  kind path\n  points 2,3 9,3\n  at_end reverse\nend\n");
    ck_assert_int_eq(play_reload(&s, &err), PT_ERR_PATTERN_BLOCKED);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 14);
    ck_assert(ends_with(err.file, "s.pat"));
    ck_assert_ptr_eq(s.world, w0);
    ck_assert_ptr_eq(s.level, lv0);
    write_file("s.pat", pace_pat);

    /* The game still runs on the old world. */
    for (int t = 0; t < 20; t++) play_tick(&s, 0, 0);
    ck_assert_uint_eq(pt_world_tick(s.world), tick0 + 20);

    /* Fixed, with a change (the guard sees farther): swapped in, a new round. */
    char fixed[1024];
    snprintf(fixed, sizeof fixed, "%s", guard_map);
    char *v = strstr(fixed, "view=5");
    v[5] = '7';
    write_file("s.map", fixed);
    ck_assert_int_eq(play_reload(&s, &err), PT_OK);
    ck_assert_ptr_ne(s.world, w0);
    ck_assert_uint_eq(pt_world_tick(s.world), 0);
    ck_assert_uint_eq(s.ticks, 0);
    ck_assert_int_eq(s.reloads, 1);
    ck_assert(pt_world_entity(s.world, 1)->view_dist == 7.0);
    for (int t = 0; t < 20; t++) play_tick(&s, 0, 0);
    ck_assert_uint_eq(pt_world_tick(s.world), 20);
    play_close(&s);
}
END_TEST

START_TEST(test_taps) {
    write_file("goal.map", goal_map);
    play_session s;
    open_ok(&s, "goal.map");
    /* A tap released long before the player may step still moves it exactly one tile. */
    play_tap(&s, 1, 0);
    for (int t = 0; t < 60; t++) play_tick(&s, 0, 0);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 2);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->y, 1);
    /* Taps into a wall move nothing; queued taps are taken one per step. */
    play_tap(&s, 0, -1);
    play_tap(&s, -1, 0);
    for (int t = 0; t < 60; t++) play_tick(&s, 0, 0);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 1);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->y, 1);
    ck_assert_int_eq(s.ntaps, 0);
    /* The queue holds PLAY_TAPS; more are dropped. */
    for (int i = 0; i < PLAY_TAPS + 5; i++) play_tap(&s, 0, 1);
    ck_assert_int_eq(s.ntaps, PLAY_TAPS);
    play_close(&s);
}
END_TEST

/* Held Shift / Ctrl: the session's gait reaches the world on the next tick; a tap while
 * sneaking still moves exactly one tile; the footsteps are kept for the frame's rings, the
 * old ones dropped. */
START_TEST(test_gait_and_noises) {
    static const char *long_map = "format 1\nplayer at=1,1\ngrid\n##########################\n"
                                  "#........................#\n##########################\nend\n";
    write_file("long.map", long_map);
    int reach[PT_GAIT_COUNT];
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        play_session s;
        open_ok(&s, "long.map");
        s.gait = (pt_gait)g;
        for (int t = 0; t < 150; t++) {
            play_tick(&s, 1, 0);
            ck_assert_int_eq(pt_world_gait(s.world), g);
            ck_assert_int_le(s.nnoises, PLAY_NOISES);
            for (int i = 0; i < s.nnoises; i++)
                ck_assert(pt_world_tick(s.world) - s.noises[i].tick < PLAY_NOISE_TICKS);
        }
        ck_assert_int_gt(s.nnoises, 0);
        reach[g] = pt_world_entity(s.world, 0)->x;
        play_close(&s);
    }
    ck_assert(reach[PT_GAIT_SNEAK] < reach[PT_GAIT_WALK] && reach[PT_GAIT_WALK] < reach[PT_GAIT_RUN]);
    play_session s;
    open_ok(&s, "long.map");
    s.gait = PT_GAIT_SNEAK;
    play_tap(&s, 1, 0);
    for (int t = 0; t < 90; t++) play_tick(&s, 0, 0);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 2);
    ck_assert_int_eq(s.nnoises, 0); /* the step's noise is older than PLAY_NOISE_TICKS */
    play_close(&s);
}
END_TEST

START_TEST(test_goal_ends_round) {
    write_file("goal.map", goal_map);
    play_session s;
    open_ok(&s, "goal.map");
    int fails = 0;
    double clock_at_end = -1;
    for (int t = 0; t < 300; t++) {
        play_tick(&s, 1, 0); /* hold Right */
        fails += s.nmsgs > PLAY_MSGS;
        if (s.round != 0 && clock_at_end < 0) clock_at_end = play_clock(&s);
    }
    ck_assert_int_eq(fails, 0);
    ck_assert_int_eq(s.round, 1);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 4);
    ck_assert_uint_gt(s.end_tick, 0);
    /* 3 tiles at 5 tiles/s: the clock stopped at 0.6 s (36 ticks), then froze. */
    ck_assert(clock_at_end > 0.5 && clock_at_end < 0.7);
    ck_assert(play_clock(&s) == clock_at_end);
    ck_assert(play_since_end(&s) > 4.0);
    ck_assert_int_eq(s.spotted, 0);
    int gx = -1, gy = -1;
    ck_assert(play_nearest_goal(&s, &gx, &gy));
    ck_assert_int_eq(gx, 4);
    ck_assert_int_eq(gy, 1);
    /* Restart: a fresh round. */
    pt_error err;
    ck_assert_int_eq(play_restart(&s, &err), PT_OK);
    ck_assert_int_eq(s.round, 0);
    ck_assert_uint_eq(s.end_tick, 0);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 1);
    ck_assert(play_since_end(&s) == 0.0);
    play_close(&s);
}
END_TEST

START_TEST(test_spotted_and_caught) {
    write_file("watch.map", watch_map);
    play_session s;
    open_ok(&s, "watch.map");
    ck_assert_int_eq(play_nearest_goal(&s, &(int){0}, &(int){0}), 0);
    int max_alert = 0, alert_bad = 0, msgs_bad = 0;
    for (int t = 0; t < 600 && s.round == 0; t++) {
        play_tick(&s, 0, 0); /* stand in plain view */
        int a = play_alert(&s);
        alert_bad += a < 0 || a > 2;
        if (a > max_alert) max_alert = a;
        msgs_bad += s.nmsgs < 0 || s.nmsgs > PLAY_MSGS;
    }
    ck_assert_int_eq(alert_bad, 0);
    ck_assert_int_eq(msgs_bad, 0);
    ck_assert_int_eq(max_alert, 2);
    ck_assert_int_eq(s.round, -1);
    ck_assert_int_eq(s.spotted, 1);
    ck_assert_str_eq(s.caught_by, "w");
    ck_assert_int_gt(s.nmsgs, 0);
    /* After the end the world stands still; messages run out. */
    uint64_t tick = pt_world_tick(s.world);
    for (int t = 0; t < PLAY_MSG_TICKS + 1; t++) play_tick(&s, 1, 0);
    ck_assert_uint_eq(pt_world_tick(s.world), tick);
    ck_assert_int_eq(s.nmsgs, 0);
    pt_error err;
    ck_assert_int_eq(play_restart(&s, &err), PT_OK);
    ck_assert_int_eq(s.spotted, 0);
    ck_assert_str_eq(s.caught_by, "");
    ck_assert_int_eq(play_alert(&s), 0);
    play_close(&s);
}
END_TEST

/* Sound cues: read from the world (steps with their surface and gait, the chase sting, the
 * catch, the exit), taken once, never more than PLAY_CUES. */
START_TEST(test_sound_cues) {
    write_file("goal.map", goal_map);
    play_session s;
    open_ok(&s, "goal.map");
    int steps = 0, escaped = 0, bad = 0, n = 0;
    s.gait = PT_GAIT_RUN;
    for (int t = 0; t < 300; t++) {
        play_tick(&s, 1, 0);
        const play_cue *c = play_take_cues(&s, &n);
        bad += n < 0 || n > PLAY_CUES;
        for (int i = 0; i < n; i++) {
            if (c[i].kind == PLAY_CUE_STEP) {
                steps++;
                bad += c[i].gait != PT_GAIT_RUN || c[i].surface != PLAY_SURF_HARD;
            }
            escaped += c[i].kind == PLAY_CUE_ESCAPED;
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(steps, 3); /* 1,1 -> 4,1 */
    ck_assert_int_eq(escaped, 1);
    play_take_cues(&s, &n);
    ck_assert_int_eq(n, 0);
    play_close(&s);

    write_file("watch.map", watch_map);
    open_ok(&s, "watch.map");
    int chase = 0, caught = 0;
    for (int t = 0; t < 600 && s.round == 0; t++) play_tick(&s, 0, 0); /* cues pile up, untaken */
    const play_cue *c = play_take_cues(&s, &n);
    ck_assert_int_le(n, PLAY_CUES);
    for (int i = 0; i < n; i++) chase += c[i].kind == PLAY_CUE_CHASE, caught += c[i].kind == PLAY_CUE_CAUGHT;
    ck_assert_int_eq(chase, 1);
    ck_assert_int_eq(caught, 0); /* the caught sound comes at the grab, once the catcher reached you */
    for (int t = 0; t < 120; t++) {
        play_tick(&s, 0, 0);
        c = play_take_cues(&s, &n);
        for (int i = 0; i < n; i++) caught += c[i].kind == PLAY_CUE_CAUGHT;
    }
    ck_assert_int_eq(caught, 1);
    play_close(&s);

    pt_tile_def d = {.name = "water"};
    ck_assert_int_eq(play_surface_of(&d), PLAY_SURF_WATER);
    snprintf(d.name, sizeof d.name, "bridge");
    ck_assert_int_eq(play_surface_of(&d), PLAY_SURF_WOOD);
    snprintf(d.name, sizeof d.name, "grass");
    ck_assert_int_eq(play_surface_of(&d), PLAY_SURF_SOFT);
    snprintf(d.name, sizeof d.name, "wall");
    ck_assert_int_eq(play_surface_of(&d), PLAY_SURF_HARD);
    ck_assert_int_eq(play_surface_of(NULL), PLAY_SURF_HARD);
}
END_TEST

/* --watch: files changed on disk reload by themselves. Patterns only: the player stays where
 * it walked and the clock runs on; a broken save keeps the world and is not tried again; a
 * changed map starts the round again. */
START_TEST(test_watch_reloads) {
    write_file("w.pat", pace_pat);
    char map[1024];
    snprintf(map, sizeof map, "%s", guard_map);
    memcpy(strstr(map, "s.pat"), "w.pat", 5);
    write_file("w.map", map);
    play_session s;
    open_ok(&s, "w.map");
    pt_error err;
    ck_assert_int_eq(play_watch(&s, &err), 0);
    for (int i = 0; i < 3; i++) play_tap(&s, 1, 0);
    for (int t = 0; t < 90; t++) play_tick(&s, 0, 0);
    const pt_entity *pl = pt_world_entity(s.world, 0);
    int px = pl->x, py = pl->y;
    ck_assert_int_eq(px, 4); /* it walked: a restart would show */
    double clock = play_clock(&s);
    uint64_t ticks = s.ticks;
    ck_assert_int_eq(play_watch(&s, &err), 0);

    /* Patterns only: a new route for the guard. */
    write_file("w.pat", "pattern pace\n  kind path\n  points 2,3 4,3 7,3\n  at_end reverse\nend\n");
    ck_assert_int_eq(play_watch(&s, &err), 1);
    ck_assert_int_eq(s.reloads, 1);
    pl = pt_world_entity(s.world, 0);
    ck_assert_int_eq(pl->x, px);
    ck_assert_int_eq(pl->y, py);
    ck_assert_double_eq_tol(play_clock(&s), clock, 1e-9);
    ck_assert_uint_eq(s.ticks, ticks);
    ck_assert_str_eq(s.msgs[s.nmsgs - 1].text, "patterns reloaded");
    ck_assert_int_eq(pt_patlib_count(&s.level->lib), 1);
    ck_assert_int_eq(pt_patlib_get(&s.level->lib, 0)->nverts, 3);
    for (int t = 0; t < 10; t++) play_tick(&s, 0, 0);
    ck_assert_double_eq_tol(play_clock(&s), clock + 10 * pt_world_dt(s.world), 1e-9);
    ck_assert_int_eq(play_watch(&s, &err), 0);

    /* A broken save: located, the world goes on, and the same save is not tried again. */
    pt_world *w0 = s.world;
    write_file("w.pat", "pattern pace\n  kind path\n  points 2,3 xx,3\n  at_end reverse\nend\n");
    ck_assert_int_lt(play_watch(&s, &err), 0);
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 14);
    ck_assert(ends_with(err.file, "w.pat"));
    ck_assert_ptr_eq(s.world, w0);
    ck_assert_int_eq(play_watch(&s, &err), 0);
    ck_assert_int_eq(s.reloads, 1);

    /* Fixed: patterns only again, the player still there. */
    write_file("w.pat", pace_pat);
    ck_assert_int_eq(play_watch(&s, &err), 1);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, px);

    /* The map changed: a new round from the start. */
    char *v = strstr(map, "view=5");
    v[5] = '7';
    write_file("w.map", map);
    ck_assert_int_eq(play_watch(&s, &err), 1);
    ck_assert_int_eq(s.reloads, 3);
    ck_assert_int_eq(pt_world_entity(s.world, 0)->x, 1);
    ck_assert_double_eq_tol(play_clock(&s), 0.0, 1e-9);
    ck_assert_uint_eq(s.ticks, 0);
    play_close(&s);
}
END_TEST

/* Runs PATROL_BIN with args; stderr into err (cap bytes). Returns the exit status. */
static int run_patrol(const char *const *args, char *errbuf, size_t cap) {
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)PATROL_BIN;
    for (int i = 0; args[i] && n < 31; i++) argv[n++] = (char *)args[i];
    argv[n] = NULL;
    FILE *e = tmpfile();
    ck_assert_ptr_nonnull(e);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fileno(e), 2);
        execv(PATROL_BIN, argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    rewind(e);
    size_t got = fread(errbuf, 1, cap - 1, e);
    errbuf[got] = '\0';
    fclose(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char *buf = malloc(1 << 22);
    *len = fread(buf, 1, (1 << 22) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* A run played through the session (taps, held keys, every gait) is recorded; `patrol sim
 * --replay` of the file writes the very trace the session's world went through. */
/* The replay window's tick box: the keys typed, over many random key strings, against a
 * model of what they mean (digits, Backspace, Esc, Enter; the tick clamped to the end). */
START_TEST(test_tick_entry) {
    static const int keys[] = {'0', '1', '2', '5', '9', '\b', 27, '\r', 'x'};
    uint64_t state = 12345;
    int jumps = 0, escapes_out = 0;
    for (int round = 0; round < 400; round++) {
        char box[PLAY_TICK_DIGITS + 1] = "";
        char model[64] = "";
        uint64_t max = 1 + (uint64_t)(round * 37 % 5000);
        for (int i = 0; i < 30; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            int key = keys[(state >> 33) % (sizeof keys / sizeof keys[0])];
            uint64_t to = 777777;
            int rc = play_tick_entry_key(box, key, max, &to);
            size_t n = strlen(model);
            int want = -1;
            uint64_t want_to = 777777;
            if (key >= '0' && key <= '9') {
                if (n < PLAY_TICK_DIGITS) model[n] = (char)key, model[n + 1] = 0;
                want = 0;
            } else if (key == '\b') {
                if (n) model[n - 1] = 0;
                want = 0;
            } else if (key == 27) {
                want = n ? 0 : -1;
                escapes_out += !n;
                model[0] = 0;
            } else if (key == '\r') {
                want = n ? 1 : 0;
                if (n) want_to = strtoull(model, NULL, 10) < max ? strtoull(model, NULL, 10) : max;
                model[0] = 0;
            }
            ck_assert_int_eq(rc, want);
            ck_assert_str_eq(box, model);
            ck_assert_uint_eq(to, want_to);
            jumps += rc == 1;
        }
    }
    ck_assert_int_gt(jumps, 100);
    ck_assert_int_gt(escapes_out, 10);
}
END_TEST

START_TEST(test_record_replays_to_the_same_trace) {
    write_file("s.pat", pace_pat);
    write_file("r.map", guard_map);
    char map_file[1200], rec_file[1200], mine[1200], theirs[1200];
    path_in(map_file, sizeof map_file, "r.map");
    path_in(rec_file, sizeof rec_file, "r.rec");
    path_in(mine, sizeof mine, "mine.csv");
    path_in(theirs, sizeof theirs, "theirs.csv");
    play_session s;
    open_ok(&s, "r.map");
    app_rec rec;
    app_rec_init(&rec);
    pt_error err;
    ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
    int investigated = 0;
    FILE *tr = fopen(mine, "w");
    ck_assert_ptr_nonnull(tr);
    pt_world_trace_header(tr);
    pt_world_trace_rows(s.world, tr);
    for (int t = 0; t < 900 && s.round == 0; t++) {
        if (t == 5 || t == 6) play_tap(&s, 1, 0);
        s.gait = t < 20 ? PT_GAIT_WALK : t < 40 ? PT_GAIT_RUN : PT_GAIT_SNEAK;
        int hx = t >= 30 && t < 60 ? 1 : 0, hy = t >= 70 && t < 80 ? -1 : 0;
        if (t == 90 || t == 110) { /* stones down the west passage, toward the guard's corridor */
            int lx, ly;
            ck_assert_int_eq(play_throw(&s, 1, 3, &lx, &ly), 1);
        }
        play_tick(&s, hx, hy);
        for (int i = 1; i < pt_world_count(s.world); i++) investigated |= pt_world_entity(s.world, i)->state == PT_STATE_INVESTIGATE;
        if (s.round == 0 || pt_world_tick(s.world) > 0) pt_world_trace_rows(s.world, tr);
    }
    fclose(tr);
    /* The inputs changed: taps, held keys and every gait were recorded. */
    int gaits[PT_GAIT_COUNT] = {0};
    for (int i = 0; i < rec.nruns; i++) gaits[rec.runs[i].gait]++;
    ck_assert_int_gt(rec.nruns, 4);
    ck_assert(gaits[PT_GAIT_WALK] && gaits[PT_GAIT_RUN] && gaits[PT_GAIT_SNEAK]);
    ck_assert_uint_eq(rec.ticks, pt_world_tick(s.world));
    /* The stones were recorded, and heard: a replay without them would differ. */
    ck_assert_msg(rec.nthrows == 2, "%d throws in %llu ticks", rec.nthrows, (unsigned long long)rec.ticks);
    ck_assert_uint_eq(rec.throws[0].tick, 90);
    ck_assert(investigated);
    ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);
    uint64_t recorded = rec.ticks;
    const pt_entity *pl = pt_world_entity(s.world, 0);
    /* Where, not the state: on the catch tick the frame draws the player as it was before
     * the catch (the caught starburst comes at the grab, play_catch_actors). */
    char where[64];
    snprintf(where, sizeof where, ",%d.500,%d.500\n", pl->x, pl->y);
    ck_assert_int_ne(pl->x, 1); /* it moved */
    int px = pl->x, py = pl->y;
    app_rec_fini(&rec);
    play_close(&s);

    char errs[4096];
    const char *replay[] = {"sim", "--replay", rec_file, "--trace", theirs, "-q", NULL};
    ck_assert_int_eq(run_patrol(replay, errs, sizeof errs), 0);
    size_t la, lb;
    char *a = slurp(mine, &la), *b = slurp(theirs, &lb);
    ck_assert_uint_gt(la, 1000);
    ck_assert_msg(la == lb && memcmp(a, b, la) == 0, "the replayed trace differs (%zu vs %zu bytes)", la, lb);
    free(a);
    free(b);

    /* render --replay draws the last recorded tick: the player where the session left it. */
    char png[1200], out[1200];
    path_in(png, sizeof png, "r.png");
    path_in(out, sizeof out, "r.txt");
    {
        fflush(NULL);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            FILE *o = freopen(out, "w", stdout);
            (void)o;
            execl(PATROL_BIN, PATROL_BIN, "render", "--replay", rec_file, "--out", png, "--positions", (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        size_t n;
        char *pos = slurp(out, &n);
        const char *row = strstr(pos, "\n0,player,player,"), *eol = row ? strchr(row + 1, '\n') : NULL;
        size_t wl = strlen(where);
        ck_assert_msg(eol && (size_t)(eol + 1 - row) >= wl && memcmp(eol + 1 - wl, where, wl) == 0,
                      "want the player's row ending %s in:\n%s", where, pos);
        free(pos);
    }

    /* patrol replay (the window, here under the dummy driver): jumped to the end, the player
     * stands where the session left it; a jump past the end is refused. */
    {
        char jump[32], pos[64];
        snprintf(jump, sizeof jump, "%llu", (unsigned long long)recorded);
        snprintf(pos, sizeof pos, "player %d,%d\n", px, py);
        fflush(NULL);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            FILE *o = freopen(out, "w", stdout);
            (void)o;
            setenv("SDL_VIDEODRIVER", "dummy", 1);
            execl(PATROL_BIN, PATROL_BIN, "replay", rec_file, "--jump", jump, "--ticks", "2", "--log", (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        size_t n;
        char *got = slurp(out, &n);
        char want[128];
        snprintf(want, sizeof want, "tick %s\n", jump);
        ck_assert_msg(strstr(got, want) && strstr(got, pos), "want '%s' and '%s' in: %s", want, pos, got);
        free(got);
        snprintf(jump, sizeof jump, "%llu", (unsigned long long)recorded + 1);
        const char *past[] = {"replay", rec_file, "--jump", jump, NULL};
        ck_assert_int_eq(run_patrol(past, errs, sizeof errs), 2);
        ck_assert_msg(strstr(errs, "--jump") != NULL, "%s", errs);
    }

    /* Loaded back: the same ticks, and a replay stops where the recording ends. */
    app_rec back;
    ck_assert_int_eq(app_rec_load(&back, rec_file, &err), PT_OK);
    ck_assert_uint_eq(back.ticks, recorded);
    ck_assert_int_eq(back.nthrows, 2);
    ck_assert_uint_eq(back.throws[1].tick, 110);
    ck_assert_int_eq(back.throws[1].loudness, PLAY_STONE_LOUDNESS);
    /* A replayed session throws them again (the count too), and refuses the player's own. */
    play_session r;
    open_ok(&r, "r.map");
    ck_assert_int_eq(play_replay(&r, &back, &err), PT_OK);
    for (int t = 0; t < 100; t++) play_tick(&r, 0, 0);
    ck_assert_int_eq(r.stones, PLAY_STONES - 1);
    for (int t = 0; t < 100; t++) play_tick(&r, 0, 0);
    ck_assert_int_eq(r.thrown, 2);
    ck_assert_int_eq(play_throw(&r, 1, 3, NULL, NULL), 0);
    play_close(&r);
    app_rec_fini(&back);
}
END_TEST

/* Replaces the first `from` in the recording with `to` and returns the replay's stderr. */
static int replay_edited(const char *from, const char *to, int fix_checksum, char *errs, size_t cap) {
    char rec_file[1200], bad[1200];
    path_in(rec_file, sizeof rec_file, "r.rec");
    path_in(bad, sizeof bad, "bad.rec");
    size_t len;
    char *text = slurp(rec_file, &len);
    char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "no '%s' in the recording", from);
    FILE *f = fopen(bad, "wb");
    fwrite(text, 1, (size_t)(at - text), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(text);
    if (fix_checksum) { /* a well-formed file that says something else */
        text = slurp(bad, &len);
        char *sum = strstr(text, "checksum ");
        f = fopen(bad, "wb");
        fwrite(text, 1, (size_t)(sum - text), f);
        fprintf(f, "checksum %016llx\n", (unsigned long long)fnv(FNV_OFFSET, text, (size_t)(sum - text)));
        fclose(f);
        free(text);
    }
    const char *replay[] = {"sim", "--replay", bad, "-q", NULL};
    return run_patrol(replay, errs, cap);
}

START_TEST(test_bad_recordings) {
    write_file("s.pat", pace_pat);
    write_file("r.map", guard_map);
    play_session s;
    open_ok(&s, "r.map");
    app_rec rec;
    app_rec_init(&rec);
    pt_error err;
    ck_assert_int_eq(play_record(&s, &rec, &err), PT_OK);
    play_tap(&s, 1, 0);
    for (int t = 0; t < 120; t++) play_tick(&s, 0, 0);
    char rec_file[1200];
    path_in(rec_file, sizeof rec_file, "r.rec");
    ck_assert_int_eq(app_rec_save(&rec, rec_file, &err), PT_OK);
    uint64_t recorded = rec.ticks;
    app_rec_fini(&rec);
    play_close(&s);
    char errs[4096], want[64];
    size_t len;
    char *text = slurp(rec_file, &len);
    int lines = 0; /* the checksum is the last line */
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    free(text);
    ck_assert_int_gt(lines, 10);

    /* A changed byte: the checksum says so, at its value. */
    ck_assert_int_eq(replay_edited("seed ", "seed 1", 0, errs, sizeof errs), 1);
    snprintf(want, sizeof want, "bad.rec:%d:10: error: checksum mismatch", lines);
    ck_assert_msg(strstr(errs, want) != NULL, "%s", errs);
    /* Another version. */
    ck_assert_int_eq(replay_edited("patrol-recording 1", "patrol-recording 2", 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:1:18: error: recording version 2") != NULL, "%s", errs);
    /* Not a recording at all. */
    ck_assert_int_eq(replay_edited("patrol-recording 1", "format 1", 0, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:1:1: error: not a patrol recording") != NULL, "%s", errs);
    /* Cut short. */
    ck_assert_int_eq(replay_edited("end\n", "", 0, errs, sizeof errs), 1);
    snprintf(want, sizeof want, "bad.rec:%d:1: error:", lines - 1);
    ck_assert_msg(strstr(errs, want) != NULL, "%s", errs);
    /* A bad gait, and a count that disagrees with the inputs (checksums fixed). */
    ck_assert_int_eq(replay_edited(" walk\n", " hop\n", 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:8:") && strstr(errs, "unknown gait"), "%s", errs);
    char tk[64], tk1[64];
    snprintf(tk, sizeof tk, "ticks %llu\n", (unsigned long long)recorded);
    snprintf(tk1, sizeof tk1, "ticks %llu\n", (unsigned long long)recorded + 1);
    ck_assert_int_eq(replay_edited(tk, tk1, 1, errs, sizeof errs), 1);
    snprintf(want, sizeof want, "bad.rec:6:7: error: 'ticks' says %llu", (unsigned long long)recorded + 1);
    ck_assert_msg(strstr(errs, want) != NULL, "%s", errs);
    /* Bad throws: a loudness of 0, one after the last tick, two out of order. */
    ck_assert_int_eq(replay_edited("inputs\n", "throw 5 1 1 0\ninputs\n", 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:7:13: error: a loudness of 0"), "%s", errs);
    snprintf(tk, sizeof tk, "throw %llu 1 1 10\ninputs\n", (unsigned long long)recorded);
    ck_assert_int_eq(replay_edited("inputs\n", tk, 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:7:7: error: a throw after the last tick"), "%s", errs);
    ck_assert_int_eq(replay_edited("inputs\n", "throw 9 1 1 10\nthrow 8 1 1 10\ninputs\n", 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:8:7: error: the throws are not in tick order"), "%s", errs);
    ck_assert_int_eq(replay_edited("inputs\n", "throw 9 1 1\ninputs\n", 1, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:7:") && strstr(errs, "throw TICK X Y LOUDNESS"), "%s", errs);

    /* Another map, and other patterns: the level is not the one recorded. */
    char other[1024];
    snprintf(other, sizeof other, "%s", guard_map);
    strstr(other, "view=5")[5] = '6';
    write_file("r.map", other);
    const char *replay[] = {"sim", "--replay", rec_file, "-q", NULL};
    ck_assert_int_eq(run_patrol(replay, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "r.rec:2:5: error:") && strstr(errs, "is not the map this was recorded on"), "%s", errs);
    write_file("r.map", guard_map);
    write_file("s.pat", "pattern pace\n  kind path\n  points 2,3 5,3\n  at_end reverse\nend\n");
    ck_assert_int_eq(run_patrol(replay, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "r.rec:2:5: error: the pattern or steering files"), "%s", errs);
    write_file("s.pat", pace_pat);
    ck_assert_int_eq(run_patrol(replay, errs, sizeof errs), 0);

    /* patrol check knows recordings: a good one, a damaged one (located). */
    const char *check[] = {"check", "-q", rec_file, NULL};
    ck_assert_int_eq(run_patrol(check, errs, sizeof errs), 0);
    ck_assert_int_eq(replay_edited("seed ", "seed 1", 0, errs, sizeof errs), 1);
    char bad[1200];
    path_in(bad, sizeof bad, "bad.rec");
    const char *check_bad[] = {"check", bad, NULL};
    ck_assert_int_eq(run_patrol(check_bad, errs, sizeof errs), 1);
    ck_assert_msg(strstr(errs, "bad.rec:") && strstr(errs, "checksum mismatch"), "%s", errs);
}
END_TEST

START_TEST(test_log_lines) {
    write_file("watch.map", watch_map);
    play_session s;
    open_ok(&s, "watch.map");
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    s.log = log;
    s.log_moves = s.log_events = 1;
    play_tap(&s, 1, 0);
    for (int t = 0; t < 600 && s.round == 0; t++) play_tick(&s, 0, 0);
    fclose(log);
    /* One move, then spotted and caught by w, in that order. */
    ck_assert_msg(strncmp(buf, "move 2,1\nspotted w\n", 19) == 0, "%s", buf);
    ck_assert(strstr(buf, "\ncaught w\n") != NULL);
    free(buf);
    play_close(&s);
}
END_TEST

/* Stones: a hall on the left (the player at 1,2 facing east, a guard at its far end) and,
 * behind a solid wall, a sealed room with a second guard. */
static const char *stone_map = "format 1\n"
                               "player at=1,2 heading=0\n"
                               "guard near at=14,1 heading=0 view=3 fov=60\n"
                               "guard shut at=17,2 heading=180 view=3 fov=60\n"
                               "grid\n"
                               "###################\n"
                               "#...............#.#\n"
                               "#...............#.#\n"
                               "#....#..........#.#\n"
                               "###################\n"
                               "end\n";

START_TEST(test_stones_count) {
    write_file("stone.map", stone_map);
    play_session s;
    open_ok(&s, "stone.map");
    ck_assert_int_eq(s.stones, PLAY_STONES);
    ck_assert_int_eq(s.thrown, 0);
    for (int i = 0; i < PLAY_STONES; i++) {
        ck_assert_int_eq(play_throw(&s, 4, 1, NULL, NULL), 1);
        ck_assert_int_eq(s.stones, PLAY_STONES - 1 - i);
        play_tick(&s, 0, 0);
    }
    int lx = -1, ly = -1;
    ck_assert_int_eq(play_throw(&s, 4, 1, &lx, &ly), 0); /* none left */
    ck_assert_int_eq(play_throw_facing(&s, &lx, &ly), 0);
    ck_assert_int_eq(lx, -1);
    ck_assert_int_eq(s.stones, 0);
    ck_assert_int_eq(s.thrown, PLAY_STONES);
    pt_error err;
    ck_assert_int_eq(play_restart(&s, &err), PT_OK);
    ck_assert_int_eq(s.stones, PLAY_STONES);
    ck_assert_int_eq(s.thrown, 0);
    play_close(&s);
}
END_TEST

/* Where a stone lands: the range clamps it, a wall stops it before itself, the noise is made
 * there in the next step with the documented loudness. */
START_TEST(test_throw_lands) {
    write_file("stone.map", stone_map);
    play_session s;
    open_ok(&s, "stone.map");
    int lx = -1, ly = -1;
    ck_assert_int_eq(play_throw(&s, 1, 2, &lx, &ly), 0); /* at the player's own cell */
    ck_assert_int_eq(play_throw(&s, 0, 2, &lx, &ly), 0); /* a wall right in front */
    ck_assert_int_eq(s.stones, PLAY_STONES);
    /* Too far: clamped to PLAY_THROW_RANGE along the line. */
    ck_assert_int_eq(play_throw(&s, 1 + PLAY_THROW_RANGE + 5, 2, &lx, &ly), 1);
    ck_assert_int_eq(lx, 1 + PLAY_THROW_RANGE);
    ck_assert_int_eq(ly, 2);
    play_tick(&s, 0, 0);
    int found = 0;
    for (int i = 0; i < s.nnoises; i++)
        if (s.noises[i].kind == PT_NOISE_GAME && s.noises[i].x == lx && s.noises[i].y == ly) {
            ck_assert(s.noises[i].loudness == PLAY_STONE_LOUDNESS);
            found++;
        }
    ck_assert_int_eq(found, 1);
    /* Through a wall: the pillar at 5,3 stops the stone on the cell before it. */
    pt_cell line[16];
    int n = pt_line_cells(1, 2, 7, 4, line, 16), k = 1;
    while (k < n && pt_map_walkable(&s.level->map, line[k].x, line[k].y)) k++;
    ck_assert_msg(k < n && line[k].x == 5 && line[k].y == 3, "the test line must meet the pillar");
    ck_assert_int_eq(play_throw(&s, 7, 4, &lx, &ly), 1);
    ck_assert_int_eq(lx, line[k - 1].x);
    ck_assert_int_eq(ly, line[k - 1].y);
    /* The key throw: the way the player faces (east), as far as the range. */
    ck_assert_int_eq(play_throw_facing(&s, &lx, &ly), 1);
    ck_assert_int_eq(lx, 1 + PLAY_THROW_RANGE);
    ck_assert_int_eq(ly, 2);
    play_close(&s);
}
END_TEST

/* The guard in the hall goes to the stone; the one behind the wall never hears it. */
START_TEST(test_stone_draws_a_guard) {
    write_file("stone.map", stone_map);
    play_session s;
    open_ok(&s, "stone.map");
    const int tx = 9, ty = 2;
    const pt_entity *near = pt_world_entity(s.world, 1), *shut = pt_world_entity(s.world, 2);
    ck_assert_str_eq(near->name, "near");
    int nx0 = near->x, sx0 = shut->x, sy0 = shut->y;
    int d0 = abs(nx0 - tx) > abs(near->y - ty) ? abs(nx0 - tx) : abs(near->y - ty);
    for (int t = 0; t < 60; t++) play_tick(&s, 0, 0); /* nothing happens without a stone */
    ck_assert_int_eq(pt_world_entity(s.world, 1)->x, nx0);
    ck_assert_int_eq(play_throw(&s, tx, ty, NULL, NULL), 1);
    int best = d0, investigated = 0, shut_moved = 0;
    for (int t = 0; t < 400 && s.round == 0; t++) {
        play_tick(&s, 0, 0);
        near = pt_world_entity(s.world, 1);
        shut = pt_world_entity(s.world, 2);
        int d = abs(near->x - tx) > abs(near->y - ty) ? abs(near->x - tx) : abs(near->y - ty);
        if (d < best) best = d;
        investigated |= near->state == PT_STATE_INVESTIGATE;
        shut_moved |= shut->x != sx0 || shut->y != sy0 || shut->state == PT_STATE_INVESTIGATE;
    }
    ck_assert_int_eq(s.round, 0);
    ck_assert(investigated);
    ck_assert_int_le(best, 1);
    ck_assert_int_lt(best, d0);
    ck_assert(!shut_moved);
    play_close(&s);
}
END_TEST

/* The "no stones" badge: a won round without a throw earns it, with one does not. */
START_TEST(test_no_stones_badge) {
    write_file("goal.map", goal_map);
    for (int throw = 0; throw < 2; throw++) {
        play_session s;
        open_ok(&s, "goal.map");
        if (throw) ck_assert_int_eq(play_throw(&s, 3, 1, NULL, NULL), 1);
        for (int t = 0; t < 300 && s.round == 0; t++) play_tick(&s, 1, 0);
        ck_assert_int_eq(s.round, 1);
        int ghost = -1, calm = -1, no_stones = -1;
        play_badges(&s, &ghost, &calm, &no_stones);
        ck_assert_int_eq(ghost, 1);
        ck_assert_int_eq(calm, 1);
        ck_assert_int_eq(no_stones, !throw);
        /* A throw after the round ended is refused and changes nothing. */
        ck_assert_int_eq(play_throw(&s, 2, 1, NULL, NULL), 0);
        play_badges(&s, &ghost, &calm, &no_stones);
        ck_assert_int_eq(no_stones, !throw);
        play_close(&s);
    }
}
END_TEST

START_TEST(test_messages_limits) {
    write_file("goal.map", goal_map);
    play_session s;
    open_ok(&s, "goal.map");
    /* More messages than fit: the oldest give way; text is cut to the buffer. */
    for (int i = 0; i < 3 * PLAY_MSGS; i++) say(&s, 0xffffffffu, "message %d %0200d", i, 0);
    ck_assert_int_eq(s.nmsgs, PLAY_MSGS);
    ck_assert_int_eq(s.msgs[PLAY_MSGS - 1].text[sizeof s.msgs[0].text - 1], '\0');
    ck_assert(strncmp(s.msgs[0].text, "message 8 ", 10) == 0);
    play_close(&s);
}
END_TEST

static Suite *session_suite(void) {
    Suite *s = suite_create("play_session");
    TCase *core = tcase_create("core");
    tcase_add_checked_fixture(core, setup, NULL);
    tcase_add_test(core, test_open_errors);
    tcase_add_test(core, test_reload_keeps_world_on_error);
    tcase_add_test(core, test_a_file_named_twice_is_loaded_once);
    tcase_add_test(core, test_taps);
    tcase_add_test(core, test_gait_and_noises);
    tcase_add_test(core, test_goal_ends_round);
    tcase_add_test(core, test_spotted_and_caught);
    tcase_add_test(core, test_sound_cues);
    tcase_add_test(core, test_log_lines);
    tcase_add_test(core, test_stones_count);
    tcase_add_test(core, test_throw_lands);
    tcase_add_test(core, test_stone_draws_a_guard);
    tcase_add_test(core, test_no_stones_badge);
    tcase_add_test(core, test_watch_reloads);
    tcase_add_test(core, test_record_replays_to_the_same_trace);
    tcase_add_test(core, test_tick_entry);
    tcase_add_test(core, test_bad_recordings);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_checked_fixture(limits, setup, NULL);
    tcase_add_test(limits, test_messages_limits);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(session_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
