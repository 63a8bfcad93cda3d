/* SPDX-License-Identifier: Zlib */
/* Save and load inside world/: the fingerprints (save_fp.c) and the parts of the state, each
 * one function that writes it and reads it back (save_parts.c, pt__io of base/io.h). */
#ifndef PATROL_WORLD_SAVE_PRIV_H
#define PATROL_WORLD_SAVE_PRIV_H

#include "base/io.h"
#include "state/world_state.h"

/* An enum field through an int in [0, count). */
#define IO_ENUM(io, field, count, what)                                                                                \
    do {                                                                                                               \
        int v_ = (int)(field);                                                                                         \
        pt__io_range((io), &v_, 0, (count) - 1, (what));                                                               \
        (field) = v_;                                                                                                  \
    } while (0)

/* One event: its tick, kind, a, b and place (the last step's, and those queued for the next). */
static inline void pt__save_io_event(pt__io *io, pt_event *e) {
    pt__io_u64(io, &e->tick);
    IO_ENUM(io, e->kind, PT_EVENT_COUNT, "event kind");
    pt__io_u32(io, &e->a);
    pt__io_u32(io, &e->b);
    pt__io_int(io, &e->x);
    pt__io_int(io, &e->y);
}

/* Fingerprints of the map as given to create and of a pattern library. */
uint32_t pt__save_map_fp(const pt_map *m);
uint32_t pt__save_lib_fp(const pt_patlib *lib);

/* One part of the state: its section id in the file, its name in errors, and its io. When
 * reading, the world has been created from the map and settings and the part overwrites
 * what create made; io fails on a value the world cannot hold. Adding a part: a new row in
 * pt__save_parts (save_parts.c) and a higher PT_SAVE_VERSION, or a part only some worlds
 * have: `present` says which (NULL: every world). Such a part is written only for them, and
 * read only when it is the next section (a save made before the part was added leaves that
 * state as create made it), so the version stays. */
typedef struct pt__save_part {
    uint32_t id;
    const char *name;
    void (*io)(pt__io *io, pt_world *w);
    int (*present)(const pt_world *w);
} pt__save_part;

extern const pt__save_part pt__save_parts[];

/* The spawned and removed entities, the orders and the queued events (save_ents.c). */
void pt__save_io_ents(pt__io *io, pt_world *w);
extern const int pt__save_nparts;

#endif
