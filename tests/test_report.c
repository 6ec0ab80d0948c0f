/* test_report.c — the η fit (docs/model.md, model/eta_fit.c), report_calibrate on
 * hand-built reports, the table / CSV / JSON renderings (docs/output.md) and the
 * gnuplot SVG of report_plot. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/eta_fit.h"
#include "analysis/eta_fits.h"
#include "report/report.h"
#include "test_support.h"
#include "util/memory.h"

#define ALPHA_S 0.5e-6
#define BANDWIDTH_BPS 900e9
#define RANKS 8

static const double sweep_bytes[] = {1e3, 1e5, 1e6, 16e6, 1e9};
#define SWEEP_COUNT ((int)(sizeof sweep_bytes / sizeof sweep_bytes[0]))

/* A pipelined chain of L = 7 hops whose P grows with M (01 App. C.3):
 * n_α = L + P − 1, n_β = (L + P − 1)/P — both change from point to point. */
static const int sweep_segments[] = {1, 2, 4, 16, 128};

static double chain_n_alpha(int k)
{
    return 7 + sweep_segments[k] - 1;
}

static double chain_n_beta(int k)
{
    return chain_n_alpha(k) / sweep_segments[k];
}

static eta_point chain_point(int k, double eta_alpha, double eta_beta)
{
    double a = chain_n_alpha(k) * ALPHA_S, b = chain_n_beta(k) * sweep_bytes[k] / BANDWIDTH_BPS;
    return (eta_point){.alpha_term_s = a, .bandwidth_term_s = b, .time_s = eta_alpha * a + b / eta_beta};
}

START_TEST(test_eta_fit_recovers_known_etas_when_n_alpha_varies_with_size)
{
    eta_point points[SWEEP_COUNT];
    for (int k = 0; k < SWEEP_COUNT; k++) points[k] = chain_point(k, 1.3, 0.7);
    eta_fit_result fit;
    ck_assert(eta_fit(points, SWEEP_COUNT, &fit));
    ck_assert_double_eq_tol(fit.eta_alpha, 1.3, 1.3e-12);
    ck_assert_double_eq_tol(fit.eta_beta, 0.7, 0.7e-12);
    ck_assert_double_le(fit.max_rel_residual, 1e-12);
}
END_TEST

START_TEST(test_eta_fit_solves_two_points_exactly)
{
    eta_point points[2] = {chain_point(0, 2.5, 0.9), chain_point(4, 2.5, 0.9)};
    eta_fit_result fit;
    ck_assert(eta_fit(points, 2, &fit));
    ck_assert_double_eq_tol(fit.eta_alpha, 2.5, 2.5e-12);
    ck_assert_double_eq_tol(fit.eta_beta, 0.9, 0.9e-12);
    ck_assert_double_le(fit.max_rel_residual, 1e-12);
}
END_TEST

START_TEST(test_eta_fit_reports_the_residual_of_noisy_points)
{
    eta_point points[SWEEP_COUNT];
    for (int k = 0; k < SWEEP_COUNT; k++) {
        points[k] = chain_point(k, 1.3, 0.7);
        points[k].time_s *= k % 2 ? 1.02 : 0.98; /* ±2 % */
    }
    eta_fit_result fit;
    ck_assert(eta_fit(points, SWEEP_COUNT, &fit));
    ck_assert_double_gt(fit.max_rel_residual, 1e-3);
    ck_assert_double_le(fit.max_rel_residual, 0.04);
    ck_assert_double_eq_tol(fit.eta_alpha, 1.3, 0.1);
    ck_assert_double_eq_tol(fit.eta_beta, 0.7, 0.05);
}
END_TEST

/* The plain η fit (docs/model.md, "How η is fitted"): fit t ≈ a + b·M minimising Σ ((a + b·M − t)/t)² by
 * the weighted normal equations, then η_α = a/(n_α α), η_β = n_β/(b·BW). */
