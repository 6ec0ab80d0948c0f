/* torus_shape.h — the k-D torus shape of a group (algo_params.dims, dim 0
 * fastest: rank = sum c_i stride_i, as src/platform/lattice.c numbers ranks)
 * and its dim lines (explainer 02 §3.1: "(N/d_i) independent rings of size
 * d_i ... on the dim-lines perpendicular to axis i").  Shared by the torus
 * algorithms. */
#ifndef COLLSIM_TORUS_SHAPE_H
#define COLLSIM_TORUS_SHAPE_H

#include <stdbool.h>

#include "algo/algorithm.h"

typedef struct torus_shape {
    int k, n, dims[ALGO_MAX_DIMS], stride[ALGO_MAX_DIMS];
} torus_shape;

/* The shape of P's group; false with WHY when P has none or it does not
 * multiply to P's rank count. */
bool torus_shape_read(const algo_params *p, torus_shape *g, char *why, int why_size);

static inline int torus_coordinate(const torus_shape *g, int rank, int dim)
{
    return rank / g->stride[dim] % g->dims[dim];
}

/* The dims[DIM] ranks of the line along DIM through RANK, starting at RANK
 * and going round in the + direction: members[j] has coordinate c + j. */
void torus_line(const torus_shape *g, int rank, int dim, int *members);

#endif
