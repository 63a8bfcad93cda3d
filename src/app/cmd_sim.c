#include "app.h"

#include <stdio.h>

/* Placeholder until its issue lands: says so and fails. */
int cmd_sim(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "patrol sim: not built yet\n");
    return 1;
}
