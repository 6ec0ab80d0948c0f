/* op_times.h — from the times each op of a schedule was posted and
 * completed (net/network.h records them) to per-message latencies and their
 * distribution (issue 14's per-message view, explainer 05 §6.3's tails).
 *
 * A message moves once both its send and its receive are posted (a
 * mailbox's rendezvous) and both complete when its last byte arrives, so its
 * latency is from the later of the two postings to that arrival: the time
 * the network took, without the time one end waited for the other.  Alone on
 * its path it is alpha + M/BW (SPEC §3). */
#ifndef COLLSIM_OP_TIMES_H
#define COLLSIM_OP_TIMES_H

#include "net/network.h"
#include "sched/schedule.h"

/* TIMES holds actor a's ops from ACTOR_FIRST[a] on, in op order.  Fill
 * LATENCY_S with one latency per message of S (sched_messages(S) of them),
 * in the order of the senders' ops. */
void op_times_latencies(const schedule *s, const net_op_time *times, const long *actor_first, double *latency_s);

/* The distribution of COUNT latencies (VALUES is sorted in place): the
 * nearest-rank median and 99th percentile, and the largest; all 0 when
 * COUNT is 0. */
typedef struct latency_summary {
    long count;
    double p50_s, p99_s, max_s;
} latency_summary;
latency_summary latency_summarize(double *values, long count);

#endif
