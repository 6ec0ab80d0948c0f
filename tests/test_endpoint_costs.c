/* test_endpoint_costs.c — the endpoint costs (docs/model.md), simulated and
 * predicted: the per-message sender overhead o (LogP's o: a rank is busy o
 * before each message it sends, so two back-to-back sends pay 2o and sends of
 * different ranks overlap), the per-collective launch cost, and NCCL's
 * protocols (wire bytes, base and per-hop latencies).  Every expected time is
 * derived here from the schedule's step structure; the protocol figures are
 * typed here from NCCL v2.23.4's src/graph/tuning.cc (baseLat, hwLat) and
 * its protocol formats (LL: 8 flag bytes per 8 data bytes; LL128: 8 per
 * 128), not read from collsim. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algo/algorithm.h"
#include "model/model.h"
#include "test_support.h"

#define US 1e-6
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const double sizes[] = {1e3, 1e6, 1e9};

static schedule *build(schedule_builder builder, int n)
{
    algo_params p = {.ranks = n};
    char why[256];
    schedule *s = builder(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    return s;
}

/* A case of NAME over all of T's ranks: M bytes of PRIM in SEGMENTS under PROTOCOL. */
static model_case whole(const topology *t, const char *name, primitive prim, protocol_id protocol, double m, int segments)
{
    return (model_case){.platform = t, .prim = prim, .algorithm = algorithm_find(prim, name), .ranks = t->ranks, .size_bytes = m,
                        .protocol = protocol, .segments = segments};
}

/* Such a case's prediction and, in COSTS (NULL: not wanted), the costs it
 * runs with (model_case_costs: the steps and the cap resolved), which the
 * prediction charges too. */
static prediction predict_segments(const topology *t, const char *name, primitive prim, protocol_id protocol, double m,
                                   int segments, endpoint_costs *costs)
{
    model_case c = whole(t, name, prim, protocol, m, segments);
    prediction p;
    char why[256];
    ck_assert_msg(model_predict(&c, &p, why, sizeof why), "%s", why);
    if (costs) {
        ck_assert_msg(model_case_costs(&c, costs, why, sizeof why), "%s", why);
        ck_assert(memcmp(costs, &p.costs, sizeof *costs) == 0);
    }
    return p;
}

static prediction predict(const topology *t, const char *name, primitive prim, protocol_id protocol, double m)
{
    return predict_segments(t, name, prim, protocol, m, 0, NULL);
}

static endpoint_costs case_costs_of(const topology *t, const char *name, primitive prim, protocol_id protocol, double m,
                                    int segments)
{
    endpoint_costs costs;
    predict_segments(t, name, prim, protocol, m, segments, &costs);
    return costs;
}

/* The costs of an all-reduce of NAME (PRIM for another collective) at 1 MB. */
static endpoint_costs costs_of_prim(const topology *t, const char *name, primitive prim, protocol_id protocol)
{
    return case_costs_of(t, name, prim, protocol, 1e6, 0);
}

static endpoint_costs costs_of(const topology *t, const char *name, protocol_id protocol)
{
    return costs_of_prim(t, name, PRIM_ALLREDUCE, protocol);
}

static void expect_close(double got, double expected, const char *what, double m)
{
    ck_assert_msg(relative_error(got, expected) < 1e-9, "%s, M = %g: %.17g, derived %.17g", what, m, got, expected);
}

/* BUILDER's schedule for PRIM over all N ranks of T, simulated with the
 * platform's endpoint costs and predicted as NAME, both against LAUNCH_S +
 * STEPS x (STEP_S + M / (N BW)): a step-synchronous schedule whose ranks send
 * one message of M/N per step. */
