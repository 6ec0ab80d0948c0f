/* arbitration.h — which waiting input a free port serves, as a decision:
 * the policy reads the port's queue of requests, the credits of the
 * buffers it fills and the clock, and returns the input to start (and where
 * it stands in the queue) or why none can start and when to look again.
 * The engine applies it (service.c); the policy starts nothing itself. */
#ifndef COLLSIM_ARBITRATION_H
#define COLLSIM_ARBITRATION_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/port.h"

typedef struct arbitration_decision {
    int32_t input;  /* the input to start now, or -1 */
    int32_t before; /* the input ahead of it in the port's queue, -1 when it is the head */
    bool starved;   /* none starts: an eligible head lacks credits */
    net_time retry; /* none starts: when an ineligible head becomes eligible (credits: the engine adds their
                       return), NET_TIME_NEVER if none */
} arbitration_decision;

/* Round robin among the inputs waiting for free port Q (REQUESTS by input):
 * the first in its queue whose head is eligible at NOW and, under credit
 * flow control (CREDIT), fits the buffer it would fill.  Q's buffers are
 * settled to NOW as their credits are read. */
arbitration_decision arbitration_round_robin(port *q, const input_request *requests, bool credit, net_time now);

#endif
