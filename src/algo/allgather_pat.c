/* allgather_pat.c — Parallel Aggregated Trees all-gather (explainer 01 App.
 * A): N binomial broadcast trees, one per source chunk, offsets farthest
 * first (N/2, ..., 2, 1; partner i XOR offset), advancing one level per
 * round with the edges sharing a link aggregated into one message
 * (parallel_trees.c).  Round r moves 2^(r-1) chunks of M/N per rank:
 * n_alpha = log2 N, n_beta = (N-1)/N: t = log2 N alpha + (N-1)/N M/BW, M the
 * gathered total.  App. A's "one chunk per link per round" cannot deliver
 * N-1 chunks in log2 N rounds; its cost formula is the aggregated one.
 * Power-of-two N only (App. A's XOR partners). */
#include "algo/parallel_trees.h"

schedule *allgather_pat(const algo_params *p, char *why, int why_size)
{
    return pat_schedule(PRIM_ALLGATHER, p, why, why_size);
}
