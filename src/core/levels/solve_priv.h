/* SPDX-License-Identifier: Zlib */
/* The solver's parts (solve*.c): the tables they share and the calls between them. */
#ifndef PATROL_SOLVE_PRIV_H
#define PATROL_SOLVE_PRIV_H

#include <patrol/solve.h>

#include <stddef.h>
#include <stdint.h>

/* A door the guards changed in the sight run: from the end of step `tick` on, cell's state. */
typedef struct door_change {
    int tick;
    int32_t cell;        /* y * w + x */
    int state;           /* pt_door_state */
} door_change;

/* Where the guards listen on each tick of the sight run: their cells after their update
 * (where pt__listen, senses/listen.c, takes them) and their hearing thresholds; and the
 * doors as the guards opened and closed them (pt__listen floods at the end of the step, on
 * the doors as they are then). */
typedef struct listeners {
    int n;               /* guards */
    int ticks;
    double *threshold;   /* [n] */
    int32_t *cell;       /* [(t - 1) * n + j]: y * w + x, or -1 when not listening (a chase) */
    door_change *chg;    /* [nchg]: the run's door changes, in the order made (ticks rising) */
    int nchg;
    pt_sightmap *shy;    /* when set: ORs in the cells where the player would startle an animal */
    const pt_solve_opts *opts; /* when set: reports "sight" from done0 to done0 + span over the ticks */
    double done0, span;
} listeners;

/* Heading axes: a step goes +d or -d (forward or backward, whichever way the heading points). */
static const int AX_DX[4] = {1, 1, 0, -1}, AX_DY[4] = {0, 1, 1, 1};

typedef struct solver {
    const pt_map *map;
    int W, H;
    size_t C;          /* cells */
    int T;             /* horizon */
    const pt_sightmap *unsafe;
    const pt_sightmap *loud;  /* steps heard in the gait searched (NULL: none) */
    const uint8_t *door;      /* [C]: 1 on a door closed at the start that the route may open (NULL: none) */
    const pt_sightmap *dloud; /* with door: bit (t, c) when the noise of door c opening on tick t is heard */
    int t0, k0;        /* the search starts on tick t0 in class k0 (after a gait action) */
    int ncls;          /* classes of the action count (the step rhythm) */
    const int *gap, *nxt; /* [ncls]: the gait clock's (below) */
    size_t slab;       /* bits per tick */
    uint64_t *V;
    uint64_t *R;       /* the window pass: states from which the goal can be reached */
    int full;          /* search to the horizon, not only to the earliest arrival */
    size_t start;      /* the start cell; no step off it before tick leave_after */
    int leave_after;
    uint8_t *stay;     /* [t][k][h][a]: states on the start never left, */
    uint8_t *dep;      /* [t]: 1 when leaving on tick t can reach the goal */
    long long nodes;
    int best_t;
    size_t best_bit;
    size_t want;       /* pt__solve_route_judged: the state it looks for among the successors */
    char stage[48];    /* the progress stage of the search running: "<gait>, <pass>" */
} solver;

/* The step clock of a route in one gait: its rhythm classes, and where the search starts (a
 * gait other than walk is the route's first action, taken at walking pace). */
typedef struct gait_clock {
    int ok;              /* 0: this gait is not searched (see why) */
    int why;             /* ok 0: -1 two steps in a tick, -2 its search over the memory limit */
    int ncls, t0, k0, rhythm;
    int *gap, *nxt;      /* [ncls]: class c acts gap[c] ticks after the last action, then is nxt[c] */
} gait_clock;

static inline void pt__solve_report(const pt_solve_opts *o, const char *stage, double done) {
    if (o->progress) o->progress(o->progress_user, stage, done);
}

/* solve_sight.c */
/* Bytes of a table of w x h cells over ticks ticks. */
size_t pt__solve_table_bytes(int w, int h, int ticks);
/* The sight table (sm not NULL), and (ls not NULL) where the guards listen on each tick.
 * gaits 0: sm is one table, a walking player's. gaits 1: sm holds PT_GAIT_COUNT tables, one
 * per gait on a dark map (pt__solve_dark); on a lit one only sm[PT_GAIT_WALK] (the others
 * stay empty: the walk table is every gait's). */
