/* formulas.c — one row per registered (primitive, algorithm): its n_α, n_β
 * on N ranks of one tier, the closed form in the seed's notation and the
 * section it comes from.  Pipelined schedules (ring / binomial / torus BC and
 * Reduce, INC) use 01 App. C.3's master formula (L+P-1)(α + M/(P·BW)), i.e.
 * n_α = L+P-1 and n_β = (L+P-1)/P at the P that runs, or its large-M floor
 * L·α + M/BW under FORM_ASYMPTOTIC (the form of 02 §5.1 and 04 §3's tables). */
#include "model/formulas.h"

#include <stddef.h>


int ceil_log2(int n)
{
    int k = 0;
    while ((1L << k) < n) k++;
    return k;
}

static double fraction(const shape *s)
{
    return (double)(s->ranks - 1) / s->ranks; /* (N-1)/N */
}

/* 01 App. C.3: an L-step schedule in P segments. */
static counts pipelined(const shape *s, int depth, int default_segments)
{
    if (s->form == FORM_ASYMPTOTIC) return (counts){depth, 1};
    int p = s->segments > 0 ? s->segments : default_segments;
    return (counts){depth + p - 1, (double)(depth + p - 1) / p};
}

static int sum_dims(const shape *s, int (*per_dim)(int d))
{
    int total = 0;
    for (int i = 0; i < s->dim_count; i++) total += per_dim(s->dims[i]);
    return total;
}

static int minus_one(int d) { return d - 1; }
static int half_down(int d) { return d / 2; }
static int log_dim(int d) { return ceil_log2(d); }

/* Torus BC / Reduce chains: Σ⌊d_i/2⌋ bidirectional (02 §3.2), Σ(d_i-1) on a mesh (02 §4.2). */
static int torus_chain_depth(const shape *s)
{
    return sum_dims(s, s->wraparound ? half_down : minus_one);
}

static counts ring_ar(const shape *s) { return (counts){2.0 * (s->ranks - 1), 2 * fraction(s)}; }
static counts dbt_ar(const shape *s) { return (counts){2.0 * ceil_log2(s->ranks), s->c_real > 0 ? s->c_real : 2}; }
static counts rd_ar(const shape *s) { return (counts){ceil_log2(s->ranks), ceil_log2(s->ranks)}; }
static counts rabenseifner_ar(const shape *s) { return (counts){2.0 * ceil_log2(s->ranks), 2 * fraction(s)}; }
static counts torus_ar(const shape *s) { return (counts){2.0 * sum_dims(s, minus_one), 2 * fraction(s)}; }
static counts torus_rabenseifner_ar(const shape *s) { return (counts){2.0 * sum_dims(s, log_dim), 2 * fraction(s)}; }
static counts inc_ar(const shape *s) { return pipelined(s, 2 * s->inc_depth, 1); }
static counts ring_half(const shape *s) { return (counts){s->ranks - 1.0, fraction(s)}; }
static counts log_half(const shape *s) { return (counts){ceil_log2(s->ranks), fraction(s)}; }
static counts torus_half(const shape *s) { return (counts){sum_dims(s, minus_one), fraction(s)}; }
static counts inc_half(const shape *s) { return (counts){2.0 * s->inc_depth, fraction(s)}; }
static counts ring_rooted(const shape *s) { return pipelined(s, s->ranks - 1, s->ranks); }
static counts binomial_rooted(const shape *s) { return pipelined(s, ceil_log2(s->ranks), 1); }
static counts torus_rooted(const shape *s) { return pipelined(s, torus_chain_depth(s), torus_chain_depth(s)); }
static counts inc_rooted(const shape *s) { return pipelined(s, s->inc_depth, 1); }
static counts pairwise_a2a(const shape *s) { return (counts){s->ranks - 1.0, fraction(s)}; }
static counts bruck_a2a(const shape *s) { return (counts){ceil_log2(s->ranks), ceil_log2(s->ranks) / 2.0}; }
static counts inc_a2a(const shape *s) { return (counts){2.0 * s->inc_depth, fraction(s)}; }
static counts direct_p2p(const shape *s) { (void)s; return (counts){1, 1}; }

