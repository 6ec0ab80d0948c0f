/* test_views.c — the per-message and per-link views (docs/output.md) against forms derived here: an
 * uncontended message's latency is alpha + its size / BW in both network
 * models; every link carries exactly the bytes of the messages routed over
 * it; sends pair with their receives per connection in program order;
 * nearest-rank percentiles; the busiest links' order; background traffic
 * calibrated from the routes (uniform, incast, per tier), carried at its
 * offered load in both models, and harmless to a case whose links it does
 * not touch. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec/executor.h"
#include "exec/op_times.h"
#include "net/background.h"
#include "report/links.h"
#include "test_support.h"

#define EXACT 1e-9
static const char *const STAR8 = "kind: star\nranks: 8\nalpha: 0.5us\nbandwidth: 900GBps\n";

static const network_model models[] = {NETWORK_CM02, NETWORK_PACKET};
#define MODEL_COUNT 2

/* Run S on T (actor a on rank a), or on NODES when given, for SIZE_BYTES. */
static void run(const topology *t, schedule *s, const int *nodes, double size_bytes, const sim_options *o, exec_result *r,
                exec_views *v)
{
    int *ranks = malloc(sizeof(int) * (size_t)s->ranks);
    for (int i = 0; i < s->ranks; i++) ranks[i] = nodes ? nodes[i] : i;
    int *actor_nodes = exec_actor_nodes(s, ranks);
    exec_part part = {s, actor_nodes, size_bytes, NULL, 0, {0}, 1, 1, 0}; /* no launch, no overhead, payload bytes */
    diag d = {0};
    exec_run *running = exec_start(t, &part, 1, o, "a test's schedule", &d);
    bool ok = running && exec_finish(running, r, v, &d);
    free(ranks);
    free(actor_nodes);
    if (!ok) ck_abort_msg("simulation failed: %s", d.message);
}

static schedule *ring(int n)
{
    char why[256];
    algo_params p = {.ranks = n};
    schedule *s = allreduce_ring(&p, why, sizeof why);
    ck_assert_msg(s != NULL, "%s", why);
    return s;
}

/* Ring all-reduce on a star moves 2N(N-1) messages of M/N, each alone on
 * its two links: alpha + M/(N BW) (docs/platforms.md), in both models. */
START_TEST(test_an_uncontended_message_takes_alpha_plus_its_size_over_bw)
{
    topology t;
    load_text(STAR8, &t);
    const double sizes[] = {1000, 1e6, 64e6};
    for (int k = 0; k < MODEL_COUNT; k++)
        for (int i = 0; i < 3; i++) {
            schedule *s = ring(8);
            sim_options o = {.model = models[k]};
            exec_result r;
            run(&t, s, NULL, sizes[i], &o, &r, NULL);
            ck_assert_int_eq(r.messages, 2 * 8 * 7);
            double expected = 0.5e-6 + sizes[i] / 8 / 900e9;
            for (long m = 0; m < r.messages; m++)
                ck_assert_msg(relative_error(r.latency_s[m], expected) < EXACT, "%s, M = %g, message %ld: %.17g, expected %.17g",
                              network_model_name(models[k]), sizes[i], m, r.latency_s[m], expected);
            latency_summary l = latency_summarize(r.latency_s, r.messages);
            ck_assert(relative_error(l.p50_s, expected) < EXACT && relative_error(l.max_s, expected) < EXACT);
            exec_result_free(&r);
            schedule_free(s);
        }
    topology_free(&t);
}
END_TEST

/* A ring over one rank per leaf of clos-16 (r0, r4, r8, r12): every rank
 * sends its right neighbour 2(N-1) messages of M/N, so its access link
 * carries 2(N-1)M/N up and as much down; each message climbs one leaf
 * uplink and descends one spine downlink, so the spine tier carries N times
 * that each way.  Both models; utilization is bytes / (BW x time). */
