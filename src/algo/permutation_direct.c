/* permutation_direct.c — a random permutation: every rank sends M to one
 * rank and receives M from one, the destinations a derangement drawn from
 * the case's seed (no rank sends to itself).  Each message is one
 * point-to-point hop (explainer 01 §8): n_α = 1 and n_β = 1 along its own
 * path, all at once.  It is the packet simulators' classic load (htsim's
 * 1,024-host permutation): collisions on shared links, not the collective,
 * set its time. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/algorithm.h"
#include "util/shuffle.h"

int permutation_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    if (p->ranks < 2) {
        snprintf(why, (size_t)why_size, "a permutation needs at least 2 ranks, so that none sends to itself");
        return 0;
    }
    return 1;
}

schedule *permutation_direct(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!permutation_segments(PRIM_PERMUTATION, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_PERMUTATION, n, 0, n);
    s->slice_owner = malloc(sizeof(int) * (size_t)n);
    random_derangement(n, p->seed, s->slice_owner);
    for (int i = 0; i < n; i++) sched_send(s, i, s->slice_owner[i], i, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    for (int i = 0; i < n; i++) sched_recv(s, s->slice_owner[i], i, i, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    return s;
}
