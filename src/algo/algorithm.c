/* algorithm.c — the algorithm table. */
#include "algo/algorithm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/composition_generated.h"
#include "algo/msccl_program.h"
#include "algo/pipeline.h"
#include "platform/topology.h"
#include "sched/compose.h"

static const algorithm table[] = {
    {"ring", PRIM_ALLREDUCE, "ring reduce-scatter then ring all-gather, N-1 steps each (Patarasuk-Yuan)",
     "explainer 01 §5.1", allreduce_ring, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_CHANNELS_SPREAD, 0, ring_generate, ring_segments},
    {"dbt", PRIM_ALLREDUCE, "double binary tree: two complementary trees, each reducing then broadcasting half, P segments",
     "explainer 01 §5.2, App. C", allreduce_dbt, GROWTH_TREE,
     FAMILY_TREE, COMPOSITION_FLAT, TRAIT_CHANNELS, 0, NULL, double_tree_segments},
    {"tree", PRIM_ALLREDUCE, "NCCL's multi-node tree: each node's GPUs chained below a head, the heads in a double binary "
     "tree over the nodes, pipelined", "explainer 01 §5.2, App. C (NCCL Tree)", allreduce_tree, GROWTH_NODE_TREE,
     FAMILY_TREE, COMPOSITION_NODE_TREE, TRAIT_CHANNELS, 0, NULL, node_tree_segments},
    {"recursive_doubling", PRIM_ALLREDUCE, "butterfly exchanging the whole vector with i XOR 2^k; other N folded",
     "explainer 01 App. B.1, B.3", allreduce_recursive_doubling, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, recursive_doubling_segments},
    {"rabenseifner", PRIM_ALLREDUCE, "recursive-halving RS then recursive-doubling AG; other N folded",
     "explainer 01 App. B.2, B.3", allreduce_rabenseifner, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, rabenseifner_segments},
    {"torus_dimdecomp", PRIM_ALLREDUCE, "per-dim rings: RS along each dim (last first), then AG back", "explainer 02 §3.4",
     allreduce_torus_dimdecomp, GROWTH_DIMENSIONS,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_dimdecomp_segments},
    {"torus_dimdecomp", PRIM_ALLGATHER, "per-dim ring all-gathers, dim 0 first", "explainer 02 §3.5",
     allgather_torus_dimdecomp, GROWTH_DIMENSIONS,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_dimdecomp_segments},
    {"torus_dimdecomp", PRIM_REDUCESCATTER, "per-dim ring reduce-scatters, last dim first", "explainer 02 §3.5",
     reducescatter_torus_dimdecomp, GROWTH_DIMENSIONS,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_dimdecomp_segments},
    {"torus_rabenseifner", PRIM_ALLREDUCE, "per-dim Rabenseifner halving-doubling (rings on other dims), RS last dim first",
     "explainer 02 App. A", allreduce_torus_rabenseifner, GROWTH_DIMENSIONS,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_dimdecomp_segments},
    {"torus_dimdecomp", PRIM_BCAST, "per-dim bidirectional pipelined chains from the root, dim 0 first",
     "explainer 02 §3.2", bcast_torus_dimdecomp, GROWTH_CHAIN,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_chain_segments},
    {"torus_dimdecomp", PRIM_REDUCE, "per-dim bidirectional pipelined chains into the root, last dim first",
     "explainer 02 §3.3", reduce_torus_dimdecomp, GROWTH_CHAIN,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, torus_chain_segments},
    {"ring", PRIM_BCAST, "pipelined chain from the root, P segments (default N), N+P-2 steps", "explainer 01 §3.1",
     bcast_ring, GROWTH_CHAIN,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_CHANNELS_SPREAD, 0, NULL, chain_segments},
    {"ring", PRIM_REDUCE, "pipelined chain into the root, receive-reduce then forward, P segments (default N)",
     "explainer 01 §4.1", reduce_ring, GROWTH_CHAIN,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_CHANNELS_SPREAD, 0, NULL, chain_segments},
    {"binomial", PRIM_BCAST, "binomial tree, holders doubling each step, P segments (default 1) forwarded per step",
     "explainer 01 §3.2, App. C", bcast_binomial, GROWTH_TREE,
     FAMILY_TREE, COMPOSITION_FLAT, 0, 0, NULL, binomial_segments},
    {"binomial", PRIM_REDUCE, "binomial tree into the root (BC's time reverse), P segments (default 1)",
     "explainer 01 §4.2, App. C", reduce_binomial, GROWTH_TREE,
     FAMILY_TREE, COMPOSITION_FLAT, 0, 0, NULL, binomial_segments},
    {"ring", PRIM_ALLGATHER, "N-1 steps forwarding one slice to the right (phase 2 of ring AR)", "explainer 01 §6",
     allgather_ring, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_CHANNELS_SPREAD, 0, ring_generate, ring_segments},
    {"recursive_doubling", PRIM_ALLGATHER, "butterfly doubling the gathered block each step (power-of-two N)",
     "explainer 01 App. B.4", allgather_recursive_doubling, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, allgather_recursive_doubling_segments},
    {"pat", PRIM_ALLGATHER, "parallel aggregated trees: offsets N/2..1 (XOR), held set doubling (power-of-two N)",
     "explainer 01 App. A", allgather_pat, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, pat_segments},
    {"ring", PRIM_REDUCESCATTER, "N-1 steps accumulating one slice to the right (phase 1 of ring AR)", "explainer 01 §6",
     reducescatter_ring, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_CHANNELS_SPREAD, 0, ring_generate, ring_segments},
    {"recursive_halving", PRIM_REDUCESCATTER, "butterfly halving the reduced range each step (power-of-two N)",
     "explainer 01 App. B.4", reducescatter_recursive_halving, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, recursive_halving_segments},
    {"pat", PRIM_REDUCESCATTER, "PAT reversed: offsets 1..N/2 (XOR), owned set halving (power-of-two N)",
     "explainer 01 App. A", reducescatter_pat, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, pat_segments},
    {"pairwise", PRIM_ALLTOALL, "N-1 rounds; round k sends to i+k and receives from i-k", "explainer 01 §7.2",
     alltoall_pairwise, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, TRAIT_DESTINATION_CLASSES, 0, NULL, pairwise_segments},
    {"ring_relay", PRIM_ALLTOALL, "bidirectional ring, shortest arc, blocks forwarded hop by hop, floor(N/2) steps",
     "explainer 01 §7.1", alltoall_ring_relay, GROWTH_RING_RELAY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, ring_relay_segments},
    {"bruck", PRIM_ALLTOALL, "log2 N rounds; round k sends the slots with bit k set to i+2^k (power-of-two N)",
     "explainer 01 App. B.5", alltoall_bruck, GROWTH_BRUCK,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, bruck_segments},
    {"torus", PRIM_ALLTOALL, "every block sent straight to its destination, routed dimension-ordered (bisection-bound)",
     "explainer 02 §3.6", alltoall_torus, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, alltoall_torus_segments},
    {"hierarchical", PRIM_ALLREDUCE, "inner RS -> outer sub-AR of each position -> inner AG; inner/outer selectable",
     "explainer 03 §2.1", allreduce_hierarchical, GROWTH_COMPOSED,
     FAMILY_RING, COMPOSITION_HIERARCHICAL, 0, 0, hierarchical_generate, hierarchical_segments},
    {"hierarchical", PRIM_ALLGATHER, "outer AG of each position, then inner AG; inner/outer selectable",
     "explainer 03 §2.1", allgather_hierarchical, GROWTH_COMPOSED,
     FAMILY_RING, COMPOSITION_HIERARCHICAL, 0, 0, hierarchical_generate, hierarchical_segments},
    {"hierarchical", PRIM_REDUCESCATTER, "inner RS, then outer RS of each position; inner/outer selectable",
     "explainer 03 §2.1", reducescatter_hierarchical, GROWTH_COMPOSED,
     FAMILY_RING, COMPOSITION_HIERARCHICAL, 0, 0, hierarchical_generate, hierarchical_segments},
    {"hierarchical_pipelined", PRIM_ALLREDUCE, "hierarchical AR on P slices (default 8), each part on its own "
     "connections, a slice's outer AR as soon as its inner RS is done", "explainer 03 §2.1, 01 App. C",
     allreduce_hierarchical_pipelined, GROWTH_SLICED,
     FAMILY_RING, COMPOSITION_PIPELINED, 0, 0, NULL, hierarchical_pipelined_segments},
    {"hierarchical_pipelined", PRIM_ALLGATHER, "hierarchical AG on P slices, a slice's inner AG as soon as its outer AG is done",
     "explainer 03 §2.1, 01 App. C", allgather_hierarchical_pipelined, GROWTH_SLICED,
     FAMILY_RING, COMPOSITION_PIPELINED, 0, 0, NULL, hierarchical_pipelined_segments},
    {"hierarchical_pipelined", PRIM_REDUCESCATTER, "hierarchical RS on P slices, a slice's outer RS as soon as its inner RS is "
     "done", "explainer 03 §2.1, 01 App. C", reducescatter_hierarchical_pipelined, GROWTH_SLICED,
     FAMILY_RING, COMPOSITION_PIPELINED, 0, 0, NULL, hierarchical_pipelined_segments},
    {"hierarchical", PRIM_ALLTOALL, "pairwise direct-send, intra-domain peers first, then across domains",
     "explainer 03 §2.2", alltoall_hierarchical, GROWTH_QUADRATIC,
     FAMILY_RING, COMPOSITION_HIERARCHICAL, 0, 0, NULL, alltoall_hierarchical_segments},
    {"inc", PRIM_ALLREDUCE, "switch ALU reduces the pushes, multicast returns the sum; P segments (default P*)",
     "explainer 04 §1.1, §1.2, §2", allreduce_inc, GROWTH_INC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_REDUCE | INC_MULTICAST, NULL, inc_flow_segments},
    {"inc", PRIM_REDUCE, "switch ALU reduces the pushes of all but the root into the root", "explainer 04 §1.1",
     reduce_inc, GROWTH_INC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_REDUCE, NULL, inc_flow_segments},
    {"inc", PRIM_BCAST, "the root pushes once, switch multicast fans out", "explainer 04 §1.2", bcast_inc, GROWTH_INC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_MULTICAST, NULL, inc_flow_segments},
    {"inc", PRIM_ALLGATHER, "N concurrent switch multicasts, one per slice", "explainer 04 §1.2", allgather_inc, GROWTH_INC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_MULTICAST, NULL, inc_flow_segments},
    {"inc", PRIM_REDUCESCATTER, "N concurrent switch reductions, one per slice into its owner", "explainer 04 §1.1",
     reducescatter_inc, GROWTH_INC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_REDUCE, NULL, inc_flow_segments},
    {"inc", PRIM_ALLTOALL, "hardware scatter-gather: all blocks submitted at once, no rounds", "explainer 04 §1.3",
     alltoall_inc, GROWTH_QUADRATIC,
     FAMILY_NVLS, COMPOSITION_FLAT, TRAIT_CHANNELS | TRAIT_SIMPLE_ONLY, INC_A2A, NULL, inc_flow_segments},
    {"direct", PRIM_SENDRECV, "one message from the root (source) to the peer (destination)", "explainer 01 §8",
     sendrecv_direct, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, sendrecv_segments},
    {"direct", PRIM_PERMUTATION, "every rank sends its M straight to its destination under a seeded derangement",
     "explainer 01 §8 (one hop per rank)", permutation_direct, GROWTH_BUTTERFLY,
     FAMILY_RING, COMPOSITION_FLAT, 0, 0, NULL, permutation_segments},
};

