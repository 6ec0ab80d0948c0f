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

typedef schedule *(*builder)(const algo_params *p, char *why, int why_size);
/* Seed time in seconds for N ranks, M bytes, P segments. */
typedef double (*formula)(double n, double m, double p);

static const int group_sizes[] = {2, 3, 4, 5, 7, 8, 16, 64, 72};
static const int timed_ranks[] = {4, 16, 64};
static const double timed_sizes[] = {1e3, 1e6, 1e9};
static const double alpha = 0.5e-6, bw = 900e9;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void verify_one(builder build, const algo_params *p, const char *name)
{
    char why[512] = "";
    schedule *s = build(p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, p->ranks, why);
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s, N = %d, root %d, P = %d: %s", name, p->ranks, p->root,
                  p->segments, why);
    schedule_free(s);
}

/* Verify at every group size; sizes that are not powers of two must be
 * refused with a message saying so when POWER_OF_TWO_ONLY. */
static void verify_group_sizes(builder build, const char *name, bool power_of_two_only)
{
    for (size_t i = 0; i < COUNT(group_sizes); i++) {
        algo_params p = {.ranks = group_sizes[i]};
        if (power_of_two_only && !is_power_of_two(p.ranks)) {
            char why[512] = "";
            ck_assert_msg(build(&p, why, sizeof why) == NULL, "%s accepted N = %d", name, p.ranks);
            ck_assert_msg(strstr(why, "power-of-two") != NULL, "%s: unclear refusal: %s", name, why);
            continue;
        }
        verify_one(build, &p, name);
    }
}

/* Chains: every root position and segment count matters to the rotation. */
static void verify_chain(builder build, const char *name)
{
    static const int segment_counts[] = {0, 1, 3, 9};
    for (size_t i = 0; i < COUNT(group_sizes); i++) {
        int n = group_sizes[i];
        int roots[] = {0, n / 2, n - 1};
        for (size_t r = 0; r < COUNT(roots); r++)
            for (size_t k = 0; k < COUNT(segment_counts); k++) {
                algo_params p = {.ranks = n, .root = roots[r], .segments = segment_counts[k]};
                verify_one(build, &p, name);
            }
    }
}

/* Simulate on "kind: star" with N ranks and compare with EXPECTED.  SIZE_SCALE
 * converts the seed's M into the executor's size_bytes (the whole chunk grid). */
static void time_one(builder build, const char *name, const algo_params *p, double size_scale, formula expected_time)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\n", p->ranks);
    topology t;
    load_text(yaml, &t);
    char why[512] = "";
    schedule *s = build(p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s refused N = %d: %s", name, p->ranks, why);
    for (size_t m = 0; m < COUNT(timed_sizes); m++) {
        char what[128];
        snprintf(what, sizeof what, "%s, N = %d, P = %d", name, p->ranks, s->segments);
        expect_time(&t, s, timed_sizes[m] * size_scale, expected_time(p->ranks, timed_sizes[m], s->segments), what);
    }
    schedule_free(s);
    topology_free(&t);
}

static void time_at_timed_ranks(builder build, const char *name, formula expected_time)
{
    for (size_t r = 0; r < COUNT(timed_ranks); r++) {
        algo_params p = {.ranks = timed_ranks[r]};
        time_one(build, name, &p, 1, expected_time);
    }
}

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
    verify_chain(bcast_ring, "ring broadcast");
}
END_TEST

START_TEST(test_ring_reduce_verifies_for_every_root_and_segment_count)
{
    verify_chain(reduce_ring, "ring reduce");
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
    time_at_timed_ranks(allgather_ring, "ring all-gather", ring_ag_rs_time);
}
END_TEST

START_TEST(test_ring_reducescatter_star_matches_formula)
{
    time_at_timed_ranks(reducescatter_ring, "ring reduce-scatter", ring_ag_rs_time);
}
END_TEST

/* M is each rank's total payload (SPEC §4, 01 §7: M/N per destination). */
START_TEST(test_pairwise_alltoall_star_matches_formula)
{
    for (size_t r = 0; r < COUNT(timed_ranks); r++) {
        algo_params p = {.ranks = timed_ranks[r]};
        time_one(alltoall_pairwise, "pairwise all-to-all", &p, 1, ring_ag_rs_time);
    }
}
END_TEST

static void time_chain(builder build, const char *name)
{
    for (size_t r = 0; r < COUNT(timed_ranks); r++) {
        int segment_counts[] = {0, 1, 5};
        for (size_t k = 0; k < COUNT(segment_counts); k++) {
            algo_params p = {.ranks = timed_ranks[r], .root = 1, .segments = segment_counts[k]};
            time_one(build, name, &p, 1, chain_time);
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
    time_at_timed_ranks(allreduce_recursive_doubling, "recursive-doubling all-reduce", recursive_doubling_ar_time);
}
END_TEST

START_TEST(test_rabenseifner_allreduce_star_matches_formula)
{
    time_at_timed_ranks(allreduce_rabenseifner, "Rabenseifner all-reduce", rabenseifner_time);
}
END_TEST

START_TEST(test_recursive_doubling_allgather_star_matches_formula)
{
    time_at_timed_ranks(allgather_recursive_doubling, "recursive-doubling all-gather", recursive_doubling_ag_rs_time);
}
END_TEST

START_TEST(test_recursive_halving_reducescatter_star_matches_formula)
{
    time_at_timed_ranks(reducescatter_recursive_halving, "recursive-halving reduce-scatter",
                        recursive_doubling_ag_rs_time);
}
END_TEST

START_TEST(test_folded_allreduce_butterflies_star_match_fold_formula)
{
    algo_params p = {.ranks = 72};
    time_one(allreduce_recursive_doubling, "folded recursive-doubling AR", &p, 1, folded_recursive_doubling_time);
    time_one(allreduce_rabenseifner, "folded Rabenseifner AR", &p, 1, folded_rabenseifner_time);
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
    suite_add_tcase(s, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 600);
    tcase_add_test(timing, test_ring_allgather_star_matches_formula);
    tcase_add_test(timing, test_ring_reducescatter_star_matches_formula);
    tcase_add_test(timing, test_pairwise_alltoall_star_matches_formula);
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
