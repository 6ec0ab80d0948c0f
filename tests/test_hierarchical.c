/* test_hierarchical.c — two-tier collectives (explainer 03 §2.1, §2.2):
 * composed schedules verified on data for several domain shapes and inner /
 * outer algorithms, and timed on a SuperPOD and on Clos fabrics against the
 * seed's composition t = t_inner + t_outer + t_inner, each term written here
 * from 01 §5.1 / §6 with its tier's (α, BW). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algo/algorithm.h"
#include "model/model.h"
#include "platform/inc_tree.h"
#include "sched/verify.h"
#include "test_support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const double sizes[] = {1e3, 1e6, 1e9};

/* 01 §5.1 ring AR; 01 §6 ring AG / RS (M = the collective's size on that tier) */
static double ring_ar(double n, double alpha, double bw, double m)
{
    return 2 * (n - 1) * alpha + 2 * (n - 1) / n * m / bw;
}

static double ring_ag(double n, double alpha, double bw, double m)
{
    return (n - 1) * alpha + (n - 1) / n * m / bw;
}

static schedule *build(const algorithm *a, int n, int d, const char *inner, const char *outer, char *why, int size)
{
    algo_params p = {.ranks = n, .domain_ranks = d, .inner = inner, .outer = outer};
    return algorithm_build(a, &p, why, size);
}

/* PRIM's hierarchical schedule over the shipped L = 2 SuperPOD (loaded into T):
 * 144 ranks, 72 per pod. */
static schedule *superpod_l2_hierarchical(primitive prim, topology *t)
{
    load_shipped("superpod-l2", t);
    char why[512] = "";
    schedule *s = build(algorithm_find(prim, "hierarchical"), 144, 72, NULL, NULL, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    return s;
}

static void verify_shapes(primitive prim, const char *inner, const char *outer)
{
    static const int shapes[][2] = {{4, 2}, {8, 4}, {6, 2}, {6, 3}, {16, 4}, {64, 8}, {144, 72}, {72, 8}};
    const algorithm *a = algorithm_find(prim, "hierarchical");
    ck_assert_ptr_nonnull(a);
    for (size_t i = 0; i < COUNT(shapes); i++) {
        char why[512] = "";
        schedule *s = build(a, shapes[i][0], shapes[i][1], inner, outer, why, sizeof why);
        ck_assert_msg(s != NULL, "%s hierarchical N = %d, D = %d refused: %s", primitive_name(prim), shapes[i][0],
                      shapes[i][1], why);
        ck_assert_msg(schedule_verify(s, why, sizeof why), "%s hierarchical N = %d, D = %d (%s/%s): %s",
                      primitive_name(prim), shapes[i][0], shapes[i][1], inner ? inner : "ring", outer ? outer : "ring", why);
        schedule_free(s);
    }
}

START_TEST(test_hierarchical_ring_on_ring_verifies)
{
    verify_shapes(PRIM_ALLREDUCE, NULL, NULL);
    verify_shapes(PRIM_ALLGATHER, NULL, NULL);
    verify_shapes(PRIM_REDUCESCATTER, NULL, NULL);
    verify_shapes(PRIM_ALLTOALL, NULL, NULL);
}
END_TEST

/* The tiers are parameters: any registered algorithm of the part's primitive. */
START_TEST(test_hierarchical_takes_other_inner_and_outer_algorithms)
{
    verify_shapes(PRIM_ALLREDUCE, NULL, "rabenseifner");
    verify_shapes(PRIM_ALLREDUCE, NULL, "recursive_doubling");
    algo_params p = {.ranks = 16, .domain_ranks = 4, .inner = "recursive_halving", .outer = "recursive_halving"};
    char why[512] = "";
    const algorithm *rs = algorithm_find(PRIM_REDUCESCATTER, "hierarchical");
    schedule *s = algorithm_build(rs, &p, why, sizeof why);
    ck_assert_msg(s && schedule_verify(s, why, sizeof why), "RS recursive_halving inner: %s", why);
    schedule_free(s);
    p.inner = p.outer = "recursive_doubling";
    s = algorithm_build(algorithm_find(PRIM_ALLGATHER, "hierarchical"), &p, why, sizeof why);
    ck_assert_msg(s && schedule_verify(s, why, sizeof why), "AG recursive_doubling inner: %s", why);
    schedule_free(s);
}
END_TEST

START_TEST(test_hierarchical_refuses_single_tier_groups_and_unknown_tiers)
{
    char why[512] = "";
    const algorithm *a = algorithm_find(PRIM_ALLREDUCE, "hierarchical");
    ck_assert_ptr_null(build(a, 16, 0, NULL, NULL, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "two-tier"));
    ck_assert_ptr_null(build(a, 16, 5, NULL, NULL, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "two-tier"));
    ck_assert_ptr_null(build(a, 16, 4, "pairwise", NULL, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "inner"));
    /* recursive halving needs a power-of-two domain: the part's refusal is passed on */
    ck_assert_ptr_null(build(algorithm_find(PRIM_REDUCESCATTER, "hierarchical"), 12, 3, "recursive_halving", NULL, why,
                             sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "power-of-two"));
}
END_TEST

/* 03 §2.1 case study: NVL72 + IB, L = 2 pods sharing their rail leaves, so the
 * outer tier is α_leaf = 2 us at 50 GB/s; inner NVLink 0.5 us at 900 GB/s. */
START_TEST(test_hierarchical_allreduce_superpod_matches_composition)
{
    topology t;
    schedule *s = superpod_l2_hierarchical(PRIM_ALLREDUCE, &t);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = ring_ag(72, 0.5e-6, 900e9, sizes[m]) + ring_ar(2, 2e-6, 50e9, sizes[m] / 72) +
                          ring_ag(72, 0.5e-6, 900e9, sizes[m]);
        expect_time(&t, s, sizes[m], expected, "hierarchical AR, SuperPOD L = 2");
    }
    /* the seed's rounded total at M = 16 MB: "≈ 114 μs" */
    double at16 = 2 * ring_ag(72, 0.5e-6, 900e9, 16e6) + ring_ar(2, 2e-6, 50e9, 16e6 / 72);
    ck_assert_msg(fabs(at16 * 1e6 - 114) < 1, "03 §2.1 case study total %.2f us", at16 * 1e6);
    schedule_free(s);
    topology_free(&t);
}
END_TEST

