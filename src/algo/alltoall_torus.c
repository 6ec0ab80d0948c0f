/* alltoall_torus.c — bisection-bound all-to-all on a k-D torus (explainer 02
 * §3.6, App. C.3; torus A2A note): every block goes straight from its
 * source to its destination along the fabric's dimension-ordered shortest
 * arc (src/platform/lattice.c), the intermediate ranks' links forwarding it
 * without holding it; all N(N-1) blocks of M/N bytes are in flight at once,
 * so no rank waits on another (02 §3.6: "A2A ring-relay doesn't step-sync").
 * Rank i sends block (i, i+k) to i+k and receives block (i-k, i) from i-k,
 * k = 1..N-1, none of the ops waiting for another.
 *
 * Cost (App. C.2, bottleneck analysis): a block of h hops starts moving
 * after h alpha, and a link drains at most BW; so with B_h(e) the bytes
 * crossing directed link e in blocks of h or more hops,
 *   t >= max over e, h of  h alpha + B_h(e)/BW,
 * which the simulation meets on the shapes tested (tests/test_torus.c).
 * At large M the h = 1 term wins: alpha + (most-loaded link)/BW, that link
 * carrying N d_max/8 blocks on an even-dimmed torus (02 App. C.3: 8 blocks,
 * M/(2 BW), on 4x4): t = alpha + d_max/8 M/BW.  At small M the diameter
 * term wins: diam alpha + (diameter blocks sharing a link) M/(N BW).
 * n_alpha -> 1 .. diam, n_beta -> d_max/8 (02 §3.6: diam and d_max/8,
 * added). */
#include <stdio.h>

#include "algo/rank_math.h"
#include "algo/torus_shape.h"

int alltoall_torus_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    torus_shape g;
    if (!torus_shape_read(p, &g, why, why_size)) return 0;
    if (g.n < 2) {
        snprintf(why, (size_t)why_size, "torus all-to-all needs at least 2 ranks");
        return 0;
    }
    return 1;
}

schedule *alltoall_torus(const algo_params *p, char *why, int why_size)
{
    torus_shape g;
    if (!alltoall_torus_segments(PRIM_ALLTOALL, p, why, why_size)) return NULL;
    torus_shape_read(p, &g, why, why_size);
    int n = g.n;
    schedule *s = schedule_create(PRIM_ALLTOALL, n, 0, n * n);
    int block = s->chunks / (n * n);
    for (int i = 0; i < n; i++)
        for (int k = 1; k < n; k++) {
            int to = rank_mod(i + k, n), from = rank_mod(i - k, n);
            sched_send(s, i, to, sched_block_first(s, i, to), block, SCHED_NO_DEP, SCHED_NO_DEP);
            sched_recv(s, i, from, sched_block_first(s, from, i), block, false, SCHED_NO_DEP, SCHED_NO_DEP);
        }
    return s;
}
