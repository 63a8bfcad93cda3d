/* SPDX-License-Identifier: Zlib */
/* Steering parameters: the defaults (one table, one resolve function), behaviour names, and
 * the .steer file parser (docs/formats.md, "Steering parameters"). */
#include <patrol/steer.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/error_at.h"
#include "base/suggest.h"
#include "base/text.h"

/* The behaviours that produce a force, in enum order, with their file names. */
#define PT__FORCE_BEHAVIOURS(X)                                                               \
    X(CONTAINMENT, containment) X(WALL_AVOIDANCE, wall_avoidance)                            \
    X(OBSTACLE_AVOIDANCE, obstacle_avoidance) X(EVADE, evade) X(FLEE, flee)                   \
    X(SEPARATION, separation) X(ALIGNMENT, alignment) X(COHESION, cohesion) X(SEEK, seek)      \
    X(ARRIVE, arrive) X(WANDER, wander) X(PURSUIT, pursuit) X(INTERCEPT, intercept)           \
    X(OFFSET_PURSUIT, offset_pursuit) X(INTERPOSE, interpose) X(HIDE, hide)                   \
    X(FOLLOW_PATH, follow_path) X(FOLLOW_CORRIDOR, follow_corridor)

static const char *const beh_names[PT_BEH_COUNT + 1] = {
#define PT__NAME(E, n) [PT_BEH_##E] = #n,
    PT__FORCE_BEHAVIOURS(PT__NAME)
#undef PT__NAME
    [PT_BEH_FACE] = "face",
    [PT_BEH_COUNT] = NULL,
};

const char *pt_behaviour_name(pt_behaviour b) {
    return (unsigned)b < PT_BEH_COUNT ? beh_names[b] : "unknown";
}

int pt_behaviour_from_name(const char *name) {
    for (int i = 0; i < PT_BEH_COUNT; i++)
        if (name && strcmp(name, beh_names[i]) == 0) return i;
    return -1;
}

static const char *const combiner_names[] = {"weighted", "prioritised", "dithered", NULL};

const char *pt_combiner_name(pt_combiner c) {
    if (c == PT_COMBINE_DEFAULT) c = PT_COMBINE_PRIORITISED;
    return c > PT_COMBINE_DEFAULT && c < PT_COMBINE_COUNT ? combiner_names[c - 1] : "unknown";
}

/* ---- defaults ------------------------------------------------------------------------ */

/* The one table of defaults (docs/steering.md explains each). Tile scale: agents of radius
 * ~0.35 tiles at 3-5 tiles/s with a 1/60 s tick. Weights multiply raw outputs: velocity
 * errors (tiles/s) for the seek family, tiles for the geometric ones. */
