/* test_algorithms_extra.c — the algorithms of explainer 01 §3.1, §4.1, §6,
 * §7.2 and App. B.1, B.2, B.4 (src/algo/algorithms_extra.h): each schedule
 * verified on data at N = 2..72 (or its refusal checked), and each timed on a
 * star against the seed formula written here, to a relative 1e-9. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/rank_math.h"
#include "exec/executor.h"
#include "sched/verify.h"
#include "test_support.h"

static const double alpha = STAR_ALPHA_S, bw = STAR_BANDWIDTH_BPS;

/* 01 §6: ring AG / RS; 01 §7.2: pairwise A2A */
static double ring_ag_rs_time(double n, double m, double p)
{
    (void)p;
    return (n - 1) * alpha + (n - 1) / n * m / bw;
}

/* 01 §3.1, §4.1 (App. C.3 with L = N-1) */
static double chain_time(double n, double m, double p)
{
    return (n + p - 2) * (alpha + m / (p * bw));
}

/* 01 App. B.1 */
static double recursive_doubling_ar_time(double n, double m, double p)
{
    (void)p;
    return log2(n) * (alpha + m / bw);
}

/* 01 App. B.2 */
static double rabenseifner_time(double n, double m, double p)
{
    (void)p;
    return 2 * log2(n) * alpha + 2 * (n - 1) / n * m / bw;
}

/* 01 App. B.4 */
static double recursive_doubling_ag_rs_time(double n, double m, double p)
{
    (void)p;
    return log2(n) * alpha + (n - 1) / n * m / bw;
}

/* The [TRG05] fold (01 App. B.3: "2 extra alpha hops plus an asymmetric BW
 * term"): one full-vector step in, the butterfly on the largest power of two
 * P2 <= N, one full-vector step out.  Derived here, not a seed formula. */
static double folded_recursive_doubling_time(double n, double m, double p)
{
    return recursive_doubling_ar_time(pow(2, floor(log2(n))), m, p) + 2 * (alpha + m / bw);
}

static double folded_rabenseifner_time(double n, double m, double p)
{
    return rabenseifner_time(pow(2, floor(log2(n))), m, p) + 2 * (alpha + m / bw);
}

START_TEST(test_ring_allgather_verifies)
{
    verify_group_sizes(allgather_ring, "ring all-gather", false);
}
END_TEST

START_TEST(test_ring_reducescatter_verifies)
{
    verify_group_sizes(reducescatter_ring, "ring reduce-scatter", false);
}
END_TEST

START_TEST(test_pairwise_alltoall_verifies)
{
    verify_group_sizes(alltoall_pairwise, "pairwise all-to-all", false);
}
END_TEST

START_TEST(test_ring_bcast_verifies_for_every_root_and_segment_count)
{
    verify_roots_and_segments(bcast_ring, "ring broadcast");
}
END_TEST

START_TEST(test_ring_reduce_verifies_for_every_root_and_segment_count)
{
    verify_roots_and_segments(reduce_ring, "ring reduce");
}
END_TEST

START_TEST(test_recursive_doubling_allreduce_verifies_folding_other_sizes)
{
    verify_group_sizes(allreduce_recursive_doubling, "recursive-doubling all-reduce", false);
}
END_TEST

START_TEST(test_rabenseifner_allreduce_verifies_folding_other_sizes)
{
    verify_group_sizes(allreduce_rabenseifner, "Rabenseifner all-reduce", false);
}
END_TEST

START_TEST(test_recursive_doubling_allgather_verifies_or_refuses)
{
    verify_group_sizes(allgather_recursive_doubling, "recursive-doubling all-gather", true);
}
END_TEST

START_TEST(test_recursive_halving_reducescatter_verifies_or_refuses)
{
    verify_group_sizes(reducescatter_recursive_halving, "recursive-halving reduce-scatter", true);
}
END_TEST

START_TEST(test_chains_refuse_a_root_outside_the_group)
{
    algo_params p = {.ranks = 4, .root = 4};
    char why[256] = "";
    ck_assert_ptr_null(bcast_ring(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "root"));
    ck_assert_ptr_null(reduce_ring(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "root"));
}
END_TEST

START_TEST(test_ring_allgather_star_matches_formula)
{
    expect_star_times_at_timed_ranks(allgather_ring, "ring all-gather", ring_ag_rs_time);
}
END_TEST

START_TEST(test_ring_reducescatter_star_matches_formula)
{
    expect_star_times_at_timed_ranks(reducescatter_ring, "ring reduce-scatter", ring_ag_rs_time);
}
END_TEST

