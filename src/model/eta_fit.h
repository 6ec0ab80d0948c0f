/* eta_fit.h — the η fit (docs/model.md, "How η is fitted"; explainer 05 §4.1): from
 * simulated times over a sweep of M, the α and β efficiencies of the ideal
 * model.  Generalised so that n_α and n_β may change with M (a pipelined
 * schedule's P does): per point, the ideal α term A = n_α·α, the ideal
 * bandwidth term B = n_β·M/BW and the simulated time t; the fit is
 *
 *     t ≈ x·A + y·B,   η_α = x,   η_β = 1/y,
 *
 * by least squares weighted for relative error, Σ ((x·A + y·B − t)/t)².
 * With A and B/M constant it is the plain fit t ≈ a + b·M with
 * η_α = a/(n_α·α) and η_β = n_β/(b·BW). */
#ifndef COLLSIM_ETA_FIT_H
#define COLLSIM_ETA_FIT_H

#include <stdbool.h>

typedef struct eta_point {
    double alpha_term_s;       /* A = n_α·α at this M */
    double bandwidth_term_s;   /* B = n_β·M/BW at this M */
    double time_s;             /* simulated t, > 0 */
} eta_point;

typedef struct eta_fit_result {
    double eta_alpha, eta_beta;
    double max_rel_residual;   /* max |(x·A + y·B − t)/t| over the points */
} eta_fit_result;

/* Fit COUNT points; false (OUT untouched) when there are fewer than two,
 * a time or term is not finite or a time is not positive, the two terms
 * are not independent over the points, or the bandwidth coefficient comes
 * out ≤ 0 (no η_β).  Two points are solved exactly. */
bool eta_fit(const eta_point *points, int count, eta_fit_result *out);

#endif
