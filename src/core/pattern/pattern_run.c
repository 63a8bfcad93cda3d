/* SPDX-License-Identifier: Zlib */
/* Pattern runners: path, matrix and control walkers on tiles, the thrust vehicle, and the
 * return-to-pattern support (cells of a pass, resume). Semantics: docs/formats.md. */
#include <patrol/bresenham.h>
#include <patrol/pattern.h>

#include <math.h>
#include <string.h>

#include "pattern/pattern_shared.h"
#include "pattern/pattern_step.h"

pt_cell pt__dir8(double heading_deg) {
    int k = pt__dir8_index(heading_deg);
    return (pt_cell){pt__dir_dx[k], pt__dir_dy[k]};
}

static int walkable(const pt_map *map, int x, int y) { return !map || pt_map_walkable(map, x, y); }

/* ---- path, matrix, control: the bodies of pattern_step.h on a pt_patrun ----------------- */

static pt_cell path_place(const pt_patrun *run, int i) {
    pt__path_walk w = pt__path_walk_of(run->pat);
    return pt__path_cell(&w, run->origin, i % run->pat->ncells);
}

static void face_move(pt_patrun *run, int nx, int ny) {
    if (nx != run->x || ny != run->y) run->heading = pt__move_heading(nx - run->x, ny - run->y);
}

/* Holds for the stop lk (a `look` instruction, or a path's stop) from now on. */
static void begin_stop(pt_patrun *run, int lk) {
    const pt_look *l = &run->pat->looks[lk];
    run->look = lk;
    run->hold_total = run->wait_ticks = l->wait + l->look;
    run->look_base = run->heading;
}

static pt_step_result path_step(pt_patrun *run, const pt_map *map) {
    pt__path_walk w = pt__path_walk_of(run->pat);
    pt__walkmap v = pt__walkmap_of(map);
    pt_cell to;
    int from = run->index;
    pt_step_result r = pt__path_step(&w, w.end, run->origin, (pt_cell){run->x, run->y}, &run->index, &run->dir,
                                     &run->done, &v, &to);
    if (r == PT_STEP_MOVED) {
        face_move(run, to.x, to.y);
        run->x = to.x;
        run->y = to.y;
    }
    if (run->index != from) { /* arrived at a cell of the walk: its stop and gait */
        const pt_pattern *p = run->pat;
        if (p->gait_of_cell && p->gait_of_cell[run->index % p->ncells] >= 0)
            run->gait = (uint8_t)p->gait_of_cell[run->index % p->ncells];
        int lk = pt__path_stop(p, run->index);
        if (lk >= 0) begin_stop(run, lk);
    }
    return r;
}

static int mat_on(const pt_patrun *run, int x, int y) {
    const pt_pattern *p = run->pat;
    int mx = x - run->origin.x + p->start_x, my = y - run->origin.y + p->start_y;
    return mx >= 0 && my >= 0 && mx < p->mw && my < p->mh && p->mat[(size_t)my * (size_t)p->mw + (size_t)mx];
}

static pt_step_result matrix_step(pt_patrun *run, const pt_map *map) {
    const pt_pattern *p = run->pat;
    int prev = 8;
    for (int k = 0; k < 8; k++)
        if (run->x + pt__dir_dx[k] == run->prev_x && run->y + pt__dir_dy[k] == run->prev_y) prev = k;
    unsigned on = pt__mat_neighbours(p, run->x - run->origin.x + p->start_x, run->y - run->origin.y + p->start_y);
    pt__walkmap v = pt__walkmap_of(map);
    int k = pt__mat_step(on, &v, run->x, run->y, prev, &run->rng.state, run->rng.inc);
    if (k < 0) return PT_STEP_WAITING;
    int nx = run->x + pt__dir_dx[k], ny = run->y + pt__dir_dy[k];
    run->prev_x = run->x;
    run->prev_y = run->y;
    face_move(run, nx, ny);
    run->x = nx;
    run->y = ny;
    return PT_STEP_MOVED;
}

pt_step_result pt__control_step(pt_patrun *run, const pt_map *map, pt_cell *target, int *blocked) {
    pt__ctl s = {run->heading_deg, run->x, run->y, run->index, run->sub, (uint8_t)(run->done != 0),
                 (uint8_t)pt__dir8_index(run->heading_deg), run->gait};
    pt__walkmap v = pt__walkmap_of(map);
    int wait, look, lap;
    pt_step_result r = pt__ctl_step(run->pat, &s, &v, &wait, &look, &lap, target, blocked);
    if (r == PT_STEP_DONE) return r;
    run->gait = s.gait;
    run->x = s.x;
    run->y = s.y;
    run->index = s.index;
    run->sub = s.sub;
    run->done = s.done;
    run->heading_deg = s.deg;
    if (wait >= 0) run->wait_ticks = wait;
    if (lap) {
        run->pass_x = run->x;
        run->pass_y = run->y;
        run->pass_heading_deg = run->heading_deg;
    }
    run->heading = pt_wrap_angle(pt_rad(run->heading_deg));
    if (look >= 0) begin_stop(run, look);
    return r;
}

