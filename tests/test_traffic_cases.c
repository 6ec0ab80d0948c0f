/* test_traffic_cases.c — `traffic:` cases through the scenario path
 * (scenario/traffic_spec.h, cli/run_traffic.h) against numbers from
 * elsewhere: disjoint flows of a matrix take alpha + M/BW each in both
 * network models (docs/packet.md §4), two flows into one output finish at
 * the fluid model's fair-share times (computed by hand below), the cases
 * of a `concurrent:` block share the network, and synthetic uniform
 * traffic saturates a 16-port FIFO switch at Karol, Hluchyj & Morgan's
 * 0.6013 (IEEE Trans. Commun. 35(12), 1987, Table I, with self-traffic). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run_traffic.h"
#include "test_support.h"

#define EXACT 1e-9
#define STAR_ALPHA_S 0.5e-6
#define STAR_BANDWIDTH_BPS 900e9
#define STAR "{name: star-8, kind: star, ranks: 8, alpha: 0.5us, bandwidth: 900GBps}"

static char folder[64];

/* FILE (in the test's folder) holding TEXT. */
static void write_file(const char *file, const char *text)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", folder, file);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void load_scenario(const char *text, scenario *s)
{
    char name[160];
    snprintf(name, sizeof name, "%s/scenario.yaml", folder);
    diag d = {0};
    if (!scenario_load_string(name, text, s, &d)) ck_abort_msg("scenario refused: %s:%d:%d: %s", d.file, d.line, d.column, d.message);
}

/* The rows of block FIRST of S run under MODEL; the exit status. */
static int run_block(const scenario *s, int first, network_model model, result_row *rows)
{
    run_settings o = {.mode = MODE_RUN, .quiet = true, .jobs = 1, .sim = {.model = model}};
    return run_traffic(s, &o, first, rows);
}

/* The one matrix case of a scenario on the star whose matrix FILE holds TEXT, run under MODEL into *ROW. */
static void run_star_matrix(const char *file, const char *text, network_model model, scenario *s, result_row *row)
{
    write_file(file, text);
    char yaml[256];
    snprintf(yaml, sizeof yaml, "platform: " STAR "\ncases:\n  - traffic: {matrix: %s}\n", file);
    load_scenario(yaml, s);
    ck_assert_int_eq(run_block(s, 0, model, row), 0);
}

