/* test_lanes.c — virtual lanes (src/net/packet/lanes.h): each lane of a
 * link has a buffer and credits of its own, so traffic on one lane never
 * waits behind another's (InfiniBand's virtual lanes, IBTA Vol. 1 §7.6);
 * a port serves its lanes in turns of their weight in packets (the VL
 * arbitration table's weights, §7.6.9).  The numbers come from those
 * definitions: max-min fair shares where a lane is free of another's
 * head-of-line blocking, packet counts of a weighted round robin, and the
 * exact forms of docs/packet.md §4, which a lane does not change. */
#include <check.h>
#include <stdio.h>

#include "net/packet/engine.h"
#include "test_support.h"

#define MTU 4096.0

typedef struct lane_flow {
    int src, dst, lane;
} lane_flow;

/* FLOWS of BYTES each, all sent at time 0 on their lanes; FINISH[i] is when
 * flow i's last byte arrives.  A deadlock fails the test. */
static void run_lane_flows(const topology *t, const lane_flow *flows, int count, double bytes, double *finish)
{
    engine *e = engine_create(t, 1);
    engine_keep_messages(e, true);
    diag d = {0};
    for (int i = 0; i < count; i++) {
        int route = engine_route(e, flows[i].src, flows[i].dst, flows[i].lane, &d);
        ck_assert_msg(route >= 0, "%s", d.message);
        engine_send(e, route, (int64_t)bytes, 0, NULL);
    }
    while (engine_in_flight(e) > 0) {
        net_time at;
        ck_assert(engine_run_to_delivery(e, NET_TIME_NEVER, &at));
        ck_assert_msg(at != NET_TIME_NEVER, "deadlock: %ld messages in flight and no event", engine_in_flight(e));
    }
    for (int i = 0; i < count; i++) finish[i] = net_time_to_seconds(engine_message(e, i)->delivered);
    engine_free(e);
}

/* A star of 6 ranks, FIFO switch input buffers: rank 0 sends to rank 1,
 * which ranks 2 and 3 also send to (its port gives each a third), and a
 * victim flow 0 -> 4, whose output is idle.  Max-min fair shares: the
 * three flows into rank 1 get BW/3 each, so the victim gets the other 2/3
 * of rank 0's link and takes alpha + M / (2/3 BW).  On one lane its packets
 * queue at the switch behind rank 0's packets for rank 1 (head-of-line
 * blocking) and it is dragged down to their rate; on a lane of its own it
 * takes its fair share. */
START_TEST(test_a_lane_of_its_own_spares_a_flow_head_of_line_blocking)
{
    const double alpha = 1e-6, bw = 10e9, m = 256 * MTU;
    topology t;
    load_text("name: lanes\nkind: star\nranks: 6\nalpha: 1us\nbandwidth: 10GBps\npacket: {virtual_lanes: 2}\n", &t);
    double fair = alpha + m / (bw * 2 / 3), finish[2][4];
    for (int victim_lane = 0; victim_lane < 2; victim_lane++) {
        lane_flow flows[4] = {{0, 1, 0}, {2, 1, 0}, {3, 1, 0}, {0, 4, victim_lane}};
        run_lane_flows(&t, flows, 4, m, finish[victim_lane]);
    }
    ck_assert_msg(relative_error(finish[1][3], fair) < 0.05, "victim on its own lane %.9g s, max-min %.9g s", finish[1][3],
                  fair);
    ck_assert_msg(finish[0][3] > 1.5 * fair, "victim sharing the lane %.9g s: expected head-of-line blocking (fair %.9g s)",
                  finish[0][3], fair);
    for (int i = 0; i < 3; i++) /* the incast's own flows: BW/3 each either way */
        ck_assert_msg(relative_error(finish[1][i], alpha + 3 * m / bw) < 0.05, "incast flow %d: %.9g s, expected %.9g s",
                      i, finish[1][i], alpha + 3 * m / bw);
    topology_free(&t);
}
END_TEST

