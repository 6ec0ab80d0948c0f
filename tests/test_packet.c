/* test_packet.c — the packet model (docs/packet.md) against forms derived
 * here: uncontended messages on every path class take alpha + M/BW with
 * cut-through, plus one packet per extra link with store-and-forward, plus
 * their header bytes; a buffer below the credit loop makes a lone flow
 * window-bound; full buffers stall an upstream flow (backpressure); the
 * torus dateline prevents the deadlock a ring of full buffers has; spray and
 * adaptive routing spread what ECMP piles onto one link; the event list and
 * the exact serialization underneath. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/executor.h"
#include "net/packet/event_list.h"
#include "net/packet/packet_flows.h"
#include "net/packet/port.h"
#include "test_support.h"

#define EXACT 1e-9
#define MTU 4096.0

static const double sizes[] = {1, 1024, 4096, 4097, 1048576, 1e9};
#define SIZE_COUNT ((int)(sizeof sizes / sizeof sizes[0]))
/* the variants (store-and-forward, headers) stop at 64 MiB, 16,384 packets: a
 * busy period long enough to show one rounding per period, at a fifth of the
 * suite's time of 1 GB on every path */
static const double variant_sizes[] = {1, 1024, 4096, 4097, 1048576, 67108864};

/* One message alone on T: its arrival time. */
static double one_message(const topology *t, int src, int dst, double size)
{
    flow f = {src, dst, size, 0};
    double finish = 0;
    diag d = {0};
    engine *e = packet_run_flows(t, &f, 1, true, &finish, &d);
    if (!e) ck_abort_msg("packet run failed: %s", d.message);
    engine_free(e);
    return finish;
}

/* A path's expected time with H header bytes per packet, cut-through or
 * store-and-forward.  The message is ceil(M/MTU) packets, M + n·H bytes on
 * the wire through the bottleneck; store-and-forward holds each packet whole
 * at every link after the first, and a pipeline of packets pays that once:
 * the first packet's wire time on every link but the bottleneck's (the links
 * after the first bottleneck one all run at its bandwidth). */
static double expected_time(const path_case *p, double m, double header, bool store_and_forward)
{
    double packets = m > 0 ? ceil(m / MTU) : 1, first = (m < MTU ? m : MTU) + header;
    double t = p->alpha_s + (m + packets * header) / p->bandwidth_Bps;
    if (!store_and_forward) return t;
    double links_at_bottleneck = p->links - p->relay_links;
    return t + (links_at_bottleneck - 1) * first / p->bandwidth_Bps + p->relay_links * first / (p->relay_Bps ? p->relay_Bps : 1);
}

static void expect_path_times(const path_case *p, const char *packet_yaml, double header, bool store_and_forward)
{
    topology t;
    load_shipped_with(p->platform, packet_yaml, &t);
    const double *ms = packet_yaml[0] ? variant_sizes : sizes;
    for (int s = 0; s < SIZE_COUNT; s++) {
        double expected = expected_time(p, ms[s], header, store_and_forward);
        double simulated = one_message(&t, p->src, p->dst, ms[s]);
        ck_assert_msg(relative_error(simulated, expected) < EXACT, "%s (%s), M = %.0f: simulated %.17g, expected %.17g",
                      p->what, packet_yaml, ms[s], simulated, expected);
    }
    topology_free(&t);
}

START_TEST(test_cut_through_takes_alpha_plus_m_over_bw)
{
    expect_path_times(&path_cases[_i], "", 0, false);
}
END_TEST

START_TEST(test_store_and_forward_adds_a_packet_per_further_link)
{
    expect_path_times(&path_cases[_i], "packet: {switching: store_and_forward}", 0, true);
    /* output queues take a packet across the crossbar cut-through: no packet more */
    expect_path_times(&path_cases[_i], "packet: {switching: store_and_forward, architecture: shared, speedup: 2}", 0, true);
}
END_TEST

/* InfiniBand's ~60 B of headers per packet (docs/packet.md) */
START_TEST(test_headers_add_their_bytes_to_every_packet)
{
    expect_path_times(&path_cases[_i], "packet: {header: 60B}", 60, false);
    expect_path_times(&path_cases[_i], "packet: {header: 60B, switching: store_and_forward}", 60, true);
}
END_TEST

