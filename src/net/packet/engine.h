/* engine.h — collsim's packet-level network engine (docs/packet.md).
 *
 * A message of M bytes is cut into ceil(M/MTU) packets (the last one short),
 * each carrying `header` bytes more on the wire.  Each packet crosses its
 * route's ports: a port serializes it at the link's bandwidth and the link
 * delays it by its latency share; a switch forwards it by virtual
 * cut-through (once its head is in and the output is free, never finishing
 * before its tail is in) or store-and-forward.  Every link's receiving end
 * has a finite FIFO buffer; a port starts a packet only when the buffer it
 * fills has room (credits), and the room returns one link latency after the
 * packet leaves.  A port serves the inputs waiting for it round robin.  An
 * input feeds the switch's crossbar no faster than its link's bandwidth
 * times the crossbar speedup (`packet: speedup`, 1 by default): its next
 * head starts only once the one before has crossed.  So a
 * full buffer stalls the port feeding it, packets behind a stalled one wait
 * (head-of-line blocking) and congestion spreads upstream.
 *
 * The engine knows links, packets and messages, never collectives: it runs
 * standalone (packet_flows.h) or under SimGrid's clock (net_packet.c).  Its
 * clock is the integer net_time; it moves only in engine_run_until. */
#ifndef COLLSIM_ENGINE_H
#define COLLSIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "net/heartbeat.h"
#include "net/packet/net_time.h"
#include "net/packet/port.h"
#include "platform/topology.h"
#include "util/diag.h"

typedef struct engine engine;

/* What happened to one message (kept when engine_keep_messages asks: the
 * collectives' reports take their per-message times from the executor,
 * and 40 bytes a message is 336 MB for a 2,048-rank ring). */
typedef struct message_record {
    net_time posted;    /* the send was posted */
    net_time injected;  /* its first packet could leave (both ends posted) */
    net_time delivered; /* its last byte arrived; -1 while in flight */
    int32_t src, dst;   /* nodes */
    int64_t bytes;      /* payload, scaled bytes */
} message_record;

typedef struct engine_counters {
    long long events;       /* processed */
    long long packet_hops;  /* packets started on a port */
    long long packets;      /* cut from messages */
    long long messages;
    long peak_packets;      /* in flight at once */
} engine_counters;

/* Called when a message has arrived whole, with the cookie it was sent with. */
typedef void (*engine_delivery_fn)(void *ctx, void *cookie);

/* An engine on T's links with T's `packet:` parameters.  Message sizes and
 * bandwidths are in bytes multiplied by SCALE (the executor's K, so that
 * fractional chunks are whole: mtu, header and buffers are scaled alike). */
engine *engine_create(const topology *t, double scale);
void engine_free(engine *e);
void engine_on_delivery(engine *e, engine_delivery_fn fn, void *ctx);
/* Datelines' virtual channels as the routes name them (default); off only
 * to show the deadlock the torus dateline prevents.  Before the first route. */
void engine_use_virtual_channels(engine *e, bool on);
/* Minimal adaptive routing at ranks that route with its escape (default:
 * choose.h); off, only to show the deadlock the escape prevents: packets
 * choose the least queued dimension whatever its room, and wait for it.
 * Before the first route. */
void engine_use_escape(engine *e, bool on);
/* Alternative routes kept with no packet on them, at most (routing.h,
 * invariant 4; default ROUTE_KEEP_IDLE): 0 frees each as its last packet
 * leaves.  What packets do is the same at any value. */
void engine_keep_idle_routes(engine *e, int alternatives);
/* Keep a message_record of every message sent from now on (off by default). */
void engine_keep_messages(engine *e, bool on);
/* Run events at one attosecond in an order drawn from SEED rather than the
 * order scheduled (--ties shuffled(SEED)); before the first send. */
void engine_shuffle_ties(engine *e, uint64_t seed);

/* The route of flows SRC -> DST on virtual lane LANE (lanes.h; 0 on a
 * platform of one lane); -1 with a message when there is none. */
int engine_route(engine *e, int src, int dst, int lane, diag *d);
/* Send BYTES (scaled, >= 0) on ROUTE now; POSTED is when the sender asked.
 * Returns the message's record index, or -1 when records are not kept. */
int engine_send(engine *e, int route, int64_t bytes, net_time posted, void *cookie);

/* Ask for the cache lines engine_send on ROUTE will read, in three stages a
 * few sends apart (STAGE 0 first: the route; 1: its first stage; 2: that
 * stage's port and the buffer it fills), for a caller that knows its
 * sends ahead: at thousands of ranks each is a miss. */
void engine_prefetch_send(engine *e, int route, int stage);

/* Called when a message's last packet has left its source (started on its
 * route's first port), with the cookie it was sent with: an open-loop source
 * hands the engine its next message then (synthetic.h). */
void engine_on_injected(engine *e, engine_delivery_fn fn, void *ctx);

/* A wake-up at TIME (not before now) with COOKIE: the clock stops there as
 * at a delivery (engine_run_to_delivery), and FN of engine_on_wake is told:
 * an endpoint's busy time (a sender's overhead) as just another event. */
void engine_on_wake(engine *e, engine_delivery_fn fn, void *ctx);
void engine_wake_at(engine *e, net_time time, void *cookie);

/* Tell BEAT the clock every ENGINE_BEAT_EVENTS events (a power of two: a
 * mask and a branch per event), so that one long message shows progress
 * (net/heartbeat.h).  Nobody is told by default. */
#define ENGINE_BEAT_EVENTS 4096
void engine_report_to(engine *e, heartbeat *beat);

net_time engine_now(const engine *e);
/* Process every event up to UNTIL and set the clock to UNTIL.  False when
 * the clock would pass NET_TIME_LIMIT (the run must stop). */
bool engine_run_until(engine *e, net_time until);
/* Process events up to the first delivery and every other event at its
 * time, or up to LIMIT if none comes before; *DELIVERY receives that time
 * (NET_TIME_NEVER when none came: the clock is then at LIMIT, unless LIMIT
 * is NET_TIME_NEVER and the events ran out); a wake-up stops it likewise.
 * False when the clock would pass NET_TIME_LIMIT. */
bool engine_run_to_delivery(engine *e, net_time limit, net_time *delivery);
/* Messages sent and not yet delivered: with no event pending, a deadlock. */
long engine_in_flight(const engine *e);

engine_counters engine_totals(const engine *e);
int engine_port_count(const engine *e);
/* Port PORT (link * 2 + direction), its counters brought up to now. */
const port *engine_port(engine *e, int port);
/* Its far buffers, by virtual channel (bit v of its vcs_used: ever used). */
const port_buffer *engine_port_buffers(const engine *e, int port);
int engine_message_count(const engine *e);
const message_record *engine_message(const engine *e, int index);
/* Its route table (routing.h): what it keeps, and what it has freed. */
struct route_table;
const struct route_table *engine_routes(const engine *e);

#endif