/* The runner at the start of its current pass (for cells and resume). */
static pt_patrun control_pass_start(const pt_patrun *run) {
    pt_patrun r = *run;
    r.x = run->pass_x;
    r.y = run->pass_y;
    r.heading_deg = run->pass_heading_deg;
    r.heading = pt_wrap_angle(pt_rad(r.heading_deg));
    r.index = r.sub = r.done = r.wait_ticks = 0;
    r.look = -1;
    return r;
}

/* ---- thrust ---------------------------------------------------------------------------- */

pt_thrust_state pt__thrust_start(pt_cell origin, double heading) {
    pt_thrust_state s;
    memset(&s, 0, sizeof s);
    s.pos = pt_v2(origin.x + 0.5, origin.y + 0.5);
    s.angle = pt_wrap_angle(heading);
    s.start_pos = s.pos;
    s.ref_angle = s.angle;
    s.f = 1.0;
    return s;
}

static int limit_reached(const pt_thrust_instr *in, const pt_thrust_state *s) {
    return (in->limit_heading && s->dheading_deg >= in->heading_limit) ||
           (in->limit_position && s->dposition >= in->position_limit) ||
           (in->limit_time && s->elapsed >= in->time_limit - 1e-9);
}

/* Bourg's vehicle with a keel: forward thrust always on, the steering thrusters at the bow
 * give a torque, drag is linear along and across the body and on the rotation. Drag terms
 * are integrated implicitly (v / (1 + c dt)), so any positive parameters are stable. */
void pt__thrust_tick(const pt_pattern *p, const pt_thrust_body_params *b, pt_thrust_state *s, double dt,
                     int *lap_done) {
    *lap_done = 0;
    if (!(dt > 0.0) || !isfinite(dt)) return;
    const pt_thrust_instr *in = s->done ? NULL : &p->thr[s->index];
    double f = 1.0;
    if (in && in->limit_heading) f = fmax(0.05, 1.0 - s->dheading_deg / in->heading_limit);
    s->f = f;
    double torque = 0.0;
    if (in && in->thruster == PT_THRUST_PORT) torque = b->arm * b->turn_thrust * f;
    else if (in && in->thruster == PT_THRUST_STARBOARD) torque = -b->arm * b->turn_thrust * f;
    double thrust = s->done ? 0.0 : b->thrust;

    pt_vec2 fwd = pt_v2_from_angle(s->angle), side = pt_v2_perp(fwd);
    double vf = pt_v2_dot(s->vel, fwd), vs = pt_v2_dot(s->vel, side);
    vf = (vf + thrust / b->mass * dt) / (1.0 + b->drag / b->mass * dt);
    vs = vs / (1.0 + b->lateral_drag / b->mass * dt);
    s->vel = pt_v2_add(pt_v2_scale(fwd, vf), pt_v2_scale(side, vs));
    s->omega = (s->omega + torque / b->inertia * dt) / (1.0 + b->angular_drag / b->inertia * dt);
    s->angle = pt_wrap_angle(s->angle + s->omega * dt);
    s->pos = pt_v2_add(s->pos, pt_v2_scale(s->vel, dt));
    s->elapsed += dt;

    /* Heading change: angle between unit vectors, acos clamped (never NaN). */
    s->dheading_deg = pt_deg(pt_acos(pt_v2_dot(pt_v2_from_angle(s->ref_angle), pt_v2_from_angle(s->angle))));
    s->dposition = pt_v2_dist(s->pos, s->start_pos);
    if (!in || !limit_reached(in, s)) return;
    if (++s->index >= p->nthr) {
        if (p->end == PT_END_STOP) {
            s->index = p->nthr - 1;
            s->done = 1;
        } else {
            s->index = 0;
        }
        *lap_done = 1;
    }
    if (in->limit_heading)
        s->ref_angle = pt_wrap_angle(s->ref_angle + (in->thruster == PT_THRUST_PORT ? 1.0 : -1.0) * pt_rad(in->heading_limit));
    else if (in->thruster != PT_THRUST_NONE)
        s->ref_angle = s->angle;
    s->start_pos = s->pos;
    s->elapsed = s->dheading_deg = s->dposition = 0.0;
}

