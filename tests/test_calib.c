/* test_calib.c — collsim calibrate (docs/calibration.md): logs written here in the
 * nccl-tests output format (NVIDIA nccl-tests src/util.cu: the '#' header,
 * the "#  Rank" lines, the column header with its (us) unit line, rows of
 * size count type redop root and time / algbw / busbw / #wrong out of place
 * and in place) from chosen launch, per-hop latency and bandwidth, read back
 * and fitted: the fit must give the chosen values back.  Malformed logs are
 * refused with their line and column. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/fit.h"
#include "calib/log_reader.h"
#include "calib/regimes.h"
#include "model/model.h"
#include "model/tuner.h"
#include "test_support.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* A protocol regime of the generated logs: up to UP_TO bytes, t = launch + n_α·hop + n_β·M/BW. */
typedef struct truth {
    double up_to_bytes, launch_s, hop_s, bandwidth_Bps;
} truth;

/* Ring all-reduce's counts (01 §5.1), written here independently of src/model. */
static double ring_time(int n, double m, const truth *t)
{
    return t->launch_s + 2.0 * (n - 1) * t->hop_s + 2.0 * (n - 1) / n * m / t->bandwidth_Bps;
}

/* An all_reduce_perf log of N ranks from 1 KiB to 8 GiB (x2), times printed as nccl-tests does (us, 2 decimals). */
static char *ar_log(int n, const truth *regimes, int regime_count, bool header, bool rank_lines)
{
    size_t size = 1 << 16, used = 0;
    char *text = malloc(size);
    used += (size_t)snprintf(text + used, size - used, "# nccl-tests version 2.13.8 nccl-headers=21903 nccl-library=21903\n");
    if (header) used += (size_t)snprintf(text + used, size - used, "# Collective test starting: all_reduce_perf\n");
    used += (size_t)snprintf(text + used, size - used,
                             "# nThread 1 nGpus %d minBytes 1024 maxBytes 8589934592 step: 2(factor) warmup iters: 5 "
                             "iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n", n);
    for (int r = 0; r < n && rank_lines; r++)
        used += (size_t)snprintf(text + used, size - used,
                                 "#  Rank %2d Group  0 Pid  4242 on      node1 device %2d [0000:18:00] NVIDIA H100\n", r, r);
    used += (size_t)snprintf(text + used, size - used,
                             "node1:4242:4242 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n#\n"
                             "#                                                              out-of-place                       in-place          \n"
                             "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                             "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n");
    for (double m = 1024; m <= 8589934592.0; m *= 2) {
        int r = 0;
        while (r + 1 < regime_count && m > regimes[r].up_to_bytes) r++;
        double t = ring_time(n, m, &regimes[r]), alg = m / t / 1e9, bus = alg * 2 * (n - 1) / n;
        used += (size_t)snprintf(text + used, size - used,
                                 "%12.0f  %12.0f  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6d  %7.2f  %6.2f  %6.2f  %6s\n", m,
                                 m / 4, "float", "sum", -1, t * 1e6, alg, bus, 0, t * 1e6, alg, bus, "N/A");
    }
    snprintf(text + used, size - used, "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 100.1\n#\n");
    return text;
}

static int notes;
static void count_note(void *context, const char *file, int line, const char *why)
{
    (void)context, (void)file, (void)line, (void)why;
    notes++;
}

static void parse_ok(const char *name, const char *text, calib_log *log)
{
    diag d = {0};
    notes = 0;
    ck_assert_msg(calib_log_parse(name, text, strlen(text), log, count_note, NULL, &d), "%s refused: %d:%d %s", name,
                  d.line, d.column, d.message);
}

static void parse_refused(const char *text, int line, int column, const char *words)
{
    calib_log log;
    diag d = {0};
    ck_assert(!calib_log_parse("bad.log", text, strlen(text), &log, NULL, NULL, &d));
    ck_assert_int_eq(d.line, line);
    ck_assert_int_eq(d.column, column);
    ck_assert_msg(strstr(d.message, words), "'%s' not in '%s'", words, d.message);
}

static const truth one_regime = {0, 30e-6, 0.6e-6, 360e9};

START_TEST(test_log_reader_reads_the_documented_format)
{
    char *text = ar_log(8, &one_regime, 1, true, true);
    calib_log log;
    parse_ok("run.log", text, &log);
    ck_assert_int_eq(log.prim, PRIM_ALLREDUCE);
    ck_assert_int_eq(log.ranks, 8);
    ck_assert_ptr_nonnull(strstr(log.prim_from, "Collective test starting"));
    ck_assert_ptr_nonnull(strstr(log.ranks_from, "Rank"));
    ck_assert_int_eq(log.point_count, 24);          /* 1 KiB .. 8 GiB */
    ck_assert_int_eq(notes, 1);                     /* the NCCL INFO line, named */
    ck_assert_double_eq(log.points[0].size_bytes, 1024);
    /* 30 + 14 x 0.6 + 1.75 x 1024 / 360e3 us = 38.40498 us, printed 38.40 */
    ck_assert_double_eq_tol(log.points[0].time_s, 38.40e-6, 1e-12);
    ck_assert_double_eq(log.points[23].size_bytes, 8589934592.0);
    free(text);
}
END_TEST

START_TEST(test_log_reader_recognises_collective_and_ranks_without_the_header)
{
    /* no "Collective test starting" line, no Rank lines: the file name, then busbw/algbw = 2(N-1)/N */
    char *text = ar_log(8, &one_regime, 1, false, false);
    calib_log log;
    parse_ok("logs/all_reduce_perf.8gpu.txt", text, &log);
    ck_assert_int_eq(log.prim, PRIM_ALLREDUCE);
    ck_assert_ptr_nonnull(strstr(log.prim_from, "file name"));
    ck_assert_int_eq(log.ranks, 8);
    ck_assert_ptr_nonnull(strstr(log.ranks_from, "busbw / algbw"));
    /* an echoed command line names the binary */
    size_t length = strlen(text) + 128;
    char *echoed = malloc(length);
    snprintf(echoed, length, "$ mpirun -np 8 ./build/reduce_scatter_perf -b 1K -e 8G -f 2\n%s", text);
    parse_ok("x.log", echoed, &log);
    ck_assert_int_eq(log.prim, PRIM_REDUCESCATTER);
    ck_assert_ptr_nonnull(strstr(log.prim_from, "line 1"));
    /* nothing names it: busbw > algbw is all-reduce's 2(N-1)/N */
    parse_ok("x.log", text, &log);
    ck_assert_int_eq(log.prim, PRIM_ALLREDUCE);
    free(echoed);
    free(text);
}
END_TEST

START_TEST(test_log_reader_takes_the_oldest_format_in_ms_and_leaves_out_wrong_rows)
{
    static const char text[] =
        "# Using devices\n"
        "#   Rank  0 on node1 device  0 [0x18] Tesla V100\n"
        "#   Rank  1 on node1 device  1 [0x3b] Tesla V100\n"
        "#      size    count   type   redop     time  algbw  busbw  error     time  algbw  busbw  error\n"
        "#       (B) (elements)                  (ms) (GB/s) (GB/s)             (ms) (GB/s) (GB/s)\n"
        "     1048576   262144  float     sum    0.050  20.97  20.97  0e+00    0.052  20.16  20.16  0e+00\n"
        "     2097152   524288  float     sum    0.090  23.30  23.30  3e+00    0.090  23.30  23.30  0e+00\n";
    calib_log log;
    parse_ok("broadcast_perf.log", text, &log);
    ck_assert_int_eq(log.prim, PRIM_BCAST);
    ck_assert_int_eq(log.ranks, 2);
    ck_assert_int_eq(log.point_count, 1);      /* the row with an error count is left out, and named */
    ck_assert_int_eq(notes, 1);
    ck_assert_double_eq_tol(log.points[0].time_s, 51e-6, 1e-12); /* ms, the mean of 0.050 and 0.052 */
}
END_TEST

START_TEST(test_malformed_logs_are_refused_with_line_and_column)
{
    static const char header[] =
        "# Collective test starting: all_reduce_perf\n"
        "#  Rank  0 Group  0 Pid  1 on a device  0 [0x18] GPU\n"
        "#  Rank  1 Group  0 Pid  1 on a device  1 [0x19] GPU\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
    char text[2048];
    snprintf(text, sizeof text, "%s        1024           256     float     sum      -1    abc    0.02    0.04      0    44.80    0.02    0.04      0\n", header);
    parse_refused(text, 5, 57, "out-of-place time 'abc'");
    snprintf(text, sizeof text, "%s        1024           256     float     sum      -1    44.8    0.02\n", header);
    parse_refused(text, 5, 1, "truncated");
    snprintf(text, sizeof text, "%s        1024           256     float     sum      -1    -4.8    0.02    0.04      0    44.80    0.02    0.04      0\n", header);
    parse_refused(text, 5, 57, "not a positive number");
    snprintf(text, sizeof text, "%s        1024           256     float     sum      -1    44.8    0.02    0.04      x    44.80    0.02    0.04      0\n", header);
    parse_refused(text, 5, 83, "'#wrong' is 'x'");
    parse_refused(header, 4, 1, "no result row");
    parse_refused("", 1, 1, "no result row");
    /* nothing says which collective: busbw = algbw without root fits several */
    parse_refused("#       size  count  type  redop  root  time  algbw  busbw  #wrong  time  algbw  busbw  #wrong\n"
                  "  1024  256  float  none  -1  10.0  0.10  0.09  0  10.0  0.10  0.09  0\n",
                  1, 1, "which collective");
}
END_TEST

/* hgx-h100's NVLink rate as its links run: 450 GB/s x its stated efficiency 0.824 (the fit is against it) */
#define H100_RATE_BPS (450e9 * 0.824)

/* Fit LOGS, each a ring log (as NCCL_ALGO Ring names it), on hgx-h100 (alpha 0.6 us, 8 ranks, no overhead
 * or launch). */
static void fit_ok(calib_log *logs, int count, calib_result *r)
{
    topology t;
    load_shipped("hgx-h100", &t);
    const char *top = getenv("top_srcdir");
    char path[1024], why[256];
    snprintf(path, sizeof path, "%s/platforms/hgx-h100.yaml", top ? top : ".");
    for (int i = 0; i < count; i++) snprintf(logs[i].algorithm, sizeof logs[i].algorithm, "ring");
    ck_assert_msg(calib_fit(logs, count, path, &t, r, why, sizeof why), "%s", why);
    for (int k = 0; k < r->fit_count; k++) ck_assert_int_eq(r->fits[k].family, FAMILY_RING);
    topology_free(&t);
}

START_TEST(test_fit_gives_back_launch_hop_and_bandwidth_from_several_n)
{
    /* t = 20 us + n_alpha x 1.5 us + n_beta M / 300 GB/s at N = 2, 4, 8: launch and hop apart */
    static const truth chosen = {0, 20e-6, 1.5e-6, 300e9};
    calib_log logs[3];
    for (int i = 0; i < 3; i++) {
        char *text = ar_log(2 << i, &chosen, 1, true, true);
        parse_ok("all_reduce_perf.log", text, &logs[i]);
        free(text);
    }
    calib_result r;
    fit_ok(logs, 3, &r);
    ck_assert_int_eq(r.fit_count, 1);
    const calib_regime_fit *f = &r.fits[0];
    ck_assert(f->hop_fitted);
    ck_assert_double_eq_tol(f->launch_s, 20e-6, 0.02e-6);
    ck_assert_double_eq_tol(f->hop_s, 1.5e-6, 0.005e-6);
    ck_assert_double_eq_tol(f->efficiency * H100_RATE_BPS, 300e9, 300e9 * 1e-4);
    /* the log's 2-decimal rounding: at most 0.005 us of the fastest time (23.0 us at N = 2) */
    ck_assert_double_eq_tol(f->max_rel, 0, 0.005 / 23.0 * 1.5);
    /* every point's residual, against the chosen curve */
    for (int i = 0; i < 3; i++)
        for (int p = 0; p < logs[i].point_count; p++) {
            const calib_residual *res = &r.residuals[i * CALIB_MAX_POINTS + p];
            double exact = ring_time(logs[i].ranks, logs[i].points[p].size_bytes, &chosen);
            ck_assert_double_eq_tol(res->fitted_s / exact, 1, 0.005 / 23.0);
        }
    calib_result_free(&r);
}
END_TEST

START_TEST(test_fit_finds_the_protocol_switch_and_each_regime)
{
    /* LL-like up to 1 MiB (40 us, 60 GB/s), Simple-like above (60 us, 360 GB/s), hop 0.6 us = the platform's */
    static const truth chosen[] = {{1048576, 40e-6, 0.6e-6, 60e9}, {0, 60e-6, 0.6e-6, 360e9}};
    char *text = ar_log(8, chosen, 2, true, true);
    calib_log log;
    parse_ok("all_reduce_perf.log", text, &log);
    free(text);
    calib_result r;
    fit_ok(&log, 1, &r);
    ck_assert_int_eq(r.fit_count, 2);
    const calib_regime_fit *simple = &r.fits[0], *ll = &r.fits[1]; /* stored from the largest sizes down */
    ck_assert_int_eq(ll->regime, 0);
    ck_assert_double_eq(ll->to_bytes, 1048576);
    ck_assert_double_eq(simple->from_bytes, 2097152);
    ck_assert(!ll->hop_fitted); /* one N: launch + 14 hops is one constant, the hop is the platform's */
    ck_assert_double_eq_tol(ll->hop_s, 0.6e-6, 1e-12);
    ck_assert_double_eq_tol(ll->launch_s, 40e-6, 0.02e-6);
    ck_assert_double_eq_tol(ll->efficiency * H100_RATE_BPS, 60e9, 60e9 * 1e-3);
    ck_assert_double_eq_tol(simple->launch_s, 60e-6, 0.05e-6);
    ck_assert_double_eq_tol(simple->efficiency * H100_RATE_BPS, 360e9, 360e9 * 1e-4);
    calib_result_free(&r);
}
END_TEST

START_TEST(test_regimes_not_split_without_a_slope_change)
{
    double size[20], time[20];
    int first[CALIB_MAX_REGIMES + 1];
    for (int i = 0; i < 20; i++) size[i] = 1024.0 * (1 << i), time[i] = 10e-6 + size[i] / 100e9;
    ck_assert_int_eq(calib_find_regimes(size, time, 20, first), 1);
    /* three lines: three regimes, at the sizes they change */
    for (int i = 0; i < 20; i++)
        time[i] = i < 6 ? 10e-6 + size[i] / 10e9 : i < 12 ? 30e-6 + size[i] / 50e9 : 80e-6 + size[i] / 200e9;
    ck_assert_int_eq(calib_find_regimes(size, time, 20, first), 3);
    ck_assert_int_eq(first[1], 6);
    ck_assert_int_eq(first[2], 12);
}
END_TEST

static int any_support(void *ctx, const algorithm *a, int channels, schedule **built)
{
    (void)ctx, (void)a, (void)channels, (void)built;
    return 1;
}

START_TEST(test_calibrated_groups_apply_where_measured)
{
    /* groups for (allreduce, NVLink), (alltoall, NVLink), (allreduce, network): each case takes the group
     * of its primitive and the tier its group climbs to, else the stand-ins docs/model.md names */
    topology t;
    load_text("kind: rail_cluster\nnodes: 2\ngpus_per_node: 8\n"
              "nvlink: {alpha: 0.6us, bandwidth: 450GBps, alpha_switch: 0.3us}\n"
              "network: {alpha_leaf: 2.7us, alpha_spine: 3.0us, bandwidth: 200Gbps}\n"
              "calibrated:\n"
              "  - primitive: allreduce\n    tier: 0\n    simple: {launch: 20us, efficiency: 0.5}\n"
              "  - primitive: alltoall\n    tier: 0\n    simple: {launch: 35us, efficiency: 0.25}\n"
              "  - primitive: allreduce\n    tier: 1\n    simple: {launch: 90us, efficiency: 4}\n",
              &t);
    ck_assert_int_eq(t.calibrated_count, 3);
    const algorithm *ar_ring = algorithm_find(PRIM_ALLREDUCE, "ring"), *a2a_pairwise = algorithm_find(PRIM_ALLTOALL, "pairwise");
    ck_assert(calibrated_group_for(&t, PRIM_ALLREDUCE, 0, ar_ring) == &t.calibrated[0]);
    ck_assert(calibrated_group_for(&t, PRIM_ALLTOALL, 0, a2a_pairwise) == &t.calibrated[1]);
    ck_assert(calibrated_group_for(&t, PRIM_ALLREDUCE, 1, ar_ring) == &t.calibrated[2]);
    /* what was not measured is not covered: another collective, another tier, another family */
    ck_assert(calibrated_group_for(&t, PRIM_REDUCESCATTER, 0, algorithm_find(PRIM_REDUCESCATTER, "ring")) == NULL);
    ck_assert(calibrated_group_for(&t, PRIM_ALLTOALL, 1, a2a_pairwise) == NULL);
    ck_assert(calibrated_group_for(&t, PRIM_ALLREDUCE, 0, algorithm_find(PRIM_ALLREDUCE, "inc")) == NULL);
    ck_assert(calibrated_group_for(&t, PRIM_ALLREDUCE, 1, algorithm_find(PRIM_ALLREDUCE, "hierarchical")) == NULL);
    topology_free(&t);
    /* the prediction of each primitive on one star of 8: its own launch and efficiency; ring all-reduce
     * (01 §5.1) 14 hops of alpha and 1.75 M at 0.5 x 450 GB/s, pairwise all-to-all 7 hops and 7/8 M at
     * 0.25 x 450 GB/s, each on top of its own fitted launch */
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\ncalibrated:\n"
              "  - primitive: allreduce\n    tier: 0\n    simple: {launch: 20us, efficiency: 0.5}\n"
              "  - primitive: alltoall\n    tier: 0\n    simple: {launch: 35us, efficiency: 0.25}\n",
              &t);
    double m = 64e6;
    model_case ar = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "ring"), .ranks = 8, .size_bytes = m,
                     .protocol = PROTOCOL_SIMPLE};
    model_case a2a = ar;
    a2a.prim = PRIM_ALLTOALL, a2a.algorithm = algorithm_find(PRIM_ALLTOALL, "pairwise");
    prediction p_ar, p_a2a;
    char why[256];
    ck_assert_msg(model_predict(&ar, &p_ar, why, sizeof why), "%s", why);
    ck_assert_msg(model_predict(&a2a, &p_a2a, why, sizeof why), "%s", why);
    double t_ar = 20e-6 + 14 * 0.6e-6 + 1.75 * m / (0.5 * 450e9), t_a2a = 35e-6 + 7 * 0.6e-6 + 0.875 * m / (0.25 * 450e9);
    ck_assert_msg(fabs(p_ar.time_s / t_ar - 1) < 1e-9, "all-reduce %.9g s, expected %.9g s", p_ar.time_s, t_ar);
    ck_assert_msg(fabs(p_a2a.time_s / t_a2a - 1) < 1e-9, "all-to-all %.9g s, expected %.9g s", p_a2a.time_s, t_a2a);
    topology_free(&t);
}
END_TEST

