/* test_trees.c — binomial BC / Reduce (explainer 01 §3.2, §4.2), DBT
 * all-reduce (§5.2), PAT AG / RS (App. A), Bruck (App. B.5) and ring relay
 * (§7.1) all-to-all: each verified on data at N = 2..72 (every root and
 * segment count where they apply; refusals checked), and each timed on a
 * star (alpha 0.5 us, 900 GB/s) against a formula written here: the seed's
 * where the star runs it as written, else the finite form derived in the
 * comment above it, with the reason it differs from the seed. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "algo/double_tree.h"
#include "model/model.h"
#include "sched/verify.h"
#include "test_support.h"

static const double alpha = STAR_ALPHA_S, bw = STAR_BANDWIDTH_BPS;

/* ceil(log2 N) */
static double depth_of(double n)
{
    return ceil(log2(n));
}

/* 01 §3.2 / §4.2 non-pipelined: ceil(log2 N) alpha + ceil(log2 N) M/BW */
static double binomial_seed_time(double n, double m, double p)
{
    (void)p;
    return depth_of(n) * alpha + depth_of(n) * m / bw;
}

/* Pipelined binomial tree on a star, derived: the root's sends follow App.
 * C's conveyor, segment s to its step-k child in slot s+k-1, L+P-1 slots
 * (L = ceil(log2 N)); the n_t sends of slot t start together and share the
 * root's one uplink, so the slot lasts alpha + n_t M/(P BW), and the n_t add
 * up to P L.  Every other rank has fewer children and keeps pace, so
 * t = (L+P-1) alpha + L M/BW.  App. C.3's (L+P-1)(alpha + M/(P BW)) assumes
 * one port per tree edge (C.4): its BW term tends to M/BW, here it stays
 * L M/BW, the root pushing M to each of its L children.  Reduce is the time
 * reverse (the root's downlink).  At P = 1 both equal the seed's form. */
static double binomial_star_time(double n, double m, double p)
{
    return (depth_of(n) + p - 1) * alpha + depth_of(n) * m / bw;
}

/* DBT on a star, derived.  Slot t carries segment t-j of step j; a slot
 * lasts alpha + K_t m/BW, m = M/(2P), K_t the most sends or receives one
 * rank has in it; 2D+P-1 slots (D = log2 N, the heaps' depth).
 * N = 4 (the §5.2 trees; every rank has 3 tree edges): K = 1, 2, then 3 for
 * P-2 slots, then 2, 2, 1 (P >= 2; P = 1 gives 1, 1, 2, 1): sum 3P+2.
 * N = 2^D >= 8, P >= 2D-2: K = 2 for slots 1..D (a rank receives its two
 * children's sums or sends its own plus its leaf send in the other tree),
 * 3 at D+1 (each root sends down to two children and up as a leaf), 4 for
 * P-4 slots (an interior rank: up to its parent, down to two children, up as
 * a leaf in the other tree; past slot P the mirror: two children, its
 * parent and its other-tree parent, while its children still send, up to
 * slot P+D-3), 3, 3, then 2 for D-1 broadcast-only slots, 1 for the last
 * edge: sum 4P+4D-8.  Large P: 2 M/BW (00 §4, 04 §3.1), not 02 §5.1's M/BW;
 * alpha count 2D+P-1 as in App. C.3 with L = 2D. */
static double dbt_star_time(double n, double m, double p)
{
    double d = log2(n), slots = 2 * d + p - 1;
    double sends = n == 4 ? 3 * p + 2 : 4 * p + 4 * d - 8;
    return slots * alpha + sends * m / (2 * p * bw);
}

/* 01 App. A (PAT) and App. B.4: log2 N alpha + (N-1)/N M/BW */
static double pat_time(double n, double m, double p)
{
    (void)p;
    return log2(n) * alpha + (n - 1) / n * m / bw;
}

/* 01 App. B.5: log2 N alpha + log2 N M/(2 BW), M each rank's payload */
static double bruck_time(double n, double m, double p)
{
    (void)p;
    return log2(n) * alpha + log2(n) * m / (2 * bw);
}

