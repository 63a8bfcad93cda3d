/* SPDX-License-Identifier: Zlib */
/* stderr silenced around a noisy library call (quiet.h); PATROL_VERBOSE_SDL=1 leaves it on. */
#define _POSIX_C_SOURCE 200809L
#include "common/quiet.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int app_quiet_begin(void) {
    const char *v = getenv("PATROL_VERBOSE_SDL");
    if (v && *v && strcmp(v, "0") != 0) return -1;
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) return -1;
    int saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (saved < 0 || dup2(null, 2) < 0) {
        if (saved >= 0) close(saved);
        saved = -1;
    }
    close(null);
    return saved;
}

void app_quiet_end(int saved) {
    if (saved < 0) return;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}
