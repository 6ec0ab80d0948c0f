/* test_inc.c — in-network collectives (explainer 04 §1): switch actors that
 * reduce and multicast, verified on data over one-switch and two-level trees,
 * and timed on an INC star against the pipelined forms derived here from
 * 01 App. C.3, whose P -> ∞ limits are 04 §2.1's 2α_switch + M/BW. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "model/model.h"
#include "platform/platform.h"
#include "sched/verify.h"
#include "test_support.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const int group_sizes[] = {2, 3, 4, 5, 7, 8, 16, 64, 72};
static const double sizes[] = {1e3, 1e6, 1e9};
static const double alpha_switch = 0.2e-6, bw = 900e9;

static schedule *build_inc(primitive prim, const inc_tree *tree, int n, int root, int segments, char *why, int size)
{
    algo_params p = {.ranks = n, .root = root, .segments = segments, .inc = tree};
    return algorithm_find(prim, "inc")->build(&p, why, size);
}

static void verify_tree(primitive prim, const inc_tree *tree, int n, const char *shape)
{
    static const int segment_counts[] = {0, 1, 3};
    int roots[] = {0, n / 2, n - 1};
    for (size_t r = 0; r < COUNT(roots); r++)
        for (size_t k = 0; k < COUNT(segment_counts); k++) {
            char why[512] = "";
            schedule *s = build_inc(prim, tree, n, roots[r], segment_counts[k], why, sizeof why);
            ck_assert_msg(s != NULL, "inc %s refused N = %d: %s", primitive_name(prim), n, why);
            ck_assert_msg(schedule_verify(s, why, sizeof why), "inc %s, %s, N = %d, root %d, P = %d: %s",
                          primitive_name(prim), shape, n, roots[r], segment_counts[k], why);
            schedule_free(s);
        }
}

static const primitive tree_prims[] = {PRIM_ALLREDUCE, PRIM_REDUCE, PRIM_BCAST, PRIM_ALLGATHER, PRIM_REDUCESCATTER};

START_TEST(test_inc_verifies_on_one_switch)
{
    for (size_t i = 0; i < COUNT(group_sizes); i++) {
        inc_tree tree;
        inc_tree_single_switch(&tree, group_sizes[i], group_sizes[i]);
        for (size_t p = 0; p < COUNT(tree_prims); p++) verify_tree(tree_prims[p], &tree, group_sizes[i], "one switch");
        inc_tree_free(&tree);
    }
}
END_TEST

/* A Clos's tree (rank -> leaf -> spine 0), built by the platform. */
static void load_inc_clos(topology *t, double oversubscription)
{
    char yaml[320];
    snprintf(yaml, sizeof yaml,
             "kind: clos\nleaves: 4\nranks_per_leaf: 4\nspines: 2\noversubscription: %g\nrouting: spread\n"
             "alpha_leaf: 2us\nalpha_spine: 8us\nbandwidth: 50GBps\nalpha_switch: 0.3us\ninc: [reduce, multicast]\n",
             oversubscription);
    load_text(yaml, t);
}

static void clos_tree(const topology *t, inc_tree *tree)
{
    int members[16];
    for (int i = 0; i < 16; i++) members[i] = i;
    char why[256] = "";
    ck_assert_msg(inc_tree_build(t, members, 16, INC_REDUCE | INC_MULTICAST, tree, why, sizeof why), "%s", why);
}

START_TEST(test_inc_verifies_on_a_two_level_clos_tree)
{
    topology t;
    load_inc_clos(&t, 1);
    inc_tree tree;
    clos_tree(&t, &tree);
    ck_assert_int_eq(tree.switches, 5); /* 4 leaves + 1 spine */
    ck_assert_int_eq(tree.depth, 2);
    for (size_t p = 0; p < COUNT(tree_prims); p++) verify_tree(tree_prims[p], &tree, 16, "Clos tree");
    inc_tree_free(&tree);
    topology_free(&t);
}
END_TEST

static void star_with_inc(topology *t, int n, const char *inc)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\nalpha_switch: 0.2us\ninc: [%s]\n",
             n, inc);
    load_text(yaml, t);
}