static const pt_steer_params k_defaults = {
    .weight = {
        [PT_BEH_CONTAINMENT] = 40.0,
        [PT_BEH_WALL_AVOIDANCE] = 20.0,
        [PT_BEH_OBSTACLE_AVOIDANCE] = 20.0,
        [PT_BEH_EVADE] = 10.0,
        [PT_BEH_FLEE] = 10.0,
        [PT_BEH_SEPARATION] = 1.5,
        [PT_BEH_ALIGNMENT] = 12.0,
        [PT_BEH_COHESION] = 8.0,
        [PT_BEH_SEEK] = 10.0,
        [PT_BEH_ARRIVE] = 10.0,
        [PT_BEH_WANDER] = 2.0,
        [PT_BEH_PURSUIT] = 10.0,
        [PT_BEH_INTERCEPT] = 10.0,
        [PT_BEH_OFFSET_PURSUIT] = 10.0,
        [PT_BEH_INTERPOSE] = 10.0,
        [PT_BEH_HIDE] = 10.0,
        [PT_BEH_FOLLOW_PATH] = 10.0,
        [PT_BEH_FOLLOW_CORRIDOR] = 10.0,
        [PT_BEH_FACE] = 1.0,
    },
    .probability = {
        [PT_BEH_CONTAINMENT] = 0.5,
        [PT_BEH_WALL_AVOIDANCE] = 0.5,
        [PT_BEH_OBSTACLE_AVOIDANCE] = 0.5,
        [PT_BEH_EVADE] = 1.0,
        [PT_BEH_FLEE] = 0.6,
        [PT_BEH_SEPARATION] = 0.2,
        [PT_BEH_ALIGNMENT] = 0.3,
        [PT_BEH_COHESION] = 0.6,
        [PT_BEH_SEEK] = 0.8,
        [PT_BEH_ARRIVE] = 0.5,
        [PT_BEH_WANDER] = 0.8,
        [PT_BEH_PURSUIT] = 0.8,
        [PT_BEH_INTERCEPT] = 0.8,
        [PT_BEH_OFFSET_PURSUIT] = 0.8,
        [PT_BEH_INTERPOSE] = 0.8,
        [PT_BEH_HIDE] = 0.8,
        [PT_BEH_FOLLOW_PATH] = 0.8,
        [PT_BEH_FOLLOW_CORRIDOR] = 0.8,
        [PT_BEH_FACE] = 1.0,
    },
    .combiner = PT_COMBINE_PRIORITISED,
    .behaviours = 0,
    .deceleration = PT_DECEL_NORMAL,
    .decel_tweak = 0.3,
    .panic_distance = 4.0,
    .threat_range = 5.0,
    .facing_angle = 18.0 * (PT_PI / 180.0),
    .turn_around_time = 0.5,
    .wander_radius = 0.6,
    .wander_distance = 1.2,
    .wander_jitter = 4.0,
    .box_length = 1.5,
    .braking_weight = 0.2,
    .feeler_length = 1.5,
    .side_feeler_length = 0.7,
    .feeler_angle = 45.0 * (PT_PI / 180.0),
    .hide_distance = 0.6,
    .waypoint_distance = 0.5,
    .path_predict = 0.4,
    .path_ahead = 0.8,
    .path_radius = 0.5,
    .view_radius = 4.0,
    .containment_lookahead = 0.3,
    .containment_margin = 0.2,
};

const pt_steer_params *pt_steer_params_builtin(void) { return &k_defaults; }

#define DEF(field) \
    if (!(p->field > 0)) p->field = k_defaults.field

void pt_steer_params_resolve(pt_steer_params *p) {
    for (int b = 0; b < PT_BEH_COUNT; b++) {
        if (!(p->weight[b] > 0)) p->weight[b] = k_defaults.weight[b];
        if (!(p->probability[b] > 0)) p->probability[b] = k_defaults.probability[b];
        if (p->probability[b] > 1) p->probability[b] = 1;
    }
    if (p->combiner <= PT_COMBINE_DEFAULT || p->combiner >= PT_COMBINE_COUNT) p->combiner = k_defaults.combiner;
    if (p->deceleration < PT_DECEL_FAST || p->deceleration > PT_DECEL_SLOW) p->deceleration = k_defaults.deceleration;
    p->behaviours &= (1u << PT_BEH_COUNT) - 1u;
    DEF(decel_tweak);
    DEF(panic_distance);
    DEF(threat_range);
    DEF(facing_angle);
    DEF(turn_around_time);
    DEF(wander_radius);
    DEF(wander_distance);
    DEF(wander_jitter);
    DEF(box_length);
    DEF(braking_weight);
    DEF(feeler_length);
    DEF(side_feeler_length);
    DEF(feeler_angle);
    DEF(hide_distance);
    DEF(waypoint_distance);
    DEF(path_predict);
    DEF(path_ahead);
    DEF(path_radius);
    DEF(view_radius);
    DEF(containment_lookahead);
    DEF(containment_margin);
    /* Vehicle overrides stay 0 ("keep the vehicle's value"); negatives become 0. */
    if (!(p->mass > 0)) p->mass = 0;
    if (!(p->max_speed > 0)) p->max_speed = 0;
    if (!(p->max_force > 0)) p->max_force = 0;
    if (!(p->max_turn_rate > 0)) p->max_turn_rate = 0;
    if (!(p->radius > 0)) p->radius = 0;
    if (!(p->smooth_time > 0)) p->smooth_time = 0;
}

void pt_steer_params_default(pt_steer_params *p) {
    memset(p, 0, sizeof *p);
    pt_steer_params_resolve(p);
}

void pt_steer_params_apply(const pt_steer_params *p, pt_vehicle *v) {
    if (p->mass > 0) v->mass = p->mass;
    if (p->max_speed > 0) v->max_speed = p->max_speed;
    if (p->max_force > 0) v->max_force = p->max_force;
    if (p->max_turn_rate > 0) v->max_turn_rate = p->max_turn_rate;
    if (p->radius > 0) v->radius = p->radius;
    if (p->smooth_time > 0) v->smooth_time = p->smooth_time;
}

