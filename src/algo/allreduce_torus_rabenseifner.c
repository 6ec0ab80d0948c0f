/* allreduce_torus_rabenseifner.c — dimension-decomposed Rabenseifner
 * halving-doubling all-reduce on a k-D torus (explainer 02 App. A): the
 * phases of torus_dimdecomp.c (RS dims last to first, then AG back), each
 * line of a power-of-two dim running 01 App. B.2's halving / doubling
 * (butterfly.c: partner i XOR 2^(j-1) at RS step j, nearest first) instead
 * of a ring; other dims keep the ring (App. A: "any dim mismatch forces
 * fallback to ring-per-dim for that dim").  N chunks.
 *
 * The seed counts one alpha per step: 2 sum_i log2 d_i alpha +
 * 2(N-1)/N M/BW.  On the torus the step-j partner is delta = 2^(j-1) hops
 * away along the ring, each hop an alpha, and a step's messages share links:
 * for delta < d/2 all delta messages of one direction in an aligned block of
 * 2 delta members cross its middle link; at delta = d/2 the route's parity
 * tie-break sends them round both arcs, d/4 per link (1 at d = 2).  A step
 * moving W/2^j bytes (W: the range the line shares) takes
 * delta alpha + share W/(2^j BW), so a line's RS (or AG) takes
 *   (d-1) alpha + c(d) W/BW,  c(d) = (log2 d - 1)/2 + 1/4 (d >= 4), c(2) = 1/2,
 * and a ring dim (d-1) alpha + (d-1)/d W/BW.  With W_i = M / prod_{m>i} d_m,
 *   t = 2 sum_i [(d_i - 1) alpha + c(d_i) W_i/BW]:
 * n_alpha = 2 sum_i (d_i - 1), the ring's (the halvings' hops add up to
 * d - 1, as 02 §3.2 notes for trees); n_beta = 2 sum_i c(d_i)/prod_{m>i} d_m,
 * the ring's at d = 4 (c = 3/4) and above it from d = 8 (c = 5/4 vs 7/8).
 * (App. A's 4x4 example pairs the far partner first: the same at d = 4,
 * dearer from d = 8, c = d/8 + d/12 - 1/(3d).) */
#include "algo/algorithm.h"

schedule *allreduce_torus_rabenseifner(const algo_params *p, char *why, int why_size)
{
    return torus_dimdecomp_schedule(PRIM_ALLREDUCE, p, true, why, why_size);
}