static void thrust_sync(pt_patrun *run) {
    run->x = pt__cell_floor(run->thrust.pos.x);
    run->y = pt__cell_floor(run->thrust.pos.y);
    run->heading = run->thrust.angle;
}

void pt_patrun_thrust_tick(pt_patrun *run, double dt) {
    if (!run->pat || run->pat->kind != PT_PAT_THRUST) return;
    if (dt > 0.0 && isfinite(dt)) run->dt = dt;
    int lap = 0;
    pt__thrust_tick(run->pat, &run->body, &run->thrust, dt, &lap);
    if (lap) run->lap = run->thrust;
    thrust_sync(run);
}

/* Ticks of a thrust lap simulation: bounded by PT_THRUST_LAP_SECONDS, and by the lap of a
 * 1 kHz tick (a runner ticked with dt = 1e-12 must not make pt_patrun_cells loop 6e14 times). */
static long lap_ticks(double dt) {
    double n = ceil(PT_THRUST_LAP_SECONDS / dt);
    return n < PT_THRUST_LAP_SECONDS * 1000.0 ? (long)n : (long)(PT_THRUST_LAP_SECONDS * 1000.0);
}

/* ---- init, step, hold ----------------------------------------------------------------------- */

void pt_patrun_init(pt_patrun *run, const pt_pattern *pat, pt_cell origin, pt_cell start, double heading,
                    uint64_t seed, uint32_t entity_id) {
    memset(run, 0, sizeof *run);
    run->pat = pat;
    run->origin = origin;
    run->dir = 1;
    run->prev_x = run->prev_y = -1;
    run->heading = isfinite(heading) ? heading : 0.0;
    run->dt = PT_THRUST_DEFAULT_DT;
    run->look = -1;
    pt_rng_seed(&run->rng, seed, entity_id);
    run->x = start.x;
    run->y = start.y;
    if (!pat) return;
    run->gait = pat->gait;
    switch (pat->kind) {
    case PT_PAT_PATH: {
        int at = 0;
        for (int i = 0; i < pat->ncells; i++) {
            pt_cell c = path_place(run, i);
            if (c.x == start.x && c.y == start.y) {
                at = i;
                break;
            }
        }
        pt_cell c = path_place(run, at);
        run->index = at;
        run->x = c.x;
        run->y = c.y;
        break;
    }
    case PT_PAT_MATRIX:
        if (!mat_on(run, start.x, start.y)) {
            run->x = origin.x;
            run->y = origin.y;
        }
        break;
    case PT_PAT_CONTROL:
        run->x = run->pass_x = origin.x;
        run->y = run->pass_y = origin.y;
        /* Rounded to 1e-6 degrees: a heading that went through radians (22.4999999...)
         * must still meet the documented tie rule. */
        run->heading_deg = pt__norm_deg(round((pat->has_heading ? pat->heading_deg : pt_deg(run->heading)) * 1e6) / 1e6);
        run->pass_heading_deg = run->heading_deg;
        run->heading = pt_wrap_angle(pt_rad(run->heading_deg));
        break;
    case PT_PAT_THRUST:
        run->body = pt_thrust_body_resolve(pat->body);
        run->thrust = run->lap = pt__thrust_start(origin, pat->has_heading ? pt_rad(pat->heading_deg) : run->heading);
        thrust_sync(run);
        break;
    case PT_PAT_WAYPOINTS: /* the world steers along the route */
    case PT_PAT_KIND_COUNT: break;
    }
}

pt_step_result pt_patrun_step(pt_patrun *run, const pt_map *map, int *x, int *y, double *heading) {
    pt_step_result r = PT_STEP_WAITING;
    run->look = -1;
    if (run->pat) {
        switch (run->pat->kind) {
        case PT_PAT_PATH: r = path_step(run, map); break;
        case PT_PAT_MATRIX: r = matrix_step(run, map); break;
        case PT_PAT_CONTROL: {
            pt_cell t;
            int blocked;
            r = pt__control_step(run, map, &t, &blocked);
            break;
        }
        case PT_PAT_THRUST: /* pt_patrun_thrust_tick */
        case PT_PAT_WAYPOINTS:
        case PT_PAT_KIND_COUNT: break;
        }
    }
    if (x) *x = run->x;
    if (y) *y = run->y;
    if (heading) *heading = run->heading;
    return r;
}

