/* bcast_ring.c — pipelined ring (chain) broadcast (explainer 01 §3.1).  The
 * chain root -> root+1 -> ... -> root+N-1 (mod N); the root's vector is cut
 * into P segments (P = segments, default N as in the §3.1 walkthrough), one
 * chunk each.  Every rank but the root receives segment s from its left and,
 * unless it is the tail, forwards it right once it has arrived, while segment
 * s+1 comes in.  L = N-1 hops (01 App. C.3):
 * t = (N+P-2)(alpha + M/(P BW)), i.e. n_alpha = N+P-2, n_beta = (N+P-2)/P
 * (-> N-1 and 1 at the optimal P*). */
#include <stdio.h>

#include "algo/rank_math.h"

schedule *bcast_ring(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, root = p->root, segments = p->segments > 0 ? p->segments : p->ranks;
    if (n < 2) {
        snprintf(why, (size_t)why_size, "ring broadcast needs at least 2 ranks");
        return NULL;
    }
    if (root < 0 || root >= n) {
        snprintf(why, (size_t)why_size, "ring broadcast: root %d is not a rank of the group (0..%d)", root, n - 1);
        return NULL;
    }
    if (p->segments < 0) {
        snprintf(why, (size_t)why_size, "ring broadcast: segments must be positive (got %d)", p->segments);
        return NULL;
    }
    schedule *s = schedule_create(PRIM_BCAST, n, 0, segments);
    s->root = root;
    s->segments = segments;
    for (int position = 0; position < n; position++) {
        int rank = rank_mod(root + position, n), left = rank_mod(rank - 1, n), right = rank_mod(rank + 1, n);
        for (int segment = 0; segment < segments; segment++) {
            int arrived = SCHED_NO_DEP;
            if (position > 0) arrived = sched_recv(s, rank, left, segment, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
            if (position < n - 1) sched_send(s, rank, right, segment, 1, arrived, SCHED_NO_DEP);
        }
    }
    return s;
}
