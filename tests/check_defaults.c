/* SPDX-License-Identifier: Zlib */
/* Documented defaults: every default the docs and the public headers state is read from
 * their text at test time and compared with the code's own value (through the public API,
 * or guards/tuning.h for the brain's fixed tuning), so neither can change alone.
 *
 * Pins: steer.h documented side_feeler_length 0.9, view_radius 2.5 and containment_margin
 * 0.1 while the code used 0.7, 4 and 0.2 (issue 21, part 5). */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <patrol/crowd.h>
#include <patrol/light.h>
#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/solve.h>
#include <patrol/steer.h>
#include <patrol/testing.h>
#include <patrol/world.h>

#include "../src/app/common/watch.h"
#include "guards/relight.h"
#include "guards/tuning.h"
#include "senses/light.h"
#include "world/douse.h"
#include "test_util.h"

/* ---- the documents ------------------------------------------------------------------- */

enum { STEERING_MD, AI_MD, FORMATS_MD, README_MD, STEER_H, MAP_H, PATTERN_H, WORLD_H, CROWD_H, SOLVE_MD, SOLVE_H, PLAYING_MD,
       NDOCS };

static const char *const doc_files[NDOCS] = {
    "docs/steering.md", "docs/ai.md", "docs/formats.md", "README.md", "src/include/patrol/steer.h",
    "src/include/patrol/map.h", "src/include/patrol/pattern.h", "src/include/patrol/world.h",
    "src/include/patrol/crowd.h", "docs/solve.md", "src/include/patrol/solve.h", "docs/playing.md",
};

typedef struct doc {
    char *text;
    size_t len;
    unsigned char *used; /* 1 at the first byte of every number an entry read */
} doc;

static void doc_set(doc *d, const char *text, size_t len) {
    d->text = malloc(len + 1);
    d->used = calloc(len + 1, 1);
    ck_assert(d->text && d->used);
    memcpy(d->text, text, len);
    d->text[len] = '\0';
    d->len = len;
}

static void doc_free(doc *d) {
    free(d->text);
    free(d->used);
}

