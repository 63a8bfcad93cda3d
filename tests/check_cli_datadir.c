/* SPDX-License-Identifier: Zlib */
/* check_cli_datadir - where the patrol command finds its data (src/render/datadir.h): the
 * sprite sheets for `patrol render` and `patrol play`, and the demo level `patrol play` opens
 * without a map. A copy of the command in a tree of the installed layout (bin/patrol,
 * share/patrol/assets, share/patrol/examples), outside the build tree, must use that tree's
 * data before the current folder's, must never read the source tree, and PATROL_ASSETS alone
 * decides when it is set; the build tree's own command falls back to the source tree. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A small valid level, and what the current folder holds to be found by mistake. */
static const char *level = "format 1\n"
                           "title \"installed\"\n"
                           "player at=1,1\n"
                           "guard g1 at=5,2 heading=180\n"
                           "grid\n"
                           "#######\n"
                           "#.....#\n"
                           "#.....#\n"
                           "#######\n"
                           "end\n";
static const char *decoy_map = "format 1\nthis map is in the current folder\n";
static const char *decoy_sheet = "not a PNG: the current folder's assets/tiles.png\n";

typedef struct result {
    int status;
    char err[4096];
} result;

/* Runs prog args... in folder cwd with PATROL_ASSETS set to assets (NULL: unset); stdout
 * goes nowhere, stderr into r->err. */
static void run_in(result *r, const char *cwd, const char *assets, const char *prog, const char *const *args) {
    const char *argv[16];
    int n = 0;
    argv[n++] = prog;
    for (; args[n - 1] && n < 15; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    FILE *err = tmpfile();
    ck_assert_ptr_nonnull(err);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(fileno(err), 2);
        if (chdir(cwd) != 0) _exit(126);
        if (assets) setenv("PATROL_ASSETS", assets, 1);
        else unsetenv("PATROL_ASSETS");
        setenv("SDL_VIDEODRIVER", "dummy", 1);
        setenv("SDL_AUDIODRIVER", "dummy", 1);
        execv(prog, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    rewind(err);
    size_t got = fread(r->err, 1, sizeof r->err - 1, err);
    r->err[got] = '\0';
    fclose(err);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void copy_file(const char *from, const char *to, mode_t mode) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_msg(in && out, "cannot copy %s to %s", from, to);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    ck_assert_int_eq(chmod(to, mode), 0);
}

static const char *sheets[] = {"tiles.png", "characters.png", "props.png", "font.png"};

/* root/sub, made. */
static void make_dir(char *out, size_t cap, const char *root, const char *sub) {
    snprintf(out, cap, "%s/%s", root, sub);
    ck_assert_int_eq(mkdir(out, 0777), 0);
}

static void remove_tree(const char *root) {
    static const char *files[] = {
        "inst/bin/patrol", "inst/share/patrol/examples/demo.map", "cwd/maps/demo.map", "cwd/assets/tiles.png",
        "cwd/out.png", "inst/share/patrol/assets/tiles.png", "inst/share/patrol/assets/characters.png",
        "inst/share/patrol/assets/props.png", "inst/share/patrol/assets/font.png"};
    static const char *dirs[] = {"inst/bin", "inst/share/patrol/assets", "inst/share/patrol/examples",
                                 "inst/share/patrol", "inst/share", "inst", "cwd/maps", "cwd/assets", "cwd", ""};
    char path[1024];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        unlink(path);
    }
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        rmdir(path);
    }
}

