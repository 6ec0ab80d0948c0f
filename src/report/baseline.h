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

#define BASELINE_MAX_BYTES (64L << 20) /* 64 MiB: the shipped baselines are under 200 KB */
#define BASELINE_MAX_ROWS (1 << 20)      /* as many results as a scenario may have cases x sizes */

/* A recorded run's results, read and validated. */
typedef struct baseline baseline;

/* The baseline at PATH, read whole (a regular file of at most
 * BASELINE_MAX_BYTES) and validated: collsim run JSON with simulated times,
 * every result with its key and a finite, non-negative size and time (or a
 * null time).  NULL with D set (FILE[:LINE:COL] and the fix). */
baseline *baseline_open(const char *path, diag *d);
/* The same on TEXT (LENGTH bytes, NUL-terminated), named PATH in messages. */
baseline *baseline_parse(const char *path, const char *text, size_t length, diag *d);
void baseline_close(baseline *b);
int baseline_row_count(const baseline *b);

/* Match every simulated row of R to the result of B with the same (case,
 * primitive, algorithm, platform, size_bytes) and print to OUT a summary
 * line and a table of every drifted row: a time that moved by more than
 * RTOL·|baseline time|, a row the baseline lacks, or a baseline row this run
 * lacks.  The number of drifted rows. */
int baseline_compare(const report *r, const baseline *b, double rtol, FILE *out);

#endif
