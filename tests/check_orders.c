/* SPDX-License-Identifier: Zlib */
/* Orders to a guard (patrol/spawn.h; docs/ai.md, "Orders"): a goto reaches its cell, says so
 * (order-done) and returns to the round; an investigate looks around there; a hold keeps the
 * cell while awareness still rises; resume continues the round; a new pattern is walked; the
 * tuning setters; and the documented meeting of each order with each state. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/spawn.h>
#include <patrol/world.h>

#include "state/world_state.h"
#include "test_util.h"

/* A room, a guard pacing its west part, the player far east behind a wall. */
static const char MAP[] = "player at=28,1 speed=3\n"
                          "guard g at=2,2 pattern=pace view=6 fov=90 speed=3 chase=tile\n"
                          "grid\n"
                          "################################\n"
                          "#.............................##\n"
                          "#.............................##\n"
                          "#.............................##\n"
                          "#.............................##\n"
                          "#.............................##\n"
                          "#.............................##\n"
                          "################################\n"
                          "end\n";
static const char PATS[] = "pattern pace\n  kind control\n  heading 0\n  forward 4\n  right 180\n  forward 4\n  right 180\n  at_end loop\nend\n"
                           "pattern other\n  kind control\n  heading 90\n  forward 3\n  right 180\n  forward 3\n  right 180\n  at_end loop\nend\n";

static pt_map map;
static pt_patlib lib;

static pt_world *make(int controlled) {
    pt_error err;
    ck_assert_msg(pt_map_parse(&map, MAP, strlen(MAP), "o.map", &err) == PT_OK, "%s", err.message);
    pt_patlib_init(&lib);
    ck_assert_msg(pt_patlib_parse(&lib, PATS, strlen(PATS), "o.pat", &err) == PT_OK, "%s", err.message);
    pt_world_desc d = {.seed = 5, .player_controlled = controlled};
    pt_world *w = pt_world_create(&map, &lib, &d, &err);
    ck_assert_msg(w != NULL, "%s", err.message);
    return w;
}

static void done(pt_world *w) {
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
}

static int order_done_at(const pt_world *w, int id, pt_order_kind k, int x, int y) {
    int n;
    const pt_event *ev = pt_world_events(w, &n);
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PT_EVENT_ORDER_DONE && ev[i].a == (uint32_t)id && ev[i].b == (uint32_t)k && ev[i].x == x && ev[i].y == y)
            return 1;
    return 0;
}

START_TEST(goto_then_round) {
    pt_world *w = make(1);
    const pt_entity *g = pt_world_entity(w, 1);
    for (int t = 0; t < 30; t++) pt_world_step(w);
    ck_assert_int_eq(pt_world_order_goto(w, 1, 20, 5), PT_OK);
    ck_assert_int_eq(pt_world_order(w, 1, NULL, NULL), PT_ORDER_GOTO);
    int t_done = -1;
    for (int t = 0; t < 1200 && t_done < 0; t++) {
        pt_world_step(w);
        if (order_done_at(w, 1, PT_ORDER_GOTO, 20, 5)) t_done = t;
    }
    ck_assert_int_ge(t_done, 0);
    ck_assert_int_eq(g->x, 20);
    ck_assert_int_eq(g->y, 5);
    ck_assert_int_eq(g->state, PT_STATE_RETURN);
    ck_assert_int_eq(pt_world_order(w, 1, NULL, NULL), PT_ORDER_NONE);
    int back = 0;
    for (int t = 0; t < 1200 && !back; t++) {
        pt_world_step(w);
        back = g->state == PT_STATE_PATROL && g->x <= 6;
    }
    ck_assert(back);
    ck_assert_int_eq(pt_world_order_goto(w, 1, 0, 0), PT_ERR_NOT_WALKABLE);
    ck_assert_int_eq(pt_world_order_goto(w, 1, 99, 0), PT_ERR_OUT_OF_MAP);
    ck_assert_int_eq(pt_world_order_goto(w, 0, 3, 3), PT_ERR_RANGE);
    done(w);
}
END_TEST