int pt_patrun_hold_tick(pt_patrun *run) {
    if (run->wait_ticks <= 0) {
        run->look = -1;
        return 0;
    }
    run->wait_ticks--;
    if (run->look >= 0)
        run->heading = pt_look_heading(&run->pat->looks[run->look], run->look_base, run->hold_total - run->wait_ticks);
    return 1;
}

int pt_patrun_looking(const pt_patrun *run) { return run->look >= 0; }

pt_gait pt_patrun_gait(const pt_patrun *run) { return run->gait < PT_GAIT_COUNT ? (pt_gait)run->gait : PT_GAIT_WALK; }

/* The sweep goes through the angles at one constant rate: the leg from one angle to the next
 * takes its share of the look's ticks by its size, so the facing never jumps. */
double pt_look_heading(const pt_look *lk, double base, int j) {
    if (!lk || lk->look <= 0 || lk->nangles <= 0) return base;
    int u = j - lk->wait;
    if (u <= 0 || u >= lk->look) return base;
    int n = lk->nangles > PT_MAX_LOOK_ANGLES ? PT_MAX_LOOK_ANGLES : lk->nangles;
    double total = 0.0, prev = 0.0;
    for (int i = 0; i <= n; i++) {
        double next = i < n ? lk->angles[i] : 0.0;
        total += fabs(next - prev);
        prev = next;
    }
    if (!(total > 0.0)) return base;
    double s = total * (double)u / (double)lk->look, off = 0.0;
    prev = 0.0;
    for (int i = 0; i <= n; i++) {
        double next = i < n ? lk->angles[i] : 0.0, leg = fabs(next - prev);
        if (s <= leg) {
            off = leg > 0.0 ? prev + (next - prev) * (s / leg) : prev;
            break;
        }
        s -= leg;
        prev = next;
    }
    return pt_wrap_angle(base + pt_rad(off));
}

/* ---- cells and resume ------------------------------------------------------------------------ */

typedef struct emitter {
    pt_cell *out;
    int max, n, has_last;
    pt_cell last;
    const pt_map *map;
} emitter;

static void emit(emitter *e, pt_cell c) {
    if (e->has_last && e->last.x == c.x && e->last.y == c.y) return;
    e->has_last = 1;
    e->last = c;
    if (!walkable(e->map, c.x, c.y)) return;
    if (e->n < e->max && e->out) e->out[e->n] = c;
    e->n++;
}

static pt_cell cell_of(pt_vec2 p) { return (pt_cell){pt__cell_floor(p.x), pt__cell_floor(p.y)}; }

static void waypoint_cells(const pt_patrun *run, emitter *e, int *seg_found, pt_cell want) {
    const pt_pattern *p = run->pat;
    int nseg = p->closed ? p->nverts : p->nverts - 1;
    for (int i = 0; i < nseg; i++) {
        pt_cell a = cell_of(pt__wp_place(p, run->origin, i)), b = cell_of(pt__wp_place(p, run->origin, (i + 1) % p->nverts));
        pt_line_iter it;
        pt_line_iter_init(&it, a.x, a.y, b.x, b.y);
        do {
            if (e) emit(e, (pt_cell){it.x, it.y});
            if (seg_found && it.x == want.x && it.y == want.y) {
                *seg_found = i;
                return;
            }
        } while (pt_line_iter_next(&it));
    }
}

int pt_patrun_cells(const pt_patrun *run, const pt_map *map, pt_cell *out, int max) {
    const pt_pattern *p = run->pat;
    emitter e = {out, max < 0 ? 0 : max, 0, 0, {0, 0}, map};
    if (!p) return 0;
    switch (p->kind) {
    case PT_PAT_PATH:
        for (int i = 0; i < p->ncells; i++) emit(&e, path_place(run, i));
        break;
    case PT_PAT_MATRIX:
        for (int my = 0; my < p->mh; my++)
            for (int mx = 0; mx < p->mw; mx++)
                if (p->mat[(size_t)my * (size_t)p->mw + (size_t)mx]) emit(&e, pt__mat_place(p, run->origin, mx, my));
        break;
    case PT_PAT_CONTROL: {
        pt_patrun r = control_pass_start(run);
        emit(&e, (pt_cell){r.x, r.y});
        for (int a = 0; a < p->actions && !r.done; a++) {
            pt_cell t;
            int blocked;
            pt__control_step(&r, map, &t, &blocked);
            emit(&e, (pt_cell){r.x, r.y});
        }
        break;
    }
    case PT_PAT_THRUST: {
        pt_thrust_state s = run->lap;
        emit(&e, cell_of(s.pos));
        long n = lap_ticks(run->dt);
        for (long i = 0; i < n; i++) {
            int lap = 0;
            pt__thrust_tick(p, &run->body, &s, run->dt, &lap);
            emit(&e, cell_of(s.pos));
            if (lap) break;
        }
        break;
    }
    case PT_PAT_WAYPOINTS: waypoint_cells(run, &e, NULL, (pt_cell){0, 0}); break;
    case PT_PAT_KIND_COUNT: break;
    }
    return e.n;
}

