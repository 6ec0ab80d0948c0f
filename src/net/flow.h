/* flow.h — a point-to-point flow, as either network model simulates it on
 * its own (SimGrid's fluid model: net/fluid/simgrid_run.h; the packet engine:
 * net/packet/packet_flows.h): `collsim platform`'s transfer time, the tests'
 * exact forms and the engine's benchmark. */
#ifndef COLLSIM_FLOW_H
#define COLLSIM_FLOW_H

typedef struct flow {
    int src, dst;        /* nodes (ranks or switches) */
    double size_bytes;
    double start_s;      /* when the sender posts it */
} flow;

#endif
