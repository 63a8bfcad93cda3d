/* SPDX-License-Identifier: Zlib */
/* patrol render MAP --out FILE.png: what `patrol play` shows at tick N, drawn headless by
 * the same code (play_draw_frame): the whole map, or with --view WxH the window's view. */
#include "common/app.h"
#include "common/cli.h"
#include "game/play.h"
#include "common/load.h"
#include "tools/study.h"

#include <patrol/pattern.h>
#include <patrol/solve.h>

#include <patrol/map.h>
#include <patrol/render.h>
#include <patrol/world.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_MAX_TICKS 100000000L

static void help(FILE *out) {
    fprintf(out,
            "usage: patrol render MAP --out FILE.png [--scale S] [--ticks N] [--overlay[=LIST]] [--hud]\n"
            "                     [--view WxH] [--keys MOVES | --replay F.rec] [--positions]\n"
            "                     [--heatmap] [--heatmap-gait GAIT] [--heatmap-csv FILE.csv]\n"
            "                     [--route FILE.pat:NAME]\n"
            "\n"
            "Draws what 'patrol play' shows after N ticks (default 0: everyone at the start) with\n"
            "nobody at the keys, or the key presses of --keys (or a recording, or a route), with\n"
            "the same drawing code.\n"
            "Needs no display.\n"
            "\n"
            "options:\n"
            "  --out FILE.png   where to write the image (required; PNG only, so a name ending in .png)\n"
            "  --scale S        pixels per sprite pixel, 1..%d (default 1: 16 pixels a tile; with\n"
            "                   --view: the largest that fits, as play picks it)\n"
            "  --ticks N        simulation ticks (1/60 s each) to run first, 0..%ld; a round that\n"
            "                   ends sooner (a catch, the goal) stops the world there, as in play:\n"
            "                   the frame is of that tick, and a 'round over at tick T: caught by\n"
            "                   NAME' line follows the 'wrote' line\n"
            "  --overlay LIST   comma-separated: grid, cones, sight, rays, patterns, paths, steer,\n"
            "                   memory, hearing, labels, awareness, search, debug, all, none\n"
            "                   (default: cones, as play starts); memory: what each guard\n"
            "                   remembers; hearing: the cells the last moment's noises reached;\n"
            "                   search: the cells searched while guards search together; a bare\n"
            "                   --overlay means debug: everything a tester wants (cones, sight,\n"
            "                   line-of-sight rays, patterns, paths, steering, memory, hearing,\n"
            "                   awareness, names, search), the grid excepted\n"
            "  --hud            draw the game's HUD too (objective, clock, alert, messages, key\n"
            "                   hint, the end-of-round banner); off by default so the image is\n"
            "                   just the map (with the whole map, the bars are added above and\n"
            "                   below it: the image is that much taller)\n"
            "  --view WxH       draw a W x H window as play does: the whole map when it fits\n"
            "                   between the HUD's bars, else the camera on the player\n"
            "                   (default: the whole map)\n"
            "  --keys MOVES     the player's moves: each of U D L R (up, down, left, right) holds\n"
            "                   that arrow key for one step's time (12 ticks at the default\n"
            "                   speed), '.' holds none; e.g. --keys UUUURRRR --ticks 200\n"
            "  --replay F.rec   the player's input from a recording of 'patrol play --record' (MAP\n"
            "                   optional: default the recorded map; --ticks default: all of it)\n"
            "  --positions      also print where each entity is drawn in the image, one CSV line\n"
            "                   each after a header: id,kind,name,state,x,y (x, y: its drawn\n"
            "                   centre in tiles)\n"
            "  --heatmap        colour each walkable cell by the share of ticks 1..N (--ticks N,\n"
            "                   default %d: 60 s) a guard sees it, as the solver counts sight\n"
            "                   (yellow now and then .. red always, blue never: a blind spot); the\n"
            "                   frame is then drawn at tick 0\n"
            "  --heatmap-gait G the heatmap of hearing instead (implies --heatmap): the share of the\n"
            "                   same ticks a guard would hear the player's footstep made on the\n"
            "                   cell at gait G (sneak, walk or run), as the guards hear (yellow\n"
            "                   now and then .. red always, blue never: a quiet cell)\n"
            "  --heatmap-csv F  write the same as CSV rows x,y,walkable,ticks_seen,share ('-' =\n"
            "                   stdout; ticks_heard with --heatmap-gait); without --out, only the\n"
            "                   CSV\n"
            "  --route F:NAME   walk player pattern NAME of file F (as 'patrol solve' writes it) in\n"
            "                   the world and draw its path: green line, gold end at the goal (red\n"
            "                   when it never gets there), a red cross where a guard first saw it;\n"
            "                   the player is drawn where the route has taken it after N ticks\n"
            "                   (--ticks N, default 0: at the start; as in play, the round ends at\n"
            "                   the goal or a catch). No --keys or --replay\n"
            "  -h, --help       this help\n"
            "\n"
            "Assets are read from $PATROL_ASSETS alone when it is set, else from the first of:\n"
            "share/patrol/assets beside the program (../share from its bin/), ./assets, the\n"
            "source tree (a program in its build tree) and the configured install.\n"
            "exit status: 0 written, 1 the map or the output has a problem, 2 usage error\n",
            PT_RENDER_MAX_SCALE, RENDER_MAX_TICKS, STUDY_HEATMAP_TICKS);
}

