/* sim_options.h — what a simulation is asked to run with: the network model,
 * the options the scenario and the command line set, and the bound on the
 * hosts one simulation places.  Plain types only: a scenario or a command
 * that chooses a model sees no SimGrid session (net/fluid/simgrid_run.h runs
 * them), and both network models read the same options (net/network.h). */
#ifndef COLLSIM_SIM_OPTIONS_H
#define COLLSIM_SIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "net/background.h"

/* NETWORK_DEFAULT: what the scenario says (`network:`), else CM02. */
typedef enum { NETWORK_DEFAULT, NETWORK_CM02, NETWORK_LV08, NETWORK_PACKET } network_model;

/* Queues to sample for a timeline (--trace, packet model): the bytes in the
 * buffer at the far end of each port (link * 2 + direction) at times 0,
 * INTERVAL_S, 2 INTERVAL_S, ... (COUNT samples). */
typedef struct queue_sampling {
    const int *ports;
    int port_count;
    double interval_s;
    int count;
} queue_sampling;


typedef struct sim_options {
    network_model model;
    const char *const *extra_cfg; /* further "--cfg=..." arguments, NULL-terminated, may be NULL */
    bool keep_op_times;           /* return every op's posted and completed times (--trace) */
    const queue_sampling *queue_samples; /* packet model: queues to sample (--trace), or NULL */
    const background *background; /* open-loop traffic beside the schedules, or NULL (docs/scenarios.md,
                                     "Background traffic") */
    bool ties_shuffled;           /* packet model: same-time events in an order drawn from tie_seed
                                     (--ties shuffled(SEED)), not the order scheduled */
    uint64_t tie_seed;
} sim_options;

#endif
