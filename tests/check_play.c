/* SPDX-License-Identifier: Zlib */
/* check_play - `patrol play` end to end. Usage and error exits; a run under SDL's dummy
 * video driver; and a real X11 run under a virtual display (Xvfb) driven with xdotool like
 * a person: taps, a blocked tap, a held key that walks to a wall, then Escape. The X11 test
 * is left out, with the reason printed, when Xvfb or xdotool is not installed. */
#define _GNU_SOURCE /* prctl, pipe2 */
#include <check.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- processes ----------------------------------------------------------------------------- */

typedef struct proc {
    pid_t pid;
    int out;            /* read end of its stdout (-1 if not captured) */
    char buf[16384];    /* what it printed so far */
    size_t len;
} proc;

/* Starts argv[0] (searched in PATH) with extra environment "NAME=value" entries (a NULL entry
 * ends them; "NAME=" with nothing after unsets NAME). stdout is captured when capture is set,
 * stderr goes to err_path or /dev/null. extra_fd >= 0 is handed to the child as fd 3. The
 * child dies with the test (PR_SET_PDEATHSIG), so a failing test leaves nothing running. */
static int start(proc *p, const char *const *argv, const char *const *env, int capture, const char *err_path,
                 int extra_fd) {
    int fds[2] = {-1, -1};
    memset(p, 0, sizeof *p);
    p->out = -1;
    if (capture && pipe2(fds, O_CLOEXEC) != 0) return 0;
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(capture ? fds[1] : devnull, 1);
        int e = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : devnull;
        dup2(e, 2);
        if (extra_fd >= 0) dup2(extra_fd, 3);
        for (int i = 0; env && env[i]; i++) {
            char name[64];
            const char *eq = strchr(env[i], '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
            if (eq[1]) setenv(name, eq + 1, 1);
            else unsetenv(name);
        }
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (capture) {
        close(fds[1]);
        p->out = fds[0];
    }
    p->pid = pid;
    return 1;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads what the process printed for up to `seconds`, returning early once `want` appears
 * in its output (want NULL: until end of file). Returns 1 if want was seen. */
static int read_until(proc *p, const char *want, double seconds) {
    double end = now_s() + seconds;
    for (;;) {
        p->buf[p->len] = '\0';
        if (want && strstr(p->buf, want)) return 1;
        double left = end - now_s();
        if (left <= 0 || p->out < 0) return 0;
        struct pollfd pfd = {p->out, POLLIN, 0};
        int r = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - 1 - p->len);
        if (n <= 0) {
            close(p->out);
            p->out = -1;
            p->buf[p->len] = '\0';
            return want ? strstr(p->buf, want) != NULL : 1;
        }
        p->len += (size_t)n;
    }
}

/* Waits up to `seconds` for the process to end; returns its exit status, or -1 if it is
 * still running (then it is killed) or died by a signal. */
static int finish(proc *p, double seconds) {
    double end = now_s() + seconds;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid) break;
        if (r < 0 || now_s() > end) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            if (p->out >= 0) close(p->out);
            p->out = -1;
            return -1;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (p->out >= 0) read_until(p, NULL, 1.0);
    if (p->out >= 0) close(p->out);
    p->out = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs to completion (at most 30 s); output in p->buf. */
static int run(proc *p, const char *const *argv, const char *const *env) {
    if (!start(p, argv, env, 1, NULL, -1)) return -1;
    read_until(p, NULL, 30.0);
    return finish(p, 5.0);
}

static int in_path(const char *tool) {
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        char file[4200];
        snprintf(dir, sizeof dir, "%.*s", (int)n, path);
        snprintf(file, sizeof file, "%s/%s", dir[0] ? dir : ".", tool);
        if (access(file, X_OK) == 0) return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

static void out_path(char *buf, size_t cap, const char *name) {
    mkdir(PATROL_BUILD_DIR "/test-out", 0777);
    snprintf(buf, cap, "%s/test-out/play-%d-%s", PATROL_BUILD_DIR, (int)getpid(), name);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* The player starts at 1,1. Row 2 is wall from x=2 to 5; row 3 is open up to x=8. */
static const char *room_map = "format 1\n"
                              "title room\n"
                              "player at=1,1\n"
                              "grid\n"
                              "##########\n"
                              "#........#\n"
                              "#.####...#\n"
                              "#........#\n"
                              "##########\n"
                              "end\n";

/* ---- tests --------------------------------------------------------------------------------- */

START_TEST(test_usage) {
    char map[1024];
    out_path(map, sizeof map, "usage.map");
    write_file(map, room_map);
    proc p;
    const char *help[] = {PATROL_BIN, "play", "--help", NULL};
    ck_assert_int_eq(run(&p, help, NULL), 0);
    const char *cases[][6] = {
        {PATROL_BIN, "play", "--bogus", NULL},
        {PATROL_BIN, "play", map, map, NULL},
        {PATROL_BIN, "play", map, "--ticks", "0", NULL},
        {PATROL_BIN, "play", map, "--ticks", NULL},
        {PATROL_BIN, "play", map, "--overlay", "fog", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(run(&p, cases[i], NULL) == 2, "case %zu", i);
    unlink(map);
}
END_TEST

START_TEST(test_input_errors) {
    char map[1024];
    out_path(map, sizeof map, "broken.map");
    write_file(map, "format 1\nplayer at=1,1\ngrid\n###\n#?#\n###\nend\n");
    proc p;
    const char *dummy[] = {"SDL_VIDEODRIVER=dummy", NULL};
    const char *broken[] = {PATROL_BIN, "play", map, NULL};
    ck_assert_int_eq(run(&p, broken, dummy), 1);
    const char *missing[] = {PATROL_BIN, "play", "/nonexistent/x.map", NULL};
    ck_assert_int_eq(run(&p, missing, dummy), 1);
    /* No display at all: a clear error, exit 1. */
    write_file(map, room_map);
    const char *no_display[] = {"SDL_VIDEODRIVER=x11", "DISPLAY=", "WAYLAND_DISPLAY=", NULL};
    const char *play[] = {PATROL_BIN, "play", map, "--ticks", "10", NULL};
    ck_assert_int_eq(run(&p, play, no_display), 1);
    /* Missing assets: exit 1, no crash. */
    const char *no_assets[] = {"SDL_VIDEODRIVER=dummy", "PATROL_ASSETS=/nonexistent/patrol-assets", NULL};
    ck_assert_int_eq(run(&p, play, no_assets), 1);
    unlink(map);
}
END_TEST

/* No usable display and no driver asked for: SDL would fall back to its invisible offscreen
 * driver and the game would run unseen until killed. It must say so and exit 1 at once. */
START_TEST(test_no_display) {
    char map[1024], err[1024];
    out_path(map, sizeof map, "nodisplay.map");
    out_path(err, sizeof err, "nodisplay.err");
    write_file(map, room_map);
    const char *unset[] = {"SDL_VIDEODRIVER=", "DISPLAY=", "WAYLAND_DISPLAY=", NULL};
    const char *dead[] = {"SDL_VIDEODRIVER=", "DISPLAY=:4999", "WAYLAND_DISPLAY=", NULL};
    const char *const *envs[] = {unset, dead};
    const char *play[] = {PATROL_BIN, "play", map, NULL};
    for (int i = 0; i < 2; i++) {
        proc p;
        ck_assert(start(&p, play, envs[i], 1, err, -1));
        ck_assert_msg(finish(&p, 10.0) == 1, "env %d: play did not exit 1 within 10 s", i);
        char text[4096] = "";
        FILE *f = fopen(err, "r");
        ck_assert(f != NULL);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
        ck_assert_msg(strstr(text, "patrol play: error: no display") != NULL, "env %d: stderr: %s", i, text);
        ck_assert_msg(strstr(text, "xvfb-run") != NULL, "env %d: no hint: %s", i, text);
    }
    /* --ticks ends the run by itself, so the invisible driver is fine there. */
    const char *ticks[] = {PATROL_BIN, "play", map, "--ticks", "5", NULL};
    proc p;
    ck_assert_int_eq(run(&p, ticks, unset), 0);
    ck_assert_str_eq(p.buf, "player 1,1\n");
    unlink(map);
    unlink(err);
}
END_TEST

/* Without a sound card or a display, the libraries under SDL print their own lines (ALSA's
 * eight "ALSA lib ..." lines, libwayland's "XDG_RUNTIME_DIR is invalid"): stderr holds only
 * patrol's own lines, one for the sound (none with a working card) and the no-display error. */
static void read_err(const char *path, char *text, size_t cap) {
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, cap - 1, f)] = '\0';
    fclose(f);
}

START_TEST(test_one_line_stderr) {
    char map[1024], err[1024], text[8192];
    out_path(map, sizeof map, "oneline.map");
    out_path(err, sizeof err, "oneline.err");
    write_file(map, room_map);
    const char *env[] = {"SDL_AUDIODRIVER=alsa", "SDL_VIDEODRIVER=", "DISPLAY=", "WAYLAND_DISPLAY=",
                         "XDG_RUNTIME_DIR=", "PATROL_VERBOSE_SDL=", NULL};
    const char *ticks[] = {PATROL_BIN, "play", map, "--ticks", "5", NULL};
    proc p;
    ck_assert(start(&p, ticks, env, 1, err, -1));
    read_until(&p, NULL, 20.0);
    ck_assert_int_eq(finish(&p, 20.0), 0);
    ck_assert_str_eq(p.buf, "player 1,1\n");
    read_err(err, text, sizeof text);
    int lines = 0;
    for (const char *q = text; *q; q++) lines += *q == '\n';
    ck_assert_msg(lines == 0 || (lines == 1 && strncmp(text, "patrol play: no sound: ", 23) == 0),
                  "--ticks without a display, ALSA: stderr:\n%s", text);
    /* A sound driver that is not there: exactly patrol's line. */
    const char *no_driver[] = {"SDL_AUDIODRIVER=no_such_driver", "SDL_VIDEODRIVER=dummy", NULL};
    ck_assert(start(&p, ticks, no_driver, 1, err, -1));
    read_until(&p, NULL, 20.0);
    ck_assert_int_eq(finish(&p, 20.0), 0);
    read_err(err, text, sizeof text);
    ck_assert_msg(strncmp(text, "patrol play: no sound: ", 23) == 0 && strchr(text, '\n') == text + strlen(text) - 1,
                  "no such sound driver: stderr:\n%s", text);
    const char *play[] = {PATROL_BIN, "play", map, NULL};
    ck_assert(start(&p, play, env, 0, err, -1));
    ck_assert_int_eq(finish(&p, 20.0), 1);
    read_err(err, text, sizeof text);
    ck_assert_msg(strncmp(text, "patrol play: error: no display", 30) == 0, "no display: stderr:\n%s", text);
    ck_assert_msg(!strstr(text, "XDG_RUNTIME_DIR") && !strstr(text, "ALSA lib"), "no display: stderr:\n%s", text);
    /* PATROL_VERBOSE_SDL=1 lets the libraries speak (whatever they say, patrol's line is there). */
    const char *verbose[] = {"SDL_AUDIODRIVER=alsa", "SDL_VIDEODRIVER=", "DISPLAY=", "WAYLAND_DISPLAY=",
                             "XDG_RUNTIME_DIR=", "PATROL_VERBOSE_SDL=1", NULL};
    ck_assert(start(&p, play, verbose, 0, err, -1));
    ck_assert_int_eq(finish(&p, 20.0), 1);
    read_err(err, text, sizeof text);
    ck_assert_msg(strstr(text, "patrol play: error: no display") != NULL, "verbose: stderr:\n%s", text);
    unlink(map);
    unlink(err);
}
END_TEST

START_TEST(test_dummy_driver) {
    /* The whole loop (events, fixed ticks, drawing, present) without a display; with no
     * input the player stays on its start tile. */
    char map[1024];
    out_path(map, sizeof map, "dummy.map");
    write_file(map, room_map);
    proc p;
    const char *env[] = {"SDL_VIDEODRIVER=dummy", NULL};
    const char *play[] = {PATROL_BIN, "play", map, "--ticks", "30", "--overlay", "all", NULL};
    ck_assert_int_eq(run(&p, play, env), 0);
    ck_assert_str_eq(p.buf, "player 1,1\n");
    unlink(map);
}
END_TEST

START_TEST(test_window_fits_small_map) {
    /* Regression: a 24x14 map opened a 768x448 window with the map at 1x in the middle. The
     * window is now the map at the largest scale that fits (dummy display: 1024x768) plus
     * the HUD's bars (15 + 14 pixels at HUD scale 1): 24*16*2 x (14*16*2 + 29). With no
     * audio device the game runs the same (SDL_AUDIODRIVER names none there is). */
    char map[1024], err[1024];
    out_path(map, sizeof map, "fit.map");
    out_path(err, sizeof err, "fit.err");
    char text[2048] = "format 1\nplayer at=1,1\ngrid\n";
    for (int y = 0; y < 14; y++)
        strcat(text, y == 0 || y == 13 ? "########################\n" : "#......................#\n");
    strcat(text, "end\n");
    write_file(map, text);
    const char *drivers[] = {"SDL_AUDIODRIVER=dummy", "SDL_AUDIODRIVER=nonexistent"};
    for (int k = 0; k < 2; k++) {
        proc p;
        const char *env[] = {"SDL_VIDEODRIVER=dummy", drivers[k], NULL};
        const char *play[] = {PATROL_BIN, "play", map, "--ticks", "10", "--stats", NULL};
        ck_assert(start(&p, play, env, 1, err, -1));
        read_until(&p, NULL, 30.0);
        ck_assert_int_eq(finish(&p, 5.0), 0);
        ck_assert_str_eq(p.buf, "player 1,1\n");
        FILE *f = fopen(err, "r");
        ck_assert(f != NULL);
        char all[8192] = "";
        size_t got = fread(all, 1, sizeof all - 1, f);
        all[got] = '\0';
        fclose(f);
        ck_assert_msg(strstr(all, "768x477 pixels") != NULL, "stderr: %s", all);
        ck_assert_msg(strstr(all, "cpu a frame median") != NULL, "stderr: %s", all);
    }
    unlink(map);
    unlink(err);
}
END_TEST

START_TEST(test_x11_keys) {
    char map[1024], err[1024];
    out_path(map, sizeof map, "x11.map");
    out_path(err, sizeof err, "x11.err");
    write_file(map, room_map);

    /* A virtual display on a free number: Xvfb picks it and writes it to fd 3. */
    int dfd[2];
    ck_assert(pipe(dfd) == 0);
    proc x;
    const char *xvfb[] = {"Xvfb", "-displayfd", "3", "-screen", "0", "800x600x24", "-nolisten", "tcp", NULL};
    ck_assert(start(&x, xvfb, NULL, 0, NULL, dfd[1]));
    close(dfd[1]);
    proc d = {.out = dfd[0]};
    int got_display = read_until(&d, "\n", 15.0);
    if (d.out >= 0) close(d.out);
    int display = got_display ? atoi(d.buf) : -1;
    char denv[32];
    snprintf(denv, sizeof denv, "DISPLAY=:%d", display);

    const char *env[] = {denv, "SDL_VIDEODRIVER=x11", "SDL_RENDER_DRIVER=software",
                         "ASAN_OPTIONS=detect_leaks=0", NULL};
    proc game = {.pid = -1, .out = -1};
    char wid[64] = "";
    int started = got_display, seen_taps = 0, seen_hold = 0, status = -2;
    /* --ticks: a safety net so a lost Escape cannot leave the game running (60 s). */
    const char *play[] = {PATROL_BIN, "play", map, "--log-moves", "--ticks", "3600", NULL};
    if (started) started = start(&game, play, env, 1, err, -1);
    if (started) {
        proc s;
        const char *search[] = {"timeout", "15", "xdotool", "search", "--sync", "--name", "^patrol$", NULL};
        if (run(&s, search, env) == 0) snprintf(wid, sizeof wid, "%.*s", (int)strcspn(s.buf, "\n"), s.buf);
    }
    if (wid[0]) {
        proc k;
        /* Down to 1,2; Right is a wall there (blocked: no move); Down to 1,3; Right to 2,3. */
        const char *taps[] = {"xdotool", "key", "--window", wid, "--delay", "60", "Down", "Right", "Down", "Right", NULL};
        run(&k, taps, env);
        seen_taps = read_until(&game, "move 2,3\n", 15.0);
        /* Holding Right walks on, tile after tile, and stops at the wall (x = 9). */
        const char *down[] = {"xdotool", "keydown", "--window", wid, "Right", NULL};
        run(&k, down, env);
        seen_hold = read_until(&game, "move 8,3\n", 15.0);
        struct timespec ts = {0, 400 * 1000 * 1000}; /* keep pushing against the wall */
        nanosleep(&ts, NULL);
        const char *up[] = {"xdotool", "keyup", "--window", wid, "Right", NULL};
        run(&k, up, env);
        const char *esc[] = {"xdotool", "key", "--window", wid, "Escape", NULL};
        run(&k, esc, env);
        status = finish(&game, 10.0);
    } else if (game.pid > 0) {
        finish(&game, 0.0);
    }
    kill(x.pid, SIGTERM);
    finish(&x, 5.0);

    ck_assert_msg(got_display, "Xvfb did not start");
    ck_assert_msg(wid[0], "no window titled 'patrol' appeared (see %s)", err);
    ck_assert_msg(seen_taps, "taps did not move the player as expected: %s", game.buf);
    ck_assert_msg(seen_hold, "holding Right did not walk to the wall: %s", game.buf);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(game.buf, "move 1,2\nmove 1,3\nmove 2,3\n"
                               "move 3,3\nmove 4,3\nmove 5,3\nmove 6,3\nmove 7,3\nmove 8,3\n"
                               "player 8,3\n");
    unlink(map);
    unlink(err);
}
END_TEST

/* ---- the game's keys and hot reload, under Xvfb ----------------------------------------------- */

/* Starts a virtual display on a free number; fills "DISPLAY=:N". Returns 0 if it failed. */
static int start_xvfb(proc *x, char *denv, size_t cap) {
    int dfd[2];
    if (pipe(dfd) != 0) return 0;
    const char *xvfb[] = {"Xvfb", "-displayfd", "3", "-screen", "0", "800x600x24", "-nolisten", "tcp", NULL};
    if (!start(x, xvfb, NULL, 0, NULL, dfd[1])) return 0;
    close(dfd[1]);
    proc d = {.out = dfd[0]};
    int ok = read_until(&d, "\n", 15.0);
    if (d.out >= 0) close(d.out);
    snprintf(denv, cap, "DISPLAY=:%d", ok ? atoi(d.buf) : -1);
    return ok;
}

/* Finds the game's window; "" if none appeared. */
static void find_window(const char *const *env, char *wid, size_t cap) {
    proc s;
    const char *search[] = {"timeout", "15", "xdotool", "search", "--sync", "--name", "^patrol$", NULL};
    wid[0] = '\0';
    if (run(&s, search, env) == 0) snprintf(wid, cap, "%.*s", (int)strcspn(s.buf, "\n"), s.buf);
}

static void keys(const char *const *env, const char *wid, const char *const *names) {
    const char *argv[24] = {"xdotool", "key", "--window", wid, "--delay", "120"};
    int n = 6;
    for (int i = 0; names[i] && n < 23; i++) argv[n++] = names[i];
    argv[n] = NULL;
    proc k;
    run(&k, argv, env);
}

static int running(const proc *p) { return waitpid(p->pid, &(int){0}, WNOHANG) == 0; }

START_TEST(test_x11_game_keys) {
    /* Pause, two single ticks, resume, faster, slower, help on and off, reload, restart:
     * each acted on in order (the --log lines), and Escape still quits with status 0. */
    char map[1024], err[1024];
    out_path(map, sizeof map, "keys.map");
    out_path(err, sizeof err, "keys.err");
    write_file(map, room_map);
    proc x;
    char denv[32];
    int got_display = start_xvfb(&x, denv, sizeof denv);
    const char *env[] = {denv, "SDL_VIDEODRIVER=x11", "SDL_RENDER_DRIVER=software", "ASAN_OPTIONS=detect_leaks=0", NULL};
    const char *play[] = {PATROL_BIN, "play", map, "--log", "--ticks", "3600", NULL};
    proc game = {.pid = -1, .out = -1};
    char wid[64] = "";
    int status = -2, seen = 0;
    if (got_display && start(&game, play, env, 1, err, -1)) find_window(env, wid, sizeof wid);
    if (wid[0]) {
        const char *seq[] = {"p", "n", "n", "p", "plus", "minus", "F1", "F1", "Tab", "Tab", "F5", "r", NULL};
        keys(env, wid, seq);
        seen = read_until(&game, "restart\n", 15.0);
        const char *esc[] = {"Escape", NULL};
        keys(env, wid, esc);
        status = finish(&game, 10.0);
    } else if (game.pid > 0) {
        finish(&game, 0.0);
    }
    kill(x.pid, SIGTERM);
    finish(&x, 5.0);
    ck_assert_msg(got_display, "Xvfb did not start");
    ck_assert_msg(wid[0], "no window titled 'patrol' appeared (see %s)", err);
    ck_assert_msg(seen, "the keys were not all acted on: %s", game.buf);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(game.buf, "paused\nstep\nstep\nresumed\nspeed 2\nspeed 1\nhelp on\nhelp off\n"
                               "debug on\ndebug off\nreload ok patterns\nrestart\nplayer 1,1\n");
    unlink(map);
    unlink(err);
}
END_TEST

static int copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    int ok = in && out;
    char buf[8192];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out) fclose(out);
    return ok;
}

/* Copies the regular files of a folder; returns how many, or -1. */
static int copy_dir(const char *from, const char *to) {
    DIR *d = opendir(from);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char a[2048], b[2048];
        struct stat st;
        snprintf(a, sizeof a, "%s/%s", from, e->d_name);
        snprintf(b, sizeof b, "%s/%s", to, e->d_name);
        if (stat(a, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (!copy_file(a, b)) n = -1000;
        n++;
    }
    closedir(d);
    return n;
}

static void empty_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char a[2048];
        snprintf(a, sizeof a, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.') unlink(a);
    }
    closedir(d);
}

static char *slurp_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *copy = malloc(n + 1);
    memcpy(copy, buf, n + 1);
    return copy;
}

