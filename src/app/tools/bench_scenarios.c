/* SPDX-License-Identifier: Zlib */
/* The patterns, flock, steer, world, hearing and search scenarios of `patrol bench` (los is in
 * cmd_bench.c). */
#include <patrol/crowd.h>
#include <patrol/hearing.h>
#include <patrol/pattern.h>
#include <patrol/los.h>
#include <patrol/rng.h>
#include <patrol/search.h>
#include <patrol/troop.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/bench.h"

/* ---- patterns: many tile pattern followers ------------------------------------------------ */

static const char *bench_patterns_text =
    "pattern box\n kind path\n points 0,0 7,0 7,5 0,5 0,0\nend\n"
    "pattern pace\n kind path\n points 0,0 9,3\n at_end reverse\nend\n"
    "pattern web\n kind matrix\n rows\n  11111\n  10101\n  11111\n  10001\n  11111\n end\nend\n"
    "pattern square\n kind control\n heading 0\n repeat 4\n  forward 4\n  right 90\n end\nend\n";

/* The figure is pt_troop_step; the straightforward loop (a pt_patrun per follower, an
 * integer clock each, every follower touched every tick) runs the same followers in the same
 * process for the ratio, and both must end in the same state (the `match` key). Speed: the
 * default 3 tiles/s at 60 ticks/s as the exact rational 3/60, clocks in random phases. */
int bench_patterns(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 1000000;
    int ticks = o->ticks > 0 ? o->ticks : 60;
    const int num = 3, den = 60;
    pt_map m;
    pt_error err;
    if (pt_map_init_blank(&m, 1024, 1024, &err) < 0) return 0;
    pt_patlib lib;
    pt_patlib_init(&lib);
    if (pt_patlib_parse(&lib, bench_patterns_text, strlen(bench_patterns_text), "bench.pat", &err) < 0) {
        pt_map_fini(&m);
        return 0;
    }
    pt_patrun *runs = malloc(sizeof *runs * (size_t)n);
    int *acc = malloc(sizeof *acc * (size_t)n);
    pt_troop *t = runs && acc ? pt_troop_create(&(pt_troop_desc){.map = &m, .capacity = n}, NULL) : NULL;
    int ok = t != NULL;
    pt_rng rng;
    pt_rng_seed(&rng, o->seed, 3);
    for (int i = 0; ok && i < n; i++) {
        const pt_pattern *p = pt_patlib_get(&lib, i % 4);
        pt_cell at = {1 + (int)pt_rng_below(&rng, 1008), 1 + (int)pt_rng_below(&rng, 1008)};
        pt_patrun_init(&runs[i], p, at, at, 0.0, o->seed, (uint32_t)i);
        acc[i] = (int)(pt_rng_unit(&rng) * den); /* followers out of step with each other */
        ok = pt_troop_add_run(t, &runs[i], num, den, acc[i]) == i;
    }
    if (!ok) {
        pt_troop_destroy(t);
        free(runs);
        free(acc);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
        return 0;
    }
    pt_troop_sort(t);
    double ns[BENCH_MAX_RUNS], ns_ref[BENCH_MAX_RUNS];
    for (int run = 0; run < o->runs; run++) {
        double t0 = bench_clock_ns();
        for (int k = 0; k < ticks; k++) pt_troop_step(t);
        ns[run] = bench_clock_ns() - t0;
    }
    long long ref_actions = 0;
    for (int run = 0; run < o->runs; run++) {
        double t0 = bench_clock_ns();
        for (int k = 0; k < ticks; k++)
            for (int i = 0; i < n; i++) {
                if (pt_patrun_hold_tick(&runs[i])) continue;
                acc[i] += num;
                if (acc[i] >= den) {
                    acc[i] -= den;
                    pt_patrun_step(&runs[i], &m, NULL, NULL, NULL);
                    ref_actions++;
                }
            }
        ns_ref[run] = bench_clock_ns() - t0;
    }
    int match = ref_actions == pt_troop_actions(t);
    for (int i = 0; i < n && match; i++) {
        pt_cell c = pt_troop_cell(t, i);
        double h = pt_troop_heading(t, i);
        match = c.x == runs[i].x && c.y == runs[i].y && memcmp(&h, &runs[i].heading, sizeof h) == 0 &&
                pt_troop_done(t, i) == (runs[i].done != 0);
    }
    r->agents = n;
    r->ticks = ticks;
    r->threads = 1;
    bench_result rr = {.agents = n, .ticks = ticks};
    bench_stats(&rr, ns_ref, o->runs);
    bench_stats(r, ns, o->runs);
    bench_extra(r, "ms_per_tick", r->median * n * 1e-6);
    bench_extra(r, "actions_per_agent_tick", (double)pt_troop_actions(t) / ((double)n * ticks * o->runs));
    bench_extra(r, "reference_ms_per_tick", rr.median * n * 1e-6);
    bench_extra(r, "speedup", r->median > 0 ? rr.median / r->median : 0);
    bench_extra(r, "match", match);
    pt_troop_destroy(t);
    free(runs);
    free(acc);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return 1;
}

