/* voq.h — virtual output queues.  At a `voq` switch an input buffer keeps
 * one queue per output port its packets want, so a packet whose output is
 * busy holds back only the packets behind it for that output (no
 * head-of-line blocking across outputs).  The queues of one buffer share
 * its room (credits) and its crossbar input: one packet crosses at a time.
 * Each queue is an input of its own (VOQ_INPUT_BASE + its index) that
 * requests its output like a FIFO buffer's head does.
 *
 * A queue is keyed by (buffer input, output port) and numbered as routes
 * are compiled: route stage k's `voq` is the queue its packet waits in,
 * at the buffer stage k - 1 fills, when that buffer is at a switch. */
#ifndef COLLSIM_VOQ_H
#define COLLSIM_VOQ_H

#include <stdbool.h>
#include <stdint.h>

#include "net/packet/packet_queue.h"
#include "net/packet/port.h"
#include "net/packet/routing.h"

/* A queue, with what a packet-hop reads of it in one cache line. */
typedef struct voq_entry {
    _Alignas(64) input_request request; /* its head's request */
    packet_queue queue;
    int32_t buffer;           /* the buffer input it belongs to */
} voq_entry;

typedef struct voq_table {
    voq_entry *entries;       /* by queue */
    int count, capacity;
    uint64_t *keys;           /* (buffer input, port) + 1 -> queue, open addressing; 0: empty */
    int32_t *values;
    int map_capacity;         /* a power of two, or 0 */
} voq_table;

void voq_table_free(voq_table *v);
/* Give ROUTE's stages their queue once, as a packet first takes it (-1
 * where the buffer before them is at a rank, or they are the route's
 * first); a buffer's input is its port << VC_SHIFT | its channel (the
 * engine's). */
void voq_assign(voq_table *v, route_table *r, const topology *t, int vc_shift, int route);

#endif