START_TEST(test_x11_hot_reload) {
    /* The demo, copied to a folder of its own; its pattern file is broken while the game
     * runs: F5 keeps the game running and prints the located error on stderr; fixed, F5
     * loads it; Escape quits with status 0. */
    char dir[1024], maps[1100], pats[1100], map[1200], pat[1200], err[1024];
    out_path(dir, sizeof dir, "reload");
    snprintf(maps, sizeof maps, "%s/maps", dir);
    snprintf(pats, sizeof pats, "%s/patterns", dir);
    mkdir(dir, 0777);
    mkdir(maps, 0777);
    mkdir(pats, 0777);
    snprintf(map, sizeof map, "%s/demo.map", maps);
    snprintf(pat, sizeof pat, "%s/castle.pat", pats);
    out_path(err, sizeof err, "reload.err");
    ck_assert(copy_file(PATROL_SOURCE_DIR "/maps/demo.map", map));
    /* The whole patterns/ folder: whatever the demo names there (patterns, steering). */
    ck_assert_int_gt(copy_dir(PATROL_SOURCE_DIR "/patterns", pats), 0);
    char *good = slurp_text(pat);
    ck_assert(good != NULL);
    /* The broken version: a letter in the courtyard loop's points. Its line and column: */
    char *bad = strdup(good);
    char *at = strstr(bad, "points 10,10 25,10");
    ck_assert(at != NULL);
    at[10] = 'x'; /* "10,x0" */
    int line = 1;
    for (const char *c = bad; c < at; c++) line += *c == '\n';
    const char *bol = at;
    while (bol > bad && bol[-1] != '\n') bol--;
    int col = (int)(at + 10 - bol) + 1; /* the bad coordinate */
    char want_err[64], want_log[64];
    snprintf(want_err, sizeof want_err, "castle.pat:%d:%d: error:", line, col);
    snprintf(want_log, sizeof want_log, "castle.pat:%d:%d\n", line, col);

    proc x;
    char denv[32];
    int got_display = start_xvfb(&x, denv, sizeof denv);
    const char *env[] = {denv, "SDL_VIDEODRIVER=x11", "SDL_RENDER_DRIVER=software", "ASAN_OPTIONS=detect_leaks=0", NULL};
    const char *play[] = {PATROL_BIN, "play", map, "--log", "--ticks", "3600", NULL};
    proc game = {.pid = -1, .out = -1};
    char wid[64] = "";
    int status = -2, failed_seen = 0, alive = 0, ok_seen = 0;
    if (got_display && start(&game, play, env, 1, err, -1)) find_window(env, wid, sizeof wid);
    if (wid[0]) {
        FILE *f = fopen(pat, "w");
        fputs(bad, f);
        fclose(f);
        const char *f5[] = {"F5", NULL};
        keys(env, wid, f5);
        failed_seen = read_until(&game, want_log, 15.0);
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
        alive = running(&game);
        f = fopen(pat, "w");
        fputs(good, f);
        fclose(f);
        keys(env, wid, f5);
        ok_seen = read_until(&game, "reload ok patterns\n", 15.0); /* the map is as it was */
        const char *esc[] = {"Escape", NULL};
        keys(env, wid, esc);
        status = finish(&game, 10.0);
    } else if (game.pid > 0) {
        finish(&game, 0.0);
    }
    kill(x.pid, SIGTERM);
    finish(&x, 5.0);
    char *errs = slurp_text(err);
    ck_assert_msg(got_display, "Xvfb did not start");
    ck_assert_msg(wid[0], "no window titled 'patrol' appeared (see %s)", err);
    ck_assert_msg(failed_seen, "no 'reload failed ...%s' in: %s", want_log, game.buf);
    ck_assert_msg(alive, "the game stopped after a failed reload");
    ck_assert_msg(errs && strstr(errs, want_err), "stderr lacks %s: %s", want_err, errs ? errs : "");
    ck_assert_msg(ok_seen, "the fixed file was not reloaded: %s", game.buf);
    ck_assert_int_eq(status, 0);
    free(errs);
    free(good);
    free(bad);
    unlink(map);
    empty_dir(pats);
    unlink(err);
    rmdir(maps);
    rmdir(pats);
    rmdir(dir);
}
END_TEST