/* M is each rank's total payload (docs/algorithms.md, 01 §7: M/N per destination). */
START_TEST(test_pairwise_alltoall_star_matches_formula)
{
    expect_star_times_at_timed_ranks(alltoall_pairwise, "pairwise all-to-all", ring_ag_rs_time);
}
END_TEST

/* Group sizes of the seed's tables for the ring family and pairwise: also 72 (one
 * NVL72 domain) and 512 (explainer 04 §3's star). */
START_TEST(test_ring_ag_rs_and_pairwise_star_match_formula_at_72_and_512)
{
    static const int ranks[] = {72, 512};
    for (int r = 0; r < 2; r++) {
        algo_params p = {.ranks = ranks[r]};
        expect_star_times(allgather_ring, &p, ring_ag_rs_time, "ring all-gather");
        expect_star_times(reducescatter_ring, &p, ring_ag_rs_time, "ring reduce-scatter");
        expect_star_times(alltoall_pairwise, &p, ring_ag_rs_time, "pairwise all-to-all");
    }
}
END_TEST

static void time_chain(schedule_builder build, const char *name)
{
    for (int r = 0; r < 3; r++) {
        int segment_counts[] = {0, 1, 5};
        for (int k = 0; k < 3; k++) {
            algo_params p = {.ranks = timed_group_sizes[r], .root = 1, .segments = segment_counts[k]};
            expect_star_times(build, &p, chain_time, name);
        }
    }
}

START_TEST(test_ring_bcast_star_matches_formula)
{
    time_chain(bcast_ring, "ring broadcast");
}
END_TEST

START_TEST(test_ring_reduce_star_matches_formula)
{
    time_chain(reduce_ring, "ring reduce");
}
END_TEST

START_TEST(test_recursive_doubling_allreduce_star_matches_formula)
{
    expect_star_times_at_timed_ranks(allreduce_recursive_doubling, "recursive-doubling all-reduce", recursive_doubling_ar_time);
}
END_TEST

START_TEST(test_rabenseifner_allreduce_star_matches_formula)
{
    expect_star_times_at_timed_ranks(allreduce_rabenseifner, "Rabenseifner all-reduce", rabenseifner_time);
}
END_TEST

START_TEST(test_recursive_doubling_allgather_star_matches_formula)
{
    expect_star_times_at_timed_ranks(allgather_recursive_doubling, "recursive-doubling all-gather", recursive_doubling_ag_rs_time);
}
END_TEST

START_TEST(test_recursive_halving_reducescatter_star_matches_formula)
{
    expect_star_times_at_timed_ranks(reducescatter_recursive_halving, "recursive-halving reduce-scatter",
                        recursive_doubling_ag_rs_time);
}
END_TEST

START_TEST(test_folded_allreduce_butterflies_star_match_fold_formula)
{
    algo_params p = {.ranks = 72};
    expect_star_times(allreduce_recursive_doubling, &p, folded_recursive_doubling_time, "folded recursive-doubling AR");
    expect_star_times(allreduce_rabenseifner, &p, folded_rabenseifner_time, "folded Rabenseifner AR");
}
END_TEST

/* Ops, chunk ranges and dependencies a schedule really holds. */
static double schedule_items(const schedule *s)
{
    double items = 0;
    for (int a = 0; a < s->actors; a++) items += s->actor[a].op_count + s->actor[a].range_count + s->actor[a].dep_count;
    return items;
}

/* Build A for P (when it accepts it) and hold its size under the bound
 * checked before building (docs/reliability.md). */
static void expect_size_bounded(const algorithm *a, const algo_params *p)
{
    char why[512];
    schedule *s = algorithm_build(a, p, why, sizeof why);
    if (!s) return;
    double items = schedule_items(s), bound = algorithm_schedule_size(a, p);
    ck_assert_msg(items <= bound, "%s %s, N = %d, segments %d: %.0f items above the bound %.0f", a->name,
                  primitive_name(a->prim), p->ranks, p->segments, items, bound);
    schedule_free(s);
}

