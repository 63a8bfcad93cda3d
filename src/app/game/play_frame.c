/* SPDX-License-Identifier: Zlib */
/* play_frame.c - a frame of the game (play_draw_frame): the world, the overlays, the noise
 * rings, the catch and the HUD, drawn from the session and never changing it. The window
 * draws it each frame and `patrol render` draws it into a PNG, so a PNG at tick N is the
 * window at tick N. */
#include "game/play.h"
#include "game/play_ui.h"

#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/math.h>
#include <patrol/render.h>
#include <patrol/search.h>
#include <patrol/world.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *keys_hint = "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw   P pause   R restart   M mute   F1 help   Esc quit";

/* The same from the level select: Esc goes back to it. */
static const char *keys_hint_levels = "arrows/WASD move   Shift run   Ctrl/C sneak   Space/click throw   P pause   R restart   M mute   F1 help   Esc levels";

/* A replay's own keys (patrol replay): the recording plays itself; these move through it. */
static const char *keys_hint_replay = "P pause   N one tick   +/- speed   Left/Right 1 s   Home/End first/last   digits+Enter go to tick   M mute   F1 help   Esc quit";

/* The F1 panel of a replay. */
const char *const play_help_text_replay = "patrol replay - keys\n"
                                      "P|pause / resume\n"
                                      "N|one tick while paused\n"
                                      "+ / -|playback speed (0.25x .. 4x)\n"
                                      "Right / Left|one second forward / back\n"
                                      "Home / End|the first / the last recorded tick\n"
                                      "0-9, Enter|type a tick and go to it\n"
                                      "Backspace / Esc|correct / cancel the tick typed\n"
                                      "F1 / H|this help\n"
                                      "F11|fullscreen\n"
                                      "M|sound on / off\n"
                                      "[ / ]|sound volume down / up\n"
                                      "Esc|quit\n"
                                      "\n"
                                      "debug overlays (as in play)\n"
                                      "Tab|all debug overlays on / off\n"
                                      "V O X I T F K E U B L G|one overlay each";

/* The key hint and the help panel for a session: a replay's own, the level select's (Esc
 * goes back to it), or the game's. */
static const char *keys_hint_for(const play_session *s, const play_frame *f) {
    return s->replay ? keys_hint_replay : f->from_levels ? keys_hint_levels : keys_hint;
}
static const char *help_text_for(const play_session *s) { return s->replay ? play_help_text_replay : play_help_text; }

/* The F1 panel: "KEY|what" lines in two columns; other lines are headings. A window too
 * small for it shows it on pages (Up/Down). */
const char *const play_help_text = "patrol - keys\n"
                               "arrows / WASD|walk (hold to keep walking)\n"
                               "Shift (held)|run: faster, louder footsteps\n"
                               "Ctrl / C (held)|sneak: slower, quieter footsteps\n"
                               "Space|throw a stone ahead (during a catch: skip)\n"
                               "left click|throw a stone at a tile (8 tiles)\n"
                               "Q|douse a light beside you (a noise)\n"
                               "P|pause / resume\n"
                               "N|one tick while paused\n"
                               "+ / -|simulation speed (0.25x .. 4x)\n"
                               "R|restart the round\n"
                               "F5|reload the map and its patterns\n"
                               "F6 / F9|quick save / quick load\n"
                               "F1 / H|this help\n"
                               "F11|fullscreen\n"
                               "M|sound on / off\n"
                               "[ / ]|sound volume down / up\n"
                               "Esc|quit (or back to the level select)\n"
                               "\n"
                               "debug overlays\n"
                               "Tab|all debug overlays on / off\n"
                               "V|view cones\n"
                               "O|cells each guard sees (sight)\n"
                               "X|line-of-sight rays to you\n"
                               "I|patrol patterns (paths, matrices)\n"
                               "T|planned paths (A* chase, return)\n"
                               "F|steering: velocity, radius, feelers, forces\n"
                               "K|what each guard remembers (memory)\n"
                               "E|the area searched together (search)\n"
                               "U|cells each noise reached (hearing)\n"
                               "Y|light level of each cell (light)\n"
                               "B|awareness bars\n"
                               "L|names\n"
                               "G|tile grid";


