/* test_p2p_timing.c — one message over every kind of path takes exactly
 * alpha_path + M/BW under CM02 (SPEC §3), with alpha_path and BW written here
 * from the platform files and the seed's path classes, not read back from the
 * code; full-duplex links carry opposite transfers without slowdown; flows
 * sharing an oversubscribed uplink slow down as s says (explainer 03 §1). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

#define EXACT 1e-9

static const double sizes[] = {1e3, 1e6, 16e6, 1e9};

typedef struct path_case {
    const char *platform;
    int src, dst;     /* dst may be a switch node */
    double alpha_s;   /* latency the path should have */
    double bandwidth_Bps;
    const char *what;
} path_case;

static const path_case paths[] = {
    {"star-512", 0, 1, 0.5e-6, 900e9, "star: neighbours through the switch (02 §2)"},
    {"star-512", 0, 511, 0.5e-6, 900e9, "star: any pair is one hop"},
    {"star-512", 17, 512, 0.5e-6, 900e9, "star: rank -> INC switch leg = alpha_switch (04 §3)"},
    {"nvl72-star", 3, 72, 0.2e-6, 900e9, "NVL72: rank -> NVSwitch leg = alpha_switch 0.2 us"},
    {"nvl72-star", 3, 70, 0.5e-6, 900e9, "NVL72: rank -> rank"},
    {"torus-8x8x8", 0, 1, 0.5e-6, 900e9, "torus 8^3: neighbours"},
    {"torus-8x8x8", 0, 4 + 4 * 8 + 4 * 64, 12 * 0.5e-6, 900e9, "torus 8^3: farthest pair, 12 hops"},
    {"torus-8x8x8", 0, 7, 0.5e-6, 900e9, "torus 8^3: wraparound neighbour"},
    {"torus-4x4", 0, 2 + 2 * 4, 4 * 0.5e-6, 900e9, "torus 4x4: a -> k diameter, 4 hops (02 §3.6)"},
    {"torus-16x16x16", 0, 8 + 8 * 16 + 8 * 256, 24 * 0.5e-6, 900e9, "torus 16^3: farthest pair, 24 hops"},
    {"mesh-4x4", 0, 15, 6 * 0.5e-6, 900e9, "mesh 4x4: corner to corner, 6 hops"},
    {"mesh-4x4", 5, 6, 0.5e-6, 900e9, "mesh 4x4: neighbours"},
    {"mesh-4x4x4", 0, 63, 9 * 0.5e-6, 900e9, "mesh 4x4x4: corner to corner, 9 hops"},
    {"full-mesh-8", 0, 7, 0.5e-6, 900e9, "full mesh: any pair, 1 link"},
    {"full-mesh-8", 6, 2, 0.5e-6, 900e9, "full mesh: reverse direction"},
    {"clos-16", 0, 3, 2e-6, 50e9, "Clos-16: same leaf, alpha_leaf"},
    {"clos-16", 0, 15, 8e-6, 50e9, "Clos-16: across spines, alpha_spine"},
    {"fat-tree-k4", 0, 1, 2e-6, 50e9, "fat-tree: same edge"},
    {"fat-tree-k4", 0, 3, 8e-6, 50e9, "fat-tree: same pod, through aggregation"},
    {"fat-tree-k4", 0, 15, 12e-6, 50e9, "fat-tree: across pods, through core"},
    {"superpod-l32", 0, 71, 0.5e-6, 900e9, "SuperPOD: same pod over NVLink"},
    {"superpod-l32", 0, 72, 2e-6, 50e9, "SuperPOD: same rail, pods sharing a leaf"},
    {"superpod-l32", 0, 4 * 72, 8e-6, 50e9, "SuperPOD: same rail, across spines"},
    {"superpod-l32", 0, 73, 2.5e-6, 50e9, "SuperPOD: cross rail, same leaf group (NVLink + IB leaf)"},
    {"superpod-l32", 0, 2303, 8.5e-6, 50e9, "SuperPOD: cross rail across spines (farthest class)"},
    {"superpod-l2", 5, 72 + 70, 2.5e-6, 50e9, "SuperPOD L=2: cross rail, cross pod"},
};

START_TEST(test_point_to_point_takes_alpha_plus_m_over_bw)
{
    const path_case *p = &paths[_i];
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
    route_hop *first = route_buffer(&t), *other = route_buffer(&t);
    topology_route(&t, 0, 4, first);
    int same = -1, different = -1;
    for (int src = 1; src < 4; src++)
        for (int dst = 5; dst < 8; dst++) {
            topology_route(&t, src, dst, other);
            if (other[1].link == first[1].link && same < 0) same = src * 16 + dst;
            if (other[1].link != first[1].link && different < 0) different = src * 16 + dst;
        }
    free(first);
    free(other);
    ck_assert_msg(same >= 0 && different >= 0, "ECMP put every flow on one spine");
    const double size = 1e8, alpha = 8e-6, bw = 50e9;
    flow flows[2] = {{0, 4, size, 0}, {same / 16, same % 16, size, 0}};
    double finish[2];
    simulate_flows(&t, flows, 2, finish);
    for (int f = 0; f < 2; f++) ck_assert(relative_error(finish[f], alpha + 2 * size / bw) < EXACT);
    flows[1] = (flow){different / 16, different % 16, size, 0};
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
    tcase_add_loop_test(tc, test_point_to_point_takes_alpha_plus_m_over_bw, 0, (int)(sizeof paths / sizeof paths[0]));
    tcase_add_test(tc, test_opposite_transfers_share_no_bandwidth);
    tcase_add_test(tc, test_flows_sharing_an_oversubscribed_uplink_slow_down_by_s);
    tcase_add_test(tc, test_full_leaf_crossing_gets_bw_over_s);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
