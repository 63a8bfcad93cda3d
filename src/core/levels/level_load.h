/* SPDX-License-Identifier: Zlib */
/* level_load.h - the .test loader of patrol/level.h with the hook `patrol check` needs. */
#ifndef PATROL_LEVELS_LEVEL_LOAD_H
#define PATROL_LEVELS_LEVEL_LOAD_H

#include <patrol/level.h>

/* pt_level_load_test; when the map does not load and map_checked(map path, user) says it is
 * checked on its own as well (patrol check x.map x.test), err says so at the test's map line
 * ("map 'PATH' has errors (reported where it is checked)") instead of the map's own error. */
int pt__level_load_test_ex(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib, pt_error *err,
                           int (*map_checked)(const char *map, void *user), void *user);

#endif
