/* test_switches.c — a switch under open-loop synthetic traffic
 * (synthetic.h) against the classic results, whose numbers are written
 * here: the saturation throughput of an input-queued FIFO switch of N ports
 * with speedup 1 under uniform traffic (Karol, Hluchyj & Morgan, "Input
 * versus output queueing on a space-division packet switch", IEEE Trans.
 * Commun. 35(12), 1987, Table I), for every buffer depth from one packet to
 * unbounded, with and without self-traffic; virtual output queues, which
 * remove that head-of-line blocking (McKeown, "The iSLIP scheduling
 * algorithm for input-queued switches", IEEE/ACM Trans. Netw. 7(2), 1999:
 * 100 % under uniform traffic); the arbitration policy alone; and the
 * exact forms, which no architecture or speedup may change. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/packet/arbitration.h"
#include "net/packet/islip.h"
#include "net/packet/packet_flows.h"
#include "net/packet/synthetic.h"
#include "test_support.h"

/* Saturation throughput of the FIFO input-queued switch, speedup 1, uniform
 * destinations.  With self-traffic (each of N outputs equally likely):
 * Karol et al., Table I (2 - sqrt 2 = 0.5858 as N grows).  Without (each of
 * the other N - 1): the same slotted model, HOL contention among inputs
 * that never address their own output, solved by slot-by-slot simulation
 * (2·10^6 slots, random selection among contenders) of that model alone. */
static const struct {
    int ports;
    double with_self, without_self;
} karol[] = {{4, 0.6553, 0.6905}, {8, 0.6184, 0.6258}, {16, 0.6013, 0.6033}, {32, 0.5934, 0.5941}};
#define KAROL_CASES ((int)(sizeof karol / sizeof karol[0]))
#define WITHIN 0.02

/* Buffer depths at the switch's inputs, from one packet to unbounded (a
 * 4 KiB packet; the credit loop is 2 packets on this star). */
static const char *const depths[] = {"packet: {buffer: 4KiB}\n", "", "packet: {buffer: 64KiB}\n",
                                     "packet: {flow_control: none}\n"};
#define DEPTHS ((int)(sizeof depths / sizeof depths[0]))

/* A star of 2N ranks whose links are long in packet times (4 KiB at 1 GB/s
 * is 4.1 us; 2 ns of latency): ranks 0..N-1 feed the switch's inputs, ranks
 * N..2N-1 hang off its outputs, so output k is input k's own port. */
static void load_split_star(int ports, const char *packet_yaml, topology *t)
{
    char yaml[512];
    snprintf(yaml, sizeof yaml, "name: split-star\nkind: star\nranks: %d\nalpha: 2ns\nbandwidth: 1GBps\n%s", 2 * ports,
             packet_yaml);
    load_text(yaml, t);
}

static synthetic_result run_uniform(const topology *t, int ports, bool self_traffic, double load, long slots)
{
    int *sources = malloc(sizeof(int) * (size_t)ports), *sinks = malloc(sizeof(int) * (size_t)ports);
    for (int k = 0; k < ports; k++) sources[k] = k, sinks[k] = ports + k;
    synthetic_spec spec = {.ports = ports, .sources = sources, .sinks = sinks, .pattern = SYNTHETIC_UNIFORM,
                           .self_traffic = self_traffic, .arrivals = ARRIVALS_BERNOULLI, .load = load,
                           .packet_bytes = 4096, .warmup_slots = slots / 10, .slots = slots, .seed = 27};
    synthetic_result r;
    diag d = {0};
    if (!synthetic_run(t, &spec, &r, &d)) ck_abort_msg("synthetic run: %s", d.message);
    free(sources);
    free(sinks);
    return r;
}

static void expect_karol(int self_traffic, int depth)
{
    for (int c = 0; c < KAROL_CASES; c++) {
        int n = karol[c].ports;
        topology t;
        load_split_star(n, depths[depth], &t);
        synthetic_result r = run_uniform(&t, n, self_traffic, 1, 400000 / n);
        double expected = self_traffic ? karol[c].with_self : karol[c].without_self;
        ck_assert_msg(relative_error(r.throughput, expected) < WITHIN,
                      "FIFO N = %d, %s self-traffic, %s: saturation throughput %.4f, Karol %.4f", n,
                      self_traffic ? "with" : "without", depths[depth][0] ? depths[depth] : "default buffers",
                      r.throughput, expected);
        topology_free(&t);
    }
}