static void expect_steps(const topology *t, schedule_builder builder, const char *name, primitive prim, double steps,
                         double step_s, double launch_s, const char *what)
{
    schedule *s = build(builder, t->ranks);
    endpoint_costs costs = costs_of_prim(t, name, prim, PROTOCOL_NONE);
    for (size_t m = 0; m < COUNT(sizes); m++) {
        double expected = launch_s + steps * (step_s + sizes[m] / t->ranks / t->tiers[0].bandwidth_Bps);
        expect_simulated(t, s, NULL, sizes[m], &costs, expected, what);
        prediction p = predict(t, name, prim, PROTOCOL_NONE, sizes[m]);
        expect_close(p.time_s, expected, what, sizes[m]);
        ck_assert_double_eq_tol(p.launch_s, launch_s, 1e-18);
    }
    schedule_free(s);
}

/* Ring AR: in each of its 2(N-1) steps a rank sends one message of M/N after
 * the receive that brought its data; the send leaves o after it is ready:
 * 2(N-1)(o + alpha + M/(N BW)). */
START_TEST(test_overhead_ring_allreduce_pays_o_every_step)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\noverhead: 1us\n", &t);
    expect_steps(&t, allreduce_ring, "ring", PRIM_ALLREDUCE, 2 * 7, 1 * US + 0.5 * US, 0, "ring AR with o");
    topology_free(&t);
}
END_TEST

/* Pairwise A2A: N-1 rounds, each one send of M/N and one receive, the next
 * round after both: (N-1)(o + alpha + M/(N BW)). */
START_TEST(test_overhead_pairwise_alltoall_pays_o_every_round)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\noverhead: 2us\n", &t);
    expect_steps(&t, alltoall_pairwise, "pairwise", PRIM_ALLTOALL, 7, 2 * US + 0.5 * US, 0, "pairwise A2A with o");
    topology_free(&t);
}
END_TEST

/* Rank 0 sends chunk 0 to rank 1 and chunk 1 to rank 2, both ready at once;
 * rank 3 sends chunk 2 to rank 4.  With o = 10 us, far above one transfer
 * (alpha 0.5 us + 1 MB / 900 GB/s), rank 0's sends leave at o and 2o (the
 * endpoint is busy with one at a time) while rank 3's leaves at o too. */
