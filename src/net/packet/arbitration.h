/* arbitration.h — which waiting input a free port serves, as a decision:
 * the policy reads the port's queue of requests, the credits of the
 * buffers it fills and the clock, and returns the input to start (and where
 * it stands in the queue) or why none can start and when to look again.
 * The engine applies it (service.c); the policy starts nothing itself. */
#ifndef COLLSIM_ARBITRATION_H
#define COLLSIM_ARBITRATION_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/lanes.h"
#include "net/packet/output_queue.h"
#include "net/packet/port.h"
#include "net/packet/voq.h"

/* The requests of the inputs waiting for ports, as a policy reads them. */
typedef struct request_view {
    const input_request *inputs; /* buffers' and messages' requests, by input */
    const voq_entry *voqs;       /* virtual output queues (inputs from VOQ_INPUT_BASE, voq.h): their requests,
                                    and the buffer input each belongs to (they share its crossbar) */
    const port_buffer *buffers;  /* every port's far buffers, by buffer input */
    const shared_pool *pools;    /* shared switches' pools, by switch (output_queue.h) */
    const uint8_t *lane_weights; /* by virtual lane: packets a turn (lanes.h) */
    int route_vcs;               /* virtual channels a lane has (lanes.h) */
    int32_t first_message;       /* inputs from here to VOQ_INPUT_BASE are messages at their source */
    int adaptive_vc;             /* a lane's first channel whose room a packet took as it chose it (choose.h),
                                    or -1 */
} request_view;

/* Whether a packet on virtual channel VC took its room as it chose it:
 * a hop chosen at a fork by minimal adaptive routing, on one of a lane's
 * adaptive channels (its last, from ADAPTIVE_VC of ROUTE_VCS; lanes.h). */
static inline bool adaptive_room_taken(int adaptive_vc, int route_vcs, int vc)
{
    return adaptive_vc >= 0 && vc % route_vcs >= adaptive_vc;
}

static inline const input_request *request_of(request_view v, int in)
{
    return in >= VOQ_INPUT_BASE ? &v.voqs[in - VOQ_INPUT_BASE].request : &v.inputs[in];
}

/* When input IN's buffer may next feed the crossbar: a virtual output
 * queue waits while another queue of its buffer crosses (the others' heads
 * were offered after their buffer's last crossing began). */
static inline net_time crossbar_free(request_view v, int in)
{
    if (in < VOQ_INPUT_BASE) return 0;
    int32_t b = v.voqs[in - VOQ_INPUT_BASE].buffer;
    return crossbar_ready(&v.buffers[b].crossbar);
}

/* When input IN's head (its request I) may start: eligible, and its
 * buffer free to feed the crossbar. */
static inline net_time request_ready(request_view v, int in, const input_request *i)
{
    net_time crossbar = crossbar_free(v, in);
    return crossbar > i->eligible ? crossbar : i->eligible;
}

typedef struct arbitration_decision {
    int32_t input;  /* the input to start now, or -1 */
    int32_t lane;   /* its virtual lane (arbitration_lanes) */
    int32_t before; /* the input ahead of it in the port's queue, -1 when it is the head */
    bool starved;   /* none starts: an eligible head lacks credits */
    net_time retry; /* none starts: when an ineligible head becomes eligible (credits: the engine adds their
                       return), NET_TIME_NEVER if none */
} arbitration_decision;

/* Round robin among the inputs waiting for free port Q (their REQUESTS):
 * the first in its queue whose head is eligible at NOW and, under credit
 * flow control (CREDIT), fits the far buffer FAR[vc] it would fill (at a
 * crossbar port of a shared switch: its pool admits it).  Q's buffers are
 * settled to NOW as their credits are read. */
arbitration_decision arbitration_round_robin(port *q, port_buffer *far, const request_view *requests, bool credit,
                                             net_time now);
/* The same, packets passing through (buffers, virtual output queues)
 * before messages at their source: a rank that routes (router.h).  Among
 * the packets passing through, in turn, or when OLDEST the one cut at its
 * source first (age-based arbitration, Abts and Weisser, SC07: a packet
 * that has waited at many hops is not served as rarely as round robin at
 * each merge would serve it); ties in queue order. */
arbitration_decision arbitration_transit_first(port *q, port_buffer *far, const request_view *requests, bool credit,
                                               bool oldest, net_time now);
/* Round robin, a message at its source starting only where the buffer it
 * fills keeps room for one more packet after it: the bubble rule (a rank
 * that routes, router.h), so that injection never takes a ring's last
 * room.  A packet that took its room as it chose an adaptive channel
 * (choose.h) has it: the rule is for the others. */
arbitration_decision arbitration_bubble(port *q, port_buffer *far, const request_view *requests, bool credit,
                                        net_time now);
/* The same on a link of several virtual lanes (LANES, lanes.h): the first
 * such input of the lane whose turn it is while the turn lasts, else of
 * the next lane that has one. */
arbitration_decision arbitration_lanes(port *q, port_buffer *far, const struct port_lanes *lanes,
                                       const request_view *requests, bool credit, net_time now);

#endif