START_TEST(test_fifo_saturates_at_karols_throughput_with_self_traffic)
{
    expect_karol(1, _i);
}
END_TEST

START_TEST(test_fifo_saturates_at_karols_throughput_without_self_traffic)
{
    expect_karol(0, _i);
}
END_TEST

/* Below saturation a switch delivers what is offered. */
START_TEST(test_fifo_delivers_a_light_load_whole)
{
    topology t;
    load_split_star(8, "", &t);
    synthetic_result r = run_uniform(&t, 8, false, 0.3, 20000);
    ck_assert_msg(relative_error(r.throughput, r.offered) < 0.02 && relative_error(r.offered, 0.3) < 0.02,
                  "offered %.4f (asked 0.3), delivered %.4f", r.offered, r.throughput);
    topology_free(&t);
}
END_TEST

/* Virtual output queues, with round robin at each output (an output takes
 * the next waiting queue whose buffer's crossbar is free) and with iSLIP
 * (one and four iterations): McKeown's uniform-traffic result for iSLIP,
 * saturation >= 0.95 at N = 32 (1999, section 5), where FIFO queues give
 * 0.59.  The queues share their buffer: it needs room for
 * several outputs' packets (64 packets, or unbounded). */
START_TEST(test_voq_saturates_above_095_under_uniform_traffic)
{
    static const struct {
        const char *yaml;
        long slots;
    } voqs[] = {{"packet: {architecture: voq, buffer: 256KiB}\n", 12500},
                {"packet: {architecture: voq, flow_control: none}\n", 12500},
                {"packet: {architecture: voq, flow_control: none, speedup: 2}\n", 12500},
                {"packet: {architecture: voq, scheduler: islip, iterations: 4, buffer: 256KiB}\n", 12500},
                /* one iteration reaches it once its pointers desynchronize, which takes well-filled queues and
                   a long run: 0.96 after 50,000 packet times without self-traffic (docs/packet.md) */
                {"packet: {architecture: voq, scheduler: islip, flow_control: none}\n", 50000}};
    for (int self = 0; self <= 1; self++) {
        topology t;
        load_split_star(32, voqs[_i].yaml, &t);
        synthetic_result r = run_uniform(&t, 32, self, 1, voqs[_i].slots);
        ck_assert_msg(r.throughput >= 0.95, "VOQ N = 32 (%s, %s self-traffic): saturation throughput %.4f",
                      voqs[_i].yaml, self ? "with" : "without", r.throughput);
        topology_free(&t);
    }
}
END_TEST

/* On a split star of 16 ports whose packet mapping is OUTPUT_QUEUED (an
 * output-queued switch), the mean wait of a packet at its output under
 * uniform Bernoulli traffic is Karol et al.'s output-queueing wait (1987),
 * (N - 1)/N * p / (2 (1 - p)) packet times (an M/D/1-class discrete queue),
 * within 5 % at loads 0.5, 0.8, 0.9 (the delay beyond it is the lone
 * packet's alpha + w/BW), and the switch delivers what is offered; then,
 * with FULL_LOAD's mapping, a full load is delivered (>= 0.99). */
static void expect_output_queueing(const char *output_queued, const char *full_load)
{
    static const double loads[] = {0.5, 0.8, 0.9};
    const int n = 16;
    const double slot_s = 4096 / 1e9, alone_s = 2e-9 + slot_s;
    topology t;
    load_split_star(n, output_queued, &t);
    for (int l = 0; l < 3; l++) {
        double p = loads[l], expected = (n - 1.0) / n * p / (2 * (1 - p));
        synthetic_result r = run_uniform(&t, n, true, p, 40000);
        double wait = (r.delay_mean_s - alone_s) / slot_s;
        ck_assert_msg(relative_error(wait, expected) < 0.05, "%sload %.1f: mean wait %.4f packet times, Karol %.4f",
                      output_queued, p, wait, expected);
        ck_assert_msg(relative_error(r.throughput, r.offered) < 0.01, "%sload %.1f: offered %.4f, delivered %.4f",
                      output_queued, p, r.offered, r.throughput);
    }
    topology_free(&t);
    load_split_star(n, full_load, &t);
    synthetic_result full = run_uniform(&t, n, true, 1, 20000);
    ck_assert_msg(full.throughput >= 0.99, "%sfull load: delivered %.4f", full_load, full.throughput);
    topology_free(&t);
}

