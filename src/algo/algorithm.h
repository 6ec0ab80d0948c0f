/* algorithm.h — the registry of collective algorithms (`collsim list
 * algorithms`).  An algorithm is a function that emits a schedule for a group
 * of N ranks; it never talks to SimGrid.  One file per algorithm
 * (src/algo/<primitive>_<name>.c), one line in algorithm.c's table. */
#ifndef COLLSIM_ALGORITHM_H
#define COLLSIM_ALGORITHM_H

#include "algo/channels.h"
#include "platform/inc_tree.h"
#include "platform/library.h"
#include "sched/schedule.h"

#define ALGO_MAX_DIMS 8
#define SEGMENTS_AUTO (-1) /* algo_params.segments: P* of explainer 01 App. C.3 for the size */
#define HIERARCHICAL_SLICES 8 /* hierarchical_pipelined: default slices P */
#define PIPELINE_MAX_SEGMENTS 8192 /* given or P*: bounds the schedule's size; P* passes it only past ~10 GB */

/* The INC aggregation tree over a sub-group (RANKS, N group ranks) whose
 * switches offer CAPABILITIES, for INC parts of hierarchical schedules; false
 * with WHY when the platform has none.  The caller frees *OUT. */
typedef bool (*inc_tree_fn)(const void *ctx, const int *ranks, int n, unsigned capabilities, inc_tree *out, char *why,
                            int why_size);

typedef struct algorithm algorithm;
/* The algorithm of a hierarchical part of PRIM named NAME (NULL: ring), or
 * NULL when there is none or it is itself a composition: the registry's
 * lookup, handed to a composition in its parameters so that its file calls
 * nothing of the registry back. */
typedef const algorithm *(*algorithm_part_fn)(primitive prim, const char *name);

typedef struct algo_params {
    int ranks;
    int segments;               /* pipelining segments P (0: the algorithm's default, SEGMENTS_AUTO: P*) */
    double size_bytes, alpha_s, bandwidth_Bps; /* what P* is computed for */
    int root;                   /* BC / Reduce root, sendrecv source */
    int peer;                   /* sendrecv destination */
    unsigned long long seed;    /* permutation: the seed of its derangement */
    int dims[ALGO_MAX_DIMS];    /* torus shape of the group (torus algorithms) */
    int dim_count;
    int domain_ranks;           /* hierarchical: the group's ranks per inner domain (pod, node, leaf); 0: the
                                   platform has none, -1: the group's shares of them differ */
    const int *domain_order;    /* hierarchical: group ranks domain by domain (NULL: rank order already is) */
    const char *inner, *outer;  /* hierarchical: algorithms of the inner and outer tiers (NULL: ring) */
    const inc_tree *inc;        /* inc: the group's aggregation tree (NULL: none, inc refuses) */
    inc_tree_fn inc_tree_of;    /* hierarchical: trees of sub-groups for `inc` parts (NULL: none) */
    const void *inc_context;    /* passed to inc_tree_of */
    algorithm_part_fn part_of;  /* hierarchical: its parts' algorithms (set by algorithm_build and algorithm_segments) */
    int channels;               /* NCCL-style channels (0 or 1: one); see algorithm_build */
    channel_layout layout;      /* how the channels spread over the fabric (channels.h) */
    int rail_ranks;             /* CHANNELS_RAILS: GPUs per node (channel c's ring enters each node at GPU c) */
    int tiers;                  /* the platform's tiers: bounds an INC tree's levels (algorithm_schedule_size) */
    bool generated;             /* algorithm_schedule_size: the schedule runs generated where it can (`run`) */
    const void *source;         /* COMPOSITION_IMPORTED: the program its record sits in (msccl_program_of) */
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
    GROWTH_SLICED,     /* hierarchical_pipelined: the composition on P slices (default 8) */
    GROWTH_NODE_TREE,  /* NCCL's tree: DBT slots over depth (D-1) + log2 L, P segments (default 2 x depth) */
    GROWTH_IMPORTED,   /* read from a file: its steps (msccl_program.h) */
} schedule_growth;

/* The largest schedule collsim builds, in ops, chunk ranges and dependencies
 * over all actors (all groups of a simulation together): ~1 GB. */
#define SCHEDULE_MAX_ITEMS (1L << 26)


/* How an algorithm's schedule, and so its prediction, is put together. */
typedef enum {
    COMPOSITION_FLAT,         /* one schedule over the group, one closed form (model/formulas.c) */
    COMPOSITION_HIERARCHICAL, /* inner and outer parts, each its own algorithm (explainer 03 §2.1, §2.2) */
    COMPOSITION_PIPELINED,    /* the hierarchical parts on P slices, overlapped (03 §2.1 with 01 App. C) */
    COMPOSITION_NODE_TREE,    /* NCCL's tree: chains inside nodes, a double binary tree over them */
    COMPOSITION_IMPORTED,     /* read from a file: predicted by its own critical path (model/schedule_path.c) */
} algorithm_composition;