/* Ring relay on a star, derived: floor(N/2) steps; at step k a rank sends
 * floor(N/2)-k+1 blocks of M/N right and ceil(N/2)-k left, both over its one
 * uplink (and receives the same over its downlink): alpha + (both) M/(N BW)
 * (the two flows share the link, the longer one then runs alone).  The
 * blocks total sum_d min(d, N-d) = floor(N^2/4): t = floor(N/2) alpha +
 * floor(N^2/4)/N M/BW.  01 §7.1's (N-1) alpha + (N-1)/N M/BW counts one
 * direction of dedicated links and N-1 blocks on it, true only up to N = 5. */
static double ring_relay_time(double n, double m, double p)
{
    (void)p;
    return floor(n / 2) * alpha + floor(n * n / 4) / n * m / bw;
}

START_TEST(test_binomial_bcast_verifies_for_every_root_and_segment_count)
{
    verify_roots_and_segments(bcast_binomial, "binomial broadcast");
}
END_TEST

START_TEST(test_binomial_reduce_verifies_for_every_root_and_segment_count)
{
    verify_roots_and_segments(reduce_binomial, "binomial reduce");
}
END_TEST

START_TEST(test_binomial_refuses_a_root_outside_the_group)
{
    algo_params p = {.ranks = 5, .root = -1};
    char why[256] = "";
    ck_assert_ptr_null(bcast_binomial(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "root"));
    p.root = 5;
    ck_assert_ptr_null(reduce_binomial(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "root"));
}
END_TEST

START_TEST(test_dbt_allreduce_verifies_for_every_segment_count)
{
    static const int segment_counts[] = {0, 1, 3, 9};
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 4; k++) {
            algo_params p = {.ranks = verified_group_sizes[i], .segments = segment_counts[k]};
            expect_verified(allreduce_dbt, &p, "DBT all-reduce");
        }
}
END_TEST

/* 01 §5.2 at N = 4: T1 = R0(R1(R3), R2), T2 = R3(R2(R1), R0). */
START_TEST(test_dbt_trees_at_four_ranks_are_mirror_images_rooted_at_0_and_3)
{
    static const int parents[2][4] = {{-1, 0, 0, 1}, {3, 2, 3, -1}};
    double_tree t;
    double_tree_init(&t, 4);
    for (int tree = 0; tree < 2; tree++)
        for (int r = 0; r < 4; r++) ck_assert_int_eq(double_tree_parent(&t, tree, r), parents[tree][r]);
    double_tree_free(&t);
}
END_TEST

/* Each rank is interior in at most one tree (exactly one for even N), and
 * the trees share no edge but at N = 2, 3 (impossible) and 5, 6, 9. */
START_TEST(test_dbt_trees_are_complementary_and_share_no_edge)
{
    for (int n = 2; n <= 130; n++) {
        double_tree t;
        double_tree_init(&t, n);
        bool shared = false;
        for (int r = 0; r < n; r++) {
            int children[DOUBLE_TREE_MAX_CHILDREN];
            int interior = (double_tree_children(&t, 0, r, children) > 0) + (double_tree_children(&t, 1, r, children) > 0);
            ck_assert_msg(interior == (n % 2 == 0 || r != n / 2 ? 1 : 0), "N = %d: rank %d interior in %d trees", n, r,
                          interior);
            int up = double_tree_parent(&t, 0, r); /* T1 edge {r, up}: is it a T2 edge? */
            if (up >= 0) shared |= double_tree_parent(&t, 1, r) == up || double_tree_parent(&t, 1, up) == r;
        }
        bool expected = n <= 3 || n == 5 || n == 6 || n == 9;
        ck_assert_msg(shared == expected, "N = %d: trees %s an edge", n, shared ? "share" : "do not share");
        double_tree_free(&t);
    }
}
END_TEST

START_TEST(test_pat_allgather_verifies_or_refuses)
{
    verify_group_sizes(allgather_pat, "PAT all-gather", true);
}
END_TEST