START_TEST(test_eta_fit_equals_the_weighted_least_squares_closed_form_for_constant_counts)
{
    const double n_alpha = 14, n_beta = 1.75; /* ring all-reduce, N = 8 */
    const double t[] = {7.4e-6, 8.1e-6, 9.6e-6, 41e-6, 2.2e-3};
    double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
    eta_point points[SWEEP_COUNT];
    for (int k = 0; k < SWEEP_COUNT; k++) {
        double m = sweep_bytes[k], w = 1 / (t[k] * t[k]);
        s00 += w, s01 += w * m, s11 += w * m * m, r0 += w * t[k], r1 += w * m * t[k];
        points[k] = (eta_point){.alpha_term_s = n_alpha * ALPHA_S, .bandwidth_term_s = n_beta * m / BANDWIDTH_BPS, .time_s = t[k]};
    }
    double det = s00 * s11 - s01 * s01;
    double a = (r0 * s11 - r1 * s01) / det, b = (s00 * r1 - s01 * r0) / det;
    double worst = 0;
    for (int k = 0; k < SWEEP_COUNT; k++) worst = fmax(worst, fabs((a + b * sweep_bytes[k] - t[k]) / t[k]));
    eta_fit_result fit;
    ck_assert(eta_fit(points, SWEEP_COUNT, &fit));
    ck_assert_double_le(relative_error(fit.eta_alpha, a / (n_alpha * ALPHA_S)), 1e-9);
    ck_assert_double_le(relative_error(fit.eta_beta, n_beta / (b * BANDWIDTH_BPS)), 1e-9);
    ck_assert_double_le(relative_error(fit.max_rel_residual, worst), 1e-6);
}
END_TEST

START_TEST(test_eta_fit_refuses_degenerate_input)
{
    eta_fit_result fit = {.eta_alpha = 42};
    eta_point points[3] = {chain_point(0, 1, 1), chain_point(1, 1, 1), chain_point(2, 1, 1)};
    ck_assert(!eta_fit(points, 0, &fit));
    ck_assert(!eta_fit(points, 1, &fit));
    eta_point same[2] = {points[1], points[1]}; /* one size twice: singular */
    ck_assert(!eta_fit(same, 2, &fit));
    eta_point no_alpha[2] = {points[0], points[1]};
    no_alpha[0].alpha_term_s = no_alpha[1].alpha_term_s = 0;
    ck_assert(!eta_fit(no_alpha, 2, &fit));
    eta_point shrinking[2] = {{1e-6, 1e-9, 2e-6}, {1e-6, 1e-3, 1e-6}}; /* time falls as M grows: b < 0 */
    ck_assert(!eta_fit(shrinking, 2, &fit));
    eta_point untimed[2] = {points[0], points[1]};
    untimed[1].time_s = 0;
    ck_assert(!eta_fit(untimed, 2, &fit));
    untimed[1].time_s = NAN;
    ck_assert(!eta_fit(untimed, 2, &fit));
    ck_assert_double_eq(fit.eta_alpha, 42); /* untouched */
}
END_TEST

/* ---- hand-built reports ---- */

static report new_report(bool simulated)
{
    return (report){.scenario = "hand-built", .platform_name = "star-8", .platform_kind = "star", .model = "cm02",
                    .platform_ranks = RANKS, .simulated = simulated, .eta = "ideal"};
}

/* A ring all-reduce row of case CASE_INDEX at SIZE whose simulated time is
 * ETA_ALPHA·n_α·α + n_β·M/(ETA_BETA·BW). */
static result_row ring_row(int case_index, const char *name, double size, double eta_alpha, double eta_beta)
{
    result_row row = {.case_index = case_index, .prim = PRIM_ALLREDUCE, .ranks = RANKS, .size_bytes = size, .segments = 1,
                      .simulated = true, .n_alpha = 2 * (RANKS - 1), .n_beta = 2.0 * (RANKS - 1) / RANKS,
                      .alpha_s = ALPHA_S, .bandwidth_Bps = BANDWIDTH_BPS};
    snprintf(row.algorithm, sizeof row.algorithm, "%s", name);
    double a = row.n_alpha * row.alpha_s, b = row.n_beta * size / row.bandwidth_Bps;
    row.ideal_s = row.predicted_s = a + b;
    row.time_s = eta_alpha * a + b / eta_beta;
    row.ratio = row.time_s / row.predicted_s;
    row.algbw_Bps = size / row.time_s;
    row.busbw_Bps = row.algbw_Bps * primitive_busbw_factor(row.prim, RANKS);
    return row;
}

static void set_term(row_term *t, const char *tier, const char *label, double n_alpha, double n_beta, double alpha_s,
                     double bandwidth_Bps)
{
    snprintf(t->tier, sizeof t->tier, "%s", tier);
    snprintf(t->label, sizeof t->label, "%s", label);
    t->n_alpha = n_alpha, t->n_beta = n_beta, t->alpha_s = alpha_s, t->bandwidth_Bps = bandwidth_Bps;
    t->predicted_s = n_alpha * alpha_s; /* only the fit's inputs matter here */
}