/* The P a pipelined schedule of sequential depth at most DEPTH uses at most:
 * as given, P* (01 App. C.3), or DEFAULT_P (SEGMENTS_AUTO: P*). */
static double segments_bound(const algo_params *p, double depth, double default_p)
{
    if (p->segments > 0) return p->segments;
    if (p->segments != SEGMENTS_AUTO && default_p != SEGMENTS_AUTO) return default_p;
    algo_params deepest = *p;
    deepest.segments = SEGMENTS_AUTO;
    return pipeline_segments(&deepest, (int)depth, 1);
}

static bool is_composed(const algorithm *a)
{
    return a->composition == COMPOSITION_HIERARCHICAL || a->composition == COMPOSITION_PIPELINED;
}

/* A hierarchical part's algorithm (algorithm_part_fn): a composition is none. */
static const algorithm *flat_part(primitive prim, const char *name)
{
    const algorithm *a = algorithm_part(prim, name);
    return a && !is_composed(a) ? a : NULL;
}

/* A hierarchical composition's share of the size: its parts' sizes on their
 * sub-groups, embedded once per sub-group, SLICES times; -1 when P is no
 * two-tier group or a part's algorithm is unknown. */
/* What a generated composition keeps of a part embedded on GROUPS
 * sub-groups (composition_generated.c): the part's sub-schedule once (its
 * ops, dependencies and chunk ranges) and, for every op of every copy, the
 * executor's state (its op graph's entries or a bit: at most an item's 16
 * bytes).  Counted on the part built (a ring of 72, a tree over 1,408 ranks:
 * milliseconds), not estimated; -1 when the part does not build or the
 * generator does not take it (then it is stored, embedded per group). */
