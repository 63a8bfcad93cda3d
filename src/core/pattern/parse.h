/* SPDX-License-Identifier: Zlib */
/* parse.h - parsing a .pat text into a pattern library (parse.c), for library.c. */
#ifndef PATROL_PATTERN_PARSE_H
#define PATROL_PATTERN_PARSE_H

#include <patrol/pattern.h>

#include "base/text.h"

/* Parses text t and appends its patterns to lib: all of them, or none and the error, located
 * in t. Names must not clash with lib's, and the library stays within PT_MAX_LIBRARY_STEPS. */
int pt__patlib_parse_text(pt_patlib *lib, const pt__text *t, pt_error *err);

#endif
