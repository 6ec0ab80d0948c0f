/* test_channels.c — NCCL-style channels (docs/model.md): the ring orders
 * each layout gives (checked here as graphs: Hamiltonian, arc-disjoint,
 * rail-aligned), every channelled schedule verified on data at the suite's
 * group sizes, and the time of K channels simulated and predicted against
 * forms derived here: on a star the K channels share each rank's link (the
 * time of one channel); on a full mesh or across rails they run side by side
 * on disjoint links, so the busiest link carries ceil(K / width) of them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "algo/channels.h"
#include "model/model.h"
#include "sched/verify.h"
#include "test_support.h"

#define US 1e-6
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const double sizes[] = {1e3, 1e6, 1e9};

/* Each full-mesh channel's order is a Hamiltonian ring and no arc (ordered
 * pair) is used by two of them, for every N up to 100. */
START_TEST(test_full_mesh_rings_are_hamiltonian_and_arc_disjoint)
{
    for (int n = 2; n <= 100; n++) {
        int rings = channel_disjoint_rings(n);
        ck_assert_int_eq(rings, n == 2 ? 1 : n % 2 ? n - 1 : n - 2);
        char *used = calloc((size_t)(n * n), 1);
        int *order = malloc(sizeof(int) * (size_t)n), *seen = calloc((size_t)n, sizeof(int));
        for (int c = 0; c < rings; c++) {
            algo_params p = {.ranks = n, .layout = CHANNELS_FULL_MESH};
            channel_order(&p, c, order);
            memset(seen, 0, sizeof(int) * (size_t)n);
            for (int i = 0; i < n; i++) {
                ck_assert_msg(order[i] >= 0 && order[i] < n && !seen[order[i]]++, "N = %d ring %d: not a permutation", n, c);
                if (n == 2) continue; /* one pair: the ring uses both arcs */
                int arc = order[i] * n + order[(i + 1) % n];
                ck_assert_msg(!used[arc], "N = %d: arc %d->%d in two rings (ring %d)", n, order[i], order[(i + 1) % n], c);
                used[arc] = 1;
            }
        }
        free(used);
        free(order);
        free(seen);
    }
}
END_TEST

/* Rail layout, 4 nodes of 8: channel c enters every node at its GPU c and
 * visits the node's GPUs in a rotation, so its node crossings land on GPU c. */
START_TEST(test_rail_channels_enter_each_node_at_their_own_gpu)
{
    int order[32];
    for (int c = 0; c < 8; c++) {
        algo_params p = {.ranks = 32, .layout = CHANNELS_RAILS, .rail_ranks = 8};
        channel_order(&p, c, order);
        for (int node = 0; node < 4; node++) {
            ck_assert_int_eq(order[8 * node], 8 * node + c);
            for (int i = 1; i < 8; i++) ck_assert_int_eq(order[8 * node + i] / 8, node);
        }
    }
}
END_TEST

typedef struct channelled {
    primitive prim;
    const char *name;
} channelled;

static const channelled algorithms[] = {{PRIM_ALLREDUCE, "ring"}, {PRIM_ALLGATHER, "ring"}, {PRIM_REDUCESCATTER, "ring"},
                                        {PRIM_BCAST, "ring"},     {PRIM_REDUCE, "ring"},    {PRIM_ALLREDUCE, "dbt"},
                                        {PRIM_ALLREDUCE, "inc"},  {PRIM_BCAST, "inc"},      {PRIM_ALLGATHER, "inc"}};

/* Every channelled schedule computes its primitive, for K = 2, 3, 8 channels
 * in each layout, at the suite's group sizes (rails where 4 divides N). */
START_TEST(test_channelled_schedules_verify_on_data)
{
    static const int channel_counts[] = {2, 3, 8};
    for (size_t a = 0; a < COUNT(algorithms); a++) {
        const algorithm *algo = algorithm_find(algorithms[a].prim, algorithms[a].name);
        ck_assert_ptr_nonnull(algo);
        for (int i = 0; i < 9; i++) {
            int n = verified_group_sizes[i];
            inc_tree tree;
            inc_tree_single_switch(&tree, n, n);
            for (int layout = CHANNELS_SHARED; layout <= CHANNELS_FULL_MESH; layout++)
                for (size_t k = 0; k < COUNT(channel_counts); k++) {
                    if (layout == CHANNELS_RAILS && (n % 4 || n == 4)) continue;
                    algo_params p = {.ranks = n, .root = n / 2, .channels = channel_counts[k],
                                     .layout = (channel_layout)layout, .rail_ranks = layout == CHANNELS_RAILS ? 4 : 0,
                                     .inc = &tree};
                    char why[512] = "";
                    schedule *s = algorithm_build(algo, &p, why, sizeof why);
                    ck_assert_msg(s != NULL, "%s %s N = %d K = %d refused: %s", primitive_name(algo->prim), algo->name, n,
                                  channel_counts[k], why);
                    ck_assert_int_eq(s->channels, channel_counts[k]);
                    ck_assert_msg(schedule_verify(s, why, sizeof why), "%s %s N = %d K = %d layout %d: %s",
                                  primitive_name(algo->prim), algo->name, n, channel_counts[k], layout, why);
                    schedule_free(s);
                }
            inc_tree_free(&tree);
        }
    }
}
END_TEST