/* A coarse unit (docs/scale.md, "Coarse units"): the engine moves 16
 * packets at once, cut through as a train, each with its header; a lone
 * message keeps the exact form of its packets, alpha + (M + n H)/BW. */
START_TEST(test_a_coarse_unit_keeps_the_exact_forms)
{
    expect_path_times(&path_cases[_i], "packet: {unit: 64KiB}", 0, false);
    expect_path_times(&path_cases[_i], "packet: {unit: 64KiB, header: 60B}", 60, false);
}
END_TEST

/* The largest units at the executor's largest scale (every byte and bandwidth
 * times 2^10: docs/architecture.md, "The schedule"): a unit of 976 packets,
 * 3,997,696 B, with 60 B headers is 4,056,256 B on the wire, past 2^31 scaled
 * bytes; a lone message still takes alpha + (M + n H)/BW, n its 4 KiB
 * packets. */
START_TEST(test_the_largest_unit_keeps_the_exact_forms_at_the_largest_scale)
{
    const path_case *p = &path_cases[_i];
    const double scale = 1024;
    topology t;
    load_shipped_with(p->platform, "packet: {unit: 3997696, header: 60B}", &t);
    for (int s = 0; s < SIZE_COUNT; s++) {
        engine *e = engine_create(&t, scale);
        engine_use_virtual_channels(e, true);
        flow f = {p->src, p->dst, variant_sizes[s] * scale, 0};
        double finish = 0;
        diag d = {0};
        ck_assert_msg(packet_run_flows_on(e, &f, 1, &finish, &d), "%s", d.message);
        double expected = expected_time(p, variant_sizes[s], 60, false);
        ck_assert_msg(relative_error(finish, expected) < EXACT, "%s, M = %.0f: simulated %.17g, expected %.17g",
                      p->what, variant_sizes[s], finish, expected);
        engine_free(e);
    }
    topology_free(&t);
}
END_TEST

/* A buffer of W packets below the credit loop: the rank may have only W
 * packets unacknowledged, and a packet's credit comes back R = 2l + w/b after
 * it started (its head crosses the link, it leaves the switch as its tail
 * is forwarded, the credit crosses back).  So packet k starts at
 * floor(k/W)·R + (k mod W)·w/b and the last one arrives alpha + w/b later. */
START_TEST(test_a_buffer_below_the_credit_loop_bounds_a_lone_flow_by_its_window)
{
    topology t;
    load_text("kind: star\nranks: 4\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {buffer: 64KiB}\n", &t);
    ck_assert_msg(packet_buffer_bytes(&t, 0) < packet_credit_loop_bytes(&t, 0), "64 KiB should be below the loop");
    const double alpha = 0.5e-6, latency = alpha / 2, bw = 900e9, w = MTU, window = 65536 / MTU;
    const double round_trip = 2 * latency + w / bw;
    ck_assert(window * w / bw < round_trip);
    static const double packets[] = {1, 16, 17, 256, 1000};
    for (int i = 0; i < 5; i++) {
        double n = packets[i], last = n - 1;
        double expected = floor(last / window) * round_trip + fmod(last, window) * w / bw + w / bw + alpha;
        double simulated = one_message(&t, 0, 1, n * MTU);
        ck_assert_msg(relative_error(simulated, expected) < EXACT, "%g packets: simulated %.17g, expected %.17g", n,
                      simulated, expected);
    }
    topology_free(&t);
}
END_TEST

/* The default buffer covers the loop: the same flow streams at full rate. */
START_TEST(test_the_default_buffer_covers_the_credit_loop)
{
    topology t;
    load_text("kind: star\nranks: 4\nalpha: 0.5us\nbandwidth: 900GBps\n", &t);
    /* 2l·b / w = 0.5 us · 900 GB/s / 4096 B = 109.9 packets in flight, +1 for the packet being sent */
    ck_assert_double_eq(packet_buffer_bytes(&t, 0), (ceil(0.5e-6 * 900e9 / MTU) + 1) * MTU);
    double simulated = one_message(&t, 0, 1, 1000 * MTU);
    ck_assert(relative_error(simulated, 0.5e-6 + 1000 * MTU / 900e9) < EXACT);
    topology_free(&t);
}
END_TEST

