/* ring_pass.h — one pass of a ring over a set of members, the building block
 * of ring AR / AG / RS (explainer 01 §5.1, §6), torus dimension decomposition
 * (02 §3.4, §3.5) and hierarchical phases (03 §2.1).
 *
 * The members m[0..n-1] (actors, in ring order) share a chunk range of n
 * slices of WIDTH chunks starting at FIRST; slice j is member j's.
 *   reduce-scatter: n-1 steps; at step t member i sends slice (i-t) mod n
 *     right and reduces slice (i-t-1) mod n from the left; member i ends with
 *     the full sum of its own slice.
 *   all-gather: n-1 steps; member i starts with slice i, sends slice
 *     (i-t+1) mod n right and copies slice (i-t) mod n from the left.
 * Every send waits for the receive that produced its slice; the first step
 * waits for ENTRY[actor] (the actor's last op of the previous pass, or
 * SCHED_NO_DEP), and ENTRY[actor] is updated to the pass's last receive. */
#ifndef COLLSIM_RING_PASS_H
#define COLLSIM_RING_PASS_H

#include <stdbool.h>

#include "sched/schedule.h"

void ring_pass(schedule *s, const int *members, int n, int first, int width, bool reduce, int *entry);

#endif
