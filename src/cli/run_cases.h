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

/* One simulation of a sweep (docs/sweeps.md): the A-th algorithms of the
 * concurrent block that case FIRST of S opens, at their M-th sizes. */
typedef struct run_simulation {
    const scenario *s;
    int first, a, m;
} run_simulation;

/* A finished simulation: its exit status (0, 2 or 3), and when 0 its block's
 * COUNT members (their predictions) and rows, which are the callee's only
 * for the call. */
typedef void (*run_simulation_done)(void *context, int index, int status, const plan_member *members,
                                    const result_row *rows, int count);

/* Run the COUNT simulations of LIST (their scenarios checked with
 * plan_check) as O says, at most o->jobs at once, each under its
 * scenario's network model unless o->sim.model says otherwise; DONE sees
 * each as it finishes, in LIST's order, and a failure stops nothing.  The
 * exit status: 0, or the first failure's. */
int run_simulations(const run_simulation *list, int count, const run_settings *o, run_simulation_done done,
                    void *context);

#endif
