/* alltoall_bruck.c — Bruck all-to-all (explainer 01 App. B.5).  Rank i's
 * pre-rotated slot j holds its block for rank i+j; at round k = 0..log2 N - 1
 * it sends the slots whose index has bit k set to rank i+2^k and receives
 * the same slots from rank i-2^k, so block (s, d) advances by the bits of its
 * offset o = d-s mod N, lowest first, and lands on d.  In grid terms rank i
 * sends at round k the blocks (s, s+o) with bit k of o set and
 * s = i - (o mod 2^k): N/2 blocks, not contiguous, sent as ONE message of
 * several chunk ranges (the rotations are local copies, not on the wire).
 * Each round's two ops wait for both of the previous round.
 * n_alpha = log2 N, n_beta = log2 N / 2 with M each rank's payload:
 * t = log2 N alpha + log2 N M/(2 BW).  App. B.5 gives no form for other N
 * ("needs padding or a modified final round"): refused. */
#include <stdlib.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"
#include "algo/rank_math.h"

/* The blocks rank RANK sends at round ROUND (App. B.5: slots with bit ROUND set). */
static range_list round_blocks(const schedule *s, int rank, int round, chunk_range *ranges)
{
    int n = s->ranks, count = 0;
    for (int offset = 1; offset < n; offset++) {
        if (!(offset & (1 << round))) continue;
        int src = rank_mod(rank - (offset & ((1 << round) - 1)), n);
        ranges[count++] = (chunk_range){sched_block_first(s, src, rank_mod(src + offset, n)), s->chunks / (n * n)};
    }
    return (range_list){ranges, count};
}

int bruck_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "Bruck all-to-all", "explainer 01 App. B.5 gives no form for other N", why, why_size) ? 1
                                                                                                                  : 0;
}

schedule *alltoall_bruck(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!bruck_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    chunk_range *sent = malloc(sizeof *sent * (size_t)n), *received = malloc(sizeof *received * (size_t)n);
    for (int i = 0; i < n; i++) {
        int last_send = SCHED_NO_DEP, last_recv = SCHED_NO_DEP;
        for (int round = 0; (1 << round) < n; round++) {
            int to = rank_mod(i + (1 << round), n), from = rank_mod(i - (1 << round), n);
            exchange_step(s, i, to, round_blocks(s, i, round, sent), from, round_blocks(s, from, round, received),
                          false, &last_send, &last_recv);
        }
    }
    free(sent);
    free(received);
    return s;
}
