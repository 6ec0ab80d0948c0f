/* simgrid_run.h — running simulations on a topology with SimGrid.
 *
 * SimGrid allows one engine per process, so every simulation runs in a forked
 * child (simgrid_fork) that builds the platform for the pairs it needs
 * through SimGrid's API (simgrid_open, net/fluid/simgrid_zone.h), runs, and hands
 * its numbers back through a pipe.
 * The network model is chosen here and nowhere else: CM02 without
 * cross-traffic and without the TCP window bound by default, so that one
 * isolated transfer takes exactly latency + size/bandwidth (docs/platforms.md); LV08
 * on request.  The packet model (docs/packet.md) moves no bytes through SimGrid:
 * network.h.
 *
 * Crashes of a child are told apart by where they happened (sim_place, set
 * by the child as it goes, reported by its crash handler through the pipe):
 * only a crash inside SimGrid's kernel while simulating, where its max-min
 * solver runs, is simulated again at a coarser solver precision; any other is
 * reported as what it is, naming the case.  --cfg options are checked before
 * any simulation (simgrid_check_options). */
#ifndef COLLSIM_SIMGRID_RUN_H
#define COLLSIM_SIMGRID_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "net/fluid/child_limits.h"
#include "net/fluid/child_wait.h"
#include "net/flow.h"
#include "net/heartbeat.h"
#include "net/sim_options.h"
#include "platform/simgrid_xml.h"
#include "platform/topology.h"
#include "util/diag.h"

/* Check O's --cfg options against SimGrid itself, in a short forked run on a
 * two-host platform, before any simulation: false with a message naming the
 * option SimGrid refuses (and why), or tracing, which collsim cannot offer. */
bool simgrid_check_options(const sim_options *o, diag *d);

/* Where a simulation child is (simgrid_mark), for its crash handler. */
typedef enum {
    SIM_IN_COLLSIM,       /* collsim preparing or collecting the simulation */
    SIM_IN_SIMGRID_SETUP, /* SimGrid reading its options and the platform */
    SIM_IN_SIMGRID,       /* SimGrid's kernel simulating: its max-min solver runs here */
    SIM_IN_ACTOR,         /* collsim's actor code (the executor) between SimGrid calls */
} sim_place;
/* In a child: from now on the child is at PLACE (async-signal-safe, cheap). */
void simgrid_mark(sim_place place);
/* In a child: the heartbeat its parent reads (net/heartbeat.h); never NULL. */
heartbeat *simgrid_heartbeat(void);

/* The SimGrid options ("--cfg=NAME:VALUE", NULL-terminated) that select
 * MODEL as collsim configures it. */
const char *const *simgrid_model_settings(network_model model);

#define SIM_ARGUMENTS 48       /* collsim's own eight, and the --cfg options (the command line takes 32) */
#define SIM_ARGUMENT_BYTES 320 /* one "--cfg=NAME:VALUE" */
/* SimGrid's argv for a simulation with OPTIONS, as collsim starts every
 * fluid-model run: the model's settings, the solver precision of the
 * current attempt, 64 KiB actor stacks, then each --cfg option as
 * "--cfg=NAME:VALUE" (written into STORAGE); NULL-terminated in ARGV
 * (SIM_ARGUMENTS entries).  Its count. */
int simgrid_arguments(const sim_options *options, const char **argv, char storage[][SIM_ARGUMENT_BYTES]);

/* Fork; the child runs JOB(CTX, OUT) and returns OUT[0..OUT_COUNT) to the
 * parent.  LABEL names what is simulated in messages ("case 2 allreduce ring
 * at 16 MB"). */
bool simgrid_fork(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, const char *label,
                  diag *d);

/* More of what a child sends back: COUNT doubles at AT, which the child's
 * job writes (in its copy of the parent's memory) and the parent receives in
 * place, so that large per-message arrays are not copied again. */
typedef struct sim_segment {
    double *at;
    long count;
} sim_segment;

/* The same in two halves, so that several simulations run at once (--jobs):
 * simgrid_spawn starts the child; simgrid_join waits for it and fills OUT
 * (CTX and OUT must live until then). */
typedef struct sim_child {
    int pid, fd;
    bool (*job)(void *ctx, double *out);
    void *ctx;
    double *out;
    int out_count;
    const sim_segment *more; /* sent after OUT, in order (simgrid_spawn_more) */
    int more_count;
    int level;       /* max-min precision level of this attempt (0: 1e-9, precisions[] in simgrid_run.c) */
    FILE *log;       /* the attempt's stderr, shown unless the solver crashed (then it is retried) */
    char label[160];
    child_limits limits;  /* its stall and memory limits (the environment's, read when it starts) */
    heartbeat *beat;      /* shared with the child, or NULL */
    child_beat_fn on_beat; /* told about once a second while the parent waits (NULL: nobody) */
    void *on_beat_ctx;
} sim_child;
bool simgrid_spawn(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count, const char *label,
                   sim_child *c, diag *d);
bool simgrid_join(sim_child *c, diag *d);
/* simgrid_spawn whose child also returns MORE[0..MORE_COUNT) (they must live
 * until simgrid_join). */
bool simgrid_spawn_more(bool (*job)(void *ctx, double *out), void *ctx, double *out, int out_count,
                        const sim_segment *more, int more_count, const char *label, sim_child *c, diag *d);

/* In the child: start SimGrid with OPTIONS and build T's platform for the
 * node PAIRS its messages join (bandwidths x BANDWIDTH_SCALE). */
bool simgrid_open(const topology *t, node_pair *pairs, int pair_count, const sim_options *options,
                  double bandwidth_scale);
/* The same with only the hosts PAIRS join: no link, no route (the packet
 * model moves the bytes itself). */
bool simgrid_open_hosts(const topology *t, node_pair *pairs, int pair_count, const sim_options *options);

/* In the child, after simgrid_open: simgrid_run(), marked SIM_IN_SIMGRID. */
void simgrid_simulate(void);

/* SimGrid host of topology node NODE (after simgrid_open). */
void *simgrid_host(const topology *t, int node);

/* Simulate FLOWS, all concurrently; FINISH_S[i] receives the time flow i's
 * last byte arrives.  False with a message if the simulation fails. */
bool simgrid_run_flows(const topology *t, const flow *flows, int count, const sim_options *options,
                       double *finish_s, diag *d);

#endif
