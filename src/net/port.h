/* port.h — one direction of one link, as the packet engine sees it: a queue
 * that serializes packets at the link's bandwidth (htsim's Queue), the link's
 * latency share (its Pipe), and the input buffer at the far end, whose free
 * space the sender tracks as credits (InfiniBand / NVLink credit-based flow
 * control).  Latency-only links (switch crossbars, INC port delays) are not
 * ports: they are delays in the route (routing.h).
 *
 * Serialization is exact: within a busy period (packets back to back) a
 * packet ends at origin + round(bytes since origin / bandwidth), one rounding
 * per period rather than per packet, so a 1 GB message of 244,141 packets
 * still takes alpha + M/BW to 1e-12.
 *
 * Buffer bookkeeping is lazy: when a packet's departure from a buffer is
 * decided (its next port starts it) its leave time is recorded, and the
 * occupancy and the sender's credits catch up with the clock when they are
 * read.  Credits come back one link latency after the leave. */
#ifndef COLLSIM_PORT_H
#define COLLSIM_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "net/net_time.h"
#include "net/packet_queue.h"

#define PORT_VCS 2 /* virtual channels: the torus dateline needs two (lattice.c) */

typedef struct leave {
    net_time time;
    int64_t bytes;
} leave;

/* The input buffer at the far end of a port's link, for one virtual channel
 * (the fields a packet-hop touches first: one cache line). */
typedef struct port_buffer {
    packet_queue queue;        /* its packets, first in first out */
    int64_t credits;           /* what the sender may still send into it (credit flow control) */
    int64_t occupancy;         /* bytes sent into it that have not left it */
    leave *leaves;             /* departures decided and not yet returned as credits, by time; a ring */
    int leave_first, leave_count, leave_capacity; /* capacity: a power of two */
    int leave_applied;         /* of those, how many the occupancy already counts */
    /* counters */
    int64_t peak_occupancy;
    double occupancy_integral; /* bytes x attoseconds */
    net_time occupancy_since;  /* when occupancy last changed */
} port_buffer;

typedef struct port {
    /* arbitration.c's, then serialization's: the fields of every packet-hop first */
    net_time free_at;          /* when its current packet's tail has left */
    net_time wake_at;          /* earliest wake-up scheduled, NET_TIME_NEVER if none */
    net_time stalled_since;    /* waiting for credits since then, or -1 */
    int32_t request_head, request_tail; /* inputs waiting for it, round robin (arbitration.c) */
    int64_t requested_bytes;   /* their head packets' wire bytes */
    net_time latency;          /* the link's share of alpha: head and tail arrive this much later */
    net_time origin, formula_end; /* the busy period: its start, and the last end its formula gave */
    int64_t origin_bytes;      /* bytes sent since origin */
    long double as_per_byte;   /* attoseconds per (scaled) byte on the wire */
    port_buffer far[PORT_VCS];
    /* counters */
    int64_t bytes, packets;
    net_time busy, stalled;
} port;

/* A port of LATENCY and BANDWIDTH (scaled bytes per second) whose far-end
 * buffers hold BUFFER_BYTES each (credits). */
void port_init(port *p, net_time latency, long double bandwidth, int64_t buffer_bytes);
void port_free(port *p);

/* Start sending WIRE bytes at NOW: when the tail has left (exact, and not
 * before TAIL_READY, when the tail is in: cut-through). */
net_time port_transmit(port *p, net_time now, int64_t wire, net_time tail_ready);

/* Buffer B of a port: BYTES will leave it at TIME (not before the last settle). */
void buffer_leaves(port_buffer *b, net_time time, int64_t bytes);
/* Bring B up to NOW: leaves due by NOW out of the occupancy, and those due
 * by NOW - LATENCY (the link's) back to the sender as credits. */
void buffer_settle_due(port_buffer *b, net_time latency, net_time now);
static inline void buffer_settle(port_buffer *b, net_time latency, net_time now)
{
    if (b->leave_count && b->leaves[b->leave_first].time <= now) buffer_settle_due(b, latency, now); /* else none is due */
}
/* BYTES enter B at NOW (the sender starts them; B settled to NOW). */
void buffer_enter(port_buffer *b, net_time now, int64_t bytes);
/* When the next credit not yet returned arrives, NET_TIME_NEVER if none. */
net_time buffer_next_credit(const port_buffer *b, net_time latency);

#endif