/* ---- flock and steer: pt_crowd ------------------------------------------------------------- */

static pt_steer_params bench_params;

static pt_steer_agent *make_agents(int n, double x0, double y0, double w, double h, const pt_map *m, uint64_t seed) {
    pt_steer_agent *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
    if (!a) return NULL;
    pt_steer_params_default(&bench_params);
    pt_steer_params_resolve(&bench_params);
    pt_rng r;
    pt_rng_seed(&r, seed, 17);
    for (int i = 0; i < n; i++) {
        pt_vec2 p;
        do p = pt_v2(x0 + pt_rng_unit(&r) * w, y0 + pt_rng_unit(&r) * h);
        while (m && !pt_map_walkable(m, (int)p.x, (int)p.y));
        pt_vehicle v;
        pt_vehicle_init(&v, p, pt_rng_unit(&r) * PT_TAU);
        v.vel = pt_v2_scale(v.heading, 1.0);
        pt_vehicle_resolve(&v);
        pt_steer_agent_init(&a[i], &v, &bench_params, seed, (uint64_t)i);
    }
    return a;
}

/* --lockstep: after the scenario's last tick, the hash of every agent's motion state. */
static void crowd_gate_state(const bench_opts *o, pt_crowd *c, const pt_steer_agent *agents, int n) {
    if (o->gate_out < 0) return;
    pt_crowd_sync(c);
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < n; i++) {
        const pt_vehicle *v = &agents[i].veh;
        h = bench_hash(h, v, offsetof(pt_vehicle, mass)); /* pos, vel, heading, side */
        h = bench_hash(h, &v->smooth_heading, sizeof v->smooth_heading);
        h = bench_hash(h, &v->turn_dir, sizeof v->turn_dir);
    }
    bench_gate_state(o, h);
}

/* The end of a crowd scenario: the gate's state, the crowd gone, the figure of its runs. */
static void crowd_result(const bench_opts *o, bench_result *r, pt_crowd *c, const pt_steer_agent *a, int n, int ticks,
                         const double *ns) {
    crowd_gate_state(o, c, a, n);
    pt_crowd_destroy(c);
    r->agents = n;
    r->ticks = ticks;
    r->threads = o->threads;
    bench_stats(r, ns, o->runs);
}

/* Each tick is timed alone, so that under --lockstep it can wait for its turn and report
 * (crowd_gate_state ends the lockstep); a tick is far longer than reading the clock. */
static int time_crowd(pt_crowd *c, const bench_opts *o, int ticks, double *ns, int brute) {
    for (int run = 0; run < o->runs; run++) {
        ns[run] = 0;
        for (int t = 0; t < ticks; t++) {
            bench_gate_wait(o);
            double t0 = bench_clock_ns();
            if (brute) pt_crowd_step_brute(c, 1.0 / 60.0);
            else pt_crowd_step(c, 1.0 / 60.0);
            double dt = bench_clock_ns() - t0;
            bench_gate_tick(o, dt);
            ns[run] += dt;
        }
    }
    return 1;
}

