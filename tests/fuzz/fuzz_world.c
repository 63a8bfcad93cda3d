/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: whole worlds from fuzzed maps. Every map the parser accepts (and that is
 * small enough to simulate quickly) becomes a world with a fixed pattern library (one pattern
 * of each kind, see k_pats; maps refer to them by name) and runs 120 ticks: no crash, no
 * sanitizer report, every entity finite and on a walkable tile. The steering file a map names
 * is ignored (no disk access while fuzzing). */
#include <patrol/world.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char k_pats[] =
    "pattern line\n  kind path\n  points 0,0 3,0\nend\n"
    "pattern ring\n  kind path\n  points 0,0 2,0 2,2 0,2 0,0\nend\n"
    "pattern back\n  kind path\n  points 0,0 3,1\n  at_end restart\nend\n"
    "pattern walk\n  kind matrix\n  rows\n    111\n    1.1\n    111\n  end\nend\n"
    "pattern snake\n  kind control\n  forward 2\n  right 90\n  wait 3\nend\n"
    "pattern square\n  kind thrust\n  repeat 4\n    fire none distance=2\n    fire port turn=90\n  end\nend\n"
    "pattern route\n  kind waypoints\n  points 0.5,0.5 3.5,0.5 3.5,2.5\nend\n";

static const pt_patlib *library(void) {
    static pt_patlib lib;
    static int ready;
    if (!ready) {
        pt_error err;
        pt_patlib_init(&lib);
        if (pt_patlib_parse(&lib, k_pats, sizeof k_pats - 1, "lib.pat", &err) != PT_OK) __builtin_trap();
        ready = 1;
    }
    return &lib;
}

static int entity_ok(const pt_world *w, const pt_entity *e) {
    return isfinite(e->px) && isfinite(e->py) && isfinite(e->heading) && isfinite(e->awareness) &&
           isfinite(e->veh.pos.x) && isfinite(e->veh.pos.y) && isfinite(e->veh.vel.x) && isfinite(e->veh.vel.y) &&
           pt_map_walkable(pt_world_map(w), e->x, e->y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pt_map m;
    pt_error err;
    if (pt_map_parse(&m, (const char *)data, size, "fuzz.map", &err) != PT_OK) return 0;
    long members = 1;
    for (int i = 0; i < m.nents; i++) members += m.ents[i].count > 1 ? m.ents[i].count : 1;
    if ((long)m.w * m.h <= 48 * 48 && members <= 96) {
        m.steering_file[0] = '\0';
        pt_world_desc desc = {.seed = size + 1, .player_controlled = (int)(size & 1)};
        pt_world *w = pt_world_create(&m, library(), &desc, &err);
        if (w) {
            for (int t = 0; t < 120; t++) {
                if (desc.player_controlled) pt_world_set_input(w, (int)(t / 7 % 3) - 1, (int)(t / 11 % 3) - 1);
                pt_world_step(w);
                for (int i = 0; i < pt_world_count(w); i++)
                    if (!entity_ok(w, pt_world_entity(w, i))) __builtin_trap();
            }
            pt_world_destroy(w);
        } else if (err.code >= 0) {
            __builtin_trap();
        }
    }
    pt_map_fini(&m);
    return 0;
}
