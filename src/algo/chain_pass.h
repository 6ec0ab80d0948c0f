/* chain_pass.h — a pipelined chain (explainer 01 §3.1, §4.1, App. C): data
 * flows from members[0] to members[n-1] in SEGMENTS segments starting at
 * chunk FIRST; every member but the first receives segment s (copying for a
 * broadcast, reducing for a reduce) and every member but the last forwards it
 * once it has arrived, while segment s+1 comes in.  ENTRY as in ring_pass.h.
 * Ring BC and Reduce are one chain; torus BC / Reduce run one per dim line. */
#ifndef COLLSIM_CHAIN_PASS_H
#define COLLSIM_CHAIN_PASS_H

#include <stdbool.h>

#include "algo/algorithm.h"

void chain_pass(schedule *s, const int *members, int n, int first, int segments, bool reduce, int *entry);

/* The whole-group chain of ring BC (from the root) or ring Reduce (into the
 * root), P = p->segments (default N); NULL with WHY for a bad root. */
schedule *chain_schedule(primitive prim, const algo_params *p, char *why, int why_size);

#endif
