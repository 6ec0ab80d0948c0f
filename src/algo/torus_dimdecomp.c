/* torus_dimdecomp.c — dimension-decomposed ring AR / AG / RS on a k-D torus
 * (explainer 02 §3.1, §3.4, §3.5): k serial phases, each running the N/d_i
 * rings of one dim concurrently on disjoint links.
 *   RS: dims last to first; in each phase a rank's ring reduce-scatters the
 *       range it still owns, keeping 1/d_i of it (chunk sizes telescope).
 *   AG: dims first to last, the reverse, gathering back.
 *   AR: RS then AG.
 * Chunks = N; rank r's final RS slice is chunk r (verify.c), which the
 * last-to-first order gives: ranks are numbered dim 0 fastest.
 * t_AR = 2 sum_i (d_i-1) alpha + 2(N-1)/N M/BW; AG or RS half of it. */
#include <stdio.h>
#include <stdlib.h>

#include "algo/algorithm.h"
#include "algo/ring_pass.h"

typedef struct lattice_shape {
    int k, n, dims[ALGO_MAX_DIMS], stride[ALGO_MAX_DIMS];
} lattice_shape;

static bool read_shape(const algo_params *p, lattice_shape *g, char *why, int why_size)
{
    if (p->dim_count < 1) {
        snprintf(why, (size_t)why_size, "dimension decomposition needs a torus or mesh shape (platform dims)");
        return false;
    }
    g->k = p->dim_count;
    g->n = 1;
    for (int i = 0; i < g->k; i++) {
        g->dims[i] = p->dims[i];
        g->stride[i] = g->n;
        g->n *= p->dims[i];
    }
    if (g->n != p->ranks) {
        snprintf(why, (size_t)why_size, "the group of %d ranks is not the %d ranks of the torus shape", p->ranks, g->n);
        return false;
    }
    return true;
}

/* One phase along DIM: every line along DIM runs a ring over the range its
 * members share.  RANGE_FIRST / RANGE_WIDTH: per rank, the range it owns
 * (updated: RS narrows it to the member's slice, AG widens it to the line's). */
static void phase(schedule *s, const lattice_shape *g, int dim, bool reduce, int *first, int *width, int *entry)
{
    int d = g->dims[dim];
    if (d < 2) return;
    int *members = malloc(sizeof(int) * (size_t)d);
    for (int base = 0; base < g->n; base++) {
        if (base / g->stride[dim] % d != 0) continue; /* one line per rank with coordinate 0 on DIM */
        for (int c = 0; c < d; c++) members[c] = base + c * g->stride[dim];
        if (reduce) {
            int slice = width[base] / d;
            ring_pass(s, members, d, first[base], slice, true, entry);
            for (int c = 0; c < d; c++) {
                first[members[c]] = first[base] + c * slice;
                width[members[c]] = slice;
            }
        } else {
            /* member c owns [first[c], +width); the line's range starts at member 0's */
            int line_first = first[base], slice = width[base];
            ring_pass(s, members, d, line_first, slice, false, entry);
            for (int c = 0; c < d; c++) {
                first[members[c]] = line_first;
                width[members[c]] = slice * d;
            }
        }
    }
    free(members);
}

static schedule *dimdecomp(primitive prim, const algo_params *p, char *why, int why_size)
{
    lattice_shape g;
    if (!read_shape(p, &g, why, why_size)) return NULL;
    schedule *s = schedule_create(prim, g.n, 0, g.n);
    int *first = malloc(sizeof(int) * (size_t)g.n), *width = malloc(sizeof(int) * (size_t)g.n);
    int *entry = malloc(sizeof(int) * (size_t)g.n);
    for (int r = 0; r < g.n; r++) {
        entry[r] = SCHED_NO_DEP;
        first[r] = prim == PRIM_ALLGATHER ? r : 0; /* AG: each rank starts with its own chunk */
        width[r] = prim == PRIM_ALLGATHER ? 1 : g.n;
    }
    if (prim != PRIM_ALLGATHER)
        for (int dim = g.k - 1; dim >= 0; dim--) phase(s, &g, dim, true, first, width, entry);
    if (prim != PRIM_REDUCESCATTER)
        for (int dim = 0; dim < g.k; dim++) phase(s, &g, dim, false, first, width, entry);
    free(first);
    free(width);
    free(entry);
    return s;
}

schedule *allreduce_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return dimdecomp(PRIM_ALLREDUCE, p, why, why_size);
}

schedule *allgather_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return dimdecomp(PRIM_ALLGATHER, p, why, why_size);
}

schedule *reducescatter_torus_dimdecomp(const algo_params *p, char *why, int why_size)
{
    return dimdecomp(PRIM_REDUCESCATTER, p, why, why_size);
}