/* AG: outer AG of the M/N slices, then inner AG; RS mirrors it. */
START_TEST(test_hierarchical_allgather_reducescatter_superpod_match_composition)
{
    topology t;
    load_shipped("superpod-l2", &t);
    primitive prims[] = {PRIM_ALLGATHER, PRIM_REDUCESCATTER};
    for (size_t k = 0; k < COUNT(prims); k++) {
        char why[512] = "";
        schedule *s = build(algorithm_find(prims[k], "hierarchical"), 144, 72, NULL, NULL, why, sizeof why);
        ck_assert_ptr_nonnull(s);
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double expected = ring_ag(2, 2e-6, 50e9, sizes[m] / 72) + ring_ag(72, 0.5e-6, 900e9, sizes[m]);
            expect_time(&t, s, sizes[m], expected, primitive_name(prims[k]));
        }
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* A Clos with one rank per leaf port: the outer tier crosses the spines, and
 * with oversubscription s the D concurrent outer rings of a leaf share its
 * uplinks (D·BW/s), each at BW/s: 03 §2.1 "multiply the BW term by s". */
START_TEST(test_hierarchical_allreduce_clos_pays_oversubscription_on_outer_tier)
{
    static const double oversubscription[] = {1, 2, 4};
    for (size_t i = 0; i < COUNT(oversubscription); i++) {
        char yaml[256];
        snprintf(yaml, sizeof yaml,
                 "kind: clos\nleaves: 4\nranks_per_leaf: 4\nspines: 2\noversubscription: %g\nrouting: spread\n"
                 "alpha_leaf: 2us\nalpha_spine: 8us\nbandwidth: 50GBps\n", oversubscription[i]);
        topology t;
        load_text(yaml, &t);
        char why[512] = "";
        schedule *s = build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), 16, 4, NULL, NULL, why, sizeof why);
        ck_assert_ptr_nonnull(s);
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double expected = 2 * ring_ag(4, 2e-6, 50e9, sizes[m]) +
                              ring_ar(4, 8e-6, 50e9 / oversubscription[i], sizes[m] / 4);
            expect_time(&t, s, sizes[m], expected, "hierarchical AR on a Clos");
        }
        schedule_free(s);
        topology_free(&t);
    }
}
END_TEST

