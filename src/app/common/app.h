/* SPDX-License-Identifier: Zlib */
/* app.h - the patrol command's subcommands (main.c dispatches to them; the game's play and
 * the tools' others). Each returns the process exit status: 0 success, 1 the input has
 * problems (messages printed), 2 usage error. The helpers of their command lines: cli.h. */
#ifndef PATROL_APP_H
#define PATROL_APP_H

#include <patrol/error.h>

#define APP_EXIT_OK 0
#define APP_EXIT_INPUT 1
#define APP_EXIT_USAGE 2

int cmd_check(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_test(int argc, char **argv);

#endif
