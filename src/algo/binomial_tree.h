/* binomial_tree.h — the binomial tree of explainer 01 §3.2 and §4.2 and its
 * pipelined broadcast / reduce schedules (shared by bcast_binomial.c and
 * reduce_binomial.c: the same tree read in opposite time directions).
 *
 * Ranks are numbered relative to the root, v = (rank - root) mod N.  Step k
 * (k = 1..ceil(log2 N)) of the broadcast doubles the holding set: every
 * v < 2^(k-1) sends to v + 2^(k-1) when that is below N (the §3.2 trace: R0->R1,
 * then R0->R2 and R1->R3).  So v's parent is v minus its highest bit, and
 * its children are v + 2^j for 2^j > v, in step order; the root has
 * ceil(log2 N) children, and the first one heads the largest subtree. */
#ifndef COLLSIM_BINOMIAL_TREE_H
#define COLLSIM_BINOMIAL_TREE_H

#include "algo/algorithm.h"

/* The pipelined binomial broadcast (PRIM_BCAST) or reduce (PRIM_REDUCE) of
 * P = p->segments segments (default 1) from / into p->root; NULL with WHY for
 * a bad group or root. */
schedule *binomial_schedule(primitive prim, const algo_params *p, char *why, int why_size);

#endif
