/* alltoall_hierarchical.c — all-to-all on a two-tier fabric (explainer 03
 * §2.2): A2A does not decompose (no reduction, no replication), so it stays
 * pairwise direct-send; what the hierarchy changes is which peers are cheap.
 * Rank (g,q) at position g·D + q (domain_rank) of L = N/D domains runs N-1 rounds, each sending M/N
 * to ((g+dp) mod L, (q+dl) mod D) and receiving from ((g-dp), (q-dl)), every
 * round after the previous one (01 §7.2):
 *   phase "inner": dp = 0, dl = 1..D-1 (the D-1 intra-domain peers);
 *   phase "outer": dp = 1..L-1, dl = 0..D-1 (the N-D peers across domains).
 * The time is 03 §2.2's destination-weighted sum when each round's send and
 * receive see the same path class: (D-1)(α_inner + (M/N)/BW_inner) +
 * Σ_outer (α_class + (M/N)/BW_outer). */
#include <stdio.h>
#include <stdlib.h>

#include "algo/butterfly.h"
#include "algo/group_check.h"
#include "algo/rank_math.h"

int alltoall_hierarchical_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return two_tier_group_accepted(p, why, why_size) ? 1 : 0;
}

schedule *alltoall_hierarchical(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, d = p->domain_ranks;
    if (!alltoall_hierarchical_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    int l = n / d;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    int block = s->chunks / (n * n);
    int *last_send = malloc(sizeof(int) * (size_t)n), *last_recv = malloc(sizeof(int) * (size_t)n);
    for (int r = 0; r < n; r++) last_send[r] = last_recv[r] = SCHED_NO_DEP;
    for (int outer = 0; outer < 2; outer++) {
        sched_set_phase(s, outer, outer ? "outer" : "inner");
        for (int position = 0; position < n; position++) {
            int g = position / d, q = position % d, r = domain_rank(p, position);
            for (int dp = outer; dp < (outer ? l : 1); dp++)
                for (int dl = outer ? 0 : 1; dl < d; dl++) {
                    int to = domain_rank(p, rank_mod(g + dp, l) * d + rank_mod(q + dl, d));
                    int from = domain_rank(p, rank_mod(g - dp, l) * d + rank_mod(q - dl, d));
                    pairwise_step(s, r, to, from, sched_block_first(s, r, to), sched_block_first(s, from, r), block,
                                  false, &last_send[r], &last_recv[r]);
                }
        }
    }
    free(last_send);
    free(last_recv);
    return s;
}
