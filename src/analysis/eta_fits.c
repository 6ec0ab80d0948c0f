/* eta_fits.c — analysis over the report's rows: η fitted (docs/model.md,
 * "How η is fitted") per (case, algorithm) that was simulated, over its
 * sizes (the slowest group at each), for the whole collective and, on
 * hierarchical schedules whose phases were timed, for each term (tier,
 * explainer 05 §4.2), the least-squares fit itself being model/eta_fit.c;
 * and which algorithm is best at which size, from the simulated times. */
#include "analysis/eta_fits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/eta_fit.h"

static bool same_fit_group(const result_row *a, const result_row *b)
{
    return a->case_index == b->case_index && strcmp(a->algorithm, b->algorithm) == 0;
}

/* Whether rows[i] opens its group: simulated, and no earlier simulated row shares it. */
static bool opens_group(const report *r, int i)
{
    if (!r->rows[i].simulated || r->rows[i].prim == PRIM_TRAFFIC) return false; /* traffic has no prediction to fit */
    for (int j = 0; j < i; j++)
        if (r->rows[j].simulated && same_fit_group(&r->rows[j], &r->rows[i])) return false;
    return true;
}

static int distinct_sizes(const double *sizes, int count)
{
    int distinct = 0;
    for (int i = 0; i < count; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) seen = sizes[j] == sizes[i];
        distinct += !seen;
    }
    return distinct;
}

static const row_term *find_term(const result_row *row, const char *tier, const char *label)
{
    for (int t = 0; t < row->term_count; t++)
        if (strcmp(row->terms[t].tier, tier) == 0 && strcmp(row->terms[t].label, label) == 0) return &row->terms[t];
    return NULL;
}

/* The points of one fit: rows of the group, their sizes. */
typedef struct fit_points {
    eta_point *points;
    double *sizes;
    int count;
} fit_points;

static void add_point(fit_points *f, double size_bytes, double n_alpha, double alpha_s, double n_beta,
                      double bandwidth_Bps, double time_s)
{
    f->sizes[f->count] = size_bytes;
    f->points[f->count++] = (eta_point){.alpha_term_s = n_alpha * alpha_s,          /* n_α·α */
                                        .bandwidth_term_s = n_beta * size_bytes / bandwidth_Bps, /* n_β·M/BW */
                                        .time_s = time_s};
}

/* Fit F and append an eta_row for FIRST's group (TERM: one tier, NULL: whole).
 * A fit that is not a result (too few sizes, degenerate, η_α < 0) still gives
 * a row, with a note saying why and its η NaN (null in JSON). */
static void append_fit(report *r, const result_row *first, const row_term *term, const fit_points *f,
                       double eta_beta_busbw)
{
    int sizes = distinct_sizes(f->sizes, f->count);
    if (sizes < 2) return;
    eta_row e = {.case_index = first->case_index, .prim = first->prim, .group = 0, .points = f->count,
                 .eta_alpha = NAN, .eta_beta = NAN, .eta_beta_busbw = eta_beta_busbw, .max_rel_residual = NAN};
    snprintf(e.algorithm, sizeof e.algorithm, "%s", first->algorithm);
    if (term) {
        snprintf(e.tier, sizeof e.tier, "%s", term->tier);
        snprintf(e.label, sizeof e.label, "%s", term->label);
    }
    eta_fit_result fit;
    if (sizes < ETA_MIN_SIZES)
        snprintf(e.note, sizeof e.note, "too few sizes: %d points fit any a + b*M exactly (%d needed)", sizes,
                 ETA_MIN_SIZES);
    else if (!eta_fit(f->points, f->count, &fit))
        snprintf(e.note, sizeof e.note, "degenerate fit: alpha and bandwidth terms not independent, or no positive b");
    else if (fit.eta_alpha < 0)
        snprintf(e.note, sizeof e.note, "negative intercept (eta_alpha %.3g): not a contention coefficient", fit.eta_alpha);
    else {
        e.eta_alpha = fit.eta_alpha;
        e.eta_beta = fit.eta_beta;
        e.max_rel_residual = fit.max_rel_residual;
    }
    if (e.note[0]) e.eta_beta_busbw = NAN;
    report_add_eta(r, &e);
}

/* η of the whole collective over the group that rows[first] opens. */
static void calibrate_whole(report *r, int first, fit_points *f)
{
    const result_row *largest = &r->rows[first];
    f->count = 0;
    for (int i = first; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (!row->simulated || !same_fit_group(row, &r->rows[first])) continue;
        add_point(f, row->size_bytes, row->n_alpha, row->alpha_s, row->n_beta, row->bandwidth_Bps, row->time_s);
        if (row->size_bytes > largest->size_bytes) largest = row;
    }
    /* 05 §4.1: busbw over BW; a composed (hierarchical) schedule has no single BW to compare with */
    double busbw_ratio = largest->term_count > 1 ? NAN : largest->busbw_Bps / largest->bandwidth_Bps;
    append_fit(r, &r->rows[first], NULL, f, busbw_ratio);
}

