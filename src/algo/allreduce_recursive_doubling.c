/* allreduce_recursive_doubling.c — simple recursive-doubling all-reduce
 * (explainer 01 App. B.1).  One chunk: the whole vector.  At step
 * k = 1..log2 N rank i exchanges its current vector with partner i XOR 2^(k-1)
 * and adds what it receives; both ops of step k wait for both ops of step k-1.
 * n_alpha = n_beta = log2 N: t = log2 N (alpha + M/BW).
 *
 * Each step sends and reduces into the same chunk: the send reads the vector
 * when posted, before the partner's vector lands (butterfly.h; the verifier
 * starts ready sends before ready receives, as the executor's data would
 * flow).  A real implementation receives into a scratch buffer.
 *
 * Non-power-of-two N: the fold of App. B.3 as [TRG05] does it (see
 * rank_math.h): the R = N - P even ranks below 2R hand their vector to
 * their odd neighbour first and get the sum back last, 2 more steps of a full
 * vector: t = (log2 P + 2)(alpha + M/BW), P the largest power of two <= N. */
#include <stdio.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"
#include "algo/rank_math.h"

int recursive_doubling_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "recursive-doubling all-reduce", NULL, why, why_size) ? 1 : 0;
}

schedule *allreduce_recursive_doubling(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!recursive_doubling_segments(PRIM_ALLREDUCE, p, why, why_size)) return NULL;
    int butterfly = power_of_two_floor(n), extras = n - butterfly;
    schedule *s = schedule_create(PRIM_ALLREDUCE, n, 0, 1);
    for (int rank = 0; rank < n; rank++) {
        if (fold_is_extra(rank, extras)) {
            int handed = sched_send(s, rank, rank + 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
            sched_recv(s, rank, rank + 1, 0, 1, false, handed, SCHED_NO_DEP);
            continue;
        }
        int last_send = SCHED_NO_DEP, last_recv = SCHED_NO_DEP;
        if (rank < 2 * extras) last_recv = sched_recv(s, rank, rank - 1, 0, 1, true, SCHED_NO_DEP, SCHED_NO_DEP);
        int self = fold_virtual_rank(rank, extras);
        for (int mask = 1; mask < butterfly; mask *= 2) {
            int partner = fold_real_rank(self ^ mask, extras);
            butterfly_step(s, rank, partner, 0, 0, 1, true, &last_send, &last_recv);
        }
        if (rank < 2 * extras) sched_send(s, rank, rank - 1, 0, 1, last_send, last_recv);
    }
    return s;
}
