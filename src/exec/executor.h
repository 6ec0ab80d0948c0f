/* executor.h — runs any schedule on SimGrid: one actor per schedule actor
 * (group rank or INC switch), asynchronous sends and receives, each op posted
 * as soon as its dependencies are met, and per-rank and per-phase times
 * recorded.  The network behind it is whatever simgrid_run sets up, so a
 * different network model replaces that module, not any algorithm. */
#ifndef COLLSIM_EXECUTOR_H
#define COLLSIM_EXECUTOR_H

#include <stdbool.h>

#include "net/simgrid_run.h"
#include "platform/topology.h"
#include "sched/schedule.h"
#include "util/diag.h"

typedef struct exec_result {
    double time_s;                          /* last op of any actor */
    double phase_end_s[SCHED_MAX_PHASES];   /* last op of each phase */
    double *rank_finish_s;                  /* per group rank; owned, free with exec_result_free */
    int ranks;
} exec_result;

/* Run S, whose actor a sits on topology node ACTOR_NODES[a], for a collective
 * of SIZE_BYTES (chunks of size_bytes / s->chunks). */
bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d);
void exec_result_free(exec_result *r);
/* Where each actor of S runs: group rank a on RANK_NODES[a], switch actor k
 * on the switch node the schedule names.  Caller frees. */
int *exec_actor_nodes(const schedule *s, const int *rank_nodes);

#endif
