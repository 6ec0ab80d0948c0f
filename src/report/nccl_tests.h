/* nccl_tests.h — a report's rows printed as nccl-tests logs
 * (`--format nccl-tests`, docs/output.md): a simulated sweep diffs against a
 * measured one, and `collsim calibrate` reads it back. */
#ifndef COLLSIM_NCCL_TESTS_H
#define COLLSIM_NCCL_TESTS_H

#include <stdio.h>

#include "report/results.h"

/* R's rows, one log per (case, algorithm) series, on OUT. */
void report_print_nccl_tests(const report *r, FILE *out);

#endif
