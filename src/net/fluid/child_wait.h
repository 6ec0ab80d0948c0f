/* child_wait.h — the parent's side of a simulation child's heartbeat
 * (net/heartbeat.h): waiting for the child's report while showing how far it
 * has got, and the watchdog that ends a child whose simulated time stands
 * still (docs/reliability.md, "Heartbeat and watchdog"). */
#ifndef COLLSIM_CHILD_WAIT_H
#define COLLSIM_CHILD_WAIT_H

#include <stdbool.h>

#include "net/heartbeat.h"

/* Told about once a second while the parent waits: the child's heartbeat,
 * and the wall seconds waited so far. */
typedef void (*child_beat_fn)(void *ctx, const heartbeat *h, double waited_s);

/* Wait until FD, the read end of the child's pipe, has something to read
 * (its report, or the end of the child).  With a heartbeat H, BEAT (when not
 * NULL) is told about once a second, and a simulated time that has not moved
 * for STALL_LIMIT_S seconds of wall time (0: no limit) ends the wait: false,
 * with *STOOD_S the wall seconds it stood still.  True once FD is readable. */
bool child_wait(int fd, const heartbeat *h, double stall_limit_s, child_beat_fn beat, void *ctx, double *stood_s);

#endif
