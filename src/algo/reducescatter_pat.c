/* reducescatter_pat.c — Parallel Aggregated Trees reduce-scatter (explainer
 * 01 App. A: "reverse the schedule and replace forward-concat with
 * sum-in"): offsets 1, 2, ..., N/2 (partner i XOR offset); before round r
 * rank i owns the chunks j = i mod 2^(r-1), sends the partner's half and
 * receive-reduces its own (parallel_trees.c).  Payloads M/2, ..., M/N:
 * n_alpha = log2 N, n_beta = (N-1)/N: t = log2 N alpha + (N-1)/N M/BW, M each
 * rank's input.  Power-of-two N only. */
#include "algo/parallel_trees.h"

schedule *reducescatter_pat(const algo_params *p, char *why, int why_size)
{
    return pat_schedule(PRIM_REDUCESCATTER, p, why, why_size);
}