/* 03 §2.2, single-GPU-endpoint Clos: t = (D-1)(α_leaf + (M/N)/BW) +
 * (N-D)(α_spine + (M/N)/BW) at s = 1. */
START_TEST(test_hierarchical_alltoall_clos_matches_destination_weighted_sum)
{
    topology t;
    load_text("kind: clos\nleaves: 4\nranks_per_leaf: 4\nspines: 2\noversubscription: 1\nrouting: spread\n"
              "alpha_leaf: 2us\nalpha_spine: 8us\nbandwidth: 50GBps\n", &t);
    char why[512] = "";
    schedule *s = build(algorithm_find(PRIM_ALLTOALL, "hierarchical"), 16, 4, NULL, NULL, why, sizeof why);
    ck_assert_ptr_nonnull(s);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double per_peer = sizes[m] / 16 / 50e9;
        expect_time(&t, s, sizes[m], 3 * (2e-6 + per_peer) + 12 * (8e-6 + per_peer), "hierarchical A2A on a Clos");
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST


/* 03 §2.2 on the L = 2 SuperPOD: each rank's 71 pod peers at α_nvlink, its
 * 18 same-rail peers of the other pod at α_leaf and its 54 cross-rail ones
 * relayed over NVLink first (α_nvlink + α_leaf), each send M/N at its tier's
 * BW; the prediction's destination classes carry the same route α. */
START_TEST(test_hierarchical_alltoall_superpod_pays_each_route)
{
    topology t;
    schedule *s = superpod_l2_hierarchical(PRIM_ALLTOALL, &t);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double block = sizes[m] / 144;
        double expected = 71 * (0.5e-6 + block / 900e9) + 18 * (2e-6 + block / 50e9) + 54 * (2.5e-6 + block / 50e9);
        expect_simulated(&t, s, NULL, sizes[m], NULL, expected, "hierarchical A2A on the L = 2 SuperPOD");
        model_case c = {.platform = &t, .prim = PRIM_ALLTOALL, .algorithm = algorithm_find(PRIM_ALLTOALL, "hierarchical"), .ranks = 144,
                        .size_bytes = sizes[m]};
        prediction p;
        char why[256];
        ck_assert_msg(model_predict(&c, &p, why, sizeof why), "%s", why);
        ck_assert_msg(relative_error(p.time_s, expected) < 1e-9, "predicted %.17g, derived %.17g", p.time_s, expected);
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST

/* ---- real systems: subset groups, inc parts, pipelined variants ---- */

/* inc_tree_fn for verification: one switch above each sub-group, a node of
 * its own (the data path does not depend on where it sits). */
static bool one_switch_each(const void *context, const int *ranks, int n, unsigned capabilities, inc_tree *out,
                            char *why, int why_size)
{
    (void)context, (void)ranks, (void)capabilities, (void)why, (void)why_size;
    inc_tree_single_switch(out, n, 1000 + ranks[0]);
    return true;
}

/* inc_tree_fn on a platform: the group rank is the platform rank. */
static bool platform_tree(const void *context, const int *ranks, int n, unsigned capabilities, inc_tree *out, char *why,
                          int why_size)
{
    return inc_tree_build(context, ranks, n, capabilities, out, why, why_size);
}

static void verify_one(primitive prim, const char *name, const algo_params *p)
{
    char why[512] = "";
    schedule *s = algorithm_build(algorithm_find(prim, name), p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s %s N = %d D = %d refused: %s", primitive_name(prim), name, p->ranks, p->domain_ranks, why);
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s %s N = %d D = %d P = %d (%s/%s): %s", primitive_name(prim),
                  name, p->ranks, p->domain_ranks, p->segments, p->inner ? p->inner : "ring", p->outer ? p->outer : "ring",
                  why);
    schedule_free(s);
}

/* P slices of every shape, with ring and inc parts (each sub-group its own
 * switch), compute their primitive. */
START_TEST(test_hierarchical_pipelined_and_inc_parts_verify)
{
    static const int shapes[][2] = {{4, 2}, {8, 4}, {6, 3}, {16, 4}, {64, 8}, {72, 8}, {8, 1}};
    static const int slices[] = {1, 3, 8};
    static const char *const parts[][2] = {{NULL, NULL}, {"inc", NULL}, {NULL, "inc"}, {"inc", "inc"}};
    static const primitive prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER};
    for (size_t i = 0; i < COUNT(shapes); i++)
        for (size_t k = 0; k < COUNT(prims); k++)
            for (size_t j = 0; j < COUNT(parts); j++) {
                algo_params p = {.ranks = shapes[i][0], .domain_ranks = shapes[i][1], .inner = parts[j][0],
                                 .outer = parts[j][1], .inc_tree_of = one_switch_each};
                verify_one(prims[k], "hierarchical", &p);
                for (size_t c = 0; c < COUNT(slices); c++) {
                    p.segments = slices[c];
                    verify_one(prims[k], "hierarchical_pipelined", &p);
                }
            }
}
END_TEST

/* A group whose positions are not in rank order (strided TP / DP groups):
 * position g·D + q holds group rank q·L + g. */
START_TEST(test_hierarchical_takes_groups_in_any_domain_order)
{
    static const primitive prims[] = {PRIM_ALLREDUCE, PRIM_ALLGATHER, PRIM_REDUCESCATTER, PRIM_ALLTOALL};
    int order[64];
    for (int g = 0; g < 8; g++)
        for (int q = 0; q < 8; q++) order[g * 8 + q] = q * 8 + g;
    for (size_t k = 0; k < COUNT(prims); k++) {
        algo_params p = {.ranks = 64, .domain_ranks = 8, .domain_order = order, .segments = 2};
        verify_one(prims[k], "hierarchical", &p);
        if (prims[k] != PRIM_ALLTOALL) verify_one(prims[k], "hierarchical_pipelined", &p);
    }
    algo_params p = {.ranks = 16, .domain_ranks = -1};
    char why[512] = "";
    ck_assert_ptr_null(algorithm_build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), &p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "evenly"));
    p = (algo_params){.ranks = 16, .domain_ranks = 4, .inner = "inc"};
    /* no trees offered */
    ck_assert_ptr_null(algorithm_build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), &p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "inner"));
}
END_TEST