START_TEST(investigate_looks_around) {
    pt_world *w = make(1);
    const pt_entity *g = pt_world_entity(w, 1);
    ck_assert_int_eq(pt_world_order_investigate(w, 1, 12, 4), PT_OK);
    ck_assert_int_eq(g->state, PT_STATE_INVESTIGATE);
    int arrived = -1, t_done = -1;
    double h0 = 0, turned = 0;
    for (int t = 0; t < 2000 && t_done < 0; t++) {
        pt_world_step(w);
        if (arrived < 0 && g->x == 12 && g->y == 4) arrived = t, h0 = g->heading;
        if (arrived >= 0) turned = fmax(turned, fabs(remainder(g->heading - h0, 2 * PT_PI)));
        if (order_done_at(w, 1, PT_ORDER_INVESTIGATE, 12, 4)) t_done = t;
    }
    ck_assert_int_ge(arrived, 0);
    ck_assert_int_gt(t_done, arrived + 60); /* it looked around before it was done */
    ck_assert_double_gt(turned, 1.0);
    ck_assert_int_eq(g->state, PT_STATE_RETURN);
    done(w);
}
END_TEST

/* Held where the player is in view: the cell is kept for N ticks, awareness rises past the
 * chase level, no chase; resume: it returns to its round (and may then chase). */
START_TEST(hold_senses_resume) {
    pt_world *w = make(1);
    const pt_entity *g = pt_world_entity(w, 1);
    const pt_entity *p = pt_world_entity(w, 0);
    ck_assert_int_eq(pt_world_order_hold(w, 1), PT_OK);
    int x = g->x, y = g->y;
    /* the player walks into view, in front of the guard */
    w->ents[0].x = 5; /* placed by the test: in the open room, two cells east */
    for (int t = 0; t < 240; t++) {
        pt_world_set_input(w, p->x > g->x + 3 ? -1 : 0, p->y > g->y ? -1 : (p->y < g->y ? 1 : 0));
        pt_world_step(w);
        ck_assert_int_eq(g->x, x);
        ck_assert_int_eq(g->y, y);
        ck_assert_int_ne(g->state, PT_STATE_CHASE);
    }
    ck_assert_double_ge(g->awareness, g->chase_at);
    ck_assert_int_eq(pt_world_order(w, 1, NULL, NULL), PT_ORDER_HOLD);
    ck_assert_int_eq(pt_world_order_resume(w, 1), PT_OK);
    ck_assert_int_eq(g->state, PT_STATE_RETURN);
    int chased = 0;
    for (int t = 0; t < 60 && !chased; t++) {
        pt_world_step(w);
        chased = g->state == PT_STATE_CHASE;
    }
    ck_assert(chased); /* what it saw while held counts once it is free */
    done(w);
}
END_TEST

/* Resume continues the round; a new pattern is walked from where it stands. */
START_TEST(resume_and_pattern) {
    pt_world *w = make(1);
    const pt_entity *g = pt_world_entity(w, 1);
    ck_assert_int_eq(pt_world_order_goto(w, 1, 25, 6), PT_OK);
    for (int t = 0; t < 60; t++) pt_world_step(w);
    ck_assert_int_eq(pt_world_order_resume(w, 1), PT_OK);
    ck_assert_int_eq(g->state, PT_STATE_RETURN);
    int back = 0;
    for (int t = 0; t < 1200 && !back; t++) {
        pt_world_step(w);
        back = g->state == PT_STATE_PATROL;
    }
    ck_assert(back);
    pt_error err;
    ck_assert_int_eq(pt_world_order_pattern(w, 1, "nope", &err), PT_ERR_UNKNOWN_PATTERN);
    ck_assert_int_eq(pt_world_order_pattern(w, 1, "other", &err), PT_OK);
    int x0 = g->x, miny = g->y, maxy = g->y;
    for (int t = 0; t < 600; t++) {
        pt_world_step(w);
        ck_assert_int_eq(g->x, x0); /* "other" walks north-south */
        if (g->y < miny) miny = g->y;
        if (g->y > maxy) maxy = g->y;
    }
    ck_assert_int_eq(maxy - miny, 3);
    ck_assert_int_eq(pt_world_set_speed(w, 1, 6), PT_OK);
    ck_assert_double_eq(g->speed, 6);
    ck_assert_int_eq(pt_world_set_view(w, 1, 12, 180), PT_OK);
    ck_assert_double_eq(g->view_dist, 12);
    ck_assert_double_eq_tol(g->view_angle, PT_PI, 1e-12);
    ck_assert_int_eq(pt_world_set_hearing(w, 1, 4), PT_OK);
    ck_assert_double_eq(g->hearing, 4);
    ck_assert_int_eq(pt_world_set_speed(w, 1, 99), PT_ERR_RANGE);
    ck_assert_int_eq(pt_world_set_view(w, 1, -1, 400), PT_ERR_RANGE);
    done(w);
}
END_TEST

