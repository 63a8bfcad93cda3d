/* Private to the steering core (steer.c, crowd.c): what the crowd's one-pass group
 * behaviours share with pt_steer_separation/alignment/cohesion and pt_steer_calculate, so
 * that both give the same bits. */
#ifndef PATROL_STEER_PRIV_H
#define PATROL_STEER_PRIV_H

#include <patrol/steer.h>

/* Separation never lets one neighbour count for more than 1/PT__SEP_MIN_DIST. */
#define PT__SEP_MIN_DIST 0.01

/* Direction for two coincident agents (a fixed angle per unordered pair, opposite signs for
 * the two members). */
pt_vec2 pt__steer_coincident_dir(int self, int other);

/* Alignment from the neighbours' mean heading: only the sideways part of (mean - heading).
 * It turns the vehicle toward the mean heading. The part along the heading is never
 * positive, so it could only brake, and a disordered group would brake itself to a
 * standstill. */
static inline pt_vec2 pt__steer_align_to(const pt_vehicle *v, pt_vec2 mean_heading) {
    pt_vec2 d = pt_v2_sub(mean_heading, v->heading);
    return pt_v2_scale(v->side, pt_v2_dot(d, v->side));
}

/* Cohesion from the neighbours' centre: a seek, normalised as in Buckland's code (the raw
 * seek would dwarf the other two). */
static inline pt_vec2 pt__steer_cohere_to(const pt_vehicle *v, pt_vec2 centre) {
    return pt_v2_norm(pt_steer_seek(v, centre));
}

/* pt_steer_calculate, but the raw separation, alignment and cohesion forces (in that order)
 * are taken from group[0..2] instead of being computed from ctx->nb; group NULL = compute. */
pt_vec2 pt__steer_calculate_group(pt_steer_agent *a, const pt_steer_ctx *ctx, const pt_vec2 *group);

#endif
