/* output_file.c — the temporary half of "temporary file, then rename". */
#include "util/output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int output_file_create(const char *path, char *temporary, size_t size)
{
    if ((size_t)snprintf(temporary, size, "%s.tmp-XXXXXX", path) >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(temporary); /* 0600: widen to what fopen would create */
    mode_t mask = umask(0);
    umask(mask);
    if (fd >= 0) fchmod(fd, 0666 & ~mask);
    return fd;
}
