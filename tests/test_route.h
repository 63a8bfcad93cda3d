/* SPDX-License-Identifier: Zlib */
/* test_route.h - a solver's route played in the world, for the suites that check routes. */
#ifndef PATROL_TEST_ROUTE_H
#define PATROL_TEST_ROUTE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/solve.h>
#include <patrol/world.h>

/* The route's pattern as the solver writes it (pt_solve_pattern_text, named "solved"), parsed
 * back into *plib (the caller finalises it). Returns the text, for messages; the caller frees it. */
static inline char *tu_route_pattern(const pt_solve_result *r, pt_patlib *plib) {
    size_t len = pt_solve_pattern_text(r, "solved", NULL, 0);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(pt_solve_pattern_text(r, "solved", text, len + 1), len);
    pt_error err;
    pt_patlib_init(plib);
    int rc = pt_patlib_parse(plib, text, strlen(text), "route.pat", &err);
    ck_assert_msg(rc == PT_OK, "route pattern: %d:%d %s\n%s", err.line, err.col, err.message, text);
    return text;
}

/* A world with `seed` whose player walks the route's pattern (plib from tu_route_pattern). */
static inline pt_world *tu_route_world(const pt_map *m, const pt_patlib *lib, const pt_patlib *plib, uint64_t seed) {
    pt_world_desc d = {0};
    d.seed = seed;
    d.player_pattern = pt_patlib_find(plib, "solved");
    ck_assert_ptr_nonnull(d.player_pattern);
    pt_error err;
    pt_world *w = pt_world_create(m, lib, &d, &err);
    ck_assert_msg(w != NULL, "world: %s", err.message);
    return w;
}

/* 1 when the route, played in the world with `seed`, reaches the goal within its ticks with
 * no guard seeing, noticing, spotting or hearing the player on the way (no asserts: for
 * counting the seeds under which a route holds). */
static inline int tu_route_holds(const pt_map *m, const pt_patlib *lib, uint64_t seed, const pt_solve_result *r) {
    pt_patlib plib;
    char *text = tu_route_pattern(r, &plib);
    pt_world *w = tu_route_world(m, lib, &plib, seed);
    int ok = 1, goal = 0;
    for (int t = 1; t <= r->ticks && ok; t++) {
        pt_world_step(w);
        for (int i = 1; i < pt_world_count(w); i++) {
            const pt_entity *g = pt_world_entity(w, i);
            if (g && g->kind == PT_KIND_GUARD && (g->sees_player || g->awareness != 0.0)) ok = 0;
        }
        int n = 0;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) {
            if (ev[k].kind == PT_EVENT_HEARD || ev[k].kind == PT_EVENT_SPOTTED) ok = 0;
            goal |= ev[k].kind == PT_EVENT_GOAL;
        }
    }
    pt_world_destroy(w);
    pt_patlib_fini(&plib);
    free(text);
    return ok && goal;
}

#endif
