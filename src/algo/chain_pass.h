/* chain_pass.h — a pipelined chain (explainer 01 §3.1, §4.1, App. C): data
 * flows from members[0] to members[n-1] in SEGMENTS segments, segment g being
 * chunk FIRST + g; every member but the first receives segment g (copying for
 * a broadcast, reducing for a reduce) and every member but the last forwards
 * it once it has arrived, while segment g+1 comes in.
 *
 * Chains hand over segment by segment, so that a chain fed by another keeps
 * the pipeline full (02 §3.2: "each phase re-uses the payload pipelined in
 * from the previous dim").  HELD records, per actor and segment, the ops (at
 * most two, SCHED_NO_DEP for none) after which the actor holds that segment:
 * *chain_held(held, segments, actor, g) and the next int.  A member's
 * receive of segment g waits for what it holds (a reduce adds into the sum
 * of the chains before it; in a broadcast it holds nothing yet), the first
 * member's send waits for it, and a receiving member then holds its receive.
 * chain_held_create: every actor holding every segment from the start.
 *
 * bidirectional_chain_pass: both directions of a ring ring[0..d-1] around
 * ring[0] (02 §3.2, §3.3): the chains ring[0], ring[1], ..., ring[d/2] and
 * ring[0], ring[d-1], ..., ring[d/2+1] (from ring[0] for a broadcast, into it
 * for a reduce, where ring[0] then holds both chains' receives), so the
 * farthest member is floor(d/2) hops away.
 *
 * Ring BC and Reduce are one chain (chain_schedule); torus BC / Reduce run
 * bidirectional chains along each dim line. */
#ifndef COLLSIM_CHAIN_PASS_H
#define COLLSIM_CHAIN_PASS_H

#include <stdbool.h>

#include "algo/algorithm.h"

int *chain_held_create(int actors, int segments);

static inline int *chain_held(int *held, int segments, int actor, int segment)
{
    return &held[2 * (actor * segments + segment)];
}

void chain_pass(schedule *s, const int *members, int n, int first, int segments, bool reduce, int *held);
void bidirectional_chain_pass(schedule *s, const int *ring, int d, int first, int segments, bool reduce, int *held);

/* The whole-group chain of ring BC (from the root) or ring Reduce (into the
 * root), P = p->segments (default N); NULL with WHY for a bad root. */
schedule *chain_schedule(primitive prim, const algo_params *p, char *why, int why_size);

#endif
