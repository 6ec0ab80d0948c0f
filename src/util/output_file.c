/* output_file.c — the temporary half of "temporary file, then rename". */
#include "util/output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/interrupt.h"

int output_file_create(const char *path, char *temporary, size_t size)
{
    if ((size_t)snprintf(temporary, size, "%s.tmp-XXXXXX", path) >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    sigset_t saved;
    interrupt_hold(&saved); /* an interrupt between creating and tracking would leave it */
    int fd = mkstemp(temporary); /* 0600: widen to what fopen would create */
    int error = errno;
    if (fd >= 0) interrupt_track_path(temporary);
    interrupt_release(&saved);
    errno = error;
    mode_t mask = umask(0);
    umask(mask);
    if (fd >= 0) fchmod(fd, 0666 & ~mask);
    return fd;
}

int output_file_commit(const char *temporary, const char *path)
{
    if (rename(temporary, path) == 0) {
        interrupt_forget_path(temporary);
        return 0;
    }
    int error = errno;
    output_file_discard(temporary);
    errno = error;
    return -1;
}

void output_file_discard(const char *temporary)
{
    unlink(temporary);
    interrupt_forget_path(temporary);
}
