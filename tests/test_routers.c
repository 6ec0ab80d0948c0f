/* test_routers.c — ranks that route (torus, mesh: src/net/packet/router.h
 * and choose.h) as real tori build them: transit before injection,
 * injection queues whose messages take turns packet by packet, minimal
 * adaptive routing with a dimension-ordered escape (Duato), and the
 * all-to-all near its link-load bound (the seed note on torus all-to-all:
 * T = V max(d) / (4 N W)).  Numbers come from those definitions and the
 * exact forms of docs/packet.md §4. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/algorithm.h"
#include "net/packet/packet_flows.h"
#include "net/packet/routing.h"
#include "test_support.h"

#define MTU 4096.0
static const double alpha = 0.5e-6, bw = 900e9, packet_s = MTU / 900e9;

static void load_torus(const char *dims, const char *mapping, topology *t)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml, "name: routers\nkind: torus\ndims: %s\nalpha: 0.5us\nbandwidth: 900GBps\npacket: %s\n",
             dims, mapping);
    load_text(yaml, t);
}

/* FLOWS on T's packet model: FINISH[i] is when flow i's last byte arrives. */
static void packet_flows(const topology *t, const flow *flows, int count, double *finish)
{
    diag d = {0};
    engine *e = packet_run_flows(t, flows, count, true, finish, &d);
    ck_assert_msg(e != NULL, "%s", d.message);
    engine_free(e);
}

/* On a ring of 4, rank 0 sends M (256 packets of time P) two hops on,
 * through rank 1, while rank 1 sends M of its own to rank 2 on the same
 * link, both at time 0.  Rank 1 sends ceil(alpha / P) = 110 of its own
 * packets before the passing flow's head arrives.  Transit first: the
 * passing flow then never waits for more than the packet on the wire, and
 * arrives within one packet of 2 alpha + M/BW.  In turn with injection:
 * the two alternate until rank 1's other 146 packets are gone, so the
 * passing flow's last packet is the link's (2 x 256 - 110)-th after alpha,
 * and it arrives at 2 alpha + 402 P (within one packet). */
START_TEST(test_transit_goes_before_injection)
{
    const double m = 256 * MTU;
    const char *transit[] = {"{router: {transit: priority}}", "{router: {transit: round_robin}}"};
    double passing[2];
    for (int k = 0; k < 2; k++) {
        topology t;
        load_torus("[4]", transit[k], &t);
        flow flows[2] = {{0, 2, m, 0}, {1, 2, m, 0}};
        double finish[2];
        packet_flows(&t, flows, 2, finish);
        passing[k] = finish[0];
        topology_free(&t);
    }
    double alone = 2 * alpha + m / bw, in_turn = 2 * alpha + (2 * 256 - ceil(alpha / packet_s)) * packet_s;
    ck_assert_msg(passing[0] >= alone - 1e-15 && passing[0] < alone + packet_s,
                  "transit first: %.12g s, expected within one packet (%.3g s) of %.12g s", passing[0], packet_s, alone);
    ck_assert_msg(fabs(passing[1] - in_turn) < packet_s, "in turn: %.12g s, expected within one packet of %.12g s",
                  passing[1], in_turn);
}
END_TEST

/* Rank 0 sends two messages of M (64 packets of time P) to its neighbour,
 * both at time 0.  In one injection queue they take turns packet by
 * packet, as two inputs of the link would; the first's first packet starts
 * as it is sent, before the second is (at the same instant, later in
 * order), so the first's packets are the link's 1st, 2nd, 4th, ... 126th
 * and the second's 3rd, 5th, ... 128th: they arrive at alpha + 126 P and
 * alpha + 128 P = alpha + 2M/BW, to 1e-9. */
START_TEST(test_an_injection_queue_interleaves_its_messages)
{
    const double m = 64 * MTU;
    topology t;
    load_torus("[4]", "{router: {injection: 1}}", &t);
    flow flows[2] = {{0, 1, m, 0}, {0, 1, m, 0}};
    double finish[2];
    packet_flows(&t, flows, 2, finish);
    ck_assert_msg(relative_error(finish[1], alpha + 2 * m / bw) < 1e-9, "second: %.12g s, expected %.12g s", finish[1],
                  alpha + 2 * m / bw);
    ck_assert_msg(relative_error(finish[0], alpha + 126 * packet_s) < 1e-9, "first: %.12g s, expected %.12g s",
                  finish[0], alpha + 126 * packet_s);
    topology_free(&t);
}
END_TEST

