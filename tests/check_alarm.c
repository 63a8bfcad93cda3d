/* SPDX-License-Identifier: Zlib */
/* Guards that warn each other (docs/ai.md, "Calls"): who a call reaches (the shout through
 * the grid, the radio), what the guards told do, determinism and invariants, over generated
 * maps and many seeds. The expected set of guards told is worked out here from the hearing
 * flood and the radio names, independently of the world's bookkeeping. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/hearing.h>
#include <patrol/los.h>
#include <patrol/map.h>
#include <patrol/world.h>

#include "guards/tuning.h"
#include "test_util.h"

enum { W = 40, H = 26, NG = 14 };

typedef struct scene {
    pt_map map;
    int px, py;                 /* the player, standing still */
    double shout[NG + 1], hearing[NG + 1];
    char radio[NG + 1][8];
} scene;

/* A walled map with wall segments and doors, the player, a caller two tiles west of it
 * facing it, and NG - 1 guards facing away from the player, with a cone of others_fov
 * degrees (1: they cannot see), random hearing and radio channels. header goes first. */
static void make_scene_with(scene *s, uint64_t seed, const char *header, const char *others_fov) {
    pt_rng r;
    pt_rng_seed(&r, seed, 31);
    char grid[H][W + 1];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) grid[y][x] = x == 0 || y == 0 || x == W - 1 || y == H - 1 ? '#' : '.';
        grid[y][W] = '\0';
    }
    for (int k = 0; k < 10; k++) { /* walls of rooms, each with a door or a gap */
        int vertical = (int)pt_rng_below(&r, 2);
        int len = 4 + (int)pt_rng_below(&r, 12);
        int x = 1 + (int)pt_rng_below(&r, W - 2), y = 1 + (int)pt_rng_below(&r, H - 2);
        int door = (int)pt_rng_below(&r, (uint32_t)len);
        for (int i = 0; i < len; i++) {
            int cx = vertical ? x : x + i, cy = vertical ? y + i : y;
            if (cx <= 0 || cy <= 0 || cx >= W - 1 || cy >= H - 1) break;
            grid[cy][cx] = i == door ? (k % 2 ? '+' : '.') : '#';
        }
    }
    s->px = 6 + (int)pt_rng_below(&r, W - 12);
    s->py = 3 + (int)pt_rng_below(&r, H - 6);
    for (int dx = -2; dx <= 0; dx++) grid[s->py][s->px + dx] = '.';
    static const double shouts[] = {6, 12, 20}, hearings[] = {0.5, 1, 2, 4};
    static const char *const radios[] = {"", "blue", "red"};
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "%splayer at=%d,%d\n", header, s->px, s->py);
    int placed = 0;
    for (int g = 1; g <= NG; g++) {
        int gx = s->px - 2, gy = s->py;
        double heading = 0;
        s->hearing[g] = hearings[pt_rng_below(&r, 4)];
        s->shout[g] = shouts[pt_rng_below(&r, 3)];
        snprintf(s->radio[g], sizeof s->radio[g], "%s", radios[pt_rng_below(&r, 3)]);
        if (g > 1) {
            do {
                gx = 1 + (int)pt_rng_below(&r, W - 2);
                gy = 1 + (int)pt_rng_below(&r, H - 2);
            } while (grid[gy][gx] != '.' || abs(gx - s->px) + abs(gy - s->py) < 4 ||
                     (gy == s->py && gx >= s->px - 2 && gx <= s->px));
            heading = atan2(gy - s->py, gx - s->px) * 180.0 / PT_PI;
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "guard g%d at=%d,%d heading=%.3f fov=%s hearing=%g shout=%g%s%s\n", g, gx,
                              gy, heading, g > 1 ? others_fov : "90", s->hearing[g], s->shout[g], s->radio[g][0] ? " radio=" : "",
                              s->radio[g]);
        placed++;
    }
    ck_assert_int_eq(placed, NG);
    n += (size_t)snprintf(text + n, sizeof text - n, "grid\n");
    for (int y = 0; y < H; y++) n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", grid[y]);
    n += (size_t)snprintf(text + n, sizeof text - n, "end\n");
    ck_assert(n < sizeof text);
    pt_error err;
    ck_assert_msg(pt_map_parse(&s->map, text, n, "calls.map", &err) == PT_OK, "%s", err.message);
}

static void make_scene(scene *s, uint64_t seed) { make_scene_with(s, seed, "", "1"); }

