/* SPDX-License-Identifier: Zlib */
/* heist.c - a small game built around patrol (docs/embedding.md walks through it).
 *
 * The game owns its thief: its own physics (acceleration, a top speed, sliding along walls)
 * moves it, and the world is told where it is each tick (pt_player_move), never given an
 * input. The game picks a locked door open and closes it behind the thief (pt_world_set_door),
 * calls a guard from the vault when the alarm rises (pt_world_spawn_line) and sends it to look
 * (pt_world_order_investigate), and quick-saves the world with its own state in the save's
 * source text (pt_world_save), then loads that save and plays the rest again to show that the
 * copy goes on exactly as the original did.
 *
 * Build: cc -std=c17 heist.c $(pkg-config --cflags --libs patrol) -o heist
 * Run:   ./heist examples/heist/heist.map [--quiet]
 * Exit 0 when the story played as it must (the checks at the end), 1 otherwise. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <patrol/door.h>
#include <patrol/player.h>
#include <patrol/save.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PICK_TICKS = 420, END_TICKS = 3600, SAVES = 2 };
/* Quick saves: before anything happens, and in the chase (a guard spawned, doors changed). */
static const uint64_t SAVE_AT[SAVES] = {300, 600};
static const double TOP_SPEED = 3.5; /* tiles per second: a little under the map's walk speed */
static const double ACCEL = 20.0;    /* tiles per second, per second */
static const int LOCK_X = 6, LOCK_Y = 6;

/* The thief's route: cell centres, in order. Leg 1 ends at the lock, where it waits. */
static const double ROUTE[][2] = {{1.5, 9.5}, {5.5, 6.5}, {8.5, 6.5}, {17.5, 4.5}};
enum { ROUTE_LEGS = sizeof ROUTE / sizeof ROUTE[0] };

/* Everything the game itself knows: it goes into the save's source text, so a loaded save
 * restores the game with the world. */
typedef struct game {
    double px, py, vx, vy; /* the thief, tiles and tiles per second */
    int leg;               /* the route point it heads for */
    int picked;            /* ticks spent picking the lock */
    int shut_behind;       /* 1 once it closed the lock door behind it */
    int reinforcement;     /* the id of the guard called from the vault, 0 before the alarm */
} game;

/* What happened, for the story and the checks at the end. */
typedef struct tally {
    int guard_opened, guard_closed, game_unlocked, game_closed, spawned, order_done, moves_refused;
    int moves_match; /* the world's player stood where the game put it, every tick */
} tally;

static int quiet;

static void say(const pt_world *w, const char *fmt, const char *what) {
    if (!quiet) printf("%6.2f s  %s %s\n", (double)pt_world_tick(w) * pt_world_dt(w), fmt, what ? what : "");
}

static int walkable(const pt_world *w, double x, double y) {
    return x >= 0 && y >= 0 && pt_map_walkable(pt_world_map(w), (int)floor(x), (int)floor(y));
}

/* The game's physics for one tick: steer toward the route point, slide along walls. */
static void thief_physics(const pt_world *w, game *g) {
    double dt = pt_world_dt(w);
    double want_x = 0, want_y = 0;
    if (g->leg < ROUTE_LEGS) {
        double dx = ROUTE[g->leg][0] - g->px, dy = ROUTE[g->leg][1] - g->py, d = hypot(dx, dy);
        double speed = fmin(TOP_SPEED, d * 4.0); /* slow down on arrival */
        if (d > 1e-9) want_x = dx / d * speed, want_y = dy / d * speed;
    }
    double ax = want_x - g->vx, ay = want_y - g->vy, a = hypot(ax, ay), amax = ACCEL * dt;
    if (a > amax) ax *= amax / a, ay *= amax / a;
    g->vx += ax;
    g->vy += ay;
    double nx = g->px + g->vx * dt, ny = g->py + g->vy * dt;
    if (!walkable(w, nx, g->py)) nx = g->px, g->vx = 0; /* slide: each axis on its own */
    if (!walkable(w, nx, ny)) ny = g->py, g->vy = 0;
    g->px = nx;
    g->py = ny;
}