/* Rank 0 on a ring of 8 sends M (64 packets of time P) to its neighbour
 * and M three hops on, both at time 0, through one injection queue.  The
 * near message, posted first, finds the queue empty: its first packet
 * starts, and its second before the far one is posted (at the same
 * instant, later in order).  In turn the two then alternate: the far one's
 * packets are the link's 3rd, 5th, ... 127th and 128th, and it arrives at
 * 3 alpha + 128 P.  Farthest first (the default, Jackson's rule) the far
 * one sends its 64 packets next, the link's 3rd to 66th, and arrives at
 * 3 alpha + 66 P; the near one's other 62 follow, arriving at
 * alpha + 128 P: the latest arrival falls by 62 P, each to 1e-9. */
START_TEST(test_an_injection_queue_sends_the_farthest_first)
{
    const double m = 64 * MTU;
    const char *orders[] = {"{router: {order: in_turn}}", "{router: {order: farthest}}", "{}"};
    const double far[] = {3 * alpha + 128 * packet_s, 3 * alpha + 66 * packet_s, 3 * alpha + 66 * packet_s};
    const double near[] = {alpha + 126 * packet_s, alpha + 128 * packet_s, alpha + 128 * packet_s};
    for (int k = 0; k < 3; k++) {
        topology t;
        load_torus("[8]", orders[k], &t);
        flow flows[2] = {{0, 1, m, 0}, {0, 3, m, 0}};
        double finish[2];
        packet_flows(&t, flows, 2, finish);
        ck_assert_msg(relative_error(finish[1], far[k]) < 1e-9, "%s: far %.12g s, expected %.12g s", orders[k],
                      finish[1], far[k]);
        ck_assert_msg(relative_error(finish[0], near[k]) < 1e-9, "%s: near %.12g s, expected %.12g s", orders[k],
                      finish[0], near[k]);
        topology_free(&t);
    }
}
END_TEST

/* The bubble rule: a rank injects only where the buffer it fills keeps
 * room for one more packet after it.  A lone message of 8 packets to a
 * neighbour through buffers of two packets: each packet's room comes back
 * one credit round trip R = 2l + P after it started (l the link's latency,
 * P a packet's time).  Transit first (no bubble) starts two packets a round
 * trip: the 8th at 3R + P, arriving at 3R + 2P + l; the bubble one: the 8th
 * at 7R, arriving at 7R + P + l. */
START_TEST(test_the_bubble_rule_keeps_room_for_one_more)
{
    const double l = alpha, r = 2 * l + packet_s;
    const char *rules[] = {"{router: {transit: priority}, buffer: 8KiB}", "{router: {transit: bubble}, buffer: 8KiB}"};
    const double expected[] = {3 * r + 2 * packet_s + l, 7 * r + packet_s + l};
    for (int k = 0; k < 2; k++) {
        topology t;
        load_torus("[4]", rules[k], &t);
        flow lone = {0, 1, 8 * MTU, 0};
        double finish;
        packet_flows(&t, &lone, 1, &finish);
        ck_assert_msg(relative_error(finish, expected[k]) < 1e-9, "%s: %.12g s, expected %.12g s", rules[k], finish,
                      expected[k]);
        topology_free(&t);
    }
}
END_TEST

/* A lone message on every torus and mesh path class of docs/packet.md §4
 * takes hops x alpha + M/BW under every router and routing: uncontended,
 * adaptive routing's ties go to dimension order and nothing waits. */