/* Two pods of 8 GPUs, 4 rails, one leaf per rail (inline: efficiency 1). */
static const char *const two_pods = "kind: nvl72_superpod\npods: 2\ngpus_per_pod: 8\nrails: 4\npods_per_leaf: 2\n"
                                    "nvlink: {alpha: 0.5us, bandwidth: 900GBps, alpha_switch: 0.2us, inc: [reduce, multicast]}\n"
                                    "ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps, alpha_switch: 0.5us, "
                                    "inc: [reduce, multicast]}\n";

static double ring_rs(double n, double alpha, double bw, double m)
{
    return ring_ag(n, alpha, bw, m);
}

/* Pipelined AR of P slices (01 App. C.3 with unequal stages): each part, on
 * connections of its own, takes τ_i for a slice of M/P; the inner RS and AG
 * share the NVLink ports' bandwidth, not their latency.  The conveyor takes
 * Σ τ_i + (P-1)·max(τ_RS, τ_AR, τ_AG, β_RS + β_AG). */
/* The composition `run` generates (composition_generated.c) holds every op
 * of the stored and sealed one, each field and dependency: every
 * primitive, ring parts and others, domains in rank order and shuffled.
 * Parts the generator does not compute (chunk range lists: PAT past two
 * ranks) are stored. */
