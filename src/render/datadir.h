/* SPDX-License-Identifier: Zlib */
/* datadir.h - where patrol's data is (the sprite sheets and sounds, the example maps), for
 * the renderer's asset search (pt_render_find_assets) and the patrol command's default level.
 * No SDL: src/app includes it too.
 *
 *     char dirs[PT__DATA_PLACES][PT_MAX_PATH];
 *     int n = pt__data_places("assets", "assets", dirs);   // the order to try them in
 *
 * The places, in order (a place that does not apply is left out):
 *   1. beside the running program: <program's folder>/<bindir to datadir>/patrol/INSTALLED,
 *      e.g. /opt/p/bin/patrol -> /opt/p/share/patrol/assets (the install's own layout, so an
 *      installed tree may be moved; the program is read from /proc/self/exe);
 *   2. the current folder: ./SOURCE;
 *   3. the source tree, only for a program inside the build tree this library was built in
 *      (the tests, build/patrol): <source tree>/SOURCE;
 *   4. the data folder of the prefix the build was configured for:
 *      <CMAKE_INSTALL_FULL_DATADIR>/patrol/INSTALLED. */
#ifndef PATROL_RENDER_DATADIR_H
#define PATROL_RENDER_DATADIR_H

#include <patrol/config.h>

#define PT__DATA_PLACES 4

/* Fills dirs with the places of one kind of data, installed as share/patrol/INSTALLED and kept
 * in the source tree as SOURCE ("examples" and "maps" for the example maps). Returns how many. */
int pt__data_places(const char *installed, const char *source, char dirs[][PT_MAX_PATH]);

/* The running program's folder (from /proc/self/exe, links resolved); 0 when unknown. */
int pt__program_dir(char *out, size_t cap);

#endif