START_TEST(test_routers_keep_the_exact_forms)
{
    static const char *const packets[] = {"packet: {routing: adaptive}\n",
                                          "packet: {routing: adaptive, router: {adaptive_channels: 1}}\n",
                                          "packet: {router: {architecture: fifo}}\n",
                                          "packet: {router: {transit: round_robin, injection: 4}}\n",
                                          "packet: {router: {transit: age}}\n"};
    for (int c = 0; c < path_case_count; c++) {
        const path_case *pc = &path_cases[c];
        if (strncmp(pc->platform, "torus", 5) != 0 && strncmp(pc->platform, "mesh", 4) != 0) continue;
        for (int k = 0; k < (int)(sizeof packets / sizeof packets[0]); k++) {
            topology t;
            load_shipped_with(pc->platform, packets[k], &t);
            double m = 64 * MTU, got = simulate_one(&t, pc->src, pc->dst, m), want = pc->alpha_s + m / pc->bandwidth_Bps;
            ck_assert_msg(relative_error(got, want) < 1e-9, "%s, %s: %.12g s, expected %.12g s", pc->what, packets[k],
                          got, want);
            topology_free(&t);
        }
    }
}
END_TEST

/* The parking lot (Abts and Weisser, SC07): on an 8 x 8 torus three flows
 * of M end at (2,3): F0 from (2,0) straight up, F1 from (1,1) and F2 from
 * (1,2) each one hop across, turning up at (2,1) and (2,2).  The last link
 * carries 3M.  In turn at each merge, (2,2) gives F2 half the link and the
 * straight input (F0 and F1) the other half: F2 ends at about 2M/BW, the
 * others at 3M/BW, 2/3 of the last.  The oldest packet first serves the
 * three alike: each about a third, all ending near 3M/BW.  (All three on
 * one channel, `channels: dateline`: spread over the two, a merge serves
 * each channel's buffer as an input of its own.) */
START_TEST(test_the_oldest_packet_first_serves_merging_flows_alike)
{
    const double m = 2048 * MTU;
    static const char *const rules[] = {"{router: {transit: priority, channels: dateline}}",
                                        "{router: {transit: age, channels: dateline}}"};
    double ratio[2];
    for (int k = 0; k < 2; k++) {
        topology t;
        load_torus("[8, 8]", rules[k], &t);
        flow flows[3] = {{2, 26, m, 0}, {9, 26, m, 0}, {17, 26, m, 0}};
        double finish[3];
        packet_flows(&t, flows, 3, finish);
        double last = fmax(finish[0], fmax(finish[1], finish[2]));
        ck_assert_msg(last >= 3 * m / bw, "%s: %.6g us, under the last link's load 3M/BW", rules[k], last * 1e6);
        ratio[k] = finish[2] / last;
        topology_free(&t);
    }
    ck_assert_msg(ratio[0] < 0.75, "in turn: F2 ends at %.3f of the last, expected about 2/3", ratio[0]);
    ck_assert_msg(ratio[1] > 0.9, "oldest first: F2 ends at %.3f of the last, expected about 1", ratio[1]);
}
END_TEST

/* FLOWS_PER_RANK seeded random flows of 64 packets from every rank of T. */
static flow *random_flows(const topology *t, int flows_per_rank, unsigned seed, int *count)
{
    flow *f = malloc(sizeof *f * (size_t)(t->ranks * flows_per_rank));
    int n = 0;
    srand(seed);
    for (int r = 0; r < t->ranks; r++)
        for (int j = 0; j < flows_per_rank; j++) {
            int to;
            do to = rand() % t->ranks;
            while (to == r);
            f[n++] = (flow){r, to, 64 * MTU, 0};
        }
    *count = n;
    return f;
}

/* Lossless one-packet buffers on an 8 x 8 torus under random traffic: minimal
 * adaptive routing with neither its escape nor the datelines closes cycles
 * of full buffers and deadlocks (the engine says so); with them every flow
 * completes, as dimension order does with its datelines. */