START_TEST(test_pat_reducescatter_verifies_or_refuses)
{
    verify_group_sizes(reducescatter_pat, "PAT reduce-scatter", true);
}
END_TEST

START_TEST(test_bruck_alltoall_verifies_or_refuses)
{
    verify_group_sizes(alltoall_bruck, "Bruck all-to-all", true);
}
END_TEST

START_TEST(test_ring_relay_alltoall_verifies)
{
    verify_group_sizes(alltoall_ring_relay, "ring relay all-to-all", false);
}
END_TEST

/* App. A and B.5: log2 N rounds, one message per rank per round, however
 * scattered the chunks it carries. */
START_TEST(test_pat_and_bruck_send_one_message_per_round)
{
    static const schedule_builder builds[] = {allgather_pat, reducescatter_pat, alltoall_bruck};
    for (int b = 0; b < 3; b++)
        for (int n = 2; n <= 64; n *= 2) {
            algo_params p = {.ranks = n};
            char why[256] = "";
            schedule *s = builds[b](&p, why, sizeof why);
            ck_assert_int_eq(sched_messages(s), (long)n * (long)log2(n));
            schedule_free(s);
        }
}
END_TEST

/* A message of several ranges is received as the ranges the sender listed:
 * a receiver naming them in another order is caught. */
START_TEST(test_receiver_listing_other_ranges_fails_verification)
{
    algo_params p = {.ranks = 8};
    char why[512] = "";
    schedule *s = allgather_pat(&p, why, sizeof why);
    sched_actor *a = &s->actor[0];
    for (int o = 0; o < a->op_count; o++)
        if (a->ops[o].kind == OP_RECV && a->ops[o].range_count > 1) {
            chunk_range *r = &a->ranges[a->ops[o].range_first], first = r[0];
            r[0] = r[1];
            r[1] = first;
            break;
        }
    ck_assert(!schedule_verify(s, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "different range"));
    schedule_free(s);
}
END_TEST

START_TEST(test_binomial_unpipelined_star_matches_seed_formula)
{
    expect_star_times_at_timed_ranks(bcast_binomial, "binomial broadcast", binomial_seed_time);
    expect_star_times_at_timed_ranks(reduce_binomial, "binomial reduce", binomial_seed_time);
}
END_TEST

static void time_binomial(schedule_builder build, const char *name)
{
    static const int segment_counts[] = {3, 9};
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 2; k++) {
            algo_params p = {.ranks = timed_group_sizes[r], .root = timed_group_sizes[r] / 2,
                             .segments = segment_counts[k]};
            expect_star_times(build, &p, binomial_star_time, name);
        }
}

START_TEST(test_binomial_bcast_star_matches_root_uplink_form)
{
    time_binomial(bcast_binomial, "binomial broadcast");
}
END_TEST

START_TEST(test_binomial_reduce_star_matches_root_downlink_form)
{
    time_binomial(reduce_binomial, "binomial reduce");
}
END_TEST

/* Default P = 2 log2 N (8 at N = 16, 12 at N = 64: both >= 2D-2), and one
 * more P each. */
START_TEST(test_dbt_allreduce_star_matches_slot_form)
{
    expect_star_times_at_timed_ranks(allreduce_dbt, "DBT all-reduce", dbt_star_time);
    static const int more[][2] = {{4, 1}, {4, 9}, {16, 13}, {64, 10}};
    for (int k = 0; k < 4; k++) {
        algo_params p = {.ranks = more[k][0], .segments = more[k][1]};
        expect_star_times(allreduce_dbt, &p, dbt_star_time, "DBT all-reduce");
    }
}
END_TEST

START_TEST(test_pat_allgather_star_matches_formula)
{
    expect_star_times_at_timed_ranks(allgather_pat, "PAT all-gather", pat_time);
}
END_TEST

START_TEST(test_pat_reducescatter_star_matches_formula)
{
    expect_star_times_at_timed_ranks(reducescatter_pat, "PAT reduce-scatter", pat_time);
}
END_TEST

