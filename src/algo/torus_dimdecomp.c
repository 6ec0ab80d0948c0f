/* torus_dimdecomp.c — dimension-decomposed ring AR / AG / RS on a k-D torus
 * (explainer 02 §3.1, §3.4, §3.5): k serial phases, each running the N/d_i
 * rings of one dim concurrently on disjoint links.
 *   RS: dims last to first; in each phase a rank's ring reduce-scatters the
 *       range it still owns, keeping 1/d_i of it (chunk sizes telescope).
 *   AG: dims first to last, the reverse, gathering back.
 *   AR: RS then AG.
 * Chunks = N; rank r's final RS slice is chunk r (verify.c), which the
 * last-to-first order gives: ranks are numbered dim 0 fastest.
 * t_AR = 2 sum_i (d_i-1) alpha + 2(N-1)/N M/BW; AG or RS half of it.
 *
 * The same phases with Rabenseifner's halving / doubling as the per-dim
 * primitive (02 App. A) are torus_dimdecomp_schedule(..., true, ...), used
 * by allreduce_torus_rabenseifner.c. */
#include <stdlib.h>

#include "algo/butterfly.h"
#include "algo/rank_math.h"
#include "algo/ring_pass.h"
#include "algo/torus_shape.h"

/* One phase along DIM: every line along DIM runs a ring (or, HALVING and d a
 * power of two, a halving / doubling pass) over the range its members share.
 * FIRST / WIDTH: per rank, the range it owns (updated: RS narrows it to the
 * member's slice, AG widens it to the line's).  LAST_SEND / LAST_RECV: each
 * rank's previous ops (ring_pass's entry is LAST_RECV). */
static void phase(schedule *s, const torus_shape *g, int dim, bool reduce, bool halving, int *first, int *width,
                  int *last_send, int *last_recv)
{
    int d = g->dims[dim];
    if (d < 2) return;
    bool butterfly = halving && is_power_of_two(d); /* 02 App. A: "power-of-2 d_i required", else ring for that dim */
    int *members = malloc(sizeof(int) * (size_t)d);
    for (int base = 0; base < g->n; base++) {
        if (torus_coordinate(g, base, dim) != 0) continue; /* one line per rank with coordinate 0 on DIM */
        torus_line(g, base, dim, members);
        /* RS: the line shares member 0's range, cut in d slices; AG: member c
         * owns one slice and member 0's is the line's first */
        int line_first = first[base], slice = reduce ? width[base] / d : width[base];
        if (butterfly)
            halving_doubling_pass(s, members, d, line_first, slice, reduce, last_send, last_recv);
        else
            ring_pass(s, members, d, line_first, slice, reduce, last_recv);
        for (int c = 0; c < d; c++) {
            int kept = butterfly ? halving_slice(c, d) : c;
            first[members[c]] = reduce ? line_first + kept * slice : line_first;
            width[members[c]] = reduce ? slice : slice * d;
        }
    }
    free(members);
}

int torus_dimdecomp_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    (void)prim;
    torus_shape g;
    return torus_shape_read(p, &g, why, why_size) ? 1 : 0;
}

schedule *torus_dimdecomp_schedule(primitive prim, const algo_params *p, bool halving, char *why, int why_size)
{
    torus_shape g;
    if (!torus_shape_read(p, &g, why, why_size)) return NULL; /* torus_dimdecomp_segments' refusal */
    schedule *s = schedule_create(prim, g.n, 0, g.n);
    int *first = malloc(sizeof(int) * (size_t)g.n), *width = malloc(sizeof(int) * (size_t)g.n);
    int *last_send = malloc(sizeof(int) * (size_t)g.n), *last_recv = malloc(sizeof(int) * (size_t)g.n);
    for (int r = 0; r < g.n; r++) {
        last_send[r] = last_recv[r] = SCHED_NO_DEP;
        first[r] = prim == PRIM_ALLGATHER ? r : 0; /* AG: each rank starts with its own chunk */
        width[r] = prim == PRIM_ALLGATHER ? 1 : g.n;
    }
    if (prim != PRIM_ALLGATHER)
        for (int dim = g.k - 1; dim >= 0; dim--) phase(s, &g, dim, true, halving, first, width, last_send, last_recv);
    if (prim != PRIM_REDUCESCATTER)
        for (int dim = 0; dim < g.k; dim++) phase(s, &g, dim, false, halving, first, width, last_send, last_recv);
    free(first);
    free(width);
    free(last_send);
    free(last_recv);
    return s;
}

schedule *allreduce_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return torus_dimdecomp_schedule(PRIM_ALLREDUCE, p, false, why, why_size);
}

schedule *allgather_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return torus_dimdecomp_schedule(PRIM_ALLGATHER, p, false, why, why_size);
}

schedule *reducescatter_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return torus_dimdecomp_schedule(PRIM_REDUCESCATTER, p, false, why, why_size);
}
