/* data_path.c — finding a named file along collsim's search path (data_path.h). */
#include "util/data_path.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef COLLSIM_DATADIR
#define COLLSIM_DATADIR "/usr/local/share/collsim"
#endif

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* FOLDER added to FOLDERS (COUNT of them) when it exists and is not there yet. */
static void add_folder(char folders[][4096], int max, int *count, const char *folder)
{
    if (*count >= max || !folder[0] || !is_folder(folder)) return;
    for (int i = 0; i < *count; i++)
        if (strcmp(folders[i], folder) == 0) return;
    snprintf(folders[(*count)++], 4096, "%s", folder);
}

int data_path_folders(char folders[][4096], int max)
{
    int count = 0;
    const char *path = getenv("COLLSIM_PATH");
    for (const char *at = path; at && *at;) {
        size_t length = strcspn(at, ":");
        char folder[4096];
        if (length < sizeof folder) {
            memcpy(folder, at, length);
            folder[length] = '\0';
            add_folder(folders, max, &count, folder);
        }
        at += length + (at[length] == ':');
    }
    add_folder(folders, max, &count, COLLSIM_DATADIR);
    char program[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", program, sizeof program - 1);
    if (n > 0) { /* PREFIX/bin/collsim -> PREFIX/share/collsim */
        program[n] = '\0';
        char beside[PATH_MAX + 32];
        snprintf(beside, sizeof beside, "%s/../share/collsim", dirname(program));
        char real[PATH_MAX];
        if (realpath(beside, real)) add_folder(folders, max, &count, real);
    }
    return count;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

bool data_path_find(const char *name, const char *base, const char *subfolder, char *out, size_t size)
{
    if (name[0] == '/' || !base) snprintf(out, size, "%s", name);
    else snprintf(out, size, "%s/%s", base, name);
    if (name[0] == '/' || exists(out)) return true;
    char folders[DATA_PATH_MAX_FOLDERS][4096];
    int count = data_path_folders(folders, DATA_PATH_MAX_FOLDERS);
    const char *last = strrchr(name, '/');
    last = last ? last + 1 : name;
    char candidate[2 * 4096];
    for (int i = 0; i < count; i++) {
        snprintf(candidate, sizeof candidate, "%s/%s", folders[i], name);
        if (!exists(candidate) && subfolder && *last)
            snprintf(candidate, sizeof candidate, "%s/%s/%s", folders[i], subfolder, last);
        if (exists(candidate) && strlen(candidate) < size) {
            snprintf(out, size, "%s", candidate);
            return true;
        }
    }
    return false;
}