START_TEST(test_overhead_charges_back_to_back_sends_of_one_rank_one_after_another)
{
    topology t;
    load_text("kind: star\nranks: 5\nalpha: 0.5us\nbandwidth: 900GBps\noverhead: 10us\n", &t);
    schedule *s = schedule_create(PRIM_ALLGATHER, 5, 0, 3);
    sched_send(s, 0, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_send(s, 0, 2, 1, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 2, 0, 1, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_send(s, 3, 4, 2, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 4, 3, 2, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    schedule_seal(s);
    endpoint_costs costs = costs_of(&t, "ring", PROTOCOL_NONE);
    double finish[5], transfer = 0.5 * US + 1e6 / 900e9;
    static const network_model models[] = {NETWORK_CM02, NETWORK_PACKET};
    for (int k = 0; k < 2; k++) { /* the busy sender is the endpoint's, in either network */
        simulate_schedule_with(&t, s, NULL, 3e6, &costs, finish, models[k]);
        expect_close(finish[1], 10 * US + transfer, "rank 0's first send", 1e6);
        expect_close(finish[2], 20 * US + transfer, "rank 0's second send: 2o", 1e6);
        expect_close(finish[0], 20 * US + transfer, "rank 0 finishes with its second send", 1e6);
        expect_close(finish[4], 10 * US + transfer, "rank 3's send overlaps rank 0's", 1e6);
    }
    schedule_free(s);
    topology_free(&t);
}
END_TEST

/* `launch` (the per-collective cost, NCCL's launch / base latency): every
 * rank starts after it, so the collective takes launch + its formula. */
START_TEST(test_launch_delays_the_whole_collective)
{
    topology t;
    load_text("kind: star\nranks: 16\nalpha: 0.5us\nbandwidth: 900GBps\nlaunch: 5us\n", &t);
    expect_steps(&t, allgather_ring, "ring", PRIM_ALLGATHER, 15, 0.5 * US, 5 * US, "ring AG with launch");
    topology_free(&t);
}
END_TEST

/* NCCL v2.23.4 tuning.cc, ring row, columns LL / LL128 / Simple. */
static const double nccl_ring_base_us[3] = {6.6, 14.0, 8.4};      /* baseLat[Ring] */
static const double nccl_ring_nvlink_hop_us[3] = {0.6, 1.9, 3.4}; /* hwLat[NVLINK][Ring] */
static const double nccl_ring_net_hop_us[3] = {2.7, 4.0, 14.0};   /* hwLat[NET][Ring] */
/* Wire bytes per data byte: an LL line of 16 bytes holds 8 of data and two
 * 4-byte flags; an LL128 line of 128 bytes holds 120 of data and 8 of flag. */
static const double wire_per_byte[3] = {2.0, 128.0 / 120.0, 1.0};
static const protocol_id protocols[3] = {PROTOCOL_LL, PROTOCOL_LL128, PROTOCOL_SIMPLE};

/* Ring AR on 8 ranks of T under each protocol, simulated and predicted,
 * against: base latency once, then 2(N-1) steps of the slowest connection,
 * each paying HOP_US[p] - HOP_US[LL] on top of ALPHA_S (LL's hop is the
 * platform's α) and the wire bytes of M/N at BANDWIDTH_BPS. */
static void expect_ring_under_protocols(const topology *t, const double hop_us[3], double alpha_s, double bandwidth_Bps,
                                        const char *what)
{
    schedule *s = build(allreduce_ring, 8);
    for (int p = 0; p < 3; p++) {
        endpoint_costs costs = costs_of(t, "ring", protocols[p]);
        double hop = (hop_us[p] - hop_us[0]) * US;
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double expected = nccl_ring_base_us[p] * US + 2 * 7 * (hop + alpha_s + wire_per_byte[p] * sizes[m] / 8 / bandwidth_Bps);
            char label[96];
            snprintf(label, sizeof label, "%s under %s", what, protocol_name(protocols[p]));
            expect_simulated(t, s, NULL, sizes[m], &costs, expected, label);
            expect_close(predict(t, "ring", PRIM_ALLREDUCE, protocols[p], sizes[m]).time_s, expected, label, sizes[m]);
        }
    }
    schedule_free(s);
}

/* On one NVSwitch (an HGX star, alpha = NCCL's LL NVLink hop): a protocol
 * adds its base latency once and hwLat[p] - hwLat[LL] per step, and moves
 * wire_per_byte bytes per data byte. */
START_TEST(test_protocols_on_a_star_ring_cost_what_nccl_tunes_with)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\n", &t);
    expect_ring_under_protocols(&t, nccl_ring_nvlink_hop_us, 0.6 * US, 450e9, "ring AR on a star");
    topology_free(&t);
}
END_TEST

/* Two nodes of 4 GPUs: rank order crosses nodes from GPU 3 to GPU 0, a
 * cross-rail route relayed over NVLink (alpha_nvlink + alpha_leaf), whose
 * messages pay the network's hop latency; the ring's 2(N-1) steps run at the
 * pace of that connection. */
START_TEST(test_protocol_hop_latency_follows_the_route_tier)
{
    topology t;
    load_text("kind: rail_cluster\nnodes: 2\ngpus_per_node: 4\n"
              "nvlink: {alpha: 0.6us, bandwidth: 450GBps}\n"
              "network: {alpha_leaf: 2.7us, alpha_spine: 3us, bandwidth: 50GBps}\n",
              &t);
    /* raw, per tier: the network's step latency; resolved: 2(N-1) = 14 steps at it in the launch, no overhead */
    endpoint_costs raw;
    endpoint_costs_of(&t, NULL, FAMILY_RING, PROTOCOL_SIMPLE, 1, &raw);
    ck_assert_double_eq_tol(raw.step_s[1], (14.0 - 2.7) * US, 1e-15);
    ck_assert_double_eq_tol(raw.overhead_s[1], 0, 1e-18);
    endpoint_costs simple = costs_of(&t, "ring", PROTOCOL_SIMPLE);
    ck_assert_double_eq_tol(simple.launch_s, (8.4 + 14 * (14.0 - 2.7)) * US, 1e-15);
    expect_ring_under_protocols(&t, nccl_ring_net_hop_us, (0.6 + 2.7) * US, 50e9, "two-node ring AR");
    topology_free(&t);
}
END_TEST

/* A pipelined ring broadcast of P segments on 8 ranks of a star: 01 App.
 * C.3's (N-1+P-1)(α + M/(P·BW)), plus Simple's base latency and its per-hop
 * latency hwLat[NVLINK][Ring][Simple] - hwLat[LL] once per step of the chain
 * — N - 1 steps whatever P is (NCCL's model: nsteps · hwLat), not once per
 * segment message. */
START_TEST(test_protocol_step_latency_is_paid_once_per_step_not_per_segment)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\n", &t);
    static const int segment_counts[] = {1, 4, 16};
    for (size_t k = 0; k < COUNT(segment_counts); k++) {
        int p = segment_counts[k];
        algo_params q = {.ranks = 8, .segments = p};
        char why[256];
        schedule *s = bcast_ring(&q, why, sizeof why);
        ck_assert_msg(s != NULL, "%s", why);
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double expected = 8.4 * US + 7 * (3.4 - 0.6) * US + (7 + p - 1) * (0.6 * US + sizes[m] / p / 450e9);
            endpoint_costs costs = case_costs_of(&t, "ring", PRIM_BCAST, PROTOCOL_SIMPLE, sizes[m], p);
            expect_simulated(&t, s, NULL, sizes[m], &costs, expected, "ring BC under Simple");
            expect_close(predict_segments(&t, "ring", PRIM_BCAST, PROTOCOL_SIMPLE, sizes[m], p, NULL).time_s, expected,
                         "ring BC under Simple, predicted", sizes[m]);
        }
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* NCCL caps LL's bus bandwidth at llMaxBw (tuning.cc: busBw = min(llMaxBw,
 * busBw · 0.5)): ring AR on 8 ranks of a 450 GB/s star runs LL at half the
 * link, 225 GB/s of bus bandwidth, above a 100 GB/s cap, so its BW term is
 * the bus bandwidth's, 2(N-1)/N · M / 100 GB/s; with a 300 GB/s cap (above
 * 225) nothing changes.  Simple is not capped by ll_max_bw. */
