/* What the World API (patrol/world.py) uses beyond the base: the last step's noises, guards'
 * memories, the alert phase, the bulk read; the game's controls (spawn.h, door.h, light.h,
 * player.h, tiles, noises) and saves (save.h). */

/* patrol/error.h */
const char *pt_code_text(int code);

/* patrol/world.h */
typedef enum pt_noise_kind { PT_NOISE_FOOTSTEP, PT_NOISE_SHOUT, PT_NOISE_COUNT, ... } pt_noise_kind;
typedef struct pt_noise { uint64_t tick; int x, y; double loudness; pt_noise_kind kind; } pt_noise;
typedef enum pt_memory_kind { PT_MEMORY_SEEN, PT_MEMORY_COUNT, ... } pt_memory_kind;
typedef struct pt_memory {
    pt_memory_kind kind;
    int x, y;
    double px, py;
    uint64_t tick;
    double certainty;
} pt_memory;
const pt_noise *pt_world_noises(const pt_world *w, int *count);
const pt_noise *pt_world_shouts(const pt_world *w, int *count);
int pt_world_guard_memory(const pt_world *w, int id, pt_memory *out, int max);
pt_phase pt_world_phase(const pt_world *w, double *seconds_left);
int pt_world_player_hidden(const pt_world *w);
int pt_world_caught_total(const pt_world *w);
void pt_world_noise(pt_world *w, int x, int y, double loudness);
int pt_world_set_tile(pt_world *w, int x, int y, char tile, pt_error *err);
int pt_world_positions(const pt_world *w, uint32_t *ids, int *cells, double *pos, int max);
const char *pt_noise_kind_name(pt_noise_kind k);
const char *pt_memory_kind_name(pt_memory_kind k);

/* patrol/spawn.h */
typedef enum pt_order_kind { PT_ORDER_NONE, PT_ORDER_GOTO, PT_ORDER_INVESTIGATE, PT_ORDER_HOLD, PT_ORDER_COUNT, ... } pt_order_kind;
int pt_world_spawn_line(pt_world *w, const char *text, const char *name, int *count, pt_error *err);
int pt_world_remove(pt_world *w, int id);
int pt_world_order_goto(pt_world *w, int id, int x, int y);
int pt_world_order_investigate(pt_world *w, int id, int x, int y);
int pt_world_order_hold(pt_world *w, int id);
int pt_world_order_resume(pt_world *w, int id);
int pt_world_order_pattern(pt_world *w, int id, const char *name, pt_error *err);
pt_order_kind pt_world_order(const pt_world *w, int id, int *x, int *y);
int pt_world_set_view(pt_world *w, int id, double view, double cone_deg);
int pt_world_set_hearing(pt_world *w, int id, double hearing);
int pt_world_set_speed(pt_world *w, int id, double speed);
const char *pt_order_kind_name(pt_order_kind k);

/* patrol/map.h, door.h */
typedef enum pt_door_state { PT_DOOR_OPEN, PT_DOOR_CLOSED, PT_DOOR_LOCKED, PT_DOOR_STATE_COUNT, ... } pt_door_state;
typedef struct pt_door { int x, y; pt_door_state state; int closes; } pt_door;
int pt_world_set_door(pt_world *w, int x, int y, pt_door_state state, pt_error *err);
int pt_world_door(const pt_world *w, int x, int y);
int pt_world_doors(const pt_world *w, pt_door *out, int max);

/* patrol/light.h */
typedef struct pt_light {
    char name[...];
    int x, y;
    double radius;
    double level;
    int on;
} pt_light;
int pt_world_light_count(const pt_world *w);
int pt_world_light_find(const pt_world *w, const char *name);
int pt_world_light_get(const pt_world *w, int i, pt_light *out);
int pt_world_set_light(pt_world *w, int i, int on, pt_error *err);
double pt_world_light_at(const pt_world *w, int x, int y);
double pt_world_visibility(const pt_world *w);
int pt_world_douse(pt_world *w);

/* patrol/player.h */
int pt_player_host(pt_world *w);
int pt_player_hosted(const pt_world *w);
int pt_player_move(pt_world *w, double x, double y, double vx, double vy, pt_error *err);
int pt_player_teleport(pt_world *w, double x, double y, pt_error *err);

/* patrol/save.h */
int pt_world_save(const pt_world *w, const char *source, void **data, size_t *size, pt_error *err);
void pt_world_save_free(void *data);
int pt_world_save_file(const pt_world *w, const char *path, const char *source, pt_error *err);
pt_world *pt_world_load(const void *data, size_t size, const pt_map *map, const pt_patlib *lib,
                        const pt_world_desc *desc, pt_error *err);
pt_world *pt_world_load_file(const char *path, const pt_map *map, const pt_patlib *lib,
                             const pt_world_desc *desc, pt_error *err);
int pt_save_source(const void *data, size_t size, char *buf, size_t cap, pt_error *err);
