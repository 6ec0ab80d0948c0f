/* critical_path.h — the time of a schedule itself, without contention: every
 * op starts once its dependencies have completed, a message moves once both
 * its ends have started and takes what a cost function says (α + bytes / BW
 * of its route, for the model), a local op takes no time.  The longest
 * chain of dependencies and messages is the schedule's critical path: its
 * time, the messages on it, and, when some op can never complete (a
 * dependency cycle through messages, a message with no other end), which. */
#ifndef COLLSIM_CRITICAL_PATH_H
#define COLLSIM_CRITICAL_PATH_H

#include <stdbool.h>

#include "sched/schedule.h"

/* The time of one message of CHUNKS chunks from actor FROM to actor TO. */
typedef double (*message_cost_fn)(void *context, int from, int to, int chunks);

typedef struct sched_path {
    double time_s;          /* when the last op completes */
    int message_count;      /* messages on the critical path, first to last: */
    int *from, *to, *chunks; /* their ends and sizes (one block, owned) */
    int stuck_actor, stuck_op; /* an op that never completes (one started whose message never came, else the
                                  first waiting), or -1 */
} sched_path;

/* S's critical path under COST (S sealed here if it was not); false when
 * some op never completes (OUT->stuck_actor, stuck_op say which). */
bool sched_critical_path(const schedule *s, message_cost_fn cost, void *context, sched_path *out);
void sched_path_free(sched_path *p);

#endif
