/* output_queue.h — output queues.  At a switch that has them (every
 * `shared` switch, and every switch when the crossbar is faster than its
 * links: a combined input- and output-queued switch) a packet crosses the
 * crossbar into a queue of its output port, and the port sends from there.
 * The crossbar's side of an output is a port of its own, a *crossbar
 * port*: no latency, the output link's rate times the speedup, its far
 * buffer the output queue; so arbitration, credits and the speedup bound
 * apply to it as to any port, and an input waits while its output's queue
 * is full.  A packet crosses cut-through: it may leave the output queue as
 * soon as it starts crossing.
 *
 * A shared switch is a shared memory every input writes at once: its
 * crossbar ports take packets at the rate of all its links together (the
 * speedup still bounds each input), so no input waits for another's.  The
 * output queues of a shared switch hold no room of their own: they
 * draw on one pool per switch, and a queue admits a packet while the pool
 * has room for it and the queue holds less than alpha times the pool's
 * free room (the dynamic threshold of Choudhury & Hahne, 1998).  A packet's
 * room goes back to the pool as its output link starts sending it. */
#ifndef COLLSIM_OUTPUT_QUEUE_H
#define COLLSIM_OUTPUT_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/topology.h"

typedef struct shared_pool {
    int64_t capacity, used;   /* bytes */
    double alpha;
    int32_t *waiting;         /* crossbar ports that found no room, to wake when room frees */
    int waiting_count;
} shared_pool;

typedef struct output_queues {
    int first, count;         /* crossbar ports: [first, first + count), first = 2 x links */
    int32_t *crossbar_of;     /* by link port: its crossbar port, -1 where its switch has no output queues;
                                 NULL when none has */
    int32_t *link_of;         /* by crossbar port - first: its link port */
    shared_pool *pools;       /* by switch (shared ones' used) */
    int pool_count;
    int32_t *switch_ports;    /* by switch: its link ports with output queues */
    uint8_t *waiting;         /* by crossbar port - first: in its pool's waiting list */
} output_queues;

/* Whether a packet of WIRE bytes fits a queue holding QUEUED bytes of
 * pool S. */
static inline bool pool_admits(const shared_pool *s, int64_t queued, int64_t wire)
{
    int64_t room = s->capacity - s->used;
    return wire <= room && (double)queued < s->alpha * (double)room;
}

/* The node a link port P leaves: UP goes ends[0] -> ends[1] (topology.h). */
static inline int port_source_node(const topology *t, int p)
{
    const topo_link *link = &t->links[p / 2];
    return p % 2 ? link->ends[1] : link->ends[0];
}

/* The switch a link port P leaves with output queues, else -1. */
int output_queue_switch(const topology *t, int p);
/* Number T's crossbar ports (after its 2 x links link ports) into O;
 * the pools' capacities at SCALE bytes per byte.  Nothing when no switch
 * has output queues. */
void output_queues_init(output_queues *o, const topology *t, double scale);
void output_queues_free(output_queues *o);

#endif