START_TEST(test_the_escape_keeps_adaptive_routing_deadlock_free)
{
    topology t;
    load_torus("[8, 8]", "{routing: adaptive, buffer: 4KiB}", &t);
    for (unsigned seed = 1; seed <= 3; seed++) {
        int count;
        flow *f = random_flows(&t, 4, seed, &count);
        double *finish = malloc(sizeof *finish * (size_t)count);
        for (int rules = 0; rules < 2; rules++) {
            engine *e = engine_create(&t, 1);
            engine_use_virtual_channels(e, rules);
            engine_use_escape(e, rules);
            diag d = {0};
            bool ok = packet_run_flows_on(e, f, count, finish, &d);
            if (rules) ck_assert_msg(ok, "seed %u, escape and datelines: %s", seed, d.message);
            else ck_assert_msg(!ok && strstr(d.message, "deadlocked"), "seed %u, no escape, no datelines: %s", seed,
                               ok ? "completed" : d.message);
            engine_free(e);
        }
        free(finish);
        free(f);
    }
    topology_free(&t);
}
END_TEST

/* Minimal adaptive routing on the default router (a queue per input and
 * output): a packet that took a hop's adaptive channel waits at the next
 * fork in that channel's buffer, and the room it leaves there goes back to
 * that buffer.  After random traffic on a 4^3 torus, and once every credit
 * is home, every buffer holds its room again, no more and no less. */
START_TEST(test_adaptive_routing_gives_every_buffer_its_room_back)
{
    topology t;
    load_torus("[4, 4, 4]", "{routing: adaptive}", &t);
    int count;
    flow *f = random_flows(&t, 4, 1, &count);
    double *finish = malloc(sizeof *finish * (size_t)count);
    engine *e = engine_create(&t, 1);
    diag d = {0};
    ck_assert_msg(packet_run_flows_on(e, f, count, finish, &d), "%s", d.message);
    ck_assert(engine_run_until(e, engine_now(e) + net_time_from_seconds(1e-3))); /* the last credits come home */
    int64_t room = llround(packet_buffer_bytes(&t, 0));
    for (int p = 0; p < engine_port_count(e); p++) {
        const port *q = engine_port(e, p);
        for_each_vc(v, q->vcs_used) {
            int64_t credits = engine_port_buffers(e, p)[v].credits;
            ck_assert_msg(credits == room, "port %d channel %d: %lld of %lld bytes of room", p, v, (long long)credits,
                          (long long)room);
        }
    }
    engine_free(e);
    free(finish);
    free(f);
    topology_free(&t);
}
END_TEST

/* An alternative route lives while packets are on it (routing.h,
 * invariant 4): after random traffic under minimal adaptive routing on a
 * 4^3 torus, and under spray on a k = 4 fat tree, with no idle route kept
 * the table has kept alternatives and holds none once every packet has
 * arrived (every id but the flows' own routes is free to be given again),
 * and every flow ends when it does with every route kept. */
START_TEST(test_routes_live_while_packets_are_on_them)
{
    static const char *const platforms[] = {
        "name: a\nkind: torus\ndims: [4, 4, 4]\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {routing: adaptive}\n",
        "name: d\nkind: fat_tree\nk: 4\nalpha_edge: 2us\nalpha_aggregation: 8us\nalpha_core: 12us\nbandwidth: 50GBps\n"
        "packet: {routing: spray}\n",
    };
    for (int p = 0; p < 2; p++) {
        topology t;
        load_text(platforms[p], &t);
        int count;
        flow *f = random_flows(&t, 4, 2, &count);
        double *finish[2] = {malloc(sizeof(double) * (size_t)count), malloc(sizeof(double) * (size_t)count)};
        for (int keep = 0; keep < 2; keep++) {
            engine *e = engine_create(&t, 1);
            if (!keep) engine_keep_idle_routes(e, 0);
            diag d = {0};
            ck_assert_msg(packet_run_flows_on(e, f, count, finish[keep], &d), "%s", d.message);
            const route_table *r = engine_routes(e);
            if (!keep) {
                ck_assert_msg(r->alternatives_peak > 0 && r->alternatives_kept == 0,
                              "%s: %d alternatives kept at most, %d left", t.name, r->alternatives_peak,
                              r->alternatives_kept);
                int freed = 0;
                for (int id = r->free_route; id >= 0; id = r->routes[id].options) freed++;
                ck_assert_int_eq(freed + count, r->route_count);
            } else
                ck_assert_int_eq(r->free_route, -1);
            engine_free(e);
        }
        for (int i = 0; i < count; i++)
            ck_assert_msg(finish[0][i] == finish[1][i], "%s: flow %d ends at %.17g s freeing, %.17g s keeping", t.name, i,
                          finish[0][i], finish[1][i]);
        free(finish[0]);
        free(finish[1]);
        free(f);
        topology_free(&t);
    }
}
END_TEST