/* Two flows of 64 packets from rank 0 to rank 1, lanes 0 and 1, weights
 * 3:1.  Rank 0's port sends lane 0's packets three at a time and lane 1's
 * one at a time: lane 0's 64th packet is the link's 85th (21 turns of four,
 * then the first of the 22nd), lane 1's last the 128th.  Every port on the
 * way keeps that order, so they arrive at alpha + 85 P and alpha + 128 P
 * (P = one packet's time); round robin (1:1) at alpha + 127 P and
 * alpha + 128 P. */
START_TEST(test_weighted_lanes_share_a_link_by_their_weights)
{
    const double alpha = 1e-6, bw = 10e9, p = MTU / bw;
    const char *weights[] = {"[3, 1]", "[1, 1]"};
    const double expected[2][2] = {{85, 128}, {127, 128}};
    for (int w = 0; w < 2; w++) {
        char yaml[256];
        snprintf(yaml, sizeof yaml, "name: lanes\nkind: star\nranks: 2\nalpha: 1us\nbandwidth: 10GBps\n"
                 "packet: {virtual_lanes: 2, lane_weights: %s}\n", weights[w]);
        topology t;
        load_text(yaml, &t);
        lane_flow flows[2] = {{0, 1, 0}, {0, 1, 1}};
        double finish[2];
        run_lane_flows(&t, flows, 2, 64 * MTU, finish);
        for (int l = 0; l < 2; l++)
            ck_assert_msg(relative_error(finish[l], alpha + expected[w][l] * p) < 1e-9,
                          "weights %s, lane %d: %.12g s, expected alpha + %g P = %.12g s", weights[w], l, finish[l],
                          expected[w][l], alpha + expected[w][l] * p);
        topology_free(&t);
    }
}
END_TEST

/* A lane is a copy of the network: a lone flow on any lane takes
 * alpha + M/BW on every path class (docs/packet.md §4), and traffic moved
 * wholesale from lane 0 to lane 1 takes exactly the same time, including
 * the torus ring where the dateline's channels keep the lane deadlock-free. */
START_TEST(test_a_lane_is_a_copy_of_the_network)
{
    topology t;
    load_shipped_with("torus-4x4x4", "packet: {virtual_lanes: 2}\n", &t);
    const double m = 64 * MTU, alpha = t.tiers[0].alpha_s, bw = t.tiers[0].bandwidth_Bps * t.tiers[0].efficiency;
    for (int lane = 0; lane < 2; lane++) {
        /* two hops in x, then one in y across the wraparound (y 0 -> 3): the dateline's channel */
        lane_flow lone = {0, 2 + 4 * 3, lane};
        double finish;
        run_lane_flows(&t, &lone, 1, m, &finish);
        ck_assert_msg(relative_error(finish, 3 * alpha + m / bw) < 1e-9, "lane %d: %.12g s, expected %.12g s", lane,
                      finish, 3 * alpha + m / bw);
    }
    lane_flow ring[2][4]; /* every rank of an x ring sends two hops on: each buffer of the ring is waited on */
    double finish[2][4];
    for (int lane = 0; lane < 2; lane++) {
        for (int i = 0; i < 4; i++) ring[lane][i] = (lane_flow){i, (i + 2) % 4, lane};
        run_lane_flows(&t, ring[lane], 4, 1024 * MTU, finish[lane]);
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(finish[0][i] == finish[1][i], "ring flow %d: lane 0 %.12g s, lane 1 %.12g s", i, finish[0][i],
                      finish[1][i]);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lanes");
    TCase *tc = tcase_create("lanes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_lane_of_its_own_spares_a_flow_head_of_line_blocking);
    tcase_add_test(tc, test_weighted_lanes_share_a_link_by_their_weights);
    tcase_add_test(tc, test_a_lane_is_a_copy_of_the_network);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