START_TEST(test_schedule_size_bound_holds_for_every_algorithm)
{
    static const int ranks[] = {2, 3, 4, 5, 8, 12, 16, 31, 64};
    static const int segments[] = {0, 1, 5, 64, SEGMENTS_AUTO};
    static const double sizes[] = {1e3, 1e6, 1e9};
    topology clos; /* a two-level INC tree: leaf, then spine (explainer 04 §2) */
    load_text("kind: clos\nleaves: 4\nranks_per_leaf: 4\nspines: 2\nalpha_leaf: 1us\nalpha_spine: 3us\n"
              "bandwidth: 50GBps\nalpha_switch: 0.5us\ninc: [reduce, multicast, a2a]\n", &clos);
    int members[16];
    for (int i = 0; i < 16; i++) members[i] = i;
    int count;
    const algorithm *table = algorithm_table(&count);
    for (int k = 0; k < count; k++)
        for (size_t n = 0; n < sizeof ranks / sizeof ranks[0]; n++)
            for (size_t g = 0; g < sizeof segments / sizeof segments[0]; g++)
                for (size_t m = 0; m < sizeof sizes / sizeof sizes[0]; m++) {
                    int r = ranks[n];
                    algo_params p = {.ranks = r, .segments = segments[g], .size_bytes = sizes[m], .alpha_s = alpha,
                                     .bandwidth_Bps = bw, .domain_ranks = r % 4 == 0 && r > 4 ? 4 : 1, .peer = 1,
                                     .dims = {r}, .dim_count = 1, .tiers = 1};
                    if (r == 16 || r == 64) { /* a 2-D and a 3-D torus shape as well */
                        algo_params q = p;
                        q.dims[0] = 4;
                        q.dims[1] = r / 4;
                        q.dim_count = 2;
                        expect_size_bounded(&table[k], &q);
                    }
                    unsigned capabilities = algorithm_inc_capabilities(&table[k]);
                    inc_tree tree;
                    if (capabilities) {
                        inc_tree_single_switch(&tree, r, r);
                        p.inc = &tree;
                    }
                    expect_size_bounded(&table[k], &p);
                    if (!capabilities) continue;
                    inc_tree_free(&tree);
                    char why[256];
                    if (r != 16 || !inc_tree_build(&clos, members, 16, capabilities, &tree, why, sizeof why)) continue;
                    p.tiers = clos.tier_count;
                    expect_size_bounded(&table[k], &p);
                    inc_tree_free(&tree);
                }
    static const char *const parts[] = {"ring", "dbt", "binomial", "recursive_doubling"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (size_t g = 0; g < sizeof segments / sizeof segments[0]; g++) {
            algo_params p = {.ranks = 64, .segments = segments[g], .size_bytes = 1e9, .alpha_s = alpha, .bandwidth_Bps = bw,
                             .domain_ranks = 8, .inner = parts[i], .outer = parts[i]};
            expect_size_bounded(algorithm_find(PRIM_ALLREDUCE, "hierarchical"), &p);
        }
    topology_free(&clos);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("algorithms_extra");
    TCase *verify = tcase_create("verify");
    tcase_set_timeout(verify, 300);
    tcase_add_test(verify, test_ring_allgather_verifies);
    tcase_add_test(verify, test_ring_reducescatter_verifies);
    tcase_add_test(verify, test_pairwise_alltoall_verifies);
    tcase_add_test(verify, test_ring_bcast_verifies_for_every_root_and_segment_count);
    tcase_add_test(verify, test_ring_reduce_verifies_for_every_root_and_segment_count);
    tcase_add_test(verify, test_recursive_doubling_allreduce_verifies_folding_other_sizes);
    tcase_add_test(verify, test_rabenseifner_allreduce_verifies_folding_other_sizes);
    tcase_add_test(verify, test_recursive_doubling_allgather_verifies_or_refuses);
    tcase_add_test(verify, test_recursive_halving_reducescatter_verifies_or_refuses);
    tcase_add_test(verify, test_chains_refuse_a_root_outside_the_group);
    tcase_add_test(verify, test_schedule_size_bound_holds_for_every_algorithm);
    suite_add_tcase(s, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 600);
    tcase_add_test(timing, test_ring_allgather_star_matches_formula);
    tcase_add_test(timing, test_ring_reducescatter_star_matches_formula);
    tcase_add_test(timing, test_pairwise_alltoall_star_matches_formula);
    tcase_add_test(timing, test_ring_ag_rs_and_pairwise_star_match_formula_at_72_and_512);
    tcase_add_test(timing, test_ring_bcast_star_matches_formula);
    tcase_add_test(timing, test_ring_reduce_star_matches_formula);
    tcase_add_test(timing, test_recursive_doubling_allreduce_star_matches_formula);
    tcase_add_test(timing, test_rabenseifner_allreduce_star_matches_formula);
    tcase_add_test(timing, test_recursive_doubling_allgather_star_matches_formula);
    tcase_add_test(timing, test_recursive_halving_reducescatter_star_matches_formula);
    tcase_add_test(timing, test_folded_allreduce_butterflies_star_match_fold_formula);
    suite_add_tcase(s, timing);
    return run_suite(s);
}