/* Backpressure (explainer 05 §2.2, §6.4).  Three leaves of 4 ranks under one
 * spine (uplinks 4 x BW, never the bottleneck).  A: r0 -> r4 and C: r1 -> r8
 * share only leaf 0's uplink and the spine's buffer from it; at leaf 1, r4's
 * port is shared by A and three local flows r5, r6, r7 -> r4, so A drains at
 * BW/4.  Unbounded buffers hold A's backlog at leaf 1 and C streams at BW:
 * alpha + M/BW.  With credits, leaf 1's buffer fills, the spine's port to it
 * stalls, A's packets wait at the head of the spine's FIFO and C's packets
 * behind them (head of line): C drains 1:1 with A, about alpha + 4M/BW. */
static void congestion_run(const char *packet_yaml, double *c_finish, double *stalled_s)
{
    char yaml[512];
    snprintf(yaml, sizeof yaml, "kind: clos\nleaves: 3\nranks_per_leaf: 4\nspines: 1\nalpha_leaf: 2us\nalpha_spine: 8us\n"
             "bandwidth: 50GBps\n%s", packet_yaml);
    topology t;
    load_text(yaml, &t);
    const double m = 8e6;
    flow flows[5] = {{0, 4, m, 0}, {1, 8, m, 0}, {5, 4, m, 0}, {6, 4, m, 0}, {7, 4, m, 0}};
    double finish[5];
    diag d = {0};
    engine *e = packet_run_flows(&t, flows, 5, true, finish, &d);
    if (!e) ck_abort_msg("%s", d.message);
    *c_finish = finish[1];
    route_hop *hops = route_buffer(&t);
    int n = topology_route(&t, 0, 4, hops), spine_down = -1;
    for (int h = 0; h < n; h++)
        if (hops[h].down && !t.links[hops[h].link].latency_only && spine_down < 0) spine_down = 2 * hops[h].link + 1;
    free(hops);
    ck_assert(spine_down >= 0);
    *stalled_s = net_time_to_seconds(engine_port(e, spine_down)->stalled);
    engine_free(e);
    topology_free(&t);
}

START_TEST(test_full_buffers_stall_a_flow_that_shares_only_an_upstream_link)
{
    const double alpha = 8e-6, bw = 50e9, m = 8e6;
    double unbounded, unbounded_stall, lossless, lossless_stall;
    congestion_run("packet: {flow_control: none}\n", &unbounded, &unbounded_stall);
    congestion_run("", &lossless, &lossless_stall);
    ck_assert_msg(relative_error(unbounded, alpha + m / bw) < 0.01, "unbounded: C took %.9g, alone %.9g", unbounded,
                  alpha + m / bw);
    /* held back at least twice as long, never longer than A itself takes at BW/4 */
    ck_assert_msg(lossless > 2 * unbounded && lossless < (alpha + 4 * m / bw) * 1.01,
                  "credits: C took %.9g (unbounded %.9g, A's share alone %.9g)", lossless, unbounded, alpha + 4 * m / bw);
    /* C waits only while the spine's port to leaf 1 waits for credits */
    ck_assert_msg(unbounded_stall == 0 && lossless_stall >= 0.9 * (lossless - unbounded),
                  "spine port to leaf 1 stalled %.9g s (unbounded %.9g s); C was delayed %.9g s", lossless_stall,
                  unbounded_stall, lossless - unbounded);
}
END_TEST

/* A ring of 8 (torus dims [8]) where every rank sends 3 hops on: with one
 * packet of buffer, the first packets fill every buffer on the ring with
 * packets that must go on, each waiting for the next, full one.  The
 * dateline's second virtual channel breaks the cycle, whether the arcs
 * that do not cross the dateline keep to the first channel or are spread
 * over both (each keeping its channel: `channels: dateline`, `balanced`). */
START_TEST(test_the_torus_dateline_prevents_a_ring_deadlock)
{
    static const char *const rules[] = {"dateline", "balanced"};
    for (int k = 0; k < 2; k++) {
        char yaml[192];
        snprintf(yaml, sizeof yaml,
                 "kind: torus\ndims: [8]\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {buffer: 4KiB, router: {channels: %s}}\n",
                 rules[k]);
        topology t;
        load_text(yaml, &t);
        flow flows[8];
        for (int i = 0; i < 8; i++) flows[i] = (flow){i, (i + 3) % 8, 64 * MTU, 0};
        double finish[8];
        diag d = {0};
        engine *e = packet_run_flows(&t, flows, 8, false, finish, &d);
        ck_assert_msg(!e && strstr(d.message, "deadlocked"), "%s: without virtual channels the ring should deadlock",
                      rules[k]);
        d = (diag){0};
        e = packet_run_flows(&t, flows, 8, true, finish, &d);
        ck_assert_msg(e != NULL, "%s, with the dateline: %s", rules[k], d.message);
        for (int i = 0; i < 8; i++) ck_assert(finish[i] > 3 * 0.5e-6 + 64 * MTU / 900e9);
        engine_free(e);
        topology_free(&t);
    }
}
END_TEST