int bench_flock(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 100000;
    int ticks = o->ticks > 0 ? o->ticks : 10;
    /* About 0.25 agents per square tile: a handful of neighbours within the view radius. */
    double side = sqrt(n / 0.25);
    pt_steer_agent *a = make_agents(n, 0, 0, side, side, NULL, o->seed);
    if (!a) return 0;
    pt_crowd_desc d = {.agents = a, .n = n, .behaviours = PT_BEH_FLOCKING, .view_radius = 2.5, .threads = o->threads};
    pt_crowd *c = pt_crowd_create(&d);
    if (!c) { free(a); return 0; }
    /* With threads, the same flock on one thread in the same runs, tick by tick (so that
     * machine noise, which comes in bursts of seconds here, hits both alike): ns_1thread,
     * and speedup_threads as the median of the ticks' paired ratios. Both flocks evolve
     * identically, so each pair of ticks does the same work. */
    pt_steer_agent *a1 = o->threads > 1 && o->gate_in < 0 ? malloc(sizeof *a1 * (size_t)n) : NULL;
    pt_crowd *c1 = NULL;
    int one = a1 != NULL;
    if (one) {
        memcpy(a1, a, sizeof *a1 * (size_t)n);
        pt_crowd_desc d1 = d;
        d1.agents = a1;
        d1.threads = 1;
        c1 = pt_crowd_create(&d1);
        one = c1 != NULL;
    }
    double ns[BENCH_MAX_RUNS], ns1[BENCH_MAX_RUNS];
    double *ratio = one ? malloc(sizeof *ratio * (size_t)o->runs * (size_t)ticks) : NULL;
    int nratio = 0;
    if (one && !ratio) { /* no room for the pairs: the threaded figures only */
        pt_crowd_destroy(c1);
        one = 0;
    }
    bench_opts o1 = *o;
    o1.runs = 1;
    for (int run = 0; run < o->runs; run++) {
        if (!ratio) {
            time_crowd(c, &o1, ticks, &ns[run], 0);
            continue;
        }
        ns[run] = ns1[run] = 0;
        for (int t = 0; t < ticks; t++) {
            /* which one goes first alternates: neither always finds the caches warm */
            double t1 = 0, tk = 0;
            for (int side = 0; side < 2; side++) {
                int threaded = side ^ (t & 1);
                double t0 = bench_clock_ns();
                pt_crowd_step(threaded ? c : c1, 1.0 / 60.0);
                double dt = bench_clock_ns() - t0;
                if (threaded) tk = dt;
                else t1 = dt;
            }
            ns1[run] += t1;
            ns[run] += tk;
            ratio[nratio++] = tk > 0 ? t1 / tk : 0;
        }
    }
    crowd_result(o, r, c, a, n, ticks, ns);
    if (one) {
        bench_result r1 = {.agents = n, .ticks = ticks};
        bench_stats(&r1, ns1, o->runs);
        bench_extra(r, "ns_1thread", r1.median);
        bench_extra(r, "speedup_threads", ratio ? bench_median(ratio, nratio) : 0);
        pt_crowd_destroy(c1);
    }
    free(ratio);
    free(a1);
    /* The same kind of flock at N = 10,000 by brute force, in this run, for the ratio (not
     * under --lockstep, whose coordinator expects only the scenario's own ticks). */
    int nb = 10000;
    double sideb = sqrt(nb / 0.25);
    pt_steer_agent *b = o->gate_in < 0 ? make_agents(nb, 0, 0, sideb, sideb, NULL, o->seed) : NULL;
    pt_crowd_desc db = {.agents = b, .n = nb, .behaviours = PT_BEH_FLOCKING, .view_radius = 2.5, .threads = 1};
    if (b && (c = pt_crowd_create(&db)) != NULL) {
        bench_opts ob = *o;
        ob.runs = o->runs < 3 ? o->runs : 3;
        double nsb[BENCH_MAX_RUNS], nsc[BENCH_MAX_RUNS];
        time_crowd(c, &ob, 1, nsb, 1);
        time_crowd(c, &ob, 1, nsc, 0);
        bench_result rb = {.agents = nb, .ticks = 1}, rc = {.agents = nb, .ticks = 1};
        bench_stats(&rb, nsb, ob.runs);
        bench_stats(&rc, nsc, ob.runs);
        bench_extra(r, "brute_ns_n10000", rb.median);
        bench_extra(r, "cellspace_ns_n10000", rc.median);
        bench_extra(r, "speedup_n10000", rc.median > 0 ? rb.median / rc.median : 0);
        pt_crowd_destroy(c);
    }
    free(b);
    free(a);
    return 1;
}

