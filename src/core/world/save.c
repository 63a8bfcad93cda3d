/* SPDX-License-Identifier: Zlib */
/* Saving a world and loading it back (patrol/save.h; the layout is in docs/formats.md, "Save
 * files"): a header (magic, version, size, the map's and the library's fingerprints), the
 * sections (the caller's source text, the settings, then each part of save_parts.c) and a
 * CRC32 of everything before it. A load checks the header and the checksum first, creates
 * the world from the map with the saved settings, then lets each part overwrite its state. */
#include <patrol/save.h>

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "base/text.h"
#include "guards/walk.h"
#include "world/save_priv.h"

static const unsigned char MAGIC[8] = {'P', 'T', 'S', 'A', 'V', 'E', 0x1a, '\n'};
enum { HEADER = 28, TRAILER = 4, SEC_END = 0, SEC_SOURCE = 1, SEC_SETTINGS = 2, MAX_SOURCE = 65536 };
#define SAVE_FILE_MAX ((size_t)1 << 33) /* bytes a save file may have: no world comes near */

static uint32_t crc_of(const unsigned char *p, size_t n) {
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    while (n) {
        uInt part = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = (uint32_t)crc32(crc, p, part);
        p += part;
        n -= part;
    }
    return crc;
}

/* A string: its length, then its bytes (at most max; read into buf of max + 1). */
static void io_string(pt__io *io, char *buf, size_t max, const char *what) {
    uint32_t n = (uint32_t)strlen(buf);
    pt__io_u32(io, &n);
    if (io->reading && n > max) {
        pt__io_fail(io, PT_ERR_BAD_VALUE, "%s is %u bytes long (at most %zu)", what, n, max);
        return;
    }
    pt__io_bytes(io, buf, n);
    if (io->reading) buf[io->bad ? 0 : n] = '\0';
}

/* What the world was made with besides the map: the seed, the tick rate, the desc's switches
 * and phase timing, the player's pattern by name. */
typedef struct settings {
    pt_world_desc desc;
    char player_pattern[PT_MAX_NAME + 1];
} settings;

static void io_settings(pt__io *io, settings *s) {
    pt_world_desc *d = &s->desc;
    pt__io_u64(io, &d->seed);
    pt__io_range(io, &d->tick_hz, 1, 100000, "tick rate");
    pt__io_range(io, &d->player_controlled, 0, 1, "player control");
    pt__io_range(io, &d->end_round_on_catch, 0, 1, "end round on catch");
    pt__io_f64(io, &d->phases.evasion);
    pt__io_f64(io, &d->phases.caution);
    pt__io_f64(io, &d->phases.caution_aware);
    pt__io_f64(io, &d->phases.caution_fov);
    io_string(io, s->player_pattern, PT_MAX_NAME - 1, "the player pattern's name");
}

/* Section id, then its length (patched once written), then the body. */
static size_t section_begin(pt__io *io, uint32_t id) {
    pt__io_u32(io, &id);
    uint32_t len = 0;
    pt__io_u32(io, &len);
    return io->len;
}

static void section_end(pt__io *io, size_t start) {
    if (io->bad) return;
    size_t n = io->len - start;
    if (n > 0xffffffffu) {
        pt__io_fail(io, PT_ERR_LIMIT, "a section of the save is over 4 GiB");
        return;
    }
    pt__put_le32(io->buf + start - 4, (uint32_t)n);
}

int pt_world_save(const pt_world *cw, const char *source, void **data, size_t *size, pt_error *err) {
    pt_error_clear(err);
    *data = NULL;
    *size = 0;
    pt_world *w = (pt_world *)(uintptr_t)cw; /* the parts only read it when writing */
    pt__io io;
    pt__io_writer(&io);
    pt__io_bytes(&io, (void *)(uintptr_t)MAGIC, sizeof MAGIC);
    uint32_t version = PT_SAVE_VERSION, map_fp = w->map_fp, lib_fp = pt__save_lib_fp(w->lib);
    uint64_t total = 0;
    pt__io_u32(&io, &version);
    pt__io_u64(&io, &total);
    pt__io_u32(&io, &map_fp);
    pt__io_u32(&io, &lib_fp);

    size_t at = section_begin(&io, SEC_SOURCE);
    char *src = PT_MALLOC(MAX_SOURCE + 1); /* off the stack: a game may save on a small one */
    if (!src) pt__io_fail(&io, PT_ERR_NOMEM, "out of memory");
    else {
        snprintf(src, MAX_SOURCE + 1, "%s", source ? source : "");
        io_string(&io, src, MAX_SOURCE, "the source");
        PT_FREE(src);
    }
    section_end(&io, at);

    settings st;
    memset(&st, 0, sizeof st);
    st.desc = w->desc;
    st.desc.seed = w->seed;
    st.desc.tick_hz = w->tick_hz;
    if (w->desc.player_pattern) snprintf(st.player_pattern, sizeof st.player_pattern, "%s", w->desc.player_pattern->name);
    at = section_begin(&io, SEC_SETTINGS);
    io_settings(&io, &st);
    section_end(&io, at);

    for (int k = 0; k < pt__save_nparts; k++) {
        if (pt__save_parts[k].present && !pt__save_parts[k].present(w)) continue;
        at = section_begin(&io, pt__save_parts[k].id);
        pt__save_parts[k].io(&io, w);
        section_end(&io, at);
    }
    section_end(&io, section_begin(&io, SEC_END));
    uint32_t crc = 0;
    pt__io_u32(&io, &crc);
    if (io.bad) {
        pt_error_set(err, io.bad, 0, 0, "cannot save the world: %s", io.why);
        pt__io_fini(&io);
        return io.bad;
    }
    pt__put_le64(io.buf + 12, (uint64_t)io.len);
    pt__put_le32(io.buf + io.len - TRAILER, crc_of(io.buf, io.len - TRAILER));
    *data = io.buf;
    *size = io.len;
    return PT_OK;
}