START_TEST(test_installed_copy) {
    /* Outside the build tree (the build tree's programs may read the source tree). */
    char root[] = "/tmp/patrol-datadir-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char inst[128], bin[160], share[160], data[160], assets[192], examples[192], cwd[128], d[192];
    make_dir(inst, sizeof inst, root, "inst");
    make_dir(bin, sizeof bin, inst, "bin");
    make_dir(share, sizeof share, inst, "share");
    make_dir(data, sizeof data, share, "patrol");
    make_dir(assets, sizeof assets, data, "assets");
    make_dir(examples, sizeof examples, data, "examples");
    make_dir(cwd, sizeof cwd, root, "cwd");
    make_dir(d, sizeof d, cwd, "maps");
    make_dir(d, sizeof d, cwd, "assets");
    char prog[256], path[512], from[1024], map[512], png[512];
    snprintf(prog, sizeof prog, "%s/patrol", bin);
    copy_file(PATROL_BIN, prog, 0755);
    for (int i = 0; i < 4; i++) {
        snprintf(from, sizeof from, "%s/assets/%s", PATROL_SOURCE_DIR, sheets[i]);
        snprintf(path, sizeof path, "%s/%s", assets, sheets[i]);
        copy_file(from, path, 0644);
    }
    snprintf(map, sizeof map, "%s/demo.map", examples);
    write_file(map, level);
    snprintf(png, sizeof png, "%s/out.png", cwd);
    snprintf(path, sizeof path, "%s/maps/demo.map", cwd);
    write_file(path, decoy_map);
    snprintf(path, sizeof path, "%s/assets/tiles.png", cwd);
    write_file(path, decoy_sheet);

    result r;
    const char *render[] = {"render", map, "--out", png, NULL};
    const char *play[] = {"play", "--ticks", "5", NULL};
    /* 1. Beside the program, before the current folder: the decoys are not read. */
    run_in(&r, cwd, NULL, prog, render);
    ck_assert_msg(r.status == 0, "render from the installed copy: status %d: %s", r.status, r.err);
    run_in(&r, cwd, NULL, prog, play);
    ck_assert_msg(r.status == 0, "play with no map from the installed copy: status %d: %s", r.status, r.err);
    /* 2. PATROL_ASSETS, when set, is the only folder looked at. */
    run_in(&r, cwd, "/nonexistent/patrol-assets", prog, render);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "no tiles.png in PATROL_ASSETS folder '/nonexistent/patrol-assets'"), "%s", r.err);
    run_in(&r, "/", assets, prog, render);
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* 3. Without the installed sheets, the current folder's come next (and are bad). */
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", assets, sheets[i]);
        ck_assert_int_eq(unlink(path), 0);
    }
    run_in(&r, cwd, NULL, prog, render);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "assets/tiles.png"), "%s", r.err);
    /* 4. Then no place has them: the source tree is never read by a program outside the
     * build tree (unless the configured prefix has an install, which the test cannot rule
     * out). The error names the places tried. */
    snprintf(path, sizeof path, "%s/assets/tiles.png", cwd);
    ck_assert_int_eq(unlink(path), 0);
    run_in(&r, cwd, NULL, prog, render);
    char configured[600];
    snprintf(configured, sizeof configured, "%s/patrol/assets/tiles.png", PATROL_CONFIGURED_DATA_DIR);
    if (access(configured, R_OK) != 0) {
        ck_assert_int_eq(r.status, 1);
        char want[700];
        snprintf(want, sizeof want, "cannot find the sprite sheets (tiles.png) in %s/../share/patrol/assets, assets or %s/patrol/assets",
                 bin, PATROL_CONFIGURED_DATA_DIR);
        ck_assert_msg(strstr(r.err, want), "want '%s' in: %s", want, r.err);
    }
    /* 5. Without the installed demo, the current folder's maps/demo.map is next. */
    ck_assert_int_eq(unlink(map), 0);
    run_in(&r, cwd, PATROL_SOURCE_DIR "/assets", prog, play);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "maps/demo.map:2:"), "%s", r.err);
    remove_tree(root);
}
END_TEST

START_TEST(test_build_tree) {
    /* The build tree's command, run from a folder with nothing in it, finds the source
     * tree's sheets and demo level list. */
    char root[] = "/tmp/patrol-datadir-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char png[64];
    snprintf(png, sizeof png, "%s/out.png", root);
    result r;
    const char *render[] = {"render", PATROL_SOURCE_DIR "/maps/demo.map", "--out", png, NULL};
    run_in(&r, root, NULL, PATROL_BIN, render);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *play[] = {"play", "--ticks", "5", NULL};
    run_in(&r, root, NULL, PATROL_BIN, play);
    ck_assert_msg(r.status == 0, "%s", r.err);
    unlink(png);
    rmdir(root);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cli_datadir");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_installed_copy);
    tcase_add_test(tc, test_build_tree);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