static pt_world *scene_world_with(const scene *s, uint64_t seed, const pt_phase_timing *phases) {
    pt_world_desc d = {.seed = seed, .player_controlled = 1};
    if (phases) d.phases = *phases;
    pt_error err;
    pt_world *w = pt_world_create(&s->map, NULL, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

static pt_world *scene_world(const scene *s, uint64_t seed) { return scene_world_with(s, seed, NULL); }

/* The first call reaches exactly the guards whose level of the caller's shout is above their
 * hearing, or that share its radio; they go to the last known position alert, the others stay. */
START_TEST(test_call_reaches) {
    int told_total = 0, by_radio_only = 0, by_shout_only = 0, untold_total = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        scene s;
        make_scene(&s, seed);
        pt_world *w = scene_world(&s, seed);
        int called_tick = -1, spotted = 0;
        int got[NG + 1] = {0};
        for (int t = 0; t < 600 && called_tick < 0; t++) {
            pt_world_step(w);
            int ne;
            const pt_event *ev = pt_world_events(w, &ne);
            for (int k = 0; k < ne; k++) {
                if (ev[k].kind == PT_EVENT_SPOTTED) {
                    ck_assert_uint_eq(ev[k].a, 1); /* only the caller sees */
                    spotted++;
                }
                if (ev[k].kind != PT_EVENT_CALLED) continue;
                ck_assert_uint_eq(ev[k].a, 1);
                ck_assert(ev[k].b >= 2 && ev[k].b <= NG);
                ck_assert_int_eq(got[ev[k].b], 0); /* once each */
                got[ev[k].b] = 1;
                ck_assert_int_eq(ev[k].x, s.px); /* the last known position */
                ck_assert_int_eq(ev[k].y, s.py);
                called_tick = t;
            }
            if (spotted && called_tick < 0) { /* a call nobody hears is possible: stop at the chase */
                called_tick = t;
            }
        }
        ck_assert_msg(spotted == 1, "seed %llu: the caller never gave chase", (unsigned long long)seed);
        pt_hearing *h = pt_hearing_create(&s.map);
        ck_assert(h != NULL);
        const pt_entity *c = pt_world_entity(w, 1);
        ck_assert_int_eq(c->state, PT_STATE_CHASE);
        pt_hearing_flood(h, c->x, c->y, s.shout[1]);
        for (int g = 2; g <= NG; g++) {
            const pt_entity *e = pt_world_entity(w, g);
            int shout = pt_hearing_level(h, e->x, e->y) > s.hearing[g];
            int radio = s.radio[1][0] && strcmp(s.radio[1], s.radio[g]) == 0;
            ck_assert_msg(got[g] == (shout || radio), "seed %llu: g%d told %d, shout %d (level %.1f, hearing %.1f) radio %d",
                          (unsigned long long)seed, g, got[g], shout, pt_hearing_level(h, e->x, e->y), s.hearing[g], radio);
            if (got[g]) {
                ck_assert_int_eq(e->state, PT_STATE_INVESTIGATE);
                ck_assert(e->awareness >= e->suspicious_at);
                told_total++;
                by_radio_only += radio && !shout;
                by_shout_only += shout && !radio;
            } else {
                ck_assert_int_eq(e->state, PT_STATE_IDLE);
                untold_total++;
            }
        }
        pt_hearing_destroy(h);
        pt_world_destroy(w);
        pt_map_fini(&s.map);
    }
    /* The seeds exercise every case. */
    ck_assert_int_gt(told_total, 0);
    ck_assert_int_gt(untold_total, 0);
    ck_assert_int_gt(by_radio_only, 0);
    ck_assert_int_gt(by_shout_only, 0);
}
END_TEST

/* Around a wall: a guard 3 tiles away behind a wall hears by the way round (the documented
 * loss: 1 a straight step, 1.4 a diagonal), not through it. The detour is counted here. */
START_TEST(test_call_goes_around) {
    /* Wall row y=4 from x=1 to x=13, a gap at x=14: the way from (1,2) to (3,6) goes east to
     * the gap and back. */
    const char *rows =
        "################\n"
        "#..............#\n"
        "#..............#\n"
        "#..............#\n"
        "#############..#\n"
        "#..............#\n"
        "#..............#\n"
        "################\n";
    char text[1024];
    pt_error err;
    int heard = 0, unheard = 0;
    for (double shout = 12.0; shout <= 32.0; shout += 0.5) {
        int n = snprintf(text, sizeof text,
                         "player at=3,2\nguard c at=1,2 heading=0 shout=%.1f\nguard g at=3,6 heading=90 fov=1\ngrid\n%send\n",
                         shout, rows);
        pt_map m;
        ck_assert_msg(pt_map_parse(&m, text, (size_t)n, "around.map", &err) == PT_OK, "%s", err.message);
        pt_world_desc d = {.seed = 1, .player_controlled = 1};
        pt_world *w = pt_world_create(&m, NULL, &d, &err);
        ck_assert(w != NULL);
        int told = 0, chased = 0;
        for (int t = 0; t < 300 && !chased; t++) {
            pt_world_step(w);
            int ne;
            const pt_event *ev = pt_world_events(w, &ne);
            for (int k = 0; k < ne; k++) {
                chased |= ev[k].kind == PT_EVENT_SPOTTED;
                told += ev[k].kind == PT_EVENT_CALLED;
            }
        }
        ck_assert(chased);
        /* The shout leaves from where the caller stands once the step is over. */
        const pt_entity *c = pt_world_entity(w, 1);
        pt_hearing *h = pt_hearing_create(&m);
        pt_hearing_flood(h, c->x, c->y, 100.0);
        double level = shout - (100.0 - pt_hearing_level(h, 3, 6));
        int straight = abs(c->x - 3) > abs(c->y - 6) ? abs(c->x - 3) : abs(c->y - 6);
        ck_assert(100.0 - pt_hearing_level(h, 3, 6) > straight + 10.0); /* the way round is long */
        ck_assert_msg(told == (level > 1.0 + 1e-9), "shout %.1f: told %d, level %.2f", shout, told, level);
        heard += told;
        unheard += !told;
        pt_hearing_destroy(h);
        pt_world_destroy(w);
        pt_map_fini(&m);
    }
    ck_assert_int_gt(heard, 0);
    ck_assert_int_gt(unheard, 0);
}
END_TEST

static char *run_trace(const scene *s, uint64_t seed, int ticks, long *calls) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(f != NULL);
    pt_world *w = scene_world(s, seed);
    pt_world_trace_header(f);
    *calls = 0;
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);
        pt_world_trace_rows(w, f);
        int ne;
        const pt_event *ev = pt_world_events(w, &ne);
        for (int k = 0; k < ne; k++) {
            if (ev[k].kind == PT_EVENT_CALLED) {
                (*calls)++;
                fprintf(f, "called %u %u %d %d\n", ev[k].a, ev[k].b, ev[k].x, ev[k].y);
            }
        }
        for (int i = 0; i < pt_world_count(w); i++) {
            const pt_entity *e = pt_world_entity(w, i);
            ck_assert(pt_map_walkable(&s->map, e->x, e->y));
            ck_assert(isfinite(e->px) && isfinite(e->py) && isfinite(e->heading) && isfinite(e->awareness));
        }
    }
    pt_world_destroy(w);
    fclose(f);
    return buf;
}

