/* reducescatter_ring.c — ring reduce-scatter (explainer 01 §6; phase 1 of ring
 * AR, §5.1, standalone): one reduce-scatter pass (ring_pass.c); rank i ends
 * with the full sum of its own slice i.  n_alpha = N-1, n_beta = (N-1)/N:
 * t = (N-1) alpha + (N-1)/N M/BW, M each rank's input. */
#include "algo/algorithm.h"

schedule *reducescatter_ring(const algo_params *p, char *why, int why_size)
{
    return ring_schedule(PRIM_REDUCESCATTER, p->ranks, why, why_size);
}
