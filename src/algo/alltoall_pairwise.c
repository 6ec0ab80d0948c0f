/* alltoall_pairwise.c — pairwise direct-send all-to-all (explainer 01 §7.2).
 * N x N blocks, block (s, d) being what rank s sends to rank d.  N-1 rounds:
 * in round k = 1..N-1 rank i sends block (i, i+k mod N) to rank i+k mod N and
 * receives block (i-k mod N, i) from rank i-k mod N; rank i's round k+1 waits
 * for both ops of its round k (the steps run sequentially, §7.2).
 * n_alpha = N-1, n_beta = (N-1)/N with M each rank's total payload (M/N per
 * destination): t = (N-1) alpha + (N-1)/N M/BW. */
#include <stdio.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"
#include "algo/rank_math.h"

int pairwise_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "pairwise all-to-all", NULL, why, why_size) ? 1 : 0;
}

schedule *alltoall_pairwise(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!pairwise_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    int block = s->chunks / (n * n);
    for (int i = 0; i < n; i++) {
        int previous_send = SCHED_NO_DEP, previous_recv = SCHED_NO_DEP;
        for (int k = 1; k < n; k++) {
            int to = rank_mod(i + k, n), from = rank_mod(i - k, n);
            pairwise_step(s, i, to, from, sched_block_first(s, i, to), sched_block_first(s, from, i), block, false,
                          &previous_send, &previous_recv);
        }
    }
    return s;
}
