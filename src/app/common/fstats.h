/* SPDX-License-Identifier: Zlib */
/* fstats.h - frame statistics for `patrol play --stats` and the debug overlay's readout.
 *
 * Each frame adds two samples: its time (wall milliseconds from the frame's start to the end
 * of its present: events, ticks, drawing) and its CPU time (milliseconds of process CPU over
 * the whole frame, sleep included: what the game costs the machine). The last APP_FSTATS_KEEP
 * frames are kept for medians; the worst of all frames is tracked apart.
 *
 *     app_fstats st;  app_fstats_init(&st);
 *     app_fstats_add(&st, work_ms, cpu_ms);              // once a frame
 *     app_fstats_sum sum;  app_fstats_summary(&st, 60, &sum);   // the last second
 *
 * Memory: fixed (no allocation); summary sorts copies on the stack of at most `last` samples.
 * No SDL here: the clocks are app_fstats_now_s / app_fstats_cpu_s (POSIX clock_gettime).
 */
#ifndef PATROL_APP_FSTATS_H
#define PATROL_APP_FSTATS_H

#define APP_FSTATS_KEEP 4096 /* frames kept for medians (68 s at 60 fps) */

typedef struct app_fstats {
    float work_ms[APP_FSTATS_KEEP], cpu_ms[APP_FSTATS_KEEP]; /* a ring: frame n at n % KEEP */
    long frames;                                           /* added so far */
    double worst_work_ms, worst_cpu_ms;                    /* over every frame */
} app_fstats;

typedef struct app_fstats_sum {
    long frames;               /* frames summed */
    double work_median, work_worst, cpu_median, cpu_worst; /* milliseconds */
} app_fstats_sum;

void app_fstats_init(app_fstats *st);
/* One frame; negative or non-finite samples count as 0. */
void app_fstats_add(app_fstats *st, double work_ms, double cpu_ms);
/* Median and worst of the last `last` frames (0 = every kept frame; worst then is over every
 * frame ever added). All zero when no frame was added. */
void app_fstats_summary(const app_fstats *st, long last, app_fstats_sum *out);

/* Seconds on a monotonic clock, and seconds of CPU time of the whole process (every thread). */
double app_fstats_now_s(void);
double app_fstats_cpu_s(void);

#endif