START_TEST(test_ll_bus_bandwidth_cap)
{
    static const double caps[] = {100e9, 300e9};
    for (size_t k = 0; k < COUNT(caps); k++) {
        char text[160];
        snprintf(text, sizeof text,
                 "kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\nll_max_bw: %gGBps\nll128_max_bw: 150GBps\n",
                 caps[k] / 1e9);
        topology t;
        load_text(text, &t);
        schedule *s = build(allreduce_ring, 8);
        for (size_t m = 0; m < COUNT(sizes); m++) {
            double bus = caps[k] < 225e9 ? caps[k] : 225e9;
            double expected = 6.6 * US + 14 * 0.6 * US + 2.0 * 7 / 8 * sizes[m] / bus;
            endpoint_costs ll = case_costs_of(&t, "ring", PRIM_ALLREDUCE, PROTOCOL_LL, sizes[m], 0);
            expect_simulated(&t, s, NULL, sizes[m], &ll, expected, "ring AR under capped LL");
            expect_close(predict(&t, "ring", PRIM_ALLREDUCE, PROTOCOL_LL, sizes[m]).time_s, expected,
                         "ring AR under capped LL, predicted", sizes[m]);
            /* LL128 under a cap of its own (ll128_max_bw, NCCL's channels x perChMaxRingLL128Bw):
             * 120/128 of 450 GB/s, 421.875 GB/s, above 150 GB/s */
            double ll128 = 14.0 * US + 14 * 1.9 * US + 2.0 * 7 / 8 * sizes[m] / 150e9;
            expect_close(predict(&t, "ring", PRIM_ALLREDUCE, PROTOCOL_LL128, sizes[m]).time_s, ll128,
                         "ring AR under capped LL128, predicted", sizes[m]);
            double simple = 8.4 * US + 14 * 3.4 * US + 2.0 * 7 / 8 * sizes[m] / 450e9;
            expect_close(predict(&t, "ring", PRIM_ALLREDUCE, PROTOCOL_SIMPLE, sizes[m]).time_s, simple,
                         "ring AR under Simple beside an LL cap", sizes[m]);
        }
        schedule_free(s);
        topology_free(&t);
    }
}
END_TEST

