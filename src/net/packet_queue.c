/* packet_queue.c — growing a buffer's ring of packets. */
#include "net/packet_queue.h"

#include <stdlib.h>

#include "util/memory.h"

void packet_queue_push(packet_queue *q, const packet *x)
{
    if (q->count == q->capacity) { /* double the ring, unwrapped */
        int capacity = q->capacity ? 2 * q->capacity : 16;
        packet *ring = malloc(sizeof *ring * (size_t)capacity);
        if (!ring) out_of_memory();
        for (int i = 0; i < q->count; i++) ring[i] = q->items[(q->first + i) & (q->capacity - 1)];
        free(q->items);
        q->items = ring;
        q->first = 0;
        q->capacity = capacity;
    }
    q->items[(q->first + q->count++) & (q->capacity - 1)] = *x;
}

void packet_queue_free(packet_queue *q)
{
    free(q->items);
    *q = (packet_queue){0};
}
