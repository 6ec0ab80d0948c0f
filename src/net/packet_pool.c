/* packet_pool.c — the packet free list. */
#include "net/packet_pool.h"

#include <stdlib.h>

#include "util/memory.h"

void packet_pool_init(packet_pool *p)
{
    *p = (packet_pool){.free_head = PACKET_NONE};
}

void packet_pool_free(packet_pool *p)
{
    free(p->items);
    packet_pool_init(p);
}

int32_t packet_take(packet_pool *p)
{
    int32_t id = p->free_head;
    if (id != PACKET_NONE) p->free_head = p->items[id].next;
    else {
        if (p->count == p->capacity) p->items = grow_array(p->items, &p->capacity, p->count + 1, sizeof *p->items);
        id = p->count++;
    }
    p->items[id].next = PACKET_NONE;
    if (++p->live > p->peak) p->peak = p->live;
    return id;
}

void packet_give_back(packet_pool *p, int32_t id)
{
    p->items[id].next = p->free_head;
    p->free_head = id;
    p->live--;
}
