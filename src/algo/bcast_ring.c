/* bcast_ring.c — pipelined ring (chain) broadcast (explainer 01 §3.1): the
 * chain root -> root+1 -> ... -> root+N-1 (mod N), the vector cut into P
 * segments (default N, as in the §3.1 walkthrough), each forwarded as soon as
 * it has arrived (chain_pass.c).  L = N-1 (01 App. C.3):
 * t = (N+P-2)(alpha + M/(P BW)); n_alpha -> N-1, n_beta -> 1 at P*. */
#include "algo/chain_pass.h"

schedule *bcast_ring(const algo_params *p, char *why, int why_size)
{
    return chain_schedule(PRIM_BCAST, p, why, why_size);
}
