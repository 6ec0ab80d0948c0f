/* same_file.c — whether two paths name one file (same_file.h). */
#include "util/same_file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* PATH as an absolute path, its folder resolved when it exists (the file
 * itself need not); false when it does not fit. */
static bool normalized(const char *path, char *out, size_t size)
{
    char folder[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!slash) snprintf(folder, sizeof folder, ".");
    else if (slash == path) snprintf(folder, sizeof folder, "/");
    else snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
    char real[PATH_MAX];
    if (!realpath(folder, real)) snprintf(real, sizeof real, "%s", folder);
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || name[0] == '\0') return false;
    return (size_t)snprintf(out, size, "%s/%s", strcmp(real, "/") == 0 ? "" : real, name) < size;
}

bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool a_exists = stat(a, &sa) == 0, b_exists = stat(b, &sb) == 0;
    if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (a_exists != b_exists) return false;
    char na[PATH_MAX + NAME_MAX + 2], nb[PATH_MAX + NAME_MAX + 2];
    if (!normalized(a, na, sizeof na) || !normalized(b, nb, sizeof nb)) return strcmp(a, b) == 0;
    return strcmp(na, nb) == 0;
}

bool is_character_device(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}
