/* torus_shape.c — reading a group's torus shape; its dim lines. */
#include "algo/torus_shape.h"

#include <stdio.h>

#include "algo/rank_math.h"

bool torus_shape_read(const algo_params *p, torus_shape *g, char *why, int why_size)
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

void torus_line(const torus_shape *g, int rank, int dim, int *members)
{
    int d = g->dims[dim], c = torus_coordinate(g, rank, dim), base = rank - c * g->stride[dim];
    for (int j = 0; j < d; j++) members[j] = base + rank_mod(c + j, d) * g->stride[dim];
}
