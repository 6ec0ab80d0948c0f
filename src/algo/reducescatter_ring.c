/* reducescatter_ring.c — ring reduce-scatter (explainer 01 §6; Phase 1 of ring
 * AR, §5.1, run standalone).  N chunks.  At step t = 1..N-1 rank i sends its
 * partial of chunk (i-t) mod N to its right neighbour and reduces chunk
 * (i-t-1) mod N from its left; each send waits for the receive that last added
 * to its chunk.  The rotation is ring AR's shifted by one so that the chunk
 * rank i reduces last, at t = N-1, is its own slice i (verify.c's
 * postcondition), having passed through all N ranks.  n_alpha = N-1,
 * n_beta = (N-1)/N: t = (N-1) alpha + (N-1)/N M/BW, M each rank's input. */
#include <stdio.h>

#include "algo/rank_math.h"

schedule *reducescatter_ring(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "ring reduce-scatter needs at least 2 ranks");
        return NULL;
    }
    schedule *s = schedule_create(PRIM_REDUCESCATTER, n, 0, n);
    int slice = sched_slice_count(s);
    for (int i = 0; i < n; i++) {
        int right = rank_mod(i + 1, n), left = rank_mod(i - 1, n), previous_recv = SCHED_NO_DEP;
        for (int t = 1; t < n; t++) {
            int send_slice = rank_mod(i - t, n), recv_slice = rank_mod(i - t - 1, n);
            sched_send(s, i, right, sched_slice_first(s, send_slice), slice, previous_recv, SCHED_NO_DEP);
            previous_recv = sched_recv(s, i, left, sched_slice_first(s, recv_slice), slice, true, SCHED_NO_DEP,
                                       SCHED_NO_DEP);
        }
    }
    return s;
}
