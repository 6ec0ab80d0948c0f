/* reduce_ring.c — pipelined ring (chain) reduce (explainer 01 §4.1), the time
 * reverse of ring BC.  The chain root+N-1 -> root+N-2 -> ... -> root (mod N):
 * each vector is cut into P segments (P = segments, default N as in the §4.1
 * walkthrough), one chunk each.  The head sends its segments; every other rank
 * adds segment s arriving from upstream into its own and, unless it is the
 * root, forwards the partial sum downstream, while segment s+1 comes in.
 * L = N-1 hops (01 App. C.3): t = (N+P-2)(alpha + M/(P BW)), i.e.
 * n_alpha = N+P-2, n_beta = (N+P-2)/P (-> N-1 and 1 at the optimal P*). */
#include <stdio.h>

#include "algo/rank_math.h"

schedule *reduce_ring(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, root = p->root, segments = p->segments > 0 ? p->segments : p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "ring reduce needs at least 2 ranks");
        return NULL;
    }
    if (root < 0 || root >= n) {
        snprintf(why, (size_t)why_size, "ring reduce: root %d is not a rank of the group (0..%d)", root, n - 1);
        return NULL;
    }
    if (p->segments < 0) {
        snprintf(why, (size_t)why_size, "ring reduce: segments must be positive (got %d)", p->segments);
        return NULL;
    }
    schedule *s = schedule_create(PRIM_REDUCE, n, 0, segments);
    s->root = root;
    s->segments = segments;
    for (int position = 0; position < n; position++) {
        int rank = rank_mod(root + position, n), upstream = rank_mod(rank + 1, n), downstream = rank_mod(rank - 1, n);
        for (int segment = 0; segment < segments; segment++) {
            int arrived = SCHED_NO_DEP;
            if (position < n - 1) arrived = sched_recv(s, rank, upstream, segment, 1, true, SCHED_NO_DEP, SCHED_NO_DEP);
            if (position > 0) sched_send(s, rank, downstream, segment, 1, arrived, SCHED_NO_DEP);
        }
    }
    return s;
}
