/* reduce_binomial.c — pipelined binomial-tree reduce (explainer 01 §4.2,
 * App. C): the time reverse of the binomial broadcast on the same tree
 * (binomial_tree.c): per segment, each rank receive-reduces from its
 * children in reverse step order, then sends the partial sum to its parent.
 * The §4.2 trace pairs ranks by their lowest bit first (R1->R0, R3->R2, then
 * R2->R0): the mirror binomial tree, same depth, same costs; we keep the
 * §3.2 tree so that BC and Reduce are one tree read both ways, as §4.2 says.
 * Seed: n_alpha = L = ceil(log2 N), n_beta = L at P = 1 (default);
 * L alpha + M/BW at P*.  On a star: t = (L+P-1) alpha + L M/BW (the root's
 * downlink receives L M). */
#include "algo/binomial_tree.h"

schedule *reduce_binomial(const algo_params *p, char *why, int why_size)
{
    return binomial_schedule(PRIM_REDUCE, p, why, why_size);
}