/* η of each timed term (05 §4.2) over the group that rows[first] opens. */
static void calibrate_terms(report *r, int first, fit_points *f)
{
    const result_row *opener = &r->rows[first];
    if (opener->term_count <= 1) return;
    for (int t = 0; t < opener->term_count; t++) {
        const row_term *term = &opener->terms[t];
        f->count = 0;
        for (int i = first; i < r->row_count; i++) {
            const result_row *row = &r->rows[i];
            if (!row->simulated || !same_fit_group(row, opener)) continue;
            const row_term *own = find_term(row, term->tier, term->label);
            if (row->term_count > 1 && own && own->time_s >= 0)
                add_point(f, row->size_bytes, own->n_alpha, own->alpha_s, own->n_beta, own->bandwidth_Bps, own->time_s);
        }
        append_fit(r, opener, term, f, NAN);
    }
}

void analysis_fit_eta(report *r)
{
    fit_points f = {.points = malloc(sizeof(eta_point) * (size_t)(r->row_count + 1)),
                    .sizes = malloc(sizeof(double) * (size_t)(r->row_count + 1))};
    for (int i = 0; i < r->row_count; i++) {
        if (!opens_group(r, i)) continue;
        calibrate_whole(r, i, &f);
        calibrate_terms(r, i, &f);
    }
    free(f.points);
    free(f.sizes);
}

/* The simulated row of case C, algorithm NAME at SIZE_BYTES, or NULL. */
static const result_row *row_at(const report *r, int c, const char *name, double size_bytes)
{
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->simulated && row->case_index == c && row->size_bytes == size_bytes && strcmp(row->algorithm, name) == 0)
            return row;
    }
    return NULL;
}

/* The crossovers between A and B of case C over its sorted SIZES (COUNT): where A - B changes sign
 * between two sizes, M* by linear interpolation of their time difference in log M. */
static void add_simulated_crossovers(report *r, int c, const char *a, const char *b, const double *sizes, int count)
{
    double last_size = 0, last_diff = 0;
    for (int i = 0; i < count; i++) {
        const result_row *x = row_at(r, c, a, sizes[i]), *y = row_at(r, c, b, sizes[i]);
        if (!x || !y) continue;
        double diff = x->time_s / y->time_s - 1;
        if (last_size > 0 && ((last_diff < 0 && diff > 0) || (last_diff > 0 && diff < 0))) {
            double f = last_diff / (last_diff - diff);
            crossover_row out = {.case_index = c, .simulated = true,
                                 .size_bytes = exp(log(last_size) + f * (log(sizes[i]) - log(last_size)))};
            snprintf(out.a, sizeof out.a, "%s", a);
            snprintf(out.b, sizeof out.b, "%s", b);
            report_add_crossover(r, &out);
        }
        if (diff != 0) last_size = sizes[i], last_diff = diff;
    }
}

static int by_size(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Case C: best per size, slower_than, and the simulated crossovers between its winners. */
static void best_of_case(report *r, int c, double *sizes, const char **names)
{
    int size_count = 0, name_count = 0;
    for (int i = 0; i < r->row_count; i++) {
        const result_row *row = &r->rows[i];
        if (row->case_index != c || !row->simulated) continue;
        bool seen = false;
        for (int k = 0; k < size_count && !seen; k++) seen = sizes[k] == row->size_bytes;
        if (!seen) sizes[size_count++] = row->size_bytes;
        seen = false;
        for (int k = 0; k < name_count && !seen; k++) seen = strcmp(names[k], row->algorithm) == 0;
        if (!seen) names[name_count++] = row->algorithm;
    }
    if (name_count < 2) return;
    qsort(sizes, (size_t)size_count, sizeof *sizes, by_size);
    bool *winner = calloc((size_t)name_count, sizeof *winner);
    for (int s = 0; s < size_count; s++) {
        const result_row *best = NULL;
        for (int i = 0; i < r->row_count; i++) {
            const result_row *row = &r->rows[i];
            if (row->case_index == c && row->simulated && row->size_bytes == sizes[s] &&
                (!best || row->time_s < best->time_s))
                best = row;
        }
        for (int k = 0; k < name_count; k++) winner[k] |= strcmp(names[k], best->algorithm) == 0;
        for (int i = 0; i < r->row_count; i++) {
            result_row *row = &r->rows[i];
            if (row->case_index != c || !row->simulated || row->size_bytes != sizes[s]) continue;
            snprintf(row->best, sizeof row->best, "%s", best->algorithm);
            if (row->auto_pick && best->time_s * 1.05 < row->time_s)
                snprintf(row->slower_than, sizeof row->slower_than, "%s", best->algorithm);
        }
    }
    for (int a = 0; a < name_count; a++)
        for (int b = a + 1; b < name_count; b++)
            if (winner[a] && winner[b]) add_simulated_crossovers(r, c, names[a], names[b], sizes, size_count);
    free(winner);
}

void analysis_best_per_size(report *r)
{
    double *sizes = malloc(sizeof(double) * (size_t)(r->row_count + 1));
    const char **names = malloc(sizeof(char *) * (size_t)(r->row_count + 1));
    int cases = 0;
    for (int i = 0; i < r->row_count; i++)
        if (r->rows[i].case_index + 1 > cases) cases = r->rows[i].case_index + 1;
    for (int c = 0; c < cases; c++) best_of_case(r, c, sizes, names);
    free(sizes);
    free(names);
}
