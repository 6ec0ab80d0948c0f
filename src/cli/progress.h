/* progress.h — a long run's progress on standard error (docs/output.md): the
 * simulations done out of the total, the one running, the time elapsed and
 * an estimate of the time left.  On a terminal one line rewritten in place;
 * elsewhere (--progress into a file or pipe) one line per update. */
#ifndef COLLSIM_PROGRESS_H
#define COLLSIM_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
    bool on, terminal;
    int total, done;
    double start_s;    /* monotonic clock at the start */
    bool line_open;    /* a terminal line is showing (to be cleared before other output) */
} progress;

void progress_start(progress *p, bool on, int total);
/* Say that DONE simulations are finished and CURRENT (e.g. "case 1
 * allreduce dbt 4 MB") is the one now awaited. */
void progress_show(progress *p, int done, const char *current);
/* Clear the terminal line (before other output, and at the end). */
void progress_clear(progress *p);

#endif
