/* SPDX-License-Identifier: Zlib */
/* Quick save and quick load of `patrol play` (docs/playing.md, "Quick save"): the world by
 * patrol/save.h, the round's counts in the save's source text, one slot file. No SDL. */
#include <patrol/save.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h" /* pt__file_read */
#include "game/play.h"

#define NOTE_OK 0x9adcffffu
#define NOTE_BAD 0xff8060ffu

int play_quick_save(play_session *s, const char *path, pt_error *err) {
    pt_error_clear(err);
    if (s->replay) {
        play_note(s, NOTE_BAD, "a replay is not saved");
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "a replay is not saved");
    }
    char src[PT_MAX_PATH + 512];
    snprintf(src, sizeof src,
             "patrol-play 1\nlevel %s\nticks %llu\nend_tick %llu\nround %d\nspotted %d\nalarmed %d\nstones %d\n"
             "thrown %d\nclock_base %llu\nstarted %d\nstart_tick %llu\ncatcher %d\ncaught_by %s\n",
             s->path, (unsigned long long)s->ticks, (unsigned long long)s->end_tick, s->round, s->spotted, s->alarmed,
             s->stones, s->thrown, (unsigned long long)s->clock_base, s->started, (unsigned long long)s->start_tick,
             s->catcher, s->caught_by);
    int rc = pt_world_save_file(s->world, path, src, err);
    if (rc < 0) {
        play_note(s, NOTE_BAD, "quick save failed (see the terminal)");
        return rc;
    }
    play_note(s, NOTE_OK, "saved - F9 loads it");
    return PT_OK;
}

/* The number after `key ` on a line of src (0 when none). */
static unsigned long long field(const char *src, const char *key) {
    size_t k = strlen(key);
    for (const char *l = src; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, key, k) == 0 && l[k] == ' ') return strtoull(l + k + 1, NULL, 10);
    return 0;
}

static unsigned char *read_all(const char *path, size_t *size, pt_error *err) {
    char *buf;
    return pt__file_read(path, (size_t)1 << 33, &buf, size, err) < 0 ? NULL : (unsigned char *)buf;
}

int play_quick_load(play_session *s, const char *path, pt_error *err) {
    pt_error_clear(err);
    if (s->replay) {
        play_note(s, NOTE_BAD, "a replay cannot load a save");
        return pt_error_set(err, PT_ERR_USAGE, 0, 0, "a replay cannot load a save");
    }
    size_t size = 0;
    unsigned char *data = read_all(path, &size, err);
    static char src[65537];
    pt_world *w = NULL;
    if (data && pt_save_source(data, size, src, sizeof src, err) == PT_OK) {
        if (strncmp(src, "patrol-play 1\n", 14) != 0)
            pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "not a quick save of patrol play");
        else
            w = pt_world_load(data, size, &s->level->map, &s->level->lib, &s->desc, err);
    }
    free(data);
    if (!w) {
        if (err->file[0] == '\0') snprintf(err->file, sizeof err->file, "%s", path);
        play_note(s, NOTE_BAD, err->code == PT_ERR_MISSING ? "that quick save is of another level"
                               : err->code == PT_ERR_IO   ? "no quick save to load"
                                                          : "the quick save is damaged");
        return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    }
    play_adopt_world(s, w);
    s->ticks = field(src, "ticks");
    s->end_tick = field(src, "end_tick");
    s->round = (int)field(src, "round");
    if (strstr(src, "\nround -1\n")) s->round = -1;
    s->spotted = (int)field(src, "spotted");
    s->alarmed = (int)field(src, "alarmed");
    s->stones = (int)field(src, "stones");
    s->thrown = (int)field(src, "thrown");
    s->clock_base = field(src, "clock_base");
    s->started = (int)field(src, "started");
    s->start_tick = field(src, "start_tick");
    s->catcher = strstr(src, "\ncatcher -1\n") ? -1 : (int)field(src, "catcher");
    const char *cb = strstr(src, "\ncaught_by ");
    s->caught_by[0] = '\0';
    _Static_assert(PT_MAX_NAME == 48, "the width below");
    if (cb) sscanf(cb + 11, "%47[^\n]", s->caught_by);
    play_note(s, NOTE_OK, "quick save loaded");
    return PT_OK;
}