/* Output queueing, as virtual output queues behind a crossbar fast enough
 * that no input ever waits for it (speedup 64) emulate it: the mean wait
 * of a packet at its output under uniform Bernoulli traffic is Karol et
 * al.'s output-queueing wait (1987), (N - 1)/N * p / (2 (1 - p)) packet times (an
 * M/D/1-class discrete queue), within 5 % at loads 0.5, 0.8, 0.9; the
 * delay beyond it is the lone packet's alpha + w/BW.  And the switch
 * delivers what is offered, up to a full load. */
START_TEST(test_output_queueing_waits_as_karols_formula)
{
    const char *fast_crossbar = "packet: {architecture: voq, speedup: 64, flow_control: none}\n";
    expect_output_queueing(fast_crossbar, fast_crossbar);
}
END_TEST

/* A combined input- and output-queued switch with speedup 2 emulates output
 * queueing closely (Chuang, Goel, McKeown & Prabhakar, "Matching output
 * queueing with a combined input/output-queued switch", IEEE JSAC 17(6),
 * 1999): FIFO inputs lose their head-of-line blocking and, like virtual
 * output queues, saturate >= 0.95 at N = 32 under uniform traffic, given
 * output queues deep enough for the bursts an output receives at twice its
 * rate (64 packets, or unbounded). */
START_TEST(test_speedup_2_saturates_above_095_in_every_architecture)
{
    static const char *const variants[] = {"packet: {speedup: 2, output_buffer: 256KiB}\n",
                                           "packet: {speedup: 2, flow_control: none}\n",
                                           "packet: {architecture: voq, speedup: 2, buffer: 256KiB, output_buffer: 256KiB}\n"};
    for (int self = 0; self <= 1; self++) {
        topology t;
        load_split_star(32, variants[_i], &t);
        synthetic_result r = run_uniform(&t, 32, self, 1, 12500);
        ck_assert_msg(r.throughput >= 0.95, "N = 32 (%s, %s self-traffic): saturation throughput %.4f", variants[_i],
                      self ? "with" : "without", r.throughput);
        topology_free(&t);
    }
}
END_TEST

/* A shared-buffer switch is output-queued: under uniform Bernoulli traffic
 * a packet waits at its output as Karol et al.'s output-queueing formula
 * says (above), within 5 % at loads 0.5, 0.8, 0.9, with credits on its
 * input links and a pool of 1 MiB (the queues seldom reach it), and the
 * switch delivers what is offered up to a full load. */
START_TEST(test_shared_buffer_waits_as_karols_formula)
{
    /* at a full load the queues grow as a random walk (some hundreds of packets each over the run): a pool
       that holds them */
    expect_output_queueing("packet: {architecture: shared, shared_buffer: 1MiB}\n",
                           "packet: {architecture: shared, shared_buffer: 64MiB}\n");
}
END_TEST

/* The dynamic threshold keeps room for the queues a hotspot does not fill
 * (Choudhury & Hahne 1998: with alpha = 1 a lone congested queue holds at
 * most half the pool).  Three ranks of a star send to a fourth (incast) and
 * fill its output queue; a fifth sends 1 MiB to a sixth once that queue is
 * full.  With alpha 1 the victim's queue is always admitted and its flow
 * takes alpha + M/BW exactly (docs/packet.md section 4); with alpha 1024
 * the hotspot takes the whole pool, and the victim crosses only as the hot
 * output frees room, one of its packets per hot packet sent. */
