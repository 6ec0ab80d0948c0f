/* input_file.h — reading a file the user named as input (a platform, a
 * scenario, an nccl-tests log, a baseline) whole, bounded in size, and
 * refusing at once what is not a regular file (docs/reliability.md):
 *   - a directory, a device or a socket: refused, saying what to give;
 *   - a FIFO: refused without waiting for a writer (opened non-blocking),
 *     since every reader needs the whole file, and a FIFO read whole would
 *     block until its writer closes;
 *   - a regular file larger than the kind's bound: refused before it is
 *     read, and again if it grows past the bound while being read. */
#ifndef COLLSIM_INPUT_FILE_H
#define COLLSIM_INPUT_FILE_H

#include <stddef.h>

#include "util/diag.h"

typedef struct input_kind {
    const char *name;        /* "a YAML file", "an nccl-tests log" */
    const char *example;     /* what to give instead: "a .yaml file" */
    const char *fifo_advice; /* the fix when given a FIFO: "save the YAML to a file" */
    const char *read_noun;   /* "the baseline" for "cannot read the baseline: ..."; NULL: "cannot open: ..." */
    long max_bytes;
    const char *max_text;    /* MAX_BYTES in words: "4 MiB" */
} input_kind;

/* The whole of PATH, NUL-terminated (its length, without the NUL, in
 * *LENGTH); NULL with D set (FILE and why, with the fix). */
char *input_read(const char *path, const input_kind *kind, size_t *length, diag *d);

#endif