/* A two-tier row: inner term timed at (1.2, 0.8), outer at (1.5, 0.6);
 * OUTER_TIMED false leaves the outer phase untimed (time_s = −1). */
static result_row two_tier_row(double size, bool outer_timed)
{
    result_row row = ring_row(0, "hierarchical", size, 1, 1);
    row.term_count = 2;
    set_term(&row.terms[0], "nvlink", "inner RS", 7, 7.0 / 8, ALPHA_S, BANDWIDTH_BPS);
    set_term(&row.terms[1], "ib", "outer AR", 2, 0.25, 5e-6, 50e9);
    const double etas[2][2] = {{1.2, 0.8}, {1.5, 0.6}};
    for (int t = 0; t < 2; t++) {
        row_term *term = &row.terms[t];
        term->time_s = etas[t][0] * term->n_alpha * term->alpha_s + term->n_beta * size / (etas[t][1] * term->bandwidth_Bps);
    }
    if (!outer_timed) row.terms[1].time_s = -1;
    row.time_s = row.terms[0].time_s + fmax(row.terms[1].time_s, 0);
    return row;
}

/* Three sizes of a two-tier all-reduce, both terms timed, calibrated. */
static report calibrated_two_tier_report(void)
{
    report r = new_report(true);
    for (int k = 0; k < 3; k++) {
        result_row row = two_tier_row(sweep_bytes[k + 1], true);
        report_add(&r, &row);
    }
    analysis_fit_eta(&r);
    return r;
}

static const eta_row *find_eta(const report *r, int case_index, const char *name, const char *tier)
{
    for (int i = 0; i < r->eta_count; i++) {
        const eta_row *e = &r->etas[i];
        if (e->case_index == case_index && strcmp(e->algorithm, name) == 0 && strcmp(e->tier, tier) == 0) return e;
    }
    return NULL;
}

START_TEST(test_calibrate_recovers_the_etas_of_each_algorithm)
{
    report r = new_report(true);
    for (int k = 0; k < 4; k++) {
        result_row ring = ring_row(0, "ring", sweep_bytes[k], 1.3, 0.7);
        result_row other = ring_row(0, "recursive_doubling", sweep_bytes[k], 2.0, 0.5);
        report_add(&r, &ring);
        report_add(&r, &other);
    }
    result_row lonely = ring_row(1, "ring", 1e6, 1, 1); /* one size: no fit */
    report_add(&r, &lonely);
    analysis_fit_eta(&r);
    ck_assert_int_eq(r.eta_count, 2);
    const eta_row *ring = find_eta(&r, 0, "ring", "");
    ck_assert_ptr_nonnull(ring);
    ck_assert_int_eq(ring->points, 4);
    ck_assert_double_eq_tol(ring->eta_alpha, 1.3, 1e-9);
    ck_assert_double_eq_tol(ring->eta_beta, 0.7, 1e-9);
    ck_assert_double_le(ring->max_rel_residual, 1e-9);
    const result_row *largest = &r.rows[6];
    ck_assert_double_eq(ring->eta_beta_busbw, largest->busbw_Bps / BANDWIDTH_BPS);
    const eta_row *other = find_eta(&r, 0, "recursive_doubling", "");
    ck_assert_ptr_nonnull(other);
    ck_assert_double_eq_tol(other->eta_alpha, 2.0, 1e-9);
    ck_assert_double_eq_tol(other->eta_beta, 0.5, 1e-9);
    report_free(&r);
    ck_assert_ptr_null(r.etas);
}
END_TEST

START_TEST(test_calibrate_fits_each_timed_term)
{
    report r = calibrated_two_tier_report();
    ck_assert_int_eq(r.eta_count, 3);
    const eta_row *inner = find_eta(&r, 0, "hierarchical", "nvlink"), *outer = find_eta(&r, 0, "hierarchical", "ib");
    ck_assert_ptr_nonnull(inner);
    ck_assert_ptr_nonnull(outer);
    ck_assert_str_eq(inner->label, "inner RS");
    ck_assert_double_eq_tol(inner->eta_alpha, 1.2, 1e-9);
    ck_assert_double_eq_tol(inner->eta_beta, 0.8, 1e-9);
    ck_assert_double_eq_tol(outer->eta_alpha, 1.5, 1e-9);
    ck_assert_double_eq_tol(outer->eta_beta, 0.6, 1e-9);
    ck_assert(isnan(inner->eta_beta_busbw));
    report_free(&r);
}
END_TEST

