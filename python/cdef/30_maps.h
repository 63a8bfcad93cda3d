/* What the map reads (patrol/map.py's Map.tile, legend, obstacles; World.tile) use: a legend
 * entry, the per-cell flags, an obstacle, and the world's own map (which set_tile and doors
 * change). */

/* patrol/map.h */
static const int PT_TILE_WALKABLE;
static const int PT_TILE_OPAQUE;
static const int PT_TILE_GOAL;
typedef struct pt_tile_def {
    char ch;
    char name[...];
    uint8_t flags;
    int sprite;
    ...;
} pt_tile_def;
typedef struct pt_obstacle {
    double x, y, r;
    int sprite;
    ...;
} pt_obstacle;

/* patrol/world.h */
const pt_map *pt_world_map(const pt_world *w);
