/* islip.h — iSLIP (McKeown, "The iSLIP scheduling algorithm for
 * input-queued switches", IEEE/ACM Trans. Netw. 7(2), 1999): how a `voq`
 * switch with `scheduler: islip` matches its inputs to its free outputs, as
 * a decision the engine applies (service.c).  Each round, every unmatched
 * output grants the requesting unmatched input next at or after its grant
 * pointer, and every input accepts the granting output next at or after
 * its accept pointer; the pointers move one past the pair matched, in the
 * first round only, so that they desynchronize.  Further rounds
 * (`iterations`) match what the first left free.
 *
 * iSLIP is slotted; collsim's clock is not.  An output left out of a
 * matching at T although an input requested it (its grant not accepted,
 * or its requesters matched elsewhere) waits for the next cell, when a
 * matched input or output is free again, as in a slotted switch; an output
 * that nothing requested takes a packet as soon as one arrives. */
#ifndef COLLSIM_ISLIP_H
#define COLLSIM_ISLIP_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/arbitration.h"

/* A voq switch's matching state. */
typedef struct islip_switch {
    int32_t first, count;   /* its outputs: islip_state.outputs[first .. first + count) */
    bool applying;          /* its matches are being started */
} islip_switch;

typedef struct islip_state {
    int iterations;
    int vc_shift;           /* the engine's: a port's far buffers are its index << vc_shift on */
    islip_switch *switches; /* by switch */
    int32_t *outputs;       /* every voq switch's output ports, switch by switch */
    int32_t *switch_of;     /* by port: the voq switch it leaves, or -1 */
    int32_t *grant;         /* by port: its grant pointer (a buffer input) */
    int32_t *accept;        /* by buffer input: its accept pointer (a port) */
    net_time *gate;         /* by port: left out of a matching, it takes part in none before this */
    int32_t accept_count;
    /* scratch, one entry per output of the largest switch */
    int32_t *granted, *granted_before, *matched_buffer;
    bool *requested;        /* by output of the switch matched last: an input requested it */
    struct islip_match *matches;
} islip_state;

typedef struct islip_match {
    int32_t output;         /* the port */
    int32_t input;          /* the virtual output queue it starts */
    int32_t before;         /* the input ahead of it in the port's queue, -1 at its head */
} islip_match;

struct output_queues;
/* The state for T's voq switches when they run islip (PORTS ports, of
 * which link ports first, then O's crossbar ports; 2^VC_SHIFT buffers a
 * port), else NULL. */
islip_state *islip_create(const topology *t, const struct output_queues *o, int ports, int vc_shift);
void islip_free(islip_state *st);

/* Match switch S's free outputs (of PORTS, their far BUFFERS) not gated
 * past NOW to the heads of its virtual output queues (REQUESTS) at NOW,
 * under credit flow control (CREDIT): the pairs into MATCHES (room for the
 * switch's outputs), their count returned, and which outputs an input
 * requested into st->requested; the pointers move. */
int islip_match_switch(islip_state *state, int s, port *ports, port_buffer *buffers, request_view requests,
                       bool credit, net_time now, islip_match *matches);

#endif