/* ---- .steer keys --------------------------------------------------------------------- */

typedef enum { K_NUM, K_DEG, K_COMBINER, K_DECEL, K_BEHAVIOURS } key_kind;

typedef struct key_def {
    const char *name;
    key_kind kind;
    size_t off;
    double lo, hi; /* as written in the file (degrees for K_DEG) */
} key_def;

#define P_OFF(f) offsetof(pt_steer_params, f)
#define W_OFF(E) (P_OFF(weight) + sizeof(double) * (size_t)PT_BEH_##E)
#define PR_OFF(E) (P_OFF(probability) + sizeof(double) * (size_t)PT_BEH_##E)
#define SMALL 1e-6

static const key_def keys[] = {
#define PT__WKEY(E, n) {#n "_weight", K_NUM, W_OFF(E), SMALL, 1e6},
    PT__FORCE_BEHAVIOURS(PT__WKEY)
#undef PT__WKEY
#define PT__PKEY(E, n) {#n "_probability", K_NUM, PR_OFF(E), SMALL, 1.0},
    PT__FORCE_BEHAVIOURS(PT__PKEY)
#undef PT__PKEY
    {"combiner", K_COMBINER, P_OFF(combiner), 0, 0},
    {"behaviours", K_BEHAVIOURS, P_OFF(behaviours), 0, 0},
    {"deceleration", K_DECEL, P_OFF(deceleration), 0, 0},
    {"decel_tweak", K_NUM, P_OFF(decel_tweak), SMALL, 100},
    {"panic_distance", K_NUM, P_OFF(panic_distance), SMALL, 1e4},
    {"threat_range", K_NUM, P_OFF(threat_range), SMALL, 1e4},
    {"facing_angle", K_DEG, P_OFF(facing_angle), SMALL, 90},
    {"turn_around_time", K_NUM, P_OFF(turn_around_time), SMALL, 100},
    {"wander_radius", K_NUM, P_OFF(wander_radius), SMALL, 100},
    {"wander_distance", K_NUM, P_OFF(wander_distance), SMALL, 100},
    {"wander_jitter", K_NUM, P_OFF(wander_jitter), SMALL, 1e4},
    {"box_length", K_NUM, P_OFF(box_length), SMALL, 100},
    {"braking_weight", K_NUM, P_OFF(braking_weight), SMALL, 100},
    {"feeler_length", K_NUM, P_OFF(feeler_length), SMALL, 100},
    {"side_feeler_length", K_NUM, P_OFF(side_feeler_length), SMALL, 100},
    {"feeler_angle", K_DEG, P_OFF(feeler_angle), SMALL, 180},
    {"hide_distance", K_NUM, P_OFF(hide_distance), SMALL, 100},
    {"waypoint_distance", K_NUM, P_OFF(waypoint_distance), SMALL, 100},
    {"path_predict", K_NUM, P_OFF(path_predict), SMALL, 100},
    {"path_ahead", K_NUM, P_OFF(path_ahead), SMALL, 100},
    {"path_radius", K_NUM, P_OFF(path_radius), SMALL, 100},
    {"view_radius", K_NUM, P_OFF(view_radius), SMALL, 100},
    {"containment_lookahead", K_NUM, P_OFF(containment_lookahead), SMALL, 100},
    {"containment_margin", K_NUM, P_OFF(containment_margin), SMALL, 100},
    {"mass", K_NUM, P_OFF(mass), SMALL, 1e6},
    {"max_speed", K_NUM, P_OFF(max_speed), SMALL, 1e3},
    {"max_force", K_NUM, P_OFF(max_force), SMALL, 1e6},
    {"max_turn_rate", K_DEG, P_OFF(max_turn_rate), SMALL, 1e5},
    {"radius", K_NUM, P_OFF(radius), SMALL, 16},
    {"smooth_time", K_NUM, P_OFF(smooth_time), SMALL, 100},
};

enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };
_Static_assert(NKEYS <= 128, "pt_steer_set.given holds 128 bits");

static int key_find(const pt__tok *t) {
    for (int i = 0; i < NKEYS; i++)
        if (pt__tok_eq(t, keys[i].name)) return i;
    return -1;
}

