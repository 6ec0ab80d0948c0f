/* reduce_ring.c — pipelined ring (chain) reduce (explainer 01 §4.1), the time
 * reverse of ring BC: the chain root+N-1 -> ... -> root+1 -> root, each rank
 * adding segment s from upstream into its own and forwarding the partial sum
 * (chain_pass.c).  L = N-1 (01 App. C.3): t = (N+P-2)(alpha + M/(P BW));
 * n_alpha -> N-1, n_beta -> 1 at P*. */
#include "algo/chain_pass.h"

schedule *reduce_ring(const algo_params *p, char *why, int why_size)
{
    return chain_schedule(PRIM_REDUCE, p, why, why_size);
}
