/* test_platforms.c — structure of every platform kind against the seed texts:
 * counts, diameters, bisection, neighbour rule, and per-class path latency
 * (route by route, no simulation). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static int switches_in_tier(const topology *t, const char *tier)
{
    int count = 0;
    for (int s = 0; s < t->switch_count; s++) count += strcmp(t->tiers[t->switches[s].tier].name, tier) == 0;
    return count;
}

static int physical_links(const topology *t)
{
    int n = 0;
    for (int l = 0; l < t->link_count; l++) n += !t->links[l].latency_only;
    return n;
}

/* Longest route, in physical links, over every ordered rank pair. */
static int brute_force_diameter(const topology *t)
{
    route_hop *hops = route_buffer(t);
    int longest = 0;
    for (int a = 0; a < t->ranks; a++)
        for (int b = 0; b < t->ranks; b++) {
            int n = topology_route(t, a, b, hops);
            ck_assert_int_ge(n, a == b ? 0 : 1);
            int links = route_physical_links(t, hops, n);
            if (links > longest) longest = links;
        }
    free(hops);
    return longest;
}

static double path_latency(const topology *t, int a, int b)
{
    route_hop *hops = route_buffer(t);
    int n = topology_route(t, a, b, hops);
    ck_assert_int_gt(n, 0);
    double latency = route_latency(t, hops, n);
    free(hops);
    return latency;
}

/* explainer 02 App. B.4 and §3.6 */
START_TEST(test_torus_8x8x8_has_diameter_12_and_bisection_2n_over_d_max_bw)
{
    topology t;
    load_shipped("torus-8x8x8", &t);
    ck_assert_int_eq(t.ranks, 512);
    ck_assert_int_eq(t.diameter_links, 12);            /* 02 App. B.4: 4 + 4 + 4 */
    ck_assert_int_eq(brute_force_diameter(&t), 12);
    ck_assert_double_eq_tol(t.bisection_Bps, 2.0 * 512 / 8 * 900e9, 1); /* 02 §3.6: (2N/d_max)·BW */
    ck_assert_int_eq(physical_links(&t), 3 * 512);      /* 2k links per rank, each shared by 2 */
    topology_free(&t);
}
END_TEST

/* explainer 02 App. B.1 and §4.2 */
START_TEST(test_mesh_diameter_adds_d_minus_1_links_per_dimension)
{
    topology t;
    load_shipped("mesh-4x4", &t);
    ck_assert_int_eq(t.diameter_links, 6);              /* 02 App. B.1: (4-1) + (4-1) */
    ck_assert_int_eq(brute_force_diameter(&t), 6);
    ck_assert_int_eq(physical_links(&t), 24);            /* 2 dims x 4 lines x 3 links */
    ck_assert_double_eq_tol(t.bisection_Bps, 16.0 / 4 * 900e9, 1); /* 02 §4.2: N/d_max links */
    topology_free(&t);
    load_shipped("mesh-4x4x4", &t);
    ck_assert_int_eq(t.diameter_links, 9);
    ck_assert_int_eq(brute_force_diameter(&t), 9);
    topology_free(&t);
}
END_TEST

START_TEST(test_torus_neighbour_count_follows_min_rule)
{
    /* explainer 02 §1.2: neighbours per rank = sum_i min(d_i - 1, 2) */
    static const struct { const char *dims; int neighbours, links; } cases[] = {
        {"[4, 4, 2]", 5, -1}, {"[3, 3, 4]", 6, -1}, {"[2, 2, 2]", 3, 12}, {"[8, 1, 1]", 2, 8}, {"[2, 2]", 2, 4}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char yaml[256];
        snprintf(yaml, sizeof yaml, "kind: torus\ndims: %s\nalpha: 1us\nbandwidth: 1GBps\n", cases[c].dims);
        topology t;
        load_text(yaml, &t);
        route_hop *hops = route_buffer(&t);
        for (int rank = 0; rank < t.ranks; rank++) {
            int neighbours = 0;
            for (int other = 0; other < t.ranks; other++)
                if (other != rank && route_physical_links(&t, hops, topology_route(&t, rank, other, hops)) == 1) neighbours++;
            ck_assert_msg(neighbours == cases[c].neighbours, "%s rank %d: %d neighbours", cases[c].dims, rank, neighbours);
        }
        if (cases[c].links >= 0) ck_assert_int_eq(physical_links(&t), cases[c].links); /* 02 §3.1: 2x2x2 has 12 edges */
        free(hops);
        topology_free(&t);
    }
}
END_TEST

