/* parallel_trees.h — Parallel Aggregated Trees (explainer 01 App. A), the
 * schedule shared by PAT all-gather and its dual, PAT reduce-scatter.
 *
 * AG: every chunk c_j is broadcast from rank j along its own binomial tree,
 * offsets farthest first (N/2, N/4, ..., 1, partner i XOR offset); all N
 * trees advance one level per round, and the tree edges that fall on one
 * (rank, partner) link in a round travel as ONE aggregated message.  Before
 * round r rank i holds the chunks j = i mod N/2^(r-1) (a strided set of
 * 2^(r-1) slices); it sends them all to its partner and copies the
 * partner's: payloads M/N, 2M/N, ..., M/2.
 * RS: the same rounds reversed (offsets 1, 2, ..., N/2): before round r rank
 * i owns the chunks j = i mod 2^(r-1), sends the partner's half
 * (j = partner mod 2^r) and receive-reduces its own; it ends with chunk i.
 * Both: n_alpha = log2 N, n_beta = (N-1)/N; power-of-two N only (the App. A
 * XOR partners). */
#ifndef COLLSIM_PARALLEL_TREES_H
#define COLLSIM_PARALLEL_TREES_H

#include "algo/algorithm.h"

/* PAT for PRIM_ALLGATHER or PRIM_REDUCESCATTER; NULL with WHY when N is not
 * a power of two. */
schedule *pat_schedule(primitive prim, const algo_params *p, char *why, int why_size);

#endif