/* Same map and seed, same trace and calls; nobody on a wall, no NaN, with the player walking
 * about among alerted guards. */
START_TEST(test_deterministic) {
    long all = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        scene s;
        make_scene(&s, seed);
        long c1, c2;
        char *a = run_trace(&s, seed, 900, &c1);
        char *b = run_trace(&s, seed, 900, &c2);
        ck_assert_int_eq(c1, c2);
        ck_assert_msg(strcmp(a, b) == 0, "seed %llu: two runs differ", (unsigned long long)seed);
        all += c1;
        free(a);
        free(b);
        pt_map_fini(&s.map);
    }
    ck_assert_int_gt(all, 0);
}
END_TEST

/* The phases over long runs with the player walking about: alert exactly while a guard
 * chases, one event per change naming the old and new phase, only the documented moves,
 * evasion and caution lasting their configured time unless a chase cuts them short, and the
 * seconds left counting down by a tick. A third of the seeds keep the documented defaults, a
 * third set random timers and cone factor in the map's header, a third in the world's desc
 * over a map that sets others. */
START_TEST(test_phases) {
    int full[PT_PHASE_COUNT] = {0}, full_set = 0, cut = 0, wider = 0, other_cone = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        pt_rng r;
        pt_rng_seed(&r, seed, 4);
        /* The timing this run must follow: whole ticks, and odd ones too. */
        pt_phase_timing want = {EVASION_S, CAUTION_S, CAUTION_AWARE, CAUTION_FOV}, desc = {0, 0, 0, 0};
        const pt_phase_timing other = {99.0, 98.0, 9.0, 8.0};
        char header[160] = "";
        if (seed % 3 != 0) {
            want.evasion = 1.0 + pt_rng_below(&r, 1200) / 60.0;
            want.caution = 1.0 + pt_rng_below(&r, 2400) / 60.0 + 0.004;
            want.caution_aware = 1.0 + pt_rng_below(&r, 4);
            want.caution_fov = 1.0 + pt_rng_below(&r, 30) / 10.0;
            const pt_phase_timing *in_map = &want;
            if (seed % 3 == 2) { /* the desc's override the map's, every field */
                desc = want;
                in_map = &other;
            }
            snprintf(header, sizeof header, "evasion %.17g\ncaution %.17g\ncaution_aware %.17g\ncaution_fov %.17g\n",
                     in_map->evasion, in_map->caution, in_map->caution_aware, in_map->caution_fov);
        }
        scene s;
        make_scene_with(&s, seed, header, "40"); /* the others see a little: caution's cone counts */
        pt_world *w = scene_world_with(&s, seed, &desc);
        const pt_phase_timing *got = pt_world_phase_timing(w);
        ck_assert(got->evasion == want.evasion && got->caution == want.caution &&
                  got->caution_aware == want.caution_aware && got->caution_fov == want.caution_fov);
        const double dt = pt_world_dt(w);
        const long evasion = lround(want.evasion / dt), caution = lround(want.caution / dt);
        double left = -1.0;
        pt_phase phase = pt_world_phase(w, &left);
        ck_assert_int_eq(phase, PT_PHASE_NORMAL);
        ck_assert(left == 0.0);
        long since = 0;
        for (int t = 0; t < 9000; t++) {
            /* Bursts of walking and long still spells, so chases end and countdowns run out. */
            if (t % 60 == 0) {
                int still = pt_rng_below(&r, 4) != 0;
                pt_world_set_input(w, still ? 0 : (int)pt_rng_below(&r, 3) - 1, still ? 0 : (int)pt_rng_below(&r, 3) - 1);
            }
            double before = left;
            /* What each guard sees this step is judged from where it stands before moving,
             * with the cone of the phase it starts the step in (caution widens it). */
            double gx[NG + 1], gy[NG + 1], gh[NG + 1];
            int gcx[NG + 1], gcy[NG + 1];
            for (int g = 1; g <= NG; g++) {
                const pt_entity *e = pt_world_entity(w, g);
                gx[g] = e->px, gy[g] = e->py, gh[g] = e->heading, gcx[g] = e->x, gcy[g] = e->y;
            }
            const pt_phase seen_in = phase;
            pt_world_step(w);
            const pt_entity *pl = pt_world_entity(w, 0);
            for (int g = 1; g <= NG; g++) {
                const pt_entity *e = pt_world_entity(w, g);
                double cone = e->view_angle * (seen_in == PT_PHASE_CAUTION ? want.caution_fov : 1.0);
                if (cone > 2 * PT_PI) cone = 2 * PT_PI;
                int sees = pt_can_see(&s.map, gx[g], gy[g], gh[g], e->view_dist, cone, pl->px, pl->py);
                double d = hypot(pl->px - gx[g], pl->py - gy[g]);
                sees |= d <= PERIPHERAL_DIST && !pt_map_opaque(&s.map, pl->x, pl->y) &&
                        pt_los_clear(&s.map, gcx[g], gcy[g], pl->x, pl->y);
                ck_assert_int_eq(e->sees_player, sees);
                if (seen_in == PT_PHASE_CAUTION && sees &&
                    !pt_can_see(&s.map, gx[g], gy[g], gh[g], e->view_dist, e->view_angle, pl->px, pl->py) &&
                    d > PERIPHERAL_DIST)
                    wider++; /* seen only thanks to caution */
                if (seen_in == PT_PHASE_CAUTION && want.caution_fov != CAUTION_FOV &&
                    sees != pt_can_see(&s.map, gx[g], gy[g], gh[g], e->view_dist, fmin(e->view_angle * CAUTION_FOV, 2 * PT_PI),
                                       pl->px, pl->py) && d > PERIPHERAL_DIST)
                    other_cone++; /* the configured cone, not the default one, decided */
            }
            since++;
            pt_phase now = pt_world_phase(w, &left);
            int chasing = 0;
            for (int i = 1; i < pt_world_count(w); i++) chasing |= pt_world_entity(w, i)->state == PT_STATE_CHASE;
            ck_assert_int_eq(chasing, now == PT_PHASE_ALERT);
            int ne, changes = 0;
            const pt_event *ev = pt_world_events(w, &ne);
            for (int k = 0; k < ne; k++) {
                if (ev[k].kind != PT_EVENT_PHASE) continue;
                changes++;
                ck_assert_uint_eq(ev[k].a, now);
                ck_assert_uint_eq(ev[k].b, phase);
            }
            ck_assert_int_eq(changes, now != phase);
            if (now == phase) {
                if (now == PT_PHASE_EVASION || now == PT_PHASE_CAUTION) ck_assert(fabs(before - left - dt) < 1e-9);
                else ck_assert(left == 0.0);
                continue;
            }
            switch (now) {
            case PT_PHASE_ALERT:
                if (phase == PT_PHASE_EVASION || phase == PT_PHASE_CAUTION) {
                    ck_assert_int_lt(since, phase == PT_PHASE_EVASION ? evasion : caution);
                    cut++;
                }
                break;
            case PT_PHASE_EVASION: ck_assert_int_eq(phase, PT_PHASE_ALERT); break;
            case PT_PHASE_CAUTION:
                ck_assert_int_eq(phase, PT_PHASE_EVASION);
                ck_assert_int_eq(since, evasion);
                full[PT_PHASE_EVASION]++;
                break;
            case PT_PHASE_NORMAL:
                ck_assert_int_eq(phase, PT_PHASE_CAUTION);
                ck_assert_int_eq(since, caution);
                full[PT_PHASE_CAUTION]++;
                full_set += seed % 3 != 0;
                break;
            case PT_PHASE_COUNT: ck_abort();
            }
            if (now == PT_PHASE_EVASION) ck_assert(fabs(left - evasion * dt) < 1e-9);
            if (now == PT_PHASE_CAUTION) ck_assert(fabs(left - caution * dt) < 1e-9);
            phase = now;
            since = 0;
        }
        pt_world_destroy(w);
        pt_map_fini(&s.map);
    }
    ck_assert_int_gt(full[PT_PHASE_EVASION], 0);
    ck_assert_int_gt(full[PT_PHASE_CAUTION], 0);
    ck_assert_int_gt(full_set, 0);
    ck_assert_int_gt(other_cone, 0);
    ck_assert_int_gt(cut, 0);
    ck_assert_int_gt(wider, 0);
    ck_assert_str_eq(pt_phase_name(PT_PHASE_EVASION), "evasion");
    ck_assert_str_eq(pt_phase_name(PT_PHASE_COUNT), "unknown");
}
END_TEST

