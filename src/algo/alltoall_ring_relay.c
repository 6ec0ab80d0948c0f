/* alltoall_ring_relay.c — ring relay all-to-all (explainer 01 §7.1): the
 * bidirectional ring with shortest-arc routing.  Block (i, i+d) goes d hops
 * right when d <= N/2 (the antipode tie broken rightward), else N-d hops
 * left; intermediate ranks forward it hop by hop.  Step k = 1..floor(N/2):
 * rank i sends right, as one message, every right-bound block that is k-1
 * hops from its source and still has to travel (sources i-k+1, distances
 * k..floor(N/2)), and left the mirror set (distances k..ceil(N/2)-1); it
 * receives the same sets from its two neighbours.  All ops of a step wait
 * for all ops of the previous step.  Payloads shrink by one block per step
 * in each direction.
 * n_alpha = floor(N/2), and on a star, where both directions share a rank's
 * access link, n_beta = floor(N^2/4)/N (every block crosses min(d, N-d)
 * links): t = floor(N/2) alpha + floor(N^2/4)/N M/BW, M each rank's payload.
 * §7.1 states (N-1) alpha + (N-1)/N M/BW: its N = 4 trace sends the 2-hop
 * block a step after the 1-hop one (3 steps; here they share step 1), and it
 * counts one direction of dedicated per-direction links, which carries
 * N-1 blocks only up to N = 5 (sum of d <= N/2 in general). */
#include <stdlib.h>

#include "algo/group_check.h"
#include "algo/rank_math.h"

/* The blocks rank RANK sends at step STEP toward DIRECTION (+1 right, -1 left). */
static int step_blocks(const schedule *s, int rank, int step, int direction, chunk_range *ranges)
{
    int n = s->ranks, reach = direction > 0 ? n / 2 : (n - 1) / 2, count = 0;
    int src = rank_mod(rank - direction * (step - 1), n);
    for (int distance = step; distance <= reach; distance++)
        ranges[count++] = (chunk_range){sched_block_first(s, src, rank_mod(src + direction * distance, n)),
                                        s->chunks / (n * n)};
    return count;
}

schedule *alltoall_ring_relay(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!group_accepted(p, "ring relay all-to-all", NULL, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    chunk_range *ranges = malloc(sizeof *ranges * (size_t)n);
    for (int i = 0; i < n; i++) {
        int previous[4], previous_count = 0;
        for (int step = 1; step <= n / 2; step++) {
            int ops[4], op_count = 0;
            for (int direction = 1; direction >= -1; direction -= 2) {
                int count = step_blocks(s, i, step, direction, ranges);
                if (count > 0) ops[op_count++] = sched_send_ranges(s, i, rank_mod(i + direction, n), ranges, count,
                                                                    SCHED_NO_DEP, SCHED_NO_DEP);
                for (int d = 0; count > 0 && d < previous_count; d++) sched_add_dep(s, i, ops[op_count - 1], previous[d]);
                int from = rank_mod(i - direction, n); /* its blocks travel toward DIRECTION */
                count = step_blocks(s, from, step, direction, ranges);
                if (count > 0) ops[op_count++] = sched_recv_ranges(s, i, from, ranges, count, false, SCHED_NO_DEP,
                                                                    SCHED_NO_DEP);
                for (int d = 0; count > 0 && d < previous_count; d++) sched_add_dep(s, i, ops[op_count - 1], previous[d]);
            }
            for (int k = 0; k < op_count; k++) previous[k] = ops[k];
            previous_count = op_count;
        }
    }
    free(ranges);
    return s;
}
