/* reducescatter_recursive_halving.c — recursive-halving reduce-scatter
 * (explainer 01 App. B.4; Phase 1 of Rabenseifner AR, App. B.2, run
 * standalone with the partner order reversed, as App. B.4 says).  N chunks.
 * At step k = 1..log2 N rank i pairs with i XOR N/2^k; of the range both still
 * hold, the rank with that bit clear keeps the lower half, the other the
 * upper; each sends the partner's half and reduces its own.  Halving from the
 * top bit down leaves rank i with exactly its slice i, fully reduced.  Each
 * step's two ops wait for both of the previous step.  Payloads M/2, ..., M/N:
 * n_alpha = log2 N, n_beta = (N-1)/N: t = log2 N alpha + (N-1)/N M/BW, M each
 * rank's input.  Needs N = 2^k (App. B.4); other N are refused. */
#include <stdio.h>

#include "algo/butterfly.h"
#include "algo/rank_math.h"

int recursive_halving_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    int n = p->ranks;
    if (n < 2 || !is_power_of_two(n)) {
        snprintf(why, (size_t)why_size,
                 "recursive-halving reduce-scatter needs a power-of-two number of ranks, at least 2 (got %d; explainer "
                 "01 App. B.4)",
                 n);
        return 0;
    }
    return 1;
}

schedule *reducescatter_recursive_halving(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!recursive_halving_segments(PRIM_REDUCESCATTER, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_REDUCESCATTER, n, 0, n);
    int slice = sched_slice_count(s);
    for (int i = 0; i < n; i++) {
        int last_send = SCHED_NO_DEP, last_recv = SCHED_NO_DEP, first = 0;
        for (int mask = n / 2; mask >= 1; mask /= 2) {
            int partner = i ^ mask, kept = (i & mask) ? first + mask : first,
                given = (i & mask) ? first : first + mask;
            butterfly_step(s, i, partner, sched_slice_first(s, given), sched_slice_first(s, kept), mask * slice, true,
                           &last_send, &last_recv);
            first = kept;
        }
    }
    return s;
}
