#include <patrol/crowd.h>

#include <patrol/config.h>
#include <pthread.h>
#include <string.h>

int pt_crowd_init(pt_crowd *c, const pt_steer_env *env, pt_steer_agent *agents, int n, unsigned behaviours,
                  double view_radius, int threads) {
    memset(c, 0, sizeof *c);
    c->agents = agents;
    c->n = n;
    c->env = env;
    c->behaviours = behaviours;
    c->view_radius = view_radius > 0 ? view_radius : 2.5;
    c->threads = threads < 1 ? 1 : (threads > PT_CROWD_MAX_THREADS ? PT_CROWD_MAX_THREADS : threads);
    c->target = -1;
    c->forces = PT_CALLOC((size_t)(n > 0 ? n : 1), sizeof *c->forces);
    c->pos = PT_CALLOC((size_t)(n > 0 ? n : 1), sizeof *c->pos);
    int ok = c->forces && c->pos;
    for (int t = 0; t < c->threads && ok; t++) ok = (c->nb[t] = PT_MALLOC(sizeof(int) * PT_CROWD_NB_MAX)) != NULL;
    /* The cell space covers the map when there is one, else the agents' bounding box. */
    double x0 = 0, y0 = 0, w = 1, h = 1;
    if (env && env->map) {
        w = env->map->w;
        h = env->map->h;
    } else if (n > 0) {
        double x1 = agents[0].veh.pos.x, y1 = agents[0].veh.pos.y;
        x0 = x1;
        y0 = y1;
        for (int i = 1; i < n; i++) {
            pt_vec2 p = agents[i].veh.pos;
            x0 = p.x < x0 ? p.x : x0; y0 = p.y < y0 ? p.y : y0;
            x1 = p.x > x1 ? p.x : x1; y1 = p.y > y1 ? p.y : y1;
        }
        x0 -= 8; y0 -= 8;
        w = x1 - x0 + 16;
        h = y1 - y0 + 16;
    }
    if (ok) ok = pt_cellspace_init(&c->cs, x0, y0, w, h, c->view_radius) == PT_OK;
    if (!ok) {
        pt_crowd_fini(c);
        return PT_ERR_NOMEM;
    }
    return PT_OK;
}

void pt_crowd_fini(pt_crowd *c) {
    PT_FREE(c->forces);
    PT_FREE(c->pos);
    for (int t = 0; t < PT_CROWD_MAX_THREADS; t++) PT_FREE(c->nb[t]);
    if (c->cs.start) pt_cellspace_fini(&c->cs);
    memset(c, 0, sizeof *c);
}

typedef struct job {
    pt_crowd *c;
    int lo, hi, slot, brute, phase;
    double dt;
} job;

static void force_range(pt_crowd *c, int lo, int hi, int slot, int brute, double dt) {
    int *ids = c->nb[slot];
    double r2 = c->view_radius * c->view_radius;
    const pt_vehicle *tv = c->target >= 0 && c->target < c->n ? &c->agents[c->target].veh : NULL;
    for (int i = lo; i < hi; i++) {
        pt_steer_agent *a = &c->agents[i];
        int m = 0;
        if (brute) {
            for (int j = 0; j < c->n && m < PT_CROWD_NB_MAX; j++)
                if (j != i && pt_v2_dist2(c->pos[j], c->pos[i]) <= r2) ids[m++] = j;
        } else {
            /* The same first PT_CROWD_NB_MAX as pt_cellspace_query, without scanning a dense crowd. */
            int found = pt_cellspace_query_first(&c->cs, c->pos[i], c->view_radius, ids, PT_CROWD_NB_MAX);
            for (int k = 0; k < found; k++)
                if (ids[k] != i) ids[m++] = ids[k];
            /* Ascending ids, as brute force finds them: sums in the same order, same bits. */
            for (int k = 1; k < m; k++) {
                int v = ids[k], q = k - 1;
                while (q >= 0 && ids[q] > v) { ids[q + 1] = ids[q]; q--; }
                ids[q + 1] = v;
            }
        }
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        ctx.nb.agents = &c->agents[0].veh;
        ctx.nb.stride = sizeof(pt_steer_agent);
        ctx.nb.ids = ids;
        ctx.nb.count = m;
        ctx.nb.self = i;
        ctx.agent1 = tv && tv != &a->veh ? tv : NULL;
        ctx.target = tv ? tv->pos : c->target_point;
        a->behaviours = c->behaviours;
        c->forces[i] = pt_steer_calculate(a, &ctx);
    }
}

static void move_range(pt_crowd *c, int lo, int hi, double dt) {
    for (int i = lo; i < hi; i++) {
        pt_steer_agent *a = &c->agents[i];
        pt_steer_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.env = c->env;
        ctx.dt = dt;
        pt_steer_agent_update(a, &ctx, c->forces[i], dt);
        if (c->env) pt_steer_collide(c->env, &a->veh.pos, &a->veh.vel, a->veh.radius);
    }
}

static void *run_job(void *arg) {
    job *j = arg;
    if (j->phase == 0) force_range(j->c, j->lo, j->hi, j->slot, j->brute, j->dt);
    else move_range(j->c, j->lo, j->hi, j->dt);
    return NULL;
}

/* Runs one phase over all agents split into equal contiguous ranges. Neighbour ids are
 * sorted the same way whoever computes them, so results do not depend on the split. */
static void run_phase(pt_crowd *c, int phase, int brute, double dt) {
    int T = c->threads;
    if (T <= 1 || c->n < 2 * T) {
        job j = {c, 0, c->n, 0, brute, phase, dt};
        run_job(&j);
        return;
    }
    job jobs[PT_CROWD_MAX_THREADS];
    pthread_t tid[PT_CROWD_MAX_THREADS];
    int started[PT_CROWD_MAX_THREADS] = {0};
    for (int t = 0; t < T; t++) {
        jobs[t] = (job){c, (int)((long long)c->n * t / T), (int)((long long)c->n * (t + 1) / T), t, brute, phase, dt};
        if (t > 0) started[t] = pthread_create(&tid[t], NULL, run_job, &jobs[t]) == 0;
    }
    run_job(&jobs[0]);
    for (int t = 1; t < T; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else run_job(&jobs[t]); /* could not start a thread: do its share here */
    }
}

static void gather(pt_crowd *c) {
    for (int i = 0; i < c->n; i++) c->pos[i] = c->agents[i].veh.pos;
}

void pt_crowd_step(pt_crowd *c, double dt) {
    gather(c);
    pt_cellspace_rebuild(&c->cs, c->pos, sizeof *c->pos, c->n);
    run_phase(c, 0, 0, dt);
    run_phase(c, 1, 0, dt);
}

void pt_crowd_step_brute(pt_crowd *c, double dt) {
    gather(c);
    run_phase(c, 0, 1, dt);
    run_phase(c, 1, 1, dt);
}