/* COSTS charge LAUNCH_S, OVERHEAD_S on every tier, and one wire byte per byte. */
static void expect_costs(const endpoint_costs *costs, double launch_s, double overhead_s)
{
    ck_assert_double_eq_tol(costs->launch_s, launch_s, 1e-15);
    for (int k = 0; k < TOPO_MAX_TIERS; k++) ck_assert_double_eq_tol(costs->overhead_s[k], overhead_s, 1e-18);
    ck_assert_int_eq(costs->wire_numerator, 1);
    ck_assert_int_eq(costs->wire_denominator, 1);
}

/* NVLS (collsim's inc) runs Simple only; NCCL charges its NVLink latency,
 * hwLat[NVLINK][NVLS][Simple] = 25 us, once per collective (baseLat 0). */
START_TEST(test_nvls_pays_its_latency_once)
{
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\nalpha_switch: 0.3us\ninc: [reduce, multicast]\n", &t);
    endpoint_costs costs = costs_of(&t, "inc", PROTOCOL_SIMPLE);
    expect_costs(&costs, 25 * US, 0);
    inc_tree tree;
    inc_tree_single_switch(&tree, 8, 8);
    algo_params p = {.ranks = 8, .segments = 4, .inc = &tree};
    char why[256];
    schedule *s = allreduce_inc(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    for (size_t m = 0; m < COUNT(sizes); m++) { /* 04 §2: (P+1)(alpha_switch + M/(P BW)) at P = 4 */
        double expected = 25 * US + 5 * (0.3 * US + sizes[m] / 4 / 450e9);
        expect_simulated(&t, s, NULL, sizes[m], &costs, expected, "NVLS AR");
    }
    schedule_free(s);
    inc_tree_free(&tree);
    topology_free(&t);
}
END_TEST

/* Without a protocol and with no overhead or launch on the platform, the
 * endpoint costs vanish: the seed's model. */
START_TEST(test_no_protocol_no_costs)
{
    topology t;
    load_shipped("star-512", &t);
    endpoint_costs costs = costs_of(&t, "ring", PROTOCOL_NONE);
    expect_costs(&costs, 0, 0);
    prediction p = predict(&t, "ring", PRIM_ALLREDUCE, PROTOCOL_NONE, 16e6);
    expect_close(p.time_s, 2 * 511 * 0.5 * US + 2.0 * 511 / 512 * 16e6 / 900e9, "seed ring AR (04 §3.1)", 16e6);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("endpoint costs");
    TCase *overhead = tcase_create("overhead and launch");
    tcase_set_timeout(overhead, 120);
    tcase_add_test(overhead, test_overhead_ring_allreduce_pays_o_every_step);
    tcase_add_test(overhead, test_overhead_pairwise_alltoall_pays_o_every_round);
    tcase_add_test(overhead, test_overhead_charges_back_to_back_sends_of_one_rank_one_after_another);
    tcase_add_test(overhead, test_launch_delays_the_whole_collective);
    tcase_add_test(overhead, test_no_protocol_no_costs);
    suite_add_tcase(suite, overhead);
    TCase *protocol = tcase_create("protocols");
    tcase_set_timeout(protocol, 120);
    tcase_add_test(protocol, test_protocols_on_a_star_ring_cost_what_nccl_tunes_with);
    tcase_add_test(protocol, test_protocol_hop_latency_follows_the_route_tier);
    tcase_add_test(protocol, test_protocol_step_latency_is_paid_once_per_step_not_per_segment);
    tcase_add_test(protocol, test_ll_bus_bandwidth_cap);
    tcase_add_test(protocol, test_nvls_pays_its_latency_once);
    suite_add_tcase(suite, protocol);
    return run_suite(suite);
}