/* The game's turn before a step: its physics, the lock, the door behind, the world told. */
static void game_tick(pt_world *w, game *g, tally *t) {
    pt_error err;
    thief_physics(w, g);
    if (g->leg < ROUTE_LEGS && hypot(ROUTE[g->leg][0] - g->px, ROUTE[g->leg][1] - g->py) < 0.15) {
        if (g->leg == 1 && pt_world_door(w, LOCK_X, LOCK_Y) == PT_DOOR_LOCKED) {
            if (++g->picked >= PICK_TICKS && pt_world_set_door(w, LOCK_X, LOCK_Y, PT_DOOR_OPEN, &err) == PT_OK) {
                t->game_unlocked++;
                say(w, "the thief picked the lock of", "the door at 6,6");
            }
        } else if (g->leg == 1 && pt_world_door(w, LOCK_X, LOCK_Y) == PT_DOOR_CLOSED) {
            pt_world_set_door(w, LOCK_X, LOCK_Y, PT_DOOR_OPEN, &err); /* a guard shut it again */
        } else {
            g->leg++;
        }
    }
    /* Through the lock door: shut it behind (a guard can open a closed door, not a locked one). */
    if (!g->shut_behind && g->px >= LOCK_X + 1.6) {
        g->shut_behind = pt_world_set_door(w, LOCK_X, LOCK_Y, PT_DOOR_CLOSED, &err) == PT_OK;
        if (g->shut_behind) {
            t->game_closed++;
            say(w, "the thief shut", "the door at 6,6 behind it");
        }
    }
    if (pt_player_move(w, g->px, g->py, g->vx, g->vy, &err) != PT_OK) t->moves_refused++;
}

/* The game reads the step's events: it tells the story, and calls a guard at the alarm. */
static void game_events(pt_world *w, game *g, tally *t) {
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int k = 0; k < n; k++) {
        const pt_entity *who = ev[k].a < (uint32_t)pt_world_count(w) ? pt_world_entity(w, (int)ev[k].a) : NULL;
        const char *name = who ? who->name : "?";
        switch (ev[k].kind) {
        case PT_EVENT_DOOR: {
            /* A guard's: the game's own calls were counted where it made them (their events are
             * among the last step's, read before the call). */
            int opened = ev[k].b == PT_DOOR_OPEN;
            if (ev[k].a == PT_DOOR_BY_GAME) break;
            ++*(opened ? &t->guard_opened : &t->guard_closed);
            char what[96];
            snprintf(what, sizeof what, "the door at %d,%d (%s)", ev[k].x, ev[k].y, name);
            say(w, opened ? "opened" : "shut", what);
            break;
        }
        case PT_EVENT_SPOTTED: say(w, "spotted by", name); break;
        case PT_EVENT_PHASE:
            if (ev[k].a == PT_PHASE_ALERT && !g->reinforcement) {
                pt_error err;
                int id = pt_world_spawn_line(w, "guard vault at=17,10 heading=180 view=6 fov=120 speed=2.5 chase=tile",
                                             "heist", NULL, &err);
                if (id < 0) {
                    pt_error_print(stderr, &err);
                    break;
                }
                g->reinforcement = id;
                pt_world_order_investigate(w, id, LOCK_X + 1, LOCK_Y); /* the lock door, inside */
                say(w, "alarm: a guard comes from the vault", NULL);
            }
            break;
        case PT_EVENT_SPAWNED: t->spawned++; break;
        case PT_EVENT_ORDER_DONE: t->order_done++; say(w, "order carried out by", name); break;
        case PT_EVENT_CAUGHT: say(w, "caught by", name); break;
        case PT_EVENT_GOAL: say(w, "the vault is reached", NULL); break;
        default: break;
        }
    }
}

/* A quick save: the world with the game's state in its source text, and where the original's
 * trace rows were when it was made. */
typedef struct slot {
    void *data;
    size_t size;
    long rows_at;
} slot;

/* Plays from the world's tick to the round's end (or END_TICKS), writing every step's trace
 * rows to rows. At each tick of SAVE_AT it quick-saves into slots (when slots is not NULL).
 * Returns the round's status. */