static void doc_load(doc *d, const char *rel) {
    char path[1024];
    const char *root = getenv("PATROL_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", root ? root : PATROL_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_msg(n > 0 && n < sizeof buf - 1, "%s: empty or too large", path);
    doc_set(d, buf, n);
}

/* ---- reading numbers ----------------------------------------------------------------- */

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

/* A number starting exactly at text[i]: digits with optional thousands groups ("4,096"),
 * fraction and exponent; a trailing "π" or "*pi" multiplies by pi. Returns the index after
 * it, or 0 when there is no number at i. */
static size_t number_at(const char *t, size_t i, double *out) {
    size_t s = i, k = i;
    if (!isdigit((unsigned char)t[k]) || (k > 0 && (word_char(t[k - 1]) || t[k - 1] == '-'))) return 0;
    char buf[64];
    size_t n = 0;
    while (n < sizeof buf - 8) {
        if (isdigit((unsigned char)t[k])) {
            buf[n++] = t[k++];
        } else if (t[k] == ',' && isdigit((unsigned char)t[k + 1]) && isdigit((unsigned char)t[k + 2]) &&
                   isdigit((unsigned char)t[k + 3]) && !isdigit((unsigned char)t[k + 4]) && k - s <= 3) {
            k++; /* a thousands separator */
            s = k;
        } else {
            break;
        }
    }
    if (t[k] == '.' && isdigit((unsigned char)t[k + 1])) {
        buf[n++] = t[k++];
        while (isdigit((unsigned char)t[k]) && n < sizeof buf - 8) buf[n++] = t[k++];
    }
    if ((t[k] == 'e' || t[k] == 'E') && (isdigit((unsigned char)t[k + 1]) ||
                                         ((t[k + 1] == '-' || t[k + 1] == '+') && isdigit((unsigned char)t[k + 2])))) {
        buf[n++] = t[k++];
        buf[n++] = t[k++];
        while (isdigit((unsigned char)t[k]) && n < sizeof buf - 8) buf[n++] = t[k++];
    }
    buf[n] = '\0';
    *out = strtod(buf, NULL);
    if (strncmp(t + k, "\xcf\x80", 2) == 0) { /* π */
        *out *= PT_PI;
        k += 2;
    } else if (strncmp(t + k, "*pi", 3) == 0) {
        *out *= PT_PI;
        k += 3;
    }
    return k;
}

/* The next number at or after i and before end; returns its start, or end if none. */
static size_t next_number(const char *t, size_t i, size_t end, double *out, size_t *after) {
    for (; i < end; i++)
        if ((*after = number_at(t, i, out)) != 0) return i;
    return end;
}

/* Where pat occurs in t at i: a blank in pat matches any run of blanks and newlines (the
 * docs wrap their lines anywhere). Returns the index after the match, or 0. */
static size_t match_at(const char *t, size_t i, const char *pat) {
    for (const char *p = pat; *p; p++) {
        if (*p == ' ') {
            if (!isspace((unsigned char)t[i])) return 0;
            while (isspace((unsigned char)t[i])) i++;
        } else if (t[i++] != *p) {
            return 0;
        }
    }
    return i;
}

/* First match of pat at or after from; sets *end; returns its start or (size_t)-1. */
static size_t find(const doc *d, size_t from, const char *pat, size_t *end) {
    for (size_t i = from; i < d->len; i++)
        if ((*end = match_at(d->text, i, pat)) != 0) return i;
    return (size_t)-1;
}

static size_t count_matches(const doc *d, const char *pat) {
    size_t n = 0, end;
    for (size_t i = 0; (i = find(d, i, pat, &end)) != (size_t)-1; i++) n++;
    return n;
}

static size_t line_start(const doc *d, size_t i) {
    while (i > 0 && d->text[i - 1] != '\n') i--;
    return i;
}

static size_t line_end(const doc *d, size_t i) {
    while (i < d->len && d->text[i] != '\n') i++;
    return i;
}

/* Cell col (1 = the first, after the leading '|') of the table row around i; "\|" is not a
 * separator. Returns 0 when the row has fewer cells. */
static int cell(const doc *d, size_t i, int col, size_t *b, size_t *e) {
    size_t s = line_start(d, i), end = line_end(d, i);
    int c = 0;
    for (size_t k = s; k < end; k++) {
        if (d->text[k] != '|' || (k > s && d->text[k - 1] == '\\')) continue;
        if (c == col) {
            *e = k;
            return 1;
        }
        if (++c == col) *b = k + 1;
    }
    return 0;
}

/* ---- the entries --------------------------------------------------------------------- */

typedef enum {
    PROSE, /* the number right after `after` (searched within 1500 bytes of the anchor's end;
              NULL = the anchor itself), or with index k the k-th number after that one */
    CELL,  /* table cell `col` of the anchor's row: the number right after `after` in it, or
              its index-th number */
    LAST   /* the last number on the anchor's line (header comments) */
} mode;

typedef struct entry {
    int doc;
    mode how;
    const char *anchor; /* text found once in the doc (blanks match any line wrapping) */
    const char *after;
    int col, index;
    const double *code; /* the code's value ... */
    double scale;       /* ... times this, in the doc's unit (degrees for angles) */
} entry;

/* The code's values, filled by load_code(). */
static pt_steer_params P;
static double params_behaviours;
static pt_vehicle V;
static pt_entity_def player_def, guard_def, prey_def, flock_def;
static double flock_count;
static pt_thrust_body_params body;
static double body_top_speed;
static double map_tile_px, obstacle_r, waypoint_radius;
/* The .test keys' defaults, as the parser fills them on lines that give none. */
static double test_within[PT_EXPECT_KIND_COUNT], test_for[PT_EXPECT_KIND_COUNT], test_every, test_margin;
static double tile_sound[4]; /* the default legend's door, bush, floor, water, in tiles */
static double tile_footstep[3]; /* the default legend's floor, bridge, grass */
/* Per gait (walk, sneak, run): speed factor, footstep loudness, and the farthest straight
 * distance on floor at which a guard of the default hearing hears it. */
static double gait_speed[PT_GAIT_COUNT], gait_loud[PT_GAIT_COUNT], gait_heard[PT_GAIT_COUNT];
static double world_hz, world_mass, world_force, world_turn, world_radius;
static double crowd_min_share;
static double look_s, look_deg, pattern_hz; /* a default look's seconds and angle; ticks of `wait 1s` */
static double solve_horizon_ticks, solve_horizon_s, solve_nseeds, solve_margin, solve_leave_after;
static const double solve_margin_cap = PT_SOLVE_MARGIN_CAP,
                    solve_max_mb = (double)(PT_SOLVE_MAX_BYTES >> 20), heatmap_ticks = PT_SIGHTMAP_DEFAULT_TICKS;
static const double watch_poll_ms = APP_WATCH_POLL_MS;
static const double intercept_max_t = PT_STEER_INTERCEPT_MAX_T;
static const double chase_speed_scale = CHASE_SPEED_SCALE, lost_grace = LOST_GRACE_S, search_look = SEARCH_LOOK_S,
                    suspicious_turn = TURN_RATE, catch_dist = CATCH_DIST, prey_notice = PREY_NOTICE_DIST,
                    prey_calm = PREY_CALM_S, boid_scatter = BOID_SCATTER_DIST, lookahead_cells = LOOKAHEAD_CELLS,
                    stuck_s = STUCK_S, stuck_dist = STUCK_DIST, investigate_look = INVESTIGATE_LOOK_S,
                    hear_awareness = HEAR_AWARENESS, peripheral_dist = PERIPHERAL_DIST,
                    peripheral_rate = PERIPHERAL_RATE, prey_noise = PREY_NOISE, flock_noise = FLOCK_NOISE,
                    flock_noise_gap = FLOCK_NOISE_GAP_S, evasion_s = EVASION_S, caution_s = CAUTION_S,
                    caution_aware = CAUTION_AWARE, caution_fov = CAUTION_FOV, search_radius = SEARCH_RADIUS,
                    search_split = SEARCH_SPLIT_S, heard_sure_at = HEARD_SURE_AT, relight_stand = PT__RELIGHT_STAND_S,
                    light_k_walk = LIGHT_GAIT_WALK, light_k_run = LIGHT_GAIT_RUN, light_k_sneak = LIGHT_GAIT_SNEAK,
                    light_units = PT__LIGHT_ONE, douse_noise = PT__DOUSE_NOISE;
/* The light a map gives when it says nothing: the ambient level, a light's level and state. */
static double ambient_def, light_level_def, light_on_def;
/* The alert phases' timing as pt_phase_timing_resolve fills a map that sets none (load_code). */
static pt_phase_timing phases_def;

#define DEG (180.0 / PT_PI)
#define W(b) (&P.weight[PT_BEH_##b])
#define PR(b) (&P.probability[PT_BEH_##b])
/* docs/steering.md writes a parameter's default in brackets after it: `panic_distance` [4]. */
#define BRACKET(anchor, field, scale) {STEERING_MD, PROSE, anchor " [", NULL, 0, 0, &P.field, scale}
/* steering.md's default weights table: | behaviours | weight | probability |. */
#define WEIGHT(row, i, b) {STEERING_MD, CELL, row, NULL, 2, 0, W(b), 1}, {STEERING_MD, CELL, row, NULL, 3, i, PR(b), 1}
/* docs/formats.md's .steer key table: | key | value | default |. */
#define STEER_KEY(row, i, code, scale) {FORMATS_MD, CELL, row, NULL, 3, i, code, scale}
/* steer.h's pt_steer_params: the default ends each field's comment. */
#define PARAM_H(field, scale) {STEER_H, LAST, "double " #field ";", NULL, 0, 0, &P.field, scale}

static const entry entries[] = {
    /* docs/steering.md: the vehicle */
    {STEERING_MD, PROSE, "`pt_vehicle`: position", "mass (", 0, 0, &V.mass, 1},
    {STEERING_MD, PROSE, "`pt_vehicle`: position", "max speed (", 0, 0, &V.max_speed, 1},
    {STEERING_MD, PROSE, "`pt_vehicle`: position", "max force (", 0, 0, &V.max_force, 1},
    {STEERING_MD, PROSE, "`pt_vehicle`: position", "max turn rate (", 0, 0, &V.max_turn_rate, 1},
    {STEERING_MD, PROSE, "`pt_vehicle`: position", "bounding radius (", 0, 0, &V.radius, 1},
    /* docs/steering.md: the behaviours table and the group paragraph */
    BRACKET("`panic_distance`", panic_distance, 1),
    BRACKET("`decel_tweak`", decel_tweak, 1),
    BRACKET("`(1 - cos angle) * turn_around_time`", turn_around_time, 1),
    BRACKET("`facing_angle`", facing_angle, DEG),
    BRACKET("`threat_range`", threat_range, 1),
    BRACKET("`wander_radius`", wander_radius, 1),
    BRACKET("`wander_distance`", wander_distance, 1),
    BRACKET("`wander_jitter * dt`", wander_jitter, 1),
    BRACKET("`box_length * (1 + speed / max_speed)`", box_length, 1),
    BRACKET("`-braking_weight * box * closeness`", braking_weight, 1),
    BRACKET("`feeler_length`", feeler_length, 1),
    BRACKET("`feeler_angle`", feeler_angle, DEG),
    BRACKET("`side_feeler_length`", side_feeler_length, 1),
    BRACKET("`hide_distance`", hide_distance, 1),
    BRACKET("`waypoint_distance`", waypoint_distance, 1),
    BRACKET("`pos + vel * path_predict`", path_predict, 1),
    BRACKET("`path_ahead`", path_ahead, 1),
    BRACKET("`path_radius`", path_radius, 1),
    BRACKET("`pos + vel * containment_lookahead`", containment_lookahead, 1),
    BRACKET("`radius + containment_margin`", containment_margin, 1),
    BRACKET("`view_radius`", view_radius, 1),
    {STEERING_MD, PROSE, "| **intercept** |", "`t` capped at ", 0, 0, &intercept_max_t, 1},
    /* docs/steering.md: default weights */
    WEIGHT("| containment |", 0, CONTAINMENT),
    WEIGHT("| wall avoidance |", 0, WALL_AVOIDANCE),
    WEIGHT("| obstacle avoidance |", 0, OBSTACLE_AVOIDANCE),
    WEIGHT("| evade, flee |", 0, EVADE),
    WEIGHT("| evade, flee |", 1, FLEE),
    WEIGHT("| separation |", 0, SEPARATION),
    WEIGHT("| alignment |", 0, ALIGNMENT),
    WEIGHT("| cohesion |", 0, COHESION),
    WEIGHT("| seek, arrive |", 0, SEEK),
    WEIGHT("| seek, arrive |", 1, ARRIVE),
    WEIGHT("| wander |", 0, WANDER),
    WEIGHT("| pursuit, intercept,", 0, PURSUIT),
    WEIGHT("| pursuit, intercept,", 0, INTERCEPT),
    WEIGHT("| pursuit, intercept,", 0, OFFSET_PURSUIT),
    WEIGHT("| pursuit, intercept,", 0, INTERPOSE),
    WEIGHT("| pursuit, intercept,", 0, HIDE),
    WEIGHT("| pursuit, intercept,", 0, FOLLOW_PATH),
    WEIGHT("| pursuit, intercept,", 0, FOLLOW_CORRIDOR),
    /* docs/steering.md: Buckland's constants in tiles */
    {STEERING_MD, PROSE, "### From Buckland's", "decel tweak ", 0, 0, &P.decel_tweak, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "turn-around ", 0, 0, &P.turn_around_time, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "acos 0.95 ≈ ", 0, 0, &P.facing_angle, DEG},
    {STEERING_MD, PROSE, "### From Buckland's", "braking weight ", 0, 0, &P.braking_weight, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "side feelers at ", 0, 0, &P.feeler_angle, DEG},
    {STEERING_MD, PROSE, "### From Buckland's", "agents of radius ", 0, 0, &V.radius, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "detection box ", 0, 0, &P.box_length, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "), feelers ", 0, 0, &P.feeler_length, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "), feelers ", 0, 1, &P.side_feeler_length, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "panic distance ", 0, 0, &P.panic_distance, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "hide distance ", 0, 0, &P.hide_distance, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "waypoint distance ", 0, 0, &P.waypoint_distance, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "wander circle ", 0, 0, &P.wander_radius, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "wander circle ", 0, 1, &P.wander_distance, 1},
    {STEERING_MD, PROSE, "### From Buckland's", "neighbour radius ", 0, 0, &P.view_radius, 1},
    {STEERING_MD, PROSE, "- Threads: each thread takes", "`min_share` agents (", 0, 0, &crowd_min_share, 1},

    /* docs/ai.md */
    {AI_MD, PROSE, "- **`intercept`**:", "`t` is capped at ", 0, 0, &intercept_max_t, 1},
    {AI_MD, PROSE, "world's fixed tick (", NULL, 0, 0, &world_hz, 1},
    {AI_MD, PROSE, "`view` tiles apart (default ", NULL, 0, 0, &guard_def.view_dist, 1},
    {AI_MD, PROSE, "half of `fov` (default ", NULL, 0, 0, &guard_def.view_angle_deg, 1},
    {AI_MD, CELL, "| `aware_rate` |", NULL, 3, 0, &guard_def.aware_rate, 1},
    {AI_MD, CELL, "| `aware_decay` |", NULL, 3, 0, &guard_def.aware_decay, 1},
    {AI_MD, CELL, "| `suspicious_at` |", NULL, 3, 0, &guard_def.suspicious_at, 1},
    {AI_MD, CELL, "| `chase_at` |", NULL, 3, 0, &guard_def.chase_at, 1},
    {AI_MD, CELL, "| `hearing` (per guard, map key) |", NULL, 2, 0, &guard_def.hearing, 1},
    {AI_MD, CELL, "| `shout` (per guard, map key) |", NULL, 2, 0, &guard_def.shout, 1},
    {AI_MD, CELL, "| `memory` (per guard, map key) |", NULL, 2, 0, &guard_def.memory, 1},
    {AI_MD, CELL, "| a heard noise is sure at this many times `hearing` |", NULL, 2, 0, &heard_sure_at, 1},
    {AI_MD, CELL, "| evasion countdown |", NULL, 4, 0, &evasion_s, 1},
    {AI_MD, CELL, "| caution countdown |", NULL, 4, 0, &caution_s, 1},
    {AI_MD, CELL, "| caution: awareness rate factor |", NULL, 4, 0, &caution_aware, 1},
    {AI_MD, CELL, "| caution: view cone factor |", NULL, 4, 0, &caution_fov, 1},
    {AI_MD, CELL, "| evasion countdown |", NULL, 4, 0, &phases_def.evasion, 1},
    {AI_MD, CELL, "| caution countdown |", NULL, 4, 0, &phases_def.caution, 1},
    {AI_MD, CELL, "| caution: awareness rate factor |", NULL, 4, 0, &phases_def.caution_aware, 1},
    {AI_MD, CELL, "| caution: view cone factor |", NULL, 4, 0, &phases_def.caution_fov, 1},
    {FORMATS_MD, CELL, "| `evasion SECONDS` |", NULL, 3, 0, &phases_def.evasion, 1},
    {FORMATS_MD, CELL, "| `caution SECONDS` |", NULL, 3, 0, &phases_def.caution, 1},
    {FORMATS_MD, CELL, "| `caution_aware FACTOR` |", NULL, 3, 0, &phases_def.caution_aware, 1},
    {FORMATS_MD, CELL, "| `caution_fov FACTOR` |", NULL, 3, 0, &phases_def.caution_fov, 1},
    {MAP_H, PROSE, "seconds of evasion once no guard chases", "default ", 0, 0, &phases_def.evasion, 1},
    {MAP_H, PROSE, "seconds of caution after evasion", "default ", 0, 0, &phases_def.caution, 1},
    {MAP_H, PROSE, "awareness fills this many times faster", "default ", 0, 0, &phases_def.caution_aware, 1},
    {MAP_H, PROSE, "view cones are this many times wider", "default ", 0, 0, &phases_def.caution_fov, 1},
    {AI_MD, PROSE, "| `evasion` | a countdown of ", NULL, 0, 0, &evasion_s, 1},
    {AI_MD, PROSE, "| `caution` | a countdown of ", NULL, 0, 0, &caution_s, 1},
    {AI_MD, CELL, "| door | 2 |", NULL, 2, 0, &tile_sound[0], 1},
    {AI_MD, CELL, "| bush | 1 |", NULL, 2, 0, &tile_sound[1], 1},
    {AI_MD, PROSE, "factor of the player's `speed` (", NULL, 0, 0, &player_def.speed, 1},
    {AI_MD, CELL, "| walk (the default) |", NULL, 2, 0, &gait_speed[PT_GAIT_WALK], 1},
    {AI_MD, CELL, "| walk (the default) |", NULL, 3, 0, &gait_loud[PT_GAIT_WALK], 1},
    {AI_MD, CELL, "| walk (the default) |", NULL, 4, 0, &gait_heard[PT_GAIT_WALK], 1},
    {AI_MD, CELL, "| sneak |", NULL, 2, 0, &gait_speed[PT_GAIT_SNEAK], 1},
    {AI_MD, CELL, "| sneak |", NULL, 3, 0, &gait_loud[PT_GAIT_SNEAK], 1},
    {AI_MD, CELL, "| sneak |", NULL, 4, 0, &gait_heard[PT_GAIT_SNEAK], 1},
    {AI_MD, CELL, "| run |", NULL, 2, 0, &gait_speed[PT_GAIT_RUN], 1},
    {AI_MD, CELL, "| run |", NULL, 3, 0, &gait_loud[PT_GAIT_RUN], 1},
    {AI_MD, CELL, "| run |", NULL, 4, 0, &gait_heard[PT_GAIT_RUN], 1},
    {AI_MD, PROSE, "`footstep=` ([formats.md](formats.md)) is ", NULL, 0, 0, &tile_footstep[0], 1},
    {AI_MD, PROSE, "doors; ", NULL, 0, 0, &tile_footstep[2], 1},
    {AI_MD, PROSE, "(half as loud); ", NULL, 0, 0, &tile_footstep[1], 1},
    {AI_MD, PROSE, "raises its awareness by ", NULL, 0, 0, &hear_awareness, 1},
    {AI_MD, PROSE, "Prey that start to flee make a noise of ", NULL, 0, 0, &prey_noise, 1},
    {AI_MD, PROSE, "a flock makes a noise of ", NULL, 0, 0, &flock_noise, 1},
    {AI_MD, PROSE, "at most once every ", NULL, 0, 0, &flock_noise_gap, 1},
    {AI_MD, PROSE, "as in search) for\n", NULL, 0, 0, &investigate_look, 1},
    {AI_MD, PROSE, "+--- (", NULL, 0, 0, &investigate_look, 1},
    {AI_MD, PROSE, "looks around for ", NULL, 0, 0, &investigate_look, 1},
    {AI_MD, PROSE, "- **The stand.** There it stands **", NULL, 0, 0, &relight_stand, 1},
    {AI_MD, PROSE, "V = L + (1 - L) * k, k = ", NULL, 0, 0, &light_k_sneak, 1},
    {AI_MD, PROSE, "V = L + (1 - L) * k, k = ", "sneaking, ", 0, 0, &light_k_walk, 1},
    {AI_MD, PROSE, "V = L + (1 - L) * k, k = ", "walking, ", 0, 0, &light_k_run, 1},
    {AI_MD, PROSE, "capped at 1, in whole 1/", NULL, 0, 0, &light_units, 1},
    {AI_MD, PROSE, "**Dousing a light.**", "makes a noise of ", 0, 0, &douse_noise, 1},
    {FORMATS_MD, CELL, "| `ambient L` |", NULL, 3, 0, &ambient_def, 1},
    {FORMATS_MD, CELL, "| `level=L` |", NULL, 3, 0, &light_level_def, 1},
    {AI_MD, PROSE, "A player within ", NULL, 0, 0, &peripheral_dist, 1},
    {AI_MD, PROSE, "It fills the meter at ", NULL, 0, 0, &peripheral_rate, 1},
    {AI_MD, PROSE, "(out of sight ", NULL, 0, 0, &lost_grace, 1},
    {AI_MD, PROSE, "noticed something, at ", NULL, 0, 0, &suspicious_turn, DEG},
    {AI_MD, PROSE, "- **chase**: runs at ", NULL, 0, 0, &chase_speed_scale, 1},
    {AI_MD, PROSE, "drawn centres at most ", NULL, 0, 0, &catch_dist, 1},
    {AI_MD, PROSE, "and right, for ", NULL, 0, 0, &search_look, 1},
    {AI_MD, PROSE, "looks around from where it stands for ", NULL, 0, 0, &search_look, 1},
    {AI_MD, PROSE, "is looked at from where it stands, for the same ", NULL, 0, 0, &investigate_look, 1},
    {AI_MD, CELL, "| search radius |", NULL, 2, 0, &search_radius, 1},
    {AI_MD, CELL, "| shares drawn again every |", NULL, 2, 0, &search_split, 1},
    {AI_MD, PROSE, "every cell within ", NULL, 0, 0, &search_radius, 1},
    {AI_MD, PROSE, "The shares are drawn again every ", NULL, 0, 0, &search_split, 1},
    {AI_MD, PROSE, "the evasion countdown (", NULL, 0, 0, &evasion_s, 1},
    {AI_MD, PROSE, "string pulling (seek the farthest", "up to ", 0, 0, &lookahead_cells, 1},
    {AI_MD, PROSE, "returner that stays within ", NULL, 0, 0, &stuck_dist, 1},
    {AI_MD, PROSE, "tiles of one place\nfor ", NULL, 0, 0, &stuck_s, 1},
    {AI_MD, PROSE, "the player comes within ", NULL, 0, 0, &prey_notice, 1},
    {AI_MD, PROSE, "calm down ", NULL, 0, 0, &prey_calm, 1},
    {AI_MD, PROSE, "they scatter (evade) from a player within ", NULL, 0, 0, &boid_scatter, 1},

    /* docs/formats.md: .test expectations */
    {FORMATS_MD, CELL, "| `visits GUARD X,Y...` |", "`within=` (", 2, 0, &test_within[PT_EXPECT_VISITS], 1},
    {FORMATS_MD, CELL, "| `stays GUARD area=X0,Y0,X1,Y1` |", "`for=` (", 2, 0, &test_for[PT_EXPECT_STAYS], 1},
    {FORMATS_MD, CELL, "| `covers GUARD X,Y` |", "`every=` (", 2, 0, &test_every, 1},
    {FORMATS_MD, CELL, "| `covers GUARD X,Y` |", "`for=` (", 2, 0, &test_for[PT_EXPECT_COVERS], 1},
    {FORMATS_MD, CELL, "| `unseen` |", "`for=` (", 2, 0, &test_for[PT_EXPECT_UNSEEN], 1},
    {FORMATS_MD, CELL, "| `caught` |", "`within=` (", 2, 0, &test_within[PT_EXPECT_CAUGHT], 1},
    {FORMATS_MD, CELL, "| `goal` |", "`within=` (", 2, 0, &test_within[PT_EXPECT_GOAL], 1},
    {FORMATS_MD, CELL, "| `solvable` |", "`margin=` (", 2, 0, &test_margin, 1},
    {FORMATS_MD, CELL, "| `solvable` |", "`within=` (", 2, 0, &test_within[PT_EXPECT_SOLVABLE], 1},

    /* docs/formats.md: header, entities, obstacles */
    {FORMATS_MD, CELL, "| `tile_size N` |", NULL, 3, 0, &map_tile_px, 1},
    {FORMATS_MD, CELL, "| `+` | door |", NULL, 5, 0, &tile_sound[0], 1},
    {FORMATS_MD, CELL, "| `*` | bush |", NULL, 5, 0, &tile_sound[1], 1},
    {FORMATS_MD, CELL, "| `.` | floor |", NULL, 5, 0, &tile_sound[2], 1},
    {FORMATS_MD, CELL, "| `~` | water |", NULL, 5, 0, &tile_sound[3], 1},
    {FORMATS_MD, CELL, "| `.` | floor |", NULL, 6, 0, &tile_footstep[0], 1},
    {FORMATS_MD, CELL, "| `=` | bridge |", NULL, 6, 0, &tile_footstep[1], 1},
    {FORMATS_MD, CELL, "| `,` | grass |", NULL, 6, 0, &tile_footstep[2], 1},
    {FORMATS_MD, PROSE, "Without it: by name, `grass` ", NULL, 0, 0, &tile_footstep[2], 1},
    {FORMATS_MD, PROSE, "Without it: by name, `grass`", "`bridge` ", 0, 0, &tile_footstep[1], 1},
    {FORMATS_MD, CELL, "| `speed` | all |", "player ", 5, 0, &player_def.speed, 1},
    {FORMATS_MD, CELL, "| `speed` | all |", "prey ", 5, 0, &prey_def.speed, 1},
    {FORMATS_MD, CELL, "| `speed` | all |", "others ", 5, 0, &guard_def.speed, 1},
    {FORMATS_MD, CELL, "| `speed` | all |", "others ", 5, 0, &flock_def.speed, 1},
    {FORMATS_MD, CELL, "| `heading` | all |", NULL, 5, 0, &guard_def.heading_deg, 1},
    {FORMATS_MD, CELL, "| `view` | guard, prey, flock |", NULL, 5, 0, &guard_def.view_dist, 1},
    {FORMATS_MD, CELL, "| `view` | guard, prey, flock |", NULL, 5, 0, &prey_def.view_dist, 1},
    {FORMATS_MD, CELL, "| `fov` | guard, prey, flock |", NULL, 5, 0, &guard_def.view_angle_deg, 1},
    {FORMATS_MD, CELL, "| `fov` | guard, prey, flock |", NULL, 5, 0, &flock_def.view_angle_deg, 1},
    {FORMATS_MD, CELL, "| `aware_rate` | guard |", NULL, 5, 0, &guard_def.aware_rate, 1},
    {FORMATS_MD, CELL, "| `aware_decay` | guard |", NULL, 5, 0, &guard_def.aware_decay, 1},
    {FORMATS_MD, CELL, "| `suspicious_at` | guard |", NULL, 5, 0, &guard_def.suspicious_at, 1},
    {FORMATS_MD, CELL, "| `chase_at` | guard |", NULL, 5, 0, &guard_def.chase_at, 1},
    {FORMATS_MD, CELL, "| `hearing` | guard |", NULL, 5, 0, &guard_def.hearing, 1},
    {FORMATS_MD, CELL, "| `shout` | guard |", NULL, 5, 0, &guard_def.shout, 1},
    {FORMATS_MD, CELL, "| `memory` | guard |", NULL, 5, 0, &guard_def.memory, 1},
    {FORMATS_MD, PROSE, "the default `chase_at` is ", NULL, 0, 0, &guard_def.chase_at, 1},
    {FORMATS_MD, CELL, "| `count` | flock |", NULL, 5, 0, &flock_count, 1},
    {FORMATS_MD, PROSE, "`r` is the radius,", "default ", 0, 0, &obstacle_r, 1},
    /* docs/formats.md: patterns */
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`mass` ", 2, 0, &body.mass, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`inertia` ", 2, 0, &body.inertia, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`thrust` ", 2, 0, &body.thrust, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`turn_thrust` ", 2, 0, &body.turn_thrust, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`arm` ", 2, 0, &body.arm, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`drag` ", 2, 0, &body.drag, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`angular_drag` ", 2, 0, &body.angular_drag, 1},
    {FORMATS_MD, CELL, "| `body KEY=VALUE...` |", "`lateral_drag` ", 2, 0, &body.lateral_drag, 1},
    {FORMATS_MD, PROSE, "(top speed `thrust/drag`, ", NULL, 0, 0, &body_top_speed, 1},
    {FORMATS_MD, PROSE, "# corridor half-width; default ", NULL, 0, 0, &waypoint_radius, 1},
    /* stops: the default look, the pattern clock */
    {FORMATS_MD, CELL, "| `look` or `look=DURATION` |", NULL, 3, 0, &look_s, 1},
    {FORMATS_MD, CELL, "| `angles=A,B,...` |", NULL, 3, 0, &look_deg, 1},
    {FORMATS_MD, PROSE, "number with an `s` (`1.5s`, `0.25s`), counted at ", NULL, 0, 0, &pattern_hz, 1},
    {FORMATS_MD, PROSE, "the default look turns ", NULL, 0, 0, &look_deg, 1},
    {AI_MD, PROSE, "sweeps as the pattern says (by default ", NULL, 0, 0, &look_deg, 1},
    {AI_MD, PROSE, "sweeps as the pattern says (by default ", "over ", 0, 0, &look_s, 1},
    /* docs/formats.md: .steer keys */
    STEER_KEY("| `decel_tweak` |", 0, &P.decel_tweak, 1),
    STEER_KEY("| `panic_distance` |", 0, &P.panic_distance, 1),
    STEER_KEY("| `threat_range` |", 0, &P.threat_range, 1),
    STEER_KEY("| `facing_angle` |", 0, &P.facing_angle, DEG),
    STEER_KEY("| `turn_around_time` |", 0, &P.turn_around_time, 1),
    STEER_KEY("| `wander_radius`, `wander_distance` |", 0, &P.wander_radius, 1),
    STEER_KEY("| `wander_radius`, `wander_distance` |", 1, &P.wander_distance, 1),
    STEER_KEY("| `wander_jitter` |", 0, &P.wander_jitter, 1),
    STEER_KEY("| `box_length` |", 0, &P.box_length, 1),
    STEER_KEY("| `braking_weight` |", 0, &P.braking_weight, 1),
    STEER_KEY("| `feeler_length`, `side_feeler_length` |", 0, &P.feeler_length, 1),
    STEER_KEY("| `feeler_length`, `side_feeler_length` |", 1, &P.side_feeler_length, 1),
    STEER_KEY("| `feeler_angle` |", 0, &P.feeler_angle, DEG),
    STEER_KEY("| `hide_distance` |", 0, &P.hide_distance, 1),
    STEER_KEY("| `waypoint_distance` |", 0, &P.waypoint_distance, 1),
    STEER_KEY("| `path_predict` |", 0, &P.path_predict, 1),
    STEER_KEY("| `path_ahead`, `path_radius` |", 0, &P.path_ahead, 1),
    STEER_KEY("| `path_ahead`, `path_radius` |", 1, &P.path_radius, 1),
    STEER_KEY("| `view_radius` |", 0, &P.view_radius, 1),
    STEER_KEY("| `containment_lookahead` |", 0, &P.containment_lookahead, 1),
    STEER_KEY("| `containment_margin` |", 0, &P.containment_margin, 1),
    /* the vehicle a map's entity gets, which .steer's vehicle keys override */
    STEER_KEY("| `mass` |", 0, &world_mass, 1),
    STEER_KEY("| `max_force` |", 0, &world_force, 1),
    STEER_KEY("| `max_turn_rate` |", 0, &world_turn, DEG),
    STEER_KEY("| `radius` |", 0, &world_radius, 1),

    /* README.md */
    {README_MD, PROSE, "/* one fixed 1/", NULL, 0, 0, &world_hz, 1},

    /* the public headers */
    {STEER_H, PROSE, "t is capped at ", NULL, 0, 0, &intercept_max_t, 1},
    {STEER_H, LAST, "unsigned behaviours; /* PT_BEH_BIT set a file", NULL, 0, 0, &params_behaviours, 1},
    PARAM_H(decel_tweak, 1), PARAM_H(panic_distance, 1), PARAM_H(threat_range, 1), PARAM_H(facing_angle, DEG),
    PARAM_H(turn_around_time, 1), PARAM_H(wander_radius, 1), PARAM_H(wander_distance, 1),
    PARAM_H(wander_jitter, 1), PARAM_H(box_length, 1), PARAM_H(braking_weight, 1), PARAM_H(feeler_length, 1),
    PARAM_H(side_feeler_length, 1), PARAM_H(feeler_angle, DEG), PARAM_H(hide_distance, 1),
    PARAM_H(waypoint_distance, 1), PARAM_H(path_predict, 1), PARAM_H(path_ahead, 1), PARAM_H(path_radius, 1),
    PARAM_H(view_radius, 1), PARAM_H(containment_lookahead, 1), PARAM_H(containment_margin, 1),
    {STEER_H, LAST, "double mass; /* default", NULL, 0, 0, &V.mass, 1},
    {STEER_H, LAST, "double max_speed;", NULL, 0, 0, &V.max_speed, 1},
    {STEER_H, PROSE, "double max_force;", "default ", 0, 0, &V.max_force, 1},
    {STEER_H, LAST, "double max_turn_rate;", NULL, 0, 0, &V.max_turn_rate, 1},
    {STEER_H, LAST, "double radius; /* bounding radius", NULL, 0, 0, &V.radius, 1},
    {MAP_H, LAST, "double view_dist;", NULL, 0, 0, &guard_def.view_dist, 1},
    {MAP_H, LAST, "double view_angle_deg;", NULL, 0, 0, &guard_def.view_angle_deg, 1},
    {MAP_H, PROSE, "double speed;", "default ", 0, 0, &guard_def.speed, 1},
    {MAP_H, PROSE, "double speed;", "(player ", 0, 0, &player_def.speed, 1},
    {MAP_H, PROSE, "double speed;", "prey ", 0, 0, &prey_def.speed, 1},
    {MAP_H, LAST, "double aware_rate;", NULL, 0, 0, &guard_def.aware_rate, 1},
    {MAP_H, LAST, "double aware_decay;", NULL, 0, 0, &guard_def.aware_decay, 1},
    {MAP_H, LAST, "double suspicious_at;", NULL, 0, 0, &guard_def.suspicious_at, 1},
    {MAP_H, LAST, "double chase_at;", NULL, 0, 0, &guard_def.chase_at, 1},
    {MAP_H, LAST, "double hearing;", NULL, 0, 0, &guard_def.hearing, 1},
    {MAP_H, LAST, "double shout;", NULL, 0, 0, &guard_def.shout, 1},
    {MAP_H, LAST, "double memory;", NULL, 0, 0, &guard_def.memory, 1},
    {MAP_H, LAST, "int count;", NULL, 0, 0, &flock_count, 1},
    {MAP_H, LAST, "int tile_px;", NULL, 0, 0, &map_tile_px, 1},
    {PATTERN_H, LAST, "double mass; /* default", NULL, 0, 0, &body.mass, 1},
    {PATTERN_H, LAST, "double inertia;", NULL, 0, 0, &body.inertia, 1},
    {PATTERN_H, PROSE, "double thrust;", "default ", 0, 0, &body.thrust, 1},
    {PATTERN_H, PROSE, "double thrust;", "thrust/drag = ", 0, 0, &body_top_speed, 1},
    {PATTERN_H, LAST, "double turn_thrust;", NULL, 0, 0, &body.turn_thrust, 1},
    {PATTERN_H, LAST, "double arm;", NULL, 0, 0, &body.arm, 1},
    {PATTERN_H, LAST, "double drag;", NULL, 0, 0, &body.drag, 1},
    {PATTERN_H, LAST, "double angular_drag;", NULL, 0, 0, &body.angular_drag, 1},
    {PATTERN_H, LAST, "double lateral_drag;", NULL, 0, 0, &body.lateral_drag, 1},
    {PATTERN_H, LAST, "double path_radius;", NULL, 0, 0, &waypoint_radius, 1},
    {WORLD_H, LAST, "int tick_hz;", NULL, 0, 0, &world_hz, 1},
    /* docs/solve.md and patrol/solve.h: the solver and the heatmap */
    {SOLVE_MD, CELL, "| `--max-time S` |", NULL, 3, 0, &solve_horizon_s, 1},
    {SOLVE_MD, CELL, "| `--seeds N` |", NULL, 3, 0, &solve_nseeds, 1},
    {SOLVE_MD, CELL, "| `--margin T` |", NULL, 3, 0, &solve_margin, 1},
    {SOLVE_MD, CELL, "| `--leave-after N` |", NULL, 3, 0, &solve_leave_after, 1},
    {SOLVE_MD, PROSE, "on then, capped at ", NULL, 0, 0, &solve_margin_cap, 1},
    {SOLVE_MD, PROSE, "as long as the memory (below) stays within ", NULL, 0, 0, &solve_max_mb, 1},
    {SOLVE_MD, PROSE, "colours each walkable cell by the share of ticks 1..N (default ", NULL, 0, 0, &heatmap_ticks, 1},
    {SOLVE_H, PROSE, "must be reached by this tick; 0 = ", NULL, 0, 0, &solve_horizon_ticks, 1},
    /* docs/playing.md: the app's */
    {PLAYING_MD, PROSE, "`patrol play --watch` reloads", "steering file every ", 0, 0, &watch_poll_ms, 1},
};

/* Places where every number must be read by some entry, so a default added to the docs
 * without an entry here, or a table the reader no longer understands, fails. */
typedef struct table { int doc; const char *row; int col; } table;
static const table tables[] = {
    {STEERING_MD, "| containment |", 2}, {STEERING_MD, "| containment |", 3},
    {AI_MD, "| `aware_rate` |", 3},
    {AI_MD, "| evasion countdown |", 4}, {AI_MD, "| caution: view cone factor |", 4},
    {FORMATS_MD, "| `aware_rate` | guard |", 5},
    {FORMATS_MD, "| `decel_tweak` |", 3},
};
/* Header blocks (from `start` to `end`): a field whose comment holds a number (and the
 * word `needs`, if given) must have one of them read. */
typedef struct block { int doc; const char *start, *end; const char *needs; } block;
static const block blocks[] = {
    {STEER_H, "typedef struct pt_steer_params {", "} pt_steer_params;", NULL},
    {STEER_H, "typedef struct pt_vehicle {", "} pt_vehicle;", "default"},
    {MAP_H, "typedef struct pt_entity_def {", "} pt_entity_def;", "default"},
    {MAP_H, "typedef struct pt_phase_timing {", "} pt_phase_timing;", "default"},
    {PATTERN_H, "typedef struct pt_thrust_body_params {", "} pt_thrust_body_params;", "default"},
};

/* The solver's defaults, as pt_solve resolves zero options (a one-cell walk to an exit). */
static void load_solve_defaults(void) {
    pt_map m;
    pt_error err;
    const char *text = "player at=1,1\ngrid\n####\n#.E#\n####\nend\n";
    ck_assert_int_eq(pt_map_parse(&m, text, strlen(text), "solve.map", &err), PT_OK);
    pt_patlib lib;
    pt_patlib_init(&lib);
    pt_solve_opts o;
    memset(&o, 0, sizeof o);
    pt_solve_result r;
    ck_assert_int_eq(pt_solve(&m, &lib, &o, &r, &err), PT_OK);
    solve_horizon_ticks = r.max_ticks;
    solve_horizon_s = r.max_ticks / world_hz;
    solve_nseeds = r.nseeds;
    solve_margin = o.margin;
    solve_leave_after = o.leave_after;
    pt_solve_result_fini(&r);
    pt_patlib_fini(&lib);
    pt_map_fini(&m);
}

static void load_code(void) {
    memset(&phases_def, 0, sizeof phases_def);
    pt_phase_timing_resolve(&phases_def);
    P = *pt_steer_params_builtin();
    params_behaviours = P.behaviours;
    memset(&V, 0, sizeof V);
    pt_vehicle_resolve(&V);
    pt_entity_def *defs[] = {&player_def, &guard_def, &prey_def, &flock_def};
    pt_kind kinds[] = {PT_KIND_PLAYER, PT_KIND_GUARD, PT_KIND_PREY, PT_KIND_BOID};
    for (int i = 0; i < 4; i++) {
        memset(defs[i], 0, sizeof *defs[i]);
        defs[i]->kind = kinds[i];
        pt_entity_def_resolve(defs[i]);
    }
    flock_count = flock_def.count;
    memset(&body, 0, sizeof body);
    body = pt_thrust_body_resolve(body);
    body_top_speed = body.thrust / body.drag;
    crowd_min_share = PT_CROWD_MIN_SHARE;

    /* A map whose entities set no keys, and the world built from it. */
    static const char map_text[] = "player at=1,1\n"
                                   "guard g at=3,1\n"
                                   "obstacle at=2.5,2.5\n"
                                   "light t at=3,2 radius=1\n"
                                   "grid\n"
                                   "#####\n"
                                   "#...#\n"
                                   "#...#\n"
                                   "#####\n"
                                   "end\n";
    pt_map map;
    pt_error err;
    ck_assert_int_eq(pt_map_parse(&map, map_text, strlen(map_text), "defaults.map", &err), PT_OK);
    map_tile_px = map.tile_px;
    static const char sound_chars[4] = {'+', '*', '.', '~'};
    for (int i = 0; i < 4; i++) tile_sound[i] = map.legend[pt_map_legend_find(&map, sound_chars[i])].sound / 10.0;
    static const char step_chars[3] = {'.', '=', ','};
    for (int i = 0; i < 3; i++) tile_footstep[i] = map.legend[pt_map_legend_find(&map, step_chars[i])].footstep;
    for (int g = 0; g < PT_GAIT_COUNT; g++) {
        gait_speed[g] = pt_gait_speed((pt_gait)g);
        gait_loud[g] = pt_gait_loudness((pt_gait)g);
        gait_heard[g] = ceil(gait_loud[g] - guard_def.hearing) - 1; /* level L - d must be above it */
    }
    ck_assert_int_eq(map.nobstacles, 1);
    obstacle_r = map.obstacles[0].r;
    pt_patlib lib;
    pt_patlib_init(&lib);
    static const char pat_text[] = "pattern route\n  kind waypoints\n  points 1.5,1.5 2.5,1.5\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, pat_text, strlen(pat_text), "defaults.pat", &err), PT_OK);
    const pt_pattern *route = pt_patlib_find(&lib, "route");
    ck_assert(route != NULL);
    waypoint_radius = route->path_radius;
    static const char look_text[] = "pattern peek\n  kind control\n  look\n  wait 1s\nend\n";
    ck_assert_int_eq(pt_patlib_parse(&lib, look_text, strlen(look_text), "look.pat", &err), PT_OK);
    const pt_pattern *peek = pt_patlib_find(&lib, "peek");
    ck_assert(peek != NULL && peek->nlooks == 1 && peek->looks[0].nangles == 2);
    pattern_hz = peek->ins[1].amount;
    look_s = peek->looks[0].look / pattern_hz;
    look_deg = peek->looks[0].angles[1];
    ck_assert(peek->looks[0].angles[0] == -look_deg);
    pt_world *w = pt_world_create(&map, &lib, NULL, &err);
    ck_assert(w != NULL);
    world_hz = 1.0 / pt_world_dt(w);
    const pt_entity *g = pt_world_entity(w, 1);
    ck_assert_int_eq(g->kind, PT_KIND_GUARD);
    world_mass = g->veh.mass;
    world_force = g->veh.max_force;
    world_turn = g->veh.max_turn_rate;
    world_radius = g->veh.radius;
    ck_assert_int_eq(map.nlights, 1);
    light_level_def = map.lights[0].level;
    light_on_def = map.lights[0].on;
    ck_assert(light_on_def == 1.0); /* formats.md: `on` unless `off` */
    ambient_def = pt_world_light_static(w, 1, 1);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    load_solve_defaults();

    static const char test_text[] = "map x.map\nvisits g 1,1\nstays g area=1,1,2,2\ncovers g 1,1\nunseen\ncaught\n"
                                    "goal\nsolvable\n";
    pt_testfile tf;
    ck_assert_int_eq(pt_testfile_parse(&tf, test_text, strlen(test_text), "defaults.test", &err), PT_OK);
    ck_assert_int_eq(tf.count, PT_EXPECT_KIND_COUNT);
    for (int i = 0; i < tf.count; i++) {
        ck_assert_int_eq(tf.items[i].kind, i);
        test_within[i] = tf.items[i].within;
        test_for[i] = tf.items[i].duration;
    }
    test_every = tf.items[PT_EXPECT_COVERS].every;
    test_margin = tf.items[PT_EXPECT_SOLVABLE].margin;
    pt_testfile_fini(&tf);
}

/* ---- the check ----------------------------------------------------------------------- */

typedef struct result {
    int read;     /* values read from the docs */
    int problems; /* mismatches, values not found, numbers no entry read */
} result;

static void problem(result *r, int quiet, const char *fmt, ...) {
    r->problems++;
    if (quiet) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Reads one entry's number from its doc; returns its position or (size_t)-1. */
static size_t read_entry(const doc *d, const entry *en, double *val) {
    size_t end;
    if (count_matches(d, en->anchor) != 1) return (size_t)-1;
    size_t at = find(d, 0, en->anchor, &end), after;
    if (en->how == LAST) {
        size_t le = line_end(d, at), pos = (size_t)-1, k = line_start(d, at);
        double v;
        while ((k = next_number(d->text, k, le, &v, &after)) < le) {
            pos = k;
            *val = v;
            k = after;
        }
        return pos;
    }
    size_t from = end, limit = d->len;
    if (en->how == CELL) {
        if (!cell(d, at, en->col, &from, &limit)) return (size_t)-1;
        if (!en->after) {
            size_t k = from;
            for (int i = 0;; i++) {
                k = next_number(d->text, k, limit, val, &after);
                if (k >= limit) return (size_t)-1;
                if (i == en->index) return k;
                k = after;
            }
        }
    }
    if (en->after) {
        size_t s = find(d, from, en->after, &end);
        if (s == (size_t)-1 || end > limit || s > from + 1500) return (size_t)-1;
        from = end;
    }
    while (from < limit && d->text[from] == ' ') from++;
    if (!(after = number_at(d->text, from, val))) return (size_t)-1;
    for (int i = 0; i < en->index; i++) {
        from = next_number(d->text, after, limit, val, &after);
        if (from >= limit) return (size_t)-1;
    }
    return from;
}

/* Every number in [b, e) must have been read. */
static void check_read(result *r, int quiet, const doc *d, const char *file, size_t b, size_t e) {
    double v;
    size_t after;
    for (size_t k = b; (k = next_number(d->text, k, e, &v, &after)) < e; k = after)
        if (!d->used[k]) {
            char where[96];
            size_t ls = line_start(d, k), le = line_end(d, k);
            snprintf(where, sizeof where, "%.*s", (int)(le - ls < 80 ? le - ls : 80), d->text + ls);
            problem(r, quiet, "%s: no entry reads the default %g in: %s", file, v, where);
        }
}

/* At least one number in [b, e) was read. */
static int any_read(const doc *d, size_t b, size_t e) {
    double v;
    size_t after;
    for (size_t k = b; (k = next_number(d->text, k, e, &v, &after)) < e; k = after)
        if (d->used[k]) return 1;
    return 0;
}

static result check_docs(doc docs[NDOCS], int quiet) {
    result r = {0, 0};
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const entry *en = &entries[i];
        doc *d = &docs[en->doc];
        double v = NAN;
        size_t at = read_entry(d, en, &v);
        if (at == (size_t)-1) {
            problem(&r, quiet, "%s: no default found at '%s' ... '%s'", doc_files[en->doc], en->anchor,
                    en->after ? en->after : "");
            continue;
        }
        d->used[at] = 1;
        r.read++;
        double code = *en->code * en->scale;
        if (!(fabs(v - code) <= 1e-9 * fmax(1.0, fabs(code))))
            problem(&r, quiet, "%s: '%s' documents %g, the code uses %g", doc_files[en->doc], en->anchor, v, code);
    }
    /* steering.md: every `name` [N] */
    const doc *sm = &docs[STEERING_MD];
    for (size_t k = 0; k + 3 < sm->len; k++)
        if (strncmp(sm->text + k, "` [", 3) == 0 && isdigit((unsigned char)sm->text[k + 3]))
            check_read(&r, quiet, sm, doc_files[STEERING_MD], k + 3, k + 4);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        const table *t = &tables[i];
        const doc *d = &docs[t->doc];
        size_t end, at = find(d, 0, t->row, &end);
        if (at == (size_t)-1) {
            problem(&r, quiet, "%s: no table with the row '%s'", doc_files[t->doc], t->row);
            continue;
        }
        size_t s = line_start(d, at);
        while (s > 0 && d->text[line_start(d, s - 1)] == '|') s = line_start(d, s - 1);
        s = line_end(d, line_end(d, s) + 1) + 1; /* past the header and the |---| line */
        int rows = 0;
        for (; s < d->len && d->text[s] == '|'; s = line_end(d, s) + 1, rows++) {
            size_t b, e;
            if (cell(d, s, t->col, &b, &e)) check_read(&r, quiet, d, doc_files[t->doc], b, e);
        }
        if (rows < 4) problem(&r, quiet, "%s: the table of '%s' has too few rows", doc_files[t->doc], t->row);
    }
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        const block *bl = &blocks[i];
        const doc *d = &docs[bl->doc];
        size_t e0, e1, s = find(d, 0, bl->start, &e0), e = find(d, e0, bl->end, &e1);
        if (s == (size_t)-1 || e == (size_t)-1) {
            problem(&r, quiet, "%s: no block '%s'", doc_files[bl->doc], bl->start);
            continue;
        }
        for (size_t ls = line_end(d, s) + 1; ls < e; ls = line_end(d, ls) + 1) {
            size_t le = line_end(d, ls), c = ls;
            while (c < le && d->text[c] == ' ') c++;
            if (strncmp(d->text + c, "/*", 2) == 0) continue; /* a comment line, not a field */
            const char *com = strstr(d->text + c, "/*");
            if (!com || (size_t)(com - d->text) >= le) continue;
            size_t cb = (size_t)(com - d->text);
            if (bl->needs) {
                const char *n = strstr(com, bl->needs);
                if (!n || (size_t)(n - d->text) >= le) continue;
            }
            double v;
            size_t after;
            if (next_number(d->text, cb, le, &v, &after) < le && !any_read(d, cb, le))
                problem(&r, quiet, "%s: no entry reads the default in: %.*s", doc_files[bl->doc], (int)(le - ls), d->text + ls);
        }
    }
    return r;
}

