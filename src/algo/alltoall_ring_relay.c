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

/* A rank's ops of one step (at most a send and a receive each way). */
typedef struct step_ops {
    int op[4], count;
} step_ops;

/* Rank RANK's message of STEP toward DIRECTION: sent to its neighbour that
 * way, or (!SEND) received from its neighbour on the other side; it waits
 * for all of the rank's previous step. */
static void relay(schedule *s, int rank, int step, int direction, bool send, chunk_range *ranges,
                  const step_ops *previous, step_ops *current)
{
    int peer = rank_mod(rank + (send ? direction : -direction), s->ranks);
    int count = step_blocks(s, send ? rank : peer, step, direction, ranges);
    if (count == 0) return;
    int op = send ? sched_send_ranges(s, rank, peer, ranges, count, SCHED_NO_DEP, SCHED_NO_DEP)
                  : sched_recv_ranges(s, rank, peer, ranges, count, false, SCHED_NO_DEP, SCHED_NO_DEP);
    for (int k = 0; k < previous->count; k++) sched_add_dep(s, rank, op, previous->op[k]);
    current->op[current->count++] = op;
}

int ring_relay_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    return group_accepted(p, "ring relay all-to-all", NULL, why, why_size) ? 1 : 0;
}

schedule *alltoall_ring_relay(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks;
    if (!ring_relay_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    chunk_range *ranges = malloc(sizeof *ranges * (size_t)n);
    for (int i = 0; i < n; i++) {
        step_ops previous = {.count = 0};
        for (int step = 1; step <= n / 2; step++) {
            step_ops current = {.count = 0};
            for (int direction = 1; direction >= -1; direction -= 2) {
                relay(s, i, step, direction, true, ranges, &previous, &current);
                relay(s, i, step, direction, false, ranges, &previous, &current);
            }
            previous = current;
        }
    }
    free(ranges);
    return s;
}