void pt_world_save_free(void *data) { PT_FREE(data); }

int pt_world_save_file(const pt_world *w, const char *path, const char *source, pt_error *err) {
    void *data;
    size_t size;
    int rc = pt_world_save(w, source, &data, &size, err);
    if (rc < 0) return rc;
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = 0;
    pt_world_save_free(data);
    if (!ok) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot write the save");
        if (err) snprintf(err->file, sizeof err->file, "%s", path);
        return PT_ERR_IO;
    }
    return PT_OK;
}

/* The io's problem as the load's error: the message and the byte it was found at. */
static int io_error(const pt__io *io, pt_error *err) {
    return pt_error_set(err, io->bad, 0, 0, "%s (at byte %zu)", io->why, io->bad_at);
}

/* The header, size and checksum of a save; on success io reads the first section. */
static int check_whole(pt__io *io, const void *data, size_t size, pt_error *err) {
    const unsigned char *p = data;
    pt__io_reader(io, data, size);
    size_t m = size < sizeof MAGIC ? size : sizeof MAGIC;
    if (memcmp(p, MAGIC, m) != 0)
        return pt_error_set(err, PT_ERR_BAD_ENCODING, 0, 0, "not a patrol save: wrong magic (at byte 0)");
    if (size < HEADER + TRAILER)
        return pt_error_set(err, PT_ERR_UNTERMINATED, 0, 0, "truncated save: %zu bytes, the header alone is %d (at byte %zu)",
                            size, HEADER + TRAILER, size);
    uint32_t version = pt__le32(p + 8);
    if (version != PT_SAVE_VERSION) /* an older save lacks parts the world now has */
        return pt_error_set(err, PT_ERR_BAD_ENCODING, 0, 0, "save format version %u; this patrol reads version %d only (at byte 8)",
                            version, PT_SAVE_VERSION);
    uint64_t total = pt__le64(p + 12);
    uint32_t crc = pt__le32(p + size - TRAILER);
    if (crc != crc_of(p, size - TRAILER)) {
        if (total > size)
            return pt_error_set(err, PT_ERR_UNTERMINATED, 0, 0, "truncated save: %zu bytes of %llu (at byte %zu)", size,
                                (unsigned long long)total, size);
        return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "corrupt save: the checksum does not match (at byte %zu)",
                            size - TRAILER);
    }
    if (total != size)
        return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "corrupt save: it says %llu bytes, it has %zu (at byte 12)",
                            (unsigned long long)total, size);
    io->len = size - TRAILER;
    io->pos = HEADER;
    return PT_OK;
}

/* Enters the next section, which must be `id`: io then reads up to its end (*end). */
static void section_enter(pt__io *io, uint32_t id, const char *name, size_t *end) {
    uint32_t got = 0, len = 0;
    size_t at = io->pos;
    pt__io_u32(io, &got);
    pt__io_u32(io, &len);
    *end = io->pos;
    if (io->bad) return;
    if (got != id) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "section %u where the %s section (%u) should be", got, name, id);
        return;
    }
    if (len > io->len - io->pos) {
        io->pos = at;
        pt__io_fail(io, PT_ERR_BAD_VALUE, "the %s section's length %u runs past the end", name, len);
        return;
    }
    *end = io->pos + len;
}

/* Leaves the section: every byte of it must have been read. */
static void section_leave(pt__io *io, size_t end, size_t whole, const char *name) {
    if (io->bad) return;
    if (io->pos != end) pt__io_fail(io, PT_ERR_BAD_VALUE, "the %s section has %zu bytes left over", name, end - io->pos);
    io->len = whole;
}