static void setup(void)
{
    snprintf(folder, sizeof folder, "/tmp/collsim-traffic-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(folder));
}

static void teardown(void)
{
    char command[96];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    ck_assert_int_eq(system(command), 0);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Flows that share no link direction: each alone on its route. */
static const struct {
    int src, dst;
    double size_bytes, start_s;
} disjoint[] = {{0, 1, 1e6, 0}, {1, 0, 1048576, 2e-6}, {2, 3, 4097, 1e-6}, {4, 5, 16e6, 3e-6}, {6, 7, 1, 0}};
#define DISJOINT ((int)(sizeof disjoint / sizeof disjoint[0]))

START_TEST(test_disjoint_flows_of_a_matrix_take_alpha_plus_m_over_bw)
{
    network_model model = _i ? NETWORK_PACKET : NETWORK_CM02;
    scenario s;
    result_row row;
    run_star_matrix("disjoint.rows", "# SRC DST SIZE START\n0 1 1MB\n1 0 1MiB 2us\n2 3 4097 1us\n4 5 16MB 3us\n6 7 1\n",
                    model, &s, &row);
    ck_assert_int_eq(row.flow_count, DISJOINT);
    ck_assert_int_eq(row.messages, DISJOINT);
    double completion_s[DISJOINT], last_finish_s = 0, sum = 0, bytes = 0;
    for (int i = 0; i < DISJOINT; i++) {
        completion_s[i] = STAR_ALPHA_S + disjoint[i].size_bytes / STAR_BANDWIDTH_BPS;
        double finish_s = disjoint[i].start_s + completion_s[i];
        ck_assert_msg(relative_error(row.flows[i].finish_s, finish_s) < EXACT, "%s: flow %d finished at %.12g s, not %.12g",
                      network_model_name(model), i, row.flows[i].finish_s, finish_s);
        last_finish_s = fmax(last_finish_s, finish_s);
        sum += completion_s[i];
        bytes += disjoint[i].size_bytes;
    }
    qsort(completion_s, DISJOINT, sizeof *completion_s, by_value);
    /* nearest rank: the ceil(p n)-th smallest of 5 is the 3rd (p50) and the 5th (p99) */
    ck_assert(relative_error(row.latency_min_s, completion_s[0]) < EXACT);
    ck_assert(relative_error(row.latency_p50_s, completion_s[2]) < EXACT);
    ck_assert(relative_error(row.latency_p99_s, completion_s[4]) < EXACT);
    ck_assert(relative_error(row.latency_max_s, completion_s[4]) < EXACT);
    ck_assert(relative_error(row.latency_mean_s, sum / DISJOINT) < EXACT);
    ck_assert(relative_error(row.time_s, last_finish_s) < EXACT); /* the first flows start at 0 */
    ck_assert_double_eq(row.size_bytes, bytes);
    ck_assert(isnan(row.predicted_s)); /* no α-β model predicts traffic */
    free(row.flows);
    scenario_free(&s);
}
END_TEST

/* htsim's connection matrix: a start in picoseconds. */
START_TEST(test_an_htsim_connection_starts_at_its_picoseconds)
{
    scenario s;
    result_row row;
    run_star_matrix("one.cm", "Nodes 8\nConnections 1\n3->6 id 1 start 2500000 size 2000000\n", NETWORK_PACKET, &s, &row);
    double expected_s = 2.5e-6 + STAR_ALPHA_S + 2e6 / STAR_BANDWIDTH_BPS;
    ck_assert_msg(relative_error(row.flows[0].finish_s, expected_s) < EXACT, "finished at %.12g s, not %.12g",
                  row.flows[0].finish_s, expected_s);
    ck_assert(relative_error(row.time_s, STAR_ALPHA_S + 2e6 / STAR_BANDWIDTH_BPS) < EXACT); /* from its start */
    free(row.flows);
    scenario_free(&s);
}
END_TEST

/* Two flows of M1 < M2 into rank 2 from t = 0, by hand: max-min fairness
 * gives each BW/2 on the link into rank 2 until the smaller is done, at
 * alpha + 2 M1/BW; the other then has M2 - M1 left at BW: alpha + (M1 + M2)/BW. */
#define M1 1e6
#define M2 3e6
static void expect_fair_share(const result_row *first, const result_row *second)
{
    double small_s = STAR_ALPHA_S + 2 * M1 / STAR_BANDWIDTH_BPS, large_s = STAR_ALPHA_S + (M1 + M2) / STAR_BANDWIDTH_BPS;
    ck_assert_msg(relative_error(first->flows[0].finish_s, small_s) < EXACT, "M1 finished at %.12g s, not %.12g",
                  first->flows[0].finish_s, small_s);
    ck_assert_msg(relative_error(second->flows[0].finish_s, large_s) < EXACT, "M2 finished at %.12g s, not %.12g",
                  second->flows[0].finish_s, large_s);
}

START_TEST(test_two_flows_into_one_output_finish_at_the_fair_share_times)
{
    scenario s;
    result_row row;
    run_star_matrix("incast.rows", "0 2 1MB\n1 2 3MB\n", NETWORK_CM02, &s, &row);
    result_row second = row;
    second.flows = row.flows + 1;
    expect_fair_share(&row, &second);
    free(row.flows);
    scenario_free(&s);
}
END_TEST

/* The matrices of a `concurrent:` block run in one simulation: the same two flows as two cases. */
START_TEST(test_concurrent_matrices_share_the_network)
{
    write_file("a.rows", "0 2 1MB\n");
    write_file("b.rows", "1 2 3MB\n");
    scenario s;
    load_scenario("platform: " STAR "\ncases:\n  - concurrent:\n      - traffic: {matrix: a.rows}\n"
                  "      - traffic: {matrix: b.rows}\n", &s);
    result_row rows[2];
    ck_assert_int_eq(run_block(&s, 0, NETWORK_CM02, rows), 0);
    expect_fair_share(&rows[0], &rows[1]);
    ck_assert_int_eq(rows[1].block_first, 0);
    ck_assert_int_eq(rows[1].block_count, 2);
    free(rows[0].flows);
    free(rows[1].flows);
    scenario_free(&s);
}
END_TEST

/* Karol et al., Table I: N = 16, uniform destinations (self-traffic included), FIFO, speedup 1. */
#define KAROL_16 0.6013
START_TEST(test_synthetic_uniform_saturation_reproduces_karol)
{
    scenario s;
    load_scenario("platform: {name: split-star, kind: star, ranks: 32, alpha: 2ns, bandwidth: 1GBps}\n"
                  "network: packet\ncases:\n"
                  "  - traffic: {pattern: uniform, load: 1, self_traffic: true, sources: {count: 1, size: 16},\n"
                  "              sinks: [[16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]],\n"
                  "              packet: 4KiB, packets: 25000, warmup: 2500, seed: 27}\n", &s);
    result_row row;
    ck_assert_int_eq(run_block(&s, 0, NETWORK_PACKET, &row), 0);
    ck_assert_msg(relative_error(row.delivered_load, KAROL_16) < 0.02, "saturation throughput %.4f, Karol %.4f",
                  row.delivered_load, KAROL_16);
    ck_assert_double_eq(row.offered_load, 1);
    /* a port's delivered bytes per second: the fraction of its 1 GB/s link */
    ck_assert(relative_error(row.delivered_Bps, row.delivered_load * 1e9) < 1e-12);
    scenario_free(&s);
}
END_TEST

/* Below saturation what is offered is delivered, and every packet's delay is at least its own time on the wire. */
START_TEST(test_synthetic_light_load_is_delivered_whole)
{
    scenario s;
    load_scenario("platform: {name: star-16, kind: star, ranks: 16, alpha: 2ns, bandwidth: 1GBps}\n"
                  "network: packet\ncases:\n"
                  "  - traffic: {pattern: permutation, load: 0.3, arrivals: poisson, packet: 4KiB, packets: 20000}\n", &s);
    result_row row;
    ck_assert_int_eq(run_block(&s, 0, NETWORK_PACKET, &row), 0);
    ck_assert_msg(relative_error(row.offered_load, 0.3) < 0.02 && relative_error(row.delivered_load, row.offered_load) < 0.02,
                  "offered %.4f (asked 0.3), delivered %.4f", row.offered_load, row.delivered_load);
    double wire_s = 2e-9 + 4096 / 1e9; /* alpha + one packet at BW */
    ck_assert_msg(row.latency_p50_s >= wire_s * (1 - EXACT) && row.latency_p50_s <= row.latency_p99_s &&
                  row.latency_p99_s <= row.latency_max_s, "delays p50 %.6g p99 %.6g max %.6g s, wire %.6g s",
                  row.latency_p50_s, row.latency_p99_s, row.latency_max_s, wire_s);
    scenario_free(&s);
}
END_TEST

START_TEST(test_synthetic_traffic_is_refused_under_the_fluid_model)
{
    scenario s;
    load_scenario("platform: " STAR "\ncases:\n  - traffic: {pattern: uniform, load: 0.5}\n", &s);
    result_row row;
    ck_assert_int_eq(run_block(&s, 0, NETWORK_CM02, &row), 2);
    scenario_free(&s);
}
END_TEST

static Suite *traffic_suite(void)
{
    Suite *s = suite_create("traffic cases");
    TCase *tc = tcase_create("traffic");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_disjoint_flows_of_a_matrix_take_alpha_plus_m_over_bw, 0, 2);
    tcase_add_test(tc, test_an_htsim_connection_starts_at_its_picoseconds);
    tcase_add_test(tc, test_two_flows_into_one_output_finish_at_the_fair_share_times);
    tcase_add_test(tc, test_concurrent_matrices_share_the_network);
    tcase_add_test(tc, test_synthetic_uniform_saturation_reproduces_karol);
    tcase_add_test(tc, test_synthetic_light_load_is_delivered_whole);
    tcase_add_test(tc, test_synthetic_traffic_is_refused_under_the_fluid_model);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(traffic_suite());
}