START_TEST(test_calibrated_platform_predicts_the_fitted_curve)
{
    /* a calibrated table: auto takes LL up to 1 MB and Simple above; the prediction is the fitted line */
    topology t;
    load_text("kind: star\nranks: 8\nalpha: 0.6us\nbandwidth: 450GBps\n"
              "calibrated:\n  simple: {from: 4MB, launch: 60us, overhead: 0.4us, efficiency: 0.8}\n"
              "  ll: {up_to: 1MB, launch: 40us, overhead: 0us, efficiency: 0.125}\n",
              &t);
    const calibrated_group *g = calibrated_group_for(&t, PRIM_ALLREDUCE, 0, algorithm_find(PRIM_ALLREDUCE, "ring"));
    ck_assert(g == &t.calibrated[0] && g->prim == -1 && g->tier == -1); /* the one-table form: every collective */
    ck_assert(calibrated_group_for(&t, PRIM_ALLTOALL, 0, algorithm_find(PRIM_ALLTOALL, "pairwise")) == g);
    ck_assert(protocol_available(g, PROTOCOL_LL, 1e6));
    ck_assert(!protocol_available(g, PROTOCOL_SIMPLE, 1e6));
    ck_assert(!protocol_available(g, PROTOCOL_LL128, 1e6)); /* not fitted: not offered */
    ck_assert(protocol_available(g, PROTOCOL_SIMPLE, 4e6));
    ck_assert(!protocol_available(g, PROTOCOL_LL, 4e6));
    /* between the measured ranges both compete; beyond them, the nearest */
    ck_assert(protocol_available(g, PROTOCOL_LL, 2e6) && protocol_available(g, PROTOCOL_SIMPLE, 2e6));
    ck_assert(protocol_available(g, PROTOCOL_LL, 1) && !protocol_available(g, PROTOCOL_SIMPLE, 1));
    ck_assert(protocol_available(g, PROTOCOL_SIMPLE, 1e12) && !protocol_available(g, PROTOCOL_LL, 1e12));
    const algorithm *ring[] = {algorithm_find(PRIM_ALLREDUCE, "ring")};
    static const int one[] = {1};
    model_case base = {.platform = &t, .prim = PRIM_ALLREDUCE, .algorithm = algorithm_find(PRIM_ALLREDUCE, "ring"), .ranks = 8, .size_bytes = 1e6,
                       .protocol = PROTOCOL_AUTO};
    tuner_choice pick;
    /* at 1 MB Simple would be faster (60 + 14 us + 4.9 us < 40 + 8.4 + 31.1 us), but LL is what was measured there */
    ck_assert(tuner_pick(&base, ring, 1, one, 1, any_support, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_LL);
    base.size_bytes = 4e6;
    ck_assert(tuner_pick(&base, ring, 1, one, 1, any_support, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_SIMPLE);
    /* at 2 MB, between the ranges: the faster, Simple (60 + 14 + 9.7 us against 40 + 8.4 + 62.2 us) */
    base.size_bytes = 2e6;
    ck_assert(tuner_pick(&base, ring, 1, one, 1, any_support, NULL, &pick));
    ck_assert_int_eq(pick.protocol, PROTOCOL_SIMPLE);
    model_case m = base;
    m.size_bytes = 1e6;
    m.protocol = PROTOCOL_LL;
    prediction p;
    char why[256];
    ck_assert(model_predict(&m, &p, why, sizeof why));
    /* 40 + 14 x 0.6 + 1.75 x 1e6 / (0.125 x 450e9) s */
    ck_assert_double_eq_tol(p.time_s, 40e-6 + 14 * 0.6e-6 + 1.75e6 / (0.125 * 450e9), 1e-12);
    m.protocol = PROTOCOL_SIMPLE;
    m.size_bytes = 1e9;
    ck_assert(model_predict(&m, &p, why, sizeof why));
    ck_assert_double_eq_tol(p.time_s, 60e-6 + 14 * 1.0e-6 + 1.75e9 / (0.8 * 450e9), 1e-12);
    topology_free(&t);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("calib");
    TCase *tc = tcase_create("calib");
    tcase_add_test(tc, test_log_reader_reads_the_documented_format);
    tcase_add_test(tc, test_log_reader_recognises_collective_and_ranks_without_the_header);
    tcase_add_test(tc, test_log_reader_takes_the_oldest_format_in_ms_and_leaves_out_wrong_rows);
    tcase_add_test(tc, test_malformed_logs_are_refused_with_line_and_column);
    tcase_add_test(tc, test_fit_gives_back_launch_hop_and_bandwidth_from_several_n);
    tcase_add_test(tc, test_fit_finds_the_protocol_switch_and_each_regime);
    tcase_add_test(tc, test_regimes_not_split_without_a_slope_change);
    tcase_add_test(tc, test_calibrated_groups_apply_where_measured);
    tcase_add_test(tc, test_calibrated_platform_predicts_the_fitted_curve);
    suite_add_tcase(suite, tc);
    return run_suite(suite);
}
