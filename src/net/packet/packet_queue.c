/* packet_queue.c — growing a buffer's ring of packets. */
#include "net/packet/packet_queue.h"

#include "util/memory.h"

void packet_queue_grow(packet_queue *q, arena *a)
{
    int capacity = grow_ring_capacity(q->capacity, 16);
    packet *ring = arena_take(a, arena_log2(sizeof *ring * (size_t)capacity));
    for (int i = 0; i < q->count; i++) ring[i] = q->items[(q->first + i) & (q->capacity - 1)];
    if (q->items) arena_give(a, q->items, arena_log2(sizeof *ring * (size_t)q->capacity));
    q->items = ring;
    q->first = 0;
    q->capacity = capacity;
}