/* What the rest of collsim may ask of an algorithm, set in its registry entry. */
enum {
    TRAIT_CHANNELS = 1u << 0,            /* runs on K NCCL-style channels of M/K (algorithm_build) */
    TRAIT_CHANNELS_SPREAD = 1u << 1,     /* its K channels on disjoint links move K times one's share (channels.h) */
    TRAIT_SIMPLE_ONLY = 1u << 2,         /* NCCL runs it with the Simple protocol alone (NVLS) */
    TRAIT_DESTINATION_CLASSES = 1u << 3, /* predicted per destination class on multi-tier fabrics (03 §2.2) */
};

/* Whether an algorithm accepts P and the segments P its schedule of PRIM
 * then runs (1 when not pipelined), without building it: 0 with WHY filled
 * when it refuses (the refusal its build gives).  Each builder starts with
 * its own, so the two cannot disagree. */
typedef int (*segments_fn)(primitive prim, const algo_params *p, char *why, int why_size);

struct algorithm {
    const char *name;
    primitive prim;
    const char *summary;
    const char *seed;
    /* The schedule, or NULL with WHY filled when the algorithm refuses P. */
    schedule *(*build)(const algo_params *p, char *why, int why_size);
    schedule_growth growth;
    algorithm_family family;
    algorithm_composition composition;
    unsigned traits;           /* TRAIT_* */
    unsigned inc_capabilities; /* INC_* of topology.h every switch of its tree must offer; 0: no switch actors */
    /* The same schedule generated rather than stored (nothing per op), or NULL (algorithm_generate). */
    schedule *(*generate)(const algorithm *a, const algo_params *p, char *why, int why_size);
    /* Its refusals and segments without the schedule (NULL: read from the built schedule, an imported one). */
    segments_fn segments;
};

const algorithm *algorithm_table(int *count);
const algorithm *algorithm_find(primitive prim, const char *name);
/* A's schedule for P; with P->channels = K > 1, K concurrent copies of M/K
 * each (sched_channels), copy c over the group in channel_order's order
 * (channels.h).
 * Channels apply to ring, dbt, tree and inc; others refuse them (NULL, WHY). */
schedule *algorithm_build(const algorithm *a, const algo_params *p, char *why, int why_size);
/* The segments A's schedule runs for P (its `segments` field, through the
 * channels algorithm_build applies): what model_case.segments needs, without
 * the schedule; 0 with WHY when algorithm_build would refuse P, but for the
 * limits of a stored schedule (a hierarchical composition's chunk grid). */
int algorithm_segments(const algorithm *a, const algo_params *p, char *why, int why_size);
/* A's schedule for P as algorithm_build gives it, generated rather than
 * stored where A has a generator (ring AR / AG / RS on one channel:
 * ring_generated.c; hierarchical AR / AG / RS: composition_generated.c), for
 * the executor only: the verifier reads stored ops. */
schedule *algorithm_generate(const algorithm *a, const algo_params *p, char *why, int why_size);
/* The algorithm of a hierarchical part of PRIM: NAME (`inner:` / `outer:`),
 * or the ring when NAME is NULL; NULL when PRIM has no such algorithm. */
const algorithm *algorithm_part(primitive prim, const char *name);
/* The traits (TRAIT_*) of every algorithm named NAME, of any primitive, together. */
unsigned algorithm_name_traits(const char *name);
/* Whether A can run on several channels. */
bool algorithm_takes_channels(const algorithm *a);
/* Whether each group of a case needs a schedule of its own: INC trees,
 * hierarchical domains and node trees depend on where the group sits. */
bool algorithm_per_group(const algorithm *a);
/* A's schedule generated on one channel (ring AR / AG / RS: ring_generated.c). */
schedule *ring_generate(const algorithm *a, const algo_params *p, char *why, int why_size);

/* The segments P an `inc` schedule of PRIM runs for P (its segments, size,
 * α_switch and BW) on a tree of DEPTH levels: P's segments, else 1 for AG /
 * RS and P* of 01 App. C.3 over 2·DEPTH legs for the others (inc.c). */
int inc_segments(primitive prim, const algo_params *p, int depth);
/* A ring over ranks 0..N-1 doing RS, AG or both (allreduce_ring.c). */
schedule *ring_schedule(primitive prim, int n, char *why, int why_size);
/* The same ring as a generator: nothing stored per op (ring_generated.c). */
schedule *ring_schedule_generated(primitive prim, int n, char *why, int why_size);
/* Dimension-decomposed RS, AG or AR over the group's torus shape, rings per
 * dim, or Rabenseifner's halving / doubling on power-of-two dims when
 * HALVING (torus_dimdecomp.c). */
schedule *torus_dimdecomp_schedule(primitive prim, const algo_params *p, bool halving, char *why, int why_size);

