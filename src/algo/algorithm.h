/* algorithm.h — the registry of collective algorithms (`collsim list
 * algorithms`).  An algorithm is a function that emits a schedule for a group
 * of N ranks; it never talks to SimGrid.  One file per algorithm
 * (src/algo/<primitive>_<name>.c), one line in algorithm.c's table. */
#ifndef COLLSIM_ALGORITHM_H
#define COLLSIM_ALGORITHM_H

#include "platform/inc_tree.h"
#include "sched/schedule.h"

#define ALGO_MAX_DIMS 8
#define SEGMENTS_AUTO (-1) /* algo_params.segments: P* of explainer 01 App. C.3 for the size */

typedef struct algo_params {
    int ranks;
    int segments;               /* pipelining segments P (0: the algorithm's default, SEGMENTS_AUTO: P*) */
    double size_bytes, alpha_s, bandwidth_Bps; /* what P* is computed for */
    int root;                   /* BC / Reduce root, sendrecv source */
    int peer;                   /* sendrecv destination */
    unsigned long long seed;    /* permutation: the seed of its derangement */
    int dims[ALGO_MAX_DIMS];    /* torus shape of the group (torus algorithms) */
    int dim_count;
    int domain_ranks;           /* hierarchical: ranks per inner domain (pod, leaf) */
    const char *inner, *outer;  /* hierarchical: algorithms of the inner and outer tiers (NULL: ring) */
    const inc_tree *inc;        /* inc: the group's aggregation tree (NULL: none, inc refuses) */
} algo_params;

typedef struct algorithm {
    const char *name;
    primitive prim;
    const char *summary;
    const char *seed;
    /* The schedule, or NULL with WHY filled when the algorithm refuses P. */
    schedule *(*build)(const algo_params *p, char *why, int why_size);
} algorithm;

const algorithm *algorithm_table(int *count);
const algorithm *algorithm_find(primitive prim, const char *name);

/* A ring over ranks 0..N-1 doing RS, AG or both (allreduce_ring.c). */
schedule *ring_schedule(primitive prim, int n, char *why, int why_size);
/* Dimension-decomposed RS, AG or AR over the group's torus shape, rings per
 * dim, or Rabenseifner's halving / doubling on power-of-two dims when
 * HALVING (torus_dimdecomp.c). */
schedule *torus_dimdecomp_schedule(primitive prim, const algo_params *p, bool halving, char *why, int why_size);

/* Algorithms (one file each). */
schedule *allreduce_ring(const algo_params *p, char *why, int why_size);
schedule *allreduce_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *allgather_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *reducescatter_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *allreduce_torus_rabenseifner(const algo_params *p, char *why, int why_size);
schedule *bcast_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *reduce_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *alltoall_torus(const algo_params *p, char *why, int why_size);
schedule *bcast_ring(const algo_params *p, char *why, int why_size);
schedule *reduce_ring(const algo_params *p, char *why, int why_size);
schedule *allgather_ring(const algo_params *p, char *why, int why_size);
schedule *reducescatter_ring(const algo_params *p, char *why, int why_size);
schedule *alltoall_pairwise(const algo_params *p, char *why, int why_size);
schedule *allreduce_recursive_doubling(const algo_params *p, char *why, int why_size);
schedule *allreduce_rabenseifner(const algo_params *p, char *why, int why_size);
schedule *allgather_recursive_doubling(const algo_params *p, char *why, int why_size);
schedule *reducescatter_recursive_halving(const algo_params *p, char *why, int why_size);
schedule *bcast_binomial(const algo_params *p, char *why, int why_size);
schedule *reduce_binomial(const algo_params *p, char *why, int why_size);
schedule *allreduce_dbt(const algo_params *p, char *why, int why_size);
schedule *allgather_pat(const algo_params *p, char *why, int why_size);
schedule *reducescatter_pat(const algo_params *p, char *why, int why_size);
schedule *alltoall_bruck(const algo_params *p, char *why, int why_size);
schedule *alltoall_ring_relay(const algo_params *p, char *why, int why_size);
schedule *allreduce_hierarchical(const algo_params *p, char *why, int why_size);
schedule *allgather_hierarchical(const algo_params *p, char *why, int why_size);
schedule *reducescatter_hierarchical(const algo_params *p, char *why, int why_size);
schedule *alltoall_hierarchical(const algo_params *p, char *why, int why_size);
schedule *allreduce_inc(const algo_params *p, char *why, int why_size);
schedule *bcast_inc(const algo_params *p, char *why, int why_size);
schedule *reduce_inc(const algo_params *p, char *why, int why_size);
schedule *allgather_inc(const algo_params *p, char *why, int why_size);
schedule *reducescatter_inc(const algo_params *p, char *why, int why_size);
schedule *alltoall_inc(const algo_params *p, char *why, int why_size);
schedule *sendrecv_direct(const algo_params *p, char *why, int why_size);
schedule *permutation_direct(const algo_params *p, char *why, int why_size);
/* The INC capabilities (INC_* of topology.h) algorithm A needs of every switch
 * of the tree; 0 when it runs no switch actors. */
unsigned algorithm_inc_capabilities(const algorithm *a);

#endif