START_TEST(test_channels_refused_by_other_algorithms)
{
    algo_params p = {.ranks = 8, .channels = 2};
    char why[256] = "";
    ck_assert_ptr_null(algorithm_build(algorithm_find(PRIM_ALLREDUCE, "rabenseifner"), &p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "channels"));
    p.channels = SCHED_MAX_CHANNELS + 1;
    ck_assert_ptr_null(algorithm_build(algorithm_find(PRIM_ALLREDUCE, "ring"), &p, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "at most"));
}
END_TEST

/* Simulate PRIM ring on K channels over the whole of T and compare, with the
 * model's prediction, to alpha-per-step STEPS x HOP_ALPHA plus BETA x M / BW;
 * in both network models when the channels share no link (DISJOINT), else
 * in the fluid model (the packet model serializes the channels' packets on a
 * shared port instead of sharing its rate: docs/algorithms.md). */
static void expect_channels(const topology *t, primitive prim, int k, double steps, double hop_alpha, double beta,
                            double bandwidth_Bps, bool disjoint)
{
    int rail_ranks;
    algo_params p = {.ranks = t->ranks, .channels = k};
    p.layout = channel_layout_of(t, NULL, t->ranks, &rail_ranks);
    p.rail_ranks = rail_ranks;
    char why[256] = "";
    schedule *s = algorithm_build(algorithm_find(prim, "ring"), &p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = steps * hop_alpha + beta * sizes[m] / bandwidth_Bps;
        char what[96];
        snprintf(what, sizeof what, "%s %s ring, K = %d", t->name, primitive_name(prim), k);
        expect_simulated_in(NETWORK_CM02, t, s, NULL, sizes[m], NULL, expected, what);
        if (disjoint) expect_simulated_in(NETWORK_PACKET, t, s, NULL, sizes[m], NULL, expected, what);
        model_case c = {.platform = t, .prim = prim, .algorithm = algorithm_find(prim, "ring"), .ranks = t->ranks, .size_bytes = sizes[m],
                        .channels = k};
        prediction pr;
        ck_assert_msg(model_predict(&c, &pr, why, sizeof why), "%s", why);
        ck_assert_msg(relative_error(pr.time_s, expected) < 1e-9, "%s %s ring, K = %d, M = %g: predicted %.17g, derived %.17g",
                      t->name, primitive_name(prim), k, sizes[m], pr.time_s, expected);
    }
    schedule_free(s);
}

/* On a star every channel's step message of M/(K N) leaves through the
 * rank's one link with the other K-1: a step takes alpha + M/(N BW), as
 * one channel's does. */
START_TEST(test_star_channels_share_the_switch)
{
    topology t;
    load_text("name: star-8\nkind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\n", &t);
    for (int k = 1; k <= 4; k++) expect_channels(&t, PRIM_ALLREDUCE, k, 14, 0.5 * US, 14.0 / 8, 900e9, k == 1);
    topology_free(&t);
}
END_TEST

/* The packet model on the same star: the channels' packets leave the shared
 * port one after another, so the channels drift out of step and one's
 * latency overlaps another's transmission.  Each channel is still a chain of
 * 2(N-1) steps of alpha + M/(K N BW) (its own message on the wire), and none
 * is slower than the fluid model's lock step alpha + M/(N BW). */
