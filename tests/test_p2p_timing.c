/* test_p2p_timing.c — one message over every kind of path takes exactly
 * alpha_path + M/BW under CM02 (docs/platforms.md), with alpha_path and BW written in
 * test_support.c from the platform files and the seed's path classes, not
 * read back from the code; full-duplex links carry opposite transfers without slowdown; flows
 * sharing an oversubscribed uplink slow down as s says (explainer 03 §1). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

#define EXACT 1e-9

static const double sizes[] = {1e3, 1e6, 16e6, 1e9};

START_TEST(test_point_to_point_takes_alpha_plus_m_over_bw)
{
    const path_case *p = &path_cases[_i];
    topology t;
    load_shipped(p->platform, &t);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        double expected = p->alpha_s + sizes[s] / p->bandwidth_Bps;
        double simulated = simulate_one(&t, p->src, p->dst, sizes[s]);
        ck_assert_msg(relative_error(simulated, expected) < EXACT, "%s, M = %g: simulated %.17g, expected %.17g",
                      p->what, sizes[s], simulated, expected);
    }
    topology_free(&t);
}
END_TEST

START_TEST(test_opposite_transfers_share_no_bandwidth)
{
    static const struct { const char *platform; int a, b; double alpha_s, bandwidth_Bps; } cases[] = {
        {"star-512", 0, 1, 0.5e-6, 900e9}, {"torus-4x4", 0, 1, 0.5e-6, 900e9}, {"clos-16", 0, 12, 8e-6, 50e9},
        {"full-mesh-8", 2, 5, 0.5e-6, 900e9}, {"superpod-l2", 0, 72, 2e-6, 50e9}};
    const double size = 1e9;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        topology t;
        load_shipped(cases[c].platform, &t);
        flow flows[2] = {{cases[c].a, cases[c].b, size, 0}, {cases[c].b, cases[c].a, size, 0}};
        double finish[2];
        simulate_flows(&t, flows, 2, finish);
        double one = cases[c].alpha_s + size / cases[c].bandwidth_Bps;
        for (int f = 0; f < 2; f++)
            ck_assert_msg(relative_error(finish[f], one) < EXACT, "%s: opposite flow %d took %.17g, alone %.17g",
                          cases[c].platform, f, finish[f], one);
        topology_free(&t);
    }
}
END_TEST

/* Two flows leaf 0 -> leaf 1 on one leaf-spine link of clos-16 (4 x 50 GB/s / s=2
 * / 2 spines = 50 GB/s per link): each gets half, so M/BW doubles; on
 * different spines they do not interfere. */
START_TEST(test_flows_sharing_an_oversubscribed_uplink_slow_down_by_s)
{
    topology t;
    load_shipped("clos-16", &t);
    flow same, different; /* hop 1: leaf 0's uplink */
    ck_assert_msg(find_flow_by_hop(&t, 0, 4, 1, 1, 3, 5, 7, true, &same) &&
                  find_flow_by_hop(&t, 0, 4, 1, 1, 3, 5, 7, false, &different), "ECMP put every flow on one spine");
    const double size = 1e8, alpha = 8e-6, bw = 50e9;
    flow flows[2] = {{0, 4, size, 0}, {same.src, same.dst, size, 0}};
    double finish[2];
    simulate_flows(&t, flows, 2, finish);
    for (int f = 0; f < 2; f++) ck_assert(relative_error(finish[f], alpha + 2 * size / bw) < EXACT);
    flows[1] = (flow){different.src, different.dst, size, 0};
    simulate_flows(&t, flows, 2, finish);
    for (int f = 0; f < 2; f++) ck_assert(relative_error(finish[f], alpha + size / bw) < EXACT);
    topology_free(&t);
}
END_TEST

/* All four ranks of a leaf send across at once under ideal (spread) routing:
 * the leaf's uplinks carry 4 x BW / s in total, so each flow gets BW / s. */
START_TEST(test_full_leaf_crossing_gets_bw_over_s)
{
    static const double oversubscription[] = {1, 2, 4};
    const double size = 1e8, alpha = 8e-6, bw = 50e9;
    for (int k = 0; k < 3; k++) {
        char yaml[512];
        snprintf(yaml, sizeof yaml,
                 "kind: clos\nleaves: 4\nranks_per_leaf: 4\nspines: 2\noversubscription: %g\nrouting: spread\n"
                 "alpha_leaf: 2us\nalpha_spine: 8us\nbandwidth: 50GBps\n", oversubscription[k]);
        topology t;
        load_text(yaml, &t);
        flow flows[4];
        for (int i = 0; i < 4; i++) flows[i] = (flow){i, 4 + i, size, 0};
        double finish[4];
        simulate_flows(&t, flows, 4, finish);
        double expected = alpha + oversubscription[k] * size / bw; /* 05 §4.2: eta_beta = 1/s */
        for (int i = 0; i < 4; i++)
            ck_assert_msg(relative_error(finish[i], expected) < EXACT, "s = %g: flow %d took %.17g, expected %.17g",
                          oversubscription[k], i, finish[i], expected);
        topology_free(&t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("p2p_timing");
    TCase *tc = tcase_create("timing");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_point_to_point_takes_alpha_plus_m_over_bw, 0, path_case_count);
    tcase_add_test(tc, test_opposite_transfers_share_no_bandwidth);
    tcase_add_test(tc, test_flows_sharing_an_oversubscribed_uplink_slow_down_by_s);
    tcase_add_test(tc, test_full_leaf_crossing_gets_bw_over_s);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
