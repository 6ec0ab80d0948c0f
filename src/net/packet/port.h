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
 * read.  Credits come back one link latency after the leave.
 *
 * Layout: a packet-hop reads its port, the buffer its packet leaves and the
 * one it enters, so each is laid out by cache line (64 bytes), the fields a
 * hop reads first in the first: a port's serialization and request queue,
 * then its counters; a buffer's FIFO, the sender's credits and its
 * departures' ring in the first, its occupancy in the second. */
#ifndef COLLSIM_PORT_H
#define COLLSIM_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/packet/net_time.h"
#include "net/packet/packet_queue.h"

/* Virtual channels per link direction, at most: each virtual lane
 * (packet_params.h) times the channels its routing needs (two where a
 * torus dimension has a dateline: lattice.c). */
#define PORT_MAX_VCS 16

typedef struct leave {
    net_time time;
    int64_t bytes;
} leave;

/* A serializer's busy period: within it (packets back to back) a packet
 * ends at origin + round(bytes since origin x attoseconds per byte), one
 * rounding per period, however many packets it holds. */
typedef struct busy_period {
    net_time origin, formula_end; /* its start, and the last end its formula gave (-1: none yet) */
    int64_t origin_bytes;         /* bytes since origin */
} busy_period;

/* When the next packet may start crossing after B's last: its end, less
 * one attosecond.  Two busy periods end each packet at their own origin
 * plus a rounded time, so the same instant may come out one attosecond
 * apart in two of them: the crossbar's bound yields to the output port's
 * (else a packet whose link is free would lose its turn to an attosecond). */
static inline net_time crossbar_ready(const busy_period *b)
{
    return b->formula_end - 1;
}

/* WIRE bytes start at NOW at AS_PER_BYTE: when they end (a new period
 * unless NOW is where the last one ended). */
static inline net_time busy_period_end(busy_period *b, net_time now, int64_t wire, long double as_per_byte)
{
    if (now != b->formula_end) { /* idle before, or held back: a new busy period */
        b->origin = now;
        b->origin_bytes = 0;
    }
    b->origin_bytes += wire;
    return b->formula_end = b->origin + net_time_floor(b->origin_bytes * as_per_byte + 0.5L); /* rounded, >= 0 */
}

/* Inputs from here on are virtual output queues (voq.h), apart from the
 * buffers' and the messages' inputs. */
#define VOQ_INPUT_BASE (1 << 30)

/* What an input (a buffer, or a message at its source) asks of the port its
 * head packet wants, and its place in that port's queue (arbitration.c).
 * The engine keeps them in one array by input, apart from the buffers: a
 * port's arbitration walks its queue's requests, which then sit together. */
typedef struct input_request {
    int32_t next;      /* the next input in the port's queue, -1 at the tail */
    int32_t vc;        /* the virtual channel of the buffer its head would fill */
    uint32_t wire;     /* its head's wire bytes (a packet's: packet.wire_bytes) */
    uint32_t born;     /* its head's age (packet.born); a message's head is not cut yet, and transit
                          arbitration never ranks messages by age */
    net_time eligible; /* when its head may start */
} input_request;

/* The input buffer at the far end of a port's link, for one virtual channel. */
typedef struct port_buffer {
    _Alignas(64) packet_queue queue; /* its packets, first in first out */
    int64_t credits;           /* what the sender may still send into it (credit flow control) */
    bool sender_stalled;       /* the port feeding it waits for credits (a copy of its stall) */
    leave *leaves;             /* departures decided and not yet returned as credits, by time: a ring */
    uint32_t leave_first, leave_applied, leave_end; /* free-running: [first, applied) the occupancy
                                                       counts, [applied, end) it does not yet */
    uint32_t leave_mask;       /* the ring's capacity - 1 (a power of two), or 0 before the first */
    int64_t occupancy;         /* bytes sent into it that have not left it */
    busy_period crossbar;      /* its packets crossing the switch: the next head may start once the one
                                  before has crossed at speedup x the feeding link's rate */
    /* counters */
    int64_t peak_occupancy;
    double occupancy_integral; /* bytes x attoseconds */
    net_time occupancy_since;  /* when occupancy last changed */
} port_buffer;