START_TEST(test_dynamic_threshold_spares_the_other_outputs)
{
    static const char *const platforms[] = {
        "name: s\nkind: star\nranks: 6\nalpha: 1us\nbandwidth: 10GBps\n"
        "packet: {architecture: shared, shared_buffer: 64KiB, alpha: 1}\n",
        "name: s\nkind: star\nranks: 6\nalpha: 1us\nbandwidth: 10GBps\n"
        "packet: {architecture: shared, shared_buffer: 64KiB, alpha: 1024}\n"};
    const double victim_bytes = 1048576, alone = 1e-6 + victim_bytes / 10e9;
    double victim[2];
    for (int a = 0; a < 2; a++) {
        topology t;
        load_text(platforms[a], &t);
        flow f[4] = {{1, 0, 8e6, 0}, {2, 0, 8e6, 0}, {3, 0, 8e6, 0}, {4, 5, victim_bytes, 50e-6}};
        double finish[4];
        diag d = {0};
        engine *e = packet_run_flows(&t, f, 4, true, finish, &d);
        if (!e) ck_abort_msg("%s", d.message);
        engine_free(e);
        victim[a] = finish[3] - f[3].start_s;
        topology_free(&t);
    }
    ck_assert_msg(relative_error(victim[0], alone) < 1e-9, "alpha 1: victim %.9g s, alone %.9g s", victim[0], alone);
    ck_assert_msg(victim[1] > 1.5 * alone, "alpha 1024: victim %.9g s, alone %.9g s", victim[1], alone);
}
END_TEST

/* The round-robin policy alone, on a port and three waiting requests made
 * here: it takes the first whose head is in and fits its buffer, says
 * where it stood, and when none can go, why and when to look again. */
START_TEST(test_round_robin_takes_the_first_eligible_head_that_fits)
{
    port q;
    port_buffer far[2]; /* far buffers of one 4 KiB packet */
    port_init(&q, 1000, 1e9);
    for (int v = 0; v < 2; v++) buffer_init(&far[v], 4096);
    input_request requests[3] = {{.next = 1, .vc = 0, .wire = 4096, .eligible = 500}, /* not yet in */
                                 {.next = 2, .vc = 1, .wire = 8192, .eligible = 0},   /* larger than its buffer */
                                 {.next = -1, .vc = 0, .wire = 4096, .eligible = 0}};
    q.request_head = 0, q.request_tail = 2;
    request_view view = {requests, NULL, NULL, NULL, NULL, 1, 1 << 29, -1};
    arbitration_decision d = arbitration_round_robin(&q, far, &view, true, 100);
    ck_assert_int_eq(d.input, 2);
    ck_assert_int_eq(d.before, 1);
    requests[1].next = -1; /* without the one that fits */
    d = arbitration_round_robin(&q, far, &view, true, 100);
    ck_assert_msg(d.input == -1 && d.starved && d.retry == 500, "input %d, starved %d, retry %lld", d.input, d.starved,
                  (long long)d.retry);
    d = arbitration_round_robin(&q, far, &view, false, 100); /* without credits the large head goes */
    ck_assert_int_eq(d.input, 1);
    ck_assert_int_eq(d.before, 0);
}
END_TEST

/* iSLIP alone (McKeown 1999, section 3's example, at 2 x 2): two inputs
 * each with a packet for both outputs, every pointer at the start.  Both
 * outputs grant input 0, which accepts output 0: one match, and a second
 * round matches input 1 to output 1 without moving the pointers.  After
 * the first slot the grant pointer of output 0 has moved past input 0, so
 * the next slot's single round matches both: the pointers desynchronize. */
