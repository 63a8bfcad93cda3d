/* SPDX-License-Identifier: Zlib */
/* simd.h - the bulk code's vector primitives, one set per width: v2 (SSE2, or plain C on
 * two-element arrays) and, where CROWD_AVX is defined, v4 (AVX). The v4 set is compiled
 * for AVX (target pragma): call it only from code compiled the same way, after checking
 * that the processor has AVX. */
#ifndef PATROL_BULK_SIMD_H
#define PATROL_BULK_SIMD_H

#include <float.h>
#include <math.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* Plain flocking four agents at a time with AVX (chosen at run time; GCC on x86-64). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(PT_CROWD_NO_SIMD)
#define CROWD_AVX 1
#endif

/* v2 holds two doubles: the x and y of one vector in the neighbour sums, or one value for
 * each of two agents in the pair step (lanes.h). Every lane does exactly the scalar
 * operation (IEEE add, mul, div and sqrt are exact per lane, so the bits are the same);
 * masks are all ones or all zeros per lane. The plain C version is the same code on
 * two-element arrays (PT_CROWD_NO_SIMD, or no SSE2). */
#if defined(__SSE2__) && !defined(PT_CROWD_NO_SIMD)
typedef __m128d v2;
typedef __m128d m2; /* lane masks: all ones or all zeros */
static inline v2 v2_set(double a, double b) { return _mm_set_pd(b, a); }
static inline v2 v2_load(const double *p) { return _mm_loadu_pd(p); }
static inline void v2_store(double *p, v2 a) { _mm_storeu_pd(p, a); }
static inline v2 v2_sp(double a) { return _mm_set1_pd(a); }
static inline v2 v2_add(v2 a, v2 b) { return _mm_add_pd(a, b); }
static inline v2 v2_sub(v2 a, v2 b) { return _mm_sub_pd(a, b); }
static inline v2 v2_mul(v2 a, v2 b) { return _mm_mul_pd(a, b); }
static inline v2 v2_div(v2 a, v2 b) { return _mm_div_pd(a, b); }
static inline v2 v2_sqrt(v2 a) { return _mm_sqrt_pd(a); }
static inline m2 v2_lt(v2 a, v2 b) { return _mm_cmplt_pd(a, b); }
static inline m2 v2_le(v2 a, v2 b) { return _mm_cmple_pd(a, b); }
static inline m2 v2_gt(v2 a, v2 b) { return _mm_cmpgt_pd(a, b); }
static inline m2 v2_nge(v2 a, v2 b) { return _mm_cmpnge_pd(a, b); } /* !(a >= b) */
static inline m2 v2_mand(m2 a, m2 b) { return _mm_and_pd(a, b); }
static inline m2 v2_mor(m2 a, m2 b) { return _mm_or_pd(a, b); }
static inline m2 v2_mlanes(int a, int b) { return _mm_castsi128_pd(_mm_set_epi64x(-(long long)(b != 0), -(long long)(a != 0))); }
static inline int v2_mbits(m2 m) { return _mm_movemask_pd(m); }
static inline v2 v2_sel(m2 m, v2 a, v2 b) { return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b)); }
static inline v2 v2_keep(m2 m, v2 a) { return _mm_and_pd(m, a); } /* a, or +0.0 */
static inline v2 v2_maxgt(v2 a, v2 b) { return _mm_max_pd(a, b); } /* a > b ? a : b per lane (b for NaN) */
static inline v2 v2_lo(v2 a, v2 b) { return _mm_unpacklo_pd(a, b); } /* a[0], b[0] */
static inline v2 v2_hi(v2 a, v2 b) { return _mm_unpackhi_pd(a, b); } /* a[1], b[1] */
static inline v2 v2_neg(v2 a) { return _mm_xor_pd(a, _mm_set1_pd(-0.0)); }
/* isfinite per lane */
static inline m2 v2_finite(v2 a) { return _mm_cmple_pd(_mm_andnot_pd(_mm_set1_pd(-0.0), a), _mm_set1_pd(DBL_MAX)); }
/* signbit per lane: the high dword's sign spread over the lane */
static inline m2 v2_signbit(v2 a) {
    return _mm_castsi128_pd(_mm_shuffle_epi32(_mm_srai_epi32(_mm_castpd_si128(a), 31), 0xF5));
}
static inline double v2_lane(v2 a, int l) { return _mm_cvtsd_f64(l ? _mm_unpackhi_pd(a, a) : a); }
static inline v2 v2_strided(const double *p, int stride) { return v2_set(p[0], p[stride]); }
static inline v2 v2_gather(const double *a, const int *m) { return v2_set(a[m[0]], a[m[1]]); }
static inline m2 v2_mints(const int *p, int stride) { return v2_mlanes(p[0], p[stride]); }
static inline m2 v2_mall(int a) { return v2_mlanes(a, a); }
#else
typedef struct { double l[2]; } v2;
typedef struct { int l[2]; } m2;
static inline v2 v2_set(double a, double b) { v2 r = {{a, b}}; return r; }
static inline v2 v2_sp(double a) { return v2_set(a, a); }
static inline v2 v2_load(const double *p) { return v2_set(p[0], p[1]); }
static inline void v2_store(double *p, v2 a) { p[0] = a.l[0]; p[1] = a.l[1]; }
static inline v2 v2_add(v2 a, v2 b) { return v2_set(a.l[0] + b.l[0], a.l[1] + b.l[1]); }
static inline v2 v2_sub(v2 a, v2 b) { return v2_set(a.l[0] - b.l[0], a.l[1] - b.l[1]); }
static inline v2 v2_mul(v2 a, v2 b) { return v2_set(a.l[0] * b.l[0], a.l[1] * b.l[1]); }
static inline v2 v2_div(v2 a, v2 b) { return v2_set(a.l[0] / b.l[0], a.l[1] / b.l[1]); }
static inline v2 v2_sqrt(v2 a) { return v2_set(sqrt(a.l[0]), sqrt(a.l[1])); }
static inline m2 v2_mlanes(int a, int b) { m2 r = {{a != 0, b != 0}}; return r; }
static inline m2 v2_lt(v2 a, v2 b) { return v2_mlanes(a.l[0] < b.l[0], a.l[1] < b.l[1]); }
static inline m2 v2_le(v2 a, v2 b) { return v2_mlanes(a.l[0] <= b.l[0], a.l[1] <= b.l[1]); }
static inline m2 v2_gt(v2 a, v2 b) { return v2_mlanes(a.l[0] > b.l[0], a.l[1] > b.l[1]); }
static inline m2 v2_nge(v2 a, v2 b) { return v2_mlanes(!(a.l[0] >= b.l[0]), !(a.l[1] >= b.l[1])); }
static inline m2 v2_mand(m2 a, m2 b) { return v2_mlanes(a.l[0] & b.l[0], a.l[1] & b.l[1]); }
static inline m2 v2_mor(m2 a, m2 b) { return v2_mlanes(a.l[0] | b.l[0], a.l[1] | b.l[1]); }
static inline int v2_mbits(m2 m) { return m.l[0] | m.l[1] << 1; }
static inline v2 v2_sel(m2 m, v2 a, v2 b) { return v2_set(m.l[0] ? a.l[0] : b.l[0], m.l[1] ? a.l[1] : b.l[1]); }
static inline v2 v2_keep(m2 m, v2 a) { return v2_sel(m, a, v2_sp(0.0)); }
static inline v2 v2_maxgt(v2 a, v2 b) { return v2_set(a.l[0] > b.l[0] ? a.l[0] : b.l[0], a.l[1] > b.l[1] ? a.l[1] : b.l[1]); }
static inline v2 v2_lo(v2 a, v2 b) { return v2_set(a.l[0], b.l[0]); }
static inline v2 v2_hi(v2 a, v2 b) { return v2_set(a.l[1], b.l[1]); }
static inline v2 v2_neg(v2 a) { return v2_set(-a.l[0], -a.l[1]); }
static inline m2 v2_finite(v2 a) { return v2_mlanes(isfinite(a.l[0]), isfinite(a.l[1])); }
static inline m2 v2_signbit(v2 a) { return v2_mlanes(signbit(a.l[0]), signbit(a.l[1])); }
static inline double v2_lane(v2 a, int l) { return a.l[l]; }
static inline v2 v2_strided(const double *p, int stride) { return v2_set(p[0], p[stride]); }
static inline v2 v2_gather(const double *a, const int *m) { return v2_set(a[m[0]], a[m[1]]); }
static inline m2 v2_mints(const int *p, int stride) { return v2_mlanes(p[0], p[stride]); }
static inline m2 v2_mall(int a) { return v2_mlanes(a, a); }
#endif