/* M is each rank's total payload (docs/algorithms.md, 01 §7: M/N per destination). */
START_TEST(test_bruck_alltoall_star_matches_formula)
{
    expect_star_times_at_timed_ranks(alltoall_bruck, "Bruck all-to-all", bruck_time);
}
END_TEST

START_TEST(test_ring_relay_alltoall_star_matches_shortest_arc_form)
{
    expect_star_times_at_timed_ranks(alltoall_ring_relay, "ring relay all-to-all", ring_relay_time);
}
END_TEST


/* NCCL's tree (docs/algorithms.md): in tree 1 each node chains from its GPU 0 (the
 * head) to its last GPU, in tree 2 the other way round; the heads form the
 * complementary heap trees over the nodes; depth (D-1) + floor(log2 L). */
START_TEST(test_chained_trees_chain_each_node_below_its_head)
{
    static const int shapes[][2] = {{1, 4}, {2, 4}, {3, 8}, {8, 4}, {9, 2}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int l = shapes[i][0], d = shapes[i][1];
        double_tree t, nodes;
        double_tree_init_chained(&t, l, d, NULL);
        double_tree_init(&nodes, l);
        int log2l = 0;
        while ((2 << log2l) <= l) log2l++;
        ck_assert_int_eq(t.depth, d - 1 + log2l);
        for (int g = 0; g < l; g++)
            for (int q = 0; q < d; q++) {
                int r = g * d + q;
                int up0 = double_tree_parent(&nodes, 0, g), up1 = double_tree_parent(&nodes, 1, g);
                ck_assert_int_eq(double_tree_parent(&t, 0, r), q > 0 ? r - 1 : up0 < 0 ? -1 : up0 * d);
                ck_assert_int_eq(double_tree_parent(&t, 1, r), q < d - 1 ? r + 1 : up1 < 0 ? -1 : up1 * d + d - 1);
            }
        double_tree_free(&t);
        double_tree_free(&nodes);
    }
}
END_TEST

/* Every node count and size, in rank order and strided, at P = 0, 1, 3, 9. */
START_TEST(test_tree_allreduce_verifies)
{
    static const int shapes[][2] = {{1, 4}, {2, 4}, {3, 4}, {4, 8}, {8, 8}, {9, 8}, {16, 4}, {5, 3}, {72, 1}};
    static const int segment_counts[] = {0, 1, 3, 9};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t k = 0; k < 4; k++) {
            int n = shapes[i][0] * shapes[i][1], order[72];
            for (int g = 0; g < shapes[i][0]; g++)
                for (int q = 0; q < shapes[i][1]; q++) order[g * shapes[i][1] + q] = q * shapes[i][0] + g;
            algo_params p = {.ranks = n, .domain_ranks = shapes[i][1], .segments = segment_counts[k]};
            expect_verified(allreduce_tree, &p, "NCCL tree all-reduce");
            p.domain_order = order;
            expect_verified(allreduce_tree, &p, "NCCL tree all-reduce, strided");
        }
    /* a platform without nodes (a star, a full mesh) is one node: NCCL's pair of chains over the group */
    algo_params one = {.ranks = 8};
    expect_verified(allreduce_tree, &one, "NCCL tree all-reduce, one node");
    algo_params p = {.ranks = 8, .domain_ranks = 3};
    char why[256] = "";
    ck_assert_ptr_null(allreduce_tree(&p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "nodes"));
}
END_TEST

/* 8 nodes of 4 GPUs, one NIC per GPU (50 GB/s), NVLink 900 GB/s: each tree
 * moves M/2; a head interior in the node tree sends 3 segments of M/(2P) per
 * slot through its NIC, so the BW term tends to 1.5·M/BW_net as P grows (the
 * form 00 §4 gives DBT, whose star rank sends 4).  The prediction adds the
 * P - 1 slots of fill at the heads' α: 2·3·α_nv + (2·3 + P - 1)·α_net +
 * 1.5·M/BW_net, which the simulation approaches from above as P grows. */