START_TEST(test_torus_routes_are_shortest_wraparound_paths)
{
    topology t;
    load_text("kind: torus\ndims: [2, 3, 4]\nalpha: 1us\nbandwidth: 1GBps\n", &t);
    route_hop *hops = route_buffer(&t);
    int dims[3] = {2, 3, 4};
    for (int a = 0; a < t.ranks; a++)
        for (int b = 0; b < t.ranks; b++) {
            int expected = 0, x = a, y = b;
            for (int i = 0; i < 3; i++) {
                int delta = abs(x % dims[i] - y % dims[i]);
                expected += delta < dims[i] - delta ? delta : dims[i] - delta;
                x /= dims[i];
                y /= dims[i];
            }
            ck_assert_int_eq(route_physical_links(&t, hops, topology_route(&t, a, b, hops)), expected);
        }
    free(hops);
    topology_free(&t);
}
END_TEST

/* Links built unnamed (for predict) are the same links, with the same
 * routes and latencies: only the names are not kept. */
START_TEST(test_unnamed_links_are_the_named_links_without_names)
{
    static const char *const shipped[] = {"superpod-l32", "fat-tree-k4", "torus-4x4x4", "clos-16"};
    for (int k = 0; k < 4; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/platforms/%s.yaml", getenv("top_srcdir") ? getenv("top_srcdir") : ".", shipped[k]);
        topology named, unnamed;
        diag d = {0};
        ck_assert_msg(platform_load_as(path, LINKS_NAMED, &named, &d), "%s", d.message);
        ck_assert_msg(platform_load_as(path, LINKS_UNNAMED, &unnamed, &d), "%s", d.message);
        ck_assert_int_eq(unnamed.link_count, named.link_count);
        ck_assert_int_eq(unnamed.names_size, 0);
        ck_assert_ptr_null(unnamed.link_names);
        ck_assert_int_gt(named.names_size, named.link_count); /* a name of a character or more each */
        for (int l = 0; l < named.link_count; l++) {
            ck_assert_double_eq(unnamed.links[l].bandwidth_Bps, named.links[l].bandwidth_Bps);
            ck_assert_double_eq(unnamed.links[l].latency_s, named.links[l].latency_s);
            ck_assert_int_eq(unnamed.links[l].tier, named.links[l].tier);
        }
        int last = named.ranks - 1;
        ck_assert_double_eq(path_latency(&unnamed, 0, last), path_latency(&named, 0, last));
        topology_free(&named);
        topology_free(&unnamed);
    }
}
END_TEST

/* explainer 03 App. A */
START_TEST(test_superpod_l32_has_2304_ranks_32_leaves_16_spines_and_diameter_6)
{
    topology t;
    load_shipped("superpod-l32", &t);
    ck_assert_int_eq(t.ranks, 2304);                     /* 03 App. A: 32 x 72 */
    ck_assert_int_eq(switches_in_tier(&t, "ib_leaf"), 32); /* 8 per rail x 4 rails */
    ck_assert_int_eq(switches_in_tier(&t, "ib_spine"), 16); /* 4 per rail x 4 rails */
    ck_assert_int_eq(switches_in_tier(&t, "nvlink"), 32);  /* one NVSwitch domain per pod */
    ck_assert_int_eq(t.diameter_links, 6);               /* 1 NVLink hop (2 links) + 4 IB links */
    ck_assert_double_eq(t.oversubscription, 1);
    /* A.4: 8 leaves x 72 uplinks per rail, one cable each; 2304 NVLink + 2304 NIC links */
    ck_assert_int_eq(physical_links(&t), 2304 + 2304 + 4 * 8 * 72);
    topology_free(&t);
}
END_TEST

