/* packet_queue.h — packets, and the FIFO each input buffer keeps them in: a
 * ring of packets stored in place, so a packet moving on is copied from the
 * front of one buffer's ring to the back of the next, and a buffer's packets
 * sit together in memory.  Rings grow by doubling, from the engine's arena:
 * no allocation per packet. */
#ifndef COLLSIM_PACKET_QUEUE_H
#define COLLSIM_PACKET_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"
#include "net/packet/net_time.h"

typedef struct packet {
    net_time eligible;   /* when it may start on its next port: its head (cut-through) or tail
                            (store-and-forward) through the crossbar */
    net_time tail_ready; /* when its tail is through the crossbar: it cannot finish leaving earlier */
    uint32_t wire_bytes; /* payload + header, in scaled bytes (packet_params.h bounds a packet, the
                            executor the scale: under 2^32) */
    uint32_t born;       /* its place among the packets cut at their sources, in the order cut: its age
                            (age-based arbitration, arbitration.h), compared modulo 2^32 */
    int32_t message;     /* the message it belongs to */
    int32_t at;          /* the route stage (port) it waits for: an index into the route table's stages,
                            which say whose route it is (spray and adaptive may switch it at a fork) */
} packet;

_Static_assert(sizeof(packet) == 32, "two packets a cache line");

/* Whether a packet cut as the BORN-th is no older than one cut as the
 * OLDEST-th (modulo 2^32: packets in flight at once are far fewer apart). */
static inline bool packet_not_older(uint32_t born, uint32_t oldest)
{
    return (int32_t)(born - oldest) >= 0;
}

typedef struct packet_queue {
    packet *items;
    int first, count, capacity; /* capacity: a power of two, or 0 */
} packet_queue;

/* Q's ring, full, doubled (unwrapped) with memory from A. */
void packet_queue_grow(packet_queue *q, arena *a);

/* X (copied) at the back of Q; a full ring grows from A. */
static inline void packet_queue_push(packet_queue *q, const packet *x, arena *a)
{
    if (q->count == q->capacity) packet_queue_grow(q, a);
    q->items[(q->first + q->count++) & (q->capacity - 1)] = *x;
}

static inline packet *packet_queue_front(packet_queue *q)
{
    return &q->items[q->first];
}

static inline void packet_queue_pop(packet_queue *q)
{
    q->first = (q->first + 1) & (q->capacity - 1);
    q->count--;
}

#endif
