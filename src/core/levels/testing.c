/* SPDX-License-Identifier: Zlib */
/* Test helpers (patrol/testing.h) and the expectations of .test files, run on them. */
#include <patrol/testing.h>

#include <patrol/script.h>

#include <patrol/los.h>
#include <patrol/solve.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/world_state.h"

/* ---- helpers ------------------------------------------------------------------------- */

long pt_test_step_until(pt_world *w, pt_test_pred pred, void *user, long max_ticks) {
    for (long t = 1; t <= max_ticks; t++) {
        pt_world_step(w);
        if (pred(w, user)) return t;
    }
    return -1;
}

int pt_test_at_cell(const pt_world *w, void *user) {
    const pt_cell *c = user;
    const pt_entity *p = pt_world_entity(w, 0);
    return p && p->x == c->x && p->y == c->y;
}

int pt_test_entity_at_cell(const pt_world *w, void *user) {
    const pt_test_entity_cell *a = user;
    const pt_entity *e = pt_world_entity(w, a->id); /* NULL for an unknown id */
    return e && e->x == a->cell.x && e->y == a->cell.y;
}

int pt_test_event(const pt_world *w, pt_event_kind kind, pt_event *out) {
    int n = 0;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == kind) {
            if (out) *out = ev[i];
            return 1;
        }
    return 0;
}

int pt_test_event_happened(const pt_world *w, void *user) {
    return pt_test_event(w, *(const pt_event_kind *)user, NULL);
}

int pt_test_find_guard(const pt_world *w, const char *name) {
    for (int i = 0; name && i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (e && e->kind == PT_KIND_GUARD && strcmp(e->name, name) == 0) return i;
    }
    return -1;
}

int pt_test_pattern_cells(const pt_world *w, int id, pt_cell *out, int max) {
    const pt_entity *e = pt_world_entity(w, id);
    if (!e || !e->run.pat) return 0;
    return pt_patrun_cells(&e->run, pt_world_map(w), out, max);
}

int pt_test_cone_covers(const pt_world *w, int id, int x, int y) {
    const pt_entity *e = pt_world_entity(w, id);
    if (!e || e->kind != PT_KIND_GUARD) return 0;
    return pt_can_see(pt_world_map(w), e->px, e->py, e->heading, e->view_dist, e->view_angle, x + 0.5, y + 0.5);
}

int pt_test_sees_player(const pt_world *w, int guard, pt_test_sighting *out) {
    const pt_entity *p = pt_world_entity(w, 0);
    int lo = guard < 0 ? 1 : guard, hi = guard < 0 ? pt_world_count(w) : guard + 1;
    for (int i = lo; p && i < hi; i++) {
        const pt_entity *e = pt_world_entity(w, i);
        if (!e || e->kind != PT_KIND_GUARD || !e->sees_player) continue;
        if (out) *out = (pt_test_sighting){pt_world_tick(w), i, {e->x, e->y}, {p->x, p->y}};
        return 1;
    }
    return 0;
}

int pt_test_saw_player(pt_world *w, int guard, uint64_t from, uint64_t to, pt_test_sighting *out) {
    while (pt_world_tick(w) < to) {
        uint64_t before = pt_world_tick(w);
        pt_world_step(w);
        if (pt_world_tick(w) == before) return 0; /* the round is over: nothing more happens */
        if (pt_world_tick(w) >= from && pt_test_sees_player(w, guard, out)) return 1;
    }
    return 0;
}

/* One trace row: its fields split at commas (at most 16). */
typedef struct row {
    const char *s;
    size_t len;
    const char *f[16];
    size_t flen[16];
    int nf;
} row;

static int next_row(const char *t, size_t len, size_t *pos, row *r) {
    if (*pos >= len) return 0;
    const char *s = t + *pos, *nl = memchr(s, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - s) : len - *pos;
    *pos += n + (nl != NULL);
    if (n && s[n - 1] == '\r') n--;
    r->s = s;
    r->len = n;
    r->nf = 0;
    size_t b = 0;
    for (size_t i = 0; i <= n && r->nf < 16; i++)
        if (i == n || s[i] == ',') {
            r->f[r->nf] = s + b;
            r->flen[r->nf++] = i - b;
            b = i + 1;
        }
    return 1;
}

static const char *const trace_fields[] = {"tick", "id", "kind", "state", "x", "y", "px", "py", "heading"};