/* Time PRIM on a 16-rank INC star at each segment count against EXPECTED(n, m, p). */
static void time_on_star(primitive prim, const int *segment_counts, int count, double (*expected)(double, double, double))
{
    int n = 16;
    topology t;
    star_with_inc(&t, n, "reduce, multicast");
    inc_tree tree;
    inc_tree_single_switch(&tree, n, n);
    for (int i = 0; i < count; i++) {
        char why[256] = "";
        schedule *s = build_inc(prim, &tree, n, 3, segment_counts[i], why, sizeof why);
        ck_assert_msg(s != NULL, "%s", why);
        for (size_t m = 0; m < COUNT(sizes); m++)
            expect_time(&t, s, sizes[m], expected(n, sizes[m], segment_counts[i]), primitive_name(prim));
        schedule_free(s);
    }
    inc_tree_free(&tree);
    topology_free(&t);
}

/* AR / BC / Reduce on one switch: two legs (rank -> switch, switch -> rank),
 * each slot α_switch + M/(P·BW): 01 App. C.3 with L = 2. */
static double two_stage_pipeline(double n, double m, double p)
{
    (void)n;
    return (p + 1) * (alpha_switch + m / (p * bw));
}

START_TEST(test_inc_allreduce_bcast_reduce_star_match_two_stage_pipeline)
{
    static const int segment_counts[] = {1, 4, 16};
    time_on_star(PRIM_ALLREDUCE, segment_counts, 3, two_stage_pipeline);
    time_on_star(PRIM_BCAST, segment_counts, 3, two_stage_pipeline);
    time_on_star(PRIM_REDUCE, segment_counts, 3, two_stage_pipeline);
}
END_TEST

/* AG (RS): one flow per slice.  The owner's push (the switch's delivery) of
 * a segment of M/(N·P) is one stream; the other side carries N-1 concurrent
 * streams, so its slots are α_switch + (N-1)·M/(N·P·BW) and bound the
 * pipeline: t = (P+1)α_switch + (N-1)/N·M/BW + M/(N·P·BW). */
static double concurrent_flows(double n, double m, double p)
{
    return (p + 1) * alpha_switch + (n - 1) / n * m / bw + m / (n * p * bw);
}

START_TEST(test_inc_allgather_reducescatter_star_match_concurrent_flows)
{
    static const int segment_counts[] = {1, 4};
    time_on_star(PRIM_ALLGATHER, segment_counts, 2, concurrent_flows);
    time_on_star(PRIM_REDUCESCATTER, segment_counts, 2, concurrent_flows);
}
END_TEST

/* HW A2A (04 §1.3): every block in flight at once; one path α (the star's
 * rank-to-rank α = 0.5 us), (N-1)/N·M/BW through each port. */
START_TEST(test_inc_alltoall_star_pays_one_alpha)
{
    int n = 16;
    topology t;
    star_with_inc(&t, n, "a2a");
    inc_tree tree;
    inc_tree_single_switch(&tree, n, n);
    char why[256] = "";
    schedule *s = build_inc(PRIM_ALLTOALL, &tree, n, 0, 0, why, sizeof why);
    ck_assert_ptr_nonnull(s);
    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s", why);
    for (size_t m = 0; m < COUNT(sizes); m++)
        expect_time(&t, s, sizes[m], 0.5e-6 + (n - 1.0) / n * sizes[m] / bw, "inc all-to-all");
    schedule_free(s);
    inc_tree_free(&tree);
    topology_free(&t);
}
END_TEST

/* One stage of the tree: the route's latency plus a segment at the route's
 * narrowest bandwidth, read from the platform independently of the executor. */
static double stage(const topology *t, int a, int b, double segment_bytes)
{
    route_hop *hops = route_buffer(t);
    int count = topology_route(t, a, b, hops);
    double time = route_latency(t, hops, count) + segment_bytes / route_bandwidth(t, hops, count);
    free(hops);
    return time;
}

/* Two levels: rank -> leaf -> spine -> leaf -> rank, a 4-stage flow shop of
 * identical segments: t = Σ τ_i + (P-1)·max τ_i. */
