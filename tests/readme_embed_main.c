/* SPDX-License-Identifier: Zlib */
/* Runs the program of README.md's "Embedding the core" (extracted by readme_snippet.cmake and
 * compiled with main, pt_world_create, pt_world_step and pt_world_destroy renamed to the
 * functions below) and checks what a reader expects of it: it succeeds and the player it
 * steers moves. The README's snippet once passed a NULL desc, so its input was ignored. */
#include <stdio.h>

#include <patrol/world.h>

int readme_main(void);
pt_world *readme_world_create(const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc, pt_error *err);
void readme_world_step(pt_world *w);
void readme_world_destroy(pt_world *w);

static int created, controlled, steps, moved;

pt_world *readme_world_create(const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc, pt_error *err) {
    created++;
    controlled = desc && desc->player_controlled;
    return pt_world_create(map, lib, desc, err);
}

void readme_world_step(pt_world *w) {
    pt_world_step(w);
    steps++;
    const pt_entity *p = pt_world_entity(w, 0);
    const pt_map *m = pt_world_map(w);
    if (p->x != m->player.x || p->y != m->player.y) moved = 1;
}

void readme_world_destroy(pt_world *w) { pt_world_destroy(w); }

int main(void) {
    int rc = readme_main();
    int ok = 1;
    if (rc != 0) { fprintf(stderr, "readme_embed: the README's program returned %d\n", rc); ok = 0; }
    if (!created || !steps) { fprintf(stderr, "readme_embed: the README's program made no world or no step\n"); ok = 0; }
    if (!controlled) {
        fprintf(stderr, "readme_embed: the README's world is not player_controlled: pt_world_set_input is ignored\n");
        ok = 0;
    }
    if (!moved) { fprintf(stderr, "readme_embed: the player never left its start in %d steps\n", steps); ok = 0; }
    if (ok) printf("readme_embed: ok (%d steps, the player moved)\n", steps);
    return ok ? 0 : 1;
}
