/* distinct_files.h — a command's outputs never alias its inputs or each
 * other (docs/output.md): checked on the command line, before anything is
 * read, run or written. */
#ifndef COLLSIM_DISTINCT_FILES_H
#define COLLSIM_DISTINCT_FILES_H

#include <stdbool.h>

typedef struct named_file {
    const char *path;     /* NULL: not given */
    const char *role;     /* as the user named it: "-o", "--trace", "the scenario" */
    bool output;
    const char *rewriter; /* the role of the one output that may replace this input ("--write-baseline"), or NULL */
} named_file;

/* False, after a message on standard error naming both files and the fix,
 * when an output of FILES is the same file as an input or another output.
 * "-" (standard output) and character devices (/dev/null) may be shared. */
bool files_distinct(const char *command, const named_file *files, int count);

#endif
