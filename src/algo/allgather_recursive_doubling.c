/* allgather_recursive_doubling.c — recursive-doubling all-gather (explainer 01
 * App. B.4; Phase 2 of Rabenseifner AR, App. B.2, run standalone).  N chunks,
 * rank i starting with its slice i.  At step k = 1..log2 N rank i exchanges
 * with partner i XOR 2^(k-1) the aligned block of 2^(k-1) slices it holds
 * (the one containing slice i) for the partner's, copying it; each step's two
 * ops wait for both of the previous step.  Payloads M/N, 2M/N, ..., M/2:
 * n_alpha = log2 N, n_beta = (N-1)/N: t = log2 N alpha + (N-1)/N M/BW, M the
 * gathered total.  Needs N = 2^k (App. B.4); other N are refused. */
#include <stdio.h>

#include "algo/butterfly.h"
#include "algo/rank_math.h"

int allgather_recursive_doubling_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    int n = p->ranks;
    if (n < 2 || !is_power_of_two(n)) {
        snprintf(why, (size_t)why_size,
                 "recursive-doubling all-gather needs a power-of-two number of ranks, at least 2 (got %d; explainer 01 "
                 "App. B.4)",
                 n);
        return 0;
    }
    return 1;
}

schedule *allgather_recursive_doubling(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!allgather_recursive_doubling_segments(PRIM_ALLGATHER, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_ALLGATHER, n, 0, n);
    int slice = sched_slice_count(s);
    for (int i = 0; i < n; i++) {
        int last_send = SCHED_NO_DEP, last_recv = SCHED_NO_DEP;
        for (int mask = 1; mask < n; mask *= 2) {
            int partner = i ^ mask, mine = i & ~(mask - 1), theirs = partner & ~(mask - 1);
            butterfly_step(s, i, partner, sched_slice_first(s, mine), sched_slice_first(s, theirs), mask * slice, false,
                           &last_send, &last_recv);
        }
    }
    return s;
}
