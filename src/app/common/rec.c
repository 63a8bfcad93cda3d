/* SPDX-License-Identifier: Zlib */
/* Recordings (rec.h; docs/formats.md, "Recordings"): the input of a round run-length
 * encoded, saved, loaded strictly, and checked against the level it was made on. */
#include "common/rec.h"

#include "common/watch.h"

#include <patrol/light.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define MAX_FILE_BYTES ((size_t)PT_MAX_FILE_BYTES)

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

void app_rec_init(app_rec *r) { memset(r, 0, sizeof *r); }

void app_rec_fini(app_rec *r) {
    PT_FREE(r->runs);
    PT_FREE(r->throws);
    memset(r, 0, sizeof *r);
}

/* The pattern and steering files' hashes folded in order: a recording played against other
 * patterns would run differently, as surely as on another map. */
static int files_hash(const pt_map *map, uint64_t *out, pt_error *err) {
    uint64_t h = FNV_OFFSET, one;
    for (int i = 0; i <= map->npattern_files; i++) {
        const char *f = i < map->npattern_files ? map->pattern_files[i] : map->steering_file;
        if (!f[0]) continue;
        int rc = app_file_hash(f, &one, err);
        if (rc < 0) return rc;
        unsigned char le[8]; /* least significant byte first, on any machine */
        for (int k = 0; k < 8; k++) le[k] = (unsigned char)(one >> (8 * k));
        h = fnv(h, le, sizeof le);
    }
    *out = h;
    return PT_OK;
}

int app_rec_start(app_rec *r, const pt_map *map, uint64_t seed, pt_error *err) {
    uint64_t mh, fh;
    int rc = app_file_hash(map->path, &mh, err);
    if (rc == PT_OK) rc = files_hash(map, &fh, err);
    if (rc != PT_OK) return rc;
    snprintf(r->map, sizeof r->map, "%s", map->path);
    r->map_hash = mh;
    r->files_hash = fh;
    r->seed = seed ? seed : 1;
    r->ticks = 0;
    r->nruns = 0;
    r->nthrows = 0;
    return PT_OK;
}

int app_rec_add_throw(app_rec *r, int x, int y, int loudness) {
    if (r->nthrows == r->throws_cap) {
        int cap = r->throws_cap ? r->throws_cap * 2 : 16;
        app_rec_throw *q = PT_REALLOC(r->throws, sizeof *q * (size_t)cap);
        if (!q) return PT_ERR_NOMEM;
        r->throws = q;
        r->throws_cap = cap;
    }
    r->throws[r->nthrows++] = (app_rec_throw){r->ticks, x, y, loudness};
    return PT_OK;
}

int app_rec_add_douse(app_rec *r, int x, int y) { return app_rec_add_throw(r, x, y, 0); }

int app_rec_add(app_rec *r, int dx, int dy, pt_gait gait) {
    signed char x = (signed char)(dx > 0 ? 1 : dx < 0 ? -1 : 0), y = (signed char)(dy > 0 ? 1 : dy < 0 ? -1 : 0);
    app_rec_run *last = r->nruns > 0 ? &r->runs[r->nruns - 1] : NULL;
    if (r->ticks >= APP_REC_MAX_TICKS) return PT_ERR_LIMIT;
    if (last && last->dx == x && last->dy == y && last->gait == (unsigned char)gait) {
        last->n++;
    } else {
        if (r->nruns == r->cap) {
            int cap = r->cap ? r->cap * 2 : 64;
            app_rec_run *q = PT_REALLOC(r->runs, sizeof *q * (size_t)cap);
            if (!q) return PT_ERR_NOMEM;
            r->runs = q;
            r->cap = cap;
        }
        r->runs[r->nruns++] = (app_rec_run){1, x, y, (unsigned char)gait};
    }
    r->ticks++;
    return PT_OK;
}

/* The text before the checksum line, in a growing buffer. */
typedef struct sbuf { char *p; size_t n, cap; int oom; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sb_printf(sbuf *b, const char *fmt, ...) {
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) { b->oom = 1; return; }
        if (b->p && b->n + (size_t)k < b->cap) { b->n += (size_t)k; return; }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *q = PT_REALLOC(b->p, cap);
        if (!q) { b->oom = 1; return; }
        b->p = q;
        b->cap = cap;
    }
}