typedef struct port {
    /* arbitration.c's and serialization's: every packet-hop's first line */
    _Alignas(64) net_time free_at; /* when its current packet's tail has left */
    net_time wake_at;          /* earliest wake-up scheduled, NET_TIME_NEVER if none */
    int32_t request_head, request_tail; /* inputs waiting for it, round robin (arbitration.c) */
    busy_period serializing;   /* packets back to back on the link */
    long double as_per_byte;   /* attoseconds per (scaled) byte on the wire */
    net_time latency;          /* the link's share of alpha: head and tail arrive this much later */
    net_time stalled_since;    /* waiting for credits since then, or -1 */
    uint32_t vcs_used;         /* a bit per far buffer (virtual channel) a packet ever entered: the others
                                  never need settling */
    int32_t pool;              /* a crossbar port of a shared switch: the switch (output_queue.h), else -1 */
    int64_t pool_queued;       /* its output queue's bytes in that pool */
    /* counters */
    int64_t bytes, packets;
    net_time busy, stalled;
} port;

/* A port's far-end buffers (one per virtual channel) are not in the port:
 * the engine keeps every port's together, 2^k per port (engine_internal.h),
 * so that their number is the platform's. */

/* A port of LATENCY and BANDWIDTH (scaled bytes per second), idle. */
void port_init(port *p, net_time latency, long double bandwidth);
/* A far-end buffer that holds BYTES (credits), empty; its rings come from
 * an arena. */
void buffer_init(port_buffer *b, int64_t bytes);

/* Each virtual channel V whose bit is set in USED, lowest first. */
#define for_each_vc(v, used) \
    for (uint32_t vc_bits_ = (used), v = 0; vc_bits_ && (v = (uint32_t)__builtin_ctz(vc_bits_), 1); \
         vc_bits_ &= vc_bits_ - 1)

/* Start sending WIRE bytes at NOW: when the tail has left (exact, and not
 * before TAIL_READY, when the tail is in: cut-through). */
static inline net_time port_transmit(port *p, net_time now, int64_t wire, net_time tail_ready)
{
    net_time end = busy_period_end(&p->serializing, now, wire, p->as_per_byte);
    if (end < tail_ready) end = tail_ready; /* held back by its tail: the next packet starts a new period */
    p->bytes += wire;
    p->packets++;
    p->busy += end - now;
    return end;
}

static inline leave *buffer_leave(const port_buffer *b, uint32_t i)
{
    return &b->leaves[i & b->leave_mask];
}

/* Buffer B of a port: BYTES will leave it at TIME (not before the last
 * settle).  A full ring of departures grows from A. */
void buffer_grow_leaves(port_buffer *b, arena *a);
static inline void buffer_leaves(port_buffer *b, net_time time, int64_t bytes, arena *a)
{
    if (b->leave_end - b->leave_first == b->leave_mask + (b->leaves != NULL)) buffer_grow_leaves(b, a); /* full */
    leave *ring = b->leaves;
    uint32_t mask = b->leave_mask, applied = b->leave_applied, i = b->leave_end++;
    while (i != applied && ring[(i - 1) & mask].time > time) { /* leaves come nearly in order */
        ring[i & mask] = ring[(i - 1) & mask];
        i--;
    }
    ring[i & mask] = (leave){time, bytes};
}

static inline void buffer_occupancy_change(port_buffer *b, net_time now, int64_t delta)
{
    int64_t occupancy = b->occupancy;
    b->occupancy_integral += (double)occupancy * (double)(now - b->occupancy_since);
    b->occupancy_since = now;
    b->occupancy = occupancy += delta;
    if (occupancy > b->peak_occupancy) b->peak_occupancy = occupancy;
}

/* Bring B up to NOW: leaves due by NOW out of the occupancy, and those due
 * by NOW - LATENCY (the link's) back to the sender as credits. */
static inline void buffer_settle(port_buffer *b, net_time latency, net_time now)
{
    const leave *ring = b->leaves;
    uint32_t mask = b->leave_mask, first = b->leave_first, applied = b->leave_applied, end = b->leave_end;
    if (first == end || ring[first & mask].time > now) return; /* none is due */
    for (; applied != end && ring[applied & mask].time <= now; applied++)
        buffer_occupancy_change(b, ring[applied & mask].time, -ring[applied & mask].bytes);
    int64_t credits = 0;
    for (; first != applied && ring[first & mask].time + latency <= now; first++) credits += ring[first & mask].bytes;
    b->credits += credits;
    b->leave_first = first;
    b->leave_applied = applied;
}

/* BYTES enter B at NOW (the sender starts them; B settled to NOW); they
 * take their room now unless they took it before (TAKE false). */
static inline void buffer_enter(port_buffer *b, net_time now, int64_t bytes, bool take)
{
    buffer_occupancy_change(b, now, bytes);
    if (take) b->credits -= bytes;
}

/* When the next credit not yet returned arrives, NET_TIME_NEVER if none. */
static inline net_time buffer_next_credit(const port_buffer *b, net_time latency)
{
    return b->leave_first != b->leave_end ? buffer_leave(b, b->leave_first)->time + latency : NET_TIME_NEVER;
}

#endif