static double generated_part_size(const algorithm *algo, const algo_params *sub, int groups)
{
    char why[256];
    schedule *built = algo->build(sub, why, sizeof why);
    double items = -1;
    if (built && composition_part_generable(built)) {
        double ops = 0, stored = 0;
        for (int a = 0; a < built->actors; a++) {
            ops += built->actor[a].op_count;
            stored += built->actor[a].op_count + built->actor[a].dep_count + built->actor[a].range_count;
        }
        items = stored + groups * ops;
    }
    schedule_free(built);
    return items;
}

static double composed_size(primitive prim, const algo_params *p, int slices)
{
    int n = p->ranks, d = p->domain_ranks, count;
    if (d < 1 || n % d != 0 || d >= n) return -1;
    const composition_part *parts = hierarchical_parts(prim, &count);
    double stored = 0, generated = 0;
    bool generates = p->generated && slices == 1; /* every part taken by the generator, or the whole is stored */
    for (int i = 0; i < count; i++) {
        int size = parts[i].outer ? n / d : d, groups = parts[i].outer ? d : n / d;
        const algorithm *algo = flat_part(parts[i].prim, parts[i].outer ? p->outer : p->inner);
        if (!algo) return -1;
        if (size < 2) continue;
        algo_params sub = {.ranks = size, .segments = slices > 1 ? 0 : p->segments,
                           .size_bytes = p->size_bytes / slices / (parts[i].outer ? d : 1), .alpha_s = p->alpha_s,
                           .bandwidth_Bps = p->bandwidth_Bps, .tiers = p->tiers};
        stored += (groups + 1.0) * algorithm_schedule_size(algo, &sub); /* embedded per group, and built once */
        double part = generates && algo->growth != GROWTH_INC ? generated_part_size(algo, &sub, groups) : -1;
        generates = part >= 0;
        generated += part;
    }
    return generates ? generated : stored * slices;
}

