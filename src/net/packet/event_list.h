/* event_list.h — the packet engine's pending events (htsim's EventList),
 * ordered by time and, at one time, by the order in which they were
 * scheduled, so events at one time run in that order on every machine: runs
 * are bit-identical.
 *
 * A calendar queue: time is cut into slots of 2^slot_bits attoseconds.  The
 * events of the current slot are in an array sorted on time (stably: ties
 * keep the order scheduled); those of the next 2^BUCKET_BITS slots wait in
 * per-slot buckets in the order scheduled (a bitmap finds the next non-empty
 * one) and are sorted in when their slot comes; later ones wait in a binary
 * heap on (time, sequence number).
 * A bucket holds its events by value in chunks of a few, so scheduling
 * writes one cache line and a slot's events are read back in a few.  A
 * bucket needs no sequence numbers: its events arrive in the order scheduled,
 * and the heap hands its events for a slot to the bucket before any other
 * can be scheduled there (they are the slot's oldest).
 * The engine picks slots of about 1/64 of its fastest packet time, so a slot
 * holds few events even when a thousand flows move in step; event_peek looks
 * past its end into the next bucket.
 * Shuffled ties (`--ties shuffled(SEED)`): events at one time run in
 * the order of a hash of the seed, the time and the event, the order
 * scheduled only among equal hashes (one event scheduled twice); the same
 * on every machine, and another order for another seed. */
#ifndef COLLSIM_EVENT_LIST_H
#define COLLSIM_EVENT_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"
#include "net/packet/net_time.h"

typedef struct event {
    net_time time;
    int32_t kind;   /* what happens (the engine's event kinds) */
    int32_t target; /* to what: a port, a buffer, a message */
} event;

#define EVENT_CHUNK 7 /* events per chunk: a chunk is two cache lines */

typedef struct event_chunk {
    int32_t next;   /* the bucket's next chunk, or the next free one; -1 for none */
    int32_t count;
    event items[EVENT_CHUNK];
    int64_t pad;
} event_chunk;

typedef struct event_later {   /* an event beyond the calendar's span */
    event e;
    uint64_t sequence;         /* the order scheduled */
} event_later;

typedef struct event_list {
    arena memory;              /* the buckets and their chunks (huge pages) */
    int slot_bits;             /* a slot is 2^slot_bits attoseconds */
    net_time window;           /* start of the current slot */
    event *current;            /* the current slot's events, sorted, from `soonest` on */
    int soonest, current_count, current_capacity;
    event *spare;              /* as many events' room, which sorting fills */
    int spare_capacity;
    int32_t *first, *last;     /* per bucket: its chunks, first and last (-1: empty) */
    uint64_t *occupied;        /* per bucket: a bit, set when it holds events */
    event_chunk *chunks;
    int chunk_count, chunk_capacity;
    int32_t free_chunk;
    int32_t peek_chunk;        /* the first chunk of the next bucket with events when the slot
                                  became current, or -1: where event_peek looks past the slot */
    struct event_heap {        /* events beyond the calendar's span, on (time, sequence) */
        event_later *items;
        int count, capacity;
    } later;
    uint64_t scheduled;        /* events ever scheduled: the heap's next sequence number */
    bool shuffled;             /* ties in the order of tie_key, not the order scheduled */
    uint64_t seed;
} event_list;

/* An empty list whose slots are 2^SLOT_BITS attoseconds; ties in the order scheduled. */
void event_list_init(event_list *l, int slot_bits);
/* From now on (L holds no event yet), ties in an order drawn from SEED. */
void event_list_shuffle_ties(event_list *l, uint64_t seed);
void event_list_free(event_list *l);
#define EVENT_BUCKET_BITS 14
#define EVENT_BUCKETS (1 << EVENT_BUCKET_BITS)

/* X (at the current slot or later) into the current slot, its bucket or the heap. */
void event_file(event_list *l, event x);
static inline void event_schedule(event_list *l, net_time time, int kind, int target)
{
    event x = {time, kind, target};
    uint64_t ahead = (uint64_t)(time - l->window), slot = (uint64_t)1 << l->slot_bits;
    if (ahead - slot < ((uint64_t)EVENT_BUCKETS - 1) << l->slot_bits) { /* a later slot within the calendar */
        int32_t c = l->last[(time >> l->slot_bits) & (EVENT_BUCKETS - 1)];
        if (c >= 0 && l->chunks[c].count < EVENT_CHUNK) { /* room in its bucket's last chunk */
            event_chunk *k = &l->chunks[c];
            k->items[k->count++] = x;
            l->scheduled++;
            return;
        }
    }
    event_file(l, x);
}

/* The current slot is done: make the next one with events current, unless
 * it starts after UNTIL.  False if there is none. */
bool event_next_slot(event_list *l, net_time until);
/* Remove the earliest event into *OUT if its time is at most UNTIL.  Events
 * may then be scheduled at UNTIL or later, not earlier. */
static inline bool event_pop(event_list *l, net_time until, event *out)
{
    if (l->soonest == l->current_count && !event_next_slot(l, until)) return false;
    const event *x = &l->current[l->soonest];
    if (x->time > until) return false;
    l->soonest++;
    *out = *x;
    return true;
}
/* The K-th event after the next one, NULL if none known yet: in the current
 * slot, else among the first of the next bucket (in the order scheduled).  A
 * hint for prefetching: later scheduling may put others before it, and the
 * next bucket's chunk may have been recycled since (its events are then
 * others, still events). */
static inline const event *event_peek(const event_list *l, int k)
{
    int i = l->soonest + k;
    if (i < l->current_count) return &l->current[i];
    i -= l->current_count;
    int32_t c = l->peek_chunk;
    return c >= 0 && i < l->chunks[c].count ? &l->chunks[c].items[i] : (const event *)0;
}

#endif
