/* packet_pool.h — packets in flight, kept in one growing array and recycled
 * through a free list: no allocation per packet.  A packet is named by its
 * index, which stays valid when the array grows. */
#ifndef COLLSIM_PACKET_POOL_H
#define COLLSIM_PACKET_POOL_H

#include <stdint.h>

#include "net/net_time.h"

#define PACKET_NONE (-1)

typedef struct packet {
    int32_t next;        /* the next packet in its buffer's FIFO (or in the free list) */
    int32_t message;     /* the message it belongs to */
    int32_t route;       /* its route; spray and adaptive may switch it at a fork */
    int32_t at;          /* the route stage (port) it waits for: an index into the route table's stages */
    int64_t wire_bytes;  /* payload + header, in scaled bytes */
    net_time eligible;   /* when it may start on that port: its head (cut-through) or tail
                            (store-and-forward) through the crossbar */
    net_time tail_ready; /* when its tail is through the crossbar: it cannot finish leaving earlier */
} packet;

typedef struct packet_pool {
    packet *items;
    int count, capacity; /* slots ever used, slots allocated */
    int32_t free_head;
    long live, peak;     /* packets in flight now, and at most */
} packet_pool;

void packet_pool_init(packet_pool *p);
void packet_pool_free(packet_pool *p);
int32_t packet_take(packet_pool *p);
void packet_give_back(packet_pool *p, int32_t id);

#endif
