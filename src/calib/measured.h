/* measured.h — `run` / `predict --measured LOG...`: the measured time of
 * each result row, from the logs (calib/log_reader.h) of the same
 * collective, number of ranks and size. */
#ifndef COLLSIM_CALIB_MEASURED_H
#define COLLSIM_CALIB_MEASURED_H

#include "calib/log_reader.h"
#include "report/report.h"

/* Read the PATHS (COUNT of them; notes on standard error unless QUIET) and
 * set r->rows[].measured_s where a log matches; r->measured = true.  False
 * with D set when a log is malformed (file:line). */
bool calib_attach_measured(report *r, const char *const *paths, int count, bool quiet, diag *d);

#endif
