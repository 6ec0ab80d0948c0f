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
 * iSLIP is slotted; collsim's clock is not.  A switch matches at most once
 * per cell time: after a matching at T its next is no earlier than when a
 * matched input or output is free again, so that an output left out (a
 * grant not accepted) waits for the next cell as in a slotted switch. */
#ifndef COLLSIM_ISLIP_H
#define COLLSIM_ISLIP_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/arbitration.h"

/* A voq switch's matching state. */
typedef struct islip_switch {
    int32_t first, count;   /* its outputs: islip_state.outputs[first .. first + count) */
    net_time next_match;    /* no matching before this */
    bool applying;          /* its matches are being started */
} islip_switch;

typedef struct islip_state {
    int iterations;
    islip_switch *switches; /* by switch */
    int32_t *outputs;       /* every voq switch's output ports, switch by switch */
    int32_t *switch_of;     /* by port: the voq switch it leaves, or -1 */
    int32_t *grant;         /* by port: its grant pointer (a buffer input) */
    int32_t *accept;        /* by buffer input: its accept pointer (a port) */
    int32_t accept_count;
    /* scratch, one entry per output of the largest switch */
    int32_t *granted, *granted_before, *matched_buffer;
    struct islip_match *matches;
} islip_state;

typedef struct islip_match {
    int32_t output;         /* the port */
    int32_t input;          /* the virtual output queue it starts */
    int32_t before;         /* the input ahead of it in the port's queue, -1 at its head */
} islip_match;

struct output_queues;
/* The state for T's voq switches when they run islip (PORTS ports, of
 * which link ports first, then O's crossbar ports), else NULL. */
islip_state *islip_create(const topology *t, const struct output_queues *o, int ports);
void islip_free(islip_state *st);

/* Match switch S's free outputs (of PORTS) to the heads of its virtual
 * output queues (REQUESTS) at NOW, under credit flow control (CREDIT):
 * the pairs into MATCHES (room for the switch's outputs), their count
 * returned; the pointers move. */
int islip_match_switch(islip_state *state, int s, port *ports, request_view requests, bool credit, net_time now,
                       islip_match *matches);

#endif
