/* contention.h — whether a simulation's messages shared their links: each
 * message's latency (from the later posting of its two ends to its arrival,
 * exec/op_times.h) against the time it takes alone on its route, the
 * route's latency plus its wire bytes over the route's narrowest link
 * (alpha + M/BW under CM02, docs/contention.md).  A case none of whose messages took
 * longer is uncontended: its simulated time is then what its schedule's
 * steps add up to, which an exact formula must equal. */
#ifndef COLLSIM_CONTENTION_H
#define COLLSIM_CONTENTION_H

#include <stdbool.h>

#include "exec/executor.h"
#include "platform/topology.h"

/* Whether some message of PART (LATENCY_S: one per message, in the order
 * op_times.h writes them: by sender, receiver, then program order) took
 * longer than alone on its route on T, beyond a relative RTOL. */
bool analysis_contended(const topology *t, const exec_part *part, const double *latency_s, double rtol);

#endif
