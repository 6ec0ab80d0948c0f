/* parallel_trees.c — the PAT rounds, forward for AG and backward for RS. */
#include "algo/parallel_trees.h"

#include <stdlib.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"

/* The slices j = RESIDUE mod MODULUS, one range each, into RANGES. */
static range_list residue_slices(const schedule *s, int residue, int modulus, chunk_range *ranges)
{
    int count = 0;
    for (int j = residue % modulus; j < s->ranks; j += modulus)
        ranges[count++] = (chunk_range){sched_slice_first(s, j), sched_slice_count(s)};
    return (range_list){ranges, count};
}

int pat_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    return group_accepted(p, prim == PRIM_ALLGATHER ? "PAT all-gather" : "PAT reduce-scatter",
                          "its partners are i XOR 2^k (explainer 01 App. A)", why, why_size) ? 1 : 0;
}

schedule *pat_schedule(primitive prim, const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!pat_segments(prim, p, why, why_size)) return NULL;
    bool reduce = prim == PRIM_REDUCESCATTER;
    schedule *s = schedule_create(prim, n, 0, n);
    chunk_range *sent = malloc(sizeof *sent * (size_t)n), *received = malloc(sizeof *received * (size_t)n);
    int rounds = 0;
    while ((1 << rounds) < n) rounds++;
    for (int i = 0; i < n; i++) {
        int last_send = SCHED_NO_DEP, last_recv = SCHED_NO_DEP;
        for (int round = 0; round < rounds; round++) {
            int offset = reduce ? 1 << round : n >> (round + 1), partner = i ^ offset, modulus = 2 * offset;
            /* AG sends the class it holds, i mod 2 offset, and copies the
             * partner's; RS sends the partner's class and reduces its own */
            range_list send = residue_slices(s, reduce ? partner : i, modulus, sent);
            range_list recv = residue_slices(s, reduce ? i : partner, modulus, received);
            exchange_step(s, i, partner, send, partner, recv, reduce, &last_send, &last_recv);
        }
    }
    free(sent);
    free(received);
    return s;
}