void play_fmt_clock(char *buf, size_t cap, double s) {
    if (!(s >= 0)) s = 0;
    long tenths = (long)floor(s * 10.0);
    snprintf(buf, cap, "%ld:%02ld.%ld", tenths / 600, (tenths / 10) % 60, tenths % 10);
}

/* A deterministic little shake after a catch (no RNG: the same tick draws the same). */
static void shake(double since, int ticks, double *dx, double *dy) {
    *dx = *dy = 0;
    if (since >= 0.45) return;
    double amp = 0.28 * (1.0 - since / 0.45);
    *dx = amp * sin(ticks * 2.1);
    *dy = amp * cos(ticks * 1.7 + 0.5);
}

static int grow(void **p, int *cap, int need, size_t size) {
    if (need <= *cap) return 1;
    int c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = PT_REALLOC(*p, size * (size_t)c);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

void play_frame_fini(play_frame *f) {
    PT_FREE(f->actors);
    PT_FREE(f->cells);
    pt_hearing_destroy(f->hearing);
    f->hearing = NULL;
    f->hearing_map = NULL;
    f->actors = NULL;
    f->cells = NULL;
    f->actors_cap = f->cells_cap = 0;
}

int play_frame_pick(const play_frame *f, int px, int py, int *cx, int *cy) {
    if (!(f->pick_unit > 0.0)) return 0;
    *cx = (int)floor(f->pick_cam_x + (px - f->pick_x) / f->pick_unit);
    *cy = (int)floor(f->pick_cam_y + (py - f->pick_y) / f->pick_unit);
    return 1;
}

/* ---- the screen's layout ---------------------------------------------------------------- */

enum { FIT_TILES_W = 24, FIT_TILES_H = 14, MIN_WIN_W = 480, MIN_WIN_H = 320, MAX_FIRST_SCALE = 4 };

play_layout play_layout_for(int map_w, int map_h, int tile_px, int out_w, int out_h, int top, int bottom) {
    play_layout L = {.scale = 1};
    if (out_w < 1) out_w = 1;
    if (out_h < 1) out_h = 1;
    if (map_w < 1) map_w = 1;
    if (map_h < 1) map_h = 1;
    if (tile_px < 1) tile_px = 1;
    top = pt_clampi(top, 0, out_h);
    bottom = pt_clampi(bottom, 0, out_h - top);
    L.top_h = top;
    L.bottom_h = bottom;
    L.bottom_y = out_h - bottom;
    L.view_x = 0;
    L.view_y = top;
    L.view_w = out_w;
    L.view_h = out_h - top - bottom;
    if (L.view_h < 1) L.view_h = 1;
    long uw = (long)map_w * tile_px, uh = (long)map_h * tile_px;
    long s = L.view_w / uw < L.view_h / uh ? L.view_w / uw : L.view_h / uh;
    if (s >= 1) {
        L.scale = (int)(s < PT_RENDER_MAX_SCALE ? s : PT_RENDER_MAX_SCALE);
        /* Centred on whole sprite pixels (the camera moves in sprite pixels). */
        long ox = (L.view_w - uw * L.scale) / 2 / L.scale, oy = (L.view_h - uh * L.scale) / 2 / L.scale;
        L.cam_x = -(double)ox / tile_px;
        L.cam_y = -(double)oy / tile_px;
        L.map_x = L.view_x + (int)(ox * L.scale);
        L.map_y = L.view_y + (int)(oy * L.scale);
        return L;
    }
    long tw = (map_w < FIT_TILES_W ? map_w : FIT_TILES_W) * (long)tile_px;
    long th = (map_h < FIT_TILES_H ? map_h : FIT_TILES_H) * (long)tile_px;
    s = L.view_w / tw < L.view_h / th ? L.view_w / tw : L.view_h / th;
    L.scale = (int)(s < 1 ? 1 : s > PT_RENDER_MAX_SCALE ? PT_RENDER_MAX_SCALE : s);
    L.follow = 1;
    /* Whole sprite pixels across the view, so the camera at the map's far edge (it moves in
     * sprite pixels) shows the last row and column whole. */
    int rx = L.view_w % L.scale, ry = L.view_h % L.scale;
    if (L.view_w > rx) L.view_x += rx / 2, L.view_w -= rx;
    if (L.view_h > ry) L.view_y += ry / 2, L.view_h -= ry;
    return L;
}

/* The HUD's bars in an output of w x h pixels (their size grows with the output's). */
static void bars_of(int w, int h, int *top, int *bottom) { pt_hud_bars(pt_hud_scale(w, h), top, bottom); }

void play_window_size_for(int map_w, int map_h, int tile_px, int disp_w, int disp_h, int *w, int *h) {
    long maxw = disp_w * 9L / 10, maxh = disp_h * 9L / 10;
    if (map_w < 1) map_w = 1;
    if (map_h < 1) map_h = 1;
    if (tile_px < 1) tile_px = 1;
    for (int s = MAX_FIRST_SCALE; s >= 1; s--) {
        long mw = (long)map_w * tile_px * s, mh = (long)map_h * tile_px * s;
        if (mw > maxw || mh > maxh) continue;
        long ww = mw < MIN_WIN_W ? MIN_WIN_W : mw, wh = mh;
        for (;;) { /* the bars grow with the window: until the map and the bars fit */
            int top = 0, bottom = 0;
            bars_of((int)ww, (int)wh, &top, &bottom);
            if (mh + top + bottom <= wh) break;
            wh = mh + top + bottom;
        }
        if (wh < MIN_WIN_H) wh = MIN_WIN_H;
        if (ww <= maxw && wh <= maxh) {
            *w = (int)ww;
            *h = (int)wh;
            return;
        }
    }
    /* Too large at scale 1: as much of it as 9/10 of the display holds (the camera follows). */
    long mw = (long)map_w * tile_px, mh = (long)map_h * tile_px;
    long ww = mw < MIN_WIN_W ? MIN_WIN_W : mw > maxw ? maxw : mw;
    int top = 0, bottom = 0;
    bars_of((int)ww, (int)(mh < maxh ? mh : maxh), &top, &bottom);
    long wh = mh + top + bottom;
    wh = wh < MIN_WIN_H ? MIN_WIN_H : wh > maxh ? maxh : wh;
    *w = (int)(ww > maxw && maxw >= 1 ? maxw : ww);
    *h = (int)wh;
}

/* The hearing overlay: each noise (and shout: a call travels as any noise) flooded again with
 * the guards' own flood, as it spread when it was made (a reload brings a new map: a new
 * flood object). */
static void draw_hearing(play_frame *f, pt_render *r, const pt_map *map, const pt_view *v, const pt_noise_mark *marks,
                         int n) {
    if (f->hearing_map != map) {
        pt_hearing_destroy(f->hearing);
        f->hearing = pt_hearing_create(map);
        f->hearing_map = f->hearing ? map : NULL;
    }
    if (!f->hearing) return;
    for (int i = 0; i < n; i++) {
        if (!(marks[i].age < PT_NOISE_RING_S)) continue;
        if (pt_hearing_flood(f->hearing, marks[i].x, marks[i].y, marks[i].loudness) <= 0) continue;
        const pt_hearing_cell *cells;
        int nc = pt_hearing_cells(f->hearing, &cells);
        pt_render_hearing(r, map, v, cells, nc, marks[i].loudness, marks[i].age);
    }
}

/* The stones thrown: in the air along an arc from the thrower to where each lands, then the
 * landing mark there (the session's flights; alpha: the fraction of a tick since the last). */
static void draw_flights(const play_session *s, pt_render *r, const pt_map *map, const pt_view *v, double alpha) {
    double dt = pt_world_dt(s->world);
    for (int i = 0; i < s->nflights; i++) {
        const play_flight *fl = &s->flights[i];
        double age = ((double)(s->ticks - fl->tick) + alpha) * dt, x1 = fl->x1 + 0.5, y1 = fl->y1 + 0.5;
        double dist = hypot(x1 - fl->x0, y1 - fl->y0), fly = PLAY_FLIGHT_S(dist);
        if (age < fly) {
            double k = age / fly, top = 0.3 + 0.1 * dist; /* the arc's height, in tiles */
            pt_render_stone(r, map, v, fl->x0 + (x1 - fl->x0) * k, fl->y0 + (y1 - fl->y0) * k, 4.0 * top * k * (1.0 - k));
        } else {
            pt_render_landing(r, map, v, fl->x1, fl->y1, age - fly);
        }
    }
}

/* The exit pointer's colour `ticks` into the round: it pulses from gold to a pale gold and
 * back about every 0.9 s, opaque (fading it out read as a faint olive on grass). */
static uint32_t exit_pointer_rgba(uint64_t ticks) {
    double k = 0.5 + 0.5 * sin((double)ticks * 0.12);
    uint32_t r = 0xf2 + (uint32_t)lround((0xff - 0xf2) * k), g = 0xbe + (uint32_t)lround((0xec - 0xbe) * k),
             b = 0x3c + (uint32_t)lround((0xa0 - 0x3c) * k);
    return r << 24 | g << 16 | b << 8 | 0xffu;
}

/* 1 when map position (x, y) shows in the view's rectangle. */
static int in_view(const pt_map *map, const pt_view *v, double x, double y) {
    double px, py;
    pt_view_to_px(map, v, x, y, &px, &py);
    return px >= v->x && py >= v->y && px < v->x + v->w && py < v->y + v->h;
}

/* The view with its top edge moved down to `below` and its bottom edge up to `above`
 * (rounded to whole sprite pixels), the map where it was: the edge markers drawn in it stay
 * clear of the HUD's messages. A window too short for that keeps the view. */
static pt_view markers_view(const pt_map *map, const pt_view *v, int below, int above) {
    pt_view m = *v;
    long mw = 0;
    pt_view_map_size(map, 1, &mw, NULL);
    int sc = v->scale > 0 ? v->scale : 1, d = below - v->y, t = map->w > 0 ? (int)(mw / map->w) : 0;
    int e = v->y + v->h - above;
    if (t <= 0) return m;
    d = d > 0 ? (d + sc - 1) / sc * sc : 0;
    e = e > 0 ? (e + sc - 1) / sc * sc : 0;
    if (v->h - d - e < v->h / 2) return m;
    m.y += d;
    m.h -= d + e;
    m.cam_y += (double)(d / sc) / t;
    return m;
}

/* The opening hint names the gold arrow: with the exit in view there is none, and that part
 * is left out. */
static const char arrow_part[] = " - follow the gold arrow";

static const char *msg_text(const char *text, int pointer, char *buf, size_t cap) {
    size_t n = strlen(text), k = sizeof arrow_part - 1;
    if (pointer || n < k || strcmp(text + n - k, arrow_part) != 0) return text;
    snprintf(buf, cap, "%.*s", (int)(n - k), text);
    return buf;
}

/* 1 when the messages, as said lays them out, meet the map rectangle (x0,y0)-(x1,y1); rows
 * outside [band0, band1) of the output are not asked about (the messages lie within them). */
static int msgs_cover(const pt_hud *said, const pt_map *map, const pt_view *v, double x0, double y0, double x1,
                      double y1, int band0, int band1, int out_w, int out_h) {
    double ax, ay, bx, by;
    pt_view_to_px(map, v, x0, y0, &ax, &ay);
    pt_view_to_px(map, v, x1, y1, &bx, &by);
    if (by <= band0 || ay >= band1) return 0;
    return pt_hud_msgs_cover(said, 0, 0, out_w, out_h, (int)floor(ax), (int)floor(ay), (int)ceil(bx - ax),
                             (int)ceil(by - ay));
}

/* The messages low (above the key bar) when under the top bar they would hide more of what
 * matters - the exit's tile, the player - than there; when both places hide as much of those,
 * the one that hides fewer guards. */
static int msgs_low(pt_hud *said, const pt_map *map, const pt_view *v, int gx, int gy, int has_goal,
                    const pt_actor *actors, int n, int out_w, int out_h) {
    const pt_actor *player = &actors[0];
    double rect[2][4] = {{player->x - 0.5, player->y - 0.5, player->x + 0.5, player->y + 0.5},
                         {gx, gy, gx + 1.0, gy + 1.0}};
    int hidden[2] = {0, 0}, guards[2] = {0, 0};
    for (int low = 0; low < 2; low++) {
        said->msgs_low = low;
        int band0 = low ? pt_hud_msgs_top(said, 0, 0, out_w, out_h) : 0;
        int band1 = low ? out_h : pt_hud_msgs_bottom(said, 0, 0, out_w, out_h);
        for (int k = 0; k < 1 + has_goal; k++)
            hidden[low] += msgs_cover(said, map, v, rect[k][0], rect[k][1], rect[k][2], rect[k][3], band0, band1, out_w,
                                      out_h);
        for (int i = 1; i < n; i++)
            if (actors[i].kind == PT_KIND_GUARD)
                guards[low] += msgs_cover(said, map, v, actors[i].x - 0.5, actors[i].y - 0.5, actors[i].x + 0.5,
                                          actors[i].y + 0.5, band0, band1, out_w, out_h);
    }
    said->msgs_low = hidden[1] < hidden[0] || (hidden[1] == hidden[0] && guards[1] < guards[0]);
    return said->msgs_low;
}

int play_draw_frame(const play_session *s, pt_render *r, play_frame *f, int out_w, int out_h) {
    const pt_world *w = s->world;
    const pt_map *map = pt_world_map(w);
    int n = pt_world_count(w);
    if (!grow((void **)&f->actors, &f->actors_cap, n > 0 ? n : 1, sizeof *f->actors)) return PT_ERR_NOMEM;
    int round = s->round;
    pt_render_actors_from_world(w, round ? 0.0 : f->alpha, f->actors, n);
    if (f->overlays & PT_OVERLAY_PATTERNS) {
        int need = pt_render_patterns_from_world(w, f->actors, n, f->cells, f->cells_cap);
        if (need > f->cells_cap && grow((void **)&f->cells, &f->cells_cap, need, sizeof *f->cells))
            pt_render_patterns_from_world(w, f->actors, n, f->cells, f->cells_cap);
    }
    play_catch_actors(s, f->actors, n); /* a catch: the catcher walks up, then the grab */
    double since = play_since_end(s), catch_t;
    play_catch_stage catch_at = play_catch_at(s, &catch_t);

    pt_view v = {.overlays = f->overlays, .time = (double)s->ticks * pt_world_dt(w)};
    int ts = f->hud_scale > 0 ? f->hud_scale : pt_hud_scale(out_w, out_h), top = 0, bottom = 0;
    if (f->hud) pt_hud_bars(ts, &top, &bottom);
    if (f->follow) {
        /* The map between the HUD's bars, so nothing walks under them: whole when it fits. */
        long tpx = 0;
        pt_view_map_size(map, 1, &tpx, NULL);
        play_layout L = play_layout_for(map->w, map->h, map->w > 0 ? (int)(tpx / map->w) : 1, out_w, out_h, top,
                                        bottom);
        v.x = L.view_x;
        v.y = L.view_y;
        v.w = L.view_w;
        v.h = L.view_h;
        v.scale = f->scale > 0 ? f->scale : L.scale;
        if (L.follow || f->scale > 0) {
            pt_view_follow(&v, map, f->actors[0].x, f->actors[0].y);
        } else {
            v.cam_x = L.cam_x;
            v.cam_y = L.cam_y;
        }
        if (catch_at == PLAY_CATCH_GRAB) {
            double dx, dy;
            shake(catch_t, (int)s->ticks, &dx, &dy);
            v.cam_x += dx;
            v.cam_y += dy;
        }
    } else {
        v.scale = f->scale > 0 ? f->scale : 1;
        v.y = top;
        v.w = out_w;
        v.h = out_h - top - bottom;
        if (v.h < 1) v.h = 1;
    }
    pt_scene scene = {.map = map, .actors = f->actors, .nactors = n};
    v.overlays &= ~PT_OVERLAY_LABELS; /* drawn last, over the hearing and search tints */
    pt_render_set_light(r, w); /* darkness, pools, lanterns and lights under the actors */
    int rc = pt_render_draw(r, &scene, &v);
    pt_render_set_light(r, NULL);
    v.overlays = f->overlays;
    long map_pw = 0, map_ph = 0;
    pt_view_map_size(map, v.scale > 0 ? v.scale : 1, &map_pw, &map_ph);
    f->pick_x = v.x;
    f->pick_y = v.y;
    f->pick_cam_x = v.cam_x;
    f->pick_cam_y = v.cam_y;
    f->pick_unit = map->w > 0 ? (double)map_pw / map->w : 0.0;
    pt_noise_mark marks[PLAY_NOISES], shouts[PLAY_NOISES], rings[PLAY_NOISES];
    int nmarks = 0, nshouts = 0, nrings = 0;
    for (int i = 0; i < s->nnoises; i++) {
        const pt_noise *nz = &s->noises[i];
        double age = ((double)(pt_world_tick(w) - nz->tick) + (round ? 0.0 : f->alpha)) * pt_world_dt(w);
        pt_noise_mark mk = {nz->x, nz->y, nz->loudness, age};
        if (nz->kind == PT_NOISE_SHOUT) shouts[nshouts++] = mk;
        else marks[nmarks++] = mk;
        if (nz->kind != PT_NOISE_SHOUT && nz->kind != PT_NOISE_GAME) /* a stone's is its landing mark */
            rings[nrings++] = mk;
    }
    pt_search_info si;
    if ((f->overlays & PT_OVERLAY_SEARCH) && pt_world_search(w, &si))
        pt_render_search(r, map, &v, si.cells, si.searched, si.ncells, si.origin);
    if (f->overlays & PT_OVERLAY_HEARING) {
        draw_hearing(f, r, map, &v, marks, nmarks);
        draw_hearing(f, r, map, &v, shouts, nshouts);
    }
    pt_render_noise_rings(r, map, &v, rings, nrings);
    draw_flights(s, r, map, &v, round ? 0.0 : f->alpha);
    if (catch_at == PLAY_CATCH_GRAB) pt_render_caught(r, map, &v, &f->actors[0], catch_t);
    pt_render_shout_rings(r, map, &v, shouts, nshouts);
    if (f->overlays & PT_OVERLAY_LABELS) pt_render_labels(r, &scene, &v);

    int gx = 0, gy = 0, has_goal = play_nearest_goal(s, &gx, &gy);
    int pointer = has_goal && round == 0 && !in_view(map, &v, gx + 0.5, gy + 0.5);
    pt_hud_msg msgs[PLAY_MSGS];
    char msg_buf[PLAY_MSGS][sizeof s->msgs[0].text];
    for (int i = 0; i < s->nmsgs; i++) {
        const play_msg *m = &s->msgs[i];
        double fade = m->ticks < 40 ? m->ticks / 40.0 : 1.0;
        msgs[i].text = msg_text(m->text, pointer, msg_buf[i], sizeof msg_buf[i]);
        msgs[i].rgba = (m->rgba & 0xffffff00u) | (uint32_t)lround((m->rgba & 0xffu) * fade);
    }
    pt_hud said = {.scale = ts, .msgs = msgs, .nmsgs = s->nmsgs};
    int low = f->hud && msgs_low(&said, map, &v, gx, gy, has_goal, f->actors, n, out_w, out_h);
    if (f->hud && round == 0) {
        /* Off screen: the exit (a gold pointer) and the guards (arrows), at the view's edges
         * and clear of the messages. */
        pt_view vm = markers_view(map, &v, pt_hud_msgs_bottom(&said, 0, 0, out_w, out_h),
                                  pt_hud_msgs_top(&said, 0, 0, out_w, out_h));
        if (pointer) pt_draw_pointer(r, map, &vm, gx + 0.5, gy + 0.5, 2 * ts, exit_pointer_rgba(s->ticks));
        pt_actor out[64];
        for (int i = 0, k = 0; i < n; i++) {
            if (f->actors[i].kind == PT_KIND_GUARD && !in_view(map, &v, f->actors[i].x, f->actors[i].y))
                out[k++] = f->actors[i];
            if (k > 0 && (k == (int)(sizeof out / sizeof out[0]) || i == n - 1)) {
                pt_render_offscreen_guards(r, map, &vm, out, k, ts);
                k = 0;
            }
        }
    }
    if (!f->hud) return rc;

    char status[192], clock[64], text[320], title[96];
    play_fmt_clock(clock, sizeof clock, play_clock(s));
    pt_gait gait = pt_world_gait(s->world);
    const char *gname = gait == PT_GAIT_WALK ? "" : (gait == PT_GAIT_RUN ? "RUN  " : "SNEAK  ");
    char what[48] = "";
    if (s->replay && f->tick_entry && f->tick_entry[0])
        snprintf(what, sizeof what, "GO TO TICK %s_  ", f->tick_entry);
    else if (s->replay)
        snprintf(what, sizeof what, "REPLAY %llu/%llu  ", (unsigned long long)pt_world_tick(s->world),
                 (unsigned long long)s->replay->ticks);
    char stones[32];
    snprintf(stones, sizeof stones, "STONES %d  ", s->stones);
    if (fabs(f->speed - 1.0) > 1e-9) snprintf(status, sizeof status, "%s%s%s%s  x%g", what, stones, gname, clock, f->speed);
    else snprintf(status, sizeof status, "%s%s%s%s", what, stones, gname, clock);
    double phase_left = 0.0;
    pt_phase phase = pt_world_phase(s->world, &phase_left);
    char phase_txt[32] = "";
    if (phase != PT_PHASE_NORMAL) { /* normal says nothing */
        static const char *const words[PT_PHASE_COUNT] = {"", "ALERT", "EVASION", "CAUTION"};
        if (phase_left > 0.0) snprintf(phase_txt, sizeof phase_txt, "%s %.0f", words[phase], ceil(phase_left));
        else snprintf(phase_txt, sizeof phase_txt, "%s", words[phase]);
    }
    pt_hud hud = {
        .scale = ts,
        .title = s->level->map.name[0] ? s->level->map.name : NULL,
        .objective = play_objective(s),
        .status = status,
        .alert = round < 0 ? 2 : round > 0 ? 0 : play_alert(s),
        .msgs = msgs,
        .nmsgs = s->nmsgs,
        .keys = keys_hint_for(s, f),
        .notice = f->paused && !round ? "PAUSED   P: resume   N: one tick" : NULL,
        .help = f->help ? help_text_for(s) : NULL,
        .help_page = f->help_page,
        .error = f->error,
        .phase = phase_txt,
        .phase_kind = (int)phase,
        .perf = f->perf,
        .hidden = round == 0 && pt_world_player_hidden(s->world),
        .msgs_low = low,
    };
    if (round > 0 || catch_at == PLAY_CATCH_DONE) {
        hud.banner = round;
        hud.banner_t = round > 0 ? since : catch_t;
        if (round > 0) {
            hud.banner_title = "YOU ESCAPED!";
            if (s->spotted == 0) snprintf(title, sizeof title, "never spotted - a ghost!");
            else snprintf(title, sizeof title, "spotted %d time%s", s->spotted, s->spotted == 1 ? "" : "s");
            char timeline[160];
            if (f->best && f->best[0]) snprintf(timeline, sizeof timeline, "%s", f->best);
            else snprintf(timeline, sizeof timeline, "time %s", clock);
            snprintf(text, sizeof text, "%s\n%s\n\n%s", timeline, title,
                     s->replay         ? "Home: watch again   Esc: quit"
                     : f->from_levels ? "Enter: go on   R: play again   Esc: levels"
                                      : "R: play again   Esc: quit");
        } else {
            hud.banner_title = "CAUGHT!";
            snprintf(title, sizeof title, "by %s", s->caught_by[0] ? s->caught_by : "a guard");
            if (s->replay) snprintf(text, sizeof text, "%s after %s\n\nHome: watch again   Esc: quit", title, clock);
            else snprintf(text, sizeof text, "%s after %s\n\nR: try again   Esc: %s", title, clock,
                          f->from_levels ? "levels" : "quit");
        }
        hud.banner_text = text;
    }
    if (catch_at == PLAY_CATCH_GRAB) hud.flash = catch_t < 0.35 ? 0.7 * (1.0 - catch_t / 0.35) : 0.0;
    pt_render_hud(r, &hud, 0, 0, out_w, out_h);
    if (play_lit(s) && round == 0 && !f->help) { /* the visibility gem, under the top bar's right end */
        int size = 12 * ts;
        pt_render_light_gem(r, out_w - size, top + size * 3 / 4, size, pt_world_visibility(s->world));
    }
    return rc;
}

int play_draw_behind_menu(const play_session *s, pt_render *r, play_frame *f, int out_w, int out_h) {
    unsigned overlays = f->overlays;
    int hud = f->hud;
    f->overlays &= PT_OVERLAY_CONES; /* the cones are the game's; the rest is for debugging it */
    f->hud = 0;
    int rc = play_draw_frame(s, r, f, out_w, out_h);
    f->overlays = overlays;
    f->hud = hud;
    return rc;
}