START_TEST(test_calibrate_skips_untimed_terms_and_predictions)
{
    report r = new_report(true);
    for (int k = 0; k < 3; k++) {
        result_row row = two_tier_row(sweep_bytes[k + 1], false);
        result_row predicted = ring_row(1, "ring", sweep_bytes[k], 1, 1);
        predicted.simulated = false;
        report_add(&r, &row);
        report_add(&r, &predicted);
    }
    analysis_fit_eta(&r);
    ck_assert_ptr_nonnull(find_eta(&r, 0, "hierarchical", "nvlink"));
    ck_assert_ptr_null(find_eta(&r, 0, "hierarchical", "ib"));
    ck_assert_ptr_null(find_eta(&r, 1, "ring", ""));
    ck_assert_int_eq(r.eta_count, 2); /* whole + inner */
    report_free(&r);
}
END_TEST

START_TEST(test_calibrate_keeps_a_degenerate_fit_as_null)
{
    report r = new_report(true);
    for (int k = 0; k < 3; k++) {
        result_row row = ring_row(0, "ring", sweep_bytes[k], 1, 1);
        row.n_alpha = row.n_beta = row.alpha_s = row.bandwidth_Bps = 0; /* no model yet */
        report_add(&r, &row);
    }
    analysis_fit_eta(&r);
    ck_assert_int_eq(r.eta_count, 1);
    ck_assert(isnan(r.etas[0].eta_alpha) && isnan(r.etas[0].eta_beta) && isnan(r.etas[0].max_rel_residual));
    ck_assert(!isfinite(r.etas[0].eta_beta_busbw));
    report_free(&r);
}
END_TEST

START_TEST(test_calibrate_flags_a_fit_on_two_sizes_and_gives_no_eta)
{
    report r = new_report(true);
    for (int k = 0; k < 2; k++) {
        result_row row = ring_row(0, "ring", sweep_bytes[k], 1.3, 0.7);
        report_add(&r, &row);
    }
    analysis_fit_eta(&r);
    ck_assert_int_eq(r.eta_count, 1);
    ck_assert_int_eq(r.etas[0].points, 2);
    ck_assert_msg(strstr(r.etas[0].note, "too few sizes") != NULL, "note: %s", r.etas[0].note);
    ck_assert(isnan(r.etas[0].eta_alpha) && isnan(r.etas[0].eta_beta) && isnan(r.etas[0].eta_beta_busbw));
    report_free(&r);
}
END_TEST

/* Times t = -0.5·A + B/0.7 (A = n_α·α, B = n_β·M/BW): the least-squares
 * intercept is negative, which is no contention coefficient. */
START_TEST(test_calibrate_flags_a_negative_eta_alpha_and_gives_no_eta)
{
    report r = new_report(true);
    const double sizes[] = {1e7, 1e8, 1e9};
    for (int k = 0; k < 3; k++) {
        result_row row = ring_row(0, "ring", sizes[k], -0.5, 0.7);
        ck_assert_double_gt(row.time_s, 0);
        report_add(&r, &row);
    }
    analysis_fit_eta(&r);
    ck_assert_int_eq(r.eta_count, 1);
    ck_assert_msg(strstr(r.etas[0].note, "negative intercept") != NULL, "note: %s", r.etas[0].note);
    ck_assert(isnan(r.etas[0].eta_alpha) && isnan(r.etas[0].eta_beta));
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    report_print(&r, FORMAT_TABLE, out);
    fclose(out);
    ck_assert_msg(strstr(text, "# eta ring: not fitted: negative intercept") != NULL, "%s", text);
    ck_assert_ptr_null(strstr(text, " eta_beta ")); /* no η printed as a result */
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_calibrate_gives_a_composed_schedule_no_busbw_eta)
{
    report r = calibrated_two_tier_report();
    const eta_row *whole = find_eta(&r, 0, "hierarchical", "");
    ck_assert_ptr_nonnull(whole);
    ck_assert(isnan(whole->eta_beta_busbw)); /* no one BW to set busbw against */
    report_free(&r);
}
END_TEST