static void append(char *buf, size_t cap, size_t *used, const char *fmt, ...) {
    if (!buf || *used >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (n > 0) *used = *used + (size_t)n < cap ? *used + (size_t)n : cap;
}

long pt_test_trace_diff(const char *a, size_t alen, const char *b, size_t blen, char *buf, size_t cap) {
    size_t pa = 0, pb = 0, used = 0;
    long rowno = 0, first = 0, differ = 0;
    if (buf && cap) buf[0] = '\0';
    for (;;) {
        row ra, rb;
        int ha = next_row(a, alen, &pa, &ra), hb = next_row(b, blen, &pb, &rb);
        if (!ha && !hb) break;
        rowno++;
        if (ha && hb && ra.len == rb.len && memcmp(ra.s, rb.s, ra.len) == 0) continue;
        differ++;
        if (first) continue;
        first = rowno;
        const row *any = ha ? &ra : &rb;
        append(buf, cap, &used, "row %ld", rowno);
        if (any->nf >= 2)
            append(buf, cap, &used, " (tick %.*s, id %.*s)", (int)any->flen[0], any->f[0], (int)any->flen[1], any->f[1]);
        append(buf, cap, &used, ":");
        if (!ha || !hb) {
            append(buf, cap, &used, " only in the %s trace", ha ? "first" : "second");
            continue;
        }
        int shown = 0, nf = ra.nf > rb.nf ? ra.nf : rb.nf;
        for (int i = 0; i < nf; i++) {
            const char *fa = i < ra.nf ? ra.f[i] : "", *fb = i < rb.nf ? rb.f[i] : "";
            size_t la = i < ra.nf ? ra.flen[i] : 0, lb = i < rb.nf ? rb.flen[i] : 0;
            if (la == lb && memcmp(fa, fb, la) == 0) continue;
            char name[24];
            if (i < (int)(sizeof trace_fields / sizeof trace_fields[0])) snprintf(name, sizeof name, "%s", trace_fields[i]);
            else snprintf(name, sizeof name, "field %d", i + 1);
            append(buf, cap, &used, "%s %s %.*s -> %.*s", shown++ ? "," : "", name, (int)la, fa, (int)lb, fb);
        }
    }
    if (first) append(buf, cap, &used, "; %ld row%s differ%s", differ, differ == 1 ? "" : "s", differ == 1 ? "s" : "");
    return first;
}

/* ---- expectations -------------------------------------------------------------------- */

const char *pt_expect_kind_name(pt_expect_kind k) {
    static const char *const names[PT_EXPECT_KIND_COUNT] = {"visits", "stays", "covers", "unseen",
                                                            "caught", "goal", "solvable"};
    return (unsigned)k < PT_EXPECT_KIND_COUNT ? names[k] : "unknown";
}

void pt_expect_desc(const pt_testfile *tf, const pt_expect *x, pt_world_desc *out) {
    memset(out, 0, sizeof *out);
    out->seed = tf->seed;
    const char *route = x->route[0] ? x->route : tf->route;
    const pt_pattern *pat = x->route[0] ? x->route_pat : tf->route_pat;
    if (strcmp(route, PT_TEST_ROUTE_NONE) == 0) out->player_controlled = 1; /* no input: stands */
    else out->player_pattern = pat;
}

static const char *name_of(const pt_world *w, uint32_t id) {
    const pt_entity *e = pt_world_entity(w, (int)id);
    return e && e->name[0] ? e->name : id == 0 ? "player" : "?";
}

static void say(pt_test_result *r, pt_test_status st, const pt_world *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void say(pt_test_result *r, pt_test_status st, const pt_world *w, const char *fmt, ...) {
    r->status = st;
    r->tick = pt_world_tick(w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text, sizeof r->text, fmt, ap);
    va_end(ap);
}

/* What a run writes and applies as it steps: the trace, the script (its cursor, and its
 * error when the world refused a command). */
typedef struct run_io {
    FILE *trace;
    const pt_script *script;
    int cursor;
    int failed;
    pt_error err;
} run_io;

/* The run's clock: the script's commands due, one step, its trace rows; 0 when the round is
 * over (nothing moves) or the world refused a command of the script. */
static int step(pt_world *w, run_io *io) {
    if (io->script && !io->failed && pt_script_apply(io->script, &io->cursor, w, &io->err) < 0) io->failed = 1;
    if (io->failed) return 0;
    uint64_t before = pt_world_tick(w);
    pt_world_step(w);
    if (pt_world_tick(w) == before) return 0;
    if (io->trace) pt_world_trace_rows(w, io->trace);
    return 1;
}

static long ticks_of(const pt_world *w, double seconds) { return lround(seconds / pt_world_dt(w)); }
static double secs(const pt_world *w, uint64_t tick) { return (double)tick * pt_world_dt(w); }

static void run_visits(pt_world *w, const pt_expect *x, int g, pt_test_result *r, run_io *io) {
    const pt_entity *e = pt_world_entity(w, g);
    long end = ticks_of(w, x->within);
    int k = 0;
    uint64_t at[PT_TEST_MAX_CELLS] = {0};
    /* The cell it starts on counts: a round that begins there has visited it. */
    while (k < x->ncells && e->x == x->cells[k].x && e->y == x->cells[k].y) at[k++] = 0;
    while (k < x->ncells && (long)pt_world_tick(w) < end && step(w, io))
        while (k < x->ncells && e->x == x->cells[k].x && e->y == x->cells[k].y) at[k++] = pt_world_tick(w);
    if (k == x->ncells) {
        say(r, PT_TEST_PASS, w, "the last cell on tick %llu (%.1f s)", (unsigned long long)at[k - 1], secs(w, at[k - 1]));
    } else if (k == 0) {
        say(r, PT_TEST_FAIL, w, "never on %d,%d in %.1f s; at %d,%d (%s) on tick %llu", x->cells[0].x, x->cells[0].y,
            x->within, e->x, e->y, pt_state_name(e->state), (unsigned long long)pt_world_tick(w));
    } else {
        say(r, PT_TEST_FAIL, w, "on %d,%d on tick %llu, then never on %d,%d in %.1f s; at %d,%d (%s) on tick %llu",
            x->cells[k - 1].x, x->cells[k - 1].y, (unsigned long long)at[k - 1], x->cells[k].x, x->cells[k].y, x->within,
            e->x, e->y, pt_state_name(e->state), (unsigned long long)pt_world_tick(w));
    }
}

static int in_area(const pt_entity *e, const pt_expect *x) {
    return e->x >= x->area_lo.x && e->x <= x->area_hi.x && e->y >= x->area_lo.y && e->y <= x->area_hi.y;
}

static void run_stays(pt_world *w, const pt_expect *x, int g, pt_test_result *r, run_io *io) {
    const pt_entity *e = pt_world_entity(w, g);
    long end = ticks_of(w, x->duration);
    int inside = in_area(e, x);
    while (inside && (long)pt_world_tick(w) < end && step(w, io)) inside = in_area(e, x);
    if (inside)
        say(r, PT_TEST_PASS, w, "inside for %.1f s", secs(w, pt_world_tick(w)));
    else
        say(r, PT_TEST_FAIL, w, "tick %llu (%.1f s): %s left the area: at %d,%d (%s)",
            (unsigned long long)pt_world_tick(w), secs(w, pt_world_tick(w)), e->name, e->x, e->y, pt_state_name(e->state));
}

static void run_covers(pt_world *w, const pt_expect *x, int g, pt_test_result *r, run_io *io) {
    long end = ticks_of(w, x->duration), every = ticks_of(w, x->every);
    int cx = x->cells[0].x, cy = x->cells[0].y;
    /* The window starts at tick 0: the first sight must come within `every` too. */
    int was = pt_test_cone_covers(w, g, cx, cy);
    uint64_t last = pt_world_tick(w);
    long longest = 0, times = was; /* times: spells of cover, each counted where it begins */
    while ((long)pt_world_tick(w) < end && step(w, io)) {
        uint64_t t = pt_world_tick(w);
        int now = pt_test_cone_covers(w, g, cx, cy);
        if (now) {
            times += !was;
            last = t;
        }
        was = now;
        if ((long)(t - last) > longest) longest = (long)(t - last);
        if ((long)(t - last) >= every) {
            const pt_entity *e = pt_world_entity(w, g);
            say(r, PT_TEST_FAIL, w, "%d,%d not covered from tick %llu to tick %llu (%.1f s); %s at %d,%d (%s)", cx, cy,
                (unsigned long long)last, (unsigned long long)t, secs(w, t - last), e->name, e->x, e->y,
                pt_state_name(e->state));
            return;
        }
    }
    say(r, PT_TEST_PASS, w, "covered %ld time%s, the longest gap %.1f s", times, times == 1 ? "" : "s",
        secs(w, (uint64_t)longest));
}

static void run_unseen(pt_world *w, const pt_expect *x, pt_test_result *r, run_io *io) {
    long end = ticks_of(w, x->duration);
    pt_test_sighting s;
    while ((long)pt_world_tick(w) < end && step(w, io)) {
        if (pt_test_sees_player(w, -1, &s)) {
            say(r, PT_TEST_FAIL, w, "tick %llu (%.1f s): %s at %d,%d saw the player at %d,%d",
                (unsigned long long)s.tick, secs(w, s.tick), name_of(w, (uint32_t)s.guard), s.guard_at.x, s.guard_at.y,
                s.player_at.x, s.player_at.y);
            return;
        }
        if (pt_test_event(w, PT_EVENT_GOAL, NULL)) {
            say(r, PT_TEST_PASS, w, "at the goal on tick %llu (%.1f s), never seen", (unsigned long long)pt_world_tick(w),
                secs(w, pt_world_tick(w)));
            return;
        }
    }
    say(r, PT_TEST_PASS, w, "never seen in %.1f s", secs(w, pt_world_tick(w)));
}

static void run_caught(pt_world *w, const pt_expect *x, int g, pt_test_result *r, run_io *io) {
    long end = ticks_of(w, x->within);
    pt_event ev;
    uint64_t first_seen = 0;
    pt_test_sighting s;
    while ((long)pt_world_tick(w) < end && step(w, io)) {
        if (!first_seen && pt_test_sees_player(w, g, &s)) first_seen = s.tick;
        if (!pt_test_event(w, PT_EVENT_CAUGHT, &ev)) continue;
        /* by= is the first catch: a catch by another guard (the player then starts again and
         * may be caught later) decides it too. Two catches on one tick: by= is among them. */
        int n;
        const pt_event *evs = pt_world_events(w, &n);
        for (int i = 0; g >= 0 && i < n; i++)
            if (evs[i].kind == PT_EVENT_CAUGHT && evs[i].a == (uint32_t)g) ev = evs[i];
        if (g < 0 || ev.a == (uint32_t)g)
            say(r, PT_TEST_PASS, w, "caught by %s on tick %llu (%.1f s) at %d,%d", name_of(w, ev.a),
                (unsigned long long)ev.tick, secs(w, ev.tick), ev.x, ev.y);
        else
            say(r, PT_TEST_FAIL, w, "caught first by %s on tick %llu (%.1f s) at %d,%d, not by %s", name_of(w, ev.a),
                (unsigned long long)ev.tick, secs(w, ev.tick), ev.x, ev.y, name_of(w, (uint32_t)g));
        return;
    }
    const pt_entity *p = pt_world_entity(w, 0);
    char who[PT_MAX_NAME + 8];
    snprintf(who, sizeof who, "%s", g < 0 ? "" : name_of(w, (uint32_t)g));
    if (first_seen)
        say(r, PT_TEST_FAIL, w, "not caught%s%s in %.1f s (first seen on tick %llu); the player is at %d,%d",
            g < 0 ? "" : " by ", who, x->within, (unsigned long long)first_seen, p->x, p->y);
    else
        say(r, PT_TEST_FAIL, w, "not caught%s%s in %.1f s, never seen; the player is at %d,%d", g < 0 ? "" : " by ",
            who, x->within, p->x, p->y);
}

static void run_goal(pt_world *w, const pt_expect *x, pt_test_result *r, run_io *io) {
    long end = ticks_of(w, x->within);
    pt_event ev;
    while ((long)pt_world_tick(w) < end && step(w, io)) {
        if (pt_test_event(w, PT_EVENT_CAUGHT, &ev)) {
            say(r, PT_TEST_FAIL, w, "caught by %s on tick %llu (%.1f s) at %d,%d", name_of(w, ev.a),
                (unsigned long long)ev.tick, secs(w, ev.tick), ev.x, ev.y);
            return;
        }
        if (pt_test_event(w, PT_EVENT_GOAL, &ev)) {
            say(r, PT_TEST_PASS, w, "at the goal %d,%d on tick %llu (%.1f s)", ev.x, ev.y, (unsigned long long)ev.tick,
                secs(w, ev.tick));
            return;
        }
    }
    const pt_entity *p = pt_world_entity(w, 0);
    say(r, PT_TEST_FAIL, w, "not at the goal in %.1f s; the player is at %d,%d", x->within, p->x, p->y);
}

static const char *plural(int n) { return n == 1 ? "" : "s"; }

/* The solver on the world's own map, patterns and seed: a route within `within` whose cells
 * no guard sees `margin` seconds before or after the player stands there. The world is not
 * stepped: the solver runs its own worlds. */
static void run_solvable(pt_world *w, const pt_expect *x, pt_test_result *r) {
    pt_solve_opts o = {0};
    o.seed = w->seed;
    o.max_ticks = (int)ticks_of(w, x->within);
    o.margin_ticks = (int)ticks_of(w, x->margin);
    if (o.max_ticks < 1) o.max_ticks = 1;
    int want = o.margin_ticks;
    pt_solve_result sr;
    pt_error err;
    int rc = pt_solve(&w->map, w->lib, &o, &sr, &err);
    double dt = pt_world_dt(w);
    if (rc == PT_OK && !sr.found && want > 1) {
        /* how near the guards come on the route found without a margin says how far off it is */
        pt_solve_result_fini(&sr);
        o.margin_ticks = 0;
        rc = pt_solve(&w->map, w->lib, &o, &sr, &err);
    }
    if (rc != PT_OK) {
        say(r, PT_TEST_FAIL, w, "the solver stopped: %s", err.message);
    } else if (!sr.found) {
        say(r, PT_TEST_FAIL, w, "no route unseen and unheard within %d ticks (%.1f s)", o.max_ticks, o.max_ticks * dt);
    } else {
        char tiles[48] = "";
        if (sr.margin_tiles >= 0.0) snprintf(tiles, sizeof tiles, ", %.2f tiles", sr.margin_tiles);
        char head[128] = "a route";
        pt_test_status st = PT_TEST_PASS;
        if (o.margin_ticks != want) {
            st = PT_TEST_FAIL;
            snprintf(head, sizeof head, "no route with a margin of %d tick%s (%.2f s) within %d ticks (%.1f s); without one",
                     want, plural(want), want * dt, o.max_ticks, o.max_ticks * dt);
        }
        say(r, st, w, "%s: %d ticks (%.2f s), gait %s, from %d,%d to the goal at %d,%d, margin %d tick%s (%.2f s)%s", head,
            sr.ticks, sr.ticks * dt, pt_gait_name((pt_gait)sr.gait), sr.start_x, sr.start_y, sr.goal_x, sr.goal_y,
            sr.margin_ticks, plural(sr.margin_ticks), sr.margin_ticks * dt, tiles);
    }
    pt_solve_result_fini(&sr);
}

pt_test_status pt_expect_run(pt_world *w, const pt_expect *x, pt_test_result *r, FILE *trace) {
    return pt_expect_run_script(w, x, NULL, r, trace);
}

pt_test_status pt_expect_run_script(pt_world *w, const pt_expect *x, const pt_script *script, pt_test_result *r,
                                    FILE *trace) {
    memset(r, 0, sizeof *r);
    run_io io = {.trace = trace, .script = script};
    run_io *const io_p = &io;
    if (trace) {
        pt_world_trace_header(trace);
        pt_world_trace_rows(w, trace);
    }
    int g = x->guard[0] ? pt_test_find_guard(w, x->guard) : -1;
    if (x->guard[0] && g < 0) {
        say(r, PT_TEST_FAIL, w, "no guard '%s' in the world", x->guard);
        return r->status;
    }
    switch (x->kind) {
    case PT_EXPECT_VISITS: run_visits(w, x, g, r, io_p); break;
    case PT_EXPECT_STAYS: run_stays(w, x, g, r, io_p); break;
    case PT_EXPECT_COVERS: run_covers(w, x, g, r, io_p); break;
    case PT_EXPECT_UNSEEN: run_unseen(w, x, r, io_p); break;
    case PT_EXPECT_CAUGHT: run_caught(w, x, g, r, io_p); break;
    case PT_EXPECT_GOAL: run_goal(w, x, r, io_p); break;
    case PT_EXPECT_SOLVABLE: run_solvable(w, x, r); break;
    case PT_EXPECT_KIND_COUNT: say(r, PT_TEST_FAIL, w, "unknown expectation"); break;
    }
    if (io.failed) /* the world refused a command of the script: that decides it */
        say(r, PT_TEST_FAIL, w, "the script stopped: %.60s:%d:%d: %.150s", io.err.file, io.err.line, io.err.col,
            io.err.message);
    return r->status;
}