START_TEST(test_superpod_path_latencies_follow_route_classes)
{
    /* 03 §1.1-§1.2: intra-pod NVLink alpha; same rail alpha_leaf / alpha_spine;
     * cross rail = one NVLink hop + the destination rail's IB alpha */
    topology t;
    load_shipped("superpod-l4", &t);
    for (int a = 0; a < t.ranks; a += 5)
        for (int b = 0; b < t.ranks; b++) {
            if (a == b) continue;
            double expected = a / 72 == b / 72 ? 0.5e-6 : (a % 72) % 4 == (b % 72) % 4 ? 2e-6 : 2.5e-6;
            ck_assert_double_eq_tol(path_latency(&t, a, b), expected, 1e-15);
        }
    topology_free(&t);
    load_shipped("superpod-l32", &t);
    ck_assert_double_eq_tol(path_latency(&t, 0, 4 * 72), 8e-6, 1e-15);        /* pod 0 -> pod 4: other leaf, rail 0 */
    ck_assert_double_eq_tol(path_latency(&t, 1, 31 * 72 + 2), 8.5e-6, 1e-15); /* rail 1 -> rail 2, across spines */
    ck_assert_double_eq_tol(path_latency(&t, 0, 3 * 72 + 4), 2e-6, 1e-15);    /* same leaf group, same rail */
    topology_free(&t);
}
END_TEST

START_TEST(test_superpod_refuses_pods_that_do_not_fill_leaves)
{
    topology t;
    diag d = {0};
    ck_assert(!platform_load_string("bad.yaml",
                                    "kind: nvl72_superpod\npods: 6\ngpus_per_pod: 72\nrails: 4\npods_per_leaf: 4\n"
                                    "spines_per_rail: 4\nnvlink: {alpha: 0.5us, bandwidth: 900GBps}\n"
                                    "ib: {alpha_leaf: 2us, alpha_spine: 8us, bandwidth: 50GBps}\n",
                                    &t, &d));
    ck_assert_int_eq(d.line, 2);
    ck_assert_ptr_nonnull(strstr(d.message, "do not fill"));
}
END_TEST

/* explainer 03 §1: the Clos-16 example */
START_TEST(test_clos16_has_4_leaves_2_spines_s_2_and_diameter_4)
{
    topology t;
    load_shipped("clos-16", &t);
    ck_assert_int_eq(t.ranks, 16);
    ck_assert_int_eq(switches_in_tier(&t, "leaf"), 4);
    ck_assert_int_eq(switches_in_tier(&t, "spine"), 2);
    ck_assert_double_eq(t.oversubscription, 2);          /* 03 §1: s = 4 down / 2 up */
    ck_assert_int_eq(physical_links(&t), 16 + 8);         /* 8 leaf-spine links total */
    ck_assert_int_eq(brute_force_diameter(&t), 4);        /* 02 App. B.1: 2-tier leaf-spine D = 4 */
    /* cut between leaf halves: 2 leaves' uplinks, 4 x 50 GB/s / 2 each */
    ck_assert_double_eq_tol(t.bisection_Bps, 2 * 4 * 50e9 / 2, 1);
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++)
            if (a != b) ck_assert_double_eq_tol(path_latency(&t, a, b), a / 4 == b / 4 ? 2e-6 : 8e-6, 1e-15);
    topology_free(&t);
}
END_TEST

/* explainer 03 App. B.2: the k-ary fat-tree (Al-Fares et al.) at k = 4 */
START_TEST(test_fat_tree_k4_has_16_hosts_20_switches_and_diameter_6)
{
    topology t;
    load_shipped("fat-tree-k4", &t);
    ck_assert_int_eq(t.ranks, 16);                      /* 03 App. B.2: k^3/4 */
    ck_assert_int_eq(t.switch_count, 20);               /* 5k^2/4 */
    ck_assert_int_eq(switches_in_tier(&t, "core"), 4);  /* (k/2)^2 */
    ck_assert_int_eq(switches_in_tier(&t, "edge"), 8);
    ck_assert_int_eq(physical_links(&t), 16 + 16 + 16); /* hosts, edge-agg (16), agg-core (16) */
    ck_assert_int_eq(brute_force_diameter(&t), 6);      /* 02 App. B.1: 3-tier Clos D = 6 */
    for (int l = 0; l < t.link_count; l++) ck_assert_double_eq(t.links[l].bandwidth_Bps, 50e9); /* s = 1: all links BW */
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) {
            if (a == b) continue;
            double expected = a / 2 == b / 2 ? 2e-6 : a / 4 == b / 4 ? 8e-6 : 12e-6;
            ck_assert_double_eq_tol(path_latency(&t, a, b), expected, 1e-15);
        }
    topology_free(&t);
}
END_TEST

