/* SPDX-License-Identifier: Zlib */
/* test_cli.h - running the patrol executable from a Check suite and capturing its output. */
#ifndef PATROL_TEST_CLI_H
#define PATROL_TEST_CLI_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_result {
    int status;       /* exit status, or -1 if the program did not exit normally */
    char out[131072]; /* its stdout */
    char err[16384];  /* its stderr */
} run_result;

static inline void tu_slurp(FILE *f, char *dst, size_t cap) {
    rewind(f);
    size_t n = fread(dst, 1, cap - 1, f);
    dst[n] = '\0';
    fclose(f);
}

/* Runs PATROL_BIN [cmd] args... (args NULL-terminated; cmd may be NULL), capturing both
 * streams in temporary files. */
static inline void tu_run_patrol(run_result *r, const char *cmd, const char *const *args) {
    char *argv[40];
    int n = 0;
    argv[n++] = (char *)PATROL_BIN;
    if (cmd) argv[n++] = (char *)cmd;
    for (int i = 0; args[i] && n < 39; i++) argv[n++] = (char *)args[i];
    argv[n] = NULL;
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(err);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        execv(PATROL_BIN, argv);
        _exit(127);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    tu_slurp(out, r->out, sizeof r->out);
    tu_slurp(err, r->err, sizeof r->err);
}

#endif