/* The table of docs/ai.md: in a chase a goto and an investigate wait (the chase goes on), a
 * hold is at once; in suspicious, search, investigate a goto waits, an investigate is at once;
 * in patrol and return both are at once. */
START_TEST(orders_meet_states) {
    static const pt_state states[] = {PT_STATE_PATROL, PT_STATE_SUSPICIOUS, PT_STATE_CHASE, PT_STATE_SEARCH,
                                      PT_STATE_RETURN, PT_STATE_INVESTIGATE};
    for (int s = 0; s < 6; s++) {
        for (int k = PT_ORDER_GOTO; k <= PT_ORDER_HOLD; k++) {
            pt_world *w = make(1);
            pt_entity *g = &w->ents[1];
            g->state = states[s];
            w->brains[1].investigate_at = (pt_cell){g->x, g->y};
            g->last_seen_x = g->x + 0.5;
            g->last_seen_y = g->y + 0.5;
            int rc = k == PT_ORDER_GOTO ? pt_world_order_goto(w, 1, 20, 4)
                     : k == PT_ORDER_INVESTIGATE ? pt_world_order_investigate(w, 1, 20, 4)
                                                 : pt_world_order_hold(w, 1);
            ck_assert_int_eq(rc, PT_OK);
            const int on = w->brains[1].order_on;
            pt_state want;
            int want_on;
            if (k == PT_ORDER_HOLD) want = PT_STATE_IDLE, want_on = 1;
            else if (k == PT_ORDER_INVESTIGATE)
                want = states[s] == PT_STATE_CHASE ? PT_STATE_CHASE : PT_STATE_INVESTIGATE, want_on = states[s] != PT_STATE_CHASE;
            else {
                int now = states[s] == PT_STATE_PATROL || states[s] == PT_STATE_RETURN;
                want = now ? PT_STATE_PATROL : states[s];
                want_on = now;
            }
            ck_assert_msg(g->state == want && on == want_on, "%s meets %s: state %s on %d", pt_order_kind_name((pt_order_kind)k),
                          pt_state_name(states[s]), pt_state_name(g->state), on);
            ck_assert_int_eq(pt_world_order(w, 1, NULL, NULL), k);
            done(w);
        }
    }
}
END_TEST

/* A waiting goto is taken once the guard is free again: a suspicious guard calms down and
 * goes. */
START_TEST(waiting_goto_taken_when_free) {
    pt_world *w = make(1);
    pt_entity *g = &w->ents[1];
    g->state = PT_STATE_SUSPICIOUS;
    g->awareness = g->suspicious_at;
    ck_assert_int_eq(pt_world_order_goto(w, 1, 20, 4), PT_OK);
    ck_assert_int_eq(w->brains[1].order_on, 0);
    int t_done = -1;
    for (int t = 0; t < 2000 && t_done < 0; t++) {
        pt_world_step(w);
        if (order_done_at(w, 1, PT_ORDER_GOTO, 20, 4)) t_done = t;
    }
    ck_assert_int_ge(t_done, 0);
    done(w);
}
END_TEST

/* A new pattern given in a chase: the chase goes on as it was (same state and motion), and
 * the guard goes back to the new round after. */
START_TEST(pattern_in_a_chase) {
    pt_world *w = make(1);
    pt_entity *g = &w->ents[1];
    g->state = PT_STATE_CHASE;
    g->motion = PT_MOTION_CONTINUOUS; /* a steering chase */
    const pt_motion m = g->motion;
    const int x = g->x, y = g->y;
    pt_error err;
    ck_assert_int_eq(pt_world_order_pattern(w, 1, "other", &err), PT_OK);
    ck_assert_int_eq(g->state, PT_STATE_CHASE);
    ck_assert_int_eq(g->motion, m);
    ck_assert_int_eq(g->x, x);
    ck_assert_int_eq(g->y, y);
    ck_assert_ptr_eq(g->run.pat, pt_patlib_find(&lib, "other"));
    done(w);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("orders");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, goto_then_round);
    tcase_add_test(tc, investigate_looks_around);
    tcase_add_test(tc, hold_senses_resume);
    tcase_add_test(tc, resume_and_pattern);
    tcase_add_test(tc, orders_meet_states);
    tcase_add_test(tc, waiting_goto_taken_when_free);
    tcase_add_test(tc, pattern_in_a_chase);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return tu_run(suite()); }
