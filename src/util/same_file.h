/* same_file.h — whether two paths name one file, so that no output of a
 * command overwrites one of its inputs or another of its outputs
 * (docs/output.md): files that exist are compared by device and inode
 * (symbolic and hard links included), paths that do not exist yet by their
 * absolute form with the existing folder's real path (".", ".." and links
 * in the folder resolved). */
#ifndef COLLSIM_SAME_FILE_H
#define COLLSIM_SAME_FILE_H

#include <stdbool.h>

bool same_file(const char *a, const char *b);

/* Whether PATH is a character device (/dev/null, a terminal): several
 * outputs may share one, as the shell's `>` lets them. */
bool is_character_device(const char *path);

#endif
