/* trace_simulation.h — `--trace`: one finished simulation of a scenario
 * (its cases' groups, every op's times and message bytes, the sampled
 * queues of its busiest links) handed to the trace writer (trace.h). */
#ifndef COLLSIM_TRACE_SIMULATION_H
#define COLLSIM_TRACE_SIMULATION_H

#include <stdbool.h>

#include "plan/plan.h"
#include "report/trace.h"

/* What the simulation kept beside its parts' results. */
typedef struct traced_queues {
    const link_row *links;       /* the links whose queues were sampled (the busiest) */
    int count;
    const double *bytes;         /* count x samples, link by link */
    int samples;
    double interval_s;           /* between samples, from time 0 */
} traced_queues;

/* The trace of the simulation of MEMBERS (COUNT of them, each with all its
 * groups: PARTS and RESULTS one per group, in order, every op's times kept)
 * on S, titled TITLE, written to PATH; false with D set. */
bool trace_simulation(const scenario *s, const plan_member *members, int count, const exec_part *parts,
                      const exec_result *results, const traced_queues *queues, const char *title, const char *path,
                      diag *d);

#endif