START_TEST(test_each_link_carries_the_bytes_of_the_messages_routed_over_it)
{
    topology t;
    load_shipped("clos-16", &t);
    const int nodes[] = {0, 4, 8, 12};
    const double m = 4e6, per_rank = 2 * 3 * m / 4;
    for (int k = 0; k < MODEL_COUNT; k++) {
        schedule *s = ring(4);
        sim_options o = {.model = models[k]};
        exec_result r;
        exec_views v;
        run(&t, s, nodes, m, &o, &r, &v);
        link_row *rows = malloc(sizeof *rows * (size_t)(2 * t.link_count));
        int count = links_view(&t, v.links, r.time_s, models[k] == NETWORK_PACKET, rows);
        double spine_up = 0, spine_down = 0;
        for (int i = 0; i < count; i++) {
            const link_row *l = &rows[i];
            bool ring_rank = strcmp(l->from, "r0") == 0 || strcmp(l->to, "r0") == 0 || strcmp(l->from, "r4") == 0 ||
                             strcmp(l->to, "r4") == 0 || strcmp(l->from, "r8") == 0 || strcmp(l->to, "r8") == 0 ||
                             strcmp(l->from, "r12") == 0 || strcmp(l->to, "r12") == 0;
            if (strcmp(l->tier, "leaf") == 0)
                ck_assert_msg(l->bytes == (ring_rank ? per_rank : 0), "%s %s: %g bytes", l->link, l->down ? "down" : "up", l->bytes);
            else (l->down ? &spine_down : &spine_up)[0] += l->bytes;
            ck_assert(relative_error(l->utilization * l->bandwidth_Bps * r.time_s, l->bytes) < EXACT || l->bytes == 0);
            ck_assert(isfinite(l->stalled_s) == (models[k] == NETWORK_PACKET));
        }
        ck_assert_msg(spine_up == 4 * per_rank && spine_down == 4 * per_rank, "spine tier: %g up, %g down", spine_up, spine_down);
        free(rows);
        exec_views_free(&v);
        exec_result_free(&r);
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* Two messages 0 -> 1 and one 2 -> 1, interleaved at the receiver. */
static schedule *two_connections_into_one(void)
{
    schedule *s = schedule_create(PRIM_SENDRECV, 3, 0, 4);
    sched_send(s, 0, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_send(s, 0, 1, 1, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 2, 2, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 1, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_send(s, 2, 1, 2, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    return s;
}

/* A send posted before its receive, then a receive posted before its send;
 * two connections (0 -> 1 and 2 -> 1) interleaved at the receiver. */
START_TEST(test_a_message_runs_from_its_later_end_to_its_arrival)
{
    schedule *s = two_connections_into_one();
    const long first[] = {0, 2, 5};
    const net_op_time times[] = {
        {0, 5}, {6, 10},          /* actor 0: its two sends */
        {7, 9}, {2, 5}, {1, 10},  /* actor 1: from 2, then the two from 0 */
        {8, 9},                   /* actor 2 */
    };
    double latency[3];
    op_times_latencies(s, times, first, latency);
    /* in the senders' order: 0's first (5 - max(0, 2)), 0's second (10 - max(6, 1)), 2's (9 - max(8, 7)) */
    ck_assert(latency[0] == 3 && latency[1] == 4 && latency[2] == 1);
    schedule_free(s);
}
END_TEST

/* The same pairing as messages complete (the executor's message log): two
 * messages on 0 -> 1, the second posted by the receiver before the sender
 * saw the first complete, and one on 2 -> 1; ends arrive in simulation
 * order, each side's ops one at a time per connection. */
START_TEST(test_the_message_log_pairs_ends_as_the_op_times_do)
{
    schedule *s = two_connections_into_one();
    double latency[3] = {-1, -1, -1};
    ck_assert(!message_log_applies(s)); /* one or two messages per connection: per-op times take less room */
    message_log *l = message_log_open(s, latency);
    message_connection *a = message_log_connection(l, 0, 1), *b = message_log_connection(l, 2, 1);
    ck_assert(a && b && !message_log_connection(l, 1, 0));
    message_log_posted(a, true, 0);
    message_log_posted(a, false, 2);
    message_log_done(a, false, 5);
    message_log_posted(a, false, 5); /* the receiver is one message ahead */
    ck_assert(latency[0] == -1);
    message_log_posted(b, false, 7);
    message_log_done(a, true, 5);     /* 5 - max(0, 2) */
    ck_assert(latency[0] == 3);
    message_log_posted(a, true, 6);
    message_log_posted(b, true, 8);
    message_log_done(b, true, 9);
    message_log_done(b, false, 9);    /* 9 - max(8, 7) */
    message_log_done(a, false, 10);
    message_log_done(a, true, 10);    /* 10 - max(6, 5) */
    ck_assert(latency[0] == 3 && latency[1] == 4 && latency[2] == 1);
    message_log_close(l);
    schedule_free(s);
    /* a ring serves it, until a pair of actors talks on two lanes */
    s = ring(4);
    ck_assert(message_log_applies(s));
    sched_set_channel(s, 1);
    sched_send(s, 0, 1, 0, 1, SCHED_NO_DEP, SCHED_NO_DEP);
    sched_recv(s, 1, 0, 0, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
    ck_assert(!message_log_applies(s));
    schedule_free(s);
}
END_TEST

/* Messages of unequal latency (ring all-reduce over clos-16's
 * oversubscribed spine: some hops cross it, some do not; a receiver posted
 * before or after its sender): the latencies kept as messages complete are,
 * message by message, those paired afterwards from every op's times
 * (--trace keeps them). */
START_TEST(test_latencies_as_messages_complete_equal_those_from_op_times)
{
    topology t;
    load_shipped("clos-16-s4", &t);
    for (int k = 0; k < MODEL_COUNT; k++) {
        schedule *s = ring(16);
        ck_assert(message_log_applies(s));
        exec_result online, kept;
        sim_options o = {.model = models[k]};
        run(&t, s, NULL, 4e6, &o, &online, NULL);
        o.keep_op_times = true;
        run(&t, s, NULL, 4e6, &o, &kept, NULL);
        ck_assert(online.op_times == NULL && kept.op_times != NULL && online.messages == kept.messages);
        bool spread = false;
        for (long m = 0; m < online.messages; m++) {
            ck_assert_msg(online.latency_s[m] == kept.latency_s[m], "%s, message %ld: %.17g against %.17g",
                          network_model_name(models[k]), m, online.latency_s[m], kept.latency_s[m]);
            spread |= online.latency_s[m] != online.latency_s[0];
        }
        ck_assert_msg(spread, "contention spreads the latencies");
        exec_result_free(&online);
        exec_result_free(&kept);
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

/* An op that waits for one 70 ops back (past the executor's look-ahead of
 * 64: its op graph then) among 71 messages 0 -> 1: one connection, one
 * message at a time, each alone on its path: 71 (alpha + (M/71)/BW) in all
 * (docs/platforms.md), in both models. */
START_TEST(test_a_dependency_far_back_keeps_every_message_in_order)
{
    topology t;
    load_text(STAR8, &t);
    const int messages = 71;
    const double m = 71e6, alpha = 0.5e-6, bw = 900e9;
    for (int k = 0; k < MODEL_COUNT; k++) {
        schedule *s = schedule_create(PRIM_SENDRECV, 2, 0, messages);
        for (int i = 0; i < messages; i++) {
            sched_send(s, 0, 1, i, 1, i == messages - 1 ? 0 : SCHED_NO_DEP, SCHED_NO_DEP);
            sched_recv(s, 1, 0, i, 1, false, SCHED_NO_DEP, SCHED_NO_DEP);
        }
        sim_options o = {.model = models[k]};
        exec_result r;
        run(&t, s, NULL, m, &o, &r, NULL);
        double expected = messages * (alpha + m / messages / bw);
        ck_assert_msg(relative_error(r.time_s, expected) < EXACT, "%s: %.17g s, expected %.17g",
                      network_model_name(models[k]), r.time_s, expected);
        for (long i = 0; i < r.messages; i++) ck_assert(relative_error(r.latency_s[i], alpha + m / messages / bw) < EXACT);
        exec_result_free(&r);
        schedule_free(s);
    }
    topology_free(&t);
}
END_TEST

START_TEST(test_percentiles_are_nearest_ranks)
{
    double values[100];
    for (int i = 0; i < 100; i++) values[i] = (double)((i * 37) % 100 + 1); /* 1..100, shuffled */
    latency_summary l = latency_summarize(values, 100);
    ck_assert(l.count == 100 && l.p50_s == 50 && l.p99_s == 99 && l.max_s == 100);
    double seven[] = {3, 1, 2, 7, 5, 6, 4};
    l = latency_summarize(seven, 7); /* ranks ceil(3.5) = 4 and ceil(6.93) = 7 */
    ck_assert(l.p50_s == 4 && l.p99_s == 7 && l.max_s == 7);
    double one = 2.5;
    l = latency_summarize(&one, 1);
    ck_assert(l.p50_s == 2.5 && l.p99_s == 2.5 && l.max_s == 2.5);
    l = latency_summarize(NULL, 0);
    ck_assert(l.count == 0 && l.p50_s == 0 && l.max_s == 0);
}
END_TEST

/* Several groups' latencies summarized together: the ranks of their union.
 * The parts are 1..100 dealt out by i * 37 mod 100 over parts of 0, 1, 13,
 * 0, 40 and 46 values, with a 0 and a negative value added to show the
 * order of doubles holds below 1 and 0: 102 values, -2.5 < 0 < 1 .. 100, so
 * nearest ranks ceil(51) = 51 and ceil(100.98) = 101 are 49 and 99. */
START_TEST(test_percentiles_over_parts_are_those_of_their_union)
{
    double all[102], *parts[6];
    long counts[6] = {0, 1, 13, 0, 40, 48};
    for (int i = 0; i < 100; i++) all[i] = (double)((i * 37) % 100 + 1);
    all[100] = 0;
    all[101] = -2.5;
    for (int k = 0, n = 0; k < 6; n += (int)counts[k++]) parts[k] = all + n;
    latency_summary l = latency_summarize_parts(parts, counts, 6);
    ck_assert_msg(l.count == 102 && l.p50_s == 49 && l.p99_s == 99 && l.max_s == 100, "%ld: %g %g %g", l.count,
                  l.p50_s, l.p99_s, l.max_s);
    double tiny[] = {1e-300, 5e-324}, huge[] = {1e300};
    double *two[] = {tiny, huge};
    long two_counts[] = {2, 1};
    l = latency_summarize_parts(two, two_counts, 2); /* ranks 2 and 3 of 5e-324 < 1e-300 < 1e300 */
    ck_assert(l.p50_s == 1e-300 && l.p99_s == 1e300 && l.max_s == 1e300);
}
END_TEST

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The percentiles against a sorted copy's nearest ranks: 20,001 values of
 * both signs, many repeated (a few hundred distinct), some sharing their
 * top 48 bits with others (the select's last digit decides), in three
 * parts; the values themselves are left where they were. */
START_TEST(test_percentiles_are_the_sorted_values_nearest_ranks)
{
    enum { N = 20001 };
    static double all[N], sorted[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int v = (int)((seed >> 8) % 400) - 100;
        all[i] = i % 7 == 0 ? nextafter((double)v, 1e9) : v * 1e-6;
    }
    memcpy(sorted, all, sizeof all);
    qsort(sorted, N, sizeof *sorted, ascending);
    double *parts[] = {all, all + 5000, all + 5001};
    long counts[] = {5000, 1, N - 5001};
    latency_summary l = latency_summarize_parts(parts, counts, 3);
    long r50 = (N * 50L + 99) / 100, r99 = (N * 99L + 99) / 100;
    ck_assert_msg(l.count == N && l.p50_s == sorted[r50 - 1] && l.p99_s == sorted[r99 - 1] && l.min_s == sorted[0] &&
                      l.max_s == sorted[N - 1],
                  "%.17g %.17g %.17g %.17g", l.p50_s, l.p99_s, l.min_s, l.max_s);
    seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int v = (int)((seed >> 8) % 400) - 100;
        ck_assert(all[i] == (i % 7 == 0 ? nextafter((double)v, 1e9) : v * 1e-6));
    }
}
END_TEST

START_TEST(test_the_busiest_links_come_first_and_idle_ones_not_at_all)
{
    link_row rows[5] = {0};
    const double utilization[] = {0.5, 0.9, 0, 0.9, 0.2}, mean[] = {0, 10, 0, 20, 0}, bytes[] = {5, 9, 0, 9, 2};
    for (int i = 0; i < 5; i++) {
        rows[i].port = i;
        rows[i].utilization = utilization[i];
        rows[i].mean_buffer_bytes = mean[i];
        rows[i].bytes = bytes[i];
    }
    link_row hot[REPORT_HOT_LINKS];
    int n = links_hottest(rows, 5, hot, REPORT_HOT_LINKS);
    ck_assert_int_eq(n, 4);
    const int order[] = {3, 1, 0, 4}; /* ties on utilization go to the fuller buffer */
    for (int i = 0; i < n; i++) ck_assert_int_eq(hot[i].port, order[i]);
    ck_assert_int_eq(links_hottest(rows, 5, hot, 2), 2);
}
END_TEST

static background build(const topology *t, const int *ranks, int count, background_pattern pattern, int to, int tier,
                        double load)
{
    background_spec spec = {ranks, count, pattern, to, load, tier, 65536, true, 1, -1, 0};
    background b;
    char why[256];
    ck_assert_msg(background_build(&b, t, &spec, why, sizeof why), "%s", why);
    return b;
}

/* The rate that puts LOAD on the busiest link, derived per pattern:
 * uniform on a star: a source's own access link carries all it sends;
 * incast of 4: the destination's link carries 4 sources' rates;
 * uniform over 2 ranks on each of clos-16-spread's 4 leaves, tier spine: a
 * leaf's uplink (4 x 50 GB/s / s = 100 GB/s) carries 2 sources x 6/7 of
 * their traffic (one of the 7 destinations shares their leaf). */
START_TEST(test_background_rates_load_the_busiest_link_as_asked)
{
    topology t;
    load_text(STAR8, &t);
    const int four[] = {0, 1, 2, 3};
    background b = build(&t, four, 4, BACKGROUND_UNIFORM, 0, -1, 0.5);
    ck_assert_int_eq(b.source_count, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert(relative_error(b.sources[i].rate_per_s * 65536, 0.5 * 900e9) < EXACT);
        ck_assert_int_eq(b.sources[i].target_count, 3);
    }
    ck_assert(relative_error(b.warmup_s, 100 * 65536 / 900e9) < EXACT);
    background_free(&b);
    b = build(&t, four, 4, BACKGROUND_INCAST, 7, -1, 1.5);
    for (int i = 0; i < 4; i++) {
        ck_assert(relative_error(b.sources[i].rate_per_s * 65536, 1.5 * 900e9 / 4) < EXACT);
        ck_assert(b.sources[i].target_count == 1 && b.targets[b.sources[i].target_first] == 7);
    }
    background_free(&b);
    topology_free(&t);
    load_shipped("clos-16-spread", &t);
    const int eight[] = {0, 1, 4, 5, 8, 9, 12, 13};
    b = build(&t, eight, 8, BACKGROUND_UNIFORM, 0, 1, 0.8);
    for (int i = 0; i < 8; i++) ck_assert(relative_error(b.sources[i].rate_per_s * 65536, 0.8 * 100e9 / (2 * 6.0 / 7)) < EXACT);
    background_free(&b);
    /* a permutation is a derangement: every source one other rank of the list */
    b = build(&t, eight, 8, BACKGROUND_PERMUTATION, 0, -1, 0.5);
    for (int i = 0; i < 8; i++) ck_assert(b.sources[i].target_count == 1 && b.targets[i] != eight[i]);
    background_free(&b);
    topology_free(&t);
}
END_TEST

/* A sendrecv r0 -> r1 of M bytes on T beside B under MODEL: its time (and
 * the link view in V when given). */
static double sendrecv_beside(const topology *t, const background *b, network_model model, double m, exec_views *v)
{
    char why[256];
    algo_params p = {.ranks = 2, .root = 0, .peer = 1};
    schedule *s = sendrecv_direct(&p, why, sizeof why);
    sim_options o = {.model = model, .background = b};
    exec_result r;
    run(t, s, NULL, m, &o, &r, v);
    double time_s = r.time_s;
    exec_result_free(&r);
    schedule_free(s);
    return time_s;
}

/* A sendrecv r0 -> r1 of 100 MB (111 us) on the star while ranks 4..7 send
 * each other periodic 64 KiB messages at half their links' rate: the case
 * shares no link with them and takes alpha + M/BW exactly, and r4's access
 * link carries half its capacity over the run (to one message), in both
 * models (the packet model's warm-up is not counted). */
START_TEST(test_background_is_carried_at_its_load_and_spares_other_links)
{
    topology t;
    load_text(STAR8, &t);
    const int senders[] = {4, 5, 6, 7};
    background b = build(&t, senders, 4, BACKGROUND_UNIFORM, 0, -1, 0.5);
    const double m = 100e6;
    for (int k = 0; k < MODEL_COUNT; k++) {
        exec_views v;
        double time_s = sendrecv_beside(&t, &b, models[k], m, &v);
        double expected = 0.5e-6 + m / 900e9;
        ck_assert_msg(relative_error(time_s, expected) < EXACT, "%s: %.17g, expected %.17g", network_model_name(models[k]),
                      time_s, expected);
        double carried = v.links[4 * 2].bytes; /* link 4 (r4's), up */
        ck_assert_msg(fabs(carried - 0.5 * 900e9 * time_s) <= 65536, "%s: r4 sent %g bytes in %g s",
                      network_model_name(models[k]), carried, time_s);
        exec_views_free(&v);
    }
    background_free(&b);
    topology_free(&t);
}
END_TEST

/* The same sendrecv r0 -> r1 beside an incast into r1 at its full rate:
 * r1's link is shared, the case is slower than alone, and reruns are
 * bit-identical (seeded arrivals). */
START_TEST(test_background_that_shares_the_path_slows_the_case_the_same_way_every_run)
{
    topology t;
    load_text(STAR8, &t);
    const int senders[] = {4, 5, 6, 7};
    background b = build(&t, senders, 4, BACKGROUND_INCAST, 1, -1, 1.0);
    for (int k = 0; k < MODEL_COUNT; k++) {
        double times[2];
        for (int again = 0; again < 2; again++) times[again] = sendrecv_beside(&t, &b, models[k], 10e6, NULL);
        ck_assert_msg(times[0] > 1.2 * (0.5e-6 + 10e6 / 900e9), "%s: %.9g", network_model_name(models[k]), times[0]);
        ck_assert(times[0] == times[1]);
    }
    background_free(&b);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("views");
    TCase *tc = tcase_create("views");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_an_uncontended_message_takes_alpha_plus_its_size_over_bw);
    tcase_add_test(tc, test_each_link_carries_the_bytes_of_the_messages_routed_over_it);
    tcase_add_test(tc, test_a_message_runs_from_its_later_end_to_its_arrival);
    tcase_add_test(tc, test_the_message_log_pairs_ends_as_the_op_times_do);
    tcase_add_test(tc, test_latencies_as_messages_complete_equal_those_from_op_times);
    tcase_add_test(tc, test_a_dependency_far_back_keeps_every_message_in_order);
    tcase_add_test(tc, test_percentiles_are_nearest_ranks);
    tcase_add_test(tc, test_percentiles_over_parts_are_those_of_their_union);
    tcase_add_test(tc, test_percentiles_are_the_sorted_values_nearest_ranks);
    tcase_add_test(tc, test_the_busiest_links_come_first_and_idle_ones_not_at_all);
    tcase_add_test(tc, test_background_rates_load_the_busiest_link_as_asked);
    tcase_add_test(tc, test_background_is_carried_at_its_load_and_spares_other_links);
    tcase_add_test(tc, test_background_that_shares_the_path_slows_the_case_the_same_way_every_run);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