START_TEST(test_star_and_full_mesh_shapes)
{
    topology t;
    load_shipped("star-512", &t);
    ck_assert_int_eq(t.ranks, 512);
    ck_assert_int_eq(t.diameter_links, 2);              /* 02 §1.1 */
    ck_assert_uint_eq(t.switches[0].inc, INC_REDUCE | INC_MULTICAST);
    ck_assert_double_eq_tol(path_latency(&t, 0, 511), 0.5e-6, 1e-18);
    ck_assert_double_eq_tol(path_latency(&t, 7, 512), 0.5e-6, 1e-18); /* INC leg: alpha_switch */
    topology_free(&t);
    load_shipped("full-mesh-8", &t);
    ck_assert_int_eq(physical_links(&t), 28);           /* N(N-1)/2 */
    ck_assert_int_eq(brute_force_diameter(&t), 1);
    topology_free(&t);
}
END_TEST

START_TEST(test_inc_leg_latency_when_alpha_switch_is_small)
{
    /* NVLS: alpha_switch 0.2 us < alpha/2; rank->rank must still take alpha */
    topology t;
    load_shipped("nvl72-star", &t);
    ck_assert_double_eq_tol(path_latency(&t, 0, 71), 0.5e-6, 1e-18);
    ck_assert_double_eq_tol(path_latency(&t, 0, 72), 0.2e-6, 1e-18);
    ck_assert_double_eq_tol(path_latency(&t, 72, 5), 0.2e-6, 1e-18);
    topology_free(&t);
}
END_TEST


/* The real systems (docs/platforms.md): each shipped file carries the published figures
 * its comments cite (NVIDIA / AMD datasheets: per GPU per direction; NCCL's
 * and RCCL's effective link rates as the efficiency), typed here again. */
START_TEST(test_real_system_platforms_carry_their_published_figures)
{
    static const struct {
        const char *name, *kind;
        int ranks, tiers;
        double bandwidth_Bps, efficiency, network_Bps;
    } systems[] = {
        {"hgx-h100", "star", 8, 1, 450e9, 20.6 / 25, 0},          /* NVLink 4: 18 x 25 GB/s */
        {"hgx-a100", "star", 8, 1, 300e9, 20.0 / 25, 0},          /* NVLink 3: 12 x 25 GB/s */
        {"gb200-nvl72", "star", 72, 1, 900e9, 40.1 / 50, 0},      /* NVLink 5: 18 x 50 GB/s */
        {"mi300x-8", "full_mesh", 8, 1, 64e9, 48.0 / 64, 0},      /* xGMI: 64 GB/s per link */
        {"dgx-h100-8node", "rail_cluster", 64, 2, 450e9, 20.6 / 25, 50e9},  /* ConnectX-7 NDR 400 Gb/s */
        {"dgx-h100-su32", "rail_cluster", 256, 2, 450e9, 20.6 / 25, 50e9},
        {"gcp-a3-mega-2node", "rail_cluster", 16, 2, 450e9, 20.6 / 25, 25e9}, /* 8 x 200 Gb/s per VM */
        {"mi300x-2node", "rail_cluster", 16, 2, 64e9, 48.0 / 64, 50e9},  /* xGMI link; 400 Gb/s NIC per GPU */
        {"mi300x-8node", "rail_cluster", 64, 2, 64e9, 48.0 / 64, 50e9},
    };
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) {
        topology t;
        load_shipped(systems[i].name, &t);
        ck_assert_str_eq(t.kind, systems[i].kind);
        ck_assert_int_eq(t.ranks, systems[i].ranks);
        ck_assert_int_eq(t.tier_count, systems[i].tiers);
        ck_assert_double_eq_tol(t.tiers[0].bandwidth_Bps, systems[i].bandwidth_Bps, 1);
        ck_assert_double_eq_tol(t.tiers[0].efficiency, systems[i].efficiency, 1e-3);
        ck_assert_double_eq_tol(t.tiers[0].alpha_s, 0.6e-6, 1e-15); /* NCCL's LL ring NVLink hop */
        if (systems[i].tiers > 1) {
            ck_assert_double_eq_tol(t.tiers[1].bandwidth_Bps, systems[i].network_Bps, 1);
            ck_assert_double_eq_tol(t.tiers[1].alpha_s, 2.7e-6, 1e-15); /* NCCL's LL ring network hop */
            ck_assert(t.tiers[1].network);
            ck_assert_int_eq(t.rails, 8);         /* one NIC, so one rail, per GPU */
            ck_assert_int_eq(t.domain_ranks, 8);  /* 8 GPUs per node */
        }
        topology_free(&t);
    }
}
END_TEST

