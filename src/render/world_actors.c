/* SPDX-License-Identifier: Zlib */
/* World -> actors. In its own file so that programs drawing only maps do not link the world. */
#include "render_internal.h"

#include <patrol/math.h>
#include <patrol/world.h>

#include <math.h>
#include <string.h>

int pt_render_actors_from_world(const pt_world *w, double alpha, pt_actor *out, int cap) {
    if (!w) return 0;
    int n = pt_world_count(w);
    double dt = pt_world_dt(w);
    double a = isfinite(alpha) ? pt_clamp(alpha, 0.0, 1.0) : 0.0;
    double now = ((double)pt_world_tick(w) + a) * dt;
    for (int i = 0; i < n && i < cap; i++) {
        const pt_entity *e = pt_world_entity(w, i);
        pt_actor *o = &out[i];
        memset(o, 0, sizeof *o);
        if (!e) { /* removed (spawn.h): an actor that draws nothing, not a player at 0,0 */
            o->kind = PT_KIND_COUNT;
            o->x = o->y = NAN;
            continue;
        }
        o->kind = e->kind;
        o->row = pt_render_row_for(e->kind, e->def ? e->def->flock_kind : PT_FLOCK_HOUND);
        o->state = (int)e->state;
        o->heading = e->heading;
        o->view_dist = e->view_dist;
        o->view_angle = e->view_angle;
        /* The bar is full when the guard gives chase (its chase_at threshold). */
        double chase_at = e->def && e->def->chase_at > 0 ? e->def->chase_at : 1.0;
        o->awareness = pt_clamp(e->awareness / chase_at, 0.0, 1.0);
        o->name = e->name;
        o->hidden = e->kind == PT_KIND_PLAYER && pt_world_player_hidden(w);
        o->has_eye = 1; /* guards see from px,py (senses/perceive.c) */
        o->eye_x = e->px;
        o->eye_y = e->py;
        if (e->path && e->path_len > 0) {
            o->path = e->path;
            o->path_len = e->path_len;
            o->path_idx = e->path_idx;
        }
        if (e->kind == PT_KIND_GUARD) {
            pt_memory mem[PT_MEMORY_COUNT];
            int nm = pt_world_guard_memory(w, i, mem, PT_MEMORY_COUNT);
            for (int k = 0; k < nm && k < PT_ACTOR_MEMORY; k++)
                o->memory[o->nmemory++] = (pt_memory_mark){(int)mem[k].kind, mem[k].px, mem[k].py, mem[k].certainty};
        }
        pt_vec2 at = pt_world_drawn_pos(w, i, a);
        o->x = at.x;
        o->y = at.y;
        if (e->motion == PT_MOTION_TILE) {
            o->moving = (e->prev_x != e->x || e->prev_y != e->y) && e->move_t < 1.0;
            o->walk = now * e->speed;
        } else {
            pt_vec2 vel = e->veh.vel; /* the world keeps it for every continuous mover */
            double sp = pt_v2_len(vel);
            o->moving = sp > 0.05;
            o->walk = now * sp;
            o->continuous = 1;
            o->vel_x = vel.x;
            o->vel_y = vel.y;
            o->radius = e->veh.radius;
            /* What the steering library used last tick: feelers and detection box when the
             * avoidance behaviours were on, the neighbourhood of flocks, the force. */
            const pt_steer_agent *ag = pt_world_agent(w, i);
            if (ag) {
                pt_vec2 tips[3];
                o->nfeelers = pt_world_feelers(w, i, tips);
                for (int k = 0; k < o->nfeelers && k < 3; k++) {
                    o->feeler_x[k] = tips[k].x;
                    o->feeler_y[k] = tips[k].y;
                }
                if (ag->behaviours & PT_BEH_BIT(PT_BEH_OBSTACLE_AVOIDANCE)) o->box_length = pt_steer_box_length(&e->veh, ag->params);
                if ((ag->behaviours & PT_BEH_FLOCKING) && ag->params) o->neighbour_radius = ag->params->view_radius;
                pt_vec2 f = pt_world_steer_force(w, i);
                o->force_x = f.x;
                o->force_y = f.y;
            }
        }
    }
    return n;
}

int pt_render_patterns_from_world(const pt_world *w, pt_actor *actors, int n, pt_cell *buf, int cap) {
    if (!w || !actors) return 0;
    const pt_map *m = pt_world_map(w);
    int used = 0, need = 0;
    if (n > pt_world_count(w)) n = pt_world_count(w);
    for (int i = 0; i < n; i++) {
        const pt_entity *e = pt_world_entity(w, i);
        pt_actor *a = &actors[i];
        a->pattern = NULL;
        a->pattern_len = 0;
        a->pattern_run = NULL;
        if (!e || !e->run.pat || e->kind == PT_KIND_PLAYER) continue;
        int room = buf && cap > used ? cap - used : 0;
        int k = pt_patrun_cells(&e->run, m, room ? buf + used : NULL, room);
        if (k <= 0) continue;
        need += k;
        if (k <= room) {
            a->pattern = buf + used;
            a->pattern_len = k;
            a->pattern_matrix = e->run.pat->kind == PT_PAT_MATRIX;
            a->pattern_run = &e->run;
            used += k;
        }
    }
    return need;
}
