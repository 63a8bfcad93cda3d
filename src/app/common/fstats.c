/* SPDX-License-Identifier: Zlib */
/* Frame statistics: a ring of samples and their medians. */
#define _POSIX_C_SOURCE 200809L
#include "common/fstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void app_fstats_init(app_fstats *st) { memset(st, 0, sizeof *st); }

static double clean(double v) { return isfinite(v) && v > 0 ? v : 0.0; }

void app_fstats_add(app_fstats *st, double work_ms, double cpu_ms) {
    work_ms = clean(work_ms);
    cpu_ms = clean(cpu_ms);
    long i = st->frames % APP_FSTATS_KEEP;
    st->work_ms[i] = (float)work_ms;
    st->cpu_ms[i] = (float)cpu_ms;
    st->frames++;
    if (work_ms > st->worst_work_ms) st->worst_work_ms = work_ms;
    if (cpu_ms > st->worst_cpu_ms) st->worst_cpu_ms = cpu_ms;
}

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median and maximum of the n samples before ring position end (exclusive), walking back. */
static void median_worst(const float *ring, long end, long n, double *median, double *worst) {
    static float tmp[APP_FSTATS_KEEP]; /* one thread draws and summarises */
    for (long k = 0; k < n; k++) tmp[k] = ring[(end - 1 - k) % APP_FSTATS_KEEP];
    qsort(tmp, (size_t)n, sizeof tmp[0], cmp_float);
    *median = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + (double)tmp[n / 2]) / 2.0;
    *worst = tmp[n - 1];
}

void app_fstats_summary(const app_fstats *st, long last, app_fstats_sum *out) {
    memset(out, 0, sizeof *out);
    long kept = st->frames < APP_FSTATS_KEEP ? st->frames : APP_FSTATS_KEEP;
    long n = last > 0 && last < kept ? last : kept;
    if (n <= 0) return;
    out->frames = n;
    /* end + KEEP keeps the index positive as it walks back */
    long end = st->frames % APP_FSTATS_KEEP + APP_FSTATS_KEEP;
    median_worst(st->work_ms, end, n, &out->work_median, &out->work_worst);
    median_worst(st->cpu_ms, end, n, &out->cpu_median, &out->cpu_worst);
    if (n == kept && (last <= 0 || last >= st->frames)) {
        out->frames = st->frames;
        out->work_worst = st->worst_work_ms;
        out->cpu_worst = st->worst_cpu_ms;
    }
}

double app_fstats_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double app_fstats_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
