/* SPDX-License-Identifier: Zlib */
/* test_app.h - the app's SDL-free sources compiled into a suite: the loader,
 * the level list, the play session, the recordings and the file watch (a suite reaches their
 * static functions too), with stand-ins for the two helpers of common/cli.c they call (cli.c
 * needs the renderer's data places; these suites link the core only). Include it once, in
 * the suite's one source file.
 *
 * The stand-ins: app_usage_error (load.c's pattern references) returns APP_EXIT_USAGE and
 * prints nothing; app_default_map (levels.c's default list, beside the demo) returns
 * TEST_APP_DEFAULT_MAP, "some/where/demo.map" unless the suite defines it first. */
#ifndef PATROL_TEST_APP_H
#define PATROL_TEST_APP_H

#include "../src/app/game/levels.c"
#include "../src/app/common/load.c"
#include "../src/app/game/play_session.c"
#include "../src/app/common/rec.c"
#include "../src/app/game/walkthrough.c"
#include "../src/app/common/watch.c"

#ifndef TEST_APP_DEFAULT_MAP
#define TEST_APP_DEFAULT_MAP "some/where/demo.map"
#endif

int app_usage_error(const char *cmd, const char *fmt, ...) {
    (void)cmd;
    (void)fmt;
    return APP_EXIT_USAGE;
}

const char *app_default_map(void) { return TEST_APP_DEFAULT_MAP; }

#endif
