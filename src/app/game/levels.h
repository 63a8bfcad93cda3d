/* SPDX-License-Identifier: Zlib */
/* levels.h - the game's level list and the screens around the levels (title, level select,
 * result), as plain state: no SDL, so the tests drive them without a window.
 *
 * A level list file names the levels in the order they are offered, one map path a line,
 * relative to the list file's folder; `#` starts a comment, blank lines are skipped, a path
 * with spaces is quoted:
 *
 *     # patrol's levels, easiest first
 *     demo.map          difficulty=easy
 *     "the river.map"
 *
 * After the path a line may give the level's difficulty, difficulty=WORD (letters, digits and
 * '-', at most APP_DIFFICULTY_MAX bytes), which the level select shows beside its name.
 *
 *     app_levels l;
 *     if (app_levels_load(&l, "maps/levels.txt", &err, &why) < 0) ...  // err: the list's line
 *     ... l.items[i].title, l.items[i].path, l.items[i].hash ...
 *     app_levels_fini(&l);
 *
 * The screens: app_menu holds which screen shows and what is selected; app_menu_key and
 * app_menu_click move between them and say what the window must do (start a level, quit).
 */
#ifndef PATROL_APP_LEVELS_H
#define PATROL_APP_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include <patrol/config.h>
#include <patrol/error.h>

#define APP_LEVELS_MAX 256 /* levels in one list */
#define APP_DIFFICULTY_MAX 16 /* bytes of a level's difficulty word */

typedef struct app_level_item {
    char path[PT_MAX_PATH];  /* the map: the list's folder + the line's path */
    char title[64];          /* the map's title (its file name when it has none) */
    char difficulty[APP_DIFFICULTY_MAX + 1]; /* the line's difficulty=WORD ("" = none given) */
    uint64_t hash;           /* app_file_hash of the map file: its key in the progress file */
    int line;                /* where the list names it */
} app_level_item;

typedef struct app_levels {
    char file[PT_MAX_PATH];  /* the list file */
    app_level_item *items;
    int n;
} app_levels;

/* Parses the text of a list file (name for errors and the folder paths are relative to):
 * the paths and difficulties only, no map is read. Errors, located (line, column): a second
 * word on a line that is not difficulty=WORD, or a third word (PT_ERR_SYNTAX), a difficulty
 * word empty, too long or with another character (PT_ERR_BAD_VALUE, at the word), a path with a control character or too long (from the shared tokenizer),
 * a map listed twice (PT_ERR_DUPLICATE, at the second), more than APP_LEVELS_MAX levels
 * (PT_ERR_LIMIT), no level at all (PT_ERR_EMPTY, line 0). On failure l holds nothing. */
int app_levels_parse(app_levels *l, const char *name, const char *text, size_t len, pt_error *err);

/* Reads and parses the list file, then loads every level (its map and patterns, as play
 * does) for its title and hash. A level that does not load fails the whole list: err is
 * located at the list's line ("level 2, dark.map, does not load") and why (may be NULL) gets
 * the map's own error. A list file that cannot be read: PT_ERR_IO. On failure l holds nothing. */
int app_levels_load(app_levels *l, const char *path, pt_error *err, pt_error *why);
void app_levels_fini(app_levels *l);

/* The level select's row label of level i (0-based) of l: " 1  TITLE", then "  - WORD" when
 * the list gives its difficulty. */
void app_level_label(const app_levels *l, int i, char *buf, size_t cap);

/* The result screen after an escape from level `level` of l (level_title its name, rest the
 * lines of the time and the badges): returns the big title and writes the lines under it to
 * buf. "ESCAPED!" and the level's name, a blank line, rest; after the list's last level the
 * ending: "THE END", the level's name as the last one got away from, how many of the list's
 * levels are escaped (`escaped`, this one counted: "all N levels escaped - thanks for
 * playing", or "K of N levels escaped - the level list shows the rest"), a blank line, rest. */
const char *app_result_text(const app_levels *l, int level, const char *level_title, const char *rest, int escaped,
                            char *buf, size_t cap);

/* The default list: levels.txt beside the demo map (app_default_map: an installed
 * share/patrol/examples/ beside the program, ./maps/, or the source tree's maps/). */
const char *app_default_levels(char *buf, size_t cap);

/* ---- the screens ----------------------------------------------------------------------------- */

typedef enum app_screen {
    APP_SCREEN_TITLE = 0,  /* the game's name, "press Enter" */
    APP_SCREEN_LEVELS,     /* the level select */
    APP_SCREEN_PLAY,       /* a level is played */
    APP_SCREEN_RESULT,     /* after an escape: next level, retry, the list */
    APP_SCREEN_QUIT
} app_screen;

typedef enum app_menu_input {
    APP_MENU_UP = 0,
    APP_MENU_DOWN,
    APP_MENU_HOME,
    APP_MENU_END,
    APP_MENU_ENTER,  /* Enter, Space: choose */
    APP_MENU_BACK    /* Esc */
} app_menu_input;

/* What the window does after a key or a click. */
typedef enum app_menu_do {
    APP_MENU_NOTHING = 0,
    APP_MENU_MOVED,      /* the selection changed (show the selected level behind the list) */
    APP_MENU_START,      /* start level m->level from its beginning (a new session) */
    APP_MENU_SHOW,       /* a menu screen came (TITLE / LEVELS / RESULT): nothing to load */
    APP_MENU_QUIT
} app_menu_do;

/* The result screen's choices, top to bottom (NEXT only when a level follows). */
typedef enum app_result_choice { APP_RESULT_NEXT = 0, APP_RESULT_RETRY, APP_RESULT_LIST } app_result_choice;

typedef struct app_menu {
    app_screen screen;
    int nlevels;
    int level;           /* LEVELS: the level selected; PLAY, RESULT: the level played */
    int choice;          /* RESULT: the selected row (app_menu_choices) */
} app_menu;

/* A menu over nlevels levels, on the title screen. */
void app_menu_init(app_menu *m, int nlevels);
/* The rows the screen offers: LEVELS: nlevels; RESULT: 2 or 3 (app_menu_choice_at); else 0. */
int app_menu_rows(const app_menu *m);
/* The result screen's row i as a choice. */
app_result_choice app_menu_choice_at(const app_menu *m, int i);
/* The selected row of the screen (LEVELS: the level; RESULT: the choice; else -1). */
int app_menu_selected(const app_menu *m);

/* A key. TITLE: Enter -> LEVELS, Esc quits. LEVELS: Up/Down/Home/End move (wrapping at the
 * ends for Up/Down), Enter starts the level, Esc -> TITLE. RESULT: Up/Down/Home/End move,
 * Enter does the choice (NEXT starts the next level, RETRY the same, LIST -> LEVELS with the
 * next level selected), Esc -> LEVELS. PLAY: Esc -> LEVELS with the level selected (the
 * window handles every other key of a level itself). */
app_menu_do app_menu_key(app_menu *m, app_menu_input key);
/* The pointer over row (-1 = none): it becomes the selection (MOVED when it changed). A click
 * on a row selects it and chooses it as Enter does; a click elsewhere on the title screen
 * is Enter too. */
app_menu_do app_menu_point(app_menu *m, int row, int click);
/* The level was escaped: PLAY -> RESULT with the first choice selected (NEXT, or RETRY on the
 * last level). */
void app_menu_escaped(app_menu *m);

#endif