/* Two flows leaving one edge of the k = 4 fat-tree for another pod, hashed
 * by ECMP onto the same uplink: each gets BW/2.  Adaptive uses both
 * uplinks: each flow runs at its access link's BW again.  Spray hashes each
 * packet's entropy to an uplink: both are used, but each flow's share of
 * each is a draw, and two flows at full rate over two links queue (a load
 * of one at random): each flow between its link's rate and ECMP's half,
 * closer to its link's (under 1.5 M/BW). */
START_TEST(test_adaptive_and_spray_spread_flows_ecmp_piles_up)
{
    topology t;
    load_shipped("fat-tree-k4", &t);
    flow other; /* from r1, r0's edge-mate, to another edge than r8's; hop 1: the edge's uplink */
    ck_assert_msg(find_flow_by_hop(&t, 0, 8, 1, 1, 1, 10, 15, true, &other), "no ECMP collision found");
    const int dst_a = 8, dst_b = other.dst;
    topology_free(&t);
    const double alpha = 12e-6, bw = 50e9, m = 64e6;
    static const char *const modes[] = {"", "packet: {routing: spray}", "packet: {routing: adaptive}"};
    for (int k = 0; k < 3; k++) {
        load_shipped_with("fat-tree-k4", modes[k], &t);
        flow flows[2] = {{0, dst_a, m, 0}, {1, dst_b, m, 0}};
        double finish[2];
        diag d = {0};
        engine *e = packet_run_flows(&t, flows, 2, true, finish, &d);
        if (!e) ck_abort_msg("%s", d.message);
        double expected = alpha + (k == 0 ? 2 : 1) * m / bw;
        for (int f = 0; f < 2; f++)
            if (k == 1)
                ck_assert_msg(finish[f] > alpha + m / bw && finish[f] < alpha + 1.5 * m / bw,
                              "spray: flow %d took %.9g, expected between %.9g and %.9g", f, finish[f], alpha + m / bw,
                              alpha + 1.5 * m / bw);
            else
                ck_assert_msg(relative_error(finish[f], expected) < 0.01, "%s: flow %d took %.9g, expected %.9g",
                              modes[k][0] ? modes[k] : "ecmp", f, finish[f], expected);
        engine_free(e);
        topology_free(&t);
    }
}
END_TEST

/* Spray and adaptive choose among paths of equal latency: a lone flow still
 * takes alpha + M/BW exactly. */
START_TEST(test_spray_and_adaptive_keep_a_lone_flow_exact)
{
    static const char *const modes[] = {"packet: {routing: spray}", "packet: {routing: adaptive}"};
    static const char *const platforms[] = {"fat-tree-k4", "clos-16", "superpod-l32"};
    static const int pairs[][2] = {{0, 15}, {0, 15}, {0, 2303}};
    static const double alpha[] = {12e-6, 8e-6, 8.5e-6};
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < 3; p++) {
            topology t;
            load_shipped_with(platforms[p], modes[k], &t);
            for (int s = 0; s < SIZE_COUNT - 1; s++) {
                double expected = alpha[p] + sizes[s] / 50e9;
                double simulated = one_message(&t, pairs[p][0], pairs[p][1], sizes[s]);
                ck_assert_msg(relative_error(simulated, expected) < EXACT, "%s on %s, M = %.0f: %.17g, expected %.17g",
                              modes[k], platforms[p], sizes[s], simulated, expected);
            }
            topology_free(&t);
        }
}
END_TEST

/* BUILD's schedule on N ranks of T under the packet model, through the
 * executor (the rank actors run the schedule, the fabric actor the
 * packets), at each of the COUNT sizes MS, against EXPECTED(n, m). */