/* One channel's schedule. */
static double channel_size(const algorithm *a, const algo_params *p)
{
    double n = p->ranks, l = ceil(log2(n > 2 ? n : 2)) + 1;
    switch (a->growth) {
    case GROWTH_BUTTERFLY: return 16 * n * l;
    case GROWTH_QUADRATIC: return 8 * n * n;
    case GROWTH_BRUCK: return 8 * n * n * l;
    case GROWTH_RING_RELAY: return n * n * n + 8 * n * n;
    case GROWTH_CHAIN: return 8 * n * (segments_bound(p, n, n) + l);
    case GROWTH_TREE: return 64 * n * (segments_bound(p, 2 * l, 2 * l) + l);
    case GROWTH_INC: /* a tree of at most one switch level per tier: depth 2 x tiers (04 §2) */
        return 4 * n * (n + l) * (segments_bound(p, 2 * (p->tiers > 0 ? p->tiers : TOPO_MAX_TIERS), SEGMENTS_AUTO) + 1);
    case GROWTH_DIMENSIONS: {
        double lines = 0;
        for (int i = 0; i < p->dim_count; i++) lines += p->dims[i];
        return 8 * n * (lines + l);
    }
    case GROWTH_NODE_TREE: {
        double depth = (p->domain_ranks > 1 ? p->domain_ranks - 1 : 0) + l;
        return 64 * n * (segments_bound(p, 2 * depth, 2 * depth) + depth);
    }
    case GROWTH_IMPORTED: /* a step is at most three ops (a fused step's halves), each with its dependencies */
        return p->source ? 8 * (double)((const msccl_program *)p->source)->step_count : 0;
    case GROWTH_SLICED: { /* the parts at their default segments, on P slices */
        double slices = segments_bound(p, 3, HIERARCHICAL_SLICES), parts = composed_size(a->prim, p, (int)slices);
        return parts >= 0 ? parts : (8 * n * n + 64 * n * 3 * l) * slices;
    }
    default: { /* GROWTH_COMPOSED: its parts where the group has two tiers */
        double parts = composed_size(a->prim, p, 1);
        return parts >= 0 ? parts : 8 * n * n + 64 * n * (segments_bound(p, 2 * l, 2 * l) + l);
    }
    }
}

double algorithm_schedule_size(const algorithm *a, const algo_params *p)
{
    if (a->composition == COMPOSITION_IMPORTED) {
        algo_params q = *p;
        q.source = msccl_program_of(a);
        return channel_size(a, &q);
    }
    return channel_size(a, p) * (p->channels > 1 ? p->channels : 1); /* K copies of the schedule */
}