int app_rec_save(const app_rec *r, const char *path, pt_error *err) {
    sbuf b = {0};
    sb_printf(&b, "patrol-recording %d\n", APP_REC_VERSION);
    sb_printf(&b, "map %s\n", r->map);
    sb_printf(&b, "map-hash %016" PRIx64 "\n", r->map_hash);
    sb_printf(&b, "files-hash %016" PRIx64 "\n", r->files_hash);
    sb_printf(&b, "seed %" PRIu64 "\n", r->seed);
    sb_printf(&b, "ticks %" PRIu64 "\n", r->ticks);
    for (int i = 0; i < r->nthrows; i++)
        if (r->throws[i].loudness == 0)
            sb_printf(&b, "douse %" PRIu64 " %d %d\n", r->throws[i].tick, r->throws[i].x, r->throws[i].y);
        else
            sb_printf(&b, "throw %" PRIu64 " %d %d %d\n", r->throws[i].tick, r->throws[i].x, r->throws[i].y,
                      r->throws[i].loudness);
    sb_printf(&b, "inputs\n");
    for (int i = 0; i < r->nruns; i++)
        sb_printf(&b, "%" PRIu64 " %d %d %s\n", r->runs[i].n, r->runs[i].dx, r->runs[i].dy,
                  pt_gait_name((pt_gait)r->runs[i].gait));
    sb_printf(&b, "end\n");
    if (b.oom) {
        PT_FREE(b.p);
        return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    }
    FILE *f = fopen(path, "wb");
    int bad = !f;
    if (f) {
        fwrite(b.p, 1, b.n, f);
        fprintf(f, "checksum %016" PRIx64 "\n", fnv(FNV_OFFSET, b.p, b.n));
        bad = ferror(f) | (fclose(f) != 0);
    }
    PT_FREE(b.p);
    if (bad) {
        pt_error_set(err, PT_ERR_IO, 0, 0, "cannot write the recording: %s", strerror(errno));
        if (err) {
            snprintf(err->file, sizeof err->file, "%s", path);
            err->source[0] = '\0';
        }
        return PT_ERR_IO;
    }
    return PT_OK;
}

/* ---- loading ------------------------------------------------------------------------------ */

typedef struct reader {
    const char *path, *text;
    size_t len, pos;
    int line;
    const char *ls; /* the current line's start and length */
    size_t ll;
    pt_error *err;
} reader;

static int rec_fail(reader *rd, int code, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int rec_fail(reader *rd, int code, const char *at, const char *fmt, ...) {
    pt_error *err = rd->err;
    if (!err) return code;
    pt_error_clear(err);
    err->code = code;
    err->line = rd->line;
    err->col = at ? (int)(at - rd->ls) + 1 : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    snprintf(err->file, sizeof err->file, "%s", rd->path);
    snprintf(err->source, sizeof err->source, "%.*s", (int)(rd->ll < sizeof err->source ? rd->ll : sizeof err->source - 1),
             rd->ls ? rd->ls : "");
    return code;
}

/* The next line (without its newline) in rd->ls / rd->ll; 0 at the end of the text. */
static int next_line(reader *rd) {
    if (rd->pos >= rd->len) {
        rd->ls = rd->text + rd->len;
        rd->ll = 0;
        rd->line++;
        return 0;
    }
    rd->ls = rd->text + rd->pos;
    const char *nl = memchr(rd->ls, '\n', rd->len - rd->pos);
    rd->ll = nl ? (size_t)(nl - rd->ls) : rd->len - rd->pos;
    rd->pos += rd->ll + (nl ? 1 : 0);
    rd->line++;
    return 1;
}

/* "KEY VALUE": the value's start, or NULL after an error. */
static const char *keyed(reader *rd, const char *key) {
    size_t k = strlen(key);
    if (!next_line(rd)) return rec_fail(rd, PT_ERR_MISSING, NULL, "the recording ends before '%s'", key), NULL;
    if (rd->ll <= k || strncmp(rd->ls, key, k) != 0 || rd->ls[k] != ' ')
        return rec_fail(rd, PT_ERR_SYNTAX, rd->ls, "expected '%s ...' here", key), NULL;
    return rd->ls + k + 1;
}

/* A whole number from s to the end of the line (or to the next blank when word is set). */
static int number(reader *rd, const char *s, int hex, int word, uint64_t max, uint64_t *out, const char **after) {
    const char *end = rd->ls + rd->ll, *p = s;
    uint64_t v = 0;
    int digits = 0;
    for (; p < end && *p != ' '; p++, digits++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : hex && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0) return rec_fail(rd, PT_ERR_BAD_NUMBER, p, "expected a %s number", hex ? "hexadecimal" : "whole");
        uint64_t base = hex ? 16 : 10;
        if (v > (max - (uint64_t)d) / base) return rec_fail(rd, PT_ERR_RANGE, s, "number too large (at most %" PRIu64 ")", max);
        v = v * base + (uint64_t)d;
    }
    if (!digits) return rec_fail(rd, PT_ERR_MISSING, s, "a number is missing");
    if (!word && p < end) return rec_fail(rd, PT_ERR_SYNTAX, p, "unexpected text after the number");
    *out = v;
    if (after) *after = p;
    return PT_OK;
}