START_TEST(test_inc_allreduce_clos_matches_four_stage_pipeline)
{
    static const int segment_counts[] = {1, 4};
    topology t;
    load_inc_clos(&t, 2);
    inc_tree tree;
    clos_tree(&t, &tree);
    int leaf = tree.switch_node[tree.rank_parent[0]], spine = tree.switch_node[tree.switch_parent[tree.rank_parent[0]]];
    for (size_t i = 0; i < COUNT(segment_counts); i++) {
        char why[256] = "";
        schedule *s = build_inc(PRIM_ALLREDUCE, &tree, 16, 0, segment_counts[i], why, sizeof why);
        ck_assert_ptr_nonnull(s);
        double p = segment_counts[i];
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double seg = sizes[m] / p;
            double tau[4] = {stage(&t, 0, leaf, seg), stage(&t, leaf, spine, seg), stage(&t, spine, leaf, seg),
                             stage(&t, leaf, 0, seg)};
            double total = 0, slowest = 0;
            for (int k = 0; k < 4; k++) {
                total += tau[k];
                slowest = fmax(slowest, tau[k]);
            }
            expect_time(&t, s, sizes[m], total + (p - 1) * slowest, "inc AR on a Clos tree");
        }
        schedule_free(s);
    }
    inc_tree_free(&tree);
    topology_free(&t);
}
END_TEST

START_TEST(test_inc_refuses_fabrics_without_a_capable_tree)
{
    int members[144];
    for (int i = 0; i < 144; i++) members[i] = i;
    char why[256] = "";
    inc_tree tree;
    topology t;
    load_shipped("torus-4x4", &t);
    ck_assert(!inc_tree_build(&t, members, 16, INC_REDUCE, &tree, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "no switches"));
    topology_free(&t);
    load_shipped("superpod-l2", &t); /* rails are separate trees */
    ck_assert(!inc_tree_build(&t, members, 144, INC_REDUCE, &tree, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "rail"));
    topology_free(&t);
    star_with_inc(&t, 8, "multicast");
    ck_assert(!inc_tree_build(&t, members, 8, INC_REDUCE | INC_MULTICAST, &tree, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "reduction"));
    topology_free(&t);
    ck_assert_ptr_null(build_inc(PRIM_ALLREDUCE, NULL, 8, 0, 0, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "inc"));
}
END_TEST


/* Real systems (docs/algorithms.md, inc): a multi-pod SuperPOD offers two aggregation planes.  A group in
 * one pod is aggregated by its pod's NVSwitch (NVLS); a group of one GPU
 * position across pods by that position's rail leaf (IB SHARP); a group
 * spanning pods and rails has no common switch. */
START_TEST(test_inc_runs_in_each_pod_and_on_each_rail_of_a_superpod)
{
    topology t;
    load_text("kind: nvl72_superpod\npods: 4\ngpus_per_pod: 8\nrails: 4\npods_per_leaf: 2\nspines_per_rail: 2\n"
              "nvlink: {alpha: 0.5us, bandwidth: 900GBps, alpha_switch: 0.2us, inc: [reduce, multicast]}\n"
              "ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps, alpha_switch: 0.5us, inc: [reduce, multicast]}\n",
              &t);
    int pod[8], rail[4] = {5, 13, 21, 29}, leaf[2] = {5, 13}, mixed[3] = {0, 1, 8};
    for (int i = 0; i < 8; i++) pod[i] = 16 + i;
    inc_tree tree;
    char why[256] = "", name[48];
    ck_assert_msg(inc_tree_build(&t, pod, 8, INC_REDUCE | INC_MULTICAST, &tree, why, sizeof why), "%s", why);
    topology_node_name(&t, tree.switch_node[0], name, sizeof name);
    ck_assert_str_eq(name, "nvswitch2");
    ck_assert_int_eq(tree.depth, 1);
    ck_assert_int_eq(tree.root_tier, 0);
    ck_assert_double_eq_tol(tree.alpha_switch_s, 0.2e-6, 1e-18);
    inc_tree_free(&tree);
    ck_assert_msg(inc_tree_build(&t, leaf, 2, INC_REDUCE, &tree, why, sizeof why), "%s", why);
    topology_node_name(&t, tree.switch_node[0], name, sizeof name);
    ck_assert_str_eq(name, "rail1_leaf0"); /* local index 5 of 4 rails: rail 1; pods 0 and 1 share leaf 0 */
    ck_assert_int_eq(tree.depth, 1);
    ck_assert_int_eq(tree.root_tier, 1);
    inc_tree_free(&tree);
    ck_assert_msg(inc_tree_build(&t, rail, 4, INC_REDUCE, &tree, why, sizeof why), "%s", why);
    ck_assert_int_eq(tree.depth, 2); /* GPU -> rail leaf -> rail spine */
    ck_assert_int_eq(tree.root_tier, 2);
    ck_assert_double_eq_tol(tree.alpha_switch_s, 0.5e-6, 1e-18);
    ck_assert_double_eq_tol(tree.bandwidth_Bps, 50e9, 1e-3);
    inc_tree_free(&tree);
    ck_assert(!inc_tree_build(&t, mixed, 3, INC_REDUCE, &tree, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "hierarchical"));
    topology_free(&t);
}
END_TEST

