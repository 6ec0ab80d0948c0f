/* event_list.h — the packet engine's pending events (htsim's EventList),
 * ordered by (time, sequence number).  The sequence number is the order in
 * which events were scheduled, so events at one time run in that order on
 * every machine: runs are bit-identical.
 *
 * A calendar queue: time is cut into slots of 2^slot_bits attoseconds.  The
 * events of the current slot are in an array sorted on (time, sequence);
 * those of the next 2^BUCKET_BITS slots wait in per-slot lists in the order
 * scheduled (a bitmap finds the next non-empty one) and are sorted in when
 * their slot comes; later ones wait in a binary heap.
 * The engine picks slots of about 1/64 of its fastest packet time, so a
 * slot holds few events even when a thousand flows move in step: scheduling
 * and taking an event cost about a hundred instructions, where a binary heap
 * of the thousands pending costs some 300 (callgrind, the 1,024-rank
 * permutation of scripts/bench). */
#ifndef COLLSIM_EVENT_LIST_H
#define COLLSIM_EVENT_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "net/net_time.h"

typedef struct event {
    net_time time;
    uint64_t sequence;
    int32_t kind;   /* what happens (the engine's event kinds) */
    int32_t target; /* to what: a port, a buffer, a message */
} event;

typedef struct event_node {
    event e;
    int32_t next;   /* next in its slot's list, or in the free list */
} event_node;

typedef struct event_list {
    event_node *nodes;
    int node_count, node_capacity;
    int32_t free;
    int slot_bits;         /* a slot is 2^slot_bits attoseconds */
    int32_t *first, *last; /* per bucket: its events in the order scheduled */
    uint64_t *occupied;    /* per bucket: a bit, set when its list is not empty */
    net_time window;       /* start of the current slot */
    int32_t *current;      /* the current slot's events, sorted, from `soonest` on */
    int soonest, current_count, current_capacity;
    struct event_heap {    /* events beyond the calendar's span: a binary heap on (time, sequence) */
        int32_t *nodes;
        int count, capacity;
    } later;
    long count;            /* events pending */
    uint64_t scheduled;    /* events ever scheduled: the next sequence number */
} event_list;

/* An empty list whose slots are 2^SLOT_BITS attoseconds. */
void event_list_init(event_list *l, int slot_bits);
void event_list_free(event_list *l);
void event_schedule(event_list *l, net_time time, int kind, int target);
/* Remove the earliest event into *OUT if its time is at most UNTIL.  Events
 * may then be scheduled at UNTIL or later, not earlier. */
bool event_pop(event_list *l, net_time until, event *out);

#endif