/* ---- renderings ---- */

/* The rest of IN as a string; caller frees. */
static char *read_stream(FILE *in)
{
    int size = 0, capacity = 0;
    char *text = grow_array(NULL, &capacity, 1, 1);
    for (int c; (c = fgetc(in)) != EOF;) {
        text = grow_array(text, &capacity, size + 2, 1);
        text[size++] = (char)c;
    }
    text[size] = '\0';
    return text;
}

/* R printed in FORMAT; caller frees. */
static char *printed(const report *r, report_format format)
{
    FILE *out = tmpfile();
    ck_assert_ptr_nonnull(out);
    report_print(r, format, out);
    rewind(out);
    char *text = read_stream(out);
    fclose(out);
    return text;
}

/* `collsim predict` of one ring all-reduce at 1 MB. */
static report one_prediction(void)
{
    report r = new_report(false);
    result_row row = ring_row(0, "ring", 1e6, 1, 1);
    row.simulated = false;
    report_add(&r, &row);
    return r;
}

static report calibrated_ring_report(void)
{
    report r = new_report(true);
    for (int k = 0; k < 4; k++) {
        result_row row = ring_row(0, "ring", sweep_bytes[k], 1, 1);
        report_add(&r, &row);
    }
    analysis_fit_eta(&r);
    return r;
}

static int count_lines(const char *text, const char *from, const char *to)
{
    int lines = 0;
    for (const char *p = from ? from : text; *p && (!to || p < to); p++) lines += *p == '\n';
    return lines;
}

static int count_char(const char *line, char c)
{
    int n = 0;
    for (const char *p = line; *p && *p != '\n'; p++) n += *p == c;
    return n;
}

START_TEST(test_table_has_an_eta_line_per_algorithm)
{
    report r = calibrated_ring_report();
    char *text = printed(&r, FORMAT_TABLE);
    ck_assert_ptr_nonnull(strstr(text, "# collsim " PACKAGE_VERSION "  scenario hand-built\n"));
    ck_assert_ptr_nonnull(strstr(text, "network model cm02  eta profile ideal"));
    ck_assert_ptr_nonnull(strstr(text, "time(us)"));
    ck_assert_ptr_nonnull(strstr(text, "ratio"));
    ck_assert_msg(strstr(text, "# eta ring: eta_alpha 1.000000 eta_beta 1.000000 eta_beta(busbw) ") != NULL, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, " (4 sizes)\n"));
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_table_prints_terms_beneath_their_row)
{
    report r = new_report(true);
    result_row row = two_tier_row(1e6, false);
    report_add(&r, &row);
    char *text = printed(&r, FORMAT_TABLE);
    const char *inner = strstr(text, "term inner RS"), *outer = strstr(text, "term outer AR");
    ck_assert_ptr_nonnull(inner);
    ck_assert_ptr_nonnull(outer);
    ck_assert_ptr_nonnull(strstr(inner, "tier nvlink"));
    ck_assert_int_eq(count_lines(text, inner, outer), 1);
    ck_assert_ptr_nonnull(strstr(inner, "sim(us)"));
    ck_assert_ptr_null(strstr(outer, "sim(us)")); /* outer untimed */
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_predict_table_has_no_time_or_ratio_column)
{
    report r = one_prediction();
    char *text = printed(&r, FORMAT_TABLE);
    ck_assert_ptr_null(strstr(text, "time(us)"));
    ck_assert_ptr_null(strstr(text, "ratio"));
    ck_assert_ptr_nonnull(strstr(text, "pred(us)"));
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_csv_is_one_table_and_the_etas_are_a_table_of_their_own)
{
    report r = calibrated_ring_report();
    char *text = printed(&r, FORMAT_CSV);
    ck_assert(strncmp(text, "case,primitive,algorithm,group,ranks,size_bytes,segments,time_s,predicted_s,ideal_s,ratio,", 89) == 0);
    ck_assert_ptr_null(strstr(text, "\n\n")); /* one table: no second block */
    ck_assert_int_eq(count_lines(text, text, NULL), 1 + 4);
    for (const char *line = text; *line; line = strchr(line, '\n') + 1)
        ck_assert_int_eq(count_char(line, ','), 46); /* 7 + 17 fields + groups, layout, skew, platform, concurrent_with, model,
                                                        protocol, channels, tuned, launch_s, background, inner, outer,
                                                        contended, calibration, best, slower_than, and a traffic row's
                                                        traffic, offered_load, delivered_load, delivered_Bps,
                                                        latency_min_s, latency_mean_s: docs/output.md's 47 columns */
    free(text);
    char *etas = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&etas, &size);
    report_print_csv_block(&r, CSV_ETA, out);
    fclose(out);
    ck_assert(strncmp(etas, "case,primitive,algorithm,group,tier,label,points,eta_alpha,eta_beta,", 68) == 0);
    ck_assert_int_eq(count_lines(etas, etas, NULL), 2);
    ck_assert_ptr_nonnull(strstr(etas, "\n0,allreduce,ring,0,,,4,"));
    free(etas);
    report_free(&r);
}
END_TEST

