/* SPDX-License-Identifier: Zlib */
/* main.c - the patrol command's entry: the list of subcommands, the top-level usage and
 * --version, and the dispatch to the subcommand named (common/app.h). What the subcommands'
 * command lines share lives below them, in common/cli.c. */
#include "common/app.h"
#include "common/cli.h"

#include <stdio.h>
#include <string.h>

#ifndef PATROL_VERSION
#define PATROL_VERSION "0.0.0"
#endif

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"play", cmd_play, "play the demo (or MAP) in a window"},
    {"replay", cmd_replay, "play back a recording (play --record) in a window"},
    {"sim", cmd_sim, "run a map headless for N ticks; print a summary or write a CSV trace"},
    {"check", cmd_check, "validate maps and pattern files; print located errors"},
    {"render", cmd_render, "draw a map (at tick N) to a PNG, headless"},
    {"test", cmd_test, "run a level's expectations (.test files); N passed, N failed"},
    {"show", cmd_show, "preview a pattern: its cells, its matrix, or drawn over a map"},
    {"bench", cmd_bench, "measure the module's speed (medians over runs)"},
    {"solve", cmd_solve, "find a route to the goal no guard sees; print it as a player pattern"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: patrol COMMAND [ARGS...]\n\n"
                 "Guards that walk patrol patterns, see, chase, search and return.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'patrol COMMAND --help' describes a command. 'patrol --version' prints the version.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return APP_EXIT_USAGE;
    }
    if (app_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return APP_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("patrol %s\n", PATROL_VERSION);
        return APP_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "patrol: error: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return APP_EXIT_USAGE;
}
