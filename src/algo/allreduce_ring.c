/* allreduce_ring.c — ring all-reduce (explainer 01 §5.1): N chunks; at RS step
 * t = 1..N-1 rank i sends chunk (i-t+1) mod N to its right neighbour and
 * reduces chunk (i-t) mod N from its left; at AG step t it forwards the fully
 * reduced chunk it last received.  Each send waits for the receive that
 * produced its chunk.  t = 2(N-1)(alpha + M/(N BW)). */
#include <stdio.h>

#include "algo/algorithm.h"

static int mod(int a, int n)
{
    return ((a % n) + n) % n;
}

schedule *allreduce_ring(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "ring all-reduce needs at least 2 ranks");
        return NULL;
    }
    schedule *s = schedule_create(PRIM_ALLREDUCE, n, 0, n);
    for (int i = 0; i < n; i++) {
        int right = mod(i + 1, n), left = mod(i - 1, n), previous_recv = SCHED_NO_DEP;
        for (int t = 1; t < 2 * n - 1; t++) {
            bool reduce = t < n; /* RS pass, then AG pass */
            int send_chunk = mod(i - t + 1, n), recv_chunk = mod(i - t, n);
            sched_send(s, i, right, send_chunk, 1, previous_recv, SCHED_NO_DEP);
            previous_recv = sched_recv(s, i, left, recv_chunk, 1, reduce, SCHED_NO_DEP, SCHED_NO_DEP);
        }
    }
    return s;
}
