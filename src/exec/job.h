/* job.h — inside the executor (callers use executor.h): one simulation as
 * its child process runs it.  job.c forks the child and lays out the numbers
 * it sends back; actor_run.c runs the parts' schedule actors in it, writing
 * each part's numbers where job.c placed them. */
#ifndef COLLSIM_JOB_H
#define COLLSIM_JOB_H

#include <stdbool.h>

#include "exec/executor.h"
#include "exec/message_bytes.h"
#include "exec/op_times.h"

/* What one part's actors record as they run, in the child, and the parent
 * reads back (exec_finish): the part's ranks' finish times follow it in the
 * results (job.c lays them out). */
typedef struct part_tally {
    double time_s;                        /* last op of any actor */
    double phase_end_s[SCHED_MAX_PHASES]; /* last op of each phase */
    double completed_ops;                 /* a deadlock leaves it short of the part's ops; a double, as it travels */
} part_tally;

/* One part as the child sees it. */
typedef struct exec_piece {
    const schedule *s;
    const int *actor_nodes;
    double launch_s;
    double overhead_s[TOPO_MAX_TIERS];
    int virtual_lane;        /* the links' lane its messages take (packet model) */
    bool charges;            /* any overhead */
    message_size size;       /* its messages on the wire (message_bytes.h) */
    long ops;                /* of all its actors */
    bool channels_split;     /* in the child: each channel of an actor runs as an actor of its own */
    message_log *log;        /* in the child: message latencies as they complete, or NULL: from TIMES */
    long *actor_first;       /* in the child: where each actor's ops start in TIMES */
    net_op_time *times;      /* in the child: every op's posted and completed times, where the log does not serve (op_times.h) */
    double *latency_s;       /* its message latencies (the child writes them, exec_finish hands them on) */
    net_op_time *kept_times; /* its op times when the options keep them, else NULL: as LATENCY_S */
    part_tally *tally;       /* in the results (job.c): what its actors record */
    double *rank_finish_s;   /* in the results: per group rank, when its last op completed */
} exec_piece;

typedef struct exec_job {
    const topology *t;
    exec_piece *pieces;
    int count;
    sim_options options;     /* a copy: a retry runs after the caller's options are gone */
    double scale;            /* K (message_bytes.c) */
    const network_ops *net;
    network *network;        /* in the child, while it runs */
    heartbeat *beat;         /* in the child: told of every completed operation (net/heartbeat.h) */
    int helper_room;         /* the most operations a helper actor holds (actor_run.c) */
    bool sampled;            /* queue samples asked for (options->queue_samples) */
    int sample_count;        /* how many */
    net_link_stats *links;   /* in the results: every link direction's counts */
    double *queue_bytes;     /* in the results: the queue samples, or NULL */
    char *failure;           /* in the results: why the network failed on its own, "" when it did not */
} exec_job;

#endif
