/* baseline.h — regression baselines (docs/output.md, "Regression"): a run's JSON recorded as a
 * baseline, and a later run's simulated times compared against it. */
#ifndef COLLSIM_BASELINE_H
#define COLLSIM_BASELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"
#include "util/diag.h"

/* Record R at PATH, atomically: exactly what `--format json -o PATH` writes. */
bool baseline_write(const report *r, const char *path, diag *d);

/* Match every simulated row of R to the result of the baseline JSON at PATH
 * with the same (case, primitive, algorithm, group, platform, size_bytes) and
 * print to OUT a summary line and a table of every drifted row: a time that
 * moved by more than RTOL·|baseline time|, a row the baseline lacks, or a
 * baseline row this run lacks.  The number of drifted rows, or -1 with D set
 * when PATH cannot be read or holds no simulated collsim JSON. */
int baseline_compare(const report *r, const char *path, double rtol, FILE *out, diag *d);

#endif