int bench_steer(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 100000;
    int ticks = o->ticks > 0 ? o->ticks : 10;
    pt_map m;
    if (!bench_walled_map(&m, 1024, 32, 0.03, o->seed)) return 0;
    /* Pillars as circular obstacles, one per 32x32 room. */
    int nob = (1024 / 32) * (1024 / 32);
    m.obstacles = calloc((size_t)nob, sizeof *m.obstacles);
    m.nobstacles = 0;
    for (int y = 16; y < 1024; y += 32)
        for (int x = 16; x < 1024; x += 32)
            if (pt_map_walkable(&m, x, y)) m.obstacles[m.nobstacles++] = (pt_obstacle){x + 0.5, y + 0.5, 0.45, 1, 0, 0};
    pt_steer_env env;
    if (pt_steer_env_build(&env, &m) < 0) { pt_map_fini(&m); return 0; }
    /* Agents packed into the middle rooms, all pursuing agent 0 (which wanders). */
    double side = sqrt(n / 0.2);
    if (side > 1000) side = 1000;
    pt_steer_agent *a = make_agents(n, 512 - side / 2, 512 - side / 2, side, side, &m, o->seed);
    if (!a) { pt_steer_env_fini(&env); pt_map_fini(&m); return 0; }
    unsigned beh = PT_BEH_BIT(PT_BEH_WALL_AVOIDANCE) | PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE) |
                   PT_BEH_BIT(PT_BEH_SEPARATION) | PT_BEH_BIT(PT_BEH_PURSUIT) | PT_BEH_BIT(PT_BEH_ARRIVE);
    pt_crowd_desc d = {.agents = a, .n = n, .env = &env, .behaviours = beh, .view_radius = 1.5, .threads = o->threads};
    pt_crowd *c = pt_crowd_create(&d);
    if (!c) { free(a); pt_steer_env_fini(&env); pt_map_fini(&m); return 0; }
    pt_crowd_set_target(c, 0);
    double ns[BENCH_MAX_RUNS];
    time_crowd(c, o, ticks, ns, 0);
    crowd_result(o, r, c, a, n, ticks, ns);
    bench_extra(r, "ticks_per_s", r->median > 0 ? 1e9 / (r->median * n) : 0);
    free(a);
    pt_steer_env_fini(&env);
    pt_map_fini(&m);
    return 1;
}

/* ---- world: the whole sim tick --------------------------------------------------------- */

/* A random walkable cell of m, each coordinate in [lo, lo + span). */
static void random_walkable(pt_rng *rng, const pt_map *m, int lo, uint32_t span, int *x, int *y) {
    do {
        *x = lo + (int)pt_rng_below(rng, span);
        *y = lo + (int)pt_rng_below(rng, span);
    } while (!pt_map_walkable(m, *x, *y));
}

/* The level of the world scenarios: a generated size x size walled map (rooms of 32 with
 * doors, pillars), the bench patterns, `guards` guards (tile patterns, every chase mode),
 * `prey` prey and `members` flock members in flocks of 100 at random walkable cells, and the
 * player in the middle (or the first walkable cell east of it). 0 (nothing left to free) when it
 * cannot be made (bench_set_tile.c uses it too). */
int bench_world_level(const bench_opts *o, int size, int guards, int prey, int members, pt_map *m, pt_patlib *lib) {
    if (!bench_walled_map(m, size, 32, 0.03, o->seed)) return 0;
    pt_patlib_init(lib);
    pt_error err;
    if (pt_patlib_parse(lib, bench_patterns_text, strlen(bench_patterns_text), "bench.pat", &err) < 0) {
        pt_map_fini(m);
        return 0;
    }
    int flocks = (members + 99) / 100, nents = guards + prey + flocks;
    m->ents = calloc((size_t)(nents > 0 ? nents : 1), sizeof *m->ents);
    if (!m->ents) { pt_patlib_fini(lib); pt_map_fini(m); return 0; }
    pt_rng rng;
    pt_rng_seed(&rng, o->seed, 4);
    static const char *pats[4] = {"box", "pace", "web", "square"};
    static const pt_chase modes[3] = {PT_CHASE_TILE, PT_CHASE_STEER, PT_CHASE_INTERCEPT};
    for (int i = 0; i < nents; i++) {
        pt_entity_def *d = &m->ents[i];
        random_walkable(&rng, m, 1, (uint32_t)size - 2, &d->x, &d->y);
        d->line = 1;
        if (i < guards) {
            snprintf(d->name, sizeof d->name, "g%d", i);
            d->kind = PT_KIND_GUARD;
            snprintf(d->pattern, sizeof d->pattern, "%s", pats[i % 4]);
            d->chase = modes[i % 3];
        } else if (i < guards + prey) {
            snprintf(d->name, sizeof d->name, "p%d", i);
            d->kind = PT_KIND_PREY;
        } else {
            int k = i - guards - prey;
            snprintf(d->name, sizeof d->name, "f%d", k);
            d->kind = PT_KIND_BOID;
            d->count = k + 1 < flocks ? 100 : members - 100 * k;
        }
    }
    m->nents = nents;
    m->player.x = size / 2;
    m->player.y = size / 2;
    while (!pt_map_walkable(m, m->player.x, m->player.y)) m->player.x++;
    return 1;
}

/* noises_per_s > 0: that many noises of loudness 16 a second at random walkable cells (made
 * with pt_world_noise before the step they fall in), heard by every guard in earshot. */
