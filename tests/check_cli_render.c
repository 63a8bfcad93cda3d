/* SPDX-License-Identifier: Zlib */
/* check_cli_render - `patrol render` as a user runs it: exit codes, the PNG it writes, located
 * map errors. CLI suites link only the core (tests/CMakeLists.txt), so the PNG is checked
 * here by walking its chunks: signature, IHDR size, every chunk length, IEND last. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cli.h"

/* Runs PATROL_BIN with args (NULL-terminated), stderr to err_path (if not NULL), with env
 * var set_env ("NAME=value", may be NULL). Returns the exit status, or -1. */
static int run(const char *set_env, const char *err_path, const char *const *args) {
    const char *argv[32];
    int n = 0;
    argv[n++] = PATROL_BIN;
    for (; args[n - 1] && n < 31; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        int e = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : devnull;
        dup2(e, 2);
        if (set_env) {
            char name[64];
            const char *eq = strchr(set_env, '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - set_env), set_env);
            setenv(name, eq + 1, 1);
        }
        execv(PATROL_BIN, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static unsigned long be32(const unsigned char *p) {
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | p[3];
}

/* Reads a PNG's size from its IHDR after checking the chunk structure; 0 if not a PNG. */
static int png_size(const char *path, long *w, long *h) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    static unsigned char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (n < 8 + 25 || n == sizeof buf || memcmp(buf, sig, 8) != 0) return 0;
    if (memcmp(buf + 12, "IHDR", 4) != 0 || be32(buf + 8) != 13) return 0;
    *w = (long)be32(buf + 16);
    *h = (long)be32(buf + 20);
    size_t pos = 8;
    int idat = 0;
    while (pos + 12 <= n) {
        unsigned long len = be32(buf + pos);
        if (len > n - pos - 12) return 0;
        idat += memcmp(buf + pos + 4, "IDAT", 4) == 0;
        if (memcmp(buf + pos + 4, "IEND", 4) == 0) return pos + 12 == n && idat > 0;
        pos += 12 + len;
    }
    return 0;
}

static void out_path(char *buf, size_t cap, const char *name) {
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    snprintf(buf, cap, "%s/test-out/cli-%d-%s", PATROL_BUILD_DIR, (int)getpid(), name);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* A small valid map: 7 x 4 tiles. */
static const char *small_map = "format 1\n"
                               "title \"cli test\"\n"
                               "player at=1,1\n"
                               "guard g1 at=5,2 heading=180\n"
                               "grid\n"
                               "#######\n"
                               "#..~..#\n"
                               "#.,*=.#\n"
                               "#######\n"
                               "end\n";

/* Reads "FILE:LINE:COL:" from the first line of a file. */
static int first_place(const char *path, int *line, int *col) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[2048] = "";
    char *ok = fgets(buf, sizeof buf, f);
    fclose(f);
    if (!ok) return 0;
    /* The file name may contain ':' only if we chose so; ours does not. */
    char *p = strchr(buf, ':');
    return p && sscanf(p, ":%d:%d:", line, col) == 2;
}

START_TEST(test_writes_png) {
    char map[1024], png[1024];
    out_path(map, sizeof map, "small.map");
    out_path(png, sizeof png, "small.png");
    write_file(map, small_map);
    for (int s = 1; s <= 3; s++) {
        char scale[8];
        snprintf(scale, sizeof scale, "%d", s);
        unlink(png);
        const char *args[] = {"render", map, "--out", png, "--scale", scale, NULL};
        ck_assert_int_eq(run(NULL, NULL, args), 0);
        long w = 0, h = 0;
        ck_assert(png_size(png, &w, &h));
        ck_assert_int_eq(w, 7 * 16 * s);
        ck_assert_int_eq(h, 4 * 16 * s);
    }
    /* Default scale 1, options in another order, overlays. */
    const char *args[] = {"render", "--overlay", "grid,cones,labels", "--out", png, map, NULL};
    ck_assert_int_eq(run(NULL, NULL, args), 0);
    long w = 0, h = 0;
    ck_assert(png_size(png, &w, &h));
    ck_assert_int_eq(w, 7 * 16);
    ck_assert_int_eq(h, 4 * 16);
    unlink(png);
    unlink(map);
}
END_TEST

START_TEST(test_map_errors) {
    char map[1024], png[1024], err[1024];
    out_path(map, sizeof map, "broken.map");
    out_path(png, sizeof png, "broken.png");
    out_path(err, sizeof err, "broken.err");
    /* Line 7, column 4: '?' is not a tile. */
    write_file(map, "format 1\n"
                    "player at=1,1\n"
                    "grid\n"
                    "#####\n"
                    "#...#\n"
                    "#...#\n"
                    "#.?.#\n"
                    "#####\n"
                    "end\n");
    unlink(png);
    const char *args[] = {"render", map, "--out", png, NULL};
    ck_assert_int_eq(run(NULL, err, args), 1);
    int line = 0, col = 0;
    ck_assert(first_place(err, &line, &col));
    ck_assert_int_eq(line, 7);
    ck_assert_int_eq(col, 3);
    ck_assert_int_ne(access(png, F_OK), 0);
    /* A file that does not exist. */
    const char *missing[] = {"render", "/nonexistent/x.map", "--out", png, NULL};
    ck_assert_int_eq(run(NULL, NULL, missing), 1);
    unlink(map);
    unlink(err);
}
END_TEST

START_TEST(test_output_errors) {
    char map[1024], png[1024];
    out_path(map, sizeof map, "ok.map");
    out_path(png, sizeof png, "ok.png");
    write_file(map, small_map);
    /* Unwritable output, missing assets: exit 1, no crash. */
    const char *unwritable[] = {"render", map, "--out", "/nonexistent/dir/x.png", NULL};
    ck_assert_int_eq(run(NULL, NULL, unwritable), 1);
    const char *args[] = {"render", map, "--out", png, NULL};
    ck_assert_int_eq(run("PATROL_ASSETS=/nonexistent/patrol-assets", NULL, args), 1);
    ck_assert_int_eq(run("PATROL_ASSETS=" PATROL_SOURCE_DIR "/assets", NULL, args), 0);
    /* Too big an image: 300 x 300 tiles at scale 4 is 19200 pixels a side. */
    char big[1024];
    out_path(big, sizeof big, "big.map");
    FILE *f = fopen(big, "w");
    ck_assert(f != NULL);
    fprintf(f, "format 1\nplayer at=0,0\ngrid\n");
    for (int y = 0; y < 300; y++) {
        for (int x = 0; x < 300; x++) fputc('.', f);
        fputc('\n', f);
    }
    fprintf(f, "end\n");
    fclose(f);
    unlink(png);
    const char *too_big[] = {"render", big, "--out", png, "--scale", "4", NULL};
    ck_assert_int_eq(run(NULL, NULL, too_big), 1);
    ck_assert_int_ne(access(png, F_OK), 0);
    unlink(big);
    unlink(map);
}
END_TEST

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 20];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char *copy = malloc(*len ? *len : 1);
    memcpy(copy, buf, *len);
    return copy;
}

/* A guard walking a rectangle: the picture changes with --ticks and is the same for the
 * same N (the world is deterministic and drawing adds no randomness). */
static const char *world_map = "format 1\n"
                               "patterns cli.pat\n"
                               "player at=1,4\n"
                               "guard g1 at=2,1 pattern=box\n"
                               "grid\n"
                               "##########\n"
                               "#........#\n"
                               "#........#\n"
                               "#........#\n"
                               "#........#\n"
                               "##########\n"
                               "end\n";
static const char *world_pat = "pattern box\n"
                               "  kind path\n"
                               "  points 2,1 7,1 7,3 2,3 2,1\n"
                               "end\n";

START_TEST(test_ticks) {
    char map[1024], pat[1024], a[1024], b[1024], c[1024];
    out_path(map, sizeof map, "world.map");
    /* The map names cli.pat relative to its own folder. */
    snprintf(pat, sizeof pat, "%s/test-out/cli.pat", PATROL_BUILD_DIR);
    out_path(a, sizeof a, "t0.png");
    out_path(b, sizeof b, "t90a.png");
    out_path(c, sizeof c, "t90b.png");
    write_file(map, world_map);
    write_file(pat, world_pat);
    const char *r0[] = {"render", map, "--out", a, "--scale", "2", NULL};
    const char *r1[] = {"render", map, "--out", b, "--scale", "2", "--ticks", "90", "--overlay", "all", NULL};
    const char *r2[] = {"render", "--ticks", "90", "--overlay", "all", "--out", c, "--scale", "2", map, NULL};
    ck_assert_int_eq(run(NULL, NULL, r0), 0);
    ck_assert_int_eq(run(NULL, NULL, r1), 0);
    ck_assert_int_eq(run(NULL, NULL, r2), 0);
    size_t la, lb, lc;
    char *da = slurp(a, &la), *db = slurp(b, &lb), *dc = slurp(c, &lc);
    ck_assert(da && db && dc);
    long w, h;
    ck_assert(png_size(b, &w, &h));
    ck_assert_int_eq(w, 10 * 32);
    ck_assert_int_eq(h, 6 * 32);
    ck_assert(la != lb || memcmp(da, db, la) != 0);
    ck_assert(lb == lc && memcmp(db, dc, lb) == 0);
    free(da);
    free(db);
    free(dc);
    /* Usage: --ticks takes a whole number >= 0. */
    const char *bad1[] = {"render", map, "--out", a, "--ticks", "-1", NULL};
    const char *bad2[] = {"render", map, "--out", a, "--ticks", "1.5", NULL};
    ck_assert_int_eq(run(NULL, NULL, bad1), 2);
    ck_assert_int_eq(run(NULL, NULL, bad2), 2);
    /* A broken pattern file: exit 1 with its place (line 3, the bad point). */
    char err[1024];
    out_path(err, sizeof err, "pat.err");
    write_file(pat, "pattern box\n  kind path\n  points 2,1 x,1\nend\n");
    ck_assert_int_eq(run(NULL, err, r0), 1);
    int line = 0, col = 0;
    ck_assert(first_place(err, &line, &col));
    ck_assert_int_eq(line, 3);
    ck_assert_int_gt(col, 0);
    /* A guard naming a pattern that does not exist: located at the guard (line 4). */
    write_file(pat, world_pat);
    char map2[1024];
    out_path(map2, sizeof map2, "unknown.map");
    write_file(map2, "format 1\npatterns cli.pat\nplayer at=1,1\nguard g1 at=2,1 pattern=nope\n"
                     "grid\n#####\n#...#\n#####\nend\n");
    const char *r3[] = {"render", map2, "--out", a, NULL};
    ck_assert_int_eq(run(NULL, err, r3), 1);
    ck_assert(first_place(err, &line, &col));
    ck_assert_int_eq(line, 4);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(map);
    unlink(map2);
    unlink(pat);
    unlink(err);
}
END_TEST

START_TEST(test_game_frames) {
    /* --view draws a window's view (the camera on the player), --hud the game's HUD, --keys
     * moves the player; a bare --overlay is the tester's set. Same arguments, same bytes. */
    char map[1024], pat[1024], a[1024], b[1024], c[1024], d[1024];
    out_path(map, sizeof map, "game.map");
    snprintf(pat, sizeof pat, "%s/test-out/cli.pat", PATROL_BUILD_DIR);
    out_path(a, sizeof a, "g1.png");
    out_path(b, sizeof b, "g2.png");
    out_path(c, sizeof c, "g3.png");
    out_path(d, sizeof d, "g4.png");
    write_file(map, world_map);
    write_file(pat, world_pat);
    const char *r1[] = {"render", map, "--out", a, "--view", "320x200", "--hud", "--ticks", "60", NULL};
    const char *r2[] = {"render", "--hud", "--ticks", "60", "--view", "320x200", map, "--out", b, NULL};
    const char *r3[] = {"render", map, "--out", c, "--view", "320x200", "--hud", "--ticks", "60", "--keys", "RRR", NULL};
    ck_assert_int_eq(run(NULL, NULL, r1), 0);
    ck_assert_int_eq(run(NULL, NULL, r2), 0);
    ck_assert_int_eq(run(NULL, NULL, r3), 0);
    long w = 0, h = 0;
    ck_assert(png_size(a, &w, &h));
    ck_assert_int_eq(w, 320);
    ck_assert_int_eq(h, 200);
    size_t la, lb, lc;
    char *da = slurp(a, &la), *db = slurp(b, &lb), *dc = slurp(c, &lc);
    ck_assert(la == lb && memcmp(da, db, la) == 0);
    ck_assert(la != lc || memcmp(da, dc, la) != 0);
    free(da);
    free(db);
    free(dc);
    /* The overlay option: bare (before --out and before the map), =LIST, LIST. */
    const char *o1[] = {"render", map, "--overlay", "--out", d, NULL};
    const char *o2[] = {"render", "--overlay", map, "--out", d, NULL};
    const char *o3[] = {"render", map, "--overlay=rays,patterns", "--out", d, NULL};
    const char *o4[] = {"render", map, "--overlay", "debug", "--out", d, NULL};
    ck_assert_int_eq(run(NULL, NULL, o1), 0);
    ck_assert_int_eq(run(NULL, NULL, o2), 0);
    ck_assert_int_eq(run(NULL, NULL, o3), 0);
    ck_assert_int_eq(run(NULL, NULL, o4), 0);
    size_t l1, l4;
    char *d1 = slurp(d, &l1);
    ck_assert_int_eq(run(NULL, NULL, o1), 0);
    free(d1);
    d1 = slurp(d, &l1);
    ck_assert_int_eq(run(NULL, NULL, o4), 0);
    char *d4 = slurp(d, &l4);
    ck_assert(l1 == l4 && memcmp(d1, d4, l1) == 0); /* bare --overlay = debug */
    free(d1);
    free(d4);
    /* Usage errors. */
    const char *bad[][9] = {
        {"render", map, "--out", d, "--view", "0x10", NULL},
        {"render", map, "--out", d, "--view", "320", NULL},
        {"render", map, "--out", d, "--view", "320x", NULL},
        {"render", map, "--out", d, "--view", NULL},
        {"render", map, "--out", d, "--keys", "RRX", NULL},
        {"render", map, "--out", d, "--keys", NULL},
        {"render", map, "--out", d, "--overlay=fog", NULL},
        {"render", map, "--out", d, "--overlay", "grid,fog", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(run(NULL, NULL, bad[i]) == 2, "case %zu", i);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(d);
    unlink(map);
    unlink(pat);
}
END_TEST

/* Regression: on the frame where "CAUGHT!" appeared, a tile chaser was drawn about two tiles
 * from the player, its cone calm and its "!" gone. Scripted runs that end in a catch, in
 * every chase mode, rendered at the catch tick (the round is over, so --ticks past it shows
 * that tick): --positions gives where the image has the player and the guard. */
static const char *catch_map = "format 1\n"
                               "player at=2,3 speed=6\n"
                               "guard g at=12,3 heading=180 view=10 fov=120 speed=2.5 chase=%s\n"
                               "grid\n"
                               "################\n"
                               "#..............#\n"
                               "#..............#\n"
                               "#..............#\n"
                               "#..............#\n"
                               "#..............#\n"
                               "################\n"
                               "end\n";

START_TEST(test_caught_frame) {
    static const char *modes[] = {"tile", "steer", "intercept"};
    /* stand to be caught, run into the guard, run away, dodge up and down */
    static const char *keys[] = {"RRRR", "RRRRRRRRRRRRRR", "RRRRRRRLLLLLLLL", "RRRRUUUDDDUUUDDD"};
    char map[1024], png[1024], text[1024];
    out_path(map, sizeof map, "catch.map");
    out_path(png, sizeof png, "catch.png");
    for (int m = 0; m < 3; m++) {
        snprintf(text, sizeof text, catch_map, modes[m]);
        write_file(map, text);
        for (int k = 0; k < 4; k++) {
            const char *args[] = {map, "--out", png, "--keys", keys[k], "--ticks", "3000", "--positions", NULL};
            run_result r;
            tu_run_patrol(&r, "render", args);
            ck_assert_msg(r.status == 0, "%s %s: %s", modes[m], keys[k], r.err);
            unsigned long long tick = 0;
            ck_assert(sscanf(r.out, "patrol render: wrote %*s (%*dx%*d pixels, tick %llu)", &tick) == 1);
            ck_assert_msg(tick < 3000, "%s %s: never caught", modes[m], keys[k]);
            /* The frame is of an earlier tick than asked: the summary says why. */
            char why[160];
            snprintf(why, sizeof why, "\nround over at tick %llu (", tick);
            const char *line = strstr(r.out, why);
            ck_assert_msg(line && strstr(line, " s): caught by g; the world stands still from there (--ticks 3000)\n"),
                          "%s %s: %s", modes[m], keys[k], r.out);
            const char *p0 = strstr(r.out, "\n0,player,player,"), *p1 = strstr(r.out, "\n1,guard,g,");
            ck_assert(p0 && p1);
            char st0[32], st1[32];
            double x0, y0, x1, y1;
            ck_assert(sscanf(p0, "\n0,player,player,%31[a-z],%lf,%lf", st0, &x0, &y0) == 3);
            ck_assert(sscanf(p1, "\n1,guard,g,%31[a-z],%lf,%lf", st1, &x1, &y1) == 3);
            ck_assert_str_eq(st0, "caught");
            ck_assert_msg(strcmp(st1, "chase") == 0, "%s %s tick %llu: the guard is drawn %s", modes[m], keys[k],
                          tick, st1);
            double d = hypot(x1 - x0, y1 - y0);
            ck_assert_msg(d <= 1.75 + 1e-3, "%s %s tick %llu: drawn %.3f tiles apart", modes[m], keys[k], tick, d);
        }
    }
    unlink(map);
    unlink(png);
}
END_TEST

/* --route walks the player: the frame at tick N has it where `sim --player-pattern` (the same
 * world) has it on that tick, drawn on its way from the cell before (play's smooth motion),
 * and a catch ends the round as in play (the frame stays on the catch's tick). Generated
 * rooms with a guard, random routes, speeds and ticks. */
static unsigned rnd(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (*st >> 16) & 0x7fffu;
}

START_TEST(test_route_moves_player) {
    enum { MAXT = 600 };
    static int tx[MAXT + 1], ty[MAXT + 1], caught_at;
    char map[1024], pat[1024], csv[1024], png[1024], ref[1100], text[4096], ticks[32];
    out_path(map, sizeof map, "route.map");
    out_path(pat, sizeof pat, "route.pat");
    out_path(csv, sizeof csv, "route.csv");
    out_path(png, sizeof png, "route.png");
    snprintf(ref, sizeof ref, "%s:walk", pat);
    int frames = 0, caught_maps = 0, moved = 0;
    for (int k = 0; k < 10; k++) {
        unsigned st = 101u + 977u * (unsigned)k;
        int w = 10 + (int)(rnd(&st) % 12), h = 7 + (int)(rnd(&st) % 8);
        int px = 1 + (int)(rnd(&st) % (unsigned)(w - 2)), py = 1 + (int)(rnd(&st) % (unsigned)(h - 2));
        int gx = 1 + (int)(rnd(&st) % (unsigned)(w - 2)), gy = 1 + (int)(rnd(&st) % (unsigned)(h - 2));
        int n = snprintf(text, sizeof text, "pattern walk\n  kind path\n  points %d,%d", px, py);
        for (int i = 0; i < 2 + k % 4; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, " %d,%d", 1 + (int)(rnd(&st) % (unsigned)(w - 2)),
                          1 + (int)(rnd(&st) % (unsigned)(h - 2)));
        snprintf(text + n, sizeof text - (size_t)n, "\n  at_end %s\nend\n", k % 2 ? "reverse" : "loop");
        write_file(pat, text);
        n = snprintf(text, sizeof text, "format 1\nseed %d\npatterns %s\nplayer at=%d,%d speed=%d\n", 5 + k,
                     strrchr(pat, '/') + 1, px, py, 3 + (int)(rnd(&st) % 6));
        if (gx != px || gy != py)
            n += snprintf(text + n, sizeof text - (size_t)n, "guard g at=%d,%d heading=%d view=%d fov=%d\n", gx, gy,
                          90 * (int)(rnd(&st) % 4), 1 + (int)(rnd(&st) % 6), 60 + (int)(rnd(&st) % 200));
        n += snprintf(text + n, sizeof text - (size_t)n, "grid\n");
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) text[n++] = (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? '#' : '.';
            text[n++] = '\n';
        }
        snprintf(text + n, sizeof text - (size_t)n, "end\n");
        write_file(map, text);
        /* The route's own world, tick by tick: the player's cell and the first catch. */
        snprintf(ticks, sizeof ticks, "%d", MAXT);
        const char *sim[] = {"sim", map, "--ticks", ticks, "--player-pattern", ref, "--trace", csv, "-q", NULL};
        ck_assert_msg(run(NULL, NULL, sim) == 0, "map %d: sim", k);
        FILE *f = fopen(csv, "r");
        ck_assert_ptr_nonnull(f);
        char row[256], state[32];
        caught_at = -1;
        while (fgets(row, sizeof row, f)) {
            int t, id, x, y;
            if (sscanf(row, "%d,%d,%*[a-z],%31[a-z],%d,%d,", &t, &id, state, &x, &y) == 5 && id == 0 && t <= MAXT) {
                tx[t] = x;
                ty[t] = y;
                if (caught_at < 0 && strcmp(state, "caught") == 0) caught_at = t;
            }
        }
        fclose(f);
        caught_maps += caught_at >= 0;
        for (int j = 0; j < 4; j++) {
            int want = j == 0 ? 0 : (int)(rnd(&st) % (MAXT + 1));
            snprintf(ticks, sizeof ticks, "%d", want);
            if (caught_at >= 0 && want > caught_at) want = caught_at; /* the round ended there */
            const char *args[] = {map, "--out", png, "--route", ref, "--ticks", ticks, "--positions", NULL};
            run_result r;
            tu_run_patrol(&r, "render", args);
            ck_assert_msg(r.status == 0, "map %d: %s", k, r.err);
            int got = -1;
            ck_assert(sscanf(r.out, "patrol render: wrote %*s (%*dx%*d pixels, tick %d)", &got) == 1);
            ck_assert_msg(got == want, "map %d --ticks %s: drawn at tick %d, want %d", k, ticks, got, want);
            const char *p0 = strstr(r.out, "\n0,player,player,");
            double dx, dy;
            ck_assert(p0 && sscanf(p0, "\n0,player,player,%*[a-z],%lf,%lf", &dx, &dy) == 2);
            /* On the segment from the cell before (the last other cell of the walk) to the cell. */
            double bx = tx[want] + 0.5, by = ty[want] + 0.5, ax = bx, ay = by;
            for (int t = want; t >= 0; t--)
                if (tx[t] != tx[want] || ty[t] != ty[want]) {
                    ax = tx[t] + 0.5;
                    ay = ty[t] + 0.5;
                    break;
                }
            double ux = bx - ax, uy = by - ay, len2 = ux * ux + uy * uy;
            double u = len2 > 0 ? ((dx - ax) * ux + (dy - ay) * uy) / len2 : 1.0;
            u = u < 0 ? 0 : u > 1 ? 1 : u;
            double off = hypot(dx - (ax + u * ux), dy - (ay + u * uy));
            ck_assert_msg(off < 1e-3, "map %d tick %d: the player is drawn at %.3f,%.3f, the route has it at %d,%d "
                          "(from %.1f,%.1f)", k, want, dx, dy, tx[want], ty[want], ax - 0.5, ay - 0.5);
            moved += tx[want] != tx[0] || ty[want] != ty[0];
            frames++;
        }
    }
    ck_assert_int_eq(frames, 40);
    ck_assert_msg(moved >= 10, "only %d frames away from the start", moved);
    ck_assert_msg(caught_maps > 0, "no route was caught: the catch case is not tested");
    unlink(map);
    unlink(pat);
    unlink(csv);
    unlink(png);
}
END_TEST

START_TEST(test_usage) {
    char map[1024];
    out_path(map, sizeof map, "usage.map");
    write_file(map, small_map);
    const char *help[] = {"render", "--help", NULL};
    ck_assert_int_eq(run(NULL, NULL, help), 0);
    const char *cases[][10] = {
        {"render", NULL},
        {"render", map, NULL},                                      /* no --out */
        {"render", "--out", "x.png", NULL},                         /* no map */
        {"render", map, "--out", NULL},                             /* --out without a file */
        {"render", map, "--out", "x.png", "--scale", "0", NULL},
        {"render", map, "--out", "x.png", "--scale", "65", NULL},
        {"render", map, "--out", "x.png", "--scale", "2x", NULL},
        {"render", map, "--out", "x.png", "--scale", NULL},
        {"render", map, "--out", "x.png", "--overlay", "grid,fog", NULL},
        {"render", map, "--out", "x.png", "--bogus", NULL},
        {"render", map, map, "--out", "x.png", NULL},
        {"render", map, "--out", "x.jpg", NULL},                    /* only PNG is written */
        {"render", map, "--out", "x", NULL},
        {"render", map, "--out", "x.png", "--route", "r.pat:a", "--keys", "R", NULL}, /* two drive the player */
        {"render", map, "--out", "x.png", "--route", "r.pat:a", "--replay", "r.rec", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(run(NULL, NULL, cases[i]) == 2, "case %zu", i);
    ck_assert_int_ne(access("x.png", F_OK), 0);
    ck_assert_int_ne(access("x.jpg", F_OK), 0);
    /* A misspelt overlay (each name less its last letter) gets the name; a word near none
     * gets the list. */
    static const char *const overlays[] = {"cones", "sight", "patterns", "paths", "steer", "memory", "hearing",
                                           "labels", "awareness", "search", "debug"};
    static run_result r;
    for (size_t i = 0; i < sizeof overlays / sizeof overlays[0]; i++) {
        char arg[64], want[128];
        snprintf(arg, sizeof arg, "--overlay=%.*s", (int)strlen(overlays[i]) - 1, overlays[i]);
        tu_run_patrol(&r, "render", (const char *[]){map, "--out", "x.png", arg, NULL});
        snprintf(want, sizeof want, "; did you mean '%s'?\n", overlays[i]);
        ck_assert_msg(r.status == 2 && strstr(r.err, want), "%s: %s", arg, r.err);
    }
    tu_run_patrol(&r, "render", (const char *[]){map, "--out", "x.png", "--overlay=fog", NULL});
    ck_assert_msg(r.status == 2 && !strstr(r.err, "did you mean") && strstr(r.err, "(grid, cones, "), "%s", r.err);
    unlink(map);
}
END_TEST

static Suite *cli_render_suite(void) {
    Suite *s = suite_create("cli_render");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_writes_png);
    tcase_add_test(core, test_map_errors);
    tcase_add_test(core, test_ticks);
    tcase_add_test(core, test_game_frames);
    tcase_add_test(core, test_caught_frame);
    tcase_add_test(core, test_route_moves_player);
    tcase_add_test(core, test_usage);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_output_errors);
    suite_add_tcase(s, limits);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(cli_render_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
