/* The declarations the Python package uses, checked against the public headers when the
 * extension is compiled (cffi's API mode). `...;` in a struct: only the fields named are used;
 * `...` in an enum: the values come from the header. Error, map, pattern library, world. */

/* patrol/error.h */
typedef struct pt_error {
    int code;
    int line;
    int col;
    char file[...];
    char message[...];
    char source[...];
    ...;
} pt_error;
const char *pt_code_name(int code);

/* patrol/math.h, map.h */
typedef struct pt_vec2 { double x, y; } pt_vec2;
typedef struct pt_cell { int x, y; } pt_cell;
typedef enum pt_kind { PT_KIND_PLAYER, PT_KIND_GUARD, PT_KIND_PREY, PT_KIND_BOID, PT_KIND_COUNT, ... } pt_kind;
typedef enum pt_flock_kind { PT_FLOCK_HOUND, PT_FLOCK_CROW, PT_FLOCK_KIND_COUNT, ... } pt_flock_kind;
typedef struct pt_entity_def { pt_flock_kind flock_kind; ...; } pt_entity_def;
typedef struct pt_tile_def pt_tile_def;    /* fields in 30_maps.h */
typedef struct pt_obstacle pt_obstacle;    /* likewise */
typedef struct pt_map {
    int w, h;
    uint8_t *tiles;
    pt_tile_def legend[...];
    int nlegend;
    pt_obstacle *obstacles;
    int nobstacles;
    int nents;
    char name[...];
    char path[...];
    uint64_t seed;
    int npattern_files;
    ...;
} pt_map;
int pt_map_load(pt_map *out, const char *path, pt_error *err);
void pt_map_fini(pt_map *map);
const char *pt_kind_name(pt_kind kind);

/* patrol/pattern.h */
typedef enum pt_gait { PT_GAIT_WALK, PT_GAIT_SNEAK, PT_GAIT_RUN, PT_GAIT_COUNT, ... } pt_gait;
typedef struct pt_pattern pt_pattern;
typedef struct pt_patlib { int count; ...; } pt_patlib;
void pt_patlib_init(pt_patlib *lib);
void pt_patlib_fini(pt_patlib *lib);
int pt_patlib_load_map_file(pt_patlib *lib, const pt_map *map, int i, pt_error *err);
int pt_patlib_lint_map(const pt_patlib *lib, const pt_map *map, pt_error *errs, int max);

/* patrol/tmx.h */
int pt_tmx_is_tmx(const char *path);
int pt_tmx_load(pt_map *map, pt_patlib *lib, const char *path, pt_error *err);

/* patrol/world.h */
typedef enum pt_state { PT_STATE_PATROL, PT_STATE_COUNT, ... } pt_state;
typedef enum pt_motion { PT_MOTION_TILE, PT_MOTION_CONTINUOUS, PT_MOTION_COUNT, ... } pt_motion;
typedef enum pt_event_kind { PT_EVENT_CAUGHT, PT_EVENT_COUNT, ... } pt_event_kind;
typedef enum pt_phase { PT_PHASE_NORMAL, PT_PHASE_COUNT, ... } pt_phase;
typedef struct pt_event { uint64_t tick; pt_event_kind kind; uint32_t a, b; int x, y; } pt_event;
typedef struct pt_entity {
    uint32_t id;
    pt_kind kind;
    pt_state state;
    pt_motion motion;
    int x, y;
    double px, py;
    double heading;
    double speed;
    double view_dist, view_angle;
    double awareness;
    double suspicious_at, chase_at;
    double hearing;
    int sees_player;
    const pt_entity_def *def;
    char name[...];
    ...;
} pt_entity;
typedef struct pt_world_desc {
    uint64_t seed;
    int tick_hz;
    int player_controlled;
    const pt_pattern *player_pattern;
    int end_round_on_catch;
    int threads;
    ...;
} pt_world_desc;
typedef struct pt_world pt_world;
pt_world *pt_world_create(const pt_map *map, const pt_patlib *lib, const pt_world_desc *desc, pt_error *err);
void pt_world_destroy(pt_world *w);
void pt_world_step(pt_world *w);
uint64_t pt_world_tick(const pt_world *w);
double pt_world_dt(const pt_world *w);
int pt_world_count(const pt_world *w);
const pt_entity *pt_world_entity(const pt_world *w, int id);
const pt_event *pt_world_events(const pt_world *w, int *count);
int pt_world_round(const pt_world *w);
pt_vec2 pt_world_drawn_pos(const pt_world *w, int id, double alpha);
void pt_world_set_input(pt_world *w, int dx, int dy);
void pt_world_set_gait(pt_world *w, pt_gait gait);
pt_gait pt_world_gait(const pt_world *w);
const char *pt_state_name(pt_state s);
const char *pt_event_kind_name(pt_event_kind k);
const char *pt_phase_name(pt_phase p);
const char *pt_motion_name(pt_motion m);
const char *pt_gait_name(pt_gait g);