static int world_run(const bench_opts *o, bench_result *r, int noises_per_s) {
    int n = o->agents > 0 ? o->agents : 10000;
    int ticks = o->ticks > 0 ? o->ticks : 100;
    pt_map m;
    pt_patlib lib;
    if (!bench_world_level(o, 1024, n, 0, 0, &m, &lib)) return 0;
    pt_error err;
    pt_world_desc desc = {.seed = o->seed};
    pt_world *w = pt_world_create(&m, &lib, &desc, &err);
    if (!w) {
        fprintf(stderr, "bench world: %s\n", err.message);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
        return 0;
    }
    double ns[BENCH_MAX_RUNS];
    pt_rng nr;
    pt_rng_seed(&nr, o->seed, 25);
    long long made = 0, heard = 0;
    const double hz = 1.0 / pt_world_dt(w);
    for (int run = 0; run < o->runs; run++) {
        double t0 = bench_clock_ns();
        for (int t = 0; t < ticks; t++) {
            if (noises_per_s > 0) {
                long due = (long)floor((t + 1) * noises_per_s / hz) - (long)floor(t * noises_per_s / hz);
                for (long k = 0; k < due; k++, made++) {
                    int x, y;
                    random_walkable(&nr, &m, 0, 1024, &x, &y);
                    pt_world_noise(w, x, y, 16.0);
                }
            }
            pt_world_step(w);
            int nev;
            const pt_event *ev = pt_world_events(w, &nev);
            for (int k = 0; k < nev; k++) heard += ev[k].kind == PT_EVENT_HEARD;
        }
        ns[run] = bench_clock_ns() - t0;
    }
    r->agents = n;
    r->ticks = ticks;
    r->threads = 1;
    bench_stats(r, ns, o->runs);
    double tps = r->median > 0 ? 1e9 / (r->median * n) : 0;
    bench_extra(r, "ticks_per_s", tps);
    if (noises_per_s > 0) {
        bench_extra(r, "noises_per_s", noises_per_s);
        bench_extra(r, "noises_made", (double)made);
        bench_extra(r, "heard_events", (double)heard);
        bench_extra(r, "goal_ticks_per_s", 1000);
        bench_extra(r, "meets_goal", tps >= 1000);
    }
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return 1;
}

int bench_world(const bench_opts *o, bench_result *r) { return world_run(o, r, 0); }

/* The goal: the world scenario with 100 noises a second stays at 1,000 ticks/s or more. */
int bench_world_noise(const bench_opts *o, bench_result *r) { return world_run(o, r, 100); }

/* ---- world-flocks, world-mixed: the product through the public world API ----------------- */

/* The hash of what the trace shows of every entity, continuing from h. */
static uint64_t world_hash(uint64_t h, const pt_world *w) {
    for (int i = 0; i < pt_world_count(w); i++) {
        const pt_entity *e = pt_world_entity(w, i);
        h = bench_hash(h, &e->state, sizeof e->state);
        h = bench_hash(h, &e->x, sizeof e->x * 2);
        h = bench_hash(h, &e->px, sizeof e->px * 3); /* px, py, heading */
        h = bench_hash(h, &e->veh.vel, sizeof e->veh.vel);
    }
    return h;
}

/* The world_level of size with `guards` guards, `prey` prey and `members` flock members; the
 * player walks the box pattern in the middle. The same world runs
 * on 1 thread and on max(2, --threads) threads, tick by tick in the same runs (which goes
 * first alternates); the figure is the --threads one, and `match` says whether the two
 * worlds showed the same state on every tick (a hash of what the trace shows). */