static void load_docs(doc docs[NDOCS]) {
    for (int i = 0; i < NDOCS; i++) doc_load(&docs[i], doc_files[i]);
}

static void free_docs(doc docs[NDOCS]) {
    for (int i = 0; i < NDOCS; i++) doc_free(&docs[i]);
}

/* ---- tests --------------------------------------------------------------------------- */

START_TEST(test_docs_match_code) {
    load_code();
    doc docs[NDOCS];
    load_docs(docs);
    result r = check_docs(docs, 0);
    /* Every entry read its value, and there are many of them. */
    ck_assert_int_eq(r.read, (int)(sizeof entries / sizeof entries[0]));
    ck_assert_int_ge(r.read, 190);
    ck_assert_int_eq(r.problems, 0);
    free_docs(docs);
}
END_TEST

/* Replaces the first occurrence of from (after anchor) in d with to. */
static void edit(doc *d, const char *anchor, const char *from, const char *to) {
    char *a = strstr(d->text, anchor);
    ck_assert_msg(a != NULL, "%s", anchor);
    char *p = strstr(a, from);
    ck_assert(p != NULL);
    size_t pre = (size_t)(p - d->text), fl = strlen(from), tl = strlen(to), n = d->len - fl + tl;
    char *t = malloc(n + 1);
    ck_assert(t != NULL);
    memcpy(t, d->text, pre);
    memcpy(t + pre, to, tl);
    memcpy(t + pre + tl, p + fl, d->len - pre - fl + 1);
    doc_free(d);
    doc_set(d, t, n);
    free(t);
}