static int parse(reader *rd, app_rec *r) {
    int rc;
    uint64_t v;
    const char *s;
    if (!next_line(rd) || rd->ll < 17 || strncmp(rd->ls, "patrol-recording ", 17) != 0)
        return rec_fail(rd, PT_ERR_BAD_VALUE, rd->ls, "not a patrol recording (it starts with 'patrol-recording 1')");
    if ((rc = number(rd, rd->ls + 17, 0, 0, 1000000, &v, NULL)) < 0) return rc;
    if (v != APP_REC_VERSION)
        return rec_fail(rd, PT_ERR_BAD_VALUE, rd->ls + 17, "recording version %" PRIu64 "; this patrol reads version %d",
                    v, APP_REC_VERSION);
    if (!(s = keyed(rd, "map"))) return rd->err ? rd->err->code : PT_ERR_SYNTAX;
    size_t n = (size_t)(rd->ls + rd->ll - s);
    if (n == 0 || n >= sizeof r->map) return rec_fail(rd, PT_ERR_RANGE, s, "the map's path is empty or too long");
    memcpy(r->map, s, n);
    r->map[n] = '\0';
    r->map_line = rd->line;
    if (!(s = keyed(rd, "map-hash")) || (rc = number(rd, s, 1, 0, UINT64_MAX, &r->map_hash, NULL)) < 0) return PT_ERR_SYNTAX;
    if (!(s = keyed(rd, "files-hash")) || (rc = number(rd, s, 1, 0, UINT64_MAX, &r->files_hash, NULL)) < 0) return PT_ERR_SYNTAX;
    if (!(s = keyed(rd, "seed")) || (rc = number(rd, s, 0, 0, UINT64_MAX, &r->seed, NULL)) < 0) return PT_ERR_SYNTAX;
    if (r->seed == 0) return rec_fail(rd, PT_ERR_RANGE, s, "the seed is never 0");
    uint64_t ticks;
    if (!(s = keyed(rd, "ticks")) || (rc = number(rd, s, 0, 0, APP_REC_MAX_TICKS, &ticks, NULL)) < 0) return PT_ERR_SYNTAX;
    int ticks_line = rd->line;
    const char *ticks_at = s, *ticks_ls = rd->ls;
    size_t ticks_ll = rd->ll;
    /* Stones thrown, "throw TICK X Y LOUDNESS", and lights doused, "douse TICK X Y", in tick
     * order, each before a recorded tick. */
    for (;;) {
        if (!next_line(rd)) return rec_fail(rd, PT_ERR_SYNTAX, NULL, "expected 'inputs'");
        int douse = rd->ll >= 6 && strncmp(rd->ls, "douse ", 6) == 0;
        if (!douse && (rd->ll < 6 || strncmp(rd->ls, "throw ", 6) != 0)) break;
        uint64_t f[4] = {0};
        static const uint64_t most[4] = {APP_REC_MAX_TICKS, 65535, 65535, 256};
        const char *p = rd->ls + 6, *q = p;
        for (int k = 0; k < 4 - douse; k++) {
            if (k && q >= rd->ls + rd->ll)
                return rec_fail(rd, PT_ERR_MISSING, q, douse ? "expected 'douse TICK X Y'" : "expected 'throw TICK X Y LOUDNESS'");
            if (k) p = q + 1;
            if ((rc = number(rd, p, 0, k < 3 - douse, most[k], &f[k], &q)) < 0) return rc;
        }
        if (f[0] >= ticks)
            return rec_fail(rd, PT_ERR_RANGE, rd->ls + 6, "a %s after the last tick (%" PRIu64 ")", douse ? "douse" : "throw", ticks);
        if (r->nthrows > 0 && f[0] < r->throws[r->nthrows - 1].tick)
            return rec_fail(rd, PT_ERR_RANGE, rd->ls + 6, "the %s not in tick order", douse ? "throws and douses are" : "throws are");
        if (!douse && f[3] == 0) return rec_fail(rd, PT_ERR_RANGE, p, "a loudness of 0");
        r->ticks = f[0]; /* app_rec_add_throw records at r->ticks; the runs start from 0 below */
        if (app_rec_add_throw(r, (int)f[1], (int)f[2], (int)f[3]) < 0) return rec_fail(rd, PT_ERR_NOMEM, NULL, "out of memory");
        r->ticks = 0;
    }
    if (rd->ll != 6 || strncmp(rd->ls, "inputs", 6) != 0)
        return rec_fail(rd, PT_ERR_SYNTAX, rd->ls, "expected 'inputs'");
    for (;;) {
        if (!next_line(rd)) return rec_fail(rd, PT_ERR_UNTERMINATED, NULL, "the inputs have no 'end'");
        if (rd->ll == 3 && strncmp(rd->ls, "end", 3) == 0) break;
        uint64_t cnt, ux, uy;
        const char *p = rd->ls, *q, *end = rd->ls + rd->ll;
        if ((rc = number(rd, p, 0, 1, APP_REC_MAX_TICKS, &cnt, &q)) < 0) return rc;
        if (cnt == 0) return rec_fail(rd, PT_ERR_RANGE, p, "a run of 0 ticks");
        int d[2];
        for (int k = 0; k < 2; k++) {
            if (q >= end) return rec_fail(rd, PT_ERR_MISSING, q, "expected 'TICKS DX DY GAIT'");
            p = q + 1;
            int neg = *p == '-';
            if ((rc = number(rd, p + neg, 0, 1, 1, k ? &uy : &ux, &q)) < 0) return rc;
            d[k] = neg ? -(int)(k ? uy : ux) : (int)(k ? uy : ux);
        }
        if (q >= end) return rec_fail(rd, PT_ERR_MISSING, q, "expected a gait (walk, sneak, run)");
        p = q + 1;
        int g = -1;
        for (int k = 0; k < PT_GAIT_COUNT; k++) {
            const char *name = pt_gait_name((pt_gait)k);
            if ((size_t)(end - p) == strlen(name) && strncmp(p, name, strlen(name)) == 0) g = k;
        }
        if (g < 0) return rec_fail(rd, PT_ERR_BAD_VALUE, p, "unknown gait (walk, sneak, run)");
        if (r->ticks + cnt > ticks) return rec_fail(rd, PT_ERR_RANGE, rd->ls, "more ticks of input than 'ticks' says");
        if (r->nruns == r->cap) {
            int cap = r->cap ? r->cap * 2 : 64;
            app_rec_run *nr = PT_REALLOC(r->runs, sizeof *nr * (size_t)cap);
            if (!nr) return rec_fail(rd, PT_ERR_NOMEM, NULL, "out of memory");
            r->runs = nr;
            r->cap = cap;
        }
        r->runs[r->nruns++] = (app_rec_run){cnt, (signed char)d[0], (signed char)d[1], (unsigned char)g};
        r->ticks += cnt;
    }
    if (r->ticks != ticks) {
        rd->line = ticks_line; /* the count that disagrees */
        rd->ls = ticks_ls;
        rd->ll = ticks_ll;
        return rec_fail(rd, PT_ERR_RANGE, ticks_at, "'ticks' says %" PRIu64 " but the inputs hold %" PRIu64, ticks, r->ticks);
    }
    size_t body = rd->pos;
    if (!(s = keyed(rd, "checksum"))) return PT_ERR_SYNTAX;
    uint64_t sum;
    if ((rc = number(rd, s, 1, 0, UINT64_MAX, &sum, NULL)) < 0) return rc;
    uint64_t want = fnv(FNV_OFFSET, rd->text, body);
    if (sum != want)
        return rec_fail(rd, PT_ERR_BAD_VALUE, s, "checksum mismatch: the recording was changed or damaged (its text hashes to %016" PRIx64 ")", want);
    if (next_line(rd) && rd->ll > 0) return rec_fail(rd, PT_ERR_SYNTAX, rd->ls, "text after the checksum");
    return PT_OK;
}