START_TEST(test_tree_allreduce_tends_to_its_nic_bound)
{
    topology t;
    load_text("kind: rail_cluster\nnodes: 8\ngpus_per_node: 4\nnvlink: {alpha: 0.5us, bandwidth: 900GBps}\n"
              "network: {alpha_leaf: 2us, alpha_spine: 3us, bandwidth: 50GBps}\n",
              &t);
    const double m = 1e9, floor_s = 1.5 * m / 50e9;
    double previous = INFINITY, last_ratio = 0;
    static const int segment_counts[] = {8, 32, 128};
    for (size_t k = 0; k < 3; k++) {
        int p_count = segment_counts[k];
        char why[256];
        model_case c = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "tree"), .ranks = 32, .size_bytes = m,
                        .segments = p_count};
        prediction pr;
        ck_assert(model_predict(&c, &pr, why, sizeof why));
        double expected = 6 * 0.5e-6 + (6 + p_count - 1) * 2e-6 + floor_s;
        ck_assert_msg(relative_error(pr.time_s, expected) < 1e-9, "P = %d: predicted %.17g, derived %.17g", p_count,
                      pr.time_s, expected);
        algo_params p = {.ranks = 32, .domain_ranks = 4, .segments = p_count};
        schedule *s = allreduce_tree(&p, why, sizeof why);
        double simulated = simulate_schedule(&t, s, NULL, m, NULL, NULL);
        ck_assert_msg(simulated > floor_s && simulated < previous, "P = %d: %.17g (floor %.17g, previous %.17g)", p_count,
                      simulated, floor_s, previous);
        previous = simulated;
        last_ratio = simulated / expected;
        schedule_free(s);
    }
    ck_assert_msg(last_ratio < 1.03, "P = 128: %g of the prediction", last_ratio);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trees");
    TCase *verify = tcase_create("verify");
    tcase_set_timeout(verify, 300);
    tcase_add_test(verify, test_binomial_bcast_verifies_for_every_root_and_segment_count);
    tcase_add_test(verify, test_binomial_reduce_verifies_for_every_root_and_segment_count);
    tcase_add_test(verify, test_binomial_refuses_a_root_outside_the_group);
    tcase_add_test(verify, test_dbt_allreduce_verifies_for_every_segment_count);
    tcase_add_test(verify, test_dbt_trees_at_four_ranks_are_mirror_images_rooted_at_0_and_3);
    tcase_add_test(verify, test_dbt_trees_are_complementary_and_share_no_edge);
    tcase_add_test(verify, test_chained_trees_chain_each_node_below_its_head);
    tcase_add_test(verify, test_tree_allreduce_verifies);
    tcase_add_test(verify, test_pat_allgather_verifies_or_refuses);
    tcase_add_test(verify, test_pat_reducescatter_verifies_or_refuses);
    tcase_add_test(verify, test_bruck_alltoall_verifies_or_refuses);
    tcase_add_test(verify, test_ring_relay_alltoall_verifies);
    tcase_add_test(verify, test_pat_and_bruck_send_one_message_per_round);
    tcase_add_test(verify, test_receiver_listing_other_ranges_fails_verification);
    suite_add_tcase(s, verify);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 600);
    tcase_add_test(timing, test_binomial_unpipelined_star_matches_seed_formula);
    tcase_add_test(timing, test_tree_allreduce_tends_to_its_nic_bound);
    tcase_add_test(timing, test_binomial_bcast_star_matches_root_uplink_form);
    tcase_add_test(timing, test_binomial_reduce_star_matches_root_downlink_form);
    tcase_add_test(timing, test_dbt_allreduce_star_matches_slot_form);
    tcase_add_test(timing, test_pat_allgather_star_matches_formula);
    tcase_add_test(timing, test_pat_reducescatter_star_matches_formula);
    tcase_add_test(timing, test_bruck_alltoall_star_matches_formula);
    tcase_add_test(timing, test_ring_relay_alltoall_star_matches_shortest_arc_form);
    suite_add_tcase(s, timing);
    return run_suite(s);
}