static void expect_packet_schedule(const topology *t, schedule_builder build, int n, const double *ms, int count,
                                   time_formula expected, const char *what)
{
    algo_params p = {.ranks = n};
    char why[256];
    schedule *s = build(&p, why, sizeof why);
    const sim_options packets = {.model = NETWORK_PACKET};
    for (int m = 0; m < count; m++) expect_time_with(t, s, ms[m], expected(n, ms[m], 1), what, &packets);
    schedule_free(s);
}

/* 01 §5.1 */
static double ring_allreduce_time(double n, double m, double p)
{
    (void)p;
    return 2 * (n - 1) * 0.5e-6 + 2 * (n - 1) / n * m / 900e9;
}

/* 01 §6 over a Clos in leaf order: every step waits for its slowest hop */
static double leaf_ring_allgather_time(double n, double m, double p)
{
    (void)p;
    return (n - 1) * (8e-6 + m / n / 50e9);
}

/* Ring all-reduce on stars of 4 to 512 ranks takes the seed formula, as
 * test_schedules.c shows under CM02 (1 GB only where it stays quick: N = 512
 * moves 1022 x 512 messages). */
START_TEST(test_ring_allreduce_star_matches_formula)
{
    static const int ranks[] = {4, 16, 72, 512};
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
        char yaml[256];
        snprintf(yaml, sizeof yaml, "kind: star\nranks: %d\nalpha: 0.5us\nbandwidth: 900GBps\n", ranks[r]);
        topology t;
        load_text(yaml, &t);
        double ms[] = {1e3, 1e6, ranks[r] == 4 ? 1e9 : ranks[r] == 512 ? 16e6 : 64e6};
        expect_packet_schedule(&t, allreduce_ring, ranks[r], ms, 3, ring_allreduce_time, "packet ring AR on a star");
        topology_free(&t);
    }
}
END_TEST

/* A ring whose hops differ: all-gather over the 16 ranks of a Clos in leaf
 * order (alpha_spine 8 us between leaves, 2 us within): the fast hops must
 * not run ahead of the slow ones, as under CM02. */
START_TEST(test_a_ring_with_slow_and_fast_hops_waits_for_the_slow_ones)
{
    topology t;
    load_shipped("clos-16-s4-spread", &t);
    static const double ms[] = {1e6, 16e6};
    expect_packet_schedule(&t, allgather_ring, 16, ms, 2, leaf_ring_allgather_time, "packet ring AG, leaf order, clos-16-s4");
    topology_free(&t);
}
END_TEST

/* What the engine keeps for the per-message and per-link views
 * (docs/output.md), for one 1 MiB message alone on a star
 * (256 packets, 2 ports): its record, and each port's bytes, packets and
 * busy time M/BW; the destination buffer holds at most what is in flight
 * on its link, alpha/2 x BW plus the packet arriving, and nothing stalls.
 * A packet fills the destination's buffer from its start on the last link
 * until its tail is in, w/b + alpha/2: 256 of them make the occupancy's
 * time integral. */
START_TEST(test_the_engine_keeps_message_and_port_counters)
{
    topology t;
    load_text("kind: star\nranks: 4\nalpha: 0.5us\nbandwidth: 900GBps\n", &t);
    flow f = {0, 1, 1048576, 1e-6};
    double finish = 0;
    diag d = {0};
    engine *e = packet_run_flows(&t, &f, 1, true, &finish, &d);
    ck_assert(e != NULL && engine_message_count(e) == 1);
    const message_record *m = engine_message(e, 0);
    ck_assert(m->src == 0 && m->dst == 1 && m->bytes == 1048576);
    ck_assert(m->posted == net_time_from_seconds(1e-6) && m->injected == m->posted);
    ck_assert(relative_error(net_time_to_seconds(m->delivered), 1e-6 + 0.5e-6 + 1048576 / 900e9) < EXACT);
    route_hop *hops = route_buffer(&t);
    int n = topology_route(&t, 0, 1, hops);
    ck_assert_int_eq(n, 2);
    for (int h = 0; h < n; h++) {
        const port *p = engine_port(e, 2 * hops[h].link + hops[h].down);
        const port_buffer *far = engine_port_buffers(e, 2 * hops[h].link + hops[h].down);
        ck_assert(p->bytes == 1048576 && p->packets == 256 && p->stalled == 0);
        ck_assert(relative_error(net_time_to_seconds(p->busy), 1048576 / 900e9) < EXACT);
        ck_assert(far[0].occupancy == 0 && far[0].peak_occupancy <= 0.25e-6 * 900e9 + 2 * MTU);
    }
    engine_port(e, 2 * hops[1].link + hops[1].down);
    const port_buffer *last = engine_port_buffers(e, 2 * hops[1].link + hops[1].down);
    double integral = 256 * MTU * (MTU / 900e9 + 0.25e-6) * NET_TIME_PER_SECOND;
    ck_assert_msg(relative_error(last[0].occupancy_integral, integral) < 1e-9, "integral %.17g, expected %.17g",
                  last[0].occupancy_integral, integral);
    free(hops);
    engine_free(e);
    topology_free(&t);
}
END_TEST