int pt__solve_sight_build(pt_sightmap *sm, int gaits, listeners *ls, const pt_map *map, const pt_patlib *lib,
                          uint64_t seed, int ticks, pt_error *err);
/* 1 when the map's ambient level is below 1: what a guard notices then depends on the
 * player's gait (docs/ai.md, "Light"), and the solver keeps a sight table per gait. */
int pt__solve_dark(const pt_map *map);
/* The tick of a route's gait action (the first action, at walking pace) for a player of
 * this speed: until it the player walks. */
int pt__solve_gait_tick(double speed);
/* With tables per gait (a dark map): ORs the walk table's ticks 1..t0 + 1 into the other
 * gaits' (the player walks at the start until its gait action on tick t0, and the guards
 * may take its gait of the tick before). */
void pt__solve_gait_start(pt_sightmap *sm, int t0);
/* Gait g's table of sm[PT_GAIT_COUNT] (pt__solve_sight_build with gaits): its own, or walk's. */
const pt_sightmap *pt__solve_gait_table(const pt_sightmap *sm, int g);
void pt__solve_listeners_fini(listeners *l);
/* Adds 1 to counts[c] for each bit c set in row. */
void pt__solve_count_row(const uint64_t *row, size_t stride, int *counts);

/* solve_hear.c */
/* The steps heard in one seed's run (ls), each judged with the doors as the guards have
 * them on its tick: ORs into bit (t, c) of loud[g] (as large as the sight table), for each
 * gait g in mask, when the player's footstep on entering cell c on tick t in gait g would be
 * heard by a guard listening then; with door (the doors closed at the start, which the route
 * may open; open: map with them open), the footsteps on those doors with them open, and into
 * bit (t, c) of dloud when the noise of door c opening on tick t (PT__DOOR_NOISE) is heard.
 * 0: no memory. */
int pt__solve_hear_tables(pt_sightmap *loud, unsigned mask, pt_sightmap *dloud, const listeners *ls,
                          const pt_map *map, const pt_map *open, const uint8_t *door);

/* solve_search.c */
/* The gaps in ticks between the player's actions; -1 when a tick would hold two. */
int pt__solve_step_gaps(double speed, double scale0, double scale1, double dt, int horizon, int *gaps, int cap);
/* The rhythm's classes into c (ncls, gap, nxt: allocated, at most maxcls of them) for a
 * horizon of T ticks; returns its period, 0 when more than maxcls classes are needed, or -1
 * when out of memory. */
int pt__solve_rhythm_classes(gait_clock *c, const int *gaps, int ng, int T, long maxcls);
void pt__solve_use_clock(solver *s, const gait_clock *c);
/* Bytes of one gait's search with ncls classes: its state bits, and with the window the
 * reaching bits and the start's own states. */
size_t pt__solve_search_bytes(int T, size_t C, long ncls, int window);
void pt__solve_search_free(solver *s);
/* 1 when the search, set up with the clock of r's gait and one seed's tables, would take
 * each of the found route r's states from the one before (the same successor rule: unseen
 * on every tick, a door's cell with its 8 neighbours, no step heard, no door's opening
 * heard) and r reaches the goal on its last tick. */
int pt__solve_route_judged(solver *s, const pt_solve_result *r);
/* The earliest route over the gaits in mask, into out. */
int pt__solve_search_gaits(solver *s, const pt_solve_opts *o, const gait_clock *clk, const pt_sightmap *loud,
                           const pt_sightmap *const *unsafe, unsigned mask, pt_solve_result *out, pt_error *err);

/* solve_route.c */
/* The figures of a found route against the plain sight table; 0: no memory. */
int pt__solve_route_figures(pt_solve_result *r, const pt_sightmap *sm);

#endif