START_TEST(test_predict_csv_leaves_time_and_ratio_empty)
{
    report r = one_prediction();
    char *text = printed(&r, FORMAT_CSV);
    ck_assert_msg(strstr(text, "\n0,allreduce,ring,0,8,1000000,1,,") != NULL, "%s", text);
    const char *row_line = strchr(text, '\n') + 1;
    ck_assert_int_eq(count_char(row_line, ','), 46);
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_json_writes_null_for_what_is_not_a_number)
{
    report r = new_report(true);
    result_row row = ring_row(0, "ring", 1e6, 1, 1);
    row.ratio = NAN;
    row.busbw_Bps = INFINITY;
    report_add(&r, &row);
    char *text = printed(&r, FORMAT_JSON);
    ck_assert_ptr_nonnull(strstr(text, "\"ratio\": null"));
    ck_assert_ptr_nonnull(strstr(text, "\"busbw_Bps\": null"));
    ck_assert_ptr_nonnull(strstr(text, "\"simulated\": true, \"eta_profile\": \"ideal\""));
    ck_assert_ptr_null(strstr(text, "nan"));
    ck_assert_ptr_null(strstr(text, "inf"));
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_predict_json_has_no_time_or_ratio)
{
    report r = one_prediction();
    char *text = printed(&r, FORMAT_JSON);
    ck_assert_ptr_nonnull(strstr(text, "\"simulated\": false"));
    ck_assert_ptr_nonnull(strstr(text, "\"predicted_s\": "));
    ck_assert_ptr_null(strstr(text, "\"time_s\""));
    ck_assert_ptr_null(strstr(text, "\"ratio\""));
    free(text);
    report_free(&r);
}
END_TEST

START_TEST(test_json_eta_rows_name_their_tier_or_null)
{
    report r = calibrated_two_tier_report();
    char *text = printed(&r, FORMAT_JSON);
    ck_assert_ptr_nonnull(strstr(text, "\"group\": 0, \"tier\": null, \"label\": null, \"points\": 3"));
    ck_assert_ptr_nonnull(strstr(text, "\"tier\": \"nvlink\", \"label\": \"inner RS\", \"points\": 3"));
    ck_assert_ptr_nonnull(strstr(text, "\"terms\": [{\"tier\": \"nvlink\", \"label\": \"inner RS\", \"n_alpha\": 7,"));
    free(text);
    report_free(&r);
}
END_TEST

/* ---- plot ---- */

static char *read_whole(const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) return NULL;
    char *text = read_stream(in);
    fclose(in);
    return text;
}

static bool directory_is_empty(const char *path)
{
    DIR *dir = opendir(path);
    ck_assert_ptr_nonnull(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(dir));) entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(dir);
    return entries == 0;
}

static report two_algorithm_report(void)
{
    report r = new_report(true);
    for (int k = 0; k < 4; k++) {
        result_row ring = ring_row(0, "ring", sweep_bytes[k], 1.1, 0.9);
        result_row other = ring_row(0, "recursive_doubling", sweep_bytes[k], 1.0, 1.0);
        result_row bcast = ring_row(1, "ring", sweep_bytes[k], 1.0, 1.0);
        bcast.prim = PRIM_BCAST;
        report_add(&r, &ring);
        report_add(&r, &other);
        report_add(&r, &bcast);
    }
    analysis_fit_eta(&r);
    return r;
}

/* A report to plot, a private TMPDIR (to see that report_plot leaves nothing
 * there) and an output directory, the SVG at SVG_NAME in it. */
typedef struct plot_fixture {
    char tmp[64], out[64], svg[160];
    report r;
    diag d;
} plot_fixture;

