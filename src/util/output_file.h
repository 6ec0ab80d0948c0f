/* output_file.h — where collsim writes a file the user named (-o, --plot,
 * --write-baseline), without ever destroying what was there:
 *   - "-" is standard output;
 *   - a regular file, or a path that does not exist yet, is written whole or
 *     not at all: a temporary file beside it, renamed over it once complete
 *     (its permissions kept);
 *   - a symbolic link is followed: its final target is replaced that way and
 *     the link stays a link;
 *   - a character device, a FIFO or another file that is not regular is
 *     written into directly (a FIFO waits for its reader, as the shell's `>`
 *     does), never replaced;
 *   - a directory is refused.
 * Until committed or discarded, an interrupt of collsim removes the
 * temporary (util/interrupt.h). */
#ifndef COLLSIM_OUTPUT_FILE_H
#define COLLSIM_OUTPUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/diag.h"

typedef struct output_file {
    FILE *stream;                   /* where to write, once open */
    char path[PATH_MAX];            /* the name the user gave (for messages) */
    char target[PATH_MAX];          /* the file finally written: symbolic links followed */
    char temporary[PATH_MAX + 16];  /* the temporary beside TARGET; "" when written directly */
    bool standard_output;
} output_file;

/* Open PATH for writing as above.  False with D set (nothing created). */
bool output_open(output_file *f, const char *path, diag *d);
/* Finish: flush, close, and rename the temporary over the target.  False
 * with D set, the temporary removed and the target untouched, on any error. */
bool output_commit(output_file *f, diag *d);
/* The two halves of output_commit: flush, write to disk and close (false
 * with D set and the temporary removed on any error: a full disk shows
 * here), then rename over the target. */
bool output_finish(output_file *f, diag *d);
bool output_rename(output_file *f, diag *d);
/* Commit COUNT files together: every one finished before any is renamed,
 * so that a failure (a full disk) leaves every target untouched and every
 * temporary removed.  False with D set. */
bool output_commit_all(output_file *files, int count, diag *d);
/* Give up: close and remove the temporary (the target is untouched). */
void output_discard(output_file *f);
/* Whether F replaces its target atomically (a regular file or a new path). */
bool output_is_replaced(const output_file *f);

#endif
