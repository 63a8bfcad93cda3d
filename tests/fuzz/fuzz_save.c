/* SPDX-License-Identifier: Zlib */
/* libFuzzer target: the save loader (patrol/save.h) on fuzzed saves of one small world (a
 * fixed map: a tile guard on a path through a closed door that closes, a steered one on
 * waypoints, a locked door, prey and a flock; a fixed pattern library). Each input is loaded twice: as it is (the header and checksum checks), and with
 * its size field and checksum made right (so the fuzzer reaches every section's reader).
 * Either load fails with an error or gives a world that saves again and steps 30 ticks: no
 * crash, no sanitizer report. The seeds (corpus/save) are saves of that world at a few ticks
 * (one while the guard pauses at the door) and of it with a hosted player, a position waiting. */
#include <patrol/player.h>
#include <patrol/save.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const char k_map[] =
    "format 1\n"
    "title \"save\"\n"
    "player at=1,1\n"
    "guard g1 at=8,2 pattern=line chase=tile\n"
    "guard g2 at=10,5 pattern=route chase=steer\n"
    "prey hen at=6,4\n"
    "flock crows at=12,2 count=2\n"
    "door 9,2 closed closes\n"
    "door 9,6 locked\n"
    "grid\n"
    "################\n"
    "#..............#\n"
    "#..####..+.....#\n"
    "#..#...........#\n"
    "#..#.....~~....#\n"
    "#..............#\n"
    "#........+.....#\n"
    "################\n"
    "end\n";

static const char k_pats[] =
    "pattern line\n  kind path\n  points 0,0 3,0\nend\n"
    "pattern route\n  kind waypoints\n  points 0.5,0.5 3.5,0.5 3.5,2.5\nend\n";

static pt_map g_map;
static pt_patlib g_lib;

static void setup(void) {
    static int ready;
    if (ready) return;
    pt_error err;
    pt_patlib_init(&g_lib);
    if (pt_patlib_parse(&g_lib, k_pats, sizeof k_pats - 1, "lib.pat", &err) != PT_OK) __builtin_trap();
    if (pt_map_parse(&g_map, k_map, sizeof k_map - 1, "save.map", &err) != PT_OK) __builtin_trap();
    ready = 1;
}

static void try_load(const uint8_t *data, size_t size) {
    pt_error err;
    pt_world *w = pt_world_load(data, size, &g_map, &g_lib, NULL, &err);
    if (!w) {
        if (err.code >= 0) __builtin_trap();
        return;
    }
    void *again;
    size_t n;
    if (pt_world_save(w, NULL, &again, &n, &err) != PT_OK) __builtin_trap();
    pt_world_save_free(again);
    for (int t = 0; t < 30; t++) pt_world_step(w);
    pt_world_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    setup();
    try_load(data, size);
    if (size < 32) return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed) return 0;
    memcpy(fixed, data, size);
    for (int i = 0; i < 8; i++) fixed[12 + i] = (uint8_t)((uint64_t)size >> (8 * i));
    uLong crc = crc32(crc32(0L, Z_NULL, 0), fixed, (uInt)(size - 4));
    for (int i = 0; i < 4; i++) fixed[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    try_load(fixed, size);
    free(fixed);
    return 0;
}

#ifdef PATROL_FUZZ_SEEDS
/* cc -DPATROL_FUZZ_SEEDS ...: writes the seed corpus (saves at a few ticks) to the folder
 * given, for tests/fuzz/corpus/save. After tick 40 the game spawns a guard and a flock,
 * removes the prey and gives orders (patrol/spawn.h), so the later saves carry them. */
#include <patrol/spawn.h>
#include <stdio.h>
int main(int argc, char **argv) {
    setup();
    pt_error err;
    pt_world_desc d = {.seed = 5};
    pt_world *w = pt_world_create(&g_map, &g_lib, &d, &err);
    if (!w || argc < 2) return 1;
    static const int at[] = {0, 6, 40, 200, 600};
    int t = 0;
    char path[512];
    for (int k = 0; k < 5; k++) {
        while (t < at[k]) t++, pt_world_step(w);
        if (at[k] == 200 || at[k] == 600) { /* the events of these wait for the next step */
            char line[64];
            snprintf(line, sizeof line, "guard s%d at=5,1 pattern=line", at[k]);
            if (pt_world_spawn_line(w, line, NULL, NULL, &err) < 0) return 1;
            snprintf(line, sizeof line, "flock f%d at=12,5 count=3", at[k]);
            if (pt_world_spawn_line(w, line, NULL, NULL, &err) < 0) return 1;
            if (at[k] == 200 && pt_world_remove(w, 3) < 0) return 1;
            if (pt_world_order_goto(w, 1, 2, 5) < 0 || pt_world_order_hold(w, pt_world_count(w) - 4) < 0) return 1;
            if (at[k] == 600 && pt_world_order_pattern(w, 2, "line", &err) < 0) return 1;
        }
        snprintf(path, sizeof path, "%s/tick%d.sav", argv[1], at[k]);
        if (pt_world_save_file(w, path, NULL, &err) < 0) return 1;
    }
    pt_world_destroy(w);
    /* the game's own player, moved a few times, a position waiting for the next step */
    w = pt_world_create(&g_map, &g_lib, &d, &err);
    if (!w || pt_player_host(w) < 0) return 1;
    for (t = 0; t < 20; t++) {
        if (pt_player_move(w, 1.5 + 0.3 * t, 1.5, 18.0, 0.0, &err) < 0) return 1;
        pt_world_step(w);
    }
    if (pt_player_teleport(w, 5.5, 5.5, &err) < 0) return 1;
    snprintf(path, sizeof path, "%s/host.sav", argv[1]);
    if (pt_world_save_file(w, path, NULL, &err) < 0) return 1;
    pt_world_destroy(w);
    return 0;
}
#endif
