#include "app.h"

#include <stdio.h>

/* Placeholder until its issue lands: says so and fails. */
int cmd_show(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "patrol show: not built yet\n");
    return 1;
}