/* --watch under the dummy driver: a pattern file saved while the game runs reloads by itself
 * (patterns only: "reload ok patterns"); a broken save prints its located error and the game
 * goes on; the fixed save loads. SIGTERM then quits it the normal way. */
static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

START_TEST(test_watch_reloads) {
    char map[1024], pat[1024], err[1024];
    out_path(map, sizeof map, "watch.map");
    out_path(pat, sizeof pat, "watch.pat");
    out_path(err, sizeof err, "watch.err");
    const char *slash = strrchr(pat, '/');
    char text[2048];
    snprintf(text, sizeof text,
             "format 1\npatterns %s\nplayer at=1,1\nguard g at=2,3 pattern=pace\ngrid\n##########\n"
             "#........#\n#.####...#\n#........#\n##########\nend\n", slash + 1);
    write_file(map, text);
    const char *good = "pattern pace\n  kind path\n  points 2,3 6,3\n  at_end reverse\nend\n";
    write_file(pat, good);
    proc p;
    const char *env[] = {"SDL_VIDEODRIVER=dummy", NULL};
    const char *play[] = {PATROL_BIN, "play", map, "--watch", "--log", "--ticks", "3600", NULL};
    ck_assert(start(&p, play, env, 1, err, -1));
    /* Saves with a growing comment until one is seen (the first may come before the game
     * has loaded: then it is simply what it loads). */
    int seen = 0;
    char more[512];
    for (int i = 0; i < 60 && !seen; i++) {
        snprintf(more, sizeof more, "%s# save %d\n", good, i);
        write_file(pat, more);
        seen = read_until(&p, "reload ok patterns\n", 0.5);
    }
    ck_assert_msg(seen, "no reload after a save: %s", p.buf);
    write_file(pat, "pattern pace\n  kind path\n  points 2,3 xx,3\n  at_end reverse\nend\n");
    int failed = read_until(&p, "watch.pat:3:14\n", 15.0);
    write_file(pat, good);
    ck_assert_int_eq(count_of(p.buf, "reload ok"), 1);
    p.len = 0; /* what it printed so far is checked */
    int again = read_until(&p, "reload ok patterns\n", 15.0);
    kill(p.pid, SIGTERM);
    int status = finish(&p, 10.0);
    char *errs = slurp_text(err);
    ck_assert_msg(failed, "no located 'reload failed' line: %s", p.buf);
    ck_assert_msg(errs && strstr(errs, "watch.pat:3:14: error:"), "stderr: %s", errs ? errs : "");
    ck_assert_msg(again, "the fixed save was not reloaded: %s", p.buf);
    ck_assert_int_eq(status, 0);
    ck_assert_msg(strstr(p.buf, "player 1,1\n") != NULL, "%s", p.buf);
    free(errs);
    unlink(map);
    unlink(pat);
    unlink(err);
}
END_TEST

static Suite *play_suite(void) {
    Suite *s = suite_create("play");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_usage);
    tcase_add_test(core, test_input_errors);
    tcase_add_test(core, test_no_display);
    tcase_add_test(core, test_dummy_driver);
    tcase_add_test(core, test_one_line_stderr);
    tcase_add_test(core, test_window_fits_small_map);
    tcase_add_test(core, test_watch_reloads);
    suite_add_tcase(s, core);
    TCase *x11 = tcase_create("x11");
    tcase_set_timeout(x11, 120);
    if (in_path("Xvfb") && in_path("xdotool") && in_path("timeout")) {
        tcase_add_test(x11, test_x11_keys);
        tcase_add_test(x11, test_x11_game_keys);
        tcase_add_test(x11, test_x11_hot_reload);
    } else {
        printf("check_play: SKIPPED test_x11_keys, test_x11_game_keys, test_x11_hot_reload: need Xvfb and "
               "xdotool in PATH (apt-get install xvfb xauth xdotool)\n");
    }
    suite_add_tcase(s, x11);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(play_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