/* "; did you mean 'KEY'?" when t is a typo of a key, else "". */
static const char *key_hint(const pt__tok *t, char *buf, size_t cap) {
    pt__suggest sg;
    pt__suggest_init(&sg, t->s, (size_t)t->len);
    for (int i = 0; i < NKEYS; i++) pt__suggest_add(&sg, keys[i].name);
    return pt__suggest_hint(&sg, NULL, buf, cap);
}

static inline int given(const pt_steer_set *s, int k) { return (int)((s->given[k >> 6] >> (k & 63)) & 1u); }
static inline void set_given(pt_steer_set *s, int k) { s->given[k >> 6] |= (uint64_t)1 << (k & 63); }

static void copy_key(pt_steer_params *dst, const pt_steer_params *src, int k) {
    size_t size = keys[k].kind == K_NUM || keys[k].kind == K_DEG ? sizeof(double)
                : keys[k].kind == K_BEHAVIOURS                  ? sizeof(unsigned)
                : keys[k].kind == K_COMBINER                    ? sizeof(pt_combiner)
                                                                : sizeof(pt_decel);
    memcpy((char *)dst + keys[k].off, (const char *)src + keys[k].off, size);
}

/* ---- files --------------------------------------------------------------------------- */

void pt_steer_file_init(pt_steer_file *f) { memset(f, 0, sizeof *f); }

void pt_steer_file_fini(pt_steer_file *f) {
    if (!f) return;
    PT_FREE(f->sets);
    memset(f, 0, sizeof *f);
}

static int find_block(const pt_steer_set *sets, int count, const char *name, int entity) {
    for (int i = 0; i < count; i++)
        if (sets[i].is_entity == entity && strcmp(sets[i].name, name) == 0) return i;
    return -1;
}

int pt_steer_file_has_set(const pt_steer_file *f, const char *name) {
    if (!name) return 0;
    if (strcmp(name, "default") == 0) return 1;
    return f && find_block(f->sets, f->count, name, 0) >= 0;
}

static int parse_value(pt_steer_set *s, int k, const pt__line *ln, int first, pt_error *err) {
    const key_def *kd = &keys[k];
    char *field = (char *)&s->values + kd->off;
    const pt__tok *v = &ln->tok[first];
    if (kd->kind == K_BEHAVIOURS) {
        unsigned bits = 0;
        for (int i = first; i < ln->ntok; i++) {
            const pt__tok *t = &ln->tok[i];
            if (pt__tok_eq(t, "flocking")) {
                bits |= PT_BEH_FLOCKING;
                continue;
            }
            int b = -1;
            for (int j = 0; j < PT_BEH_COUNT; j++)
                if (pt__tok_eq(t, beh_names[j])) b = j;
            if (b < 0) {
                pt__suggest sg;
                char hint[96];
                pt__suggest_init(&sg, t->s, (size_t)t->len);
                pt__suggest_add(&sg, "flocking");
                for (int j = 0; j < PT_BEH_COUNT; j++) pt__suggest_add(&sg, beh_names[j]);
                return pt_error_set(err, PT_ERR_BAD_VALUE, ln->no, t->col, "unknown behaviour '%.*s'%s",
                                    t->len > 40 ? 40 : t->len, t->s, pt__suggest_hint(&sg, NULL, hint, sizeof hint));
            }
            bits |= PT_BEH_BIT(b);
        }
        memcpy(field, &bits, sizeof bits);
        return PT_OK;
    }
    if (ln->ntok > first + 1)
        return pt_error_set(err, PT_ERR_SYNTAX, ln->no, ln->tok[first + 1].col, "'%s' takes one value", kd->name);
    int rc, choice = 0;
    double d = 0;
    switch (kd->kind) {
    case K_NUM:
        if ((rc = pt__tok_num(v, ln->no, kd->lo, kd->hi, &d, err)) < 0) return rc;
        memcpy(field, &d, sizeof d);
        break;
    case K_DEG:
        if ((rc = pt__tok_num(v, ln->no, kd->lo, kd->hi, &d, err)) < 0) return rc;
        d = pt_rad(d);
        memcpy(field, &d, sizeof d);
        break;
    case K_COMBINER: {
        if ((rc = pt__tok_choice(v, ln->no, combiner_names, &choice, err)) < 0) return rc;
        pt_combiner c = (pt_combiner)(choice + 1);
        memcpy(field, &c, sizeof c);
        break;
    }
    case K_DECEL: {
        static const char *const decels[] = {"fast", "normal", "slow", NULL};
        if ((rc = pt__tok_choice(v, ln->no, decels, &choice, err)) < 0) return rc;
        pt_decel dc = (pt_decel)(choice + 1);
        memcpy(field, &dc, sizeof dc);
        break;
    }
    case K_BEHAVIOURS: break;
    }
    return PT_OK;
}