/* An MI300X cluster's node is a full mesh of xGMI links (AMD MI300X
 * datasheet: 7 links per GPU, 64 GB/s each per direction): 28 pair links per
 * node and no switch inside it.  Same node: the pair's own link (alpha 0.6
 * us, 64 x 0.75 GB/s); same rail: NIC -> leaf -> NIC (2.7 us, 50 GB/s);
 * another rail: one xGMI hop to the GPU on the destination's rail, then its
 * rail (3.3 us, the xGMI link the narrower). */
START_TEST(test_rail_cluster_xgmi_nodes_are_full_meshes)
{
    topology t;
    load_shipped("mi300x-2node", &t);
    ck_assert_str_eq(t.tiers[0].name, "xgmi");
    ck_assert_int_eq(switches_in_tier(&t, "xgmi"), 0);
    ck_assert_int_eq(switches_in_tier(&t, "leaf"), 8);
    ck_assert_int_eq(physical_links(&t), 2 * 28 + 16);
    ck_assert_int_eq(t.diameter_links, 3);
    ck_assert_int_eq(brute_force_diameter(&t), 3);
    route_hop *hops = route_buffer(&t), *back = route_buffer(&t);
    for (int a = 0; a < 16; a++)
        for (int b = 0; b < 16; b++) {
            if (a == b) continue;
            int n = topology_route(&t, a, b, hops);
            bool node = a / 8 == b / 8, rail = a % 8 == b % 8;
            double latency = node ? 0.6e-6 : rail ? 2.7e-6 : 0.6e-6 + 2.7e-6;
            double bandwidth = node || !rail ? 64e9 * 0.75 : 50e9;
            ck_assert_double_eq_tol(route_latency(&t, hops, n), latency, 1e-15);
            ck_assert_double_eq_tol(route_bandwidth(&t, hops, n), bandwidth, 1);
            ck_assert_int_eq(route_physical_links(&t, hops, n), node ? 1 : rail ? 2 : 3);
            if (!node) continue;
            /* a pair's one link, each way in its own direction; no other pair takes it */
            ck_assert_int_eq(topology_route(&t, b, a, back), 1);
            ck_assert_int_eq(back[0].link, hops[0].link);
            ck_assert(back[0].down != hops[0].down);
            for (int c = 0; c < 16; c++)
                if (c != a && c != b && c / 8 == a / 8) {
                    topology_route(&t, a, c, back);
                    ck_assert_int_ne(back[0].link, hops[0].link);
                }
        }
    free(hops);
    free(back);
    topology_free(&t);
}
END_TEST

/* One DGX H100 scalable unit: 32 nodes x 8 GPUs, an NVSwitch per node, a leaf
 * per rail for the unit (8 leaves), no spine used; every route is at most
 * one NVLink hop and one NIC -> leaf -> NIC path (4 links). */