START_TEST(test_hierarchical_generated_equals_stored)
{
    static const int shapes[][2] = {{4, 2}, {6, 3}, {16, 4}, {72, 8}, {144, 72}};
    static const struct {
        primitive prim;
        const char *inner, *outer;
        bool generated; /* always: ring parts */
    } kinds[] = {{PRIM_ALLREDUCE, NULL, NULL, true},
                 {PRIM_ALLGATHER, NULL, NULL, true},
                 {PRIM_REDUCESCATTER, NULL, NULL, true},
                 {PRIM_ALLREDUCE, NULL, "rabenseifner", true},
                 {PRIM_ALLREDUCE, NULL, "recursive_doubling", true},
                 {PRIM_ALLGATHER, "pat", NULL, false}};
    int order[144];
    for (size_t k = 0; k < COUNT(kinds); k++)
        for (size_t i = 0; i < COUNT(shapes); i++)
            for (int shuffled = 0; shuffled < 2; shuffled++) {
                int n = shapes[i][0];
                for (int position = 0; position < n; position++) order[position] = (position * 5 + 1) % n;
                algo_params p = {.ranks = n, .domain_ranks = shapes[i][1], .domain_order = shuffled ? order : NULL,
                                 .inner = kinds[k].inner, .outer = kinds[k].outer};
                const algorithm *a = algorithm_find(kinds[k].prim, "hierarchical");
                char why[512] = "", what[160];
                snprintf(what, sizeof what, "%s hierarchical %s/%s, N = %d, D = %d%s", primitive_name(kinds[k].prim),
                         kinds[k].inner ? kinds[k].inner : "ring", kinds[k].outer ? kinds[k].outer : "ring", n,
                         shapes[i][1], shuffled ? ", shuffled" : "");
                schedule *stored = algorithm_build(a, &p, why, sizeof why);
                if (!stored) continue; /* a part refusing the shape (PAT: powers of two) */
                schedule *generated = algorithm_generate(a, &p, why, sizeof why);
                ck_assert_msg(generated != NULL, "%s: %s", what, why);
                schedule_seal(stored);
                ck_assert_msg(generated->generator || !kinds[k].generated, "%s: stored", what);
                if (generated->generator) expect_generated_equals_stored(generated, stored, what);
                /* the size `run` counts for it: the generated one's ops (the executor's state for
                 * each), plus its parts stored once, at most the stored composition's items; a
                 * stored one is estimated as `verify` estimates it */
                double ops = 0, items = 0, estimated = algorithm_schedule_size(a, &p);
                for (int actor = 0; actor < stored->actors; actor++) {
                    ops += stored->actor[actor].op_count;
                    items += stored->actor[actor].op_count + stored->actor[actor].dep_count +
                             stored->actor[actor].range_count;
                }
                p.generated = true;
                double counted = algorithm_schedule_size(a, &p);
                if (generated->generator)
                    ck_assert_msg(counted >= ops && counted <= ops + items, "%s: run counts %.0f items for %.0f ops "
                                  "(%.0f items stored)", what, counted, ops, items);
                else
                    ck_assert_msg(counted == estimated, "%s: stored, counted %.0f, estimated %.0f", what, counted,
                                  estimated);
                schedule_free(stored);
                schedule_free(generated);
            }
}
END_TEST

START_TEST(test_hierarchical_pipelined_allreduce_superpod_matches_conveyor)
{
    topology t;
    load_text(two_pods, &t);
    static const int slice_counts[] = {1, 4, 8};
    for (size_t c = 0; c < COUNT(slice_counts); c++) {
        algo_params p = {.ranks = 16, .domain_ranks = 8, .segments = slice_counts[c]};
        char why[512] = "";
        schedule *s = algorithm_build(algorithm_find(PRIM_ALLREDUCE, "hierarchical_pipelined"), &p, why, sizeof why);
        ck_assert_msg(s != NULL, "%s", why);
        ck_assert_int_eq(s->segments, slice_counts[c]);
        double slices = slice_counts[c];
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double slice = sizes[m] / slices;
            double rs = ring_rs(8, 0.5e-6, 900e9, slice), ar = ring_ar(2, 2e-6, 50e9, slice / 8),
                   ag = ring_ag(8, 0.5e-6, 900e9, slice);
            double nvlink_beta = 2 * (7.0 / 8) * slice / 900e9;
            double pace = fmax(fmax(rs, ar), fmax(ag, nvlink_beta));
            double expected = rs + ar + ag + (slices - 1) * pace;
            expect_simulated(&t, s, NULL, sizes[m], NULL, expected, "pipelined hierarchical AR");
            model_case mc = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "hierarchical_pipelined"), .ranks = 16,
                             .size_bytes = sizes[m], .segments = slice_counts[c]};
            prediction pr;
            ck_assert(model_predict(&mc, &pr, why, sizeof why));
            ck_assert_msg(relative_error(pr.time_s, expected) < 1e-9, "predicted %.17g, derived %.17g (P = %d, M = %g)",
                          pr.time_s, expected, slice_counts[c], sizes[m]);
        }
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* Pipelined AG (outer AG of M/D, then inner AG of M) and RS (inner RS, then
 * outer RS), P = 4: two stages on two tiers, Σ τ_i + (P-1)·max τ_i. */