/* Pop L's events until none is left: their targets are ORDER's N, in order. */
static void expect_pop_order(event_list *l, const int *order, int n)
{
    event e;
    for (int i = 0; i < n; i++) {
        ck_assert(event_pop(l, NET_TIME_NEVER, &e));
        ck_assert_int_eq(e.target, order[i]);
    }
    ck_assert(!event_pop(l, NET_TIME_NEVER, &e));
}

START_TEST(test_events_at_one_time_run_in_the_order_scheduled)
{
    event_list l;
    event_list_init(&l, 4); /* slots of 16 as: the times below share and cross slots */
    static const net_time times[] = {50, 10, 50, 30, 10, 50, 20};
    for (int i = 0; i < 7; i++) event_schedule(&l, times[i], 0, i);
    static const int order[] = {1, 4, 6, 3, 0, 2, 5};
    expect_pop_order(&l, order, 7);
    event_list_free(&l);
}
END_TEST

/* After the engine ran to time 10, it may still schedule at 10: the
 * calendar must not have moved past it to the next event, far ahead. */
START_TEST(test_events_scheduled_after_a_bounded_pop_keep_their_order)
{
    event_list l;
    event_list_init(&l, 4);
    event e;
    event_schedule(&l, 5, 0, 0);
    event_schedule(&l, 1000000, 0, 1);
    ck_assert(event_pop(&l, 10, &e) && e.target == 0);
    ck_assert(!event_pop(&l, 10, &e));
    event_schedule(&l, 20, 0, 2);
    event_schedule(&l, 10, 0, 3);
    static const int order[] = {3, 2, 1};
    expect_pop_order(&l, order, 3);
    event_list_free(&l);
}
END_TEST

/* Slots of 16 as and 16,384 of them: the calendar spans 262,144 as.  Events
 * at 300,000 scheduled at time 0 wait beyond it (a heap); one scheduled
 * there once the calendar reaches it comes after them all the same. */
START_TEST(test_events_beyond_the_calendar_keep_the_order_scheduled)
{
    event_list l;
    event_list_init(&l, 4);
    event e;
    event_schedule(&l, 300000, 0, 0);
    event_schedule(&l, 200000, 0, 1);
    event_schedule(&l, 300000, 0, 2);
    ck_assert(event_pop(&l, NET_TIME_NEVER, &e) && e.target == 1);
    event_schedule(&l, 300000, 0, 3);
    event_schedule(&l, 299999, 0, 4);
    static const int order[] = {4, 0, 2, 3};
    expect_pop_order(&l, order, 4);
    event_list_free(&l);
}
END_TEST

/* Pop L's events until none is left into OUT (at most N); their count. */
static int pop_all(event_list *l, event *out, int n)
{
    int k = 0;
    while (k < n && event_pop(l, NET_TIME_NEVER, &out[k])) k++;
    return k;
}

/* Shuffled ties: ten events at each of three times, one of them in the
 * current slot, one in a bucket and one beyond the calendar (a heap; slots
 * of 16 as span 262,144 as), scheduled forwards and backwards.  Under one
 * seed both pop in one order, whatever the order scheduled; times never go
 * back; another seed gives another order; and the order scheduled is not
 * what a seed gives (the chance that a drawn order of ten is that one is
 * 1 in 3.6 million, three times over). */
static void schedule_ties(event_list *l, bool backwards)
{
    static const net_time times[] = {5, 40, 300000};
    for (int k = 0; k < 30; k++) {
        int i = backwards ? 29 - k : k;
        event_schedule(l, times[i / 10], i % 2, i);
    }
}

