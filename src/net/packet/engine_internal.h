/* engine_internal.h — the packet engine's state, shared by engine.c (the
 * life of a packet) and service.c (a port's queue of inputs, and applying
 * its arbitration's decisions); the policies (arbitration.h, choose.h) see
 * only what they read.  Nothing outside src/net/packet sees it.
 *
 * An input is what a port serves packets from: the buffer at port q's far
 * end on virtual channel v (input q * 2^vc_shift + v, its index in
 * `buffers`; at a crossbar port, output_queue.h, an output queue), or a
 * message being cut into packets at its source (input all_ports *
 * 2^vc_shift + its slot).  An
 * input joins the queue of the port its head packet wants as soon as that
 * packet is on its way, with the time it becomes eligible; so a packet-hop
 * costs one event, the port's decision to start it. */
#ifndef COLLSIM_ENGINE_INTERNAL_H
#define COLLSIM_ENGINE_INTERNAL_H

#include "net/packet/engine.h"
#include "net/packet/event_list.h"
#include "net/packet/routing.h"
#include "net/packet/voq.h"
#include "net/packet/islip.h"
#include "net/packet/arbitration.h"
#include "net/packet/lanes.h"
#include "net/packet/router.h"

enum {
    EVENT_PORT,      /* target: a port that may start a packet (its tail left, a head became
                        eligible, or credits came back) */
    EVENT_FORK,      /* target: a buffer input whose head reaches a fork (spray, adaptive) */
    EVENT_DELIVERED, /* target: a message slot whose last byte arrived */
    EVENT_WAKE       /* target: a wake-up slot whose time came (engine_wake_at) */
};

typedef struct message {
    int32_t route;
    int32_t record;       /* index into records, or -1 (not kept) */
    int64_t unsent;       /* payload not yet cut into packets */
    int32_t outstanding;  /* packets cut that have not started their last hop */
    int32_t next_free;    /* the free list of message slots */
    net_time ready;       /* when its packets may leave (after the source's port delay) */
    net_time arrival;     /* latest arrival of its packets so far */
    net_time tail_delay;  /* its route's (routing.h), kept here: at its arrival the route's line is cold */
    void *cookie;
    int32_t packet_route; /* the route its next packet takes (its own, or minimal adaptive routing's choice) */
    int32_t queue;        /* the injection queue it waits in (router.h), -1: none */
    int32_t heap_child, heap_sibling; /* its queue's heap of waiting messages (router.c), -1: none */
    uint64_t turn;        /* when its turn came there: in turn among messages as far */
    net_time flight;      /* order: farthest: its packets' time in flight after they leave (0: in turn) */
    uint32_t spray_turn;  /* spray: its next packet's entropy (modulo the platform's entropies; choose.h), from
                             a hash of its ends */
} message;

struct engine {
    const topology *t;
    event_list events;
    net_time now;
    bool failed;              /* the clock passed NET_TIME_LIMIT */
    heartbeat *beat;          /* told the clock every ENGINE_BEAT_EVENTS events (engine_report_to) */
    int64_t mtu, header;      /* scaled bytes: the payload the engine moves at once (a unit: one packet unless
                                 the platform gives `unit`), and the header of each packet in it */
    int64_t packet_mtu;       /* scaled bytes of one packet's payload (the mtu) */
    bool credit, store_and_forward;
    int route_vcs;            /* virtual channels the routes name within a lane (1, or 2 for a dateline; and
                                 the adaptive ones) */
    int adaptive_vc;          /* minimal adaptive routing at ranks that route: its first channel in a lane (the
                                 lane's last ones), else -1 */
    bool voq_switches;        /* some switches queue per input and output (voq.h) */
    voq_table voqs;
    output_queues outputs;    /* crossbar ports and output queues (output_queue.h) */
    islip_state *islip;       /* voq switches matching by islip (islip.h), else NULL */
    long double crossbar_scale; /* 1 / the crossbar speedup: an input feeds the crossbar at its link's rate / this */
    packet_routing routing;
    unsigned spray_entropies; /* spray: the entropy values a message's packets cycle through */
    arena memory;             /* ports, rings of packets and of departures */
    port *ports;              /* link ports, then crossbar ports */
    port_buffer *buffers;     /* by buffer input: each port's far buffers, 2^vc_shift of them */
    int vc_shift;             /* log2 of the buffers kept per port (virtual channels, rounded up) */
    port_lanes *lanes;        /* by port: its virtual lanes' arbitration (lanes.h), NULL when every link
                                 has one lane */
    uint8_t *policy;          /* by port: how it arbitrates (PORT_*), NULL when every port takes turns */
    router_state router;      /* injection queues of ranks that route (router.h) */
    int prefetch_further;     /* 1 when the ports and their buffers are past the caches: every line is asked
                                 for an event further ahead, and a hop's next port's too (prefetch.h); else 0 */
    int port_count;           /* link ports: 2 x links */
    int all_ports;            /* with the crossbar ports */
    int message_inputs;       /* all_ports << vc_shift: the first message input */
    long live_packets;        /* cut and not yet arrived */
    route_table routes;
    message *messages;
    int message_count, message_capacity;
    input_request *requests;  /* by input: buffers' heads, then messages' next packets (port.h) */
    int32_t free_message;
    bool keep_records;        /* engine_keep_messages */
    message_record *records;
    int record_count, record_capacity;
    long in_flight;
    engine_delivery_fn delivered;
    void *delivered_ctx;
    engine_delivery_fn injected; /* engine_on_injected */
    void *injected_ctx;
    engine_delivery_fn woke;  /* engine_on_wake */
    void *woke_ctx;
    void **wakes;             /* pending wake-ups' cookies, by slot; free slots hold NULL */
    int32_t *free_wakes;      /* free wake slots, a stack */
    int wake_count, wake_capacity, free_wake_count, free_wake_capacity;
    engine_counters counters;
    long double *crossbar_as_per_byte; /* by link port: its as_per_byte x crossbar_scale, what its far buffers'
                                          packets take a byte to cross (a packet-hop reads it, not the port) */
};