static int parse_size(const char *s, long *w, long *h) {
    char *end = NULL;
    if (!s) return 0;
    *w = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X')) return 0;
    const char *p = end + 1;
    *h = strtol(p, &end, 10);
    return end != p && !*end && *w >= 1 && *h >= 1 && *w <= PT_RENDER_MAX_SIDE && *h <= PT_RENDER_MAX_SIDE;
}

typedef struct render_job {
    const play_session *s;
    play_frame *f;
    const int *heat;         /* --heatmap: ticks seen per cell, over heat_ticks */
    int heat_ticks;
    const study_walk *walk;  /* --route */
} render_job;

static int draw_job(pt_render *r, int w, int h, void *user) {
    render_job *j = user;
    int rc = play_draw_frame(j->s, r, j->f, w, h);
    if (rc != PT_OK || (!j->heat && !j->walk)) return rc;
    /* The whole map's view, as play_draw_frame sets it without a camera. */
    pt_view v = {0};
    int top = 0, bottom = 0;
    if (j->f->hud) pt_hud_bars(j->f->hud_scale > 0 ? j->f->hud_scale : pt_hud_scale(w, h), &top, &bottom);
    v.scale = j->f->scale > 0 ? j->f->scale : 1;
    v.y = top;
    v.w = w;
    v.h = h - top - bottom > 0 ? h - top - bottom : 1;
    study_draw(r, &j->s->level->map, &v, j->heat, j->heat_ticks, j->walk);
    return rc;
}