int app_rec_load(app_rec *r, const char *path, pt_error *err) {
    app_rec_init(r);
    FILE *f = pt_file_open(path, err);
    if (!f) return err && err->code < 0 ? err->code : PT_ERR_IO;
    char *text = PT_MALLOC(MAX_FILE_BYTES + 1);
    size_t len = text ? fread(text, 1, MAX_FILE_BYTES + 1, f) : 0;
    int rerr = ferror(f);
    fclose(f);
    reader rd = {.path = path, .text = text, .len = len, .err = err};
    int rc;
    if (!text) rc = rec_fail(&rd, PT_ERR_NOMEM, NULL, "out of memory");
    else if (rerr) rc = rec_fail(&rd, PT_ERR_IO, NULL, "cannot read the recording");
    else if (len > MAX_FILE_BYTES) rc = rec_fail(&rd, PT_ERR_LIMIT, NULL, "a recording over %zu bytes", MAX_FILE_BYTES);
    else if (memchr(text, '\0', len)) rc = rec_fail(&rd, PT_ERR_BINARY, NULL, "a NUL byte: not a text recording");
    else rc = parse(&rd, r);
    PT_FREE(text);
    if (rc < 0) {
        app_rec_fini(r);
        return rc;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    return PT_OK;
}

int app_rec_check_level(const app_rec *r, const pt_map *map, pt_error *err) {
    uint64_t mh, fh;
    int rc = app_file_hash(map->path, &mh, err);
    if (rc == PT_OK) rc = files_hash(map, &fh, err);
    if (rc != PT_OK) return rc;
    if (mh == r->map_hash && fh == r->files_hash) return PT_OK;
    pt_error_clear(err);
    if (mh != r->map_hash)
        pt_error_set(err, PT_ERR_BAD_VALUE, r->map_line, 5,
                     "%.200s is not the map this was recorded on (another map, or edited since)", map->path);
    else
        pt_error_set(err, PT_ERR_BAD_VALUE, r->map_line, 5,
                     "the pattern or steering files of %.200s are not those this was recorded with", map->path);
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", r->path);
        snprintf(err->source, sizeof err->source, "map %.240s", r->map);
    }
    return PT_ERR_BAD_VALUE;
}

