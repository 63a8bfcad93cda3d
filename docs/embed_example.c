/* SPDX-License-Identifier: Zlib */
/* embed_example.c - a game using the patrol core without the patrol app or SDL.
 * Build: cc embed_example.c $(pkg-config --cflags --libs patrol) ; run: ./a.out MAP [TICKS]
 * It loads a map and its patterns, steps the world and reads positions, states and events. */
#include <patrol/world.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "maps/demo.map";
    int ticks = argc > 2 ? atoi(argv[2]) : 600;
    pt_map map;
    pt_patlib lib;
    pt_error err;
    pt_patlib_init(&lib);
    if (pt_map_load(&map, path, &err) < 0) { pt_error_print(stderr, &err); return 1; }
    for (int i = 0; i < map.npattern_files; i++)
        if (pt_patlib_load(&lib, map.pattern_files[i], &err) < 0) { pt_error_print(stderr, &err); return 1; }
    pt_world *w = pt_world_create(&map, &lib, NULL, &err);     /* NULL: default settings */
    if (!w) { pt_error_print(stderr, &err); return 1; }
    int chases = 0;
    for (int t = 0; t < ticks; t++) {
        pt_world_step(w);                                       /* one fixed 1/60 s tick */
        int n;
        const pt_event *ev = pt_world_events(w, &n);
        for (int k = 0; k < n; k++) chases += ev[k].kind == PT_EVENT_SPOTTED;
    }
    for (int id = 0; id < pt_world_count(w); id++) {
        const pt_entity *e = pt_world_entity(w, id);
        printf("%-12s %-6s %-10s tile %d,%d\n", e->name, pt_kind_name(e->kind), pt_state_name(e->state), e->x, e->y);
    }
    printf("%d ticks, %d chases started\n", ticks, chases);
    pt_world_destroy(w);
    pt_patlib_fini(&lib);
    pt_map_fini(&map);
    return 0;
}
