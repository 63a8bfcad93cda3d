/* SPDX-License-Identifier: Zlib */
/* patrol/math.h - 2D vectors and angles (header only).
 *
 * Units: positions in tiles (tile (x,y) spans [x,x+1) x [y,y+1)), time in seconds,
 * angles in radians in the API (degrees only in text files and traces). Heading 0 points
 * to +x (east); angles grow clockwise on screen because y grows downward.
 *
 * Every function is total: normalising the zero vector gives the zero vector, acos
 * arguments are clamped, so nothing here can produce NaN from finite input.
 */
#ifndef PATROL_MATH_H
#define PATROL_MATH_H

#include <math.h>

#ifndef PT_PI
#define PT_PI 3.14159265358979323846
#endif
#define PT_TAU (2.0 * PT_PI)
#define PT_EPS 1e-9

typedef struct pt_vec2 { double x, y; } pt_vec2;
typedef struct pt_cell { int x, y; } pt_cell;

static inline pt_vec2 pt_v2(double x, double y) { pt_vec2 v = {x, y}; return v; }
static inline pt_vec2 pt_v2_add(pt_vec2 a, pt_vec2 b) { return pt_v2(a.x + b.x, a.y + b.y); }
static inline pt_vec2 pt_v2_sub(pt_vec2 a, pt_vec2 b) { return pt_v2(a.x - b.x, a.y - b.y); }
static inline pt_vec2 pt_v2_scale(pt_vec2 a, double s) { return pt_v2(a.x * s, a.y * s); }
static inline pt_vec2 pt_v2_neg(pt_vec2 a) { return pt_v2(-a.x, -a.y); }
static inline double pt_v2_dot(pt_vec2 a, pt_vec2 b) { return a.x * b.x + a.y * b.y; }
/* z of the 3D cross product; > 0 when b is clockwise of a on screen (y down). */
static inline double pt_v2_cross(pt_vec2 a, pt_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline double pt_v2_len2(pt_vec2 a) { return a.x * a.x + a.y * a.y; }
static inline double pt_v2_len(pt_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline double pt_v2_dist(pt_vec2 a, pt_vec2 b) { return pt_v2_len(pt_v2_sub(a, b)); }
static inline double pt_v2_dist2(pt_vec2 a, pt_vec2 b) { return pt_v2_len2(pt_v2_sub(a, b)); }
/* Unit vector of a; the zero vector (or one shorter than PT_EPS) gives (0,0). */
static inline pt_vec2 pt_v2_norm(pt_vec2 a) {
    double l = pt_v2_len(a);
    return l > PT_EPS ? pt_v2(a.x / l, a.y / l) : pt_v2(0.0, 0.0);
}
/* The perpendicular 90 degrees clockwise on screen: (x,y) -> (-y,x). With heading h this
 * is the "side" vector pointing to the entity's right. */
static inline pt_vec2 pt_v2_perp(pt_vec2 a) { return pt_v2(-a.y, a.x); }
/* a shortened to at most max length (direction kept). */
static inline pt_vec2 pt_v2_truncate(pt_vec2 a, double max) {
    double l2 = pt_v2_len2(a);
    if (l2 > max * max && l2 > 0.0) { double s = max / sqrt(l2); return pt_v2(a.x * s, a.y * s); }
    return a;
}
static inline pt_vec2 pt_v2_rotate(pt_vec2 a, double rad) {
    double c = cos(rad), s = sin(rad);
    return pt_v2(a.x * c - a.y * s, a.x * s + a.y * c);
}
static inline pt_vec2 pt_v2_from_angle(double rad) { return pt_v2(cos(rad), sin(rad)); }
static inline double pt_v2_angle(pt_vec2 a) { return atan2(a.y, a.x); }
static inline int pt_v2_is_finite(pt_vec2 a) { return isfinite(a.x) && isfinite(a.y); }

/* A point in the local frame of (pos, heading unit vector, side = perp(heading)). */
static inline pt_vec2 pt_v2_to_local(pt_vec2 p, pt_vec2 pos, pt_vec2 heading) {
    pt_vec2 d = pt_v2_sub(p, pos);
    return pt_v2(pt_v2_dot(d, heading), pt_v2_dot(d, pt_v2_perp(heading)));
}
static inline pt_vec2 pt_v2_to_world(pt_vec2 local, pt_vec2 pos, pt_vec2 heading) {
    pt_vec2 side = pt_v2_perp(heading);
    return pt_v2(pos.x + heading.x * local.x + side.x * local.y,
                 pos.y + heading.y * local.x + side.y * local.y);
}
/* A direction (not a point) rotated into / out of the local frame. */
static inline pt_vec2 pt_v2_dir_to_world(pt_vec2 local, pt_vec2 heading) {
    pt_vec2 side = pt_v2_perp(heading);
    return pt_v2(heading.x * local.x + side.x * local.y, heading.y * local.x + side.y * local.y);
}

static inline double pt_clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }
static inline int pt_clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
/* acos with its argument clamped to [-1,1]: a dot product of unit vectors may exceed 1. */
static inline double pt_acos(double c) { return acos(pt_clamp(c, -1.0, 1.0)); }
/* Angle wrapped to (-pi, pi]. */
static inline double pt_wrap_angle(double a) {
    if (!isfinite(a)) return 0.0;
    a = fmod(a, PT_TAU);
    if (a <= -PT_PI) a += PT_TAU; else if (a > PT_PI) a -= PT_TAU;
    return a;
}
static inline double pt_deg(double rad) { return rad * (180.0 / PT_PI); }
static inline double pt_rad(double deg) { return deg * (PT_PI / 180.0); }

#endif
