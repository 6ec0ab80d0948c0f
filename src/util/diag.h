/* diag.h — one error message with its source position, passed up the call
 * chain instead of printed deep inside.  Every input error of collsim ends as
 * "FILE:LINE:COL: message" on stderr and exit code 2 (docs/reliability.md). */
#ifndef COLLSIM_DIAG_H
#define COLLSIM_DIAG_H

#include <stdbool.h>

typedef struct diag {
    char file[512];   /* file the error is about ("" when none) */
    int line;         /* 1-based; 0 when unknown */
    int column;       /* 1-based; 0 when unknown */
    char message[1024];
    bool set;
} diag;

/* Record an error at FILE:LINE:COL (line/column 1-based, 0 = unknown).
 * Always returns false so callers can write `return diag_at(...)`. */
bool diag_at(diag *d, const char *file, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Record an error with no position (e.g. a file that cannot be opened). */
bool diag_fail(diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "file:line:col: message" (position parts omitted when unknown). */
void diag_print(const diag *d);

#endif
