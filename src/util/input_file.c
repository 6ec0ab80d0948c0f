/* input_file.c — an input file read whole, or refused at once (input_file.h). */
#include "util/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether a file of status ST is refused as KIND (D then says why, with the fix). */
static bool refuse_kind(const char *path, const struct stat *st, const input_kind *kind, diag *d)
{
    if (S_ISDIR(st->st_mode))
        diag_at(d, path, 0, 0, "is a directory, not %s: give the path of %s", kind->name, kind->example);
    else if (S_ISFIFO(st->st_mode))
        diag_at(d, path, 0, 0, "is a FIFO (named pipe), not a regular file: %s", kind->fifo_advice);
    else if (!S_ISREG(st->st_mode))
        diag_at(d, path, 0, 0, "is not a regular file (a device or a socket): give the path of %s", kind->example);
    else if (st->st_size > kind->max_bytes)
        diag_at(d, path, 0, 0, "is larger than %s, the largest %s collsim reads", kind->max_text,
                strchr(kind->name, ' ') + 1); /* "a YAML file" -> "YAML file" */
    else return false;
    return true;
}

/* The whole of FD (a regular file of SIZE bytes) into TEXT (SIZE + 1
 * bytes); an errno, or 0. */
static int read_all(int fd, char *text, size_t size, size_t *length)
{
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, text + used, size + 1 - used);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) break;
        used += (size_t)n;
        if (used > size) return EFBIG; /* it grew while being read */
    }
    *length = used;
    return 0;
}

char *input_read(const char *path, const input_kind *kind, size_t *length, diag *d)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); /* a FIFO must not block the open */
    if (fd < 0) {
        int error = errno;
        const char *fix = error == EACCES ? ": make the file readable or give another path" : "";
        if (kind->read_noun) diag_at(d, path, 0, 0, "cannot read %s: %s%s", kind->read_noun, strerror(error), fix);
        else diag_at(d, path, 0, 0, "cannot open: %s%s", strerror(error), fix);
        return NULL;
    }
    struct stat st;
    int error = fstat(fd, &st) != 0 ? errno : 0;
    bool refused = !error && refuse_kind(path, &st, kind, d);
    char *text = error || refused ? NULL : malloc((size_t)st.st_size + 1);
    if (!error && !refused && !text) error = ENOMEM;
    if (text) error = read_all(fd, text, (size_t)st.st_size, length);
    close(fd);
    if (error == EFBIG) diag_at(d, path, 0, 0, "cannot read: the file grew while being read");
    else if (error) diag_at(d, path, 0, 0, "cannot read: %s", strerror(error));
    if (error || refused) {
        free(text);
        return NULL;
    }
    text[*length] = '\0';
    return text;
}
