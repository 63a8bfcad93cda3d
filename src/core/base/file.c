/* SPDX-License-Identifier: Zlib */
/* file.c - opening a file for reading as every loader does (pt_file_open, error.h): only a
 * regular file, not one of the kernel's, and without blocking on a FIFO or a device. Below
 * text.c (which reads what it opens) and the error printer (which quotes a source line). */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* stat, O_CLOEXEC */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define PT__HAVE_STAT 1
#endif
#ifdef __linux__
#include <sys/vfs.h> /* fstatfs */
#endif
#include <patrol/error.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static FILE *open_failed(pt_error *err, const char *path, const char *fmt, const char *what) {
    pt_error_clear(err);
    pt_error_set(err, PT_ERR_IO, 0, 0, fmt, what);
    if (err) snprintf(err->file, sizeof err->file, "%s", path);
    return NULL;
}

#ifdef __linux__
/* Kernel file systems whose files say they are regular (of size 0) but are made as they are
 * read: reads can block (/proc/kmsg, /sys/kernel/tracing/trace_pipe) or take what they
 * read from the kernel. The numbers are those of <linux/magic.h>. */
static const char *kernel_fs(int fd) {
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0) return NULL;
    switch ((unsigned long)fs.f_type) {
    case 0x9fa0UL: return "a procfs file";
    case 0x62656572UL: return "a sysfs file";
    case 0x64626720UL: return "a debugfs file";
    case 0x74726163UL: return "a tracefs file";
    }
    return NULL;
}
#endif

#ifdef PT__HAVE_STAT
static const char *special_kind(const struct stat *st) {
    return S_ISREG(st->st_mode)                         ? NULL
           : S_ISDIR(st->st_mode)                       ? "a directory"
           : S_ISFIFO(st->st_mode)                      ? "a FIFO"
           : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
                                                        : "a socket or another special file";
}
#endif

FILE *pt_file_open(const char *path, pt_error *err) {
    if (!path) return open_failed(err, "", "cannot open: %s", "no file name");
#ifdef PT__HAVE_STAT
    /* A device is refused before it is opened (opening one can act: a watchdog, a tape).
     * O_NONBLOCK: should the file be swapped for a FIFO or a device in between, opening it
     * cannot block, and fstat refuses it before anything is read. */
    struct stat st;
    const char *kind = stat(path, &st) == 0 ? special_kind(&st) : NULL;
    if (kind) return open_failed(err, path, "cannot read: not a regular file (%s)", kind);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return open_failed(err, path, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return open_failed(err, path, "cannot read: %s", strerror(e));
    }
    kind = special_kind(&st);
#ifdef __linux__
    if (!kind) kind = kernel_fs(fd);
#endif
    if (kind) {
        close(fd);
        return open_failed(err, path, "cannot read: not a regular file (%s)", kind);
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return open_failed(err, path, "cannot open: %s", strerror(e));
    }
    return f;
#else
    FILE *f = fopen(path, "rb");
    if (!f) return open_failed(err, path, "cannot open: %s", strerror(errno));
    return f;
#endif
}
