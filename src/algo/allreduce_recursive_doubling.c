/* allreduce_recursive_doubling.c — simple recursive-doubling all-reduce
 * (explainer 01 App. B.1).  One chunk: the whole vector.  At step
 * k = 1..log2 N rank i exchanges its current vector with partner i XOR 2^(k-1)
 * and adds what it receives; both ops of step k wait for both ops of step k-1.
 * n_alpha = n_beta = log2 N: t = log2 N (alpha + M/BW).
 *
 * The read/write hazard: a step sends and reduces into the same chunk, so the
 * send must read the vector before the partner's vector is added.  A
 * dependency means "after completion", and a send completes only when the
 * partner's receive matches it, so "receive after own send" deadlocks the
 * symmetric exchange (each receive would wait for the other's).  The schedule
 * instead emits each step's receive before its send, both ready together:
 * verify.c starts simultaneously ready ops last-emitted first, so the send
 * snapshots the vector before the receive is posted.  The executor does not
 * carry data and posts both at once.  (A real implementation receives into a
 * scratch buffer; the schedule has none.)
 *
 * Non-power-of-two N: the fold of App. B.3 as [TRG05] does it (see
 * algorithms_extra.h): the R = N - P even ranks below 2R hand their vector to
 * their odd neighbour first and get the sum back last, 2 more steps of a full
 * vector: t = (log2 P + 2)(alpha + M/BW), P the largest power of two <= N. */
#include <stdio.h>

#include "algo/rank_math.h"

schedule *allreduce_recursive_doubling(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "recursive-doubling all-reduce needs at least 2 ranks");
        return NULL;
    }
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
            /* receive emitted first: the send snapshots before it lands (see top) */
            int recv = sched_recv(s, rank, partner, 0, 1, true, last_send, last_recv);
            last_send = sched_send(s, rank, partner, 0, 1, last_send, last_recv);
            last_recv = recv;
        }
        if (rank < 2 * extras) sched_send(s, rank, rank - 1, 0, 1, last_send, last_recv);
    }
    return s;
}
