/* actor_run.h — inside the executor: a job's schedule actors run in the
 * simulation child, as SimGrid actors or driven by the network (actor_run.c). */
#ifndef COLLSIM_ACTOR_RUN_H
#define COLLSIM_ACTOR_RUN_H

#include "exec/job.h"

/* In the child, before the network opens: how many actors JOB's parts run
 * as (one per schedule actor with ops, or one per channel it uses where a
 * part's channels are independent), which a blocking network is set up for
 * (as SimGrid actors); decides each part's channels_split and JOB's
 * helper_room. */
int actor_run_prepare(exec_job *job);
/* In the child, the network open: start the ACTORS actors (SimGrid actors,
 * or handed to a driven network) and simulate to the end.  Each part's tally and rank finishes receive what they record. */
void actor_run_all(const exec_job *job, int actors);

#endif