static int bench_world_mix(const bench_opts *o, bench_result *r, int size, int guards, int prey, int members) {
    int ticks = o->ticks > 0 ? o->ticks : 20;
    pt_map m;
    pt_patlib lib;
    if (!bench_world_level(o, size, guards, prey, members, &m, &lib)) return 0;
    pt_error err;
    snprintf(m.player.pattern, sizeof m.player.pattern, "box");
    int more = o->threads > 2 ? o->threads : 2;
    pt_world_desc d1 = {.seed = o->seed, .threads = 1}, dk = {.seed = o->seed, .threads = more};
    pt_world *w1 = pt_world_create(&m, &lib, &d1, &err), *wk = w1 ? pt_world_create(&m, &lib, &dk, &err) : NULL;
    if (!w1 || !wk) {
        fprintf(stderr, "bench world: %s\n", err.message);
        pt_world_destroy(w1);
        pt_patlib_fini(&lib);
        pt_map_fini(&m);
        return 0;
    }
    int n = pt_world_count(w1) - 1; /* the entities besides the player */
    double ns1[BENCH_MAX_RUNS], nsk[BENCH_MAX_RUNS];
    uint64_t h1 = 14695981039346656037ull, hk = h1;
    int match = 1;
    for (int run = 0; run < o->runs; run++) {
        ns1[run] = nsk[run] = 0;
        for (int t = 0; t < ticks; t++) {
            for (int side = 0; side < 2; side++) {
                int threaded = side ^ (t & 1);
                double t0 = bench_clock_ns();
                pt_world_step(threaded ? wk : w1);
                double dt = bench_clock_ns() - t0;
                if (threaded) nsk[run] += dt;
                else ns1[run] += dt;
            }
            h1 = world_hash(h1, w1);
            hk = world_hash(hk, wk);
            match &= h1 == hk;
        }
    }
    r->agents = n;
    r->ticks = ticks;
    r->threads = o->threads;
    bench_result r1 = {.agents = n, .ticks = ticks}, rk = {.agents = n, .ticks = ticks};
    bench_stats(&r1, ns1, o->runs);
    bench_stats(&rk, nsk, o->runs);
    bench_stats(r, o->threads > 1 ? nsk : ns1, o->runs);
    bench_extra(r, "ticks_per_s", r->median > 0 ? 1e9 / (r->median * n) : 0);
    bench_extra(r, "ticks_per_s_1thread", r1.median > 0 ? 1e9 / (r1.median * n) : 0);
    bench_extra(r, "threads_compared", more);
    bench_extra(r, "ticks_per_s_threads", rk.median > 0 ? 1e9 / (rk.median * n) : 0);
    bench_extra(r, "speedup_threads", rk.median > 0 ? r1.median / rk.median : 0);
    bench_extra(r, "flock_members", members);
    bench_extra(r, "match", match);
    pt_world_destroy(w1);
    pt_world_destroy(wk);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
    return 1;
}

/* --agents: flock members (default 60,000) on a 256x256 map. */
int bench_world_flocks(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 60000;
    return bench_world_mix(o, r, 256, 0, 0, n);
}

/* --agents: entities besides the player (default 100,000) on a 1024x1024 map: a tenth
 * guards, a twentieth prey, the rest flock members. */
int bench_world_mixed(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 100000;
    int guards = n / 10, prey = n / 20;
    return bench_world_mix(o, r, 1024, guards, prey, n - guards - prey);
}

/* ---- hearing: noise floods ------------------------------------------------------------- */

/* The goal: at most 20 us per noise of loudness 16 on this map, on one core. Each
 * tick floods every noise once from one reused pt_hearing (as a world would); an agent-tick
 * is one noise event. */
int bench_hearing(const bench_opts *o, bench_result *r) {
    int n = o->agents > 0 ? o->agents : 10000;
    int ticks = o->ticks > 0 ? o->ticks : 10;
    const double loudness = 16.0, goal_us = 20.0;
    pt_map m;
    if (!bench_walled_map(&m, 1024, 32, 0.03, o->seed)) return 0;
    int *at = malloc(sizeof *at * 2 * (size_t)n);
    pt_hearing *h = pt_hearing_create(&m);
    if (!at || !h) {
        free(at);
        pt_hearing_destroy(h);
        pt_map_fini(&m);
        return 0;
    }
    pt_rng rng;
    pt_rng_seed(&rng, o->seed, 24);
    for (int i = 0; i < n; i++) {
        random_walkable(&rng, &m, 0, 1024, &at[2 * i], &at[2 * i + 1]);
    }
    double ns[BENCH_MAX_RUNS];
    long long cells = 0;
    int ok = 1;
    for (int run = 0; run < o->runs && ok; run++) {
        long long c = 0;
        double t0 = bench_clock_ns();
        for (int t = 0; t < ticks; t++)
            for (int i = 0; i < n; i++) {
                int k = pt_hearing_flood(h, at[2 * i], at[2 * i + 1], loudness);
                ok &= k > 0;
                c += k;
            }
        ns[run] = bench_clock_ns() - t0;
        cells = c;
    }
    if (ok) {
        r->agents = n;
        r->ticks = ticks;
        r->threads = 1;
        bench_stats(r, ns, o->runs);
        double us = r->median / 1000.0;
        bench_extra(r, "loudness", loudness);
        bench_extra(r, "us_per_noise", us);
        bench_extra(r, "cells_per_noise", (double)cells / ((double)n * ticks));
        bench_extra(r, "goal_us", goal_us);
        bench_extra(r, "meets_goal", us <= goal_us);
    }
    free(at);
    pt_hearing_destroy(h);
    pt_map_fini(&m);
    return ok;
}

/* ---- search: guards searching together against each alone --------------------------------- */

