/* port.c — serialization at a link's bandwidth and the far-end buffer's
 * occupancy and credits. */
#include "net/packet/port.h"

#include <string.h>

void port_init(port *p, net_time latency, long double bandwidth)
{
    memset(p, 0, sizeof *p);
    p->latency = latency;
    p->as_per_byte = bandwidth > 0 ? NET_TIME_PER_SECOND / bandwidth : 0;
    p->serializing.formula_end = -1;
    p->request_head = p->request_tail = -1;
    p->wake_at = NET_TIME_NEVER;
    p->stalled_since = -1;
    p->pool = -1;
}

void buffer_init(port_buffer *b, int64_t bytes)
{
    memset(b, 0, sizeof *b);
    b->credits = bytes;
    b->crossbar.formula_end = -1;
}

void buffer_grow_leaves(port_buffer *b, arena *a)
{
    uint32_t count = b->leave_end - b->leave_first, capacity = b->leaves ? 2 * (b->leave_mask + 1) : 16;
    leave *ring = arena_take(a, arena_log2(sizeof *ring * capacity));
    for (uint32_t i = 0; i < count; i++) ring[i] = *buffer_leave(b, b->leave_first + i); /* unwrapped */
    if (b->leaves) arena_give(a, b->leaves, arena_log2(sizeof *ring * (b->leave_mask + 1)));
    b->leaves = ring;
    b->leave_applied -= b->leave_first;
    b->leave_first = 0;
    b->leave_end = count;
    b->leave_mask = capacity - 1;
}
