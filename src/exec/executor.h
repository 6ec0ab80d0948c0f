/* executor.h — runs schedules on SimGrid: one actor per schedule actor
 * (group rank or INC switch), asynchronous sends and receives, each op posted
 * as soon as its dependencies are met, and per-rank and per-phase times
 * recorded.  Several schedules (concurrent groups, concurrent cases: explainer
 * 05 §3.2, mixed traffic) can share one simulation and so the fabric's links.
 * The network behind it is the one the options select (net/network.h), so a
 * different network model replaces that module, not any algorithm.
 *
 * Inside: job.c starts each simulation in a child process and receives its
 * numbers, actor_run.c runs the schedule actors there, message_bytes.c says
 * how many bytes each op moves. */
#ifndef COLLSIM_EXECUTOR_H
#define COLLSIM_EXECUTOR_H

#include <stdbool.h>

#include "net/fluid/child_wait.h"
#include "net/network.h"
#include "net/sim_options.h"
#include "platform/topology.h"
#include "sched/schedule.h"
#include "util/diag.h"

/* One schedule of a simulation: actor a sits on topology node ACTOR_NODES[a];
 * the collective moves SIZE_BYTES (chunks of size_bytes / s->chunks).  For
 * all-to-all, BLOCK_WEIGHT (ranks x ranks, source-major, mean 1) scales each
 * (source, destination) block: skewed traffic (05 §3.3); NULL is uniform.
 *
 * Endpoint costs (all zero: none):
 *   LAUNCH_S        every actor starts its first op after it (the
 *                   per-collective launch / synchronisation cost);
 *   OVERHEAD_S[k]   a group rank sending a message whose route climbs to tier
 *                   k is busy that long before the message leaves (LogP's o):
 *                   its sends on one channel are charged one after another,
 *                   sends of different ranks or channels overlap;
 *   WIRE_NUMERATOR / WIRE_DENOMINATOR   bytes on the wire per byte of data
 *                   (a protocol's flags; 0 / 0 is 1);
 *   VIRTUAL_LANE    the links' virtual lane its messages take (the packet
 *                   model's; the fluid model has one). */
typedef struct exec_part {
    schedule *s;
    const int *actor_nodes;
    double size_bytes;
    const double *block_weight;
    double launch_s;
    double overhead_s[TOPO_MAX_TIERS];
    int wire_numerator, wire_denominator;
    int virtual_lane;          /* the virtual lane of the links its messages take (packet model: lanes.h) */
} exec_part;

typedef struct exec_result {
    double time_s;                          /* last op of any actor */
    double phase_end_s[SCHED_MAX_PHASES];   /* last op of each phase */
    double *rank_finish_s;                  /* per group rank; owned, free with exec_result_free */
    int ranks;
    double *latency_s;                      /* per message (op_times.h), senders' op order; owned */
    long messages;
    net_op_time *op_times;                  /* per op, actor by actor (options->keep_op_times); owned or NULL */
} exec_result;

/* What a whole simulation shows beyond its parts' times: the per-message
 * and per-link views (docs/output.md). */
typedef struct exec_views {
    net_link_stats *links;                  /* per link direction (link * 2 + DOWN); owned */
    int ports;
    double *queue_bytes;                    /* options->queue_samples' samples, port-major; owned or NULL */
} exec_views;

/* A simulation under way in a child process. */
typedef struct exec_run exec_run;

/* Start simulating the COUNT parts together (PARTS and their schedules must
 * live until exec_finish); LABEL names them in messages.  NULL with D set on
 * failure. */
exec_run *exec_start(const topology *t, exec_part *parts, int count, const sim_options *options, const char *label,
                     diag *d);
/* While exec_finish waits for RUN, tell BEAT about once a second how far it
 * has got (net/fluid/child_wait.h). */
void exec_watch(exec_run *run, child_beat_fn beat, void *ctx);
/* Wait for RUN and fill RESULTS[0..count) (one per part) and VIEWS (NULL:
 * not wanted); frees RUN. */
bool exec_finish(exec_run *run, exec_result *results, exec_views *views, diag *d);

/* One schedule alone, with the platform tiers' overheads and no launch cost. */
bool execute_schedule(const topology *t, schedule *s, const int *actor_nodes, double size_bytes,
                      const sim_options *options, exec_result *result, diag *d);
/* The bytes op OP of actor ACTOR of PART moves (real-valued: M/chunks per
 * chunk, skew weights applied). */
double exec_op_bytes(const exec_part *part, int actor, int op);
/* The same for OP, read already. */
double exec_op_bytes_of(const exec_part *part, int actor, const sched_op *op);
/* The (sender node, receiver node) pairs of S's messages, each sender's
 * distinct peers once, written to PAIRS (room for exec_pair_capacity(S));
 * their count.  Setup work: it reads every op. */
long exec_pair_capacity(const schedule *s);
long exec_part_pairs(const schedule *s, const int *actor_nodes, node_pair *pairs);
void exec_result_free(exec_result *r);
void exec_views_free(exec_views *v);
/* Where each actor of S runs: group rank a on RANK_NODES[a], switch actor k
 * on the switch node the schedule names.  Caller frees. */
int *exec_actor_nodes(const schedule *s, const int *rank_nodes);

#endif