START_TEST(test_star_channels_overlap_in_the_packet_model)
{
    topology t;
    load_text("name: star-8\nkind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\n", &t);
    for (int k = 2; k <= 4; k += 2) {
        algo_params p = {.ranks = 8, .channels = k};
        char why[256] = "";
        schedule *s = algorithm_build(algorithm_find(PRIM_ALLREDUCE, "ring"), &p, why, sizeof why);
        ck_assert_msg(s != NULL, "%s", why);
        static const double packet_sizes[] = {1e3, 1e6, EXPECT_PACKET_MAX_BYTES};
        for (size_t m = 0; m < COUNT(packet_sizes); m++) {
            double size = packet_sizes[m];
            double chain = 14 * (0.5 * US + size / (k * 8) / 900e9), lock_step = 14 * (0.5 * US + size / 8 / 900e9);
            double packet = simulate_schedule_with(&t, s, NULL, size, NULL, NULL, NETWORK_PACKET);
            ck_assert_msg(packet >= chain * (1 - 1e-9) && packet <= lock_step * (1 + 1e-9),
                          "K = %d, M = %g: packet %.17g outside [%.17g, %.17g]", k, size, packet, chain, lock_step);
            if (size == 1e6) /* alpha and transmission comparable: the overlap shows (4.8 % at K = 2, 11.5 % at 4) */
                ck_assert_msg(packet < lock_step * 0.97, "K = %d, M = %g: packet %.17g, lock step %.17g", k, size, packet,
                              lock_step);
        }
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* Full mesh: Walecki gives N-2 disjoint rings on even N, N-1 on odd N; K
 * channels put ceil(K / rings) on the busiest link, each moving M/K:
 * BW x K / ceil(K / rings). */
START_TEST(test_full_mesh_channels_spread_over_disjoint_rings)
{
    topology t;
    load_text("name: mesh-8\nkind: full_mesh\nranks: 8\nalpha: 0.5us\nbandwidth: 64GBps\n", &t);
    expect_channels(&t, PRIM_ALLREDUCE, 6, 14, 0.5 * US, 14.0 / 8, 6 * 64e9, true);
    expect_channels(&t, PRIM_ALLREDUCE, 8, 14, 0.5 * US, 14.0 / 8, 4 * 64e9, false); /* two channels on 2 links */
    expect_channels(&t, PRIM_ALLGATHER, 3, 7, 0.5 * US, 7.0 / 8, 3 * 64e9, true);
    expect_channels(&t, PRIM_REDUCESCATTER, 12, 7, 0.5 * US, 7.0 / 8, 6 * 64e9, false);
    topology_free(&t);
    load_text("name: mesh-7\nkind: full_mesh\nranks: 7\nalpha: 0.5us\nbandwidth: 64GBps\n", &t);
    expect_channels(&t, PRIM_ALLREDUCE, 6, 12, 0.5 * US, 12.0 / 7, 6 * 64e9, true);
    topology_free(&t);
}
END_TEST

/* Four nodes of four GPUs, one NIC per GPU: channel c leaves each node from
 * its last GPU through GPU c's NIC (relayed over NVLink: alpha_nvlink +
 * alpha_leaf), so K channels use min(K, 4) NICs per node and share each
 * GPU's NVLink: BW = min(BW_nvlink, BW_net x K / ceil(K / 4)).  (Where the
 * NVLink port is the narrower, the relayed and the in-node messages of the
 * channels contend on it out of step, and the simulation is slower than that
 * bound: contention, for eta; docs/model.md.) */
START_TEST(test_rail_channels_cross_nodes_on_their_own_nics)
{
    topology t;
    load_text("name: rails-4x4\nkind: rail_cluster\nnodes: 4\ngpus_per_node: 4\n"
              "nvlink: {alpha: 0.5us, bandwidth: 900GBps}\n"
              "network: {alpha_leaf: 2us, alpha_spine: 3us, bandwidth: 50GBps}\n",
              &t);
    expect_channels(&t, PRIM_ALLREDUCE, 1, 30, 2.5 * US, 30.0 / 16, 50e9, true);
    expect_channels(&t, PRIM_ALLREDUCE, 2, 30, 2.5 * US, 30.0 / 16, 100e9, false); /* the channels share NVLink */
    expect_channels(&t, PRIM_ALLREDUCE, 4, 30, 2.5 * US, 30.0 / 16, 200e9, false);
    expect_channels(&t, PRIM_ALLREDUCE, 8, 30, 2.5 * US, 30.0 / 16, 200e9, false); /* two channels per NIC */
    expect_channels(&t, PRIM_ALLGATHER, 4, 15, 2.5 * US, 15.0 / 16, 200e9, false);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("channels");
    TCase *orders = tcase_create("orders and data");
    tcase_set_timeout(orders, 120);
    tcase_add_test(orders, test_full_mesh_rings_are_hamiltonian_and_arc_disjoint);
    tcase_add_test(orders, test_rail_channels_enter_each_node_at_their_own_gpu);
    tcase_add_test(orders, test_channelled_schedules_verify_on_data);
    tcase_add_test(orders, test_channels_refused_by_other_algorithms);
    suite_add_tcase(suite, orders);
    TCase *timing = tcase_create("timing");
    tcase_set_timeout(timing, 120);
    tcase_add_test(timing, test_star_channels_share_the_switch);
    tcase_add_test(timing, test_star_channels_overlap_in_the_packet_model);
    tcase_add_test(timing, test_full_mesh_channels_spread_over_disjoint_rings);
    tcase_add_test(timing, test_rail_channels_cross_nodes_on_their_own_nics);
    suite_add_tcase(suite, timing);
    return run_suite(suite);
}
