/* SPDX-License-Identifier: Zlib */
/* The game behind `patrol play`: level and world ownership, restart and hot reload, key
 * taps, and the round's bookkeeping (events -> messages and counts). No SDL here. */
#include "game/play.h"

#include "common/load.h"

#include <patrol/bresenham.h>
#include <patrol/light.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static play_level *level_load(const char *path, pt_error *err) {
    play_level *lv = PT_CALLOC(1, sizeof *lv);
    if (!lv) {
        pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    if (pt_level_load(path, &lv->map, &lv->lib, err) < 0) { /* nothing to free on failure */
        PT_FREE(lv);
        return NULL;
    }
    const pt_map *m = &lv->map;
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++) {
            if (!(m->flags[(size_t)y * (size_t)m->w + (size_t)x] & PT_TILE_GOAL) || lv->ngoals >= PLAY_MAX_GOALS) continue;
            if (!lv->goals && !(lv->goals = PT_MALLOC(sizeof *lv->goals * PLAY_MAX_GOALS))) {
                pt_patlib_fini(&lv->lib);
                pt_map_fini(&lv->map);
                PT_FREE(lv);
                pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
                return NULL;
            }
            lv->goals[lv->ngoals++] = (pt_cell){x, y};
        }
    return lv;
}

static void level_free(play_level *lv) {
    if (!lv) return;
    PT_FREE(lv->goals);
    pt_patlib_fini(&lv->lib);
    pt_map_fini(&lv->map);
    PT_FREE(lv);
}

#define PLAY_INTRO_MOVED_TICKS 90 /* the opening hint's ticks left once the player moves */

