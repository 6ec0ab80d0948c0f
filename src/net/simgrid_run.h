/* simgrid_run.h — running transfers on a topology with SimGrid.
 *
 * SimGrid allows one engine per process, so every simulation runs in a forked
 * child that writes the platform (routes only for the pairs it needs), loads
 * it, runs, and hands its results back through a pipe.  The network model is
 * chosen here and nowhere else: CM02 without cross-traffic and without the
 * TCP window bound by default, so that one isolated transfer takes exactly
 * latency + size/bandwidth (SPEC §3); LV08 on request. */
#ifndef COLLSIM_SIMGRID_RUN_H
#define COLLSIM_SIMGRID_RUN_H

#include <stdbool.h>

#include "platform/topology.h"
#include "util/diag.h"

typedef enum { NETWORK_CM02, NETWORK_LV08 } network_model;

typedef struct sim_options {
    network_model model;
    const char *const *extra_cfg; /* further "--cfg=..." arguments, NULL-terminated, may be NULL */
} sim_options;

typedef struct flow {
    int src, dst;        /* nodes (ranks or switches) */
    double size_bytes;
    double start_s;      /* when the sender posts it */
} flow;

/* Simulate FLOWS, all concurrently; FINISH_S[i] receives the time flow i's
 * last byte arrives.  False with a message if the simulation fails. */
bool simgrid_run_flows(const topology *t, const flow *flows, int count, const sim_options *options,
                       double *finish_s, diag *d);

/* The SimGrid arguments (argv tail) for OPTIONS; returns the count written. */
int simgrid_arguments(const sim_options *options, const char **argv, int capacity);

#endif
