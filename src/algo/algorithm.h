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
#define PIPELINE_MAX_SEGMENTS 8192 /* given or P*: bounds the schedule's size; P* passes it only past ~10 GB */

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
    int tiers;                  /* the platform's tiers: bounds an INC tree's levels (algorithm_schedule_size) */
} algo_params;

/* How an algorithm's schedule grows with the group's N and the segments P,
 * L = log2 N (algorithm_schedule_size; docs/reliability.md). */
typedef enum {
    GROWTH_BUTTERFLY,  /* L steps per rank: ~ N L */
    GROWTH_QUADRATIC,  /* N-1 steps or peers per rank: ~ N^2 */
    GROWTH_DIMENSIONS, /* a ring per torus dim: ~ N (d_1 + d_2 + ...) */
    GROWTH_BRUCK,      /* L messages of N/2 chunk ranges per rank: ~ N^2 L */
    GROWTH_RING_RELAY, /* N-1 messages of up to N/2 ranges per rank: ~ N^3 */
    GROWTH_CHAIN,      /* a pipelined chain, P segments (default N): ~ N P */
    GROWTH_TREE,       /* a pipelined tree (binomial, DBT), P segments (default at most 2L): ~ N P */
    GROWTH_INC,        /* switch actors, each segment of every flow reduced or fanned out over N legs: ~ N^2 P */
    GROWTH_COMPOSED,   /* hierarchical parts: quadratic, or pipelined trees (default P at most 2L) */
} schedule_growth;

/* The largest schedule collsim builds, in ops, chunk ranges and dependencies
 * over all actors (all groups of a simulation together): ~1 GB. */
#define SCHEDULE_MAX_ITEMS (1L << 26)

typedef struct algorithm {
    const char *name;
    primitive prim;
    const char *summary;
    const char *seed;
    /* The schedule, or NULL with WHY filled when the algorithm refuses P. */
    schedule *(*build)(const algo_params *p, char *why, int why_size);
    schedule_growth growth;
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
/* The destinations of permutation SEED over N >= 2 ranks: TO[i] != i, each
 * rank once (a derangement drawn uniformly). */
void permutation_destinations(int n, unsigned long long seed, int *to);
/* An upper bound on the ops, chunk ranges and dependencies of A's schedule
 * for P (its segments as given, SEGMENTS_AUTO at p->size_bytes, or A's
 * default), computed before anything is built; a double, so that no product
 * wraps.  tests/test_algorithms.c holds it above every schedule's real size. */
double algorithm_schedule_size(const algorithm *a, const algo_params *p);
/* The INC capabilities (INC_* of topology.h) algorithm A needs of every switch
 * of the tree; 0 when it runs no switch actors. */
unsigned algorithm_inc_capabilities(const algorithm *a);

#endif