START_TEST(test_shuffled_ties_do_not_depend_on_the_order_scheduled)
{
    event order[3][31];
    for (int run = 0; run < 3; run++) {
        event_list l;
        event_list_init(&l, 4);
        event_list_shuffle_ties(&l, run < 2 ? 7 : 8);
        schedule_ties(&l, run == 1);
        ck_assert_int_eq(pop_all(&l, order[run], 31), 30);
        event_list_free(&l);
    }
    bool other_seed_differs = false, shuffled = false;
    for (int k = 0; k < 30; k++) {
        ck_assert(order[0][k].time == order[1][k].time && order[0][k].target == order[1][k].target);
        if (k > 0) ck_assert(order[0][k].time >= order[0][k - 1].time);
        static const net_time at[] = {5, 40, 300000};
        ck_assert(order[0][k].time == at[k / 10]); /* each tie stays at its time */
        other_seed_differs |= order[2][k].target != order[0][k].target;
        shuffled |= order[0][k].target != k;
    }
    ck_assert(other_seed_differs && shuffled);
}
END_TEST

/* Shuffled ties still sort on time, and lose no event (the times of
 * test_events_at_one_time_run_in_the_order_scheduled). */
START_TEST(test_shuffled_ties_keep_time_order)
{
    event_list l;
    event_list_init(&l, 4);
    event_list_shuffle_ties(&l, 3);
    static const net_time times[] = {50, 10, 50, 30, 10, 50, 20};
    for (int i = 0; i < 7; i++) event_schedule(&l, times[i], 0, i);
    event e;
    net_time last = -1;
    int seen = 0;
    while (event_pop(&l, NET_TIME_NEVER, &e)) {
        ck_assert(e.time == times[e.target] && e.time >= last);
        last = e.time;
        seen |= 1 << e.target;
    }
    ck_assert_int_eq(seen, 127);
    event_list_free(&l);
}
END_TEST

/* 1 GB in 4 KiB packets back to back at 900 GB/s (4551.1 ps each): the last
 * one ends at 1e9 / 900e9 s, rounded once, not 244,141 times. */
START_TEST(test_back_to_back_packets_end_exactly)
{
    port p;
    port_init(&p, 0, 900e9L);
    net_time now = 0;
    for (double left = 1e9; left > 0; left -= MTU) now = port_transmit(&p, now, left < MTU ? (int64_t)left : 4096, 0);
    ck_assert_int_eq(now, llroundl(1e9L / 900e9L * NET_TIME_PER_SECOND));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("packet");
    TCase *tc = tcase_create("packet");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_cut_through_takes_alpha_plus_m_over_bw, 0, path_case_count);
    tcase_add_loop_test(tc, test_store_and_forward_adds_a_packet_per_further_link, 0, path_case_count);
    tcase_add_loop_test(tc, test_headers_add_their_bytes_to_every_packet, 0, path_case_count);
    tcase_add_loop_test(tc, test_a_coarse_unit_keeps_the_exact_forms, 0, path_case_count);
    tcase_add_loop_test(tc, test_the_largest_unit_keeps_the_exact_forms_at_the_largest_scale, 0, path_case_count);
    tcase_add_test(tc, test_a_buffer_below_the_credit_loop_bounds_a_lone_flow_by_its_window);
    tcase_add_test(tc, test_the_default_buffer_covers_the_credit_loop);
    tcase_add_test(tc, test_full_buffers_stall_a_flow_that_shares_only_an_upstream_link);
    tcase_add_test(tc, test_the_torus_dateline_prevents_a_ring_deadlock);
    tcase_add_test(tc, test_adaptive_and_spray_spread_flows_ecmp_piles_up);
    tcase_add_test(tc, test_spray_and_adaptive_keep_a_lone_flow_exact);
    tcase_add_test(tc, test_ring_allreduce_star_matches_formula);
    tcase_add_test(tc, test_a_ring_with_slow_and_fast_hops_waits_for_the_slow_ones);
    tcase_add_test(tc, test_events_scheduled_after_a_bounded_pop_keep_their_order);
    tcase_add_test(tc, test_shuffled_ties_do_not_depend_on_the_order_scheduled);
    tcase_add_test(tc, test_shuffled_ties_keep_time_order);
    tcase_add_test(tc, test_the_engine_keeps_message_and_port_counters);
    tcase_add_test(tc, test_events_at_one_time_run_in_the_order_scheduled);
    tcase_add_test(tc, test_events_beyond_the_calendar_keep_the_order_scheduled);
    tcase_add_test(tc, test_back_to_back_packets_end_exactly);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
