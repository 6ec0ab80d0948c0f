/* run_cases.h — a scenario's cases turned into schedules, predictions and
 * simulations (docs/scenarios.md): every group of a case, and every case of
 * a `concurrent:` block, in one simulation; independent simulations in up
 * to `jobs` child processes at once, their rows always in the scenario's
 * order (so --jobs never changes the output). */
#ifndef COLLSIM_RUN_CASES_H
#define COLLSIM_RUN_CASES_H

#include <stdbool.h>

#include "net/sim_options.h"
#include "plan/plan.h"
#include "report/report.h"
#include "scenario/scenario.h"

typedef struct run_settings {
    run_mode mode;
    bool verify;       /* check every schedule on data first */
    bool quiet;        /* no notes (verification lines, progress) on stderr */
    bool progress;     /* show progress on stderr (a terminal, or --progress) */
    int jobs;          /* simulations at once (1 or more) */
    bool all_links;    /* every row lists every link direction (--links), not only the busiest */
    const char *trace_path; /* --trace FILE.json: the first simulation as a trace, or NULL */
    sim_options sim;
    bool ties_given;   /* --ties (the packet model's; refused with another) */
} run_settings;

/* Run S's cases as O asks, adding rows and crossovers to R.  Exit status:
 * 0, 1 (a schedule failed verification), 2 (bad input) or 3 (a simulation
 * failed: out of memory, a crash other than SimGrid's solver's). */
int run_cases(const scenario *s, const run_settings *o, report *r);

#endif