START_TEST(test_islip_matches_as_mckeowns_example)
{
    port ports[4];
    port_buffer buffers[8]; /* two a port */
    for (int p = 0; p < 4; p++) port_init(&ports[p], 0, 1e9L);
    for (int b = 0; b < 8; b++) buffer_init(&buffers[b], 1000);
    /* virtual output queues 0, 1 of buffer 0 (port 0's) and 2, 3 of buffer 2 (port 1's), for outputs 2, 3 */
    voq_entry voqs[4] = {{.request = {.next = VOQ_INPUT_BASE + 2, .wire = 100}, .buffer = 0},
                         {.request = {.next = VOQ_INPUT_BASE + 3, .wire = 100}, .buffer = 0},
                         {.request = {.next = -1, .wire = 100}, .buffer = 2},
                         {.request = {.next = -1, .wire = 100}, .buffer = 2}};
    ports[2].request_head = VOQ_INPUT_BASE + 0;
    ports[3].request_head = VOQ_INPUT_BASE + 1;
    request_view view = {NULL, voqs, buffers, NULL, NULL, 1, 1 << 29, -1};
    int32_t outputs[2] = {2, 3}, grant[4] = {0}, accept[4] = {0}, granted[2], before[2], matched_buffer[2];
    islip_switch sw = {.first = 0, .count = 2};
    islip_match m[2];
    net_time gate[4] = {0};
    bool requested[2];
    islip_state st = {.iterations = 2, .vc_shift = 1, .switches = &sw, .outputs = outputs, .grant = grant, .accept = accept,
                      .accept_count = 4, .gate = gate, .granted = granted, .granted_before = before,
                      .matched_buffer = matched_buffer, .requested = requested};
    ck_assert_int_eq(islip_match_switch(&st, 0, ports, buffers, view, true, 0, m), 2);
    ck_assert_msg(m[0].output == 2 && m[0].input == VOQ_INPUT_BASE + 0 && m[1].output == 3 && m[1].input == VOQ_INPUT_BASE + 3,
                  "two rounds: %d <- %d, %d <- %d", m[0].output, m[0].input, m[1].output, m[1].input);
    ck_assert_msg(grant[2] == 1 && grant[3] == 0 && accept[0] == 3 && accept[2] == 0, "pointers moved in round 2");
    for (int p = 0; p < 4; p++) grant[p] = accept[p] = 0;
    st.iterations = 1;
    ck_assert_int_eq(islip_match_switch(&st, 0, ports, buffers, view, true, 0, m), 1); /* the first slot */
    ck_assert_msg(m[0].output == 2 && m[0].input == VOQ_INPUT_BASE + 0, "slot 1: %d <- %d", m[0].output, m[0].input);
    ck_assert_int_eq(islip_match_switch(&st, 0, ports, buffers, view, true, 0, m), 2); /* the next: desynchronized */
    ck_assert_msg(m[0].output == 2 && m[0].input == VOQ_INPUT_BASE + 2 && m[1].output == 3 && m[1].input == VOQ_INPUT_BASE + 1,
                  "slot 2: %d <- %d, %d <- %d", m[0].output, m[0].input, m[1].output, m[1].input);
}
END_TEST

/* A lone message on every path class takes alpha + M/BW (docs/packet.md
 * section 4) whatever the switches' architecture and speedup. */
START_TEST(test_architectures_keep_a_lone_flow_exact)
{
    static const char *const variants[] = {
        "packet: {architecture: voq}\n", "packet: {speedup: 2}\n", "packet: {architecture: voq, speedup: 1.5}\n",
        "packet: {architecture: shared}\n", "packet: {architecture: shared, speedup: 4}\n",
        "packet: {architecture: voq, scheduler: islip, iterations: 2, speedup: 2}\n"};
    static const double sizes[] = {1, 4097, 1048576, 16777216};
    const path_case *p = &path_cases[_i];
    for (int v = 0; v < (int)(sizeof variants / sizeof variants[0]); v++) {
        topology t;
        load_shipped_with(p->platform, variants[v], &t);
        for (int s = 0; s < 4; s++) {
            flow f = {p->src, p->dst, sizes[s], 0};
            double finish = 0;
            diag d = {0};
            engine *e = packet_run_flows(&t, &f, 1, true, &finish, &d);
            if (!e) ck_abort_msg("%s: %s", p->what, d.message);
            engine_free(e);
            double expected = p->alpha_s + sizes[s] / p->bandwidth_Bps;
            ck_assert_msg(relative_error(finish, expected) < 1e-9, "%s (%s), M = %.0f: %.17g, expected %.17g", p->what,
                          variants[v], sizes[s], finish, expected);
        }
        topology_free(&t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("switches");
    TCase *tc = tcase_create("switches");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_fifo_saturates_at_karols_throughput_with_self_traffic, 0, DEPTHS);
    tcase_add_loop_test(tc, test_fifo_saturates_at_karols_throughput_without_self_traffic, 0, DEPTHS);
    tcase_add_test(tc, test_fifo_delivers_a_light_load_whole);
    tcase_add_loop_test(tc, test_voq_saturates_above_095_under_uniform_traffic, 0, 5);
    tcase_add_test(tc, test_output_queueing_waits_as_karols_formula);
    tcase_add_loop_test(tc, test_speedup_2_saturates_above_095_in_every_architecture, 0, 3);
    tcase_add_test(tc, test_shared_buffer_waits_as_karols_formula);
    tcase_add_test(tc, test_dynamic_threshold_spares_the_other_outputs);
    tcase_add_test(tc, test_round_robin_takes_the_first_eligible_head_that_fits);
    tcase_add_test(tc, test_islip_matches_as_mckeowns_example);
    tcase_add_loop_test(tc, test_architectures_keep_a_lone_flow_exact, 0, path_case_count);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