/* How a port chooses among its waiting inputs (arbitration.h). */
enum {
    PORT_ROUND_ROBIN, /* in turn */
    PORT_LANES,       /* its virtual lanes by their weights, in turn within each */
    PORT_TRANSIT,     /* a rank that routes: packets passing through before its own messages' */
    PORT_BUBBLE,      /* a rank that routes: its own messages' packets only with room for two */
    PORT_AGE          /* a rank that routes: the oldest packet passing through, then its own messages' */
};

/* Inputs are never negative. */
static inline int buffer_input(const engine *e, int p, int vc) { return p << e->vc_shift | vc; }
static inline bool is_message_input(const engine *e, int in)
{
    return in >= e->message_inputs && in < VOQ_INPUT_BASE;
}
static inline bool is_voq_input(int in) { return in >= VOQ_INPUT_BASE; }
static inline int message_slot(const engine *e, int in) { return in - e->message_inputs; }
static inline int input_port(const engine *e, int in) { return (int)((unsigned)in >> e->vc_shift); }
static inline port_buffer *input_buffer(engine *e, int in) { return &e->buffers[in]; }
/* Port P's far buffers, by virtual channel. */
static inline port_buffer *port_far(engine *e, int p) { return &e->buffers[(size_t)p << e->vc_shift]; }
/* Whether buffer input IN is an output queue (a crossbar port's far buffer). */
static inline bool is_output_queue(const engine *e, int in)
{
    return input_port(e, in) >= e->port_count;
}
/* The port a packet at buffer or queue input IN asks for, its route's
 * stage being link port P: P's crossbar port where P's switch has output
 * queues and the packet has not crossed yet. */
static inline int port_toward(const engine *e, int p, int in)
{
    if (!e->outputs.crossbar_of || (!is_voq_input(in) && is_output_queue(e, in))) return p;
    int c = e->outputs.crossbar_of[p];
    return c >= 0 ? c : p;
}
static inline input_request *input_of(engine *e, int in)
{
    return is_voq_input(in) ? &e->voqs.entries[in - VOQ_INPUT_BASE].request : &e->requests[in];
}
/* What arbitration and adaptive routing may read of the waiting inputs. */
static inline request_view engine_requests(const engine *e)
{
    return (request_view){e->requests, e->voqs.entries, e->buffers, e->outputs.pools, e->t->packet.lane_weights,
                          e->route_vcs, e->message_inputs, e->adaptive_vc};
}

static inline void engine_schedule(engine *e, net_time time, int kind, int target)
{
    if (time > NET_TIME_LIMIT) e->failed = true;
    else event_schedule(&e->events, time, kind, target);
}

/* Start input IN's head packet on port P now (arbitration chose it). */
void engine_start(engine *e, int p, int in);

/* service.c: input IN (its head described in its request) waits for port P. */
void service_request(engine *e, int in, int p);
/* Start a packet on port P now if P is free and its arbitration finds a
 * waiting head eligible and fitting its buffer; else wake P when that may
 * change. */
void service_port(engine *e, int p);
/* Room leaves B, port P's far buffer, at TIME: P hears of it a latency
 * later, which wakes P if it waits for credits. */
void service_credit_due(engine *e, int p, port_buffer *b, net_time time);
/* Room came back to POOL: the crossbar ports waiting for it look again. */
void service_pool_freed(engine *e, shared_pool *pool);

/* Bytes on the wire of a unit carrying PAYLOAD scaled bytes: a header for
 * each packet in it (one when the unit is a packet). */
static inline int64_t unit_wire(const struct engine *e, int64_t payload)
{
    int64_t packets = payload > e->packet_mtu ? (payload + e->packet_mtu - 1) / e->packet_mtu : 1;
    return payload + packets * e->header;
}

#endif