static void say(play_session *s, uint32_t rgba, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(play_session *s, uint32_t rgba, const char *fmt, ...) {
    /* Something happened: the opening hint has done its job and fades out. */
    if (s->intro && s->nmsgs > 0 && s->msgs[0].ticks > 40) s->msgs[0].ticks = 40;
    s->intro = 0;
    if (s->nmsgs == PLAY_MSGS) { /* the oldest gives way */
        memmove(s->msgs, s->msgs + 1, sizeof s->msgs[0] * (PLAY_MSGS - 1));
        s->nmsgs--;
    }
    play_msg *m = &s->msgs[s->nmsgs++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    m->rgba = rgba;
    m->ticks = PLAY_MSG_TICKS;
    m->note = 0;
}

/* The newest message is `text` and still shows (then it shows again in full). */
static int said_again(play_session *s, const char *text) {
    if (s->nmsgs == 0 || strcmp(s->msgs[s->nmsgs - 1].text, text) != 0) return 0;
    s->msgs[s->nmsgs - 1].ticks = PLAY_MSG_TICKS;
    return 1;
}

void play_note(play_session *s, uint32_t rgba, const char *text) {
    for (int i = 0; i < s->nmsgs; i++)
        if (s->msgs[i].note) { /* the last note gives way */
            memmove(s->msgs + i, s->msgs + i + 1, sizeof s->msgs[0] * (size_t)(s->nmsgs - i - 1));
            s->nmsgs--;
            break;
        }
    /* Not an event of the round: the opening hint stays (unless it is the oldest of a full list). */
    if (s->nmsgs == PLAY_MSGS) {
        memmove(s->msgs, s->msgs + 1, sizeof s->msgs[0] * (PLAY_MSGS - 1));
        s->nmsgs--;
        s->intro = 0;
    }
    play_msg *m = &s->msgs[s->nmsgs++];
    snprintf(m->text, sizeof m->text, "%s", text);
    m->rgba = rgba;
    m->ticks = PLAY_MSG_TICKS;
    m->note = 1;
}

/* A flight for the frame: from the player's cell to (x, y), now. */
static void add_flight(play_session *s, int x, int y) {
    const pt_entity *pl = pt_world_entity(s->world, 0);
    if (s->nflights == PLAY_FLIGHTS) {
        memmove(s->flights, s->flights + 1, sizeof s->flights[0] * (PLAY_FLIGHTS - 1));
        s->nflights--;
    }
    s->flights[s->nflights++] = (play_flight){pl->x + 0.5, pl->y + 0.5, x, y, s->ticks};
}

/* Drops the flights older than PLAY_FLIGHT_KEEP_S. */
static void age_flights(play_session *s) {
    double dt = pt_world_dt(s->world);
    int k = 0;
    for (int i = 0; i < s->nflights; i++)
        if ((double)(s->ticks - s->flights[i].tick) * dt < PLAY_FLIGHT_KEEP_S) s->flights[k++] = s->flights[i];
    s->nflights = k;
}

static void log_line(play_session *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void log_line(play_session *s, const char *fmt, ...) {
    if (!s->log || !s->log_events) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->log, fmt, ap);
    va_end(ap);
    fputc('\n', s->log);
    fflush(s->log);
}

/* A new world: its recording starts over (the old inputs would replay into another world). */
static void rec_restart(play_session *s) {
    s->rec_error = 0;
    if (s->rec && app_rec_start(s->rec, &s->level->map, s->level->map.seed, NULL) < 0) s->rec_error = 1;
}

/* A fresh round's bookkeeping (the world is new). */
static void round_reset(play_session *s) {
    rec_restart(s);
    s->replay_at = (app_rec_cursor){0};
    s->ticks = 0;
    s->end_tick = 0;
    s->round = 0;
    s->spotted = 0;
    s->alarmed = 0;
    s->stones = PLAY_STONES;
    s->thrown = 0;
    s->caught_by[0] = '\0';
    s->catcher = -1;
    s->catch_skip = -1.0;
    s->catch_cued = 0;
    s->nmsgs = 0;
    s->ntaps = 0;
    s->nnoises = 0;
    s->nflights = 0;
    s->ncues = 0;
    memset(s->states, 0, sizeof s->states);
    s->intro = 0;
    s->clock_base = 0;
    s->started = 0;
    s->start_tick = 0;
    if (s->level && s->level->ngoals > 0) {
        say(s, 0xf2be3cffu, "find the glowing exit - follow the gold arrow");
        s->msgs[s->nmsgs - 1].ticks = PLAY_INTRO_TICKS;
        s->intro = 1;
    }
}

int play_open(play_session *s, const char *path, pt_error *err) {
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->desc = (pt_world_desc){.player_controlled = 1, .end_round_on_catch = 1};
    if (!(s->level = level_load(path, err))) return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    if (app_file_hash(s->level->map.path, &s->map_hash, err) < 0) {
        level_free(s->level);
        s->level = NULL;
        return err->code < 0 ? err->code : PT_ERR_IO;
    }
    if (!(s->world = pt_world_create(&s->level->map, &s->level->lib, &s->desc, err))) {
        level_free(s->level);
        s->level = NULL;
        return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    }
    round_reset(s);
    app_watch_map(&s->watch, &s->level->map);
    return PT_OK;
}

void play_close(play_session *s) {
    if (!s) return;
    pt_world_destroy(s->world);
    level_free(s->level);
    s->world = NULL;
    s->level = NULL;
}

int play_restart(play_session *s, pt_error *err) {
    pt_world *w = pt_world_create(&s->level->map, &s->level->lib, &s->desc, err);
    if (!w) return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    pt_world_destroy(s->world);
    s->world = w;
    round_reset(s);
    log_line(s, "restart");
    return PT_OK;
}

void play_adopt_world(play_session *s, pt_world *w) {
    pt_world_destroy(s->world);
    s->world = w;
    round_reset(s);
    s->nmsgs = 0;
    s->intro = 0;
    int n = pt_world_count(w);
    for (int i = 1; i < n && i < PLAY_TRACK; i++) s->states[i] = (unsigned char)pt_world_entity(w, i)->state;
}

int play_reload(play_session *s, pt_error *err) {
    uint64_t hash = 0;
    play_level *lv = level_load(s->path, err);
    if (lv && app_file_hash(lv->map.path, &hash, err) < 0) {
        level_free(lv);
        lv = NULL;
    }
    if (!lv) {
        log_line(s, "reload failed %s:%d:%d", err->file, err->line, err->col);
        return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    }
    /* Only the patterns (or steering) changed: the designer wants to see the guards' new
     * routes from where they stand, not walk back from the start. The player enters the new
     * world on its tile; the world's tick starts at 0 again, the round's clock does not. */
    int keep = hash == s->map_hash && s->round == 0;
    if (keep) {
        const pt_entity *pl = pt_world_entity(s->world, 0);
        lv->map.player.x = pl->x;
        lv->map.player.y = pl->y;
        lv->map.player.heading_deg = pl->heading * 180.0 / 3.14159265358979323846;
    }
    pt_world *w = pt_world_create(&lv->map, &lv->lib, &s->desc, err);
    if (!w) {
        level_free(lv);
        log_line(s, "reload failed %s:%d:%d", err->file, err->line, err->col);
        return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    }
    uint64_t played = pt_world_tick(s->world);
    pt_world_destroy(s->world);
    level_free(s->level);
    s->world = w;
    s->level = lv;
    s->map_hash = hash;
    s->reloads++;
    app_watch_map(&s->watch, &lv->map);
    if (keep) {
        rec_restart(s);
        if (s->started) s->clock_base += played - s->start_tick; /* the new world's tick starts at 0 */
        s->start_tick = 0;
        s->nnoises = 0; /* their ticks are the old world's */
        say(s, 0x9adcffffu, "patterns reloaded");
        log_line(s, "reload ok patterns");
    } else {
        round_reset(s);
        say(s, 0x9adcffffu, "reloaded %s", lv->map.name[0] ? lv->map.name : s->path);
        log_line(s, "reload ok");
    }
    return PT_OK;
}

int play_watch(play_session *s, pt_error *err) {
    if (!app_watch_changed(&s->watch)) return 0;
    int rc = play_reload(s, err);
    return rc < 0 ? rc : 1;
}

int play_record(play_session *s, app_rec *r, pt_error *err) {
    int rc = app_rec_start(r, &s->level->map, s->level->map.seed, err);
    if (rc < 0) return rc;
    s->rec = r;
    return PT_OK;
}

int play_replay(play_session *s, const app_rec *r, pt_error *err) {
    int rc = app_rec_check_level(r, &s->level->map, err);
    if (rc < 0) return rc;
    pt_world_desc desc = s->desc;
    desc.seed = r->seed;
    pt_world *w = pt_world_create(&s->level->map, &s->level->lib, &desc, err);
    if (!w) return err->code < 0 ? err->code : PT_ERR_INTERNAL;
    pt_world_destroy(s->world);
    s->world = w;
    s->desc = desc;
    s->replay = r;
    round_reset(s);
    return PT_OK;
}

int play_replay_done(const play_session *s) { return s->replay && s->replay_at.tick >= s->replay->ticks; }

int play_tick_entry_key(char *digits, int key, uint64_t max, uint64_t *to) {
    size_t n = strlen(digits);
    if (key >= '0' && key <= '9') {
        if (n < PLAY_TICK_DIGITS) digits[n] = (char)key, digits[n + 1] = '\0';
        return 0;
    }
    if (key == '\b') {
        if (n) digits[n - 1] = '\0';
        return 0;
    }
    if (key == 27) {
        digits[0] = '\0';
        return n ? 0 : -1;
    }
    if (key == '\r' && n) {
        uint64_t v = 0; /* ten digits fit: no overflow */
        for (size_t i = 0; i < n; i++) v = v * 10u + (uint64_t)(digits[i] - '0');
        digits[0] = '\0';
        *to = v < max ? v : max;
        return 1;
    }
    return key == '\r' ? 0 : -1;
}

void play_tap(play_session *s, int dx, int dy) {
    if (s->ntaps >= PLAY_TAPS) return;
    s->tap_dx[s->ntaps] = (signed char)(dx > 0 ? 1 : dx < 0 ? -1 : 0);
    s->tap_dy[s->ntaps] = (signed char)(dy > 0 ? 1 : dy < 0 ? -1 : 0);
    s->ntaps++;
}

static int pop_tap(play_session *s, int *dx, int *dy) {
    if (s->ntaps == 0) return 0;
    *dx = s->tap_dx[0];
    *dy = s->tap_dy[0];
    memmove(s->tap_dx, s->tap_dx + 1, (size_t)(s->ntaps - 1));
    memmove(s->tap_dy, s->tap_dy + 1, (size_t)(s->ntaps - 1));
    s->ntaps--;
    return 1;
}

static const char *name_of(const play_session *s, uint32_t id) {
    const pt_entity *e = pt_world_entity(s->world, (int)id);
    return e && e->name[0] ? e->name : "a guard";
}

static void cue(play_session *s, play_cue_kind kind, pt_gait gait, play_surface surface) {
    if (s->ncues < PLAY_CUES) s->cues[s->ncues++] = (play_cue){kind, gait, surface};
}

const play_cue *play_take_cues(play_session *s, int *n) {
    *n = s->ncues;
    s->ncues = 0;
    return s->cues;
}

play_surface play_surface_of(const pt_tile_def *def) {
    if (!def) return PLAY_SURF_HARD;
    if (strcmp(def->name, "water") == 0) return PLAY_SURF_WATER;
    if (strcmp(def->name, "bridge") == 0) return PLAY_SURF_WOOD;
    if (strcmp(def->name, "grass") == 0 || strcmp(def->name, "dirt") == 0 || strcmp(def->name, "bush") == 0)
        return PLAY_SURF_SOFT;
    return PLAY_SURF_HARD;
}

/* ---- a catch, as it is shown ---------------------------------------------------------------- */

/* Two crossings of a segment closer than this (tiles) count as passing through the corner
 * between them: both cells beside it must be walkable (no squeezing between two walls). */
#define CATCH_CORNER 0.02

/* 1 when the segment (x0,y0)-(x1,y1), in tiles, stays on walkable cells: every cell it passes
 * through (a grid walk, exact up to CATCH_CORNER), both cells beside a corner it passes. */
static int segment_walkable(const pt_map *m, double x0, double y0, double x1, double y1) {
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1))) return 0;
    int cx = (int)floor(x0), cy = (int)floor(y0);
    if (!pt_map_walkable(m, cx, cy)) return 0;
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    /* The segment's parameter (0..1) at the next vertical and horizontal cell boundary. */
    double tdx = sx ? 1.0 / fabs(dx) : INFINITY, tdy = sy ? 1.0 / fabs(dy) : INFINITY;
    double tmx = sx > 0 ? (cx + 1 - x0) * tdx : sx < 0 ? (x0 - cx) * tdx : INFINITY;
    double tmy = sy > 0 ? (cy + 1 - y0) * tdy : sy < 0 ? (y0 - cy) * tdy : INFINITY;
    while (tmx < 1.0 || tmy < 1.0) {
        if (fabs(tmx - tmy) * len < CATCH_CORNER) {
            if (!pt_map_walkable(m, cx + sx, cy) || !pt_map_walkable(m, cx, cy + sy)) return 0;
            cx += sx, cy += sy, tmx += tdx, tmy += tdy;
        } else if (tmx < tmy) {
            cx += sx, tmx += tdx;
        } else {
            cy += sy, tmy += tdy;
        }
        if (!pt_map_walkable(m, cx, cy)) return 0;
    }
    return 1;
}