START_TEST(test_hierarchical_pipelined_allgather_reducescatter_match_conveyor)
{
    topology t;
    load_text(two_pods, &t);
    algo_params p = {.ranks = 16, .domain_ranks = 8, .segments = 4};
    char why[512] = "";
    schedule *ag = algorithm_build(algorithm_find(PRIM_ALLGATHER, "hierarchical_pipelined"), &p, why, sizeof why);
    schedule *rs = algorithm_build(algorithm_find(PRIM_REDUCESCATTER, "hierarchical_pipelined"), &p, why, sizeof why);
    ck_assert(ag && rs);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double slice = sizes[m] / 4, outer = ring_ag(2, 2e-6, 50e9, slice / 8), inner = ring_ag(8, 0.5e-6, 900e9, slice);
        double expected = outer + inner + 3 * fmax(outer, inner);
        expect_simulated(&t, ag, NULL, sizes[m], NULL, expected, "pipelined hierarchical AG");
        expect_simulated(&t, rs, NULL, sizes[m], NULL, expected, "pipelined hierarchical RS");
    }
    schedule_free(ag);
    schedule_free(rs);
    topology_free(&t);
}
END_TEST

/* A DP-style group of 8 across 4 pods: platform ranks 0, 2, 8, 10, 16, 18,
 * 24, 26 (two per pod, the same local indices, so each position is one rail):
 * D = 2, L = 4, the outer rings at alpha_leaf. */
START_TEST(test_hierarchical_subset_group_matches_composition)
{
    topology t;
    load_text("kind: nvl72_superpod\npods: 4\ngpus_per_pod: 8\nrails: 4\npods_per_leaf: 4\n"
              "nvlink: {alpha: 0.5us, bandwidth: 900GBps}\nib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}\n",
              &t);
    int members[8] = {0, 8, 16, 24, 2, 10, 18, 26}, order[8];
    ck_assert_int_eq(topology_group_domains(&t, members, 8, order), 2);
    algo_params p = {.ranks = 8, .domain_ranks = 2, .domain_order = order};
    char why[512] = "";
    schedule *s = algorithm_build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), &p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert(schedule_verify(s, why, sizeof why));
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = ring_rs(2, 0.5e-6, 900e9, sizes[m]) + ring_ar(4, 2e-6, 50e9, sizes[m] / 2) +
                          ring_ag(2, 0.5e-6, 900e9, sizes[m]);
        expect_simulated(&t, s, members, sizes[m], NULL, expected, "subset group");
        model_case mc = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "hierarchical"), .ranks = 8,
                         .members = members, .size_bytes = sizes[m]};
        prediction pr;
        ck_assert(model_predict(&mc, &pr, why, sizeof why));
        ck_assert_msg(relative_error(pr.time_s, expected) < 1e-9, "subset group, M = %g: predicted %.17g, derived %.17g",
                      sizes[m], pr.time_s, expected);
    }
    schedule_free(s);
    int uneven[3] = {0, 1, 8};
    ck_assert_int_eq(topology_group_domains(&t, uneven, 3, NULL), -1);
    topology_free(&t);
}
END_TEST

/* A rail cluster of MI300X-like nodes (xgmi: a full mesh, one link per GPU
 * pair at 64 GB/s x 0.75, alpha 0.6 us; a 400 Gb/s NIC per GPU, alpha_leaf
 * 2.7 us): a flow inside a node gets one link's rate, not the node's 7
 * links.  The seed's ring AR (01 §5.1) on its schedule's slowest hop: a
 * node-crossing hop relays over one xGMI link to the destination's rail,
 * alpha 0.6 + 2.7 us at the narrower of 48 and 50 GB/s. */
