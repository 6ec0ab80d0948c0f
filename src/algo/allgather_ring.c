/* allgather_ring.c — ring all-gather (explainer 01 §6; Phase 2 of ring AR,
 * §5.1, run standalone).  N chunks, rank i starting with its own slice i.  At
 * step t = 1..N-1 rank i sends chunk (i-t+1) mod N to its right neighbour and
 * copies chunk (i-t) mod N from its left; each send waits for the receive that
 * brought its chunk.  n_alpha = N-1, n_beta = (N-1)/N:
 * t = (N-1) alpha + (N-1)/N M/BW, M the gathered total. */
#include <stdio.h>

#include "algo/rank_math.h"

schedule *allgather_ring(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "ring all-gather needs at least 2 ranks");
        return NULL;
    }
    schedule *s = schedule_create(PRIM_ALLGATHER, n, 0, n);
    int slice = sched_slice_count(s);
    for (int i = 0; i < n; i++) {
        int right = rank_mod(i + 1, n), left = rank_mod(i - 1, n), previous_recv = SCHED_NO_DEP;
        for (int t = 1; t < n; t++) {
            int send_slice = rank_mod(i - t + 1, n), recv_slice = rank_mod(i - t, n);
            sched_send(s, i, right, sched_slice_first(s, send_slice), slice, previous_recv, SCHED_NO_DEP);
            previous_recv = sched_recv(s, i, left, sched_slice_first(s, recv_slice), slice, false, SCHED_NO_DEP,
                                       SCHED_NO_DEP);
        }
    }
    return s;
}
