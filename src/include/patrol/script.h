/* SPDX-License-Identifier: Zlib */
/* patrol/script.h - timed world commands from text: `.script` files (docs/formats.md,
 * "Scripts (`.script`)"), for designers and tests. `patrol sim MAP --script FILE` and a
 * `.test` file's `script FILE` line run them.
 *
 *     pt_script s;
 *     if (pt_script_load(&s, "maps/blast.script", &err) < 0) ...  // located error
 *     if (pt_script_bind(&s, &map, &err) < 0) ...                 // cells and tiles vs the map
 *     int cursor = 0;                                              // one per world
 *     for (long t = 0; t < ticks; t++) {
 *         if (pt_script_apply(&s, &cursor, w, &err) < 0) ...       // the commands due now
 *         pt_world_step(w);
 *     }
 *     pt_script_fini(&s);
 *
 * Timing: a command `at T` is due once pt_world_tick(w) >= T, that is after T steps (on a
 * fresh world, at 0, before the first step); pt_script_apply, called between steps, applies
 * the commands due that it has not applied yet (the cursor counts them), in file order. So
 * the step after it (trace rows of tick T+1) is the first that runs with the command.
 * Sharing: pt_script_apply does not change the script: one script may serve several
 * worlds, each with its own cursor, on several threads.
 */
#ifndef PATROL_SCRIPT_H
#define PATROL_SCRIPT_H

#include <stdint.h>

#include "api.h"
#include "config.h"
#include "error.h"
#include "map.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

/* The most commands a script may hold (PT_ERR_LIMIT past it). */
#define PT_SCRIPT_MAX_COMMANDS 100000
/* The latest time a command may name, in ticks (the largest `patrol sim --ticks`). */
#define PT_SCRIPT_MAX_TICK 1000000000L

/* The longest spawn line (from its kind word) or name a command holds, with its NUL. */
#define PT_SCRIPT_MAX_TEXT 240
/* What a command does (docs/formats.md, "Scripts"): one entry each in script.c's table. */
typedef enum pt_script_verb {
    PT_SCRIPT_TILE = 0,    /* tile X,Y C: pt_world_set_tile */
    PT_SCRIPT_PLAYER,      /* player X,Y: pt_player_host, then pt_player_teleport to the centre */
    PT_SCRIPT_NOISE,       /* noise X,Y L: pt_world_noise */
    PT_SCRIPT_GAIT,        /* gait walk|sneak|run: pt_world_set_gait */
    PT_SCRIPT_DOOR,        /* door X,Y open|closed|locked: pt_world_set_door (patrol/door.h) */
    PT_SCRIPT_SPAWN,       /* spawn guard|prey|flock NAME KEY=VALUE...: pt_world_spawn_line */
    PT_SCRIPT_REMOVE,      /* remove NAME: pt_world_remove */
    PT_SCRIPT_ORDER,       /* order NAME goto X,Y|investigate X,Y|hold|resume: pt_world_order_* */
    PT_SCRIPT_LIGHT,       /* light NAME on|off: pt_world_set_light (patrol/light.h) */
    PT_SCRIPT_VERB_COUNT
} pt_script_verb;

/* One timed command, as read. */
typedef struct pt_script_cmd {
    uint64_t tick;         /* due when pt_world_tick(w) >= tick */
    pt_script_verb verb;
    int line, col;         /* its line; the column of its verb */
    int arg_col[4];        /* the column of each argument after the verb */
    int x, y;              /* tile, player, noise: the cell */
    double value;          /* noise: the loudness, tiles */
    int choice;            /* tile: the legend character; gait: the pt_gait; door: the
                              pt_door_state; order: 0 goto, 1 investigate, 2 hold, 3 resume;
                              light: 1 on, 0 off */
    char text[PT_SCRIPT_MAX_TEXT]; /* spawn: the entity line; remove, order, light: the NAME */
} pt_script_cmd;

typedef struct pt_script {
    char path[PT_MAX_PATH]; /* for errors at bind and apply time */
    pt_script_cmd *cmds;   /* in file order, their ticks never decreasing */
    int count;
} pt_script;

/* Reads a script (or text in memory; name is used in errors). On error returns the code with
 * err located and *s holds nothing to free. An empty script (comments only) is valid. */
int pt_script_load(pt_script *s, const char *path, pt_error *err);
int pt_script_parse(pt_script *s, const char *text, size_t len, const char *name, pt_error *err);
void pt_script_fini(pt_script *s);

/* Checks the commands against a map the world will be made from: every cell inside it
 * (PT_ERR_OUT_OF_MAP), every tile character in its legend (PT_ERR_UNKNOWN_TILE), every
 * `door` cell a door of the map (a cell of a door kind: PT_ERR_BAD_VALUE), every `light`
 * NAME a light of the map (PT_ERR_MISSING, with the nearest name as a hint), located at the
 * argument. Walkability is the world's at apply time (the map may change). */
int pt_script_bind(const pt_script *s, const pt_map *map, pt_error *err);

/* Applies to w every command due (above) from *cursor on, advancing *cursor past each.
 * Returns how many it applied, or a negative code with err located at the command (its file,
 * line and argument; the message begins "at tick T: ") when the world refuses one (a
 * `player` cell that cannot be walked on now, a tile the world refuses); *cursor is then on
 * that command, the ones before it applied. A NAME (remove, order) is looked up at apply
 * time among the live entities (one spawned by an earlier command counts); an unknown one is
 * such an error, located at the name. */
int pt_script_apply(const pt_script *s, int *cursor, pt_world *w, pt_error *err);

/* "tile", "player", "noise", "gait", "door"; "unknown" out of range. */
/* "tile", "player", "noise", "gait", "spawn", "remove", "order", "light"; "unknown" out of
 * range. */
const char *pt_script_verb_name(pt_script_verb v);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
