/* SPDX-License-Identifier: Zlib */
/* patrol/save.h - saving a world and loading it back: the loaded world continues tick for
 * tick exactly as the saved one would have (the same trace, events and noises), on every
 * build and with any number of threads.
 *
 *     void *data; size_t size;
 *     if (pt_world_save(w, NULL, &data, &size, &err) < 0) ...        // to memory
 *     pt_world *b = pt_world_load(data, size, &map, &lib, NULL, &err); // map, lib: as for w
 *     pt_world_save_free(data);
 *     pt_world_save_file(w, "slot1.sav", "maps/demo.map", &err);      // with a source string
 *     pt_world *c = pt_world_load_file("slot1.sav", &map, &lib, NULL, &err);
 *
 * A save holds the world's whole dynamic state (tick, RNG streams, entities, pattern runs,
 * brains and memories, the search, the alert phase, queued noises, the last step's events,
 * steering, flocks, prey, the round, the current tiles) and the world's settings from its
 * desc (seed, tick rate, player control, end of round on a catch, the phases' timing, the
 * player's pattern by name). Caches that follow from the state are rebuilt by the load.
 * docs/formats.md ("Save files") has the layout and every error.
 *
 * Loading needs the map the saved world was created from (as loaded, before any
 * pt_world_set_tile: the save holds the tiles as they are now) and the same pattern library;
 * a fingerprint of each is in the save and checked. The desc given to load supplies only what
 * is not state: threads and flock_reference (NULL = their defaults); when the saved world
 * had desc->player_pattern, the load takes desc->player_pattern if it has that name, else the
 * library's pattern of that name.
 *
 * The format has a version (PT_SAVE_VERSION): it rises whenever the world's state changes
 * (a new field, a new part), and a load refuses a save of any other version.
 */
#ifndef PATROL_SAVE_H
#define PATROL_SAVE_H

#include <stddef.h>

#include "api.h"
#include "error.h"
#include "map.h"
#include "pattern.h"
#include "world.h"

#ifdef __cplusplus
extern "C" {
#endif
PT_API_BEGIN

#define PT_SAVE_VERSION 2

/* Saves world w to a new buffer: *data (free it with pt_world_save_free) and *size. source
 * (may be NULL) is any text the caller wants back from pt_save_source, such as the paths it
 * loaded the map and patterns from (the patrol command stores them); at most 65536 bytes are
 * kept (a longer text is cut). Returns PT_OK, or
 * PT_ERR_NOMEM with *data = NULL, *size = 0. The same world gives the same bytes. */
int pt_world_save(const pt_world *w, const char *source, void **data, size_t *size, pt_error *err);
void pt_world_save_free(void *data);
/* The same to a file (written whole, or PT_ERR_IO with err->file = path). */
int pt_world_save_file(const pt_world *w, const char *path, const char *source, pt_error *err);

/* A new world from a save made by pt_world_save (size bytes at data). map and lib: those the
 * saved world was created from. NULL with err set when the save is truncated
 * (PT_ERR_UNTERMINATED), not a save (PT_ERR_BAD_ENCODING: wrong magic), of another version
 * (PT_ERR_BAD_ENCODING), corrupt (PT_ERR_BAD_VALUE: the checksum, or a value out of range),
 * of another map or another pattern library (PT_ERR_MISSING), or when the world cannot be
 * made (the errors of pt_world_create). err->line and col are 0; the message gives the byte
 * offset of the problem where there is one ("at byte N"). */
pt_world *pt_world_load(const void *data, size_t size, const pt_map *map, const pt_patlib *lib,
                        const pt_world_desc *desc, pt_error *err);
/* The same from a file (err->file = path). */
pt_world *pt_world_load_file(const char *path, const pt_map *map, const pt_patlib *lib,
                             const pt_world_desc *desc, pt_error *err);

/* The source text of a save (checked whole: magic, version, checksum), copied to buf (cap
 * bytes, NUL-terminated, cut to fit); "" when it has none. Returns PT_OK or the error of
 * pt_world_load for a bad save. For a program that stored where its map came from. */
int pt_save_source(const void *data, size_t size, char *buf, size_t cap, pt_error *err);

PT_API_END
#ifdef __cplusplus
}
#endif
#endif