#ifdef CROWD_AVX
#pragma GCC push_options
#pragma GCC target("avx")
#include <immintrin.h>
typedef __m256d v4;
typedef __m256d m4;
static inline v4 v4_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void v4_store(double *p, v4 a) { _mm256_storeu_pd(p, a); }
static inline v4 v4_sp(double a) { return _mm256_set1_pd(a); }
static inline v4 v4_add(v4 a, v4 b) { return _mm256_add_pd(a, b); }
static inline v4 v4_sub(v4 a, v4 b) { return _mm256_sub_pd(a, b); }
static inline v4 v4_mul(v4 a, v4 b) { return _mm256_mul_pd(a, b); }
static inline v4 v4_div(v4 a, v4 b) { return _mm256_div_pd(a, b); }
static inline v4 v4_sqrt(v4 a) { return _mm256_sqrt_pd(a); }
static inline m4 v4_lt(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_LT_OS); }
static inline m4 v4_le(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_LE_OS); }
static inline m4 v4_gt(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OS); }
static inline m4 v4_nge(v4 a, v4 b) { return _mm256_cmp_pd(a, b, _CMP_NGE_US); } /* !(a >= b) */
static inline m4 v4_mand(m4 a, m4 b) { return _mm256_and_pd(a, b); }
static inline m4 v4_mor(m4 a, m4 b) { return _mm256_or_pd(a, b); }
static inline int v4_mbits(m4 m) { return _mm256_movemask_pd(m); }
static inline v4 v4_sel(m4 m, v4 a, v4 b) { return _mm256_or_pd(_mm256_and_pd(m, a), _mm256_andnot_pd(m, b)); }
static inline v4 v4_keep(m4 m, v4 a) { return _mm256_and_pd(m, a); }
static inline v4 v4_neg(v4 a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
static inline m4 v4_finite(v4 a) {
    return _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), a), _mm256_set1_pd(DBL_MAX), _CMP_LE_OS);
}
static inline m4 v4_signbit(v4 a) { /* two SSE2 halves: AVX has no 256-bit integer shifts */
    __m128i lo = _mm_castpd_si128(_mm256_castpd256_pd128(a)), hi = _mm_castpd_si128(_mm256_extractf128_pd(a, 1));
    lo = _mm_shuffle_epi32(_mm_srai_epi32(lo, 31), 0xF5);
    hi = _mm_shuffle_epi32(_mm_srai_epi32(hi, 31), 0xF5);
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_castsi128_pd(lo)), _mm_castsi128_pd(hi), 1);
}
static inline double v4_lane(v4 a, int l) {
    double t[4];
    _mm256_storeu_pd(t, a);
    return t[l];
}
static inline v4 v4_strided(const double *p, int stride) { return _mm256_set_pd(p[3 * stride], p[2 * stride], p[stride], p[0]); }
static inline m4 v4_mints(const int *p, int stride) {
    return _mm256_castsi256_pd(_mm256_set_epi64x(-(long long)(p[3 * stride] != 0), -(long long)(p[2 * stride] != 0),
                                                 -(long long)(p[stride] != 0), -(long long)(p[0] != 0)));
}
static inline v4 v4_gather(const double *a, const int *m) { return _mm256_set_pd(a[m[3]], a[m[2]], a[m[1]], a[m[0]]); }
static inline m4 v4_mall(int a) { return _mm256_castsi256_pd(_mm256_set1_epi64x(-(long long)(a != 0))); }
#pragma GCC pop_options
#endif

#endif
