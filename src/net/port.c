/* port.c — serialization at a link's bandwidth and the far-end buffer's
 * occupancy and credits. */
#include "net/port.h"

#include <stdlib.h>
#include <string.h>

#include "util/memory.h"

void port_init(port *p, net_time latency, long double bandwidth, int64_t buffer_bytes)
{
    memset(p, 0, sizeof *p);
    p->latency = latency;
    p->as_per_byte = bandwidth > 0 ? NET_TIME_PER_SECOND / bandwidth : 0;
    p->formula_end = -1;
    p->request_head = p->request_tail = -1;
    p->wake_at = NET_TIME_NEVER;
    p->stalled_since = -1;
    for (int v = 0; v < PORT_VCS; v++) {
        p->far[v].credits = buffer_bytes;
    }
}

void port_free(port *p)
{
    for (int v = 0; v < PORT_VCS; v++) {
        free(p->far[v].leaves);
        packet_queue_free(&p->far[v].queue);
    }
}

net_time port_transmit(port *p, net_time now, int64_t wire, net_time tail_ready)
{
    if (now != p->formula_end) { /* idle before, or held back by a tail: a new busy period */
        p->origin = now;
        p->origin_bytes = 0;
    }
    p->origin_bytes += wire;
    net_time end = p->origin + (net_time)(p->origin_bytes * p->as_per_byte + 0.5L); /* rounded, >= 0 */
    p->formula_end = end;
    if (end < tail_ready) end = tail_ready;
    p->bytes += wire;
    p->packets++;
    p->busy += end - now;
    return end;
}

static leave *leave_at(const port_buffer *b, int i)
{
    return &b->leaves[(b->leave_first + i) & (b->leave_capacity - 1)];
}

void buffer_leaves(port_buffer *b, net_time time, int64_t bytes)
{
    if (b->leave_count == b->leave_capacity) { /* grow the ring, unwrapped */
        int capacity = b->leave_capacity ? 2 * b->leave_capacity : 16;
        leave *ring = malloc(sizeof *ring * (size_t)capacity);
        if (!ring) out_of_memory();
        for (int i = 0; i < b->leave_count; i++) ring[i] = *leave_at(b, i);
        free(b->leaves);
        b->leaves = ring;
        b->leave_first = 0;
        b->leave_capacity = capacity;
    }
    int i = b->leave_count++;
    while (i > b->leave_applied && leave_at(b, i - 1)->time > time) { /* leaves come nearly in order */
        *leave_at(b, i) = *leave_at(b, i - 1);
        i--;
    }
    *leave_at(b, i) = (leave){time, bytes};
}

static void occupancy_change(port_buffer *b, net_time now, int64_t delta)
{
    b->occupancy_integral += (double)b->occupancy * (double)(now - b->occupancy_since);
    b->occupancy_since = now;
    b->occupancy += delta;
    if (b->occupancy > b->peak_occupancy) b->peak_occupancy = b->occupancy;
}

void buffer_settle_due(port_buffer *b, net_time latency, net_time now)
{
    while (b->leave_applied < b->leave_count && leave_at(b, b->leave_applied)->time <= now) {
        const leave *l = leave_at(b, b->leave_applied++);
        occupancy_change(b, l->time, -l->bytes);
    }
    while (b->leave_applied > 0 && b->leaves[b->leave_first].time + latency <= now) {
        b->credits += b->leaves[b->leave_first].bytes;
        b->leave_first = (b->leave_first + 1) & (b->leave_capacity - 1);
        b->leave_count--;
        b->leave_applied--;
    }
}

void buffer_enter(port_buffer *b, net_time now, int64_t bytes)
{
    occupancy_change(b, now, bytes);
    b->credits -= bytes;
}

net_time buffer_next_credit(const port_buffer *b, net_time latency)
{
    return b->leave_count ? b->leaves[b->leave_first].time + latency : NET_TIME_NEVER;
}
