/* algorithm.h — the registry of collective algorithms (`collsim list
 * algorithms`).  An algorithm is a function that emits a schedule for a group
 * of N ranks; it never talks to SimGrid.  One file per algorithm
 * (src/algo/<primitive>_<name>.c), one line in algorithm.c's table. */
#ifndef COLLSIM_ALGORITHM_H
#define COLLSIM_ALGORITHM_H

#include "sched/schedule.h"

#define ALGO_MAX_DIMS 8

typedef struct algo_params {
    int ranks;
    int segments;               /* pipelining segments P (0: the algorithm's default) */
    int root;                   /* BC / Reduce root */
    int dims[ALGO_MAX_DIMS];    /* torus shape of the group (torus algorithms) */
    int dim_count;
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

/* Algorithms (one file each). */
schedule *allreduce_ring(const algo_params *p, char *why, int why_size);
schedule *allreduce_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *allgather_torus_dimdecomp(const algo_params *p, char *why, int why_size);
schedule *reducescatter_torus_dimdecomp(const algo_params *p, char *why, int why_size);
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

#endif