/* Checks `from` references: each names a set (entities may not be bases), and no chain
 * loops; fills base_slot. Linear after the name look-ups: a file of 1024 sets chained one to
 * the next used to take a second here (every set walked its whole chain by name). */
static int check_bases(pt_steer_set *sets, int count, pt_error *err) {
    for (int i = 0; i < count; i++) {
        pt_steer_set *s = &sets[i];
        s->base_slot = 0;
        if (!s->base[0] || strcmp(s->base, "default") == 0) continue;
        int b = find_block(sets, count, s->base, 0);
        if (b < 0) {
            pt__suggest sg;
            char hint[96];
            pt__suggest_init(&sg, s->base, strlen(s->base));
            pt__suggest_add(&sg, "default");
            for (int j = 0; j < count; j++)
                if (!sets[j].is_entity) pt__suggest_add(&sg, sets[j].name);
            return pt_error_set(err, PT_ERR_BAD_VALUE, s->line, s->base_col, "unknown set '%s'%s", s->base,
                                pt__suggest_hint(&sg, NULL, hint, sizeof hint));
        }
        s->base_slot = b + 1;
    }
    /* Each set has at most one base: walk each chain once, colouring sets (0 new, 1 on the
     * walk in progress, 2 done); meeting a set of the current walk closes a loop. The first
     * set in file order that lies on a loop is reported. */
    int *mark = PT_CALLOC((size_t)(count > 0 ? count : 1), sizeof *mark);
    if (!mark) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory");
    int first_loop = -1;
    for (int i = 0; i < count; i++) {
        int cur = i;
        while (cur >= 0 && mark[cur] == 0) {
            mark[cur] = 1;
            cur = sets[cur].base_slot - 1;
        }
        if (cur >= 0 && mark[cur] == 1) { /* a loop through cur: its members are the sets from cur on */
            int k = cur;
            do {
                if (first_loop < 0 || k < first_loop) first_loop = k;
                mark[k] = 3;
                k = sets[k].base_slot - 1;
            } while (k != cur);
        }
        for (cur = i; cur >= 0 && mark[cur] == 1; cur = sets[cur].base_slot - 1) mark[cur] = 2;
    }
    PT_FREE(mark);
    if (first_loop >= 0)
        return pt_error_set(err, PT_ERR_BAD_VALUE, sets[first_loop].line, sets[first_loop].base_col,
                            "set '%s' is its own base through 'from'", sets[first_loop].name);
    return PT_OK;
}

