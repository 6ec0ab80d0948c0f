/* op_times.h — from the times each op of a schedule was posted and
 * completed (net/network.h records them) to per-message latencies and their
 * distribution (the per-message view of docs/output.md, explainer 05 §6.3's tails).
 *
 * A message moves once both its send and its receive are posted (a
 * mailbox's rendezvous) and both complete when its last byte arrives, so its
 * latency is from the later of the two postings to that arrival: the time
 * the network took, without the time one end waited for the other.  Alone on
 * its path it is alpha + M/BW (docs/platforms.md). */
#ifndef COLLSIM_OP_TIMES_H
#define COLLSIM_OP_TIMES_H

#include <stdbool.h>

#include "net/network.h"
#include "sched/schedule.h"

/* TIMES holds actor a's ops from ACTOR_FIRST[a] on, in op order.  Fill
 * LATENCY_S with one latency per message of S (sched_messages(S) of them),
 * in the order of the senders' ops. */
void op_times_latencies(const schedule *s, const net_op_time *times, const long *actor_first, double *latency_s);

/* The same latencies as messages complete, without per-op times: each
 * connection (from, to) keeps its last two messages' later posting and later
 * completion (a connection's ops run one at a time on each side, so a
 * sender is at most one message ahead of its receiver), and a message's
 * latency is written to its place in LATENCY_S (the order above) when both
 * ends completed.  Only when every pair of actors uses one lane (channel):
 * op_times_latencies pairs the k-th send with the k-th receive over all
 * lanes, the network per lane. */
typedef struct message_log message_log;
typedef struct message_connection message_connection;
/* Whether the log serves S: each pair of actors on one lane, and enough
 * messages per connection that its slots take less room than per-op times
 * (an all-to-all sends one message per pair: per-op times it is). */
bool message_log_applies(const schedule *s);
message_log *message_log_open(const schedule *s, double *latency_s);
/* The connection FROM -> TO (NULL: no message goes that way). */
message_connection *message_log_connection(message_log *l, int from, int to);
/* The sender's (SEND) or the receiver's end of the connection's next message
 * was posted, or its current message completed, at NOW. */
void message_log_posted(message_connection *c, bool send, double now);
void message_log_done(message_connection *c, bool send, double now);
/* C is about to be told of a posting or a completion: its lines asked for
 * (a hint; a connection may be NULL). */
void message_log_soon(const message_connection *c);
void message_log_close(message_log *l);

/* The distribution of COUNT latencies (VALUES left as they are): the
 * nearest-rank median and 99th percentile, the least and the largest; all
 * 0 when COUNT is 0. */
typedef struct latency_summary {
    long count;
    double p50_s, p99_s, min_s, max_s;
} latency_summary;
latency_summary latency_summarize(double *values, long count);
/* The same over the values of PARTS arrays together (VALUES[k] of
 * COUNTS[k]), without gathering them into one. */
latency_summary latency_summarize_parts(double *const *values, const long *counts, int parts);

#endif