/* The INC prediction pays the α_switch of the tier the tree climbs to: two
 * GPUs of one rail in two pods reduce in their rail leaf, each leg at the IB
 * tier's α_switch (0.5 us, not NVLink's 0.2 us): the simulation's two-stage
 * pipeline (P+1)(α_switch + M/(P·BW)) is the prediction, η_α = 1. */
START_TEST(test_inc_prediction_pays_the_alpha_switch_of_the_tree_it_climbs)
{
    topology t;
    load_text("kind: nvl72_superpod\npods: 2\ngpus_per_pod: 8\nrails: 4\npods_per_leaf: 2\n"
              "nvlink: {alpha: 0.5us, bandwidth: 900GBps, alpha_switch: 0.2us, inc: [reduce, multicast]}\n"
              "ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps, alpha_switch: 0.5us, inc: [reduce, multicast]}\n",
              &t);
    int members[2] = {3, 11};
    inc_tree tree;
    char why[256] = "";
    ck_assert_msg(inc_tree_build(&t, members, 2, INC_REDUCE | INC_MULTICAST, &tree, why, sizeof why), "%s", why);
    schedule *s = build_inc(PRIM_ALLREDUCE, &tree, 2, 0, 4, why, sizeof why);
    ck_assert_ptr_nonnull(s);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = 5 * (0.5e-6 + sizes[m] / (4 * 50e9));
        expect_simulated(&t, s, members, sizes[m], NULL, expected, "INC AR in a rail leaf");
        model_case c = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "inc"), .ranks = 2, .members = members,
                        .size_bytes = sizes[m], .segments = 4};
        prediction p;
        ck_assert(model_predict(&c, &p, why, sizeof why));
        ck_assert_msg(relative_error(p.time_s, expected) < 1e-9, "predicted %.17g, derived %.17g", p.time_s, expected);
    }
    schedule_free(s);
    inc_tree_free(&tree);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("inc");
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_inc_verifies_on_one_switch);
    tcase_add_test(verify, test_inc_verifies_on_a_two_level_clos_tree);
    tcase_add_test(verify, test_inc_refuses_fabrics_without_a_capable_tree);
    tcase_add_test(verify, test_inc_runs_in_each_pod_and_on_each_rail_of_a_superpod);
    suite_add_tcase(suite, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 60);
    tcase_add_test(timing, test_inc_allreduce_bcast_reduce_star_match_two_stage_pipeline);
    tcase_add_test(timing, test_inc_allgather_reducescatter_star_match_concurrent_flows);
    tcase_add_test(timing, test_inc_alltoall_star_pays_one_alpha);
    tcase_add_test(timing, test_inc_allreduce_clos_matches_four_stage_pipeline);
    tcase_add_test(timing, test_inc_prediction_pays_the_alpha_switch_of_the_tree_it_climbs);
    suite_add_tcase(suite, timing);
    return run_suite(suite);
}