static int parse_text(const pt__text *t, pt_steer_set **out_sets, int *out_count, pt_error *err) {
    pt__reader r;
    pt__reader_init(&r, t);
    pt__line ln;
    pt_steer_set *sets = NULL;
    int count = 0, cap = 0, open = -1, rc = PT_OK;
    while ((rc = pt__reader_next(&r, &ln, err)) > 0) {
        if ((rc = pt__line_tokenize(&ln, err)) < 0) goto fail;
        if (ln.ntok == 0) continue;
        const pt__tok *t0 = &ln.tok[0];
        int is_set = pt__tok_eq(t0, "set"), is_entity = pt__tok_eq(t0, "entity");
        if (open < 0) {
            if (!is_set && !is_entity) {
                pt__tok kk, kv;
                int known = key_find(t0) >= 0 || (pt__tok_kv(t0, &kk, &kv) && key_find(&kk) >= 0);
                if (pt__tok_eq(t0, "end"))
                    rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, t0->col, "'end' without a set or entity block");
                else if (known)
                    rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, t0->col,
                                      "'%.*s' outside a block: start one with 'set NAME'", t0->len, t0->s);
                else {
                    pt__suggest sg;
                    char hint[96];
                    pt__suggest_init(&sg, t0->s, (size_t)t0->len);
                    pt__suggest_list(&sg, "set, entity");
                    rc = pt_error_set(err, PT_ERR_UNKNOWN_DIRECTIVE, ln.no, t0->col, "unknown directive '%.*s'%s",
                                      t0->len > 40 ? 40 : t0->len, t0->s,
                                      pt__suggest_hint(&sg, " (expected set or entity)", hint, sizeof hint));
                }
                goto fail;
            }
            if (ln.ntok < 2) {
                rc = pt_error_set(err, PT_ERR_MISSING, ln.no, t0->col + t0->len + 1, "'%s' needs a name",
                                  is_set ? "set" : "entity");
                goto fail;
            }
            if (count >= PT_STEER_MAX_SETS) {
                rc = pt_error_set(err, PT_ERR_LIMIT, ln.no, t0->col, "more than %d blocks in one file",
                                  PT_STEER_MAX_SETS);
                goto fail;
            }
            if (count == cap) {
                int ncap = cap ? cap * 2 : 8;
                pt_steer_set *ns = PT_REALLOC(sets, sizeof *ns * (size_t)ncap);
                if (!ns) {
                    rc = pt_error_set(err, PT_ERR_NOMEM, ln.no, 0, "out of memory");
                    goto fail;
                }
                sets = ns;
                cap = ncap;
            }
            pt_steer_set *s = &sets[count];
            memset(s, 0, sizeof *s);
            s->is_entity = is_entity;
            s->line = ln.no;
            s->col = ln.tok[1].col;
            if ((rc = pt__tok_name(&ln.tok[1], ln.no, s->name, sizeof s->name, err)) < 0) goto fail;
            if (find_block(sets, count, s->name, is_entity) >= 0) {
                rc = pt_error_set(err, PT_ERR_DUPLICATE, ln.no, s->col, "%s '%s' is defined twice",
                                  is_set ? "set" : "entity", s->name);
                goto fail;
            }
            if (ln.ntok >= 3) {
                if (!pt__tok_eq(&ln.tok[2], "from")) {
                    rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, ln.tok[2].col, "expected 'from BASE' or the end of the line");
                    goto fail;
                }
                if (ln.ntok < 4) {
                    rc = pt_error_set(err, PT_ERR_MISSING, ln.no, ln.tok[2].col + ln.tok[2].len + 1,
                                      "'from' needs a set name");
                    goto fail;
                }
                if (ln.ntok > 4) {
                    rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, ln.tok[4].col, "unexpected item after 'from BASE'");
                    goto fail;
                }
                s->base_col = ln.tok[3].col;
                if ((rc = pt__tok_name(&ln.tok[3], ln.no, s->base, sizeof s->base, err)) < 0) goto fail;
                if (is_set && strcmp(s->name, "default") == 0) {
                    rc = pt_error_set(err, PT_ERR_BAD_VALUE, ln.no, s->base_col, "the default set cannot have a base");
                    goto fail;
                }
            }
            open = count++;
            continue;
        }
        /* Inside a block. */
        if (pt__tok_eq(t0, "end")) {
            if (ln.ntok > 1) {
                rc = pt_error_set(err, PT_ERR_SYNTAX, ln.no, ln.tok[1].col, "unexpected item after 'end'");
                goto fail;
            }
            open = -1;
            continue;
        }
        if (is_set || is_entity) {
            rc = pt_error_set(err, PT_ERR_UNTERMINATED, sets[open].line, 1, "block '%s' has no 'end' before line %d",
                              sets[open].name, ln.no);
            goto fail;
        }
        /* key value, or key=value */
        pt__line kl = ln;
        pt__tok key = ln.tok[0], val;
        int first = 1, is_kv = pt__tok_kv(&ln.tok[0], &key, &val);
        if (is_kv) {
            kl.tok[0] = val;
            first = 0;
        }
        int k = key_find(&key);
        if (k < 0) {
            char hint[96];
            rc = pt_error_set(err, PT_ERR_UNKNOWN_KEY, ln.no, key.col, "unknown key '%.*s'%s", key.len > 40 ? 40 : key.len,
                              key.s, key_hint(&key, hint, sizeof hint));
            goto fail;
        }
        if (first >= kl.ntok || (is_kv && val.len == 0)) { /* `max_speed` or `max_speed=` */
            rc = pt_error_set(err, PT_ERR_MISSING, ln.no, is_kv ? val.col : key.col + key.len + 1, "'%s' needs a value",
                              keys[k].name);
            goto fail;
        }
        pt_steer_set *s = &sets[open];
        if (given(s, k)) {
            rc = pt_error_set(err, PT_ERR_DUPLICATE, ln.no, key.col, "'%s' is given twice in '%s'", keys[k].name,
                              s->name);
            goto fail;
        }
        if ((rc = parse_value(s, k, &kl, first, err)) < 0) goto fail;
        set_given(s, k);
    }
    if (rc < 0) goto fail;
    if (open >= 0) {
        rc = pt_error_set(err, PT_ERR_UNTERMINATED, sets[open].line, 1, "block '%s' has no 'end'", sets[open].name);
        goto fail;
    }
    if ((rc = check_bases(sets, count, err)) < 0) goto fail;
    *out_sets = sets;
    *out_count = count;
    return PT_OK;
