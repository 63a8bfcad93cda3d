/* SPDX-License-Identifier: Zlib */
/* The world's lights and each tile's light level (patrol/light.h). */
#include "senses/light.h"

#include <patrol/light.h>
#include <patrol/los.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "state/events.h"

int pt__light_init(pt_world *w, pt_error *err) {
    w->ambient = w->map.ambient_set ? w->map.ambient : 1.0;
    w->light_on = NULL;
    if (w->map.nlights <= 0) return PT_OK;
    w->light_on = PT_CALLOC((size_t)w->map.nlights, 1);
    if (!w->light_on) return pt_error_set(err, PT_ERR_NOMEM, 0, 0, "out of memory for %d lights", w->map.nlights);
    for (int i = 0; i < w->map.nlights; i++) w->light_on[i] = w->map.lights[i].on != 0;
    return PT_OK;
}

void pt__light_fini(pt_world *w) {
    PT_FREE(w->light_on);
    w->light_on = NULL;
}

int pt__light_units(const pt_map *map, const pt_light_def *l, int x, int y) {
    double dx = x - l->x, dy = y - l->y;
    double d = sqrt(dx * dx + dy * dy);
    if (!(d < l->radius)) return 0;
    if (!pt_los_clear(map, l->x, l->y, x, y)) return 0;
    return (int)floor(l->level * (1.0 - d / l->radius) * PT__LIGHT_ONE + 0.5);
}

void pt__light_set(pt_world *w, int i, int on, uint32_t by) {
    on = on != 0;
    if (w->light_on[i] == on) return;
    w->light_on[i] = (unsigned char)on;
    const pt_light_def *l = &w->map.lights[i];
    pt__world_event(w, PT_EVENT_LIGHT, by, (uint32_t)on, l->x, l->y);
}

int pt_world_light_count(const pt_world *w) { return w->map.nlights; }

int pt_world_light_find(const pt_world *w, const char *name) {
    for (int i = 0; name && i < w->map.nlights; i++)
        if (!strcmp(w->map.lights[i].name, name)) return i;
    return -1;
}

int pt_world_light_get(const pt_world *w, int i, pt_light *out) {
    if (i < 0 || i >= w->map.nlights) return PT_ERR_BAD_VALUE;
    const pt_light_def *l = &w->map.lights[i];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", l->name);
    out->x = l->x;
    out->y = l->y;
    out->radius = l->radius;
    out->level = l->level;
    out->on = w->light_on[i];
    return PT_OK;
}

int pt_world_set_light(pt_world *w, int i, int on, pt_error *err) {
    pt_error_clear(err);
    if (i < 0 || i >= w->map.nlights)
        return pt_error_set(err, PT_ERR_BAD_VALUE, 0, 0, "no light %d (the world has %d)", i, w->map.nlights);
    pt__light_set(w, i, on, PT_LIGHT_BY_GAME);
    return PT_OK;
}

static int static_units(const pt_world *w, int x, int y) {
    long sum = (long)floor(w->ambient * PT__LIGHT_ONE + 0.5);
    for (int i = 0; i < w->map.nlights && sum < PT__LIGHT_ONE; i++)
        if (w->light_on[i]) sum += pt__light_units(&w->map, &w->map.lights[i], x, y);
    return sum < PT__LIGHT_ONE ? (int)sum : PT__LIGHT_ONE;
}

double pt_world_light_static(const pt_world *w, int x, int y) {
    if (!pt_map_in(&w->map, x, y)) return 0.0;
    return (double)static_units(w, x, y) / PT__LIGHT_ONE;
}

double pt_world_light_at(const pt_world *w, int x, int y) {
    if (!pt_map_in(&w->map, x, y)) return 0.0;
    long u = static_units(w, x, y);
    if (u < PT__LIGHT_ONE) u += pt__lantern_units(w, x, y);
    return (double)(u < PT__LIGHT_ONE ? u : PT__LIGHT_ONE) / PT__LIGHT_ONE;
}

double pt_world_visibility(const pt_world *w) {
    const pt_entity *p = &w->ents[0];
    double l = pt_world_light_at(w, p->x, p->y);
    pt_gait g = pt_world_gait(w);
    double k = g == PT_GAIT_SNEAK ? LIGHT_GAIT_SNEAK : g == PT_GAIT_RUN ? LIGHT_GAIT_RUN : LIGHT_GAIT_WALK;
    return l + (1.0 - l) * k;
}
