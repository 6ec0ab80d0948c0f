/* allreduce_rabenseifner.c — Rabenseifner halving-doubling all-reduce
 * (explainer 01 App. B.2): recursive-halving reduce-scatter, then
 * recursive-doubling all-gather over the same partners in reverse order.  N
 * chunks.  RS step k = 1..log2 N: partner i XOR 2^(k-1); of the range both
 * still hold, the rank with bit k-1 clear keeps the lower half, the other the
 * upper; each sends the partner's half and reduces its own.  Rank i ends with
 * the full sum of one chunk (bit-reversed i).  AG step j = log2 N..1: partner
 * i XOR 2^(j-1); send the range kept at RS step j, copy the partner's
 * (butterfly.c's halving_doubling_pass).  Each step's two ops wait for both
 * of the previous step.  Payloads M/2, M/4, ..., M/N, then back up:
 * n_alpha = 2 log2 N, n_beta = 2(N-1)/N: t = 2 log2 N alpha + 2(N-1)/N M/BW.
 *
 * At N = 4 this gives R1 chunk 2 and R3 chunk 3 after RS; the App. B.2 trace
 * shows R1 keeping chunk 3 and R3 chunk 2 at step 2, against the lower/upper
 * rule it uses for R0/R2 and at step 1.  Costs are identical either way.
 *
 * Non-power-of-two N: the [TRG05] fold of App. B.3 (rank_math.h), with
 * P chunks for the P-rank butterfly: t = 2(alpha + M/BW) + 2 log2 P alpha +
 * 2(P-1)/P M/BW, P the largest power of two <= N. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"
#include "algo/rank_math.h"

int rabenseifner_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "Rabenseifner all-reduce", NULL, why, why_size) ? 1 : 0;
}

schedule *allreduce_rabenseifner(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!rabenseifner_segments(PRIM_ALLREDUCE, p, why, why_size)) return NULL;
    int butterfly = power_of_two_floor(n), extras = n - butterfly;
    schedule *s = schedule_create(PRIM_ALLREDUCE, n, 0, butterfly);
    /* Phases must be emitted in order (schedule.c), so each phase covers all
     * ranks, carrying each rank's last send and receive. */
    int *last_send = malloc(sizeof(int) * (size_t)n), *last_recv = malloc(sizeof(int) * (size_t)n);
    int *members = malloc(sizeof(int) * (size_t)butterfly);
    for (int v = 0; v < butterfly; v++) members[v] = fold_real_rank(v, extras);
    sched_set_phase(s, 0, "reduce-scatter");
    for (int rank = 0; rank < n; rank++) {
        last_send[rank] = last_recv[rank] = SCHED_NO_DEP;
        if (fold_is_extra(rank, extras))
            last_send[rank] = sched_send(s, rank, rank + 1, 0, butterfly, SCHED_NO_DEP, SCHED_NO_DEP);
        else if (rank < 2 * extras)
            last_recv[rank] = sched_recv(s, rank, rank - 1, 0, butterfly, true, SCHED_NO_DEP, SCHED_NO_DEP);
    }
    halving_doubling_pass(s, members, butterfly, 0, 1, true, last_send, last_recv);
    sched_set_phase(s, 1, "all-gather");
    halving_doubling_pass(s, members, butterfly, 0, 1, false, last_send, last_recv);
    for (int rank = 0; rank < 2 * extras; rank++) {
        if (fold_is_extra(rank, extras))
            sched_recv(s, rank, rank + 1, 0, butterfly, false, last_send[rank], SCHED_NO_DEP);
        else
            sched_send(s, rank, rank - 1, 0, butterfly, last_send[rank], last_recv[rank]);
    }
    free(members);
    free(last_send);
    free(last_recv);
    return s;
}