/* A map of rooms and corridors: rooms of 7x7 with doors (bench_walled_map, rooms of 8, 3%
 * pillars), and every third row of rooms walled in but for an east-west corridor two tiles
 * wide through its doors and the doorways north and south. */
static int search_map(pt_map *m, int size, uint64_t seed) {
    const int room = 8;
    if (!bench_walled_map(m, size, room, 0.03, seed)) return 0;
    for (int y = 1; y < size - 1; y++) {
        if ((y / room) % 3 != 2 || y % room == 0) continue;
        for (int x = 1; x < size - 1; x++) {
            if (x % room == 0) continue;
            int corridor = y % room == 3 || y % room == 4, link = x % room == room / 2;
            pt_map_set(m, x, y, corridor || link ? '.' : '#');
        }
    }
    return 1;
}

typedef struct search_run {
    int cells, seen;    /* the area, the cells searched when the window closed */
    double seconds;     /* the window: until the area was covered or the search ended */
    int covered, spotted, off_walkable;
    double ns;          /* time in pt_world_step */
} search_run;

/* Three guards that were chasing together (within 2 tiles of the last known position, or,
 * converged, all three on it) search around it, together or each alone; the player stands far
 * away. */
static int search_once(uint64_t seed, int alone, int converge, int max_ticks, search_run *out) {
    enum { SIZE = 48, GUARDS = 3 };
    memset(out, 0, sizeof *out);
    pt_map m;
    if (!search_map(&m, SIZE, seed)) return 0;
    pt_rng rng;
    pt_rng_seed(&rng, seed, 24);
    int ox, oy;
    do {
        ox = SIZE / 2 - 6 + (int)pt_rng_below(&rng, 12);
        oy = SIZE / 2 - 6 + (int)pt_rng_below(&rng, 12);
    } while (!pt_map_walkable(&m, ox, oy));
    m.ents = calloc(GUARDS, sizeof *m.ents);
    if (!m.ents) { pt_map_fini(&m); return 0; }
    for (int i = 0; i < GUARDS; i++) {
        pt_entity_def *d = &m.ents[i];
        int x, y, tries = 0;
        do {
            x = ox - 2 + (int)pt_rng_below(&rng, 5);
            y = oy - 2 + (int)pt_rng_below(&rng, 5);
        } while ((!pt_map_walkable(&m, x, y) || !pt_los_clear(&m, ox, oy, x, y)) && ++tries < 100);
        if (tries >= 100 || converge) x = ox, y = oy;
        snprintf(d->name, sizeof d->name, "g%d", i + 1);
        d->kind = PT_KIND_GUARD;
        d->x = x;
        d->y = y;
        d->heading_deg = 90.0 * (double)pt_rng_below(&rng, 4);
        d->line = 1;
    }
    m.nents = GUARDS;
    /* the player in the walkable cell farthest (Chebyshev) from the origin */
    int best = -1;
    for (int y = 1; y < SIZE - 1; y++)
        for (int x = 1; x < SIZE - 1; x++) {
            int d = abs(x - ox) > abs(y - oy) ? abs(x - ox) : abs(y - oy);
            if (pt_map_walkable(&m, x, y) && d > best) { best = d; m.player.x = x; m.player.y = y; }
        }
    pt_world_desc desc = {.seed = seed, .player_controlled = 1};
    pt_error err;
    pt_world *w = pt_world_create(&m, NULL, &desc, &err);
    int ok = w != NULL;
    static const int ids[GUARDS] = {1, 2, 3};
    if (ok) ok = pt_world_search_start(w, ox, oy, ids, GUARDS, alone) == PT_OK;
    pt_search_info s;
    for (int t = 0; ok && t < max_ticks; t++) {
        double t0 = bench_clock_ns();
        pt_world_step(w);
        out->ns += bench_clock_ns() - t0;
        for (int i = 1; i <= GUARDS; i++) {
            const pt_entity *e = pt_world_entity(w, i);
            out->spotted |= e->state == PT_STATE_CHASE;
            out->off_walkable |= !pt_map_walkable(&m, e->x, e->y);
        }
        int on = pt_world_search(w, &s);
        out->cells = s.ncells;
        out->seen = s.nsearched;
        out->seconds = (t + 1) * pt_world_dt(w);
        if (s.nsearched >= s.ncells || !on) {
            out->covered = s.nsearched >= s.ncells;
            break;
        }
    }
    pt_world_destroy(w);
    pt_map_fini(&m);
    return ok;
}

