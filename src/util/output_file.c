/* output_file.c — writing a user-named file safely (output_file.h): follow
 * symbolic links to the real target, replace regular files atomically, write
 * devices and FIFOs in place. */
#include "util/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/interrupt.h"

#define SYMLINK_HOPS_MAX 40 /* as the kernel's own limit (ELOOP) */

/* The final target of PATH: symbolic links followed, even to a target that
 * does not exist yet (a dangling link names the file to create).  False with
 * errno set. */
static bool resolve_target(const char *path, char *target, size_t size)
{
    if ((size_t)snprintf(target, size, "%s", path) >= size) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (int hop = 0; hop < SYMLINK_HOPS_MAX; hop++) {
        struct stat st;
        if (lstat(target, &st) != 0) return errno == ENOENT;
        if (!S_ISLNK(st.st_mode)) return true;
        char link[PATH_MAX];
        ssize_t n = readlink(target, link, sizeof link - 1);
        if (n < 0) return false;
        link[n] = '\0';
        if (link[0] == '/') {
            snprintf(target, size, "%s", link);
            continue;
        }
        char *slash = strrchr(target, '/'); /* a relative link is relative to the link's directory */
        size_t keep = slash ? (size_t)(slash - target) + 1 : 0;
        if (keep + (size_t)n >= size) {
            errno = ENAMETOOLONG;
            return false;
        }
        memcpy(target + keep, link, (size_t)n + 1);
    }
    errno = ELOOP;
    return false;
}

/* A temporary file beside F->target, with the permissions the target has
 * (or a plain fopen would give a new file: 0666 less the umask). */
static int create_temporary(output_file *f, const struct stat *existing)
{
    if ((size_t)snprintf(f->temporary, sizeof f->temporary, "%s.tmp-XXXXXX", f->target) >= sizeof f->temporary) {
        errno = ENAMETOOLONG;
        return -1;
    }
    sigset_t saved;
    interrupt_hold(&saved); /* until committed, an interrupt removes it (util/interrupt.h) */
    int fd = mkstemp(f->temporary); /* 0600 */
    int error = errno;
    if (fd >= 0) interrupt_track_path(f->temporary);
    interrupt_release(&saved);
    if (fd < 0) {
        f->temporary[0] = '\0';
        errno = error;
        return -1;
    }
    mode_t mode;
    if (existing) mode = existing->st_mode & 07777;
    else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(fd, mode);
    return fd;
}

/* Remove F's temporary, if any, and stop tracking it. */
static void remove_temporary(output_file *f)
{
    if (!f->temporary[0]) return;
    unlink(f->temporary);
    interrupt_forget_path(f->temporary);
    f->temporary[0] = '\0';
}

static bool fail_open(output_file *f, diag *d, int error)
{
    remove_temporary(f);
    return diag_fail(d, "cannot write %s: %s", f->path, strerror(error));
}

bool output_open(output_file *f, const char *path, diag *d)
{
    *f = (output_file){0};
    snprintf(f->path, sizeof f->path, "%s", path);
    if (strcmp(path, "-") == 0) {
        f->stream = stdout;
        f->standard_output = true;
        return true;
    }
    if (!resolve_target(path, f->target, sizeof f->target)) return fail_open(f, d, errno);
    struct stat st;
    bool exists = stat(f->target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return diag_fail(d, "cannot write %s: it is a directory; name a file", path);
    int fd;
    if (exists && !S_ISREG(st.st_mode)) fd = open(f->target, O_WRONLY | O_NOCTTY | O_CLOEXEC); /* device, FIFO */
    else fd = create_temporary(f, exists ? &st : NULL);
    if (fd < 0) return fail_open(f, d, errno);
    f->stream = fdopen(fd, "w");
    if (!f->stream) {
        int error = errno;
        close(fd);
        return fail_open(f, d, error);
    }
    return true;
}

bool output_is_replaced(const output_file *f)
{
    return f->temporary[0] != '\0';
}

bool output_finish(output_file *f, diag *d)
{
    bool ok = fflush(f->stream) == 0 && !ferror(f->stream);
    int error = ok ? 0 : errno;
    if (!f->standard_output && fclose(f->stream) != 0 && ok) {
        ok = false;
        error = errno;
    }
    f->stream = NULL;
    if (!ok) {
        remove_temporary(f);
        diag_fail(d, "cannot write %s: %s", f->path, strerror(error ? error : EIO));
    }
    return ok;
}

bool output_rename(output_file *f, diag *d)
{
    if (!output_is_replaced(f)) return true;
    if (rename(f->temporary, f->target) != 0) {
        int error = errno;
        remove_temporary(f);
        return diag_fail(d, "cannot write %s: %s", f->path, strerror(error));
    }
    interrupt_forget_path(f->temporary);
    f->temporary[0] = '\0';
    return true;
}

bool output_commit(output_file *f, diag *d)
{
    return output_finish(f, d) && output_rename(f, d);
}

bool output_commit_all(output_file *files, int count, diag *d)
{
    bool ok = true;
    for (int i = 0; i < count; i++) {
        if (ok) ok = output_finish(&files[i], d);
        else output_discard(&files[i]);
    }
    for (int i = 0; i < count; i++) {
        if (!ok) output_discard(&files[i]);
        else ok = output_rename(&files[i], d);
    }
    return ok;
}

void output_discard(output_file *f)
{
    if (f->stream && !f->standard_output) fclose(f->stream);
    f->stream = NULL;
    remove_temporary(f);
}
