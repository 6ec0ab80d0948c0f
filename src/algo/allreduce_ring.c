/* allreduce_ring.c — ring all-reduce (explainer 01 §5.1, Patarasuk-Yuan): a
 * reduce-scatter pass then an all-gather pass around ranks 0..N-1, N chunks.
 * Each send waits for the receive that produced its chunk.
 * n_alpha = 2(N-1), n_beta = 2(N-1)/N: t = 2(N-1)(alpha + M/(N BW)). */
#include <stdio.h>
#include <stdlib.h>

#include "algo/algorithm.h"
#include "algo/group_check.h"
#include "algo/ring_pass.h"

/* The ring of ranks 0..N-1 and an entry array with no dependencies. */
static int *identity_ring(int n, int **entry)
{
    int *members = malloc(sizeof(int) * (size_t)n);
    *entry = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        members[i] = i;
        (*entry)[i] = SCHED_NO_DEP;
    }
    return members;
}

int ring_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "a ring", NULL, why, why_size) ? 1 : 0;
}

schedule *ring_schedule(primitive prim, int n, char *why, int why_size)
{
    algo_params group = {.ranks = n};
    if (!ring_segments(prim, &group, why, why_size)) return NULL;
    schedule *s = schedule_create(prim, n, 0, n);
    int *entry, *members = identity_ring(n, &entry);
    if (prim != PRIM_ALLGATHER) ring_pass(s, members, n, 0, 1, true, entry);
    if (prim != PRIM_REDUCESCATTER) ring_pass(s, members, n, 0, 1, false, entry);
    free(members);
    free(entry);
    return s;
}

schedule *allreduce_ring(const algo_params *p, char *why, int why_size)
{
    return ring_schedule(PRIM_ALLREDUCE, p->ranks, why, why_size);
}