/* The keys: defaults and what the parser keeps. */
START_TEST(test_keys) {
    static const char text[] = "player at=1,1\nguard a at=2,1 shout=3.5 radio=blue\nguard b at=3,1\ngrid\n#####\n#...#\n#####\nend\n";
    pt_map m;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&m, text, sizeof text - 1, "keys.map", &err), PT_OK);
    ck_assert(m.ents[0].shout == 3.5);
    ck_assert_str_eq(m.ents[0].radio, "blue");
    ck_assert(m.ents[1].shout == 0.0); /* not given: resolved by pt_entity_def_resolve */
    ck_assert_str_eq(m.ents[1].radio, "");
    pt_entity_def d = m.ents[1];
    pt_entity_def_resolve(&d);
    ck_assert(d.shout > 0.0);
    /* the phases' timing: not given is 0, the world resolves it to the defaults */
    ck_assert(m.phases.evasion == 0.0 && m.phases.caution == 0.0 && m.phases.caution_aware == 0.0 &&
              m.phases.caution_fov == 0.0);
    pt_world *w = pt_world_create(&m, NULL, NULL, &err);
    ck_assert_ptr_nonnull(w);
    const pt_phase_timing *t = pt_world_phase_timing(w);
    ck_assert(t->evasion == EVASION_S && t->caution == CAUTION_S && t->caution_aware == CAUTION_AWARE &&
              t->caution_fov == CAUTION_FOV);
    pt_world_destroy(w);
    /* a desc built in code: a value out of range is brought into it, NaN and negatives are
     * the default, a field left at 0 keeps the map's */
    m.phases.caution = 7.5;
    pt_world_desc desc = {.phases = {1e300, 0.0, NAN, 0.25}};
    w = pt_world_create(&m, NULL, &desc, &err);
    ck_assert_ptr_nonnull(w);
    t = pt_world_phase_timing(w);
    ck_assert(t->evasion == PT_PHASE_SECONDS_MAX && t->caution == 7.5 && t->caution_aware == CAUTION_AWARE &&
              t->caution_fov == 1.0);
    pt_world_destroy(w);
    pt_phase_timing r = {-3.0, INFINITY, 11.0, 2.0};
    pt_phase_timing_resolve(&r);
    ck_assert(r.evasion == EVASION_S && r.caution == CAUTION_S && r.caution_aware == PT_PHASE_FACTOR_MAX && r.caution_fov == 2.0);
    pt_map_fini(&m);
}
END_TEST

int main(void) {
    Suite *s = suite_create("alarm");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_call_reaches);
    tcase_add_test(tc, test_call_goes_around);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_phases);
    tcase_add_test(tc, test_keys);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
