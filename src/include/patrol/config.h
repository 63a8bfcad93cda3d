/* SPDX-License-Identifier: Zlib */
/* patrol/config.h - limits and the allocator hook, in one place.
 *
 * Every limit an input file can hit is here, so a designer's typo can never drive an
 * unbounded allocation. Parsers report a PT_ERR_LIMIT with the place when one is passed.
 * Define PT_MALLOC / PT_REALLOC / PT_FREE before including any patrol header (and when
 * building the library) to route every allocation of the module through your allocator.
 */
#ifndef PATROL_CONFIG_H
#define PATROL_CONFIG_H

#ifndef PT_MALLOC
#include <stdlib.h>
#define PT_MALLOC(n) malloc(n)
#define PT_REALLOC(p, n) realloc((p), (n))
#define PT_FREE(p) free(p)
#define PT_CALLOC(n, s) calloc((n), (s))
#endif

#define PT_MAX_FILE_BYTES   (16 * 1024 * 1024) /* any text input file */
#define PT_MAX_LINE_BYTES   4096               /* one line of a text file */
#define PT_MAX_TOKENS       64                 /* tokens on one line */
#define PT_MAX_NAME         48                 /* names of entities, patterns, tiles (incl. NUL) */
#define PT_MAX_PATH         512                /* file paths (incl. NUL) */
#define PT_MAP_MAX_W        4096               /* map width in tiles */
#define PT_MAP_MAX_H        4096               /* map height in tiles */
#define PT_MAP_MAX_CELLS    (4096 * 4096)
#define PT_MAX_TILE_KINDS   64                 /* legend entries */
#define PT_MAX_ENTITIES     65536              /* declared entities in one map (flocks count each member) */
#define PT_MAX_OBSTACLES    65536
#define PT_MAX_NOISE_SOURCES 4096              /* timed noise sources in one map */
#define PT_MAX_PATTERN_FILES 16                /* pattern files one map may reference */
#define PT_MAX_PATTERNS     1024               /* patterns in one library */
#define PT_MAX_PATTERN_STEPS 65536             /* cells/instructions in one pattern after expansion */
#define PT_MAX_LIBRARY_STEPS (1 << 21)         /* path cells, instructions and matrix cells of all the
                                                  patterns of one library together (~85 MB at most) */
#define PT_MAX_PATTERN_VERTS 4096              /* vertices / waypoints in one pattern */
#define PT_MAX_MATRIX_DIM   1024               /* matrix pattern width or height */
#define PT_MAX_REPEAT       100000             /* a single repeat count */
#define PT_MAX_NESTING      8                  /* nested repeat blocks */
#define PT_MIN_TILE_PX      4
#define PT_MAX_TILE_PX      256

#endif
