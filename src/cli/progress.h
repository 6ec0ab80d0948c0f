/* progress.h — a long run's progress on standard error (docs/output.md): the
 * simulations done out of the total, the one running, the time elapsed and
 * an estimate of the time left; while one simulation runs long, its
 * heartbeat every few seconds (the simulated time it has reached and the
 * operations it has done).  On a terminal one line rewritten in place;
 * elsewhere (--progress into a file or pipe) one line per update. */
#ifndef COLLSIM_PROGRESS_H
#define COLLSIM_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
    bool on, terminal;
    int total, done;
    double start_s;    /* monotonic clock at the start */
    bool line_open;    /* a terminal line is showing (to be cleared before other output) */
    char current[160]; /* the simulation awaited, "" when none */
    double beat_shown_s; /* monotonic clock of the last heartbeat shown, 0: none since progress_show */
} progress;

void progress_start(progress *p, bool on, int total);
/* Say that DONE simulations are finished and CURRENT (e.g. "case 1
 * allreduce dbt 4 MB") is the one now awaited. */
void progress_show(progress *p, int done, const char *current);
/* The simulation awaited has reached SIMULATED_S and done OPERATIONS after
 * WAITED_S seconds of waiting: shown once it has run a few seconds, and
 * every few seconds after. */
void progress_beat(progress *p, double simulated_s, long long operations, double waited_s);
/* Clear the terminal line (before other output, and at the end). */
void progress_clear(progress *p);

#endif