static int play(pt_world *w, game *g, tally *t, slot *slots, FILE *rows) {
    t->moves_match = 1;
    while (pt_world_tick(w) < END_TICKS && pt_world_round(w) == 0) {
        for (int k = 0; slots && k < SAVES; k++) {
            if (pt_world_tick(w) != SAVE_AT[k]) continue;
            char state[256];
            snprintf(state, sizeof state, "heist %.17g %.17g %.17g %.17g %d %d %d %d", g->px, g->py, g->vx, g->vy, g->leg,
                     g->picked, g->shut_behind, g->reinforcement);
            pt_error err;
            if (pt_world_save(w, state, &slots[k].data, &slots[k].size, &err) != PT_OK) {
                pt_error_print(stderr, &err);
                return 2;
            }
            fflush(rows);
            slots[k].rows_at = ftell(rows);
            say(w, "quick save", NULL);
        }
        game_tick(w, g, t);
        pt_world_step(w);
        const pt_entity *p = pt_world_entity(w, 0);
        if (p->px != g->px || p->py != g->py) t->moves_match = 0;
        game_events(w, g, t);
        pt_world_trace_rows(w, rows);
    }
    return pt_world_round(w);
}

/* Quick load of slot: the world from the save, the game from its source text; plays the rest
 * and returns 1 when its rows are the original's from the save on (and the thief moved by the
 * game's physics alone). */
static int replay_slot(const slot *sl, const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc,
                       const char *rows, size_t len) {
    pt_error err;
    pt_world *copy = pt_world_load(sl->data, sl->size, map, lib, desc, &err);
    if (!copy) {
        pt_error_print(stderr, &err);
        return 0;
    }
    game h = {0};
    tally u = {0};
    char state[256], *mine = NULL;
    size_t mine_len = 0;
    int ok = pt_save_source(sl->data, sl->size, state, sizeof state, &err) == PT_OK &&
             sscanf(state, "heist %lf %lf %lf %lf %d %d %d %d", &h.px, &h.py, &h.vx, &h.vy, &h.leg, &h.picked,
                    &h.shut_behind, &h.reinforcement) == 8;
    FILE *f = open_memstream(&mine, &mine_len);
    int was_quiet = quiet;
    quiet = 1;
    if (ok) play(copy, &h, &u, NULL, f);
    quiet = was_quiet;
    fclose(f);
    ok = ok && u.moves_refused == 0 && u.moves_match && sl->rows_at >= 0 && (size_t)sl->rows_at <= len &&
         mine_len == len - (size_t)sl->rows_at && memcmp(mine, rows + sl->rows_at, mine_len) == 0;
    free(mine);
    pt_world_destroy(copy);
    return ok;
}

static int check(int ok, const char *what) {
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    return ok;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "examples/heist/heist.map";
    quiet = argc > 2 && strcmp(argv[2], "--quiet") == 0;
    pt_map map;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (pt_map_load(&map, path, &err) < 0) {
        pt_error_print(stderr, &err);
        return 1;
    }
    for (int i = 0; i < map.npattern_files; i++)
        if (pt_patlib_load_map_file(&lib, &map, i, &err) < 0) {
            pt_error_print(stderr, &err);
            return 1;
        }
    pt_world_desc desc = {.end_round_on_catch = 1};
    pt_world *w = pt_world_create(&map, &lib, &desc, &err);
    if (!w) {
        pt_error_print(stderr, &err);
        return 1;
    }
    pt_player_host(w); /* from now on the game moves the thief */
    const pt_entity *p = pt_world_entity(w, 0);
    game g = {.px = p->px, .py = p->py};
    tally t = {0};
    slot slots[SAVES] = {{0}};
    char *rows = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rows, &len);
    int round = play(w, &g, &t, slots, f);
    fclose(f);
    if (!quiet) printf("%s after %.2f s\n", round > 0 ? "won" : round < 0 ? "caught" : "time up",
                       (double)pt_world_tick(w) * pt_world_dt(w));

    int ok = 1;
    ok &= check(t.moves_refused == 0 && t.moves_match, "the thief moved by the game's physics alone, every tick");
    ok &= check(t.guard_opened > 0 && t.guard_closed > 0, "the watchman opened a door on his round and shut it behind");
    ok &= check(t.game_unlocked > 0 && t.game_closed > 0, "the game picked the lock and shut the door behind the thief");
    ok &= check(g.reinforcement > 0 && t.spawned == 1, "the alarm called one guard from the vault");
    ok &= check(round != 0, "the round ended (the vault reached or the thief caught)");
    for (int k = 0; k < SAVES; k++) {
        char what[96];
        snprintf(what, sizeof what, "the quick save of tick %d, loaded, played on tick for tick as the original",
                 (int)SAVE_AT[k]);
        ok &= check(slots[k].data && replay_slot(&slots[k], &map, &lib, &desc, rows, len), what);
        pt_world_save_free(slots[k].data);
    }
    free(rows);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return ok ? 0 : 1;
}
