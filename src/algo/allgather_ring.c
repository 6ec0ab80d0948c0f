/* allgather_ring.c — ring all-gather (explainer 01 §6; phase 2 of ring AR,
 * §5.1, standalone): rank i starts with slice i and forwards one slice per
 * step around the ring (ring_pass.c).  n_alpha = N-1, n_beta = (N-1)/N:
 * t = (N-1) alpha + (N-1)/N M/BW, M the gathered total. */
#include "algo/algorithm.h"

schedule *allgather_ring(const algo_params *p, char *why, int why_size)
{
    return ring_schedule(PRIM_ALLGATHER, p->ranks, why, why_size);
}
