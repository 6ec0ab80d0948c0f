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
    return a->build(&p, why, size);
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
    schedule *s = rs->build(&p, why, sizeof why);
    ck_assert_msg(s && schedule_verify(s, why, sizeof why), "RS recursive_halving inner: %s", why);
    schedule_free(s);
    p.inner = p.outer = "recursive_doubling";
    s = algorithm_find(PRIM_ALLGATHER, "hierarchical")->build(&p, why, sizeof why);
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
    load_shipped("superpod-l2", &t);
    char why[512] = "";
    schedule *s = build(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), 144, 72, NULL, NULL, why, sizeof why);
    ck_assert_ptr_nonnull(s);
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

int main(void)
{
    Suite *suite = suite_create("hierarchical");
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_hierarchical_ring_on_ring_verifies);
    tcase_add_test(verify, test_hierarchical_takes_other_inner_and_outer_algorithms);
    tcase_add_test(verify, test_hierarchical_refuses_single_tier_groups_and_unknown_tiers);
    suite_add_tcase(suite, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 60);
    tcase_add_test(timing, test_hierarchical_allreduce_superpod_matches_composition);
    tcase_add_test(timing, test_hierarchical_allgather_reducescatter_superpod_match_composition);
    tcase_add_test(timing, test_hierarchical_allreduce_clos_pays_oversubscription_on_outer_tier);
    tcase_add_test(timing, test_hierarchical_alltoall_clos_matches_destination_weighted_sum);
    suite_add_tcase(suite, timing);
    return run_suite(suite);
}
