/* local_ops.h — the network's view of a schedule with local ops.  A copy or
 * a reduction inside one rank (OP_COPY, OP_REDUCE: MSCCL's cpy and re, and
 * the halves of its fused steps) takes no time in collsim's model, so the
 * executor is handed the schedule's sends and receives alone, each waiting
 * for what its local ops waited for: the same messages, in the same order,
 * after the same messages. */
#ifndef COLLSIM_LOCAL_OPS_H
#define COLLSIM_LOCAL_OPS_H

#include <stdbool.h>

#include "sched/schedule.h"

/* Whether any actor of S (stored) has a local op. */
bool sched_has_local_ops(const schedule *s);
/* S (stored, sealed here) without its local ops, each dependency on one
 * replaced by that op's own dependencies; sealed. */
schedule *sched_network_view(const schedule *s);

#endif
