/* torus_bcast_reduce.c — dimension-decomposed pipelined broadcast and reduce
 * on a k-D torus (explainer 02 §3.2, §3.3), bidirectional per dim.
 *   BC: dims 0, 1, ..., k-1.  In the phase of dim i, every line along dim i
 *       whose coordinates above i are the root's runs from its member on the
 *       root's coordinate two chains, one each way round the ring
 *       (chain_pass.c: floor(d_i/2) and ceil(d_i/2)-1 hops).
 *   Reduce: the time reverse, dims k-1 first, each line's two chains
 *       reducing into its member on the root's coordinate.
 * The message is cut in P segments (chunks; default L below; `segments:
 * auto` gives 01 App. C.3's P* for that L), and a rank forwards (BC) or
 * sends its partial sum of (Reduce) segment g as soon as it has it, so dims
 * pipeline into one another: one tree of depth
 * L = sum_i floor(d_i/2) (the torus diameter), every hop a distinct directed
 * link carrying one stream.  App. C.3 with that L is exact:
 *   t = (L + P - 1)(alpha + M/(P BW)),
 * n_alpha = L + P - 1, n_beta = (L + P - 1)/P.  02 §3.2's closed form
 * L alpha + M/BW is its limit at large P, short of 01 App. C.3's
 * (P-1) alpha + (L-1) M/(P BW) pipeline fill and drain. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/chain_pass.h"
#include "algo/pipeline.h"
#include "algo/torus_shape.h"

/* Whether RANK's line along DIM is active, with RANK its source / sink:
 * RANK agrees with ROOT on dims DIM..k-1. */
static bool line_end(const torus_shape *g, int rank, int dim, int root)
{
    for (int m = dim; m < g->k; m++)
        if (torus_coordinate(g, rank, m) != torus_coordinate(g, root, m)) return false;
    return true;
}

int torus_chain_segments(primitive prim, const algo_params *p, char *why, int why_size)
{
    torus_shape g;
    if (!torus_shape_read(p, &g, why, why_size)) return 0;
    if (p->root < 0 || p->root >= g.n) {
        snprintf(why, (size_t)why_size, "torus %s: root %d is not a rank of the group (0..%d)", primitive_name(prim),
                 p->root, g.n - 1);
        return 0;
    }
    int depth = 0;
    for (int i = 0; i < g.k; i++) depth += g.dims[i] / 2; /* 02 §3.2: floor(d_i/2) per dim, the diameter */
    return pipeline_segments(p, depth, depth); /* 01 App. C.3 with L = depth; default P = L */
}

static schedule *torus_chains(primitive prim, const algo_params *p, char *why, int why_size)
{
    torus_shape g;
    int segments = torus_chain_segments(prim, p, why, why_size), d_max = 1;
    if (!segments) return NULL;
    torus_shape_read(p, &g, why, why_size);
    for (int i = 0; i < g.k; i++)
        if (g.dims[i] > d_max) d_max = g.dims[i];
    schedule *s = schedule_create(prim, g.n, 0, segments);
    s->root = p->root;
    s->segments = segments;
    int *held = chain_held_create(g.n, segments), *ring = malloc(sizeof(int) * (size_t)d_max);
    for (int phase = 0; phase < g.k; phase++) {
        int dim = prim == PRIM_BCAST ? phase : g.k - 1 - phase;
        if (g.dims[dim] < 2) continue;
        for (int rank = 0; rank < g.n; rank++) {
            if (!line_end(&g, rank, dim, p->root)) continue;
            torus_line(&g, rank, dim, ring);
            bidirectional_chain_pass(s, ring, g.dims[dim], 0, segments, prim == PRIM_REDUCE, held);
        }
    }
    free(held);
    free(ring);
    return s;
}

schedule *bcast_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return torus_chains(PRIM_BCAST, p, why, why_size);
}

schedule *reduce_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return torus_chains(PRIM_REDUCE, p, why, why_size);
}