/* Time of the `torus` all-to-all of M per rank on T, packet model. */
static double alltoall_time(const topology *t, double m);

/* The bubble rule and minimal adaptive routing together: a packet that took
 * its adaptive room as it chose does not wait for a second packet's room
 * (it would wait for the room it holds): the 4^3 all-to-all at 4 MB
 * completes, no faster than its link-load bound M d / (4 W). */
START_TEST(test_the_bubble_rule_spares_adaptive_room)
{
    topology t;
    load_torus("[4, 4, 4]", "{router: {transit: bubble}, routing: adaptive}", &t);
    double m = 4e6, time = alltoall_time(&t, m), bound = m * 4 / (4 * 2 * bw);
    ck_assert_msg(time >= bound && time < 10 * bound, "%.6g us against the bound %.6g us", time * 1e6, bound * 1e6);
    topology_free(&t);
}
END_TEST

/* Time of the `torus` all-to-all of M per rank on T, packet model. */
static double alltoall_time(const topology *t, double m)
{
    algo_params p = {.ranks = t->ranks, .dim_count = t->dim_count};
    for (int i = 0; i < t->dim_count; i++) p.dims[i] = t->dims[i];
    char why[256] = "";
    schedule *s = algorithm_find(PRIM_ALLTOALL, "torus")->build(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    double time = simulate_schedule_with(t, s, NULL, m, NULL, NULL, NETWORK_PACKET);
    schedule_free(s);
    return time;
}

/* The all-to-all on a ring of 8 at 16 MB with the default buffers: within
 * 1/0.9 of the link-load bound M d / (4 W) (W = both directions of a link),
 * under dimension order and adaptive routing (on a ring they are one). */
START_TEST(test_the_ring_alltoall_reaches_the_link_load_bound)
{
    const double m = 16e6, bound = m * 8 / (4 * 2 * bw);
    static const char *const packets[] = {"{}", "{routing: adaptive}"};
    for (int k = 0; k < 2; k++) {
        topology t;
        load_torus("[8]", packets[k], &t);
        double time = alltoall_time(&t, m);
        ck_assert_msg(bound / time >= 0.90, "%s: %.6g us, %.1f %% of the bound %.6g us", packets[k], time * 1e6,
                      100 * bound / time, bound * 1e6);
        topology_free(&t);
    }
}
END_TEST

/* The all-to-all at 16 MB with the default (credit-loop) buffers and
 * router, against the link-load bound M d / (4 W): Blue Gene/L reached
 * 64-70 % of its peak all-to-all throughput untuned and Blue Gene/Q 85-95 %
 * with its dynamic routing (Kumar et al., ICPP 2008; Chen et al., SC12).
 * At least the top of Blue Gene/L's untuned range, 70 %: on 8^3 under
 * dimension order, on 8 x 8 under dimension order (either rule for the
 * dateline's channels) and under minimal adaptive routing with one adaptive
 * channel (it measures 77 %); at least 80 %, near Blue Gene/Q's range,
 * under minimal adaptive routing with the default router's two adaptive
 * channels, as Blue Gene/L's dynamic ones (it measures 83 %; 85 % on 4^3,
 * 88 % on 8^3: docs/packet.md §5a; 8^3's adaptive run is scripts/bench's,
 * a minute and a half of CPU). */
START_TEST(test_the_torus_alltoall_reaches_the_hardware_range)
{
    const double m = 16e6, bound = m * 8 / (4 * 2 * bw);
    static const struct { const char *dims, *packet; double least; } runs[] = {
        {"[8, 8, 8]", "{}", 0.70},
        {"[8, 8]", "{}", 0.70},
        {"[8, 8]", "{router: {channels: dateline}}", 0.70},
        {"[8, 8]", "{routing: adaptive, router: {adaptive_channels: 1}}", 0.70},
        {"[8, 8]", "{routing: adaptive}", 0.80},
        {"[4, 4, 4]", "{routing: adaptive}", 0.80},
    };
    for (int k = 0; k < (int)(sizeof runs / sizeof runs[0]); k++) {
        topology t;
        load_torus(runs[k].dims, runs[k].packet, &t);
        double time = alltoall_time(&t, m);
        ck_assert_msg(bound / time >= runs[k].least, "%s %s: %.6g us, %.1f %% of the bound %.6g us", runs[k].dims,
                      runs[k].packet, time * 1e6, 100 * bound / time, bound * 1e6);
        topology_free(&t);
    }
}
END_TEST

/* A packet's walk through a route table, compared at every step with its
 * own route compiled whole from its source (routing.h, invariants 1-3). */
typedef struct walk {
    route_table *r;
    route_compiled own;
    long steps;
} walk;

static bool same_hop(const route_stage *a, const route_stage *b)
{
    return a->port == b->port && a->vc == b->vc;
}

static void assert_same_stage(const route_stage *a, const route_stage *b, const char *where)
{
    ck_assert_msg(a->port == b->port && a->vc == b->vc && a->delay == b->delay && a->last == b->last,
                  "%s: port %d vc %d, its own route's port %d vc %d", where, a->port, a->vc, b->port, b->vc);
}

/* The packet SRC -> DST on ROUTE, having taken CHOICES (DECIDED of them; the
 * last on adaptive CHANNEL, -1 the escape): the stages it crosses there are
 * its own route's, and so are those of every alternative it may take next,
 * on every adaptive channel, to the destination. */
static void walk_route(walk *w, int src, int dst, int route, const int *choices, int decided, int channel)
{
    w->steps++;
    route_choices c;
    route_choices_init(&c);
    for (int k = 0; k < decided; k++) c.choice[k] = choices[k];
    ck_assert_int_gt(route_compile(w->r, src, dst, 0, &c, decided, channel, &w->own), 0);
    const route_compiled *own = &w->own;
    net_route n = w->r->routes[route];
    int at = decided > 0 ? own->fork_stage[decided - 1] : 0; /* its own stage there */
    char where[96];
    snprintf(where, sizeof where, "r%d -> r%d after %d choices", src, dst, decided);
    int end = n.open.count ? n.open.stage : n.count - 1; /* the stages it crosses before choosing again */
    ck_assert_msg(at + end - n.entry < own->count, "%s: longer than its own route", where);
    for (int k = n.entry; k <= end; k++)
        assert_same_stage(&w->r->stages[n.first + k], &own->stages[at + k - n.entry], where);
    if (!n.open.count) {
        ck_assert_msg(at + end - n.entry == own->count - 1 && n.tail_delay == own->tail_delay, "%s: ends early", where);
        return;
    }
    ck_assert_msg(decided < own->choices.fork_count && own->fork_stage[decided] - at == n.open.stage - n.entry &&
                  own->choices.forks[decided].count == n.open.count &&
                  own->choices.forks[decided].node == n.open.node, "%s: its fork is not its own route's", where);
    int ways = route_choice_count(w->r, route), options = ways + (w->r->adaptive_vc >= 0);
    ck_assert_int_eq(ways, n.open.count * (w->r->adaptive_vc >= 0 ? router_adaptive_channels(&w->r->t->packet) : 1));
    int next[ROUTE_MAX_FORKS];
    for (int k = 0; k < decided; k++) next[k] = choices[k];
    for (int i = 0; i < options; i++) {
        int on = i == ways ? -1 : i / n.open.count; /* its channel, the escape's -1 */
        next[decided] = on < 0 ? 0 : i % n.open.count;
        route_choices mine;
        route_choices_init(&mine);
        for (int k = 0; k <= decided; k++) mine.choice[k] = next[k];
        ck_assert_int_gt(route_compile(w->r, src, dst, 0, &mine, decided + 1, on, &w->own), 0);
        const route_option *o = &route_options(w->r, route)[i];
        const route_stage *hop = &w->own.stages[w->own.fork_stage[decided]];
        ck_assert_msg(o->port == hop->port && o->vc == hop->vc, "%s: alternative %d's hop", where, i);
        int alternative = route_alternative(w->r, route, i);
        const net_route *a = &w->r->routes[alternative];
        if (a->entry > 0) /* the hop into the fork's node: the buffer it waits in */
            ck_assert_msg(same_hop(&w->r->stages[a->first], &w->r->stages[n.first + n.open.stage - 1]),
                          "%s: alternative %d waits in another buffer", where, i);
        walk_route(w, src, dst, alternative, next, decided + 1, on);
    }
}

/* Adaptive routing keeps one route for every packet whose remaining path is
 * the same, whatever its source and history: on tori (datelines crossed or
 * not, either rule for their channels, rings of 3, 4 and 5) and a mesh
 * with ranks routing adaptively, and a fat tree's switches, every packet
 * that walks every path of every pair meets exactly the stages, channels
 * and forks its own route compiled whole from its source gives it, and the
 * table holds fewer routes than the walks took steps. */
START_TEST(test_shared_routes_give_each_packet_its_own_route)
{
    static const char *const platforms[] = {
        "name: a\nkind: torus\ndims: [4, 4, 4]\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {routing: adaptive}\n",
        "name: b\nkind: torus\ndims: [5, 4, 3]\nalpha: 0.5us\nbandwidth: 900GBps\n"
        "packet: {routing: adaptive, router: {channels: balanced}}\n",
        "name: c\nkind: mesh\ndims: [4, 3, 3]\nalpha: 0.5us\nbandwidth: 900GBps\npacket: {routing: adaptive}\n",
        "name: d\nkind: fat_tree\nk: 4\nalpha_edge: 2us\nalpha_aggregation: 8us\nalpha_core: 12us\nbandwidth: 50GBps\n"
        "packet: {routing: adaptive}\n",
    };
    for (int p = 0; p < (int)(sizeof platforms / sizeof platforms[0]); p++) {
        topology t;
        load_text(platforms[p], &t);
        route_table r;
        route_table_init(&r, &t, true, t.lattice ? topology_route_vcs(&t) : -1, router_adaptive_channels(&t.packet));
        walk w = {.r = &r, .own.stages = malloc(sizeof(route_stage) * (size_t)t.route_hops_max)};
        for (int src = 0; src < t.ranks; src++)
            for (int dst = 0; dst < t.ranks; dst++) {
                if (src == dst) continue;
                diag d = {0};
                int route = route_flow(&r, src, dst, 0, &d);
                ck_assert_msg(route >= 0, "%s", d.message);
                walk_route(&w, src, dst, route, NULL, 0, 0);
            }
        ck_assert_msg(r.route_count < w.steps, "platform %d: %d routes kept for %ld steps", p, r.route_count, w.steps);
        free(w.own.stages);
        route_table_free(&r);
        topology_free(&t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("routers");
    TCase *tc = tcase_create("routers");
    tcase_set_timeout(tc, 900); /* the 8^3 all-to-all: 15 s of CPU alone, minutes on a loaded machine */
    tcase_add_test(tc, test_transit_goes_before_injection);
    tcase_add_test(tc, test_an_injection_queue_interleaves_its_messages);
    tcase_add_test(tc, test_an_injection_queue_sends_the_farthest_first);
    tcase_add_test(tc, test_the_bubble_rule_keeps_room_for_one_more);
    tcase_add_test(tc, test_the_bubble_rule_spares_adaptive_room);
    tcase_add_test(tc, test_routes_live_while_packets_are_on_them);
    tcase_add_test(tc, test_routers_keep_the_exact_forms);
    tcase_add_test(tc, test_the_oldest_packet_first_serves_merging_flows_alike);
    tcase_add_test(tc, test_the_escape_keeps_adaptive_routing_deadlock_free);
    tcase_add_test(tc, test_adaptive_routing_gives_every_buffer_its_room_back);
    tcase_add_test(tc, test_shared_routes_give_each_packet_its_own_route);
    tcase_add_test(tc, test_the_ring_alltoall_reaches_the_link_load_bound);
    tcase_add_test(tc, test_the_torus_alltoall_reaches_the_hardware_range);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
