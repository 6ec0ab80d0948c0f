/* bcast_binomial.c — pipelined binomial-tree broadcast (explainer 01 §3.2,
 * App. C): step k = 1..L, L = ceil(log2 N), every holder v < 2^(k-1) (ranks
 * relative to the root) sends to v + 2^(k-1); the vector is cut into P
 * segments (default 1, the §3.2 trace) and each rank forwards segment s to
 * its children in step order as soon as it arrives (binomial_tree.c).
 * Seed: n_alpha = L, n_beta = L at P = 1; L alpha + M/BW at P* (App. C.3).
 * On a star (one access link per rank) the root's uplink carries L M, so
 * t = (L+P-1) alpha + L M/BW: pipelining adds alpha and cannot lower the BW
 * term (the App. C.4 port-budget caveat), hence the default P = 1. */
#include "algo/binomial_tree.h"

schedule *bcast_binomial(const algo_params *p, char *why, int why_size)
{
    return binomial_schedule(PRIM_BCAST, p, why, why_size);
}