START_TEST(test_rail_cluster_unit_counts_and_route_classes)
{
    topology t;
    load_shipped("dgx-h100-su32", &t);
    ck_assert_int_eq(switches_in_tier(&t, "nvlink"), 32);
    ck_assert_int_eq(switches_in_tier(&t, "leaf"), 8);
    ck_assert_int_eq(physical_links(&t), 256 + 256);
    ck_assert_int_eq(t.diameter_links, 4);
    ck_assert_int_eq(brute_force_diameter(&t), 4);
    for (int a = 0; a < t.ranks; a += 7)
        for (int b = 0; b < t.ranks; b++) {
            if (a == b) continue;
            double expected = a / 8 == b / 8 ? 0.6e-6 : a % 8 == b % 8 ? 2.7e-6 : 0.6e-6 + 2.7e-6;
            ck_assert_double_eq_tol(path_latency(&t, a, b), expected, 1e-15);
        }
    topology_free(&t);
}
END_TEST

/* Two scalable units share the rails' spines: a same-rail route between
 * units climbs to one of the rail's 4 spines, equal-cost (every choice the
 * same latency, alpha_spine), the choice spread over the spines by flow. */
START_TEST(test_rail_cluster_units_share_equal_cost_spines)
{
    topology t;
    load_text("name: two-units\nkind: rail_cluster\nnodes: 64\ngpus_per_node: 8\nnodes_per_leaf: 32\nspines_per_rail: 4\n"
              "nvlink: {alpha: 0.6us, bandwidth: 450GBps}\n"
              "network: {alpha_leaf: 2.7us, alpha_spine: 3.6us, bandwidth: 400Gbps}\n",
              &t);
    ck_assert_int_eq(switches_in_tier(&t, "leaf"), 16);
    ck_assert_int_eq(switches_in_tier(&t, "spine"), 32);
    bool used[4] = {false};
    route_hop *hops = route_buffer(&t);
    for (int a = 0; a < 256; a += 8)
        for (int b = 256; b < 512; b += 8) {
            ck_assert_double_eq_tol(path_latency(&t, a, b), 3.6e-6, 1e-15);
            int n = topology_route(&t, a, b, hops);
            for (int h = 0; h < n; h++) {
                const char *spine = strstr(topology_link_name(&t, hops[h].link), "_spine");
                if (spine && !hops[h].down) used[spine[6] - '0'] = true;
            }
        }
    free(hops);
    for (int k = 0; k < 4; k++) ck_assert_msg(used[k], "no flow of rail 0 climbs to spine %d", k);
    ck_assert_double_eq_tol(path_latency(&t, 0, 257), 0.6e-6 + 3.6e-6, 1e-15); /* cross rail, cross unit */
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("platforms");
    TCase *tc = tcase_create("structure");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_torus_8x8x8_has_diameter_12_and_bisection_2n_over_d_max_bw);
    tcase_add_test(tc, test_mesh_diameter_adds_d_minus_1_links_per_dimension);
    tcase_add_test(tc, test_torus_neighbour_count_follows_min_rule);
    tcase_add_test(tc, test_torus_routes_are_shortest_wraparound_paths);
    tcase_add_test(tc, test_superpod_l32_has_2304_ranks_32_leaves_16_spines_and_diameter_6);
    tcase_add_test(tc, test_unnamed_links_are_the_named_links_without_names);
    tcase_add_test(tc, test_superpod_path_latencies_follow_route_classes);
    tcase_add_test(tc, test_superpod_refuses_pods_that_do_not_fill_leaves);
    tcase_add_test(tc, test_clos16_has_4_leaves_2_spines_s_2_and_diameter_4);
    tcase_add_test(tc, test_fat_tree_k4_has_16_hosts_20_switches_and_diameter_6);
    tcase_add_test(tc, test_star_and_full_mesh_shapes);
    tcase_add_test(tc, test_inc_leg_latency_when_alpha_switch_is_small);
    tcase_add_test(tc, test_real_system_platforms_carry_their_published_figures);
    tcase_add_test(tc, test_rail_cluster_unit_counts_and_route_classes);
    tcase_add_test(tc, test_rail_cluster_xgmi_nodes_are_full_meshes);
    tcase_add_test(tc, test_rail_cluster_units_share_equal_cost_spines);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