const algorithm *algorithm_table(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}

const algorithm *algorithm_find(primitive prim, const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].prim == prim && strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

unsigned algorithm_name_traits(const char *name)
{
    unsigned traits = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, name) == 0) traits |= table[i].traits;
    return traits;
}

const algorithm *algorithm_part(primitive prim, const char *name)
{
    return algorithm_find(prim, name ? name : "ring");
}

/* P as A's own builder or segments rule gets it: with the registry's
 * lookup of a composition's parts. */
static algo_params registry_params(const algo_params *p)
{
    algo_params q = *p;
    q.part_of = flat_part;
    return q;
}

schedule *ring_generate(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    return ring_schedule_generated(a->prim, p->ranks, why, why_size);
}

schedule *algorithm_generate(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    algo_params q = registry_params(p);
    if (a->generate && p->channels <= 1) return a->generate(a, &q, why, why_size);
    return algorithm_build(a, p, why, why_size);
}

bool algorithm_takes_channels(const algorithm *a)
{
    return (a->traits & TRAIT_CHANNELS) != 0;
}

bool algorithm_per_group(const algorithm *a)
{
    return a->inc_capabilities != 0 || (a->composition != COMPOSITION_FLAT && a->composition != COMPOSITION_IMPORTED);
}

/* Whether A runs on P's channels (one always); false with WHY. */
static bool channels_accepted(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    int k = p->channels > 1 ? p->channels : 1;
    if (k == 1) return true;
    if (a->composition == COMPOSITION_IMPORTED) /* an imported schedule: its file says its channels */
        snprintf(why, (size_t)why_size, "%s runs on the channels its file gives its threadblocks: remove 'channels'", a->name);
    else if (!algorithm_takes_channels(a))
        snprintf(why, (size_t)why_size, "'channels' applies to ring, dbt, tree and inc, not %s", a->name);
    else if (k > SCHED_MAX_CHANNELS)
        snprintf(why, (size_t)why_size, "at most %d channels (NCCL's MAXCHANNELS)", SCHED_MAX_CHANNELS);
    else
        return true;
    return false;
}

int algorithm_segments(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    if (!channels_accepted(a, p, why, why_size)) return 0;
    if (!a->segments) { /* an imported schedule: read from the schedule its file gives */
        schedule *built = algorithm_build(a, p, why, why_size);
        int segments = built ? built->segments : 0;
        schedule_free(built);
        return segments;
    }
    algo_params q = registry_params(p);
    q.channels = 1;
    if (p->channels > 1) q.size_bytes = p->size_bytes / p->channels; /* each channel's M/K, as algorithm_build's */
    return a->segments(a->prim, &q, why, why_size);
}

schedule *algorithm_build(const algorithm *a, const algo_params *p, char *why, int why_size)
{
    int k = p->channels > 1 ? p->channels : 1;
    if (!channels_accepted(a, p, why, why_size)) return NULL;
    if (a->composition == COMPOSITION_IMPORTED) {
        algo_params q = *p;
        q.source = msccl_program_of(a);
        return a->build(&q, why, why_size);
    }
    if (k == 1) {
        algo_params q = registry_params(p);
        return a->build(&q, why, why_size);
    }
    schedule *copies[SCHED_MAX_CHANNELS] = {NULL};
    int *orders[SCHED_MAX_CHANNELS] = {NULL};
    bool ok = true;
    for (int c = 0; c < k && ok; c++) {
        algo_params q = *p;
        q.channels = 1;
        q.size_bytes = p->size_bytes / k; /* each channel moves M/K (P* is computed for that) */
        orders[c] = malloc(sizeof(int) * (size_t)p->ranks);
        channel_order(p, c, orders[c]);
        for (int i = 0; i < p->ranks; i++)
            if (orders[c][i] == p->root) q.root = i;
        copies[c] = a->build(&q, why, why_size);
        ok = copies[c] != NULL;
        if (ok && c > 0 && (copies[c]->chunks != copies[0]->chunks || copies[c]->actors != copies[0]->actors)) {
            snprintf(why, (size_t)why_size, "%s: channels of different shapes", a->name);
            ok = false;
        }
    }
    schedule *s = ok ? sched_channels(copies, k, (const int *const *)orders) : NULL;
    for (int c = 0; c < k; c++) {
        schedule_free(copies[c]);
        free(orders[c]);
    }
    return s;
}

