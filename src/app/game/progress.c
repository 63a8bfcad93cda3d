/* SPDX-License-Identifier: Zlib */
/* The progress file: parse strictly, keep a bad file aside, save through a rename. */
#include "game/progress.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int bad(app_progress *p, const char *path, FILE *report, int line, const char *why) {
    p->n = 0;
    char aside[4200];
    snprintf(aside, sizeof aside, "%s.bad", path);
    int moved = rename(path, aside) == 0;
    if (report)
        fprintf(report, "patrol play: %s:%d: error: %s; progress starts afresh%s%s\n", path, line, why,
                moved ? ", the old file kept as " : "", moved ? aside : "");
    return -1;
}

int app_progress_load(app_progress *p, const char *path, FILE *report) {
    p->n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        if (report) fprintf(report, "patrol play: %s: cannot read the progress file: %s\n", path, strerror(errno));
        return -1;
    }
    char buf[512];
    int line = 0, version = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            fclose(f);
            return bad(p, path, report, line, "line too long");
        }
        if (buf[0] == '\n' || buf[0] == '#') continue;
        if (line == 1) {
            char extra;
            if (sscanf(buf, "patrol-progress %d %c", &version, &extra) != 1 || version != APP_PROGRESS_VERSION) {
                fclose(f);
                return bad(p, path, report, line, "not a patrol progress file of version 1");
            }
            continue;
        }
        app_level_best b;
        char extra;
        uint64_t level;
        if (sscanf(buf, "level %16" SCNx64 " best_ms %ld ghost %d calm %d no_stones %d %c", &level, &b.best_ms,
                   &b.ghost, &b.calm, &b.no_stones, &extra) != 5 ||
            b.best_ms < 0 || (b.ghost | b.calm | b.no_stones) & ~1) {
            fclose(f);
            return bad(p, path, report, line, "expected 'level HASH best_ms MS ghost 0|1 calm 0|1 no_stones 0|1'");
        }
        b.level = level;
        if (p->n == APP_PROGRESS_MAX) memmove(p->levels, p->levels + 1, sizeof p->levels[0] * (APP_PROGRESS_MAX - 1)), p->n--;
        p->levels[p->n++] = b;
    }
    int err = ferror(f);
    fclose(f);
    if (err) return bad(p, path, report, line, "read error");
    if (version == 0) return bad(p, path, report, 1, "empty file");
    return 0;
}

int app_progress_save(const app_progress *p, const char *path) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    fprintf(f, "patrol-progress %d\n", APP_PROGRESS_VERSION);
    for (int i = 0; i < p->n; i++) {
        const app_level_best *b = &p->levels[i];
        fprintf(f, "level %016" PRIx64 " best_ms %ld ghost %d calm %d no_stones %d\n", b->level, b->best_ms, b->ghost,
                b->calm, b->no_stones);
    }
    if (fclose(f) != 0) {
        remove(tmp);
        return -1;
    }
    return rename(tmp, path) == 0 ? 0 : -1;
}

const app_level_best *app_progress_find(const app_progress *p, uint64_t level) {
    for (int i = 0; i < p->n; i++)
        if (p->levels[i].level == level) return &p->levels[i];
    return NULL;
}

app_level_best *app_progress_record(app_progress *p, uint64_t level, long ms, int ghost, int calm, int no_stones,
                                    int *new_best) {
    app_level_best *b = (app_level_best *)app_progress_find(p, level);
    if (!b) {
        if (p->n == APP_PROGRESS_MAX) memmove(p->levels, p->levels + 1, sizeof p->levels[0] * (APP_PROGRESS_MAX - 1)), p->n--;
        b = &p->levels[p->n++];
        *b = (app_level_best){level, -1, 0, 0, 0};
    }
    *new_best = b->best_ms < 0 || ms < b->best_ms;
    if (*new_best) b->best_ms = ms;
    b->ghost |= ghost != 0;
    b->calm |= calm != 0;
    b->no_stones |= no_stones != 0;
    return b;
}