static const char xgmi_cluster[] = "kind: rail_cluster\nnodes: %d\ngpus_per_node: 8\n"
                                   "xgmi: {alpha: 0.6us, bandwidth: 64GBps, efficiency: 0.75}\n"
                                   "network: {alpha_leaf: 2.7us, bandwidth: 400Gbps}\n";

static void load_xgmi_cluster(int nodes, topology *t)
{
    char text[512];
    snprintf(text, sizeof text, xgmi_cluster, nodes);
    load_text(text, t);
}

/* The analytic model's time for algorithm NAME of PRIM over T's whole platform (seed form, no protocol). */
static double predicted(const topology *t, primitive prim, const char *name, double size_bytes)
{
    char why[512] = "";
    model_case mc = {.platform = t, .prim = prim, .algorithm = algorithm_find(prim, name), .ranks = t->ranks,
                     .size_bytes = size_bytes};
    prediction pr;
    ck_assert_msg(model_predict(&mc, &pr, why, sizeof why), "%s", why);
    return pr.time_s;
}

START_TEST(test_ring_allreduce_on_xgmi_cluster_matches_formula)
{
    topology t;
    load_xgmi_cluster(2, &t);
    char why[512] = "";
    algo_params p = {.ranks = 16};
    schedule *flat = allreduce_ring(&p, why, sizeof why);
    p.ranks = 8;
    schedule *node = allreduce_ring(&p, why, sizeof why);
    ck_assert(flat && node);
    int second_node[8] = {8, 9, 10, 11, 12, 13, 14, 15};
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double across = ring_ar(16, 0.6e-6 + 2.7e-6, 48e9, sizes[m]), inside = ring_ar(8, 0.6e-6, 48e9, sizes[m]);
        expect_simulated(&t, flat, NULL, sizes[m], NULL, across, "ring AR over 2 xGMI nodes");
        expect_simulated(&t, node, second_node, sizes[m], NULL, inside, "ring AR inside one xGMI node");
        ck_assert_msg(relative_error(predicted(&t, PRIM_ALLREDUCE, "ring", sizes[m]), across) < 1e-9,
                      "ring AR over 2 xGMI nodes, M = %g: the model is not the formula", sizes[m]);
    }
    schedule_free(flat);
    schedule_free(node);
    topology_free(&t);
}
END_TEST

/* Inner RS and AG on each node's ring of xGMI links, the outer AR on the
 * rails' NICs (group ranks of one local index share a rail): 03 §2.1's
 * composition with each tier's own (alpha, BW). */
START_TEST(test_hierarchical_allreduce_on_xgmi_cluster_matches_composition)
{
    topology t;
    load_xgmi_cluster(2, &t);
    char why[512] = "";
    schedule *s = build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), 16, 8, NULL, NULL, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = 2 * ring_ag(8, 0.6e-6, 48e9, sizes[m]) + ring_ar(2, 2.7e-6, 50e9, sizes[m] / 8);
        expect_simulated(&t, s, NULL, sizes[m], NULL, expected, "hierarchical AR over 2 xGMI nodes");
        ck_assert_msg(relative_error(predicted(&t, PRIM_ALLREDUCE, "hierarchical", sizes[m]), expected) < 1e-9,
                      "hierarchical AR over 2 xGMI nodes, M = %g: the model is not the composition", sizes[m]);
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST

/* One xGMI node is platforms/mi300x-8.yaml's full mesh: the same ring AR
 * takes the same time on both, simulated and predicted. */
