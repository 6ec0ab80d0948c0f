/* trace.h — one simulation as a Chrome / Perfetto trace (`--trace
 * FILE.json`, the Trace Event Format's JSON object form), for a person to
 * open in ui.perfetto.dev or chrome://tracing: each rank (and in-network
 * switch actor) a process whose threads are lanes of its operations, each
 * operation a span from its posting to its completion; under the packet
 * model each of the busiest links a counter of the bytes queued in the
 * buffer at its far end.  Written as util/output_file.h says (whole or not
 * at all).  docs/output.md says what to look for. */
#ifndef COLLSIM_TRACE_H
#define COLLSIM_TRACE_H

#include <stdbool.h>

#include "net/network.h"
#include "platform/topology.h"
#include "report/report.h"
#include "sched/schedule.h"
#include "util/diag.h"

/* One schedule of the simulation (a group of a case). */
typedef struct trace_part {
    const schedule *s;
    const int *actor_nodes;      /* where each actor runs */
    const net_op_time *times;    /* every op's, actor by actor */
    const double *op_bytes;      /* every op's message, actor by actor */
    char label[192];             /* "case 0 allreduce ring 1 MB, group 2": every piece whole */
} trace_part;

typedef struct trace {
    const topology *t;
    const char *title;           /* the scenario and the model */
    const trace_part *parts;
    int part_count;
    const link_row *queues;      /* the links whose queues were sampled */
    const double *queue_bytes;   /* queue_count x samples, link by link */
    int queue_count, samples;
    double interval_s;           /* between samples, from time 0 */
} trace;

bool trace_write(const trace *tr, const char *path, diag *d);

#endif