/* 02 §3.6: diam·α + (d_max/8)·M/BW, diam = Σ⌊d_i/2⌋; mesh (02 §4.2): Σ(d_i-1), d_max/4. */
static counts torus_a2a(const shape *s)
{
    int d_max = 0;
    for (int i = 0; i < s->dim_count; i++)
        if (s->dims[i] > d_max) d_max = s->dims[i];
    return (counts){sum_dims(s, s->wraparound ? half_down : minus_one), d_max / (s->wraparound ? 8.0 : 4.0)};
}

static const formula formulas[] = {
    {allreduce_ring, ring_ar, "2(N-1)·α + 2(N-1)/N·M/BW", "explainer 01 §5.1", NULL, NULL},
    {allreduce_dbt, dbt_ar, "2⌈log2 N⌉·α + c·M/BW, c = 2 (c_real of 01 §5.3 when given)",
     "explainer 00 §4 (04 §3.1, 05 §5.1)",
     "02 §5.1 and 01 App. B.3 state the pipelined DBT BW term as M/BW (c_real: 1), 01 §5.2 at P = 1 as ⌈log2 N⌉·M/BW", NULL},
    {allreduce_recursive_doubling, rd_ar, "⌈log2 N⌉·α + ⌈log2 N⌉·M/BW", "explainer 01 App. B.1", NULL, NULL},
    {allreduce_rabenseifner, rabenseifner_ar, "2⌈log2 N⌉·α + 2(N-1)/N·M/BW", "explainer 01 App. B.2", NULL, NULL},
    {allreduce_torus_dimdecomp, torus_ar, "2Σ(d_i-1)·α + 2(N-1)/N·M/BW", "explainer 02 §3.4, §4.2, §5.1", NULL, NULL},
    {allreduce_torus_rabenseifner, torus_rabenseifner_ar, "2Σ⌈log2 d_i⌉·α + 2(N-1)/N·M/BW",
     "explainer 02 App. A", NULL, NULL},
    {allreduce_inc, inc_ar, "(2k+P-1)(α_switch + M/(P·BW)) → 2k·α_switch + M/BW",
     "explainer 04 §1.4, §2.2; 01 App. C.3", NULL, NULL},
    {allgather_ring, ring_half, "(N-1)·α + (N-1)/N·M/BW", "explainer 01 §6", NULL, NULL},
    {allgather_pat, log_half, "⌈log2 N⌉·α + (N-1)/N·M/BW", "explainer 01 App. A", NULL, NULL},
    {allgather_recursive_doubling, log_half, "⌈log2 N⌉·α + (N-1)/N·M/BW", "explainer 01 App. B.4", NULL, NULL},
    {allgather_torus_dimdecomp, torus_half, "Σ(d_i-1)·α + (N-1)/N·M/BW", "explainer 02 §3.5, §5.1", NULL, NULL},
    {allgather_inc, inc_half, "2k·α_switch + (N-1)/N·M/BW", "explainer 04 §1.4, §3.3", NULL, NULL},
    {reducescatter_ring, ring_half, "(N-1)·α + (N-1)/N·M/BW", "explainer 01 §6", NULL, NULL},
    {reducescatter_pat, log_half, "⌈log2 N⌉·α + (N-1)/N·M/BW", "explainer 01 App. A", NULL, NULL},
    {reducescatter_recursive_halving, log_half, "⌈log2 N⌉·α + (N-1)/N·M/BW", "explainer 01 App. B.4", NULL, NULL},
    {reducescatter_torus_dimdecomp, torus_half, "Σ(d_i-1)·α + (N-1)/N·M/BW", "explainer 02 §3.5, §5.1", NULL, NULL},
    {reducescatter_inc, inc_half, "2k·α_switch + (N-1)/N·M/BW", "explainer 04 §1.4, §3.3", NULL, NULL},
    {bcast_ring, ring_rooted, "(N+P-2)(α + M/(P·BW)) → (N-1)·α + M/BW", "explainer 01 §3.1, App. C.3", NULL, NULL},
    {bcast_binomial, binomial_rooted, "(L+P-1)(α + M/(P·BW)), L = ⌈log2 N⌉ → L·α + M/BW",
     "explainer 01 §3.2, App. C.3", NULL, NULL},
    {bcast_torus_dimdecomp, torus_rooted, "(L+P-1)(α + M/(P·BW)), L = Σ⌊d_i/2⌋ (mesh Σ(d_i-1)) → L·α + M/BW",
     "explainer 02 §3.2, §4.2; 01 App. C.3", NULL, NULL},
    {bcast_inc, inc_rooted, "(k+P-1)(α_switch + M/(P·BW)) → k·α_switch + M/BW", "explainer 04 §1.4, §3.3",
     "01 §3.3 counts two switch crossings, 2·α_switch + M/BW", NULL},
    {reduce_ring, ring_rooted, "(N+P-2)(α + M/(P·BW)) → (N-1)·α + M/BW", "explainer 01 §4.1, App. C.3", NULL, NULL},
    {reduce_binomial, binomial_rooted, "(L+P-1)(α + M/(P·BW)), L = ⌈log2 N⌉ → L·α + M/BW",
     "explainer 01 §4.2, App. C.3", NULL, NULL},
    {reduce_torus_dimdecomp, torus_rooted, "(L+P-1)(α + M/(P·BW)), L = Σ⌊d_i/2⌋ (mesh Σ(d_i-1)) → L·α + M/BW",
     "explainer 02 §3.3, §4.2; 01 App. C.3", NULL, NULL},
    {reduce_inc, inc_rooted, "(k+P-1)(α_switch + M/(P·BW)) → k·α_switch + M/BW", "explainer 04 §1.4, §3.3",
     "01 §4.3 counts two switch crossings, 2·α_switch + M/BW", NULL},
    {alltoall_pairwise, pairwise_a2a, "(N-1)·α + (N-1)/N·M/BW", "explainer 01 §7.2", NULL, NULL},
    {alltoall_ring_relay, pairwise_a2a, "(N-1)·α + (N-1)/N·M/BW", "explainer 01 §7.1", NULL, NULL},
    {alltoall_bruck, bruck_a2a, "⌈log2 N⌉·α + ⌈log2 N⌉/2·M/BW", "explainer 01 App. B.5", NULL, NULL},
    {alltoall_torus, torus_a2a, "diam·α + (d_max/8)·M/BW, diam = Σ⌊d_i/2⌋ (mesh: Σ(d_i-1), d_max/4)",
     "explainer 02 §3.6, §4.2", NULL, NULL},
    {alltoall_inc, inc_a2a, "2k·α_switch + (N-1)/N·M/BW", "explainer 04 §3.3",
     "04 §1.4 writes HW A2A's latency as ~α_switch", NULL},
    {sendrecv_direct, direct_p2p, "α + M/BW", "explainer 01 §8", NULL, NULL},
    {permutation_direct, direct_p2p, "α + M/BW, α of the slowest rank's path", "explainer 01 §8 (per rank)", NULL, NULL},
    /* predicted by composition (predict.c), not by a closed form of their own */
    {allreduce_hierarchical, NULL, NULL, NULL, NULL, "its parts' formulas at their tiers (explainer 03 §2.1)"},
    {allgather_hierarchical, NULL, NULL, NULL, NULL, "its parts' formulas at their tiers (explainer 03 §2.1)"},
    {reducescatter_hierarchical, NULL, NULL, NULL, NULL, "its parts' formulas at their tiers (explainer 03 §2.1)"},
    {alltoall_hierarchical, NULL, NULL, NULL, NULL, "a sum over destination classes (explainer 03 §2.2)"},
    {allreduce_hierarchical_pipelined, NULL, NULL, NULL, NULL, "its parts' formulas on P overlapped slices (03 §2.1, 01 App. C.3)"},
    {allgather_hierarchical_pipelined, NULL, NULL, NULL, NULL, "its parts' formulas on P overlapped slices (03 §2.1, 01 App. C.3)"},
    {reducescatter_hierarchical_pipelined, NULL, NULL, NULL, NULL,
     "its parts' formulas on P overlapped slices (03 §2.1, 01 App. C.3)"},
    {allreduce_tree, NULL, NULL, NULL, NULL, "chains in each node and a DBT over the nodes (predict.c's chained_tree)"},
};

const formula *formula_of(const algorithm *a)
{
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++)
        if (formulas[i].algorithm == a->build) return &formulas[i];
    return NULL;
}
