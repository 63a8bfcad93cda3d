/* SPDX-License-Identifier: Zlib */
/* patrol replay F.rec [MAP]: a recording of `patrol play --record` played back in the
 * window (play_run with a replay): the recorded level, seed and input on every tick. */
#include "common/app.h"
#include "common/cli.h"
#include "game/play_ui.h"
#include "common/rec.h"

#include <patrol/render.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void replay_help(FILE *out) {
    fprintf(out,
            "usage: patrol replay F.rec [MAP] [--jump TICK] [--overlay[=LIST]] [--ticks N] [--log]\n"
            "\n"
            "Plays back a recording of 'patrol play --record' in the window: the recorded level\n"
            "(or MAP, which must be the same level), the recorded seed and the player's input on\n"
            "every tick. When the recording ends the world stands still.\n"
            "\n"
            "keys:\n"
            "  P / N           pause / one tick while paused\n"
            "  + / -           playback speed, 0.25x .. 4x\n"
            "  Right / Left    one second (60 ticks) forward / back\n"
            "  Home / End      the first / the last recorded tick\n"
            "  0-9, Enter      type a tick and jump to it (Backspace, Esc: correct, cancel)\n"
            "  F1, F11, Esc, Tab and the overlay keys as in 'patrol play'\n"
            "\n"
            "options:\n"
            "  --jump TICK     start at this world tick (0 .. the recording's ticks)\n"
            "  --overlay LIST  overlays shown at start (as play; default: cones)\n"
            "  --ticks N       quit by itself after N ticks played (1/60 s each)\n"
            "  --log           one line per event, and 'tick T' after each jump\n"
            "  -h, --help      this help\n");
}

int cmd_replay(int argc, char **argv) {
    const char *rec_path = NULL, *map_path = NULL;
    play_opts o = {.overlays = PT_OVERLAY_CONES, .jump = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (app_is_help(a)) {
            replay_help(stdout);
            return APP_EXIT_OK;
        } else if (strcmp(a, "--overlay") == 0 || strncmp(a, "--overlay=", 10) == 0) {
            if (!play_overlay_option("replay", argc, argv, &i, &o.overlays)) return APP_EXIT_USAGE;
        } else if (strcmp(a, "--log") == 0) {
            o.log_all = 1;
        } else if (strcmp(a, "--ticks") == 0 || strcmp(a, "--jump") == 0) {
            long v;
            if (!app_parse_long("replay", a, i + 1 < argc ? argv[i + 1] : NULL, a[2] == 't' ? 1 : 0, 1000000000L, &v))
                return APP_EXIT_USAGE;
            if (a[2] == 't') o.max_ticks = v;
            else o.jump = v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            return app_usage_error("replay", "unknown option '%s'", a);
        } else if (!rec_path) {
            rec_path = a;
        } else if (!map_path) {
            map_path = a;
        } else {
            return app_usage_error("replay", "a recording and at most one map ('%s')", a);
        }
    }
    if (!rec_path) return app_usage_error("replay", "which recording? (patrol replay F.rec)");
    static app_rec rec; /* outlives the session */
    pt_error err;
    if (app_rec_load(&rec, rec_path, &err) < 0) {
        pt_error_print(stderr, &err);
        return APP_EXIT_INPUT;
    }
    if (o.jump > 0 && (uint64_t)o.jump > rec.ticks) {
        fprintf(stderr, "patrol replay: error: --jump %ld: the recording has %llu ticks\n", o.jump,
                (unsigned long long)rec.ticks);
        app_rec_fini(&rec);
        return APP_EXIT_USAGE;
    }
    o.map_path = map_path ? map_path : rec.map;
    o.replay = &rec;
    int rc = play_run(&o);
    app_rec_fini(&rec);
    return rc;
}
