/* SPDX-License-Identifier: Zlib */
/* A found route: its figures and its player pattern. */
#include <patrol/world.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "levels/solve_priv.h"

/* The figures of a found route: its cells per tick, first move, margins in ticks and tiles
 * (against the guards' plain sight, without opts->margin). */
int pt__solve_route_figures(pt_solve_result *r, const pt_sightmap *sm) {
    r->cells = PT_MALLOC(((size_t)r->ticks + 1) * sizeof *r->cells);
    if (!r->cells) return 0;
    int x = r->start_x, y = r->start_y, t = 0;
    r->first_move_tick = -1;
    for (int i = 0; i <= r->nactions; i++) {
        int until = i < r->nactions ? r->actions[i].tick : r->ticks + 1;
        for (; t < until && t <= r->ticks; t++) r->cells[t] = (pt_cell){x, y};
        if (i < r->nactions && r->actions[i].kind == PT_SOLVE_STEP) {
            if (r->first_move_tick < 0) r->first_move_tick = r->actions[i].tick;
            x += r->actions[i].dx;
            y += r->actions[i].dy;
        }
    }
    r->goal_x = r->cells[r->ticks].x;
    r->goal_y = r->cells[r->ticks].y;
    r->margin_ticks = PT_SOLVE_MARGIN_CAP;
    r->margin_tiles = -1.0;
    enum { NEAR = 24 };
    for (int tt = 1; tt <= r->ticks; tt++) {
        pt_cell c = r->cells[tt];
        for (int d = 0; d < r->margin_ticks; d++)
            if (pt_sightmap_seen(sm, tt - d, c.x, c.y) || pt_sightmap_seen(sm, tt + d, c.x, c.y)) {
                r->margin_ticks = d;
                break;
            }
        for (int dy = -NEAR; dy <= NEAR; dy++)
            for (int dx = -NEAR; dx <= NEAR; dx++) {
                double dist = sqrt((double)(dx * dx + dy * dy));
                if ((r->margin_tiles >= 0.0 && dist >= r->margin_tiles) || dist > NEAR) continue;
                if (pt_sightmap_seen(sm, tt, c.x + dx, c.y + dy)) r->margin_tiles = dist;
            }
    }
    return 1;
}

int pt_solve_route_unseen(const pt_solve_result *r, const pt_sightmap *sm) {
    if (!r->found || !r->cells) return 0;
    for (int t = 1; t <= r->ticks; t++)
        if (t > sm->ticks || pt_sightmap_seen(sm, t, r->cells[t].x, r->cells[t].y)) return 0;
    return 1;
}

void pt_solve_result_fini(pt_solve_result *r) {
    if (!r) return;
    PT_FREE(r->actions);
    PT_FREE(r->cells);
    r->actions = NULL;
    r->cells = NULL;
    r->nactions = 0;
}

/* The pattern's text, built in memory: what it would hold (len, without the NUL), the first
 * cap - 1 bytes of it in buf. */
typedef struct text_out {
    char *buf;
    size_t cap, len;
} text_out;

static void put(text_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(text_out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

size_t pt_solve_pattern_text(const pt_solve_result *r, const char *name, char *buf, size_t cap) {
    text_out to = {buf, buf ? cap : 0, 0}, *out = &to;
    if (to.cap) buf[0] = '\0';
    int deg = 45 * r->axis0; /* the heading, kept in [0, 360) */
    put(out, "# %d tick%s (%.2f s) from %d,%d to the goal at %d,%d; replay: patrol sim MAP --ticks %d "
                 "--player-pattern FILE:%s\n",
            r->ticks, r->ticks == 1 ? "" : "s", r->ticks / 60.0, r->start_x, r->start_y, r->goal_x, r->goal_y, r->ticks, name);
    put(out, "pattern %s\n  kind control\n  origin %d,%d\n  heading %d\n", name, r->start_x, r->start_y, deg);
    int run = 0, run_fwd = 0;
    int wrote = 0;
    if (r->gait != PT_GAIT_WALK) { /* the first action, at walking pace */
        put(out, "  gait %s\n", pt_gait_name((pt_gait)r->gait));
        wrote = 1;
    }
    for (int i = 0; i <= r->nactions; i++) {
        const pt_solve_action *a = i < r->nactions ? &r->actions[i] : NULL;
        int fwd = 0;
        if (a && a->kind == PT_SOLVE_STEP) {
            int hdx = AX_DX[(deg / 45) % 4], hdy = AX_DY[(deg / 45) % 4];
            if (deg >= 180) hdx = -hdx, hdy = -hdy;
            fwd = a->dx == hdx && a->dy == hdy;
            if (run && fwd == run_fwd) {
                run++;
                continue;
            }
        }
        if (run) {
            put(out, "  %s %d\n", run_fwd ? "forward" : "backward", run);
            wrote = 1;
            run = 0;
        }
        if (!a) break;
        switch (a->kind) {
        case PT_SOLVE_STEP:
            run = 1;
            run_fwd = fwd;
            break;
        case PT_SOLVE_TURN: {
            int by = ((a->axis - deg / 45) % 4 + 4) % 4 * 45;
            put(out, "  right %d\n", by);
            deg = (deg + by) % 360;
            wrote = 1;
            break;
        }
        case PT_SOLVE_WAIT:
            put(out, "  wait %d\n", a->hold);
            wrote = 1;
            break;
        }
    }
    if (!wrote) put(out, "  wait 1\n"); /* the start is the goal: a control pattern needs one instruction */
    put(out, "  at_end stop\nend\n");
    return to.len;
}

int pt_solve_write_pattern(const pt_solve_result *r, FILE *out, const char *name) {
    size_t n = pt_solve_pattern_text(r, name, NULL, 0);
    char *text = PT_MALLOC(n + 1);
    if (!text) return -1;
    pt_solve_pattern_text(r, name, text, n + 1);
    int rc = fwrite(text, 1, n, out) == n && !ferror(out) ? 0 : -1;
    PT_FREE(text);
    return rc;
}

