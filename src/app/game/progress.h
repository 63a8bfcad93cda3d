/* SPDX-License-Identifier: Zlib */
/* progress.h - the player's progress: per level, the best time and the badges earned, in a
 * small text file (SDL_GetPrefPath("patrol", "patrol") + "progress.txt" for `patrol play`).
 *
 *     patrol-progress 1
 *     level 9f86d081884c7d65 best_ms 41250 ghost 1 calm 0 no_stones 1
 *
 * One `level` line per level: the level is the 64-bit hash of its map file (an edited map is
 * a new level), best_ms the best escape time in milliseconds, then the badges as 0/1: ghost
 * (escaped never spotted), calm (escaped with no alarm phase), no_stones (escaped without
 * throwing a stone: play_badges). Badges, once earned,
 * stay. Unknown keys after best_ms are an error.
 *
 * A missing file is an empty progress. A file that does not parse is reported (file:line),
 * kept aside as FILE.bad and replaced by the next save: it never stops the game. No SDL here.
 */
#ifndef PATROL_APP_PROGRESS_H
#define PATROL_APP_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#define APP_PROGRESS_VERSION 1
#define APP_PROGRESS_MAX 1024 /* levels kept; beyond, the oldest line goes */

typedef struct app_level_best {
    uint64_t level;
    long best_ms;
    int ghost, calm, no_stones;
} app_level_best;

typedef struct app_progress {
    app_level_best levels[APP_PROGRESS_MAX];
    int n;
} app_progress;

/* Loads path into p. Returns 0 (read, or missing: empty), or -1 when the file was unreadable
 * or corrupt: p is empty, why went to report (may be NULL) and the file was renamed to
 * path + ".bad". */
int app_progress_load(app_progress *p, const char *path, FILE *report);
/* Writes p to path (through path + ".tmp" and a rename). 0, or -1 (errno set). */
int app_progress_save(const app_progress *p, const char *path);
/* An escape on level in ms with these badges: returns the level's record, updated;
 * *new_best is 1 when ms beat the old best (or there was none). */
app_level_best *app_progress_record(app_progress *p, uint64_t level, long ms, int ghost, int calm, int no_stones,
                                    int *new_best);
/* The record of a level, or NULL. */
const app_level_best *app_progress_find(const app_progress *p, uint64_t level);

#endif