/* Reads the source section; io then reads the settings. */
static void read_source(pt__io *io, char *src) {
    size_t end, whole = io->len;
    section_enter(io, SEC_SOURCE, "source", &end);
    if (io->bad) return;
    io->len = end;
    io_string(io, src, MAX_SOURCE, "the source");
    section_leave(io, end, whole, "source");
}

int pt_save_source(const void *data, size_t size, char *buf, size_t cap, pt_error *err) {
    pt_error_clear(err);
    if (cap) buf[0] = '\0';
    pt__io io;
    int rc = check_whole(&io, data, size, err);
    if (rc < 0) return rc;
    char *src = PT_MALLOC(MAX_SOURCE + 1);
    if (!src) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    src[0] = '\0';
    read_source(&io, src);
    if (io.bad) rc = io_error(&io, err);
    else if (cap) snprintf(buf, cap, "%s", src);
    PT_FREE(src);
    return rc;
}

pt_world *pt_world_load(const void *data, size_t size, const pt_map *map, const pt_patlib *lib,
                        const pt_world_desc *desc, pt_error *err) {
    pt_error_clear(err);
    pt__io io;
    if (check_whole(&io, data, size, err) < 0) return NULL;
    const unsigned char *p = data;
    if (pt__le32(p + 20) != pt__save_map_fp(map)) {
        pt_error_set(err, PT_ERR_MISSING, 0, 0, "the save is of another map (its fingerprint differs) (at byte 20)");
        return NULL;
    }
    if (pt__le32(p + 24) != pt__save_lib_fp(lib)) {
        pt_error_set(err, PT_ERR_MISSING, 0, 0,
                     "the save is of another pattern library (its fingerprint differs) (at byte 24)");
        return NULL;
    }
    io.pos = HEADER;
    char *src = PT_MALLOC(MAX_SOURCE + 1);
    if (!src) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    src[0] = '\0';
    read_source(&io, src);
    PT_FREE(src);

    settings st;
    memset(&st, 0, sizeof st);
    size_t end, whole = io.len;
    section_enter(&io, SEC_SETTINGS, "settings", &end);
    if (!io.bad) {
        io.len = end;
        io_settings(&io, &st);
        section_leave(&io, end, whole, "settings");
    }
    if (io.bad) {
        io_error(&io, err);
        return NULL;
    }
    pt_world_desc d = st.desc;
    d.threads = desc ? desc->threads : 0;
    d.flock_reference = desc ? desc->flock_reference : 0;
    d.player_pattern = NULL;
    if (st.player_pattern[0]) {
        if (desc && desc->player_pattern && !strcmp(desc->player_pattern->name, st.player_pattern))
            d.player_pattern = desc->player_pattern;
        else if (lib)
            d.player_pattern = pt_patlib_find(lib, st.player_pattern);
        if (!d.player_pattern) {
            pt_error_set(err, PT_ERR_UNKNOWN_PATTERN, 0, 0, "the save's player pattern '%s' is not given", st.player_pattern);
            return NULL;
        }
    }
    pt_world *w = pt_world_create(map, lib, &d, err);
    if (!w) return NULL;
    for (int k = 0; k < pt__save_nparts && !io.bad; k++) {
        const pt__save_part *part = &pt__save_parts[k];
        if (part->present && (!part->present(w) || io.len - io.pos < 4 || pt__le32(io.buf + io.pos) != part->id))
            continue; /* a part this world lacks, or that the save does not have */
        section_enter(&io, part->id, part->name, &end);
        if (io.bad) break;
        io.len = end;
        part->io(&io, w);
        section_leave(&io, end, whole, part->name);
    }
    if (!io.bad) {
        section_enter(&io, SEC_END, "end", &end);
        if (!io.bad && end != io.pos) pt__io_fail(&io, PT_ERR_BAD_VALUE, "the end section is not empty");
        if (!io.bad && io.pos != whole) pt__io_fail(&io, PT_ERR_BAD_VALUE, "bytes after the end section");
    }
    if (io.bad) {
        io_error(&io, err);
        pt_world_destroy(w);
        return NULL;
    }
    pt__plans_relist(w); /* the plans a tile change must find: derived, not saved */
    return w;
}

pt_world *pt_world_load_file(const char *path, const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc,
                             pt_error *err) {
    pt_error_clear(err);
    char *buf;
    size_t n;
    if (pt__file_read(path, SAVE_FILE_MAX, &buf, &n, err) < 0) return NULL;
    pt_world *w = pt_world_load(buf, n, map, lib, desc, err);
    PT_FREE(buf);
    if (!w && err) snprintf(err->file, sizeof err->file, "%s", path);
    return w;
}