fail:
    PT_FREE(sets);
    return rc;
}

int pt_steer_file_parse(pt_steer_file *f, const char *text, size_t len, const char *name, pt_error *err) {
    pt__text t;
    int rc = pt__text_from_mem(&t, text, len, name, err);
    if (rc < 0) return rc;
    pt_steer_set *sets = NULL;
    int count = 0;
    rc = parse_text(&t, &sets, &count, err);
    if (rc < 0) {
        pt_error_locate(err, name ? name : "", t.data, t.len);
        pt__text_free(&t);
        return rc;
    }
    pt__text_free(&t);
    PT_FREE(f->sets); /* success: replace the old contents */
    f->sets = sets;
    f->count = count;
    snprintf(f->path, sizeof f->path, "%s", name ? name : "");
    pt_error_clear(err);
    return PT_OK;
}

int pt_steer_file_load(pt_steer_file *f, const char *path, pt_error *err) {
    pt__text t;
    int rc = pt__text_read(&t, path, err);
    if (rc < 0) return rc;
    rc = pt_steer_file_parse(f, t.data, t.len, path, err);
    pt__text_free(&t);
    return rc;
}

int pt_steer_file_load_map(pt_steer_file *f, const pt_map *map, pt_error *err) {
    int rc = pt_steer_file_load(f, map->steering_file, err);
    if (rc < 0) pt__error_named_at(err, map->path, map->steering_line, map->steering_col, "steering file", map->steering_file);
    return rc;
}

static void apply_own(pt_steer_params *out, const pt_steer_set *s) {
    for (int k = 0; k < NKEYS; k++)
        if (given(s, k)) copy_key(out, &s->values, k);
}

/* Index of set i's base, or -1. A file built by hand (base_slot 0) is searched by name. */
static int base_of(const pt_steer_file *f, int i) {
    const pt_steer_set *s = &f->sets[i];
    if (!s->base[0] || strcmp(s->base, "default") == 0) return -1;
    if (s->base_slot > 0 && s->base_slot <= f->count) return s->base_slot - 1;
    return find_block(f->sets, f->count, s->base, 0);
}

/* Applies the base chain of set i (root first), then set i. */
static void apply_chain(const pt_steer_file *f, int i, pt_steer_params *out, int depth) {
    if (depth < f->count) {
        int b = base_of(f, i);
        if (b >= 0 && b != i) apply_chain(f, b, out, depth + 1);
    }
    apply_own(out, &f->sets[i]);
}

int pt_steer_file_params(const pt_steer_file *f, const char *entity_name, const char *set_name, pt_steer_params *out) {
    memset(out, 0, sizeof *out);
    int rc = PT_OK;
    if (f && f->count > 0) {
        int def = find_block(f->sets, f->count, "default", 0);
        if (def >= 0) apply_chain(f, def, out, 0);
        int ent = entity_name && entity_name[0] ? find_block(f->sets, f->count, entity_name, 1) : -1;
        const char *base = ent >= 0 && f->sets[ent].base[0] ? f->sets[ent].base : set_name;
        if (base && base[0] && strcmp(base, "default") != 0) {
            int s = find_block(f->sets, f->count, base, 0);
            if (s >= 0) apply_chain(f, s, out, 0);
            else rc = PT_ERR_BAD_VALUE;
        }
        if (ent >= 0) apply_own(out, &f->sets[ent]);
    } else if (set_name && set_name[0] && strcmp(set_name, "default") != 0) {
        rc = PT_ERR_BAD_VALUE;
    }
    if (rc < 0) memset(out, 0, sizeof *out);
    pt_steer_params_resolve(out);
    return rc;
}
