/* tuner.h — `algorithms: [auto]` and `protocol: auto`: pick, per size, the
 * algorithm x protocol x channels of least predicted time among those the
 * platform and the group support, as NCCL's tuner picks from its cost model
 * (NCCL src/graph/tuning.cc: the least of latency + size / bandwidth over
 * algorithms and protocols).  The predictions are model_predict's, so the
 * choice is the analytic model's, never the simulation's. */
#ifndef COLLSIM_TUNER_H
#define COLLSIM_TUNER_H

#include <stdbool.h>

#include "model/model.h"

typedef struct tuner_choice {
    const algorithm *algorithm;
    protocol_id protocol;
    int channels;
    double predicted_s;
} tuner_choice;

/* Whether the group can run A on CHANNELS channels: the segments P its
 * schedule runs (at least 1), or 0 when it does not build.  The tuner costs
 * each candidate at that P: what the executor will run.  BUILT (may be
 * NULL) receives the first group's schedule, the caller's to free, for the
 * candidates the model predicts from their schedule (model_needs_schedule). */
typedef int (*tuner_supports)(void *ctx, const algorithm *a, int channels, schedule **built);

#define TUNER_MAX_CANDIDATES 8
/* The repertoire of LIBRARY for PRIM, in its order, written to OUT; their
 * count.  NCCL: ring, its tree and NVLS (collsim's inc) for all-reduce;
 * ring and NVLS for all-gather and reduce-scatter; ring for broadcast and
 * reduce.  RCCL: ring and tree; ring.  None (the seed's model): collsim's
 * whole repertoire (ring, dbt, tree, inc, hierarchical, pipelined
 * hierarchical, PAT).  All-to-all is pairwise and sendrecv direct in every
 * library. */
int tuner_candidates(primitive prim, collective_library library, const algorithm *out[TUNER_MAX_CANDIDATES]);

/* Pick among ALGORITHMS (COUNT records) x protocols x CHANNEL_OPTIONS for BASE
 * (its algorithm, protocol, channels and segments ignored unless
 * BASE->protocol names one protocol, which is then kept), each costed at the
 * segments SUPPORTS says its schedule runs.  False when nothing is
 * supported. */
bool tuner_pick(const model_case *base, const algorithm *const *algorithms, int count, const int *channel_options,
                int channel_count, tuner_supports supports, void *ctx, tuner_choice *out);

#endif