/* The check fails on an edited default, on a reformatted table (nothing read from it) and
 * on a default the entries do not know. */
START_TEST(test_check_can_fail) {
    load_code();
    static const struct { int doc; const char *anchor, *from, *to; int min_problems; } cases[] = {
        {STEERING_MD, "`side_feeler_length` [", "0.7", "0.9", 1},
        {STEER_H, "double view_radius;", "4 */", "2.5 */", 1},
        {AI_MD, "drawn centres at most", "1.75", "1.5", 1},
        {FORMATS_MD, "| `body KEY=VALUE...` |", "`drag` 1", "`drag` 2", 1},
        {AI_MD, "| `aware_rate` |", "| `aware_rate` |", "| aware_rate |", 1},          /* row not found */
        {STEERING_MD, "| containment | 40", "| containment |", "- containment:", 2}, /* table lost */
        {FORMATS_MD, "| `threat_range` |", "| 5 |", "| 5 (also 6) |", 1},             /* unread number */
        {STEERING_MD, "`view_radius` [4]", "neighbour radius", "`neighbour_radius` [3] or", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        doc docs[NDOCS];
        load_docs(docs);
        edit(&docs[cases[i].doc], cases[i].anchor, cases[i].from, cases[i].to);
        result r = check_docs(docs, 1);
        ck_assert_msg(r.problems >= cases[i].min_problems, "case %zu: %d problems", i, r.problems);
        free_docs(docs);
    }
}
END_TEST

static Suite *defaults_suite(void) {
    Suite *s = suite_create("defaults");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_docs_match_code);
    suite_add_tcase(s, tc);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, test_check_can_fail);
    suite_add_tcase(s, lim);
    return s;
}

int main(void) { return tu_run(defaults_suite()); }