pt_world *app_rec_world(const app_rec *r, const pt_map *map, const pt_patlib *lib, pt_error *err) {
    pt_world_desc desc = {.seed = r->seed, .player_controlled = 1, .end_round_on_catch = 1};
    return pt_world_create(map, lib, &desc, err);
}

int app_rec_take(const app_rec *r, app_rec_cursor *c, int *dx, int *dy, pt_gait *gait) {
    while (c->run < r->nruns && c->used >= r->runs[c->run].n) {
        c->run++;
        c->used = 0;
    }
    if (c->run >= r->nruns) return 0;
    const app_rec_run *run = &r->runs[c->run];
    *dx = run->dx;
    *dy = run->dy;
    *gait = (pt_gait)run->gait;
    c->used++;
    c->tick++;
    return 1;
}

int app_rec_throws(const app_rec *r, app_rec_cursor *c, pt_world *w) {
    int n = 0;
    for (; c->thrown < r->nthrows && r->throws[c->thrown].tick <= c->tick; c->thrown++, n++) {
        const app_rec_throw *t = &r->throws[c->thrown];
        if (t->loudness == 0) pt_world_douse(w);
        else pt_world_noise(w, t->x, t->y, t->loudness);
    }
    return n;
}

int app_rec_next(const app_rec *r, app_rec_cursor *c, pt_world *w) {
    int dx, dy;
    pt_gait g;
    if (c->tick < r->ticks) app_rec_throws(r, c, w);
    if (!app_rec_take(r, c, &dx, &dy, &g)) return 0;
    pt_world_set_gait(w, g);
    pt_world_set_input(w, dx, dy);
    return 1;
}