/* The figure of the issue: cells searched per guard-second, three guards together against
 * three guards each searching the whole area alone (the same maps, places and seeds; one
 * search per --agents, default 40, each of at most --ticks ticks, default 1200), for guards
 * that start apart (within 2 tiles of the last known position) and, `converge_*`, for guards
 * that converged on it (all three on its cell). The window of a search closes when its area is
 * covered or the search ends (the evasion countdown), for both; cells are counted once whoever
 * saw them. ns/agent-tick: the world step per guard and tick of the joint searches apart. */
int bench_search(const bench_opts *o, bench_result *r) {
    int searches = o->agents > 0 ? o->agents : 40, max_ticks = o->ticks > 0 ? o->ticks : 1200;
    double ns[BENCH_MAX_RUNS] = {0};
    double sums[2][2][4] = {{{0}}}; /* per start (apart, converged) and mode: cells seen, cells, guard-seconds, covered */
    int spotted = 0, off = 0;
    long long ticks = 0;
    for (int run = 0; run < o->runs; run++) {
        ns[run] = 0;
        for (int k = 0; k < searches; k++) {
            for (int conv = 0; conv < 2; conv++) {
                for (int alone = 0; alone < 2; alone++) {
                    if (run > 0) continue;
                    search_run sr;
                    if (!search_once(o->seed + (uint64_t)k, alone, conv, max_ticks, &sr)) return 0;
                    sums[conv][alone][0] += sr.seen;
                    sums[conv][alone][1] += sr.cells;
                    sums[conv][alone][2] += 3.0 * sr.seconds;
                    sums[conv][alone][3] += sr.covered;
                    spotted += sr.spotted;
                    off += sr.off_walkable;
                    if (!alone && !conv) ticks += (long long)lround(sr.seconds * 60.0);
                    if (!alone && !conv) ns[run] += sr.ns;
                }
            }
        }
        if (run > 0) { /* the timing of later runs: the joint searches apart again */
            ns[run] = 0;
            for (int k = 0; k < searches; k++) {
                search_run sr;
                if (!search_once(o->seed + (uint64_t)k, 0, 0, max_ticks, &sr)) return 0;
                ns[run] += sr.ns;
            }
        }
    }
    r->agents = searches;
    r->ticks = max_ticks;
    r->threads = 1;
    /* per guard-tick of the joint searches */
    double per = 3.0 * (double)(ticks > 0 ? ticks : 1);
    for (int run = 0; run < o->runs; run++) ns[run] = ns[run] * ((double)searches * max_ticks) / per;
    bench_stats(r, ns, o->runs);
    double joint[2], solo[2];
    for (int c = 0; c < 2; c++) {
        joint[c] = sums[c][0][2] > 0 ? sums[c][0][0] / sums[c][0][2] : 0;
        solo[c] = sums[c][1][2] > 0 ? sums[c][1][0] / sums[c][1][2] : 0;
    }
    bench_extra(r, "joint_cells_per_guard_s", joint[0]);
    bench_extra(r, "solo_cells_per_guard_s", solo[0]);
    bench_extra(r, "ratio", solo[0] > 0 ? joint[0] / solo[0] : 0);
    bench_extra(r, "converge_joint_per_guard_s", joint[1]);
    bench_extra(r, "converge_solo_per_guard_s", solo[1]);
    bench_extra(r, "converge_ratio", solo[1] > 0 ? joint[1] / solo[1] : 0);
    bench_extra(r, "goal_ratio", 1.8);
    bench_extra(r, "meets_goal", solo[0] > 0 && solo[1] > 0 && joint[0] / solo[0] >= 1.8 && joint[1] / solo[1] >= 1.8);
    bench_extra(r, "joint_share", sums[0][0][1] > 0 ? sums[0][0][0] / sums[0][0][1] : 0);
    bench_extra(r, "solo_share", sums[0][1][1] > 0 ? sums[0][1][0] / sums[0][1][1] : 0);
    bench_extra(r, "joint_covered", sums[0][0][3] / searches);
    bench_extra(r, "solo_covered", sums[0][1][3] / searches);
    bench_extra(r, "converge_joint_covered", sums[1][0][3] / searches);
    bench_extra(r, "converge_solo_covered", sums[1][1][3] / searches);
    bench_extra(r, "joint_s", sums[0][0][2] / 3.0 / searches);
    bench_extra(r, "solo_s", sums[0][1][2] / 3.0 / searches);
    bench_extra(r, "converge_joint_s", sums[1][0][2] / 3.0 / searches);
    bench_extra(r, "converge_solo_s", sums[1][1][2] / 3.0 / searches);
    bench_extra(r, "spotted_or_off", spotted + off);
    return 1;
}