int pt_patrun_resume_at(pt_patrun *run, const pt_map *map, int x, int y) {
    const pt_pattern *p = run->pat;
    if (!p) return 0;
    switch (p->kind) {
    case PT_PAT_PATH:
        for (int i = 0; i < p->ncells; i++) {
            pt_cell c = path_place(run, i);
            if (c.x == x && c.y == y) {
                run->index = i;
                run->done = 0;
                run->wait_ticks = 0;
                run->look = -1;
                run->x = x;
                run->y = y;
                return 1;
            }
        }
        return 0;
    case PT_PAT_MATRIX:
        if (!mat_on(run, x, y)) return 0;
        run->x = x;
        run->y = y;
        run->prev_x = run->prev_y = -1;
        return 1;
    case PT_PAT_CONTROL: {
        pt_patrun r = control_pass_start(run);
        for (int a = 0; a <= p->actions; a++) {
            if (r.x == x && r.y == y) {
                r.wait_ticks = 0;
                r.look = -1;
                *run = r;
                return 1;
            }
            if (a == p->actions || r.done) break;
            pt_cell t;
            int blocked;
            pt__control_step(&r, map, &t, &blocked);
        }
        return 0;
    }
    case PT_PAT_THRUST: {
        pt_thrust_state s = run->lap;
        long n = lap_ticks(run->dt);
        for (long i = 0; i <= n; i++) {
            pt_cell c = cell_of(s.pos);
            if (c.x == x && c.y == y) {
                run->thrust = s;
                thrust_sync(run);
                return 1;
            }
            int lap = 0;
            pt__thrust_tick(p, &run->body, &s, run->dt, &lap);
            if (lap && i > 0) break;
        }
        return 0;
    }
    case PT_PAT_WAYPOINTS: {
        int seg = -1;
        waypoint_cells(run, NULL, &seg, (pt_cell){x, y});
        if (seg < 0) return 0;
        run->wp_index = (seg + 1) % p->nverts;
        run->x = x;
        run->y = y;
        return 1;
    }
    case PT_PAT_KIND_COUNT: break;
    }
    return 0;
}

int pt_patrun_stops(const pt_patrun *run, const pt_map *map, pt_pattern_stop *out, int max) {
    const pt_pattern *p = run->pat;
    int n = 0;
    if (!p) return 0;
    if (p->kind == PT_PAT_PATH && p->look_of_cell) {
        int cyclic = p->end == PT_END_LOOP || p->end == PT_END_RESTART || p->closed;
        for (int i = 0; i < p->ncells; i++) {
            int lk = p->look_of_cell[i], g = p->gait_of_cell[i];
            if (lk < 0 && g < 0) continue;
            /* Arriving forward: from the cell before it; cell 0 from the last (a loop) or,
             * coming back on a reverse walk, from cell 1. */
            int from = i > 0 ? i - 1 : cyclic ? p->ncells - 1 : 1 % p->ncells;
            pt_cell c = path_place(run, i), b = path_place(run, from);
            double h = c.x == b.x && c.y == b.y ? run->heading : pt__move_heading(c.x - b.x, c.y - b.y);
            if (n < max && out) out[n] = (pt_pattern_stop){c, h, lk >= 0 ? &p->looks[lk] : NULL, g};
            n++;
        }
    } else if (p->kind == PT_PAT_CONTROL) {
        pt_patrun r = control_pass_start(run);
        for (int a = 0; a < p->actions && !r.done; a++) {
            pt_cell t;
            int blocked;
            r.look = -1;
            pt__control_step(&r, map, &t, &blocked);
            if (r.look < 0) continue;
            if (n < max && out) out[n] = (pt_pattern_stop){{r.x, r.y}, r.heading, &p->looks[r.look], -1};
            n++;
        }
    }
    return n;
}

int pt_patrun_waypoint_count(const pt_patrun *run) {
    return run->pat && run->pat->kind == PT_PAT_WAYPOINTS ? run->pat->nverts : 0;
}

pt_vec2 pt_patrun_waypoint(const pt_patrun *run, int i) {
    int n = pt_patrun_waypoint_count(run);
    if (n == 0) return pt_v2(0.0, 0.0);
    return pt__wp_place(run->pat, run->origin, ((i % n) + n) % n);
}
