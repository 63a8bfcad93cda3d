/* patrol render MAP --out FILE.png: the whole map drawn headless, as play draws it. */
#include "app.h"
#include "load.h"

#include <patrol/map.h>
#include <patrol/pattern.h>
#include <patrol/render.h>
#include <patrol/world.h>

#define RENDER_MAX_TICKS 100000000L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *out) {
    fprintf(out,
            "usage: patrol render MAP --out FILE.png [--scale S] [--ticks N] [--overlay LIST]\n"
            "\n"
            "Draws the whole map to a PNG as 'patrol play' shows it after N ticks with the player\n"
            "standing still (default 0: everyone at the start). Needs no display.\n"
            "\n"
            "options:\n"
            "  --out FILE.png   where to write the image (required)\n"
            "  --scale S        pixels per sprite pixel, 1..%d (default 1: 16 pixels a tile);\n"
            "                   the image may be at most %d pixels a side\n"
            "  --ticks N        simulation ticks (1/60 s each) to run first, 0..%ld\n"
            "  --overlay LIST   comma-separated: grid, cones, sight, labels, awareness, paths, all,\n"
            "                   none\n"
            "  -h, --help       this help\n"
            "\n"
            "Assets are read from $PATROL_ASSETS, ./assets, or the installed folder.\n"
            "exit status: 0 written, 1 the map or the output has a problem, 2 usage error\n",
            PT_RENDER_MAX_SCALE, PT_RENDER_MAX_SIDE, RENDER_MAX_TICKS);
}

int cmd_render(int argc, char **argv) {
    const char *map_path = NULL, *out_path = NULL;
    long scale = 1, ticks = 0;
    unsigned overlays = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            help(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "%s needs a file name", a);
            out_path = argv[++i];
        } else if (strcmp(a, "--scale") == 0) {
            if (!app_parse_long("render", a, i + 1 < argc ? argv[i + 1] : NULL, 1, PT_RENDER_MAX_SCALE, &scale))
                return APP_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--ticks") == 0) {
            if (!app_parse_long("render", a, i + 1 < argc ? argv[i + 1] : NULL, 0, RENDER_MAX_TICKS, &ticks))
                return APP_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--overlay") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "%s needs a list (e.g. grid,cones)", a);
            int bad = 0;
            if (!pt_overlay_parse(argv[++i], &overlays, &bad))
                return app_usage_error("render", "--overlay: unknown overlay at '%s' (grid, cones, sight, labels, paths, "
                                       "awareness, all, none)", argv[i] + bad - 1);
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("render", "unknown option '%s'", a);
        } else if (!map_path) {
            map_path = a;
        } else {
            return app_usage_error("render", "one map at a time ('%s' and '%s')", map_path, a);
        }
    }
    if (!map_path) return app_usage_error("render", "which map? (patrol render MAP --out FILE.png)");
    if (!out_path) return app_usage_error("render", "--out FILE.png is required");

    pt_map map;
    pt_patlib lib;
    pt_error err;
    if (!app_load_map_and_patterns(map_path, &map, &lib)) return APP_EXIT_INPUT;
    long w = 0, h = 0;
    pt_view_map_size(&map, (int)scale, &w, &h);
    if (w > PT_RENDER_MAX_SIDE || h > PT_RENDER_MAX_SIDE || w * h > PT_RENDER_MAX_PIXELS) {
        fprintf(stderr,
                "patrol render: error: %s is %dx%d tiles: %ldx%ld pixels at scale %ld is more than %d a side "
                "or %ld in all; use a smaller --scale\n",
                map_path, map.w, map.h, w, h, scale, PT_RENDER_MAX_SIDE, (long)PT_RENDER_MAX_PIXELS);
        pt_patlib_fini(&lib);
        pt_map_fini(&map);
        return APP_EXIT_INPUT;
    }

    /* The same world as play's (a controlled player, the round ends on a catch), with no
     * input: after N ticks it is what play shows at tick N if nobody touches the keys. */
    pt_world *world = NULL;
    pt_actor *actors = NULL;
    int rc = APP_EXIT_INPUT;
    pt_world_desc desc = {.player_controlled = 1, .end_round_on_catch = 1};
    if (!(world = pt_world_create(&map, &lib, &desc, &err))) {
        pt_error_print(stderr, &err);
        goto done;
    }
    for (long t = 0; t < ticks && pt_world_round(world) == 0; t++) pt_world_step(world);
    int n = pt_world_count(world);
    if (!(actors = PT_CALLOC((size_t)(n > 0 ? n : 1), sizeof *actors))) {
        fprintf(stderr, "patrol render: error: out of memory\n");
        goto done;
    }
    pt_render_actors_from_world(world, 0.0, actors, n);
    pt_scene scene = {.map = &map, .actors = actors, .nactors = n};
    pt_view view = {.scale = (int)scale, .overlays = overlays,
                    .time = (double)pt_world_tick(world) * pt_world_dt(world)};
    if (pt_render_png(&scene, &view, (int)w, (int)h, NULL, out_path, &err) < 0) {
        fprintf(stderr, "patrol render: ");
        pt_error_print(stderr, &err);
    } else {
        printf("patrol render: wrote %s (%ldx%ld pixels, tick %llu)\n", out_path, w, h,
               (unsigned long long)pt_world_tick(world));
        rc = APP_EXIT_OK;
    }
done:
    pt_world_destroy(world);
    pt_patlib_fini(&lib);
    PT_FREE(actors);
    pt_map_fini(&map);
    return rc;
}
