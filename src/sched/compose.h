/* compose.h — schedules made of schedules: a hierarchical collective
 * (explainer 03 §2.1) runs whole sub-collectives on subsets of its ranks, one
 * tier after the other.  Any registered algorithm can be such a part, which is
 * how `hierarchical` takes its inner and outer algorithms as parameters. */
#ifndef COLLSIM_COMPOSE_H
#define COLLSIM_COMPOSE_H

#include "sched/schedule.h"

/* Copy CHILD's ops into PARENT: child actor a becomes parent actor
 * ACTOR_MAP[a], child chunk k becomes parent chunks FIRST_CHUNK + k*WIDTH
 * .. + WIDTH.  The child's first ops (those without dependencies) wait for
 * every op of the parent actor's previous part that nothing else in that part
 * waits for (its sinks); the part starts at PART_START[actor], which is then
 * moved to this part.  Start with PART_START all zero. */
void sched_embed(schedule *parent, const schedule *child, const int *actor_map, int first_chunk, int width,
                 int *part_start);

/* What an op waits for when it waits for every op of actor A in [FIRST,
 * END) (sched_embed's first ops of a part): the ops of that range no op of
 * it depends on (its sinks), less each sink a later op on its connection
 * follows, in increasing order into SINKS (END - FIRST ints at most); how
 * many. */
int sched_part_sinks(const sched_actor *a, int first, int end, int *sinks);

/* NCCL-style channels: K concurrent copies of a collective, copy c moving
 * its own 1/K of the data on its own connections (channel c).  ONE[c] is
 * copy c's schedule (N ranks, the same chunk grid for every c, and the same
 * switch actors count); ORDER[c][a] is the group rank that copy c's actor a
 * is (a rail-aligned ring visits a node's GPUs from GPU c on).  Switch
 * actors are replicated per copy.  Copy c's chunks are the c-th K-th of the
 * grid; AG / RS slice positions follow.  Returns the new schedule. */
schedule *sched_channels(schedule *const *one, int channels, const int *const *order);

#endif