int cmd_render(int argc, char **argv) {
    const char *map_path = NULL, *out_path = NULL, *keys = "", *heat_csv = NULL, *route_ref = NULL, *replay = NULL;
    int heatmap = 0, ticks_given = 0, hear_gait = -1;
    long scale = 0, ticks = 0, vw = 0, vh = 0;
    unsigned overlays = PT_OVERLAY_CONES;
    int hud = 0, positions = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            help(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "-o") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "%s needs a file name", a);
            out_path = argv[++i];
            if (!app_png_path_ok("render", a, out_path)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--scale") == 0) {
            if (!app_parse_long("render", a, i + 1 < argc ? argv[i + 1] : NULL, 1, PT_RENDER_MAX_SCALE, &scale))
                return APP_EXIT_USAGE;
            i++;
        } else if (strcmp(a, "--ticks") == 0) {
            if (!app_parse_long("render", a, i + 1 < argc ? argv[i + 1] : NULL, 0, RENDER_MAX_TICKS, &ticks))
                return APP_EXIT_USAGE;
            ticks_given = 1;
            i++;
        } else if (strcmp(a, "--heatmap") == 0) {
            heatmap = 1;
        } else if (strcmp(a, "--heatmap-gait") == 0) {
            const char *g = i + 1 < argc ? argv[i + 1] : "";
            hear_gait = -1;
            for (int k = 0; k < PT_GAIT_COUNT; k++)
                if (strcmp(g, pt_gait_name((pt_gait)k)) == 0) hear_gait = k;
            if (hear_gait < 0) return app_usage_error("render", "--heatmap-gait needs a gait: sneak, walk or run");
            heatmap = 1;
            i++;
        } else if (strcmp(a, "--heatmap-csv") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "--heatmap-csv needs a file name ('-' = stdout)");
            heat_csv = argv[++i];
        } else if (strcmp(a, "--route") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "--route needs FILE.pat:NAME");
            route_ref = argv[++i];
            if (!app_pattern_ref_ok("render", route_ref)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--overlay") == 0 || strncmp(a, "--overlay=", 10) == 0) {
            if (!play_overlay_option("render", argc, argv, &i, &overlays)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--hud") == 0) {
            hud = 1;
        } else if (strcmp(a, "--positions") == 0) {
            positions = 1;
        } else if (strcmp(a, "--view") == 0) {
            if (!parse_size(i + 1 < argc ? argv[i + 1] : NULL, &vw, &vh))
                return app_usage_error("render", "--view needs a size WxH (e.g. 960x540), each 1..%d",
                                       PT_RENDER_MAX_SIDE);
            i++;
        } else if (strcmp(a, "--keys") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "--keys needs moves (U D L R .)");
            keys = argv[++i];
            size_t bad = strspn(keys, "UDLR.");
            if (keys[bad]) return app_usage_error("render", "--keys: '%c' is not a move (U D L R, '.' stands)", keys[bad]);
        } else if (strcmp(a, "--replay") == 0) {
            if (i + 1 >= argc) return app_usage_error("render", "--replay needs a recording (F.rec)");
            replay = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("render", "unknown option '%s'", a);
        } else if (!map_path) {
            map_path = a;
        } else {
            return app_usage_error("render", "one map at a time ('%s' and '%s')", map_path, a);
        }
    }
    if (replay && keys[0]) return app_usage_error("render", "--keys or --replay: the player's input comes from one");
    if (route_ref && (keys[0] || replay)) return app_usage_error("render", "--route walks the player: no --keys or --replay");
    if (!map_path && !replay) return app_usage_error("render", "which map? (patrol render MAP --out FILE.png)");
    if (!out_path && !heat_csv) return app_usage_error("render", "--out FILE.png is required");
    if ((heatmap || route_ref) && vw) return app_usage_error("render", "--heatmap and --route draw the whole map: no --view");
    int heat_ticks = 0;
    if (heatmap || heat_csv) {
        heat_ticks = ticks_given ? (int)ticks : STUDY_HEATMAP_TICKS;
        if (heat_ticks < 1 || heat_ticks > PT_SOLVE_MAX_TICKS)
            return app_usage_error("render", "--heatmap: --ticks must be 1..%d", PT_SOLVE_MAX_TICKS);
        ticks = 0; /* the frame shows everyone at the start */
    }

    /* The game as play starts it, run for N ticks with no keys pressed. */
    static play_session s;
    static app_rec rec;
    pt_error err;
    if (replay && app_rec_load(&rec, replay, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    if (!map_path) map_path = rec.map;
    if (play_open(&s, map_path, &err) < 0) {
        pt_error_print(stderr, &err);
        app_rec_fini(&rec);
        return APP_EXIT_INPUT;
    }
    if (replay && play_replay(&s, &rec, &err) < 0) {
        pt_error_print(stderr, &err);
        play_close(&s);
        app_rec_fini(&rec);
        return APP_EXIT_INPUT;
    }
    if (replay && !ticks_given) ticks = rec.ticks > (uint64_t)RENDER_MAX_TICKS ? RENDER_MAX_TICKS : (long)rec.ticks;
    const pt_map *map = &s.level->map;
    int *heat = NULL;
    study_walk walk = {0};
    pt_patlib route_lib;
    pt_patlib_init(&route_lib);
    if (heat_ticks && (hear_gait >= 0 ? study_hearmap(map, &s.level->lib, heat_ticks, (pt_gait)hear_gait, &heat, &err)
                                      : study_heatmap(map, &s.level->lib, heat_ticks, &heat, &err)) != PT_OK) {
        pt_error_print(stderr, &err);
        play_close(&s);
        app_rec_fini(&rec);
        return APP_EXIT_INPUT;
    }
    if (heat_csv && !study_heatmap_csv(heat_csv, map, heat, heat_ticks, hear_gait >= 0 ? "heard" : "seen")) {
        free(heat);
        play_close(&s);
        app_rec_fini(&rec);
        return APP_EXIT_INPUT;
    }
    if (!out_path) {
        free(heat);
        play_close(&s);
        app_rec_fini(&rec);
        return APP_EXIT_OK;
    }
    if (!heatmap) {
        free(heat);
        heat = NULL;
    }
    int rc = APP_EXIT_OK; /* from here on, every exit frees all at done */
    if (route_ref) {
        const pt_pattern *rp = app_load_pattern_ref("render", route_ref, &route_lib);
        if (!rp || app_lint_route(rp, map) > 0) {
            rc = APP_EXIT_INPUT;
            goto done;
        }
        if (study_route(map, &s.level->lib, rp, &walk, &err) != PT_OK) {
            pt_error_print(stderr, &err);
            rc = APP_EXIT_INPUT;
            goto done;
        }
        /* The route walks the player of play's world (as sim --player-pattern does), so the
         * frame at tick N has it where the drawn walk was on that tick. */
        pt_world_desc d = s.desc;
        d.player_controlled = 0;
        d.player_pattern = rp;
        pt_world *rw = pt_world_create(map, &s.level->lib, &d, &err);
        if (!rw) {
            pt_error_print(stderr, &err);
            rc = APP_EXIT_INPUT;
            goto done;
        }
        pt_world_destroy(s.world);
        s.world = rw;
        s.desc = d;
    }
    long w = vw, h = vh;
    if (!vw) {
        if (!scale) scale = 1;
        pt_view_map_size(map, (int)scale, &w, &h);
        if (w > PT_RENDER_MAX_SIDE || h > PT_RENDER_MAX_SIDE || w * h > PT_RENDER_MAX_PIXELS) {
            fprintf(stderr,
                    "patrol render: error: %s is %dx%d tiles: %ldx%ld pixels at scale %ld is more than %d a side "
                    "or %ld in all; use a smaller --scale\n",
                    map_path, map->w, map->h, w, h, scale, PT_RENDER_MAX_SIDE, (long)PT_RENDER_MAX_PIXELS);
            rc = APP_EXIT_INPUT;
            goto done;
        }
    } else if (w * h > PT_RENDER_MAX_PIXELS) {
        fprintf(stderr, "patrol render: error: --view %ldx%ld is more than %ld pixels\n", w, h,
                (long)PT_RENDER_MAX_PIXELS);
        rc = APP_EXIT_INPUT;
        goto done;
    }
    /* Each move holds its arrow key for one step's time (1 / the player's speed), '.' holds
     * none; then nobody touches the keys. */
    const pt_entity *pl = pt_world_entity(s.world, 0);
    long hold = lround(1.0 / (pl->speed * pt_world_dt(s.world)));
    if (hold < 1) hold = 1;
    size_t nkeys = strlen(keys);
    for (long t = 0; t < ticks; t++) {
        size_t k = (size_t)(t / hold);
        char c = k < nkeys ? keys[k] : '.';
        uint64_t before = pt_world_tick(s.world);
        int x0 = pl->x, y0 = pl->y;
        play_tick(&s, (c == 'R') - (c == 'L'), (c == 'D') - (c == 'U'));
        /* The round's clock starts at the first move: for a route, its first step. */
        if (route_ref && !s.started && (pl->x != x0 || pl->y != y0)) {
            s.started = 1;
            s.start_tick = before;
        }
    }

    play_frame f = {.overlays = overlays, .hud = hud, .follow = vw > 0, .scale = (int)scale, .speed = 1.0};
    if (hud && !vw) {
        /* The whole map with the HUD's bars above and below it, so they hide nothing. */
        int top = 0, bottom = 0;
        f.hud_scale = pt_hud_scale((int)w, (int)h);
        pt_hud_bars(f.hud_scale, &top, &bottom);
        h += top + bottom;
        if (h > PT_RENDER_MAX_SIDE || w * h > PT_RENDER_MAX_PIXELS) {
            fprintf(stderr, "patrol render: error: the map with the HUD is %ldx%ld pixels, more than %d a side or "
                    "%ld in all; use a smaller --scale\n", w, h, PT_RENDER_MAX_SIDE, (long)PT_RENDER_MAX_PIXELS);
            rc = APP_EXIT_INPUT;
            goto done;
        }
    }
    render_job job = {&s, &f, heat, heat_ticks, route_ref ? &walk : NULL};
    if (pt_render_png_with((int)w, (int)h, NULL, draw_job, &job, out_path, &err) < 0) {
        fprintf(stderr, "patrol render: ");
        pt_error_print(stderr, &err);
        rc = APP_EXIT_INPUT;
    } else {
        printf("patrol render: wrote %s (%ldx%ld pixels, tick %llu)\n", out_path, w, h,
               (unsigned long long)pt_world_tick(s.world));
        if (heat && hear_gait >= 0) printf("heatmap: hearing, gait %s, ticks 1..%d\n", pt_gait_name((pt_gait)hear_gait), heat_ticks);
        else if (heat) printf("heatmap: ticks 1..%d\n", heat_ticks);
        if (route_ref) {
            printf("route: %d cells, ", walk.n);
            if (walk.goal_tick >= 0) printf("goal on tick %d, ", walk.goal_tick);
            else printf("never at the goal, ");
            if (walk.seen_tick >= 0) printf("first seen on tick %d at %d,%d\n", walk.seen_tick, walk.seen_at.x, walk.seen_at.y);
            else printf("never seen\n");
        }
        if (s.round) {
            /* The world stands still once the round ends (as in play), so the frame can be of
             * an earlier tick than --ticks asked for: say why. */
            uint64_t end = pt_world_tick(s.world);
            if (s.round < 0)
                printf("round over at tick %llu (%.1f s): caught by %s", (unsigned long long)end, end * pt_world_dt(s.world),
                       s.caught_by[0] ? s.caught_by : "a guard");
            else
                printf("round over at tick %llu (%.1f s): the player reached the goal", (unsigned long long)end,
                       end * pt_world_dt(s.world));
            if ((uint64_t)ticks > end) printf("; the world stands still from there (--ticks %ld)", ticks);
            printf("\n");
        }
        if (positions) { /* the actors the frame was drawn from */
            puts("id,kind,name,state,x,y");
            for (int i = 0; i < pt_world_count(s.world) && i < f.actors_cap; i++) {
                const pt_actor *a = &f.actors[i];
                printf("%d,%s,%s,%s,%.3f,%.3f\n", i, pt_kind_name(a->kind), a->name ? a->name : "",
                       pt_state_name((pt_state)a->state), a->x, a->y);
            }
        }
    }
    play_frame_fini(&f);
done:
    free(heat);
    study_walk_fini(&walk);
    play_close(&s); /* before the route's patterns: its world walks one */
    pt_patlib_fini(&route_lib);
    app_rec_fini(&rec);
    return rc;
}