static void plot_setup(plot_fixture *f, const char *svg_name)
{
    *f = (plot_fixture){.tmp = "/tmp/collsim-test-tmp-XXXXXX", .out = "/tmp/collsim-test-out-XXXXXX"};
    ck_assert_ptr_nonnull(mkdtemp(f->tmp));
    ck_assert_ptr_nonnull(mkdtemp(f->out));
    setenv("TMPDIR", f->tmp, 1);
    snprintf(f->svg, sizeof f->svg, "%s/%s", f->out, svg_name);
    f->r = two_algorithm_report();
}

/* Both directories must be empty (the caller removed what it expected). */
static void plot_teardown(plot_fixture *f)
{
    ck_assert(directory_is_empty(f->tmp));
    ck_assert(directory_is_empty(f->out));
    rmdir(f->out);
    rmdir(f->tmp);
    report_free(&f->r);
}

START_TEST(test_plot_draws_a_curve_per_algorithm_with_its_legend)
{
    plot_fixture f;
    plot_setup(&f, "plot.svg");
    ck_assert_msg(report_plot(&f.r, f.svg, &f.d), "%s", f.d.message);
    char *text = read_whole(f.svg);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "<svg"));
    const char *legends[] = {"ring predicted", "ring simulated", "recursive_doubling predicted", "recursive_doubling simulated"};
    for (int i = 0; i < 4; i++) ck_assert_msg(strstr(text, legends[i]) != NULL, "no legend '%s'", legends[i]);
    ck_assert_ptr_nonnull(strstr(text, "case 0: allreduce"));
    ck_assert_ptr_nonnull(strstr(text, "case 1: bcast"));
    ck_assert_ptr_nonnull(strstr(text, "η"));
    /* a report a person can use: white, titled with scenario and platform, a busbw panel, sizes in KB/MB/GB */
    /* two cases: two rows of 640 x 460 panels and the title's 40 */
    ck_assert_ptr_nonnull(strstr(text, "<rect x=\"0\" y=\"0\" width=\"1280\" height=\"960\" fill=\"#ffffff\"/>"));
    ck_assert_ptr_nonnull(strstr(text, "scenario hand-built, platform star-8"));
    ck_assert_ptr_nonnull(strstr(text, "on star-8: bus bandwidth"));
    ck_assert_ptr_nonnull(strstr(text, "busbw (GB/s)"));
    ck_assert_ptr_nonnull(strstr(text, ">1 KB<"));
    ck_assert_ptr_nonnull(strstr(text, ">10 MB<")); /* the decades from 1 KB to the largest size, 16 MB */
    int curves = 0;
    for (const char *p = text; (p = strstr(p, "<g id=\"gnuplot_plot_")); p++) curves++;
    ck_assert_int_eq(curves, 12); /* time and busbw panels: 2 + 2 in case 0, 2 in case 1, each */
    free(text);
    unlink(f.svg);
    plot_teardown(&f);
}
END_TEST

START_TEST(test_plot_with_nothing_to_draw_is_an_empty_panel)
{
    plot_fixture f;
    plot_setup(&f, "plot.svg");
    report_free(&f.r);
    f.r = one_prediction();
    f.r.rows[0].predicted_s = 0; /* no model: no line, and predict has no points */
    ck_assert_msg(report_plot(&f.r, f.svg, &f.d), "%s", f.d.message);
    char *text = read_whole(f.svg);
    ck_assert_ptr_nonnull(strstr(text, "case 0: allreduce"));
    ck_assert_ptr_null(strstr(text, "ring predicted"));
    ck_assert_ptr_null(strstr(text, "ring simulated"));
    free(text);
    unlink(f.svg);
    plot_teardown(&f);
}
END_TEST

/* A case of one size is drawn as bars at that size (named in binary units
 * when it is binary); binary sizes get KiB/MiB ticks. */
