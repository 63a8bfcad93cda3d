/* SPDX-License-Identifier: Zlib */
/* Where patrol's data is: see datadir.h for the places and their order. */
#define _XOPEN_SOURCE 700 /* readlink, realpath */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* CMakeLists.txt gives these; the defaults are the GNU layout under /usr/local. */
#ifndef PATROL_BIN_TO_DATA
#define PATROL_BIN_TO_DATA "../share" /* the data root from the program's folder, or absolute */
#endif
#ifndef PATROL_CONFIGURED_DATA_DIR
#define PATROL_CONFIGURED_DATA_DIR "/usr/local/share"
#endif

int pt__program_dir(char *out, size_t cap) {
    char exe[PT_MAX_PATH];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || n >= (ssize_t)sizeof exe - 1) return 0; /* none, or too long to be whole */
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash || exe[0] != '/') return 0;
    if (slash == exe) slash++; /* a program in / */
    *slash = '\0';
    return snprintf(out, cap, "%s", exe) < (int)cap;
}

/* 1 if the running program is inside the build tree this library was built in. */
static int in_build_tree(const char *program_dir) {
#ifdef PATROL_BUILD_DIR
    char build[PATH_MAX];
    if (!realpath(PATROL_BUILD_DIR, build)) return 0; /* the build tree is gone */
    size_t n = strlen(build);
    return strncmp(program_dir, build, n) == 0 && (program_dir[n] == '\0' || program_dir[n] == '/');
#else
    (void)program_dir;
    return 0;
#endif
}

int pt__data_places(const char *installed, const char *source, char dirs[][PT_MAX_PATH]) {
    int n = 0;
    char prog[PT_MAX_PATH];
    int have_prog = pt__program_dir(prog, sizeof prog);
    /* A place whose path does not fit is left out: it would name another folder. */
    if (have_prog) {
        const char *up = PATROL_BIN_TO_DATA;
        int len = up[0] == '/' ? snprintf(dirs[n], PT_MAX_PATH, "%s/patrol/%s", up, installed)
                               : snprintf(dirs[n], PT_MAX_PATH, "%s%s%s/patrol/%s", prog, strcmp(prog, "/") ? "/" : "",
                                          up, installed);
        n += len < PT_MAX_PATH;
    }
    n += snprintf(dirs[n], PT_MAX_PATH, "%s", source) < PT_MAX_PATH;
#ifdef PATROL_SOURCE_DIR
    if (have_prog && in_build_tree(prog))
        n += snprintf(dirs[n], PT_MAX_PATH, "%s/%s", PATROL_SOURCE_DIR, source) < PT_MAX_PATH;
#endif
    n += snprintf(dirs[n], PT_MAX_PATH, "%s/patrol/%s", PATROL_CONFIGURED_DATA_DIR, installed) < PT_MAX_PATH;
    return n;
}
