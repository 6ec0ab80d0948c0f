/* eta_fits.h — the contention coefficients η read off a run's rows
 * (docs/model.md, "How η is fitted"; explainer 05 §4): analysis of what
 * was simulated against what was predicted, before anything is rendered. */
#ifndef COLLSIM_ETA_FITS_H
#define COLLSIM_ETA_FITS_H

#include "report/results.h"

/* A fit on fewer sizes is not a result: two points fit any a + b·M exactly. */
#define ETA_MIN_SIZES 3

/* Fit η for every (case, algorithm, group) with two or more simulated sizes,
 * whole and per term, appending to r->etas.  A fit on fewer than
 * ETA_MIN_SIZES sizes, a degenerate one or one with η_α < 0 gets a note and
 * no η values (it is not a result). */
void analysis_fit_eta(report *r);

/* Which algorithm, at which size: for every case whose rows run several
 * algorithms, each simulated row's `best` (the least simulated time of the
 * case at its size), a tuned `auto` row's `slower_than` (a candidate that
 * simulates over 5 % faster than the pick), and the crossovers between the
 * case's winners (the algorithms best at some size) from the simulated times,
 * appended to r->crossovers (simulated: true). */
void analysis_best_per_size(report *r);

#endif