START_TEST(test_plot_draws_a_single_size_prediction_and_binary_ticks)
{
    plot_fixture f;
    plot_setup(&f, "plot.svg");
    report_free(&f.r);
    f.r = new_report(false);
    result_row row = ring_row(0, "ring", 4194304, 1, 1); /* 4 MiB */
    row.simulated = false;
    report_add(&f.r, &row);
    result_row small = ring_row(1, "ring", 1024, 1, 1), large = ring_row(1, "ring", 1048576, 1, 1);
    small.simulated = large.simulated = false;
    report_add(&f.r, &small);
    report_add(&f.r, &large);
    ck_assert_msg(report_plot(&f.r, f.svg, &f.d), "%s", f.d.message);
    char *text = read_whole(f.svg);
    ck_assert_ptr_nonnull(strstr(text, "<title>predicted</title>")); /* case 0's bars */
    ck_assert_ptr_nonnull(strstr(text, "M = 4 MiB<"));
    ck_assert_ptr_nonnull(strstr(text, "<title>ring predicted</title>")); /* case 1's line */
    ck_assert_ptr_nonnull(strstr(text, ">1 KiB<"));
    ck_assert_ptr_null(strstr(text, " KB<"));
    free(text);
    unlink(f.svg);
    plot_teardown(&f);
}
END_TEST

START_TEST(test_plot_into_a_missing_directory_fails_and_leaves_nothing)
{
    plot_fixture f;
    plot_setup(&f, "missing/plot.svg");
    ck_assert(!report_plot(&f.r, f.svg, &f.d));
    ck_assert_ptr_nonnull(strstr(f.d.message, "cannot write"));
    plot_teardown(&f);
}
END_TEST

START_TEST(test_plot_without_gnuplot_says_so_and_leaves_nothing)
{
    plot_fixture f;
    plot_setup(&f, "plot.svg");
    setenv("PATH", "/nonexistent", 1);
    ck_assert(!report_plot(&f.r, f.svg, &f.d));
    ck_assert_msg(strstr(f.d.message, "gnuplot not found") != NULL, "%s", f.d.message);
    plot_teardown(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report");
    TCase *fit = tcase_create("eta_fit");
    tcase_add_test(fit, test_eta_fit_recovers_known_etas_when_n_alpha_varies_with_size);
    tcase_add_test(fit, test_eta_fit_solves_two_points_exactly);
    tcase_add_test(fit, test_eta_fit_reports_the_residual_of_noisy_points);
    tcase_add_test(fit, test_eta_fit_equals_the_weighted_least_squares_closed_form_for_constant_counts);
    tcase_add_test(fit, test_eta_fit_refuses_degenerate_input);
    suite_add_tcase(s, fit);
    TCase *calibrate = tcase_create("calibrate");
    tcase_add_test(calibrate, test_calibrate_recovers_the_etas_of_each_algorithm);
    tcase_add_test(calibrate, test_calibrate_fits_each_timed_term);
    tcase_add_test(calibrate, test_calibrate_skips_untimed_terms_and_predictions);
    tcase_add_test(calibrate, test_calibrate_keeps_a_degenerate_fit_as_null);
    tcase_add_test(calibrate, test_calibrate_flags_a_fit_on_two_sizes_and_gives_no_eta);
    tcase_add_test(calibrate, test_calibrate_flags_a_negative_eta_alpha_and_gives_no_eta);
    tcase_add_test(calibrate, test_calibrate_gives_a_composed_schedule_no_busbw_eta);
    suite_add_tcase(s, calibrate);
    TCase *formats = tcase_create("formats");
    tcase_add_test(formats, test_table_has_an_eta_line_per_algorithm);
    tcase_add_test(formats, test_table_prints_terms_beneath_their_row);
    tcase_add_test(formats, test_predict_table_has_no_time_or_ratio_column);
    tcase_add_test(formats, test_csv_is_one_table_and_the_etas_are_a_table_of_their_own);
    tcase_add_test(formats, test_predict_csv_leaves_time_and_ratio_empty);
    tcase_add_test(formats, test_json_writes_null_for_what_is_not_a_number);
    tcase_add_test(formats, test_predict_json_has_no_time_or_ratio);
    tcase_add_test(formats, test_json_eta_rows_name_their_tier_or_null);
    suite_add_tcase(s, formats);
    TCase *plot = tcase_create("plot");
    tcase_set_timeout(plot, 60);
    tcase_add_test(plot, test_plot_draws_a_curve_per_algorithm_with_its_legend);
    tcase_add_test(plot, test_plot_with_nothing_to_draw_is_an_empty_panel);
    tcase_add_test(plot, test_plot_draws_a_single_size_prediction_and_binary_ticks);
    tcase_add_test(plot, test_plot_into_a_missing_directory_fails_and_leaves_nothing);
    tcase_add_test(plot, test_plot_without_gnuplot_says_so_and_leaves_nothing);
    suite_add_tcase(s, plot);
    return run_suite(s);
}