/* Their segments_fn (the file of the builder they open). */
int ring_segments(primitive prim, const algo_params *p, char *why, int why_size);
int chain_segments(primitive prim, const algo_params *p, char *why, int why_size);
int binomial_segments(primitive prim, const algo_params *p, char *why, int why_size);
int double_tree_segments(primitive prim, const algo_params *p, char *why, int why_size);
int node_tree_segments(primitive prim, const algo_params *p, char *why, int why_size);
int pat_segments(primitive prim, const algo_params *p, char *why, int why_size);
int rabenseifner_segments(primitive prim, const algo_params *p, char *why, int why_size);
int recursive_doubling_segments(primitive prim, const algo_params *p, char *why, int why_size);
int allgather_recursive_doubling_segments(primitive prim, const algo_params *p, char *why, int why_size);
int recursive_halving_segments(primitive prim, const algo_params *p, char *why, int why_size);
int torus_dimdecomp_segments(primitive prim, const algo_params *p, char *why, int why_size);
int torus_chain_segments(primitive prim, const algo_params *p, char *why, int why_size);
int alltoall_torus_segments(primitive prim, const algo_params *p, char *why, int why_size);
int pairwise_segments(primitive prim, const algo_params *p, char *why, int why_size);
int ring_relay_segments(primitive prim, const algo_params *p, char *why, int why_size);
int bruck_segments(primitive prim, const algo_params *p, char *why, int why_size);
int hierarchical_segments(primitive prim, const algo_params *p, char *why, int why_size);
int hierarchical_pipelined_segments(primitive prim, const algo_params *p, char *why, int why_size);
int alltoall_hierarchical_segments(primitive prim, const algo_params *p, char *why, int why_size);
int inc_flow_segments(primitive prim, const algo_params *p, char *why, int why_size);
int sendrecv_segments(primitive prim, const algo_params *p, char *why, int why_size);
int permutation_segments(primitive prim, const algo_params *p, char *why, int why_size);

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
schedule *allreduce_tree(const algo_params *p, char *why, int why_size);
schedule *allgather_pat(const algo_params *p, char *why, int why_size);
schedule *reducescatter_pat(const algo_params *p, char *why, int why_size);
schedule *alltoall_bruck(const algo_params *p, char *why, int why_size);
schedule *alltoall_ring_relay(const algo_params *p, char *why, int why_size);
schedule *allreduce_hierarchical(const algo_params *p, char *why, int why_size);
schedule *allgather_hierarchical(const algo_params *p, char *why, int why_size);
schedule *reducescatter_hierarchical(const algo_params *p, char *why, int why_size);
schedule *alltoall_hierarchical(const algo_params *p, char *why, int why_size);
schedule *allreduce_hierarchical_pipelined(const algo_params *p, char *why, int why_size);
schedule *allgather_hierarchical_pipelined(const algo_params *p, char *why, int why_size);
schedule *reducescatter_hierarchical_pipelined(const algo_params *p, char *why, int why_size);
/* The same compositions on one slice, generated where their parts allow
 * (composition_generated.c), else stored: their `generate`. */
schedule *hierarchical_generate(const algorithm *a, const algo_params *p, char *why, int why_size);
schedule *allreduce_inc(const algo_params *p, char *why, int why_size);
schedule *bcast_inc(const algo_params *p, char *why, int why_size);
schedule *reduce_inc(const algo_params *p, char *why, int why_size);
schedule *allgather_inc(const algo_params *p, char *why, int why_size);
schedule *reducescatter_inc(const algo_params *p, char *why, int why_size);
schedule *alltoall_inc(const algo_params *p, char *why, int why_size);
schedule *sendrecv_direct(const algo_params *p, char *why, int why_size);
schedule *permutation_direct(const algo_params *p, char *why, int why_size);
/* An MSCCL file's schedule: p->source is its program (msccl_import.c). */
schedule *msccl_build(const algo_params *p, char *why, int why_size);
/* An upper bound on the ops, chunk ranges and dependencies of A's schedule
 * for P (its segments as given, SEGMENTS_AUTO at p->size_bytes, or A's
 * default), computed before anything is built; a double, so that no product
 * wraps.  tests/test_algorithms.c holds it above every schedule's real size. */
double algorithm_schedule_size(const algorithm *a, const algo_params *p);
/* One part of a hierarchical composition: a whole algorithm of PRIM run on
 * sub-groups, one phase of the schedule. */
typedef struct composition_part {
    primitive prim;
    bool outer;          /* across positions (L ranks) rather than within a domain (D ranks) */
    const char *phase;
} composition_part;
#define COMPOSITION_MAX_PARTS 4
/* The parts of PRIM's hierarchical composition (AR, AG, RS) in the order
 * they run, and their count (hierarchical.c). */
const composition_part *hierarchical_parts(primitive prim, int *count);
/* The INC capabilities (INC_* of topology.h) algorithm A needs of every switch
 * of the tree; 0 when it runs no switch actors. */
static inline unsigned algorithm_inc_capabilities(const algorithm *a)
{
    return a->inc_capabilities;
}

#endif
