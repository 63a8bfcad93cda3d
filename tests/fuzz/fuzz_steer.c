/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the .steer parameters parser (pt_steer_file_parse). It must return PT_OK
 * or a located error, never crash or leak; a failed parse must leave the previous file
 * exactly as it was (hot reload); every parameter set it accepts must resolve to finite,
 * positive values. */
#include <patrol/steer.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char k_prev[] = "set base\n  max_speed 4\nend\nset hound from base\n  behaviours flocking\nend\n"
                             "entity e1 from hound\n  mass 2\nend\n";

static void check_params(const pt_steer_params *p) {
    for (int i = 0; i < PT_BEH_COUNT; i++)
        if (!isfinite(p->weight[i]) || !(p->weight[i] > 0) || !isfinite(p->probability[i]) ||
            !(p->probability[i] > 0) || p->probability[i] > 1)
            __builtin_trap();
    const double v[] = {p->decel_tweak, p->panic_distance, p->threat_range, p->facing_angle, p->turn_around_time,
                        p->wander_radius, p->wander_distance, p->wander_jitter, p->box_length, p->braking_weight,
                        p->feeler_length, p->side_feeler_length, p->feeler_angle, p->hide_distance,
                        p->waypoint_distance, p->path_predict, p->path_ahead, p->path_radius, p->view_radius,
                        p->containment_lookahead, p->containment_margin};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]) || !(v[i] > 0)) __builtin_trap();
    const double o[] = {p->mass, p->max_speed, p->max_force, p->max_turn_rate, p->radius, p->smooth_time};
    for (size_t i = 0; i < sizeof o / sizeof o[0]; i++)
        if (!isfinite(o[i]) || o[i] < 0) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_steer_file f;
    pt_error err;
    pt_steer_file_init(&f);
    if (pt_steer_file_parse(&f, k_prev, sizeof k_prev - 1, "prev.steer", &err) != PT_OK) __builtin_trap();
    pt_steer_set *old_sets = f.sets;
    int old_count = f.count;
    pt_steer_set snapshot[3];
    memcpy(snapshot, f.sets, sizeof snapshot);

    int rc = pt_steer_file_parse(&f, (const char *)data, size, "fuzz.steer", &err);
    if (rc == PT_OK) {
        for (int i = 0; i < f.count; i++) {
            pt_steer_params p;
            const pt_steer_set *s = &f.sets[i];
            if (pt_steer_file_params(&f, s->is_entity ? s->name : NULL, s->is_entity ? NULL : s->name, &p) != PT_OK)
                __builtin_trap(); /* every set the file defines resolves */
            check_params(&p);
        }
    } else {
        if (err.code >= 0 || err.line < 0 || err.col < 0) __builtin_trap(); /* an error must be an error */
        /* all or nothing: the previous file is untouched */
        if (f.sets != old_sets || f.count != old_count || memcmp(f.sets, snapshot, sizeof snapshot) != 0)
            __builtin_trap();
    }
    pt_steer_file_fini(&f);
    return 0;
}