START_TEST(test_one_node_xgmi_cluster_is_the_mi300x_full_mesh)
{
    topology node, mesh;
    load_xgmi_cluster(1, &node);
    load_shipped("mi300x-8", &mesh);
    char why[512] = "";
    algo_params p = {.ranks = 8};
    schedule *s = allreduce_ring(&p, why, sizeof why);
    ck_assert(s != NULL);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double on_mesh = simulate_schedule(&mesh, s, NULL, sizes[m], NULL, NULL);
        ck_assert_msg(relative_error(on_mesh, ring_ar(8, 0.6e-6, 48e9, sizes[m])) < 1e-9, "mi300x-8, M = %g", sizes[m]);
        expect_simulated(&node, s, NULL, sizes[m], NULL, on_mesh, "ring AR on one xGMI node against mi300x-8");
        ck_assert_msg(relative_error(predicted(&node, PRIM_ALLREDUCE, "ring", sizes[m]),
                                     predicted(&mesh, PRIM_ALLREDUCE, "ring", sizes[m])) < 1e-12,
                      "one xGMI node and mi300x-8 predict apart at M = %g", sizes[m]);
    }
    schedule_free(s);
    topology_free(&node);
    topology_free(&mesh);
}
END_TEST

/* NVLS intra-pod + IB SHARP (03 §3.1): inner RS and AG by the pod's
 * NVSwitch, outer AR by the rail leaf, P = 4 segments each.  On one switch
 * an AR flow is a two-stage pipeline, (P+1)(α_switch + M/(P·BW)); an RS / AG
 * of N concurrent slice flows is (P+1)α_switch + (N-1)/N·M/BW + M/(N·P·BW)
 * (test_inc.c derives both). */
START_TEST(test_hierarchical_nvls_and_sharp_parts_match_composition)
{
    topology t;
    load_text(two_pods, &t);
    algo_params p = {.ranks = 16, .domain_ranks = 8, .segments = 4, .inner = "inc", .outer = "inc",
                     .inc_tree_of = platform_tree, .inc_context = &t};
    char why[512] = "";
    schedule *s = algorithm_build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), &p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    ck_assert_int_eq(s->actors - s->ranks, 2 * 8 * 1 + 2 * 8 * 1 + 8 * 1); /* RS, AG: 8 flows per pod; AR: a flow per rail pair */
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double nvls = 5 * 0.2e-6 + 7.0 / 8 * sizes[m] / 900e9 + sizes[m] / (8 * 4 * 900e9);
        double sharp = 5 * (0.5e-6 + sizes[m] / 8 / (4 * 50e9));
        /* fluid only: each NVSwitch's concurrent slice flows share its ports (test_inc.c) */
        expect_simulated_in(NETWORK_CM02, &t, s, NULL, sizes[m], NULL, 2 * nvls + sharp, "NVLS + SHARP hierarchical AR");
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("hierarchical");
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_hierarchical_ring_on_ring_verifies);
    tcase_add_test(verify, test_hierarchical_takes_other_inner_and_outer_algorithms);
    tcase_add_test(verify, test_hierarchical_refuses_single_tier_groups_and_unknown_tiers);
    tcase_add_test(verify, test_hierarchical_pipelined_and_inc_parts_verify);
    tcase_add_test(verify, test_hierarchical_takes_groups_in_any_domain_order);
    tcase_add_test(verify, test_hierarchical_generated_equals_stored);
    tcase_set_timeout(verify, 120);
    suite_add_tcase(suite, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 60);
    tcase_add_test(timing, test_hierarchical_allreduce_superpod_matches_composition);
    tcase_add_test(timing, test_hierarchical_allgather_reducescatter_superpod_match_composition);
    tcase_add_test(timing, test_hierarchical_allreduce_clos_pays_oversubscription_on_outer_tier);
    tcase_add_test(timing, test_hierarchical_alltoall_clos_matches_destination_weighted_sum);
    tcase_add_test(timing, test_hierarchical_alltoall_superpod_pays_each_route);
    tcase_add_test(timing, test_hierarchical_pipelined_allreduce_superpod_matches_conveyor);
    tcase_add_test(timing, test_hierarchical_pipelined_allgather_reducescatter_match_conveyor);
    tcase_add_test(timing, test_hierarchical_subset_group_matches_composition);
    tcase_add_test(timing, test_hierarchical_nvls_and_sharp_parts_match_composition);
    tcase_add_test(timing, test_ring_allreduce_on_xgmi_cluster_matches_formula);
    tcase_add_test(timing, test_hierarchical_allreduce_on_xgmi_cluster_matches_composition);
    tcase_add_test(timing, test_one_node_xgmi_cluster_is_the_mi300x_full_mesh);
    suite_add_tcase(suite, timing);
    return run_suite(suite);
}
