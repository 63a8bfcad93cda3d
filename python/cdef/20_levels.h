/* The level tools (patrol/level.h, testing.h, solve.h): file kinds, loading a map or a .test
 * file as the patrol command does, check's checks, running expectations, the solver. */

/* patrol/level.h */
typedef enum pt_file_kind { PT_FILE_MAP, PT_FILE_TMX, PT_FILE_TSX, PT_FILE_PAT, PT_FILE_STEER, PT_FILE_TEST,
                            PT_FILE_REC, PT_FILE_LEVELS, PT_FILE_SCRIPT, PT_FILE_KIND_COUNT, ... } pt_file_kind;
pt_file_kind pt_file_kind_of(const char *path);
const char *pt_file_kind_name(pt_file_kind k);
int pt_level_load(const char *path, pt_map *map, pt_patlib *lib, pt_error *err);
typedef enum pt_level_problem { PT_LEVEL_ERROR, PT_LEVEL_LINT, PT_LEVEL_WARNING, ... } pt_level_problem;
typedef void (*pt_level_report)(void *user, const pt_error *problem, pt_level_problem kind);
int pt_level_check_map(const char *path, pt_map *map, pt_patlib *lib, pt_level_report report, void *user, int *loaded);
int pt_level_check_tileset(const char *path, pt_error *err);
extern "Python" void _patrol_level_report(void *user, const pt_error *problem, pt_level_problem kind);

/* patrol/testing.h: .test files */
typedef enum pt_expect_kind { PT_EXPECT_VISITS, PT_EXPECT_SOLVABLE, PT_EXPECT_KIND_COUNT, ... } pt_expect_kind;
typedef struct pt_expect {
    pt_expect_kind kind;
    int line, col;
    char text[...];
    ...;
} pt_expect;
typedef struct pt_testfile {
    char path[...];
    char map_path[...];
    pt_expect *items;
    int count;
    ...;
} pt_testfile;
typedef enum pt_test_status { PT_TEST_PASS, PT_TEST_FAIL, PT_TEST_SKIP, ... } pt_test_status;
typedef struct pt_test_result {
    pt_test_status status;
    uint64_t tick;
    char text[...];
    ...;
} pt_test_result;
void pt_testfile_fini(pt_testfile *tf);
const char *pt_expect_kind_name(pt_expect_kind k);
int pt_level_load_test(const char *path, pt_testfile *tf, pt_map *map, pt_patlib *lib, pt_error *err);
int pt_level_run_expect(const pt_testfile *tf, int i, const pt_map *map, const pt_patlib *lib, pt_test_result *res,
                        pt_error *err);

/* the other kinds `patrol check` reads alone */
int pt_patlib_load(pt_patlib *lib, const char *path, pt_error *err);
int pt_patlib_parse(pt_patlib *lib, const char *text, size_t len, const char *name, pt_error *err);
const pt_pattern *pt_patlib_find(const pt_patlib *lib, const char *ref);
typedef struct pt_steer_file { int count; ...; } pt_steer_file;
void pt_steer_file_init(pt_steer_file *f);
void pt_steer_file_fini(pt_steer_file *f);
int pt_steer_file_load(pt_steer_file *f, const char *path, pt_error *err);
typedef struct pt_script { int count; ...; } pt_script;
int pt_script_load(pt_script *s, const char *path, pt_error *err);
void pt_script_fini(pt_script *s);

/* patrol/solve.h */
#define PT_SOLVE_MAX_TICKS ...
#define PT_SOLVE_MARGIN_CAP ...
typedef struct pt_solve_opts {
    int max_ticks;
    uint64_t seed;
    int nseeds;
    double margin;
    int margin_ticks;
    int gait;
    int leave_after;
    int window;
    ...;
} pt_solve_opts;
typedef struct pt_solve_result {
    int found;
    int ticks;
    int start_x, start_y, goal_x, goal_y;
    pt_cell *cells;
    int first_move_tick;
    int margin_ticks;
    double margin_tiles;
    int nseeds;
    int seeds_ok;
    int max_ticks;
    double speed;
    int gait;
    long long nodes;
    int why;
    ...;
} pt_solve_result;
typedef enum pt_solve_why { PT_SOLVE_WHY_NONE, PT_SOLVE_WHY_HORIZON, PT_SOLVE_WHY_UNREACHABLE,
                            PT_SOLVE_WHY_SEEN_AT_START, PT_SOLVE_WHY_ANIMAL_AT_START,
                            PT_SOLVE_WHY_MARGIN_AT_START, ... } pt_solve_why;
int pt_solve(const pt_map *map, const pt_patlib *lib, const pt_solve_opts *opts, pt_solve_result *out, pt_error *err);
void pt_solve_result_fini(pt_solve_result *r);
size_t pt_solve_pattern_text(const pt_solve_result *r, const char *name, char *buf, size_t cap);