int play_catch_target(const pt_map *m, double gx, double gy, double gh, double px, double py, double *ex, double *ey,
                      double *eh) {
    double dx = gx - px, dy = gy - py, d = hypot(dx, dy);
    *ex = gx;
    *ey = gy;
    *eh = d > 1e-9 ? atan2(-dy, -dx) : gh;
    if (!(d > PLAY_CATCH_BESIDE) || !isfinite(px) || !isfinite(py)) return 0;
    /* The straight line first, then the 8 points around the player nearest the guard first
     * (ties in compass order, so the choice is the same on every build). */
    double cand[9][2], dist[9];
    int order[9], n = 0;
    cand[n][0] = px + dx / d * PLAY_CATCH_BESIDE, cand[n][1] = py + dy / d * PLAY_CATCH_BESIDE;
    dist[n] = d - PLAY_CATCH_BESIDE, order[n] = n, n++;
    static const int dir8[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    for (int k = 0; k < 8; k++) {
        double len = dir8[k][0] && dir8[k][1] ? sqrt(0.5) : 1.0;
        double cx = px + dir8[k][0] * len * PLAY_CATCH_BESIDE, cy = py + dir8[k][1] * len * PLAY_CATCH_BESIDE;
        double dc = hypot(cx - gx, cy - gy);
        if (dc > d) continue; /* beyond the player: the guard would walk through them */
        int j = n++;
        cand[j][0] = cx, cand[j][1] = cy, dist[j] = dc;
        for (; j > 1 && dist[order[j - 1]] > dc; j--) order[j] = order[j - 1];
        order[j] = n - 1;
    }
    for (int i = 0; i < n; i++) {
        const double *c = cand[order[i]];
        if (!segment_walkable(m, gx, gy, c[0], c[1])) continue;
        *ex = c[0];
        *ey = c[1];
        *eh = atan2(py - c[1], px - c[0]);
        return 1;
    }
    return 0;
}

/* The round was just lost: the catcher's pose at the catch, as the frame draws it then (the
 * world's drawn position at alpha 0), and where it ends. */
static void catch_plan(play_session *s) {
    int n = pt_world_count(s->world);
    if (s->catcher <= 0 || s->catcher >= n) {
        s->catcher = -1;
        return;
    }
    const pt_entity *g = pt_world_entity(s->world, s->catcher);
    pt_vec2 at = pt_world_drawn_pos(s->world, s->catcher, 0.0), pl = pt_world_drawn_pos(s->world, 0, 0.0);
    s->catch_x0 = at.x;
    s->catch_y0 = at.y;
    s->catch_h0 = g->heading;
    play_catch_target(&s->level->map, at.x, at.y, g->heading, pl.x, pl.y, &s->catch_x1, &s->catch_y1,
                      &s->catch_h1);
}

play_catch_stage play_catch_at(const play_session *s, double *t) {
    double dummy;
    if (!t) t = &dummy;
    *t = 0.0;
    if (s->round >= 0) return PLAY_CATCH_NONE;
    /* Whole ticks of 1/60 s sum to a hair under a boundary: 1e-9 s puts them on it. */
    double since = play_since_end(s) + 1e-9, reach = s->catcher >= 0 ? PLAY_CATCH_REACH_S : 0.0;
    double banner = reach + PLAY_CATCH_GRAB_S;
    if (s->catch_skip >= 0.0 && s->catch_skip < banner) banner = s->catch_skip;
    if (since >= banner) {
        *t = since - banner;
        return PLAY_CATCH_DONE;
    }
    if (since < reach) {
        *t = since;
        return PLAY_CATCH_REACH;
    }
    *t = since - reach;
    return PLAY_CATCH_GRAB;
}

int play_catch_pose(const play_session *s, double t, double *x, double *y, double *heading) {
    if (s->round >= 0 || s->catcher < 0) return 0;
    double dx = s->catch_x1 - s->catch_x0, dy = s->catch_y1 - s->catch_y0;
    if (!(t > 0.0)) {
        *x = s->catch_x0, *y = s->catch_y0, *heading = s->catch_h0;
    } else if (t >= PLAY_CATCH_REACH_S) {
        *x = s->catch_x1, *y = s->catch_y1, *heading = s->catch_h1;
    } else {
        double u = t / PLAY_CATCH_REACH_S, p = u * (2.0 - u); /* eases out: fast, then settles */
        *x = s->catch_x0 + dx * p;
        *y = s->catch_y0 + dy * p;
        *heading = dx != 0.0 || dy != 0.0 ? atan2(dy, dx) : s->catch_h1;
    }
    return 1;
}

/* The caught sound, once, when the grab starts (or the banner, skipped to, comes first). */
static void catch_cue(play_session *s) {
    if (s->round >= 0 || s->catch_cued || play_catch_at(s, NULL) < PLAY_CATCH_GRAB) return;
    cue(s, PLAY_CUE_CAUGHT, PT_GAIT_WALK, PLAY_SURF_HARD);
    s->catch_cued = 1;
}

int play_catch_skip(play_session *s) {
    play_catch_stage st = play_catch_at(s, NULL);
    if (st != PLAY_CATCH_REACH && st != PLAY_CATCH_GRAB) return 0;
    s->catch_skip = play_since_end(s);
    catch_cue(s);
    return 1;
}

#define CATCH_LUNGE 0.15   /* tiles the catcher leans in at the grab ... */
#define CATCH_LUNGE_S 0.2  /* ... and back, in this long */

void play_catch_actors(const play_session *s, pt_actor *a, int n) {
    double t;
    play_catch_stage st = play_catch_at(s, &t);
    if (st == PLAY_CATCH_NONE || n <= 0) return;
    if (st == PLAY_CATCH_REACH) a[0].state = PT_STATE_PATROL; /* the starburst waits for the grab */
    int c = s->catcher;
    double x, y, h;
    if (c <= 0 || c >= n || !play_catch_pose(s, st == PLAY_CATCH_REACH ? t : PLAY_CATCH_REACH_S, &x, &y, &h)) return;
    double moved = hypot(x - s->catch_x0, y - s->catch_y0);
    if (st == PLAY_CATCH_REACH && moved > 0.0) {
        a[c].moving = 1;
        a[c].walk += moved;
    } else {
        a[c].moving = 0;
    }
    if (st == PLAY_CATCH_GRAB && t < CATCH_LUNGE_S) {
        double lean = CATCH_LUNGE * sin(3.14159265358979323846 * t / CATCH_LUNGE_S);
        if (segment_walkable(&s->level->map, x, y, x + cos(h) * CATCH_LUNGE, y + sin(h) * CATCH_LUNGE))
            x += cos(h) * lean, y += sin(h) * lean;
    }
    a[c].x = x;
    a[c].y = y;
    a[c].heading = h;
}

/* Guards that began to wonder this tick ("?"): a state change, not an event of the world. */
static void watch_states(play_session *s) {
    int n = pt_world_count(s->world);
    for (int i = 1; i < n && i < PLAY_TRACK; i++) {
        const pt_entity *e = pt_world_entity(s->world, i);
        if (e->kind == PT_KIND_GUARD && e->state == PT_STATE_SUSPICIOUS && s->states[i] != PT_STATE_SUSPICIOUS)
            cue(s, PLAY_CUE_SUSPICIOUS, PT_GAIT_WALK, PLAY_SURF_HARD);
        s->states[i] = (unsigned char)e->state;
    }
}

/* The last step's events: messages, counts, the log. */
static void observe(play_session *s) {
    int n = 0;
    const pt_event *ev = pt_world_events(s->world, &n);
    for (int i = 0; i < n; i++) {
        const char *who = name_of(s, ev[i].a);
        switch (ev[i].kind) {
        case PT_EVENT_CALLED: cue(s, PLAY_CUE_CALL, PT_GAIT_WALK, PLAY_SURF_HARD); break;
        case PT_EVENT_PHASE:
            if (ev[i].a == PT_PHASE_ALERT) s->alarmed = 1;
            break;
        case PT_EVENT_SPOTTED:
            cue(s, PLAY_CUE_CHASE, PT_GAIT_WALK, PLAY_SURF_HARD);
            s->spotted++;
            say(s, 0xff5a4affu, "spotted by %s!", who);
            log_line(s, "spotted %s", who);
            break;
        case PT_EVENT_LOST:
            say(s, 0xb4e67affu, "%s lost you", who);
            log_line(s, "lost %s", who);
            break;
        case PT_EVENT_RETURNED:
            say(s, 0xb4b4c8ffu, "%s is back on patrol", who);
            log_line(s, "returned %s", who);
            break;
        case PT_EVENT_CAUGHT: /* the sound comes at the grab (catch_cue) */
            if (s->catcher < 0) s->catcher = (int)ev[i].a;
            snprintf(s->caught_by, sizeof s->caught_by, "%s", who);
            say(s, 0xff5a4affu, "caught by %s!", who);
            log_line(s, "caught %s", who);
            break;
        case PT_EVENT_GOAL:
            cue(s, PLAY_CUE_ESCAPED, PT_GAIT_WALK, PLAY_SURF_HARD);
            say(s, 0xf2be3cffu, "you reached the exit!");
            log_line(s, "escaped %llu", (unsigned long long)pt_world_tick(s->world));
            break;
        default: break;
        }
    }
}

static void age_messages(play_session *s) {
    int k = 0;
    for (int i = 0; i < s->nmsgs; i++)
        if (--s->msgs[i].ticks > 0) s->msgs[k++] = s->msgs[i];
    s->nmsgs = k;
}

/* The rings the frame draws: the step's noises and shouts join, the old ones go (the oldest
 * first when there are too many). */
static void keep_noises(play_session *s) {
    uint64_t now = pt_world_tick(s->world);
    int k = 0, n;
    for (int i = 0; i < s->nnoises; i++)
        if (now - s->noises[i].tick < PLAY_NOISE_TICKS) s->noises[k++] = s->noises[i];
    s->nnoises = k;
    for (int list = 0; list < 2; list++) { /* the step's noises, then its shouts */
        const pt_noise *nz = list ? pt_world_shouts(s->world, &n) : pt_world_noises(s->world, &n);
        for (int i = 0; i < n; i++) {
            if (s->nnoises == PLAY_NOISES) {
                memmove(s->noises, s->noises + 1, sizeof s->noises[0] * (PLAY_NOISES - 1));
                s->nnoises--;
            }
            s->noises[s->nnoises++] = nz[i];
            if (nz[i].kind == PT_NOISE_GAME) cue(s, PLAY_CUE_THUD, PT_GAIT_WALK, PLAY_SURF_HARD);
        }
    }
}

/* The player's first move: the round's clock runs from the world's present tick (the step
 * about to be taken is the first one counted). */
static void start_clock(play_session *s) {
    if (s->started) return;
    s->started = 1;
    s->start_tick = pt_world_tick(s->world);
    /* The player is on the way: the opening hint (it hides a band of the map) stays a moment
     * longer, then fades. */
    if (s->intro && s->nmsgs > 0 && s->msgs[0].ticks > PLAY_INTRO_MOVED_TICKS)
        s->msgs[0].ticks = PLAY_INTRO_MOVED_TICKS;
}

void play_tick(play_session *s, int held_dx, int held_dy) {
    age_messages(s);
    s->ticks++;
    age_flights(s);
    if (s->round != 0) {
        catch_cue(s);
        return;
    }
    pt_world_set_gait(s->world, s->gait);
    const pt_entity *pl = pt_world_entity(s->world, 0);
    /* The world acts on the player's input when its movement clock passes 1 (world/player_tick.c:
     * move_t += speed * dt); a tap is handed over on exactly that tick, so none is lost
     * between two ticks or in the middle of a step. */
    int due = pl->move_t + pl->speed * pt_gait_speed(s->gait) * pt_world_dt(s->world) >= 1.0;
    int dx = 0, dy = 0;
    if (s->replay) {
        /* The recording holds what the world was handed, taps already resolved. */
        pt_gait g;
        if (s->replay_at.tick < s->replay->ticks) {
            int k = app_rec_throws(s->replay, &s->replay_at, s->world);
            if (k > 0) start_clock(s);
            for (int i = s->replay_at.thrown - k; i < s->replay_at.thrown; i++) {
                if (s->replay->throws[i].loudness == 0) { /* a douse */
                    cue(s, PLAY_CUE_DOUSE, PT_GAIT_WALK, PLAY_SURF_HARD);
                    continue;
                }
                add_flight(s, s->replay->throws[i].x, s->replay->throws[i].y);
                s->stones--;
                s->thrown++;
            }
        }
        if (!app_rec_take(s->replay, &s->replay_at, &dx, &dy, &g)) return;
        s->gait = g;
        pt_world_set_gait(s->world, g);
    } else if (!(due && pop_tap(s, &dx, &dy))) {
        dx = held_dx;
        dy = held_dy;
    }
    int ox = pl->x, oy = pl->y;
    if (dx || dy) start_clock(s);
    pt_world_set_input(s->world, dx, dy);
    if (s->rec && app_rec_add(s->rec, dx, dy, s->gait) < 0) s->rec_error = 1;
    pt_world_step(s->world);
    keep_noises(s);
    pl = pt_world_entity(s->world, 0);
    if (pl->x != ox || pl->y != oy)
        cue(s, PLAY_CUE_STEP, s->gait, play_surface_of(pt_map_tile(&s->level->map, pl->x, pl->y)));
    if (s->log && s->log_moves && (pl->x != ox || pl->y != oy)) {
        fprintf(s->log, "move %d,%d\n", pl->x, pl->y);
        fflush(s->log);
    }
    observe(s);
    watch_states(s);
    s->round = pt_world_round(s->world);
    if (s->round != 0) {
        s->end_tick = s->ticks;
        s->ntaps = 0;
        if (s->round < 0) catch_plan(s);
    }
}

int play_throw(play_session *s, int x, int y, int *lx, int *ly) {
    if (s->round != 0 || s->replay) return 0;
    if (s->stones <= 0) {
        static const char none[] = "no stones left - R restarts the round";
        if (!said_again(s, none)) say(s, 0xff8c50ffu, "%s", none);
        return 0;
    }
    const pt_map *m = &s->level->map;
    const pt_entity *pl = pt_world_entity(s->world, 0);
    if (x == pl->x && y == pl->y) return 0;
    pt_line_iter it;
    pt_line_iter_init(&it, pl->x, pl->y, x, y);
    int cx = pl->x, cy = pl->y;
    for (int flown = 0; flown < PLAY_THROW_RANGE && pt_line_iter_next(&it); flown++) {
        if (!pt_map_step_ok(m, cx, cy, it.x, it.y)) break;
        cx = it.x;
        cy = it.y;
    }
    if (cx == pl->x && cy == pl->y) return 0;
    pt_world_noise(s->world, cx, cy, PLAY_STONE_LOUDNESS);
    start_clock(s); /* the recording holds the throw at this tick: a replay starts it here too */
    if (s->rec && app_rec_add_throw(s->rec, cx, cy, (int)PLAY_STONE_LOUDNESS) < 0) s->rec_error = 1;
    s->stones--;
    s->thrown++;
    add_flight(s, cx, cy);
    if (lx) *lx = cx;
    if (ly) *ly = cy;
    log_line(s, "throw %d,%d", cx, cy);
    return 1;
}

int play_douse(play_session *s) {
    if (s->round != 0 || s->replay) return -1;
    int i = pt_world_douse(s->world);
    if (i < 0) {
        static const char none[] = "no light within reach";
        if (!said_again(s, none)) say(s, 0xc0c0c0ffu, "%s", none);
        return -1;
    }
    pt_light l;
    pt_world_light_get(s->world, i, &l);
    start_clock(s); /* the recording holds the douse at this tick: a replay starts it here too */
    if (s->rec && app_rec_add_douse(s->rec, l.x, l.y) < 0) s->rec_error = 1;
    cue(s, PLAY_CUE_DOUSE, PT_GAIT_WALK, PLAY_SURF_HARD);
    say(s, 0xffd27aff, "doused %s", l.name[0] ? l.name : "a light");
    log_line(s, "douse %d,%d", l.x, l.y);
    return i;
}

int play_lit(const play_session *s) {
    const pt_map *m = pt_world_map(s->world);
    return pt_world_light_count(s->world) > 0 || (m->ambient_set && m->ambient < 1.0);
}

int play_throw_facing(play_session *s, int *lx, int *ly) {
    const pt_entity *pl = pt_world_entity(s->world, 0);
    int dx = (int)lround(cos(pl->heading)), dy = (int)lround(sin(pl->heading));
    if (dx == 0 && dy == 0) return 0;
    return play_throw(s, pl->x + dx * PLAY_THROW_RANGE, pl->y + dy * PLAY_THROW_RANGE, lx, ly);
}

void play_badges(const play_session *s, int *ghost, int *calm, int *no_stones) {
    *ghost = s->spotted == 0;
    *calm = !s->alarmed;
    *no_stones = s->thrown == 0;
}

int play_alert(const play_session *s) {
    int level = 0;
    for (int i = 1; i < pt_world_count(s->world); i++) {
        const pt_entity *e = pt_world_entity(s->world, i);
        if (e->kind != PT_KIND_GUARD) continue;
        if (e->state == PT_STATE_CHASE) return 2;
        if (e->state == PT_STATE_SUSPICIOUS || e->state == PT_STATE_SEARCH) level = 1;
    }
    return level;
}

double play_clock(const play_session *s) {
    uint64_t now = pt_world_tick(s->world), run = s->started && now > s->start_tick ? now - s->start_tick : 0;
    return (double)(s->clock_base + run) * pt_world_dt(s->world);
}

double play_since_end(const play_session *s) {
    if (s->round == 0 || s->ticks < s->end_tick) return 0.0;
    return (double)(s->ticks - s->end_tick) * pt_world_dt(s->world);
}

const char *play_level_title(const play_session *s) {
    return s->level->map.name[0] ? s->level->map.name : s->path;
}

const char *play_objective(const play_session *s) {
    return s->level->map.goal ? "Reach the exit - stay out of sight" : "Stay out of sight";
}

int play_nearest_goal(const play_session *s, int *gx, int *gy) {
    const pt_entity *pl = pt_world_entity(s->world, 0);
    long best = -1;
    for (int i = 0; i < s->level->ngoals; i++) {
        const pt_cell *c = &s->level->goals[i];
        long d = (long)(c->x - pl->x) * (c->x - pl->x) + (long)(c->y - pl->y) * (c->y - pl->y);
        if (best < 0 || d < best) {
            best = d;
            *gx = c->x;
            *gy = c->y;
        }
    }
    return best >= 0;
}
