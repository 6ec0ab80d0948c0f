/* sendrecv_direct.c — one point-to-point message (explainer 01 §8): the
 * source (algo_params.root) sends the whole M to the destination
 * (algo_params.peer) in one message.  n_α = 1 hop of the route, n_β = 1:
 * t = α_path + M/BW_path. */
#include <stdio.h>

#include "algo/algorithm.h"

int sendrecv_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    int n = p->ranks, src = p->root, dst = p->peer;
    if (n < 2 || src < 0 || src >= n || dst < 0 || dst >= n || src == dst) {
        snprintf(why, (size_t)why_size, "sendrecv needs two different ranks of the group (0..%d): root %d, peer %d",
                 n - 1, src, dst);
        return 0;
    }
    return 1;
}

schedule *sendrecv_direct(const algo_params *p, char *why, int why_size)
{
    int n = p->ranks, src = p->root, dst = p->peer;
    if (!sendrecv_segments(PRIM_SENDRECV, p, why, why_size)) return NULL;
    schedule *s = schedule_create(PRIM_SENDRECV, n, 0, 1);
    s->root = src;
    s->peer = dst;
    sched_send(s, src, dst, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, dst, src, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    return s;
}
